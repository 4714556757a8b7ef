"""What NVIDIA PyCuTe's whole test suite (25 files, run through a name shim) taught us, with CuTe C++ as the judge.

docs/peer-suites.md lists every remaining failure of that run by class. This file holds:

* the CuTe C++ evidence behind the PyCuTe rows of docs/differences.md added with it (compiled with
  CuTe's headers: where CuTe answers, ours is its answer; where CuTe does not compile, we refuse);
* the fixes and features the run asked for: ``E()`` is CuTe's ``E<>`` (the scalar 1), ``F2(0)`` is
  a zero a basis stride adds, ``coshape`` (CuTe's), ``product_each`` / ``inner_product`` exported,
  and ``make_tensor(layout, dtype=...)`` (CuTe's owning ``make_tensor<T>(layout)``).
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy
from oracles import CompileError, CuteBatch, normalize, skip_without_cxx

from pycute_layouts import (
    F2,
    E,
    Layout,
    LayoutError,
    LayoutTypeError,
    LayoutValueError,
    coshape,
    cosize,
    greatest_common_domain,
    inner_product,
    make_layout,
    make_ordered_layout,
    make_tensor,
    product_each,
    recast,
    select,
    take,
    zipped_divide,
)

A4 = Layout((2, 3, 5, 7), (1, 2, 6, 30))
A4_CXX = "Layout<Shape<_2,_3,_5,_7>,Stride<_1,_2,_6,Int<30>>>{}"


def _s(x: object) -> str:
    return str(x).replace(" ", "")


# (CuTe C++ expression, our value printed)
AGREE = [
    # PyCuTe: select/take of a Layout give tuples of modes; CuTe (and we) give a Layout
    (f"select<1,3>({A4_CXX})", lambda: str(select(A4, 1, 3))),
    (f"take<1,3>({A4_CXX})", lambda: str(take(A4, 1, 3))),
    (f"make_layout(select<1,3>({A4_CXX}))", lambda: str(make_layout(select(A4, 1, 3)))),
    # PyCuTe: size-1 modes get the running product; CuTe (and we) stride 0
    ("make_ordered_layout(Shape<_1,_4>{}, Step<_0,_1>{})", lambda: str(make_ordered_layout((1, 4), (0, 1)))),
    ("make_ordered_layout(Shape<_4,_1,_8>{}, Step<_0,_1,_2>{})", lambda: str(make_ordered_layout((4, 1, 8), (0, 1, 2)))),
    # coshape (CuTe's; new here)
    ("coshape(Layout<Shape<_4,_8>,Stride<E<0>,E<1>>>{})", lambda: _s(coshape(Layout((4, 8), (E(0), E(1)))))),
    ("coshape(Layout<Shape<_4,_8>,Stride<E<1>,E<0>>>{})", lambda: _s(coshape(Layout((4, 8), (E(1), E(0)))))),
    ("coshape(Layout<Shape<_4,_8>,Stride<_1,_4>>{})", lambda: str(coshape(Layout((4, 8), (1, 4))))),
    ("coshape(Layout<_8,_0>{})", lambda: str(coshape(Layout(8, 0)))),
    ("coshape(Layout<Shape<_4,_8>,Stride<_1,_4>>{})", lambda: str(cosize(Layout((4, 8), (1, 4))))),
    # E<> is the scalar 1
    ("E<>{}", lambda: str(E())),
    ("3 * E<>{}", lambda: str(3 * E())),
    # product_each / inner_product (now exported)
    ("product_each(make_shape(make_shape(_2{},make_shape(_3{},_4{})),make_shape(_5{},_6{}),_7{}))",
     lambda: _s(product_each(((2, (3, 4)), (5, 6), 7)))),
    ("inner_product(make_shape(make_shape(_2{},_3{}),_4{}), make_shape(make_shape(_2{},_1{}),_2{}))",
     lambda: str(inner_product(((2, 3), 4), ((2, 1), 2)))),
    # recast where CuTe answers
    ("recast_layout<uint16_t, uint8_t>(Layout<_24,_1>{})", lambda: str(recast(Layout(24, 1), 16, 8))),
    ("recast_layout<uint8_t, uint64_t>(Layout<_24,_2>{})", lambda: str(recast(Layout(24, 2), 8, 64))),
    # a tile that does not divide a run-time extent: CuTe's ceil_div (ours with the same ints)
    ("zipped_divide(make_layout(make_shape(300,1000), make_stride(7,3000)), Shape<_128,_512>{})",
     lambda: str(zipped_divide(Layout((300, 1000), (7, 3000)), (128, 512)))),
    # CuTe's analogue of greatest_common_domain of one common factor: a depth-0 layout, as ours
    ("max_common_layout(Layout<_8,_1>{}, Layout<_8,_1>{})", lambda: str(greatest_common_domain(8, 8))),
]

# CuTe C++ does not compile these; we refuse them (LayoutError / TypeError)
REFUSED = [
    # PyCuTe: recast(24:2, 1/2) == 24:4; CuTe: "Downcast requires adjacent elements"
    ("recast_layout<uint16_t, uint8_t>(Layout<_24,_2>{})", lambda: recast(Layout(24, 2), 16, 8), LayoutError),
    ("recast_layout<uint16_t, uint8_t>(Layout<_8,_0>{})", lambda: recast(Layout(8, 0), 16, 8), LayoutError),
    ("recast_layout<uint16_t, uint8_t>(Layout<Shape<_8,_4>,Stride<_0,_2>>{})",
     lambda: recast(Layout((8, 4), (0, 2)), 16, 8), LayoutError),
    # PyCuTe: Layout((4, 8), 2) is (4,8):(2,8) (a base stride); CuTe: the layout cannot be evaluated
    ("make_layout(Shape<_4,_8>{}, _2{})(make_coord(1,1))", lambda: Layout((4, 8), 2), LayoutError),
    # PyCuTe orders coordinates and basis elements with <; CuTe has no operator< for them (elem_less/colex_less)
    ("int(E<0>{} < E<1>{})", lambda: E(0) < E(1), TypeError),
    ("int(_0{} < E<0>{})", lambda: 0 < E(0), TypeError),
]


@pytest.mark.oracle
def test_cute_cxx_gives_our_values_where_pycute_differs() -> None:
    skip_without_cxx()
    batch = CuteBatch()
    for expr, _f in AGREE:
        batch.add(expr)
    for expr, _f, _e in REFUSED:
        batch.add(expr)
    batch.add("cosize(Layout<Shape<_4,_8>,Stride<E<0>,E<1>>>{})")
    res = batch.run()
    for (expr, f), r in zip(AGREE, res):
        assert isinstance(r, str) and normalize(r) == f(), (expr, f(), r)
    for (expr, f, err), r in zip(REFUSED, res[len(AGREE):]):
        assert isinstance(r, CompileError), (expr, r)
        with pytest.raises(err):
            f()
    # CuTe C++: cosize of a coordinate layout is size(coshape); coshape keeps the per-component extents
    assert normalize(res[-1]) == "32"
    L = Layout((4, 8), (E(0), E(1)))
    assert cosize(L) == 32 and coshape(L) == (4, 8)


def test_e_of_no_path_is_the_scalar_one() -> None:
    assert E() == 1 and type(E()) is int
    assert 42 * E() == 42
    assert Layout((2, 3), (E(), 2 * E())) == Layout((2, 3), (1, 2))


def test_f2_zero_adds_to_a_basis_stride() -> None:
    f0 = F2(1) * E(0)
    assert F2(0) + f0 == f0 and f0 + F2(0) == f0
    assert f0 - F2(0) == f0
    with pytest.raises(TypeError):
        f0 + 7  # a nonzero scalar has no component: still refused
    with pytest.raises(TypeError):
        F2(3) + E(1)


def test_coshape() -> None:
    assert coshape(Layout((4, 8), (1, 4))) == 32
    assert coshape(Layout(8, 0)) == 1
    assert coshape(Layout((4, 8), (E(0), 2 * E(1)))) == (4, 15)
    assert coshape(Layout(((2, 2), 8), ((E(0, 0), E(0, 1)), E(1)))) == ((2, 2), 8)
    assert coshape(make_tensor(np.arange(8), Layout((2, 4), (4, 1)))) == 8
    n = sympy.Symbol("n", positive=True, integer=True)
    assert coshape(Layout((4, n), (1, 4))) == 4 * n
    for bad in [(4, 8), "4:1", None, 3]:
        with pytest.raises(LayoutTypeError, match="coshape"):
            coshape(bad)


def test_product_each_and_inner_product() -> None:
    assert product_each(((2, 3), 4)) == (6, 4)
    assert inner_product((1, 2), (3, 2)) == 7
    with pytest.raises(LayoutError):
        inner_product((1, 2), (3, 2, 1))
    with pytest.raises(LayoutError):
        product_each("ab")


def test_make_tensor_owning() -> None:
    T = make_tensor(Layout((4, 4), (4, 1)), dtype=np.int32)
    assert T.engine.dtype == np.int32 and T.engine.shape == (16,) and not T.engine.any()
    for i in range(16):
        T[i] = i
    assert [T[1, j] for j in range(4)] == [1, 5, 9, 13]
    assert T.engine.tolist() == [0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15]
    assert make_tensor((3, 5)).layout == Layout((3, 5), (1, 3))
    assert make_tensor(7).layout == Layout(7, 1)
    assert make_tensor(Layout((2, 3), (0, 2))).engine.shape == (5,)  # cosize, broadcast mode included
    assert make_tensor(Layout((4, 0), (1, 4))).size() == 0
    import ctypes

    assert make_tensor(Layout(4), dtype=ctypes.c_int).engine.dtype == np.dtype(ctypes.c_int)


@pytest.mark.parametrize("args,kw,err", [
    ((Layout(4, -1),), {}, LayoutValueError),
    ((Layout((4, 8), (E(0), E(1))),), {}, LayoutTypeError),
    ((Layout(8, F2(1)),), {}, LayoutValueError),
    ((Layout(sympy.Symbol("n", positive=True, integer=True), 1),), {}, LayoutValueError),
    ((Layout(4),), {"dtype": "str"}, LayoutTypeError),
    ((Layout(4),), {"dtype": object}, LayoutTypeError),
    ((np.arange(4), Layout(4)), {"dtype": np.int32}, LayoutTypeError),
    ((Layout(1 << 30, 1),), {}, LayoutValueError),
    (((2, -3),), {}, LayoutError),
    ((True,), {}, LayoutTypeError),
])
def test_make_tensor_owning_refusals(args, kw, err) -> None:
    with pytest.raises(err, match="make_tensor"):
        make_tensor(*args, **kw)
