"""pycute_layouts.analysis: bank conflicts (against a brute-force bank simulator), swizzle search,
F2-linear layouts (round trips, composition, inversion) and explain."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from pycute_layouts import (
    AdmissibilityError,
    ComposedLayout,
    CoordinateError,
    Layout,
    LayoutError,
    LayoutTypeError,
    LayoutValueError,
    Swizzle,
    SwizzledSmemLayout,
    UnitError,
    XorSwizzle,
    byte_to_element_swizzle,
    composition,
    parse,
)
from pycute_layouts import analysis as an
from pycute_layouts.arch.tma import box_to_smem, swizzle_byte_map
from pycute_layouts.strategies import admissible_composition_pairs, layouts

# --------------------------------------------------------------------------------------------------
# An independent simulator: expand every access to its bytes, bytes to 4-byte words, words to the
# 32 banks; phases are fixed slices of the warp by access width.
# --------------------------------------------------------------------------------------------------


def simulate(addresses: list, access_bytes: int) -> tuple[int, list[int]]:
    """(wavefronts, max distinct words per bank over the phases) for one warp access."""
    groups = {1: 1, 2: 1, 4: 1, 8: 2, 16: 4}[access_bytes]
    size = 32 // groups
    wavefronts = 0
    per_bank = [0] * 32
    for g in range(groups):
        banks: dict[int, set] = {}
        active = False
        for t in range(g * size, (g + 1) * size):
            a = addresses[t]
            if a is None:
                continue
            active = True
            for byte in range(a, a + access_bytes):
                word = byte >> 2
                banks.setdefault(word & 31, set()).add(word)
        if active:
            wavefronts += max(len(s) for s in banks.values())
            for b, s in banks.items():
                per_bank[b] = max(per_bank[b], len(s))
    return wavefronts, per_bank


def ldmatrix_rows(num: int, row_elems: int, origins=None) -> list:
    origins = origins or [(0, m * row_elems) for m in range(num)]
    return [(origins[t // 8][0] + t % 8, origins[t // 8][1]) if t < 8 * num else None for t in range(32)]


# --------------------------------------------------------------------------------------------------
# Classic results, exactly
# --------------------------------------------------------------------------------------------------

# (tile, swizzle that fixes it, ldmatrix .xN that covers one 8-row block of 16-byte columns,
#  wavefronts unswizzled, conflict degree unswizzled)
CLASSIC = [
    # 128-byte rows: the 8 rows of one 16-byte column are 128 B apart -> the same 4 banks: 8-way.
    (Layout((8, 64), (64, 1)), Swizzle(3, 4, 3), 4, 32, 8),
    # 64-byte rows: rows r and r+2 are 128 B apart -> rows {0,2,4,6} share banks: 4-way.
    (Layout((8, 32), (32, 1)), Swizzle(2, 4, 3), 4, 16, 4),
    # 32-byte rows: rows r and r+4 are 128 B apart: 2-way (two 16-byte columns -> .x2).
    (Layout((8, 16), (16, 1)), Swizzle(1, 4, 3), 2, 4, 2),
]


@pytest.mark.parametrize("tile,sw,num,wf,degree", CLASSIC, ids=["128B", "64B", "32B"])
def test_classic_ldmatrix_conflicts_and_their_swizzle(tile, sw, num, wf, degree) -> None:
    for op in (an.ldmatrix_pattern, an.stmatrix_pattern):
        pat = op(num)
        plain = an.bank_conflicts(SwizzledSmemLayout(Swizzle(0, 4, 3), tile, 16), pat)
        assert (plain.wavefronts, plain.ideal_wavefronts, plain.conflict_degree) == (wf, num, degree)
        assert plain.phase_bank_words[0][:4] == (degree,) * 4       # matrix 0 lives in banks 0-3
        fixed = an.bank_conflicts(SwizzledSmemLayout(sw, tile, 16), pat)
        assert (fixed.wavefronts, fixed.conflict_degree, fixed.is_conflict_free) == (num, 1, True)
        assert set(fixed.per_bank) == {1}                            # every bank once per matrix
        # the same through CuTe's element-unit ComposedLayout with element_bits (Sw<B,3,3> on 16-bit offsets),
        # through the same string read on bytes only when asked (swizzle_unit="bytes") ...
        el = byte_to_element_swizzle(sw, 16)
        assert an.bank_conflicts(ComposedLayout(el, 0, tile), pat, element_bits=16).wavefronts == num
        assert an.bank_conflicts(ComposedLayout(sw, 0, tile), pat, element_bits=16, swizzle_unit="bytes").wavefronts == num
        # ... and through the byte-address ComposedLayout: Sw on bytes o the tile in bytes
        byte_tile = Layout(tile.shape, (tile.stride[0] * 2, 2))
        assert an.bank_conflicts(ComposedLayout(sw, 0, byte_tile), op(num, element_bits=16)).wavefronts == num


@pytest.mark.parametrize("tile,sw,num,wf,degree", CLASSIC, ids=["128B", "64B", "32B"])
def test_classic_x1_is_one_matrix(tile, sw, num, wf, degree) -> None:
    p1 = an.ldmatrix_pattern(1)
    assert an.bank_conflicts(tile, p1, element_bits=16).wavefronts == degree
    assert an.bank_conflicts(ComposedLayout(byte_to_element_swizzle(sw, 16), 0, tile), p1, element_bits=16).wavefronts == 1


def test_tma_128B_box_is_conflict_free_for_ldmatrix() -> None:
    """TMA's 128B placement (box_to_smem, from the PTX pattern table) gives the same 4 wavefronts."""
    smem = box_to_smem("128B", 2, (64, 8))                  # [row, byte in row]

    def addr(r: int, c: int) -> int:
        return int(smem[r, 2 * c])

    assert an.bank_conflicts(addr, an.ldmatrix_pattern(4)).wavefronts == 4
    none = box_to_smem("NONE", 2, (64, 8))
    assert an.bank_conflicts(lambda r, c: int(none[r, 2 * c]), an.ldmatrix_pattern(4)).wavefronts == 32


