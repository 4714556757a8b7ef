"""Tests for pycute_layouts.arch.shfl: the SASS SHFL lane maps (reference 001) and the warp simulator.

Every example program of the reference is pasted below verbatim (trailing blanks stripped; a test
checks them against the reference text when shared/reference is beside the repository) and run
on random inputs against plain numpy.
"""

from __future__ import annotations

import copy
import pickle
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pycute_layouts.arch.shfl import (
    DEFINED_MASKS,
    FULL_WARP,
    MODES,
    LaneLayout,
    ShflLane,
    ShflResult,
    ShiftLaneMap,
    Warp,
    XorLaneMap,
    bfly_swizzle,
    decode_sc,
    encode_sc,
    lane_layout,
    lane_map,
    normalize_mode,
    parse_program,
    run_program,
    segment_size,
    shfl,
)
from pycute_layouts.errors import ShflError

LANES = np.arange(32)
REPO = Path(__file__).resolve().parents[2]

# reference 001, "Warp-level INCLUSIVE PLUS SCAN:"
INCLUSIVE_SCAN = """\
    // Assumes input in following registers:
    //     - Rx  = sequence value for this thread
    SHFL.UP     P1, Ry, Rx, 1,  0
@P1 FADD        Rx, Ry, Rx
    SHFL.UP     P1, Ry, Rx, 2,  0
@P1 FADD        Rx, Ry, Rx
    SHFL.UP     P1, Ry, Rx, 4,  0
@P1 FADD        Rx, Ry, Rx
    SHFL.UP     P1, Ry, Rx, 8,  0
@P1 FADD        Rx, Ry, Rx
    SHFL.UP     P1, Ry, Rx, 16, 0
@P1 FADD        Rx, Ry, Rx
"""

# reference 001, "Warp-level EXCLUSIVE PLUS SCAN:"
EXCLUSIVE_SCAN = """\
    //Perform INCLUSIVE scan as above here//
    SHFL.UP     P1, Rx, Rx, 1, 0
    SEL         Rx, Rx, 0, P1     // Use appropriate identity for 0 with other operators
"""

# reference 001, "Warp-level INCLUSIVE PLUS REVERSE-SCAN:"
REVERSE_INCLUSIVE_SCAN = """\
    // Assumes input in following registers:
    //     - Rx  = sequence value for this thread
    //
    SHFL.DOWN   P1, Ry, Rx, 1,  31
@P1 FADD        Rx, Ry, Rx
    SHFL.DOWN   P1, Ry, Rx, 2,  31
@P1 FADD        Rx, Ry, Rx
    SHFL.DOWN   P1, Ry, Rx, 4,  31
@P1 FADD        Rx, Ry, Rx
    SHFL.DOWN   P1, Ry, Rx, 8,  31
@P1 FADD        Rx, Ry, Rx
    SHFL.DOWN   P1, Ry, Rx, 16, 31
@P1 FADD        Rx, Ry, Rx
"""

# reference 001, "BUTTERFLY REDUCTION:"
BUTTERFLY_REDUCTION = """\
    // Assumes input in following registers:
    //     - Rx  = sequence value for this thread
    SHFL.BFLY   __, Ry, Rx, 16,  31   // We never use the predicate
    FADD        Rx, Ry, Rx
    SHFL.BFLY   __, Ry, Rx, 8,   31
    FADD        Rx, Ry, Rx
    SHFL.BFLY   __, Ry, Rx, 4,   31
    FADD        Rx, Ry, Rx
    SHFL.BFLY   __, Ry, Rx, 2,   31
    FADD        Rx, Ry, Rx
    SHFL.BFLY   __, Ry, Rx, 1,   31
    FADD        Rx, Ry, Rx
    // All threads now hold sum in Rx
"""

# reference 001, "FSWZ emulation modes:"
FSWZ = """\
    //0000: TXD quad expansion (smear 0)
    SHFL.IDX   PT, Ry, Rx, 0,  0x1C03;  // broadcast = 0, Mask = 5'b11100, Max = 3 (within quad)
    //.1111: TXD quad expansion (smear 1)
    SHFL.IDX   PT, Ry, Rx, 1,  0x1C03;  // broadcast = 1, Mask = 5'b11100, Max = 3 (within quad)
    //.2222: TXD quad expansion (smear 2)
    SHFL.IDX   PT, Ry, Rx, 2,  0x1C03;  // broadcast = 2, Mask = 5'b11100, Max = 3 (within quad)
    //.3333: TXD quad expansion (smear 3)
    SHFL.IDX   PT, Ry, Rx, 3,  0x1C03;  // broadcast = 3, Mask = 5'b11100, Max = 3 (within quad)
    //.1032: DDX
    SHFL.BFLY  PT, Ry, Rx, 1,  0x1C03;  // exchange with tid^1, Mask = 5'b11100, Max = 3 (within quad)
    //.2301: DDY
    SHFL.BFLY  PT, Ry, Rx, 2,  0x1C03;  // exchange with tid^1, Mask = 5'b11100, Max = 3 (within quad)
"""


