"""TMA enums: the ``CUtensorMap*`` parameter vocabularies other than the swizzle mode, and the data types.

The swizzle mode is :class:`pycute_layouts.arch.swizzle_modes.SwizzleMode` (one vocabulary for
wgmma, tcgen05 and TMA). Sources: the CUDA driver API section "Tensor Map Object Management"
(reference ``002_*.txt``).

>>> TensorDataType.parse("bfloat16").bits, Interleave.parse("32B")
(16, <Interleave.B32: 2>)
"""

from __future__ import annotations

from enum import Enum, IntEnum
from fractions import Fraction
from typing import Any, Literal

import numpy as np

from ...errors import TensorMapError
from ...limits import check_count, check_sequence, check_type, fmt
from ..swizzle_modes import CheckedEnumMeta

__all__ = [
    "TensorDataType",
    "Interleave",
    "L2Promotion",
    "OobFill",
    "Im2colWideMode",
    "element_size_bits",
    "TILED",
    "IM2COL",
    "IM2COL_WIDE",
    "ALL_FUNCTIONS",
    "ARCHS",
    "Direction",
    "check_int",
    "check_int_seq",
    "fmt_number",
]

TILED = "cuTensorMapEncodeTiled"
IM2COL = "cuTensorMapEncodeIm2col"
IM2COL_WIDE = "cuTensorMapEncodeIm2colWide"
ALL_FUNCTIONS = (TILED, IM2COL, IM2COL_WIDE)

Direction = Literal["load", "store"]


# ---------------------------------------------------------------------------------------------
# Enums
# ---------------------------------------------------------------------------------------------

# Driver-name prefix, and the driver's suffix (our "short name") where it differs from the member name.
_PREFIX: dict[str, str] = {
    "TensorDataType": "CU_TENSOR_MAP_DATA_TYPE_",
    "Interleave": "CU_TENSOR_MAP_INTERLEAVE_",
    "L2Promotion": "CU_TENSOR_MAP_L2_PROMOTION_",
    "OobFill": "CU_TENSOR_MAP_FLOAT_OOB_FILL_",
    "Im2colWideMode": "CU_TENSOR_MAP_IM2COL_WIDE_MODE_",
}
_SUFFIX: dict[str, dict[str, str | None]] = {
    "TensorDataType": {
        "U4x16_ALIGN8B": "16U4_ALIGN8B",
        "U4x16_ALIGN16B": "16U4_ALIGN16B",
        "U6x16_ALIGN16B": "16U6_ALIGN16B",
    },
    "Interleave": {"NONE": "NONE", "B16": "16B", "B32": "32B"},
}
# Extra accepted spellings (upper case) -> member name.
_ALIASES: dict[str, dict[str, str]] = {
    "L2Promotion": {"64B": "L2_64B", "128B": "L2_128B", "256B": "L2_256B"},
}