def test_a_fragment_16x16_on_a_128B_tile() -> None:
    """The mma A fragment: matrices (rows 0-7, k 0-7), (8-15, 0-7), (0-7, 8-15), (8-15, 8-15)."""
    tile = Layout((16, 64), (64, 1))
    pat = an.ldmatrix_pattern(4, matrix_origins=[(0, 0), (8, 0), (0, 8), (8, 8)])
    assert an.bank_conflicts(tile, pat, element_bits=16).wavefronts == 32
    assert an.bank_conflicts(ComposedLayout(Swizzle(3, 3, 3), 0, tile), pat, element_bits=16).wavefronts == 4


def test_scalar_and_vector_cases() -> None:
    lin = list(range(32))
    assert an.bank_conflicts(Layout(32, 4), lin, 4).wavefronts == 1           # consecutive words
    r = an.bank_conflicts(Layout(32, 128), lin, 4)                            # column of a 32x32 f32 tile
    assert (r.wavefronts, r.conflict_degree, r.per_bank[0], r.per_bank[1]) == (32, 32, 32, 0)
    assert an.bank_conflicts(Layout(32, 132), lin, 4).wavefronts == 1         # padded by one word
    assert an.bank_conflicts(Layout(32, 0), lin, 4).wavefronts == 1           # broadcast
    assert an.bank_conflicts(Layout(32, 1), lin, 1).wavefronts == 1           # bytes share words
    r8 = an.bank_conflicts(Layout(32, 8), lin, 8)
    assert (r8.wavefronts, r8.ideal_wavefronts, len(r8.phases)) == (2, 2, 2)  # two half-warps
    r16 = an.bank_conflicts(Layout(32, 32), lin, 16)                          # 16 B every 32 B: 2-way
    assert (r16.wavefronts, r16.conflict_degree) == (8, 2)
    assert r16.thread_banks[1] == (8, 9, 10, 11)


def test_inactive_threads_and_input_forms_agree() -> None:
    tile = SwizzledSmemLayout(Swizzle(2, 4, 3), Layout((8, 32), (32, 1)), 16)
    coords = ldmatrix_rows(4, 8)
    a = an.bank_conflicts(tile, coords, 16)
    b = an.bank_conflicts(tile, np.array(coords), 16)
    c = an.bank_conflicts(tile, an.ldmatrix_pattern(4))
    assert a.wavefronts == b.wavefronts == c.wavefronts == 4
    half = an.bank_conflicts(tile, coords[:16] + [None] * 16, 16)
    assert (half.wavefronts, len(half.phases), half.thread_addresses[20], half.thread_banks[20]) == (2, 2, None, ())
    idx = an.bank_conflicts(Layout(256, 2), Layout(32, 8), 16)                # thread layout: t -> 8t
    assert idx.thread_addresses[:3] == (0, 16, 32) and idx.wavefronts == 4


