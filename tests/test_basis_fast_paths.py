"""The basis-stride fast paths against the general path they stand in for.

``composition(A, B)`` with A's strides basis elements (CuTe's ``E<i>``, ``v@i``) and an integer B, and
``logical_divide``/``zipped_divide`` of such an A by integer tilers, run the integer walks on integer
surrogates of A's strides (``algebra.basis_surrogates``: one slot of ``2**b`` per basis path) and decode
the results (``algebra.decode_surrogate``). Every test here computes each case twice, once as the
package does and once with the surrogate paths switched off (``general_paths``: the general walk on the
ScaledBasis objects, which was the only path before), and requires the same outcome: the same text, the
same nesting, the same leaf types and values, the same coordinate profile -- or the same LayoutError
subclass with the same message. Each sweep also counts the cases the surrogate path actually answered,
so that a sweep whose cases all fell back cannot pass vacuously.
"""

from __future__ import annotations

import contextlib
import random

import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from pycute_layouts import (
    F2,
    E,
    Layout,
    LayoutError,
    ScaledBasis,
    composition,
    flatten,
    local_tile,
    logical_divide,
    make_identity_layout,
    make_identity_tensor,
    zipped_divide,
)
from pycute_layouts.arch.atoms_mma import sm80_layouts
from pycute_layouts.core import algebra, tiling
from pycute_layouts.core.algebra import basis_surrogates, decode_surrogate
from pycute_layouts.core.inttuple import unflatten
from pycute_layouts.core.layout import _

SHAPES = [1, 2, 3, 4, 8, (2, 2), (2, 3), (1, 4), (4, 1), ((2, 2), 3), (2, 4), (3, 2, 2), (8, 8), (4, (2, 2)),
          (2, 1, 2), ((1, 2), (2, 1)), (8, 16), (4, 8), ((2, 4), (2, 2)), (2, (3, 2), 2)]
#: basis paths that can share one codomain (E(0) with E(0, 1) cannot: component 0 is a leaf or a tuple)
PATH_SETS = [((0,), (1,)), ((0,), (1,), (2,)), ((0, 0), (0, 1), (1,)), ((0,), (1, 0), (1, 1)), ((1,),), ((2,), (0,))]
COEFS = [1, 1, 1, 1, 2, 3, 4, 8, -1, -3, 0]
B_SHAPES = [1, 2, 3, 4, 8, 16, (2, 2), (4, 4), (2, 8), (8, 2), (2, 3), (4, 2), ((2, 2), 2), (2, (2, 2)), (1, 4), (3, 1)]
B_STRIDES = [0, 1, 1, 2, 3, 4, 8, 16, 32, -1, -2, 5]


@contextlib.contextmanager
def general_paths():
    """Switch the surrogate paths off: every case then takes the general walk on the ScaledBasis objects."""
    saved = (algebra.compose_basis_ints, tiling.compose_basis_ints, tiling.basis_surrogates)

    def off(*args):
        return None

    algebra.compose_basis_ints = tiling.compose_basis_ints = tiling.basis_surrogates = off
    try:
        yield
    finally:
        algebra.compose_basis_ints, tiling.compose_basis_ints, tiling.basis_surrogates = saved


@contextlib.contextmanager
def counting(hits: list):
    """Count (in ``hits[0]``) the calls of the surrogate composition that answered (not None)."""
    real = algebra.compose_basis_ints

    def counted(*args):
        res = real(*args)
        hits[0] += res is not None
        return res

    algebra.compose_basis_ints = tiling.compose_basis_ints = counted
    try:
        yield
    finally:
        algebra.compose_basis_ints = tiling.compose_basis_ints = real


def _tree(x):
    """Nesting, leaf types and values: what str() would hide (an int 1 against a 1@0, a sympy 2 against 2)."""
    if type(x) is tuple:
        return ("tuple", tuple(_tree(y) for y in x))
    if type(x) is ScaledBasis:
        return ("basis", tuple((p, type(c).__name__, c) for p, c in x.terms))
    return (type(x).__name__, str(x))


def _outcome(fn, *args):
    try:
        r = fn(*args)
    except LayoutError as e:
        return ("error", type(e).__name__, str(e))
    return ("ok", str(r), _tree(r.shape), _tree(r.stride), r.coord_profile(), r.depth(), r.rank())


