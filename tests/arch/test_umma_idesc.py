"""Tests for pycute_layouts.arch.umma.InstrDescriptor: the 32-bit tcgen05 instruction descriptor.

Checked: field positions of PTX ISA Table 42 and the block-scaled table, exact values, decode/encode round trips under
hypothesis, every field boundary, reserved bits, a catalog of bad inputs, and CuTe C++ compiled
for the host (``UMMA::make_instr_desc`` / ``make_instr_desc_block_scaled`` values bit for bit,
and the ``SM100_MMA_*`` atoms' compile-time shape rules: every M/N CuTe rejects we reject).
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pycute_layouts import DescriptorError
from pycute_layouts.arch import umma
from pycute_layouts.arch.umma.idesc import BLOCK_SCALED_KINDS, INSTR_KINDS

ID = umma.InstrDescriptor

# ------------------------------------------------------------------------------------------------
# exact values and field positions
# ------------------------------------------------------------------------------------------------


def test_public_names():
    d = ID(a_type="f16", b_type="f16", d_type="f32", m=128, n=256, a_major="K", b_major="MN", negate_a=False,
           negate_b=True, saturate=False, sparse=False, max_shift=0, sf_type=None, sf_id_a=0, sf_id_b=0, kind=None)
    assert d.kind == "f16" and umma.InstrDescriptor.decode(d.encode(), block_scaled=False, kind="f16") == d
    assert set(INSTR_KINDS) == {"f16", "tf32", "f8f6f4", "i8", "mxf8f6f4", "mxf4", "mxf4nvf4"}


@pytest.mark.parametrize("kwargs,value", [
    # bf16 x bf16 -> f32, M128 N256, K-major: d 1<<4, a/b 1, n 32<<17, m 8<<24
    (dict(a_type="bf16", b_type="bf16", d_type="f32", m=128, n=256), (1 << 4) | (1 << 7) | (1 << 10) | (32 << 17)
     | (8 << 24)),
    (dict(a_type="f16", b_type="f16", d_type="f16", m=64, n=8), (1 << 17) | (4 << 24)),
    (dict(a_type="tf32", b_type="tf32", d_type="f32", m=64, n=8, a_major="MN", b_major="MN"),
     (1 << 4) | (2 << 7) | (2 << 10) | (1 << 15) | (1 << 16) | (1 << 17) | (4 << 24)),
    (dict(a_type="s8", b_type="u8", d_type="s32", m=128, n=16, saturate=True), (1 << 3) | (2 << 4) | (1 << 7)
     | (2 << 17) | (8 << 24)),
    (dict(a_type="e2m1", b_type="e3m2", d_type="f32", m=128, n=64, negate_a=True, negate_b=True),
     (1 << 4) | (5 << 7) | (4 << 10) | (1 << 13) | (1 << 14) | (8 << 17) | (8 << 24)),
    (dict(a_type="f16", b_type="f16", d_type="f32", m=128, n=256, cta_group=2), (1 << 4) | (32 << 17) | (8 << 24)),
    (dict(a_type="f16", b_type="f16", d_type="f32", m=256, n=16, cta_group=2), (1 << 4) | (2 << 17) | (16 << 24)),
    (dict(a_type="f16", b_type="f16", d_type="f32", m=32, n=64, max_shift=32), (1 << 4) | (8 << 17) | (2 << 24)
     | (3 << 30)),
    (dict(a_type="e4m3", b_type="e4m3", d_type="f32", m=128, n=64, sparse=True, sparse_id=3),
     3 | (1 << 2) | (1 << 4) | (8 << 17) | (8 << 24)),
    # block-scaled: sf ids at 4-5 (B) and 29-30 (A), scale type at 23
    (dict(a_type="e2m1", b_type="e2m1", d_type="f32", m=128, n=256, sf_type="ue8m0", kind="mxf4", sf_id_a=2,
          sf_id_b=2), (2 << 4) | (1 << 7) | (1 << 10) | (32 << 17) | (1 << 23) | (8 << 24) | (2 << 29)),
    (dict(a_type="e2m1", b_type="e2m1", d_type="f32", m=128, n=8, sf_type="ue4m3"), (1 << 7) | (1 << 10) | (1 << 17)
     | (8 << 24)),
    (dict(a_type="e2m1", b_type="e2m1", d_type="f32", m=256, n=16, sf_type="ue8m0", kind="mxf8f6f4", cta_group=2,
          sf_id_a=3, sf_id_b=1), (1 << 4) | (5 << 7) | (5 << 10) | (2 << 17) | (1 << 23) | (16 << 24) | (3 << 29)),
    (dict(a_type="e4m3", b_type="e5m2", d_type="f32", m=128, n=128, sf_type="ue8m0", a_major="MN", b_major="MN"),
     (1 << 10) | (1 << 15) | (1 << 16) | (16 << 17) | (1 << 23) | (8 << 24)),
])
def test_exact_values(kwargs, value):
    d = ID(**kwargs)
    assert d.encode() == value
    assert ID.decode(value, d.block_scaled, kind=d.kind) == d


def test_kind_inference():
    assert ID("f16", "f16", "f16", 64, 8).kind == "f16"
    assert ID("tf32", "tf32", "f32", 64, 8).kind == "tf32"
    assert ID("u8", "s8", "s32", 64, 8).kind == "i8"
    assert ID("e2m3", "e2m1", "f32", 64, 8).kind == "f8f6f4"
    assert ID("e2m3", "e2m1", "f32", 128, 8, sf_type="ue8m0").kind == "mxf8f6f4"
    assert ID("e2m1", "e2m1", "f32", 128, 8, sf_type="ue4m3").kind == "mxf4nvf4"
    with pytest.raises(DescriptorError, match="kind='mxf8f6f4', 'mxf4' or 'mxf4nvf4'"):
        ID("e2m1", "e2m1", "f32", 128, 8, sf_type="ue8m0")
    # the same e2m1 operands encode differently under mxf8f6f4 (code 5) and mxf4 (code 1)
    a = ID("e2m1", "e2m1", "f32", 128, 8, sf_type="ue8m0", kind="mxf8f6f4").encode()
    b = ID("e2m1", "e2m1", "f32", 128, 8, sf_type="ue8m0", kind="mxf4").encode()
    assert (a >> 7) & 7 == 5 and (b >> 7) & 7 == 1


def test_decode_ambiguity_and_readings():
    v = ID("f16", "f16", "f32", 128, 64).encode()
    assert [(d.kind, d.a_type) for d in ID.readings(v)] == [("f16", "f16"), ("f8f6f4", "e4m3")]
    with pytest.raises(DescriptorError, match=r"reads legally as kind::f16 .*kind::f8f6f4.*pass kind="):
        ID.decode(v)
    # unambiguous values decode without kind
    for d in (ID("tf32", "tf32", "f32", 64, 8), ID("s8", "s8", "s32", 128, 256), ID("e2m3", "e4m3", "f32", 64, 8),
              ID("e4m3", "e5m2", "f16", 128, 64), ID("e2m1", "e2m1", "f32", 128, 64, sf_type="ue4m3"),
              ID("e2m1", "e2m1", "f32", 256, 64, sf_type="ue4m3", cta_group=2)):
        assert ID.decode(d.encode(), d.block_scaled) == d
    # mxf4 and mxf4nvf4 read e2m1/ue8m0 bits identically: one reading
    d = ID("e2m1", "e2m1", "f32", 128, 64, sf_type="ue8m0", kind="mxf4nvf4")
    assert ID.decode(d.encode(), True, kind="mxf4nvf4") == d
    assert {r.kind for r in ID.readings(d.encode(), True)} == {"mxf8f6f4", "mxf4", "mxf4nvf4"}


def test_decode_infers_cta_group_and_ws():
    assert ID.decode(ID("f16", "f16", "f32", 256, 64, cta_group=2).encode(), kind="f16").cta_group == 2
    d = ID.decode(ID("f16", "f16", "f32", 32, 64, ws=True).encode(), kind="f16")
    assert d.ws and d.cta_group == 1 and d.m == 32
    assert ID.decode(ID("f16", "f16", "f32", 128, 8).encode(), kind="f16").cta_group == 1


def test_str_lists_every_field_with_bits():
    s = str(ID("s8", "u8", "s32", 128, 256, saturate=True))
    assert s.splitlines()[0] == "InstrDescriptor[tcgen05.mma.cta_group::1.kind::i8] 0x084000a8"
    for name, bits in (("sparse_id", "0-1"), ("sparse", "2"), ("saturate", "3"), ("d_type", "4-5"),
                       ("a_type", "7-9"), ("b_type", "10-12"), ("negate_a", "13"), ("negate_b", "14"),
                       ("a_major", "15"), ("b_major", "16"), ("n_dim", "17-22"), ("m_dim", "24-28"),
                       ("max_shift", "30-31")):
        assert any(line.split()[:3] == [name, "bits", bits] for line in s.splitlines()), name
    s = str(ID("e2m1", "e2m1", "f32", 128, 8, sf_type="ue4m3"))
    for name, bits in (("sf_id_b", "4-5"), ("sf_type", "23"), ("sf_id_a", "29-30")):
        assert any(line.split()[:3] == [name, "bits", bits] for line in s.splitlines()), name


# ------------------------------------------------------------------------------------------------
# every legal descriptor: enumeration, hypothesis round trip, field boundaries, reserved bits
# ------------------------------------------------------------------------------------------------

_TYPES = {"f16": ["f16", "bf16"], "tf32": ["tf32"], "i8": ["u8", "s8"],
          "f8f6f4": ["e4m3", "e5m2", "e2m3", "e3m2", "e2m1"], "mxf8f6f4": ["e4m3", "e5m2", "e2m3", "e3m2", "e2m1"],
          "mxf4": ["e2m1"], "mxf4nvf4": ["e2m1"]}


_MN_OK = ("f16", "bf16", "tf32", "e4m3", "e5m2", "s8", "u8")


def _legal_m_table(kind: str, cta: int, ws: bool) -> list[int]:
    """PTX Table 39 / CuTe atoms, restated: legal M per kind, cta_group and .ws."""
    if ws:
        return [32, 64, 128]
    if kind in BLOCK_SCALED_KINDS:
        return [128] if cta == 1 else ([256] if kind == "mxf8f6f4" else [128, 256])
    return [64, 128] if cta == 1 else [128, 256]


def _legal_n_table(kind: str, cta: int, ws: bool, sparse: bool, b_major: str) -> list[int]:
    if ws:
        return [64, 128] if sparse else [64, 128, 256]
    if cta == 2:
        step = 32 if kind == "i8" or (kind == "f8f6f4" and (sparse or b_major == "MN")) else 16
        return list(range(step, 257, step))
    if kind == "i8":
        return [8, *range(16, 257, 16)]
    return list(range(16 if kind == "f8f6f4" and b_major == "MN" else 8, 257, 16 if kind == "f8f6f4" and
                      b_major == "MN" else 8))


@st.composite
def descriptors(draw):
    """Every legal descriptor can be drawn (the rules restated independently of the module)."""
    kind = draw(st.sampled_from(INSTR_KINDS))
    a = draw(st.sampled_from(_TYPES[kind]))
    b = a if kind == "f16" else draw(st.sampled_from(_TYPES[kind]))
    d_type = {"f16": "f32" if a == "bf16" else draw(st.sampled_from(["f16", "f32"])), "i8": "s32",
              "f8f6f4": draw(st.sampled_from(["f16", "f32"]))}.get(kind, "f32")
    bs = kind in BLOCK_SCALED_KINDS
    sf = None if not bs else ("ue8m0" if kind != "mxf4nvf4" else draw(st.sampled_from(["ue8m0", "ue4m3"])))
    ws = not bs and draw(st.integers(0, 3)) == 0
    cta = 1 if ws else draw(st.sampled_from([1, 2]))
    sparse = draw(st.booleans())
    majors = [draw(st.sampled_from(["K", "MN"])) if t in _MN_OK and kind not in ("mxf4", "mxf4nvf4") else "K"
              for t in (a, b)]
    kw = dict(a_type=a, b_type=b, d_type=d_type, kind=kind, sf_type=sf, cta_group=cta, ws=ws, sparse=sparse,
              sparse_id=draw(st.integers(0, 3)) if sparse else 0, a_major=majors[0], b_major=majors[1],
              negate_a=kind != "i8" and draw(st.booleans()), negate_b=kind != "i8" and draw(st.booleans()),
              saturate=kind == "i8" and draw(st.booleans()), m=draw(st.sampled_from(_legal_m_table(kind, cta, ws))),
              n=draw(st.sampled_from(_legal_n_table(kind, cta, ws, sparse, majors[1]))),
              max_shift=draw(st.sampled_from([0, 8, 16, 32])) if ws else 0)
    if bs:
        ids = [0, 1, 2, 3] if kind == "mxf8f6f4" else ([0] if sf == "ue4m3" else [0, 2])
        kw.update(sf_id_a=draw(st.sampled_from(ids)), sf_id_b=draw(st.sampled_from(ids)))
    return ID(**kw)


@given(descriptors())
def test_round_trip(d):
    v = d.encode()
    assert 0 <= v < 1 << 32
    assert ID.decode(v, d.block_scaled, kind=d.kind) == d
    assert any(r == d for r in ID.readings(v, d.block_scaled))


@given(st.integers(0, (1 << 32) - 1), st.booleans())
def test_decode_any_value_is_exact_or_rejected(v, bs):
    for r in ID.readings(v, bs):
        assert r.encode() == v


def test_every_legal_shape_round_trips():
    n_ok = 0
    for kind, cta, m, n in itertools.product(INSTR_KINDS, (1, 2), (32, 64, 128, 256), range(8, 257, 8)):
        a = _TYPES[kind][0]
        sf = "ue8m0" if kind in BLOCK_SCALED_KINDS else None
        try:
            d = ID(a, a, "f32" if kind != "i8" else "s32", m, n, sf_type=sf, kind=kind, cta_group=cta)
        except DescriptorError:
            continue
        assert ID.decode(d.encode(), d.block_scaled, kind=kind) == d
        assert (d.encode() >> 17) & 0x3F == n >> 3 and (d.encode() >> 24) & 0x1F == m >> 4
        n_ok += 1
    # f16/tf32/f8f6f4: 2 M x 32 N (cta 1) + 2 M x 16 N (cta 2) = 96 each; i8: 2 x 17 + 2 x 8 = 50;
    # mxf8f6f4: 1 x 32 + 1 x 16 = 48; mxf4 and mxf4nvf4: 1 x 32 + 2 x 16 = 64 each
    assert n_ok == 3 * 96 + 50 + 48 + 2 * 64


@pytest.mark.parametrize("field,lo,hi,bad", [
    ("n", 8, 256, [0, 4, 260, 264]),
    ("m", 64, 128, [0, 16, 48, 96, 192, 256]),
    ("max_shift", 0, 32, [1, 2, 3, 4, 64]),
    ("sparse_id", 0, 0, [1, -1]),
])
def test_field_boundaries(field, lo, hi, bad):
    base = dict(a_type="f16", b_type="f16", d_type="f32", m=128, n=64)
    for v in (lo, hi):
        assert getattr(ID(**{**base, field: v}), field) == v
    for v in bad:
        with pytest.raises(DescriptorError, match=field if field in ("max_shift", "sparse_id") else field.upper() + "="):
            ID(**{**base, field: v})


def test_sf_id_boundaries():
    base = dict(a_type="e2m1", b_type="e2m1", d_type="f32", m=128, n=64, sf_type="ue8m0")
    for kind, ok in (("mxf8f6f4", (0, 1, 2, 3)), ("mxf4", (0, 2)), ("mxf4nvf4", (0, 2))):
        for i in range(-1, 5):
            if i in ok:
                assert ID(**base, kind=kind, sf_id_a=i, sf_id_b=i).sf_id_a == i
            else:
                with pytest.raises(DescriptorError, match="sf_id_a.*legal scale-factor ids"):
                    ID(**base, kind=kind, sf_id_a=i)
    with pytest.raises(DescriptorError, match="legal scale-factor ids: 0"):
        ID(**{**base, "sf_type": "ue4m3"}, sf_id_b=2)


@pytest.mark.parametrize("bit,bs", [(6, False), (23, False), (29, False), (3, True), (6, True), (31, True)])
def test_reserved_bits_refused(bit, bs):
    good = ID("tf32", "tf32", "f32", 128, 64) if not bs else ID("e4m3", "e4m3", "f32", 128, 64, sf_type="ue8m0")
    with pytest.raises(DescriptorError, match=f"reserved bit\\(s\\) {bit} of (Table 42|the block-scaled table)"):
        ID.decode(good.encode() | (1 << bit), bs, kind=good.kind)


# ------------------------------------------------------------------------------------------------
# bad inputs: type and message words
# ------------------------------------------------------------------------------------------------

F = dict(a_type="f16", b_type="f16", d_type="f32", m=128, n=64)
BS = dict(a_type="e2m1", b_type="e2m1", d_type="f32", m=128, n=64, sf_type="ue8m0", kind="mxf4")

BAD = [
    ({**F, "n": 12}, "N=12 is illegal for kind::f16.*steps of 8"),
    ({**F, "n": 264}, "N=264 is illegal"),
    ({**F, "n": 24, "cta_group": 2}, "N=24 is illegal.*steps of 16 for cta_group 2"),
    ({**F, "m": 256}, "M=256 is illegal.*M=256 needs cta_group=2"),
    ({**F, "m": 64, "cta_group": 2}, "M=64 is illegal for kind::f16 with cta_group 2"),
    ({**F, "m": 32}, "M=32 needs the .ws variant"),
    ({**BS, "a_major": "MN"}, "a_major='MN'.*not allowed for e2m1 operands of kind::mxf4.*K-major only"),
    ({**F, "a_type": "e2m1", "b_type": "e2m1", "b_major": "MN"}, "b_major='MN'.*e2m1.*kind::f8f6f4"),
    ({**F, "a_type": "e2m3", "b_type": "e4m3", "a_major": "MN"}, "a_major='MN'.*e2m3"),
    ({**BS, "sf_type": "ue4m3"}, "sf_type=ue4m3 is not a scale-factor type of kind::mxf4"),
    ({**BS, "kind": "mxf8f6f4", "sf_type": "ue4m3"}, "sf_type=ue4m3 is not a scale-factor type of kind::mxf8f6f4"),
    ({**BS, "m": 64}, "M=64 is illegal for kind::mxf4 with cta_group 1"),
    ({**BS, "kind": "mxf8f6f4", "m": 128, "cta_group": 2}, "M=128 is illegal for kind::mxf8f6f4 with cta_group 2"),
    ({**F, "a_type": "bf16", "b_type": "bf16", "d_type": "f16"}, "d_type=f16 is not an accumulator.*allowed: f32"),
    ({**F, "a_type": "f16", "b_type": "bf16"}, "f16 x f16 or bf16 x bf16"),
    ({**F, "a_type": "f16", "b_type": "e4m3"}, "different tcgen05 kinds"),
    ({**F, "a_type": "s8", "b_type": "s8", "d_type": "f32"}, "d_type=f32 is not an accumulator of kind::i8"),
    ({**F, "a_type": "s8", "b_type": "s8", "d_type": "s32", "negate_a": True}, "kind::i8 has no negation"),
    ({**F, "saturate": True}, "saturate=True is only for kind::i8"),
    ({**F, "a_type": "s8", "b_type": "s8", "d_type": "s32", "n": 24}, "N=24.*8 or 16..256 in steps of 16"),
    ({**F, "a_type": "e4m3", "b_type": "e4m3", "b_major": "MN", "n": 8}, "N=8.*MN-major B"),
    ({**F, "sf_id_a": 1}, "sf_id_a/sf_id_b are block-scaled fields"),
    ({**F, "kind": "mxf4"}, "kind::mxf4 needs sf_type"),
    ({**F, "sf_type": "ue8m0", "kind": "f16"}, "kind::f16 takes no sf_type"),
    ({**F, "kind": "f32"}, "kind='f32' is not a tcgen05.mma kind"),
    ({**F, "a_type": "fp8"}, "a_type='fp8' is not a tcgen05 type"),
    ({**F, "d_type": "bf16"}, "d_type='bf16' is not a tcgen05 type"),
    ({**F, "a_major": "T"}, "a_major must be 'K' or 'MN'"),
    ({**F, "negate_a": 1}, "negate_a must be a bool"),
    ({**F, "max_shift": 1}, "max_shift=1 is not a .ws maximum B-reuse shift.*0, 8, 16 or 32"),
    ({**F, "max_shift": 8, "n": 32}, "N=32 is illegal.*64, 128, 256.*ws"),
    ({**F, "max_shift": 8, "cta_group": 2, "m": 256}, ".ws variant.*cta_group 1"),
    ({**BS, "ws": True}, ".ws variant.*dense kinds"),
    ({**F, "sparse_id": 2}, "sparse_id=2 is not allowed"),
    ({**F, "cta_group": 4}, "cta_group=4"),
    ({**F, "m": 128.0}, "M=128.0 is illegal"),
    ({**F, "a_type": "tf32", "b_type": "tf32", "d_type": "f16"}, "d_type=f16 is not an accumulator of kind::tf32"),
]


@pytest.mark.parametrize("kwargs,match", BAD)
def test_bad_inputs(kwargs, match):
    with pytest.raises(DescriptorError, match=match) as e:
        ID(**kwargs)
    assert "\n" not in str(e.value)


@pytest.mark.parametrize("value,kw,match", [
    (-1, {}, "32-bit unsigned"),
    (1 << 32, {}, "32-bit unsigned"),
    ("0x10", {}, "32-bit unsigned"),
    (0x10, {"block_scaled": 1}, "block_scaled must be a bool"),
    (0x10, {"kind": "mxf4"}, "does not match block_scaled"),
    ((3 << 4) | (4 << 24) | (1 << 17), {}, "type codes"),
    ((1 << 4) | (6 << 7) | (4 << 24) | (1 << 17), {"kind": "f8f6f4"}, "does not define"),
    ((1 << 4) | (8 << 24), {"kind": "f16"}, "N=0 is illegal"),
])
def test_bad_decode(value, kw, match):
    with pytest.raises(DescriptorError, match=match):
        ID.decode(value, **kw)


# ------------------------------------------------------------------------------------------------
# CuTe C++ (host): make_instr_desc values and the SM100_MMA atoms' compile-time rules
# ------------------------------------------------------------------------------------------------

CXX_AB = {"f16": "half_t", "bf16": "bfloat16_t", "tf32": "tfloat32_t", "e4m3": "float_e4m3_t",
          "e5m2": "float_e5m2_t", "s8": "int8_t", "u8": "uint8_t", "e2m3": "cutlass::detail::float_e2m3_unpacksmem_t",
          "e3m2": "cutlass::detail::float_e3m2_unpacksmem_t",
          "e2m1": "cutlass::detail::float_e2m1_unpacksmem_t"}
CXX_D = {"f16": "half_t", "f32": "float", "s32": "int32_t"}
CXX_SF = {"ue8m0": "float_ue8m0_t", "ue4m3": "float_ue4m3_t"}
SHIFT = {0: "NoShift", 8: "MaxShift8", 16: "MaxShift16", 32: "MaxShift32"}


def _cxx_ab(kind: str, t: str) -> str:
    return "float_e2m1_t" if kind in ("mxf4", "mxf4nvf4") else CXX_AB[t]


def encode_cases() -> list:
    """Every kind x type pair x accumulator, each legal M at N's bounds and inside, both majors, flags."""
    out = []
    for kind in INSTR_KINDS:
        bs = kind in BLOCK_SCALED_KINDS
        pairs = [(a, a) for a in _TYPES[kind]] if kind == "f16" else list(itertools.product(_TYPES[kind], repeat=2))
        ds = {"f16": ["f16", "f32"], "f8f6f4": ["f16", "f32"], "i8": ["s32"]}.get(kind, ["f32"])
        sfs = {"mxf4nvf4": ["ue8m0", "ue4m3"]}.get(kind, ["ue8m0"] if bs else [None])
        for i, ((a, b), dt, sf) in enumerate(itertools.product(pairs, ds, sfs)):
            for j, (cta, m, n, ma, mb) in enumerate(itertools.product((1, 2), (64, 128, 256), (8, 16, 24, 32, 120, 248, 256),
                                                                       ("K", "MN"), ("K", "MN"))):
                if (i + j) % 3 and not (a == b and dt == ds[-1]):
                    continue
                flags = (i * 7 + j) % 8
                kw = dict(a_type=a, b_type=b, d_type=dt, m=m, n=n, a_major=ma, b_major=mb, kind=kind, sf_type=sf,
                          cta_group=cta, negate_a=bool(flags & 1) and kind != "i8",
                          negate_b=bool(flags & 2) and kind != "i8", sparse=bool(flags & 4),
                          saturate=kind == "i8" and bool(flags & 1), sparse_id=(i + j) % 4 if flags & 4 else 0)
                if bs:
                    ids = (0, 1, 2, 3) if kind == "mxf8f6f4" else ((0,) if sf == "ue4m3" else (0, 2))
                    kw.update(sf_id_a=ids[j % len(ids)], sf_id_b=ids[(j + 1) % len(ids)])
                try:
                    out.append(ID(**kw))
                except DescriptorError:
                    pass
    for shift, m, n in itertools.product((0, 8, 16, 32), (32, 64, 128), (64, 128, 256)):
        out.append(ID("f16", "f16", "f32", m, n, max_shift=shift, ws=True))
    return out


