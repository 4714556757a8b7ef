"""Basis (coordinate) strides: CuTe's ``E<i...>`` / ``ScaledBasis`` and arithmetic-tuple strides.

A layout whose strides are integers maps a coordinate to an integer offset. A layout whose
strides are *basis elements* maps it to a coordinate (an element of ``Z^k``, nested): the stride
``v@i`` (CuTe's ``ScaledBasis<v, i>``, printed ``v@i``) adds ``v`` times the coordinate of the
mode to component ``i`` of the result. Nested components are written innermost first, as CuTe
prints them: ``E(0, 1)`` (CuTe's ``E<0,1>``, mode 1 of mode 0) prints ``1@1@0``. A sum of basis
elements (CuTe's ``ArithmeticTuple`` used as a stride) is one :class:`ScaledBasis` with several
terms, printed ``1@0+1@1``. The integer 0 is the zero of every stride type.

The identity layout is the example everyone uses: ``(4,8):(1@0,1@1)`` maps ``(i, j)`` (or the
index ``i + 4*j``) to the coordinate ``(i, j)`` itself.

>>> E(0), E(1) * 3, E(0, 1), E(0) + 2 * E(1)
(ScaledBasis('1@0'), ScaledBasis('3@1'), ScaledBasis('1@1@0'), ScaledBasis('1@0+2@1'))
>>> to_coord(2 * E(0) + 5 * E(1), coprofile([E(0), E(1)]))
(2, 5)
"""

from __future__ import annotations

from typing import Any

from ..errors import LayoutTypeError, LayoutValueError
from ..limits import MAX_NESTING_DEPTH, MAX_SEQUENCE_ITEMS, check_int_size, check_sequence, check_type, fmt

__all__ = ["ScaledBasis", "E", "is_basis", "basis_get", "coprofile", "to_coord", "basis_components", "scaled_basis", "from_coord"]


_new = object.__new__


def _is_zero(c: Any) -> bool:
    return c == 0 if type(c) is int else bool(getattr(c, "is_zero", False))


def _is_scalar(k: Any) -> bool:
    if type(k) is int or type(k).__name__ == "F2" and type(k).__module__.endswith("core.f2"):
        return True  # an F2 coefficient: the component accumulates by XOR (F2-valued basis strides)
    if type(k) is bool or isinstance(k, (tuple, ScaledBasis)):
        return False
    return isinstance(k, int) or type(k).__module__.startswith("sympy")


