"""The reverse direction of TMA (pycute_layouts.arch.tma): smem layout -> tensor map + copies.

Three kinds of checks:
- canonical wgmma/tcgen05 tiles with the box, swizzle, copies and tensor-map values a kernel author
  would write by hand (and which CuTe's make_tma_copy derives);
- round trip (hypothesis): for every element of the tile, the byte address from the input smem
  layout equals the address where the derived copies put it, computed through the FORWARD model
  (TiledTensorMap.smem_byte_layout / box_to_smem) and matched through global memory offsets;
- every reason the planner gives for "no single tensor map produces this layout", each naming the
  rule and the values.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pycute_layouts import ComposedLayout, Layout, Swizzle, SwizzledSmemLayout, XorSwizzle, parse, tile_to_shape
from pycute_layouts.arch import tma, umma, wgmma
from pycute_layouts.arch.swizzle_modes import SwizzleMode
from pycute_layouts.arch.tma import PLAN_RULES, TiledTensorMap, parse_data_type, plan_tma_load
from pycute_layouts.errors import LayoutError, TensorMapError

K_MAJOR_G = Layout((4096, 4096), (4096, 1))  # (M, K), K contiguous
MN_MAJOR_G = Layout((4096, 4096), (1, 4096))  # (M, K), M contiguous


def tile(major: str, mode: str, bits: int, mn: int, k: int, arch: str = "sm90") -> SwizzledSmemLayout:
    """CUTLASS's stage layout: tile_to_shape(atom, (MN, K)) with K atoms first for MN-major."""
    a = (wgmma if arch == "sm90" else umma).smem_atom(major, mode, bits)
    order = (1, 0) if major == "MN" else (0, 1)
    return SwizzledSmemLayout(a.swizzle, tile_to_shape(a.layout, (mn, k), order), bits)


def summary(p: tma.TmaLoadPlan) -> tuple:
    return (p.box_dim, p.swizzle, p.num_copies, [c.coords for c in p.copies],
            [c.smem_offset_bytes for c in p.copies])


# ---------------------------------------------------------------------------------------------
# Canonical cases
# ---------------------------------------------------------------------------------------------

CANONICAL = [
    # (major, mode, bits, MN, K, global, box, swizzle, coords, offsets)
    ("K", "128B", 16, 64, 64, K_MAJOR_G, (64, 64), SwizzleMode.B128, [(0, 0)], [0]),
    ("K", "128B", 16, 128, 128, K_MAJOR_G, (64, 128), SwizzleMode.B128, [(0, 0), (64, 0)], [0, 16384]),
    ("MN", "128B", 16, 128, 64, MN_MAJOR_G, (64, 64), SwizzleMode.B128, [(0, 0), (64, 0)], [0, 8192]),
    ("MN", "128B", 16, 64, 64, MN_MAJOR_G, (64, 64), SwizzleMode.B128, [(0, 0)], [0]),
    ("K", "64B", 16, 64, 64, K_MAJOR_G, (32, 64), SwizzleMode.B64, [(0, 0), (32, 0)], [0, 4096]),
    ("K", "32B", 16, 64, 64, K_MAJOR_G, (16, 64), SwizzleMode.B32, [(0, 0), (16, 0), (32, 0), (48, 0)],
     [0, 2048, 4096, 6144]),
    ("MN", "64B", 16, 64, 16, MN_MAJOR_G, (32, 16), SwizzleMode.B64, [(0, 0), (32, 0)], [0, 1024]),
    # no swizzle (wgmma INTERLEAVE): 16-byte core-matrix rows, one box per 8-element K column block
    ("K", "none", 16, 64, 64, K_MAJOR_G, (8, 64), SwizzleMode.NONE, [(8 * i, 0) for i in range(8)],
     [1024 * i for i in range(8)]),
    ("MN", "none", 16, 64, 16, MN_MAJOR_G, (8, 16), SwizzleMode.NONE, [(8 * i, 0) for i in range(8)],
     [256 * i for i in range(8)]),
    # fp8 (e4m3 -> UINT8) and tf32
    ("K", "128B", 8, 128, 128, K_MAJOR_G, (128, 128), SwizzleMode.B128, [(0, 0)], [0]),
    ("K", "64B", 8, 64, 128, K_MAJOR_G, (64, 64), SwizzleMode.B64, [(0, 0), (64, 0)], [0, 4096]),
    ("K", "128B", 32, 64, 32, K_MAJOR_G, (32, 64), SwizzleMode.B128, [(0, 0)], [0]),
    ("K", "32B", 32, 64, 32, K_MAJOR_G, (8, 64), SwizzleMode.B32, [(0, 0), (8, 0), (16, 0), (24, 0)],
     [0, 2048, 4096, 6144]),
]


