"""``pycute-layouts owners``: which thread and register hold an element of an MMA operand, and what a thread holds.

The two questions a kernel engineer asks of an MMA atom or a tiled MMA -- "which thread and which
register hold C(m, n)?" (``--coord M,N``) and "what does thread t hold?" (``--thread T``) -- answered
by :func:`pycute_layouts.arch.atoms.owners` and :func:`~pycute_layouts.arch.atoms.thread_fragment`.
A register is the value's index ``V`` in the thread's fragment, in CuTe's value order (CuTe's
``T#V#``); coordinates are ``(row, col)`` of the operand's tile: A is M x K, B is N x K, C is M x N.

>>> from pycute_layouts.cli import main
>>> main(["owners", "SM80_16x8x16_F32F16F16F32_TN", "--coord", "9,3"])
SM80_16x8x16_F32F16F16F32_TN C (16x8): C(9,3) is held by T5 V3
0
>>> main(["owners", "SM80_16x8x16_F32F16F16F32_TN", "--thread", "5"])
SM80_16x8x16_F32F16F16F32_TN C (16x8): T5 holds 4 values
  V0 (1,2)  V1 (1,3)  V2 (9,2)  V3 (9,3)
0
"""

from __future__ import annotations

import argparse
import json
import re
from typing import Any

from ...arch import atoms
from ...errors import LayoutValueError
from ...limits import fmt
from ._common import subparsers

__all__ = ["register"]

#: Pairs printed per line of a long answer, and the most (thread, value) pairs listed for one element.
_PER_LINE = 8
_MAX_LISTED = 16


def _ints(text: str, n: int | None, what: str) -> tuple[int, ...]:
    parts = [p for p in re.split(r"[,xX]", text.strip()) if p.strip() != ""]
    try:
        vals = tuple(int(p, 0) for p in parts)
    except ValueError:
        raise LayoutValueError(f"owners: {what} must be integers separated by ',', got {fmt(text)}") from None
    if n is not None and len(vals) != n:
        raise LayoutValueError(f"owners: {what} takes {n} integers, got {fmt(text)}")
    return vals


def _target(args: argparse.Namespace) -> tuple[Any, str]:
    """The MMA atom or tiled MMA the options name, and its description."""
    a = atoms.mma_atom(args.atom)
    if args.atom_layout is None and args.permute is None:
        return a, a.name
    lay = _ints(args.atom_layout, 3, "--atom-layout") if args.atom_layout else (1, 1, 1)
    perm: tuple[Any, ...] = (None, None, None)
    if args.permute:
        items = [p.strip() for p in args.permute.split(",")]
        if len(items) != 3:
            raise LayoutValueError(f"owners: --permute takes three entries M,N,K (an extent or _), got {fmt(args.permute)}")
        perm = tuple(None if p in ("_", "") else _ints(p, 1, "--permute")[0] for p in items)
    t = atoms.make_tiled_mma(a, lay, perm)
    return t, f"make_tiled_mma({a.name}, {'x'.join(map(str, lay))}{', ' + args.permute if args.permute else ''})"


def _tile_shape(target: Any, op: str, tile: Any) -> tuple[int, int]:
    if isinstance(target, atoms.MmaAtom) and tile is None:
        return target.tile_shape(op)
    if tile is not None:
        return tile
    d0, d1 = {"A": (0, 2), "B": (1, 2), "C": (0, 1)}[op]
    return target.tile_size_mnk[d0], target.tile_size_mnk[d1]


