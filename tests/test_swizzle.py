"""Swizzle<B,M,S> and XorSwizzle: laws, CuTe C++ agreement, recognition, inputs, bad parameters.

The C++ oracle (tests/oracles.py) prints ``Swizzle<B,M,S>{}(x)`` for every x below the period of
every swizzle with B <= 3, M <= 6, B <= |S| <= 7 (and the B = 0 identities) from ONE compiled
batch; the test skips cleanly when g++/CuTe headers are absent. docs/swizzles.md's ```python
blocks run here as one doctest session.
"""

from __future__ import annotations

import pickle
import re
from pathlib import Path

import numpy as np
import oracles
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from pycute_layouts import Swizzle, XorSwizzle, parse
from pycute_layouts.core.swizzle import is_swizzle
from pycute_layouts.errors import LayoutError, LayoutTypeError, SwizzleError, SymbolicUndecidable

REPO = Path(__file__).resolve().parents[1]
BUDGET = settings.default.max_examples

# every Swizzle<B,M,S> with B <= 3, M <= 6, B <= |S| <= 7; for B = 0 two shifts (identities)
ALL_SWIZZLES = [
    (b, m, s)
    for b in range(4)
    for m in range(7)
    for s in range(-7, 8)
    if (abs(s) >= b and (b > 0 or s in (0, 3)) and (b == 0 or s != 0))
]


def swizzles() -> st.SearchStrategy[Swizzle]:
    """Valid Swizzle<B,M,S> with B <= 4, M <= 8, B <= |S| <= 8."""
    return (
        st.tuples(st.integers(0, 4), st.integers(0, 8), st.integers(-8, 8))
        .filter(lambda t: abs(t[2]) >= t[0])
        .map(lambda t: Swizzle(*t))
    )


def _brute_compose(a, b, n):
    return [a(b(x)) for x in range(1 << n)]


# ------------------------------------------------------------------------------------------
# agreement with CuTe C++


_SW_PREAMBLE = r"""
template <int B, int M, int S>
std::string oracle_sw_values(long n) {
  Swizzle<B,M,S> sw;
  std::ostringstream os;
  for (long x = 0; x < n; ++x) { if (x) { os << ' '; } os << sw(x); }
  return os.str();
}
"""


@pytest.fixture(scope="module")
def cute_swizzle_values():
    """{(B,M,S): values of Swizzle<B,M,S>{}(x) for x in [0, period)} from one compiled batch."""
    oracles.skip_without_cxx()
    batch = oracles.CuteBatch(preamble=_SW_PREAMBLE, chunk_size=len(ALL_SWIZZLES) + 8)
    idx = {}
    for b, m, s in ALL_SWIZZLES:
        period = max(Swizzle(b, m, s).period, 1 << (m + 1))
        idx[(b, m, s)] = (batch.add(f"oracle_sw_values<{b},{m},{s}>({period})"), period)
    printed = {k: batch.add(f"Swizzle<{k[0]},{k[1]},{k[2]}>{{}}") for k in [(3, 4, 3), (1, 4, 3), (2, 0, -3)]}
    out = batch.run()
    vals = {}
    for key, (i, _period) in idx.items():
        r = out[i]
        if isinstance(r, oracles.OracleError):
            pytest.fail(f"CuTe rejected Swizzle<{key}>: {r}")
        vals[key] = np.array(oracles.parse_values(r), dtype=np.int64)
    return vals, {k: out[i] for k, i in printed.items()}


@pytest.mark.oracle
def test_every_small_swizzle_agrees_with_cute_below_its_period(cute_swizzle_values):
    vals, _ = cute_swizzle_values
    bad = []
    for (b, m, s), ref in vals.items():
        ours = Swizzle(b, m, s)(np.arange(ref.size, dtype=np.int64))
        if not np.array_equal(ours, ref):
            x = int(np.flatnonzero(ours != ref)[0])
            bad.append(f"Sw<{b},{m},{s}>({x}): ours {int(ours[x])}, CuTe {int(ref[x])}")
    assert not bad, bad[:10]
    assert len(vals) == len(ALL_SWIZZLES) == 266
    assert sum(v.size for v in vals.values()) > 500_000  # every input below every period


@pytest.mark.oracle
def test_swizzles_print_like_cute(cute_swizzle_values):
    _, printed = cute_swizzle_values
    for (b, m, s), text in printed.items():
        assert str(Swizzle(b, m, s)) == oracles.normalize(text)
        assert parse(oracles.normalize(text)) == Swizzle(b, m, s)


# ------------------------------------------------------------------------------------------
# laws


