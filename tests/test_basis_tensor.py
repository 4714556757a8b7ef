"""Basis (coordinate) strides, layout_add, greatest_common_domain, coalesce_z, nullspace and tensors.

Hand-worked cases cite their source: "CuTe C++" values were printed by CuTe 4.2 for the host
(also checked differentially below), "PyCuTe" the NVlabs/CuTe test files of the same name
(whitepaper arXiv:2603.02298, section 3 for the algebra), "CuTe docs" the CUTLASS media/docs.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from oracles import CuteBatch, normalize, skip_without_cxx

from pycute_layouts import (
    F2,
    AdmissibilityError,
    CoordinateError,
    E,
    Layout,
    LayoutTypeError,
    LayoutValueError,
    ScaledBasis,
    Swizzle,
    _,
    apply_at,
    coalesce,
    coalesce_z,
    complement,
    composition,
    elem_less,
    f2_layout,
    f2_layout_to_xor,
    flat_divide,
    greatest_common_domain,
    layout_add,
    left_inverse,
    local_partition,
    local_tile,
    logical_divide,
    make_identity_layout,
    make_identity_tensor,
    make_tensor,
    nullspace,
    parse,
    print_tensor,
    recast_tensor,
    right_inverse,
    tensor_divide,
    tiler_to_layout,
    zipped_divide,
)
from pycute_layouts import analysis as pl_analysis
from pycute_layouts.core.inttuple import idx2crd
from pycute_layouts.strategies import compact_layouts, shapes

L = parse

# ----------------------------------------------------------------------------------- basis strides


def test_basis_printing_as_cute() -> None:
    # CuTe C++: ScaledBasis<_2,1> prints _2@1; make_stride(E<0,1>{}, E<1>{}) prints (_1@1@0,_1@1)
    assert str(2 * E(1)) == "2@1"
    assert str(Layout((4, 8), (E(0, 1), E(1)))) == "(4,8):(1@1@0,1@1)"
    assert str(E(1) * 3) == "3@1"


def test_basis_arithmetic() -> None:
    assert E(0) + E(0) == 2 * E(0)
    assert E(0) - E(0) == 0
    assert (E(0) + E(1)).terms == (((0,), 1), ((1,), 1))
    assert E(0) * 0 == 0
    with pytest.raises(LayoutTypeError, match="cannot add the integer 3"):
        E(0) + 3
    with pytest.raises(LayoutValueError, match="all coefficients are 0"):
        ScaledBasis(((0,), 0))
    with pytest.raises(LayoutTypeError, match="path"):
        ScaledBasis(((), 1))


@pytest.mark.parametrize(
    "shape, text, index, coord",
    [
        # CuTe C++: make_identity_layout(Shape<_4,_8>) = (_4,_8):(_1@0,_1@1), (9) = (1,2)
        ((4, 8), "(4,8):(1@0,1@1)", 9, (1, 2)),
        # CuTe C++: make_identity_layout(Shape<Shape<_2,_3>,_4>) = ((_2,_3),_4):((_1@0@0,_1@1@0),_1@1), (7) = ((1,0),1)
        (((2, 3), 4), "((2,3),4):((1@0@0,1@1@0),1@1)", 7, ((1, 0), 1)),
        # CuTe's make_basis_like of an integer is 1: the identity of 8 is 8:1
        (8, "8:1", 5, 5),
    ],
)
def test_identity_layout(shape, text, index, coord) -> None:
    identity = make_identity_layout(shape)
    assert str(identity) == text
    assert identity(index) == coord
    assert parse(text) == identity
    assert [identity(i) for i in range(identity.size())] == [idx2crd(i, shape) for i in range(identity.size())]


@pytest.mark.parametrize(
    "expr, expected",
    [
        # all values: CuTe C++ 4.2 (see test_cute_cxx_agrees_on_basis_strides)
        ("composition(make_identity_layout((4, 8)), Layout((2, 4), (1, 8)))", "(2,4):(1@0,2@1)"),
        ("composition(make_identity_layout((4, 8)), Layout(32, 1))", "(4,8):(1@0,1@1)"),
        ("composition(make_identity_layout((4, 8)), Layout(8, 4))", "8:1@1"),
        ("logical_divide(make_identity_layout((8, 8)), (2, 4))", "((2,4),(4,2)):((1@0,2@0),(1@1,4@1))"),
        ("zipped_divide(make_identity_layout((8, 8)), (2, 4))", "((2,4),(4,2)):((1@0,1@1),(2@0,4@1))"),
        ("flat_divide(make_identity_layout((8, 8)), (2, 4))", "(2,4,4,2):(1@0,1@1,2@0,4@1)"),
        ("logical_divide(make_identity_layout((8, 8)), (Layout(2, 4), _))", "((2,4),8):((4@0,1@0),1@1)"),
        ("coalesce(make_identity_layout((4, 8)))", "(4,8):(1@0,1@1)"),
        ("coalesce(Layout((4, 8), (E(0), 4 * E(0))))", "32:1@0"),
        ("coalesce(Layout((2, 1), (E(0), E(1))))", "2:1@0"),
        ("coalesce(Layout((1, 1), (E(0), E(1))))", "1:0"),
        ("filter(Layout((4, 8), (E(0), 0)))", "4:1@0"),
        ("composition(Layout((4, 8), (8, 1)), make_identity_layout((4, 8)))", "(4,8):(8,1)"),
        ("composition(Layout((4, 8), (8, 1)), Layout(4, E(1)))", "4:1"),
        ("composition(Layout((4, 8), (8, 1)), Layout((2, 4), (2 * E(1), E(0))))", "(2,4):(2,8)"),
        ("make_identity_layout((4, 8))(_, 3)", "4:1@0"),
        ("local_partition(make_identity_tensor((16, 16)), Layout((4, 8)), 3).layout", "(4,2):(4@0,8@1)"),
        ("local_tile(make_identity_tensor((16, 16)), (4, 8), (1, 1)).layout", "(4,8):(1@0,1@1)"),
    ],
)
def test_basis_operations_hand_worked(expr: str, expected: str) -> None:
    import pycute_layouts as pl

    ns = {name: getattr(pl, name) for name in pl.__all__}
    assert str(eval(expr, ns)) == expected  # noqa: S307 - this file's own table


def test_tuple_tiler_as_layout() -> None:
    # PyCuTe tiler_to_layout: a tuple's mode i gets strides times E(i); composing with it is by-mode composition
    assert str(tiler_to_layout((2, Layout(4, 2)))) == "(2,4):(1@0,2@1)"
    A = Layout((8, 8), (8, 1))
    assert composition(A, tiler_to_layout((2, Layout(4, 2)))) == composition(A, (2, Layout(4, 2)))
    assert tiler_to_layout((4, 8)) == make_identity_layout((4, 8))
    with pytest.raises(LayoutTypeError, match="'_' keeps a whole mode"):
        tiler_to_layout((2, _))


def test_coordinate_layouts_refuse_offset_operations() -> None:
    identity = make_identity_layout((4, 8))
    for op in (complement, left_inverse):
        with pytest.raises(LayoutTypeError, match="basis strides"):
            op(identity)
    with pytest.raises(LayoutTypeError, match="mixes strides of the kinds"):
        Layout((4, 8), (E(0), 5))
    with pytest.raises(LayoutTypeError, match="names no mode of A"):
        composition(Layout(8, 1), Layout(4, E(1)))
    with pytest.raises(LayoutTypeError, match="sum of basis elements"):
        composition(Layout((4, 8)), Layout(4, E(0) + E(1)))


def test_coordinate_layout_numpy_and_cosize() -> None:
    identity = make_identity_layout((2, 3))
    assert identity.to_numpy().tolist() == [[0, 0], [1, 0], [0, 1], [1, 1], [0, 2], [1, 2]]
    assert identity(np.arange(3)).tolist() == [[0, 0], [1, 0], [0, 1]]
    assert identity.cosize() == 6 and identity.coshape() == (2, 3)  # CuTe: cosize = size(coshape)


# ------------------------------------------------------------------ layout_add / gcd / coalesce_z


@pytest.mark.parametrize(
    "a, b, expected",
    [
        # PyCuTe test_greatest_common_domain.py, test_known_expected_results (printed without 1-tuples)
        (1, 1, "1:0"),
        (10, 10, "10:1"),
        ((16, 3), (16, 3), "(16,3):(1,16)"),
        ((5, 2), 10, "(5,2):(1,5)"),
        ((5, 3, 4), (10, 6), "(5,2):(1,30)"),
        ((5, 3, 3, 4), (10, 6, 3), "5:1"),
        ((1, 5, 3, 3, 4), (10, 6, 3), "5:1"),
        ((2, 21), (3, 14), "7:6"),
        ((6, 35), (15, 14), "(3,7):(1,30)"),
        ((16, 64), (4, 16, 16), "(4,4,4,16):(1,4,16,64)"),
        ((5, 3), (3, 5), "1:0"),
        ((5, 5, 3), (5, 3, 5), "5:1"),
        ((7, 2, 3, 2, 2, 3), (504,), "(7,2,3,2,2,3):(1,7,14,42,84,168)"),
        ((7, 2, 3, 2, 2, 3, 2), (7, 3, 2, 2, 3, 2, 2), "(7,2,2):(1,42,504)"),
        ((7, 2, 2, 2, 2, 3, 5), (7, 3, 2, 2, 2, 2, 5), "(7,5):(1,336)"),
    ],
)
def test_greatest_common_domain(a, b, expected) -> None:
    R = greatest_common_domain(a, b)
    assert str(R) == expected
    assert greatest_common_domain(b, a) == R
    composition(Layout(a), R)  # admissible both ways
    composition(Layout(b), R)


@pytest.mark.parametrize(
    "a, b, expected",
    [
        # PyCuTe test_layout_add.py
        ("12:1", "12:1", "12:2"),
        ("(4,3):(1,4)", "(4,3):(3,1)", "(4,3):(4,5)"),
        ("(5,3,4):(1,5,15)", "(10,6):(1,10)", "60:2"),
        ("6:1", "(3,2):(2,1)", "(3,2):(3,4)"),
        ("12:2", "(4,3):(3,1)", "(4,3):(5,9)"),
        ("(2,(3,4)):(12,(4,1))", "(6,4):(4,1)", "(2,3,4):(16,12,2)"),
        ("(4,3):(1,0)", "(4,3):(3,1)", "(4,3):(4,1)"),
        ("5:0", "5:1", "5:1"),
        ("8:2@0", "8:3@0", "8:5@0"),
    ],
)
def test_layout_add(a, b, expected) -> None:
    A, B = L(a), L(b)
    R = layout_add(A, B)
    assert str(R) == expected
    assert layout_add(B, A) == R
    assert all(R(i) == (A(i) + B(i) if not isinstance(A(i), tuple) else R(i)) for i in range(A.size()))


def test_layout_add_coordinates_and_refusals() -> None:
    # PyCuTe: Layout(12, E(0)) + Layout((4,3), (E(1), E(2))) maps i to (i, i%4, i//4)
    R = layout_add(Layout(12, E(0)), Layout((4, 3), (E(1), E(2))))
    assert [R(i) for i in range(12)] == [(i, i % 4, i // 4) for i in range(12)]
    with pytest.raises(LayoutValueError, match="sizes differ"):
        layout_add(Layout(6, 1), Layout(8, 1))
    with pytest.raises(AdmissibilityError, match="no common domain"):
        layout_add(Layout((5, 3), (3, 1)), Layout((3, 5), (5, 1)))


@pytest.mark.parametrize(
    "text, expected",
    [
        # PyCuTe algebra.py docstring and test_coalesce_z.py
        ("(2,1,6,1):(1,7,8,0)", "(2,6,1):(1,8,0)"),
        ("1:1", "1:1"),
        ("(1,1):(5,7)", "1:7"),
        ("(2,1,6,1):(1,7,8,48)", "(2,6):(1,8)"),
        ("(2,1):(1@0,1@1)", "(2,1):(1@0,1@1)"),
        ("(2,4):(4,1)", "(2,4):(4,1)"),
    ],
)
def test_coalesce_z(text, expected) -> None:
    layout = L(text)
    R = coalesce_z(layout)
    assert str(R) == expected
    assert all(R(i) == layout(i) for i in range(layout.size() + 10))
    assert coalesce_z(R) == R


@pytest.mark.parametrize(
    "text, expected",
    [
        # CuTe C++ 4.2 (differential below) and PyCuTe's nullspace docstring
        ("(4,2,3):(1,0,4)", "2:4"),
        ("(2,3):(0,0)", "(2,3):(1,2)"),
        ("(4,8):(1,4)", "1:0"),
        ("(2,4,6):(1,2,0)", "6:8"),
        ("(4,5):(1@0,1@1)", "1:0"),
        ("(4,5):(0,1@0)", "4:1"),
    ],
)
def test_nullspace(text, expected) -> None:
    layout = L(text)
    R = nullspace(layout)
    assert str(R) == expected
    zero = layout(0)
    assert all(layout(R(i)) == zero for i in range(R.size()))


# ---------------------------------------------------------------------------------------- tensors


def test_tensor_basics_and_bad_inputs() -> None:
    T = make_tensor(np.arange(32, dtype=np.int32), Layout((4, 8), (8, 1)))
    assert T(1, 2) == 10 and T[1, 2] == 10
    assert T(_, 2).to_numpy().tolist() == [2, 10, 18, 26]
    assert tensor_divide(T, (2, 4)).layout == zipped_divide(T.layout, (2, 4))
    assert tensor_divide(T, (2, 4), "flat").layout == flat_divide(T.layout, (2, 4))
    assert tensor_divide(T, (2, 4), "logical").layout == logical_divide(T.layout, (2, 4))
    with pytest.raises(LayoutValueError, match="kind must be one of"):
        tensor_divide(T, (2, 4), "tiled")
    with pytest.raises(LayoutValueError, match="exceeds"):
        make_tensor(np.arange(8), Layout((4, 8), (8, 1)))
    with pytest.raises(LayoutTypeError, match="basis strides"):
        make_tensor(np.arange(8), make_identity_layout((2, 4)))
    with pytest.raises(CoordinateError, match="thread index 32"):
        local_partition(T, Layout((4, 8)), 32)
    with pytest.raises(LayoutTypeError, match="no bytes"):
        recast_tensor(make_identity_tensor((2, 2)), np.int8)


def test_recast_tensor() -> None:
    T = make_tensor(np.arange(8, dtype=np.uint16), Layout((2, 4), (4, 1)))
    R = recast_tensor(T, np.uint32)
    assert str(R.layout) == "(2,2):(2,1)"
    assert R(1, 0) == (5 << 16) | 4  # little-endian pair (4, 5)


def test_print_tensor_matches_cute_format() -> None:
    text = print_tensor(make_tensor(np.arange(6, dtype=np.int32), Layout((2, 3), (3, 1))))
    assert text.splitlines() == ["ptr[32b](0) o (2,3):(3,1):", "    0    1    2", "    3    4    5"]


def test_worked_example_predicates() -> None:
    # docs/tensors.md: 200x100 matrix, tile (1,1) of 128x64, thread 5 of (32,4):(4,1)
    M, N = 200, 100
    tile_c = local_tile(make_identity_tensor((M, N)), (128, 64), (1, 1))
    part = local_partition(tile_c, Layout((32, 4), (4, 1)), 5)
    coords = [part(i) for i in range(part.size())]
    assert coords[0] == (129, 65)
    assert sum(elem_less(c, (M, N)) for c in coords) == 3 * 9  # rows 129,161,193; columns 65..97 step 4


# ------------------------------------------------------------------------------------------ laws


@settings(max_examples=30)
@given(compact_layouts())
def test_identity_composed_with_layout_is_layout(layout) -> None:
    # the identity of L's codomain, composed with L, evaluates to L's offsets (as 1-D coordinates)
    identity = make_identity_layout(layout.cosize())
    assert [composition(identity, layout)(i) for i in range(layout.size())] == [layout(i) for i in range(layout.size())]
    # and L composed with the identity of its shape is L
    R = composition(layout, make_identity_layout(layout.shape))
    assert [R(i) for i in range(layout.size())] == [layout(i) for i in range(layout.size())]


@settings(max_examples=30)
@given(shapes(max_rank=3, max_depth=2, max_size=64))
def test_coordinate_layouts_invert_to_their_domain(shape) -> None:
    identity = make_identity_layout(shape)
    n = identity.size()
    seen = {}
    for i in range(n):
        c = identity(i)
        assert c == idx2crd(i, shape)
        assert identity(c) == c
        seen[c] = i
    assert len(seen) == n  # injective: every coordinate names exactly one index
    inverse = right_inverse(identity)
    assert all(inverse(identity(i)) == i for i in range(n))
    assert all(identity(inverse(c)) == c for c in seen)


def test_right_inverse_of_coordinate_layouts() -> None:
    # PyCuTe right_inverse over Z^S: one chain of strides per codomain component
    assert str(right_inverse(make_identity_layout((4, 8)))) == "(4,8):(1,4)"
    T = Layout((4, 8), (E(1), E(0)))  # a transposed coordinate layout
    R = right_inverse(T)
    assert str(R) == "(8,4):(4,1)" and all(T(R(c)) == c for c in [(x, y) for y in range(4) for x in range(8)])
    assert str(right_inverse(Layout((4, 8), (2 * E(0), E(1))))) == "(1,8):(0,4)"  # component 0 has no stride 1


@settings(max_examples=25)
@given(st.sampled_from([(8, 8), (16, 8), (12, 6), (32, 4)]), st.sampled_from([(4, 2), (2, 4), (2, 2), (1, 4)]))
def test_partitions_of_a_tensor_are_disjoint_and_cover_it(shape, thr_shape) -> None:
    assume(shape[0] % thr_shape[0] == 0 and shape[1] % thr_shape[1] == 0)
    T = make_tensor(np.arange(shape[0] * shape[1]), Layout(shape))
    thr = Layout(thr_shape)
    owned = np.concatenate([local_partition(T, thr, t).offsets() for t in range(thr.size())])
    assert sorted(owned.tolist()) == list(range(T.size()))


# -------------------------------------------------------------------------------- CuTe C++ oracle

ORACLE_CASES = [
    # (C++ expression, our expression)
    ("make_identity_layout(Shape<_4,_8>{})", "make_identity_layout((4, 8))"),
    ("make_identity_layout(Shape<Shape<_2,_3>,_4>{})", "make_identity_layout(((2, 3), 4))"),
    ("make_identity_layout(Shape<_3,Shape<_2,_2>>{})", "make_identity_layout((3, (2, 2)))"),
    (
        "composition(make_identity_layout(Shape<_4,_8>{}), Layout<Shape<_2,_4>,Stride<_1,_8>>{})",
        "composition(make_identity_layout((4, 8)), Layout((2, 4), (1, 8)))",
    ),
    (
        "composition(make_identity_layout(Shape<_4,_8>{}), Layout<_8,_4>{})",
        "composition(make_identity_layout((4, 8)), Layout(8, 4))",
    ),
    (
        "composition(make_identity_layout(Shape<_6,_4>{}), Layout<Shape<_3,_8>,Stride<_2,_6>>{})",
        "composition(make_identity_layout((6, 4)), Layout((3, 8), (2, 6)))",
    ),
    (
        "logical_divide(make_identity_layout(Shape<_8,_8>{}), Shape<_2,_4>{})",
        "logical_divide(make_identity_layout((8, 8)), (2, 4))",
    ),
    (
        "zipped_divide(make_identity_layout(Shape<_8,_8>{}), Shape<_2,_4>{})",
        "zipped_divide(make_identity_layout((8, 8)), (2, 4))",
    ),
    ("flat_divide(make_identity_layout(Shape<_8,_8>{}), Shape<_2,_4>{})", "flat_divide(make_identity_layout((8, 8)), (2, 4))"),
    (
        "zipped_divide(make_identity_layout(Shape<_16,_12>{}), Shape<_4,_3>{})",
        "zipped_divide(make_identity_layout((16, 12)), (4, 3))",
    ),
    (
        "logical_divide(make_identity_layout(Shape<_8,_8>{}), make_tile(Layout<_2,_4>{}, _))",
        "logical_divide(make_identity_layout((8, 8)), (Layout(2, 4), _))",
    ),
    (
        "coalesce(Layout<Shape<_4,_8>,Stride<ScaledBasis<_1,0>,ScaledBasis<_4,0>>>{})",
        "coalesce(Layout((4, 8), (E(0), 4 * E(0))))",
    ),
    ("coalesce(Layout<Shape<_2,_1>,Stride<E<0>,E<1>>>{})", "coalesce(Layout((2, 1), (E(0), E(1))))"),
    ("filter(Layout<Shape<_4,_8>,Stride<E<0>,_0>>{})", "filter(Layout((4, 8), (E(0), 0)))"),
    (
        "composition(Layout<Shape<_4,_8>,Stride<_8,_1>>{}, make_identity_layout(Shape<_4,_8>{}))",
        "composition(Layout((4, 8), (8, 1)), make_identity_layout((4, 8)))",
    ),
    (
        "composition(Layout<Shape<_4,_8>,Stride<_8,_1>>{}, Layout<_4,ScaledBasis<_1,1>>{})",
        "composition(Layout((4, 8), (8, 1)), Layout(4, E(1)))",
    ),
    (
        "composition(Layout<Shape<_4,_8>,Stride<_8,_1>>{}, Layout<Shape<_2,_4>,Stride<ScaledBasis<_2,1>,ScaledBasis<_1,0>>>{})",
        "composition(Layout((4, 8), (8, 1)), Layout((2, 4), (2 * E(1), E(0))))",
    ),
    (
        "local_partition(make_identity_tensor(Shape<_16,_16>{}), Layout<Shape<_4,_8>>{}, 3).layout()",
        "local_partition(make_identity_tensor((16, 16)), Layout((4, 8)), 3).layout",
    ),
    (
        "local_tile(make_identity_tensor(Shape<_16,_16>{}), Shape<_4,_8>{}, make_coord(1,1)).layout()",
        "local_tile(make_identity_tensor((16, 16)), (4, 8), (1, 1)).layout",
    ),
    (
        "local_partition(make_identity_tensor(Shape<_32,_16>{}), Layout<Shape<_8,_4>,Stride<_4,_1>>{}, 6).layout()",
        "local_partition(make_identity_tensor((32, 16)), Layout((8, 4), (4, 1)), 6).layout",
    ),
    ("nullspace(Layout<Shape<_4,_2,_3>,Stride<_1,_0,_4>>{})", "nullspace(Layout((4, 2, 3), (1, 0, 4)))"),
    ("nullspace(Layout<Shape<_2,_3>,Stride<_0,_0>>{})", "nullspace(Layout((2, 3), (0, 0)))"),
    ("nullspace(Layout<Shape<_4,_8>,Stride<_1,_4>>{})", "nullspace(Layout((4, 8), (1, 4)))"),
    ("coalesce(Layout<_1,_1>{})", "coalesce(Layout(1, 1))"),
]
#: coordinates (C++ expression, ours) compared value by value
ORACLE_VALUES = [
    ("make_identity_layout(Shape<Shape<_2,_3>,_4>{})(7)", "make_identity_layout(((2, 3), 4))(7)"),
    (
        "local_partition(make_identity_tensor(Shape<_16,_16>{}), Layout<Shape<_4,_8>>{}, 3)(1)",
        "local_partition(make_identity_tensor((16, 16)), Layout((4, 8)), 3)(1)",
    ),
    (
        "local_tile(make_identity_tensor(Shape<_16,_16>{}), Shape<_4,_8>{}, make_coord(2,1))(3,5)",
        "local_tile(make_identity_tensor((16, 16)), (4, 8), (2, 1))(3, 5)",
    ),
]


@pytest.mark.oracle
def test_cute_cxx_agrees_on_basis_strides() -> None:
    skip_without_cxx()
    import pycute_layouts as pl

    ns = {name: getattr(pl, name) for name in pl.__all__}
    batch = CuteBatch()
    for cxx, _ours in ORACLE_CASES + ORACLE_VALUES:
        batch.add(cxx)
    results = batch.run()
    agreed = 0
    for (cxx, ours), res in zip(ORACLE_CASES + ORACLE_VALUES, results):
        assert isinstance(res, str), (cxx, res)
        mine = str(eval(ours, ns)).replace(" ", "")  # noqa: S307 - this file's own table
        theirs = normalize(res)
        assert _same(mine, theirs), (cxx, mine, theirs)
        agreed += 1
    assert agreed == len(ORACLE_CASES) + len(ORACLE_VALUES)


def _same(mine: str, theirs: str) -> bool:
    """Equal, up to CuTe's rank-1 wrapping ``(4):(1@0)`` of a sliced mode."""
    if mine == theirs:
        return True
    if ":" in theirs and theirs.startswith("(") and ":(" in theirs:
        s, d = theirs.split(":", 1)
        if s.count("(") == 1 and s.count(",") == 0 and d.count(",") == 0:
            return mine == f"{s[1:-1]}:{d[1:-1]}"
    return False


