"""``pycute-layouts shfl MODE B C``: SHFL lane maps.

>>> import argparse
>>> p = argparse.ArgumentParser(); register(p.add_subparsers())
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from ...arch import shfl as shfl_mod
from ...errors import LayoutError
from ._common import int0, subparsers

__all__ = ["register"]


def _cmd_shfl(args: argparse.Namespace) -> int:
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



def register(sub: Any) -> None:
    """Add the ``shfl`` subcommand to an argparse subparsers object.

    Usage: ``pycute-layouts shfl MODE B C [--active-mask MASK]``.

    >>> p = argparse.ArgumentParser(); register(p.add_subparsers())
    >>> p.parse_args(["shfl", "BFLY", "1", "0x1f"]).c
    31
    """
    sub = subparsers(sub, "shfl.register")
    h = sub.add_parser("shfl", help="SHFL lane map: source lane and predicate for each of the 32 lanes",
                       description="Lane map of SASS SHFL.mode with Sb (5-bit index) and Sc (mask<<8 | clamp).")
    h.add_argument("mode", help="IDX, UP, DOWN or BFLY")
    h.add_argument("b", type=int0, help="Sb: source lane index or delta (0..31)")
    h.add_argument("c", type=int0, help="Sc: segmentation mask in bits 12:8, clamp in bits 4:0 (e.g. 0x1c03)")
    h.add_argument("--active-mask", type=int0, default=0xFFFFFFFF, help="active lanes (default 0xffffffff)")
    h.add_argument("--json", action="store_true", help="print JSON")
    h.set_defaults(func=_cmd_shfl)
