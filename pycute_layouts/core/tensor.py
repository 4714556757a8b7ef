"""Tensors: an engine (a numpy array, or no storage at all) viewed through a layout.

A :class:`Tensor` is CuTe's ``Tensor<Engine, Layout>``: element ``c`` lives at
``engine[offset + layout(c)]``. A *coordinate tensor* (CuTe's ``make_identity_tensor``) has no
storage: its layout has basis strides and element ``c`` *is* a coordinate, ``base + layout(c)``.
Partitioning a coordinate tensor exactly like the data tensor tells which coordinates of the
whole problem each thread touches, so bounds checks are a comparison (``elem_less``, in ``core.tuples``).

Slicing (``T(_, 3)``), ``local_tile``, ``local_partition``, ``logical_divide``/``zipped_divide``/
``flat_divide`` and ``recast`` act on the layout and keep the engine, as in CuTe.

>>> import numpy as np
>>> A = make_tensor(np.arange(32, dtype=np.int32), Layout((4, 8), (8, 1)))
>>> A(1, 2), A(_, 2).to_numpy().tolist()
(10, [2, 10, 18, 26])
>>> C = make_identity_tensor((4, 8))
>>> C(1, 2), C(_, 2)(3)
((1, 2), (3, 2))
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import CoordinateError, LayoutTypeError, LayoutValueError
from ..limits import MAX_EVAL_POINTS, MAX_TABLE_CELLS, check_budget, check_count, fmt
from . import inttuple as it
from .algebra import composition
from .basis import ScaledBasis, from_coord, to_coord
from .display import rich_repr
from .inttuple import flatten, format_inttuple, product_each
from .layout import Layout, Underscore, _, make_identity_layout, slice_and_offset
from .tiling import flat_divide, logical_divide, recast, zipped_divide

__all__ = [
    "Tensor",
    "make_tensor",
    "make_identity_tensor",
    "local_tile",
    "local_partition",
    "tensor_divide",
    "recast_tensor",
    "print_tensor",
]


def _has_underscore(c: Any) -> bool:
    if isinstance(c, Underscore):
        return True
    return isinstance(c, tuple) and any(_has_underscore(x) for x in c)


def _raw(v: Any) -> Any:
    """A layout value as an offset: an int, or the basis offset of a coordinate."""
    return from_coord(v) if isinstance(v, tuple) else v


class Tensor:
    """An engine (1-D numpy array, or None for a coordinate tensor) with a layout and an offset.

    ``offset`` is an int into the engine, or (coordinate tensor) a basis offset; ``profile`` is
    the coordinate profile of the values of a coordinate tensor (None for a data tensor).

    >>> T = make_tensor(np.arange(6), Layout((2, 3)))
    >>> T.shape, T(1, 2), T[1, 2]
    ((2, 3), 5, 5)
    """

    __slots__ = ("engine", "layout", "offset", "profile")
    _layout_like = True  # rank/depth/size/shape/stride/cosize (free functions) are those of the layout

    def _repr_html_(self) -> str | None:
        """IPython's display protocol: a table (see :mod:`pycute_layouts.core.display`), or None for text."""
        return rich_repr(self, "html")

    def __init__(self, engine: np.ndarray | None, layout: Layout, offset: Any = 0, profile: Any = None):
        if not isinstance(layout, Layout):
            raise LayoutTypeError(f"Tensor: expected a Layout, got {fmt(layout)}")
        if engine is None and profile is None:
            raise LayoutValueError("Tensor: a tensor without an engine is a coordinate tensor and needs a profile")
        if engine is not None and (not isinstance(engine, np.ndarray) or engine.ndim != 1):
            raise LayoutTypeError(f"Tensor: the engine must be a 1-D numpy array, got {type(engine).__name__}")
        if engine is not None:
            offset = check_count("Tensor", "offset", offset, None)
            if layout.coord_profile() is not None:
                raise LayoutTypeError(f"Tensor: {layout} has basis strides; a data tensor needs integer offsets")
            if profile is not None:
                raise LayoutTypeError(f"Tensor: a data tensor has no coordinate profile, got {fmt(profile)}")
        else:
            if type(offset) is not ScaledBasis:
                offset = check_count("Tensor", "offset", offset, None)
            it.check_inttuple(profile, "Tensor", "profile")
        self.engine = engine
        self.layout = layout
        self.offset = offset
        self.profile = profile

    @property
    def shape(self) -> Any:
        """The layout's shape.

        >>> make_tensor(np.arange(6), Layout((2, 3))).shape
        (2, 3)
        """
        return self.layout.shape

    def size(self) -> Any:
        """Number of elements (the layout's size).

        >>> make_tensor(np.arange(6), Layout((2, 3))).size()
        6
        """
        return self.layout.size()

    def rank(self) -> int:
        """Number of top-level modes.

        >>> make_identity_tensor(((2, 3), 4)).rank()
        2
        """
        return self.layout.rank()

    def depth(self) -> int:
        """Nesting depth of the layout's shape.

        >>> make_identity_tensor(((2, 3), 4)).depth()
        2
        """
        return self.layout.depth()

    @property
    def stride(self) -> Any:
        """The layout's stride (basis strides for a coordinate tensor).

        >>> make_tensor(np.arange(6), Layout((2, 3), (3, 1))).stride
        (3, 1)
        """
        return self.layout.stride

    def cosize(self) -> Any:
        """The layout's cosize: the engine elements a data tensor spans (CuTe's ``cosize(tensor)``).

        >>> make_tensor(np.arange(8), Layout((2, 2), (4, 1))).cosize()
        6
        """
        return self.layout.cosize()

    # -- the algebra on the layout (CuTe's tensor_impl.hpp: coalesce, filter, composition, the divides)
    def _apply_to_inner(self, fn: Any, *args: Any, **kwargs: Any) -> Tensor:
        name = getattr(fn, "__name__", "")
        if name not in _TENSOR_LAYOUT_OPS:
            raise LayoutTypeError(f"{name}: not defined for a Tensor (CuTe defines {', '.join(sorted(_TENSOR_LAYOUT_OPS))} "
                                  "on a tensor's layout); apply it to T.layout")
        return self._with(fn(self.layout, *args, **kwargs))

    def _compose_with(self, tiler: Any) -> Tensor:
        return self._with(composition(self.layout, tiler))

    def is_coordinate(self) -> bool:
        """True for a coordinate tensor (no storage; its elements are coordinates).

        >>> make_identity_tensor((2, 3)).is_coordinate(), make_tensor(np.arange(6), Layout((2, 3))).is_coordinate()
        (True, False)
        """
        return self.engine is None

    def _with(self, layout: Layout, extra: Any = 0) -> Tensor:
        return Tensor(self.engine, layout, self.offset + _raw(extra), self.profile)

    def _value(self, off: Any) -> Any:
        if self.engine is None:
            return to_coord(self.offset + _raw(off), self.profile)
        k = self.offset + off
        if not 0 <= k < self.engine.shape[0]:
            raise CoordinateError(f"Tensor: offset {k} is outside the engine of {self.engine.shape[0]} elements")
        return self.engine[k].item()

    def __call__(self, *coord: Any) -> Any:
        c = coord[0] if len(coord) == 1 else tuple(coord)
        if _has_underscore(c):
            sub, off = slice_and_offset(c, self.layout)
            return self._with(sub, off)
        return self._value(self.layout(c))

    def __getitem__(self, key: Any) -> Any:
        return self(key)

    def __setitem__(self, key: Any, value: Any) -> None:
        """``T[c] = v`` writes the engine (CuTe's ``T(c) = v``); with ``_`` in ``c``, every element of the slice.

        Views (slices, divides, partitions) share the engine, so a write through one is seen by all.
        A slice takes a scalar or an array of its size, in its index order.

        >>> A = np.zeros(6, dtype=np.int32); T = make_tensor(A, Layout((2, 3), (3, 1)))
        >>> T[1, 2] = 7; T[0, _] = 5; A.tolist()
        [5, 5, 5, 0, 0, 7]
        """
        if self.engine is None:
            raise LayoutTypeError("Tensor: a coordinate tensor has no storage to write")
        if not self.engine.flags.writeable:
            raise LayoutValueError("Tensor: the engine is a read-only numpy array")
        if _has_underscore(key):
            sub = self(key)
            offs = sub.offsets()
            n = self.engine.shape[0]
            if offs.size and (offs.min() < 0 or offs.max() >= n):
                raise CoordinateError(f"Tensor: the slice {fmt(key)} reaches outside the engine of {n} elements"[:200])
            vals = np.asarray(value)
            if vals.ndim and vals.reshape(-1).shape[0] != offs.shape[0]:
                raise LayoutValueError(f"Tensor: {vals.reshape(-1).shape[0]} values for a slice of {offs.shape[0]} "
                                       "elements")
            self.engine[offs] = vals.reshape(-1) if vals.ndim else vals
            return
        k = self.offset + self.layout(key)
        if not 0 <= k < self.engine.shape[0]:
            raise CoordinateError(f"Tensor: offset {k} is outside the engine of {self.engine.shape[0]} elements")
        self.engine[k] = value

    def __iter__(self) -> Any:
        """The elements in index order, ``T(0), T(1), ..., T(size(T) - 1)``: CuTe's loop over the layout's domain
        (``for i < size(T)``), not over the engine, and never past the size (where ``T(i)`` is still defined).

        Pre:  the size is a concrete int of at most ``MAX_EVAL_POINTS`` (else LayoutValueError, before the first element).

        >>> list(make_tensor(np.arange(32), Layout(4, 2)))
        [0, 2, 4, 6]
        >>> list(make_identity_tensor((2, 2)))
        [(0, 0), (1, 0), (0, 1), (1, 1)]
        """
        n = self.layout.size()
        check_budget("Tensor.__iter__", f"the tensor {fmt(self)}", n, MAX_EVAL_POINTS)
        return (self(i) for i in range(n))

    def offsets(self) -> np.ndarray:
        """Engine index of every element, in the layout's index order (data tensors).

        >>> make_tensor(np.arange(8), Layout((2, 2), (4, 1))).offsets().tolist()
        [0, 4, 1, 5]
        """
        if self.engine is None:
            raise LayoutTypeError("Tensor.offsets: a coordinate tensor has no engine; use to_numpy()")
        return self.offset + self.layout.to_numpy()

    def to_numpy(self) -> np.ndarray:
        """The elements in index order: values of a data tensor, or one row of coordinates per element.

        >>> make_identity_tensor((2, 2)).to_numpy().tolist()
        [[0, 0], [1, 0], [0, 1], [1, 1]]
        """
        if self.engine is not None:
            return self.engine[self.offsets()]
        base = np.array(flatten(to_coord(self.offset, self.profile)), dtype=np.int64)
        vals = self.layout.to_numpy()
        if self.layout.coord_profile() is None:  # every stride 0: each element is the base
            return np.tile(base, (vals.shape[0], 1))
        cols = _columns(self.layout, self.profile, vals)
        return cols + base[None, :]

    def __str__(self) -> str:
        if self.engine is None:
            return f"ArithTuple{format_inttuple(to_coord(self.offset, self.profile))} o {self.layout}"
        bits = self.engine.dtype.itemsize * 8
        return f"ptr[{bits}b]({self.offset}) o {self.layout}"

    def __repr__(self) -> str:
        return f"Tensor({self})"