def test_picture_has_one_line_per_wavefront() -> None:
    r = an.bank_conflicts(Layout((8, 64), (64, 1)), an.ldmatrix_pattern(2), element_bits=16)
    lines = r.picture().splitlines()
    assert len(lines) == 2 + r.wavefronts == 18
    assert lines[2].split("|")[1].split()[:5] == ["0", "0", "0", "0", "."]
    assert lines[3].split("|")[1].split()[:4] == ["1"] * 4                    # row 1 waits a wavefront
    text = r.to_text()
    assert "16 wavefront(s) (ideal 2): 8-way bank conflict" in text
    d = r.to_dict()
    assert d["wavefronts"] == 16 and d["thread_coords"][9] == [1, 8] and d["thread_coords"][20] is None


# --------------------------------------------------------------------------------------------------
# Property: the analysis agrees with the simulator
# --------------------------------------------------------------------------------------------------


@st.composite
def warp_access(draw):
    data = draw(layouts(max_rank=3, max_size=256, stride_zero=True))
    ab = draw(st.sampled_from((1, 2, 4, 8, 16)))
    b = draw(st.integers(0, 3))
    m = draw(st.integers(0, 4))
    s = draw(st.integers(max(b, 1), 6))
    sw = Swizzle(b, m, s)
    n = data.size()
    coords = draw(st.lists(st.one_of(st.integers(0, n - 1), st.none()), min_size=32, max_size=32))
    assume(any(c is not None for c in coords))
    return data, sw, ab, coords


@given(warp_access())
@settings(max_examples=300)
def test_bank_conflicts_match_brute_force(case) -> None:
    data, sw, ab, coords = case

    def addr(i: int) -> int:          # one access-wide slot per swizzled offset: always aligned
        return ab * sw(data(i))

    r = an.bank_conflicts(addr, coords, ab)
    expected_wf, expected_bank = simulate([None if c is None else addr(c) for c in coords], ab)
    assert r.wavefronts == expected_wf
    assert list(r.per_bank) == expected_bank
    assert r.ideal_wavefronts <= r.wavefronts
    assert sum(max(p) for p in r.phase_bank_words) == r.wavefronts


@given(warp_access())
@settings(max_examples=200)
def test_swizzled_smem_layout_matches_brute_force(case) -> None:
    data, sw, ab, coords = case
    assume(all(d >= 0 for d in np.ravel(data.to_numpy())))
    k = ab.bit_length() - 1
    sw_bytes = Swizzle(sw.bits, sw.base + k, sw.shift)  # moves whole access-wide units
    smem = SwizzledSmemLayout(sw_bytes, data, element_bits=8 * ab)
    r = an.bank_conflicts(smem, coords, ab)
    expected = simulate([None if c is None else int(smem.byte_address(c)) for c in coords], ab)
    assert (r.wavefronts, list(r.per_bank)) == expected


# --------------------------------------------------------------------------------------------------
# Swizzle search
# --------------------------------------------------------------------------------------------------


def test_search_finds_the_classic_swizzles() -> None:
    tma = {}
    for tile, sw, num, _, _ in CLASSIC:
        found = an.conflict_free_swizzles(tile, an.ldmatrix_pattern(num), element_bits=16)
        assert found and all(c.is_conflict_free for c in found)
        assert sw in [c.swizzle for c in found]
        tma[str(tile)] = [c.tma_modes[0] for c in found if c.tma_modes]
    assert tma == {"(8,64):(64,1)": ["128B"], "(8,32):(32,1)": ["64B", "128B"],
                   "(8,16):(16,1)": ["32B", "64B", "128B"]}
    best = an.conflict_free_swizzles(Layout((8, 64), (64, 1)), an.ldmatrix_pattern(4), element_bits=16)
    assert [str(c.swizzle) for c in best] == ["Sw<3,4,3>"]


