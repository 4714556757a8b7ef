"""Text tables of layouts: CuTe's ``print_layout``."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.layout import Layout, require_offsets, size
from ..core.tensor import Tensor
from ..errors import LayoutTypeError, LayoutValueError
from ..limits import MAX_TABLE_CELLS, check_budget, fmt

__all__ = ["layout_grid", "layout_table", "grid_table"]


def layout_grid(layout: Any) -> np.ndarray:
    """The values of a rank-1 or rank-2 layout as a 2-D int array (rows = mode 0, columns = mode 1).

    Pre:  ``layout`` a concrete layout of rank 1 or 2.
    Post: an int array, rows = mode 0, columns = mode 1.

    >>> from pycute_layouts import Layout
    >>> layout_grid(Layout((2, 2), (1, 2))).tolist()
    [[0, 2], [1, 3]]
    """
    if not hasattr(layout, "to_numpy") or not hasattr(layout, "rank") or isinstance(layout, (type, Tensor)):
        raise LayoutTypeError(f"layout_grid: expected a layout, got {fmt(layout)}")
    if isinstance(layout, Layout):
        require_offsets(layout, "layout_grid")
    r = layout.rank()
    if r > 2:
        raise LayoutValueError(f"layout_grid: only rank-1 and rank-2 layouts can be drawn as a table, got rank {r}")
    check_budget("layout_table", f"layout {layout}", layout.size(), MAX_TABLE_CELLS)
    vals = layout.to_numpy()
    if r == 1:
        return vals.reshape(1, -1)
    rows = size(layout[0])
    cols = size(layout[1])
    return vals.reshape(cols, rows).T


def layout_table(layout: Any) -> str:
    """CuTe's ``print_layout``: the layout's value at every (row, column) coordinate as a text table.

    Pre:  ``layout`` a concrete layout of rank 1 or 2.
    Post: the table text, first line the layout itself.

    >>> from pycute_layouts import Layout
    >>> print(layout_table(Layout(4, 2)))
    4:2
           0   1   2   3
        +---+---+---+---+
     0  | 0 | 2 | 4 | 6 |
        +---+---+---+---+
    """
    grid = layout_grid(layout)
    return grid_table(str(layout), grid)


def grid_table(title: str, grid: Any) -> str:
    """A 2-D int array as CuTe's ``print_layout`` table, under the line ``title``.

    Pre:  ``grid`` a non-empty 2-D integer array (rows x columns); ``title`` a string.
    Post: the table text, first line ``title``.

    >>> print(grid_table("values", np.array([[0, 72]])))
    values
          0    1
        +----+----+
     0  |  0 | 72 |
        +----+----+
    """
    try:
        grid = np.asarray(grid)
    except (TypeError, ValueError):  # ragged or not numbers
        raise LayoutTypeError(f"grid_table: expected a 2-D integer array, got {fmt(grid)}") from None
    if isinstance(title, str) and grid.ndim == 2 and grid.size == 0:
        raise LayoutValueError(f"grid_table: {title} has size 0 (a zero extent): there is no cell to draw")
    if not isinstance(title, str) or grid.ndim != 2 or not np.issubdtype(grid.dtype, np.integer):
        raise LayoutTypeError(f"grid_table: expected a title string and a 2-D integer array, got {fmt(title)}, "
                              f"{grid.dtype}[{grid.shape}]")
    nr, nc = grid.shape
    w = max(len(str(int(v))) for v in grid.ravel()) if grid.size else 1
    w = max(w, len(str(nc - 1)))
    rw = len(str(nr - 1))
    lines = [title]
    lines.append(" " * (rw + 3) + "".join(f" {c:>{w}}  " for c in range(nc)).rstrip())
    sep = " " * (rw + 3) + "+" + "+".join("-" * (w + 2) for _ in range(nc)) + "+"
    lines.append(sep)
    for r in range(nr):
        cells = "|".join(f" {int(v):>{w}} " for v in grid[r])
        lines.append(f" {r:>{rw}}  |{cells}|")
        lines.append(sep)
    return "\n".join(lines)

