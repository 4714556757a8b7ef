"""The CuTe C++ evidence behind the differences from PyCuTe and tensor-layouts that docs/peer-suites.md lists.

Each case is compiled with CuTe's headers; where CuTe answers, ours is its answer (printed the same),
where the peers' suites expect another value or a refusal.
"""

from __future__ import annotations

import pytest
import sympy
from oracles import CompileError, CuteBatch, normalize, skip_without_cxx

from pycute_layouts import (
    E,
    Layout,
    LayoutError,
    Swizzle,
    coalesce,
    complement,
    composition,
    cosize,
    depth,
    left_inverse,
    rank,
)
from pycute_layouts import filter as layout_filter

N = sympy.Symbol("N", positive=True, integer=True)

# (CuTe C++ expression, our value printed, what the peer expects)
AGREE = [
    ("coalesce(Layout<_1,E<0>>{})", lambda: str(coalesce(Layout(1, E(0)))), "PyCuTe: the coordinate (0,) at 0"),
    ("complement(Layout<_1,_0>{})", lambda: str(complement(Layout(1, 0))), "PyCuTe: increasing past its size"),
    ("complement(Layout<_5,_1>{})", lambda: str(complement(Layout(5, 1))), "PyCuTe: 1:5"),
    ("composition(Layout<Shape<_5,_3>,Stride<_7,_1>>{}, Layout<_2,_3>{})",
     lambda: str(composition(Layout((5, 3), (7, 1)), Layout(2, 3))), "PyCuTe: a ValueError"),
    ("left_inverse(Layout<Shape<_2,_2>,Stride<_1,_1>>{})", lambda: str(left_inverse(Layout((2, 2), (1, 1)))),
     "PyCuTe: non-injective ValueError"),
    ("left_inverse(Layout<Shape<_2,_3>,Stride<_2,_1>>{})", lambda: str(left_inverse(Layout((2, 3), (2, 1)))),
     "PyCuTe: non-injective ValueError"),
    ("rank(2)", lambda: str(rank(2)), "tensor-layouts: 0"),
    ("depth(2)", lambda: str(depth(2)), "tensor-layouts: 0"),
    ("cosize(composition(Swizzle<2,0,2>{}, Layout<_5,_1>{}))",
     lambda: str(cosize(composition(Swizzle(2, 0, 2), Layout(5, 1)))), "tensor-layouts: 6 (the image)"),
]

# CuTe C++ does not compile these; we refuse them
REFUSED = [
    ("complement(Layout<_3,E<0>>{})", lambda: complement(Layout(3, E(0)))),
    ("filter(Layout<cute::tuple<>,cute::tuple<>>{})", lambda: layout_filter(Layout((), ()))),
]


@pytest.mark.oracle
def test_cute_cxx_gives_our_values_where_the_peers_differ() -> None:
    skip_without_cxx()
    batch = CuteBatch()
    for expr, _f, _peer in AGREE:
        batch.add(expr)
    for expr, _f in REFUSED:
        batch.add(expr)
    res = batch.run()
    for (expr, f, peer), r in zip(AGREE, res):
        assert isinstance(r, str) and normalize(r) == f(), (expr, f(), r, peer)
    for (expr, f), r in zip(REFUSED, res[len(AGREE):]):
        assert isinstance(r, CompileError), (expr, r)
        with pytest.raises(LayoutError):
            f()


@pytest.mark.oracle
def test_cute_cxx_keeps_a_dynamic_mode_that_we_merge() -> None:
    """coalesce((4,N):(1,4)): CuTe C++ with a run-time N keeps both modes, we merge (the same function)."""
    skip_without_cxx()
    batch = CuteBatch(preamble="static int n_ = 5;\n")
    batch.add("coalesce(make_layout(make_shape(_4{}, int(n_)), make_stride(_1{}, _4{})))")
    batch.add("complement(make_layout(int(n_), _1{}))")
    keep, comp = batch.run()
    assert normalize(keep) == "(4,5):(1,4)"
    assert str(coalesce(Layout((4, N), (1, 4)))) == "4*N:1"
    assert all(coalesce(Layout((4, n), (1, 4))) == Layout(4 * n, 1) for n in (1, 2, 5))
    assert normalize(comp) == "1:5"  # a run-time 1 keeps its stride; ours is the static answer
    assert str(complement(Layout(N, 1))) == "1:0"


# blocks with gaps no layout fills: complement refuses them, the products answer as CuTe C++ does
GAP_PRODUCTS = [
    ("logical_product", ((4, 6), (1, 6)), (3, 1)),
    ("logical_product", ((2, 2), (1, 5)), (4, 1)),
    ("logical_product", ((3, 2), (1, 4)), ((2, 2), (1, 2))),
    ("logical_product", ((2, 2), (1, 3)), (3, 1)),
    ("blocked_product", ((4, 6), (1, 6)), ((3, 2), (1, 3))),
    ("raked_product", ((2, 3), (1, 5)), ((2, 2), (2, 1))),
]


@pytest.mark.oracle
def test_products_of_blocks_with_gaps_are_cutes() -> None:
    from oracles import layout_cxx

    import pycute_layouts as pl

    skip_without_cxx()
    batch = CuteBatch()
    for name, a, b in GAP_PRODUCTS:
        batch.add(f"{name}({layout_cxx(*a)}, {layout_cxx(*b)})")
    for (name, a, b), res in zip(GAP_PRODUCTS, batch.run()):
        A = Layout(*a)
        with pytest.raises(LayoutError):
            complement(A, A.size() * Layout(*b).cosize())  # the strict complement stays refused
        R = getattr(pl, name)(A, Layout(*b))
        assert isinstance(res, str) and str(R) == normalize(res), (name, a, b, str(R), res)
        offsets = R.to_numpy().tolist()
        assert len(set(offsets)) == len(offsets), (name, a, b)  # the copies of the block are disjoint