def _reference_file() -> Path | None:
    for base in (REPO.parent / "shared", REPO / "shared", Path("/work/shared")):
        hits = sorted((base / "reference").glob("001_*.txt"))
        if hits:
            return hits[0]
    return None


def _rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def _ints(seed: int) -> np.ndarray:
    """Random integer-valued floats: sums are exact, so results compare with ==."""
    return _rng(seed).integers(-1000, 1000, size=32).astype(np.float64)


# ---------------------------------------------------------------------------------------------
# the rule, transcribed lane by lane from the reference text (an independent oracle)


def reference_lane(mode: str, i: int, index: int, mask: int, clamp: int) -> tuple[int, bool]:
    """One lane, written from the reference's sentences without numpy."""
    nseg = {0b00000: 1, 0b10000: 2, 0b11000: 4, 0b11100: 8, 0b11110: 16, 0b11111: 32}[mask]
    seg = 32 // nseg
    nbits = seg.bit_length() - 1  # "the appropriate least significant bits": 5, 4, 3, ...
    low = (1 << nbits) - 1
    min_lane = next(s for s in range(0, 32, seg) if s <= i < s + seg)  # least lane of i's segment
    max_lane = min_lane + (clamp & low)
    if mode == "IDX":
        j = min_lane + (index & low)
        ok = not j > max_lane
    elif mode == "UP":
        j = i - index
        ok = not j < min_lane
    elif mode == "DOWN":
        j = i + index
        ok = not j > max_lane
    else:
        j = i ^ index
        ok = not j > max_lane
    return (j, True) if ok else (i, False)


@pytest.mark.slow  # exhaustive sweep: .ci/run runs it (python -m pytest -q -m slow)
def test_exhaustive_against_transcribed_rule():
    n = 0
    for mode in MODES:
        for mask in DEFINED_MASKS:
            for clamp in range(32):
                for index in range(32):
                    got = shfl(mode, index, encode_sc(mask, clamp))
                    want = tuple(reference_lane(mode, i, index, mask, clamp) for i in range(32))
                    assert got == want, (mode, index, mask, clamp)
                    n += 1
    assert n == 4 * 6 * 32 * 32


def test_or_form_of_min_and_max_lane():
    """For the defined masks, minLane + low bits of clamp == (i & mask) | (clamp & ~mask)."""
    for mask in DEFINED_MASKS:
        for clamp in range(32):
            r = shfl("IDX", 0, encode_sc(mask, clamp))
            assert r.min_lane.tolist() == (LANES & mask).tolist()
            assert r.max_lane.tolist() == ((LANES & mask) | (clamp & ~mask & 31)).tolist()


def test_segment_sizes_of_the_reference():
    assert segment_size(0b00000) == 32
    assert segment_size(0b10000) == 16
    assert segment_size(0b11000) == 8
    assert segment_size(0b11100) == 4  # the FSWZ examples
    assert [segment_size(m) for m in (0b11110, 0b11111)] == [2, 1]
    r = shfl("IDX", 0, encode_sc(0b10000, 15))
    assert r.min_lane.tolist() == [0] * 16 + [16] * 16
    r = shfl("IDX", 0, encode_sc(0b11000, 7))
    assert r.min_lane.tolist() == [0] * 8 + [8] * 8 + [16] * 8 + [24] * 8
    assert r.max_lane.tolist() == [7] * 8 + [15] * 8 + [23] * 8 + [31] * 8


def test_clamp_uses_only_the_segment_bits():
    # mask 11000: only the 3 low bits of clamp 0b11101 (=5) count
    r = shfl("DOWN", 1, encode_sc(0b11000, 0b11101))
    assert r.max_lane[:8].tolist() == [5] * 8
    assert r.in_range[:8].tolist() == [True] * 5 + [False] * 3
    # mask 00000: all 5 bits
    assert shfl("DOWN", 1, 0b11101).max_lane[0] == 29


def test_idx_uses_only_the_segment_bits_of_the_index():
    # mask 10000 (two halves): index 19 -> low 4 bits = 3
    r = shfl("IDX", 19, encode_sc(0b10000, 15))
    assert r.source_lanes.tolist() == [3] * 16 + [19] * 16
    assert r.in_range.all()


def test_idx_beyond_clamp_is_out_of_range():
    r = shfl("IDX", 5, encode_sc(0b11000, 3))
    assert r.source_lanes.tolist() == LANES.tolist()
    assert not r.in_range.any()


