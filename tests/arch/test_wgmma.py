"""Tests for pycute_layouts.arch.wgmma and arch.swizzle_modes (reference 003: PTX 9.7.15.5.1.2).

Every worked example of the reference is restated below (a test checks them against the
reference text when shared/reference is beside the repository); the descriptor derivation is
checked three ways: against the examples, against its own hardware model (the addresses the
descriptor reads == the addresses the layout names, for every element), and against CuTe C++
``make_gmma_desc`` compiled for the host (skipped without g++ / the CuTe headers).
"""

from __future__ import annotations

import re
from math import lcm
from pathlib import Path

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
    XorSwizzle,
    _,
    flat_divide,
    parse,
    slice_and_offset,
    tile_to_shape,
)
from pycute_layouts.arch import umma, wgmma
from pycute_layouts.arch.swizzle_modes import MMA_MODES, SMEM_WINDOW_BYTES, SwizzleMode, base_offset_for_pattern_start
from pycute_layouts.core.composed import smem_layout_of


def _ptx_desc(layout, *args, **kwargs):
    """wgmma.make_smem_desc with PTX's byte reading of 'Sw<B,M,S> o k o L' (swizzle_unit="bytes").

    These tests state layouts as the PTX ISA writes them (the swizzle on byte addresses). Since
    issue 23, a plain composed layout means CuTe's element-offset swizzle by default; the byte
    reading needs the explicit keyword, which is what these tests exercise.
    """
    kwargs.setdefault("swizzle_unit", "bytes")
    return wgmma.make_smem_desc(layout, *args, **kwargs)


def _ptx_umma_desc(layout, *args, **kwargs):
    """umma.make_smem_desc with PTX's byte reading (see _ptx_desc)."""
    kwargs.setdefault("swizzle_unit", "bytes")
    return umma.make_smem_desc(layout, *args, **kwargs)


REPO = Path(__file__).resolve().parents[2]
REFERENCE = REPO.parent / "shared" / "reference"
SM90_MODES = [m for m in SwizzleMode if m.on_sm90]

# ------------------------------------------------------------------------------------------------
# Reference 003, restated exactly: (title, major, swizzle, element bits, exact layout, T, m, k,
# LBO (elements, None for NA), SBO (elements), LBO encoding, SBO encoding)
# ------------------------------------------------------------------------------------------------

PTX_EXAMPLES = [
    ("K-Major, no-swizzling and tf32 type", "K", "none", 32,
     "Swizzle<0,4,3> o ((8,2),(4,4)):((4,32),(1,64))", 4, 2, 2, 64, 32, 16, 8),
    ("K-Major, 32B swizzling and tf32 type", "K", "32B", 32,
     "Swizzle<1,4,3> o ((8,2),(4,4)):((8,64),(1,4))", 4, 2, 2, None, 64, 1, 16),
    ("MN-Major, no-swizzling and bf16 type", "MN", "none", 16,
     "Swizzle<0,4,3> o ((8,1,2),(8,2)):((1,8,64),(8,128))", 8, 2, 2, 128, 64, 16, 8),
    ("MN-Major, 32B swizzling and bf16 type", "MN", "32B", 16,
     "Swizzle<1,4,3> o ((8,2,2),(8,2)):((1,8,128),(16,256))", 8, 2, 2, 128, 256, 16, 32),
    ("MN-Major, 64B swizzling and bf16 type", "MN", "64B", 16,
     "Swizzle<2,4,3> o ((8,4,2),(8,2)):((1,8,256),(32,512))", 8, 2, 2, 256, 512, 32, 64),
]
CONSISTENT = [e for e in PTX_EXAMPLES if "32B swizzling and tf32" not in e[0]]
# The consistent reading of the K-major 32B tf32 example: K = 16 tf32 is two 32-byte swizzle atoms,
# (4,2,2):(1,4,128): the second atom after both 8-row groups (SBO = 64 elements as the example says).
K32B_TF32_CONSISTENT = "Sw<1,4,3> o ((8,2),(4,2,2)):((8,64),(1,4,128))"

TABLE_ROWS = [
    ("MN", "none", "((T,1,m),(8,k)):((1,T,SBO),(1T,LBO))", "Swizzle<0, 4, 3>"),
    ("MN", "32B", "((T,2,m),(8,k)):((1,T,LBO),(2T,SBO))", "Swizzle<1, 4, 3>"),
    ("MN", "64B", "((T,4,m),(8,k)):((1,T,LBO),(4T,SBO))", "Swizzle<2, 4, 3>"),
    ("MN", "128B", "((T,8,m),(8,k)):((1,T,LBO),(8T,SBO))", "Swizzle<3, 4, 3>"),
    ("K", "none", "((8,m),(T,2k)):((1T,SBO),(1,LBO))", "Swizzle<0, 4, 3>"),
    ("K", "32B", "((8,m),(T,2k)):((2T,SBO),(1,T))", "Swizzle<1, 4, 3>"),
    ("K", "64B", "((8,m),(T,2k)):((4T,SBO),(1,T))", "Swizzle<2, 4, 3>"),
    ("K", "128B", "((8,m),(T,2k)):((8T,SBO),(1,T))", "Swizzle<3, 4, 3>"),
]
# Table 38 in 128-bit elements: (mode, major) -> (rows, cols) as (MN x K) for MN-major / (MN x K) K-major
TABLE_38 = {
    ("128B", "MN"): (8, 8), ("128B", "K"): (8, 8), ("64B", "MN"): (4, 8), ("64B", "K"): (8, 4),
    ("32B", "MN"): (2, 8), ("32B", "K"): (8, 2), ("none", "MN"): (1, 8), ("none", "K"): (8, 1),
}


def _reference_text() -> str | None:
    files = sorted(REFERENCE.glob("003_*.txt")) if REFERENCE.is_dir() else []
    return files[0].read_text() if files else None


# ------------------------------------------------------------------------------------------------
# helpers
# ------------------------------------------------------------------------------------------------


def layout_addresses(composed, bits: int, start: int, anchor: str = "absolute") -> np.ndarray:
    """Byte address of every element (mn, k) of an element layout with a byte swizzle (the writer's view)."""
    if isinstance(composed, SwizzledSmemLayout):
        sw, inner, off = composed.swizzle, composed.layout, 0
    elif isinstance(composed, ComposedLayout):
        sw, inner, off = composed.outer, composed.inner, composed.offset
    else:
        sw, inner, off = Swizzle(0, 4, 3), composed, 0
    offs = np.asarray(inner.to_numpy(), dtype=np.int64)
    byte = (start * 8 + (off + offs) * bits) // 8
    phys = sw(byte) if anchor == "absolute" else start + sw(byte - start)
    mn = int(np.prod(inner[0].shape)) if isinstance(inner[0].shape, tuple) else inner[0].shape
    return np.asarray(phys).reshape((mn, -1), order="F")


def assert_model_reads_layout(desc, composed, major: str, bits: int, start: int,
                              anchor: str = "absolute") -> None:
    """The descriptor's canonical walk + swizzle model reads exactly the bytes the layout names."""
    want = layout_addresses(composed, bits, start, anchor)
    got = desc.element_addresses(major, bits, want.shape)
    np.testing.assert_array_equal(got, want)


def operand(atom: SwizzledSmemLayout, tile_shape, order, mma_shape, block):
    """(tile, ComposedLayout of one instruction's operand) as CuTe's flat_divide(tile, mma)(_,_,i,k)."""
    tile = tile_to_shape(atom.layout, tile_shape, order)
    sub, off = slice_and_offset((_, _, *block), flat_divide(tile, mma_shape))
    return tile, ComposedLayout(atom.swizzle, off, sub)


def atom_extent(atom: SwizzledSmemLayout) -> tuple[int, int]:
    return atom.layout[0].size(), atom.layout[1].size()


# ------------------------------------------------------------------------------------------------
# swizzle_modes
# ------------------------------------------------------------------------------------------------


