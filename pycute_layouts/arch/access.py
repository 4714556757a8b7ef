"""What the 32 threads of a warp access in shared memory: access patterns of ldmatrix/stmatrix and vector loads.

An :class:`AccessPattern` names, per thread, the coordinate of the tile it accesses and the access
width; :func:`ldmatrix_pattern` / :func:`stmatrix_pattern` give the patterns of those instructions
(PTX ISA: each of the x1/x2/x4 8x8 matrices is addressed by 8 threads, one 16-byte row each), and
:func:`vector_pattern` any per-thread vector access. The bank-conflict analysis
(:mod:`pycute_layouts.analysis.banks`) and the copy atoms (:mod:`pycute_layouts.arch.atoms`) use them.

>>> ldmatrix_pattern(4).active_threads()[-1]
31
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.composed import ComposedLayout
from ..core.layout import Layout, require_offsets
from ..errors import LayoutTypeError, LayoutValueError, UnitError
from ..limits import check_count, check_type, fmt

__all__ = ["AccessPattern", "ldmatrix_pattern", "stmatrix_pattern", "vector_pattern", "parse_pattern", "WARP_THREADS"]


WARP_THREADS = 32


ACCESS_WIDTHS = (1, 2, 4, 8, 16)


def check_access_bytes(access_bytes: Any, who: str) -> int:
    v = check_count(who, "access_bytes", access_bytes, None, None, LayoutValueError)
    if v not in ACCESS_WIDTHS:
        raise LayoutValueError(f"{who}: access_bytes must be one of {ACCESS_WIDTHS} (bytes read or written per "
                               f"thread: 1/2/4-byte scalar, 8- or 16-byte vector), got {v}")
    return v


# --------------------------------------------------------------------------------------------------
# Access patterns
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AccessPattern:
    """What each of the 32 threads of a warp accesses: a coordinate of the tile (None: no address).

    ``coords[t]`` is thread ``t``'s coordinate in the shared-memory layout's domain (an int index
    or a tuple); the thread reads or writes ``access_bytes`` contiguous bytes from that element's
    byte address.

    >>> p = ldmatrix_pattern(1)
    >>> p.name, p.access_bytes, p.coords[:3], p.active_threads()[-1]
    ('ldmatrix.x1', 16, ((0, 0), (1, 0), (2, 0)), 7)
    """

    name: str
    access_bytes: int
    coords: tuple[Any, ...]

    def __post_init__(self) -> None:
        check_type("AccessPattern", "name", self.name, str, LayoutValueError)
        check_access_bytes(self.access_bytes, f"AccessPattern {fmt(self.name)}")
        if isinstance(self.coords, (str, bytes)) or not isinstance(self.coords, Sequence):
            raise LayoutTypeError(f"AccessPattern {fmt(self.name)}: coords must be a sequence of 32 coordinates, got "
                                  f"{fmt(self.coords)}")
        if len(self.coords) != WARP_THREADS:
            raise LayoutValueError(f"AccessPattern {fmt(self.name)}: a warp has 32 threads, got {len(self.coords)} "
                                   "coordinates (use None for a thread that supplies no address)")
        who = f"AccessPattern {fmt(self.name)}"
        object.__setattr__(self, "coords", tuple(None if c is None else norm_coord(c, who, t)
                                                 for t, c in enumerate(self.coords)))

    def active_threads(self) -> tuple[int, ...]:
        """Threads that supply an address.

        >>> ldmatrix_pattern(2).active_threads() == tuple(range(16))
        True
        """
        return tuple(t for t, c in enumerate(self.coords) if c is not None)

    def matrix_rows(self) -> tuple[tuple[tuple[int, Any], ...], ...]:
        """For ldmatrix/stmatrix: per 8x8 matrix, the ``(thread, row coordinate)`` of its 8 row addresses.

        >>> ldmatrix_pattern(2).matrix_rows()[1][:2]
        ((8, (0, 8)), (9, (1, 8)))
        """
        if not self.name.startswith(("ldmatrix", "stmatrix")):
            raise LayoutValueError(f"AccessPattern.matrix_rows: {fmt(self.name)} is not an ldmatrix/stmatrix pattern")
        act = self.active_threads()
        return tuple(tuple((t, self.coords[t]) for t in act[i:i + 8]) for i in range(0, len(act), 8))


def matrix_pattern(op: str, num_matrices: Any, trans: bool, element_bits: Any, matrix_origins: Any) -> AccessPattern:
    who = f"{op}_pattern"
    if isinstance(num_matrices, bool) or not isinstance(num_matrices, (int, np.integer)) or num_matrices not in (1, 2, 4):
        raise LayoutValueError(f"{who}: num_matrices must be 1, 2 or 4 (.x1/.x2/.x4), got {fmt(num_matrices)}")
    if not isinstance(trans, bool):
        raise LayoutTypeError(f"{who}: trans must be a bool, got {fmt(trans)}")
    if isinstance(element_bits, bool) or not isinstance(element_bits, (int, np.integer)) \
            or element_bits not in (8, 16, 32, 64, 128):
        raise UnitError(f"{who}: element_bits must be 8, 16, 32, 64 or 128 (a 16-byte row holds 128 / element_bits "
                        f"elements), got {fmt(element_bits)}")
    row_elems = 128 // element_bits
    if matrix_origins is None:
        origins = [(0, m * row_elems) for m in range(num_matrices)]
    else:
        try:
            origins = [tuple(int(x) for x in o) for o in matrix_origins]
        except (TypeError, ValueError):
            raise LayoutTypeError(f"{who}: matrix_origins must be a list of (row, column) pairs, "
                                  f"got {fmt(matrix_origins)}") from None
        if len(origins) != num_matrices or any(len(o) != 2 for o in origins):
            raise LayoutValueError(f"{who}: matrix_origins needs {num_matrices} (row, column) pairs, one per "
                                   f"matrix, got {fmt(matrix_origins)}")
    coords: list[Any] = [None] * WARP_THREADS
    for t in range(8 * num_matrices):
        r0, c0 = origins[t // 8]
        coords[t] = (r0 + t % 8, c0)
    name = f"{op}.x{num_matrices}" + (".trans" if trans else "")
    return AccessPattern(name, 16, tuple(coords))


def ldmatrix_pattern(num_matrices: int, trans: bool = False, *, element_bits: int = 16,
                     matrix_origins: Sequence[tuple[int, int]] | None = None) -> AccessPattern:
    """The addresses of ``ldmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16``.

    Thread ``t < 8 * num_matrices`` supplies the address of row ``t % 8`` of matrix ``t // 8``;
    each row is 16 contiguous bytes. Coordinates are ``(row, column)`` of a rank-2 element tile
    with ``element_bits``-bit elements: matrix ``m`` starts at ``matrix_origins[m]`` (default
    ``(0, m * 128 / element_bits)``: rows 0-7 of the ``m``-th 16-byte column). ``.trans`` only
    changes which thread receives which element, not the addresses, so it does not change the
    bank behaviour (it is kept in the name).

    >>> p = ldmatrix_pattern(4)
    >>> p.coords[0], p.coords[9], p.coords[31]
    ((0, 0), (1, 8), (7, 24))
    >>> ldmatrix_pattern(4, matrix_origins=[(0, 0), (8, 0), (0, 8), (8, 8)]).coords[9]
    (9, 0)
    >>> ldmatrix_pattern(3)
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.LayoutValueError: ldmatrix_pattern: num_matrices must be 1, 2 or 4 (.x1/.x2/.x4), got 3
    """
    return matrix_pattern("ldmatrix", num_matrices, trans, element_bits, matrix_origins)


def stmatrix_pattern(num_matrices: int, trans: bool = False, *, element_bits: int = 16,
                     matrix_origins: Sequence[tuple[int, int]] | None = None) -> AccessPattern:
    """The addresses of ``stmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16`` (same as ldmatrix).

    >>> stmatrix_pattern(2, trans=True).name
    'stmatrix.x2.trans'
    """
    return matrix_pattern("stmatrix", num_matrices, trans, element_bits, matrix_origins)


def vector_pattern(thread_coords: Any, access_bytes: int, name: str = "vector") -> AccessPattern:
    """Each thread ``t`` accesses ``access_bytes`` bytes at coordinate ``thread_coords[t]``.

    ``thread_coords``: a sequence of 32 coordinates (None: inactive thread), a numpy array of
    shape ``(32,)`` or ``(32, rank)``, or a Layout of size 32 mapping thread -> linear index.

    >>> vector_pattern(Layout(32, 8), 16).coords[:3]
    (0, 8, 16)
    >>> vector_pattern(list(range(31)), 4)
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.LayoutValueError: vector_pattern: a warp has 32 threads, got 31 coordinates ...
    """
    ab = check_access_bytes(access_bytes, "vector_pattern")
    return AccessPattern(name, ab, warp_coords(thread_coords, "vector_pattern"))


def norm_coord(c: Any, who: str, t: int) -> Any:
    if isinstance(c, bool):
        raise LayoutTypeError(f"{who}: thread {t}: coordinate must be an int or a tuple of ints, got {fmt(c)}")
    if isinstance(c, (int, np.integer)):
        return int(c)
    if isinstance(c, (tuple, list)):
        return tuple(norm_coord(x, who, t) for x in c)
    raise LayoutTypeError(f"{who}: thread {t}: coordinate must be an int or a tuple of ints, got {fmt(c)}")


# --------------------------------------------------------------------------------------------------
# Patterns by name (the CLI's vocabulary)
# --------------------------------------------------------------------------------------------------


def parse_pattern(name: str, *, element_bits: int = 16) -> AccessPattern:
    """An AccessPattern from its name: ``ldmatrix.x1|x2|x4[.trans]``, ``stmatrix.x1|x2|x4[.trans]``.

    >>> parse_pattern("ldmatrix.x2.trans").name
    'ldmatrix.x2.trans'
    >>> parse_pattern("ldmatrix.x3")
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.LayoutValueError: parse_pattern: unknown pattern 'ldmatrix.x3'; ...
    """
    if not isinstance(name, str):
        raise LayoutTypeError(f"parse_pattern: expected a pattern name, got {fmt(name)}")
    parts = name.strip().lower().split(".")
    ok = len(parts) in (2, 3) and parts[0] in ("ldmatrix", "stmatrix") and parts[1] in ("x1", "x2", "x4") \
        and (len(parts) == 2 or parts[2] == "trans")
    if not ok:
        raise LayoutValueError(f"parse_pattern: unknown pattern {fmt(name)}; known: ldmatrix.x1, ldmatrix.x2, "
                               "ldmatrix.x4, stmatrix.x1, stmatrix.x2, stmatrix.x4 (each optionally .trans)")
    fn = ldmatrix_pattern if parts[0] == "ldmatrix" else stmatrix_pattern
    return fn(int(parts[1][1]), len(parts) == 3, element_bits=element_bits)


def warp_coords(thread_offsets: Any, who: str) -> tuple[Any, ...]:
    if isinstance(thread_offsets, (Layout, ComposedLayout)):
        if isinstance(thread_offsets, Layout):
            require_offsets(thread_offsets, who)
        n = thread_offsets.size()
        if n != WARP_THREADS:
            raise LayoutValueError(f"{who}: the thread layout {thread_offsets} has {n} threads; a warp has 32")
        return tuple(int(thread_offsets(t)) for t in range(WARP_THREADS))
    if isinstance(thread_offsets, np.ndarray):
        if not np.issubdtype(thread_offsets.dtype, np.integer):
            raise LayoutTypeError(f"{who}: thread coordinates must be integers, got dtype {thread_offsets.dtype}")
        if thread_offsets.ndim not in (1, 2) or thread_offsets.shape[0] != WARP_THREADS:
            raise LayoutValueError(f"{who}: a warp has 32 threads; expected an array of shape (32,) or (32, rank), "
                                   f"got {thread_offsets.shape}")
        if thread_offsets.ndim == 1:
            return tuple(int(x) for x in thread_offsets)
        return tuple(tuple(int(x) for x in row) for row in thread_offsets)
    if isinstance(thread_offsets, (str, bytes)) or not isinstance(thread_offsets, Sequence):
        raise LayoutTypeError(f"{who}: thread_offsets must be a sequence of 32 coordinates, a numpy array or a "
                              f"thread layout, got {type(thread_offsets).__name__}")
    coords = list(thread_offsets)
    if len(coords) != WARP_THREADS:
        raise LayoutValueError(f"{who}: a warp has 32 threads, got {len(coords)} coordinates (use None for a "
                               "thread that supplies no address)")
    out: list[Any] = []
    for t, c in enumerate(coords):
        out.append(None if c is None else norm_coord(c, who, t))
    return tuple(out)