def test_search_ranking_and_verification() -> None:
    tile = Layout((8, 64), (64, 1))
    pat = an.ldmatrix_pattern(4)
    every = an.conflict_free_swizzles(tile, pat, element_bits=16, include_conflicting=True)
    wfs = [c.wavefronts for c in every]
    assert wfs == sorted(wfs) and wfs[0] == 4 and wfs[-1] == 32
    for c in every:  # each reported count is what bank_conflicts says through that swizzle
        assert an.bank_conflicts(SwizzledSmemLayout(c.swizzle, tile, 16), pat).wavefronts == c.wavefronts
    flip = swizzle_byte_map("128B_ATOM_32B_FLIP_8B")
    assert flip not in [c.swizzle for c in every]   # the 8-byte flip splits 16-byte rows: never tried
    # a column of a 32x32 fp32 tile (thread t reads (t, 0)): 32-way; 3 XOR bits leave 4-way, 5 fix it
    column = (Layout((32, 32), (32, 1)), Layout(32, 1), 4)
    assert an.conflict_free_swizzles(*column, element_bits=32) == []
    every = an.conflict_free_swizzles(*column, element_bits=32, include_conflicting=True)
    assert (every[0].wavefronts, every[-1].wavefronts) == (4, 32)
    assert str(an.conflict_free_swizzles(*column, element_bits=32, max_bits=5)[0].swizzle) == "Sw<5,2,5>"


# --------------------------------------------------------------------------------------------------
# F2-linear layouts
# --------------------------------------------------------------------------------------------------


def brute_linear(f, n: int) -> bool:
    vals = [f(i) for i in range(n)]
    return all(vals[x ^ y] == vals[x] ^ vals[y] for x in range(n) for y in range(n))


def ll_values(ll: an.LinearLayout, layout) -> np.ndarray:
    """The LinearLayout evaluated at every index of ``layout`` (mode coordinates from the index)."""
    sizes = [s for _, s in ll.in_dims]
    out = []
    for i in range(int(np.prod(sizes))):
        args, rest = [], i
        for s in sizes:
            args.append(rest % s)
            rest //= s
        out.append(ll(*args))
    return np.array(out)


@given(layouts(max_rank=3, max_size=64, power_of_two=True, stride_zero=True))
def test_to_linear_layout_is_exactly_the_f2_linear_layouts(layout) -> None:
    n = layout.size()
    linear = brute_linear(layout, n)
    if not linear:
        with pytest.raises(AdmissibilityError, match="not F2-linear"):
            an.to_linear_layout(layout)
        return
    ll = an.to_linear_layout(layout)
    assert np.array_equal(ll_values(ll, layout), layout.to_numpy())
    back = an.from_linear_layout(ll)
    assert np.array_equal(back.to_numpy(), layout.to_numpy())
    assert isinstance(back, Layout)                          # disjoint bases: no swizzle needed
    assert an.to_linear_layout(back).equivalent(ll)


@st.composite
def swizzled_layouts(draw):
    inner = draw(layouts(max_rank=3, max_size=512, power_of_two=True, injective=True))
    b = draw(st.integers(0, 3))
    s = draw(st.sampled_from([x for x in range(-6, 7) if abs(x) >= max(b, 1)]))
    m = draw(st.integers(0, 5)) + max(0, -s)
    return ComposedLayout(Swizzle(b, m, s), 0, inner)


@given(swizzled_layouts())
def test_swizzled_round_trip(c) -> None:
    ll = an.to_linear_layout(c)
    assert np.array_equal(ll_values(ll, c), c.to_numpy())
    back = an.from_linear_layout(ll)
    assert np.array_equal(back.to_numpy(), c.to_numpy())
    assert an.to_linear_layout(back).equivalent(ll)


@st.composite
def linear_layouts(draw):
    ndims = draw(st.integers(1, 3))
    bases = {}
    for d in range(ndims):
        k = draw(st.integers(0, 4))
        bases[f"in{d}"] = draw(st.lists(st.integers(0, 1023), min_size=k, max_size=k))
    return an.LinearLayout(bases, ["out"])


@given(linear_layouts())
def test_from_linear_layout_any_bases(ll) -> None:
    flat = [v for b in ll.bases.values() for v in b if v]
    rank = ll.rank()
    if rank != len(flat):
        with pytest.raises(AdmissibilityError, match="linearly dependent"):
            an.from_linear_layout(ll)
        return
    back = an.from_linear_layout(ll)
    names = [n for n, _ in ll.in_dims]
    again = an.to_linear_layout(back, in_dims=names, out_dim="out")
    assert again.equivalent(ll)


