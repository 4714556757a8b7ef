"""LaTeX/TikZ pictures of layouts."""

from __future__ import annotations

from typing import Any

from ..errors import LayoutTypeError
from ..limits import fmt
from .geometry import caption_line, geometry, is_labelled, wrap_words
from .picture import PALETTE, picture

__all__ = ["to_tikz"]

_TEX_ESCAPES = {
    "\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&", "#": r"\#", "%": r"\%",
    "_": r"\_", "^": r"\textasciicircum{}", "~": r"\textasciitilde{}", "<": r"\textless{}", ">": r"\textgreater{}",
}


def _tex(s: str) -> str:
    return "".join(_TEX_ESCAPES.get(ch, ch) for ch in s).replace("\u2192", r"$\rightarrow$").replace(
        "\u2193", r"$\downarrow$")


def to_tikz(layout: Any, *, cell: str = "element", label: str | None = "value", color: str | None = "auto",
            element_bits: int | None = None, swizzle_unit: str | None = None, title: str | None = None,
            standalone: bool = False) -> str:
    """The picture as a LaTeX TikZ ``tikzpicture`` (``standalone=True``: a whole compilable document).

    Pre:  as :func:`~pycute_layouts.render.picture.picture`; ``standalone`` a bool.
    Post: the TikZ picture (or whole LaTeX document) text.

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
        raise LayoutTypeError(f"to_tikz: standalone must be True or False, got {fmt(standalone)}")
    pic = picture(layout, cell=cell, label=label, color=color, element_bits=element_bits, swizzle_unit=swizzle_unit,
                  title=title, who="to_tikz")
    pt_per_cm = 28.4527
    g = geometry(pic, max_w=17 * pt_per_cm, max_h=24 * pt_per_cm, want_h=14, base_font=7, min_font=3, tick_font=5,
                  min_cell=2)
    out = []
    if standalone:
        out += [r"\documentclass[tikz,border=4pt]{standalone}", r"\usepackage{xcolor}", r"\begin{document}"]
    out.append(f"% {_tex(pic.title)} -- drawn by pycute_layouts.render.to_tikz")
    out += _tikz_begin(pic, g, g.cell_w / pt_per_cm, g.cell_h / pt_per_cm)
    out += _tikz_heading(pic, g)
    out += _tikz_cells(pic, g)
    out += _tikz_legend(pic, g)
    out.append(r"\end{tikzpicture}")
    if standalone:
        out.append(r"\end{document}")
    return "\n".join(out) + "\n"


def _tikz_begin(pic: Any, g: Any, wcm: float, hcm: float) -> list[str]:
    # Pre:  g the picture's geometry, wcm x hcm its cell in cm.
    # Post: the \begin{tikzpicture} line (cell, lbl and tick styles) and a \definecolor per palette color used.
    f = g.font
    used = sorted({k % len(PALETTE) for row in pic.colors for k in row if k >= 0} | {k for k, _ in pic.legend if k >= 0})
    out = [
        rf"\begin{{tikzpicture}}[x={wcm:.4f}cm, y=-{hcm:.4f}cm, "
        rf"cell/.style={{draw=black!70, line width=0.2pt, minimum width={wcm:.4f}cm, minimum height={hcm:.4f}cm, "
        rf"inner sep=0pt, outer sep=0pt, font=\ttfamily\fontsize{{{f:.2f}}}{{{f * 1.2:.2f}}}\selectfont}}, "
        rf"lbl/.style={{inner sep=0.3pt, anchor=west, fill=white, fill opacity=0.8, text opacity=1, "
        rf"font=\ttfamily\fontsize{{{f:.2f}}}{{{f * 1.2:.2f}}}\selectfont}}, "
        r"tick/.style={inner sep=1pt, font=\ttfamily\fontsize{5}{6}\selectfont}]"
    ]
    for k in used:
        out.append(rf"\definecolor{{pc{k}}}{{HTML}}{{{PALETTE[k][1:].upper()}}}")
    return out


def _tikz_heading(pic: Any, g: Any) -> list[str]:
    # Pre:  g the picture's geometry.  Post: the title block above the grid, then the column and row ticks.
    tick_up = 5 / g.cell_h  # 5 pt above the grid, in cell units
    head = [rf"\textbf{{\texttt{{{_tex(pic.title)}}}}}"]
    head += [rf"{{\scriptsize {_tex(t)}}}" for t in wrap_words(pic.subtitle, 90)]
    head.append(rf"{{\scriptsize {_tex(caption_line(pic))}}}")
    newline = r" \\ "
    out = [rf"\node[anchor=south west, align=left, inner sep=0pt] at (0, {-2.2 * tick_up:.3f}) {{{newline.join(head)}}};"]
    for c in range(0, pic.ncols, g.col_tick_every):
        out.append(rf"\node[tick, anchor=south] at ({c + 0.5}, 0) {{{c * pic.col_step}}};")
    if pic.row_caption:
        for r in range(0, pic.nrows, g.row_tick_every):
            out.append(rf"\node[tick, anchor=east] at (0, {r + 0.5}) {{{r * pic.row_step}}};")
    return out


def _tikz_cells(pic: Any, g: Any) -> list[str]:
    # Pre:  g the picture's geometry.  Post: the cells scope: one filled node per cell, the labels in the
    #       cells, or (sparse labels) as separate nodes on every label_every-th row and column.
    out = [r"\begin{scope} % cells"]
    sparse = g.label_every > 1 and pic.labels is not None
    for r in range(pic.nrows):
        for c in range(pic.ncols):
            k = pic.colors[r][c]
            fill = f"pc{k % len(PALETTE)}" if k >= 0 else "white"
            text = _tex(pic.labels[r][c]) if (not sparse and is_labelled(pic, g, r, c)) else ""
            out.append(rf"\node[cell, fill={fill}] at ({c + 0.5}, {r + 0.5}) {{{text}}};")
    if sparse:
        for r in range(0, pic.nrows, g.label_every):
            for c in range(0, pic.ncols, g.label_every):
                out.append(rf"\node[lbl] at ({c}, {r + 0.5}) {{{_tex(pic.labels[r][c])}}};")
    out.append(r"\end{scope}")
    return out


def _tikz_legend(pic: Any, g: Any) -> list[str]:
    # Pre:  g the picture's geometry.  Post: one swatch and text per legend entry below the grid (none without a legend).
    out = []
    y = pic.nrows + 12 / g.cell_h
    for i, (k, t) in enumerate(pic.legend):
        fill = f"pc{k % len(PALETTE)}" if k >= 0 else "white"
        out.append(rf"\node[draw=black!70, fill={fill}, minimum size=6pt, inner sep=0pt, "
                   rf"label={{[font=\scriptsize]right:{{{_tex(t)}}}}}] at (0.3, {y + i * 10 / g.cell_h:.3f}) {{}};")
    return out
