"""Unit tests of the second set of atoms (issue 25): PTX fragment values by hand, coverage of every atom's tiles,
the metadata and scale-factor operands, the copy atoms, and the tools (owners, thread_fragment, make_tiled_mma)
on them. CuTe C++ agreement is tests/arch/test_atoms_oracle_more.py.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pycute_layouts import Layout
from pycute_layouts.analysis import global_access, is_bijective
from pycute_layouts.arch import atoms
from pycute_layouts.arch.atoms_copy import more_copy_atom_names
from pycute_layouts.arch.atoms_mma import dot_layouts, gmma_sparse_e_layout, more_mma_atom_names, sm70_layouts
from pycute_layouts.errors import LayoutError, LayoutValueError

MORE = more_mma_atom_names()
#: one atom per (family, N) is enough for the per-atom coverage test; the oracle test checks them all
SAMPLE = [n for i, n in enumerate(MORE) if not n.startswith("SM90::GMMA::SPARSE::") or i % 7 == 0]


def _image(lay: Layout) -> np.ndarray:
    return np.asarray(lay.to_numpy()).reshape(-1)


def _frag(name: str, op: str, t: int) -> list[tuple[int, int]]:
    return [rc for _v, rc in atoms.thread_fragment(name, op, t)]


def test_mma_sync_fragments_follow_ptx():
    # m16n8k32 .s4 B (one 32-bit register, 8 nibbles): row (k) = threadID_in_group * 8 + i, col (n) = groupID
    for t in (0, 1, 5, 31):
        assert _frag("SM80_16x8x32_S32S4S4S32_TN", "B", t) == [(t // 4, 8 * (t % 4) + i) for i in range(8)]
    # m16n8k64 .s4 A: a0..a7 row g, k 8 t4 + i; a8..15 row g + 8; a16..31 the same at k + 32
    exp = [(g, 8 * t4 + i) for g, t4 in [(1, 2)] for i in range(8)]
    assert _frag("SM80_16x8x64_S32U4S4S32_TN", "A", 6)[:8] == exp
    assert _frag("SM80_16x8x64_S32U4S4S32_TN", "A", 6)[8] == (9, 16)
    assert _frag("SM80_16x8x64_S32U4S4S32_TN", "A", 6)[16] == (1, 48)
    # m8n8k128 .b1: thread t holds 32 bits of row t / 4 at k = 32 (t % 4)
    assert _frag("SM80_8x8x128_S32U1U1S32_TN_XORPOPC", "A", 7)[0] == (1, 96)
    # m8n8k4 .f64: thread t holds A(t / 4, t % 4), B(t / 4, t % 4) and C(t / 4, 2 (t % 4) + {0, 1})
    for t in (0, 9, 31):
        assert _frag("SM80_8x8x4_C64C64C64C64_TN", "A", t) == [(t // 4, t % 4)]
        assert _frag("SM80_8x8x4_F64F64F64F64_TN", "C", t) == [(t // 4, 2 * (t % 4)), (t // 4, 2 * (t % 4) + 1)]
    # m16n8k16 .f64 (sm90): A a0..a7 rows g, g + 8, k t4 + 4 j
    assert _frag("SM90_16x8x16_F64F64F64F64_TN", "A", 5) == [(1, 1), (9, 1), (1, 5), (9, 5), (1, 9), (9, 9),
                                                            (1, 13), (9, 13)]
    # sm89 e4m3 and sm120 F8F6F4: the 8-bit fragment (4 per register)
    assert _frag("SM89_16x8x32_F16E5M2E4M3F16_TN", "B", 5)[:4] == [(1, 4), (1, 5), (1, 6), (1, 7)]
    assert atoms.mma_atom("SM120_16x8x32_TN<float_e2m1_t,float_e3m2_t,half_t>").layout_a == \
        atoms.mma_atom("SM80_16x8x32_S32S8S8S32_TN").layout_a


def test_sm70_quad_pairs():
    thr, a_row, b_col, c16 = sm70_layouts(True, False, 16)
    assert thr.to_numpy().tolist() == [0, 1, 2, 3, 16, 17, 18, 19]      # lanes of quad-pair 0
    assert [a_row(5, v) for v in range(4)] == [5, 13, 21, 29]           # row 5, k 0..3 (index m + 8 k)
    assert [b_col(5, v) for v in range(4)] == [12, 13, 14, 15]          # t0 = 1 (k 1), t1 = 1: rows 4..7 (n + 8 k)
    assert [c16(3, v) % 8 for v in range(8)] == [3] * 8
    c32 = sm70_layouts(True, True, 32)[3]
    assert sorted(c32.to_numpy().tolist()) == list(range(64))
    a = atoms.mma_atom("SM70_8x8x4_F32F16F16F32_NN")
    assert (a.a_major, a.b_major, str(a.thr_id)) == ("MN", "K", "(4,2):(1,16)")
    tiled = atoms.make_tiled_mma(a, (2, 2, 1))
    assert tiled.num_threads == 32 and tiled.tile_size_mnk == (16, 16, 4)
    # lane 4 is thread 0 of the second quad-pair: the atom at (m, n) = (1, 0)
    assert atoms.owners(tiled, "C", (8, 0)) == ((4, 0),)
    with pytest.raises(LayoutValueError, match="16 or 32"):
        sm70_layouts(True, True, 64)


def test_dot_products():
    a = atoms.mma_atom("SM61_DP4A")
    assert a.shape_mnk == (1, 1, 4) and a.num_threads == 1 and a.values_per_thread("A") == 4
    assert [str(x) for x in dot_layouts(2)[1:3]] == ["(1,2):(0,1)", "(1,2):(0,1)"]
    assert atoms.mma_atom("SM61_DP2A").a_bits == 16
    with pytest.raises(LayoutValueError):
        dot_layouts(0)


@pytest.mark.parametrize("name", SAMPLE)
def test_every_new_mma_atom_covers_its_tiles(name):
    a = atoms.mma_atom(name)
    assert a.name == atoms.mma_atom(a.name).name == name
    for op in "ABC":
        lay, (r, c) = a.layout(op), a.tile_shape(op)
        if a.num_threads == 128 and (op == "B" or (op == "A" and a.a_source == "smem")):   # wgmma smem operands
            assert lay[0].stride == 0 and lay[0].size() == 128
            lay = lay[1]
        assert sorted(_image(lay).tolist()) == list(range(r * c)), (name, op)
    if a.layout_e is not None:   # sparse metadata: wgmma 8-bit inputs and sm120 one thread per element, else a pair
        m, k = a.tile_shape("E")
        img = _image(a.layout("E"))
        per = 1 if k == 64 or a.arch == "sm120" else 2
        assert sorted(img.tolist()) == sorted(list(range(m * k)) * per), name
    if a.layout_sfa is not None:
        m, k = a.tile_shape("SFA")
        assert sorted(set(_image(a.layout("SFA")).tolist())) == list(range(m * k))
        n, _ = a.tile_shape("SFB")
        assert sorted(set(_image(a.layout("SFB")).tolist())) == list(range(n * k))
        assert a.sf_vec_size in (16, 32, 64)


def test_sparse_wgmma():
    e = gmma_sparse_e_layout(64)
    assert is_bijective(e)
    sp = atoms.mma_atom("SM90::GMMA::SPARSE::GMMA_64x64x64_S32S8U8_RS_TN_SATURATE")
    dense = atoms.mma_atom("SM90_64x64x32_S32S8U8_RS_TN_SATURATE")
    assert sp.shape_mnk == (64, 64, 64) and sp.layout_c == dense.layout_c
    assert sp.layout_a == atoms.mma_atom("SM90::GMMA::SPARSE::GMMA_64x8x64_F32E4M3E5M2_RS_TN").layout_a
    assert str(sp.layout_a) == "((4,8,4),(8,2,2)):((512,1,16),(64,8,2048))"     # CuTe's ALayout_64x64
    # metadata of thread 1 (t0 = 1): K half 16..31 of rows 0 and 8
    assert [(x % 64, x // 64) for x in (gmma_sparse_e_layout(32)(1, v) for v in (0, 15, 16))] == \
        [(0, 16), (0, 31), (8, 16)]
    sp2 = atoms.mma_atom("SM90::GMMA::SPARSE::GMMA_64x256x32_F32BF16BF16_SS<GMMA::Major::MN,GMMA::Major::K,"
                         "GMMA::ScaleIn::Neg,GMMA::ScaleIn::One,GMMA::SparseSel::One>")
    assert sp2.a_major == "MN" and sp2.a_source == "smem" and sp2.layout("E").size() == 128 * 32
    with pytest.raises(LayoutValueError):
        gmma_sparse_e_layout(8)


def test_block_scaled_sm120():
    a = atoms.mma_atom("SM120::BLOCKSCALED::SM120_16x8x32_TN_VS<float_e4m3_t,float_e2m1_t,float,float_ue8m0_t,32>")
    sfa = a.layout("SFA")
    # thread 4 g + 2 t1 + t0 holds the scales of row g + 8 t0; t1 repeats t0's
    assert [sfa(t, 0) for t in (0, 1, 2, 3, 4)] == [0, 8, 0, 8, 1]
    assert sfa(0, 5) == 5 * 16                          # value v: k = v
    sfb = a.layout("SFB")
    assert [sfb(t, 3) for t in (0, 3, 4, 31)] == [24, 24, 25, 31]
    assert a.sf_vec_size == 32 and a.tile_shape("SFB") == (8, 32)
    b = atoms.mma_atom("cute::SM120::BLOCKSCALED::SM120_16x8x64_TN_VS<cutlass::float_e2m1_t,float_e2m1_t,float,"
                       "float_ue4m3_t,16>")
    assert b.shape_mnk == (16, 8, 64) and b.a_bits == 4 and b.sf_vec_size == 16


def test_umma_f8f6f4_and_mx():
    a = atoms.mma_atom("SM100_MMA_F8F6F4_TS<float_e2m1_t,float_e3m2_t,float,64,8,UMMA::Major::K,UMMA::Major::MN>")
    assert a.shape_mnk == (64, 8, 32) and a.a_source == "tmem" and (a.a_bits, a.b_bits) == (4, 6)
    b = atoms.mma_atom("SM100_MMA_MXF4_2x1SM_SS<float_e2m1_t,float_e2m1_t,float,float_ue4m3_t,256,128,16,"
                       "UMMA::Major::K,UMMA::Major::K>")
    assert b.shape_mnk == (256, 128, 64) and b.num_threads == 2 and b.sf_vec_size == 16
    assert str(b.layout_c) == "(2,(128,128)):(128,(1,256))"
    with pytest.raises(LayoutValueError, match="has no operand SFA"):
        b.layout("SFA")          # UMMA scale factors live in tensor memory: no thread-value layout in CuTe


@pytest.mark.parametrize("name", more_copy_atom_names())
def test_new_copy_atoms(name):
    a = atoms.copy_atom(name)
    assert atoms.atom(name) == a
    if a.kind in ("ldsm", "stsm"):   # registers: injective and covering; shared memory: every row named
        total = 8 * a.num_matrices * 128
        assert sorted(_image(a.register_layout).tolist()) == list(range(total))
        other = a.src_layout if a.register_layout is a.dst_layout else a.dst_layout
        assert set(_image(other).tolist()) == set(range(total))
        assert len(a.smem_row_threads()) == 8 * a.num_matrices
        return
    if a.kind == "utccp":            # tcgen05.cp: distinct bits of the destination tile, each CTA the same
        assert a.ref_layout == a.dst_layout and a.dst_layout[0].stride == 0
        assert len(set(_image(a.dst_layout[1]).tolist())) == int(a.dst_layout[1].size())
        return
    assert a.ref_layout == a.src_layout
    n = int(a.thr_id.size())
    if name != "SM90_BULK_COPY_AUTO":
        bits = int(a.src_layout[1].size())
        assert sorted(_image(a.src_layout).tolist()) == list(range(n * bits))


def test_sm100_b8_ldmatrix():
    a = atoms.copy_atom("SM100_U8x8_LDSM_T")
    # m16n16 .b8 .trans: threads 0..15 give rows 0, 1, 8, 9, 2, 3, 10, 11, ...; 16..31 repeat them
    assert [int(a.src_layout(t, 0)) // 128 for t in range(8)] == [0, 1, 8, 9, 2, 3, 10, 11]
    assert a.src_layout(16, 0) == a.src_layout(0, 0)
    # thread 5 (t4 = 1, g = 1) receives byte columns 1 and 9 of rows 2, 3, 10, 11 (bit 128 row + 8 byte)
    assert [int(a.dst_layout(5, v)) for v in (0, 8, 16, 32)] == [2 * 128 + 8, 3 * 128 + 8, 2 * 128 + 72, 10 * 128 + 8]
    st = atoms.copy_atom("SM100_U8x16_STSM_T")
    assert (st.num_matrices, str(st.dst_layout)) == (4, "(32,128):(128,1)")
    assert atoms.copy_atom("SM100_SU6_DU8x16_x2_LDSM_N").dst_layout == atoms.copy_atom("SM75_U32x2_LDSM_N").dst_layout


def test_copy_atom_values():
    a = atoms.copy_atom("SM80_CP_ASYNC_CACHEALWAYS_ZFILL<uint64_t>")
    assert a.kind == "cp_async" and str(a.src_layout) == "(1,64):(0,1)"
    u = atoms.copy_atom("UniversalCopy<half_t,uint16_t>")
    assert u.kind == "universal" and str(u.dst_layout) == "(1,16):(0,1)"
    t = atoms.copy_atom("SM100_TMA_2SM_LOAD<4096>")
    assert str(t.thr_id) == "2:1" and str(t.src_layout) == "(2,4096):(4096,1)"


def test_global_cost_of_an_atom_fragment():
    # the sm89 FP8 A fragment read from a K-major (row-major 16x32 bytes) global tile: 4 bytes per register,
    # each quad of threads reads 16 contiguous bytes of one row: 16 rows x 32 bytes = 16 sectors, all used
    a = atoms.mma_atom("SM89_16x8x32_F32E4M3E4M3F32_TN").layout_a
    r = global_access(a, element_bytes=1, data_layout=Layout((16, 32), (32, 1)))
    assert (r.sectors, r.lines, r.sector_efficiency) == (16, 4, 1)


_TOKENS = ["SM61_", "SM70_", "SM80_", "SM90_", "SM100_MMA_", "SM120_", "SM90::GMMA::SPARSE::GMMA_", "SM120::BLOCKSCALED::",
           "16x8x32", "64x64x32", "_TN", "_VS", "_SS", "_TS", "_2x1SM", "F8F6F4", "MXF4", "MXF8F6F4", "<", ">", ",",
           "float", "half_t", "float_e2m1_t", "float_ue8m0_t", "128", "0", "-1", "99999999999999999999", "UMMA::Major::K",
           "GMMA::Major::MN", "GMMA::SparseSel::One", "UniversalCopy", "SM80_CP_ASYNC_CACHEALWAYS", "uint128_t",
           "SM90_TMA_LOAD", "SM100_U8x8_LDSM_T", "SM50_Shuffle_U32_2x2Trans_XOR", "S32S4S4S32", "C64", "\u0661", " "]


@given(st.lists(st.sampled_from(_TOKENS), min_size=1, max_size=12).map("".join))
def test_atom_names_answer_garbage(name):
    for fn in (atoms.mma_atom, atoms.copy_atom, atoms.atom):
        try:
            got = fn(name)
        except LayoutError:
            continue
        assert isinstance(got, (atoms.MmaAtom, atoms.CopyAtom))