def encode_expr(d) -> str:
    a, b = _cxx_ab(d.kind, d.a_type), _cxx_ab(d.kind, d.b_type)
    maj = f"UMMA::Major::{d.a_major}, UMMA::Major::{d.b_major}"
    neg = f"UMMA::ScaleIn::{'Neg' if d.negate_a else 'One'}, UMMA::ScaleIn::{'Neg' if d.negate_b else 'One'}"
    if d.block_scaled:
        call = (f"UMMA::make_instr_desc_block_scaled<{a}, {b}, float, {CXX_SF[d.sf_type]}, {d.m}, {d.n}, {maj}, "
                f"{neg}, {str(d.sparse).lower()}>()")
        sets = f"i.a_sf_id_ = {d.sf_id_a}; i.b_sf_id_ = {d.sf_id_b}; i.sparse_id2_ = {d.sparse_id};"
    else:
        call = (f"UMMA::make_instr_desc<{a}, {b}, {CXX_D[d.d_type]}, {d.m}, {d.n}, {maj}, {neg}, "
                f"UMMA::Saturate::{'True' if d.saturate else 'False'}, {str(d.sparse).lower()}, "
                f"UMMA::MaxShift::{SHIFT[d.max_shift]}>()")
        sets = f"i.sparse_id2_ = {d.sparse_id};"
    return f"[] {{ auto i = {call}; {sets} return uint32_t(i); }}()"


