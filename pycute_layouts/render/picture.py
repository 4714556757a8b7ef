"""The picture model every backend draws: cells, labels, colors, legend and tooltips of a layout.

See :mod:`pycute_layouts.render` for what cells, labels, colors and units mean.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.composed import ComposedLayout, SwizzledSmemLayout, smem_layout_of
from ..core.display import rich_repr
from ..core.inttuple import product
from ..core.layout import Layout, format_inttuple, require_offsets
from ..core.swizzle import Swizzle, XorSwizzle
from ..errors import CoordinateError, LayoutError, LayoutTypeError, LayoutValueError, UnitError
from ..limits import MAX_ELEMENT_BITS, check_count, check_fields, check_type, fmt

__all__ = ["PALETTE", "WHITE", "MAX_CELLS_PER_SIDE", "Picture", "picture", "picture_values"]

#: 16 light colors (CIELAB L* >= 68: black text on every one has a WCAG contrast ratio above 8), chosen so that no
#: two look alike: every pair differs by a CIEDE2000 distance of at least 16, the first 8 (swizzle phases, values
#: mod 8) by at least 23, and every color from white (a cell nobody holds) by at least 18. Colors repeat every 16.
PALETTE: tuple[str, ...] = (
    "#f09669", "#2dffa5", "#5ab4ff", "#e187ff", "#ffe14b", "#ffc3d2", "#a5b487", "#a5f0f0",
    "#c3d2ff", "#f0a51e", "#00c3a5", "#c3f078", "#ff78b4", "#ffd2a5", "#a5b400", "#4bb4c3",
)

#: The largest picture, in cells per side (rows and columns each).
MAX_CELLS_PER_SIDE = 256

_MAX_ELEMENTS = 1 << 20
_CELL_MODES = ("element", "chunk16")
_LABELS = ("value", "coord", "address", "bank_group")
_COLORS = ("auto", "phase", "value", "bank_group")
_UNITS = ("bytes", "elements")
WHITE = "#ffffff"


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

    def _repr_svg_(self) -> str | None:
        """IPython's display protocol: the picture (see :mod:`pycute_layouts.core.display`), or None for text."""
        return rich_repr(self, "svg")

    def __post_init__(self) -> None:
        check_fields(self)

    def fill(self, r: int, c: int) -> str:
        """The fill color (``#rrggbb``) of cell (r, c).

        >>> from pycute_layouts import Layout
        >>> picture(Layout(2), color=None).fill(0, 1)
        '#ffffff'
        """
        r = check_count("Picture.fill", "r", r, 0, self.nrows - 1, CoordinateError)
        c = check_count("Picture.fill", "c", c, 0, self.ncols - 1, CoordinateError)
        k = self.colors[r][c]
        return WHITE if k < 0 else PALETTE[k % len(PALETTE)]


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
        raise LayoutValueError(f"{who}: {name} must be one of {opts}; got {fmt(value)}")
    return value


def _check_element_bits(who: str, element_bits: Any) -> int | None:
    if element_bits is None:
        return None
    if isinstance(element_bits, (bool, np.bool_)) or not isinstance(element_bits, (int, np.integer)) \
            or not 0 < element_bits <= MAX_ELEMENT_BITS:
        raise UnitError(f"{who}: element_bits must be a positive integer (bits per element), got "
                        f"{fmt(element_bits)} (at most MAX_ELEMENT_BITS = {MAX_ELEMENT_BITS})")
    return int(element_bits)


def _grid_shape(layout: Any, who: str) -> tuple[int, int]:
    if isinstance(layout, Layout):
        require_offsets(layout, who)
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
    s = layout.shape if layout.rank() == 1 else layout.shape[i]
    return f"mode {i}: {format_inttuple(s)}" if isinstance(s, tuple) else f"mode {i}"


def _on_grid(flat: np.ndarray, rows: int, cols: int) -> np.ndarray:
    # flat: values in the layout's index order (colexicographic): index = r + rows * c
    return np.asarray(flat, dtype=np.int64).reshape(cols, rows).T


def _xor_phase(f: Any, x: np.ndarray) -> np.ndarray:
    return np.asarray(f(x), dtype=np.int64) ^ x


