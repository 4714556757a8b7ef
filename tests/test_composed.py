"""ComposedLayout (``outer o offset o inner``) and SwizzledSmemLayout (swizzle + units).

Checked against CuTe C++ (one compiled batch: values on every index and printed forms) and
against NVIDIA pycute's ComposedLayout (which names the two layouts the other way round:
``ComposedLayout(layoutB, offset, layoutA)`` applies ``layoutA`` first). Domain operations act
on the inner layout; units: a byte swizzle ``Sw<B,4,3>`` is ``Sw<B, 4 - log2(bytes), 3>`` on
element offsets, and no element swizzle exists once an element is wider than the 16-byte chunk.
"""

from __future__ import annotations

import re

import numpy as np
import oracles
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pycute_layouts import (
    ComposedLayout,
    Layout,
    Swizzle,
    SwizzledSmemLayout,
    XorSwizzle,
    _,
    blocked_product,
    byte_to_element_swizzle,
    coalesce,
    complement,
    composition,
    downcast,
    element_to_byte_swizzle,
    filter,
    logical_divide,
    make_composed_layout,
    make_layout,
    parse,
    recast,
    tile_to_shape,
    upcast,
    zipped_divide,
)
from pycute_layouts.errors import LayoutError, LayoutTypeError, SwizzleError, UnitError
from pycute_layouts.proofs.bitvec import equivalent

BUDGET = settings.default.max_examples

C343 = ComposedLayout(Swizzle(3, 4, 3), 0, Layout((8, 64), (64, 1)))
C_CXX = "composition(Swizzle<3,4,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{})"


def values(f) -> list[int]:
    return [int(v) for v in f.to_numpy()]


# ------------------------------------------------------------------------------------------
# CuTe C++


# (our object, CuTe expression); printed forms and values on every index must agree
CASES = [
    (C343, C_CXX),
    (tile_to_shape(C343, (64, 128)), f"tile_to_shape({C_CXX}, Shape<_64,_128>{{}})"),
    (logical_divide(C343, (4, 16)), f"logical_divide({C_CXX}, Shape<_4,_16>{{}})"),
    (zipped_divide(C343, (4, 16)), f"zipped_divide({C_CXX}, Shape<_4,_16>{{}})"),
    (coalesce(C343), f"coalesce({C_CXX})"),
    (upcast(C343, 8), f"upcast<8>({C_CXX})"),
    (downcast(C343, 2), f"downcast<2>({C_CXX})"),
    (
        composition(C343, Layout((4, 2), (2, 1))),
        f"composition({C_CXX}, Layout<Shape<_4,_2>,Stride<_2,_1>>{{}})",
    ),
    (composition(C343, (4, 16)), f"composition({C_CXX}, make_tile(Layout<_4>{{}}, Layout<_16>{{}}))"),
    (blocked_product(C343, Layout((2, 2))), f"blocked_product({C_CXX}, Layout<Shape<_2,_2>>{{}})"),
    (
        make_composed_layout(Swizzle(2, 4, 3), 32, Layout((8, 32), (32, 1))),
        "make_composed_layout(Swizzle<2,4,3>{}, _32{}, Layout<Shape<_8,_32>,Stride<_32,_1>>{})",
    ),
]
# every GMMA-style atom: Sw<B,4,3> (byte-level parameters) on 8 rows of 2^(B+4) elements, both majors
ATOMS = (
    [(b, (8, 1 << (b + 4)), (1 << (b + 4), 1)) for b in range(4)]
    + [(b, (1 << (b + 4), 8), (1, 1 << (b + 4))) for b in range(4)]
    + [(b, (8, 64), (64, 1)) for b in range(4)]
    + [(3, (16, 128), (128, 1)), (2, (4, 4, 32), (1, 128, 4))]
)
SLICES = [((_, 3), f"{C_CXX}(_, 3)", (0, 3)), ((2, _), f"{C_CXX}(2, _)", (2, 0))]


