"""Triton's layouts in and out: linear-layout bases, Gluon layout objects, Gluon source.

Triton describes every layout as an F2-linear map (its ``LinearLayout``): each input bit has a
*basis*, the tensor coordinate ``[d0, d1]`` it moves to, and a coordinate is the XOR of the bases
of the set bits. The inputs are named:

* a **distributed** layout (registers): ``reg_bases``, ``lane_bases``, ``warp_bases``,
  ``block_bases`` over a ``shape``. Here it becomes CuTe's thread-value Layout
  ``(thread, value) -> d0 + M * d1`` (column-major over the shape, CuTe's MMA convention), with
  ``thread = lane + warp_size * warp`` and ``value`` the register index;
* a **shared** layout: ``offset_bases`` (offset bit -> coordinate). Here it becomes the inverse
  map ``(d0, d1) -> element offset``: a Layout, ``Sw<B,M,S> o 0 o Layout`` (the swizzle on element
  offsets) or, given ``element_bits``, a :class:`~pycute_layouts.SwizzledSmemLayout` with the swizzle
  on byte addresses (CuTe's ``Sw<3,4,3> o smem_ptr[16b](unset) o L``);
* a **tensor-memory** layout: ``rows`` and ``cols`` bases (TMEM lane/column bit -> coordinate).
  Here it becomes ``(d0, d1) -> lane << 16 | column``, the 32-bit TMEM address CuTe uses.

None of this needs Triton. :func:`from_gluon` asks Triton itself (a Gluon layout object or its
source) in a child process, so an abort inside Triton becomes a LayoutError;
:func:`to_gluon` writes Gluon source, naming the layout (``gl.NVMMASharedLayout(...)``,
``gl.NVMMADistributedLayout``, ``gl.DotOperandLayout``, ``gl.BlockedLayout``) where one of
them computes the same map, else ``gl.DistributedLinearLayout``/``gl.SharedLinearLayout`` with
explicit bases.

Two conventions, both measured against Triton 3.9: ``NVMMASharedLayout(swizzle_byte_width=0)``
is a row-major box (equal to CuTe's INTERLEAVE atom only when the contiguous extent is 16
bytes); a transposed (MN-major) tile stacks its atoms along the non-contiguous dimension first,
as a non-transposed one does.

>>> tv = from_linear_layout(reg_bases=[[0, 1], [8, 0], [0, 8]], lane_bases=[[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]],
...                         warp_bases=[[16, 0], [32, 0]], block_bases=[], shape=[64, 16])
>>> print(tv)                                  # the wgmma A fragment (RS) of a 64x16 tile
((4,8,4),(2,2,2)):((128,1,16),(64,8,512))
>>> print(from_linear_layout(offset_bases=[[0, 1], [0, 2], [0, 4], [0, 8], [1, 0], [2, 0], [4, 0], [8, 0]]))
(16,16):(16,1)
>>> print(to_gluon(nvmma_shared_layout(128, 16, (64, 64)), (64, 64)))
gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False)
"""

from __future__ import annotations

import ast
import atexit
import contextlib
import itertools
import math
import os
import pickle
import select
import struct
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..analysis.linear import LinearLayout
from ..analysis.linear import from_linear_layout as _ll_to_cute
from ..arch.atoms_copy import CopyAtom
from ..arch.atoms_mma import MmaAtom
from ..core.algebra import composition
from ..core.composed import ComposedLayout, SwizzledSmemLayout, element_to_byte_swizzle
from ..core.layout import Layout, require_offsets
from ..core.swizzle import Swizzle
from ..errors import LayoutError, LayoutTypeError, LayoutValueError, UnitError
from ..limits import MAX_EVAL_POINTS, check_budget, fmt
from ._gluon_worker import GLUON_NAMES

__all__ = [
    "from_linear_layout",
    "from_gluon",
    "from_gluon_many",
    "to_gluon",
    "to_linear_bases",
    "nvmma_shared_layout",
    "swizzled_shared_layout",
    "padded_shared_layout",
    "gluon_table",
    "tensor_memory_layout",
    "TMEM_LANE_STRIDE",
]

#: CuTe's 32-bit tensor-memory address: lane in bits 31:16, column in bits 15:0
TMEM_LANE_STRIDE = 1 << 16


def _is_int(x: Any) -> bool:
    return not isinstance(x, bool) and isinstance(x, (int, np.integer))


def _log2(n: int) -> int:
    return int(n).bit_length() - 1


def _check_shape(shape: Any, who: str, ranks: tuple[int, ...] = (1, 2, 3)) -> tuple[int, ...]:
    if isinstance(shape, (str, bytes)) or not isinstance(shape, Sequence) or len(shape) not in ranks:
        raise LayoutTypeError(f"{who}: shape must be a list of {' or '.join(map(str, ranks))} ints (Triton's dim order), "
                              f"got {fmt(shape)}")
    out = []
    for s in shape:
        if not _is_int(s) or s < 1 or int(s) & (int(s) - 1):
            raise LayoutValueError(f"{who}: every dimension of a Triton layout's shape is a power of two, got {fmt(list(shape))}")
        out.append(int(s))
    check_budget(who, f"shape {fmt(out)}", math.prod(out), MAX_EVAL_POINTS)
    return tuple(out)


def _check_warp_size(warp_size: Any, who: str) -> None:
    if not _is_int(warp_size) or warp_size < 1 or warp_size & (warp_size - 1) or warp_size > 1024:
        raise LayoutValueError(f"{who}: warp_size must be a power of two (32 on NVIDIA, 64 on AMD), got {fmt(warp_size)}"[:300])


def _check_bits_arg(element_bits: Any, who: str) -> None:
    if element_bits is not None and (not _is_int(element_bits) or not 0 < element_bits <= 1024):
        raise UnitError(f"{who}: element_bits must be a positive int, got {fmt(element_bits)}"[:300])


def _check_bases(bases: Any, name: str, rank: int | None, who: str) -> list[tuple[int, ...]]:
    if bases is None:
        return []
    if isinstance(bases, (str, bytes)) or not isinstance(bases, Sequence):
        raise LayoutTypeError(f"{who}: {name} must be a list of coordinates, got {fmt(bases)}"[:300])
    if len(bases) > 64:
        raise LayoutValueError(f"{who}: {name} has {len(bases)} bases, more than 64 bits")
    out = []
    for b in bases:
        if isinstance(b, (str, bytes)) or not isinstance(b, Sequence) or not all(_is_int(c) and c >= 0 for c in b):
            raise LayoutTypeError(f"{who}: each basis of {name} is a list of non-negative ints, got {fmt(b)}"[:300])
        if rank is not None and len(b) != rank:
            raise LayoutValueError(f"{who}: each basis of {name} has one entry per dimension ({rank}), got {list(b)}")
        out.append(tuple(int(c) for c in b))
    return out


def _col_index(coord: Sequence[int], shape: Sequence[int]) -> int:
    idx, mul = 0, 1
    for c, s in zip(coord, shape):
        idx += c * mul
        mul *= s
    return idx


def _coord_of(idx: int, shape: Sequence[int]) -> list[int]:
    out = []
    for s in shape:
        out.append(idx % s)
        idx //= s
    return out


def _get(data: Any, key: str) -> Any:
    if isinstance(data, Mapping):
        return data.get(key)
    return getattr(data, key, None)


def _f2_inverse(images: list[int], nbits: int, who: str, what: str) -> list[int]:
    """Pre-images of each output bit under the F2 map with the given images (one per input bit)."""
    if len(images) != nbits:
        raise LayoutValueError(f"{who}: {what} has {len(images)} bases for {nbits} coordinate bits: a shared layout is a "
                               "bijection between offsets and coordinates")
    rows = [(v, 1 << i) for i, v in enumerate(images)]  # (image, pre-image) pairs, reduced below
    pivots: dict[int, tuple[int, int]] = {}
    for v, p in rows:
        while v:
            hb = v.bit_length() - 1
            if hb not in pivots:
                pivots[hb] = (v, p)
                break
            pv, pp = pivots[hb]
            v, p = v ^ pv, p ^ pp
        else:
            raise LayoutValueError(f"{who}: {what} is not invertible (two offsets land on one coordinate), so no "
                                   "coordinate -> offset layout exists")
    # back-substitute to unit vectors
    for hb in sorted(pivots):
        v, p = pivots[hb]
        for lb in range(hb):
            if (v >> lb) & 1 and lb in pivots:
                v, p = v ^ pivots[lb][0], p ^ pivots[lb][1]
        pivots[hb] = (v, p)
    if sorted(pivots) != list(range(nbits)):
        raise LayoutValueError(f"{who}: {what} does not reach every coordinate of the shape")
    return [pivots[j][1] for j in range(nbits)]