@pytest.mark.parametrize("major,mode,bits,mn,k,g,box,sw,coords,offs", CANONICAL,
                         ids=[f"{c[0]}-{c[1]}-{c[2]}b-{c[3]}x{c[4]}" for c in CANONICAL])
def test_canonical_wgmma_tiles(major, mode, bits, mn, k, g, box, sw, coords, offs) -> None:
    S = tile(major, mode, bits, mn, k)
    p = plan_tma_load(S, g, bits)
    assert summary(p) == (box, sw, len(coords), coords, offs)
    m = p.tensor_map
    eb = bits // 8
    assert m.global_dim == (4096, 4096) and m.global_strides == (4096 * eb,)
    assert m.element_strides == (1, 1) and m.interleave is tma.Interleave.NONE
    assert m.violations() == []
    assert p.bytes_per_copy == box[0] * box[1] * eb == mn * k * eb // len(coords)
    assert np.array_equal(p.smem_byte_addresses(), S.byte_addresses())
    assert p.smem_layout().layout == S.layout and p.smem_layout().swizzle == S.swizzle


def test_deepgemm_k_major_sw128_bf16_64x64_with_dtype() -> None:
    p = plan_tma_load(parse("Sw<3,3,3> o 0 o (64,64):(64,1)"), K_MAJOR_G, 16, data_type="bf16")  # CuTe's 128B atom
    assert p.tensor_map.tensor_data_type is tma.TensorDataType.BFLOAT16
    assert (p.box_dim, p.swizzle, p.num_copies, p.tensor_map.global_strides) == ((64, 64), SwizzleMode.B128, 1, (8192,))
    assert p.box_notes[-1] == "the box covers the whole tile"


def test_fp8_and_tf32_data_types() -> None:
    p = plan_tma_load(tile("K", "128B", 8, 128, 128), K_MAJOR_G, 8, data_type="e4m3")
    assert p.tensor_map.tensor_data_type is tma.TensorDataType.UINT8 and p.box_dim == (128, 128)
    p = plan_tma_load(tile("K", "128B", 32, 64, 32), K_MAJOR_G, data_type="tf32")
    assert p.tensor_map.tensor_data_type is tma.TensorDataType.TFLOAT32 and p.element_bits == 32
    assert p.tensor_map.global_strides == (16384,)
    # default type: the unsigned integer of the width
    assert plan_tma_load(tile("K", "128B", 32, 64, 32), K_MAJOR_G, 32).tensor_map.tensor_data_type.name == "UINT32"


def test_sm100_128b_base32b_is_atom_32b() -> None:
    S = tile("MN", "128B_base32B", 32, 64, 32, arch="sm100")
    p = plan_tma_load(S, MN_MAJOR_G, 32)
    assert summary(p) == ((32, 32), SwizzleMode.B128_BASE32B, 2, [(0, 0), (32, 0)], [0, 4096])
    assert np.array_equal(p.smem_byte_addresses(), S.byte_addresses())


@pytest.mark.parametrize("sw,mode", [(Swizzle(1, 6, 1), SwizzleMode.B128_ATOM_64B),
                                     (XorSwizzle([(7, 3)]).compose(Swizzle(2, 5, 2)),
                                      SwizzleMode.B128_ATOM_32B_FLIP_8B),
                                     (Swizzle(2, 5, 2), SwizzleMode.B128_BASE32B)])
def test_tma_only_modes(sw, mode) -> None:
    S = SwizzledSmemLayout(sw, Layout((16, 64), (64, 1)), 16)
    p = plan_tma_load(S, Layout((256, 64), (64, 1)), 16)
    assert (p.box_dim, p.swizzle, p.num_copies) == ((64, 16), mode, 1)
    assert np.array_equal(p.smem_byte_addresses(), S.byte_addresses())


def test_base_address_and_composed_offset() -> None:
    # The tile at 0x400 (SwizzledSmemLayout) and at element offset 512 (ComposedLayout) is the same
    # placement: copies land at 0x400 + their offsets and reproduce every address.
    A = SwizzledSmemLayout(Swizzle(3, 4, 3), tile_to_shape(Layout((8, 64), (64, 1)), (64, 128)), 16, base_address=1024)
    p = plan_tma_load(A, K_MAJOR_G, 16)
    assert p.base_address == 1024 and [c.smem_offset_bytes for c in p.copies] == [0, 8192]
    assert np.array_equal(p.smem_byte_addresses(), A.byte_addresses())
    C = ComposedLayout(Swizzle(3, 3, 3), 512, A.layout)  # the same swizzle on 16-bit element offsets
    q = plan_tma_load(C, K_MAJOR_G, 16)
    assert q.base_address == 0 and [c.smem_offset_bytes for c in q.copies] == [1024, 9216]
    assert np.array_equal(q.smem_byte_addresses(), A.byte_addresses())
    assert q.smem_layout().base_address == 1024


