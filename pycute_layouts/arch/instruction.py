"""What one MMA instruction reads of an operand tile: its MN rows, and the descriptor's fields with bits and units.

**Rows per instruction.** A shared-memory operand tile is read by several instructions: along K
one per 32 bytes of K (a K step), along MN one per instruction shape. The shapes the hardware
issues (PTX ISA 9.7.15.5 ``wgmma.mma_async`` shapes ``m64nNk*``; 9.7.16.2.1 "Matrix shape",
Table 39, for ``tcgen05.mma``):

=======  ============  ====================================================================
arch     operand       rows of the operand one instruction reads from this CTA's tile
=======  ============  ====================================================================
sm90     A             M = 64 (every wgmma is m64nNk*)
sm90     B             N = 8..256 in steps of 8 (the widest that divides the tile)
sm100    A             cta_group 1: M = 128 (or 64 when the tile has 64 rows);
                       cta_group 2: M = 256 over the CTA pair, 128 rows from each CTA
sm100    B             cta_group 1: N = 8..256, steps of 8; cta_group 2: N = 16..256 over the
                       pair, N / 2 rows (up to 128) from each CTA
=======  ============  ====================================================================

**Descriptor fields.** The 64-bit shared-memory descriptor's fields, with bit ranges and units
(CuTe ``GmmaDescriptor`` in ``cute/arch/mma_sm90_desc.hpp``, ``UMMA::SmemDescriptor`` in
``cute/arch/mma_sm100_desc.hpp``; PTX ISA 9.7.15.5.1.2.2 and 9.7.16.4.1 Table 40);
:func:`smem_desc_fields` reads each value back out of the encoded descriptor.

>>> instruction_mn("sm90", "A", 128)
(64, 'sm90 wgmma.mma_async reads A as 64 rows (M = 64) per instruction: 2 instruction(s) cover the 128 rows')
"""

from __future__ import annotations

from typing import Any

from ..errors import DescriptorError

__all__ = ["SMEM_DESC_FIELDS", "check_instruction_mn", "instruction_mn", "instruction_rows", "smem_desc_fields"]

#: (field, first bit, last bit, units / meaning) of the 64-bit smem descriptor, by arch.
SMEM_DESC_FIELDS: dict[str, tuple[tuple[str, int, int, str], ...]] = {
    "sm90": (
        ("start address", 0, 13, "16-byte units: (addr & 0x3FFFF) >> 4"),
        ("LBO", 16, 29, "16-byte units: leading dimension byte offset >> 4"),
        ("SBO", 32, 45, "16-byte units: stride dimension byte offset >> 4"),
        ("base offset", 49, 51, "swizzle pattern phase, 0-7 (128-byte rows)"),
        ("layout type", 62, 63, "swizzle code: none 0, 128B 1, 64B 2, 32B 3"),
    ),
    "sm100": (
        ("start address", 0, 13, "16-byte units: (addr & 0x3FFFF) >> 4"),
        ("LBO", 16, 29, "16-byte units: leading dimension byte offset >> 4"),
        ("SBO", 32, 45, "16-byte units: stride dimension byte offset >> 4"),
        ("version", 46, 48, "fixed 1 (sm100 descriptor)"),
        ("base offset", 49, 51, "swizzle pattern phase, 0-7 (128-byte rows)"),
        ("LBO mode", 52, 52, "0: LBO is an offset, 1: an absolute address"),
        ("layout type", 61, 63, "swizzle code: none 0, 128B_base32B 1, 128B 2, 64B 4, 32B 6"),
    ),
}


def _shown(v: Any) -> str:
    """``repr`` of a short str/int/float/None; the type's name for anything else (its repr may be huge)."""
    if isinstance(v, (str, float, type(None))) or (isinstance(v, int) and abs(v).bit_length() <= 64):
        return repr(v) if len(repr(v)) <= 80 else repr(v)[:77] + "..."
    return f"<{type(v).__name__}>"


def _check(arch: Any, operand: Any, tile_mn: Any, cta_group: Any) -> tuple[str, str, int, int]:
    who = "instruction_mn"
    if not isinstance(arch, str) or arch not in ("sm90", "sm100"):
        raise DescriptorError(f"{who}: arch must be 'sm90' or 'sm100', got {_shown(arch)}")
    op = operand.strip().upper() if isinstance(operand, str) else None
    if op not in ("A", "B"):
        raise DescriptorError(f"{who}: operand must be 'A' or 'B', got {_shown(operand)}")
    if isinstance(tile_mn, bool) or not isinstance(tile_mn, int) or tile_mn < 1:
        raise DescriptorError(f"{who}: tile_mn must be a positive int, got {_shown(tile_mn)}")
    if isinstance(cta_group, bool) or not isinstance(cta_group, int) or cta_group not in (1, 2):
        raise DescriptorError(f"{who}: cta_group must be 1 or 2, got {_shown(cta_group)}")
    if arch == "sm90" and cta_group != 1:
        raise DescriptorError(f"{who}: cta_group {cta_group} is a tcgen05 (sm100) setting; sm90 wgmma has none")
    return arch, op, tile_mn, cta_group


