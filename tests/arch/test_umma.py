"""Tests for pycute_layouts.arch.umma: the tcgen05 (sm100) shared memory descriptor.

Checked: Table 40's bit layout (version 0b001 at 46-48, LBO mode at 52, 3-bit layout type at
61-63), the 128B_base32B mode (MN-major only), packed 4-bit operands, the shared derivation on
the PTX worked examples, round trips, bad inputs, the descriptor's model against every accepted
tile slice, and CuTe C++ ``make_umma_desc`` compiled for the host (skipped without g++/headers).
"""

from __future__ import annotations

from math import lcm

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pycute_layouts import (
    ComposedLayout,
    DescriptorError,
    Layout,
    LayoutError,
    Swizzle,
    SwizzledSmemLayout,
    _,
    flat_divide,
    parse,
    slice_and_offset,
    tile_to_shape,
)
from pycute_layouts.arch import umma, wgmma
from pycute_layouts.arch.swizzle_modes import MMA_MODES, SMEM_WINDOW_BYTES, SwizzleMode


def _ptx_desc(layout, *args, **kwargs):
    """umma.make_smem_desc with PTX's byte reading of 'Sw<B,M,S> o k o L' (swizzle_unit="bytes").

    These tests state layouts as the PTX ISA writes them (the swizzle on byte addresses). Since
    issue 23, a plain composed layout means CuTe's element-offset swizzle by default; the byte
    reading needs the explicit keyword, which is what these tests exercise.
    """
    kwargs.setdefault("swizzle_unit", "bytes")
    return umma.make_smem_desc(layout, *args, **kwargs)


# Reference 003's consistent worked examples (restated; test_wgmma checks them against the text):
# (major, swizzle, element bits, exact layout, LBO encoding, SBO encoding)
PTX_EXAMPLES = [
    ("K", "none", 32, "Swizzle<0,4,3> o ((8,2),(4,4)):((4,32),(1,64))", 16, 8),
    ("MN", "none", 16, "Swizzle<0,4,3> o ((8,1,2),(8,2)):((1,8,64),(8,128))", 16, 8),
    ("MN", "32B", 16, "Swizzle<1,4,3> o ((8,2,2),(8,2)):((1,8,128),(16,256))", 16, 32),
    ("MN", "64B", 16, "Swizzle<2,4,3> o ((8,4,2),(8,2)):((1,8,256),(32,512))", 32, 64),
]


# ------------------------------------------------------------------------------------------------
# helpers (as in test_wgmma)
# ------------------------------------------------------------------------------------------------


