"""The layout algebra: CuTe's operations on layouts.

Each operation is CuTe's (``include/cute/layout.hpp``), which is the reference here, not pycute:

* ``coalesce`` merges modes without changing the function; ``filter`` also drops stride-0 modes.
* ``composition(A, B)`` is the layout ``R`` with ``R(c) == A(B(c))``; admissible when B's strides
  and sizes walk through A's modes with the divisibility conditions of
  :mod:`pycute_layouts.core.admissibility`, which also explains every refusal.
* ``complement(A, M)`` is the layout that fills the gaps of an injective ``A`` up to ``M``.
* ``right_inverse``/``left_inverse``, ``logical_divide`` and friends (``zipped``, ``tiled``,
  ``flat``), ``logical_product`` and friends (``blocked``, ``raked``), ``tile_to_shape``,
  ``upcast``/``downcast``/``recast``, ``max_common_layout``/``max_common_vector``, ``nullspace``.

Integer layouts take fast paths that never touch sympy; symbolic ones decide CuTe's conditions
from the symbols' assumptions or raise SymbolicUndecidable naming the condition.

>>> from pycute_layouts import Layout
>>> print(composition(Layout((6, 2), (8, 2)), Layout((4, 3), (3, 1))))
((2,2),3):((24,2),8)
>>> print(complement(Layout(4, 2), 16))
(2,2):(1,8)
"""

from __future__ import annotations

import functools
from typing import Any

from ..errors import AdmissibilityError, CongruenceError, LayoutError, LayoutTypeError, LayoutValueError, SymbolicUndecidable
from ..limits import MAX_INT_DIGITS, check_int_size, fmt
from . import inttuple as it
from .admissibility import (
    ModesInteract,
    b_text,
    check_interaction,
    check_stride_divisibility,
    either_is_one,
    raise_shape_div,
    raise_stride_div,
    raise_undecided,
)
from .basis import E, ScaledBasis, basis_components, basis_get
from .f2 import F2, is_pow2
from .f2_inverse import is_f2_layout, left_inverse_f2, right_inverse_f2
from .inttuple import (
    all_int,
    ceil_div,
    divides,
    flatten,
    is_eq,
    is_lt,
    product,
    signum,
    simplify,
    smin,
    three_valued,
    validate_shape,
    validate_shape_leaf,
)
from .layout import (
    Layout,
    _,
    as_layout,
    coalesce_int_layout,
    int_layout,
    is_layout_like,
    make_layout,
    mode_layout,
    new_layout,
    raise_empty,
)

__all__ = [
    "coalesce",
    "filter",
    "composition",
    "complement",
    "right_inverse",
    "left_inverse",
    "tiler_to_layout",
    "register_composition_operand",
    "none_as_underscore",
]



# ------------------------------------------------------------------------------------------
# operands defined above this module (a Swizzle): the module that defines the result registers them

_LHS_COMPOSITION: dict = {}
_RHS_COMPOSITION: dict = {}


def none_as_underscore(t: Any) -> Any:
    """A tuple tiler with PyCuTe's ``None`` ("leave this mode alone") spelled as CuTe's ``_``.

    >>> none_as_underscore((4, None, (None, 2)))
    (4, _, (_, 2))
    """
    it.check_nesting(t, "none_as_underscore", "tiler")
    return _none_as_underscore(t)


def _none_as_underscore(t: Any) -> Any:
    if t is None:
        return _
    if type(t) is tuple:
        return tuple(_none_as_underscore(x) for x in t)
    return t


def register_composition_operand(kind: type, lhs: Any = None, rhs: Any = None) -> None:
    """Let ``composition`` take ``kind`` (a type defined above this module) on the left and/or right.

    ``lhs(a, b)`` computes ``composition(a, b)`` for ``a`` of type ``kind``; ``rhs(a, b)`` for ``b``
    of type ``kind``. :mod:`pycute_layouts.core.composed` registers the swizzles this way (its
    results are ComposedLayouts, which this module cannot import).

    Pre: ``kind`` a class other than Layout and the builtin types (composition already defines those);
    ``lhs``/``rhs`` callables or None. Otherwise LayoutTypeError, and nothing is registered.

    >>> class Shift:   # a stand-in operand type
    ...     pass
    >>> register_composition_operand(Shift, lhs=lambda a, b: "Shift o " + str(b))
    >>> composition(Shift(), Layout(4, 2))
    'Shift o 4:2'
    """
    if not isinstance(kind, type) or issubclass(kind, Layout) or kind.__module__ in ("builtins", "numpy"):
        raise LayoutTypeError(f"register_composition_operand: kind must be a class other than Layout and the builtin "
                              f"types, got {fmt(kind)}")
    for name, f in (("lhs", lhs), ("rhs", rhs)):
        if f is not None and (not callable(f) or isinstance(f, type)):
            raise LayoutTypeError(f"register_composition_operand: {name} must be a function (a, b) -> composition or "
                                  f"None, got {fmt(f)}")
    if lhs is not None:
        _LHS_COMPOSITION[kind] = lhs
    if rhs is not None:
        _RHS_COMPOSITION[kind] = rhs


# ------------------------------------------------------------------------------------------
# dispatch for ComposedLayout (its operations act on the inner layout, as in CuTe)


def inner_aware(fn):
    """Let ``fn(layout, ...)`` accept a ComposedLayout by applying ``fn`` to its inner layout."""

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
    if all_int(fs) and all_int(fd) and type(new_s) is int and type(new_d) is int:
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
        if type(d) is F2 and not is_pow2(s):  # XOR: c0 + s*c1 splits into c0 ^ (s*c1) only for s = 2^k
            ss.insert(0, s)
            dd.insert(0, d)
            fresh = False
        elif prod == f if (type(prod) is int and type(f) is int) else _maybe_eq(prod, f, undecided):
            ss[0] = s * ss[0]
            dd[0] = d
        else:
            ss.insert(0, s)
            dd.insert(0, d)
            fresh = False
    if len(ss) == 1:
        if not keep_front and (ss[0] == 1 if type(ss[0]) is int else _maybe_eq(ss[0], 1, undecided)):
            return Layout.from_normalized(1, 0)
        return Layout.from_normalized(simplify(ss[0]), simplify(dd[0]))
    return Layout.from_normalized(tuple(simplify(x) for x in ss), tuple(simplify(x) for x in dd))


def _bw_coalesce_int(fs: tuple, fd: tuple, cs: int, cd: int) -> Layout:
    return int_layout(*coalesce_ints(fs, fd, len(fs), cs, cd))


def coalesce_ints(fs: Any, fd: Any, n: int, cs: int, cd: int, drop_stride0: bool = False) -> tuple[list, list]:
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
    """``coalesce_ints`` of the non-empty flat int modes ``fs:fd`` with stride-0 modes dropped (filter)."""
    n = len(fs) - 1
    return coalesce_ints(fs, fd, n, fs[n] if fd[n] else 1, fd[n], drop_stride0=True)


def _maybe_eq(a: Any, b: Any, undecided: list | None) -> bool:
    """Symbolic equality for coalesce merges, where 'not equal' keeps the function (no merge).

    An undecidable equality is not guessed silently: its condition is recorded in ``undecided``.
    """
    try:
        return is_eq(a, b)
    except SymbolicUndecidable:
        if undecided is not None:
            undecided.append(f"{simplify(a)} == {b}")
        return False


