"""``pycute-layouts convert TEXT --from F --to T``: CuTe notation, CuTe DSL and Triton Gluon layouts, both ways.

``--from``: ``cute`` (CuTe notation, or an MMA/copy atom name with ``--operand``), ``dsl`` (what the CuTe DSL
prints: ``S<3,4,3> o 0 o ...``; ``--swizzle-on pointer`` for a pointer swizzle), ``gluon`` (Gluon source,
converted by Triton itself: needs ``pip install 'pycute-layouts[interop]'``) or ``triton`` (linear-layout
bases as JSON). ``--to``: ``cute``, ``dsl`` (DSL source), ``gluon`` (Gluon source), ``triton`` (bases as
JSON) or ``picture`` (a thread-value layout as CuTe's TV picture and as Triton's register/lane/warp
table, side by side).

>>> import argparse
>>> p = argparse.ArgumentParser(); register(p.add_subparsers())
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from ...arch import atoms
from ...core.composed import SwizzledSmemLayout
from ...core.notation import parse
from ...errors import LayoutError, LayoutValueError
from ...interop import cute_dsl, triton
from ...limits import fmt
from ...render import tv as render_tv
from ._common import subparsers

__all__ = ["register"]


def _shape(text: str | None) -> list[int] | None:
    if text is None:
        return None
    parts = [p for p in text.replace("x", ",").replace("[", "").replace("]", "").split(",") if p.strip()]
    try:
        return [int(p, 0) for p in parts]
    except ValueError:
        raise LayoutValueError(f"--shape expects sizes like 64,64 (Triton's dim order), got {fmt(text)}") from None


def _read(args: argparse.Namespace, shape: list[int] | None) -> tuple[Any, list[int] | None, str | None]:
    """(object, shape, kind hint) of the input."""
    src = args.text
    if args.source == "dsl":
        return cute_dsl.from_cute_dsl(src, args.element_bits, args.swizzle_on), shape, None
    if args.source == "gluon":
        if shape is None:
            raise LayoutValueError("--from gluon needs --shape (e.g. --shape 64,64)")
        obj = triton.from_gluon(src, shape, args.element_bits, warp_size=args.warp_size)
        kind = "tmem" if "TensorMemoryLayout" in src else "distributed" if _is_tv(obj, shape) else "shared"
        return obj, shape, kind
    if args.source == "triton":
        try:
            data = json.loads(src)
        except json.JSONDecodeError as e:
            raise LayoutValueError(f"--from triton expects the bases as JSON, e.g. "
                                   f'{{"offset_bases": [[0, 1], [1, 0]]}}: {e.msg}') from None
        if not isinstance(data, dict):
            raise LayoutValueError("--from triton expects a JSON object with reg_bases/lane_bases/warp_bases/shape or "
                                   "offset_bases")
        shape = shape or data.get("shape")
        obj = triton.from_linear_layout(data, element_bits=args.element_bits, warp_size=args.warp_size,
                                        shape=shape if "offset_bases" in data else None)
        return obj, shape, "shared" if "offset_bases" in data else "distributed"
    name = "".join(src.split())
    if name.startswith(("SM75_U", "SM90_U", "SM100_TMEM_", "SM80_", "SM90_64x", "SM100_MMA_")):
        a = atoms.atom(name)
        if args.target == "dsl":
            return a, shape, None
        lay, tile, row_major, _, _, _ = render_tv.atom_layout_for_picture(a, args.operand or "C")
        if row_major:
            raise LayoutValueError(f"{name}: a copy atom's reference tile is row-major; convert its layout text instead")
        return lay, shape or list(tile), "distributed"
    obj = parse(src)
    if args.element_bits is not None and not isinstance(obj, SwizzledSmemLayout) and hasattr(obj, "outer"):
        obj = cute_dsl.from_cute_dsl(str(obj), args.element_bits)
    return obj, shape, None


def _is_tv(obj: Any, shape: list[int]) -> bool:
    if isinstance(obj, SwizzledSmemLayout) or hasattr(obj, "outer"):
        return False
    sizes = [int(obj[i].size()) for i in range(obj.rank())]
    return sizes != list(shape)


def _picture(tv: Any, shape: list[int], warp_size: int) -> str:
    if len(shape) != 2:
        raise LayoutValueError(f"--to picture draws a rank-2 tile, got shape {shape}")
    if shape[0] * shape[1] > 64 * 64:
        raise LayoutValueError(f"--to picture: a {shape[0]}x{shape[1]} tile is too large to print (at most 64 x 64)")
    pic = render_tv.tv_picture(tv, (shape[0], shape[1]))
    left_w = max(len(c) for row in pic.labels for c in row) + 1
    left = ["    " + "".join(f"{c:>{left_w}}" for c in range(shape[1]))]
    left += [f"{r:<4}" + "".join(f"{lab or '.':>{left_w}}" for lab in row) for r, row in enumerate(pic.labels)]
    right = triton.gluon_table(tv, shape, warp_size=warp_size).splitlines()
    width = max(len(x) for x in left)
    head = [f"{'CuTe TV (thread T, value V): ' + str(tv):<{width}}   Triton (warp W, lane L, register R)"]
    return "\n".join(head + [f"{a:<{width}}   {b}" for a, b in zip(left, right)])


def _cmd_convert(args: argparse.Namespace) -> int:
    shape = _shape(args.shape)
    obj, shape, kind = _read(args, shape)
    kind = args.kind or kind
    tgt = args.target
    if tgt == "cute":
        print(obj)
        if isinstance(obj, SwizzledSmemLayout) and not obj.swizzle.is_identity():
            try:  # both CuTe forms of a swizzled placement: either pasted into CuTe means the same
                print(f"= {obj.as_composed()}  (the same placement, swizzle on {obj.element_bits}-bit element offsets)")
            except LayoutError:
                print(f"  (no element-offset form: the swizzle splits {obj.element_bits}-bit elements)")
    elif tgt == "dsl":
        print(cute_dsl.to_cute_dsl(obj))
    elif tgt in ("gluon", "triton", "picture"):
        if shape is None:
            raise LayoutValueError(f"--to {tgt} needs --shape (the tensor's sizes in Triton's dim order, e.g. 64,64)")
        if tgt == "gluon":
            print(triton.to_gluon(obj, shape, kind=kind, element_bits=args.element_bits, warp_size=args.warp_size))
        elif tgt == "triton":
            print(json.dumps(triton.to_linear_bases(obj, shape, kind=kind, warp_size=args.warp_size)))
        else:
            if kind == "shared" or isinstance(obj, SwizzledSmemLayout) or hasattr(obj, "outer"):
                raise LayoutValueError("--to picture draws a thread-value layout; a shared layout is drawn by "
                                       "`pycute-layouts show`")
            print(_picture(obj, shape, args.warp_size))
    return 0


def register(sub: Any) -> None:
    """Add the ``convert`` subcommand to an argparse subparsers object.

    Usage: ``pycute-layouts convert TEXT [--from F] [--to T] [--shape D0,D1]``.

    >>> p = argparse.ArgumentParser(); register(p.add_subparsers())
    >>> p.parse_args(["convert", "(8,64):(64,1)", "--to", "dsl"]).target
    'dsl'
    """
    sub = subparsers(sub, "convert.register")
    c = sub.add_parser("convert", help="convert layouts between CuTe notation, the CuTe DSL and Triton Gluon",
                       description="Read a layout as CuTe notation, CuTe DSL output, Gluon source or Triton bases; "
                                   "write it as any of them, or draw a thread-value layout as CuTe's TV picture next "
                                   "to Triton's register/lane/warp table. Gluon input needs Triton "
                                   "(pip install 'pycute-layouts[interop]').")
    c.add_argument("text", help='the layout: "(8,64):(64,1)", "S<3,4,3> o 0 o (8,64):(64,1)", '
                                '"gl.NVMMASharedLayout(128, 16)", an atom name, or JSON bases')
    c.add_argument("--from", dest="source", choices=("cute", "dsl", "gluon", "triton"), default="cute",
                   help="what TEXT is (default cute)")
    c.add_argument("--to", dest="target", choices=("cute", "dsl", "gluon", "triton", "picture"), default="cute",
                   help="what to print (default cute)")
    c.add_argument("--shape", metavar="D0,D1", help="the tensor's shape in Triton's dim order (gluon, triton, picture)")
    c.add_argument("-e", "--element-bits", type=int, metavar="BITS",
                   help="element width: a shared layout becomes explicit in units (Sw<..> o smem_ptr[BITSb])")
    c.add_argument("--swizzle-on", choices=("layout", "pointer"), default="layout",
                   help="--from dsl: the DSL prints one string for both: 'layout' = the layout's own units (a composed "
                        "tensor layout), 'pointer' = byte addresses (make_smem_layout_atom, allocate_tensor(.., swizzle=))")
    c.add_argument("--kind", choices=("shared", "distributed", "tmem"),
                   help="--to gluon/triton: a plain Layout as (d0, d1) -> offset (shared), (thread, value) -> index "
                        "(distributed) or (d0, d1) -> lane << 16 | column (tmem, --to gluon only)")
    c.add_argument("--operand", help="with an MMA atom name: A, B or C (default C)")
    c.add_argument("--warp-size", type=int, default=32, help="threads per warp (64 for AMD waves)")
    c.set_defaults(func=_cmd_convert)
