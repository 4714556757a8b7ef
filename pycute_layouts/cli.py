"""The ``pycute-layouts`` command line.

Subcommands: ``show`` (a layout's function as a table), ``shfl`` (SHFL lane maps). Exit code 2 with a one-line error on
bad input, never a traceback.

>>> main(["show", "(2,2):(1,2)"])
(2,2):(1,2)
       0   1
    +---+---+
 0  | 0 | 2 |
    +---+---+
 1  | 1 | 3 |
    +---+---+
0
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from .errors import LayoutError

__all__ = ["main", "build_parser"]


def _defines(items: Sequence[str] | None) -> dict:
    out: dict = {}
    for item in items or ():
        if "=" not in item:
            raise LayoutError(f"-D expects NAME=VALUE, got {item!r}")
        k, v = item.split("=", 1)
        try:
            out[k.strip()] = int(v, 0)
        except ValueError:
            raise LayoutError(f"-D {k}: value must be an integer, got {v!r}") from None
    return out


def _cmd_show(args: argparse.Namespace) -> int:
    from .notation import parse
    from .render import layout_table

    obj = parse(args.layout, **_defines(args.define))
    if args.json:
        data = {"layout": str(obj), "size": int(obj.size()), "values": [int(x) for x in obj.to_numpy()]}
        print(json.dumps(data))
        return 0
    print(layout_table(obj))
    return 0


def _int0(text: str) -> int:
    try:
        return int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer (decimal or 0x hex), got {text!r}") from None


def _cmd_shfl(args: argparse.Namespace) -> int:
    from .arch import shfl as shfl_mod

    r = shfl_mod.shfl(args.mode, args.b, args.c, active_mask=args.active_mask)
    try:
        lay = str(shfl_mod.lane_layout(args.mode, args.b, args.c))
    except LayoutError:
        lay = None
    if args.json:
        data = {
            "mode": r.mode, "b": args.b, "c": args.c, "active_mask": args.active_mask,
            "min_lane": [int(x) for x in r.min_lane], "max_lane": [int(x) for x in r.max_lane],
            "source_lane": [int(x) for x in r.source_lanes], "in_range": [bool(x) for x in r.in_range],
            "unpredictable": [int(x) for x in r.unpredictable], "layout": lay,
        }
        print(json.dumps(data))
        return 0
    print(f"SHFL.{r.mode} Sb={args.b:#x} Sc={args.c:#x} (mask={r.mask:05b}, clamp={r.clamp}) "
          f"active_mask={args.active_mask:#010x}")
    if lay:
        print(f"lane map as a layout: {lay}")
    print("lane  src  in_range")
    unpred = set(int(x) for x in r.unpredictable)
    for i, lane in enumerate(r):
        note = "  UNPREDICTABLE (source lane inactive)" if i in unpred else ""
        print(f"{i:>4}  {lane.source_lane:>3}  {'yes' if lane.in_range else 'no':>8}{note}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argparse parser with every subcommand.

    >>> build_parser().prog
    'pycute-layouts'
    """
    p = argparse.ArgumentParser(prog="pycute-layouts", description="CuTe layout algebra, wgmma/TMA facts and proofs")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    s = sub.add_parser("show", help="print a layout's function as a table", description="Print a layout as a table.")
    s.add_argument("layout", help='CuTe notation, e.g. "Sw<3,4,3> o 0 o (8,64):(64,1)"')
    s.add_argument("-D", "--define", action="append", metavar="NAME=VALUE", help="bind a symbol (repeatable)")
    s.add_argument("--json", action="store_true", help="print JSON")
    s.set_defaults(func=_cmd_show)
    h = sub.add_parser("shfl", help="SHFL lane map: source lane and predicate for each of the 32 lanes",
                       description="Lane map of SASS SHFL.mode with Sb (5-bit index) and Sc (mask<<8 | clamp).")
    h.add_argument("mode", help="IDX, UP, DOWN or BFLY")
    h.add_argument("b", type=_int0, help="Sb: source lane index or delta (0..31)")
    h.add_argument("c", type=_int0, help="Sc: segmentation mask in bits 12:8, clamp in bits 4:0 (e.g. 0x1c03)")
    h.add_argument("--active-mask", type=_int0, default=0xFFFFFFFF, help="active lanes (default 0xffffffff)")
    h.add_argument("--json", action="store_true", help="print JSON")
    h.set_defaults(func=_cmd_shfl)
    return p


class _Parser(argparse.ArgumentParser):
    pass


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (2 for bad input, with a one-line message).

    >>> main(["show", "(2,"])
    2
    """
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:
        return int(e.code or 0)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return args.func(args)
    except LayoutError as e:
        msg = str(e).splitlines()[0]
        print(f"pycute-layouts {args.command}: error: {msg}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
