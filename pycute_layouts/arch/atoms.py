"""Thread-value layouts of MMA and copy atoms, tiled MMAs, and "who holds what" queries.

``mma_atom(name)`` and ``copy_atom(name)`` take CuTe's atom names (template arguments included
where CuTe has them) and return the atom's layouts as this package's :class:`Layout` objects,
built by formula (see :mod:`pycute_layouts.arch.atoms_mma` and :mod:`~pycute_layouts.arch.atoms_copy`).
CuTe's convention holds throughout: a thread-value layout maps ``(thread, value)`` to the
column-major index of the tile (``m + M * n`` for C), so CuTe's algebra applies to it unchanged.

:func:`make_tiled_mma` repeats an atom over a grid of atoms (``atom_layout``) and an optional
permutation of the tile's rows/columns, as CuTe's ``make_tiled_mma``; :meth:`TiledMma.partition`
is the layout of a whole tile: ``(thread, value) -> tile index`` (the value order is CuTe's
fragment order: the atom's values, then the atom repetitions along rows, then columns).
:func:`owners` and :func:`thread_fragment` answer "which thread and register hold C(m, n)" and
"what does thread t hold".

>>> atom = mma_atom("SM90_64x256x16_F32BF16BF16_SS")
>>> tiled = make_tiled_mma(atom, (2, 1, 1))                 # two warpgroups: a 128x256 tile
>>> owners(tiled, "C", (72, 130))                          # C(72, 130): thread 129, register 66
((129, 66),)
>>> thread_fragment(tiled, "C", 129)[66]
(66, (72, 130))
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.algebra import complement, composition, right_inverse
from ..core.composed import ComposedLayout, SwizzledSmemLayout, check_swizzle_unit, smem_layout_of
from ..core.display import rich_repr
from ..core.layout import Layout, make_layout, require_offsets
from ..core.swizzle import Swizzle
from ..core.tiling import logical_product
from ..errors import LayoutTypeError, LayoutValueError, UnitError
from ..limits import MAX_EVAL_POINTS, MAX_TABLE_CELLS, check_budget, check_fields, check_sequence, fmt
from .access import AccessPattern
from .atoms_copy import CopyAtom, copy_families, parse_copy_name
from .atoms_mma import MmaAtom, mma_families, parse_mma_name

__all__ = [
    "MmaAtom",
    "CopyAtom",
    "TiledMma",
    "mma_atom",
    "copy_atom",
    "atom",
    "make_tiled_mma",
    "owners",
    "thread_fragment",
    "tv_table",
    "copy_access_pattern",
    "thread_reads",
    "operand_addresses",
    "mma_families",
    "copy_families",
]


def mma_atom(name: str) -> MmaAtom:
    """The MMA atom CuTe calls ``name``: ``.shape_mnk``, ``.thr_id``, ``.layout_a``, ``.layout_b``, ``.layout_c``.

    Pre: ``name`` is CuTe's spelling (``"SM80_16x8x16_F32F16F16F32_TN"``, ``"SM90_64x128x16_F32BF16BF16_SS<GMMA::
    Major::K,GMMA::Major::K>"``, ``"SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256,UMMA::Major::K,UMMA::Major::K>"``).
    Post: the atom, layouts as CuTe's MMA_Traits. A GMMA name without template arguments means both K-major.
    Raises LayoutValueError (unknown name; the message lists the families).

    >>> a = mma_atom("SM80_16x8x16_F32F16F16F32_TN")
    >>> a.shape_mnk, str(a.thr_id), str(a.layout_a)
    ((16, 8, 16), '32:1', '((4,8),(2,2,2)):((32,1),(16,8,128))')
    """
    if not isinstance(name, str):
        raise LayoutTypeError(f"mma_atom: name must be a string (CuTe's atom name), got {fmt(name)}"[:200])
    return _mma_atom_cached(name)


@functools.lru_cache(maxsize=512)
def _mma_atom_cached(name: str) -> MmaAtom:
    return parse_mma_name(name)


def copy_atom(name: str) -> CopyAtom:
    """The copy atom CuTe calls ``name``: ``.thr_id``, ``.src_layout``, ``.dst_layout``, ``.ref_layout`` in bits.

    Pre: ``name`` is CuTe's spelling (``"SM75_U16x8_LDSM_T"``, ``"SM90_U32x4_STSM_N"``, ``"SM100_TMEM_LOAD_32dp32b8x"``).
    Post: the atom. Raises LayoutValueError (unknown name; the message lists the families).

    >>> str(copy_atom("SM75_U32x4_LDSM_N").dst_layout)
    '(32,(32,4)):(32,(1,1024))'
    """
    if not isinstance(name, str):
        raise LayoutTypeError(f"copy_atom: name must be a string (CuTe's atom name), got {fmt(name)}"[:200])
    return _copy_atom_cached(name)


@functools.lru_cache(maxsize=512)
def _copy_atom_cached(name: str) -> CopyAtom:
    return parse_copy_name(name)


def atom(name: str) -> MmaAtom | CopyAtom:
    """An MMA or a copy atom, whichever family ``name`` belongs to.

    Pre: a CuTe atom name. Post: :func:`mma_atom` or :func:`copy_atom` of it; LayoutValueError otherwise,
    listing both families.

    >>> type(atom("SM90_U16x8_STSM_T")).__name__, type(atom("SM90_64x8x16_F16F16F16_RS")).__name__
    ('CopyAtom', 'MmaAtom')
    >>> type(atom("SM80_CP_ASYNC_CACHEALWAYS<uint128_t>")).__name__, type(atom("SM61_DP4A")).__name__
    ('CopyAtom', 'MmaAtom')
    """
    if not isinstance(name, str):
        raise LayoutTypeError(f"atom: the atom name must be a string, got {fmt(name)}")
    kind = "".join(name.split())
    if kind.startswith(("SM75_U", "SM90_U", "SM100_TMEM_", "UniversalCopy<", "SM80_CP_ASYNC_", "SM90_TMA_",
                        "SM90_BULK_COPY_", "SM100_TMA_", "SM100_LOAD_", "SM100_STORE_", "SM50_Shuffle_", "SM100_U8x",
                        "SM100_SU", "SM100_UTCCP_",
                        "AutoVectorizingCopy")):
        return copy_atom(name)
    if kind.startswith(("SM61_", "SM70_", "SM75_", "SM80_", "SM89_", "SM90_", "SM90::GMMA::SPARSE::", "SM100_",
                        "SM120_", "SM120::BLOCKSCALED::")):
        try:
            return mma_atom(name)
        except LayoutValueError as e:
            if "not an MMA atom name CuTe defines" not in str(e):
                raise
    raise LayoutValueError(f"atom: unknown atom {fmt(name)}; MMA families: {'; '.join(mma_families())}; copy families: "
                           f"{'; '.join(copy_families())}")


# --------------------------------------------------------------------------------------------------
# tiled MMA

_OPERAND_DIMS = {"A": (0, 2), "B": (1, 2), "C": (0, 1)}


@dataclass(frozen=True)
class TiledMma:
    """An atom repeated over ``atom_layout`` (M, N, K atoms -> thread group), with a tile permutation.

    ``permutation[i]`` is None (the atoms' extent), an int (a larger tile extent along M/N/K) or a
    Layout permuting the rows/columns of one tile block (CuTe's ``Tile<...>`` argument).

    >>> t = make_tiled_mma(mma_atom("SM80_16x8x16_F16F16F16F16_TN"), (2, 2, 1))
    >>> t.num_threads, t.tile_size_mnk
    (128, (32, 16, 16))
    """

    atom: MmaAtom
    atom_layout: Layout
    permutation: tuple[Any, Any, Any]

    def _repr_svg_(self) -> str | None:
        """IPython's display protocol: the picture (see :mod:`pycute_layouts.core.display`), or None for text."""
        return rich_repr(self, "svg")

    def __post_init__(self) -> None:
        check_fields(self)

    @property
    def num_threads(self) -> int:
        """Threads of the tiled MMA: atom threads x atoms.

        Pre: none. Post: a positive int.

        >>> make_tiled_mma(mma_atom("SM90_64x64x16_F16F16F16_SS"), (2, 1, 1)).num_threads
        256
        """
        return self.atom.num_threads * int(self.atom_layout.size())

    @property
    def tile_size_mnk(self) -> tuple[int, int, int]:
        """CuTe's ``tile_size_mnk``: the permutation's extent, else atoms x atom extent, per M, N, K.

        Pre: none. Post: three positive ints.

        >>> make_tiled_mma(mma_atom("SM80_16x8x8_F16F16F16F16_TN"), (1, 2, 1), (None, 32, None)).tile_size_mnk
        (16, 32, 8)
        """
        shp = _shape3(self.atom_layout)
        return tuple(_perm_extent(self.permutation[i], shp[i] * self.atom.shape_mnk[i]) for i in range(3))

    def partition(self, operand: str, tile_shape: tuple[int, int] | None = None) -> Layout:
        """The (thread, value) -> column-major tile index layout of operand A (M x K), B (N x K) or C (M x N).

        Pre: tile_shape (rows, cols) is a multiple of the tile size (default: one tile, CuTe's
        ``get_layoutC_TV`` etc.). Post: a Layout of size num_threads x values per thread.

        >>> t = make_tiled_mma(mma_atom("SM80_16x8x8_F16F16F16F16_TN"), (2, 1, 1))
        >>> p = t.partition("C", (32, 16))
        >>> p(4, 0), p(4 + 32, 0)        # thread 4 of atom 0 and of atom 1 (rows 1 and 17)
        (1, 17)
        """
        op = _operand(operand, "TiledMma.partition")
        d0, d1 = _OPERAND_DIMS[op]
        ts = self.tile_size_mnk
        tr, tc = _tile(tile_shape, (ts[d0], ts[d1]), "TiledMma.partition")
        ar, ac = self.atom.tile_shape(op)
        shp = _shape3(self.atom_layout)
        embed = Layout((ar, ac), (1, tr))
        atom_tv = self.atom.layout(op)
        thr = composition(embed, atom_tv[0])
        val = composition(embed, atom_tv[1])
        gstride = tuple(ar if i == d0 else (ac * tr if i == d1 else 0) for i in range(3))
        group = composition(Layout(shp, gstride), right_inverse(self.atom_layout))
        rest = Layout((tr // (shp[d0] * ar), tc // (shp[d1] * ac)), (shp[d0] * ar, shp[d1] * ac * tr))
        if _trivial_thr_id(self.atom.thr_id):
            thr_mode = make_layout(thr, group)
        else:
            # e.g. sm70's quad-pairs. As CuTe's get_layout*_TV: the threads are T = tiled_product(ThrID, atoms)
            # completed by complement(T) to [0, size); hardware thread h is (atom thread, atom) number
            # right_inverse(T, complement(T))(h) mod size(T) (a lane outside T repeats one inside).
            lanes = logical_product(self.atom.thr_id, self.atom_layout)
            n = int(lanes.size())
            h2t = composition(Layout((n, 1), (1, 0)), right_inverse(make_layout(lanes, complement(lanes))))
            thr_mode = composition(make_layout(thr, Layout(shp, gstride)), h2t)
        tv = make_layout(thr_mode, make_layout(val, rest))
        pr, pc = self.permutation[d0], self.permutation[d1]
        if not isinstance(pr, Layout) and not isinstance(pc, Layout):
            return tv
        rows = _perm_map(pr, ts[d0], tr, 1)
        cols = _perm_map(pc, ts[d1], tc, tr)
        return composition(make_layout(rows, cols), tv)

    def partition_A(self, tile_shape: tuple[int, int] | None = None) -> Layout:  # noqa: N802 - CuTe's name
        """CuTe's ``partition_A`` as a layout: :meth:`partition` of operand A over an M x K tile.

        Pre: as :meth:`partition`. Post: (thread, value) -> m + M * k.

        >>> make_tiled_mma("SM80_16x8x8_F16F16F16F16_TN", (2, 1, 1)).partition_A()(32, 0)
        16
        """
        return self.partition("A", tile_shape)

    def partition_B(self, tile_shape: tuple[int, int] | None = None) -> Layout:  # noqa: N802 - CuTe's name
        """CuTe's ``partition_B`` as a layout: :meth:`partition` of operand B over an N x K tile.

        Pre: as :meth:`partition`. Post: (thread, value) -> n + N * k.

        >>> make_tiled_mma("SM80_16x8x8_F16F16F16F16_TN", (2, 1, 1)).partition_B()(32, 0)   # both groups: same B
        0
        """
        return self.partition("B", tile_shape)

    def partition_C(self, tile_shape: tuple[int, int] | None = None) -> Layout:  # noqa: N802 - CuTe's name
        """CuTe's ``partition_C`` as a layout: :meth:`partition` of operand C over an M x N tile.

        Pre: as :meth:`partition`. Post: (thread, value) -> m + M * n, disjoint and covering.

        >>> make_tiled_mma("SM90_64x64x16_F16F16F16_SS", (2, 1, 1)).partition_C((128, 128)).size()
        16384
        """
        return self.partition("C", tile_shape)

def _trivial_thr_id(thr_id: Layout) -> bool:
    """ThrID is the identity on its threads (n:1, or one thread)."""
    n = int(thr_id.size())
    return n == 1 or bool(np.array_equal(thr_id.to_numpy(), np.arange(n)))


def _shape3(lay: Layout) -> tuple[int, int, int]:
    s = lay.shape if isinstance(lay.shape, tuple) else (lay.shape,)
    return tuple(int(Layout(x).size()) for x in s) + (1,) * (3 - len(s))


def _perm_extent(p: Any, default: int) -> int:
    if p is None:
        return default
    return int(p.size()) if isinstance(p, Layout) else int(p)


def _perm_map(p: Any, block: int, extent: int, scale: int) -> Layout:
    """Tile position -> permuted tile index (times ``scale``): p within each block, blocks in order."""
    inner = p if isinstance(p, Layout) else Layout(block)
    return composition(Layout(extent, scale), make_layout(inner, Layout(extent // block, block)))


def _operand(operand: Any, who: str) -> str:
    if not isinstance(operand, str) or operand.upper() not in ("A", "B", "C", "D"):
        raise LayoutValueError(f"{who}: operand must be 'A', 'B' or 'C' ('D' is C), got {fmt(operand)}")
    return "C" if operand.upper() == "D" else operand.upper()


def _tile(tile_shape: Any, unit: tuple[int, int], who: str) -> tuple[int, int]:
    if tile_shape is None:
        return unit
    ok = isinstance(tile_shape, (tuple, list)) and len(tile_shape) == 2 and all(
        isinstance(x, int) and not isinstance(x, bool) and x > 0 for x in tile_shape)
    if ok:
        check_budget(who, f"tile_shape {fmt(tile_shape)}", tile_shape[0] * tile_shape[1], MAX_EVAL_POINTS)
    if not ok:
        raise LayoutTypeError(f"{who}: tile_shape must be (rows, columns) of positive ints, got {fmt(tile_shape)}")
    if tile_shape[0] % unit[0] or tile_shape[1] % unit[1]:
        raise LayoutValueError(f"{who}: tile {tile_shape[0]}x{tile_shape[1]} is not a multiple of the tiled MMA's "
                               f"{unit[0]}x{unit[1]} tile")
    return int(tile_shape[0]), int(tile_shape[1])


def _check_perm(p: Any, i: int, need: int) -> Any:
    if p is None:
        return None
    if isinstance(p, Layout):
        require_offsets(p, "make_tiled_mma")
        n = p.size()
        check_budget("make_tiled_mma", f"permutation[{i}] = {fmt(p)}", n, MAX_EVAL_POINTS)
        img = sorted(int(x) for x in p.to_numpy()) if isinstance(n, int) else None
        if img != list(range(int(n))) if img is not None else True:
            raise LayoutValueError(f"make_tiled_mma: permutation[{i}] = {p} must be a bijection of [0, {n})")
        size = int(n)
    elif isinstance(p, int) and not isinstance(p, bool) and p > 0:
        size = p
    else:
        raise LayoutTypeError(f"make_tiled_mma: permutation[{i}] must be None, a positive int or a Layout, got {fmt(p)}")
    if size % need:
        raise LayoutValueError(f"make_tiled_mma: permutation[{i}] covers {size}, not a multiple of the atoms' extent "
                               f"{need} along {'MNK'[i]}")
    return p


def make_tiled_mma(mma: MmaAtom | str, atom_layout: Any = (1, 1, 1), permutation: Any = (None, None, None)) -> TiledMma:
    """CuTe's ``make_tiled_mma(atom, atom_layout, permutation)``.

    Pre: ``atom_layout`` is a Layout (or a shape, taken column-major) of rank <= 3 that is a
    bijection onto [0, size): (m, n, k) atom position -> thread group; ``permutation`` three
    entries (None, int or Layout) whose extents are multiples of the atoms' extent. Post: the TiledMma.

    >>> t = make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", Layout((2, 2), (2, 1)))
    >>> t.partition("C")(32, 0)       # thread group 1 is atom (0, 1) of a row-major atom layout: C(0, 8)
    256
    """
    a = mma_atom(mma) if isinstance(mma, str) else mma
    if not isinstance(a, MmaAtom):
        raise LayoutTypeError(f"make_tiled_mma: expected an MmaAtom or an atom name, got {fmt(mma)}")
    lay = atom_layout if isinstance(atom_layout, Layout) else None
    if lay is None:
        lay = Layout(tuple(check_sequence("make_tiled_mma", "atom_layout (a Layout or a shape)", atom_layout, 3)))
    require_offsets(lay, "make_tiled_mma")
    if not lay.is_symbolic():
        check_budget("make_tiled_mma", f"atom_layout {fmt(lay)}", lay.size(), MAX_TABLE_CELLS)
    rank = len(lay.shape) if isinstance(lay.shape, tuple) else 1
    img = sorted(int(x) for x in lay.to_numpy()) if not lay.is_symbolic() else None
    if rank > 3 or img != list(range(len(img or []))):
        raise LayoutValueError(f"make_tiled_mma: atom_layout {lay} must have rank <= 3 and be a bijection onto "
                               "[0, size) (atom (m, n, k) -> thread group)")
    if not isinstance(permutation, (tuple, list)) or len(permutation) != 3:
        raise LayoutTypeError(f"make_tiled_mma: permutation must be three entries (M, N, K), got {fmt(permutation)}")
    shp = _shape3(lay)
    perms = tuple(_check_perm(p, i, shp[i] * a.shape_mnk[i]) for i, p in enumerate(permutation))
    return TiledMma(a, lay, perms)


# --------------------------------------------------------------------------------------------------
# queries


def _tv_and_shape(obj: Any, operand: str, tile_shape: Any, who: str) -> tuple[Layout, tuple[int, int]]:
    op = _operand(operand, who)
    if isinstance(obj, str):
        obj = mma_atom(obj)
    if isinstance(obj, MmaAtom):
        shape = _tile(tile_shape, obj.tile_shape(op), who)
        if shape != obj.tile_shape(op):
            obj = make_tiled_mma(obj)
        else:
            return obj.layout(op), shape
    if not isinstance(obj, TiledMma):
        raise LayoutTypeError(f"{who}: expected an MmaAtom, a TiledMma or an atom name, got {fmt(obj)}")
    d0, d1 = _OPERAND_DIMS[op]
    shape = _tile(tile_shape, (obj.tile_size_mnk[d0], obj.tile_size_mnk[d1]), who)
    return obj.partition(op, shape), shape


def tv_table(tv: Layout) -> np.ndarray:
    """The values of a (thread, value) layout as a (threads, values) integer array.

    Pre: tv is a rank-2 integer Layout. Post: ``out[t, v] == tv(t, v)``.

    >>> tv_table(mma_atom("SM80_16x8x8_F16F16F16F16_TN").layout_c)[1]
    array([32, 48, 40, 56])
    """
    if not isinstance(tv, Layout) or tv.rank() != 2 or tv.is_symbolic():
        raise LayoutTypeError(f"tv_table: expected a rank-2 (thread, value) integer Layout, got {fmt(tv)}")
    require_offsets(tv, "tv_table")
    nt, nv = int(tv[0].size()), int(tv[1].size())
    return np.asarray(tv.to_numpy(), dtype=np.int64).reshape(nv, nt).T


def owners(obj: Any, operand: str, coord: tuple[int, int], tile_shape: Any = None) -> tuple[tuple[int, int], ...]:
    """Every (thread, value) that holds element ``coord = (row, col)`` of the operand's tile.

    Pre: obj an MmaAtom, a TiledMma or an atom name; coord inside the tile (default: the atom's or
    the tiled MMA's tile). Post: the sorted pairs (several for broadcast operands, e.g. an SS
    wgmma's A: every thread; none for an element nobody holds).

    >>> owners("SM80_16x8x16_F32F16F16F32_TN", "C", (9, 3))
    ((5, 3),)
    >>> len(owners("SM90_64x8x16_F16F16F16_SS", "A", (0, 0)))     # read from smem by all 128 threads
    128
    """
    tv, (r, c) = _tv_and_shape(obj, operand, tile_shape, "owners")
    ok = isinstance(coord, (tuple, list)) and len(coord) == 2 and all(
        isinstance(x, int) and not isinstance(x, bool) for x in coord)
    if not ok or not (0 <= coord[0] < r and 0 <= coord[1] < c):
        raise LayoutValueError(f"owners: coord must be (row, column) inside the {r}x{c} tile, got {fmt(coord)}")
    tab = tv_table(tv)
    ts, vs = np.nonzero(tab == coord[0] + r * coord[1])
    return tuple(sorted((int(t), int(v)) for t, v in zip(ts, vs, strict=True)))


def thread_fragment(obj: Any, operand: str, thread: int, tile_shape: Any = None) -> list[tuple[int, tuple[int, int]]]:
    """``[(value, (row, col)), ...]``: what thread ``thread`` holds of the operand's tile, in register order.

    Pre: 0 <= thread < threads of obj. Post: one entry per value of the thread.

    >>> thread_fragment("SM90_64x16x16_F32BF16BF16_SS", "C", 33)[:3]
    [(0, (16, 2)), (1, (16, 3)), (2, (24, 2))]
    """
    tv, (r, _c) = _tv_and_shape(obj, operand, tile_shape, "thread_fragment")
    tab = tv_table(tv)
    if isinstance(thread, bool) or not isinstance(thread, int) or not 0 <= thread < tab.shape[0]:
        raise LayoutValueError(f"thread_fragment: thread must be in [0, {tab.shape[0]}), got {fmt(thread)}")
    return [(v, (int(x) % r, int(x) // r)) for v, x in enumerate(tab[thread])]


def copy_access_pattern(copy: CopyAtom | str, *, element_bits: int = 16,
                        matrix_origins: Any = None) -> AccessPattern:
    """The shared-memory addresses of a warp executing an ldmatrix/stmatrix copy atom, for bank analysis.

    Pre: an LDSM/STSM atom; element_bits divides 128; matrix_origins one (row, col) per matrix
    (default: matrix m at column m * 128 / element_bits). Post: an AccessPattern of 16-byte rows:
    the threads CuTe's shared-memory layout uses (the first to name each 128-bit row), each at row
    ``r % 8`` of matrix ``r // 8``. Pass it to :func:`pycute_layouts.analysis.banks.bank_conflicts`.

    >>> from pycute_layouts import Layout, Swizzle, SwizzledSmemLayout
    >>> from pycute_layouts.analysis.banks import bank_conflicts
    >>> p = copy_access_pattern("SM75_U16x8_LDSM_T")
    >>> p.name, p.coords[9]
    ('SM75_U16x8_LDSM_T', (1, 8))
    >>> tile = Layout((8, 64), (64, 1))
    >>> bank_conflicts(SwizzledSmemLayout(Swizzle(3, 4, 3), tile, 16), p).wavefronts
    4
    """
    a = copy_atom(copy) if isinstance(copy, str) else copy
    if not isinstance(a, CopyAtom):
        raise LayoutTypeError(f"copy_access_pattern: expected a CopyAtom or a copy atom name, got {fmt(copy)}")
    return a.access_pattern(element_bits=element_bits, matrix_origins=matrix_origins)


def thread_reads(mma: MmaAtom | str, operand: str, addresses: Any, threads: Any = (0,), *,
                 max_values: int = 16) -> list[str]:
    """Lines ``T<t>: V<v> (row,col) @0x<address>, ...``: which elements of an operand each thread holds, and where.

    Pre: ``addresses`` is the operand tile's byte addresses as a (rows, cols) array at least the atom's
    tile (e.g. :meth:`pycute_layouts.arch.wgmma.SmemDescriptor.element_addresses`); threads in range;
    max_values >= 1. Post: one line per thread (values beyond ``max_values`` summarised), preceded by a
    note when the operand is read from shared memory by the whole warpgroup (an SS wgmma's A and B).

    >>> import numpy as np
    >>> addr = np.arange(64 * 16).reshape(64, 16) * 2             # a 64x16 bf16 tile, K-major rows of 32 bytes
    >>> thread_reads("SM90_64x64x16_F32BF16BF16_RS", "A", addr, [5], max_values=3)
    ['T5: V0 (1,2) @0x24, V1 (1,3) @0x26, V2 (9,2) @0x124, ... (8 values)']
    """
    a = mma_atom(mma) if isinstance(mma, str) else mma
    if not isinstance(a, MmaAtom):
        raise LayoutTypeError(f"thread_reads: expected an MmaAtom or an MMA atom name, got {fmt(mma)}")
    op = _operand(operand, "thread_reads")
    arr = np.asarray(addresses)
    r, c = a.tile_shape(op)
    if arr.ndim != 2 or arr.shape[0] < r or arr.shape[1] < c:
        raise LayoutValueError(f"thread_reads: addresses must be a 2-D array covering the {r}x{c} {op} tile, got "
                               f"shape {arr.shape}")
    if isinstance(max_values, bool) or not isinstance(max_values, int) or max_values < 1:
        raise LayoutValueError(f"thread_reads: max_values must be a positive int, got {fmt(max_values)}")
    out = []
    lay = a.layout(op)
    if lay[0].stride == 0 and a.num_threads > 1:
        out.append(f"{a.name} {op}: read from shared memory by all {a.num_threads} threads through the descriptor "
                   "(every thread lists the whole tile)")
    for t in threads:
        frag = thread_fragment(a, op, t)
        vals = ", ".join(f"V{v} ({i},{j}) @{int(arr[i, j]):#x}" for v, (i, j) in frag[:max_values])
        more = f", ... ({len(frag)} values)" if len(frag) > max_values else ""
        out.append(f"T{t}: {vals}{more}")
    return out


def operand_addresses(smem: Any, element_bits: int | None = None, *, swizzle_unit: str = "elements") -> np.ndarray:
    """The byte address of every element of a rank-2 shared-memory operand tile, as a (rows, cols) array.

    Pre: ``smem`` a SwizzledSmemLayout (CuTe's ``Sw<..> o smem_ptr[Nb](unset) o L``), or a rank-2 Layout /
    ``Sw<..> o 0 o Layout`` in elements with ``element_bits``, read by CuTe's unit rule
    (:func:`~pycute_layouts.core.composed.smem_layout_of`: the swizzle on element offsets unless
    ``swizzle_unit="bytes"``). Post: ``out[r, c]`` is the byte address of element (r, c); pass it to
    :func:`thread_reads`.

    >>> from pycute_layouts import parse
    >>> operand_addresses(parse("Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)"))[1, :9:8].tolist()  # chunks XOR 1
    [144, 128]
    >>> operand_addresses(parse("Sw<3,3,3> o 0 o (8,64):(64,1)"), 16)[1, :9:8].tolist()  # the same atom
    [144, 128]
    """
    check_swizzle_unit(swizzle_unit, "operand_addresses")
    if isinstance(smem, ComposedLayout):
        if smem.offset != 0 or not isinstance(smem.inner, Layout):
            raise LayoutValueError(f"operand_addresses: expected Sw<..> o 0 o Layout, got {smem}")
        smem = smem_layout_of(smem, _bits(element_bits), swizzle_unit=swizzle_unit, who="operand_addresses")
    elif isinstance(smem, Layout):
        smem = SwizzledSmemLayout(Swizzle(0, 4, 3), smem, _bits(element_bits))
    if not isinstance(smem, SwizzledSmemLayout):
        raise LayoutTypeError(f"operand_addresses: expected a SwizzledSmemLayout, Layout or ComposedLayout, got {fmt(smem)}")
    lay = smem.layout
    if lay.rank() != 2:
        raise LayoutValueError(f"operand_addresses: the operand tile must be rank 2 (rows, cols), got {lay}")
    rows, cols = int(lay[0].size()), int(lay[1].size())
    return np.asarray(smem.byte_addresses(), dtype=np.int64).reshape(rows, cols, order="F")


def _bits(element_bits: Any) -> int:
    if isinstance(element_bits, bool) or not isinstance(element_bits, int) or element_bits <= 0:
        raise UnitError(f"operand_addresses: element_bits (a positive int) is needed for a Layout, got {fmt(element_bits)}")
    return element_bits
