"""right_inverse / left_inverse of layouts with F2 (XOR) strides (issue 25: F2-valued strides).

CuTe C++ has no F2 strides; the values are NVIDIA PyCuTe's (its test_inverse_right.py /
test_inverse_left.py cases), and every result is checked against the law it promises, point by point.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pycute_layouts import F2, AdmissibilityError, Layout, LayoutError, left_inverse, right_inverse, size
from pycute_layouts.core.f2 import clmul

# PyCuTe's test_right_inverse_f2 inputs
PYCUTE_CASES = [
    Layout(8, F2(0)), Layout(8, F2(1)), Layout(8, F2(2)), Layout(8, F2(3)),
    Layout((4, 8), (F2(1), F2(4))), Layout((4, 8), (F2(1), 0)), Layout((4, 8), (0, F2(1))),
    Layout((4, 4), (F2(1), F2(1))), Layout((8, 8), (F2(1), F2(9))), Layout((8, 8), (F2(9), F2(1))),
    Layout((4, 4), (F2(1), F2(5))), Layout((4, (4, 3)), (F2(1), (F2(5), F2(16)))),
    Layout((8, 8), (F2(1), F2(13))),
]


def _right_law(L: Layout, R: Layout) -> None:
    for i in range(size(R)):
        x = R(i)
        assert type(x) is int and 0 <= x < size(L), (L, R, i, x)
        assert L(x) == i, (L, R, i)


@pytest.mark.parametrize("L", PYCUTE_CASES, ids=str)
def test_right_inverse_law_on_pycute_cases(L: Layout) -> None:
    R = right_inverse(L)
    _right_law(L, R)
    assert all(type(d) is F2 for d in R.flat_modes()[1]) or R == Layout(1, 0)


def test_right_inverse_pycute_values() -> None:
    # PyCuTe: an involution, its swap, the largest (whole domain), and the residue that leaks (stops at 8)
    assert right_inverse(Layout((8, 8), (F2(1), F2(9)))) == Layout((8, 8), (F2(1), F2(9)))
    assert right_inverse(Layout((4, 4), (F2(1), F2(5)))) == Layout((4, 4), (F2(1), F2(5)))
    assert right_inverse(Layout((8, 8), (F2(9), F2(1)))) == Layout((8, 8), (F2(8), F2(9)))
    for L in [Layout((8, 8), (F2(1), F2(9))), Layout((8, 8), (F2(9), F2(1))), Layout((4, 4), (F2(1), F2(5))),
              Layout((4, (4, 3)), (F2(1), (F2(5), F2(16))))]:
        assert size(right_inverse(L)) == size(L)
    assert size(right_inverse(Layout((8, 8), (F2(1), F2(13))))) == 8  # 2*F13 = 26 leaves the covered [0, 8)
    assert right_inverse(Layout((4, 8), (F2(1), F2(4)))) == Layout(32, F2(1))
    assert right_inverse(Layout(8, F2(2))) == Layout(1, 0)  # no index maps to 1
    assert right_inverse(Layout((4, 8), (0, F2(1)))) == Layout(8, F2(4))


def test_right_inverse_by_hand() -> None:
    # (8,8):(F9,F1): L(i0, i1) = 9(x)i0 ^ i1 = (i0 << 3) ^ i0 ^ i1. R(8k) must give i0 = k, i1 = k: 9(x)k
    R = right_inverse(Layout((8, 8), (F2(9), F2(1))))
    assert [R(8 * k) for k in range(8)] == [clmul(9, k) for k in range(8)]
    assert [R(k) for k in range(8)] == [8 * k for k in range(8)]


def test_left_inverse_values_and_law() -> None:
    # PyCuTe's test_left_inverse_f2 inputs
    for L in [Layout(8, F2(1)), Layout((4, 8), (F2(1), F2(4)))]:
        R = left_inverse(L)
        assert all(R(L(i)) == i for i in range(size(L)))
    # bijections onto [0, 64): the left inverse is the right one (PyCuTe refuses these: a difference)
    for L in [Layout((8, 8), (F2(1), F2(9))), Layout((4, 4), (F2(1), F2(5))), Layout((8, 8), (F2(9), F2(1)))]:
        R = left_inverse(L)
        assert all(R(L(i)) == i for i in range(size(L)))
    # broadcast modes: one preimage, as for integer strides
    L = Layout((4, 8, 3), (F2(1), F2(4), 0))
    R = left_inverse(L)
    assert all(L(R(L(i))) == L(i) for i in range(size(L)))


@pytest.mark.parametrize("L", [Layout(8, F2(2)), Layout((8, 8), (F2(1), F2(13))), Layout(4, F2(3)),
                               Layout((4, 4), (F2(1), F2(1)))], ids=str)
def test_left_inverse_refuses_gaps(L: Layout) -> None:
    with pytest.raises(AdmissibilityError, match="left_inverse"):
        left_inverse(L)


def test_symbolic_shape_with_f2_is_refused() -> None:
    import sympy

    n = sympy.Symbol("n", positive=True, integer=True)
    with pytest.raises(LayoutError):
        right_inverse(Layout((4, n), (F2(1), F2(4))))


_pow2 = st.sampled_from([1, 2, 4, 8])


@st.composite
def f2_layouts(draw: st.DrawFn) -> Layout:
    r = draw(st.integers(1, 3))
    shape = tuple(draw(_pow2) for _ in range(r))
    stride = tuple(F2(draw(st.integers(0, 40))) for _ in range(r))
    return Layout(shape, stride) if r > 1 else Layout(shape[0], stride[0])


@given(f2_layouts())
def test_right_inverse_law(L: Layout) -> None:
    R = right_inverse(L)
    _right_law(L, R)


@given(f2_layouts())
def test_right_inverse_is_maximal_along_the_chain(L: Layout) -> None:
    """No F1-continuation is missed: the next index past R's size has no preimage that R's law extends to,
    or R already covers the whole domain. (Checked: if L is a bijection onto [0, size(L)) built from modes
    with exact power-of-two strides, R covers everything.)"""
    R = right_inverse(L)
    fs, fd = L.flat_modes()
    ints = sorted(int(d) for d, s in zip(fd, fs) if s > 1)
    exact = all(type(d) is F2 for d in fd) and all(s > 1 for s in fs)
    if exact and ints == [p for p in ints if p & (p - 1) == 0]:
        image = sorted(L(i) for i in range(size(L)))
        if image == list(range(size(L))):
            assert size(R) == size(L)


@given(f2_layouts())
def test_left_inverse_law_or_refusal(L: Layout) -> None:
    try:
        R = left_inverse(L)
    except AdmissibilityError:
        return
    assert all(L(R(L(i))) == L(i) for i in range(size(L)))


def _coordinate_post(L: Layout, R: Layout) -> None:
    """L(R(i)) is the coordinate i names in R's modes (one per component of L's codomain), for every i < size(R)."""
    modes = [size(R[k]) for k in range(R.rank())] if isinstance(R.shape, tuple) else [size(R)]
    for i in range(size(R)):
        want, q = [], i
        for m in modes:
            want.append(q % m)
            q //= m
        got = L(R(i))
        assert (got if isinstance(got, tuple) else (got,)) == tuple(want), (L, R, i)


def test_right_inverse_of_basis_strides_with_f2_coefficients():
    """PyCuTe's F2-valued coordinate axes: per component the F2 chain; an integer component read in F2."""
    from pycute_layouts import E
    cases = {
        Layout(4, F2(1) * E(0)): "(4):(F1)",
        Layout((8, 8), (F2(1) * E(0), F2(9) * E(0))): "((8,8)):((F1,F9))",
        Layout((8, 8), (F2(1) * E(0), F2(1) * E(1))): "(8,8):(F1,F8)",
        Layout((8, 8), (F2(1) * E(0), E(1))): "(8,8):(F1,F8)",   # PyCuTe: (8,8):(F1,8), whose R(8) raises
        Layout((4, 8), (F2(1) * E(0), F2(4) * E(0))): "(32):(F1)",  # a bijection: the whole domain
        Layout((2, 4, 8), (F2(1) * E(1), F2(1) * E(0), F2(2) * E(1))): "(4,(2,8)):(F2,(F1,F8))",
    }
    for L, want in cases.items():
        R = right_inverse(L)
        assert str(R) == want, (L, R)
        _coordinate_post(L, R)


@given(st.lists(st.tuples(st.sampled_from([1, 2, 4, 8]), st.sampled_from([0, 1, 2, 3, 4, 5, 8, 9, -1, -2, -4]),
                          st.integers(0, 1)), min_size=1, max_size=3))
def test_right_inverse_of_f2_coordinate_layouts_law(modes) -> None:
    from pycute_layouts import E
    s = tuple(m[0] for m in modes)
    d = tuple(0 if m[1] == 0 else (F2(m[1]) * E(m[2]) if m[1] > 0 else -m[1] * E(m[2])) for m in modes)
    try:
        L = Layout(s, d) if len(s) > 1 else Layout(s[0], d[0])
    except LayoutError:
        return
    if L.coord_profile() is None:
        return
    try:
        R = right_inverse(L)
    except LayoutError:
        return
    _coordinate_post(L, R)
