"""Choosing an operand's swizzle mode: the widest mode whose span divides the tile's contiguous extent.

An MMA operand tile is built from one swizzle atom repeated over the tile (``tile_to_shape``), so
the atom's row -- the mode's span: 16 bytes unswizzled (``none``), 32, 64 or 128 bytes -- must
divide the tile's contiguous extent (K for a K-major tile, MN for an MN-major one). Wider modes
spread one 8-row core group over more banks, so the widest mode that divides is the one to take.
This is the rule of CUTLASS's ``ss_smem_selector`` (``include/cutlass/gemm/collective/builders/
sm90_common.inl``: ``BLK_K0 % size<1>(Layout_K_SW128_Atom<T>) == 0`` then SW64, SW32, INTER; the
same along ``BLK_MN0`` with ``size<0>`` of the MN-major atoms) and of DeepGEMM's
``get_swizzle_mode(block_size, elem_size)`` (the first of 128, 64, 32, 16 bytes dividing
``block_size * elem_size``; 16 means unswizzled). One exception, from CUTLASS's
``sm100_smem_selector`` (``sm100_common.inl``): an sm100 MN-major 32-bit (tf32) operand always takes
``128B_base32B`` ("for mn-major tf32 operands, SW128_32B is the only available smem layout"), so
its MN extent must be a multiple of 128 bytes.

>>> choose_swizzle("K", 16, 64).mode.short_name
'128B'
>>> print(choose_swizzle("MN", 8, 96).reason)  # doctest: +NORMALIZE_WHITESPACE
MN-major contiguous extent 96 x 8-bit = 96 B: 128B does not divide it; 64B does not divide it;
32B is the widest span dividing it (CUTLASS ss_smem_selector, DeepGEMM get_swizzle_mode)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import LayoutValueError
from ..limits import check_count, check_fields
from .swizzle_modes import SwizzleMode

__all__ = ["SwizzleChoice", "AUTO_CANDIDATES", "choose_swizzle"]

#: The modes ``choose_swizzle`` considers, widest first (the selectors' order).
AUTO_CANDIDATES: tuple[SwizzleMode, ...] = (SwizzleMode.B128, SwizzleMode.B64, SwizzleMode.B32, SwizzleMode.INTERLEAVE)

_ARCHS = ("sm90", "sm100")
_BITS = (4, 6, 8, 16, 32)


def _shown(v: Any) -> str:
    """``repr`` of a short str/int/float/None; the type's name for anything else (its repr may be huge)."""
    if isinstance(v, (str, float, type(None))) or (isinstance(v, int) and abs(v).bit_length() <= 64):
        return repr(v) if len(repr(v)) <= 80 else repr(v)[:77] + "..."
    return f"<{type(v).__name__}>"


@dataclass(frozen=True)
class SwizzleChoice:
    """The chosen mode and a one-line reason naming the extent in bytes and the spans tried.

    >>> c = choose_swizzle("K", 32, 8)
    >>> c.mode.short_name, c.contiguous_bytes
    ('32B', 32)
    """

    mode: SwizzleMode
    contiguous_bytes: int
    reason: str

    def __post_init__(self) -> None:
        check_fields(self)


def _check(major: Any, element_bits: Any, contiguous_extent_elems: Any, arch: Any) -> tuple[str, int, int, str]:
    who = "choose_swizzle"
    if not isinstance(major, str) or major.strip().upper() not in ("K", "MN"):
        raise LayoutValueError(f"{who}: major must be 'K' or 'MN', got {_shown(major)}")
    if isinstance(element_bits, bool) or not isinstance(element_bits, int) or element_bits not in _BITS:
        raise LayoutValueError(f"{who}: element_bits must be one of {_BITS}, got {_shown(element_bits)}")
    n = contiguous_extent_elems
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise LayoutValueError(f"{who}: contiguous_extent_elems must be a positive int, got {_shown(n)}")
    check_count(who, "contiguous_extent_elems", n, 1, None, LayoutValueError)  # at most MAX_INT_DIGITS digits
    if not isinstance(arch, str) or arch.strip().lower() not in _ARCHS:
        raise LayoutValueError(f"{who}: arch must be 'sm90' or 'sm100', got {_shown(arch)}")
    return major.strip().upper(), element_bits, n, arch.strip().lower()


def choose_swizzle(major: Any, element_bits: Any, contiguous_extent_elems: Any, arch: Any = "sm90") -> SwizzleChoice:
    """The widest MMA swizzle mode whose span divides the tile's contiguous extent, and why.

    Pre:  ``major`` 'K' or 'MN'; ``element_bits`` in (4, 6, 8, 16, 32) (the width in shared memory);
          ``contiguous_extent_elems`` the tile's extent along its contiguous dimension (K for
          K-major, MN for MN-major) in elements, a positive int; ``arch`` 'sm90' or 'sm100'.
    Post: ``mode`` is the first of 128B, 64B, 32B, none whose span (128, 64, 32, 16 bytes) divides
          ``contiguous_extent_elems * element_bits / 8`` bytes; LayoutValueError when not even 16
          bytes divide it (no MMA atom tiles such an extent).

    The same answer on sm90 and sm100 (both have these four modes with the same spans), except that
    an sm100 MN-major 32-bit operand takes ``128B_base32B`` (LayoutValueError when 128 bytes do not
    divide its extent).

    >>> [choose_swizzle("K", 16, k).mode.short_name for k in (64, 32, 16, 8, 24)]
    ['128B', '64B', '32B', 'none', 'none']
    >>> choose_swizzle("K", 16, 4)
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.LayoutValueError: choose_swizzle: K-major contiguous extent 4 x 16-bit = 8 B is not ...
    """
    mj, bits, n, arch = _check(major, element_bits, contiguous_extent_elems, arch)
    total_bits = n * bits
    head = f"{mj}-major contiguous extent {n} x {bits}-bit"
    if arch == "sm100" and mj == "MN" and bits == 32:
        if total_bits % 1024:
            raise LayoutValueError(f"choose_swizzle: {head} = {total_bits // 8} B: sm100 MN-major 32-bit operands "
                                   "take only 128B_base32B (CUTLASS sm100_smem_selector), whose 128 B span does not "
                                   "divide it")
        return SwizzleChoice(SwizzleMode.B128_BASE32B, total_bits // 8,
                             f"{head} = {total_bits // 8} B: sm100 MN-major 32-bit operands take 128B_base32B, the "
                             "only tcgen05 layout for them (CUTLASS sm100_smem_selector)")
    if total_bits % 128:
        nbytes = f"{total_bits / 8:g} B"
        raise LayoutValueError(f"choose_swizzle: {head} = {nbytes} is not a multiple of 16 B (the unswizzled "
                               "core-matrix row), so no MMA swizzle atom tiles it")
    nbytes = total_bits // 8
    tried = []
    for mode in AUTO_CANDIDATES:
        if nbytes % mode.width_bytes == 0:
            what = (f"{mode.short_name} is the widest span dividing it" if mode.is_swizzled
                    else "none (16 B rows, unswizzled) is the widest dividing it")
            reason = (f"{head} = {nbytes} B: " + "".join(f"{t} does not divide it; " for t in tried) + what
                      + " (CUTLASS ss_smem_selector, DeepGEMM get_swizzle_mode)")
            return SwizzleChoice(mode, nbytes, reason)
        tried.append(mode.short_name)
    raise LayoutValueError(f"choose_swizzle: {head} = {nbytes} B: no mode's span divides it")  # unreachable: 16 | nbytes