# (our kind, cta_group, sparse) -> CuTe atom template (a, b, c, [sf,] M, N, majors); F8F6F4 uses MMA_Traits
ATOMS = {
    ("f16", 1): "SM100_MMA_F16BF16_SS<half_t, half_t, float, {M}, {N}, UMMA::Major::K, UMMA::Major::{MB}>",
    ("f16", 2): "SM100_MMA_F16BF16_2x1SM_SS<half_t, half_t, float, {M}, {N}, UMMA::Major::K, UMMA::Major::{MB}>",
    ("tf32", 1): "SM100_MMA_TF32_SS<tfloat32_t, tfloat32_t, float, {M}, {N}, UMMA::Major::K, UMMA::Major::{MB}>",
    ("tf32", 2): "SM100_MMA_TF32_2x1SM_SS<tfloat32_t, tfloat32_t, float, {M}, {N}, UMMA::Major::K, "
                 "UMMA::Major::{MB}>",
    ("i8", 1): "SM100_MMA_S8_SS<int8_t, int8_t, int32_t, {M}, {N}, UMMA::Major::K, UMMA::Major::{MB}>",
    ("i8", 2): "SM100_MMA_S8_2x1SM_SS<int8_t, int8_t, int32_t, {M}, {N}, UMMA::Major::K, UMMA::Major::{MB}>",
    ("f8f6f4", 1): "MMA_Traits<SM100_MMA_F8F6F4_SS, float_e4m3_t, float_e4m3_t, float, C<{M}>, C<{N}>, "
                   "integral_constant<UMMA::Major, UMMA::Major::K>, integral_constant<UMMA::Major, UMMA::Major::{MB}>, "
                   "integral_constant<UMMA::ScaleIn, UMMA::ScaleIn::One>, "
                   "integral_constant<UMMA::ScaleIn, UMMA::ScaleIn::One>>",
    ("f8f6f4", 2): "MMA_Traits<SM100_MMA_F8F6F4_2x1SM_SS, float_e4m3_t, float_e4m3_t, float, C<{M}>, C<{N}>, "
                   "integral_constant<UMMA::Major, UMMA::Major::K>, integral_constant<UMMA::Major, UMMA::Major::{MB}>, "
                   "integral_constant<UMMA::ScaleIn, UMMA::ScaleIn::One>, "
                   "integral_constant<UMMA::ScaleIn, UMMA::ScaleIn::One>>",
    ("mxf8f6f4", 1): "SM100_MMA_MXF8F6F4_SS<float_e4m3_t, float_e4m3_t, float, float_ue8m0_t, {M}, {N}, "
                     "UMMA::Major::K, UMMA::Major::{MB}>",
    ("mxf8f6f4", 2): "SM100_MMA_MXF8F6F4_2x1SM_SS<float_e4m3_t, float_e4m3_t, float, float_ue8m0_t, {M}, {N}, "
                     "UMMA::Major::K, UMMA::Major::{MB}>",
    ("mxf4", 1): "SM100_MMA_MXF4_SS<float_e2m1_t, float_e2m1_t, float, float_ue8m0_t, {M}, {N}, 32, UMMA::Major::K, "
                 "UMMA::Major::K>",
    ("mxf4", 2): "SM100_MMA_MXF4_2x1SM_SS<float_e2m1_t, float_e2m1_t, float, float_ue8m0_t, {M}, {N}, 32, "
                 "UMMA::Major::K, UMMA::Major::K>",
    ("mxf4nvf4", 1): "SM100_MMA_MXF4_SS<float_e2m1_t, float_e2m1_t, float, float_ue4m3_t, {M}, {N}, 16, "
                     "UMMA::Major::K, UMMA::Major::K>",
    ("mxf4nvf4", 2): "SM100_MMA_MXF4_2x1SM_SS<float_e2m1_t, float_e2m1_t, float, float_ue4m3_t, {M}, {N}, 16, "
                     "UMMA::Major::K, UMMA::Major::K>",
}
ATOM_TYPES = {"f16": ("f16", "f32", None), "tf32": ("tf32", "f32", None), "i8": ("s8", "s32", None),
              "f8f6f4": ("e4m3", "f32", None), "mxf8f6f4": ("e4m3", "f32", "ue8m0"), "mxf4": ("e2m1", "f32", "ue8m0"),
              "mxf4nvf4": ("e2m1", "f32", "ue4m3")}
