"""TMA tensor maps: the ``cuTensorMapEncode*`` parameter models, their validation, and the swizzle modes.

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

The reverse direction -- from a (swizzled) shared-memory tile layout to the tensor map and the
copies that produce it -- is :func:`plan_tma_load` (module :mod:`pycute_layouts.arch.tma`,
re-exported here with :class:`TmaLoadPlan`, :class:`TmaCopy` and :func:`parse_data_type`).

>>> from pycute_layouts.arch.tma import TmaSwizzle, box_to_smem, swizzle_mode_info
>>> str(swizzle_mode_info("128B").byte_map)
'Sw<3,4,3>'
>>> box_to_smem("128B", 2, (64, 2))[1, ::16].tolist()   # row 1: 16-byte chunks 0..7 -> 1 0 3 2 5 4 7 6
[144, 128, 176, 160, 208, 192, 240, 224]
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from fractions import Fraction
from typing import Any, Literal

import numpy as np

from ...core.swizzle import Swizzle, XorSwizzle
from ...errors import TensorMapError

__all__ = [
    "TmaSwizzle",
    "TensorDataType",
    "Interleave",
    "L2Promotion",
    "OobFill",
    "Im2colWideMode",
    "SwizzleModeInfo",
    "swizzle_mode_info",
    "swizzle_byte_map",
    "swizzle_base_offset",
    "pattern_table",
    "element_size_bits",
    "elements_per_dim",
    "box_to_smem",
    "TensorMapRule",
    "TensorMapViolation",
    "RULES",
    "rules_for",
    "TiledTensorMap",
    "Im2colTensorMap",
    "Im2colWideTensorMap",
    "TILED",
    "IM2COL",
    "IM2COL_WIDE",
]

TILED = "cuTensorMapEncodeTiled"
IM2COL = "cuTensorMapEncodeIm2col"
IM2COL_WIDE = "cuTensorMapEncodeIm2colWide"
_ALL_FUNCTIONS = (TILED, IM2COL, IM2COL_WIDE)

Direction = Literal["load", "store"]


# ---------------------------------------------------------------------------------------------
# Enums
# ---------------------------------------------------------------------------------------------

# Driver-name prefix, and the driver's suffix (our "short name") where it differs from the member name.
_PREFIX: dict[str, str] = {
    "TmaSwizzle": "CU_TENSOR_MAP_SWIZZLE_",
    "TensorDataType": "CU_TENSOR_MAP_DATA_TYPE_",
    "Interleave": "CU_TENSOR_MAP_INTERLEAVE_",
    "L2Promotion": "CU_TENSOR_MAP_L2_PROMOTION_",
    "OobFill": "CU_TENSOR_MAP_FLOAT_OOB_FILL_",
    "Im2colWideMode": "CU_TENSOR_MAP_IM2COL_WIDE_MODE_",
}
_SUFFIX: dict[str, dict[str, str | None]] = {
    "TmaSwizzle": {
        "NONE": "NONE",
        "B32": "32B",
        "B64": "64B",
        "B128": "128B",
        "B128_ATOM_32B": "128B_ATOM_32B",
        "B128_ATOM_32B_FLIP_8B": "128B_ATOM_32B_FLIP_8B",
        "B128_ATOM_64B": "128B_ATOM_64B",
        "B96": "96B",
    },
    "TensorDataType": {
        "U4x16_ALIGN8B": "16U4_ALIGN8B",
        "U4x16_ALIGN16B": "16U4_ALIGN16B",
        "U6x16_ALIGN16B": "16U6_ALIGN16B",
    },
    "Interleave": {"NONE": "NONE", "B16": "16B", "B32": "32B"},
}
# Members with no driver enumerator.
_NO_DRIVER_VALUE = {("TmaSwizzle", "B96")}
# Extra accepted spellings (upper case) -> member name.
_ALIASES: dict[str, dict[str, str]] = {
    "L2Promotion": {"64B": "L2_64B", "128B": "L2_128B", "256B": "L2_256B"},
}


class _DriverEnum(IntEnum):
    """Common behaviour of the driver enums: names, and :meth:`parse`."""

    @property
    def short_name(self) -> str:
        """The driver's name without its prefix ("128B", "16U4_ALIGN8B"; "96B" for the PTX-only mode).

        >>> TmaSwizzle.B128_ATOM_32B.short_name
        '128B_ATOM_32B'
        """
        return _SUFFIX.get(type(self).__name__, {}).get(self.name, self.name)

    @property
    def driver_name(self) -> str | None:
        """The driver's full enumerator name, or None when the driver has none (TmaSwizzle.B96).

        >>> TmaSwizzle.B128.driver_name
        'CU_TENSOR_MAP_SWIZZLE_128B'
        >>> print(TmaSwizzle.B96.driver_name)
        None
        """
        if (type(self).__name__, self.name) in _NO_DRIVER_VALUE:
            return None
        return _PREFIX[type(self).__name__] + self.short_name

    @classmethod
    def _allowed_text(cls) -> str:
        items = []
        for m in cls:
            extra = f", {m.driver_name}" if m.driver_name else ", PTX-only: no driver value"
            items.append(f"{m.name}={int(m)} ('{m.short_name}'{extra})")
        return "; ".join(items)

    @classmethod
    def parse(cls, value: Any) -> Any:
        """The member named or numbered by ``value``.

        Accepts the member itself, its integer value, the driver's full name
        ("CU_TENSOR_MAP_SWIZZLE_128B"), the short name ("128B", "none") or the Python member name,
        case-insensitively. Anything else raises TensorMapError listing the allowed values.

        >>> TmaSwizzle.parse("CU_TENSOR_MAP_SWIZZLE_128B"), TmaSwizzle.parse("none"), TmaSwizzle.parse(2)
        (<TmaSwizzle.B128: 3>, <TmaSwizzle.NONE: 0>, <TmaSwizzle.B64: 2>)
        """
        name = cls.__name__
        if isinstance(value, cls):
            return value
        if isinstance(value, _DriverEnum):
            raise TensorMapError(
                f"{name}.parse: got {type(value).__name__}.{value.name}, a member of another enum; "
                f"allowed values: {cls._allowed_text()}"
            )
        if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
            try:
                return cls(int(value))
            except ValueError:
                raise TensorMapError(
                    f"{name}.parse: {int(value)} is not a {name} value; allowed values: {cls._allowed_text()}"
                ) from None
        if isinstance(value, str):
            key = value.strip().upper()
            prefix = _PREFIX[name]
            full = key.startswith(prefix)
            if full:
                key = key[len(prefix) :]
            for m in cls:
                if key in (m.short_name.upper(), m.name.upper()):
                    if full and m.driver_name is None:
                        raise TensorMapError(
                            f"{name}.parse: {value!r} does not exist in the driver: {m.name} is a PTX-only "
                            f"mode "
                            f"with no CUtensorMapSwizzle value (write '{m.short_name}')"
                        )
                    return m
            alias = _ALIASES.get(name, {}).get(key)
            if alias is not None and not full:
                return cls[alias]
        raise TensorMapError(f"{name}.parse: cannot parse {value!r}; allowed values: {cls._allowed_text()}")


class TmaSwizzle(_DriverEnum):
    """``CUtensorMapSwizzle`` (values 0..6) plus PTX's 96-byte mode.

    ``B96`` is PTX-only: PTX 5.5.7 documents a 96-byte swizzle mode, but ``CUtensorMapSwizzle``
    has no value for it, so no ``cuTensorMapEncode*`` call can request it. Its value here, 96, is
    outside the driver's range on purpose (validation reports rule ``swizzle.b96_not_encodable``).

    >>> TmaSwizzle.parse("128B_ATOM_32B_FLIP_8B")
    <TmaSwizzle.B128_ATOM_32B_FLIP_8B: 5>
    >>> TmaSwizzle.parse("96B"), TmaSwizzle.B96.driver_name is None
    (<TmaSwizzle.B96: 96>, True)
    """

    NONE = 0
    B32 = 1
    B64 = 2
    B128 = 3
    B128_ATOM_32B = 4
    B128_ATOM_32B_FLIP_8B = 5
    B128_ATOM_64B = 6
    B96 = 96

    @property
    def min_arch(self) -> str:
        """The oldest architecture whose driver accepts the mode: ``"sm100"`` for the 128B_ATOM modes.

        Observed on an H100 (driver 580, docs/hardware-validation.md): ``cuTensorMapEncodeTiled``
        returns CUDA_ERROR_INVALID_VALUE for values 4, 5 and 6; the driver documentation does not
        say so. Checked by ``validate(arch="sm90")`` (rule ``arch.swizzle_sm100``).

        >>> TmaSwizzle.B128.min_arch, TmaSwizzle.B128_ATOM_64B.min_arch
        ('sm90', 'sm100')
        """
        return "sm100" if self in _SM100_SWIZZLES else "sm90"


_SM100_SWIZZLES = (TmaSwizzle.B128_ATOM_32B, TmaSwizzle.B128_ATOM_32B_FLIP_8B, TmaSwizzle.B128_ATOM_64B)

#: Architectures ``validate(arch=...)`` knows, oldest first (tensor maps need compute capability >= 9.0).
ARCHS = ("sm90", "sm100")

# (bits per element in global memory, bits per element in shared memory, floating point)
_DTYPE_FACTS: dict[str, tuple[int, int, bool]] = {
    "UINT8": (8, 8, False),
    "UINT16": (16, 16, False),
    "UINT32": (32, 32, False),
    "INT32": (32, 32, False),
    "UINT64": (64, 64, False),
    "INT64": (64, 64, False),
    "FLOAT16": (16, 16, True),
    "FLOAT32": (32, 32, True),
    "FLOAT64": (64, 64, True),
    "BFLOAT16": (16, 16, True),
    "FLOAT32_FTZ": (32, 32, True),
    "TFLOAT32": (32, 32, True),
    "TFLOAT32_FTZ": (32, 32, True),
    # '16 x U4' packed values aligned as 8 bytes, no gaps: 4 bits in shared memory too.
    "U4x16_ALIGN8B": (4, 4, False),
    # '16 x U4' aligned as 16 bytes, 8-byte gap after each 8 bytes: 16 bytes per 16 values.
    "U4x16_ALIGN16B": (4, 8, False),
    # '16 x U6' aligned as 16 bytes, 4-byte gap after each 12 bytes: 16 bytes per 16 values.
    "U6x16_ALIGN16B": (6, 8, False),
}


class TensorDataType(_DriverEnum):
    """``CUtensorMapDataType``. The packed types are named ``U4x16_ALIGN8B``, ``U4x16_ALIGN16B``,
    ``U6x16_ALIGN16B`` (Python names cannot start with a digit); ``parse`` also takes the driver's
    "16U4_ALIGN8B" spelling.

    >>> TensorDataType.parse("16U6_ALIGN16B"), TensorDataType.parse("bfloat16").bits
    (<TensorDataType.U6x16_ALIGN16B: 15>, 16)
    """

    UINT8 = 0
    UINT16 = 1
    UINT32 = 2
    INT32 = 3
    UINT64 = 4
    INT64 = 5
    FLOAT16 = 6
    FLOAT32 = 7
    FLOAT64 = 8
    BFLOAT16 = 9
    FLOAT32_FTZ = 10
    TFLOAT32 = 11
    TFLOAT32_FTZ = 12
    U4x16_ALIGN8B = 13
    U4x16_ALIGN16B = 14
    U6x16_ALIGN16B = 15

    @property
    def bits(self) -> int:
        """Element size in bits (4 or 6 for the packed types).

        >>> TensorDataType.U4x16_ALIGN8B.bits, TensorDataType.FLOAT64.bits
        (4, 64)
        """
        return _DTYPE_FACTS[self.name][0]

    @property
    def size_bytes(self) -> Fraction:
        """``elementSizeInBytes(tensorDataType)``: bits / 8, a Fraction for the packed types.

        >>> TensorDataType.U6x16_ALIGN16B.size_bytes, TensorDataType.UINT32.size_bytes
        (Fraction(3, 4), Fraction(4, 1))
        """
        return Fraction(self.bits, 8)

    @property
    def smem_bits(self) -> int:
        """Bits per element in shared memory: the ``*_ALIGN16B`` types store 16 values per 16 bytes.

        >>> TensorDataType.U4x16_ALIGN16B.smem_bits, TensorDataType.U4x16_ALIGN8B.smem_bits
        (8, 4)
        """
        return _DTYPE_FACTS[self.name][1]

    @property
    def is_float(self) -> bool:
        """True for the floating-point types (FLOAT*, BFLOAT16, TFLOAT32*).

        >>> TensorDataType.TFLOAT32_FTZ.is_float, TensorDataType.INT32.is_float
        (True, False)
        """
        return _DTYPE_FACTS[self.name][2]

    @property
    def is_packed(self) -> bool:
        """True for the three packed sub-byte types.

        >>> TensorDataType.U4x16_ALIGN16B.is_packed
        True
        """
        return self.bits < 8

    @property
    def min_arch(self) -> str:
        """The oldest architecture whose driver accepts the type: ``"sm100"`` for the ALIGN16B packed types.

        Observed on an H100 (docs/hardware-validation.md): a ``16U4_ALIGN16B`` map that satisfies
        every documented rule is rejected (CUDA_ERROR_INVALID_VALUE). ``16U6_ALIGN16B`` is assumed
        to behave the same (not run); ``16U4_ALIGN8B`` was not run valid and stays allowed.

        >>> TensorDataType.U4x16_ALIGN16B.min_arch, TensorDataType.BFLOAT16.min_arch
        ('sm100', 'sm90')
        """
        return "sm100" if self.is_packed_align16 else "sm90"

    @property
    def is_packed_align16(self) -> bool:
        """True for ``16U4_ALIGN16B`` and ``16U6_ALIGN16B`` (the types most packed-type rules name).

        >>> TensorDataType.U4x16_ALIGN8B.is_packed_align16
        False
        """
        return self in (TensorDataType.U4x16_ALIGN16B, TensorDataType.U6x16_ALIGN16B)


class Interleave(_DriverEnum):
    """``CUtensorMapInterleave``.

    >>> Interleave.parse("32B"), Interleave.parse("CU_TENSOR_MAP_INTERLEAVE_NONE")
    (<Interleave.B32: 2>, <Interleave.NONE: 0>)
    """

    NONE = 0
    B16 = 1
    B32 = 2


class L2Promotion(_DriverEnum):
    """``CUtensorMapL2promotion``.

    >>> L2Promotion.parse("L2_128B"), L2Promotion.parse("256B")
    (<L2Promotion.L2_128B: 2>, <L2Promotion.L2_256B: 3>)
    """

    NONE = 0
    L2_64B = 1
    L2_128B = 2
    L2_256B = 3


class OobFill(_DriverEnum):
    """``CUtensorMapFloatOOBfill``.

    >>> OobFill.parse("CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA")
    <OobFill.NAN_REQUEST_ZERO_FMA: 1>
    """

    NONE = 0
    NAN_REQUEST_ZERO_FMA = 1


class Im2colWideMode(_DriverEnum):
    """``CUtensorMapIm2ColWideMode``: W (pixelsPerColumn pixels) or W128 (always 128).

    >>> Im2colWideMode.parse("w128")
    <Im2colWideMode.W128: 1>
    """

    W = 0
    W128 = 1


def element_size_bits(data_type: Any) -> int:
    """Element size in bits of a ``CUtensorMapDataType`` (anything ``TensorDataType.parse`` accepts).

    >>> element_size_bits("FLOAT16"), element_size_bits("CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B")
    (16, 6)
    """
    return TensorDataType.parse(data_type).bits


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
      destination: 128 in every mode. The reference states 32 for ATOM_32B and 64 for ATOM_64B and
      nothing for the others; an H100 faults (cudaErrorMisalignedAddress) for destinations 16, 32
      or 64 bytes past a 128-byte line in every mode (docs/hardware-validation.md).
    - ``byte_map``: the map on absolute shared-memory byte addresses.

    >>> info = swizzle_mode_info("64B")
    >>> info.span_bytes, info.period_bytes, info.pattern_boundary_bytes, info.base_offset_modulus
    (64, 512, 512, 4)
    """

    mode: TmaSwizzle
    span_bytes: int | None
    atomicity_bytes: int | None
    flip_8b: bool
    period_bytes: int
    pattern_boundary_bytes: int | None
    base_offset_modulus: int
    required_alignment_bytes: int
    byte_map: Swizzle | XorSwizzle = field(compare=False)

    @property
    def encodable(self) -> bool:
        """Whether a ``CUtensorMapSwizzle`` value exists for the mode (False only for 96B).

        >>> swizzle_mode_info("96B").encodable, swizzle_mode_info("32B").encodable
        (False, True)
        """
        return self.mode.driver_name is not None

    @property
    def intact_bytes(self) -> int:
        """Size of the aligned granule the map never splits: 2 ** (lowest bit it changes).

        Mode NONE moves nothing; it reports its period (128).

        >>> [swizzle_mode_info(m).intact_bytes for m in ("128B", "128B_ATOM_64B", "128B_ATOM_32B_FLIP_8B")]
        [16, 64, 8]
        """
        targets = _xor_pairs(self.byte_map)
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
        targets = _xor_pairs(self.byte_map)
        if not targets:
            return 1
        return 1 << (max(t for _, t in targets) + 1)


