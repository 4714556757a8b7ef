"""Facts about one MMA instruction: swizzle choice, A/B type pairs, rows per instruction, descriptor fields.

``choose_swizzle`` is checked against a hand table, against DeepGEMM's ``get_swizzle_mode``
(restated below) and against CUTLASS's ``ss_smem_selector`` / ``sm100_smem_selector`` compiled
for the host; the per-instruction start addresses against CuTe's ``make_gmma_desc`` on the
``flat_divide`` slices of the same tile (both skipped without the oracle).
"""

from __future__ import annotations

import random

import pytest

from pycute_layouts.arch import umma, wgmma
from pycute_layouts.arch.instruction import SMEM_DESC_FIELDS, instruction_mn, smem_desc_fields
from pycute_layouts.arch.mma_types import WGMMA_TYPE_GROUPS, mma_type_kind
from pycute_layouts.arch.swizzle_choice import AUTO_CANDIDATES, choose_swizzle
from pycute_layouts.codegen import describe_operand
from pycute_layouts.errors import DescriptorError, LayoutError, LayoutValueError

# ------------------------------------------------------------------------------------------------
# choose_swizzle
# ------------------------------------------------------------------------------------------------

#: (major, element bits, contiguous extent in elements, arch) -> mode, written by hand from the rule
#: "widest of 128/64/32/16 bytes dividing the extent in bytes" (DeepGEMM's kernels: block_k 64 bf16, 128 fp8).
CHOICE_TABLE = [
    ("K", 16, 64, "sm90", "128B"),     # DeepGEMM bf16 block_k = 64
    ("K", 8, 128, "sm90", "128B"),     # DeepGEMM fp8 block_k = 128
    ("K", 16, 32, "sm90", "64B"),
    ("K", 8, 32, "sm90", "32B"),
    ("K", 32, 8, "sm90", "32B"),       # tf32 K = 8: 32 bytes
    ("K", 32, 16, "sm100", "64B"),
    ("K", 16, 8, "sm90", "none"),
    ("K", 16, 24, "sm90", "none"),     # 48 B: only 16 divides
    ("K", 16, 192, "sm90", "128B"),    # 384 B
    ("MN", 16, 96, "sm90", "64B"),     # 192 B
    ("MN", 16, 256, "sm100", "128B"),
    ("MN", 8, 48, "sm90", "none"),
    ("MN", 32, 64, "sm100", "128B_base32B"),  # CUTLASS sm100: the only layout of MN-major tf32
    ("MN", 32, 64, "sm90", "128B"),
    ("K", 4, 256, "sm100", "128B"),    # packed e2m1: 128 bytes
]


@pytest.mark.parametrize("major,bits,extent,arch,mode", CHOICE_TABLE)
def test_choose_swizzle_table(major: str, bits: int, extent: int, arch: str, mode: str) -> None:
    c = choose_swizzle(major, bits, extent, arch)
    assert c.mode.short_name == mode and c.contiguous_bytes == extent * bits // 8
    assert c.reason.startswith(f"{major}-major contiguous extent {extent} x {bits}-bit = {extent * bits // 8} B: ")
    assert ("CUTLASS" in c.reason) and (mode in c.reason or mode == "none")


def _deepgemm_get_swizzle_mode(block_size: int, elem_size: int) -> int:
    """DeepGEMM's rule (jit_kernels heuristics): the first of 128, 64, 32, 16 dividing the bytes; 16 = no swizzle."""
    for mode_bytes in (128, 64, 32, 16):
        if (block_size * elem_size) % mode_bytes == 0:
            return mode_bytes
    raise AssertionError("DeepGEMM asserts here: invalid mode")


