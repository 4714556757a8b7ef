"""Pictures of layouts: text tables (CuTe's print_layout), SVG, TikZ and PNG."""

from .picture import (
    MAX_CELLS_PER_SIDE,
    PALETTE,
    MissingDependencyError,
    Picture,
    layout_grid,
    layout_table,
    picture,
    to_png,
    to_svg,
    to_tikz,
)

__all__ = ['layout_table', 'layout_grid', 'Picture', 'picture', 'to_svg', 'to_tikz', 'to_png', 'MissingDependencyError', 'PALETTE', 'MAX_CELLS_PER_SIDE']
