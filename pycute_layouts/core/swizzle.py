"""Swizzles: CuTe's ``Swizzle<B,M,S>`` and general XOR (F2-linear) maps on address bits.

A swizzle permutes addresses by XOR-ing some address bits into others. CuTe's
``Swizzle<B,M,S>`` takes the ``B`` bits starting at bit ``M + max(S,0)`` (the "yyy" bits)
and XORs them into the ``B`` bits starting at bit ``M - min(S,0)`` (the "zzz" bits)::

    0bxxxxxxxxxxxxxxxYYYxxxxxxxZZZxxxx
                                  ^--^ M: bits kept as they are (the "base")
                        ^-^       ^-^  B: number of bits XOR-ed
                          ^------^     S: distance of the shift (may be negative)

    Swizzle<B,M,S>(x) = x ^ ((x & yyy_mask) >> S)

Because the yyy and zzz bit fields do not overlap (``|S| >= B``), every such swizzle is an
involution: it is its own inverse.

Every swizzle is linear over F2 (GF(2)): address bit ``i`` of the result is the XOR of some
input bits. :class:`XorSwizzle` is the general form: any invertible or non-invertible
F2-linear map on a finite number of low address bits (higher bits pass through), given as a
list of ``(source_bit, target_bit)`` XORs or as a bit matrix. XorSwizzles are closed under
composition; ``to_swizzle()`` recognises the ones that are a single ``Swizzle<B,M,S>``. TMA's
``128B_ATOM_32B_FLIP_8B`` mode needs this: it is two XOR patterns at once.

>>> sw = Swizzle(3, 4, 3)
>>> [sw(x) for x in (0, 16, 128, 144)]
[0, 16, 144, 128]
>>> str(sw)
'Sw<3,4,3>'
>>> XorSwizzle([(7, 4), (8, 5), (9, 6)]).to_swizzle()
Swizzle(3, 4, 3)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from ..errors import LayoutTypeError, SwizzleError, SymbolicUndecidable
from ..limits import check_count, check_sequence, fmt
from .algebra import coalesce
from .f2 import F2, is_pow2
from .layout import Layout

__all__ = ["Swizzle", "XorSwizzle", "is_swizzle", "make_swizzle", "f2_layout", "f2_layout_to_xor"]


def _check_small_int(name: str, value: Any, lo: int, hi: int) -> int:
    return check_count("Swizzle", name, value, lo, hi, SwizzleError)


def _as_address(x: Any, who: str) -> Any:
    """Return x as something supporting & ^ >> <<: a Python int or an int64 numpy array."""
    if isinstance(x, bool):
        raise LayoutTypeError(f"{who}: address must be an integer, got bool {fmt(x)}")
    if isinstance(x, (int, np.integer)):
        return int(x)
    if isinstance(x, np.ndarray):
        if not np.issubdtype(x.dtype, np.integer):
            raise LayoutTypeError(f"{who}: numpy addresses must have an integer dtype, got {x.dtype}")
        return x.astype(np.int64, copy=False)
    try:
        import sympy
    except ImportError:  # pragma: no cover - sympy is a dependency
        sympy = None
    if sympy is not None and isinstance(x, sympy.Basic):
        if x.is_Integer:
            return int(x)
        raise SymbolicUndecidable(
            f"{who}: cannot apply an XOR swizzle to the symbolic address {x}; bind the symbols first "
            "or use the bit-vector model (pycute_layouts.proofs.bitvec)"
        )
    raise LayoutTypeError(f"{who}: address must be an int, a sympy Integer or an integer numpy array, got {fmt(x)}")


def _wrap_result(x_in: Any, value: Any) -> Any:
    try:
        import sympy
    except ImportError:  # pragma: no cover
        return value
    if isinstance(x_in, sympy.Basic):
        return sympy.Integer(value)
    return value


class Swizzle:
    """CuTe's ``Swizzle<B,M,S>``: ``x ^ ((x & yyy_mask) >> S)`` (a left shift when S < 0).

    Rules (as CuTe): ``B >= 0``, ``M >= 0``, ``|S| >= B`` so that the two bit fields do not
    overlap; ``M - min(S,0) >= 0``. ``Swizzle(0, M, S)`` is the identity. Callable on ints,
    sympy Integers and integer numpy arrays.

    >>> sw = Swizzle(1, 4, 3)            # the 32-byte TMA/wgmma swizzle on byte addresses
    >>> [sw(a) for a in range(0, 256, 16)]
    [0, 16, 32, 48, 64, 80, 96, 112, 144, 128, 176, 160, 208, 192, 240, 224]
    >>> Swizzle(0, 0, 0)(12345)
    12345
    """

    __slots__ = ("_b", "_m", "_s", "_yyy", "_zzz", "_hash")

    def __init__(self, bits: int, base: int, shift: int):
        b = _check_small_int("B (number of bits)", bits, 0, 62)
        m = _check_small_int("M (base)", base, 0, 62)
        s = _check_small_int("S (shift)", shift, -62, 62)
        if abs(s) < b:
            raise SwizzleError(
                f"Swizzle<{b},{m},{s}>: |S| >= B is required so that the XOR-ed bit fields do not overlap "
                f"(|S| = {abs(s)} < B = {b})"
            )
        bit_msk = (1 << b) - 1
        object.__setattr__(self, "_b", b)
        object.__setattr__(self, "_m", m)
        object.__setattr__(self, "_s", s)
        object.__setattr__(self, "_yyy", bit_msk << (m + max(0, s)))
        object.__setattr__(self, "_zzz", bit_msk << (m - min(0, s)))
        object.__setattr__(self, "_hash", 0)
        object.__setattr__(self, "_hash", hash(self.to_xor()))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Swizzle is immutable")

    # -- parameters -----------------------------------------------------------------------
    @property
    def bits(self) -> int:
        """B: how many bits are XOR-ed.

        >>> Swizzle(3, 4, 3).bits
        3
        """
        return self._b

    @property
    def base(self) -> int:
        """M: the number of least-significant bits left untouched.

        >>> Swizzle(3, 4, 3).base
        4
        """
        return self._m

    @property
    def shift(self) -> int:
        """S: the distance between the source (yyy) and target (zzz) bit fields.

        >>> Swizzle(3, 4, 3).shift
        3
        """
        return self._s

    @property
    def yyy_mask(self) -> int:
        """Mask of the source bits, read and shifted by S.

        >>> hex(Swizzle(3, 4, 3).yyy_mask)
        '0x380'
        """
        return self._yyy

    @property
    def zzz_mask(self) -> int:
        """Mask of the target bits, changed by the XOR.

        >>> hex(Swizzle(3, 4, 3).zzz_mask)
        '0x70'
        """
        return self._zzz

    @property
    def period(self) -> int:
        """The smallest power of two P with swz(x + k*P) == swz(x) + k*P for all x, k >= 0.

        >>> Swizzle(3, 4, 3).period
        1024
        >>> Swizzle(0, 4, 3).period
        1
        """
        if self._b == 0:
            return 1
        return 1 << (self._yyy | self._zzz).bit_length()

    def is_identity(self) -> bool:
        """True when B == 0.

        >>> Swizzle(0, 4, 3).is_identity(), Swizzle(1, 4, 3).is_identity()
        (True, False)
        """
        return self._b == 0

    # -- evaluation -----------------------------------------------------------------------
    def __call__(self, x: Any) -> Any:
        a = _as_address(x, str(self))
        if self._b == 0:
            return _wrap_result(x, a)
        s = self._s
        if s >= 0:
            r = a ^ ((a & self._yyy) >> s)
        else:
            r = a ^ ((a & self._yyy) << (-s))
        return _wrap_result(x, r)

    def inverse(self) -> Swizzle:
        """The inverse map; every Swizzle<B,M,S> is an involution, so this is ``self``.

        >>> sw = Swizzle(2, 4, 3); all(sw.inverse()(sw(x)) == x for x in range(2048))
        True
        """
        return self

    def to_xor(self) -> XorSwizzle:
        """The same map as a general :class:`XorSwizzle`.

        >>> Swizzle(1, 4, 3).to_xor().pairs
        ((7, 4),)
        """
        s = self._s
        pairs = []
        for i in range(self._b):
            src = self._m + max(0, s) + i
            pairs.append((src, src - s))
        return XorSwizzle(pairs)

    def compose(self, other: Swizzle | XorSwizzle) -> XorSwizzle:
        """The F2-linear map x -> self(other(x)).

        >>> Swizzle(1, 4, 3).compose(Swizzle(1, 4, 3)).is_identity()
        True
        """
        return self.to_xor().compose(other)

    # -- protocol -------------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if isinstance(other, Swizzle):
            if self._b == 0 and other._b == 0:
                return True
            return (self._b, self._m, self._s) == (other._b, other._m, other._s)
        return NotImplemented

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"Swizzle({self._b}, {self._m}, {self._s})"

    def __str__(self) -> str:
        return f"Sw<{self._b},{self._m},{self._s}>"

    def __reduce__(self):
        return (Swizzle, (self._b, self._m, self._s))


def _pairs_from_matrix(rows: Sequence[int]) -> list[tuple[int, int]]:
    """XOR pairs on top of the identity; a pair (t, t) means the map drops bit t's own input."""
    pairs = []
    for t, row in enumerate(rows):
        row_wo_self = row ^ (1 << t)
        j = 0
        while row_wo_self >> j:
            if (row_wo_self >> j) & 1:
                pairs.append((j, t))
            j += 1
    return pairs