def _widest_n(tile_mn: int, hi: int, step: int, what: str) -> int:
    for n in range(hi, step - 1, -step):
        if tile_mn % n == 0:
            return n
    raise DescriptorError(f"instruction_mn: {what}: the tile's {tile_mn} rows are not a multiple of {step}")


def instruction_mn(arch: Any, operand: Any, tile_mn: Any, cta_group: Any = 1) -> tuple[int, str]:
    """Rows of the operand tile (MN) one instruction reads, and a one-line note saying why.

    Pre:  ``arch`` 'sm90' or 'sm100'; ``operand`` 'A' or 'B'; ``tile_mn`` the rows of this CTA's
          tile (positive int); ``cta_group`` 1 or 2 (2: sm100's CTA-pair instructions).
    Post: ``(rows, note)`` with ``rows`` dividing ``tile_mn``, as in the module's table; DescriptorError
          naming the instruction shape when no issuable shape divides the tile.

    >>> instruction_mn("sm90", "B", 512)[0], instruction_mn("sm100", "A", 256, 2)[0]
    (256, 128)
    """
    arch, op, mn, cg = _check(arch, operand, tile_mn, cta_group)
    if arch == "sm90" and op == "A":
        if mn % 64:
            raise DescriptorError(f"instruction_mn: sm90 wgmma.mma_async reads A as 64 rows (M = 64) per instruction; "
                                  f"the tile has {mn} rows, not a multiple of 64")
        return 64, (f"sm90 wgmma.mma_async reads A as 64 rows (M = 64) per instruction: {mn // 64} instruction(s) "
                    f"cover the {mn} rows")
    if arch == "sm90":
        n = _widest_n(mn, 256, 8, "sm90 wgmma.mma_async B has N = 8..256 in steps of 8")
        return n, f"sm90 wgmma.mma_async reads B as N = {n} rows per instruction (N = 8..256, steps of 8)"
    if op == "A" and cg == 1:
        m = 128 if mn % 128 == 0 else 64
        if mn % m:
            raise DescriptorError(f"instruction_mn: sm100 tcgen05.mma cta_group::1 reads A as M = 64 or 128 rows; "
                                  f"the tile has {mn} rows")
        return m, f"sm100 tcgen05.mma cta_group::1 reads A as M = {m} rows per instruction (M = 64 or 128)"
    if op == "A":
        if mn % 128:
            raise DescriptorError(f"instruction_mn: sm100 tcgen05.mma cta_group::2 (M = 256) reads 128 rows of A from "
                                  f"each CTA; the tile has {mn} rows")
        return 128, "sm100 tcgen05.mma cta_group::2: M = 256 over the CTA pair, 128 rows of A from each CTA"
    if cg == 1:
        n = _widest_n(mn, 256, 8, "sm100 tcgen05.mma cta_group::1 B has N = 8..256 in steps of 8")
        return n, f"sm100 tcgen05.mma cta_group::1 reads B as N = {n} rows per instruction (N = 8..256, steps of 8)"
    n = _widest_n(mn, 128, 8, "sm100 tcgen05.mma cta_group::2 reads N / 2 rows of B (N = 16..256) from each CTA")
    return n, f"sm100 tcgen05.mma cta_group::2: N = {2 * n} over the CTA pair, {n} rows of B from each CTA"