def _smem_grid(obj: SwizzledSmemLayout, rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
    """Bit address of each element of a shared-memory layout and the XOR its swizzle applied, on the grid."""
    eb, L = obj.element_bits, obj.layout
    addr_bits = _on_grid(obj.bit_address(np.arange(rows * cols, dtype=np.int64)), rows, cols)
    off = _on_grid(L.to_numpy(), rows, cols)
    if obj.swizzle_unit == "bytes":
        pre = (obj.base_address * 8 + off * eb) // 8
    else:
        pre = obj.base_address // (eb // 8) + off
    return addr_bits, _xor_phase(obj.swizzle, pre)


def _source(obj: Any, element_bits: int | None, swizzle_unit: str, who: str) -> _Source:
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
        if eb is None and swizzle_unit == "bytes":
            raise UnitError(f"{who}: swizzle_unit='bytes' reads the swizzle of {obj} on byte addresses, which needs the "
                            "element width: pass element_bits (--element-bits on the command line)")
        if eb is None:  # no element width: the swizzle acts on the layout's own units (CuTe's meaning)
            vals = np.asarray(outer(x), dtype=np.int64)
            return _Source(vals, None, vals ^ x, eb, "offset", str(obj), "elements", *caps)
        # with an element width: CuTe's unit rule, through the one helper every other path uses
        smem = smem_layout_of(obj, eb, swizzle_unit=swizzle_unit or "elements", who=who)
        addr_bits, phase = _smem_grid(smem, rows, cols)
        if np.any(addr_bits % eb):
            raise UnitError(f"{who}: {smem.swizzle} on byte addresses splits {eb}-bit elements (it moves units smaller "
                            "than an element); draw it with smaller element_bits or swizzle_unit='elements'")
        units = ("swizzle on byte addresses (swizzle_unit='bytes')" if swizzle_unit == "bytes"
                 else "swizzle on element offsets")
        # the values are CuTe's outer(k + inner(c)): absolute element offsets, the offset k included
        return _Source(addr_bits // eb, addr_bits, phase, eb, "offset", str(obj), units, *caps)
    if isinstance(obj, SwizzledSmemLayout):
        if eb is not None and eb != obj.element_bits:
            raise UnitError(f"{who}: the SwizzledSmemLayout holds {obj.element_bits}-bit elements but "
                            f"element_bits={eb} was passed")
        eb = obj.element_bits
        L = obj.layout
        rows, cols = _grid_shape(L, who)
        addr_bits, phase = _smem_grid(obj, rows, cols)
        rel = addr_bits - obj.base_address * 8
        vals = rel // eb if not np.any(rel % eb) else None  # the element offset where it lands: obj(c)
        return _Source(vals, addr_bits, phase, eb, "offset", str(obj),
                       "swizzle on byte addresses" if obj.swizzle_unit == "bytes" else "swizzle on element offsets",
                       *_captions(L))
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


@dataclass
class _Cells:
    """The grid after choosing the cell unit: per-cell values, bit addresses, XOR phases and steps."""

    values: np.ndarray | None
    addr_bits: np.ndarray | None
    phase: np.ndarray
    row_step: int
    col_step: int
    chunk_cells: tuple[int, int]
    value_name: str
    who: str
    element_bits: int | None

    @property
    def shape(self) -> tuple[int, int]:
        return self.phase.shape

    def need_addr(self, what: str) -> np.ndarray:
        """The cells' bit addresses; UnitError when the element width is unknown."""
        if self.addr_bits is None:
            raise UnitError(f"{self.who}: {what} needs byte addresses: pass element_bits (the width of one element in "
                            "bits; --element-bits on the command line)")
        return self.addr_bits

    def value_grid(self) -> np.ndarray:
        """The cells' values; UnitError when elements do not start on bytes."""
        if self.values is None:
            raise UnitError(f"{self.who}: {self.element_bits}-bit elements do not start on bytes; label or color by "
                            "'value' in cell='chunk16' mode, or by 'coord'")
        return self.values

    def byte_grid(self, what: str) -> np.ndarray:
        """The cells' byte addresses; UnitError when an element does not start on a byte."""
        ab = self.need_addr(what)
        if np.any(ab % 8):
            eb = self.element_bits
            fix = ("use cell='chunk16' (one cell per 16-byte chunk)" if eb is not None and 128 % eb == 0 else
                   f"use label='value', 'coord' or 'bank_group' (a 16-byte chunk is not a whole number of {eb}-bit elements "
                   "either, so cell='chunk16' cannot help)")
            raise UnitError(f"{self.who}: {what}: {eb}-bit elements do not all start on a byte; {fix}")
        return ab // 8


def _cells(src: _Source, cell: str, who: str) -> _Cells:
    """One cell per element, or per 16-byte chunk (``cell="chunk16"``); at most MAX_CELLS_PER_SIDE a side."""
    eb = src.element_bits
    cs = _Cells(src.values, src.addr_bits, src.phase, 1, 1, (1, 1),
                "16-byte chunk" if cell == "chunk16" else src.value_name, who, eb)
    if cell == "element" and cs.addr_bits is not None and 128 % eb == 0 and eb < 128:
        try:
            axis = _chunk_axis(cs.addr_bits, eb, who)
            cs.chunk_cells = (1, 128 // eb) if axis == 1 else (128 // eb, 1)
        except LayoutError:
            pass
    if cell == "chunk16":
        ab = cs.need_addr("cell='chunk16'")
        axis = _chunk_axis(ab, eb, who)
        epc = 128 // eb
        sl = (slice(None), slice(None, None, epc)) if axis == 1 else (slice(None, None, epc), slice(None))
        cs.addr_bits, cs.phase = ab[sl], cs.phase[sl]
        cs.values = cs.addr_bits // 128
        cs.row_step, cs.col_step = (1, epc) if axis == 1 else (epc, 1)
    nrows, ncols = cs.shape
    if nrows > MAX_CELLS_PER_SIDE or ncols > MAX_CELLS_PER_SIDE:
        hint = " (try cell='chunk16')" if cell == "element" else ""
        raise LayoutValueError(f"{who}: the picture would be {nrows}x{ncols} cells; at most {MAX_CELLS_PER_SIDE}x"
                               f"{MAX_CELLS_PER_SIDE} can be drawn{hint}; draw a tile of the layout instead")
    return cs


def _labels_of(cs: _Cells, label: str | None, is_1d: bool) -> tuple | None:
    """The text of every cell for ``label`` (None: no labels)."""
    if label is None:
        return None
    nrows, ncols = cs.shape
    if label == "value":
        grid = cs.value_grid()
    elif label == "address":
        grid = cs.byte_grid("label='address'")
    elif label == "bank_group":
        grid = (cs.need_addr("label='bank_group'") // 8 % 128) // 16
    else:
        rr = np.arange(nrows)[:, None] * cs.row_step
        cc = np.arange(ncols)[None, :] * cs.col_step
        return tuple(tuple(f"{r},{c}" if not is_1d else f"{c}" for c in cc[0]) for r in rr[:, 0])
    return tuple(tuple(str(v) for v in row) for row in grid.tolist())


def _colors_of(cs: _Cells, color: str | None) -> tuple[str | None, np.ndarray, list]:
    """(the color kind after resolving "auto", the palette index of every cell, the legend)."""
    if color == "auto":
        color = "phase" if np.unique(cs.phase).size > 1 else ("value" if cs.values is not None else None)
    legend: list[tuple[int, str]] = []
    if color is None:
        cidx = np.full(cs.shape, -1, dtype=np.int64)
    elif color == "phase":
        distinct, cidx = _rank_keys(cs.phase)
        legend = [(k, f"phase {k}: XOR {int(v):#x}") for k, v in enumerate(distinct.tolist())]
    elif color == "bank_group":
        cidx = (cs.need_addr("color='bank_group'") // 8 % 128) // 16
        legend = [(g, f"bank group {g} (banks {4 * g}-{4 * g + 3})") for g in range(8) if np.any(cidx == g)]
    else:
        cidx = cs.value_grid() % 8
        legend = [(k, f"{cs.value_name} mod 8 = {k}") for k in range(8) if np.any(cidx == k)]
    if len(legend) > len(PALETTE):
        legend = legend[: len(PALETTE)] + [(-1, f"... colors repeat every {len(PALETTE)}")]
    return color, cidx, legend


def _tooltips_of(cs: _Cells, cell: str, is_1d: bool) -> tuple:
    """The full description of every cell: coordinate, value, byte address and bank group, XOR phase."""
    nrows, ncols = cs.shape
    vt = cs.values.tolist() if cs.values is not None else None
    at = (cs.addr_bits // 8).tolist() if cs.addr_bits is not None and not np.any(cs.addr_bits % 8) else None
    pt = cs.phase.tolist()
    tips = []
    for r in range(nrows):
        row = []
        for c in range(ncols):
            t = f"({c * cs.col_step})" if is_1d else f"({r * cs.row_step},{c * cs.col_step})"
            if vt is not None:
                t += f" {cs.value_name} {vt[r][c]}"
            if at is not None and (cs.value_name != "byte address" or cell == "chunk16"):
                t += f", byte {at[r][c]}, bank group {(at[r][c] % 128) // 16}"
            if pt[r][c]:
                t += f", XOR {pt[r][c]:#x}"
            row.append(t)
        tips.append(tuple(row))
    return tuple(tips)


def _subtitle(src: _Source, cs: _Cells, cell: str, label: str | None, color: str | None) -> str:
    """The subtitle: element width and units, cell size, what the labels and colors show."""
    eb = src.element_bits
    sub = [("values: " + _units_words(src)) if src.value_name != "byte offset" else src.units]
    if cell == "chunk16":
        sub.append(f"one cell = 16 bytes ({128 // eb} element{'s' if eb < 128 else ''})")
    if label is not None:
        sub.append("labels: " + ({"value": cs.value_name, "bank_group": "bank group (16-byte column of the 128-byte line)",
                                  "address": "byte address", "coord": "coordinate"}[label]))
    if color is not None:
        sub.append("colors: " + {"phase": "swizzle phase", "bank_group": "bank group",
                                 "value": f"{cs.value_name} mod 8"}[color])
    return "; ".join(s for s in sub if s)


def _units_words(src: _Source) -> str:
    """What the value labels are, in words: ``element offsets (16-bit elements, swizzle on byte addresses)``."""
    if src.value_name == "byte offset":
        return src.units
    details = [f"{src.element_bits}-bit elements"] if src.element_bits is not None else []
    if src.units.startswith("swizzle"):
        details.append(src.units)
    return "element offsets" + (f" ({', '.join(details)})" if details else "")


def picture_values(obj: Any, *, element_bits: int | None = None, swizzle_unit: str | None = None,
                   who: str = "picture_values") -> tuple[np.ndarray, str]:
    """The grid of values a picture labels with ``label="value"``, and the words for their units.

    Pre:  as :func:`picture` (``obj`` a concrete rank-1/2 layout or a 2-D array of byte offsets).
    Post: (rows x columns int array, units text); the picture of ``obj`` with the same options
          shows exactly these numbers. UnitError when the values are not whole elements.

    A ComposedLayout's swizzle acts on its own units (CuTe's meaning) unless ``swizzle_unit="bytes"``;
    a SwizzledSmemLayout (``Sw o smem_ptr[Nb](unset) o L``) gives the element offset where each
    element lands, its swizzle acting on byte addresses.

    >>> from pycute_layouts import parse
    >>> v, units = picture_values(parse("Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)"))
    >>> v[1, :17:8].tolist(), units
    ([72, 64, 88], 'element offsets (16-bit elements, swizzle on byte addresses)')
    >>> v, units = picture_values(parse("Sw<3,4,3> o 0 o (8,64):(64,1)"), element_bits=16)
    >>> v[1, :17:8].tolist(), units
    ([64, 72, 80], 'element offsets (16-bit elements, swizzle on element offsets)')
    """
    check_type("picture_values", "who", who, str)
    swizzle_unit = _check_choice(who, "swizzle_unit", swizzle_unit, _UNITS, True)
    src = _source(obj, _check_element_bits(who, element_bits), swizzle_unit, who)
    if src.values is None:
        raise UnitError(f"{who}: the swizzle moves elements of {src.text} off {src.element_bits}-bit element "
                        "boundaries; draw byte addresses (label='address') instead")
    return np.asarray(src.values, dtype=np.int64), _units_words(src)


def picture(obj: Any, *, cell: str = "element", label: str | None = "value", color: str | None = "auto",
            element_bits: int | None = None, swizzle_unit: str | None = None, title: str | None = None,
            who: str = "picture") -> Picture:
    """The :class:`Picture` of a layout: the cells, labels, colors and legend every backend draws.

    Pre:  ``obj`` a concrete rank-1/2 layout or a 2-D array of byte offsets; options among the allowed values.
    Post: the Picture; LayoutValueError, LayoutTypeError or UnitError naming the option otherwise.

    ``obj`` is a rank-1/rank-2 Layout, a ComposedLayout (``Sw<..> o off o L``), a
    SwizzledSmemLayout, or a 2-D integer array of byte offsets (``arch.tma.box_to_smem``). See the
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
    if isinstance(obj, Picture):  # an already-built picture (e.g. thread-value pictures) draws as is
        return obj
    cell = _check_choice(who, "cell", cell, _CELL_MODES, False)
    label = _check_choice(who, "label", label, _LABELS, True)
    color = _check_choice(who, "color", color, _COLORS, True)
    swizzle_unit = _check_choice(who, "swizzle_unit", swizzle_unit, _UNITS, True)
    eb = _check_element_bits(who, element_bits)
    if title is not None and not isinstance(title, str):
        raise LayoutTypeError(f"{who}: title must be a string, got {fmt(title)}")
    src = _source(obj, eb, swizzle_unit, who)
    cs = _cells(src, cell, who)
    labels = _labels_of(cs, label, src.is_1d)
    color, cidx, legend = _colors_of(cs, color)
    unit_word = "bytes" if isinstance(obj, np.ndarray) and src.element_bits == 8 else "elements"
    step_note = lambda s: f" ({s} {unit_word} per cell)" if s > 1 else ""  # noqa: E731
    nrows, ncols = cs.shape
    return Picture(
        title=title if title is not None else src.text,
        subtitle=_subtitle(src, cs, cell, label, color),
        nrows=nrows, ncols=ncols, row_step=cs.row_step, col_step=cs.col_step,
        row_caption=(src.row_name + step_note(cs.row_step)) if src.row_name else "",
        col_caption=src.col_name + step_note(cs.col_step),
        labels=labels,
        colors=tuple(tuple(row) for row in cidx.tolist()),
        legend=tuple(legend),
        tooltips=_tooltips_of(cs, cell, src.is_1d),
        label_kind=label, color_kind=color, chunk_cells=cs.chunk_cells,
    )
