"""What a layout touches: its image, footprint, gaps and aliasing, and the cycles of a permutation.

A layout ``L`` is a function from ``[0, size(L))`` to integers (offsets). These analyses look at
the *set* of values it produces, the questions a kernel engineer asks of a shared-memory or
register layout before trusting it:

* :func:`image` -- the distinct offsets, sorted; :func:`is_injective` (no two indices share an
  offset), :func:`is_surjective` (every offset of ``[0, codomain)`` is hit; default codomain:
  ``cosize(L)``), :func:`is_bijective` (both, onto ``[0, size)``).
* :func:`footprint` -- min / max offset, span, distinct offsets, holes and reuse.
* :func:`gaps` -- the maximal runs of consecutive offsets and the gaps between them.
* :func:`aliasing` -- how many indices share each offset (a broadcast ``n:0`` mode aliases
  ``n``-fold).
* :func:`permutation_cycles`, :func:`permutation_parity`, :func:`permutation_order` -- for a
  layout that is a permutation of ``[0, n)`` (a swizzle, a transpose, a TV layout of a full
  tile): its cycle decomposition (each cycle starts at its smallest element), the parity
  (``(n - number of cycles) mod 2``) and the order (lcm of the cycle lengths);
  :func:`fixed_points` -- the indices any layout keeps (``L(i) == i``).

Every function takes a :class:`~pycute_layouts.core.layout.Layout`, a ``Sw o k o L``
:class:`~pycute_layouts.core.composed.ComposedLayout` or a
:class:`~pycute_layouts.core.composed.SwizzledSmemLayout` (its element offsets) with integer values,
enumerates at most :data:`~pycute_layouts.limits.MAX_EVAL_POINTS` points (refused before anything is
allocated) and raises LayoutTypeError / LayoutValueError for anything else.

>>> from pycute_layouts import Layout
>>> footprint(Layout((4, 2), (2, 16)))
Footprint(min_offset=0, max_offset=22, span=23, distinct_offsets=8, total_elements=8, holes=15, max_reuse=1)
>>> gaps(Layout((4, 2), (2, 16))).runs
((0, 0), (2, 2), (4, 4), (6, 6), (16, 16), (18, 18), (20, 20), (22, 22))
>>> permutation_cycles(Layout((2, 3), (3, 1)))         # the 2x3 transpose: 0 1 2 3 4 5 -> 0 3 1 4 2 5
((0,), (1, 3, 4, 2), (5,))
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from ..core.composed import ComposedLayout, SwizzledSmemLayout
from ..core.layout import Layout
from ..errors import LayoutError, LayoutTypeError, LayoutValueError
from ..limits import MAX_EVAL_POINTS, check_budget, check_count, check_fields, fmt

__all__ = [
    "Footprint",
    "GapProfile",
    "Aliasing",
    "layout_values",
    "image",
    "is_injective",
    "is_surjective",
    "is_bijective",
    "footprint",
    "gaps",
    "aliasing",
    "permutation_cycles",
    "permutation_parity",
    "permutation_order",
    "fixed_points",
]


def layout_values(layout: Any, who: str = "layout_values") -> np.ndarray:
    """``L(i)`` for every index ``i`` of an integer-valued layout, as an int64 array (the input of every analysis here).

    Pre: a Layout, ComposedLayout or SwizzledSmemLayout with concrete integer shapes and integer values
    (no basis or F2 strides), at most MAX_EVAL_POINTS points. Post: a 1-D int64 array of length ``size``.
    Raises LayoutTypeError (another object, non-integer values) or LayoutValueError (over the budget,
    symbolic).

    >>> layout_values(Layout((2, 2), (4, 1))).tolist()
    [0, 4, 1, 5]
    """
    if not isinstance(who, str):
        raise LayoutTypeError(f"layout_values: who must be a string, got {fmt(who)}"[:200])
    if not isinstance(layout, (Layout, ComposedLayout, SwizzledSmemLayout)):
        raise LayoutTypeError(f"{who}: expected a Layout, ComposedLayout or SwizzledSmemLayout, got "
                              f"{type(layout).__name__} {fmt(layout)}"[:300])
    n = layout.size()
    check_budget(who, f"layout {layout}"[:200], n, MAX_EVAL_POINTS)
    try:
        vals = np.asarray(layout.to_numpy())
    except LayoutError:
        raise
    except (TypeError, ValueError, OverflowError) as e:
        raise LayoutValueError(f"{who}: cannot evaluate {layout}: {e}"[:300]) from None
    if vals.ndim != 1 or vals.dtype.kind not in "iu":
        raise LayoutTypeError(f"{who}: {layout} does not map indices to integer offsets (basis-valued or F2 "
                              "strides give coordinates, not offsets)"[:300])
    return vals.astype(np.int64, copy=False)


def image(layout: Any) -> tuple[int, ...]:
    """The distinct values of ``layout`` over its whole domain, ascending (CuTe's image of the function).

    Pre: as :func:`layout_values`. Post: a sorted tuple of ints, ``len <= size``.

    >>> image(Layout((2, 4), (0, 3)))
    (0, 3, 6, 9)
    """
    return tuple(int(x) for x in np.unique(layout_values(layout, "image")))


def is_injective(layout: Any) -> bool:
    """True when no two indices of ``layout`` give the same value.

    Pre: as :func:`layout_values`. Post: ``len(image(L)) == size(L)``.

    >>> is_injective(Layout((4, 2), (2, 1))), is_injective(Layout((4, 2), (1, 1)))
    (True, False)
    """
    vals = layout_values(layout, "is_injective")
    return int(np.unique(vals).size) == int(vals.size)


def is_surjective(layout: Any, codomain_size: Any = None) -> bool:
    """True when ``layout`` hits every integer of ``[0, codomain_size)`` and nothing outside it.

    Pre: as :func:`layout_values`; ``codomain_size`` a non-negative int (default: ``cosize(L)``, so the
    question is "does L leave holes"). Post: ``set(image(L)) == set(range(codomain_size))``.
    A size-0 layout is surjective onto the empty codomain only.

    >>> is_surjective(Layout((4, 2), (2, 1))), is_surjective(Layout(4, 2)), is_surjective(Layout(4, 2), 8)
    (True, False, False)
    >>> is_surjective(Layout((4, 2), (1, 0)), 4)         # a broadcast that covers [0, 4)
    True
    """
    vals = layout_values(layout, "is_surjective")
    if codomain_size is None:
        target = int(vals.max()) + 1 if vals.size else 0
    else:
        target = check_count("is_surjective", "codomain_size", codomain_size, 0)
    if vals.size and int(vals.min()) < 0:
        return False
    img = np.unique(vals)
    return int(img.size) == target and (target == 0 or int(img[-1]) == target - 1)


def is_bijective(layout: Any) -> bool:
    """True when ``layout`` is a permutation of ``[0, size)``: injective and onto ``[0, size)``.

    Pre: as :func:`layout_values`. Post: ``sorted(values) == list(range(size))``.

    >>> is_bijective(Layout((2, 3), (3, 1))), is_bijective(Layout(4, 2))
    (True, False)
    """
    vals = layout_values(layout, "is_bijective")
    return bool(np.array_equal(np.sort(vals), np.arange(vals.size, dtype=np.int64)))


@dataclass(frozen=True)
class Footprint:
    """The offsets a layout touches: ``[min_offset, max_offset]`` (``span`` of them), ``distinct_offsets`` hit,
    ``holes = span - distinct_offsets`` never hit, ``total_elements = size``, ``max_reuse`` the most indices
    sharing one offset (1: injective). A size-0 layout has span 0 and offsets 0.

    >>> footprint(Layout((2, 2), (1, 8)))
    Footprint(min_offset=0, max_offset=9, span=10, distinct_offsets=4, total_elements=4, holes=6, max_reuse=1)
    """

    def __post_init__(self) -> None:
        check_fields(self)

    min_offset: int
    max_offset: int
    span: int
    distinct_offsets: int
    total_elements: int
    holes: int
    max_reuse: int

    @property
    def is_dense(self) -> bool:
        """No holes: the offsets form one contiguous range.

        Pre: none. Post: ``holes == 0``.

        >>> footprint(Layout((4, 2), (2, 1))).is_dense
        True
        """
        return self.holes == 0

    @property
    def reuse_factor(self) -> Fraction:
        """The mean number of indices per distinct offset, ``total_elements / distinct_offsets`` (1: injective).

        Pre: none. Post: a Fraction >= 1 (0 for a size-0 layout); ``max_reuse`` is the largest reuse.

        >>> footprint(Layout((4, 2), (0, 1))).reuse_factor       # 8 indices on 2 offsets
        Fraction(4, 1)
        >>> footprint(Layout((2, 3), (1, 1))).reuse_factor       # 0 1 1 2 2 3: 6 indices on 4 offsets
        Fraction(3, 2)
        """
        return Fraction(self.total_elements, self.distinct_offsets) if self.distinct_offsets else Fraction(0)


def footprint(layout: Any) -> Footprint:
    """The range, density and reuse of the offsets ``layout`` produces.

    Pre: as :func:`layout_values`. Post: a :class:`Footprint`; ``span == max - min + 1`` and
    ``distinct_offsets <= min(span, total_elements)``.

    >>> footprint(Layout((4, 2), (0, 1)))                  # a broadcast: 4 indices on each of 2 offsets
    Footprint(min_offset=0, max_offset=1, span=2, distinct_offsets=2, total_elements=8, holes=0, max_reuse=4)
    """
    vals = layout_values(layout, "footprint")
    if vals.size == 0:
        return Footprint(0, 0, 0, 0, 0, 0, 0)
    uniq, counts = np.unique(vals, return_counts=True)
    lo, hi = int(uniq[0]), int(uniq[-1])
    return Footprint(lo, hi, hi - lo + 1, int(uniq.size), int(vals.size), hi - lo + 1 - int(uniq.size),
                     int(counts.max()))


@dataclass(frozen=True)
class GapProfile:
    """The image of a layout as maximal runs of consecutive offsets ``(first, last)`` (inclusive) and the
    ``gap_sizes`` (offsets missed) between neighbouring runs; ``max_gap`` is 0 for a dense image.

    >>> gaps(Layout((2, 2), (1, 8)))
    GapProfile(runs=((0, 1), (8, 9)), gap_sizes=(6,))
    """

    def __post_init__(self) -> None:
        check_fields(self)

    runs: tuple[tuple[int, int], ...]
    gap_sizes: tuple[int, ...]

    @property
    def max_gap(self) -> int:
        """The largest gap between two runs (0 when the image is one run or empty).

        Pre: none. Post: ``max(gap_sizes, default=0)``.

        >>> gaps(Layout((2, 2), (1, 8))).max_gap
        6
        """
        return max(self.gap_sizes, default=0)


def gaps(layout: Any) -> GapProfile:
    """The runs of consecutive offsets in ``image(layout)`` and the gaps between them.

    Pre: as :func:`layout_values`. Post: ``len(gap_sizes) == len(runs) - 1`` (both empty for a
    size-0 layout); the runs cover exactly the image.

    >>> g = gaps(Layout((2, 2), (1, 8)))
    >>> g.runs, g.gap_sizes
    (((0, 1), (8, 9)), (6,))
    """
    uniq = np.unique(layout_values(layout, "gaps"))
    if uniq.size == 0:
        return GapProfile((), ())
    breaks = np.nonzero(np.diff(uniq) != 1)[0]
    starts = np.concatenate(([0], breaks + 1))
    ends = np.concatenate((breaks, [uniq.size - 1]))
    runs = tuple((int(uniq[s]), int(uniq[e])) for s, e in zip(starts, ends, strict=True))
    return GapProfile(runs, tuple(int(runs[i + 1][0] - runs[i][1] - 1) for i in range(len(runs) - 1)))


@dataclass(frozen=True)
class Aliasing:
    """How many indices share each offset: ``histogram[w]`` offsets are hit by exactly ``w`` indices;
    ``aliased_offsets`` are those hit more than once; ``duplicate_elements = size - distinct offsets``.

    >>> aliasing(Layout((4, 2), (0, 1)))
    Aliasing(histogram={4: 2}, aliased_offsets=(0, 1), duplicate_elements=6)
    """

    def __post_init__(self) -> None:
        check_fields(self)

    histogram: dict[int, int]
    aliased_offsets: tuple[int, ...]
    duplicate_elements: int

    @property
    def max_ways(self) -> int:
        """The most indices that share one offset (1: injective; 0: empty layout).

        Pre: none. Post: ``max(histogram, default=0)``.

        >>> aliasing(Layout((4, 2), (0, 1))).max_ways
        4
        """
        return max(self.histogram, default=0)

    @property
    def has_aliasing(self) -> bool:
        """Some offset is produced by two or more indices (the layout is not injective).

        Pre: none. Post: ``max_ways > 1``.

        >>> aliasing(Layout(8, 1)).has_aliasing
        False
        """
        return self.max_ways > 1


def aliasing(layout: Any) -> Aliasing:
    """The reuse of each offset: which offsets several indices share, and how many share them.

    Pre: as :func:`layout_values`. Post: ``sum(w * c for w, c in histogram.items()) == size``.

    >>> a = aliasing(Layout((2, 3), (1, 1)))               # 0 1 1 2 2 3
    >>> a.histogram, a.aliased_offsets, a.duplicate_elements
    ({1: 2, 2: 2}, (1, 2), 2)
    """
    vals = layout_values(layout, "aliasing")
    uniq, counts = np.unique(vals, return_counts=True)
    ways, nways = np.unique(counts, return_counts=True)
    return Aliasing({int(w): int(c) for w, c in zip(ways, nways, strict=True)},
                    tuple(int(u) for u in uniq[counts > 1]), int(vals.size - uniq.size))


def _permutation(layout: Any, who: str) -> np.ndarray:
    vals = layout_values(layout, who)
    if not np.array_equal(np.sort(vals), np.arange(vals.size, dtype=np.int64)):
        bad = footprint(layout)
        raise LayoutValueError(f"{who}: {layout} is not a permutation of [0, {vals.size}) (its values span "
                               f"[{bad.min_offset}, {bad.max_offset}] with {bad.distinct_offsets} distinct)"[:300])
    return vals


def permutation_cycles(layout: Any) -> tuple[tuple[int, ...], ...]:
    """The cycle decomposition of a layout that permutes ``[0, n)``: ``i -> L(i) -> L(L(i)) ...``.

    Pre: ``layout`` is a bijection of ``[0, size)`` (LayoutValueError otherwise). Post: every index in
    exactly one cycle; each cycle starts at its smallest element; cycles sorted by that element
    (fixed points are 1-cycles).

    >>> permutation_cycles(Layout(4, 1))
    ((0,), (1,), (2,), (3,))
    >>> permutation_cycles(Layout((2, 2), (2, 1)))         # 0 2 1 3: swaps 1 and 2
    ((0,), (1, 2), (3,))
    """
    perm = _permutation(layout, "permutation_cycles")
    seen = np.zeros(perm.size, dtype=bool)
    out = []
    for start in range(perm.size):
        if seen[start]:
            continue
        cyc = []
        i = start
        while not seen[i]:
            seen[i] = True
            cyc.append(i)
            i = int(perm[i])
        out.append(tuple(cyc))
    return tuple(out)


def permutation_parity(layout: Any) -> int:
    """0 for an even permutation, 1 for an odd one: ``(n - number of cycles) mod 2``.

    Pre: as :func:`permutation_cycles`. Post: 0 or 1; the parity of a composition is the sum of the
    parities (mod 2).

    >>> permutation_parity(Layout((2, 2), (2, 1))), permutation_parity(Layout((2, 3), (3, 1)))
    (1, 1)
    """
    cycles = permutation_cycles(layout)
    n = sum(len(c) for c in cycles)
    return (n - len(cycles)) % 2


def permutation_order(layout: Any) -> int:
    """The smallest ``k >= 1`` with ``L^k`` the identity: the lcm of the cycle lengths.

    Pre: as :func:`permutation_cycles`. Post: a positive int (1 for the identity and for size 0).

    >>> permutation_order(Layout((2, 3), (3, 1)))           # cycles of length 1, 4, 1
    4
    """
    return math.lcm(1, *(len(c) for c in permutation_cycles(layout)))


def fixed_points(layout: Any) -> tuple[int, ...]:
    """The indices a layout maps to themselves (``L(i) == i``), ascending: the fixed points of the function.

    Pre: as :func:`layout_values` (any layout with integer values, not only a permutation). Post: a
    sorted tuple of indices in ``[0, size)``.

    >>> fixed_points(Layout((2, 3), (3, 1)))
    (0, 5)
    >>> fixed_points(Layout(4, 0)), fixed_points(Layout(4, 2))      # a broadcast keeps 0; so does 4:2
    ((0,), (0,))
    """
    vals = layout_values(layout, "fixed_points")
    return tuple(int(i) for i in np.nonzero(vals == np.arange(vals.size))[0])