def _cmd_owners(args: argparse.Namespace) -> int:
    if (args.coord is None) == (args.thread is None):
        raise LayoutValueError("owners: give --coord M,N (who holds an element) or --thread T (what a thread holds), "
                               "exactly one")
    target, name = _target(args)
    op = (args.operand or "C").strip().upper()
    op = "C" if op == "D" else op
    tile = _ints(args.tile, 2, "--tile") if args.tile else None
    rows, cols = _tile_shape(target, op, tile)
    head = f"{name} {op} ({rows}x{cols})"
    out: list[dict] = []
    lines: list[str] = []
    if args.coord is not None:
        for text in args.coord:
            r, c = _ints(text, 2, "--coord")
            pairs = atoms.owners(target, op, (r, c), tile)
            out.append({"coord": [r, c], "owners": [{"thread": t, "value": v} for t, v in pairs]})
            if not pairs:
                lines.append(f"{head}: {op}({r},{c}) is held by no thread")
                continue
            listed = ", ".join(f"T{t} V{v}" for t, v in pairs[:_MAX_LISTED])
            more = f", ... ({len(pairs)} (thread, value) pairs: every thread that reads it)" \
                if len(pairs) > _MAX_LISTED else ""
            lines.append(f"{head}: {op}({r},{c}) is held by {listed}{more}")
    else:
        for t in _ints(args.thread, None, "--thread"):
            frag = atoms.thread_fragment(target, op, t, tile)
            out.append({"thread": t, "values": [{"value": v, "coord": list(rc)} for v, rc in frag]})
            lines.append(f"{head}: T{t} holds {len(frag)} value{'s' if len(frag) != 1 else ''}")
            cells = [f"V{v} ({rc[0]},{rc[1]})" for v, rc in frag]
            width = max(len(x) for x in cells)
            for i in range(0, len(cells), _PER_LINE):
                lines.append("  " + "  ".join(x.ljust(width) for x in cells[i:i + _PER_LINE]).rstrip())
    if args.json:
        print(json.dumps({"mma": name, "operand": op, "tile": [rows, cols], "answers": out}))
    else:
        print("\n".join(lines))
    return 0


def register(sub: Any) -> None:
    """Add the ``owners`` subcommand to an argparse subparsers object.

    Usage: ``pycute-layouts owners ATOM [--coord ROW,COL] [--thread T,...]``.

    >>> p = argparse.ArgumentParser(); register(p.add_subparsers())
    >>> p.parse_args(["owners", "SM80_16x8x16_F32F16F16F32_TN", "--thread", "5"]).thread
    '5'
    """
    sub = subparsers(sub, "owners.register")
    p = sub.add_parser(
        "owners", help="which thread and register hold A/B/C(m, n) of an MMA; what thread t holds",
        description="Answer the two fragment questions of an MMA atom or a tiled MMA: which threads and registers "
                    "(CuTe's T#V#: thread, value index in its fragment) hold element (row, col) of operand A (M x K), "
                    "B (N x K) or C (M x N) (--coord), and which elements thread T holds, in register order "
                    "(--thread). Elements of an operand read from shared memory (an SS wgmma's A and B) are held by "
                    "every thread of the warpgroup.")
    p.add_argument("atom", metavar="ATOM", help='an MMA atom by CuTe\'s name, e.g. "SM90_64x128x16_F32BF16BF16_SS" or '
                   '"SM80_16x8x16_F32F16F16F32_TN"')
    p.add_argument("--operand", default="C", help="A, B or C (default C, the accumulator)")
    p.add_argument("--coord", action="append", metavar="ROW,COL",
                   help="an element of the operand's tile (repeatable): who holds it")
    p.add_argument("--thread", metavar="T[,T...]", help="thread indices: what each holds, in register order")
    p.add_argument("--atom-layout", metavar="MxNxK",
                   help="tile the atom as CuTe's make_tiled_mma(atom, Layout<Shape<M,N,K>>), e.g. 2x1x1")
    p.add_argument("--permute", metavar="M,N,K",
                   help="with the tiled MMA: the tile extents per mode (an integer or _), e.g. _,256,_")
    p.add_argument("--tile", metavar="ROWSxCOLS",
                   help="the operand's tile when larger than one atom or tiled MMA (a multiple of it)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=_cmd_owners)