class XorSwizzle:
    """A general F2-linear map on address bits: ``out_bit[t] = XOR_j A[t][j] & in_bit[j]``.

    Built from XOR pairs ``(source_bit, target_bit)`` meaning "XOR input bit ``source_bit``
    into output bit ``target_bit``" (all sources read the *input*), on top of the identity; or
    from a full bit matrix with :meth:`from_matrix`. Bits above ``nbits`` pass through unchanged.
    Composition (``a.compose(b)`` is ``x -> a(b(x))``) is matrix multiplication over F2.

    >>> flip = XorSwizzle([(7, 5), (8, 6), (7, 3)])     # TMA 128B_ATOM_32B_FLIP_8B
    >>> flip(128), flip(256), flip(8)
    (168, 320, 8)
    >>> flip.is_invertible()
    True
    """

    __slots__ = ("_rows", "_nbits", "_hash")

    def __init__(self, pairs: Iterable[tuple[int, int]] = ()):
        plist = [tuple(check_sequence("XorSwizzle", "each pair", p, 2, SwizzleError))
                 for p in check_sequence("XorSwizzle", "pairs", pairs, error=SwizzleError)]
        nbits = 0
        for p in plist:
            if len(p) != 2:
                raise SwizzleError(f"XorSwizzle: each pair must be (source_bit, target_bit), got {fmt(p)}")
            if p[0] == p[1]:
                raise SwizzleError(f"XorSwizzle: pair {fmt(p)} XORs a bit into itself (it would clear it); "
                                   "use XorSwizzle.from_matrix for maps that are not identity + XORs")
            for v in p:
                if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not 0 <= int(v) < 63:
                    raise SwizzleError(f"XorSwizzle: bit positions must be integers in [0, 63), got {fmt(p)}")
            nbits = max(nbits, int(p[0]) + 1, int(p[1]) + 1)
        rows = [1 << t for t in range(nbits)]
        for src, dst in plist:
            rows[int(dst)] ^= 1 << int(src)
        self._set(rows)

    def _set(self, rows: list[int]) -> None:
        # Trim trailing identity rows that no lower row reads, so equal maps compare equal.
        rows = list(rows)
        while rows:
            t = len(rows) - 1
            if rows[t] == (1 << t) and not any((r >> t) & 1 for i, r in enumerate(rows[:t])):
                rows.pop()
            else:
                break
        object.__setattr__(self, "_rows", tuple(rows))
        object.__setattr__(self, "_nbits", len(rows))
        object.__setattr__(self, "_hash", hash(("XorSwizzle", tuple(rows))))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("XorSwizzle is immutable")

    @classmethod
    def from_matrix(cls, matrix: Sequence[Sequence[int]]) -> XorSwizzle:
        """Build from a square 0/1 matrix ``A`` with ``out_bit[t] = XOR_j A[t][j] in_bit[j]``.

        >>> XorSwizzle.from_matrix([[1, 0, 1], [0, 1, 0], [0, 0, 1]]).pairs
        ((2, 0),)
        """
        try:
            n = len(matrix)
            rows = []
            for t, r in enumerate(matrix):
                if len(r) != n:
                    raise SwizzleError(f"XorSwizzle.from_matrix: row {t} has {len(r)} entries, expected {n}")
                v = 0
                for j, bit in enumerate(r):
                    if bit not in (0, 1, True, False):
                        raise SwizzleError(f"XorSwizzle.from_matrix: entries must be 0 or 1, got {fmt(bit)} at ({t},{j})")
                    if bit:
                        v |= 1 << j
                rows.append(v)
        except TypeError as e:
            raise SwizzleError(f"XorSwizzle.from_matrix: expected a square 0/1 matrix, got {fmt(matrix)}") from e
        if n > 63:
            raise SwizzleError(f"XorSwizzle.from_matrix: at most 63 bits are supported, got {n}")
        obj = cls.__new__(cls)
        obj._set(rows)
        return obj

    @property
    def nbits(self) -> int:
        """Number of low bits the map can change or read (higher bits pass through).

        >>> XorSwizzle([(7, 4)]).nbits
        8
        """
        return self._nbits

    @property
    def pairs(self) -> tuple[tuple[int, int], ...]:
        """The XOR pairs (source_bit, target_bit), sorted by target then source.

        >>> XorSwizzle([(9, 6), (7, 4)]).pairs
        ((7, 4), (9, 6))
        """
        return tuple(_pairs_from_matrix(self._rows))

    def matrix(self) -> list[list[int]]:
        """The 0/1 matrix A (``nbits x nbits``) with out_bit[t] = XOR_j A[t][j] in_bit[j].

        >>> XorSwizzle([(1, 0)]).matrix()
        [[1, 1], [0, 1]]
        """
        n = self._nbits
        return [[(r >> j) & 1 for j in range(n)] for r in self._rows]

    def __call__(self, x: Any) -> Any:
        a = _as_address(x, "XorSwizzle")
        n = self._nbits
        low = (1 << n) - 1
        if isinstance(a, np.ndarray):
            out = a & ~low
            for t, row in enumerate(self._rows):
                par = np.zeros_like(a)
                j = 0
                while row >> j:
                    if (row >> j) & 1:
                        par ^= (a >> j) & 1
                    j += 1
                out |= par << t
            return out
        out = a & ~low
        for t, row in enumerate(self._rows):
            if bin(a & row).count("1") & 1:
                out |= 1 << t
        return _wrap_result(x, out)

    def compose(self, other: Swizzle | XorSwizzle) -> XorSwizzle:
        """``x -> self(other(x))``, computed as an F2 matrix product.

        >>> a = XorSwizzle([(7, 5), (8, 6)]); b = XorSwizzle([(7, 3)])
        >>> all(a.compose(b)(x) == a(b(x)) for x in range(1024))
        True
        """
        if isinstance(other, Swizzle):
            other = other.to_xor()
        if not isinstance(other, XorSwizzle):
            raise LayoutTypeError(f"XorSwizzle.compose: expected a Swizzle or XorSwizzle, got {fmt(other)}")
        n = max(self._nbits, other._nbits)
        a = list(self._rows) + [1 << t for t in range(self._nbits, n)]
        b = list(other._rows) + [1 << t for t in range(other._nbits, n)]
        rows = []
        for t in range(n):
            acc = 0
            row = a[t]
            for k in range(n):
                if (row >> k) & 1:
                    acc ^= b[k]
            rows.append(acc)
        obj = XorSwizzle.__new__(XorSwizzle)
        obj._set(rows)
        return obj

    def _rank(self) -> int:
        rows = list(self._rows)
        rank = 0
        for bit in range(self._nbits):
            piv = next((i for i in range(rank, len(rows)) if (rows[i] >> bit) & 1), None)
            if piv is None:
                continue
            rows[rank], rows[piv] = rows[piv], rows[rank]
            for i in range(len(rows)):
                if i != rank and (rows[i] >> bit) & 1:
                    rows[i] ^= rows[rank]
            rank += 1
        return rank

    def is_invertible(self) -> bool:
        """True when the map is a bijection (its F2 matrix has full rank).

        >>> XorSwizzle([(0, 1), (1, 0)]).is_invertible()
        False
        """
        return self._rank() == self._nbits

    def inverse(self) -> XorSwizzle:
        """The inverse map; raises SwizzleError when the map is not a bijection.

        >>> m = XorSwizzle([(2, 0), (0, 1)]); all(m.inverse()(m(x)) == x for x in range(8))
        True
        """
        n = self._nbits
        aug = [(self._rows[t], 1 << t) for t in range(n)]
        rows = [list(r) for r in aug]
        r = 0
        for bit in range(n):
            piv = next((i for i in range(r, n) if (rows[i][0] >> bit) & 1), None)
            if piv is None:
                raise SwizzleError(f"XorSwizzle.inverse: the map {self.pairs} is not invertible (singular over F2)")
            rows[r], rows[piv] = rows[piv], rows[r]
            for i in range(n):
                if i != r and (rows[i][0] >> bit) & 1:
                    rows[i][0] ^= rows[r][0]
                    rows[i][1] ^= rows[r][1]
            r += 1
        obj = XorSwizzle.__new__(XorSwizzle)
        obj._set([rows[t][1] for t in range(n)])
        return obj

    def is_identity(self) -> bool:
        """True when no bit is changed.

        >>> XorSwizzle([]).is_identity()
        True
        """
        return self._nbits == 0

    def to_swizzle(self) -> Swizzle:
        """The single ``Swizzle<B,M,S>`` equal to this map, or SwizzleError if there is none.

        >>> XorSwizzle([(7, 4), (8, 5)]).to_swizzle()
        Swizzle(2, 4, 3)
        >>> XorSwizzle([(7, 5), (8, 6), (7, 3)]).to_swizzle()
        Traceback (most recent call last):
        ...
        pycute_layouts.errors.SwizzleError: XorSwizzle.to_swizzle: ...
        """
        pairs = self.pairs
        if not pairs:
            return Swizzle(0, 0, 0)
        srcs = sorted(p[0] for p in pairs)
        dsts = sorted(p[1] for p in pairs)
        b = len(pairs)
        shift = pairs[0][0] - pairs[0][1]
        ok = (
            all(p[0] - p[1] == shift for p in pairs)
            and srcs == list(range(srcs[0], srcs[0] + b))
            and dsts == list(range(dsts[0], dsts[0] + b))
            and abs(shift) >= b
        )
        if ok:
            m = dsts[0] if shift > 0 else srcs[0]
            sw = Swizzle(b, m, shift)
            if sw.to_xor() == self:
                return sw
        raise SwizzleError(
            f"XorSwizzle.to_swizzle: the map with XOR pairs {pairs} is not a single Swizzle<B,M,S> "
            "(needs B contiguous source bits XOR-ed into B contiguous target bits at one fixed distance |S| >= B)"
        )

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Swizzle):
            other = other.to_xor()
        if isinstance(other, XorSwizzle):
            return self._rows == other._rows
        return NotImplemented

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        if any(s == t for s, t in self.pairs):
            return f"XorSwizzle.from_matrix({self.matrix()!r})"
        return f"XorSwizzle({list(self.pairs)!r})"

    def __str__(self) -> str:
        if not self.pairs:
            return "Xor<>"
        return "Xor<" + ",".join(f"{s}->{t}" for s, t in self.pairs) + ">"

    def __reduce__(self):
        return (XorSwizzle.from_matrix, (self.matrix(),))


