"""Tests of pycute_layouts.arch.tma against the reference (000_*.txt 5.5.7 and 002_*.txt).

Every pattern table and the base-offset tables are restated literally from PTX ISA 5.5.7; every
validate() rule has a case at its limit and one just past it.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pycute_layouts.arch import tma
from pycute_layouts.arch.swizzle_modes import SwizzleMode
from pycute_layouts.arch.tma import (
    IM2COL,
    IM2COL_WIDE,
    RULES,
    TILED,
    Im2colTensorMap,
    Im2colWideMode,
    Im2colWideTensorMap,
    Interleave,
    L2Promotion,
    OobFill,
    TensorDataType,
    TiledTensorMap,
    box_to_smem,
    element_size_bits,
    elements_per_dim,
    pattern_table,
    rules_for,
    swizzle_base_offset,
    swizzle_byte_map,
    swizzle_mode_info,
)
from pycute_layouts.core.swizzle import Swizzle, XorSwizzle
from pycute_layouts.errors import SwizzleError, TensorMapError

# ---------------------------------------------------------------------------------------------
# PTX ISA 5.5.7, restated literally. Each numbered cell is a 16-byte chunk, each row one 128-byte
# shared-memory line; "... Pattern repeats ..." after the last row.
# ---------------------------------------------------------------------------------------------

PTX_TABLES: dict[str, list[list[int]]] = {
    # No swizzle mode
    "NONE": [
        [0, 1, 2, 3, 4, 5, 6, 7],
        [0, 1, 2, 3, 4, 5, 6, 7],
    ],
    # 32 byte swizzle mode (starting address 256 bytes aligned)
    "32B": [
        [0, 1, 2, 3, 4, 5, 6, 7],
        [1, 0, 3, 2, 5, 4, 7, 6],
    ],
    # 64 byte swizzle mode (starting address 512 bytes aligned)
    "64B": [
        [0, 1, 2, 3, 4, 5, 6, 7],
        [1, 0, 3, 2, 5, 4, 7, 6],
        [2, 3, 0, 1, 6, 7, 4, 5],
        [3, 2, 1, 0, 7, 6, 5, 4],
    ],
    # 96 byte swizzle mode
    "96B": [
        [0, 1, 2, 3, 4, 5, 6, 7],
        [1, 0, 3, 2, 5, 4, 7, 6],
    ],
    # 128 byte swizzle mode, 16-byte atomicity (starting address 1024 bytes aligned)
    "128B": [
        [0, 1, 2, 3, 4, 5, 6, 7],
        [1, 0, 3, 2, 5, 4, 7, 6],
        [2, 3, 0, 1, 6, 7, 4, 5],
        [3, 2, 1, 0, 7, 6, 5, 4],
        [4, 5, 6, 7, 0, 1, 2, 3],
        [5, 4, 7, 6, 1, 0, 3, 2],
        [6, 7, 4, 5, 2, 3, 0, 1],
        [7, 6, 5, 4, 3, 2, 1, 0],
    ],
    # 128 byte swizzle mode, 32-byte atomicity
    "128B_ATOM_32B": [
        [0, 1, 2, 3, 4, 5, 6, 7],
        [2, 3, 0, 1, 6, 7, 4, 5],
        [4, 5, 6, 7, 0, 1, 2, 3],
        [6, 7, 4, 5, 2, 3, 0, 1],
    ],
    # 128 byte swizzle mode, 64-byte atomicity
    "128B_ATOM_64B": [
        [0, 1, 2, 3, 4, 5, 6, 7],
        [4, 5, 6, 7, 0, 1, 2, 3],
    ],
}

# 32-byte atomicity with 8-byte flip: PTX gives no numbered table (only Figure 36, not in the
# reference text). Derived from the text: "similar to the 32-byte atomicity sub-mode except that
# there is a flip of adjacent 8-bytes within the 16-byte data at every alternate shared memory
# line". Cells are 8 bytes: "2b" is the upper half of 16-byte chunk 2. Odd lines are flipped.
FLIP_8B_TABLE_8BYTE_CELLS = [
    "0a 0b 1a 1b 2a 2b 3a 3b 4a 4b 5a 5b 6a 6b 7a 7b".split(),
    "2b 2a 3b 3a 0b 0a 1b 1a 6b 6a 7b 7a 4b 4a 5b 5a".split(),
    "4a 4b 5a 5b 6a 6b 7a 7b 0a 0b 1a 1b 2a 2b 3a 3b".split(),
    "6b 6a 7b 7a 4b 4a 5b 5a 2b 2a 3b 3a 0b 0a 1b 1a".split(),
]

# "Starting address of the repeating pattern" and the base-offset formulas, restated.
PTX_BOUNDARY = {"128B": 1024, "96B": 256, "64B": 512, "32B": 256}
PTX_BASE_OFFSET_MODULUS = {"128B": 8, "96B": 2, "64B": 4, "32B": 2}
# Which row of those two tables each mode uses (the 128B sub-modes are 128-byte swizzles).
FAMILY = {
    "32B": "32B",
    "64B": "64B",
    "96B": "96B",
    "128B": "128B",
    "128B_ATOM_32B": "128B",
    "128B_ATOM_32B_FLIP_8B": "128B",
    "128B_ATOM_64B": "128B",
}
SWIZZLED_MODES = list(FAMILY)
ALL_MODES = ["NONE", *SWIZZLED_MODES]


def _dest_bytes(mode: str, dst: int, total_lines: int) -> np.ndarray:
    """Destination offset of each of ``total_lines * 128`` source bytes (flat, dense order)."""
    info = swizzle_mode_info(mode)
    row = min(info.span_bytes or 128, 128)
    total = math.lcm(row, 128 * total_lines)
    out = box_to_smem(mode, 1, (row, total // row), dst).ravel()
    return out[: 128 * total_lines]


@pytest.mark.parametrize("mode", sorted(PTX_TABLES))
@pytest.mark.parametrize("periods_of_dst", [0, 1, 5])
def test_pattern_table_reproduced_by_box_to_smem(mode: str, periods_of_dst: int) -> None:
    table = PTX_TABLES[mode]
    boundary = PTX_BOUNDARY.get(FAMILY.get(mode, ""), 256)
    dst = periods_of_dst * boundary
    lines = 2 * max(len(table), 8)
    dest = _dest_bytes(mode, dst, lines)
    inverse = np.empty_like(dest)
    inverse[dest] = np.arange(dest.size)
    for line in range(lines):
        row = table[line % len(table)]
        for cell in range(8):
            src = line * 128 + cell * 16
            # reading 1: source chunk `cell` of this line goes to chunk row[cell] of the same line
            assert dest[src : src + 16].tolist() == list(
                range(line * 128 + row[cell] * 16, line * 128 + row[cell] * 16 + 16)
            )
            # reading 2: destination position `cell` of this line holds source chunk row[cell]
            pos = line * 128 + cell * 16
            assert inverse[pos] == line * 128 + row[cell] * 16


@pytest.mark.parametrize("mode", sorted(PTX_TABLES))
def test_pattern_table_function_matches_ptx(mode: str) -> None:
    table = PTX_TABLES[mode]
    computed = pattern_table(mode)
    for r in range(max(len(table), len(computed))):
        assert computed[r % len(computed)] == table[r % len(table)]


def test_flip_8b_table_reproduced_by_box_to_smem() -> None:
    dest = _dest_bytes("128B_ATOM_32B_FLIP_8B", 0, 8)
    inverse = np.empty_like(dest)
    inverse[dest] = np.arange(dest.size)
    for line in range(8):
        row = FLIP_8B_TABLE_8BYTE_CELLS[line % 4]
        for pos, cell in enumerate(row):
            chunk, half = int(cell[0]), "ab".index(cell[1])
            src = line * 128 + chunk * 16 + half * 8
            got = inverse[line * 128 + pos * 8 : line * 128 + pos * 8 + 8].tolist()
            assert got == list(range(src, src + 8)), (line, pos, cell)


def test_flip_8b_chunk_table_is_the_atom_32b_table() -> None:
    assert pattern_table("128B_ATOM_32B_FLIP_8B") == PTX_TABLES["128B_ATOM_32B"]
    cells8 = pattern_table("128B_ATOM_32B_FLIP_8B", cell_bytes=8)
    for r, row in enumerate(FLIP_8B_TABLE_8BYTE_CELLS):
        # pattern_table(cell_bytes=8) sends 8-byte cell i to cells8[r][i]; the literal table says
        # which source cell sits at each position. Both are involutions.
        literal = [int(c[0]) * 2 + "ab".index(c[1]) for c in row]
        assert cells8[r] == literal


# ---------------------------------------------------------------------------------------------
# The maps as Swizzle objects
# ---------------------------------------------------------------------------------------------

EXPECTED_MAPS = {
    "NONE": "Sw<0,4,3>",
    "32B": "Sw<1,4,3>",
    "64B": "Sw<2,4,3>",
    "96B": "Sw<1,4,3>",
    "128B": "Sw<3,4,3>",
    "128B_ATOM_32B": "Sw<2,5,2>",
    "128B_ATOM_64B": "Sw<1,6,1>",
}


@pytest.mark.parametrize("mode", sorted(EXPECTED_MAPS))
def test_byte_maps_are_cute_swizzles(mode: str) -> None:
    m = swizzle_byte_map(mode)
    assert isinstance(m, Swizzle)
    assert str(m) == EXPECTED_MAPS[mode]


def test_flip_8b_map_is_two_xor_patterns() -> None:
    m = swizzle_byte_map("128B_ATOM_32B_FLIP_8B")
    atom32 = Swizzle(2, 5, 2)
    flip = XorSwizzle([(7, 3)])  # bit 3 ^= bit 7: swap 8-byte halves on odd 128-byte lines
    assert isinstance(m, XorSwizzle)
    assert m == flip.compose(atom32) == atom32.compose(flip)
    assert m == XorSwizzle([(7, 5), (8, 6), (7, 3)])
    with pytest.raises(SwizzleError):
        m.to_swizzle()
    x = np.arange(4096, dtype=np.int64)
    assert np.array_equal(m(x), flip(atom32(x)))


# ---------------------------------------------------------------------------------------------
# Per-mode facts
# ---------------------------------------------------------------------------------------------

# mode: (span, atomicity, flip, period, boundary, modulus, required alignment)
# The alignment is 128 in every mode: the H100 faults (cudaErrorMisalignedAddress) for TMA destinations
# 16, 32 or 64 bytes past a 128-byte line (docs/hardware-validation.md); the reference states 32 / 64 only.
FACTS = {
    "NONE": (None, None, False, 128, None, 1, 128),
    "32B": (32, 16, False, 256, 256, 2, 128),
    "64B": (64, 16, False, 512, 512, 4, 128),
    "96B": (96, 16, False, 256, 256, 2, 128),
    "128B": (128, 16, False, 1024, 1024, 8, 128),
    "128B_ATOM_32B": (128, 32, False, 512, 1024, 8, 128),
    "128B_ATOM_32B_FLIP_8B": (128, 32, True, 512, 1024, 8, 128),
    "128B_ATOM_64B": (128, 64, False, 256, 1024, 8, 128),
}


@pytest.mark.parametrize("mode", sorted(FACTS))
def test_mode_facts(mode: str) -> None:
    i = swizzle_mode_info(mode)
    got = (
        i.span_bytes,
        i.atomicity_bytes,
        i.flip_8b,
        i.period_bytes,
        i.pattern_boundary_bytes,
        i.base_offset_modulus,
        i.required_alignment_bytes,
    )
    assert got == FACTS[mode]
    if mode != "NONE":
        assert i.pattern_boundary_bytes == PTX_BOUNDARY[FAMILY[mode]]
        assert i.base_offset_modulus == PTX_BASE_OFFSET_MODULUS[FAMILY[mode]]
        # the period of the map divides the PTX boundary
        assert i.pattern_boundary_bytes % i.period_bytes == 0
        assert (
            i.byte_map(np.arange(i.period_bytes) + i.period_bytes).tolist()
            == (i.byte_map(np.arange(i.period_bytes)) + i.period_bytes).tolist()
        )


def test_span_matches_driver_enum_comments() -> None:
    # "Swizzle 16B chunks within 32B span" etc.; 128B_* modes: "within 128B span".
    assert [swizzle_mode_info(m).span_bytes for m in ("32B", "64B", "128B")] == [32, 64, 128]
    assert swizzle_mode_info("96B").span_bytes == 96
    assert swizzle_mode_info("96B").encodable is False


# ---------------------------------------------------------------------------------------------
# Base offset
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", SWIZZLED_MODES)
def test_base_offset_formula(mode: str) -> None:
    fam = FAMILY[mode]
    for dst in range(0, 8192, 128):
        off = swizzle_base_offset(mode, dst)
        assert off == (dst // 128) % PTX_BASE_OFFSET_MODULUS[fam]
        assert (off == 0) == (dst % PTX_BOUNDARY[fam] == 0)
    assert swizzle_base_offset("NONE", 384) == 0


@pytest.mark.parametrize("mode", sorted(set(PTX_TABLES) - {"NONE"}))
def test_base_offset_table_rows_for_destinations_off_the_boundary(mode: str) -> None:
    """A destination k*128 bytes past the boundary starts the pattern at table row (dst/128) % n."""
    table = PTX_TABLES[mode]
    boundary = PTX_BOUNDARY[FAMILY[mode]]
    for k in range(boundary // 128):
        dst = 4096 + k * 128
        base = swizzle_base_offset(mode, dst)
        assert base == k
        dest = _dest_bytes(mode, dst, 8)
        for line in range(8):
            row = table[(line + base) % len(table)]
            for cell in range(8):
                src = line * 128 + cell * 16
                assert dest[src] == line * 128 + row[cell] * 16, (mode, dst, line, cell)


def test_base_offset_example_128b() -> None:
    # dst = 0x180 (384): base offset 3, first line of the box uses row 3 "3 2 1 0 7 6 5 4".
    placed = box_to_smem("128B", 2, (64, 2), 384)
    assert (placed[0, ::16] // 16).tolist() == [3, 2, 1, 0, 7, 6, 5, 4]
    assert (placed[1, ::16] // 16).tolist() == [12, 13, 14, 15, 8, 9, 10, 11]  # row 4, second line


def test_atom_modes_period_shorter_than_boundary() -> None:
    # 128B_ATOM_32B repeats every 4 lines, so base offset 4 (dst = 512) places like base offset 0.
    assert swizzle_base_offset("128B_ATOM_32B", 512) == 4
    assert np.array_equal(
        box_to_smem("128B_ATOM_32B", 2, (64, 16), 512), box_to_smem("128B_ATOM_32B", 2, (64, 16))
    )
    assert np.array_equal(
        box_to_smem("128B_ATOM_64B", 2, (64, 16), 256), box_to_smem("128B_ATOM_64B", 2, (64, 16))
    )


def test_required_alignment() -> None:
    for mode in ("NONE", "32B", "64B", "128B", "128B_ATOM_32B", "128B_ATOM_64B"):
        box_to_smem(mode, 1, (16, 4), 128)          # at the limit
        box_to_smem(mode, 1, (16, 4), 384)
        for off in (16, 32, 64):                    # the H100 faults for each of these
            with pytest.raises(TensorMapError, match=f"aligned to 128 bytes: dst_address={128 + off}"):
                box_to_smem(mode, 1, (16, 4), 128 + off)


# ---------------------------------------------------------------------------------------------
# box_to_smem details
# ---------------------------------------------------------------------------------------------


def test_box_to_smem_shape_and_order() -> None:
    out = box_to_smem("NONE", 4, (8, 3, 2))
    assert out.shape == (2, 3, 32)
    assert out.dtype == np.int64
    assert out.ravel().tolist() == list(range(192))


def test_box_to_smem_packed_fraction() -> None:
    from fractions import Fraction

    out = box_to_smem("128B", Fraction(1, 2), (256, 2))
    assert out.shape == (2, 128)
    with pytest.raises(TensorMapError, match="whole number of bytes"):
        box_to_smem("128B", Fraction(1, 2), (255, 2))


def test_box_to_smem_96b_dense_rows() -> None:
    # 96-byte rows, pitch 96: row 1 straddles lines 0 and 1; its bytes 32.. land on line 1 swapped.
    out = box_to_smem("96B", 2, (48, 2))
    assert out[1, :32].tolist() == list(range(96, 128))
    assert (out[1, 32::16] // 16).tolist() == [9, 8, 11, 10]
    assert sorted(out.ravel().tolist()) == list(range(192))


def test_box_to_smem_row_pitch_option() -> None:
    out = box_to_smem("128B", 2, (32, 2), row_pitch_bytes=128)
    assert (out[1, ::16] // 16).tolist() == [9, 8, 11, 10]


@pytest.mark.parametrize(
    "args, match",
    [
        (("128B", 2, (72, 2)), "swizzle span of 128B"),
        (("32B", 2, (24, 2)), "swizzle span of 32B"),
        (("128B", 0, (8,)), "elem_bytes must be positive"),
        (("128B", 2.5, (8,)), "elem_bytes must be a positive int or Fraction"),
        (("128B", 2, ()), "at least one dimension"),
        (("128B", 2, (0, 2)), r"box_dims\[0\] must be >= 1"),
        (("128B", 2, "ab"), "sequence of integers"),
        (("128B", 2, (8, None)), r"box_dims\[1\] must be an integer"),
        (("128B", 2, (8,), -128), "dst_address must be >= 0"),
        (("nope", 2, (8,)), "SwizzleMode.parse"),
        (("NONE", 8, (256, 256, 256)), "model limit"),
    ],
)
def test_box_to_smem_bad_input(args: tuple, match: str) -> None:
    with pytest.raises(TensorMapError, match=match):
        box_to_smem(*args)


def test_elements_per_dim() -> None:
    assert elements_per_dim((64, 9, 8), (2, 2, 4)) == (64, 5, 2)
    assert elements_per_dim((64, 9, 8), (2, 2, 4), "32B") == (32, 5, 2)
    for n in range(1, 20):
        for s in range(1, 9):
            assert elements_per_dim((16, n * s), (1, s))[1] == n
    with pytest.raises(TensorMapError, match="same length"):
        elements_per_dim((1, 2), (1,))
    with pytest.raises(TensorMapError, match="must be positive"):
        elements_per_dim((1, 2), (1, 0))


# ---------------------------------------------------------------------------------------------
# Enums
# ---------------------------------------------------------------------------------------------


def test_enum_values_match_driver() -> None:
    assert [int(m) for m in SwizzleMode if m is not SwizzleMode.B96] == list(range(7))
    assert [m.driver_name for m in SwizzleMode][:7] == [
        "CU_TENSOR_MAP_SWIZZLE_NONE",
        "CU_TENSOR_MAP_SWIZZLE_32B",
        "CU_TENSOR_MAP_SWIZZLE_64B",
        "CU_TENSOR_MAP_SWIZZLE_128B",
        "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B",
        "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B_FLIP_8B",
        "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B",
    ]
    assert SwizzleMode.B96 not in range(7) and SwizzleMode.B96.driver_name is None
    dtypes = (
        "UINT8 UINT16 UINT32 INT32 UINT64 INT64 FLOAT16 FLOAT32 FLOAT64 BFLOAT16 FLOAT32_FTZ TFLOAT32 "
        "TFLOAT32_FTZ 16U4_ALIGN8B 16U4_ALIGN16B 16U6_ALIGN16B"
    ).split()
    assert [TensorDataType.parse("CU_TENSOR_MAP_DATA_TYPE_" + n) for n in dtypes] == list(range(16))
    assert [m.short_name for m in TensorDataType] == dtypes
    assert [m.driver_name for m in Interleave] == [
        "CU_TENSOR_MAP_INTERLEAVE_NONE",
        "CU_TENSOR_MAP_INTERLEAVE_16B",
        "CU_TENSOR_MAP_INTERLEAVE_32B",
    ]
    assert [m.driver_name for m in L2Promotion] == [
        "CU_TENSOR_MAP_L2_PROMOTION_NONE",
        "CU_TENSOR_MAP_L2_PROMOTION_L2_64B",
        "CU_TENSOR_MAP_L2_PROMOTION_L2_128B",
        "CU_TENSOR_MAP_L2_PROMOTION_L2_256B",
    ]
    assert [m.driver_name for m in OobFill] == [
        "CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE",
        "CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA",
    ]
    assert [(m.driver_name, int(m)) for m in Im2colWideMode] == [
        ("CU_TENSOR_MAP_IM2COL_WIDE_MODE_W", 0),
        ("CU_TENSOR_MAP_IM2COL_WIDE_MODE_W128", 1),
    ]


def test_element_sizes() -> None:
    bits = [8, 16, 32, 32, 64, 64, 16, 32, 64, 16, 32, 32, 32, 4, 4, 6]
    assert [m.bits for m in TensorDataType] == bits
    assert [element_size_bits(i) for i in range(16)] == bits
    assert [m.name for m in TensorDataType if m.is_float] == [
        "FLOAT16",
        "FLOAT32",
        "FLOAT64",
        "BFLOAT16",
        "FLOAT32_FTZ",
        "TFLOAT32",
        "TFLOAT32_FTZ",
    ]


@pytest.mark.parametrize(
    "cls, value, expected",
    [
        (SwizzleMode, "CU_TENSOR_MAP_SWIZZLE_128B", SwizzleMode.B128),
        (SwizzleMode, "128B", SwizzleMode.B128),
        (SwizzleMode, "none", SwizzleMode.NONE),
        (SwizzleMode, " 32b ", SwizzleMode.B32),
        (SwizzleMode, "B64", SwizzleMode.B64),
        (SwizzleMode, "128b_atom_32b_flip_8b", SwizzleMode.B128_ATOM_32B_FLIP_8B),
        (SwizzleMode, 6, SwizzleMode.B128_ATOM_64B),
        (SwizzleMode, np.int32(3), SwizzleMode.B128),
        (SwizzleMode, SwizzleMode.B32, SwizzleMode.B32),
        (SwizzleMode, "96B", SwizzleMode.B96),
        (SwizzleMode, 96, SwizzleMode.B96),
        (TensorDataType, "16U4_ALIGN8B", TensorDataType.U4x16_ALIGN8B),
        (TensorDataType, "u6x16_align16b", TensorDataType.U6x16_ALIGN16B),
        (TensorDataType, "CU_TENSOR_MAP_DATA_TYPE_BFLOAT16", TensorDataType.BFLOAT16),
        (Interleave, "16B", Interleave.B16),
        (Interleave, 2, Interleave.B32),
        (L2Promotion, "L2_256B", L2Promotion.L2_256B),
        (L2Promotion, "128B", L2Promotion.L2_128B),
        (OobFill, "nan_request_zero_fma", OobFill.NAN_REQUEST_ZERO_FMA),
        (Im2colWideMode, "CU_TENSOR_MAP_IM2COL_WIDE_MODE_W128", Im2colWideMode.W128),
    ],
)
def test_enum_parse(cls: type, value: object, expected: object) -> None:
    assert cls.parse(value) is expected


@pytest.mark.parametrize(
    "cls, value, match",
    [
        (SwizzleMode, "256B", "cannot parse '256B'"),
        (SwizzleMode, 7, "7 is not a SwizzleMode value"),
        (SwizzleMode, -1, "not a SwizzleMode value"),
        (SwizzleMode, "CU_TENSOR_MAP_SWIZZLE_96B", "PTX-only"),
        (SwizzleMode, True, "cannot parse True"),
        (SwizzleMode, 3.0, "cannot parse 3.0"),
        (SwizzleMode, None, "cannot parse None"),
        (SwizzleMode, Interleave.B32, "member of another enum"),
        (TensorDataType, "FLOAT8", "allowed values: UINT8=0"),
        (TensorDataType, 16, "not a TensorDataType value"),
        (Interleave, "64B", "allowed values"),
        (L2Promotion, "512B", "allowed values"),
        (OobFill, "NAN", "allowed values"),
        (Im2colWideMode, "W64", "allowed values"),
        (Im2colWideMode, ["W"], "cannot parse"),
    ],
)
def test_enum_parse_rejects(cls: type, value: object, match: str) -> None:
    with pytest.raises(TensorMapError, match=match) as exc:
        cls.parse(value)
    if "allowed" in str(exc.value):
        first = next(iter(cls))
        assert first.name in str(exc.value)


def test_enum_parse_message_lists_driver_names() -> None:
    with pytest.raises(TensorMapError) as exc:
        SwizzleMode.parse("bad")
    msg = str(exc.value)
    for m in SwizzleMode:
        assert m.short_name in msg
    assert "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B" in msg and "PTX-only" in msg


# ---------------------------------------------------------------------------------------------
# Tensor-map construction
# ---------------------------------------------------------------------------------------------

BASE = {
    TILED: dict(
        tensor_data_type="FLOAT16",
        global_dim=(256, 64),
        global_strides=(512,),
        box_dim=(64, 8),
        swizzle="128B",
    ),
    IM2COL: dict(
        tensor_data_type="FLOAT16",
        global_dim=(64, 9, 9, 2),
        global_strides=(128, 1152, 10368),
        pixel_box_lower_corner=(-1, -1),
        pixel_box_upper_corner=(-1, -1),
        channels_per_pixel=64,
        pixels_per_column=128,
        swizzle="128B",
    ),
    IM2COL_WIDE: dict(
        tensor_data_type="FLOAT16",
        global_dim=(128, 9, 7, 64),
        global_strides=(256, 2304, 16128),
        pixel_box_lower_corner_width=0,
        pixel_box_upper_corner_width=0,
        channels_per_pixel=64,
        pixels_per_column=128,
        mode="W",
        swizzle="128B",
    ),
}
CLS = {TILED: TiledTensorMap, IM2COL: Im2colTensorMap, IM2COL_WIDE: Im2colWideTensorMap}

# Variants of the base maps used by several cases.
T3 = dict(global_dim=(256, 64, 4), global_strides=(512, 32768), box_dim=(64, 8, 2))
T_IL32 = dict(T3, box_dim=(16, 8, 2), interleave="32B", swizzle="32B")
I_IL32 = dict(interleave="32B", swizzle="32B")
U6 = {
    TILED: dict(
        tensor_data_type="16U6_ALIGN16B", global_dim=(128, 64), global_strides=(128,), box_dim=(128, 8)
    ),
    IM2COL: dict(
        tensor_data_type="16U6_ALIGN16B",
        global_dim=(128, 9, 9, 2),
        global_strides=(128, 1152, 10368),
        channels_per_pixel=128,
    ),
    IM2COL_WIDE: dict(
        tensor_data_type="16U6_ALIGN16B",
        global_dim=(128, 9, 7, 64),
        global_strides=(128, 1152, 8064),
        channels_per_pixel=128,
    ),
}
U4A16 = {k: dict(v, tensor_data_type="16U4_ALIGN16B") for k, v in U6.items()}
U4A8 = {
    TILED: dict(tensor_data_type="16U4_ALIGN8B", global_dim=(64, 64), global_strides=(32,), box_dim=(64, 8)),
    IM2COL: dict(tensor_data_type="16U4_ALIGN8B", global_dim=(64, 9, 9, 2), global_strides=(32, 288, 2592)),
    IM2COL_WIDE: dict(
        tensor_data_type="16U4_ALIGN8B", global_dim=(64, 9, 7, 64), global_strides=(32, 288, 2016)
    ),
}


def make(fn: str, **over: object):
    return CLS[fn](**{**BASE[fn], **over})


@pytest.mark.parametrize("fn", list(BASE))
def test_base_maps_are_valid(fn: str) -> None:
    m = make(fn)
    assert m.violations() == [] and m.violations("store") == []
    assert m.validate() is m


# (rule, function, valid overrides, invalid overrides, key words of the message, direction, only)
# `only`: the invalid case violates exactly this rule; otherwise it must be among the violations.
C = tuple
CASES: list[C] = []


def case(rule, fn, valid, invalid, words, direction="load", only=True):
    CASES.append((rule, fn, valid, invalid, words, direction, only))


# rank
case(
    "rank.tiled_range",
    TILED,
    dict(
        global_dim=(16, 2, 2, 2, 2),
        global_strides=(32, 64, 128, 256),
        box_dim=(8, 2, 2, 2, 2),
        swizzle="NONE",
    ),
    dict(
        global_dim=(16, 2, 2, 2, 2, 2),
        global_strides=(32, 64, 128, 256, 512),
        box_dim=(8, 2, 2, 2, 2, 2),
        swizzle="NONE",
    ),
    ["tensorRank must be in [1, 5]", "tensorRank=6"],
)
case(
    "rank.tiled_range",
    TILED,
    dict(global_dim=(64,), global_strides=(), box_dim=(64,)),
    dict(tensor_rank=0, global_dim=(), global_strides=(), box_dim=()),
    ["tensorRank=0"],
    only=False,
)
case(
    "rank.im2col_range",
    IM2COL,
    dict(
        global_dim=(64, 9, 2),
        global_strides=(128, 1152),
        pixel_box_lower_corner=(-1,),
        pixel_box_upper_corner=(-1,),
    ),
    dict(global_dim=(64, 9), global_strides=(128,), pixel_box_lower_corner=(), pixel_box_upper_corner=()),
    ["tensorRank must be 3, 4, or 5", "tensorRank=2"],
)
case(
    "rank.im2col_range",
    IM2COL,
    dict(
        global_dim=(64, 9, 9, 9, 2),
        global_strides=(128, 1152, 10368, 93312),
        pixel_box_lower_corner=(-1, -1, -1),
        pixel_box_upper_corner=(-1, -1, -1),
    ),
    dict(
        global_dim=(64, 9, 9, 9, 9, 2),
        global_strides=(128, 1152, 10368, 93312, 839808),
        pixel_box_lower_corner=(-1, -1, -1, -1),
        pixel_box_upper_corner=(-1, -1, -1, -1),
    ),
    ["tensorRank=6"],
)
case(
    "rank.im2col_range",
    IM2COL_WIDE,
    dict(global_dim=(128, 9, 64), global_strides=(256, 2304)),
    dict(global_dim=(128, 64), global_strides=(256,)),
    ["tensorRank must be 3, 4, or 5", "tensorRank=2"],
)
case(
    "rank.im2col_range",
    IM2COL_WIDE,
    dict(global_dim=(128, 9, 7, 3, 64), global_strides=(256, 2304, 16128, 48384)),
    dict(global_dim=(128, 9, 7, 3, 2, 64), global_strides=(256, 2304, 16128, 48384, 96768)),
    ["tensorRank=6"],
)
case(
    "rank.interleave_min3",
    TILED,
    dict(T3, interleave="16B"),
    dict(interleave="16B"),
    ["tensorRank must be >= 3 when interleave is not NONE", "interleave=16B, tensorRank=2"],
)
# lengths
for _fn, _bad in [
    (TILED, dict(tensor_rank=2, global_dim=(256, 64, 1))),
    (IM2COL, dict(tensor_rank=4, global_dim=(64, 9, 9, 2, 1))),
    (IM2COL_WIDE, dict(tensor_rank=4, global_dim=(128, 9, 7, 64, 1))),
]:
    case(
        "length.global_dim",
        _fn,
        dict(tensor_rank=len(BASE[_fn]["global_dim"])),
        _bad,
        ["globalDim must have tensorRank entries", "len(globalDim)=", "tensorRank="],
    )
for _fn in BASE:
    case(
        "length.global_strides",
        _fn,
        {},
        dict(global_strides=(*BASE[_fn]["global_strides"], 16)),
        ["globalStrides must have tensorRank - 1 entries", "len(globalStrides)="],
    )
    case(
        "length.element_strides",
        _fn,
        dict(element_strides=(1,) * len(BASE[_fn]["global_dim"])),
        dict(element_strides=(1,) * (len(BASE[_fn]["global_dim"]) + 1)),
        ["elementStrides must have tensorRank entries", "len(elementStrides)="],
    )
case(
    "length.box_dim",
    TILED,
    dict(box_dim=(64, 8)),
    dict(box_dim=(64, 8, 1)),
    ["boxDim must have tensorRank entries", "len(boxDim)=3, tensorRank=2"],
)
case(
    "length.pixel_box_corners",
    IM2COL,
    {},
    dict(pixel_box_lower_corner=(-1, -1, -1)),
    ["tensorRank - 2 entries", "len(pixelBoxLowerCorner)=3"],
)
# global address
for _fn in BASE:
    case(
        "global_address.align16",
        _fn,
        dict(global_address=0x1010),
        dict(global_address=0x1008),
        ["globalAddress must be 16-byte aligned", "globalAddress=0x1008"],
    )
    case(
        "global_address.align32_packed16",
        _fn,
        dict(U6[_fn], global_address=0x1020),
        dict(U6[_fn], global_address=0x1010),
        ["globalAddress must be 32-byte aligned for 16U6_ALIGN16B", "globalAddress=0x1010"],
    )
    case(
        "global_address.align32_packed16",
        _fn,
        dict(U4A16[_fn], global_address=0x1020),
        dict(U4A16[_fn], global_address=0x1030),
        ["tensorDataType=16U4_ALIGN16B", "globalAddress=0x1030"],
    )
case(
    "global_address.align32_interleave32",
    TILED,
    dict(T_IL32, global_address=0x1020),
    dict(T_IL32, global_address=0x1010),
    ["32-byte aligned when interleave is 32B", "globalAddress=0x1010"],
)
case(
    "global_address.align32_interleave32",
    IM2COL,
    dict(I_IL32, global_address=0x1020),
    dict(I_IL32, global_address=0x1010),
    ["32-byte aligned when interleave is 32B"],
)
case(
    "global_address.align32_interleave32",
    IM2COL_WIDE,
    dict(global_address=0x1020),
    dict(I_IL32, global_address=0x1010),
    ["32-byte aligned when interleave is 32B"],
    only=False,
)
# global dims
case(
    "global_dim.range",
    TILED,
    dict(global_dim=(256, 2**32)),
    dict(global_dim=(256, 2**32 + 1)),
    ["globalDim must be non-zero and <= 2^32", "globalDim[1]=4294967297"],
)
case("global_dim.range", TILED, dict(global_dim=(256, 1)), dict(global_dim=(256, 0)), ["globalDim[1]=0"])
case(
    "global_dim.range",
    IM2COL,
    dict(global_dim=(64, 9, 9, 2**32)),
    dict(global_dim=(64, 9, 9, 2**32 + 1)),
    ["globalDim[3]=4294967297"],
)
case(
    "global_dim.range",
    IM2COL_WIDE,
    dict(global_dim=(128, 9, 7, 2**32)),
    dict(global_dim=(128, 9, 7, 0)),
    ["globalDim[3]=0"],
)
for _fn in BASE:
    _g = U6[_fn]["global_dim"]
    case(
        "global_dim.packed16_multiple128",
        _fn,
        dict(U6[_fn]),
        dict(U6[_fn], global_dim=(129, *_g[1:])),
        ["globalDim[0] must be a multiple of 128", "globalDim[0]=129"],
    )
    case(
        "global_dim.packed16_multiple128",
        _fn,
        dict(U4A16[_fn]),
        dict(U4A16[_fn], global_dim=(192, *_g[1:])),
        ["tensorDataType=16U4_ALIGN16B, globalDim[0]=192"],
    )
    _g8 = U4A8[_fn]["global_dim"]
    case(
        "global_dim.u4align8_multiple2",
        _fn,
        dict(U4A8[_fn], global_dim=(62, *_g8[1:])),
        dict(U4A8[_fn], global_dim=(63, *_g8[1:])),
        ["globalDim[0] must be a multiple of 2 for 16U4_ALIGN8B", "globalDim[0]=63"],
    )
# global strides
case(
    "global_strides.multiple16",
    TILED,
    dict(global_strides=(528,)),
    dict(global_strides=(520,)),
    ["globalStrides must be a multiple of 16", "globalStrides[0]=520"],
)
case(
    "global_strides.multiple16",
    IM2COL,
    dict(global_strides=(144, 1296, 11664)),
    dict(global_strides=(136, 1224, 11016)),
    ["globalStrides[0]=136"],
)
case(
    "global_strides.multiple16",
    IM2COL_WIDE,
    dict(global_strides=(256, 2304, 16144)),
    dict(global_strides=(256, 2304, 16136)),
    ["globalStrides[2]=16136"],
)
for _fn in BASE:
    _s = BASE[_fn]["global_strides"]
    case(
        "global_strides.range",
        _fn,
        dict(global_strides=(*_s[:-1], 2**40 - 16)),
        dict(global_strides=(*_s[:-1], 2**40)),
        ["less than 2^40", f"globalStrides[{len(_s) - 1}]=1099511627776"],
    )
case(
    "global_strides.range",
    TILED,
    dict(global_strides=(512,)),
    dict(global_strides=(-16,)),
    ["globalStrides[0]=-16"],
    only=False,  # a negative stride also breaks global_strides.padding
)
case(
    "global_strides.multiple32_interleave32",
    TILED,
    dict(T_IL32),
    dict(T_IL32, global_strides=(528, 33792)),
    ["multiple of 32 when interleave is 32B", "globalStrides[0]=528"],
)
case(
    "global_strides.multiple32_interleave32",
    IM2COL,
    dict(I_IL32),
    dict(I_IL32, global_strides=(144, 1296, 11664)),
    ["multiple of 32 when interleave is 32B"],
)
case(
    "global_strides.multiple32_interleave32",
    IM2COL_WIDE,
    dict(global_strides=(256, 2304, 16128)),
    dict(I_IL32, global_strides=(272, 2448, 17136)),
    ["multiple of 32 when interleave is 32B"],
    only=False,
)
case(
    "global_strides.padding",
    TILED,
    dict(global_strides=(512,)),
    dict(global_strides=(496,)),
    ["each stride must include the previous dimension", "globalStrides[0]=496 < globalDim[0] * elementSize = 256 * 2 = 512"],
)
case(
    "global_strides.padding",
    IM2COL,
    dict(global_strides=(128, 1152, 10368)),
    dict(global_strides=(128, 1136, 10224)),
    ["globalStrides[1]=1136 < globalStrides[0] * globalDim[1] = 128 * 9 = 1152"],
)
case(
    "global_strides.padding",
    IM2COL_WIDE,
    dict(global_strides=(256, 2304, 16128)),
    dict(global_strides=(256, 2304, 16112)),
    ["globalStrides[2]=16112 < globalStrides[1] * globalDim[2] = 2304 * 7 = 16128"],
)
case(
    "global_strides.multiple32_packed16",
    TILED,
    dict(U6[TILED], global_strides=(160,)),
    dict(U6[TILED], global_strides=(144,)),
    ["multiple of 32 for 16U6_ALIGN16B", "globalStrides[0]=144"],
)
case(
    "global_strides.multiple32_packed16",
    IM2COL,
    dict(U6[IM2COL]),
    dict(U6[IM2COL], global_strides=(128, 1152, 10384)),
    ["globalStrides[2]=10384"],
)
case(
    "global_strides.multiple32_packed16",
    IM2COL_WIDE,
    dict(U4A16[IM2COL_WIDE]),
    dict(U4A16[IM2COL_WIDE], global_strides=(128, 1152, 8080)),
    ["16U4_ALIGN16B", "globalStrides[2]=8080"],
)
case(
    "global_strides.packed16_padding",
    TILED,
    dict(U6[TILED], global_strides=(96,)),
    dict(U6[TILED], global_strides=(64,)),
    [
        "each stride must include the previous one",
        "globalStrides[0]=64 < globalDim[0] * elementSize = 128 * 0.75",
    ],
)
case(
    "global_strides.packed16_padding",
    IM2COL,
    dict(U6[IM2COL]),
    dict(U6[IM2COL], global_strides=(128, 1120, 10368)),
    ["globalStrides[1]=1120 < globalStrides[0] * globalDim[1] = 128 * 9 = 1152"],
)
case(
    "global_strides.packed16_padding",
    IM2COL_WIDE,
    dict(U4A16[IM2COL_WIDE], global_strides=(64, 1152, 8064)),
    dict(U4A16[IM2COL_WIDE], global_strides=(32, 1152, 8064)),
    ["globalStrides[0]=32 < globalDim[0]", "= 64"],
)
# box
case(
    "box_dim.range",
    TILED,
    dict(box_dim=(64, 256)),
    dict(box_dim=(64, 257)),
    ["boxDim must be non-zero and <= 256", "boxDim[1]=257"],
)
case("box_dim.range", TILED, dict(box_dim=(64, 1)), dict(box_dim=(64, 0)), ["boxDim[1]=0"])
case(
    "box_dim.inner_bytes_multiple16",
    TILED,
    dict(box_dim=(8, 8), swizzle="NONE"),
    dict(box_dim=(12, 8), swizzle="NONE"),
    [
        "cuTensorMapEncodeTiled: boxDim[0] * elementSize must be a multiple of 16 bytes when interleave is "
        "NONE: boxDim[0]=12, elementSize=2 -> 24 bytes"
    ],
)
case(
    "box_dim.inner_bytes_multiple16",
    TILED,
    dict(U4A8[TILED], box_dim=(32, 8)),
    dict(U4A8[TILED], box_dim=(34, 8)),
    ["boxDim[0]=34, elementSize=0.5 -> 17 bytes"],
)
case(
    "box_dim.inner_bytes_multiple16",
    TILED,
    dict(T_IL32, box_dim=(12, 8, 2)),
    dict(T3, box_dim=(12, 8, 2), swizzle="NONE"),
    ["boxDim[0]=12"],
)
case(
    "box_dim.packed16_is128",
    TILED,
    dict(U6[TILED]),
    dict(U6[TILED], box_dim=(64, 8)),
    ["boxDim[0] must be 128 for 16U6_ALIGN16B", "boxDim[0]=64"],
)
case(
    "box_dim.packed16_is128",
    TILED,
    dict(U4A16[TILED]),
    dict(U4A16[TILED], box_dim=(96, 8)),
    ["tensorDataType=16U4_ALIGN16B, boxDim[0]=96"],
)
# element strides
for _fn in BASE:
    _r = len(BASE[_fn]["global_dim"])
    case(
        "element_strides.range",
        _fn,
        dict(element_strides=(1,) * (_r - 1) + (8,)),
        dict(element_strides=(1,) * (_r - 1) + (9,)),
        ["elementStrides must be non-zero and <= 8", "=9"],
    )
    case(
        "element_strides.range",
        _fn,
        dict(element_strides=(1,) * _r),
        dict(element_strides=(0,) + (1,) * (_r - 1)),
        ["elementStrides[0]=0"],
    )
# inner box vs swizzle span
for _sw, _n in [
    ("32B", 16),
    ("64B", 32),
    ("128B", 64),
    ("128B_ATOM_32B", 64),
    ("128B_ATOM_64B", 64),
    ("128B_ATOM_32B_FLIP_8B", 64),
]:
    case(
        "swizzle.inner_box_span",
        TILED,
        dict(swizzle=_sw, box_dim=(_n, 8)),
        dict(swizzle=_sw, box_dim=(_n + 8, 8)),
        [
            "inner dimension (boxDim[0] * elementSize) must be <= the swizzle span",
            f"boxDim[0]={_n + 8}, elementSize=2 -> {2 * _n + 16} bytes > {2 * _n}",
        ],
    )
case(
    "swizzle.inner_box_span",
    TILED,
    dict(T_IL32, box_dim=(64, 8, 2)),
    dict(T3, box_dim=(24, 8, 2), swizzle="32B"),
    ["> 32 (swizzle 32B)"],
)
case(
    "swizzle.inner_box_span",
    TILED,
    dict(box_dim=(256, 8), swizzle="NONE"),
    dict(box_dim=(72, 8)),
    ["144 bytes"],
)
for _fn in (IM2COL, IM2COL_WIDE):
    case(
        "swizzle.inner_box_span",
        _fn,
        dict(channels_per_pixel=64),
        dict(channels_per_pixel=72),
        ["(channelsPerPixel * elementSize) must be <= the swizzle span", "channelsPerPixel=72"],
    )
    case(
        "swizzle.inner_box_span",
        _fn,
        dict(channels_per_pixel=32, swizzle="64B"),
        dict(channels_per_pixel=40, swizzle="64B"),
        ["80 bytes > 64 (swizzle 64B)"],
    )
case(
    "swizzle.inner_box_span",
    IM2COL,
    dict(channels_per_pixel=16, swizzle="32B"),
    dict(channels_per_pixel=24, swizzle="32B"),
    ["48 bytes > 32"],
)
# interleave
case(
    "interleave.u6_requires_none",
    TILED,
    dict(U6[TILED], global_dim=(128, 64, 4), global_strides=(128, 8192), box_dim=(128, 8, 2)),
    dict(
        U6[TILED], global_dim=(128, 64, 4), global_strides=(128, 8192), box_dim=(128, 8, 2), interleave="16B"
    ),
    ["16U6_ALIGN16B requires interleave NONE", "interleave=16B"],
)
case(
    "interleave.u6_requires_none",
    IM2COL,
    dict(U6[IM2COL]),
    dict(U6[IM2COL], interleave="16B"),
    ["requires interleave NONE"],
)
case(
    "interleave.u6_requires_none",
    IM2COL_WIDE,
    dict(U6[IM2COL_WIDE]),
    dict(U6[IM2COL_WIDE], interleave="16B"),
    ["requires interleave NONE"],
    only=False,
)
case(
    "interleave.wide_none",
    IM2COL_WIDE,
    dict(interleave="NONE"),
    dict(interleave="16B"),
    ["interleave must be NONE for im2col::w", "interleave=16B"],
)
# swizzle rules
case(
    "swizzle.interleave32_requires_32B",
    TILED,
    dict(T_IL32),
    dict(T_IL32, swizzle="64B"),
    ["swizzle must be 32B when interleave is 32B", "swizzle=64B"],
)
case(
    "swizzle.interleave32_requires_32B", IM2COL, dict(I_IL32), dict(I_IL32, swizzle="NONE"), ["swizzle=NONE"]
)
for _fn in (TILED, IM2COL):
    case(
        "swizzle.u6_allowed",
        _fn,
        dict(U6[_fn], swizzle="128B_ATOM_32B"),
        dict(U6[_fn], swizzle="128B_ATOM_64B"),
        ["16U6_ALIGN16B supports swizzle", "swizzle=128B_ATOM_64B, direction=load"],
    )
    case(
        "swizzle.u6_allowed",
        _fn,
        dict(U6[_fn], swizzle="128B_ATOM_64B"),
        dict(U6[_fn], swizzle="128B_ATOM_32B_FLIP_8B"),
        ["direction=store"],
        direction="store",
        only=False,
    )
    case(
        "swizzle.u6_allowed",
        _fn,
        dict(U6[_fn], swizzle="NONE"),
        dict(U6[_fn], swizzle="B64"),
        ["swizzle=64B"],
        only=False,
    )
    case(
        "swizzle.u4align16_allowed",
        _fn,
        dict(U4A16[_fn], swizzle="NONE"),
        dict(U4A16[_fn], swizzle="128B_ATOM_64B"),
        ["16U4_ALIGN16B supports swizzle", "swizzle=128B_ATOM_64B"],
    )
    case(
        "swizzle.u4align16_allowed",
        _fn,
        dict(U4A16[_fn], swizzle="128B_ATOM_32B"),
        dict(U4A16[_fn], swizzle="128B"),
        ["direction=store", "allowed for store: none"],
        direction=("load", "store"),
    )
case(
    "swizzle.wide_allowed",
    IM2COL_WIDE,
    dict(swizzle="64B", channels_per_pixel=32),
    dict(swizzle="32B", channels_per_pixel=16),
    ["swizzle must be 64B, 128B or 128B_ATOM_32B", "swizzle=32B"],
)
case(
    "swizzle.wide_allowed",
    IM2COL_WIDE,
    dict(swizzle="128B_ATOM_32B"),
    dict(swizzle="128B_ATOM_32B_FLIP_8B"),
    ["swizzle=128B_ATOM_32B_FLIP_8B"],
)
case("swizzle.wide_allowed", IM2COL_WIDE, dict(swizzle="128B"), dict(swizzle="NONE"), ["swizzle=NONE"])
case(
    "swizzle.wide_u6_allowed",
    IM2COL_WIDE,
    dict(U6[IM2COL_WIDE], swizzle="128B_ATOM_32B"),
    dict(U6[IM2COL_WIDE], swizzle="64B"),
    ["16U6_ALIGN16B supports swizzle 128B and 128B_ATOM_32B"],
    only=False,
)
case(
    "swizzle.wide_u6_allowed",
    IM2COL_WIDE,
    dict(U6[IM2COL_WIDE], swizzle="128B"),
    dict(U6[IM2COL_WIDE], swizzle="128B_ATOM_64B"),
    ["swizzle=128B_ATOM_64B"],
    direction="store",
    only=False,
)
case(
    "swizzle.wide_u4align16_allowed",
    IM2COL_WIDE,
    dict(U4A16[IM2COL_WIDE], swizzle="128B_ATOM_32B"),
    dict(U4A16[IM2COL_WIDE], swizzle="128B_ATOM_32B"),
    ["direction=store", "16U4_ALIGN16B"],
    direction=("load", "store"),
)
case(
    "swizzle.wide_u4align16_allowed",
    IM2COL_WIDE,
    dict(U4A16[IM2COL_WIDE], swizzle="128B"),
    dict(U4A16[IM2COL_WIDE], swizzle="64B"),
    ["swizzle=64B, direction=load"],
    only=False,
)
for _fn in (TILED, IM2COL):
    case(
        "swizzle.flip8b_load_only",
        _fn,
        dict(swizzle="128B_ATOM_32B_FLIP_8B"),
        dict(swizzle="128B_ATOM_32B_FLIP_8B"),
        ["legal only for loads", "direction=store"],
        direction=("load", "store"),
    )
case(
    "swizzle.b96_not_encodable",
    TILED,
    dict(box_dim=(48, 8), swizzle="128B"),
    dict(box_dim=(48, 8), swizzle="96B"),
    ["96-byte swizzle mode has no CUtensorMapSwizzle value", "PTX-only"],
)
case(
    "swizzle.b96_not_encodable",
    IM2COL,
    dict(channels_per_pixel=48),
    dict(channels_per_pixel=48, swizzle=96),
    ["no CUtensorMapSwizzle value"],
)
case(
    "swizzle.b96_not_encodable",
    IM2COL_WIDE,
    dict(channels_per_pixel=48),
    dict(channels_per_pixel=48, swizzle="96B"),
    ["no CUtensorMapSwizzle value"],
    only=False,
)
# oob fill
for _fn in BASE:
    case(
        "oob_fill.float_only",
        _fn,
        dict(oob_fill="NAN_REQUEST_ZERO_FMA"),
        dict(oob_fill="NAN_REQUEST_ZERO_FMA", tensor_data_type="UINT16"),
        ["NAN_REQUEST_ZERO_FMA requires a floating-point tensorDataType", "tensorDataType=UINT16"],
    )
    case(
        "oob_fill.float_only",
        _fn,
        dict(U4A8[_fn], oob_fill="NONE"),
        dict(U4A8[_fn], oob_fill=1),
        ["tensorDataType=16U4_ALIGN8B"],
    )
# every float type: test_oob_fill_every_float_type;
# every non-float type: test_oob_fill_rejects_non_float_types
# im2col pixel box
_I3 = dict(global_dim=(64, 9, 2), global_strides=(128, 1152))
_I5 = dict(global_dim=(64, 9, 9, 9, 2), global_strides=(128, 1152, 10368, 93312))
case(
    "pixel_box.range",
    IM2COL,
    dict(_I3, pixel_box_lower_corner=(-32768,), pixel_box_upper_corner=(32767,)),
    dict(_I3, pixel_box_lower_corner=(-32769,), pixel_box_upper_corner=(32767,)),
    ["tensorRank=3 allows [-32768, 32767]", "pixelBoxLowerCorner[0]=-32769"],
)
case(
    "pixel_box.range",
    IM2COL,
    dict(_I3, pixel_box_lower_corner=(0,), pixel_box_upper_corner=(32767,)),
    dict(_I3, pixel_box_lower_corner=(0,), pixel_box_upper_corner=(32768,)),
    ["pixelBoxUpperCorner[0]=32768"],
)
case(
    "pixel_box.range",
    IM2COL,
    dict(pixel_box_lower_corner=(-128, -128), pixel_box_upper_corner=(127, 127)),
    dict(pixel_box_lower_corner=(-129, -128), pixel_box_upper_corner=(127, 128)),
    ["tensorRank=4 allows [-128, 127]", "pixelBoxLowerCorner[0]=-129", "pixelBoxUpperCorner[1]=128"],
)
case(
    "pixel_box.range",
    IM2COL,
    dict(_I5, pixel_box_lower_corner=(-16, -16, -16), pixel_box_upper_corner=(15, 15, 15)),
    dict(_I5, pixel_box_lower_corner=(-16, -17, -16), pixel_box_upper_corner=(15, 15, 16)),
    ["tensorRank=5 allows [-16, 15]", "pixelBoxLowerCorner[1]=-17", "pixelBoxUpperCorner[2]=16"],
)
case(
    "pixel_box.nonzero_area",
    IM2COL,
    dict(pixel_box_lower_corner=(0, 0), pixel_box_upper_corner=(-8, 0)),
    dict(pixel_box_lower_corner=(0, 0), pixel_box_upper_corner=(-9, 0)),
    ["must have non-zero area", "globalDim[1] + upper[0] - lower[0] = 9 + -9 - 0 = 0"],
)
case(
    "pixel_box.nonzero_area",
    IM2COL,
    dict(pixel_box_lower_corner=(3, 2), pixel_box_upper_corner=(-5, -6)),
    dict(pixel_box_lower_corner=(3, 3), pixel_box_upper_corner=(-5, -6)),
    ["= 0"],
)
case(
    "pixel_box_width.range",
    IM2COL_WIDE,
    dict(pixel_box_lower_corner_width=-32768, pixel_box_upper_corner_width=32767),
    dict(pixel_box_lower_corner_width=-32768, pixel_box_upper_corner_width=32768),
    ["must be in [-32768, 32767]", "pixelBoxUpperCornerWidth=32768"],
)
case(
    "pixel_box_width.range",
    IM2COL_WIDE,
    dict(pixel_box_lower_corner_width=-32768),
    dict(pixel_box_lower_corner_width=-32769),
    ["pixelBoxLowerCornerWidth=-32769"],
)
case(
    "pixel_box_width.nonzero_area",
    IM2COL_WIDE,
    dict(pixel_box_lower_corner_width=0, pixel_box_upper_corner_width=-8),
    dict(pixel_box_lower_corner_width=0, pixel_box_upper_corner_width=-9),
    ["must have non-zero area", "globalDim[1] + upper - lower = 9 + -9 - 0 = 0"],
)
# channels / pixels
case(
    "channels_per_pixel.range",
    IM2COL,
    dict(channels_per_pixel=256, swizzle="NONE"),
    dict(channels_per_pixel=257, swizzle="NONE"),
    ["channelsPerPixel must be non-zero and <= 256", "=257"],
)
case(
    "channels_per_pixel.range",
    IM2COL,
    dict(channels_per_pixel=1),
    dict(channels_per_pixel=0),
    ["channelsPerPixel=0"],
)
case(
    "channels_per_pixel.range",
    IM2COL_WIDE,
    dict(U4A8[IM2COL_WIDE], channels_per_pixel=256),
    dict(U4A8[IM2COL_WIDE], channels_per_pixel=257),
    ["channelsPerPixel=257"],
    only=False,
)
case(
    "channels_per_pixel.range",
    IM2COL_WIDE,
    dict(channels_per_pixel=1),
    dict(channels_per_pixel=0),
    ["channelsPerPixel=0"],
)
for _fn in (IM2COL, IM2COL_WIDE):
    case(
        "channels_per_pixel.packed16_is128",
        _fn,
        dict(U6[_fn]),
        dict(U6[_fn], channels_per_pixel=127),
        ["channelsPerPixel must be 128 for 16U6_ALIGN16B", "channelsPerPixel=127"],
    )
    case(
        "channels_per_pixel.packed16_is128",
        _fn,
        dict(U4A16[_fn]),
        dict(U4A16[_fn], channels_per_pixel=64),
        ["tensorDataType=16U4_ALIGN16B, channelsPerPixel=64"],
    )
    case(
        "pixels_per_column.range",
        _fn,
        dict(pixels_per_column=1024),
        dict(pixels_per_column=1025),
        ["pixelsPerColumn must be non-zero and <= 1024", "pixelsPerColumn=1025"],
    )
    case(
        "pixels_per_column.range",
        _fn,
        dict(pixels_per_column=1),
        dict(pixels_per_column=0),
        ["pixelsPerColumn=0"],
    )
case(
    "pixels_per_column.range",
    IM2COL_WIDE,
    dict(mode="W128", pixels_per_column=1025),
    dict(mode="W", pixels_per_column=1025),
    ["pixelsPerColumn=1025"],
)


def _case_ids(cases: list[C]) -> list[str]:
    """``rule-Function`` for the first case of a (rule, function) pair, then ``rule-Function-2`` ..."""
    seen: dict[str, int] = {}
    ids = []
    for c in cases:
        base = f"{c[0]}-{c[1].removeprefix('cuTensorMapEncode')}"
        seen[base] = seen.get(base, 0) + 1
        ids.append(base if seen[base] == 1 else f"{base}-{seen[base]}")
    return ids


@pytest.mark.parametrize("rule, fn, valid, invalid, words, direction, only", CASES, ids=_case_ids(CASES))
def test_rule_at_limit_and_past_it(rule, fn, valid, invalid, words, direction, only) -> None:
    ok_dir, bad_dir = (direction, direction) if isinstance(direction, str) else direction
    ok = make(fn, **valid)
    assert ok.violations(ok_dir) == [], [v.message for v in ok.violations(ok_dir)]
    assert ok.validate(ok_dir) is ok
    bad = make(fn, **invalid)
    direction = bad_dir
    found = bad.violations(direction)
    rules = [v.rule for v in found]
    if only:
        assert rules == [rule], [v.message for v in found]
    else:
        assert rule in rules, [v.message for v in found]
    msg = next(v.message for v in found if v.rule == rule)
    assert msg.startswith(fn + ": ")
    for w in words:
        assert w in msg, (w, msg)
    with pytest.raises(TensorMapError) as exc:
        bad.validate(direction, collect_all=True)
    assert rule in [v.rule for v in exc.value.violations]
    assert msg in str(exc.value)


def test_every_validate_rule_and_function_has_a_case() -> None:
    covered = {(c[0], c[1]) for c in CASES}
    for r in RULES.values():
        if r.checked_by != "validate" or r.id.startswith("arch."):  # arch rules: tests/arch/test_tma_arch.py
            continue
        for fn in r.functions:
            assert (r.id, fn) in covered, (r.id, fn)
    # and no case names a rule for a function it does not bind
    for rid, fn in covered:
        assert fn in RULES[rid].functions, (rid, fn)


@pytest.mark.parametrize("dt", [m for m in TensorDataType if m.is_float])
def test_oob_fill_every_float_type(dt: TensorDataType) -> None:
    size = dt.bits // 8
    m = make(TILED, tensor_data_type=dt, box_dim=(128 // size, 8), global_strides=(256 * size,), oob_fill=1)
    assert m.violations() == []


@pytest.mark.parametrize("dt", [m for m in TensorDataType if not m.is_float])
def test_oob_fill_rejects_non_float_types(dt: TensorDataType) -> None:
    m = make(TILED, oob_fill="NAN_REQUEST_ZERO_FMA", tensor_data_type=dt)
    assert "oob_fill.float_only" in [v.rule for v in m.violations()]


def test_validate_first_and_all() -> None:
    m = make(TILED, box_dim=(12, 300), global_address=8)
    with pytest.raises(TensorMapError) as exc:
        m.validate()
    assert exc.value.rule == "global_address.align16"
    assert "\n" not in str(exc.value)
    assert [v.rule for v in exc.value.violations] == [
        "global_address.align16",
        "box_dim.range",
        "box_dim.inner_bytes_multiple16",
    ]
    with pytest.raises(TensorMapError, match=r"3 violated rules:\n  \[global_address.align16\]"):
        m.validate(collect_all=True)
    with pytest.raises(TensorMapError, match="direction must be 'load' or 'store'"):
        m.violations("both")  # type: ignore[arg-type]


def test_message_quotes_rule_and_values() -> None:
    m = make(TILED, box_dim=(12, 8), swizzle="NONE")
    with pytest.raises(TensorMapError) as exc:
        m.validate()
    assert str(exc.value) == (
        "cuTensorMapEncodeTiled: boxDim[0] * elementSize must be a multiple of 16 bytes when interleave is "
        "NONE: boxDim[0]=12, elementSize=2 -> 24 bytes"
    )


def test_construction_parses_enums_and_normalises() -> None:
    m = make(
        TILED,
        swizzle="CU_TENSOR_MAP_SWIZZLE_128B",
        l2_promotion=2,
        interleave="none",
        global_dim=np.array([256, 64]),
        box_dim=[64, 8],
        oob_fill=OobFill.NONE,
    )
    assert m.swizzle is SwizzleMode.B128 and m.l2_promotion is L2Promotion.L2_128B
    assert m.interleave is Interleave.NONE and m.tensor_data_type is TensorDataType.FLOAT16
    assert m.global_dim == (256, 64) and m.box_dim == (64, 8) and m.element_strides == (1, 1)
    assert m.tensor_rank == 2
    assert m == make(TILED, l2_promotion="L2_128B") and hash(m) == hash(make(TILED, l2_promotion=2))
    with pytest.raises(AttributeError):
        m.swizzle = SwizzleMode.NONE  # type: ignore[misc]
    w = make(IM2COL_WIDE, mode=1)
    assert w.mode is Im2colWideMode.W128


@pytest.mark.parametrize(
    "fn, over, match",
    [
        (TILED, dict(swizzle="256B"), "SwizzleMode.parse"),
        (TILED, dict(tensor_data_type="float8"), "TensorDataType.parse"),
        (TILED, dict(interleave=5), "Interleave.parse"),
        (TILED, dict(l2_promotion="huge"), "L2Promotion.parse"),
        (TILED, dict(oob_fill="nan"), "OobFill.parse"),
        (IM2COL_WIDE, dict(mode="W256"), "Im2colWideMode.parse"),
        (TILED, dict(global_dim="abc"), "globalDim must be a sequence of integers"),
        (TILED, dict(global_dim=5), "globalDim must be a sequence of integers"),
        (TILED, dict(box_dim=(64, 8.0)), r"boxDim\[1\] must be an integer"),
        (TILED, dict(global_strides=(None,)), r"globalStrides\[0\] must be an integer"),
        (TILED, dict(tensor_rank="2"), "tensorRank must be an integer"),
        (TILED, dict(global_address=-16), "globalAddress"),
        (TILED, dict(global_address=2**64), "globalAddress"),
        (TILED, dict(element_strides=(1, True)), r"elementStrides\[1\] must be an integer"),
        (IM2COL, dict(pixel_box_lower_corner=None), "pixelBoxLowerCorner must be a sequence"),
        (IM2COL, dict(channels_per_pixel=64.0), "channelsPerPixel must be an integer"),
        (IM2COL_WIDE, dict(pixel_box_upper_corner_width="0"), "pixelBoxUpperCornerWidth must be an integer"),
        (IM2COL_WIDE, dict(pixels_per_column=None), "pixelsPerColumn must be an integer"),
    ],
)
def test_construction_rejects_malformed_input(fn: str, over: dict, match: str) -> None:
    with pytest.raises(TensorMapError, match=match):
        make(fn, **over)


def test_parse_checked_rules_exist() -> None:
    parse_rules = {r.id for r in RULES.values() if r.checked_by == "parse"}
    assert parse_rules == {
        "enum.data_type",
        "enum.interleave",
        "enum.swizzle",
        "enum.l2_promotion",
        "enum.oob_fill",
        "enum.mode",
    }
    assert {r.id for r in RULES.values() if r.checked_by == "not checked"} == {
        "tensor_map.align64",
        "global_dim.packed_counts_values",
    }


def test_rules_for() -> None:
    ids = [r.id for r in rules_for(TILED)]
    assert "box_dim.range" in ids and "pixel_box.range" not in ids
    assert "enum.swizzle" in [r.id for r in rules_for(TILED, checked_by=None)]
    with pytest.raises(TensorMapError, match="unknown function"):
        rules_for("cuTensorMapEncodeFoo")


def test_tiled_smem_layout_and_elements() -> None:
    m = make(TILED, box_dim=(64, 16), element_strides=(4, 2))
    assert m.elements_per_dim() == (64, 8)  # elementStrides[0] ignored with interleave NONE
    out = m.smem_layout()
    assert out.shape == (8, 128)
    assert np.array_equal(out, box_to_smem("128B", 2, (64, 8)))
    assert np.array_equal(m.smem_layout(1024 + 256), box_to_smem("128B", 2, (64, 8), 1280))
    with pytest.raises(TensorMapError, match="boxDim"):
        make(TILED, box_dim=(12, 8)).smem_layout()
    packed = make(TILED, **U6[TILED])
    assert packed.smem_layout().shape == (8, 128)  # 128 values, 16 bytes per 16 values in smem


DOC = Path(__file__).resolve().parents[2] / "docs" / "tma.md"


@pytest.mark.parametrize(
    "swizzle, box, dst",
    [
        ("128B", (64, 8), 0),
        ("64B", (32, 4, 3), 1152),
        ("NONE", (64,), 128 * 3),
        ("128B_ATOM_32B_FLIP_8B", (64, 2, 2), 2048 + 384),
    ],
)
def test_smem_byte_layout_matches_box_to_smem(swizzle: str, box: tuple, dst: int) -> None:
    rank = len(box)
    dims = (256, 64, 4)[:rank]
    strides = (512, 32768)[: rank - 1]
    m = make(TILED, global_dim=dims, global_strides=strides, box_dim=box, swizzle=swizzle)
    L = m.smem_byte_layout(dst)
    assert np.array_equal(L.to_numpy() - dst, m.smem_layout(dst).ravel())


def test_docs_table_lists_every_rule() -> None:
    doc = DOC
    text = doc.read_text()
    rows = re.findall(r"^\| `([A-Za-z0-9_]+\.[A-Za-z0-9_.]+)` \|", text, flags=re.M)
    assert sorted(rows) == sorted(RULES), set(rows) ^ set(RULES)


# ---------------------------------------------------------------------------------------------
# Hypothesis properties
# ---------------------------------------------------------------------------------------------

modes = st.sampled_from(ALL_MODES)


@st.composite
def boxes(draw, mode_strategy=modes, aligned_total: bool = True):
    mode = draw(mode_strategy)
    info = swizzle_mode_info(mode)
    span = info.span_bytes or 256
    elem = draw(st.sampled_from([1, 2, 4, 8]))
    row_bytes = 16 * draw(st.integers(1, span // 16))
    outer = draw(st.lists(st.integers(1, 6), min_size=0, max_size=3))
    total = row_bytes * math.prod(outer)
    block = info.permuted_block_bytes
    if aligned_total and total % block:
        outer = [*outer, block // math.gcd(total, block)]
    return mode, elem, (row_bytes // elem, *outer)


def _dense(mode, elem, dims, dst=0):
    """Unswizzled offsets of the box bytes: rows one span apart (swizzled modes), dense without swizzle."""
    info = swizzle_mode_info(mode)
    row = dims[0] * elem
    pitch = row if info.span_bytes is None or mode == "NONE" else info.span_bytes
    rows = math.prod(dims[1:])
    return (np.arange(rows)[:, None] * pitch + np.arange(row)[None, :]).ravel() + dst


def test_narrow_rows_are_one_span_apart() -> None:
    # measured on an H100 (docs/hardware-validation.md): a 64-byte row in 128B mode still takes 128 bytes
    assert box_to_smem("128B", 2, (32, 2))[1, :4].tolist() == [144, 145, 146, 147]
    assert box_to_smem("128B", 2, (32, 2), row_pitch_bytes=64)[1, :4].tolist() == [64, 65, 66, 67]
    assert box_to_smem("32B", 1, (16, 2))[1, :2].tolist() == [32, 33]
    assert box_to_smem("NONE", 2, (8, 2))[1, :2].tolist() == [16, 17]   # no swizzle: dense


@settings(deadline=None)
@given(boxes(), st.integers(0, 6))
def test_bijection_onto_box_bytes_when_aligned(box, k) -> None:
    mode, elem, dims = box
    info = swizzle_mode_info(mode)
    dst = k * (info.pattern_boundary_bytes or 128)
    out = box_to_smem(mode, elem, dims, dst).ravel()
    dense = _dense(mode, elem, dims)
    assert np.unique(out).size == out.size and out.max() <= dense.max() | (info.period_bytes or 1) - 1
    if dims[0] * elem == (info.span_bytes or dims[0] * elem) or mode == "NONE":
        assert np.array_equal(np.sort(out), np.arange(out.size))


@settings(deadline=None)
@given(boxes(aligned_total=False), st.integers(0, 200))
def test_injective_for_any_destination(box, k) -> None:
    mode, elem, dims = box
    dst = k * swizzle_mode_info(mode).required_alignment_bytes
    out = box_to_smem(mode, elem, dims, dst).ravel()
    assert np.unique(out).size == out.size
    # every byte stays inside the permuted block of its unswizzled address
    block = swizzle_mode_info(mode).permuted_block_bytes
    dense = _dense(mode, elem, dims, dst)
    assert np.array_equal((out + dst) // block, dense // block)


@settings(deadline=None)
@given(boxes(aligned_total=False), st.integers(0, 64))
def test_16_byte_chunks_intact_except_flip(box, k) -> None:
    mode, elem, dims = box
    info = swizzle_mode_info(mode)
    dst = k * info.required_alignment_bytes
    out = box_to_smem(mode, elem, dims, dst).ravel()
    chunks = out.reshape(-1, 16)
    intact16 = np.all(chunks - chunks[:, :1] == np.arange(16), axis=1)
    if mode == "128B_ATOM_32B_FLIP_8B":
        # 8-byte halves stay intact; 16-byte chunks on odd 128-byte lines are split
        halves = out.reshape(-1, 8)
        assert np.all(halves - halves[:, :1] == np.arange(8))
        odd_line = ((_dense(mode, elem, dims, dst)[::16] >> 7) & 1) == 1
        assert np.array_equal(intact16, ~odd_line)
    else:
        assert intact16.all()
        g = info.intact_bytes if mode != "NONE" else 16
        row = dims[0] * elem
        if (row if mode != "NONE" else out.size) % g == 0:
            grains = out.reshape(-1, g)
            assert np.all(grains - grains[:, :1] == np.arange(g))


@settings(deadline=None)
@given(boxes(st.sampled_from(SWIZZLED_MODES), aligned_total=False), st.integers(0, 40))
def test_only_the_base_offset_of_dst_matters(box, k) -> None:
    mode, elem, dims = box
    info = swizzle_mode_info(mode)
    dst = 128 * k
    base = swizzle_base_offset(mode, dst)
    placed = box_to_smem(mode, elem, dims, dst)
    # the same box written at the boundary-relative address base*128
    assert np.array_equal(placed, box_to_smem(mode, elem, dims, base * 128))
    assert np.array_equal(placed, box_to_smem(mode, elem, dims, dst + 3 * info.pattern_boundary_bytes))


@settings(deadline=None)
@given(modes, st.lists(st.integers(0, 2**20), min_size=1, max_size=50))
def test_maps_are_involutions(mode, xs) -> None:
    f = swizzle_byte_map(mode)
    x = np.array(xs, dtype=np.int64)
    assert np.array_equal(f(f(x)), x)
    assert [f(int(v)) for v in xs] == f(x).tolist()


@settings(deadline=None)
@given(st.lists(st.tuples(st.integers(1, 64), st.integers(1, 8)), min_size=1, max_size=5))
def test_elements_per_dim_property(pairs) -> None:
    box = tuple(n * s for n, s in pairs)
    strides = tuple(s for _, s in pairs)
    got = elements_per_dim(box, strides, "16B")
    assert got == tuple(n for n, _ in pairs)


_any_int = st.one_of(st.integers(-(2**70), 2**70), st.integers(-3, 300))
_int_list = st.lists(_any_int, max_size=7)


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from([TILED, IM2COL, IM2COL_WIDE]),
    st.integers(0, 15),
    st.one_of(st.none(), st.integers(-2, 8)),
    _int_list,
    _int_list,
    _int_list,
    _int_list,
    st.tuples(_any_int, _any_int, _any_int),
    st.sampled_from(list(SwizzleMode)),
    st.integers(0, 2),
    st.sampled_from(["load", "store"]),
)
def test_violations_never_crash(fn, dt, rank, dims, strides, a, b, scalars, sw, il, direction) -> None:
    common = dict(
        tensor_data_type=dt,
        tensor_rank=rank,
        global_dim=dims,
        global_strides=strides,
        swizzle=sw,
        interleave=il,
        element_strides=a,
    )
    try:
        if fn == TILED:
            m = TiledTensorMap(box_dim=b, **common)
        elif fn == IM2COL:
            m = Im2colTensorMap(
                pixel_box_lower_corner=a,
                pixel_box_upper_corner=b,
                channels_per_pixel=scalars[0],
                pixels_per_column=scalars[1],
                **common,
            )
        else:
            m = Im2colWideTensorMap(
                pixel_box_lower_corner_width=scalars[0],
                pixel_box_upper_corner_width=scalars[1],
                channels_per_pixel=scalars[2],
                pixels_per_column=scalars[0],
                **common,
            )
    except TensorMapError:
        return
    found = m.violations(direction)
    assert all(v.message.startswith(fn + ": ") and v.rule in RULES for v in found)
    assert all(fn in RULES[v.rule].functions for v in found)
    if found:
        with pytest.raises(TensorMapError):
            m.validate(direction)
    else:
        assert m.validate(direction) is m


def test_module_all_is_exported() -> None:
    for name in tma.__all__:
        assert hasattr(tma, name)