def test_swizzle_mode_encodings():
    rows = {m.short_name: (m.wgmma_layout_type if m.on_sm90 else None, m.tcgen05_layout_type, m.tma_swizzle,
                           str(m.byte_swizzle), m.period_bytes, m.pattern_boundary_bytes, m.width_bytes)
            for m in MMA_MODES}
    assert rows == {
        "none": (0, 0, 0, "Sw<0,4,3>", 1, 16, 16),
        "32B": (3, 6, 1, "Sw<1,4,3>", 256, 256, 32),
        "64B": (2, 4, 2, "Sw<2,4,3>", 512, 512, 64),
        "128B": (1, 2, 3, "Sw<3,4,3>", 1024, 1024, 128),
        "128B_base32B": (None, 1, 4, "Sw<2,5,2>", 512, 1024, 128),
    }


def test_swizzle_mode_matches_tma_module():
    """The TMA module's byte maps agree with the one vocabulary (same CUtensorMapSwizzle value, same map)."""
    tma = pytest.importorskip("pycute_layouts.arch.tma")
    byte_map = getattr(tma, "swizzle_byte_map", None)
    if byte_map is None:
        pytest.skip("pycute_layouts.arch.tma has no swizzle_byte_map")
    for m in MMA_MODES:
        assert byte_map(m.tma_swizzle) == m.byte_swizzle


@pytest.mark.parametrize("text,mode", [
    ("none", "INTERLEAVE"), ("interleave", "INTERLEAVE"), ("NONE", "INTERLEAVE"), ("32B", "B32"),
    ("64b", "B64"), ("128B", "B128"), ("128B_base32B", "B128_BASE32B"), ("B64", "B64"),
    ("SWIZZLE_128B_BASE32B", "B128_BASE32B"),
    (0, "INTERLEAVE"), (1, "B32"), (2, "B64"), (3, "B128"), (4, "B128_BASE32B"),
    (Swizzle(3, 4, 3), "B128"), (Swizzle(2, 5, 2), "B128_BASE32B"), (XorSwizzle([(7, 4)]), "B32"),
    (Swizzle(0, 0, 0), "INTERLEAVE"),
])
def test_swizzle_mode_parse(text, mode):
    assert SwizzleMode.parse(text) is SwizzleMode[mode]
    assert SwizzleMode.parse(SwizzleMode[mode]) is SwizzleMode[mode]


def test_swizzle_mode_field_round_trips():
    for m in MMA_MODES:
        assert SwizzleMode.from_tcgen05_layout_type(m.tcgen05_layout_type) is m
        assert SwizzleMode.from_tma(m.tma_swizzle) is m
        assert SwizzleMode.from_swizzle(m.byte_swizzle) is m
        if m.on_sm90:
            assert SwizzleMode.from_wgmma_layout_type(m.wgmma_layout_type) is m


