"""Triton (Gluon) as a differential oracle: every layout the interop issue lists, converted by Triton itself on the CPU.

``from_gluon`` (Triton in a child process) must equal our object, and ``to_gluon``'s source, executed,
must give Triton's own linear layout. Skipped with a reason when Triton is not installed
(``pip install -e '.[interop]'``). The parts that need no Triton run always.
"""

from __future__ import annotations

import importlib.util
import os

import numpy as np
import pytest

from pycute_layouts import Layout, LayoutError, parse
from pycute_layouts.arch.atoms import copy_atom, make_tiled_mma, mma_atom
from pycute_layouts.arch.wgmma import smem_atom
from pycute_layouts.interop import triton as tri

HAVE_TRITON = importlib.util.find_spec("triton") is not None
needs_triton = pytest.mark.skipif(not HAVE_TRITON, reason="triton is not installed (pip install -e '.[interop]')")

COUNT = {"cases": 0}


def _values(obj, n):
    """Element offsets (shared) or tile indices (TV) of obj, as an int array."""
    if hasattr(obj, "bit_address"):
        return np.asarray(obj.bit_address(np.arange(n)), dtype=np.int64) // obj.element_bits
    return np.asarray(obj.to_numpy(), dtype=np.int64)


def same_tv(a, b) -> bool:
    return (a.rank() == b.rank() == 2 and int(a[0].size()) == int(b[0].size()) and a.size() == b.size()
            and np.array_equal(_values(a, a.size()), _values(b, b.size())))


def same_shared(a, b, shape) -> bool:
    n = int(np.prod(shape))
    return np.array_equal(_values(a, n), _values(b, n))


# ------------------------------------------------------------------------------------------------
# no Triton needed


def test_from_linear_layout_distributed_plain_data():
    tv = tri.from_linear_layout(reg_bases=[[0, 1], [8, 0]], lane_bases=[[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]],
                                warp_bases=[], shape=[16, 8])
    assert same_tv(tv, Layout(((4, 8), (2, 2)), ((32, 1), (16, 8))))


def test_from_linear_layout_amd_wave64():
    lanes = [[0, 1], [0, 2], [0, 4], [1, 0], [2, 0], [4, 0]]
    tv = tri.from_linear_layout(reg_bases=[], lane_bases=lanes, warp_bases=[], shape=[8, 8], warp_size=64)
    assert int(tv[0].size()) == 64 and tv(9, 0) == 1 + 8 * 1
    with pytest.raises(LayoutError, match="warp_size=64"):
        tri.from_linear_layout(reg_bases=[], lane_bases=lanes, warp_bases=[], shape=[8, 8])


def test_from_linear_layout_shared_and_units():
    offs = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [1, 8], [2, 16], [4, 32]]
    el = tri.from_linear_layout(offset_bases=offs)
    assert str(el) == "Sw<3,3,3> o 0 o (8,64):(64,1)"
    by = tri.from_linear_layout(offset_bases=offs, element_bits=16)
    assert str(by) == "Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)"
    assert same_shared(by, smem_atom("K", "128B", 16), (8, 64))


def test_from_linear_layout_tmem():
    rows = [[1 << i, 0] for i in range(7)]
    cols = [[0, 1 << j] for j in range(6)]
    assert str(tri.from_linear_layout(rows=rows, cols=cols, shape=[128, 64])) == "(128,64):(65536,1)"


@pytest.mark.parametrize("kw, msg", [
    ({"offset_bases": [[0, 1], [0, 1]], "shape": [1, 4]}, "not invertible"),
    ({"reg_bases": [[9, 0]], "lane_bases": [[1, 0]] * 5, "warp_bases": [], "shape": [8, 8]}, "outside the shape"),
    ({"reg_bases": [], "lane_bases": [], "warp_bases": [], "shape": [6, 8]}, "power of two"),
    ({"reg_bases": "x", "lane_bases": [], "warp_bases": [], "shape": [8, 8]}, "list of coordinates"),
    ({"offset_bases": [[1]], "block_bases": [[1]]}, "several CTAs"),
    ({}, "needs its shape"),
])
def test_from_linear_layout_bad_input(kw, msg):
    with pytest.raises(LayoutError, match=msg):
        tri.from_linear_layout(**kw)


