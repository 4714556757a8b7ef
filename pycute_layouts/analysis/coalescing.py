"""The memory cost of a thread-value access: global-memory sectors and lines, and bank conflicts per thread group.

A *thread-value (TV) layout* maps ``(thread, value)`` to an index (mode 0 is the thread, the
remaining modes the values of one thread; a rank-1 layout is one value per thread), e.g. an MMA
or copy atom's layout from :mod:`pycute_layouts.arch.atoms` or a TiledMma partition. Composed
with the layout of the data (``data_layout``: index -> element offset; default the identity) and
placed at ``base_byte_address``, every (thread, value) gets a byte address
``base_byte_address + element_bytes * data_layout(tv(t, v))``.

**Global memory** (:func:`global_access`). The threads are split into *requests* of
``threads_per_request`` consecutive threads (a warp: 32). A request is served by the 32-byte
*sectors* it touches (the unit DRAM/L2 moves) within 128-byte *lines* (the L1 cache line). For
each request: the distinct sectors and lines, the bytes requested (with duplicates), the distinct
bytes used, and ``sector_efficiency = used bytes / (32 * sectors)`` (1 for a fully coalesced,
aligned access; a warp reading 32 consecutive fp16 values at a 128-byte aligned address uses 2
sectors in 1 line). Nothing is rebased: alignment is part of the answer, and negative addresses
are refused.

**Shared memory, any group and bank geometry** (:func:`group_bank_conflicts`). The threads are split
into groups of ``group_threads`` consecutive threads served together (a warp for 4-byte accesses,
a half-warp for 8-byte, a quarter-warp for 16-byte, a wavefront of 64 on other hardware), memory
into ``num_banks`` banks of ``bank_bytes``; every value of every thread of a group is one access.
A bank serves one distinct word per wavefront (equal words are broadcast), so a group takes
``max over banks of distinct words`` wavefronts; the ideal is ``ceil(distinct words / num_banks)``.
For exactly one warp with the phases of PTX vector accesses, :func:`pycute_layouts.analysis.banks.bank_conflicts`
is the detailed model; this one answers the same question for other groups and geometries.

>>> from pycute_layouts import Layout
>>> r = global_access(Layout((32, 8), (8, 1)), element_bytes=2)       # 32 threads x 8 fp16: 512 contiguous bytes
>>> r.sectors, r.lines, r.sector_efficiency
(16, 4, Fraction(1, 1))
>>> group_bank_conflicts(Layout(32, 32), element_bytes=4).max_ways   # a column of a 32x32 fp32 tile: 32-way
32
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from ..core.composed import ComposedLayout, SwizzledSmemLayout
from ..core.layout import Layout
from ..errors import LayoutTypeError, LayoutValueError
from ..limits import MAX_ELEMENT_BITS, MAX_EVAL_POINTS, check_budget, check_count, check_fields, fmt
from .footprint import layout_values

__all__ = [
    "SECTOR_BYTES",
    "LINE_BYTES",
    "RequestCost",
    "GlobalAccess",
    "GroupBanks",
    "GroupBankConflicts",
    "tv_byte_addresses",
    "global_access",
    "group_bank_conflicts",
]

#: Bytes of a global-memory sector (the unit L2/DRAM transfers).
SECTOR_BYTES = 32

#: Bytes of an L1 cache line (4 sectors).
LINE_BYTES = 128

_MAX_ADDRESS = 1 << 62


def _tv_shape(tv: Any, who: str) -> tuple[int, int]:
    if not isinstance(tv, (Layout, ComposedLayout)):
        raise LayoutTypeError(f"{who}: the thread-value layout must be a Layout or ComposedLayout, got "
                              f"{type(tv).__name__} {fmt(tv)}"[:300])
    lay = tv if isinstance(tv, Layout) else tv.inner
    if not isinstance(lay, Layout) or lay.is_symbolic():
        raise LayoutValueError(f"{who}: the thread-value layout {tv} must have concrete integer shapes"[:300])
    n = int(lay.size())
    if lay.rank() <= 1:
        return n, 1
    nt = int(lay[0].size())
    return nt, (n // nt if nt else 0)


def tv_byte_addresses(tv: Any, *, element_bytes: Any, data_layout: Any = None, base_byte_address: Any = 0,
                      who: str = "tv_byte_addresses") -> np.ndarray:
    """The byte address of every (thread, value) of a TV access, as a (threads, values) int64 array.

    Pre: ``tv`` a Layout / ComposedLayout, mode 0 the thread (rank 1: one value per thread); ``element_bytes``
    a positive int (at most MAX_ELEMENT_BITS / 8); ``data_layout`` None (the TV values are element offsets)
    or a layout of integer values whose domain holds every TV value; ``base_byte_address >= 0``.
    Post: ``out[t, v] = base + element_bytes * data_layout(tv(t, v))``, every entry in [0, 2**62).
    Raises LayoutTypeError / LayoutValueError (a TV value outside data_layout's domain, a negative address,
    more than MAX_EVAL_POINTS points).

    >>> tv_byte_addresses(Layout((2, 2), (2, 1)), element_bytes=4, base_byte_address=64).tolist()
    [[64, 68], [72, 76]]
    """
    ebytes = check_count(who, "element_bytes", element_bytes, 1, MAX_ELEMENT_BITS // 8)
    base = check_count(who, "base_byte_address", base_byte_address, 0, _MAX_ADDRESS)
    nt, nv = _tv_shape(tv, who)
    check_budget(who, f"thread-value layout {tv}"[:200], nt * nv, MAX_EVAL_POINTS)
    idx = layout_values(tv, who)
    if data_layout is not None:
        if not isinstance(data_layout, (Layout, ComposedLayout, SwizzledSmemLayout)):
            raise LayoutTypeError(f"{who}: data_layout must be a Layout, ComposedLayout or SwizzledSmemLayout, got "
                                  f"{type(data_layout).__name__}"[:300])
        table = layout_values(data_layout, who)
        if idx.size and (int(idx.min()) < 0 or int(idx.max()) >= table.size):
            raise LayoutValueError(f"{who}: the thread-value layout reaches index {int(idx.max())} (min "
                                   f"{int(idx.min())}), outside data_layout's domain [0, {table.size})"[:300])
        idx = table[idx] if idx.size else idx
    if idx.size and (int(idx.min()) < 0 or base + ebytes * int(idx.max()) >= _MAX_ADDRESS):
        raise LayoutValueError(f"{who}: element offsets must be in [0, 2**62 / element_bytes) (global and shared "
                               f"addresses are not negative); got [{int(idx.min())}, {int(idx.max())}]")
    return (base + ebytes * idx).reshape(nv, nt).T


def _threads_per(value: Any, name: str, who: str) -> int:
    return check_count(who, name, value, 1, 1 << 16)


@dataclass(frozen=True)
class RequestCost:
    """One request (a group of threads issued together) to global memory.

    ``threads`` is ``(first, last + 1)``; ``sectors``/``lines`` the distinct 32-byte sectors and 128-byte
    lines touched (their indices: ``address // 32``, ``address // 128``); ``requested_bytes`` every
    thread's bytes (duplicates counted), ``used_bytes`` the distinct bytes.

    >>> global_access(Layout(32, 1), element_bytes=4).requests[0]   # 32 threads x 4 bytes: bytes 0..127
    RequestCost(threads=(0, 32), sector_ids=(0, 1, 2, 3), line_ids=(0,), requested_bytes=128, used_bytes=128)
    """

    def __post_init__(self) -> None:
        check_fields(self)

    threads: tuple[int, int]
    sector_ids: tuple[int, ...]
    line_ids: tuple[int, ...]
    requested_bytes: int
    used_bytes: int

    @property
    def sectors(self) -> int:
        """Distinct 32-byte sectors the request touches.

        Pre: none. Post: ``len(sector_ids)``.

        >>> global_access(Layout(32, 1), element_bytes=4).requests[0].sectors
        4
        """
        return len(self.sector_ids)

    @property
    def lines(self) -> int:
        """Distinct 128-byte lines the request touches.

        Pre: none. Post: ``len(line_ids)``.

        >>> global_access(Layout(32, 32), element_bytes=4).requests[0].lines
        32
        """
        return len(self.line_ids)

    @property
    def transferred_bytes(self) -> int:
        """Bytes the request's sectors move: ``32 * sectors``.

        Pre: none. Post: a non-negative multiple of 32.

        >>> global_access(Layout(32, 2), element_bytes=2).requests[0].transferred_bytes   # 4 sectors
        128
        """
        return SECTOR_BYTES * self.sectors

    @property
    def sector_efficiency(self) -> Fraction:
        """Distinct bytes used / bytes the sectors move (1 when nothing is wasted).

        Pre: none. Post: a Fraction in (0, 1] (1 for a request that touches nothing).

        >>> global_access(Layout(32, 1), element_bytes=2).requests[0].sector_efficiency   # 64 bytes in 2 sectors
        Fraction(1, 1)
        """
        return Fraction(self.used_bytes, self.transferred_bytes) if self.sectors else Fraction(1)

    @property
    def line_efficiency(self) -> Fraction:
        """Distinct bytes used / bytes of the 128-byte lines touched (the L1 view of coalescing).

        Pre: none. Post: a Fraction in (0, 1] (1 for a request that touches nothing).

        >>> global_access(Layout(32, 1), element_bytes=2).requests[0].line_efficiency     # 64 bytes of one line
        Fraction(1, 2)
        >>> global_access(Layout(32, 64), element_bytes=2).requests[0].line_efficiency    # 2 bytes in each of 32 lines
        Fraction(1, 64)
        """
        return Fraction(self.used_bytes, LINE_BYTES * self.lines) if self.lines else Fraction(1)


@dataclass(frozen=True)
class GlobalAccess:
    """Global-memory cost of a TV access: one :class:`RequestCost` per request, and the totals.

    >>> r = global_access(Layout(32, 1), element_bytes=4)
    >>> r.threads_per_request, len(r.requests), r.sectors, r.lines
    (32, 1, 4, 1)
    """

    def __post_init__(self) -> None:
        check_fields(self)

    element_bytes: int
    threads_per_request: int
    requests: tuple[RequestCost, ...]

    @property
    def sectors(self) -> int:
        """Sectors summed over the requests (a sector two requests touch counts twice: two transactions).

        Pre: none. Post: a non-negative int.

        >>> global_access(Layout(64, 1), element_bytes=4).sectors
        8
        """
        return sum(r.sectors for r in self.requests)

    @property
    def lines(self) -> int:
        """Lines summed over the requests.

        Pre: none. Post: a non-negative int.

        >>> global_access(Layout(64, 1), element_bytes=4).lines
        2
        """
        return sum(r.lines for r in self.requests)

    @property
    def sector_efficiency(self) -> Fraction:
        """Distinct bytes used / bytes the sectors move (summed over requests); 1 when nothing is wasted.

        Pre: none. Post: a Fraction in (0, 1] (1 for no request).

        >>> global_access(Layout(32, 2), element_bytes=4).sector_efficiency    # every other word
        Fraction(1, 2)
        """
        moved = SECTOR_BYTES * self.sectors
        return Fraction(sum(r.used_bytes for r in self.requests), moved) if moved else Fraction(1)

    @property
    def line_efficiency(self) -> Fraction:
        """Distinct bytes used / bytes of the 128-byte lines touched (summed over requests).

        Pre: none. Post: a Fraction in (0, 1] (1 for no request).

        >>> global_access(Layout(32, 1), element_bytes=4).line_efficiency      # 128 bytes: one full line
        Fraction(1, 1)
        """
        moved = LINE_BYTES * self.lines
        return Fraction(sum(r.used_bytes for r in self.requests), moved) if moved else Fraction(1)

    @property
    def is_coalesced(self) -> bool:
        """Every request touches the fewest sectors its distinct bytes could fill (``ceil(used / 32)``).

        Pre: none. Post: a bool.

        >>> global_access(Layout(32, 1), element_bytes=4).is_coalesced, global_access(Layout(32, 2), element_bytes=4).is_coalesced
        (True, False)
        """
        return all(r.sectors == -(-r.used_bytes // SECTOR_BYTES) for r in self.requests)


def global_access(tv: Any, *, element_bytes: Any, data_layout: Any = None, base_byte_address: Any = 0,
                  threads_per_request: Any = 32) -> GlobalAccess:
    """Sectors, lines and efficiency of a thread-value access to global memory, per request of ``threads_per_request`` threads.

    Pre: as :func:`tv_byte_addresses`; ``threads_per_request`` in [1, 65536] (the last request may be
    partial). Post: a :class:`GlobalAccess`; each thread's values are its accesses (a vectorised load).

    >>> r = global_access(Layout(32, 1), element_bytes=2, base_byte_address=96)   # bytes 96..159: across a line end
    >>> r.sectors, r.lines, r.requests[0].sector_ids
    (2, 2, (3, 4))
    """
    who = "global_access"
    tpr = _threads_per(threads_per_request, "threads_per_request", who)
    addr = tv_byte_addresses(tv, element_bytes=element_bytes, data_layout=data_layout,
                             base_byte_address=base_byte_address, who=who)
    eb = int(element_bytes)
    reqs = []
    for t0 in range(0, addr.shape[0], tpr):
        a = addr[t0:t0 + tpr].reshape(-1)
        uniq = np.unique(a)
        # bytes [a, a + eb): sectors from a // 32 to (a + eb - 1) // 32
        first, last = uniq // SECTOR_BYTES, (uniq + eb - 1) // SECTOR_BYTES
        span = int((last - first).max()) + 1 if uniq.size else 0
        sectors = np.unique(np.concatenate([first + k for k in range(span)])[
            np.concatenate([first + k <= last for k in range(span)])]) if span else uniq
        used = _distinct_bytes(uniq, eb)
        reqs.append(RequestCost((t0, min(t0 + tpr, addr.shape[0])), tuple(int(s) for s in sectors),
                                tuple(int(x) for x in np.unique(sectors // (LINE_BYTES // SECTOR_BYTES))),
                                int(a.size) * eb, used))
    return GlobalAccess(eb, tpr, tuple(reqs))


def _distinct_bytes(starts: np.ndarray, width: int) -> int:
    """Bytes covered by the union of [s, s + width) over sorted distinct starts."""
    if starts.size == 0:
        return 0
    gaps = np.diff(starts)
    return int(width + np.minimum(gaps, width).sum())


@dataclass(frozen=True)
class GroupBanks:
    """One group of threads served together: ``threads = (first, last + 1)``, ``words_per_bank[b]`` the distinct
    words bank ``b`` must serve, ``wavefronts`` the most of them (at least 1 when the group accesses anything),
    ``ideal_wavefronts = ceil(distinct words / num_banks)``.

    >>> g = group_bank_conflicts(Layout(32, 2), element_bytes=4).groups[0]   # thread t: word 2t, bank 2t % 32
    >>> g.threads, g.wavefronts, g.ideal_wavefronts, g.words_per_bank[:4]
    ((0, 32), 2, 1, (2, 0, 2, 0))
    """

    def __post_init__(self) -> None:
        check_fields(self)

    threads: tuple[int, int]
    words_per_bank: tuple[int, ...]
    wavefronts: int
    ideal_wavefronts: int


@dataclass(frozen=True)
class GroupBankConflicts:
    """Shared-memory bank conflicts of a TV access, group by group, for ``num_banks`` banks of ``bank_bytes``.

    >>> r = group_bank_conflicts(Layout(32, 2), element_bytes=4)   # stride 2 words: 16 banks, 2 words each
    >>> r.num_banks, r.bank_bytes, r.group_threads, r.wavefronts
    (32, 4, 32, 2)
    """

    def __post_init__(self) -> None:
        check_fields(self)

    num_banks: int
    bank_bytes: int
    group_threads: int
    groups: tuple[GroupBanks, ...]

    @property
    def wavefronts(self) -> int:
        """Wavefronts summed over the groups.

        Pre: none. Post: a non-negative int, at least :attr:`ideal_wavefronts`.

        >>> group_bank_conflicts(Layout(64, 1), element_bytes=4).wavefronts
        2
        """
        return sum(g.wavefronts for g in self.groups)

    @property
    def ideal_wavefronts(self) -> int:
        """The fewest wavefronts the distinct words allow, summed over the groups.

        Pre: none. Post: a non-negative int.

        >>> group_bank_conflicts(Layout(32, 2), element_bytes=4).ideal_wavefronts
        1
        """
        return sum(g.ideal_wavefronts for g in self.groups)

    @property
    def max_ways(self) -> int:
        """The worst conflict: the most distinct words one bank serves for one group (1: conflict-free).

        Pre: none. Post: a non-negative int.

        >>> group_bank_conflicts(Layout(32, 2), element_bytes=4).max_ways                   # 2-way
        2
        """
        return max((g.wavefronts for g in self.groups), default=0)

    @property
    def is_conflict_free(self) -> bool:
        """Every group is served in its ideal number of wavefronts.

        Pre: none. Post: ``wavefronts == ideal_wavefronts``.

        >>> group_bank_conflicts(Layout(32, 1), element_bytes=4).is_conflict_free
        True
        """
        return self.wavefronts == self.ideal_wavefronts


def group_bank_conflicts(tv: Any, *, element_bytes: Any, data_layout: Any = None, base_byte_address: Any = 0,
                         group_threads: Any = 32, num_banks: Any = 32, bank_bytes: Any = 4) -> GroupBankConflicts:
    """Bank conflicts of a TV access to shared memory, for each group of ``group_threads`` threads.

    Pre: as :func:`tv_byte_addresses`; ``group_threads`` in [1, 65536]; ``num_banks`` in [1, 1024];
    ``bank_bytes`` in [1, 128]. Post: a :class:`GroupBankConflicts`; an element wider than a bank
    touches several consecutive words; two threads on the same word never conflict.

    >>> r = group_bank_conflicts(Layout((8, 4), (4, 1)), element_bytes=4, group_threads=8)  # 8 threads x 16 bytes
    >>> r.max_ways, r.groups[0].words_per_bank[:4]
    (1, (1, 1, 1, 1))
    >>> group_bank_conflicts(Layout(64, 1), element_bytes=4, num_banks=64).groups[0].wavefronts   # 64 banks
    1
    """
    who = "group_bank_conflicts"
    gt = _threads_per(group_threads, "group_threads", who)
    nb = check_count(who, "num_banks", num_banks, 1, 1024)
    bb = check_count(who, "bank_bytes", bank_bytes, 1, 128)
    addr = tv_byte_addresses(tv, element_bytes=element_bytes, data_layout=data_layout,
                             base_byte_address=base_byte_address, who=who)
    eb = int(element_bytes)
    groups = []
    for t0 in range(0, addr.shape[0], gt):
        a = np.unique(addr[t0:t0 + gt].reshape(-1))
        if a.size:
            first, last = a // bb, (a + eb - 1) // bb
            span = int((last - first).max()) + 1
            words = np.unique(np.concatenate([first + k for k in range(span)])[
                np.concatenate([first + k <= last for k in range(span)])])
        else:
            words = a
        per_bank = np.bincount(words % nb, minlength=nb) if words.size else np.zeros(nb, dtype=np.int64)
        groups.append(GroupBanks((t0, min(t0 + gt, addr.shape[0])), tuple(int(x) for x in per_bank),
                                 int(per_bank.max()), -(-int(words.size) // nb)))
    return GroupBankConflicts(nb, bb, gt, tuple(groups))
