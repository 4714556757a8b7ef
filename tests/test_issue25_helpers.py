"""CuTe's tuple algorithms and helpers (core.tuples): values from CuTe C++ (compiled here) and PyCuTe's docs."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from oracles import CuteBatch, normalize, skip_without_cxx

from pycute_layouts import (
    E,
    Layout,
    LayoutError,
    LayoutValueError,
    _,
    append,
    colex_less,
    common_coarsening,
    common_refinement,
    coordinates,
    dice_modes,
    elem_less,
    flatten,
    group_modes,
    idx2crd,
    lex_less,
    make_identity_tensor,
    make_layout_like,
    repeat_like,
    select,
    slice_modes,
    take,
    transform_leaf,
    unflatten,
    unwrap,
    wrap,
)

# (CuTe C++ expression, our expression) -- each evaluated here and compiled with CuTe's headers
CASES = [
    ("make_layout_like(Layout<Shape<_2,_3,_4>,Stride<_12,_1,_3>>{})", "make_layout_like(Layout((2,3,4),(12,1,3)))"),
    ("make_layout_like(Layout<Shape<Shape<_2,_3>,_4>,Stride<Stride<_4,_0>,_1>>{})",
     "make_layout_like(Layout(((2,3),4),((4,0),1)))"),
    ("make_layout_like(Layout<Shape<_2,_2,_2,_2>,Stride<_0,_2,_4,_1>>{})", "make_layout_like(Layout((2,2,2,2),(0,2,4,1)))"),
    ("make_layout_like(Layout<Shape<_2,_3,_4,_5>,Stride<_0,_32,_1,_0>>{})", "make_layout_like(Layout((2,3,4,5),(0,32,1,0)))"),
    ("make_layout_like(Layout<Shape<_1,_4>,Stride<_7,_2>>{})", "make_layout_like(Layout((1,4),(7,2)))"),
    ("make_layout_like(Layout<Shape<_2,_2>,Stride<_1,_1>>{})", "make_layout_like(Layout((2,2),(1,1)))"),
    ("make_layout_like(Layout<Shape<_2,_4,_8>,Stride<_32,_0,_2>>{})", "make_layout_like(Layout((2,4,8),(32,0,2)))"),
    ("make_layout_like(Layout<Shape<_2,Shape<_3,_4>>,Stride<Int<50>,Stride<_1,_8>>>{})",
     "make_layout_like(Layout((2,(3,4)),(50,(1,8))))"),
    ("take<1,3>(Shape<_1,_2,_3,_4>{})", "take((1,2,3,4),1,3)"),
    ("select<2,0>(Shape<_1,_2,_3>{})", "select((1,2,3),2,0)"),
    ("append<4>(Shape<_3>{}, Int<0>{})", "append((3,),0,4)"),
    ("prepend<3>(Shape<_3,_2>{}, Int<7>{})", "prepend((3,2),7,3)"),
    ("append<3>(Layout<Shape<_4,_8>>{})", "append(Layout((4,8)),n=3)"),
    ("prepend(Layout<_4>{}, Layout<_2,_8>{})", "prepend(Layout(4),Layout(2,8))"),
    ("group<1,3>(Shape<_1,_2,_3,_4>{})", "group_modes((1,2,3,4),1,3)"),
    ("elem_less(Shape<_3>{}, Shape<_4,_8>{})", "int(elem_less((3,),(4,8)))"),
    ("elem_less(Shape<_3,_7>{}, Shape<_4>{})", "int(elem_less((3,7),(4,)))"),
    ("elem_less(Shape<_3,_7>{}, Shape<_4,_7>{})", "int(elem_less((3,7),(4,7)))"),
    ("colex_less(make_coord(3,1), make_coord(0,2))", "int(colex_less((3,1),(0,2)))"),
    ("colex_less(make_coord(1,2), make_coord(1,2,0))", "int(colex_less((1,2),(1,2,0)))"),
    ("colex_less(make_coord(1,2,0), make_coord(1,2))", "int(colex_less((1,2,0),(1,2)))"),
    ("lex_less(make_coord(0,2), make_coord(3,1))", "int(lex_less((0,2),(3,1)))"),
    ("lex_less(make_coord(1,2), make_coord(1,2,0))", "int(lex_less((1,2),(1,2,0)))"),
    ("slice(make_coord(_,2), Shape<_4,_8>{})", "slice_modes((_,2),(4,8))"),
    ("dice(make_coord(_,2), Shape<_4,_8>{})", "dice_modes((_,2),(4,8))"),
    ("slice(make_coord(make_coord(_,1),_), Shape<Shape<_2,_3>,_4>{})", "slice_modes(((_,1),_),((2,3),4))"),
    ("dice(make_coord(make_coord(_,1),_), Shape<Shape<_2,_3>,_4>{})", "dice_modes(((_,1),_),((2,3),4))"),
    ("repeat_like(Shape<_4,Shape<_2,_8>>{}, Int<0>{})", "repeat_like((4,(2,8)),0)"),
    ("flatten(Layout<Shape<Shape<_2,_4>,_3>>{})", "flatten(Layout(((2,4),3)))"),
    ("unwrap(make_tuple(make_tuple(Int<4>{})))", "unwrap(((4,),))"),
    ("wrap(Int<4>{})", "wrap(4)"),
    ("idx2crd(42, Shape<_3,_7,_2>{})", "idx2crd(42,(3,7,2))"),
    ("idx2crd(100, Shape<Shape<_3,_7>,_2>{})", "idx2crd(100,((3,7),2))"),
    ("idx2crd(100, Shape<_2,Shape<_3,_7>>{})", "idx2crd(100,(2,(3,7)))"),
]


def _text(v) -> str:
    if isinstance(v, tuple):
        return "(" + ",".join(_text(x) for x in v) + ")"
    return str(v).replace(" ", "")


def _same(mine: str, theirs: str) -> bool:
    if mine == theirs:
        return True
    # CuTe prints a rank-1 layout as (8):(1); ours unwraps it
    return ":" in theirs and theirs.replace("(", "").replace(")", "") == mine.replace("(", "").replace(")", "")


@pytest.mark.oracle
def test_cute_cxx_agrees_on_the_tuple_algorithms() -> None:
    skip_without_cxx()
    import pycute_layouts as pl

    ns = {name: getattr(pl, name) for name in pl.__all__}
    batch = CuteBatch()
    for cxx, _ours in CASES:
        batch.add(cxx)
    for (cxx, ours), res in zip(CASES, batch.run()):
        assert isinstance(res, str), (cxx, res)
        mine = _text(eval(ours, ns))  # noqa: S307 - this file's own table
        assert _same(mine, normalize(res)), (cxx, mine, normalize(res))


def test_pycute_documented_values() -> None:
    # PyCuTe shape.py / htuple.py docstrings (facts, not code)
    assert common_refinement(30, (2, 15)) == (2, 15)
    assert common_refinement((2, 15), (2, (3, 5))) == (2, (3, 5))
    assert common_refinement(((2, 3), 20), (6, (4, 5))) == ((2, 3), (4, 5))
    for a, b in (((6, 5), (2, 15)), ((2, (3, 5)), ((3, 2), 5))):
        with pytest.raises(LayoutValueError):
            common_refinement(a, b)
    assert common_coarsening((2, 15), (2, (3, 5))) == (2, 15)
    assert common_coarsening((4, (3, 5)), ((2, 2), 15)) == (4, 15)
    assert common_coarsening((2, (3, 5)), ((3, 2), 5)) == 30
    assert common_coarsening((2, 3), (2, 3, 1)) == 6
    with pytest.raises(LayoutValueError):
        common_coarsening(3, 4)
    assert list(coordinates((2, (2, 2))))[:3] == [(0, (0, 0)), (1, (0, 0)), (0, (1, 0))]
    assert idx2crd(7, (3, (2, 4))) == (1, (0, 1))


def test_layout_forms() -> None:
    L = Layout(((2, 4), 3))
    F = flatten(L)
    assert str(F) == "(2,4,3):(1,2,8)" and unflatten(F, L.shape) == L
    assert str(take(Layout((2, 3, 4)), 1, 3)) == "(3,4):(2,6)"
    assert str(select(Layout((2, 3, 4)), 2, 0)) == "(4,2):(6,1)"
    assert str(group_modes(Layout((2, 3, 4)), 0, 2)) == "((2,3),4):((1,2),6)"
    assert str(dice_modes((_, 2), Layout((4, 8), (8, 1)))) == "8:1"
    assert str(slice_modes((_, 2), Layout((4, 8), (8, 1)))) == "4:8"
    T = flatten(make_identity_tensor(((2, 2), 3)))
    assert T.layout.shape == (2, 2, 3) and T(5) == ((1, 0), 1)


def test_transform_leaf_either_order() -> None:
    assert transform_leaf((1, (2, 3)), lambda x: x + 1) == (2, (3, 4))
    assert transform_leaf(lambda a, b: a * b, (1, (2, 3)), (4, (5, 6))) == (4, (10, 18))
    with pytest.raises(LayoutError):
        transform_leaf((1, 2), (1, (2, 3)), lambda a, b: a)


def test_elem_less_over_basis_offsets() -> None:
    assert elem_less(3 * E(0) + 7 * E(1), (4, 8)) and not elem_less(3 * E(0) + 8 * E(1), (4, 8))
    assert elem_less(2 * E(1), (4, 8))  # (0, 2): the missing mode 0 is 0
    assert colex_less(3 * E(0), E(1)) and not colex_less(E(1), 3 * E(0))
    assert lex_less(E(1), 3 * E(0))


@given(st.tuples(st.integers(0, 5), st.integers(0, 5)), st.tuples(st.integers(0, 5), st.integers(0, 5)))
def test_colex_is_the_index_order(a, b) -> None:
    shape = (6, 6)
    ia, ib = a[0] + 6 * a[1], b[0] + 6 * b[1]
    assert colex_less(a, b) == (ia < ib)
    assert lex_less(a, b) == (a < b)
    assert elem_less(a, b) == (a[0] < b[0] and a[1] < b[1])
    assert idx2crd(ia, shape) == a


@pytest.mark.parametrize("fn, args", [(take, ((1, 2), 0, 3)), (select, ((1, 2), 2)), (append, ((1, 2), 0, 1)),
                                      (wrap, ("x",)), (repeat_like, (None, 0)), (group_modes, ((1, 2), 2, 1)),
                                      (flatten, ("abc",)), (unflatten, ((1, 2), (0,))), (make_layout_like, ((4, 2),)),
                                      (common_refinement, ("a", 2)), (elem_less, ((1, 2), "x"))])
def test_bad_inputs_are_layout_errors(fn, args) -> None:
    with pytest.raises(LayoutError):
        fn(*args)


# ------------------------------------------------------------------ writable tensors


def test_tensor_writes_go_to_the_engine_and_views_share_it() -> None:
    import numpy as np

    from pycute_layouts import CoordinateError, Layout, LayoutTypeError, local_partition, make_tensor

    A = np.arange(12).reshape(3, 4).copy()
    T = make_tensor(A)  # a view of A's storage
    T[1, 2] = -1
    assert A[1, 2] == -1
    col = T(_, 1)
    col[2] = -5
    assert A[2, 1] == -5 and T(2, 1) == -5
    P = local_partition(T, Layout((3, 2)), 1)  # row 1, columns 0 and 2
    P[_] = 0
    assert A[1].tolist() == [0, 5, 0, 7]
    T[0, _] = [10, 11, 12, 13]
    assert A[0].tolist() == [10, 11, 12, 13]
    with pytest.raises(LayoutValueError, match="3 values for a slice of 4"):
        T[0, _] = [1, 2, 3]
    with pytest.raises(LayoutTypeError, match="no storage"):
        make_identity_tensor((2, 2))[0] = 1
    R = make_tensor(np.arange(4), Layout(4, -1))
    with pytest.raises(CoordinateError):
        R[1] = 9  # offset -1: refused, not written at the end


# ------------------------------------------------------------------ equivalent() on other domains


def test_equivalent_on_a_domain_that_is_not_a_power_of_two() -> None:
    from pycute_layouts import ProofError, equivalent

    p = equivalent(Layout((3, 5), (5, 1)), lambda i, j: 5 * i + j, (3, 5))
    assert p and p.method == "exhaustive"
    c = equivalent(Layout((3, 5), (5, 1)), Layout((3, 5), (1, 3)), (3, 5))
    assert not c and c.coordinate == (1, 0) and (c.left_address, c.right_address) == (5, 1)
    assert equivalent(Layout(6, 2), Layout((2, 3), (2, 4)), (6,))
    with pytest.raises(ProofError, match="more than the 65536 checked exhaustively"):
        equivalent(Layout(1000), Layout(1000), (1000, 100))


# ------------------------------------------------------------------ F2 values as scalars, F2-valued basis strides


def test_f2_values_as_scalars() -> None:
    from pycute_layouts import F2

    assert F2(0) == 0 and hash(F2(0)) == hash(0) and F2(3) != 3
    assert F2(3) < F2(5) and F2(3) < 4 and F2(7) >= 7 and sorted([F2(5), F2(1), F2(3)]) == [F2(1), F2(3), F2(5)]
    # PyCuTe shape.py: idx2crd(F2(0b10110), (4, 8)) == (F2(0b10), F2(0b101)) -- a carry-less bit split
    assert idx2crd(F2(0b10110), (4, 8)) == (F2(0b10), F2(0b101))
    with pytest.raises(LayoutValueError, match="power-of-two shapes"):
        idx2crd(F2(5), (3, 4))
    # an F2 index into a layout: bits split, products carry-less, summed by XOR
    L = Layout((4, 8), (F2(1), F2(8)))
    assert L(F2(22)) == L(22) == 2 ^ 40
    assert Layout((4, 8), (3, 4))(F2(3)) == 3 ^ 6  # clmul(3, 3) = 5 where 3 * 3 = 9


def test_f2_valued_basis_strides() -> None:
    from pycute_layouts import F2, parse

    L = Layout((4, 8), (E(0) * F2(1), E(1) * F2(3)))
    assert str(L) == "(4,8):(F1@0,F3@1)" and parse(str(L)) == L
    assert L(3, 5) == (3, 15)  # 5 * F3 = clmul(5, 3) = 15
    assert L(13) == (1, 5)  # (1, 3): clmul(3, 3) = 5
    assert [tuple(int(v) for v in r) for r in L.to_numpy()] == [L(i) for i in range(32)]


# ------------------------------------------------------------------ None as PyCuTe's identity operand


def test_none_is_the_identity_operand() -> None:
    from pycute_layouts import coalesce, composition, left_inverse, logical_divide, logical_product, right_inverse

    A = Layout((6, 4), (4, 1))
    assert composition(A, None) == A and composition(None, A) == A
    assert logical_divide(A, None) == A and logical_product(A, None) == A
    assert coalesce(None) is None and right_inverse(None) is None and left_inverse(None) is None
    # None inside a tuple tiler is CuTe's _ (PyCuTe test_logical_divide.py's (clayout_tv, None))
    assert logical_divide(Layout((6, 4)), (None, 2)) == logical_divide(Layout((6, 4)), (_, 2))
    assert composition(Layout((4, 6)), (None, 3)) == Layout((4, 3), (1, 4))


def test_make_layout_like_with_symbolic_strides() -> None:
    import sympy

    N, M, X, Y = sympy.symbols("N M X Y", positive=True, integer=True)
    # dynamic strides are larger than every integer one, ordered left to right (CuTe's compact_order)
    assert make_layout_like(Layout((N, 4), (1, N))) == Layout((N, 4), (1, N))
    assert make_layout_like(Layout((2, N, 4), (1, X, 2))) == Layout((2, N, 4), (1, 8, 2))
    assert make_layout_like(Layout((N, M), (X, Y))) == Layout((N, M), (1, N))
    with pytest.raises(LayoutError):
        make_layout_like(Layout((2, 3), (E(0), E(1))))


def test_pycute_htuple_facts() -> None:
    # PyCuTe test_htuple.py facts, in our spelling (None marks a kept mode, as _ does)
    shape = ((2, 3), (5, 7, 9))
    assert slice_modes(0, shape) == () and dice_modes(0, shape) == (shape,)
    assert slice_modes(None, shape) == (shape,) and dice_modes(None, shape) == ()
    assert slice_modes((1, (1, 1, None)), shape) == (9,)
    assert dice_modes((1, (1, 1, None)), shape) == ((2, 3), 5, 7)
    assert slice_modes(((None, 1), (1, None, None)), shape) == (2, 7, 9)
    assert dice_modes(((None, 1), (1, None, None)), shape) == (3, 5)
    assert idx2crd(42, (3, 7, 2, 1)) == (0, 0, 0, 1) and idx2crd(42, (3, 7, (2, 1))) == (0, 0, (0, 1))
    assert take((1, 2, 3, 4), 1, 1) == () and take((1, 2, 3, 4), 0, 4) == (1, 2, 3, 4)
    with pytest.raises(LayoutError):
        take((1, 2, 3, 4), 3, 1)
    assert wrap((7,)) == (7,) and unwrap((((42,)),)) == 42 and unwrap((1, 2)) == (1, 2)
    assert flatten(7) == (7,) and flatten(((1, (2, 3)), 4)) == (1, 2, 3, 4)
    assert repeat_like(((1, (2, 3)), 4), 0) == ((0, (0, 0)), 0)  # CuTe's argument order