@given(admissible_composition_pairs(max_size=64, max_b_size=64, overflow=False,
                                    lhs=layouts(max_rank=2, max_size=64, power_of_two=True, injective=True)))
def test_f2_composition_agrees_with_layout_composition(pair) -> None:
    a, b = pair
    assume(all(x > 0 and x & (x - 1) == 0 for x in np.ravel([b.size()])))
    try:
        lb = an.to_linear_layout(b, out_dim="idx")
        la = an.to_linear_layout(a, in_dims="idx")
    except AdmissibilityError:
        assume(False)
        return
    ab = composition(a, b)
    composed = lb.compose(la)
    assert np.array_equal(ll_values(composed, b), ab.to_numpy())
    assert composed.flatten_ins("x").equivalent(an.to_linear_layout(ab, in_dims="x"))
    if isinstance(b.shape, tuple):   # by-mode composition: B's top-level modes are the result's
        assert composed.equivalent(an.to_linear_layout(ab))


@given(layouts(max_rank=3, max_size=256, power_of_two=True, compact=True), st.integers(0, 3))
def test_invert_compact_swizzled(layout, b) -> None:
    c = ComposedLayout(Swizzle(b, 0, max(b, 1) + 1), 0, layout) if b else layout
    ll = an.to_linear_layout(c)
    size = layout.size()
    if (size & (size - 1)) or ll.out_dims[0][1] != size:
        return
    inv = ll.invert()
    vals = c.to_numpy()
    coords = ll_coords(ll)
    for i, v in enumerate(vals):
        got = inv(int(v))
        assert (got if isinstance(got, tuple) else (got,)) == coords[i]
    ident = ll.compose(inv)
    assert all(ident(*coords[i]) == (coords[i] if len(coords[i]) > 1 else coords[i][0]) for i in range(size))


def ll_coords(ll: an.LinearLayout) -> list[tuple[int, ...]]:
    sizes = [s for _, s in ll.in_dims]
    out = []
    for i in range(int(np.prod(sizes))):
        args, rest = [], i
        for s in sizes:
            args.append(rest % s)
            rest //= s
        out.append(tuple(args))
    return out


def test_linear_layout_exact_values() -> None:
    ll = an.to_linear_layout(parse("Sw<3,4,3> o 0 o (8,64):(64,1)"))   # swizzle on element offsets here
    assert ll.bases == {"mode0": (64, 128 ^ 16, 256 ^ 32), "mode1": (1, 2, 4, 8, 16, 32)}
    smem = an.to_linear_layout(SwizzledSmemLayout(Swizzle(3, 4, 3), Layout((8, 64), (64, 1)), 16))
    assert smem.bases == {"mode0": (128 ^ 16, 256 ^ 32, 512 ^ 64), "mode1": (2, 4, 8, 16, 32, 64)}
    assert an.to_linear_layout(Swizzle(3, 4, 3)).bases["offset"][7:] == (128 ^ 16, 256 ^ 32, 512 ^ 64)
    flip = an.to_linear_layout(swizzle_byte_map("128B_ATOM_32B_FLIP_8B"))
    assert flip.bases["offset"][7] == 128 | 32 | 8 and flip.is_invertible()
    assert str(an.from_linear_layout(flip)) == "Xor<7->3,7->5,8->6> o 0 o 512:1"
    flat = an.to_linear_layout(Layout((2, 4), (4, 1)), in_dims="i")
    assert flat.in_dims == (("i", 8),) and flat.bases["i"] == (4, 1, 2)
    assert str(an.from_linear_layout(flat)) == "((2,4)):((4,1))"
    multi = an.LinearLayout({"i": [(1, 0), (0, 1), (2, 0)]}, [("x", 4), ("y", 2)])
    assert multi(7) == (3, 1) and str(an.from_linear_layout(multi)) == "((2,2,2)):((1,4,2))"
    assert multi.invert()(x=3, y=1) == 7
    assert multi.matrix() == [[1, 0, 0], [0, 0, 1], [0, 1, 0]]


