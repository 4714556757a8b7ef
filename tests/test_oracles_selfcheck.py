"""Self-check of the differential-testing harness ``tests/oracles.py``.

Checks that CuTe C++ (compiled for the host) prints hand-worked results for ~25 known layouts and
operations, that inadmissible inputs come back as per-expression :class:`CompileError` values naming
CuTe's ``static_assert``, that run-time crashes are isolated, that NVIDIA's pycute loads in isolation,
and documents a pycute bug CuTe does not have.  Tests that need an oracle skip when it is absent.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

import oracles
import pytest
from oracles import (
    CompileError,
    CuteBatch,
    HarnessError,
    RunError,
    composed_cxx,
    int_tuple_cxx,
    layout_cxx,
    normalize,
    parse_composed,
    parse_int_tuple,
    parse_layout,
    parse_values,
    skip_without_cxx,
    skip_without_pycute,
    static_int_cxx,
)

# --------------------------------------------------------------------------------------------------
# Known results, worked by hand (CuTe's raw print format: static ints carry a leading "_")
# --------------------------------------------------------------------------------------------------

L_4x8_row = "Layout<Shape<_4,_8>,Stride<_8,_1>>{}"

KNOWN: list[tuple[str, str]] = [
    # printing
    ("Layout<Shape<_4,Shape<_2,_3>>,Stride<_1,Stride<_4,_8>>>{}", "(_4,(_2,_3)):(_1,(_4,_8))"),
    ("Layout<Shape<_4>,Stride<_1>>{}", "(_4):(_1)"),  # rank-1 tuples keep their parentheses
    ("Layout<Shape<_2,_3>>{}", "(_2,_3):(_1,_2)"),  # default stride: compact column-major
    ("make_layout(make_shape(4,8))", "(4,8):(_1,4)"),  # run-time ints print without "_"
    ("Int<-1>{}", "_-1"),
    # size / cosize
    ("size(Layout<Shape<_4,Shape<_2,_3>>,Stride<_1,Stride<_4,_8>>>{})", "_24"),
    ("cosize(Layout<Shape<_4,_2>,Stride<_2,_1>>{})", "_8"),
    # coalesce / filter
    ("coalesce(Layout<Shape<_2,_4>,Stride<_1,_2>>{})", "_8:_1"),
    ("coalesce(Layout<Shape<_2,Shape<_1,_6>>,Stride<_1,Stride<_6,_2>>>{})", "_12:_1"),
    (f"coalesce({L_4x8_row})", "(_4,_8):(_8,_1)"),
    ("coalesce(Layout<Shape<_1,_4>,Stride<_0,_3>>{})", "_4:_3"),
    ("filter(Layout<Shape<_4,_2>,Stride<_1,_0>>{})", "_4:_1"),
    # composition
    (f"composition({L_4x8_row}, Layout<_4,_2>{{}})", "(_2,_2):(_16,_1)"),
    ("composition(Layout<Int<20>,_2>{}, Layout<Shape<_5,_4>,Stride<_4,_1>>{})", "(_5,_4):(_8,_2)"),
    (
        "composition(Layout<Shape<_10,_2>,Stride<_16,_4>>{}, Layout<Shape<_5,_4>,Stride<_1,_5>>{})",
        "(_5,(_2,_2)):(_16,(_80,_4))",
    ),
    # CuTe coalesces the LHS first, so (4,6):(1,4) o 6:1 is admissible (it is 24:1 o 6:1)
    ("composition(Layout<Shape<_4,_6>,Stride<_1,_4>>{}, Layout<_6,_1>{})", "_6:_1"),
    # complement
    ("complement(Layout<_4,_1>{}, Int<24>{})", "_6:_4"),
    ("complement(Layout<_6,_4>{}, Int<24>{})", "_4:_1"),
    ("complement(Layout<Shape<_2,_2>,Stride<_1,_6>>{}, Int<24>{})", "(_3,_2):(_2,_12)"),
    # divide / product
    ("logical_divide(Layout<_16,_1>{}, Layout<_4,_1>{})", "(_4,_4):(_1,_4)"),
    (
        "logical_divide(Layout<Shape<_4,_2,_3>,Stride<_2,_1,_8>>{}, Layout<_4,_2>{})",
        "((_2,_2),(_2,_3)):((_4,_1),(_2,_8))",
    ),
    (
        f"zipped_divide({L_4x8_row.replace('_4,_8', '_8,_8')}, Shape<_2,_4>{{}})",
        "((_2,_4),(_4,_2)):((_8,_1),(_16,_4))",
    ),
    (
        "logical_product(Layout<Shape<_2,_2>,Stride<_4,_1>>{}, Layout<_6,_1>{})",
        "((_2,_2),(_2,_3)):((_4,_1),(_2,_8))",
    ),
    (
        "blocked_product(Layout<Shape<_2,_5>,Stride<_5,_1>>{}, Layout<Shape<_3,_4>,Stride<_1,_3>>{})",
        "((_2,_3),(_5,_4)):((_5,_10),(_1,_30))",
    ),
    (
        "raked_product(Layout<Shape<_2,_5>,Stride<_5,_1>>{}, Layout<Shape<_3,_4>,Stride<_1,_3>>{})",
        "((_3,_2),(_4,_5)):((_10,_5),(_30,_1))",
    ),
    # inverses
    (f"right_inverse({L_4x8_row})", "(_8,_4):(_4,_1)"),
    (f"left_inverse({L_4x8_row})", "(_8,_4):(_4,_1)"),
    # swizzles
    ("Swizzle<3,4,3>{}", "Sw<3,4,3>"),
    (
        "composition(Swizzle<3,4,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{})",
        "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)",
    ),
]

#: Inadmissible compositions: CuTe rejects them with a static_assert (expected message fragment).
REJECTED: list[tuple[str, str]] = [
    ("composition(Layout<Shape<_4,_6>,Stride<_1,_5>>{}, Layout<_6,_1>{})", "Shape Divisibility Condition"),
    ("composition(Layout<Shape<_4,_6>,Stride<_1,_5>>{}, Layout<_2,_6>{})", "Stride Divisibility Condition"),
]


class _Main:
    """The module's main batch and the indices of its entries."""

    def __init__(self) -> None:
        self.batch = CuteBatch()
        self.known = [self.batch.add(expr) for expr, _ in KNOWN]
        self.rejected = [self.batch.add(expr) for expr, _ in REJECTED]
        self.syntax = self.batch.add("oracle_no_such_function(3)")
        self.abort = self.batch.add('(std::fputs("about to abort\\n", stdout), std::abort(), 1)')
        self.after_abort = self.batch.add("Layout<_3,_1>{}")
        self.values = self.batch.add_values(L_4x8_row)
        self.swz_values = self.batch.add_values(composed_cxx((1, 0, 1), 4, 1))
        self.side_effect = self.batch.add("Layout<_2,_1>{}", setup='std::printf("side effect\\n");')
        self.printed = self.batch.add(layout_cxx((4, 8), (1, 4)), printer="print")
        self.results = self.batch.run()


