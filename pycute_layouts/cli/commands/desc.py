"""``pycute-layouts desc``: the wgmma/tcgen05 shared-memory descriptor of an operand tile or layout.

Every number comes from :mod:`pycute_layouts.arch` through :func:`pycute_layouts.codegen.describe_operand`
/ :func:`~pycute_layouts.codegen.describe_layout`; this module only parses options and prints.

>>> import argparse
>>> p = argparse.ArgumentParser(); register(p.add_subparsers())
>>> from pycute_layouts.cli import main
>>> main(["desc", "--major", "K", "--swizzle", "128B", "--dtype", "bf16", "--tile", "64x64"])
operand      : 64x64 (MN x K) bf16, K-major, 128B swizzle, sm90 (wgmma.mma_async)
smem layout  : Sw<3,4,3> o smem_ptr[16b](unset) o ((8,8),(64,1)):((64,512),(1,0))  (tile_to_shape(smem_atom, (64,64)), mn_first)
...
0
>>> main(["desc", "--idesc", "0x084000a0"])
InstrDescriptor[tcgen05.mma.cta_group::1.kind::i8] 0x084000a0
...
0
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from ... import codegen
from ...arch import atoms, umma
from ...arch.instruction import check_instruction_mn, instruction_mn, smem_desc_fields
from ...arch.swizzle_choice import choose_swizzle
from ...codegen.constants import OperandConstants
from ...codegen.spec import parse_arch, swizzle_field, tile_field
from ...core.composed import swizzle_forms
from ...core.notation import parse
from ...errors import LayoutError
from ...limits import check_type, fmt
from ._common import defines, int0, subparsers

__all__ = ["register", "format_desc"]


#: Why e4m3/e5m2 tiles name CU_TENSOR_MAP_DATA_TYPE_UINT8 (printed by ``desc`` for them).
FP8_TMA_NOTE = ("CUtensorMapDataType has no fp8 member; TMA copies bytes, so e4m3/e5m2 tiles use UINT8 (as CuTe's "
                "to_CUtensorMapDataType does); the MMA reads the type from the instruction, not the tensor map")


def format_desc(oc: Any, *, instruction_note: str = "", swizzle_reason: str = "") -> str:
    """The text report of an :class:`~pycute_layouts.codegen.OperandConstants`.

    ``instruction_note`` says why one instruction reads ``oc.mma_mn`` rows; ``swizzle_reason`` why
    the swizzle mode was chosen (``--swizzle auto``).

    >>> from pycute_layouts.codegen import describe_operand
    >>> print(format_desc(describe_operand("sm90", "MN", "64B", "bf16", (64, 16))).splitlines()[6])
    LBO          : 1024 B, encoded 64 (16-byte units; bits 16-29)
    """
    check_type("format_desc", "oc", oc, OperandConstants)
    check_type("format_desc", "instruction_note", instruction_note, str)
    check_type("format_desc", "swizzle_reason", swizzle_reason, str)
    lines = _desc_tile_lines(oc, instruction_note, swizzle_reason) + _desc_field_lines(oc) + _instruction_table(oc)
    if oc.tma_box_dim is not None:
        lines.append(f"TMA          : {oc.tma_swizzle_name} ({int(oc.tma_swizzle)}), {oc.tma_data_type}, boxDim "
                     f"{{{oc.tma_box_dim[0]}, {oc.tma_box_dim[1]}}} ({oc.tma_box_bytes} B), {oc.tma_copies} "
                     f"cop{'y' if oc.tma_copies == 1 else 'ies'} per tile at byte offsets "
                     f"{', '.join(str(x) for x in oc.tma_copy_offsets_bytes)}")
    if oc.dtype is not None and oc.dtype.name in ("e4m3", "e5m2"):
        lines.append(f"note         : {FP8_TMA_NOTE}")
    return "\n".join(lines)


def _desc_tile_lines(oc: Any, instruction_note: str, swizzle_reason: str) -> list[str]:
    # Pre:  oc an OperandConstants.  Post: the report's first part: the operand, its smem layout (and CuTe
    #       type), the instruction shape and count, the canonical layout it matches.
    unit = "wgmma.mma_async" if oc.arch == "sm90" else "tcgen05.mma"
    dt = oc.dtype.name if oc.dtype else f"{oc.element_bits}-bit"
    how = (f"tile_to_shape(smem_atom, ({oc.tile_mn},{oc.tile_k})), {oc.order}" if oc.order
           else "the layout given, in CuTe's pointer form")
    n_mn = len(oc.mn_block_offsets_bytes)
    lines = [
        f"operand      : {oc.tile_mn}x{oc.tile_k} (MN x K) {dt}, {oc.major}-major, {oc.swizzle} swizzle, "
        f"{oc.arch} ({unit})",
    ]
    if swizzle_reason:
        lines.append(f"swizzle      : auto -> {oc.swizzle}: {swizzle_reason}")
        lines.append(f"               in CuTe: {swizzle_forms(oc.tile_layout.byte_swizzle(), oc.element_bits)}")
    lines.append(f"smem layout  : {oc.smem_layout_text}  ({how})")
    if oc.smem_layout_element_text:
        lines.append(f"             = {oc.smem_layout_element_text}  (the same tile, swizzle on {oc.element_bits}-bit "
                     "element offsets)")
    if oc.cute_type:
        lines.append(f"CuTe type    : {oc.cute_type}")
    lines.append(f"instruction  : {oc.mma_mn}x{oc.mma_k} (MN x K) per instruction = 32 bytes of K; {n_mn} MN block(s) x "
                 f"{oc.k_steps} K step(s) = {n_mn * oc.k_steps} instruction(s) in the tile")
    if instruction_note:
        lines.append(f"               {instruction_note}")
    canon = oc.canonical if oc.canonical else f"(none) {oc.canonical_note}"
    syms = ", ".join(f"{k}={v}" for k, v in oc.canonical_symbols.items())
    lines.append(f"canonical    : {canon}" + (f"  [{syms}; LBO/SBO in elements]" if syms else ""))
    if oc.canonical and oc.canonical_note:
        lines.append(f"               {oc.canonical_note}")
    return lines


def _desc_field_lines(oc: Any) -> list[str]:
    # Pre:  oc an OperandConstants.  Post: the descriptor's fields with their bit ranges, its value and
    #       template, the K-step table and the MN block offsets.
    d = oc.descriptor
    lt_bits = "bits 62-63" if oc.arch == "sm90" else "bits 61-63"
    lines = [
        f"LBO          : {d.lbo_bytes} B, encoded {d.lbo_16B} (16-byte units; bits 16-29)",
        f"SBO          : {d.sbo_bytes} B, encoded {d.sbo_16B} (16-byte units; bits 32-45)",
        f"layout type  : {d.layout_type} ({d.swizzle} swizzle; {lt_bits})",
        f"base offset  : {d.base_offset} (swizzle anchored at {oc.swizzle_anchor} addresses; bits 49-51)",
        f"start address: {d.start_address:#x} (encoded {d.start_16B:#x}, 16-byte units; bits 0-13)",
        f"descriptor   : {oc.desc:#018x}",
        "fields       : (of the descriptor above, read back from its bits)",
        *[f"  {name:<14} {bits:<11} = {value:<6} {units}" for name, bits, value, units in smem_desc_fields(oc.arch, oc.desc)],
        f"template     : {oc.desc_template:#018x}  (start address 0: OR in (addr & 0x3FFFF) >> 4)",
        "K steps      : (start address offset of each instruction's K slice; kernels add advance_16B to the "
        "descriptor)",
        "   k  offset_B  advance_16B  descriptor",
    ]
    for k, (off, adv, v) in enumerate(zip(oc.k_step_offsets_bytes, oc.k_step_advance_16B, oc.descs[0], strict=True)):
        lines.append(f"  {k:>2}  {off:>8}  {adv:>11}  {v:#018x}")
    if len(oc.mn_block_offsets_bytes) > 1:
        lines.append(f"MN blocks    : {oc.mma_mn}-row blocks start at byte offsets "
                     f"{', '.join(str(x) for x in oc.mn_block_offsets_bytes)}")
    return lines


def _instructions(oc: Any) -> list[tuple[int, int, int, int]]:
    """``(MN block, K step, start address, descriptor)`` of every instruction reading the tile (stage 0)."""
    d = oc.descriptor
    out = []
    for i, mn_off in enumerate(oc.mn_block_offsets_bytes):
        for k, k_off in enumerate(oc.k_step_offsets_bytes):
            di = d.advance(mn_off + k_off)
            out.append((i, k, di.start_address, di.encode()))
    return out


def _instruction_table(oc: Any) -> list[str]:
    """The ``instructions`` lines of the text report."""
    lines = ["instructions : (every instruction reading the tile: MN block, K step, start address, descriptor)",
             "  mn   k  start     descriptor"]
    lines += [f"  {i:>2}  {k:>2}  {s:#07x}  {v:#018x}" for i, k, s, v in _instructions(oc)]
    return lines


def _cmd_idesc(args: argparse.Namespace) -> int:
    """``desc --idesc VALUE``: decode a pasted 32-bit tcgen05 instruction descriptor."""
    used = [f"--{n.replace('_', '-')}" for n in ("layout", "tile", "swizzle", "major", "dtype", "mma_mn")
            if getattr(args, n) is not None]
    if used:
        raise LayoutError(f"desc: --idesc decodes an instruction descriptor; do not combine it with {', '.join(used)}")
    if args.kind is not None and (args.kind in umma.BLOCK_SCALED_KINDS) != args.block_scaled:
        raise LayoutError(_kind_table_hint(args.idesc, args.kind, args.block_scaled))
    if args.json:
        found = ([umma.InstrDescriptor.decode(args.idesc, args.block_scaled, kind=args.kind)] if args.kind
                 else umma.InstrDescriptor.readings(args.idesc, args.block_scaled))
        if not found:
            umma.InstrDescriptor.decode(args.idesc, args.block_scaled)  # raises, naming the rule
        print(json.dumps([{"kind": d.kind, "cta_group": d.cta_group, "value": d.encode(),
                           "fields": {n: v for n, _b, v, _m in d.fields()}} for d in found], sort_keys=True))
    else:
        print(umma.describe_value(args.idesc, args.block_scaled, args.kind))
    return 0


def _kind_table_hint(value: int, kind: str, block_scaled: bool) -> str:
    """The one line for ``--kind`` against the wrong field table (``--block-scaled`` given or not)."""
    dense = tuple(k for k in umma.INSTR_KINDS if k not in umma.BLOCK_SCALED_KINDS)
    if block_scaled:
        return (f"desc: --kind {kind} is a dense kind, read with the dense field table; drop --block-scaled (block-scaled "
                f"kinds: {', '.join(umma.BLOCK_SCALED_KINDS)})")
    try:
        reads = [d.kind for d in umma.InstrDescriptor.readings(value, False)]
    except LayoutError:
        reads = []
    also = (f"; without --kind, {value:#010x} reads as a dense descriptor (kind::{', kind::'.join(reads)})" if reads
            else "")
    return (f"desc: --kind {kind} is block-scaled: add --block-scaled to read {value:#010x} with the block-scaled field "
            f"table (scale-factor type and ids; dense kinds: {', '.join(dense)}){also}")


def _cmd_desc(args: argparse.Namespace) -> int:
    if args.idesc is not None:
        return _cmd_idesc(args)
    if args.block_scaled or args.kind is not None:
        raise LayoutError("desc: --block-scaled and --kind go with --idesc VALUE")
    for n in ("major", "dtype"):
        if getattr(args, n) is None:
            raise LayoutError(f"desc: --{n} required (or decode an instruction descriptor with --idesc VALUE)")
    _check_options(args)
    if args.layout is not None:
        if args.tile is not None or args.swizzle is not None or args.order != "auto" or args.mma_mn is not None:
            raise LayoutError("desc: --layout gives the whole operand; do not combine it with --tile, --swizzle, "
                              "--order or --mma-mn")

        lay = parse(args.layout, **defines(args.define))
        oc = codegen.describe_layout(lay, args.arch, args.major, args.dtype, args.start,
                                     swizzle_anchor=args.anchor, swizzle_unit=args.swizzle_unit or "elements")
    else:
        missing = [f"--{n}" for n in ("swizzle", "tile") if getattr(args, n) is None]
        if missing:
            raise LayoutError(f"desc: {' and '.join(missing)} required (or give the operand as --layout)")
        if args.define:
            raise LayoutError("desc: -D binds symbols of --layout only")
        if args.swizzle_unit is not None:
            raise LayoutError("desc: --swizzle-unit says how to read the swizzle of --layout; --tile/--swizzle build "
                              "the tile from the atom")
        swizzle, reason, mma_mn, note = _per_instruction(args)
        oc = codegen.describe_operand(args.arch, args.major, swizzle, args.dtype, args.tile, args.start,
                                      order=args.order, mma_mn=mma_mn, swizzle_anchor=args.anchor)
    reads = _thread_reads(oc, args) if args.atom else []
    if args.json:
        extra = {"instruction_note": note, "swizzle_reason": reason} if args.layout is None else {}
        extra["instructions"] = [{"mn_block": i, "k_step": k, "start_address": s, "desc_hex": f"{v:#018x}"}
                                 for i, k, s, v in _instructions(oc)]
        print(json.dumps({**oc.to_dict(), **extra, **({"thread_reads": reads} if args.atom else {})}, sort_keys=True))
    elif args.layout is None:
        print(format_desc(oc, instruction_note=note, swizzle_reason=reason))
        for line in reads:
            print(f"reads        : {line}")
    else:
        print(format_desc(oc))
        for line in reads:
            print(f"reads        : {line}")
    return 0


def _check_options(args: argparse.Namespace) -> None:
    """Refuse a bad ``--arch``, ``--dtype``, ``--major``, ``--swizzle`` or ``--tile`` naming the option, before the
    library (whose errors name its arguments) sees it."""
    try:
        parse_arch(args.arch, "--arch")
        if args.swizzle is not None and args.swizzle.strip().lower() != "auto":
            swizzle_field(args.swizzle, "--swizzle")
        if args.tile is not None:
            tile_field(args.tile, "--tile")
    except LayoutError as e:
        raise type(e)(f"desc: {e}") from None
    try:
        codegen.parse_dtype(args.dtype)
    except LayoutError as e:
        raise type(e)(f"desc: --dtype: {e}") from None
    if args.major.strip().upper() not in ("K", "MN"):
        raise LayoutError(f"desc: --major must be K or MN (the operand's contiguous dimension), got {fmt(args.major)}")


def _per_instruction(args: argparse.Namespace) -> tuple[Any, str, int | None, str]:
    """``--swizzle auto`` and the rows one instruction reads (``--operand``, ``--arch``, ``--cta-group``).

    Returns ``(swizzle, why it was chosen or "", mma_mn, why one instruction reads that many rows or "")``.
    """
    arch = parse_arch(args.arch, "--arch")
    mn, k = tile_field(args.tile, "--tile")
    swizzle, reason = args.swizzle, ""
    if swizzle.strip().lower() == "auto":
        bits = codegen.parse_dtype(args.dtype).element_bits
        major = args.major.strip().upper() if isinstance(args.major, str) else args.major
        choice = choose_swizzle(major, bits, k if major == "K" else mn, arch)
        swizzle, reason = choice.mode, choice.reason
    if args.mma_mn is not None:
        if args.cta_group != 1:
            raise LayoutError("desc: --cta-group sets the rows per instruction; do not combine it with --mma-mn")
        op = args.operand or "A"
        try:
            note = check_instruction_mn(arch, op, args.mma_mn, mn)
        except LayoutError as e:
            hint = "" if args.operand else " (--operand B for a B operand)"
            raise LayoutError(f"desc: --mma-mn {args.mma_mn} --tile {args.tile}: {e}{hint}") from None
        return swizzle, reason, args.mma_mn, note
    mma_mn, note = instruction_mn(arch, args.operand or "A", mn, args.cta_group)
    return swizzle, reason, mma_mn, note


def _thread_reads(oc: Any, args: argparse.Namespace) -> list[str]:
    """``--atom``: which elements of the operand each of ``--threads`` holds, at the descriptor's byte addresses."""
    a = atoms.mma_atom(args.atom)
    op = (args.operand or "A").upper()
    if op not in ("A", "B"):
        raise LayoutError(f"desc: --operand must be A or B, got {fmt(args.operand)}")
    rows, k = a.tile_shape(op)
    if a.name.startswith("SM80_"):
        raise LayoutError(f"desc: --atom {a.name} is an mma.sync atom: it reads A and B from registers (filled by "
                          "ldmatrix), not through a shared-memory descriptor; name a wgmma (SM90_64xNxK_..._SS/_RS) or "
                          "tcgen05 (SM100_MMA_...) atom")
    if (rows, k) != (oc.mma_mn, oc.mma_k):
        raise LayoutError(f"desc: {a.name} reads a {rows}x{k} {op} tile per instruction, the descriptor describes "
                          f"{oc.mma_mn}x{oc.mma_k} (use --mma-mn {rows}, and a matching --dtype)")
    try:
        threads = [int(x) for x in args.threads.split(",")]
    except ValueError:
        raise LayoutError(f"desc: --threads must be comma-separated integers, got {fmt(args.threads)}") from None
    bad = [t for t in threads if not 0 <= t < a.num_threads]
    if bad:
        raise LayoutError(f"desc: --threads {bad} outside [0, {a.num_threads}) of {a.name}")
    addr = oc.descriptor.element_addresses(oc.major, oc.element_bits, (rows, k))
    return atoms.thread_reads(a, op, addr, threads)


