"""``pycute-layouts analyze banks|linear|explain|search``: bank conflicts, F2 form, explanations, swizzle search.

>>> import argparse
>>> p = argparse.ArgumentParser(); register(p.add_subparsers())
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from ...arch import atoms
from ...errors import LayoutError, LayoutValueError
from ...limits import fmt
from ._common import defines, subparsers

__all__ = ["register"]


def _parse(text: str, args: argparse.Namespace) -> Any:
    from ...core.notation import parse

    return parse(text, **defines(args.define))


def _origins(text: str | None) -> list[tuple[int, int]] | None:
    if text is None:
        return None
    out = []
    for part in text.split(";"):
        try:
            r, c = (int(x, 0) for x in part.split(","))
        except ValueError:
            raise LayoutValueError(f"--matrix-origins expects 'row,col;row,col;...', got {fmt(text)}") from None
        out.append((r, c))
    return out


def _pattern(args: argparse.Namespace, layout_bits: int | None = None) -> Any:
    """The AccessPattern of --pattern or --threads (exactly one); ``layout_bits``: the width the smem_ptr form carries."""
    from ... import analysis as an

    if (args.pattern is None) == (args.threads is None):
        raise LayoutValueError("give exactly one of --pattern (ldmatrix.x1/x2/x4, stmatrix.x1/x2/x4, optionally "
                               ".trans) and --threads (a thread -> index layout of size 32)")
    if args.pattern is not None:
        bits = args.element_bits if args.element_bits is not None else layout_bits if layout_bits is not None else 8
        if args.pattern.startswith(("SM75_", "SM90_U")):  # a copy atom by CuTe's name: its own addresses
            origins = _origins(args.matrix_origins) if args.matrix_origins is not None else None
            return atoms.copy_access_pattern(args.pattern, element_bits=bits, matrix_origins=origins)
        pat = an.parse_pattern(args.pattern, element_bits=bits)
        if args.matrix_origins is not None:
            name = pat.name.split(".")
            fn = an.ldmatrix_pattern if name[0] == "ldmatrix" else an.stmatrix_pattern
            pat = fn(int(name[1][1]), pat.name.endswith(".trans"), element_bits=bits,
                     matrix_origins=_origins(args.matrix_origins))
        if args.access is not None and args.access != pat.access_bytes:
            raise LayoutValueError(f"--access {args.access} contradicts --pattern {pat.name} ({pat.access_bytes}-byte "
                                   "rows)")
        return pat
    if args.access is None:
        raise LayoutValueError("--threads needs --access (bytes per thread: 1, 2, 4, 8 or 16)")
    return an.vector_pattern(_parse(args.threads, args), args.access, name=f"threads {args.threads}")


def _cmd_banks(args: argparse.Namespace) -> int:
    from ... import analysis as an

    layout = _parse(args.layout, args)
    unit = _unit(args)
    r = an.bank_conflicts(layout, _pattern(args, getattr(layout, "element_bits", None)), element_bits=args.element_bits,
                          swizzle_unit=unit)
    reading = _reading(layout, args.element_bits, unit)
    if args.json:
        print(json.dumps({"layout": str(layout), "element_bits": args.element_bits or getattr(layout, "element_bits", None),
                          "swizzle_unit": unit, "reading": reading, **r.to_dict()}))
        return 0
    print(f"layout: {layout} ({reading})")
    print(r.to_text())
    return 0


def _unit(args: argparse.Namespace) -> str:
    unit = getattr(args, "swizzle_unit", None) or "elements"
    if unit == "bytes" and args.element_bits is None:
        raise LayoutValueError("--swizzle-unit bytes needs --element-bits (the element width the byte swizzle "
                               "applies to)")
    return unit


def _reading(layout: Any, element_bits: Any, unit: str) -> str:
    """How LAYOUT was read: its units, where the swizzle acts, both CuTe forms of the byte placement."""
    from ...core.composed import SwizzledSmemLayout, smem_layout_of

    if element_bits is None and not isinstance(layout, SwizzledSmemLayout):
        return "values are byte addresses"
    s = smem_layout_of(layout, element_bits, swizzle_unit=unit, who="analyze")
    if s.swizzle.is_identity():
        return f"{s.element_bits}-bit elements, no swizzle"
    where = "swizzle on byte addresses" if s.swizzle_unit == "bytes" else "swizzle on element offsets"
    try:
        both = f"; in CuTe: {str(s)}" + (f" = {s.as_composed()}" if s.base_address == 0 else "")
    except LayoutError:
        both = ""
    return f"{s.element_bits}-bit elements, {where}{both}"


def _cmd_linear(args: argparse.Namespace) -> int:
    from ... import analysis as an
    from ...core.composed import SwizzledSmemLayout, smem_layout_of

    layout = _parse(args.layout, args)
    unit = _unit(args)
    if args.element_bits is not None:
        layout = smem_layout_of(layout, args.element_bits, swizzle_unit=unit, who="analyze linear")
    ll = an.to_linear_layout(layout, element_bits=args.element_bits)
    # the bases are byte addresses of a SwizzledSmemLayout: the layout read back is then in bytes
    units = "bytes" if isinstance(layout, SwizzledSmemLayout) else "the layout's own units"
    try:
        back = str(an.from_linear_layout(ll))
    except LayoutError as e:
        back = f"(none: {str(e).splitlines()[0]})"
    if args.json:
        print(json.dumps({"layout": str(layout), **ll.to_dict(), "injective": ll.is_injective(),
                          "surjective": ll.is_surjective(), "cute": back, "cute_units": units}))
        return 0
    if units == "bytes" and not back.startswith("(none"):
        back += " (in bytes: its strides and swizzle act on byte offsets)"
    print(f"layout: {layout}")
    print(ll.to_text())
    print(f"injective: {ll.is_injective()}, surjective: {ll.is_surjective()}, rank {ll.rank()}")
    print(f"back to CuTe: {back}")
    return 0


def _cmd_explain(args: argparse.Namespace) -> int:
    from ... import analysis as an

    lay = _parse(args.layout, args)
    e = an.explain(lay, element_bits=args.element_bits, swizzle_unit=_unit(args))
    reads = _explain_reads(lay, args) if args.atom else None
    if args.json:
        print(json.dumps({**e.to_dict(), **({"thread_reads": reads} if reads is not None else {})}))
    else:
        print(e.to_text())
        for line in reads or []:
            print(f"reads: {line}")
    return 0


def _explain_reads(lay: Any, args: argparse.Namespace) -> list[str]:
    """``explain --atom``: which elements of the tile each ``--threads`` holds, at the layout's byte addresses."""
    try:
        threads = [int(x) for x in args.threads.split(",")]
    except ValueError:
        raise LayoutValueError(f"analyze explain: --threads must be comma-separated integers, got {fmt(args.threads)}") \
            from None
    return atoms.thread_reads(args.atom, args.operand,
                              atoms.operand_addresses(lay, args.element_bits, swizzle_unit=_unit(args)), threads)


