"""Thread-value pictures in the style of CuTe's ``print_latex_tv``: which thread and value hold each element.

A thread-value layout maps (thread, value) to the column-major index of a tile (CuTe's convention,
:mod:`pycute_layouts.arch.atoms`). :func:`tv_picture` inverts it: every cell (row, column) of the
tile is labelled ``T<thread>V<value>`` and filled with the thread's color (thread mod 16, the
16-color palette of :mod:`pycute_layouts.render`), with the full list of holders in its tooltip (an
SS wgmma operand is read by all 128 threads: the label names the first holder). The result is a
:class:`~pycute_layouts.render.Picture`, so :func:`~pycute_layouts.render.to_svg`,
:func:`~pycute_layouts.render.to_tikz` and :func:`~pycute_layouts.render.to_png` draw it;
:func:`tv_svg` sizes the SVG so that every label of a 64x256 accumulator stays readable (about 28 px
per cell: zoom in).

Copy atoms (layouts in bits) are drawn over their reference tile in elements of ``element_bits``:
ldmatrix/stmatrix as ``8 * matrices`` rows of 128 bits, tcgen05.ld/st as data-path lanes x
columns, row-major (the reference's bit order).

>>> from pycute_layouts.arch import atoms
>>> p = atom_picture("SM80_16x8x8_F16F16F16F16_TN", "C")
>>> p.nrows, p.ncols, p.labels[0][:3], p.labels[8][0]
(16, 8, ('T0V0', 'T0V1', 'T1V0'), 'T0V2')
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape as _esc

import numpy as np

from ..arch import atoms
from ..core.inttuple import flatten
from ..core.layout import Layout
from ..errors import LayoutTypeError, LayoutValueError, UnitError
from ..limits import MAX_TABLE_CELLS, check_budget, fmt
from .geometry import CHAR_W, fmt_num
from .picture import PALETTE, Picture
from .svg import picture_svg

__all__ = ["tv_picture", "atom_picture", "tv_svg", "atom_layout_for_picture", "MmaPicture", "mma_picture", "mma_text",
           "mma_svg"]


def tv_picture(tv: Layout, tile_shape: tuple[int, int], *, title: str | None = None, row_name: str = "m",
               col_name: str = "n", row_major: bool = False) -> Picture:
    """The :class:`Picture` of a (thread, value) -> tile-index layout over a ``rows x cols`` tile.

    Pre: tv a rank-2 integer Layout whose values lie in [0, rows * cols); ``row_major`` says how a tile
    index names a cell (default column-major, CuTe's MMA convention). Post: labels ``T#V#`` (first
    holder; ``""`` for a cell nobody holds), colors thread mod 16, tooltips with every holder.

    >>> p = tv_picture(Layout((2, 2), (1, 2)), (2, 2))
    >>> p.labels
    (('T0V0', 'T0V1'), ('T1V0', 'T1V1'))
    """
    ok = isinstance(tile_shape, (tuple, list)) and len(tile_shape) == 2 and all(
        isinstance(x, int) and not isinstance(x, bool) and x > 0 for x in tile_shape)
    if not ok:
        raise LayoutTypeError(f"tv_picture: tile_shape must be (rows, columns) of positive ints, got {fmt(tile_shape)}")
    rows, cols = tile_shape
    check_budget("tv_picture", f"the tile {fmt(rows)}x{fmt(cols)}", rows * cols, MAX_TABLE_CELLS)
    tab = atoms.tv_table(tv)
    if tab.size and (tab.min() < 0 or tab.max() >= rows * cols):
        raise LayoutValueError(f"tv_picture: the layout's values span [{tab.min()}, {tab.max()}], outside the "
                               f"{rows}x{cols} tile")
    holders: dict[int, list[tuple[int, int]]] = {}
    for t, v in zip(*np.nonzero(tab >= 0), strict=True):
        holders.setdefault(int(tab[t, v]), []).append((int(t), int(v)))
    labels, colors, tips = [], [], []
    for r in range(rows):
        lrow, crow, trow = [], [], []
        for c in range(cols):
            idx = r * cols + c if row_major else r + rows * c
            hs = sorted(holders.get(idx, []))
            lrow.append(f"T{hs[0][0]}V{hs[0][1]}" if hs else "")
            crow.append(hs[0][0] % len(PALETTE) if hs else -1)
            more = f" (+{len(hs) - 1} more threads)" if len(hs) > 1 else ""
            held = f"T{hs[0][0]} V{hs[0][1]}{more}" if hs else "nobody"
            trow.append(f"({r},{c}): {held}")
        labels.append(tuple(lrow))
        colors.append(tuple(crow))
        tips.append(tuple(trow))
    nthr = tab.shape[0]
    legend = tuple((k, f"threads {k}, {k + 16}, ..." if nthr > 16 else f"thread {k}")
                   for k in range(min(nthr, len(PALETTE))))
    return Picture(title=title if title is not None else str(tv),
                   subtitle=f"{nthr} threads x {tab.shape[1]} values; label T<thread>V<value>; color: thread mod 16",
                   nrows=rows, ncols=cols, row_step=1, col_step=1, row_caption=row_name, col_caption=col_name,
                   labels=tuple(labels), colors=tuple(colors), legend=legend, tooltips=tuple(tips),
                   label_kind="coord", color_kind="value")


def atom_layout_for_picture(obj: Any, operand: str = "C", tile_shape: Any = None, *,
                            element_bits: int | None = None) -> tuple[Layout, tuple[int, int], bool, str, str, str]:
    """(tv layout, tile shape, row_major, title, row name, column name) that :func:`atom_picture` draws.

    Pre: obj an MmaAtom, TiledMma, CopyAtom or atom name; operand A/B/C for MMAs, ``"src"``/``"dst"``
    (default: the register side) for copies. Post: copy layouts are converted from bits to elements.

    >>> lay, shape, rm, title, _, _ = atom_layout_for_picture("SM75_U32x1_LDSM_N", "dst")
    >>> shape, rm, str(lay)
    ((8, 8), True, '(32,2):(2,1)')
    """
    if isinstance(obj, str):
        obj = atoms.atom(obj)
    if isinstance(obj, atoms.CopyAtom):
        return _copy_layout(obj, operand, element_bits)
    if element_bits is not None:
        raise UnitError("atom_layout_for_picture: element_bits applies to copy atoms (layouts in bits) only")
    if isinstance(obj, atoms.MmaAtom) and tile_shape is None:
        op = "C" if str(operand).upper() == "D" else str(operand).upper()
        lay = obj.layout(op)
        rn, cn = {"A": ("m", "k"), "B": ("n", "k"), "C": ("m", "n")}[op]
        return lay, obj.tile_shape(op), False, f"{obj.name} {op}: {lay}", rn, cn
    if isinstance(obj, atoms.MmaAtom):
        obj = atoms.make_tiled_mma(obj)
    if not isinstance(obj, atoms.TiledMma):
        raise LayoutTypeError(f"atom_picture: expected an MMA/copy atom, a TiledMma or an atom name, got {fmt(obj)}")
    op = "C" if str(operand).upper() == "D" else str(operand).upper()
    d = {"A": (0, 2), "B": (1, 2), "C": (0, 1)}.get(op)
    if d is None:
        raise LayoutValueError(f"atom_picture: operand must be 'A', 'B' or 'C', got {fmt(operand)}")
    shape = tile_shape if tile_shape is not None else (obj.tile_size_mnk[d[0]], obj.tile_size_mnk[d[1]])
    if not isinstance(shape, (tuple, list)):
        raise LayoutTypeError(f"atom_picture: tile_shape must be a tuple of two extents, got {fmt(shape)}")
    lay = obj.partition(op, tuple(shape))
    rn, cn = {"A": ("m", "k"), "B": ("n", "k"), "C": ("m", "n")}[op]
    return lay, tuple(shape), False, f"TiledMMA of {obj.atom.name} x {obj.atom_layout}, {op}", rn, cn


def _copy_layout(a: atoms.CopyAtom, side: Any, element_bits: int | None) -> tuple[Layout, tuple[int, int], bool, str,
                                                                                   str, str]:
    if side in ("C", None):
        side = "dst" if a.kind in ("ldsm", "tmem_load") else "src"
    if not isinstance(side, str) or side not in ("src", "dst"):
        raise LayoutValueError(f"atom_picture: a copy atom's side is 'src' or 'dst', got {fmt(side)}")
    eb = element_bits if element_bits is not None else (16 if a.smem_side else 32)
    if isinstance(eb, bool) or eb not in (8, 16, 32, 64):
        raise UnitError(f"atom_picture: element_bits must be 8, 16, 32 or 64, got {fmt(element_bits)}")
    lay = _bits_to_elements(a.src_layout if side == "src" else a.dst_layout, eb, a.name, side)
    row_bits = 128 if a.smem_side else int(a.ref_layout[1].size()) // (32 if a.tmem_shape == "32dp32b" else 16)
    total_bits = 8 * 128 * a.num_matrices if a.smem_side else int(a.ref_layout[1].size())
    shape = (total_bits // row_bits, row_bits // eb)
    rn = "row (16-byte)" if a.smem_side else "TMEM lane"
    return lay, shape, True, f"{a.name} {side} ({eb}-bit elements)", rn, f"{eb}-bit column"


def _scale(t: Any, eb: int) -> Any:
    return tuple(_scale(x, eb) for x in t) if isinstance(t, tuple) else t // eb


def _bits_to_elements(bits: Layout, eb: int, name: str, side: str) -> Layout:
    """(thread, bit) -> bit as (thread, element) -> element: the value mode's first leaf (stride 1) shrinks by eb,
    every other stride is divided by eb (CuTe's recast of a thread-value layout)."""
    vs, vd = bits[1].shape, bits[1].stride
    vs, vd = (vs, vd) if isinstance(vs, tuple) else ((vs,), (vd,))
    ok = isinstance(vs[0], int) and vd[0] == 1 and vs[0] % eb == 0 and all(isinstance(d, int) and d % eb == 0 for d in vd[1:])
    ts, td = bits[0].shape, bits[0].stride
    ok = ok and all(isinstance(d, int) and d % eb == 0 for d in flatten(td))
    if not ok:
        raise UnitError(f"atom_picture: {name} {side} does not move whole {eb}-bit elements")
    vals = ((vs[0] // eb,) + tuple(vs[1:]), (1,) + tuple(d // eb for d in vd[1:]))
    if len(vs) == 1:
        vals = (vals[0][0], vals[1][0])
    return Layout((ts, vals[0]), (_scale(td, eb), vals[1]))


def atom_picture(obj: Any, operand: str = "C", tile_shape: Any = None, *, element_bits: int | None = None,
                 title: str | None = None) -> Picture:
    """The thread-value :class:`Picture` of an atom's operand, a tiled MMA's partition, or a copy atom's side.

    Pre: as :func:`atom_layout_for_picture`. Post: a Picture for any backend of :mod:`pycute_layouts.render`.

    >>> atom_picture("SM90_64x256x16_F32BF16BF16_SS").labels[8][2]
    'T1V2'
    """
    lay, shape, row_major, t, rn, cn = atom_layout_for_picture(obj, operand, tile_shape, element_bits=element_bits)
    return tv_picture(lay, shape, title=title if title is not None else t, row_name=rn, col_name=cn,
                      row_major=row_major)


def tv_svg(obj: Any, operand: str = "C", tile_shape: Any = None, *, element_bits: int | None = None,
           title: str | None = None) -> str:
    """The SVG of :func:`atom_picture`, large enough that every ``T#V#`` label is drawn (about 28 px a cell).

    Pre: as :func:`atom_picture`. Post: SVG text (a 64x256 accumulator: 16384 labelled cells).

    >>> svg = tv_svg("SM90_64x256x16_F32BF16BF16_SS")
    >>> svg.count('class="cell"'), svg.count('class="label"')
    (16384, 16384)
    """
    pic = obj if isinstance(obj, Picture) else atom_picture(obj, operand, tile_shape, element_bits=element_bits,
                                                            title=title)
    side = int(min(20000, max(1600, 30 * max(pic.ncols, pic.nrows))))
    return picture_svg(pic, max_side_px=side)


# --------------------------------------------------------------------------------------------------
# An MMA's A, B and C together (CuTe's print_latex(mma)): B as K x N above C, A (M x K) to its left


_MMA_MAX_CELLS = 1 << 16  # cells of A + B + C drawn at most (a 64x256x16 wgmma: 21504)


@dataclass(frozen=True, eq=False)
class MmaPicture:
    """The thread-value pictures of an MMA's A (M x K), B (drawn K x N) and C (M x N), laid out as CuTe's
    ``print_latex(mma)``: B above C, A to the left of C, so row m of A and column n of B meet at C(m, n).

    ``a``, ``b``, ``c`` are :class:`Picture` objects (``b`` has K rows and N columns); ``notes`` say
    which operands every thread reads from shared memory (their labels name the first holder).
    ``str()`` is the text picture, ``_repr_svg_()`` the SVG (Jupyter shows it).

    >>> p = mma_picture("SM80_16x8x8_F16F16F16F16_TN")
    >>> (p.a.nrows, p.a.ncols), (p.b.nrows, p.b.ncols), (p.c.nrows, p.c.ncols)
    ((16, 8), (8, 8), (16, 8))
    >>> p.b.labels[0][:2], p.c.labels[0][:2]         # B(k=0, n=1): lane 4 (n = lane / 4); C(0, 1): T0's V1
    (('T0V0', 'T4V0'), ('T0V0', 'T0V1'))
    """

    title: str
    a: Picture
    b: Picture
    c: Picture
    notes: tuple[str, ...]

    def __str__(self) -> str:
        return mma_text(self)

    def _repr_svg_(self) -> str:
        return mma_svg(self)


def _broadcast(tv: Layout) -> bool:
    """Every cell held by every thread (an operand the whole warpgroup reads from shared memory)."""
    tab = atoms.tv_table(tv)
    return tab.shape[0] > 1 and bool(np.all(tab == tab[0:1, :]))


def mma_picture(obj: Any, tile_shape: Any = None) -> MmaPicture:
    """The :class:`MmaPicture` of an MMA atom or a tiled MMA: A, B and C with every cell's thread and value.

    Pre: ``obj`` an MmaAtom, a TiledMma or an MMA atom's name; ``tile_shape`` None or an (M, N, K) multiple of
    the tile. Post: A is M x K, B is drawn K x N (row k, column n), C is M x N; at most 65536 cells in all,
    LayoutValueError beyond.

    >>> mma_picture("SM90_64x8x16_F16F16F16_SS").notes[0]
    'A: read from shared memory by all 128 threads (labels name thread 0; drawn white)'
    """
    if isinstance(obj, str):
        obj = atoms.mma_atom(obj)
    if isinstance(obj, atoms.MmaAtom) and tile_shape is None:
        m, n, k = obj.shape_mnk
        lays = {op: obj.layout(op) for op in "ABC"}
        name = obj.name
    else:
        if isinstance(obj, atoms.MmaAtom):
            obj = atoms.make_tiled_mma(obj)
        if not isinstance(obj, atoms.TiledMma):
            raise LayoutTypeError(f"mma_picture: expected an MmaAtom, a TiledMma or an MMA atom name, got {fmt(obj)}"[:200])
        ok = tile_shape is None or (isinstance(tile_shape, (tuple, list)) and len(tile_shape) == 3)
        if not ok:
            raise LayoutTypeError(f"mma_picture: tile_shape must be (M, N, K), got {fmt(tile_shape)}"[:200])
        m, n, k = tuple(tile_shape) if tile_shape is not None else obj.tile_size_mnk
        lays = {"A": obj.partition("A", (m, k)), "B": obj.partition("B", (n, k)), "C": obj.partition("C", (m, n))}
        name = f"TiledMMA of {obj.atom.name} x {obj.atom_layout}"
    if m * k + k * n + m * n > _MMA_MAX_CELLS:
        raise LayoutValueError(f"mma_picture: A, B and C of {m}x{n}x{k} are {m * k + k * n + m * n} cells; at most "
                               f"{_MMA_MAX_CELLS} are drawn (draw one operand with atom_picture)")
    a = tv_picture(lays["A"], (m, k), title="A", row_name="m", col_name="k")
    c = tv_picture(lays["C"], (m, n), title="C", row_name="m", col_name="n")
    # B's tile index is n + N * k; drawn K x N, cell (k, n) is row-major index k * N + n: the same number
    b = tv_picture(lays["B"], (k, n), title="B", row_name="k", col_name="n", row_major=True)
    nthr = atoms.tv_table(lays["C"]).shape[0]
    shared = [op for op in "AB" if _broadcast(lays[op])]
    notes = tuple(f"{op}: read from shared memory by all {nthr} threads (labels name thread 0; drawn white)"
                  for op in shared)
    white = {op: dataclasses.replace(pic, colors=tuple((-1,) * pic.ncols for _ in range(pic.nrows)))
             for op, pic in (("A", a), ("B", b)) if op in shared}
    a, b = white.get("A", a), white.get("B", b)
    return MmaPicture(f"{name}: A {m}x{k}, B {k}x{n} (K x N), C {m}x{n}", a, b, c, notes)


def mma_text(p: Any, tile_shape: Any = None) -> str:
    """The text picture of :func:`mma_picture`: B (K x N) above C (M x N), A (M x K) left of C, cells ``T#V#``.

    Pre: ``p`` an :class:`MmaPicture` or what :func:`mma_picture` takes. Post: the lines, with row and column
    numbers (m, k down the left; k, n across the top).

    >>> print(mma_text("SM80_16x8x4_F32TF32TF32F32_TN").splitlines()[2])      # B(k=0, n): lanes 4n
      k  0                         |  T0V0  T4V0  T8V0 T12V0 T16V0 T20V0 T24V0 T28V0
    """
    if not isinstance(p, MmaPicture):
        p = mma_picture(p, tile_shape)
    a, b, c = p.a, p.b, p.c
    m, k, n = a.nrows, a.ncols, c.ncols
    w = max([len(x) for pic in (a, b, c) for row in pic.labels or () for x in row] + [len(str(max(n, k) - 1))])
    d = len(str(max(m, k) - 1))
    blank = " " * (d + 5)
    left_w = (w + 1) * k - 1

    def cells(row: tuple) -> str:
        return " ".join(x.rjust(w) if x else "-".rjust(w) for x in row)

    lines = [p.title, *p.notes, blank + " " * left_w + " | " + " ".join(str(j).rjust(w) for j in range(n)) + "   <- n"]
    for r in range(k):
        lines.append(f"  k {r:>{d}} " + " " * left_w + " | " + cells(b.labels[r]))
    lines.append(blank + " ".join(str(j).rjust(w) for j in range(k)) + " | " + "-" * ((w + 1) * n - 1) + "   <- k")
    for r in range(m):
        lines.append(f"  m {r:>{d}} " + cells(a.labels[r]) + " | " + cells(c.labels[r]))
    return "\n".join(line.rstrip() for line in lines)


def _svg_block(pic: Picture, x0: float, y0: float, cw: float, ch: float, font: float) -> list[str]:
    out = [f'<g class="operand" data-operand="{pic.title}" stroke="#444444" stroke-width="0.5">']
    for r in range(pic.nrows):
        for cc in range(pic.ncols):
            lab = pic.labels[r][cc] if pic.labels else ""
            out.append(f'<rect class="cell" x="{fmt_num(x0 + cc * cw)}" y="{fmt_num(y0 + r * ch)}" width="{fmt_num(cw)}" '
                       f'height="{fmt_num(ch)}" fill="{pic.fill(r, cc)}"><title>{_esc(pic.title)} '
                       f'{_esc(pic.tooltips[r][cc])}</title></rect>')
            if lab:
                tx, ty = fmt_num(x0 + (cc + 0.5) * cw), fmt_num(y0 + (r + 0.5) * ch + 0.35 * font)
                out.append(f'<text class="label" x="{tx}" y="{ty}" text-anchor="middle" stroke="none" '
                           f'font-size="{fmt_num(font)}">{lab}</text>')
    out.append("</g>")
    return out


def _svg_ticks(n: int, x0: float, y0: float, step: float, along_x: bool, font: float) -> list[str]:
    every = max(1, int(math.ceil(font * CHAR_W * (len(str(n)) + 1) / step))) if along_x else max(1, int(math.ceil(font / step)))
    out = []
    for i in range(0, n, every):
        if along_x:
            out.append(f'<text class="tick" x="{fmt_num(x0 + (i + 0.5) * step)}" y="{fmt_num(y0)}" text-anchor="middle" '
                       f'font-size="{fmt_num(font)}">{i}</text>')
        else:
            out.append(f'<text class="tick" x="{fmt_num(x0)}" y="{fmt_num(y0 + (i + 0.5) * step + 0.35 * font)}" '
                       f'text-anchor="end" font-size="{fmt_num(font)}">{i}</text>')
    return out


def mma_svg(p: Any, tile_shape: Any = None) -> str:
    """The SVG of :func:`mma_picture`: B (K x N) above C, A to the left of C, each cell ``T#V#`` in its thread's color.

    Pre: ``p`` an :class:`MmaPicture` or what :func:`mma_picture` takes. Post: SVG text with one
    ``class="cell"`` rect per cell of A, B and C (tooltips name every holder) and a thread legend.

    >>> svg = mma_svg("SM80_16x8x8_F16F16F16F16_TN")
    >>> svg.count('class="cell"'), svg.count('data-operand=')      # 16x8 A + 8x8 B + 16x8 C
    (320, 3)
    """
    if not isinstance(p, MmaPicture):
        p = mma_picture(p, tile_shape)
    a, b, c = p.a, p.b, p.c
    m, k, n = a.nrows, a.ncols, c.ncols
    w = max([len(x) for pic in (a, b, c) for row in pic.labels or () for x in row] + [4])
    font = 10.0
    cw, ch = w * font * CHAR_W + 6, font + 8
    pad, gap, tick_w = 8.0, 14.0, (len(str(max(m, k))) + 1) * 9 * CHAR_W + 14
    head = pad + 16 + (len(p.notes) + 1) * 13
    ax, bx = pad + tick_w, pad + tick_w + k * cw + gap
    by, cy = head + 26, head + 26 + k * ch + gap + 14
    legend_y = cy + m * ch + 18
    nthr = len(c.legend)
    legend_w = [12 + 6 + len(t) * font * CHAR_W + 14 for _k, t in c.legend]
    legend_row_w = max(sum(legend_w[i:i + 8]) for i in range(0, max(nthr, 1), 8))
    width = max(bx + n * cw + pad, pad + len(p.title) * 14 * CHAR_W + pad, pad + legend_row_w + pad)
    rows_of_legend = (nthr + 7) // 8
    height = legend_y + rows_of_legend * 18 + pad
    out = _mma_svg_head(p, width, height, pad)
    out.append('<g class="axes" fill="#333333">')
    out.append(f'<text class="caption" x="{fmt_num(bx)}" y="{fmt_num(by - 16)}" font-size="10">B (K x N): rows k, '
               "columns n</text>")
    out += _svg_ticks(n, bx, by - 4, cw, True, 9)
    out += _svg_ticks(k, bx - 4, by, ch, False, 9)
    out.append(f'<text class="caption" x="{fmt_num(ax)}" y="{fmt_num(cy - 16)}" font-size="10">A (M x K)</text>')
    out += _svg_ticks(k, ax, cy - 4, cw, True, 9)
    out.append(f'<text class="caption" x="{fmt_num(bx)}" y="{fmt_num(cy - 16)}" font-size="10">C (M x N): rows m, '
               "columns n</text>")
    out += _svg_ticks(m, ax - 4, cy, ch, False, 9)
    out.append("</g>")
    out += _svg_block(b, bx, by, cw, ch, font)
    out += _svg_block(a, ax, cy, cw, ch, font)
    out += _svg_block(c, bx, cy, cw, ch, font)
    out += _mma_svg_legend(c.legend, legend_w, pad, legend_y)
    out.append("</svg>")
    return "\n".join(out)


def _mma_svg_head(p: Any, width: float, height: float, pad: float) -> list[str]:
    # Pre:  p an MmaPicture; width x height the SVG's size.  Post: the <svg> element's opening, its title, white
    #       background, the title text and one subtitle line per note (then the label legend line).
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{math.ceil(width)}" height="{math.ceil(height)}" '
           f'viewBox="0 0 {math.ceil(width)} {math.ceil(height)}" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace">',
           f"<title>{_esc(p.title)}</title>",
           f'<rect class="background" x="0" y="0" width="{math.ceil(width)}" height="{math.ceil(height)}" fill="#ffffff"/>',
           f'<text class="title" x="{pad}" y="{pad + 14}" font-size="14" font-weight="bold">{_esc(p.title)}</text>']
    y = pad + 16
    for line in (*p.notes, "label T<thread>V<value>: the thread and its register (value index) holding the element; "
                 "color: thread mod 16"):
        y += 13
        out.append(f'<text class="subtitle" x="{pad}" y="{fmt_num(y)}" font-size="10" fill="#333333">{_esc(line)}</text>')
    return out


def _mma_svg_legend(legend: Any, legend_w: list[float], pad: float, legend_y: float) -> list[str]:
    # Pre:  legend_w the width of each legend entry.  Post: the thread legend, 8 swatches a row, from legend_y down.
    out = ['<g class="legend" font-size="10">']
    for i, (kk, t) in enumerate(legend):
        lx = pad + sum(legend_w[(i // 8) * 8:i])
        ly = legend_y + (i // 8) * 18
        out.append(f'<rect class="swatch" x="{fmt_num(lx)}" y="{fmt_num(ly - 10)}" width="12" height="12" '
                   f'fill="{PALETTE[kk % len(PALETTE)]}" stroke="#444444" stroke-width="0.5"/>')
        out.append(f'<text x="{fmt_num(lx + 18)}" y="{fmt_num(ly)}">{_esc(t)}</text>')
    out.append("</g>")
    return out