def test_to_gluon_needs_kind_when_ambiguous_and_refuses_nonlinear():
    with pytest.raises(LayoutError, match="kind="):
        tri.to_gluon(Layout((4, 4), (4, 1)), [4, 4])
    with pytest.raises(LayoutError, match="not F2-linear|not a bijection|has size"):
        tri.to_gluon(Layout((3, 4), (4, 1)), [4, 4], kind="shared")
    with pytest.raises(LayoutError, match="power of two"):
        tri.to_gluon(Layout((3, 4), (4, 1)), [3, 4], kind="shared")


def test_nvmma_precheck_without_triton():
    with pytest.raises(LayoutError, match="getTMABlockShape"):
        tri.nvmma_shared_layout(128, 16, (8, 32))
    with pytest.raises(LayoutError, match="8 rows"):
        tri.from_gluon("gl.NVMMASharedLayout(128, 16)", [4, 64])
    # Triton 3.9 aborts on a wgmma instr N that is no power of two: refused before Triton sees it (also nested)
    with pytest.raises(LayoutError, match="power-of-two instr_shape N, not 24"):
        tri.from_gluon("gl.NVMMADistributedLayout([3, 0], [4, 1], [16, 24, 16])", [64, 32])
    with pytest.raises(LayoutError, match="power-of-two instr_shape N, not 40"):
        tri.from_gluon("gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], "
                       "instr_shape=[16, 40, 16]))", [64])
    with pytest.raises(LayoutError, match="at most 4096"):
        tri.from_gluon_many([("x", [8, 8])] * 4097)
    assert tri.from_gluon_many([]) == []
    with pytest.raises(LayoutError, match="list of"):
        tri.from_gluon_many("gl.NVMMASharedLayout(128, 16)")
    for args, msg in [((3, 1, 1, (1, 0), (8, 8)), "vec is a power of two"), ((1, 1, 1, (1, 1), (8, 8)), "order"),
                      ((1, 1, 2, (1, 0), (8, 6)), "power of two")]:
        with pytest.raises(LayoutError, match=msg):
            tri.swizzled_shared_layout(*args)
    with pytest.raises(LayoutError, match="non-empty list"):
        tri.padded_shared_layout([], [[1]], [2])
    with pytest.raises(LayoutError, match="distinct"):
        tri.padded_shared_layout([[2, 1], [2, 2]], [[1], [2]], [4])
    with pytest.raises(LayoutError, match="not .* 4 elements|has size|bijection|bases for"):
        tri.padded_shared_layout([[2, 1]], [[1]], [4])
    with pytest.raises(LayoutError, match="not \\[8, 8\\]|for shape"):
        tri.from_gluon("gl.PaddedSharedLayout([[4, 1]], [[0, 1], [1, 0]], [], [2, 2])", [8, 8])


def test_interleave_atom_equals_swizzle0_only_at_16_bytes():
    for bits in (8, 16, 32):
        row = 128 // bits
        assert same_shared(tri.nvmma_shared_layout(0, bits, (8, row)), smem_atom("K", "INTERLEAVE", bits), (8, row))
    wide = tri.nvmma_shared_layout(0, 16, (8, 16))      # 32-byte rows: a row-major box, not two interleave atoms
    assert wide.byte_address(1, 0) == 32


# ------------------------------------------------------------------------------------------------
# Triton as the oracle


@pytest.fixture(scope="module")
def gl_env():
    if not HAVE_TRITON:
        pytest.skip("triton is not installed (pip install -e '.[interop]')")
    from triton._C.libtriton import gluon_ir, ir
    from triton.experimental.gluon import language as gl
    from triton.experimental.gluon.language._semantic import GluonSemantic
    from triton.experimental.gluon.language.nvidia import blackwell

    ctx = ir.context()
    ir.load_dialects(ctx)
    sem = GluonSemantic(gluon_ir.GluonOpBuilder(ctx, ""))

    def linear(layout, shape):
        ll = gl.to_linear_layout(layout, list(shape), _semantic=sem)
        return getattr(ll, "value", ll)

    return {"gl": gl, "bw": blackwell, "gluon_ir": gluon_ir, "linear": linear, "ctx": ctx, "sem": sem}


def _bases_of(ll):
    keys = ("reg_bases", "lane_bases", "warp_bases", "offset_bases")
    return {k: [list(b) for b in getattr(ll, k)] for k in keys if hasattr(ll, k)}


