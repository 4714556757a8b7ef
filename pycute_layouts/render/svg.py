"""SVG pictures of layouts, written directly (no dependency)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape as _xml_escape

from ..errors import LayoutTypeError, LayoutValueError
from ..limits import fmt
from .geometry import CHAR_W, Geom, caption_line, fmt_num, geometry, wrap_words
from .picture import PALETTE, WHITE, Picture, picture

__all__ = ["to_svg", "picture_svg"]


_PAD, _TITLE_FONT, _SUB_FONT, _CAPTION_FONT, _TICK_FONT, _SWATCH = 8.0, 14.0, 10.0, 10.0, 9.0, 12.0


@dataclass
class _Frame:
    """Where the parts of an SVG picture go: grid origin (left, top), subtitle lines, legend rows, canvas size."""

    g: Geom
    left: float
    top: float
    grid_w: float
    grid_h: float
    sub_lines: list
    legend_rows: list  # rows of (color index, text, width)
    width: int
    height: int


def _legend_rows(pic: Picture, grid_w: float) -> list:
    """The legend items (color index, text, width) broken into rows that fit the grid width."""
    items = [(k, t, _SWATCH + 6 + len(t) * _SUB_FONT * CHAR_W + 14) for k, t in pic.legend]
    avail = max(grid_w, 360.0)
    rows: list[list[tuple[int, str, float]]] = [[]]
    used = 0.0
    for it in items:
        if rows[-1] and used + it[2] > avail:
            rows.append([])
            used = 0.0
        rows[-1].append(it)
        used += it[2]
    return rows if items else []


def _frame(pic: Picture, max_side: float = 1600) -> _Frame:
    """The geometry of the whole SVG canvas (``max_side`` pixels a side at most for the grid)."""
    g = geometry(pic, max_w=max_side, max_h=max_side, want_h=20, base_font=11, min_font=5, tick_font=9, min_cell=6)
    pad, sfont = _PAD, _SUB_FONT
    grid_w, grid_h = pic.ncols * g.cell_w, pic.nrows * g.cell_h
    row_tick_chars = len(str((pic.nrows - 1) * pic.row_step)) if pic.row_caption else 0
    left = pad + (row_tick_chars * _TICK_FONT * CHAR_W + 6 if pic.row_caption else 0)
    wrap = max(left + grid_w - pad, 420.0)
    sub_lines = wrap_words(pic.subtitle, wrap / (sfont * CHAR_W))
    top = pad + _TITLE_FONT + 4 + len(sub_lines) * (sfont + 3) + _CAPTION_FONT + 4 + _TICK_FONT + 4
    legend_rows = _legend_rows(pic, grid_w)
    legend_h = (len(legend_rows) * (_SWATCH + 6) + 6) if legend_rows else 0
    text_w = max([len(pic.title) * _TITLE_FONT * CHAR_W, len(caption_line(pic)) * _CAPTION_FONT * CHAR_W]
                 + [len(t) * sfont * CHAR_W for t in sub_lines])
    width = math.ceil(max(left + grid_w, pad + text_w, left + (max((sum(i[2] for i in r) for r in legend_rows),
                                                                   default=0))) + pad)
    height = math.ceil(top + grid_h + legend_h + pad)
    return _Frame(g, left, top, grid_w, grid_h, sub_lines, legend_rows, width, height)


def _svg_head(pic: Picture, fr: _Frame) -> list[str]:
    """The svg element, title, background, title text, subtitle lines and the axes (caption, ticks)."""
    pad, tfont, sfont, cfont, tkf = _PAD, _TITLE_FONT, _SUB_FONT, _CAPTION_FONT, _TICK_FONT
    width, height, g, left, top = fr.width, fr.height, fr.g, fr.left, fr.top
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'font-family="DejaVu Sans Mono, Menlo, Consolas, monospace">',
        f"<title>{_xml_escape(pic.title)}</title>",
        f'<rect class="background" x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>',
        f'<text class="title" x="{fmt_num(pad)}" y="{fmt_num(pad + tfont)}" font-size="{fmt_num(tfont)}" '
        f'font-weight="bold">{_xml_escape(pic.title)}</text>',
    ]
    y = pad + tfont + 4
    for line in fr.sub_lines:
        out.append(f'<text class="subtitle" x="{fmt_num(pad)}" y="{fmt_num(y + sfont)}" font-size="{fmt_num(sfont)}" '
                   f'fill="#333333">{_xml_escape(line)}</text>')
        y += sfont + 3
    out.append(f'<g class="axes" font-size="{fmt_num(tkf)}" fill="#333333">')
    out.append(f'<text class="caption" x="{fmt_num(left)}" y="{fmt_num(y + cfont)}" font-size="{fmt_num(cfont)}">'
               f'{_xml_escape(caption_line(pic))}</text>')
    ty = top - 4
    for c in range(0, pic.ncols, g.col_tick_every):
        out.append(f'<text class="tick" x="{fmt_num(left + (c + 0.5) * g.cell_w)}" y="{fmt_num(ty)}" '
                   f'text-anchor="middle">{c * pic.col_step}</text>')
    if pic.row_caption:
        for r in range(0, pic.nrows, g.row_tick_every):
            out.append(f'<text class="tick" x="{fmt_num(left - 4)}" '
                       f'y="{fmt_num(top + (r + 0.5) * g.cell_h + 0.35 * tkf)}" text-anchor="end">{r * pic.row_step}</text>')
    out.append("</g>")
    return out


def _svg_cells(pic: Picture, fr: _Frame) -> list[str]:
    """One filled rect (with its tooltip) per cell, and the heavier lines around 16-byte chunks."""
    g, left, top = fr.g, fr.left, fr.top
    sw_w = fmt_num(max(0.25, min(0.75, g.cell_w / 30)))
    out = [f'<g class="cells" stroke="#444444" stroke-width="{sw_w}">']
    cw, ch = fmt_num(g.cell_w), fmt_num(g.cell_h)
    xs = [fmt_num(left + c * g.cell_w) for c in range(pic.ncols)]
    for r in range(pic.nrows):
        yr = fmt_num(top + r * g.cell_h)
        fills, tips = pic.colors[r], pic.tooltips[r]
        for c in range(pic.ncols):
            k = fills[c]
            fill = WHITE if k < 0 else PALETTE[k % len(PALETTE)]
            out.append(f'<rect class="cell" x="{xs[c]}" y="{yr}" width="{cw}" height="{ch}" fill="{fill}">'
                       f"<title>{_xml_escape(tips[c])}</title></rect>")
    out.append("</g>")
    rc, cc = pic.chunk_cells
    if rc > 1 or cc > 1:
        if cc > 1:
            d = [f"M{fmt_num(left + c * g.cell_w)} {fmt_num(top)}V{fmt_num(top + fr.grid_h)}"
                 for c in range(0, pic.ncols + 1, cc)]
        else:
            d = [f"M{fmt_num(left)} {fmt_num(top + r * g.cell_h)}H{fmt_num(left + fr.grid_w)}"
                 for r in range(0, pic.nrows + 1, rc)]
        out.append(f'<path class="chunk-lines" d="{" ".join(d)}" stroke="#000000" '
                   f'stroke-width="{fmt_num(2 * float(sw_w))}" fill="none"/>')
    return out


def _svg_labels(pic: Picture, fr: _Frame) -> list[str]:
    """The cell labels: centred, or (when only every k-th cell is labelled) left-aligned on a white box."""
    if pic.labels is None:
        return []
    g, left, top = fr.g, fr.left, fr.top
    f = g.font
    sparse = g.label_every > 1
    out = [f'<g class="labels" font-size="{fmt_num(f)}" text-anchor="{"start" if sparse else "middle"}" '
           'fill="#000000" pointer-events="none">']
    for r in range(0, pic.nrows, g.label_every):
        row = pic.labels[r]
        ly = fmt_num(top + (r + 0.5) * g.cell_h + 0.35 * f)
        for c in range(0, pic.ncols, g.label_every):
            s = _xml_escape(row[c])
            if sparse:
                x0 = left + c * g.cell_w
                out.append(f'<rect class="label-bg" x="{fmt_num(x0 + 0.5)}" '
                           f'y="{fmt_num(top + (r + 0.5) * g.cell_h - 0.6 * f)}" '
                           f'width="{fmt_num(len(row[c]) * f * CHAR_W + 2)}" height="{fmt_num(1.2 * f)}" fill="#ffffff" '
                           'fill-opacity="0.8" stroke="none"/>')
                out.append(f'<text class="label" x="{fmt_num(x0 + 1.5)}" y="{ly}">{s}</text>')
            else:
                out.append(f'<text class="label" x="{fmt_num(left + (c + 0.5) * g.cell_w)}" y="{ly}">{s}</text>')
    out.append("</g>")
    return out


def _svg_legend(fr: _Frame) -> list[str]:
    """The legend: a swatch and its meaning per color, in rows under the grid."""
    if not fr.legend_rows:
        return []
    sw = _SWATCH
    out = [f'<g class="legend" font-size="{fmt_num(_SUB_FONT)}" fill="#000000">']
    ly = fr.top + fr.grid_h + 8
    for lr in fr.legend_rows:
        x = fr.left
        for k, t, w in lr:
            if k >= 0:
                out.append(f'<rect class="swatch" x="{fmt_num(x)}" y="{fmt_num(ly)}" width="{fmt_num(sw)}" '
                           f'height="{fmt_num(sw)}" fill="{PALETTE[k % len(PALETTE)]}" stroke="#444444" stroke-width="0.5"/>')
            out.append(f'<text x="{fmt_num(x + sw + 4)}" y="{fmt_num(ly + sw - 2)}">{_xml_escape(t)}</text>')
            x += w
        ly += sw + 6
    out.append("</g>")
    return out


def picture_svg(pic: Picture, *, max_side_px: int = 1600) -> str:
    """The SVG of a :class:`Picture`, fitted to ``max_side_px`` pixels a side (larger: bigger labels).

    Pre:  pic is a Picture; 200 <= max_side_px <= 20000.
    Post: the SVG text, as :func:`to_svg` draws it.

    >>> from pycute_layouts import Layout
    >>> picture_svg(picture(Layout((2, 3), (3, 1))), max_side_px=4000).count('class="cell"')
    6
    """
    if not isinstance(pic, Picture):
        raise LayoutTypeError(f"picture_svg: expected a Picture, got {fmt(pic)}")
    if isinstance(max_side_px, bool) or not isinstance(max_side_px, int) or not 200 <= max_side_px <= 20000:
        raise LayoutValueError(f"picture_svg: max_side_px must be an integer in [200, 20000], got {fmt(max_side_px)}")
    return _svg_of(pic, max_side_px)


def _svg_of(pic: Picture, max_side: float = 1600) -> str:
    """The SVG document of a picture: head and axes, cells, labels, legend."""
    fr = _frame(pic, max_side)
    out = _svg_head(pic, fr) + _svg_cells(pic, fr) + _svg_labels(pic, fr) + _svg_legend(fr)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def to_svg(layout: Any, *, cell: str = "element", label: str | None = "value", color: str | None = "auto",
           element_bits: int | None = None, swizzle_unit: str | None = None, title: str | None = None) -> str:
    """An SVG picture of a layout (PTX-figure style), written directly: no dependency.

    Pre:  as :func:`~pycute_layouts.render.picture.picture`.
    Post: the SVG document text.

    One ``<rect class="cell">`` per element (or per 16-byte chunk with ``cell="chunk16"``), filled
    by swizzle phase (or bank group, or value mod 8), labelled with values, addresses, bank groups
    or coordinates, with a tooltip per cell, the mode indices on the axes, a title and a legend.
    Large tiles (up to 256x256 cells) shrink to about 1600 px a side and, where labels would be
    smaller than 5 px, label every 2nd/4th/... row and column. Options and errors as :func:`picture`.

    >>> from pycute_layouts import parse
    >>> svg = to_svg(parse("Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)"), cell="chunk16", label="bank_group")
    >>> import xml.etree.ElementTree as ET
    >>> cells = ET.fromstring(svg).findall(".//{http://www.w3.org/2000/svg}rect[@class='cell']")
    >>> len(cells), len({c.get("fill") for c in cells})          # 8x8 chunks, 8 swizzle phases
    (64, 8)
    >>> ET.fromstring(svg).get("viewBox")
    '0 0 438 351'
    """
    pic = picture(layout, cell=cell, label=label, color=color, element_bits=element_bits, swizzle_unit=swizzle_unit,
                  title=title, who="to_svg")
    return _svg_of(pic)

