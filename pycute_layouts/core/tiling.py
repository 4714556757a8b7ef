"""Tiling: what CuTe builds from the four primitives of :mod:`pycute_layouts.core.algebra`.

``logical_divide`` and its ``zipped``/``tiled``/``flat`` forms (``A o (B, complement(B, |A|))``),
``logical_product`` and its forms with ``blocked``/``raked`` products (``(A, complement(A, ...) o B)``),
``make_ordered_layout`` and ``tile_to_shape``, the casts ``upcast``/``downcast``/``recast`` between
element widths, ``max_common_layout``/``max_common_vector``, ``nullspace`` and the identity layout.
Each follows CuTe C++ (``include/cute/layout.hpp``); integer layouts take fast paths that never
touch sympy.

>>> from pycute_layouts import Layout
>>> print(logical_divide(Layout(16), Layout(4, 2)))
(4,(2,2)):(2,(1,8))
>>> print(blocked_product(Layout((2, 2)), Layout((2, 3))))
((2,2),(2,3)):((1,4),(2,8))
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import AdmissibilityError, CongruenceError, LayoutError, LayoutTypeError, LayoutValueError, SymbolicUndecidable
from ..limits import MAX_INT_DIGITS, check_count, fmt
from . import inttuple as it
from .algebra import (
    basis_surrogates,
    coalesce,
    coalesce_flat,
    coalesce_ints,
    complement,
    complement_ints,
    complement_sorted_ints,
    compose_basis_ints,
    compose_ints,
    composition,
    inner_aware,
    none_as_underscore,
    refuse_coordinate_layout,
    right_inverse,
    tiler_to_layout,
    transform_layout,
)
from .basis import from_coord
from .f2 import F2
from .inttuple import (
    all_int,
    ceil_div,
    divides,
    flatten,
    format_inttuple,
    is_eq,
    product,
    signum,
    simplify,
    three_valued,
    validate_shape,
)
from .layout import (
    Layout,
    _,
    as_layout,
    is_layout_like,
    make_layout,
    new_layout,
    require_modes,
    slice_and_offset,
    unwrap_single,
)

#: An int tiler below this bound has at most MAX_INT_DIGITS digits and is read as the layout n:1 at once; a
#: larger one goes through Layout(n), which refuses it (as every integer where it enters).
_TILER_INT_BOUND = 10**MAX_INT_DIGITS

__all__ = [
    "logical_divide",
    "zipped_divide",
    "tiled_divide",
    "flat_divide",
    "logical_product",
    "zipped_product",
    "tiled_product",
    "flat_product",
    "blocked_product",
    "raked_product",
    "make_layout_tv",
    "make_ordered_layout",
    "tile_to_shape",
    "upcast",
    "downcast",
    "recast",
    "max_common_layout",
    "max_common_vector",
    "nullspace",
]


# ------------------------------------------------------------------------------------------
# divide


def logical_divide(layout: Layout, tiler: Any) -> Layout:
    """Split ``layout`` into (tile, rest): ``composition(layout, (tiler, complement(tiler, size)))``.

    Pre:  the tiler (a layout, an int or a tuple of them, by mode) is injective and
          complement(tiler, size(layout)) exists; composition(layout, (tiler, complement)) is
          admissible.
    Post: R == composition(layout, make_layout(tiler, complement(tiler, size(layout)))): mode 0 is
          the tile, mode 1 the rest; size(R) >= size(layout).

    A tuple tiler divides mode by mode (modes beyond it are kept); ``_`` keeps a mode.

    >>> print(logical_divide(Layout(16, 1), Layout(4, 2)))
    (4,(2,2)):(2,(1,8))
    >>> print(logical_divide(Layout((8, 8), (1, 8)), (2, 4)))
    ((2,4),(4,2)):((1,2),(8,32))
    """
    if type(layout) is Layout and type(tiler) is tuple:  # the integer fast path: a Layout per leading mode
        parts = _int_divide_modes(layout, tiler)
        if parts is not None:
            k = len(parts)
            return new_layout(tuple([p.shape for p in parts]) + layout.shape[k:],
                              tuple([p.stride for p in parts]) + layout.stride[k:])
    it.check_nesting(tiler, "logical_divide", "tiler")
    if tiler is None:  # PyCuTe's identity tiler (CuTe's _)
        return layout if is_layout_like(layout) else as_layout(layout, "logical_divide")
    if type(tiler) is tuple:
        tiler = none_as_underscore(tiler)
    if type(layout) is not Layout:
        hook = getattr(layout, "_apply_to_inner", None)
        if hook is not None and not isinstance(layout, Layout):
            return hook(logical_divide, tiler)
        layout = tiler_to_layout(layout) if isinstance(layout, tuple) else as_layout(layout, "logical_divide")
    if type(tiler) is Layout:
        afl = layout.int_flat_modes()
        tfl = tiler.int_flat_modes()
        if tfl is not None and tfl[0]:
            if afl is not None and afl[0]:
                return _logical_divide_ints(afl, tiler, tfl)
            if layout.coord_profile() is not None:  # basis strides: the integer walks on surrogates
                res = _logical_divide_basis(layout.flat_modes(), tiler, tfl)
                if res is not None:
                    return res
    if isinstance(tiler, Layout):
        target = coalesce_flat(layout).shape
        return composition(layout, make_layout(tiler, complement(tiler, target)))
    if tiler is _:
        return layout
    if isinstance(tiler, (tuple, list)):
        return transform_layout(layout, tuple(tiler), logical_divide)
    if type(tiler) is int and 0 < tiler < _TILER_INT_BOUND:
        return logical_divide(layout, Layout.from_normalized(tiler, 1 if tiler != 1 else 0))
    if it.is_int(tiler):
        return logical_divide(layout, Layout(tiler))
    raise LayoutTypeError(f"logical_divide: tiler must be a Layout, an int, _ or a tuple, got {fmt(tiler)}")


def _logical_divide_ints(afl: tuple, tiler: Layout, tfl: tuple) -> Layout:
    """``logical_divide`` of two integer layouts with modes (flat ``afl``, ``tfl``), without intermediate layouts:
    ``layout o (tiler, complement(tiler, shape(coalesce(layout))))``."""
    fs, fd = afl
    n = len(fs) - 1
    cs, cd = coalesce_ints(fs, fd, n, fs[n], fd[n])  # coalesce(layout)
    comp = complement_ints(tfl[0], tfl[1], cs[0] if len(cs) == 1 else tuple(cs), tiler)
    if fs[n] == 1:
        cs, cd = coalesce_ints(fs, fd, n, 2, fd[n])  # coalesce_x(layout) differs from coalesce(layout)
    cfs, cfd = comp.flat_modes()
    return compose_ints(cs, cd, (tiler.shape, comp.shape), (tiler.stride, comp.stride), tfl[0] + cfs, tfl[1] + cfd)


def _logical_divide_basis(afl: tuple, tiler: Layout, tfl: tuple) -> Layout | None:
    """``_logical_divide_ints`` for a layout with basis strides (flat modes ``afl``) and an integer tiler, with
    coalesce and composition run on the integer surrogates of ``basis_surrogates``; None where those refuse
    or the tiler has no integer complement there (the general path then decides, or says why)."""
    fs, fd = afl
    enc = basis_surrogates(fs, fd, 1)  # (coalesce's merges are exact on the surrogates of any bound)
    if enc is None:
        return None
    sur = enc[0]
    n = len(fs) - 1
    cs, _cd = coalesce_ints(fs, sur, n, fs[n], sur[n])  # coalesce(layout): only its shape is used
    try:
        comp = complement_ints(tfl[0], tfl[1], cs[0] if len(cs) == 1 else tuple(cs), tiler)
    except LayoutError:
        return None
    cfl = comp.int_flat_modes()
    if cfl is None:
        return None
    return compose_basis_ints(fs, fd, (tiler.shape, comp.shape), tfl[0] + cfl[0], tfl[1] + cfl[1])


def _int_divide_modes(layout: Layout, tiler: tuple) -> list | None:
    """``[logical_divide(layout[i], tiler[i]) for i < len(tiler)]`` for an integer layout (or one with basis
    strides, via ``_logical_divide_basis``) and a non-empty tuple of integer Layouts (or positive ints, read as
    the general path reads them), without intermediate checks; None otherwise (the general path decides or says why).

    Pre:  ``layout`` is a Layout. Post: each entry is a rank-2 (tile, rest) layout, as ``_logical_divide_ints``.
    """
    ls = layout.shape
    if type(ls) is not tuple or not 0 < len(tiler) <= len(ls):
        return None
    divide = _logical_divide_ints
    if layout.int_flat_modes() is None:
        if layout.coord_profile() is None:
            return None
        divide = _logical_divide_basis  # basis strides (a mode of int strides gives what _logical_divide_ints gives)
    ld = layout.stride
    out = []
    for i, t in enumerate(tiler):
        if type(t) is int and 0 < t < _TILER_INT_BOUND:  # an int tiler n is the layout n:1 (1:0 for 1), as the general path does
            t = Layout.from_normalized(t, 1 if t != 1 else 0)
        elif type(t) is not Layout:
            return None
        tfl = t.int_flat_modes()
        if tfl is None or not tfl[0]:
            return None
        x = ls[i]
        if type(x) is int:  # the mode's flat modes (a slice of the layout's, all ints)
            mfl = ((x,), (ld[i],))
        elif all_int(x):
            mfl = (x, ld[i])
        else:
            mfl = (flatten(x), flatten(ld[i]))
        if not mfl[0]:
            return None
        part = divide(mfl, t, tfl)
        if part is None:
            return None
        out.append(part)
    return out


def _zip2_by(t: Any, guide: Any) -> Any:
    if isinstance(guide, (tuple, list)):
        k = len(guide)
        if not isinstance(t, tuple) or len(t) < k:
            raise CongruenceError(f"zip2_by: {t} has fewer modes than the tiler {guide}")
        firsts: list = []
        seconds: list = []
        for i in range(k):
            g = guide[i]
            x = t[i]
            if isinstance(g, (tuple, list)):
                x = _zip2_by(x, g)
            elif not isinstance(x, tuple) or len(x) != 2:
                raise CongruenceError(f"zip2_by: expected a rank-2 (tile, rest) mode, got {x}")
            firsts.append(x[0])
            seconds.append(x[1])
        return (tuple(firsts), tuple(seconds) + t[k:])
    if not isinstance(t, tuple) or len(t) != 2:
        raise CongruenceError(f"zip2_by: expected a rank-2 (tile, rest) mode, got {t}")
    return t


def _tile_unzip(layout: Layout, tiler: Any) -> Layout:
    s, d = layout.shape, layout.stride
    if type(tiler) is tuple and type(s) is tuple and len(s) >= len(tiler):  # a flat tiler: one pass
        k = len(tiler)
        s0: list = []
        s1: list = []
        d0: list = []
        d1: list = []
        for i in range(k):
            x = s[i]
            if type(x) is not tuple or len(x) != 2 or isinstance(tiler[i], (tuple, list)):
                break
            y = d[i]
            s0.append(x[0])
            s1.append(x[1])
            d0.append(y[0])
            d1.append(y[1])
        else:
            return new_layout((tuple(s0), tuple(s1) + s[k:]), (tuple(d0), tuple(d1) + d[k:]))
    return Layout.from_normalized(_zip2_by(s, tiler), _zip2_by(d, tiler))


def zipped_divide(layout: Layout, tiler: Any) -> Layout:
    """``logical_divide`` with the tiles gathered in mode 0 and the rests in mode 1.

    Pre:  as logical_divide.
    Post: R == ((tile modes), (rest modes)) of logical_divide(layout, tiler); R(i) ==
          logical_divide(layout, tiler)(i).

    >>> print(zipped_divide(Layout((8, 8), (1, 8)), (2, 4)))
    ((2,4),(4,2)):((1,8),(2,32))
    """
    if type(layout) is Layout and type(tiler) is tuple:  # the integer fast path: a Layout per leading mode
        parts = _int_divide_modes(layout, tiler)
        if parts is not None:
            k = len(parts)
            return new_layout((tuple([p.shape[0] for p in parts]), tuple([p.shape[1] for p in parts]) + layout.shape[k:]),
                              (tuple([p.stride[0] for p in parts]), tuple([p.stride[1] for p in parts]) + layout.stride[k:]))
    it.check_nesting(tiler, "zipped_divide", "tiler")
    if tiler is None:
        raise LayoutTypeError("zipped_divide: None is no tiler (PyCuTe refuses it too); use logical_divide(A, None)")
    if type(tiler) is tuple:
        tiler = none_as_underscore(tiler)
    if type(layout) is not Layout:
        hook = getattr(layout, "_apply_to_inner", None)
        if hook is not None and not isinstance(layout, Layout):
            return hook(zipped_divide, tiler)
    return _tile_unzip(logical_divide(layout, tiler), tiler)


def _unpack(layout: Layout, modes: tuple) -> Layout:
    coord = tuple(_ if m <= 1 else tuple(_ for _i in range(m)) for m in modes)
    return slice_and_offset(coord, layout)[0]


@inner_aware
def tiled_divide(layout: Layout, tiler: Any) -> Layout:
    """``zipped_divide`` with the rest mode unpacked: ``((tile), rest0, rest1, ...)``.

    Pre:  as logical_divide.
    Post: R == ((tile modes), rest_0, rest_1, ...); same function as zipped_divide.

    >>> print(tiled_divide(Layout((8, 8), (1, 8)), (2, 4)))
    ((2,4),4,2):((1,8),2,32)
    """
    it.check_nesting(tiler, "tiled_divide", "tiler")
    if tiler is None:
        raise LayoutTypeError("tiled_divide: None is no tiler; use logical_divide(A, None)")
    z = zipped_divide(layout, tiler)
    return _unpack(z, (0, _rank_of(z.shape[1])))


@inner_aware
def flat_divide(layout: Layout, tiler: Any) -> Layout:
    """``zipped_divide`` with both modes unpacked: ``(tile0, tile1, ..., rest0, rest1, ...)``.

    Pre:  as logical_divide.
    Post: R == (tile_0, tile_1, ..., rest_0, rest_1, ...); same function as zipped_divide.

    >>> print(flat_divide(Layout((8, 8), (1, 8)), (2, 4)))
    (2,4,4,2):(1,8,2,32)
    """
    it.check_nesting(tiler, "flat_divide", "tiler")
    if tiler is None:
        raise LayoutTypeError("flat_divide: None is no tiler; use logical_divide(A, None)")
    z = zipped_divide(layout, tiler)
    return _unpack(z, (_rank_of(z.shape[0]), _rank_of(z.shape[1])))


def _rank_of(t: Any) -> int:
    return len(t) if isinstance(t, tuple) else 0


# ------------------------------------------------------------------------------------------
# product


def logical_product(block: Layout, tiler: Any) -> Layout:
    """Repeat ``block`` over ``tiler``: ``(block, composition(complement(block, size*cosize(tiler)), tiler))``.

    Pre:  CuTe's complement(block, size(block) * cosize(tiler)) exists (each sorted stride of block at
          least the extent of the modes before it; at a gap no layout fills, its mode is
          ``stride // extent``, as CuTe) and composes with tiler.
    Post: R == (block, composition(complement(block, size(block)*cosize(tiler)), tiler)); R(i) ==
          block(i) for i < size(block).

    A tuple tiler works mode by mode; an int ``n`` means the layout ``n:1`` (pycute gets this
    case wrong; see docs/differences.md).

    >>> print(logical_product(Layout((2, 2), (4, 1)), Layout(6, 1)))
    ((2,2),(2,3)):((4,1),(2,8))
    >>> print(logical_product(Layout(4, 1), 3))
    (4,3):(1,4)
    """
    if type(block) is Layout and type(tiler) is Layout:  # the integer fast path (no checks to repeat)
        rest = _int_product_rest(block, tiler)
        if rest is not None:
            return new_layout((block.shape, rest.shape), (block.stride, rest.stride))
    return _logical_product(block, tiler)


def _int_product_rest(block: Layout, tiler: Layout) -> Layout | None:
    """Mode 1 of ``logical_product(block, tiler)`` for two integer layouts, without intermediate checks.

    Pre:  ``block``, ``tiler`` are Layouts. Post: ``composition(complement(block, size(block) *
          cosize(tiler)), tiler)`` (CuTe's complement where block leaves gaps); None where either layout
          is not integer with modes (the general path then decides, or says why).
    """
    bfl = block.int_flat_modes()
    if bfl is None or not bfl[0]:
        return None
    tfl = tiler.int_flat_modes()
    if tfl is None or not tfl[0]:
        return None
    size = 1
    for s in bfl[0]:
        size *= s
    cosize = 1
    for s, d in zip(*tfl):
        cosize += (s - 1) * (d if d >= 0 else -d)
    comp = complement_sorted_ints(bfl[0], bfl[1], size * cosize) if len(bfl[0]) > 1 else None
    if comp is None:  # one mode, or a gap: the general complement (CuTe's where it leaves gaps)
        comp = _product_complement(block, size * cosize)
    cfl = comp.int_flat_modes()
    if cfl is None:
        return None
    if tiler.shape == 1:  # composition with a size-1 B is the point 1:0
        return new_layout(1, 0)
    cfs, cfd = cfl
    n = len(cfs) - 1
    last = cfs[n]
    if last != 1:  # the complement is coalesced, so it is its own coalesce_x
        return compose_ints(cfs, cfd, tiler.shape, tiler.stride, tfl[0], tfl[1])
    ls, ld = coalesce_ints(cfs, cfd, n, 2, cfd[n])  # coalesce_x(complement)
    return compose_ints(ls, ld, tiler.shape, tiler.stride, tfl[0], tfl[1])


@inner_aware
def _logical_product(block: Layout, tiler: Any) -> Layout:
    it.check_nesting(tiler, "logical_product", "tiler")
    if tiler is None:  # PyCuTe's identity tiler
        return block if is_layout_like(block) else as_layout(block, "logical_product")
    if type(tiler) is tuple:
        tiler = none_as_underscore(tiler)
    block = as_layout(block, "logical_product")
    if isinstance(tiler, Layout):
        comp = _product_complement(block, block.size() * tiler.cosize())
        return make_layout(block, composition(comp, tiler))
    if tiler is _:
        return block
    if isinstance(tiler, (tuple, list)):
        return transform_layout(block, tuple(tiler), logical_product)
    if it.is_int(tiler):
        return logical_product(block, Layout(tiler))
    raise LayoutTypeError(f"logical_product: tiler must be a Layout, an int, _ or a tuple, got {fmt(tiler)}")


def _product_complement(block: Layout, cotarget: Any) -> Layout:
    """The complement a product repeats ``block`` along: ``complement(block, cotarget)``, or, where ``block``
    leaves gaps no layout fills (a sorted stride that is not a multiple of the extent before it), CuTe's
    complement, whose mode there is ``stride // extent`` (the copies of ``block`` stay disjoint)."""
    try:
        return complement(block, cotarget)
    except AdmissibilityError:
        fl = block.int_flat_modes()
        if fl is None or type(cotarget) is not int:
            raise
        modes = sorted((d, s) for s, d in zip(*fl) if s != 1 and d != 0)
        res_s: list = []
        res_d: list = []
        ext = 1
        for d, s in modes:
            if d < ext:  # CuTe: "Non-injective Layout detected"; the strict refusal says why
                raise
            res_s.append(d // ext)
            res_d.append(ext)
            ext = d * s
        res_s.append(-((-cotarget) // ext))
        res_d.append(ext)
        return coalesce(Layout(tuple(res_s), tuple(res_d)))


@inner_aware
def zipped_product(block: Layout, tiler: Any) -> Layout:
    """``logical_product`` with block modes in mode 0 and products in mode 1.

    Pre:  as logical_product.
    Post: R == ((block modes), (product modes)); same function as logical_product.

    >>> print(zipped_product(Layout((2, 2)), (3, 4)))
    ((2,2),(3,(2,2))):((1,2),(2,(1,4)))
    """
    it.check_nesting(tiler, "zipped_product", "tiler")
    return _tile_unzip(logical_product(block, tiler), tiler)


@inner_aware
def tiled_product(block: Layout, tiler: Any) -> Layout:
    """``zipped_product`` with the product mode unpacked.

    Pre:  as logical_product.
    Post: R == ((block modes), product_0, product_1, ...); same function as logical_product.

    >>> print(tiled_product(Layout((2, 2)), (3, 4)))
    ((2,2),3,(2,2)):((1,2),2,(1,4))
    """
    it.check_nesting(tiler, "tiled_product", "tiler")
    z = zipped_product(block, tiler)
    return _unpack(z, (0, _rank_of(z.shape[1])))


@inner_aware
def flat_product(block: Layout, tiler: Any) -> Layout:
    """``zipped_product`` with both modes unpacked.

    Pre:  as logical_product.
    Post: R == (block_0, ..., product_0, ...); same function as logical_product.

    >>> print(flat_product(Layout((2, 2)), (3, 4)))
    (2,2,3,(2,2)):(1,2,2,(1,4))
    """
    it.check_nesting(tiler, "flat_product", "tiler")
    z = zipped_product(block, tiler)
    return _unpack(z, (_rank_of(z.shape[0]), _rank_of(z.shape[1])))


def _append_to_rank(layout: Layout, r: int) -> Layout:
    cur = layout.rank()
    if cur == r:
        return layout
    if cur > r:
        raise CongruenceError(f"append: layout {layout} already has rank {cur} > {r}")
    s = layout.shape if isinstance(layout.shape, tuple) else (layout.shape,)
    d = layout.stride if isinstance(layout.stride, tuple) else (layout.stride,)
    return Layout.from_normalized(s + (1,) * (r - cur), d + (0,) * (r - cur))


def _zip_layouts(a: Layout, b: Layout) -> Layout:
    def z(x, y):
        if isinstance(x, tuple):
            if not isinstance(y, tuple) or len(x) != len(y):
                raise CongruenceError(f"zip: mismatched ranks {x} vs {y}")
            return tuple((xi, yi) for xi, yi in zip(x, y))
        return ((x, y),)

    return Layout.from_normalized(z(a.shape, b.shape), z(a.stride, b.stride))


def blocked_product(block: Layout, tiler: Layout) -> Layout:
    """Each element of ``tiler`` becomes a copy of ``block`` (blocks stay contiguous per mode).

    Pre:  as logical_product, after both are appended to the same rank.
    Post: mode i of R is (block_i, tiler_i); size(R) == size(block) * size(tiler).

    The result has rank ``max(rank(block), rank(tiler))``; mode ``i`` is ``(block_i, tiler_i)``.

    >>> print(blocked_product(Layout((2, 2), (2, 1)), Layout((2, 3))))
    ((2,2),(2,3)):((2,4),(1,8))
    """
    fast = _int_zipped_product(block, tiler, raked=False)
    return fast if fast is not None else _blocked_product(block, tiler)


def _int_zipped_product(block: Any, tiler: Any, raked: bool) -> Layout | None:
    """The integer fast path of blocked_product (raked: raked_product), or None for the general path.

    Pre:  none. Post: not None only for two integer Layouts of one rank whose product needs no checks; then
          mode i is (block_i, rest_i) (raked: (rest_i, block_i)), rest = the copies' layout of logical_product.
    """
    if type(block) is Layout and type(tiler) is Layout and block.rank() == tiler.rank():
        rest = _int_product_rest(block, tiler)
        if rest is not None:
            return _zip_layouts(rest, block) if raked else _zip_layouts(block, rest)
    return None


def _padded_product(block: Any, tiler: Any, who: str) -> Layout:
    """logical_product of block and tiler, both padded with ``1:0`` modes to the larger rank (as CuTe's)."""
    block = as_layout(block, who)
    tiler = as_layout(tiler, who)
    r = max(block.rank(), tiler.rank())
    return logical_product(_append_to_rank(block, r), _append_to_rank(tiler, r))


@inner_aware
def _blocked_product(block: Layout, tiler: Layout) -> Layout:
    res = _padded_product(block, tiler, "blocked_product")
    return _zip_layouts(res[0], res[1])


def raked_product(block: Layout, tiler: Layout) -> Layout:
    """Like ``blocked_product`` but the copies of ``block`` are interleaved: mode ``i`` is ``(tiler_i, block_i)``.

    Pre:  as blocked_product.
    Post: mode i of R is (tiler_i, block_i); size(R) == size(block) * size(tiler).

    >>> print(raked_product(Layout((2, 2), (2, 1)), Layout((2, 3))))
    ((2,2),(3,2)):((4,2),(8,1))
    """
    fast = _int_zipped_product(block, tiler, raked=True)
    return fast if fast is not None else _raked_product(block, tiler)


@inner_aware
def _raked_product(block: Layout, tiler: Layout) -> Layout:
    res = _padded_product(block, tiler, "raked_product")
    return _zip_layouts(res[1], res[0])


def make_ordered_layout(shape_: Any, order: Any = None) -> Layout:
    """A compact layout whose modes get strides in the order given by ``order`` (smallest first).

    Pre:  order is weakly congruent with shape_ and its values are distinct.
    Post: R is compact (a bijection onto [0, size)) with shape shape_; the mode of smallest order
          has stride 1.

    ``order`` is weakly congruent with the shape; the default is column-major. Symbolic order
    values are CuTe's dynamic ones: larger than every integer value, ordered left to right.

    >>> print(make_ordered_layout((2, 2, 2, 2), (0, 2, 3, 1)))
    (2,2,2,2):(1,4,8,2)
    >>> print(make_ordered_layout((4, 3), (1, 0)))
    (4,3):(3,1)
    >>> import sympy; p, q = sympy.symbols("p q", integer=True)
    >>> print(make_ordered_layout((2, 3, 4, 5), (2, p, q, 50)))
    (2,3,4,5):(1,10,30,2)
    """
    s = it.as_inttuple(shape_, "make_ordered_layout", "shape")
    validate_shape(s, "make_ordered_layout")
    if order is None:
        return Layout(s)
    o = it.as_inttuple(order, "make_ordered_layout", "order")
    if not it.weakly_congruent(o, s):
        raise CongruenceError(f"make_ordered_layout: order {format_inttuple(o)} is not weakly congruent with shape "
                              f"{format_inttuple(s)}")
    flat_o = flatten(o)
    if not all_int(flat_o):  # CuTe: dynamic (here symbolic) order values are large, ordered left to right
        top = max((v for v in flat_o if type(v) is int), default=0)
        flat_o = tuple(v if type(v) is int else top + 1 + i for i, v in enumerate(flat_o))
        o = it.unflatten(flat_o, o) if isinstance(o, tuple) else flat_o[0]
    if len(set(flat_o)) != len(flat_o):
        raise LayoutValueError(f"make_ordered_layout: order values must be distinct, got {format_inttuple(o)}")
    # Shape grouped like the order: product of the sub-shape at each leaf of order.
    ref_s = flatten(_product_like(s, o))

    def go(sh, od):
        if isinstance(od, tuple):
            return tuple(go(x, y) for x, y in zip(sh, od))
        start = 1
        for rs_, ro in zip(ref_s, flat_o):
            if ro < od:
                start = start * rs_
        return it.compact_col_major(sh, start)

    return Layout.from_normalized(s, go(s, o))


def _product_like(s: Any, guide: Any) -> Any:
    if isinstance(guide, tuple):
        return tuple(_product_like(x, g) for x, g in zip(s, guide))
    return product(s)


def tile_to_shape(block: Layout, trg_shape: Any, order: Any = None) -> Layout:
    """Repeat ``block`` until it has shape ``trg_shape`` (``blocked_product`` by the missing factors).

    Pre:  each mode of trg_shape is a multiple of block's size in that mode; rank(block) <=
          rank(trg_shape).
    Post: size of mode i of R == product(mode i of trg_shape), and R(i) == block(i) for every i <
          size(block).

    ``order`` sets which mode is tiled first (default column-major: mode 0 first). Each mode
    of the target must be a multiple of the block's size in that mode.

    >>> print(tile_to_shape(Layout((8, 8), (8, 1)), (16, 32)))
    ((8,2),(8,4)):((8,64),(1,128))
    >>> print(tile_to_shape(Layout((8, 8), (8, 1)), (16, 32), (1, 0)))
    ((8,2),(8,4)):((8,256),(1,64))
    """
    hook = getattr(block, "_apply_to_inner", None)
    if hook is not None and not isinstance(block, Layout):
        return hook(tile_to_shape, trg_shape, order)
    block = as_layout(block, "tile_to_shape")
    t = it.as_inttuple(trg_shape, "tile_to_shape", "target shape")
    validate_shape(t, "tile_to_shape")
    r = it.rank(t)
    if block.rank() > r:
        raise CongruenceError(f"tile_to_shape: block {block} has rank {block.rank()} > rank {r} of the target {t}")
    padded = _append_to_rank(block, r)
    bshape = it.product_each(padded.shape)
    tshape = it.product_each(t)
    for i, (ts, bs) in enumerate(zip(tshape, bshape)):
        if not divides(bs, ts):
            raise AdmissibilityError(
                f"tile_to_shape: block shape does not divide the target shape: mode {i} of the target has size {ts}, "
                f"not a multiple of the block's {bs}"
            )
    prod = tuple(simplify(ts / bs) if type(ts) is not int or type(bs) is not int else ts // bs
                 for ts, bs in zip(tshape, bshape))
    return blocked_product(padded, make_ordered_layout(prod, order))


# ------------------------------------------------------------------------------------------
# up/down/recast


def _check_pos_int(n: Any, who: str) -> int:
    return check_count(who, "the factor (a positive integer)", n, 1, None, LayoutValueError)


def upcast(layout: Layout, n: int) -> Layout:
    """View ``layout`` in units ``n`` times larger: stride-1 modes shrink by ``n``, other strides divide by ``n``.

    Pre:  n is a positive int; every non-zero stride divides n or is a multiple of it.
    Post: R is layout in units n times larger, mode by mode: a stride d that is a multiple of n
          becomes d/n; a stride d dividing n becomes 1 with shape shape_div(s, n/d); stride 0 stays.

    Each non-zero stride must divide ``n`` or be a multiple of it (CuTe's divisibility
    condition).

    >>> print(upcast(Layout((8, 64), (64, 1)), 8))
    (8,8):(8,1)
    """
    comp = getattr(layout, "_upcast", None)
    if comp is not None and not isinstance(layout, Layout):
        return comp(n)
    layout = as_layout(layout, "upcast")
    refuse_coordinate_layout(layout, "upcast")
    n = _check_pos_int(n, "upcast")
    require_modes(layout, "upcast")

    def leaf(s, d):
        if d == 0 if type(d) is int else is_eq(d, 0):
            return s, d
        if type(d) is int:
            ad = abs(d)
            if ad % n != 0 and n % ad != 0:
                raise AdmissibilityError(f"upcast<{n}>: stride {d} and {n} do not divide one another (mode of shape {s})")
            return ceil_div(s, ceil_div(n, ad)), signum(d) * ceil_div(ad, n)
        if divides(n, d):
            return s, simplify(d / n)
        raise SymbolicUndecidable(f"upcast<{n}>: cannot decide that {n} divides the symbolic stride {d}")

    return Layout.from_normalized(*_map_leaves(leaf, layout.shape, layout.stride))


def downcast(layout: Layout, n: int) -> Layout:
    """View ``layout`` in units ``n`` times smaller: stride-1 modes grow by ``n``, other strides multiply by ``n``.

    Pre:  n is a positive int; layout has a stride-1 mode.
    Post: R is layout in units n times smaller: the stride-1 mode grows by n, every other stride is
          multiplied by n; size(R) == n * size(layout).

    Requires a stride-1 mode (adjacent elements), as CuTe does.

    >>> print(downcast(Layout((8, 8), (8, 1)), 8))
    (8,64):(64,1)
    """
    comp = getattr(layout, "_downcast", None)
    if comp is not None and not isinstance(layout, Layout):
        return comp(n)
    layout = as_layout(layout, "downcast")
    refuse_coordinate_layout(layout, "downcast")
    n = _check_pos_int(n, "downcast")
    if 1 not in flatten(layout.stride) and -1 not in flatten(layout.stride):
        raise AdmissibilityError(f"downcast<{n}>: layout {layout} has no stride-1 mode (CuTe requires adjacent elements)")

    def leaf(s, d):
        if d == 1 or d == -1:
            return s * n, d
        return s, d * n

    return Layout.from_normalized(*_map_leaves(leaf, layout.shape, layout.stride))


def _map_leaves(leaf: Any, s: Any, d: Any) -> tuple[Any, Any]:
    """``leaf(shape, stride) -> (shape', stride')`` applied to every leaf mode of ``s:d``, the nesting kept.

    Pre:  ``s`` and ``d`` congruent.  Post: the new (shape, stride), congruent with ``s`` (``()`` stays ``()``).
    """
    if isinstance(s, tuple):
        return tuple(zip(*[_map_leaves(leaf, x, y) for x, y in zip(s, d)])) if s else ((), ())
    return leaf(s, d)


def recast(layout: Layout, old_bits: int, new_bits: int) -> Layout:
    """Reinterpret a layout of ``old_bits``-wide elements as ``new_bits``-wide ones (CuTe's ``recast_layout``).

    Pre:  old_bits, new_bits are positive ints; up/downcast by their ratio is admissible.
    Post: R is layout in new_bits-wide units (upcast by new/old, or downcast by old/new).

    >>> print(recast(Layout((8, 64), (64, 1)), 16, 128))
    (8,8):(8,1)
    >>> print(recast(Layout((8, 8), (8, 1)), 128, 16))
    (8,64):(64,1)
    """
    from math import gcd

    ob = _check_pos_int(old_bits, "recast")
    nb = _check_pos_int(new_bits, "recast")
    g = gcd(ob, nb)
    num, den = nb // g, ob // g
    if num == 1 and den == 1:
        return layout
    if num == 1:
        return downcast(layout, den)
    if den == 1:
        return upcast(layout, num)
    return downcast(upcast(layout, num), den)


# ------------------------------------------------------------------------------------------
# misc


def max_common_layout(a: Layout, b: Layout) -> Layout:
    """The layout of the largest run of contiguous elements on which ``a`` and ``b`` agree.

    Pre:  a and b have integer shapes and strides.
    Post: a(R(i)) == i and b(R(i)) == i for every i < size(R), and no larger layout has that
          property.

    >>> print(max_common_layout(Layout((4, 8), (1, 4)), Layout((4, 8), (1, 4))))
    32:1
    """
    for x, y in ((a, b), (b, a)):  # a swizzled operand (either side): CuTe's swizzle_layout.hpp
        hook = getattr(x, "_max_common_layout", None)
        if hook is not None and not isinstance(x, Layout):
            return hook(y)
    a = as_layout(a, "max_common_layout")
    b = as_layout(b, "max_common_layout")
    inv_b = right_inverse(b)
    common = coalesce(composition(a, inv_b))
    s0 = common.shape[0] if isinstance(common.shape, tuple) else common.shape
    d0 = common.stride[0] if isinstance(common.stride, tuple) else common.stride
    if d0 == 1:
        return composition(inv_b, Layout.from_normalized(s0, d0))
    return Layout.from_normalized(1, 0)


def max_common_vector(a: Layout, b: Layout) -> int:
    """Number of contiguous elements that ``a`` and ``b`` map identically (vector width).

    Pre:  a and b have integer shapes and strides.
    Post: the largest n with a(i) == b(i) == i for every i < n (1 when the layouts share no stride-1
          run).

    >>> max_common_vector(Layout((8, 8), (1, 8)), Layout((8, 8), (1, 8)))
    64
    >>> max_common_vector(Layout((8, 8), (1, 8)), Layout((8, 8), (8, 1)))
    1
    """
    for x, y in ((a, b), (b, a)):  # a swizzled operand (either side): CuTe's swizzle_layout.hpp
        hook = getattr(x, "_max_common_vector", None)
        if hook is not None and not isinstance(x, Layout):
            return hook(y)
    a = as_layout(a, "max_common_vector")
    b = as_layout(b, "max_common_vector")
    common = coalesce(composition(a, right_inverse(b)))
    s0 = common.shape[0] if isinstance(common.shape, tuple) else common.shape
    d0 = common.stride[0] if isinstance(common.stride, tuple) else common.stride
    return s0 if d0 == 1 else 1


def nullspace(layout: Layout) -> Layout:
    """The sub-layout of the stride-0 modes (indices that ``layout`` maps to 0).

    Pre:  any layout.
    Post: layout(R(i)) == 0 for every i < size(R); R covers every stride-0 mode of layout.

    >>> print(nullspace(Layout((4, 2, 3), (1, 0, 0))))
    (2,3):(4,8)
    """
    layout = as_layout(layout, "nullspace")
    fs, fd = flatten(layout.shape), flatten(layout.stride)
    pre = flatten(it.compact_col_major(fs))
    idx = [i for i, d in enumerate(fd) if d == 0]
    if not idx:
        return Layout.from_normalized(1, 0)
    s = tuple(fs[i] for i in idx)
    d = tuple(pre[i] for i in idx)
    return Layout.from_normalized(unwrap_single(s), unwrap_single(d))


# ------------------------------------------------------------------------------------------
# common domains, sums of layouts, tuple tilers as layouts


def greatest_common_domain(a: Any, b: Any) -> Layout:
    """The layout of the largest common domain of two shapes, walked in order (PyCuTe's).

    Pre:  a and b are layouts or shapes (only their shapes are used).
    Post: depth(R) <= 1; size(R) divides gcd(size(a), size(b)); composition(a, R) and
          composition(b, R) are admissible; symmetric in a and b. R(k) is the index at which the
          k-th common factor starts; no common factor gives 1:0.

    Both flat shapes are walked from the left at once; at each step the next index where both
    walks align is the lcm of their running extents, and the gcd of what is left of the two
    current leaves past that point (when both reach it) is the next common factor.

    >>> print(greatest_common_domain((5, 3, 4), (10, 6)))
    (5,2):(1,30)
    >>> print(greatest_common_domain((6, 35), (15, 14))), print(greatest_common_domain((5, 3), (3, 5)))
    (3,7):(1,30)
    1:0
    (None, None)
    """
    fa = [x for x in flatten(_shape_of(a, "greatest_common_domain")) if x != 1]
    fb = [x for x in flatten(_shape_of(b, "greatest_common_domain")) if x != 1]
    if 0 in fa or 0 in fb:
        raise LayoutValueError(f"greatest_common_domain({a}, {b}): a zero extent (a size-0 shape) has no common "
                               "domain to walk"[:400])
    rs: list = []
    rd: list = []
    ea = eb = 1  # where the current leaves of a and b start
    i = j = 0
    while i < len(fa) and j < len(fb):
        at = ea * eb // gcd(ea, eb)  # the first index both walks can start a factor at
        ra, rb = at // ea, at // eb
        if fa[i] % ra == 0 and fb[j] % rb == 0:
            g = gcd(fa[i] // ra, fb[j] // rb)
            if g != 1:
                rs.append(g)
                rd.append(at)
                fa[i] //= ra * g
                fb[j] //= rb * g
                ea = eb = at * g
                continue
        end_a, end_b = ea * fa[i], eb * fb[j]
        a_first, b_first = end_b % end_a == 0, end_a % end_b == 0
        if a_first or not b_first:
            ea, i = end_a, i + 1
        if b_first or not a_first:
            eb, j = end_b, j + 1
    if not rs:
        return Layout.from_normalized(1, 0)
    return Layout.from_normalized(rs[0], rd[0]) if len(rs) == 1 else Layout.from_normalized(tuple(rs), tuple(rd))


def gcd(x: int, y: int) -> int:
    """Greatest common divisor of two non-negative ints."""
    while y:
        x, y = y, x % y
    return x


def _shape_of(x: Any, who: str) -> Any:
    if isinstance(x, Layout) or hasattr(x, "shape") and not isinstance(x, (tuple, int, np.ndarray)):
        s = x.shape
    else:
        s = it.as_inttuple(x, who, "shape")
        validate_shape(s, who)
    if not all(type(v) is int for v in flatten(s)):
        raise SymbolicUndecidable(f"{who}: needs integer shapes, got {format_inttuple(s)} (subs() first)")
    return s


def _raw(layout: Layout, i: int) -> Any:
    """``layout(i)`` as a stride value: an int, an F2 value (XOR layouts), or the basis offset of a coordinate."""
    v = layout(i)
    if isinstance(v, tuple):
        return from_coord(v)
    if v and any(type(d) is F2 for d in layout.flat_modes()[1]):
        return F2(v)
    return v


def layout_add(a: Layout, b: Layout) -> Layout:
    """The layout R with R(i) == a(i) + b(i) for every index i (PyCuTe's ``layout_add``).

    Pre:  size(a) == size(b); the coalesced shapes of a and b refine one common domain of that
          size (greatest_common_domain of them has size(a)), so that both are linear on it.
    Post: size(R) == size(a) and R(i) == a(i) + b(i) for every i < size(R); symmetric; coalesced.
    Otherwise LayoutValueError (sizes) or AdmissibilityError (no common domain) names the values.

    Strides may be integers or basis elements (coordinates add componentwise).

    >>> print(layout_add(Layout((4, 3), (1, 4)), Layout((4, 3), (3, 1))))
    (4,3):(4,5)
    >>> print(layout_add(Layout(12, 2), Layout((4, 3), (3, 1))))
    (4,3):(5,9)
    >>> from pycute_layouts.core.basis import E
    >>> print(layout_add(Layout(8, E(0)), Layout(8, E(1))))
    8:1@0+1@1
    """
    if a is None or b is None:  # PyCuTe's identity operand
        return as_layout(b if a is None else a, "layout_add") if (a, b) != (None, None) else None
    a = as_layout(a, "layout_add")
    b = as_layout(b, "layout_add")
    if a.is_symbolic() or b.is_symbolic():
        raise SymbolicUndecidable(f"layout_add: needs integer shapes and strides, got {a} and {b} (subs() first)")
    if a.size() != b.size():
        raise LayoutValueError(f"layout_add: sizes differ: size({a}) = {a.size()} but size({b}) = {b.size()}")
    ca, cb = coalesce(a), coalesce(b)
    g = greatest_common_domain(ca, cb)
    if g.size() != a.size():
        raise AdmissibilityError(
            f"layout_add: {ca} and {cb} have no common domain of size {a.size()}: greatest_common_domain is {g} "
            f"(size {g.size()}), so no layout adds them"
        )
    gs = flatten(g.shape)
    gd = flatten(g.stride)
    rd = tuple(_raw(ca, k) + _raw(cb, k) for k in gd)
    r = Layout.from_normalized(gs, rd) if len(gs) > 1 else Layout.from_normalized(gs[0], rd[0])
    return coalesce(r)


def coalesce_z(layout: Layout) -> Layout:
    """Coalesce that keeps the layout's values beyond its size too (PyCuTe's ``coalesce_z``).

    Pre:  any layout with modes.
    Post: size(R) == size(layout), depth(R) <= 1 and R(i) == layout(i) for every integer i >= 0
          (CuTe's last mode extends); a trailing size-1 mode is kept unless its stride is what the
          mode before it extends to.

    ``coalesce`` drops a trailing size-1 mode, which changes the values past the size:
    ``coalesce((2,1):(1,5)) == 2:1`` maps 2 to 2, while ``(2,1):(1,5)`` maps 2 to 5.

    >>> print(coalesce_z(Layout((2, 1, 6, 1), (1, 7, 8, 0)))), print(coalesce(Layout((2, 1, 6, 1), (1, 7, 8, 0))))
    (2,6,1):(1,8,0)
    (2,6):(1,8)
    (None, None)
    >>> print(coalesce_z(Layout((2, 4, 1), (1, 2, 8))))
    8:1
    """
    layout = as_layout(layout, "coalesce_z")
    require_modes(layout, "coalesce_z")
    fs, fd = layout.flat_modes()
    if len(fs) == 1:
        return Layout.from_normalized(fs[0], fd[0])
    tail_one = fs[-1] == 1 if type(fs[-1]) is int else three_valued(is_eq, fs[-1], 1)
    if tail_one is False:
        return coalesce(layout)  # coalesce drops no trailing mode: the last mode extends as before
    tail_s, tail_d = fs[-1], fd[-1]
    head = coalesce(Layout.from_normalized(fs[:-1], fd[:-1]))
    hs = flatten(head.shape)
    hd = flatten(head.stride)
    last = hs[-1] * hd[-1]
    extends = last == tail_d if (type(last) is int and type(tail_d) is int) else _maybe_same(last, tail_d)
    if tail_one is not True:  # the tail's size is undecided: keep it as a mode unless it merges either way
        if extends:  # hs[-1]:hd[-1] followed by tail_s:tail_d is one mode, whatever tail_s is
            return Layout.from_normalized(hs[:-1] + (simplify(hs[-1] * tail_s),), hd) if len(hs) > 1 else \
                Layout.from_normalized(simplify(hs[0] * tail_s), hd[0])
        if hs == (1,):
            return Layout.from_normalized(tail_s, tail_d)
        return Layout.from_normalized(hs + (tail_s,), hd + (tail_d,))
    if hs == (1,):
        return Layout.from_normalized(1, tail_d)
    if extends:
        return head  # the last mode already extends with the tail's stride
    return Layout.from_normalized(hs + (1,), hd + (tail_d,))


def _maybe_same(x: Any, y: Any) -> bool:
    try:
        return is_eq(x, y)
    except SymbolicUndecidable:
        return False


def apply_at(op: Any, layout: Layout, mode: Any, *args: Any) -> Layout:
    """Apply ``op`` to one mode of ``layout`` and keep the others (PyCuTe's ``op[mode](layout, ...)``).

    Pre:  mode is a mode index or a path of them (outer first) naming a mode of layout; op maps a
          layout (and args) to a layout.
    Post: R[mode] == op(layout[mode], *args) and every other mode of R is that of layout.

    CuTe's by-mode tilers with ``_`` say the same for the top level:
    ``logical_divide(L, (_, t)) == apply_at(logical_divide, L, 1, t)``.

    >>> print(apply_at(composition, Layout((4, 6), (1, 4)), 1, Layout(3, 2)))
    (4,3):(1,8)
    >>> print(apply_at(logical_divide, Layout((3, 8)), 1, Layout(4, 2)))
    (3,(4,2)):(1,(6,3))
    >>> print(apply_at(coalesce, Layout((3, (2, 6)), (1, (3, 6))), 1))
    (3,12):(1,3)
    """
    if not callable(op):
        raise LayoutTypeError(f"apply_at: op must be callable, got {fmt(op)}")
    layout = as_layout(layout, "apply_at")
    path = (mode,) if type(mode) is int else tuple(mode) if isinstance(mode, (tuple, list)) else None
    if not path or not all(type(k) is int for k in path):
        raise LayoutTypeError(f"apply_at: mode must be an int or a non-empty tuple of ints, got {fmt(mode)}")
    return _replace_at(layout, path, op, args)


def _replace_at(layout: Layout, path: tuple, op: Any, args: tuple) -> Layout:
    k = path[0]
    r = layout.rank()
    if not 0 <= k < r or (r == 1 and not isinstance(layout.shape, tuple) and len(path) > 1):
        raise LayoutValueError(f"apply_at: mode {k} does not exist in the rank-{r} layout {layout}")
    sub = layout[k]
    new = op(sub, *args) if len(path) == 1 else _replace_at(sub, path[1:], op, args)
    if not isinstance(new, Layout):
        raise LayoutTypeError(f"apply_at: op returned {fmt(new)}, not a Layout")
    if not isinstance(layout.shape, tuple):
        return new
    ss = list(layout.shape)
    dd = list(layout.stride)
    ss[k], dd[k] = new.shape, new.stride
    return Layout.from_normalized(tuple(ss), tuple(dd))


def make_layout_tv(thr_layout: Layout, val_layout: Layout) -> tuple[Any, Layout]:
    """CuTe's ``make_layout_tv(thr, val)``: ``(tiler_mn, layout_tv)`` for threads ``thr`` each holding ``val``.

    Pre:  thr and val are integer layouts of the same rank (``thr`` maps a thread's coordinate to its
          thread index, ``val`` a value's coordinate to its index), as for ``raked_product``.
    Post: ``layout_mn = raked_product(thr, val)``; ``tiler_mn`` its shape, mode by mode; ``layout_tv =
          right_inverse(layout_mn)`` with shape ``(size(thr), size(val))``: (thread, value) -> index in the tile.

    A thread-value layout for ``make_tiled_copy``: 32 threads as 4 x 8 (row-major), 4 values each.

    >>> tiler, tv = make_layout_tv(Layout((4, 8), (8, 1)), Layout((1, 4)))
    >>> tiler, str(tv)
    ((4, 32), '((8,4),4):((16,1),4)')
    """
    thr, val = as_layout(thr_layout, "make_layout_tv"), as_layout(val_layout, "make_layout_tv")
    layout_mn = raked_product(thr, val)
    tiler = it.product_each(layout_mn.shape)
    tv = composition(right_inverse(layout_mn), make_layout((thr.size(), val.size())))
    return tiler, tv

