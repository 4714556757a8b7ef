"""TMA box -> shared memory: where each byte of a box lands, and the TMA facts of each swizzle mode.

Sources: the CUDA driver API section "Tensor Map Object Management" (``cuTensorMapEncodeTiled``,
``cuTensorMapEncodeIm2col``, ``cuTensorMapEncodeIm2colWide``; reference ``002_*.txt``) and PTX ISA
5.5.5-5.5.7 (im2col::w modes, interleave layouts, swizzling modes; reference ``000_*.txt``).

The shared-memory model
-----------------------
A TMA load writes a *box* of the global tensor into shared memory. We model it in two steps:

1. **Dense packing.** The box is laid out densely, innermost dimension contiguous: box byte
   ``(..., i1, b)`` (``b`` the byte inside the innermost row) lands at the *dense offset*
   ``row * row_pitch + b`` with ``row`` the row-major index of ``(..., i1)`` and
   ``row_pitch = box_dim[0] * element_bytes`` (no padding of rows shorter than the swizzle span;
   :func:`box_to_smem` takes ``row_pitch_bytes=`` to try the other model).
2. **Byte swizzle of the absolute address.** The swizzle mode is a fixed XOR map ``f`` on *absolute*
   shared-memory byte addresses; the byte lands at ``f(dst + dense_offset)``. :func:`box_to_smem`
   returns ``f(dst + dense_offset) - dst``.

Applying ``f`` to the absolute address is what produces PTX's "swizzle base offset": when ``dst`` is
not on the pattern's boundary (1024 B for the 128-byte modes, 512 B for 64B, 256 B for 32B and
96B), the pattern starts at row ``(dst / 128) % 8`` (``% 4``, ``% 2``) of the table instead of row 0.

Each mode's ``f`` is read off its PTX pattern table. A table row is one 128-byte shared-memory
line, a numbered cell is a 16-byte chunk; row ``r`` sends chunk ``c`` to chunk ``table[r][c]``.
Every row is ``c -> c XOR k(r)`` for a row-dependent constant, so the map is an XOR of line-index
bits (address bits 7, 8, 9) into chunk-index bits (address bits 4, 5, 6): an F2-linear map,
written as CuTe's ``Swizzle<B,M,S>`` (``x ^ ((x & (((1<<B)-1) << (M+S))) >> S)``):

==========================  ============  ===========  ==========================================
mode                        span (bytes)  atomicity    byte map
==========================  ============  ===========  ==========================================
NONE                        --            --           identity (``Sw<0,4,3>``)
32B                         32            16 B         ``Sw<1,4,3>``: bit 7 -> bit 4
64B                         64            16 B         ``Sw<2,4,3>``: bits 7,8 -> 4,5
96B (PTX only)              96            16 B         ``Sw<1,4,3>`` (its table is the 32B table)
128B                        128           16 B         ``Sw<3,4,3>``: bits 7,8,9 -> 4,5,6
128B_ATOM_32B               128           32 B         ``Sw<2,5,2>``: bits 7,8 -> 5,6
128B_ATOM_32B_FLIP_8B       128           32 B + flip  ``Sw<2,5,2>`` then bit 7 -> bit 3
128B_ATOM_64B               128           64 B         ``Sw<1,6,1>``: bit 7 -> bit 6
==========================  ============  ===========  ==========================================

The modes themselves, and every number that names them, are
:class:`pycute_layouts.arch.swizzle_modes.SwizzleMode`; :class:`SwizzleModeInfo` is TMA's view of
one member. The reverse direction -- from a (swizzled) shared-memory tile layout to the tensor map
and the copies that produce it -- is :func:`pycute_layouts.arch.tma.plan_tma_load`.

>>> from pycute_layouts.arch.tma import box_to_smem, swizzle_mode_info
>>> str(swizzle_mode_info("128B").byte_map)
'Sw<3,4,3>'
>>> box_to_smem("128B", 2, (64, 2))[1, ::16].tolist()   # row 1: 16-byte chunks 0..7 -> 1 0 3 2 5 4 7 6
[144, 128, 176, 160, 208, 192, 240, 224]
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from ...core.swizzle import Swizzle, XorSwizzle
from ...errors import TensorMapError
from ...limits import check_fields, fmt
from ..swizzle_modes import SwizzleMode, xor_pairs
from .enums import Interleave, check_int, check_int_seq, fmt_number

__all__ = [
    "SwizzleModeInfo",
    "swizzle_mode_info",
    "swizzle_byte_map",
    "swizzle_base_offset",
    "pattern_table",
    "elements_per_dim",
    "box_to_smem",
    "MAX_BOX_BYTES",
]


# ---------------------------------------------------------------------------------------------
# Swizzle modes
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SwizzleModeInfo:
    """The facts of one swizzle mode, as PTX 5.5.7 and the driver's enum comments state them.

    - ``span_bytes``: largest inner box dimension in bytes (None: no limit, mode NONE).
    - ``atomicity_bytes``: the unit kept intact (Table 14); the 8-byte flip is ``flip_8b``.
    - ``period_bytes``: the byte map's period (rows in the pattern table x 128).
    - ``pattern_boundary_bytes``: "starting address of the repeating pattern" (base offset 0).
    - ``base_offset_modulus``: the ``% n`` of the base-offset formula ``(dstMem / 128) % n``.
    - ``required_alignment_bytes``: shared-memory alignment of a ``cp.async.bulk.tensor``
      destination: 128 in every mode (docs/hardware-validation.md, TMA destination alignment).
    - ``byte_map``: the map on absolute shared-memory byte addresses.

    >>> info = swizzle_mode_info("64B")
    >>> info.span_bytes, info.period_bytes, info.pattern_boundary_bytes, info.base_offset_modulus
    (64, 512, 512, 4)
    """

    mode: SwizzleMode
    span_bytes: int | None
    atomicity_bytes: int | None
    flip_8b: bool
    period_bytes: int
    pattern_boundary_bytes: int | None
    base_offset_modulus: int
    required_alignment_bytes: int
    byte_map: Swizzle | XorSwizzle = field(compare=False)

    def __post_init__(self) -> None:
        check_fields(self)

    @property
    def encodable(self) -> bool:
        """Whether a ``CUtensorMapSwizzle`` value exists for the mode (False only for 96B).

        >>> swizzle_mode_info("96B").encodable, swizzle_mode_info("32B").encodable
        (False, True)
        """
        return self.mode.on_tma

    @property
    def intact_bytes(self) -> int:
        """Size of the aligned granule the map never splits: 2 ** (lowest bit it changes).

        Mode NONE moves nothing; it reports its period (128).

        >>> [swizzle_mode_info(m).intact_bytes for m in ("128B", "128B_ATOM_64B", "128B_ATOM_32B_FLIP_8B")]
        [16, 64, 8]
        """
        targets = xor_pairs(self.byte_map)
        if not targets:
            return self.period_bytes
        return 1 << min(t for _, t in targets)

    @property
    def permuted_block_bytes(self) -> int:
        """Size of the aligned block inside which bytes move: 2 ** (highest changed bit + 1).

        A box whose byte count is a multiple of this, written at a pattern-aligned destination,
        fills exactly ``[dst, dst + box bytes)``.

        >>> [swizzle_mode_info(m).permuted_block_bytes for m in ("NONE", "32B", "64B", "128B_ATOM_32B")]
        [1, 32, 64, 128]
        """
        targets = xor_pairs(self.byte_map)
        if not targets:
            return 1
        return 1 << (max(t for _, t in targets) + 1)


def _tma_view(m: SwizzleMode) -> SwizzleModeInfo:
    # TMA's reading of the unswizzled mode: no span, no atomicity, no pattern, one 128-byte row.
    return SwizzleModeInfo(m, m.span_bytes, m.atomicity_bytes if m.is_swizzled else None, m.flip_8b,
                           max(128, m.period_bytes), m.pattern_boundary_bytes if m.is_swizzled else None,
                           m.base_offset_modulus, m.tma_dst_alignment_bytes, m.byte_map)


# The TMA view of every member, derived from SwizzleMode's facts table (a cache, not a second table).
_MODE_INFO: dict[SwizzleMode, SwizzleModeInfo] = {m: _tma_view(m) for m in SwizzleMode}


def swizzle_mode_info(mode: Any) -> SwizzleModeInfo:
    """The :class:`SwizzleModeInfo` of a mode (anything ``SwizzleMode.parse`` accepts).

    Pre: ``mode`` names a swizzle mode. Post: its TMA facts (SwizzleModeError otherwise).

    >>> swizzle_mode_info("128B_ATOM_32B").required_alignment_bytes
    128
    """
    return _MODE_INFO[SwizzleMode.parse(mode)]


def swizzle_byte_map(mode: Any) -> Swizzle | XorSwizzle:
    """The mode's map on absolute shared-memory byte addresses.

    Pre: ``mode`` names a swizzle mode. Post: ``f`` with ``f(dst + offset)`` the byte's address.

    >>> str(swizzle_byte_map("128B_ATOM_64B")), swizzle_byte_map("128B_ATOM_32B_FLIP_8B").pairs
    ('Sw<1,6,1>', ((7, 3), (7, 5), (8, 6)))
    """
    return swizzle_mode_info(mode).byte_map


def swizzle_base_offset(mode: Any, dst_address: int) -> int:
    """PTX's swizzle base offset: ``(dstMem / 128) % 8`` (128B modes), ``% 4`` (64B), ``% 2`` (32B, 96B).

    Pre: ``mode`` names a swizzle mode; ``dst_address >= 0``. Post: an int in ``[0, 8)``.

    It is 0 exactly when ``dst_address`` is on the pattern boundary (1024/512/256/256 bytes) or,
    for a ``dst_address`` that is a multiple of 128, it is the table row the pattern starts at.
    Mode NONE has no pattern: 0.

    >>> swizzle_base_offset("128B", 1024), swizzle_base_offset("128B", 1408), swizzle_base_offset("32B", 384)
    (0, 3, 1)
    """
    info = swizzle_mode_info(mode)
    dst = check_int("swizzle_base_offset", "dst_address", dst_address, lo=0)
    return (dst // 128) % info.base_offset_modulus


def pattern_table(mode: Any, cell_bytes: int = 16) -> list[list[int]]:
    """The mode's pattern table computed from its byte map: row r, cell c -> destination cell.

    Pre: ``mode`` names a swizzle mode; ``cell_bytes`` is a power of two <= 128.
    Post: ``period // 128`` rows of ``128 // cell_bytes`` cells.

    One row per 128-byte line of the period, ``128 // cell_bytes`` cells per row. With 16-byte
    cells this is PTX's table (each row is an XOR permutation, so it reads the same as "cell at
    position p holds source cell table[r][p]"). ``cell_bytes=8`` shows the 8-byte flip.

    >>> pattern_table("64B")
    [[0, 1, 2, 3, 4, 5, 6, 7], [1, 0, 3, 2, 5, 4, 7, 6], [2, 3, 0, 1, 6, 7, 4, 5], [3, 2, 1, 0, 7, 6, 5, 4]]
    """
    info = swizzle_mode_info(mode)
    cb = check_int("pattern_table", "cell_bytes", cell_bytes, lo=1)
    if cb not in (1, 2, 4, 8, 16, 32, 64, 128):
        raise TensorMapError(f"pattern_table: cell_bytes must be a power of two <= 128, got {cb}")
    rows = info.period_bytes // 128
    f = info.byte_map
    return [[(f(128 * r + cb * c) % 128) // cb for c in range(128 // cb)] for r in range(rows)]


# ---------------------------------------------------------------------------------------------
# Box -> shared memory
# ---------------------------------------------------------------------------------------------

#: Largest box (bytes) the shared-memory model accepts: no shared memory is that large.
MAX_BOX_BYTES = 1 << 24


def elements_per_dim(
    box_dim: Sequence[int], element_strides: Sequence[int], interleave: Any = "NONE"
) -> tuple[int, ...]:
    """Elements TMA loads per dimension: ``ceil(boxDim[i] / elementStrides[i])``.

    Pre: ``box_dim`` and ``element_strides`` are equally long sequences of positive ints.
    Post: one count per dimension, innermost first.

    When interleave is NONE, ``elementStrides[0]`` is ignored ("TMA doesn't support the stride for
    dimension zero"), so dimension 0 loads ``boxDim[0]`` elements. To load N elements along
    dimension i, set ``boxDim[i] = N * elementStrides[i]``.

    >>> elements_per_dim((64, 9, 8), (2, 2, 4))
    (64, 5, 2)
    >>> elements_per_dim((64, 9, 8), (2, 2, 4), interleave="32B")
    (32, 5, 2)
    """
    who = "elements_per_dim"
    box = check_int_seq(who, "box_dim", box_dim)
    strides = check_int_seq(who, "element_strides", element_strides)
    il = Interleave.parse(interleave)
    if len(box) != len(strides):
        raise TensorMapError(
            f"{who}: box_dim and element_strides must have the same length: {len(box)} != {len(strides)}"
        )
    for i, (b, s) in enumerate(zip(box, strides, strict=True)):
        if b < 1 or s < 1:
            raise TensorMapError(f"{who}: boxDim[{i}]={b} and elementStrides[{i}]={s} must be positive")
    return tuple(
        b if (i == 0 and il is Interleave.NONE) else -(-b // s)
        for i, (b, s) in enumerate(zip(box, strides, strict=True))
    )


def box_to_smem(
    mode: Any,
    elem_bytes: int | Fraction,
    box_dims: Sequence[int],
    dst_address: int = 0,
    *,
    row_pitch_bytes: int | None = None,
) -> np.ndarray:
    """Shared-memory byte offset from ``dst_address`` of every byte of a TMA box.

    Pre: ``mode`` names a swizzle mode; ``box_dims`` are positive; the innermost row is a whole
    number of bytes <= the mode's span; ``dst_address`` is a multiple of 128.
    Post: an int64 array of shape ``(box_dims[-1], ..., box_dims[1], row bytes)``, a permutation
    of ``[0, box bytes)`` when the pitch is dense or the span.

    ``box_dims`` are the elements loaded per dimension, innermost first (use
    :func:`elements_per_dim` when elementStrides are not all one). The result has shape
    ``(box_dims[-1], ..., box_dims[1], box_dims[0] * elem_bytes)``: ``result[..., i1, b]`` is byte
    ``b`` of the innermost row at box coordinates ``(..., i1)``; ``result.ravel()`` lists every byte
    in row-major box order, innermost first.

    Model: the box's rows are packed one after another, then the mode's byte map is applied to
    the absolute address ``dst_address + offset``. The row pitch is the swizzle span for the
    swizzled modes (a row narrower than the span still occupies a whole span; see
    docs/hardware-validation.md) and ``box_dims[0] * elem_bytes`` (dense) without swizzle;
    ``row_pitch_bytes`` overrides it. ``elem_bytes`` may be a Fraction (packed 4-bit types: 1/2)
    when the row is a whole number of bytes. ``dst_address`` must be a multiple of the mode's
    required alignment (128 bytes; docs/hardware-validation.md), and the row must fit in the
    swizzle span; boxes over 16 MiB are refused (no shared memory is that large).

    >>> box_to_smem("NONE", 1, (4, 2)).tolist()
    [[0, 1, 2, 3], [4, 5, 6, 7]]
    >>> box_to_smem("32B", 4, (8, 8))[4, :4].tolist()   # rows 4..7 are the second 128-byte line
    [144, 145, 146, 147]
    >>> box_to_smem("128B", 2, (64, 8))[:, 0].tolist()      # first chunk of each row: the table's column 0
    [0, 144, 288, 432, 576, 720, 864, 1008]
    """
    who = "box_to_smem"
    info = swizzle_mode_info(mode)
    dims = check_int_seq(who, "box_dims", box_dims)
    if not dims:
        raise TensorMapError(f"{who}: box_dims must have at least one dimension")
    for i, d in enumerate(dims):
        if d < 1:
            raise TensorMapError(f"{who}: box_dims[{i}] must be >= 1, got {d}")
    row_bytes = _box_row_bytes(who, info, dims[0], elem_bytes)
    natural = row_bytes if info.span_bytes is None or info.mode is SwizzleMode.NONE else info.span_bytes
    pitch = natural if row_pitch_bytes is None else check_int(who, "row_pitch_bytes", row_pitch_bytes, lo=row_bytes)
    dst = _box_destination(who, info, dst_address)
    rows = math.prod(dims[1:])
    if rows * row_bytes > MAX_BOX_BYTES:
        raise TensorMapError(
            f"{who}: a box of {rows * row_bytes} bytes exceeds the {MAX_BOX_BYTES}-byte model limit"
        )
    dense = np.arange(rows, dtype=np.int64)[:, None] * pitch + np.arange(row_bytes, dtype=np.int64)[None, :]
    placed = info.byte_map(dense + dst) - dst
    return placed.reshape(tuple(reversed(dims[1:])) + (row_bytes,))


def _box_row_bytes(who: str, info: Any, inner_elems: int, elem_bytes: Any) -> int:
    # Pre:  inner_elems >= 1, the box's innermost extent.
    # Post: the innermost row in bytes: a whole number, within the mode's swizzle span; otherwise TensorMapError.
    if isinstance(elem_bytes, (bool, np.bool_)) or not isinstance(elem_bytes, (numbers.Rational, np.integer)):
        raise TensorMapError(f"{who}: elem_bytes must be a positive int or Fraction, got {fmt(elem_bytes)}")
    eb = Fraction(int(elem_bytes)) if isinstance(elem_bytes, np.integer) else Fraction(elem_bytes)
    if eb <= 0:
        raise TensorMapError(f"{who}: elem_bytes must be positive, got {fmt_number(eb)}")
    row = inner_elems * eb
    if row.denominator != 1:
        raise TensorMapError(
            f"{who}: the innermost row must be a whole number of bytes: box_dims[0]={inner_elems}, "
            f"elem_bytes={fmt_number(eb)} -> {fmt_number(row)} bytes"
        )
    row_bytes = int(row)
    if info.span_bytes is not None and row_bytes > info.span_bytes:
        raise TensorMapError(
            f"{who}: the box inner dimension must be <= the swizzle span of {info.mode.tma_name} "
            f"({info.span_bytes} bytes): box_dims[0]={inner_elems}, elem_bytes={fmt_number(eb)} -> {row_bytes} bytes"
        )
    return row_bytes


def _box_destination(who: str, info: Any, dst_address: Any) -> int:
    # Pre:  none (user input).  Post: a 32-bit shared-memory byte address aligned as the mode requires;
    #       otherwise TensorMapError.
    dst = check_int(who, "dst_address", dst_address, lo=0)
    if dst >= 1 << 32:
        raise TensorMapError(f"{who}: dst_address must be a 32-bit shared-memory byte address (< 2**32), got {dst}")
    if dst % info.required_alignment_bytes:
        raise TensorMapError(
            f"{who}: swizzle mode {info.mode.tma_name} requires a shared-memory destination aligned to "
            f"{info.required_alignment_bytes} bytes: dst_address={dst} (dst_address % "
            f"{info.required_alignment_bytes} = {dst % info.required_alignment_bytes})"
        )
    return dst
