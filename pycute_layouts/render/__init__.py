"""Pictures of layouts: CuTe-style text tables, SVG (no dependency), LaTeX/TikZ, and PNG (matplotlib).

**The grid.** A rank-1 or rank-2 layout is drawn as CuTe's ``print_layout`` draws it: rows are
mode 0, columns mode 1, hierarchical modes flattened (colexicographic index), one cell per
element. ``cell="chunk16"`` draws one cell per 16-byte chunk instead (``128 / element_bits``
consecutive elements along the mode that holds them), which is how the PTX ISA draws shared
memory: its swizzle tables number 16-byte chunks, and one 128-byte line of shared memory (the 32
banks) is 8 chunks wide.

**What a cell says** (``label=``): ``"value"`` the layout's value (an element offset; for a
:class:`~pycute_layouts.core.composed.SwizzledSmemLayout` the element offset where the element
lands; a byte offset for a TMA placement; in chunk mode the chunk's number, byte address // 16),
``"address"`` the byte address, ``"bank_group"`` the 16-byte column of the 128-byte shared-memory
line the cell lands in (banks ``4g..4g+3``: the numbers of PTX's swizzle tables), ``"coord"`` the
element coordinate, or ``None``.

**Colors** (``color=``): ``"phase"`` the XOR pattern the swizzle applies to the cell,
``f(x) ^ x`` (for ``Sw<3,4,3>`` on bytes: the row of the 8-row pattern, 8 phases; 4 for
``Sw<2,4,3>``, 2 for ``Sw<1,4,3>``); ``"bank_group"`` as above; ``"value"`` the value mod 8;
``"auto"`` (default) phase when the layout has more than one phase, value otherwise. The
palette (:data:`PALETTE`): 16 light colors no two of which look alike (CIEDE2000 distance >= 16; the
first 8 >= 23), black text on top.

**Units.** One rule, CuTe's: ``Sw<B,M,S> o k o L`` (a ComposedLayout) swizzles the layout's own
units, element offsets; ``Sw<B,M,S> o smem_ptr[Nb](unset) o L`` (a SwizzledSmemLayout, how CuTe
prints its GMMA/UMMA atoms) is a layout in N-bit elements whose swizzle acts on byte addresses.
Value labels are always the object's own value, an element offset (for the pointer form: where
the element lands, ``S(c)``); byte addresses need the element width (``element_bits``, implied
by the pointer form). ``swizzle_unit="bytes"`` is an explicit override that draws a
ComposedLayout's swizzle on byte addresses (the PTX tables' convention); the subtitle says which
units a picture shows, and :func:`picture_values` returns the numbers and those words.

>>> from pycute_layouts import Layout, parse
>>> print(layout_table(Layout((2, 3), (3, 1))))
(2,3):(3,1)
       0   1   2
    +---+---+---+
 0  | 0 | 1 | 2 |
    +---+---+---+
 1  | 3 | 4 | 5 |
    +---+---+---+
>>> pic = picture(parse("Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)"), cell="chunk16", label="bank_group")
>>> pic.labels[3]                     # row 3 of PTX's 128-byte swizzle table: chunk c -> c ^ 3
('3', '2', '1', '0', '7', '6', '5', '4')
>>> svg = to_svg(Layout((8, 8), (1, 8)))
>>> svg.count('class="cell"')
64
"""

from ..errors import MissingDependencyError
from . import jupyter as jupyter  # registers the notebook renderers (core.display)
from .picture import MAX_CELLS_PER_SIDE, PALETTE, Picture, picture, picture_values
from .png import to_png
from .svg import picture_svg, to_svg
from .text import grid_table, layout_grid, layout_table
from .tikz import to_tikz

__all__ = [
    "layout_table",
    "grid_table",
    "picture_svg",
    "layout_grid",
    "Picture",
    "picture",
    "picture_values",
    "to_svg",
    "to_tikz",
    "to_png",
    "MissingDependencyError",
    "PALETTE",
    "MAX_CELLS_PER_SIDE",
]