def instruction_rows(arch: Any, operand: Any, cta_group: Any = 1) -> tuple[tuple[int, ...], str]:
    """Every row count of the operand one instruction can read from this CTA's tile, and the rule in words.

    Pre:  ``arch``, ``operand`` and ``cta_group`` as for :func:`instruction_mn`.
    Post: ``(rows, rule)``: the issuable MN extents per CTA (ascending) and the sentence naming the
          instruction shapes they come from (the module's table; for sm100 cta_group 2 the pair's
          M = 128 or 256 gives 64 or 128 rows of A per CTA, N = 16..256 gives N / 2 rows of B).
          The kind-specific limits (block-scaled M = 128, kind::i8 N steps) are the instruction
          descriptor's rules (:class:`~pycute_layouts.arch.umma.InstrDescriptor`).

    >>> instruction_rows("sm90", "A")
    ((64,), 'sm90 wgmma.mma_async reads A as M = 64 rows per instruction (every wgmma is m64nNk*)')
    >>> instruction_rows("sm100", "B", 2)[0][-1]
    128
    """
    arch, op, _mn, cg = _check(arch, operand, 1, cta_group)
    if arch == "sm90":
        if op == "A":
            return (64,), "sm90 wgmma.mma_async reads A as M = 64 rows per instruction (every wgmma is m64nNk*)"
        return tuple(range(8, 257, 8)), "sm90 wgmma.mma_async reads B as N = 8..256 rows in steps of 8"
    if op == "A":
        if cg == 1:
            return (64, 128), "sm100 tcgen05.mma cta_group::1 reads A as M = 64 or 128 rows per instruction"
        return (64, 128), ("sm100 tcgen05.mma cta_group::2 has M = 128 or 256 over the CTA pair: 64 or 128 rows of A "
                           "from each CTA")
    if cg == 1:
        return tuple(range(8, 257, 8)), "sm100 tcgen05.mma cta_group::1 reads B as N = 8..256 rows in steps of 8"
    return tuple(range(8, 129, 8)), ("sm100 tcgen05.mma cta_group::2 has N = 16..256 over the CTA pair: N / 2 = "
                                     "8..128 rows of B (steps of 8) from each CTA")


def check_instruction_mn(arch: Any, operand: Any, mma_mn: Any, tile_mn: Any, cta_group: Any = 1) -> str:
    """Check that one instruction can read ``mma_mn`` rows of the operand, and that they tile ``tile_mn``.

    Pre:  as :func:`instruction_rows`; ``mma_mn`` and ``tile_mn`` positive ints.
    Post: a one-line note (how many instructions cover the tile); DescriptorError naming the
          instruction's rule and the values when no instruction reads ``mma_mn`` rows, or when
          ``mma_mn`` does not divide ``tile_mn``.

    >>> check_instruction_mn("sm90", "A", 64, 128)
    'sm90 wgmma.mma_async reads A as M = 64 rows per instruction: 2 instruction(s) cover the 128 rows'
    >>> check_instruction_mn("sm90", "A", 128, 128)
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.DescriptorError: mma_mn = 128: no instruction reads 128 rows of A: sm90 wgmma.mma_async reads A ...
    """
    rows, rule = instruction_rows(arch, operand, cta_group)
    op = operand.strip().upper()
    for name, v in (("mma_mn", mma_mn), ("tile_mn", tile_mn)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise DescriptorError(f"check_instruction_mn: {name} must be an int >= 1, got {_shown(v)}")
    if mma_mn not in rows:
        raise DescriptorError(f"mma_mn = {mma_mn}: no instruction reads {mma_mn} rows of {op}: {rule}")
    if tile_mn % mma_mn:
        raise DescriptorError(f"mma_mn = {mma_mn} does not divide the tile's {tile_mn} rows ({rule})")
    return f"{rule.split(' (')[0]}: {tile_mn // mma_mn} instruction(s) cover the {tile_mn} rows"


def smem_desc_fields(arch: Any, value: Any) -> list[tuple[str, str, int, str]]:
    """Every field of an encoded smem descriptor: ``(name, "bits a-b", value, units)``, read from ``value``'s bits.

    Pre:  ``arch`` 'sm90' or 'sm100'; ``value`` a 64-bit unsigned int.
    Post: one row per field of :data:`SMEM_DESC_FIELDS`, in bit order.

    >>> [f[:3] for f in smem_desc_fields("sm90", 0x4000004000010000)]  # doctest: +NORMALIZE_WHITESPACE
    [('start address', 'bits 0-13', 0), ('LBO', 'bits 16-29', 1), ('SBO', 'bits 32-45', 64),
     ('base offset', 'bits 49-51', 0), ('layout type', 'bits 62-63', 1)]
    """
    if not isinstance(arch, str) or arch not in SMEM_DESC_FIELDS:
        raise DescriptorError(f"smem_desc_fields: arch must be 'sm90' or 'sm100', got {_shown(arch)}")
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 1 << 64:
        raise DescriptorError(f"smem_desc_fields: value must be a 64-bit unsigned int, got {_shown(value)}")
    out = []
    for name, lo, hi, units in SMEM_DESC_FIELDS[arch]:
        bits = f"bits {lo}-{hi}" if hi > lo else f"bit {lo}"
        out.append((name, bits, (value >> lo) & ((1 << (hi - lo + 1)) - 1), units))
    return out
