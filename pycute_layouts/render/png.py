"""PNG pictures of layouts through matplotlib (an optional dependency, imported on use)."""

from __future__ import annotations

import io
import math
import os
from typing import Any

import numpy as np

from ..errors import LayoutTypeError, LayoutValueError, MissingDependencyError
from ..limits import check_output_path, fmt, write_file
from .geometry import geometry, wrap_words
from .picture import PALETTE, WHITE, picture

__all__ = ["to_png"]

_MAX_PNG_LABELS = 1024


def to_png(layout: Any, path: str | os.PathLike, *, cell: str = "element", label: str | None = "value",
           color: str | None = "auto", element_bits: int | None = None, swizzle_unit: str | None = None,
           title: str | None = None, dpi: int = 150) -> str:
    """Write the picture as a PNG through matplotlib (``pip install 'pycute-layouts[png]'``); returns the path.

    Pre:  as :func:`~pycute_layouts.render.picture.picture`; matplotlib installed; ``path`` writable.
    Post: the PNG written to ``path``; MissingDependencyError without matplotlib.

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
        raise LayoutValueError(f"to_png: dpi must be an integer in [10, 1200], got {fmt(dpi)}")
    if not isinstance(path, (str, os.PathLike)):
        raise LayoutTypeError(f"to_png: path must be a file name, got {fmt(path)}")
    check_output_path(path, "to_png")  # before the picture is drawn
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
    g = geometry(pic, max_w=1600, max_h=1600, want_h=20, base_font=11, min_font=5, tick_font=9, min_cell=6)
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
    ax.set_title("\n".join([pic.title] + wrap_words(pic.subtitle, 100)), fontsize=7.5, family="monospace", loc="left")
    if pic.legend:
        handles = [Patch(facecolor=PALETTE[k % len(PALETTE)] if k >= 0 else WHITE, edgecolor="#444444", label=t)
                   for k, t in pic.legend]
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(0.0, -0.02), ncol=4, fontsize=6.5, frameon=False)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, bbox_inches="tight", facecolor="white")
    return write_file(path, buf.getvalue(), "to_png")


def _rgb(hexcolor: str) -> tuple[float, float, float]:
    return tuple(int(hexcolor[i:i + 2], 16) / 255.0 for i in (1, 3, 5))  # type: ignore[return-value]

