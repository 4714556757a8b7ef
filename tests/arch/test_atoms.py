"""Tests for pycute_layouts.arch.atoms: exact values, properties of every atom, tiled partitions, bad names.

Exact values are checked against the PTX fragment rules stated independently here (mma.sync m16n8k16 C/A
fragments, wgmma's 64xN accumulator, ldmatrix rows); every atom of the catalogues is checked to be injective
where CuTe's is and to cover its tile exactly; tiled partitions are checked against a brute-force model and to
be disjoint and covering (hypothesis, ci budget). The differential test against CuTe C++ is test_atoms_oracle.py.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pycute_layouts import Layout, LayoutError, LayoutTypeError, LayoutValueError, Swizzle, SwizzledSmemLayout, UnitError
from pycute_layouts.analysis.banks import bank_conflicts, ldmatrix_pattern
from pycute_layouts.arch import atoms
from pycute_layouts.arch.atoms_copy import copy_atom_names
from pycute_layouts.arch.atoms_mma import mma_atom_names
from pycute_layouts.cli import main
from pycute_layouts.core.algebra import composition, right_inverse

MMA = mma_atom_names()
COPY = copy_atom_names()


# --------------------------------------------------------------------------------------------------
# exact values from the PTX ISA's fragment figures


def test_sm80_m16n8k16_fragments_follow_ptx():
    """PTX 9.7.14.5.8: groupID = lane / 4, tid = lane % 4; C row groupID (+8 for c2, c3), col 2 tid + (i & 1);
    A (f16) row groupID (+8 for a1, a3, a5, a7 pairs), col 2 tid + (i & 1) (+8 for a4..a7)."""
    a = atoms.mma_atom("SM80_16x8x16_F32F16F16F32_TN")
    for lane in range(32):
        g, t = lane // 4, lane % 4
        for i in range(4):
            idx = a.layout_c(lane, i)
            assert (idx % 16, idx // 16) == (g + 8 * (i >= 2), 2 * t + (i & 1))
        for i in range(8):
            idx = a.layout_a(lane, i)
            row = g + 8 * ((i // 2) % 2)
            col = 2 * t + (i & 1) + 8 * (i >= 4)
            assert (idx % 16, idx // 16) == (row, col)


@pytest.mark.parametrize("n", [8, 64, 256])
def test_wgmma_accumulator_follows_ptx(n):
    """PTX 9.7.15.5.1 (wgmma D fragment, 64xN): warp w owns rows 16w..16w+15; d[i] of lane l is at row
    16w + l/4 + 8 ((i/2) % 2), column 8 (i/4) + 2 (l % 4) + (i % 2)."""
    c = atoms.mma_atom(f"SM90_64x{n}x16_F32BF16BF16_SS").layout_c
    tab = atoms.tv_table(c)
    for thr in range(128):
        w, lane = thr // 32, thr % 32
        for i in range(n // 2):
            row = 16 * w + lane // 4 + 8 * ((i // 2) % 2)
            col = 8 * (i // 4) + 2 * (lane % 4) + (i % 2)
            assert tab[thr, i] == row + 64 * col


def test_gmma_ss_operands_broadcast_and_rs_a_is_the_c_pattern():
    ss = atoms.mma_atom("SM90_64x128x16_F16F16F16_SS<GMMA::Major::MN,GMMA::Major::K>")
    assert str(ss.layout_a) == "(128,(64,16)):(0,(1,64))" and str(ss.layout_b) == "(128,(128,16)):(0,(1,128))"
    assert (ss.a_major, ss.b_major, ss.a_source) == ("MN", "K", "smem")
    rs = atoms.mma_atom("SM90_64x128x16_F16F16F16_RS")
    assert str(rs.layout_a) == "((4,8,4),(2,2,2)):((128,1,16),(64,8,512))" == str(
        atoms.mma_atom("SM90_64x16x16_F16F16F16_SS").layout_c)
    assert str(atoms.mma_atom("SM90_64x8x8_F32TF32TF32_RS_TN").layout_a) == "((4,8,4),(2,2)):((64,1,16),(8,256))"
    assert str(atoms.mma_atom("SM90_64x8x32_S32S8U8_RS_TN_SATURATE").layout_a) == \
        "((4,8,4),(4,2,2)):((256,1,16),(64,8,1024))"


def test_umma_accumulator_view():
    a = atoms.mma_atom("SM100_MMA_F16BF16_SS<bfloat16_t,bfloat16_t,float,128,256,UMMA::Major::K,UMMA::Major::K>")
    assert a.shape_mnk == (128, 256, 16) and str(a.thr_id) == "1:0" and str(a.layout_c) == "(1,(128,256)):(0,(1,128))"
    b = atoms.mma_atom("SM100_MMA_TF32_2x1SM_TS<tfloat32_t,tfloat32_t,float,256,128,UMMA::Major::K,UMMA::Major::MN>")
    assert b.shape_mnk == (256, 128, 8) and str(b.layout_c) == "(2,(128,128)):(128,(1,256))"
    assert b.a_source == "tmem" and atoms.owners(b, "C", (200, 5)) == ((1, 72 + 128 * 5),)


def test_ldmatrix_rows_and_fragments():
    """PTX 9.7.9.20 ldmatrix: lanes 8i..8i+7 address the rows of matrix i; without .trans lane l receives row l/4,
    elements 2 (l % 4), +1 of every matrix; with .trans column l/4, rows 2 (l % 4), +1."""
    n4 = atoms.copy_atom("SM75_U32x4_LDSM_N")
    assert n4.smem_row_threads() == tuple((t, t) for t in range(32))
    assert atoms.copy_atom("SM75_U32x2_LDSM_N").smem_row_threads()[-1] == (15, 15)
    t8 = atoms.copy_atom("SM75_U16x8_LDSM_T")
    for lane in range(32):
        for m in range(4):
            for h in range(2):
                e_n = n4.dst_layout(lane, 32 * m + 16 * h) // 16
                assert e_n == 64 * m + 8 * (lane // 4) + 2 * (lane % 4) + h
                e_t = t8.dst_layout(lane, 32 * m + 16 * h) // 16
                assert e_t == 64 * m + 8 * (2 * (lane % 4) + h) + lane // 4
    st = atoms.copy_atom("SM90_U16x4_STSM_T")
    ld = atoms.copy_atom("SM75_U16x4_LDSM_T")
    assert (st.src_layout, st.dst_layout, st.ref_layout) == (ld.dst_layout, ld.src_layout, ld.dst_layout)


def test_tmem_fragments():
    a = atoms.copy_atom("SM100_TMEM_LOAD_16dp256b1x")
    # thread 4 g + t4: lanes g, g + 8; 64 bits at 64 t4 of the 256-bit row (ref bit = bit + 256 lane)
    assert a.dst_layout(4 * 3 + 2, 0) == 128 + 256 * 3 and a.dst_layout(4 * 3 + 2, 64) == 128 + 256 * 11
    assert str(a.src_layout) == "(32,4096):(0,1)" and a.ref_layout == a.src_layout
    st = atoms.copy_atom("SM100_TMEM_STORE_32dp32b8x_16b")
    assert str(st.src_layout) == "(32,256):(256,1)" and str(st.dst_layout) == "(32,8192):(0,1)"
    x2 = atoms.copy_atom("SM100_TMEM_LOAD_16dp32b4x")      # 16x32bx2: the second half-warp at W/2
    assert x2.dst_layout(16 + 3, 0) == 3 * 256 + 128          # W = 4 x 64 bits: lane 3, bit W / 2


def test_cute_algebra_applies():
    """layout_c o right_inverse(layout_c) is the identity on the M x N tile (CuTe's tv -> coordinate inversion)."""
    c = atoms.mma_atom("SM90_64x96x16_F32F16F16_SS").layout_c
    inv = right_inverse(c)
    assert inv.size() == 64 * 96
    assert np.array_equal(composition(c, inv).to_numpy(), np.arange(64 * 96))


# --------------------------------------------------------------------------------------------------
# properties of every atom


def _image(lay: Layout) -> np.ndarray:
    return np.asarray(lay.to_numpy(), dtype=np.int64)


@pytest.mark.parametrize("name", MMA)
def test_every_mma_atom_covers_its_tiles(name):
    a = atoms.mma_atom(name)
    assert a.name == atoms.mma_atom(a.name).name            # canonical names parse to themselves
    for op in "ABC":
        lay, (r, c) = a.layout(op), a.tile_shape(op)
        broadcast = a.arch == "sm90" and op in ("AB" if a.a_source == "smem" else "B")
        if broadcast:                                       # smem operands: each thread reads the whole tile
            assert lay[0].stride == 0 and lay[0].size() == a.num_threads
            lay = lay[1]
        img = _image(lay)
        assert sorted(img.tolist()) == list(range(r * c)), (name, op)   # injective and covering


@pytest.mark.parametrize("name", COPY)
def test_every_copy_atom_covers_its_reference(name):
    a = atoms.copy_atom(name)
    total = int(a.ref_layout[1].size()) if a.kind.startswith("tmem") else 8 * a.num_matrices * 128
    regs = _image(a.register_layout)
    assert np.array_equal(np.sort(regs, axis=None), np.arange(total))   # registers: injective and covering
    other = _image(a.src_layout if a.register_layout is a.dst_layout else a.dst_layout)   # up to 4M entries
    assert other.min() >= 0 and other.max() < total                     # the same set as range(total), in numpy
    hit = np.zeros(total, dtype=bool)
    hit[other.ravel()] = True
    assert hit.all()


# --------------------------------------------------------------------------------------------------
# tiled MMAs


def _brute_partition_c(tiled: atoms.TiledMma, tile: tuple[int, int]) -> dict[tuple[int, int], int]:
    """(thread, value) -> tile index by the definition: thread = atom thread + threads * group, group -> atom
    position by the inverse of atom_layout, values = (atom value, rest m, rest n) column-major."""
    a = tiled.atom
    shp = tuple(tiled.atom_layout.shape) + (1,) * (3 - len(tiled.atom_layout.shape))
    am, an = shp[0], shp[1]
    (mm, nn), nthr, nval = a.tile_shape("C"), a.num_threads, a.values_per_thread("C")
    group_pos = {}
    for im in range(am):
        for i_n in range(an):
            group_pos[int(tiled.atom_layout(im + am * i_n))] = (im, i_n)
    rm, rn = tile[0] // (am * mm), tile[1] // (an * nn)
    out = {}
    for g, (im, i_n) in group_pos.items():
        for t in range(nthr):
            for fv in range(nval):
                idx = int(a.layout_c(t, fv))
                for r1 in range(rm):
                    for r2 in range(rn):
                        m = idx % mm + mm * (im + am * r1)
                        n = idx // mm + nn * (i_n + an * r2)
                        out[(t + nthr * g, fv + nval * (r1 + rm * r2))] = m + tile[0] * n
    return out


ATOM_CHOICES = ["SM80_16x8x8_F16F16F16F16_TN", "SM80_16x8x32_S32S8S8S32_TN", "SM90_64x16x16_F32BF16BF16_SS",
                "SM90_64x24x8_F32TF32TF32_RS_TN"]


@pytest.mark.slow  # 200 tiled MMAs checked point by point: .ci/run runs it (python -m pytest -q -m slow)
@given(st.sampled_from(ATOM_CHOICES), st.integers(1, 2), st.integers(1, 2), st.integers(1, 2), st.integers(1, 2),
       st.booleans())
def test_tiled_partitions_disjoint_covering_and_as_defined(name, am, an, rm, rn, row_major):
    lay = Layout((am, an, 1), (an, 1, 0)) if row_major else Layout((am, an, 1))
    tiled = atoms.make_tiled_mma(name, lay)
    mm, nn, kk = tiled.tile_size_mnk
    tile = (mm * rm, nn * rn)
    pc = tiled.partition("C", tile)
    tab = atoms.tv_table(pc)
    assert tab.shape[0] == tiled.num_threads
    assert sorted(tab.ravel().tolist()) == list(range(tile[0] * tile[1]))       # disjoint and covering
    want = _brute_partition_c(tiled, tile)
    assert all(tab[t, v] == x for (t, v), x in want.items()) and len(want) == tab.size
    for op, (r, c), mult in (("A", (tile[0], kk), an), ("B", (tile[1], kk), am)):
        img = atoms.tv_table(tiled.partition(op, (r, c))).ravel()
        counts = np.bincount(img, minlength=r * c)
        per_atom = 1 if tiled.atom.arch == "sm80" or (op == "A" and tiled.atom.a_source == "reg") \
            else tiled.atom.num_threads
        assert counts.min() == counts.max() == mult * per_atom, (op, counts.min(), counts.max())


def test_who_holds_c_of_a_128x256_tile():
    tiled = atoms.make_tiled_mma("SM90_64x128x16_F32BF16BF16_SS", (2, 1, 1), (None, 256, None))
    assert tiled.tile_size_mnk == (128, 256, 16)
    [(t, v)] = atoms.owners(tiled, "C", (100, 200))
    # row 100: warpgroup 1, row 36 of its atom -> warp 2, lane group 4 (+8 half? 36 = 32 + 4 -> g 4, first half)
    # column 200: second atom repetition along N (rest n = 1), column 72: 8 * 9 + 0 -> t4 0, v2 9
    assert t == 128 + 64 + 4 * 4 and v == 0 + 2 * 0 + 4 * 9 + 64 * 1
    frag = atoms.thread_fragment(tiled, "C", t)
    assert frag[v] == (v, (100, 200)) and len(frag) == 128


def test_permutation_layout():
    perm = Layout((8, 2, 2), (1, 16, 8))
    tiled = atoms.make_tiled_mma("SM80_16x8x16_F32BF16BF16F32_TN", (2, 2, 1), (None, perm, None))
    p = tiled.partition("C")
    assert tiled.tile_size_mnk == (32, 32, 16)
    assert sorted(atoms.tv_table(p).ravel().tolist()) == list(range(32 * 32))
    # thread 0 value 0 is C(0, 0); value 4 is the second N repetition: position 16 of the block, which the
    # permutation (8,2,2):(1,16,8) sends to column 8
    assert p(0, 0) == 0 and p(0, 4) == 32 * 8


# --------------------------------------------------------------------------------------------------
# bank conflicts through a copy atom


def test_copy_atom_bank_conflicts():
    tile = Layout((32, 64), (64, 1))
    for sw, want in ((Swizzle(0, 4, 3), 32), (Swizzle(3, 4, 3), 4)):
        smem = SwizzledSmemLayout(sw, tile, 16)
        origins = [(0, 0), (8, 0), (0, 8), (8, 8)]
        for name in ("SM75_U32x4_LDSM_N", "SM75_U16x8_LDSM_T", "SM90_U16x8_STSM_T"):
            p = atoms.copy_access_pattern(name, matrix_origins=origins)
            r = bank_conflicts(smem, p)
            assert r.wavefronts == want and r.pattern == name
            assert r.thread_addresses == bank_conflicts(smem, ldmatrix_pattern(4, matrix_origins=origins)).thread_addresses
        assert bank_conflicts(smem, atoms.copy_access_pattern("SM75_U16x8_LDSM_T")).wavefronts == want
        assert bank_conflicts(smem, atoms.copy_atom("SM75_U16x8_LDSM_T")).wavefronts == want   # the atom itself
    with pytest.raises(LayoutValueError, match="moves tensor memory"):
        bank_conflicts(Layout(1024, 1), atoms.copy_atom("SM100_TMEM_LOAD_32dp32b1x"))
    x1 = atoms.copy_access_pattern("SM75_U32x1_LDSM_N")
    assert x1.active_threads() == tuple(range(8))


# --------------------------------------------------------------------------------------------------
# bad inputs


BAD_MMA = [
    ("SM90_64x12x16_F16F16F16_SS", "N=12"),
    ("SM90_64x264x16_F16F16F16_SS", "N=264"),
    ("SM90_64x40x32_S32S8S8_SS_TN", "N=40"),
    ("SM90_64x64x16_F16F16F16_SS_TN", "no wgmma atom"),
    ("SM90_64x64x16_F32F16F16_RS<GMMA::Major::MN,GMMA::Major::K>", "K-major"),
    ("SM90_64x64x16_F32F16F16_SS<GMMA::Major::K>", "GMMA::Major"),
    ("SM90_64x64x8_F32TF32TF32_SS_TN<GMMA::Major::K,GMMA::Major::K>", "ScaleIn"),
    ("SM90_64x64x32_S32S8S8_SS_TN<GMMA::ScaleIn::One>", "no template arguments"),
    ("SM90_64x64x16_F16BF16BF16_SS", "no wgmma atom"),
    ("SM80_16x8x32_F16F16F16F16_TN", "no sm80 atom"),
    ("SM80_16x8x16_F32F16F16F32_TN_SATURATE", "no sm80 atom"),
    ("SM80_16x8x8_F32TF32TF32F32_TN<int>", "no template arguments"),
    ("SM100_MMA_F16BF16_SS<half_t,half_t,float,96,128,UMMA::Major::K,UMMA::Major::K>", "static_asserts"),
    ("SM100_MMA_F16BF16_2x1SM_TS<half_t,half_t,float,256,48,UMMA::Major::K,UMMA::Major::K>", "static_asserts"),
    ("SM100_MMA_F16BF16_TS<half_t,half_t,float,128,128,UMMA::Major::MN,UMMA::Major::K>", "transposed"),
    ("SM100_MMA_S8_SS<int8_t,int8_t,float,128,128,UMMA::Major::K,UMMA::Major::K>", "types"),
    ("SM100_MMA_TF32_SS<float,float,float,128,128,UMMA::Major::K,UMMA::Major::K>", "types"),
    ("SM100_MMA_F16BF16_SS<half_t,half_t,float,128,128>", "a_type,b_type"),
    ("SM100_MMA_F16BF16_SS<half_t,half_t,float,128,128,GMMA::Major::K,UMMA::Major::K>", "UMMA::Major"),
    ("SM70_8x8x4_F16F16F16F16_XY", "no sm70 atom"),
    ("SM70_8x8x4_F32F32F32F32_TN", "no sm70 atom"),
    ("SM61_DP8A", "no sm61 atom"),
    ("SM75_16x8x16_F32F16F16F32_TN", "no sm75 atom"),
    ("SM80_16x8x128_S32U1U1S32_TN", "no sm80 atom"),
    ("SM89_16x8x32_F32E4M3E4M3F16_TN", "no sm89 atom"),
    ("SM90_16x8x32_F64F64F64F64_TN", "no sm90 atom"),
    ("SM90_64x64x16_F32F16F16_SS_TN", "no wgmma atom"),
    ("SM120_16x8x32_TN<float_e4m3_t,float_e4m3_t,int32_t>", "c_type float"),
    ("SM120_16x8x32_TN<int8_t,float_e4m3_t,float>", "a_type, b_type"),
    ("SM120::BLOCKSCALED::SM120_16x8x32_TN_VS<float_e4m3_t,float_e4m3_t,float,float_ue8m0_t,16>", "VS 32"),
    ("SM120::BLOCKSCALED::SM120_16x8x64_TN_VS<float_e4m3_t,float_e2m1_t,float,float_ue8m0_t,32>", "VS 16 or 32"),
    ("SM120::BLOCKSCALED::SM120_16x8x64_TN_VS<float_e2m1_t,float_e2m1_t,float,float_ue8m0_t>", "sf_type,VS"),
    ("SM90::GMMA::SPARSE::GMMA_64x64x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K>", "512 bits"),
    ("SM90::GMMA::SPARSE::GMMA_64x64x32_F16F16F16_SS", "GMMA::Major"),
    ("SM90::GMMA::SPARSE::GMMA_64x64x32_F16F16F16_RS<GMMA::Major::MN,GMMA::Major::K>", "K-major"),
    ("SM90::GMMA::SPARSE::GMMA_64x40x64_S32S8S8_SS_TN", "N=40"),
    ("SM90::GMMA::SPARSE::GMMA_64x64x64_S32S8S8_SS_TN<GMMA::ScaleIn::One>", "SparseSel"),
    ("SM100_MMA_F8F6F4_SS<float_e4m3_t,float_e4m3_t,float,256,128,UMMA::Major::K,UMMA::Major::K>", "static_asserts"),
    ("SM100_MMA_F8F6F4_SS<float_e4m3_t,float_e4m3_t,float,128,8,UMMA::Major::K,UMMA::Major::MN>", "static_asserts"),
    ("SM100_MMA_F8F6F4_TS<float_e4m3_t,float_e4m3_t,float,128,64,UMMA::Major::MN,UMMA::Major::K>", "transposed"),
    ("SM100_MMA_F8F6F4_SS<half_t,float_e4m3_t,float,128,64,UMMA::Major::K,UMMA::Major::K>", "types"),
    ("SM100_MMA_MXF8F6F4_TS<float_e4m3_t,float_e4m3_t,float,float_ue8m0_t,128,64,UMMA::Major::K,UMMA::Major::K>",
     "no TS form"),
    ("SM100_MMA_MXF8F6F4_SS<float_e4m3_t,float_e4m3_t,float,float_ue8m0_t,64,64,UMMA::Major::K,UMMA::Major::K>",
     "static_asserts"),
    ("SM100_MMA_MXF4_SS<float_e2m1_t,float_e2m1_t,float,float_ue4m3_t,128,64,32,UMMA::Major::K,UMMA::Major::K>",
     "VS=32"),
    ("SM100_MMA_MXF4_SS<float_e4m3_t,float_e2m1_t,float,float_ue8m0_t,128,64,16,UMMA::Major::K,UMMA::Major::K>",
     "types"),
    ("SM100_MMA_MXF4NVF4_SS_SPARSE<float_e2m1_t,float_e2m1_t,float,float_ue4m3_t,128,64,64,UMMA::Major::K,"
     "UMMA::Major::K>", "VS=64"),
    ("SM100_MMA_F8F6F4_2x1SM_SS_SPARSE<float_e4m3_t,float_e4m3_t,float,256,16,UMMA::Major::K,UMMA::Major::K>",
     "static_asserts"),
    ("SM100_MMA_TF32_SS_SPARSE<half_t,half_t,float,128,64,UMMA::Major::K,UMMA::Major::K>", "types"),
    ("SM100_MMA_S8_SS_SPARSE<int8_t,int8_t,int32_t,128,64>", "UMMA::Major"),
    ("SM100_MMA_S8_SS_SCALED<int8_t,int8_t,int32_t,128,64,UMMA::Major::K,UMMA::Major::K,1>", "_SCALED"),
    ("SM100_MMA_F16BF16_SS_SCALED<half_t,half_t,float,128,64,UMMA::Major::K,UMMA::Major::K>", "ScaleC"),
    ("SM90_64x64x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K", "malformed"),
]


@pytest.mark.parametrize("name,words", BAD_MMA)
def test_bad_mma_names(name, words):
    with pytest.raises(LayoutValueError) as e:
        atoms.mma_atom(name)
    msg = str(e.value)
    assert msg.startswith(f"mma_atom: unknown MMA atom {name!r}") and words in msg and "Known families" in msg
    assert "\n" not in msg


BAD_COPY = [
    ("SM75_U32x3_LDSM_N", "ldmatrix is"),
    ("SM75_U16x4_LDSM_N", "ldmatrix is"),
    ("SM90_U32x4_LDSM_N", "ldmatrix is"),
    ("SM75_U16x16_LDSM_T", "ldmatrix is"),
    ("SM100_TMEM_LOAD_16dp256b64x", "repeats"),
    ("SM100_TMEM_LOAD_32dp32b3x", "repeats"),
    ("SM100_TMEM_LOAD_16dp16b1x", "known families"),
    ("SM90_TMA_LOAD", "known families"),
    ("SM90_TMA_LOAD<0>", "NumBitsPerTMA"),
    ("SM90_TMA_FOO<128>", "known families"),
    ("UniversalCopy<foo_t>", "unknown value type"),
    ("UniversalCopy<>", "known families"),
    ("SM80_CP_ASYNC_CACHEALWAYS<uint16_t>", "cp.async needs"),
    ("SM80_CP_ASYNC_CACHEGLOBAL<uint64_t>", "cp.async needs"),
    ("SM80_CP_ASYNC_CACHEALWAYS<uint32_t,uint64_t>", "cp.async needs"),
]


@pytest.mark.parametrize("name,words", BAD_COPY)
def test_bad_copy_names(name, words):
    with pytest.raises(LayoutValueError) as e:
        atoms.copy_atom(name)
    assert str(e.value).startswith(f"copy_atom: unknown copy atom {name!r}") and words in str(e.value)


def test_bad_arguments():
    with pytest.raises(LayoutTypeError, match="must be a string"):
        atoms.mma_atom(64)
    with pytest.raises(LayoutTypeError, match="must be a string"):
        atoms.copy_atom(None)
    with pytest.raises(LayoutValueError, match="MMA families.*copy families"):
        atoms.atom("SM89_whatever")
    a = atoms.mma_atom("SM80_16x8x8_F16F16F16F16_TN")
    with pytest.raises(LayoutValueError, match="operand must be 'A', 'B', 'C'"):
        a.layout("X")
    with pytest.raises(LayoutValueError, match="has no operand E"):
        a.layout("E")
    with pytest.raises(LayoutValueError, match="has no operand SFA"):
        a.layout("SFA")
    with pytest.raises(LayoutValueError, match="bijection"):
        atoms.make_tiled_mma(a, Layout((2, 2), (1, 1)))
    with pytest.raises(LayoutValueError, match="not a multiple of the atoms' extent 16 along M"):
        atoms.make_tiled_mma(a, (1, 1, 1), (24, None, None))
    with pytest.raises(LayoutValueError, match="bijection of"):
        atoms.make_tiled_mma(a, (1, 1, 1), (Layout(16, 2), None, None))
    with pytest.raises(LayoutTypeError, match="permutation must be three entries"):
        atoms.make_tiled_mma(a, (1, 1, 1), (16, 8))
    t = atoms.make_tiled_mma(a, (2, 1, 1))
    with pytest.raises(LayoutValueError, match="tile 48x8 is not a multiple of the tiled MMA's 32x8 tile"):
        t.partition("C", (48, 8))
    with pytest.raises(LayoutValueError, match=r"inside the 32x8 tile"):
        atoms.owners(t, "C", (32, 0))
    with pytest.raises(LayoutValueError, match=r"thread must be in \[0, 64\)"):
        atoms.thread_fragment(t, "C", 64)
    with pytest.raises(LayoutValueError, match="tensor memory"):
        atoms.copy_access_pattern("SM100_TMEM_LOAD_32dp32b1x")
    with pytest.raises(UnitError, match="element_bits"):
        atoms.copy_access_pattern("SM75_U32x1_LDSM_N", element_bits=12)
    with pytest.raises(LayoutValueError, match="matrix_origins has 1 entries"):
        atoms.copy_access_pattern("SM75_U32x2_LDSM_N", matrix_origins=[(0, 0)])
    assert issubclass(LayoutValueError, LayoutError)


def test_desc_lists_which_thread_reads_what(capsys):
    rs = "SM90_64x64x16_F32BF16BF16_RS"
    assert main(["desc", "--major", "K", "--swizzle", "128B", "--dtype", "bf16", "--tile", "64x64", "--atom", rs,
                 "--threads", "5,33", "--json"]) == 0
    reads = json.loads(capsys.readouterr().out)["thread_reads"]
    # element (1, 2): byte 1 * 128 + 2 * 2 = 132 of the 128-byte-row tile; Sw<3,4,3> XORs chunk 0 with row 1: 148
    assert reads[0].startswith("T5: V0 (1,2) @0x94, V1 (1,3) @0x96, V2 (9,2) @") and reads[1].startswith("T33: V0 (16,2) @0x804")
    assert main(["desc", "--major", "K", "--swizzle", "128B", "--dtype", "bf16", "--tile", "64x64", "--atom",
                 "SM90_64x64x16_F32BF16BF16_SS", "--threads", "0"]) == 0
    out = capsys.readouterr().out
    assert "read from shared memory by all 128 threads" in out and "reads        : T0: V0 (0,0) @0x0, V1 (1,0) @0x90" in out
    assert main(["desc", "--major", "K", "--swizzle", "128B", "--dtype", "bf16", "--tile", "64x64", "--atom", rs,
                 "--threads", "200"]) == 2
    assert "outside [0, 128)" in capsys.readouterr().err
    assert main(["desc", "--major", "K", "--swizzle", "128B", "--dtype", "tf32", "--tile", "64x32", "--atom", rs]) == 2
    assert "reads a 64x16 A tile per instruction" in capsys.readouterr().err
    with pytest.raises(LayoutValueError, match="covering the 64x16 A tile"):
        atoms.thread_reads(rs, "A", np.zeros((64, 8)))


def test_explain_and_banks_take_atoms(capsys):
    tile = "Sw<3,3,3> o 0 o (64,64):(64,1)"  # the bf16 128B atom in CuTe's element units (issue 23)
    assert main(["analyze", "explain", tile, "--element-bits", "16", "--atom", "SM90_64x64x16_F32BF16BF16_RS",
                 "--threads", "5", "--json"]) == 0
    reads = json.loads(capsys.readouterr().out)["thread_reads"]
    assert reads == ["T5: V0 (1,2) @0x94, V1 (1,3) @0x96, V2 (9,2) @0x494, V3 (9,3) @0x496, V4 (1,10) @0x84, "
                     "V5 (1,11) @0x86, V6 (9,10) @0x484, V7 (9,11) @0x486"]
    assert main(["analyze", "banks", "(32,64):(64,1)", "--element-bits", "16", "--pattern", "SM75_U16x8_LDSM_T",
                 "--matrix-origins", "0,0;8,0;0,8;8,8", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["wavefronts"] == 32
    addr = atoms.operand_addresses(SwizzledSmemLayout(Swizzle(3, 4, 3), Layout((64, 64), (64, 1)), 16))
    assert addr[1, 2] == 0x94 and addr.shape == (64, 64)
    with pytest.raises(UnitError, match="element_bits"):
        atoms.operand_addresses(Layout((8, 8)))
    with pytest.raises(LayoutValueError, match="rank 2"):
        atoms.operand_addresses(Layout(8), 16)