#: The layout operations CuTe defines on a tensor (tensor_impl.hpp): the result views the same engine.
_TENSOR_LAYOUT_OPS = frozenset({"coalesce", "filter", "logical_divide", "zipped_divide", "tiled_divide", "flat_divide"})


def _columns(layout: Layout, profile: Any, vals: np.ndarray) -> np.ndarray:
    """The columns of a coordinate layout's values placed at their components' slots of ``profile``."""
    full = flatten(it.unflatten(tuple(range(len(flatten(profile)))), profile) if isinstance(profile, tuple) else 0)
    paths = _paths(profile, ())
    own = _paths(layout.coord_profile(), ())
    out = np.zeros((vals.shape[0], len(full)), dtype=np.int64)
    for j, p in enumerate(own):
        if p in paths:
            out[:, paths.index(p)] = vals[:, j]
        elif vals[:, j].any():
            raise LayoutValueError(f"Tensor: the component {p} of {layout} lies outside the profile {profile}")
    return out


def _paths(profile: Any, path: tuple) -> list:
    if isinstance(profile, tuple):
        out: list = []
        for i, p in enumerate(profile):
            out.extend(_paths(p, path + (i,)))
        return out
    return [path]


def make_tensor(engine: Any, layout: Layout | None = None, *, dtype: Any = None) -> Tensor:
    """A data tensor: ``engine`` viewed through ``layout`` (CuTe's ``make_tensor``).

    Pre:  engine is a numpy array; with a layout, a 1-D one whose length covers cosize(layout);
          without, a C-contiguous n-D array (its layout is then row-major over its shape).
          Or (CuTe's owning ``make_tensor<T>(layout)`` / ``make_tensor<T>(shape)``) engine is a
          Layout with non-negative integer strides, or a shape (its compact column-major layout),
          and ``dtype`` a numpy numeric dtype (default float64): the engine is then a new zero-filled
          array of cosize(layout) elements (at most MAX_EVAL_POINTS).
    Post: T(c) == engine.reshape(-1)[layout(c)].

    >>> T = make_tensor(np.arange(12).reshape(3, 4))
    >>> print(T.layout), T(2, 1)
    (3,4):(4,1)
    (None, 9)
    >>> T = make_tensor(Layout((2, 3), (3, 1)), dtype=np.int32); T[1, 2] = 7
    >>> T.engine.tolist(), print(make_tensor((3, 5)).layout)
    (3,5):(1,3)
    ([0, 0, 0, 0, 0, 7], None)
    """
    if layout is None and not isinstance(engine, np.ndarray) and (isinstance(engine, (Layout, tuple, int))
                                                                   and type(engine) is not bool):
        return _owning_tensor(engine, dtype)
    if dtype is not None:
        raise LayoutTypeError("make_tensor: dtype is for an owning tensor (make_tensor(layout, dtype=...)); "
                              "a given engine keeps its own dtype")
    if not isinstance(engine, np.ndarray):
        raise LayoutTypeError(f"make_tensor: the engine must be a numpy array, got {type(engine).__name__}")
    if layout is None:
        if not engine.flags.c_contiguous or engine.ndim == 0:
            raise LayoutValueError("make_tensor: without a layout the array must be C-contiguous with at least one axis")
        shape_ = tuple(int(x) for x in engine.shape)
        layout = Layout(shape_[0] if len(shape_) == 1 else shape_, it.compact_row_major(shape_) if len(shape_) > 1 else 1)
        return Tensor(engine.reshape(-1), layout)
    if not isinstance(layout, Layout):
        raise LayoutTypeError(f"make_tensor: expected a Layout, got {fmt(layout)}")
    if layout.coord_profile() is not None:
        raise LayoutTypeError(f"make_tensor: {layout} has basis strides; a data tensor needs integer offsets")
    if engine.ndim != 1:
        raise LayoutValueError(f"make_tensor: with a layout the engine must be 1-D, got shape {engine.shape}")
    if layout.cosize() > engine.shape[0]:
        raise LayoutValueError(f"make_tensor: cosize({layout}) = {layout.cosize()} exceeds the {engine.shape[0]} elements")
    return Tensor(engine, layout)


