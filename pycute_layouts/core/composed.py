"""Composed layouts ``outer o offset o inner`` and shared-memory layouts with explicit units.

:class:`ComposedLayout` is CuTe's ``ComposedLayout<A, O, B>``: the function
``c -> outer(offset + inner(c))``. The inner layout defines the domain (shape, size, slicing,
tiling all act on it); the outer function is typically a :class:`~pycute_layouts.core.swizzle.Swizzle`.
Note that NVIDIA's pycute names the two layouts the other way round; here ``outer`` is applied
last, exactly as CuTe prints it: ``Sw<3,4,3> o 0 o (8,64):(64,1)``.

The same swizzle means different things on element offsets and on byte addresses:
``Sw<3,4,3>`` on bytes is ``Sw<3,3,3>`` on 16-bit element offsets. :class:`SwizzledSmemLayout`
records which unit the swizzle acts on and the element width, so it can always answer "which
byte address does element (i, j) occupy".

>>> from pycute_layouts import Layout, Swizzle
>>> C = ComposedLayout(Swizzle(3, 4, 3), 0, Layout((8, 64), (64, 1)))
>>> print(C)
Sw<3,4,3> o 0 o (8,64):(64,1)
>>> C(1, 0), C(1, 16)
(64, 80)
>>> S = SwizzledSmemLayout(Swizzle(3, 4, 3), Layout((8, 64), (64, 1)), element_bits=16)
>>> S.byte_address(1, 0), S.byte_address(1, 8)
(144, 128)
>>> print(S.element_swizzle())
Sw<3,3,3>
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import AdmissibilityError, LayoutError, LayoutTypeError, LayoutValueError, SwizzleError, UnitError
from ..limits import MAX_ELEMENT_BITS, MAX_EVAL_POINTS, check_budget, check_type, fmt
from . import inttuple as it
from .algebra import composition, left_inverse, register_composition_operand, right_inverse
from .display import rich_repr
from .inttuple import format_inttuple
from .layout import Layout, as_layout, has_underscore, require_offsets, slice_and_offset, subs_mapping
from .swizzle import Swizzle, XorSwizzle
from .symbols import subs_inttuple
from .tiling import downcast, max_common_layout, max_common_vector, recast, upcast

__all__ = ["ComposedLayout", "make_composed_layout", "SwizzledSmemLayout", "byte_to_element_swizzle",
           "element_to_byte_swizzle", "SWIZZLE_UNITS", "UnboundWidthSmemLayout", "smem_layout_of", "swizzle_forms",
           "element_unit_note", "check_swizzle_unit", "swizzle_through"]

#: The units a composed layout's swizzle may act on: ``"elements"`` (CuTe's meaning of
#: ``Sw<B,M,S> o k o L``: the layout's own units, the default everywhere) or ``"bytes"`` (PTX's
#: byte-address reading, which only the pointer form or an explicit ``swizzle_unit="bytes"`` selects).
SWIZZLE_UNITS = ("elements", "bytes")


def _is_fn(x: Any) -> bool:
    return isinstance(x, (Swizzle, XorSwizzle, Layout, ComposedLayout))


def _fmt_offset(o: Any) -> str:
    return format_inttuple(o)


class _InnerLayoutView:
    """What a composed form answers from its inner (element) layout alone.

    CuTe's rule for ``A o O o B``: shape, size, cosize, rank and depth are those of ``B``. The
    subclasses give ``inner``; ``_composed_view`` is the ComposedLayout the algebra works on.
    """

    __slots__ = ()

    @property
    def shape(self) -> Any:
        """Shape of the inner (element) layout.

        >>> from pycute_layouts import Layout, Swizzle
        >>> ComposedLayout(Swizzle(3, 4, 3), 0, Layout((8, 64), (64, 1))).shape
        (8, 64)
        """
        return self.inner.shape

    def size(self) -> Any:
        """Size of the inner (element) layout.

        >>> from pycute_layouts import Layout, Swizzle
        >>> ComposedLayout(Swizzle(3, 4, 3), 0, Layout((8, 64), (64, 1))).size()
        512
        """
        return self.inner.size()

    def cosize(self) -> Any:
        """CuTe's definition: the cosize of the inner (element) layout.

        >>> from pycute_layouts import Layout, Swizzle
        >>> ComposedLayout(Swizzle(3, 4, 3), 0, Layout((8, 64), (64, 1))).cosize()
        512
        """
        return self.inner.cosize()

    def rank(self) -> int:
        """Rank of the inner (element) layout.

        >>> from pycute_layouts import Layout, Swizzle
        >>> ComposedLayout(Swizzle(3, 4, 3), 0, Layout((8, (4, 16)), (64, (16, 1)))).rank()
        2
        """
        return self.inner.rank()

    def depth(self) -> int:
        """Depth of the inner (element) layout.

        >>> from pycute_layouts import Layout, Swizzle
        >>> ComposedLayout(Swizzle(3, 4, 3), 0, Layout((8, (4, 16)), (64, (16, 1)))).depth()
        2
        """
        return self.inner.depth()

    def __len__(self) -> int:
        return self.rank()


class _ComposedAlgebra(_InnerLayoutView):
    """The algebra hooks of a layout whose element view is a ComposedLayout.

    Each subclass (ComposedLayout, SwizzledSmemLayout) defines ``_composed_view() -> ComposedLayout``.
    """

    __slots__ = ()

    def _as_rhs_of_layout(self, a: Any) -> Any:
        return _compose_with_composed(a, self._composed_view())

    def _right_inverse(self) -> Any:
        return _inverse_of_composed(self._composed_view(), "right")

    def _left_inverse(self) -> Any:
        return _inverse_of_composed(self._composed_view(), "left")

    def _max_common_layout(self, other: Any) -> Layout:
        return _composed_max_common_layout(self._composed_view(), other)

    def _max_common_vector(self, other: Any) -> int:
        return _composed_max_common_vector(self._composed_view(), other)


class ComposedLayout(_ComposedAlgebra):
    """``outer o offset o inner``: the function ``c -> outer(offset + inner(c))`` (CuTe's ComposedLayout).

    ``outer`` is a Swizzle, XorSwizzle or Layout; ``inner`` a Layout (or ComposedLayout);
    ``offset`` an integer. Domain operations (shape, size, slicing, divide, product,
    ``tile_to_shape``, ``coalesce``) act on ``inner``, as in CuTe.

    >>> from pycute_layouts import Layout, Swizzle, _
    >>> C = ComposedLayout(Swizzle(1, 4, 3), 0, Layout((8, 16), (16, 1)))
    >>> C.size(), C.shape
    (128, (8, 16))
    >>> print(C(_, 3))
    Sw<1,4,3> o 3 o 8:16
    """

    __slots__ = ("_outer", "_offset", "_inner", "_hash")
    _layout_like = True  # rank/depth/size/shape/cosize (free functions) are those of the inner layout

    def __init__(self, outer: Any, offset: Any = 0, inner: Any = None):
        if inner is None:
            raise LayoutTypeError("ComposedLayout: an inner layout is required: ComposedLayout(outer, offset, inner)")
        if not _is_fn(outer):
            raise LayoutTypeError(f"ComposedLayout: outer must be a Swizzle, XorSwizzle or Layout, got {fmt(outer)}")
        if not isinstance(inner, (Layout, ComposedLayout)):
            raise LayoutTypeError(f"ComposedLayout: inner must be a Layout, got {fmt(inner)}")
        if isinstance(inner, Layout) and isinstance(outer, (Swizzle, XorSwizzle)):
            require_offsets(inner, "ComposedLayout")  # a swizzle XORs the bits of an offset, not of a coordinate
        off = it.as_inttuple(offset, "ComposedLayout", "offset")
        if isinstance(off, tuple):
            raise LayoutTypeError(f"ComposedLayout: offset must be an integer, got {fmt(offset)}")
        self._outer = outer
        self._offset = off
        self._inner = inner
        self._hash = None

    @property
    def outer(self) -> Any:
        """The function applied last (CuTe's ``layout_a()``).

        >>> from pycute_layouts import Layout, Swizzle
        >>> make_composed_layout(Swizzle(1, 4, 3), 0, Layout(8)).outer
        Swizzle(1, 4, 3)
        """
        return self._outer

    @property
    def offset(self) -> Any:
        """The offset added between inner and outer.

        >>> from pycute_layouts import Layout, Swizzle
        >>> make_composed_layout(Swizzle(1, 4, 3), 32, Layout(8)).offset
        32
        """
        return self._offset

    @property
    def inner(self) -> Any:
        """The layout applied first; it defines the domain (CuTe's ``layout_b()``).

        >>> from pycute_layouts import Layout, Swizzle
        >>> print(make_composed_layout(Swizzle(1, 4, 3), 0, Layout(8)).inner)
        8:1
        """
        return self._inner

    layout_a = outer
    layout_b = inner

    def is_symbolic(self) -> bool:
        """True when the inner layout or the offset is symbolic.

        >>> from pycute_layouts import parse
        >>> parse("Sw<3,4,3> o 0 o (8,m):(m,1)").is_symbolic(), parse("Sw<3,4,3> o 0 o (8,64):(64,1)").is_symbolic()
        (True, False)
        """
        return self._inner.is_symbolic() or it.is_symbolic(self._offset)

    # -- evaluation ----------------------------------------------------------------------
    def __call__(self, *coord: Any, check: bool = False) -> Any:
        c = coord[0] if len(coord) == 1 else tuple(coord)
        if has_underscore(c):
            return self.slice_and_offset(c, check=check)[0]
        return self._outer(self._offset + self._inner(c, check=check))

    def slice_and_offset(self, *coord: Any, check: bool = False) -> tuple[ComposedLayout, int]:
        """Slice the inner layout; the offset moves into the composed layout (CuTe returns offset 0).

        This is CuTe's generic ``ComposedLayout`` overload for every outer function; for a Swizzle over a
        Layout, CuTe's ``swizzle_layout.hpp`` instead decays the slice to a plain layout and an offset where
        the slice misses the swizzled bit pairs: the same function, kept composed here (docs/differences.md).
        The free function :func:`~pycute_layouts.core.layout.slice_and_offset` calls this.

        ``check=True`` raises CoordinateError when a fixed coordinate is out of range.

        >>> from pycute_layouts import Layout, Swizzle, _
        >>> sub, off = ComposedLayout(Swizzle(1, 4, 3), 0, Layout((8, 16), (16, 1))).slice_and_offset(2, _)
        >>> str(sub), off
        ('Sw<1,4,3> o 32 o 16:1', 0)
        """
        c = coord[0] if len(coord) == 1 else tuple(coord)
        if isinstance(self._inner, Layout):
            sub, off = slice_and_offset(c, self._inner, check=check)
        else:
            sub, off = self._inner.slice_and_offset(c, check=check)
        return ComposedLayout(self._outer, self._offset + off, sub), 0

    def to_numpy(self) -> np.ndarray:
        """outer(offset + inner(i)) for every index, vectorised.

        >>> from pycute_layouts import Layout, Swizzle
        >>> ComposedLayout(Swizzle(1, 0, 1), 0, Layout(4)).to_numpy()
        array([0, 1, 3, 2])
        """
        vals = self._inner.to_numpy() + self._offset
        return self._apply_outer(vals)

    def _apply_outer(self, vals: np.ndarray) -> np.ndarray:
        if isinstance(self._outer, (Layout, ComposedLayout)):
            return self._outer(vals)
        return self._outer(vals)

    def __getitem__(self, i: int) -> ComposedLayout:
        return ComposedLayout(self._outer, self._offset, self._inner[i])

    # -- algebra hooks used by the module-level functions ----------------------------------
    def _composed_view(self) -> ComposedLayout:
        return self

    def _apply_to_inner(self, fn: Any, *args: Any, **kwargs: Any) -> ComposedLayout:
        return ComposedLayout(self._outer, self._offset, fn(self._inner, *args, **kwargs))

    def _compose_with(self, tiler: Any) -> ComposedLayout:
        return ComposedLayout(self._outer, self._offset, composition(self._inner, tiler))

    def compose(self, tiler: Any) -> ComposedLayout:
        """``composition(self, tiler)``: the tiler acts on the inner layout.

        >>> from pycute_layouts import Layout, Swizzle
        >>> print(ComposedLayout(Swizzle(3, 4, 3), 0, Layout((8, 64), (64, 1))).compose((8, 16)))
        Sw<3,4,3> o 0 o (8,16):(64,1)
        """
        return self._compose_with(tiler)

    def _upcast(self, n: int) -> ComposedLayout:
        return ComposedLayout(_upcast_fn(self._outer, n), _upcast_offset(self._offset, n), upcast(self._inner, n))

    def _downcast(self, n: int) -> ComposedLayout:
        return ComposedLayout(_downcast_fn(self._outer, n), self._offset * n, downcast(self._inner, n))

    def subs(self, *args: Any, **kwargs: Any) -> ComposedLayout:
        """Bind symbols in the inner layout and the offset.

        >>> from pycute_layouts import parse
        >>> print(parse("Sw<1,4,3> o ((8,m),(T,2)):((2T,SBO),(1,T))", T=8).subs(m=2, SBO=128))
        Sw<1,4,3> o 0 o ((8,2),(8,2)):((16,128),(1,8))
        """
        mapping = subs_mapping(args, kwargs)
        inner = self._inner.subs(mapping)
        return ComposedLayout(self._outer, subs_inttuple(self._offset, mapping), inner)

    # -- protocol ------------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if isinstance(other, ComposedLayout):
            return (self._outer, self._offset, self._inner) == (other._outer, other._offset, other._inner)
        return NotImplemented

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(("ComposedLayout", self._outer, self._offset, self._inner))
        return self._hash

    def __str__(self) -> str:
        return f"{self._outer} o {_fmt_offset(self._offset)} o {self._inner}"

    def _repr_svg_(self) -> str | None:
        """IPython's display protocol: the picture (see :mod:`pycute_layouts.core.display`), or None for text."""
        return rich_repr(self, "svg")

    def __repr__(self) -> str:
        return f"parse('{self}')"


def _log2_exact(n: int, who: str) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or n <= 0 or n & (n - 1):
        raise UnitError(f"{who}: {n} must be a positive power of two")
    return n.bit_length() - 1


def _upcast_fn(fn: Any, n: int) -> Any:
    if isinstance(fn, Swizzle):
        k = _log2_exact(n, f"upcast<{n}> of {fn}")
        if fn.base < k and not fn.is_identity():
            raise SwizzleError(
                f"upcast<{n}>: {fn} XORs bits below bit {k}, inside the new {n}-wide unit; it has no equivalent on "
                f"the coarser units (CuTe would silently drop those bits)"
            )
        return Swizzle(fn.bits, max(fn.base - k, 0), fn.shift) if not fn.is_identity() else fn
    if isinstance(fn, XorSwizzle):
        k = _log2_exact(n, f"upcast<{n}> of {fn}")
        pairs = fn.pairs
        if any(s < k or t < k for s, t in pairs):
            raise SwizzleError(f"upcast<{n}>: {fn} touches bits below bit {k}; it cannot act on {n}-wide units")
        return XorSwizzle([(s - k, t - k) for s, t in pairs])
    return upcast(fn, n)


def _downcast_fn(fn: Any, n: int) -> Any:
    if isinstance(fn, Swizzle):
        k = _log2_exact(n, f"downcast<{n}> of {fn}")
        return Swizzle(fn.bits, fn.base + k, fn.shift) if not fn.is_identity() else fn
    if isinstance(fn, XorSwizzle):
        k = _log2_exact(n, f"downcast<{n}> of {fn}")
        return XorSwizzle([(s + k, t + k) for s, t in fn.pairs])
    return downcast(fn, n)


def _upcast_offset(o: Any, n: int) -> Any:
    if type(o) is int:
        if o % n:
            raise UnitError(f"upcast<{n}>: offset {o} is not a multiple of {n}")
        return o // n
    return o / n


def make_composed_layout(outer: Any, offset: Any, inner: Any) -> ComposedLayout:
    """Build ``outer o offset o inner`` (CuTe's ``composition(A, offset, B)``).

    >>> from pycute_layouts import Layout, Swizzle
    >>> print(make_composed_layout(Swizzle(2, 4, 3), 0, Layout((8, 32), (32, 1))))
    Sw<2,4,3> o 0 o (8,32):(32,1)
    """
    return ComposedLayout(outer, offset, inner)


# ------------------------------------------------------------------------------------------
# units


def byte_to_element_swizzle(sw: Swizzle, element_bits: int) -> Swizzle:
    """The swizzle on element offsets equal to ``sw`` on byte addresses: ``Sw<B, M - log2(bytes), S>``.

    Exists only when the element is a whole, power-of-two number of bytes and the swizzle keeps
    whole elements together (M >= log2(bytes)); otherwise UnitError.

    >>> print(byte_to_element_swizzle(Swizzle(3, 4, 3), 16))
    Sw<3,3,3>
    >>> print(byte_to_element_swizzle(Swizzle(3, 4, 3), 32))
    Sw<3,2,3>
    >>> byte_to_element_swizzle(Swizzle(3, 4, 3), 256)
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.UnitError: byte_to_element_swizzle: Sw<3,4,3> moves 16-byte chunks but an element is 32 bytes: ...
    """
    if not isinstance(sw, Swizzle):
        raise LayoutTypeError(f"byte_to_element_swizzle: expected a Swizzle, got {fmt(sw)}")
    eb = _element_bytes(element_bits, "byte_to_element_swizzle")
    k = _log2_exact(eb, f"byte_to_element_swizzle: element size {eb} bytes")
    if sw.is_identity():
        return sw
    if sw.base < k:
        raise UnitError(
            f"byte_to_element_swizzle: {sw} moves {1 << sw.base}-byte chunks but an element is {eb} bytes: "
            "no element-offset swizzle is equivalent"
        )
    return Swizzle(sw.bits, sw.base - k, sw.shift)


def element_to_byte_swizzle(sw: Swizzle, element_bits: int) -> Swizzle:
    """The byte-address swizzle equal to ``sw`` on element offsets: ``Sw<B, M + log2(bytes), S>``.

    Exact for whole, power-of-two-byte elements (an XorSwizzle's bit pairs move up by log2(bytes));
    UnitError naming the element width otherwise (there is then no byte swizzle with the same map).

    >>> print(element_to_byte_swizzle(Swizzle(3, 3, 3), 16))
    Sw<3,4,3>
    >>> print(element_to_byte_swizzle(Swizzle(3, 4, 3), 8))
    Sw<3,4,3>
    """
    if not isinstance(sw, (Swizzle, XorSwizzle)):
        raise LayoutTypeError(f"element_to_byte_swizzle: expected a Swizzle or XorSwizzle, got {fmt(sw)}")
    eb = _element_bytes(element_bits, "element_to_byte_swizzle")
    k = _log2_exact(eb, f"element_to_byte_swizzle: {sw} on {element_bits}-bit element offsets has no byte-address "
                        f"form: the element size in bytes")
    if sw.is_identity():
        return sw
    if isinstance(sw, XorSwizzle):
        return XorSwizzle([(a + k, b + k) for a, b in sw.pairs])
    return Swizzle(sw.bits, sw.base + k, sw.shift)


def _element_bytes(element_bits: Any, who: str) -> int:
    if isinstance(element_bits, bool) or not isinstance(element_bits, int) or not 0 < element_bits <= MAX_ELEMENT_BITS:
        raise UnitError(f"{who}: element_bits must be a positive integer, got {fmt(element_bits)} "
                        f"(at most MAX_ELEMENT_BITS = {MAX_ELEMENT_BITS})")
    if element_bits % 8:
        raise UnitError(f"{who}: {element_bits}-bit elements are not a whole number of bytes")
    return element_bits // 8


class SwizzledSmemLayout(_ComposedAlgebra):
    """A shared-memory tile: element layout + swizzle + the unit the swizzle acts on + element width.

    ``layout`` maps coordinates to *element* offsets. ``swizzle_unit`` is ``"bytes"`` (the
    hardware's view: TMA and wgmma swizzle byte addresses) or ``"elements"`` (CuTe's usual
    ``ComposedLayout`` on element offsets). ``base_address`` is the tile's byte address (the
    byte swizzle acts on absolute addresses). Sub-byte elements (4, 6 bits) are allowed; their
    addresses are available in bits, and in bytes where they start on a byte.

    >>> from pycute_layouts import Layout, Swizzle
    >>> S = SwizzledSmemLayout(Swizzle(3, 4, 3), Layout((8, 64), (64, 1)), element_bits=16)
    >>> S.byte_address(1, 0)
    144
    >>> S.as_unit("elements").byte_address(1, 0)
    144
    >>> print(S.upcast_to_bits(128).layout)
    (8,8):(8,1)
    """

    __slots__ = ("swizzle", "layout", "element_bits", "swizzle_unit", "base_address")
    _layout_like = True  # rank/depth/size/shape/cosize (free functions) are those of the element layout

    def __init__(self, swizzle: Any, layout: Layout, element_bits: int, swizzle_unit: str = "bytes",
                 base_address: int = 0):
        if not isinstance(swizzle, (Swizzle, XorSwizzle)):
            raise LayoutTypeError(f"SwizzledSmemLayout: swizzle must be a Swizzle or XorSwizzle, got {fmt(swizzle)}")
        layout = as_layout(layout, "SwizzledSmemLayout", offsets=True) if isinstance(layout, Layout) else layout
        if not isinstance(layout, Layout):
            raise LayoutTypeError(f"SwizzledSmemLayout: layout must be a Layout, got {fmt(layout)}")
        if isinstance(element_bits, bool) or not isinstance(element_bits, int) or not 0 < element_bits <= MAX_ELEMENT_BITS:
            raise UnitError(f"SwizzledSmemLayout: element_bits must be a positive integer, got "
                            f"{fmt(element_bits)} (at most MAX_ELEMENT_BITS = {MAX_ELEMENT_BITS})")
        if not isinstance(swizzle_unit, str) or swizzle_unit not in ("bytes", "elements"):
            raise UnitError(f"SwizzledSmemLayout: swizzle_unit must be 'bytes' or 'elements', got {fmt(swizzle_unit)}")
        if swizzle_unit == "elements" and element_bits % 8:
            raise UnitError(f"SwizzledSmemLayout: an element-offset swizzle needs whole-byte elements, "
                            f"got {element_bits}-bit elements")
        if isinstance(base_address, bool) or not isinstance(base_address, int) or base_address < 0:
            raise UnitError(f"SwizzledSmemLayout: base_address must be a non-negative int, got {fmt(base_address)}")
        object.__setattr__(self, "swizzle", swizzle)
        object.__setattr__(self, "layout", layout)
        object.__setattr__(self, "element_bits", element_bits)
        object.__setattr__(self, "swizzle_unit", swizzle_unit)
        object.__setattr__(self, "base_address", base_address)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("SwizzledSmemLayout is immutable")

    def bit_address(self, *coord: Any) -> Any:
        """Bit address of the element at ``coord`` (numpy arrays work elementwise).

        >>> from pycute_layouts import Layout, Swizzle
        >>> SwizzledSmemLayout(Swizzle(0, 4, 3), Layout(32), element_bits=4).bit_address(3)
        12
        """
        return self._offset_bits(self.layout(*coord))

    def _offset_bits(self, off: Any) -> Any:
        """Absolute bit address of the element at element offset ``off`` (int or numpy array)."""
        if self.swizzle_unit == "elements":
            eb = self.element_bits // 8
            return (self.base_address + self.swizzle(self.base_address // eb + off) * eb - self.base_address) * 8 \
                if self.base_address % eb == 0 else self._unaligned()
        bits = self.base_address * 8 + off * self.element_bits
        if isinstance(bits, np.ndarray):
            byte, rem = np.divmod(bits, 8)
            return self.swizzle(byte) * 8 + rem
        byte, rem = divmod(bits, 8)
        return self.swizzle(byte) * 8 + rem

    def _unaligned(self) -> Any:
        raise UnitError(f"SwizzledSmemLayout: base address {self.base_address} is not a multiple of the element size")

    def byte_address(self, *coord: Any) -> Any:
        """Absolute byte address of the element at ``coord``; UnitError if it does not start on a byte.

        >>> from pycute_layouts import Layout, Swizzle
        >>> SwizzledSmemLayout(Swizzle(1, 4, 3), Layout((8, 16), (16, 1)), element_bits=16).byte_address(4, 0)
        144
        """
        bits = self.bit_address(*coord)
        if isinstance(bits, np.ndarray):
            if np.any(bits % 8):
                raise UnitError("SwizzledSmemLayout.byte_address: some elements do not start on a byte; use bit_address")
            return bits // 8
        if bits % 8:
            raise UnitError(f"SwizzledSmemLayout.byte_address: element {coord} starts at bit {bits}, not on a byte; "
                            "use bit_address")
        return bits // 8

    def byte_addresses(self) -> np.ndarray:
        """Byte address of every element, in the layout's index order (vectorised).

        >>> from pycute_layouts import Layout, Swizzle
        >>> SwizzledSmemLayout(Swizzle(1, 4, 3), Layout((2, 16), (16, 1)), element_bits=64).byte_addresses()[:4]
        array([  0, 144,   8, 152])
        """
        check_budget("SwizzledSmemLayout.byte_addresses", f"layout {self.layout}", self.layout.size(), MAX_EVAL_POINTS)
        idx = np.arange(self.layout.size(), dtype=np.int64)
        return self.byte_address(idx)

    def element_swizzle(self) -> Swizzle:
        """The swizzle expressed on element offsets (UnitError where none exists).

        >>> from pycute_layouts import Layout, Swizzle
        >>> print(SwizzledSmemLayout(Swizzle(3, 4, 3), Layout(64), element_bits=32).element_swizzle())
        Sw<3,2,3>
        """
        if self.swizzle_unit == "elements":
            return self.swizzle
        if not isinstance(self.swizzle, Swizzle):
            raise UnitError("element_swizzle: only a single Swizzle<B,M,S> converts to element units")
        return byte_to_element_swizzle(self.swizzle, self.element_bits)

    def byte_swizzle(self) -> Any:
        """The swizzle expressed on byte addresses.

        >>> from pycute_layouts import Layout, Swizzle
        >>> print(SwizzledSmemLayout(Swizzle(3, 3, 3), Layout(64), 16, "elements").byte_swizzle())
        Sw<3,4,3>
        """
        if self.swizzle_unit == "bytes":
            return self.swizzle
        return element_to_byte_swizzle(self.swizzle, self.element_bits)

    def as_unit(self, unit: str) -> SwizzledSmemLayout:
        """The same placement with the swizzle converted to ``unit`` ("bytes" or "elements").

        >>> from pycute_layouts import Layout, Swizzle
        >>> print(SwizzledSmemLayout(Swizzle(3, 4, 3), Layout(64), 16).as_unit("elements").swizzle)
        Sw<3,3,3>
        """
        if not isinstance(unit, str) or unit not in ("bytes", "elements"):
            raise UnitError(f"as_unit: unit must be 'bytes' or 'elements', got {fmt(unit)}"[:200])
        if unit == self.swizzle_unit:
            return self
        sw = self.element_swizzle() if unit == "elements" else self.byte_swizzle()
        return SwizzledSmemLayout(sw, self.layout, self.element_bits, unit, self.base_address)

    def as_composed(self) -> ComposedLayout:
        """CuTe's view: ``Sw<..> o 0 o layout`` on element offsets (needs base address 0 mod the period).

        >>> from pycute_layouts import Layout, Swizzle
        >>> print(SwizzledSmemLayout(Swizzle(3, 4, 3), Layout((8, 64), (64, 1)), 16).as_composed())
        Sw<3,3,3> o 0 o (8,64):(64,1)
        """
        sw = self.element_swizzle()
        eb = self.element_bits // 8
        return ComposedLayout(sw, self.base_address // eb, self.layout)

    def upcast_to_bits(self, new_bits: int) -> SwizzledSmemLayout:
        """The same bytes seen as wider elements (e.g. 128-bit units); the byte swizzle is unchanged.

        >>> from pycute_layouts import Layout, Swizzle
        >>> print(SwizzledSmemLayout(Swizzle(3, 4, 3), Layout((8, 64), (64, 1)), 16).upcast_to_bits(128).layout)
        (8,8):(8,1)
        """
        b = self.as_unit("bytes")
        return SwizzledSmemLayout(b.swizzle, recast(self.layout, self.element_bits, new_bits), new_bits, "bytes",
                                  self.base_address)

    # -- the layout protocol: CuTe's ``Sw<B,M,S> o smem_ptr[Nb](unset) o L`` ---------------------
    def __call__(self, *coord: Any, check: bool = False) -> Any:
        """The element offset where the element at ``coord`` lands, relative to the base address.

        Pre:  ``coord`` is a coordinate of ``layout`` (``_`` slices, as for a ComposedLayout).
        Post: ``(byte_swizzle(base + layout(c) * N / 8) - base) * 8 / N`` with N = ``element_bits``:
              where a CuTe smem tensor with this layout puts the element. UnitError when the
              swizzle moves the element off an N-bit boundary (sub-byte or 6-bit elements).

        >>> from pycute_layouts import Layout, Swizzle
        >>> S = SwizzledSmemLayout(Swizzle(3, 4, 3), Layout((8, 64), (64, 1)), 16)
        >>> S(1, 0), S(1, 8), S.layout(1, 8)
        (72, 64, 72)
        """
        c = coord[0] if len(coord) == 1 else tuple(coord)
        if has_underscore(c):
            return self._slice(c, check)
        return self._landing_elems(self._offset_bits(self.layout(c, check=check)), c)

    def _landing_elems(self, bits: Any, coord: Any) -> Any:
        rel = bits - self.base_address * 8
        q, r = (np.divmod(rel, self.element_bits) if isinstance(rel, np.ndarray)
                else divmod(rel, self.element_bits))
        if np.any(r):
            raise UnitError(f"{self}: the byte swizzle moves the element at {coord} to bit offset "
                            f"{rel if not isinstance(rel, np.ndarray) else 'some'}, not on a {self.element_bits}-bit "
                            "element boundary; use bit_address")
        return q

    def _slice(self, coord: Any, check: bool) -> Any:
        sub, off = slice_and_offset(coord, self.layout, check=check)
        if off == 0:
            return self._with_layout(sub)
        if self.base_address:
            raise UnitError(f"{self}: a slice at element offset {off} of a pointer with an address has no CuTe "
                            "form; slice the layout and build a SwizzledSmemLayout at the moved base address")
        try:
            sw = self.element_swizzle()
        except (UnitError, LayoutTypeError) as e:
            raise UnitError(f"{self}: a slice at element offset {off} needs the swizzle in element units: {e}") from e
        return ComposedLayout(sw, off, sub)

    def _with_layout(self, layout: Any) -> SwizzledSmemLayout:
        if not isinstance(layout, Layout):
            raise LayoutTypeError(f"SwizzledSmemLayout: the operation on {self.layout} gave {fmt(layout)}, not a Layout")
        return SwizzledSmemLayout(self.swizzle, layout, self.element_bits, self.swizzle_unit, self.base_address)

    def to_numpy(self) -> np.ndarray:
        """The element offset where each element lands, in the layout's index order.

        >>> from pycute_layouts import Layout, Swizzle
        >>> SwizzledSmemLayout(Swizzle(1, 4, 3), Layout((8, 16), (16, 1)), 16).to_numpy()[:5].tolist()
        [0, 16, 32, 48, 72]
        """
        idx = np.arange(self.layout.size(), dtype=np.int64)
        return self._landing_elems(self._offset_bits(self.layout(idx)), "some index")

    @property
    def inner(self) -> Layout:
        """The element layout (CuTe's ``layout_b()`` of ``Sw o smem_ptr[Nb] o L``), as for a ComposedLayout.

        >>> from pycute_layouts import Layout, Swizzle
        >>> print(SwizzledSmemLayout(Swizzle(3, 4, 3), Layout((8, 64), (64, 1)), 16).inner)
        (8,64):(64,1)
        """
        return self.layout

    def __getitem__(self, i: int) -> SwizzledSmemLayout:
        return self._with_layout(self.layout[i])

    def is_symbolic(self) -> bool:
        """True when the element layout is symbolic.

        >>> from pycute_layouts import parse
        >>> parse("Sw<3,4,3> o smem_ptr[16b](unset) o (8,m):(m,1)").is_symbolic()
        True
        """
        return self.layout.is_symbolic()

    def subs(self, *args: Any, **kwargs: Any) -> SwizzledSmemLayout:
        """Bind symbols in the element layout.

        >>> from pycute_layouts import parse
        >>> print(parse("Sw<3,4,3> o smem_ptr[16b](unset) o (8,m):(m,1)").subs(m=64))
        Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)
        """
        return self._with_layout(self.layout.subs(subs_mapping(args, kwargs)))

    def _apply_to_inner(self, fn: Any, *args: Any, **kwargs: Any) -> SwizzledSmemLayout:
        return self._with_layout(fn(self.layout, *args, **kwargs))

    def _compose_with(self, tiler: Any) -> SwizzledSmemLayout:
        return self._with_layout(composition(self.layout, tiler))

    # the algebra with this as an operand: CuTe's element view Sw' o 0 o layout (as_composed)
    def _composed_view(self) -> ComposedLayout:
        return self.as_composed()

    def compose(self, tiler: Any) -> SwizzledSmemLayout:
        """``composition(self, tiler)``: the tiler acts on the element layout; the pointer stays.

        >>> from pycute_layouts import parse
        >>> print(parse("Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)").compose((8, 16)))
        Sw<3,4,3> o smem_ptr[16b](unset) o (8,16):(64,1)
        """
        return self._compose_with(tiler)

    def _upcast(self, n: int) -> SwizzledSmemLayout:
        # CuTe: upcast<N> keeps the byte swizzle and makes the pointer N times wider.
        b = self.as_unit("bytes")
        return SwizzledSmemLayout(b.swizzle, upcast(self.layout, n), self.element_bits * n, "bytes", self.base_address)

    def _downcast(self, n: int) -> SwizzledSmemLayout:
        if isinstance(n, bool) or not isinstance(n, int) or n <= 0 or self.element_bits % n:
            raise UnitError(f"downcast<{n}> of {self}: {n} must be a positive divisor of the element width "
                            f"{self.element_bits}")
        b = self.as_unit("bytes")
        return SwizzledSmemLayout(b.swizzle, downcast(self.layout, n), self.element_bits // n, "bytes",
                                  self.base_address)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SwizzledSmemLayout):
            return NotImplemented
        return (self.swizzle, self.layout, self.element_bits, self.swizzle_unit, self.base_address) == (
            other.swizzle, other.layout, other.element_bits, other.swizzle_unit, other.base_address)

    def __hash__(self) -> int:
        return hash((self.swizzle, self.layout, self.element_bits, self.swizzle_unit, self.base_address))

    def __str__(self) -> str:
        """CuTe's smem-pointer form: ``Sw<B,M,S> o smem_ptr[Nb](unset) o L`` (the swizzle on bytes).

        The swizzle is printed on byte addresses whatever ``swizzle_unit`` is (the same placement);
        a base address prints as ``smem_ptr[Nb](0x400)``, base 0 as ``(unset)``. Only an element-unit
        XorSwizzle, which has no byte form, prints as ``f[elem] o L [Nb]``.

        >>> from pycute_layouts import Layout, Swizzle
        >>> print(SwizzledSmemLayout(Swizzle(3, 3, 3), Layout((8, 64), (64, 1)), 16, "elements"))
        Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)
        """
        if self.swizzle_unit == "elements" and not isinstance(self.swizzle, Swizzle):
            return f"{self.swizzle}[elem] o {self.layout} [{self.element_bits}b]"
        address = f"{self.base_address:#x}" if self.base_address else "unset"
        return f"{self.byte_swizzle()} o smem_ptr[{self.element_bits}b]({address}) o {self.layout}"

    def _repr_svg_(self) -> str | None:
        """IPython's display protocol: the picture (see :mod:`pycute_layouts.core.display`), or None for text."""
        return rich_repr(self, "svg")

    def __repr__(self) -> str:
        return (f"SwizzledSmemLayout({self.swizzle!r}, Layout('{self.layout}'), element_bits={self.element_bits}, "
                f"swizzle_unit={self.swizzle_unit!r}, base_address={self.base_address})")


# ------------------------------------------------------------------------------------------
# PTX's canonical layouts before the element width is known


class UnboundWidthSmemLayout(_InnerLayoutView):
    """CuTe's pointer form ``Sw<B,M,S> o smem_ptr[(128/T)b](unset) o L`` with the element width still a symbol.

    PTX's canonical layouts (wgmma/tcgen05 tables) put a byte-address swizzle next to a layout in
    elements of ``128 / T`` bits, ``T`` a symbol. Until ``T`` is bound the object cannot be
    evaluated (which unit the swizzle acts on depends on the width); binding ``T`` (``subs(T=8)``)
    or giving an element width (:func:`smem_layout_of`, :meth:`with_element_bits`) gives the
    :class:`SwizzledSmemLayout` with the same byte swizzle, so no path can read the byte swizzle on
    element offsets. ``ptx_text()`` is the PTX table's own text (``Sw<..> o L``, swizzle on bytes).

    >>> from pycute_layouts import Layout, Swizzle, parse
    >>> U = UnboundWidthSmemLayout(Swizzle(3, 4, 3), parse("((8,m),(T,2k)):((8T,SBO),(1,T))"))
    >>> print(U)
    Sw<3,4,3> o smem_ptr[(128/T)b](unset) o ((8,m),(T,2*k)):((8*T,SBO),(1,T))
    >>> print(U.subs(T=8, m=1, k=1, SBO=512))
    Sw<3,4,3> o smem_ptr[16b](unset) o ((8,1),(8,2)):((64,512),(1,8))
    >>> print(U.with_element_bits(32).subs(m=1, k=1, SBO=256).as_composed())
    Sw<3,2,3> o 0 o ((8,1),(4,2)):((32,256),(1,4))
    """

    __slots__ = ("swizzle", "layout")
    _layout_like = True  # rank/depth/size/shape (free functions) are those of the element layout

    def __init__(self, swizzle: Any, layout: Any):
        if not isinstance(swizzle, (Swizzle, XorSwizzle)):
            raise LayoutTypeError(f"UnboundWidthSmemLayout: swizzle must be a Swizzle or XorSwizzle, got {fmt(swizzle)}")
        if not isinstance(layout, Layout):
            raise LayoutTypeError(f"UnboundWidthSmemLayout: layout must be a Layout, got {fmt(layout)}")
        object.__setattr__(self, "swizzle", swizzle)
        object.__setattr__(self, "layout", layout)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("UnboundWidthSmemLayout is immutable")

    @property
    def outer(self) -> Any:
        """The byte-address swizzle (as for a ComposedLayout).

        >>> from pycute_layouts import Swizzle, parse
        >>> print(UnboundWidthSmemLayout(Swizzle(3, 4, 3), parse("(8,T):(T,1)")).outer)
        Sw<3,4,3>
        """
        return self.swizzle

    @property
    def inner(self) -> Layout:
        """The element layout (as for a ComposedLayout).

        >>> from pycute_layouts import Swizzle, parse
        >>> print(UnboundWidthSmemLayout(Swizzle(3, 4, 3), parse("(8,T):(T,1)")).inner)
        (8,T):(T,1)
        """
        return self.layout

    @property
    def offset(self) -> int:
        """0: the tile starts at the pointer.

        >>> from pycute_layouts import Swizzle, parse
        >>> UnboundWidthSmemLayout(Swizzle(3, 4, 3), parse("(8,T):(T,1)")).offset
        0
        """
        return 0

    def is_symbolic(self) -> bool:
        """True: the element width is the symbol T.

        >>> from pycute_layouts import Swizzle, parse
        >>> UnboundWidthSmemLayout(Swizzle(3, 4, 3), parse("(8,8):(8,1)")).is_symbolic()
        True
        """
        return True

    def __getitem__(self, i: int) -> UnboundWidthSmemLayout:
        """Mode ``i`` of the element layout, the same pointer (its width still 128/T bits)."""
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)):
            raise LayoutTypeError(f"UnboundWidthSmemLayout: a mode index is an int, got {fmt(i)}"[:200])
        return UnboundWidthSmemLayout(self.swizzle, self.layout[int(i)])

    def free_symbols(self) -> set:
        """The symbols of the element layout (T among them where it appears).

        >>> from pycute_layouts import Swizzle, parse
        >>> sorted(map(str, UnboundWidthSmemLayout(Swizzle(3, 4, 3), parse("(8,m):(T,1)")).free_symbols()))
        ['T', 'm']
        """
        return self.layout.free_symbols()

    def with_element_bits(self, element_bits: Any) -> SwizzledSmemLayout:
        """Bind the element width: ``T = 128 / element_bits`` (UnitError unless it divides 128).

        >>> from pycute_layouts import Swizzle, parse
        >>> print(UnboundWidthSmemLayout(Swizzle(1, 4, 3), parse("(8,T):(T,1)")).with_element_bits(16))
        Sw<1,4,3> o smem_ptr[16b](unset) o (8,8):(8,1)
        """
        bits = _as_bits(element_bits, "UnboundWidthSmemLayout.with_element_bits")
        if 128 % bits:
            raise UnitError(f"UnboundWidthSmemLayout.with_element_bits: T = 128 / element_bits needs a width dividing "
                            f"128, got {bits}")
        return self.subs(T=128 // bits)

    def subs(self, *args: Any, **kwargs: Any) -> Any:
        """Bind symbols; binding ``T`` gives the SwizzledSmemLayout of ``128 / T``-bit elements.

        >>> from pycute_layouts import Swizzle, parse
        >>> print(UnboundWidthSmemLayout(Swizzle(1, 4, 3), parse("(8,T):(T,1)")).subs(T=4))
        Sw<1,4,3> o smem_ptr[32b](unset) o (8,4):(4,1)
        """
        mapping = subs_mapping(args, kwargs)
        inner = self.layout.subs(mapping)
        t = [v for k, v in mapping.items() if str(k) == "T"]
        if not t:
            return UnboundWidthSmemLayout(self.swizzle, inner)
        v = t[-1]
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v <= 0 or 128 % int(v):
            raise UnitError(f"UnboundWidthSmemLayout.subs: T = 128 / element_bits must be a positive int dividing 128, "
                            f"got T={fmt(v)}")
        return SwizzledSmemLayout(self.swizzle, inner, 128 // int(v), "bytes")

    def ptx_text(self) -> str:
        """PTX's table text ``Sw<B,M,S> o 0 o L`` (the swizzle on byte addresses, PTX's convention; parsed
        with CuTe's rule that text swizzles element offsets, so it is for reading, not for pasting).

        >>> from pycute_layouts import Swizzle, parse
        >>> UnboundWidthSmemLayout(Swizzle(1, 4, 3), parse("(8,T):(T,1)")).ptx_text()
        'Sw<1,4,3> o 0 o (8,T):(T,1)'
        """
        return f"{self.swizzle} o 0 o {self.layout}"

    def __call__(self, *coord: Any, **kw: Any) -> Any:
        raise UnitError(f"{self}: the element width is 128/T bits with T unbound, so the byte swizzle cannot be "
                        "applied to element offsets; bind T first (.subs(T=8) for 16-bit elements)")

    def __eq__(self, other: object) -> bool:
        if isinstance(other, UnboundWidthSmemLayout):
            return (self.swizzle, self.layout) == (other.swizzle, other.layout)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(("UnboundWidthSmemLayout", self.swizzle, self.layout))

    def __str__(self) -> str:
        return f"{self.swizzle} o smem_ptr[(128/T)b](unset) o {self.layout}"

    def __repr__(self) -> str:
        return f"UnboundWidthSmemLayout({self.swizzle!r}, Layout('{self.layout}'))"


# ------------------------------------------------------------------------------------------
# CuTe's unit rule, in one place


def smem_layout_of(layout: Any, element_bits: Any, *, swizzle_unit: Any = "elements",
                   who: str = "smem_layout_of") -> SwizzledSmemLayout:
    """The shared-memory placement that a layout plus an element width names, by CuTe's unit rule.

    Pre:  ``layout`` is a Layout (no swizzle), a ComposedLayout ``Sw o k o L`` (``Sw`` a Swizzle or
          XorSwizzle, ``k`` a non-negative int, ``L`` a Layout in elements) or a SwizzledSmemLayout
          (CuTe's pointer form ``Sw o smem_ptr[Nb](..) o L``); ``element_bits`` a positive int (or None
          for a SwizzledSmemLayout, which carries its own).
    Post: a SwizzledSmemLayout placing the same elements. ``Sw o k o L`` swizzles the layout's own
          units, element offsets (``swizzle_unit="elements"``, the default, CuTe's meaning:
          ``Sw<3,3,3> o 0 o L`` on 16-bit elements is the 128B atom); only ``swizzle_unit="bytes"``
          selects PTX's reading of the same string (the swizzle on byte addresses). A
          SwizzledSmemLayout says its unit itself, so ``swizzle_unit`` does not apply to it.

    Every path of the library that reads a layout with an element width (bank conflicts, explain,
    linear layouts, descriptors, TMA plans, codegen, proofs) goes through this function, so one
    string means one thing everywhere. Raises UnitError (bad width, an offset off a byte, a
    contradicting width), LayoutTypeError or LayoutValueError; ``who`` prefixes the message.

    >>> from pycute_layouts import parse
    >>> S = smem_layout_of(parse("Sw<3,3,3> o 0 o (8,64):(64,1)"), 16)
    >>> print(S)
    Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)
    >>> S.byte_address(1, 0)
    144
    >>> print(smem_layout_of(parse("Sw<3,4,3> o 0 o (8,64):(64,1)"), 16, swizzle_unit="bytes").element_swizzle())
    Sw<3,3,3>
    """
    check_swizzle_unit(swizzle_unit, who)
    if isinstance(layout, UnboundWidthSmemLayout):
        if element_bits is None:
            raise UnitError(f"{who}: {layout} holds elements of 128/T bits with T unbound; pass the element width "
                            "or bind T (.subs(T=8) for 16-bit elements)")
        return layout.with_element_bits(_as_bits(element_bits, who))
    if isinstance(layout, SwizzledSmemLayout):
        if element_bits is not None and _as_bits(element_bits, who) != layout.element_bits:
            raise UnitError(f"{who}: the layout {layout} holds {layout.element_bits}-bit elements but "
                            f"element_bits={element_bits} was passed")
        return layout
    bits = _as_bits(element_bits, who)
    if isinstance(layout, Layout):
        require_offsets(layout, who)
        return SwizzledSmemLayout(Swizzle(0, 4, 3), layout, bits)
    if not isinstance(layout, ComposedLayout):
        raise LayoutTypeError(f"{who}: expected a Layout, a ComposedLayout 'Sw<B,M,S> o k o L' or a "
                              f"SwizzledSmemLayout, got {type(layout).__name__}")
    return _composed_smem(layout, bits, swizzle_unit, who)


def _composed_smem(layout: ComposedLayout, bits: int, swizzle_unit: str, who: str) -> SwizzledSmemLayout:
    # Pre:  layout 'Sw o k o L'; bits a checked element width; swizzle_unit checked.
    # Post: the SwizzledSmemLayout at byte k * bits / 8 whose swizzle acts on element offsets (CuTe's meaning),
    #       or on bytes for swizzle_unit="bytes" or an identity swizzle; otherwise LayoutTypeError,
    #       LayoutValueError or UnitError.
    outer, inner, off = layout.outer, layout.inner, layout.offset
    if not isinstance(outer, (Swizzle, XorSwizzle)) or not isinstance(inner, Layout):
        raise LayoutTypeError(f"{who}: with an element width, a ComposedLayout must be 'Swizzle o offset o Layout', "
                              f"got {layout}")
    require_offsets(inner, who)
    if isinstance(off, bool) or not isinstance(off, (int, np.integer)) or off < 0:
        raise LayoutValueError(f"{who}: the offset of {layout} must be a non-negative int, got {off}")
    off = int(off)
    if (off * bits) % 8:
        raise UnitError(f"{who}: offset {off} elements of {bits} bits in {layout} does not start on a byte")
    if swizzle_unit == "bytes" or outer.is_identity():
        return SwizzledSmemLayout(outer, inner, bits, "bytes", base_address=off * bits // 8)
    if bits % 8:
        raise UnitError(f"{who}: {layout} swizzles element offsets (CuTe's meaning) but {bits}-bit elements are "
                        f"not whole bytes; write the byte swizzle in pointer form '{outer} o smem_ptr[{bits}b](unset) "
                        f"o {inner}' (or pass swizzle_unit='bytes')")
    return SwizzledSmemLayout(outer, inner, bits, "elements", base_address=off * bits // 8)


def check_swizzle_unit(swizzle_unit: Any, who: str = "check_swizzle_unit") -> str:
    """``swizzle_unit`` if it is one of :data:`SWIZZLE_UNITS`, else UnitError naming both choices.

    >>> check_swizzle_unit("bytes")
    'bytes'
    >>> check_swizzle_unit("byte")
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.UnitError: check_swizzle_unit: swizzle_unit must be 'elements' (CuTe's meaning of ...
    """
    if type(who) is not str:
        check_type("check_swizzle_unit", "who", who, str)
    if not isinstance(swizzle_unit, str) or swizzle_unit not in SWIZZLE_UNITS:
        raise UnitError(f"{who}: swizzle_unit must be 'elements' (CuTe's meaning of Sw o k o L, the default) or "
                        f"'bytes' (PTX's byte-address reading), got {fmt(swizzle_unit)}"[:300])
    return swizzle_unit


def _as_bits(element_bits: Any, who: str) -> int:
    if isinstance(element_bits, (bool, np.bool_)) or not isinstance(element_bits, (int, np.integer)) \
            or not 0 < element_bits <= MAX_ELEMENT_BITS:
        raise UnitError(f"{who}: element_bits must be a positive int, got {fmt(element_bits)} "
                        f"(at most MAX_ELEMENT_BITS = {MAX_ELEMENT_BITS})")
    return int(element_bits)


def swizzle_forms(byte_swizzle: Any, element_bits: Any, layout: Any = "L") -> str:
    """Both CuTe spellings of a byte-address swizzle for ``element_bits``-bit elements, in one phrase.

    Pre: ``byte_swizzle`` is a Swizzle or XorSwizzle on byte addresses; ``element_bits`` a positive int.
    Post: ``"<pointer form> = <element-unit form> on N-bit elements"``; either can be pasted into CuTe
    and means the same placement. Where no element-unit swizzle is equivalent (it would split an
    element), only the pointer form and the reason. ``layout`` is the text printed for the layout.

    >>> from pycute_layouts import Swizzle
    >>> swizzle_forms(Swizzle(3, 4, 3), 16)
    'Sw<3,4,3> o smem_ptr[16b](unset) o L = Sw<3,3,3> o 0 o L on 16-bit elements'
    >>> swizzle_forms(Swizzle(1, 4, 3), 256)
    'Sw<1,4,3> o smem_ptr[256b](unset) o L (no element-offset form: it splits 256-bit elements)'
    """
    if not isinstance(byte_swizzle, (Swizzle, XorSwizzle)):
        raise LayoutTypeError(f"swizzle_forms: expected a Swizzle or XorSwizzle, got {fmt(byte_swizzle)}")
    bits = _as_bits(element_bits, "swizzle_forms")
    layout = fmt(layout, True)  # the text printed for the layout: any value, shown safely (CuTe notation for a Layout)
    ptr = f"{byte_swizzle} o smem_ptr[{bits}b](unset) o {layout}"
    try:
        if isinstance(byte_swizzle, XorSwizzle):
            k = _log2_exact(_element_bytes(bits, "swizzle_forms"), "swizzle_forms")
            if any(a < k or b < k for a, b in byte_swizzle.pairs):
                raise UnitError("splits an element")
            el = XorSwizzle([(a - k, b - k) for a, b in byte_swizzle.pairs])
        else:
            el = byte_to_element_swizzle(byte_swizzle, bits)
    except UnitError:
        return f"{ptr} (no element-offset form: it splits {bits}-bit elements)"
    return f"{ptr} = {el} o 0 o {layout} on {bits}-bit elements"


def element_unit_note(layout: Any, element_bits: Any, verdict: str = "", is_atom: Any = None) -> str:
    """Why an element-unit ``Sw o k o L`` is not the atom its author may have meant, naming both forms.

    Pre: ``layout`` is a ComposedLayout whose outer function is a Swizzle or XorSwizzle (read by CuTe's
    rule on ``element_bits``-bit element offsets). Post: one sentence: what the swizzle is on byte
    addresses, and how to write the string's swizzle on byte addresses (the pointer form, its
    element-unit equivalent, or ``swizzle_unit='bytes'``); ``verdict`` (e.g. "which is no swizzle
    atom") follows the byte form. ``is_atom`` (a predicate on byte swizzles; a LayoutError counts as
    False) lets the note say when the written swizzle is no atom on byte addresses either, and name
    the atom with as many XOR bits instead. Used by every refusal of a non-atom.

    >>> from pycute_layouts import parse
    >>> print(element_unit_note(parse("Sw<3,4,3> o 0 o (8,64):(64,1)"), 16))
    Sw<3,4,3> o 0 o L on 16-bit elements swizzles element offsets (CuTe's meaning): on byte addresses that is \
Sw<3,5,3> o smem_ptr[16b](unset) o L; if Sw<3,4,3> was meant on byte addresses, write \
Sw<3,4,3> o smem_ptr[16b](unset) o L = Sw<3,3,3> o 0 o L on 16-bit elements (or pass swizzle_unit='bytes')
    """
    if not isinstance(layout, ComposedLayout) or not isinstance(layout.outer, (Swizzle, XorSwizzle)):
        raise LayoutTypeError(f"element_unit_note: expected 'Swizzle o k o Layout', got {fmt(layout)}"[:300])
    sw = layout.outer
    bits = _as_bits(element_bits, "element_unit_note")
    head = f"{sw} o {_fmt_offset(layout.offset)} o L on {bits}-bit elements swizzles element offsets (CuTe's meaning)"
    try:
        as_bytes = f": on byte addresses that is {element_to_byte_swizzle(sw, bits)} o smem_ptr[{bits}b](unset) o L"
    except LayoutError:
        as_bytes = f": {bits}-bit elements have no byte-address form of it"
    if verdict:
        as_bytes += f", {verdict}"
    if is_atom is not None and isinstance(sw, Swizzle) and not _holds(is_atom, sw):
        # the same swizzle on byte addresses is no atom either: name the atom with as many XOR bits
        near = Swizzle(sw.bits, 4, 3)
        tail = (f"; the atom with {sw.bits} XOR bit(s) is {swizzle_forms(near, bits)}" if _holds(is_atom, near) else "")
        return f"{head}{as_bytes}; nor is {sw} on byte addresses{tail}"
    return (f"{head}{as_bytes}; if {sw} was meant on byte addresses, write {swizzle_forms(sw, bits)} "
            "(or pass swizzle_unit='bytes')")


def _holds(pred: Any, sw: Any) -> bool:
    """pred(sw), where a LayoutError counts as False (the callers' atom tests raise for a non-atom)."""
    try:
        return bool(pred(sw))
    except LayoutError:
        return False
# the algebra through swizzled operands (CuTe's swizzle_layout.hpp, layout_composed.hpp)
#
# Every result is checked against its law on its whole domain (within MAX_EVAL_POINTS): CuTe's
# constructions hold "in simple cases" (its comment at composition(Layout, Swizzle)); where one does
# not hold, AdmissibilityError names the first index that breaks it.


def _int_layout_of(x: Any, who: str) -> Layout:
    if not isinstance(x, Layout):
        raise LayoutTypeError(f"{who}: expected a Layout, got {fmt(x)}"[:200])
    if x.is_symbolic() or x.int_flat_modes() is None:
        raise LayoutTypeError(f"{who}: {x} needs integer shapes and strides (a swizzle acts on the bits of numbers)")
    return x


def _xor_pairs(sw: Any, who: str) -> tuple:
    check_type(who, "the swizzle", sw, (Swizzle, XorSwizzle))
    xs = sw.to_xor() if isinstance(sw, Swizzle) else sw
    pairs = xs.pairs
    if XorSwizzle(pairs) != xs:
        raise SwizzleError(f"{who}: {sw} is not the identity plus XOR pairs; only such swizzles pass through a layout")
    return pairs


def _as_swizzle(pairs: list) -> Any:
    xs = XorSwizzle(pairs)
    try:
        return xs.to_swizzle()
    except SwizzleError:
        return xs


def _check_law(who: str, n: Any, got: Any, want: Any, what: str) -> None:
    """AdmissibilityError naming the first index i < n where got(i) != want(i) (both vectorised)."""
    check_budget(who, what, n, MAX_EVAL_POINTS)
    idx = np.arange(n, dtype=np.int64)
    g, w = np.asarray(got(idx)), np.asarray(want(idx))
    bad = np.nonzero(g != w)[0]
    if bad.size:
        i = int(bad[0])
        raise AdmissibilityError(f"{who}: {what} fails at i = {i} ({int(g[i])} != {int(w[i])}); CuTe's construction holds "
                                 "only where the swizzle passes through the layout bit by bit")


def swizzle_through(a: Layout, sw: Any) -> Any:
    """The swizzle ``sw'`` on ``a``'s offsets with ``sw'(a(i)) == a(sw(i))`` for every ``i < size(a)``.

    CuTe's ``composition(Layout a, Swizzle sw)`` = ``make_swizzle<a(yyy_msk), a(zzz_msk)>() o a``:
    each XOR pair (bit y -> bit z) of ``sw`` becomes (bit of a(2^y) -> bit of a(2^z)).

    Pre:  a has integer shapes and strides; a(2^y), a(2^z) are single bits (or a(2^z) == 0).
    Post: sw'(a(i)) == a(sw(i)) for every i < size(a); a Swizzle where one is equal, else an XorSwizzle.
    Otherwise AdmissibilityError.

    >>> print(swizzle_through(Layout((8, 8), (8, 1)), Swizzle(3, 0, 3)))
    Sw<3,0,-3>
    """
    a = _int_layout_of(a, "composition(Layout, Swizzle)")
    new: list = []
    for y, z in _xor_pairs(sw, "composition(Layout, Swizzle)"):
        ay, az = a(1 << y), a(1 << z)
        if az == 0:
            continue  # XOR into a bit that a does not see: no effect
        for v, b in ((ay, y), (az, z)):
            if v <= 0 or v & (v - 1):
                raise AdmissibilityError(f"composition({a}, {sw}): a(2^{b}) = {v} is not a single bit, so the "
                                         "swizzle does not pass through the layout (CuTe's make_swizzle needs it)")
        new.append((ay.bit_length() - 1, az.bit_length() - 1))
    out = _as_swizzle(new)
    _check_law(f"composition({a}, {sw})", a.size(), lambda i: out(a(i)), lambda i: a(sw(i)), "sw'(a(i)) == a(sw(i))")
    return out


def _compose_layout_swizzle(a: Any, sw: Any) -> Any:
    """composition(a, sw) for a Swizzle sw: ``sw' o 0 o a`` (identity swizzles give a itself, as CuTe)."""
    if isinstance(a, (ComposedLayout, SwizzledSmemLayout)):
        return a._compose_with(sw)
    if isinstance(a, tuple):
        raise LayoutTypeError(f"composition: a tuple of tilers cannot be composed with {sw}")
    a = _int_layout_of(a if isinstance(a, Layout) else Layout(it.as_inttuple(a, "composition")), "composition")
    out = swizzle_through(a, sw)
    return a if out.is_identity() else ComposedLayout(out, 0, a)


def _compose_swizzle_layout(sw: Any, b: Any) -> Any:
    """composition(sw, b): CuTe's ``Sw o 0 o b`` (b a layout; identity swizzles give b)."""
    if isinstance(b, ComposedLayout):
        if b.offset != 0 or not isinstance(b.outer, (Swizzle, XorSwizzle)):
            return ComposedLayout(sw, 0, b)
        fused = sw.compose(b.outer)
        return ComposedLayout(_as_swizzle(list(fused.pairs)), 0, b.inner) if not fused.is_identity() else b.inner
    if not isinstance(b, Layout):
        raise LayoutTypeError(f"composition({sw}, b): b must be a Layout or a ComposedLayout, got {fmt(b)}"[:200])
    return b if sw.is_identity() else ComposedLayout(sw, 0, b)


def _compose_with_composed(a: Any, b: Any) -> Any:
    """composition(a, b) for a ComposedLayout b = outer o off o inner: ``(a o outer) o off o inner``.

    CuTe requires off == 0 and gives composition(composition(a, outer), inner); a nonzero offset keeps
    the composed form; where the swizzle does not pass through ``a`` (CuTe: a static_assert), the
    result is ``a o 0 o b`` itself. The result is checked: R(i) == a(b(i)) for every i < size(b).
    """
    outer = b.outer
    try:  # CuTe's composition(a, outer) first: its swizzle where CuTe answers
        a_outer = a if outer.is_identity() else composition(a, outer)
    except AdmissibilityError:
        if not isinstance(a, Layout):
            raise
        a_outer = None
    if a_outer is None and isinstance(outer, (Swizzle, XorSwizzle)) and not b.is_symbolic():
        outer = _restrict_swizzle(outer, b)  # only the XOR pairs whose source bits b's points can set
        try:
            a_outer = a if outer.is_identity() else composition(a, outer)
        except AdmissibilityError:
            a_outer = None  # the swizzle does not pass through a: keep a outside, a o (sw o k o L) as it is
    if a_outer is None:
        r = ComposedLayout(a, 0, b)
    elif b.offset == 0:
        r = composition(a_outer, b.inner)
    else:
        r = ComposedLayout(a_outer, b.offset, b.inner)
    if isinstance(a, Layout) and not a.is_symbolic() and not b.is_symbolic():
        _check_law(f"composition({a}, {b})", b.size(), lambda i: _eval(r, i), lambda i: a(_eval(b, i)),
                   "composition(a, b)(i) == a(b(i))")
    return r


def _restrict_swizzle(sw: Any, b: ComposedLayout) -> Any:
    """``sw`` with only the XOR pairs whose source bit some ``b.offset + b.inner(i)`` sets: equal on b's points."""
    check_budget("composition", f"{b}", b.size(), MAX_EVAL_POINTS)
    vals = _eval(b.inner, np.arange(b.size(), dtype=np.int64)) + b.offset
    if vals.size and vals.min() < 0:
        return sw
    mask = int(np.bitwise_or.reduce(vals)) if vals.size else 0
    pairs = [(src, dst) for src, dst in _xor_pairs(sw, "composition") if mask >> src & 1]
    return _as_swizzle(pairs)


def _inverse_of_composed(c: ComposedLayout, which: str) -> Any:
    """right_inverse / left_inverse of ``outer o off o inner`` (CuTe's swizzle_layout.hpp for off == 0).

    right: inv(inner) o inv(outer); left likewise. A swizzle's inverse is itself (an XorSwizzle's is
    its matrix inverse); a nonzero offset has no composed form here (LayoutValueError).
    """
    from_inner = right_inverse if which == "right" else left_inverse
    if c.offset != 0:
        raise LayoutValueError(f"{which}_inverse({c}): the offset {c.offset} is not 0; the inverse would apply the "
                               "swizzle before a layout with an offset, which a ComposedLayout cannot hold")
    inv_inner = from_inner(c.inner)
    outer = c.outer
    if isinstance(outer, (Swizzle, XorSwizzle)):
        inv_outer = outer.inverse()
    else:
        inv_outer = from_inner(outer)
    r = composition(inv_inner, inv_outer)
    if which == "right":
        _check_law(f"right_inverse({c})", r.size(), lambda i: _eval(c, _eval(r, i)), lambda i: i, "L(R(i)) == i")
    else:
        _check_law(f"left_inverse({c})", c.size(), lambda i: _eval(r, _eval(c, i)), lambda i: i, "R(L(i)) == i")
    return r


def _eval(f: Any, x: np.ndarray) -> np.ndarray:
    """``f`` (a Layout or ComposedLayout) at the integer points ``x``."""
    if isinstance(f, Layout):
        return np.asarray(f(x))
    return f._apply_outer(np.asarray(_eval(f.inner, x)) + f.offset)


def _low_bit_limit(sw: Any) -> int:
    """``2^k`` for the lowest bit a swizzle reads or writes: runs below it pass unchanged (CuTe's ``1 << M``)."""
    pairs = _xor_pairs(sw, "max_common_vector")
    if not pairs:
        return 1 << 62
    return 1 << min(min(p) for p in pairs)


def _span(sw: Any) -> int:
    pairs = _xor_pairs(sw, "max_common_vector")
    return 1 << (max(max(p) for p in pairs) + 1) if pairs else 1


def _alignment(off: Any) -> int:
    return (off & -off) if type(off) is int and off else 1 << 62


def _swizzled_common(c: ComposedLayout, other: Any) -> tuple:
    """(plain layout of c, plain layout of other, the limit on the common vector) -- CuTe's rules:
    a swizzled operand limits the vector to 2^M (the swizzle's lowest bit) and, here, to the offset's
    alignment; two equal swizzles at equal offsets that close on the vector do not limit it."""
    if not isinstance(c.outer, (Swizzle, XorSwizzle)):
        raise LayoutTypeError(f"max_common_vector: {c} has a layout as its outer function; only swizzled layouts "
                              "(CuTe's ComposedLayout<Swizzle, ...>) are supported")
    other = other.as_composed() if isinstance(other, SwizzledSmemLayout) else other
    limit = min(_low_bit_limit(c.outer), _alignment(c.offset))
    if isinstance(other, ComposedLayout):
        if not isinstance(other.outer, (Swizzle, XorSwizzle)):
            raise LayoutTypeError(f"max_common_vector: {other} has a layout as its outer function")
        same = XorSwizzle(_xor_pairs(c.outer, "max_common_vector")) == XorSwizzle(
            _xor_pairs(other.outer, "max_common_vector")) and c.offset == other.offset == 0
        if same:
            return c.inner, other.inner, None, _span(c.outer)
        limit = min(limit, _low_bit_limit(other.outer), _alignment(other.offset))
        return c.inner, other.inner, limit, None
    if not isinstance(other, Layout):
        raise LayoutTypeError(f"max_common_vector: expected a layout, got {fmt(other)}"[:200])
    return c.inner, other, limit, None


def _composed_max_common_vector(c: ComposedLayout, other: Any) -> int:
    """max_common_vector of a swizzled layout and a layout (or another swizzled one), as CuTe.

    >>> from pycute_layouts import Layout, Swizzle
    >>> _composed_max_common_vector(ComposedLayout(Swizzle(3, 3, 3), 0, Layout((8, 64), (64, 1))),
    ...                             Layout((8, 64), (64, 1)))
    8
    """
    a, b, limit, span = _swizzled_common(c, other)
    vec = max_common_vector(a, b)
    if span is not None:  # equal swizzles cancel where the vector is whole periods of the swizzle (or below it)
        low = _low_bit_limit(c.outer)
        return vec if vec % span == 0 or vec <= low else min(vec, low)
    return min(vec, limit)


def _composed_max_common_layout(c: ComposedLayout, other: Any) -> Layout:
    """max_common_layout of a swizzled layout and a layout: the common layout truncated to the vector CuTe allows.

    >>> from pycute_layouts import Layout, Swizzle
    >>> print(_composed_max_common_layout(ComposedLayout(Swizzle(3, 3, 3), 0, Layout((8, 64), (64, 1))),
    ...                                   Layout((8, 64), (64, 1))))
    8:8
    """
    a, b, limit, span = _swizzled_common(c, other)
    common = max_common_layout(a, b)
    n = _composed_max_common_vector(c, other)
    if common.size() > n:
        common = composition(common, Layout(n, 1))
    return common


for _kind in (Swizzle, XorSwizzle):
    register_composition_operand(_kind, lhs=_compose_swizzle_layout, rhs=_compose_layout_swizzle)