def test_off_boundary_base_keeps_absolute_swizzle() -> None:
    # A tile starting 3 lines into the 128B pattern (base offset 3): the copies still reproduce it.
    A = SwizzledSmemLayout(Swizzle(3, 4, 3), Layout((8, 64), (64, 1)), 16, base_address=384)
    p = plan_tma_load(A, K_MAJOR_G, 16)
    assert tma.swizzle_base_offset(p.swizzle, p.base_address) == 3
    assert np.array_equal(p.smem_byte_addresses(), A.byte_addresses())


def test_element_unit_swizzle_is_converted() -> None:
    S = SwizzledSmemLayout(Swizzle(3, 3, 3), Layout((8, 64), (64, 1)), 16, swizzle_unit="elements")
    p = plan_tma_load(S, K_MAJOR_G)
    assert p.swizzle is SwizzleMode.B128 and p.element_bits == 16
    assert np.array_equal(p.smem_byte_addresses(), S.byte_addresses())


def test_batched_global_gets_a_third_tma_dimension() -> None:
    S = SwizzledSmemLayout(Swizzle(3, 4, 3), Layout((64, 64, 1), (64, 1, 0)), 16)
    g = Layout((4096, 4096, 8), (4096, 1, 4096 * 4096))
    p = plan_tma_load(S, g, 16)
    assert p.box_dim == (64, 64, 1) and p.tma_modes == ((1, 0), (0, 0), (2, 0))
    assert p.tensor_map.global_dim == (4096, 4096, 8) and p.tensor_map.global_strides == (8192, 4096 * 4096 * 2)
    assert p.copies[0].coords == (0, 0, 0)


def test_hierarchical_global_mode_gives_one_tma_dim_per_submode() -> None:
    # global mode 0 = (2:1, 4:8): not coalescable, so the box walks it as two TMA dimensions
    S = Layout((8, 2), (1, 8))
    p = plan_tma_load(S, Layout(((2, 4), 2), ((1, 8), 64)), 64)
    assert p.box_dim == (2, 4, 2) and p.tensor_map.global_dim == (2, 4, 2)
    assert p.tensor_map.global_strides == (64, 512)
    assert np.array_equal(p.smem_byte_addresses(), S.to_numpy() * 8)


def test_global_modes_are_coalesced_first() -> None:
    p = plan_tma_load(Layout((64, 8), (1, 64)), Layout(((8, 8), (2, 4)), ((1, 8), (64, 128))), 16)
    assert p.tensor_map.global_dim == (64, 8) and p.tensor_map.global_strides == (128,)


def test_padded_rows_need_one_copy_per_row() -> None:
    # 72-element row pitch (padding against bank conflicts): each row would be its own box, 144 bytes apart,
    # but TMA destinations must be 128-byte aligned (measured on an H100): no plan
    S = Layout((8, 64), (72, 1))
    e = raises("plan.copy_alignment", S, K_MAJOR_G, 16)
    assert "copy #1 lands at byte address 0x90" in str(e) and "128-byte aligned" in str(e)
    # a 128-element pitch (rows 256 bytes apart) is loadable, one row per copy
    p = plan_tma_load(Layout((8, 64), (128, 1)), K_MAJOR_G, 16)
    assert p.box_dim == (64, 1) and p.num_copies == 8
    assert [c.coords for c in p.copies] == [(0, i) for i in range(8)]
    assert [c.smem_offset_bytes for c in p.copies] == [256 * i for i in range(8)]
    assert "next smem element is at offset 128" in p.box_notes[-1]


def test_split_shrinks_past_the_limits() -> None:
    S = SwizzledSmemLayout(Swizzle(3, 4, 3), Layout((8, 128), (128, 1)), 16)   # 256-byte rows under 128B
    p = plan_tma_load(S, K_MAJOR_G, 16, split=True)
    assert p.box_dim == (64, 1) and p.num_copies == 16
    assert np.array_equal(p.smem_byte_addresses(), S.byte_addresses())
    L = Layout((64, 512), (1, 64))  # 512 rows
    q = plan_tma_load(L, Layout((64, 4096), (1, 64)), 16, split=True)
    assert q.box_dim == (64, 256) and [c.coords for c in q.copies] == [(0, 0), (0, 256)]
    assert "split=True shrank boxDim[1] from 512 to 256" in q.box_notes[-1]


