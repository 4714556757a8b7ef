"""Symbols: sympy leaves of shapes and strides, and the divisibility facts users state.

**Symbols.** Any shape or stride leaf may be a sympy expression. Symbols made by
:func:`pycute_layouts.parse` or :func:`symbols` are positive integers; the layout algebra
(``size``, ``cosize``, call, ``coalesce``, ``composition``, ``complement``, divides and
products) then works on the expressions and decides CuTe's conditions (``4 divides 8*m``,
``m < 2*m`` ...) from those assumptions. A condition that the assumptions cannot decide raises
:class:`~pycute_layouts.errors.SymbolicUndecidable` naming it; ``subs`` binds the symbols and a
fully bound layout equals the integer one.

>>> from pycute_layouts import Layout, parse
>>> m, n = symbols("m n")
>>> Layout((m, n), (1, m)).cosize()
m*n
>>> L = parse("((8,m),(T,2k)):((8T,SBO),(1,T))", T=8)
>>> print(L.subs(m=2, k=1, SBO=1024))
((8,2),(8,2)):((64,1024),(1,8))

**Facts.** Divisibility that the symbols' assumptions cannot express ("SBO is a multiple of
16") is stated by the user, for a ``with`` block: ``with assumptions(Divisible(SBO, 16)): ...``
or ``with assume_divisible(m, 8): ...``. The decision helpers of :mod:`pycute_layouts.core.inttuple`
consult the facts through :func:`refine_divisibility` and :func:`refine_sign`, which rewrite a
symbol ``x`` known to be a multiple of ``d`` as ``d*x'`` (``x'`` a fresh positive integer), and
a positive integer ``x`` as ``x'' + 1`` (``x''`` a non-negative integer) for sign questions.
``subs`` refuses values that contradict a stated fact.

>>> with assume_divisible(m, 8):
...     refine_divisibility(m / 8).is_integer
True
"""

from __future__ import annotations

import contextlib
import contextvars
import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import LayoutTypeError, LayoutValueError
from ..limits import MAX_NESTING_DEPTH, check_fields, fmt

__all__ = [
    "lazy_sympy",
    "symbol",
    "symbols",
    "subs_inttuple",
    "Divisible",
    "assumptions",
    "assume_divisible",
    "active_facts",
    "refine_divisibility",
    "refine_sign",
]


_sympy = None


def lazy_sympy() -> Any:
    """The sympy module, imported on first use (integer layouts never import it).

    >>> lazy_sympy().Integer(4) + 1
    5
    """
    global _sympy
    if _sympy is None:
        import sympy

        _sympy = sympy
    return _sympy


def _sp() -> Any:
    return lazy_sympy()


def symbol(name: str) -> Any:
    """The sympy symbol used for an unbound name: a positive integer.

    >>> m = symbol('m'); m.is_integer, m.is_positive
    (True, True)
    """
    if not isinstance(name, str) or not name:
        raise LayoutTypeError(f"symbol: expected a name such as 'm', got {fmt(name)}")
    return lazy_sympy().Symbol(name, integer=True, positive=True)


# ==========================================================================================
# symbols and substitution


def symbols(names: str) -> tuple:
    """Positive-integer sympy symbols, as :func:`pycute_layouts.parse` makes for unbound names.

    >>> m, k = symbols("m k"); m.is_positive and m.is_integer
    True
    >>> symbols("SBO")
    (SBO,)
    """
    if not isinstance(names, str):
        raise LayoutTypeError(f"symbols: expected a string of names such as 'm n k', got {fmt(names)}")
    parts = names.replace(",", " ").split()
    if not parts:
        raise LayoutValueError("symbols: no names given")
    return tuple(symbol(p) for p in parts)


def _by_name(mapping: dict) -> dict:
    out = {}
    for k, v in mapping.items():
        name = k if isinstance(k, str) else getattr(k, "name", None)
        if name is None:
            raise LayoutTypeError(f"subs: keys must be names or sympy symbols, got {fmt(k)}")
        out[name] = v
    return out