def check_roundtrip(env, layout, shape, ours, shared):
    """from_gluon(layout) == ours, and to_gluon(ours) executed == Triton's layout."""
    got = tri.from_gluon(layout, shape)
    assert (same_shared(got, ours, shape) if shared else same_tv(got, ours)), (layout, shape, str(got), str(ours))
    src = tri.to_gluon(ours, shape, kind="shared" if shared else "distributed")
    again = eval(src, {"gl": env["gl"]})  # noqa: S307 - our own generated source
    assert _bases_of(env["linear"](again, shape)) == _bases_of(env["linear"](layout, shape)), (src, layout)
    COUNT["cases"] += 1
    return src


NVMMA_CASES = [(w, bits, tr, several) for w in (0, 32, 64, 128) for bits in (8, 16, 32) for tr in (False, True)
               for several in (False, True)]


@needs_triton
@pytest.mark.parametrize("w, bits, tr, several", NVMMA_CASES)
def test_nvmma_shared(gl_env, w, bits, tr, several):
    row = max(w, 16) * 8 // bits
    contig, other = (row * (2 if several else 1), 8 * (4 if several else 1))
    shape = (contig, other) if tr else (other, contig)
    ours = tri.nvmma_shared_layout(w, bits, shape, tr)
    layout = gl_env["gl"].NVMMASharedLayout(w, bits, transposed=tr)
    src = check_roundtrip(gl_env, layout, shape, ours, True)
    assert src.startswith("gl.NVMMASharedLayout(")
    # the contract: from_gluon(...)(d0, d1) is the element offset Triton gives element (d0, d1)
    got = tri.from_gluon(layout, shape)
    offs = gl_env["linear"](layout, shape).offset_bases
    n = shape[0] * shape[1]
    for off in sorted(set(range(min(n, 512))) | {n - 1 - k for k in range(min(n, 64))}):   # a sample: 576 offsets at most
        d0 = d1 = 0
        for i, b in enumerate(offs):
            if off >> i & 1:
                d0, d1 = d0 ^ b[0], d1 ^ b[1]
        assert got(d0, d1) == off
    if not several and w:
        atom = smem_atom("MN" if tr else "K", f"{w}B", bits)   # one atom IS CuTe's GMMA atom
        assert same_shared(ours, atom, shape)


WGMMA_N = list(range(8, 257, 8))     # every N a dense F16 wgmma has


