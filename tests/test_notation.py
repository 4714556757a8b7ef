"""CuTe notation: print/parse round trips, the PTX wgmma canonical-layout table, parse errors.

The canonical layouts and the worked examples are restated from reference 003 (PTX ISA
9.7.15.5.1.2.1.3, "Canonical Layouts" and "Examples"); when shared/reference is beside the
repository the strings are also checked to appear there verbatim. LBO and SBO are given in the
examples as ``N*sizeof(T)`` bytes; in the layouts they are the element counts ``N``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from pycute_layouts import ComposedLayout, Layout, Swizzle, parse
from pycute_layouts.core.notation import parse_inttuple, parse_layout
from pycute_layouts.core.symbols import symbol
from pycute_layouts.errors import LayoutError, NotationError, SwizzleError

REPO = Path(__file__).resolve().parents[1]
BUDGET = settings.default.max_examples

# Table "Canonical Layouts": (major-ness, swizzling mode, canonical layout, swizzle on the previous column)
CANONICAL = [
    ("MN", "none", "((T,1,m),(8,k)):((1,T,SBO),(1T,LBO))", "Swizzle<0, 4, 3>"),
    ("MN", "32B", "((T,2,m),(8,k)):((1,T,LBO),(2T,SBO))", "Swizzle<1, 4, 3>"),
    ("MN", "64B", "((T,4,m),(8,k)):((1,T,LBO),(4T,SBO))", "Swizzle<2, 4, 3>"),
    ("MN", "128B", "((T,8,m),(8,k)):((1,T,LBO),(8T,SBO))", "Swizzle<3, 4, 3>"),
    ("K", "none", "((8,m),(T,2k)):((1T,SBO),(1,LBO))", "Swizzle<0, 4, 3>"),
    ("K", "32B", "((8,m),(T,2k)):((2T,SBO),(1,T))", "Swizzle<1, 4, 3>"),
    ("K", "64B", "((8,m),(T,2k)):((4T,SBO),(1,T))", "Swizzle<2, 4, 3>"),
    ("K", "128B", "((8,m),(T,2k)):((8T,SBO),(1,T))", "Swizzle<3, 4, 3>"),
]

# The worked examples: (exact layout, canonical layout, element type, T, m, k, LBO, SBO, LBO enc, SBO enc);
# LBO/SBO in elements (the reference writes "64*sizeof(tf32)" bytes), None where it says NA.
EXAMPLES = [
    ("Swizzle<0,4,3> o ((8,2),(4,4)):((4,32),(1,64))",
     "Swizzle<0,4,3> o ((8,m),(T,2k)):((1T,SBO),(1,LBO))", "tf32", 4, 2, 2, 64, 32, 16, 8),
    ("Swizzle<1,4,3> o ((8,2),(4,4)):((8,64),(1,4))",
     "Swizzle<1,4,3> o ((8,m),(T,2k)):((2T,SBO),(1,T))", "tf32", 4, 2, 2, None, 64, 1, 16),
    ("Swizzle<0,4,3> o ((8,1,2),(8,2)):((1,8,64),(8,128))",
     "Swizzle<0,4,3> o ((T,1,m),(8,k)):((1,T,SBO),(1T,LBO))", "bf16", 8, 2, 2, 128, 64, 16, 8),
    ("Swizzle<1,4,3> o ((8,2,2),(8,2)):((1,8,128),(16,256))",
     "Swizzle<1,4,3> o ((T,2,m),(8,k)):((1,T,LBO),(2T,SBO))", "bf16", 8, 2, 2, 128, 256, 16, 32),
    ("Swizzle<2,4,3> o ((8,4,2),(8,2)):((1,8,256),(32,512))",
     "Swizzle<2,4,3> o ((T,4,m),(8,k)):((1,T,LBO),(4T,SBO))", "bf16", 8, 2, 2, 256, 512, 32, 64),
]  # fmt: skip
SIZEOF = {"tf32": 4, "bf16": 2}


def _reference_003() -> str | None:
    for base in (REPO.parent / "shared", REPO / "shared", Path("/work/shared")):
        hits = sorted((base / "reference").glob("003_*.txt"))
        if hits:
            return hits[0].read_text()
    return None


def test_restated_table_and_examples_appear_in_the_reference():
    text = _reference_003()
    if text is None:
        pytest.skip("shared/reference is not beside the repository")
    for _major, _mode, canon, sw in CANONICAL:
        assert re.search(re.escape(f"| {canon} |") + r"\s*" + re.escape(f"{sw} |"), text), canon
    for exact, canon, *_ in EXAMPLES:
        assert f"Exact layout : {exact}" in text
        assert f"Canonical Layout :{canon}" in text


@pytest.mark.parametrize("major,mode,canon,sw", CANONICAL, ids=[f"{c[0]}-{c[1]}" for c in CANONICAL])
def test_every_canonical_layout_parses(major, mode, canon, sw):
    L = parse(canon)
    T, m, k, SBO, LBO = (symbol(s) for s in ("T", "m", "k", "SBO", "LBO"))
    assert isinstance(L, Layout) and L.is_symbolic()
    assert L.free_symbols() <= {T, m, k, SBO, LBO}
    assert parse(str(L)) == L
    B = int(sw.split("<")[1].split(",")[0])
    C = parse(f"{sw.replace(' ', '')} o {canon}")
    assert C == ComposedLayout(Swizzle(B, 4, 3), 0, L)
    # "1T" is T, "2k" is 2*k, and the modes are what the table says
    if major == "K":
        assert L.shape == ((8, m), (T, 2 * k))
    else:
        assert L.shape == ((T, 1 << B, m), (8, k))
    # bound with random-looking values it is the integer layout built by hand
    vals = dict(T=8, m=3, k=5, SBO=1024, LBO=2048)
    got = L.subs(vals)
    assert not got.is_symbolic()
    env = {**vals, "1T": 8, "2T": 16, "4T": 32, "8T": 64, "2k": 10}
    want_shape = tuple(tuple(env[x] if x in env else int(x) for x in g.split(",")) for g in _groups(canon, 0))
    want_stride = tuple(
        tuple(env[x] if x in env else int(x) for x in g.split(",")) for g in _groups(canon, 1)
    )
    assert got == Layout(want_shape, want_stride)


def _groups(canon: str, side: int) -> list[str]:
    """'((8,m),(T,2k)):(...)' -> ['8,m', 'T,2k'] for side 0 (shape) or 1 (stride)."""
    return re.findall(r"\(([^()]*)\)", canon.split(":")[side])


@pytest.mark.parametrize(
    "exact,canon,ty,T,m,k,lbo,sbo,lbo_enc,sbo_enc", EXAMPLES, ids=[e[0] for e in EXAMPLES]
)
def test_worked_examples(exact, canon, ty, T, m, k, lbo, sbo, lbo_enc, sbo_enc):
    bind = dict(T=T, m=m, k=k, SBO=sbo)
    if lbo is not None:
        bind["LBO"] = lbo
    assert parse(canon, **bind) == parse(exact)  # bound while parsing ...
    assert parse(canon).subs(bind) == parse(exact)  # ... or afterwards
    assert T == 128 // (8 * SIZEOF[ty])  # T = 128 / sizeof-bits
    # the descriptor encodings of the example: (offset in bytes) >> 4
    assert (sbo * SIZEOF[ty]) >> 4 == sbo_enc
    assert lbo_enc == ((lbo * SIZEOF[ty]) >> 4 if lbo is not None else 1)  # "1 (assumed)" where LBO is NA


def test_k_major_no_swizzle_tf32_example_exactly():
    L = parse("((8,m),(T,2k)):((1T,SBO),(1,LBO))", T=4, m=2, k=2, LBO=64, SBO=32)
    assert L == Layout(((8, 2), (4, 4)), ((4, 32), (1, 64)))
    assert str(L) == "((8,2),(4,4)):((4,32),(1,64))"


# ------------------------------------------------------------------------------------------
# round trips

SYMS = [symbol(s) for s in ("m", "n", "k", "SBO")]


@st.composite
def symbolic_leaves(draw, positive: bool = True):
    """Expanded polynomials in positive-integer symbols: what parse produces and prints back."""
    kind = draw(st.integers(0, 5))
    s1, s2 = draw(st.sampled_from(SYMS)), draw(st.sampled_from(SYMS))
    c = draw(st.integers(1, 64))
    if kind == 0:
        return s1
    if kind == 1:
        return c * s1
    if kind == 2:
        return s1 * s2
    if kind == 3:
        return sympy.expand(c * s1 + draw(st.integers(1, 9)))
    if kind == 4:
        return s1 / draw(st.sampled_from([2, 8, 16]))
    return s1**2 if positive else -c * s1


def leaves(positive: bool):
    ints = st.integers(1, 4096) if positive else st.integers(-4096, 4096)
    return st.one_of(ints, ints, symbolic_leaves(positive))


@st.composite
def profiles(draw, depth: int = 0):
    if depth >= 2 or draw(st.integers(0, 2)) == 0:
        return 0
    return tuple(draw(profiles(depth + 1)) for _ in range(draw(st.integers(0, 3))))


@st.composite
def layouts(draw):
    prof = draw(profiles())

    def fill(p, positive):
        if isinstance(p, tuple):
            return tuple(fill(q, positive) for q in p)
        return draw(leaves(positive))

    return Layout(fill(prof, True), fill(prof, False))


@st.composite
def composed_layouts(draw):
    b = draw(st.integers(0, 3))
    outer = draw(
        st.one_of(
            st.builds(Swizzle, st.just(b), st.integers(0, 6), st.sampled_from([b + 3, -(b + 3), max(b, 1)])),
            layouts(),
        )
    )
    offset = draw(
        st.one_of(
            st.integers(0, 1 << 12), st.sampled_from(SYMS), st.integers(0, 9).map(lambda c: c * SYMS[0])
        )
    )
    return ComposedLayout(outer, offset, draw(layouts()))


@settings(max_examples=BUDGET)
@given(layouts())
def test_layout_round_trip(L):
    text = str(L)
    assert " " not in text
    assert parse(text) == L
    assert parse_layout(text) == L
    assert Layout(text) == L
    assert eval(repr(L), {"Layout": Layout}) == L


@settings(max_examples=max(20, BUDGET // 2))
@given(composed_layouts())
def test_composed_round_trip(C):
    assert parse(str(C)) == C
    assert eval(repr(C), {"parse": parse}) == C


@settings(max_examples=max(20, BUDGET // 2))
@given(st.integers(0, 4), st.integers(0, 8), st.integers(-8, 8))
def test_swizzle_round_trip(b, m, s):
    if abs(s) < b:
        with pytest.raises(SwizzleError):
            Swizzle(b, m, s)
        return
    sw = Swizzle(b, m, s)
    assert parse(str(sw)) == sw == parse(f"Swizzle<{b},{m},{s}>") == parse(f" Sw < {b} , {m} , {s} > ")


def test_notation_details():
    m = symbol("m")
    assert parse("8") == Layout(8, 1) and str(parse("8")) == "8:1"
    assert parse("(8,4)") == Layout((8, 4), (1, 8))  # shape only: column-major
    assert parse("((8),(4))").shape == ((8,), (4,))  # "(8)" is a rank-1 tuple
    assert parse("(2*(m+1)):(1)") == Layout((2 * m + 2,), (1,))  # a parenthesised expression is not a tuple
    assert parse("(m**2,m^2):(1,m)").shape == (m**2, m**2)
    assert parse("(8,m):(m,1)", m=4) == Layout((8, 4), (4, 1))  # keyword arguments bind names
    assert parse("(8,m):(SBO,1)", SBO=2 * m).stride == (2 * m, 1)  # ... to expressions too
    assert parse("(8,m):(-m,1)").stride == (-m, 1)
    assert parse_inttuple("((8,m),(T,2k))", T=8) == ((8, m), (8, 2 * symbol("k")))
    assert parse("Sw<3,4,3> o 0 o (8,64):(64,1)") == parse("Sw<3,4,3>o(8,64):(64,1)")
    assert parse("Sw<1,4,3> o 8 o 16:2").offset == 8
    assert parse("(16):(2) o 0 o (8):(1)").outer == Layout((16,), (2,))  # a layout as the outer function
    assert parse("Sw<3,4,3>") == Swizzle(3, 4, 3)
    assert parse("64/8:1") == Layout(8, 1)
    sbo = parse("(8,m):(1,SBO)").stride[1]
    assert sbo.is_integer and sbo.is_positive  # unbound names are positive integers


def test_round_trip_of_a_factored_leaf():
    m, n = symbol("m"), symbol("n")
    L = Layout(((m + 1) * (n + 1), 4), (1, -m))
    assert parse(str(L)) == L


# ------------------------------------------------------------------------------------------
# parse errors: type, message, column (0-based; the message shows it 1-based under a caret)

ERRORS = [
    ("(8,4):(4,", "expected a number, a name or '(', found end of input", 9),
    ("(8,4):(4,1", "expected ',' or ')', found end of input", 10),
    ("(8,4:(4,1)", "expected ',' or ')', found ':'", 4),
    ("(8,(4,2):(1,(8,32))", "expected ',' or ')', found ':'", 8),
    ("Sw<3,4> o (8):(1)", "expected ',', found '>'", 6),
    ("Sw<3,x,3> o 8:1", "Swizzle<B,M,S> needs three integers", 5),
    ("(8,4):(4,1,2)", "shape (8,4) and stride (4,1,2) are not congruent", 6),
    ("(8,4):()", "shape (8,4) and stride () are not congruent", 6),
    ("8:1 foo", "unexpected 'foo' after a complete expression", 4),
    ("(8,4)#(4,1)", "unexpected character '#'", 5),
    ("(8,4):(4,1.5)", "unexpected character '.'", 10),
    ("", "expected a layout, found end of input", 0),
    ("7/2", "'/' must divide exactly: 7/2", 1),
    ("Sw<3,4,3> o Sw<3,4,3>", "the right-hand side of 'o' must be a layout", 21),
    ("Sw<3,4,3> o (8,4) o (8):(1)", "unexpected 'o' after a complete expression", 18),
    ("Sw<3,4,3> o o 8:1", "unexpected 'o' inside a shape or stride", 12),
    ("(8,4):(4,1) o", "expected a layout, found end of input", 13),
    ("((8,2)*2):1", "a tuple cannot be used as a factor in an expression", 1),
    ("Sw 8:1", "unexpected 'Sw' inside a shape or stride", 0),
    ("((8,m),(T,2k)):((8T,SBO),(1,T,1))", "are not congruent", 15),
]


@pytest.mark.parametrize("text,msg,col", ERRORS, ids=[e[0] or "<empty>" for e in ERRORS])
def test_parse_errors_point_at_the_column(text, msg, col):
    with pytest.raises(NotationError) as info:
        parse(text)
    e = info.value
    assert msg in str(e)
    assert e.column == col and e.text == text
    lines = str(e).splitlines()
    assert lines[1] == f"  {text}" and lines[2] == "  " + " " * col + f"^ (column {col + 1})"


NEW_MSG = "shape leaves must be non-negative (0 is CuTe's zero extent), got "


@pytest.mark.parametrize(
    "text,msg",
    [
        ("(8,-1):(1,8)", NEW_MSG + "-1"),
        ("(m-m-2):1", NEW_MSG + "-2"),
        ("-8:1", "shape leaves must be non-negative (0 is CuTe's zero extent), got -8"),
    ],
)
def test_bad_shapes_are_notation_errors(text, msg):
    with pytest.raises(NotationError, match=re.escape(msg)):
        parse(text)


def test_bad_shape_points_into_the_shape():
    """Formerly a strict xfail: the error pointed at the '(' of the stride (column 7)."""
    with pytest.raises(NotationError) as info:
        parse("(8,-1):(1,8)")
    assert info.value.column < 5


#: (text, 0-based column of the offending leaf, message): every leaf error points at its own leaf
BAD_LEAVES = [
    ("(8,-1):(1,8)", 3, "shape leaves must be non-negative (0 is CuTe's zero extent), got -1"),
    ("(-1,8):(1,8)", 1, "got -1"),
    ("-8:1", 0, "got -8"),
    ("(m-m-1):1", 1, "got -1"),
    ("((8,4),(2,-4)):((1,8),(32,64))", 10, "got -4"),
    ("(8,(4,-2)):(1,(8,32))", 6, "got -2"),
    ("(8, (4,  -2)):(1,(8,32))", 9, "got -2"),  # whitespace is counted
    ("(8,(m+1)*0-1)", 3, "got -1"),  # a parenthesised expression is one leaf, starting at its '('
    ("(4,(2,x-x-1)):(1,(4,8))", 6, "got -1"),
    ("(2**-1,4):(1,2)", 1, "shape leaves must be int or sympy integer expressions, got 0.5 (float)"),
    ("(8,4):(1,2**-1)", 9, "stride leaves must be int or sympy integer expressions, got 0.5 (float)"),
    ("(8,(4,2)):(1,(8,2**-1))", 16, "stride leaves must be int or sympy integer expressions"),
    ("((8,2),(4,4)):((4,32),(1,m/0))", 25, "stride leaves must be integers, got the non-integer number zoo"),
    ("Sw<3,4,3> o 0 o (8,-1):(64,1)", 19, "got -1"),  # inside a composed layout
    ("(8,4):(4,1,2)", 6, "not congruent"),  # congruence is a property of the whole stride: its '('
]


@pytest.mark.parametrize("text,col,msg", BAD_LEAVES, ids=[t for t, _c, _m in BAD_LEAVES])
def test_leaf_errors_point_at_their_own_column(text, col, msg):
    with pytest.raises(NotationError) as info:
        parse(text)
    assert msg in str(info.value)
    assert info.value.column == col, (text, info.value.column, str(info.value))
    assert str(info.value).splitlines()[2] == "  " + " " * col + f"^ (column {col + 1})"


def test_bad_swizzle_in_notation_points_at_the_column():
    with pytest.raises(NotationError) as info:
        parse("Sw<3,4,1> o 8:1")
    assert "|S| >= B" in str(info.value) and info.value.column is not None


def test_bad_swizzle_parameters_in_notation_are_layout_errors():
    for text, msg in [
        ("Sw<3,4,1> o 8:1", "|S| >= B is required"),
        ("Sw<-1,4,3>", "B (number of bits) must be in [0, 62], got -1"),
        ("Sw<3,-4,3>", "M (base) must be in [0, 62], got -4"),
    ]:
        with pytest.raises(LayoutError, match=re.escape(msg)):
            parse(text)


def test_non_string_input():
    with pytest.raises(NotationError, match="expected a string, got int"):
        parse(8)
    with pytest.raises(NotationError, match="unexpected '8' after a complete layout"):
        parse_layout("8:1 8")
    with pytest.raises(NotationError, match="unexpected ':' after a complete tuple"):
        parse_inttuple("(8,4):(1,8)")