def test_triton_style_examples() -> None:
    """LinearLayout.h's worked example: 4 threads x 4 warps, (t, w) -> (t, w XOR t)."""
    ll = an.LinearLayout({"t": [(1, 1), (2, 2)], "w": [(0, 1), (0, 2)]}, ["x", "y"])
    table = [[ll(t, w) for w in range(4)] for t in range(4)]
    assert table[1] == [(1, 1), (1, 0), (1, 3), (1, 2)]
    assert table[3] == [(3, 3), (3, 2), (3, 1), (3, 0)]
    transpose = an.LinearLayout({"i": [4, 8, 1, 2]}, ["o"])        # x -> 0 4 8 C 1 5 9 D ...
    assert [transpose(i) for i in range(16)] == [0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15]
    assert str(an.from_linear_layout(transpose)) == "((4,4)):((4,1))"


def test_linear_layout_bad_inputs() -> None:
    with pytest.raises(AdmissibilityError, match="extent 6, not a power of two"):
        an.to_linear_layout(Layout((6, 2), (1, 8)))
    with pytest.raises(AdmissibilityError, match=r"3 \+ 1 = 4 differs from 3 XOR 1 = 2"):
        an.to_linear_layout(Layout((4, 2), (1, 3)))
    with pytest.raises(AdmissibilityError, match="affine"):
        an.to_linear_layout(ComposedLayout(Swizzle(1, 4, 3), 8, Layout(16)))
    with pytest.raises(AdmissibilityError, match="negative stride"):
        an.to_linear_layout(Layout(4, -1))
    with pytest.raises(UnitError):
        an.to_linear_layout(SwizzledSmemLayout(Swizzle(0, 4, 3), Layout(16), 4))
    with pytest.raises(AdmissibilityError, match="affine"):
        an.to_linear_layout(SwizzledSmemLayout(Swizzle(1, 4, 3), Layout(16), 16, base_address=128))
    with pytest.raises(LayoutTypeError):
        an.to_linear_layout("8:1")
    with pytest.raises(LayoutValueError, match="unbound symbols"):
        an.to_linear_layout(parse("(8,m):(1,8)"))
    with pytest.raises(AdmissibilityError, match="not a bijection"):
        an.LinearLayout({"i": [1, 0]}, ["x"]).invert()
    a = an.LinearLayout({"i": [1, 2]}, ["j"])
    with pytest.raises(AdmissibilityError, match="input dims"):
        a.compose(an.LinearLayout({"k": [1, 2]}, ["x"]))
    with pytest.raises(AdmissibilityError, match="only has size 2"):
        a.compose(an.LinearLayout({"j": [1]}, ["x"]))
    with pytest.raises(LayoutValueError, match="non-negative"):
        an.LinearLayout({"i": [-1]}, ["x"])
    with pytest.raises(LayoutValueError, match="one per output dimension"):
        an.LinearLayout({"i": [(1, 2)]}, ["x"])
    with pytest.raises(LayoutValueError, match="not a power of two"):
        an.LinearLayout({"i": [1]}, [("x", 3)])
    with pytest.raises(LayoutValueError, match="needs size >= 8"):
        an.LinearLayout({"i": [4]}, [("x", 4)])
    with pytest.raises(LayoutValueError, match=r"in \[0, 4\)"):
        a(4)
    with pytest.raises(LayoutValueError, match="unknown input"):
        a(k=1)
    with pytest.raises(AdmissibilityError, match="linearly dependent"):
        an.from_linear_layout(an.LinearLayout({"i": [3], "j": [5, 6]}, ["x"]))
    for e in (AdmissibilityError, LayoutValueError, UnitError, LayoutTypeError):
        assert issubclass(e, LayoutError)


def test_xor_swizzle_and_nested_outer() -> None:
    x = XorSwizzle([(7, 3), (8, 5)])
    c = ComposedLayout(x, 0, Layout((8, 64), (64, 1)))
    back = an.from_linear_layout(an.to_linear_layout(c))
    assert np.array_equal(back.to_numpy(), c.to_numpy()) and isinstance(back.outer, XorSwizzle)
    outer_layout = ComposedLayout(Layout((4, 4), (4, 1)), 0, Layout(8, 2))  # (4,4):(4,1) o 8:2
    ll = an.to_linear_layout(outer_layout)
    assert [ll(i) for i in range(8)] == [int(v) for v in outer_layout.to_numpy()]


# --------------------------------------------------------------------------------------------------
# explain
# --------------------------------------------------------------------------------------------------


