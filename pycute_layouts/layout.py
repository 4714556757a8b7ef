"""CuTe layouts: ``Shape:Stride`` functions from coordinates to offsets, and their algebra.

A :class:`Layout` pairs a hierarchical shape with a congruent stride. It maps a coordinate
``c`` (an integer index, a flat coordinate or a hierarchical one) to ``sum(c_i * d_i)``::

    (8,4):(4,1)            row-major 8x4:   (i, j) -> 4*i + j
    ((8,2),(4,4)):((4,32),(1,64))

The algebra is CuTe's (``include/cute/layout.hpp``), which is the reference here, not pycute:

* ``coalesce`` merges modes without changing the function; ``filter`` also drops stride-0 modes.
* ``composition(A, B)`` is the layout ``R`` with ``R(c) == A(B(c))``; admissible when B's strides
  and sizes walk through A's modes with the divisibility conditions below.
* ``complement(A, M)`` is the layout that fills the gaps of an injective ``A`` up to ``M``.
* ``right_inverse``/``left_inverse``, ``logical_divide`` and friends (``zipped``, ``tiled``,
  ``flat``), ``logical_product`` and friends (``blocked``, ``raked``), ``tile_to_shape``,
  ``upcast``/``downcast``/``recast``, ``max_common_vector``.

Admissibility. Where CuTe C++ only checks a condition at compile time, or checks a weaker one
and silently returns a layout that is not ``A o B`` (e.g. ``composition((3,4):(1,5), 4:2)``),
this module raises :class:`AdmissibilityError` naming the mode, the stride and the shape.
``docs/differences.md`` lists each such case.

>>> L = Layout(((8, 2), (4, 4)), ((4, 32), (1, 64)))
>>> print(L)
((8,2),(4,4)):((4,32),(1,64))
>>> L(11, 5), L((3, 1), (1, 1)), L(91)
(109, 109, 109)
>>> print(composition(Layout((6, 2), (8, 2)), Layout((4, 3), (3, 1))))
((2,2),3):((24,2),8)
>>> print(complement(Layout(4, 2), 16))
(2,2):(1,8)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from . import inttuple as it
from .errors import (
    AdmissibilityError,
    CongruenceError,
    CoordinateError,
    LayoutError,
    LayoutTypeError,
    LayoutValueError,
    SymbolicUndecidable,
)
from .inttuple import (
    ceil_div,
    divides,
    flatten,
    is_eq,
    is_lt,
    product,
    signum,
    smin,
)

__all__ = [
    "Layout",
    "Underscore",
    "_",
    "make_layout",
    "size",
    "cosize",
    "rank",
    "depth",
    "shape",
    "stride",
    "coalesce",
    "filter",
    "composition",
    "complement",
    "right_inverse",
    "left_inverse",
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
    "tile_to_shape",
    "upcast",
    "downcast",
    "recast",
    "max_common_vector",
    "max_common_layout",
    "make_ordered_layout",
    "make_identity_layout",
    "IdentityLayout",
    "slice_and_offset",
    "nullspace",
    "format_inttuple",
]


# ------------------------------------------------------------------------------------------
# Underscore


class Underscore:
    """CuTe's ``_``: "keep this mode" in a slice, "leave this mode alone" in a tiler.

    >>> from pycute_layouts import _
    >>> _
    _
    """

    _instance: Underscore | None = None

    def __new__(cls) -> Underscore:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "_"

    def __reduce__(self):
        return (Underscore, ())


_ = Underscore()


def _has_underscore(c: Any) -> bool:
    if c is _:
        return True
    if isinstance(c, tuple):
        return any(_has_underscore(e) for e in c)
    return False


# ------------------------------------------------------------------------------------------
# dispatch for ComposedLayout (its operations act on the inner layout, as in CuTe)


def _inner_aware(fn):
    """Let ``fn(layout, ...)`` accept a ComposedLayout by applying ``fn`` to its inner layout."""
    import functools

    @functools.wraps(fn)
    def wrapper(layout, *args, **kwargs):
        if type(layout) is Layout:
            return fn(layout, *args, **kwargs)
        hook = getattr(layout, "_apply_to_inner", None)
        if hook is not None and not isinstance(layout, Layout):
            return hook(fn, *args, **kwargs)
        return fn(layout, *args, **kwargs)

    return wrapper


# ------------------------------------------------------------------------------------------
# printing


def format_inttuple(t: Any) -> str:
    """Print an IntTuple the way CuTe does: ``(8,(2,4))``; sympy leaves without spaces.

    >>> format_inttuple(((8, 2), 4)), format_inttuple((4,)), format_inttuple(())
    ('((8,2),4)', '(4)', '()')
    """
    if type(t) is int:
        return str(t)
    if isinstance(t, tuple):
        return "(" + ",".join(format_inttuple(e) for e in t) + ")"
    return str(t).replace(" ", "")


# ------------------------------------------------------------------------------------------
# Layout

_new = object.__new__


def _fast_flat_nested(s: tuple, d: tuple) -> tuple[tuple, tuple] | None:
    """``(flatten(s), flatten(d))`` when ``s``, ``d`` (tuples of equal length) are congruent nested tuples of
    plain ints with positive shapes (what ``Layout(shape, stride)`` accepts as is); None otherwise."""
    fs: list = []
    fd: list = []
    if _fast_flat_into(s, d, fs, fd):
        return tuple(fs), tuple(fd)
    return None


def _fast_flat_into(s: tuple, d: tuple, fs: list, fd: list) -> bool:
    i = 0
    for x in s:
        y = d[i]
        i += 1
        if type(x) is int:
            if type(y) is not int or x <= 0:
                return False
            fs.append(x)
            fd.append(y)
        elif type(x) is not tuple or type(y) is not tuple or len(x) != len(y) or not _fast_flat_into(x, y, fs, fd):
            return False
    return True


def _validate_shape_leaf(s: Any, who: str) -> None:
    if type(s) is int:
        if s <= 0:
            raise LayoutValueError(f"{who}: shape leaves must be positive (zero-size modes are not allowed), got {s}")
        return
    if s.is_positive is False:
        raise LayoutValueError(f"{who}: shape leaf {s} is not positive")


def _validate_shape(s: Any, who: str) -> None:
    if isinstance(s, tuple):
        for e in s:
            _validate_shape(e, who)
    else:
        _validate_shape_leaf(s, who)


class Layout:
    """A CuTe layout ``shape:stride`` (immutable, hashable).

    ``Layout(shape)`` uses CuTe's default compact column-major strides. ``Layout("(8,4):(4,1)")``
    parses CuTe notation. Shapes and strides are nested tuples of ints or sympy expressions.

    Call it with a linear index, a flat coordinate, or a hierarchical coordinate; a coordinate
    containing ``_`` slices (the sub-layout; ``slice_and_offset`` also gives the offset);
    ``layout[i]`` is mode ``i``. Numpy index arrays are evaluated vectorised.

    >>> L = Layout((8, 4), (4, 1))
    >>> L(10), L(2, 1), L((2, 1))
    (9, 9, 9)
    >>> print(Layout(((2, 4), 3)))
    ((2,4),3):((1,2),8)
    >>> print(L(_, 2))
    8:4
    >>> print(L[1])
    4:1
    """

    # _fl (flat shape, flat stride; None until first needed), _fi (every leaf a plain int; set with _fl),
    # _size and _hash (None until first needed) are derived from the immutable shape and stride
    __slots__ = ("_s", "_d", "_fl", "_fi", "_size", "_hash")

    def __init__(self, shape: Any, stride: Any = None):
        # fast paths: plain ints, positive shapes, congruent -- nothing to normalise (the flat modes are kept)
        if type(shape) is tuple:
            if type(stride) is tuple and len(shape) == len(stride):
                for x in shape:
                    if type(x) is not int or x <= 0:
                        fl = _fast_flat_nested(shape, stride)
                        break
                else:
                    for y in stride:
                        if type(y) is not int:
                            fl = None
                            break
                    else:
                        fl = (shape, stride)
                if fl is not None:
                    self._s = shape
                    self._d = stride
                    self._fl = fl
                    self._fi = True
                    self._size = None
                    self._hash = None
                    return
        elif type(shape) is int and shape > 0:
            d = 1 if stride is None and shape > 1 else stride
            if type(d) is int:
                self._s = shape
                self._d = d
                self._fl = ((shape,), (d,))
                self._fi = True
                self._size = None
                self._hash = None
                return
        if isinstance(shape, str) and stride is None:
            from .notation import parse_layout

            parsed = parse_layout(shape)
            s, d = parsed._s, parsed._d
        else:
            if isinstance(shape, Layout):
                raise LayoutTypeError("Layout: pass shape and stride, or use make_layout(layout) to copy")
            s = it.as_inttuple(shape, "Layout", "shape")
            _validate_shape(s, "Layout")
            if stride is None:
                d = it.compact_col_major(s)
            else:
                d = it.as_inttuple(stride, "Layout", "stride")
                if not it.congruent(s, d):
                    raise CongruenceError(
                        f"Layout: shape {format_inttuple(s)} and stride {format_inttuple(d)} are not congruent "
                        "(they must have the same nesting)"
                    )
        self._s = s
        self._d = d
        self._fl = None
        self._size = None
        self._hash = None

    @classmethod
    def _make(cls, s: Any, d: Any) -> Layout:
        """Trusted constructor (no validation): for results computed inside the package."""
        obj = _new(Layout)
        obj._s = s
        obj._d = d
        obj._fl = None
        obj._size = None
        obj._hash = None
        return obj

    def _flat(self) -> tuple[tuple, tuple]:
        """Cached flat shape and stride."""
        fl = self._fl
        if fl is not None:
            return fl
        s, d = self._s, self._d
        if isinstance(s, tuple):
            fl = (flatten(s), flatten(d))
        else:
            fl = ((s,), (d,))
        self._fl = fl
        self._fi = _all_int(fl[0]) and _all_int(fl[1])
        return fl

    def _iflat(self) -> tuple[tuple, tuple] | None:
        """Cached flat shape and stride when every leaf is a plain int (the integer fast paths), else None."""
        fl = self._fl
        if fl is None:
            fl = self._flat()
        return fl if self._fi else None

    # -- attributes ----------------------------------------------------------------------
    @property
    def shape(self) -> Any:
        """The shape, a nested tuple (or a single leaf).

        >>> Layout((8, 4), (4, 1)).shape
        (8, 4)
        """
        return self._s

    @property
    def stride(self) -> Any:
        """The stride, congruent with the shape.

        >>> Layout((8, 4), (4, 1)).stride
        (4, 1)
        """
        return self._d

    def size(self) -> Any:
        """Number of coordinates: the product of the shape.

        >>> Layout((8, (2, 4))).size()
        64
        """
        size = self._size
        if size is None:
            size = self._size = _simplify(product(self._s))
        return size

    def cosize(self) -> Any:
        """``L(size - 1) + 1`` (CuTe's definition): the extent of the codomain for non-negative strides.

        >>> Layout((8, 4), (1, 16)).cosize()
        56
        >>> import sympy; m, n = sympy.symbols('m n', positive=True, integer=True)
        >>> Layout((m, n), (1, m)).cosize()
        m*n
        """
        fs, fd = self._flat()
        r = 1
        for s, d in zip(fs, fd):
            if type(d) is int:
                r = r + (s - 1) * (d if d >= 0 else -d)
            else:
                r = r + (s - 1) * (d if signum(d) >= 0 else -d)
        return _simplify(r)

    def rank(self) -> int:
        """Number of top-level modes.

        >>> Layout(((8, 2), 4)).rank()
        2
        """
        return len(self._s) if isinstance(self._s, tuple) else 1

    def depth(self) -> int:
        """Nesting depth of the shape.

        >>> Layout(((8, 2), 4)).depth()
        2
        """
        return it.depth(self._s)

    def is_symbolic(self) -> bool:
        """True when a shape or stride leaf is a sympy expression with free symbols.

        >>> Layout((8, 4)).is_symbolic()
        False
        """
        return it.is_symbolic(self._s) or it.is_symbolic(self._d)

    # -- protocol ------------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if isinstance(other, Layout):
            return self._s == other._s and self._d == other._d
        return NotImplemented

    def __hash__(self) -> int:
        h = self._hash
        if h is None:
            h = self._hash = hash((self._s, self._d))
        return h

    def __str__(self) -> str:
        return f"{format_inttuple(self._s)}:{format_inttuple(self._d)}"

    def __repr__(self) -> str:
        return f"Layout('{self}')"

    def __reduce__(self):
        return (Layout._make, (self._s, self._d))

    def __len__(self) -> int:
        return self.rank()

    def __iter__(self):
        for i in range(self.rank()):
            yield self[i]

    def __getitem__(self, key: Any) -> Any:
        if type(key) is int and isinstance(self._s, tuple) and -len(self._s) <= key < len(self._s):
            return _mode_layout(self._s[key], self._d[key], self._fl is not None and self._fi)
        if isinstance(key, (tuple, Underscore)) and _has_underscore(key):
            return slice_and_offset(key, self)
        if isinstance(key, bool) or not isinstance(key, (int, np.integer)):
            if isinstance(key, tuple):
                return self._get_path(key)
            raise LayoutTypeError(f"Layout[{key!r}]: mode index must be an int")
        i = int(key)
        r = self.rank()
        if not -r <= i < r:
            raise CoordinateError(f"Layout[{i}]: mode index out of range for a rank-{r} layout {self}")
        if not isinstance(self._s, tuple):
            return self
        return Layout._make(self._s[i], self._d[i])

    def _get_path(self, path: tuple) -> Layout:
        cur = self
        for k in path:
            cur = cur[k]
        return cur

    # -- evaluation ----------------------------------------------------------------------
    def __call__(self, *coord: Any, check: bool = False) -> Any:
        if len(coord) == 1 and not check:
            c = coord[0]
            if type(c) is int:  # the integer fast path: index -> offset over the cached flat modes
                fl = self._fl
                if fl is None:
                    fl = self._flat()
                fs, fd = fl
                n = len(fs) - 1
                if self._fi and n >= 0:
                    if n == 1:
                        s = fs[0]
                        return c % s * fd[0] + c // s * fd[1]
                    if n == 0:
                        return c * fd[0]
                    r = 0
                    for i in range(n):
                        s = fs[i]
                        r += c % s * fd[i]
                        c //= s
                    return r + c * fd[n]
                return self._index(c)
        if len(coord) == 0:
            raise CoordinateError("Layout(): a coordinate or index is required")
        if not self._flat()[0]:
            _raise_empty(self, "calling")
        c = coord[0] if len(coord) == 1 else tuple(coord)
        if isinstance(c, list):
            c = tuple(c)
        if _has_underscore(c):
            return slice_and_offset(c, self, check=check)[0]
        if type(c) is int:
            if check and not 0 <= c < self.size():
                raise CoordinateError(f"Layout {self}: index {c} is out of range [0, {self.size()})")
            return self._index(c)
        if isinstance(c, np.ndarray):
            return self._eval_numpy(c, check)
        _check_coord(c, self._s)
        return _simplify(it.crd2idx(c, self._s, self._d, check=check))

    def _index(self, c0: int) -> Any:
        """Integer index -> offset, CuTe semantics (the last mode extends), cached flat modes."""
        fs, fd = self._flat()
        c = c0
        n = len(fs) - 1
        if n < 0:
            _raise_empty(self, "calling")
        r = 0
        for i in range(n):
            si = fs[i]
            if type(si) is not int:
                return _crd2idx_int(c0, self._s, self._d)
            c, m = divmod(c, si)
            r += m * fd[i]
        r = r + c * fd[n]
        return r if type(r) is int else _simplify(r)

    def _eval_numpy(self, idx: np.ndarray, check: bool) -> np.ndarray:
        if not np.issubdtype(idx.dtype, np.integer):
            raise LayoutTypeError(f"Layout {self}: numpy indices must be integers, got dtype {idx.dtype}")
        if self.is_symbolic():
            raise SymbolicUndecidable(f"Layout {self}: cannot evaluate a symbolic layout on numpy arrays; subs() first")
        idx = idx.astype(np.int64, copy=False)
        if check and idx.size and (idx.min() < 0 or idx.max() >= self.size()):
            raise CoordinateError(f"Layout {self}: indices out of range [0, {self.size()})")
        fs, fd = flatten(self._s), flatten(self._d)
        out = np.zeros(idx.shape, dtype=np.int64)
        rest = idx
        n = len(fs)
        for i, (s, d) in enumerate(zip(fs, fd)):
            if i == n - 1:
                out += rest * d
            else:
                q, m = np.divmod(rest, s)
                out += m * d
                rest = q
        return out

    def to_numpy(self) -> np.ndarray:
        """``L(i)`` for every ``i`` in ``[0, size)``, as an int64 array, without a per-point Python loop.

        >>> Layout((2, 3), (3, 1)).to_numpy()
        array([0, 3, 1, 4, 2, 5])
        """
        if self.is_symbolic():
            raise SymbolicUndecidable(f"Layout {self}: to_numpy needs integer shapes and strides; subs() first")
        _require_modes(self, "to_numpy")
        fs, fd = flatten(self._s), flatten(self._d)
        out = np.zeros(1, dtype=np.int64)
        # Column-major: mode 0 varies fastest, so each later mode becomes the outer axis.
        for s, d in zip(fs, fd):
            out = ((np.arange(s, dtype=np.int64) * d)[:, None] + out[None, :]).reshape(-1)
        return out

    def slice_and_offset(self, *coord: Any, check: bool = False) -> tuple[Layout, Any]:
        """Slice with ``_`` placeholders: the sub-layout of the ``_`` modes and the offset of the rest.

        ``check=True`` raises CoordinateError when a fixed coordinate is out of range.

        >>> sub, off = Layout((8, 4), (4, 1)).slice_and_offset(_, 2)
        >>> str(sub), off
        ('8:4', 2)
        """
        c = coord[0] if len(coord) == 1 else tuple(coord)
        return slice_and_offset(c, self, check=check)

    def subs(self, *args: Any, **kwargs: Any) -> Layout:
        """Bind symbols (``subs(m=2)`` or a sympy-style dict) and return the new layout.

        >>> import sympy; m = sympy.Symbol('m', positive=True, integer=True)
        >>> print(Layout((8, m), (m, 1)).subs(m=4))
        (8,4):(4,1)
        """
        from .symbolic import subs_inttuple

        mapping = _subs_mapping(args, kwargs)
        s = subs_inttuple(self._s, mapping)
        d = subs_inttuple(self._d, mapping)
        return Layout(s, d)

    def free_symbols(self) -> set:
        """The sympy symbols appearing in shape or stride.

        >>> Layout((8, 4)).free_symbols()
        set()
        """
        out: set = set()
        for leaf in flatten(self._s) + flatten(self._d):
            if type(leaf) is not int:
                out |= leaf.free_symbols
        return out


def _subs_mapping(args: tuple, kwargs: dict) -> dict:
    mapping: dict = {}
    for a in args:
        if not isinstance(a, dict):
            raise LayoutTypeError(f"subs: positional arguments must be dicts, got {a!r}")
        mapping.update(a)
    mapping.update(kwargs)
    return mapping


def _simplify(x: Any) -> Any:
    if type(x) is int:
        return x
    if isinstance(x, np.ndarray):
        return x
    try:
        import sympy
    except ImportError:  # pragma: no cover
        return x
    if isinstance(x, sympy.Basic):
        x = sympy.simplify(x)
        if x.is_Integer:
            return int(x)
    return x


def _crd2idx_int(c: int, s: Any, d: Any) -> Any:
    """Fast path: integer index into a (possibly nested) layout, CuTe semantics (last mode extends)."""
    if type(s) is int:
        return c * d
    fs = flatten(s) if isinstance(s, tuple) else (s,)
    fd = flatten(d) if isinstance(d, tuple) else (d,)
    r = 0
    n = len(fs)
    for i in range(n):
        si = fs[i]
        if i == n - 1:
            r += c * fd[i]
        elif type(si) is int and type(c) is int:
            c, m = divmod(c, si)
            r += m * fd[i]
        else:
            m = c % si
            c = c // si
            r = r + m * fd[i]
    return _simplify(r) if type(r) is not int else r


def _check_coord(c: Any, s: Any) -> None:
    if isinstance(c, tuple):
        if not isinstance(s, tuple):
            raise CongruenceError(f"coordinate {format_inttuple(c)} has more modes than shape {format_inttuple(s)}")
        if len(c) != len(s):
            raise CongruenceError(
                f"coordinate {format_inttuple(c)} has {len(c)} modes but the shape {format_inttuple(s)} has {len(s)}"
            )
        for x, y in zip(c, s):
            _check_coord(x, y)
        return
    if isinstance(c, bool) or not (isinstance(c, (int, np.integer, np.ndarray)) or it.is_int(c)):
        raise LayoutTypeError(f"coordinate leaves must be integers, got {c!r}")


# ------------------------------------------------------------------------------------------
# construction and access


def _as_layout(x: Any, who: str) -> Layout:
    if type(x) is Layout or isinstance(x, Layout):
        return x
    if it.is_int(x):
        return Layout(x)
    raise LayoutTypeError(f"{who}: expected a Layout, got {x!r}")


def make_layout(*args: Any) -> Layout:
    """Concatenate layouts into the modes of a new layout (CuTe's ``make_layout(L0, L1, ...)``).

    ``make_layout(shape)`` / ``make_layout(shape, stride)`` with IntTuples build a layout directly.

    >>> print(make_layout(Layout(4, 1), Layout((2, 3), (8, 16))))
    (4,(2,3)):(1,(8,16))
    >>> print(make_layout(Layout(4, 1)))
    (4):(1)
    >>> print(make_layout((4, 2)))
    (4,2):(1,4)
    """
    if not args:
        raise LayoutValueError("make_layout: at least one argument is required")
    if all(type(a) is Layout for a in args) or all(isinstance(a, Layout) for a in args):
        return Layout._make(tuple(a._s for a in args), tuple(a._d for a in args))
    if any(isinstance(a, Layout) for a in args):
        raise LayoutTypeError("make_layout: pass either layouts only, or (shape[, stride])")
    if len(args) > 2:
        raise LayoutTypeError("make_layout: expected (shape) or (shape, stride) when no layouts are given")
    return Layout(*args)


def size(x: Any, mode: int | None = None) -> Any:
    """Size of a layout (or of one of its modes) or of a shape.

    >>> size(Layout((8, 4))), size((2, (3, 4))), size(Layout((8, 4)), 1)
    (32, 24, 4)
    """
    if mode is not None:
        return size(x[mode] if isinstance(x, Layout) else x[mode])
    if isinstance(x, Layout) or hasattr(x, "size") and callable(x.size) and not isinstance(x, tuple):
        return x.size()
    return product(it.as_inttuple(x, "size"))


def cosize(x: Any) -> Any:
    """Codomain size of a layout, ``L(size-1) + 1``.

    >>> cosize(Layout((8, 4), (4, 1)))
    32
    """
    if not hasattr(x, "cosize"):
        raise LayoutTypeError(f"cosize: expected a layout, got {x!r}")
    return x.cosize()


def rank(x: Any) -> int:
    """Rank of a layout or IntTuple.

    >>> rank(Layout(((8, 2), 4))), rank((1, 2, 3))
    (2, 3)
    """
    if isinstance(x, Layout):
        return x.rank()
    return it.rank(x)


def depth(x: Any) -> int:
    """Depth of a layout or IntTuple.

    >>> depth(Layout(((8, 2), 4))), depth(3)
    (2, 0)
    """
    if isinstance(x, Layout):
        return x.depth()
    return it.depth(x)


def shape(x: Any) -> Any:
    """Shape of a layout.

    >>> shape(Layout((8, 4)))
    (8, 4)
    """
    if hasattr(x, "shape") and not isinstance(x, (tuple, int, np.ndarray)):
        return x.shape
    return it.as_inttuple(x, "shape")


def stride(x: Layout) -> Any:
    """Stride of a layout.

    >>> stride(Layout((8, 4)))
    (1, 8)
    """
    if not isinstance(x, Layout):
        raise LayoutTypeError(f"stride: expected a Layout, got {x!r}")
    return x.stride


def _slice_tuple(c: Any, t: Any) -> tuple:
    """CuTe's lift_slice: the pieces of ``t`` at the ``_`` positions of ``c``, as a flat-ish tuple."""
    if isinstance(c, tuple):
        if not isinstance(t, tuple) or len(c) != len(t):
            raise CongruenceError(f"slice: coordinate {c!r} is not congruent with {format_inttuple(t)}")
        out: tuple = ()
        for ci, ti in zip(c, t):
            out += _slice_tuple(ci, ti)
        return out
    if c is _:
        return (t,)
    return ()


def _unwrap(t: Any) -> Any:
    while isinstance(t, tuple) and len(t) == 1:
        t = t[0]
    return t


def _zero_underscores(c: Any) -> Any:
    if isinstance(c, tuple):
        return tuple(_zero_underscores(e) for e in c)
    return 0 if c is _ else c


def slice_and_offset(coord: Any, layout: Layout, check: bool = False) -> tuple[Layout, Any]:
    """Split a coordinate with ``_`` into the sliced sub-layout and the offset of the fixed part.

    ``check=True`` (also ``layout(_, 4, check=True)``) raises CoordinateError when a fixed
    coordinate is outside its mode, as ``layout(0, 4, check=True)`` does; by default, as in
    CuTe, the fixed part is not range-checked (an integer for the last mode extends it).

    >>> L = Layout(((2, 4), (3, 5)), ((1, 2), (8, 24)))
    >>> sub, off = slice_and_offset(((1, _), _), L)
    >>> str(sub), off
    ('(4,(3,5)):(2,(8,24))', 1)
    >>> slice_and_offset((_, 4), Layout((8, 4), (4, 1)), check=True)
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.CoordinateError: slice of (8,4):(4,1): coordinate 4 is out of range [0, 4)
    """
    if not isinstance(layout, Layout):
        raise LayoutTypeError(f"slice_and_offset: expected a Layout, got {layout!r}")
    if isinstance(coord, tuple) and not isinstance(layout._s, tuple):
        raise CongruenceError(f"slice: coordinate {coord!r} has modes but layout {layout} is rank-1 without modes")
    s = _unwrap(_slice_tuple(coord, layout._s))
    d = _unwrap(_slice_tuple(coord, layout._d))
    fixed = _zero_underscores(coord)
    _check_coord(fixed, layout._s)
    try:
        off = _simplify(it.crd2idx(fixed, layout._s, layout._d, check=check))
    except CoordinateError as e:
        raise CoordinateError(str(e).replace("crd2idx:", f"slice of {layout}:", 1)) from e
    if s == ():
        return Layout._make(1, 0), off
    return Layout._make(s, d), off


# ------------------------------------------------------------------------------------------
# coalesce / filter


def _bw_coalesce(
    fs: tuple, fd: tuple, new_s: Any, new_d: Any, undecided: list | None = None, keep_front: bool = False
) -> Layout:
    """Walk the flat modes backwards, merging (s, d) into the front when s*d == front stride.

    Symbolic: a merge (or the removal of a size-1 mode) whose condition cannot be decided is
    not made -- the result is still the same function, only possibly not maximally merged --
    and the condition is appended to ``undecided`` so that a caller whose verdict depends on
    maximality (composition's admissibility) can say so instead of guessing.
    """
    if _all_int(fs) and _all_int(fd) and type(new_s) is int and type(new_d) is int:
        return _bw_coalesce_int(fs, fd, new_s, new_d)
    ss = [new_s]
    dd = [new_d]
    fresh = not keep_front  # the front is still the initial new_shape (replaced if it is 1)
    for i in range(len(fs) - 1, -1, -1):
        s = fs[i]
        d = fd[i]
        if s == 1 if type(s) is int else _maybe_eq(s, 1, undecided):
            continue
        if fresh and len(ss) == 1 and (ss[0] == 1 if type(ss[0]) is int else _maybe_eq(ss[0], 1, undecided)):
            ss[0], dd[0] = s, d
            continue
        prod = s * d
        f = dd[0]
        if prod == f if (type(prod) is int and type(f) is int) else _maybe_eq(prod, f, undecided):
            ss[0] = s * ss[0]
            dd[0] = d
        else:
            ss.insert(0, s)
            dd.insert(0, d)
            fresh = False
    if len(ss) == 1:
        if not keep_front and (ss[0] == 1 if type(ss[0]) is int else _maybe_eq(ss[0], 1, undecided)):
            return Layout._make(1, 0)
        return Layout._make(_simplify(ss[0]), _simplify(dd[0]))
    return Layout._make(tuple(_simplify(x) for x in ss), tuple(_simplify(x) for x in dd))


def _all_int(t: tuple) -> bool:
    for x in t:
        if type(x) is not int:
            return False
    return True


def _bw_coalesce_int(fs: tuple, fd: tuple, cs: int, cd: int) -> Layout:
    return _int_layout(*_coalesce_ints(fs, fd, len(fs), cs, cd))


def _coalesce_ints(fs: Any, fd: Any, n: int, cs: int, cd: int, drop_stride0: bool = False) -> tuple[list, list]:
    """Integer backward coalesce: the int modes ``fs[:n]:fd[:n]`` merged, from the back, into the front
    mode ``cs:cd`` (size-1 modes dropped; stride-0 modes too when ``drop_stride0``, as filter does). The
    result's modes as lists in forward order; ``[1], [0]`` when every mode has size 1."""
    ss: list = []
    dd: list = []
    for i in range(n - 1, -1, -1):
        s = fs[i]
        if s == 1:
            continue
        d = fd[i]
        if drop_stride0 and not d:
            continue
        if cs == 1 and not ss:
            cs, cd = s, d
        elif s * d == cd:
            cs *= s
            cd = d
        else:
            ss.append(cs)
            dd.append(cd)
            cs, cd = s, d
    if not ss:
        if cs == 1:
            return [1], [0]
        return [cs], [cd]
    ss.append(cs)
    dd.append(cd)
    ss.reverse()
    dd.reverse()
    return ss, dd


def _filter_ints(fs: tuple, fd: tuple) -> tuple[list, list]:
    """``_coalesce_ints`` of the non-empty flat int modes ``fs:fd`` with stride-0 modes dropped (filter)."""
    n = len(fs) - 1
    return _coalesce_ints(fs, fd, n, fs[n] if fd[n] else 1, fd[n], drop_stride0=True)


def _int_layout(ss: list, dd: list) -> Layout:
    """The layout of the flat int modes ``ss:dd`` (one mode: a rank-1 leaf layout), flat data cached."""
    obj = _new(Layout)
    if len(ss) == 1:
        s = ss[0]
        d = dd[0]
        obj._s = s
        obj._d = d
        obj._fl = ((s,), (d,))
    else:
        s = tuple(ss)
        d = tuple(dd)
        obj._s = s
        obj._d = d
        obj._fl = (s, d)
    obj._fi = True
    obj._size = None
    obj._hash = None
    return obj


def _maybe_eq(a: Any, b: Any, undecided: list | None) -> bool:
    """Symbolic equality for coalesce merges, where 'not equal' keeps the function (no merge).

    An undecidable equality is not guessed silently: its condition is recorded in ``undecided``.
    """
    try:
        return is_eq(a, b)
    except SymbolicUndecidable:
        if undecided is not None:
            undecided.append(f"{_simplify(a)} == {b}")
        return False


def _coalesce_flat(layout: Layout) -> Layout:
    fl = layout._iflat()
    if fl is not None:
        fs, fd = fl
        n = len(fs) - 1
        if n >= 0:
            return _int_layout(*_coalesce_ints(fs, fd, n, fs[n], fd[n]))
    fs, fd = layout._flat()
    if not fs:
        _raise_empty(layout, "coalesce")
    return _bw_coalesce(fs[:-1], fd[:-1], fs[-1], fd[-1])


def _coalesce_x(layout: Layout, undecided: list | None = None) -> Layout:
    """coalesce that also preserves the function outside the domain (keeps the last stride)."""
    fs, fd = layout._flat()
    if not fs:
        _raise_empty(layout, "composition")
    last = fs[-1]
    if layout._fi:
        n = len(fs) - 1
        return _int_layout(*_coalesce_ints(fs, fd, n, 2 if last == 1 else last, fd[n]))
    if last == 1 if type(last) is int else _maybe_eq(last, 1, None):  # either way the last mode is kept
        return _bw_coalesce(fs[:-1], fd[:-1], 2, fd[-1], undecided, keep_front=True)
    return _bw_coalesce(fs[:-1], fd[:-1], last, fd[-1], undecided, keep_front=True)


def _require_modes(layout: Layout, who: str) -> None:
    """LayoutValueError for the empty layout ``():()`` (and ``((),()):((),())``): it has no modes."""
    if not layout._flat()[0]:
        _raise_empty(layout, who)


def _raise_empty(layout: Any, who: str) -> None:
    raise LayoutValueError(
        f"{who}: the empty layout {layout} has no modes (size 1, rank 0); CuTe C++ rejects {who} of it at "
        "compile time. Use 1:0 for the layout of a single point"
    )


def _transform_layout(layout: Layout, profile: tuple, fn, keep_rest: bool = True) -> Layout:
    ls, ld = layout._s, layout._d
    k = len(profile)
    if isinstance(ls, tuple):
        r = len(ls)
        if k > r:
            raise CongruenceError(f"too many modes: profile/tiler of rank {k} for the rank-{r} layout {layout}")
        ss: list = []
        dd: list = []
        pint = layout._iflat() is not None
        for i in range(k):
            m = fn(_mode_layout(ls[i], ld[i], pint), profile[i])
            ss.append(m._s)
            dd.append(m._d)
        if keep_rest and k < r:
            ss.extend(ls[k:])
            dd.extend(ld[k:])
    else:
        if k > 1:
            raise CongruenceError(f"too many modes: profile/tiler of rank {k} for the rank-1 layout {layout}")
        if not k:
            ss = dd = []
        else:
            m = fn(layout, profile[0])
            ss = [m._s]
            dd = [m._d]
    if not ss:
        raise CongruenceError(f"empty profile/tiler for the layout {layout}")
    return _new_layout(tuple(ss), tuple(dd))


def _mode_layout(s: Any, d: Any, pint: bool) -> Layout:
    """A mode of a layout as a layout; ``pint``: the parent's leaves are all plain ints (flat data cached)."""
    obj = _new(Layout)
    obj._s = s
    obj._d = d
    obj._size = None
    obj._hash = None
    if pint:
        obj._fl = ((s,), (d,)) if type(s) is int else (flatten(s), flatten(d))
        obj._fi = True
    else:
        obj._fl = None
    return obj


def _new_layout(s: Any, d: Any) -> Layout:
    """``Layout._make`` without the class-method lookup (hot internal paths)."""
    obj = _new(Layout)
    obj._s = s
    obj._d = d
    obj._fl = None
    obj._size = None
    obj._hash = None
    return obj


def coalesce(layout: Layout, profile: Any = None) -> Layout:
    """Merge modes without changing the function on the domain (CuTe's ``coalesce``).

    With a tuple ``profile``, coalesce each of the first ``len(profile)`` modes separately and
    keep the rest (``coalesce(L, (1, 1))`` keeps a rank-2 layout rank-2).

    >>> print(coalesce(Layout((2, (1, 6)), (1, (6, 2)))))
    12:1
    >>> print(coalesce(Layout(((2, 4), (3, 5)), ((1, 2), (8, 24))), (1, 1)))
    (8,15):(1,8)
    >>> print(coalesce(Layout((1, 1), (3, 5))))
    1:0
    """
    if type(layout) is not Layout:
        hook = getattr(layout, "_apply_to_inner", None)
        if hook is not None and not isinstance(layout, Layout):
            return hook(coalesce, profile)
        layout = _as_layout(layout, "coalesce")
    if profile is None or not isinstance(profile, tuple):
        return _coalesce_flat(layout)
    return _transform_layout(layout, profile, coalesce)


def _filter_flat(layout: Layout, who: str = "filter") -> Layout:
    fs, fd = layout._flat()
    if not fs:
        _raise_empty(layout, who)
    if layout._fi:
        return _int_layout(*_filter_ints(fs, fd))
    return _coalesce_flat(_filter_zeros_layout(layout))


def _filter_zeros_layout(layout: Layout) -> Layout:
    return Layout._make(it.filter_zeros(layout._d, layout._s), layout._d)


@_inner_aware
def filter(layout: Layout, profile: Any = None) -> Layout:  # noqa: A001 - CuTe's name
    """Remove stride-0 and size-1 modes, then coalesce (CuTe's ``filter``).

    >>> print(filter(Layout((4, 2, 3), (1, 0, 4))))
    12:1
    >>> print(filter(Layout((4, 2), (0, 0))))
    1:0
    """
    layout = _as_layout(layout, "filter")
    if profile is None or not isinstance(profile, tuple):
        return _filter_flat(layout)
    return _transform_layout(layout, profile, filter)


# ------------------------------------------------------------------------------------------
# composition


def composition(a: Any, b: Any) -> Any:
    """The layout ``R`` with ``R(c) == a(b(c))`` for every coordinate ``c`` of ``b``.

    ``b`` may be a Layout, an int ``n`` (the layout ``n:1``), ``_`` (returns ``a``), or a tuple
    of tilers applied mode by mode (modes of ``a`` beyond the tuple are dropped, as in CuTe).

    Admissibility, checked exactly (AdmissibilityError names the rule, the mode and the values):

    1. Each mode of ``b`` alone (CuTe): walking its stride through the modes ``s_j:d_j`` of
       ``coalesce(a)``, the remaining stride and each shape must divide one another (or all of
       the mode's points fall inside that mode of ``a``); then each shape taken must divide the
       remaining size of the mode. The mode of ``b`` thereby puts the offsets ``k*t``,
       ``k < count``, into some modes ``j`` of ``a`` (one *piece* per mode of the result).
    2. The modes of ``b`` must not interact (not checked by CuTe, which silently returns a wrong
       layout): the result is built mode by mode, ``(a o b_0, a o b_1, ...)``, which equals
       ``a o b`` iff ``a(b_0(c_0) + b_1(c_1) + ...) == a(b_0(c_0)) + a(b_1(c_1)) + ...``. For every
       mode ``j`` of ``coalesce(a)`` but the last, the largest offsets ``(count-1)*t`` of all
       pieces in mode ``j`` must add up to less than ``s_j``; otherwise some ``b(c)`` carries
       into mode ``j+1``, which changes the value because coalesced modes have
       ``s_j*d_j != d_{j+1}``. This is exact: it rejects precisely the ``b`` whose by-mode result
       differs from ``a o b`` somewhere (e.g. ``(4,3):(1,10) o (3,2):(1,3)``, where
       ``b(5) = 5`` but the by-mode result is 5 and ``a(5) = 11``). Pieces of negative stride
       (offsets below ``a``'s domain, read as CuTe does: ``a(-x) == -a(x)``) count separately;
       pieces of both signs in two or more modes of ``a`` are rejected (their sum borrows).

    Symbolic shapes and strides: each condition is decided from the symbols' assumptions and
    stated facts, or SymbolicUndecidable names it; an AdmissibilityError that relies on a merge
    ``coalesce`` could not decide becomes SymbolicUndecidable naming that condition.

    >>> print(composition(Layout((6, 2), (8, 2)), Layout((4, 3), (3, 1))))
    ((2,2),3):((24,2),8)
    >>> print(composition(Layout((4, 8), (8, 1)), (2, 4)))
    (2,4):(8,1)
    >>> composition(Layout((4, 6), (1, 5)), Layout(6, 1))
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.AdmissibilityError: composition: shape divisibility fails: shape 4 of mode 0 ...
    >>> print(composition(Layout((4, 3), (1, 10)), Layout((2, 2), (1, 2))))
    (2,2):(1,2)
    >>> composition(Layout((4, 3), (1, 10)), Layout((3, 2), (1, 3)))
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.AdmissibilityError: composition: modes of B interact: in mode 0 (shape 4) of ...
    """
    if type(a) is Layout:
        return _compose(a, b)
    comp = getattr(a, "_compose_with", None)
    if comp is not None and not isinstance(a, Layout):
        return comp(b)
    if isinstance(a, IdentityLayout):
        raise LayoutTypeError("composition: an IdentityLayout cannot be the outer layout; evaluate it instead")
    a = _as_layout(a, "composition")
    return _compose(a, b)


def _compose(a: Layout, b: Any) -> Any:
    if type(b) is Layout or isinstance(b, Layout):
        bfl = b._iflat()
        if bfl is not None and bfl[0]:
            afl = a._iflat()
            if afl is not None and afl[0]:  # the integer fast path
                fs, fd = afl
                n = len(fs) - 1
                last = fs[n]
                ls, ld = _coalesce_ints(fs, fd, n, 2 if last == 1 else last, fd[n])  # coalesce_x(a)
                return _compose_ints(ls, ld, b._s, b._d, bfl[0], bfl[1])
        bfs, bfd = b._flat()
        return _compose_layout(a, b._s, b._d, bfs, bfd)
    if b is _:
        return a
    if isinstance(b, tuple):
        return _transform_layout(a, b, _compose_mode, keep_rest=False)
    if isinstance(b, list):
        return _compose(a, tuple(b))
    if it.is_int(b):
        b = it.as_inttuple(b, "composition", "tiler")
        _validate_shape_leaf(b, "composition")
        return _compose_layout(a, b, 1, (b,), (1,))
    swz = getattr(b, "_as_rhs_of_layout", None)
    if swz is not None:
        return swz(a)
    raise LayoutTypeError(f"composition: B must be a Layout, an int, _ or a tuple of tilers, got {b!r}")


def _compose_mode(a: Layout, b: Any) -> Any:
    return _compose(a, b)


def _compose_layout(a: Layout, rs: Any, rd: Any, bfs: tuple, bfd: tuple) -> Layout:
    """``a o (rs:rd)``: by-mode composition with coalesce(a), checking that B's modes do not interact.

    ``bfs``/``bfd`` are B's flat shape and stride.
    """
    fs, fd = a._flat()
    if fs and bfs and a._fi and _all_int(bfs) and _all_int(bfd):
        n = len(fs) - 1
        last = fs[n]
        ls, ld = _coalesce_ints(fs, fd, n, 2 if last == 1 else last, fd[n])  # coalesce_x(a)
        return _compose_ints(ls, ld, rs, rd, bfs, bfd)
    undecided: list = []  # merges coalesce could not decide (symbolic A only)
    flat = _coalesce_x(a, undecided)
    ls = flat._s
    try:
        if type(rs) is not tuple or type(ls) is not tuple:
            # one mode of B, or a linear A (one mode): nothing can interact
            return _composition_impl(ls, flat._d, rs, rd, flat, None, None, None)
        n = len(ls)
        # acc[j] (j < n): the largest offset that B's modes of positive stride put into mode j of A so
        # far; acc[n + j]: the same for negative strides; acc[2n] is set when a negative one is seen
        acc = [0] * (2 * n + 1)
        res = _composition_impl(ls, flat._d, rs, rd, flat, acc, None, None)
        if acc[-1]:
            pos = [j for j in range(n) if acc[j]]
            neg = [j for j in range(n) if acc[n + j]]
            if pos and len(set(pos) | set(neg)) > 1:
                raise _Interaction
        return res
    except _Interaction:
        _explain_interaction(flat, rs, rd, undecided)
    except AdmissibilityError as e:
        _raise_undecided(e, undecided)
        raise
    raise AdmissibilityError(f"composition: modes of B interact in coalesce(A) = {flat}")  # pragma: no cover


class _Interaction(Exception):
    """Internal: the walk found modes of B that interact (the message is built afterwards)."""


def _explain_interaction(flat: Layout, rs: Any, rd: Any, undecided: list) -> None:
    """Raise the rule's exact error: redo the walk recording every piece (rare, so not fast)."""
    pieces: list = []
    res = _composition_impl(flat._s, flat._d, rs, rd, flat, None, pieces, [0])
    try:
        _check_interaction(pieces, flat, rs, rd, res)
    except AdmissibilityError as e:
        _raise_undecided(e, undecided)
        raise
    raise AdmissibilityError(  # pragma: no cover - _check_interaction finds what the walk found
        f"composition: modes of B = {_b_text(rs, rd)} interact in coalesce(A) = {flat}"
    )


def _compose_ints(ls: list, ld: list, rs: Any, rd: Any, bfs: tuple, bfd: tuple) -> Layout:
    """``A o B`` for integer layouts: ``ls:ld`` is coalesce_x(A), ``rs:rd`` is B with the flat modes ``bfs:bfd``."""
    try:
        return _compose_int(ls, ld, rs, bfs, bfd)
    except _Interaction:
        _explain_interaction(_int_layout(ls, ld), rs, rd, [])
    raise AdmissibilityError(f"composition: modes of B interact in coalesce(A) = {_int_layout(ls, ld)}")  # pragma: no cover


def _compose_int(ls: list, ld: list, rs: Any, bfs: tuple, bfd: tuple) -> Layout:
    """``_composition_impl`` for integer layouts, one loop over B's flat modes (the fast path).

    ``ls:ld`` (lists) is coalesce_x(A); ``bfs``/``bfd`` are B's flat shape and stride, ``rs`` its shape
    (for the nesting of the result). Raises ``_Interaction`` where B's modes interact.
    """
    n = len(ls)
    if n == 1:  # a linear A: each mode of B scales by its stride
        ld0 = ld[0]
        out = [(s, d * ld0) for s, d in zip(bfs, bfd)]
        return _nest_like(rs, out)
    last = n - 1
    last_d = ld[last]
    # acc[j] (j < n): the largest offset that B's modes of positive stride put into mode j of A so far;
    # acc[n + j]: the same for negative strides; acc[2n] is set when a negative one is seen
    acc = [0] * (2 * n + 1) if len(bfs) > 1 else None
    out = []
    for rest_s, rest_d in zip(bfs, bfd):
        if rest_d == 0:
            out.append((rest_s, 0))
            continue
        res_s: list = []
        res_d: list = []
        for i in range(last):
            cs = ls[i]
            ard = rest_d if rest_d >= 0 else -rest_d
            if ard % cs != 0 and cs % ard != 0 and (ard > cs or (rest_s - 1) * ard >= cs):
                _raise_stride_div(ard, cs, i, _int_layout(ls, ld), rest_s)
            next_s = -((-cs) // ard)
            next_d = -((-ard) // cs) * (1 if rest_d > 0 else -1)
            if next_s == 1 or rest_s == 1:
                rest_d = next_d
                continue
            new_s = next_s if next_s < rest_s else rest_s
            if rest_s % new_s != 0:
                _raise_shape_div(new_s, rest_s, i, _int_layout(ls, ld))
            if acc is not None:
                j = i if rest_d > 0 else _note_negative(acc, n, i)
                prev = acc[j]
                top = prev + (new_s - 1) * ard
                if prev and top >= cs:
                    raise _Interaction
                acc[j] = top
            res_s.append(new_s)
            res_d.append(rest_d * ld[i])
            rest_s = rest_s // new_s
            rest_d = next_d
        if not res_s:
            out.append((rest_s, rest_d * last_d))
        elif rest_s == 1:
            out.append((res_s[0], res_d[0]) if len(res_s) == 1 else (tuple(res_s), tuple(res_d)))
            continue
        else:
            res_s.append(rest_s)
            res_d.append(rest_d * last_d)
            out.append((tuple(res_s), tuple(res_d)))
        if acc is not None and rest_s != 1:  # A's last mode extends: any sum fits, only signs matter
            if rest_d > 0:
                acc[last] = 1
            else:
                acc[2 * n - 1] = acc[2 * n] = 1
    if acc is not None and acc[-1]:
        pos = [j for j in range(n) if acc[j]]
        if pos and len(set(pos) | {j for j in range(n) if acc[n + j]}) > 1:
            raise _Interaction
    return _nest_like(rs, out)


def _nest_like(rs: Any, out: list) -> Layout:
    """The layout whose modes are ``out`` (one (shape, stride) per leaf of ``rs``), nested like ``rs``."""
    if type(rs) is not tuple:
        return Layout._make(out[0][0], out[0][1])
    if _all_int(rs):
        return Layout._make(tuple([o[0] for o in out]), tuple([o[1] for o in out]))
    s, d = _nest(rs, iter(out))
    return Layout._make(s, d)


def _nest(t: Any, leaves: Any) -> tuple:
    if type(t) is tuple:
        ss = []
        dd = []
        for x in t:
            if type(x) is tuple:
                s, d = _nest(x, leaves)
            else:
                s, d = next(leaves)
            ss.append(s)
            dd.append(d)
        return tuple(ss), tuple(dd)
    return next(leaves)


def _raise_undecided(e: AdmissibilityError, undecided: list) -> None:
    """A verdict on a coalesce(A) with undecided merges is not universal: SymbolicUndecidable."""
    if undecided:
        raise SymbolicUndecidable(
            f"{e}; but this verdict needs coalesce(A) fully merged, and coalesce cannot decide "
            f"{' or '.join(dict.fromkeys(undecided))} (for values where it holds, modes merge and B may be "
            "admissible): bind or constrain the symbols"
        ) from e


def _tv(fn: Any, *args: Any) -> Any:
    """Three-valued verdict of a decision helper: True, False, or the SymbolicUndecidable it raised."""
    try:
        return fn(*args)
    except SymbolicUndecidable as e:
        return e


def _composition_impl(
    ls: Any, ld: Any, rs: Any, rd: Any, flat_a: Layout, acc: list | None, pieces: list | None, counter: list | None
) -> Layout:
    """By-mode composition of coalesce(A) = ``ls:ld`` with the (sub)layout ``rs:rd`` of B.

    Each part of a leaf of B that lands in mode ``i`` of A puts the offsets ``k*step``,
    ``k < count``, there. With ``acc`` (see ``_compose_layout``) their largest offsets are summed
    per mode of A, and ``_Interaction`` is raised as soon as two leaves' sum reaches the mode's
    shape. With ``pieces`` every part is recorded as ``(i, count, step, positive, leaf, piece)``
    (``counter[0]`` numbers B's leaves) for ``_check_interaction``.
    """
    if isinstance(rs, tuple):
        if not rs:
            _raise_empty(Layout._make(rs, rd), "composition")
        parts = [_composition_impl(ls, ld, s, d, flat_a, acc, pieces, counter) for s, d in zip(rs, rd)]
        return Layout._make(tuple(p._s for p in parts), tuple(p._d for p in parts))
    leaf = 0
    if pieces is not None:
        leaf = counter[0]
        counter[0] = leaf + 1
    if rd == 0 if type(rd) is int else is_eq(rd, 0):
        return Layout._make(rs, 0)
    if not isinstance(ls, tuple):
        return Layout._make(rs, _simplify(rd * ld))
    res_s: list = []
    res_d: list = []
    rest_s, rest_d = rs, rd
    n = len(ls)
    for i in range(n - 1):
        cs, cd = ls[i], ld[i]
        sign = signum(rest_d)
        ard = rest_d if sign >= 0 else -rest_d
        if _check_stride_divisibility(cs, ard, rest_s, i, flat_a):
            # neither divides the other, but every point of B lies inside this mode: take all of B here
            if not is_eq(rest_s, 1):
                _record_piece(acc, pieces, n, i, rest_s, ard, sign, cs, leaf, len(res_s))
                res_s.append(rest_s)
                res_d.append(_simplify(rest_d * cd))
                rest_s = 1
            rest_d = sign  # ceil(ard / cs) = 1 for ard < cs, as CuTe continues the walk
            continue
        next_s = ceil_div(cs, ard)
        next_d = ceil_div(ard, cs) * sign
        if _either_is_one(next_s, rest_s):
            rest_d = next_d
            continue
        new_s = smin(next_s, rest_s)
        if not divides(new_s, rest_s):
            _raise_shape_div(new_s, rest_s, i, flat_a)
        _record_piece(acc, pieces, n, i, new_s, ard, sign, cs, leaf, len(res_s))
        res_s.append(new_s)
        res_d.append(_simplify(rest_d * cd))
        rest_s = _simplify(rest_s / new_s) if type(rest_s) is not int or type(new_s) is not int else rest_s // new_s
        rest_d = next_d
    last_d = ld[n - 1]
    rest_is_one = rest_s == 1 if type(rest_s) is int else is_eq(rest_s, 1)
    if not rest_is_one and (acc is not None or pieces is not None):
        # A's last mode extends, so any sum fits there; only the signs matter (the mixed-sign rule)
        sign = signum(rest_d)
        if sign:
            step = rest_d if sign > 0 else -rest_d
            _record_piece(acc, pieces, n, n - 1, rest_s, step, sign, None, leaf, len(res_s))
    if not res_s:
        return Layout._make(_simplify(rest_s), _simplify(rest_d * last_d))
    if rest_is_one:
        if len(res_s) == 1:
            return Layout._make(res_s[0], res_d[0])
        return Layout._make(tuple(res_s), tuple(res_d))
    res_s.append(_simplify(rest_s))
    res_d.append(_simplify(rest_d * last_d))
    return Layout._make(tuple(res_s), tuple(res_d))


def _note_negative(acc: list, n: int, i: int) -> int:
    acc[2 * n] = 1
    return n + i


def _record_piece(
    acc: list | None, pieces: list | None, n: int, i: int, count: Any, step: Any, sign: int, cs: Any, leaf: int, k: int
) -> None:
    """Account for the offsets ``k*step`` (``k < count``) that a leaf of B puts into mode ``i`` of A.

    ``cs`` is the mode's shape (None for A's last mode, which extends and so takes any sum).
    """
    if acc is not None:
        j = i if sign > 0 else _note_negative(acc, n, i)
        prev = acc[j]
        top = _simplify(prev + (count - 1) * step)
        if cs is not None and not (type(prev) is int and prev == 0):
            fits = top < cs if type(top) is int and type(cs) is int else _tv(is_lt, top, cs)
            if fits is not True:
                raise _Interaction  # inadmissible or undecidable: _check_interaction says which
        acc[j] = top
    elif pieces is not None:
        pieces.append((i, count, step, sign > 0, leaf, k))


def _check_stride_divisibility(cs: Any, ard: Any, rest_s: Any, i: int, flat_a: Layout) -> bool:
    """CuTe's stride divisibility condition on mode ``i`` (symbolic: decided, each half tried).

    Returns False when one of ``cs``, ``ard`` divides the other, True when neither is known to but
    every point of B lies inside the mode (``ard < cs`` and ``(rest_s-1)*ard < cs``); raises
    AdmissibilityError when it fails and SymbolicUndecidable when the verdict depends on the symbols.
    """
    verdicts = []
    for x, y in ((cs, ard), (ard, cs)):
        v = _tv(divides, x, y)
        if v is True:
            return False
        verdicts.append(v)
    # neither divides (or undecided): admissible only if every point of B stays inside this mode
    too_big = _tv(is_lt, cs, ard)
    inside = _tv(is_lt, (rest_s - 1) * ard, cs)
    if too_big is False and inside is True:
        return True
    if too_big is True or inside is False:
        for v in verdicts:
            if isinstance(v, SymbolicUndecidable):
                raise SymbolicUndecidable(
                    f"composition: stride divisibility on mode {i} of coalesce(A) = {flat_a}: {v}"
                ) from v
        _raise_stride_div(ard, cs, i, flat_a, rest_s)
    cause = too_big if isinstance(too_big, SymbolicUndecidable) else inside
    div = next((v for v in verdicts if isinstance(v, SymbolicUndecidable)), None)
    div_text = f"{div}" if div is not None else f"neither of {ard} and {cs} divides the other"
    raise SymbolicUndecidable(
        f"composition: stride divisibility on mode {i} of coalesce(A) = {flat_a}: {div_text}; and whether "
        f"all {rest_s} points of B (stride {ard}) stay inside that mode is undecidable: {cause}"
    ) from cause


def _either_is_one(next_s: Any, rest_s: Any) -> bool:
    """``next_s == 1 or rest_s == 1``, each half tried before an undecidable one gives up."""
    first = _tv(is_eq, next_s, 1)
    if first is True:
        return True
    second = _tv(is_eq, rest_s, 1)
    if second is True:
        return True
    for v in (first, second):
        if isinstance(v, SymbolicUndecidable):
            raise v
    return False


def _check_interaction(pieces: list, flat_a: Layout, rs: Any, rd: Any, res: Layout) -> None:
    """The modes of B must not interact inside a mode of coalesce(A) (no carries, no mixed signs).

    Composition is right-distributive: ``R = (A o B_0, A o B_1, ...)`` is ``A o B`` only if
    ``A(B_0(c_0) + B_1(c_1) + ...) == A(B_0(c_0)) + A(B_1(c_1)) + ...``. Each leaf of B puts the
    offsets ``k*step`` (``k < count``) into some modes of ``coalesce(A) = (s_0,...,s_n):(d_0,...)``
    (``pieces``). The sum over B's leaves stays inside every mode ``j < n`` -- no carry into the
    next mode, which ``coalesce`` guarantees changes the value, since ``s_j*d_j != d_{j+1}`` --
    iff the largest offsets of the leaves in mode ``j`` add up to less than ``s_j``. Leaves of
    negative stride (offsets below A's domain, read as CuTe does: ``A(-x) == -A(x)``) must not mix
    with positive ones across two or more modes of A: the difference borrows.
    """
    ls = flat_a._s
    n = len(ls)
    for i in range(n - 1):
        cs = ls[i]
        for positive in (True, False):
            contributors = [p for p in pieces if p[0] == i and p[3] == positive]
            if len(contributors) < 2:  # a single leaf is checked by the walk
                continue
            t = _simplify(sum((p[1] - 1) * p[2] for p in contributors))
            fits = t < cs if type(t) is int and type(cs) is int else _tv(is_lt, t, cs)
            if fits is True:
                continue
            if fits is False:
                _raise_interaction(i, cs, t, contributors, flat_a, rs, rd, res)
            raise SymbolicUndecidable(
                f"composition: cannot decide whether the modes of B stay inside mode {i} (shape {cs}) of "
                f"coalesce(A) = {flat_a} together: their largest offsets there add up to {t}, which must be "
                f"less than {cs} ({fits})"
            ) from fits
    pos_modes = {p[0] for p in pieces if p[3]}
    neg_modes = {p[0] for p in pieces if not p[3]}
    if pos_modes and neg_modes and len(pos_modes | neg_modes) > 1:
        raise AdmissibilityError(
            f"composition: modes of B interact: B = {_b_text(rs, rd)} has modes of positive and of negative "
            f"stride landing in different modes {sorted(pos_modes)} and {sorted(neg_modes)} of coalesce(A) = "
            f"{flat_a}; their sum borrows across A's modes, so the by-mode result {res} is not A o B"
        )


def _b_text(rs: Any, rd: Any) -> str:
    return f"{format_inttuple(rs)}:{format_inttuple(rd)}"


def _raise_interaction(
    i: int, cs: Any, total: Any, contributors: list, flat_a: Layout, rs: Any, rd: Any, res: Layout
) -> None:
    """AdmissibilityError for modes of B whose offsets add up past mode ``i`` of coalesce(A)."""
    leaves = sorted({p[4] for p in contributors})
    witness = ""
    if not flat_a.is_symbolic() and not it.is_symbolic(rs) and not it.is_symbolic(rd):
        witness = _interaction_witness(i, cs, contributors, flat_a, rs, rd, res)
    raise AdmissibilityError(
        f"composition: modes of B interact: in mode {i} (shape {cs}) of coalesce(A) = {flat_a}, the modes "
        f"{leaves} of B = {_b_text(rs, rd)} (flat mode indices) reach offsets adding up to {total} >= {cs}, so "
        f"B(c) carries into A's next mode and the by-mode result {res} is not A o B{witness} "
        "(CuTe returns that layout silently; each mode of B is admissible alone)"
    )


def _interaction_witness(i: int, cs: int, contributors: list, flat_a: Layout, rs: Any, rd: Any, res: Layout) -> str:
    """A coordinate of B where the by-mode result differs from A(B(c)), for the message."""
    flat_rs = flatten(rs) if isinstance(rs, tuple) else (rs,)
    res_modes = [res]
    if isinstance(rs, tuple):
        res_modes = [Layout._make(s, d) for s, d in zip(_flatten_modes(res._s, rs), _flatten_modes(res._d, rs))]
    coord = [0] * len(flat_rs)
    total = 0
    for _i, count, step, _pos, leaf, piece in contributors:
        if total >= cs:
            break
        sub = res_modes[leaf]._s
        sub = sub if isinstance(sub, tuple) else (sub,)
        pre = 1
        for x in sub[:piece]:
            pre *= x
        coord[leaf] += (count - 1) * pre
        total += (count - 1) * step
    idx = 0
    mul = 1
    for c, s in zip(coord, flat_rs):
        idx += c * mul
        mul *= s
    b = Layout._make(rs, rd)
    got, want = res(idx), flat_a(b(idx)) if b(idx) >= 0 else None
    if want is None or got == want:  # pragma: no cover - the rule guarantees a difference
        return ""
    return f": at B's index {idx}, B = {b(idx)} and A(B) = {want}, but the result gives {got}"


def _flatten_modes(t: Any, profile: Any) -> list:
    """The pieces of ``t`` (a refinement of ``profile``) that belong to each leaf of ``profile``."""
    if isinstance(profile, tuple):
        out: list = []
        for x, p in zip(t, profile):
            out.extend(_flatten_modes(x, p))
        return out
    return [t]


def _raise_stride_div(rest_d: Any, cs: Any, i: int, flat_a: Layout, rest_s: Any) -> None:
    raise AdmissibilityError(
        f"composition: stride divisibility fails: the remaining stride {rest_d} of B (size {rest_s} left) and "
        f"shape {cs} of mode {i} of coalesce(A) = {flat_a} do not divide one another "
        "(CuTe's Stride Divisibility Condition)"
    )


def _raise_shape_div(new_s: Any, rest_s: Any, i: int, flat_a: Layout) -> None:
    raise AdmissibilityError(
        f"composition: shape divisibility fails: shape {new_s} of mode {i} of coalesce(A) = {flat_a} "
        f"does not divide the remaining size {rest_s} of B"
    )


# ------------------------------------------------------------------------------------------
# complement


def complement(layout: Layout, cotarget: Any = None) -> Layout:
    """The layout that enumerates, in order, the offsets in ``[0, cotarget)`` that ``layout`` misses.

    ``(layout, complement(layout, M))`` is then a bijection onto ``[0, M)`` (rounded up to a
    whole number of repetitions). Admissibility: after filtering, the strides sorted ascending
    must each be a multiple of the previous stride times its shape; otherwise no complement
    exists (the layout overlaps itself or leaves gaps that no layout can fill) and
    AdmissibilityError says which stride breaks it. ``cotarget`` defaults to ``cosize(layout)``
    and may be a shape (tuple), as CuTe's ``logical_divide`` passes.

    >>> print(complement(Layout((2, 2), (1, 6)), 24))
    (3,2):(2,12)
    >>> print(complement(Layout(4, 1), 4))
    1:0
    >>> complement(Layout((2, 2), (2, 3)), 12)
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.AdmissibilityError: complement: sorted stride 3 (shape 2) is smaller than 4 = 2*2 ...
    """
    if type(layout) is Layout and type(cotarget) is int and cotarget > 0:
        fl = layout._iflat()
        if fl is not None and fl[0]:  # the integer fast path
            return _complement_ints(fl[0], fl[1], cotarget, layout)
    inner = getattr(layout, "inner", None)
    if inner is not None and not isinstance(layout, Layout):
        layout = inner  # CuTe: complement of a ComposedLayout is the complement of its inner layout
    layout = _as_layout(layout, "complement")
    f = _filter_flat(layout, "complement")
    if cotarget is None:
        cotarget = f.cosize()
    elif type(cotarget) is int and cotarget > 0:
        pass
    else:
        cotarget = it.as_inttuple(cotarget, "complement", "cotarget")
        _validate_shape(cotarget, "complement")
    fs0, fd0 = f._flat()
    if layout._iflat() is not None and (type(cotarget) is int or _all_int(flatten(cotarget))):
        fs1, fd1 = layout._flat()
        return _complement_ints(fs1, fd1, cotarget, layout)
    fs = list(fs0)
    fd = list(fd0)
    if len(fs) == 1 and (fd[0] == 0 if type(fd[0]) is int else is_eq(fd[0], 0)):
        return Layout._make(_simplify(product(cotarget)), 1) if not is_eq(product(cotarget), 1) else Layout._make(1, 0)
    for d in fd:
        if signum(d) < 0:
            raise AdmissibilityError(f"complement: negative stride {d} in {layout}: complement needs non-negative strides")
    res_s: list = []
    res_d: list = [1]
    while len(fs) > 1:
        idx = _argmin(fd)
        min_d = fd[idx]
        _check_complement_step(min_d, res_d[-1], fs[idx], layout)
        res_s.append(_simplify(min_d / res_d[-1]) if type(min_d) is not int else min_d // res_d[-1])
        res_d.append(_simplify(min_d * fs[idx]))
        del fs[idx]
        del fd[idx]
    _check_complement_step(fd[0], res_d[-1], fs[0], layout)
    res_s.append(fd[0] // res_d[-1] if type(fd[0]) is int and type(res_d[-1]) is int else _simplify(fd[0] / res_d[-1]))
    new_d = _simplify(fd[0] * fs[0])
    rest_s = _simplify(product(ceil_div(cotarget, new_d)))
    full = Layout._make((tuple(res_s), rest_s), (tuple(res_d), new_d))
    return _coalesce_flat(full)


def _complement_ints(fs: tuple, fd: tuple, cotarget: Any, layout: Layout) -> Layout:
    """``complement`` of an integer layout with the (non-empty) flat modes ``fs:fd``; ``cotarget`` is a
    positive int or a tuple of them (CuTe: the rest is then ``product(ceil_div(cotarget, extent))``)."""
    if len(fs) == 1:  # one mode s:d (most tilers): the general walk below, unrolled
        s = fs[0]
        d = fd[0]
        if s != 1 and d > 0:
            ext = d * s
            rest = -((-cotarget) // ext) if type(cotarget) is int else _ceil_div_product(cotarget, ext)
            if d == 1:
                return _int_layout([rest], [ext]) if rest != 1 else _int_layout([1], [0])
            if rest == 1:
                return _int_layout([d], [1])
            return _int_layout([d, rest], [1, ext])
    ss, dd = _filter_ints(fs, fd)
    n = len(ss)
    if n == 1 and dd[0] == 0:  # filter(layout) is 1:0
        tot = cotarget if type(cotarget) is int else product(cotarget)
        return _int_layout([tot], [1]) if tot != 1 else _int_layout([1], [0])
    for d in dd:
        if d < 0:
            raise AdmissibilityError(f"complement: negative stride {d} in {layout}: complement needs non-negative strides")
    res_s: list = []
    res_d: list = []
    ext = 1
    for i in (sorted(range(n), key=dd.__getitem__) if n > 1 else (0,)):
        d = dd[i]
        if d % ext:
            _check_complement_step(d, ext, ss[i], layout)
        res_s.append(d // ext)
        res_d.append(ext)
        ext = d * ss[i]
    rest = -((-cotarget) // ext) if type(cotarget) is int else _ceil_div_product(cotarget, ext)
    return _int_layout(*_coalesce_ints(res_s, res_d, len(res_s), rest, ext))


def _ceil_div_product(cotarget: Any, ext: int) -> int:
    """``product(ceil_div(cotarget, ext))`` for a tuple of positive ints and ``ext >= 1``: ``ceil_div`` walks
    the leaves left to right (nested ceilings of positive ints compose, so the nesting does not matter)."""
    rest = 1
    r = ext
    for e in flatten(cotarget):
        rest *= -((-e) // r)
        r = -((-r) // e)
    return rest


def _argmin(vals: list) -> int:
    best = 0
    for i in range(1, len(vals)):
        v, b = vals[i], vals[best]
        if v < b if (type(v) is int and type(b) is int) else is_lt(v, b):
            best = i
    return best


def _check_complement_step(d: Any, prev_extent: Any, s: Any, layout: Layout) -> None:
    if type(d) is int and type(prev_extent) is int:
        if d % prev_extent == 0:
            return
        smaller = d < prev_extent
    else:
        if divides(prev_extent, d):
            return
        smaller = is_lt(d, prev_extent)
    if smaller:
        raise AdmissibilityError(
            f"complement: sorted stride {d} (shape {s}) is smaller than {prev_extent} = "
            f"{_extent_text(prev_extent)} spanned by the modes before it: the layout {layout} is not "
            "injective-and-complementable"
        )
    raise AdmissibilityError(
        f"complement: sorted stride {d} (shape {s}) is not a multiple of {prev_extent}, the extent of the modes "
        f"before it, so the gaps of {layout} cannot be filled by a layout (no complement exists)"
    )


def _extent_text(x: Any) -> str:
    if type(x) is int and x > 1:
        # show a factorisation hint like 2*2 for readability
        for p in range(2, x):
            if x % p == 0:
                return f"{p}*{x // p}"
    return str(x)


# ------------------------------------------------------------------------------------------
# inverses


def _flat_modes(layout: Layout) -> tuple[tuple, tuple]:
    c = _coalesce_flat(layout)
    s = c._s if isinstance(c._s, tuple) else (c._s,)
    d = c._d if isinstance(c._d, tuple) else (c._d,)
    return s, d


def _prefix(s: list, i: int) -> int:
    """``s[0] * ... * s[i-1]``."""
    p = 1
    for k in range(i):
        p *= s[k]
    return p


def _require_int_layout(layout: Layout, who: str) -> None:
    if layout.is_symbolic():
        raise SymbolicUndecidable(f"{who}: needs integer strides to sort them; {layout} is symbolic (subs() first)")


def right_inverse(layout: Layout) -> Layout:
    """A layout ``R`` with ``layout(R(i)) == i`` for every ``i < size(R)``, as large as possible.

    >>> print(right_inverse(Layout((4, 2), (2, 1))))
    (2,4):(4,1)
    >>> print(right_inverse(Layout(4, 2)))
    1:0
    """
    if layout is _:
        return _
    if type(layout) is not Layout:
        layout = _as_layout(layout, "right_inverse")
    fl = layout._iflat()
    if fl is not None and fl[0]:  # the integer fast path
        fs, fd = fl
        n = len(fs) - 1
        s, d = _coalesce_ints(fs, fd, n, fs[n], fd[n])
        if len(s) == 1:
            return _int_layout(s, d) if d[0] == 1 else _int_layout([1], [0])
        cur = 1
        rs: list = []
        rd: list = []
        for i in sorted(range(len(d)), key=d.__getitem__):
            if d[i] == cur:
                rs.append(s[i])
                rd.append(_prefix(s, i))
                cur = s[i] * d[i]
        if not rs:
            return _int_layout([1], [0])
        n = len(rs) - 1
        return _int_layout(*_coalesce_ints(rs, rd, n, rs[n], rd[n]))
    fs, fd = layout._flat()
    if not fs:
        _raise_empty(layout, "right_inverse")
    if not (_all_int(fs) and _all_int(fd)):
        _require_int_layout(layout, "right_inverse")
    s, d = _flat_modes(layout)
    pre = [1]
    for x in s:
        pre.append(pre[-1] * x)
    order = sorted(range(len(d)), key=d.__getitem__)
    rs, rd = [], []
    cur = 1
    for i in order:
        if d[i] == cur:
            rs.append(s[i])
            rd.append(pre[i])
            cur = s[i] * d[i]
    if not rs:
        return Layout._make(1, 0)
    ss, dd = _coalesce_ints(rs, rd, len(rs) - 1, rs[-1], rd[-1])  # leaves not known to be plain ints here
    return Layout._make(ss[0], dd[0]) if len(ss) == 1 else Layout._make(tuple(ss), tuple(dd))


def left_inverse(layout: Layout) -> Layout:
    """A layout ``R`` with ``R(layout(i)) == i`` for every ``i < size(layout)`` (injective layouts).

    CuTe's algorithm (a fold over the strides of ``coalesce(layout)`` sorted ascending, each a
    multiple of the previous one, else AdmissibilityError). Exactly what holds:

    * ``layout`` injective: ``R(layout(i)) == i`` for every ``i < size(layout)``.
    * ``filter(layout)`` injective (stride-0 broadcast modes allowed, the other modes do not
      overlap): ``layout(R(layout(i))) == layout(i)`` -- R picks one preimage of each offset.
    * ``filter(layout)`` not injective (modes that overlap): a layout is still returned, as in
      CuTe, but neither property is promised. ``(2,3):(14,7)`` has the offsets 0,14,7,21,14,28;
      its result ``(7,2,2):(0,2,1)`` maps 28 to index 2, and ``layout(2) == 7 != 28``.

    >>> print(left_inverse(Layout((4, 2), (2, 1))))
    (2,4):(4,1)
    >>> print(left_inverse(Layout(4, 2)))
    (2,4):(0,1)
    >>> L = Layout((2, 3), (14, 7)); R = left_inverse(L)
    >>> str(R), L(5), R(L(5)), L(R(L(5)))
    ('(7,2,2):(0,2,1)', 28, 2, 7)
    """
    if layout is _:
        return _
    if type(layout) is not Layout:
        layout = _as_layout(layout, "left_inverse")
    fl = layout._iflat()
    if fl is not None and fl[0]:  # the integer fast path
        fs, fd = fl
        n = len(fs) - 1
        s, d = _coalesce_ints(fs, fd, n, fs[n], fd[n])
        for x in d:
            if x < 0:
                raise AdmissibilityError(f"left_inverse: negative stride {x} in {layout} is not supported")
        order = sorted(range(len(d)), key=d.__getitem__) if len(d) > 1 else (0,)
        rs: list = []
        rd: list = [0]
        sz = 1
        for i in order:
            di = d[i]
            if di == 0:
                continue
            if di % sz != 0:
                raise AdmissibilityError(
                    f"left_inverse: divisibility condition fails: stride {di} is not a multiple of {sz}, the size "
                    f"covered by the smaller strides of coalesce({layout})"
                )
            rs.append(di // sz)
            rd.append(_prefix(s, i))
            sz = di
        rs.append(s[order[-1]])
        n = len(rs) - 1
        return _int_layout(*_coalesce_ints(rs, rd, n, rs[n], rd[n]))
    fs, fd = layout._flat()
    if not fs:
        _raise_empty(layout, "left_inverse")
    if not (_all_int(fs) and _all_int(fd)):
        _require_int_layout(layout, "left_inverse")
    s, d = _flat_modes(layout)
    for x in d:
        if x < 0:
            raise AdmissibilityError(f"left_inverse: negative stride {x} in {layout} is not supported")
    pre = [1]
    for x in s:
        pre.append(pre[-1] * x)
    order = sorted(range(len(d)), key=lambda i: d[i])
    rs: list = []
    rd: list = [0]
    sz = 1
    for i in order:
        if d[i] == 0:
            continue
        if d[i] % sz != 0:
            raise AdmissibilityError(
                f"left_inverse: divisibility condition fails: stride {d[i]} is not a multiple of {sz}, the size "
                f"covered by the smaller strides of coalesce({layout})"
            )
        rs.append(d[i] // sz)
        rd.append(pre[i])
        sz = sz * (d[i] // sz)
    rs.append(s[order[-1]])
    return _coalesce_flat(Layout._make(tuple(rs), tuple(rd)))


# ------------------------------------------------------------------------------------------
# divide


def logical_divide(layout: Layout, tiler: Any) -> Layout:
    """Split ``layout`` into (tile, rest): ``composition(layout, (tiler, complement(tiler, size)))``.

    A tuple tiler divides mode by mode (modes beyond it are kept); ``_`` keeps a mode.

    >>> print(logical_divide(Layout(16, 1), Layout(4, 2)))
    (4,(2,2)):(2,(1,8))
    >>> print(logical_divide(Layout((8, 8), (1, 8)), (2, 4)))
    ((2,4),(4,2)):((1,2),(8,32))
    """
    if type(layout) is not Layout:
        hook = getattr(layout, "_apply_to_inner", None)
        if hook is not None and not isinstance(layout, Layout):
            return hook(logical_divide, tiler)
        layout = _as_layout(layout, "logical_divide")
    if type(tiler) is Layout:
        afl = layout._iflat()
        if afl is not None and afl[0]:
            tfl = tiler._iflat()
            if tfl is not None and tfl[0]:
                return _logical_divide_ints(layout, afl, tiler, tfl)
    if isinstance(tiler, Layout):
        target = _coalesce_flat(layout)._s
        return composition(layout, make_layout(tiler, complement(tiler, target)))
    if tiler is _:
        return layout
    if isinstance(tiler, (tuple, list)):
        return _transform_layout(layout, tuple(tiler), logical_divide)
    if type(tiler) is int and tiler > 0:
        return logical_divide(layout, Layout._make(tiler, 1 if tiler != 1 else 0))
    if it.is_int(tiler):
        return logical_divide(layout, Layout(tiler))
    raise LayoutTypeError(f"logical_divide: tiler must be a Layout, an int, _ or a tuple, got {tiler!r}")


def _logical_divide_ints(layout: Layout, afl: tuple, tiler: Layout, tfl: tuple) -> Layout:
    """``logical_divide`` of two integer layouts with modes (flat ``afl``, ``tfl``), without intermediate layouts:
    ``layout o (tiler, complement(tiler, shape(coalesce(layout))))``."""
    fs, fd = afl
    n = len(fs) - 1
    cs, cd = _coalesce_ints(fs, fd, n, fs[n], fd[n])  # coalesce(layout)
    comp = _complement_ints(tfl[0], tfl[1], cs[0] if len(cs) == 1 else tuple(cs), tiler)
    if fs[n] == 1:
        cs, cd = _coalesce_ints(fs, fd, n, 2, fd[n])  # coalesce_x(layout) differs from coalesce(layout)
    cfs, cfd = comp._fl
    return _compose_ints(cs, cd, (tiler._s, comp._s), (tiler._d, comp._d), tfl[0] + cfs, tfl[1] + cfd)


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
    s, d = layout._s, layout._d
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
            return _new_layout((tuple(s0), tuple(s1) + s[k:]), (tuple(d0), tuple(d1) + d[k:]))
    return Layout._make(_zip2_by(s, tiler), _zip2_by(d, tiler))


def zipped_divide(layout: Layout, tiler: Any) -> Layout:
    """``logical_divide`` with the tiles gathered in mode 0 and the rests in mode 1.

    >>> print(zipped_divide(Layout((8, 8), (1, 8)), (2, 4)))
    ((2,4),(4,2)):((1,8),(2,32))
    """
    if type(layout) is not Layout:
        hook = getattr(layout, "_apply_to_inner", None)
        if hook is not None and not isinstance(layout, Layout):
            return hook(zipped_divide, tiler)
    return _tile_unzip(logical_divide(layout, tiler), tiler)


def _unpack(layout: Layout, modes: tuple) -> Layout:
    coord = tuple(_ if m <= 1 else tuple(_ for _i in range(m)) for m in modes)
    return slice_and_offset(coord, layout)[0]


@_inner_aware
def tiled_divide(layout: Layout, tiler: Any) -> Layout:
    """``zipped_divide`` with the rest mode unpacked: ``((tile), rest0, rest1, ...)``.

    >>> print(tiled_divide(Layout((8, 8), (1, 8)), (2, 4)))
    ((2,4),4,2):((1,8),2,32)
    """
    z = zipped_divide(layout, tiler)
    return _unpack(z, (0, _rank_of(z._s[1])))


@_inner_aware
def flat_divide(layout: Layout, tiler: Any) -> Layout:
    """``zipped_divide`` with both modes unpacked: ``(tile0, tile1, ..., rest0, rest1, ...)``.

    >>> print(flat_divide(Layout((8, 8), (1, 8)), (2, 4)))
    (2,4,4,2):(1,8,2,32)
    """
    z = zipped_divide(layout, tiler)
    return _unpack(z, (_rank_of(z._s[0]), _rank_of(z._s[1])))


def _rank_of(t: Any) -> int:
    return len(t) if isinstance(t, tuple) else 0


# ------------------------------------------------------------------------------------------
# product


@_inner_aware
def logical_product(block: Layout, tiler: Any) -> Layout:
    """Repeat ``block`` over ``tiler``: ``(block, composition(complement(block, size*cosize(tiler)), tiler))``.

    A tuple tiler works mode by mode; an int ``n`` means the layout ``n:1`` (pycute gets this
    case wrong; see docs/differences.md).

    >>> print(logical_product(Layout((2, 2), (4, 1)), Layout(6, 1)))
    ((2,2),(2,3)):((4,1),(2,8))
    >>> print(logical_product(Layout(4, 1), 3))
    (4,3):(1,4)
    """
    block = _as_layout(block, "logical_product")
    if isinstance(tiler, Layout):
        comp = complement(block, block.size() * tiler.cosize())
        return make_layout(block, composition(comp, tiler))
    if tiler is _:
        return block
    if isinstance(tiler, (tuple, list)):
        return _transform_layout(block, tuple(tiler), logical_product)
    if it.is_int(tiler):
        return logical_product(block, Layout(tiler))
    raise LayoutTypeError(f"logical_product: tiler must be a Layout, an int, _ or a tuple, got {tiler!r}")


@_inner_aware
def zipped_product(block: Layout, tiler: Any) -> Layout:
    """``logical_product`` with block modes in mode 0 and products in mode 1.

    >>> print(zipped_product(Layout((2, 2)), (3, 4)))
    ((2,2),(3,(2,2))):((1,2),(2,(1,4)))
    """
    return _tile_unzip(logical_product(block, tiler), tiler)


@_inner_aware
def tiled_product(block: Layout, tiler: Any) -> Layout:
    """``zipped_product`` with the product mode unpacked.

    >>> print(tiled_product(Layout((2, 2)), (3, 4)))
    ((2,2),3,(2,2)):((1,2),2,(1,4))
    """
    z = zipped_product(block, tiler)
    return _unpack(z, (0, _rank_of(z._s[1])))


@_inner_aware
def flat_product(block: Layout, tiler: Any) -> Layout:
    """``zipped_product`` with both modes unpacked.

    >>> print(flat_product(Layout((2, 2)), (3, 4)))
    (2,2,3,(2,2)):(1,2,2,(1,4))
    """
    z = zipped_product(block, tiler)
    return _unpack(z, (_rank_of(z._s[0]), _rank_of(z._s[1])))


def _append_to_rank(layout: Layout, r: int) -> Layout:
    cur = layout.rank()
    if cur == r:
        return layout
    if cur > r:
        raise CongruenceError(f"append: layout {layout} already has rank {cur} > {r}")
    s = layout._s if isinstance(layout._s, tuple) else (layout._s,)
    d = layout._d if isinstance(layout._d, tuple) else (layout._d,)
    return Layout._make(s + (1,) * (r - cur), d + (0,) * (r - cur))


def _zip_layouts(a: Layout, b: Layout) -> Layout:
    def z(x, y):
        if isinstance(x, tuple):
            if not isinstance(y, tuple) or len(x) != len(y):
                raise CongruenceError(f"zip: mismatched ranks {x} vs {y}")
            return tuple((xi, yi) for xi, yi in zip(x, y))
        return ((x, y),)

    return Layout._make(z(a._s, b._s), z(a._d, b._d))


@_inner_aware
def blocked_product(block: Layout, tiler: Layout) -> Layout:
    """Each element of ``tiler`` becomes a copy of ``block`` (blocks stay contiguous per mode).

    The result has rank ``max(rank(block), rank(tiler))``; mode ``i`` is ``(block_i, tiler_i)``.

    >>> print(blocked_product(Layout((2, 2), (2, 1)), Layout((2, 3))))
    ((2,2),(2,3)):((2,4),(1,8))
    """
    block = _as_layout(block, "blocked_product")
    tiler = _as_layout(tiler, "blocked_product")
    r = max(block.rank(), tiler.rank())
    res = logical_product(_append_to_rank(block, r), _append_to_rank(tiler, r))
    return _zip_layouts(res[0], res[1])


@_inner_aware
def raked_product(block: Layout, tiler: Layout) -> Layout:
    """Like ``blocked_product`` but the copies of ``block`` are interleaved: mode ``i`` is ``(tiler_i, block_i)``.

    >>> print(raked_product(Layout((2, 2), (2, 1)), Layout((2, 3))))
    ((2,2),(3,2)):((4,2),(8,1))
    """
    block = _as_layout(block, "raked_product")
    tiler = _as_layout(tiler, "raked_product")
    r = max(block.rank(), tiler.rank())
    res = logical_product(_append_to_rank(block, r), _append_to_rank(tiler, r))
    return _zip_layouts(res[1], res[0])


def make_ordered_layout(shape_: Any, order: Any = None) -> Layout:
    """A compact layout whose modes get strides in the order given by ``order`` (smallest first).

    ``order`` is weakly congruent with the shape; the default is column-major.

    >>> print(make_ordered_layout((2, 2, 2, 2), (0, 2, 3, 1)))
    (2,2,2,2):(1,4,8,2)
    >>> print(make_ordered_layout((4, 3), (1, 0)))
    (4,3):(3,1)
    """
    s = it.as_inttuple(shape_, "make_ordered_layout", "shape")
    _validate_shape(s, "make_ordered_layout")
    if order is None:
        return Layout(s)
    o = it.as_inttuple(order, "make_ordered_layout", "order")
    if not it.weakly_congruent(o, s):
        raise CongruenceError(f"make_ordered_layout: order {format_inttuple(o)} is not weakly congruent with shape "
                              f"{format_inttuple(s)}")
    flat_o = flatten(o)
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

    return Layout._make(s, go(s, o))


def _product_like(s: Any, guide: Any) -> Any:
    if isinstance(guide, tuple):
        return tuple(_product_like(x, g) for x, g in zip(s, guide))
    return product(s)


def tile_to_shape(block: Layout, trg_shape: Any, order: Any = None) -> Layout:
    """Repeat ``block`` until it has shape ``trg_shape`` (``blocked_product`` by the missing factors).

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
    block = _as_layout(block, "tile_to_shape")
    t = it.as_inttuple(trg_shape, "tile_to_shape", "target shape")
    _validate_shape(t, "tile_to_shape")
    r = it.rank(t)
    if block.rank() > r:
        raise CongruenceError(f"tile_to_shape: block {block} has rank {block.rank()} > rank {r} of the target {t}")
    padded = _append_to_rank(block, r)
    bshape = it.product_each(padded._s)
    tshape = it.product_each(t)
    for i, (ts, bs) in enumerate(zip(tshape, bshape)):
        if not divides(bs, ts):
            raise AdmissibilityError(
                f"tile_to_shape: block shape does not divide the target shape: mode {i} of the target has size {ts}, "
                f"not a multiple of the block's {bs}"
            )
    prod = tuple(_simplify(ts / bs) if type(ts) is not int or type(bs) is not int else ts // bs
                 for ts, bs in zip(tshape, bshape))
    return blocked_product(padded, make_ordered_layout(prod, order))


# ------------------------------------------------------------------------------------------
# up/down/recast


def _check_pos_int(n: Any, who: str) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or int(n) <= 0:
        raise LayoutValueError(f"{who}: the factor must be a positive integer, got {n!r}")
    return int(n)


def upcast(layout: Layout, n: int) -> Layout:
    """View ``layout`` in units ``n`` times larger: stride-1 modes shrink by ``n``, other strides divide by ``n``.

    Each non-zero stride must divide ``n`` or be a multiple of it (CuTe's divisibility
    condition).

    >>> print(upcast(Layout((8, 64), (64, 1)), 8))
    (8,8):(8,1)
    """
    comp = getattr(layout, "_upcast", None)
    if comp is not None and not isinstance(layout, Layout):
        return comp(n)
    layout = _as_layout(layout, "upcast")
    n = _check_pos_int(n, "upcast")
    _require_modes(layout, "upcast")

    def go(s, d):
        if isinstance(s, tuple):
            return tuple(zip(*[go(x, y) for x, y in zip(s, d)])) if s else ((), ())
        if d == 0 if type(d) is int else is_eq(d, 0):
            return s, d
        if type(d) is int:
            ad = abs(d)
            if ad % n != 0 and n % ad != 0:
                raise AdmissibilityError(f"upcast<{n}>: stride {d} and {n} do not divide one another (mode of shape {s})")
            return ceil_div(s, ceil_div(n, ad)), signum(d) * ceil_div(ad, n)
        if divides(n, d):
            return s, _simplify(d / n)
        raise SymbolicUndecidable(f"upcast<{n}>: cannot decide that {n} divides the symbolic stride {d}")

    s, d = go(layout._s, layout._d)
    return Layout._make(s, d)


def downcast(layout: Layout, n: int) -> Layout:
    """View ``layout`` in units ``n`` times smaller: stride-1 modes grow by ``n``, other strides multiply by ``n``.

    Requires a stride-1 mode (adjacent elements), as CuTe does.

    >>> print(downcast(Layout((8, 8), (8, 1)), 8))
    (8,64):(64,1)
    """
    comp = getattr(layout, "_downcast", None)
    if comp is not None and not isinstance(layout, Layout):
        return comp(n)
    layout = _as_layout(layout, "downcast")
    n = _check_pos_int(n, "downcast")
    if 1 not in flatten(layout._d) and -1 not in flatten(layout._d):
        raise AdmissibilityError(f"downcast<{n}>: layout {layout} has no stride-1 mode (CuTe requires adjacent elements)")

    def go(s, d):
        if isinstance(s, tuple):
            return tuple(zip(*[go(x, y) for x, y in zip(s, d)])) if s else ((), ())
        if d == 1 or d == -1:
            return s * n, d
        return s, d * n

    s, d = go(layout._s, layout._d)
    return Layout._make(s, d)


def recast(layout: Layout, old_bits: int, new_bits: int) -> Layout:
    """Reinterpret a layout of ``old_bits``-wide elements as ``new_bits``-wide ones (CuTe's ``recast_layout``).

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

    >>> print(max_common_layout(Layout((4, 8), (1, 4)), Layout((4, 8), (1, 4))))
    32:1
    """
    a = _as_layout(a, "max_common_layout")
    b = _as_layout(b, "max_common_layout")
    inv_b = right_inverse(b)
    common = coalesce(composition(a, inv_b))
    s0 = common._s[0] if isinstance(common._s, tuple) else common._s
    d0 = common._d[0] if isinstance(common._d, tuple) else common._d
    if d0 == 1:
        return composition(inv_b, Layout._make(s0, d0))
    return Layout._make(1, 0)


def max_common_vector(a: Layout, b: Layout) -> int:
    """Number of contiguous elements that ``a`` and ``b`` map identically (vector width).

    >>> max_common_vector(Layout((8, 8), (1, 8)), Layout((8, 8), (1, 8)))
    64
    >>> max_common_vector(Layout((8, 8), (1, 8)), Layout((8, 8), (8, 1)))
    1
    """
    a = _as_layout(a, "max_common_vector")
    b = _as_layout(b, "max_common_vector")
    common = coalesce(composition(a, right_inverse(b)))
    s0 = common._s[0] if isinstance(common._s, tuple) else common._s
    d0 = common._d[0] if isinstance(common._d, tuple) else common._d
    return s0 if d0 == 1 else 1


def nullspace(layout: Layout) -> Layout:
    """The sub-layout of the stride-0 modes (indices that ``layout`` maps to 0).

    >>> print(nullspace(Layout((4, 2, 3), (1, 0, 0))))
    (2,3):(4,8)
    """
    layout = _as_layout(layout, "nullspace")
    fs, fd = flatten(layout._s), flatten(layout._d)
    pre = flatten(it.compact_col_major(fs))
    idx = [i for i, d in enumerate(fd) if d == 0]
    if not idx:
        return Layout._make(1, 0)
    s = tuple(fs[i] for i in idx)
    d = tuple(pre[i] for i in idx)
    return Layout._make(_unwrap(s), _unwrap(d))


class IdentityLayout:
    """CuTe's ``make_identity_layout(shape)``: maps each index to its own hierarchical coordinate.

    CuTe builds it with basis-vector strides (``(4,8):(_1@0,_1@1)``); here it is a small object
    with the same printing, call and ``to_numpy`` (an array of coordinates).

    >>> I = make_identity_layout((4, 8))
    >>> str(I), I(9), I(1, 2)
    ('(4,8):(1@0,1@1)', (1, 2), (1, 2))
    """

    __slots__ = ("_s",)

    def __init__(self, shape_: Any):
        s = it.as_inttuple(shape_, "make_identity_layout", "shape")
        _validate_shape(s, "make_identity_layout")
        self._s = s

    @property
    def shape(self) -> Any:
        """The shape."""
        return self._s

    def size(self) -> Any:
        """Number of coordinates."""
        return product(self._s)

    def rank(self) -> int:
        """Number of modes."""
        return it.rank(self._s)

    def __call__(self, *coord: Any) -> Any:
        c = coord[0] if len(coord) == 1 else tuple(coord)
        if isinstance(c, tuple):
            _check_coord(c, self._s)
            return c
        return it.idx2crd(c, self._s)

    def to_numpy(self) -> np.ndarray:
        """Coordinates of every index as an array of shape (size, number of leaves)."""
        fs = flatten(self._s)
        idx = np.arange(self.size(), dtype=np.int64)
        cols = []
        for s in fs:
            cols.append(idx % s)
            idx = idx // s
        return np.stack(cols, axis=1)

    def _stride_text(self) -> str:
        def go(s, path):
            if isinstance(s, tuple):
                return "(" + ",".join(go(x, path + (i,)) for i, x in enumerate(s)) + ")"
            return "1" + "".join(f"@{p}" for p in reversed(path))

        if not isinstance(self._s, tuple):
            return "1"
        return go(self._s, ())

    def __str__(self) -> str:
        return f"{format_inttuple(self._s)}:{self._stride_text()}"

    def __repr__(self) -> str:
        return f"make_identity_layout({self._s!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, IdentityLayout) and other._s == self._s

    def __hash__(self) -> int:
        return hash(("IdentityLayout", self._s))


def make_identity_layout(shape_: Any) -> IdentityLayout:
    """The layout that maps every index to its coordinate in ``shape`` (see :class:`IdentityLayout`).

    >>> make_identity_layout((2, 3))(5)
    (1, 2)
    """
    return IdentityLayout(shape_)


def _iter_layouts(xs: Iterable) -> list[Layout]:
    return [_as_layout(x, "make_layout") for x in xs]


# Re-exported error types for convenience in this module's namespace.
_ERRORS = (LayoutError, CoordinateError)
