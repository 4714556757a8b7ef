"""Symbolic layouts: binding symbols, and (below) the bit-vector model used by proofs.

Shapes and strides may be sympy expressions. Symbols created by :func:`pycute_layouts.parse`
are positive integers. ``subs`` binds them; results are simplified and integers come back as
Python ints, so a fully bound symbolic layout equals the integer one.

>>> from pycute_layouts import parse
>>> L = parse("((8,m),(T,2k)):((8T,SBO),(1,T))", T=8)
>>> print(L.subs(m=2, k=1, SBO=1024))
((8,2),(8,2)):((64,1024),(1,8))
"""

from __future__ import annotations

from typing import Any

from .errors import LayoutTypeError

__all__ = ["subs_inttuple"]


def _key(k: Any) -> Any:
    if isinstance(k, str):
        from .notation import symbol

        return k
    return k


def subs_inttuple(t: Any, mapping: dict) -> Any:
    """Substitute symbols in an IntTuple; keys may be names or sympy symbols.

    >>> import sympy; m = sympy.Symbol('m', integer=True, positive=True)
    >>> subs_inttuple((8, 2 * m), {'m': 3})
    (8, 6)
    """
    if type(t) is int:
        return t
    if isinstance(t, tuple):
        return tuple(subs_inttuple(e, mapping) for e in t)
    import sympy

    if not isinstance(t, sympy.Basic):
        raise LayoutTypeError(f"subs: unexpected leaf {t!r}")
    if not mapping:
        return t
    by_name = {}
    for k, v in mapping.items():
        name = k if isinstance(k, str) else getattr(k, "name", None)
        if name is None:
            raise LayoutTypeError(f"subs: keys must be names or sympy symbols, got {k!r}")
        by_name[name] = v
    repl = {s: by_name[s.name] for s in t.free_symbols if s.name in by_name}
    r = sympy.expand(t.xreplace({s: sympy.sympify(v) for s, v in repl.items()}))
    if r.is_Integer:
        return int(r)
    if r.is_number:
        from .errors import LayoutValueError

        raise LayoutValueError(f"subs: {t} became the non-integer {r}")
    return r