def test_explain_128B_k_major() -> None:
    e = an.explain(parse("Sw<3,3,3> o 0 o ((8,2),(64,2)):((64,512),(1,1024))"), element_bits=16)
    assert (e.size, e.injective, e.compact) == (2048, True, True)
    assert e.contiguous_along == (1, 8) and (e.vector_elems, e.vector_bytes) == (8, 16)
    assert e.swizzle["source_bits"] == [7, 8, 9] and e.swizzle["target_bits"] == [4, 5, 6]
    assert (e.swizzle["intact"], e.swizzle["row"], e.swizzle["phases"], e.swizzle["period"]) == (16, 128, 8, 1024)
    assert e.swizzle["tma_modes"] == ["128B"] and e.swizzle["wgmma_mode"] == "128B"
    [m] = e.wgmma
    assert (m["major"], m["mode"], m["lbo_bytes"], m["sbo_bytes"], m["k_slices"]) == ("K", "128B", 16, 1024, 8)
    assert m["atom"] == "Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)"
    assert m["atom_elements"] == "Sw<3,3,3> o 0 o (8,64):(64,1)"
    assert e.swizzle["swizzle"] == "Sw<3,4,3>" and "= Sw<3,3,3> o 0 o L on 16-bit" in e.swizzle["forms"]
    text = e.to_text()
    assert "canonical wgmma layout: K-major 128B" in text and "not MN-major canonical" in text


def test_explain_mn_major_64B_matches_ptx_example() -> None:
    e = an.explain(parse("Sw<2,3,3> o ((8,4,2),(8,2)):((1,8,256),(32,512))"), element_bits=16)
    [m] = e.wgmma
    assert (m["major"], m["mode"], m["lbo_bytes"], m["sbo_bytes"]) == ("MN", "64B", 512, 1024)
    assert e.contiguous_along == (8, 1) and e.max_contiguous_elems == 32


def test_explain_plain_and_non_canonical() -> None:
    e = an.explain(Layout((8, 64), (64, 1)), element_bits=16)
    assert e.wgmma == () and len(e.wgmma_notes) == 2 and e.max_contiguous_bytes == 1024
    assert e.swizzle is None and "not a canonical wgmma layout" in e.to_text()
    core = an.explain(Layout((8, (8, 2)), (8, (1, 64))), element_bits=16)
    assert [(m["major"], m["mode"], m["lbo_bytes"]) for m in core.wgmma] == [("K", "none", 128)]
    bare = an.explain(Layout((4, 4), (1, 8)))
    assert (bare.injective, bare.compact, bare.vector_bytes, bare.contiguous_along) == (True, False, None, (4, 1))
    assert "pass element_bits" in bare.wgmma_notes[0]
    dup = an.explain(Layout((4, 2), (1, 0)))
    assert not dup.injective and "NOT injective" in dup.to_text()
    smem = an.explain(SwizzledSmemLayout(Swizzle(1, 4, 3), Layout((8, 16), (16, 1)), 16))
    assert smem.kind == "SwizzledSmemLayout" and smem.wgmma[0]["mode"] == "32B"
    assert an.explain(Layout(8, 1)).shape_tree == ("mode 0: 8:1  (size 8)", "  leaf 0.0: 8:1")


def test_explain_bad_inputs() -> None:
    with pytest.raises(LayoutTypeError):
        an.explain(Swizzle(3, 4, 3))
    with pytest.raises(LayoutValueError, match="unbound"):
        an.explain(parse("(8,m):(m,1)"))
    with pytest.raises(UnitError):
        an.explain(Layout(8), element_bits=0)
    with pytest.raises(UnitError, match="16-bit"):
        an.explain(SwizzledSmemLayout(Swizzle(1, 4, 3), Layout(16), 16), element_bits=32)
    with pytest.raises(LayoutValueError, match="at most"):
        an.explain(Layout((1 << 12, 1 << 11)))


# --------------------------------------------------------------------------------------------------
# Bad inputs to the bank analysis
# --------------------------------------------------------------------------------------------------


