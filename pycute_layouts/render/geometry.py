"""Geometry the SVG, TikZ and PNG backends share: cell size, font size, label density, caption text."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import LayoutValueError
from ..limits import check_count, check_fields, check_type, fmt
from .picture import Picture

__all__ = ["CHAR_W", "fmt_num", "Geom", "geometry", "wrap_words", "caption_line", "is_labelled"]

CHAR_W = 0.62  # monospace advance, in em


def fmt_num(x: float) -> str:
    """A coordinate for SVG/TikZ text: at most two decimals, no trailing zeros, never ``-0``.

    Pre:  ``x`` an int or float below 1e300 in magnitude.  Post: its shortest 2-decimal text;
    otherwise LayoutTypeError / LayoutValueError.

    >>> fmt_num(2.5), fmt_num(3.0), fmt_num(1 / 3), fmt_num(-0.001)
    ('2.5', '3', '0.33', '0')
    """
    check_type("fmt_num", "x", x, (int, float))
    if not -1e300 < x < 1e300:
        raise LayoutValueError(f"fmt_num: x must be a finite number below 1e300 in magnitude, got {fmt(x)}")
    s = f"{x:.2f}".rstrip("0").rstrip(".")
    return s if s not in ("-0", "") else "0"


def _power_of_two_at_least(x: float) -> int:
    k = 1
    while k < x:
        k *= 2
    return k


@dataclass
class Geom:
    """The sizes a backend draws a picture with: cell width and height, label font, label and tick density.

    >>> from pycute_layouts import Layout
    >>> from pycute_layouts.render import picture
    >>> geometry(picture(Layout((2, 3), (3, 1))), max_w=640, max_h=640, want_h=20, base_font=11, min_font=5,
    ...          tick_font=9, min_cell=6)
    Geom(cell_w=22.0, cell_h=20.0, font=11, label_every=1, col_tick_every=1, row_tick_every=1)
    """

    cell_w: float
    cell_h: float
    font: float
    label_every: int  # label every k-th row and column (1: every cell)
    col_tick_every: int
    row_tick_every: int

    def __post_init__(self) -> None:
        check_fields(self)


def geometry(pic: Picture, *, max_w: float, max_h: float, want_h: float, base_font: float, min_font: float,
              tick_font: float, min_cell: float) -> Geom:
    """The cell size, font and label density that fit ``pic`` into ``max_w`` x ``max_h``.

    Pre:  ``pic`` has at least one row and one column; the sizes are numbers.
    Post: cells of ``want_h`` (wide enough for the longest label at ``base_font``) shrunk to fit, never
    below ``min_cell``; labels on every k-th row and column, k the least power of two that keeps the font
    at ``min_font`` or more. Otherwise LayoutTypeError / LayoutValueError.

    >>> from pycute_layouts import Layout
    >>> from pycute_layouts.render import picture
    >>> g = geometry(picture(Layout((2, 3), (3, 1))), max_w=640, max_h=640, want_h=20, base_font=11,
    ...              min_font=5, tick_font=9, min_cell=6)
    >>> g.cell_w, g.cell_h, g.font, g.label_every   # 20 * 1.1 wide: room for a 1-character label
    (22.0, 20.0, 11, 1)
    """
    check_type("geometry", "pic", pic, Picture)
    for _n, _v in (("max_w", max_w), ("max_h", max_h), ("want_h", want_h), ("base_font", base_font), ("min_font", min_font),
                   ("tick_font", tick_font), ("min_cell", min_cell)):
        check_type("geometry", _n, _v, (int, float))
    if pic.nrows < 1 or pic.ncols < 1:
        raise LayoutValueError(f"geometry: a picture of {pic.nrows} x {pic.ncols} cells (a zero extent) has no cell to draw")
    maxc = max((len(s) for row in pic.labels for s in row), default=1) if pic.labels else 1
    want_w = max(want_h * 1.1, maxc * base_font * CHAR_W + 0.3 * base_font + 2)
    cell_w = max(min_cell, want_w * min(1.0, max_w / (pic.ncols * want_w)))
    cell_h = max(min_cell, want_h * min(1.0, max_h / (pic.nrows * want_h)))

    def fit(k: int) -> float:
        return min(base_font, (k * cell_w - 2) / (maxc * CHAR_W), k * cell_h * 0.8)

    k = 1
    while fit(k) < min_font and k < max(pic.nrows, pic.ncols):
        k *= 2
    tick_chars = len(str((pic.ncols - 1) * pic.col_step))
    ct = _power_of_two_at_least((tick_chars * tick_font * CHAR_W + 3) / cell_w)
    rt = _power_of_two_at_least((tick_font + 2) / cell_h)
    return Geom(cell_w, cell_h, fit(k), k, ct, rt)


def wrap_words(text: str, max_chars: float) -> list[str]:
    """``text``'s ``"; "``-separated parts joined into lines of at most ``max_chars`` (a longer part stands alone).

    >>> wrap_words("a; bb; ccc", 6)
    ['a; bb', 'ccc']
    """
    check_type("wrap_words", "text", text, str)
    check_type("wrap_words", "max_chars", max_chars, (int, float))
    lines: list[str] = []
    for part in text.split("; ") if text else []:
        if lines and len(lines[-1]) + 2 + len(part) <= max_chars:
            lines[-1] += "; " + part
        else:
            lines.append(part)
    return lines


def caption_line(pic: Picture) -> str:
    """The axis caption under a picture: what its rows and columns are.

    >>> from pycute_layouts import Layout
    >>> from pycute_layouts.render import picture
    >>> caption_line(picture(Layout((2, 3), (3, 1))))
    'rows \u2193 mode 0    columns \u2192 mode 1'
    """
    check_type("caption_line", "pic", pic, Picture)
    if pic.row_caption:
        return f"rows \u2193 {pic.row_caption}    columns \u2192 {pic.col_caption}"
    return f"columns \u2192 {pic.col_caption}"


def is_labelled(pic: Picture, g: Geom, r: int, c: int) -> bool:
    """Whether cell ``(r, c)`` gets its label: the picture has labels and r, c are multiples of ``label_every``.

    >>> from pycute_layouts import Layout
    >>> from pycute_layouts.render import picture
    >>> p = picture(Layout((2, 3), (3, 1)))
    >>> g = Geom(22.0, 20.0, 11, 2, 1, 1)   # label every 2nd row and column
    >>> is_labelled(p, g, 0, 2), is_labelled(p, g, 1, 2)
    (True, False)
    """
    check_type("is_labelled", "pic", pic, Picture)
    check_type("is_labelled", "g", g, Geom)
    check_count("is_labelled", "r", r)
    check_count("is_labelled", "c", c)
    return pic.labels is not None and r % g.label_every == 0 and c % g.label_every == 0

