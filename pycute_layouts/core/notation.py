"""Read CuTe notation: layouts, swizzles, composed layouts, and the PTX table forms with symbols.

Grammar (whitespace is free)::

    top       := composed | layout | swizzle
    composed  := (swizzle | layout) 'o' [offset 'o'] layout      e.g. Sw<3,4,3> o 0 o (8,64):(64,1)
               | swizzle 'o' smem_ptr 'o' layout               e.g. Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)
    smem_ptr  := 'smem_ptr[' bits 'b](' ('unset' | hex address) ')'   bits in 1 2 4 6 8 16 32 64 128, or (128/T)
    swizzle   := ('Sw' | 'Swizzle') '<' int ',' int ',' int '>'
    layout    := inttuple [':' inttuple]                         shape only -> column-major strides
    inttuple  := '(' [inttuple (',' inttuple)*] ')' | expr
    expr      := integer/symbol arithmetic with + - * / ** and implicit products: 8T, 2k, 1T

Names that are not bound by keyword arguments become sympy symbols that are positive integers;
CuTe's static integers ``_8`` read as ``8``. ``Sw<B,M,S> o k o L`` is a ComposedLayout whose
swizzle acts on the layout's own units (element offsets); ``Sw<B,M,S> o smem_ptr[Nb](unset) o L``,
how CuTe prints its GMMA/UMMA atoms, is a SwizzledSmemLayout of N-bit elements whose swizzle acts
on byte addresses (see docs/swizzles.md).
A parenthesised group followed by an operator is an expression, not a tuple: ``(m+1)*8``.
Errors are :class:`NotationError` with a caret under the offending column. The grammar itself is
:mod:`pycute_layouts.core.grammar`; this module hands it the package's types.

>>> print(parse("((8,2),(4,4)):((4,32),(1,64))"))
((8,2),(4,4)):((4,32),(1,64))
>>> print(parse("((8,m),(T,2k)):((8T,SBO),(1,T))", T=8))
((8,m),(8,2*k)):((64,SBO),(1,8))
>>> print(parse("Sw<3,4,3> o 0 o (8,64):(64,1)"))
Sw<3,4,3> o 0 o (8,64):(64,1)
>>> print(parse("Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)"))
Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)
"""

from __future__ import annotations

from typing import Any

from ..errors import UnitError
from .basis import scaled_basis
from .composed import ComposedLayout, SwizzledSmemLayout, UnboundWidthSmemLayout
from .f2 import F2
from .grammar import Constructors, parse_inttuple_text, parse_layout_text, parse_text
from .layout import Layout
from .swizzle import Swizzle

__all__ = ["parse", "parse_layout", "parse_inttuple"]

def _smem_ptr(swizzle: Any, layout: Any, element_bits: Any, base_address: int = 0) -> Any:
    """CuTe's pointer form; ``smem_ptr[(128/T)b]`` with T unbound (element_bits None) keeps the width symbolic."""
    if element_bits is None:
        if base_address:
            raise UnitError(f"smem_ptr[(128/T)b]({base_address:#x}): an address needs a known element width; bind T")
        return UnboundWidthSmemLayout(swizzle, layout)
    return SwizzledSmemLayout(swizzle, layout, element_bits, base_address=base_address)


#: The package's types, handed to the grammar.
CONSTRUCTORS = Constructors(layout=Layout, swizzle=Swizzle, composed=ComposedLayout, basis=scaled_basis, f2=F2,
                            smem_ptr=_smem_ptr)


def parse(text: str, **symbols: Any) -> Any:
    """Parse CuTe notation into a Layout, Swizzle, ComposedLayout or SwizzledSmemLayout; keyword arguments bind names.

    Pre:  ``text`` is CuTe notation; keyword arguments bind names to integers or sympy values.
    Post: the parsed object; unbound names (``m``, ``k``, ``SBO`` ...) are positive-integer symbols.
    Otherwise NotationError with a caret under the offending column.

    >>> L = parse("((T,1,m),(8,k)):((1,T,SBO),(1T,LBO))", T=8, m=2, k=2, SBO=64, LBO=128)
    >>> print(L)
    ((8,1,2),(8,2)):((1,8,64),(8,128))
    >>> parse("(8,4):(4,")
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.NotationError: parse: expected a number, a name or '(', found end of input
      (8,4):(4,
               ^ (column 10)
    """
    return parse_text(CONSTRUCTORS, text, symbols)


def parse_layout(text: str, **symbols: Any) -> Layout:
    """Parse text that must be a plain layout (``shape:stride``).

    >>> print(parse_layout("(8,4):(4,1)"))
    (8,4):(4,1)
    """
    return parse_layout_text(CONSTRUCTORS, text, symbols)


def parse_inttuple(text: str, **symbols: Any) -> Any:
    """Parse a single IntTuple such as ``((8,m),(T,2k))``.

    >>> parse_inttuple("(4,(2,3))")
    (4, (2, 3))
    """
    return parse_inttuple_text(text, symbols)
