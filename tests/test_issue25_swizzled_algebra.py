"""The algebra through swizzled operands, as CuTe C++ has it (swizzle_layout.hpp, layout_composed.hpp).

composition(L, Sw o k o L'), composition(L, Swizzle), composition(Swizzle, L), right_inverse and
left_inverse of swizzled and composed layouts, max_common_layout / max_common_vector between a
swizzled layout and a plain one: CuTe C++ cases (compiled for the host, compared value by value)
and hypothesis laws.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from oracles import CuteBatch, composed_cxx, layout_cxx, normalize, parse_values, skip_without_cxx, swizzle_cxx

from pycute_layouts import (
    AdmissibilityError,
    ComposedLayout,
    Layout,
    LayoutValueError,
    Swizzle,
    SwizzledSmemLayout,
    XorSwizzle,
    _,
    composition,
    left_inverse,
    max_common_layout,
    max_common_vector,
    right_inverse,
)

# GMMA-style atoms (element offsets) and tiles of them
ATOMS = [
    ((3, 3, 3), (8, 64), (64, 1)),
    ((2, 3, 3), (8, 32), (32, 1)),
    ((1, 3, 3), (8, 16), (16, 1)),
    ((3, 3, 3), (64, 8), (1, 64)),
    ((3, 4, 3), (8, 128), (128, 1)),
    ((2, 2, 3), ((8, 2), 16), ((16, 128), 1)),
]


def _composed(sw, s, d, off=0) -> ComposedLayout:
    return ComposedLayout(Swizzle(*sw), off, Layout(s, d))


def _values(x) -> list[int]:
    return [int(v) for v in x.to_numpy()]


# ------------------------------------------------------------------ CuTe C++ cases


def _cases() -> list[tuple[str, object]]:
    cases: list[tuple[str, object]] = []
    for sw, s, d in ATOMS:
        C = _composed(sw, s, d)
        cc = composed_cxx(sw, s, d)
        n = C.size()
        # composition(L, Sw o 0 o L') for a compact L of the codomain and a row-major reshape
        for L in (Layout(n), Layout((n // 8, 8), (8, 1))):
            cases.append((f"values:composition({layout_cxx(L.shape, L.stride)}, {cc})", composition(L, C)))
        cases.append((f"values:right_inverse({cc})", right_inverse(C)))
        cases.append((f"values:left_inverse({cc})", left_inverse(C)))
        plain = Layout(s, d)
        pc = layout_cxx(s, d)
        cases.append((f"max_common_vector({cc}, {pc})", max_common_vector(C, plain)))
        cases.append((f"max_common_vector({pc}, {cc})", max_common_vector(plain, C)))
        cases.append((f"max_common_vector({cc}, {cc})", max_common_vector(C, C)))
        cases.append((f"max_common_layout({cc}, {pc})", max_common_layout(C, plain)))
        col = Layout(s)  # a column-major plain layout of the same shape
        cases.append((f"max_common_vector({cc}, {layout_cxx(col.shape)})", max_common_vector(C, col)))
        # composition(L, Swizzle) and composition(Swizzle, L)
        cases.append((f"values:composition({pc}, {swizzle_cxx(*sw)})", composition(plain, Swizzle(*sw))))
        cases.append((f"values:composition({swizzle_cxx(*sw)}, {pc})", composition(Swizzle(*sw), plain)))
    # two different swizzles
    a, b = _composed((3, 3, 3), (8, 64), (64, 1)), _composed((2, 3, 3), (8, 64), (64, 1))
    cases.append((f"max_common_vector({composed_cxx((3, 3, 3), (8, 64), (64, 1))}, "
                  f"{composed_cxx((2, 3, 3), (8, 64), (64, 1))})", max_common_vector(a, b)))
    # composition(L, Swizzle) where the layout moves the swizzle's bits: (8,64):(64,1) o Sw<3,3,3>
    cases.append((f"values:composition({layout_cxx((8, 64), (64, 1))}, {swizzle_cxx(3, 3, 3)})",
                  composition(Layout((8, 64), (64, 1)), Swizzle(3, 3, 3))))
    cases.append((f"values:composition({layout_cxx((8, 8), (8, 1))}, {swizzle_cxx(3, 0, 3)})",
                  composition(Layout((8, 8), (8, 1)), Swizzle(3, 0, 3))))
    return cases


@pytest.mark.oracle
def test_cute_cxx_agrees_on_the_algebra_through_swizzles() -> None:
    skip_without_cxx()
    cases = _cases()
    batch = CuteBatch()
    for expr, _ours in cases:
        if expr.startswith("values:"):
            batch.add_values(expr[len("values:"):])
        else:
            batch.add(expr)
    results = batch.run()
    for (expr, ours), res in zip(cases, results):
        assert isinstance(res, str), (expr, res)
        if expr.startswith("values:"):
            assert _values(ours) == parse_values(res), expr
        elif isinstance(ours, int):
            assert ours == int(normalize(res)), (expr, ours, res)
        else:
            assert str(ours) == normalize(res), (expr, str(ours), res)
    assert len(cases) == len(ATOMS) * 11 + 3


# ------------------------------------------------------------------ values a reader can check


def test_composition_with_a_swizzle_moves_it_onto_the_layouts_offsets() -> None:
    R = composition(Layout((8, 8), (8, 1)), Swizzle(3, 0, 3))
    assert str(R) == "Sw<3,0,-3> o 0 o (8,8):(8,1)"
    assert all(R(i) == Layout((8, 8), (8, 1))(Swizzle(3, 0, 3)(i)) for i in range(64))
    assert str(composition(Swizzle(3, 0, 3), Layout((8, 8), (8, 1)))) == "Sw<3,0,3> o 0 o (8,8):(8,1)"
    # the identity swizzle disappears, as CuTe's composition(Swizzle<0,M,S>, _0, L)
    assert composition(Swizzle(0, 4, 3), Layout(8)) == Layout(8)


def test_a_swizzle_that_does_not_pass_through_the_layout_is_refused() -> None:
    with pytest.raises(AdmissibilityError, match=r"a\(2\^2\) = 5 is not a single bit"):
        composition(Layout((4, 8), (1, 5)), Swizzle(2, 0, 2))


def test_general_masks_give_an_xor_swizzle() -> None:
    # CuTe's make_swizzle<Y,Z> static_asserts here; the map is still F2-linear, so an XorSwizzle holds it
    C = _composed((3, 3, 3), (8, 64), (64, 1))
    R = composition(Layout((16, 32), (32, 1)), C)
    assert isinstance(R.outer, XorSwizzle)
    L = Layout((16, 32), (32, 1))
    assert all(R(i) == L(C(i)) for i in range(512))


def test_inverses_of_a_swizzled_atom() -> None:
    C = _composed((3, 3, 3), (8, 64), (64, 1))
    R = right_inverse(C)
    assert str(R) == "Sw<3,0,-6> o 0 o (64,8):(8,1)"
    assert all(C(R(i)) == i for i in range(512))
    Li = left_inverse(C)
    assert all(Li(C(i)) == i for i in range(512))


def test_inverse_of_a_composed_layout_with_an_offset_is_refused() -> None:
    with pytest.raises(LayoutValueError, match="offset 8 is not 0"):
        right_inverse(_composed((3, 3, 3), (8, 64), (64, 1), off=8))


def test_inverse_and_vector_of_a_smem_layout_use_its_element_view() -> None:
    S = SwizzledSmemLayout(Swizzle(3, 4, 3), Layout((8, 64), (64, 1)), element_bits=16)
    R = right_inverse(S)
    assert all(S(R(i)) == i for i in range(512))
    assert max_common_vector(S, Layout((8, 64), (64, 1))) == 8  # 8 x 16 bits = the 16-byte unit Sw<3,4,3> keeps


def test_max_common_vector_is_limited_by_the_swizzle_and_the_offset() -> None:
    plain = Layout((8, 64), (64, 1))
    assert max_common_vector(_composed((3, 3, 3), (8, 64), (64, 1)), plain) == 8
    assert max_common_vector(_composed((3, 3, 3), (8, 64), (64, 1), off=4), plain) == 4
    assert max_common_vector(_composed((3, 4, 3), (8, 64), (64, 1)), plain) == 16
    assert str(max_common_layout(_composed((3, 3, 3), (8, 64), (64, 1)), plain)) == "8:8"


# ------------------------------------------------------------------ laws


@st.composite
def bit_layouts(draw, nbits: int = 9):
    """A compact layout whose modes are power-of-two bit groups in a random order: (2^a,2^b,...):(perm)."""
    parts: list[int] = []
    left = nbits
    while left:
        k = draw(st.integers(1, min(3, left)))
        parts.append(k)
        left -= k
    order = draw(st.permutations(range(len(parts))))
    strides = [0] * len(parts)
    acc = 1
    for j in order:
        strides[j] = acc
        acc <<= parts[j]
    return Layout(tuple(1 << k for k in parts), tuple(strides))


@st.composite
def swizzles(draw, nbits: int = 9):
    b = draw(st.integers(0, 3))
    s = draw(st.integers(max(b, 1), 4))
    m = draw(st.integers(0, max(0, nbits - b - s)))
    return Swizzle(b, m, s)


@given(bit_layouts(), swizzles(), bit_layouts())
def test_composition_law(a: Layout, sw: Swizzle, inner: Layout) -> None:
    B = ComposedLayout(sw, 0, inner)
    R = composition(a, B)
    assert all(R(i) == a(B(i)) for i in range(B.size()))
    R2 = composition(a, sw)
    assert all(R2(i) == a(sw(i)) for i in range(a.size()))


@given(swizzles(), bit_layouts())
def test_right_and_left_inverse_laws(sw: Swizzle, inner: Layout) -> None:
    L = ComposedLayout(sw, 0, inner)
    R = right_inverse(L)
    assert all(L(R(i)) == i for i in range(R.size()))
    Li = left_inverse(L)
    assert all(Li(L(i)) == i for i in range(L.size()))


@given(swizzles(), bit_layouts(), bit_layouts())
def test_max_common_vector_law(sw: Swizzle, inner: Layout, other: Layout) -> None:
    C = ComposedLayout(sw, 0, inner)
    n = max_common_vector(C, other)
    assert n == max_common_vector(other, C)
    # the first n indices of other's inverse are contiguous in both
    inv = right_inverse(other)
    assert all(C(inv(i)) == i and other(inv(i)) == i for i in range(n))
    common = max_common_layout(C, other)
    assert common.size() <= n
    assert all(C(common(i)) == i for i in range(common.size()))


def test_compositions_through_swizzles_are_exact_where_cute_refuses_or_assumes() -> None:
    # the cases tensor-layouts' tests/composed.py checks pointwise (facts, our own code)
    inner = composition(Swizzle(3, 0, 3), Layout((8, 8), (8, 1)))
    r = composition(Swizzle(1, 0, 3), inner)
    assert str(r) == "Sw<2,1,3> o 0 o (8,8):(8,1)"  # the two swizzles fused
    assert all(r(i) == Swizzle(1, 0, 3)(inner(i)) for i in range(64))
    cases = [
        (Layout((4, 4), (4, 1)), composition(Swizzle(3, 0, 3), Layout(16, 1))),
        (Layout(32, 2), ComposedLayout(Swizzle(2, 1, 3), 0, Layout(32, 1))),
        (Layout(32, 2), ComposedLayout(Swizzle(2, 1, 3), 4, Layout(32, 1))),
        # the swizzle does not pass through (4,4):(4,1) extended past its size: a o 0 o B is kept as it is
        (Layout((4, 4), (4, 1)), composition(Swizzle(3, 0, 3), Layout((8, 8), (8, 1)))),
    ]
    for a, b in cases:
        R = composition(a, b)
        assert all(R(i) == a(b(i)) for i in range(b.size())), (a, b, R)
    kept = composition(Layout((4, 4), (4, 1)), composition(Swizzle(3, 0, 3), Layout((8, 8), (8, 1))))
    sub, off = kept.slice_and_offset(2, _)
    assert off == 0 and all(sub(j) == kept(2, j) for j in range(8))
    C = ComposedLayout(Swizzle(2, 1, 3), 0, Layout(32, 1))
    assert max_common_vector(C, Layout(32, 1)) == 2
    common = max_common_layout(C, Layout(32, 1))
    assert common.size() == 2 and all(C(common(i)) == i for i in range(2))
