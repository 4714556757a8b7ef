"""A catalog of bad inputs to the core (Layout, IntTuple algebra, notation), each with the exact error.

Every row is ``(id, expression, exception type, key words)``: evaluating the expression must raise
that :class:`pycute_layouts.LayoutError` subclass, and the message must contain every key word
(case-insensitive), so that a user reading it learns which rule failed and on which values.
The expressions are strings evaluated in :data:`NS` so that the same catalog can be re-run under
``python -O`` in a subprocess: validation must never rely on ``assert``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import pycute_layouts as pl
from pycute_layouts import (
    AdmissibilityError,
    CongruenceError,
    CoordinateError,
    LayoutError,
    LayoutTypeError,
    LayoutValueError,
    NotationError,
    SwizzleError,
    _,
)

NS: dict = {name: getattr(pl, name) for name in pl.__all__}
NS.update(np=np, L=pl.Layout((8, 4), (4, 1)))

CATALOG: list[tuple[str, str, type, tuple[str, ...]]] = [
    # ------------------------------------------------------------------- construction: congruence
    ("stride-rank", "Layout((4, 2), (1,))", CongruenceError, ("not congruent", "(4,2)", "(1)")),
    ("stride-tuple-for-leaf", "Layout(4, (1, 2))", CongruenceError, ("not congruent", "shape 4")),
    ("stride-nesting", "Layout(((4, 2), 3), ((1, 4), 3, 1))", CongruenceError, ("not congruent", "nesting")),
    ("make_layout-mixed", "make_layout(L, (4, 2))", LayoutTypeError, ("layouts only", "shape")),
    ("make_layout-empty", "make_layout()", LayoutValueError, ("at least one",)),
    ("make_layout-three-tuples", "make_layout((4,), (1,), (2,))", LayoutTypeError, ("(shape)", "stride")),
    # ------------------------------------------------------------------- construction: values
    ("shape-negative-leaf", "Layout(-3)", LayoutValueError, ("non-negative", "got -3")),
    ("shape-negative-nested", "Layout((4, (2, -2)))", LayoutValueError, ("non-negative", "got -2")),
    ("shape-negative", "Layout((4, -1), (1, 4))", LayoutValueError, ("non-negative", "got -1")),
    ("shape-float", "Layout(2.0)", LayoutTypeError, ("shape", "float", "2.0")),
    ("shape-float-nested", "Layout((4, 2.5))", LayoutTypeError, ("shape", "2.5")),
    ("stride-float", "Layout(4, 1.0)", LayoutTypeError, ("stride", "float")),
    ("shape-str-leaf", "Layout((4, '2'))", LayoutTypeError, ("shape", "'2'", "str")),
    ("stride-str", "Layout(4, '1')", LayoutTypeError, ("stride", "str")),
    ("shape-bool", "Layout(True)", LayoutTypeError, ("bool",)),
    ("shape-bool-nested", "Layout((4, False))", LayoutTypeError, ("bool", "False")),
    ("stride-bool", "Layout(4, True)", LayoutTypeError, ("stride", "bool")),
    ("shape-none", "Layout(None)", LayoutTypeError, ("shape", "None")),
    ("stride-none", "Layout((4, 2), (1, None))", LayoutTypeError, ("stride", "None")),
    ("shape-complex", "Layout(4 + 0j)", LayoutTypeError, ("complex",)),
    ("shape-set", "Layout({4})", LayoutTypeError, ("set",)),
    ("layout-as-shape", "Layout(Layout(4))", LayoutTypeError, ("make_layout",)),
    ("identity-negative", "make_identity_layout(-2)", LayoutValueError, ("non-negative", "-2")),
    # ------------------------------------------------------------------- evaluation
    ("call-rank-3-of-2", "L(1, 2, 3)", CongruenceError, ("3 modes", "(8,4)", "2")),
    ("call-tuple-for-leaf", "L((1, (2, 3)))", CongruenceError, ("more modes", "shape 4")),
    ("call-nested-for-leaf", "L(((1, 2), 3))", CongruenceError, ("more modes", "shape 8")),
    ("call-index-range", "L(40, check=True)", CoordinateError, ("index 40", "out of range", "[0, 32)")),
    ("call-negative-index", "L(-1, check=True)", CoordinateError, ("-1", "out of range")),
    ("call-coord-range-0", "L((8, 0), check=True)", CoordinateError, ("coordinate 8", "[0, 8)")),
    ("call-coord-range-1", "L(0, 4, check=True)", CoordinateError, ("coordinate 4", "[0, 4)")),
    ("call-numpy-range", "L(np.arange(40), check=True)", CoordinateError, ("out of range", "[0, 32)")),
    ("call-float", "L(1.5)", LayoutTypeError, ("integers", "1.5")),
    ("call-str", "L('1')", LayoutTypeError, ("integers", "'1'")),
    ("call-bool", "L(True)", LayoutTypeError, ("integers", "True")),
    ("call-none", "L(None)", LayoutTypeError, ("integers", "None")),
    ("call-nothing", "L()", CoordinateError, ("coordinate or index is required",)),
    ("call-numpy-float", "L(np.arange(3.0))", LayoutTypeError, ("integers", "float64")),
    ("mode-index-range", "L[2]", CoordinateError, ("out of range", "rank-2")),
    ("mode-index-negative-range", "L[-3]", CoordinateError, ("out of range",)),
    ("mode-index-str", "L['a']", LayoutTypeError, ("must be an int",)),
    ("mode-index-float", "L[1.0]", LayoutTypeError, ("must be an int",)),
    ("slice-rank", "slice_and_offset((_, 2, 3), L)", CongruenceError, ("not congruent", "(8,4)")),
    ("slice-leaf-layout", "Layout(8, 1)((_, 1))", CongruenceError, ("rank-1",)),
    ("slice-not-layout", "slice_and_offset((_, 2), 'x')", LayoutTypeError, ("expected a Layout",)),
    # ------------------------------------------------------------------- composition
    (
        "composition-shape-div",
        "composition(Layout((4, 6), (1, 5)), Layout(6, 1))",
        AdmissibilityError,
        ("shape divisibility", "shape 4", "mode 0", "remaining size 6"),
    ),
    (
        "composition-stride-div",
        "composition(Layout((4, 6), (1, 5)), Layout(2, 6))",
        AdmissibilityError,
        ("stride divisibility", "stride 6", "shape 4"),
    ),
    (
        "composition-cute-silently-wrong",
        "composition(Layout((3, 4), (1, 5)), Layout(4, 2))",
        AdmissibilityError,
        ("stride divisibility", "stride 2", "shape 3"),
    ),
    (
        "composition-too-many-modes",
        "composition(L, (2, 4, 3))",
        CongruenceError,
        ("too many modes", "rank 3"),
    ),
    ("composition-str-tiler", "composition(L, 'x')", LayoutTypeError, ("a Layout, an int",)),
    ("composition-zero-tiler", "composition(L, 0)", LayoutValueError, ("zero extent", "0")),
    ("composition-negative-tiler", "composition(L, -2)", LayoutValueError, ("non-negative", "-2")),
    ("composition-float-tiler", "composition(L, 2.0)", LayoutTypeError, ("2.0",)),
    (
        "basis-mixed-with-int-stride",
        "Layout((4, 8), (E(0), 5))",
        LayoutTypeError,
        ("mixes strides", "basis", "F2"),
    ),
    # ------------------------------------------------------------------- complement / inverses
    (
        "complement-overlap",
        "complement(Layout((2, 2), (1, 1)), 8)",
        AdmissibilityError,
        (
            "stride 1",
            "not injective",
        ),
    ),
    (
        "complement-interleaved",
        "complement(Layout((2, 2), (2, 3)), 12)",
        AdmissibilityError,
        ("stride 3", "(2,2):(2,3)", "not injective"),
    ),
    (
        "complement-unfillable-gap",
        "complement(Layout((2, 2), (2, 5)), 40)",
        AdmissibilityError,
        ("stride 5", "not a multiple of 4", "no complement"),
    ),
    (
        "complement-negative-stride",
        "complement(Layout(4, -1), 8)",
        AdmissibilityError,
        ("negative stride -1",),
    ),
    ("complement-negative-cotarget", "complement(L, -1)", LayoutValueError, ("non-negative", "-1")),
    ("complement-float-cotarget", "complement(L, 2.5)", LayoutTypeError, ("cotarget", "2.5")),
    (
        "left_inverse-divisibility",
        "left_inverse(Layout((2, 2), (2, 3)))",
        AdmissibilityError,
        ("divisibility", "stride 3", "multiple of 2"),
    ),
    ("left_inverse-negative", "left_inverse(Layout(4, -1))", AdmissibilityError, ("negative stride -1",)),
    ("left_inverse-not-layout", "left_inverse('x')", LayoutTypeError, ("expected a Layout",)),
    ("right_inverse-not-layout", "right_inverse('x')", LayoutTypeError, ("expected a Layout",)),
    # ------------------------------------------------------------------- divide / product
    ("divide-too-many-modes", "logical_divide(L, (2, 2, 2))", CongruenceError, ("too many modes", "rank-2")),
    ("divide-stride-div", "logical_divide(L, 3)", AdmissibilityError, ("stride divisibility", "stride 3")),
    ("divide-str-tiler", "logical_divide(L, 'x')", LayoutTypeError, ("tiler must be",)),
    (
        "zipped-divide-underscore-leaf",
        "zipped_divide(Layout((4, 6)), (_, 2))",
        CongruenceError,
        ("rank-2", "got 4"),
    ),
    ("product-too-many-modes", "logical_product(L, (2, 2, 2))", CongruenceError, ("too many modes",)),
    (
        "product-shape-div",
        "logical_product(Layout(2, 2), Layout(3, 1))",
        AdmissibilityError,
        ("shape divisibility", "remaining size 3"),
    ),
    ("product-str-tiler", "logical_product(L, 'x')", LayoutTypeError, ("tiler must be",)),
    ("blocked-str", "blocked_product(L, 'x')", LayoutTypeError, ("expected a Layout",)),
    (
        "blocked-rank1-tuple-vs-leaf",
        "blocked_product(Layout((12,), (1,)), Layout(2, 9))",
        CongruenceError,
        ("mismatched ranks",),
    ),
    (
        "tile_to_shape-not-dividing",
        "tile_to_shape(Layout((8, 8), (8, 1)), (12, 16))",
        AdmissibilityError,
        ("does not divide", "size 12", "8"),
    ),
    (
        "tile_to_shape-rank",
        "tile_to_shape(Layout((8, 8), (8, 1)), (16,))",
        CongruenceError,
        ("rank 2", "rank 1"),
    ),
    ("tile_to_shape-negative", "tile_to_shape(Layout((8, 8), (8, 1)), (16, -8))", LayoutValueError, ("non-negative",)),
    (
        "tile_to_shape-duplicate-order",
        "tile_to_shape(Layout((8, 8), (8, 1)), (16, 32), (0, 0))",
        LayoutValueError,
        ("distinct",),
    ),
    # ------------------------------------------------------------------- casts
    (
        "upcast-not-divisible",
        "upcast(Layout((3, 4), (1, 3)), 2)",
        AdmissibilityError,
        ("upcast<2>", "stride 3", "divide"),
    ),
    ("upcast-zero", "upcast(L, 0)", LayoutValueError, ("positive integer", "0")),
    ("upcast-negative", "upcast(L, -2)", LayoutValueError, ("positive integer", "-2")),
    ("upcast-float", "upcast(L, 2.0)", LayoutValueError, ("positive integer", "2.0")),
    ("upcast-bool", "upcast(L, True)", LayoutValueError, ("positive integer", "True")),
    (
        "downcast-no-unit-stride",
        "downcast(Layout((4, 2), (2, 8)), 2)",
        AdmissibilityError,
        ("downcast<2>", "no stride-1", "(4,2):(2,8)"),
    ),
    ("downcast-zero", "downcast(L, 0)", LayoutValueError, ("positive integer",)),
    ("downcast-float", "downcast(L, 1.5)", LayoutValueError, ("positive integer", "1.5")),
    ("recast-zero-old", "recast(L, 0, 8)", LayoutValueError, ("recast", "positive integer", "0")),
    ("recast-zero-new", "recast(L, 8, 0)", LayoutValueError, ("recast", "positive integer", "0")),
    ("recast-negative", "recast(L, -8, 16)", LayoutValueError, ("recast", "-8")),
    ("recast-float", "recast(L, 8.0, 16)", LayoutValueError, ("recast", "8.0")),
    # ------------------------------------------------------------------- make_ordered_layout, coalesce, misc
    (
        "ordered-duplicate",
        "make_ordered_layout((2, 2, 2), (0, 1, 1))",
        LayoutValueError,
        ("distinct", "(0,1,1)"),
    ),
    (
        "ordered-not-congruent",
        "make_ordered_layout((2, 2, 2), (0, 1))",
        CongruenceError,
        ("not weakly congruent", "(0,1)", "(2,2,2)"),
    ),
    ("ordered-negative-shape", "make_ordered_layout((2, -1), (0, 1))", LayoutValueError, ("non-negative",)),
    ("ordered-str-order", "make_ordered_layout((2, 2), (0, 'a'))", LayoutTypeError, ("order", "'a'")),
    ("coalesce-too-many-modes", "coalesce(L, (1, 1, 1))", CongruenceError, ("too many modes",)),
    ("filter-too-many-modes", "filter(L, (1, 1, 1))", CongruenceError, ("too many modes",)),
    ("coalesce-not-layout", "coalesce('x')", LayoutTypeError, ("expected a Layout",)),
    ("cosize-shape", "cosize((4, 2))", LayoutTypeError, ("expected a layout",)),
    ("stride-shape", "stride((4, 2))", LayoutTypeError, ("expected a Layout",)),
    ("max_common_vector-str", "max_common_vector(L, 'x')", LayoutTypeError, ("expected a Layout",)),
    # ------------------------------------------------------------------- int tuples
    ("crd2idx-rank", "crd2idx((1, 2, 3), (2, 4))", CongruenceError, ("not congruent",)),
    ("crd2idx-range", "crd2idx((1, 4), (2, 4), check=True)", CoordinateError, ("coordinate 4", "[0, 4)")),
    ("crd2idx-int-range", "crd2idx(8, (2, 4), check=True)", CoordinateError, ("coordinate 8", "[0, 8)")),
    ("idx2crd-rank", "idx2crd((1, 2), (4,))", CongruenceError, ("not congruent",)),
    ("shape_div-not-dividing", "shape_div(6, 4)", AdmissibilityError, ("neither 6 nor 4",)),
    ("shape_div-ranks", "shape_div((4, 6), (2,))", CongruenceError, ("ranks differ",)),
    ("shape_div-zero", "shape_div(3, 0)", AdmissibilityError, ("division by zero",)),
    ("ceil_div-zero", "ceil_div(5, 0)", AdmissibilityError, ("division by zero",)),
    ("ceil_div-ranks", "ceil_div((4,), (2, 2))", CongruenceError, ("more modes",)),
    ("prefix_product-init", "prefix_product((2, 3), (1,))", CongruenceError, ("init", "not congruent")),
    # ------------------------------------------------------------------- notation
    ("parse-truncated", "parse('(8,4):(4,')", NotationError, ("found end of input", "column 10")),
    ("parse-trailing", "parse('(8,4):(4,1)x')", NotationError, ("unexpected 'x'", "column 12")),
    ("parse-not-congruent", "parse('(8,4):(4,1,2)')", NotationError, ("not congruent",)),
    ("parse-double-colon", "parse('(8,4)::(4,1)')", NotationError, ("found ':'",)),
    ("parse-empty", "parse('')", NotationError, ("end of input",)),
    ("parse-bad-char", "parse('(8,$)')", NotationError, ("unexpected character '$'",)),
    ("parse-swizzle-args", "parse('Sw<3,4>')", NotationError, ("expected ','",)),
    ("parse-not-a-string", "parse(42)", NotationError, ("expected a string",)),
    ("parse-negative-shape", "parse('(8,-1):(1,8)')", NotationError, ("non-negative",)),
    ("parse-inexact-division", "parse('(8,4):(4/3,1)')", NotationError, ("divide exactly", "4/3")),
    ("parse-swizzle-overlap", "parse('Sw<1,4,0> o 8:1')", NotationError, ("|S| >= B", "column")),
    # ------------------------------------------------------------------- swizzles
    ("swizzle-overlap", "Swizzle(3, 4, 2)", SwizzleError, ("|S| >= B", "|S| = 2 < B = 3")),
    ("swizzle-negative-bits", "Swizzle(-1, 4, 3)", SwizzleError, ("B", "-1")),
    ("swizzle-float", "Swizzle(3.0, 4, 3)", SwizzleError, ("must be an integer", "3.0")),
    ("swizzle-float-address", "Swizzle(1, 4, 3)(1.5)", LayoutTypeError, ("address", "1.5")),
    # ------------------------------------------------------------------- the empty layout ():() (CuTe: no op compiles)
    ("empty-coalesce", "coalesce(Layout(()))", LayoutValueError, ("coalesce", "empty layout ():()", "no modes")),
    ("empty-filter", "filter(Layout(()))", LayoutValueError, ("filter", "empty layout", "no modes")),
    ("empty-complement", "complement(Layout(()), 8)", LayoutValueError, ("complement", "empty layout")),
    ("empty-right_inverse", "right_inverse(Layout(()))", LayoutValueError, ("right_inverse", "empty layout")),
    ("empty-left_inverse", "left_inverse(Layout(()))", LayoutValueError, ("left_inverse", "empty layout")),
    ("empty-call", "Layout(())(0)", LayoutValueError, ("calling", "empty layout ():()")),
    ("empty-call-nested", "Layout(((), ()), ((), ()))(())", LayoutValueError, ("empty layout ((),()):((),())",)),
    ("empty-to_numpy", "Layout(()).to_numpy()", LayoutValueError, ("to_numpy", "empty layout")),
    ("empty-composition-lhs", "composition(Layout(()), Layout(4, 1))", LayoutValueError, ("composition", "empty")),
    ("empty-composition-rhs", "composition(Layout(4, 1), Layout(()))", LayoutValueError, ("composition", "empty")),
    ("empty-upcast", "upcast(Layout(()), 2)", LayoutValueError, ("upcast", "empty layout")),
    ("empty-logical_divide", "logical_divide(Layout(()), 2)", LayoutValueError, ("empty layout",)),
    # ------------------------------------------------------------------- slicing with check=True
    ("slice-check", "L(_, 4, check=True)", CoordinateError, ("slice of (8,4):(4,1)", "coordinate 4", "[0, 4)")),
    ("slice-check-first", "L(8, _, check=True)", CoordinateError, ("coordinate 8", "[0, 8)")),
    ("slice-check-method", "L.slice_and_offset(_, -1, check=True)", CoordinateError, ("coordinate -1",)),
    ("slice-check-function", "slice_and_offset((_, 4), L, check=True)", CoordinateError, ("coordinate 4",)),
    # ------------------------------------------------------------------- composition: interacting modes of B
    (
        "composition-interacting-modes",
        "composition(Layout((4, 3), (1, 10)), Layout((3, 2), (1, 3)))",
        AdmissibilityError,
        ("modes of B interact", "mode 0 (shape 4)", "adding up to 5 >= 4", "A(B) = 11"),
    ),
    (
        "composition-overlapping-modes",
        "composition(Layout((2, 2), (1, 10)), Layout((2, 2), (1, 1)))",
        AdmissibilityError,
        ("modes of B interact", "adding up to 2 >= 2"),
    ),
    (
        "composition-mixed-signs",
        "composition(Layout((4, 3), (1, 10)), Layout((2, 2), (-1, 4)))",
        AdmissibilityError,
        ("modes of B interact", "positive and of negative stride"),
    ),
]


def _run(expr: str) -> None:
    eval(expr, dict(NS))  # noqa: S307 - the catalog is this file's own constant


@pytest.mark.parametrize("row", CATALOG, ids=[r[0] for r in CATALOG])
def test_bad_input(row: tuple[str, str, type, tuple[str, ...]]) -> None:
    _id, expr, exc_type, words = row
    with pytest.raises(exc_type) as info:
        _run(expr)
    assert isinstance(info.value, LayoutError)
    message = str(info.value).lower()
    missing = [w for w in words if w.lower() not in message]
    assert not missing, f"{expr}: message {str(info.value)!r} lacks {missing}"


def test_catalog_is_large_and_unique() -> None:
    ids = [r[0] for r in CATALOG]
    assert len(ids) >= 40 and len(ids) == len(set(ids))


def test_layout_errors_are_value_errors() -> None:
    """Generic callers that catch ValueError (and TypeError / IndexError where it fits) keep working."""
    with pytest.raises(ValueError):
        pl.Layout(-1)
    with pytest.raises(TypeError):
        pl.Layout(2.0)
    with pytest.raises(IndexError):
        NS["L"](40, check=True)


# ------------------------------------------------------------------------------------ python -O

_SUBPROCESS = r"""
import json, sys
import numpy as np
import pycute_layouts as pl
assert not __debug__ or sys.exit("not running under -O")
ns = {name: getattr(pl, name) for name in pl.__all__}
ns.update(np=np, L=pl.Layout((8, 4), (4, 1)))
out = {}
for key, expr in json.loads(sys.stdin.read()):
    try:
        eval(expr, dict(ns))
        out[key] = "no exception"
    except Exception as exc:
        out[key] = type(exc).__name__
