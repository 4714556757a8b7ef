"""Shared-memory bank conflicts of one warp-wide access, and a search for swizzles that remove them.

The model (the one NVIDIA documents for shared memory since Kepler, and the one CuTe and Triton
reason with):

* Shared memory has **32 banks of 4 bytes**: byte address ``a`` lies in the 4-byte *word*
  ``a // 4``, held by bank ``(a // 4) % 32``.
* One instruction of a warp is served in **phases**. Accesses of at most 4 bytes per thread
  take one phase over the 32 threads; 8-byte accesses take two (threads 0-15, 16-31, the
  "half-warps"); 16-byte accesses take four (threads 0-7, 8-15, 16-23, 24-31, the
  "quarter-warps"). ``ldmatrix``/``stmatrix`` are 16-byte accesses: each of the 8 row
  addresses of an 8x8 b16 matrix names 16 contiguous bytes, and one matrix (8 rows x 16 bytes
  = 128 bytes, the width of the 32 banks) is one phase; ``.x1`` takes the addresses of threads
  0-7, ``.x2`` of 0-15, ``.x4`` of 0-31.
* Within a phase, threads that touch **distinct words of the same bank** conflict: the bank
  serves them one per *wavefront*. Threads that touch the **same word** are served together
  (broadcast / multicast), so they never conflict.
* ``wavefronts = sum over phases of (max over banks of distinct words in that bank)``. The
  ideal is one wavefront per phase that has an active thread; ``conflict_degree`` is the
  largest number of distinct words any bank must serve in one phase ("8-way").

A thread with an access of ``access_bytes`` bytes at byte address ``a`` touches the
``ceil(access_bytes / 4)`` words starting at word ``a // 4``; ``a`` must be a multiple of
``access_bytes`` (the hardware's alignment rule for vector accesses).

The classic result, an unswizzled K-major bf16 tile with 128-byte rows read by ``ldmatrix.x4``
(every matrix is rows 0-7 of one 16-byte column): all 8 rows of a column sit in the same 4 banks.

>>> from pycute_layouts import Layout, Swizzle, SwizzledSmemLayout
>>> tile = Layout((8, 64), (64, 1))
>>> r = bank_conflicts(SwizzledSmemLayout(Swizzle(0, 4, 3), tile, 16), ldmatrix_pattern(4))
>>> r.wavefronts, r.ideal_wavefronts, r.conflict_degree
(32, 4, 8)
>>> bank_conflicts(SwizzledSmemLayout(Swizzle(3, 4, 3), tile, 16), ldmatrix_pattern(4)).wavefronts
4
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..arch.access import (
    WARP_THREADS,
    AccessPattern,
    check_access_bytes,
    ldmatrix_pattern,
    parse_pattern,
    stmatrix_pattern,
    vector_pattern,
    warp_coords,
)
from ..arch.swizzle_modes import SwizzleMode
from ..arch.tma import swizzle_byte_map
from ..core.composed import ComposedLayout, SwizzledSmemLayout, check_swizzle_unit, smem_layout_of, swizzle_forms
from ..core.layout import Layout, require_offsets
from ..core.swizzle import Swizzle, XorSwizzle
from ..errors import LayoutError, LayoutTypeError, LayoutValueError, UnitError
from ..limits import check_fields, fmt

__all__ = [
    "NUM_BANKS",
    "BANK_WIDTH_BYTES",
    "AccessPattern",
    "BankConflicts",
    "SwizzleCandidate",
    "bank_conflicts",
    "ldmatrix_pattern",
    "stmatrix_pattern",
    "vector_pattern",
    "conflict_free_swizzles",
    "parse_pattern",
    "phases_for",
]

#: Number of shared-memory banks.
NUM_BANKS = 32
#: Width of one bank (one word), in bytes.
BANK_WIDTH_BYTES = 4


def phases_for(access_bytes: int) -> tuple[tuple[int, ...], ...]:
    """The threads served together in each phase: one pass (<= 4 B), half-warps (8 B), quarter-warps (16 B).

    >>> [len(p) for p in phases_for(4)], [p[0] for p in phases_for(16)]
    ([32], [0, 8, 16, 24])
    """
    ab = check_access_bytes(access_bytes, "phases_for")
    n = max(1, ab // BANK_WIDTH_BYTES)
    per = WARP_THREADS // n
    return tuple(tuple(range(k * per, (k + 1) * per)) for k in range(n))


# --------------------------------------------------------------------------------------------------
# The layout -> byte address function
# --------------------------------------------------------------------------------------------------


def _byte_address_fn(layout: Any, element_bits: Any, who: str,
                      swizzle_unit: str = "elements") -> tuple[Callable[[Any], int], Any]:
    """(coordinate -> byte address, the domain Layout used to check coordinates or None)."""
    if element_bits is not None and isinstance(layout, (Layout, ComposedLayout, SwizzledSmemLayout)):
        layout = smem_layout_of(layout, element_bits, swizzle_unit=swizzle_unit, who=who)
    elif element_bits is not None:
        raise UnitError(f"{who}: element_bits applies to a Layout, ComposedLayout or SwizzledSmemLayout; a callable "
                        "layout must return byte addresses itself")
    if isinstance(layout, SwizzledSmemLayout):
        s = layout

        def f_smem(c: Any) -> int:
            return int(s.byte_address(*c) if isinstance(c, tuple) else s.byte_address(c))

        return f_smem, s.layout
    if isinstance(layout, (Layout, ComposedLayout)):
        lay = layout
        if isinstance(lay, Layout):
            require_offsets(lay, who)
        if lay.is_symbolic():
            raise LayoutValueError(f"{who}: the layout {lay} has unbound symbols; bind them first (subs)")

        def f_lay(c: Any) -> int:
            return int(lay(*c) if isinstance(c, tuple) else lay(c))

        dom = lay if isinstance(lay, Layout) else _domain_layout(lay)
        return f_lay, dom
    if callable(layout):
        fn = layout

        def f_call(c: Any) -> int:
            return fn(*c) if isinstance(c, tuple) else fn(c)

        return f_call, None
    raise LayoutTypeError(f"{who}: layout must be a SwizzledSmemLayout, a Layout or ComposedLayout giving byte "
                          f"addresses, or a callable coordinate -> byte address, got {type(layout).__name__}")


def _domain_layout(c: ComposedLayout) -> Layout:
    inner = c.inner
    while isinstance(inner, ComposedLayout):
        inner = inner.inner
    return inner


def as_smem_layout(layout: Any, element_bits: Any, who: str, swizzle_unit: str = "elements") -> SwizzledSmemLayout:
    """An element layout (optionally ``Swizzle o offset o Layout``) as a SwizzledSmemLayout, by CuTe's unit rule.

    Pre: ``element_bits`` is a positive int; ``layout`` is a Layout, ``Swizzle o offset o Layout`` or a
    SwizzledSmemLayout. Post: :func:`~pycute_layouts.core.composed.smem_layout_of` (the swizzle of
    ``Sw o k o L`` acts on element offsets unless ``swizzle_unit="bytes"``); ``who`` prefixes errors.

    >>> print(as_smem_layout(Layout((8, 64), (64, 1)), 16, "example").element_bits)
    16
    """
    return smem_layout_of(layout, element_bits, swizzle_unit=swizzle_unit, who=who)


def _check_coord_in(dom: Layout | None, c: Any, t: int, who: str) -> None:
    if dom is None:
        return
    try:
        if isinstance(c, tuple):
            dom(*c, check=True) if len(c) != 1 else dom(c[0], check=True)
        else:
            dom(c, check=True)
    except LayoutError as e:
        raise type(e)(f"{who}: thread {t}: coordinate {c} is not in the layout's domain: {e}") from None


# --------------------------------------------------------------------------------------------------
# The analysis
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BankConflicts:
    """The result of :func:`bank_conflicts` (see the module docstring for the model).

    - ``wavefronts``: shared-memory wavefronts (transactions) the instruction needs;
    - ``ideal_wavefronts``: one per phase with an active thread;
    - ``conflict_degree``: most distinct words one bank serves in one phase (1: conflict-free);
    - ``per_bank``: for each of the 32 banks, that maximum over the phases (0: bank unused);
    - ``phase_bank_words``: per phase, the number of distinct words requested from each bank;
    - ``thread_addresses`` / ``thread_banks``: each thread's byte address and the banks it touches
      (None / () for threads without an address);
    - ``phase_words``: per phase, per bank, the sorted distinct words with the first thread that
      asked for each (used by :meth:`picture`).

    >>> from pycute_layouts import Layout
    >>> r = bank_conflicts(Layout(32, 8), list(range(32)), 4)    # stride 8 bytes: 2-way
    >>> r.wavefronts, r.conflict_degree, r.per_bank[:4], r.thread_banks[:3]
    (2, 2, (2, 0, 2, 0), ((0,), (2,), (4,)))
    """

    access_bytes: int
    pattern: str
    phases: tuple[tuple[int, ...], ...]
    thread_coords: tuple[Any, ...]
    thread_addresses: tuple[int | None, ...]
    thread_banks: tuple[tuple[int, ...], ...]
    phase_bank_words: tuple[tuple[int, ...], ...]
    phase_words: tuple[tuple[tuple[tuple[int, int], ...], ...], ...]
    wavefronts: int
    ideal_wavefronts: int
    conflict_degree: int
    per_bank: tuple[int, ...]

    def __post_init__(self) -> None:
        check_fields(self)

    @property
    def is_conflict_free(self) -> bool:
        """True when every phase takes one wavefront.

        >>> from pycute_layouts import Layout
        >>> bank_conflicts(Layout(32, 4), list(range(32)), 4).is_conflict_free
        True
        """
        return self.wavefronts == self.ideal_wavefronts

    def picture(self) -> str:
        """Which thread hits which bank: one line per wavefront, one column per bank.

        A cell holds the (first) thread whose word that bank serves in that wavefront, ``.`` if
        the bank is idle. A conflict-free phase is one line; an n-way conflict, n lines.

        >>> from pycute_layouts import Layout
        >>> print(bank_conflicts(Layout(32, 8), list(range(32)), 4).picture().splitlines()[2][:40])
          0   0 |  0  .  1  .  2  .  3  .  4  .
        """
        head = "phase wf | " + " ".join(f"{b:>2}" for b in range(NUM_BANKS))
        lines = [head, "-" * len(head)]
        for p, banks in enumerate(self.phase_words):
            depth = max((len(w) for w in banks), default=0)
            for k in range(depth):
                cells = []
                for b in range(NUM_BANKS):
                    cells.append(f"{banks[b][k][1]:>2}" if k < len(banks[b]) else " .")
                lines.append(f"{p:>3} {k:>3} | " + " ".join(cells))
        return "\n".join(lines)

    def to_text(self) -> str:
        """A summary line, the per-bank counts and the picture.

        >>> from pycute_layouts import Layout
        >>> print(bank_conflicts(Layout(32, 4), list(range(32)), 4).to_text().splitlines()[0])
        vector: 4-byte accesses, 1 phase(s), 1 wavefront(s) (ideal 1): conflict-free
        """
        verdict = "conflict-free" if self.is_conflict_free else f"{self.conflict_degree}-way bank conflict"
        lines = [
            f"{self.pattern}: {self.access_bytes}-byte accesses, {len(self.phases)} phase(s), {self.wavefronts} "
            f"wavefront(s) (ideal {self.ideal_wavefronts}): {verdict}",
            "distinct words per bank (max over phases): " + " ".join(str(x) for x in self.per_bank),
            self.picture(),
        ]
        return "\n".join(lines)

    def to_dict(self) -> dict:
        """A JSON-ready dict of the result.

        >>> from pycute_layouts import Layout
        >>> bank_conflicts(Layout(32, 4), list(range(32)), 4).to_dict()["wavefronts"]
        1
        """
        return {
            "pattern": self.pattern,
            "access_bytes": self.access_bytes,
            "wavefronts": self.wavefronts,
            "ideal_wavefronts": self.ideal_wavefronts,
            "conflict_degree": self.conflict_degree,
            "conflict_free": self.is_conflict_free,
            "per_bank": list(self.per_bank),
            "phases": [list(p) for p in self.phases],
            "phase_bank_words": [list(p) for p in self.phase_bank_words],
            "thread_addresses": list(self.thread_addresses),
            "thread_banks": [list(b) for b in self.thread_banks],
            "thread_coords": [_jsonable(c) for c in self.thread_coords],
        }


def _jsonable(c: Any) -> Any:
    if isinstance(c, tuple):
        return [_jsonable(x) for x in c]
    return c


def bank_conflicts(layout: Any, thread_offsets: Any, access_bytes: int | None = None, *,
                   element_bits: int | None = None, swizzle_unit: str = "elements") -> BankConflicts:
    """Wavefronts and bank conflicts of one warp access through a shared-memory layout.

    ``layout`` maps a coordinate to a BYTE address, swizzle included: a
    :class:`~pycute_layouts.core.composed.SwizzledSmemLayout` (CuTe's pointer form
    ``Sw o smem_ptr[Nb](..) o L``, its ``byte_address``), a Layout or ComposedLayout whose values
    are byte addresses, or a callable. With ``element_bits``, a Layout or ``Swizzle o offset o
    Layout`` is instead an element layout read by CuTe's unit rule
    (:func:`~pycute_layouts.core.composed.smem_layout_of`): its swizzle acts on element offsets, so
    ``Sw<3,3,3> o 0 o L`` on 16-bit elements is the 128B atom. ``swizzle_unit="bytes"`` reads the
    swizzle of ``Sw o k o L`` on byte addresses instead (PTX's reading; prefer the pointer form).

    ``thread_offsets``: an :class:`AccessPattern` (e.g. :func:`ldmatrix_pattern`), an ldmatrix/stmatrix
    copy atom of :mod:`pycute_layouts.arch.atoms` (its ``access_pattern()``: matrix ``m`` at the
    ``m``-th 16-byte column of rows 0-7), 32
    coordinates (None: inactive thread), a ``(32,)``/``(32, rank)`` numpy array, or a thread ->
    linear-index Layout of size 32. ``access_bytes``: 1, 2, 4, 8 or 16 (taken from the pattern
    when omitted); every address must be a multiple of it.

    Raises :class:`~pycute_layouts.errors.LayoutValueError` for a warp that is not 32 threads, a
    bad access width or a misaligned address; CoordinateError for coordinates outside the layout.

    >>> from pycute_layouts import Layout, Swizzle, SwizzledSmemLayout
    >>> r = bank_conflicts(Layout((8, 64), (64, 1)), ldmatrix_pattern(4), element_bits=16)
    >>> r.wavefronts, r.conflict_degree, r.thread_banks[1]
    (32, 8, (0, 1, 2, 3))
    >>> bank_conflicts(ComposedLayout(Swizzle(3, 3, 3), 0, Layout((8, 64), (64, 1))), ldmatrix_pattern(4),
    ...                element_bits=16).wavefronts
    4
    >>> bank_conflicts(Layout(32, 2), list(range(32)), 4)
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.LayoutValueError: bank_conflicts: thread 1 accesses 4 bytes at byte address 2, ...
    """
    who = "bank_conflicts"
    check_swizzle_unit(swizzle_unit, who)
    pat = _access_pattern(thread_offsets, access_bytes, element_bits, who)
    ab = pat.access_bytes
    fn, dom = _byte_address_fn(layout, element_bits, who, swizzle_unit)
    hint = ("" if element_bits is not None or isinstance(layout, SwizzledSmemLayout) else
            "; without element_bits the layout's values are read as byte addresses: for a layout in elements "
            "pass element_bits (--element-bits)")
    addrs = [None if c is None else _thread_address(fn, dom, c, t, ab, hint, who) for t, c in enumerate(pat.coords)]
    nwords = max(1, ab // BANK_WIDTH_BYTES)
    thread_banks = tuple(() if a is None else tuple((a // 4 + k) % NUM_BANKS for k in range(nwords)) for a in addrs)
    phases = tuple(p for p in phases_for(ab) if any(addrs[t] is not None for t in p))
    pwords = [_phase_words(addrs, p, nwords) for p in phases]
    counts = [tuple(len(d) for d in words) for words in pwords]
    wavefronts = sum(max(c) for c in counts)
    per_bank = tuple(max((c[b] for c in counts), default=0) for b in range(NUM_BANKS))
    return BankConflicts(
        access_bytes=ab, pattern=pat.name, phases=phases, thread_coords=pat.coords,
        thread_addresses=tuple(addrs), thread_banks=thread_banks, phase_bank_words=tuple(counts),
        phase_words=tuple(tuple(tuple(sorted(d.items())) for d in words) for words in pwords),
        wavefronts=wavefronts, ideal_wavefronts=len(phases), conflict_degree=max(per_bank, default=0),
        per_bank=per_bank,
    )


def _access_pattern(thread_offsets: Any, access_bytes: Any, element_bits: int | None, who: str,
                    arg: str = "thread_offsets") -> AccessPattern:
    # Pre:  none (user input).  Post: the warp's AccessPattern: a copy atom's own, the one given (its width
    #       agreeing with access_bytes), or 32 coordinates read at access_bytes (then required).
    if callable(getattr(thread_offsets, "access_pattern", None)):  # a copy atom (arch.atoms): its own addresses
        thread_offsets = thread_offsets.access_pattern(element_bits=element_bits or 16)
    if isinstance(thread_offsets, AccessPattern):
        pat = thread_offsets
        if access_bytes is not None and check_access_bytes(access_bytes, who) != pat.access_bytes:
            raise LayoutValueError(f"{who}: access_bytes={access_bytes} contradicts the pattern {fmt(pat.name)}, "
                                   f"which accesses {pat.access_bytes} bytes per thread")
        return pat
    if access_bytes is None:
        raise LayoutValueError(f"{who}: access_bytes is required unless {arg} is an AccessPattern")
    return AccessPattern("vector", check_access_bytes(access_bytes, who), warp_coords(thread_offsets, who))


def _thread_address(fn: Any, dom: Any, c: Any, t: int, ab: int, hint: str, who: str) -> int:
    # Pre:  fn maps a coordinate of the domain dom to a byte address.
    # Post: thread t's byte address: a non-negative int, a multiple of the access width ab.
    _check_coord_in(dom, c, t, who)
    a = fn(c)
    if isinstance(a, bool) or not isinstance(a, (int, np.integer)):
        raise LayoutTypeError(f"{who}: thread {t}: the layout gave {fmt(a)} for coordinate {c}, not an integer "
                              "byte address")
    a = int(a)
    if a < 0:
        raise LayoutValueError(f"{who}: thread {t}: coordinate {c} has the negative byte address {a}")
    if a % ab:
        raise LayoutValueError(f"{who}: thread {t} accesses {ab} bytes at byte address {a}, which is not a "
                               f"multiple of {ab} (vector accesses must be naturally aligned); coordinate {c}{hint}")
    return a


def _phase_words(addrs: list, phase: tuple[int, ...], nwords: int) -> list[dict[int, int]]:
    # Pre:  addrs the threads' byte addresses (None: inactive).  Post: per bank, the distinct 4-byte words the
    #       threads of one phase access, each mapped to the first thread that accesses it.
    words: list[dict[int, int]] = [{} for _ in range(NUM_BANKS)]
    for t in phase:
        a = addrs[t]
        if a is None:
            continue
        for k in range(nwords):
            w = a // 4 + k
            words[w % NUM_BANKS].setdefault(w, t)
    return words


# --------------------------------------------------------------------------------------------------
# Swizzle search
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SwizzleCandidate:
    """One swizzle tried by :func:`conflict_free_swizzles` and its result.

    ``swizzle``: the swizzle on byte addresses (CuTe's pointer form ``Sw o smem_ptr[Nb](unset) o L``);
    ``element_swizzle``: the same placement on ``element_bits``-bit element offsets (CuTe's
    ``Sw o 0 o L``), or None where no element-offset swizzle is equivalent; :meth:`forms` prints both.
    ``tma_modes``: the TMA modes (``SwizzleMode.tma_name``) whose byte map is this swizzle;
    ``wgmma_mode``: the MMA swizzle mode name, or None.

    >>> from pycute_layouts import Layout
    >>> c = conflict_free_swizzles(Layout((8, 64), (64, 1)), ldmatrix_pattern(4), element_bits=16)[0]
    >>> str(c.swizzle), str(c.element_swizzle), c.wavefronts, c.tma_modes, c.wgmma_mode
    ('Sw<3,4,3>', 'Sw<3,3,3>', 4, ('128B',), '128B')
    >>> c.forms()
    'Sw<3,4,3> o smem_ptr[16b](unset) o L = Sw<3,3,3> o 0 o L on 16-bit elements'
    """

    swizzle: Swizzle | XorSwizzle
    wavefronts: int
    ideal_wavefronts: int
    conflict_degree: int
    tma_modes: tuple[str, ...]
    wgmma_mode: str | None
    element_bits: int | None = None

    @property
    def element_swizzle(self) -> Swizzle | XorSwizzle | None:
        """The swizzle on element offsets equal to :attr:`swizzle` on bytes (None: no such swizzle or width unknown).

        >>> print(SwizzleCandidate(Swizzle(3, 4, 3), 4, 4, 1, ("128B",), "128B", 32).element_swizzle)
        Sw<3,2,3>
        """
        if self.element_bits is None:
            return None
        try:
            return SwizzledSmemLayout(self.swizzle, Layout(1), self.element_bits).element_swizzle()
        except LayoutError:
            return None

    def forms(self, layout: str = "L") -> str:
        """Both spellings: the pointer form and the element-unit form (see ``swizzle_forms``).

        >>> SwizzleCandidate(Swizzle(2, 4, 3), 4, 4, 1, ("64B",), "64B", 8).forms()
        'Sw<2,4,3> o smem_ptr[8b](unset) o L = Sw<2,4,3> o 0 o L on 8-bit elements'
        """
        if self.element_bits is None:
            return f"{self.swizzle} (on byte addresses)"
        return swizzle_forms(self.swizzle, self.element_bits, layout)

    def __post_init__(self) -> None:
        check_fields(self)

    @property
    def is_conflict_free(self) -> bool:
        """True when the access takes one wavefront per phase through this swizzle.

        >>> SwizzleCandidate(Swizzle(1, 4, 3), 8, 4, 2, ("32B",), "32B").is_conflict_free
        False
        """
        return self.wavefronts == self.ideal_wavefronts

    def to_dict(self) -> dict:
        """A JSON-ready dict.

        >>> SwizzleCandidate(Swizzle(1, 4, 3), 8, 4, 2, ("32B",), "32B").to_dict()["swizzle"]
        'Sw<1,4,3>'
        """
        el = self.element_swizzle
        return {"swizzle": str(self.swizzle), "byte_swizzle": str(self.swizzle),
                "element_swizzle": None if el is None else str(el), "element_bits": self.element_bits,
                "forms": self.forms(), "wavefronts": self.wavefronts, "ideal_wavefronts": self.ideal_wavefronts,
                "conflict_degree": self.conflict_degree, "conflict_free": self.is_conflict_free,
                "tma_modes": list(self.tma_modes), "wgmma_mode": self.wgmma_mode}


def tma_swizzle_maps() -> list[tuple[str, Swizzle | XorSwizzle]]:
    """Every TMA swizzle mode's name and its byte map.

    >>> [name for name, _ in tma_swizzle_maps()][:4]
    ['NONE', '32B', '64B', '128B']
    """
    return [(m.tma_name, swizzle_byte_map(m)) for m in SwizzleMode]


def wgmma_mode_name(sw: Swizzle | XorSwizzle) -> str | None:
    """The name of the MMA swizzle mode whose byte swizzle is ``sw``, or None when none is.

    >>> wgmma_mode_name(Swizzle(3, 4, 3)), wgmma_mode_name(Swizzle(3, 3, 3))
    ('128B', None)
    """
    try:
        return SwizzleMode.from_swizzle(sw).short_name
    except LayoutError:
        return None


def conflict_free_swizzles(tile_layout: Layout, pattern: Any, access_bytes: int | None = None,
                           element_bits: int = 16, *, include_conflicting: bool = False,
                           max_bits: int = 3) -> list[SwizzleCandidate]:
    """The swizzles that make ``pattern`` conflict-free on ``tile_layout``, ranked, in both CuTe forms.

    ``tile_layout`` is the tile's element layout (no swizzle; ``element_bits``-bit elements). Each
    candidate's ``swizzle`` acts on byte addresses (paste it as ``Sw o smem_ptr[Nb](unset) o L``);
    its ``element_swizzle`` is the same placement on element offsets (paste it as ``Sw o 0 o L``,
    CuTe's element-unit ComposedLayout); ``forms()`` prints both. The search runs on bytes:
    Tried: every ``Swizzle<B,M,S>`` with ``1 <= B <= max_bits``, ``M`` from ``log2(max(access,
    element bytes))`` (a swizzle must keep each access's bytes together) to 7 (the 128-byte bank
    row), ``B <= S`` and ``M + S + B <= 13`` (the yyy bits below 8 KiB), plus the TMA modes'
    byte maps (``swizzle_byte_map``; 128B_ATOM_32B_FLIP_8B is a two-pattern XOR map) and the
    identity. ``max_bits`` up to 5 widens the search (a column of a 32x32 fp32 tile needs
    ``Sw<5,2,5>``). Ranked by wavefronts, then fewer XOR-ed bits, then TMA-expressible first. With
    ``include_conflicting`` every candidate is listed, otherwise only the conflict-free ones.
    ``pattern`` is what :func:`bank_conflicts` takes as ``thread_offsets``: an AccessPattern, an
    ldmatrix/stmatrix copy atom (its ``access_pattern(element_bits=...)``), or thread coordinates
    with ``access_bytes``.

    >>> from pycute_layouts import Layout
    >>> ok = conflict_free_swizzles(Layout((8, 32), (32, 1)), ldmatrix_pattern(4), element_bits=16)
    >>> [str(c.swizzle) for c in ok if c.tma_modes]
    ['Sw<2,4,3>', 'Sw<3,4,3>']
    """
    who = "conflict_free_swizzles"
    if not isinstance(tile_layout, Layout):
        raise LayoutTypeError(f"{who}: tile_layout must be the tile's element Layout (no swizzle), got "
                              f"{type(tile_layout).__name__}")
    require_offsets(tile_layout, who)
    if isinstance(max_bits, bool) or max_bits not in (1, 2, 3, 4, 5):
        raise LayoutValueError(f"{who}: max_bits must be 1..5, got {fmt(max_bits)}")
    pat = _search_pattern(pattern, access_bytes, element_bits, who)
    if isinstance(element_bits, bool) or element_bits not in (8, 16, 32, 64, 128):
        raise UnitError(f"{who}: element_bits must be 8, 16, 32, 64 or 128, got {fmt(element_bits)}")
    tried = _swizzles_to_try(max_bits, max(pat.access_bytes, element_bits // 8).bit_length() - 1)
    tma_by_map: dict[Any, list[str]] = {}
    for name, mp in tma_swizzle_maps():
        key = mp.to_xor() if isinstance(mp, Swizzle) else mp
        tma_by_map.setdefault(key, []).append(name)
        tried.setdefault(key, mp)
    out = []
    for key, sw in tried.items():
        try:
            r = bank_conflicts(SwizzledSmemLayout(sw, tile_layout, element_bits), pat)
        except LayoutError:
            continue  # the swizzle splits an access (misaligned) or moves bits below an element
        out.append(SwizzleCandidate(sw, r.wavefronts, r.ideal_wavefronts, r.conflict_degree,
                                    tuple(tma_by_map.get(key, ())), wgmma_mode_name(sw), element_bits))
    out.sort(key=lambda c: (c.wavefronts, len(c.swizzle.to_xor().pairs if isinstance(c.swizzle, Swizzle)
                                              else c.swizzle.pairs), not c.tma_modes, str(c.swizzle)))
    return out if include_conflicting else [c for c in out if c.is_conflict_free]


def _search_pattern(pattern: Any, access_bytes: Any, element_bits: Any, who: str) -> AccessPattern:
    # Pre:  none (user input).  Post: as _access_pattern, the argument named ``pattern`` in messages.
    return _access_pattern(pattern, access_bytes, element_bits, who, arg="pattern")


def _swizzles_to_try(max_bits: int, lo: int) -> dict[Any, Swizzle | XorSwizzle]:
    # Pre:  1 <= max_bits <= 5; lo = log2 of the access or element bytes, the larger.
    # Post: {XOR map: swizzle} of the identity and every Sw<B,M,S> with B <= max_bits, lo <= M < 8, B <= S,
    #       M + S + B <= 13, the first swizzle of each distinct map kept.
    tried: dict[Any, Swizzle | XorSwizzle] = {Swizzle(0, 4, 3).to_xor(): Swizzle(0, 4, 3)}
    for b in range(1, max_bits + 1):
        for m in range(lo, 8):
            for s in range(b, 14 - m - b):
                sw = Swizzle(b, m, s)
                tried.setdefault(sw.to_xor(), sw)
    return tried
