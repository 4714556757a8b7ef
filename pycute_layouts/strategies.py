"""Hypothesis strategies for layouts, swizzles and admissible operands of the layout algebra.

Every function here returns a :class:`hypothesis.strategies.SearchStrategy` and composes with
the others (pass a strategy where a strategy is expected, e.g. ``shapes(leaves=...)``). The
strategies build their values *by construction* rather than by filtering, so that hypothesis
spends its budget on interesting cases and shrinks to small ones:

* ``int_tuples`` / ``shapes``: nested tuples of ints, with a budget on the product (the size);
* ``layouts``: a shape plus a congruent stride, general or restricted (``compact``: a bijection
  onto ``[0, size)``; ``injective``: injective *and complementable* by construction, i.e. every
  sorted stride is a multiple of the extent of the modes before it; ``stride_zero``: broadcast
  modes; ``power_of_two``; ``max_cosize``);
* ``admissible_composition_pairs``: pairs ``(A, B)`` whose composition CuTe accepts, because
  every stride of ``B`` is a prefix product of ``A``'s flat shape times a divisor of the next
  shape, and every size of ``B`` fits the shape it walks into (see the function's docstring);
* ``complementable_layouts``, ``tilers_for(layout)`` (tilers for ``logical_divide`` and friends,
  built from a refinement of the layout's flat shape), ``swizzles``.

This module needs ``hypothesis`` (a test dependency); the package itself never imports it.

>>> from hypothesis.strategies import SearchStrategy
>>> all(isinstance(s, SearchStrategy) for s in (int_tuples(), shapes(), layouts(), swizzles()))
True
"""

from __future__ import annotations

import functools
import inspect
from typing import Any

from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument
from hypothesis.strategies import SearchStrategy

from .core.inttuple import flatten
from .core.layout import Layout, _
from .core.swizzle import Swizzle
from .errors import LayoutValueError
from .limits import MAX_EVAL_POINTS, MAX_NESTING_DEPTH, check_count, fmt

__all__ = [
    "StrategyArgumentError",
    "divisors",
    "int_tuples",
    "shapes",
    "layouts",
    "compact_layouts",
    "injective_layouts",
    "complementable_layouts",
    "admissible_composition_pairs",
    "product_pairs",
    "tilers_for",
    "swizzles",
]

#: Default leaf values of shapes: small, with repeated prime factors so that divisibility is common.
_DEFAULT_LEAVES = st.sampled_from([1, 2, 2, 3, 4, 4, 6, 8, 8, 16, 5, 12])
_POW2_LEAVES = st.sampled_from([1, 2, 4, 8, 16])


class StrategyArgumentError(LayoutValueError, InvalidArgument):
    """A bad argument of a strategy: both a LayoutError and hypothesis's ``InvalidArgument``, raised when the
    strategy is built (not when it is drawn from).

    >>> issubclass(StrategyArgumentError, InvalidArgument) and issubclass(StrategyArgumentError, LayoutValueError)
    True
    """


#: Largest ``max_size`` / ``max_cosize`` / ``max_b_size`` a strategy accepts, and the largest ``n`` of divisors.
_MAX_STRATEGY_SIZE = MAX_EVAL_POINTS
_MAX_DIVISORS_N = 1 << 40


