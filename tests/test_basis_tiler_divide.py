"""Divides by a tiler with basis (coordinate) strides: PyCuTe answers, CuTe C++ does not compile them.

We follow CuTe C++: the complement such a divide needs is defined on integer strides only, so the
divide is refused with LayoutTypeError (docs/differences.md states the difference from PyCuTe).
"""

from __future__ import annotations

import pytest
from oracles import CompileError, CuteBatch, skip_without_cxx

from pycute_layouts import E, Layout, LayoutTypeError, logical_divide, make_identity_layout, zipped_divide

TILER = "make_layout(make_shape(_2{},_3{}), make_stride(E<0>{}, E<1>{}))"


@pytest.mark.oracle
def test_cute_cxx_does_not_define_a_divide_by_a_basis_tiler() -> None:
    skip_without_cxx()
    batch = CuteBatch()
    batch.add(f"zipped_divide(make_layout(make_shape(_8{{}},_12{{}})), {TILER})")
    batch.add(f"logical_divide(make_identity_layout(make_shape(_8{{}},_12{{}})), {TILER})")
    batch.add(f"complement({TILER}, make_shape(_8{{}},_12{{}}))")
    for res in batch.run():
        assert isinstance(res, CompileError), res


@pytest.mark.parametrize("layout", [Layout((8, 12)), make_identity_layout((8, 12))])
@pytest.mark.parametrize("divide", [zipped_divide, logical_divide])
def test_a_divide_by_a_basis_tiler_is_refused_as_cute_cxx_does(layout, divide) -> None:
    with pytest.raises(LayoutTypeError, match="basis strides"):
        divide(layout, Layout((2, 3), (E(0), E(1))))