def _owning_tensor(layout: Any, dtype: Any) -> Tensor:
    """CuTe's ``make_tensor<T>(layout)``: a zero-filled engine of cosize(layout) elements viewed through layout."""
    who = "make_tensor"
    d = _numeric_dtype(np.float64 if dtype is None else dtype, who)
    if not isinstance(layout, Layout):
        it.check_inttuple(layout, who, "shape")
        it.validate_shape(layout, who)
        layout = Layout(layout)
    if layout.coord_profile() is not None:
        raise LayoutTypeError(f"{who}: {layout} has basis strides; a data tensor needs integer offsets")
    fs, fd = layout.flat_modes()
    for x in fs + fd:
        if type(x) is not int:
            raise LayoutValueError(f"{who}: an owning tensor needs integer shapes and strides to allocate, got {layout}")
    if any(x < 0 for x in fd):
        raise LayoutValueError(f"{who}: an owning tensor needs non-negative strides (offsets into a new engine), "
                               f"got {layout}")
    n = layout.cosize()
    check_budget(who, f"cosize of the layout {layout}", n, MAX_EVAL_POINTS)
    return Tensor(np.zeros(n, dtype=d), layout)


def make_identity_tensor(shape_: Any) -> Tensor:
    """A coordinate tensor: element ``c`` is the coordinate ``c`` itself (CuTe's ``make_identity_tensor``).

    Pre:  shape is an IntTuple of non-negative leaves (a zero extent gives a size-0 layout).
    Post: T(c) == c; T.layout == make_identity_layout(shape).

    >>> T = make_identity_tensor((4, 8))
    >>> print(T)
    ArithTuple(0,0) o (4,8):(1@0,1@1)
    >>> T(9)
    (1, 2)
    """
    layout = make_identity_layout(shape_)
    profile = layout.coord_profile()
    if profile is None:  # an integer shape: coordinates are the indices themselves
        return Tensor(None, Layout.from_normalized(layout.shape, ScaledBasis(((0,), 1))), 0, (0,))
    return Tensor(None, layout, 0, profile)