def _xor_pairs(m: Swizzle | XorSwizzle) -> tuple[tuple[int, int], ...]:
    return m.to_xor().pairs if isinstance(m, Swizzle) else m.pairs


def _flip_map() -> XorSwizzle:
    # Two XOR patterns: the 32-byte-atom row swizzle, then "swap the 8-byte halves of every
    # 16-byte chunk on every alternate 128-byte line" (address bit 7 into bit 3).
    return XorSwizzle([(7, 3)]).compose(Swizzle(2, 5, 2))


_S = TmaSwizzle
_MODE_INFO: dict[TmaSwizzle, SwizzleModeInfo] = {
    _S.NONE: SwizzleModeInfo(_S.NONE, None, None, False, 128, None, 1, 128, Swizzle(0, 4, 3)),
    _S.B32: SwizzleModeInfo(_S.B32, 32, 16, False, 256, 256, 2, 128, Swizzle(1, 4, 3)),
    _S.B64: SwizzleModeInfo(_S.B64, 64, 16, False, 512, 512, 4, 128, Swizzle(2, 4, 3)),
    _S.B128: SwizzleModeInfo(_S.B128, 128, 16, False, 1024, 1024, 8, 128, Swizzle(3, 4, 3)),
    _S.B128_ATOM_32B: SwizzleModeInfo(_S.B128_ATOM_32B, 128, 32, False, 512, 1024, 8, 128, Swizzle(2, 5, 2)),
    _S.B128_ATOM_32B_FLIP_8B: SwizzleModeInfo(
        _S.B128_ATOM_32B_FLIP_8B, 128, 32, True, 512, 1024, 8, 128, _flip_map()
    ),
    _S.B128_ATOM_64B: SwizzleModeInfo(_S.B128_ATOM_64B, 128, 64, False, 256, 1024, 8, 128, Swizzle(1, 6, 1)),
    _S.B96: SwizzleModeInfo(_S.B96, 96, 16, False, 256, 256, 2, 128, Swizzle(1, 4, 3)),
}
del _S


