"""Layouts as F2-linear maps: Triton's LinearLayout basis-vector form, to and from CuTe layouts.

A function ``L`` from bit vectors to bit vectors is *linear over F2* (GF(2), the field of bits
with XOR as addition) when ``L(x XOR y) = L(x) XOR L(y)``. Such a function is fixed by its
values on the powers of two, the *bases*: ``L(x) = XOR of L(2**i) over the set bits i of x``.
Triton's ``LinearLayout`` (``triton/include/triton/Tools/LinearLayout.h``) is exactly this, with
named input and output dimensions::

    bases[in_dim][i] = L(in_dim = 2**i, every other input 0)     one tuple, one int per out dim

Correspondence with CuTe:

* A CuTe ``Layout`` is ``c -> sum(c_i * d_i)``. With power-of-two shapes, coordinate bit ``j``
  of a mode of stride ``d`` contributes ``2**j * d``; the map is F2-linear exactly when these
  contributions never share a bit (then ``+`` never carries and equals XOR). So
  ``(8,4):(4,1)`` is linear, ``(4,2):(1,3)`` is not (``1 + 3 = 4`` but ``1 XOR 3 = 2``), and
  a shape 3 is not even a bit vector.
* A ``Swizzle<B,M,S>`` or :class:`~pycute_layouts.core.swizzle.XorSwizzle` is F2-linear by
  construction, so ``Swizzle o 0 o Layout`` is linear when the layout is. A non-zero offset
  makes the map affine (``f(0) != 0``), which Triton's form cannot express.
* Each top-level mode becomes one input dimension (``mode0``, ``mode1``, ...; one flattened
  dimension with ``in_dims="name"``); the result is one output dimension, ``offset``.
* Back (:func:`from_linear_layout`): bases with pairwise disjoint bits are a plain Layout
  (each bit a shape-2 leaf with the basis as stride, then merged). Otherwise, linearly
  independent bases are factored as ``X o L``: ``L`` sends each basis bit to one *pivot* bit of
  its image (the leading bit when those are distinct, else the lowest, else Gaussian pivots) and
  ``X`` is the invertible XOR map from the pivot bits to the images, printed as a single
  ``Swizzle<B,M,S>`` when it is one.

Composition follows Triton: ``a.compose(b)`` is ``b(a(x))`` (a's output dims are b's input dims).

>>> from pycute_layouts import parse
>>> ll = to_linear_layout(parse("Sw<3,3,3> o 0 o (8,64):(64,1)"))
>>> ll.bases["mode0"], ll.bases["mode1"][:4]
((72, 144, 288), (1, 2, 4, 8))
>>> print(from_linear_layout(ll))
Sw<3,3,3> o 0 o (8,64):(64,1)
>>> to_linear_layout(parse("(4,2):(1,3)"))
Traceback (most recent call last):
...
pycute_layouts.errors.AdmissibilityError: to_linear_layout: (4,2):(1,3) is not F2-linear: ...
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..core.composed import ComposedLayout, SwizzledSmemLayout, check_swizzle_unit, smem_layout_of
from ..core.f2 import F2
from ..core.inttuple import flatten
from ..core.layout import Layout, require_offsets
from ..core.swizzle import Swizzle, XorSwizzle
from ..errors import AdmissibilityError, LayoutError, LayoutTypeError, LayoutValueError, UnitError
from ..limits import check_sequence, fmt

__all__ = ["LinearLayout", "to_linear_layout", "from_linear_layout"]


def _log2_exact(n: int) -> int | None:
    if n <= 0 or n & (n - 1):
        return None
    return n.bit_length() - 1


def _is_int(x: Any) -> bool:
    return not isinstance(x, bool) and isinstance(x, (int, np.integer))


class LinearLayout:
    """An F2-linear map between named, power-of-two-sized dimensions (Triton's LinearLayout).

    ``bases`` maps each input dimension name to its list of basis images, one per input bit:
    entry ``i`` is the output for input ``2**i`` (a tuple with one int per output dimension, or
    a bare int when there is one). ``out_dims`` is a list of names (sizes inferred: the smallest
    power of two above every basis) or of ``(name, size)`` pairs. Call it with one int per input
    dimension (positionally, in order, or by name); the value is the XOR of the bases of the set
    bits (an int for one output dimension, else a tuple).

    >>> ll = LinearLayout({"t": [1, 2], "w": [4, 3]}, ["x"])
    >>> ll(1, 1), ll(t=3, w=2), ll.out_dims
    (5, 0, (('x', 8),))
    >>> print(ll)
    LinearLayout t (4), w (4) -> x (8)
      t: 1 -> 1, 2 -> 2
      w: 1 -> 4, 2 -> 3
    """

    __slots__ = ("_in", "_out")

    def __init__(self, bases: Any, out_dims: Any):
        who = "LinearLayout"
        if isinstance(bases, Mapping):
            items = check_sequence(who, "bases", bases.items())
        else:
            items = check_sequence(who, "bases (a mapping in_dim -> list of basis images)", bases)
        for pair in items:
            if not isinstance(pair, (tuple, list)) or len(pair) != 2:
                raise LayoutTypeError(f"{who}: bases must be a mapping in_dim -> list of basis images, got the item "
                                      f"{fmt(pair)}")
        out_dims = check_sequence(who, "out_dims (a list of names or (name, size) pairs)", out_dims)
        names: list[str] = []
        sizes: list[int | None] = []
        for od in out_dims:
            if isinstance(od, str):
                names.append(od)
                sizes.append(None)
            elif isinstance(od, (tuple, list)) and len(od) == 2 and isinstance(od[0], str) and _is_int(od[1]):
                if _log2_exact(int(od[1])) is None:
                    raise LayoutValueError(f"{who}: output dimension {fmt(od[0])} has size {od[1]}, not a power of two")
                names.append(od[0])
                sizes.append(int(od[1]))
            else:
                raise LayoutTypeError(f"{who}: each output dimension is a name or a (name, size) pair, got {fmt(od)}")
        if len(set(names)) != len(names):
            raise LayoutValueError(f"{who}: output dimension names must be distinct, got {names}")
        nout = len(names)
        ins: list[tuple[str, tuple[tuple[int, ...], ...]]] = []
        for name, blist in items:
            if not isinstance(name, str):
                raise LayoutTypeError(f"{who}: input dimension names must be strings, got {fmt(name)}")
            row = []
            for i, b in enumerate(check_sequence(who, f"the bases of {fmt(name)}", blist)):
                vec = (b,) if _is_int(b) else tuple(b) if isinstance(b, (tuple, list)) else None
                if vec is None or len(vec) != nout or not all(_is_int(v) and v >= 0 for v in vec):
                    raise LayoutValueError(f"{who}: basis {name}[{i}] = {fmt(b)} must be {nout} non-negative int(s), "
                                           f"one per output dimension {names}")
                row.append(tuple(int(v) for v in vec))
            ins.append((name, tuple(row)))
        if len({n for n, _ in ins}) != len(ins):
            raise LayoutValueError(f"{who}: input dimension names must be distinct, got {[n for n, _ in ins]}")
        outs = []
        for k, (name, size) in enumerate(zip(names, sizes)):
            top = 0
            for _, row in ins:
                for vec in row:
                    top |= vec[k]
            need = 1 << top.bit_length()
            if size is None:
                size = need
            elif size < need:
                raise LayoutValueError(f"{who}: output dimension {fmt(name)} has size {size} but a basis reaches "
                                       f"{top} (needs size >= {need})")
            outs.append((name, size))
        self._in = tuple(ins)
        self._out = tuple(outs)

    # -- structure -------------------------------------------------------------------------
    @property
    def in_dims(self) -> tuple[tuple[str, int], ...]:
        """``(name, size)`` of each input dimension, in order (sizes are ``2 ** number of bases``).

        >>> LinearLayout({"lane": [1, 2, 4]}, ["x"]).in_dims
        (('lane', 8),)
        """
        return tuple((n, 1 << len(row)) for n, row in self._in)

    @property
    def out_dims(self) -> tuple[tuple[str, int], ...]:
        """``(name, size)`` of each output dimension.

        >>> LinearLayout({"i": [(1, 0), (0, 1)]}, [("x", 4), "y"]).out_dims
        (('x', 4), ('y', 2))
        """
        return self._out

    @property
    def bases(self) -> dict[str, tuple[Any, ...]]:
        """``in_dim -> basis images`` (bare ints when there is one output dimension).

        >>> LinearLayout({"i": [2, 1]}, ["x"]).bases
        {'i': (2, 1)}
        """
        one = len(self._out) == 1
        return {n: tuple(v[0] if one else v for v in row) for n, row in self._in}

    def _in_bits(self) -> int:
        return sum(len(row) for _, row in self._in)

    def _out_offsets(self) -> list[int]:
        offs, acc = [], 0
        for _, size in self._out:
            offs.append(acc)
            acc += size.bit_length() - 1
        return offs

    def _out_bits(self) -> int:
        return sum(size.bit_length() - 1 for _, size in self._out)

    def _columns(self) -> list[int]:
        """Each input bit's image as one flat int (output dims concatenated, the first the least significant)."""
        offs = self._out_offsets()
        return [sum(v << o for v, o in zip(vec, offs)) for _, row in self._in for vec in row]

    def _unflatten_out(self, flat: int) -> tuple[int, ...]:
        return tuple((flat >> o) & (size - 1) for o, (_, size) in zip(self._out_offsets(), self._out))

    def matrix(self) -> list[list[int]]:
        """The 0/1 matrix (output bits x input bits) over F2; output dims stacked, the first the low bits.

        >>> LinearLayout({"i": [1, 3]}, ["x"]).matrix()
        [[1, 1], [0, 1]]
        """
        cols = self._columns()
        return [[(c >> r) & 1 for c in cols] for r in range(self._out_bits())]

    def rank(self) -> int:
        """Rank of the map over F2 (dimension of its image).

        >>> LinearLayout({"i": [1, 1, 2]}, ["x"]).rank()
        2
        """
        return _f2_rank(self._columns())

    def is_injective(self) -> bool:
        """True when distinct inputs give distinct outputs (no zero or dependent bases).

        >>> LinearLayout({"i": [1, 0]}, ["x"]).is_injective()
        False
        """
        return self.rank() == self._in_bits()

    def is_surjective(self) -> bool:
        """True when every output in the output dims' ranges is reached.

        >>> LinearLayout({"i": [1, 4]}, ["x"]).is_surjective()
        False
        """
        return self.rank() == self._out_bits()

    def is_invertible(self) -> bool:
        """True for a bijection (injective and surjective).

        >>> LinearLayout({"i": [2, 1]}, ["x"]).is_invertible()
        True
        """
        return self.is_injective() and self.is_surjective()

    # -- evaluation ------------------------------------------------------------------------
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        who = "LinearLayout"
        names = [n for n, _ in self._in]
        if args and kwargs:
            raise LayoutTypeError(f"{who}: pass the inputs positionally or by name, not both")
        if kwargs:
            unknown = set(kwargs) - set(names)
            if unknown:
                raise LayoutValueError(f"{who}: unknown input dimension(s) {sorted(unknown)}; inputs are {names}")
            vals = [kwargs.get(n, 0) for n in names]
        else:
            if len(args) != len(names):
                raise LayoutValueError(f"{who}: expected {len(names)} input(s) {names}, got {len(args)}")
            vals = list(args)
        acc = [0] * len(self._out)
        for (name, row), v in zip(self._in, vals):
            if not _is_int(v) or not 0 <= int(v) < (1 << len(row)):
                raise LayoutValueError(f"{who}: input {name}={fmt(v)} must be an int in [0, {1 << len(row)})")
            v = int(v)
            for i, vec in enumerate(row):
                if (v >> i) & 1:
                    acc = [a ^ b for a, b in zip(acc, vec)]
        return acc[0] if len(acc) == 1 else tuple(acc)

    # -- algebra ---------------------------------------------------------------------------
    def compose(self, outer: LinearLayout) -> LinearLayout:
        """``outer(self(x))`` (Triton's ``compose``): self's output dims must be outer's input dims.

        Each output dim of ``self`` must fit the same-named input dim of ``outer``.

        >>> a = LinearLayout({"i": [1, 2]}, ["j"]); b = LinearLayout({"j": [2, 1]}, ["k"])
        >>> a.compose(b).bases
        {'i': (2, 1)}
        """
        if not isinstance(outer, LinearLayout):
            raise LayoutTypeError(f"LinearLayout.compose: expected a LinearLayout, got {type(outer).__name__}")
        mine = dict(self._out)
        theirs = dict(outer.in_dims)
        if set(mine) != set(theirs):
            raise AdmissibilityError(f"LinearLayout.compose: the output dims {sorted(mine)} of the inner layout must "
                                     f"be the input dims {sorted(theirs)} of the outer one")
        for n, size in mine.items():
            if size > theirs[n]:
                raise AdmissibilityError(f"LinearLayout.compose: output dim {fmt(n)} has size {size} but the outer "
                                         f"layout's input dim {fmt(n)} only has size {theirs[n]}")
        out_names = [n for n, _ in self._out]
        new = []
        for name, row in self._in:
            imgs = []
            for vec in row:
                r = outer(**dict(zip(out_names, vec)))
                imgs.append(r if isinstance(r, tuple) else (r,))
            new.append((name, imgs))
        return LinearLayout(new, list(outer.out_dims))

    def invert(self) -> LinearLayout:
        """The inverse map (input and output dims swap); AdmissibilityError unless it is a bijection.

        >>> ll = LinearLayout({"i": [2, 1, 4]}, ["x"])
        >>> inv = ll.invert(); all(inv(ll(v)) == v for v in range(8))
        True
        """
        if not self.is_invertible():
            raise AdmissibilityError(
                f"LinearLayout.invert: the map is not a bijection (rank {self.rank()}, {self._in_bits()} input "
                f"bits, {self._out_bits()} output bits); only square full-rank layouts have an inverse")
        cols = self._columns()
        n = len(cols)
        # Solve M * inv = I column by column: keep (image, input bits that produce it) pairs reduced.
        basis: dict[int, tuple[int, int]] = {}
        for i, c in enumerate(cols):
            v, src = c, 1 << i
            for piv in sorted(basis, reverse=True):
                if (v >> piv) & 1:
                    v ^= basis[piv][0]
                    src ^= basis[piv][1]
            basis[v.bit_length() - 1] = (v, src)
        # back-substitute into unit vectors
        for piv in sorted(basis):
            v, src = basis[piv]
            for q in sorted(basis):
                if q != piv and (basis[q][0] >> piv) & 1:
                    basis[q] = (basis[q][0] ^ v, basis[q][1] ^ src)
        preimage = [basis[b][1] for b in range(n)]  # input bits giving output bit b
        in_offs, acc = [], 0
        for _, row in self._in:
            in_offs.append(acc)
            acc += len(row)
        new = []
        for (name, size), off in zip(self._out, self._out_offsets()):
            row = []
            for b in range(size.bit_length() - 1):
                src = preimage[off + b]
                row.append(tuple((src >> o) & ((1 << len(r)) - 1) for o, (_, r) in zip(in_offs, self._in)))
            new.append((name, row))
        return LinearLayout(new, list(self.in_dims))

    def flatten_ins(self, name: str | None = None) -> LinearLayout:
        """One input dimension holding every input bit (the first dimension's bits lowest).

        >>> LinearLayout({"a": [1], "b": [2, 4]}, ["x"]).flatten_ins("i").bases
        {'i': (1, 2, 4)}
        """
        nm = name if name is not None else (self._in[0][0] if self._in else "in")
        return LinearLayout([(nm, [v for _, row in self._in for v in row])], list(self._out))

    def equivalent(self, other: LinearLayout) -> bool:
        """True when both compute the same function on the same named input dims (output-dim sizes may differ).

        This is Triton's ``equalIgnoringOutDimSizes``, with dimension order ignored.

        >>> LinearLayout({"i": [1]}, [("x", 4)]).equivalent(LinearLayout({"i": [1]}, ["x"]))
        True
        """
        if not isinstance(other, LinearLayout):
            raise LayoutTypeError(f"LinearLayout.equivalent: expected a LinearLayout, got {type(other).__name__}")
        if dict(self.in_dims) != dict(other.in_dims) or {n for n, _ in self._out} != {n for n, _ in other._out}:
            return False
        order = [n for n, _ in self._out]
        oidx = [[n for n, _ in other._out].index(n) for n in order]
        theirs = dict(other._in)
        for name, row in self._in:
            for a, b in zip(row, theirs[name]):
                if a != tuple(b[i] for i in oidx):
                    return False
        return True

    # -- protocol --------------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LinearLayout):
            return NotImplemented
        return self._in == other._in and self._out == other._out

    def __hash__(self) -> int:
        return hash((self._in, self._out))

    def to_text(self) -> str:
        """The dims with their sizes, then each input dim's bases ``2**i -> image``.

        >>> print(LinearLayout({"i": [(0, 1), (1, 0)]}, ["x", "y"]).to_text())
        LinearLayout i (4) -> x (2), y (2)
          i: 1 -> (0, 1), 2 -> (1, 0)
        """
        ins = ", ".join(f"{n} ({s})" for n, s in self.in_dims) or "(no inputs)"
        outs = ", ".join(f"{n} ({s})" for n, s in self._out) or "(no outputs)"
        lines = [f"LinearLayout {ins} -> {outs}"]
        one = len(self._out) == 1
        for name, row in self._in:
            items = ", ".join(f"{1 << i} -> {v[0] if one else '(' + ', '.join(map(str, v)) + ')'}"
                              for i, v in enumerate(row))
            lines.append(f"  {name}: {items or '(size 1)'}")
        return "\n".join(lines)

    def to_dict(self) -> dict:
        """A JSON-ready dict: in_dims, out_dims and bases.

        >>> LinearLayout({"i": [1, 2]}, ["x"]).to_dict()["bases"]
        {'i': [1, 2]}
        """
        return {"in_dims": [list(d) for d in self.in_dims], "out_dims": [list(d) for d in self._out],
                "bases": {n: [list(v) if isinstance(v, tuple) else v for v in b] for n, b in self.bases.items()}}

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return f"LinearLayout({self.bases!r}, {list(self._out)!r})"


def _f2_insert(basis: dict[int, int], v: int) -> int:
    """Reduce ``v`` by the echelon ``basis`` (leading bit -> vector); add it if independent. Returns the residue."""
    while v:
        h = v.bit_length() - 1
        if h not in basis:
            basis[h] = v
            return v
        v ^= basis[h]
    return 0


def _f2_rank(cols: list[int]) -> int:
    basis: dict[int, int] = {}
    for c in cols:
        _f2_insert(basis, c)
    return len(basis)


def _layout_bases(layout: Layout, who: str, text: str) -> list[list[int]]:
    """Per top-level mode, the image of each coordinate bit; AdmissibilityError if not F2-linear."""
    require_offsets(layout, who)
    if layout.is_symbolic():
        raise LayoutValueError(f"{who}: {text} has unbound symbols; bind them first (subs)")
    xor = any(type(d) is F2 for d in flatten(layout.stride))  # F2 strides: images XOR, nothing carries
    modes = [layout] if layout.rank() == 1 and not isinstance(layout.shape, tuple) else list(layout)
    out: list[list[int]] = []
    for mi, mode in enumerate(modes):
        shapes = flatten(mode.shape) if isinstance(mode.shape, tuple) else (mode.shape,)
        strides = flatten(mode.stride) if isinstance(mode.stride, tuple) else (mode.stride,)
        row: list[int] = []
        for s, d in zip(shapes, strides):
            k = _log2_exact(int(s))
            if k is None:
                raise AdmissibilityError(f"{who}: {text} is not F2-linear: mode {mi} has the extent {s}, not a power "
                                         "of two (a linear layout's inputs are bit vectors)")
            if type(d) is not F2 and d < 0:
                raise AdmissibilityError(f"{who}: {text} is not F2-linear: mode {mi} has the negative stride {d}")
            row.extend(int(d) << j for j in range(k))
        out.append(row)
    if xor:
        return out
    seen: list[tuple[int, int, int]] = []
    for mi, row in enumerate(out):
        for j, v in enumerate(row):
            for mj, jj, w in seen:
                if v & w:
                    raise AdmissibilityError(
                        f"{who}: {text} is not F2-linear: coordinate bit {jj} of mode {mj} maps to {w} and bit {j} of "
                        f"mode {mi} maps to {v}; they share bits ({v} & {w} = {v & w}), so {v} + {w} = {v + w} "
                        f"differs from {v} XOR {w} = {v ^ w} (the sum carries)")
            if v:
                seen.append((mi, j, v))
    return out


def _in_names(in_dims: Any, rank: int, who: str) -> list[str] | str:
    if in_dims is None:
        return [f"mode{i}" for i in range(rank)]
    if isinstance(in_dims, str):
        return in_dims
    if isinstance(in_dims, Sequence) and all(isinstance(n, str) for n in in_dims):
        if len(in_dims) != rank:
            raise LayoutValueError(f"{who}: in_dims names {list(in_dims)} but the layout has {rank} top-level modes")
        return list(in_dims)
    raise LayoutTypeError(f"{who}: in_dims must be None, a name, or one name per top-level mode, got {fmt(in_dims)}")


def _assemble(rows: list[list[int]], names: list[str] | str, out_dim: str) -> LinearLayout:
    if isinstance(names, str):
        return LinearLayout([(names, [v for r in rows for v in r])], [out_dim])
    return LinearLayout(list(zip(names, rows)), [out_dim])


def to_linear_layout(layout: Any, *, in_dims: Any = None, out_dim: str = "offset", element_bits: Any = None,
                     swizzle_unit: str = "elements") -> LinearLayout:
    """The F2-linear (Triton LinearLayout) form of a power-of-two layout, swizzle included.

    With ``element_bits`` the layout is read by CuTe's unit rule
    (:func:`~pycute_layouts.core.composed.smem_layout_of`: the swizzle of ``Sw o k o L`` acts on
    element offsets unless ``swizzle_unit="bytes"``) and the output is byte addresses, as for the
    SwizzledSmemLayout it names; so ``Sw<3,3,3> o 0 o L`` with 16-bit elements and
    ``Sw<3,4,3> o smem_ptr[16b](unset) o L`` give the same bases. Without it a Layout or
    ComposedLayout maps to its own units.

    Accepts a Layout, ``Swizzle o 0 o Layout`` (a ComposedLayout whose outer map is a Swizzle,
    XorSwizzle or Layout), a SwizzledSmemLayout (output: byte addresses; whole power-of-two-byte
    elements, base address 0), or a bare Swizzle/XorSwizzle (one input dim over the bits it
    touches). ``in_dims``: None (one dim per top-level mode, ``mode0``, ``mode1`` ...), a name (one
    flattened dim) or a list of names. Raises :class:`AdmissibilityError` when the map is not
    F2-linear (a non-power-of-two extent, strides whose sum carries, a non-zero offset).

    >>> print(to_linear_layout(Layout((8, 4), (4, 1))))
    LinearLayout mode0 (8), mode1 (4) -> offset (32)
      mode0: 1 -> 4, 2 -> 8, 4 -> 16
      mode1: 1 -> 1, 2 -> 2
    >>> to_linear_layout(Swizzle(1, 4, 3)).bases
    {'offset': (1, 2, 4, 8, 16, 32, 64, 144)}
    >>> from pycute_layouts import parse
    >>> to_linear_layout(parse("Sw<3,3,3> o 0 o (8,64):(64,1)"), element_bits=16, in_dims="offset").bases
    {'offset': (144, 288, 576, 2, 4, 8, 16, 32, 64)}
    >>> to_linear_layout(Layout(6, 1))
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.AdmissibilityError: to_linear_layout: 6:1 is not F2-linear: mode 0 has the extent 6, ...
    """
    who = "to_linear_layout"
    if not isinstance(out_dim, str):
        raise LayoutTypeError(f"{who}: out_dim must be a name, got {fmt(out_dim)}")
    check_swizzle_unit(swizzle_unit, who)
    if element_bits is not None:
        layout = smem_layout_of(layout, element_bits, swizzle_unit=swizzle_unit, who=who)
    elif swizzle_unit == "bytes" and isinstance(layout, ComposedLayout):
        raise UnitError(f"{who}: swizzle_unit='bytes' reads the swizzle of {layout} on byte addresses, which needs the "
                        "element width: pass element_bits")
    if isinstance(layout, (Swizzle, XorSwizzle)):
        return _swizzle_linear(layout, in_dims, out_dim, who)
    if isinstance(layout, Layout):
        rows = _layout_bases(layout, who, str(layout))
        return _assemble(rows, _in_names(in_dims, len(rows), who), out_dim)
    if isinstance(layout, ComposedLayout):
        return _composed_linear(layout, in_dims, out_dim, who)
    if isinstance(layout, SwizzledSmemLayout):
        return _smem_linear(layout, in_dims, out_dim, who)
    raise LayoutTypeError(f"{who}: expected a Layout, ComposedLayout, SwizzledSmemLayout, Swizzle or XorSwizzle, got "
                          f"{type(layout).__name__}")


def _swizzle_linear(layout: Any, in_dims: Any, out_dim: str, who: str) -> LinearLayout:
    # Pre:  layout a Swizzle or XorSwizzle.  Post: one input dim (in_dims a name, or "offset") over the bits it touches.
    xs = layout.to_xor() if isinstance(layout, Swizzle) else layout
    nm = in_dims if isinstance(in_dims, str) else "offset" if in_dims is None else None
    if nm is None:
        raise LayoutTypeError(f"{who}: a swizzle has one input dimension; in_dims must be a name, got {fmt(in_dims)}")
    return LinearLayout([(nm, [int(xs(1 << i)) for i in range(xs.nbits)])], [out_dim])


def _composed_linear(layout: ComposedLayout, in_dims: Any, out_dim: str, who: str) -> LinearLayout:
    # Pre:  layout 'outer o offset o inner', its units its own.
    # Post: the inner layout's bases mapped through the outer function; AdmissibilityError for a non-zero offset.
    off = layout.offset
    if not _is_int(off):
        raise LayoutValueError(f"{who}: {layout} has a symbolic offset; bind it first")
    if off != 0:
        raise AdmissibilityError(f"{who}: {layout} is not F2-linear: the offset {off} makes it affine (it maps "
                                 "coordinate 0 to a non-zero value; a LinearLayout maps 0 to 0)")
    inner = to_linear_layout(layout.inner, in_dims=in_dims, out_dim="__inner__")
    outer = layout.outer
    if isinstance(outer, (Swizzle, XorSwizzle)):
        rows = [(n, [int(outer(v)) for v in b]) for n, b in inner.bases.items()]
        return LinearLayout(rows, [out_dim])
    if isinstance(outer, (Layout, ComposedLayout)):
        o = to_linear_layout(outer, in_dims="__inner__", out_dim=out_dim)
        return inner.compose(o)
    raise LayoutTypeError(f"{who}: unsupported outer function {fmt(outer)}")  # pragma: no cover - ComposedLayout checks


def _smem_linear(s: SwizzledSmemLayout, in_dims: Any, out_dim: str, who: str) -> LinearLayout:
    # Pre:  s a SwizzledSmemLayout.  Post: its byte addresses as an F2-linear map (whole power-of-two-byte
    #       elements at base address 0); otherwise AdmissibilityError / UnitError.
    if s.base_address:
        raise AdmissibilityError(f"{who}: {s} starts at byte {s.base_address:#x}: the map is affine (element 0 is "
                                 "not at address 0); a LinearLayout maps 0 to 0")
    k = _log2_exact(s.element_bits) if s.element_bits % 8 == 0 else None
    if k is None:
        raise UnitError(f"{who}: {s.element_bits}-bit elements: byte addresses are F2-linear only for whole, "
                        "power-of-two-byte elements")
    inner = to_linear_layout(s.layout, in_dims=in_dims, out_dim="__inner__")
    eb = s.element_bits // 8
    if s.swizzle_unit == "bytes":
        rows = [(n, [int(s.swizzle(v * eb)) for v in b]) for n, b in inner.bases.items()]
    else:
        rows = [(n, [int(s.swizzle(v)) * eb for v in b]) for n, b in inner.bases.items()]
    return LinearLayout(rows, [out_dim])


# --------------------------------------------------------------------------------------------------
# LinearLayout -> CuTe
# --------------------------------------------------------------------------------------------------


def _merge_leaves(vals: list[int]) -> tuple[Any, Any]:
    """Shape-2 leaves with strides ``vals`` -> a mode, merging (s, d), (2, 2*s*d) runs (CuTe's coalesce)."""
    if not vals:
        return 1, 0
    leaves: list[list[int]] = []
    for v in vals:
        if leaves and v == leaves[-1][0] * leaves[-1][1]:
            leaves[-1][0] *= 2
        else:
            leaves.append([2, v])
    if len(leaves) == 1:
        return leaves[0][0], leaves[0][1]
    return tuple(x[0] for x in leaves), tuple(x[1] for x in leaves)


def _build_layout(rows: list[list[int]]) -> Layout:
    modes = [_merge_leaves(r) for r in rows]
    if len(modes) == 1:  # one input dim: a rank-1 layout, whatever the nesting of its mode
        s0, d0 = modes[0]
        return Layout((s0,), (d0,)) if isinstance(s0, tuple) else Layout(s0, d0)
    return Layout(tuple(m[0] for m in modes), tuple(m[1] for m in modes))


def _pivots(vals: list[int]) -> list[int] | None:
    """One pivot bit per (non-zero, independent) vector with the pivot submatrix invertible."""
    lead = [v.bit_length() - 1 for v in vals]
    if len(set(lead)) == len(vals):
        return lead
    low = [(v & -v).bit_length() - 1 for v in vals]
    if len(set(low)) == len(vals):
        return low
    # Gaussian elimination: reduce a copy to echelon form; its leading bits are valid pivots.
    basis: dict[int, int] = {}
    for v in vals:
        if not _f2_insert(basis, v):  # dependent on the vectors before it
            return None
    return _assign_pivots(vals, sorted(basis))


def _assign_pivots(vals: list[int], piv_bits: list[int]) -> list[int] | None:
    """Match each vector to a distinct pivot bit it has set (a perfect matching; exists when the submatrix is
    invertible, since then its permanent over F2 is odd)."""
    n = len(vals)
    owner: dict[int, int] = {}  # pivot index -> vector index

    def augment(i: int, seen: set[int]) -> bool:
        for j in range(n):
            if (vals[i] >> piv_bits[j]) & 1 and j not in seen:
                seen.add(j)
                if j not in owner or augment(owner[j], seen):
                    owner[j] = i
                    return True
        return False

    for i in range(n):
        if not augment(i, set()):
            return None
    assign = [0] * n
    for j, i in owner.items():
        assign[i] = piv_bits[j]
    return assign


def from_linear_layout(ll: LinearLayout) -> Any:
    """A CuTe layout computing the same function: a Layout, or ``Swizzle o 0 o Layout`` (XorSwizzle if need be).

    Each input dimension becomes a top-level mode (in order; one input dimension gives a rank-1
    layout, e.g. ``((2,4)):((4,1))``, whose mode may be nested); several output dimensions are
    concatenated (the first the least significant bits). Raises :class:`AdmissibilityError` when
    the non-zero bases are linearly dependent over F2 (two different inputs XOR to one output:
    no injective swizzle of a sum of strides does that).

    >>> print(from_linear_layout(LinearLayout({"i": [1, 2], "j": [4, 8]}, ["x"])))
    (4,4):(1,4)
    >>> print(from_linear_layout(LinearLayout({"i": [1, 2, 4, 8, 16, 32, 64, 144]}, ["x"])))
    Sw<1,4,3> o 0 o 256:1
    >>> from_linear_layout(LinearLayout({"i": [1, 2, 3]}, ["x"]))
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.AdmissibilityError: from_linear_layout: the bases ... are linearly dependent over F2 ...
    """
    who = "from_linear_layout"
    if not isinstance(ll, LinearLayout):
        raise LayoutTypeError(f"{who}: expected a LinearLayout, got {type(ll).__name__}")
    if not ll.in_dims:
        raise LayoutValueError(f"{who}: a layout needs at least one input dimension")
    offs = ll._out_offsets()
    rows = [[sum(v << o for v, o in zip(vec, offs)) for vec in row] for _, row in ll._in]
    flat = [v for r in rows for v in r if v]
    disjoint = all(not (a & b) for i, a in enumerate(flat) for b in flat[i + 1:])
    if disjoint:
        return _build_layout(rows)
    if _f2_rank(flat) != len(flat):
        raise AdmissibilityError(f"{who}: the bases {[list(r) for r in rows]} are linearly dependent over F2 (some "
                                 "inputs XOR to the same output), so no Layout or invertible swizzle of one computes "
                                 "this map")
    piv = _pivots(flat)
    if piv is None:  # pragma: no cover - independent vectors always have pivots
        raise AdmissibilityError(f"{who}: no pivot bits found for {flat}")
    image = dict(zip(piv, flat))
    nbits = max(max(flat).bit_length(), max(piv) + 1)
    matrix_rows = [0] * nbits
    for j in range(nbits):
        col = image.get(j, 1 << j)
        for t in range(nbits):
            if (col >> t) & 1:
                matrix_rows[t] |= 1 << j
    xs = XorSwizzle.from_matrix([[(r >> j) & 1 for j in range(nbits)] for r in matrix_rows])
    try:
        sw: Any = xs.to_swizzle()
    except LayoutError:
        sw = xs
    pos = dict(zip(flat, piv))
    inner_rows = [[(1 << pos[v]) if v else 0 for v in r] for r in rows]
    return ComposedLayout(sw, 0, _build_layout(inner_rows))
