"""Hardware facts, one module (or package) per unit: swizzle_modes (the one swizzle vocabulary), smem_desc
(what sm90 and sm100 descriptors share), wgmma, umma, tma, im2col, shfl, atoms; see docs/architecture.md."""