def _as_tensor(t: Any, who: str) -> Tensor:
    if not isinstance(t, Tensor):
        raise LayoutTypeError(f"{who}: expected a Tensor, got {fmt(t)} ({type(t).__name__})")
    return t


def tensor_divide(t: Tensor, tiler: Any, kind: str = "zipped") -> Tensor:
    """``logical``/``zipped``/``flat`` divide of a tensor's layout by ``tiler``; the engine is kept.

    >>> T = tensor_divide(make_identity_tensor((8, 8)), (2, 4))
    >>> print(T.layout)
    ((2,4),(4,2)):((1@0,1@1),(2@0,4@1))
    """
    t = _as_tensor(t, "tensor_divide")
    ops = {"logical": logical_divide, "zipped": zipped_divide, "flat": flat_divide}
    if not isinstance(kind, str) or kind not in ops:
        raise LayoutValueError(f"tensor_divide: kind must be one of {sorted(ops)}, got {fmt(kind)}")
    return t._with(ops[kind](t.layout, tiler))


def local_tile(t: Tensor, tiler: Any, coord: Any) -> Tensor:
    """The tile at ``coord`` of the tiles ``tiler`` cuts ``t`` into (CuTe's ``local_tile``).

    Pre:  tiler is a tuple of tile sizes (or layouts) of t's first modes; coord is a coordinate of the
          grid of tiles, one entry per mode of tiler.
    Post: R == zipped_divide(t, tiler)(_, coord): a tensor of the tile's shape.

    >>> C = local_tile(make_identity_tensor((16, 16)), (4, 8), (1, 1))
    >>> print(C.layout), C(0, 0)
    (4,8):(1@0,1@1)
    (None, (4, 8))
    """
    t = _as_tensor(t, "local_tile")
    z = zipped_divide(t.layout, tiler)
    if z.rank() != 2:
        raise LayoutValueError(f"local_tile: zipped_divide gave the rank-{z.rank()} layout {z}; expected (tile, rest)")
    sub, off = slice_and_offset((_, coord), z)
    return t._with(sub, off)


