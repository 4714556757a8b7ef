"""The instruction descriptor end to end: ``desc --idesc``, codegen's ``kInstrDesc`` and the sm100 narrow dtypes.

Checked: decoding pasted values (one reading, several readings, ``--kind``, ``--json``, errors), the
``mma`` spec table and the header/Python/JSON constants, e2m1 (packed) / e2m1_p64 / e2m3 / e3m2 tiles,
and -- with CuTe C++ on the host -- that a generated sm100 header compiles with
``PYCUTE_LAYOUTS_WITH_CUTE`` (its CuTe layout types for the narrow types are what CuTe builds) and
that its ``kInstrDesc`` equals ``UMMA::make_instr_desc[_block_scaled]``.
"""

from __future__ import annotations

import json

import pytest

from pycute_layouts import DescriptorError
from pycute_layouts.arch import umma
from pycute_layouts.cli import main
from pycute_layouts.codegen import (
    SpecError,
    describe_operand,
    emit_header,
    emit_json,
    emit_python,
    kernel_constants,
    parse_spec,
)


def run(capsys, *argv):
    rc = main(list(argv))
    out = capsys.readouterr()
    return rc, out.out, out.err


# ------------------------------------------------------------------------------------------------
# desc --idesc
# ------------------------------------------------------------------------------------------------


def test_idesc_single_reading(capsys):
    v = umma.InstrDescriptor("s8", "u8", "s32", 128, 256, saturate=True).encode()
    rc, out, _ = run(capsys, "desc", "--idesc", hex(v))
    assert rc == 0
    lines = out.splitlines()
    assert lines[0] == f"InstrDescriptor[tcgen05.mma.cta_group::1.kind::i8] {v:#010x}"
    assert "  saturate  bits 3     = 1   saturate" in lines
    assert "  n_dim     bits 17-22 = 32  N >> 3 (N = 256)" in lines


def test_idesc_ambiguous_lists_every_kind(capsys):
    v = umma.InstrDescriptor("bf16", "bf16", "f32", 128, 256).encode()
    rc, out, _ = run(capsys, "desc", "--idesc", hex(v))
    assert rc == 0 and "reads legally under 2 kinds" in out.splitlines()[0]
    assert "kind::f16]" in out and "kind::f8f6f4]" in out and "bf16 (kind::f16)" in out and "e5m2 (kind::f8f6f4)" in out
    rc, out, _ = run(capsys, "desc", "--idesc", hex(v), "--kind", "f16")
    assert rc == 0 and out.count("InstrDescriptor[") == 1


def test_idesc_block_scaled_and_json(capsys):
    d = umma.InstrDescriptor("e2m1", "e2m1", "f32", 256, 128, sf_type="ue4m3", cta_group=2)
    rc, out, _ = run(capsys, "desc", "--idesc", str(d.encode()), "--block-scaled")
    assert rc == 0 and out.splitlines()[0] == f"InstrDescriptor[tcgen05.mma.cta_group::2.kind::mxf4nvf4] {d.encode():#010x}"
    rc, out, _ = run(capsys, "desc", "--idesc", hex(d.encode()), "--block-scaled", "--json")
    data = json.loads(out)
    assert [r["kind"] for r in data] == ["mxf4nvf4"] and data[0]["fields"]["sf_type"] == 0
    assert data[0]["value"] == d.encode() and data[0]["cta_group"] == 2


@pytest.mark.parametrize("argv,words", [
    (["--idesc", "0x40"], "reserved bit(s) 6"),
    (["--idesc", "0x80000000", "--block-scaled"], "k_size_"),
    (["--idesc", "0x08000000", "--kind", "f16"], "N=0 is illegal"),
    (["--idesc", "0x10", "--kind", "mxf4"], "--kind mxf4 is block-scaled: add --block-scaled"),
    (["--idesc", "0x10", "--major", "K"], "do not combine it with --major"),
    (["--major", "K", "--dtype", "bf16", "--tile", "64x64", "--swizzle", "128B", "--kind", "f16"],
     "go with --idesc"),
    (["--tile", "64x64", "--swizzle", "128B"], "--major required"),
])
def test_idesc_errors(capsys, argv, words):
    rc, out, err = run(capsys, "desc", *argv)
    assert rc != 0 and words in err and not out


