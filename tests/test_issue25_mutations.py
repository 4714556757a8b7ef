"""Behaviours that a mutation of the code could change with every other test still passing.

Each test pins one behaviour by its value (and a law where there is one): subtraction with a
basis stride on the right, ``is_pow2`` at 0 and below, negative offsets into a Tensor's engine,
and the offset ``recast_tensor`` rescales.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pycute_layouts import (
    CoordinateError,
    E,
    Layout,
    LayoutTypeError,
    LayoutValueError,
    ScaledBasis,
    Tensor,
    _,
    make_identity_layout,
    make_tensor,
    recast_tensor,
)
from pycute_layouts.core.f2 import is_pow2

# ------------------------------------------------------------------ n - E(i): the basis on the right


def test_zero_minus_a_basis_is_its_negation() -> None:
    assert 0 - E(0) == ScaledBasis(((0,), -1))
    assert 0 - 3 * E(1) == ScaledBasis(((1,), -3))
    assert str(0 - E(1, 0)) == "-1@0@1"
    # not the other order: E(0) - 0 is +1@0
    assert E(0) - 0 == E(0) and 0 - E(0) != E(0)


@given(st.integers(-5, 5), st.integers(-5, 5), st.integers(0, 2), st.integers(0, 2))
def test_basis_subtraction_is_antisymmetric(a: int, b: int, i: int, j: int) -> None:
    x = a * E(i) if a else 0
    y = b * E(j) if b else 0
    assert x - y == -(y - x)
    assert (x - y) + y == x


def test_a_nonzero_integer_minus_a_basis_is_refused() -> None:
    with pytest.raises(LayoutTypeError, match="cannot add the integer 4"):
        4 - E(0)
    with pytest.raises(LayoutTypeError):
        E(0) - 4


def test_a_layout_with_a_subtracted_basis_stride_counts_down() -> None:
    L = Layout((4, 3), (0 - E(0), E(1)))
    assert L(1, 2) == (-1, 2) and L(3, 0) == (-3, 0)
    ident = make_identity_layout((4, 3))
    assert all(tuple(-v if k == 0 else v for k, v in enumerate(ident(i))) == L(i) for i in range(12))


# ------------------------------------------------------------------ is_pow2 in the F2 code


@pytest.mark.parametrize("n, expected", [(0, False), (-1, False), (-2, False), (-8, False), (1, True), (2, True),
                                         (3, False), (6, False), (1 << 40, True), ((1 << 40) + 1, False)])
def test_is_pow2(n: int, expected: bool) -> None:
    assert is_pow2(n) is expected


@given(st.integers(-(1 << 20), 1 << 20))
def test_is_pow2_law(n: int) -> None:
    assert is_pow2(n) == (n > 0 and bin(n).count("1") == 1)


def test_is_pow2_rejects_non_ints() -> None:
    assert not is_pow2(True) and not is_pow2(2.0) and not is_pow2("2")


# ------------------------------------------------------------------ negative offsets into a Tensor's engine


def test_a_negative_engine_offset_is_refused_not_read_from_the_end() -> None:
    T = make_tensor(np.arange(8), Layout(4, -1))
    assert T(0) == 0
    with pytest.raises(CoordinateError, match="offset -1 is outside the engine of 8 elements"):
        T(1)  # numpy would silently give engine[-1] == 7


def test_a_reversed_view_with_a_base_offset_reads_backwards() -> None:
    T = Tensor(np.arange(8) * 10, Layout(4, -1), 3)
    assert [T(i) for i in range(4)] == [30, 20, 10, 0]
    with pytest.raises(CoordinateError):
        T(4)
    with pytest.raises(CoordinateError, match="offset 8 is outside"):
        Tensor(np.arange(8), Layout(2, 4), 4)(1)


# ------------------------------------------------------------------ recast_tensor rescales the offset


def test_recast_of_a_sliced_tensor_rescales_its_offset() -> None:
    T = make_tensor(np.arange(16, dtype=np.uint16), Layout((2, 8), (8, 1)))
    row1 = T(1, _)
    assert row1.offset == 8 and row1(0) == 8
    R = recast_tensor(row1, np.uint32)
    assert R.offset == 4 and str(R.layout) == "4:1"
    assert R(0) == 8 | (9 << 16) and R(3) == 14 | (15 << 16)
    D = recast_tensor(R, np.uint16)  # and back: the offset is 8 again
    assert D.offset == 8 and [D(i) for i in range(8)] == list(range(8, 16))


@given(st.integers(0, 7))
def test_recast_law_same_bytes(row: int) -> None:
    eng = np.arange(64, dtype=np.uint8)
    T = make_tensor(eng, Layout((8, 8), (8, 1)))(row, _)
    R = recast_tensor(T, np.uint16)
    assert R.offset * 2 == T.offset
    assert R.to_numpy().tobytes() == T.to_numpy().tobytes()


def test_recast_refuses_an_offset_that_does_not_divide() -> None:
    T = make_tensor(np.arange(16, dtype=np.uint8), Layout((4, 4), (4, 1)))(_, 1)
    assert T.offset == 1
    with pytest.raises(LayoutValueError, match="offset 1 x 8 bits is not a multiple of 16 bits"):
        recast_tensor(T, np.uint16)