class ScaledBasis:
    """A basis stride ``v@i`` (one term), or a sum of them (an arithmetic-tuple stride); immutable.

    ``terms`` is a tuple of ``(path, coefficient)`` sorted by path, no zero coefficient, at least
    one term (the zero stride is the integer 0). ``path`` is outer-first: ``E(0, 1)`` has the
    path ``(0, 1)`` and prints ``1@1@0``.

    >>> b = ScaledBasis(((1,), 2))
    >>> str(b), b * 3, b + b, b - b
    ('2@1', ScaledBasis('6@1'), ScaledBasis('4@1'), 0)
    """

    __slots__ = ("terms", "_hash")

    def __init__(self, *terms: tuple[tuple, Any]):
        acc: dict = {}
        for term in terms:
            if type(term) is not tuple or len(term) != 2:
                raise LayoutTypeError(f"ScaledBasis: each term is a (path, coefficient) pair, got {fmt(term)}"[:200])
            path, coef = term
            if type(path) is not tuple or not path or len(path) > MAX_NESTING_DEPTH or not all(
                    type(p) is int and 0 <= p < MAX_SEQUENCE_ITEMS for p in path):
                raise LayoutTypeError(f"ScaledBasis: a path is a non-empty tuple of at most MAX_NESTING_DEPTH = "
                                      f"{MAX_NESTING_DEPTH} mode indices in [0, MAX_SEQUENCE_ITEMS = {MAX_SEQUENCE_ITEMS}), "
                                      f"got {fmt(path)}")
            if not _is_scalar(coef):
                raise LayoutTypeError(f"ScaledBasis: a coefficient must be an integer, got {fmt(coef)}")
            if type(coef) is int:
                check_int_size("ScaledBasis", "a coefficient", coef)
            acc[path] = acc.get(path, 0) + coef
        kept = tuple(sorted((p, c) for p, c in acc.items() if not _is_zero(c)))
        if not kept:
            raise LayoutValueError("ScaledBasis: all coefficients are 0; the zero stride is the integer 0")
        self.terms = kept
        self._hash = None

    @staticmethod
    def of(terms: dict) -> Any:
        """The stride with these ``{path: coefficient}`` terms: a ScaledBasis, or 0 when none is nonzero.

        >>> ScaledBasis.of({(0,): 2, (1,): 0}), ScaledBasis.of({(1,): 0})
        (ScaledBasis('2@0'), 0)
        """
        check_type("ScaledBasis.of", "terms", terms, dict)
        kept = [(p, c) for p, c in terms.items() if not _is_zero(c)]
        return ScaledBasis(*kept) if kept else 0

    @staticmethod
    def from_normalized(terms: tuple) -> ScaledBasis:
        """Trusted constructor (no validation): for strides computed inside the package.

        Pre:  ``terms`` is as the ``terms`` attribute: ``(path, coefficient)`` pairs sorted by path, valid
              paths, nonzero coefficients of at most MAX_INT_DIGITS digits, at least one pair.

        >>> ScaledBasis.from_normalized((((1,), 3),)) == 3 * E(1)
        True
        """
        obj = _new(ScaledBasis)
        obj.terms = terms
        obj._hash = None
        return obj

    def _scaled(self, k: Any) -> Any:
        if type(k) is int and k:  # the common case: same paths, nonzero int coefficients stay nonzero
            terms = self.terms
            if len(terms) == 1:
                p, c = terms[0]
                if type(c) is int:
                    return ScaledBasis.from_normalized(((p, check_int_size("ScaledBasis", "a coefficient", c * k)),))
        if not _is_scalar(k):
            return NotImplemented
        return ScaledBasis.of({p: c * k for p, c in self.terms})

    __mul__ = _scaled
    __rmul__ = _scaled

    def __add__(self, other: Any) -> Any:
        if type(other) is int and other == 0 or _is_scalar(other) and type(other) is not int and other == 0:
            return self  # 0 (also F2(0) and a sympy 0) is every kind's zero
        if not isinstance(other, ScaledBasis):
            if _is_scalar(other):
                raise LayoutTypeError(
                    f"ScaledBasis: cannot add the integer {other} to the coordinate stride {self} "
                    "(strides of one layout are all integers or all basis elements; 0 fits both)"
                )
            return NotImplemented
        acc = dict(self.terms)
        for p, c in other.terms:
            acc[p] = acc.get(p, 0) + c
        return ScaledBasis.of(acc)

    __radd__ = __add__

    def __neg__(self) -> ScaledBasis:
        return ScaledBasis(*((p, -c) for p, c in self.terms))

    def __sub__(self, other: Any) -> Any:
        return self + (-other)

    def __rsub__(self, other: Any) -> Any:
        return (-self) + other

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ScaledBasis):
            return self.terms == other.terms
        return False

    def __hash__(self) -> int:
        h = self._hash
        if h is None:
            h = self._hash = hash(("ScaledBasis", self.terms))
        return h

    def __str__(self) -> str:
        return "+".join(
            str(c).replace(" ", "") + "".join(f"@{i}" for i in reversed(p)) for p, c in self.terms
        )

    def __repr__(self) -> str:
        return f"ScaledBasis('{self}')"

    def __reduce__(self):
        return (ScaledBasis, self.terms)

    def with_prefix(self, i: int) -> ScaledBasis:
        """The same stride one level down, in component ``i`` (``E(j).with_prefix(i) == E(i, j)``).

        >>> E(1).with_prefix(0)
        ScaledBasis('1@1@0')
        """
        return ScaledBasis(*(((i,) + p, c) for p, c in self.terms))


def E(*path: int) -> Any:  # noqa: N802 - CuTe's name
    """CuTe's basis element ``E<i...>``: 1 in the component at ``path`` (outer-first), 0 elsewhere.

    Pre:  path is mode indices >= 0 (LayoutTypeError otherwise).
    Post: E(*path) == ScaledBasis((path, 1)); it prints innermost index first, as CuTe does.
          ``E()`` (no path) is the scalar 1, as CuTe's ``E<>{}`` (which prints ``_1``).

    >>> E(1), E(0, 1), 4 * E(2), 3 * E()
    (ScaledBasis('1@1'), ScaledBasis('1@1@0'), ScaledBasis('4@2'), 3)
    """
    if not path:
        return 1
    return ScaledBasis((tuple(path), 1))


def is_basis(x: Any) -> bool:
    """True for a basis stride leaf (a :class:`ScaledBasis`).

    >>> is_basis(E(0)), is_basis(3)
    (True, False)
    """
    return type(x) is ScaledBasis


def basis_get(x: Any, path: tuple) -> Any:
    """The coefficient of the component ``path`` in the stride or offset ``x`` (0 when absent).

    Pre:  x is an int 0 or a ScaledBasis.
    Post: x == sum(basis_get(x, p) * E(*p) for every path p of x).

    >>> basis_get(2 * E(0) + 3 * E(1), (1,)), basis_get(E(0), (1,)), basis_get(0, (0,))
    (3, 0, 0)
    """
    if isinstance(x, ScaledBasis):
        for p, c in x.terms:
            if p == path:
                return c
        return 0
    if type(x) is int and x == 0:
        return 0
    raise LayoutTypeError(f"basis_get: expected a basis stride or 0, got {fmt(x)}")