def coalesce_flat(layout: Layout) -> Layout:
    fl = layout.int_flat_modes()
    if fl is not None and fl[0]:
        return coalesce_int_layout(layout, fl)
    fs, fd = layout.flat_modes()
    if not fs:
        raise_empty(layout, "coalesce")
    return _bw_coalesce(fs[:-1], fd[:-1], fs[-1], fd[-1])


def _coalesce_x(layout: Layout, undecided: list | None = None) -> Layout:
    """coalesce that also preserves the function outside the domain (keeps the last stride)."""
    fs, fd = layout.flat_modes()
    if not fs:
        raise_empty(layout, "composition")
    last = fs[-1]
    if layout.int_flat_modes() is not None:
        n = len(fs) - 1
        return int_layout(*coalesce_ints(fs, fd, n, 2 if last == 1 else last, fd[n]))
    if last == 1 if type(last) is int else _maybe_eq(last, 1, None):  # either way the last mode is kept
        return _bw_coalesce(fs[:-1], fd[:-1], 2, fd[-1], undecided, keep_front=True)
    return _bw_coalesce(fs[:-1], fd[:-1], last, fd[-1], undecided, keep_front=True)


def transform_layout(layout: Layout, profile: tuple, fn, keep_rest: bool = True) -> Layout:
    ls, ld = layout.shape, layout.stride
    k = len(profile)
    if isinstance(ls, tuple):
        r = len(ls)
        if k > r:
            raise CongruenceError(f"too many modes: profile/tiler of rank {k} for the rank-{r} layout {layout}")
        ss: list = []
        dd: list = []
        pint = layout.int_flat_modes() is not None
        for i in range(k):
            m = fn(mode_layout(ls[i], ld[i], pint), profile[i])
            ss.append(m.shape)
            dd.append(m.stride)
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
            ss = [m.shape]
            dd = [m.stride]
    if not ss:
        raise CongruenceError(f"empty profile/tiler for the layout {layout}")
    return new_layout(tuple(ss), tuple(dd))


def coalesce(layout: Layout, profile: Any = None) -> Layout:
    """Merge modes without changing the function on the domain (CuTe's ``coalesce``).

    Pre:  any layout (with a tuple ``profile``: rank(layout) >= len(profile)).
    Post: size(R) == size(layout) and R(i) == layout(i) for every i < size(layout); depth(R) <= 1
          (by mode: per mode).

    With a tuple ``profile``, coalesce each of the first ``len(profile)`` modes separately and
    keep the rest (``coalesce(L, (1, 1))`` keeps a rank-2 layout rank-2).

    >>> print(coalesce(Layout((2, (1, 6)), (1, (6, 2)))))
    12:1
    >>> print(coalesce(Layout(((2, 4), (3, 5)), ((1, 2), (8, 24))), (1, 1)))
    (8,15):(1,8)
    >>> print(coalesce(Layout((1, 1), (3, 5))))
    1:0
    """
    if profile is None and type(layout) is Layout:  # the integer fast path (flat int modes, nothing to check)
        fl = layout._fl or layout.flat_modes()
        if layout._fi and fl[0]:
            return coalesce_int_layout(layout, fl)
    it.check_nesting(profile, "coalesce", "profile")
    if layout is None:
        return None  # PyCuTe's identity operand
    if type(layout) is not Layout:
        hook = getattr(layout, "_apply_to_inner", None)
        if hook is not None and not isinstance(layout, Layout):
            return hook(coalesce, profile)
        layout = as_layout(layout, "coalesce")
    if profile is None or not isinstance(profile, tuple):
        return coalesce_flat(layout)
    return transform_layout(layout, profile, coalesce)


def _filter_flat(layout: Layout, who: str = "filter") -> Layout:
    fs, fd = layout.flat_modes()
    if not fs:
        raise_empty(layout, who)
    if layout.int_flat_modes() is not None:
        return int_layout(*_filter_ints(fs, fd))
    return coalesce_flat(_filter_zeros_layout(layout))


def _filter_zeros_layout(layout: Layout) -> Layout:
    return Layout.from_normalized(it.filter_zeros(layout.stride, layout.shape), layout.stride)


@inner_aware
def filter(layout: Layout, profile: Any = None) -> Layout:  # noqa: A001 - CuTe's name
    """Remove stride-0 and size-1 modes, then coalesce (CuTe's ``filter``).

    Pre:  any layout.
    Post: R == coalesce(layout with every stride-0 mode made size 1): the offsets layout reaches
          through its other modes, in order.

    >>> print(filter(Layout((4, 2, 3), (1, 0, 4))))
    12:1
    >>> print(filter(Layout((4, 2), (0, 0))))
    1:0
    """
    it.check_nesting(profile, "filter", "profile")
    layout = as_layout(layout, "filter")
    if profile is None or not isinstance(profile, tuple):
        return _filter_flat(layout)
    return transform_layout(layout, profile, filter)


# ------------------------------------------------------------------------------------------
# composition