# ------------------------------------------------------------------------------------- F2 strides


def test_f2_scalar_algebra() -> None:
    # PyCuTe swizzle.py F2 docstring

    assert F2(0b1010) + F2(0b1100) == F2(0b0110)
    assert 3 * F2(0b1010) == F2(0b11110)
    assert F2(0b11) * 3 == F2(0b101)  # carry-less, where 3 * 3 == 9 in Z
    assert F2(1) + 0 == F2(1)
    assert F2(5) + F2(5) == 0
    with pytest.raises(LayoutTypeError, match="cannot add the integer 1"):
        F2(1) + 1
    with pytest.raises(LayoutValueError, match=">= 0"):
        F2(-1)


def test_f2_layout_evaluation_and_notation() -> None:

    L8 = Layout((4, 8), (F2(1), F2(8)))
    assert L8(2, 1) == 2 ^ 8  # PyCuTe: Layout((4, 8), (F2(1), F2(8)))(2, 1) == F2(2 ^ 8)
    assert str(L8) == "(4,8):(F1,F8)" and parse("(4,8):(F1,F8)") == L8
    assert L8.to_numpy().tolist() == [L8(i) for i in range(32)]
    assert Layout(4, F2(3)).cosize() == 8  # PyCuTe: Layout(4, F2(3)) reaches 6; bounded by the bit span
    with pytest.raises(LayoutTypeError, match="mixes strides"):
        Layout((4, 8), (F2(1), 8))


