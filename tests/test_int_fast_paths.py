"""The integer fast paths (issue 26's speed work) against the library's general definitions.

Each fast path skips intermediate layouts and checks; these tests pin that it computes what the
general definition says: ``Layout.__call__`` against the numpy evaluation, ``coalesce`` against the
function it must preserve, ``logical_product``/``blocked_product``/``raked_product`` against
``(A, complement(A, size(A) * cosize(B)) o B)``, ``zipped_divide``/``logical_divide`` by a tuple of
layouts against the per-mode ``logical_divide``, ``right_inverse`` against its post-condition.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from pycute_layouts import (
    Layout,
    LayoutError,
    blocked_product,
    coalesce,
    complement,
    composition,
    flatten,
    logical_divide,
    logical_product,
    make_layout,
    raked_product,
    right_inverse,
    zipped_divide,
)
from pycute_layouts.core.algebra import coalesce_ints
from pycute_layouts.core.inttuple import unflatten
from pycute_layouts.core.layout import int_layout
from pycute_layouts.limits import MAX_INT_DIGITS

SHAPES = [2, 3, 4, 8, (2, 2), (2, 3), (1, 4), (4, 1), ((2, 2), 3), (2, 4), (3, 2, 2), (8, 8), (4, (2, 2)),
          (2, 1, 2), ((1, 2), (2, 1)), (2, 2, 2, 2), ((2, 2), (2, 2), 2)]
STRIDES = [0, 1, 2, 3, 4, 6, 8, 16, 32, -1, -2]


def _random_layout(rng: random.Random, strides: list = STRIDES) -> Layout:
    s = rng.choice(SHAPES)
    d = tuple(rng.choice(strides) for _ in flatten(s))
    return Layout(s, unflatten(d, s) if isinstance(s, tuple) else d[0])


def _outcome(fn, *args):
    try:
        return str(fn(*args))
    except LayoutError as e:
        return f"{type(e).__name__}"


def test_call_matches_numpy_evaluation_for_every_flat_rank():
    rng = random.Random(0)
    for _ in range(300):
        L = _random_layout(rng)
        idx = list(range(-3, L.size() + 5))  # out of range: the last mode extends, as CuTe
        assert [L(i) for i in idx] == L(np.array(idx)).tolist(), L


def test_nested_fast_constructor_refuses_what_the_checked_path_refuses():
    big = 10 ** (MAX_INT_DIGITS + 1)
    for s, d in [(((2, 2), big), ((1, 2), 4)), (((2, big), 4), ((1, 2), 4)), (((2, 2), 4), ((1, big), 4)),
                 (((2, 2), 4), ((1, 2), -big)), ((2, big), (1, 2)), ((2, 2), (1, -big))]:
        with pytest.raises(LayoutError):
            Layout(s, d)


def _tuples_to_lists(x):
    return [_tuples_to_lists(y) for y in x] if isinstance(x, tuple) else x


def _like(s, leaves):
    """``s`` with its leaves replaced, in order, from the iterator ``leaves`` (no validation: bad leaves too)."""
    return tuple(_like(x, leaves) for x in s) if isinstance(s, tuple) else next(leaves)


def _count(s) -> int:
    return sum(_count(x) for x in s) if isinstance(s, tuple) else 1


def _checked_or_refused(fn, *args):
    try:
        L = fn(*args)
    except LayoutError as e:
        return type(e).__name__
    return str(L), L.flat_modes(), L.int_flat_modes() is not None, [_outcome(L, i) for i in (0, 1, 3)]


@pytest.mark.parametrize("leaf", [1, 2, 2**30 - 2, 2**30 - 1, 2**30, 2**31 + 1, 10**MAX_INT_DIGITS - 1,
                                  10**MAX_INT_DIGITS, -1, -(2**30 - 2), -(2**30 - 1), -(2**30), 0, True, np.int64(3)])
def test_fast_constructor_equals_the_checked_path_at_every_bound(leaf):
    """The constructor's fast paths (ranks 2 and 3 unrolled, the one-digit bound first, the nested flatten)
    agree with the checked path (lists in place of tuples) on leaves at and around each bound."""
    shapes = [(leaf, 2), (2, leaf), (leaf, 2, 3), (2, leaf, 3), (3, 2, leaf), (2, 2, 2, leaf), ((leaf, 2), 4), ((2, 2), leaf),
              (2, (3, leaf)), (2, (leaf, 3)), ((2, (leaf, 2)), 2), ((2, 2, leaf), 2), (2, leaf, 2, 2)]
    for s in shapes:
        n = _count(s)
        for d in (_like(s, iter(range(1, n + 1))), _like(s, iter([leaf] * n))):
            for shape, stride in ((s, d), (_like(s, iter([2] * n)), d)):
                fast = _checked_or_refused(Layout, shape, stride)
                checked = _checked_or_refused(Layout, _tuples_to_lists(shape), _tuples_to_lists(stride))
                assert fast == checked, (shape, stride, fast, checked)


def test_coalesce_keeps_the_function_and_is_maximal():
    rng = random.Random(1)
    for _ in range(400):
        L = _random_layout(rng)
        R = coalesce(L)
        assert R.size() == L.size()
        assert [R(i) for i in range(L.size())] == [L(i) for i in range(L.size())], (L, R)
        fs, fd = R.flat_modes()
        assert all(s != 1 for s in fs) or fs == (1,)
        assert all(fs[i] * fd[i] != fd[i + 1] for i in range(len(fs) - 1)), (L, R)
        assert coalesce(R) == R


def _backward_coalesce(fs: tuple, fd: tuple) -> Layout:
    """The reference: the checked path's backward walk (coalesce_ints), an algorithm of its own."""
    n = len(fs) - 1
    return int_layout(*coalesce_ints(fs, fd, n, fs[n], fd[n]))


