"""The free functions and the algebra on every layout-like object; valid symbolic inputs that used to be refused.

CuTe C++ defines rank/depth/size/shape/cosize of a ComposedLayout as those of its inner layout
(``layout_composed.hpp``; ``stride`` is deleted there) and those of a Tensor as those of its layout
(``tensor_impl.hpp``). Anything that is not a layout or an IntTuple is refused with a LayoutError.
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy

from pycute_layouts import (
    ComposedLayout,
    Layout,
    LayoutError,
    LayoutTypeError,
    Swizzle,
    SwizzledSmemLayout,
    SymbolicUndecidable,
    coalesce,
    coalesce_z,
    composition,
    cosize,
    depth,
    filter,
    flat_divide,
    logical_divide,
    logical_product,
    make_identity_tensor,
    make_ordered_layout,
    make_tensor,
    rank,
    right_inverse,
    shape,
    size,
    stride,
    zipped_divide,
)

N = sympy.Symbol("N", positive=True, integer=True)

CL = ComposedLayout(Swizzle(3, 0, 3), 0, Layout((8, 8), (8, 1)))
SS = SwizzledSmemLayout(Swizzle(3, 4, 3), Layout((8, (4, 16)), (64, (16, 1))), element_bits=16)
CT = make_identity_tensor((3, 4))
DT = make_tensor(np.arange(64, dtype=np.int32), Layout((2, (2, 4)), (1, (2, 4))))


@pytest.mark.parametrize(
    "obj, expected",
    [
        # (rank, depth, size, shape, cosize)
        (CL, (2, 1, 64, (8, 8), 64)),
        (SS, (2, 2, 512, (8, (4, 16)), 512)),
        (CT, (2, 1, 12, (3, 4), 12)),  # CuTe: cosize of a coordinate tensor is size(coshape)
        (DT, (2, 2, 16, (2, (2, 4)), 16)),
        (Layout(((8, 2), 4)), (2, 2, 64, ((8, 2), 4), 64)),
    ],
)
def test_free_functions_answer_for_the_inner_layout(obj, expected) -> None:
    assert (rank(obj), depth(obj), size(obj), shape(obj), cosize(obj)) == expected
    # the methods agree with the free functions (they always did; the free functions did not)
    assert (obj.rank(), obj.depth(), obj.size()) == expected[:3]


def test_size_of_a_mode_of_a_layout_like() -> None:
    assert size(CL, 1) == 8 and size(SS, 1) == 64 and size(CT, 0) == 3 and size(DT, -1) == 8


def test_stride_of_a_tensor_is_its_layouts_and_a_composed_layout_has_none() -> None:
    assert stride(DT) == (1, (2, 4))
    assert str(stride(CT)[1]) == "1@1"
    for obj in (CL, SS):
        with pytest.raises(LayoutTypeError, match="has no strides"):
            stride(obj)


@pytest.mark.parametrize("fn", [rank, depth, size, shape, cosize, stride])
@pytest.mark.parametrize("bad", ["abc", None, 3.5, b"x", {1: 2}, [1, "a"], object()])
def test_non_layouts_are_refused(fn, bad) -> None:
    with pytest.raises(LayoutError):
        fn(bad)


def test_rank_of_a_string_is_not_one() -> None:
    with pytest.raises(LayoutTypeError, match="rank: expected a layout"):
        rank("abc")


def test_the_algebra_on_a_tensor_acts_on_its_layout_and_keeps_the_engine() -> None:
    C = coalesce(DT)
    assert C.layout == Layout(16, 1) and C.engine is DT.engine
    assert C.to_numpy().tolist() == DT.to_numpy().tolist()
    F = filter(make_tensor(np.arange(4), Layout((4, 2), (1, 0))))
    assert F.layout == Layout(4, 1)
    D = logical_divide(DT, 4)
    assert D.to_numpy().tolist() == composition(DT.layout, Layout((4, 4))).to_numpy().tolist()
    Z = zipped_divide(CT, (1, 2))
    assert Z(0, (1, 1)) == (1, 2)
    assert flat_divide(CT, (3, 2)).layout.shape == (3, 2, 1, 2)
    assert composition(DT, (2, 2)).to_numpy().tolist() == [0, 1, 2, 3]
    with pytest.raises(LayoutTypeError, match="not defined for a Tensor"):
        logical_product(DT, 2)


def test_coalesce_z_of_an_undecided_trailing_mode() -> None:
    # 4*N:1 holds for every N (the last mode extends with stride 4 = 4*1 either way)
    assert coalesce_z(Layout((4, N), (1, 4))) == Layout(4 * N, 1)
    assert coalesce(Layout((4, N), (1, 4))) == Layout(4 * N, 1)
    # a trailing mode that does not merge is kept whole: the same function for every N
    R = coalesce_z(Layout((4, N), (1, 5)))
    assert R == Layout((4, N), (1, 5))
    for n in (1, 2, 3):
        L, Rn = Layout((4, n), (1, 5)), R.subs(N=n)
        assert all(L(i) == Rn(i) for i in range(4 * n + 9))


def test_make_ordered_layout_with_symbolic_order_values() -> None:
    p, q = sympy.symbols("p q", integer=True)
    # CuTe's own example (layout.hpp): dynamic values are large, ordered left to right
    assert make_ordered_layout((2, 3, 4, 5), (2, p, q, 50)) == Layout((2, 3, 4, 5), (1, 10, 30, 2))
    assert make_ordered_layout((2, 3), (p, q)) == Layout((2, 3), (1, 2))
    assert make_ordered_layout((2, 3), (q, 0)) == Layout((2, 3), (3, 1))


def test_right_inverse_of_a_symbolic_size() -> None:
    assert right_inverse(Layout(N, 1)) == Layout(N, 1)
    assert right_inverse(Layout((4, N), (1, 4))) == Layout(4 * N, 1)
    assert right_inverse(Layout(N, 2)) == Layout(1, 0)
    with pytest.raises(SymbolicUndecidable, match="cannot order the strides"):
        right_inverse(Layout((4, N), (N, 1)))


_OBJS = {
    "Layout": Layout((8, 8), (8, 1)),
    "Composed": CL,
    "Smem": SwizzledSmemLayout(Swizzle(3, 4, 3), Layout((8, 64), (64, 1)), element_bits=16),
    "Tensor": make_tensor(np.arange(64), Layout((8, 8), (8, 1))),
    "Coord": make_identity_tensor((8, 8)),
    "str": "abc",
    "float": 2.5,
    "list": [1, "a"],
    "Swizzle": Swizzle(3, 0, 3),
}
_UNARY = ["coalesce", "filter", "right_inverse", "left_inverse", "complement", "nullspace", "coalesce_z",
          "make_layout_like", "flatten", "rank", "depth", "size", "cosize", "shape", "stride"]
_BINARY = ["composition", "logical_divide", "zipped_divide", "tiled_divide", "flat_divide", "logical_product",
           "zipped_product", "tiled_product", "flat_product", "blocked_product", "raked_product", "max_common_layout",
           "max_common_vector", "layout_add", "greatest_common_domain"]


@pytest.mark.parametrize("kind", sorted(_OBJS))
def test_every_free_function_answers_or_refuses_every_layout_like(kind: str) -> None:
    import pycute_layouts as pl

    o = _OBJS[kind]
    for name in _UNARY:
        try:
            getattr(pl, name)(o)
        except LayoutError:
            pass
    for name in _BINARY:
        for other in (Layout(4), o):
            try:
                getattr(pl, name)(o, other)
            except LayoutError:
                pass