@pytest.fixture(scope="module")
def main() -> Iterator[_Main]:
    """Compile and run the main batch once for the whole module."""
    skip_without_cxx()
    yield _Main()


# --------------------------------------------------------------------------------------------------
# CuTe C++ oracle
# --------------------------------------------------------------------------------------------------


@pytest.mark.oracle
def test_batch_timing(main: _Main, capsys: pytest.CaptureFixture[str]) -> None:
    """Print how long the batch took to compile (originally, when it came from the cache)."""
    stats = main.batch.stats
    with capsys.disabled():
        print(f"\n[oracle] main batch of {len(main.batch)} expressions: {stats.describe()}")
    assert stats.chunks == 1
    if stats.first_compile_seconds is not None:
        assert stats.first_compile_seconds < 60


@pytest.mark.oracle
@pytest.mark.parametrize("pos", range(len(KNOWN)), ids=[e for e, _ in KNOWN])
def test_known_results(main: _Main, pos: int) -> None:
    """CuTe prints the hand-worked result (raw) for every known expression."""
    assert main.results[main.known[pos]] == KNOWN[pos][1]


@pytest.mark.oracle
@pytest.mark.parametrize("pos", range(len(REJECTED)), ids=[f for _, f in REJECTED])
def test_rejected_compositions_are_compile_errors(main: _Main, pos: int) -> None:
    """Inadmissible compositions become per-expression CompileErrors naming the static_assert."""
    result = main.results[main.rejected[pos]]
    assert isinstance(result, CompileError), result
    assert "static assertion failed" in result.message
    assert REJECTED[pos][1] in result.message
    assert "required from here" in result.log