def coprofile(strides: Any) -> Any:
    """The nested zero tuple of the codomain that the basis strides (an iterable of leaves) reach.

    Each component reached by a path gets a slot; missing lower components are filled with 0,
    so ``[E(1)]`` gives ``(0, 0)``. Integer leaves (the zero stride) reach nothing.

    >>> coprofile([E(0), E(1)]), coprofile([E(0, 1), E(1)]), coprofile([E(1)])
    ((0, 0), ((0, 0), 0), (0, 0))
    """
    strides = check_sequence("coprofile", "strides", strides)
    tree: dict = {}
    for d in strides:
        if isinstance(d, ScaledBasis):
            for p, _c in d.terms:
                node = tree
                for k, i in enumerate(p[:-1]):
                    nxt = node.get(i)
                    if nxt == 0:  # a leaf already: the component cannot also be a tuple
                        _conflict(p[: k + 1], p)
                    if nxt is None:
                        nxt = node[i] = {}
                    node = nxt
                if isinstance(node.get(p[-1]), dict):
                    _conflict(p, None)
                node.setdefault(p[-1], 0)
    return _tree_to_tuple(tree) if tree else ()


def _conflict(leaf: tuple, longer: tuple | None) -> None:
    """LayoutValueError: the codomain component ``leaf`` is both a coordinate leaf and a tuple (CuTe: no such type)."""
    name = "E(" + ", ".join(map(str, leaf)) + ")"
    also = f" E({', '.join(map(str, longer))})" if longer is not None else ""
    raise LayoutValueError(f"coprofile: the codomain component {name} is reached both as a leaf and, by a longer "
                           f"path{also}, as a tuple: no coordinate has both shapes")


def _tree_to_tuple(node: dict) -> tuple:
    n = max(node) + 1
    return tuple(_tree_to_tuple(node[i]) if isinstance(node.get(i), dict) else 0 for i in range(n))


def to_coord(x: Any, profile: Any) -> Any:
    """The coordinate (nested tuple congruent with ``profile``) that the offset ``x`` stands for.

    Pre:  x is 0 or a ScaledBasis whose paths all lie inside profile.
    Post: basis_get(x, p) is the leaf of the result at path p.

    >>> to_coord(E(0, 1) * 3 + E(1), ((0, 0), 0))
    ((0, 3), 1)
    """
    terms = dict(x.terms) if isinstance(x, ScaledBasis) else {}
    if not isinstance(x, ScaledBasis) and not (type(x) is int and x == 0):
        raise LayoutTypeError(f"to_coord: expected a basis offset or 0, got {fmt(x)}")
    out = _fill(profile, (), terms)
    if terms:
        raise LayoutValueError(f"to_coord: the paths {sorted(terms)} of {x} lie outside the coordinate profile {profile}")
    return out


def _fill(profile: Any, path: tuple, terms: dict) -> Any:
    if isinstance(profile, tuple):
        return tuple(_fill(p, path + (i,), terms) for i, p in enumerate(profile))
    return terms.pop(path, 0)


def basis_components(strides: tuple, profile: Any) -> list[tuple[tuple, tuple]]:
    """For each leaf component of ``profile`` (in order): its path and the integer strides on it.

    ``strides`` is a flat tuple of stride leaves (ints 0 or ScaledBasis); the integer strides of a
    component are the coefficients of its path, so each component is an integer layout.

    >>> basis_components((E(0), 0, 2 * E(1)), (0, 0))
    [((0,), (1, 0, 0)), ((1,), (0, 0, 2))]
    """
    check_type("basis_components", "strides", strides, tuple)
    out = []
    for path in _leaf_paths(profile, ()):
        out.append((path, tuple(basis_get(d, path) for d in strides)))
    return out


def _leaf_paths(profile: Any, path: tuple) -> list[tuple]:
    if isinstance(profile, tuple):
        out: list = []
        for i, p in enumerate(profile):
            out.extend(_leaf_paths(p, path + (i,)))
        return out
    return [path]


def scaled_basis(value: Any, path: tuple) -> Any:
    """``value * E(*path)``: the parser's constructor for ``value@i@j`` (0 for a zero value).

    >>> scaled_basis(2, (0, 1)), scaled_basis(0, (1,))
    (ScaledBasis('2@1@0'), 0)
    """
    check_type("scaled_basis", "path", path, tuple)
    if isinstance(value, ScaledBasis):
        return value.with_prefix(path[0]) if len(path) == 1 else value * 1
    if not _is_scalar(value):
        raise LayoutTypeError(f"scaled_basis: value must be an integer (or a sympy integer expression), got {fmt(value)}")
    return value * E(*path)


def from_coord(c: Any) -> Any:
    """The basis offset of the coordinate ``c`` (a nested tuple of ints): the inverse of :func:`to_coord`.

    >>> from_coord(((0, 3), 1)), from_coord((0, 0))
    (ScaledBasis('3@1@0+1@1'), 0)
    """
    terms: dict = {}
    _collect(c, (), terms)
    return ScaledBasis.of(terms)


def _collect(c: Any, path: tuple, terms: dict) -> None:
    if isinstance(c, tuple):
        for i, x in enumerate(c):
            _collect(x, path + (i,), terms)
    elif not path:
        raise LayoutTypeError(f"from_coord: expected a coordinate tuple, got {fmt(c)}")
    else:
        terms[path] = c
