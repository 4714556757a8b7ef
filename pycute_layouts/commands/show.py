"""``pycute-layouts show LAYOUT``: a layout's function as a table.

>>> import argparse
>>> p = argparse.ArgumentParser(); register(p.add_subparsers())
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from ._common import defines

__all__ = ["register"]


def _cmd_show(args: argparse.Namespace) -> int:
    from ..notation import parse
    from ..render import layout_table

    obj = parse(args.layout, **defines(args.define))
    if args.json:
        data = {"layout": str(obj), "size": int(obj.size()), "values": [int(x) for x in obj.to_numpy()]}
        print(json.dumps(data))
        return 0
    print(layout_table(obj))
    return 0



def register(sub: Any) -> None:
    """Add the ``show`` subcommand to an argparse subparsers object."""
    s = sub.add_parser("show", help="print a layout's function as a table", description="Print a layout as a table.")
    s.add_argument("layout", help='CuTe notation, e.g. "Sw<3,4,3> o 0 o (8,64):(64,1)"')
    s.add_argument("-D", "--define", action="append", metavar="NAME=VALUE", help="bind a symbol (repeatable)")
    s.add_argument("--json", action="store_true", help="print JSON")
    s.set_defaults(func=_cmd_show)