@pytest.mark.oracle
def test_failures_do_not_poison_the_batch(main: _Main) -> None:
    """Syntax errors and aborts are isolated; everything else in the batch still has its value."""
    syntax = main.results[main.syntax]
    assert isinstance(syntax, CompileError)
    assert "oracle_no_such_function" in syntax.message
    aborted = main.results[main.abort]
    assert isinstance(aborted, RunError)
    assert "signal" in aborted.message or "exit status" in aborted.message
    assert main.batch.stray[main.abort].strip() == "about to abort"
    assert main.results[main.after_abort] == "_3:_1"
    with pytest.raises(RunError):
        main.batch.value(main.abort)


@pytest.mark.oracle
def test_values_and_side_effects(main: _Main) -> None:
    """``add_values`` evaluates layout(i) for every i; side-effect output stays out of the value."""
    assert parse_values(main.batch.value(main.values)) == [8 * (i % 4) + i // 4 for i in range(32)]
    # Sw<1,0,1>: bit 1 is xored into bit 0
    assert parse_values(main.batch.value(main.swz_values)) == [0, 1, 3, 2]
    assert main.results[main.side_effect] == "_2:_1"
    assert main.batch.stray[main.side_effect].strip() == "side effect"
    assert main.results[main.printed] == "(_4,_8):(_1,_4)"


@pytest.mark.oracle
def test_normalized_notation(main: _Main) -> None:
    """CuTe's output normalises to our notation and parses back."""
    by_expr = {expr: main.batch.value(i) for (expr, _), i in zip(KNOWN, main.known, strict=True)}
    text = by_expr["Layout<Shape<_4,Shape<_2,_3>>,Stride<_1,Stride<_4,_8>>>{}"]
    assert normalize(text) == "(4,(2,3)):(1,(4,8))"
    assert parse_layout(text) == ((4, (2, 3)), (1, (4, 8)))
    assert normalize(by_expr["Layout<Shape<_4>,Stride<_1>>{}"]) == "(4):(1)"
    swz = by_expr["composition(Swizzle<3,4,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{})"]
    assert normalize(swz) == "Sw<3,4,3> o 0 o (8,64):(64,1)"
    assert parse_composed(swz) == ((3, 4, 3), 0, ((8, 64), (64, 1)))


@pytest.mark.oracle
def test_cache_hit_on_rerun(main: _Main) -> None:
    """Running the same batch again is answered from the on-disk cache, identically."""
    again = CuteBatch()
    again.extend(main.batch.exprs[: len(KNOWN)])
    results = again.run()
    assert results == [main.results[i] for i in main.known]
    second = CuteBatch()
    second.extend(again.exprs)
    second.run()
    assert second.stats.compiles == 0
    assert second.stats.cache_hits == second.stats.chunks == 1


@pytest.mark.oracle
def test_gmma_descriptor_header_compiles_for_host() -> None:
    """``cute/atom/mma_traits_sm90_gmma.hpp`` compiles with plain g++ and builds descriptors.

    On the host ``cast_smem_ptr_to_uint`` prints an ERROR line and yields 0, so the descriptor's
    start address is 0; that line lands in ``stray``, not in the value.
    """
    skip_without_cxx()
    batch = CuteBatch(extra_includes=["cute/atom/mma_traits_sm90_gmma.hpp"])
    setup = (
        "using namespace cute::GMMA;\n"
        "auto L = tile_to_shape(Layout_K_SW128_Atom<half_t>{}, Shape<_64,_64>{});\n"
        "auto t = make_tensor(make_smem_ptr((half_t*)nullptr), L);\n"
        "auto s = local_tile(t, Shape<_64,_16>{}, make_coord(0,0));"
    )
    atom = batch.add("tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_64,_64>{})")
    desc = batch.add("uint64_t(make_gmma_desc<Major::K>(s))", setup=setup)
    fields = batch.add("make_gmma_desc<Major::K>(s)", setup=setup, printer="print")
    results = batch.run()
    assert results[atom] == "Sw<3,4,3> o _0 o ((_8,_8),(_64,_1)):((_64,_512),(_1,_0))"
    # layout_type 1 (SWIZZLE_128B) in bits 62-63, SBO = 1024 B >> 4 = 64, LBO = 1
    assert int(batch.value(desc)) == (1 << 62) | (64 << 32) | (1 << 16)
    assert "layout_type:  0x1 (B128)" in batch.value(fields)
    assert "cast_smem_ptr_to_uint" in batch.stray[desc]


@pytest.mark.oracle
def test_isolate_false_raises() -> None:
    """With ``isolate=False`` any compile error raises for the whole batch."""
    skip_without_cxx()
    batch = CuteBatch(isolate=False)
    batch.add("Layout<_4,_1>{}")
    batch.add("oracle_no_such_function()")
    with pytest.raises(CompileError, match="oracle_no_such_function"):
        batch.run()


@pytest.mark.oracle
def test_broken_preamble_is_a_harness_error() -> None:
    """A preamble / include that does not compile is reported once, not blamed on expressions."""
    skip_without_cxx()
    batch = CuteBatch(extra_includes=["cute/oracle_does_not_exist.hpp"])
    batch.add("Layout<_4,_1>{}")
    with pytest.raises(HarnessError, match="oracle_does_not_exist"):
        batch.run()


@pytest.mark.oracle
def test_bisection_when_errors_cannot_be_attributed(monkeypatch: pytest.MonkeyPatch) -> None:
    """When the compiler output blames no expression line, the chunk is bisected."""
    skip_without_cxx()
    monkeypatch.setattr(oracles, "_attribute", lambda log, spans: {})
    batch = CuteBatch(preamble="// bisection self-check")
    batch.add("oracle_no_such_function()")
    batch.add("Layout<_5,_1>{}")
    bad, good = batch.run()
    assert isinstance(bad, CompileError) and "oracle_no_such_function" in bad.message
    assert good == "_5:_1"


# --------------------------------------------------------------------------------------------------
# NVIDIA pycute oracle
# --------------------------------------------------------------------------------------------------


@pytest.mark.oracle
def test_pycute_loads_in_isolation() -> None:
    """pycute is importable under its private name and shadows nothing."""
    had_pycute = "pycute" in sys.modules
    pc = skip_without_pycute()
    assert pc.__name__ == "_pycute_oracle_nvidia"
    assert ("pycute" in sys.modules) == had_pycute
    assert sys.modules["typing"].__name__ == "typing"
    assert normalize(str(pc.coalesce(pc.Layout((2, 4), (1, 2))))) == "8:1"
    assert normalize(str(pc.Layout((4, (2, 3)), (1, (4, 8))))) == "(4,(2,3)):(1,(4,8))"
    assert normalize(str(pc.Layout((4,), (1,)))) == "(4):(1)"
    assert oracles.pycute_skip_reason() is None


@pytest.mark.oracle
def test_pycute_composition_bug() -> None:
    """Known pycute bug: an inadmissible composition silently returns a wrong-size layout.

    ``(4,6):(1,5) o 6:1`` has no layout result (the 6 elements would straddle the first mode, of
    size 4).  CuTe rejects it at compile time with "Shape Divisibility Condition" (checked in
    ``test_rejected_compositions_are_compile_errors``); pycute returns ``4:1``, whose size is 4,
    not 6, and which is not ``A o B`` on ``[0, 6)``.  For ``(4,6):(1,5) o 2:6`` (CuTe: "Stride
    Divisibility Condition") pycute raises a bare ``AssertionError``.
    """
    pc = skip_without_pycute()
    a, b = pc.Layout((4, 6), (1, 5)), pc.Layout(6, 1)
    result = pc.composition(a, b)
    assert normalize(str(result)) == "4:1"
    assert pc.size(result) == 4 != pc.size(b)
    assert [a(b(i)) for i in range(6)] == [0, 1, 2, 3, 5, 6]
    with pytest.raises(AssertionError):
        pc.composition(a, pc.Layout(2, 6))


# --------------------------------------------------------------------------------------------------
# Notation helpers (no oracle needed)
# --------------------------------------------------------------------------------------------------


def test_layout_cxx() -> None:
    """Python layouts become static (or dynamic) CuTe C++ text."""
    assert layout_cxx((4, 8), (1, 4)) == "Layout<Shape<_4,_8>,Stride<_1,_4>>{}"
    assert layout_cxx((4, (2, 3)), (1, (4, 8))) == "Layout<Shape<_4,Shape<_2,_3>>,Stride<_1,Stride<_4,_8>>>{}"
    assert layout_cxx(4, 2) == "Layout<_4,_2>{}"
    assert layout_cxx((4,), (1,)) == "Layout<Shape<_4>,Stride<_1>>{}"
    assert layout_cxx((2, 3)) == "Layout<Shape<_2,_3>>{}"
    assert layout_cxx((4, 8), (1, 4), dynamic=True) == "make_layout(make_shape(4,8),make_stride(1,4))"
    assert int_tuple_cxx(4) == "_4"
    assert int_tuple_cxx((11, -1, 1024), "Stride") == "Stride<Int<11>,_m1,_1024>"
    assert static_int_cxx(-7) == "_m7" and static_int_cxx(-33) == "Int<-33>"
    assert composed_cxx((3, 4, 3), (8, 64), (64, 1)) == (
        "make_composed_layout(Swizzle<3,4,3>{}, _0{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{})"
    )
    with pytest.raises(ValueError):
        layout_cxx((4, 8), 1)
    with pytest.raises(TypeError):
        layout_cxx((4, True), (1, 4))


def test_normalize_and_parse() -> None:
    """normalize() accepts CuTe and pycute spellings; the parsers read our notation back."""
    assert normalize("(_4,_8):(_1,_4)") == "(4,8):(1,4)"
    assert normalize("(4,8):(_1,4)") == "(4,8):(1,4)"
    assert normalize("(4, (2, 3)):(1, (4, 8))") == "(4,(2,3)):(1,(4,8))"
    assert normalize("(4,):(1,)") == "(4):(1)"
    assert normalize("_-1") == "-1"
    assert normalize("(_4,_8):(_1,_4)", keep_static=True) == "(_4,_8):(_1,_4)"
    assert parse_int_tuple("(4)") == (4,)
    assert parse_int_tuple("()") == ()
    assert parse_int_tuple("_8") == 8
    assert parse_layout("_8:_1") == (8, 1)
    assert parse_layout("((_2,_2),(_2,_3)):((_4,_1),(_2,_8))") == (((2, 2), (2, 3)), ((4, 1), (2, 8)))
    assert parse_values("0 _8 16") == [0, 8, 16]
    with pytest.raises(ValueError):
        parse_layout("(4,8)")
