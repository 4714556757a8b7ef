"""Regression tests: size-1 modes of B in composition, compatible on non-IntTuples, the stride of a size-1 result."""

from __future__ import annotations

import pytest

from pycute_layouts import Layout, LayoutTypeError, coalesce, compatible, composition


def test_size1_mode_of_b_is_not_tested_for_divisibility() -> None:
    # a size-1 mode of B only ever contributes B(0) = 0: its stride 5 divides nothing and is not checked
    assert str(composition(Layout((2, 4), (4, 1)), Layout(1, 5))) == "1:0"
    R = composition(Layout((2, 4), (4, 1)), Layout((1, 4), (5, 2)))
    assert str(R) == "(1,4):(3,1)"  # the size-1 mode's stride is CuTe's walk: ceil(5/2) = 3 into the last mode
    A = Layout((2, 4), (4, 1))
    assert [R(i) for i in range(4)] == [A(2 * i) for i in range(4)]


@pytest.mark.parametrize(
    "a, b",
    [(Layout(12), Layout((4, 3))), ((Layout(2, 2),), (2,)), ((2,), (Layout(2, 2),)), ("12", 12)],
)
def test_compatible_refuses_non_inttuples(a, b) -> None:
    with pytest.raises(LayoutTypeError, match="compatible: the (first|second) argument must be an IntTuple"):
        compatible(a, b)


def test_compatible_on_shapes_is_unchanged() -> None:
    assert compatible(Layout(12).shape, Layout((4, 3)).shape) is True  # CuTe: compatible(12, (4,3))
    assert compatible((4, 3), 12) is False


def test_size1_layout_has_stride_0_in_composition_and_coalesce() -> None:
    # CuTe C++ (static) prints _1:_1 for composition(_1:_1, _1:_1) and _1:_0 for coalesce(_1:_1); here both are 1:0
    assert composition(Layout(1, 1), Layout(1, 1)) == coalesce(Layout(1, 1)) == Layout(1, 0)
    assert str(composition(Layout(8, 2), Layout((4, 1), (1, 7)))) == "(4,1):(2,14)"  # CuTe's walk for a mode


@pytest.mark.oracle
def test_cute_cxx_refuses_size1_b_statically_where_we_answer() -> None:
    """CuTe's static assert tests the stride of a size-1 mode of B; the answer here is the point 1:0."""
    from oracles import CompileError, CuteBatch, skip_without_cxx

    skip_without_cxx()
    batch = CuteBatch()
    cases = [
        ("composition(Layout<Shape<_2,_4>,Stride<_4,_1>>{}, Layout<_1,_5>{})", Layout((2, 4), (4, 1)), Layout(1, 5)),
        ("composition(Layout<Shape<_4,_3>,Stride<_1,Int<10>>>{}, Layout<_1,_7>{})", Layout((4, 3), (1, 10)), Layout(1, 7)),
    ]
    for cxx, _a, _b in cases:
        batch.add(cxx)
    for (cxx, a, b), res in zip(cases, batch.run()):
        assert isinstance(res, CompileError) and "Stride Divisibility Condition" in str(res), (cxx, res)
        assert composition(a, b) == Layout(1, 0)