def test_up_is_computed_as_written_clamp_is_ignored():
    """The reference 'expects' clamp 0 for UP; the check it states uses minLane only."""
    for mask in DEFINED_MASKS:
        for index in range(32):
            base = shfl("UP", index, encode_sc(mask, 0))
            assert base.max_lane.tolist() == base.min_lane.tolist()  # clamp 0: maxLane == minLane
            for clamp in (1, 7, 31):
                assert shfl("UP", index, encode_sc(mask, clamp)) == base


def test_bfly_can_reach_down_into_another_segment():
    """Literal rule: BFLY only checks j > maxLane. With index 4 in quads, lane 5 reads lane 1."""
    r = shfl("BFLY", 4, 0x1C03)
    assert r[5] == (1, True)
    assert r[1] == (1, False)  # 1 ^ 4 = 5 > maxLane 3


def test_down_out_of_range_at_the_top():
    r = shfl("DOWN", 3, 31)
    assert r.source_lanes.tolist() == list(range(3, 32)) + [29, 30, 31]
    assert r.in_range.tolist() == [True] * 29 + [False] * 3


# ---------------------------------------------------------------------------------------------
# the reference's examples


def test_examples_are_verbatim_from_the_reference():
    ref = _reference_file()
    if ref is None:
        pytest.skip("shared/reference is not beside the repository")
    text = "\n".join(line.rstrip() for line in ref.read_text().splitlines())
    for block in (INCLUSIVE_SCAN, EXCLUSIVE_SCAN, REVERSE_INCLUSIVE_SCAN, BUTTERFLY_REDUCTION, FSWZ):
        assert block.rstrip("\n") in text


@pytest.mark.parametrize("seed", range(5))
def test_inclusive_plus_scan(seed):
    x = _ints(seed)
    w = run_program(INCLUSIVE_SCAN, {"Rx": x})
    np.testing.assert_array_equal(w["Rx"], np.cumsum(x))


@pytest.mark.parametrize("seed", range(5))
def test_exclusive_plus_scan(seed):
    x = _ints(seed)
    w = Warp({"Rx": x})
    w.run(INCLUSIVE_SCAN)  # "//Perform INCLUSIVE scan as above here//"
    w.run(EXCLUSIVE_SCAN)
    np.testing.assert_array_equal(w["Rx"], np.concatenate([[0.0], np.cumsum(x)[:-1]]))
    assert w["P1"].tolist() == [False] + [True] * 31


@pytest.mark.parametrize("seed", range(5))
def test_inclusive_plus_reverse_scan(seed):
    x = _ints(seed)
    w = run_program(REVERSE_INCLUSIVE_SCAN, {"Rx": x})
    np.testing.assert_array_equal(w["Rx"], np.cumsum(x[::-1])[::-1])


@pytest.mark.parametrize("seed", range(5))
def test_butterfly_reduction(seed):
    x = _ints(seed)
    w = run_program(BUTTERFLY_REDUCTION, {"Rx": x})
    np.testing.assert_array_equal(w["Rx"], np.full(32, x.sum()))  # "All threads now hold sum in Rx"


@pytest.mark.parametrize("seed", range(3))
def test_scans_on_random_floats(seed):
    x = _rng(100 + seed).standard_normal(32)
    np.testing.assert_allclose(run_program(INCLUSIVE_SCAN, {"Rx": x})["Rx"], np.cumsum(x), rtol=1e-12)
    np.testing.assert_allclose(
        run_program(REVERSE_INCLUSIVE_SCAN, {"Rx": x})["Rx"], np.cumsum(x[::-1])[::-1], rtol=1e-12
    )
    np.testing.assert_allclose(run_program(BUTTERFLY_REDUCTION, {"Rx": x})["Rx"], np.full(32, x.sum()))


def _fswz_cases() -> list[tuple[str, str]]:
    """(pattern, instruction line) for each FSWZ mode: '//.1032: DDX' then its SHFL line."""
    lines = FSWZ.splitlines()
    cases = []
    for k, line in enumerate(lines):
        m = re.match(r"\s*//\.?(\d{4}):", line)
        if m:
            cases.append((m.group(1), lines[k + 1]))
    return cases


def test_fswz_has_six_modes():
    assert [p for p, _ in _fswz_cases()] == ["0000", "1111", "2222", "3333", "1032", "2301"]