def composition(a: Any, b: Any) -> Any:
    """The layout ``R`` with ``R(c) == a(b(c))`` for every coordinate ``c`` of ``b``.

    Pre:  walking b's modes through coalesce(a), each stride of b divides the remaining shape of a
          or the reverse, each shape of b divides what is left of its mode, and b's modes do not
          interact (see admissibility); size-1 modes of b are exempt (they contribute only 0, and a
          size-1 b gives the point 1:0).
    Post: compatible(b, R) and R(c) == a(b(c)) for every coordinate c of b.     Otherwise
          AdmissibilityError names the mode, the stride and the shape that failed.

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
    try:
        return _composition(a, b)
    except ZeroDivisionError:
        raise _zero_extent_error("composition", a, b) from None


def _zero_extent_error(who: str, *operands: Any) -> LayoutValueError:
    """The refusal of an operation that divides by a zero extent (CuTe C++ traps with SIGFPE there)."""
    text = ", ".join(str(x) for x in operands)
    return LayoutValueError(
        f"{who}({text}): a zero extent (a size-0 mode) reaches a division; CuTe C++ divides by zero here "
        "(SIGFPE), so there is no answer to give"[:500]
    )


def _composition(a: Any, b: Any) -> Any:
    it.check_nesting(b, "composition", "b")
    if type(b) is tuple:
        b = none_as_underscore(b)
    if type(a) is Layout:
        if type(b) is Layout and type(b._s) is int and b._s == 1 and a.flat_modes()[0]:
            return Layout.from_normalized(1, 0)  # a size-1 B: the single point A(B(0)) = A(0) = 0, as coalesce writes it
        return _compose(a, b)
    comp = getattr(a, "_compose_with", None)
    if comp is not None and not isinstance(a, Layout):
        return comp(b)
    lhs = _LHS_COMPOSITION.get(type(a))
    if lhs is not None:  # a Swizzle: CuTe's composition(Sw, L) is the ComposedLayout Sw o 0 o L
        return lhs(a, b)
    if a is None:  # PyCuTe's identity operand: composition(None, b) is b
        if is_layout_like(b):
            return b
        return tiler_to_layout(b) if b is not None else None
    a = tiler_to_layout(a) if isinstance(a, tuple) else as_layout(a, "composition")
    return _compose(a, b)


def _compose(a: Layout, b: Any) -> Any:
    if type(b) is Layout or isinstance(b, Layout):
        bfl = b.int_flat_modes()
        if bfl is not None and bfl[0]:
            afl = a.int_flat_modes()
            if afl is not None and afl[0]:  # the integer fast path
                fs, fd = afl
                n = len(fs) - 1
                last = fs[n]
                ls, ld = coalesce_ints(fs, fd, n, 2 if last == 1 else last, fd[n])  # coalesce_x(a)
                return compose_ints(ls, ld, b.shape, b.stride, bfl[0], bfl[1])
            fs, fd = a.flat_modes()
            if fs and a.coord_profile() is not None:  # basis strides: the integer walk on surrogates
                res = compose_basis_ints(fs, fd, b.shape, bfl[0], bfl[1])
                if res is not None:
                    return res
        bfs, bfd = b.flat_modes()
        if b.coord_profile() is not None:
            return _compose_basis(a, b, bfs, bfd)
        return _compose_layout(a, b.shape, b.stride, bfs, bfd)
    if b is _:
        return a
    if isinstance(b, tuple):
        return transform_layout(a, b, _compose_mode, keep_rest=False)
    if isinstance(b, list):
        return _compose(a, tuple(b))
    if it.is_int(b):
        b = it.as_inttuple(b, "composition", "tiler")
        validate_shape_leaf(b, "composition")
        return _compose_layout(a, b, 1, (b,), (1,))
    if b is None:
        return a  # PyCuTe's identity tiler None is CuTe's _
    swz = getattr(b, "_as_rhs_of_layout", None)
    if swz is not None:
        return swz(a)
    rhs = _RHS_COMPOSITION.get(type(b))
    if rhs is not None:
        return rhs(a, b)
    raise LayoutTypeError(f"composition: B must be a Layout, an int, _ or a tuple of tilers, got {fmt(b)}")


def _compose_basis(a: Layout, b: Layout, bfs: tuple, bfd: tuple) -> Layout:
    """``a o b`` for ``b`` with basis strides (CuTe): ``a o (s:v@k) == a<k> o (s:v)``, mode ``k`` of ``a``.

    The leaves of ``b`` on one basis path ``k`` are composed together with ``a<k>`` (so their
    interaction is checked as for integer layouts); stride-0 leaves stay ``(s, 0)``.
    """
    paths: set = set()
    for d in bfd:
        if type(d) is ScaledBasis:
            if len(d.terms) > 1:
                raise LayoutTypeError(
                    f"composition: the stride {d} of B = {b} is a sum of basis elements; each stride of B "
                    "selects one mode of A (a single v@k)"
                )
            paths.add(d.terms[0][0])
    pieces: list = [(s, 0) for s in bfs]
    for path in sorted(paths):
        sub = a
        for k in path:
            if k >= sub.rank():
                raise LayoutTypeError(f"composition: the basis path {path} of B = {b} names no mode of A = {a}")
            sub = sub[k]
        strides = tuple(basis_get(d, path) for d in bfd)
        bk = Layout.from_normalized(b.shape, it.unflatten(strides, b.stride) if isinstance(b.stride, tuple) else strides[0])
        r = _compose(sub, bk)
        leaf_pieces = _leaf_pieces(b.shape, r.shape, r.stride)
        for i, d in enumerate(bfd):
            if type(d) is ScaledBasis and d.terms[0][0] == path:
                pieces[i] = leaf_pieces[i]
    return _nest_like(b.shape, pieces)


def _leaf_pieces(guide: Any, s: Any, d: Any) -> list:
    """The (shape, stride) sub-tree of ``s:d`` at each leaf of ``guide`` (``s`` refines ``guide``)."""
    if type(guide) is tuple:
        out: list = []
        for i, g in enumerate(guide):
            out.extend(_leaf_pieces(g, s[i], d[i]))
        return out
    return [(s, d)]


def _compose_mode(a: Layout, b: Any) -> Any:
    return _compose(a, b)


def _compose_layout(a: Layout, rs: Any, rd: Any, bfs: tuple, bfd: tuple) -> Layout:
    """``a o (rs:rd)``: by-mode composition with coalesce(a), checking that B's modes do not interact.

    ``bfs``/``bfd`` are B's flat shape and stride.
    """
    fs, fd = a.flat_modes()
    if fs and bfs and a.int_flat_modes() is not None and all_int(bfs) and all_int(bfd):
        n = len(fs) - 1
        last = fs[n]
        ls, ld = coalesce_ints(fs, fd, n, 2 if last == 1 else last, fd[n])  # coalesce_x(a)
        return compose_ints(ls, ld, rs, rd, bfs, bfd)
    if fs and bfs and a.coord_profile() is not None and all_int(bfs) and all_int(bfd) and 0 not in bfs:
        res = compose_basis_ints(fs, fd, rs, bfs, bfd)
        if res is not None:
            return res
    if any(type(d) is F2 for d in fd):
        return _compose_f2(a, rs, rd)
    return _compose_general(a, rs, rd)


def _compose_general(a: Layout, rs: Any, rd: Any) -> Layout:
    """``_compose_layout``'s general path: the walk on coalesce_x(a) for any strides (symbolic, basis)."""
    undecided: list = []  # merges coalesce could not decide (symbolic A only)
    flat = _coalesce_x(a, undecided)
    ls = flat.shape
    try:
        if type(rs) is not tuple or type(ls) is not tuple:
            # one mode of B, or a linear A (one mode): nothing can interact
            return _composition_impl(ls, flat.stride, rs, rd, flat, None, None, None)
        n = len(ls)
        # acc[j] (j < n): the largest offset that B's modes of positive stride put into mode j of A so
        # far; acc[n + j]: the same for negative strides; acc[2n] is set when a negative one is seen
        acc = [0] * (2 * n + 1)
        res = _composition_impl(ls, flat.stride, rs, rd, flat, acc, None, None)
        if acc[-1]:
            pos = [j for j in range(n) if acc[j]]
            neg = [j for j in range(n) if acc[n + j]]
            if pos and len(set(pos) | set(neg)) > 1:
                raise ModesInteract
        return res
    except ModesInteract:
        _explain_interaction(flat, rs, rd, undecided)
    except AdmissibilityError as e:
        raise_undecided(e, undecided)
        raise
    raise AdmissibilityError(f"composition: modes of B interact in coalesce(A) = {flat}")  # pragma: no cover


def _compose_f2(a: Layout, rs: Any, rd: Any) -> Layout:
    """``a o (rs:rd)`` for ``a`` with F2 strides: CuTe's walk, then checked point by point.

    The walk multiplies a's strides by integers, which is carry-less for F2; that equals the integer
    product only where the multiplication carries nowhere (powers of two always qualify), so each
    result is compared with ``a(b(i))`` over b's domain and refused where they differ.
    """
    b = Layout.from_normalized(rs, rd)
    if a.is_symbolic() or b.is_symbolic():
        raise SymbolicUndecidable(f"composition: {a} has F2 strides; B = {b} must be integer (subs() first)")
    flat = _coalesce_x(a, None)
    res = _composition_impl(flat.shape, flat.stride, rs, rd, flat, None, None, None)
    idx = b.to_numpy()
    want = a._eval_numpy(idx, False) if idx.size and idx.min() >= 0 else None
    got = res.to_numpy()
    if want is None or (got != want).any():
        bad = 0 if want is None else int((got != want).argmax())
        raise AdmissibilityError(
            f"composition: A = {a} has F2 (XOR) strides and B = {b} does not split into its bits: at index {bad} "
            f"the walk gives {int(got[bad])} but A(B({bad})) = {a(int(idx[bad]))} (a stride of B carries)"
        )
    return res


