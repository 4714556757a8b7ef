"""Hardware facts, one module per unit (wgmma, umma, tma, im2col, shfl, atoms); see docs/architecture.md."""