def _cmd_search(args: argparse.Namespace) -> int:
    from ... import analysis as an
    from ...core.layout import Layout
    from ...errors import LayoutTypeError

    tile = _parse(args.layout, args)
    if not isinstance(tile, Layout):
        raise LayoutTypeError(f"analyze search: TILE must be a plain element layout (no swizzle), got {tile}")
    if args.element_bits is None:
        args.element_bits = 16
    pat = _pattern(args)
    cands = an.conflict_free_swizzles(tile, pat, element_bits=args.element_bits, include_conflicting=args.all)
    if args.json:
        print(json.dumps({"tile": str(tile), "pattern": pat.name, "element_bits": args.element_bits,
                          "candidates": [c.to_dict() for c in cands]}))
        return 0
    print(f"tile {tile} ({args.element_bits}-bit elements), pattern {pat.name}: "
          f"{sum(c.is_conflict_free for c in cands)} conflict-free swizzle(s), each in CuTe's pointer form (swizzle "
          f"on byte addresses) = its element-unit form (swizzle on {args.element_bits}-bit element offsets)")
    for c in cands:
        tag = "conflict-free" if c.is_conflict_free else f"{c.conflict_degree}-way"
        modes = (" TMA " + "/".join(c.tma_modes)) if c.tma_modes else ""
        wg = f" wgmma {c.wgmma_mode}" if c.wgmma_mode else ""
        el = f"= {c.element_swizzle} o 0 o TILE" if c.element_swizzle is not None else "(no element-offset form)"
        ptr = f"{c.swizzle} o smem_ptr[{args.element_bits}b](unset) o TILE"
        print(f"  {ptr:<44} {el:<25} {c.wavefronts:>3} wavefronts ({tag}){modes}{wg}")
    return 0


def _common(p: argparse.ArgumentParser, json_help: str = "print JSON") -> None:
    p.add_argument("-D", "--define", action="append", metavar="NAME=VALUE", help="bind a symbol (repeatable)")
    p.add_argument("--json", action="store_true", help=json_help)


def _unit_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--swizzle-unit", choices=("elements", "bytes"), default=None,
                   help="with --element-bits, what the swizzle of 'Sw<B,M,S> o k o L' acts on: element offsets "
                        "(default, CuTe's meaning) or byte addresses (PTX's reading; prefer the pointer form "
                        "'Sw<B,M,S> o smem_ptr[Nb](unset) o L' for bytes)")


def _access_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--pattern", help="ldmatrix.x1|x2|x4 or stmatrix.x1|x2|x4, optionally .trans, or an ldmatrix/"
                   "stmatrix copy atom by CuTe's name (SM75_U16x8_LDSM_T, SM90_U32x4_STSM_N, ...)")
    p.add_argument("--threads", metavar="LAYOUT", help="thread -> linear index layout of size 32 (e.g. '32:4')")
    p.add_argument("--access", type=int, help="bytes per thread: 1, 2, 4, 8 or 16 (ldmatrix: 16)")
    p.add_argument("--matrix-origins", metavar="R,C;R,C..", help="(row, column) of each 8x8 matrix (default: rows "
                   "0-7 of consecutive 16-byte columns)")


