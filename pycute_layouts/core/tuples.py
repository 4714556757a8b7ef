"""CuTe's tuple algorithms on IntTuples and layouts, and the shape and coordinate helpers a CuTe user reaches for.

CuTe C++ (``int_tuple.hpp``, ``layout.hpp``) and PyCuTe (``htuple.py``, ``shape.py``) have these;
the names and argument orders here are CuTe C++'s (``repeat_like(t, x)``, ``take(t, begin, end)``,
``append(t, x, n)``), and where PyCuTe spells one differently ``docs/differences.md`` says so.
``slice_modes`` / ``dice_modes`` are CuTe's ``slice`` / ``dice`` (Python's ``slice`` is a builtin).

Each function takes IntTuples (nested tuples of ints and sympy integers) and, where CuTe defines it
for a layout, a Layout (mode by mode on shape and stride together).

>>> wrap(4), unwrap(((4,),)), take((1, 2, 3, 4), 1, 3), select((1, 2, 3), 2, 0)
((4,), 4, (2, 3), (3, 1))
>>> print(flatten(Layout(((2, 4), 3)))), print(make_layout_like(Layout((2, 3, 4, 5), (0, 42, 1, 0))))
(2,4,3):(1,2,8)
(2,3,4,5):(0,4,1,0)
(None, None)
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..errors import CongruenceError, CoordinateError, LayoutTypeError, LayoutValueError
from ..limits import MAX_EVAL_POINTS, check_budget, fmt
from . import inttuple as it
from .algebra import none_as_underscore
from .basis import ScaledBasis, to_coord
from .inttuple import format_inttuple, product
from .layout import Layout, _, is_layout_like
from .tensor import Tensor

__all__ = [
    "wrap",
    "unwrap",
    "take",
    "select",
    "repeat_like",
    "transform_leaf",
    "append",
    "prepend",
    "slice_modes",
    "dice_modes",
    "group_modes",
    "flatten",
    "unflatten",
    "make_layout_like",
    "coshape",
    "common_refinement",
    "common_coarsening",
    "coordinates",
    "elem_less",
    "colex_less",
    "lex_less",
    "crd2crd",
]


def _tuple_arg(t: Any, who: str, what: str = "t") -> Any:
    if isinstance(t, list):
        t = tuple(t)
    return it.as_inttuple(t, who, what)


def _modes(x: Any, who: str) -> tuple:
    """The top-level modes of an IntTuple (a leaf is one mode) or of a Layout (as layouts)."""
    if isinstance(x, Layout):
        return tuple(x[i] for i in range(x.rank())) if isinstance(x.shape, tuple) else (x,)
    t = _tuple_arg(x, who)
    return t if isinstance(t, tuple) else (t,)


def _rebuild(x: Any, modes: tuple) -> Any:
    """Modes back into the kind of ``x``: a tuple, or a Layout whose modes they are."""
    if isinstance(x, Layout):
        if not modes:
            return Layout.from_normalized((), ())
        if len(modes) == 1:
            return modes[0]
        return Layout.from_normalized(tuple(m.shape for m in modes), tuple(m.stride for m in modes))
    return tuple(modes)


def _check_index(i: Any, n: int, who: str, inclusive: bool = False) -> int:
    if isinstance(i, bool) or not isinstance(i, int):
        raise LayoutTypeError(f"{who}: a mode index must be an int, got {fmt(i)}"[:200])
    hi = n if inclusive else n - 1
    j = i + n if i < 0 else i
    if not 0 <= j <= hi:
        raise CoordinateError(f"{who}: mode index {fmt(i)} is out of range for rank {n}")
    return j


def wrap(t: Any) -> tuple:
    """``t`` as a tuple: a tuple stays, a leaf ``x`` becomes ``(x,)`` (CuTe's ``wrap``).

    >>> wrap(4), wrap((4, 2))
    ((4,), (4, 2))
    """
    t = _tuple_arg(t, "wrap")
    return t if isinstance(t, tuple) else (t,)


def unwrap(t: Any) -> Any:
    """Strip rank-1 tuples, recursively at the top: ``((4,),)`` -> ``4`` (CuTe's ``unwrap``).

    >>> unwrap(((4,),)), unwrap((4, 2))
    (4, (4, 2))
    """
    t = _tuple_arg(t, "unwrap")
    while isinstance(t, tuple) and len(t) == 1:
        t = t[0]
    return t


def take(t: Any, begin: int, end: int) -> Any:
    """Modes ``begin`` up to (not including) ``end`` of an IntTuple or Layout (CuTe's ``take<B,E>``).

    Pre:  0 <= begin <= end <= rank(t) (negative indices count from the end).

    >>> take((1, 2, 3, 4), 1, 3)
    (2, 3)
    >>> print(take(Layout((2, 3, 4)), 1, 3))
    (3,4):(2,6)
    """
    modes = _modes(t, "take")
    b = _check_index(begin, len(modes), "take", inclusive=True)
    e = _check_index(end, len(modes), "take", inclusive=True)
    if b > e:
        raise CoordinateError(f"take: begin {fmt(begin)} is after end {fmt(end)}")
    return _rebuild(t, modes[b:e])


def select(t: Any, *indices: int) -> Any:
    """The modes at ``indices``, in that order (CuTe's ``select<I...>``).

    >>> select((1, 2, 3), 2, 0)
    (3, 1)
    >>> print(select(Layout((2, 3, 4)), 2, 0))
    (4,2):(6,1)
    """
    modes = _modes(t, "select")
    return _rebuild(t, tuple(modes[_check_index(i, len(modes), "select")] for i in indices))


def repeat_like(t: Any, x: Any) -> Any:
    """A tuple congruent with ``t`` with ``x`` at every leaf (CuTe's ``repeat_like(t, x)``).

    >>> repeat_like((4, (2, 8)), 0)
    (0, (0, 0))
    """
    t = _tuple_arg(t, "repeat_like")
    return it.unflatten((x,) * len(it.flatten(t)), t) if isinstance(t, tuple) else x


def transform_leaf(*args: Any) -> Any:
    """``fn`` applied leaf by leaf to congruent tuples (CuTe's ``transform_leaf(t0, t1..., fn)``).

    The function may come last (CuTe) or first (PyCuTe's ``transform_leaf(fn, t...)``).

    >>> transform_leaf((1, (2, 3)), lambda x: 10 * x)
    (10, (20, 30))
    >>> transform_leaf(lambda a, b: a + b, (1, (2, 3)), (4, (5, 6)))
    (5, (7, 9))
    """
    if len(args) < 2:
        raise LayoutTypeError("transform_leaf: expected tuples and a function")
    if callable(args[-1]) and not isinstance(args[-1], tuple):
        fn, ts = args[-1], args[:-1]
    elif callable(args[0]) and not isinstance(args[0], tuple):
        fn, ts = args[0], args[1:]
    else:
        raise LayoutTypeError("transform_leaf: one argument (the first or the last) must be a function")
    ts = tuple(_tuple_arg(t, "transform_leaf") for t in ts)
    for t in ts[1:]:
        if not it.congruent(ts[0], t):
            raise CongruenceError(f"transform_leaf: {format_inttuple(ts[0])} and {format_inttuple(t)} are not congruent")
    return _transform(fn, ts)


def _transform(fn: Any, ts: tuple) -> Any:
    if isinstance(ts[0], tuple):
        return tuple(_transform(fn, parts) for parts in zip(*ts))
    return fn(*ts)


def _target_rank(n: Any, r: int, who: str) -> int:
    if n is None:
        return r + 1
    if isinstance(n, bool) or not isinstance(n, int) or n < r:
        raise LayoutValueError(f"{who}: the target rank must be an int >= the rank {r}, got {fmt(n)}")
    return n


def append(t: Any, x: Any = None, n: int | None = None) -> Any:
    """``t`` with ``x`` appended until it has rank ``n`` (default: once) (CuTe's ``append<N>(t, x)``).

    A leaf ``t`` is a rank-1 tuple. For a Layout, ``x`` is a layout (default ``1:0``, CuTe's
    ``Layout<_1,_0>``).

    >>> append((1, 2), 7), append(3, 0, 4)
    ((1, 2, 7), (3, 0, 0, 0))
    >>> print(append(Layout((4, 8)), n=3))
    (4,8,1):(1,4,0)
    """
    return _extend(t, x, n, "append", at_end=True)


def prepend(t: Any, x: Any = None, n: int | None = None) -> Any:
    """``t`` with ``x`` prepended until it has rank ``n`` (default: once) (CuTe's ``prepend<N>(t, x)``).

    >>> prepend((1, 2), 7), prepend(3, 0, 3)
    ((7, 1, 2), (0, 0, 3))
    >>> print(prepend(Layout(4), Layout(2, 8)))
    (2,4):(8,1)
    """
    return _extend(t, x, n, "prepend", at_end=False)


def _extend(t: Any, x: Any, n: Any, who: str, at_end: bool) -> Any:
    if isinstance(t, Layout):
        x = Layout(1, 0) if x is None else x
        if not isinstance(x, Layout):
            raise LayoutTypeError(f"{who}: a layout takes a Layout to {who}, got {fmt(x)}"[:200])
        modes = _modes(t, who)
    else:
        if x is None:
            raise LayoutTypeError(f"{who}: the element to {who} is required for a tuple")
        x = _tuple_arg(x, who, "x")
        modes = _modes(t, who)
    k = _target_rank(n, len(modes), who) - len(modes)
    return _rebuild(t, modes + (x,) * k if at_end else (x,) * k + modes)


def _slice_dice(c: Any, t: Any, keep: bool, who: str) -> tuple:
    """The pieces of ``t`` where the coordinate ``c`` has ``_`` (keep=True, CuTe's slice) or not (dice)."""
    if isinstance(c, tuple):
        if not isinstance(t, tuple) or len(c) != len(t):
            raise CongruenceError(f"{who}: coordinate {fmt(c)} is not congruent with {format_inttuple(t)}"[:300])
        out: tuple = ()
        for ci, ti in zip(c, t):
            out += _slice_dice(ci, ti, keep, who)
        return out
    if (c is _) == keep:
        return (t,)
    return ()


def slice_modes(coord: Any, t: Any) -> Any:
    """CuTe's ``slice(coord, t)``: the modes of ``t`` where ``coord`` has ``_``, as a tuple (a Layout for a layout).

    ``None`` marks a kept mode as ``_`` does (PyCuTe's ``slice_``).

    >>> slice_modes((_, 2), (4, 8)), slice_modes(((_, 1), _), ((2, 3), 4)), slice_modes((None, 1), (4, 8))
    ((4,), (2, 4), (4,))
    """
    return _slice_or_dice(coord, t, True, "slice_modes")


def dice_modes(coord: Any, t: Any) -> Any:
    """CuTe's ``dice(coord, t)``: the modes of ``t`` where ``coord`` is not ``_`` (a Layout for a layout).

    >>> dice_modes((_, 2), (4, 8)), dice_modes(((_, 1), _), ((2, 3), 4))
    ((8,), (3,))
    >>> print(dice_modes((_, 2), Layout((4, 8), (8, 1))))
    8:1
    """
    return _slice_or_dice(coord, t, False, "dice_modes")


def _slice_or_dice(coord: Any, t: Any, keep: bool, who: str) -> Any:
    it.check_nesting(coord, who, "coordinate")
    coord = none_as_underscore(coord)  # PyCuTe's slice_/dice_ mark the kept modes with None
    if isinstance(t, Layout):
        s = _slice_dice(coord, t.shape, keep, who)
        d = _slice_dice(coord, t.stride, keep, who)
        if not s:
            return Layout(1, 0)
        return Layout.from_normalized(s[0], d[0]) if len(s) == 1 else Layout.from_normalized(s, d)
    return _slice_dice(coord, _tuple_arg(t, who), keep, who)


def group_modes(t: Any, begin: int, end: int) -> Any:
    """Modes ``begin`` up to ``end`` gathered into one mode (CuTe's ``group<B,E>`` / ``group_modes<B,E>``).

    >>> group_modes((1, 2, 3, 4), 1, 3)
    (1, (2, 3), 4)
    >>> print(group_modes(Layout((2, 3, 4)), 0, 2))
    ((2,3),4):((1,2),6)
    """
    modes = _modes(t, "group_modes")
    b = _check_index(begin, len(modes), "group_modes", inclusive=True)
    e = _check_index(end, len(modes), "group_modes", inclusive=True)
    if b > e:
        raise CoordinateError(f"group_modes: begin {fmt(begin)} is after end {fmt(end)}")
    mid = modes[b:e]
    if isinstance(t, Layout):  # the grouped modes as one mode (a rank-1 tuple for a single mode, as CuTe)
        group = Layout.from_normalized(tuple(m.shape for m in mid), tuple(m.stride for m in mid))
    else:
        group = tuple(mid)
    return _rebuild(t, modes[:b] + (group,) + modes[e:])


def flatten(x: Any) -> Any:
    """The leaves of an IntTuple as a flat tuple; a Layout (or a Tensor's layout) with its modes flattened.

    CuTe's ``flatten``: ``flatten(((2,4),3):((1,2),8)) == (2,4,3):(1,2,8)``; a Tensor keeps its
    engine; a ComposedLayout flattens its inner layout.

    >>> flatten((2, (3, (4, 5))))
    (2, 3, 4, 5)
    >>> print(flatten(Layout(((2, 4), 3))))
    (2,4,3):(1,2,8)
    """
    if isinstance(x, Layout):
        fs, fd = x.flat_modes()
        return Layout.from_normalized(fs[0], fd[0]) if len(fs) == 1 else Layout.from_normalized(fs, fd)
    if is_layout_like(x):
        hook = getattr(x, "_apply_to_inner", None)
        if isinstance(x, Tensor):
            return x._with(flatten(x.layout))
        if hook is not None:
            return hook(flatten)
    return it.flatten(_tuple_arg(x, "flatten", "IntTuple"))


def unflatten(flat: Any, profile: Any) -> Any:
    """Rebuild the nesting of ``profile`` from a flat tuple, or from a flat Layout's modes (CuTe's ``unflatten``).

    Pre:  the number of leaves (modes) of ``flat`` equals the number of leaves of ``profile``.
    Post: flatten(R) == flat and R is congruent with profile.

    >>> unflatten((1, 2, 3), ((0, 0), 0))
    ((1, 2), 3)
    >>> print(unflatten(Layout((2, 4, 3), (1, 2, 8)), ((0, 0), 0)))
    ((2,4),3):((1,2),8)
    """
    p = _tuple_arg(profile, "unflatten", "profile")
    if isinstance(flat, Layout):
        fs, fd = flat.flat_modes()
        if not isinstance(p, tuple):
            if len(fs) != 1:
                raise CongruenceError(f"unflatten: {fmt(flat)} has {len(fs)} modes, the profile one leaf")
            return flat
        return Layout.from_normalized(it.unflatten(fs, p), it.unflatten(fd, p))
    f = _tuple_arg(flat, "unflatten", "flat")
    if not isinstance(f, tuple):
        f = (f,)
    if not isinstance(p, tuple):
        if len(f) != 1:
            raise CongruenceError(f"unflatten: {len(f)} leaves for a leaf profile")
        return f[0]
    return it.unflatten(f, p)


def make_layout_like(layout: Any) -> Layout:
    """A compact layout with ``layout``'s shape and strides ordered as its strides are (CuTe's ``make_layout_like``).

    Stride-0 and size-1 modes get stride 0; the others get compact strides in the order of the given
    strides (ties, as CuTe, give equal starting strides; symbolic strides are CuTe's dynamic ones:
    larger than every integer, ordered left to right). A ComposedLayout or Tensor answers for its layout.

    >>> print(make_layout_like(Layout((2, 2, 2, 2), (0, 2, 4, 1))))
    (2,2,2,2):(0,2,4,1)
    >>> print(make_layout_like(Layout((2, 3, 4, 5), (0, 42, 1, 0))))
    (2,3,4,5):(0,4,1,0)
    """
    if is_layout_like(layout) and not isinstance(layout, Layout):
        inner = getattr(layout, "inner", None) or getattr(layout, "layout", None)
        if isinstance(inner, Layout):
            layout = inner
    if not isinstance(layout, Layout):
        raise LayoutTypeError(f"make_layout_like: expected a Layout, got {fmt(layout)}"[:200])
    fs, fd = layout.flat_modes()
    if not fs:
        return layout
    if layout.coord_profile() is not None or not all(type(d) is int or it.is_int(d) for d in fd):
        raise LayoutTypeError(f"make_layout_like: {fmt(layout)} needs integer strides to order them")
    if not it.all_int(fd):  # CuTe: dynamic (symbolic) strides are large, ordered left to right
        top = max((d for d in fd if type(d) is int), default=0)
        fd = tuple(d if type(d) is int else top + 1 + i for i, d in enumerate(fd))
    shapes = tuple(1 if d == 0 else s for s, d in zip(fs, fd))
    out = []
    for s, d in zip(shapes, fd):
        start = 1
        for s2, d2 in zip(shapes, fd):
            if d2 < d:
                start = start * s2
        out.append(0 if s == 1 else it.simplify(start))
    sh = layout.shape
    st = it.unflatten(tuple(out), sh) if isinstance(sh, tuple) else out[0]
    return Layout.from_normalized(sh, st)


def coshape(layout: Any) -> Any:
    """CuTe's ``coshape``: the codomain's shape, ``1 + sum((s-1)*|d|)`` per component of the codomain.

    Pre:  layout is a Layout or a Tensor (its layout); LayoutTypeError otherwise.
    Post: an int for integer (or F2) strides, equal to ``cosize(layout)``; for basis strides a
          tuple congruent with the codomain's profile, component ``k`` the extent reached along
          ``E(k)`` (``cosize`` of such a layout is the product of it, as CuTe's ``size(coshape)``).

    >>> coshape(Layout((4, 8), (1, 4))), coshape(Layout(8, 0))
    (32, 1)
    >>> from pycute_layouts import E
    >>> coshape(Layout((4, 8), (E(1), E(0)))), coshape(Layout((4, 8), (E(0), 2 * E(1))))
    ((8, 4), (4, 15))
    """
    if isinstance(layout, Tensor):
        layout = layout.layout
    if not isinstance(layout, Layout):
        raise LayoutTypeError(f"coshape: expected a Layout or a Tensor, got {type(layout).__name__} {fmt(layout)}"[:300])
    return layout.coshape()


def _shape_arg(x: Any, who: str) -> Any:
    return x.shape if is_layout_like(x) else _tuple_arg(x, who, "shape")


def common_refinement(a: Any, b: Any) -> Any:
    """The least shape that refines both ``a`` and ``b`` (PyCuTe's ``common_refinement``; layouts give their shapes).

    Pre:  a and b have a common refinement (equal sizes, compatible profiles).
    Post: compatible(a, R) and compatible(b, R), R minimal. Otherwise LayoutValueError.

    >>> common_refinement(30, (2, 15)), common_refinement(((2, 3), 20), (6, (4, 5)))
    ((2, 15), ((2, 3), (4, 5)))
    """
    return _refine(_shape_arg(a, "common_refinement"), _shape_arg(b, "common_refinement"))


def _refine(a: Any, b: Any) -> Any:
    if isinstance(a, tuple) and isinstance(b, tuple):
        if len(a) != len(b):
            raise LayoutValueError(f"common_refinement: rank {len(a)} of {format_inttuple(a)} != rank {len(b)} of "
                                   f"{format_inttuple(b)}")
        return tuple(_refine(x, y) for x, y in zip(a, b))
    if not isinstance(a, tuple) and not isinstance(b, tuple):
        if not it.is_eq(a, b):
            raise LayoutValueError(f"common_refinement: the leaves {fmt(a)} and {fmt(b)} differ")
        return a
    t, n = (b, a) if isinstance(b, tuple) else (a, b)
    if not it.is_eq(product(t), n):
        raise LayoutValueError(f"common_refinement: size {fmt(product(t))} of {fmt(t)} != {fmt(n)}")
    return t


def common_coarsening(a: Any, b: Any) -> Any:
    """The greatest shape that both ``a`` and ``b`` refine (PyCuTe's ``common_coarsening``).

    Pre:  size(a) == size(b) (else LayoutValueError). Post: compatible(R, a) and compatible(R, b), R maximal.

    >>> common_coarsening((4, (3, 5)), ((2, 2), 15)), common_coarsening((6, 5), (2, 15))
    ((4, 15), 30)
    """
    a, b = _shape_arg(a, "common_coarsening"), _shape_arg(b, "common_coarsening")
    if not it.is_eq(product(a), product(b)):
        raise LayoutValueError(f"common_coarsening: sizes {fmt(product(a))} of {fmt(a)} and {fmt(product(b))} of "
                               f"{fmt(b)} differ")
    return _coarsen(a, b)


def _coarsen(a: Any, b: Any) -> Any:
    if isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b):
        if all(it.is_eq(product(x), product(y)) for x, y in zip(a, b)):
            return tuple(_coarsen(x, y) for x, y in zip(a, b))
    return it.simplify(product(a))


def coordinates(shape: Any) -> Iterator[Any]:
    """Every natural coordinate of ``shape`` in colexicographic order (index order), within MAX_EVAL_POINTS.

    Post: list(coordinates(s)) == [idx2crd(i, s) for i in range(size(s))].

    >>> list(coordinates((3, 2)))
    [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)]
    """
    s = _shape_arg(shape, "coordinates")
    it.validate_shape(s, "coordinates")
    n = product(s)
    if not isinstance(n, int):
        raise LayoutTypeError(f"coordinates: shape {format_inttuple(s)} is symbolic")
    check_budget("coordinates", f"shape {format_inttuple(s)}", n, MAX_EVAL_POINTS)
    return (it.idx2crd(i, s) for i in range(n))


# ------------------------------------------------------------------------------------------
# orders on coordinates (CuTe's int_tuple.hpp): elem_less, colex_less, lex_less


def _coord(x: Any, who: str, other: Any = None) -> Any:
    """A coordinate tuple: a basis offset ``3@0+5@1`` is ``(3, 5)``, padded with zero modes to ``other``'s rank."""
    if type(x) is ScaledBasis:
        c = to_coord(x, _profile_of(x))
        if isinstance(other, tuple) and len(c) < len(other):
            c = c + tuple(_zeros_like(o) for o in other[len(c):])
        return c
    return _tuple_arg(x, who, "coordinate")


def _zeros_like(t: Any) -> Any:
    return tuple(_zeros_like(e) for e in t) if isinstance(t, tuple) else 0


def _profile_of(x: ScaledBasis) -> Any:
    tree: dict = {}
    for path, _c in x.terms:
        node = tree
        for k in path[:-1]:
            node = node.setdefault(k, {})
        node.setdefault(path[-1], None)
    return _tree(tree)


def _tree(node: dict) -> tuple:
    n = max(node) + 1
    return tuple(_tree(node[i]) if isinstance(node.get(i), dict) else 0 for i in range(n))


def _pair(a: Any, b: Any, who: str) -> tuple[Any, Any]:
    ca = _coord(a, who) if type(a) is ScaledBasis else _tuple_arg(a, who, "first coordinate")
    cb = _coord(b, who, ca) if type(b) is ScaledBasis else _tuple_arg(b, who, "second coordinate")
    if type(a) is ScaledBasis:
        ca = _coord(a, who, cb)
    return ca, cb


def elem_less(a: Any, b: Any) -> bool:
    """CuTe's ``elem_less``: every leaf of ``a`` is less than the matching leaf of ``b``.

    As CuTe: when ``a`` has fewer modes than ``b`` the extra modes of ``b`` are not compared (True
    if the rest holds); when ``b`` has fewer, False. Basis offsets (``3@0 + 5@1``) are the
    coordinates they stand for, so a coordinate tensor's element compares with a shape.

    >>> elem_less((3, 7), (4, 8)), elem_less((3, 8), (4, 8)), elem_less((3,), (4, 8)), elem_less((3, 7), (4,))
    (True, False, True, False)
    """
    ca, cb = _pair(a, b, "elem_less")
    return _elem_less(ca, cb)


def _elem_less(a: Any, b: Any) -> bool:
    if isinstance(a, tuple) and isinstance(b, tuple):
        for i, x in enumerate(a):
            if i >= len(b):
                return False
            if not _elem_less(x, b[i]):
                return False
        return True
    if isinstance(a, tuple) or isinstance(b, tuple):
        raise CongruenceError(f"elem_less: {format_inttuple(a)} and {format_inttuple(b)} are not congruent")
    return bool(it.is_lt(a, b))


def colex_less(a: Any, b: Any) -> bool:
    """CuTe's ``colex_less``: compare from the last mode to the first (the order of indices of a shape).

    A shorter tuple that agrees on its modes is less (CuTe: ``a`` exhausted first).

    >>> colex_less((3, 1), (0, 2)), colex_less((0, 2), (3, 1)), colex_less((1, 2), (2, 2))
    (True, False, True)
    """
    ca, cb = _pair(a, b, "colex_less")
    return _colex(ca, cb)


def _colex(a: Any, b: Any) -> bool:
    if isinstance(a, tuple) and isinstance(b, tuple):
        na, nb = len(a), len(b)
        for i in range(max(na, nb)):
            if i == nb:
                return False
            if i == na:
                return True
            x, y = a[na - 1 - i], b[nb - 1 - i]
            if _colex(x, y):
                return True
            if x != y:
                return False
        return False
    if isinstance(a, tuple) or isinstance(b, tuple):
        raise CongruenceError(f"colex_less: {format_inttuple(a)} and {format_inttuple(b)} are not congruent")
    return bool(it.is_lt(a, b))


def lex_less(a: Any, b: Any) -> bool:
    """CuTe's ``lex_less`` (its ``operator<`` on tuples): compare from the first mode to the last.

    >>> lex_less((0, 2), (3, 1)), lex_less((3, 1), (0, 2))
    (True, False)
    """
    ca, cb = _pair(a, b, "lex_less")
    return _lex(ca, cb)


def _lex(a: Any, b: Any) -> bool:
    if isinstance(a, tuple) and isinstance(b, tuple):
        for i in range(max(len(a), len(b))):
            if i == len(b):
                return False
            if i == len(a):
                return True
            if _lex(a[i], b[i]):
                return True
            if a[i] != b[i]:
                return False
        return False
    if isinstance(a, tuple) or isinstance(b, tuple):
        raise CongruenceError(f"lex_less: {format_inttuple(a)} and {format_inttuple(b)} are not congruent")
    return bool(it.is_lt(a, b))


def crd2crd(coord: Any, src_shape: Any, dst_shape: Any) -> Any:
    """The coordinate in ``dst_shape`` of the point ``coord`` names in ``src_shape`` (CuTe's ``crd2crd``).

    Pre:  where coord, src_shape and dst_shape are all tuples they have one rank and the map goes mode
          by mode; otherwise size(src_shape) == size(dst_shape) and coord is a coordinate of src_shape.
    Post: R == idx2crd(crd2idx(coord, src_shape), dst_shape) at each leaf of that walk.
    Otherwise CongruenceError names the ranks, LayoutValueError the sizes.

    >>> crd2crd(((1, 2), 1), ((2, 3), 2), (6, 2))
    (5, 1)
    >>> crd2crd((1, 1), (2, 4), 8)
    3
    """
    coord = _tuple_arg(coord, "crd2crd", "coord")
    src = _tuple_arg(src_shape, "crd2crd", "src_shape")
    dst = _tuple_arg(dst_shape, "crd2crd", "dst_shape")
    return _crd2crd(coord, src, dst)


def _crd2crd(coord: Any, src: Any, dst: Any) -> Any:
    if isinstance(coord, tuple) and isinstance(src, tuple) and isinstance(dst, tuple):
        if not len(coord) == len(src) == len(dst):
            raise CongruenceError(f"crd2crd: mismatched ranks: coordinate {format_inttuple(coord)}, source shape "
                                  f"{format_inttuple(src)}, destination shape {format_inttuple(dst)}")
        return tuple(_crd2crd(c, a, b) for c, a, b in zip(coord, src, dst))
    if it.simplify(product(src) - product(dst)) != 0:
        raise LayoutValueError(f"crd2crd: the source shape {format_inttuple(src)} and the destination shape "
                               f"{format_inttuple(dst)} have different sizes")
    return it.idx2crd(it.crd2idx(coord, src), dst)