def _explain_interaction(flat: Layout, rs: Any, rd: Any, undecided: list) -> None:
    """Raise the rule's exact error: redo the walk recording every piece (rare, so not fast)."""
    pieces: list = []
    res = _composition_impl(flat.shape, flat.stride, rs, rd, flat, None, pieces, [0])
    try:
        check_interaction(pieces, flat, rs, rd, res)
    except AdmissibilityError as e:
        raise_undecided(e, undecided)
        raise
    raise AdmissibilityError(  # pragma: no cover - check_interaction finds what the walk found
        f"composition: modes of B = {b_text(rs, rd)} interact in coalesce(A) = {flat}"
    )


#: the widest digit of the basis surrogates, in bits: every product the walk forms stays below 2**200 < 10**64
#: (MAX_INT_DIGITS), so the general path would raise no size error where the surrogates are used
_SURROGATE_MAX_BITS = 200


def basis_surrogates(fs: tuple, fd: tuple, bmax: int) -> tuple | None:
    """Integer stand-ins for the basis strides ``fd`` (flat modes ``fs:fd`` of A) that the integer walk can run on.

    Pre:  ``bmax >= 1`` bounds every ``|stride|`` of B.
    Post: ``(sur, b, keys)``: stride ``c@p`` (one term, int ``c``) stands for ``c * 2**(b*j)``, ``keys[j] == p``
          (an int stride ``c``, ``keys[j] is None``; 0 stands for 0). Each ``|s*c|`` (``s`` a shape of A) and
          ``|m*c|`` (``|m| <= bmax``) is below ``2**b``, so ``s*sur(d) == sur(d')`` iff ``s*d == d'`` (coalesce's
          merge test) and ``m*sur(d)`` decodes to ``m*d`` (see ``decode_surrogate``). None where a stride is
          not of that form (several terms, a sympy or F2 coefficient), a shape is not a positive int, or the
          products are too wide: the general path decides there.

    >>> basis_surrogates((4, 8, 2), (E(0), 2 * E(1), -E(0)), 16)  # |16 * 2| < 2**6: slot 1 is 2**6
    ([1, 128, -1], 6, [(0,), (1,)])
    >>> basis_surrogates((4, 8), (E(0) + E(1), E(1)), 16) is None
    True
    """
    keys: list = []
    pairs = []
    cmax = 0
    smax = bmax
    i = 0
    for d in fd:
        s = fs[i]
        if type(s) is not int or s <= 0:
            return None
        if s > smax:
            smax = s
        i += 1
        if type(d) is ScaledBasis:
            terms = d.terms
            if len(terms) != 1:
                return None
            key, c = terms[0]
            if type(c) is not int:
                return None
        elif type(d) is int:
            key = None
            c = d
        else:
            return None
        if key in keys:  # (a list: A has few distinct paths, and a path tuple rehashes on every lookup)
            pairs.append((c, keys.index(key)))
        else:
            pairs.append((c, len(keys)))
            keys.append(key)
        if c > cmax:
            cmax = c
        elif -c > cmax:
            cmax = -c
    b = (smax * (cmax or 1)).bit_length()
    if b > _SURROGATE_MAX_BITS:
        return None
    return [c << (b * j) for c, j in pairs], b, keys


def decode_surrogate(r: int, b: int, keys: list) -> Any:
    """The stride that the surrogate product ``r`` stands for (see ``basis_surrogates``).

    Pre:  ``r == m * sur`` with ``sur`` a surrogate of slot ``j`` (``c * 2**(b*j)``) and ``0 < |m*c| < 2**b``, or 0.
    Post: ``(m*c)@keys[j]`` (the int ``m*c`` where ``keys[j] is None``); 0 for 0.

    >>> decode_surrogate(-3 * 128, 6, [(0,), (1,)]), decode_surrogate(5, 6, [None]), decode_surrogate(0, 6, [])
    (ScaledBasis('-6@1'), 5, 0)
    """
    if not r:
        return 0
    a = r if r > 0 else -r
    j = (a.bit_length() - 1) // b
    v = a >> (b * j)
    key = keys[j]
    if r < 0:
        v = -v
    return v if key is None else ScaledBasis.from_normalized(((key, v),))


def compose_basis_ints(fs: tuple, fd: tuple, rs: Any, bfs: tuple, bfd: tuple) -> Layout | None:
    """``A o B`` for A (flat modes ``fs:fd``) with basis strides and an integer B, by the integer walk on surrogates.

    ``rs`` is B's shape, ``bfs:bfd`` its flat modes (positive int shapes, int strides).
    Post: the general path's result (the walk only scales A's strides by ints and compares them for
          coalesce's merges, both exact on the surrogates); None where ``basis_surrogates`` refuses or the
          walk refuses B (the general path then gives the result or the error, with its message).

    >>> print(compose_basis_ints((8, 16), (E(0), E(1)), (4, 4), (4, 4), (1, 8)))  # (8,16):(1@0,1@1) o (4,4):(1,8)
    (4,4):(1@0,1@1)
    """
    bmax = max(bfd)
    m = -min(bfd)
    enc = basis_surrogates(fs, fd, (bmax if bmax > m else m) or 1)
    if enc is None:
        return None
    sur, b, keys = enc
    n = len(fs) - 1
    last = fs[n]
    ls, ld = coalesce_ints(fs, sur, n, 2 if last == 1 else last, sur[n])  # coalesce_x(a)
    try:
        out = _compose_int(ls, ld, bfs, bfd)
    except (ModesInteract, LayoutError):
        return None
    ss = []
    dd = []
    for s, r in out:
        ss.append(s)
        if type(r) is tuple:
            dd.append(tuple([decode_surrogate(x, b, keys) for x in r]))
        elif r:  # (decode_surrogate inlined: most leaves of B land in one mode of A)
            a = r if r > 0 else -r
            j = (a.bit_length() - 1) // b
            key = keys[j]
            v = a >> (b * j) if r > 0 else -(a >> (b * j))
            dd.append(v if key is None else ScaledBasis.from_normalized(((key, v),)))
        else:
            dd.append(0)
    if type(rs) is tuple and all_int(rs):  # (a flat B: _nest_like's case, with the strides decoded)
        return new_layout(tuple(ss), tuple(dd))
    return _nest_like(rs, list(zip(ss, dd)))


def compose_ints(ls: list, ld: list, rs: Any, rd: Any, bfs: tuple, bfd: tuple) -> Layout:
    """``A o B`` for integer layouts: ``ls:ld`` is coalesce_x(A), ``rs:rd`` is B with the flat modes ``bfs:bfd``."""
    try:
        return _nest_like(rs, _compose_int(ls, ld, bfs, bfd))
    except ModesInteract:
        _explain_interaction(int_layout(ls, ld), rs, rd, [])
    raise AdmissibilityError(f"composition: modes of B interact in coalesce(A) = {int_layout(ls, ld)}")  # pragma: no cover