@pytest.mark.parametrize("pattern,line", _fswz_cases())
def test_fswz_modes(pattern, line):
    """Each quad q, lane 4q+k reads lane 4q + int(pattern[k]): the names are the lane maps."""
    x = _ints(7)
    w = run_program(line, {"Rx": x})
    quad_src = np.array([int(ch) for ch in pattern])
    expect_src = (LANES // 4) * 4 + quad_src[LANES % 4]
    np.testing.assert_array_equal(w["Ry"], x[expect_src])
    inst = parse_program(line)[0]
    r = shfl(inst.modifiers[0], int(inst.operands[3], 0), int(inst.operands[4], 0))
    assert r.in_range.all()


@pytest.mark.parametrize("s", range(4))
def test_quad_smear_against_numpy(s):
    x = _ints(11 + s)
    w = run_program(f"SHFL.IDX   PT, Ry, Rx, {s},  0x1C03;", {"Rx": x})
    np.testing.assert_array_equal(w["Ry"], np.repeat(x.reshape(8, 4)[:, s], 4))


def test_ddx_ddy_against_numpy():
    x = _ints(21)
    ddx, ddy = (line for p, line in _fswz_cases() if p in ("1032", "2301"))
    quads = x.reshape(8, 4)
    np.testing.assert_array_equal(run_program(ddx, {"Rx": x})["Ry"], quads[:, [1, 0, 3, 2]].ravel())
    np.testing.assert_array_equal(run_program(ddy, {"Rx": x})["Ry"], quads[:, [2, 3, 0, 1]].ravel())


def test_ddy_comment_says_tid_xor_1_but_the_rule_gives_tid_xor_2():
    """The reference's DDY line is commented 'exchange with tid^1'; index 2 gives tid^2 (.2301)."""
    ddy = next(line for p, line in _fswz_cases() if p == "2301")
    assert "exchange with tid^1" in ddy  # the comment as printed
    r = shfl("BFLY", 2, 0x1C03)
    assert r.source_lanes.tolist() == (LANES ^ 2).tolist()
    assert r.source_lanes.tolist() != (LANES ^ 1).tolist()


# ---------------------------------------------------------------------------------------------
# properties

modes = st.sampled_from(MODES)
masks = st.sampled_from(sorted(DEFINED_MASKS))
five = st.integers(0, 31)


@given(modes, five, masks, five)
def test_predicate_false_implies_own_lane(mode, index, mask, clamp):
    r = shfl(mode, index, mask=mask, clamp=clamp)
    assert (r.source_lanes[~r.in_range] == LANES[~r.in_range]).all()
    assert ((0 <= r.source_lanes) & (r.source_lanes < 32)).all()


@given(five, five)
def test_idx_mask_11100_stays_in_its_quad(index, clamp):
    r = shfl("IDX", index, mask=0b11100, clamp=clamp)
    assert (r.source_lanes // 4 == LANES // 4).all()


@given(five, five)
def test_idx_mask_11000_stays_in_its_group_of_8(index, clamp):
    r = shfl("IDX", index, mask=0b11000, clamp=clamp)
    assert (r.source_lanes // 8 == LANES // 8).all()


@given(five, masks, five)
def test_idx_stays_in_its_segment(index, mask, clamp):
    seg = segment_size(mask)
    r = shfl("IDX", index, mask=mask, clamp=clamp)
    assert (r.source_lanes // seg == LANES // seg).all()


@given(five, masks, five)
def test_bfly_partners_in_range_exchange(index, mask, clamp):
    """Whenever lane i and its partner j = i ^ index are both in range, they read each other."""
    r = shfl("BFLY", index, mask=mask, clamp=clamp)
    j = r.source_lanes
    both = r.in_range & r.in_range[j]
    assert (j[j[both]] == LANES[both]).all()


@given(masks, st.data())
def test_bfly_within_segment_full_clamp_is_an_involution(mask, data):
    seg = segment_size(mask)
    index = data.draw(st.integers(0, seg - 1))
    r = shfl("BFLY", index, mask=mask, clamp=31)
    assert r.in_range.all()
    assert (r.source_lanes[r.source_lanes] == LANES).all()
    assert (r.source_lanes // seg == LANES // seg).all()


def test_bfly_partial_clamp_is_not_an_involution():
    """Clamp 2 in quads: lane 3 reads lane 2, but lane 2 (2 ^ 1 = 3 > maxLane 2) reads itself."""
    r = shfl("BFLY", 1, 0x1C02)
    assert r[3] == (2, True)
    assert r[2] == (2, False)


@given(five, masks, five)
def test_up_down_consistency(d, mask, clamp):
    seg = segment_size(mask)
    up = shfl("UP", d, mask=mask, clamp=clamp)
    down = shfl("DOWN", d, mask=mask, clamp=31)  # full clamp: maxLane is the segment's last lane
    assert (up.in_range == (LANES % seg >= d)).all()
    assert (down.in_range == (LANES % seg + d < seg)).all()
    up_pairs = {
        (int(i), int(j)) for i, j in zip(LANES[up.in_range], up.source_lanes[up.in_range], strict=True)
    }
    down_pairs = {
        (int(j), int(i)) for i, j in zip(LANES[down.in_range], down.source_lanes[down.in_range], strict=True)
    }
    assert up_pairs == down_pairs  # lane i reads i-d under UP  <=>  lane i-d reads i under DOWN
    assert (up.source_lanes[up.in_range] == LANES[up.in_range] - d).all()
    assert (down.source_lanes[down.in_range] == LANES[down.in_range] + d).all()


@given(five, masks, five)
def test_down_with_clamp_checks_max_lane(d, mask, clamp):
    seg = segment_size(mask)
    down = shfl("DOWN", d, mask=mask, clamp=clamp)
    assert (down.in_range == (LANES % seg + d <= (clamp & (seg - 1)))).all()


@given(modes, five, masks, five)
def test_structured_lane_maps_agree_with_shfl(mode, index, mask, clamp):
    r = shfl(mode, index, mask=mask, clamp=clamp)
    if mode == "IDX":
        m = lane_map(mode, index, mask=mask, clamp=clamp)
        assert isinstance(m, LaneLayout)
    else:
        m = lane_map(mode, index, mask=mask, clamp=clamp)
        assert isinstance(m, XorLaneMap if mode == "BFLY" else ShiftLaneMap)
        assert [m(i) for i in range(32)] == r.source_lanes.tolist()
    assert m(LANES).tolist() == r.source_lanes.tolist()
    assert m.in_range.tolist() == r.in_range.tolist()


@given(modes, five, masks, five)
def test_lane_layout_is_exact_or_refuses(mode, index, mask, clamp):
    r = shfl(mode, index, mask=mask, clamp=clamp)
    try:
        ll = lane_layout(mode, index, mask=mask, clamp=clamp)
    except ShflError as e:
        assert "not offset + layout" in str(e)
        assert mode != "IDX"
        return
    assert [ll(i) for i in range(32)] == r.source_lanes.tolist()
    assert ll.in_range.tolist() == r.in_range.tolist()


@given(five, masks)
def test_bfly_full_segment_is_always_a_layout(index, mask):
    seg = segment_size(mask)
    index &= seg - 1
    ll = lane_layout("BFLY", index, mask=mask, clamp=31)
    assert ll.offset == index
    assert ll(LANES).tolist() == (LANES ^ index).tolist()


# ---------------------------------------------------------------------------------------------
# layout forms


def test_idx_broadcast_in_quads_is_s_plus_stride0_layout():
    from pycute_layouts.core.layout import Layout
    for s in range(4):
        ll = lane_layout("IDX", s, 0x1C03)
        assert ll.offset == s
        assert ll.layout == Layout((4, 8), (0, 4))
        assert str(ll.layout) == "(4,8):(0,4)"
        assert [s + Layout((4, 8), (0, 4))(i) for i in range(32)] == [(i // 4) * 4 + s for i in range(32)]
        assert ll(LANES).tolist() == [(i // 4) * 4 + s for i in range(32)]


def test_idx_full_warp_broadcast_and_out_of_range_identity():
    from pycute_layouts.core.layout import Layout
    ll = lane_layout("IDX", 7, 31)
    assert (ll.offset, ll.layout) == (7, Layout(32, 0))
    assert str(ll) == "7 + 32:0"
    ident = lane_layout("IDX", 5, encode_sc(0b11000, 3))  # out of range everywhere: j = i
    assert (ident.offset, ident.layout, ident.in_range_mask) == (0, Layout(32, 1), 0)


def test_bfly_layout_form_has_signed_strides():
    assert str(lane_layout("BFLY", 1, 31)) == "1 + (2,16):(-1,2)"
    assert str(lane_layout("BFLY", 16, 31)) == "16 + (16,2):(1,-16)"
    assert str(lane_layout("BFLY", 3, 31)) == "3 + (4,8):(-1,4)"
    assert str(lane_layout("BFLY", 0, 31)) == "32:1"


def test_bfly_family_as_xor_swizzle():
    sw = bfly_swizzle()
    assert sw.pairs == tuple((5 + t, t) for t in range(5))
    words = (np.arange(32)[:, None] << 5) | LANES[None, :]  # (index, lane)
    out = sw(words)
    assert (out & 31 == (LANES[None, :] ^ np.arange(32)[:, None])).all()
    assert (out >> 5 == np.arange(32)[:, None]).all()  # the index bits pass through
    for c in range(32):
        m = lane_map("BFLY", c, 31)
        assert m.xor_constant == c
        assert [sw(m.swizzle_word(i)) & 31 for i in range(32)] == [m(i) for i in range(32)]


def test_up_down_are_not_layouts_but_shifts():
    with pytest.raises(ShflError, match="not offset \\+ layout.*lane_map"):
        lane_layout("UP", 1, 0)
    m = lane_map("UP", 1, 0)
    assert m == ShiftLaneMap(-1, FULL_WARP & ~1)
    assert m.in_range.tolist() == [False] + [True] * 31
    d = lane_map("DOWN", 2, 31)
    assert d.offset == 2 and d(29) == 31 and d(30) == 30


def test_up_by_16_happens_to_be_a_layout():
    assert str(lane_layout("UP", 16, 0)) == "(16,2):(1,0)"


# ---------------------------------------------------------------------------------------------
# result type


def test_result_behaves_as_the_tuple():
    r = shfl("UP", 1, 0)
    plain = tuple((max(i - 1, 0) if i else 0, i > 0) for i in range(32))
    assert r == plain and isinstance(r, tuple) and len(r) == 32
    assert hash(r) == hash(plain)
    assert r[1] == ShflLane(0, True) and r[1].source_lane == 0 and r[0].in_range is False
    j, p = zip(*r, strict=True)
    assert list(j) == r.source_lanes.tolist() and list(p) == r.in_range.tolist()
    assert (r.index, r.mask, r.clamp, r.b, r.c) == (1, 0, 0, 1, 0)


def test_result_is_immutable():
    r = shfl("IDX", 0, 0x1C03)
    with pytest.raises(AttributeError):
        r.mode = "UP"
    with pytest.raises(AttributeError):
        del r.mode
    with pytest.raises(ValueError):
        r.source_lanes[0] = 5
    with pytest.raises(ValueError):
        r.in_range[0] = False
    with pytest.raises(TypeError):
        ShflResult([(0, True)] * 32)


def test_result_pickles_and_copies():
    r = shfl("BFLY", 3, 0x1C03, active_mask=0x0000FFFF)
    for r2 in (pickle.loads(pickle.dumps(r)), copy.copy(r), copy.deepcopy(r)):
        assert r2 == r and r2.active_mask == r.active_mask and r2.unpredictable == r.unpredictable


def test_repr_names_the_operands():
    text = repr(shfl("UP", 1, 0))
    assert text.startswith("ShflResult(UP, b=1, c=0x0000, source_lanes=[0, 0, 1, 2")
    assert "out_of_range=[0]" in text


# ---------------------------------------------------------------------------------------------
# inactive lanes


def test_unpredictable_lanes():
    # lane 0 inactive: every lane that reads lane 0 in range gets an UNPREDICTABLE value
    r = shfl("IDX", 0, 0x1F, active_mask=0xFFFFFFFE)
    assert r.unpredictable == tuple(range(1, 32))
    assert r.active.tolist() == [False] + [True] * 31
    assert r[0] == (0, True)  # the inactive lane's own pair is still the formula's
    # out of range reads itself: never unpredictable
    r = shfl("UP", 1, 0, active_mask=0xFFFFFFFE)
    assert r.unpredictable == (1,)


def test_inactive_lanes_are_not_written_and_readers_get_nan():
    x = np.arange(32.0)
    w = Warp({"Rx": x, "Ry": -1.0}, active_mask=0x0000FFFF)
    r = w.shfl("BFLY", "Ry", "Rx", 16, 31, pred="P0")
    assert r.unpredictable == tuple(range(16))  # lanes 0..15 read 16..31, which are inactive
    assert np.isnan(w["Ry"][:16]).all()
    assert (w["Ry"][16:] == -1.0).all()  # inactive lanes keep their value
    assert w["P0"].tolist() == [True] * 16 + [False] * 16  # unwritten predicate lanes start False


def test_guarded_off_lanes_count_as_not_executing():
    x = np.arange(32.0)
    w = Warp({"Rx": x})
    w.shfl("DOWN", "Ry", "Rx", 0, 0, pred="P2")  # P2 true on lane 0 only
    w.shfl("BFLY", "Rz", "Rx", 1, 31, guard="P2")
    assert w["Rz"][0] != w["Rz"][0]  # lane 0 read lane 1, which did not execute: NaN
    assert np.isnan(w["Rz"][1:]).all()  # never written


def test_register_operands_per_lane():
    x = np.arange(32.0) * 10
    idx = (31 - np.arange(32)).astype(float)
    w = Warp({"Rx": x, "Ri": idx, "Rc": 31.0})
    r = w.shfl("IDX", "Ry", "Rx", "Ri", "Rc")
    np.testing.assert_array_equal(w["Ry"], x[::-1])
    assert r.b == tuple(range(31, -1, -1)) and r.c == 31
    with pytest.raises(ShflError, match="per-lane"):
        _ = r.index
    w["Ri"] = 32.0
    with pytest.raises(ShflError, match="lane 0.*32"):
        w.shfl("IDX", "Ry", "Rx", "Ri", 31)
    w["Ri"] = 1.5
    with pytest.raises(ShflError, match="not an integer"):
        w.shfl("IDX", "Ry", "Rx", "Ri", 31)


# ---------------------------------------------------------------------------------------------
# operands: forms and errors


def test_operand_forms_agree():
    assert shfl("IDX", 2, 0x1C03) == shfl("idx", index=2, mask=0b11100, clamp=3)
    assert shfl(".BFLY", 1, 31) == shfl("bfly", 1, clamp=31) == shfl("BFLY", np.int32(1), np.int64(31))
    assert encode_sc(0b11100, 3) == 0x1C03
    assert decode_sc(0x1C03) == (0b11100, 3)
    assert normalize_mode(" .Down ") == "DOWN"


@pytest.mark.parametrize("b", [32, -1, 255])
def test_sb_out_of_range(b):
    with pytest.raises(ShflError, match=rf"Sb.*{b}.*5-bit"):
        shfl("IDX", b, 0x1F)


@pytest.mark.parametrize("c", [0x2000, -1, 0xFFFF])
def test_sc_out_of_range(c):
    with pytest.raises(ShflError, match=rf"Sc.*{c}.*13-bit"):
        shfl("IDX", 0, c)


@pytest.mark.parametrize("c", [0x0020, 0x0040, 0x00E0, 0x1CFF])
def test_sc_bits_7_5_rejected(c):
    with pytest.raises(ShflError, match=rf"Sc={c:#06x} has bits 7:5.*must be 0"):
        shfl("IDX", 0, c)


@pytest.mark.parametrize("mask", [0b00001, 0b10100, 0b01000, 0b11010, 0b01111])
def test_undefined_masks(mask):
    with pytest.raises(ShflError, match=rf"mask 0b{mask:05b}.*not defined.*contiguous"):
        shfl("IDX", 0, mask << 8)
    with pytest.raises(ShflError, match=rf"mask 0b{mask:05b}"):
        shfl("IDX", 0, mask=mask, clamp=0)


def test_named_field_ranges():
    with pytest.raises(ShflError, match="mask.*32.*5-bit"):
        shfl("IDX", 0, mask=32, clamp=0)
    with pytest.raises(ShflError, match="clamp.*32.*5-bit"):
        shfl("IDX", 0, clamp=32)


@pytest.mark.parametrize("mode", ["XOR", "SHFL.IDX", "", "IDX.UP"])
def test_unknown_mode(mode):
    with pytest.raises(ShflError, match=rf"unknown SHFL mode {re.escape(repr(mode))}.*IDX, UP, DOWN, BFLY"):
        shfl(mode, 0, 31)


@pytest.mark.parametrize("mode", [None, 1, b"IDX"])
def test_mode_type(mode):
    with pytest.raises(ShflError, match=rf"mode must be a str, got {re.escape(repr(mode))}"):
        shfl(mode, 0, 31)


@pytest.mark.parametrize("bad", [1.0, "3", True, None, [1]])
def test_non_int_operands(bad):
    if bad is not None:
        with pytest.raises(ShflError, match=rf"Sb.*must be an int, got {re.escape(repr(bad))}"):
            shfl("IDX", bad, 31)
        with pytest.raises(ShflError, match=rf"Sc.*must be an int, got {re.escape(repr(bad))}"):
            shfl("IDX", 0, bad)
        with pytest.raises(ShflError, match=rf"clamp.*must be an int, got {re.escape(repr(bad))}"):
            shfl("IDX", 0, clamp=bad)
        with pytest.raises(ShflError, match=rf"active_mask must be an int, got {re.escape(repr(bad))}"):
            shfl("IDX", 0, 31, bad)
    else:
        with pytest.raises(ShflError, match="needs an index"):
            shfl("IDX", bad, 31)


def test_operand_conflicts_and_missing():
    with pytest.raises(ShflError, match="b=1 and index=2"):
        shfl("IDX", 1, 31, index=2)
    with pytest.raises(ShflError, match="not both"):
        shfl("IDX", 1, 31, clamp=3)
    with pytest.raises(ShflError, match="needs a clamp"):
        shfl("IDX", 1)
    with pytest.raises(ShflError, match="needs an index"):
        shfl("IDX", c=31)


@pytest.mark.parametrize("am", [-1, 1 << 32])
def test_active_mask_range(am):
    with pytest.raises(ShflError, match=rf"active_mask={am:#x}.*32-bit"):
        shfl("IDX", 0, 31, am)


def test_errors_are_value_errors():
    with pytest.raises(ValueError):
        shfl("IDX", 40, 31)


# ---------------------------------------------------------------------------------------------
# the program parser and the simulator


def test_parser_reads_the_reference_syntax():
    prog = parse_program(
        FSWZ + BUTTERFLY_REDUCTION + INCLUSIVE_SCAN + EXCLUSIVE_SCAN + REVERSE_INCLUSIVE_SCAN
    )
    assert len(prog) == 6 + 10 + 10 + 2 + 10
    first = prog[0]
    assert (first.opcode, first.modifiers, first.operands) == (
        "SHFL",
        ("IDX",),
        ("PT", "Ry", "Rx", "0", "0x1C03"),
    )
    guarded = parse_program(INCLUSIVE_SCAN)[1]
    assert (guarded.guard, guarded.guard_negated, guarded.opcode) == ("P1", False, "FADD")
    sel = parse_program(EXCLUSIVE_SCAN)[1]
    assert sel.operands == ("Rx", "Rx", "0", "P1")
    assert parse_program(BUTTERFLY_REDUCTION)[0].operands[0] == "__"


def test_parser_tabs_negated_guard_and_lowercase():
    (inst,) = parse_program("\t@!P3\tshfl.bfly\tP0, R1, R2, 0x1, 0x1f ;")
    assert (inst.guard, inst.guard_negated, inst.modifiers, inst.operands[3:]) == (
        "P3",
        True,
        ("BFLY",),
        ("0x1", "0x1f"),
    )


@pytest.mark.parametrize(
    "text,words",
    [
        ("SHFL P1, Ry, Rx, 1, 0", "exactly one .mode"),
        ("SHFL.XOR P1, Ry, Rx, 1, 0", "unknown SHFL mode"),
        ("SHFL.UP P1, Ry, Rx, 1", "5 operands, got 4"),
        ("FMUL Rx, Ry, Rx", "unknown opcode 'FMUL'"),
        ("@Q1 FADD Rx, Ry, Rx", "bad guard predicate"),
        ("SHFL.UP Q1, Ry, Rx, 1, 0", "'Q1' is not a predicate"),
        ("SHFL.UP P1, Ry, Rx, 1.5, 0", "integer immediate"),
        ("FADD Rx, Ry, foo", "neither a register nor an immediate"),
        ("FADD.FTZ Rx, Ry, Rx", "no modifiers"),
        ("SEL Rx, Rx, 0, Rx", "not a predicate"),
        ("SHFL.UP !P1, Ry, Rx, 1, 0", "cannot be negated"),
    ],
)
def test_parser_errors(text, words):
    with pytest.raises(ShflError, match=re.escape(words)) as e:
        parse_program("// ok\n" + text)
    assert "line 2" in str(e.value)


@pytest.mark.parametrize(
    "text,words",
    [
        ("SHFL.UP P1, Ry, Rx, 32, 0", "line 1: SHFL Sb (index)=32"),
        ("SHFL.IDX P1, Ry, Rx, 0, 0x1403", "mask 0b10100"),
        ("SHFL.IDX P1, Ry, Rx, 0, 0x00E3", "bits 7:5"),
        ("FADD Rx, Rq, Rx", "register Rq is read before it is written"),
        ("@P4 FADD Rx, Rx, Rx", "predicate P4 is read before it is written"),
    ],
)
def test_runtime_errors_name_the_line(text, words):
    with pytest.raises(ShflError, match=re.escape(words)):
        run_program(text, {"Rx": np.zeros(32)})


def test_warp_register_file():
    w = Warp({"R0": 2.0})
    assert w["R0"].tolist() == [2.0] * 32
    with pytest.raises(ValueError):
        w["R0"][0] = 1.0  # read-only copy
    w.fadd("R1", "R0", "RZ")
    w.fadd("RZ", "R0", 1.0)  # writes to RZ vanish
    assert w["RZ"].tolist() == [0.0] * 32 and w["R1"].tolist() == [2.0] * 32
    w.sel("R2", "R0", -1.0, "PT")
    assert w["R2"][0] == 2.0
    with pytest.raises(ShflError, match="32 lane values"):
        w["R3"] = np.zeros(31)
    with pytest.raises(ShflError, match="not a writable register"):
        w["X3"] = 0.0
    with pytest.raises(ShflError, match="floating dtype"):
        Warp(dtype=np.int32)
    assert "R2" in repr(w)


def test_float32_registers():
    x = _ints(3).astype(np.float32)
    w = run_program(INCLUSIVE_SCAN, {"Rx": x}, dtype=np.float32)
    assert w["Rx"].dtype == np.float32
    np.testing.assert_array_equal(w["Rx"], np.cumsum(x))


def test_sources_are_read_before_any_lane_writes():
    x = np.arange(32.0)
    w = run_program("SHFL.UP P1, Rx, Rx, 1, 0", {"Rx": x})  # Rd == Ra
    np.testing.assert_array_equal(w["Rx"], np.concatenate([[0.0], x[:-1]]))


@settings(max_examples=50, deadline=None)
@given(st.integers(0, FULL_WARP), st.integers(0, 2**31))
def test_scan_with_inactive_lanes_is_poisoned_only_where_unpredictable(active, seed):
    x = _ints(seed % 1000)
    w = run_program(INCLUSIVE_SCAN, {"Rx": x}, active_mask=active)
    act = ((active >> LANES) & 1).astype(bool)
    if act.all():
        np.testing.assert_array_equal(w["Rx"], np.cumsum(x))
    assert (w["Rx"][~act] == x[~act]).all()  # inactive lanes are never written


# ---------------------------------------------------------------------------------------------
# docs/shfl.md: its ```python blocks are doctest sessions