def local_partition(t: Tensor, thr_layout: Layout, thr_idx: int) -> Tensor:
    """The elements of ``t`` that thread ``thr_idx`` of ``thr_layout`` owns (CuTe's ``local_partition``).

    Pre:  thr_layout is an injective integer layout whose modes tile t's first modes;
          0 <= thr_idx < size(thr_layout).
    Post: R == zipped_divide(t, product_each(shape(thr_layout)))(c, _) where c is the coordinate of
          thr_idx in thr_layout; the partitions of all threads are disjoint and cover t.

    >>> P = local_partition(make_identity_tensor((16, 16)), Layout((4, 8)), 3)
    >>> print(P.layout), P(0), P(1)
    (4,2):(4@0,8@1)
    (None, (3, 0), (7, 0))
    """
    t = _as_tensor(t, "local_partition")
    if not isinstance(thr_layout, Layout) or thr_layout.coord_profile() is not None:
        raise LayoutTypeError(f"local_partition: the thread layout must be an integer Layout, got {fmt(thr_layout)}")
    n = thr_layout.size()
    if type(thr_idx) is not int or not 0 <= thr_idx < n:
        raise CoordinateError(f"local_partition: thread index {fmt(thr_idx)} is out of range [0, {fmt(n)})")
    tiler = product_each(thr_layout.shape)
    crd = _thread_coord(thr_idx, thr_layout)
    per_mode = tuple(it.crd2idx(c, s) for c, s in zip(crd, thr_layout.shape)) if isinstance(crd, tuple) else (crd,)
    z = zipped_divide(t.layout, tiler)
    if z.rank() != 2:
        raise LayoutValueError(f"local_partition: zipped_divide gave the rank-{z.rank()} layout {z}; expected (tile, rest)")
    sub, off = slice_and_offset((per_mode if len(per_mode) > 1 else per_mode[0], _), z)
    return t._with(sub, off)


