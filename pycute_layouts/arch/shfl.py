"""SHFL: the lane maps of the SASS warp-wide register shuffle, and a small warp simulator.

``SHFL.mode Pu, Rd, Ra, Sb, Sc``: every lane ``i`` of the warp computes a *source lane* ``j``,
reads register ``Ra`` of lane ``j`` and writes it into its own ``Rd``; the predicate ``Pu``
says whether ``j`` was *in range*. The operands carry three fields::

    Sb[4:0]   index   absolute source lane (.IDX), distance (.UP/.DOWN), XOR operand (.BFLY)
    Sc[12:8]  mask    the warp segmentation mask
    Sc[4:0]   clamp   the last in-range lane, counted from the start of the segment

**Segments.** Mask ``00000`` is one segment of 32 lanes, ``10000`` two of 16, ``11000`` four of 8.
The reference's FSWZ examples also use ``11100`` (quads), so the rule is: a mask with ``k``
leading ones (bit 4 first) and zeros below cuts the warp into ``2**k`` segments of
``seg = 32 >> k`` lanes and uses the low ``5 - k`` bits of index and clamp. Masks that are not of
that form (``00001``, ``10100``, ...) are not defined by the reference and raise ``ShflError``.
With ``low = seg - 1``::

    minLane(i) = (i // seg) * seg              least lane of i's segment
    maxLane(i) = minLane(i) + (clamp & low)

    .IDX   j = minLane(i) + (index & low)      out of range iff j > maxLane(i)
    .UP    j = i - index                       out of range iff j < minLane(i)
    .DOWN  j = i + index                       out of range iff j > maxLane(i)
    .BFLY  j = i ^ index                       out of range iff j > maxLane(i)

    out of range: j = i (the lane reads its own Ra) and Pu = false; otherwise Pu = true.

Taken literally, as written: .UP never looks at maxLane (the reference "expects" clamp 0 there
but does not require it), and .BFLY only checks ``j > maxLane``, so an index with bits above
the segment can reach *down* into a lower segment and still be in range.

**Inactive lanes.** A lane reading from an inactive lane ``j`` gets an UNPREDICTABLE value:
:attr:`ShflResult.unpredictable` lists those lanes (their pair still gives ``j`` and ``Pu``).
An inactive lane does not execute at all; its pair is still what the formula gives (the lane
map is a function of ``i`` alone) and :attr:`ShflResult.active` is false there.

**Layouts.** Where the source-lane map is ``j(i) = offset + L(i)`` for a CuTe layout ``L``
(IDX broadcast: ``s + (4,8):(0,4)`` for quads; BFLY with every lane in range:
``c + (2,...):(+-1,...)``), :func:`lane_layout` returns it. BFLY with a constant index is
``i ^ c``: affine, not F2-linear; the whole BFLY family is linear on the 10-bit word
``(index << 5) | lane``, which :func:`bfly_swizzle` returns as an ``XorSwizzle``. UP/DOWN are
predicated shifts (:class:`ShiftLaneMap`), a layout only in degenerate cases.

>>> r = shfl("IDX", 2, 0x1C03)      # broadcast lane 2 of every quad
>>> r.source_lanes[:8].tolist()
[2, 2, 2, 2, 6, 6, 6, 6]
>>> str(lane_layout("IDX", 2, 0x1C03))
'2 + (4,8):(0,4)'
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, NamedTuple

import numpy as np

from ..core.algebra import coalesce
from ..core.layout import Layout
from ..core.swizzle import XorSwizzle
from ..errors import LayoutTypeError, ShflError
from ..limits import check_count, check_fields, check_type, fmt

__all__ = [
    "WARP_SIZE",
    "FULL_WARP",
    "MODES",
    "DEFINED_MASKS",
    "normalize_mode",
    "segment_size",
    "encode_sc",
    "decode_sc",
    "ShflLane",
    "ShflResult",
    "shfl",
    "LaneLayout",
    "ShiftLaneMap",
    "XorLaneMap",
    "lane_map",
    "lane_layout",
    "bfly_swizzle",
    "Instruction",
    "parse_program",
    "Warp",
    "run_program",
]

WARP_SIZE = 32
FULL_WARP = 0xFFFFFFFF
MODES = ("IDX", "UP", "DOWN", "BFLY")
#: mask (Sc[12:8]) -> number of segments; k leading ones give 2**k segments of 32 >> k lanes.
DEFINED_MASKS: Mapping[int, int] = MappingProxyType({(0x1F << (5 - k)) & 0x1F: 1 << k for k in range(6)})

_LANES = np.arange(WARP_SIZE, dtype=np.int64)
_LANES.setflags(write=False)


# ---------------------------------------------------------------------------------------------
# operand validation


def _as_int(value: object, what: str) -> int:
    """``value`` as a Python int; bools, floats, strings, None are rejected with ShflError."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise ShflError(f"{what} must be an int, got {fmt(value)} of type {type(value).__name__}")
    return check_count("shfl", what, value, None, None, ShflError)


def _check_field(value: object, bits: int, what: str) -> int:
    v = _as_int(value, what)
    if not 0 <= v < (1 << bits):
        raise ShflError(
            f"{what}={v} ({v:#x}) is out of range: it is a {bits}-bit value, 0..{(1 << bits) - 1}"
        )
    return v


def normalize_mode(mode: object) -> str:
    """The canonical SHFL mode name: "IDX", "UP", "DOWN" or "BFLY" (case-insensitive, ".IDX" ok).

    Pre: ``mode`` is a string naming IDX, UP, DOWN or BFLY.
    Post: the canonical name; ShflError otherwise.

    >>> normalize_mode(".bfly")
    'BFLY'
    >>> normalize_mode("XOR")
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.ShflError: unknown SHFL mode 'XOR': expected one of IDX, UP, DOWN, BFLY
    """
    if not isinstance(mode, str):
        raise ShflError(f"SHFL mode must be a str, got {fmt(mode)} of type {type(mode).__name__}")
    name = mode.strip().upper()
    name = name[1:] if name.startswith(".") else name
    if name not in MODES:
        raise ShflError(f"unknown SHFL mode {fmt(mode)}: expected one of {', '.join(MODES)}")
    return name


