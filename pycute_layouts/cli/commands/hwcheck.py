"""``pycute-layouts hwcheck``: generate the GPU checks (``--emit DIR``) or verify a GPU result file (``--verify``).

``--emit DIR`` writes every generated source of the hardware checks (TMA, im2col, validation, wgmma, atoms,
bank conflicts, the GEMM) that ``examples/hardware/run.sh DIR OUT.json`` builds and runs on a Hopper GPU
into one result file. ``--verify FILE`` recomputes every prediction with the current library, prints a
pass/fail table and exits 1 on any mismatch (with ``--allow-known``: only on mismatches that no documented
known difference explains), 2 for a file that is not a result file.

>>> import argparse
>>> p = argparse.ArgumentParser(); register(p.add_subparsers())
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from ... import hwcheck
from ...errors import LayoutError
from ._common import subparsers

__all__ = ["register"]


def _cmd_hwcheck(args: argparse.Namespace) -> int:
    if bool(args.emit) == bool(args.verify):
        raise LayoutError("hwcheck: give exactly one of --emit DIR or --verify RESULTS.json")
    if args.emit:
        counts = hwcheck.emit(args.emit)
        if args.json:
            print(json.dumps({"dir": args.emit, "cases": counts}))
        else:
            total = sum(counts.values())
            print(f"wrote every source of the hardware checks into {args.emit}: {total} cases "
                  + ", ".join(f"{k} {v}" for k, v in counts.items()))
            print(f"next: examples/hardware/run.sh {args.emit} OUT.json on a Hopper GPU, then pycute-layouts hwcheck --verify "
                  "OUT.json")
        return 0
    rows, meta = hwcheck.verify(args.verify)
    failed = [r for r in rows if not r["ok"]]
    unexplained = [r for r in failed if not r.get("known")]
    if args.json:
        print(json.dumps({"meta": meta, "rows": rows, "failed": len(failed), "unexplained": len(unexplained)}))
    else:
        if meta:
            print(f"result file: {args.verify}")
            gpu = meta.get("gpu", meta.get("device", "?"))
            print(f"  date {meta.get('date', '?')}, GPU {gpu}, driver {meta.get('driver_version', '?')}, "
                  f"CUDA runtime {meta.get('cuda_runtime_version', '?')}, {meta.get('nvcc', '?')}")
        print(hwcheck.format_table(rows, all_rows=args.all))
    bad = unexplained if args.allow_known else failed
    return 1 if bad else 0


def register(sub: Any) -> None:
    """Add the ``hwcheck`` subcommand to an argparse subparsers object.

    Usage: ``pycute-layouts hwcheck --emit DIR`` or ``--verify RESULTS.json``.

    >>> p = argparse.ArgumentParser(); register(p.add_subparsers())
    >>> p.parse_args(["hwcheck", "--emit", "out"]).emit
    'out'
    """
    sub = subparsers(sub, "hwcheck.register")
    s = sub.add_parser("hwcheck", help="generate GPU hardware checks / verify a GPU result file",
                       description="Generate the CUDA hardware checks from the library (--emit DIR) or recompute every "
                                   "prediction for a GPU result file (--verify RESULTS.json; exit 1 on any mismatch).")
    s.add_argument("--emit", metavar="DIR", help="write every generated source of the hardware checks into DIR")
    s.add_argument("--verify", metavar="RESULTS.json",
                   help="verify a result file written by examples/hardware/run.sh (or the former atoms/banks harnesses)")
    s.add_argument("--all", action="store_true", help="with --verify: list every case, not only failures")
    s.add_argument("--allow-known", action="store_true",
                   help="with --verify: exit 0 when every failure is a documented known difference")
    s.add_argument("--json", action="store_true", help="print JSON")
    s.set_defaults(func=_cmd_hwcheck)