@settings(max_examples=BUDGET)
@given(swizzles(), st.integers(0, 1 << 20))
def test_involution(sw, x):
    assert sw(sw(x)) == x
    assert sw.inverse() is sw


@settings(max_examples=max(20, BUDGET // 4))
@given(swizzles())
def test_bijective_on_its_period_and_only_zzz_bits_change(sw):
    p = sw.period
    xs = np.arange(max(p, 1), dtype=np.int64)
    ys = sw(xs)
    assert np.array_equal(np.sort(ys), xs)  # a permutation of [0, period)
    assert not np.any((ys ^ xs) & ~sw.zzz_mask)  # only the target (zzz) bits change
    assert sw.yyy_mask & sw.zzz_mask == 0  # |S| >= B: the fields never overlap


@settings(max_examples=BUDGET)
@given(swizzles(), st.integers(0, 1 << 16), st.integers(0, 64))
def test_period_property(sw, x, k):
    p = sw.period
    assert sw(x + k * p) == sw(x) + k * p
    # and the period is the smallest power of two with that property
    if p > 1:
        half = p // 2
        assert any(sw(y + half) != sw(y) + half for y in range(p))


@pytest.mark.parametrize("m,s", [(0, 0), (4, 3), (0, -5), (7, 2)])
def test_zero_bits_is_the_identity(m, s):
    sw = Swizzle(0, m, s)
    assert sw.is_identity()
    assert sw == Swizzle(0, 0, 0) and hash(sw) == hash(Swizzle(0, 0, 0))
    assert [sw(x) for x in (0, 1, 12345, 2**40 + 7)] == [0, 1, 12345, 2**40 + 7]
    assert sw.period == 1
    assert sw.to_xor().is_identity()


@pytest.mark.oracle
def test_pycute_zero_swizzle_recurses_forever_ours_does_not():
    """The documented difference: pycute's shiftr(a, 0) and shiftl(a, 0) call each other."""
    pycute = oracles.skip_without_pycute()
    with pytest.raises(RecursionError):
        pycute.Swizzle(0, 0, 0)(5)
    assert Swizzle(0, 0, 0)(5) == 5


@pytest.mark.oracle
@settings(max_examples=max(20, BUDGET // 4))
@given(st.integers(1, 3), st.integers(0, 6), st.integers(1, 7), st.booleans())
def test_agrees_with_pycute(b, m, s, neg):
    pycute = oracles.skip_without_pycute()
    s = max(s, b) * (-1 if neg else 1)
    ours, theirs = Swizzle(b, m, s), pycute.Swizzle(b, m, s)
    for x in range(min(ours.period, 4096)):
        assert ours(x) == theirs(x)


def test_masks_and_properties():
    sw = Swizzle(3, 4, 3)
    assert (sw.bits, sw.base, sw.shift) == (3, 4, 3)
    assert (sw.yyy_mask, sw.zzz_mask, sw.period) == (0b1110000000, 0b1110000, 1024)
    neg = Swizzle(2, 1, -3)  # negative shift: yyy at M, zzz at M + |S|, XOR shifted left
    assert (neg.yyy_mask, neg.zzz_mask) == (0b110, 0b110000)
    assert neg(0b110) == 0b110110
    assert neg.to_xor().pairs == ((1, 4), (2, 5))


# ------------------------------------------------------------------------------------------
# XorSwizzle


def xor_pairs(max_bit: int = 8) -> st.SearchStrategy[list[tuple[int, int]]]:
    return st.lists(
        st.tuples(st.integers(0, max_bit - 1), st.integers(0, max_bit - 1)).filter(lambda p: p[0] != p[1]),
        max_size=6,
    )


def _matrix_of(values: list[int], n: int) -> list[list[int]]:
    """The F2 matrix of a linear map from its values (column j is the image of bit j)."""
    return [[values[1 << j] >> t & 1 for j in range(n)] for t in range(n)]


@settings(max_examples=BUDGET)
@given(xor_pairs(), xor_pairs())
def test_xor_composition_against_brute_force(pa, pb):
    a, b = XorSwizzle(pa), XorSwizzle(pb)
    c = a.compose(b)
    n = max(a.nbits, b.nbits, 1)
    brute = _brute_compose(a, b, n)
    m = c.matrix() if c.nbits else []
    pad = [[int(r == q) for q in range(n)] for r in range(n)]
    for t, row in enumerate(m):
        pad[t][: len(row)] = row
    assert pad == _matrix_of(brute, n)  # the composed matrix is right ...
    assert [c(x) for x in range(1 << n)] == brute  # ... and so is its evaluation, diagonal bits or not
    assert c((1 << 40) + 3) == (1 << 40) + c(3)  # bits above nbits pass through


def test_xor_composition_without_diagonal_bits():
    a, b = XorSwizzle([(0, 1)]), XorSwizzle([(1, 0)])
    c = a.compose(b)
    assert c.matrix() == [[1, 1], [1, 0]]  # correct: out0 = x0^x1, out1 = x0
    assert [c(x) for x in range(4)] == [a(b(x)) for x in range(4)] == [0, 3, 1, 2]


def test_xor_from_matrix_bit_swap():
    swap = XorSwizzle.from_matrix([[0, 1], [1, 0]])
    assert [swap(x) for x in range(4)] == [0, 2, 1, 3]


def test_xor_pair_with_equal_bits_is_rejected():
    with pytest.raises(SwizzleError, match=r"pair \(3, 3\) XORs a bit into itself"):
        XorSwizzle([(3, 3)])


@settings(max_examples=BUDGET)
@given(xor_pairs())
def test_xor_invertibility_matches_brute_force(pairs):
    f = XorSwizzle(pairs)
    n = max(f.nbits, 1)
    img = {f(x) for x in range(1 << n)}
    assert f.is_invertible() == (len(img) == 1 << n)
    if f.is_invertible():
        inv = f.inverse()
        assert all(inv(f(x)) == x and f(inv(x)) == x for x in range(1 << n))
        assert f.compose(inv).is_identity()
    else:
        with pytest.raises(SwizzleError, match="not invertible"):
            f.inverse()


@settings(max_examples=BUDGET)
@given(xor_pairs())
def test_matrix_round_trip(pairs):
    f = XorSwizzle(pairs)
    m = f.matrix()
    g = XorSwizzle.from_matrix(m)
    assert g == f and hash(g) == hash(f) and g.matrix() == m
    assert XorSwizzle(f.pairs) == f
    n = len(m)
    for x in range(1 << n):  # out_bit[t] = XOR_j A[t][j] in_bit[j]
        out = sum((sum(m[t][j] * (x >> j & 1) for j in range(n)) & 1) << t for t in range(n))
        assert f(x) == out


@settings(max_examples=BUDGET)
@given(swizzles())
def test_to_swizzle_recognises_every_single_swizzle(sw):
    x = sw.to_xor()
    assert x == sw  # cross-type equality
    back = x.to_swizzle()
    assert back == sw
    assert all(back(v) == sw(v) for v in range(min(sw.period, 1 << 12)))


@settings(max_examples=BUDGET)
@given(xor_pairs(10))
def test_to_swizzle_is_exact_or_refuses(pairs):
    f = XorSwizzle(pairs)
    try:
        sw = f.to_swizzle()
    except SwizzleError as e:
        assert "is not a single Swizzle<B,M,S>" in str(e)
        return
    n = max(f.nbits, 1)
    assert all(sw(x) == f(x) for x in range(1 << n))


def test_to_swizzle_examples():
    assert XorSwizzle([(7, 4), (8, 5), (9, 6)]).to_swizzle() == Swizzle(3, 4, 3)
    assert XorSwizzle([(4, 7)]).to_swizzle() == Swizzle(1, 4, -3)
    assert XorSwizzle([]).to_swizzle() == Swizzle(0, 0, 0)
    with pytest.raises(SwizzleError, match=r"XOR pairs \(\(7, 3\), \(7, 5\), \(8, 6\)\) is not a single"):
        XorSwizzle([(7, 5), (8, 6), (7, 3)]).to_swizzle()  # TMA 128B_ATOM_32B_FLIP_8B
    with pytest.raises(SwizzleError, match="not a single"):
        XorSwizzle([(7, 4), (9, 5)]).to_swizzle()  # sources not contiguous
    with pytest.raises(SwizzleError, match="not a single"):
        XorSwizzle([(1, 0), (2, 1)]).to_swizzle()  # |S| < B: fields overlap


def test_swizzle_compose_gives_xor_maps():
    a, b = Swizzle(3, 4, 3), Swizzle(1, 4, 3)
    c = a.compose(b)
    assert isinstance(c, XorSwizzle)
    assert all(c(x) == a(b(x)) for x in range(2048))
    assert a.compose(a).is_identity()


# ------------------------------------------------------------------------------------------
# inputs


@pytest.mark.parametrize("dtype", [np.int16, np.int32, np.int64, np.uint16, np.uint32])
def test_numpy_arrays(dtype):
    sw = Swizzle(3, 4, 3)
    xs = np.arange(1024).astype(dtype)
    ys = sw(xs)
    assert ys.dtype == np.int64
    assert ys.tolist() == [sw(int(x)) for x in range(1024)]
    assert XorSwizzle([(7, 4)])(xs).tolist() == [XorSwizzle([(7, 4)])(int(x)) for x in range(1024)]
    assert sw(xs.reshape(32, 32)).shape == (32, 32)


def test_scalar_inputs():
    sw = Swizzle(3, 4, 3)
    assert sw(np.int32(144)) == 128 and type(sw(np.int32(144))) is int
    r = sw(sympy.Integer(144))
    assert r == 128 and isinstance(r, sympy.Integer)
    assert isinstance(XorSwizzle([(7, 4)])(sympy.Integer(128)), sympy.Integer)
    assert sw(2**70 + 144) == 2**70 + 128  # Python ints of any size


@pytest.mark.parametrize(
    "x,err,msg",
    [
        (True, LayoutTypeError, "got bool True"),
        (1.5, LayoutTypeError, "address must be an int"),
        ("144", LayoutTypeError, "address must be an int"),
        (np.arange(4, dtype=np.float32), LayoutTypeError, "integer dtype, got float32"),
        (sympy.Symbol("m", integer=True), SymbolicUndecidable, "symbolic address m"),
    ],
)
def test_bad_inputs(x, err, msg):
    with pytest.raises(err, match=re.escape(msg)):
        Swizzle(3, 4, 3)(x)


# ------------------------------------------------------------------------------------------
# bad parameters


@pytest.mark.parametrize(
    "args,msg",
    [
        ((-1, 4, 3), "B (number of bits) must be in [0, 62], got -1"),
        ((3, -1, 3), "M (base) must be in [0, 62], got -1"),
        ((3, 4, 2), "|S| >= B is required so that the XOR-ed bit fields do not overlap (|S| = 2 < B = 3)"),
        ((3, 4, -2), "(|S| = 2 < B = 3)"),
        ((2, 4, 0), "(|S| = 0 < B = 2)"),
        ((3.0, 4, 3), "B (number of bits) must be an integer, got 3.0"),
        ((True, 4, 3), "must be an integer, got True"),
        ((3, "4", 3), "M (base) must be an integer, got '4'"),
        ((3, 4, 63), "S (shift) must be in [-62, 62], got 63"),
        ((63, 0, 63), "B (number of bits) must be in [0, 62], got 63"),
    ],
)
def test_bad_swizzle_parameters(args, msg):
    with pytest.raises(SwizzleError, match=re.escape(msg)):
        Swizzle(*args)


@pytest.mark.parametrize(
    "build,msg",
    [
        (lambda: XorSwizzle([(7,)]), "each pair must be (source_bit, target_bit)"),
        (lambda: XorSwizzle([(7, 63)]), "bit positions must be integers in [0, 63)"),
        (lambda: XorSwizzle([(-1, 3)]), "bit positions must be integers in [0, 63)"),
        (lambda: XorSwizzle(5), "pairs must be a sequence"),
        (lambda: XorSwizzle.from_matrix([[1, 0], [0]]), "row 1 has 1 entries, expected 2"),
        (lambda: XorSwizzle.from_matrix([[1, 2], [0, 1]]), "entries must be 0 or 1, got 2 at (0,1)"),
        (lambda: XorSwizzle.from_matrix(7), "expected a square 0/1 matrix"),
        (lambda: XorSwizzle([(0, 1), (1, 0)]).inverse(), "is not invertible (singular over F2)"),
        (lambda: XorSwizzle([(7, 4)]).compose(3), "expected a Swizzle or XorSwizzle, got 3"),
    ],
)
def test_bad_xor_swizzles(build, msg):
    with pytest.raises(LayoutError, match=re.escape(msg)):
        build()


def test_immutable_hashable_picklable():
    sw = Swizzle(2, 4, 3)
    with pytest.raises(AttributeError):
        sw.bits = 3
    assert pickle.loads(pickle.dumps(sw)) == sw
    x = XorSwizzle([(7, 5), (8, 6), (7, 3)])
    assert pickle.loads(pickle.dumps(x)) == x
    assert len({sw, Swizzle(2, 4, 3)}) == 1
    assert is_swizzle(sw) and is_swizzle(x) and not is_swizzle(3)
    assert repr(sw) == "Swizzle(2, 4, 3)" and str(x) == "Xor<7->3,7->5,8->6>"


def test_equal_swizzles_hash_equal_across_types():
    sw = Swizzle(2, 4, 3)
    assert sw == sw.to_xor()
    assert hash(sw) == hash(sw.to_xor())


# ------------------------------------------------------------------------------------------
# docs/swizzles.md