print(json.dumps(out))
"""


def test_same_errors_under_python_O() -> None:
    """Run every catalog row under ``python -O`` (asserts stripped): the same exception types come out."""
    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(root) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    rows = [(r[0], r[1]) for r in CATALOG]
    proc = subprocess.run(
        [sys.executable, "-O", "-c", _SUBPROCESS],
        input=json.dumps(rows),
        capture_output=True,
        text=True,
        env=env,
        cwd=root,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)
    expected = {r[0]: r[2].__name__ for r in CATALOG}
    assert got == expected


# ------------------------------------------------------------------- formerly known bugs (were strict xfails)


@pytest.mark.parametrize(
    "expr",
    [
        "coalesce(Layout(()))",
        "filter(Layout(()))",
        "complement(Layout(()))",
        "right_inverse(Layout(()))",
        "left_inverse(Layout(()))",
        "Layout(())(0)",
        "composition(Layout(()), Layout(4, 1))",
    ],
)
def test_empty_layout_raises_layout_error_not_index_error(expr: str) -> None:
    """The empty layout ():() exists (size 1, rank 0, as in CuTe); CuTe compiles no operation on it."""
    with pytest.raises(LayoutError, match="empty layout"):
        _run(expr)


def test_empty_layout_where_cute_compiles() -> None:
    """What CuTe C++ does compile for Layout<Shape<>,Stride<>> (values checked with the oracle)."""
    e = pl.Layout(())
    assert (str(e), e.size(), e.cosize(), e.rank(), list(e)) == ("():()", 1, 1, 0, [])
    assert str(pl.make_layout(e)) == "(()):(())"
    assert str(pl.tile_to_shape(e, (4,))) == "((1,4)):((0,1))"
    assert str(pl.nullspace(e)) == "1:0"
    assert str(pl.blocked_product(e, pl.Layout((4, 2)))) == "((1,4),(1,2)):((0,1),(0,4))"
    assert str(pl.raked_product(pl.Layout((4, 2)), e)) == "((1,4),(1,2)):((0,1),(0,4))"
    assert str(pl.make_ordered_layout((), ())) == "():()"


def test_slice_honours_check() -> None:
    with pytest.raises(CoordinateError):
        _run("L(_, 4, check=True)")
    L = pl.Layout((8, 4), (4, 1))
    assert str(L(_, 3, check=True)) == "8:4"  # in range: the same slice as without check
    assert str(L(_, 4)) == "8:4"  # unchecked (default, CuTe): the fixed part is not range-checked
    assert L.slice_and_offset(_, 4) == (pl.Layout(8, 4), 4)
    sw = pl.make_composed_layout(pl.Swizzle(1, 1, 1), 0, L)
    with pytest.raises(CoordinateError):
        sw(_, 4, check=True)