class _DriverEnum(IntEnum, metaclass=CheckedEnumMeta):
    """Common behaviour of the driver enums: names, and :meth:`parse`."""

    @property
    def short_name(self) -> str:
        """The driver's name without its prefix ("16U4_ALIGN8B", "L2_128B").

        >>> TensorDataType.U4x16_ALIGN8B.short_name
        '16U4_ALIGN8B'
        """
        return _SUFFIX.get(type(self).__name__, {}).get(self.name, self.name)

    @property
    def driver_name(self) -> str:
        """The driver's full enumerator name.

        >>> Interleave.B32.driver_name
        'CU_TENSOR_MAP_INTERLEAVE_32B'
        """
        return _PREFIX[type(self).__name__] + self.short_name

    @classmethod
    def _missing_(cls, value: Any) -> _DriverEnum:
        """``Enum(v)`` for a value that names no enumerator: TensorMapError listing the values."""
        raise TensorMapError(f"{cls.__name__}: {fmt(value)} is not a value of the enum; {cls._allowed_text()}"[:400])

    @classmethod
    def _allowed_text(cls) -> str:
        items = []
        for m in cls:
            items.append(f"{m.name}={int(m)} ('{m.short_name}', {m.driver_name})")
        return "; ".join(items)

    @classmethod
    def parse(cls, value: Any) -> Any:
        """The member named or numbered by ``value``.

        Pre: ``value`` is a member, an int, or a string.
        Post: the member; TensorMapError listing the allowed values otherwise.

        Accepts the member itself, its integer value, the driver's full name
        ("CU_TENSOR_MAP_INTERLEAVE_32B"), the short name ("32B", "none") or the Python member name,
        case-insensitively. (Swizzle modes are :meth:`SwizzleMode.parse`'s.)

        >>> Interleave.parse("CU_TENSOR_MAP_INTERLEAVE_32B"), Interleave.parse("none"), Interleave.parse(1)
        (<Interleave.B32: 2>, <Interleave.NONE: 0>, <Interleave.B16: 1>)
        """
        name = cls.__name__
        if isinstance(value, cls):
            return value
        if isinstance(value, Enum):
            raise TensorMapError(
                f"{name}.parse: got {type(value).__name__}.{value.name}, a member of another enum; "
                f"allowed values: {cls._allowed_text()}"
            )
        if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
            try:
                return cls(int(value))
            except ValueError:
                raise TensorMapError(
                    f"{name}.parse: {fmt(int(value))} is not a {name} value; allowed values: {cls._allowed_text()}"
                ) from None
        if isinstance(value, str):
            key = value.strip().upper()
            prefix = _PREFIX[name]
            full = key.startswith(prefix)
            if full:
                key = key[len(prefix) :]
            for m in cls:
                if key in (m.short_name.upper(), m.name.upper()):
                    return m
            alias = _ALIASES.get(name, {}).get(key)
            if alias is not None and not full:
                return cls[alias]
        raise TensorMapError(f"{name}.parse: cannot parse {fmt(value)}; allowed values: {cls._allowed_text()}")


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

        The driver documentation does not say so; see docs/hardware-validation.md (facts behind the
        arch/ docstrings).

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

    Pre: ``data_type`` is anything ``TensorDataType.parse`` accepts.
    Post: the element size in bits (4 or 6 for the packed types).

    >>> element_size_bits("FLOAT16"), element_size_bits("CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B")
    (16, 6)
    """
    return TensorDataType.parse(data_type).bits


def check_int(who: str, name: str, value: Any, lo: int | None = None, hi: int | None = None) -> int:
    """``value`` as an int in ``[lo, hi]``, or TensorMapError naming ``who`` and ``name``.

    Pre: ``who``/``name`` are the caller's and the parameter's names.
    Post: ``int(value)``, which is within the bounds given.

    >>> check_int("f", "n", 3, lo=0)
    3
    """
    return check_count(who, name, value, lo, hi, TensorMapError)


def check_int_seq(who: str, name: str, value: Any) -> tuple[int, ...]:
    """``value`` as a tuple of ints, or TensorMapError naming ``who``, ``name`` and the bad item.

    Pre: ``value`` is a sequence (not a string) of integers.
    Post: the tuple of their ``int`` values.

    >>> check_int_seq("f", "dims", [1, 2])
    (1, 2)
    """
    items = check_sequence(who, name, value, error=TensorMapError, items="integers")
    return tuple(check_count(who, f"{name}[{i}]", v, None, None, TensorMapError) for i, v in enumerate(items))


def fmt_number(x: Fraction | int) -> str:
    """A byte count for messages: the integer, or the float of a non-integral Fraction.

    Pre: ``x`` is an int or a Fraction. Post: its text.

    >>> fmt_number(Fraction(3, 4)), fmt_number(8)
    ('0.75', '8')
    """
    check_type("fmt_number", "x", x, (int, Fraction, np.integer), TensorMapError)
    f = Fraction(x)
    return fmt(f.numerator) if f.denominator == 1 else repr(float(f))