# ------------------------------------------------------------------------------------------------
# codegen: the mma table and kInstrDesc
# ------------------------------------------------------------------------------------------------


def bw_spec(a="bf16", b="bf16", a_tile="128x64", b_tile="256x64", mma=None, b_major="K"):
    d = {"kernel": "bw", "arch": "sm100", "A": {"tile": a_tile, "dtype": a, "major": "K", "swizzle": "128B"},
         "B": {"tile": b_tile, "dtype": b, "major": b_major, "swizzle": "128B"}}
    if mma is not None:
        d["mma"] = mma
    return parse_spec(d)


def test_codegen_instr_desc_default():
    kc = kernel_constants(bw_spec())
    d = kc.instr_desc
    assert (d.kind, d.m, d.n, d.d_type, d.a_major, d.b_major) == ("f16", 128, 256, "f32", "K", "K")
    h = emit_header(kc)
    assert f"inline constexpr uint32_t kInstrDesc = {d.encode():#010x}u;" in h
    assert "//   m_dim     bits 24-28 = 8   M >> 4 (M = 128)" in h
    ns: dict = {}
    exec(emit_python(kc), ns)
    assert ns["INSTR_DESC"] == d.encode()
    j = json.loads(emit_json(kc))
    assert j["instr_desc"]["value"] == d.encode() and j["instr_desc"]["fields"]["n_dim"] == 32


def test_codegen_mma_table():
    kc = kernel_constants(bw_spec("e2m1", "e2m1", "128x256", "256x256", {"sf_type": "ue4m3", "d_type": "f32"}))
    assert kc.instr_desc.kind == "mxf4nvf4" and kc.instr_desc.block_scaled
    assert kc.spec.to_dict()["mma"] == {"sf_type": "ue4m3", "d_type": "f32"}
    kc = kernel_constants(bw_spec("e2m3", "e4m3", "128x128", "256x128", mma={"negate_a": True}))
    assert kc.instr_desc.kind == "f8f6f4" and kc.instr_desc.negate_a
    kc = kernel_constants(bw_spec("e2m1_p64", "e2m1_p64", "128x128", "256x128", mma={"sf_type": "ue8m0", "sf_id_a": 3}))
    assert kc.instr_desc.kind == "mxf8f6f4" and kc.instr_desc.sf_id_a == 3


@pytest.mark.parametrize("mma,words", [
    ({"n": 12}, "spec field 'mma': InstrDescriptor: N=12 is illegal"),
    ({"m": 256}, None),  # cta_group follows M
    ({"m": 256, "cta_group": 1}, "M=256 needs cta_group=2"),
    ({"bogus": 1}, "unknown setting 'bogus'"),
    ({"kind": "i8"}, "bf16 is not an operand type of kind::i8"),
])
def test_codegen_mma_errors(mma, words):
    if words is None:
        assert kernel_constants(bw_spec(mma=mma)).instr_desc.cta_group == 2
        return
    with pytest.raises(SpecError, match=words.replace("(", r"\(").replace(")", r"\)")):
        kernel_constants(bw_spec(mma=mma))


def test_codegen_mma_table_needs_sm100_a_and_b():
    with pytest.raises(SpecError, match="spec field 'mma'"):
        parse_spec({"kernel": "k", "arch": "sm90", "mma": {}, "A": {"tile": "64x64", "dtype": "bf16", "major": "K",
                                                                     "swizzle": "128B"},
                    "B": {"tile": "64x64", "dtype": "bf16", "major": "K", "swizzle": "128B"}})


def test_codegen_default_illegal_is_a_header_note():
    # N = 24 rows of B (the widest N <= 256 dividing the tile) is no kind::i8 shape (N = 8 or 16..256 by 16)
    kc = kernel_constants(bw_spec("s8", "s8", "128x128", "24x128"))
    assert kc.instr_desc is None and "N=24 is illegal for kind::i8" in kc.instr_desc_note
    assert "// no instruction descriptor for the default settings" in emit_header(kc)
    assert json.loads(emit_json(kc))["instr_desc"] is None


# ------------------------------------------------------------------------------------------------
# narrow types in desc / codegen
# ------------------------------------------------------------------------------------------------