@pytest.mark.parametrize(
    "text",
    [
        # PyCuTe test_coalesce_z.py::test_coalesce_z_f2
        "8:F1",
        "(4,4):(F1,F4)",
        "(2,2,2,2):(F1,F2,F4,F8)",
        "(3,4):(F1,F3)",
        "(3,3):(F1,F3)",
        "(2,2,3):(F1,F2,F4)",
        "(3,2,2):(F1,F3,F6)",
        "((2,2),(3,2)):((F1,F2),(F4,F12))",
        "(2,1,2):(F1,F7,F2)",
        "(3,1,3):(F1,F7,F3)",
    ],
)
def test_f2_coalesce_keeps_the_function(text) -> None:
    layout = parse(text)
    for R in (coalesce(layout), coalesce_z(layout)):
        assert all(R(i) == layout(i) for i in range(layout.size()))
    assert str(coalesce(parse("(3,4):(F1,F3)"))) == "(3,4):(F1,F3)"  # 3 is no power of two: no merge
    assert str(coalesce(parse("(4,4):(F1,F4)"))) == "16:F1"


def test_f2_layout_add() -> None:
    # PyCuTe test_layout_add.py F2 cases

    assert str(layout_add(Layout(8, F2(1)), Layout(8, F2(8)))) == "8:F9"
    assert str(layout_add(Layout(8, F2(1)), Layout(8, F2(2)))) == "8:F3"
    assert str(layout_add(Layout((4, 8), (F2(1), F2(8))), Layout((4, 8), (F2(2), F2(16))))) == "(4,8):(F3,F24)"
    assert str(layout_add(Layout(16, F2(1)), Layout((4, 4), (F2(2), F2(8))))) == "16:F3"
    assert layout_add(Layout(8, F2(7)), Layout(8, 0)) == Layout(8, F2(7))
    assert all(layout_add(Layout(8, F2(5)), Layout(8, F2(5)))(i) == 0 for i in range(8))