def test_to_dict_is_json_ready() -> None:
    import json

    d = plan_tma_load(tile("K", "128B", 16, 128, 128), K_MAJOR_G, 16).to_dict()
    assert json.loads(json.dumps(d))["copies"] == [{"coords": [0, 0], "smem_offset_bytes": 0},
                                                   {"coords": [64, 0], "smem_offset_bytes": 16384}]
    assert d["tensor_map"]["swizzle"] == "128B" and d["swizzle_value"] == 3


def test_agrees_with_codegen_describe_operand() -> None:
    codegen = pytest.importorskip("pycute_layouts.codegen")
    for arch, major, sw, dt, shape in [("sm90", "K", "128B", "bf16", (128, 128)), ("sm90", "MN", "64B", "bf16", (64, 32)),
                                       ("sm90", "K", "none", "bf16", (64, 64)), ("sm90", "K", "32B", "e4m3", (64, 128)),
                                       ("sm100", "MN", "128B_base32B", "tf32", (64, 32))]:
        try:
            oc = codegen.describe_operand(arch, major, sw, dt, shape)
        except LayoutError as e:  # pragma: no cover - codegen changing under us
            pytest.skip(f"codegen.describe_operand unavailable: {e}")
        g = K_MAJOR_G if major == "K" else MN_MAJOR_G
        p = plan_tma_load(oc.tile_layout, g, oc.element_bits)
        assert p.box_dim == tuple(oc.tma_box_dim)
        assert int(p.swizzle) == int(oc.tma_swizzle)
        assert [c.smem_offset_bytes for c in p.copies] == list(oc.tma_copy_offsets_bytes)
        assert [c.coords for c in p.copies] == [tuple(c) for c in oc.tma_copy_coords]


# ---------------------------------------------------------------------------------------------
# Round trip (hypothesis)
# ---------------------------------------------------------------------------------------------