def _checked_arguments(fn: Any) -> Any:
    """Check a strategy's arguments by their defaults when it is called: an int default takes an int
    (``max_rank``/``max_depth``/``min_depth`` at most ``MAX_NESTING_DEPTH``, sizes at most ``MAX_EVAL_POINTS``),
    a bool default a bool, a ``SearchStrategy | None`` default a strategy or None, ``layout`` a Layout;
    anything else is StrategyArgumentError naming the argument."""
    sig = inspect.signature(fn)

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        who = fn.__name__
        try:
            bound = sig.bind(*args, **kwargs)
        except TypeError as e:
            raise StrategyArgumentError(f"{who}: {e}") from None
        for name, value in bound.arguments.items():
            p = sig.parameters[name]
            if p.kind == p.VAR_KEYWORD:
                continue
            d = p.default
            if name == "layout":
                if not isinstance(value, Layout) or value.is_symbolic() or value.coord_profile() is not None:
                    raise StrategyArgumentError(f"{who}: layout must be a concrete Layout of integer strides, got "
                                                f"{fmt(value)}")
                if not isinstance(value.size(), int) or value.size() > _MAX_STRATEGY_SIZE:
                    raise StrategyArgumentError(f"{who}: layout {fmt(value)} has more than MAX_EVAL_POINTS = "
                                                f"{MAX_EVAL_POINTS} points")
            elif type(d) is bool:
                if not isinstance(value, bool):
                    raise StrategyArgumentError(f"{who}: {name} must be a bool, got {fmt(value)}")
            elif type(d) is int or name.startswith("max_") and value is not None:
                hi = MAX_NESTING_DEPTH if name in ("max_rank", "max_depth", "min_depth") else _MAX_STRATEGY_SIZE
                if name in ("max_bits", "max_base", "max_shift"):
                    hi = 31
                check_count(who, name, value, 0, hi, StrategyArgumentError)
            elif d is None and name in ("leaves", "lhs", "shape") and value is not None:
                if not isinstance(value, SearchStrategy):
                    raise StrategyArgumentError(f"{who}: {name} must be a hypothesis strategy or None, got {fmt(value)}")
        return fn(*args, **kwargs)

    return wrapper


