"""``pycute-layouts prove``: the TMA-swizzle == wgmma-atom theorems, as a table (or one pairing's proof).

Exit status: 0 when every row is as expected, 1 when an expected proof fails (or an expected
refutation is proved, a pairing's applicability differs from the fixed PTX table, a row could not
be decided, or the symbolic and exhaustive answers disagree), 2 on bad input. ``--pairing`` exits
1 whenever it prints a counterexample, also for a stated mismatch (``--wgmma-swizzle``): a
counterexample is a finding. The table's rows fit 120 characters; ``--details`` prints them whole. ``--mode`` and the
other filters select the pairings and the stated mismatches and lemmas relevant to them.

>>> import argparse
>>> p = argparse.ArgumentParser(); register(p.add_subparsers())
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from ... import proofs
from ...errors import ProofError
from ...limits import fmt
from ...proofs.model import ARCHS, ELEMENT_BITS, MAJORS
from ._common import int0, subparsers

__all__ = ["register"]


def _split(values: list | None, default: Any) -> Any:
    if not values:
        return default
    out = []
    for v in values:
        out += [x for x in v.split(",") if x.strip()]
    return tuple(out)


def _cmd_prove(args: argparse.Namespace) -> int:
    if args.json and args.markdown:
        raise ProofError("choose one of --json and --markdown")
    bits = _split(args.bits, ELEMENT_BITS)
    try:
        bits = tuple(int(b, 0) if isinstance(b, str) else b for b in bits)
    except ValueError:
        raise ProofError(f"--bits: expected integers such as 8,16,32, got {fmt(args.bits)}") from None
    if args.pairing:
        mode, major, b, arch = args.pairing
        try:
            b = int(b, 0)
        except ValueError:
            raise ProofError(f"--pairing: element bits must be an integer, got {fmt(b)}") from None
        r = proofs.prove_tma_matches_wgmma(mode, major, b, arch, method=args.method, wgmma_swizzle=args.wgmma_swizzle,
                                           dst_address=args.dst)
        if args.json:
            data = {"proved": bool(r), "text": r.to_text()}
            if not r:
                data.update(coordinate=list(r.coordinate), tma_address=r.tma_address, wgmma_address=r.wgmma_address)
            print(json.dumps(data))
        else:
            print(r.to_markdown() if args.markdown else r.to_text())
        return 0 if bool(r) else 1  # a counterexample is a finding, also for a stated mismatch
    rep = proofs.report(archs=_split(args.arch, ARCHS), modes=_split(args.mode, None), majors=_split(args.major, MAJORS),
                        element_bits=bits, exhaustive=not args.no_exhaustive)
    if args.json:
        print(rep.to_json())
    elif args.markdown:
        print(rep.to_markdown())
    else:
        print(rep.to_text(details=args.details))
    return 0 if rep.ok else 1


def register(sub: Any) -> None:
    """Add the ``prove`` subcommand to an argparse subparsers object.

    Usage: ``pycute-layouts prove [--mode M] [--major MJ] [--bits B] [--arch A]``.

    >>> p = argparse.ArgumentParser(); register(p.add_subparsers())
    >>> p.parse_args(["prove", "--bits", "16"]).bits
    ['16']
    """
    sub = subparsers(sub, "prove.register")

    h = sub.add_parser(
        "prove", help="prove that TMA swizzle modes produce the bytes wgmma/tcgen05 read (table of all pairings)",
        description="Classify every pairing (TMA mode x major x element width x arch) as proved (symbolically for "
                    "every tile in the 256 KiB window at any 128-byte-aligned destination, and exhaustively at "
                    "concrete sizes), refuted with a counterexample, or not applicable with the reason; then the "
                    "stated mismatches, planted faults and lemmas relevant to the selection (descriptor encoding, "
                    "K-step, base offset). Expectations come from a fixed table written from the PTX ISA. Exit 1 "
                    "if any row is not as expected.")
    h.add_argument("--json", action="store_true", help="print JSON")
    h.add_argument("--markdown", action="store_true", help="print Markdown tables")
    h.add_argument("--mode", action="append", help="only these TMA modes (repeat or comma-separate; e.g. 128B,64B)")
    h.add_argument("--major", action="append", help="only these majors (K, MN)")
    h.add_argument("--bits", action="append", help="only these element widths (8, 16, 32)")
    h.add_argument("--arch", action="append", help="only these archs (sm90, sm100)")
    h.add_argument("--no-exhaustive", action="store_true", help="skip the exhaustive cross-check (faster)")
    h.add_argument("--details", action="store_true",
                   help="print every row's detail whole (default: rows cut to 120 characters)")
    h.add_argument("--pairing", nargs=4, metavar=("MODE", "MAJOR", "BITS", "ARCH"),
                   help="prove one pairing and print its proof (or counterexample)")
    h.add_argument("--wgmma-swizzle", default=None, help="with --pairing: the MMA atom (states a mismatched pairing)")
    h.add_argument("--method", default="symbolic", help="with --pairing: symbolic (default) or exhaustive")
    h.add_argument("--dst", type=int0, default=0, help="with --pairing: the tile's shared-memory address (default 0)")
    h.set_defaults(func=_cmd_prove)