def segment_size(mask: int) -> int:
    """Lanes per warp segment for the 5-bit segmentation mask Sc[12:8].

    Pre: ``mask`` is one of the defined 5-bit segmentation masks.
    Post: the lanes per segment (a power of two dividing 32).

    Defined: k leading ones then zeros (0b00000, 0b10000, 0b11000, 0b11100, 0b11110, 0b11111)
    give 32 >> k lanes. Any other mask is not defined by the reference: ShflError.

    >>> [segment_size(m) for m in (0b00000, 0b10000, 0b11000, 0b11100)]
    [32, 16, 8, 4]
    >>> segment_size(0b10100)
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.ShflError: SHFL mask 0b10100 (Sc[12:8]) is not defined: ...
    """
    m = _check_field(mask, 5, "SHFL mask (Sc[12:8])")
    if m not in DEFINED_MASKS:
        raise ShflError(
            f"SHFL mask 0b{m:05b} (Sc[12:8]) is not defined: the reference defines only contiguous "
            "high-bit masks (0b00000, 0b10000, 0b11000, and by the same rule 0b11100, 0b11110, 0b11111), "
            "which cut the warp into 2**k segments of 32>>k lanes"
        )
    return WARP_SIZE // DEFINED_MASKS[m]


def encode_sc(mask: int, clamp: int) -> int:
    """Pack the 13-bit Sc operand: mask in bits 12:8, clamp in bits 4:0, bits 7:5 zero.

    Pre: ``mask`` is a defined segmentation mask; ``0 <= clamp < 32``.
    Post: ``(mask << 8) | clamp``; ``decode_sc`` inverts it.

    >>> hex(encode_sc(0b11100, 3))
    '0x1c03'
    """
    m = _check_field(mask, 5, "SHFL mask (Sc[12:8])")
    segment_size(m)
    return (m << 8) | _check_field(clamp, 5, "SHFL clamp (Sc[4:0])")


def decode_sc(c: int) -> tuple[int, int]:
    """Split Sc into (mask, clamp); rejects values wider than 13 bits, bits 7:5 set, undefined masks.

    Pre: ``c`` is a 13-bit Sc with bits 7:5 zero and a defined mask.
    Post: ``(mask, clamp)`` with ``encode_sc(mask, clamp) == c``.

    The reference defines only Sc[12:8] and Sc[4:0]. Bits 7:5 are rejected rather than ignored:
    a set bit there is almost always a mis-packed operand (a clamp shifted by the wrong amount).

    >>> decode_sc(0x1C03)
    (28, 3)
    >>> decode_sc(0x00E0)
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.ShflError: SHFL Sc=0x00e0 has bits 7:5 = 0b111: ...
    """
    v = _check_field(c, 13, "SHFL Sc")
    if v & 0xE0:
        raise ShflError(
            f"SHFL Sc={v:#06x} has bits 7:5 = 0b{(v >> 5) & 7:03b}: the reference defines only "
            "Sc[12:8] (mask) and Sc[4:0] (clamp); bits 7:5 must be 0"
        )
    mask, clamp = v >> 8, v & 0x1F
    segment_size(mask)
    return mask, clamp


def _operands(
    b: int | None, c: int | None, index: int | None, mask: int | None, clamp: int | None
) -> tuple[int, int]:
    """(Sb, Sc) from either the packed operands or the named fields."""
    if b is not None and index is not None:
        raise ShflError(f"give the SHFL index once: b={fmt(b)} and index={fmt(index)} were both given")
    if c is not None and (mask is not None or clamp is not None):
        raise ShflError(f"give Sc either packed (c={fmt(c)}) or as mask=/clamp=, not both")
    sb = b if b is not None else index
    if sb is None:
        raise ShflError("SHFL needs an index: pass b (Sb) or index=")
    sb = _check_field(sb, 5, "SHFL Sb (index)")
    if c is not None:
        sc = _check_field(c, 13, "SHFL Sc")
        decode_sc(sc)
        return sb, sc
    if clamp is None:
        raise ShflError("SHFL needs a clamp: pass c (Sc) or clamp= (mask= defaults to 0b00000)")
    return sb, encode_sc(0 if mask is None else mask, clamp)


# ---------------------------------------------------------------------------------------------
# the lane map


class ShflLane(NamedTuple):
    """One lane's outcome: the lane it reads and the in-range predicate Pu.

    >>> ShflLane(3, True) == (3, True)
    True
    """

    source_lane: int
    in_range: bool


def _frozen(a: np.ndarray) -> np.ndarray:
    a = np.ascontiguousarray(a)
    a.setflags(write=False)
    return a