def from_linear_layout(data: Any = None, *, reg_bases: Any = None, lane_bases: Any = None, warp_bases: Any = None,
                       block_bases: Any = None, shape: Any = None, offset_bases: Any = None, rows: Any = None,
                       cols: Any = None, element_bits: int | None = None, warp_size: int = 32) -> Any:
    """Triton's linear-layout bases (plain lists, or an object/dict that has them) as this package's object.

    Pre: a distributed layout (``reg_bases``, ``lane_bases``, ``warp_bases``, ``shape``; ``lane_bases``
    has log2(``warp_size``) entries), a shared layout (``offset_bases``: a bijection onto the shape) or a
    tensor-memory layout (``rows``, ``cols``); ``block_bases`` empty (one CTA); bases are coordinates in
    Triton's dim order. Post: distributed -> the thread-value Layout ``(lane + warp_size * warp, reg) ->
    d0 + M * d1``; shared -> ``(d0, d1) -> element offset`` (a SwizzledSmemLayout on byte addresses when
    ``element_bits`` is given); TMEM -> ``(d0, d1) -> lane << 16 | column``.
    Raises LayoutTypeError/LayoutValueError naming the field, AdmissibilityError when the map is no layout.

    >>> print(from_linear_layout(reg_bases=[[0, 1]], lane_bases=[[1, 0], [2, 0]], warp_bases=[], shape=[4, 2],
    ...                          warp_size=4))
    (4,2):(1,4)
    >>> sw = from_linear_layout(offset_bases=[[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [1, 8], [2, 16], [4, 32]],
    ...                         element_bits=16)
    >>> print(sw)
    Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)
    """
    who = "from_linear_layout"
    if data is not None:
        vals = {k: _get(data, k) for k in ("reg_bases", "lane_bases", "warp_bases", "block_bases", "shape",
                                            "offset_bases", "rows", "cols")}
        if all(v is None for v in vals.values()):
            raise LayoutTypeError(f"{who}: {type(data).__name__} has no Triton linear-layout bases")
        reg_bases, lane_bases, warp_bases = vals["reg_bases"], vals["lane_bases"], vals["warp_bases"]
        block_bases, offset_bases, rows, cols = vals["block_bases"], vals["offset_bases"], vals["rows"], vals["cols"]
        shape = vals["shape"] if shape is None else shape
    _check_bits_arg(element_bits, who)
    if _check_bases(block_bases, "block_bases", None, who):
        raise LayoutValueError(f"{who}: block_bases {fmt(list(block_bases))} spread the layout over several CTAs; only "
                               "one CTA's layout (block_bases = []) has a CuTe equivalent here")
    if offset_bases is not None:
        return _shared(offset_bases, shape, element_bits, who)
    if rows is not None or cols is not None:
        return _tmem(rows, cols, shape, who)
    if shape is None:
        raise LayoutValueError(f"{who}: a distributed layout needs its shape (and reg/lane/warp bases); a shared "
                               "one offset_bases; a tensor-memory one rows and cols")
    shp = _check_shape(shape, who)
    _check_warp_size(warp_size, who)
    regs = _check_bases(reg_bases, "reg_bases", len(shp), who)
    lanes = _check_bases(lane_bases, "lane_bases", len(shp), who)
    warps = _check_bases(warp_bases, "warp_bases", len(shp), who)
    if len(lanes) != _log2(warp_size):
        raise LayoutValueError(f"{who}: lane_bases has {len(lanes)} entries but a warp of {warp_size} threads has "
                               f"{_log2(warp_size)} lane bits (pass warp_size=64 for AMD waves)")
    for name, bl in (("reg_bases", regs), ("lane_bases", lanes), ("warp_bases", warps)):
        for b in bl:
            if any(c >= s for c, s in zip(b, shp)):
                raise LayoutValueError(f"{who}: basis {list(b)} of {name} lies outside the shape {list(shp)}")
    total = int(np.prod(shp))
    ll = LinearLayout({"thread": [_col_index(b, shp) for b in lanes + warps] or [],
                       "value": [_col_index(b, shp) for b in regs]}, [("offset", total)])
    return _ll_to_cute(ll)


