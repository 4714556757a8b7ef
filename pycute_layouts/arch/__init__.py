"""Hardware facts, one module per unit (wgmma, umma, tma, im2col, shfl); see docs/architecture.md."""

from . import umma  # noqa: F401,E402 - loads umma before umma_sf (umma re-exports umma_sf, which uses umma)