def check_same(fn, *args):
    """The outcome of ``fn(*args)``, asserted equal with the general path's."""
    fast = _outcome(fn, *args)
    with general_paths():
        slow = _outcome(fn, *args)
    assert fast == slow, (fn.__name__, [str(a) for a in args])
    return fast


def _basis_layout(rng: random.Random) -> Layout:
    shape = rng.choice(SHAPES)
    paths = rng.choice(PATH_SETS)
    leaves = []
    for _leaf in flatten(shape):
        c = rng.choice(COEFS)
        leaves.append(c * E(*rng.choice(paths)) if c else 0)
    if not any(type(x) is ScaledBasis for x in leaves):
        leaves[0] = E(*paths[0])
    return Layout(shape, unflatten(tuple(leaves), shape) if isinstance(shape, tuple) else leaves[0])


def _merging_layout(rng: random.Random) -> Layout:
    """A layout with basis strides whose modes coalesce in runs (``s_i * d_i == d_{i+1}`` on one path), as an
    identity layout folded into more modes is: coalesce's merges and the divides' cotargets are exercised."""
    shape = rng.choice(SHAPES)
    paths = rng.choice(PATH_SETS)
    leaves: list = []
    prev = None
    for s in flatten(shape):
        if prev is not None and rng.random() < 0.7:
            d = prev[0] * prev[1]
        else:
            d = rng.choice([1, 1, 2, 3, -1]) * E(*rng.choice(paths))
        leaves.append(d)
        prev = (s, d)
    return Layout(shape, unflatten(tuple(leaves), shape) if isinstance(shape, tuple) else leaves[0])


def _int_layout(rng: random.Random) -> Layout:
    shape = rng.choice(B_SHAPES)
    d = tuple(rng.choice(B_STRIDES) for _leaf in flatten(shape))
    return Layout(shape, unflatten(d, shape) if isinstance(shape, tuple) else d[0])


def _tiler(rng: random.Random, rank: int):
    """A by-mode tiler: a tuple of layouts, ints and ``_`` (at most ``rank`` entries)."""
    k = rng.randint(1, max(1, rank))
    return tuple(rng.choice([_int_layout(rng), rng.choice([1, 2, 4, 3, 6]), _, Layout(4, 1), Layout(2, 2), Layout(3, 1)])
                 for _i in range(k))


# ------------------------------------------------------------------------------------------------
# the pieces: the fast int scale of ScaledBasis, the surrogates' encoding and decoding


@pytest.mark.parametrize("coef", [1, 2, -3, 7, 10**63 - 1, -(10**63) + 1])
@pytest.mark.parametrize("k", [1, -1, 2, 5, 0, 10**40])
def test_int_scale_is_the_checked_scale(coef, k):
    for b in (ScaledBasis(((1,), coef)), ScaledBasis(((0, 1), coef)), ScaledBasis(((0,), coef), ((1,), 2))):
        want = _outcome_value(ScaledBasis.of, {p: c * k for p, c in b.terms})
        assert _outcome_value(b.__mul__, k) == want
        assert _outcome_value(b.__rmul__, k) == want


def _outcome_value(fn, arg):
    try:
        return ("ok", _tree(fn(arg)))
    except LayoutError as e:
        return ("error", type(e).__name__, str(e))