def test_swizzle_mode_geometry_matches_cute_atoms():
    """Bits atoms of CuTe: MN (1024,8):(1,1024) etc. -> W*16 bytes wide, 8 (4) rows; period from the map."""
    for m in MMA_MODES:
        assert m.atom_bytes == m.width_bytes * m.atom_rows
        if m.is_swizzled:
            # the XOR reads bits 7.. and writes bits M..: it never moves data across an atom boundary
            sw = m.byte_swizzle
            addrs = np.arange(4 * m.atom_bytes)
            assert np.all(sw(addrs) // m.atom_bytes == addrs // m.atom_bytes)
            assert np.all(sw(addrs) // m.width_bytes == addrs // m.width_bytes)  # rows stay rows


def test_base_offset_formula():
    starts = (0, 128, 384, 896, 1024, 2048 + 640)
    assert [base_offset_for_pattern_start("128B", a) for a in starts] == [0, 1, 3, 7, 0, 5]
    assert base_offset_for_pattern_start("64B", 512) == 0 and base_offset_for_pattern_start("64B", 640) == 5
    assert base_offset_for_pattern_start("32B", 256) == 0 and base_offset_for_pattern_start("32B", 128) == 1
    assert base_offset_for_pattern_start("none", 48) == 0


# ------------------------------------------------------------------------------------------------
# The reference's worked examples and canonical table
# ------------------------------------------------------------------------------------------------


def test_examples_match_reference_text():
    text = _reference_text()
    if text is None:
        pytest.skip("shared/reference/003_*.txt is not beside the repository")
    exacts = re.findall(r"Exact layout : (.*)", text)
    assert exacts == [e[4] for e in PTX_EXAMPLES]
    for e in PTX_EXAMPLES:
        block = text.split(e[0], 1)[1].split("Encoding of SBO", 1)[0]
        t = int(re.search(r"\| T \| (\d+) \|", block).group(1))
        m = int(re.search(r"\| m \| (\d+) \|", block).group(1))
        k = int(re.search(r"\| k \| (\d+) \|", block).group(1))
        lbo = re.search(r"\| LBO \| (NA|(\d+)\\\*sizeof)", block).group(2)
        sbo = re.search(r"\| SBO \| (\d+)\\\*sizeof", block).group(1)
        enc = text.split(e[0], 1)[1]
        enc_lbo = re.search(r"Encoding of LBO in descriptor \| (?:\(LBO\) >> 4 = )?(\d+)", enc).group(1)
        enc_sbo = re.search(r"Encoding of SBO in descriptor \| \(SBO\) >> 4 = (\d+)", enc).group(1)
        assert (t, m, k, None if lbo is None else int(lbo), int(sbo), int(enc_lbo), int(enc_sbo)) == e[5:]
    for major, mode, layout, sw in TABLE_ROWS:
        assert f"| {layout} |\n{sw} |" in text, (major, mode)


@pytest.mark.parametrize("major,mode,layout_text,swizzle_text", TABLE_ROWS)
def test_canonical_layout_is_the_table(major, mode, layout_text, swizzle_text):
    c = wgmma.canonical_layout(major, mode)
    assert c.inner == parse(layout_text)
    assert c.offset == 0
    b, mm, s = (int(x) for x in re.findall(r"\d+", swizzle_text))
    assert c.outer == Swizzle(b, mm, s) == SwizzleMode.parse(mode).byte_swizzle
    # partial binding keeps the rest symbolic, full binding evaluates
    part = wgmma.canonical_layout(major, mode, T=8)
    assert part.inner == parse(layout_text, T=8) and part.is_symbolic()
    full = wgmma.canonical_layout(major, mode, T=8, m=2, k=1, LBO=1024, SBO=2048)
    assert not full.is_symbolic()
    assert full.inner == parse(layout_text).subs(T=8, m=2, k=1, LBO=1024, SBO=2048)
    assert wgmma.canonical_layout(major, mode, element_bits=16) == part


def test_canonical_layout_prints_symbolically():
    c = wgmma.canonical_layout("K", "none")
    assert str(c) == "Sw<0,4,3> o smem_ptr[(128/T)b](unset) o ((8,m),(T,2*k)):((T,SBO),(1,LBO))"
    assert c.ptx_text() == "Sw<0,4,3> o 0 o ((8,m),(T,2*k)):((T,SBO),(1,LBO))"
    # T bound: the element width is known, so CuTe's pointer form (the swizzle on byte addresses)
    assert str(wgmma.canonical_layout("MN", "128B", T=4)) == \
        "Sw<3,4,3> o smem_ptr[32b](unset) o ((4,8,m),(8,k)):((1,4,LBO),(32,SBO))"
    assert str(wgmma.canonical_layout("MN", "128B", T=4).as_composed()) == \
        "Sw<3,2,3> o 0 o ((4,8,m),(8,k)):((1,4,LBO),(32,SBO))"


@pytest.mark.parametrize("ex", PTX_EXAMPLES, ids=[e[0] for e in PTX_EXAMPLES])
def test_example_is_the_canonical_layout(ex):
    title, major, mode, bits, exact, t, m, k, lbo, sbo, _el, _es = ex
    syms = {"T": t, "m": m, "k": k, "SBO": sbo}
    if lbo is not None:
        syms["LBO"] = lbo
    # the PTX text swizzles byte addresses: its CuTe form is the pointer form
    ptx = smem_layout_of(parse(exact), bits, swizzle_unit="bytes")
    assert wgmma.canonical_layout(major, mode, **syms) == ptx
    strides = {x: syms[x] for x in syms if x in ("LBO", "SBO")}
    assert wgmma.canonical_layout(major, mode, element_bits=bits, m=m, k=k, **strides) == ptx


@pytest.mark.parametrize("ex", CONSISTENT, ids=[e[0] for e in CONSISTENT])
def test_example_descriptor(ex):
    title, major, mode, bits, exact, t, m, k, lbo, sbo, enc_lbo, enc_sbo = ex
    layout = parse(exact)
    # consistency first: injective, and the descriptor's model reads exactly the layout's bytes
    offs = layout.inner.to_numpy()
    assert len(set(offs.tolist())) == len(offs)
    d = _ptx_desc(layout, major, bits)
    assert (d.lbo_16B, d.sbo_16B) == (enc_lbo, enc_sbo)
    assert (d.lbo_bytes, d.sbo_bytes) == (lbo * bits // 8, sbo * bits // 8)
    assert d.swizzle is SwizzleMode.parse(mode)
    assert_model_reads_layout(d, layout, major, bits, 0)
    # the same from the canonical layout bound with the example's parameters
    c = wgmma.canonical_layout(major, mode, T=t, m=m, k=k, LBO=lbo, SBO=sbo)
    assert _ptx_desc(c, major, bits) == d


def test_example_k32b_tf32_is_inconsistent():
    """Reference: K-major 32B tf32 'Swizzle<1,4,3> o ((8,2),(4,4)):((8,64),(1,4))' puts 2 elements at once."""
    ex = PTX_EXAMPLES[1]
    layout = parse(ex[4])
    offs = layout.inner.to_numpy().tolist()
    assert len(set(offs)) < len(offs)  # offset 8 is row 1 and column 8
    assert layout.inner(1, 0) == layout.inner(0, 8) == 8
    with pytest.raises(DescriptorError, match=r"not injective: coordinates \(mn, k\) = \(1, 0\) and \(0, 8\) "
                                              r"both hold "
                                              r"element offset 8"):
        _ptx_desc(layout, "K", 32)
    # the canonical formula with the example's T, m, k reproduces the inconsistency literally
    c = wgmma.canonical_layout("K", "32B", T=4, m=2, k=2, SBO=64)
    assert c == smem_layout_of(layout, 32, swizzle_unit="bytes")
    with pytest.raises(DescriptorError, match="not injective"):
        _ptx_desc(c, "K", 32)


def test_example_k32b_tf32_consistent_reading():
    full = parse(K32B_TF32_CONSISTENT)
    offs = full.inner.to_numpy().tolist()
    assert len(set(offs)) == len(offs) == 256 and max(offs) == 255  # injective, compact
    # one descriptor cannot cover K = 64 bytes in a 32-byte K-major swizzle row ...
    with pytest.raises(DescriptorError, match=r"spans 4 16-byte units \(64 B\) of K, more than one 32-byte "
                                              r"swizzle row"):
        _ptx_desc(full, "K", 32)
    # ... but each 32-byte K block (one tf32 instruction, K = 8) is canonical, with the example's SBO
    for kb, start in ((0, 0), (1, 512)):
        sub, off = slice_and_offset((_, _, 0, kb), flat_divide(full.inner, (16, 8)))
        op = ComposedLayout(full.outer, off, sub)
        d = _ptx_desc(op, "K", 32)
        assert (d.lbo_16B, d.sbo_16B, d.start_address, d.layout_type) == (1, 16, start, 3)
        assert_model_reads_layout(d, op, "K", 32, 0)
        canon = wgmma.canonical_layout("K", "32B", T=4, m=2, k=1, SBO=64).inner
        np.testing.assert_array_equal(sub.to_numpy(), canon.to_numpy())  # same function (coalesced)
    # and stepping from block 0 to block 1 is an advance by the atom stride, not by 32 bytes
    block0 = flat_divide(full.inner, (16, 8))(_, _, 0, 0)
    d0 = _ptx_desc(ComposedLayout(full.outer, 0, block0), "K", 32)
    assert d0.advance(512, major="K", k_bytes=32).start_address == 512
    with pytest.raises(DescriptorError, match="next K atom is not the next row"):
        d0.advance(32, major="K", k_bytes=32)
    with pytest.raises(DescriptorError, match="run past the end of the swizzle row"):
        d0.advance(16, major="K", k_bytes=32)


# ------------------------------------------------------------------------------------------------
# smem_atom: Table 38
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("bits", [1, 8, 16, 32, 64, 128])
@pytest.mark.parametrize("major", ["K", "MN"])
@pytest.mark.parametrize("mode", ["none", "32B", "64B", "128B"])
def test_smem_atom_is_table_38(mode, major, bits):
    if bits == 1 and major == "MN":
        with pytest.raises(DescriptorError, match="b1"):
            wgmma.smem_atom(major, mode, bits)
        return
    a = wgmma.smem_atom(major, mode, bits)
    assert isinstance(a, SwizzledSmemLayout) and a.element_bits == bits and a.swizzle_unit == "bytes"
    assert a.swizzle == SwizzleMode.parse(mode).byte_swizzle
    t = 128 // bits
    rows, cols = TABLE_38[(mode, major)]
    mn, k = atom_extent(a)
    if major == "MN":
        assert (mn, k) == (rows * t, cols)  # leading dimension (MN) scaled by T
    else:
        assert (mn, k) == (rows, cols * t)
    # compact and contiguous along the leading dimension
    offs = a.layout.to_numpy()
    assert sorted(offs.tolist()) == list(range(mn * k))
    # the atom is one swizzle atom of bytes: width_bytes x atom_rows
    assert mn * k * bits == SwizzleMode.parse(mode).atom_bytes * 8


def test_smem_atom_tf32_mn_128b_is_32x8():
    """Table 38's example: the 128B MN-major atom for tf32 is (8*(128/32)) x 8 = 32x8."""
    assert atom_extent(wgmma.smem_atom("MN", "128B", 32)) == (32, 8)


@pytest.mark.parametrize("bits,match", [(4, "no 4-bit operand type"), (6, "no packed shared-memory form"),
                                        (2, "not allowed"), (12, "not allowed")])
def test_smem_atom_rejects(bits, match):
    with pytest.raises(DescriptorError, match=match):
        wgmma.smem_atom("K", "128B", bits)


def test_smem_atom_rejects_base32b_on_sm90():
    with pytest.raises(DescriptorError, match="does not exist on sm90"):
        wgmma.smem_atom("MN", "128B_base32B", 32)


# ------------------------------------------------------------------------------------------------
# make_smem_desc on tiles
# ------------------------------------------------------------------------------------------------


def test_deepgemm_k_major_sw128_bf16():
    """A 128x64 bf16 K-major SW128 tile: 4 K blocks of 16; block k starts 32*k bytes into the rows."""
    a = wgmma.smem_atom("K", "128B", 16)
    base = 0x2400
    tile = tile_to_shape(a.layout, (128, 64))
    descs = []
    for kb in range(4):
        sub, off = slice_and_offset((_, _, 0, kb), flat_divide(tile, (64, 16)))
        op = ComposedLayout(a.swizzle, off, sub)
        d = _ptx_desc(op, "K", 16, start_address=base)
        assert_model_reads_layout(d, op, "K", 16, base)
        descs.append(d)
    assert [d.start_address - base for d in descs] == [0, 32, 64, 96]
    assert {(d.lbo_bytes, d.sbo_bytes, d.layout_type) for d in descs} == {(16, 1024, 1)}
    assert [descs[0].advance(32 * k, major="K") for k in range(4)] == descs
    assert [d.encode() - descs[0].encode() for d in descs] == [0, 2, 4, 6]  # desc.lo += 2 per K block
    # the second 64-row half (M block 1)
    sub, off = slice_and_offset((_, _, 1, 0), flat_divide(tile, (64, 16)))
    d1 = _ptx_desc(ComposedLayout(a.swizzle, off, sub), "K", 16, start_address=base)
    assert d1.start_address == base + 64 * 128 and d1.sbo_bytes == 1024


def test_k_major_two_atoms_along_k_both_orders():
    a = wgmma.smem_atom("K", "64B", 8)  # 8 x 64 fp8
    for order, sbo, katom in (((0, 1), 512, 64 * 64), ((1, 0), 1024, 512)):
        tile = tile_to_shape(a.layout, (64, 128), order)
        fd = flat_divide(tile, (64, 32))
        for kb in range(4):
            sub, off = slice_and_offset((_, _, 0, kb), fd)
            op = ComposedLayout(a.swizzle, off, sub)
            d = _ptx_desc(op, "K", 8, start_address=0)
            assert (d.lbo_bytes, d.sbo_bytes) == (16, sbo)
            assert d.start_address == (kb // 2) * katom + (kb % 2) * 32
            assert_model_reads_layout(d, op, "K", 8, 0)


def test_mn_major_lbo_unused_with_one_atom_and_used_with_two():
    a = wgmma.smem_atom("MN", "128B", 16)  # 64 x 8
    d = _ptx_desc(SwizzledSmemLayout(a.swizzle, tile_to_shape(a.layout, (64, 16)), 16), "MN", 16)
    assert (d.lbo_bytes, d.sbo_bytes) == (0, 1024)  # one atom along MN: LBO unused (0, as CuTe)
    d2 = _ptx_desc(SwizzledSmemLayout(a.swizzle, tile_to_shape(a.layout, (128, 16)), 16), "MN", 16)
    assert (d2.lbo_bytes, d2.sbo_bytes) == (1024, 2048)
    kfirst = tile_to_shape(a.layout, (128, 16), (1, 0))
    d3 = _ptx_desc(SwizzledSmemLayout(a.swizzle, kfirst, 16), "MN", 16)
    assert (d3.lbo_bytes, d3.sbo_bytes) == (2048, 1024)


def test_mn_major_narrower_than_one_swizzle_row():
    """wgmma B with N = 8 in a 128B MN-major atom: one 16-byte unit of each row; LBO unused (0, as CuTe)."""
    a = wgmma.smem_atom("MN", "128B", 16)
    for n, blk in ((8, 7), (16, 3), (32, 1)):
        _tile, op = operand(a, (64, 16), (0, 1), (n, 16), (blk, 0))
        d = _ptx_desc(op, "MN", 16, start_address=0x400)
        assert (d.start_address, d.lbo_bytes, d.sbo_bytes) == (0x400 + blk * n * 2, 0, 1024)
        assert_model_reads_layout(d, op, "MN", 16, 0x400)
    with pytest.raises(DescriptorError, match="narrower than one 128-byte swizzle row must be contiguous and "
                                              "divide it"):
        _ptx_desc(ComposedLayout(a.swizzle, 0, Layout((24, 16), (1, 64))), "MN", 16)


def test_interleave_swap():
    """MN-major interleave: SBO is the MN stride, LBO the K stride -- the opposite of the swizzled modes."""
    a = wgmma.smem_atom("MN", "none", 16)  # 8 x 8: one core matrix
    tile = tile_to_shape(a.layout, (64, 16))  # MN units first: stride 128 B; K groups: 8 * 128 B
    d = _ptx_desc(SwizzledSmemLayout(a.swizzle, tile, 16), "MN", 16)
    assert (d.sbo_bytes, d.lbo_bytes) == (128, 1024)
    tile = tile_to_shape(a.layout, (64, 16), (1, 0))
    d = _ptx_desc(SwizzledSmemLayout(a.swizzle, tile, 16), "MN", 16)
    assert (d.sbo_bytes, d.lbo_bytes) == (256, 128)
    sw = wgmma.smem_atom("MN", "32B", 16)
    d = _ptx_desc(SwizzledSmemLayout(sw.swizzle, tile_to_shape(sw.layout, (64, 16)), 16), "MN", 16)
    assert (d.lbo_bytes, d.sbo_bytes) == (256, 1024)  # swizzled: LBO along MN, SBO along K


@pytest.mark.parametrize("major,mode,bits,tile_shape,mma_shape", [
    ("K", "none", 16, (64, 32), (64, 32)), ("K", "64B", 16, (64, 64), (64, 32)),
    ("K", "128B", 8, (64, 128), (64, 64)), ("MN", "128B", 16, (64, 32), (64, 32)),
    ("MN", "64B", 16, (64, 8), (64, 8)), ("MN", "none", 16, (64, 8), (64, 8)),
])
def test_sparse_k_sizes(major, mode, bits, tile_shape, mma_shape):
    """Sparse operands: K-major 64-byte K (2 x dense); MN-major 16-byte (sparse A), 64-byte (sparse B) K."""
    a = wgmma.smem_atom(major, mode, bits)
    for blk in ((0, 0), (0, tile_shape[1] // mma_shape[1] - 1)):
        _tile, op = operand(a, tile_shape, (0, 1), mma_shape, blk)
        d = _ptx_desc(op, major, bits, start_address=0x800)
        assert_model_reads_layout(d, op, major, bits, 0x800)
    assert mma_shape[1] * bits // 8 in (16, 64)


def test_sparse_interleave_k_needs_one_lbo():
    good = Layout(((8, 8), (8, 4)), ((8, 64), (1, 1024)))  # 4 core-matrix columns, LBO = 1024 elements
    d = _ptx_desc(good, "K", 16)
    assert d.lbo_bytes == 2048
    bad = Layout(((8, 8), (8, 2, 2)), ((8, 64), (1, 1024, 4096)))
    with pytest.raises(DescriptorError, match=r"the second stride 512 units \(8192 B\) would need to be "
                                              r"256 units"):
        _ptx_desc(bad, "K", 16)


def test_tile_anchor_base_offset():
    """Data swizzled relative to an unaligned buffer start P: base offset (P >> 7) & 7; the model reads it."""
    a = wgmma.smem_atom("K", "128B", 16)
    tile = tile_to_shape(a.layout, (64, 64))
    for p in (0x400, 0x480, 0x580, 0x780):
        sub, off = slice_and_offset((_, _, 0, 1), flat_divide(tile, (64, 16)))
        op = ComposedLayout(a.swizzle, off, sub)
        d = _ptx_desc(op, "K", 16, start_address=p, swizzle_anchor="tile")
        assert d.base_offset == (p >> 7) & 7 and d.start_address == p + 32
        assert_model_reads_layout(d, op, "K", 16, p, anchor="tile")
        # the same data read as if swizzled absolutely would be wrong unless p is on the pattern boundary
        d_abs = _ptx_desc(op, "K", 16, start_address=p)
        assert d_abs.base_offset == 0
        same = np.array_equal(d_abs.element_addresses("K", 16, (64, 16)), layout_addresses(op, 16, p, "tile"))
        assert same == (p % 1024 == 0)
    with pytest.raises(DescriptorError, match="128-byte boundary"):
        _ptx_desc(ComposedLayout(a.swizzle, 0, Layout(((8, 8), 16), ((64, 512), 1))), "K", 16,
                             start_address=0x440, swizzle_anchor="tile")


def test_start_address_from_layouts():
    a = wgmma.smem_atom("K", "32B", 16)
    s = SwizzledSmemLayout(a.swizzle, tile_to_shape(a.layout, (64, 16)), 16, base_address=0x1000)
    assert _ptx_desc(s, "K", 16).start_address == 0x1000
    assert _ptx_desc(s, "K", 16, start_address=0x1000).start_address == 0x1000
    c = ComposedLayout(a.swizzle, 8, tile_to_shape(a.layout, (64, 16)))  # offset 8 elements = 16 bytes
    assert _ptx_desc(c, "K", 16, start_address=0x1000).start_address == 0x1010
    e = SwizzledSmemLayout(Swizzle(1, 3, 3), tile_to_shape(a.layout, (64, 16)), 16, swizzle_unit="elements")
    assert _ptx_desc(e, "K", 16).layout_type == 3  # element swizzle Sw<1,3,3> == byte Sw<1,4,3>


def test_b1_k_major():
    a = wgmma.smem_atom("K", "128B", 1)  # 8 x 1024 bits
    assert atom_extent(a) == (8, 1024)
    sub, off = slice_and_offset((_, _, 0, 2), flat_divide(tile_to_shape(a.layout, (64, 1024)), (64, 256)))
    d = _ptx_desc(ComposedLayout(a.swizzle, off, sub), "K", 1, start_address=0)
    assert (d.start_address, d.lbo_bytes, d.sbo_bytes) == (64, 16, 1024)


# ------------------------------------------------------------------------------------------------
# Descriptor encode / decode / fields
# ------------------------------------------------------------------------------------------------

addresses = st.integers(0, (1 << 14) - 1).map(lambda x: x * 16)


@st.composite
def sm90_descs(draw):
    mode = draw(st.sampled_from(SM90_MODES))
    bo = draw(st.integers(0, 7)) if mode.is_swizzled else 0
    return wgmma.SmemDescriptor(draw(addresses), draw(addresses), draw(addresses), mode, bo)


@given(sm90_descs())
def test_round_trip(d):
    v = d.encode()
    assert 0 <= v < 1 << 64
    assert wgmma.SmemDescriptor.decode(v) == d
    assert (v & 0x3FFF, (v >> 16) & 0x3FFF, (v >> 32) & 0x3FFF) == (d.start_16B, d.lbo_16B, d.sbo_16B)
    assert ((v >> 49) & 7, v >> 62) == (d.base_offset, d.layout_type)


@given(st.integers(0, (1 << 64) - 1))
def test_decode_any_value_is_exact_or_rejected(v):
    try:
        d = wgmma.SmemDescriptor.decode(v)
    except DescriptorError as e:
        assert "reserved bits" in str(e) or "base_offset" in str(e)
    else:
        assert d.encode() == v


def test_field_boundaries():
    top = SMEM_WINDOW_BYTES - 16
    d = wgmma.SmemDescriptor(top, top, top, "32B", 7)
    assert d.encode() == 0x3FFF | (0x3FFF << 16) | (0x3FFF << 32) | (7 << 49) | (3 << 62)
    assert wgmma.SmemDescriptor.decode(d.encode()) == d
    z = wgmma.SmemDescriptor(0, 0, 0)
    assert z.encode() == 0 and z.layout_type == 0
    for name in ("start_address", "lbo_bytes", "sbo_bytes"):
        kw = {"start_address": 0, "lbo_bytes": 0, "sbo_bytes": 0}
        for ok in (0, 16, top):
            wgmma.SmemDescriptor(**{**kw, name: ok})
        for bad, msg in ((top + 16, "overflows the 14-bit "
                                    "field"), (8, "not a multiple of 16"), (-16, "non-negative"),
                         (1.5, "must be an int")):
            with pytest.raises(DescriptorError, match=msg):
                wgmma.SmemDescriptor(**{**kw, name: bad})
    for bo, ok in ((0, True), (7, True), (8, False), (-1, False)):
        if ok:
            assert wgmma.SmemDescriptor(0, 0, 0, "128B", bo).base_offset == bo
        else:
            with pytest.raises(DescriptorError, match=r"base_offset must be an int in \[0, 7\]"):
                wgmma.SmemDescriptor(0, 0, 0, "128B", bo)


def test_str_shows_every_field():
    d = wgmma.SmemDescriptor(0x1230, 0x40, 0x400, "64B", 3)
    s = str(d)
    for piece in (f"{d.encode():#018x}", "start_address = 0x01230", "lbo           = 64 B (field 4)",
                  "sbo           = 1024 B (field 64)", "base_offset   = 3", "layout_type   = 2 (64B)"):
        assert piece in s


def test_advance_rules():
    d = wgmma.SmemDescriptor(0x400, 16, 1024, "128B")
    assert d.advance(1024, major="K").start_address == 0x800  # next 8-row group / atom
    assert d.advance(8192).start_address == 0x2400
    with pytest.raises(DescriptorError, match="from row 0 to row 1"):
        d.advance(128, major="K")
    with pytest.raises(DescriptorError, match="not a multiple of 16"):
        d.advance(8)
    with pytest.raises(DescriptorError, match="leaves the 256 KiB"):
        d.advance(SMEM_WINDOW_BYTES)
    mn = wgmma.SmemDescriptor(0, 1024, 2048, "128B")
    assert mn.advance(2048, major="MN").start_address == 2048
    with pytest.raises(DescriptorError, match="whole 8-row swizzle atoms"):
        mn.advance(128, major="MN")
    # with a base offset the rows are counted from the pattern start
    t = wgmma.SmemDescriptor(0x480, 16, 1024, "128B", 1)
    assert t.advance(96, major="K").start_address == 0x4E0
    with pytest.raises(DescriptorError, match="run past"):
        t.advance(112, major="K")


def test_swizzled_address_model():
    d = wgmma.SmemDescriptor(0, 16, 1024, "128B")
    a = np.arange(4096)
    np.testing.assert_array_equal(d.swizzled_address(a), Swizzle(3, 4, 3)(a))
    d3 = wgmma.SmemDescriptor(0, 16, 1024, "128B", 3)
    # pattern row 0 at line 3: line 3 is unpermuted, line 4 XORs by 1
    assert d3.swizzled_address(3 * 128 + 16) == 3 * 128 + 16
    assert d3.swizzled_address(4 * 128) == 4 * 128 + 16


# ------------------------------------------------------------------------------------------------
# Bad inputs: type and message
# ------------------------------------------------------------------------------------------------

_K128 = wgmma.smem_atom("K", "128B", 16)
_K_TILE = Layout(((8, 8), 16), ((64, 512), 1))  # K block 0 of a 64x64 SW128 bf16 tile
_MN128 = wgmma.smem_atom("MN", "128B", 16)

BAD = [
    # (id, callable, exception type, message regex)
    ("non-injective PTX example", lambda: _ptx_desc(parse(PTX_EXAMPLES[1][4]), "K", 32),
     DescriptorError, "not injective"),
    ("K-major rows not at the 128B pitch", lambda: _ptx_desc(
        ComposedLayout(Swizzle(3, 4, 3), 0, Layout(((8, 8), 16), ((32, 512), 1))), "K", 16),
     DescriptorError, r"mode 0 \(MN\): the 8 rows of a core matrix must be 8 units \(128 B.*use Sw<2,4,3>"),
    ("swizzle does not match the atom (64B data, 32B swizzle)", lambda: _ptx_desc(
        ComposedLayout(Swizzle(1, 4, 3), 0, Layout(((8, 8), 16), ((32, 512), 1))), "K", 16),
     DescriptorError, r"row pitch of the 64B mode: the swizzle does not match the atom"),
    ("8-row groups not one stride apart", lambda: _ptx_desc(
        ComposedLayout(Swizzle(3, 4, 3), 0, Layout(((8, 2, 4), 16), ((64, 512, 2048), 1))), "K", 16),
     DescriptorError, r"8-row core-matrix groups must all be one stride \(SBO\) apart.*would need to be 128 "
                      r"units \(2048 B\)"),
    ("K not contiguous in a swizzled K-major row", lambda: _ptx_desc(
        ComposedLayout(Swizzle(3, 4, 3), 0, Layout(((8, 8), (8, 2)), ((64, 512), (1, 16)))), "K", 16),
     DescriptorError, r"mode 1 \(K\): the 2 K units of a K-major swizzled row must be contiguous.*"
                      r"needed 2:1"),
    ("K-major leading mode not contiguous", lambda: _ptx_desc(
        Layout(((8, 8), (4, 4)), ((8, 64), (1, 512))), "K", 16),
     DescriptorError, r"must start with 8 contiguous elements.*needed 8:1"),
    ("stride not a multiple of 16 bytes", lambda: _ptx_desc(
        Layout(((8, 8), (8, 2)), ((12, 96), (1, 960))), "K", 16),
     DescriptorError, r"stride 12 elements \(24 bytes\), not a multiple of 8 elements \(16 bytes\)"),
    ("wrong K extent (whole tile)", lambda: _ptx_desc(
        SwizzledSmemLayout(_K128.swizzle, tile_to_shape(_K128.layout, (64, 64)), 16), "K", 16),
     DescriptorError, r"wrong K extent: .* 64 16-bit elements = 128 bytes"),
    ("wrong K extent (MN-major)", lambda: _ptx_desc(
        SwizzledSmemLayout(_MN128.swizzle, tile_to_shape(_MN128.layout, (64, 24)), 16), "MN", 16),
     DescriptorError, r"wrong K extent"),
    ("misaligned start address", lambda: _ptx_desc(
        ComposedLayout(_K128.swizzle, 0, _K_TILE), "K", 16, start_address=0x408),
     DescriptorError, r"misaligned start address.*nearest valid: 0x400"),
    ("misaligned by the composed offset", lambda: _ptx_desc(
        ComposedLayout(_K128.swizzle, 4, _K_TILE), "K", 16, start_address=0x400),
     DescriptorError, "misaligned start address"),
    ("start address outside the window", lambda: _ptx_desc(
        ComposedLayout(_K128.swizzle, 0, _K_TILE), "K", 16, start_address=SMEM_WINDOW_BYTES),
     DescriptorError, "256 KiB"),
    ("SBO overflow", lambda: _ptx_desc(
        Layout(((8, 8), (8, 2)), ((8, 1 << 17), (1, 64))), "K", 16),
     DescriptorError, r"SBO overflow: the stride between 8-row groups is 16384 units = 262144 bytes"),
    ("LBO overflow", lambda: _ptx_desc(
        Layout(((8, 8), (8, 2)), ((8, 64), (1, 1 << 17))), "K", 16),
     DescriptorError, r"LBO overflow"),
    ("4-bit wgmma", lambda: _ptx_desc(Layout((8, 64), (64, 1)), "K", 4),
     DescriptorError, r"sm90 wgmma has no 4-bit operand type"),
    ("6-bit", lambda: _ptx_desc(Layout((8, 64), (64, 1)), "K", 6),
     DescriptorError, r"6-bit elements have no packed shared-memory form.*element_bits=8"),
    ("64-bit descriptor", lambda: _ptx_desc(Layout((8, 4), (4, 1)), "K", 64),
     DescriptorError, r"64-bit elements are not allowed for descriptors"),
    ("tf32 MN-major on wgmma", lambda: _ptx_desc(
        SwizzledSmemLayout(Swizzle(3, 4, 3), Layout((32, 8), (1, 32)), 32), "MN", 32),
     DescriptorError, r"wgmma transposes .* only .f16/.bf16"),
    ("base32B swizzle on sm90", lambda: _ptx_desc(
        ComposedLayout(Swizzle(2, 5, 2), 0, Layout((32, 8), (1, 32))), "MN", 16),
     DescriptorError, "128B_base32B mode, which sm90 wgmma.mma_async does not support"),
    ("element-unit swizzle passed as bytes", lambda: _ptx_desc(
        ComposedLayout(Swizzle(3, 3, 3), 0, _K_TILE), "K", 16),
     DescriptorError, r"Sw<3,3,3> is not the byte map.*element offsets.*Sw<3,4,3>"),
    ("XOR map that is no swizzle mode", lambda: _ptx_desc(
        ComposedLayout(XorSwizzle([(7, 5), (8, 6), (7, 3)]), 0, _K_TILE), "K", 16),
     DescriptorError, "not a single Swizzle"),
    ("int swizzle in a descriptor", lambda: wgmma.SmemDescriptor(0, 16, 1024, 1), DescriptorError,
     "ambiguous"),
    ("bad major", lambda: _ptx_desc(_K_TILE, "M", 16), DescriptorError,
     "major must be 'K' or 'MN'"),
    ("rank 3", lambda: _ptx_desc(Layout((8, 8, 2)), "K", 16), DescriptorError, "has rank 3"),
    ("symbolic layout", lambda: _ptx_desc(wgmma.canonical_layout("K", "128B", T=8), "K", 16),
     DescriptorError, "unbound symbols"),
    ("not a layout", lambda: _ptx_desc("(8,8):(8,1)", "K", 16), DescriptorError, "got str"),
    ("MN rows not a multiple of 8", lambda: _ptx_desc(Layout((12, 16), (16, 1)), "K", 16),
     DescriptorError, r"core matrices have 8 rows"),
    ("MN-major MN not whole atoms", lambda: _ptx_desc(
        ComposedLayout(Swizzle(3, 4, 3), 0, Layout((96, 16), (1, 96))), "MN", 16),
     DescriptorError, r"the 8 rows of a core matrix must be 8 units|not a multiple of the 8-unit"),
    ("negative stride", lambda: _ptx_desc(Layout((8, 16), (-16, 1)), "K", 16),
     DescriptorError, "negative stride"),
    ("start address not an int", lambda: _ptx_desc(_K_TILE, "K", 16, start_address=1.0),
     DescriptorError, "start_address must be a non-negative int"),
    ("bad anchor", lambda: _ptx_desc(_K_TILE, "K", 16, swizzle_anchor="relative"),
     DescriptorError, "swizzle_anchor must be"),
    ("SwizzledSmemLayout bits mismatch", lambda: _ptx_desc(
        SwizzledSmemLayout(_K128.swizzle, _K_TILE, 16), "K", 8),
     DescriptorError, "holds 16-bit elements but element_bits=8"),
    ("base_offset without swizzle", lambda: wgmma.SmemDescriptor(0, 16, 128, "none", 2),
     DescriptorError, "valid only for the swizzled modes"),
    ("decode reserved bits", lambda: wgmma.SmemDescriptor.decode(1 << 52), DescriptorError, "reserved bits"),
    ("decode out of range", lambda: wgmma.SmemDescriptor.decode(1 << 64), DescriptorError, "64-bit"),
    ("unknown canonical symbol", lambda: wgmma.canonical_layout("K", "128B", N=8), DescriptorError,
     "unknown symbol"),
    ("canonical T contradicts bits", lambda: wgmma.canonical_layout("K", "128B", T=4, element_bits=16),
     DescriptorError, "contradicts"),
    ("unknown swizzle name", lambda: wgmma.canonical_layout("K", "256B"), DescriptorError,
     "cannot parse '256B'"),
    ("PTX-only swizzle mode", lambda: wgmma.canonical_layout("K", "96B"), DescriptorError,
     "96B swizzle mode does not exist on sm90"),
    ("TMA-only mode in a descriptor", lambda: wgmma.SmemDescriptor(0, 16, 128, "128B_ATOM_64B"),
     DescriptorError, "TMA-only"),
    ("TMA-only mode", lambda: SwizzleMode.from_tma(5), DescriptorError, "TMA-only"),
    ("tcgen05 layout type 3", lambda: SwizzleMode.from_tcgen05_layout_type(3), DescriptorError, "invalid"),
    ("wgmma layout type of base32B", lambda: SwizzleMode.B128_BASE32B.wgmma_layout_type, DescriptorError,
     "no layout type"),
    ("mode int out of range", lambda: SwizzleMode.parse(7), DescriptorError, "CUtensorMapSwizzle"),
    ("advance into the next row", lambda: wgmma.SmemDescriptor(0, 16, 1024, "128B").advance(128, major="K"),
     DescriptorError, "next K atom is not the next row"),
]


@pytest.mark.parametrize("case", BAD, ids=[c[0] for c in BAD])
def test_bad_inputs(case):
    _id, fn, exc, msg = case
    with pytest.raises(exc, match=msg) as info:
        fn()
    assert isinstance(info.value, LayoutError)


def test_at_least_25_bad_inputs():
    assert len(BAD) >= 25


# ------------------------------------------------------------------------------------------------
# Self-consistency: every accepted tile slice is read back exactly by the descriptor's model
# ------------------------------------------------------------------------------------------------


def _cases(lib, modes, types, majors=("K", "MN")):
    out = []
    for major in majors:
        for mode in modes:
            for bits in types:
                try:
                    atom = lib.smem_atom(major, mode, bits)
                except DescriptorError:
                    continue
                mna, ka = atom_extent(atom)
                k_inst = 256 // bits
                mn0 = max(64, mna)
                k0 = lcm(ka, k_inst)
                # wgmma cannot read MN-major non-16-bit operands: fewer shapes (test_umma covers them fully)
                few = major == "MN" and bits != 16
                for mn_t in (mn0,) if few else (mn0, 2 * mn0):
                    for k_t in (k0,) if few else (k0, 2 * k0):
                        for order in ((0, 1), (1, 0)):
                            mma = (mn_t // 2 if mn_t // 2 >= mna and mn_t // 2 >= 8 else mn_t, k_inst)
                            blocks = {(0, 0), (mn_t // mma[0] - 1, k_t // k_inst - 1)}
                            for blk in sorted(blocks):
                                out.append((major, mode, bits, (mn_t, k_t), order, mma, blk))
    return out


def _sparse_cases(lib, modes, types):
    """Sparse K extents: K-major 64 bytes; MN-major 16 bytes (sparse A) and 64 bytes (sparse B)."""
    out = []
    for major in ("K", "MN"):
        for mode in modes:
            for bits in types:
                try:
                    atom = lib.smem_atom(major, mode, bits)
                except DescriptorError:
                    continue
                mna, ka = atom_extent(atom)
                for k_m in ([512 // bits] if major == "K" else [128 // bits, 512 // bits]):
                    mn_t, k_t = max(64, mna), 2 * lcm(ka, k_m)
                    for order in ((0, 1), (1, 0)):
                        out.append((major, mode, bits, (mn_t, k_t), order, (mn_t, k_m), (0, k_t // k_m - 1)))
    return out


def _narrow_cases():
    """MN-major operands narrower than one swizzle row (wgmma N = 8, 16, 32): LBO unused."""
    out = []
    for mode in ("32B", "64B", "128B"):
        mna = SwizzleMode.parse(mode).width_bytes // 2
        for mn_m in (8, 16, 32):
            if mn_m < mna:
                for order in ((0, 1), (1, 0)):
                    out.append(("MN", mode, 16, (mna, 32), order, (mn_m, 16), (mna // mn_m - 1, 1)))
    return out


SM90_CASES = _cases(wgmma, ["none", "32B", "64B", "128B"], (32, 16, 8)) + \
    _sparse_cases(wgmma, ["none", "32B", "64B", "128B"], (16, 8)) + _narrow_cases()


def _cute_is_laxer(case) -> bool:
    """CuTe accepts a K-major sparse operand wider than a 32B swizzle row without checking its second half."""
    major, mode, bits, _t, _o, (mn_m, k_m), _b = case
    m = SwizzleMode.parse(mode)
    return major == "K" and m.is_swizzled and k_m * bits > m.width_bytes * 8


@pytest.mark.parametrize("case", SM90_CASES[::3], ids=str)
def test_model_reads_every_tile_slice(case):
    major, mode, bits, tshape, order, mma, blk = case
    atom = umma.smem_atom(major, mode, bits)  # geometry: sm100 accepts every major/type combination here
    _tile, op = operand(atom, tshape, order, mma, blk)
    if _cute_is_laxer(case):
        with pytest.raises(DescriptorError, match="has no K stride"):
            _ptx_umma_desc(op, major, bits)
        return
    d = _ptx_umma_desc(op, major, bits, start_address=0x8000)
    assert_model_reads_layout(d, op, major, bits, 0x8000)
    if major == "K" or bits == 16:
        d90 = _ptx_desc(op, major, bits, start_address=0x8000)
        assert (d90.start_address, d90.lbo_bytes, d90.sbo_bytes, d90.base_offset) == \
            (d.start_address, d.lbo_bytes, d.sbo_bytes, d.base_offset)
    else:
        with pytest.raises(DescriptorError, match="only .f16/.bf16"):
            _ptx_desc(op, major, bits)


# ------------------------------------------------------------------------------------------------
# Differential: CuTe C++ make_gmma_desc
# ------------------------------------------------------------------------------------------------

CXX_TYPE = {32: "tfloat32_t", 16: "half_t", 8: "float_e4m3_t", 4: "float_e2m1_t"}
CXX_ATOM = {"none": "INTER", "32B": "SW32", "64B": "SW64", "128B": "SW128"}
CXX_PREAMBLE = r"""
alignas(1024) static unsigned char oracle_smem[1 << 21];
template <SM90::GMMA::Major M, class T, class Tile, class Mma>
std::string oracle_gmma(Tile const& tile, Mma const& mma, int i, int k) {
  auto t = make_tensor(make_smem_ptr<T>(reinterpret_cast<T*>(oracle_smem)), tile);
  auto s = flat_divide(t, mma)(_, _, i, k);
  auto d = SM90::GMMA::make_gmma_desc<M>(s);
  std::ostringstream os;
  os << int(d.bitfield.leading_byte_offset_) << " " << int(d.bitfield.stride_byte_offset_) << " "
     << int(d.bitfield.layout_type_) << " " << int(d.bitfield.base_offset_) << " " << uint64_t(d.desc_)
     << " | " << s.layout() << " | " << tile;
  return os.str();
}
"""


def _cxx_expr(case) -> str:
    major, mode, bits, (mn_t, k_t), order, (mn_m, k_m), (i, k) = case
    t = CXX_TYPE[bits]
    step = "Step<_1,_2>" if order == (0, 1) else "Step<_2,_1>"
    return (f"oracle_gmma<SM90::GMMA::Major::{major}, "
            f"{t}>(tile_to_shape(GMMA::Layout_{major}_{CXX_ATOM[mode]}_Atom<{t}>{{}}, "
            f"Shape<Int<{mn_t}>,Int<{k_t}>>{{}}, {step}{{}}), Shape<Int<{mn_m}>,Int<{k_m}>>{{}}, {i}, {k})")


def _cute_layout(text: str) -> Layout:
    import oracles

    return parse(oracles.normalize(text))


@pytest.fixture(scope="module")
def gmma_oracle():
    import oracles

    oracles.skip_without_cxx()
    batch = oracles.CuteBatch(preamble=CXX_PREAMBLE, extra_includes=["cute/atom/mma_traits_sm90_gmma.hpp"])
    for case in SM90_CASES:
        batch.add(_cxx_expr(case))
    return batch.run()


@pytest.mark.oracle
def test_differential_make_gmma_desc(gmma_oracle):
    import oracles

    agree = rejected_both = wgmma_type_rule = cute_laxer = bitexact = 0
    for case, res in zip(SM90_CASES, gmma_oracle, strict=True):
        major, mode, bits, tshape, order, mma, blk = case
        atom = umma.smem_atom(major, mode, bits)
        tile, op = operand(atom, tshape, order, mma, blk)
        if isinstance(res, oracles.OracleError):
            with pytest.raises(DescriptorError):
                _ptx_umma_desc(op, major, bits)
            rejected_both += 1
            continue
        fields, slice_text, tile_text = (x.strip() for x in res.split("|"))
        lbo, sbo, lt, bo, raw = (int(x) for x in fields.split())
        # our tile and slice are CuTe's (as functions)
        (b, m, s), _off, (shape, stride) = oracles.parse_composed(oracles.normalize(tile_text))
        assert Swizzle(b, m, s) == atom.swizzle
        np.testing.assert_array_equal(Layout(shape, stride).to_numpy(), tile.to_numpy())
        np.testing.assert_array_equal(_cute_layout(slice_text).to_numpy(), op.inner.to_numpy())
        if _cute_is_laxer(case):
            with pytest.raises(DescriptorError, match="has no K stride"):
                _ptx_umma_desc(op, major, bits)
            cute_laxer += 1
            continue
        geo = _ptx_umma_desc(op, major, bits)
        assert (geo.lbo_16B, geo.sbo_16B, geo.base_offset) == (lbo, sbo, bo), case
        assert SwizzleMode.from_wgmma_layout_type(lt) is geo.swizzle
        if major == "K" or bits == 16:
            d = _ptx_desc(op, major, bits)
            assert (d.lbo_16B, d.sbo_16B, d.layout_type) == (lbo, sbo, lt)
            if blk == (0, 0):  # CuTe's host build cannot convert the smem pointer: start address 0
                assert d.encode() == raw, (case, hex(d.encode()), hex(raw))
                bitexact += 1
            agree += 1
        else:
            # CuTe builds it; wgmma cannot transpose non-16-bit operands: we reject, with the same geometry
            with pytest.raises(DescriptorError, match="only .f16/.bf16"):
                _ptx_desc(op, major, bits)
            wgmma_type_rule += 1
    print(f"make_gmma_desc differential: {agree} agree ({bitexact} bit-exact 64-bit values), {rejected_both} "
          f"rejected by both, {wgmma_type_rule} MN-major non-16-bit (same geometry, rejected by the wgmma "
          f"type rule), {cute_laxer} sparse K-major wider than the swizzle row (CuTe accepts unchecked; we "
          "reject)")
    assert agree > 50


@pytest.mark.oracle
def test_differential_atoms_match_cute():
    import oracles

    oracles.skip_without_cxx()
    cases = [(mj, mode, bits) for mj in ("K", "MN") for mode in CXX_ATOM for bits in (32, 16, 8)]
    batch = oracles.CuteBatch(extra_includes=["cute/atom/mma_traits_sm90_gmma.hpp"])
    for mj, mode, bits in cases:
        batch.add(f"GMMA::Layout_{mj}_{CXX_ATOM[mode]}_Atom<{CXX_TYPE[bits]}>{{}}")
    for (mj, mode, bits), res in zip(cases, batch.run(), strict=True):
        (b, m, s), off, (shape, stride) = oracles.parse_composed(oracles.normalize(res))
        a = wgmma.smem_atom(mj, mode, bits)
        assert (Swizzle(b, m, s), off, Layout(shape, stride)) == (a.swizzle, 0, a.layout)


# layouts CuTe's make_gmma_desc rejects (static_assert) and we reject with a message
CXX_REJECT = [
    # (C++ tile expression, mma shape, python ComposedLayout, major, bits, message)
    ("tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_64,_64>{})", "Shape<_64,_64>",
     ComposedLayout(Swizzle(3, 4, 3), 0, tile_to_shape(Layout((8, 64), (64, 1)), (64, 64))), "K", 16,
     "wrong K extent"),
    ("composition(Swizzle<3,4,3>{}, smem_ptr_flag_bits<16>{}, "
     "Layout<Shape<Shape<_8,_8>,_16>,Stride<Stride<_32,_512>,_1>>{})",
     "Shape<_64,_16>", ComposedLayout(Swizzle(3, 4, 3), 0, Layout(((8, 8), 16), ((32, 512), 1))), "K", 16,
     "rows of a core matrix must be 8 units"),
    ("composition(Swizzle<2,4,3>{}, smem_ptr_flag_bits<16>{}, "
     "Layout<Shape<Shape<_8,_8>,Shape<_8,_2>>,Stride<Stride<_1,_16>,Stride<_128,_1024>>>{})",
     "Shape<_64,_16>", ComposedLayout(Swizzle(2, 4, 3), 0, Layout(((8, 8), (8, 2)), ((1, 16), (128, 1024)))),
     "MN", 16,
     "the 4 units of one 64-byte swizzle row must be contiguous"),
    ("composition(Swizzle<1,4,3>{}, smem_ptr_flag_bits<16>{}, "
     "Layout<Shape<_64,Shape<_8,_2>>,Stride<_1,Stride<_64,_512>>>{})",
     "Shape<_64,_16>", ComposedLayout(Swizzle(1, 4, 3), 0, Layout((64, (8, 2)), (1, (64, 512)))), "MN", 16,
     "rows of a core matrix must be 2 units"),
]


@pytest.mark.oracle
def test_differential_rejections():
    import oracles

    oracles.skip_without_cxx()
    batch = oracles.CuteBatch(preamble=CXX_PREAMBLE, extra_includes=["cute/atom/mma_traits_sm90_gmma.hpp"])
    for tile, mma, _op, major, _bits, _msg in CXX_REJECT:
        batch.add(f"oracle_gmma<SM90::GMMA::Major::{major}, half_t>({tile}, {mma}{{}}, 0, 0)")
    for (tile, _mma, op, major, bits, msg), res in zip(CXX_REJECT, batch.run(), strict=True):
        assert isinstance(res, oracles.CompileError), (tile, res)
        with pytest.raises(DescriptorError, match=msg):
            _ptx_desc(op, major, bits)


# layouts CuTe's make_gmma_desc accepts without complaint although they store two elements in one place
CXX_LAXER = [
    ("composition(Swizzle<2,4,3>{}, smem_ptr_flag_bits<16>{}, "
     "Layout<Shape<_64,Shape<_8,_2>>,Stride<_1,Stride<_32,_2048>>>{})",
     "Shape<_64,_16>", ComposedLayout(Swizzle(2, 4, 3), 0, Layout((64, (8, 2)), (1, (32, 2048)))), "MN", 16),
    ("composition(Swizzle<1,4,3>{}, smem_ptr_flag_bits<32>{}, "
     "Layout<Shape<Shape<_8,_2>,_8>,Stride<Stride<_8,_64>,_1>>{})",
     "Shape<_16,_8>", ComposedLayout(Swizzle(1, 4, 3), 0, parse("((8,2),8):((8,64),1)")), "K", 32),
]


@pytest.mark.oracle
def test_differential_cute_accepts_non_injective():
    """CuTe reads strides only; a layout whose MN atoms overlap its K rows still gets a descriptor there."""
    import oracles

    oracles.skip_without_cxx()
    batch = oracles.CuteBatch(preamble=CXX_PREAMBLE, extra_includes=["cute/atom/mma_traits_sm90_gmma.hpp"])
    for tile, mma, _op, major, bits in CXX_LAXER:
        batch.add(f"oracle_gmma<SM90::GMMA::Major::{major}, {CXX_TYPE[bits]}>({tile}, {mma}{{}}, 0, 0)")
    results = batch.run()
    first = results[0]
    assert isinstance(first, str) and first.startswith("4 256 2 0 "), first  # LBO 64 B: overlaps the K rows
    with pytest.raises(DescriptorError, match="not injective"):
        _ptx_desc(CXX_LAXER[0][2], "MN", 16)
    # the control: the same strides with K rows that clear both MN atoms are fine for both
    second = results[1]
    assert isinstance(second, str) and second.startswith("1 16 3 0 "), second
    assert _ptx_desc(CXX_LAXER[1][2], "K", 32).sbo_16B == 16


# ------------------------------------------------------------------ tiles off the swizzle row (found by proofs)


def test_advance_counts_rows_from_the_tile_start() -> None:
    from pycute_layouts import ComposedLayout, _, flat_divide, tile_to_shape

    a = wgmma.smem_atom("K", "128B", 16)
    tile = ComposedLayout(a.swizzle, 0, tile_to_shape(a.layout, (64, 64)))
    descs = [_ptx_desc(flat_divide(tile, (64, 16))(_, _, 0, k), "K", 16, start_address=0x4A0)
             for k in range(4)]
    assert [descs[0].advance(32 * k, major="K", tile_start=0x4A0) for k in range(4)] == descs
    with pytest.raises(DescriptorError, match="row 1 to row 2"):   # rows counted from the pattern boundary
        descs[0].advance(96, major="K")
    with pytest.raises(DescriptorError, match="row 0 to row 1"):   # a whole row is still not a K step
        descs[0].advance(128, major="K", tile_start=0x4A0)
    for bad in (-16, 1.5, True, "0x4a0"):
        with pytest.raises(DescriptorError, match="tile_start must be a non-negative int"):
            descs[0].advance(32, major="K", tile_start=bad)


def test_canonical_layout_takes_zero_for_an_unread_stride() -> None:
    # make_smem_desc encodes 0 (or 1) for LBO of K-major swizzled layouts: the table must accept it
    assert str(wgmma.canonical_layout("K", "128B", element_bits=16, LBO=0, SBO=1024, m=1, k=1)) == \
        str(wgmma.canonical_layout("K", "128B", element_bits=16, LBO=16, SBO=1024, m=1, k=1))
    with pytest.raises(DescriptorError, match="SBO must be a non-negative integer"):
        wgmma.canonical_layout("K", "128B", element_bits=16, SBO=-1)
    with pytest.raises(DescriptorError, match="m must be a positive integer"):
        wgmma.canonical_layout("K", "128B", element_bits=16, m=0)
