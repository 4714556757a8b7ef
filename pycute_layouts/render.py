"""Pictures of layouts: CuTe-style text tables, SVG (no dependency), LaTeX/TikZ, and PNG (matplotlib).

**The grid.** A rank-1 or rank-2 layout is drawn as CuTe's ``print_layout`` draws it: rows are
mode 0, columns mode 1, hierarchical modes flattened (colexicographic index), one cell per
element. ``cell="chunk16"`` draws one cell per 16-byte chunk instead (``128 / element_bits``
consecutive elements along the mode that holds them), which is how the PTX ISA draws shared
memory: its swizzle tables number 16-byte chunks, and one 128-byte line of shared memory (the 32
banks) is 8 chunks wide.

**What a cell says** (``label=``): ``"value"`` the layout's value (an element offset; a byte
address for a :class:`~pycute_layouts.composed.SwizzledSmemLayout` or a TMA placement; in chunk
mode the chunk's number, byte address // 16), ``"address"`` the byte address, ``"bank_group"``
the 16-byte column of the 128-byte shared-memory line the cell lands in (banks ``4g..4g+3``: the
numbers of PTX's swizzle tables), ``"coord"`` the element coordinate, or ``None``.

**Colors** (``color=``): ``"phase"`` the XOR pattern the swizzle applies to the cell,
``f(x) ^ x`` (for ``Sw<3,4,3>`` on bytes: the row of the 8-row pattern, 8 phases; 4 for
``Sw<2,4,3>``, 2 for ``Sw<1,4,3>``); ``"bank_group"`` as above; ``"value"`` the value mod 8;
``"auto"`` (default) phase when the layout has more than one phase, value otherwise. The
palette is ColorBrewer's Set3: 8 clearly distinct light colors (16 in all), black text on top.

**Units.** Byte addresses need the element width: ``element_bits``. A
:class:`~pycute_layouts.composed.ComposedLayout` ``Sw o off o L`` with ``element_bits`` follows
the wgmma/TMA convention of :func:`pycute_layouts.arch.wgmma.canonical_layout`: ``L`` and ``off``
are in elements, the swizzle acts on byte addresses (``swizzle_unit="elements"`` selects CuTe's
convention, the swizzle on element offsets). Without ``element_bits`` a ComposedLayout is drawn
with CuTe's semantics and only element offsets are known.

>>> from pycute_layouts import Layout, parse
>>> print(layout_table(Layout((2, 3), (3, 1))))
(2,3):(3,1)
       0   1   2
    +---+---+---+
 0  | 0 | 1 | 2 |
    +---+---+---+
 1  | 3 | 4 | 5 |
    +---+---+---+
>>> pic = picture(parse("Sw<3,4,3> o 0 o (8,64):(64,1)"), cell="chunk16", label="bank_group", element_bits=16)
>>> pic.labels[3]                     # row 3 of PTX's 128-byte swizzle table: chunk c -> c ^ 3
('3', '2', '1', '0', '7', '6', '5', '4')
>>> svg = to_svg(Layout((8, 8), (1, 8)))
>>> svg.count('class="cell"')
64
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape as _xml_escape

import numpy as np

from .errors import LayoutError, LayoutTypeError, LayoutValueError, UnitError

__all__ = [
    "layout_table",
    "layout_grid",
    "Picture",
    "picture",
    "to_svg",
    "to_tikz",
    "to_png",
    "picture_svg",
    "MissingDependencyError",
    "PALETTE",
    "MAX_CELLS_PER_SIDE",
]

#: ColorBrewer Set3 (qualitative, light): the first 8 are clearly distinct; 16 in all, then they repeat.
PALETTE: tuple[str, ...] = (
    "#8dd3c7", "#ffffb3", "#bebada", "#fb8072", "#80b1d3", "#fdb462", "#b3de69", "#fccde5",
    "#d9d9d9", "#bc80bd", "#ccebc5", "#ffed6f", "#e5c494", "#a6cee3", "#b2df8a", "#cab2d6",
)

#: The largest picture, in cells per side (rows and columns each).
MAX_CELLS_PER_SIDE = 256

_MAX_ELEMENTS = 1 << 20
_MAX_PNG_LABELS = 1024
_CELL_MODES = ("element", "chunk16")
_LABELS = ("value", "coord", "address", "bank_group")
_COLORS = ("auto", "phase", "value", "bank_group")
_UNITS = ("bytes", "elements")
_WHITE = "#ffffff"


class MissingDependencyError(LayoutError, ImportError):
    """An optional dependency (matplotlib for PNG) is not installed; the message says what to install.

    >>> issubclass(MissingDependencyError, LayoutError)
    True
    """


# ------------------------------------------------------------------------------------------
# text tables (CuTe's print_layout)


def layout_grid(layout: Any) -> np.ndarray:
    """The values of a rank-1 or rank-2 layout as a 2-D int array (rows = mode 0, columns = mode 1).

    >>> from pycute_layouts import Layout
    >>> layout_grid(Layout((2, 2), (1, 2))).tolist()
    [[0, 2], [1, 3]]
    """
    if not hasattr(layout, "to_numpy") or not hasattr(layout, "rank"):
        raise LayoutTypeError(f"layout_grid: expected a layout, got {layout!r}")
    r = layout.rank()
    if r > 2:
        raise LayoutValueError(f"layout_grid: only rank-1 and rank-2 layouts can be drawn as a table, got rank {r}")
    vals = layout.to_numpy()
    if r == 1:
        return vals.reshape(1, -1)
    from .layout import size

    rows = size(layout[0])
    cols = size(layout[1])
    return vals.reshape(cols, rows).T


def layout_table(layout: Any) -> str:
    """CuTe's ``print_layout``: the layout's value at every (row, column) coordinate as a text table.

    >>> from pycute_layouts import Layout
    >>> print(layout_table(Layout(4, 2)))
    4:2
           0   1   2   3
        +---+---+---+---+
     0  | 0 | 2 | 4 | 6 |
        +---+---+---+---+
    """
    grid = layout_grid(layout)
    nr, nc = grid.shape
    w = max(len(str(int(v))) for v in grid.ravel()) if grid.size else 1
    w = max(w, len(str(nc - 1)))
    rw = len(str(nr - 1))
    lines = [str(layout)]
    lines.append(" " * (rw + 3) + "".join(f" {c:>{w}}  " for c in range(nc)).rstrip())
    sep = " " * (rw + 3) + "+" + "+".join("-" * (w + 2) for _ in range(nc)) + "+"
    lines.append(sep)
    for r in range(nr):
        cells = "|".join(f" {int(v):>{w}} " for v in grid[r])
        lines.append(f" {r:>{rw}}  |{cells}|")
        lines.append(sep)
    return "\n".join(lines)


# ------------------------------------------------------------------------------------------
# the picture model: what every backend draws


@dataclass(frozen=True, eq=False)
class Picture:
    """What a picture shows, independent of the output format: cells, their labels and colors.

    ``labels[r][c]`` is the text of cell (r, c) (``None`` when unlabelled), ``colors[r][c]`` an
    index into :data:`PALETTE` (-1: white), ``legend`` pairs a color index with its meaning,
    ``row_step``/``col_step`` are elements per cell along each axis (cell (r, c) starts at
    element (r * row_step, c * col_step)), ``tooltips`` the full description of each cell,
    ``chunk_cells`` the (rows, columns) of cells that make one 16-byte chunk in element mode
    (drawn with heavier lines; (1, 1) when there is nothing to mark).

    >>> from pycute_layouts import Layout
    >>> p = picture(Layout((2, 3), (3, 1)))
    >>> p.nrows, p.ncols, p.labels[1]
    (2, 3, ('3', '4', '5'))
    """

    title: str
    subtitle: str
    nrows: int
    ncols: int
    row_step: int
    col_step: int
    row_caption: str
    col_caption: str
    labels: tuple[tuple[str, ...], ...] | None
    colors: tuple[tuple[int, ...], ...]
    legend: tuple[tuple[int, str], ...]
    tooltips: tuple[tuple[str, ...], ...]
    label_kind: str | None
    color_kind: str | None
    chunk_cells: tuple[int, int] = (1, 1)

    def fill(self, r: int, c: int) -> str:
        """The fill color (``#rrggbb``) of cell (r, c).

        >>> from pycute_layouts import Layout
        >>> picture(Layout(2), color=None).fill(0, 1)
        '#ffffff'
        """
        k = self.colors[r][c]
        return _WHITE if k < 0 else PALETTE[k % len(PALETTE)]


@dataclass
class _Source:
    values: np.ndarray | None  # element grid: the value label (element offset or byte address)
    addr_bits: np.ndarray | None  # element grid: bit address of each element's first bit
    phase: np.ndarray  # element grid: the XOR f(x) ^ x the swizzle applied (0 where none)
    element_bits: int | None
    value_name: str
    text: str
    units: str
    row_name: str
    col_name: str
    is_1d: bool


def _check_choice(who: str, name: str, value: Any, allowed: tuple, none_ok: bool) -> Any:
    if value is None and none_ok:
        return None
    if not isinstance(value, str) or value not in allowed:
        opts = ", ".join(repr(a) for a in allowed) + (", None" if none_ok else "")
        raise LayoutValueError(f"{who}: {name} must be one of {opts}; got {value!r}")
    return value


def _check_element_bits(who: str, element_bits: Any) -> int | None:
    if element_bits is None:
        return None
    if isinstance(element_bits, (bool, np.bool_)) or not isinstance(element_bits, (int, np.integer)) \
            or element_bits <= 0:
        raise UnitError(f"{who}: element_bits must be a positive integer (bits per element), got {element_bits!r}")
    return int(element_bits)


def _grid_shape(layout: Any, who: str) -> tuple[int, int]:
    from .inttuple import product

    r = layout.rank()
    if r not in (1, 2):
        raise LayoutValueError(
            f"{who}: only rank-1 and rank-2 layouts can be drawn (modes flattened like CuTe's print_layout); "
            f"{layout} has rank {r}; slice or group its modes first"
        )
    if layout.is_symbolic():
        raise LayoutValueError(f"{who}: {layout} has unbound symbols; bind them first (e.g. -D m=2 or layout.subs(m=2))")
    shape = layout.shape
    rows, cols = (1, int(product(shape))) if r == 1 else (int(product(shape[0])), int(product(shape[1])))
    if rows * cols > _MAX_ELEMENTS:
        raise LayoutValueError(f"{who}: {layout} has {rows}x{cols} elements; at most {_MAX_ELEMENTS} can be drawn "
                               f"(and at most {MAX_CELLS_PER_SIDE}x{MAX_CELLS_PER_SIDE} cells)")
    return rows, cols


def _mode_caption(layout: Any, i: int) -> str:
    from .layout import format_inttuple

    s = layout.shape if layout.rank() == 1 else layout.shape[i]
    return f"mode {i}: {format_inttuple(s)}" if isinstance(s, tuple) else f"mode {i}"


def _on_grid(flat: np.ndarray, rows: int, cols: int) -> np.ndarray:
    # flat: values in the layout's index order (colexicographic): index = r + rows * c
    return np.asarray(flat, dtype=np.int64).reshape(cols, rows).T


def _xor_phase(f: Any, x: np.ndarray) -> np.ndarray:
    return np.asarray(f(x), dtype=np.int64) ^ x


def _source(obj: Any, element_bits: int | None, swizzle_unit: str, who: str) -> _Source:
    from .composed import ComposedLayout, SwizzledSmemLayout
    from .layout import Layout
    from .swizzle import Swizzle, XorSwizzle

    eb = element_bits
    if isinstance(obj, Layout):
        rows, cols = _grid_shape(obj, who)
        vals = _on_grid(obj.to_numpy(), rows, cols)
        return _Source(vals, None if eb is None else vals * eb, np.zeros_like(vals), eb, "offset", str(obj),
                       "elements", *_captions(obj))
    if isinstance(obj, ComposedLayout):
        rows, cols = _grid_shape(obj, who)
        outer, off, inner = obj.outer, obj.offset, obj.inner
        is_sw = isinstance(outer, (Swizzle, XorSwizzle))
        if not isinstance(inner, Layout):
            raise LayoutTypeError(f"{who}: the inner layout of {obj} must be a plain Layout (nested ComposedLayouts "
                                  "are not drawn)")
        x = _on_grid(inner.to_numpy(), rows, cols) + int(off)
        caps = _captions(obj)
        if not is_sw:  # outer is a Layout: linear, the unit does not matter
            vals = _on_grid(obj.to_numpy(), rows, cols)
            return _Source(vals, None if eb is None else vals * eb, np.zeros_like(vals), eb, "offset", str(obj),
                           "elements", *caps)
        if eb is None or swizzle_unit == "elements":
            vals = np.asarray(outer(x), dtype=np.int64)
            return _Source(vals, None if eb is None else vals * eb, vals ^ x, eb, "offset", str(obj),
                           "elements" if eb is None else "swizzle on element offsets", *caps)
        bits = x * eb
        byte, rem = np.divmod(bits, 8)
        addr_bits = np.asarray(outer(byte), dtype=np.int64) * 8 + rem
        if np.any(addr_bits % eb):
            raise UnitError(f"{who}: {outer} on byte addresses splits {eb}-bit elements (it moves units smaller than "
                            "an element); draw it with smaller element_bits or swizzle_unit='elements'")
        return _Source(addr_bits // eb, addr_bits, _xor_phase(outer, byte), eb, "offset", str(obj),
                       "swizzle on byte addresses", *caps)
    if isinstance(obj, SwizzledSmemLayout):
        if eb is not None and eb != obj.element_bits:
            raise UnitError(f"{who}: the SwizzledSmemLayout holds {obj.element_bits}-bit elements but "
                            f"element_bits={eb} was passed")
        eb = obj.element_bits
        L = obj.layout
        rows, cols = _grid_shape(L, who)
        idx = np.arange(rows * cols, dtype=np.int64)
        addr_bits = _on_grid(obj.bit_address(idx), rows, cols)
        off = _on_grid(L.to_numpy(), rows, cols)
        if obj.swizzle_unit == "bytes":
            pre = (obj.base_address * 8 + off * eb) // 8
        else:
            pre = obj.base_address // (eb // 8) + off
        vals = addr_bits // 8 if not np.any(addr_bits % 8) else None
        return _Source(vals, addr_bits, _xor_phase(obj.swizzle, pre), eb, "byte address", str(obj),
                       f"swizzle on {obj.swizzle_unit}", *_captions(L))
    if isinstance(obj, np.ndarray):
        return _array_source(obj, eb, who)
    raise LayoutTypeError(f"{who}: expected a Layout, ComposedLayout, SwizzledSmemLayout or a 2-D numpy array of byte "
                          f"offsets (arch.tma.box_to_smem), got {type(obj).__name__}")


def _captions(layout: Any) -> tuple[str, str, bool]:
    if layout.rank() == 1:
        return "", _mode_caption(layout, 0), True
    return _mode_caption(layout, 0), _mode_caption(layout, 1), False


def _array_source(arr: np.ndarray, eb: int | None, who: str) -> _Source:
    if not np.issubdtype(arr.dtype, np.integer):
        raise LayoutTypeError(f"{who}: a placement array must hold integer byte offsets, got dtype {arr.dtype}")
    if arr.ndim == 1:
        arr = arr.reshape(1, -1)
    if arr.ndim != 2:
        raise LayoutValueError(f"{who}: a placement array must be 2-D (box rows x bytes), got shape {arr.shape}; "
                               "reshape it with a.reshape(-1, a.shape[-1])")
    rows, row_bytes = arr.shape
    if rows * row_bytes > _MAX_ELEMENTS or rows == 0 or row_bytes == 0:
        raise LayoutValueError(f"{who}: a placement array of shape {arr.shape} cannot be drawn "
                               f"(1..{_MAX_ELEMENTS} bytes)")
    eb = 8 if eb is None else eb
    if eb % 8:
        raise UnitError(f"{who}: a placement array holds bytes; element_bits must be a multiple of 8, got {eb}")
    nb = eb // 8
    if row_bytes % nb:
        raise UnitError(f"{who}: a row of {row_bytes} bytes is not a whole number of {eb}-bit elements")
    a = arr.astype(np.int64).reshape(rows, row_bytes // nb, nb)
    split = np.argwhere(np.any(a != a[..., :1] + np.arange(nb), axis=-1))
    if split.size:
        r, c = (int(v) for v in split[0])
        raise UnitError(f"{who}: the {nb} bytes of element ({r},{c}) are not consecutive in shared memory "
                        f"({a[r, c].tolist()}); draw smaller elements")
    placed = a[..., 0]
    dense = (np.arange(rows, dtype=np.int64)[:, None] * row_bytes + np.arange(0, row_bytes, nb, dtype=np.int64)[None, :])
    col = "byte" if nb == 1 else f"element ({eb}-bit)"
    return _Source(placed, placed * 8, placed ^ dense, eb, "byte offset", f"placement of {rows}x{row_bytes} bytes",
                   "byte offsets from the destination", "box row", col, False)


def _chunk_axis(addr_bits: np.ndarray, eb: int, who: str) -> int:
    if 128 % eb:
        raise UnitError(f"{who}: cell='chunk16' needs elements that tile 16 bytes (element_bits dividing 128), "
                        f"got {eb}-bit elements")
    epc = 128 // eb

    def ok(a: np.ndarray) -> bool:
        if a.shape[1] % epc:
            return False
        g = a.reshape(a.shape[0], a.shape[1] // epc, epc)
        return bool(np.all(g[..., 0] % 128 == 0) and np.all(g == g[..., :1] + np.arange(epc) * eb))

    if ok(addr_bits):
        return 1
    if ok(addr_bits.T):
        return 0
    raise LayoutValueError(
        f"{who}: cell='chunk16' needs every 16-byte chunk ({epc} elements of {eb} bits) to be {epc} consecutive "
        f"elements along mode 1 or mode 0, starting on a 16-byte boundary; this layout's element addresses are not "
        "(draw it with cell='element')"
    )


def _rank_keys(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    distinct, inv = np.unique(keys, return_inverse=True)
    return distinct, inv.reshape(keys.shape)


def picture(obj: Any, *, cell: str = "element", label: str | None = "value", color: str | None = "auto",
            element_bits: int | None = None, swizzle_unit: str = "bytes", title: str | None = None,
            who: str = "picture") -> Picture:
    """The :class:`Picture` of a layout: the cells, labels, colors and legend every backend draws.

    ``obj`` is a rank-1/rank-2 Layout, a ComposedLayout (``Sw<..> o off o L``), a
    SwizzledSmemLayout, a 2-D integer array of byte offsets (``arch.tma.box_to_smem``), or a
    Picture (returned unchanged, the options unused: every backend draws it). See the
    module docstring for ``cell``, ``label``, ``color``, ``element_bits`` and ``swizzle_unit``.
    Errors: LayoutValueError for a bad option, rank > 2, unbound symbols, more than
    ``MAX_CELLS_PER_SIDE`` cells per side, or chunks that are not 16 contiguous bytes; UnitError
    when an address is asked for and ``element_bits`` is unknown.

    >>> from pycute_layouts import parse
    >>> p = picture(parse("Sw<1,4,3> o 0 o (8,16):(16,1)"), cell="chunk16", element_bits=16, label="address")
    >>> p.nrows, p.ncols, p.labels[1]
    (8, 2, ('32', '48'))
    >>> picture(parse("(2,2,2):(1,2,4)"))
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.LayoutValueError: picture: only rank-1 and rank-2 layouts can be drawn ...
    """
    if isinstance(obj, Picture):  # an already-built picture (e.g. render_tv's thread-value pictures) draws as is
        return obj
    cell = _check_choice(who, "cell", cell, _CELL_MODES, False)
    label = _check_choice(who, "label", label, _LABELS, True)
    color = _check_choice(who, "color", color, _COLORS, True)
    swizzle_unit = _check_choice(who, "swizzle_unit", swizzle_unit, _UNITS, False)
    eb = _check_element_bits(who, element_bits)
    if title is not None and not isinstance(title, str):
        raise LayoutTypeError(f"{who}: title must be a string, got {title!r}")
    src = _source(obj, eb, swizzle_unit, who)
    eb = src.element_bits

    values, addr_bits, phase = src.values, src.addr_bits, src.phase

    def need_addr(what: str) -> np.ndarray:  # the current grid's addresses (per chunk after chunking)
        if addr_bits is None:
            raise UnitError(f"{who}: {what} needs byte addresses: pass element_bits (the width of one element in bits; "
                            "--element-bits on the command line)")
        return addr_bits

    row_step = col_step = 1
    chunk_cells = (1, 1)
    if cell == "element" and addr_bits is not None and 128 % eb == 0 and eb < 128:
        try:
            axis = _chunk_axis(addr_bits, eb, who)
            chunk_cells = (1, 128 // eb) if axis == 1 else (128 // eb, 1)
        except LayoutError:
            pass
    if cell == "chunk16":
        ab = need_addr("cell='chunk16'")
        axis = _chunk_axis(ab, eb, who)
        epc = 128 // eb
        sl = (slice(None), slice(None, None, epc)) if axis == 1 else (slice(None, None, epc), slice(None))
        addr_bits, phase = ab[sl], phase[sl]
        values = addr_bits // 128
        row_step, col_step = (1, epc) if axis == 1 else (epc, 1)
    nrows, ncols = phase.shape
    if nrows > MAX_CELLS_PER_SIDE or ncols > MAX_CELLS_PER_SIDE:
        hint = " (try cell='chunk16')" if cell == "element" else ""
        raise LayoutValueError(f"{who}: the picture would be {nrows}x{ncols} cells; at most {MAX_CELLS_PER_SIDE}x"
                               f"{MAX_CELLS_PER_SIDE} can be drawn{hint}; draw a tile of the layout instead")

    value_name = "16-byte chunk" if cell == "chunk16" else src.value_name
    rr = np.arange(nrows)[:, None] * row_step
    cc = np.arange(ncols)[None, :] * col_step

    def value_grid() -> np.ndarray:
        if values is None:
            raise UnitError(f"{who}: {eb}-bit elements do not start on bytes; label or color by 'value' in "
                            "cell='chunk16' mode, or by 'coord'")
        return values

    def byte_grid(what: str) -> np.ndarray:
        ab = need_addr(what)
        if np.any(ab % 8):
            raise UnitError(f"{who}: {what}: {eb}-bit elements do not all start on a byte; use cell='chunk16'")
        return ab // 8

    # labels
    labels = None
    if label is not None:
        if label == "value":
            grid = value_grid()
        elif label == "address":
            grid = byte_grid("label='address'")
        elif label == "bank_group":
            grid = (need_addr("label='bank_group'") // 8 % 128) // 16
        else:
            grid = None
        if grid is None:
            labels = tuple(tuple(f"{r},{c}" if not src.is_1d else f"{c}" for c in cc[0]) for r in rr[:, 0])
        else:
            labels = tuple(tuple(str(v) for v in row) for row in grid.tolist())

    # colors
    if color == "auto":
        color = "phase" if np.unique(phase).size > 1 else ("value" if values is not None else None)
    legend: list[tuple[int, str]] = []
    if color is None:
        cidx = np.full((nrows, ncols), -1, dtype=np.int64)
    elif color == "phase":
        distinct, cidx = _rank_keys(phase)
        legend = [(k, f"phase {k}: XOR {int(v):#x}") for k, v in enumerate(distinct.tolist())]
    elif color == "bank_group":
        cidx = (need_addr("color='bank_group'") // 8 % 128) // 16
        legend = [(g, f"bank group {g} (banks {4 * g}-{4 * g + 3})") for g in range(8) if np.any(cidx == g)]
    else:
        cidx = value_grid() % 8
        legend = [(k, f"{value_name} mod 8 = {k}") for k in range(8) if np.any(cidx == k)]
    if len(legend) > len(PALETTE):
        legend = legend[: len(PALETTE)] + [(-1, f"... colors repeat every {len(PALETTE)}")]

    # tooltips
    vt = values.tolist() if values is not None else None
    at = (addr_bits // 8).tolist() if addr_bits is not None and not np.any(addr_bits % 8) else None
    pt = phase.tolist()
    tips = []
    for r in range(nrows):
        row = []
        for c in range(ncols):
            crd = f"({c * col_step})" if src.is_1d else f"({r * row_step},{c * col_step})"
            t = crd
            if vt is not None:
                t += f" {value_name} {vt[r][c]}"
            if at is not None and (value_name != "byte address" or cell == "chunk16"):
                t += f", byte {at[r][c]}, bank group {(at[r][c] % 128) // 16}"
            if pt[r][c]:
                t += f", XOR {pt[r][c]:#x}"
            row.append(t)
        tips.append(tuple(row))

    sub = [f"{eb}-bit elements" if eb is not None else "", src.units if eb is not None else ""]
    if cell == "chunk16":
        sub.append(f"one cell = 16 bytes ({128 // eb} element{'s' if eb < 128 else ''})")
    if label is not None:
        sub.append("labels: " + ({"value": value_name, "bank_group": "bank group (16-byte column of the 128-byte line)",
                                  "address": "byte address", "coord": "coordinate"}[label]))
    if color is not None:
        sub.append("colors: " + {"phase": "swizzle phase", "bank_group": "bank group", "value": f"{value_name} mod 8"}[color])
    unit_word = "bytes" if isinstance(obj, np.ndarray) and eb == 8 else "elements"
    step_note = lambda s: f" ({s} {unit_word} per cell)" if s > 1 else ""  # noqa: E731
    return Picture(
        title=title if title is not None else src.text,
        subtitle="; ".join(s for s in sub if s),
        nrows=nrows, ncols=ncols, row_step=row_step, col_step=col_step,
        row_caption=(src.row_name + step_note(row_step)) if src.row_name else "",
        col_caption=src.col_name + step_note(col_step),
        labels=labels,
        colors=tuple(tuple(row) for row in cidx.tolist()),
        legend=tuple(legend),
        tooltips=tuple(tips),
        label_kind=label, color_kind=color, chunk_cells=chunk_cells,
    )


# ------------------------------------------------------------------------------------------
# geometry shared by the backends


_CHAR_W = 0.62  # monospace advance, in em


def _num(x: float) -> str:
    s = f"{x:.2f}".rstrip("0").rstrip(".")
    return s if s not in ("-0", "") else "0"


def _power_of_two_at_least(x: float) -> int:
    k = 1
    while k < x:
        k *= 2
    return k


@dataclass
class _Geom:
    cell_w: float
    cell_h: float
    font: float
    label_every: int  # label every k-th row and column (1: every cell)
    col_tick_every: int
    row_tick_every: int


def _geometry(pic: Picture, *, max_w: float, max_h: float, want_h: float, base_font: float, min_font: float,
              tick_font: float, min_cell: float) -> _Geom:
    maxc = max((len(s) for row in pic.labels for s in row), default=1) if pic.labels else 1
    want_w = max(want_h * 1.1, maxc * base_font * _CHAR_W + 0.3 * base_font + 2)
    cell_w = max(min_cell, want_w * min(1.0, max_w / (pic.ncols * want_w)))
    cell_h = max(min_cell, want_h * min(1.0, max_h / (pic.nrows * want_h)))

    def fit(k: int) -> float:
        return min(base_font, (k * cell_w - 2) / (maxc * _CHAR_W), k * cell_h * 0.8)

    k = 1
    while fit(k) < min_font and k < max(pic.nrows, pic.ncols):
        k *= 2
    tick_chars = len(str((pic.ncols - 1) * pic.col_step))
    ct = _power_of_two_at_least((tick_chars * tick_font * _CHAR_W + 3) / cell_w)
    rt = _power_of_two_at_least((tick_font + 2) / cell_h)
    return _Geom(cell_w, cell_h, fit(k), k, ct, rt)


def _wrap(text: str, max_chars: float) -> list[str]:
    lines: list[str] = []
    for part in text.split("; ") if text else []:
        if lines and len(lines[-1]) + 2 + len(part) <= max_chars:
            lines[-1] += "; " + part
        else:
            lines.append(part)
    return lines


def _caption_line(pic: Picture) -> str:
    if pic.row_caption:
        return f"rows \u2193 {pic.row_caption}    columns \u2192 {pic.col_caption}"
    return f"columns \u2192 {pic.col_caption}"


def _labelled(pic: Picture, g: _Geom, r: int, c: int) -> bool:
    return pic.labels is not None and r % g.label_every == 0 and c % g.label_every == 0


# ------------------------------------------------------------------------------------------
# SVG


def picture_svg(pic: Picture, *, max_side_px: int = 1600) -> str:
    """The SVG of a :class:`Picture`, fitted to ``max_side_px`` pixels a side (larger: bigger labels).

    Pre: pic a Picture, 200 <= max_side_px <= 20000. Post: the SVG text, as :func:`to_svg` draws it.

    >>> from pycute_layouts import Layout
    >>> picture_svg(picture(Layout((2, 3), (3, 1))), max_side_px=4000).count('class="cell"')
    6
    """
    if not isinstance(pic, Picture):
        raise LayoutTypeError(f"picture_svg: expected a Picture, got {pic!r}")
    if isinstance(max_side_px, bool) or not isinstance(max_side_px, int) or not 200 <= max_side_px <= 20000:
        raise LayoutValueError(f"picture_svg: max_side_px must be an integer in [200, 20000], got {max_side_px!r}")
    return _svg_of(pic, max_side_px)


def _svg_of(pic: Picture, max_side: float = 1600) -> str:
    g = _geometry(pic, max_w=max_side, max_h=max_side, want_h=20, base_font=11, min_font=5, tick_font=9, min_cell=6)
    pad, tfont, sfont, cfont, tkf = 8.0, 14.0, 10.0, 10.0, 9.0
    grid_w, grid_h = pic.ncols * g.cell_w, pic.nrows * g.cell_h
    row_tick_chars = len(str((pic.nrows - 1) * pic.row_step)) if pic.row_caption else 0
    left = pad + (row_tick_chars * tkf * _CHAR_W + 6 if pic.row_caption else 0)
    wrap = max(left + grid_w - pad, 420.0)
    sub_lines = _wrap(pic.subtitle, wrap / (sfont * _CHAR_W))
    top = pad + tfont + 4 + len(sub_lines) * (sfont + 3) + cfont + 4 + tkf + 4
    # legend: swatches in rows
    sw = 12.0
    items = [(k, t, sw + 6 + len(t) * sfont * _CHAR_W + 14) for k, t in pic.legend]
    avail = max(grid_w, 360.0)
    legend_rows: list[list[tuple[int, str, float]]] = [[]]
    used = 0.0
    for it in items:
        if legend_rows[-1] and used + it[2] > avail:
            legend_rows.append([])
            used = 0.0
        legend_rows[-1].append(it)
        used += it[2]
    legend_h = (len(legend_rows) * (sw + 6) + 6) if items else 0
    text_w = max([len(pic.title) * tfont * _CHAR_W, len(_caption_line(pic)) * cfont * _CHAR_W]
                 + [len(t) * sfont * _CHAR_W for t in sub_lines])
    width = math.ceil(max(left + grid_w, pad + text_w, left + (max((sum(i[2] for i in r) for r in legend_rows),
                                                                   default=0))) + pad)
    height = math.ceil(top + grid_h + legend_h + pad)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'font-family="DejaVu Sans Mono, Menlo, Consolas, monospace">',
        f"<title>{_xml_escape(pic.title)}</title>",
        f'<rect class="background" x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>',
        f'<text class="title" x="{_num(pad)}" y="{_num(pad + tfont)}" font-size="{_num(tfont)}" '
        f'font-weight="bold">{_xml_escape(pic.title)}</text>',
    ]
    y = pad + tfont + 4
    for line in sub_lines:
        out.append(f'<text class="subtitle" x="{_num(pad)}" y="{_num(y + sfont)}" font-size="{_num(sfont)}" '
                   f'fill="#333333">{_xml_escape(line)}</text>')
        y += sfont + 3
    # axes
    out.append(f'<g class="axes" font-size="{_num(tkf)}" fill="#333333">')
    out.append(f'<text class="caption" x="{_num(left)}" y="{_num(y + cfont)}" font-size="{_num(cfont)}">'
               f'{_xml_escape(_caption_line(pic))}</text>')
    ty = top - 4
    for c in range(0, pic.ncols, g.col_tick_every):
        out.append(f'<text class="tick" x="{_num(left + (c + 0.5) * g.cell_w)}" y="{_num(ty)}" '
                   f'text-anchor="middle">{c * pic.col_step}</text>')
    if pic.row_caption:
        for r in range(0, pic.nrows, g.row_tick_every):
            out.append(f'<text class="tick" x="{_num(left - 4)}" y="{_num(top + (r + 0.5) * g.cell_h + 0.35 * tkf)}" '
                       f'text-anchor="end">{r * pic.row_step}</text>')
    out.append("</g>")
    # cells
    sw_w = _num(max(0.25, min(0.75, g.cell_w / 30)))
    out.append(f'<g class="cells" stroke="#444444" stroke-width="{sw_w}">')
    cw, ch = _num(g.cell_w), _num(g.cell_h)
    xs = [_num(left + c * g.cell_w) for c in range(pic.ncols)]
    for r in range(pic.nrows):
        yr = _num(top + r * g.cell_h)
        fills, tips = pic.colors[r], pic.tooltips[r]
        for c in range(pic.ncols):
            k = fills[c]
            fill = _WHITE if k < 0 else PALETTE[k % len(PALETTE)]
            out.append(f'<rect class="cell" x="{xs[c]}" y="{yr}" width="{cw}" height="{ch}" fill="{fill}">'
                       f"<title>{_xml_escape(tips[c])}</title></rect>")
    out.append("</g>")
    rc, cc = pic.chunk_cells
    if rc > 1 or cc > 1:
        if cc > 1:
            d = [f"M{_num(left + c * g.cell_w)} {_num(top)}V{_num(top + grid_h)}" for c in range(0, pic.ncols + 1, cc)]
        else:
            d = [f"M{_num(left)} {_num(top + r * g.cell_h)}H{_num(left + grid_w)}" for r in range(0, pic.nrows + 1, rc)]
        out.append(f'<path class="chunk-lines" d="{" ".join(d)}" stroke="#000000" stroke-width="{_num(2 * float(sw_w))}" '
                   'fill="none"/>')
    # labels
    if pic.labels is not None:
        f = g.font
        sparse = g.label_every > 1
        out.append(f'<g class="labels" font-size="{_num(f)}" text-anchor="{"start" if sparse else "middle"}" '
                   'fill="#000000" pointer-events="none">')
        for r in range(0, pic.nrows, g.label_every):
            row = pic.labels[r]
            ly = _num(top + (r + 0.5) * g.cell_h + 0.35 * f)
            for c in range(0, pic.ncols, g.label_every):
                s = _xml_escape(row[c])
                if sparse:
                    x0 = left + c * g.cell_w
                    out.append(f'<rect class="label-bg" x="{_num(x0 + 0.5)}" y="{_num(top + (r + 0.5) * g.cell_h - 0.6 * f)}" '
                               f'width="{_num(len(row[c]) * f * _CHAR_W + 2)}" height="{_num(1.2 * f)}" fill="#ffffff" '
                               'fill-opacity="0.8" stroke="none"/>')
                    out.append(f'<text class="label" x="{_num(x0 + 1.5)}" y="{ly}">{s}</text>')
                else:
                    out.append(f'<text class="label" x="{_num(left + (c + 0.5) * g.cell_w)}" y="{ly}">{s}</text>')
        out.append("</g>")
    # legend
    if items:
        out.append(f'<g class="legend" font-size="{_num(sfont)}" fill="#000000">')
        ly = top + grid_h + 8
        for lr in legend_rows:
            x = left
            for k, t, w in lr:
                if k >= 0:
                    out.append(f'<rect class="swatch" x="{_num(x)}" y="{_num(ly)}" width="{_num(sw)}" height="{_num(sw)}" '
                               f'fill="{PALETTE[k % len(PALETTE)]}" stroke="#444444" stroke-width="0.5"/>')
                out.append(f'<text x="{_num(x + sw + 4)}" y="{_num(ly + sw - 2)}">{_xml_escape(t)}</text>')
                x += w
            ly += sw + 6
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def to_svg(layout: Any, *, cell: str = "element", label: str | None = "value", color: str | None = "auto",
           element_bits: int | None = None, swizzle_unit: str = "bytes", title: str | None = None) -> str:
    """An SVG picture of a layout (PTX-figure style), written directly: no dependency.

    One ``<rect class="cell">`` per element (or per 16-byte chunk with ``cell="chunk16"``), filled
    by swizzle phase (or bank group, or value mod 8), labelled with values, addresses, bank groups
    or coordinates, with a tooltip per cell, the mode indices on the axes, a title and a legend.
    Large tiles (up to 256x256 cells) shrink to about 1600 px a side and, where labels would be
    smaller than 5 px, label every 2nd/4th/... row and column. Options and errors as :func:`picture`.

    >>> from pycute_layouts import parse
    >>> svg = to_svg(parse("Sw<3,4,3> o 0 o (8,64):(64,1)"), cell="chunk16", label="bank_group", element_bits=16)
    >>> import xml.etree.ElementTree as ET
    >>> cells = ET.fromstring(svg).findall(".//{http://www.w3.org/2000/svg}rect[@class='cell']")
    >>> len(cells), len({c.get("fill") for c in cells})          # 8x8 chunks, 8 swizzle phases
    (64, 8)
    >>> ET.fromstring(svg).get("viewBox")
    '0 0 364 351'
    """
    pic = picture(layout, cell=cell, label=label, color=color, element_bits=element_bits, swizzle_unit=swizzle_unit,
                  title=title, who="to_svg")
    return _svg_of(pic)


# ------------------------------------------------------------------------------------------
# TikZ

_TEX_ESCAPES = {
    "\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&", "#": r"\#", "%": r"\%",
    "_": r"\_", "^": r"\textasciicircum{}", "~": r"\textasciitilde{}", "<": r"\textless{}", ">": r"\textgreater{}",
}


def _tex(s: str) -> str:
    return "".join(_TEX_ESCAPES.get(ch, ch) for ch in s).replace("\u2192", r"$\rightarrow$").replace(
        "\u2193", r"$\downarrow$")


def to_tikz(layout: Any, *, cell: str = "element", label: str | None = "value", color: str | None = "auto",
            element_bits: int | None = None, swizzle_unit: str = "bytes", title: str | None = None,
            standalone: bool = False) -> str:
    """The picture as a LaTeX TikZ ``tikzpicture`` (``standalone=True``: a whole compilable document).

    One ``\\node[cell, ...]`` per cell (in the ``cells`` scope), colors defined with
    ``\\definecolor`` from :data:`PALETTE`; the picture fits about 17 cm x 24 cm. Needs TikZ (and
    xcolor) in the including document. Options and errors as :func:`picture`.

    >>> from pycute_layouts import Layout
    >>> tex = to_tikz(Layout((2, 2), (1, 2)))
    >>> tex.count(r"\\node[cell"), tex.splitlines()[-1]
    (4, '\\\\end{tikzpicture}')
    >>> to_tikz(Layout(4), standalone=True).splitlines()[0]
    '\\\\documentclass[tikz,border=4pt]{standalone}'
    """
    if not isinstance(standalone, bool):
        raise LayoutTypeError(f"to_tikz: standalone must be True or False, got {standalone!r}")
    pic = picture(layout, cell=cell, label=label, color=color, element_bits=element_bits, swizzle_unit=swizzle_unit,
                  title=title, who="to_tikz")
    pt_per_cm = 28.4527
    g = _geometry(pic, max_w=17 * pt_per_cm, max_h=24 * pt_per_cm, want_h=14, base_font=7, min_font=3, tick_font=5,
                  min_cell=2)
    wcm, hcm = g.cell_w / pt_per_cm, g.cell_h / pt_per_cm
    f = g.font
    used = sorted({k % len(PALETTE) for row in pic.colors for k in row if k >= 0} | {k for k, _ in pic.legend if k >= 0})
    out = []
    if standalone:
        out += [r"\documentclass[tikz,border=4pt]{standalone}", r"\usepackage{xcolor}", r"\begin{document}"]
    out.append(f"% {_tex(pic.title)} -- drawn by pycute_layouts.render.to_tikz")
    out.append(
        rf"\begin{{tikzpicture}}[x={wcm:.4f}cm, y=-{hcm:.4f}cm, "
        rf"cell/.style={{draw=black!70, line width=0.2pt, minimum width={wcm:.4f}cm, minimum height={hcm:.4f}cm, "
        rf"inner sep=0pt, outer sep=0pt, font=\ttfamily\fontsize{{{f:.2f}}}{{{f * 1.2:.2f}}}\selectfont}}, "
        rf"lbl/.style={{inner sep=0.3pt, anchor=west, fill=white, fill opacity=0.8, text opacity=1, "
        rf"font=\ttfamily\fontsize{{{f:.2f}}}{{{f * 1.2:.2f}}}\selectfont}}, "
        r"tick/.style={inner sep=1pt, font=\ttfamily\fontsize{5}{6}\selectfont}]"
    )
    for k in used:
        out.append(rf"\definecolor{{pc{k}}}{{HTML}}{{{PALETTE[k][1:].upper()}}}")
    tick_up = 5 / g.cell_h  # 5 pt above the grid, in cell units
    head = [rf"\textbf{{\texttt{{{_tex(pic.title)}}}}}"]
    head += [rf"{{\scriptsize {_tex(t)}}}" for t in _wrap(pic.subtitle, 90)]
    head.append(rf"{{\scriptsize {_tex(_caption_line(pic))}}}")
    newline = r" \\ "
    out.append(rf"\node[anchor=south west, align=left, inner sep=0pt] at (0, {-2.2 * tick_up:.3f}) {{{newline.join(head)}}};")
    for c in range(0, pic.ncols, g.col_tick_every):
        out.append(rf"\node[tick, anchor=south] at ({c + 0.5}, 0) {{{c * pic.col_step}}};")
    if pic.row_caption:
        for r in range(0, pic.nrows, g.row_tick_every):
            out.append(rf"\node[tick, anchor=east] at (0, {r + 0.5}) {{{r * pic.row_step}}};")
    out.append(r"\begin{scope} % cells")
    sparse = g.label_every > 1 and pic.labels is not None
    for r in range(pic.nrows):
        for c in range(pic.ncols):
            k = pic.colors[r][c]
            fill = f"pc{k % len(PALETTE)}" if k >= 0 else "white"
            text = _tex(pic.labels[r][c]) if (not sparse and _labelled(pic, g, r, c)) else ""
            out.append(rf"\node[cell, fill={fill}] at ({c + 0.5}, {r + 0.5}) {{{text}}};")
    if sparse:
        for r in range(0, pic.nrows, g.label_every):
            for c in range(0, pic.ncols, g.label_every):
                out.append(rf"\node[lbl] at ({c}, {r + 0.5}) {{{_tex(pic.labels[r][c])}}};")
    out.append(r"\end{scope}")
    if pic.legend:
        y = pic.nrows + 12 / g.cell_h
        for i, (k, t) in enumerate(pic.legend):
            fill = f"pc{k % len(PALETTE)}" if k >= 0 else "white"
            out.append(rf"\node[draw=black!70, fill={fill}, minimum size=6pt, inner sep=0pt, "
                       rf"label={{[font=\scriptsize]right:{{{_tex(t)}}}}}] at (0.3, {y + i * 10 / g.cell_h:.3f}) {{}};")
    out.append(r"\end{tikzpicture}")
    if standalone:
        out.append(r"\end{document}")
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------------------------------
# PNG through matplotlib (optional)


def to_png(layout: Any, path: str | os.PathLike, *, cell: str = "element", label: str | None = "value",
           color: str | None = "auto", element_bits: int | None = None, swizzle_unit: str = "bytes",
           title: str | None = None, dpi: int = 150) -> str:
    """Write the picture as a PNG through matplotlib (``pip install 'pycute-layouts[png]'``); returns the path.

    Same picture as :func:`to_svg` (large tiles label at most 1024 cells: matplotlib draws text
    slowly, a 128x128 tile takes seconds). Without matplotlib, raises :class:`MissingDependencyError`
    naming the extra to install (the SVG needs nothing: convert it with any SVG tool instead).

    >>> from pycute_layouts import Layout
    >>> try:
    ...     import matplotlib
    ... except ImportError:
    ...     matplotlib = None
    >>> if matplotlib is None:
    ...     try:
    ...         to_png(Layout(4), "x.png")
    ...     except MissingDependencyError as e:
    ...         print("pycute-layouts[png]" in str(e))
    ... else:
    ...     print(True)
    True
    """
    if isinstance(dpi, bool) or not isinstance(dpi, int) or not 10 <= dpi <= 1200:
        raise LayoutValueError(f"to_png: dpi must be an integer in [10, 1200], got {dpi!r}")
    if not isinstance(path, (str, os.PathLike)):
        raise LayoutTypeError(f"to_png: path must be a file name, got {path!r}")
    pic = picture(layout, cell=cell, label=label, color=color, element_bits=element_bits, swizzle_unit=swizzle_unit,
                  title=title, who="to_png")
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
        from matplotlib.patches import Patch
    except ImportError:
        raise MissingDependencyError(
            "to_png needs matplotlib, which is not installed: pip install 'pycute-layouts[png]' "
            "(or write an SVG with to_svg, which needs nothing)"
        ) from None
    g = _geometry(pic, max_w=1600, max_h=1600, want_h=20, base_font=11, min_font=5, tick_font=9, min_cell=6)
    px_in = 100.0  # the SVG's pixels at 100 per inch; fonts in points = px * 0.72
    rgb = np.array([[_rgb(pic.fill(r, c)) for c in range(pic.ncols)] for r in range(pic.nrows)], dtype=float)
    fig = Figure(figsize=(pic.ncols * g.cell_w / px_in + 2.2, pic.nrows * g.cell_h / px_in + 1.6 +
                          0.25 * math.ceil(len(pic.legend) / 4)))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    ax.imshow(rgb, interpolation="nearest", aspect="auto")
    ax.set_xticks(np.arange(-0.5, pic.ncols, 1.0), minor=True)
    ax.set_yticks(np.arange(-0.5, pic.nrows, 1.0), minor=True)
    ax.grid(which="minor", color="#444444", linewidth=0.4)
    ax.tick_params(which="minor", length=0)
    ax.xaxis.tick_top()
    ax.xaxis.set_label_position("top")
    xt = list(range(0, pic.ncols, g.col_tick_every))
    yt = list(range(0, pic.nrows, g.row_tick_every))
    ax.set_xticks(xt, [str(c * pic.col_step) for c in xt], fontsize=6.5)
    ax.set_yticks(yt, [str(r * pic.row_step) for r in yt] if pic.row_caption else [""] * len(yt), fontsize=6.5)
    ax.set_xlabel(f"{pic.col_caption} \u2192", fontsize=7.5)
    ax.set_ylabel(f"\u2190 {pic.row_caption}" if pic.row_caption else "", fontsize=7.5)
    if pic.labels is not None:
        fs = g.font * 0.72
        while (pic.nrows // g.label_every) * (pic.ncols // g.label_every) > _MAX_PNG_LABELS:
            g.label_every *= 2  # matplotlib draws text slowly: at most _MAX_PNG_LABELS labels
        for r in range(0, pic.nrows, g.label_every):
            for c in range(0, pic.ncols, g.label_every):
                if g.label_every == 1:
                    ax.text(c, r, pic.labels[r][c], ha="center", va="center", fontsize=fs, family="monospace")
                else:
                    ax.text(c - 0.45, r, pic.labels[r][c], ha="left", va="center", fontsize=fs, family="monospace",
                            bbox={"facecolor": "white", "alpha": 0.8, "pad": 0.3, "linewidth": 0})
    ax.set_title("\n".join([pic.title] + _wrap(pic.subtitle, 100)), fontsize=7.5, family="monospace", loc="left")
    if pic.legend:
        handles = [Patch(facecolor=PALETTE[k % len(PALETTE)] if k >= 0 else _WHITE, edgecolor="#444444", label=t)
                   for k, t in pic.legend]
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(0.0, -0.02), ncol=4, fontsize=6.5, frameon=False)
    fig.savefig(os.fspath(path), dpi=dpi, bbox_inches="tight", facecolor="white")
    return os.fspath(path)


def _rgb(hexcolor: str) -> tuple[float, float, float]:
    return tuple(int(hexcolor[i:i + 2], 16) / 255.0 for i in (1, 3, 5))  # type: ignore[return-value]
