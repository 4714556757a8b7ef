"""F2 (XOR) strides: a stride scalar whose ``+`` is XOR and whose ``*`` is carry-less.

A layout with F2 strides (PyCuTe's ``F2``) maps a coordinate to the XOR of the carry-less
products ``c_i * d_i``: ``(4,8):(F1,F8)`` maps ``(2, 1)`` to ``2 ^ 8 == 10``. Over power-of-two
shapes this is exactly an F2-linear map of the index bits, the same object as a
:class:`~pycute_layouts.core.swizzle.XorSwizzle` or a Triton linear layout, written as an
ordinary layout so that it prints, slices and composes like one. Evaluating such a layout gives
a plain ``int`` (the offset); the integer 0 is the zero of every stride type.

>>> F2(0b1010) + F2(0b1100), 3 * F2(0b1010), F2(0b11) * 3
(F2(6), F2(30), F2(5))
>>> str(F2(9))
'F9'
"""

from __future__ import annotations

from typing import Any

from ..errors import LayoutTypeError, LayoutValueError
from ..limits import check_count, fmt

__all__ = ["F2", "clmul", "is_pow2"]


def clmul(a: int, b: int) -> int:
    """Carry-less product of two non-negative ints (polynomials over F2).

    Pre:  a and b are ints >= 0 of at most MAX_INT_DIGITS digits (LayoutTypeError/LayoutValueError otherwise:
          a negative b has infinitely many bits, so the product is never done).

    >>> clmul(3, 3), clmul(4, 5)
    (5, 20)
    """
    return _clmul(check_count("clmul", "a", a, 0), check_count("clmul", "b", b, 0))


def _clmul(a: int, b: int) -> int:
    r = 0
    while b:
        if b & 1:
            r ^= a
        a <<= 1
        b >>= 1
    return r


def is_pow2(n: Any) -> bool:
    """True for a positive int power of two.

    >>> is_pow2(8), is_pow2(6), is_pow2(1)
    (True, False, True)
    """
    return type(n) is int and n > 0 and not n & (n - 1)


class F2:
    """An F2 stride: a non-negative int whose addition is XOR and whose product is carry-less.

    Pre:  value is an int >= 0.
    Post: F2(a) + F2(b) == F2(a ^ b); k * F2(a) == F2(clmul(k, a)) for an int k >= 0.

    F2 values compare by their bits (``F2(3) < F2(5)``, ``F2(3) < 4``); ``F2(0) == 0`` (the zero
    stride fits every kind), while ``F2(v) != v`` for ``v != 0`` (an XOR stride is not an integer one).

    >>> F2(5) + F2(5), F2(1) * 8, int(F2(7))
    (0, F2(8), 7)
    >>> F2(0) == 0, F2(3) == 3, F2(3) < F2(5)
    (True, False, True)
    """

    __slots__ = ("value",)

    def __init__(self, value: int):
        if type(value) is not int:
            raise LayoutValueError(f"F2: the value must be an int >= 0, got {fmt(value)}")
        self.value = check_count("F2", "the value", value, 0)

    def __int__(self) -> int:
        return self.value

    def __index__(self) -> int:
        return self.value

    def __add__(self, other: Any) -> Any:
        if type(other) is F2:
            v = self.value ^ other.value
            return F2(v) if v else 0
        if type(other) is int:
            if other == 0:
                return self
            raise LayoutTypeError(
                f"F2: cannot add the integer {other} to the XOR stride {self} (strides of one layout are all "
                "integers or all F2; 0 fits both)"
            )
        return NotImplemented

    __radd__ = __add__
    __sub__ = __add__
    __rsub__ = __add__

    def __neg__(self) -> F2:
        return self

    def __mul__(self, other: Any) -> Any:
        if type(other) is F2:
            k = other.value
        elif type(other) is int:
            if other < 0:
                raise LayoutValueError(f"F2: a carry-less product needs a factor >= 0, got {other}")
            k = other
        else:
            return NotImplemented
        v = _clmul(self.value, k)
        return F2(v) if v else 0

    __rmul__ = __mul__

    def __eq__(self, other: object) -> bool:
        if type(other) is F2:
            return other.value == self.value
        return self.value == 0 and type(other) is int and other == 0  # F2(0) is the zero stride 0

    def __hash__(self) -> int:
        return hash(0) if self.value == 0 else hash(("F2", self.value))

    def _cmp_value(self, other: Any) -> Any:
        if type(other) is F2:
            return other.value
        if type(other) is int:
            return other
        return None

    def __lt__(self, other: Any) -> Any:
        v = self._cmp_value(other)
        return NotImplemented if v is None else self.value < v

    def __le__(self, other: Any) -> Any:
        v = self._cmp_value(other)
        return NotImplemented if v is None else self.value <= v

    def __gt__(self, other: Any) -> Any:
        v = self._cmp_value(other)
        return NotImplemented if v is None else self.value > v

    def __ge__(self, other: Any) -> Any:
        v = self._cmp_value(other)
        return NotImplemented if v is None else self.value >= v

    def __str__(self) -> str:
        return f"F{self.value}"

    def __repr__(self) -> str:
        return f"F2({self.value})"

    def __reduce__(self):
        return (F2, (self.value,))