def test_f2_composition_checked_point_by_point() -> None:

    A = Layout((8, 8), (F2(1), F2(9)))
    R = composition(A, Layout((4, 2), (2, 8)))
    assert str(R) == "(4,2):(F2,F9)"
    assert all(R(i) == A(Layout((4, 2), (2, 8))(i)) for i in range(8))
    with pytest.raises(AdmissibilityError, match="does not split into its bits"):
        composition(Layout(16, F2(3)), Layout((2, 2), (3, 1)))  # 3 + 1 carries: A(4) = 12, the walk gives 6
    with pytest.raises(LayoutTypeError, match="F2"):
        complement(A)


@pytest.mark.parametrize("swz", [(1, 0, 1), (2, 4, 3), (3, 4, 3), (3, 3, 3), (2, 0, 2)])
def test_f2_layout_matches_swizzle_xor_and_linear_layout(swz) -> None:
    to_linear_layout = pl_analysis.to_linear_layout

    sw = Swizzle(*swz)
    L = f2_layout(sw)
    n = max(1, sw.period.bit_length() - 1)
    assert [L(x) for x in range(1 << n)] == [sw(x) for x in range(1 << n)]
    x = f2_layout_to_xor(L)
    assert [x(v) for v in range(1 << n)] == [sw(v) for v in range(1 << n)]
    bases = to_linear_layout(sw).bases["offset"]
    assert [L(1 << j) for j in range(len(bases))] == list(bases)


