"""Tests for pycute_layouts.codegen: spec parsing, derived constants, the three emitters.

Known values come from the PTX reference (003: the worked examples' LBO/SBO encodings), from the
wgmma/umma tests and docs (DeepGEMM-style tiles). The generated header is compiled with g++ (its
static_asserts re-check the values), and with the CuTe headers of the nvidia-cutlass wheel, where
``PYCUTE_LAYOUTS_WITH_CUTE`` makes it assert that each emitted CuTe type *is* the type CuTe's
``tile_to_shape`` builds; CuTe's ``make_gmma_desc``/``make_umma_desc`` fields are compared through
the oracle harness. Each compile has a planted fault that must fail it.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from pycute_layouts import LayoutError, SwizzledSmemLayout, parse
from pycute_layouts.arch import tma as tma_mod
from pycute_layouts.arch import umma, wgmma
from pycute_layouts.codegen import (
    DTYPES,
    KernelConstants,
    SpecError,
    describe_layout,
    describe_operand,
    emit_header,
    emit_json,
    emit_python,
    kernel_constants,
    load_spec,
    parse_spec,
)
from pycute_layouts.core.composed import smem_layout_of
from pycute_layouts.errors import DescriptorError

REPO = Path(__file__).resolve().parent.parent
REFERENCE = Path("/work/shared/reference/003_2b23e188beadbf0d.txt")


def spec(kernel="k", arch="sm90", **ops):
    d = {"kernel": kernel, "arch": arch}
    d.update(ops)
    return parse_spec(d)


def op(tile="128x64", dtype="bf16", major="K", swizzle="128B", **kw):
    return {"tile": tile, "dtype": dtype, "major": major, "swizzle": swizzle, **kw}


# A set of kernels that covers every arch / major / swizzle / dtype family the emitters handle.
KERNELS = {
    "dg_bf16": spec("dg_bf16", A=op(stages=4, mma_mn=64), B=op(major="MN", stages=4)),
    "dg_fp8": spec("dg_fp8", A=op("128x128", "e4m3", stages=3, mma_mn=64), B=op("128x128", "e4m3", stages=3)),
    "sw64_tf32": spec("sw64_tf32", A=op("64x32", "tf32", swizzle="64B", stages=2),
                      B=op("64x64", "tf32", swizzle="32B", stages=2)),
    "inter_f16": spec("inter_f16", A=op("64x32", "f16", swizzle="none", stages=2),
                      B=op("64x32", "f16", major="MN", swizzle="none", stages=2)),
    "mn_orders": spec("mn_orders", A=op("64x64", "bf16", major="MN", swizzle="64B", order="mn_first", stages=2),
                      B=op("128x32", "bf16", major="MN", swizzle="32B", stages=2)),
    "k_two_atoms": spec("k_two_atoms", smem_base=1024, A=op("64x128", "bf16", stages=2),
                        B=op("64x128", "bf16", order="k_first", stages=1)),
    "bw_bf16": spec("bw_bf16", "sm100", A=op("128x64", stages=4), B=op("256x64", major="MN", stages=4)),
    "bw_tf32": spec("bw_tf32", "sm100", A=op("128x32", "tf32", major="MN", swizzle="128B_base32B", stages=2),
                    B=op("64x32", "tf32", major="MN", swizzle="128B_base32B", order="mn_first", stages=2)),
    "bw_fp8_mn": spec("bw_fp8_mn", "sm100", A=op("128x128", "e4m3", major="MN", stages=2),
                      B=op("128x64", "s8", swizzle="64B", stages=2)),
}


@pytest.fixture(scope="module")
def constants() -> dict[str, KernelConstants]:
    return {name: kernel_constants(s) for name, s in KERNELS.items()}


# ------------------------------------------------------------------------------------------------
# Known values
# ------------------------------------------------------------------------------------------------


def test_deepgemm_k_major_sw128_bf16(constants):
    a = constants["dg_bf16"].operand("A")
    assert (a.lbo_bytes, a.sbo_bytes, a.descriptor.layout_type, a.descriptor.base_offset) == (16, 1024, 1, 0)
    assert a.desc_template == 0x4000004000010000  # docs/descriptors.md "Constants for a kernel"
    assert a.k_step_offsets_bytes == (0, 32, 64, 96) and a.k_step_advance_16B == (0, 2, 4, 6)  # desc.lo += 2
    assert a.mn_block_offsets_bytes == (0, 64 * 128)  # the second 64-row warpgroup
    assert a.stage_bytes == 128 * 64 * 2 and a.stage_starts == (0, 16384, 32768, 49152)
    assert [hex(v) for v in a.descs[1]] == ["0x4000004000010400", "0x4000004000010402", "0x4000004000010404",
                                            "0x4000004000010406"]
    assert (a.tma_swizzle_name, int(a.tma_swizzle), a.tma_box_dim, a.tma_copies) == \
        ("CU_TENSOR_MAP_SWIZZLE_128B", 3, (64, 128), 1)
    assert a.canonical == "Sw<3,4,3> o smem_ptr[16b](unset) o ((8,8),(8,2)):((64,512),(1,8))"  # pointer form: bytes
    b = constants["dg_bf16"].operand("B")  # N-major, K tiled first (CUTLASS Step<_2,_1,_3>)
    assert (b.lbo_bytes, b.sbo_bytes) == (128 * 64 * 2 // 2, 1024)  # LBO: the second 64-wide N atom, 8 KiB on
    assert b.k_step_offsets_bytes == (0, 2048, 4096, 6144)  # two 8-row K groups (2 * SBO) per K step
    assert b.stage_starts[0] == 65536 and b.tma_box_dim == (64, 64) and b.tma_copy_offsets_bytes == (0, 8192)
    assert b.tma_copy_coords == ((0, 0), (64, 0))


def test_fp8_k_major_values_from_docs():
    """docs/descriptors.md: 128x128 e4m3 at 0x8000, (m, k) blocks (0,0) (0,1) (1,3)."""
    oc = describe_operand("sm90", "K", "128B", "e4m3", (128, 128), 0x8000, mma_mn=64)
    assert oc.mma_k == 32 and oc.k_steps == 4
    assert hex(oc.descs[0][0]) == "0x4000004000010800"
    assert hex(oc.descs[0][1]) == "0x4000004000010802"
    assert hex(oc.descs[0][3] + (oc.mn_block_offsets_bytes[1] >> 4)) == "0x4000004000010a06"


def test_mn_major_b_values_from_docs():
    """docs/descriptors.md: 128x64 B, N contiguous, tiled N first: LBO 1024, SBO 2048, 0x4000008000400400."""
    oc = describe_operand("sm90", "MN", "128B", "bf16", (128, 64), 0x4000, order="mn_first")
    assert (oc.lbo_bytes, oc.sbo_bytes, hex(oc.desc)) == (1024, 2048, "0x4000008000400400")
    assert oc.k_step_offsets_bytes == (0, 4096, 8192, 12288)  # 2 * SBO per K step
    assert oc.tma_box_dim == (64, 8) and oc.tma_copies == 16  # mn_first: boxes are one atom tall


def test_sm100_values():
    oc = describe_operand("sm100", "K", "128B", "bf16", (128, 64), 0x1000)
    assert hex(oc.descs[0][1]) == "0x4000404000010102"  # docs/descriptors.md "The same tiles on sm100"
    assert oc.descriptor.layout_type == 2 and oc.descriptor.version == 1
    t = describe_operand("sm100", "MN", "128B_base32B", "tf32", (64, 8), order="mn_first")
    assert (t.lbo_bytes, t.sbo_bytes, hex(t.desc)) == (512, 1024, "0x2000404000200000")  # umma docstring
    assert (t.tma_swizzle_name, int(t.tma_swizzle)) == ("CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B", 4)
    assert t.canonical == "Sw<2,5,2> o smem_ptr[32b](unset) o ((4,8,2),(4,2)):((1,4,128),(32,256))"


def _reference_examples():
    """(exact layout, major, bits, LBO enc, SBO enc) of the PTX worked examples, read from reference 003."""
    if not REFERENCE.is_file():
        pytest.skip(f"reference document {REFERENCE} not present")
    text = REFERENCE.read_text()
    out = []
    for block in re.split(r"\n(?=(?:K|MN)-Major, )", text)[1:]:
        head = block.splitlines()[0]
        major = "K" if head.startswith("K-") else "MN"
        bits = 32 if "tf32" in head else 16
        exact = re.search(r"Exact layout : (.*)", block).group(1).strip()
        lbo = re.search(r"Encoding of LBO in descriptor \| (.*?) \|", block).group(1)
        sbo = re.search(r"Encoding of SBO in descriptor \| \(SBO\) >> 4 = (\d+)", block).group(1)
        canon = re.search(r"Canonical Layout :(.*?)\|", block).group(1).strip()
        params = dict(re.findall(r"\| (T|m|k) \| (\d+) \|", block))
        out.append((head, exact, major, bits, lbo, int(sbo), canon, {k: int(v) for k, v in params.items()}))
    assert len(out) == 5, [h for h, *_ in out]
    return out


def test_ptx_examples_through_desc():
    """Every consistent worked example: the encodings of reference 003, and its canonical layout substituted.

    PTX writes its layouts with the swizzle on byte addresses: read them so (swizzle_unit="bytes"); the
    canonical layout comes back in CuTe's pointer form, the same placement.
    """
    seen = 0
    for head, exact, major, bits, lbo, sbo, canon, params in _reference_examples():
        lay = parse(exact.replace("Swizzle<", "Sw<"))
        if "32B swizzling and tf32" in head and major == "K":
            with pytest.raises(DescriptorError, match="not injective"):  # see docs/descriptors.md
                describe_layout(lay, "sm90", major, "tf32", swizzle_unit="bytes")
            continue
        oc = describe_layout(lay, "sm90", major, "tf32" if bits == 32 else "bf16", swizzle_unit="bytes")
        m = re.fullmatch(r"\(LBO\) >> 4 = (\d+)", lbo)
        assert oc.descriptor.lbo_16B == (int(m.group(1)) if m else 1), head
        assert oc.descriptor.sbo_16B == sbo, head
        # the canonical layout it matched is the reference's canonical layout with the example's T and m (and
        # K = one instruction: k = 1 K-major, 2 MN-major) substituted
        assert oc.canonical_symbols["T"] == params["T"] and oc.canonical_symbols["m"] == params["m"], head
        ref = parse(canon.replace("Swizzle<", "Sw<"), **oc.canonical_symbols)
        assert smem_layout_of(ref, bits, swizzle_unit="bytes") == parse(oc.canonical), (head, str(ref), oc.canonical)
        seen += 1
    assert seen == 4


def test_ptx_example_one_instruction_slices():
    """MN-major 64B bf16 (Figure 170) is two 8-row K groups = one 16-element K step; K none tf32 is two steps."""
    oc = describe_layout(parse("Sw<2,4,3> o ((8,4,2),(8,2)):((1,8,256),(32,512))"), "sm90", "MN", "bf16",
                         swizzle_unit="bytes")  # PTX's text: the swizzle on byte addresses
    assert oc.k_steps == 1 and (oc.descriptor.lbo_16B, oc.descriptor.sbo_16B) == (32, 64)
    oc = describe_layout(parse("Sw<0,4,3> o ((8,2),(4,4)):((4,32),(1,64))"), "sm90", "K", "tf32")
    assert oc.k_steps == 2 and oc.k_step_offsets_bytes == (0, 512)  # K step 1: 2 * LBO
    assert (oc.descriptor.lbo_16B, oc.descriptor.sbo_16B) == (16, 8)


# ------------------------------------------------------------------------------------------------
# Laws: every constant is what the hardware model reads, what TMA writes, and what decodes back
# ------------------------------------------------------------------------------------------------


def _desc_cls(arch):
    return wgmma.SmemDescriptor if arch == "sm90" else umma.UmmaSmemDescriptor


def _check_operand(oc, arch):
    cls = _desc_cls(arch)
    bits = oc.element_bits
    tile = oc.tile_layout.inner
    for s, start in enumerate(oc.stage_starts):
        smem = SwizzledSmemLayout(oc.tile_layout.byte_swizzle(), tile, bits, base_address=start)
        for k, value in enumerate(oc.descs[s]):
            d = cls.decode(value)
            assert d.encode() == value
            assert value == oc.desc_template + ((start + oc.k_step_offsets_bytes[k]) >> 4)
            for i, mn_off in enumerate(oc.mn_block_offsets_bytes):
                di = cls.decode(value + (mn_off >> 4))
                mn, kk = np.meshgrid(np.arange(oc.mma_mn) + i * oc.mma_mn, np.arange(oc.mma_k) + k * oc.mma_k,
                                     indexing="ij")
                want = smem.byte_address((mn + kk * oc.tile_mn).ravel()).reshape(mn.shape)
                got = di.element_addresses(oc.major, bits, (oc.mma_mn, oc.mma_k))
                np.testing.assert_array_equal(got, want, err_msg=f"{oc.name} stage {s} K step {k} MN block {i}")
        # TMA: the boxes write exactly the stage's bytes, each where the layout says
        written = []
        for (c_in, c_row), off in zip(oc.tma_copy_coords, oc.tma_copy_offsets_bytes, strict=True):
            placed = tma_mod.box_to_smem(oc.tma_swizzle, bits // 8, oc.tma_box_dim, start + off)
            written.append((start + off + placed).ravel())
            inner, rows = oc.tma_box_dim
            e, r = np.meshgrid(np.arange(inner), np.arange(rows))
            mn, kk = (c_row + r, c_in + e) if oc.major == "K" else (c_in + e, c_row + r)
            want = smem.byte_address((mn + kk * oc.tile_mn).ravel()).reshape(rows, inner)
            np.testing.assert_array_equal(start + off + placed[:, :: bits // 8], want)
        allb = np.sort(np.concatenate(written))
        np.testing.assert_array_equal(allb, np.arange(start, start + oc.stage_bytes))


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_model_reads_every_step_and_tma_fills_the_stage(constants, name):
    kc = constants[name]
    for oc in kc.operands:
        _check_operand(oc, kc.arch)


SWEEP = [(arch, major, sw, dt, tile, order)
         for arch in ("sm90", "sm100") for major in ("K", "MN") for sw in ("none", "32B", "64B", "128B", "128B_base32B")
         for dt in ("bf16", "tf32", "e4m3") for order in ("mn_first", "k_first") for tile in ((128, 128),)]


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_tma_box_agrees_with_plan_tma_load(constants, name):
    """Differential: arch.tma.plan_tma_load (CuTe's make_tma_copy construction) finds the same box and copies."""
    try:
        from pycute_layouts.arch.tma import plan_tma_load
    except ImportError:
        pytest.skip("pycute_layouts.arch.tma has no plan_tma_load")
    from pycute_layouts import Layout

    for oc in constants[name].operands:
        mn, k = oc.tile_mn, oc.tile_k
        glob = Layout((4 * mn, 4 * k), (4 * k, 1)) if oc.major == "K" else Layout((4 * mn, 4 * k), (1, 4 * mn))
        plan = plan_tma_load(oc.tile_layout, glob, oc.element_bits, data_type=oc.dtype.tma_data_type)
        assert tuple(plan.box_dim) == oc.tma_box_dim, (oc.name, plan.box_dim)
        assert int(plan.swizzle) == int(oc.tma_swizzle)
        got = sorted((tuple(c.coords), c.smem_offset_bytes) for c in plan.copies)
        assert got == sorted(zip(oc.tma_copy_coords, oc.tma_copy_offsets_bytes, strict=True)), oc.name


def test_sweep_accepted_or_rejected_with_reason():
    """Every configuration either satisfies all the laws or is rejected by an arch rule (never silently)."""
    accepted = rejected = 0
    for arch, major, sw, dt, tile, order in SWEEP:
        try:
            oc = describe_operand(arch, major, sw, dt, tile, order=order)
        except LayoutError as e:
            assert any(w in str(e) for w in ("not a multiple of the", "does not exist on sm90", "MN-major only",
                                              "only .f16/.bf16")), str(e)
            rejected += 1
            continue
        _check_operand(oc, arch)
        accepted += 1
    assert accepted >= 80 and rejected >= 30, (accepted, rejected)


def test_planted_fault_in_sbo_is_caught():
    oc = describe_operand("sm90", "K", "128B", "bf16", (128, 64))
    bad = oc.descs[0][0] + (1 << 32)  # SBO + 16 bytes
    good_addrs = wgmma.SmemDescriptor.decode(oc.descs[0][0]).element_addresses("K", 16, (128, 16))
    assert not np.array_equal(wgmma.SmemDescriptor.decode(bad).element_addresses("K", 16, (128, 16)), good_addrs)
    with pytest.raises(AssertionError):
        _check_operand(_replace_desc(oc, bad), "sm90")


def _replace_desc(oc, value):
    import dataclasses

    return dataclasses.replace(oc, descs=((value,) + oc.descs[0][1:],))


def test_base_offset_with_tile_anchor():
    oc = describe_operand("sm90", "K", "128B", "bf16", (64, 64), 0x480, swizzle_anchor="tile")
    assert oc.descriptor.base_offset == 1 and oc.tma_box_dim is None  # docs/descriptors.md base-offset example
    assert describe_operand("sm90", "K", "128B", "bf16", (64, 64), 0x480).descriptor.base_offset == 0


# ------------------------------------------------------------------------------------------------
# Bad specs
# ------------------------------------------------------------------------------------------------

BAD_SPECS = [
    ({"kernel": "k", "arch": "sm90", "A": op(dtype="bf17")}, SpecError, "'A.dtype': unknown dtype 'bf17'"),
    ({"kernel": "k", "arch": "sm90", "A": op(tile="60x64")}, LayoutError, "'A.tile'"),
    ({"kernel": "k", "arch": "sm90", "A": op(tile="128x96")}, LayoutError, "not a multiple of the 8x64 swizzle atom"),
    ({"kernel": "k", "arch": "sm90", "A": op(dtype="tf32", major="MN")}, DescriptorError, "only .f16/.bf16"),
    ({"kernel": "k", "arch": "sm90", "A": op(dtype="e4m3", major="MN")}, DescriptorError, "spec field 'A'"),
    ({"kernel": "k", "arch": "sm90", "A": op(swizzle="128B_base32B", major="MN")}, DescriptorError,
     "does not exist on sm90"),
    ({"kernel": "k", "arch": "sm100", "A": op(swizzle="128B_base32B")}, DescriptorError, "MN-major only"),
    ({"kernel": "k", "arch": "sm90", "A": op(swizzle="96B")}, SpecError, "'A.swizzle'"),
    ({"kernel": "k", "arch": "sm90", "A": op(major="X")}, SpecError, "'A.major'"),
    ({"kernel": "k", "arch": "sm80", "A": op()}, SpecError, "'arch'"),
    ({"kernel": "k", "A": op()}, SpecError, "'arch': missing"),
    ({"arch": "sm90", "A": op()}, SpecError, "'kernel': missing"),
    ({"kernel": "9k", "arch": "sm90", "A": op()}, SpecError, "'kernel'"),
    ({"kernel": "namespace", "arch": "sm90", "A": op()}, SpecError, "'kernel'"),
    ({"kernel": "k", "arch": "sm90"}, SpecError, "'A': missing"),
    ({"kernel": "k", "arch": "sm90", "C": op()}, SpecError, "'C': unknown field"),
    ({"kernel": "k", "arch": "sm90", "A": {**op(), "stride": 3}}, SpecError, "'A.stride': unknown field"),
    ({"kernel": "k", "arch": "sm90", "A": {"tile": "64x64", "dtype": "bf16", "major": "K"}}, SpecError,
     "'A.swizzle': missing"),
    ({"kernel": "k", "arch": "sm90", "A": op(stages=0)}, SpecError, "'A.stages'"),
    ({"kernel": "k", "arch": "sm90", "A": op(stages="many")}, SpecError, "'A.stages'"),
    ({"kernel": "k", "arch": "sm90", "A": op(stages=True)}, SpecError, "'A.stages'"),
    ({"kernel": "k", "arch": "sm90", "A": op(tile="64by64")}, SpecError, "'A.tile'"),
    ({"kernel": "k", "arch": "sm90", "A": op(tile=[64, 64, 2])}, SpecError, "'A.tile'"),
    ({"kernel": "k", "arch": "sm90", "A": op(tile="0x64")}, SpecError, "'A.tile[0] (MN)'"),
    ({"kernel": "k", "arch": "sm90", "A": op(order="n_first")}, SpecError, "'A.order'"),
    ({"kernel": "k", "arch": "sm90", "A": op(mma_mn=48)}, LayoutError, "'A.mma_mn'"),
    ({"kernel": "k", "arch": "sm90", "A": op(start_address=0x480)}, SpecError, "'A.start_address'"),
    ({"kernel": "k", "arch": "sm90", "smem_base": -1, "A": op()}, SpecError, "'smem_base'"),
    ({"kernel": "k", "arch": "sm90", "A": op(stages=16, tile="128x128")}, SpecError, "256 KiB"),
    ({"kernel": "k", "arch": "sm90", "A": op(), "B": op(start_address=0)}, SpecError, "'B.start_address'"),
    ({"kernel": "k", "arch": "sm90", "A": op(tile="64x8", swizzle="none")}, LayoutError,
     "one instruction's K"),
    ({"kernel": "k", "arch": "sm90", "A": "128x64"}, SpecError, "'A'"),
    (["not", "a", "table"], SpecError, "top level"),
    ({"kernel": "k", "arch": "sm100", "A": op(dtype="e4m3", major="MN", swizzle="128B_base32B", tile="128x4",
                                               stages=3)}, LayoutError, "'A.tile'"),
]


@pytest.mark.parametrize("data,exc,words", BAD_SPECS, ids=[w for _d, _e, w in BAD_SPECS])
def test_bad_spec(data, exc, words):
    with pytest.raises(exc) as ei:
        kernel_constants(parse_spec(data))
    assert isinstance(ei.value, LayoutError)
    msg = str(ei.value)
    assert words in msg, msg
    assert "\n" not in msg.strip()
    assert msg.startswith("spec"), msg


def test_bad_spec_files(tmp_path):
    p = tmp_path / "s.toml"
    p.write_text('kernel = "k"\narch = "sm90"\n[A\n')
    with pytest.raises(SpecError, match="invalid TOML"):
        load_spec(p)
    p = tmp_path / "s.json"
    p.write_text('{"kernel": "k",')
    with pytest.raises(SpecError, match="invalid JSON at line 1"):
        load_spec(p)
    with pytest.raises(SpecError, match="cannot read"):
        load_spec(tmp_path / "missing.toml")
    with pytest.raises(SpecError, match="unknown format"):
        load_spec(text="{}", fmt="yaml")


def test_bad_api_inputs():
    with pytest.raises(LayoutError, match="major"):
        describe_operand("sm90", "row", "128B", "bf16", (64, 64))
    with pytest.raises(LayoutError, match="start address"):
        describe_operand("sm90", "K", "128B", "bf16", (64, 64), -16)
    with pytest.raises(LayoutError, match="start address 0x8 is not aligned to 128 bytes"):
        describe_operand("sm90", "K", "128B", "bf16", (64, 64), 8)
    with pytest.raises(LayoutError, match="order"):
        describe_operand("sm90", "K", "128B", "bf16", (64, 64), order="diagonal")
    with pytest.raises(LayoutError, match="rank"):
        describe_layout(parse("(8,8,8):(1,8,64)"), "sm90", "K", "bf16")
    with pytest.raises(LayoutError, match="unbound symbols"):
        describe_layout(parse("(64,m):(m,1)"), "sm90", "K", "bf16")
    with pytest.raises(LayoutError, match="multiple of one instruction's K"):
        describe_layout(parse("Sw<3,3,3> o (64,8):(64,1)"), "sm90", "K", "bf16")
    with pytest.raises(SpecError):
        emit_header("not constants")
    with pytest.raises(SpecError):
        kernel_constants({"kernel": "k"})


# ------------------------------------------------------------------------------------------------
# Emitters
# ------------------------------------------------------------------------------------------------


def test_outputs_are_deterministic_and_carry_spec_and_version(constants):
    kc = constants["dg_bf16"]
    again = kernel_constants(KERNELS["dg_bf16"])
    from pycute_layouts import __version__

    for emit in (emit_header, emit_python, emit_json):
        assert emit(kc) == emit(again)
    h = emit_header(kc)
    assert f"pycute_layouts {__version__}" in h.splitlines()[0]
    spec_line = h.splitlines()[1]
    assert json.loads(spec_line.split("spec: ", 1)[1]) == KERNELS["dg_bf16"].to_dict()


def test_toml_and_json_specs_agree(tmp_path):
    toml = tmp_path / "g.toml"
    toml.write_text('kernel = "g"\narch = "sm90"\nsmem_base = 0x400\n[A]\ntile = "128x64"\ndtype = "bf16"\n'
                    'major = "K"\nswizzle = "128B"\nstages = 2\n[B]\ntile = [64, 64]\ndtype = "bf16"\nmajor = "MN"\n'
                    'swizzle = "64B"\n')
    js = tmp_path / "g.json"
    js.write_text(json.dumps({"kernel": "g", "arch": "sm90", "smem_base": "0x400",
                              "A": op(stages=2), "B": op("64x64", major="MN", swizzle="64B")}))
    a, b = kernel_constants(load_spec(toml)), kernel_constants(load_spec(js))
    assert emit_json(a) == emit_json(b)
    assert a.operand("A").stage_starts == (1024, 1024 + 16384)  # smem_base rounded up to the 1024-B boundary


def test_json_schema(constants):
    data = json.loads(emit_json(constants["dg_bf16"]))
    assert data["schema"] == "pycute_layouts.codegen/1"
    assert set(data) == {"schema", "generator", "kernel", "arch", "spec", "smem_base", "smem_bytes", "operands"}
    assert set(data["operands"]) == {"A", "B"}
    a = data["operands"]["A"]
    ints = ("element_bits", "stages", "mma_mn", "mma_k", "k_steps", "lbo_bytes", "lbo_16B", "sbo_bytes", "sbo_16B",
            "layout_type", "base_offset", "start_address", "start_16B", "desc", "desc_template", "stage_bytes",
            "stage_alignment_bytes")
    for key in ints:
        assert type(a[key]) is int, key
    for key in ("k_step_offsets_bytes", "k_step_advance_16B", "stage_starts", "mn_block_offsets_bytes", "tile"):
        assert isinstance(a[key], list) and all(type(v) is int for v in a[key]), key
    assert len(a["descs"]) == a["stages"] and all(len(r) == a["k_steps"] for r in a["descs"])
    assert all(int(h, 16) == v for r, rh in zip(a["descs"], a["descs_hex"], strict=True)
               for v, h in zip(r, rh, strict=True))
    assert set(a["tma"]) == {"swizzle", "swizzle_value", "data_type", "box_dim", "box_bytes", "copies",
                             "copy_coords", "copy_offsets_bytes"}
    assert a["tma"]["data_type"] == "CU_TENSOR_MAP_DATA_TYPE_BFLOAT16"
    assert a["cute_type"].startswith("cute::ComposedLayout<cute::Swizzle<3,4,3>, cute::smem_ptr_flag_bits<16>")


def test_python_module_imports(tmp_path, constants):
    kc = constants["dg_fp8"]
    path = tmp_path / "dg_fp8_constants.py"
    path.write_text(emit_python(kc))
    sp = importlib.util.spec_from_file_location("dg_fp8_constants", path)
    mod = importlib.util.module_from_spec(sp)
    sp.loader.exec_module(mod)
    a = kc.operand("A")
    assert mod.KERNEL == "dg_fp8" and mod.ARCH == "sm90" and mod.SMEM_BYTES == kc.smem_bytes
    assert mod.A_DESC == a.desc and mod.A_DESC_TEMPLATE == a.desc_template
    assert mod.A_K_STEP_ADVANCE_16B == (0, 2, 4, 6) and mod.A_TMA_BOX_DIM == (128, 128)
    assert mod.A_DESC_STAGE_K == a.descs and mod.B_STAGE_START == kc.operand("B").stage_starts
    assert mod.A_TMA_SWIZZLE == 3 and mod.A_TMA_SWIZZLE_NAME == "CU_TENSOR_MAP_SWIZZLE_128B"
    assert mod.CONSTANTS == json.loads(emit_json(kc))
    # and it is valid, lint-clean-ish Python a kernel build script can import
    compile(path.read_text(), str(path), "exec")


def test_every_dtype_in_a_header(constants):
    assert set(DTYPES) == {"f16", "bf16", "tf32", "e4m3", "e5m2", "s8", "u8", "e2m1", "e2m1_p64", "e2m3", "e3m2"}
    for name in ("e5m2", "u8", "f16"):
        kc = kernel_constants(spec(f"t_{name}", A=op("64x128" if name != "f16" else "64x64", name)))
        assert f"{DTYPES[name].cute_type}>" in emit_header(kc)


# ------------------------------------------------------------------------------------------------
# Compiling the header
# ------------------------------------------------------------------------------------------------


def _gxx():
    gxx = shutil.which("g++")
    if gxx is None:
        pytest.skip("g++ not on PATH: cannot compile the generated header")
    return gxx


def _compile(tmp_path: Path, headers: dict[str, str], prelude: str, flags: list[str],
             cache: bool = False) -> subprocess.CompletedProcess:
    """g++ -fsyntax-only on a TU including the headers; ``cache`` keeps the verdict in the oracle cache dir."""
    import oracles

    for name, text in headers.items():
        (tmp_path / f"{name}.h").write_text(text)
    src = tmp_path / "main.cpp"
    main = prelude + "".join(f'#include "{n}.h"\n' for n in headers) + "int main() { return 0; }\n"
    src.write_text(main)
    gxx = _gxx()
    cmd = [gxx, "-std=c++17", "-fsyntax-only", "-Wall", "-Wextra", "-Werror", *flags, str(src)]
    key = hashlib.sha256(json.dumps([main, sorted(headers.items()), flags, oracles._cxx_version(gxx)]).encode())
    hit = oracles.oracle_cache_dir() / f"codegen_{key.hexdigest()[:32]}.json"
    if cache and hit.is_file():
        rc, err = json.loads(hit.read_text())
        return subprocess.CompletedProcess(cmd, rc, "", err)
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600, cwd=tmp_path,
                       env={"LC_ALL": "C", "PATH": "/usr/bin:/bin:/usr/local/bin"})
    if cache:
        oracles._atomic_write(hit, json.dumps([r.returncode, r.stderr[-20000:]]))  # xdist workers share the dir
    return r


