"""Tests for pycute_layouts.arch.umma.sf: block-scaled scale-factor layouts and tcgen05.cp descriptors.

Checked: CUTLASS's 512-byte chunk (exact offsets), DeepGEMM's shared-memory transpose and
``make_sf_desc`` and Triton's ``createBlockedScalesSMEMDescriptor`` reproduced by derivation, the
``.warpx4`` copy landing where CuTe's TMEM scale-factor layout says, the copy-source derivation
against the descriptor's hardware model, bad inputs, and CuTe/CUTLASS C++ compiled for the host
(``Sm1xxBlockScaledConfig::tile_atom_to_shape_SFA``, ``deduce_smem_layoutSFA/SFB``,
``UMMA::tmem_sf_frg``).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pycute_layouts import DescriptorError, Layout, parse
from pycute_layouts.arch import umma
from pycute_layouts.arch.umma.sf import COPY_SHAPES

# ------------------------------------------------------------------------------------------------
# the chunk: CUTLASS cutlass/detail/sm100_blockscaled_layout.hpp, Sm1xxBlockScaledBasicChunk::SfKMajorAtom
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("vs", [16, 32])
def test_chunk_offsets(vs):
    c = umma.sf_chunk_layout(vs)
    assert c.size() == 128 * 4 * vs and c.cosize() == 512
    for m in (0, 1, 31, 32, 33, 95, 127):
        for j in range(4):
            for v in (0, vs - 1):
                assert c(m, j * vs + v) == 16 * (m % 32) + 4 * (m // 32) + j
    assert c(33, 2 * vs) == 22  # row 33 = line 1, group 1; third scale factor


def test_deepgemm_transpose_builds_the_chunk():
    """DeepGEMM sm100_fp8_gemm_1d1d.cuh, ``utccp_required_smem_warp_transpose``: TMA writes one 32-bit
    word of 4 packed UE8M0 per row (word m = row m); each lane ``l`` loads words ``(i ^ (l >> 3)) * 32 + l``
    and stores them to ``l * 4 + (i ^ (l >> 3))``. The result must be CUTLASS's chunk."""
    before = np.arange(128)  # word index -> row
    after = np.full(128, -1)
    for lane in range(32):
        for i in range(4):
            src = (i ^ (lane >> 3)) * 32 + lane
            after[lane * 4 + (i ^ (lane >> 3))] = before[src]
    chunk = umma.sf_chunk_layout(32)
    for word, row in enumerate(after):
        for j in range(4):
            assert chunk(int(row), 32 * j) == 4 * word + j


# ------------------------------------------------------------------------------------------------
# tcgen05.cp source descriptors: DeepGEMM and Triton, derived
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("addr", [0, 0x400, 0x1F0, 0x3FFF0])
def test_deepgemm_make_sf_desc(addr):
    """DeepGEMM ``make_sf_desc`` (deep_gemm/include/deep_gemm/mma/sm100.cuh, used by
    impls/sm100_fp8_gemm_1d1d.cuh for SM100_UTCCP_4x32dp128bit): ``make_smem_desc(SWIZZLE_NONE, ptr,
    8 * 16, 0)`` -- SBO 8 x 16 bytes, LBO 0, version 1, start ``ptr >> 4``."""
    d = umma.sf_copy_desc(addr)
    assert (d.swizzle.short_name, d.sbo_bytes, d.lbo_bytes, d.version, d.base_offset, d.lbo_mode) == \
        ("none", 8 * 16, 0, 1, 0, 0)
    assert d.encode() == (addr >> 4) | ((8 * 16) >> 4) << 32 | 1 << 46
    assert umma.UmmaSmemDescriptor.decode(d.encode()) == d


def test_triton_blocked_scales_desc():
    """Triton ``createBlockedScalesSMEMDescriptor`` (third_party/nvidia/lib/TritonNVIDIAGPUToLLVM/
    TensorMemoryToLLVM.cpp): swizzlingMode 0, leadDimensionBaseOffset 16 >> 4, strideDimensionBaseOffset
    128 >> 4, built in Triton's wgmma-format SMEMDescriptor (no version field: bits 46-48 stay 0).

    The fields ``tcgen05.cp.32x128b`` reads agree with the derivation (start, SBO, layout type); its LBO
    is never read for a one-column source (the model gives the same addresses for LBO 0 and 16); its
    version bits differ from PTX Table 40's fixed 0b001, so our decoder refuses the raw value."""
    d = umma.sf_copy_desc(0x800)
    triton_fields = {"swizzle": 0, "lbo_16B": 16 >> 4, "sbo_16B": 128 >> 4}
    assert d.layout_type == triton_fields["swizzle"] and d.sbo_16B == triton_fields["sbo_16B"]
    with_lbo = umma.UmmaSmemDescriptor(d.start_address, triton_fields["lbo_16B"] * 16, d.sbo_bytes, "none")
    np.testing.assert_array_equal(with_lbo.element_addresses("K", 8, (32, 16)), d.element_addresses("K", 8, (32, 16)))
    triton_raw = (0x800 >> 4) | triton_fields["lbo_16B"] << 16 | triton_fields["sbo_16B"] << 32
    assert triton_raw == with_lbo.encode() & ~(7 << 46)
    with pytest.raises(DescriptorError, match="bits 46-48 are 0b000"):
        umma.UmmaSmemDescriptor.decode(triton_raw)