# ------------------------------------------------------------------------------- one mode at a time


def test_apply_at_pycute_examples() -> None:

    # PyCuTe algebra.py docstrings: composition[1], logical_divide[1], coalesce[1], coalesce_z[1]
    assert str(apply_at(composition, Layout((4, 6), (1, 4)), 1, Layout(3, 2))) == "(4,3):(1,8)"
    assert str(apply_at(logical_divide, Layout((3, 8)), 1, Layout(4, 2))) == "(3,(4,2)):(1,(6,3))"
    assert str(apply_at(coalesce, parse("(3,(2,6)):(1,(3,6))"), 1)) == "(3,12):(1,3)"
    A = parse("((2,(1,6)),(3,4,1)):((1,(6,2)),(100,300,0))")
    assert apply_at(coalesce_z, A, 1).shape[-1] == (12, 1)  # the size-1 mode is kept
    # CuTe's by-mode tiler with _ is the same at the top level
    assert apply_at(logical_divide, Layout((3, 8)), 1, 4) == logical_divide(Layout((3, 8)), (_, 4))
    # a deeper path
    assert str(apply_at(logical_divide, parse("((4,8),6)"), (0, 1), 2)) == "((4,(2,4)),6):((1,(4,8)),32)"
    with pytest.raises(LayoutValueError, match="mode 2 does not exist"):
        apply_at(coalesce, Layout((3, 8)), 2)
    with pytest.raises(LayoutTypeError, match="mode must be an int"):
        apply_at(coalesce, Layout((3, 8)), "1")