def test_header_compiles_plain(tmp_path, constants):
    r = _compile(tmp_path, {n: emit_header(kc) for n, kc in constants.items()}, "", [])
    assert r.returncode == 0, r.stderr[-3000:]


def test_header_static_asserts_catch_a_planted_fault(tmp_path, constants):
    h = emit_header(constants["dg_bf16"])
    a = constants["dg_bf16"].operand("A")
    bad = h.replace(f"kDesc = 0x{a.desc:016x}ull", f"kDesc = 0x{a.desc + (1 << 32):016x}ull", 1)
    assert bad != h
    r = _compile(tmp_path, {"bad": bad}, "", [])
    assert r.returncode != 0 and "A: descriptor start/LBO/SBO fields" in r.stderr
    bad = h.replace("kKStepOffsetBytes[kKSteps] = {0u, 32u, 64u, 96u}", "kKStepOffsetBytes[kKSteps] = {0u, 32u, 64u, 128u}")
    assert bad != h
    r = _compile(tmp_path, {"bad2": bad}, "", [])
    assert r.returncode != 0 and "A: stage 0 K step 3" in r.stderr


def test_header_with_cuda_h_uses_the_driver_enums(tmp_path, constants):
    import oracles

    dirs = oracles.cuda_include_dirs()
    if not dirs or not any((d / "cuda.h").is_file() for d in dirs):
        pytest.skip("cuda.h not found (CUDA toolkit headers absent)")
    flags = [f"-I{d}" for d in dirs]
    r = _compile(tmp_path, {n: emit_header(kc) for n, kc in constants.items()}, "#include <cuda.h>\n", flags)
    assert r.returncode == 0, r.stderr[-3000:]
    bad = emit_header(constants["bw_tf32"]).replace("kTmaSwizzle = 4;", "kTmaSwizzle = 3;", 1)
    r = _compile(tmp_path, {"bad": bad}, "#include <cuda.h>\n", flags)
    assert r.returncode != 0 and "CUtensorMapSwizzle" in r.stderr