def _accumulator(n, warps):
    atom = mma_atom(f"SM90_64x{n}x16_F32F16F16_SS")
    return atom.layout_c if warps == (4, 1) else make_tiled_mma(atom, (warps[0] // 4, warps[1], 1)).partition("C")


@needs_triton
@pytest.mark.parametrize("warps", [(4, 1), (8, 1), (4, 2)])
def test_wgmma_accumulator_every_n(gl_env, warps):
    """NVMMADistributedLayout v3 for every wgmma N (8..256 by 8) against our atom's / TiledMma's C layout.

    Power-of-two N: from_gluon equals ours and to_gluon's source, executed, is Triton's layout. Other N (24, 40, ...):
    Triton 3.9 builds no linear layout (it aborts in LinearLayout::strided1D), so from_gluon refuses it before Triton
    sees it, to_gluon refuses the 64xN tile (no power-of-two shape), and ours is checked against Triton's layout of
    the next power of two N': each thread's first N/2 registers hold the same (m, n), n shifted by (N' - N) per warp
    column.
    """
    gl = gl_env["gl"]
    wm, wn = warps[0] // 4, warps[1]
    pow2 = [n for n in WGMMA_N if n & (n - 1) == 0]
    # one round trip to Triton for every layout this test needs
    need = sorted(set(pow2) | {1 << (n - 1).bit_length() for n in WGMMA_N})
    got = dict(zip(need, tri.from_gluon_many([(gl.NVMMADistributedLayout([3, 0], list(warps), [16, n, 16]),
                                                [64 * wm, n * wn]) for n in need])))
    for n in WGMMA_N:
        ours = _accumulator(n, warps)
        layout = gl.NVMMADistributedLayout([3, 0], list(warps), [16, n, 16])
        if n in pow2:
            shape = (64 * wm, n * wn)
            assert same_tv(got[n], ours), (n, warps, str(got[n]), str(ours))
            src = tri.to_gluon(ours, shape, kind="distributed")
            again = eval(src, {"gl": gl})  # noqa: S307 - our own generated source
            assert _bases_of(gl_env["linear"](again, shape)) == _bases_of(gl_env["linear"](layout, shape)), (src, n)
            assert src.startswith("gl.NVMMADistributedLayout(")
            COUNT["cases"] += 1
            continue
        with pytest.raises(LayoutError, match="power-of-two instr_shape N"):
            tri.from_gluon(layout, [64 * wm, 256 * wn])
        with pytest.raises(LayoutError, match="power of two"):
            tri.to_gluon(ours, [64 * wm, n * wn], kind="distributed")
        big = 1 << (n - 1).bit_length()
        ref = got[big]
        nthr, nval = int(ours[0].size()), n // 2
        assert int(ref[0].size()) == nthr and int(ours[1].size()) == nval
        mm = 64 * wm
        r = np.asarray(ref.to_numpy(), dtype=np.int64)[:nthr * nval]          # (t, v) column-major: v < N/2 first
        warp_n = (np.arange(nthr * nval) % nthr) // 32 // warps[0]
        want = r % mm + mm * (r // mm - (big - n) * warp_n)
        assert np.array_equal(np.asarray(ours.to_numpy(), dtype=np.int64), want), (n, warps, str(ours), str(ref))
        COUNT["cases"] += 1


@needs_triton
@pytest.mark.parametrize("name, kw, k", [("SM90_64x{n}x16_F32F16F16_RS", 2, 16), ("SM90_64x{n}x16_F32BF16BF16_RS", 2, 16),
                                         ("SM90_64x{n}x32_F32E4M3E4M3_RS_TN", 4, 32),
                                         ("SM90_64x{n}x8_F32TF32TF32_RS_TN", 1, 8)])
@pytest.mark.parametrize("n", [64, 128])
def test_dot_operand_rs(gl_env, name, kw, k, n):
    gl = gl_env["gl"]
    ours = mma_atom(name.format(n=n)).layout_a
    layout = gl.DotOperandLayout(0, gl.NVMMADistributedLayout([3, 0], [4, 1], [16, n, 16]), kw)
    src = check_roundtrip(gl_env, layout, (64, k), ours, False)
    # a 16-bit A fragment of K = 16 is the same map as a 64x16 accumulator: either name is right
    assert src.startswith(("gl.DotOperandLayout(", "gl.NVMMADistributedLayout("))


BLOCKED = [([1, 4], [8, 4], [4, 1], [1, 0], (64, 64)), ([2, 2], [4, 8], [2, 2], [0, 1], (32, 64)),
           ([1, 1], [32, 1], [4, 1], [0, 1], (128, 8)), ([1, 4], [8, 4], [4, 1], [1, 0], (16, 16)),
           ([4, 1], [1, 32], [1, 8], [0, 1], (16, 512)), ([1, 8], [4, 8], [8, 1], [1, 0], (256, 64))]


@needs_triton
@pytest.mark.parametrize("spt, tpw, wpc, order, shape", BLOCKED)
def test_blocked(gl_env, spt, tpw, wpc, order, shape):
    gl = gl_env["gl"]
    layout = gl.BlockedLayout(spt, tpw, wpc, order)
    got = tri.from_gluon(layout, shape)
    # the blocked rule, independently: element (i, j) of thread t lies in t's lane/warp cell (shape-wrapped)
    nthr = int(got[0].size())
    for t in range(nthr):
        lane, warp = t % 32, t // 32
        lc = [0, 0]
        wc = [0, 0]
        rest_l, rest_w = lane, warp
        for d in order:
            lc[d], rest_l = rest_l % tpw[d], rest_l // tpw[d]
            wc[d], rest_w = rest_w % wpc[d], rest_w // wpc[d]
        for v in range(int(got[1].size())):
            idx = got(t, v)
            c = (idx % shape[0], idx // shape[0])
            for d in (0, 1):
                tile = spt[d] * tpw[d] * wpc[d]
                cell = spt[d] * (lc[d] + tpw[d] * wc[d])
                if tile <= shape[d]:
                    assert c[d] % tile // spt[d] * spt[d] == cell, (t, v, c, d)
                else:
                    assert c[d] // spt[d] * spt[d] == cell % shape[d], (t, v, c, d)
    src = check_roundtrip(gl_env, layout, shape, got, False)
    assert src.startswith("gl.BlockedLayout(")


@needs_triton
@pytest.mark.parametrize("variant, shape_name, dp, m", [
    ("32x32b", "32dp32b", 32, 128), ("16x64b", "16dp64b", 16, 128), ("16x128b", "16dp128b", 16, 128),
    ("16x256b", "16dp256b", 16, 128), ("16x64b", "16dp64b", 16, 64), ("16x128b", "16dp128b", 16, 64),
    ("16x256b", "16dp256b", 16, 64)])
def test_tmem_register_layouts(gl_env, variant, shape_name, dp, m):
    """Warp 0's first tcgen05.ld of Triton's TMEM register layout IS our SM100_TMEM_LOAD atom (32-bit elements).

    (With M = 64, Triton's 32x32b layout splits the columns over lanes 16..31 instead: no single atom.)
    """
    gl, bw, gluon_ir = gl_env["gl"], gl_env["bw"], gl_env["gluon_ir"]
    n = 64
    ll = gluon_ir.compute_tmem_reg_layout(gl.float32, [m, n], [m, n], bw.TensorMemoryLayout((m, n), 1), 4, variant)
    full = tri.from_linear_layout(ll)
    assert int(full[0].size()) == 128
    # warp 0, first instruction: rows < dp, against our tcgen05.ld atom (bits -> 32-bit elements)
    regs = [b for b in ll.reg_bases if b[0] < dp]
    sub = tri.from_linear_layout(reg_bases=regs, lane_bases=ll.lane_bases, warp_bases=[], shape=[dp, n])
    reps = {"32dp32b": 1, "16dp64b": 2, "16dp128b": 4, "16dp256b": 8}[shape_name]
    atom = copy_atom(f"SM100_TMEM_LOAD_{shape_name}{n // reps}x")
    reg = atom.register_layout
    w_elems = n
    tab = np.zeros((32, int(sub[1].size())), dtype=np.int64)
    for t in range(32):
        for v in range(int(sub[1].size())):
            b = reg(t, 32 * v)
            row, col = divmod(b // 32, w_elems)
            tab[t, v] = row + dp * col
    got = np.asarray(sub.to_numpy()).reshape(-1, 32).T
    assert np.array_equal(tab, got), variant
    src = tri.to_gluon(full, [m, n], kind="distributed")
    again = eval(src, {"gl": gl})  # noqa: S307
    assert _bases_of(gl_env["linear"](again, [m, n])) == _bases_of(ll)
    COUNT["cases"] += 1


@needs_triton
@pytest.mark.parametrize("block, shape, cs", [((128, 64), (128, 64), 1), ((128, 64), (128, 128), 1), ((128, 64), (128, 64), 2),
                                              ((64, 64), (64, 64), 1), ((64, 64), (128, 64), 1), ((64, 32), (64, 64), 1),
                                              ((64, 32), (64, 128), 1), ((128, 32), (128, 128), 1), ((64, 64), (128, 256), 1)])
def test_tensor_memory_layout(gl_env, block, shape, cs):
    bw = gl_env["bw"]
    layout = bw.TensorMemoryLayout(block, cs)
    got = tri.from_gluon(layout, shape)
    ours = tri.tensor_memory_layout(block, shape, cs)
    assert np.array_equal(got.to_numpy(), ours.to_numpy()), (str(got), str(ours))
    src = tri.to_gluon(ours, shape, kind="tmem")
    again = eval(src, {"gl": gl_env["gl"]})  # noqa: S307
    assert _bases_of(gl_env["linear"](again, shape)) == _bases_of(gl_env["linear"](layout, shape))
    assert str(gl_env["linear"](again, shape)) == str(gl_env["linear"](layout, shape))
    COUNT["cases"] += 1


SLICE_PARENTS = [
    "gl.BlockedLayout([1, 4], [8, 4], [4, 1], [1, 0])", "gl.BlockedLayout([2, 2], [4, 8], [2, 2], [0, 1])",
    "gl.BlockedLayout([1, 1], [32, 1], [4, 1], [0, 1])", "gl.BlockedLayout([4, 1], [1, 32], [1, 8], [0, 1])",
    "gl.NVMMADistributedLayout([3, 0], [4, 1], [16, 64, 16])", "gl.NVMMADistributedLayout([3, 0], [8, 1], [16, 128, 16])",
    "gl.NVMMADistributedLayout([3, 0], [4, 2], [16, 32, 16])",
    "gl.DotOperandLayout(0, gl.NVMMADistributedLayout([3, 0], [4, 1], [16, 64, 16]), 2)"]
SLICE_CASES = [(dim, parent, n) for parent in SLICE_PARENTS for dim in (0, 1) for n in (16, 64, 256)]


@needs_triton
def test_slice_layouts(gl_env):
    """SliceLayout(dim, parent) over a rank-1 shape: from_gluon (Triton) -> ours -> to_gluon names it, Triton agrees."""
    gl = gl_env["gl"]
    layouts = [eval(f"gl.SliceLayout({dim}, {parent})", {"gl": gl}) for dim, parent, _ in SLICE_CASES]  # noqa: S307
    got = tri.from_gluon_many([(lay, [n]) for lay, (_, _, n) in zip(layouts, SLICE_CASES)])
    named = 0
    for lay, tv, (dim, parent, n) in zip(layouts, got, SLICE_CASES):
        src = tri.to_gluon(tv, [n], kind="distributed")
        again = eval(src, {"gl": gl})  # noqa: S307 - our own generated source
        assert _bases_of(gl_env["linear"](again, [n])) == _bases_of(gl_env["linear"](lay, [n])), (src, dim, parent, n)
        assert src.startswith(("gl.SliceLayout(", "gl.BlockedLayout(")), src
        named += src.startswith("gl.SliceLayout(")
        COUNT["cases"] += 1
    assert named >= len(SLICE_CASES) // 2
    # the row-reduction layout of the wgmma accumulator: thread t holds rows t//4 % 8 + 16 * (t // 32) and + 8
    acc_rows = got[SLICE_CASES.index((1, SLICE_PARENTS[4], 64))]
    assert str(acc_rows) == "((4,8,4),2):((0,1,16),8)"


SWIZZLED = [(v, pp, mp, order, shape) for v in (1, 4, 8) for pp in (1, 2) for mp in (1, 4, 8)
            for order in ((1, 0), (0, 1)) for shape in ((16, 64), (64, 32))]


@needs_triton
def test_swizzled_shared_layouts(gl_env):
    gl = gl_env["gl"]
    layouts = [gl.SwizzledSharedLayout(v, pp, mp, list(order)) for v, pp, mp, order, _ in SWIZZLED]
    got = tri.from_gluon_many([(lay, list(c[-1])) for lay, c in zip(layouts, SWIZZLED)])
    names = set()
    for lay, g, (v, pp, mp, order, shape) in zip(layouts, got, SWIZZLED):
        ours = tri.swizzled_shared_layout(v, pp, mp, order, shape)
        assert same_shared(g, ours, shape), (v, pp, mp, order, shape, str(g), str(ours))
        src = tri.to_gluon(ours, shape, kind="shared")
        again = eval(src, {"gl": gl})  # noqa: S307
        assert _bases_of(gl_env["linear"](again, shape)) == _bases_of(gl_env["linear"](lay, shape)), (src, lay)
        names.add(src.split("(")[0])
        COUNT["cases"] += 1
    assert "gl.SharedLinearLayout" not in names and "gl.SwizzledSharedLayout" in names
    # vec 8, per_phase 1, max_phase 8 over 64 16-bit columns is CuTe's Sw<3,3,3> on element offsets
    assert str(tri.swizzled_shared_layout(8, 1, 8, (1, 0), (8, 64))) == "Sw<3,3,3> o 0 o (8,64):(64,1)"


def test_padded_shared_layout_triton_doc_examples():
    """The two examples of Triton's own PaddedSharedLayout docstring, exactly (Triton 3.9 has no CPU linear layout
    for padded layouts: it aborts, so these and the object's fields are what we can check against)."""
    one = tri.padded_shared_layout([[2, 2]], [[2], [1]], [4])      # [x0, x2, p0 p1, x1, x3] (the doc says [8], shows 4)
    assert [one(i) for i in range(4)] == [0, 4, 1, 5]
    two = tri.padded_shared_layout([[8, 1]], [[0, 1], [0, 2], [2, 0], [4, 0], [1, 0]], [8, 4])
    rows = {0: 0, 2: 4, 4: 9, 6: 13, 1: 18, 3: 22, 5: 27, 7: 31}       # x<r>y0 positions in the docstring's picture
    for r, at in rows.items():
        assert [two(r, c) for c in range(4)] == [at + c for c in range(4)], r
    docs = tri.padded_shared_layout([[2, 1], [4, 2]], [[1], [2], [4], [8]], [16])   # [e0, e1, p0, e2, e3, p1, p2, p3, e4]
    assert [docs(i) for i in range(5)] == [0, 1, 3, 4, 8]
    with pytest.raises(LayoutError, match="powers of two"):
        tri.padded_shared_layout([[32, 3]], [[1], [2]], [4])
    with pytest.raises(LayoutError, match="swizzle"):
        tri.padded_shared_layout([[8, 4]], [[0, 1], [0, 2], [0, 4], [1, 1], [2, 2], [4, 4]], [8, 8])


PADDED = [([[32, 4]], [16, 32], (1, 0)), ([[64, 8]], [32, 64], (1, 0)), ([[16, 1], [64, 4]], [16, 64], (1, 0)),
          ([[32, 2]], [32, 16], (0, 1)), ([[128, 8], [256, 16]], [64, 32], (1, 0))]


@needs_triton
@pytest.mark.parametrize("pairs, shape, order", PADDED)
def test_padded_shared_layouts(gl_env, pairs, shape, order):
    gl = gl_env["gl"]
    layout = gl.PaddedSharedLayout.with_identity_for(pairs, shape, list(order))
    got = tri.from_gluon(layout, shape)
    assert str(got) == str(tri.padded_shared_layout(layout.interval_padding_pairs, layout.offset_bases, shape))
    # the padding rule, independently: identity order, then `padding` elements after every `interval`
    c_dim = order[0]
    for d0 in range(0, shape[0], 3):
        for d1 in range(0, shape[1], 5):
            o = d1 + shape[1] * d0 if c_dim == 1 else d0 + shape[0] * d1
            assert got(d0, d1) == o + sum(o // i * p for i, p in pairs)
    src = tri.to_gluon(got, shape, kind="shared")
    again = eval(src, {"gl": gl})  # noqa: S307
    assert again == layout, (src, layout)        # Triton's own object, field for field
    assert tri.from_gluon(src, shape).to_numpy().tolist() == got.to_numpy().tolist()
    assert str(tri.from_gluon_many([(layout, shape), (gl.NVMMASharedLayout(0, 16), [8, 8])])[0]) == str(got)
    COUNT["cases"] += 1


@needs_triton
def test_from_gluon_source_text_and_errors(gl_env):
    got = tri.from_gluon("gl.NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=16)", [8, 32])
    assert str(got) == "Sw<2,4,3> o smem_ptr[16b](unset) o (8,32):(32,1)"
    with pytest.raises(LayoutError, match="not a Gluon layout (constructor|expression)"):
        tri.from_gluon("__import__('os').system('true')", [8, 8])
    with pytest.raises(LayoutError, match="rank"):
        tri.from_gluon(gl_env["gl"].BlockedLayout([1, 1], [32, 1], [4, 1], [0, 1]), [64, 64, 2])
    # a rank mismatch trips an assertion inside Triton (SIGABRT): still only a LayoutError here
    with pytest.raises(LayoutError, match="Triton aborted.*Assertion"):
        tri.from_gluon("gl.BlockedLayout([1], [32], [4], [0])", [64, 64])


@needs_triton
def test_triton_abort_becomes_layout_error(gl_env):
    gl = gl_env["gl"]
    with pytest.raises(LayoutError, match="aborted.*getTMABlockShape"):
        tri._worker_call(gl.NVMMASharedLayout(128, 16), [8, 32], "test")
    # the worker restarts for the next call
    assert str(tri.from_gluon(gl.NVMMASharedLayout(0, 16), [8, 8])) == "Sw<0,4,3> o smem_ptr[16b](unset) o (8,8):(8,1)"


@needs_triton
def test_zz_count():
    """The number of layouts checked against Triton in this run (printed with -s)."""
    print(f"\ninterop: {COUNT['cases']} layouts checked against Triton")
    if os.environ.get("PYTEST_XDIST_WORKER"):  # each worker counts its own share of the file's cases
        return
    assert COUNT["cases"] >= 80 or COUNT["cases"] == 0


def test_parse_roundtrip_of_generated_shared():
    assert str(parse("Sw<3,3,3> o 0 o (8,64):(64,1)")) == "Sw<3,3,3> o 0 o (8,64):(64,1)"