def _thread_coord(idx: int, layout: Layout) -> Any:
    """CuTe's ``get_hier_coord``: ``(idx // d) % s`` at each leaf ``s:d`` (0 for a size-1 leaf)."""
    fs, fd = layout.flat_modes()
    flat = []
    for s_, d in zip(fs, fd):
        if s_ == 1:
            flat.append(0)
        elif type(d) is not int or d <= 0:
            raise LayoutValueError(f"local_partition: the thread layout {layout} needs positive strides, got {d}")
        else:
            flat.append((idx // d) % s_)
    return it.unflatten(tuple(flat), layout.shape) if isinstance(layout.shape, tuple) else flat[0]


def recast_tensor(t: Tensor, dtype: Any) -> Tensor:
    """The same bytes viewed as ``dtype`` (CuTe's ``recast<T>``): engine and layout recast together.

    Pre:  t is a data tensor; its layout recasts from the old element width to the new one.
    Post: the engine is engine.view(dtype); the layout is recast(layout, old_bits, new_bits).

    >>> T = make_tensor(np.arange(8, dtype=np.uint16), Layout((2, 4), (4, 1)))
    >>> R = recast_tensor(T, np.uint32)
    >>> print(R.layout), hex(R(1, 0))
    (2,2):(2,1)
    (None, '0x50004')
    """
    t = _as_tensor(t, "recast_tensor")
    if t.engine is None:
        raise LayoutTypeError("recast_tensor: a coordinate tensor has no bytes to recast")
    old_bits = t.engine.dtype.itemsize * 8
    new_dtype = _numeric_dtype(dtype, "recast_tensor")
    new_bits = new_dtype.itemsize * 8
    if (t.offset * old_bits) % new_bits:
        raise LayoutValueError(f"recast_tensor: offset {t.offset} x {old_bits} bits is not a multiple of {new_bits} bits")
    usable = (t.engine.shape[0] * old_bits // new_bits) * new_bits // old_bits
    engine = t.engine[:usable].view(new_dtype)
    return Tensor(engine, recast(t.layout, old_bits, new_bits), t.offset * old_bits // new_bits)


def _numeric_dtype(dtype: Any, who: str) -> np.dtype:
    """``dtype`` as a numpy numeric dtype (bool, int, uint, float, complex), or LayoutTypeError naming it."""
    if not isinstance(dtype, (str, type, np.dtype)) or isinstance(dtype, str) and not dtype.isidentifier():
        raise LayoutTypeError(f"{who}: dtype must be a numpy numeric dtype or its name, got {fmt(dtype)}")
    try:
        d = np.dtype(dtype)
    except Exception:  # noqa: BLE001 - numpy raises TypeError, ValueError, SyntaxError ... for names it does not know
        raise LayoutTypeError(f"{who}: dtype must be a numpy numeric dtype or its name, got {fmt(dtype)}") from None
    if d.kind not in "biufc" or d.itemsize == 0:
        raise LayoutTypeError(f"{who}: dtype must be a numeric dtype (bool, int, uint, float, complex), got {d}")
    return d


def _pretty(v: Any, double: bool = False) -> str:
    """CuTe's ``pretty_print``: ints ``%5d``, floats ``%10.2e``, doubles ``%11.3e``, coordinates as tuples."""
    if isinstance(v, tuple):
        return " " + format_inttuple(v)
    if isinstance(v, float):
        return f"{v:11.3e}" if double else f"{v:10.2e}"
    return f"{v:5d}"


def print_tensor(t: Tensor) -> str:
    """CuTe's ``print_tensor``: the tensor, ``:``, then its elements (rank 1: one per line; rank 2: rows; 3, 4: tables).

    Returns the text (and prints nothing), so that it can be shown or compared.

    >>> print(print_tensor(make_tensor(np.arange(6, dtype=np.int32), Layout((2, 3), (3, 1)))))
    ptr[32b](0) o (2,3):(3,1):
        0    1    2
        3    4    5
    >>> print(print_tensor(make_tensor(np.arange(8, dtype=np.int32), Layout((2, 2, 2)))))
    ptr[32b](0) o (2,2,2):(1,2,4):
        0    2
        1    3
    ----------
        4    6
        5    7
    """
    t = _as_tensor(t, "print_tensor")
    check_budget("print_tensor", f"the tensor {fmt(t)}", t.size(), MAX_TABLE_CELLS)
    return "\n".join([f"{t}:"] + _tensor_rows(t))


def _tensor_rows(t: Tensor) -> list[str]:
    """CuTe's element rows: rank 1 one per line, rank 2 a table, ranks 3 and 4 tables of the last mode(s)
    separated by a line of ``-`` (rank 3) or ``=`` (rank 4), ``5 * size<1>`` long."""
    r = t.rank()
    dbl = t.engine is not None and t.engine.dtype == np.float64
    if r == 1:
        return [_pretty(t(m), dbl) for m in range(t.size())]
    if r == 2:
        m_n = t.layout[0].size(), t.layout[1].size()
        return ["".join(_pretty(t(m, n), dbl) for n in range(m_n[1])) for m in range(m_n[0])]
    if r in (3, 4):
        sep = ("-" if r == 3 else "=") * (5 * t.layout[1].size())
        out: list = []
        for k in range(t.layout[r - 1].size()):
            if k:
                out.append(sep)
            out += _tensor_rows(t(*([_] * (r - 1)), k))
        return out
    raise LayoutValueError(f"print_tensor: rank {r} is not printed (CuTe prints ranks 1 to 4)")