def test_surrogates_decode_every_product_and_decide_every_merge():
    rng = random.Random(1)
    keys_pool = [(0,), (1,), (2,), (1, 0), (0, 3), None]
    for _case in range(400):
        n = rng.randint(1, 4)
        fd = []
        for _i in range(n):
            key = rng.choice(keys_pool)
            c = rng.choice([1, 2, 3, 5, 8, 64, -1, -7, 0, 10**8])
            fd.append(c if key is None else (ScaledBasis((key, c)) if c else 0))
        fs = tuple(rng.choice([1, 2, 3, 4, 16]) for _i in range(n))
        bmax = rng.choice([1, 2, 16, 1000])
        sur, b, keys = basis_surrogates(fs, tuple(fd), bmax)
        for i, d in enumerate(fd):
            for m in range(-bmax, bmax + 1, max(1, bmax // 7)):
                assert decode_surrogate(m * sur[i], b, keys) == m * d
            for j, e in enumerate(fd):  # coalesce's merge test s*d == d'
                assert (fs[i] * sur[i] == sur[j]) == (fs[i] * d == e)


def test_surrogates_refuse_what_they_cannot_stand_for():
    assert basis_surrogates((4, 8), (E(0) + E(1), E(1)), 8) is None  # a sum of basis elements
    assert basis_surrogates((4, 8), (F2(3) * E(0), E(1)), 8) is None  # an F2 coefficient
    assert basis_surrogates((4, 8), (sympy.Symbol("x") * E(0), E(1)), 8) is None  # a sympy coefficient
    assert basis_surrogates((4, sympy.Symbol("n")), (E(0), E(1)), 8) is None  # a symbolic shape
    assert basis_surrogates((4, 0), (E(0), E(1)), 8) is None  # a zero extent
    assert basis_surrogates((4, 8), (10**60 * E(0), E(1)), 8) is None  # products wider than 200 bits
    assert basis_surrogates((4, 8), (E(0), E(1)), 2**200) is None
    assert basis_surrogates((4, 8), (E(0), 3 * E(1)), 8) == ([1, 3 << 5], 5, [(0,), (1,)])


# ------------------------------------------------------------------------------------------------
# composition, logical_divide, zipped_divide: sweeps against the general path


def test_composition_sweep_matches_the_general_path():
    rng = random.Random(2)
    hits = [0]
    kinds = {"ok": 0, "error": 0}
    with counting(hits):
        for _case in range(2500):
            a = _basis_layout(rng) if rng.random() < 0.6 else _merging_layout(rng)
            b = _int_layout(rng) if rng.random() < 0.8 else rng.choice([2, 4, 8, 3, 16])
            kinds[check_same(composition, a, b)[0]] += 1
    assert hits[0] > 1000 and kinds["ok"] > 1000 and kinds["error"] > 200, (hits, kinds)


def test_by_mode_composition_and_divides_match_the_general_path():
    rng = random.Random(3)
    hits = [0]
    kinds = {"ok": 0, "error": 0}
    with counting(hits):
        for _case in range(700):
            a = _basis_layout(rng) if rng.random() < 0.5 else _merging_layout(rng)
            tiler = _tiler(rng, a.rank())
            for fn in (composition, logical_divide, zipped_divide):
                kinds[check_same(fn, a, tiler)[0]] += 1
            t = rng.choice([_int_layout(rng), Layout(4, 1), Layout(2, 2), Layout((2, 2), (1, 4)), 4, 2, Layout(3, 1),
                            Layout(6, 1), Layout(3, 2), Layout((3, 2), (1, 3)), 3, 5])
            for fn in (logical_divide, zipped_divide):
                kinds[check_same(fn, a, t)[0]] += 1
    assert hits[0] > 800 and kinds["ok"] > 1000 and kinds["error"] > 200, (hits, kinds)


def test_divides_of_merging_modes_use_the_coalesced_cotarget():
    """complement(tiler, shape(coalesce(A))): (4,8):(1@0,4@0) coalesces to 32:1@0, so a tiler 3:1 leaves 11, not 2*4."""
    a = Layout((4, 8), (E(0), 4 * E(0)))
    assert check_same(logical_divide, a, Layout(3, 1))[1] == "(3,11):(1@0,3@0)"
    assert check_same(zipped_divide, Layout(((4, 8), 2), ((E(0), 4 * E(0)), E(1))), (3, 2))[1] == \
        "((3,2),(11,1)):((1@0,1@1),(3@0,0))"


def test_int_strides_mixed_in():
    """0 strides (any layout) and nonzero int strides beside basis ones (built inside the package only)."""
    rng = random.Random(4)
    hits = [0]
    with counting(hits):
        for _case in range(300):
            shape = rng.choice([(4, 8), (2, 2, 4), ((2, 2), 4), (8, 16)])
            leaves = [rng.choice([E(0), 2 * E(1), E(1), 0, 0, 1, 4, -2]) for _leaf in flatten(shape)]
            a = Layout.from_normalized(shape, unflatten(tuple(leaves), shape))
            b = _int_layout(rng)
            check_same(composition, a, b)
            check_same(logical_divide, a, b)
            check_same(zipped_divide, a, (b,))
    assert hits[0] > 100, hits


@pytest.mark.parametrize("a", [
    Layout((4, 8), (E(0) + E(1), E(1))),
    Layout((4, 8), (F2(1) * E(0), F2(4) * E(1))),
    Layout((4, 8), (sympy.Symbol("x", positive=True, integer=True) * E(0), E(1))),
    Layout((4, 8), (10**60 * E(0), E(1))),
    Layout((2**100, 8), (2**120 * E(0), E(1))),
    Layout((4, 0), (E(0), E(1))),
])
@pytest.mark.parametrize("b", [Layout(4, 1), Layout((2, 4), (1, 8)), Layout(4, 2), Layout(3, 1), Layout(2, 0)])
def test_what_the_surrogates_refuse_takes_the_general_path(a, b):
    hits = [0]
    with counting(hits):
        check_same(composition, a, b)
        check_same(logical_divide, a, b)
    assert hits[0] == 0
    check_same(zipped_divide, a, (b,))  # (by mode: mode 0 of (4,0):(1@0,1@1) has no zero extent)


def test_huge_coefficients_stay_below_the_bound_or_fall_back():
    big = 10**63
    for a in (Layout((4, 8), (big * E(0), E(1))), Layout((4, 8), (E(0), -big * E(1)))):
        for b in (Layout(4, 1), Layout((2, 2), (1, 16)), Layout(8, 4), Layout(2, 2**150)):
            check_same(composition, a, b)


@given(st.data())
def test_composition_property(data):
    seed = data.draw(st.integers(0, 2**32 - 1))
    rng = random.Random(seed)
    a = _basis_layout(rng) if data.draw(st.booleans()) else _merging_layout(rng)
    b = _int_layout(rng)
    check_same(composition, a, b)
    check_same(logical_divide, a, b)
    check_same(zipped_divide, a, _tiler(rng, a.rank()))


# ------------------------------------------------------------------------------------------------
# CuTe's uses: identity (coordinate) layouts and tensors, TV layouts of MMA atoms


def test_identity_layout_values_by_hand():
    ident = make_identity_layout((4, 8))
    r = check_same(composition, ident, Layout((2, 4), (1, 8)))
    assert r[1] == "(2,4):(1@0,2@1)"  # offset 8 is the coordinate (0, 2)
    r = check_same(zipped_divide, make_identity_layout((8, 16)), (Layout(4, 1), Layout(4, 1)))
    assert r[1] == "((4,4),(2,4)):((1@0,1@1),(4@0,4@1))"
    r = check_same(logical_divide, make_identity_layout((8, 16)), (Layout(2, 4), 8))
    assert r[1] == "((2,4),(8,2)):((4@0,1@0),(1@1,8@1))"
    r = check_same(composition, make_identity_layout(((2, 3), 4)), Layout((3, 4), (2, 6)))
    assert r[1] == "(3,4):(1@1@0,1@1)"


@pytest.mark.parametrize("mnk", [(16, 8, 16), (16, 8, 8), (16, 8, 32)])
def test_tv_layouts_of_mma_atoms_through_identity_layouts(mnk):
    """CuTe's print_latex of an MMA: ``composition(make_identity_layout((M, K)), tv_layout_A)``, ..."""
    m, n, k = mnk
    la, lb, lc = sm80_layouts(m, n, k, 16 if k <= 16 else 8)
    hits = [0]
    with counting(hits):
        for shape, tv in (((m, k), la), ((n, k), lb), ((m, n), lc)):
            ident = make_identity_layout(shape)
            r = check_same(composition, ident, tv)
            assert r[0] == "ok"
            got = composition(ident, tv)
            assert [got(i) for i in range(tv.size())] == [ident(tv(i)) for i in range(tv.size())]
    assert hits[0] == 6  # (each composition twice: check_same, then got)


def test_local_tile_of_an_identity_tensor():
    c = make_identity_tensor((128, 64))
    for tiler, coord in (((32, 16), (1, 2)), ((Layout(64, 1), Layout(8, 1)), (1, 7)), ((16, 64), (7, 0))):
        t = local_tile(c, tiler, coord)
        with general_paths():
            want = local_tile(c, tiler, coord)
        assert str(t) == str(want) and list(t) == list(want)
    assert local_tile(c, (32, 16), (1, 2))(0) == (32, 32)


@pytest.mark.parametrize("shape", [(64, 32), (128, 64, 2), ((8, 8), 64), (3, 5)])
def test_identity_zipped_divide_covers_every_coordinate_once(shape):
    ident = make_identity_layout(shape)
    tiler = tuple(Layout(2 if isinstance(s, int) and s % 2 == 0 else 1, 1) for s in shape)
    r = zipped_divide(ident, tiler)
    check_same(zipped_divide, ident, tiler)
    seen = {r(i) for i in range(r.size())}
    assert len(seen) == ident.size() == r.size()
