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

from typing import Any

import numpy as np

from ..arch import atoms
from ..core.inttuple import flatten
from ..core.layout import Layout
from ..errors import LayoutTypeError, LayoutValueError, UnitError
from ..limits import MAX_TABLE_CELLS, check_budget, fmt
from .picture import PALETTE, Picture
from .svg import picture_svg

__all__ = ["tv_picture", "atom_picture", "tv_svg", "atom_layout_for_picture"]


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
