"""Block-scaled tcgen05 operands: scale-factor layouts in global, shared and tensor memory, and tcgen05.cp.

The block-scaled kinds (``.kind::mxf8f6f4``, ``.kind::mxf4``, ``.kind::mxf4nvf4``) multiply every
``vec_size`` consecutive K elements of a row of A (and of a column of B) by one 8-bit scale
factor (ue8m0 or ue4m3). One instruction reads ``nsf = K / vec_size`` scale factors per row
(K = 32 for mxf8f6f4 with vec_size 32: nsf 1, "scale_vec::1X"; K = 64 for mxf4/mxf4nvf4: vec_size
32 gives 2X, 16 gives 4X). The scale factors live in tensor memory; ``tcgen05.cp`` copies them
there from shared memory.

**The 512-byte chunk** (CUTLASS ``cutlass::detail::Sm1xxBlockScaledBasicChunk``,
``cutlass/detail/sm100_blockscaled_layout.hpp``): 128 rows x 4 scale factors, as a layout from
(row, K element) to the byte of its scale factor::

    ((32,4),(vec_size,4)) : ((16,4),(0,1))      row r0 + 32*r1, K element v + vec_size*j -> 16*r0 + 4*r1 + j

so each 16-byte line ``r0`` holds the 4 scale factors of rows ``r0, r0+32, r0+64, r0+96``. Global
memory tiles this chunk K-blocks first (``Sm1xxBlockScaledConfig::tile_atom_to_shape_SFA``:
``tile_to_shape(chunk, (MN, K, L), Step<_2,_1,_3>)``); shared memory holds one MMA tile's chunks
(``deduce_smem_layoutSFA``/``SFB``, :func:`sf_smem_layout`).

**The copy** ``tcgen05.cp.32x128b.warpx4`` reads a 32 x 128-bit matrix -- the chunk's 32 lines --
through a shared-memory descriptor (PTX ISA ``tcgen05.cp``; descriptor format
9.7.16.4.1) and writes line ``r0`` to TMEM lane ``r0`` of all four 32-lane subpartitions, columns
``c .. c+3``: so row ``r0 + 32*r1``'s scale factors land in lane ``r0`` (+32q), column ``c + r1``,
bytes ``j``. :func:`copy_source_desc` derives the descriptor of such a source from its byte layout
(core matrices of 8 rows x 16 bytes, no swizzle: SBO = stride of 8-line groups, LBO = stride of
16-byte columns, 0 when there is one column). That is the value DeepGEMM's ``make_sf_desc``
builds (SBO 128, LBO 0). :func:`tmem_sf_layout` is CuTe's ``UMMA::tmem_sf_frg`` atom.

These facts come from CUTLASS/CuTe headers and PTX; no Blackwell GPU was used.

>>> print(sf_chunk_layout(32))
((32,4),(32,4)):((16,4),(0,1))
>>> d = sf_copy_desc()
>>> d.sbo_bytes, d.lbo_bytes, hex(d.encode())
(128, 0, '0x400800000000')
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.inttuple import flatten
from ...core.layout import Layout
from ...core.tiling import tile_to_shape
from ...errors import DescriptorError
from ...limits import check_count, fmt
from ..smem_desc import split_leaves
from .smem import UmmaSmemDescriptor

__all__ = [
    "COPY_SHAPES",
    "SF_VEC_SIZES",
    "copy_source_desc",
    "sf_chunk_layout",
    "sf_copy_desc",
    "sf_gmem_layout",
    "sf_per_mma",
    "sf_smem_layout",
    "tmem_sf_layout",
    "warpx4_placement",
]

#: Scale-factor vector sizes per block-scaled kind (PTX: scale_vec::1X/2X/4X; CuTe SM100_MMA_MXF4_SS VS).
SF_VEC_SIZES: dict[str, tuple[int, ...]] = {"mxf8f6f4": (32,), "mxf4": (32,), "mxf4nvf4": (16, 32)}
_MMA_K = {"mxf8f6f4": 32, "mxf4": 64, "mxf4nvf4": 64}

#: tcgen05.cp shapes: name -> (rows, bits per row) of the shared-memory source matrix.
COPY_SHAPES: dict[str, tuple[int, int]] = {"128x256b": (128, 256), "4x256b": (4, 256), "128x128b": (128, 128),
                                           "64x128b": (64, 128), "32x128b": (32, 128)}


def _pos_int(who: str, name: str, v: Any) -> int:
    return check_count(who, f"{name} (a positive int)", v, 1, None, DescriptorError)


def sf_per_mma(kind: Any, vec_size: Any) -> int:
    """Scale factors one instruction reads per row: ``K / vec_size`` (1X, 2X or 4X).

    Pre: ``kind`` is mxf8f6f4, mxf4 or mxf4nvf4 and ``vec_size`` one of its :data:`SF_VEC_SIZES`.
    Post: the result is 1, 2 or 4.

    >>> sf_per_mma("mxf8f6f4", 32), sf_per_mma("mxf4", 32), sf_per_mma("mxf4nvf4", 16)
    (1, 2, 4)
    """
    if not isinstance(kind, str) or kind not in SF_VEC_SIZES:
        raise DescriptorError(f"sf_per_mma: kind={fmt(kind)} is not block-scaled (kinds: {', '.join(SF_VEC_SIZES)})")
    if vec_size not in SF_VEC_SIZES[kind] or isinstance(vec_size, bool):
        raise DescriptorError(f"sf_per_mma: vec_size={fmt(vec_size)} is illegal for kind::{kind} (allowed: "
                              f"{', '.join(map(str, SF_VEC_SIZES[kind]))})")
    return _MMA_K[kind] // vec_size


def sf_chunk_layout(vec_size: Any, major: str = "K") -> Layout:
    """CUTLASS's 512-byte scale-factor chunk: 128 rows x 4 scale factors, (row, K element) -> byte.

    Pre: ``vec_size`` is 16 or 32; ``major`` is ``"K"`` (the operand chunk) or ``"MN"`` (the
    transposed form CUTLASS uses for MN-major output scale factors).
    Post: size ``128 * 4 * vec_size``, cosize 512; K elements of one vector share a byte (stride 0).

    >>> print(sf_chunk_layout(16, "MN"))
    ((16,4),(32,4)):((0,1),(16,4))
    """
    vs = _pos_int("sf_chunk_layout", "vec_size", vec_size)
    if vs not in (16, 32):
        raise DescriptorError(f"sf_chunk_layout: vec_size must be 16 or 32 (the tcgen05 scale vectors), got {vs}")
    if not isinstance(major, str):
        raise DescriptorError(f"sf_chunk_layout: major must be 'K' or 'MN', got {fmt(major)}")
    if major == "K":
        return Layout(((32, 4), (vs, 4)), ((16, 4), (0, 1)))
    if major == "MN":
        return Layout(((vs, 4), (32, 4)), ((0, 1), (16, 4)))
    raise DescriptorError(f"sf_chunk_layout: major must be 'K' or 'MN', got {fmt(major)}")


def sf_gmem_layout(vec_size: Any, mn: Any, k: Any, batches: Any = 1) -> Layout:
    """The scale factors of an ``MN x K`` operand (times ``batches``) in global memory, in bytes.

    Pre: ``mn`` is a multiple of 128 and ``k`` of ``4 * vec_size`` (CUTLASS pads to them).
    Post: a compact layout of ``mn * k / vec_size * batches`` bytes.

    As CUTLASS's ``Sm1xxBlockScaledConfig<vec_size>::tile_atom_to_shape_SFA/SFB``: the chunk tiled
    over ``(MN, K, L)`` K-blocks first (``Step<_2,_1,_3>``).

    >>> print(sf_gmem_layout(32, 256, 256))
    (((32,4),2),((32,4),2),(1,1)):(((16,4),1024),((0,1),512),(0,0))
    """
    vs = _pos_int("sf_gmem_layout", "vec_size", vec_size)
    mn_, k_, b_ = (_pos_int("sf_gmem_layout", n, v) for n, v in (("mn", mn), ("k", k), ("batches", batches)))
    atom = sf_chunk_layout(vs)
    if mn_ % 128 or k_ % (4 * vs):
        raise DescriptorError(f"sf_gmem_layout: the scale-factor chunk covers 128 rows x {4 * vs} K elements; "
                              f"mn={mn_} and k={k_} must be multiples of them (pad the operand)")
    return tile_to_shape(atom, (mn_, k_, b_), (1, 0, 2))


def sf_smem_layout(kind: Any, vec_size: Any, mma_mn: Any, tile_k: Any, operand: str = "A") -> Layout:
    """One stage of scale factors in shared memory, as CUTLASS's ``deduce_smem_layoutSFA/SFB``.

    Pre: ``mma_mn`` a multiple of 128 for A; ``tile_k`` a multiple of ``4 * vec_size``.
    Post: cosize ``round_up(mma_mn, 128) * tile_k / vec_size`` bytes.

    Layout ``((((32,4),mn/128),(vec_size,nsf)),1,(4/nsf,k_chunks)) : ((((16,4),512),(0,1)),0,(nsf,mn/128*512))``
    from (MMA-tile row, K element), MMA index along MN, (MMA step, chunk) along K to bytes, with
    ``nsf = sf_per_mma(kind, vec_size)`` and ``k_chunks = tile_k / vec_size / 4``. For B
    (``operand="B"``) MN is rounded up to a multiple of 128 (CUTLASS: N = 192 is stored as 256).

    >>> print(sf_smem_layout("mxf4nvf4", 16, 128, 256))
    ((((32,4),1),(16,4)),1,(1,4)):((((16,4),512),(0,1)),0,(4,512))
    """
    who = "sf_smem_layout"
    nsf = sf_per_mma(kind, vec_size)
    mn_, k_ = _pos_int(who, "mma_mn", mma_mn), _pos_int(who, "tile_k", tile_k)
    if not isinstance(operand, str) or operand not in ("A", "B"):
        raise DescriptorError(f"{who}: operand must be 'A' or 'B', got {fmt(operand)}")
    if operand == "B":
        mn_ = -(-mn_ // 128) * 128
    if mn_ % 128:
        raise DescriptorError(f"{who}: mma_mn={mn_} is not a multiple of the 128-row scale-factor chunk (A)")
    if k_ % (4 * vec_size):
        raise DescriptorError(f"{who}: tile_k={k_} is not a multiple of 4 * vec_size = {4 * vec_size} (one chunk's K)")
    blocks = mn_ // 128
    shape = ((((32, 4), blocks), (vec_size, nsf)), 1, (4 // nsf, k_ // vec_size // 4))
    stride = ((((16, 4), 512), (0, 1)), 0, (nsf, blocks * 512))
    return Layout(shape, stride)


def _leaves(layout: Layout, mode: int) -> list[tuple[int, int]]:
    s, d = layout.shape[mode], layout.stride[mode]
    ss = flatten(s) if isinstance(s, tuple) else (s,)
    ds = flatten(d) if isinstance(d, tuple) else (d,)
    return [(int(a), int(b)) for a, b in zip(ss, ds, strict=True) if int(a) != 1]


def _single_stride(leaves: list[tuple[int, int]], who: str, what: str) -> int:
    """The one stride of a (coalescable) list of leaves, 0 for a single element."""
    out: list[tuple[int, int]] = []
    for s, d in leaves:
        if out and out[-1][0] * out[-1][1] == d:
            out[-1] = (out[-1][0] * s, out[-1][1])
        else:
            out.append((s, d))
    if len(out) > 1:
        raise DescriptorError(f"{who}: the {what} must be one stride apart, got "
                              f"({','.join(str(s) for s, _ in out)}):({','.join(str(d) for _, d in out)}) bytes")
    return out[0][1] if out else 0


def copy_source_desc(layout: Any, shape: Any = "32x128b", start_address: Any = 0) -> UmmaSmemDescriptor:
    """The shared-memory descriptor of a ``tcgen05.cp`` source matrix, derived from its byte layout.

    Pre: ``layout`` has shape ``(rows, bytes)`` matching ``shape``.
    Post: a no-swizzle :class:`UmmaSmemDescriptor` (version 1) whose model reads exactly ``layout``.

    ``layout`` maps (row, byte) of the ``shape`` source (rows x bits/8 bytes, :data:`COPY_SHAPES`)
    to byte offsets from ``start_address``. The source is read as K-major core matrices of 8 rows x
    16 bytes without swizzle: each row's 16-byte pieces must be contiguous, the 8 rows of a core
    matrix 16 bytes apart (PTX's canonical no-swizzle K-major layout), and then SBO is the stride
    of 8-row groups and LBO the stride of 16-byte columns -- 0 when the source has one column
    (a stride the copy never reads is encoded 0, as :func:`~pycute_layouts.arch.umma.make_smem_desc`
    does).

    >>> d = copy_source_desc(Layout((32, 16), (16, 1)), "32x128b", 0x400)
    >>> d.sbo_bytes, d.lbo_bytes, hex(d.encode())
    (128, 0, '0x400800000040')
    >>> copy_source_desc(Layout((32, 16), (32, 1)))
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.DescriptorError: copy_source_desc: the 8 rows of a core matrix must be 16 bytes apart ...
    """
    who = "copy_source_desc"
    if not isinstance(shape, str) or shape not in COPY_SHAPES:
        raise DescriptorError(f"{who}: shape={fmt(shape)} is not a tcgen05.cp shape (shapes: {', '.join(COPY_SHAPES)})")
    rows, bits = COPY_SHAPES[shape]
    if not isinstance(layout, Layout) or layout.rank() != 2 or layout.is_symbolic():
        raise DescriptorError(f"{who}: expected an integer rank-2 Layout (row, byte) -> byte offset, got {fmt(layout)}")
    if (int(layout[0].size()), int(layout[1].size())) != (rows, bits // 8):
        raise DescriptorError(f"{who}: a {shape} source is {rows} rows x {bits // 8} bytes, the layout is "
                              f"{layout[0].size()} x {layout[1].size()}")
    if isinstance(start_address, bool) or not isinstance(start_address, (int, np.integer)) or start_address < 0:
        raise DescriptorError(f"{who}: start_address must be a non-negative int, got {fmt(start_address)}")
    first16, cols = _split_leaves(_leaves(layout, 1), 16)
    if _single_stride(first16, who, "first 16 bytes of a row") != 1:
        raise DescriptorError(f"{who}: each row's first 16 bytes must be contiguous (one core-matrix row), got "
                              f"{layout[1]}")
    lbo = _single_stride(cols, who, "16-byte columns")
    inner, rest = _split_leaves(_leaves(layout, 0), min(rows, 8))
    if _single_stride(inner, who, "rows of a core matrix") != 16:
        raise DescriptorError(f"{who}: the 8 rows of a core matrix must be 16 bytes apart (no-swizzle canonical "
                              f"layout), got {layout[0]}")
    sbo = _single_stride(rest, who, "8-row core-matrix groups")
    start = int(start_address)
    return UmmaSmemDescriptor(start_address=start, lbo_bytes=lbo, sbo_bytes=sbo, swizzle="none")


def _split_leaves(leaves: list[tuple[int, int]], n: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """The first ``n`` elements of a flat mode and the rest (a leaf is split where ``n`` falls inside it)."""
    sp = split_leaves(leaves, n)
    if sp is None:
        raise DescriptorError(f"copy_source_desc: the mode {leaves} (shape, stride) has no {n}-element boundary: a leaf "
                              "straddles it or the mode is shorter")
    return sp


def sf_copy_desc(start_address: Any = 0, vec_size: Any = 32) -> UmmaSmemDescriptor:
    """The ``tcgen05.cp.32x128b.warpx4`` source descriptor of one 512-byte scale-factor chunk.

    Pre: ``start_address`` a 16-byte aligned shared-memory address.
    Post: no swizzle, SBO 128 bytes (8 lines), LBO 0 (one 16-byte column), version 1.

    Derived: the chunk (:func:`sf_chunk_layout`) seen as 32 lines of 16 bytes (line ``r0`` = the
    bytes of rows ``r0 + 32*r1``, 4 scale factors each), passed to :func:`copy_source_desc`.

    >>> hex(sf_copy_desc(0x1000).encode())
    '0x400800000100'
    """
    chunk = sf_chunk_layout(vec_size)
    line_stride = int(chunk.stride[0][0])  # the r0 mode: one 16-byte line per row r0
    line0 = sorted(int(chunk(32 * r1, int(vec_size) * j)) for r1 in range(4) for j in range(4))
    if line0 != list(range(16)) or line_stride != 16:
        raise DescriptorError(f"sf_copy_desc: the chunk's lines are not 16 contiguous bytes: {line0}")
    lines = Layout((32, 16), (line_stride, 1))
    return copy_source_desc(lines, "32x128b", start_address)


def warpx4_placement(start_address: int = 0) -> np.ndarray:
    """Where ``tcgen05.cp.32x128b.warpx4`` puts each source byte: ``out[q, lane, col, byte]`` = smem byte.

    Pre: ``start_address`` a 16-byte aligned address.
    Post: shape (4, 32, 4, 4); every subpartition holds the same 512 bytes.

    The model (PTX ISA ``tcgen05.cp``, ``.warpx4``): source line ``l`` (16 bytes) goes to TMEM lane
    ``l`` of every subpartition ``q`` (lanes ``32q + l``), 32-bit columns ``col`` = 0..3, with byte
    ``4*col + byte`` of the line. Addresses are the shared-memory bytes the descriptor
    :func:`sf_copy_desc` names (its hardware model, :meth:`UmmaSmemDescriptor.element_addresses`).

    >>> warpx4_placement()[1, 2, 3, :].tolist()
    [44, 45, 46, 47]
    """
    d = sf_copy_desc(start_address)
    addr = np.asarray(d.element_addresses("K", 8, (32, 16)))  # (row, byte) -> smem byte
    per_lane = addr.reshape(32, 4, 4)
    return np.broadcast_to(per_lane, (4, 32, 4, 4)).copy()


def tmem_sf_layout(mma_mn: Any, vec_size: Any, nsf: Any) -> Layout:
    """CuTe's ``UMMA::tmem_sf_frg`` atom: (MMA row, (K element, sf)) -> TMEM element index, one replica.

    Pre: ``mma_mn`` a multiple of 32 (128 for one chunk), ``nsf`` in 1, 2, 4.
    Post: the layout's image is ``{lane + 128 * (4 * col + byte)}``.

    The index is CuTe's ``lane + 128 * element_column`` with 8-bit elements, i.e. lane
    ``i % 128``, 32-bit column ``(i // 128) // 4``, byte ``(i // 128) % 4``:
    ``((32, mma_mn/32), (vec_size, nsf)) : ((1, 512), (0, 128))`` -- row ``r0 + 32*r1`` in lane
    ``r0`` (replicated to lanes ``+32, +64, +96``: CuTe's REP mode of stride 32), column ``r1``,
    byte ``sf``. It is where :func:`warpx4_placement` puts a chunk copied to column 0.

    >>> print(tmem_sf_layout(128, 32, 1))
    ((32,4),(32,1)):((1,512),(0,128))
    """
    who = "tmem_sf_layout"
    mn_, vs, n = (_pos_int(who, k, v) for k, v in (("mma_mn", mma_mn), ("vec_size", vec_size), ("nsf", nsf)))
    if mn_ % 32 or n not in (1, 2, 4):
        raise DescriptorError(f"{who}: mma_mn must be a multiple of 32 and nsf 1, 2 or 4, got {mn_}, {n}")
    return Layout(((32, mn_ // 32), (vs, n)), ((1, 512), (0, 128)))