def placed_by_forward_model(p: tma.TmaLoadPlan, g_stride_elems: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(global element offset, absolute smem byte address) of every element every copy writes.

    Uses only the tensor map (TiledTensorMap.smem_byte_layout, the forward model) and the copies'
    TMA coordinates; the global offset of TMA coordinates (c0, c1, ...) is sum c_i * stride_i with
    stride_0 = 1 and stride_i = globalStrides[i-1] / element bytes.
    """
    m = p.tensor_map
    eb = p.element_bytes
    strides = np.array([1] + [s // eb for s in m.global_strides], dtype=np.int64)
    box = p.box_dim
    idx = np.indices(tuple(reversed(box)), dtype=np.int64).reshape(len(box), -1)[::-1]
    goffs, addrs = [], []
    for c in p.copies:
        dst = p.base_address + c.smem_offset_bytes
        byte_addr = m.smem_byte_layout(dst_address=dst).to_numpy().astype(np.int64)  # colex: byte in row fastest
        first_bytes = byte_addr.reshape(-1, box[0] * eb)[:, ::eb].reshape(-1)
        coords = idx + np.array(c.coords, dtype=np.int64)[:, None]
        goffs.append((coords * strides[:, None]).sum(axis=0))
        addrs.append(first_bytes)
    return np.concatenate(goffs), np.concatenate(addrs)


def assert_round_trip(S: SwizzledSmemLayout, g: Layout, p: tma.TmaLoadPlan) -> None:
    want = S.byte_addresses()  # input: tile index -> absolute byte address
    sizes = [int(np.prod(x)) if isinstance(x, tuple) else int(x) for x in S.layout.shape]
    t = np.arange(int(np.prod(sizes)), dtype=np.int64)
    gofs = np.zeros_like(t)
    mul = 1
    for j, n in enumerate(sizes):
        gofs += ((t // mul) % n) * int(g.stride[j])
        mul *= n
    got_g, got_addr = placed_by_forward_model(p, g)
    assert got_g.size == t.size, "the copies write a different number of elements than the tile has"
    order = np.argsort(gofs)
    pos = np.searchsorted(gofs[order], got_g)
    assert np.all(pos < t.size) and np.array_equal(gofs[order][pos], got_g), "a copy writes outside the tile"
    tile_idx = order[pos]
    assert np.array_equal(np.sort(tile_idx), t), "some tile element is written twice or never"
    assert np.array_equal(got_addr, want[tile_idx]), "an element lands at a different byte address"
    assert np.array_equal(p.smem_byte_addresses(), want)
    assert np.array_equal(p.smem_layout().byte_addresses(), want)


SM90_MODES = ["none", "32B", "64B", "128B"]


@st.composite
def tiles_and_globals(draw: st.DrawFn) -> tuple[SwizzledSmemLayout, Layout, int]:
    bits = draw(st.sampled_from([8, 16, 32]))
    arch = draw(st.sampled_from(["sm90", "sm100"]))
    modes = SM90_MODES + (["128B_base32B"] if arch == "sm100" else [])
    mode = draw(st.sampled_from(modes))
    major = "MN" if mode == "128B_base32B" else draw(st.sampled_from(["K", "MN"]))
    atom = (wgmma if arch == "sm90" else umma).smem_atom(major, mode, bits)
    a_mn, a_k = (int(np.prod(x)) for x in atom.layout.shape)
    mn = a_mn * draw(st.integers(1, 4))
    k = a_k * draw(st.integers(1, 4))
    order = draw(st.sampled_from([(0, 1), (1, 0)]))
    layout = tile_to_shape(atom.layout, (mn, k), order)
    eb = bits // 8
    base = draw(st.integers(0, 15)) * 1024 + draw(st.sampled_from([0, 0, 128, 384]))
    S = SwizzledSmemLayout(atom.swizzle, layout, bits, base_address=base)
    # global tensor: extents at least the tile, the contiguous mode matching the smem major,
    # leading dimension padded to a multiple of 16 bytes
    ext_mn = mn * draw(st.integers(1, 3))
    ext_k = k * draw(st.integers(1, 3))
    pad = draw(st.integers(0, 2)) * (16 // eb)
    if major == "K":
        g = Layout((ext_mn, ext_k), (ext_k + pad, 1))
    else:
        g = Layout((ext_mn, ext_k), (1, ext_mn + pad))
    return S, g, bits


@given(tiles_and_globals())
def test_round_trip_smem_layout_to_tensor_map_and_back(case) -> None:
    S, g, bits = case
    p = plan_tma_load(S, g, bits)
    assert p.tensor_map.validate() is p.tensor_map
    info = tma.swizzle_mode_info(p.swizzle)
    assert info.span_bytes is None or p.box_dim[0] * bits // 8 <= info.span_bytes
    assert all(1 <= b <= 256 for b in p.box_dim)
    assert_round_trip(S, g, p)


@given(st.sampled_from(SM90_MODES), st.sampled_from([8, 16, 32]), st.integers(1, 6), st.integers(1, 3))
def test_round_trip_with_split(mode: str, bits: int, rows_mult: int, wide: int) -> None:
    # rows `wide` times the swizzle span: only split=True has a plan, with one box per span-wide piece
    atom = wgmma.smem_atom("K", mode, bits)
    rows, width = (int(np.prod(x)) for x in atom.layout.shape)
    S = SwizzledSmemLayout(atom.swizzle, Layout((rows * rows_mult, width * wide), (width * wide, 1)), bits)
    g = Layout((4096, 4096), (4096, 1))
    if mode == "none":  # no span: the whole row is one box row, split or not
        assert plan_tma_load(S, g, bits).box_dim == plan_tma_load(S, g, bits, split=True).box_dim
        return
    if wide > 1:
        with pytest.raises(TensorMapError) as e:
            plan_tma_load(S, g, bits)
        assert e.value.rule == "plan.tensor_map_rules"
        assert "swizzle.inner_box_span" in [v.rule for v in e.value.violations]
    if wide > 1 and width * bits // 8 % 128:
        # one box per span-wide piece: the pieces start span bytes apart, not on 128-byte lines
        with pytest.raises(TensorMapError) as e:
            plan_tma_load(S, g, bits, split=True)
        assert e.value.rule == "plan.copy_alignment"
        return
    p = plan_tma_load(S, g, bits, split=True)
    assert p.box_dim[0] == width and p.num_copies == rows_mult * rows * wide // (p.box_dim[1] if wide == 1 else 1)
    assert_round_trip(S, g, p)


def test_round_trip_detects_a_planted_fault() -> None:
    # The checker itself must fail when a copy lands elsewhere: shift copy #1 by one 128-byte line.
    S = tile("K", "128B", 16, 128, 128)
    p = plan_tma_load(S, K_MAJOR_G, 16)
    bad = tma.TmaLoadPlan(p.tensor_map, (p.copies[0], tma.TmaCopy(p.copies[1].coords, p.copies[1].smem_offset_bytes + 128)),
                          p.tma_modes, p.global_submodes, p.tile_shape, p.element_bits, p.base_address, p.box_notes)
    with pytest.raises(AssertionError, match="different byte address"):
        assert_round_trip(S, K_MAJOR_G, bad)
    wrong_coords = tma.TmaLoadPlan(p.tensor_map, (p.copies[0], tma.TmaCopy((0, 64), p.copies[1].smem_offset_bytes)),
                                   p.tma_modes, p.global_submodes, p.tile_shape, p.element_bits, p.base_address,
                                   p.box_notes)
    with pytest.raises(AssertionError):
        assert_round_trip(S, K_MAJOR_G, wrong_coords)
    with pytest.raises(TensorMapError, match="outside the tile|written"):
        wrong_coords.smem_byte_addresses()
    # the right boxes under the wrong swizzle: a 32B tile's plan with its tensor map's swizzle set to NONE
    S32 = tile("K", "32B", 16, 64, 16)
    q = plan_tma_load(S32, K_MAJOR_G, 16)
    m = q.tensor_map
    none = TiledTensorMap(tensor_data_type=m.tensor_data_type, global_dim=m.global_dim, global_strides=m.global_strides,
                          box_dim=m.box_dim, swizzle="NONE")
    swapped = tma.TmaLoadPlan(none, q.copies, q.tma_modes, q.global_submodes, q.tile_shape, q.element_bits,
                              q.base_address, q.box_notes)
    with pytest.raises(AssertionError, match="different byte address"):
        assert_round_trip(S32, K_MAJOR_G, swapped)


# ---------------------------------------------------------------------------------------------
# Why no single tensor map: each reason names its rule and the values
# ---------------------------------------------------------------------------------------------


def raises(rule: str, *args, **kw) -> TensorMapError:
    with pytest.raises(TensorMapError) as e:
        plan_tma_load(*args, **kw)
    assert e.value.rule == rule, str(e.value)
    assert isinstance(e.value, LayoutError)
    if rule in PLAN_RULES and rule != "plan.input":
        assert PLAN_RULES[rule] in str(e.value)
    return e.value


def test_majorness_mismatch() -> None:
    e = raises("plan.inner_not_contiguous", parse("Sw<3,3,3> o 0 o (8,64):(64,1)"), MN_MAJOR_G, 16)
    msg = str(e)
    assert "smem offsets 0..63 run along global g1 whose stride is 4096 elements" in msg
    assert "the global stride-1 dimension is g0" in msg


def test_no_contiguous_inner_run() -> None:
    e = raises("plan.inner_not_contiguous", Layout((8, 8), (2, 16)), Layout((8, 8), (1, 8)), 16)
    assert "no tile element sits at smem element offset 1" in str(e) and "the next is 2" in str(e)
    e = raises("plan.inner_not_contiguous", Layout(((2, 3),), ((3, 1),)), Layout(6, 1), 16)
    assert "smem offsets 0 and 1 hold global coordinates (origin) and (g0=2), not one unit step" in str(e)


def test_no_global_stride_one_dimension() -> None:
    e = raises("plan.inner_not_contiguous", Layout((8, 64), (64, 1)), Layout((4096, 4096), (8192, 2)), 16)
    assert "absent from (4096,4096):(8192,2)" in str(e)


def test_swizzle_not_a_tma_mode() -> None:
    # PTX's byte reading, asked for explicitly: an element-unit swizzle written as if on bytes gets the hint
    e = raises("plan.swizzle_not_tma", parse("Sw<3,3,3> o 0 o (8,64):(64,1)"), K_MAJOR_G, 16, swizzle_unit="bytes")
    assert "Sw<3,3,3> is not the byte map of any CUtensorMapSwizzle mode" in str(e)
    assert "on byte addresses that is Sw<3,4,3>" in str(e)   # the element-unit hint
    e = raises("plan.swizzle_not_tma", parse("Sw<3,4,4> o 0 o (8,64):(64,1)"), K_MAJOR_G, 16, swizzle_unit="bytes")
    assert "Sw<3,4,4>" in str(e) and "128B Sw<3,4,3>" in str(e) and "looks like" not in str(e)
    e = raises("plan.swizzle_not_tma", parse("Sw<2,4,2> o 0 o (8,64):(64,1)"), K_MAJOR_G, 16, swizzle_unit="bytes")
    assert "looks like the 128B_ATOM_32B mode written on 16-bit element offsets" in str(e)
    # CuTe's reading (the default): Sw<3,4,3> o 0 o L on 16-bit elements is Sw<3,5,3> on bytes, no TMA mode;
    # one line names both forms of the 128B atom
    e = raises("plan.swizzle_not_tma", parse("Sw<3,4,3> o 0 o (8,64):(64,1)"), K_MAJOR_G, 16)
    assert "on byte addresses that is Sw<3,5,3> o smem_ptr[16b](unset) o L" in str(e)
    assert "Sw<3,4,3> o smem_ptr[16b](unset) o L = Sw<3,3,3> o 0 o L on 16-bit elements" in str(e)
    assert "\n" not in str(e)


def test_inner_box_bytes_larger_than_swizzle_span() -> None:
    e = raises("plan.tensor_map_rules", parse("Sw<1,3,3> o 0 o (8,32):(32,1)"), K_MAJOR_G, 16)
    assert [v.rule for v in e.violations] == ["swizzle.inner_box_span"]
    assert "boxDim[0]=32, elementSize=2 -> 64 bytes > 32 (swizzle 32B)" in str(e)
    assert "box derivation: boxDim[0]=32" in str(e)


def test_box_dim_over_256() -> None:
    e = raises("plan.tensor_map_rules", Layout((64, 512), (1, 64)), Layout((64, 4096), (1, 64)), 16)
    assert [v.rule for v in e.violations] == ["box_dim.range"] and "boxDim[1]=512" in str(e)


def test_inner_box_not_16_bytes() -> None:
    e = raises("plan.tensor_map_rules", Layout((4, 8), (1, 4)), Layout((4, 8), (1, 8)), 16)
    assert [v.rule for v in e.violations] == ["box_dim.inner_bytes_multiple16"]
    assert "boxDim[0]=4, elementSize=2 -> 8 bytes" in str(e)


def test_global_stride_not_multiple_of_16() -> None:
    e = raises("plan.tensor_map_rules", parse("Sw<3,3,3> o 0 o (8,64):(64,1)"), Layout((64, 100), (100, 1)), 16)
    assert [v.rule for v in e.violations] == ["global_strides.multiple16"] and "globalStrides[0]=200" in str(e)
    assert e.tensor_map.global_strides == (200,)


def test_global_address_misaligned() -> None:
    e = raises("plan.tensor_map_rules", Layout((64, 8), (1, 64)), Layout((64, 8), (1, 64)), 16, global_address=8)
    assert [v.rule for v in e.violations] == ["global_address.align16"]


def test_several_violations_are_all_listed() -> None:
    e = raises("plan.tensor_map_rules", Layout((300, 4), (1, 300)), Layout((300, 4), (1, 301)), 16)
    rules = [v.rule for v in e.violations]
    assert rules == ["global_strides.multiple16", "box_dim.range", "box_dim.inner_bytes_multiple16"]
    lines = str(e).splitlines()
    assert "violates 3 rule(s): [global_strides.multiple16]" in lines[0] and "globalStrides[0]=602" in lines[0]
    assert lines[1].startswith("  [box_dim.range]") and lines[2].startswith("  [box_dim.inner_bytes_multiple16]")
    assert lines[3].startswith("  box derivation: boxDim[0]=300")


def test_not_a_dense_packing_of_boxes() -> None:
    # rows of 24 fp8 across a global mode whose 16-element pieces are 1024 bytes apart
    e = raises("plan.not_dense_packing", Layout((24, 8), (1, 24)), Layout(((16, 4), 64), ((1, 1024), 4096)), 8)
    assert ("copy #1 would write the box (16) at smem element offset 16, putting global (g0.0=8, g0.1=1) at "
            "offset 24, but the layout has global (g1=1) at offset 24") in str(e)
    e = raises("plan.not_dense_packing", Layout((3, 1), (1, 0)), Layout(((2, 4), 1), ((1, 16), 0)), 8)
    assert "the tile has 3 elements, not a multiple of the box's 2" in str(e)


def test_copy_destination_misaligned() -> None:
    e = raises("plan.copy_alignment", Layout((8, 8), (1, 9)), Layout((8, 8), (1, 8)), 16)
    assert "copy #1 lands at byte address 0x12" in str(e) and "128-byte aligned" in str(e) and "0x12 % 128 = 18" in str(e)
    # every mode needs 128-byte aligned destinations (the reference says 64 for ATOM_64B; the H100 faults below 128)
    S = SwizzledSmemLayout(Swizzle(1, 6, 1), Layout((8, 64), (64, 1)), 16, base_address=64)
    e = raises("plan.copy_alignment", S, K_MAJOR_G, 16)
    assert "swizzle 128B_ATOM_64B needs 128-byte aligned destinations" in str(e)


def test_more_than_five_tma_dimensions() -> None:
    g = Layout((16, 2, 2, 2, 2, 2), (1, 16, 32, 64, 128, 256))
    e = raises("plan.tma_rank", Layout((16, 2, 2, 2, 2, 2), (1, 16, 32, 64, 128, 256)), g, 8)
    assert "the tile needs 6 TMA dimensions" in str(e)


def test_smem_not_injective() -> None:
    e = raises("plan.smem_not_injective", Layout((8, 8), (1, 0)), Layout((8, 8), (1, 8)), 16)
    assert "share element offset 0" in str(e)


def test_rank_mismatch() -> None:
    e = raises("plan.rank_mismatch", Layout((8, 64), (64, 1)), Layout(4096, 1), 16)
    assert "has 2 top-level modes" in str(e) and "has 1" in str(e)


@pytest.mark.parametrize("kw,words", [
    ({"element_bits": 12}, "element_bits must be 8, 16, 32 or 64"),
    ({"element_bits": 4}, "element_bits must be 8, 16, 32 or 64"),
    ({"element_bits": True}, "element_bits"),
    ({"element_bits": "16"}, "element_bits"),
    ({"element_bits": None}, "element_bits is required"),
    ({"element_bits": 16, "data_type": "FLOAT32"}, "FLOAT32 has 32-bit elements but element_bits=16"),
    ({"element_bits": 16, "data_type": "16U4_ALIGN8B"}, "packed type"),
    ({"element_bits": 16, "split": "yes"}, "split must be True or False"),
])
def test_bad_arguments(kw: dict, words: str) -> None:
    with pytest.raises(TensorMapError, match=words):
        plan_tma_load(Layout((8, 64), (64, 1)), K_MAJOR_G, **kw)


@pytest.mark.parametrize("smem,glob,words", [
    (42, K_MAJOR_G, "smem_layout must be"),
    ("(8,64):(64,", K_MAJOR_G, "cannot parse the smem layout"),
    (Layout((8, 64), (64, 1)), "(4096,", "cannot parse the global layout"),
    (Layout((8, 64), (64, 1)), Swizzle(3, 4, 3), "global_layout must be a Layout"),
    (parse("(8,m):(m,1)"), K_MAJOR_G, "unbound symbols"),
    (Layout((8, 64), (64, 1)), parse("(4096,n):(n,1)"), "unbound symbols"),
    (ComposedLayout(Layout(8, 1), 0, Layout((8, 64), (64, 1))), K_MAJOR_G, "must be a swizzle"),
    (Layout((8, 64), (-64, 1)), K_MAJOR_G, "negative address"),
    (Layout((4096, 4096), (4096, 1)), K_MAJOR_G, "model limit"),
])
def test_bad_layouts(smem, glob, words: str) -> None:
    with pytest.raises(TensorMapError, match=words):
        plan_tma_load(smem, glob, 16)


def test_swizzled_layout_width_mismatch() -> None:
    with pytest.raises(TensorMapError, match="holds 16-bit elements but element_bits=32"):
        plan_tma_load(wgmma.smem_atom("K", "128B", 16), K_MAJOR_G, 32)


def test_parse_data_type() -> None:
    assert parse_data_type("BF16") is tma.TensorDataType.BFLOAT16
    assert parse_data_type(9) is tma.TensorDataType.BFLOAT16
    assert parse_data_type("fp32") is tma.TensorDataType.FLOAT32
    with pytest.raises(TensorMapError, match="short names: .*bf16"):
        parse_data_type("bf17")


def test_tensor_map_of_plan_feeds_forward_model() -> None:
    p = plan_tma_load(tile("K", "64B", 16, 64, 64), K_MAJOR_G, 16)
    assert isinstance(p.tensor_map, TiledTensorMap)
    # the 64B table, rows of 64 bytes: 2 rows per 128-byte line
    assert (p.tensor_map.smem_layout()[:, ::16] // 16).tolist()[:4] == [[0, 1, 2, 3], [4, 5, 6, 7], [9, 8, 11, 10],
                                                                        [13, 12, 15, 14]]


def test_docs_table_lists_every_planner_rule_and_its_tests() -> None:
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "tma.md").read_text()
    rows = re.findall(r"^\| [^|]+ \| `(plan\.[a-z_]+)` \| (.+) \|$", text, flags=re.M)
    assert sorted(r for r, _ in rows) == sorted(PLAN_RULES)
    for _, tests in rows:
        for name in re.findall(r"`(test_[a-z0-9_]+)`", tests):
            assert name in globals(), f"docs/tma.md names {name}, which is not in this file"