def divisors(n: int) -> list[int]:
    """The positive divisors of ``n``, ascending (a helper for the constructions below).

    Pre:  1 <= n <= 2**40 (trial division up to sqrt(n); StrategyArgumentError otherwise).

    >>> divisors(12)
    [1, 2, 3, 4, 6, 12]
    >>> divisors(1)
    [1]
    """
    n = check_count("divisors", "n", n, 1, _MAX_DIVISORS_N, StrategyArgumentError)
    small, large = [], []
    d = 1
    while d * d <= n:
        if n % d == 0:
            small.append(d)
            if d * d != n:
                large.append(n // d)
        d += 1
    return small + large[::-1]


# ------------------------------------------------------------------------------------------
# int tuples and shapes


@functools.cache
def _ints(lo: int, hi: int) -> SearchStrategy:
    """``st.integers(lo, hi)``, built once (strategy construction is not free inside a draw)."""
    return st.integers(lo, hi)


@functools.cache
def _choice(values: tuple) -> SearchStrategy:
    return st.sampled_from(values)


_BOOL = st.booleans()


def _draw_profile(draw, max_rank: int, depth_left: int, min_depth: int) -> Any:
    """A nesting profile drawn top-down: None (a leaf) or a tuple of 1..max_rank profiles.

    ``depth_left`` bounds the depth; the top ``min_depth`` levels are always tuples.
    """
    if depth_left <= 0:
        return None
    if min_depth <= 0 and draw(_BOOL):
        return None
    n = draw(_ints(1, max_rank))
    return tuple(_draw_profile(draw, max_rank, depth_left - 1, min_depth - 1) for _i in range(n))


def _fill(profile: Any, leaf_draw) -> Any:
    if isinstance(profile, tuple):
        return tuple(_fill(p, leaf_draw) for p in profile)
    return leaf_draw()


@_checked_arguments
def int_tuples(max_rank: int = 3, max_depth: int = 2, leaves: SearchStrategy | None = None) -> SearchStrategy:
    """Nested tuples of integers (IntTuples): a leaf, or a tuple of 1..max_rank IntTuples.

    ``leaves`` draws each leaf (default: small positive ints with repeated prime factors).

    >>> isinstance(int_tuples(max_rank=2, leaves=st.integers(0, 3)), SearchStrategy)
    True
    """
    return _int_tuples(max_rank, max_depth, leaves if leaves is not None else _DEFAULT_LEAVES)


@st.composite
def _int_tuples(draw, max_rank: int, max_depth: int, leaf_st: SearchStrategy) -> Any:
    prof = _draw_profile(draw, max_rank, max_depth, 0)
    return _fill(prof, lambda: draw(leaf_st))


@_checked_arguments
def shapes(
    max_rank: int = 3,
    max_depth: int = 2,
    max_size: int = 256,
    leaves: SearchStrategy | None = None,
    min_depth: int = 0,
) -> SearchStrategy:
    """Shapes: IntTuples of positive leaves whose product is at most ``max_size``.

    A drawn leaf that would push the size past ``max_size`` is replaced by its largest divisor
    that still fits (so the budget holds by construction and divisibility structure survives).

    >>> isinstance(shapes(max_rank=2, max_depth=1, max_size=64), SearchStrategy)
    True
    """
    leaf_st = leaves if leaves is not None else _DEFAULT_LEAVES
    return _shapes(max_rank, max_depth, max_size, leaf_st, min_depth)


@st.composite
def _shapes(
    draw, max_rank: int, max_depth: int, max_size: int, leaf_st: SearchStrategy, min_depth: int
) -> Any:
    prof = _draw_profile(draw, max_rank, max_depth, min_depth)
    used = 1

    def leaf() -> int:
        nonlocal used
        v = draw(leaf_st)
        if not isinstance(v, int) or v < 1:
            raise ValueError(f"shapes: leaves must draw positive ints, got {fmt(v)}")
        budget = max(1, max_size // used)
        if v > budget:
            v = max(d for d in divisors(v) if d <= budget)
        used *= v
        return v

    return _fill(prof, leaf)


# ------------------------------------------------------------------------------------------
# layouts


def _unflatten_like(flat: list, profile: Any) -> Any:
    it = iter(flat)

    def go(p):
        if isinstance(p, tuple):
            return tuple(go(x) for x in p)
        return next(it)

    return go(profile)


@_checked_arguments
def layouts(
    max_rank: int = 3,
    max_depth: int = 2,
    max_size: int = 256,
    *,
    injective: bool = False,
    compact: bool = False,
    stride_zero: bool = False,
    power_of_two: bool = False,
    max_cosize: int | None = None,
    negative: bool = False,
    shape: SearchStrategy | None = None,
) -> SearchStrategy:
    """Layouts ``shape:stride`` with the requested properties, all by construction.

    * default: each stride leaf is drawn from ``[1, 16]`` (``[0, 16]`` with ``stride_zero``);
    * ``compact=True``: the flat modes get the compact strides of a random mode order, so the
      layout is a bijection onto ``[0, size)`` (``stride_zero`` then zeroes some modes);
    * ``injective=True``: the flat modes, in a random order, get strides ``extent * g`` with a
      gap ``g`` in ``{1, 2, 3}``: injective *and* complementable (sorted strides each divide by
      the extent of the smaller ones); a size-1 mode gets the current extent (``compact``: one
      of 0, 1 or the extent, since its stride is never used);
    * ``power_of_two=True``: shape leaves and non-zero strides are powers of two;
    * ``max_cosize``: every stride is capped so that ``cosize <= max_cosize``;
    * ``negative=True``: general layouts may get negative strides;
    * ``shape``: a strategy for the shape (default :func:`shapes`).

    >>> isinstance(layouts(injective=True, power_of_two=True), SearchStrategy)
    True
    >>> isinstance(layouts(compact=True, stride_zero=True, max_cosize=64), SearchStrategy)
    True
    """
    if injective and stride_zero:
        raise ValueError("layouts: injective layouts have no stride-0 modes of size > 1")
    leaf_st = _POW2_LEAVES if power_of_two else None
    shape_st = shape if shape is not None else shapes(max_rank, max_depth, max_size, leaves=leaf_st)

    return _layouts(shape_st, injective, compact, stride_zero, power_of_two, max_cosize, negative)


@st.composite
def _layouts(
    draw,
    shape_st: SearchStrategy,
    injective: bool,
    compact: bool,
    stride_zero: bool,
    power_of_two: bool,
    max_cosize: int | None,
    negative: bool,
) -> Layout:
    s = draw(shape_st)
    fs = list(flatten(s))
    n = len(fs)
    budget = None if max_cosize is None else max_cosize - 1  # sum((s-1)*|d|) <= budget
    if compact or injective:
        order = draw(st.permutations(range(n)))
        strides = [0] * n
        extent = 1
        for i in order:
            if fs[i] == 1:
                strides[i] = draw(_choice((0, 1, extent))) if not injective else extent
                continue
            g = 1
            if injective:
                g = draw(_choice((1, 2, 4)) if power_of_two else _ints(1, 3))
            d = extent * g
            if budget is not None and (fs[i] - 1) * d > budget:
                d = extent  # fall back to no gap; compact strides keep cosize == size
            strides[i] = d
            extent = d * fs[i]
        if stride_zero:
            strides = [0 if draw(_BOOL) else d for d in strides]
    else:
        strides = []
        lo = 0 if stride_zero else 1
        pow2 = ((0,) if stride_zero else ()) + (1, 2, 4, 8, 16, 32)
        for x in fs:
            d = draw(_choice(pow2)) if power_of_two else draw(_ints(lo, 16))
            if budget is not None and x > 1 and (x - 1) * d > budget:
                d = min(d, budget // (x - 1))
                if power_of_two and d > 0:
                    d = 1 << (d.bit_length() - 1)
            if budget is not None and x > 1:
                budget -= (x - 1) * d
            if negative and d != 0 and draw(_BOOL):
                d = -d
            strides.append(d)
    stride = _unflatten_like(strides, s) if isinstance(s, tuple) else strides[0]
    return Layout(s, stride)


@_checked_arguments
def compact_layouts(max_rank: int = 3, max_depth: int = 2, max_size: int = 256, **kw: Any) -> SearchStrategy:
    """Compact layouts: bijections onto ``[0, size)`` (any mode order, any nesting).

    >>> isinstance(compact_layouts(max_size=64), SearchStrategy)
    True
    """
    return layouts(max_rank, max_depth, max_size, compact=True, **kw)


@_checked_arguments
def injective_layouts(
    max_rank: int = 3, max_depth: int = 2, max_size: int = 256, **kw: Any
) -> SearchStrategy:
    """Injective layouts (also complementable, by construction; see :func:`layouts`).

    >>> isinstance(injective_layouts(power_of_two=True), SearchStrategy)
    True
    """
    return layouts(max_rank, max_depth, max_size, injective=True, **kw)


@_checked_arguments
def complementable_layouts(
    max_rank: int = 3, max_depth: int = 2, max_size: int = 128, stride_zero: bool = True
) -> SearchStrategy:
    """Layouts that have a complement: injective-with-gaps layouts, plus (``stride_zero``) some
    broadcast (stride-0) modes, which ``complement`` filters away first.

    >>> isinstance(complementable_layouts(), SearchStrategy)
    True
    """
    base = injective_layouts(max_rank, max_depth, max_size)
    if not stride_zero:
        return base
    return st.one_of(base, _with_zeros(base))


@st.composite
def _with_zeros(draw, base: SearchStrategy) -> Layout:
    lay = draw(base)
    fd = [0 if draw(_BOOL) else d for d in flatten(lay.stride)]
    d = _unflatten_like(fd, lay.shape) if isinstance(lay.shape, tuple) else fd[0]
    return Layout(lay.shape, d)


# ------------------------------------------------------------------------------------------
# admissible composition pairs


def _refine(draw, flat: list[int]) -> list[tuple[int, int]]:
    """Split each leaf of ``flat`` into an ordered factorisation (``12 -> 2,6`` or ``3,4`` or ``12``).

    Returns ``(factor, leaf_index)`` pairs, in column-major order.
    """
    out: list[tuple[int, int]] = []
    for k, a in enumerate(flat):
        rest = a
        while rest > 1:
            f = draw(_choice(tuple(d for d in divisors(rest) if d > 1)))
            out.append((f, k))
            rest //= f
    return out


def _admissible_modes(
    draw, a_flat: list[int], count: int, max_b_size: int, overflow: bool = True
) -> list[tuple[int, int]]:
    """``count`` modes ``(size, stride)`` of B, each admissible against A and jointly "carry-free".

    A's flat shape is refined into factors ``f_0, f_1, ...`` (digits) with prefix products
    ``Q_t``; past the last digit lies the overflow digit of stride ``size(A)``, where A's last
    mode extends linearly. A mode of B takes a run of unused digits ``t..u-1`` (stride ``Q_t``,
    size ``f_t*...*f_{u-1}*r`` with ``r <= f_u`` a partial digit), or lives in the overflow digit
    (stride ``size(A)*e``, any size; shared freely because A is linear there), or has stride 0.
    Each mode then satisfies CuTe's stride and shape divisibility conditions on ``coalesce(A)``,
    and because the modes use disjoint digits, ``A(B(c)) == sum_i A(B_i(c_i))``: the composition
    agrees with function composition at every coordinate, not only mode by mode. Without
    ``overflow`` every point of B stays inside A's domain ``[0, size(A))``.
    """
    digits = _refine(draw, a_flat)
    q = [1]
    for f, _k in digits:
        q.append(q[-1] * f)
    total = q[-1]
    used = [False] * len(digits)
    modes: list[tuple[int, int]] = []
    budget = max_b_size
    for _i in range(count):
        free = [t for t in range(len(digits)) if not used[t]]
        kinds = ["run", "run", "run", "overflow", "zero"] if free else ["overflow", "zero"]
        if not overflow:
            kinds = [k for k in kinds if k != "overflow"]
        kind = draw(_choice(tuple(kinds)))
        if kind == "zero":
            size, stride = draw(_ints(1, 4)), 0
        elif kind == "overflow":
            size, stride = draw(_ints(1, 3)), total * draw(_ints(1, 3))
        else:
            t = draw(_choice(tuple(free)))
            size, u = 1, t
            # extend the run over consecutive unused digits while the budget allows
            while u < len(digits) and not used[u] and draw(_BOOL):
                if size * digits[u][0] > budget:
                    break
                size *= digits[u][0]
                used[u] = True
                u += 1
            if u < len(digits) and not used[u]:
                r = draw(_ints(1, digits[u][0]))
                if size * r <= budget:
                    size *= r
                    used[u] = r > 1 or used[u]
            elif u == len(digits) and overflow:  # the run reached the end: continue into the overflow digit
                size *= min(draw(_ints(1, 2)), max(1, budget // size))
            stride = q[t]
        size = max(1, min(size, budget))
        budget = max(1, budget // size)
        modes.append((size, stride))
    return modes


@_checked_arguments
def admissible_composition_pairs(
    max_rank: int = 3,
    max_depth: int = 2,
    max_size: int = 128,
    max_b_size: int = 256,
    lhs: SearchStrategy | None = None,
    overflow: bool = True,
) -> SearchStrategy:
    """Pairs ``(A, B)`` for which ``composition(A, B)`` is admissible by construction.

    ``A`` is any layout (default :func:`layouts` with stride-0 modes allowed; or ``lhs``). ``B``
    gets a random nesting; its leaf modes walk A's flat shape ``(a_0, ..., a_{n-1})`` refined
    into factors (digits), each mode over its own digits (the last mode of A extends to
    infinity, as in CuTe, and may be shared):

    * stride ``a_0 * ... * a_{k-1} * e`` with ``e`` a product of leading factors of ``a_k``
      (so the stride divides the prefix products of ``coalesce(A)`` or is divided by them:
      CuTe's stride divisibility condition), and
    * size ``(a_k/e) * a_{k+1} * ... * a_{j-1} * r`` with ``r <= a_j`` (shape divisibility), or
    * stride 0 with any size.

    Then ``composition(A, B)(c) == A(B(c))`` for every coordinate ``c`` of ``B``. With
    ``overflow=False`` B's points also stay inside A's domain (needed for associativity: outside
    its domain ``A o B`` extends its own last mode, not A's).

    >>> isinstance(admissible_composition_pairs(), SearchStrategy)
    True
    """
    lhs_st = lhs if lhs is not None else layouts(max_rank, max_depth, max_size, stride_zero=True)
    return _composition_pairs(lhs_st, max_b_size, overflow)


@st.composite
def _composition_pairs(
    draw, lhs_st: SearchStrategy, max_b_size: int, overflow: bool
) -> tuple[Layout, Layout]:
    a = draw(lhs_st)
    a_flat = list(flatten(a.shape))
    prof = _draw_profile(draw, 3, 2, 0)
    n = len(flatten(prof)) if isinstance(prof, tuple) else 1
    modes = _admissible_modes(draw, a_flat, n, max_b_size, overflow)
    perm = draw(st.permutations(range(n)))  # B's modes need not be in digit order
    modes = [modes[i] for i in perm]
    if not isinstance(prof, tuple):
        return a, Layout(modes[0][0], modes[0][1])
    shp = _unflatten_like([m[0] for m in modes], prof)
    std = _unflatten_like([m[1] for m in modes], prof)
    return a, Layout(shp, std)


@_checked_arguments
def product_pairs(max_size_a: int = 32, max_size_b: int = 32) -> SearchStrategy:
    """Pairs ``(A, B)`` for which ``logical_product(A, B)`` is admissible by construction:
    ``A`` compact (then ``complement(A, size(A)*cosize(B))`` is the rank-1 ``cosize(B):size(A)``
    and composes with any ``B``) and ``B`` any layout with non-negative strides.

    >>> isinstance(product_pairs(), SearchStrategy)
    True
    """
    return st.tuples(
        compact_layouts(max_size=max_size_a),
        layouts(max_size=max_size_b, stride_zero=True, max_cosize=64),
    )


# ------------------------------------------------------------------------------------------
# tilers


def _tiler_for_mode(draw, mode: Layout, allow_underscore: bool) -> Any:
    flat = [x for x in flatten(mode.shape)]
    refined = [f for f, _k in _refine(draw, flat)]
    kinds = ["layout", "layout", "int"] + (["_"] if allow_underscore else [])
    kind = draw(_choice(tuple(kinds)))
    if kind == "_":
        return _
    pre = [1]
    for f in refined:
        pre.append(pre[-1] * f)
    if kind == "int" or not refined:
        return pre[draw(_ints(0, len(refined)))] if refined else 1
    idx = draw(st.lists(_ints(0, len(refined) - 1), min_size=1, max_size=len(refined), unique=True))
    shp = tuple(refined[i] for i in idx)
    std = tuple(pre[i] for i in idx)
    if len(idx) == 1:
        return Layout(shp[0], std[0])
    if len(idx) >= 3 and draw(_BOOL):  # nest the first two modes: ((s0,s1),s2,...)
        shp = ((shp[0], shp[1]),) + shp[2:]
        std = ((std[0], std[1]),) + std[2:]
    return Layout(shp, std)


@_checked_arguments
def tilers_for(layout: Layout, allow_tuple: bool = True, allow_underscore: bool = True) -> SearchStrategy:
    """Tilers ``T`` for which ``logical_divide(layout, T)`` (and zipped/tiled/flat_divide, and
    ``composition(layout, T)``) is admissible by construction.

    Each mode's flat shape is refined into factors ``f_0, f_1, ...`` (``12 -> (3, 4)``), with prefix
    products ``Q_t``. A Layout tiler takes a subset of the factors in any order, each with stride
    ``Q_t``: it is injective, its complement in ``shape(coalesce(mode))`` is the other factors,
    and every mode of ``(T, complement)`` walks the mode's shape divisibly. An int tiler is a
    prefix product ``Q_t``. A tuple tiler (``allow_tuple``) does this per mode, for the first
    ``1..rank`` modes, with ``_`` allowed when ``allow_underscore`` (``zipped_divide`` needs a
    rank-2 mode under a ``_``, as CuTe's ``zip2_by`` does, so zipped tests pass ``False``).

    >>> isinstance(tilers_for(Layout((8, 6), (6, 1))), SearchStrategy)
    True
    """
    return _tilers(layout, allow_tuple, allow_underscore)


@st.composite
def _tilers(draw, layout: Layout, allow_tuple: bool, allow_underscore: bool) -> Any:
    if allow_tuple and isinstance(layout.shape, tuple) and draw(_BOOL):
        r = draw(_ints(1, layout.rank()))
        return tuple(_tiler_for_mode(draw, layout[i], allow_underscore) for i in range(r))
    return _tiler_for_mode(draw, layout, False)


# ------------------------------------------------------------------------------------------
# swizzles


@_checked_arguments
def swizzles(max_bits: int = 3, max_base: int = 4, max_shift: int = 5) -> SearchStrategy:
    """CuTe swizzles ``Swizzle(B, M, S)`` with ``|S| >= B`` (the two bit fields never overlap).

    >>> isinstance(swizzles(), SearchStrategy)
    True
    >>> Swizzle(3, 4, 3).bits
    3
    """
    return _swizzles(max_bits, max_base, max_shift)


@st.composite
def _swizzles(draw, max_bits: int, max_base: int, max_shift: int) -> Swizzle:
    b = draw(_ints(0, max_bits))
    m = draw(_ints(0, max_base))
    mag = draw(_ints(b, max(b, max_shift)))
    s = -mag if mag and draw(_BOOL) else mag
    return Swizzle(b, m, s)