def _lane_map_arrays(
    mode: str, index: np.ndarray, seg: np.ndarray, clamp: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(j, in_range, minLane, maxLane) for every lane; the four formulas of the module docstring."""
    low = seg - 1
    min_lane = (_LANES // seg) * seg
    max_lane = min_lane + (clamp & low)
    if mode == "IDX":
        j = min_lane + (index & low)
        ok = j <= max_lane
    elif mode == "UP":
        j = _LANES - index
        ok = j >= min_lane
    elif mode == "DOWN":
        j = _LANES + index
        ok = j <= max_lane
    else:  # BFLY
        j = _LANES ^ index
        ok = j <= max_lane
    return np.where(ok, j, _LANES), ok, min_lane, max_lane


def _lane_bits(mask_value: int) -> np.ndarray:
    return ((mask_value >> _LANES) & 1).astype(bool)


class ShflResult(tuple[ShflLane, ...]):
    """The 32 ``(source_lane, in_range)`` pairs of one SHFL; a tuple, plus numpy views.

    Attributes: ``mode``, ``b``, ``c`` (ints, or per-lane tuples when the warp simulator read
    them from registers), ``active_mask``; read-only arrays ``source_lanes``, ``in_range``,
    ``min_lane``, ``max_lane``, ``active``; ``unpredictable``: the active lanes whose in-range
    source lane is inactive (the value they read is UNPREDICTABLE). Build it with :func:`shfl`.
    Equality and hash are the tuple's: the 32 pairs, not the operands or the active mask.

    >>> r = shfl("UP", 1, 0)
    >>> r[0], r[5]
    (ShflLane(source_lane=0, in_range=False), ShflLane(source_lane=4, in_range=True))
    >>> int(r.in_range.sum())
    31
    """

    mode: str
    b: int | tuple[int, ...]
    c: int | tuple[int, ...]
    active_mask: int
    source_lanes: np.ndarray
    in_range: np.ndarray
    min_lane: np.ndarray
    max_lane: np.ndarray
    active: np.ndarray
    unpredictable: tuple[int, ...]

    def __new__(cls, *args: Any, **kwargs: Any) -> ShflResult:
        raise LayoutTypeError("ShflResult is built by shfl() (or Warp.shfl), not directly")

    @classmethod
    def _build(
        cls,
        mode: str,
        b: int | tuple[int, ...],
        c: int | tuple[int, ...],
        active_mask: int,
        j: np.ndarray,
        ok: np.ndarray,
        min_lane: np.ndarray,
        max_lane: np.ndarray,
    ) -> ShflResult:
        self = tuple.__new__(cls, (ShflLane(int(s), bool(p)) for s, p in zip(j, ok, strict=True)))
        active = _lane_bits(active_mask)
        unpredictable = active & ~active[j]
        fields = {
            "mode": mode,
            "b": b,
            "c": c,
            "active_mask": active_mask,
            "source_lanes": _frozen(j.astype(np.int64)),
            "in_range": _frozen(ok.astype(bool)),
            "min_lane": _frozen(min_lane.astype(np.int64)),
            "max_lane": _frozen(max_lane.astype(np.int64)),
            "active": _frozen(active),
            "unpredictable": tuple(int(i) for i in np.flatnonzero(unpredictable)),
        }
        for name, value in fields.items():
            object.__setattr__(self, name, value)
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"ShflResult is immutable (tried to set {fmt(name)})")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"ShflResult is immutable (tried to delete {fmt(name)})")

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.mode, self.b, self.c, self.active_mask))

    @property
    def index(self) -> int:
        """Sb[4:0], the index field (uniform operands only).

        >>> shfl("BFLY", index=4, clamp=31).index
        4
        """
        if not isinstance(self.b, int):
            raise ShflError("this SHFL read a per-lane Sb from a register: see .b")
        return self.b

    @property
    def mask(self) -> int:
        """Sc[12:8], the segmentation mask (uniform operands only).

        >>> bin(shfl("IDX", 0, 0x1C03).mask)
        '0b11100'
        """
        if not isinstance(self.c, int):
            raise ShflError("this SHFL read a per-lane Sc from a register: see .c")
        return self.c >> 8

    @property
    def clamp(self) -> int:
        """Sc[4:0], the clamp (uniform operands only).

        >>> shfl("IDX", 0, 0x1C03).clamp
        3
        """
        if not isinstance(self.c, int):
            raise ShflError("this SHFL read a per-lane Sc from a register: see .c")
        return self.c & 0x1F

    def __repr__(self) -> str:
        b = f"{self.b}" if isinstance(self.b, int) else "<per-lane>"
        c = f"{self.c:#06x}" if isinstance(self.c, int) else "<per-lane>"
        out = np.flatnonzero(~self.in_range).tolist()
        extra = "" if self.active_mask == FULL_WARP else f", active_mask={self.active_mask:#010x}"
        if self.unpredictable:
            extra += f", unpredictable={list(self.unpredictable)}"
        return (
            f"ShflResult({self.mode}, b={b}, c={c}, source_lanes={self.source_lanes.tolist()}, "
            f"out_of_range={out}{extra})"
        )


def _rebuild(mode: str, b: Any, c: Any, active_mask: int) -> ShflResult:
    if isinstance(b, int) and isinstance(c, int):
        return shfl(mode, b, c, active_mask)
    return _shfl_per_lane(mode, np.broadcast_to(b, 32), np.broadcast_to(c, 32), active_mask)


def _check_active_mask(active_mask: object) -> int:
    v = _as_int(active_mask, "SHFL active_mask")
    if not 0 <= v <= FULL_WARP:
        raise ShflError(f"SHFL active_mask={v:#x} is out of range: it is a 32-bit lane mask, 0..0xFFFFFFFF")
    return v


def shfl(
    mode: str,
    b: int | None = None,
    c: int | None = None,
    active_mask: int = FULL_WARP,
    *,
    index: int | None = None,
    mask: int | None = None,
    clamp: int | None = None,
) -> ShflResult:
    """The 32 ``(source_lane, in_range)`` pairs of ``SHFL.mode Pu, Rd, Ra, Sb=b, Sc=c``.

    Pre: ``mode`` names a SHFL mode; Sb/Sc (or index/mask/clamp) are in range; ``active_mask`` is a 32-bit
    mask.
    Post: 32 ``(source_lane, in_range)`` pairs, one per lane.

    ``b`` is the 5-bit Sb (0..31), ``c`` the 13-bit Sc (mask in 12:8, clamp in 4:0, bits 7:5
    zero); or name the fields: ``index=``, ``mask=`` (default 0b00000), ``clamp=`` (required).
    Bad mode, out-of-range or non-int operands and undefined masks raise ShflError.

    >>> shfl("IDX", 1, 0x1C03).source_lanes[:8].tolist()     # FSWZ smear 1
    [1, 1, 1, 1, 5, 5, 5, 5]
    >>> shfl("DOWN", index=1, mask=0b11000, clamp=7).in_range[:8].tolist()
    [True, True, True, True, True, True, True, False]
    >>> shfl("IDX", 0, 0x1F, active_mask=0xFFFFFFFE).unpredictable[:3]
    (1, 2, 3)
    """
    m = normalize_mode(mode)
    sb, sc = _operands(b, c, index, mask, clamp)
    am = _check_active_mask(active_mask)
    seg = segment_size(sc >> 8)
    j, ok, lo, hi = _lane_map_arrays(m, np.int64(sb), np.int64(seg), np.int64(sc & 0x1F))
    return ShflResult._build(m, sb, sc, am, j, ok, lo, hi)


def _shfl_per_lane(mode: str, sb: np.ndarray, sc: np.ndarray, active_mask: int) -> ShflResult:
    """SHFL with Sb/Sc read per lane (register operands); every entry already validated."""
    seg = np.array([segment_size(int(v) >> 8) for v in sc], dtype=np.int64)
    sb64, sc64 = sb.astype(np.int64), sc.astype(np.int64)
    j, ok, lo, hi = _lane_map_arrays(mode, sb64, seg, sc64 & 0x1F)
    b: int | tuple[int, ...] = int(sb64[0]) if (sb64 == sb64[0]).all() else tuple(int(v) for v in sb64)
    c: int | tuple[int, ...] = int(sc64[0]) if (sc64 == sc64[0]).all() else tuple(int(v) for v in sc64)
    return ShflResult._build(mode, b, c, active_mask, j, ok, lo, hi)


# ---------------------------------------------------------------------------------------------
# structured forms of the lane map


def _mask_to_bools(m: int) -> np.ndarray:
    return _frozen(_lane_bits(m))


def _bools_to_mask(a: np.ndarray) -> int:
    return int(sum(1 << int(i) for i in np.flatnonzero(a)))


class _LanePredicate:
    """The predicate Pu of every lane, kept as ``in_range_mask`` (bit i for lane i), and the fields' check."""

    __slots__ = ()

    def __post_init__(self) -> None:
        check_fields(self)

    @property
    def in_range(self) -> np.ndarray:
        """Pu per lane, a read-only bool array.

        >>> lane_map("BFLY", 1, 0x1C02).in_range[:4].tolist(), bool(lane_layout("IDX", 0, 0x1F).in_range.all())
        ([True, True, False, True], True)
        """
        return _mask_to_bools(self.in_range_mask)


@dataclass(frozen=True)
class LaneLayout(_LanePredicate):
    """A source-lane map of the form ``j(i) = offset + layout(i)`` for a CuTe ``Layout``.

    ``in_range_mask`` holds the predicate Pu of every lane (bit i for lane i): the layout says
    which lane is read, the mask whether that was in range.

    >>> ll = lane_layout("IDX", 3, 0x1C03)
    >>> ll.offset, str(ll.layout), ll(9)
    (3, '(4,8):(0,4)', 11)
    """

    offset: int
    layout: Layout
    in_range_mask: int = FULL_WARP

    def __call__(self, lane: int | np.ndarray) -> int | np.ndarray:
        """The source lane of ``lane`` (an int or an integer array).

        >>> lane_layout("BFLY", 1, 31)(np.arange(4)).tolist()
        [1, 0, 3, 2]
        """
        if isinstance(lane, np.ndarray):
            return np.array([self.offset + self.layout(int(x)) for x in lane.flat], dtype=np.int64).reshape(
                lane.shape
            )
        return self.offset + self.layout(_as_int(lane, "lane"))

    def __str__(self) -> str:
        return str(self.layout) if self.offset == 0 else f"{self.offset} + {self.layout}"


@dataclass(frozen=True)
class ShiftLaneMap(_LanePredicate):
    """UP/DOWN: lane ``i`` reads ``i + offset`` where in range, else itself (Pu false).

    ``offset`` is ``-index`` for .UP and ``+index`` for .DOWN.

    >>> m = lane_map("UP", 2, 0)
    >>> m.offset, m(np.arange(5)).tolist(), m.in_range[:3].tolist()
    (-2, [0, 1, 0, 1, 2], [False, False, True])
    """

    offset: int
    in_range_mask: int

    def __call__(self, lane: int | np.ndarray) -> int | np.ndarray:
        """The source lane of ``lane`` (an int or an integer array).

        >>> lane_map("DOWN", 4, 31)(30)
        30
        """
        if isinstance(lane, np.ndarray):
            ok = self.in_range[lane]
            return np.where(ok, lane + self.offset, lane)
        i = _check_field(lane, 5, "lane")
        return i + self.offset if (self.in_range_mask >> i) & 1 else i


@dataclass(frozen=True)
class XorLaneMap(_LanePredicate):
    """BFLY: lane ``i`` reads ``i ^ xor_constant`` where in range, else itself (Pu false).

    ``i ^ c`` is affine over F2, not linear, so no ``XorSwizzle`` on the 5 lane bits is this
    map; :func:`bfly_swizzle` is the linear map of the whole BFLY family on 10-bit words
    ``(c << 5) | i``, and :meth:`swizzle_word` builds that word.

    >>> m = lane_map("BFLY", 16, 31)
    >>> m.xor_constant, m(3), bfly_swizzle()(m.swizzle_word(3)) & 31
    (16, 19, 19)
    """

    xor_constant: int
    in_range_mask: int

    def __call__(self, lane: int | np.ndarray) -> int | np.ndarray:
        """The source lane of ``lane`` (an int or an integer array).

        >>> lane_map("BFLY", 2, 0x1C03)(np.arange(4)).tolist()
        [2, 3, 0, 1]
        """
        if isinstance(lane, np.ndarray):
            return np.where(self.in_range[lane], lane ^ self.xor_constant, lane)
        i = _check_field(lane, 5, "lane")
        return i ^ self.xor_constant if (self.in_range_mask >> i) & 1 else i

    def swizzle_word(self, lane: int | np.ndarray) -> int | np.ndarray:
        """The 10-bit word ``(xor_constant << 5) | lane`` that :func:`bfly_swizzle` maps.

        >>> lane_map("BFLY", 3, 31).swizzle_word(1)
        97
        """
        if not isinstance(lane, np.ndarray) or lane.dtype.kind not in "iu":
            lane = check_count("XorLaneMap.swizzle_word", "lane", lane, 0, WARP_SIZE - 1, ShflError)
        return (self.xor_constant << 5) | lane


def lane_map(
    mode: str,
    b: int | None = None,
    c: int | None = None,
    *,
    index: int | None = None,
    mask: int | None = None,
    clamp: int | None = None,
) -> LaneLayout | ShiftLaneMap | XorLaneMap:
    """The structured form of the lane map: LaneLayout (IDX), ShiftLaneMap (UP/DOWN), XorLaneMap (BFLY).

    Pre: as :func:`shfl`.
    Post: a LaneLayout, ShiftLaneMap or XorLaneMap that gives the same source lanes as :func:`shfl`.

    >>> str(lane_map("IDX", 5, 0x1F))
    '5 + 32:0'
    >>> lane_map("DOWN", 8, 0x1007)
    ShiftLaneMap(offset=8, in_range_mask=...)
    """
    m = normalize_mode(mode)
    r = shfl(m, b, c, index=index, mask=mask, clamp=clamp)
    pm = _bools_to_mask(r.in_range)
    if m == "IDX":
        return lane_layout(m, r.b, r.c)
    if m == "BFLY":
        return XorLaneMap(r.b, pm)
    return ShiftLaneMap(-r.b if m == "UP" else r.b, pm)


def _affine_bit_strides(j: np.ndarray) -> list[int] | None:
    """Strides d_t with j(i) == j(0) + sum_t bit_t(i) * d_t for all 32 lanes, or None."""
    d = [int(j[1 << t]) - int(j[0]) for t in range(5)]
    bits = (_LANES[:, None] >> np.arange(5)) & 1
    pred = int(j[0]) + bits @ np.array(d, dtype=np.int64)
    return d if np.array_equal(pred, j) else None


def _layout_from_bit_strides(d: list[int]) -> Layout:
    """``coalesce((2,2,2,2,2):(d0,..,d4))``: one mode per lane bit, merged where contiguous."""
    return coalesce(Layout((2,) * 5, tuple(d)))


def lane_layout(
    mode: str,
    b: int | None = None,
    c: int | None = None,
    *,
    index: int | None = None,
    mask: int | None = None,
    clamp: int | None = None,
) -> LaneLayout:
    """The source-lane map as ``offset + Layout``; ShflError when it is not of that form.

    Pre: as :func:`shfl`.
    Post: ``offset + Layout`` giving every lane's source lane; ShflError when no such form exists.

    A map over the 32 lanes is ``offset + L(i)`` for a CuTe layout ``L`` exactly when it is
    additive over the lane bits: ``j(i) = j(0) + sum_t bit_t(i) * (j(2**t) - j(0))``. IDX always
    is (broadcast, or the identity when out of range); BFLY is when all lanes are in range
    (strides +-2**t); UP/DOWN with a mix of in- and out-of-range lanes usually are not.

    >>> str(lane_layout("IDX", 0, 0x1C03))
    '(4,8):(0,4)'
    >>> str(lane_layout("BFLY", 1, 31))
    '1 + (2,16):(-1,2)'
    >>> lane_layout("UP", 1, 0)
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.ShflError: SHFL.UP b=1 c=0x0000 is not offset + layout ...
    """
    r = shfl(mode, b, c, index=index, mask=mask, clamp=clamp)
    d = _affine_bit_strides(r.source_lanes)
    if d is None:
        raise ShflError(
            f"SHFL.{r.mode} b={r.b} c={r.c:#06x} is not offset + layout over the lanes: source lanes "
            f"{r.source_lanes.tolist()} are not additive over the lane bits (out-of-range lanes "
            f"{np.flatnonzero(~r.in_range).tolist()} read themselves); use lane_map() for the predicated form"
        )
    return LaneLayout(int(r.source_lanes[0]), _layout_from_bit_strides(d), _bools_to_mask(r.in_range))


def bfly_swizzle() -> XorSwizzle:
    """BFLY (full clamp) as one F2-linear map: ``XorSwizzle`` on the word ``(index << 5) | lane``.

    Pre: none.
    Post: an XorSwizzle ``f`` with ``f(word) & 31`` the BFLY (full clamp) source lane of ``word = (index << 5) | lane``.

    Its low 5 bits are ``lane ^ index``; bits 9:5 (the index) pass through. A constant index is
    ``lane ^ c``, affine and not linear on the 5 lane bits alone: the index bits make it linear.

    >>> sw = bfly_swizzle()
    >>> [sw((16 << 5) | lane) & 31 for lane in (0, 1, 17)]
    [16, 17, 1]
    """
    return XorSwizzle([(5 + t, t) for t in range(5)])


# ---------------------------------------------------------------------------------------------
# the warp simulator

_REG = re.compile(r"R[A-Za-z0-9_]*")
_PRED = re.compile(r"P(?:T|[0-9]+)")
_INT = re.compile(r"[+-]?(?:0[xX][0-9a-fA-F]+|[0-9]+)")
_FLOAT = re.compile(r"[+-]?(?:[0-9]+\.[0-9]*|\.[0-9]+|[0-9]+)(?:[eE][+-]?[0-9]+)?|[+-]?(?:inf|nan)", re.I)
_DISCARD = "__"
_OPCODES = {"SHFL": 5, "FADD": 3, "SEL": 4}


def _parse_imm(tok: str) -> int | float | None:
    if _INT.fullmatch(tok):
        return int(tok, 0) if not re.fullmatch(r"[+-]?0[0-9]+", tok) else int(tok, 10)
    if _FLOAT.fullmatch(tok):
        return float(tok)
    return None


def _pred_operand(tok: str) -> tuple[str, bool]:
    check_type("shfl", "a predicate operand", tok, str, ShflError)
    neg = tok.startswith("!")
    name = tok[1:].strip() if neg else tok
    if not _PRED.fullmatch(name):
        raise ShflError(f"{fmt(tok)} is not a predicate (P0..P6 or PT, optionally negated with !)")
    return name, neg


@dataclass(frozen=True)
class Instruction:
    """One parsed line: ``{@{!}Pg} OPCODE{.mods} operands``.

    >>> parse_program("@!P1 FADD Rx, Ry, 1.5")[0]
    Instruction(opcode='FADD', modifiers=(), operands=('Rx', 'Ry', '1.5'), guard='P1', ...)
    """

    opcode: str
    modifiers: tuple[str, ...]
    operands: tuple[str, ...]
    guard: str = "PT"
    guard_negated: bool = False
    line: int = 0
    text: str = ""

    def __post_init__(self) -> None:
        check_fields(self)


def parse_program(text: str) -> tuple[Instruction, ...]:
    """Parse SASS-like text with SHFL.mode, FADD, SEL; ``//`` comments, ``;`` and blank lines skipped.

    Pre: ``text`` is SHFL/FADD/SEL lines in the SASS-like syntax.
    Post: the instructions in order; ShflError naming the line otherwise.

    Operands: registers ``R...`` (``RZ`` reads 0), predicates ``P0``..``P6``/``PT`` (``!`` negates),
    ``__`` for a discarded predicate result, immediates in decimal or hex (``0x1C03``) or float.

    >>> [(i.opcode, i.modifiers, i.operands) for i in parse_program('''
    ...     SHFL.UP     P1, Ry, Rx, 1,  0   // comment
    ... @P1 FADD        Rx, Ry, Rx
    ... ''')]
    [('SHFL', ('UP',), ('P1', 'Ry', 'Rx', '1', '0')), ('FADD', (), ('Rx', 'Ry', 'Rx'))]
    """
    if not isinstance(text, str):
        raise ShflError(f"program text must be a str, got {type(text).__name__}")
    out = []
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("//", 1)[0].strip().rstrip(";").strip()
        if not line:
            continue

        def fail(why: str, n: int = n, raw: str = raw) -> ShflError:
            return ShflError(f"line {n}: {why}: {fmt(raw.strip())}")

        guard, neg = "PT", False
        if line.startswith("@"):
            head, line = (re.split(r"\s+", line[1:], maxsplit=1) + [""])[:2]
            try:
                guard, neg = _pred_operand(head)
            except ShflError as e:
                raise fail(f"bad guard predicate ({e})") from None
        opword, rest = (re.split(r"\s+", line, maxsplit=1) + [""])[:2]
        op, *mods = opword.upper().split(".")
        if op not in _OPCODES:
            raise fail(f"unknown opcode {fmt(opword)} (this simulator knows SHFL.mode, FADD, SEL)")
        operands = tuple(t.strip() for t in rest.split(",")) if rest.strip() else ()
        if len(operands) != _OPCODES[op] or any(not t for t in operands):
            raise fail(f"{op} takes {_OPCODES[op]} operands, got {len(operands)}")
        if op == "SHFL":
            if len(mods) != 1:
                raise fail("SHFL needs exactly one .mode (.IDX, .UP, .DOWN, .BFLY); there is no default")
            try:
                mods = [normalize_mode(mods[0])]
            except ShflError as e:
                raise fail(str(e)) from None
        elif mods:
            raise fail(f"{op} takes no modifiers here, got .{'.'.join(mods)}")
        inst = Instruction(op, tuple(mods), operands, guard, neg, n, raw.strip())
        try:
            _check_operand_kinds(inst)
        except ShflError as e:
            raise fail(str(e)) from None
        out.append(inst)
    return tuple(out)


def _check_operand_kinds(inst: Instruction) -> None:
    ops = inst.operands

    def reg(t: str) -> None:
        if not _REG.fullmatch(t):
            raise ShflError(f"{fmt(t)} is not a register (R0, Rx, RZ, ...)")

    def reg_or_imm(t: str) -> None:
        if not _REG.fullmatch(t) and _parse_imm(t) is None:
            raise ShflError(f"{fmt(t)} is neither a register nor an immediate")

    if inst.opcode == "SHFL":
        if ops[0] != _DISCARD:
            _pred_operand(ops[0])
            if ops[0].startswith("!"):
                raise ShflError(f"destination predicate {fmt(ops[0])} cannot be negated")
        reg(ops[1])
        reg(ops[2])
        for t in ops[3:]:
            if not _REG.fullmatch(t) and not isinstance(_parse_imm(t), int):
                raise ShflError(f"{fmt(t)} is neither a register nor an integer immediate")
    elif inst.opcode == "FADD":
        reg(ops[0])
        reg_or_imm(ops[1])
        reg_or_imm(ops[2])
    else:  # SEL
        reg(ops[0])
        reg_or_imm(ops[1])
        reg_or_imm(ops[2])
        _pred_operand(ops[3])


class Warp:
    """32 lanes of float registers (numpy arrays) and predicates, with an active mask.

    Inactive lanes, and lanes whose guard predicate is false, do not execute: nothing is
    written there, and a SHFL reading from such a lane writes NaN (UNPREDICTABLE) to the reader.

    >>> w = Warp({"Rx": np.arange(32.0)})
    >>> _ = w.shfl("BFLY", "Ry", "Rx", 1, 31)
    >>> w["Ry"][:4].tolist()
    [1.0, 0.0, 3.0, 2.0]
    """

    def __init__(
        self,
        registers: Mapping[str, Any] | None = None,
        *,
        active_mask: int = FULL_WARP,
        dtype: Any = np.float64,
    ) -> None:
        try:
            self._dtype = np.dtype(dtype)
        except (TypeError, ValueError):
            raise ShflError(f"Warp registers must have a floating dtype (NaN marks UNPREDICTABLE), got {fmt(dtype)}"[:200]) \
                from None
        if not np.issubdtype(self._dtype, np.floating):
            raise ShflError(
                f"Warp registers must have a floating dtype (NaN marks UNPREDICTABLE), got {dtype}"
            )
        self._active_mask = _check_active_mask(active_mask)
        self._active = _mask_to_bools(self._active_mask)
        self._regs: dict[str, np.ndarray] = {}
        self._preds: dict[str, np.ndarray] = {}
        if registers is not None and not isinstance(registers, Mapping):
            raise ShflError(f"Warp: registers must be a mapping of register name -> lane values, got {fmt(registers)}"[:200])
        for name, values in (registers or {}).items():
            self[name] = values

    @property
    def active_mask(self) -> int:
        """The 32-bit mask of active lanes.

        >>> hex(Warp(active_mask=0xFF).active_mask)
        '0xff'
        """
        return self._active_mask

    def __setitem__(self, name: str, values: Any) -> None:
        """Set all 32 lanes of register ``name`` (host-side: inactive lanes too).

        >>> w = Warp(); w["R0"] = 1.5; w["R0"][:2].tolist()
        [1.5, 1.5]
        """
        if not isinstance(name, str) or not _REG.fullmatch(name) or name == "RZ":
            raise ShflError(f"{fmt(name)} is not a writable register name (R0, Rx, ...; RZ is read-only zero)")
        try:
            arr = np.asarray(values, dtype=self._dtype)
        except (TypeError, ValueError, OverflowError):
            raise ShflError(f"register {name} needs numbers (32 lane values or one scalar), got {fmt(values)}"[:200]) from None
        if arr.shape not in ((), (WARP_SIZE,)):
            raise ShflError(f"register {name} needs 32 lane values (or one scalar), got shape {arr.shape}")
        self._regs[name] = np.broadcast_to(arr, (WARP_SIZE,)).copy()

    def __getitem__(self, name: str) -> np.ndarray:
        """A read-only copy of register or predicate ``name`` (32 lanes).

        >>> bool(Warp()["PT"].all()), float(Warp()["RZ"].sum())
        (True, 0.0)
        """
        if isinstance(name, str) and _PRED.fullmatch(name):
            return _frozen(self._pred(name).copy())
        return _frozen(self._reg(name).copy())

    @property
    def registers(self) -> dict[str, np.ndarray]:
        """Copies of every register written so far.

        >>> sorted(Warp({"Rb": 0, "Ra": 1}).registers)
        ['Ra', 'Rb']
        """
        return {k: v.copy() for k, v in self._regs.items()}

    def _reg(self, name: str) -> np.ndarray:
        if name == "RZ":
            return np.zeros(WARP_SIZE, dtype=self._dtype)
        if not isinstance(name, str) or not _REG.fullmatch(name):
            raise ShflError(f"{fmt(name)} is not a register name")
        if name not in self._regs:
            raise ShflError(f"register {name} is read before it is written")
        return self._regs[name]

    def _pred(self, name: str) -> np.ndarray:
        if name == "PT":
            return np.ones(WARP_SIZE, dtype=bool)
        if name not in self._preds:
            raise ShflError(f"predicate {name} is read before it is written")
        return self._preds[name]

    def _value(self, tok: str | float) -> np.ndarray:
        if isinstance(tok, str):
            imm = _parse_imm(tok)
            if imm is None:
                return self._reg(tok)
            tok = imm
        if isinstance(tok, (bool, np.bool_)) or not isinstance(tok, (int, float, np.integer, np.floating)) or not (
                isinstance(tok, (float, np.floating)) or -(1 << 64) < tok < 1 << 64):
            raise ShflError(f"{fmt(tok)} is neither a register name nor a number (a 64-bit integer or a float)")
        return np.full(WARP_SIZE, tok, dtype=self._dtype)

    def _executing(self, guard: str) -> np.ndarray:
        name, neg = _pred_operand(guard)
        p = self._pred(name)
        return self._active & (~p if neg else p)

    def _write(self, dst: str, values: np.ndarray, lanes: np.ndarray) -> None:
        check_type("Warp", "a destination register", dst, str, ShflError)
        if dst == "RZ":
            return
        if not _REG.fullmatch(dst):
            raise ShflError(f"{fmt(dst)} is not a register name")
        cur = self._regs.get(dst, np.full(WARP_SIZE, np.nan, dtype=self._dtype))
        self._regs[dst] = np.where(lanes, values, cur).astype(self._dtype)

    def _write_pred(self, dst: str, values: np.ndarray, lanes: np.ndarray) -> None:
        if dst in (_DISCARD, "PT"):
            return
        name, neg = _pred_operand(dst)
        if neg:
            raise ShflError(f"destination predicate {fmt(dst)} cannot be negated")
        cur = self._preds.get(name, np.zeros(WARP_SIZE, dtype=bool))
        self._preds[name] = np.where(lanes, values, cur)

    def _lane_operand(self, tok: int | str, bits: int, what: str, run: np.ndarray) -> np.ndarray:
        """Sb/Sc per lane: an int immediate, or a register whose executing lanes hold valid values."""
        if isinstance(tok, str) and _REG.fullmatch(tok):
            vals = self._reg(tok)
            out = np.zeros(WARP_SIZE, dtype=np.int64)
            for lane in np.flatnonzero(run):
                v = float(vals[lane])
                if not math.isfinite(v) or v != int(v):
                    raise ShflError(f"{what} from register {tok}, lane {lane}: {fmt(v)} is not an integer")
                try:
                    out[lane] = _check_field(int(v), bits, what)
                    if bits == 13:
                        decode_sc(int(v))
                except ShflError as e:
                    raise ShflError(f"register {tok}, lane {lane}: {e}") from None
            return out
        v = _parse_imm(tok) if isinstance(tok, str) else tok
        if v is None:
            raise ShflError(f"{what} {fmt(tok)} is neither a register nor an immediate")
        v = _check_field(v, bits, what)
        if bits == 13:
            decode_sc(v)
        return np.full(WARP_SIZE, v, dtype=np.int64)

    def shfl(
        self, mode: str, dst: str, src: str, b: int | str, c: int | str, pred: str = "PT", guard: str = "PT"
    ) -> ShflResult:
        """``@guard SHFL.mode pred, dst, src, b, c``; returns the lanes' ShflResult.

        ``b``/``c`` are ints or register names (each executing lane's own value). ``pred`` is
        written with Pu (``PT``/``__`` discard it). Lanes that read a non-executing lane get NaN.

        >>> w = Warp({"Rx": np.arange(32.0)}, active_mask=0xFFFFFFFE)
        >>> r = w.shfl("UP", "Ry", "Rx", 1, 0, pred="P0")
        >>> r.unpredictable, w["Ry"][:3].tolist(), w["P0"][:3].tolist()
        ((1,), [nan, nan, 1.0], [False, True, True])
        """
        m = normalize_mode(mode)
        run = self._executing(guard)
        sb = self._lane_operand(b, 5, "SHFL Sb (index)", run)
        sc = self._lane_operand(c, 13, "SHFL Sc", run)
        source = self._reg(src).copy()  # all lanes read before any lane writes
        if isinstance(b, str) or isinstance(c, str):
            res = _shfl_per_lane(m, sb, sc, _bools_to_mask(run))
        else:
            res = shfl(m, int(sb[0]), int(sc[0]), _bools_to_mask(run))
        value = source[res.source_lanes]
        value[list(res.unpredictable)] = np.nan
        self._write(dst, value, run)
        self._write_pred(pred, res.in_range, run)
        return res

    def fadd(self, dst: str, a: str | float, b: str | float, guard: str = "PT") -> None:
        """``@guard FADD dst, a, b``: dst = a + b in executing lanes.

        >>> w = Warp({"Ra": 1.0}); w.fadd("Ra", "Ra", 2); float(w["Ra"][0])
        3.0
        """
        run = self._executing(guard)
        self._write(dst, self._value(a) + self._value(b), run)

    def sel(self, dst: str, a: str | float, b: str | float, pred: str, guard: str = "PT") -> None:
        """``@guard SEL dst, a, b, pred``: dst = a where pred else b, in executing lanes.

        >>> w = Warp({"Ra": 5.0}); w.sel("Ra", "Ra", 0, "!PT"); float(w["Ra"][0])
        0.0
        """
        run = self._executing(guard)
        name, neg = _pred_operand(pred)
        p = self._pred(name)
        self._write(dst, np.where(~p if neg else p, self._value(a), self._value(b)), run)

    def execute(self, inst: Instruction) -> None:
        """Execute one parsed instruction.

        >>> w = Warp({"Rx": 1.0}); w.execute(parse_program("FADD Rx, Rx, Rx")[0]); float(w["Rx"][0])
        2.0
        """
        check_type("Warp.execute", "inst", inst, Instruction, ShflError)
        g = ("!" if inst.guard_negated else "") + inst.guard
        ops = inst.operands
        try:
            if inst.opcode == "SHFL":
                b, c = (t if _REG.fullmatch(t) else _parse_imm(t) for t in ops[3:])
                self.shfl(inst.modifiers[0], ops[1], ops[2], b, c, pred=ops[0], guard=g)  # type: ignore[arg-type]
            elif inst.opcode == "FADD":
                self.fadd(ops[0], ops[1], ops[2], guard=g)
            elif inst.opcode == "SEL":
                self.sel(ops[0], ops[1], ops[2], ops[3], guard=g)
            else:
                raise ShflError(f"unknown opcode {fmt(inst.opcode)}")
        except ShflError as e:
            raise ShflError(f"line {inst.line}: {e}: {fmt(inst.text)}") from e

    def run(self, text: str) -> Warp:
        """Parse and execute program ``text``; returns self.

        >>> float(Warp({"Rx": np.ones(32)}).run("SHFL.BFLY __, Ry, Rx, 16, 31\\nFADD Rx, Ry, Rx")["Rx"][0])
        2.0
        """
        for inst in parse_program(text):
            self.execute(inst)
        return self

    def __repr__(self) -> str:
        return (
            f"Warp(active_mask={self._active_mask:#010x}, registers={sorted(self._regs)}, "
            f"predicates={sorted(self._preds)})"
        )


def run_program(
    text: str, registers: Mapping[str, Any], *, active_mask: int = FULL_WARP, dtype: Any = np.float64
) -> Warp:
    """Run the program ``text`` on a fresh Warp holding ``registers``; returns the Warp.

    Pre: as :func:`parse_program`; ``registers`` map names to 32-lane values.
    Post: the Warp after executing every instruction.

    >>> x = np.arange(32.0)
    >>> w = run_program('''
    ...     SHFL.UP     P1, Ry, Rx, 1,  0
    ... @P1 FADD        Rx, Ry, Rx
    ... ''', {"Rx": x})
    >>> w["Rx"][:4].tolist()
    [0.0, 1.0, 3.0, 5.0]
    """
    return Warp(registers, active_mask=active_mask, dtype=dtype).run(text)
