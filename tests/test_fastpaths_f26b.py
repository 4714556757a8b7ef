"""The integer and polynomial fast paths (issue 26) give exactly what the general paths give."""

from __future__ import annotations

import random

import pytest

import pycute_layouts as pl
from pycute_layouts.core import algebra, inttuple

sympy = pytest.importorskip("sympy")


def _random_int_layout(rng: random.Random) -> pl.Layout:
    shape = tuple(rng.choice([1, 2, 3, 4]) if rng.random() < 0.7 else (rng.choice([1, 2]), rng.choice([2, 4]))
                  for _ in range(rng.choice([2, 3, 4])))
    stride = tuple(rng.choice([0, 1, 2, 4, 8, 16, 3]) if isinstance(s, int) else tuple(rng.choice([0, 1, 2, 6, 32])
                   for _ in s) for s in shape)
    return pl.Layout(shape, stride)


def _outcome(fn, *args):
    try:
        return "ok", str(fn(*args))
    except pl.LayoutError as e:
        return type(e).__name__, str(e)


def test_complement_fast_path_equals_checked_path() -> None:
    rng = random.Random(26)
    n_ok = 0
    for _ in range(3000):
        lay = _random_int_layout(rng)
        m = rng.choice([1, 7, 64, 256, 1000])
        fs, fd = lay.flat_modes()
        fast = _outcome(pl.complement, lay, m)
        slow = _outcome(algebra.complement_ints, fs, fd, m, lay)
        assert fast == slow, (str(lay), m)
        n_ok += fast[0] == "ok"
    assert n_ok > 300  # both outcomes are exercised


def test_coalesce_and_call_fast_paths() -> None:
    rng = random.Random(7)
    for _ in range(2000):
        lay = _random_int_layout(rng)
        checked = pl.Layout(lay.shape, lay.stride)
        assert str(pl.coalesce(lay)) == str(algebra.coalesce_flat(checked))
        for i in (0, 1, 5, lay.size() - 1, lay.size() + 3):
            assert lay(i) == pl.core.inttuple.crd2idx(i, lay.shape, lay.stride)


def test_simplify_polynomial_shortcut_matches_sympy() -> None:
    m, k, n = sympy.symbols("m k n", positive=True, integer=True)
    x = sympy.Symbol("x")
    exprs = [m * (2 * k - 1) + m, 8 * m * (k - 1) + 8 * m, 2 * k * m - 1, k * m + 1, m + 1, x * (n - 1) + x,
             2 * k * m + 2 * m, k * m - k, (m + 1) ** 2, 3 * m * k + 3, m * (k + 1) - m * k]
    for e in exprs:
        r = inttuple._simple_polynomial(e)
        if r is not None:
            s = sympy.simplify(e)
            assert r == s and str(r) == str(s), e
    assert str(inttuple.simplify(m * (2 * k - 1) + m)) == "2*k*m"
    assert inttuple._simple_polynomial(2 * k * m + 2 * m) is None  # sympy factors it: left to sympy