@pytest.fixture(scope="module")
def cute():
    oracles.skip_without_cxx()
    batch = oracles.CuteBatch()
    printed = [batch.add(cxx) for _obj, cxx in CASES]
    vals = [batch.add_values(cxx) for _obj, cxx in CASES]
    atoms = [batch.add_values(oracles.composed_cxx((b, 4, 3), s, d)) for b, s, d in ATOMS]
    slices = [batch.add_values(cxx) for _c, cxx, _o in SLICES]
    up32 = batch.add_values(f"upcast<32>({C_CXX})")
    out = batch.run()
    for r in out:
        if isinstance(r, oracles.OracleError):
            pytest.fail(f"CuTe oracle: {r}")
    return {
        "printed": [oracles.normalize(out[i]) for i in printed],
        "values": [oracles.parse_values(out[i]) for i in vals],
        "atoms": [oracles.parse_values(out[i]) for i in atoms],
        "slices": [oracles.parse_values(out[i]) for i in slices],
        "up32": oracles.parse_values(out[up32]),
    }


@pytest.mark.oracle
def test_sw343_on_8x64_matches_cute_on_every_index(cute):
    assert values(C343) == cute["values"][0]
    assert [C343(i) for i in range(C343.size())] == cute["values"][0]
    assert str(C343) == cute["printed"][0] == "Sw<3,4,3> o 0 o (8,64):(64,1)"


@pytest.mark.oracle
@pytest.mark.parametrize("k", range(len(CASES)), ids=[c for _o, c in CASES])
def test_composed_operations_match_cute(cute, k):
    ours, _cxx = CASES[k]
    assert str(ours) == cute["printed"][k]
    assert values(ours) == cute["values"][k]
    assert parse(cute["printed"][k]) == ours


@pytest.mark.oracle
def test_swizzle_atoms_match_cute(cute):
    for (b, s, d), ref in zip(ATOMS, cute["atoms"], strict=True):
        assert values(ComposedLayout(Swizzle(b, 4, 3), 0, Layout(s, d))) == ref, (b, s, d)


@pytest.mark.oracle
def test_slices_match_cute_up_to_its_offset(cute):
    """CuTe decays a sliced swizzle layout to a plain layout plus a separate offset; ours keeps the offset."""
    for (coord, _cxx, origin), ref in zip(SLICES, cute["slices"], strict=True):
        sub = C343(*coord)
        assert isinstance(sub, ComposedLayout)
        base = C343(*origin)
        assert [v - base for v in values(sub)] == ref


