"""Regression tests of the session-5 review: escapes found by probing the day's changes at the public boundary."""

from __future__ import annotations

import dataclasses

import pytest

from pycute_layouts import Layout, _, crd2idx, slice_and_offset
from pycute_layouts.arch import atoms
from pycute_layouts.errors import CoordinateError, HwCheckError
from pycute_layouts.hwcheck import atoms_complex


@pytest.mark.parametrize("word", [None, 1.5, "1", (1, 2), True, -1, 2**32])
def test_dp2a_traits_refuses_a_bad_word(word) -> None:
    """dp2a_traits checks its words as dp2a_ptx does (a TypeError escaped for a non-int word)."""
    atom = atoms.mma_atom("SM61_DP2A")
    with pytest.raises(HwCheckError):
        atoms_complex.dp2a_traits(atom, word, 0x100)
    with pytest.raises(HwCheckError):
        atoms_complex.dp2a_traits(atom, 0x20001, word)
    assert atoms_complex.dp2a_traits(atom, 0x20001, 0x100) == 256


def test_complex_regs_refuses_a_layout_outside_the_operand() -> None:
    """A (planted) layout_a whose values leave A's M*K elements is a HwCheckError, not an IndexError."""
    atom = atoms.mma_atom("SM80_8x8x4_C64C64C64C64_TN")
    wrong = dataclasses.replace(atom, layout_a=Layout((2, 2), (1, 2)))
    with pytest.raises(HwCheckError, match="layout_a maps"):
        atoms_complex.complex_regs(wrong)


@pytest.mark.parametrize("coord", [_, 3, (3, _)])
def test_slice_of_a_zero_extent_is_a_coordinate_error(coord) -> None:
    """An int coordinate split over a mode of size 0 (a ZeroDivisionError escaped from slice_and_offset)."""
    layout = Layout((0, 4)) if coord is _ or coord == 3 else Layout(((0, 2), 4))
    with pytest.raises(CoordinateError, match="has size 0"):
        slice_and_offset(coord, layout)


def test_crd2idx_over_a_zero_extent_is_a_coordinate_error() -> None:
    with pytest.raises(CoordinateError, match="has size 0"):
        crd2idx(3, (0, 2))
    assert crd2idx((0, 1), (0, 2)) == 0 and crd2idx(3, (2, 0)) == 3


def test_symbolic_coordinate_layout_index_gives_a_coordinate() -> None:
    """L(i) of a basis-stride layout with a symbolic shape is a coordinate tuple, as L(c) and integer shapes give
    (it returned the ScaledBasis sum, or the int 0 for L(0)); equal to the integer layout's for m = 1, 2, 3."""
    import sympy

    from pycute_layouts import E
    m = sympy.Symbol("m", positive=True, integer=True)
    L = Layout((m, 4), (E(0), E(1)))
    assert L(0) == (0, 0) and L((1, 2)) == (1, 2)
    assert L(5) == (sympy.Mod(5, m), sympy.floor(5 / m))
    d = (-E(0), 2 * E(2), (2 * E(1), 0))
    L = Layout((2 * m, m, (1, 3)), d)
    for v in (1, 2, 3):
        Lv = Layout((2 * v, v, (1, 3)), d)
        for i in range(40):
            assert tuple(sympy.sympify(x).subs(m, v) for x in L(i)) == Lv(i)


def test_right_inverse_of_symbolic_basis_coefficients_is_refused_loudly() -> None:
    """Coefficients sympy cannot order raise SymbolicUndecidable (a TypeError escaped from the sort)."""
    import sympy

    from pycute_layouts import E, right_inverse
    from pycute_layouts.errors import SymbolicUndecidable
    m, n = sympy.symbols("m n", positive=True, integer=True)
    with pytest.raises(SymbolicUndecidable, match="cannot order the coefficients"):
        right_inverse(Layout((4, 8, 2), (m * E(0), n * E(0), E(0))))
    assert str(right_inverse(Layout((4, 8), (E(0), m * E(0))))) == "(4):(1)"  # orderable: unchanged


def test_coordinate_right_inverse_skips_a_stride_that_does_not_continue_the_chain():
    """CuTe's inverse_seq finds the next stride anywhere; the chain used to stop at the first misfit (smaller R)."""
    from pycute_layouts import E, Layout, right_inverse, size
    for L, n in ((Layout((2, 4, 2), (E(0), E(0), 2 * E(0))), 4), (Layout((2, 4, 2), (-1 * E(0), E(0), 4 * E(0))), 8)):
        R = right_inverse(L)
        assert size(R) == n, (L, R)
        assert all(L(R(i)) == (i,) for i in range(n))


def test_a_codomain_component_both_leaf_and_tuple_is_refused():
    from pycute_layouts import E, Layout, LayoutValueError
    for d in ((E(2, 0, 0), 2 * E(1, 1), 2 * E(1)), (2 * E(1), 2 * E(1, 1), E(0))):
        with pytest.raises(LayoutValueError, match="both as a leaf"):
            Layout((5, 4, 5), d)
    assert Layout((4, 8), (E(0, 1), E(1))).coord_profile() == ((0, 0), 0)