def register(sub: Any) -> None:
    """Add the ``desc`` subcommand to an argparse subparsers object.

    Usage: ``pycute-layouts desc [--layout LAYOUT | --major MJ --swizzle SW --tile MNxK] --dtype T [--arch A]``.

    >>> p = argparse.ArgumentParser(); register(p.add_subparsers())
    >>> p.parse_args(["desc", "--layout", "(8,64):(64,1)", "--dtype", "bf16"]).arch
    'sm90'
    """
    sub = subparsers(sub, "desc.register")
    h = sub.add_parser(
        "desc", help="wgmma/tcgen05 smem descriptor of an operand tile: LBO/SBO, 64-bit value, K-step advances",
        description="Shared-memory matrix descriptor of one operand: build the tile from the swizzle atom "
                    "(--tile, --swizzle) or give its layout in CuTe notation (--layout, shape (MN,K) in elements, "
                    "CuTe's meaning: the swizzle of 'Sw<B,M,S> o k o L' acts on element offsets, so the 128B atom of "
                    "bf16 is 'Sw<3,3,3> o 0 o (8,64):(64,1)'; the pointer form 'Sw<3,4,3> o smem_ptr[16b](unset) o "
                    "(8,64):(64,1)' swizzles byte addresses; --swizzle-unit bytes reads 'Sw o k o L' on bytes). "
                    "Prints LBO/SBO in bytes and encoded, layout type, base offset, the "
                    "64-bit descriptor, the start-address advance of every K step (32 bytes of K per instruction), "
                    "the PTX canonical layout it matched and the TMA box that fills the tile.")
    h.add_argument("--layout", help='the operand tile as CuTe notation, e.g. "Sw<3,4,3> o smem_ptr[16b](unset) o '
                   '(64,64):(64,1)" or, the same tile for bf16, "Sw<3,3,3> o 0 o (64,64):(64,1)"')
    h.add_argument("--swizzle-unit", choices=("elements", "bytes"), default=None,
                   help="what the swizzle of a --layout 'Sw<B,M,S> o k o L' acts on: element offsets (default, CuTe's "
                        "meaning) or byte addresses (PTX's reading; prefer the pointer form 'Sw o smem_ptr[Nb](unset) "
                        "o L')")
    h.add_argument("-D", "--define", action="append", metavar="NAME=VALUE", help="bind a symbol of --layout")
    h.add_argument("--major", help="K or MN: the operand's contiguous dimension")
    h.add_argument("--dtype", help="element type: bf16, f16, tf32, e4m3, e5m2, s8, u8; sm100 also e2m1 (packed), "
                                   "e2m1_p64, e2m3, e3m2 (16-byte padded) (aliases: fp8, fp4, ...)")
    h.add_argument("--swizzle", help="none, 32B, 64B, 128B, 128B_base32B (sm100), or auto: the widest mode whose span "
                                     "divides the tile's contiguous extent (as CUTLASS's ss_smem_selector)")
    h.add_argument("--tile", help="the operand's smem tile MNxK in elements, e.g. 128x64")
    h.add_argument("--arch", default="sm90", help="sm90 (wgmma, default) or sm100 (tcgen05)")
    h.add_argument("--start", type=int0, default=0, help="byte address of the tile in shared memory (default 0)")
    h.add_argument("--order", default="auto", choices=("auto", "mn_first", "k_first"),
                   help="which mode tile_to_shape repeats the atom along first (auto: K-major mn_first, "
                        "MN-major k_first, as CUTLASS)")
    h.add_argument("--mma-mn", type=int0, default=None,
                   help="MN extent one instruction reads (default: what the hardware issues for --operand and --arch)")
    h.add_argument("--cta-group", type=int0, default=1, choices=(1, 2),
                   help="sm100: 2 for the CTA-pair tcgen05.mma (M = 256: 128 rows of A per CTA; N / 2 rows of B)")
    h.add_argument("--anchor", default="absolute", choices=("absolute", "tile"),
                   help="the swizzle acts on absolute addresses (TMA, default) or on offsets from --start")
    h.add_argument("--atom", metavar="NAME", help="an MMA atom (CuTe's name): list which elements of the operand "
                   "the --threads hold and their byte addresses through this descriptor")
    h.add_argument("--operand", default=None, help="A (default) or B: sets the rows one instruction reads (sm90 wgmma: A "
                   "64, B N up to 256; sm100 tcgen05: M 64/128, 256 over a CTA pair) and, with --atom, the operand read")
    h.add_argument("--threads", default="0", help="with --atom: comma-separated thread indices (default 0)")
    h.add_argument("--json", action="store_true", help="print JSON")
    h.add_argument("--idesc", type=int0, default=None, metavar="VALUE",
                   help="decode a 32-bit tcgen05 instruction descriptor (e.g. 0x08400490) instead")
    h.add_argument("--block-scaled", action="store_true",
                   help="with --idesc: the value is a block-scaled descriptor (kind::mxf8f6f4, mxf4, mxf4nvf4)")
    h.add_argument("--kind", default=None, choices=umma.INSTR_KINDS,
                   help="with --idesc: the instruction's kind (the descriptor does not encode it)")
    h.set_defaults(func=_cmd_desc)