def test_bank_conflicts_bad_inputs() -> None:
    lin = list(range(32))
    with pytest.raises(LayoutValueError, match="32 threads, got 31"):
        an.bank_conflicts(Layout(32, 4), lin[:31], 4)
    with pytest.raises(LayoutValueError, match="has 31 threads"):
        an.bank_conflicts(Layout(32, 4), Layout(31, 1), 4)
    with pytest.raises(LayoutValueError, match=r"got \(31,\)"):
        an.bank_conflicts(Layout(32, 4), np.arange(31), 4)
    with pytest.raises(LayoutValueError, match="access_bytes must be one of"):
        an.bank_conflicts(Layout(32, 4), lin, 3)
    with pytest.raises(LayoutValueError, match="not a multiple of 16"):
        an.bank_conflicts(Layout(32, 8), lin, 16)
    with pytest.raises(LayoutValueError, match="thread 1 accesses 8 bytes at byte address 4"):
        an.bank_conflicts(Layout(32, 4), lin, 8)
    with pytest.raises(CoordinateError, match="thread 31"):
        an.bank_conflicts(Layout(31, 4), lin, 4)
    with pytest.raises(LayoutValueError, match="required"):
        an.bank_conflicts(Layout(32, 4), lin)
    with pytest.raises(LayoutValueError, match="contradicts"):
        an.bank_conflicts(Layout((8, 64), (64, 1)), an.ldmatrix_pattern(4), 4, element_bits=16)
    with pytest.raises(LayoutTypeError):
        an.bank_conflicts(Layout(32, 4), "0123", 4)
    with pytest.raises(LayoutTypeError):
        an.bank_conflicts(Layout(32, 4), [True] * 32, 4)
    with pytest.raises(LayoutTypeError):
        an.bank_conflicts(42, lin, 4)
    with pytest.raises(LayoutTypeError, match="not an integer"):
        an.bank_conflicts(lambda i: "x", lin, 4)
    with pytest.raises(LayoutValueError, match="negative"):
        an.bank_conflicts(lambda i: -4, lin, 4)
    with pytest.raises(UnitError):
        an.bank_conflicts(SwizzledSmemLayout(Swizzle(0, 4, 3), Layout(32), 16), lin, 4, element_bits=32)
    with pytest.raises(UnitError, match="callable"):
        an.bank_conflicts(lambda i: 4 * i, lin, 4, element_bits=32)
    with pytest.raises(LayoutTypeError):
        an.AccessPattern("p", 4, [1.5] * 32)
    with pytest.raises(LayoutValueError, match="32 threads"):
        an.AccessPattern("p", 4, [0] * 16)
    assert an.AccessPattern("p", 4, [[0, 1]] * 32).coords[0] == (0, 1)
    with pytest.raises(LayoutValueError, match="1, 2 or 4"):
        an.ldmatrix_pattern(3)
    with pytest.raises(UnitError):
        an.ldmatrix_pattern(1, element_bits=12)
    with pytest.raises(LayoutValueError, match="2 \\(row, column\\) pairs"):
        an.ldmatrix_pattern(2, matrix_origins=[(0, 0)])
    with pytest.raises(LayoutTypeError):
        an.ldmatrix_pattern(1, trans="yes")
    with pytest.raises(LayoutValueError, match="unknown pattern"):
        an.parse_pattern("ldmatrix.x8")
    with pytest.raises(LayoutTypeError):
        an.conflict_free_swizzles(ComposedLayout(Swizzle(1, 4, 3), 0, Layout(8)), an.ldmatrix_pattern(1))
    with pytest.raises(UnitError):
        an.conflict_free_swizzles(Layout((8, 8), (8, 1)), an.ldmatrix_pattern(1), element_bits=12)


def test_planted_faults_are_caught(monkeypatch) -> None:
    """The simulator comparison notices a wrong phase split or a wrong bank count."""
    import pycute_layouts.analysis.banks as ab

    tile = Layout((8, 64), (64, 1))
    coords = ldmatrix_rows(4, 8)
    addrs = [2 * (64 * r + c) for r, c in coords]
    assert an.bank_conflicts(tile, coords, 16, element_bits=16).wavefronts == simulate(addrs, 16)[0]
    monkeypatch.setattr(ab, "phases_for", lambda access_bytes: (tuple(range(32)),))   # 16 B as one pass
    assert an.bank_conflicts(tile, coords, 16, element_bits=16).wavefronts != simulate(addrs, 16)[0]
    monkeypatch.undo()
    monkeypatch.setattr(ab, "NUM_BANKS", 16)
    lin = list(range(32))
    assert an.bank_conflicts(Layout(32, 4), lin, 4).wavefronts != simulate([4 * t for t in lin], 4)[0]