def _compose_int(ls: list, ld: list, bfs: tuple, bfd: tuple) -> list:
    """``_composition_impl`` for integer layouts, one loop over B's flat modes (the fast path).

    ``ls:ld`` (lists) is coalesce_x(A); ``bfs``/``bfd`` are B's flat shape and stride. Returns the composed
    (shape, stride) of each leaf of B (``_nest_like`` nests them like B's shape). Raises ``ModesInteract``
    where B's modes interact.
    """
    n = len(ls)
    if n == 1:  # a linear A: each mode of B scales by its stride
        ld0 = ld[0]
        return [(s, d * ld0) for s, d in zip(bfs, bfd)]
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
            # a size-1 mode of B only ever contributes B(0) = 0: its stride is walked, never tested
            if rest_s != 1 and ard % cs != 0 and cs % ard != 0 and (ard > cs or (rest_s - 1) * ard >= cs):
                raise_stride_div(ard, cs, i, int_layout(ls, ld), rest_s)
            next_s = -((-cs) // ard)
            next_d = -((-ard) // cs) * (1 if rest_d > 0 else -1)
            if next_s == 1 or rest_s == 1:
                rest_d = next_d
                continue
            new_s = next_s if next_s < rest_s else rest_s
            if rest_s % new_s != 0:
                raise_shape_div(new_s, rest_s, i, int_layout(ls, ld))
            if acc is not None:
                j = i if rest_d > 0 else _note_negative(acc, n, i)
                prev = acc[j]
                top = prev + (new_s - 1) * ard
                if prev and top >= cs:
                    raise ModesInteract
                acc[j] = top
            res_s.append(new_s)
            res_d.append(rest_d * ld[i])
            rest_s = rest_s // new_s
            rest_d = next_d
        out.append(_int_leaf_mode(res_s, res_d, rest_s, rest_d * last_d))
        if acc is not None and rest_s != 1:  # A's last mode extends: any sum fits, only signs matter
            if rest_d > 0:
                acc[last] = 1
            else:
                acc[2 * n - 1] = acc[2 * n] = 1
    if acc is not None and acc[-1] and _signs_mix(acc, n):
        raise ModesInteract
    return out


def _int_leaf_mode(res_s: list, res_d: list, rest_s: int, rest_d: int) -> tuple:
    """One leaf of B composed: its parts ``res_s:res_d`` in A's first modes, then ``rest_s:rest_d`` in the last.

    Pre:  ``rest_d`` already scaled by A's last stride.  Post: the leaf's (shape, stride), a pair of
    tuples where it spans several modes of A.
    """
    if not res_s:
        return rest_s, rest_d
    if rest_s == 1:
        return (res_s[0], res_d[0]) if len(res_s) == 1 else (tuple(res_s), tuple(res_d))
    return tuple(res_s) + (rest_s,), tuple(res_d) + (rest_d,)


def _signs_mix(acc: list, n: int) -> bool:
    """Whether B put offsets of one sign into one mode of A and of the other sign into another mode.

    Pre:  ``acc`` as in ``_compose_int`` (``acc[j]`` positive, ``acc[n + j]`` negative offsets of mode j).
    Post: True when the positive modes are not empty and the union of both is more than one mode.
    """
    pos = [j for j in range(n) if acc[j]]
    return bool(pos) and len(set(pos) | {j for j in range(n) if acc[n + j]}) > 1


def _nest_like(rs: Any, out: list) -> Layout:
    """The layout whose modes are ``out`` (one (shape, stride) per leaf of ``rs``), nested like ``rs``."""
    if type(rs) is not tuple:
        return Layout.from_normalized(out[0][0], out[0][1])
    if all_int(rs):
        return Layout.from_normalized(tuple([o[0] for o in out]), tuple([o[1] for o in out]))
    s, d = _nest(rs, iter(out))
    return Layout.from_normalized(s, d)


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


def _composition_impl(
    ls: Any, ld: Any, rs: Any, rd: Any, flat_a: Layout, acc: list | None, pieces: list | None, counter: list | None
) -> Layout:
    """By-mode composition of coalesce(A) = ``ls:ld`` with the (sub)layout ``rs:rd`` of B.

    Each part of a leaf of B that lands in mode ``i`` of A puts the offsets ``k*step``,
    ``k < count``, there. With ``acc`` (see ``_compose_layout``) their largest offsets are summed
    per mode of A, and ``ModesInteract`` is raised as soon as two leaves' sum reaches the mode's
    shape. With ``pieces`` every part is recorded as ``(i, count, step, positive, leaf, piece)``
    (``counter[0]`` numbers B's leaves) for ``check_interaction``.
    """
    if isinstance(rs, tuple):
        if not rs:
            raise_empty(Layout.from_normalized(rs, rd), "composition")
        parts = [_composition_impl(ls, ld, s, d, flat_a, acc, pieces, counter) for s, d in zip(rs, rd)]
        return Layout.from_normalized(tuple(p.shape for p in parts), tuple(p.stride for p in parts))
    leaf = _next_leaf(counter) if pieces is not None else 0
    if rd == 0 if type(rd) is int else is_eq(rd, 0):
        return Layout.from_normalized(rs, 0)
    if not isinstance(ls, tuple):
        return Layout.from_normalized(rs, simplify(rd * ld))
    res_s, res_d, rest_s, rest_d = [], [], rs, rd  # B's leaf: its parts in A's modes, what is left of it
    n = len(ls)
    for i in range(n - 1):
        cs, cd = ls[i], ld[i]
        sign = signum(rest_d)
        ard = rest_d if sign >= 0 else -rest_d
        if rest_s == 1 if type(rest_s) is int else _maybe_eq(rest_s, 1, None):
            rest_d = ceil_div(ard, cs) * sign  # a size-1 leaf of B contributes only 0: walked, never tested
            continue
        if check_stride_divisibility(cs, ard, rest_s, i, flat_a):
            # neither divides the other, but every point of B lies inside this mode: take all of B here
            if not is_eq(rest_s, 1):
                _record_piece(acc, pieces, n, i, rest_s, ard, sign, cs, leaf, len(res_s))
                res_s.append(rest_s)
                res_d.append(simplify(rest_d * cd))
                rest_s = 1
            rest_d = sign  # ceil(ard / cs) = 1 for ard < cs, as CuTe continues the walk
            continue
        next_s = ceil_div(cs, ard)
        next_d = ceil_div(ard, cs) * sign
        if either_is_one(next_s, rest_s):
            rest_d = next_d
            continue
        new_s = smin(next_s, rest_s)
        if not divides(new_s, rest_s):
            raise_shape_div(new_s, rest_s, i, flat_a)
        _record_piece(acc, pieces, n, i, new_s, ard, sign, cs, leaf, len(res_s))
        res_s.append(new_s)
        res_d.append(simplify(rest_d * cd))
        rest_s = simplify(rest_s / new_s) if type(rest_s) is not int or type(new_s) is not int else rest_s // new_s
        rest_d = next_d
    rest_is_one = rest_s == 1 if type(rest_s) is int else is_eq(rest_s, 1)
    if not rest_is_one and (acc is not None or pieces is not None):
        # A's last mode extends, so any sum fits there; only the signs matter (the mixed-sign rule)
        sign = signum(rest_d)
        if sign:
            _record_piece(acc, pieces, n, n - 1, rest_s, rest_d * sign, sign, None, leaf, len(res_s))
    return _leaf_layout(res_s, res_d, rest_s, rest_d * ld[n - 1], rest_is_one)


def _next_leaf(counter: list) -> int:
    """The number of B's next leaf (``counter[0]``), counted up."""
    leaf = counter[0]
    counter[0] = leaf + 1
    return leaf


def _leaf_layout(res_s: list, res_d: list, rest_s: Any, rest_d: Any, rest_is_one: bool) -> Layout:
    """One leaf of B composed: its parts ``res_s:res_d`` in A's first modes, then ``rest_s:rest_d`` in the last.

    Pre:  ``rest_d`` already scaled by A's last stride; ``rest_is_one`` whether ``rest_s == 1``.
    Post: the leaf's layout (one mode, or a tuple of modes where it spans several modes of A).
    """
    if not res_s:
        return Layout.from_normalized(simplify(rest_s), simplify(rest_d))
    if rest_is_one:
        if len(res_s) == 1:
            return Layout.from_normalized(res_s[0], res_d[0])
        return Layout.from_normalized(tuple(res_s), tuple(res_d))
    return Layout.from_normalized(tuple(res_s) + (simplify(rest_s),), tuple(res_d) + (simplify(rest_d),))


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
        top = simplify(prev + (count - 1) * step)
        if cs is not None and not (type(prev) is int and prev == 0):
            fits = top < cs if type(top) is int and type(cs) is int else three_valued(is_lt, top, cs)
            if fits is not True:
                raise ModesInteract  # inadmissible or undecidable: check_interaction says which
        acc[j] = top
    elif pieces is not None:
        pieces.append((i, count, step, sign > 0, leaf, k))


# ------------------------------------------------------------------------------------------
# complement


def complement(layout: Layout, cotarget: Any = None) -> Layout:
    """The layout that enumerates, in order, the offsets in ``[0, cotarget)`` that ``layout`` misses.

    Pre:  layout has non-negative strides and, filtered and sorted by stride, each stride is a
          multiple of the previous stride times its shape; cotarget (default cosize(layout)) is
          positive.
    Post: cosize(make_layout(layout, R)) >= size(cotarget); R(i-1) < R(i) and R(i) != layout(j) for
          every 1 <= i < size(R) and j < size(layout). Otherwise AdmissibilityError names the stride
          that breaks it.

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
    if type(cotarget) is int and cotarget > _ONE_DIGIT and cotarget >= _COTARGET_BOUND:  # (a negative one is refused below)
        check_int_size("complement", "cotarget", cotarget)  # (as a tuple cotarget's leaves are)
    try:
        return _complement(layout, cotarget)
    except ZeroDivisionError:
        raise _zero_extent_error("complement", layout, cotarget) from None


#: an int cotarget has at most MAX_INT_DIGITS digits (check_int_size says why); a cotarget up to _ONE_DIGIT (a
#: one-digit int: CPython's specialised comparison) passes with one comparison
_COTARGET_BOUND = 10**MAX_INT_DIGITS
_ONE_DIGIT = (1 << 30) - 1


def _complement(layout: Layout, cotarget: Any = None) -> Layout:
    if type(layout) is Layout and type(cotarget) is int and cotarget > 0:
        fl = layout.int_flat_modes()
        if fl is not None and fl[0]:  # the integer fast path
            if len(fl[0]) > 1:
                r = complement_sorted_ints(fl[0], fl[1], cotarget)
                if r is not None:
                    return r
            return complement_ints(fl[0], fl[1], cotarget, layout)
    inner = getattr(layout, "inner", None)
    if inner is not None and not isinstance(layout, Layout):
        layout = inner  # CuTe: complement of a ComposedLayout is the complement of its inner layout
    layout = as_layout(layout, "complement")
    refuse_coordinate_layout(layout, "complement")
    f = _filter_flat(layout, "complement")
    if cotarget is None:
        cotarget = f.cosize()
    elif type(cotarget) is int and cotarget > 0:
        pass
    else:
        cotarget = it.as_inttuple(cotarget, "complement", "cotarget")
        validate_shape(cotarget, "complement")
    fs0, fd0 = f.flat_modes()
    if layout.int_flat_modes() is not None and (type(cotarget) is int or all_int(flatten(cotarget))):
        fs1, fd1 = layout.flat_modes()
        return complement_ints(fs1, fd1, cotarget, layout)
    fs = list(fs0)
    fd = list(fd0)
    if len(fs) == 1 and (fd[0] == 0 if type(fd[0]) is int else is_eq(fd[0], 0)):
        n = simplify(product(cotarget))
        return Layout.from_normalized(1, 0) if is_eq(n, 1) else Layout.from_normalized(n, 1)
    for d in fd:
        if signum(d) < 0:
            raise AdmissibilityError(f"complement: negative stride {d} in {layout}: complement needs non-negative strides")
    res_s: list = []
    res_d: list = [1]
    while len(fs) > 1:
        idx = _argmin(fd)
        min_d = fd[idx]
        _check_complement_step(min_d, res_d[-1], fs[idx], layout)
        res_s.append(simplify(min_d / res_d[-1]) if type(min_d) is not int else min_d // res_d[-1])
        res_d.append(simplify(min_d * fs[idx]))
        del fs[idx]
        del fd[idx]
    _check_complement_step(fd[0], res_d[-1], fs[0], layout)
    res_s.append(fd[0] // res_d[-1] if type(fd[0]) is int and type(res_d[-1]) is int else simplify(fd[0] / res_d[-1]))
    new_d = simplify(fd[0] * fs[0])
    rest_s = simplify(product(ceil_div(cotarget, new_d)))
    full = Layout.from_normalized((tuple(res_s), rest_s), (tuple(res_d), new_d))
    return coalesce_flat(full)


def complement_ints(fs: tuple, fd: tuple, cotarget: Any, layout: Layout) -> Layout:
    """``complement`` of an integer layout with the (non-empty) flat modes ``fs:fd``; ``cotarget`` is a
    positive int or a tuple of them (CuTe: the rest is then ``product(ceil_div(cotarget, extent))``)."""
    if len(fs) == 1:  # one mode s:d (most tilers): the general walk below, unrolled
        s = fs[0]
        d = fd[0]
        if s != 1 and d > 0:
            ext = d * s
            rest = -((-cotarget) // ext) if type(cotarget) is int else _ceil_div_product(cotarget, ext)
            if d == 1:
                return int_layout([rest], [ext]) if rest != 1 else int_layout([1], [0])
            if rest == 1:
                return int_layout([d], [1])
            return int_layout([d, rest], [1, ext])
    ss, dd = _filter_ints(fs, fd)
    n = len(ss)
    if n == 1 and dd[0] == 0:  # filter(layout) is 1:0
        tot = cotarget if type(cotarget) is int else product(cotarget)
        return int_layout([tot], [1]) if tot != 1 else int_layout([1], [0])
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
    return int_layout(*coalesce_ints(res_s, res_d, len(res_s), rest, ext))


def complement_sorted_ints(fs: tuple, fd: tuple, cotarget: int) -> Layout | None:
    """``complement_ints`` for an int ``cotarget`` when every kept mode (size > 1, stride > 0), sorted by
    stride, starts at a multiple of the extent before it; None otherwise (negative strides, nothing kept,
    a stride that breaks it: ``complement_ints`` then says why). The modes are not coalesced first: a mode
    that coalesce would merge into the one before it adds a size-1 mode here, which the final coalesce drops."""
    kept = []
    for s, d in zip(fs, fd):
        if s != 1 and d:
            if d < 0:
                return None
            kept.append((d, s))
    if not kept:
        return None
    kept.sort()
    ss: list = []
    dd: list = []
    ext = 1
    for d, s in kept:
        if d % ext:
            return None
        ss.append(d // ext)
        dd.append(ext)
        ext = d * s
    return int_layout(*coalesce_ints(ss, dd, len(ss), -((-cotarget) // ext), ext))


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
    c = coalesce_flat(layout)
    s = c.shape if isinstance(c.shape, tuple) else (c.shape,)
    d = c.stride if isinstance(c.stride, tuple) else (c.stride,)
    return s, d


def _prefix(s: list, i: int) -> int:
    """``s[0] * ... * s[i-1]``."""
    p = 1
    for k in range(i):
        p *= s[k]
    return p


def refuse_coordinate_layout(layout: Layout, who: str) -> None:
    """LayoutTypeError for a layout with basis or F2 strides where an operation needs integer offsets."""
    fs, fd = layout.flat_modes()
    if any(type(d) is F2 for d in fd):
        raise LayoutTypeError(f"{who}: {layout} has F2 (XOR) strides; {who} needs integer strides")
    if layout.coord_profile() is not None:
        raise LayoutTypeError(
            f"{who}: {layout} has basis strides (it maps to coordinates, not offsets); {who} needs integer "
            "strides, as in CuTe C++, which rejects it at compile time"
        )


def _require_int_layout(layout: Layout, who: str) -> None:
    if layout.is_symbolic():
        raise SymbolicUndecidable(f"{who}: needs integer strides to sort them; {layout} is symbolic (subs() first)")


def right_inverse(layout: Layout) -> Layout:
    """A layout ``R`` with ``layout(R(i)) == i`` for every ``i < size(R)``, as large as possible.

    Pre:  layout has integer shapes, and integer strides or basis strides (a coordinate layout),
          or F2 strides (then R has F2 strides and is built from whole modes of layout, CuTe's
          chain with XOR residues: see core.f2_inverse); basis strides with F2 coefficients give
          R with F2 strides, one chain per component of the codomain.
    Post: layout(R(i)) == i for every i < size(R), and no larger such layout exists. For a
          coordinate layout R takes a coordinate c of the codomain (one chain of strides 1, s0,
          s0*s1 ... per component) to an index, with layout(R(c)) == c.

    >>> print(right_inverse(Layout((4, 2), (2, 1))))
    (2,4):(4,1)
    >>> print(right_inverse(Layout((4, 8), (E(1), E(0)))))
    (8,4):(4,1)
    >>> print(right_inverse(Layout(4, 2)))
    1:0
    """
    answered, layout = _inverse_operand(layout, "right_inverse")
    if answered:
        return layout
    ints = _coalesced_ints(layout)
    if ints is not None:  # the integer fast path
        s, d = ints
        if len(s) == 1:
            return int_layout(s, d) if d[0] == 1 else int_layout([1], [0])
        rs, rd = _right_inverse_chain_ints(s, d)
        if not rs:
            return int_layout([1], [0])
        n = len(rs) - 1
        return int_layout(*coalesce_ints(rs, rd, n, rs[n], rd[n]))
    fs, fd = layout.flat_modes()
    if not fs:
        raise_empty(layout, "right_inverse")
    if is_f2_layout(fd):
        return right_inverse_f2(layout)
    if layout.coord_profile() is not None and not any(type(d) is F2 for d in fd):
        if any(type(d) is ScaledBasis and any(type(c) is F2 for _, c in d.terms) for d in fd):
            return _right_inverse_coord_f2(layout, fs, fd)
        return _right_inverse_coord(layout, fs, fd)
    refuse_coordinate_layout(layout, "right_inverse")
    s, d = _flat_modes(layout)
    rs, rd = _right_inverse_chain(s, d, _sorted_strides(d, layout, "right_inverse"))
    if not rs:
        return Layout.from_normalized(1, 0)
    ss, dd = coalesce_ints(rs, rd, len(rs) - 1, rs[-1], rd[-1])  # leaves not known to be plain ints here
    return Layout.from_normalized(ss[0], dd[0]) if len(ss) == 1 else Layout.from_normalized(tuple(ss), tuple(dd))


def _inverse_operand(layout: Any, who: str) -> tuple[bool, Any]:
    """The operand of ``right_inverse``/``left_inverse`` (``who``), or the answer where it gives one itself.

    Pre:  none (user input).
    Post: ``(True, answer)`` for ``_``/None (returned as is) and for a composed layout (its ``_<who>`` hook);
          otherwise ``(False, the operand as a Layout)``, LayoutError where it is none.
    """
    if layout is _ or layout is None:
        return True, layout
    if type(layout) is not Layout:
        hook = getattr(layout, "_" + who, None)
        if hook is not None and not isinstance(layout, Layout):
            return True, hook()
        return False, as_layout(layout, who)
    return False, layout


def _coalesced_ints(layout: Layout) -> tuple[list, list] | None:
    """The flat modes of coalesce(layout) as int lists, or None unless every leaf is an int (and there is one).

    Pre:  ``layout`` a Layout.  Post: ``(shapes, strides)`` of CuTe's coalesce, for the integer fast paths.
    """
    fl = layout.int_flat_modes()
    if fl is None or not fl[0]:
        return None
    fs, fd = fl
    n = len(fs) - 1
    return coalesce_ints(fs, fd, n, fs[n], fd[n])


def _right_inverse_chain_ints(s: tuple, d: tuple) -> tuple[list, list]:
    """:func:`_right_inverse_chain` for integer modes: prefix products computed once, one sort.

    Pre:  ``s:d`` coalesced and flat, integer shapes > 1 and integer strides.
    Post: as :func:`_right_inverse_chain` with the modes in ascending stride order (ties by position).
    """
    modes = []  # (stride, index of the mode's first point, shape); the index order breaks ties of equal strides
    pre = 1
    for x, y in zip(s, d):
        modes.append((y, pre, x))
        pre *= x
    modes.sort()
    cur = 1
    rs: list = []
    rd: list = []
    for y, pre, x in modes:
        if y == cur:
            rs.append(x)
            rd.append(pre)
            cur = x * y
    return rs, rd


def _right_inverse_chain(s: tuple, d: tuple, order: Any) -> tuple[list, list]:
    """The modes of ``s:d`` (coalesced, flat) whose strides chain ``1, s_a, s_a*s_b ...``, and their index strides.

    Pre:  ``order`` the mode indices by ascending stride.
    Post: ``(rs, rd)``: the right inverse ``rs:rd`` before coalescing (empty when no stride is 1).
    """
    rs: list = []
    rd: list = []
    cur = 1
    for i in order:
        if d[i] == cur if type(d[i]) is int and type(cur) is int else is_eq(d[i], cur):
            rs.append(s[i])
            rd.append(_prefix(s, i))
            cur = s[i] * d[i]
    return rs, rd


def _sorted_strides(d: tuple, layout: Layout, who: str) -> list:
    """The mode indices by ascending stride; symbolic strides are compared from their assumptions."""
    if all_int(d):
        return sorted(range(len(d)), key=d.__getitem__)
    try:
        return sorted(range(len(d)), key=functools.cmp_to_key(lambda i, j: -1 if is_lt(d[i], d[j]) else 0 if is_eq(
            d[i], d[j]) else 1))
    except SymbolicUndecidable as e:
        raise SymbolicUndecidable(f"{who}: cannot order the strides {it.format_inttuple(d)} of {layout}: {e}") from e


def _right_inverse_coord(layout: Layout, fs: tuple, fd: tuple) -> Layout:
    """right_inverse over coordinates: per component of the codomain, the chain of strides ``1, s0, s0*s1 ...``.

    The result takes a coordinate (congruent with the codomain's profile) to an index of ``layout``;
    a component whose chain does not start at stride 1 gets the single coordinate 0 (``1:0``).
    """
    cp = layout.coord_profile()
    pre = [1]
    for s in fs:
        pre.append(pre[-1] * s)
    leaves: list = []
    for path, coefs in basis_components(fd, cp):
        single = [i for i, d in enumerate(fd) if type(d) is ScaledBasis and len(d.terms) == 1 and d.terms[0][0] == path]
        rs: list = []
        rd: list = []
        cur = 1
        try:
            order = sorted(single, key=coefs.__getitem__)
        except TypeError:  # sympy cannot order two symbolic coefficients
            raise SymbolicUndecidable(f"right_inverse: cannot order the coefficients "
                                      f"{it.format_inttuple(tuple(coefs[i] for i in single))} of the component {path} of "
                                      f"{layout} from the symbols' assumptions (subs() first)") from None
        for i in order:
            if fs[i] == 1:
                continue
            if coefs[i] != cur:  # not the next stride of the chain: CuTe's inverse_seq looks further
                continue
            rs.append(fs[i])
            rd.append(pre[i])
            cur = coefs[i] * fs[i]
        leaves.append((tuple(rs), tuple(rd)) if len(rs) > 1 else (rs[0], rd[0]) if rs else (1, 0))
    if not isinstance(cp, tuple) or len(leaves) == 1 and not isinstance(cp, tuple):
        return Layout.from_normalized(*leaves[0])
    return _nest_like(cp, leaves)


def _right_inverse_coord_f2(layout: Layout, fs: tuple, fd: tuple) -> Layout:
    """right_inverse of a coordinate layout whose basis strides carry F2 (XOR) coefficients.

    Pre:  basis strides, some with F2 coefficients; int shapes.
    Post: R with F2 strides (and zeros), nested like the codomain's profile; L(R(c)) == c for every
          coordinate c of R's domain. Per component k: the F2 chain (right_inverse_f2) of the modes whose
          stride is a single term on k, over L's whole domain (the other modes stride 0), so R_k(c_k) is an
          index of L using only those modes; the components' modes are disjoint, so R(c) = XOR_k R_k(c_k) is
          their sum. A component with integer coefficients keeps its integer chain, read in F2 where L's
          prefix products are powers of two (then digit * 2^j == clmul(digit, 2^j) and the sum is a XOR).
          LayoutTypeError for F2 and integer coefficients on one component or an integer chain not in 2^j.
    """
    cp = layout.coord_profile()
    leaves: list = []
    for path, coefs in basis_components(fd, cp):
        single = [i for i, d in enumerate(fd) if type(d) is ScaledBasis and len(d.terms) == 1 and d.terms[0][0] == path]
        kinds = {type(coefs[i]) for i in single if coefs[i] != 0}
        sub = [coefs[i] if i in single else 0 for i in range(len(fs))]
        sub_layout = Layout.from_normalized(tuple(fs), tuple(sub)) if len(fs) > 1 else Layout.from_normalized(fs[0], sub[0])
        if kinds == {F2}:
            r = right_inverse_f2(sub_layout)
        elif kinds <= {int}:  # the integer chain (its strides are indices of L's domain), read in F2
            r = right_inverse(sub_layout)
            rd = flatten(r.stride)
            if not all(type(x) is int and (x == 0 or is_pow2(x)) for x in rd):
                raise LayoutTypeError(f"right_inverse: {layout} mixes F2 and integer coordinate components and the "
                                      f"integer component's chain {r} does not step in powers of two")
            f2d = tuple(F2(x) if x else 0 for x in rd)
            r = Layout.from_normalized(r.shape, it.unflatten(f2d, r.stride) if isinstance(r.stride, tuple) else f2d[0])
        else:
            raise LayoutTypeError(f"right_inverse: {layout} has F2 and integer coefficients on the coordinate "
                                  f"component {path}")
        leaves.append((r.shape, r.stride))
    return _nest_like(cp, leaves)


def left_inverse(layout: Layout) -> Layout:
    """A layout ``R`` with ``R(layout(i)) == i`` for every ``i < size(layout)`` (injective layouts).

    Pre:  layout has integer shapes and strides; the strides of coalesce(layout), sorted, each
          divide the next. (F2 strides: a bijection onto [0, n) less its stride-0 modes, see
          core.f2_inverse.)
    Post: R(layout(i)) == i for every i < size(layout) when layout is injective (see below for the
          rest).

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
    answered, layout = _inverse_operand(layout, "left_inverse")
    if answered:
        return layout
    ints = _coalesced_ints(layout)
    if ints is not None:  # the integer fast path
        rs, rd = _left_inverse_fold(*ints, layout)
        n = len(rs) - 1
        return int_layout(*coalesce_ints(rs, rd, n, rs[n], rd[n]))
    fs, fd = layout.flat_modes()
    if not fs:
        raise_empty(layout, "left_inverse")
    if is_f2_layout(fd):
        return left_inverse_f2(layout)
    refuse_coordinate_layout(layout, "left_inverse")
    if not (all_int(fs) and all_int(fd)):
        _require_int_layout(layout, "left_inverse")
    rs, rd = _left_inverse_fold(*_flat_modes(layout), layout)
    return coalesce_flat(Layout.from_normalized(tuple(rs), tuple(rd)))


def _left_inverse_fold(s: Any, d: Any, layout: Layout) -> tuple[list, list]:
    """CuTe's left_inverse fold over the strides ``d`` of coalesce(layout) (shapes ``s``), ascending.

    Pre:  ``s:d`` the flat modes of coalesce(layout), integers.
    Post: ``(rs, rd)``, the inverse before coalescing: each nonzero stride a multiple of the size the smaller
          ones cover; otherwise AdmissibilityError (also for a negative stride).
    """
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
    return rs, rd


def tiler_to_layout(tiler: Any) -> Layout:
    """A tiler as one layout: an int ``n`` is ``n:1``, a tuple's mode ``i`` gets its strides times ``E(i)``.

    Pre:  tiler is a Layout, a positive int, or a (nested) tuple of those (no ``_``).
    Post: composition(a, tiler_to_layout(t)) == composition(a, t) for a tuple t of tilers of a's
          modes; a tuple of ints gives the identity layout of that shape.

    >>> print(tiler_to_layout((2, Layout(4, 2))))
    (2,4):(1@0,2@1)
    >>> print(composition(Layout((8, 8), (8, 1)), tiler_to_layout((2, 4))))
    (2,4):(8,1)
    """
    if isinstance(tiler, Layout):
        return tiler
    if tiler is _:
        raise LayoutTypeError("tiler_to_layout: '_' keeps a whole mode of A and has no layout of its own")
    if isinstance(tiler, tuple):
        if not tiler:
            raise LayoutValueError("tiler_to_layout: an empty tuple is no tiler")
        it.check_nesting(tiler, "tiler_to_layout", "tiler")
        modes = [tiler_to_layout(t) for t in tiler]
        return make_layout(*[Layout.from_normalized(m.shape, _lift(m.stride, i)) for i, m in enumerate(modes)])
    n = it.as_inttuple(tiler, "tiler_to_layout", "tiler")
    validate_shape(n, "tiler_to_layout")
    return Layout(n, 1)


def _lift(d: Any, i: int) -> Any:
    """The stride ``d`` moved into component ``i``: an int ``v`` becomes ``v@i``, ``v@k`` becomes ``v@k@i``."""
    if isinstance(d, tuple):
        return tuple(_lift(x, i) for x in d)
    if type(d) is ScaledBasis:
        return d.with_prefix(i)
    return d * E(i)