@pytest.mark.parametrize("bits", [8, 16, 32])
def test_choose_swizzle_is_deepgemm_get_swizzle_mode(bits: int) -> None:
    span = {"128B": 128, "64B": 64, "32B": 32, "none": 16}
    for extent in range(128 // bits, 513, 128 // bits):  # every whole number of 16-byte chunks up to 512 elements
        for major in ("K", "MN"):
            got = choose_swizzle(major, bits, extent, "sm90").mode.short_name
            assert span[got] == _deepgemm_get_swizzle_mode(extent, bits // 8), (major, bits, extent, got)


@pytest.mark.parametrize("args,words", [
    (("K", 16, 4), "8 B is not a multiple of 16 B"),
    (("X", 16, 64), "major must be 'K' or 'MN'"),
    (("K", 12, 64), "element_bits must be one of"),
    (("K", True, 64), "element_bits must be one of"),
    (("K", 16, 0), "contiguous_extent_elems must be a positive int"),
    (("K", 16, 64.0), "contiguous_extent_elems must be a positive int"),
    (("K", 16, 64, "sm80"), "arch must be 'sm90' or 'sm100'"),
    (("MN", 32, 16, "sm100"), "take only 128B_base32B"),
])
def test_choose_swizzle_bad_input(args: tuple, words: str) -> None:
    with pytest.raises(LayoutValueError, match=words.replace("(", r"\(").replace(")", r"\)")):
        choose_swizzle(*args)


@pytest.mark.parametrize("arch", ["sm90", "sm100"])
def test_chosen_atom_tiles_the_extent(arch: str) -> None:
    """The chosen mode's atom divides the tile: describe_operand builds the tile with it."""
    for major, bits, dtype in (("K", 16, "bf16"), ("K", 8, "e4m3"), ("MN", 16, "bf16"), ("K", 32, "tf32")):
        for extent in (16, 32, 48, 64, 96, 128):
            if extent * bits % 256:  # a K-major tile needs whole 32-byte instructions of K
                continue
            mode = choose_swizzle(major, bits, extent, arch).mode
            tile = (extent, 64) if major == "MN" else (64, extent)
            oc = describe_operand(arch, major, mode, dtype, tile)
            assert oc.swizzle == mode and oc.tile_mn * oc.tile_k == tile[0] * tile[1]


@pytest.mark.oracle
def test_choose_swizzle_is_cutlass_selector() -> None:
    """CUTLASS's ss_smem_selector, compiled for the host, picks the same mode (sm90, and sm100 but for MN-major tf32).

    CUTLASS's sm100_smem_selector (sm100_common.inl) does not compile for the host; it handles every type
    "as SM90" except MN-major 32-bit operands, which take SW128_32B (the hand table above).
    """
    import oracles

    oracles.skip_without_cxx()
    batch = oracles.CuteBatch(extra_includes=["cute/atom/mma_traits_sm90_gmma.hpp",
                                              "cutlass/gemm/collective/builders/sm90_common.inl"])
    types = {8: "cutlass::float_e4m3_t", 16: "cutlass::bfloat16_t", 32: "cutlass::tfloat32_t"}
    sw_mode = {"Sw<0,4,3>": "none", "Sw<1,4,3>": "32B", "Sw<2,4,3>": "64B", "Sw<3,4,3>": "128B"}
    cases = []
    for major in ("K", "MN"):
        for bits, t in types.items():
            for extent in (8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 320):
                if extent * bits % 128:
                    continue
                mn, k = (extent, 64) if major == "MN" else (64, extent)
                e = f"cutlass::gemm::collective::detail::ss_smem_selector<SM90::GMMA::Major::{major}, {t}, Int<{mn}>, Int<{k}>>()"
                cases.append((major, bits, extent, batch.add(e, printer="print")))
    res = batch.run()
    assert len(cases) >= 50
    for major, bits, extent, i in cases:
        got = res[i]
        assert isinstance(got, str), (major, bits, extent, got)
        cutlass_mode = sw_mode[got.split(" o ")[0]]
        assert choose_swizzle(major, bits, extent, "sm90").mode.short_name == cutlass_mode, (major, bits, extent, got)
        if not (major == "MN" and bits == 32):
            assert choose_swizzle(major, bits, extent, "sm100").mode.short_name == cutlass_mode


def test_auto_candidates_widest_first() -> None:
    assert [m.width_bytes for m in AUTO_CANDIDATES] == [128, 64, 32, 16]


# ------------------------------------------------------------------------------------------------
# mma_type_kind
# ------------------------------------------------------------------------------------------------

_TYPES = ("f16", "bf16", "tf32", "e4m3", "e5m2", "s8", "u8")
#: PTX ISA wgmma.mma_async data types, restated: the pairs (A, B) one instruction accepts.
_PTX_WGMMA_PAIRS = ({("f16", "f16"), ("bf16", "bf16"), ("tf32", "tf32")}
                    | {(a, b) for a in ("e4m3", "e5m2") for b in ("e4m3", "e5m2")}
                    | {(a, b) for a in ("s8", "u8") for b in ("s8", "u8")})


def test_wgmma_type_pairs_are_the_ptx_table() -> None:
    for a in _TYPES:
        for b in _TYPES:
            if (a, b) in _PTX_WGMMA_PAIRS:
                assert mma_type_kind("sm90", a, b) in WGMMA_TYPE_GROUPS
            else:
                with pytest.raises(DescriptorError, match=f"A {a} .* with B {b} .* is not one"):
                    mma_type_kind("sm90", a, b)


@pytest.mark.parametrize("a,b,kind", [
    ("bf16", "bf16", "f16"), ("f16", "f16", "f16"), ("tf32", "tf32", "tf32"), ("e4m3", "e2m3", "f8f6f4"),
    ("e3m2", "e2m1_p64", "f8f6f4"), ("e5m2", "e4m3", "f8f6f4"), ("s8", "u8", "i8"), ("e2m1", "e2m1", "mxf4"),
])
def test_tcgen05_kinds(a: str, b: str, kind: str) -> None:
    assert mma_type_kind("sm100", a, b) == kind


@pytest.mark.parametrize("arch,a,b,words", [
    ("sm100", "bf16", "e4m3", "different tcgen05 kinds"),
    ("sm100", "f16", "bf16", "kind::f16 multiplies f16 x f16 or bf16 x bf16"),
    ("sm100", "e2m1", "e4m3", "packed e2m1 is read only by kind::mxf4/mxf4nvf4"),
    ("sm100", "fp32", "fp32", "has no tcgen05 type"),
    ("sm90", "e2m3", "e2m3", "the 4- and 6-bit types need sm100 tcgen05"),
    ("sm90", "bf16", "f16", "is not one"),
    ("sm80", "bf16", "bf16", "arch must be 'sm90' or 'sm100'"),
])
def test_type_pair_refusals(arch: str, a: str, b: str, words: str) -> None:
    with pytest.raises(DescriptorError, match=words):
        mma_type_kind(arch, a, b)


# ------------------------------------------------------------------------------------------------
# instruction_mn and the descriptor fields
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("arch,op,tile_mn,cta,rows", [
    ("sm90", "A", 64, 1, 64), ("sm90", "A", 256, 1, 64), ("sm90", "B", 8, 1, 8), ("sm90", "B", 96, 1, 96),
    ("sm90", "B", 256, 1, 256), ("sm90", "B", 384, 1, 192), ("sm90", "b", 512, 1, 256),
    ("sm100", "A", 64, 1, 64), ("sm100", "A", 128, 1, 128), ("sm100", "A", 192, 1, 64), ("sm100", "A", 256, 2, 128),
    ("sm100", "B", 256, 1, 256), ("sm100", "B", 256, 2, 128), ("sm100", "B", 64, 2, 64),
])
def test_instruction_mn(arch: str, op: str, tile_mn: int, cta: int, rows: int) -> None:
    got, note = instruction_mn(arch, op, tile_mn, cta)
    assert got == rows and tile_mn % got == 0 and arch in note


@pytest.mark.parametrize("args,words", [
    (("sm90", "A", 32), "the tile has 32 rows, not a multiple of 64"),
    (("sm90", "B", 12), "not a multiple of 8"),
    (("sm100", "A", 96), "reads A as M = 64 or 128 rows"),
    (("sm100", "A", 64, 2), "128 rows of A from each CTA"),
    (("sm90", "A", 64, 2), "tcgen05 (sm100) setting"),
    (("sm90", "C", 64), "operand must be 'A' or 'B'"),
    (("sm90", "A", 0), "tile_mn must be a positive int"),
    (("sm90", "A", 64, 3), "cta_group must be 1 or 2"),
    (("sm70", "A", 64), "arch must be"),
])
def test_instruction_mn_refusals(args: tuple, words: str) -> None:
    with pytest.raises(DescriptorError, match=words.replace("(", r"\(").replace(")", r"\)")):
        instruction_mn(*args)


def test_desc_fields_cover_exactly_the_non_reserved_bits() -> None:
    # sm90 reserved bits (PTX / CuTe GmmaDescriptor): 14-15, 30-31, 46-48, 52-61; sm100 (Table 40): 14-15, 30-31, 53-60
    reserved = {"sm90": [(14, 15), (30, 31), (46, 48), (52, 61)], "sm100": [(14, 15), (30, 31), (53, 60)]}
    for arch, fields in SMEM_DESC_FIELDS.items():
        used = [b for _, lo, hi, _ in fields for b in range(lo, hi + 1)]
        res = [b for lo, hi in reserved[arch] for b in range(lo, hi + 1)]
        assert len(used) == len(set(used)) and sorted(used + res) == list(range(64)), arch


def test_desc_fields_read_back_every_field() -> None:
    rng = random.Random(17)
    modes = {"sm90": ("none", "32B", "64B", "128B"), "sm100": ("none", "32B", "64B", "128B", "128B_base32B")}
    for arch, cls in (("sm90", wgmma.SmemDescriptor), ("sm100", umma.UmmaSmemDescriptor)):
        for _ in range(200):
            mode = rng.choice(modes[arch])
            d = cls(rng.randrange(0, 1 << 14) << 4, rng.randrange(0, 1 << 14) << 4, rng.randrange(0, 1 << 14) << 4,
                    mode, 0 if mode == "none" else rng.randrange(8))
            f = {name: v for name, _bits, v, _units in smem_desc_fields(arch, d.encode())}
            assert (f["start address"], f["LBO"], f["SBO"], f["base offset"], f["layout type"]) == (
                d.start_16B, d.lbo_16B, d.sbo_16B, d.base_offset, d.layout_type)
            if arch == "sm100":
                assert f["version"] == 1 and f["LBO mode"] == d.lbo_mode


@pytest.mark.parametrize("args", [("sm80", 0), ("sm90", -1), ("sm90", 1 << 64), ("sm90", True), ("sm90", "0x0")])
def test_desc_fields_bad_input(args: tuple) -> None:
    with pytest.raises(LayoutError):
        smem_desc_fields(*args)


@pytest.mark.oracle
def test_every_instruction_start_is_cutes() -> None:
    """CuTe's make_gmma_desc / make_umma_desc on flat_divide(tile, (mma_mn, mma_k))(_, _, i, k): same LBO/SBO/
    layout type, and the slice starts where desc's instruction table says (byte offset of the slice's pointer)."""
    import oracles

    oracles.skip_without_cxx()
    pre = r"""
alignas(1024) static unsigned char ii_smem[1 << 18];
template <class S> std::string ii_fields(S s) {
  auto d = NS::FN<NS::Major::MAJOR>(s);
  std::ostringstream os;
  os << int(d.FIELDSleading_byte_offset_) << " " << int(d.FIELDSstride_byte_offset_) << " "
     << int(d.FIELDSlayout_type_) << " "
     << (reinterpret_cast<unsigned char const*>(raw_pointer_cast(s.data())) - ii_smem);
  return os.str();
}
"""
    cases = [("sm90", "K", "128B", "bf16", (128, 64), "A", 1), ("sm90", "K", "64B", "e4m3", (192, 64), "A", 1),
             ("sm90", "MN", "128B", "bf16", (128, 64), "A", 1), ("sm90", "K", "128B", "bf16", (512, 64), "B", 1),
             ("sm100", "K", "128B", "bf16", (256, 64), "A", 1), ("sm100", "K", "32B", "e4m3", (256, 64), "A", 2),
             ("sm100", "MN", "128B", "bf16", (256, 64), "B", 2)]
    items = []
    for arch, major in (("sm90", "K"), ("sm90", "MN"), ("sm100", "K"), ("sm100", "MN")):
        ns, fn, fields, inc = (("SM90::GMMA", "make_gmma_desc", "bitfield.", "cute/atom/mma_traits_sm90_gmma.hpp")
                               if arch == "sm90" else ("UMMA", "make_umma_desc", "", "cute/atom/mma_traits_sm100.hpp"))
        batch = oracles.CuteBatch(preamble=pre.replace("MAJOR", major).replace("NS", ns).replace("FN", fn)
                                  .replace("FIELDS", fields), extra_includes=[inc])
        for a, mj, sw, dt, tile, op, cta in cases:
            if (a, mj) != (arch, major):
                continue
            rows, _ = instruction_mn(arch, op, tile[0], cta)
            oc = describe_operand(arch, mj, sw, dt, tile, mma_mn=rows)
            t = oc.dtype.cute_type
            expr = oc.cute_expr
            for i, mn_off in enumerate(oc.mn_block_offsets_bytes):
                for k, k_off in enumerate(oc.k_step_offsets_bytes):
                    e = (f"ii_fields(flat_divide(make_tensor(make_smem_ptr<{t}>(reinterpret_cast<{t}*>(ii_smem)), "
                         f"{expr}), Shape<Int<{oc.mma_mn}>,Int<{oc.mma_k}>>{{}})(_, _, {i}, {k}))")
                    items.append((batch, oc, mn_off + k_off, batch.add(e)))
        results = batch.run()
        for b, oc, off, idx in items:
            if b is not batch:
                continue
            lbo, sbo, lt, start = (int(x) for x in results[idx].split())
            d = oc.descriptor
            assert (lbo, sbo, lt, start) == (d.lbo_16B, d.sbo_16B, d.layout_type, off), (oc.major, oc.tile_mn, off)
    assert len(items) >= 40
