"""The ``Layout`` type: CuTe's ``Shape:Stride`` function from coordinates to offsets.

A :class:`Layout` pairs a hierarchical shape with a congruent stride. It maps a coordinate
``c`` (an integer index, a flat coordinate or a hierarchical one) to ``sum(c_i * d_i)``::

    (8,4):(4,1)            row-major 8x4:   (i, j) -> 4*i + j
    ((8,2),(4,4)):((4,32),(1,64))

This module constructs, evaluates (one point, or a whole domain in numpy), slices and prints
layouts; the operations on them are in :mod:`pycute_layouts.core.algebra`. Layouts are immutable
and hashable and cache their flattened modes; ``int_flat_modes()`` is the integer fast path the
algebra takes, ``from_normalized``/``new_layout``/``int_layout`` the trusted constructors it uses
for results it has computed (no validation).

>>> L = Layout(((8, 2), (4, 4)), ((4, 32), (1, 64)))
>>> print(L)
((8,2),(4,4)):((4,32),(1,64))
>>> L(11, 5), L((3, 1), (1, 1)), L(91)
(109, 109, 109)
>>> print(L[1]), L.size(), L.cosize()
(4,4):(1,64)
(None, 256, 256)
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from ..errors import (
    CongruenceError,
    CoordinateError,
    LayoutTypeError,
    LayoutValueError,
    SymbolicUndecidable,
)
from ..limits import MAX_EVAL_POINTS, MAX_INT_DIGITS, MAX_NESTING_DEPTH, check_budget, check_count, fmt
from . import inttuple as it
from .basis import E, ScaledBasis, basis_components, coprofile, scaled_basis, to_coord
from .display import rich_repr
from .f2 import F2, clmul
from .grammar import Constructors, parse_layout_text
from .inttuple import (
    all_int,
    flatten,
    format_inttuple,
    product,
    signum,
    simplify,
    validate_shape,
)
from .symbols import subs_inttuple

__all__ = [
    "make_identity_layout",
    "basis_like",
    "Layout",
    "Underscore",
    "_",
    "make_layout",
    "is_layout_like",
    "size",
    "cosize",
    "rank",
    "depth",
    "shape",
    "stride",
    "slice_and_offset",
    "as_layout",
    "require_offsets",
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


def has_underscore(c: Any) -> bool:
    """True when the coordinate ``c`` holds ``_`` (a slice). Iterative, and the one place every coordinate path
    (Layout, ComposedLayout, SwizzledSmemLayout, Tensor) passes first, so it refuses nesting deeper than
    ``MAX_NESTING_DEPTH`` before any recursion sees it.

    >>> has_underscore((1, (_, 2))), has_underscore((1, 2))
    (True, False)
    """
    if c is _:
        return True
    if not isinstance(c, tuple):
        return False
    found = False
    stack = [(c, 0)]
    while stack:
        e, d = stack.pop()
        if d >= MAX_NESTING_DEPTH:
            raise LayoutValueError(f"coordinate is nested more than MAX_NESTING_DEPTH = {MAX_NESTING_DEPTH} levels deep")
        for x in e:
            if x is _:
                found = True
            elif isinstance(x, tuple):
                stack.append((x, d + 1))
    return found


# ------------------------------------------------------------------------------------------
# Layout

_new = object.__new__
#: no argument given (Layout.__call__'s first coordinate)
_NOARG = object()


#: Integers below this bound in magnitude have at most MAX_INT_DIGITS digits (the fast paths check it).
_INT_BOUND = 10**MAX_INT_DIGITS
_NEG_INT_BOUND = -_INT_BOUND  # (a constant: -_INT_BOUND in a condition allocates a big int each time)
#: The constructor's first checks compare with this bound: a one-digit int, so CPython's specialised int
#: comparison applies (a comparison with _INT_BOUND takes the generic path); a larger leaf takes the next check.
_SMALL = (1 << 30) - 1
_NEG_SMALL = -_SMALL


def _fast_flat(s: tuple, d: tuple) -> tuple[tuple, tuple] | None:
    """``(flatten(s), flatten(d))`` for the fast path of ``Layout(s, d)``, or None for the checked path.

    Pre:  ``s``, ``d`` are tuples of equal length.
    Post: not None iff ``s``, ``d`` are congruent nested tuples of plain ints (at most MAX_NESTING_DEPTH deep),
          every shape positive and every leaf within MAX_INT_DIGITS digits (the checked path refuses the rest
          or normalises it: zero extents, sympy leaves, lists); ``(s, d)`` itself where both are flat and
          every leaf is below _SMALL in magnitude.
    """
    if len(s) == 3:  # (the next commonest rank, unrolled)
        a, b, c = s
        x, y, z = d
        if type(a) is int and type(b) is int and type(c) is int and type(x) is int and type(y) is int \
                and type(z) is int and 0 < a < _SMALL and 0 < b < _SMALL and 0 < c < _SMALL \
                and _NEG_SMALL < x < _SMALL and _NEG_SMALL < y < _SMALL and _NEG_SMALL < z < _SMALL:
            return s, d
        return _fast_flat_nested(s, d)
    for x in s:
        if type(x) is not int or x <= 0 or x >= _SMALL:
            return _fast_flat_nested(s, d)
    for y in d:
        if type(y) is not int or not _NEG_SMALL < y < _SMALL:
            return _fast_flat_nested(s, d)
    return s, d


def _fast_flat_nested(s: tuple, d: tuple) -> tuple[tuple, tuple] | None:
    """``_fast_flat`` where some mode is nested or some leaf is not small (built by tuple concatenation)."""
    fs = fd = ()
    B = _INT_BOUND
    NB = _NEG_INT_BOUND
    i = 0
    for x in s:  # the first two levels inline (most nested shapes), deeper ones by _fast_flat_into
        y = d[i]
        i += 1
        if type(x) is int:  # (a small leaf passes the first, specialised, comparison)
            if type(y) is not int or not (0 < x < _SMALL or 0 < x < B) or not (_NEG_SMALL < y < _SMALL or NB < y < B):
                return None
            fs += (x,)
            fd += (y,)
        elif type(x) is tuple and type(y) is tuple and len(x) == len(y):
            if len(x) == 2:  # (the commonest inner mode, unrolled; small leaves compare fastest)
                a, b = x
                c, e = y
                if type(a) is int and type(b) is int and type(c) is int and type(e) is int and 0 < a < _SMALL \
                        and 0 < b < _SMALL and _NEG_SMALL < c < _SMALL and _NEG_SMALL < e < _SMALL:
                    fs += x
                    fd += y
                    continue
            ls: list = []
            ld: list = []
            if not _fast_flat_into(x, y, ls, ld, 1):
                return None
            fs += tuple(ls)
            fd += tuple(ld)
        else:
            return None
    return fs, fd


def _fast_flat_into(s: tuple, d: tuple, fs: list, fd: list, level: int) -> bool:
    """Append the leaves of ``s``/``d`` (tuples of equal length) to ``fs``/``fd``; False (nothing promised
    about ``fs``/``fd``) where ``_fast_flat_nested`` returns None."""
    if level >= MAX_NESTING_DEPTH:
        return False  # the checked path says why
    i = 0
    for x in s:
        y = d[i]
        i += 1
        if type(x) is int:
            if type(y) is not int or x <= 0 or x >= _INT_BOUND or not _NEG_INT_BOUND < y < _INT_BOUND:
                return False
            fs.append(x)
            fd.append(y)
        elif type(x) is not tuple or type(y) is not tuple or len(x) != len(y) or not _fast_flat_into(x, y, fs, fd, level + 1):
            return False
    return True


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
    # _cp (the coordinate profile of basis strides, None for integer strides) is set with _fl, read only when not _fi;
    # _bp (set with _cp when it is not None) is _flat_basis_plan's plan (or None): how L(i) evaluates in ints
    __slots__ = ("_s", "_d", "_fl", "_fi", "_cp", "_bp", "_size", "_hash")

    def __init__(self, shape: Any, stride: Any = None):
        # fast paths: plain ints, positive shapes, congruent -- nothing to normalise (the flat modes are kept)
        if type(shape) is tuple:
            if type(stride) is tuple and len(shape) == len(stride):
                if len(shape) == 2:  # (the commonest rank, unrolled)
                    a, b = shape
                    c, e = stride
                    if type(a) is int and type(b) is int and type(c) is int and type(e) is int and 0 < a < _SMALL \
                            and 0 < b < _SMALL and _NEG_SMALL < c < _SMALL and _NEG_SMALL < e < _SMALL:
                        fl = (shape, stride)
                    else:
                        fl = _fast_flat_nested(shape, stride)
                else:
                    fl = _fast_flat(shape, stride)
                if fl is not None:
                    self._s = shape
                    self._d = stride
                    self._fl = fl
                    self._fi = True
                    self._size = None
                    self._hash = None
                    return
        elif type(shape) is int and 0 < shape < _INT_BOUND:
            d = 1 if stride is None and shape > 1 else stride
            if type(d) is int and _NEG_INT_BOUND < d < _INT_BOUND:
                self._s = shape
                self._d = d
                self._fl = ((shape,), (d,))
                self._fi = True
                self._size = None
                self._hash = None
                return
        if isinstance(shape, str) and stride is None:
            parsed = parse_layout_text(Constructors(layout=Layout, basis=scaled_basis, f2=F2), shape, {})
            s, d = parsed._s, parsed._d
        else:
            if isinstance(shape, Layout):
                raise LayoutTypeError("Layout: pass shape and stride, or use make_layout(layout) to copy")
            s = it.as_inttuple(shape, "Layout", "shape")
            validate_shape(s, "Layout")
            if stride is None:
                d = it.compact_col_major(s)
            else:
                d = it.as_stride(stride, "Layout")
                _check_stride_kinds(d)
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
    def from_normalized(cls, s: Any, d: Any) -> Layout:
        """Trusted constructor (no validation): for results computed inside the package."""
        obj = _new(Layout)
        obj._s = s
        obj._d = d
        obj._fl = None
        obj._size = None
        obj._hash = None
        return obj

    def flat_modes(self) -> tuple[tuple, tuple]:
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
        # a size-0 layout (a zero extent) takes the checked paths, which refuse to evaluate it
        fi = self._fi = all_int(fl[0]) and all_int(fl[1]) and 0 not in fl[0]
        cp = self._cp = None if fi or not any(type(x) is ScaledBasis for x in fl[1]) else coprofile(fl[1])
        if cp is not None:
            self._bp = _flat_basis_plan(fl[0], fl[1], cp)
        return fl

    def coord_profile(self) -> Any:
        """The nested zero tuple of the coordinates a layout with basis strides maps to; None for offsets.

        >>> Layout((4, 8), (E(0), E(1))).coord_profile(), Layout((4, 8)).coord_profile()
        ((0, 0), None)
        """
        self.flat_modes()
        return None if self._fi else self._cp

    def int_flat_modes(self) -> tuple[tuple, tuple] | None:
        """Cached flat shape and stride when every leaf is a plain int (the integer fast paths), else None."""
        fl = self._fl
        if fl is None:
            fl = self.flat_modes()
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
            size = self._size = simplify(product(self._s))
        return size

    def cosize(self) -> Any:
        """``L(size - 1) + 1`` (CuTe's definition): the extent of the codomain for non-negative strides.

        >>> Layout((8, 4), (1, 16)).cosize()
        56
        >>> import sympy; m, n = sympy.symbols('m n', positive=True, integer=True)
        >>> Layout((m, n), (1, m)).cosize()
        m*n
        """
        fs, fd = self.flat_modes()
        if not self._fi and self._cp is not None:  # a coordinate layout: CuTe's size(coshape)
            return it.product(self.coshape())
        if not self._fi and any(type(d) is F2 for d in fd):  # XOR: bounded by the highest bit any mode reaches
            top = max((clmul(s - 1, d.value) if type(d) is F2 else 0).bit_length() for s, d in zip(fs, fd))
            return 1 << top
        r = 1
        for s, d in zip(fs, fd):
            if type(d) is int:
                r = r + (s - 1) * (d if d >= 0 else -d)
            else:
                r = r + (s - 1) * (d if signum(d) >= 0 else -d)
        return simplify(r)

    def coshape(self) -> Any:
        """CuTe's ``coshape``: ``cosize()`` for offsets; for basis strides the extent along each ``E(k)``.

        Pre:  any layout. Post: an int (or expression) equal to ``cosize()`` for integer, symbolic or F2
              strides; for basis strides a tuple congruent with the codomain's profile whose product is
              ``cosize()``.

        >>> Layout((4, 8), (1, 4)).coshape(), Layout((4, 8), (E(1), E(0))).coshape()
        (32, (8, 4))
        """
        self.flat_modes()
        if not self._fi and self._cp is not None:  # a coordinate layout: the cosize of each component
            return it.unflatten(tuple(c.cosize() for c in self.components()), self._cp)
        return self.cosize()

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
        if self._fl is not None and self._fi:  # every leaf a plain int (cached flat modes): nothing symbolic
            return False
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

    def _repr_svg_(self) -> str | None:
        """IPython's display protocol: the picture (see :mod:`pycute_layouts.core.display`), or None for text."""
        return rich_repr(self, "svg")

    def __repr__(self) -> str:
        return f"Layout('{self}')"

    def __reduce__(self):
        return (Layout.from_normalized, (self._s, self._d))

    def __len__(self) -> int:
        return self.rank()

    def __iter__(self):
        for i in range(self.rank()):
            yield self[i]

    def __getitem__(self, key: Any) -> Any:
        if type(key) is int and isinstance(self._s, tuple) and -len(self._s) <= key < len(self._s):
            return mode_layout(self._s[key], self._d[key], self._fl is not None and self._fi)
        if isinstance(key, (tuple, Underscore)) and has_underscore(key):
            return slice_and_offset(key, self)
        if isinstance(key, bool) or not isinstance(key, (int, np.integer)):
            if isinstance(key, tuple):
                return self._get_path(key)
            raise LayoutTypeError(f"Layout[{fmt(key)}]: mode index must be an int")
        i = int(key)
        r = self.rank()
        if not -r <= i < r:
            raise CoordinateError(f"Layout[{i}]: mode index out of range for a rank-{r} layout {self}")
        if not isinstance(self._s, tuple):
            return self
        return Layout.from_normalized(self._s[i], self._d[i])

    def _get_path(self, path: tuple) -> Layout:
        cur = self
        for k in path:
            cur = cur[k]
        return cur

    # -- evaluation ----------------------------------------------------------------------
    def __call__(self, c: Any = _NOARG, *coord: Any, check: bool = False) -> Any:
        """``L(i)``, ``L(c0, c1, ...)`` or ``L((c0, c1))``: the offset (a coordinate for basis strides).

        Pre:  an index, a flat or a hierarchical coordinate of the shape; ``check=True`` also bounds an
              index to ``[0, size)``. Post: CuTe's ``L(c)``; a coordinate with ``_`` gives the sub-layout.
        """
        if type(c) is int and check is False and not coord:  # the integer fast path (no sympy, no checks)
            fl = self._fl
            if fl is None:
                fl = self.flat_modes()
            if self._fi:
                fs, fd = fl
                n = len(fs)
                if n == 2:  # flat ranks 2-4 unrolled (a helper call would cost as much as the arithmetic)
                    s = fs[0]
                    return c % s * fd[0] + c // s * fd[1]
                if n == 3:
                    s = fs[0]
                    q = c // s
                    t = fs[1]
                    return c % s * fd[0] + q % t * fd[1] + q // t * fd[2]
                if n == 4:
                    s = fs[0]
                    q = c // s
                    t = fs[1]
                    u = q // t
                    v = fs[2]
                    return c % s * fd[0] + q % t * fd[1] + u % v * fd[2] + u // v * fd[3]
                if n:  # (an empty layout: _index refuses it)
                    n -= 1
                    r = 0
                    for i in range(n):  # mixed-radix digits times strides; the last digit is unbounded
                        s = fs[i]
                        r += c % s * fd[i]
                        c //= s
                    return r + c * fd[n]
            if c.bit_length() > 200:  # a symbolic layout would carry it into sympy's printer
                check_count("Layout", "the index", c, None, None, CoordinateError)
            return self._index(c)
        return self._call_checked(coord if c is _NOARG else (c,) + coord, check)

    def _call_checked(self, coord: tuple, check: Any) -> Any:
        """``__call__`` for everything but a plain int index of an integer layout.

        Pre:  ``coord`` is the tuple of call arguments. Post: validated (LayoutError otherwise), then
              dispatched by kind: ``_`` slices, int index, numpy array, F2 index, coordinate.
        """
        if check is not False and check is not True and not isinstance(check, np.bool_):
            raise LayoutTypeError(f"Layout(): check must be a bool, got {fmt(check)}"[:200])
        if len(coord) == 0:
            raise CoordinateError("Layout(): a coordinate or index is required")
        if not self.flat_modes()[0]:
            raise_empty(self, "calling")
        if not self._fi and self.size() == 0 and not (isinstance(coord[0], np.ndarray) and coord[0].size == 0):
            raise_zero_size(self, coord)
        c = coord[0] if len(coord) == 1 else tuple(coord)
        if isinstance(c, list):
            c = tuple(c)
        if type(c) is int and c.bit_length() > 200:  # a symbolic layout would carry it into sympy's printer
            check_count("Layout", "the index", c, None, None, CoordinateError)
        if isinstance(c, tuple) and not it.all_int(c):
            try:
                it.check_nesting(c, "Layout", "the coordinate")
            except LayoutValueError:  # named with the layout only when it fails (formatting it costs more than the call)
                it.check_nesting(c, f"Layout {self}", "the coordinate")
        if has_underscore(c):
            return slice_and_offset(c, self, check=check)[0]
        if type(c) is int:
            if check and not 0 <= c < self.size():
                raise CoordinateError(f"Layout {self}: index {c} is out of range [0, {self.size()})")
            return self._index(c)
        if isinstance(c, np.ndarray):
            return self._eval_numpy(c, check)
        if type(c) is F2:
            return self._f2_index(c)
        return self._coord_offset(c, check)

    def _coord_offset(self, c: Any, check: Any) -> Any:
        """A (flat or hierarchical) coordinate -> offset. Pre: ``c`` is a validated coordinate tuple or leaf.
        Post: ``crd2idx(c, shape, stride)``, as a coordinate for basis strides, an int for F2 strides."""
        check_coord(c, self._s)
        r = it.crd2idx(c, self._s, self._d, check=check)
        cp = self.coord_profile()
        if cp is not None:
            return _f2_as_int(to_coord(r, cp))
        return r.value if type(r) is F2 else simplify(r)

    def _f2_index(self, c: F2) -> int:
        """An F2 index: split into the bits of the (power-of-two) shape, every product carry-less, summed by XOR."""
        fs, fd = self.flat_modes()
        if not all(type(s) is int for s in fs) or not all(type(d) in (int, F2) for d in fd):
            raise LayoutTypeError(f"Layout {self}: an F2 index needs integer shapes and integer or F2 strides")
        crd = it.idx2crd(c, fs if len(fs) > 1 else fs[0])
        crd = crd if isinstance(crd, tuple) else (crd,)
        r = 0
        for x, d in zip(crd, fd):
            v = d.value if type(d) is F2 else d
            if v < 0:
                raise LayoutValueError(f"Layout {self}: a carry-less product needs strides >= 0, got {d}")
            r ^= clmul(int(x), v)
        return r

    def _index(self, c0: int) -> Any:
        """Integer index -> offset, CuTe semantics (the last mode extends), cached flat modes."""
        fs, fd = self.flat_modes()
        c = c0
        n = len(fs) - 1
        if n < 0:
            raise_empty(self, "calling")
        if 0 in fs:
            raise_zero_size(self, c0)
        if not self._fi and self._cp is not None:
            plan = self._bp
            if plan is not None:  # a flat coordinate: plain int arithmetic per mode (no ScaledBasis sums)
                return _basis_index(c0, fs, plan, len(self._cp))
        r = 0
        for i in range(n):
            si = fs[i]
            if type(si) is not int:
                r = _crd2idx_int(c0, self._s, self._d)
                if not self._fi and self._cp is not None:  # a coordinate, as for integer shapes
                    return _f2_as_int(to_coord(r if type(r) is ScaledBasis else 0, self._cp))
                return r
            c, m = divmod(c, si)
            r += m * fd[i]
        r = r + c * fd[n]
        if not self._fi and self._cp is not None:
            return _f2_as_int(to_coord(r, self._cp))
        if type(r) is F2:
            return r.value
        return r if type(r) is int else simplify(r)

    def _eval_numpy(self, idx: np.ndarray, check: bool) -> np.ndarray:
        if not np.issubdtype(idx.dtype, np.integer):
            raise LayoutTypeError(f"Layout {self}: numpy indices must be integers, got dtype {idx.dtype}")
        if self.is_symbolic():
            raise SymbolicUndecidable(f"Layout {self}: cannot evaluate a symbolic layout on numpy arrays; subs() first")
        cp = self.coord_profile()
        if cp is not None:  # one integer layout per coordinate component, stacked on a last axis
            return np.stack([c._eval_numpy(idx, check) for c in self.components()], axis=-1)
        idx = idx.astype(np.int64, copy=False)
        if idx.size and self.size() == 0:
            raise_zero_size(self, "a numpy index array")
        if check and idx.size and (idx.min() < 0 or idx.max() >= self.size()):
            raise CoordinateError(f"Layout {self}: indices out of range [0, {self.size()})")
        fs, fd = flatten(self._s), flatten(self._d)
        out = np.zeros(idx.shape, dtype=np.int64)
        rest = idx
        n = len(fs)
        for i, (s, d) in enumerate(zip(fs, fd)):
            if i == n - 1:
                m = rest
            else:
                rest, m = np.divmod(rest, s)
            if type(d) is F2:
                out ^= _clmul_numpy(m, d.value)
            else:
                out += m * d
        return out

    def to_numpy(self) -> np.ndarray:
        """``L(i)`` for every ``i`` in ``[0, size)``, as an int64 array, without a per-point Python loop.

        >>> Layout((2, 3), (3, 1)).to_numpy()
        array([0, 3, 1, 4, 2, 5])
        """
        if self.is_symbolic():
            raise SymbolicUndecidable(f"Layout {self}: to_numpy needs integer shapes and strides; subs() first")
        require_modes(self, "to_numpy")
        check_budget("Layout.to_numpy", f"layout {self}", self.size(), MAX_EVAL_POINTS)
        if self.coord_profile() is not None:  # one column per coordinate component
            return np.stack([c.to_numpy() for c in self.components()], axis=1)
        fs, fd = flatten(self._s), flatten(self._d)
        if any(type(d) is F2 for d in fd):
            return self._eval_numpy(np.arange(self.size(), dtype=np.int64), False)
        out = np.zeros(1, dtype=np.int64)
        # Column-major: mode 0 varies fastest, so each later mode becomes the outer axis.
        for s, d in zip(fs, fd):
            out = ((np.arange(s, dtype=np.int64) * d)[:, None] + out[None, :]).reshape(-1)
        return out

    def components(self) -> list[Layout]:
        """The integer layouts of the coordinate components of a layout with basis strides, in order.

        Pre:  the layout has basis strides (coord_profile() is not None).
        Post: flatten(self(i)) == tuple(c(i) for c in self.components()).

        >>> [str(c) for c in Layout((4, 8), (E(0), E(1))).components()]
        ['(4,8):(1,0)', '(4,8):(0,1)']
        """
        cp = self.coord_profile()
        if cp is None:
            raise LayoutTypeError(f"components: {self} has integer strides (it maps to offsets, not coordinates)")
        fs, fd = self.flat_modes()
        return [Layout.from_normalized(self._s, it.unflatten(d, self._d) if isinstance(self._d, tuple) else d[0])
                for _p, d in basis_components(fd, cp)]

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
        mapping = subs_mapping(args, kwargs)
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
            if type(leaf) is not int and type(leaf) is not ScaledBasis and type(leaf) is not F2:
                out |= leaf.free_symbols
        return out


@functools.lru_cache(maxsize=512)
def _flat_basis_plan(fs: tuple, fd: tuple, cp: Any) -> tuple | None:
    """``(component, scale)`` per flat mode of a coordinate layout with a flat profile, else None.

    Pre:  ``fs``/``fd`` the flat modes, ``cp`` the coordinate profile.
    Post: not None iff ``cp`` is a flat tuple of 0s, every shape an int and every stride the int 0 or
          ``v*E(k)`` with one term and an int ``v``; then mode ``i`` adds ``digit_i * v`` to component ``k``
          (``(0, 0)`` for a 0 stride, which adds nothing).
    """
    if type(cp) is not tuple or any(p != 0 for p in cp) or not all(type(x) is int for x in fs):
        return None
    plan = []
    for d in fd:
        if type(d) is int and d == 0:
            plan.append((0, 0))
            continue
        if type(d) is not ScaledBasis or len(d.terms) != 1:
            return None
        (path, v), = d.terms
        if len(path) != 1 or type(v) is not int:
            return None
        plan.append((path[0], v))
    return tuple(plan)


def _basis_index(c: int, fs: tuple, plan: tuple, rank: int) -> tuple:
    """The coordinate of index ``c`` under a flat basis plan (the last mode extends, as CuTe's).

    Pre:  ``plan = _flat_basis_plan(fs, ...)`` is not None, ``fs`` has no 0. Post: ``L(c)`` as a tuple of ints.
    """
    out = [0] * rank
    n = len(fs) - 1
    for i in range(n):
        c, m = divmod(c, fs[i])
        k, v = plan[i]
        out[k] += m * v
    k, v = plan[n]
    out[k] += c * v
    return tuple(out)


def _f2_as_int(c: Any) -> Any:
    """A coordinate with its F2 components (F2-valued basis strides) as the plain ints they are."""
    if isinstance(c, tuple):
        return tuple(_f2_as_int(x) for x in c)
    return c.value if type(c) is F2 else c


def _check_stride_kinds(d: Any) -> None:
    """LayoutTypeError when basis, F2 and nonzero integer strides are mixed in one layout (0 fits all)."""
    leaves = flatten(d)
    kinds = {type(x) for x in leaves if not (type(x) is int and x == 0)}
    special = kinds & {ScaledBasis, F2}
    if ScaledBasis in kinds:
        coprofile(leaves)  # a codomain component reached both as a leaf and as a tuple is refused here
    if special and len(kinds) > 1:
        other = sorted(k.__name__ for k in kinds)
        raise LayoutTypeError(
            f"Layout: stride {format_inttuple(d)} mixes strides of the kinds {other} (basis, F2, integer); "
            "a layout maps to offsets (integer strides), XOR offsets (F2) or coordinates (basis strides); 0 fits all"
        )


def _clmul_numpy(m: np.ndarray, d: int) -> np.ndarray:
    """Carry-less products ``m * d`` elementwise for non-negative ``m``."""
    out = np.zeros(m.shape, dtype=np.int64)
    b = 0
    while True:
        bit = (m >> b) & 1
        if not bit.any() and (m >> b).max(initial=0) == 0:
            return out
        out ^= bit * (d << b)
        b += 1


def subs_mapping(args: tuple, kwargs: dict) -> dict:
    mapping: dict = {}
    for a in args:
        if not isinstance(a, dict):
            raise LayoutTypeError(f"subs: positional arguments must be dicts, got {fmt(a)}")
        mapping.update(a)
    mapping.update(kwargs)
    return mapping


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
    return simplify(r) if type(r) is not int else r


def check_coord(c: Any, s: Any) -> None:
    if isinstance(c, tuple):
        if not isinstance(s, tuple):
            raise CongruenceError(f"coordinate {format_inttuple(c)} has more modes than shape {format_inttuple(s)}")
        if len(c) != len(s):
            raise CongruenceError(
                f"coordinate {format_inttuple(c)} has {len(c)} modes but the shape {format_inttuple(s)} has {len(s)}"
            )
        for x, y in zip(c, s):
            check_coord(x, y)
        return
    if isinstance(c, bool) or not (isinstance(c, (int, np.integer, np.ndarray)) or it.is_int(c)):
        raise LayoutTypeError(f"coordinate leaves must be integers, got {fmt(c)}")


# ------------------------------------------------------------------------------------------
# construction and access


def as_layout(x: Any, who: str, offsets: bool = False) -> Layout:
    """THE layout slot check: ``x`` as a Layout (an int ``n`` is the layout ``n:1``); with ``offsets``, only a
    layout whose values are offsets (integer or F2 strides), not coordinates (basis strides).

    Post: LayoutTypeError naming ``who`` for anything else: a Tensor, a ComposedLayout, an atom, a shape.

    >>> as_layout(8, "f")
    Layout('8:1')
    >>> as_layout(Layout("(4,8):(1@0,1@1)"), "to_svg", offsets=True)
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.LayoutTypeError: to_svg: (4,8):(1@0,1@1) has basis strides: its values are coordinates, ...
    """
    if type(who) is not str or not isinstance(offsets, bool):
        raise LayoutTypeError(f"as_layout: who must be a string and offsets a bool, got {fmt(who)}, {fmt(offsets)}")
    if isinstance(x, Layout):
        if offsets:
            require_offsets(x, who)
        return x
    if it.is_int(x) and not isinstance(x, np.ndarray):
        return Layout(x)
    raise LayoutTypeError(f"{who}: expected a Layout, got {fmt(x)} ({type(x).__name__})")


def require_offsets(layout: Layout, who: str) -> None:
    """LayoutTypeError unless ``layout``'s values are offsets (integer or F2 strides): a layout with basis strides
    (``make_identity_layout``) maps to coordinates, which no address, picture or table of offsets can use.

    >>> require_offsets(Layout((4, 8)), "show")
    """
    if type(who) is not str:
        raise LayoutTypeError(f"require_offsets: who must be a string, got {fmt(who)}")
    if not isinstance(layout, Layout):
        raise LayoutTypeError(f"{who}: expected a Layout, got {fmt(layout)} ({type(layout).__name__})")
    if layout.coord_profile() is not None:
        text = str(layout)
        text = text if len(text) <= 120 else text[:117] + "..."
        raise LayoutTypeError(f"{who}: {text} has basis strides: its values are coordinates, not offsets; this takes a "
                              "layout of integer (or F2) strides")


def make_layout(*args: Any) -> Layout:
    """Concatenate layouts into the modes of a new layout (CuTe's ``make_layout(L0, L1, ...)``).

    ``make_layout(shape)`` / ``make_layout(shape, stride)`` with IntTuples build a layout directly;
    ``make_layout([L0, L1])`` (PyCuTe's spelling, a list or generator of layouts) concatenates them.

    >>> print(make_layout(Layout(4, 1), Layout((2, 3), (8, 16))))
    (4,(2,3)):(1,(8,16))
    >>> print(make_layout(Layout(4, 1)))
    (4):(1)
    >>> print(make_layout((4, 2)))
    (4,2):(1,4)
    """
    if not args:
        raise LayoutValueError("make_layout: at least one argument is required (CuTe C++ has no make_layout() either)")
    if len(args) == 1 and (isinstance(args[0], list) or type(args[0]).__name__ == "generator"):
        items = list(args[0])  # PyCuTe's spelling: make_layout([L0, L1, ...])
        if items and all(isinstance(a, Layout) for a in items):
            return make_layout(*items)
        if not items:
            raise LayoutValueError("make_layout: an empty list of layouts has no modes")
    if all(type(a) is Layout for a in args) or all(isinstance(a, Layout) for a in args):
        return Layout.from_normalized(tuple(a._s for a in args), tuple(a._d for a in args))
    if any(isinstance(a, Layout) for a in args):
        raise LayoutTypeError("make_layout: pass either layouts only, or (shape[, stride])")
    if len(args) > 2:
        raise LayoutTypeError("make_layout: expected (shape) or (shape, stride) when no layouts are given")
    return Layout(*args)


def is_layout_like(x: Any) -> bool:
    """True for the package's layout-like objects: Layout, ComposedLayout, SwizzledSmemLayout, Tensor.

    Each answers ``shape``, ``size()``, ``rank()``, ``depth()`` and ``cosize()`` as CuTe defines them
    (``layout_composed.hpp``: those of the inner layout; ``tensor_impl.hpp``: those of the tensor's layout).

    >>> is_layout_like(Layout(4)), is_layout_like((4, 2)), is_layout_like("abc")
    (True, False, False)
    """
    return isinstance(x, Layout) or getattr(type(x), "_layout_like", False) is True


def _inttuple_arg(x: Any, who: str) -> Any:
    """``x`` as an IntTuple for a free function that takes a layout or an IntTuple, else LayoutTypeError."""
    if isinstance(x, (str, bytes, dict, set, float, complex)) or x is None:
        raise LayoutTypeError(f"{who}: expected a layout (Layout, ComposedLayout, SwizzledSmemLayout, Tensor) or an "
                              f"IntTuple, got {type(x).__name__} {fmt(x)}"[:300])
    return it.as_inttuple(x, who)


def size(x: Any, mode: int | None = None) -> Any:
    """Size of a layout-like object (or of one of its modes) or of an IntTuple.

    Layout-like: a Layout, ComposedLayout or SwizzledSmemLayout (the inner layout's size, as
    ``layout_composed.hpp``) or a Tensor (its layout's size, as ``tensor_impl.hpp``). Anything
    else raises LayoutTypeError.

    >>> size(Layout((8, 4))), size((2, (3, 4))), size(Layout((8, 4)), 1)
    (32, 24, 4)
    """
    if mode is not None:
        if isinstance(mode, bool) or not isinstance(mode, (int, np.integer)):
            raise LayoutTypeError(f"size: mode must be an integer, got {fmt(mode)}")
        sh = x.shape if is_layout_like(x) else _inttuple_arg(x, "size")
        r = it.rank(sh)
        if not -r <= mode < r:
            raise CoordinateError(f"size: mode {fmt(mode)} is not a mode of {fmt(x)}"[:200])
        return simplify(product(sh[mode] if isinstance(sh, tuple) else sh))
    if is_layout_like(x):
        return x.size()
    return product(_inttuple_arg(x, "size"))


def cosize(x: Any) -> Any:
    """Codomain size of a layout-like object, ``L(size-1) + 1`` (of the inner layout / the tensor's layout).

    >>> cosize(Layout((8, 4), (4, 1)))
    32
    """
    if not is_layout_like(x):
        raise LayoutTypeError(f"cosize: expected a layout (Layout, ComposedLayout, SwizzledSmemLayout, Tensor), "
                              f"got {type(x).__name__} {fmt(x)}"[:300])
    return x.cosize()


def rank(x: Any) -> int:
    """Rank of a layout-like object (of its inner layout / the tensor's layout) or of an IntTuple.

    >>> rank(Layout(((8, 2), 4))), rank((1, 2, 3))
    (2, 3)
    """
    if isinstance(x, Layout):
        return x.rank()
    if is_layout_like(x):
        return x.rank()
    return it.rank(_inttuple_arg(x, "rank"))


def depth(x: Any) -> int:
    """Depth of a layout-like object (of its inner layout / the tensor's layout) or of an IntTuple.

    >>> depth(Layout(((8, 2), 4))), depth(3)
    (2, 0)
    """
    if isinstance(x, Layout):
        return x.depth()
    if is_layout_like(x):
        return x.depth()
    return it.depth(_inttuple_arg(x, "depth"))


def shape(x: Any) -> Any:
    """Shape of a layout-like object (of its inner layout / the tensor's layout); an IntTuple is its own shape.

    >>> shape(Layout((8, 4)))
    (8, 4)
    """
    if is_layout_like(x):
        return x.shape
    return _inttuple_arg(x, "shape")


def stride(x: Any) -> Any:
    """Stride of a Layout or of a Tensor's layout.

    A ComposedLayout or SwizzledSmemLayout has no strides (CuTe deletes ``stride`` of a
    ComposedLayout: the outer function is not linear); LayoutTypeError for it and anything else.

    >>> stride(Layout((8, 4)))
    (1, 8)
    """
    if isinstance(x, Layout):
        return x.stride
    if is_layout_like(x):
        if hasattr(type(x), "stride"):  # a Tensor: its layout's stride
            return x.stride
        raise LayoutTypeError(f"stride: {x} has no strides: its outer function is not linear (CuTe C++ deletes "
                              "stride of a ComposedLayout); ask its inner layout")
    raise LayoutTypeError(f"stride: expected a Layout or a Tensor, got {type(x).__name__} {fmt(x)}"[:300])


def _slice_tuple(c: Any, t: Any) -> tuple:
    """CuTe's lift_slice: the pieces of ``t`` at the ``_`` positions of ``c``, as a flat-ish tuple."""
    if isinstance(c, tuple):
        if not isinstance(t, tuple) or len(c) != len(t):
            raise CongruenceError(f"slice: coordinate {fmt(c)} is not congruent with {format_inttuple(t)}")
        out: tuple = ()
        for ci, ti in zip(c, t):
            out += _slice_tuple(ci, ti)
        return out
    if c is _:
        return (t,)
    return ()


def unwrap_single(t: Any) -> Any:
    while isinstance(t, tuple) and len(t) == 1:
        t = t[0]
    return t


def _zero_underscores(c: Any) -> Any:
    if isinstance(c, tuple):
        return tuple(_zero_underscores(e) for e in c)
    return 0 if c is _ else c


def slice_and_offset(coord: Any, layout: Layout, check: bool = False) -> tuple[Layout, Any]:
    """Split a coordinate with ``_`` into the sliced sub-layout and the offset of the fixed part.

    A ComposedLayout is sliced by its own ``slice_and_offset`` (CuTe's overloads for composed and
    swizzled layouts).

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
    if getattr(layout, "_layout_like", False) and hasattr(layout, "slice_and_offset"):
        return layout.slice_and_offset(coord, check=check)  # a ComposedLayout: CuTe's overloads (core.composed)
    if not isinstance(layout, Layout):
        raise LayoutTypeError(f"slice_and_offset: expected a Layout or ComposedLayout, got {fmt(layout)}")
    if not isinstance(check, (bool, np.bool_)):
        raise LayoutTypeError(f"slice_and_offset: check must be a bool, got {fmt(check)}")
    if isinstance(coord, tuple) and not isinstance(layout._s, tuple):
        raise CongruenceError(f"slice: coordinate {fmt(coord)} has modes but layout {layout} is rank-1 without modes")
    s = unwrap_single(_slice_tuple(coord, layout._s))
    d = unwrap_single(_slice_tuple(coord, layout._d))
    fixed = _zero_underscores(coord)
    check_coord(fixed, layout._s)
    if not check and layout.int_flat_modes() is not None and all(type(x) is int and x == 0 for x in flatten(fixed)):
        # the fixed part is the origin of an integer layout without zero extents (its modes checked above): offset 0
        return (Layout.from_normalized(1, 0) if s == () else Layout.from_normalized(s, d)), 0
    try:
        off = simplify(it.crd2idx(fixed, layout._s, layout._d, check=check))
    except CoordinateError as e:
        raise CoordinateError(str(e).replace("crd2idx:", f"slice of {layout}:", 1)) from e
    cp = layout.coord_profile()
    if cp is not None:
        off = to_coord(off, cp)
    if s == ():
        return Layout.from_normalized(1, 0), off
    return Layout.from_normalized(s, d), off


def require_modes(layout: Layout, who: str) -> None:
    """LayoutValueError for the empty layout ``():()`` (and ``((),()):((),())``): it has no modes."""
    if not layout.flat_modes()[0]:
        raise_empty(layout, who)


def raise_empty(layout: Any, who: str) -> None:
    raise LayoutValueError(
        f"{who}: the empty layout {layout} has no modes (size 1, rank 0); CuTe C++ rejects {who} of it at "
        "compile time. Use 1:0 for the layout of a single point"
    )


def raise_zero_size(layout: Any, coord: Any) -> None:
    raise CoordinateError(
        f"Layout {layout} has size 0 (a zero extent): it has no coordinates, so {coord!r} cannot be evaluated "
        "(CuTe C++ divides by the zero extent)"[:400]
    )


def mode_layout(s: Any, d: Any, pint: bool) -> Layout:
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


def new_layout(s: Any, d: Any) -> Layout:
    """``Layout.from_normalized`` without the class-method lookup (hot internal paths)."""
    obj = _new(Layout)
    obj._s = s
    obj._d = d
    obj._fl = None
    obj._size = None
    obj._hash = None
    return obj


def int_layout(ss: list, dd: list) -> Layout:
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
    obj._fi = 0 not in ss
    obj._cp = None
    obj._size = None
    obj._hash = None
    return obj


def _int_result(s: Any, d: Any, fl: tuple) -> Layout:
    """A new integer Layout ``s:d`` with the flat modes ``fl`` (trusted: the algebra's fast paths)."""
    obj = _new(Layout)
    obj._s = s
    obj._d = d
    obj._fl = fl
    obj._fi = True
    obj._size = None
    obj._hash = None
    return obj


def coalesce_int_layout(layout: Layout, fl: tuple) -> Layout:
    """``coalesce(layout)`` for an integer layout with the flat modes ``fl`` (the algebra's fast path).

    Pre:  ``fl == (fs, fd)`` is ``layout.int_flat_modes()``, with modes (so every shape is positive).
    Post: as ``int_layout(*coalesce_ints(fs, fd, ...))``: size-1 modes dropped, each mode merged into the run
          before it where the run's extent ``s*d`` is its stride (the same runs as coalesce_ints' backward
          walk: both merge adjacent kept modes a, b iff ``s_a*d_a == d_b``); ``layout`` itself where it is
          flat and nothing merges (an equal, immutable value); flat data cached.

    Flat ranks 2-4 with no size-1 mode are unrolled (a loop costs more than the arithmetic there): every
    outcome of ranks 2 and 3, and rank 4's one run / no merge; the rest walk ``_coalesce_int_runs``.
    """
    fs, fd = fl
    n = len(fs)
    if n == 2:
        s0, s1 = fs
        if s0 != 1 and s1 != 1:
            d0, d1 = fd
            if s0 * d0 == d1:
                s0 *= s1
                return _int_result(s0, d0, ((s0,), (d0,)))
            return layout if layout._s is fs else _int_result(fs, fd, fl)
    elif n == 3:
        s0, s1, s2 = fs
        if s0 != 1 and s1 != 1 and s2 != 1:
            d0, d1, d2 = fd
            if s1 * d1 == d2:
                if s0 * d0 == d1:
                    s0 *= s1 * s2
                    return _int_result(s0, d0, ((s0,), (d0,)))
                s = (s0, s1 * s2)
                d = (d0, d1)
                return _int_result(s, d, (s, d))
            if s0 * d0 == d1:
                s = (s0 * s1, s2)
                d = (d0, d2)
                return _int_result(s, d, (s, d))
            return layout if layout._s is fs else _int_result(fs, fd, fl)
    elif n == 4:
        s0, s1, s2, s3 = fs
        if s0 != 1 and s1 != 1 and s2 != 1 and s3 != 1:
            d0, d1, d2, d3 = fd
            a = s0 * d0 == d1
            b = s1 * d1 == d2
            c = s2 * d2 == d3
            if a and b and c:
                s0 *= s1 * s2 * s3
                return _int_result(s0, d0, ((s0,), (d0,)))
            if not (a or b or c):
                return layout if layout._s is fs else _int_result(fs, fd, fl)
    return _coalesce_int_runs(layout, fl)


def _coalesce_int_runs(layout: Layout, fl: tuple) -> Layout:
    """``coalesce_int_layout`` by one forward walk (any flat rank, size-1 modes included)."""
    fs, fd = fl
    cs = fs[0]  # the open run
    cd = fd[0]
    ss = dd = None  # the finished runs (lists from the first one: most layouts merge into one run)
    i = 0
    for s in fs:  # (cheaper than a range: i counts the modes, the first one opened the run)
        if i and s != 1:
            d = fd[i]
            if cs == 1:  # a leading size-1 mode gives way
                cs, cd = s, d
            elif cs * cd == d:
                cs *= s
            elif ss is None:
                ss = [cs]
                dd = [cd]
                cs, cd = s, d
            else:
                ss.append(cs)
                dd.append(cd)
                cs, cd = s, d
        i += 1
    if ss is None:
        if cs == 1:
            cd = 0
        elif type(layout._s) is int:  # a rank-1 layout is its own coalesce
            return layout
        return _int_result(cs, cd, ((cs,), (cd,)))
    if len(ss) == i - 1:  # nothing merged or dropped: the flat modes themselves
        return layout if layout._s is fs else _int_result(fs, fd, fl)
    ss.append(cs)
    dd.append(cd)
    s = tuple(ss)
    d = tuple(dd)
    return _int_result(s, d, (s, d))


def basis_like(shape_: Any, path: tuple = ()) -> Any:
    """CuTe's ``make_basis_like``: the basis stride ``E(*path, i...)`` at every leaf of ``shape``.

    Pre:  ``shape`` an IntTuple (only its nesting depth is checked here; the leaves are the caller's to check);
          ``path`` a tuple of mode indices (LayoutTypeError otherwise).
    Post: a tuple congruent to ``shape`` whose leaf at mode path ``q`` is ``E(*path, *q)``; an integer
          ``shape`` with an empty ``path`` gives 1.

    >>> basis_like((4, (2, 3)))
    (ScaledBasis('1@0'), (ScaledBasis('1@0@1'), ScaledBasis('1@1@1')))
    >>> basis_like(5), basis_like(5, (1,))
    (1, ScaledBasis('1@1'))
    """
    if not isinstance(path, tuple):
        raise LayoutTypeError(f"basis_like: path must be a tuple of mode indices, got {fmt(path)}")
    if not path:
        it.check_nesting(shape_, "basis_like", "shape")
    if isinstance(shape_, tuple):
        return tuple(basis_like(x, path + (i,)) for i, x in enumerate(shape_))
    return E(*path) if path else 1


def make_identity_layout(shape_: Any) -> Layout:
    """The layout that maps every coordinate of ``shape`` to itself (CuTe's ``make_identity_layout``).

    Pre:  shape is an IntTuple of non-negative leaves (a zero extent gives a size-0 layout).
    Post: R(c) == c for every coordinate c of shape (R(i) == idx2crd(i, shape) for an index i);
          the strides are basis elements ``E(path)``, so R composes, divides and slices like any layout.

    An integer shape ``n`` gives ``n:1`` (CuTe's ``make_basis_like`` of an integer is 1).

    >>> I = make_identity_layout((4, 8))
    >>> print(I)
    (4,8):(1@0,1@1)
    >>> I(9), I(1, 2), make_identity_layout(((2, 3), 4))(7)
    ((1, 2), (1, 2), ((1, 0), 1))
    """
    s = it.as_inttuple(shape_, "make_identity_layout", "shape")
    validate_shape(s, "make_identity_layout")
    return Layout.from_normalized(s, basis_like(s))
