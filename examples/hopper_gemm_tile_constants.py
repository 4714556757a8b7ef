"""Every constant of a Hopper GEMM tile: A 128x64 bf16 K-major, B 128x64 bf16 MN-major, 128B swizzle, 3 stages.

What a hand-written sm90 kernel hard-codes, derived in one place and cross-checked:
- the wgmma descriptors of A and B, their LBO/SBO and the per-K-step start-address advance;
- the TMA tensor-map swizzle and box that fill the same shared memory, and the number of copies;
- the stage layout and offsets; the CuTe type of each shared-memory layout.
Then two checks a kernel author would otherwise do on the GPU: the TMA boxes write exactly the bytes
the descriptors read (forward model), and the planner, given only the smem layout, finds the same box.
"""

import numpy as np

from pycute_layouts import Layout
from pycute_layouts.arch import tma, wgmma
from pycute_layouts.codegen import kernel_constants, parse_spec
from pycute_layouts.proofs import prove_tma_matches_wgmma

spec = parse_spec({
    "kernel": "hopper_gemm_128x128x64", "arch": "sm90",
    "A": {"tile": "128x64", "dtype": "bf16", "major": "K", "swizzle": "128B", "stages": 3},
    "B": {"tile": "128x64", "dtype": "bf16", "major": "MN", "swizzle": "128B", "stages": 3},
})
kc = kernel_constants(spec)
for name in ("A", "B"):
    o = kc.operand(name)
    print(f"{name}: {o.major}-major {o.dtype.name} tile {o.tile_mn}x{o.tile_k}, stages at {[hex(s) for s in o.stage_starts]}")
    print(f"   descriptor       {o.desc:#018x}  (LBO {o.lbo_bytes} B, SBO {o.sbo_bytes} B)")
    print(f"   K steps          +{list(o.k_step_offsets_bytes)} bytes = desc.lo += {list(o.k_step_advance_16B)}")
    print(f"   TMA              {o.tma_swizzle_name}, box {o.tma_box_dim}, {o.tma_copies} copy/copies per stage")
    print(f"   smem layout      {o.smem_layout_text} = {o.smem_layout_element_text}")

# Check 1: the TMA copies write every byte of A's stage 0 exactly once, where the descriptors read it.
a = kc.operand("A")
written = np.concatenate([tma.box_to_smem(a.tma_swizzle_name, 2, a.tma_box_dim, a.stage_starts[0] + off).ravel()
                          + a.stage_starts[0] + off for off in a.tma_copy_offsets_bytes])
assert np.array_equal(np.sort(written), a.stage_starts[0] + np.arange(a.stage_bytes)), "TMA does not tile the stage"
tile = a.tile_layout
for k in range(len(a.k_step_offsets_bytes)):             # element (mn, kk) of step k, as the descriptor reads it
    start_elem = int(tile.layout(0, 16 * k))                     # element (0, 16k), before the swizzle
    d = wgmma.SmemDescriptor.decode(a.descs[0][k])               # stage 0, K step k, as the kernel uses it
    assert d.start_address == a.stage_starts[0] + 2 * start_elem, f"K step {k}: start"
    assert a.descs[0][k] == a.desc + a.k_step_advance_16B[k], "desc.lo += advance"
print("TMA boxes tile A's stage exactly; every K step starts where the descriptor says")

# Check 2: given only the smem layout and the global tensor, the planner finds the same box and swizzle.
plan = tma.plan_tma_load(tile, Layout((128, 4096), (4096, 1)), 16)   # A is K-major: K contiguous in global
print(f"plan_tma_load: box {plan.box_dim}, {plan.swizzle.driver_name}, {plan.num_copies} copy/copies")
assert plan.box_dim == a.tma_box_dim and plan.swizzle.driver_name == a.tma_swizzle_name

# Check 3: the theorem behind it, for all sizes (symbolic): TMA 128B placement == wgmma 128B atom, bf16.
for major in ("K", "MN"):
    p = prove_tma_matches_wgmma("128B", major, 16, arch="sm90")
    print(f"TMA 128B == wgmma 128B atom, {major}-major bf16: {'proved' if p else 'REFUTED'}")
    assert p
