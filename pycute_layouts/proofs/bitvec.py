"""The bit-vector model of swizzled addresses: each address bit as a boolean function of coordinate bits.

**The bit-vector model.** When every mode of the domain is a power of two, a coordinate *is*
its bits, and the byte address a swizzled layout assigns to it is a boolean function of those
bits. Each address bit is kept in algebraic normal form (ANF): an XOR of ANDs of coordinate
bits, which is unique for every boolean function, so two address bits are the same function
exactly when their ANFs are equal. XOR swizzles are XORs of bits; a stride times a coordinate
is a sum of shifted copies; sums are computed by a ripple-carry adder
(``s = a ^ b ^ c``, ``carry = ab ^ ac ^ bc``), so offsets whose bit fields overlap are modelled
exactly, carries included; disjoint bit fields produce no carry terms at all.
:func:`address_bits` returns the bits as sympy booleans (``Xor``/``And`` of bit symbols
``i0, i1, ..., j0, ...``: the bits of the first, second, ... leaf mode of the domain).
:func:`equivalent` decides ``f == g`` bit by bit and returns a :class:`Proof` (truthy) or a
:class:`Counterexample` (falsy) whose coordinate has been confirmed by evaluating ``f`` and ``g``.

>>> from pycute_layouts import Layout, Swizzle, SwizzledSmemLayout
>>> S = SwizzledSmemLayout(Swizzle(3, 4, 3), Layout((8, 64), (64, 1)), element_bits=16)
>>> address_bits(S, (8, 64), 8)[4:8]
[i0 ^ j3, i1 ^ j4, i2 ^ j5, i0]
>>> bool(equivalent(S, lambda i, j: (128 * i + 2 * j) ^ ((i & 7) << 4), (8, 64)))
True
>>> print(equivalent(S, lambda i, j: 128 * i + 2 * j, (8, 64)).to_text().splitlines()[0])
Counterexample: at coordinate (1,0) (index 1) the left side gives address 144, the right side 128
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..core import inttuple as it
from ..core.composed import (
    ComposedLayout,
    SwizzledSmemLayout,
    UnboundWidthSmemLayout,
    check_swizzle_unit,
    smem_layout_of,
)
from ..core.inttuple import format_inttuple
from ..core.layout import Layout
from ..core.swizzle import Swizzle, XorSwizzle
from ..core.symbols import lazy_sympy
from ..errors import LayoutError, LayoutTypeError, LayoutValueError, ProofError, UnitError
from ..limits import MAX_EVAL_POINTS, MAX_PROOF_BITS, check_budget, check_count, check_type, fmt

__all__ = ["BitVector", "address_bits", "addresses", "equivalent", "Proof", "Counterexample", "apply_map"]


def _sp() -> Any:
    return lazy_sympy()


# ==========================================================================================
# the bit-vector model: algebraic normal form (ANF)
#
# A monomial is an int bit mask over the coordinate-bit variables (bit v set: variable v is a
# factor; 0 is the constant 1). A boolean function is a frozenset of monomials, XOR-ed: the
# empty set is False, {0} is True. XOR is symmetric difference; AND multiplies out.

_ZERO: frozenset = frozenset()


_ONE: frozenset = frozenset((0,))


_MAX_TERMS = 1 << 14  # monomials in one address bit


_MAX_WORK = 1 << 20  # monomial products in one AND


def _too_big() -> ProofError:
    return ProofError(
        f"bit-vector model: a carry expression grew past {_MAX_TERMS} terms; the offsets overlap too "
        "much to model their carries exactly (use power-of-two strides with disjoint bit fields, or "
        "check exhaustively)"
    )


def _anf_and(a: frozenset, b: frozenset) -> frozenset:
    if not a or not b:
        return _ZERO
    if a == _ONE:
        return b
    if b == _ONE:
        return a
    if len(a) * len(b) > _MAX_WORK:
        raise _too_big()
    out: set = set()
    for x in a:
        for y in b:
            m = x | y
            if m in out:
                out.remove(m)
            else:
                out.add(m)
    if len(out) > _MAX_TERMS:
        raise _too_big()
    return frozenset(out)


def _anf_eval(bit: frozenset, assignment: int) -> int:
    """Value of an ANF bit at the assignment (a mask of the variables that are 1)."""
    return sum(1 for m in bit if m & assignment == m) & 1


def _min_monomial(bit: frozenset) -> int:
    """A monomial of least degree: setting exactly its variables makes the function 1."""
    return min(bit, key=lambda m: (bin(m).count("1"), m))


_LETTERS = "ijklpqrsuvwxyz"


class _Space:
    """The domain: a shape whose leaves are powers of two; variable v is bit v of the index."""

    def __init__(self, domain: Any, who: str):
        try:
            shape = it.as_inttuple(domain, who, "domain")
        except LayoutError as e:
            raise ProofError(f"{who}: the domain must be a shape (nested powers of two): {e}") from None
        leaves = it.flatten(shape)
        if len(leaves) > MAX_PROOF_BITS:
            raise ProofError(f"{who}: the domain has {len(leaves)} modes, more than MAX_PROOF_BITS = {MAX_PROOF_BITS} "
                             "(each mode is at least one address bit of the model)")
        for k, s in enumerate(leaves):
            if type(s) is not int:
                raise ProofError(f"{who}: domain {_fmt(shape)} has the symbolic mode {s}; bind it (subs)")
            if s <= 0 or s & (s - 1):
                raise ProofError(
                    f"{who}: the bit-vector model needs power-of-two domains, but mode {k} of the domain "
                    f"{_fmt(shape)} has size {s}; check such a domain exhaustively instead"
                )
        self.shape = shape
        self.leaves = leaves
        self.logs = [s.bit_length() - 1 for s in leaves]
        self.nvars = sum(self.logs)
        if self.nvars > MAX_PROOF_BITS:
            raise ProofError(f"{who}: the domain {fmt(shape)} has {self.nvars} coordinate bits, more than "
                             f"MAX_PROOF_BITS = {MAX_PROOF_BITS}")
        if len(leaves) <= len(_LETTERS):
            self.names = [_LETTERS[k] for k in range(len(leaves))]
        else:
            self.names = [f"x{k}_" for k in range(len(leaves))]
        sp = _sp()
        self.var_names = [f"{n}{b}" for n, lg in zip(self.names, self.logs, strict=True) for b in range(lg)]
        self.symbols = [sp.Symbol(n) for n in self.var_names]
        self.size = 1 << self.nvars

    def leaf_vectors(self) -> list[BitVector]:
        out, v = [], 0
        for lg in self.logs:
            out.append(BitVector._make([frozenset((1 << (v + b),)) for b in range(lg)], self))
            v += lg
        return out

    def index_vector(self) -> BitVector:
        return BitVector._make([frozenset((1 << v,)) for v in range(self.nvars)], self)

    def coordinate(self, index: int) -> Any:
        return it.idx2crd(index, self.shape) if isinstance(self.shape, tuple) else index

    def coordinate_vectors(self) -> Any:
        return it.unflatten(tuple(self.leaf_vectors()), self.shape) if isinstance(self.shape, tuple) \
            else self.leaf_vectors()[0]

    def to_sympy(self, bit: frozenset) -> Any:
        sp = _sp()
        if not bit:
            return sp.false
        terms = []
        for m in sorted(bit, key=lambda x: (bin(x).count("1"), x)):
            if m == 0:
                terms.append(sp.true)
            else:
                terms.append(sp.And(*[self.symbols[v] for v in range(m.bit_length()) if m >> v & 1]))
        return sp.Xor(*terms) if len(terms) > 1 else terms[0]

    def coordinate_equations(self) -> list:
        sp = _sp()
        eqs, v = [], 0
        for n, lg in zip(self.names, self.logs, strict=True):
            rhs = sum((2**b * self.symbols[v + b] for b in range(lg)), sp.Integer(0))
            eqs.append(sp.Eq(sp.Symbol(n), rhs, evaluate=False))
            v += lg
        return eqs


def _fmt(t: Any) -> str:

    return format_inttuple(t)


class BitVector:
    """A non-negative integer whose bits are boolean functions of coordinate bits (the model's values).

    :func:`equivalent` and :func:`address_bits` call a plain Python function ``f(i, j)`` with
    BitVectors for the coordinates, so a hand-written address formula is proved exactly as
    written. Supported: ``+``, ``*`` (by integers or BitVectors), ``^``, ``&``, ``|``, ``<<``
    and ``>>`` by integers, ``//`` and ``%`` by powers of two. Subtraction, comparisons and
    ``int()`` are not modelled (ProofError or TypeError); functions that need them are then
    checked by exhaustive evaluation.

    >>> i, j = BitVector.coordinates((8, 64))
    >>> a = (128 * i + 2 * j) ^ ((i & 7) << 4)
    >>> a.to_sympy()[4:8]
    [i0 ^ j3, i1 ^ j4, i2 ^ j5, i0]
    """

    __slots__ = ("_bits", "_space")

    def __init__(self, *args: Any, **kwargs: Any):
        raise LayoutTypeError("BitVector: use BitVector.coordinates(domain) to get a domain's coordinates")

    @classmethod
    def _make(cls, bits: list, space: _Space) -> BitVector:
        obj = object.__new__(cls)
        while bits and not bits[-1]:
            bits = bits[:-1]
        obj._bits = tuple(bits)
        obj._space = space
        return obj

    @classmethod
    def coordinates(cls, domain: Any) -> Any:
        """The coordinate of ``domain`` as BitVectors, nested like the domain's shape.

        >>> BitVector.coordinates((4, 2))
        (BitVector([i0, i1]), BitVector([j0]))
        """
        return _Space(domain, "BitVector.coordinates").coordinate_vectors()

    # -- helpers ----------------------------------------------------------------------------
    def _lift(self, other: Any, op: str) -> BitVector:
        if isinstance(other, BitVector):
            if other._space is not self._space:
                raise ProofError(f"BitVector {op}: operands come from different domains")
            return other
        if isinstance(other, bool) or not isinstance(other, (int, np.integer)):
            sp = _sp()
            if isinstance(other, sp.Basic) and other.is_Integer:
                other = int(other)
            else:
                raise TypeError(f"BitVector {op}: unsupported operand {fmt(other)}")
        v = int(other)
        if v < 0:
            raise ProofError(f"BitVector {op}: negative constant {v}: addresses are non-negative here")
        return BitVector._make([_ONE if v >> t & 1 else _ZERO for t in range(v.bit_length())], self._space)

    def _new(self, bits: list) -> BitVector:
        return BitVector._make(bits, self._space)

    @property
    def width(self) -> int:
        """Number of bits that can be non-zero.

        >>> i, j = BitVector.coordinates((8, 64)); (i * 128).width
        10
        """
        return len(self._bits)

    def bit(self, t: int) -> Any:
        """Bit ``t`` as a sympy boolean.

        >>> i, = BitVector.coordinates((8,)); (i + 1).bit(1)
        i0 ^ i1
        """
        t = check_count("BitVector.bit", "t", t, 0)
        return self._space.to_sympy(self._bits[t]) if t < len(self._bits) else _sp().false

    def to_sympy(self, nbits: int | None = None) -> list:
        """The low ``nbits`` bits (default: all) as sympy booleans, least significant first.

        >>> i, = BitVector.coordinates((4,)); (3 * i).to_sympy()
        [i0, i0 ^ i1, i1 ^ (i0 & i1), i0 & i1]
        """
        n = self.width if nbits is None else check_count("BitVector.to_sympy", "nbits (MAX_PROOF_BITS)", nbits, 0,
                                                         MAX_PROOF_BITS)
        return [self.bit(t) for t in range(n)]

    def evaluate(self, index: int) -> int:
        """The integer value at the domain point with linear index ``index``.

        >>> i, j = BitVector.coordinates((8, 64)); (i * 64 + j).evaluate(9)
        65
        """
        index = check_count("BitVector.evaluate", "index", index, 0)
        return sum(_anf_eval(b, index) << t for t, b in enumerate(self._bits))

    # -- arithmetic -------------------------------------------------------------------------
    def __add__(self, other: Any) -> BitVector:
        o = self._lift(other, "+")
        return self._new(_add(list(self._bits), list(o._bits)))

    __radd__ = __add__

    def __mul__(self, other: Any) -> BitVector:
        if isinstance(other, BitVector):
            o = self._lift(other, "*")
            acc: list = []
            for k, bk in enumerate(o._bits):
                if bk:
                    acc = _add(acc, [_ZERO] * k + [_anf_and(bk, x) for x in self._bits])
            return self._new(acc)
        if isinstance(other, bool) or not isinstance(other, (int, np.integer)):
            raise TypeError(f"BitVector *: unsupported operand {fmt(other)}")
        c = int(other)
        if c < 0:
            raise ProofError(f"BitVector *: negative constant {c}: addresses are non-negative here")
        acc = []
        for k in range(c.bit_length()):
            if c >> k & 1:
                acc = _add(acc, [_ZERO] * k + list(self._bits)) if acc else [_ZERO] * k + list(self._bits)
        return self._new(acc)

    __rmul__ = __mul__

    def __xor__(self, other: Any) -> BitVector:
        o = self._lift(other, "^")
        n = max(self.width, o.width)
        return self._new([self._b(t) ^ o._b(t) for t in range(n)])

    __rxor__ = __xor__

    def __and__(self, other: Any) -> BitVector:
        o = self._lift(other, "&")
        n = min(self.width, o.width)
        return self._new([_anf_and(self._b(t), o._b(t)) for t in range(n)])

    __rand__ = __and__

    def __or__(self, other: Any) -> BitVector:
        o = self._lift(other, "|")
        n = max(self.width, o.width)
        return self._new([self._b(t) ^ o._b(t) ^ _anf_and(self._b(t), o._b(t)) for t in range(n)])

    __ror__ = __or__

    def _shift_amount(self, k: Any, op: str) -> int:
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or int(k) < 0:
            raise TypeError(f"BitVector {op}: shift by a non-negative integer constant, got {fmt(k)}")
        return int(k)

    def __lshift__(self, k: Any) -> BitVector:
        return self._new([_ZERO] * self._shift_amount(k, "<<") + list(self._bits))

    def __rshift__(self, k: Any) -> BitVector:
        return self._new(list(self._bits[self._shift_amount(k, ">>"):]))

    def _pow2(self, d: Any, op: str) -> int:
        if isinstance(d, bool) or not isinstance(d, (int, np.integer)) or d <= 0 or int(d) & (int(d) - 1):
            raise ProofError(f"BitVector {op}: only division by a power of two is modelled, got {fmt(d)}")
        return int(d).bit_length() - 1

    def __floordiv__(self, d: Any) -> BitVector:
        return self >> self._pow2(d, "//")

    def __mod__(self, d: Any) -> BitVector:
        return self._new(list(self._bits[: self._pow2(d, "%")]))

    def __sub__(self, other: Any) -> BitVector:
        raise ProofError("BitVector: subtraction is not modelled (addresses are sums of non-negative terms)")

    __rsub__ = __sub__

    def __neg__(self) -> BitVector:
        raise ProofError("BitVector: negation is not modelled (addresses are non-negative)")

    def __index__(self) -> int:
        raise TypeError("BitVector: a symbolic value has no integer value; evaluate(index) gives one")

    def __bool__(self) -> bool:
        raise TypeError("BitVector: a symbolic value has no truth value (branches are not modelled)")

    def _b(self, t: int) -> frozenset:
        return self._bits[t] if t < len(self._bits) else _ZERO

    def __eq__(self, other: object) -> bool:
        if isinstance(other, BitVector):
            return self._space is other._space and self._bits == other._bits
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._bits)

    def __repr__(self) -> str:
        return f"BitVector([{', '.join(_fmt_formula(b) for b in self.to_sympy())}])"


def _add(a: list, b: list) -> list:
    """Ripple-carry addition of two ANF bit lists (exact, carries included)."""
    if not a:
        return list(b)
    if not b:
        return list(a)
    n = max(len(a), len(b))
    out = []
    c = _ZERO
    for t in range(n):
        x = a[t] if t < len(a) else _ZERO
        y = b[t] if t < len(b) else _ZERO
        if not c:
            out.append(x ^ y)
            c = _anf_and(x, y)
        else:
            out.append(x ^ y ^ c)
            c = _anf_and(x, y) ^ _anf_and(x, c) ^ _anf_and(y, c)
    if c:
        out.append(c)
    return out


# ==========================================================================================
# evaluating layouts, swizzles and user functions on bit vectors


def _int_leaf(x: Any, what: str, fn: Any) -> int:
    if type(x) is not int:
        raise ProofError(f"bit-vector model: {what} {x} of {fn} is symbolic; bind the symbols first (subs)")
    return x


def _layout_on(layout: Any, x: BitVector) -> BitVector:
    fs, fd = it.flatten(layout.shape), it.flatten(layout.stride)
    acc = x._new([])
    off = 0
    n = len(fs)
    for k, (s, d) in enumerate(zip(fs, fd, strict=True)):
        s = _int_leaf(s, "shape", layout)
        d = _int_leaf(d, "stride", layout)
        if d < 0:
            raise ProofError(f"bit-vector model: negative stride {d} in {layout}; strides must be >= 0")
        if k == n - 1:
            c = x >> off
        else:
            if s & (s - 1):
                raise ProofError(
                    f"bit-vector model: mode {k} of {layout} has size {s}, not a power of two, so its "
                    "coordinate is not a bit field of the index"
                )
            lg = s.bit_length() - 1
            c = x._new(list((x >> off)._bits[:lg]))
            off += lg
        if d:
            acc = acc + c * d
    return acc


def _xor_map(sw: Any, x: BitVector) -> BitVector:
    rows = sw.matrix()
    bits = list(x._bits) + [_ZERO] * max(0, len(rows) - x.width)
    out = list(bits)
    for t, row in enumerate(rows):
        acc = _ZERO
        for j, a in enumerate(row):
            if a:
                acc = acc ^ bits[j]
        out[t] = acc
    return x._new(out)


def apply_map(fn: Any, x: BitVector) -> BitVector:
    """The value ``fn(x)`` for an index (or offset) ``x``, for the package's own function objects.

    Pre:  ``x`` a BitVector; ``fn`` a Layout, Swizzle, XorSwizzle, ComposedLayout or SwizzledSmemLayout with
          non-negative integer strides and offsets, power-of-two mode sizes but the last, whole-byte elements
          (ProofError otherwise).
    Post: ``apply_map(fn, x).evaluate(i) == fn(x.evaluate(i))`` at every point ``i`` of x's domain.

    >>> from pycute_layouts import Layout, Swizzle
    >>> (x,) = BitVector.coordinates((16,))
    >>> apply_map(Layout((4, 4), (4, 1)), x), apply_map(Swizzle(1, 0, 2), x)
    (BitVector([i2, i3, i0, i1]), BitVector([i0 ^ i2, i1, i2, i3]))
    """
    if not isinstance(x, BitVector):
        raise ProofError(f"apply_map: x must be a BitVector (BitVector.coordinates), got {fmt(x)}")
    if isinstance(fn, Layout):
        return _layout_on(fn, x)
    if isinstance(fn, Swizzle):
        return x if fn.is_identity() else _xor_map(fn.to_xor(), x)
    if isinstance(fn, XorSwizzle):
        return _xor_map(fn, x)
    if isinstance(fn, ComposedLayout):
        off = _int_leaf(fn.offset, "offset", fn)
        if off < 0:
            raise ProofError(f"bit-vector model: negative offset {off} in {fn}")
        return apply_map(fn.outer, apply_map(fn.inner, x) + off)
    if isinstance(fn, SwizzledSmemLayout):
        if fn.element_bits % 8:
            raise ProofError(
                f"bit-vector model: {fn} has {fn.element_bits}-bit elements; the model computes byte "
                "addresses of whole-byte elements"
            )
        eb = fn.element_bits // 8
        off = _layout_on(fn.layout, x)
        if fn.swizzle_unit == "bytes":
            return apply_map(fn.swizzle, off * eb + fn.base_address)
        if fn.base_address % eb:
            raise ProofError(f"bit-vector model: base address {fn.base_address} of {fn} is not a multiple "
                             f"of {eb}")
        return apply_map(fn.swizzle, off + fn.base_address // eb) * eb
    raise LayoutTypeError(f"bit-vector model: cannot apply {fmt(fn)} to an address")


def _is_known(fn: Any) -> bool:
    return isinstance(fn, (Layout, ComposedLayout, SwizzledSmemLayout, Swizzle, XorSwizzle))


def _call_user(fn: Callable, coord: Any, shape: Any) -> Any:
    """``fn(*coord)``; an exception of the user's function becomes a ProofError naming it (the proof cannot
    be carried out), except on BitVector input, where the caller falls back to concrete values."""
    try:
        return fn(*coord) if isinstance(shape, tuple) else fn(coord)
    except LayoutError:
        raise
    except Exception as e:
        if isinstance(coord, BitVector) or (isinstance(coord, tuple) and coord and isinstance(coord[0], BitVector)):
            raise TypeError(f"{type(e).__name__}: {e}") from e
        raise ProofError(f"the function {_describe(fn)} raised {type(e).__name__}: {e}"[:300]) from e


def _as_address(v: Any, fn: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        raise ProofError(f"the function {_describe(fn)} returned {fmt(v)}, not an integer address"[:300])
    return int(v)


def _concrete(fn: Any, space: _Space, index: int) -> int:
    """fn at one domain point, evaluated directly (not through the model)."""
    if isinstance(fn, SwizzledSmemLayout):
        v = fn.byte_address(index)
    elif _is_known(fn):
        v = fn(index)
    else:
        v = _call_user(fn, space.coordinate(index), space.shape)
    return _as_address(v, fn)


_EXHAUSTIVE_LIMIT = 1 << 16


def _evaluate(fn: Any, space: _Space, side: str) -> tuple[BitVector, str]:
    """fn on the whole domain as a BitVector, and how it was obtained."""
    if _is_known(fn):
        return apply_map(fn, space.index_vector()), f"{fn} evaluated on the index bits by the layout algebra"
    if not callable(fn):
        raise LayoutTypeError(f"{side} side: expected a Layout, ComposedLayout, SwizzledSmemLayout, Swizzle "
                              f"or a callable, got {fmt(fn)}")
    try:
        r = _call_user(fn, space.coordinate_vectors(), space.shape)
        if isinstance(r, BitVector):
            if r._space is not space:
                raise ProofError(f"{side} side: the result was built from another domain's bits")
            return r, "the function evaluated symbolically on the coordinate bits"
        if isinstance(r, (int, np.integer)) and not isinstance(r, bool):
            return space.index_vector()._lift(int(r), "result"), "the function is the constant " + str(int(r))
        raise TypeError(f"returned {fmt(r)}")
    except (TypeError, LayoutError, ArithmeticError, ValueError) as e:
        reason = f"{type(e).__name__}: {e}"
    return _truth_table(fn, space, side, reason)


class _Grid:
    """A domain that is not all powers of two: its shape and its coordinates (for exhaustive checks)."""

    def __init__(self, shape: Any):
        self.shape = shape
        self.size = it.product(shape)

    def coordinate(self, index: int) -> Any:
        return it.idx2crd(index, self.shape) if isinstance(self.shape, tuple) else index


def _non_pow2_domain(domain: Any) -> _Grid | None:
    """The domain as a _Grid when it is a concrete shape with a leaf that is not a power of two, else None."""
    try:
        shape = it.as_inttuple(domain, "equivalent", "domain")
    except LayoutError:
        return None  # _Space says why
    leaves = it.flatten(shape)
    if not leaves or not all(type(s) is int and s > 0 for s in leaves) or all(not s & (s - 1) for s in leaves):
        return None
    return _Grid(shape)


def _equivalent_exhaustive(f: Any, g: Any, grid: _Grid, nbits: int | None) -> Proof | Counterexample:
    """equivalent() on a domain that is not all powers of two: every point, within _EXHAUSTIVE_LIMIT."""
    for side, fn in (("left", f), ("right", g)):
        if not _is_known(fn) and not callable(fn):
            raise LayoutTypeError(f"{side} side: expected a Layout, ComposedLayout, SwizzledSmemLayout, Swizzle "
                                  f"or a callable, got {fmt(fn)}")
    if grid.size > _EXHAUSTIVE_LIMIT:
        raise ProofError(f"equivalent: the domain {_fmt(grid.shape)} is not all powers of two (no bit-vector model) "
                         f"and has {grid.size} points, more than the {_EXHAUSTIVE_LIMIT} checked exhaustively")
    mask = -1 if nbits is None else (1 << nbits) - 1
    left, right = _describe(f), _describe(g)
    top = 0
    for i in range(grid.size):
        la, ra = _concrete(f, grid, i), _concrete(g, grid, i)
        top = max(top, la, ra)
        if (la ^ ra) & mask:
            diff = (la ^ ra) & mask
            bits = [t for t in range(diff.bit_length()) if diff >> t & 1]
            return Counterexample(left, right, grid.shape, grid.coordinate(i), i, la, ra, bits[0],
                                  bool(la >> bits[0] & 1), bool(ra >> bits[0] & 1), {}, bits)
    width = top.bit_length() if nbits is None else nbits
    steps: list = [(f"The domain {_fmt(grid.shape)} is not all powers of two, so each of its {grid.size} points "
                    "was evaluated on both sides:", None),
                   (f"Left side: {left}; right side: {right}; every address agrees.", None)]
    return Proof(left, right, grid.shape, width, steps, "exhaustive")


def _truth_table(fn: Callable, space: _Space, side: str, reason: str) -> tuple[BitVector, str]:
    """Exact ANF of every address bit from the values on the whole domain (Moebius transform)."""
    if space.size > _EXHAUSTIVE_LIMIT:
        raise ProofError(
            f"{side} side: the function cannot be evaluated on bit vectors ({reason}) and the domain "
            f"{_fmt(space.shape)} has {space.size} points, more than the {_EXHAUSTIVE_LIMIT} evaluated "
            "exhaustively"
        )
    vals = np.array([_concrete(fn, space, i) for i in range(space.size)], dtype=np.int64)
    if vals.size and vals.min() < 0:
        raise ProofError(f"{side} side: negative address {int(vals.min())}; addresses must be >= 0")
    width = int(vals.max()).bit_length() if vals.size else 0
    bits = []
    n = space.nvars
    for t in range(width):
        tt = ((vals >> t) & 1).astype(np.uint8)
        for v in range(n):
            view = tt.reshape(-1, 2, 1 << v)
            view[:, 1, :] ^= view[:, 0, :]
        bits.append(frozenset(int(m) for m in np.flatnonzero(tt)))
    how = f"the function's values on all {space.size} points, turned into exact formulas ({reason})"
    return space.index_vector()._new(bits), how


def address_bits(f: Any, domain_shape: Any, nbits: int | None = None) -> list:
    """The address that ``f`` assigns to a coordinate of ``domain_shape``, bit by bit, as sympy booleans.

    ``f`` is a Layout, ComposedLayout or Swizzle (applied to the coordinate's linear index), a
    SwizzledSmemLayout (its byte address) or a callable ``f(i, j, ...)`` (called with the
    coordinate). Every mode of the domain must be a power of two; coordinate bits are named
    ``i0, i1, ...`` (first leaf mode), ``j0, ...`` (second) and so on. The result has ``nbits``
    entries (the low bits; default: all that can be non-zero), least significant first.

    >>> from pycute_layouts import Layout, Swizzle, ComposedLayout
    >>> address_bits(ComposedLayout(Swizzle(1, 4, 3), 0, Layout((8, 32), (32, 1))), (8, 32))
    [j0, j1, j2, j3, i2 ^ j4, i0, i1, i2]
    >>> address_bits(Layout(4, 3), (4,))
    [i0, i0 ^ i1, i1 ^ (i0 & i1), i0 & i1]
    >>> address_bits(Layout(6), (6,))
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.ProofError: address_bits: the bit-vector model needs power-of-two domains, ...
    """
    space = _Space(domain_shape, "address_bits")
    if nbits is not None:
        check_count("address_bits", "nbits (MAX_PROOF_BITS)", nbits, 0, MAX_PROOF_BITS)
    bv, _how = _evaluate(f, space, "address_bits")
    return bv.to_sympy(nbits)


def addresses(f: Any, domain: Any) -> np.ndarray:
    """``f`` evaluated directly at every point of ``domain``, in index order (an int64 array).

    Same conventions as :func:`address_bits`; any domain size works (no power-of-two rule).

    >>> from pycute_layouts import Layout, Swizzle, ComposedLayout
    >>> addresses(ComposedLayout(Swizzle(1, 0, 1), 0, Layout(4)), 4)
    array([0, 1, 3, 2])
    """
    shape = it.as_inttuple(domain, "addresses", "domain")
    n = it.product(shape)
    if type(n) is not int:
        raise ProofError(f"addresses: the domain {_fmt(shape)} is symbolic; bind it first")
    check_budget("addresses", f"the domain {fmt(shape, True)}", n, MAX_EVAL_POINTS)
    idx = np.arange(n, dtype=np.int64)
    if isinstance(f, SwizzledSmemLayout):
        return np.asarray(f.byte_address(idx), dtype=np.int64)
    if _is_known(f):
        return np.asarray(f(idx), dtype=np.int64)
    if not callable(f):
        raise LayoutTypeError(f"addresses: expected a layout, a swizzle or a callable, got {fmt(f)}")
    out = np.empty(n, dtype=np.int64)
    for i in range(n):
        c = it.idx2crd(i, shape) if isinstance(shape, tuple) else i
        out[i] = _as_address(_call_user(f, c, shape), f)
    return out


# ==========================================================================================
# proofs and counterexamples


def _describe(fn: Any) -> str:
    if _is_known(fn):
        return str(fn)
    return getattr(fn, "__name__", None) or repr(fn)


class Proof:
    """A successful :func:`equivalent`: every address bit of both sides is the same boolean function.

    Truthy. ``steps`` is a list of ``(words, formula)`` pairs (formulas are sympy objects);
    ``to_text()`` and ``to_markdown()`` render them. A step may be given as a function returning
    its pair: it is called once, when ``steps`` is first read (formulas written only when shown).

    >>> from pycute_layouts import Layout
    >>> p = equivalent(Layout((4, 2), (1, 4)), Layout(8), (4, 2))
    >>> bool(p), len(p.steps)
    (True, 6)
    """

    def __init__(self, left: str, right: str, domain: Any, nbits: int, steps: list, method: str):
        for name, v, t in (("left", left, str), ("right", right, str), ("steps", steps, list), ("method", method, str)):
            check_type("Proof", name, v, t, ProofError)
        check_count("Proof", "nbits", nbits, 0, None, ProofError)
        self.left = left
        self.right = right
        self.domain = domain
        self.nbits = nbits
        self.steps = steps
        self.method = method

    @property
    def steps(self) -> list:
        """The ``(words, formula)`` steps (a step given as a function is called once, on first read)."""
        s = self._steps
        if any(callable(x) for x in s):
            s = self._steps = [x() if callable(x) else x for x in s]
        return s

    @steps.setter
    def steps(self, value: list) -> None:
        self._steps = value

    def __getstate__(self) -> dict:
        """The fields, with the steps (and a claim given as a function) written out, so that a proof pickles."""
        _ = self.steps, self.claim
        return self.__dict__.copy()

    def __bool__(self) -> bool:
        return True

    @property
    def claim(self) -> str:
        """The statement proved.

        >>> from pycute_layouts import Layout
        >>> equivalent(Layout(4), Layout(4), (4,)).claim
        'for every coordinate c of (4): 4:1(c) == 4:1(c) (2 address bits)'
        """
        return (f"for every coordinate c of {_fmt(self.domain)}: {self.left}(c) == {self.right}(c) "
                f"({self.nbits} address bits)")

    def to_text(self) -> str:
        """The proof as plain text: the claim, numbered steps, Q.E.D.

        >>> from pycute_layouts import Layout
        >>> print(equivalent(Layout(2), Layout(2), (2,)).to_text())
        Claim: for every coordinate c of (2): 2:1(c) == 2:1(c) (1 address bits)
          1. The domain's modes are powers of two, so a coordinate is its bits:
             i = i0
          2. Left side: 2:1 evaluated on the index bits by the layout algebra.
          3. Right side: 2:1 evaluated on the index bits by the layout algebra.
          4. Address bit 0: both sides are the same XOR of ANDs (unique normal form), so ...
             i0
        Q.E.D.
        """
        lines = [f"Claim: {self.claim}"]
        for k, (words, formula) in enumerate(self.steps, 1):
            lines.append(f"  {k}. {words}")
            for f in formula if isinstance(formula, list) else ([] if formula is None else [formula]):
                lines.append(f"     {_fmt_formula(f)}")
        lines.append("Q.E.D.")
        return "\n".join(lines)

    def to_markdown(self) -> str:
        """The proof as a Markdown table (one row per step).

        >>> from pycute_layouts import Layout
        >>> print(equivalent(Layout(2), Layout(2), (2,)).to_markdown().splitlines()[2])
        | step | reason | formula |
        """
        out = [f"**Claim.** {self.claim}", "", "| step | reason | formula |", "| --- | --- | --- |"]
        for k, (words, formula) in enumerate(self.steps, 1):
            fs = formula if isinstance(formula, list) else ([] if formula is None else [formula])
            cell = "<br>".join(f"`{_fmt_formula(f)}`" for f in fs)
            out.append(f"| {k} | {words} | {cell} |")
        out += ["", "**Q.E.D.**"]
        return "\n".join(out)

    def __repr__(self) -> str:
        return f"Proof({self.claim!r})"


class Counterexample:
    """A failed :func:`equivalent`: a coordinate where the two sides give different addresses.

    Falsy. The coordinate came from the formulas (a satisfying assignment of
    ``Xor(left_bit, right_bit)``) and was confirmed by evaluating both sides directly.

    >>> from pycute_layouts import Layout
    >>> cx = equivalent(Layout((4, 2), (1, 4)), Layout((4, 2), (2, 1)), (4, 2))
    >>> bool(cx), cx.coordinate, cx.left_address, cx.right_address
    (False, (1, 0), 1, 2)
    """

    def __init__(self, left: str, right: str, domain: Any, coordinate: Any, index: int, left_address: int,
                 right_address: int, bit: int, left_formula: Any, right_formula: Any, assignment: dict,
                 differing_bits: list[int]):
        for name, v, t in (("left", left, str), ("right", right, str), ("assignment", assignment, dict),
                           ("differing_bits", differing_bits, list)):
            check_type("Counterexample", name, v, t, ProofError)
        for name, v in (("index", index), ("left_address", left_address), ("right_address", right_address), ("bit", bit)):
            check_count("Counterexample", name, v, None, None, ProofError)
        self.left = left
        self.right = right
        self.domain = domain
        self.coordinate = coordinate
        self.index = index
        self.left_address = left_address
        self.right_address = right_address
        self.bit = bit
        self.left_formula = left_formula
        self.right_formula = right_formula
        self.assignment = assignment
        self.differing_bits = differing_bits

    def __bool__(self) -> bool:
        return False

    def to_text(self) -> str:
        """A human explanation: where, which addresses, which bit and its two formulas.

        >>> from pycute_layouts import Layout
        >>> print(equivalent(Layout(2), Layout(2, 2), (2,)).to_text())
        Counterexample: at coordinate (1) (index 1) the left side gives address 1, the right side 2
          left  = 2:1, right = 2:2, domain (2)
          first differing address bit: 0 (bits that differ somewhere: [0, 1])
          left  bit 0 = i0
          right bit 0 = False
          satisfying assignment of Xor(left, right): i0=1
        """
        asg = ", ".join(f"{k}={int(v)}" for k, v in self.assignment.items()) or "(all bits 0)"
        return "\n".join([
            f"Counterexample: at coordinate {_fmt(self.coordinate)} (index {self.index}) the left side gives "
            f"address {self.left_address}, the right side {self.right_address}",
            f"  left  = {self.left}, right = {self.right}, domain {_fmt(self.domain)}",
            f"  first differing address bit: {self.bit} (bits that differ somewhere: {self.differing_bits})",
            f"  left  bit {self.bit} = {_fmt_formula(self.left_formula)}",
            f"  right bit {self.bit} = {_fmt_formula(self.right_formula)}",
            f"  satisfying assignment of Xor(left, right): {asg}",
        ])

    def __repr__(self) -> str:
        return (f"Counterexample(coordinate={self.coordinate!r}, left_address={self.left_address}, "
                f"right_address={self.right_address})")


def _fmt_formula(f: Any) -> str:
    sp = _sp()
    if f is sp.true or f is True:
        return "True"
    if f is sp.false or f is False:
        return "False"
    if isinstance(f, sp.Eq):
        return f"{f.lhs} = {f.rhs}"
    return str(f)


def _same_units(f: Any, g: Any, element_bits: Any, swizzle_unit: Any) -> tuple[Any, Any]:
    """Both sides in one unit: byte addresses through smem_layout_of with ``element_bits``; else refuse a mix."""
    check_swizzle_unit(swizzle_unit, "equivalent")
    layoutish = (Layout, ComposedLayout, SwizzledSmemLayout, UnboundWidthSmemLayout)
    if element_bits is not None:
        return tuple(smem_layout_of(x, element_bits, swizzle_unit=swizzle_unit, who="equivalent")
                     if isinstance(x, layoutish) else x for x in (f, g))
    if swizzle_unit == "bytes":
        raise UnitError("equivalent: swizzle_unit='bytes' needs element_bits (the width the byte swizzle acts on)")
    kinds = [isinstance(x, SwizzledSmemLayout) for x in (f, g)]
    plain = [isinstance(x, (Layout, ComposedLayout)) for x in (f, g)]
    if (kinds[0] and plain[1]) or (kinds[1] and plain[0]):
        ptr, other = (f, g) if kinds[0] else (g, f)
        raise UnitError(f"equivalent: {ptr} gives byte addresses but {other} gives its own units (element offsets); "
                        f"pass element_bits={ptr.element_bits} to compare both as byte addresses by CuTe's rule (or wrap "
                        "a byte-offset layout in a function)")
    return f, g


def _counterexample(f: Any, g: Any, space: Any, lv: Any, rv: Any, differing: list, method: str) -> Counterexample:
    """The Counterexample of :func:`equivalent` at the first differing address bit, confirmed by evaluation.

    Pre:  ``differing`` is non-empty: the address bits where the left (``lv``) and right (``rv``) models differ.
    Post: a Counterexample whose coordinate separates bit ``differing[0]``, checked on the model (sympy and the
          normal form) and by evaluating both sides; ProofError where either check disagrees.
    """
    sp = _sp()
    left, right = _describe(f), _describe(g)
    t = differing[0]
    diff = lv._b(t) ^ rv._b(t)
    if method == "sat":
        model = sp.satisfiable(sp.Xor(lv.bit(t), rv.bit(t)))
        mask = sum(1 << v for v, s in enumerate(space.symbols) if model.get(s, False))
    else:
        mask = _min_monomial(diff)
    assignment = {space.var_names[v]: bool(mask >> v & 1) for v in range(space.nvars) if mask >> v & 1}
    lf, rf = lv.bit(t), rv.bit(t)
    subs_map = {s: sp.true if mask >> v & 1 else sp.false for v, s in enumerate(space.symbols)}
    if sp.Xor(lf, rf).xreplace(subs_map) is not sp.true or _anf_eval(diff, mask) != 1:
        raise ProofError(f"equivalent: internal error: the assignment {assignment} does not separate "
                         f"bit {t}")
    la, ra = _concrete(f, space, mask), _concrete(g, space, mask)
    if not (la ^ ra) >> t & 1:
        raise ProofError(
            f"equivalent: the model says bit {t} differs at index {mask}, but direct evaluation gives "
            f"{la} and {ra}; the bit-vector model disagrees with the functions (please report this)"
        )
    return Counterexample(left, right, space.shape, space.coordinate(mask), mask, la, ra, t, lf, rf,
                          assignment, differing)


def equivalent(
    f: Any, g: Any, domain: Any, nbits: int | None = None, *, method: str = "anf", element_bits: Any = None,
    swizzle_unit: str = "elements",
) -> Proof | Counterexample:
    """Decide whether ``f`` and ``g`` give the same address at every coordinate of ``domain``.

    Units: a Layout or ComposedLayout gives its own units (element offsets), a SwizzledSmemLayout
    byte addresses. With ``element_bits`` every Layout, ``Sw o k o L`` and pointer-form side is read
    by CuTe's unit rule (:func:`~pycute_layouts.core.composed.smem_layout_of`; ``swizzle_unit``
    as there) and compared as byte addresses, so ``Sw<3,3,3> o 0 o L`` and
    ``Sw<3,4,3> o smem_ptr[16b](unset) o L`` are proved equal on 16-bit elements. Without it a
    SwizzledSmemLayout compared with a Layout or ComposedLayout would compare bytes with element
    offsets: UnitError naming the fix.

    A domain with a mode that is not a power of two has no bit-vector model: it is checked point by
    point, exhaustively, up to ``_EXHAUSTIVE_LIMIT`` = 65536 points (ProofError beyond), and the
    Proof's method is ``"exhaustive"``.

    Both sides go through :func:`address_bits` conventions (layouts and swizzles see the linear
    index, SwizzledSmemLayout gives byte addresses, callables get the coordinate). Address bits
    ``0 .. nbits-1`` are compared (default: every bit either side can set). ``method="anf"``
    compares the unique XOR-of-ANDs normal forms (sympy confirms ``Xor(left, right)`` is
    False when the proof's steps are read); ``method="sat"`` asks ``sympy.satisfiable(Xor(left, right))`` instead. A differing
    bit gives a :class:`Counterexample`, confirmed by evaluating both sides at its coordinate;
    otherwise the result is a :class:`Proof`.

    >>> from pycute_layouts import Layout, Swizzle, ComposedLayout
    >>> C = ComposedLayout(Swizzle(3, 4, 3), 0, Layout((8, 64), (64, 1)))
    >>> bool(equivalent(C, lambda i, j: (64 * i + j) ^ (((i >> 1) & 3) << 4), (8, 64)))
    True
    >>> equivalent(C, Layout((8, 64), (64, 1)), (8, 64))
    Counterexample(coordinate=(2, 0), left_address=144, right_address=128)
    >>> bool(equivalent(Layout((3, 5), (5, 1)), lambda i, j: 5 * i + j, (3, 5)))
    True
    >>> from pycute_layouts import parse
    >>> bool(equivalent(parse("Sw<3,3,3> o 0 o (8,64):(64,1)"), parse("Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)"),
    ...                 (8, 64), element_bits=16))
    True
    """
    if not isinstance(method, str) or method not in ("anf", "sat"):
        raise LayoutValueError(f"equivalent: method must be 'anf' or 'sat', got {fmt(method)}")
    f, g = _same_units(f, g, element_bits, swizzle_unit)
    if nbits is not None:
        check_count("equivalent", "nbits (MAX_PROOF_BITS)", nbits, 0, MAX_PROOF_BITS)
    grid = _non_pow2_domain(domain)
    if grid is not None:
        return _equivalent_exhaustive(f, g, grid, nbits)
    space = _Space(domain, "equivalent")
    lv, lhow = _evaluate(f, space, "left")
    rv, rhow = _evaluate(g, space, "right")
    width = max(lv.width, rv.width) if nbits is None else nbits
    left, right = _describe(f), _describe(g)
    sp = _sp()
    differing = [t for t in range(width) if lv._b(t) != rv._b(t)]
    if method == "sat":
        differing = []
        for t in range(width):
            if sp.satisfiable(sp.Xor(lv.bit(t), rv.bit(t))) is not False:
                differing.append(t)
    if differing:
        return _counterexample(f, g, space, lv, rv, differing, method)
    steps: list = [
        ("The domain's modes are powers of two, so a coordinate is its bits:", space.coordinate_equations()),
        (f"Left side: {lhow}.", None),
        (f"Right side: {rhow}.", None),
    ]
    why = ("both sides are the same XOR of ANDs (unique normal form), so Xor(left, right) is False:"
           if method == "anf" else "sympy.satisfiable(Xor(left, right)) is False; both sides equal")
    def bit_step(t: int) -> tuple:
        lf, rf = lv.bit(t), rv.bit(t)
        if method == "anf" and sp.Xor(lf, rf) is not sp.false:
            raise ProofError(f"equivalent: internal error: equal normal forms, sympy keeps Xor({lf}, {rf})")
        return (f"Address bit {t}: {why}", lf)

    # the normal forms decided it; each bit's formula is written (and confirmed by sympy) when the proof is read
    steps += [lambda t=t: bit_step(t) for t in range(width)]
    return Proof(left, right, space.shape, width, steps, method)