ATOM_M = (0, 16, 32, 64, 96, 128, 192, 256, 512)
ATOM_N = (0, 4, 8, 12, 16, 24, 32, 40, 48, 64, 96, 120, 128, 136, 200, 240, 248, 256, 264, 512)


def atom_cases() -> list[tuple[str, int, int, int, str]]:
    out = []
    for (kind, cta), m, n in itertools.product(ATOMS, ATOM_M, ATOM_N):
        for mb in (("K", "MN") if kind in ("f8f6f4", "mxf8f6f4") else ("K",)):
            out.append((kind, cta, m, n, mb))
    return out


# make_instr_desc rejects these types at compile time (to_UMMAFormat / to_CFormat / to_ScaleFormat static_asserts)
TYPE_REJECTS = [
    ("half_t", "half_t", "bfloat16_t", "f16", "f16", "bf16"),
    ("float", "float", "float", "f32", "f32", "f32"),
    ("half_t", "half_t", "double", "f16", "f16", "f64"),
    ("int16_t", "int16_t", "int32_t", "s16", "s16", "s32"),
]


def ours_accepts(kind: str, cta: int, m: int, n: int, mb: str) -> DescriptorError | None:
    t, dt, sf = ATOM_TYPES[kind]
    try:
        ID(t, t, dt, m, n, b_major=mb, kind=kind, sf_type=sf, cta_group=cta)
    except DescriptorError as e:
        return e
    return None


