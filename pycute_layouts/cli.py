"""The ``pycute-layouts`` command line.

Subcommands: ``show`` (a layout's function as a table). Exit code 2 with a one-line error on
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
