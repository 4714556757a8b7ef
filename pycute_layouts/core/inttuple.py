"""Hierarchical integer tuples (CuTe's ``IntTuple``): the shapes, strides and coordinates of layouts.

An IntTuple is either a leaf (a Python ``int`` or a sympy expression standing for an integer)
or a ``tuple`` of IntTuples, to any depth: ``8``, ``(8, 4)``, ``((8, 2), (4, 4))``. The
functions here are CuTe's: ``product`` (the size of a shape), ``prefix_product`` (column-major
strides), ``crd2idx``/``idx2crd`` (coordinates <-> indices), the profile relations
``congruent``/``compatible``/``weakly_congruent``, and ``shape_div``/``ceil_div`` (division that
walks a tuple from the left, CuTe's way of "dividing a shape by a stride").

Integers take a fast path that never touches sympy. Symbolic leaves use sympy; a condition
that cannot be decided from the symbols' assumptions raises :class:`SymbolicUndecidable`.

>>> product(((8, 2), (4, 4)))
256
>>> prefix_product((8, (2, 4)))
(1, (8, 16))
>>> crd2idx((3, (1, 2)), (8, (2, 4)))
43
>>> idx2crd(43, (8, (2, 4)))
(3, (1, 2))
>>> shape_div((4, 6, 8), 12)
(1, 2, 8)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import AdmissibilityError, CongruenceError, CoordinateError, LayoutTypeError, LayoutValueError, SymbolicUndecidable
from ..limits import MAX_INT_DIGITS, MAX_NESTING_DEPTH, check_int_size, fmt
from .basis import ScaledBasis
from .f2 import F2
from .symbols import lazy_sympy, refine_divisibility, refine_sign

IntTuple = int | Any | tuple

__all__ = [
    "IntTuple",
    "is_int",
    "is_tuple",
    "is_symbolic",
    "as_inttuple",
    "as_stride",
    "product",
    "product_each",
    "prefix_product",
    "suffix_product",
    "inner_product",
    "elem_scale",
    "crd2idx",
    "idx2crd",
    "idx2crd_flat",
    "flatten",
    "unflatten",
    "depth",
    "rank",
    "congruent",
    "compatible",
    "weakly_congruent",
    "shape_div",
    "ceil_div",
    "filter_zeros",
    "compact_col_major",
    "compact_row_major",
    "signum",
    "check_inttuple",
    "check_nesting",
]

def _sp():
    return lazy_sympy()


# ------------------------------------------------------------------------------------------
# leaves


def is_tuple(x: Any) -> bool:
    """True for a (possibly nested) tuple.

    >>> is_tuple((1, 2)), is_tuple(3)
    (True, False)
    """
    return type(x) is tuple or isinstance(x, tuple)


def is_int(x: Any) -> bool:
    """True for an integer leaf: a Python int (not bool) or a sympy expression.

    >>> is_int(3), is_int(True), is_int((3,)), is_int(2.0)
    (True, False, False, False)
    """
    t = type(x)
    if t is int:
        return True
    if t is bool or t is tuple:
        return False
    if isinstance(x, (int, np.integer)):
        return not isinstance(x, bool)
    return _is_sympy(x)


def _is_sympy(x: Any) -> bool:
    mod = type(x).__module__
    if not mod.startswith("sympy"):
        return False
    sp = _sp()
    return isinstance(x, sp.Expr)


def is_symbolic(x: Any) -> bool:
    """True when any leaf is a sympy expression that is not a plain number.

    >>> import sympy
    >>> is_symbolic((4, sympy.Symbol('m'))), is_symbolic((4, 8))
    (True, False)
    """
    if type(x) is int:
        return False
    if isinstance(x, tuple):
        return any(is_symbolic(e) for e in flatten(x))
    return _is_sympy(x) and not x.is_Integer


def _norm_leaf(x: Any, who: str, what: str) -> Any:
    t = type(x)
    if t is int:
        return check_int_size(who, f"{what} leaf", x)
    if t is bool:
        raise LayoutTypeError(f"{who}: {what} leaves must be integers, got bool {fmt(x)}")
    if isinstance(x, (np.integer, int)):
        return check_int_size(who, f"{what} leaf", int(x))
    if _is_sympy(x):
        if x.is_Integer:
            return check_int_size(who, f"{what} leaf", int(x))
        if x.is_number:
            raise LayoutValueError(f"{who}: {what} leaves must be integers, got the non-integer number {x}")
        if x.is_integer is False:
            raise LayoutValueError(f"{who}: {what} leaf {x} is known not to be an integer")
        return x
    raise LayoutTypeError(f"{who}: {what} leaves must be int or sympy integer expressions, got {fmt(x)} ({t.__name__})")


def check_inttuple(x: Any, who: str = "IntTuple", what: str = "IntTuple", allow_arrays: bool = False,
                   strides: bool = False) -> None:
    """Refuse anything that is not an IntTuple: leaves int / numpy integer / sympy expression, at most
    ``MAX_NESTING_DEPTH`` levels of tuples (with ``allow_arrays``, integer numpy arrays too: vectorised
    coordinates). Iterative, so deep input cannot exhaust the stack.

    Pre:  ``who`` names the public function, ``what`` the argument.
    Post: returns None, or LayoutTypeError (a leaf of another type) / LayoutValueError (too deep).

    >>> check_inttuple((8, (2, 4)))
    >>> check_inttuple((2, None), "product", "t")
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.LayoutTypeError: product: t must be an IntTuple (int or sympy integer leaves), got None (NoneType)
    """
    if type(who) is not str or type(what) is not str:
        raise LayoutTypeError(f"check_inttuple: who and what must be strings, got {fmt(who)}, {fmt(what)}")
    if not isinstance(allow_arrays, bool) or not isinstance(strides, bool):
        raise LayoutTypeError(f"check_inttuple: allow_arrays and strides must be bools, got {fmt(allow_arrays)}, "
                              f"{fmt(strides)}")
    if type(x) is int:
        check_int_size(who, what, x)
        return
    stack = [(x, 0)]
    while stack:
        e, d = stack.pop()
        if type(e) is int:
            check_int_size(who, f"{what} leaf", e)
            continue
        if strides and type(e) in (ScaledBasis, F2):
            continue
        if isinstance(e, tuple):
            if d >= MAX_NESTING_DEPTH:
                raise LayoutValueError(f"{who}: {what} is nested more than MAX_NESTING_DEPTH = {MAX_NESTING_DEPTH} "
                                       "levels deep")
            stack.extend((c, d + 1) for c in e)
        elif allow_arrays and isinstance(e, np.ndarray) and e.dtype.kind in "iu":
            continue
        elif isinstance(e, bool) or not (isinstance(e, (int, np.integer)) or _is_sympy(e)):
            raise LayoutTypeError(f"{who}: {what} must be an IntTuple (int or sympy integer leaves), got {fmt(e)} "
                                  f"({type(e).__name__})")
        elif isinstance(e, (int, np.integer)):
            check_int_size(who, f"{what} leaf", int(e))


def check_nesting(x: Any, who: str, what: str) -> None:
    """Refuse tuples nested more than ``MAX_NESTING_DEPTH`` levels (any leaves: tilers hold layouts and ``_``).

    Iterative, so it is safe on input of any depth; callers that recurse over ``x`` call it first.

    >>> check_nesting(((8, 2), 4), "logical_divide", "tiler")
    """
    if not isinstance(x, tuple):
        return
    stack = [(x, 0)]
    while stack:
        e, d = stack.pop()
        if d >= MAX_NESTING_DEPTH:
            raise LayoutValueError(f"{who}: {what} is nested more than MAX_NESTING_DEPTH = {MAX_NESTING_DEPTH} levels deep")
        stack.extend((c, d + 1) for c in e if isinstance(c, tuple))


def _plain(x: Any) -> Any:
    """``x`` with numpy integer leaves made Python ints (exact arithmetic, no int64 overflow); arrays kept."""
    if type(x) is int or x is None:
        return x
    if isinstance(x, tuple):
        return tuple(_plain(e) for e in x) if not all_int(x) else x
    if isinstance(x, np.integer):
        return int(x)
    return x


def _checked(who: str, **args: Any) -> None:
    for what, x in args.items():
        if type(x) is not int:
            check_inttuple(x, who, what, allow_arrays=what in ("crd", "idx"))


def as_inttuple(x: Any, who: str = "IntTuple", what: str = "IntTuple") -> IntTuple:
    """Normalise user input to an IntTuple: lists become tuples, numpy/sympy integers become int.

    >>> as_inttuple([8, [2, 4]])
    (8, (2, 4))
    >>> as_inttuple("8")
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.LayoutTypeError: IntTuple: IntTuple leaves must be int or sympy integer expressions, got '8' (str)
    """
    if type(who) is not str or type(what) is not str:
        raise LayoutTypeError(f"as_inttuple: who and what must be strings, got {fmt(who)}, {fmt(what)}")
    return _as_inttuple(x, who, what, 0)


def _as_inttuple(x: Any, who: str, what: str, level: int) -> IntTuple:
    if type(x) is int:
        return check_int_size(who, what, x)
    if isinstance(x, (tuple, list)):
        if level >= MAX_NESTING_DEPTH:
            raise LayoutValueError(f"{who}: {what} is nested more than MAX_NESTING_DEPTH = {MAX_NESTING_DEPTH} levels deep")
        return tuple(_as_inttuple(e, who, what, level + 1) for e in x)
    return _norm_leaf(x, who, what)


def as_stride(x: Any, who: str = "Layout") -> IntTuple:
    """Normalise a stride: an IntTuple whose leaves may also be basis strides (:class:`ScaledBasis`).

    >>> from pycute_layouts.core.basis import E
    >>> as_stride([1, E(1)])
    (1, ScaledBasis('1@1'))
    """
    if type(who) is not str:
        raise LayoutTypeError(f"as_stride: who must be a string, got {fmt(who)}")
    if type(x) is int:
        return check_int_size(who, "stride", x)
    if type(x) is ScaledBasis or type(x) is F2:
        return x
    return _as_stride(x, who, 0)


def _as_stride(x: Any, who: str, level: int) -> IntTuple:
    if type(x) is int:
        return check_int_size(who, "stride", x)
    if type(x) is ScaledBasis or type(x) is F2:
        return x
    if isinstance(x, (tuple, list)):
        if level >= MAX_NESTING_DEPTH:
            raise LayoutValueError(f"{who}: stride is nested more than MAX_NESTING_DEPTH = {MAX_NESTING_DEPTH} levels deep")
        return tuple(_as_stride(e, who, level + 1) for e in x)
    return _norm_leaf(x, who, "stride")


# ------------------------------------------------------------------------------------------
# symbolic decision helpers (ints never reach sympy)


def _decide(cond: Any, text: str) -> bool:
    """Turn a sympy relational / bool into a Python bool or raise SymbolicUndecidable."""
    if cond is True or cond is False:
        return cond
    sp = _sp()
    if cond in (sp.true, sp.false):
        return bool(cond)
    raise SymbolicUndecidable(f"cannot decide {text} from the symbols' assumptions")


def _refined(x: Any, sign: bool = False) -> Any:
    return refine_sign(x) if sign else refine_divisibility(x)


def divides(b: Any, a: Any) -> bool:
    """True when ``b`` divides ``a`` (``a % b == 0``); symbolic: decided from assumptions.

    >>> divides(4, 12), divides(5, 12)
    (True, False)
    >>> import sympy; m = sympy.Symbol('m', integer=True, positive=True)
    >>> divides(4, 8 * m)
    True
    """
    _checked("divides", a=a, b=b)
    if type(a) is int and type(b) is int:
        if b == 0:
            return a == 0
        return a % b == 0
    sp = _sp()
    if b == 0:
        return _decide(sp.Eq(a, 0), f"{a} == 0")
    q = sp.cancel(_refined(sp.sympify(a) / b))
    isint = q.is_integer
    if isint is None:
        raise SymbolicUndecidable(
            f"cannot decide whether {b} divides {a} (quotient {q}) from the symbols' assumptions; "
            "declare symbols integer/positive, state the fact with symbolic.assume_divisible(x, d), "
            "or write the multiple explicitly (e.g. 16*s)"
        )
    return bool(isint)


def is_lt(a: Any, b: Any) -> bool:
    """``a < b`` decided exactly (ints) or from assumptions (sympy).

    >>> is_lt(2, 3)
    True
    """
    if type(a) is int and type(b) is int:
        return a < b
    sp = _sp()
    d = _refined(_sympy_simplify(sp.sympify(b) - a), sign=True)
    if d.is_positive:
        return True
    if d.is_nonpositive:
        return False
    raise SymbolicUndecidable(f"cannot decide {a} < {b} from the symbols' assumptions")


def is_eq(a: Any, b: Any) -> bool:
    """``a == b`` decided exactly (ints) or from assumptions and stated facts (sympy).

    An undecidable equality raises SymbolicUndecidable; it is never guessed as ``False``.

    >>> is_eq(4, 4)
    True
    >>> import sympy; m, n = sympy.symbols('m n', integer=True, positive=True)
    >>> is_eq(6 * m * n, 3)
    False
    >>> is_eq(3 * n, 3)
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.SymbolicUndecidable: cannot decide 3*n == 3 from the symbols' assumptions
    """
    if type(a) is int and type(b) is int:
        return a == b
    if type(a) in (ScaledBasis, F2) or type(b) in (ScaledBasis, F2):
        return a == b  # basis and F2 strides: equal iff the same value (0 is never one of them)
    sp = _sp()
    d = _sympy_simplify(sp.sympify(a) - b)
    if d == 0:
        return True
    if d.is_zero is False:
        return False
    r = _refined(d, sign=True)  # stated facts, and each positive integer x as x'' + 1
    if r == 0:
        return True
    if r.is_zero is False or r.is_positive or r.is_negative or (-r).is_positive:
        return False
    raise SymbolicUndecidable(f"cannot decide {a} == {b} from the symbols' assumptions")


def smin(a: Any, b: Any) -> Any:
    """``min(a, b)``, decided (ints or sympy); where ``a == b`` is possible either is returned.

    >>> smin(3, 5)
    3
    >>> import sympy; m = sympy.Symbol('m', integer=True, positive=True)
    >>> smin(2 * m, 2)
    2
    """
    if type(a) is int and type(b) is int:
        return a if a < b else b
    b_lt_a = three_valued(is_lt, b, a)
    if b_lt_a is not True and not isinstance(b_lt_a, SymbolicUndecidable):
        return a  # a <= b
    if b_lt_a is True:
        return b
    if three_valued(is_lt, a, b) is False:
        return b  # b <= a (b < a undecidable: they may be equal, where either is the minimum)
    raise b_lt_a


def _exact_div(a: Any, b: Any) -> Any:
    if type(a) is int and type(b) is int:
        return a // b
    sp = _sp()
    q = sp.cancel(sp.sympify(a) / b)
    return int(q) if q.is_Integer else q


def signum(a: Any) -> int:
    """Sign of a leaf: -1, 0 or 1.

    >>> signum(-3), signum(0), signum(7)
    (-1, 0, 1)
    """
    if type(a) is not int:
        _checked("signum", a=a)
        if isinstance(a, tuple):
            raise LayoutTypeError(f"signum: expects a leaf, got the tuple {a}")
        if not _is_sympy(a):
            a = int(a)
            return (a > 0) - (a < 0)
    if type(a) is int:
        return (a > 0) - (a < 0)
    if a.is_positive:
        return 1
    if a.is_negative:
        return -1
    if a.is_zero:
        return 0
    r = _refined(a, sign=True)  # stated facts, and each positive integer x as x'' + 1
    if r.is_positive:
        return 1
    if r.is_negative or (-r).is_positive:
        return -1
    if r == 0:
        return 0
    raise SymbolicUndecidable(f"cannot decide the sign of {a} from the symbols' assumptions")


# ------------------------------------------------------------------------------------------
# structure


def rank(t: IntTuple) -> int:
    """Number of top-level modes (1 for a leaf).

    >>> rank(((8, 2), 4)), rank(8)
    (2, 1)
    """
    return len(t) if isinstance(t, tuple) else 1


def depth(t: IntTuple) -> int:
    """Nesting depth (0 for a leaf).

    >>> depth(8), depth((8, 4)), depth(((8, 2), 4))
    (0, 1, 2)
    """
    return _depth(t, 0)


def _depth(t: IntTuple, level: int) -> int:
    if isinstance(t, tuple):
        _check_level(level, "depth")
        return 1 + max((_depth(e, level + 1) for e in t), default=0)
    return 0


def _check_level(level: int, who: str) -> None:
    if level >= MAX_NESTING_DEPTH:
        raise LayoutValueError(f"{who}: the argument is nested more than MAX_NESTING_DEPTH = {MAX_NESTING_DEPTH} levels deep")


def flatten(t: IntTuple) -> tuple:
    """All leaves, left to right, as a flat tuple (a leaf becomes a 1-tuple).

    >>> flatten(((8, 2), (4, (4, 1))))
    (8, 2, 4, 4, 1)
    """
    if isinstance(t, tuple):
        out: list = []
        _flatten_into(t, out)
        return tuple(out)
    return (t,)


def _flatten_into(t: tuple, out: list, level: int = 0) -> None:
    for e in t:
        if isinstance(e, tuple):
            if level >= MAX_NESTING_DEPTH:
                _check_level(level, "flatten")
            _flatten_into(e, out, level + 1)
        else:
            out.append(e)


def unflatten(flat: tuple, profile: IntTuple) -> IntTuple:
    """Rebuild the nesting of ``profile`` from the flat tuple ``flat``.

    >>> unflatten((1, 2, 3), ((0, 0), 0))
    ((1, 2), 3)
    """
    if not isinstance(flat, (tuple, list)):
        raise LayoutTypeError(f"unflatten: flat must be a tuple, got {fmt(flat)}")
    flat = tuple(flat)
    it = iter(flat)

    def go(p, level=0):
        if isinstance(p, tuple):
            _check_level(level, "unflatten")
            return tuple(go(e, level + 1) for e in p)
        try:
            return next(it)
        except StopIteration:
            raise CongruenceError(f"unflatten: {len(flat)} leaves are too few for profile {fmt(profile)}") from None

    out = go(profile)
    if next(it, None) is not None:
        raise CongruenceError(f"unflatten: {len(flat)} leaves are too many for profile {fmt(profile)}")
    return out


def product(t: IntTuple) -> Any:
    """Product of all leaves (1 for an empty tuple): the size of a shape.

    >>> product((8, (2, 4))), product(())
    (64, 1)
    """
    _checked("product", t=t)
    t = _plain(t)
    if type(t) is int:
        return t
    if isinstance(t, tuple):
        r = 1
        for e in t:
            r = r * (e if type(e) is int else product(e))
        return r
    return t


def product_each(t: IntTuple) -> tuple:
    """Product of each top-level mode.

    >>> product_each(((8, 2), 4))
    (16, 4)
    """
    _checked("product_each", t=t)
    t = _plain(t)
    if isinstance(t, tuple):
        return tuple(product(e) for e in t)
    return (t,)


def prefix_product(t: IntTuple, init: IntTuple = 1) -> IntTuple:
    """Exclusive prefix product, hierarchical: the compact column-major strides of a shape.

    >>> prefix_product(((8, 2), (4, 4)))
    ((1, 8), (16, 64))
    >>> prefix_product(4, 3)
    3
    """
    _checked("prefix_product", t=t, init=init)
    t, init = _plain(t), _plain(init)
    if isinstance(t, tuple):
        if isinstance(init, tuple):
            if len(init) != len(t):
                raise CongruenceError(f"prefix_product: init {init} is not congruent with {t}")
            return tuple(prefix_product(x, i) for x, i in zip(t, init))
        out = []
        cur = init
        for e in t:
            out.append(prefix_product(e, cur))
            cur = cur * product(e)
        return tuple(out)
    if isinstance(init, tuple):
        raise CongruenceError(f"prefix_product: a tuple init {init} needs a tuple, got {t}")
    return init


def suffix_product(t: IntTuple, init: IntTuple = 1) -> IntTuple:
    """Exclusive suffix product: compact row-major strides.

    >>> suffix_product((2, (3, 4)))
    (12, (4, 1))
    """
    _checked("suffix_product", t=t, init=init)
    t, init = _plain(t), _plain(init)
    if isinstance(init, tuple):
        raise LayoutTypeError(f"suffix_product: init must be a leaf (an integer), got the tuple {init}")
    if isinstance(t, tuple):
        out = []
        cur = init
        for e in reversed(t):
            out.append(suffix_product(e, cur))
            cur = cur * product(e)
        return tuple(reversed(out))
    return init


def compact_col_major(t: IntTuple, init: Any = 1) -> IntTuple:
    """CuTe's ``compact_major<LayoutLeft>``: column-major strides where size-1 modes get stride 0.

    >>> compact_col_major((2, 1, 3))
    (1, 0, 2)
    >>> compact_col_major(1)
    0
    """
    _checked("compact_col_major", t=t, init=init)
    t, init = _plain(t), _plain(init)
    if isinstance(init, tuple):
        raise LayoutTypeError(f"compact_col_major: init must be a leaf (an integer), got the tuple {init}")
    cur = [init]

    def go(x):
        if isinstance(x, tuple):
            return tuple(go(e) for e in x)
        if type(x) is int and x == 1:
            return 0
        d = cur[0]
        cur[0] = cur[0] * x
        return d

    return go(t)


def compact_row_major(t: IntTuple, init: Any = 1) -> IntTuple:
    """CuTe's ``compact_major<LayoutRight>``: row-major strides, size-1 modes get stride 0.

    >>> compact_row_major((2, 1, 3))
    (3, 0, 1)
    """
    _checked("compact_row_major", t=t, init=init)
    t, init = _plain(t), _plain(init)
    if isinstance(init, tuple):
        raise LayoutTypeError(f"compact_row_major: init must be a leaf (an integer), got the tuple {init}")
    flat = flatten(t)
    rev = compact_col_major(tuple(reversed(flat)), init)
    return unflatten(tuple(reversed(rev)) if isinstance(rev, tuple) else (rev,), t) if isinstance(t, tuple) else rev


def inner_product(a: IntTuple, b: IntTuple) -> Any:
    """Sum of leafwise products of two congruent tuples.

    >>> inner_product((2, (3, 4)), (1, (10, 100)))
    432
    """
    _checked("inner_product", a=a, b=b)
    a, b = _plain(a), _plain(b)
    if isinstance(a, tuple):
        if not isinstance(b, tuple) or len(a) != len(b):
            raise CongruenceError(f"inner_product: {a} and {b} are not congruent")
        r = 0
        for x, y in zip(a, b):
            r = r + inner_product(x, y)
        return r
    if isinstance(b, tuple):
        raise CongruenceError(f"inner_product: {a} and {b} are not congruent")
    return a * b


def elem_scale(a: IntTuple, b: IntTuple) -> IntTuple:
    """Scale each leaf of ``a`` by the product of the matching mode of ``b``.

    >>> elem_scale((2, 3), (4, (1, 5)))
    (8, 15)
    """
    _checked("elem_scale", a=a, b=b)
    a, b = _plain(a), _plain(b)
    if isinstance(a, tuple):
        if not isinstance(b, tuple) or len(a) != len(b):
            raise CongruenceError(f"elem_scale: {a} and {b} have different ranks")
        return tuple(elem_scale(x, y) for x, y in zip(a, b))
    return a * product(b)


def filter_zeros(a: IntTuple, b: IntTuple | None = None) -> IntTuple:
    """Replace the leaves of ``b`` (default ``a``) where ``a`` is 0 with 1 (all leaves of that mode).

    >>> filter_zeros((0, 2, (0, 3)), (4, 5, (6, 7)))
    (1, 5, (1, 7))
    """
    check_inttuple(a, "filter_zeros", "a", strides=True)
    if b is not None:
        check_inttuple(b, "filter_zeros", "b")
    a, b = _plain(a), _plain(b)
    if b is None:
        b = a
    if isinstance(a, tuple):
        if not isinstance(b, tuple) or len(a) != len(b):
            raise CongruenceError(f"filter_zeros: {a} and {b} are not congruent")
        return tuple(filter_zeros(x, y) for x, y in zip(a, b))
    if type(a) is int and a == 0 or (type(a) is not int and is_eq(a, 0)):
        return _repeat_like(b, 1)
    return b


def _repeat_like(t: IntTuple, v: Any) -> IntTuple:
    if isinstance(t, tuple):
        return tuple(_repeat_like(e, v) for e in t)
    return v


# ------------------------------------------------------------------------------------------
# profile relations


def congruent(a: IntTuple, b: IntTuple) -> bool:
    """Same hierarchical profile (same nesting, leaves anywhere).

    >>> congruent((8, (2, 4)), (1, (8, 16))), congruent((8, 4), ((2, 4), 4))
    (True, False)
    """
    return _congruent(a, b, 0)


def _congruent(a: IntTuple, b: IntTuple, level: int) -> bool:
    if isinstance(a, tuple):
        _check_level(level, "congruent")
        return isinstance(b, tuple) and len(a) == len(b) and all(_congruent(x, y, level + 1) for x, y in zip(a, b))
    return not isinstance(b, tuple)


def weakly_congruent(a: IntTuple, b: IntTuple) -> bool:
    """``a``'s profile is a coarsening of ``b``'s (a leaf of a may match a tuple of b).

    >>> weakly_congruent((1, 1), ((2, 3), 4)), weakly_congruent((1, 1, 1), (2, 3))
    (True, False)
    """
    return _weakly_congruent(a, b, 0)


def _weakly_congruent(a: IntTuple, b: IntTuple, level: int) -> bool:
    if isinstance(a, tuple):
        _check_level(level, "weakly_congruent")
        return isinstance(b, tuple) and len(a) == len(b) and all(_weakly_congruent(x, y, level + 1) for x, y in zip(a, b))
    return True


def compatible(a: IntTuple, b: IntTuple) -> bool:
    """Every coordinate of shape ``a`` is also a coordinate of shape ``b`` (sizes agree at a's leaves).

    Pre:  a and b are IntTuples (shapes); a layout is not a shape (pass ``layout.shape``).
    Post: True iff size(a) == size(b) and each leaf of a matches a whole mode of b.
    Otherwise LayoutTypeError names the argument that is not an IntTuple.

    >>> compatible(24, (4, 6)), compatible((4, 6), (4, (2, 3))), compatible((4, 6), 24)
    (True, True, False)
    """
    check_nesting(a, "compatible", "a")
    check_nesting(b, "compatible", "b")
    _require_inttuple(a, "compatible", "first")
    _require_inttuple(b, "compatible", "second")
    _checked("compatible", a=a, b=b)
    return _compatible(a, b)


def _compatible(a: IntTuple, b: IntTuple) -> bool:
    if isinstance(a, tuple):
        return isinstance(b, tuple) and len(a) == len(b) and all(_compatible(x, y) for x, y in zip(a, b))
    return is_eq(a, product(b))


def _require_inttuple(x: Any, who: str, which: str) -> None:
    """LayoutTypeError unless every leaf of ``x`` is an int or a sympy integer expression."""
    if isinstance(x, tuple):
        for e in x:
            _require_inttuple(e, who, which)
    elif not is_int(x):
        raise LayoutTypeError(
            f"{who}: the {which} argument must be an IntTuple (a shape of ints), got {fmt(x)} "
            f"({type(x).__name__}); for a layout pass its .shape"
        )


# ------------------------------------------------------------------------------------------
# coordinates


def _check_coord_leaf(c: Any, s: Any, who: str) -> None:
    if type(c) is not int and hasattr(c, "__index__") and not _is_sympy(c):
        try:
            c = int(c)  # numpy integers
        except (TypeError, ValueError):  # a numpy array of more than one element has __index__ too
            raise LayoutTypeError(f"{who}: a coordinate must be an integer, got {fmt(c)} ({type(c).__name__})") from None
    if type(c) is int and type(s) is int:
        if not 0 <= c < s:
            raise CoordinateError(f"{who}: coordinate {c} is out of range [0, {s})")
        return
    # symbolic coordinate or shape: decided from the assumptions, never assumed in range
    try:
        inside = not is_lt(c, 0) and is_lt(c, s)
    except SymbolicUndecidable as e:
        raise SymbolicUndecidable(f"{who}: cannot decide whether coordinate {c} is in range [0, {s}): {e}") from e
    if not inside:
        raise CoordinateError(f"{who}: coordinate {c} is out of range [0, {s})")


def crd2idx(crd: IntTuple, shape: IntTuple, stride: IntTuple | None = None, check: bool = False) -> Any:
    """Map a coordinate (int, flat or hierarchical) to an index through ``stride``.

    ``stride`` defaults to the compact column-major strides of ``shape``. An integer
    coordinate given for a tuple mode is split column-major; as in CuTe the last mode takes
    the remainder without a modulo (indices past the size extend the last mode) unless
    ``check=True``, which raises CoordinateError for anything out of range.

    >>> crd2idx(5, (2, 4), (4, 1))
    6
    >>> crd2idx((1, 2), (2, 4), (4, 1))
    6
    >>> crd2idx((1, 4), (2, 4), (4, 1), check=True)
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.CoordinateError: crd2idx: coordinate 4 is out of range [0, 4)
    """
    _checked("crd2idx", crd=crd, shape=shape)
    if stride is not None:
        check_inttuple(stride, "crd2idx", "stride", strides=True)
    crd, shape, stride = _plain(crd), _plain(shape), _plain(stride)
    if not isinstance(check, (bool, np.bool_)):
        raise LayoutTypeError(f"crd2idx: check must be a bool, got {fmt(check)}")
    if stride is None:
        stride = prefix_product(shape)
    return _crd2idx(crd, shape, stride, check)


def _crd2idx(crd: Any, shape: Any, stride: Any, check: bool) -> Any:
    if isinstance(crd, tuple):
        if not isinstance(shape, tuple) or len(crd) != len(shape):
            raise CongruenceError(f"crd2idx: coordinate {crd} is not congruent with shape {shape}")
        if not isinstance(stride, tuple) or len(stride) != len(shape):
            raise CongruenceError(f"crd2idx: shape {shape} and stride {stride} are not congruent")
        r = 0
        for c, s, d in zip(crd, shape, stride):
            r = r + _crd2idx(c, s, d, check)
        return r
    if isinstance(shape, tuple):
        if not isinstance(stride, tuple) or len(stride) != len(shape):
            raise CongruenceError(f"crd2idx: shape {shape} and stride {stride} are not congruent")
        if check:
            _check_coord_leaf(crd, product(shape), "crd2idx")
        r = 0
        n = len(shape)
        for i, (s, d) in enumerate(zip(shape, stride)):
            if i == n - 1:
                r = r + _crd2idx(crd, s, d, False)
            else:
                ps = product(s)
                if type(ps) is int and ps == 0:  # as idx2crd: an int is not split over a zero extent
                    raise CoordinateError(f"crd2idx: the coordinate {fmt(crd)} cannot be split over the shape "
                                          f"{fmt(shape)}: its mode {fmt(s)} has size 0")
                if type(crd) is int and type(ps) is int:
                    q, m = divmod(crd, ps)
                else:
                    q, m = crd // ps, crd % ps
                r = r + _crd2idx(m, s, d, False)
                crd = q
        return r
    if check:
        _check_coord_leaf(crd, shape, "crd2idx")
    return crd * stride


def idx2crd(idx: IntTuple, shape: IntTuple, stride: IntTuple | None = None) -> IntTuple:
    """The hierarchical coordinate of index ``idx`` in ``shape`` (CuTe's ``idx2crd``).

    Without ``stride`` (CuTe's ``idx2crd(idx, shape)``): colexicographic, each mode but the last
    takes ``idx % size(mode)`` and the last mode takes the rest, so an index past the size extends
    the last mode (``idx2crd(42, (3, 7, 2)) == (0, 0, 2)``, as CuTe C++); a leaf shape returns ``idx``.
    With ``stride`` (CuTe's three-argument form): each leaf is ``(idx // stride) % shape``.
    A tuple ``idx`` (or a basis offset ``3@0 + 5@1``, the coordinate ``(3, 5)``) is split mode by mode;
    an F2 index is split into the bits of a power-of-two shape (F2 leaves).

    >>> idx2crd(13, ((2, 3), 4))
    ((1, 0), 2)
    >>> idx2crd(7, 4), idx2crd(42, (3, 7, 2)), idx2crd(42, (3, 7, 2), (1, 3, 21))
    (7, (0, 0, 2), (0, 0, 0))
    """
    if type(idx) is ScaledBasis:
        idx = _basis_to_tuple(idx, shape)
    if type(idx) is F2:
        return _f2_split(idx, shape)
    _checked("idx2crd", idx=idx, shape=shape, stride=0 if stride is None else stride)
    idx, shape, stride = _plain(idx), _plain(shape), _plain(stride)
    if isinstance(idx, tuple):
        if not isinstance(shape, tuple) or len(idx) != len(shape):
            raise CongruenceError(f"idx2crd: index {idx} is not congruent with shape {shape}")
        strides = stride if stride is not None else tuple(None for _ in shape)
        return tuple(idx2crd(i, s, d) for i, s, d in zip(idx, shape, strides))
    if stride is None:
        return _idx2crd_extend(idx, shape)
    return _idx2crd(idx, shape, stride)


def _f2_split(idx: F2, shape: Any) -> Any:
    """An F2 index split into the bits of a power-of-two shape (PyCuTe's carry-less idx2crd); F2 leaves (0 for none)."""
    _checked("idx2crd", shape=shape)
    shape = _plain(shape)
    for s in flatten(shape) if isinstance(shape, tuple) else (shape,):
        if type(s) is not int or s <= 0 or s & (s - 1):
            raise LayoutValueError(f"idx2crd: an F2 index splits into bits only over power-of-two shapes, got "
                                   f"{format_inttuple(shape)}")
    crd = _idx2crd_extend(idx.value, shape)
    return _f2_leaves(crd)


def _f2_leaves(c: Any) -> Any:
    if isinstance(c, tuple):
        return tuple(_f2_leaves(x) for x in c)
    return F2(c) if c else 0


def _basis_to_tuple(x: ScaledBasis, shape: Any) -> Any:
    """The coordinate a basis offset stands for, one entry per top-level mode of ``shape`` (0 where absent)."""
    if not isinstance(shape, tuple):
        raise CongruenceError(f"idx2crd: the basis offset {x} needs a shape with modes, got {shape}")
    parts: dict = {}
    for path, c in x.terms:
        if path[0] >= len(shape):
            raise CongruenceError(f"idx2crd: the basis offset {x} names mode {path[0]} of the rank-{len(shape)} shape "
                                  f"{format_inttuple(shape)}")
        parts.setdefault(path[0], []).append((path[1:], c))
    out = []
    for i in range(len(shape)):
        terms = parts.get(i, [])
        if len(terms) == 1 and not terms[0][0]:
            out.append(terms[0][1])
        elif terms:
            if any(not p for p, _c in terms):
                raise CongruenceError(f"idx2crd: the basis offset {x} is both a leaf and a tuple in mode {i}")
            out.append(ScaledBasis(*terms))
        else:
            out.append(0)
    return tuple(out)


def _idx2crd_extend(idx: Any, shape: Any) -> Any:
    """CuTe's idx2crd(idx, shape): every mode but the last wraps at its size, the last takes the rest."""
    if not isinstance(shape, tuple):
        if type(shape) is int and shape == 0:
            raise LayoutValueError(f"idx2crd: shape leaf {shape} must be non-zero")
        return idx
    out = []
    last = len(shape) - 1
    for k, s in enumerate(shape):
        if k == last:
            out.append(_idx2crd_extend(idx, s))
            break
        n = product(s)
        if type(n) is int and n == 0:
            raise LayoutValueError(f"idx2crd: mode {format_inttuple(s)} of shape {format_inttuple(shape)} has size 0")
        out.append(_idx2crd_extend(idx % n, s))
        idx = idx // n
    return tuple(out)


def _idx2crd(idx: Any, shape: Any, stride: Any) -> Any:
    if isinstance(shape, tuple):
        if not isinstance(stride, tuple) or len(stride) != len(shape):
            raise CongruenceError(f"idx2crd: shape {fmt(shape, True)} and stride {fmt(stride, True)} are not congruent")
        return tuple(_idx2crd(idx, s, d) for s, d in zip(shape, stride))
    if type(stride) is int and stride == 0 or type(shape) is int and shape == 0:
        raise LayoutValueError(f"idx2crd: shape {shape} and stride {stride} leaves must be non-zero")
    return (idx // stride) % shape


def idx2crd_flat(idx: Any, shape: IntTuple) -> tuple:
    """The flat (leaf-level) coordinate of ``idx``: ``flatten(idx2crd(idx, shape))`` as a tuple.

    >>> idx2crd_flat(13, ((2, 3), 4))
    (1, 0, 2)
    """
    _checked("idx2crd_flat", idx=idx, shape=shape)
    idx, shape = _plain(idx), _plain(shape)
    return flatten(idx2crd(idx, shape))


# ------------------------------------------------------------------------------------------
# division


def shape_div(a: IntTuple, b: IntTuple) -> IntTuple:
    """CuTe's ``shape_div``: divide shape ``a`` by ``b``, walking ``a``'s modes left to right.

    For leaves, one of ``a``, ``b`` must divide the other (otherwise AdmissibilityError);
    the result is ``ceil(a / b)``, so 1 when ``b`` is a multiple of ``a``. A tuple divided by
    an integer consumes the integer mode by mode.

    >>> shape_div(12, 4), shape_div(4, 12)
    (3, 1)
    >>> shape_div((3, 4), 6)
    (1, 2)
    >>> shape_div(6, 4)
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.AdmissibilityError: shape_div: divisibility fails: neither 6 nor 4 divides the other
    """
    _checked("shape_div", a=a, b=b)
    a, b = _plain(a), _plain(b)
    if isinstance(a, tuple):
        if isinstance(b, tuple):
            if len(a) != len(b):
                raise CongruenceError(f"shape_div: ranks differ: {a} vs {b}")
            return tuple(shape_div(x, y) for x, y in zip(a, b))
        return _divide_modes(shape_div, a, b)
    if isinstance(b, tuple):
        return shape_div(a, product(b))
    if type(a) is int and type(b) is int:
        if b == 0:
            raise AdmissibilityError(f"shape_div: division by zero: {a} / 0")
        if a % b == 0:
            return a // b
        if a != 0 and b % a == 0:
            return signum(a) * signum(b)
        raise AdmissibilityError(f"shape_div: divisibility fails: neither {a} nor {b} divides the other")
    b_divides_a = three_valued(divides, b, a)
    if b_divides_a is True:
        return _exact_div(a, b)
    a_divides_b = three_valued(divides, a, b)
    if a_divides_b is True:
        return signum(a) * signum(b)
    for verdict in (b_divides_a, a_divides_b):
        if isinstance(verdict, SymbolicUndecidable):
            raise verdict  # one half is undecidable and the other does not hold: no verdict
    raise AdmissibilityError(f"shape_div: divisibility fails: neither {a} nor {b} divides the other")


def _divide_modes(div: Any, a: tuple, b: Any) -> tuple:
    """CuTe's tuple-by-integer division: mode i of ``a`` divided by what the modes before it left of ``b``.

    Pre:  ``div`` is shape_div or ceil_div; ``b`` an integer.
    Post: ``(div(a0, b), div(a1, div(b, a0)), ...)``.
    """
    out = []
    rest = b
    for e in a:
        out.append(div(e, rest))
        rest = div(rest, e)
    return tuple(out)


def three_valued(fn: Any, *args: Any) -> Any:
    """``fn(*args)`` as a three-valued verdict: True, False, or the SymbolicUndecidable it raised.

    >>> three_valued(divides, 4, 12)
    True
    """
    try:
        return fn(*args)
    except SymbolicUndecidable as e:
        return e


def ceil_div(a: IntTuple, b: IntTuple) -> IntTuple:
    """Ceiling division, CuTe-style for tuples (missing ranks of ``b`` count as 1).

    >>> ceil_div(10, 4), ceil_div((4, 6), 8), ceil_div((9, 10), (2, 4))
    (3, (1, 3), (5, 3))
    """
    _checked("ceil_div", a=a, b=b)
    a, b = _plain(a), _plain(b)
    if isinstance(a, tuple):
        if isinstance(b, tuple):
            if len(a) < len(b):
                raise CongruenceError(f"ceil_div: divisor {b} has more modes than {a}")
            bb = tuple(b) + (1,) * (len(a) - len(b))
            return tuple(ceil_div(x, y) for x, y in zip(a, bb))
        return _divide_modes(ceil_div, a, b)
    if isinstance(b, tuple):
        return ceil_div(a, product(b))
    if type(a) is int and type(b) is int:
        if b == 0:
            raise AdmissibilityError(f"ceil_div: division by zero: {a} / 0")
        return -((-a) // b) if b > 0 else (a + b + 1) // b
    b_divides_a = three_valued(divides, b, a)
    if b_divides_a is True:
        return _exact_div(a, b)
    if three_valued(divides, a, b) is True and signum(a) > 0 and signum(b) > 0:
        return 1  # 0 < a <= b
    if isinstance(b_divides_a, SymbolicUndecidable):
        raise b_divides_a
    sp = _sp()
    return sp.ceiling(sp.sympify(a) / b)


# ------------------------------------------------------------------------------------------
# printing


def format_inttuple(t: Any) -> str:
    """Print an IntTuple the way CuTe does: ``(8,(2,4))``; sympy leaves without spaces.

    >>> format_inttuple(((8, 2), 4)), format_inttuple((4,)), format_inttuple(())
    ('((8,2),4)', '(4)', '()')
    """
    if type(t) is int:
        return str(t) if -_INT_BOUND < t < _INT_BOUND else fmt(t)  # an unchecked huge int in a message
    if isinstance(t, tuple):
        return "(" + ",".join(format_inttuple(e) for e in t) + ")"
    return fmt(t, True).replace(" ", "")


#: Integers below this bound in magnitude have at most MAX_INT_DIGITS digits.
_INT_BOUND = 10**MAX_INT_DIGITS


def validate_shape_leaf(s: Any, who: str) -> None:
    if type(s) is int:
        if s < 0:
            raise LayoutValueError(f"{who}: shape leaves must be non-negative (0 is CuTe's zero extent), got {s}")
        return
    if s.is_positive is False:
        raise LayoutValueError(f"{who}: shape leaf {s} is not positive")


def validate_shape(s: Any, who: str) -> None:
    if isinstance(s, tuple):
        for e in s:
            validate_shape(e, who)
    else:
        validate_shape_leaf(s, who)


def simplify(x: Any) -> Any:
    if type(x) is int:
        return x
    if isinstance(x, np.ndarray):
        return x
    try:
        import sympy
    except ImportError:  # pragma: no cover
        return x
    if isinstance(x, sympy.Basic):
        x = _sympy_simplify(x)
        if x.is_Integer:
            return int(x)
    return x


def _is_monomial(x: Any) -> bool:
    """An integer, a symbol, or an integer times distinct symbols: already as simple as sympy.simplify makes it."""
    if x.is_Integer or x.is_Symbol:
        return True
    if not x.is_Mul:
        return False
    args = x.args
    return all(a.is_Symbol for a in args[1:]) and (args[0].is_Integer or args[0].is_Symbol)


def _simple_polynomial(x: Any) -> Any:
    """``sympy.simplify(x)`` without its search where the answer is known: a polynomial whose expansion is a
    monomial (that monomial: nothing has fewer operations) or a monomial plus or minus 1 (irreducible, no
    common factor; simplify keeps it). None otherwise (the caller runs sympy.simplify)."""
    if not x.is_Add and not x.is_Mul:
        return None
    sp = _sp()
    e = sp.expand(x)
    if _is_monomial(e):
        return e
    if e.is_Add and len(e.args) == 2 and e == x:
        a, b = e.args
        if a.is_Integer and abs(int(a)) == 1 and _is_monomial(b) and not b.is_Integer:
            return e
    return None


#: sympy.simplify of each expression seen (expressions are immutable; simplify is deterministic and slow).
_SIMPLIFIED: dict = {}


def _sympy_simplify(x: Any) -> Any:
    """``sympy.simplify(x)``, computed once per expression (symbolic layouts repeat a few forms many times)."""
    r = _SIMPLIFIED.get(x)
    if r is None:
        r = x if _is_monomial(x) else _simple_polynomial(x)
        if r is None:
            r = _sp().simplify(x)
        if len(_SIMPLIFIED) >= 4096:  # a bound, not an eviction policy
            _SIMPLIFIED.clear()
        _SIMPLIFIED[x] = r
    return r


def all_int(t: tuple) -> bool:
    for x in t:
        if type(x) is not int:
            return False
    return True
