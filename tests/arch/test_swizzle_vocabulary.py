"""The one swizzle-mode vocabulary reproduces every fact the old tables gave, and every old spelling parses.

The expected values below are literals copied from the tables that existed before the vocabularies
were merged (``arch/swizzle_modes.py``'s ``_FACTS`` and ``arch/tma/maps.py``'s ``TmaSwizzle`` /
``_MODE_INFO`` / ``_SUFFIX``, and ``arch/im2col.py``'s ``_SWIZZLES``), which restate the PTX ISA
(reference 000: pattern tables, spans, atomicity, boundaries; reference 003: wgmma layout types) and
the driver's ``CUtensorMapSwizzle`` enum (reference 002, which the last test reads directly when present).
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from pycute_layouts import Swizzle, XorSwizzle
from pycute_layouts.arch import tma
from pycute_layouts.arch.swizzle_modes import IM2COL_W_MODES, MMA_MODES, WGMMA_MODES, SwizzleMode
from pycute_layouts.errors import DescriptorError, SwizzleModeError, TensorMapError

DRIVER_REFERENCE = Path("/work/shared/reference/002_3da36c96ee0a361e.txt")

# Old arch/swizzle_modes.py _FACTS, plus the derived columns its properties gave:
# member -> (short name, Sw<B,M,S>, wgmma layout type, tcgen05 layout type, CUtensorMapSwizzle,
#            width bytes, atomicity bytes, pattern boundary bytes, period bytes, atom rows, atom bytes)
OLD_MMA = {
    "INTERLEAVE": ("none", (0, 4, 3), 0, 0, 0, 16, 16, 16, 1, 8, 128),
    "B32": ("32B", (1, 4, 3), 3, 6, 1, 32, 16, 256, 256, 8, 256),
    "B64": ("64B", (2, 4, 3), 2, 4, 2, 64, 16, 512, 512, 8, 512),
    "B128": ("128B", (3, 4, 3), 1, 2, 3, 128, 16, 1024, 1024, 8, 1024),
    "B128_BASE32B": ("128B_base32B", (2, 5, 2), None, 1, 4, 128, 32, 1024, 512, 4, 512),
}

# Old arch/tma/maps.py TmaSwizzle and _MODE_INFO:
# old member -> (value, driver suffix, span, atomicity, flip_8b, period, pattern boundary, base-offset modulus,
#                required alignment, byte-map XOR pairs, min_arch)
OLD_TMA = {
    "NONE": (0, "NONE", None, None, False, 128, None, 1, 128, (), "sm90"),
    "B32": (1, "32B", 32, 16, False, 256, 256, 2, 128, ((7, 4),), "sm90"),
    "B64": (2, "64B", 64, 16, False, 512, 512, 4, 128, ((7, 4), (8, 5)), "sm90"),
    "B128": (3, "128B", 128, 16, False, 1024, 1024, 8, 128, ((7, 4), (8, 5), (9, 6)), "sm90"),
    "B128_ATOM_32B": (4, "128B_ATOM_32B", 128, 32, False, 512, 1024, 8, 128, ((7, 5), (8, 6)), "sm100"),
    "B128_ATOM_32B_FLIP_8B": (5, "128B_ATOM_32B_FLIP_8B", 128, 32, True, 512, 1024, 8, 128,
                              ((7, 3), (7, 5), (8, 6)), "sm100"),
    "B128_ATOM_64B": (6, "128B_ATOM_64B", 128, 64, False, 256, 1024, 8, 128, ((7, 6),), "sm100"),
    "B96": (96, "96B", 96, 16, False, 256, 256, 2, 128, ((7, 4),), "sm90"),
}
# The renames: old TmaSwizzle member -> member of the one vocabulary.
TMA_RENAME = {"NONE": "INTERLEAVE", "B32": "B32", "B64": "B64", "B128": "B128", "B128_ATOM_32B": "B128_BASE32B",
              "B128_ATOM_32B_FLIP_8B": "B128_ATOM_32B_FLIP_8B", "B128_ATOM_64B": "B128_ATOM_64B", "B96": "B96"}

# Old arch/im2col.py _SWIZZLES (index = CUtensorMapSwizzle value) and the modes its im2col::w check accepted.
OLD_IM2COL = ("NONE", "32B", "64B", "128B", "128B_ATOM_32B", "128B_ATOM_32B_FLIP_8B", "128B_ATOM_64B")
OLD_IM2COL_W_OK = ("64B", "128B", "128B_ATOM_32B")


@pytest.mark.parametrize("name", list(OLD_MMA))
def test_member_reproduces_the_old_mma_table(name: str) -> None:
    m = SwizzleMode[name]
    short, bms, wg, tc, cu, width, atom, boundary, period, rows, atom_bytes = OLD_MMA[name]
    assert m.short_name == short and str(m) == short
    assert m.byte_swizzle == Swizzle(*bms) and m.byte_map == Swizzle(*bms)
    assert (m.wgmma_layout_type if m.on_wgmma else None) == wg
    assert m.tcgen05_layout_type == tc == m.umma_layout_type
    assert m.tma_swizzle == cu == int(m)
    assert (m.width_bytes, m.width_16B, m.atomicity_bytes) == (width, width // 16, atom)
    assert (m.pattern_boundary_bytes, m.base_alignment_bytes, m.period_bytes) == (boundary, boundary, period)
    assert (m.atom_rows, m.atom_bytes) == (rows, atom_bytes)
    assert m.period_bytes == m.byte_swizzle.period  # the old period was Swizzle.period
    assert m.is_mma and m.on_tcgen05 and m.on_tma


@pytest.mark.parametrize("old", list(OLD_TMA))
def test_member_reproduces_the_old_tma_table(old: str) -> None:
    m = SwizzleMode[TMA_RENAME[old]]
    value, suffix, span, atom, flip, period, boundary, modulus, align, pairs, arch = OLD_TMA[old]
    assert int(m) == value and m.tma_name == suffix
    assert m.driver_name == (None if old == "B96" else "CU_TENSOR_MAP_SWIZZLE_" + suffix)
    assert m.on_tma is (old != "B96") and m.encodable is (old != "B96")
    assert m.min_arch == arch and m.flip_8b is flip and m.span_bytes == span
    assert m.xor_pairs == pairs
    info = tma.swizzle_mode_info(m)
    assert info.mode is m
    assert (info.span_bytes, info.atomicity_bytes, info.flip_8b, info.period_bytes, info.pattern_boundary_bytes,
            info.base_offset_modulus, info.required_alignment_bytes) == (span, atom, flip, period, boundary,
                                                                         modulus, align)
    f = info.byte_map
    assert (f.to_xor().pairs if isinstance(f, Swizzle) else f.pairs) == pairs
    x = np.arange(1 << 12)
    want = x.copy()
    for s, t in pairs:  # the old tables' maps, applied as plain XORs of address bits
        want ^= ((x >> s) & 1) << t
    np.testing.assert_array_equal(f(x), want)


def test_the_old_tma_codes_are_the_enum_values_and_the_old_im2col_strings_are_the_tma_names() -> None:
    assert [int(m) for m in SwizzleMode] == [0, 1, 2, 3, 4, 5, 6, 96]
    assert [m.tma_name for m in SwizzleMode][:7] == list(OLD_IM2COL)
    for i, s in enumerate(OLD_IM2COL):
        assert SwizzleMode.parse(i) is SwizzleMode.parse(s) is SwizzleMode.parse("CU_TENSOR_MAP_SWIZZLE_" + s)
    assert [m.tma_name for m in IM2COL_W_MODES] == list(OLD_IM2COL_W_OK)


def test_capability_flags() -> None:
    flags = {m.name: (m.on_wgmma, m.on_tcgen05, m.on_tma, m.on_im2col_w) for m in SwizzleMode}
    assert flags == {
        "INTERLEAVE": (True, True, True, False),
        "B32": (True, True, True, False),
        "B64": (True, True, True, True),
        "B128": (True, True, True, True),
        "B128_BASE32B": (False, True, True, True),
        "B128_ATOM_32B_FLIP_8B": (False, False, True, False),
        "B128_ATOM_64B": (False, False, True, False),
        "B96": (False, False, False, False),
    }
    assert [m.name for m in MMA_MODES] == list(OLD_MMA)
    assert [m.name for m in WGMMA_MODES] == ["INTERLEAVE", "B32", "B64", "B128"]


@pytest.mark.parametrize("mode", ["B128_BASE32B", "B128_ATOM_32B_FLIP_8B", "B128_ATOM_64B", "B96"])
def test_units_refuse_the_modes_they_lack(mode: str) -> None:
    m = SwizzleMode[mode]
    with pytest.raises(DescriptorError, match="wgmma \\(sm90\\) has no layout type"):
        _ = m.wgmma_layout_type
    if not m.on_tcgen05:
        with pytest.raises(DescriptorError, match="tcgen05 \\(sm100\\) has no layout type"):
            _ = m.tcgen05_layout_type
    if not m.on_tma:
        with pytest.raises(TensorMapError, match="PTX-only"):
            _ = m.tma_swizzle
    if m.flip_8b:
        with pytest.raises(SwizzleModeError, match="not a single Swizzle"):
            _ = m.byte_swizzle


# Every spelling some old vocabulary, the CLI help, a spec file or a doc accepted, and the member it names.
OLD_SPELLINGS = [
    # old SwizzleMode: short names, member names, CuTe's SWIZZLE_* names, SW* names, case and '-'
    ("none", "INTERLEAVE"), ("NONE", "INTERLEAVE"), ("interleave", "INTERLEAVE"), ("INTERLEAVE", "INTERLEAVE"),
    ("interleaved", "INTERLEAVE"), ("SWIZZLE_NONE", "INTERLEAVE"), ("32B", "B32"), ("32b", "B32"), ("B32", "B32"),
    ("SW32", "B32"), ("SWIZZLE_32B", "B32"), ("64B", "B64"), ("B64", "B64"), ("SW64", "B64"),
    ("SWIZZLE_64B", "B64"), ("128B", "B128"), ("B128", "B128"), ("SW128", "B128"), ("SWIZZLE_128B", "B128"),
    ("128B_base32B", "B128_BASE32B"), ("128b_BASE32B", "B128_BASE32B"), ("128B-base32B", "B128_BASE32B"),
    ("B128_BASE32B", "B128_BASE32B"), ("SWIZZLE_128B_BASE32B", "B128_BASE32B"), ("SW128_32B", "B128_BASE32B"),
    # old TmaSwizzle: driver suffixes, member names, full driver names (any case, padded)
    (" 32b ", "B32"), ("128B_ATOM_32B", "B128_BASE32B"), ("B128_ATOM_32B", "B128_BASE32B"),
    ("128B_ATOM_32B_FLIP_8B", "B128_ATOM_32B_FLIP_8B"), ("128b_atom_32b_flip_8b", "B128_ATOM_32B_FLIP_8B"),
    ("B128_ATOM_32B_FLIP_8B", "B128_ATOM_32B_FLIP_8B"), ("128B_ATOM_64B", "B128_ATOM_64B"),
    ("B128_ATOM_64B", "B128_ATOM_64B"), ("96B", "B96"), ("B96", "B96"),
    ("CU_TENSOR_MAP_SWIZZLE_NONE", "INTERLEAVE"), ("CU_TENSOR_MAP_SWIZZLE_32B", "B32"),
    ("CU_TENSOR_MAP_SWIZZLE_64B", "B64"), ("CU_TENSOR_MAP_SWIZZLE_128B", "B128"),
    ("cu_tensor_map_swizzle_128b", "B128"), ("CU_TENSOR_MAP_SWIZZLE_B128", "B128"),
    ("CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B", "B128_BASE32B"),
    ("CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B_FLIP_8B", "B128_ATOM_32B_FLIP_8B"),
    ("CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B", "B128_ATOM_64B"),
    # old im2col normalize_swizzle: CuTe-style names of the TMA-only modes
    ("SWIZZLE_128B_ATOM_32B", "B128_BASE32B"), ("SWIZZLE_128B_ATOM_64B", "B128_ATOM_64B"),
    # ints: the CUtensorMapSwizzle value (numpy ints too), 96 for B96
    (0, "INTERLEAVE"), (1, "B32"), (2, "B64"), (3, "B128"), (4, "B128_BASE32B"), (5, "B128_ATOM_32B_FLIP_8B"),
    (6, "B128_ATOM_64B"), (96, "B96"), (np.int32(3), "B128"), (np.int64(6), "B128_ATOM_64B"),
    # byte Swizzles of the MMA modes
    (Swizzle(0, 4, 3), "INTERLEAVE"), (Swizzle(3, 4, 3), "B128"), (Swizzle(2, 5, 2), "B128_BASE32B"),
    (XorSwizzle([(7, 4)]), "B32"),
]


@pytest.mark.parametrize("value,name", OLD_SPELLINGS, ids=[repr(v) for v, _ in OLD_SPELLINGS])
def test_every_old_spelling_parses(value, name: str) -> None:
    assert SwizzleMode.parse(value) is SwizzleMode[name]
    assert SwizzleMode.parse(SwizzleMode[name]) is SwizzleMode[name]


BAD = [
    ("256B", "cannot parse '256B'"),
    ("17B", "cannot parse '17B'"),
    (7, "7 is not a SwizzleMode value"),
    (-1, "not a SwizzleMode value"),
    ("CU_TENSOR_MAP_SWIZZLE_96B", "PTX-only"),
    (True, "cannot parse True"),
    (3.0, "cannot parse 3.0"),
    (None, "cannot parse None"),
    (tma.Interleave.B32, "member of another enum"),
    (Swizzle(3, 3, 3), "not the byte map of any MMA swizzle mode"),
]


@pytest.mark.parametrize("value,words", BAD, ids=[repr(v) for v, _ in BAD])
def test_bad_spellings_raise_one_error_both_families_catch(value, words: str) -> None:
    for family in (SwizzleModeError, DescriptorError, TensorMapError):
        with pytest.raises(family, match=re.escape(words)):
            SwizzleMode.parse(value)


def test_descriptor_field_values_have_their_own_readers() -> None:
    assert [SwizzleMode.from_wgmma_layout_type(v).name for v in range(4)] == ["INTERLEAVE", "B128", "B64", "B32"]
    assert {v: SwizzleMode.from_tcgen05_layout_type(v).name for v in (0, 1, 2, 4, 6)} == {
        0: "INTERLEAVE", 1: "B128_BASE32B", 2: "B128", 4: "B64", 6: "B32"}
    for v in (3, 5, 7):
        with pytest.raises(DescriptorError, match="invalid"):
            SwizzleMode.from_tcgen05_layout_type(v)
    with pytest.raises(DescriptorError, match="TMA-only"):
        SwizzleMode.from_tma(5)


def test_driver_enum_order_matches_the_reference() -> None:
    if not DRIVER_REFERENCE.is_file():
        pytest.skip(f"reference document {DRIVER_REFERENCE} not present")
    text = DRIVER_REFERENCE.read_text()
    block = text[text.index("typedef enum CUtensorMapSwizzle_enum"):]
    block = block[:block.index("} CUtensorMapSwizzle;")]
    names = re.findall(r"(CU_TENSOR_MAP_SWIZZLE_\w+)", block)
    assert names == [m.driver_name for m in SwizzleMode if m.on_tma]
    assert [SwizzleMode.parse(n).tma_swizzle for n in names] == list(range(len(names)))