@pytest.mark.parametrize(
    "layout",
    [
        # PyCuTe test_nullspace.py::test_nullspace_coord
        Layout((4, 5), (E(0), E(1))),
        Layout((4, 5), (0, E(0))),
        Layout((4, 5), (0, E(4, 1))),
        Layout((4, 5), (2 * E(0), 0)),
        Layout(((2, 2, 2), (2, 2, 2)), ((E(0), 2 * E(1), 4 * E(0)), (E(1), 2 * E(0), 4 * E(1)))),
        Layout(((2, 2, 2), (2, 2, 2)), ((E(0), 2 * E(1), 5 * E(0)), (E(1), 0, 5 * E(1)))),
        composition((8, 4), Layout(((4, 2), 4), ((8, 4), 0))),  # SM70 MMA 8x8x4 A TV inverse
        composition((16, 8), Layout(((4, 8), (2, 2)), ((0, 1), (16, 8)))),  # SM80 MMA 16x8 TV inverse
    ],
)
def test_nullspace_of_coordinate_layouts(layout) -> None:
    R = nullspace(layout)
    zero = layout(0)
    assert all(layout(R(i)) == zero for i in range(R.size()))


def test_tuple_operands_become_layouts() -> None:
    # PyCuTe promotes a tuple A with tiler_to_layout: a shape becomes its identity layout
    assert str(composition((8, 4), Layout(((4, 2), 4), ((8, 4), 0)))) == "((4,2),4):((1@1,4@0),0)"
    assert logical_divide((8, 8), (2, 4)) == logical_divide(make_identity_layout((8, 8)), (2, 4))
    # greatest_common_domain's post-condition: composing either shape with it is admissible
    R = greatest_common_domain((6, 35), (15, 14))
    assert composition((6, 35), R).size() == composition((15, 14), R).size() == R.size()


def test_print_tensor_ranks_and_number_formats() -> None:
    # CuTe util/print_tensor.hpp: rank 3 tables separated by 5*size<1> '-'; pretty_print %5d, %10.2e, %11.3e
    text = print_tensor(make_tensor(np.arange(8, dtype=np.int32), Layout((2, 2, 2))))
    assert text.splitlines()[3] == "-" * 10
    assert print_tensor(make_tensor(np.arange(2, dtype=np.float32), Layout(2))).splitlines()[2] == "  1.00e+00"
    assert print_tensor(make_tensor(np.arange(2, dtype=np.float64), Layout(2))).splitlines()[2] == "  1.000e+00"
    with pytest.raises(LayoutValueError, match="ranks 1 to 4"):
        print_tensor(make_tensor(np.arange(32), Layout((2, 2, 2, 2, 2))))
