"""Exact, hand-worked expected values for every operation of the layout algebra.

Each row of :data:`CASES` is ``(id, thunk, expected, cxx)``: ``thunk()`` computed with
pycute_layouts must print (``str``) or equal ``expected``; ``cxx``, when given, is the same
computation in CuTe C++, which ``tests/test_layout_differential.py`` evaluates with the CuTe
oracle and compares with the same ``expected`` (so every value here is checked twice: by the
hand derivation written next to it and by CuTe itself).  Citations "CuTe docs" refer to
``media/docs/cpp/cute/02_layout_algebra.md`` of CUTLASS (printed there with ``_`` on static ints).

:data:`BUG_CASES` at the bottom are the bugs this suite found (CuTe's value, and what we printed
before the fix). Where this library differs from CuTe on purpose, the test says so next to it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
import pytest

from pycute_layouts import (
    AdmissibilityError,
    CoordinateError,
    Layout,
    _,
    blocked_product,
    ceil_div,
    coalesce,
    compatible,
    complement,
    composition,
    congruent,
    cosize,
    crd2idx,
    depth,
    downcast,
    filter,
    flat_divide,
    flat_product,
    flatten,
    idx2crd,
    idx2crd_flat,
    left_inverse,
    logical_divide,
    logical_product,
    make_identity_layout,
    make_layout,
    make_ordered_layout,
    max_common_layout,
    max_common_vector,
    nullspace,
    prefix_product,
    product,
    raked_product,
    rank,
    recast,
    right_inverse,
    shape,
    shape_div,
    size,
    slice_and_offset,
    stride,
    tile_to_shape,
    tiled_divide,
    tiled_product,
    upcast,
    weakly_congruent,
    zipped_divide,
    zipped_product,
)


def L(text: str) -> Layout:
    """Shorthand: a layout from CuTe notation."""
    return Layout(text)


class Case(NamedTuple):
    id: str
    thunk: Callable[[], Any]
    expected: Any
    cxx: str | None = None


def _cx(text: str) -> str:
    """C++ text of a static layout written in CuTe notation, e.g. ``(4,8):(8,1)``."""
    from oracles import layout_cxx  # tests/ is on sys.path (conftest)

    lay = Layout(text)
    return layout_cxx(lay.shape, lay.stride)


# A hierarchical layout used in several rows: CuTe docs 01_layout, "((2,4),(3,5)):((1,2),(8,24))"
H = "((2,4),(3,5)):((1,2),(8,24))"
# Row-major 8x4 and a hierarchical 16x16 layout from this package's docs
RM = "(8,4):(4,1)"
HH = "((8,2),(4,4)):((4,32),(1,64))"

CASES: list[Case] = [
    # ---------------------------------------------------------------- construction and printing
    Case("str-rowmajor", lambda: Layout((8, 4), (4, 1)), "(8,4):(4,1)", _cx("(8,4):(4,1)")),
    # default stride = compact column-major (prefix product of the shape): ((1,2),8)
    Case(
        "default-stride-nested",
        lambda: Layout(((2, 4), 3)),
        "((2,4),3):((1,2),8)",
        "make_layout(Shape<Shape<_2,_4>,_3>{})",
    ),
    Case("default-stride-leaf", lambda: Layout(8), "8:1", "make_layout(_8{})"),
    # a rank-1 tuple keeps its parentheses (CuTe prints (_4):(_1))
    Case("rank1-tuple", lambda: Layout((4,)), "(4):(1)", "Layout<Shape<_4>>{}"),
    Case("lists-become-tuples", lambda: Layout([4, [2, 3]]), "(4,(2,3)):(1,(4,8))"),
    Case("numpy-ints", lambda: Layout(np.int64(4), np.int32(2)), "4:2"),
    Case("parse-roundtrip", lambda: Layout("((8,2),(4,4)):((4,32),(1,64))"), HH, _cx(HH)),
    Case("repr", lambda: repr(Layout((8, 4), (4, 1))), "Layout('(8,4):(4,1)')"),
    Case("negative-stride", lambda: Layout((4, 2), (-1, 4)), "(4,2):(-1,4)"),
    # ---------------------------------------------------------------- evaluation
    # 10 = 2 + 1*8 -> (2,1) -> 2*4 + 1*1 = 9
    Case("call-index", lambda: L(RM)(10), 9, f"{_cx(RM)}(10)"),
    Case("call-flat", lambda: L(RM)(2, 1), 9, f"{_cx(RM)}(2,1)"),
    Case("call-tuple", lambda: L(RM)((2, 1)), 9),
    Case("call-list", lambda: L(RM)([2, 1]), 9),
    # 91 = 11 + 5*16; 11 -> (3,1) -> 3*4+1*32 = 44; 5 -> (1,1) -> 1+64 = 65; 44+65 = 109
    Case("call-hier-index", lambda: L(HH)(91), 109, f"{_cx(HH)}(91)"),
    Case("call-hier-flat", lambda: L(HH)(11, 5), 109, f"{_cx(HH)}(11,5)"),
    Case(
        "call-hier-full",
        lambda: L(HH)((3, 1), (1, 1)),
        109,
        f"{_cx(HH)}(make_coord(make_coord(3,1),make_coord(1,1)))",
    ),
    # CuTe's last mode is not taken modulo: 40 = 0 + 5*8 -> 5*1 = 5; flat (9,1): 9*4 + 1 = 37
    Case("call-extends-last-mode", lambda: L(RM)(40), 5, f"{_cx(RM)}(40)"),
    Case("call-flat-unchecked", lambda: L(RM)(9, 1), 37, f"{_cx(RM)}(9,1)"),
    Case("call-numpy-scalar", lambda: L(RM)(np.int64(3)), 12),
    Case("stride0-call", lambda: L("(4,3):(1,0)")(7), 3, f"{_cx('(4,3):(1,0)')}(7)"),
    # ---------------------------------------------------------------- slicing
    # ((1,_),_): fixed part (1,0),(0,0) -> offset 1; kept modes (4,(3,5)):(2,(8,24))
    Case(
        "slice-hier",
        lambda: str(L(H)(((1, _), _))),
        "(4,(3,5)):(2,(8,24))",
        f"{_cx(H)}(make_coord(make_coord(1,_),_))",
    ),
    Case("slice-and-offset-hier", lambda: slice_and_offset(((1, _), _), L(H))[1], 1),
    # ((1,_),2): offset 1*1 + 2*8 = 17
    Case(
        "slice-offset-17",
        lambda: slice_and_offset(((1, _), 2), L(H))[1],
        17,
        f"get<1>(slice_and_offset(make_coord(make_coord(1,_),2), {_cx(H)}))",
    ),
    Case("slice-all", lambda: str(L(RM)(_, _)), "(8,4):(4,1)", f"{_cx(RM)}(_,_)"),
    Case("slice-method", lambda: L(RM).slice_and_offset(2, _)[1], 8),
    # ---------------------------------------------------------------- modes and attributes
    Case(
        "getitem-1",
        lambda: L("(8,(2,3)):(1,(8,16))")[1],
        "(2,3):(8,16)",
        f"layout<1>({_cx('(8,(2,3)):(1,(8,16))')})",
    ),
    Case(
        "getitem-0", lambda: L("(8,(2,3)):(1,(8,16))")[0], "8:1", f"layout<0>({_cx('(8,(2,3)):(1,(8,16))')})"
    ),
    Case(
        "getitem-path",
        lambda: L("(8,(2,3)):(1,(8,16))")[1, 0],
        "2:8",
        f"layout<1,0>({_cx('(8,(2,3)):(1,(8,16))')})",
    ),
    Case("getitem-leaf-layout", lambda: L("8:1")[0], "8:1"),
    Case("iter", lambda: [str(m) for m in L("(8,(2,3)):(1,(8,16))")], ["8:1", "(2,3):(8,16)"]),
    Case("len", lambda: len(L("(8,(2,3)):(1,(8,16))")), 2),
    Case("size", lambda: size(L(HH)), 256, f"size({_cx(HH)})"),
    Case(
        "size-mode", lambda: size(L("(8,(2,3)):(1,(8,16))"), 1), 6, f"size<1>({_cx('(8,(2,3)):(1,(8,16))')})"
    ),
    Case("size-shape", lambda: size((2, (3, 4))), 24),
    # cosize = 1 + sum((s-1)*d): 1 + 7*1 + 3*16 = 56
    Case("cosize", lambda: cosize(L("(8,4):(1,16)")), 56, f"cosize({_cx('(8,4):(1,16)')})"),
    Case("cosize-stride0", lambda: cosize(L("(4,2):(1,0)")), 4, f"cosize({_cx('(4,2):(1,0)')})"),
    Case("rank", lambda: rank(L("((8,2),4):((1,8),16)")), 2, f"rank({_cx('((8,2),4):((1,8),16)')})"),
    Case("rank-leaf", lambda: rank(L("8:1")), 1, f"rank({_cx('8:1')})"),
    Case("depth", lambda: depth(L("((8,2),4):((1,8),16)")), 2, f"depth({_cx('((8,2),4):((1,8),16)')})"),
    Case("depth-leaf", lambda: depth(L("8:1")), 0, f"depth({_cx('8:1')})"),
    Case("shape", lambda: shape(L("((8,2),4):((1,8),16)")), ((8, 2), 4)),
    Case("stride", lambda: stride(L("((8,2),4):((1,8),16)")), ((1, 8), 16)),
    Case(
        "attrs",
        lambda: (L(RM).shape, L(RM).stride, L(RM).size(), L(RM).cosize(), L(RM).rank(), L(RM).depth()),
        ((8, 4), (4, 1), 32, 32, 2, 1),
    ),
    # ---------------------------------------------------------------- make_layout
    Case(
        "make_layout-concat",
        lambda: make_layout(L("4:1"), L("(2,3):(8,16)")),
        "(4,(2,3)):(1,(8,16))",
        f"make_layout({_cx('4:1')}, {_cx('(2,3):(8,16)')})",
    ),
    Case("make_layout-one", lambda: make_layout(L("4:1")), "(4):(1)", f"make_layout({_cx('4:1')})"),
    Case("make_layout-shape", lambda: make_layout((4, 2)), "(4,2):(1,4)", "make_layout(Shape<_4,_2>{})"),
    Case(
        "make_layout-shape-stride",
        lambda: make_layout((4, 2), (2, 1)),
        "(4,2):(2,1)",
        "make_layout(Shape<_4,_2>{}, Stride<_2,_1>{})",
    ),
    # ---------------------------------------------------------------- coalesce / filter
    # CuTe docs: coalesce((2,(1,6)):(1,(6,2))) = 12:1
    Case(
        "coalesce-docs",
        lambda: coalesce(L("(2,(1,6)):(1,(6,2))")),
        "12:1",
        f"coalesce({_cx('(2,(1,6)):(1,(6,2))')})",
    ),
    # CuTe docs: coalesce by mode, Step<_1,_1>: (2,6):(1,2)
    Case(
        "coalesce-docs-bymode",
        lambda: coalesce(L("(2,(1,6)):(1,(6,2))"), (1, 1)),
        "(2,6):(1,2)",
        f"coalesce({_cx('(2,(1,6)):(1,(6,2))')}, Step<_1,_1>{{}})",
    ),
    Case(
        "coalesce-profile",
        lambda: coalesce(L(H), (1, 1)),
        "(8,15):(1,8)",
        f"coalesce({_cx(H)}, Step<_1,_1>{{}})",
    ),
    # modes past the profile are kept as they are
    Case(
        "coalesce-profile-keeps-rest",
        lambda: coalesce(L("((2,4),(3,5),2):((1,2),(8,24),1)"), (1, 1)),
        "(8,15,2):(1,8,1)",
        f"coalesce({_cx('((2,4),(3,5),2):((1,2),(8,24),1)')}, Step<_1,_1>{{}})",
    ),
    # flat (2,4,3,5):(1,2,8,24): 2*1 = 2, 8*1 = 8, 24*1 = 24 -> everything merges into 120:1
    Case("coalesce-full", lambda: coalesce(L(H)), "120:1", f"coalesce({_cx(H)})"),
    Case("coalesce-rowmajor-unchanged", lambda: coalesce(L(RM)), RM, f"coalesce({_cx(RM)})"),
    Case("coalesce-compact", lambda: coalesce(L("(2,4):(1,2)")), "8:1", f"coalesce({_cx('(2,4):(1,2)')})"),
    Case("coalesce-all-ones", lambda: coalesce(L("(1,1):(3,5)")), "1:0", f"coalesce({_cx('(1,1):(3,5)')})"),
    # (_4,_1):(_1,_0) coalesces to _4:_1 (the example in CuTe's comment on coalesce_x)
    Case(
        "coalesce-trailing-one", lambda: coalesce(L("(4,1):(1,0)")), "4:1", f"coalesce({_cx('(4,1):(1,0)')})"
    ),
    # 3*0 == 0 and 2*0 == 0: stride-0 modes merge
    Case(
        "coalesce-stride0",
        lambda: coalesce(L("(2,3,4):(0,0,0)")),
        "24:0",
        f"coalesce({_cx('(2,3,4):(0,0,0)')})",
    ),
    Case(
        "coalesce-negative", lambda: coalesce(L("(4,2):(-1,-4)")), "8:-1", f"coalesce({_cx('(4,2):(-1,-4)')})"
    ),
    Case("filter", lambda: filter(L("(4,2,3):(1,0,4)")), "12:1", f"filter({_cx('(4,2,3):(1,0,4)')})"),
    Case("filter-all-zero", lambda: filter(L("(4,2):(0,0)")), "1:0", f"filter({_cx('(4,2):(0,0)')})"),
    Case(
        "filter-profile",
        lambda: filter(L("((4,2),3):((1,0),0)"), (1, 1)),
        "(4,1):(1,0)",
        f"filter({_cx('((4,2),3):((1,0),0)')}, Step<_1,_1>{{}})",
    ),
    # ---------------------------------------------------------------- composition
    # CuTe docs: (6,2):(8,2) o (4,3):(3,1) = ((2,2),3):((24,2),8)
    Case(
        "composition-docs-1",
        lambda: composition(L("(6,2):(8,2)"), L("(4,3):(3,1)")),
        "((2,2),3):((24,2),8)",
        f"composition({_cx('(6,2):(8,2)')}, {_cx('(4,3):(3,1)')})",
    ),
    # CuTe docs: 20:2 o (5,4):(4,1) = (5,4):(8,2)
    Case(
        "composition-docs-2",
        lambda: composition(L("20:2"), L("(5,4):(4,1)")),
        "(5,4):(8,2)",
        f"composition({_cx('20:2')}, {_cx('(5,4):(4,1)')})",
    ),
    # CuTe docs: (10,2):(16,4) o (5,4):(1,5) = (5,(2,2)):(16,(80,4))
    Case(
        "composition-docs-3",
        lambda: composition(L("(10,2):(16,4)"), L("(5,4):(1,5)")),
        "(5,(2,2)):(16,(80,4))",
        f"composition({_cx('(10,2):(16,4)')}, {_cx('(5,4):(1,5)')})",
    ),
    # CuTe docs (by-mode): (12,(4,8)):(59,(13,1)) o <3:4, 8:2> = (3,(2,4)):(236,(26,1))
    Case(
        "composition-docs-tiler",
        lambda: composition(L("(12,(4,8)):(59,(13,1))"), (L("3:4"), L("8:2"))),
        "(3,(2,4)):(236,(26,1))",
        f"composition({_cx('(12,(4,8)):(59,(13,1))')}, make_tile({_cx('3:4')},{_cx('8:2')}))",
    ),
    # CuTe docs: the same with the shape tiler <_3,_8>: (_3,(_4,_2)):(59,(13,1))
    Case(
        "composition-docs-shape-tiler",
        lambda: composition(L("(12,(4,8)):(59,(13,1))"), (3, 8)),
        "(3,(4,2)):(59,(13,1))",
        f"composition({_cx('(12,(4,8)):(59,(13,1))')}, make_tile(_3{{}},_8{{}}))",
    ),
    # an int tiler n means n:1: (4,8):(8,1) o 8:1 -> (4,2):(8,1)
    Case(
        "composition-int",
        lambda: composition(L("(4,8):(8,1)"), 8),
        "(4,2):(8,1)",
        f"composition({_cx('(4,8):(8,1)')}, _8{{}})",
    ),
    Case(
        "composition-tuple",
        lambda: composition(L("(4,8):(8,1)"), (2, 4)),
        "(2,4):(8,1)",
        f"composition({_cx('(4,8):(8,1)')}, make_tile(_2{{}},_4{{}}))",
    ),
    # CuTe: modes of A beyond a tuple tiler are DROPPED by composition ...
    Case(
        "composition-drops-rest",
        lambda: composition(L("(8,8,3):(1,8,64)"), (2, 4)),
        "(2,4):(1,8)",
        f"composition({_cx('(8,8,3):(1,8,64)')}, make_tile(_2{{}},_4{{}}))",
    ),
    # ... and `_` keeps a mode whole: (8:1, (8:8 o 4:2) = 4:16)
    Case(
        "composition-underscore",
        lambda: composition(L("(8,8,3):(1,8,64)"), (_, L("4:2"))),
        "(8,4):(1,16)",
        f"composition({_cx('(8,8,3):(1,8,64)')}, make_tile(_,{_cx('4:2')}))",
    ),
    Case("composition-underscore-whole", lambda: composition(L(RM), _), RM),
    # CuTe self-check: (4,6):(1,4) is 24:1 after coalesce, so 6:1 is admissible
    Case(
        "composition-coalesces-lhs",
        lambda: composition(L("(4,6):(1,4)"), L("6:1")),
        "6:1",
        f"composition({_cx('(4,6):(1,4)')}, {_cx('6:1')})",
    ),
    # stride 0 in B: every point maps to A(0)
    Case(
        "composition-stride0",
        lambda: composition(L("(4,8):(8,1)"), L("4:0")),
        "4:0",
        f"composition({_cx('(4,8):(8,1)')}, {_cx('4:0')})",
    ),
    # coalesce_x keeps A's last stride past the domain: (4,1):(1,5) o 8:1 = (4,2):(1,5)
    Case(
        "composition-coalesce-x",
        lambda: composition(L("(4,1):(1,5)"), L("8:1")),
        "(4,2):(1,5)",
        f"composition({_cx('(4,1):(1,5)')}, {_cx('8:1')})",
    ),
    Case(
        "composition-coalesce-x-2",
        lambda: composition(L("(4,1,1):(2,5,0)"), L("8:1")),
        "(4,2):(2,0)",
        f"composition({_cx('(4,1,1):(2,5,0)')}, {_cx('8:1')})",
    ),
    Case(
        "composition-negative-b",
        lambda: composition(L("(4,2):(1,8)"), L("4:-1")),
        "4:-1",
        f"composition({_cx('(4,2):(1,8)')}, {_cx('4:-1')})",
    ),
    Case(
        "composition-negative-a",
        lambda: composition(L("8:-2"), L("4:2")),
        "4:-4",
        f"composition({_cx('8:-2')}, {_cx('4:2')})",
    ),
    # stride 3 does not divide shape 4 but both points (0, 3) fall inside mode 0: 2:3
    Case(
        "composition-inside-mode",
        lambda: composition(L("(4,3):(1,10)"), L("2:3")),
        "2:3",
        f"composition({_cx('(4,3):(1,10)')}, {_cx('2:3')})",
    ),
    # ---------------------------------------------------------------- complement
    # CuTe docs: complement(4:1, 24) = 6:4
    Case("complement-docs-1", lambda: complement(L("4:1"), 24), "6:4", f"complement({_cx('4:1')}, _24{{}})"),
    # CuTe docs: complement(6:4, 24) = 4:1
    Case("complement-docs-2", lambda: complement(L("6:4"), 24), "4:1", f"complement({_cx('6:4')}, _24{{}})"),
    # CuTe docs: complement((4,6):(1,4), 24) = 1:0 (already a bijection onto [0,24))
    Case(
        "complement-docs-3",
        lambda: complement(L("(4,6):(1,4)"), 24),
        "1:0",
        f"complement({_cx('(4,6):(1,4)')}, _24{{}})",
    ),
    # CuTe docs: complement(4:2, 24) = (2,3):(1,8)
    Case(
        "complement-docs-4",
        lambda: complement(L("4:2"), 24),
        "(2,3):(1,8)",
        f"complement({_cx('4:2')}, _24{{}})",
    ),
    # CuTe docs: complement((2,4):(1,6), 24) = 3:2
    Case(
        "complement-docs-5",
        lambda: complement(L("(2,4):(1,6)"), 24),
        "3:2",
        f"complement({_cx('(2,4):(1,6)')}, _24{{}})",
    ),
    # CuTe docs: complement((2,2):(1,6), 24) = (3,2):(2,12)
    Case(
        "complement-docs-6",
        lambda: complement(L("(2,2):(1,6)"), 24),
        "(3,2):(2,12)",
        f"complement({_cx('(2,2):(1,6)')}, _24{{}})",
    ),
    # default cotarget: cosize(filter(L)) = 20 -> rest ceil(20/24) = 1
    Case(
        "complement-default", lambda: complement(L("(2,4):(1,6)")), "3:2", f"complement({_cx('(2,4):(1,6)')})"
    ),
    # M not a multiple of the extent: rounded up, ceil(7/8) = 1 -> 2:1
    Case("complement-round-up", lambda: complement(L("4:2"), 7), "2:1", f"complement({_cx('4:2')}, _7{{}})"),
    Case("complement-compact", lambda: complement(L("4:1"), 4), "1:0", f"complement({_cx('4:1')}, _4{{}})"),
    # tuple cotarget: rest = ceil_div((4,8), 8) = (1,4) -> (2,4):(1,8)
    Case(
        "complement-tuple-cotarget",
        lambda: complement(L("4:2"), (4, 8)),
        "(2,4):(1,8)",
        f"complement({_cx('4:2')}, Shape<_4,_8>{{}})",
    ),
    # tuple cotarget walks the modes: ceil_div((3,4), 4) = (1, 2) -> (2,2):(1,4); the int 12 gives (2,3):(1,4)
    Case(
        "complement-tuple-cotarget-walk",
        lambda: complement(L("2:2"), (3, 4)),
        "(2,2):(1,4)",
        f"complement({_cx('2:2')}, Shape<_3,_4>{{}})",
    ),
    Case(
        "complement-int-cotarget-12",
        lambda: complement(L("2:2"), 12),
        "(2,3):(1,4)",
        f"complement({_cx('2:2')}, _12{{}})",
    ),
    # stride-0 layouts: the complement is all of [0, M)
    Case(
        "complement-stride0",
        lambda: complement(L("4:0"), (3, 4)),
        "12:1",
        f"complement({_cx('4:0')}, Shape<_3,_4>{{}})",
    ),
    Case("complement-size1", lambda: complement(L("1:3"), 5), "5:1", f"complement({_cx('1:3')}, _5{{}})"),
    # ---------------------------------------------------------------- inverses
    # (4,2):(2,1): i -> 2*(i%4) + i//4; inverse j -> 4*(j%2) + j//2 = (2,4):(4,1)
    Case(
        "right_inverse",
        lambda: right_inverse(L("(4,2):(2,1)")),
        "(2,4):(4,1)",
        f"right_inverse({_cx('(4,2):(2,1)')})",
    ),
    Case(
        "right_inverse-rowmajor",
        lambda: right_inverse(L("(4,8):(8,1)")),
        "(8,4):(4,1)",
        f"right_inverse({_cx('(4,8):(8,1)')})",
    ),
    # nothing maps to 1: the largest right inverse is trivial
    Case("right_inverse-gap", lambda: right_inverse(L("4:2")), "1:0", f"right_inverse({_cx('4:2')})"),
    # sorted strides 1(2), 2(4), 8(3): chain 1 -> 2 -> 8 covers all: (2,4,3):(1,6,2)
    Case(
        "right_inverse-permuted",
        lambda: right_inverse(L("(2,3,4):(1,8,2)")),
        "(2,4,3):(1,6,2)",
        f"right_inverse({_cx('(2,3,4):(1,8,2)')})",
    ),
    # stride-0 modes are skipped, not a stop: (2,2):(0,1) -> 2:2
    Case(
        "right_inverse-stride0",
        lambda: right_inverse(L("(2,2):(0,1)")),
        "2:2",
        f"right_inverse({_cx('(2,2):(0,1)')})",
    ),
    Case(
        "left_inverse",
        lambda: left_inverse(L("(4,2):(2,1)")),
        "(2,4):(4,1)",
        f"left_inverse({_cx('(4,2):(2,1)')})",
    ),
    # 4:2 hits 0,2,4,6; its left inverse maps 2k -> k: (2,4):(0,1)
    Case("left_inverse-gap", lambda: left_inverse(L("4:2")), "(2,4):(0,1)", f"left_inverse({_cx('4:2')})"),
    Case(
        "left_inverse-2",
        lambda: left_inverse(L("(2,3):(3,1)")),
        "(3,2):(2,1)",
        f"left_inverse({_cx('(2,3):(3,1)')})",
    ),
    Case(
        "left_inverse-3",
        lambda: left_inverse(L("(3,2):(2,1)")),
        "(2,3):(3,1)",
        f"left_inverse({_cx('(3,2):(2,1)')})",
    ),
    Case(
        "left_inverse-stride0",
        lambda: left_inverse(L("(2,2):(1,0)")),
        "2:1",
        f"left_inverse({_cx('(2,2):(1,0)')})",
    ),
    # ---------------------------------------------------------------- divide
    # CuTe docs: logical_divide((4,2,3):(2,1,8), 4:2) = ((2,2),(2,3)):((4,1),(2,8))
    Case(
        "logical_divide-docs-1d",
        lambda: logical_divide(L("(4,2,3):(2,1,8)"), L("4:2")),
        "((2,2),(2,3)):((4,1),(2,8))",
        f"logical_divide({_cx('(4,2,3):(2,1,8)')}, {_cx('4:2')})",
    ),
    # CuTe docs (2-D): (9,(4,8)):(59,(13,1)) / <3:3, (2,4):(1,8)>
    Case(
        "logical_divide-docs-2d",
        lambda: logical_divide(L("(9,(4,8)):(59,(13,1))"), (L("3:3"), L("(2,4):(1,8)"))),
        "((3,3),((2,4),(2,2))):((177,59),((13,2),(26,1)))",
        f"logical_divide({_cx('(9,(4,8)):(59,(13,1))')}, make_tile({_cx('3:3')},{_cx('(2,4):(1,8)')}))",
    ),
    Case(
        "zipped_divide-docs-2d",
        lambda: zipped_divide(L("(9,(4,8)):(59,(13,1))"), (L("3:3"), L("(2,4):(1,8)"))),
        "((3,(2,4)),(3,(2,2))):((177,(13,2)),(59,(26,1)))",
        f"zipped_divide({_cx('(9,(4,8)):(59,(13,1))')}, make_tile({_cx('3:3')},{_cx('(2,4):(1,8)')}))",
    ),
    Case(
        "tiled_divide-docs-2d",
        lambda: tiled_divide(L("(9,(4,8)):(59,(13,1))"), (L("3:3"), L("(2,4):(1,8)"))),
        "((3,(2,4)),3,(2,2)):((177,(13,2)),59,(26,1))",
        f"tiled_divide({_cx('(9,(4,8)):(59,(13,1))')}, make_tile({_cx('3:3')},{_cx('(2,4):(1,8)')}))",
    ),
    Case(
        "flat_divide-docs-2d",
        lambda: flat_divide(L("(9,(4,8)):(59,(13,1))"), (L("3:3"), L("(2,4):(1,8)"))),
        "(3,(2,4),3,(2,2)):(177,(13,2),59,(26,1))",
        f"flat_divide({_cx('(9,(4,8)):(59,(13,1))')}, make_tile({_cx('3:3')},{_cx('(2,4):(1,8)')}))",
    ),
    # 16:1 / 4:2: complement(4:2, 16) = (2,2):(1,8) -> (4,(2,2)):(2,(1,8))
    Case(
        "logical_divide-1d",
        lambda: logical_divide(L("16:1"), L("4:2")),
        "(4,(2,2)):(2,(1,8))",
        f"logical_divide({_cx('16:1')}, {_cx('4:2')})",
    ),
    Case(
        "logical_divide-int",
        lambda: logical_divide(L("16:1"), 4),
        "(4,4):(1,4)",
        f"logical_divide({_cx('16:1')}, _4{{}})",
    ),
    Case(
        "logical_divide-tuple",
        lambda: logical_divide(L("(8,8):(1,8)"), (2, 4)),
        "((2,4),(4,2)):((1,2),(8,32))",
        f"logical_divide({_cx('(8,8):(1,8)')}, make_tile(_2{{}},_4{{}}))",
    ),
    # ... but logical_divide KEEPS the modes beyond the tiler (composition drops them, see above)
    Case(
        "logical_divide-keeps-rest",
        lambda: logical_divide(L("(8,8,3):(1,8,64)"), (2, 4)),
        "((2,4),(4,2),3):((1,2),(8,32),64)",
        f"logical_divide({_cx('(8,8,3):(1,8,64)')}, make_tile(_2{{}},_4{{}}))",
    ),
    Case(
        "logical_divide-underscore",
        lambda: logical_divide(L("(8,8):(1,8)"), (_, 4)),
        "(8,(4,2)):(1,(8,32))",
        f"logical_divide({_cx('(8,8):(1,8)')}, make_tile(_,_4{{}}))",
    ),
    Case(
        "zipped_divide-tuple",
        lambda: zipped_divide(L("(8,8):(1,8)"), (2, 4)),
        "((2,4),(4,2)):((1,8),(2,32))",
        f"zipped_divide({_cx('(8,8):(1,8)')}, make_tile(_2{{}},_4{{}}))",
    ),
    Case(
        "zipped_divide-keeps-rest",
        lambda: zipped_divide(L("(8,8,3):(1,8,64)"), (2, 4)),
        "((2,4),(4,2,3)):((1,8),(2,32,64))",
        f"zipped_divide({_cx('(8,8,3):(1,8,64)')}, make_tile(_2{{}},_4{{}}))",
    ),
    Case(
        "tiled_divide-tuple",
        lambda: tiled_divide(L("(8,8,3):(1,8,64)"), (2, 4)),
        "((2,4),4,2,3):((1,8),2,32,64)",
        f"tiled_divide({_cx('(8,8,3):(1,8,64)')}, make_tile(_2{{}},_4{{}}))",
    ),
    Case(
        "flat_divide-tuple",
        lambda: flat_divide(L("(8,8,3):(1,8,64)"), (2, 4)),
        "(2,4,4,2,3):(1,8,2,32,64)",
        f"flat_divide({_cx('(8,8,3):(1,8,64)')}, make_tile(_2{{}},_4{{}}))",
    ),
    # `_` in a zipped tiler takes an existing rank-2 mode as (tile, rest), as CuTe's zip2_by does
    Case(
        "zipped_divide-underscore-rank2",
        lambda: zipped_divide(L("((4,8),6)"), (_, 2)),
        "((4,2),(8,3)):((1,32),(4,64))",
        f"zipped_divide({_cx('((4,8),6)')}, make_tile(_,_2{{}}))",
    ),
    Case(
        "zipped_divide-int",
        lambda: zipped_divide(L("16:1"), 4),
        "(4,4):(1,4)",
        f"zipped_divide({_cx('16:1')}, _4{{}})",
    ),
    Case(
        "zipped_divide-rank1-tuple",
        lambda: zipped_divide(L("16:1"), (4,)),
        "((4),(4)):((1),(4))",
        f"zipped_divide({_cx('16:1')}, make_tile(_4{{}}))",
    ),
    # ---------------------------------------------------------------- product
    # CuTe docs: logical_product((2,2):(4,1), 6:1) = ((2,2),(2,3)):((4,1),(2,8))
    Case(
        "logical_product-docs",
        lambda: logical_product(L("(2,2):(4,1)"), L("6:1")),
        "((2,2),(2,3)):((4,1),(2,8))",
        f"logical_product({_cx('(2,2):(4,1)')}, {_cx('6:1')})",
    ),
    # an int tiler n is the layout n:1 (pycute calls logical_divide here, a bug)
    Case(
        "logical_product-int",
        lambda: logical_product(L("(2,2):(4,1)"), 6),
        "((2,2),(2,3)):((4,1),(2,8))",
        f"logical_product({_cx('(2,2):(4,1)')}, _6{{}})",
    ),
    Case(
        "logical_product-int-2",
        lambda: logical_product(L("4:1"), 3),
        "(4,3):(1,4)",
        f"logical_product({_cx('4:1')}, _3{{}})",
    ),
    # (2,5):(5,1) is compact: complement(., 10*12) = 12:10; 12:10 o (3,4):(1,3) = (3,4):(10,30)
    Case(
        "logical_product-2d",
        lambda: logical_product(L("(2,5):(5,1)"), L("(3,4):(1,3)")),
        "((2,5),(3,4)):((5,1),(10,30))",
        f"logical_product({_cx('(2,5):(5,1)')}, {_cx('(3,4):(1,3)')})",
    ),
    # gaps in A are filled first: complement(2:2, 4) = (2,1)... -> (2,2):(2,1)
    Case(
        "logical_product-fills-gaps",
        lambda: logical_product(L("2:2"), L("2:1")),
        "(2,2):(2,1)",
        f"logical_product({_cx('2:2')}, {_cx('2:1')})",
    ),
    Case(
        "logical_product-tuple",
        lambda: logical_product(L("(2,2):(1,2)"), (3, 4)),
        "((2,3),(2,(2,2))):((1,2),(2,(1,4)))",
        f"logical_product({_cx('(2,2):(1,2)')}, make_tile(_3{{}},_4{{}}))",
    ),
    Case(
        "logical_product-underscore",
        lambda: logical_product(L("(2,2,3):(1,2,4)"), (3, _)),
        "((2,3),2,3):((1,2),2,4)",
        f"logical_product({_cx('(2,2,3):(1,2,4)')}, make_tile(_3{{}},_))",
    ),
    Case(
        "zipped_product",
        lambda: zipped_product(L("(2,2):(1,2)"), (3, 4)),
        "((2,2),(3,(2,2))):((1,2),(2,(1,4)))",
        f"zipped_product({_cx('(2,2):(1,2)')}, make_tile(_3{{}},_4{{}}))",
    ),
    Case(
        "tiled_product",
        lambda: tiled_product(L("(2,2):(1,2)"), (3, 4)),
        "((2,2),3,(2,2)):((1,2),2,(1,4))",
        f"tiled_product({_cx('(2,2):(1,2)')}, make_tile(_3{{}},_4{{}}))",
    ),
    Case(
        "flat_product",
        lambda: flat_product(L("(2,2):(1,2)"), (3, 4)),
        "(2,2,3,(2,2)):(1,2,2,(1,4))",
        f"flat_product({_cx('(2,2):(1,2)')}, make_tile(_3{{}},_4{{}}))",
    ),
    Case(
        "zipped_product-layout",
        lambda: zipped_product(L("(2,2):(1,2)"), L("(2,3):(1,2)")),
        "((2,2),(2,3)):((1,2),(4,8))",
        f"zipped_product({_cx('(2,2):(1,2)')}, {_cx('(2,3):(1,2)')})",
    ),
    Case(
        "tiled_product-layout",
        lambda: tiled_product(L("(2,2):(1,2)"), L("(2,3):(1,2)")),
        "((2,2),2,3):((1,2),4,8)",
        f"tiled_product({_cx('(2,2):(1,2)')}, {_cx('(2,3):(1,2)')})",
    ),
    Case(
        "flat_product-layout",
        lambda: flat_product(L("(2,2):(1,2)"), L("(2,3):(1,2)")),
        "(2,2,2,3):(1,2,4,8)",
        f"flat_product({_cx('(2,2):(1,2)')}, {_cx('(2,3):(1,2)')})",
    ),
    # CuTe docs: blocked_product((2,5):(5,1), (3,4):(1,3)) = ((2,3),(5,4)):((5,10),(1,30))
    Case(
        "blocked_product-docs",
        lambda: blocked_product(L("(2,5):(5,1)"), L("(3,4):(1,3)")),
        "((2,3),(5,4)):((5,10),(1,30))",
        f"blocked_product({_cx('(2,5):(5,1)')}, {_cx('(3,4):(1,3)')})",
    ),
    # CuTe docs: raked_product((2,5):(5,1), (3,4):(1,3)) = ((3,2),(4,5)):((10,5),(30,1))
    Case(
        "raked_product-docs",
        lambda: raked_product(L("(2,5):(5,1)"), L("(3,4):(1,3)")),
        "((3,2),(4,5)):((10,5),(30,1))",
        f"raked_product({_cx('(2,5):(5,1)')}, {_cx('(3,4):(1,3)')})",
    ),
    # tiler of lower rank is padded with 1:0 modes
    Case(
        "blocked_product-pad-tiler",
        lambda: blocked_product(L("(2,2):(2,1)"), L("3:1")),
        "((2,3),(2,1)):((2,4),(1,0))",
        f"blocked_product({_cx('(2,2):(2,1)')}, {_cx('3:1')})",
    ),
    Case(
        "raked_product-pad-tiler",
        lambda: raked_product(L("(2,2):(2,1)"), L("3:1")),
        "((3,2),(1,2)):((4,2),(0,1))",
        f"raked_product({_cx('(2,2):(2,1)')}, {_cx('3:1')})",
    ),
    Case(
        "blocked_product-pad-block",
        lambda: blocked_product(L("2:1"), L("(3,4):(1,3)")),
        "((2,3),(1,4)):((1,2),(0,6))",
        f"blocked_product({_cx('2:1')}, {_cx('(3,4):(1,3)')})",
    ),
    Case(
        "raked_product-pad-block",
        lambda: raked_product(L("2:1"), L("(3,4):(1,3)")),
        "((3,2),(4,1)):((2,1),(6,0))",
        f"raked_product({_cx('2:1')}, {_cx('(3,4):(1,3)')})",
    ),
    Case(
        "blocked_product-rank1",
        lambda: blocked_product(L("4:1"), L("3:1")),
        "((4,3)):((1,4))",
        f"blocked_product({_cx('4:1')}, {_cx('3:1')})",
    ),
    Case(
        "blocked_product-rank3",
        lambda: blocked_product(L("(2,2):(1,2)"), L("(2,3,2):(1,2,6)")),
        "((2,2),(2,3),(1,2)):((1,4),(2,8),(0,24))",
        f"blocked_product({_cx('(2,2):(1,2)')}, {_cx('(2,3,2):(1,2,6)')})",
    ),
    # ---------------------------------------------------------------- tile_to_shape
    # block 8x8 row-major, product shape (2,4), column-major order: tiler (2,4):(1,2)
    Case(
        "tile_to_shape",
        lambda: tile_to_shape(L("(8,8):(8,1)"), (16, 32)),
        "((8,2),(8,4)):((8,64),(1,128))",
        f"tile_to_shape({_cx('(8,8):(8,1)')}, Shape<_16,_32>{{}})",
    ),
    # order (1,0): mode 1 first, tiler (2,4):(4,1)
    Case(
        "tile_to_shape-order",
        lambda: tile_to_shape(L("(8,8):(8,1)"), (16, 32), (1, 0)),
        "((8,2),(8,4)):((8,256),(1,64))",
        f"tile_to_shape({_cx('(8,8):(8,1)')}, Shape<_16,_32>{{}}, Step<_2,_1>{{}})",
    ),
    Case(
        "tile_to_shape-rank3",
        lambda: tile_to_shape(L("(4,2):(1,4)"), (8, 4, 3)),
        "((4,2),(2,2),(1,3)):((1,8),(4,16),(0,32))",
        f"tile_to_shape({_cx('(4,2):(1,4)')}, Shape<_8,_4,_3>{{}})",
    ),
    Case(
        "tile_to_shape-rank3-order",
        lambda: tile_to_shape(L("(4,2):(1,4)"), (8, 4, 3), (2, 0, 1)),
        "((4,2),(2,2),(1,3)):((1,48),(4,8),(0,16))",
        f"tile_to_shape({_cx('(4,2):(1,4)')}, Shape<_8,_4,_3>{{}}, Step<_3,_1,_2>{{}})",
    ),
    Case(
        "tile_to_shape-nested-target",
        lambda: tile_to_shape(L("(4,2):(2,1)"), ((4, 2), 6)),
        "((4,2),(2,3)):((2,8),(1,16))",
        f"tile_to_shape({_cx('(4,2):(2,1)')}, Shape<Shape<_4,_2>,_6>{{}})",
    ),
    Case(
        "tile_to_shape-identity",
        lambda: tile_to_shape(L("(8,8):(8,1)"), (8, 8)),
        "((8,1),(8,1)):((8,0),(1,0))",
        f"tile_to_shape({_cx('(8,8):(8,1)')}, Shape<_8,_8>{{}})",
    ),
    Case(
        "tile_to_shape-colmajor-order",
        lambda: tile_to_shape(L("(2,2):(1,2)"), (4, 4), (1, 0)),
        "((2,2),(2,2)):((1,8),(2,4))",
        f"tile_to_shape({_cx('(2,2):(1,2)')}, Shape<_4,_4>{{}}, Step<_1,_0>{{}})",
    ),
    # ---------------------------------------------------------------- up/down/recast
    # 16-bit (8,64):(64,1) viewed as 128-bit: stride-1 mode 64/8 = 8, stride 64/8 = 8
    Case(
        "upcast", lambda: upcast(L("(8,64):(64,1)"), 8), "(8,8):(8,1)", f"upcast<8>({_cx('(8,64):(64,1)')})"
    ),
    Case(
        "upcast-stride0",
        lambda: upcast(L("(8,4):(2,0)"), 4),
        "(4,4):(1,0)",
        f"upcast<4>({_cx('(8,4):(2,0)')})",
    ),
    Case(
        "upcast-negative",
        lambda: upcast(L("(8,4):(-2,16)"), 4),
        "(4,4):(-1,4)",
        f"upcast<4>({_cx('(8,4):(-2,16)')})",
    ),
    # ceil_div(2, ceil_div(4, 1)) = 1: a partial vector still counts as one element
    Case("upcast-small", lambda: upcast(L("2:1"), 4), "1:1", f"upcast<4>({_cx('2:1')})"),
    Case(
        "upcast-size1", lambda: upcast(L("(1,4):(1,2)"), 2), "(1,4):(1,1)", f"upcast<2>({_cx('(1,4):(1,2)')})"
    ),
    Case(
        "downcast",
        lambda: downcast(L("(8,8):(8,1)"), 8),
        "(8,64):(64,1)",
        f"downcast<8>({_cx('(8,8):(8,1)')})",
    ),
    Case(
        "downcast-hier",
        lambda: downcast(L("(4,(2,3)):(1,(0,4))"), 2),
        "(8,(2,3)):(1,(0,8))",
        f"downcast<2>({_cx('(4,(2,3)):(1,(0,4))')})",
    ),
    Case(
        "recast-up",
        lambda: recast(L("(8,64):(64,1)"), 16, 128),
        "(8,8):(8,1)",
        f"recast_layout<uint16_t,uint128_t>({_cx('(8,64):(64,1)')})",
    ),
    Case(
        "recast-down",
        lambda: recast(L("(8,8):(8,1)"), 128, 16),
        "(8,64):(64,1)",
        f"recast_layout<uint128_t,uint16_t>({_cx('(8,8):(8,1)')})",
    ),
    Case(
        "recast-same",
        lambda: recast(L("(8,8):(8,1)"), 32, 32),
        "(8,8):(8,1)",
        f"recast_layout<uint32_t,uint32_t>({_cx('(8,8):(8,1)')})",
    ),
    # 16 -> 48 bits is upcast<3>: (6:1 -> ceil(6/3) = 2:1, 4:6 -> 4:2)
    Case(
        "recast-upcast3",
        lambda: recast(L("(6,4):(1,6)"), 16, 48),
        "(2,4):(1,2)",
        f"recast_layout<uint16_t, cute::array<uint16_t,3>>({_cx('(6,4):(1,6)')})",
    ),
    # 32 -> 48 bits is not a pure up- or downcast: downcast<2>(upcast<3>(L)) = downcast<2>((2,4):(1,2))
    Case(
        "recast-ratio",
        lambda: recast(L("(6,4):(1,6)"), 32, 48),
        "(4,4):(1,4)",
        f"recast_layout<uint32_t, cute::array<uint16_t,3>>({_cx('(6,4):(1,6)')})",
    ),
    # ---------------------------------------------------------------- common vectors
    Case(
        "max_common_vector-same",
        lambda: max_common_vector(L("(8,8):(1,8)"), L("(8,8):(1,8)")),
        64,
        f"max_common_vector({_cx('(8,8):(1,8)')}, {_cx('(8,8):(1,8)')})",
    ),
    Case(
        "max_common_vector-transposed",
        lambda: max_common_vector(L("(8,8):(1,8)"), L("(8,8):(8,1)")),
        1,
        f"max_common_vector({_cx('(8,8):(1,8)')}, {_cx('(8,8):(8,1)')})",
    ),
    Case(
        "max_common_vector-partial",
        lambda: max_common_vector(L("(4,8):(1,4)"), L("(4,8):(1,8)")),
        4,
        f"max_common_vector({_cx('(4,8):(1,4)')}, {_cx('(4,8):(1,8)')})",
    ),
    Case(
        "max_common_vector-broadcast",
        lambda: max_common_vector(L("(2,4):(4,1)"), L("(2,4):(0,1)")),
        4,
        f"max_common_vector({_cx('(2,4):(4,1)')}, {_cx('(2,4):(0,1)')})",
    ),
    Case(
        "max_common_layout-same",
        lambda: max_common_layout(L("(4,8):(1,4)"), L("(4,8):(1,4)")),
        "32:1",
        f"max_common_layout({_cx('(4,8):(1,4)')}, {_cx('(4,8):(1,4)')})",
    ),
    Case(
        "max_common_layout-rowmajor",
        lambda: max_common_layout(L("(4,8):(8,1)"), L("(4,8):(8,1)")),
        "(8,4):(4,1)",
        f"max_common_layout({_cx('(4,8):(8,1)')}, {_cx('(4,8):(8,1)')})",
    ),
    Case(
        "max_common_layout-none",
        lambda: max_common_layout(L("(4,8):(1,4)"), L("(4,8):(8,1)")),
        "1:0",
        f"max_common_layout({_cx('(4,8):(1,4)')}, {_cx('(4,8):(8,1)')})",
    ),
    Case(
        "max_common_layout-partial",
        lambda: max_common_layout(L("(4,2):(1,8)"), L("(4,2):(1,4)")),
        "4:1",
        f"max_common_layout({_cx('(4,2):(1,8)')}, {_cx('(4,2):(1,4)')})",
    ),
    # ---------------------------------------------------------------- ordered / identity
    Case(
        "make_ordered_layout",
        lambda: make_ordered_layout((2, 2, 2, 2), (0, 2, 3, 1)),
        "(2,2,2,2):(1,4,8,2)",
        "make_ordered_layout(Shape<_2,_2,_2,_2>{}, Step<_0,_2,_3,_1>{})",
    ),
    Case(
        "make_ordered_layout-rowmajor",
        lambda: make_ordered_layout((4, 3), (1, 0)),
        "(4,3):(3,1)",
        "make_ordered_layout(Shape<_4,_3>{}, Step<_1,_0>{})",
    ),
    # a leaf of the order covering a tuple mode: (2,3) gets strides starting after mode 1's 4
    Case(
        "make_ordered_layout-weak",
        lambda: make_ordered_layout(((2, 3), 4), (1, 0)),
        "((2,3),4):((4,8),1)",
        "make_ordered_layout(Shape<Shape<_2,_3>,_4>{}, Step<_1,_0>{})",
    ),
    Case(
        "make_ordered_layout-nested-order",
        lambda: make_ordered_layout(((2, 3), 4), ((1, 2), 0)),
        "((2,3),4):((4,8),1)",
        "make_ordered_layout(Shape<Shape<_2,_3>,_4>{}, Step<Step<_1,_2>,_0>{})",
    ),
    Case("make_ordered_layout-default", lambda: make_ordered_layout((4, 3)), "(4,3):(1,4)"),
    Case(
        "identity-str",
        lambda: str(make_identity_layout((4, 8))),
        "(4,8):(1@0,1@1)",
        "make_identity_layout(Shape<_4,_8>{})",
    ),
    Case(
        "identity-call",
        lambda: make_identity_layout((4, 8))(9),
        (1, 2),
        "make_identity_layout(Shape<_4,_8>{})(9)",
    ),
    Case(
        "identity-call-hier",
        lambda: make_identity_layout(((2, 3), 4))(5),
        ((1, 2), 0),
        "make_identity_layout(Shape<Shape<_2,_3>,_4>{})(5)",
    ),
    Case("identity-coord", lambda: make_identity_layout((2, 3))(1, 2), (1, 2)),
    Case(
        "identity-size",
        lambda: (make_identity_layout((2, 3)).size(), make_identity_layout((2, 3)).rank()),
        (6, 2),
    ),
    # ---------------------------------------------------------------- nullspace
    # stride-0 leaves (2 and 3) with their compact strides (1,4,8)[1:] = (4,8)
    Case(
        "nullspace",
        lambda: nullspace(L("(4,2,3):(1,0,0)")),
        "(2,3):(4,8)",
        f"nullspace({_cx('(4,2,3):(1,0,0)')})",
    ),
    Case("nullspace-none", lambda: nullspace(L(RM)), "1:0", f"nullspace({_cx(RM)})"),
    # ---------------------------------------------------------------- int tuples
    Case(
        "product",
        lambda: product(((8, 2), (4, 4))),
        256,
        "product(make_shape(make_shape(8,2),make_shape(4,4)))",
    ),
    Case("product-empty", lambda: product(()), 1),
    Case("prefix_product", lambda: prefix_product((8, (2, 4))), (1, (8, 16))),
    Case("prefix_product-init", lambda: prefix_product(4, 3), 3),
    Case("prefix_product-tuple-init", lambda: prefix_product((2, 3), (5, 7)), (5, 7)),
    # crd2idx(5, (2,4), (4,1)): 5 -> (1, 2) -> 4 + 2 = 6
    Case(
        "crd2idx-int", lambda: crd2idx(5, (2, 4), (4, 1)), 6, "crd2idx(5, make_shape(2,4), make_stride(4,1))"
    ),
    Case(
        "crd2idx-tuple",
        lambda: crd2idx((1, 2), (2, 4), (4, 1)),
        6,
        "crd2idx(make_coord(1,2), make_shape(2,4), make_stride(4,1))",
    ),
    # default stride: column-major (1,(8,16)): 3 + 8 + 32 = 43
    Case("crd2idx-default", lambda: crd2idx((3, (1, 2)), (8, (2, 4))), 43),
    Case("crd2idx-hier-int", lambda: crd2idx((1, 5), (2, (2, 3))), 11),
    Case("crd2idx-extends", lambda: crd2idx(30, ((2, 3), 4)), 30),
    Case(
        "idx2crd", lambda: idx2crd(43, (8, (2, 4))), (3, (1, 2)), "idx2crd(43, make_shape(8,make_shape(2,4)))"
    ),
    Case(
        "idx2crd-2",
        lambda: idx2crd(13, ((2, 3), 4)),
        ((1, 0), 2),
        "idx2crd(13, make_shape(make_shape(2,3),4))",
    ),
    # a leaf shape without a stride: the index itself
    Case("idx2crd-leaf", lambda: idx2crd(7, 4), 7),
    Case("idx2crd-tuple-idx", lambda: idx2crd((1, 5), (2, (2, 3))), (1, (1, 2))),
    Case("idx2crd-stride", lambda: idx2crd(6, (2, 4), (4, 1)), (1, 2)),
    Case("idx2crd_flat", lambda: idx2crd_flat(13, ((2, 3), 4)), (1, 0, 2)),
    Case("idx2crd_flat-leaf", lambda: idx2crd_flat(5, 8), (5,)),
    Case(
        "congruent",
        lambda: (congruent((8, (2, 4)), (1, (8, 16))), congruent((8, 4), ((2, 4), 4)), congruent(3, 5)),
        (True, False, True),
    ),
    Case(
        "compatible",
        lambda: (
            compatible(24, (4, 6)),
            compatible((4, 6), (4, (2, 3))),
            compatible((4, 6), 24),
            compatible((4, 6), (4, (2, 2))),
        ),
        (True, True, False, False),
    ),
    Case(
        "weakly_congruent",
        lambda: (
            weakly_congruent((1, 1), ((2, 3), 4)),
            weakly_congruent((1, 1, 1), (2, 3)),
            weakly_congruent(1, ((2, 3), 4)),
            weakly_congruent(((1, 1), 1), (2, 3)),
        ),
        (True, False, True, False),
    ),
    # shape_div walks the tuple: (4,6,8)/12 -> 4/12 -> 1 (rest 3), 6/3 = 2 (rest 1), 8
    Case(
        "shape_div-tuple-int",
        lambda: shape_div((4, 6, 8), 12),
        (1, 2, 8),
        "shape_div(Shape<_4,_6,_8>{}, _12{})",
    ),
    Case("shape_div-ints", lambda: (shape_div(12, 4), shape_div(4, 12)), (3, 1)),
    Case(
        "shape_div-tuple-tuple",
        lambda: shape_div((12, 4), (3, 2)),
        (4, 2),
        "shape_div(Shape<_12,_4>{}, Shape<_3,_2>{})",
    ),
    Case("shape_div-int-tuple", lambda: shape_div(8, (2, 2)), 2, "shape_div(_8{}, Shape<_2,_2>{})"),
    Case(
        "ceil_div",
        lambda: (ceil_div(10, 4), ceil_div((4, 6), 8), ceil_div((9, 10), (2, 4))),
        (3, (1, 3), (5, 3)),
    ),
    # missing ranks of b count as 1; a tuple divided by an int walks like shape_div: (3,4)/2 -> (2, 4)
    Case(
        "ceil_div-pad",
        lambda: ceil_div((9, 10, 7), (2,)),
        (5, 10, 7),
        "ceil_div(Shape<_9,_10,_7>{}, Shape<_2>{})",
    ),
    Case("ceil_div-walk", lambda: ceil_div((3, 4), 2), (2, 4), "ceil_div(Shape<_3,_4>{}, _2{})"),
    Case("flatten", lambda: flatten(((8, 2), (4, (4, 1)))), (8, 2, 4, 4, 1)),
    Case("flatten-leaf", lambda: flatten(5), (5,)),
    Case(
        "depth-rank-int-tuples",
        lambda: (depth(8), depth((8, 4)), depth(((8, 2), 4)), rank(((8, 2), 4)), rank(8)),
        (0, 1, 2, 2, 1),
    ),
    # ---------------------------------------------------------------- the empty layout ():() (CuTe compiles these)
    Case("empty-str", lambda: Layout(()), "():()", "Layout<Shape<>,Stride<>>{}"),
    Case("empty-size", lambda: size(Layout(())), 1, "size(Layout<Shape<>,Stride<>>{})"),
    Case("empty-cosize", lambda: cosize(Layout(())), 1, "cosize(Layout<Shape<>,Stride<>>{})"),
    Case("empty-rank", lambda: rank(Layout(())), 0, "rank(Layout<Shape<>,Stride<>>{})"),
    Case("empty-make_layout", lambda: make_layout(Layout(())), "(()):(())", "make_layout(Layout<Shape<>,Stride<>>{})"),
    Case(
        "empty-tile_to_shape",
        lambda: tile_to_shape(Layout(()), (4,)),
        "((1,4)):((0,1))",
        "tile_to_shape(Layout<Shape<>,Stride<>>{}, Shape<_4>{})",
    ),
    Case("empty-nullspace", lambda: nullspace(Layout(())), "1:0", "nullspace(Layout<Shape<>,Stride<>>{})"),
    Case(
        "empty-blocked_product",
        lambda: blocked_product(Layout(()), L("(4,2):(1,4)")),
        "((1,4),(1,2)):((0,1),(0,4))",
        f"blocked_product(Layout<Shape<>,Stride<>>{{}}, {_cx('(4,2):(1,4)')})",
    ),
]


def _render(x: Any) -> Any:
    """Layouts compare by their printed notation; everything else by value."""
    if isinstance(x, Layout):
        return str(x)
    return x


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_hand_worked(case: Case) -> None:
    assert _render(case.thunk()) == case.expected


def test_case_ids_unique() -> None:
    ids = [c.id for c in CASES]
    assert len(ids) == len(set(ids))


# ---------------------------------------------------------------------------------------- details


def test_slice_returns_offset_and_sublayout() -> None:
    sub, off = slice_and_offset((_, 2), Layout((8, 4), (4, 1)))
    # CuTe prints this slice as (8):(4) (a rank-1 tuple); here a rank-1 result is unwrapped to 8:4,
    # as documented in Layout's docstring (see docs/differences.md and the report).
    assert (str(sub), off) == ("8:4", 2)
    assert [sub(i) + off for i in range(8)] == [Layout((8, 4), (4, 1))(i, 2) for i in range(8)]
    assert str(Layout((8, 4), (4, 1))(2, _)) == "4:1"
    assert str(Layout(8, 1)(_)) == "8:1"


def test_getitem_with_underscore_is_slice_and_offset() -> None:
    sub, off = Layout((8, 4), (4, 1))[_, 2]
    assert (str(sub), off) == ("8:4", 2)


def test_to_numpy() -> None:
    # column-major order of (2,3):(3,1): (0,0)=0 (1,0)=3 (0,1)=1 (1,1)=4 (0,2)=2 (1,2)=5
    arr = Layout((2, 3), (3, 1)).to_numpy()
    assert arr.dtype == np.int64
    assert arr.tolist() == [0, 3, 1, 4, 2, 5]
    assert Layout(((2, 2), 2), ((0, 4), 1)).to_numpy().tolist() == [0, 0, 4, 4, 1, 1, 5, 5]
    assert Layout(4, -1).to_numpy().tolist() == [0, -1, -2, -3]


def test_numpy_array_call() -> None:
    lay = Layout((8, 4), (4, 1))
    idx = np.array([[0, 10], [31, 40]])
    out = lay(idx)
    assert out.shape == (2, 2) and out.dtype == np.int64
    # 40 extends the last mode exactly like the scalar call
    assert out.tolist() == [[0, 9], [31, 5]]
    assert lay(np.arange(32)).tolist() == [lay(i) for i in range(32)]
    with pytest.raises(CoordinateError, match="out of range"):
        lay(idx, check=True)


def test_check_true() -> None:
    lay = Layout((8, 4), (4, 1))
    assert lay(31, check=True) == 31
    assert lay((7, 3), check=True) == 31
    with pytest.raises(CoordinateError, match=r"index 32 is out of range \[0, 32\)"):
        lay(32, check=True)
    with pytest.raises(CoordinateError, match=r"coordinate 4 is out of range \[0, 4\)"):
        lay(0, 4, check=True)


def test_identity_to_numpy() -> None:
    arr = make_identity_layout((2, 3)).to_numpy()
    assert arr.tolist() == [[0, 0], [1, 0], [0, 1], [1, 1], [0, 2], [1, 2]]


def test_equality_and_hash() -> None:
    a = Layout((2, 3))
    b = Layout((2, 3), (1, 2))
    assert a == b and hash(a) == hash(b)
    assert Layout(4, 1) != Layout((4,), (1,))  # rank-1 tuple vs leaf: different, as in CuTe
    assert Layout(4, 1) != Layout(4, 2)
    assert len({a, b, Layout(4, 1)}) == 2
    assert (Layout(4, 1) == 4) is False


def test_composition_drop_vs_divide_keep() -> None:
    """CuTe: a tuple tiler DROPS the untouched modes in composition and KEEPS them in logical_divide."""
    a = Layout((8, 8, 3), (1, 8, 64))
    assert composition(a, (2, 4)).rank() == 2
    assert logical_divide(a, (2, 4)).rank() == 3
    assert logical_divide(a, (2, 4))[2] == a[2]


def test_composition_inadmissible_is_an_error_not_a_wrong_answer() -> None:
    """CuTe C++ returns (2,2):(2,5) for (3,4):(1,5) o 4:2, which is not A o B (A(6) = 10, not 7)."""
    with pytest.raises(AdmissibilityError, match="stride divisibility"):
        composition(Layout((3, 4), (1, 5)), Layout(4, 2))


# ----------------------------------------------------------------------- regressions (found by this suite)
# Bugs this suite found in layout.py (first as strict xfails); fixed in the working tree since. Each row:
# the input, the value CuTe C++ gives (test_layout_differential.py checks it against the CuTe oracle, so
# the expectation itself is verified), and in ``reason`` what pycute_layouts used to give.


class Bug(NamedTuple):
    id: str
    thunk: Callable[[], Any]
    expected: Any
    cxx: str | None
    reason: str


BUG_CASES: list[Bug] = [
    Bug(
        "default-stride-size1",
        lambda: Layout((2, 1, 3)),
        "(2,1,3):(1,0,2)",
        "make_layout(Shape<_2,_1,_3>{})",
        "BUG: compact strides of size-1 modes: CuTe's compact_major gives stride 0 "
        "(Layout<Shape<_2,_1,_3>>{} = "
        "(_2,_1,_3):(_1,_0,_2)); pycute_layouts gives (2,1,3):(1,2,2)",
    ),
    Bug(
        "default-stride-leaf1",
        lambda: Layout(1),
        "1:0",
        "make_layout(_1{})",
        "BUG: Layout(1) is 1:1; CuTe's make_layout(_1{}) is _1:_0",
    ),
    Bug(
        "make_ordered_layout-size1",
        lambda: make_ordered_layout((4, 1, 3), (1, 0, 2)),
        "(4,1,3):(1,0,4)",
        "make_ordered_layout(Shape<_4,_1,_3>{}, Step<_1,_0,_2>{})",
        "BUG: make_ordered_layout((4,1,3),(1,0,2)) is (4,1,3):(1,0,4) in CuTe; pycute_layouts gives "
        "(4,1,3):(1,1,4)",
    ),
    Bug(
        "tile_to_shape-size1",
        lambda: tile_to_shape(L("(8,8):(8,1)"), (8, 32)),
        "((8,1),(8,4)):((8,0),(1,64))",
        f"tile_to_shape({_cx('(8,8):(8,1)')}, Shape<_8,_32>{{}})",
        "BUG: tile_to_shape((8,8):(8,1), (8,32)) is ((8,1),(8,4)):((8,0),(1,64)) in CuTe (the size-1 "
        "product mode "
        "has stride 0); pycute_layouts gives ((8,1),(8,4)):((8,64),(1,64))",
    ),
    Bug(
        "logical_divide-int-1",
        lambda: logical_divide(L("16:1"), 1),
        "(1,16):(0,1)",
        f"logical_divide({_cx('16:1')}, _1{{}})",
        "BUG: logical_divide(16:1, 1) is (1,16):(0,1) in CuTe (make_layout(_1) = _1:_0); pycute_layouts "
        "gives "
        "(1,16):(1,1)",
    ),
    Bug(
        "composition-default-size1",
        lambda: composition(L("(4,4):(4,1)"), Layout((2, 1, 2))),
        "(2,1,2):(4,0,8)",
        f"composition({_cx('(4,4):(4,1)')}, Layout<Shape<_2,_1,_2>>{{}})",
        "BUG: composition((4,4):(4,1), Layout((2,1,2))) is (2,1,2):(4,0,8) in CuTe; pycute_layouts gives "
        "(2,1,2):(4,1,8) (the default stride of the size-1 mode)",
    ),
    Bug(
        "nullspace-size1",
        lambda: nullspace(L("(4,1,3):(1,0,0)")),
        "(1,3):(0,4)",
        f"nullspace({_cx('(4,1,3):(1,0,0)')})",
        "BUG: nullspace((4,1,3):(1,0,0)) is (1,3):(0,4) in CuTe (compact_major strides); pycute_layouts "
        "gives "
        "(1,3):(4,4)",
    ),
    Bug(
        "cosize-negative",
        lambda: cosize(L("(8,4):(-1,16)")),
        56,
        f"cosize({_cx('(8,4):(-1,16)')})",
        "BUG: cosize uses signed strides; CuTe's cosize is 1 + sum((s-1)*|d|): cosize((8,4):(-1,16)) = 56; "
        "pycute_layouts gives 42",
    ),
    Bug(
        "cosize-negative-leaf",
        lambda: cosize(L("4:-1")),
        4,
        f"cosize({_cx('4:-1')})",
        "BUG: cosize(4:-1) is 4 in CuTe; pycute_layouts gives -2 (a negative codomain size)",
    ),
    Bug(
        "logical_product-negative-tiler",
        lambda: logical_product(L("4:1"), L("3:-1")),
        "(4,3):(1,-4)",
        f"logical_product({_cx('4:1')}, {_cx('3:-1')})",
        "BUG: logical_product(4:1, 3:-1) is (4,3):(1,-4) in CuTe; pycute_layouts raises LayoutValueError "
        "(complement cotarget size*cosize = -4, from the signed cosize)",
    ),
    Bug(
        "tiled_divide-rank1",
        lambda: tiled_divide(L("16:1"), (4,)),
        "((4),(4)):((1),(4))",
        f"tiled_divide({_cx('16:1')}, make_tile(_4{{}}))",
        "BUG: tiled_divide unwraps a rank-1 rest mode: CuTe's tiled_divide(16:1, make_tile(_4)) = "
        "((4),(4)):((1),(4)); pycute_layouts gives ((4),4):((1),4)",
    ),
    Bug(
        "flat_divide-rank1",
        lambda: flat_divide(L("16:1"), (4,)),
        "((4),(4)):((1),(4))",
        f"flat_divide({_cx('16:1')}, make_tile(_4{{}}))",
        "BUG: flat_divide unwraps rank-1 modes: CuTe's flat_divide(16:1, make_tile(_4)) = "
        "((4),(4)):((1),(4)); "
        "pycute_layouts gives (4,4):(1,4)",
    ),
    Bug(
        "tiled_product-rank1",
        lambda: tiled_product(L("(4,4):(1,4)"), L("((1,4)):((4,11))")),
        "((4,4),((1,4))):((1,4),((64,176)))",
        f"tiled_product({_cx('(4,4):(1,4)')}, {_cx('((1,4)):((4,11))')})",
        "BUG: tiled_product unwraps a rank-1 tuple mode: CuTe's tiled_product((4,4):(1,4), "
        "((1,4)):((4,11))) = "
        "((4,4),((1,4))):((1,4),((64,176))); pycute_layouts gives ((4,4),(1,4)):((1,4),(64,176))",
    ),
    Bug(
        "flat_product-rank1",
        lambda: flat_product(L("12:1"), L("((1)):((0))")),
        "(12,((1))):(1,((0)))",
        f"flat_product({_cx('12:1')}, {_cx('((1)):((0))')})",
        "BUG: flat_product(12:1, ((1)):((0))) is (12,((1))):(1,((0))) in CuTe; pycute_layouts gives "
        "(12,(1)):(1,(0))",
    ),
    Bug(
        "identity-nested-printing",
        lambda: str(make_identity_layout(((2, 3), 4))),
        "((2,3),4):((1@0@0,1@1@0),1@1)",
        "make_identity_layout(Shape<Shape<_2,_3>,_4>{})",
        "BUG: make_identity_layout(((2,3),4)) prints ((2,3),4):((1@(0,0),1@(0,1)),1@1); CuTe prints "
        "((_2,_3),_4):((_1@0@0,_1@1@0),_1@1)",
    ),
    Bug(
        "identity-leaf-printing",
        lambda: str(make_identity_layout(8)),
        "8:1",
        "make_identity_layout(_8{})",
        "BUG: make_identity_layout(8) prints 8:1@0; CuTe prints _8:_1",
    ),
]


@pytest.mark.parametrize("bug", BUG_CASES, ids=[b.id for b in BUG_CASES])
def test_regression(bug: Bug) -> None:
    assert _render(bug.thunk()) == bug.expected, bug.reason


# ---------------------------------------------------------------- interacting modes of B (was a known bug)

#: (A, B, A(B(i)) for every i): the by-mode composition R = (A o B_0, A o B_1, ...) has R(i) != A(B(i))
#: for some i, because B's modes interact inside a mode of coalesce(A). CuTe C++ returns that R
#: silently (checked with the oracle); composition raises AdmissibilityError ("modes of B interact").
SILENTLY_NOT_A_COMPOSITION = [
    # B is compact (it coalesces to 6:1, for which composition *does* raise): the mode 2:3 lands inside
    # A's mode 4:1 without dividing it (allowed by the "all points inside the mode" rule and by CuTe's
    # weak `rest_stride < curr_shape`), but B(4) = 1 + 3 = 4 carries into A's next mode: A(4) = 10.
    ("(4,3):(1,10)", "(3,2):(1,3)", [0, 1, 2, 3, 10, 11]),
    ("(4,3):(1,10)", "(2,2):(1,3)", [0, 1, 3, 10]),
    ("(4,3):(1,10)", "(2,2):(2,3)", [0, 2, 3, 11]),
    # non-injective B with dividing strides: the two modes overlap and their sum carries (B(3) = 2, A(2) = 10)
    ("(2,2):(1,10)", "(2,2):(1,1)", [0, 1, 1, 10]),
]


@pytest.mark.parametrize(
    "a,b,want", SILENTLY_NOT_A_COMPOSITION, ids=[f"{a} o {b}" for a, b, _w in SILENTLY_NOT_A_COMPOSITION]
)
def test_composition_is_never_silently_wrong(a: str, b: str, want: list[int]) -> None:
    lay_a, lay_b = Layout(a), Layout(b)
    assert [lay_a(lay_b(i)) for i in range(lay_b.size())] == want
    try:
        r = composition(lay_a, lay_b)
    except AdmissibilityError as e:
        # the message names the rule, the mode of coalesce(A), B, and a coordinate where it goes wrong
        msg = str(e)
        assert "modes of B interact" in msg and f"coalesce(A) = {a}" in msg and f"B = {b}" in msg
        idx = int(re.search(r"at B's index (\d+)", msg).group(1))
        assert f"A(B) = {want[idx]}" in msg
        return  # raising is fine; returning a layout that is not A o B is not
    assert [r(i) for i in range(r.size())] == want


def test_interaction_message_exact() -> None:
    with pytest.raises(AdmissibilityError) as info:
        composition(Layout((4, 3), (1, 10)), Layout((3, 2), (1, 3)))
    assert str(info.value) == (
        "composition: modes of B interact: in mode 0 (shape 4) of coalesce(A) = (4,3):(1,10), the modes [0, 1] "
        "of B = (3,2):(1,3) (flat mode indices) reach offsets adding up to 5 >= 4, so B(c) carries into A's "
        "next mode and the by-mode result (3,2):(1,3) is not A o B: at B's index 5, B = 5 and A(B) = 11, but "
        "the result gives 5 (CuTe returns that layout silently; each mode of B is admissible alone)"
    )


#: B's modes share a mode of coalesce(A) without carrying: admissible, and equal to A o B pointwise
INTERACTING_BUT_FINE = [
    ("(4,3):(1,10)", "(2,2):(1,2)", "(2,2):(1,2)"),  # digits 0..1 and 0,2 of mode 0: sum 3 < 4
    ("(4,3):(1,10)", "(3,2):(1,0)", "(3,2):(1,0)"),  # a stride-0 mode adds nothing
    ("(4,3):(1,10)", "((2,2),3):((1,2),4)", "((2,2),3):((1,2),10)"),  # compact B: 12:1 split
    ("(4,3):(1,10)", "(2,2):(3,12)", "(2,2):(3,30)"),  # 3 in mode 0; 12 = 3*4 lies in the last mode
    ("(6,4):(1,7)", "(2,3,4):(3,1,6)", "(2,3,4):(3,1,7)"),  # 3 + 2 = 5 < 6; 6 = one step of mode 1
    ("(4,3):(1,10)", "(2,2):(-1,-2)", "(2,2):(-1,-2)"),  # all negative, inside mode 0: A(-x) = -A(x)
    ("(4,3):(1,10)", "(2,2):(-1,2)", "(2,2):(-1,2)"),  # both signs, both inside mode 0 only
    ("8:1", "(2,2):(1,-1)", "(2,2):(1,-1)"),  # A linear: no mode to carry into
]


@pytest.mark.parametrize("a,b,want", INTERACTING_BUT_FINE, ids=[f"{a} o {b}" for a, b, _w in INTERACTING_BUT_FINE])
def test_modes_of_b_sharing_a_mode_of_a_without_carry(a: str, b: str, want: str) -> None:
    lay_a, lay_b = Layout(a), Layout(b)
    r = composition(lay_a, lay_b)
    assert str(r) == want
    for i in range(lay_b.size()):
        x = lay_b(i)
        ax = lay_a(x) if x >= 0 else -lay_a(-x)  # CuTe's reading of offsets below A's domain
        assert r(i) == ax, (i, x)


def test_modes_of_b_of_both_signs_across_modes_of_a() -> None:
    # B(1,1) = -1 + 4 = 3: A(3) = 3, but the by-mode result (2,2):(-1,10) gives 9
    with pytest.raises(AdmissibilityError, match=r"modes of B interact: B = \(2,2\):\(-1,4\) has modes of positive and "
                       r"of negative stride landing in different modes \[1\] and \[0\]"):
        composition(Layout((4, 3), (1, 10)), Layout((2, 2), (-1, 4)))