@pytest.mark.oracle
def test_upcast_past_the_swizzle_base_is_refused_where_cute_drops_bits(cute):
    """CuTe's upcast<32>(Sw<3,4,3> o ...) is Sw<2,0,3> o (8,2):(2,1): it silently drops bit 4."""
    starts = [C343(i, 32 * j) for j in range(2) for i in range(8)]  # first element of row i, 32-wide unit j
    assert any(s % 32 for s in starts)  # the 32 elements of a unit are not a 32-aligned block ...
    unit = [C343(2, k) for k in range(32)]  # row 2, unit 0: the aligned block 128..159, but permuted
    assert sorted(unit) == list(range(128, 160)) and unit != sorted(unit)
    assert cute["up32"] == [s // 32 for s in starts]  # CuTe rounds the start down: bit 4 is lost
    with pytest.raises(SwizzleError, match=r"upcast<32>: Sw<3,4,3> XORs bits below bit 5"):
        upcast(C343, 32)


# ------------------------------------------------------------------------------------------
# NVIDIA pycute


@pytest.mark.oracle
@settings(max_examples=max(20, BUDGET // 4))
@given(st.integers(1, 3), st.integers(0, 5), st.integers(3, 5), st.integers(0, 64), st.booleans())
def test_matches_pycute_composed_layout(b, m, s, off, row_major):
    pycute = oracles.skip_without_pycute()
    shape = (8, 1 << (b + m))
    stride = (shape[1], 1) if row_major else (1, 8)
    ours = ComposedLayout(Swizzle(b, m, s), off, Layout(shape, stride))
    # pycute: ComposedLayout(layoutB, offset, layoutA) applies layoutA first -- the other way round
    theirs = pycute.ComposedLayout(pycute.Swizzle(b, m, s), off, pycute.Layout(shape, stride))
    assert values(ours) == [theirs(i) for i in range(ours.size())]
    coords = [(i, j) for i in range(8) for j in range(3)]
    assert [ours(i, j) for i, j in coords] == [theirs(i, j) for i, j in coords]
    assert str(theirs.layoutB).startswith("SW_") and theirs.layoutA.shape == shape  # pycute's naming


# ------------------------------------------------------------------------------------------
# domain operations act on the inner layout


def swizzled_tiles() -> st.SearchStrategy[ComposedLayout]:
    """Sw<B,M,S> o off o (2^a, 2^b) row- or column-major tiles."""
    return st.builds(
        lambda b, m, s, off, r, c, rm: ComposedLayout(
            Swizzle(b, m, max(s, b)), off, Layout((1 << r, 1 << c), ((1 << c, 1) if rm else (1, 1 << r)))
        ),
        st.integers(0, 3),
        st.integers(0, 4),
        st.integers(1, 4),
        st.sampled_from([0, 0, 16, 1024]),
        st.integers(1, 4),
        st.integers(1, 6),
        st.booleans(),
    )


@settings(max_examples=max(20, BUDGET // 2))
@given(swizzled_tiles(), st.data())
def test_slicing(C, data):
    r, c = C.shape
    j = data.draw(st.integers(0, c - 1))
    i = data.draw(st.integers(0, r - 1))
    col, row = C(_, j), C(i, _)
    assert isinstance(col, ComposedLayout) and col.outer == C.outer
    assert [col(k) for k in range(r)] == [C(k, j) for k in range(r)]
    assert [row(k) for k in range(c)] == [C(i, k) for k in range(c)]
    sub, off = C.slice_and_offset(_, j)
    assert off == 0 and sub == col
    assert [C[1](k) for k in range(c)] == [C.outer(C.offset + C.inner[1](k)) for k in range(c)]


@settings(max_examples=max(20, BUDGET // 2))
@given(swizzled_tiles(), st.data())
def test_composition_with_tilers(C, data):
    r, c = C.shape
    tr = data.draw(st.sampled_from([d for d in (1, 2, 4, 8, 16) if r % d == 0]))
    tc = data.draw(st.sampled_from([d for d in (1, 2, 4, 8, 16, 32) if c % d == 0]))
    T = composition(C, (tr, tc))
    assert isinstance(T, ComposedLayout) and T.outer == C.outer and T.shape == (tr, tc)
    assert [T(i, j) for i in range(tr) for j in range(tc)] == [C(i, j) for i in range(tr) for j in range(tc)]
    B = Layout((tr, 2), (1, tr)) if tr * 2 <= r else Layout(tr)
    R = composition(C, B)
    assert values(R) == [C(B(k)) for k in range(B.size())]


@settings(max_examples=max(20, BUDGET // 2))
@given(swizzled_tiles(), st.data())
def test_logical_divide_and_tile_to_shape(C, data):
    r, c = C.shape
    tr = data.draw(st.sampled_from([d for d in (1, 2, 4) if r % d == 0]))
    tc = data.draw(st.sampled_from([d for d in (1, 2, 4, 8) if c % d == 0]))
    D = logical_divide(C, (tr, tc))
    ref = logical_divide(C.inner, (tr, tc))
    assert isinstance(D, ComposedLayout) and D.inner == ref
    assert values(D) == [C.outer(C.offset + v) for v in ref.to_numpy()]
    k = data.draw(st.integers(1, 3))
    T = tile_to_shape(C, (r * k, c * 2))
    assert T.inner == tile_to_shape(C.inner, (r * k, c * 2)) and T.outer == C.outer
    assert [T(i, j) for i in range(r) for j in range(c)] == [C(i, j) for i in range(r) for j in range(c)]


@settings(max_examples=max(20, BUDGET // 2))
@given(swizzled_tiles())
def test_coalesce_and_filter_act_on_the_inner_layout(C):
    for fn in (coalesce, filter):
        K = fn(C)
        assert isinstance(K, ComposedLayout) and K.inner == fn(C.inner) and K.outer == C.outer
        assert values(K) == values(C)
    assert complement(C, 4 * C.size()) == complement(C.inner, 4 * C.size())


def test_composed_protocol():
    C = make_composed_layout(Swizzle(1, 4, 3), 16, Layout((8, 16), (16, 1)))
    assert (C.outer, C.offset, C.inner) == (Swizzle(1, 4, 3), 16, Layout((8, 16), (16, 1)))
    assert (C.layout_a, C.layout_b) == (C.outer, C.inner)  # CuTe's names: A is applied last
    assert (C.size(), C.cosize(), C.rank(), C.depth(), len(C), C.shape) == (128, 128, 2, 1, 2, (8, 16))
    assert hash(C) == hash(parse(str(C))) and C == parse(str(C))
    assert repr(C) == "parse('Sw<1,4,3> o 16 o (8,16):(16,1)')"
    assert C(0, 0) == Swizzle(1, 4, 3)(16)
    nested = ComposedLayout(XorSwizzle([(7, 5)]), 0, C)  # a composed layout as the inner function
    assert values(nested) == [XorSwizzle([(7, 5)])(v) for v in values(C)]
    L = ComposedLayout(Layout(16, 2), 0, Layout(8))  # a layout as the outer function
    assert values(L) == [2 * i for i in range(8)]


# ------------------------------------------------------------------------------------------
# units: upcast/downcast, bytes <-> elements


@settings(max_examples=max(20, BUDGET // 2))
@given(st.integers(0, 3), st.sampled_from([1, 2, 4, 8]), st.integers(1, 3), st.integers(0, 3))
def test_upcast_downcast_keep_the_function(b, n, rows_log, extra):
    """upcast<n>(C)(i, j) * n == C(i, n*j) while the swizzle base is >= log2(n); downcast is its inverse."""
    cols = 1 << (b + 4 + extra)
    C = ComposedLayout(Swizzle(b, 4, 3), 0, Layout((1 << rows_log, cols), (cols, 1)))
    U = upcast(C, n)
    assert U.outer == Swizzle(b, 4 - (n.bit_length() - 1), 3) or b == 0
    assert [U(i, j) * n for i in range(1 << rows_log) for j in range(cols // n)] == [
        C(i, n * j) for i in range(1 << rows_log) for j in range(cols // n)
    ]
    assert downcast(U, n) == C
    assert recast(C, 16, 16 * n) == U


@pytest.mark.parametrize("bits,m", [(8, 4), (16, 3), (32, 2), (64, 1), (128, 0)])
@pytest.mark.parametrize("b", [0, 1, 2, 3])
def test_byte_swizzle_is_sw_b_4_minus_log2_bytes_3_on_elements(bits, m, b):
    sw = Swizzle(b, 4, 3)
    assert byte_to_element_swizzle(sw, bits) == Swizzle(b, m, 3)
    assert element_to_byte_swizzle(Swizzle(b, m, 3), bits) == sw
    cols = max(8, (1 << (b + 4)) * 8 // bits)  # one swizzle atom row = 2^(b+4) bytes
    L = Layout((8, cols), (cols, 1))
    S = SwizzledSmemLayout(sw, L, bits)
    E = S.as_unit("elements")
    assert E.swizzle == Swizzle(b, m, 3) and E.as_unit("bytes") == S
    assert np.array_equal(S.byte_addresses(), E.byte_addresses())
    assert np.array_equal(S.byte_addresses(), S.as_composed().to_numpy() * (bits // 8))
    assert equivalent(S, E, (8, cols))  # and proved, bit by bit


@pytest.mark.parametrize("base", [0, 1024, 1280, 4096 + 48])
def test_byte_and_element_views_agree_at_any_aligned_base(base):
    S = SwizzledSmemLayout(Swizzle(3, 4, 3), Layout((8, 64), (64, 1)), 16, base_address=base)
    E = S.as_unit("elements")
    assert np.array_equal(S.byte_addresses(), E.byte_addresses())
    assert S.byte_address(0, 0) == Swizzle(3, 4, 3)(base)
    assert equivalent(S, E, (8, 64))


def test_upcast_to_bits_keeps_the_byte_swizzle():
    S = SwizzledSmemLayout(Swizzle(3, 4, 3), Layout((8, 64), (64, 1)), 16, base_address=2048)
    U = S.upcast_to_bits(128)
    assert (U.swizzle, U.layout, U.element_bits) == (Swizzle(3, 4, 3), Layout((8, 8), (8, 1)), 128)
    assert U.swizzle_unit == "bytes"
    assert [U.byte_address(i, j) for i in range(8) for j in range(8)] == [
        S.byte_address(i, 8 * j) for i in range(8) for j in range(8)
    ]
    assert U.element_swizzle() == Swizzle(3, 0, 3)  # Sw<3,4,3> on 16-byte units
    E = SwizzledSmemLayout(Swizzle(3, 3, 3), Layout((8, 64), (64, 1)), 16, "elements")
    assert E.upcast_to_bits(128) == SwizzledSmemLayout(Swizzle(3, 4, 3), Layout((8, 8), (8, 1)), 128)
    D = U.upcast_to_bits(16)
    assert D.layout == S.layout and np.array_equal(D.byte_addresses(), S.byte_addresses())


def test_sub_byte_elements():
    S = SwizzledSmemLayout(Swizzle(3, 4, 3), Layout((8, 256), (256, 1)), 4)
    assert S.byte_address(1, 0) == 144 and S.bit_address(1, 1) == 144 * 8 + 4
    with pytest.raises(UnitError, match=r"element \(1, 1\) starts at bit 1156, not on a byte"):
        S.byte_address(1, 1)
    with pytest.raises(UnitError, match="4-bit elements are not a whole number of bytes"):
        S.element_swizzle()


# bad inputs and mixed units: (callable, error type, message fragment)
BAD = [
    (
        lambda: byte_to_element_swizzle(Swizzle(3, 4, 3), 256),
        UnitError,
        "Sw<3,4,3> moves 16-byte chunks but an element is 32 bytes: no element-offset swizzle is equivalent",
    ),
    (
        lambda: byte_to_element_swizzle(Swizzle(3, 4, 3), 24),
        UnitError,
        "element size 3 bytes: 3 must be a positive power",
    ),
    (
        lambda: byte_to_element_swizzle(Swizzle(3, 4, 3), 12),
        UnitError,
        "12-bit elements are not a whole number of bytes",
    ),
    (
        lambda: byte_to_element_swizzle(Swizzle(3, 4, 3), 0),
        UnitError,
        "element_bits must be a positive integer, got 0",
    ),
    (lambda: byte_to_element_swizzle(XorSwizzle([(7, 4)]), 16), LayoutTypeError, "expected a Swizzle"),
    (
        lambda: element_to_byte_swizzle(Swizzle(3, 3, 3), 16.0),
        UnitError,
        "element_bits must be a positive integer",
    ),
    (
        lambda: SwizzledSmemLayout(Swizzle(3, 4, 3), Layout(64), 16, "words"),
        UnitError,
        "swizzle_unit must be 'bytes' or 'elements', got 'words'",
    ),
    (
        lambda: SwizzledSmemLayout(Swizzle(3, 4, 3), Layout(64), 4, "elements"),
        UnitError,
        "an element-offset swizzle needs whole-byte elements, got 4-bit elements",
    ),
    (
        lambda: SwizzledSmemLayout(Swizzle(3, 4, 3), Layout(64), -16),
        UnitError,
        "element_bits must be a positive integer",
    ),
    (
        lambda: SwizzledSmemLayout(Swizzle(3, 4, 3), Layout(64), 16, base_address=-128),
        UnitError,
        "base_address must be a non-negative int, got -128",
    ),
    (
        lambda: SwizzledSmemLayout((3, 4, 3), Layout(64), 16),
        LayoutTypeError,
        "swizzle must be a Swizzle or XorSwizzle",
    ),
    (lambda: SwizzledSmemLayout(Swizzle(3, 4, 3), (8, 64), 16), LayoutTypeError, "layout must be a Layout"),
    (
        lambda: SwizzledSmemLayout(XorSwizzle([(7, 5), (7, 3)]), Layout(64), 16).element_swizzle(),
        UnitError,
        "only a single Swizzle<B,M,S> converts to element units",
    ),
    (
        lambda: SwizzledSmemLayout(Swizzle(3, 3, 3), Layout(64), 16, "elements", base_address=3).byte_address(
            0
        ),
        UnitError,
        "base address 3 is not a multiple of the element size",
    ),
    (lambda: upcast(C343, 3), UnitError, "upcast<3> of Sw<3,4,3>: 3 must be a positive power of two"),
    (
        lambda: upcast(C343, 32),
        SwizzleError,
        "inside the new 32-wide unit; it has no equivalent on the coarser units",
    ),
    (
        lambda: upcast(ComposedLayout(Swizzle(1, 4, 3), 4, Layout(64)), 8),
        UnitError,
        "upcast<8>: offset 4 is not a multiple of 8",
    ),
    (
        lambda: ComposedLayout(3, 0, Layout(8)),
        LayoutTypeError,
        "outer must be a Swizzle, XorSwizzle or Layout, got 3",
    ),
    (lambda: ComposedLayout(Swizzle(1, 4, 3), 0), LayoutTypeError, "an inner layout is required"),
    (lambda: ComposedLayout(Swizzle(1, 4, 3), 0, (8, 4)), LayoutTypeError, "inner must be a Layout"),
    (
        lambda: ComposedLayout(Swizzle(1, 4, 3), (1, 2), Layout(8)),
        LayoutTypeError,
        "offset must be an integer",
    ),
]


@pytest.mark.parametrize("build,err,msg", BAD, ids=[m[:40] for _b, _e, m in BAD])
def test_bad_inputs_and_mixed_units(build, err, msg):
    with pytest.raises(err, match=re.escape(msg)):
        build()
    assert issubclass(err, LayoutError)


def test_gmma_atoms_in_bits_recast_to_elements():
    """CUTLASS writes the GMMA atoms in bits (Sw<B,4,3> o (8, 2^(B+7)):(2^(B+7), 1) bits); per element type
    the layout is recast to elements and the byte swizzle stays Sw<B,4,3>."""
    for b in range(4):
        bits_layout = Layout((8, 1 << (b + 7)), (1 << (b + 7), 1))
        for eb in (8, 16, 32):
            L = recast(bits_layout, 1, eb)
            S = SwizzledSmemLayout(Swizzle(b, 4, 3), L, eb)
            assert L == Layout((8, (1 << (b + 7)) // eb), ((1 << (b + 7)) // eb, 1))
            assert S.element_swizzle() == Swizzle(b, 4 - (eb // 8).bit_length() + 1, 3)
            assert np.array_equal(np.sort(S.byte_addresses()), np.arange(0, L.size() * eb // 8, eb // 8))


def test_as_composed_is_cutes_element_view():
    S = SwizzledSmemLayout(Swizzle(2, 4, 3), Layout((8, 32), (32, 1)), 16)
    C = S.as_composed()
    assert C == ComposedLayout(Swizzle(2, 3, 3), 0, Layout((8, 32), (32, 1)))
    assert make_layout(Layout(8), Layout(32, 8)) == Layout((8, 32), (1, 8))
    assert np.array_equal(C.to_numpy() * 2, S.byte_addresses())