def subs_inttuple(t: Any, mapping: dict) -> Any:
    """Substitute symbols in an IntTuple; keys may be names or sympy symbols.

    Integers come back as Python ints and expressions are expanded. A value that contradicts
    a stated divisibility fact (see :func:`assumptions`) raises LayoutValueError.

    >>> m = symbols("m")[0]
    >>> subs_inttuple((8, 2 * m), {'m': 3})
    (8, 6)
    >>> with assume_divisible(m, 8):
    ...     subs_inttuple((8, 2 * m), {'m': 12})
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.LayoutValueError: subs: m = 12 contradicts the stated fact Divisible(m, 8) ...
    """
    if not isinstance(mapping, dict):
        raise LayoutTypeError(f"subs: the mapping must be a dict of name -> integer, got {fmt(mapping)}"[:200])
    if not mapping:
        return t
    by_name = _by_name(mapping)
    for k, v in by_name.items():
        if isinstance(v, bool) or not isinstance(v, (int, np.integer, _sp().Expr)):
            raise LayoutTypeError(f"subs: the value of {fmt(k)} must be an integer or sympy expression, got {fmt(v)}"[:200])
    _check_facts(by_name)
    return _subs(t, by_name)


def _subs(t: Any, by_name: dict, level: int = 0) -> Any:
    if type(t) is int:
        return t
    if isinstance(t, tuple):
        if level >= MAX_NESTING_DEPTH:
            raise LayoutValueError(f"subs: the IntTuple is nested more than MAX_NESTING_DEPTH = {MAX_NESTING_DEPTH} levels deep")
        return tuple(_subs(e, by_name, level + 1) for e in t)
    sp = _sp()
    if not isinstance(t, sp.Basic):
        raise LayoutTypeError(f"subs: unexpected leaf {fmt(t)} (IntTuple leaves are int or sympy expressions)"[:200])
    repl = {s: sp.sympify(by_name[s.name]) for s in t.free_symbols if s.name in by_name}
    if not repl:
        return t
    r = sp.expand(t.xreplace(repl))
    if r.is_Integer:
        return int(r)
    if r.is_number:
        raise LayoutValueError(f"subs: {t} became the non-integer {r}")
    return r


# ==========================================================================================
# stated facts: Divisible(x, d), the registry, and the rewrites the decision helpers use