def register(sub: Any) -> None:
    """Add the ``analyze`` subcommand (with banks, linear, explain, search) to an argparse subparsers object.

    Usage: ``pycute-layouts analyze {banks,linear,explain,search} LAYOUT [options]``.

    >>> p = argparse.ArgumentParser(); register(p.add_subparsers())
    >>> p.parse_args(["analyze", "explain", "(8,4):(4,1)"]).analysis
    'explain'
    """
    sub = subparsers(sub, "analyze.register")
    a = sub.add_parser("analyze", help="bank conflicts, F2-linear form, explanations, swizzle search",
                       description="Analyses of shared-memory layouts (see docs/analysis.md).")
    asub = a.add_subparsers(dest="analysis", metavar="ANALYSIS")

    def _help(_args: argparse.Namespace) -> int:
        a.print_help()
        return 2

    a.set_defaults(func=_help)
    for add in (_add_banks, _add_linear, _add_explain, _add_search):
        add(asub)


def _add_banks(asub: Any) -> None:
    # Pre:  asub the analyses' subparsers.
    # Post: ``analyze banks`` added: wavefronts of one warp access through a layout.
    b = asub.add_parser("banks", help="wavefronts and bank conflicts of one warp access",
                        description="Wavefronts of one warp access through LAYOUT. Without --element-bits, LAYOUT's "
                                    "values are byte addresses; with it, LAYOUT is an element layout read with "
                                    "CuTe's meaning: the swizzle of 'Sw<B,M,S> o k o L' acts on element offsets "
                                    "(Sw<3,3,3> o 0 o L on 16-bit elements is the 128B atom), the swizzle of the "
                                    "pointer form 'Sw<B,M,S> o smem_ptr[16b](unset) o L' on byte addresses. "
                                    "--swizzle-unit bytes reads 'Sw o k o L' on byte addresses (PTX's reading).")
    b.add_argument("layout", help='e.g. "Sw<3,3,3> o 0 o (8,64):(64,1)" (with --element-bits 16) or '
                                  '"Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)"')
    _access_args(b)
    b.add_argument("-e", "--element-bits", type=int, help="element width in bits (LAYOUT is then in elements)")
    _unit_arg(b)
    _common(b)
    b.set_defaults(func=_cmd_banks)


def _add_linear(asub: Any) -> None:
    # Pre:  asub the analyses' subparsers.
    # Post: ``analyze linear`` added: a power-of-two layout's F2-linear bases.
    li = asub.add_parser("linear", help="the F2-linear (Triton LinearLayout) form of a power-of-two layout",
                         description="Bases of LAYOUT as an F2-linear map (one basis per input bit), and back.")
    li.add_argument("layout")
    li.add_argument("-e", "--element-bits", type=int, help="map to byte addresses of elements this wide")
    _unit_arg(li)
    _common(li)
    li.set_defaults(func=_cmd_linear)


def _add_explain(asub: Any) -> None:
    # Pre:  asub the analyses' subparsers.
    # Post: ``analyze explain`` added: a layout's readable description (optionally an MMA atom's elements in it).
    e = asub.add_parser("explain", help="a readable description of a layout",
                        description="Shape tree, strides, contiguity, vector width, swizzle, canonical wgmma layout.")
    e.add_argument("layout")
    e.add_argument("-e", "--element-bits", type=int, help="element width in bits (enables bytes and the wgmma check)")
    _unit_arg(e)
    e.add_argument("--atom", metavar="NAME", help="an MMA atom (CuTe's name): list which elements of the tile the "
                   "--threads hold and their byte addresses (LAYOUT is the operand tile, rows x K)")
    e.add_argument("--operand", default="A", help="with --atom: A (default) or B")
    e.add_argument("--threads", default="0", help="with --atom: comma-separated thread indices (default 0)")
    _common(e)
    e.set_defaults(func=_cmd_explain)


def _add_search(asub: Any) -> None:
    # Pre:  asub the analyses' subparsers.
    # Post: ``analyze search`` added: the swizzles that make an access conflict-free.
    s = asub.add_parser("search", help="swizzles that make an access conflict-free",
                        description="Try Swizzle<B,M,S> (B<=3) and the TMA modes on TILE (an element layout) and "
                                    "list the conflict-free ones, fewest wavefronts first, each in both CuTe forms: "
                                    "the pointer form 'Sw o smem_ptr[Nb](unset) o TILE' (swizzle on byte "
                                    "addresses) and the element-unit form 'Sw o 0 o TILE' (swizzle on element "
                                    "offsets); either pasted into CuTe means what was measured.")
    s.add_argument("layout", metavar="TILE")
    _access_args(s)
    s.add_argument("-e", "--element-bits", type=int, help="element width in bits (default 16)")
    s.add_argument("--all", action="store_true", help="also list the swizzles that conflict")
    _common(s)
    s.set_defaults(func=_cmd_search)