def swizzle_mode_info(mode: Any) -> SwizzleModeInfo:
    """The :class:`SwizzleModeInfo` of a mode (anything ``TmaSwizzle.parse`` accepts).

    >>> swizzle_mode_info("128B_ATOM_32B").required_alignment_bytes
    128
    """
    return _MODE_INFO[TmaSwizzle.parse(mode)]


def swizzle_byte_map(mode: Any) -> Swizzle | XorSwizzle:
    """The mode's map on absolute shared-memory byte addresses.

    >>> str(swizzle_byte_map("128B_ATOM_64B")), swizzle_byte_map("128B_ATOM_32B_FLIP_8B").pairs
    ('Sw<1,6,1>', ((7, 3), (7, 5), (8, 6)))
    """
    return swizzle_mode_info(mode).byte_map


def swizzle_base_offset(mode: Any, dst_address: int) -> int:
    """PTX's swizzle base offset: ``(dstMem / 128) % 8`` (128B modes), ``% 4`` (64B), ``% 2`` (32B, 96B).

    It is 0 exactly when ``dst_address`` is on the pattern boundary (1024/512/256/256 bytes) or,
    for a ``dst_address`` that is a multiple of 128, it is the table row the pattern starts at.
    Mode NONE has no pattern: 0.

    >>> swizzle_base_offset("128B", 1024), swizzle_base_offset("128B", 1408), swizzle_base_offset("32B", 384)
    (0, 3, 1)
    """
    info = swizzle_mode_info(mode)
    dst = _check_int("swizzle_base_offset", "dst_address", dst_address, lo=0)
    return (dst // 128) % info.base_offset_modulus


def pattern_table(mode: Any, cell_bytes: int = 16) -> list[list[int]]:
    """The mode's pattern table computed from its byte map: row r, cell c -> destination cell.

    One row per 128-byte line of the period, ``128 // cell_bytes`` cells per row. With 16-byte
    cells this is PTX's table (each row is an XOR permutation, so it reads the same as "cell at
    position p holds source cell table[r][p]"). ``cell_bytes=8`` shows the 8-byte flip.

    >>> pattern_table("64B")
    [[0, 1, 2, 3, 4, 5, 6, 7], [1, 0, 3, 2, 5, 4, 7, 6], [2, 3, 0, 1, 6, 7, 4, 5], [3, 2, 1, 0, 7, 6, 5, 4]]
    """
    info = swizzle_mode_info(mode)
    cb = _check_int("pattern_table", "cell_bytes", cell_bytes, lo=1)
    if cb not in (1, 2, 4, 8, 16, 32, 64, 128):
        raise TensorMapError(f"pattern_table: cell_bytes must be a power of two <= 128, got {cb}")
    rows = info.period_bytes // 128
    f = info.byte_map
    return [[(f(128 * r + cb * c) % 128) // cb for c in range(128 // cb)] for r in range(rows)]


# ---------------------------------------------------------------------------------------------
# Box -> shared memory
# ---------------------------------------------------------------------------------------------

_MAX_BOX_BYTES = 1 << 24


def _check_int(who: str, name: str, value: Any, lo: int | None = None, hi: int | None = None) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TensorMapError(f"{who}: {name} must be an integer, got {value!r}")
    v = int(value)
    if lo is not None and v < lo:
        raise TensorMapError(f"{who}: {name} must be >= {lo}, got {v}")
    if hi is not None and v > hi:
        raise TensorMapError(f"{who}: {name} must be <= {hi}, got {v}")
    return v


def _check_int_seq(who: str, name: str, value: Any) -> tuple[int, ...]:
    if isinstance(value, (str, bytes)) or not isinstance(value, (Iterable, np.ndarray)):
        raise TensorMapError(f"{who}: {name} must be a sequence of integers, got {value!r}")
    try:
        items = list(value)
    except TypeError:
        raise TensorMapError(f"{who}: {name} must be a sequence of integers, got {value!r}") from None
    out = []
    for i, v in enumerate(items):
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
            raise TensorMapError(f"{who}: {name}[{i}] must be an integer, got {v!r}")
        out.append(int(v))
    return tuple(out)


def _fmt(x: Fraction | int) -> str:
    f = Fraction(x)
    return str(f.numerator) if f.denominator == 1 else repr(float(f))


def elements_per_dim(
    box_dim: Sequence[int], element_strides: Sequence[int], interleave: Any = "NONE"
) -> tuple[int, ...]:
    """Elements TMA loads per dimension: ``ceil(boxDim[i] / elementStrides[i])``.

    When interleave is NONE, ``elementStrides[0]`` is ignored ("TMA doesn't support the stride for
    dimension zero"), so dimension 0 loads ``boxDim[0]`` elements. To load N elements along
    dimension i, set ``boxDim[i] = N * elementStrides[i]``.

    >>> elements_per_dim((64, 9, 8), (2, 2, 4))
    (64, 5, 2)
    >>> elements_per_dim((64, 9, 8), (2, 2, 4), interleave="32B")
    (32, 5, 2)
    """
    who = "elements_per_dim"
    box = _check_int_seq(who, "box_dim", box_dim)
    strides = _check_int_seq(who, "element_strides", element_strides)
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

    ``box_dims`` are the elements loaded per dimension, innermost first (use
    :func:`elements_per_dim` when elementStrides are not all one). The result has shape
    ``(box_dims[-1], ..., box_dims[1], box_dims[0] * elem_bytes)``: ``result[..., i1, b]`` is byte
    ``b`` of the innermost row at box coordinates ``(..., i1)``; ``result.ravel()`` lists every byte
    in row-major box order, innermost first.

    Model: the box's rows are packed one after another, then the mode's byte map is applied to
    the absolute address ``dst_address + offset``. The row pitch is the swizzle span for the
    swizzled modes (a row narrower than the span still occupies a whole span: measured on an H100,
    docs/hardware-validation.md) and ``box_dims[0] * elem_bytes`` (dense) without swizzle;
    ``row_pitch_bytes`` overrides it. ``elem_bytes`` may be a Fraction (packed 4-bit types: 1/2)
    when the row is a whole number of bytes. ``dst_address`` must be a multiple of the mode's
    required alignment (128 bytes: measured on an H100), and the row must fit in the
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
    dims = _check_int_seq(who, "box_dims", box_dims)
    if not dims:
        raise TensorMapError(f"{who}: box_dims must have at least one dimension")
    for i, d in enumerate(dims):
        if d < 1:
            raise TensorMapError(f"{who}: box_dims[{i}] must be >= 1, got {d}")
    if isinstance(elem_bytes, (bool, np.bool_)) or not isinstance(elem_bytes, (numbers.Rational, np.integer)):
        raise TensorMapError(f"{who}: elem_bytes must be a positive int or Fraction, got {elem_bytes!r}")
    eb = Fraction(int(elem_bytes)) if isinstance(elem_bytes, np.integer) else Fraction(elem_bytes)
    if eb <= 0:
        raise TensorMapError(f"{who}: elem_bytes must be positive, got {_fmt(eb)}")
    row = dims[0] * eb
    if row.denominator != 1:
        raise TensorMapError(
            f"{who}: the innermost row must be a whole number of bytes: box_dims[0]={dims[0]}, "
            f"elem_bytes={_fmt(eb)} -> {_fmt(row)} bytes"
        )
    row_bytes = int(row)
    if info.span_bytes is not None and row_bytes > info.span_bytes:
        raise TensorMapError(
            f"{who}: the box inner dimension must be <= the swizzle span of {info.mode.short_name} "
            f"({info.span_bytes} bytes): box_dims[0]={dims[0]}, elem_bytes={_fmt(eb)} -> {row_bytes} bytes"
        )
    natural = row_bytes if info.span_bytes is None or info.mode is TmaSwizzle.NONE else info.span_bytes
    pitch = (
        natural
        if row_pitch_bytes is None
        else _check_int(who, "row_pitch_bytes", row_pitch_bytes, lo=row_bytes)
    )
    dst = _check_int(who, "dst_address", dst_address, lo=0)
    if dst % info.required_alignment_bytes:
        raise TensorMapError(
            f"{who}: swizzle mode {info.mode.short_name} requires a shared-memory destination aligned to "
            f"{info.required_alignment_bytes} bytes: dst_address={dst} (dst_address % "
            f"{info.required_alignment_bytes} = {dst % info.required_alignment_bytes})"
        )
    rows = math.prod(dims[1:])
    if rows * row_bytes > _MAX_BOX_BYTES:
        raise TensorMapError(
            f"{who}: a box of {rows * row_bytes} bytes exceeds the {_MAX_BOX_BYTES}-byte model limit"
        )
    dense = np.arange(rows, dtype=np.int64)[:, None] * pitch + np.arange(row_bytes, dtype=np.int64)[None, :]
    placed = info.byte_map(dense + dst) - dst
    return placed.reshape(tuple(reversed(dims[1:])) + (row_bytes,))


# ---------------------------------------------------------------------------------------------
# Rules
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TensorMapRule:
    """One documented constraint: its id, the functions it binds, the reference text, how it is checked.

    ``checked_by`` is "validate" (reported by ``violations()``), "parse" (enforced when the map is
    built) or "not checked" (out of scope; the docs say why).

    >>> RULES["box_dim.range"].functions
    ('cuTensorMapEncodeTiled',)
    """

    id: str
    functions: tuple[str, ...]
    statement: str
    text: str
    source: str = "002"
    checked_by: str = "validate"


@dataclass(frozen=True)
class TensorMapViolation:
    """A violated rule: its id and the message naming the rule and the values.

    >>> TensorMapViolation("box_dim.range", "cuTensorMapEncodeTiled: ...").rule
    'box_dim.range'
    """

    rule: str
    message: str

    def __str__(self) -> str:
        return self.message


_T, _I, _W = (TILED,), (IM2COL,), (IM2COL_WIDE,)
_TI = (TILED, IM2COL)
_IW = (IM2COL, IM2COL_WIDE)
_A = _ALL_FUNCTIONS


def _r(
    id: str,
    functions: tuple[str, ...],
    statement: str,
    text: str,
    source: str = "002",
    checked_by: str = "validate",
) -> TensorMapRule:
    return TensorMapRule(id, functions, statement, text, source, checked_by)


_RULE_LIST: list[TensorMapRule] = [
    _r(
        "tensor_map.align64",
        _A,
        "the tensorMap object must be 64-byte aligned",
        "tensorMap address must be aligned to 64 bytes.",
        checked_by="not checked",
    ),
    _r(
        "enum.data_type",
        _A,
        "tensorDataType must be a CUtensorMapDataType",
        "tensorDataType has to be an enum from CUtensorMapDataType",
        checked_by="parse",
    ),
    _r(
        "enum.interleave",
        _A,
        "interleave must be a CUtensorMapInterleave",
        "interleave specifies the interleaved layout of type CUtensorMapInterleave",
        checked_by="parse",
    ),
    _r(
        "enum.swizzle",
        _A,
        "swizzle must be a CUtensorMapSwizzle",
        "swizzle ... has to be of type CUtensorMapSwizzle",
        checked_by="parse",
    ),
    _r(
        "enum.l2_promotion",
        _A,
        "l2Promotion must be a CUtensorMapL2promotion",
        "It must be of type CUtensorMapL2promotion",
        checked_by="parse",
    ),
    _r(
        "enum.oob_fill",
        _A,
        "oobFill must be a CUtensorMapFloatOOBfill",
        "oobFill ... must be of type CUtensorMapFloatOOBfill",
        checked_by="parse",
    ),
    _r(
        "enum.mode",
        _W,
        "mode must be a CUtensorMapIm2ColWideMode",
        "mode ... has to be one of the following CUtensorMapIm2ColWideMode types",
        checked_by="parse",
    ),
    _r(
        "rank.tiled_range",
        _T,
        "tensorRank must be in [1, 5]",
        "tensorRank must be non-zero and less than or equal to the maximum supported dimensionality of 5.",
    ),
    _r(
        "rank.im2col_range",
        _IW,
        "tensorRank must be 3, 4, or 5",
        "tensorRank, which specifies the number of tensor dimensions, must be 3, 4, or 5.",
    ),
    _r(
        "rank.interleave_min3",
        _T,
        "tensorRank must be >= 3 when interleave is not NONE",
        "If interleave is not CU_TENSOR_MAP_INTERLEAVE_NONE, then tensorRank must additionally be greater "
        "than or equal to 3.",
    ),
    _r(
        "length.global_dim",
        _A,
        "globalDim must have tensorRank entries",
        "globalDim - Array containing tensor size (number of elements) along each of the tensorRank "
        "dimensions",
    ),
    _r(
        "length.global_strides",
        _A,
        "globalStrides must have tensorRank - 1 entries",
        "globalStrides - Array containing stride size (in bytes) along each of the tensorRank - 1 dimensions",
    ),
    _r(
        "length.box_dim",
        _T,
        "boxDim must have tensorRank entries",
        "boxDim - Array containing traversal box size (number of elments) along each of the tensorRank "
        "dimensions.",
    ),
    _r(
        "length.element_strides",
        _A,
        "elementStrides must have tensorRank entries",
        "elementStrides - Array containing traversal stride in each of the tensorRank dimensions",
    ),
    _r(
        "length.pixel_box_corners",
        _I,
        "pixelBoxLowerCorner and pixelBoxUpperCorner must have tensorRank - 2 entries",
        "When tensorRank is 3, one signed offset ... When tensorRank is 4, two signed offsets ... When "
        "tensorRank is "
        "5, three offsets",
    ),
    _r(
        "global_address.align16",
        _A,
        "globalAddress must be 16-byte aligned",
        "globalAddress, which specifies the starting address of the memory region described, must be 16 byte "
        "aligned.",
    ),
    _r(
        "global_address.align32_interleave32",
        _A,
        "globalAddress must be 32-byte aligned when interleave is 32B",
        "When interleave is CU_TENSOR_MAP_INTERLEAVE_32B, globalAddress must be 32 byte aligned.",
    ),
    _r(
        "global_address.align32_packed16",
        _A,
        "globalAddress must be 32-byte aligned for 16U6_ALIGN16B and 16U4_ALIGN16B",
        "When tensorDataType is CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B or "
        "CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B, "
        "globalAddress must be 32 byte aligned.",
    ),
    _r(
        "global_dim.range",
        _A,
        "globalDim must be non-zero and <= 2^32",
        "globalDim array ... must be non-zero and less than or equal to 2^32.",
    ),
    _r(
        "global_dim.packed16_multiple128",
        _A,
        "globalDim[0] must be a multiple of 128 for 16U6_ALIGN16B and 16U4_ALIGN16B",
        "When tensorDataType is CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B or "
        "CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B, "
        "globalDim[0] must be a multiple of 128.",
    ),
    _r(
        "global_dim.u4align8_multiple2",
        _A,
        "globalDim[0] must be a multiple of 2 for 16U4_ALIGN8B",
        "When tensorDataType is CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B, globalDim[0] must be a multiple of 2.",
    ),
    _r(
        "global_dim.packed_counts_values",
        _A,
        "globalDim counts individual U# values for the packed types",
        "Dimension for the packed data types must reflect the number of individual U# values.",
        checked_by="not checked",
    ),
    _r(
        "global_strides.multiple16",
        _A,
        "globalStrides must be a multiple of 16",
        "globalStrides array ... must be a multiple of 16 and less than 2^40.",
    ),
    _r(
        "global_strides.range",
        _A,
        "globalStrides must be less than 2^40 (and not negative)",
        "globalStrides array ... must be a multiple of 16 and less than 2^40.",
    ),
    _r(
        "global_strides.multiple32_interleave32",
        _A,
        "globalStrides must be a multiple of 32 when interleave is 32B",
        "When interleave is CU_TENSOR_MAP_INTERLEAVE_32B, the strides must be a multiple of 32.",
    ),
    _r(
        "global_strides.multiple32_packed16",
        _A,
        "globalStrides must be a multiple of 32 for 16U6_ALIGN16B and 16U4_ALIGN16B",
        "When tensorDataType is CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B or "
        "CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B, "
        "the strides must be a multiple of 32.",
    ),
    _r(
        "global_strides.packed16_padding",
        _A,
        "for 16U6_ALIGN16B and 16U4_ALIGN16B each stride must include the previous one (padding >= 0)",
        "globalStrides[0] = globalDim[0] * elementSizeInBytes(tensorDataType) + padding[0]; for (i = 1; i < "
        "tensorRank - 1; i++) globalStrides[i] = globalStrides[i - 1] * (globalDim[i] + padding[i]); "
        "assert(globalStrides[i] >= globalDim[i]);",
    ),
    _r(
        "box_dim.range",
        _T,
        "boxDim must be non-zero and <= 256",
        "boxDim array ... must be non-zero and less than or equal to 256.",
    ),
    _r(
        "box_dim.inner_bytes_multiple16",
        _T,
        "boxDim[0] * elementSize must be a multiple of 16 bytes when interleave is NONE",
        "When interleave is CU_TENSOR_MAP_INTERLEAVE_NONE, "
        "{ boxDim[0] * elementSizeInBytes( tensorDataType ) } "
        "must be a multiple of 16 bytes.",
    ),
    _r(
        "box_dim.packed16_is128",
        _T,
        "boxDim[0] must be 128 for 16U6_ALIGN16B and 16U4_ALIGN16B",
        "When tensorDataType is CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B or "
        "CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B, "
        "boxDim[0] must be 128.",
    ),
    _r(
        "element_strides.range",
        _A,
        "elementStrides must be non-zero and <= 8",
        "elementStrides array ... must be non-zero and less than or equal to 8.",
    ),
    _r(
        "swizzle.inner_box_span",
        _A,
        "the bounding box inner dimension must be <= the swizzle span when interleave is NONE",
        "When interleave is CU_TENSOR_MAP_INTERLEAVE_NONE and swizzle is not CU_TENSOR_MAP_SWIZZLE_NONE, the "
        "bounding box inner dimension (computed as boxDim[0] [channelsPerPixel for im2col] multiplied by "
        "element "
        "size derived from tensorDataType) must be less than or equal to the swizzle size. 32B: <= 32, 64B: "
        "<= 64, "
        "128B*: <= 128.",
    ),
    _r(
        "interleave.u6_requires_none",
        _A,
        "16U6_ALIGN16B requires interleave NONE",
        "tensorDataType of CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B requires interleave to be "
        "CU_TENSOR_MAP_INTERLEAVE_NONE.",
    ),
    _r(
        "interleave.wide_none",
        _W,
        "interleave must be NONE for im2col::w / im2col::w::128",
        "The interleave layout is not supported for .im2col::w and .im2col::w::128 modes.",
        source="000 5.5.6",
    ),
    _r(
        "swizzle.interleave32_requires_32B",
        _TI,
        "swizzle must be 32B when interleave is 32B",
        "When interleave is CU_TENSOR_MAP_INTERLEAVE_32B, swizzle must be CU_TENSOR_MAP_SWIZZLE_32B.",
    ),
    _r(
        "swizzle.u6_allowed",
        _TI,
        "16U6_ALIGN16B supports swizzle NONE, 128B, 128B_ATOM_32B (load & store) and 128B_ATOM_64B (store "
        "only)",
        "When the tensorDataType is CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B, only the following swizzle modes "
        "are "
        "supported: NONE (Load & Store), 128B (Load & Store), 128B_ATOM_32B (Load & Store), 128B_ATOM_64B "
        "(Store only)",
    ),
    _r(
        "swizzle.u4align16_allowed",
        _TI,
        "16U4_ALIGN16B supports swizzle NONE, 128B, 128B_ATOM_32B (load only)",
        "When the tensorDataType is CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B, only the following swizzle modes "
        "are "
        "supported: NONE (Load only), 128B (Load only), 128B_ATOM_32B (Load only)",
    ),
    _r(
        "swizzle.wide_allowed",
        _W,
        "swizzle must be 64B, 128B or 128B_ATOM_32B",
        "swizzle ... must be one of the following CUtensorMapSwizzle modes (other swizzle modes are not "
        "supported): "
        "CU_TENSOR_MAP_SWIZZLE_64B, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B",
    ),
    _r(
        "swizzle.wide_u6_allowed",
        _W,
        "16U6_ALIGN16B supports swizzle 128B and 128B_ATOM_32B (load & store)",
        "When the tensorDataType is CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B, only the following swizzle modes "
        "are "
        "supported: 128B (Load & Store), 128B_ATOM_32B (Load & Store)",
    ),
    _r(
        "swizzle.wide_u4align16_allowed",
        _W,
        "16U4_ALIGN16B supports swizzle 128B and 128B_ATOM_32B (load only)",
        "When the tensorDataType is CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B, only the following swizzle modes "
        "are "
        "supported: 128B (Load only), 128B_ATOM_32B (Load only)",
    ),
    _r(
        "swizzle.flip8b_load_only",
        _TI,
        "128B_ATOM_32B_FLIP_8B is legal only for loads (global -> shared)",
        "Note that this mode is legal only when cp.async.bulk.tensor specifies the copy direction as "
        ".shared::cluster.global or otherwise .shared::cta.global.",
        source="000 5.5.7",
    ),
    _r(
        "swizzle.b96_not_encodable",
        _A,
        "the 96-byte swizzle mode has no CUtensorMapSwizzle value",
        "CUtensorMapSwizzle lists NONE, 32B, 64B, 128B, 128B_ATOM_32B, 128B_ATOM_32B_FLIP_8B, 128B_ATOM_64B "
        "(PTX 5.5.7's 96B mode is absent).",
    ),
    _r(
        "oob_fill.float_only",
        _A,
        "NAN_REQUEST_ZERO_FMA requires a floating-point tensorDataType that is not a packed type",
        "CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA can only be used when tensorDataType represents a "
        "floating-point data type, and when tensorDataType is not CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B, "
        "CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B, and CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B.",
    ),
    _r(
        "pixel_box.range",
        _I,
        "pixel box corner offsets must be in range for tensorRank",
        "When tensorRank is 3, one signed offset within range [-32768, 32767] is supported. When tensorRank "
        "is 4, "
        "two signed offsets each within range [-128, 127] are supported. When tensorRank is 5, three offsets "
        "each "
        "within range [-16, 15] are supported.",
    ),
    _r(
        "pixel_box.nonzero_area",
        _I,
        "the bounding box must have non-zero area",
        "The bounding box specified by pixelBoxLowerCorner and pixelBoxUpperCorner must have non-zero area.",
    ),
    _r(
        "pixel_box_width.range",
        _W,
        "pixelBoxLowerCornerWidth and pixelBoxUpperCornerWidth must be in [-32768, 32767]",
        "pixelBoxLowerCornerWidth ... The offset must be within range [-32768, 32767]. "
        "pixelBoxUpperCornerWidth ... "
        "The offset must be within range [-32768, 32767].",
    ),
    _r(
        "pixel_box_width.nonzero_area",
        _W,
        "the bounding box must have non-zero area",
        "The bounding box specified by pixelBoxLowerCornerWidth and pixelBoxUpperCornerWidth must have "
        "non-zero area.",
    ),
    _r(
        "channels_per_pixel.range",
        _IW,
        "channelsPerPixel must be non-zero and <= 256",
        "channelsPerPixel, which specifies the number of elements which must be accessed along C dimension, "
        "must be "
        "less than or equal to 256.",
    ),
    _r(
        "channels_per_pixel.packed16_is128",
        _IW,
        "channelsPerPixel must be 128 for 16U6_ALIGN16B and 16U4_ALIGN16B",
        "when tensorDataType is CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B or "
        "CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B, "
        "channelsPerPixel must be 128.",
    ),
    _r(
        "pixels_per_column.range",
        _IW,
        "pixelsPerColumn must be non-zero and <= 1024",
        "pixelsPerColumn ... must be less than or equal to 1024. [im2col-wide:] This field is ignored when "
        "mode is "
        "CU_TENSOR_MAP_IM2COL_WIDE_MODE_W128.",
    ),
]

_RULE_LIST += [
    _r(
        "arch.swizzle_sm100",
        _A,
        "the 128B_ATOM swizzle modes need compute capability 10.0 (rejected by the H100's driver)",
        "Observed on an H100 (driver 580.159.04): CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B, _32B_FLIP_8B and _64B "
        "give CUDA_ERROR_INVALID_VALUE (examples/hardware/results, docs/hardware-validation.md).",
        source="hardware",
    ),
    _r(
        "arch.data_type_sm100",
        _A,
        "the 16U4_ALIGN16B and 16U6_ALIGN16B types need compute capability 10.0 (rejected by the H100's driver)",
        "Observed on an H100 (driver 580.159.04): a 16U4_ALIGN16B map valid by every documented rule gives "
        "CUDA_ERROR_INVALID_VALUE; 16U6_ALIGN16B is assumed to behave the same (not run).",
        source="hardware",
    ),
    _r(
        "arch.im2col_wide_sm100",
        _W,
        "cuTensorMapEncodeIm2colWide needs compute capability 10.0",
        "This API is only supported on devices of compute capability 10.0 or higher.",
    ),
]

RULES: dict[str, TensorMapRule] = {r.id: r for r in _RULE_LIST}
del _T, _I, _W, _TI, _IW, _A


def rules_for(function: str, checked_by: str | None = "validate") -> list[TensorMapRule]:
    """The rules binding one ``cuTensorMapEncode*`` function (by default only those ``violations()`` reports).

    >>> [r.id for r in rules_for("cuTensorMapEncodeIm2colWide")][:3]
    ['rank.im2col_range', 'length.global_dim', 'length.global_strides']
    """
    if function not in _ALL_FUNCTIONS:
        raise TensorMapError(
            f"rules_for: unknown function {function!r}; expected one of {', '.join(_ALL_FUNCTIONS)}"
        )
    return [
        r
        for r in _RULE_LIST
        if function in r.functions and (checked_by is None or r.checked_by == checked_by)
    ]


# ---------------------------------------------------------------------------------------------
# Tensor maps
# ---------------------------------------------------------------------------------------------

_U6 = TensorDataType.U6x16_ALIGN16B
_U4A16 = TensorDataType.U4x16_ALIGN16B
_U4A8 = TensorDataType.U4x16_ALIGN8B

# Allowed swizzles for the packed ALIGN16B types: {dtype: {direction: allowed}}
_PACKED_SWIZZLES = {
    _U6: {
        "load": (TmaSwizzle.NONE, TmaSwizzle.B128, TmaSwizzle.B128_ATOM_32B),
        "store": (TmaSwizzle.NONE, TmaSwizzle.B128, TmaSwizzle.B128_ATOM_32B, TmaSwizzle.B128_ATOM_64B),
    },
    _U4A16: {"load": (TmaSwizzle.NONE, TmaSwizzle.B128, TmaSwizzle.B128_ATOM_32B), "store": ()},
}
_WIDE_SWIZZLES = (TmaSwizzle.B64, TmaSwizzle.B128, TmaSwizzle.B128_ATOM_32B)
_WIDE_PACKED_SWIZZLES = {
    _U6: {
        "load": (TmaSwizzle.B128, TmaSwizzle.B128_ATOM_32B),
        "store": (TmaSwizzle.B128, TmaSwizzle.B128_ATOM_32B),
    },
    _U4A16: {"load": (TmaSwizzle.B128, TmaSwizzle.B128_ATOM_32B), "store": ()},
}
_CORNER_RANGE = {3: (-32768, 32767), 4: (-128, 127), 5: (-16, 15)}


def _names(modes: Sequence[TmaSwizzle]) -> str:
    return ", ".join(m.short_name for m in modes) if modes else "none"


def _bad(seq: Sequence[int], name: str, ok: Any) -> list[str]:
    return [f"{name}[{i}]={v}" for i, v in enumerate(seq) if not ok(v)]


class _Checker:
    def __init__(self, function: str) -> None:
        self.function = function
        self.found: list[TensorMapViolation] = []

    def add(self, rule_id: str, detail: str, statement: str | None = None) -> None:
        rule = RULES[rule_id]
        self.found.append(
            TensorMapViolation(rule_id, f"{self.function}: {statement or rule.statement}: {detail}")
        )


def _parse_direction(direction: Any, who: str) -> str:
    if direction not in ("load", "store"):
        raise TensorMapError(f"{who}: direction must be 'load' or 'store', got {direction!r}")
    return direction


class _TensorMapBase:
    """Normalisation and the rules shared by the three encode functions."""

    _FUNCTION = ""

    def _normalise_common(self) -> None:
        fn = self._FUNCTION
        set_ = object.__setattr__
        set_(self, "tensor_data_type", TensorDataType.parse(self.tensor_data_type))
        set_(self, "interleave", Interleave.parse(self.interleave))
        set_(self, "swizzle", TmaSwizzle.parse(self.swizzle))
        set_(self, "l2_promotion", L2Promotion.parse(self.l2_promotion))
        set_(self, "oob_fill", OobFill.parse(self.oob_fill))
        set_(self, "global_dim", _check_int_seq(fn, "globalDim", self.global_dim))
        set_(self, "global_strides", _check_int_seq(fn, "globalStrides", self.global_strides))
        if self.tensor_rank is None:
            set_(self, "tensor_rank", len(self.global_dim))
        set_(self, "tensor_rank", _check_int(fn, "tensorRank", self.tensor_rank))
        set_(
            self,
            "global_address",
            _check_int(fn, "globalAddress (a pointer)", self.global_address, 0, 2**64 - 1),
        )
        if self.element_strides is None:
            set_(self, "element_strides", (1,) * max(self.tensor_rank, 0))
        set_(self, "element_strides", _check_int_seq(fn, "elementStrides", self.element_strides))

    # -- shared rule groups ---------------------------------------------------------------
    def _check_rank_and_lengths(self, c: _Checker) -> None:
        rank = self.tensor_rank
        if self._FUNCTION == TILED:
            if not 1 <= rank <= 5:
                c.add("rank.tiled_range", f"tensorRank={rank}")
            if self.interleave is not Interleave.NONE and rank < 3:
                c.add("rank.interleave_min3", f"interleave={self.interleave.short_name}, tensorRank={rank}")
        elif rank not in (3, 4, 5):
            c.add("rank.im2col_range", f"tensorRank={rank}")
        if len(self.global_dim) != rank:
            c.add("length.global_dim", f"len(globalDim)={len(self.global_dim)}, tensorRank={rank}")
        if len(self.global_strides) != rank - 1:
            c.add(
                "length.global_strides",
                f"len(globalStrides)={len(self.global_strides)}, tensorRank - 1={rank - 1}",
            )
        if len(self.element_strides) != rank:
            c.add(
                "length.element_strides",
                f"len(elementStrides)={len(self.element_strides)}, tensorRank={rank}",
            )

    def _check_global(self, c: _Checker) -> None:
        dt = self.tensor_data_type
        addr = self.global_address
        if addr % 16:
            c.add("global_address.align16", f"globalAddress={addr:#x} (globalAddress % 16 = {addr % 16})")
        if self.interleave is Interleave.B32 and addr % 32:
            c.add(
                "global_address.align32_interleave32",
                f"globalAddress={addr:#x} (globalAddress % 32 = {addr % 32})",
            )
        if dt.is_packed_align16 and addr % 32:
            c.add(
                "global_address.align32_packed16",
                f"tensorDataType={dt.short_name}, globalAddress={addr:#x} (globalAddress % 32 = {addr % 32})",
            )
        dims = self.global_dim
        bad = _bad(dims, "globalDim", lambda v: 1 <= v <= 2**32)
        if bad:
            c.add("global_dim.range", ", ".join(bad))
        if dims and dt.is_packed_align16 and dims[0] % 128:
            c.add(
                "global_dim.packed16_multiple128", f"tensorDataType={dt.short_name}, globalDim[0]={dims[0]}"
            )
        if dims and dt is _U4A8 and dims[0] % 2:
            c.add("global_dim.u4align8_multiple2", f"tensorDataType={dt.short_name}, globalDim[0]={dims[0]}")
        strides = self.global_strides
        bad = _bad(strides, "globalStrides", lambda v: v % 16 == 0)
        if bad:
            c.add("global_strides.multiple16", ", ".join(bad))
        bad = _bad(strides, "globalStrides", lambda v: 0 <= v < 2**40)
        if bad:
            c.add("global_strides.range", ", ".join(bad) + " (limit 2^40 = 1099511627776)")
        if self.interleave is Interleave.B32:
            bad = _bad(strides, "globalStrides", lambda v: v % 32 == 0)
            if bad:
                c.add("global_strides.multiple32_interleave32", ", ".join(bad))
        if dt.is_packed_align16:
            bad = _bad(strides, "globalStrides", lambda v: v % 32 == 0)
            if bad:
                c.add(
                    "global_strides.multiple32_packed16", f"tensorDataType={dt.short_name}, " + ", ".join(bad)
                )
            if strides and len(dims) == len(strides) + 1:
                problems = []
                row = dims[0] * dt.size_bytes
                if strides[0] < row:
                    problems.append(
                        f"globalStrides[0]={strides[0]} < globalDim[0] * elementSize = {dims[0]} * "
                        f"{_fmt(dt.size_bytes)} = {_fmt(row)} (padding[0] < 0)"
                    )
                for i in range(1, len(strides)):
                    need = strides[i - 1] * dims[i]
                    if strides[i] < need:
                        problems.append(
                            f"globalStrides[{i}]={strides[i]} < globalStrides[{i - 1}] * globalDim[{i}] = "
                            f"{strides[i - 1]} * {dims[i]} = {need} (padding[{i}] < 0)"
                        )
                if problems:
                    c.add(
                        "global_strides.packed16_padding",
                        f"tensorDataType={dt.short_name}, " + "; ".join(problems),
                    )

    def _check_element_strides(self, c: _Checker) -> None:
        bad = _bad(self.element_strides, "elementStrides", lambda v: 1 <= v <= 8)
        if bad:
            c.add("element_strides.range", ", ".join(bad))

    def _check_inner_span(self, c: _Checker, label: str, count: int | None) -> None:
        if count is None or self.interleave is not Interleave.NONE:
            return
        info = _MODE_INFO[self.swizzle]
        if info.span_bytes is None:
            return
        size = self.tensor_data_type.size_bytes
        inner = count * size
        if inner > info.span_bytes:
            c.add(
                "swizzle.inner_box_span",
                f"{label}={count}, elementSize={_fmt(size)} -> {_fmt(inner)} bytes > {info.span_bytes} "
                f"(swizzle {info.mode.short_name})",
                statement=f"the bounding box inner dimension ({label} * elementSize) must be <= the "
                "swizzle span when interleave is NONE",
            )

    def _check_types_and_modes(self, c: _Checker, direction: str) -> None:
        dt, il, sw = self.tensor_data_type, self.interleave, self.swizzle
        wide = self._FUNCTION == IM2COL_WIDE
        if dt is _U6 and il is not Interleave.NONE:
            c.add(
                "interleave.u6_requires_none", f"tensorDataType={dt.short_name}, interleave={il.short_name}"
            )
        if wide and il is not Interleave.NONE:
            c.add("interleave.wide_none", f"interleave={il.short_name}")
        if not wide and il is Interleave.B32 and sw is not TmaSwizzle.B32:
            c.add("swizzle.interleave32_requires_32B", f"interleave=32B, swizzle={sw.short_name}")
        if wide:
            if sw not in _WIDE_SWIZZLES:
                c.add("swizzle.wide_allowed", f"swizzle={sw.short_name}")
            if dt in _WIDE_PACKED_SWIZZLES and sw not in _WIDE_PACKED_SWIZZLES[dt][direction]:
                rid = "swizzle.wide_u6_allowed" if dt is _U6 else "swizzle.wide_u4align16_allowed"
                c.add(
                    rid,
                    f"tensorDataType={dt.short_name}, swizzle={sw.short_name}, direction={direction} "
                    f"(allowed for {direction}: {_names(_WIDE_PACKED_SWIZZLES[dt][direction])})",
                )
        else:
            if dt in _PACKED_SWIZZLES and sw not in _PACKED_SWIZZLES[dt][direction]:
                rid = "swizzle.u6_allowed" if dt is _U6 else "swizzle.u4align16_allowed"
                c.add(
                    rid,
                    f"tensorDataType={dt.short_name}, swizzle={sw.short_name}, direction={direction} "
                    f"(allowed for {direction}: {_names(_PACKED_SWIZZLES[dt][direction])})",
                )
            if sw is TmaSwizzle.B128_ATOM_32B_FLIP_8B and direction == "store":
                c.add("swizzle.flip8b_load_only", f"swizzle={sw.short_name}, direction=store")
        if sw is TmaSwizzle.B96:
            c.add("swizzle.b96_not_encodable", f"swizzle={sw.short_name} (PTX-only)")
        if self.oob_fill is OobFill.NAN_REQUEST_ZERO_FMA and (not dt.is_float or dt.is_packed):
            c.add("oob_fill.float_only", f"oobFill=NAN_REQUEST_ZERO_FMA, tensorDataType={dt.short_name}")

    def _check_channels_pixels(self, c: _Checker, check_pixels: bool) -> None:
        cpp = self.channels_per_pixel
        if not 1 <= cpp <= 256:
            c.add("channels_per_pixel.range", f"channelsPerPixel={cpp}")
        if self.tensor_data_type.is_packed_align16 and cpp != 128:
            c.add(
                "channels_per_pixel.packed16_is128",
                f"tensorDataType={self.tensor_data_type.short_name}, channelsPerPixel={cpp}",
            )
        if check_pixels and not 1 <= self.pixels_per_column <= 1024:
            c.add("pixels_per_column.range", f"pixelsPerColumn={self.pixels_per_column}")

    def _specific(self, c: _Checker, direction: str) -> None:  # pragma: no cover - overridden
        """Rules of one cuTensorMapEncode* function; the shared base class has none of its own."""

    # -- public ---------------------------------------------------------------------------
    def violations(self, direction: Direction = "load", *, arch: str | None = None) -> list[TensorMapViolation]:
        """Every documented rule this parameter set violates (empty when the driver would accept it).

        ``direction`` ("load": global -> shared, "store": shared -> global) matters for the
        packed types' swizzle lists and for 128B_ATOM_32B_FLIP_8B. ``arch`` ("sm90" or "sm100")
        adds the rules of that architecture's driver (``arch.*``: the 128B_ATOM swizzle modes, the
        ALIGN16B packed types and im2col-wide need sm100); None checks the documented rules only.

        >>> TiledTensorMap(tensor_data_type="FLOAT16", global_dim=(64, 64), global_strides=(128,),
        ...                box_dim=(12, 8), swizzle="NONE").violations()[0].rule
        'box_dim.inner_bytes_multiple16'
        """
        d = _parse_direction(direction, f"{self._FUNCTION}.violations")
        c = _Checker(self._FUNCTION)
        self._specific(c, d)
        if arch is not None:
            if arch not in ARCHS:
                raise TensorMapError(f"{self._FUNCTION}: arch must be one of {', '.join(ARCHS)} or None, got {arch!r}")
            if arch == "sm90":
                self._check_sm90(c)
        return c.found

    def _check_sm90(self, c: _Checker) -> None:
        if self.swizzle.min_arch != "sm90":
            c.add("arch.swizzle_sm100", f"swizzle={self.swizzle.short_name}, arch=sm90")
        if self.tensor_data_type.min_arch != "sm90":
            c.add("arch.data_type_sm100", f"tensorDataType={self.tensor_data_type.name}, arch=sm90")
        if self._FUNCTION == IM2COL_WIDE:
            c.add("arch.im2col_wide_sm100", "arch=sm90")

    def validate(self, direction: Direction = "load", *, collect_all: bool = False,
                 arch: str | None = None) -> _TensorMapBase:
        """Return self if no rule is violated, else raise TensorMapError naming the first (or every) one.

        ``arch`` as in :meth:`violations` (``"sm90"`` also applies what the H100's driver rejects).

        The exception carries ``violations`` (the full list) and ``rule`` (the first rule id).

        >>> m = TiledTensorMap(tensor_data_type="FLOAT16", global_dim=(64, 64), global_strides=(128,),
        ...                    box_dim=(12, 8), swizzle="NONE")
        >>> try:
        ...     m.validate()
        ... except TensorMapError as e:
        ...     print(e.rule); print(e)
        box_dim.inner_bytes_multiple16
        cuTensorMapEncodeTiled: boxDim[0] * elementSize must be a multiple of 16 bytes when interleave is
        NONE: boxDim[0]=12, elementSize=2 -> 24 bytes
        """
        found = self.violations(direction, arch=arch)
        if not found:
            return self
        if collect_all and len(found) > 1:
            msg = f"{len(found)} violated rules:\n" + "\n".join(f"  [{v.rule}] {v.message}" for v in found)
        else:
            msg = found[0].message
        err = TensorMapError(msg)
        err.violations = tuple(found)  # type: ignore[attr-defined]
        err.rule = found[0].rule  # type: ignore[attr-defined]
        raise err


@dataclass(frozen=True, kw_only=True)
class TiledTensorMap(_TensorMapBase):
    """The parameters of ``cuTensorMapEncodeTiled`` (the driver's names in snake_case).

    Enum fields take anything their ``parse`` accepts; ``tensor_rank`` defaults to
    ``len(global_dim)`` and ``element_strides`` to all ones. Construction parses and type-checks;
    :meth:`violations` / :meth:`validate` check every documented value rule.

    >>> m = TiledTensorMap(tensor_data_type="BFLOAT16", global_dim=(4096, 4096), global_strides=(8192,),
    ...                    box_dim=(64, 128), swizzle="128B")
    >>> m.violations(), m.swizzle, m.elements_per_dim()
    ([], <TmaSwizzle.B128: 3>, (64, 128))
    """

    _FUNCTION = TILED

    tensor_data_type: Any
    global_dim: Sequence[int]
    global_strides: Sequence[int]
    box_dim: Sequence[int]
    tensor_rank: int | None = None
    global_address: int = 0
    element_strides: Sequence[int] | None = None
    interleave: Any = Interleave.NONE
    swizzle: Any = TmaSwizzle.NONE
    l2_promotion: Any = L2Promotion.NONE
    oob_fill: Any = OobFill.NONE

    def __post_init__(self) -> None:
        self._normalise_common()
        object.__setattr__(self, "box_dim", _check_int_seq(TILED, "boxDim", self.box_dim))

    def _specific(self, c: _Checker, direction: str) -> None:
        self._check_rank_and_lengths(c)
        if len(self.box_dim) != self.tensor_rank:
            c.add("length.box_dim", f"len(boxDim)={len(self.box_dim)}, tensorRank={self.tensor_rank}")
        self._check_global(c)
        dt = self.tensor_data_type
        bad = _bad(self.box_dim, "boxDim", lambda v: 1 <= v <= 256)
        if bad:
            c.add("box_dim.range", ", ".join(bad))
        inner = self.box_dim[0] if self.box_dim else None
        if inner is not None and self.interleave is Interleave.NONE:
            nbytes = inner * dt.size_bytes
            if nbytes % 16:
                c.add(
                    "box_dim.inner_bytes_multiple16",
                    f"boxDim[0]={inner}, elementSize={_fmt(dt.size_bytes)} -> {_fmt(nbytes)} bytes",
                )
        if inner is not None and dt.is_packed_align16 and inner != 128:
            c.add("box_dim.packed16_is128", f"tensorDataType={dt.short_name}, boxDim[0]={inner}")
        self._check_element_strides(c)
        self._check_inner_span(c, "boxDim[0]", inner)
        self._check_types_and_modes(c, direction)

    def elements_per_dim(self) -> tuple[int, ...]:
        """Elements loaded per dimension: ``ceil(boxDim[i] / elementStrides[i])`` (dimension 0 unstrided
        when interleave is NONE).

        >>> TiledTensorMap(tensor_data_type="FLOAT32", global_dim=(64, 64, 8), global_strides=(256, 16384),
        ...                box_dim=(32, 16, 6), element_strides=(1, 2, 4)).elements_per_dim()
        (32, 8, 2)
        """
        return elements_per_dim(self.box_dim, self.element_strides, self.interleave)

    def smem_layout(self, dst_address: int = 0, direction: Direction = "load") -> np.ndarray:
        """Shared-memory byte offset of every byte of the box, via :func:`box_to_smem`.

        Validates first. The shape is ``(n[-1], ..., n[1], n[0] * smem element bytes)`` with ``n``
        the elements loaded per dimension; the ``*_ALIGN16B`` packed types occupy one byte per value
        in shared memory (16 values per 16 bytes, per the driver's description of the gaps).

        >>> m = TiledTensorMap(tensor_data_type="FLOAT16", global_dim=(64, 64), global_strides=(128,),
        ...                    box_dim=(64, 8), swizzle="128B")
        >>> m.smem_layout()[1, ::16].tolist()
        [144, 128, 176, 160, 208, 192, 240, 224]
        """
        self.validate(direction)
        eb = Fraction(self.tensor_data_type.smem_bits, 8)
        return box_to_smem(self.swizzle, eb, self.elements_per_dim(), dst_address)

    def smem_byte_layout(self, dst_address: int = 0, direction: Direction = "load") -> Any:
        """The placement as a CuTe byte layout ``swizzle o dst o (row_bytes,n1,...):(1,row_bytes,...)``.

        Coordinates are (byte in the innermost row, index along dimension 1, ...); the value is the
        ABSOLUTE shared-memory byte address. ``layout.to_numpy() - dst_address`` equals
        ``smem_layout(dst_address).ravel()``. Validates first.

        >>> m = TiledTensorMap(tensor_data_type="FLOAT16", global_dim=(64, 64), global_strides=(128,),
        ...                    box_dim=(64, 8), swizzle="128B")
        >>> L = m.smem_byte_layout()
        >>> print(L)
        Sw<3,4,3> o 0 o (128,8):(1,128)
        >>> L(0, 1), L(16, 1)
        (144, 128)
        """
        from ...core.composed import ComposedLayout
        from ...core.layout import Layout
        placed = self.smem_layout(dst_address, direction)  # validates dst_address and the span
        dims = placed.shape[::-1]
        strides = [1]
        for d in dims[:-1]:
            strides.append(strides[-1] * d)
        inner = Layout(tuple(dims), tuple(strides)) if len(dims) > 1 else Layout(dims[0], 1)
        return ComposedLayout(_MODE_INFO[self.swizzle].byte_map, int(dst_address), inner)


@dataclass(frozen=True, kw_only=True)
class Im2colTensorMap(_TensorMapBase):
    """The parameters of ``cuTensorMapEncodeIm2col``.

    ``pixel_box_lower_corner`` / ``pixel_box_upper_corner`` have ``tensor_rank - 2`` entries, in the
    order of ``global_dim[1:-1]`` (W, H, D for an NDHWC tensor, innermost first: the order CUTLASS
    passes them in). The box along spatial dimension i spans
    ``global_dim[i+1] + upper[i] - lower[i]`` positions.

    >>> m = Im2colTensorMap(tensor_data_type="FLOAT16", global_dim=(64, 9, 9, 2),
    ...                     global_strides=(128, 1152, 10368), pixel_box_lower_corner=(-1, -1),
    ...                     pixel_box_upper_corner=(-1, -1), channels_per_pixel=64, pixels_per_column=128,
    ...                     swizzle="128B")
    >>> m.violations()
    []
    """

    _FUNCTION = IM2COL

    tensor_data_type: Any
    global_dim: Sequence[int]
    global_strides: Sequence[int]
    pixel_box_lower_corner: Sequence[int]
    pixel_box_upper_corner: Sequence[int]
    channels_per_pixel: int
    pixels_per_column: int
    tensor_rank: int | None = None
    global_address: int = 0
    element_strides: Sequence[int] | None = None
    interleave: Any = Interleave.NONE
    swizzle: Any = TmaSwizzle.NONE
    l2_promotion: Any = L2Promotion.NONE
    oob_fill: Any = OobFill.NONE

    def __post_init__(self) -> None:
        self._normalise_common()
        set_ = object.__setattr__
        set_(
            self,
            "pixel_box_lower_corner",
            _check_int_seq(IM2COL, "pixelBoxLowerCorner", self.pixel_box_lower_corner),
        )
        set_(
            self,
            "pixel_box_upper_corner",
            _check_int_seq(IM2COL, "pixelBoxUpperCorner", self.pixel_box_upper_corner),
        )
        set_(self, "channels_per_pixel", _check_int(IM2COL, "channelsPerPixel", self.channels_per_pixel))
        set_(self, "pixels_per_column", _check_int(IM2COL, "pixelsPerColumn", self.pixels_per_column))

    def _specific(self, c: _Checker, direction: str) -> None:
        self._check_rank_and_lengths(c)
        rank = self.tensor_rank
        lo, up = self.pixel_box_lower_corner, self.pixel_box_upper_corner
        corners_ok = rank in _CORNER_RANGE and len(lo) == rank - 2 and len(up) == rank - 2
        if rank in _CORNER_RANGE and not corners_ok:
            c.add(
                "length.pixel_box_corners",
                f"len(pixelBoxLowerCorner)={len(lo)}, len(pixelBoxUpperCorner)={len(up)}, tensorRank - "
                f"2={rank - 2}",
            )
        self._check_global(c)
        if rank in _CORNER_RANGE:
            a, b = _CORNER_RANGE[rank]
            bad = _bad(lo, "pixelBoxLowerCorner", lambda v: a <= v <= b) + _bad(
                up, "pixelBoxUpperCorner", lambda v: a <= v <= b
            )
            if bad:
                c.add("pixel_box.range", f"tensorRank={rank} allows [{a}, {b}]: " + ", ".join(bad))
        if corners_ok and len(self.global_dim) == rank:
            extents = [self.global_dim[i + 1] + up[i] - lo[i] for i in range(rank - 2)]
            if any(e <= 0 for e in extents):
                parts = [
                    f"globalDim[{i + 1}] + upper[{i}] - lower[{i}] = {self.global_dim[i + 1]} + {up[i]} - "
                    f"{lo[i]} = {e}"
                    for i, e in enumerate(extents)
                ]
                c.add("pixel_box.nonzero_area", "; ".join(parts))
        self._check_channels_pixels(c, check_pixels=True)
        self._check_element_strides(c)
        self._check_inner_span(c, "channelsPerPixel", self.channels_per_pixel)
        self._check_types_and_modes(c, direction)


@dataclass(frozen=True, kw_only=True)
class Im2colWideTensorMap(_TensorMapBase):
    """The parameters of ``cuTensorMapEncodeIm2colWide`` (sm_100+): im2col along W only.

    The box along W spans ``global_dim[1] + pixel_box_upper_corner_width - pixel_box_lower_corner_width``
    positions (D and H extents are 1). ``pixels_per_column`` is ignored in mode W128.

    >>> m = Im2colWideTensorMap(tensor_data_type="FLOAT16", global_dim=(128, 9, 7, 64),
    ...                         global_strides=(256, 2304, 16128), pixel_box_lower_corner_width=0,
    ...                         pixel_box_upper_corner_width=0, channels_per_pixel=64, pixels_per_column=128,
    ...                         mode="W", swizzle="128B")
    >>> m.violations()
    []
    """

    _FUNCTION = IM2COL_WIDE

    tensor_data_type: Any
    global_dim: Sequence[int]
    global_strides: Sequence[int]
    pixel_box_lower_corner_width: int
    pixel_box_upper_corner_width: int
    channels_per_pixel: int
    pixels_per_column: int
    mode: Any = Im2colWideMode.W
    tensor_rank: int | None = None
    global_address: int = 0
    element_strides: Sequence[int] | None = None
    interleave: Any = Interleave.NONE
    swizzle: Any = TmaSwizzle.B128
    l2_promotion: Any = L2Promotion.NONE
    oob_fill: Any = OobFill.NONE

    def __post_init__(self) -> None:
        self._normalise_common()
        fn = IM2COL_WIDE
        set_ = object.__setattr__
        set_(self, "mode", Im2colWideMode.parse(self.mode))
        set_(
            self,
            "pixel_box_lower_corner_width",
            _check_int(fn, "pixelBoxLowerCornerWidth", self.pixel_box_lower_corner_width),
        )
        set_(
            self,
            "pixel_box_upper_corner_width",
            _check_int(fn, "pixelBoxUpperCornerWidth", self.pixel_box_upper_corner_width),
        )
        set_(self, "channels_per_pixel", _check_int(fn, "channelsPerPixel", self.channels_per_pixel))
        set_(self, "pixels_per_column", _check_int(fn, "pixelsPerColumn", self.pixels_per_column))

    def _specific(self, c: _Checker, direction: str) -> None:
        self._check_rank_and_lengths(c)
        self._check_global(c)
        lo, up = self.pixel_box_lower_corner_width, self.pixel_box_upper_corner_width
        bad = [
            f"{n}={v}"
            for n, v in (("pixelBoxLowerCornerWidth", lo), ("pixelBoxUpperCornerWidth", up))
            if not -32768 <= v <= 32767
        ]
        if bad:
            c.add("pixel_box_width.range", ", ".join(bad))
        if len(self.global_dim) >= 2:
            w = self.global_dim[1] + up - lo
            if w <= 0:
                c.add(
                    "pixel_box_width.nonzero_area",
                    f"globalDim[1] + upper - lower = {self.global_dim[1]} + {up} - {lo} = {w}",
                )
        self._check_channels_pixels(c, check_pixels=self.mode is Im2colWideMode.W)
        self._check_element_strides(c)
        self._check_inner_span(c, "channelsPerPixel", self.channels_per_pixel)
        self._check_types_and_modes(c, direction)
