"""Hardware facts, one module per unit (wgmma, umma, tma, im2col, shfl); see docs/architecture.md."""