def test_packed_e2m1_tile():
    oc = describe_operand("sm100", "K", "128B", "e2m1", (128, 256))
    assert oc.element_bits == 4 and oc.mma_k == 64 and oc.k_steps == 4
    assert (oc.lbo_bytes, oc.sbo_bytes, oc.k_step_offsets_bytes) == (16, 1024, (0, 32, 64, 96))
    assert oc.tma_data_type == "CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B" and oc.tma_box_dim == (256, 128)


@pytest.mark.parametrize("name,tma", [("e2m1_p64", "16U4_ALIGN16B"), ("e2m3", "16U6_ALIGN16B"), ("e3m2", "16U6_ALIGN16B")])
def test_padded_types_have_8_bit_geometry(name, tma):
    oc = describe_operand("sm100", "K", "128B", name, (128, 128))
    ref = describe_operand("sm100", "K", "128B", "e4m3", (128, 128))
    assert oc.element_bits == 8 and oc.descs == ref.descs and oc.k_step_offsets_bytes == ref.k_step_offsets_bytes
    assert oc.tma_data_type == f"CU_TENSOR_MAP_DATA_TYPE_{tma}" and oc.tma_box_dim == (128, 128)


@pytest.mark.parametrize("args,err,words", [
    (("sm100", "MN", "128B", "e2m1", (256, 128)), DescriptorError, "packed 4-bit operands"),
    (("sm90", "K", "128B", "e2m3", (128, 128)), SpecError, "e2m3 operands exist only for tcgen05 (sm100)"),
    (("sm90", "K", "128B", "e2m1", (128, 256)), SpecError, "e2m1 operands exist only for tcgen05"),
])
def test_narrow_type_errors(args, err, words):
    with pytest.raises(err, match=words.replace("(", r"\(").replace(")", r"\)")):
        describe_operand(*args)


def test_cli_desc_narrow_dtype(capsys):
    rc, out, _ = run(capsys, "desc", "--arch", "sm100", "--major", "K", "--dtype", "fp4", "--swizzle", "128B",
                     "--tile", "128x256")
    assert rc == 0 and "e2m1, K-major" in out.splitlines()[0] and "16U4_ALIGN8B" in out


# ------------------------------------------------------------------------------------------------
# CuTe C++: the generated header compiles against CuTe and kInstrDesc is CuTe's value
# ------------------------------------------------------------------------------------------------

HEADER_CASES = [
    ("bw_fp4", dict(a="e2m1", b="e2m1", a_tile="128x256", b_tile="256x256", mma={"sf_type": "ue8m0"}),
     "UMMA::make_instr_desc_block_scaled<float_e2m1_t, float_e2m1_t, float, float_ue8m0_t, 128, 256, "
     "UMMA::Major::K, UMMA::Major::K>()"),
    ("bw_f6", dict(a="e2m3", b="e3m2", a_tile="128x128", b_tile="256x128", mma={"negate_b": True}),
     "UMMA::make_instr_desc<cutlass::detail::float_e2m3_unpacksmem_t, cutlass::detail::float_e3m2_unpacksmem_t, "
     "float, 128, 256, UMMA::Major::K, UMMA::Major::K, UMMA::ScaleIn::One, UMMA::ScaleIn::Neg>()"),
    ("bw_bf16", dict(b_major="MN", b_tile="128x64"),
     "UMMA::make_instr_desc<bfloat16_t, bfloat16_t, float, 128, 128, UMMA::Major::K, UMMA::Major::MN>()"),
]


@pytest.mark.oracle
def test_header_against_cute():
    import oracles

    oracles.skip_without_cxx()
    pre = ["#define PYCUTE_LAYOUTS_WITH_CUTE"]
    batch_exprs = []
    for name, kw, cute in HEADER_CASES:
        spec = bw_spec(**kw)
        spec = parse_spec({**spec.to_dict(), "kernel": name})
        pre.append(emit_header(kernel_constants(spec)))
        batch_exprs.append(f"int({name}::kInstrDesc == uint32_t({cute}))")
    batch = oracles.CuteBatch(preamble="\n".join(pre), extra_includes=["cute/atom/mma_traits_sm100.hpp"])
    batch.extend(batch_exprs)
    res = batch.run()
    assert res == ["1"] * len(HEADER_CASES), res
    print(f"generated sm100 headers vs CuTe: {len(res)} kInstrDesc values agree; CuTe layout types static_assert-ed")