def make_swizzle(yyy_mask: int, zzz_mask: int) -> Swizzle:
    """CuTe's ``make_swizzle<Y, Z>()``: the ``Swizzle<B,M,S>`` whose source bits are ``yyy_mask`` and target bits ``zzz_mask``.

    ``B = popcount(Y)``, ``M = min(ctz(Y), ctz(Z))``, ``S = ctz(Y) - ctz(Z)`` (``ctz(0) = 32``, CuTe's
    ``countr_zero`` of a ``uint32_t``).

    Pre: both masks ints in ``[0, 2**32)`` (CuTe's ``uint32_t``) with the same number of set bits, each a
    contiguous run, and not overlapping closer than ``B`` bits. Post: ``make_swizzle(Y, Z)`` is a Swizzle
    with ``yyy | zzz == Y | Z``. Raises SwizzleError otherwise: CuTe's static_asserts "Number of bits in Y and
    Z don't match", "abs(SShift) must be more than BBits" and "Something went wrong." (a mask that is not one
    contiguous run of bits).

    >>> make_swizzle(0b1000, 0b0100), make_swizzle(0b11000000, 0b00000110)     # CuTe's own examples
    (Swizzle(1, 2, 1), Swizzle(2, 1, 5))
    >>> make_swizzle(0b111000000, 0b111000) == Swizzle(3, 3, 3)
    True
    """
    y = check_count("make_swizzle", "yyy_mask", yyy_mask, 0, (1 << 32) - 1, SwizzleError)
    z = check_count("make_swizzle", "zzz_mask", zzz_mask, 0, (1 << 32) - 1, SwizzleError)
    b = y.bit_count()
    if b != z.bit_count():
        raise SwizzleError(f"make_swizzle: the masks {y:#b} and {z:#b} set {b} and {z.bit_count()} bits; a swizzle "
                           "moves as many bits as it XORs into (CuTe: Number of bits in Y and Z don't match)")
    tz_y = (y & -y).bit_length() - 1 if y else 32
    tz_z = (z & -z).bit_length() - 1 if z else 32
    m, shift = min(tz_y, tz_z) % 32, tz_y - tz_z
    if abs(shift) < b:
        raise SwizzleError(f"make_swizzle({y:#b}, {z:#b}): Swizzle<{b},{m},{shift}> would need |S| >= B = {b} "
                           "(CuTe: abs(SShift) must be more than BBits)")
    sw = Swizzle(b, m, shift)
    if (y | z) != (sw._yyy | sw._zzz):
        raise SwizzleError(f"make_swizzle({y:#b}, {z:#b}): the masks are not two contiguous runs of {b} bits, so no "
                           f"Swizzle<B,M,S> has them (Swizzle<{b},{m},{shift}> moves {sw._yyy:#b} into {sw._zzz:#b}; "
                           "CuTe: Something went wrong.)")
    return sw