def _shared(offset_bases: Any, shape: Any, element_bits: Any, who: str) -> Any:
    offs = _check_bases(offset_bases, "offset_bases", None, who)
    if not offs:
        raise LayoutValueError(f"{who}: offset_bases is empty")
    rank = len(offs[0])
    if any(len(b) != rank for b in offs) or rank not in (1, 2, 3):
        raise LayoutValueError(f"{who}: every basis of offset_bases has the same rank (1 to 3), got {offs}")
    if shape is None:
        shape = [1 << max((b[d] for b in offs), default=0).bit_length() for d in range(rank)]
    shp = _check_shape(shape, who)
    if len(shp) != rank:
        raise LayoutValueError(f"{who}: shape {list(shp)} has rank {len(shp)} but the bases have rank {rank}")
    for b in offs:
        if any(c >= s for c, s in zip(b, shp)):
            raise LayoutValueError(f"{who}: basis {list(b)} of offset_bases lies outside the shape {list(shp)}")
    nbits = sum(_log2(s) for s in shp)
    pre = _f2_inverse([_col_index(b, shp) for b in offs], nbits, who, "offset_bases")
    dims, at = {}, 0
    for d, s in enumerate(shp):
        dims[f"mode{d}"] = pre[at:at + _log2(s)]
        at += _log2(s)
    out = _ll_to_cute(LinearLayout(dims, [("offset", 1 << nbits)]))
    if element_bits is None:
        return out
    if isinstance(out, Layout):
        return SwizzledSmemLayout(Swizzle(0, 4, 3), out, int(element_bits))
    sw, inner = out.outer, out.inner
    if isinstance(sw, Swizzle) and element_bits % 8 == 0 and (element_bits // 8) & (element_bits // 8 - 1) == 0:
        return SwizzledSmemLayout(element_to_byte_swizzle(sw, int(element_bits)), inner, int(element_bits))
    return SwizzledSmemLayout(sw, inner, int(element_bits), swizzle_unit="elements")


def _tmem(rows: Any, cols: Any, shape: Any, who: str) -> Layout:
    rb = _check_bases(rows, "rows", None, who)
    cb = _check_bases(cols, "cols", None, who)
    allb = rb + cb
    if not allb or any(len(b) != 2 for b in allb):
        raise LayoutValueError(f"{who}: a tensor-memory layout has rank-2 rows and cols bases, got rows={fmt(rows)}, "
                               f"cols={fmt(cols)}"[:300])
    if shape is None:
        shape = [1 << max(b[d] for b in allb).bit_length() for d in range(2)]
    shp = _check_shape(shape, who, (2,))
    nbits = _log2(shp[0]) + _log2(shp[1])
    # TMEM address bits: lane bits at 16.., column bits at 0..
    for b in allb:
        if any(c >= s for c, s in zip(b, shp)):
            raise LayoutValueError(f"{who}: TMEM basis {list(b)} lies outside the shape {list(shp)}")
    # TMEM address bits: lane bits at 16.., column bits at 0..; a zero basis is an address bit no element uses
    # (the unused lanes 16..31 of an M = 64 block, the second column of an unpacked element)
    pairs = [(_col_index(b, shp), TMEM_LANE_STRIDE << i) for i, b in enumerate(rb)]
    pairs += [(_col_index(b, shp), 1 << j) for j, b in enumerate(cb)]
    pairs = [(v, a) for v, a in pairs if v]
    images, addr = [v for v, _ in pairs], [a for _, a in pairs]
    pre = _f2_inverse(images, nbits, who, "rows + cols")
    strides = []
    for p in pre:
        a = 0
        for i in range(len(addr)):
            if (p >> i) & 1:
                a ^= addr[i]
        strides.append(a)
    out = _ll_to_cute(LinearLayout({"mode0": strides[:_log2(shp[0])], "mode1": strides[_log2(shp[0]):]},
                                   [("addr", 1 << 32)]))
    if not isinstance(out, Layout):
        raise LayoutValueError(f"{who}: the TMEM map {out} is not a plain Layout")
    return out


# --------------------------------------------------------------------------------------------------
# our objects -> bases


def _table(obj: Any, shape: tuple[int, ...], who: str) -> np.ndarray:
    """obj's value at every coordinate of ``shape`` (column-major order), as int64."""
    n = int(np.prod(shape))
    check_budget(who, f"shape {list(shape)}", n, MAX_EVAL_POINTS)
    if isinstance(obj, SwizzledSmemLayout):
        if obj.base_address:
            raise LayoutValueError(f"{who}: a tile at base address {obj.base_address} is not a layout Triton "
                                   "can name (its swizzle phase depends on the address); use base_address=0")
        if int(np.prod(_mode_sizes(obj.layout))) != n:
            raise LayoutValueError(f"{who}: {obj} has size {obj.layout.size()}, not the {n} elements of shape {list(shape)}")
        bits = np.asarray(obj.bit_address(np.arange(n)), dtype=np.int64)
        if np.any(bits % obj.element_bits):
            raise LayoutValueError(f"{who}: {obj} does not keep elements whole")
        return bits // obj.element_bits
    if isinstance(obj, (Layout, ComposedLayout)):
        if obj.size() != n:
            raise LayoutValueError(f"{who}: {obj} has size {obj.size()}, not the {n} elements of shape {list(shape)}")
        return np.asarray(obj.to_numpy(), dtype=np.int64)
    raise LayoutTypeError(f"{who}: expected a Layout, ComposedLayout or SwizzledSmemLayout, got {type(obj).__name__}")


def _mode_sizes(lay: Layout) -> tuple[int, ...]:
    return tuple(int(lay[i].size()) for i in range(lay.rank()))


def _check_linear(table: np.ndarray, bases: list[int], who: str, what: str) -> None:
    """table[x] == XOR of bases over the set bits of x, for every x."""
    pred = np.zeros(len(table), dtype=np.int64)
    x = np.arange(len(table), dtype=np.int64)
    for i, b in enumerate(bases):
        pred ^= np.where((x >> i) & 1, b, 0)
    if not np.array_equal(pred, table):
        bad = int(np.nonzero(pred != table)[0][0])
        raise LayoutValueError(f"{who}: {what} is not F2-linear (at input {bad}: {int(table[bad])}, the XOR of the "
                               f"bases gives {int(pred[bad])}), so no Triton linear layout equals it")


def to_linear_bases(obj: Any, shape: Any, *, kind: str | None = None, warp_size: int = 32) -> dict:
    """Triton's bases of our object over ``shape``: the inverse of :func:`from_linear_layout`.

    Pre: as :func:`to_gluon`. Post: ``{"kind": "shared", "offset_bases": ...}`` or ``{"kind": "distributed",
    "reg_bases", "lane_bases", "warp_bases", "block_bases": [], "shape"}``; ``from_linear_layout`` of it
    computes the same map. LayoutValueError when the map is not F2-linear.

    >>> to_linear_bases(Layout((4, 2), (2, 1)), [4, 2], kind="shared")["offset_bases"]
    [[0, 1], [1, 0], [2, 0]]
    """
    who = "to_linear_bases"
    _check_warp_size(warp_size, who)
    shp = _check_shape(shape, who)
    k = _kind(obj, shp, kind, who)
    if k == "shared":
        tab = _table(obj, shp, who)
        n = len(tab)
        inv = np.full(n, -1, dtype=np.int64)
        ok = tab.min() >= 0 and tab.max() < n
        if ok:
            inv[tab] = np.arange(n)
        if not ok or np.any(inv < 0):
            raise LayoutValueError(f"{who}: {obj} is not a bijection between the {n} coordinates of {list(shp)} and "
                                   f"offsets 0..{n - 1}; Triton's shared layouts are")
        bases = [int(inv[1 << i]) for i in range(_log2(n))]
        _check_linear(inv, bases, who, str(obj))
        return {"kind": "shared", "offset_bases": [_coord_of(b, shp) for b in bases], "block_bases": []}
    tv = obj
    if not isinstance(tv, (Layout, ComposedLayout)) or tv.rank() != 2:
        raise LayoutTypeError(f"{who}: a distributed layout is a rank-2 (thread, value) layout, got {tv}")
    nthr, nval = _mode_sizes(tv.inner if isinstance(tv, ComposedLayout) else tv)
    if nthr & (nthr - 1) or nval & (nval - 1) or nthr < warp_size:
        raise LayoutValueError(f"{who}: {tv} has {nthr} threads and {nval} values; Triton needs powers of two and at "
                               f"least one warp ({warp_size} threads)")
    check_budget(who, str(tv), nthr * nval, MAX_EVAL_POINTS)
    vals = np.asarray(tv.to_numpy(), dtype=np.int64).reshape(nval, nthr).T  # [t, v]
    total = int(np.prod(shp))
    if vals.min() < 0 or vals.max() >= total:
        raise LayoutValueError(f"{who}: {tv} reaches index {int(vals.max())}, outside the shape {list(shp)}")
    flat_in = vals.reshape(-1)  # index t * nval + v: value bits low
    tb = [int(vals[1 << i, 0]) for i in range(_log2(nthr))]
    vb = [int(vals[0, 1 << j]) for j in range(_log2(nval))]
    _check_linear(flat_in, vb + tb, who, str(tv))
    nl = _log2(warp_size)
    return {"kind": "distributed", "reg_bases": [_coord_of(b, shp) for b in vb],
            "lane_bases": [_coord_of(b, shp) for b in tb[:nl]], "warp_bases": [_coord_of(b, shp) for b in tb[nl:]],
            "block_bases": [], "shape": list(shp)}


def _kind(obj: Any, shp: tuple[int, ...], kind: Any, who: str) -> str:
    if kind is not None:
        if not isinstance(kind, str) or kind not in ("shared", "distributed"):
            raise LayoutValueError(f"{who}: kind must be 'shared' or 'distributed', got {fmt(kind)}"[:300])
        return kind
    if isinstance(obj, (SwizzledSmemLayout, ComposedLayout)):
        return "shared"
    if isinstance(obj, Layout):
        if _mode_sizes(obj) == shp:
            raise LayoutValueError(f"{who}: {obj} could be a shared layout ((d0, d1) -> offset) or a thread-value layout "
                                   f"over {list(shp)}; say which with kind='shared' or kind='distributed' "
                                   "(--kind on the command line)")
        return "distributed"
    raise LayoutTypeError(f"{who}: expected a Layout, ComposedLayout or SwizzledSmemLayout, got {type(obj).__name__}")


# --------------------------------------------------------------------------------------------------
# models of Triton's named layouts (checked against Triton by tests/test_interop_triton.py)


def nvmma_shared_layout(swizzle_byte_width: int, element_bits: int, shape: Any, transposed: bool = False) -> Any:
    """Gluon's ``NVMMASharedLayout(swizzle_byte_width, element_bits, 2, transposed)`` over ``shape`` as our object.

    Pre: swizzle_byte_width in (0, 32, 64, 128), element_bits in (8, 16, 32), a rank-2 power-of-two shape;
    swizzled: the contiguous extent (d1, or d0 when transposed) holds at least one swizzle row
    (``swizzle_byte_width`` bytes) and the other at least 8 rows (where Triton itself aborts).
    Post: a SwizzledSmemLayout ``(d0, d1) -> element``, swizzle on byte addresses: the atom
    (``GMMA::Layout_K_SW*`` or ``_MN_``) tiled along the non-contiguous dimension first;
    swizzle 0 is the row-major (transposed: column-major) box.

    >>> print(nvmma_shared_layout(128, 16, (16, 64)))
    Sw<3,4,3> o smem_ptr[16b](unset) o ((8,2),64):((64,512),1)
    >>> print(nvmma_shared_layout(0, 16, (8, 32)))
    Sw<0,4,3> o smem_ptr[16b](unset) o (8,32):(32,1)
    """
    who = "nvmma_shared_layout"
    if not _is_int(swizzle_byte_width) or swizzle_byte_width not in (0, 32, 64, 128):
        raise LayoutValueError(f"{who}: swizzle_byte_width is 0, 32, 64 or 128, got {fmt(swizzle_byte_width)}"[:300])
    if not _is_int(element_bits) or element_bits not in (8, 16, 32):
        raise UnitError(f"{who}: element_bits is 8, 16 or 32, got {fmt(element_bits)}"[:300])
    if not isinstance(transposed, (bool, np.bool_)):
        raise LayoutTypeError(f"{who}: transposed must be a bool, got {fmt(transposed)}"[:300])
    swizzle_byte_width, element_bits = int(swizzle_byte_width), int(element_bits)
    m, n = _check_shape(shape, who, (2,))
    contig, other = (m, n) if transposed else (n, m)
    if swizzle_byte_width == 0:
        lay = Layout((m, n), (1, m)) if transposed else Layout((m, n), (n, 1))
        return SwizzledSmemLayout(Swizzle(0, 4, 3), lay, element_bits)
    row = swizzle_byte_width * 8 // element_bits
    if contig < row or other < 8:
        raise LayoutValueError(
            f"{who}: NVMMASharedLayout({swizzle_byte_width}, {element_bits}{', transposed' if transposed else ''}) "
            f"needs a contiguous extent of at least {row} elements ({swizzle_byte_width} bytes) and 8 rows, got shape "
            f"{[m, n]} (Triton aborts with 'getTMABlockShape failed' or 'Illegal shared layout' here)")
    # the atom (8 rows of one swizzle row each), repeated along the non-contiguous dimension first
    reps_other, reps_contig = other // 8, contig // row
    o_modes = [(8, row)] + ([(reps_other, 8 * row)] if reps_other > 1 else [])
    c_modes = [(row, 1)] + ([(reps_contig, other * row)] if reps_contig > 1 else [])

    def mode(ms: list) -> tuple[Any, Any]:
        return (ms[0][0], ms[0][1]) if len(ms) == 1 else (tuple(x for x, _ in ms), tuple(y for _, y in ms))

    (os_, od), (cs, cd) = mode(o_modes), mode(c_modes)
    lay = Layout((cs, os_), (cd, od)) if transposed else Layout((os_, cs), (od, cd))
    b = _log2(swizzle_byte_width // 16)
    return SwizzledSmemLayout(Swizzle(b, 4, 3), lay, element_bits)


def tensor_memory_layout(block: Any, shape: Any, col_stride: int = 1) -> Layout:
    """Gluon's ``TensorMemoryLayout(block, col_stride)`` over ``shape`` as ``(d0, d1) -> lane << 16 | column``.

    Pre: ``block`` = (64 or 128, a power of two), ``col_stride`` 1, 2 or 4 (32-bit columns per element), a
    power-of-two rank-2 ``shape`` whose rows are ``block[0]`` or 128 and whose columns are a multiple of ``block[1]``.
    Post: a block of 128 rows uses lanes 0..127; a block of 64 rows lanes 0..15 of each 32-lane quarter,
    the next block along the rows (else along the columns) in lanes 16..31; blocks then repeat along the columns.

    >>> print(tensor_memory_layout((128, 64), (128, 64)))
    (128,64):(65536,1)
    >>> print(tensor_memory_layout((64, 64), (128, 64)))
    ((16,4,2),64):((65536,2097152,1048576),1)
    """
    who = "tensor_memory_layout"
    m, n = _check_shape(shape, who, (2,))
    ok = isinstance(block, (tuple, list)) and len(block) == 2 and all(_is_int(b) for b in block)
    if not ok or block[0] not in (64, 128) or block[1] < 1 or block[1] & (block[1] - 1):
        raise LayoutValueError(f"{who}: block is (64 or 128, a power of two), got {fmt(block)}"[:300])
    if not _is_int(col_stride) or col_stride not in (1, 2, 4):
        raise LayoutValueError(f"{who}: col_stride is 1, 2 or 4, got {fmt(col_stride)}"[:300])
    bm, bn = int(block[0]), int(block[1])
    if m not in (bm, 128) or m < bm or n % bn:
        raise LayoutValueError(f"{who}: shape {[m, n]} is not whole {bm}x{bn} blocks of at most 128 rows")
    zero = [0, 0]
    cols = [zero] * _log2(col_stride) + [[0, 1 << j] for j in range(_log2(min(bn, n)))]
    if bm == 128:
        rows = [[1 << i, 0] for i in range(7)]
    else:
        extra = [64, 0] if m == 128 else ([0, bn] if n > bn else zero)
        rows = [[1 << i, 0] for i in range(4)] + [extra, [16, 0], [32, 0]]
    have = bn * (2 if bm == 64 and m == 64 and n > bn else 1)
    while have < n:
        cols.append([0, have])
        have *= 2
    return from_linear_layout(rows=rows, cols=cols, shape=[m, n])


def _fit(regs: list, lanes: list, warps: list, shape: tuple[int, ...], order: Sequence[int]) -> tuple[list, list, list]:
    """Triton's fitting of a CTA tile to a shape: broadcast (zero) what lies outside, repeat registers to cover."""
    def clip(bl: list) -> list:
        return [[c if c < s else 0 for c, s in zip(b, shape)] for b in bl]
    regs, lanes, warps = clip(regs), clip(lanes), clip(warps)
    regs = list(regs)
    for d in order:
        ext = 1
        for b in regs + lanes + warps:
            if b[d]:
                ext = max(ext, b[d] * 2)
        while ext < shape[d]:
            regs.append([ext if i == d else 0 for i in range(len(shape))])
            ext *= 2
    return regs, lanes, warps


def _unit(d: int, v: int, rank: int = 2) -> list[int]:
    return [v if i == d else 0 for i in range(rank)]


def _blocked_bases(spt: Sequence[int], tpw: Sequence[int], wpc: Sequence[int], order: Sequence[int],
                   shape: tuple[int, ...]) -> tuple[list, list, list]:
    rank = len(shape)
    regs, lanes, warps = [], [], []
    for d in order:
        regs += [_unit(d, 1 << i, rank) for i in range(_log2(spt[d]))]
    for d in order:
        lanes += [_unit(d, spt[d] << i, rank) for i in range(_log2(tpw[d]))]
    for d in order:
        warps += [_unit(d, spt[d] * tpw[d] << i, rank) for i in range(_log2(wpc[d]))]
    return _fit(regs, lanes, warps, shape, order)


def _mma_v3_bases(wpc: Sequence[int], n_instr: int, shape: tuple[int, ...]) -> tuple[list, list, list]:
    regs = [[0, 1], [8, 0]] + [[0, 8 << i] for i in range(_log2(n_instr // 8))]
    lanes = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]]
    warps = [[16 << i, 0] for i in range(_log2(wpc[0]))] + [[0, n_instr << i] for i in range(_log2(wpc[1]))]
    return _fit(regs, lanes, warps, shape, (1, 0))


def _dot_a_bases(wpc: Sequence[int], k_width: int, shape: tuple[int, ...]) -> tuple[list, list, list]:
    regs = [[0, 1 << i] for i in range(_log2(k_width))] + [[8, 0]]
    lanes = [[0, k_width], [0, 2 * k_width], [1, 0], [2, 0], [4, 0]]
    warps = [[16 << i, 0] for i in range(_log2(wpc[0]))]
    return _fit(regs, lanes, warps, shape, (1, 0))


def _pow2_splits(total: int, rank: int = 2) -> list[tuple[int, ...]]:
    out = []
    for a in range(_log2(total) + 1):
        out.append((1 << a, total >> a))
    return out if rank == 2 else []


def _distributed_candidates(nwarps: int, shp: tuple[int, ...], warp_size: int):
    """(Gluon source, (reg, lane, warp) bases over shp) of the named rank-2 distributed layouts we model."""
    for wpc in _pow2_splits(nwarps):
        for ni in (256, 128, 64, 32, 16, 8):
            if ni > max(shp[1], 8):
                continue
            yield ((f"gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[{wpc[0]}, {wpc[1]}], "
                    f"instr_shape=[16, {ni}, 16])"), _mma_v3_bases(wpc, ni, shp))
    if nwarps >= 4:
        for kw in (1, 2, 4):
            yield ((f"gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], "
                    f"warps_per_cta=[{nwarps}, 1], instr_shape=[16, {8 * kw * 4}, 16]), k_width={kw})"),
                   _dot_a_bases((nwarps, 1), kw, shp))
    for order in ((1, 0), (0, 1)):
        for tpw in _pow2_splits(warp_size):
            for wpc in _pow2_splits(nwarps):
                for s0 in range(_log2(shp[0]) + 1):
                    for s1 in range(_log2(shp[1]) + 1):
                        spt = (1 << s0, 1 << s1)
                        yield ((f"gl.BlockedLayout(size_per_thread=[{spt[0]}, {spt[1]}], threads_per_warp=[{tpw[0]}, "
                                f"{tpw[1]}], warps_per_cta=[{wpc[0]}, {wpc[1]}], order=[{order[0]}, {order[1]}])"),
                               _blocked_bases(spt, tpw, wpc, order, shp))


def _slice_bases(bases: tuple[list, list, list], dim: int) -> tuple[list, list, list]:
    """A SliceLayout's bases from its parent's over the shape with size 1 at ``dim``: drop that coordinate and the
    registers that then hold nothing (lanes and warps stay, broadcast)."""
    regs, lanes, warps = ([[c for i, c in enumerate(b) if i != dim] for b in bl] for bl in bases)
    return [r for r in regs if any(r)], lanes, warps


def _named_distributed(b: dict, shp: tuple[int, ...], warp_size: int) -> str | None:
    if warp_size != 32 or len(shp) not in (1, 2):
        return None
    want = (b["reg_bases"], b["lane_bases"], b["warp_bases"])
    nwarps = 1 << len(b["warp_bases"])
    if len(shp) == 2:
        for src, cand in _distributed_candidates(nwarps, shp, warp_size):
            if cand == want:
                return src
        return None
    for s0 in range(_log2(shp[0]) + 1):
        if _blocked_bases((1 << s0,), (warp_size,), (nwarps,), (0,), shp) == want:
            return (f"gl.BlockedLayout(size_per_thread=[{1 << s0}], threads_per_warp=[{warp_size}], "
                    f"warps_per_cta=[{nwarps}], order=[0])")
    for dim in (1, 0):
        pshp = (shp[0], 1) if dim == 1 else (1, shp[0])
        for src, cand in _distributed_candidates(nwarps, pshp, warp_size):
            if _slice_bases(cand, dim) == want:
                return f"gl.SliceLayout(dim={dim}, parent={src})"
    return None


def swizzled_shared_layout(vec: int, per_phase: int, max_phase: int, order: Any, shape: Any) -> Any:
    """Gluon's ``SwizzledSharedLayout(vec, per_phase, max_phase, order)`` over a rank-2 ``shape`` as ``(d0, d1) -> element``.

    Pre: vec, per_phase, max_phase powers of two; order (1, 0) (d1 contiguous) or (0, 1); a power-of-two shape.
    Post: row r of the contiguous dimension (C elements) starts at r * C, and its element c lands at
    ``c ^ ((r // per_phase) % max_phase * vec) % C``: CuTe's ``Sw<log2 max_phase, log2 vec, ...> o 0 o L`` on
    element offsets (a plain Layout when max_phase is 1).

    >>> print(swizzled_shared_layout(8, 1, 8, (1, 0), (8, 64)))
    Sw<3,3,3> o 0 o (8,64):(64,1)
    >>> print(swizzled_shared_layout(1, 1, 1, (0, 1), (4, 4)))
    (4,4):(1,4)
    """
    who = "swizzled_shared_layout"
    for name, v in (("vec", vec), ("per_phase", per_phase), ("max_phase", max_phase)):
        if not _is_int(v) or v < 1 or v & (v - 1) or v > 1 << 20:
            raise LayoutValueError(f"{who}: {name} is a power of two, got {fmt(v)}"[:300])
    if not isinstance(order, (list, tuple)) or [int(o) if _is_int(o) else o for o in order] not in ([1, 0], [0, 1]):
        raise LayoutValueError(f"{who}: order is (1, 0) or (0, 1) for a rank-2 layout, got {fmt(order)}"[:300])
    shp = _check_shape(shape, who, (2,))
    return _shared(_swizzled_offset_bases(int(vec), int(per_phase), int(max_phase), tuple(int(o) for o in order), shp),
                   list(shp), None, who)


def _swizzled_offset_bases(vec: int, per_phase: int, max_phase: int, order: tuple[int, ...],
                           shp: tuple[int, ...]) -> list[list[int]]:
    c_dim, r_dim = order
    cols, rows = shp[c_dim], shp[r_dim]
    out = []
    for j in range(_log2(cols)):
        b = [0, 0]
        b[c_dim] = 1 << j
        out.append(b)
    for i in range(_log2(rows)):
        b = [0, 0]
        b[r_dim] = 1 << i
        b[c_dim] = ((1 << i) // per_phase % max_phase * vec) % cols
        out.append(b)
    return out


def _named_swizzled(offset_bases: list, shp: tuple[int, ...]) -> str | None:
    if len(shp) != 2:
        return None
    for order in ((1, 0), (0, 1)):
        cols, rows = shp[order[0]], shp[order[1]]
        for mp in range(_log2(cols) + 1):
            for v in range(_log2(cols) + 1 - (mp > 0)):
                for pp in range(_log2(rows) + 1):
                    if mp == 0 and (v or pp):
                        continue
                    if _swizzled_offset_bases(1 << v, 1 << pp, 1 << mp, order, shp) == offset_bases:
                        return (f"gl.SwizzledSharedLayout(vec={1 << v}, per_phase={1 << pp}, max_phase={1 << mp}, "
                                f"order=[{order[0]}, {order[1]}])")
    return None


def padded_shared_layout(interval_padding_pairs: Any, offset_bases: Any, shape: Any) -> Layout:
    """Gluon's ``PaddedSharedLayout(interval_padding_pairs, offset_bases, [], shape)`` as ``(d0, d1) -> element offset``.

    Pre: pairs ``[interval, padding]`` of powers of two (distinct intervals); ``offset_bases`` a bijection from
    offsets onto the power-of-two ``shape`` whose offset map is a plain strided Layout (no XOR swizzle).
    Post: offset o (before padding) lands at ``o + sum(o // interval * padding)``, Triton's rule ("after every
    interval elements, padding elements"); a Layout. LayoutValueError otherwise.

    >>> print(padded_shared_layout([[32, 4]], [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [1, 0], [2, 0]], [4, 32]))
    (4,32):(36,1)
    """
    who = "padded_shared_layout"
    if isinstance(interval_padding_pairs, (str, bytes)) or not isinstance(interval_padding_pairs, Sequence) \
            or not interval_padding_pairs or len(interval_padding_pairs) > 32:
        raise LayoutValueError(f"{who}: interval_padding_pairs is a non-empty list of [interval, padding], got "
                               f"{fmt(interval_padding_pairs)}"[:300])
    pairs = []
    for pr in interval_padding_pairs:
        if isinstance(pr, (str, bytes)) or not isinstance(pr, Sequence) or len(pr) != 2 \
                or not all(_is_int(x) and 0 < x <= 1 << 30 and not x & (x - 1) for x in pr):
            raise LayoutValueError(f"{who}: each pair is [interval, padding], both powers of two, got {fmt(pr)}"[:300])
        pairs.append((int(pr[0]), int(pr[1])))
    if len({i for i, _ in pairs}) != len(pairs):
        raise LayoutValueError(f"{who}: intervals must be distinct, got {[list(p) for p in pairs]}")
    base = _shared(offset_bases, shape, None, who)
    if not isinstance(base, Layout):
        raise LayoutValueError(f"{who}: offset_bases {fmt(offset_bases)} swizzle (XOR) the offsets; a padded layout is a "
                               "CuTe Layout here only when the offset map is a plain strided layout"[:400])
    n = int(base.size())
    # the padding as a layout on offsets: split o at every interval below n, each piece with its padded stride
    cuts = sorted({i for i, _ in pairs if i < n})
    shapes, strides, at = [], [], 1
    for c in [*cuts, n]:
        if c > at:
            shapes.append(c // at)
            strides.append(at + sum(at // i * p for i, p in pairs if i <= at))
            at = c
    pad = Layout(tuple(shapes), tuple(strides)) if len(shapes) > 1 else Layout(shapes[0], strides[0])
    out = composition(pad, base)
    return out


def _named_padded(tab: np.ndarray, shp: tuple[int, ...]) -> str | None:
    """Gluon source of a PaddedSharedLayout computing ``tab`` ((d0, d1) -> offset with gaps), or None."""
    n = len(tab)
    order = np.argsort(tab, kind="stable")
    srt = tab[order]
    if srt[0] != 0 or np.any(np.diff(srt) < 1):
        return None
    gaps = np.diff(srt) - 1           # gaps[o] = padding inserted before offset o + 1
    pairs = []
    i = 1
    while i < n:
        have = sum(p for iv, p in pairs if i % iv == 0)
        extra = int(gaps[i - 1]) - have
        if extra < 0 or extra & (extra - 1):
            return None
        if extra:
            pairs.append((i, extra))
        i *= 2
    pos = np.arange(n, dtype=np.int64)
    if not pairs or not np.array_equal(pos + sum((pos // iv) * p for iv, p in pairs), srt):
        return None
    inv = np.empty(n, dtype=np.int64)
    inv[np.arange(n)] = order         # unpadded offset o -> column-major coordinate index
    bases = [int(inv[1 << k]) for k in range(_log2(n))]
    pred = np.zeros(n, dtype=np.int64)
    for k, bv in enumerate(bases):
        pred ^= np.where((pos >> k) & 1, bv, 0)
    if not np.array_equal(pred, inv):
        return None
    return (f"gl.PaddedSharedLayout(interval_padding_pairs={[list(p) for p in pairs]}, "
            f"offset_bases={[_coord_of(bv, shp) for bv in bases]}, cga_layout=[], shape={list(shp)})")


def _shared_bits(obj: Any, element_bits: Any) -> int | None:
    if isinstance(obj, SwizzledSmemLayout):
        if element_bits is not None and element_bits != obj.element_bits:
            raise UnitError(f"to_gluon: {obj} holds {obj.element_bits}-bit elements but element_bits={element_bits} "
                            "was passed")
        return obj.element_bits
    if element_bits is not None:
        return element_bits
    if isinstance(obj, ComposedLayout) and isinstance(obj.outer, Swizzle) and obj.outer.bits:
        # an element-offset swizzle that moves 16-byte chunks tells the element width
        eb = 128 >> obj.outer.base
        return eb if eb in (8, 16, 32) else None
    return None


def to_gluon(obj: Any, shape: Any, *, kind: str | None = None, element_bits: int | None = None,
             warp_size: int = 32) -> str:
    """Gluon source (``import triton.experimental.gluon.language as gl``) of the layout equal to ``obj`` over ``shape``.

    Pre: ``obj`` is a shared layout ((d0, d1) -> element offset: a Layout, ``Sw o 0 o Layout`` or a
    SwizzledSmemLayout) or a thread-value Layout ``(thread, value) -> d0 + M * d1``, an MmaAtom/TiledMma
    is not accepted (pass its ``layout("C")``); ``kind`` says which when a plain Layout could be both;
    ``element_bits`` names the element width of a plain shared layout. Post: the named Gluon layout
    where one computes the same map over ``shape``, else ``gl.SharedLinearLayout``/
    ``gl.DistributedLinearLayout`` with explicit bases. LayoutValueError when the map is not F2-linear.

    >>> to_gluon(Layout(((4, 8, 4), (2, 2, 8)), ((128, 1, 16), (64, 8, 512))), [64, 64])
    'gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])'
    >>> to_gluon(Layout((2, 2), (2, 1)), [2, 2], kind="shared")
    'gl.SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1, order=[1, 0])'
    >>> to_gluon(Layout(((2, 2), (2, 2)), ((1, 4), (2, 8))), [4, 4], kind="shared")     # Morton order: no name
    'gl.SharedLinearLayout(offset_bases=[[1, 0], [0, 1], [2, 0], [0, 2]], block_bases=[])'
    >>> to_gluon(Layout((4, 32), (36, 1)), [4, 32], kind="shared").split(", offset_bases")[0]   # 4 elements of padding a row
    'gl.PaddedSharedLayout(interval_padding_pairs=[[32, 4]]'
    """
    who = "to_gluon"
    if kind is not None and (not isinstance(kind, str) or kind not in ("shared", "distributed", "tmem")):
        raise LayoutValueError(f"{who}: kind must be 'shared', 'distributed' or 'tmem', got {fmt(kind)}"[:300])
    _check_bits_arg(element_bits, who)
    _check_warp_size(warp_size, who)
    if isinstance(obj, (MmaAtom, CopyAtom)):
        raise LayoutTypeError(f"{who}: pass a thread-value layout (e.g. atom.layout('C')), not the atom {obj.name}")
    if kind == "tmem":
        return _gluon_tmem(obj, shape, who)
    if kind == "shared" or (kind is None and isinstance(obj, (SwizzledSmemLayout, ComposedLayout))):
        shp = _check_shape(shape, who)
        tab = _table(obj, shp, who)
        if len(tab) and (tab.min() < 0 or tab.max() >= len(tab)):
            named = _named_padded(tab, shp)
            if named is not None:
                return named
    b = to_linear_bases(obj, shape, kind=kind, warp_size=warp_size)
    shp = tuple(int(s) for s in shape)
    if b["kind"] == "shared":
        named = _named_nvmma(b["offset_bases"], shp, _shared_bits(obj, element_bits))
        if named is not None:
            return named
        named = _named_swizzled(b["offset_bases"], shp)
        if named is not None:
            return named
        return f"gl.SharedLinearLayout(offset_bases={b['offset_bases']}, block_bases=[])"
    named = _named_distributed(b, shp, warp_size)
    if named is not None:
        return named
    return (f"gl.DistributedLinearLayout(reg_bases={b['reg_bases']}, lane_bases={b['lane_bases']}, "
            f"warp_bases={b['warp_bases']}, block_bases=[], shape={list(shp)})")


def _gluon_tmem(obj: Any, shape: Any, who: str) -> str:
    # Pre:  none on obj, shape (user input).
    # Post: the Gluon TensorMemoryLayout (block, col_stride) whose map over the 2-D shape is obj's;
    #       otherwise LayoutTypeError / LayoutValueError (Gluon has no linear tensor-memory layout).
    shp = _check_shape(shape, who, (2,))
    if not isinstance(obj, Layout):
        raise LayoutTypeError(f"{who}: a tensor-memory layout is a Layout (d0, d1) -> lane << 16 | column, "
                              f"got {fmt(obj)}"[:300])
    want = _table(obj, shp, who)
    for bm in (128, 64):
        for bn in sorted({min(1 << k, shp[1]) for k in range(_log2(shp[1]) + 1)}, reverse=True):
            for cs in (1, 2, 4):
                try:
                    cand = tensor_memory_layout((bm, bn), shp, cs)
                except LayoutError:
                    continue
                if np.array_equal(_table(cand, shp, who), want):
                    return f"gl.nvidia.blackwell.TensorMemoryLayout(block=({bm}, {bn}), col_stride={cs})"
    raise LayoutValueError(f"{who}: {obj} is no Gluon TensorMemoryLayout over {list(shp)} (Gluon has no public linear "
                           "tensor-memory layout to fall back on)")


def _named_nvmma(offset_bases: Any, shp: tuple, bits: Any) -> str | None:
    # Pre:  offset_bases the shared layout's F2 bases over the shape shp.
    # Post: the gl.NVMMASharedLayout (swizzle width, transposed) with the same bases, or None (only 2-D
    #       shapes of 8-, 16- or 32-bit elements have one).
    if bits not in (8, 16, 32) or len(shp) != 2:
        return None
    for w in (128, 64, 32, 0):
        for tr in (False, True):
            try:
                cand = nvmma_shared_layout(w, bits, shp, tr)
            except LayoutError:
                continue
            if to_linear_bases(cand, shp, kind="shared")["offset_bases"] == offset_bases:
                return f"gl.NVMMASharedLayout(swizzle_byte_width={w}, element_bitwidth={bits}, rank=2, transposed={tr})"
    return None


# --------------------------------------------------------------------------------------------------
# Triton itself, in a child process


class _Worker:
    proc: subprocess.Popen | None = None
    err_path: str = ""


@atexit.register
def _stop_worker() -> None:
    """End the Triton child process and remove its log when the interpreter exits."""
    if _Worker.proc is not None and _Worker.proc.poll() is None:
        _Worker.proc.kill()
        _Worker.proc.wait()
    if _Worker.err_path:
        with contextlib.suppress(OSError):
            os.unlink(_Worker.err_path)


def _worker_call(layout: Any, shape: list[int], who: str, timeout_s: float = 120.0) -> dict:
    (status, ans), = _worker_batch([(layout, shape)], who, timeout_s)
    if status == "ok":
        return ans
    raise LayoutValueError(f"{who}: Triton refused {fmt(layout)} at shape {shape}: {ans}"[:500])


def _worker_batch(items: list[tuple[Any, list[int]]], who: str, timeout_s: float = 120.0) -> list[tuple[str, Any]]:
    """Triton's answer for each (layout, shape), one round trip to the child process for all of them."""
    w = _Worker
    if w.proc is None or w.proc.poll() is not None:
        if w.err_path:
            with contextlib.suppress(OSError):
                os.unlink(w.err_path)
        fd, w.err_path = tempfile.mkstemp(prefix="pycute_gluon_", suffix=".log")
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
        cmd = [sys.executable, "-W", "ignore::RuntimeWarning", "-m", "pycute_layouts.interop._gluon_worker"]
        w.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=fd, env=env)
        os.close(fd)
    proc = w.proc
    layout, shape = items[0] if len(items) == 1 else (f"a batch of {len(items)} layouts", "their shapes")
    try:
        data = pickle.dumps(("batch", items))
    except Exception as e:  # noqa: BLE001 - an unpicklable object is bad input
        raise LayoutTypeError(f"{who}: cannot hand {type(items[0][0]).__name__} to Triton: {e}") from None
    try:
        if proc.stdin is None or proc.stdout is None:  # Popen with PIPE always gives both
            raise LayoutValueError(f"{who}: the Triton worker process has no pipes")
        proc.stdin.write(struct.pack(">I", len(data)) + data)
        proc.stdin.flush()
        ready, _, _ = select.select([proc.stdout], [], [], timeout_s)
        hdr = proc.stdout.read(4) if ready else b""
        if len(hdr) == 4:
            (n,) = struct.unpack(">I", hdr)
            answers = pickle.loads(proc.stdout.read(n))
            for status, ans in answers:
                if status != "ok" and "No module named 'triton'" in ans:
                    raise LayoutValueError(f"{who}: Triton is not installed (pip install 'pycute-layouts[interop]')")
            return answers
    except (BrokenPipeError, OSError):
        pass
    if proc.poll() is None:
        proc.kill()
    proc.wait()
    w.proc = None
    try:
        with open(w.err_path, errors="replace") as f:
            lines = [ln for ln in f.read().splitlines() if ln.strip() and "leak" not in ln and "nanobind" not in ln]
    except OSError:
        lines = []
    tail = "; ".join(lines[-2:]) or f"exit status {proc.returncode}"
    if "No module named 'triton'" in tail:
        raise LayoutValueError(f"{who}: Triton is not installed (pip install 'pycute-layouts[interop]')")
    raise LayoutValueError(f"{who}: Triton aborted on {fmt(layout)} at shape {shape} ({tail})"[:500])


def _instr_n_check(name: str, version: Any, instr_shape: Any, who: str) -> None:
    """Triton 3.9 aborts (LinearLayout::strided1D, isPowerOf2) on a wgmma instr_shape N that is no power of two."""
    if name != "NVMMADistributedLayout" or not isinstance(instr_shape, (list, tuple)) or len(instr_shape) < 2:
        return
    n = instr_shape[1]
    if _is_int(n) and n > 0 and n & (n - 1):
        raise LayoutValueError(
            f"{who}: NVMMADistributedLayout(..., instr_shape={list(instr_shape)}): Triton builds linear layouts only "
            f"for a power-of-two instr_shape N, not {n} (Triton 3.9 aborts in LinearLayout::strided1D here); "
            f"the first {n} columns of each warp's tile "
            f"are those of instr_shape N = {1 << int(n).bit_length()} (ours: mma_atom('SM90_64x{n}x16_F32F16F16_SS')"
            ".layout_c)")


def _precheck(layout: Any, shape: tuple[int, ...], who: str) -> None:
    inner = layout
    for _ in range(8):    # a DotOperandLayout/SliceLayout's parent
        _instr_n_check(type(inner).__name__, getattr(inner, "version", None), getattr(inner, "instr_shape", None), who)
        inner = getattr(inner, "parent", None)
        if inner is None:
            break
    for field in ("size_per_thread", "warps_per_cta"):
        v = getattr(layout, field, None)
        if isinstance(v, (list, tuple)) and len(v) != len(shape):
            raise LayoutValueError(f"{who}: {type(layout).__name__}.{field} {list(v)} has rank {len(v)} but the shape "
                                   f"{list(shape)} has rank {len(shape)} (Triton itself aborts the process here)")
    if type(layout).__name__ == "NVMMASharedLayout" and len(shape) == 2:
        w = getattr(layout, "swizzle_byte_width", 0)
        bits = getattr(layout, "element_bitwidth", 16)
        tr = bool(getattr(layout, "transposed", False))
        if w and bits:
            contig, other = (shape[0], shape[1]) if tr else (shape[1], shape[0])
            row = w * 8 // bits
            if contig < row or other < 8:
                raise LayoutValueError(
                    f"{who}: NVMMASharedLayout(swizzle_byte_width={w}, element_bitwidth={bits}, transposed={tr}) needs "
                    f"a contiguous extent of at least {row} elements ({w} bytes) and 8 rows; shape {list(shape)} has "
                    f"{contig} and {other} (Triton itself aborts the process here)")


def _check_gluon(layout: Any, who: str) -> None:
    """Refuse, before Triton is started, what is no Gluon layout object and no call of a Gluon layout constructor."""
    if isinstance(layout, str):
        try:
            body = ast.parse(layout.strip(), mode="eval").body
        except SyntaxError:
            body = None
        f = body.func if isinstance(body, ast.Call) else None
        name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None
        if name not in GLUON_NAMES:
            raise LayoutValueError(f"{who}: not a Gluon layout expression (a call of one of {', '.join(GLUON_NAMES)}), "
                                   f"got {fmt(layout)}"[:400])
        return
    cls = type(layout)
    if cls.__name__ not in GLUON_NAMES or not (cls.__module__ or "").startswith("triton"):
        raise LayoutTypeError(f"{who}: expected a Gluon layout object or its source text, got {fmt(layout)} "
                              f"({cls.__name__})"[:400])


def from_gluon(layout: Any, shape: Any, element_bits: int | None = None, *, warp_size: int = 32) -> Any:
    """A Gluon layout object (or its source text) over ``shape``, converted by Triton itself, as our object.

    Pre: Triton is installed (``pip install 'pycute-layouts[interop]'``); ``layout`` a Gluon layout object or
    source such as ``"gl.NVMMASharedLayout(128, 16)"`` (layout constructors and literals only); ``shape``
    powers of two. Post: shared -> ``obj(d0, d1)`` = the element offset of element (d0, d1) (a
    SwizzledSmemLayout when ``element_bits``, default the layout's ``element_bitwidth``, is known);
    distributed -> the thread-value Layout; tensor memory -> ``(d0, d1) -> lane << 16 | column``.
    Triton runs in a child process (started once): a shape it rejects, or an abort inside it, is a
    LayoutValueError naming Triton's message.

    >>> from_gluon("gl.NVMMASharedLayout(128, 16)", [4, 64])
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.LayoutValueError: from_gluon: NVMMASharedLayout(swizzle_byte_width=128, ... 8 rows; ...
    """
    who = "from_gluon"
    padded = _padded_request(layout, shape, who)
    if padded is not None:
        return padded
    layout, shp, element_bits = _gluon_request(layout, shape, element_bits, warp_size, who)
    return _gluon_answer(_worker_call(layout, list(shp), who), shp, element_bits, warp_size)


def _padded_request(layout: Any, shape: Any, who: str) -> Layout | None:
    """A PaddedSharedLayout (object or source) from its own fields: Triton 3.9 has no linear layout for it
    (``LLVM ERROR: padded shared encoding has no linear layout``, an abort)."""
    fields: dict = {}
    if isinstance(layout, str):
        try:
            body = ast.parse(layout.strip(), mode="eval").body
        except (SyntaxError, ValueError, RecursionError):
            return None
        if not isinstance(body, ast.Call):
            return None
        f = body.func
        if (f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")) != "PaddedSharedLayout":
            return None
        names = ("interval_padding_pairs", "offset_bases", "cga_layout", "shape")
        nodes = {**dict(zip(names, body.args)), **{k.arg: k.value for k in body.keywords}}
        try:
            fields = {k: ast.literal_eval(v) for k, v in nodes.items()}
        except (ValueError, TypeError, SyntaxError, RecursionError):
            raise LayoutValueError(f"{who}: a PaddedSharedLayout's fields are literals, got {fmt(layout[:200])}") from None
    elif type(layout).__name__ == "PaddedSharedLayout":
        fields = {k: getattr(layout, k, None) for k in ("interval_padding_pairs", "offset_bases", "cga_layout", "shape")}
    else:
        return None
    shp = _check_shape(shape, who)
    if fields.get("cga_layout"):
        raise LayoutValueError(f"{who}: cga_layout {fmt(fields['cga_layout'])} spreads the layout over several CTAs; only "
                               "one CTA's layout has a CuTe equivalent here"[:300])
    own = fields.get("shape")
    if own is not None and [int(x) for x in own] != list(shp):
        raise LayoutValueError(f"{who}: the PaddedSharedLayout is for shape {list(own)}, not {list(shp)}")
    return padded_shared_layout(fields.get("interval_padding_pairs"), fields.get("offset_bases"), list(shp))


def from_gluon_many(items: Any, *, warp_size: int = 32) -> list:
    """:func:`from_gluon` of many ``(layout, shape)`` or ``(layout, shape, element_bits)`` at once: one round trip to Triton.

    Pre: as :func:`from_gluon` for each item (at most 4096 items). Post: the list of our objects, in order.
    Every item is checked before Triton sees any; a layout Triton refuses is a LayoutValueError naming it (an
    abort inside Triton fails the whole batch: call :func:`from_gluon` alone to find the culprit).

    >>> from_gluon_many([("gl.NVMMASharedLayout(128, 16)", [8, 64]), ("gl.NVMMASharedLayout(128, 16)", [4, 64])])
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.LayoutValueError: from_gluon: NVMMASharedLayout(swizzle_byte_width=128, ... 8 rows; ...
    """
    who = "from_gluon_many"
    if isinstance(items, (str, bytes)) or not isinstance(items, Sequence):
        raise LayoutTypeError(f"{who}: expected a list of (layout, shape) pairs, got {type(items).__name__}")
    if len(items) > 4096:
        raise LayoutValueError(f"{who}: {len(items)} layouts in one batch; at most 4096")
    reqs = []
    for it in items:
        if isinstance(it, (str, bytes)) or not isinstance(it, Sequence) or len(it) not in (2, 3):
            raise LayoutTypeError(f"{who}: each item is (layout, shape) or (layout, shape, element_bits), got {fmt(it)}"[:300])
        padded = _padded_request(it[0], it[1], "from_gluon")
        reqs.append(("padded", padded, None) if padded is not None else
                    _gluon_request(it[0], it[1], it[2] if len(it) == 3 else None, warp_size, "from_gluon"))
    asked = [(lay, list(shp)) for lay, shp, _ in reqs if not (isinstance(lay, str) and lay == "padded")]
    got = iter(_worker_batch(asked, who) if asked else [])
    answers = [("padded", shp) if isinstance(lay, str) and lay == "padded" else next(got) for lay, shp, _ in reqs]
    out = []
    for (lay, shp, bits), (status, ans) in zip(reqs, answers):
        if status == "padded":
            out.append(ans)
            continue
        if status != "ok":
            raise LayoutValueError(f"{who}: Triton refused {fmt(lay)} at shape {list(shp)}: {ans}"[:500])
        out.append(_gluon_answer(ans, shp, bits, warp_size))
    return out


def _gluon_request(layout: Any, shape: Any, element_bits: Any, warp_size: Any, who: str) -> tuple:
    """Checks one from_gluon request before Triton sees it: (layout, shape, element_bits)."""
    _check_bits_arg(element_bits, who)
    _check_warp_size(warp_size, who)
    shp = _check_shape(shape, who)
    if not isinstance(layout, str):
        _check_gluon(layout, who)  # no Gluon object: refused before any attribute of it is read
    if isinstance(layout, str):
        src = layout.strip()
        if len(src) > 20000:
            raise LayoutValueError(f"{who}: Gluon source of {len(src)} characters is too long")
        try:
            tree = ast.parse(src, mode="eval")
        except SyntaxError as e:
            raise LayoutValueError(f"{who}: not a Gluon layout expression: {fmt(src)} ({e.msg})"[:300]) from None
        body = tree.body
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                f = node.func
                nm = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
                kwv = {k.arg: k.value for k in node.keywords}
                pos = dict(zip(("version", "warps_per_cta", "instr_shape"), node.args))
                ins = kwv.get("instr_shape", pos.get("instr_shape"))
                lit = None
                with contextlib.suppress(ValueError, TypeError, SyntaxError, RecursionError):
                    lit = ast.literal_eval(ins) if ins is not None else None
                _instr_n_check(nm, None, lit, who)
        if isinstance(body, ast.Call):
            name = body.func.attr if isinstance(body.func, ast.Attribute) else getattr(body.func, "id", "")
            kw = {k.arg: k.value for k in body.keywords}
            if name == "NVMMASharedLayout":
                args = [*body.args, kw.get("swizzle_byte_width"), kw.get("element_bitwidth")]
                vals = [a.value if isinstance(a, ast.Constant) else None for a in args if a is not None]
                tr = kw.get("transposed")
                trv = tr.value if isinstance(tr, ast.Constant) else (body.args[3].value if len(body.args) > 3 and
                                                                       isinstance(body.args[3], ast.Constant) else False)
                if len(vals) >= 2:
                    fake = type("NVMMASharedLayout", (), {"swizzle_byte_width": vals[0], "element_bitwidth": vals[1],
                                                           "transposed": trv})()
                    _precheck(fake, shp, who)
                    if element_bits is None and isinstance(vals[1], int):
                        element_bits = vals[1]
    else:
        _precheck(layout, shp, who)
        if element_bits is None:
            element_bits = getattr(layout, "element_bitwidth", None)
    _check_gluon(layout, who)
    return layout, shp, element_bits


def _gluon_answer(ans: dict, shp: tuple[int, ...], element_bits: Any, warp_size: int) -> Any:
    ans = dict(ans)
    kind = ans.pop("kind")
    ans.pop("repr", None)
    if kind == "shared":
        return from_linear_layout(offset_bases=ans["offset_bases"], block_bases=ans["block_bases"], shape=list(shp),
                                  element_bits=element_bits)
    if kind == "tmem":
        return from_linear_layout(rows=ans["rows"], cols=ans["cols"], shape=ans["shape"])
    return from_linear_layout(ans, warp_size=warp_size)


def gluon_table(tv: Any, shape: Any, *, warp_size: int = 32) -> str:
    """Triton's view of a thread-value layout: each element of ``shape`` as ``W<warp>L<lane>R<reg>`` (first holder).

    Pre: ``tv`` a rank-2 (thread, value) Layout over a rank-2 ``shape`` (at most 64 x 64 drawn cells).
    Post: a text table, rows d0, columns d1, as Triton's layout dumps name registers, lanes and warps.

    >>> print(gluon_table(Layout((4, 2), (1, 4)), [4, 2], warp_size=4))
         0       1
    0  W0L0R0  W0L0R1
    1  W0L1R0  W0L1R1
    2  W0L2R0  W0L2R1
    3  W0L3R0  W0L3R1
    """
    who = "gluon_table"
    _check_warp_size(warp_size, who)
    shp = _check_shape(shape, who, (2,))
    if shp[0] * shp[1] > 64 * 64:
        raise LayoutValueError(f"{who}: a {shp[0]}x{shp[1]} table is too large to print (at most 64 x 64 cells)")
    if not isinstance(tv, (Layout, ComposedLayout)) or tv.rank() != 2:
        raise LayoutTypeError(f"{who}: expected a rank-2 (thread, value) layout, got {fmt(tv)}"[:300])
    require_offsets(tv if isinstance(tv, Layout) else tv.inner, who)
    check_budget(who, f"layout {fmt(tv)}", tv.size(), MAX_EVAL_POINTS)
    nthr = int(tv[0].size()) if isinstance(tv, Layout) else int(tv.inner[0].size())
    nval = int(tv.size()) // nthr
    vals = np.asarray(tv.to_numpy(), dtype=np.int64).reshape(nval, nthr).T
    cells: dict[int, str] = {}
    for t, v in itertools.product(range(nthr), range(nval)):
        idx = int(vals[t, v])
        cells.setdefault(idx, f"W{t // warp_size}L{t % warp_size}R{v}")
    width = max([len(c) for c in cells.values()] + [3])
    lines = [" " * 3 + "".join(f"{c:>{width + 2}}" for c in range(shp[1]))]
    for r in range(shp[0]):
        lines.append(f"{r:<3}" + "".join(f"{cells.get(r + shp[0] * c, '.'):>{width + 2}}" for c in range(shp[1])))
    return "\n".join(lines)