def _cute_flags():
    import oracles

    reason = oracles.cxx_skip_reason()
    if reason is not None:
        pytest.skip(reason)
    tool = oracles._toolchain()
    return tool[1]


@pytest.mark.oracle
def test_header_cute_types_are_what_cute_builds(tmp_path, constants):
    flags = ["-DPYCUTE_LAYOUTS_WITH_CUTE", "-w", "-Wno-error", *_cute_flags()]
    r = _compile(tmp_path, {n: emit_header(kc) for n, kc in constants.items()}, "", flags, cache=True)
    assert r.returncode == 0, r.stderr[-3000:]
    # planted faults: a different stride in the emitted type; a wrong K-step offset
    h = emit_header(constants["dg_bf16"])
    bad = h.replace("cute::Stride<cute::Int<64>,cute::Int<512>>", "cute::Stride<cute::Int<64>,cute::Int<1024>>", 1)
    assert bad != h
    r = _compile(tmp_path, {"bad": bad}, "", flags, cache=True)
    assert r.returncode != 0 and "A: CuTe builds this type" in r.stderr


@pytest.mark.oracle
def test_cute_make_desc_agrees(constants):
    """CuTe's make_gmma_desc / make_umma_desc on the same tile slice: LBO, SBO, layout type, base offset.

    On the host CuTe cannot convert the smem pointer (start address 0), so the whole 64-bit value is
    compared for K step 0 of stage 0 with ``desc_template``.
    """
    import oracles

    oracles.skip_without_cxx()
    pre = r"""
alignas(1024) static unsigned char cg_smem[1 << 20];
template <class Desc> std::string cg_fields(Desc d) {
  std::ostringstream os;
  os << int(d.FIELDS leading_byte_offset_) << " " << int(d.FIELDS stride_byte_offset_) << " "
     << int(d.FIELDS layout_type_) << " " << int(d.FIELDS base_offset_) << " " << uint64_t(d.desc_);
  return os.str();
}
"""
    cases = []
    for arch in ("sm90", "sm100"):
        fields = "bitfield." if arch == "sm90" else ""  # UMMA::SmemDescriptor has its fields at the top level
        batch = oracles.CuteBatch(preamble=pre.replace("FIELDS ", fields), extra_includes=[
            "cute/atom/mma_traits_sm90_gmma.hpp" if arch == "sm90" else "cute/atom/mma_traits_sm100.hpp"])
        items = []
        for kc in constants.values():
            if kc.arch != arch:
                continue
            for oc in kc.operands:
                expr2d = oc.cute_expr.replace(f", cute::Int<{oc.stages}>{{}})", ")").replace(", cute::_3>", ">")
                ns, fn = ("SM90::GMMA", "make_gmma_desc") if arch == "sm90" else ("UMMA", "make_umma_desc")
                for k in range(oc.k_steps):
                    t = oc.dtype.cute_type
                    e = (f"cg_fields({ns}::{fn}<{ns}::Major::{oc.major}>(flat_divide(make_tensor(make_smem_ptr<{t}>("
                         f"reinterpret_cast<{t}*>(cg_smem)), {expr2d}), Shape<Int<{oc.mma_mn}>,Int<{oc.mma_k}>>{{}})"
                         f"(_, _, 0, {k})))")
                    items.append((oc, k, batch.add(e)))
        res = batch.run()
        for oc, k, i in items:
            got = res[i]
            assert isinstance(got, str), (oc.name, oc.cute_expr, got)
            lbo, sbo, lt, bo, raw = (int(x) for x in got.split())
            d = _desc_cls(arch).decode(oc.descs[0][k])
            assert (d.lbo_16B, d.sbo_16B, d.layout_type, d.base_offset) == (lbo, sbo, lt, bo), (oc.name, k, got)
            if k == 0:
                assert raw == oc.desc_template, (oc.name, hex(raw), hex(oc.desc_template))
            cases.append((oc.name, k))
    assert len(cases) >= 60


def test_docs_cpp_usage_block_compiles(tmp_path):
    """The ```cpp block of docs/codegen.md compiles against the header generated from the doc's SPEC."""
    md = (REPO / "docs" / "codegen.md").read_text()
    lines = md[md.index(">>> SPEC = '''"):].splitlines()
    src = []
    for line in lines:
        src.append(line[4:])
        if line.startswith("... '''"):
            break
    ns: dict = {}
    exec("\n".join(src), ns)
    kc = kernel_constants(load_spec(text=ns["SPEC"]))
    cpp = md[md.index("```cpp\n") + len("```cpp\n"):]
    cpp = cpp[: cpp.index("```")]
    assert '#include "deepgemm_bf16.h"' in cpp
    (tmp_path / "deepgemm_bf16.h").write_text(emit_header(kc))
    r = _compile(tmp_path, {}, cpp, [])
    assert r.returncode == 0, r.stderr[-3000:]
    r = _compile(tmp_path, {}, cpp.replace("0x4000004000010206ull", "0x4000004000010207ull"), [])
    assert r.returncode != 0 and "second warpgroup" in r.stderr