@pytest.mark.parametrize("sizes,strides", [((1, 2, 3), (0, 1, 2, 3, 6)), ((1, 2, 4), (0, 1, 2, 4, 8, -2))])
def test_coalesce_unrolled_ranks_equal_the_backward_walk_exhaustively(sizes, strides):
    """Every flat layout of ranks 1-4 over these leaves (the unrolled ranks 2-4 and the walk), flat and
    nested once, against coalesce_ints' backward walk: same modes, same cached flat data, and the layout
    itself exactly when it is flat and nothing merges."""
    from itertools import product

    seen = set()
    for n in range(1, 5):
        for fs in product(sizes, repeat=n):
            for fd in product(strides, repeat=n):
                ref = _backward_coalesce(fs, fd)
                for L in (Layout(fs, fd), Layout((fs[:1], fs[1:]), (fd[:1], fd[1:])) if n > 1 else Layout(fs[0], fd[0])):
                    R = coalesce(L)
                    assert (R.shape, R.stride, R.flat_modes()) == (ref.shape, ref.stride, ref.flat_modes()), (L, R, ref)
                    same = L.shape == R.shape and L.stride == R.stride
                    assert same if R is L else not (same and n > 1), (L, R)
                    seen.add((n, len(R.flat_modes()[0])))
    assert {(4, 1), (4, 2), (4, 3), (4, 4), (3, 1), (3, 2), (3, 3), (2, 1), (2, 2)} <= seen


def test_coalesce_walk_beyond_the_unrolled_ranks():
    rng = random.Random(5)
    for _ in range(3000):
        n = rng.randint(5, 8)
        fs = tuple(rng.choice([1, 2, 2, 4]) for _ in range(n))
        fd = [rng.choice([0, 1, 2, 4])]
        for i in range(1, n):  # mostly contiguous chains, so runs of every length occur
            fd.append(fs[i - 1] * fd[-1] if rng.random() < 0.7 else rng.choice([0, 1, 3, 16]))
        fd = tuple(fd)
        ref = _backward_coalesce(fs, fd)
        R = coalesce(Layout(fs, fd))
        assert (R.shape, R.stride, R.flat_modes()) == (ref.shape, ref.stride, ref.flat_modes()), (fs, fd, R, ref)


def test_coalesce_of_a_coalesced_flat_layout_is_itself():
    L = Layout((4, 8), (8, 1))
    assert coalesce(L) is L and str(coalesce(Layout((4, 8), (1, 4)))) == "32:1"