def is_swizzle(obj: Any) -> bool:
    """True for Swizzle and XorSwizzle objects.

    >>> is_swizzle(Swizzle(1, 4, 3)), is_swizzle(3)
    (True, False)
    """
    return isinstance(obj, (Swizzle, XorSwizzle))


# ------------------------------------------------------------------------------------------
# swizzles as layouts with F2 (XOR) strides


def f2_layout(swizzle: Swizzle | XorSwizzle, nbits: int | None = None) -> Layout:
    """The swizzle on ``[0, 2**nbits)`` as a layout with F2 strides (coalesced).

    Pre:  swizzle is a Swizzle or XorSwizzle; nbits >= 1 (default: the Swizzle's period bits, or
          the XorSwizzle's nbits).
    Post: R(x) == swizzle(x) for every x < 2**nbits; f2_layout_to_xor(R) equals swizzle there.

    Bit ``j`` of the index is one mode of size 2 whose stride is ``F2(swizzle(1 << j))``.

    >>> print(f2_layout(Swizzle(1, 0, 1))), print(f2_layout(Swizzle(3, 4, 3)))
    (2,2):(F1,F3)
    (128,8):(F1,F144)
    (None, None)
    >>> L = f2_layout(Swizzle(3, 4, 3)); all(L(x) == Swizzle(3, 4, 3)(x) for x in range(1024))
    True
    """
    if not isinstance(swizzle, (Swizzle, XorSwizzle)):
        raise LayoutTypeError(f"f2_layout: expected a Swizzle or XorSwizzle, got {fmt(swizzle)}")
    if nbits is None:
        nbits = swizzle.nbits if isinstance(swizzle, XorSwizzle) else max(1, swizzle.period.bit_length() - 1)
    if isinstance(nbits, bool) or not isinstance(nbits, int) or not 1 <= nbits <= 62:
        raise SwizzleError(f"f2_layout: nbits must be an int in [1, 62], got {fmt(nbits)}")
    strides = []
    for j in range(nbits):
        img = int(swizzle(1 << j))
        strides.append(F2(img) if img else 0)
    return coalesce(Layout((2,) * nbits, tuple(strides)) if nbits > 1 else Layout(2, strides[0]))


