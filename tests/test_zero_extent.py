"""Zero-extent shapes (CuTe's size-0 layouts): construction, printing, evaluation, and the algebra.

Every algebra case is compiled with CuTe C++ with static extents (``_0``: our ints are CuTe's static
ints): where CuTe answers we give its answer; where CuTe divides by the zero extent (SIGFPE) we raise
a LayoutError. Printing, size and cosize are also checked with run-time (dynamic) zero extents.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from oracles import CompileError, CuteBatch, RunError, layout_cxx, normalize, skip_without_cxx

from pycute_layouts import (
    CoordinateError,
    Layout,
    LayoutError,
    LayoutValueError,
    blocked_product,
    coalesce,
    complement,
    composition,
    cosize,
    filter,
    left_inverse,
    logical_divide,
    logical_product,
    max_common_vector,
    raked_product,
    right_inverse,
    size,
    zipped_divide,
)

ZERO = [((0,), None), ((0,), (0,)), ((0, 4), None), ((4, 0), None), ((2, 0, 3), None), ((4, 0), (2, 7)),
        (((2, 0), 4), None)]
POS = [((4,), None), ((4, 8), None), ((2, 2), (1, 4))]


def _lay(spec: tuple) -> Layout:
    s, d = spec
    s = s[0] if len(s) == 1 else s
    d = d[0] if d is not None and len(d) == 1 else d
    return Layout(s, d)


def _cxx(spec: tuple) -> str:
    s, d = spec
    s = s[0] if len(s) == 1 else s
    d = d[0] if d is not None and len(d) == 1 else d
    return layout_cxx(s, d)


UNARY = {"coalesce": coalesce, "filter": filter, "right_inverse": right_inverse, "left_inverse": left_inverse,
         "size": size, "cosize": cosize}
BINARY = {"composition": composition, "logical_divide": logical_divide, "zipped_divide": zipped_divide,
          "logical_product": logical_product, "blocked_product": blocked_product, "raked_product": raked_product,
          "max_common_vector": max_common_vector}


def _cases() -> list[tuple[str, object]]:
    cases: list[tuple[str, object]] = []
    for spec in ZERO:
        for name, f in UNARY.items():
            cases.append((f"{name}({_cxx(spec)})", lambda f=f, spec=spec: f(_lay(spec))))
        cases.append((f"complement({_cxx(spec)}, _16{{}})", lambda spec=spec: complement(_lay(spec), 16)))
    for a, b in itertools.chain(itertools.product(ZERO, POS), itertools.product(POS, ZERO)):
        for name, f in BINARY.items():
            if name in ("blocked_product", "raked_product") and len(a[0]) != len(b[0]):
                continue  # CuTe pads ranks differently (see differences.md); the rank-equal cases suffice
            cases.append((f"{name}({_cxx(a)}, {_cxx(b)})", lambda f=f, a=a, b=b: f(_lay(a), _lay(b))))
    for spec in POS:
        cases.append((f"complement({_cxx(spec)}, _0{{}})", lambda spec=spec: complement(_lay(spec), 0)))
    return cases


def _ours(f) -> object:
    try:
        return f()
    except LayoutError as e:
        return e


@pytest.mark.oracle
def test_cute_cxx_agrees_on_zero_extents_in_the_algebra() -> None:
    skip_without_cxx()
    cases = _cases()
    batch = CuteBatch()
    for expr, _f in cases:
        batch.add(expr)
    results = batch.run()
    answered = trapped = 0
    wrong = []
    for (expr, f), res in zip(cases, results):
        ours = _ours(f)
        if isinstance(res, (RunError, CompileError)):  # CuTe traps (SIGFPE) or refuses statically: so do we
            trapped += 1
            if not isinstance(ours, LayoutError):
                wrong.append((expr, str(ours), str(res)[:80]))
            continue
        answered += 1
        if isinstance(ours, LayoutError) or str(ours) != normalize(res):
            wrong.append((expr, str(ours)[:120], res))
    assert not wrong, "\n".join(map(str, wrong))
    assert answered >= 60 and trapped >= 10, (answered, trapped)


@pytest.mark.oracle
def test_cute_cxx_prints_and_sizes_dynamic_zero_extents_as_we_do() -> None:
    skip_without_cxx()
    cases = [
        ("make_layout(make_shape(int(z_), 4))", str(Layout((0, 4)))),
        ("make_layout(make_shape(4, int(z_)))", str(Layout((4, 0)))),
        ("make_layout(make_shape(make_shape(2, int(z_)), 4))", str(Layout(((2, 0), 4)))),
        ("size(make_layout(make_shape(4, int(z_))))", "0"),
        ("cosize(make_layout(make_shape(int(z_), 4)))", str(cosize(Layout((0, 4))))),
        ("cosize(make_layout(int(z_), 0))", str(cosize(Layout(0, 0)))),
        ("cosize(make_layout(make_shape(int(z_), 4), make_stride(-1, 2)))", str(cosize(Layout((0, 4), (-1, 2))))),
        ("cosize(make_layout(make_shape(4, int(z_)), make_stride(2, 7)))", str(cosize(Layout((4, 0), (2, 7))))),
        ("zipped_divide(make_layout(make_shape(int(z_), 8)), make_shape(4, 4))",
         str(zipped_divide(Layout((0, 8)), (4, 4)))),
        ("make_layout(make_shape(int(z_), 4))(0)", "trap"),
    ]
    batch = CuteBatch(preamble="static int z_ = 0;\n")
    for expr, _ in cases:
        batch.add(expr)
    for (expr, ours), res in zip(cases, batch.run()):
        if ours == "trap":
            assert isinstance(res, RunError), (expr, res)
        else:
            assert isinstance(res, str) and normalize(res) == ours, (expr, ours, res)


# ------------------------------------------------------------------ values a reader can check


def test_zero_extent_layouts_are_built_printed_and_parsed() -> None:
    L = Layout((0, 4))
    assert str(L) == "(0,4):(1,0)"  # compact column-major: the stride after a 0 extent is 0
    assert Layout("(0,4):(1,0)") == L
    assert str(Layout((4, 0))) == "(4,0):(1,4)"
    assert size(L) == 0 and size(Layout(((2, 0), 4))) == 0
    # CuTe's cosize is 1 + sum((s-1)*|d|): a zero extent contributes -|d|
    assert cosize(Layout((4, 0), (1, 4))) == 0 and cosize(Layout(0, 0)) == 1 and cosize(Layout((0, 4), (-1, 2))) == 6


def test_a_size_zero_layout_evaluates_nothing() -> None:
    L = Layout((4, 0))
    for args in ((0,), (3,), ((1, 0),), (1, 0)):
        with pytest.raises(CoordinateError, match="size 0"):
            L(*args)
    with pytest.raises(CoordinateError, match="size 0"):
        L(np.arange(3))
    assert L(np.arange(0)).size == 0
    assert L.to_numpy().size == 0
    assert L[0](3) == 3  # its size-4 mode alone is an ordinary layout


def test_negative_extents_are_still_refused() -> None:
    with pytest.raises(LayoutValueError, match="non-negative"):
        Layout((4, -1))


def test_division_by_a_zero_extent_is_refused_by_name() -> None:
    # CuTe C++ traps (SIGFPE) on both
    with pytest.raises(LayoutValueError, match="zero extent"):
        logical_product(Layout((2, 2), (1, 4)), Layout(0, 1))
    with pytest.raises(LayoutError, match="division by zero: 16 / 0"):
        complement(Layout(0, 1), 16)
    # where CuTe answers, so do we: coalesce of a size-0 layout is 0:1, logical_divide of one is (4,0):(1,4)
    assert str(coalesce(Layout((2, 0, 3)))) == "0:1"
    assert str(logical_divide(Layout(0, 1), Layout(4, 1))) == "(4,0):(1,4)"


def test_the_cli_names_a_zero_extent_in_one_line() -> None:
    import subprocess
    import sys

    p = subprocess.run([sys.executable, "-m", "pycute_layouts", "show", "(4,0):(1,4)"], capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 2 and "size 0" in p.stderr and "Traceback" not in p.stderr


def test_greatest_common_domain_of_a_zero_extent_is_refused_by_name() -> None:
    from pycute_layouts import greatest_common_domain

    with pytest.raises(LayoutValueError, match="zero extent"):
        greatest_common_domain((0,), Layout((8, 64), (64, 1)))