@dataclass(frozen=True)
class Divisible:
    """The fact "``expr`` is a multiple of ``divisor``", for a symbol or an integer times a symbol.

    ``Divisible(2*m, 16)`` is stored as "m is a multiple of 8". Use it in :func:`assumptions`.

    >>> m = symbols("m")[0]
    >>> Divisible(m, 16)
    Divisible(m, 16)
    >>> Divisible(2 * m, 16)
    Divisible(m, 8)
    >>> Divisible(m + 1, 2)
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.LayoutTypeError: Divisible: the expression must be a symbol or an integer times ...
    """

    symbol: Any
    divisor: int

    def __post_init__(self) -> None:
        check_fields(self)

    def __init__(self, expr: Any, divisor: int):
        sp = _sp()
        if isinstance(divisor, bool) or not isinstance(divisor, (int, np.integer, sp.Integer)) or divisor < 1:
            raise LayoutValueError(f"Divisible: the divisor must be a positive integer, got {fmt(divisor)}")
        d = int(divisor)
        if isinstance(expr, str):

            expr = symbol(expr)
        if not isinstance(expr, sp.Expr):
            raise LayoutTypeError(f"Divisible: expected a sympy symbol (or a name), got {fmt(expr)}")
        coeff, rest = expr.as_coeff_Mul()
        if not isinstance(rest, sp.Symbol) or not coeff.is_Integer or coeff == 0:
            raise LayoutTypeError(
                f"Divisible: the expression must be a symbol or an integer times a symbol, got {expr}"
            )
        if rest.is_integer is False:
            raise LayoutValueError(f"Divisible: {rest} is known not to be an integer")
        object.__setattr__(self, "symbol", rest)
        object.__setattr__(self, "divisor", d // math.gcd(d, abs(int(coeff))))

    def __repr__(self) -> str:
        return f"Divisible({self.symbol}, {self.divisor})"


_FACTS: contextvars.ContextVar[tuple[Divisible, ...]] = contextvars.ContextVar("pycute_facts", default=())
_FRESH: dict[tuple[Any, int], Any] = {}
_SHIFTED: dict[Any, Any] = {}


def active_facts() -> tuple[Divisible, ...]:
    """The facts stated by the enclosing :func:`assumptions` blocks (innermost last).

    >>> m = symbols("m")[0]
    >>> with assumptions(Divisible(m, 4)):
    ...     active_facts()
    (Divisible(m, 4),)
    >>> active_facts()
    ()
    """
    return _FACTS.get()


@contextlib.contextmanager
def assumptions(*facts: Divisible) -> Iterator[tuple[Divisible, ...]]:
    """State divisibility facts for the duration of a ``with`` block (nested blocks add up).

    Inside the block the core's decision helpers (``divides``, ``is_lt``) use the facts, so
    e.g. ``logical_divide(Layout(m), 8)`` no longer raises SymbolicUndecidable. The registry is
    a context variable: threads and asyncio tasks each see their own facts.

    >>> m = symbols("m")[0]
    >>> with assumptions(Divisible(m, 8)) as facts:
    ...     print(facts, refine_divisibility(m))
    (Divisible(m, 8),) 8*_m_8
    """
    for f in facts:
        if not isinstance(f, Divisible):
            raise LayoutTypeError(f"assumptions: expected Divisible(...) facts, got {fmt(f)}")
    token = _FACTS.set(_FACTS.get() + tuple(facts))
    try:
        yield _FACTS.get()
    finally:
        _FACTS.reset(token)


def assume_divisible(expr: Any, divisor: int) -> contextlib.AbstractContextManager:
    """Shorthand for ``assumptions(Divisible(expr, divisor))``: "expr is a multiple of divisor".

    >>> SBO = symbols("SBO")[0]
    >>> with assume_divisible(SBO, 16):
    ...     refine_divisibility(SBO / 16).is_integer
    True
    """
    return assumptions(Divisible(expr, divisor))


def _divisors() -> dict:
    """symbol -> lcm of the divisors stated for it."""
    out: dict = {}
    for f in _FACTS.get():
        out[f.symbol] = math.lcm(out.get(f.symbol, 1), f.divisor)
    return out


def _fresh(sym: Any, d: int) -> Any:
    key = (sym, d)
    r = _FRESH.get(key)
    if r is None:
        sp = _sp()
        pos = True if sym.is_positive else None
        nonneg = True if sym.is_nonnegative else None
        r = _FRESH[key] = sp.Dummy(f"{sym.name}_{d}", integer=True, positive=pos, nonnegative=nonneg)
    return r


def refine_divisibility(expr: Any) -> Any:
    """Rewrite ``expr`` with every stated fact "x is a multiple of d" as ``x -> d*x_d``.

    ``x_d`` is a fresh integer (positive when ``x`` is). This is the hook that
    ``inttuple.divides`` calls: ``(m/8).is_integer`` is undecided, ``(8*m_8/8).is_integer`` is
    True. Without active facts ``expr`` comes back unchanged (ints never reach sympy).

    >>> m = symbols("m")[0]
    >>> refine_divisibility(m / 8).is_integer is None
    True
    >>> with assume_divisible(m, 8):
    ...     refine_divisibility(m / 8)
    _m_8
    """
    if type(expr) is int or not _FACTS.get():
        return expr
    sp = _sp()
    if not isinstance(expr, sp.Basic):
        return expr
    divs = _divisors()
    repl = {s: d * _fresh(s, d) for s, d in divs.items() if s in expr.free_symbols}
    return expr.xreplace(repl) if repl else expr


def refine_sign(expr: Any) -> Any:
    """Rewrite ``expr`` for sign questions: facts applied, each positive integer ``x`` as ``x'' + 1``.

    ``x''`` is a fresh non-negative integer, so a polynomial whose expanded coefficients are
    all non-negative is visibly non-negative to sympy: ``m*n - m`` becomes ``m''*n'' + n''``.
    ``inttuple.is_lt`` calls this hook before asking sympy for the sign of a difference.

    >>> m, n = symbols("m n")
    >>> (m * n - m).is_nonnegative is None, refine_sign(m * n - m).is_nonnegative
    (True, True)
    >>> with assume_divisible(m, 16):
    ...     refine_sign(m - 9).is_positive
    True
    """
    if type(expr) is int:
        return expr
    sp = _sp()
    if not isinstance(expr, sp.Basic):
        return expr
    expr = refine_divisibility(expr)
    repl = {}
    for s in expr.free_symbols:
        if s.is_integer and s.is_positive:
            r = _SHIFTED.get(s)
            if r is None:
                r = _SHIFTED[s] = sp.Dummy(f"{s.name}0", integer=True, nonnegative=True) + 1
            repl[s] = r
    if not repl:
        return expr
    return sp.expand(expr.xreplace(repl))


def _check_facts(by_name: dict) -> None:
    for f in _FACTS.get():
        v = by_name.get(f.symbol.name)
        if v is None:
            continue
        sp = _sp()
        val = sp.sympify(v)
        if val.is_Integer and int(val) % f.divisor:
            raise LayoutValueError(
                f"subs: {f.symbol.name} = {int(val)} contradicts the stated fact {fmt(f)} "
                f"({f.divisor} does not divide {int(val)})"
            )