def f2_layout_to_xor(layout: Layout) -> XorSwizzle:
    """The XorSwizzle of a layout with F2 strides and power-of-two shapes (an F2-linear map of bits).

    Pre:  every flat shape of layout is a power of two; every stride is F2 or 0.
    Post: R(x) == layout(x) for every x < size(layout).

    >>> f2_layout_to_xor(Layout((8, 8), (F2(1), F2(9)))).pairs
    ((3, 0), (4, 1), (5, 2))
    """
    if not isinstance(layout, Layout):
        raise LayoutTypeError(f"f2_layout_to_xor: expected a Layout, got {fmt(layout)}")
    fs, fd = layout.flat_modes()
    images: list[int] = []
    for s, d in zip(fs, fd):
        if not is_pow2(s):
            raise SwizzleError(f"f2_layout_to_xor: shape {s} of {layout} is not a power of two (no bit split)")
        if not (type(d) is F2 or (type(d) is int and d == 0)):
            raise SwizzleError(f"f2_layout_to_xor: stride {d} of {layout} is not an F2 stride")
        v = d.value if type(d) is F2 else 0
        images.extend(v << b for b in range(s.bit_length() - 1))
    n = max([len(images)] + [v.bit_length() for v in images])
    if n > 63:
        raise SwizzleError(f"f2_layout_to_xor: {layout} reaches bit {n - 1}; at most 63 bits are supported")
    images += [1 << j for j in range(len(images), n)]  # bits above the layout's domain pass through
    return XorSwizzle.from_matrix([[(images[j] >> t) & 1 for j in range(n)] for t in range(n)])