@pytest.mark.parametrize("op,order", [(logical_product, None), (blocked_product, "blocked"), (raked_product, "raked")])
def test_products_match_their_definition(op, order):
    rng = random.Random(2)
    seen = 0
    for _ in range(300):
        A = _random_layout(rng, [1, 2, 4, 8, 16, 32])
        B = _random_layout(rng, [1, 2, 3, 4])
        if order is not None and A.rank() != B.rank():
            continue
        try:
            comp = complement(A, A.size() * B.cosize())
            rest = composition(comp, B)
        except LayoutError:
            continue  # (where complement refuses, CuTe's complement with gaps is used: tests elsewhere)
        seen += 1
        if order is not None and rest.rank() != A.rank():  # a mode of B split by the composition: zipped as a whole
            continue
        R = op(A, B)
        if order is None:
            assert R == make_layout(A, rest), (A, B)
        else:
            first, second = (A, rest) if order == "blocked" else (rest, A)
            modes = [make_layout(first[i], second[i]) for i in range(A.rank())] if A.rank() > 1 else [make_layout(first, second)]
            assert R == make_layout(*modes), (A, B)
    assert seen > 30


def test_divide_by_a_tuple_of_layouts_is_the_per_mode_divide():
    rng = random.Random(3)
    seen = 0
    for _ in range(300):
        A = Layout(*rng.choice([((8, 8), (1, 8)), ((8, 8), (8, 1)), (((2, 4), 8), ((1, 16), 2)), ((4, 6, 2), (6, 1, 24))]))
        k = rng.choice([1, 2])
        tiler = tuple(Layout(rng.choice([2, 4]), rng.choice([1, 2])) for _ in range(k))
        parts = []
        for i, t in enumerate(tiler):
            try:
                parts.append(logical_divide(A[i], t))
            except LayoutError:
                break
        if len(parts) < k:
            with pytest.raises(LayoutError):
                zipped_divide(A, tiler)
            continue
        seen += 1
        rest_s, rest_d = A.shape[k:], A.stride[k:]
        assert logical_divide(A, tiler) == Layout(tuple(p.shape for p in parts) + rest_s,
                                                  tuple(p.stride for p in parts) + rest_d)
        assert zipped_divide(A, tiler) == Layout(
            (tuple(p.shape[0] for p in parts), tuple(p.shape[1] for p in parts) + rest_s),
            (tuple(p.stride[0] for p in parts), tuple(p.stride[1] for p in parts) + rest_d))
    assert seen > 50


def test_right_inverse_post_condition():
    rng = random.Random(4)
    for _ in range(300):
        L = _random_layout(rng, [0, 1, 2, 3, 4, 8, 16, 32])
        try:
            R = right_inverse(L)
        except LayoutError:
            continue
        assert all(L(R(i)) == i for i in range(R.size())), (L, R)


def test_flat_basis_call_equals_the_basis_sum():
    """L(i) of a coordinate layout (E(k) strides, flat profile) takes an int path; it must equal the sum of the
    ScaledBasis terms digit by digit (crd2idx in the basis, then to_coord), the last mode extending past size."""
    from pycute_layouts import E
    from pycute_layouts.core.basis import to_coord
    rng = random.Random(5)
    seen = 0
    for _ in range(600):
        r, k = rng.choice([1, 2, 3]), rng.choice([1, 2, 3])
        s = tuple(rng.choice([1, 2, 3, 4]) for _ in range(r))
        d = tuple(rng.choice([0, rng.choice([1, 2, -1, 3]) * E(rng.randrange(k))]) for _ in range(r))
        try:
            L = Layout(s, d) if r > 1 else Layout(s[0], d[0])
        except LayoutError:
            continue
        if L.coord_profile() is None:
            continue
        seen += 1
        for i in (0, 1, L.size() - 1, L.size(), 2 * L.size() + 1):
            c, acc = i, 0
            for x, y in zip(s[:-1], d[:-1]):
                c, m = divmod(c, x)
                acc = acc + m * y
            acc = acc + c * d[-1]
            assert L(i) == to_coord(acc, L.coord_profile()), (L, i)
    assert seen > 300
