"""Regression tests of the s6 review of the speed changes (constructor, coalesce, basis surrogates, int tilers).

Each test names the defect it pins down; the sweeps compare the fast paths with the paths they stand in for.
"""

from __future__ import annotations

import random

import pytest

from pycute_layouts import (
    E,
    Layout,
    LayoutError,
    LayoutValueError,
    complement,
    flat_divide,
    local_tile,
    logical_divide,
    make_identity_layout,
    make_identity_tensor,
    tiled_divide,
    zipped_divide,
)
from pycute_layouts.limits import MAX_INT_DIGITS

DIVIDES = [logical_divide, zipped_divide, tiled_divide, flat_divide]
TOO_WIDE = [10**MAX_INT_DIGITS, 10**MAX_INT_DIGITS + 1, 10**(MAX_INT_DIGITS + 10), 2**300]


@pytest.mark.parametrize("divide", DIVIDES)
@pytest.mark.parametrize("n", TOO_WIDE)
@pytest.mark.parametrize("layout", [Layout((8, 4), (4, 1)), make_identity_layout((8, 4))])
def test_int_tiler_beyond_max_int_digits_is_refused(divide, n, layout):
    """Defect: an int tiler of more than MAX_INT_DIGITS digits was read as the layout n:1 without a check (both
    the by-mode fast path and the general path), so logical_divide((8,4):(4,1), 10**64) returned a layout with a
    65-digit leaf ``((8,1250...0),1):((4,1),0)``; composition(L, 10**64) refuses it, and so must the divides."""
    for tiler in (n, (n, 2), (2, n)):
        with pytest.raises(LayoutValueError, match="MAX_INT_DIGITS"):
            divide(layout, tiler)


def test_int_tiler_beyond_max_int_digits_local_tile():
    with pytest.raises(LayoutValueError, match="MAX_INT_DIGITS"):
        local_tile(make_identity_tensor((8, 4)), (10**MAX_INT_DIGITS, 2), (0, 0))
    n = 10**MAX_INT_DIGITS - 1
    assert str(local_tile(make_identity_tensor((8, 4)), (n, 2), (0, 1)).layout) == f"({n},2):(1@0,1@1)"


@pytest.mark.parametrize("layout", [Layout((8, 4), (4, 1)), make_identity_layout((8, 4))])
def test_int_tiler_at_the_bound_still_accepted(layout):
    """The largest int of MAX_INT_DIGITS digits is still a tiler (read as n:1), by mode and whole."""
    n = 10**MAX_INT_DIGITS - 1
    assert logical_divide(layout, (n, 2)) == logical_divide(layout, (Layout(n, 1), Layout(2, 1)))


@pytest.mark.parametrize("bad", [0, -2, True, False, 2.0, "4"])
@pytest.mark.parametrize("divide", DIVIDES)
def test_bad_int_tilers_refused_with_layout_errors(divide, bad):
    for tiler in (bad, (4, bad), (bad, 2)):
        with pytest.raises(LayoutError):
            divide(Layout((8, 4), (4, 1)), tiler)
        with pytest.raises(LayoutError):
            divide(make_identity_layout((8, 4)), tiler)


def test_int_tilers_equal_their_layouts_random():
    """By-mode int tilers (the fast path) equal the tilers n:1 as Layouts, on integer and basis-stride layouts."""
    rng = random.Random(6)
    layouts = [Layout((8, 4), (4, 1)), Layout((16, (2, 4)), (1, (16, 64))), make_identity_layout((8, 12)),
               Layout((6, 8), (E(1), 2 * E(0))), Layout(((2, 4), 6), ((E(0), 2 * E(0)), -E(1)))]
    for _ in range(300):
        L = rng.choice(layouts)
        t = tuple(rng.choice([1, 2, 3, 4, 8]) for _ in range(rng.randint(1, 2)))
        as_layouts = tuple(Layout(x, 1 if x != 1 else 0) for x in t)
        for divide in DIVIDES:
            try:
                want = divide(L, as_layouts)
            except LayoutError as e:
                with pytest.raises(type(e)):
                    divide(L, t)
                continue
            assert divide(L, t) == want


# ------------------------------------------------------------------------ sweeps the review ran (small budgets)


class _Tup(tuple):
    """A tuple subclass: ``Layout`` takes its checked path for it (the fast paths test ``type(x) is tuple``)."""


def _as_checked(x):
    return _Tup(_as_checked(y) for y in x) if isinstance(x, tuple) else x


def _ctor_outcome(shape, stride):
    try:
        L = Layout(shape, stride)
    except LayoutError as e:
        return ("err", type(e).__name__, str(e))
    return ("ok", str(L), repr(L.shape), repr(L.stride), L.flat_modes(), L.int_flat_modes() is not None, L.is_symbolic())


def _random_leaves(rng, depth):
    """A random (shape, stride) pair of nested tuples, with leaves near each bound of the constructor's fast path."""
    big = 10**MAX_INT_DIGITS
    shapes = [1, 2, 3, 8, 0, -1, True, 2.0, (1 << 30) - 1, 1 << 30, big - 1, big]
    strides = [0, 1, -1, 5, True, 1.0, -((1 << 30) - 1), -(1 << 30), big - 1, -(big - 1), big, E(0)]
    if depth and rng.random() < 0.4:
        kids = [_random_leaves(rng, depth - 1) for _ in range(rng.randint(0, 3))]
        return tuple(k[0] for k in kids), tuple(k[1] for k in kids)
    return rng.choice(shapes if rng.random() < 0.2 else shapes[:4]), rng.choice(strides if rng.random() < 0.2 else strides[:4])


def test_constructor_fast_path_equals_checked_path_sweep():
    """``Layout(s, d)`` on plain tuples (the fast paths) == on a tuple subclass (the checked path): the same
    text, nesting, flat modes and integer flag, or the same error (1500 random nests)."""
    rng = random.Random(61)
    for _ in range(1500):
        s, d = _random_leaves(rng, 3)
        assert _ctor_outcome(s, d) == _ctor_outcome(_as_checked(s), _as_checked(d)), (s, d)


def test_coalesce_int_fast_path_equals_pycute_sweep():
    """``coalesce`` of integer layouts (unrolled ranks 2-4, the run walk) == NVIDIA pycute's coalesce (2000 cases:
    size-1 modes, stride 0, negative strides, chained strides that merge)."""
    from oracles import skip_without_pycute

    from pycute_layouts import coalesce

    pc = skip_without_pycute()
    rng = random.Random(62)
    for _ in range(2000):
        s = tuple(rng.choice([1, 1, 2, 3, 4, 8]) for _ in range(rng.randint(1, 6)))
        d = []
        acc = rng.choice([0, 1, 2, -1])
        for x in s:
            d.append(acc if rng.random() < 0.5 else rng.choice([0, 1, 2, 4, -2, 5, 12]))
            acc = d[-1] * x
        got = coalesce(Layout(s, tuple(d)))
        want = str(pc.coalesce(pc.Layout(s, tuple(d)))).replace(" ", "")
        assert str(got) == want, (s, d)


@pytest.mark.parametrize("cotarget", [10**MAX_INT_DIGITS, 10**74, -(10**70), 2**300])
def test_complement_refuses_an_int_cotarget_beyond_max_int_digits(cotarget) -> None:
    # it was accepted (a 241-bit leaf in the result), while a tuple cotarget of such leaves was refused
    with pytest.raises(LayoutValueError, match="MAX_INT_DIGITS"):
        complement(Layout((2, 2), (1, 6)), cotarget)
    assert str(complement(Layout(4, 1), 10**MAX_INT_DIGITS - 1)).startswith("2500")
