"""The grammar of CuTe notation, handed the constructors it builds with (it imports no layout type).

Grammar (whitespace is free)::

    top       := composed | layout | swizzle
    composed  := (swizzle | layout) 'o' [offset 'o'] layout      e.g. Sw<3,4,3> o 0 o (8,64):(64,1)
               | swizzle 'o' smem_ptr 'o' layout               e.g. Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)
    smem_ptr  := 'smem_ptr[' bits 'b](' ('unset' | hex address) ')'   bits in 1 2 4 6 8 16 32 64 128, or (128/T)
    swizzle   := ('Sw' | 'Swizzle' | 'S') '<' int ',' int ',' int '>'   'S' is the CuTe DSL's print form
    layout    := inttuple [':' inttuple]                         shape only -> column-major strides
    inttuple  := '(' [inttuple (',' inttuple)*] ')' | expr
    expr      := integer/symbol arithmetic with + - * / ** and implicit products: 8T, 2k, 1T

Names that are not bound by keyword arguments become sympy symbols that are positive integers;
CuTe's static integers ``_8`` read as ``8``.
A parenthesised group followed by an operator is an expression, not a tuple: ``(m+1)*8``.
Errors are :class:`NotationError` with a caret under the offending column.

The parser is handed a :class:`Constructors` (the layout, swizzle and composed-layout types) so
that the layout type itself can read its string form; :mod:`pycute_layouts.core.notation` binds
the package's types and is what users call.

>>> parse_inttuple_text("((8,m),(T,2k))", {"T": 8})
((8, m), (8, 2*k))
>>> parse_text(Constructors(layout=lambda s, d=None: (s, d)), "(8,4):(4,1)", {})
((8, 4), (4, 1))
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from ..errors import LayoutError, NotationError
from ..limits import MAX_INT_DIGITS, MAX_NESTING_DEPTH, fmt
from .basis import ScaledBasis
from .f2 import F2
from .inttuple import as_inttuple, validate_shape_leaf
from .symbols import lazy_sympy, symbol

__all__ = ["Constructors", "parse_text", "parse_layout_text", "parse_inttuple_text"]


class Constructors(NamedTuple):
    """What the parser builds with: ``layout(shape[, stride])``, ``swizzle(b, m, s)``,
    ``composed(outer, offset, inner)`` and ``smem_ptr(swizzle, layout, element_bits, base_address=...)``
    (CuTe's ``Sw o smem_ptr[Nb](unset) o L``); a parser handed only ``layout`` reads plain layouts.

    >>> parse_text(Constructors(layout=lambda s, d=None: f"shape {s} stride {d}"), "(8,4):(4,1)", {})
    'shape (8, 4) stride (4, 1)'
    """

    layout: Any
    swizzle: Any = None
    composed: Any = None
    basis: Any = None
    f2: Any = None
    smem_ptr: Any = None


#: Element widths CuTe's smem pointers print (``smem_ptr[16b]``): its 1- to 128-bit types.
SMEM_PTR_BITS = (1, 2, 4, 6, 8, 16, 32, 64, 128)
_SMEM_PTR = re.compile(r"smem_ptr\s*\[\s*(?P<bits>\d+|\(\s*128\s*/\s*T\s*\))\s*b\s*\]\s*(?P<addr>\(\s*(?P<val>[^()]*?)\s*\))?")
_STATIC_INT = re.compile(r"_\d+")

_TOKEN = re.compile(
    r"\s*(?:(?P<num>\d+)|(?P<name>[A-Za-z_][A-Za-z_0-9]*)|(?P<op>\*\*|[()<>,:+\-*/^@\[\]]))"
)


class _Tok:
    __slots__ = ("kind", "text", "pos")

    def __init__(self, kind: str, text: str, pos: int):
        self.kind, self.text, self.pos = kind, text, pos

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"{self.kind}:{self.text}@{self.pos}"


def _tokenize(text: str) -> list[_Tok]:
    toks = []
    pos = 0
    n = len(text)
    while pos < n:
        if text[pos].isspace():
            pos += 1
            continue
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise NotationError(f"parse: unexpected character {fmt(text[pos])}", text, pos)
        kind = m.lastgroup or "op"
        start = m.start(kind)
        if kind == "num" and len(m.group(kind)) > MAX_INT_DIGITS:
            raise NotationError(f"parse: an integer literal of {len(m.group(kind))} digits is longer than "
                                f"MAX_INT_DIGITS = {MAX_INT_DIGITS}", text, start)
        toks.append(_Tok(kind, m.group(kind), start))
        pos = m.end()
    toks.append(_Tok("end", "", n))
    _check_nesting(toks, text)
    return toks


def _check_nesting(toks: list[_Tok], text: str) -> None:
    """Refuse more than MAX_NESTING_DEPTH open parentheses / angle brackets (the parser recurses per level)."""
    level = 0
    for t in toks:
        if t.kind == "op" and t.text in "(<":
            level += 1
            if level > MAX_NESTING_DEPTH:
                raise NotationError(f"parse: parentheses nested more than MAX_NESTING_DEPTH = {MAX_NESTING_DEPTH} "
                                    "levels deep", text, t.pos)
        elif t.kind == "op" and t.text in ")>":
            level -= 1


class _Parser:
    def __init__(self, ctors: Constructors, text: str, symbols: dict[str, Any]):
        if not isinstance(ctors, Constructors) or not all(f is None or callable(f) for f in ctors) or ctors.layout is None:
            raise NotationError(f"parse: ctors must be a Constructors of callables (layout required), got {fmt(ctors)}")
        self.ctors = ctors
        if not isinstance(text, str):
            raise NotationError(f"parse: expected a string, got {type(text).__name__}")
        self.text = text
        self.toks = _tokenize(text)
        self.i = 0
        self.symbols = symbols
        self._sym_cache: dict[str, Any] = {}
        self._leaves: list[tuple[Any, int]] | None = None  # (leaf, column) while parsing a layout

    # -- helpers -------------------------------------------------------------------------
    @property
    def tok(self) -> _Tok:
        return self.toks[self.i]

    def peek(self, k: int = 1) -> _Tok:
        return self.toks[min(self.i + k, len(self.toks) - 1)]

    def error(self, msg: str, tok: _Tok | None = None) -> NotationError:
        t = tok or self.tok
        return NotationError(f"parse: {msg}", self.text, t.pos)

    def expect(self, text: str) -> _Tok:
        t = self.tok
        if t.text != text or t.kind == "end":
            found = "end of input" if t.kind == "end" else repr(t.text)
            raise self.error(f"expected {fmt(text)}, found {found}")
        self.i += 1
        return t

    def accept(self, text: str) -> bool:
        if self.tok.kind == "op" and self.tok.text == text:
            self.i += 1
            return True
        return False

    def is_o(self) -> bool:
        return self.tok.kind == "name" and self.tok.text == "o"

    # -- top level -----------------------------------------------------------------------
    def parse_top(self) -> Any:
        first = self.parse_operand()
        if self.is_o() and self.peek().kind == "name" and self.peek().text == "smem_ptr":
            self.i += 1
            result = self.parse_smem_ptr(first)
        elif self.is_o():
            self.i += 1
            offset = self._try_offset()
            if offset is not None:
                self.i += 1  # the second 'o'
                result = self._make_composed(first, offset, self.parse_operand())
            else:
                result = self._make_composed(first, 0, self.parse_operand())
        else:
            result = first
        if self.tok.kind != "end":
            raise self.error(f"unexpected {fmt(self.tok.text)} after a complete expression")
        return result

    def parse_smem_ptr(self, outer: Any) -> Any:
        """``smem_ptr[Nb](unset | 0x...) o layout`` after ``outer o``: CuTe's byte-swizzled smem layout."""
        start = self.tok
        if self.ctors.smem_ptr is None:
            raise self.error("expected a plain layout, found a smem_ptr term")
        if self.ctors.swizzle is None or not isinstance(outer, self.ctors.swizzle):
            raise self.error("the left-hand side of 'o smem_ptr[..](..) o' must be a swizzle Sw<B,M,S>", start)
        m = _SMEM_PTR.match(self.text, start.pos)
        if m is None:
            raise self.error("expected smem_ptr[Nb](unset) or smem_ptr[Nb](0x...)", start)
        bits_text = m.group("bits")
        bits = None if bits_text.startswith("(") else int(bits_text)
        if bits is None and "T" in self.symbols:  # smem_ptr[(128/T)b] (PTX's T) with T bound: a width
            t = self.symbols["T"]
            if isinstance(t, bool) or not isinstance(t, int) or t <= 0 or 128 % t:
                raise NotationError(f"parse: smem_ptr[(128/T)b] needs T to divide 128, got T={fmt(t)}", self.text,
                                    m.start("bits"))
            bits = 128 // t
        if bits is not None and bits not in SMEM_PTR_BITS:
            raise NotationError(f"parse: smem_ptr[{bits}b]: the element width must be one of "
                                f"{', '.join(map(str, SMEM_PTR_BITS))} bits", self.text, m.start("bits"))
        if m.group("addr") is None:
            raise NotationError(f"parse: smem_ptr[{bits_text}b] needs its address: (unset) or (0x...), as CuTe prints it",
                                self.text, m.end())
        val = m.group("val")
        if val == "unset":
            address = 0
        elif re.fullmatch(r"0x[0-9a-fA-F]+", val):
            address = int(val, 16)
        else:
            raise NotationError(f"parse: smem_ptr[{bits_text}b]({val}): the address must be 'unset' or hexadecimal 0x...",
                                self.text, m.start("val"))
        while self.tok.kind != "end" and self.tok.pos < m.end():
            self.i += 1
        if not self.is_o():
            raise self.error("expected 'o' and a layout after the smem_ptr term")
        self.i += 1
        layout_tok = self.tok
        inner = self.parse_operand()
        if not isinstance(inner, self.ctors.layout):
            raise self.error("the right-hand side of 'o smem_ptr[..](..) o' must be a layout", layout_tok)
        try:
            return self.ctors.smem_ptr(outer, inner, bits, base_address=address)
        except LayoutError as e:
            raise NotationError(f"parse: {e}", self.text, start.pos) from e

    def _try_offset(self) -> Any:
        """If the tokens are ``[-]expr o``, consume the expression and return it as the offset."""
        j = self.i
        while j < len(self.toks) and not (self.toks[j].kind == "name" and self.toks[j].text == "o"):
            if self.toks[j].kind == "end" or self.toks[j].text in (":", "(", ")", ",", "<", ">"):
                return None
            j += 1
        if j >= len(self.toks) or self.toks[j].kind == "end":
            return None
        v = self.parse_expr()
        if not self.is_o():
            raise self.error("expected 'o' after the offset of 'A o offset o B'")
        return v

    def _as_offset(self, x: Any, tok: _Tok) -> Any:
        if isinstance(x, self.ctors.layout):
            if isinstance(x.shape, tuple) or x.stride != 1 and not self._was_shape_only:
                raise NotationError("parse: the middle term of 'A o offset o B' must be an offset (an integer)",
                                    self.text, tok.pos)
            return x.shape
        raise NotationError("parse: the middle term of 'A o offset o B' must be an offset (an integer)",
                            self.text, tok.pos)

    def _make_composed(self, outer: Any, offset: Any, inner: Any) -> Any:
        if self.ctors.composed is None:
            raise self.error("expected a plain layout, found a composed layout ('o')")
        if not isinstance(inner, (self.ctors.layout, self.ctors.composed)):
            raise self.error("the right-hand side of 'o' must be a layout")
        return self.ctors.composed(outer, offset, inner)

    def parse_operand(self) -> Any:
        t = self.tok
        if t.kind == "name" and t.text in ("Sw", "Swizzle", "S") and self.peek().text == "<":
            return self.parse_swizzle()
        return self.parse_layout()

    def parse_swizzle(self) -> Any:
        if self.ctors.swizzle is None:
            raise self.error("expected a plain layout, found a swizzle")
        self.i += 1
        self.expect("<")
        vals = []
        for k in range(3):
            neg = self.accept("-")
            t = self.tok
            if t.kind != "num":
                raise self.error("Swizzle<B,M,S> needs three integers")
            self.i += 1
            vals.append(-int(t.text) if neg else int(t.text))
            if k < 2:
                self.expect(",")
        end = self.expect(">")
        try:
            return self.ctors.swizzle(*vals)
        except LayoutError as e:
            raise NotationError(f"parse: {e}", self.text, end.pos) from e

    def parse_layout(self) -> Any:
        Layout = self.ctors.layout
        start = self.tok
        if start.kind == "end":
            raise self.error("expected a layout, found end of input")
        shape, shape_leaves = self._parse_inttuple_with_columns()
        self._check_leaves(shape_leaves, "shape")
        self._was_shape_only = True
        if self.accept(":"):
            self._was_shape_only = False
            stride_tok = self.tok
            stride, stride_leaves = self._parse_inttuple_with_columns()
            self._check_leaves(stride_leaves, "stride")
            try:
                return Layout(shape, stride)
            except LayoutError as e:  # congruence: point at the stride
                raise NotationError(f"parse: {e}", self.text, stride_tok.pos) from e
        try:
            return Layout(shape)
        except LayoutError as e:
            raise NotationError(f"parse: {e}", self.text, start.pos) from e

    def _parse_inttuple_with_columns(self) -> tuple[Any, list[tuple[Any, int]]]:
        """An IntTuple and its leaves in order, each with the column where it starts."""
        outer, self._leaves = self._leaves, []
        try:
            value = self.parse_inttuple()
            return value, self._leaves
        finally:
            self._leaves = outer

    def _check_leaves(self, leaves: list[tuple[Any, int]], what: str) -> None:
        """Validate each leaf as Layout would, raising at the leaf's own column."""
        for value, col in leaves:
            if what == "stride" and type(value) in (ScaledBasis, F2):
                continue
            try:
                leaf = as_inttuple(value, "Layout", what)
                if what == "shape":
                    validate_shape_leaf(leaf, "Layout")
            except LayoutError as e:
                raise NotationError(f"parse: {e}", self.text, col) from e

    # -- int tuples ----------------------------------------------------------------------
    def parse_inttuple(self) -> Any:
        t = self.tok
        leaves = self._leaves
        if t.kind == "op" and t.text == "(":
            self.i += 1
            first_leaf = len(leaves) if leaves is not None else 0
            elems = []
            if not self.accept(")"):
                while True:
                    elems.append(self.parse_inttuple())
                    if self.accept(")"):
                        break
                    if not self.accept(","):
                        found = "end of input" if self.tok.kind == "end" else repr(self.tok.text)
                        raise self.error(f"expected ',' or ')', found {found}")
            if self._continues_expr():
                if len(elems) != 1 or isinstance(elems[0], tuple):
                    raise self.error("a tuple cannot be used as a factor in an expression", t)
                value = self.parse_expr_rest(elems[0])
                if leaves is not None:  # '(m+1)*8' is one leaf, starting at its '('
                    del leaves[first_leaf:]
                    leaves.append((value, t.pos))
                return value
            return tuple(elems)
        value = self.parse_expr()
        if leaves is not None:
            leaves.append((value, t.pos))
        return value

    def _continues_expr(self) -> bool:
        t = self.tok
        return t.kind == "op" and t.text in ("*", "/", "+", "-", "**", "^")

    # -- expressions ---------------------------------------------------------------------
    def parse_expr(self) -> Any:
        return self.parse_expr_rest(None)

    def parse_expr_rest(self, first: Any) -> Any:
        left = self.parse_term(first)
        while self.tok.kind == "op" and self.tok.text in ("+", "-"):
            op = self.tok.text
            self.i += 1
            right = self.parse_term(None)
            left = left + right if op == "+" else left - right
        return _normalize(left)

    def parse_term(self, first: Any) -> Any:
        left = self.parse_power(first)
        while True:
            t = self.tok
            if t.kind == "op" and t.text in ("*", "/"):
                self.i += 1
                right = self.parse_power(None)
                if t.text == "*":
                    left = left * right
                else:
                    left = _exact_div(left, right, self, t)
            elif self._implicit_product():
                # implicit product written in the PTX tables: 8T, 2k, 1T (digits glued to a name)
                right = self.parse_power(None)
                left = left * right
            else:
                return left

    def _implicit_product(self) -> bool:
        t = self.tok
        prev = self.toks[self.i - 1] if self.i > 0 else None
        return (
            t.kind == "name"
            and t.text != "o"
            and prev is not None
            and prev.kind == "num"
            and t.pos == prev.pos + len(prev.text)
        )

    def parse_power(self, first: Any) -> Any:
        base = first if first is not None else self.parse_unary()
        if self.tok.kind == "op" and self.tok.text in ("**", "^"):
            self.i += 1
            t = self.tok
            exp = self.parse_unary()
            if type(base) is int and type(exp) is int and exp * max(abs(base).bit_length(), 1) > 4096:
                raise self.error(f"power {base}**{exp} has more than 4096 bits", t)
            return base**exp
        if self.tok.kind == "op" and self.tok.text == "@":
            return self.parse_basis(base)
        return base

    def parse_basis(self, value: Any) -> Any:
        """``v@i@j...`` (innermost index first, as CuTe prints it): the basis stride ``v * E(..., j, i)``."""
        t = self.tok
        if self.ctors.basis is None:
            raise self.error("basis strides (v@i) are not accepted here", t)
        path: list = []
        while self.accept("@"):
            n = self.tok
            if n.kind != "num":
                raise self.error("expected a mode index after '@'", n)
            self.i += 1
            path.append(int(n.text))
        return self.ctors.basis(value, tuple(reversed(path)))

    def parse_unary(self) -> Any:
        negate = False
        while True:  # a loop, not recursion: '------1' cannot exhaust the stack
            if self.accept("-"):
                negate = not negate
            elif not self.accept("+"):
                break
        v = self.parse_atom()
        return -v if negate else v

    def parse_atom(self) -> Any:
        t = self.tok
        if t.kind == "num":
            self.i += 1
            return int(t.text)
        if t.kind == "name":
            if t.text in ("Sw", "Swizzle", "o"):
                raise self.error(f"unexpected {fmt(t.text)} inside a shape or stride")
            self.i += 1
            return self.lookup(t.text)
        if t.kind == "op" and t.text == "(":
            self.i += 1
            v = self.parse_expr()
            self.expect(")")
            return v
        found = "end of input" if t.kind == "end" else repr(t.text)
        raise self.error(f"expected a number, a name or '(', found {found}")

    def lookup(self, name: str) -> Any:
        if name in self.symbols:
            v = self.symbols[name]
            if type(v) is int:
                return v
            if isinstance(v, (tuple, list)):
                raise self.error(f"the value bound to {fmt(name)} must be an integer or sympy expression, got {fmt(v)}"[:200])
            try:
                return as_inttuple(v, "parse", f"the value bound to {fmt(name)}")
            except LayoutError as e:
                raise self.error(f"{e}") from None
        if self.ctors.f2 is not None and len(name) > 1 and name[0] == "F" and name[1:].isdigit():
            return self.ctors.f2(int(name[1:]))  # an F2 (XOR) stride, printed F9
        if _STATIC_INT.fullmatch(name):  # CuTe's static integer _8
            return int(name[1:])
        if name not in self._sym_cache:
            self._sym_cache[name] = symbol(name)
        return self._sym_cache[name]


def _exact_div(a: Any, b: Any, p: _Parser, tok: _Tok) -> Any:
    if type(a) is int and type(b) is int:
        if b == 0 or a % b:
            raise p.error(f"'/' must divide exactly: {a}/{b}", tok)
        return a // b
    return lazy_sympy().sympify(a) / b


def _normalize(x: Any) -> Any:
    if type(x) is int:
        return x
    sympy = lazy_sympy()
    if isinstance(x, sympy.Basic) and x.is_Integer:
        return int(x)
    return x


def _symbols(symbols: Any) -> dict[str, Any]:
    """The symbol bindings as a new dict (names are strings), or NotationError."""
    if not isinstance(symbols, dict) or not all(isinstance(k, str) for k in symbols):
        raise NotationError(f"parse: symbols must be a dict from names to values, got {fmt(symbols)}")
    return dict(symbols)


def parse_text(ctors: Constructors, text: str, symbols: dict[str, Any]) -> Any:
    """Parse ``text`` (a layout, swizzle or composed layout) with the constructors ``ctors``.

    Pre:  ``symbols`` binds names to values; unbound names become positive-integer symbols.
    Post: the object the constructors built, or NotationError with a caret under the column.

    >>> parse_text(Constructors(layout=lambda s, d=None: (s, d)), "(8,m):(m,1)", {"m": 2})
    ((8, 2), (2, 1))
    """
    return _Parser(ctors, text, _symbols(symbols)).parse_top()


def parse_layout_text(ctors: Constructors, text: str, symbols: dict[str, Any]) -> Any:
    """Parse ``text``, which must be a plain layout ``shape[:stride]``, with ``ctors.layout``.

    >>> parse_layout_text(Constructors(layout=lambda s, d=None: (s, d)), "(8,4)", {})
    ((8, 4), None)
    """
    p = _Parser(ctors, text, _symbols(symbols))
    r = p.parse_layout()
    if p.tok.kind != "end":
        raise p.error(f"unexpected {fmt(p.tok.text)} after a complete layout")
    return r


def parse_inttuple_text(text: str, symbols: dict[str, Any]) -> Any:
    """Parse a single IntTuple such as ``((8,m),(T,2k))``.

    >>> parse_inttuple_text("(4,(2,3))", {})
    (4, (2, 3))
    """
    p = _Parser(Constructors(layout=type(None)), text, _symbols(symbols))
    r = p.parse_inttuple()
    if p.tok.kind != "end":
        raise p.error(f"unexpected {fmt(p.tok.text)} after a complete tuple")
    return r