@pytest.fixture(scope="module")
def idesc_oracle():
    import oracles

    oracles.skip_without_cxx()
    batch = oracles.CuteBatch(extra_includes=["cute/atom/mma_traits_sm100.hpp"], chunk_size=5000)
    enc = encode_cases()
    for d in enc:
        batch.add(encode_expr(d))
    atoms = atom_cases()
    for kind, cta, m, n, mb in atoms:
        batch.add("sizeof(" + ATOMS[(kind, cta)].format(M=m, N=n, MB=mb) + ")")
    for a, b, c, *_ in TYPE_REJECTS:
        batch.add(f"uint32_t(UMMA::make_instr_desc<{a}, {b}, {c}, 128, 64, UMMA::Major::K, UMMA::Major::K>())")
    res = batch.run()
    print(f"idesc oracle: {len(res)} expressions, {batch.stats.describe()}")
    return enc, atoms, res


@pytest.mark.oracle
def test_differential_make_instr_desc(idesc_oracle):
    enc, _atoms, res = idesc_oracle
    per_kind: dict[str, int] = {}
    for d, r in zip(enc, res[: len(enc)], strict=True):
        assert isinstance(r, str), (d, r)
        assert d.encode() == int(r), (str(d), hex(int(r)))
        per_kind[d.kind] = per_kind.get(d.kind, 0) + 1
    print(f"make_instr_desc differential: {len(enc)} bit-exact ({per_kind})")
    assert set(per_kind) == set(INSTR_KINDS) and len(enc) > 500


@pytest.mark.oracle
def test_differential_cute_compile_time_rules(idesc_oracle):
    import oracles

    enc, atoms, res = idesc_oracle
    atom_res = res[len(enc): len(enc) + len(atoms)]
    rejected = agree_accept = 0
    for case, r in zip(atoms, atom_res, strict=True):
        ours = ours_accepts(*case)
        if isinstance(r, oracles.CompileError):
            assert ours is not None, f"CuTe rejects {case} at compile time but we accept it"
            assert "is illegal for kind::" in str(ours) and "\n" not in str(ours), ours
            rejected += 1
        else:
            assert isinstance(r, str), (case, r)
            assert ours is None, f"CuTe's atom accepts {case} but we reject it: {ours}"
            agree_accept += 1
    for (a, b, c, pa, pb, pc), r in zip(TYPE_REJECTS, res[len(enc) + len(atoms):], strict=True):
        assert isinstance(r, oracles.CompileError), (a, b, c, r)
        with pytest.raises(DescriptorError, match="is not a tcgen05 type"):
            ID(pa, pb, pc, 128, 64)
        rejected += 1
    print(f"CuTe compile-time rules: {rejected} rejected by both, {agree_accept} accepted by both")
    assert rejected > 100 and agree_accept > 100
