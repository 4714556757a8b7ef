"""Tests of pycute_layouts.analysis.footprint and .coalescing (issue 25): exact values a reader can check
by hand, hypothesis laws, and hostile input.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pycute_layouts import ComposedLayout, Layout, LayoutError, Swizzle, SwizzledSmemLayout, composition
from pycute_layouts.analysis import (
    aliasing,
    fixed_points,
    footprint,
    gaps,
    global_access,
    group_bank_conflicts,
    image,
    is_bijective,
    is_injective,
    is_surjective,
    permutation_cycles,
    permutation_order,
    permutation_parity,
    tv_byte_addresses,
)
from pycute_layouts.arch.atoms import mma_atom
from pycute_layouts.errors import LayoutTypeError, LayoutValueError
from pycute_layouts.strategies import compact_layouts, injective_layouts, layouts

# --------------------------------------------------------------------------------------------------
# exact values


def test_image_footprint_gaps_by_hand():
    lay = Layout((2, 3), (5, 1))          # 0 5 1 6 2 7
    assert image(lay) == (0, 1, 2, 5, 6, 7)
    fp = footprint(lay)
    assert (fp.min_offset, fp.max_offset, fp.span, fp.distinct_offsets, fp.holes, fp.max_reuse) == (0, 7, 8, 6, 2, 1)
    assert not fp.is_dense
    g = gaps(lay)
    assert g.runs == ((0, 2), (5, 7)) and g.gap_sizes == (2,) and g.max_gap == 2
    assert is_injective(lay) and not is_surjective(lay) and not is_bijective(lay)
    assert is_surjective(Layout((2, 3), (3, 1))) and is_bijective(Layout((2, 3), (3, 1)))


def test_aliasing_by_hand():
    a = aliasing(Layout((2, 2, 2), (0, 1, 1)))    # 0 0 1 1 1 1 2 2
    assert a.histogram == {2: 2, 4: 1} and a.aliased_offsets == (0, 1, 2) and a.duplicate_elements == 5
    assert a.max_ways == 4 and a.has_aliasing
    assert footprint(Layout((2, 2, 2), (0, 1, 1))).max_reuse == 4


def test_empty_and_constant_layouts():
    try:
        z = Layout(0, 1)          # size-0 layouts: issue 25's other half; checked once they exist
    except LayoutError:
        z = None
    if z is not None:
        assert image(z) == () and footprint(z).span == 0 and gaps(z).runs == ()
        assert is_surjective(z) and is_surjective(z, 0) and not is_surjective(z, 1)
        assert permutation_cycles(z) == () and permutation_order(z) == 1 and permutation_parity(z) == 0
    c = Layout(5, 0)
    assert image(c) == (0,) and aliasing(c).histogram == {5: 1} and is_surjective(c)


def test_negative_strides_and_swizzles():
    rev = Layout(4, -1)                     # 0 -1 -2 -3
    assert image(rev) == (-3, -2, -1, 0) and footprint(rev).span == 4
    assert not is_surjective(rev, 4)
    sw = ComposedLayout(Swizzle(1, 0, 1), 0, Layout(4))   # 0 1 3 2
    assert permutation_cycles(sw) == ((0,), (1,), (2, 3)) and permutation_parity(sw) == 1
    assert fixed_points(sw) == (0, 1) and permutation_order(sw) == 2
    smem = SwizzledSmemLayout(Swizzle(1, 4, 3), Layout((8, 16), (16, 1)), 16)
    assert is_bijective(smem) and footprint(smem).span == 128


def test_transpose_cycles_by_hand():
    # the 3x4 transpose as a layout: i = r + 3 c -> 4 r + c
    t = Layout((3, 4), (4, 1))
    assert permutation_cycles(t) == ((0,), (1, 4, 5, 9, 3), (2, 8, 10, 7, 6), (11,))
    assert permutation_parity(t) == 0 and permutation_order(t) == 5 and fixed_points(t) == (0, 11)


def test_global_access_by_hand():
    # 32 threads read 4-byte words with stride 1: 128 bytes, 4 sectors, 1 line, fully used
    r = global_access(Layout(32, 1), element_bytes=4)
    assert (r.sectors, r.lines, r.sector_efficiency, r.is_coalesced) == (4, 1, Fraction(1), True)
    # stride 8 words (32 bytes): every thread its own sector, 8 lines, 1/8 used
    r = global_access(Layout(32, 8), element_bytes=4)
    assert (r.sectors, r.lines, r.sector_efficiency) == (32, 8, Fraction(1, 8))
    # misaligned by 16 bytes: 5 sectors in 2 lines
    r = global_access(Layout(32, 1), element_bytes=4, base_byte_address=16)
    assert (r.sectors, r.lines, r.requests[0].sector_ids) == (5, 2, (0, 1, 2, 3, 4))
    # broadcast: every thread reads word 0: one sector, 4 bytes used of 32, 128 requested
    r = global_access(Layout(32, 0), element_bytes=4)
    assert (r.sectors, r.requests[0].requested_bytes, r.requests[0].used_bytes) == (1, 128, 4)
    # 64 threads: two requests of 32
    r = global_access(Layout(64, 1), element_bytes=16)
    assert [q.threads for q in r.requests] == [(0, 32), (32, 64)] and r.sectors == 32 and r.lines == 8


def test_global_access_through_a_data_layout():
    # the C fragment of mma.sync m16n8k8 stored to a row-major 16x8 fp32 tile (row stride 8 elements)
    atom = mma_atom("SM80_16x8x8_F16F16F16F16_TN")
    row_major = Layout((16, 8), (8, 1))
    r = global_access(atom.layout_c, element_bytes=4, data_layout=row_major)
    # every row of 8 fp32 is one 32-byte sector, 16 rows: 16 sectors in 4 lines, all bytes used
    assert (r.sectors, r.lines, r.sector_efficiency) == (16, 4, Fraction(1))
    col_major = Layout((16, 8), (1, 16))
    r2 = global_access(atom.layout_c, element_bytes=4, data_layout=col_major)
    assert (r2.sectors, r2.lines) == (16, 4)
    addr = tv_byte_addresses(atom.layout_c, element_bytes=4, data_layout=row_major)
    assert addr.shape == (32, 4) and addr[1].tolist() == [8, 12, 264, 268]   # thread 1: C(0, 2..3), C(8, 2..3)


def test_group_bank_conflicts_by_hand():
    # 32 threads, 4-byte words, stride 2 words: banks 0, 2, .., 30 twice: 2-way
    r = group_bank_conflicts(Layout(32, 2), element_bytes=4)
    assert (r.max_ways, r.wavefronts, r.ideal_wavefronts) == (2, 2, 1)
    assert r.groups[0].words_per_bank[:3] == (2, 0, 2)
    # 16 banks of 4 bytes (another geometry): stride 1 over 32 threads is 2 words per bank, and that is ideal
    r = group_bank_conflicts(Layout(32, 1), element_bytes=4, num_banks=16)
    assert (r.max_ways, r.ideal_wavefronts, r.is_conflict_free) == (2, 2, True)
    # 8-byte banks: 32 fp32 with stride 2 hit 32 distinct 8-byte words = 1 wavefront
    assert group_bank_conflicts(Layout(32, 2), element_bytes=4, bank_bytes=8).max_ways == 1
    # quarter-warps of a 16-byte-per-thread access (8 threads x 16 bytes = 128 bytes): conflict-free
    r = group_bank_conflicts(Layout((32, 4), (4, 1)), element_bytes=4, group_threads=8)
    assert len(r.groups) == 4 and r.is_conflict_free and r.wavefronts == 4
    # the same threads as one group of 32: 512 bytes, 4 words per bank, 4 wavefronts (ideal too)
    assert group_bank_conflicts(Layout((32, 4), (4, 1)), element_bytes=4).wavefronts == 4
    # a wavefront of 64 threads (AMD): 64 words with stride 1 in 32 banks, 2 each
    assert group_bank_conflicts(Layout(64, 1), element_bytes=4, group_threads=64).groups[0].wavefronts == 2
    # same word: broadcast, no conflict
    assert group_bank_conflicts(Layout(32, 0), element_bytes=4).max_ways == 1


def test_group_bank_conflicts_agree_with_the_warp_model():
    # stride-k words in one warp: the warp model of analysis.banks gives the same degree
    from pycute_layouts.analysis import bank_conflicts

    for k in (1, 2, 3, 4, 8, 16, 32):
        ours = group_bank_conflicts(Layout(32, k), element_bytes=4)
        warp = bank_conflicts(Layout(32 * k, 4), [(t * k,) for t in range(32)], 4)
        assert ours.wavefronts == warp.wavefronts, k
        assert ours.max_ways == warp.conflict_degree, k


# --------------------------------------------------------------------------------------------------
# laws


@given(injective_layouts(max_size=128))
def test_compact_injective_image_is_cosize(lay):
    # an injective layout's image has size(L) points; compact (coalesces to n:1) means it is [0, cosize)
    assert len(image(lay)) == int(lay.size())
    assert is_injective(lay)


@given(compact_layouts(max_size=128))
def test_compact_layout_is_a_permutation(lay):
    vals = lay.to_numpy()
    assert is_bijective(lay) == bool(np.array_equal(np.sort(vals), np.arange(vals.size)))
    if is_bijective(lay):
        assert len(image(lay)) == int(lay.cosize()) == int(lay.size())
        assert is_surjective(lay)
        cycles = permutation_cycles(lay)
        n = int(lay.size())
        assert sorted(i for c in cycles for i in c) == list(range(n))
        assert permutation_parity(lay) == (n - len(cycles)) % 2
        assert permutation_order(lay) == math.lcm(1, *(len(c) for c in cycles))
        assert set(fixed_points(lay)) == {c[0] for c in cycles if len(c) == 1}
        for c in cycles:  # each cycle follows the function
            assert all(int(vals[c[i]]) == c[(i + 1) % len(c)] for i in range(len(c)))
            assert c[0] == min(c)


@given(compact_layouts(max_size=64), compact_layouts(max_size=64))
def test_parity_of_a_composition_adds(a, b):
    if not (is_bijective(a) and is_bijective(b)) or int(a.size()) != int(b.size()):
        return
    try:
        ab = composition(a, b)
    except LayoutError:        # not admissible in CuTe's sense: nothing to compare
        return
    assert permutation_parity(ab) == (permutation_parity(a) + permutation_parity(b)) % 2


@given(compact_layouts(max_size=128))
def test_parity_is_the_inversion_count(lay):
    if not is_bijective(lay):
        return
    v = lay.to_numpy()
    inversions = int(np.triu(v[:, None] > v[None, :], 1).sum())
    assert permutation_parity(lay) == inversions % 2


@given(layouts(max_size=128))
def test_footprint_laws(lay):
    vals = lay.to_numpy()
    if vals.ndim != 1:
        return
    fp = footprint(lay)
    img = image(lay)
    assert fp.distinct_offsets == len(img) == len(set(vals.tolist()))
    assert fp.total_elements == vals.size
    if vals.size:
        assert (fp.min_offset, fp.max_offset) == (img[0], img[-1])
        assert fp.holes == fp.span - fp.distinct_offsets >= 0
    g = gaps(lay)
    assert sum(e - s + 1 for s, e in g.runs) == len(img)
    assert len(g.gap_sizes) == max(0, len(g.runs) - 1)
    a = aliasing(lay)
    assert sum(w * c for w, c in a.histogram.items()) == vals.size
    assert a.duplicate_elements == vals.size - len(img)
    assert a.has_aliasing == (not is_injective(lay))
    assert is_surjective(lay) == (bool(vals.size == 0) or (fp.min_offset == 0 and fp.holes == 0))


@given(st.integers(1, 8), st.integers(1, 8), st.sampled_from([1, 2, 4, 8, 16]), st.integers(0, 512),
       st.sampled_from([8, 16, 32, 64]))
def test_global_access_laws(stride, vals, ebytes, base, tpr):
    tv = Layout((64, vals), (stride * vals, 1))
    r = global_access(tv, element_bytes=ebytes, base_byte_address=base, threads_per_request=tpr)
    addr = tv_byte_addresses(tv, element_bytes=ebytes, base_byte_address=base)
    for q in r.requests:
        a = addr[q.threads[0]:q.threads[1]].reshape(-1)
        touched = {b // 32 for x in a.tolist() for b in range(x, x + ebytes)}
        assert set(q.sector_ids) == touched
        assert set(q.line_ids) == {s // 4 for s in touched}
        assert q.used_bytes == len({b for x in a.tolist() for b in range(x, x + ebytes)})
        assert q.sectors >= -(-q.used_bytes // 32) and q.lines * 4 >= q.sectors
    assert 0 < r.sector_efficiency <= 1


@given(st.integers(0, 64), st.sampled_from([1, 2, 4, 8, 16]), st.sampled_from([8, 16, 32, 64]),
       st.sampled_from([16, 32, 64]), st.sampled_from([4, 8]))
def test_group_bank_laws(stride, ebytes, gt, nb, bb):
    tv = Layout(64, stride)
    r = group_bank_conflicts(tv, element_bytes=ebytes, group_threads=gt, num_banks=nb, bank_bytes=bb)
    assert len(r.groups) == 64 // gt
    for g in r.groups:
        addrs = [(t * stride) * ebytes for t in range(*g.threads)]
        words = {b // bb for a in addrs for b in range(a, a + ebytes)}
        assert sum(g.words_per_bank) == len(words)
        assert g.wavefronts == max(sum(1 for w in words if w % nb == k) for k in range(nb))
        assert g.ideal_wavefronts == -(-len(words) // nb) <= g.wavefronts


# --------------------------------------------------------------------------------------------------
# hostile input


@pytest.mark.parametrize("bad", [None, 3, "4:1", (4, 1), [1, 2], object(), np.arange(4)])
def test_analyses_refuse_non_layouts(bad):
    for fn in (image, footprint, gaps, aliasing, is_injective, is_surjective, permutation_cycles):
        with pytest.raises(LayoutTypeError):
            fn(bad)
    with pytest.raises(LayoutTypeError):
        global_access(bad, element_bytes=4)
    with pytest.raises(LayoutTypeError):
        group_bank_conflicts(bad, element_bytes=4)


def test_analyses_refuse_bad_values():
    with pytest.raises(LayoutValueError, match="not a permutation"):
        permutation_cycles(Layout(4, 2))
    with pytest.raises(LayoutValueError, match="not a permutation"):
        permutation_parity(Layout((2, 2), (0, 1)))
    with pytest.raises(LayoutValueError, match="MAX_EVAL_POINTS"):
        image(Layout((1 << 20, 1 << 10), (1, 0)))
    with pytest.raises(LayoutValueError, match="MAX_EVAL_POINTS"):
        global_access(Layout((1 << 20, 1 << 10), (1, 0)), element_bytes=4)
    with pytest.raises(LayoutError):
        is_surjective(Layout(4, 1), -1)
    with pytest.raises(LayoutError):
        is_surjective(Layout(4, 1), 2.5)
    for kw in ({"element_bytes": 0}, {"element_bytes": True}, {"element_bytes": 4, "base_byte_address": -1},
               {"element_bytes": 4, "threads_per_request": 0}, {"element_bytes": "4"}):
        with pytest.raises(LayoutError):
            global_access(Layout(32, 1), **kw)
    for kw in ({"num_banks": 0}, {"bank_bytes": 0}, {"group_threads": 0}, {"num_banks": 10**9}):
        with pytest.raises(LayoutError):
            group_bank_conflicts(Layout(32, 1), element_bytes=4, **kw)
    with pytest.raises(LayoutValueError, match="negative"):
        global_access(Layout(32, -1), element_bytes=4)
    with pytest.raises(LayoutValueError, match="domain"):
        global_access(Layout(32, 1), element_bytes=4, data_layout=Layout(16, 1))
    with pytest.raises(LayoutTypeError):
        global_access(Layout(32, 1), element_bytes=4, data_layout=[0, 1])
    from pycute_layouts import E

    with pytest.raises(LayoutTypeError, match="integer offsets"):
        image(Layout((2, 2), (E(0), E(1))))
    with pytest.raises(LayoutError):
        image(Layout(("N",), (1,)))