@pytest.mark.parametrize("shape,layout,sbo,lbo", [
    ("32x128b", "(32,16):(16,1)", 128, 0),
    ("128x128b", "(128,16):(16,1)", 128, 0),
    ("64x128b", "((8,8),16):((16,512),1)", 512, 0),
    ("128x256b", "((8,16),(16,2)):((16,256),(1,128))", 256, 128),
    ("4x256b", "(4,(16,2)):(16,(1,64))", 0, 64),
])
def test_copy_source_desc_shapes(shape, layout, sbo, lbo):
    lay = parse(layout)
    d = umma.copy_source_desc(lay, shape, 0x200)
    assert (d.sbo_bytes, d.lbo_bytes) == (sbo, lbo)
    rows, bits = COPY_SHAPES[shape]
    want = 0x200 + lay.to_numpy().reshape((rows, bits // 8), order="F")
    np.testing.assert_array_equal(d.element_addresses("K", 8, (rows, bits // 8)), want)


@given(st.sampled_from(["32x128b", "128x128b", "64x128b", "128x256b"]), st.integers(1, 64), st.integers(1, 64),
       st.integers(0, 1023))
def test_copy_source_desc_model_reads_layout(shape, sbo_16B, lbo_16B, start_16B):
    rows, bits = COPY_SHAPES[shape]
    cols = bits // 128
    lay = Layout(((8, rows // 8), (16, cols)), ((16, sbo_16B * 16), (1, lbo_16B * 16)))
    try:
        d = umma.copy_source_desc(lay, shape, start_16B * 16)
    except DescriptorError:
        return
    want = start_16B * 16 + lay.to_numpy().reshape((rows, bits // 8), order="F")
    np.testing.assert_array_equal(d.element_addresses("K", 8, (rows, bits // 8)), want)


# ------------------------------------------------------------------------------------------------
# tensor memory: the warpx4 copy of a chunk lands where tmem_sf_layout says
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("vs", [16, 32])
def test_warpx4_copy_matches_tmem_layout(vs):
    place = umma.warpx4_placement(0)  # [q, lane, col, byte] -> smem byte
    chunk = umma.sf_chunk_layout(vs)
    tmem = umma.tmem_sf_layout(128, vs, 4)
    where = {}
    for lane in range(32):
        for col in range(4):
            for byte in range(4):
                where[int(place[0, lane, col, byte])] = lane + 128 * (4 * col + byte)
    assert len(where) == 512
    for q in range(4):
        np.testing.assert_array_equal(place[q], place[0])
    for m in range(128):
        for j in range(4):
            assert where[int(chunk(m, j * vs))] == tmem(m, j * vs)


# ------------------------------------------------------------------------------------------------
# bad inputs
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("call,match", [
    (lambda: umma.sf_per_mma("f16", 32), "not block-scaled"),
    (lambda: umma.sf_per_mma("mxf8f6f4", 16), "vec_size=16 is illegal for kind::mxf8f6f4"),
    (lambda: umma.sf_per_mma("mxf4", 64), "vec_size=64 is illegal"),
    (lambda: umma.sf_chunk_layout(8), "vec_size must be 16 or 32"),
    (lambda: umma.sf_chunk_layout(32, "T"), "major must be 'K' or 'MN'"),
    (lambda: umma.sf_gmem_layout(32, 100, 128), "multiples"),
    (lambda: umma.sf_gmem_layout(32, 128, 96), "multiples"),
    (lambda: umma.sf_gmem_layout(32, 0, 128), "positive int"),
    (lambda: umma.sf_smem_layout("mxf4", 32, 192, 256), "not a multiple of the 128-row"),
    (lambda: umma.sf_smem_layout("mxf4", 32, 128, 100), "tile_k=100"),
    (lambda: umma.sf_smem_layout("mxf4", 32, 128, 256, operand="C"), "operand must be 'A' or 'B'"),
    (lambda: umma.copy_source_desc(parse("(32,16):(16,1)"), "16x128b"), "not a tcgen05.cp shape"),
    (lambda: umma.copy_source_desc(parse("(32,16):(16,1)"), "128x128b"), "128 rows x 16 bytes"),
    (lambda: umma.copy_source_desc(parse("(32,16):(32,1)")), "16 bytes apart"),
    (lambda: umma.copy_source_desc(parse("(32,16):(16,2)")), "first 16 bytes"),
    (lambda: umma.copy_source_desc(parse("(32,16):(16,1)"), "32x128b", 8), "multiple of 16"),
    (lambda: umma.copy_source_desc(parse("((8,2,2),16):((16,128,512),1)")), "8-row core-matrix groups"),
    (lambda: umma.copy_source_desc("(32,16):(16,1)"), "rank-2 Layout"),
    (lambda: umma.tmem_sf_layout(100, 32, 1), "multiple of 32"),
    (lambda: umma.tmem_sf_layout(128, 32, 3), "nsf 1, 2 or 4"),
])
def test_bad_inputs(call, match):
    with pytest.raises(DescriptorError, match=match):
        call()


# ------------------------------------------------------------------------------------------------
# CuTe/CUTLASS C++ for the host: Sm1xxBlockScaledConfig and tmem_sf_frg
# ------------------------------------------------------------------------------------------------

CFG = "cutlass::detail::Sm1xxBlockScaledConfig"
GMEM = [(32, 256, 512, 2), (16, 128, 256, 1), (32, 384, 128, 3)]
# (kind, vec_size, MMA atom, M, N, tile K): real block-scaled configurations of CUTLASS's sm100 collective
SMEM = [
    ("mxf8f6f4", 32, "SM100_MMA_MXF8F6F4_SS<float_e4m3_t, float_e4m3_t, float, float_ue8m0_t, 128, 128, "
     "UMMA::Major::K, UMMA::Major::K>", 128, 128, 128),
    ("mxf4", 32, "SM100_MMA_MXF4_SS<float_e2m1_t, float_e2m1_t, float, float_ue8m0_t, 128, 256, 32, "
     "UMMA::Major::K, UMMA::Major::K>", 128, 256, 256),
    ("mxf4nvf4", 16, "SM100_MMA_MXF4_SS<float_e2m1_t, float_e2m1_t, float, float_ue4m3_t, 128, 192, 16, "
     "UMMA::Major::K, UMMA::Major::K>", 128, 192, 256),
]
TMEM = [(32, 1, 4, "float_ue8m0_t"), (16, 4, 1, "float_ue4m3_t"), (32, 2, 2, "float_ue8m0_t")]


@pytest.fixture(scope="module")
def sf_oracle():
    import oracles

    oracles.skip_without_cxx()
    batch = oracles.CuteBatch(extra_includes=["cute/atom/mma_traits_sm100.hpp",
                                              "cutlass/detail/sm100_blockscaled_layout.hpp"])
    for vs, mn, k, batches in GMEM:
        batch.add(f"{CFG}<{vs}>::tile_atom_to_shape_SFA(make_shape(Int<{mn}>{{}}, Int<8>{{}}, Int<{k}>{{}}, "
                  f"Int<{batches}>{{}}))")
    for _kind, vs, atom, m, n, k in SMEM:
        for op in ("A", "B"):
            batch.add(f"{CFG}<{vs}>::deduce_smem_layoutSF{op}(make_tiled_mma({atom}{{}}), "
                      f"Shape<Int<{m}>, Int<{n}>, Int<{k}>>{{}})")
    for vs, nsf, kmma, sf in TMEM:
        batch.add(f"UMMA::tmem_sf_frg<{sf}, {vs}, 1, true>::make(make_shape(make_shape(_128{{}}, "
                  f"make_shape(Int<{vs}>{{}}, Int<{nsf}>{{}})), _1{{}}, Int<{kmma}>{{}})).layout()")
    batch.add("int(TMEM::DP<float_ue8m0_t>{})")
    res = batch.run()
    print(f"scale-factor oracle: {len(res)} expressions, {batch.stats.describe()}")
    return res


@pytest.mark.oracle
def test_differential_cutlass_sf_layouts(sf_oracle):
    import oracles

    res = list(sf_oracle)
    agree = 0
    for vs, mn, k, batches in GMEM:
        r = res.pop(0)
        assert isinstance(r, str), r
        cute = parse(oracles.normalize(r))
        ours = umma.sf_gmem_layout(vs, mn, k, batches)
        np.testing.assert_array_equal(cute.to_numpy(), ours.to_numpy())
        agree += 1
    for _kind, vs, _atom, m, n, k in SMEM:
        for op, mn in (("A", m), ("B", n)):
            r = res.pop(0)
            assert isinstance(r, str), r
            ours = umma.sf_smem_layout(_kind, vs, mn, k, operand=op)
            assert parse(oracles.normalize(r)) == ours, (op, r, str(ours))
            agree += 1
    dp = int(res[-1])
    for vs, nsf, kmma, _sf in TMEM:
        r = res.pop(0)
        assert isinstance(r, str), r
        cute = parse(oracles.normalize(r))
        # ours per replica, plus CuTe's replica mode (stride 32 lanes) and the MMA-K mode (next byte)
        t = umma.tmem_sf_layout(128, vs, nsf)
        full = Layout(((((32, 4), 4), (vs, nsf)), 1, kmma), ((((1, 512), 32), (0, 128)), 0, 128 * nsf))
        assert full[0][0][0] == t[0] and full[0][1] == t[1]
        idx = full.to_numpy()
        np.testing.assert_array_equal(cute.to_numpy(), (idx % 128) * dp + idx // 128)
        agree += 1
    print(f"CUTLASS/CuTe scale-factor layouts: {agree} agree")
    assert agree == len(GMEM) + 2 * len(SMEM) + len(TMEM)