def layout_addresses(composed, bits: int, start: int) -> np.ndarray:
    if isinstance(composed, SwizzledSmemLayout):
        sw, inner, off = composed.swizzle, composed.layout, 0
    else:
        sw, inner, off = composed.outer, composed.inner, composed.offset
    offs = np.asarray(inner.to_numpy(), dtype=np.int64)
    phys = sw((start * 8 + (off + offs) * bits) // 8)
    return np.asarray(phys).reshape((inner[0].size(), -1), order="F")


def assert_model_reads_layout(desc, composed, major: str, bits: int, start: int) -> None:
    want = layout_addresses(composed, bits, start)
    np.testing.assert_array_equal(desc.element_addresses(major, bits, want.shape), want)


def operand(atom, tile_shape, order, mma_shape, block):
    tile = tile_to_shape(atom.layout, tile_shape, order)
    sub, off = slice_and_offset((_, _, *block), flat_divide(tile, mma_shape))
    return tile, ComposedLayout(atom.swizzle, off, sub)


def atom_extent(atom) -> tuple[int, int]:
    return atom.layout[0].size(), atom.layout[1].size()


# ------------------------------------------------------------------------------------------------
# Table 40 bit layout
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode,lt", [("none", 0), ("128B_base32B", 1), ("128B", 2), ("64B", 4), ("32B", 6)])
def test_layout_type_bits_61_63(mode, lt):
    d = umma.UmmaSmemDescriptor(0, 0, 0, mode)
    assert d.layout_type == lt and d.encode() == (lt << 61) | (1 << 46)


def test_field_positions():
    d = umma.UmmaSmemDescriptor(start_address=0x10, lbo_bytes=0x20, sbo_bytes=0x30, swizzle="128B",
                                base_offset=5)
    v = d.encode()
    assert v & 0x3FFF == 1 and (v >> 16) & 0x3FFF == 2 and (v >> 32) & 0x3FFF == 3
    assert (v >> 46) & 7 == 0b001 and (v >> 49) & 7 == 5 and (v >> 52) & 1 == 0 and v >> 61 == 2
    a = umma.UmmaSmemDescriptor(0x400, 0x8000, 1024, "128B", lbo_mode=1)
    assert (a.encode() >> 52) & 1 == 1 and (a.encode() >> 16) & 0x3FFF == 0x800


def test_same_fields_as_sm90_except_version_and_layout_type():
    for m in (SwizzleMode.INTERLEAVE, SwizzleMode.B32, SwizzleMode.B64, SwizzleMode.B128):
        bo = 3 if m.is_swizzled else 0
        a = wgmma.SmemDescriptor(0x1230, 0x40, 0x400, m, bo).encode()
        b = umma.UmmaSmemDescriptor(0x1230, 0x40, 0x400, m, bo).encode()
        low = (1 << 46) - 1
        assert a & low == b & low and (a >> 49) & 7 == (b >> 49) & 7
        assert (a >> 62) == m.wgmma_layout_type and (b >> 61) == m.tcgen05_layout_type


def test_contract_names():
    assert umma.SmemDescriptor is umma.UmmaSmemDescriptor
    assert not issubclass(umma.SmemDescriptor, wgmma.SmemDescriptor)
    assert umma.UmmaSmemDescriptor(0, 0, 0) != wgmma.SmemDescriptor(0, 0, 0)


addresses = st.integers(0, (1 << 14) - 1).map(lambda x: x * 16)


@st.composite
def sm100_descs(draw):
    mode = draw(st.sampled_from(list(MMA_MODES)))
    lbo_mode = draw(st.integers(0, 1)) if mode is SwizzleMode.B128 else 0
    bo = draw(st.integers(0, 7)) if mode.is_swizzled and not lbo_mode else 0
    return umma.UmmaSmemDescriptor(draw(addresses), draw(addresses), draw(addresses), mode, bo,
                                   lbo_mode=lbo_mode)


@given(sm100_descs())
def test_round_trip(d):
    v = d.encode()
    assert 0 <= v < 1 << 64 and umma.UmmaSmemDescriptor.decode(v) == d
    assert umma.UmmaSmemDescriptor.decode(v).encode() == v


@given(st.integers(0, (1 << 64) - 1))
def test_decode_any_value_is_exact_or_rejected(v):
    try:
        d = umma.UmmaSmemDescriptor.decode(v)
    except DescriptorError as e:
        assert any(w in str(e) for w in ("reserved "
                                         "bits", "bits 46-48", "layout type", "base_offset", "lbo_mode"))
    else:
        assert d.encode() == v


def test_field_boundaries():
    top = SMEM_WINDOW_BYTES - 16
    d = umma.UmmaSmemDescriptor(top, top, top, "32B", 7)
    assert d.encode() == 0x3FFF | (0x3FFF << 16) | (0x3FFF << 32) | (1 << 46) | (7 << 49) | (6 << 61)
    assert umma.UmmaSmemDescriptor.decode(d.encode()) == d
    with pytest.raises(DescriptorError, match="overflows the 14-bit field"):
        umma.UmmaSmemDescriptor(top + 16, 0, 0)
    with pytest.raises(DescriptorError, match="not a multiple of 16"):
        umma.UmmaSmemDescriptor(0, 24, 0)


def test_str_shows_every_field():
    d = umma.UmmaSmemDescriptor(0x400, 0x8000, 1024, "128B", lbo_mode=1)
    s = str(d)
    for piece in (f"{d.encode():#018x}", "lbo_mode      = 1 (absolute byte address)",
                  "version       = 1 (bits 46-48 = 0b001)", "layout_type   = 2 (128B)",
                  "lbo           = 32768 B (field 2048)", "sbo           = 1024 B (field 64)",
                  "start_address = 0x00400", "base_offset   = 0"):
        assert piece in s


# ------------------------------------------------------------------------------------------------
# Derivation: the PTX examples, base32B, 4-bit
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("ex", PTX_EXAMPLES, ids=str)
def test_examples(ex):
    major, mode, bits, exact, enc_lbo, enc_sbo = ex
    d = _ptx_desc(parse(exact), major, bits)
    assert (d.lbo_16B, d.sbo_16B, d.version, d.lbo_mode) == (enc_lbo, enc_sbo, 1, 0)
    assert d.layout_type == SwizzleMode.parse(mode).tcgen05_layout_type
    assert_model_reads_layout(d, parse(exact), major, bits, 0)


def test_example_k32b_tf32_rejected_too():
    with pytest.raises(DescriptorError, match="not injective"):
        _ptx_desc(parse("Swizzle<1,4,3> o ((8,2),(4,4)):((8,64),(1,4))"), "K", 32)


def test_base32b_atom_and_canonical_layout():
    for bits, width in ((32, 32), (16, 64), (8, 128)):
        a = umma.smem_atom("MN", "128B_base32B", bits)
        assert (str(a.swizzle), atom_extent(a)) == ("Sw<2,5,2>", (width, 4))
        assert a.layout == Layout((width, 4), (1, width))  # CuTe: upcast<bits>((1024,4):(1,1024))
    c = umma.canonical_layout("MN", "128B_base32B")
    assert c.outer == Swizzle(2, 5, 2) and c.inner == parse("((T,8,m),(4,k)):((1,T,LBO),(8T,SBO))")
    bound = umma.canonical_layout("MN", "128B_base32B", element_bits=32, m=2, k=2, LBO=128, SBO=256)
    d = _ptx_desc(bound, "MN", 32)
    assert (d.lbo_bytes, d.sbo_bytes, d.layout_type) == (512, 1024, 1)


@pytest.mark.parametrize("order,lbo,sbo", [((0, 1), 512, 1024), ((1, 0), 1024, 512)])
def test_base32b_tiles(order, lbo, sbo):
    a = umma.smem_atom("MN", "128B_base32B", 32)  # 32 x 4 tf32
    tile = tile_to_shape(a.layout, (64, 8), order)
    d = _ptx_desc(SwizzledSmemLayout(a.swizzle, tile, 32), "MN", 32, start_address=0x2000)
    assert (d.lbo_bytes, d.sbo_bytes, d.swizzle) == (lbo, sbo, SwizzleMode.B128_BASE32B)
    assert_model_reads_layout(d, ComposedLayout(a.swizzle, 0, tile), "MN", 32, 0x2000)


def test_base32b_is_mn_major_only():
    with pytest.raises(DescriptorError, match="MN-major only"):
        umma.smem_atom("K", "128B_base32B", 16)
    with pytest.raises(DescriptorError, match="MN-major only"):
        umma.canonical_layout("K", "128B_base32B")
    k_major = ComposedLayout(Swizzle(2, 5, 2), 0, Layout((64, 16), (16, 1)))
    with pytest.raises(DescriptorError, match="MN-major only"):
        _ptx_desc(k_major, "K", 16)


def test_packed_fp4_k_major():
    a = umma.smem_atom("K", "128B", 4)
    assert atom_extent(a) == (8, 256)
    for kb in range(4):
        _tile, op = operand(a, (128, 256), (0, 1), (128, 64), (0, kb))  # mxf4: K = 64 elements = 32 bytes
        d = _ptx_desc(op, "K", 4, start_address=0x4000)
        assert (d.start_address, d.lbo_bytes, d.sbo_bytes) == (0x4000 + 32 * kb, 16, 1024)
        assert_model_reads_layout(d, op, "K", 4, 0x4000)


@pytest.mark.parametrize("bits,major,match", [
    (4, "MN", "packed 4-bit operands .* are K-major only"), (6, "K", "padded.*element_bits=8"),
    (1, "K", "no 1-bit kind"), (64, "K", "64-bit elements are not allowed for descriptors"),
])
def test_element_type_rules(bits, major, match):
    with pytest.raises(DescriptorError, match=match):
        _ptx_desc(Layout((8, 8), (8, 1)), major, bits)


def test_padded_subbyte_is_8_bit_geometry():
    """e2m1 in .b4x16_p64 / e3m2 in .b6x16_p32 (16 elements per 16 bytes): describe as 8-bit elements."""
    a8 = umma.smem_atom("K", "128B", 8)
    _tile, op = operand(a8, (128, 128), (0, 1), (128, 32), (0, 1))
    d = _ptx_desc(op, "K", 8)
    assert (d.start_address, d.sbo_bytes) == (32, 1024)


def test_lbo_mode_rules():
    umma.UmmaSmemDescriptor(0, 0x1000, 1024, "128B", lbo_mode=1)
    with pytest.raises(DescriptorError, match="only with the 128B swizzle with 16-byte atomicity"):
        umma.UmmaSmemDescriptor(0, 0x1000, 1024, "128B_base32B", lbo_mode=1)
    with pytest.raises(DescriptorError, match="requires base_offset 0"):
        umma.UmmaSmemDescriptor(0, 0x1000, 1024, "128B", base_offset=2, lbo_mode=1)
    with pytest.raises(DescriptorError, match="lbo_mode must be 0"):
        umma.UmmaSmemDescriptor(0, 0, 0, lbo_mode=2)
    with pytest.raises(DescriptorError, match="0b001"):
        umma.UmmaSmemDescriptor(0, 0, 0, version=0)


BAD = [
    ("decode wgmma value (version 0)", lambda: umma.UmmaSmemDescriptor.decode(0x4000004000010040),
     "bits 46-48 are 0b000"),
    ("decode version 2", lambda: umma.UmmaSmemDescriptor.decode(2 << 46), "bits 46-48 are 0b010"),
    ("decode reserved 53-60", lambda: umma.UmmaSmemDescriptor.decode((1 << 46) | (1 << 55)), "reserved bits"),
    ("decode reserved 14-15", lambda: umma.UmmaSmemDescriptor.decode((1 << 46) | (1 << 14)), "reserved bits"),
    ("decode layout type 3", lambda: umma.UmmaSmemDescriptor.decode((1 << 46) | (3 << 61)),
     "3, 5, 7 are invalid"),
    ("decode layout type 7", lambda: umma.UmmaSmemDescriptor.decode((1 << 46) | (7 << 61)),
     "3, 5, 7 are invalid"),
    ("decode negative", lambda: umma.UmmaSmemDescriptor.decode(-1), "64-bit"),
    ("wrong K extent", lambda: _ptx_desc(Layout(((8, 8), 64), ((64, 512), 1)), "K", 16),
     "wrong K extent"),
    ("misaligned start", lambda: _ptx_desc(Layout(((8, 8), 16), ((64, 512), 1)), "K", 16, 0x18),
     "misaligned start address"),
    ("base32B with K rows at 64B", lambda: _ptx_desc(
        ComposedLayout(Swizzle(2, 5, 2), 0, Layout((32, (4, 2)), (1, (16, 256)))), "MN", 32),
     "not injective|rows"),
    ("base32B rows 8 apart", lambda: _ptx_desc(
        ComposedLayout(Swizzle(2, 5, 2), 0, Layout((32, (4, 2)), (1, (64, 512)))), "MN", 32),
     r"the 4 rows of a core matrix must be 8 units \(128 B, the 128B_base32B row pitch\)"),
]


@pytest.mark.parametrize("case", BAD, ids=[c[0] for c in BAD])
def test_bad_inputs(case):
    _id, fn, msg = case
    with pytest.raises(DescriptorError, match=msg) as info:
        fn()
    assert isinstance(info.value, LayoutError)


# ------------------------------------------------------------------------------------------------
# Model self-consistency and the CuTe make_umma_desc differential
# ------------------------------------------------------------------------------------------------


def _cases():
    out = []
    combos = [(mj, mode, bits) for mj in ("K", "MN") for mode in ("none", "32B", "64B", "128B")
              for bits in (32, 16, 8)]
    combos += [("MN", "128B_base32B", bits) for bits in (32, 16, 8)]
    combos += [("K", mode, 4) for mode in ("none", "32B", "64B", "128B")]
    for major, mode, bits in combos:
        atom = umma.smem_atom(major, mode, bits)
        mna, ka = atom_extent(atom)
        k_inst = 256 // bits
        mn0, k0 = max(128, mna), lcm(ka, k_inst)
        for mn_t, k_t in ((mn0, k0), (2 * mn0, 2 * k0)):
            for order in ((0, 1), (1, 0)):
                mma = (mn_t // 2, k_inst)
                for blk in sorted({(0, 0), (1, k_t // k_inst - 1)}):
                    out.append((major, mode, bits, (mn_t, k_t), order, mma, blk))
    return out


SM100_CASES = _cases()


@pytest.mark.parametrize("case", SM100_CASES[::4], ids=str)
def test_model_reads_every_tile_slice(case):
    major, mode, bits, tshape, order, mma, blk = case
    _tile, op = operand(umma.smem_atom(major, mode, bits), tshape, order, mma, blk)
    d = _ptx_desc(op, major, bits, start_address=0x10000)
    assert_model_reads_layout(d, op, major, bits, 0x10000)


CXX_TYPE = {32: "tfloat32_t", 16: "half_t", 8: "float_e4m3_t", 4: "float_e2m1_t"}
CXX_ATOM = {"none": "INTER", "32B": "SW32", "64B": "SW64", "128B": "SW128", "128B_base32B": "SW128_32B"}
CXX_PREAMBLE = r"""
alignas(1024) static unsigned char oracle_smem[1 << 21];
template <UMMA::Major M, class T, class Tile, class Mma>
std::string oracle_umma(Tile const& tile, Mma const& mma, int i, int k) {
  auto t = make_tensor(make_smem_ptr<T>(reinterpret_cast<T*>(oracle_smem)), tile);
  auto s = flat_divide(t, mma)(_, _, i, k);
  auto d = UMMA::make_umma_desc<M>(s);
  std::ostringstream os;
  os << int(d.leading_byte_offset_) << " " << int(d.stride_byte_offset_) << " " << int(d.layout_type_) << " "
     << int(d.base_offset_) << " " << int(d.version_) << " " << int(d.lbo_mode_) << " " << uint64_t(d.desc_)
     << " | " << s.layout();
  return os.str();
}
"""


@pytest.fixture(scope="module")
def umma_oracle():
    import oracles

    oracles.skip_without_cxx()
    batch = oracles.CuteBatch(preamble=CXX_PREAMBLE, extra_includes=["cute/atom/mma_traits_sm100.hpp"])
    for major, mode, bits, (mn_t, k_t), order, (mn_m, k_m), (i, k) in SM100_CASES:
        t = CXX_TYPE[bits]
        step = "Step<_1,_2>" if order == (0, 1) else "Step<_2,_1>"
        batch.add(f"oracle_umma<UMMA::Major::{major}, "
                  f"{t}>(tile_to_shape(UMMA::Layout_{major}_{CXX_ATOM[mode]}_Atom<{t}>{{}}, "
                  f"Shape<Int<{mn_t}>,Int<{k_t}>>{{}}, {step}{{}}), Shape<Int<{mn_m}>,Int<{k_m}>>{{}}, {i}, "
                  f"{k})")
    return batch.run()


@pytest.mark.oracle
def test_differential_make_umma_desc(umma_oracle):
    import oracles

    agree = bitexact = 0
    for case, res in zip(SM100_CASES, umma_oracle, strict=True):
        major, mode, bits, tshape, order, mma, blk = case
        _tile, op = operand(umma.smem_atom(major, mode, bits), tshape, order, mma, blk)
        assert isinstance(res, str), (case, res)
        fields, slice_text = (x.strip() for x in res.split("|"))
        lbo, sbo, lt, bo, version, lbo_mode, raw = (int(x) for x in fields.split())
        np.testing.assert_array_equal(parse(oracles.normalize(slice_text)).to_numpy(), op.inner.to_numpy())
        d = _ptx_desc(op, major, bits)
        assert (d.lbo_16B, d.sbo_16B, d.layout_type, d.base_offset, d.version, d.lbo_mode) == \
            (lbo, sbo, lt, bo, version, lbo_mode), case
        if blk == (0, 0):  # host CuTe: start address 0
            assert d.encode() == raw, (case, hex(d.encode()), hex(raw))
            bitexact += 1
        agree += 1
    print(f"make_umma_desc differential: {agree} agree ({bitexact} bit-exact 64-bit values)")
    assert agree == len(SM100_CASES)
