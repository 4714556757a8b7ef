"""Hardware validation (issue 9): generate CUDA checks from the library, and verify a GPU result file.

The library's claims about TMA placement, tensor-map validation, im2col and wgmma descriptors are
turned into CUDA kernels whose every layout constant comes from the library (no constant is typed by
hand): the wgmma operands' descriptors per K step, MN-block offsets, LBO/SBO, TMA swizzle, box, data
type and copies are read from :mod:`pycute_layouts.codegen` -- one spec per configuration,
``kernel_constants`` + ``emit_header`` verbatim where the tile sits on the swizzle pattern boundary,
``describe_operand`` elsewhere -- and the per-element store addresses from
:meth:`SwizzledSmemLayout.byte_address`. They run on a Hopper GPU by ``examples/hardware/run.sh``, and the GPU's raw
observations are written to a JSON result file. :func:`verify` recomputes every prediction with
the *current* library and compares it with those observations, so a later change to the library
that contradicts the hardware fails (the CPU test suite runs it on the committed result file).

Seven groups of checks (``kind`` in the result file):

``place``
    TMA placement: one 2-D box per ``CUtensorMapSwizzle`` value 0..6, element size 1/2/4 bytes,
    inner extent = the swizzle span and smaller, 8/16 rows, destination ``1024*k + 128*j``. The
    GPU reports where every box byte landed (a hash of the offsets, plus the first differences
    from the generator's prediction) or the driver's error; prediction: :func:`tma.box_to_smem`.
``store``
    TMA stores (shared -> global) for the sm90 swizzle modes: every global byte names the shared-memory
    byte it came from; prediction: :func:`tma.box_to_smem` read backwards; plus a load -> store round trip.
``im2col``
    ``cp.async.bulk.tensor.{3d,4d}...im2col`` loads with im2col offsets: the dumped region, element by
    element, against :func:`pycute_layouts.arch.im2col.im2col_load` (which pixel lands in which row, fill
    for out-of-bounds pixels and channels) placed by :func:`tma.box_to_smem` with box ``(channels, pixels)``.
``valid``
    Tensor-map validation: parameter sets at and just past each rule of :func:`tma.rules_for`
    through the real ``cuTensorMapEncodeTiled`` / ``cuTensorMapEncodeIm2col``; prediction:
    ``TiledTensorMap(...).violations() == []`` / ``Im2colTensorMap``.
``mma``
    wgmma with operands written by plain stores at :meth:`SwizzledSmemLayout.byte_address` and
    descriptors from :func:`wgmma.make_smem_desc` / :meth:`SmemDescriptor.advance`; prediction:
    the product equals ``A @ B`` (the GPU reports a hash of D and the mismatches against the
    exact integer reference).
``e2e``
    TMA loads the operand tiles (the library's swizzle mode, box and destinations), wgmma reads
    them with the library's descriptors; prediction as for ``mma``.
``neg``
    Negative controls: one field of a descriptor (LBO, SBO, layout type, base offset) or the
    tensor map's swizzle is changed; prediction: the product is wrong exactly when the library's
    hardware model (:meth:`SmemDescriptor.element_addresses`, :func:`tma.box_to_smem`) says the
    change moves a byte that is read.

>>> cases = plan()
>>> sorted({c["kind"] for c in cases})
['e2e', 'im2col', 'mma', 'neg', 'place', 'store', 'valid']
>>> fnv_hash([1, 2, 3]) == fnv_hash(np.array([1, 2, 3], dtype=np.int32))
True
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from collections.abc import Iterable, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from .. import codegen
from ..arch import tma, wgmma
from ..arch.swizzle_modes import SwizzleMode
from ..core.composed import ComposedLayout, SwizzledSmemLayout
from ..errors import HwCheckError, LayoutError, TensorMapError

__all__ = [
    "ABS_DATA",
    "ABS_B",
    "ABS_PLACE",
    "DYN_SMEM_BYTES",
    "HwCheckError",
    "fnv_hash",
    "plan",
    "mma_constants",
    "emit",
    "verify",
    "format_table",
    "KNOWN_DIFFERENCES",
]


# Harness addresses (absolute shared-memory byte addresses; not layout constants: where the harness
# puts its data). The kernels check at run time that the dynamic shared memory covers them.
ABS_MBAR = 0x1F00  #: the mbarrier
ABS_DATA = 0x2000  #: A operand tiles (and the first TMA placement region)
ABS_B = 0x12000  #: B operand tiles
ABS_PLACE = ABS_DATA  #: TMA placement: region 0; region 1 is ABS_PLACE + PLACE_REGION_BYTES
PLACE_REGION_BYTES = 0x2000
IM2COL_REGION_BYTES = 0x5000  #: im2col: the region dumped (every model's rows fit)
DYN_SMEM_BYTES = 0x32000  #: dynamic shared memory requested by the wgmma kernels (200 KiB)

_DTYPES = {"bf16": 16, "tf32": 32, "e4m3": 8}
_K_INSTR = {"bf16": 16, "tf32": 8, "e4m3": 32}
_TMA_DTYPE = {8: "UINT8", 16: "UINT16", 32: "UINT32", 1: "UINT8", 2: "UINT16", 4: "UINT32"}
_MODES = ("none", "32B", "64B", "128B")


# --------------------------------------------------------------------------------------------------
# Hashing shared with the CUDA program (examples/hardware/hwcheck.cu: hw_hash)
# --------------------------------------------------------------------------------------------------

_M64 = (1 << 64) - 1


def _splitmix(x: np.ndarray) -> np.ndarray:
    z = x + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def fnv_hash(values: Any) -> str:
    """Order-sensitive 64-bit hash of a sequence of int32 values, as 16 hex digits.

    ``sum_i splitmix64(i) * splitmix64(uint32(v_i)) mod 2**64`` -- vectorised here, a loop in the
    CUDA program; the name is historical. Raises :class:`HwCheckError` for non-integer input.

    >>> fnv_hash([])
    '0000000000000000'
    >>> fnv_hash([0, 1]) != fnv_hash([1, 0])
    True
    """
    a = np.asarray(values)
    if a.size and not np.issubdtype(a.dtype, np.integer):
        raise HwCheckError(f"fnv_hash: expected integers, got dtype {a.dtype}")
    v = a.astype(np.int64).ravel().astype(np.uint32).astype(np.uint64)
    with np.errstate(over="ignore"):
        i = np.arange(v.size, dtype=np.uint64)
        h = np.sum(_splitmix(i) * _splitmix(v), dtype=np.uint64) if v.size else np.uint64(0)
    return f"{int(h) & _M64:016x}"


# --------------------------------------------------------------------------------------------------
# Operand values (small integers, so fp32 accumulation is exact)
# --------------------------------------------------------------------------------------------------


def _values(seed: int, shape: tuple[int, int]) -> np.ndarray:
    n = shape[0] * shape[1]
    with np.errstate(over="ignore"):
        x = _splitmix(np.uint64(seed) * np.uint64(1 << 24) + np.arange(n, dtype=np.uint64))
    return ((x % np.uint64(7)).astype(np.int64) - 3).reshape(shape).astype(np.int8)


_E4M3 = {0: 0x00, 1: 0x38, 2: 0x40, 3: 0x44}


def _bits(dtype: str, v: np.ndarray) -> np.ndarray:
    """The element bit patterns of small integers (bf16, tf32 as fp32 bits, e4m3)."""
    if dtype == "e4m3":
        mag = np.vectorize(lambda x: _E4M3[abs(int(x))])(v).astype(np.uint32)
        return np.where(v < 0, mag | 0x80, mag).astype(np.uint32)
    f = v.astype(np.float32).view(np.uint32)
    return (f >> 16).astype(np.uint32) if dtype == "bf16" else f.astype(np.uint32)


def _seed(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:3], "little")


# --------------------------------------------------------------------------------------------------
# The plan: every case as a JSON-able dict
# --------------------------------------------------------------------------------------------------


def _place_cases() -> list[dict]:
    out = []
    for mode in SwizzleMode:
        if mode is SwizzleMode.B96:  # PTX-only: no CUtensorMapSwizzle value to run
            continue
        span = tma.swizzle_mode_info(mode).span_bytes
        widths = (128, 48) if span is None else tuple(w for w in (span, span // 2, span // 4) if w >= 16)
        for eb in (1, 2, 4):
            for w in widths:
                for rows in (8, 16):
                    for j in range(8):
                        out.append({"kind": "place", "id": f"place/{mode.tma_name}/e{eb}/w{w}/r{rows}/o{128 * j}",
                                    "mode": int(mode), "elem_bytes": eb, "box": [w // eb, rows], "dst_off": 128 * j})
    # destinations off a 128-byte line (the model's floor is 16 B): what the hardware does with them
    for mode in (SwizzleMode.NONE, SwizzleMode.B32, SwizzleMode.B64, SwizzleMode.B128):
        w = tma.swizzle_mode_info(mode).span_bytes or 128
        for off in (16, 32, 64):
            out.append({"kind": "place", "id": f"place/{mode.tma_name}/e2/w{w}/r8/o{off}", "mode": int(mode),
                        "elem_bytes": 2, "box": [w // 2, 8], "dst_off": off})
    return out


def _store_cases() -> list[dict]:
    """TMA stores (shared -> global) for the sm90 swizzle modes: the placement model read backwards."""
    out = []
    for mode in (SwizzleMode.NONE, SwizzleMode.B32, SwizzleMode.B64, SwizzleMode.B128):
        span = tma.swizzle_mode_info(mode).span_bytes
        widths = (128, 48) if mode is SwizzleMode.NONE else tuple(w for w in (span, span // 2, span // 4) if w >= 16)
        for eb in (1, 2, 4):
            for w in widths:
                for rows in (8, 16):
                    for off in (0, 128, 384, 896):
                        out.append({"kind": "store", "id": f"store/{mode.tma_name}/e{eb}/w{w}/r{rows}/o{off}",
                                    "mode": int(mode), "elem_bytes": eb, "box": [w // eb, rows], "dst_off": off})
    for mode in (SwizzleMode.NONE, SwizzleMode.B128):  # sources off a 128-byte line
        for off in (16, 64):
            out.append({"kind": "store", "id": f"store/{mode.tma_name}/e2/w128/r8/o{off}", "mode": int(mode),
                        "elem_bytes": 2, "box": [64, 8], "dst_off": off})
    return out


def _im2col_case(name: str, dtype: str, gdim: Sequence[int], lower: Sequence[int], upper: Sequence[int], channels: int,
                 pixels: int, swizzle: str, coords: Sequence[int], offsets: Sequence[int],
                 estrides: Sequence[int] | None = None, dst_off: int = 0) -> dict:
    return {"kind": "im2col", "id": f"im2col/{name}", "dtype": dtype, "gdim": list(gdim), "lower": list(lower),
            "upper": list(upper), "channels": channels, "pixels": pixels, "swizzle": swizzle, "coords": list(coords),
            "offsets": list(offsets), "estrides": list(estrides or [1] * len(gdim)), "dst_off": dst_off}


def _im2col_cases() -> list[dict]:
    """TMA im2col loads (plain .im2col, 3-D and 4-D) checked row by row against ``arch.im2col.im2col_load``."""
    c = []
    nhwc = (64, 10, 10, 2)  # (C, W, H, N): 3x3 convolution, padding 1
    pad = dict(lower=(-1, -1), upper=(-1, -1))
    for taps in ((0, 0), (1, 1), (2, 2), (2, 0)):
        c.append(_im2col_case(f"4d/u16/128B/c64/p128/s1/tap{taps[0]}{taps[1]}", "UINT16", nhwc, channels=64, pixels=128,
                              swizzle="128B", coords=(0, -1, -1, 0), offsets=taps, **pad))
    c.append(_im2col_case("4d/u16/128B/c64/p128/s1/mid-to-past-N", "UINT16", nhwc, channels=64, pixels=128,
                          swizzle="128B", coords=(0, 3, 5, 1), offsets=(1, 0), **pad))
    c.append(_im2col_case("4d/u16/64B/c32/p64/s1", "UINT16", nhwc, channels=32, pixels=64, swizzle="64B",
                          coords=(0, -1, -1, 0), offsets=(0, 1), **pad))
    c.append(_im2col_case("4d/u16/64B/c32/p64/s1/c32", "UINT16", nhwc, channels=32, pixels=64, swizzle="64B",
                          coords=(32, 4, 2, 0), offsets=(2, 1), dst_off=512, **pad))
    c.append(_im2col_case("4d/u16/32B/c16/p32/s1/wrap-past-N", "UINT16", nhwc, channels=16, pixels=32, swizzle="32B",
                          coords=(16, 5, 8, 1), offsets=(1, 1), dst_off=256, **pad))
    for off in (128, 16):  # 16: a destination off a 128-byte line
        c.append(_im2col_case(f"4d/u16/none/c8/p32/s1/dst{off}", "UINT16", nhwc, channels=8, pixels=32, swizzle="NONE",
                              coords=(8, 0, 0, 0), offsets=(0, 0), dst_off=off, **pad))
    c.append(_im2col_case("4d/u16/128B/c64/p64/s1/channels-past-C", "UINT16", nhwc, channels=64, pixels=64,
                          swizzle="128B", coords=(8, -1, 0, 0), offsets=(1, 1), **pad))
    c.append(_im2col_case("4d/u16/128B/c32/p32/s1/narrow", "UINT16", nhwc, channels=32, pixels=32, swizzle="128B",
                          coords=(0, -1, -1, 0), offsets=(0, 0), **pad))
    c.append(_im2col_case("4d/u16/128B/c8/p32/s1/narrow", "UINT16", nhwc, channels=8, pixels=32, swizzle="128B",
                          coords=(0, -1, -1, 0), offsets=(1, 1), **pad))
    s2 = (1, 2, 2, 1)  # stride-2 convolution
    for taps in ((0, 0), (1, 2)):
        c.append(_im2col_case(f"4d/u16/128B/c64/p64/s2/tap{taps[0]}{taps[1]}", "UINT16", nhwc, channels=64, pixels=64,
                              swizzle="128B", coords=(0, -1, -1, 0), offsets=taps, estrides=s2, **pad))
    c.append(_im2col_case("4d/u16/64B/c32/p32/s2/start-inside", "UINT16", nhwc, channels=32, pixels=32, swizzle="64B",
                          coords=(0, 1, 3, 0), offsets=(2, 1), estrides=s2, **pad))
    c.append(_im2col_case("4d/u16/128B/c64/p96/sW1H2/5x3", "UINT16", (64, 12, 6, 2), lower=(-2, -1), upper=(-2, -1),
                          channels=64, pixels=96, swizzle="128B", coords=(0, -2, -1, 0), offsets=(4, 2),
                          estrides=(1, 1, 2, 1)))
    nwc = (16, 40, 3)  # (C, W, N): 5-tap 1-D convolution, padding 2, 32-bit elements
    for tap in (0, 4):
        c.append(_im2col_case(f"3d/u32/64B/c16/p128/s1/tap{tap}", "UINT32", nwc, lower=(-2,), upper=(-2,), channels=16,
                              pixels=128, swizzle="64B", coords=(0, -2, 0), offsets=(tap,)))
    c.append(_im2col_case("3d/u32/64B/c16/p64/s2/tap3", "UINT32", nwc, lower=(-2,), upper=(-2,), channels=16, pixels=64,
                          swizzle="64B", coords=(0, -2, 0), offsets=(3,), estrides=(1, 2, 1)))
    c.append(_im2col_case("3d/u32/32B/c8/p64/s1/c8", "UINT32", nwc, lower=(-2,), upper=(-2,), channels=8, pixels=64,
                          swizzle="32B", coords=(8, 5, 1), offsets=(2,)))
    c.append(_im2col_case("3d/u32/none/c16/p32/s2/offset39", "UINT32", nwc, lower=(-2,), upper=(-2,), channels=16,
                          pixels=32, swizzle="NONE", coords=(0, -2, 0), offsets=(39,), estrides=(1, 2, 1)))
    return c


def _tiled(note: str, dtype: str = "UINT16", gdim: Sequence[int] = (256, 64), gstrides: Sequence[int] | None = None,
           box: Sequence[int] = (64, 8), estrides: Sequence[int] | None = None, interleave: str = "NONE",
           swizzle: str = "NONE", oob: str = "NONE", addr_off: int = 0) -> dict:
    eb = tma.TensorDataType.parse(dtype).size_bytes
    if gstrides is None:
        gstrides, s = [], int(gdim[0] * eb)
        s = -(-s // 16) * 16
        for d in gdim[1:]:
            gstrides.append(s)
            s *= d
    return {"kind": "valid", "function": tma.TILED, "note": note, "dtype": dtype, "gdim": list(gdim),
            "gstrides": list(gstrides), "box": list(box), "estrides": list(estrides or [1] * len(gdim)),
            "interleave": interleave, "swizzle": swizzle, "oob": oob, "addr_off": addr_off}


def _im2col(note: str, dtype: str = "UINT16", gdim: Sequence[int] = (64, 16, 16, 2), lower: Sequence[int] | None = None,
            upper: Sequence[int] | None = None, channels: int = 64, pixels: int = 128, estrides: Sequence[int] | None = None,
            swizzle: str = "128B", interleave: str = "NONE", addr_off: int = 0) -> dict:
    eb = tma.TensorDataType.parse(dtype).size_bytes
    gstrides, s = [], int(gdim[0] * eb)
    for d in gdim[1:]:
        gstrides.append(s)
        s *= d
    n = len(gdim) - 2
    return {"kind": "valid", "function": tma.IM2COL, "note": note, "dtype": dtype, "gdim": list(gdim),
            "gstrides": gstrides, "lower": list(lower if lower is not None else [0] * n),
            "upper": list(upper if upper is not None else [0] * n), "channels": channels, "pixels": pixels,
            "estrides": list(estrides or [1] * len(gdim)), "interleave": interleave, "swizzle": swizzle,
            "oob": "NONE", "addr_off": addr_off}


def _valid_cases() -> list[dict]:
    c: list[dict] = []
    # rank
    for r in range(1, 6):
        c.append(_tiled(f"rank.tiled_range: rank {r} (valid)", gdim=[64] + [4] * (r - 1), box=[64] + [2] * (r - 1)))
    # box_dim.range
    c.append(_tiled("box_dim.range: boxDim[1]=256 (limit)", gdim=(64, 512), box=(64, 256)))
    c.append(_tiled("box_dim.range: boxDim[1]=257 (past)", gdim=(64, 512), box=(64, 257)))
    c.append(_tiled("box_dim.range: boxDim[0]=256 (limit)", dtype="UINT8", gdim=(512, 8), box=(256, 8)))
    c.append(_tiled("box_dim.range: boxDim[0]=257 (past; 257 B not x16)", dtype="UINT8", gdim=(512, 8), box=(257, 8)))
    c.append(_tiled("box_dim.range: boxDim[0]=272 (past, x16 bytes)", dtype="UINT8", gdim=(512, 8), box=(272, 8)))
    c.append(_tiled("box_dim.range: boxDim[1]=0", box=(64, 0)))
    # inner bytes multiple of 16 (interleave NONE)
    c.append(_tiled("box_dim.inner_bytes_multiple16: 16 B (limit)", box=(8, 8)))
    c.append(_tiled("box_dim.inner_bytes_multiple16: 24 B (past)", box=(12, 8)))
    c.append(_tiled("box_dim.inner_bytes_multiple16: 8 B (past)", dtype="UINT32", box=(2, 8)))
    # inner box bytes vs swizzle span
    for sw, span in (("32B", 32), ("64B", 64), ("128B", 128), ("128B_ATOM_32B", 128), ("128B_ATOM_32B_FLIP_8B", 128),
                     ("128B_ATOM_64B", 128)):
        c.append(_tiled(f"swizzle.inner_box_span: {sw} inner {span} B (limit)", box=(span // 2, 8), swizzle=sw))
        c.append(_tiled(f"swizzle.inner_box_span: {sw} inner {span + 16} B (past)", box=(span // 2 + 8, 8), swizzle=sw))
    # global strides
    c.append(_tiled("global_strides.multiple16: stride 528 (x16)", gdim=(256, 64), gstrides=[528]))
    c.append(_tiled("global_strides.multiple16: stride 520 (not x16)", gdim=(256, 64), gstrides=[520]))
    c.append(_tiled("global_strides.multiple16: stride 514 (not x16)", gdim=(256, 64), gstrides=[514]))
    c.append(_tiled("global_strides.range: stride 2^40-16 (limit)", gdim=(256, 4), gstrides=[2**40 - 16]))
    c.append(_tiled("global_strides.range: stride 2^40 (past)", gdim=(256, 4), gstrides=[2**40]))
    # global address alignment
    c.append(_tiled("global_address.align16: +16 B (valid)", addr_off=16))
    c.append(_tiled("global_address.align16: +8 B (past)", addr_off=8))
    c.append(_tiled("global_address.align16: +4 B (past)", addr_off=4))
    # global dims
    c.append(_tiled("global_dim.range: globalDim[1]=2^32 (limit)", gdim=(64, 2**32), gstrides=[128], box=(64, 8)))
    c.append(_tiled("global_dim.range: globalDim[1]=2^32+1 (past)", gdim=(64, 2**32 + 1), gstrides=[128], box=(64, 8)))
    c.append(_tiled("global_dim.range: globalDim[1]=0 (past)", gdim=(64, 0), gstrides=[128], box=(64, 8)))
    # element strides
    for es in (1, 8, 9, 0):
        tag = "valid" if 1 <= es <= 8 else "past"
        c.append(_tiled(f"element_strides.range: elementStrides[1]={es} ({tag})", gdim=(64, 64), box=(64, 16),
                        estrides=[1, es]))
    # interleave
    c.append(_tiled("rank.interleave_min3: interleave 16B rank 2 (past)", gdim=(64, 64), box=(8, 8), interleave="16B"))
    c.append(_tiled("rank.interleave_min3: interleave 16B rank 3 (valid)", gdim=(64, 8, 8), box=(8, 8, 8),
                    interleave="16B"))
    c.append(_tiled("swizzle.interleave32_requires_32B: interleave 32B + swizzle 32B (valid)", gdim=(64, 8, 8),
                    box=(16, 8, 8), interleave="32B", swizzle="32B"))
    c.append(_tiled("swizzle.interleave32_requires_32B: interleave 32B + swizzle 64B (past)", gdim=(64, 8, 8),
                    box=(16, 8, 8), interleave="32B", swizzle="64B"))
    c.append(_tiled("swizzle.interleave32_requires_32B: interleave 32B + swizzle NONE (past)", gdim=(64, 8, 8),
                    box=(16, 8, 8), interleave="32B", swizzle="NONE"))
    c.append(_tiled("interleave 16B + swizzle 128B (no rule: valid)", gdim=(64, 8, 8), box=(8, 8, 8), interleave="16B",
                    swizzle="128B"))
    c.append(_tiled("global_address.align32_interleave32: +16 B (past)", gdim=(64, 8, 8), box=(16, 8, 8),
                    interleave="32B", swizzle="32B", addr_off=16))
    c.append(_tiled("global_strides.multiple32_interleave32: stride 144 (past)", gdim=(64, 8, 8), gstrides=[144, 1152],
                    box=(16, 8, 8), interleave="32B", swizzle="32B"))
    # oob fill
    c.append(_tiled("oob_fill.float_only: NAN_REQUEST_ZERO_FMA + FLOAT16 (valid)", dtype="FLOAT16",
                    oob="NAN_REQUEST_ZERO_FMA"))
    c.append(_tiled("oob_fill.float_only: NAN_REQUEST_ZERO_FMA + UINT16 (past)", oob="NAN_REQUEST_ZERO_FMA"))
    # packed types (sm100 types; recorded as the H100 driver answers)
    c.append(_tiled("global_dim.packed16_multiple128: 16U4_ALIGN16B box 128 (valid per docs)", dtype="U4x16_ALIGN16B",
                    gdim=(256, 8), gstrides=[128], box=(128, 8), addr_off=0))
    c.append(_tiled("box_dim.packed16_is128: 16U4_ALIGN16B box 64 (past)", dtype="U4x16_ALIGN16B", gdim=(256, 8),
                    gstrides=[128], box=(64, 8)))
    c.append(_tiled("global_dim.u4align8_multiple2: 16U4_ALIGN8B dim 257 (past)", dtype="U4x16_ALIGN8B", gdim=(257, 8),
                    gstrides=[144], box=(64, 8)))
    # im2col
    for r in (3, 4, 5):
        gd = [64] + [8] * (r - 2) + [2]
        c.append(_im2col(f"rank.im2col_range: rank {r} (valid)", gdim=gd))
    c.append(_im2col("rank.im2col_range: rank 2 (past)", gdim=(64, 8), lower=[], upper=[]))
    c.append(_im2col("pixel_box.range: rank 3 lower -32768 (limit)", gdim=(64, 40000, 2), lower=[-32768], upper=[0]))
    c.append(_im2col("pixel_box.range: rank 3 lower -32769 (past)", gdim=(64, 40000, 2), lower=[-32769], upper=[0]))
    c.append(_im2col("pixel_box.range: rank 3 upper 32767 (limit)", gdim=(64, 16, 2), lower=[0], upper=[32767]))
    c.append(_im2col("pixel_box.range: rank 3 upper 32768 (past)", gdim=(64, 16, 2), lower=[0], upper=[32768]))
    c.append(_im2col("pixel_box.range: rank 4 lower -128 (limit)", gdim=(64, 200, 16, 2), lower=[-128, 0], upper=[0, 0]))
    c.append(_im2col("pixel_box.range: rank 4 lower -129 (past)", gdim=(64, 200, 16, 2), lower=[-129, 0], upper=[0, 0]))
    c.append(_im2col("pixel_box.range: rank 4 upper 127 (limit)", gdim=(64, 16, 16, 2), lower=[0, 0], upper=[0, 127]))
    c.append(_im2col("pixel_box.range: rank 4 upper 128 (past)", gdim=(64, 16, 16, 2), lower=[0, 0], upper=[0, 128]))
    c.append(_im2col("pixel_box.range: rank 5 lower -16 (limit)", gdim=(64, 32, 8, 8, 2), lower=[-16, 0, 0],
                     upper=[0, 0, 0]))
    c.append(_im2col("pixel_box.range: rank 5 lower -17 (past)", gdim=(64, 32, 8, 8, 2), lower=[-17, 0, 0],
                     upper=[0, 0, 0]))
    c.append(_im2col("pixel_box.range: rank 5 upper 15 (limit)", gdim=(64, 8, 8, 8, 2), lower=[0, 0, 0], upper=[0, 0, 15]))
    c.append(_im2col("pixel_box.range: rank 5 upper 16 (past)", gdim=(64, 8, 8, 8, 2), lower=[0, 0, 0], upper=[0, 0, 16]))
    c.append(_im2col("pixel_box.nonzero_area: W + upper - lower = 1 (limit)", gdim=(64, 8, 2), lower=[0], upper=[-7]))
    c.append(_im2col("pixel_box.nonzero_area: W + upper - lower = 0 (past)", gdim=(64, 8, 2), lower=[0], upper=[-8]))
    c.append(_im2col("channels_per_pixel.range: 256 (limit, no swizzle)", gdim=(256, 8, 8, 2), channels=256,
                     swizzle="NONE"))
    c.append(_im2col("channels_per_pixel.range: 257 (past, no swizzle)", gdim=(272, 8, 8, 2), channels=257,
                     swizzle="NONE"))
    c.append(_im2col("pixels_per_column.range: 1024 (limit)", pixels=1024))
    c.append(_im2col("pixels_per_column.range: 1025 (past)", pixels=1025))
    c.append(_im2col("swizzle.inner_box_span: im2col 128B channels 64 x 2 B (limit)", channels=64))
    c.append(_im2col("swizzle.inner_box_span: im2col 128B channels 72 x 2 B (past)", channels=72))
    c.append(_im2col("swizzle.inner_box_span: im2col 64B channels 32 x 2 B (limit)", channels=32, swizzle="64B"))
    c.append(_im2col("swizzle.inner_box_span: im2col 64B channels 40 x 2 B (past)", channels=40, swizzle="64B"))
    c.append(_im2col("element_strides.range: im2col 8 (limit)", estrides=[1, 8, 1, 1]))
    c.append(_im2col("element_strides.range: im2col 9 (past)", estrides=[1, 9, 1, 1]))
    c.append(_im2col("global_address.align16: im2col +8 B (past)", addr_off=8))
    c.append(_im2col("interleave: im2col interleave 32B + swizzle 32B (valid)", interleave="32B", swizzle="32B"))
    for i, case in enumerate(c):
        case["id"] = f"valid/{i:03d}"
    return c


def _mma_base_configs() -> list[dict]:
    out: list[dict] = []
    shapes = ((64, 64, 64), (128, 64, 64), (64, 128, 64), (64, 64, 128), (128, 128, 128))
    majors = {"bf16": (("K", "K"), ("MN", "K"), ("K", "MN"), ("MN", "MN")), "tf32": (("K", "K"),), "e4m3": (("K", "K"),)}
    for dtype, combos in majors.items():
        for ma, mb in combos:
            for mode in _MODES:
                for m, n, k in shapes:
                    k = 2 * k if dtype == "e4m3" else k  # the same bytes per row: the 128B atom is 128 fp8 wide
                    out.append({"dtype": dtype, "major_a": ma, "major_b": mb, "mode": mode, "M": m, "N": n, "K": k,
                                "off_a": 0, "off_b": 0, "anchor": "absolute", "order": "auto"})
    # round 1's MN-major tile order (atoms along MN first), now through codegen's order="mn_first"
    for ma, mb in (("MN", "MN"), ("MN", "K"), ("K", "MN")):
        for mode in _MODES:
            for m, n, k in ((64, 128, 64), (128, 128, 128)):
                out.append({"dtype": "bf16", "major_a": ma, "major_b": mb, "mode": mode, "M": m, "N": n, "K": k,
                            "off_a": 0, "off_b": 0, "anchor": "absolute", "order": "mn_first"})
    # tiles on every 128-byte line of the pattern: absolute-address swizzle (base offset 0) and tile-relative
    # (PTX base offset (start >> 7) & 7, every value 1..7)
    for mode in ("32B", "64B", "128B"):
        for off in range(128, 1024, 128):
            for anchor in ("absolute", "tile"):
                for ma, mb in (("K", "K"), ("MN", "MN")):
                    out.append({"dtype": "bf16", "major_a": ma, "major_b": mb, "mode": mode, "M": 64, "N": 64, "K": 64,
                                "off_a": off, "off_b": off + 128 if off < 896 else 0, "anchor": anchor,
                                "order": "auto"})
    return out


def _cfg_id(cfg: dict) -> str:
    tail = f"/{cfg['order']}" if cfg.get("order") else ""  # round-1 records have no order (their seeds stay)
    return (f"{cfg['dtype']}/{cfg['major_a']}{cfg['major_b']}/{cfg['mode']}/{cfg['M']}x{cfg['N']}x{cfg['K']}/"
            f"a{cfg['off_a']}b{cfg['off_b']}/{cfg['anchor']}{tail}")


def _e2e_configs() -> list[dict]:
    out = []
    for mode in _MODES:
        out.append({"dtype": "bf16", "major_a": "K", "major_b": "K", "mode": mode, "M": 64, "N": 64, "K": 64})
        out.append({"dtype": "bf16", "major_a": "K", "major_b": "K", "mode": mode, "M": 128, "N": 128, "K": 128})
        out.append({"dtype": "bf16", "major_a": "MN", "major_b": "MN", "mode": mode, "M": 64, "N": 128, "K": 64})
        out.append({"dtype": "bf16", "major_a": "MN", "major_b": "MN", "mode": mode, "M": 128, "N": 128, "K": 128})
        out.append({"dtype": "bf16", "major_a": "K", "major_b": "MN", "mode": mode, "M": 128, "N": 128, "K": 64})
        out.append({"dtype": "bf16", "major_a": "MN", "major_b": "K", "mode": mode, "M": 64, "N": 64, "K": 128})
        out.append({"dtype": "tf32", "major_a": "K", "major_b": "K", "mode": mode, "M": 64, "N": 64, "K": 64})
        out.append({"dtype": "e4m3", "major_a": "K", "major_b": "K", "mode": mode, "M": 64, "N": 64, "K": 128})
        for m, n, k in ((64, 128, 64), (128, 128, 128)):
            out.append({"dtype": "bf16", "major_a": "MN", "major_b": "MN", "mode": mode, "M": m, "N": n, "K": k,
                        "order": "mn_first"})
    for mode in ("32B", "64B", "128B"):
        out.append({"dtype": "bf16", "major_a": "K", "major_b": "K", "mode": mode, "M": 64, "N": 64, "K": 64,
                    "off_a": 384, "off_b": 128})
        out.append({"dtype": "bf16", "major_a": "MN", "major_b": "MN", "mode": mode, "M": 64, "N": 64, "K": 64,
                    "off_a": 640, "off_b": 128})
    for c in out:
        c.setdefault("off_a", 0)
        c.setdefault("off_b", 0)
        c.setdefault("order", "auto")
        c["anchor"] = "absolute"
    return out


_MUTATIONS = ("lbo+16", "sbo+16", "lbo+4096", "mode", "base_offset^1", "base_offset+2", "base_offset+4")
_WRONG_MODE = {"none": "128B", "32B": "64B", "64B": "128B", "128B": "64B"}


def plan() -> list[dict]:
    """Every case the GPU program runs, as JSON-able dicts (``kind``, ``id`` and the parameters).

    >>> p = plan()
    >>> len([c for c in p if c["kind"] == "valid"]) >= 60
    True
    >>> next(c for c in p if c["kind"] == "mma")["id"]
    'mma/bf16/KK/none/64x64x64/a0b0/absolute/auto'
    """
    cases: list[dict] = []
    cases += _place_cases()
    cases += _store_cases()
    cases += _valid_cases()
    cases += _im2col_cases()
    bases = _mma_base_configs()
    for cfg in bases:
        cases.append({"kind": "mma", "id": f"mma/{_cfg_id(cfg)}", "cfg": cfg, "mutation": None})
    e2e = _e2e_configs()
    for cfg in e2e:
        cases.append({"kind": "e2e", "id": f"e2e/{_cfg_id(cfg)}", "cfg": cfg, "mutation": None})
    for cfg in bases:
        if cfg["off_a"] or cfg["K"] == 128 or cfg["M"] == 128:
            ops = ("A",)
        else:
            ops = ("A", "B")
        for op in ops:
            for mut in _MUTATIONS:
                if mut.startswith("base_offset") and cfg["mode"] == "none":
                    continue
                cases.append({"kind": "neg", "id": f"neg/{_cfg_id(cfg)}/{op}.{mut}", "cfg": cfg,
                              "mutation": {"operand": op, "field": mut}, "loader": "st"})
    for cfg in e2e:
        if cfg["M"] == 64 and cfg["off_a"] == 0:
            cases.append({"kind": "neg", "id": f"neg/e2e/{_cfg_id(cfg)}/A.tma_swizzle", "cfg": cfg,
                          "mutation": {"operand": "A", "field": "tma_swizzle"}, "loader": "tma"})
    return cases


# --------------------------------------------------------------------------------------------------
# Library-derived constants of one wgmma case
# --------------------------------------------------------------------------------------------------


@dataclasses.dataclass
class _OperandConsts:
    addrs: np.ndarray  # (MN, K) absolute byte address of every element (plain-store / TMA placement)
    descs: list[list[wgmma.SmemDescriptor]]  # [mn block][k step]
    k_step_bytes: list[int]  # start-address advance between consecutive K steps (block 0)
    boxes: list[tuple[int, int, int]]  # TMA: (coord0, coord1, dst absolute address)
    box: tuple[int, int]  # TMA box (elements, rows); (0, 0) where codegen gives no TMA plan
    tma_mode: int
    oc: Any = None  # the codegen.OperandConstants it was read from


def _order(cfg: dict) -> str:
    """The tile order of a configuration; round-1 records (no ``order``) used ``mn_first`` for every operand."""
    return cfg.get("order") or "mn_first"


def _spec(cfg: dict) -> dict:
    """The codegen spec (``codegen.parse_spec`` input) of one wgmma configuration: operands A and B at their addresses."""
    def op(mn: int, major: str, start: int, mma_mn: int) -> dict:
        return {"tile": [mn, cfg["K"]], "dtype": cfg["dtype"], "major": major, "swizzle": cfg["mode"],
                "order": _order(cfg), "mma_mn": mma_mn, "start_address": start}
    return {"kernel": _namespace(cfg), "arch": "sm90",
            "A": op(cfg["M"], cfg["major_a"], ABS_DATA + cfg["off_a"], 64),
            "B": op(cfg["N"], cfg["major_b"], ABS_B + cfg["off_b"], cfg["N"])}


def _namespace(cfg: dict) -> str:
    return "hw_" + hashlib.sha256(_cfg_id(cfg).encode()).hexdigest()[:12]


def _codegen_consts(cfg: dict) -> tuple[Any, Any, Any]:
    """``(A, B, kc)``: codegen's OperandConstants of both operands, and the KernelConstants where codegen's
    ``kernel_constants`` takes the configuration (tiles on the swizzle pattern boundary, absolute anchor; the
    generated header comes from ``emit_header(kc)``). Other configurations (tiles off the boundary, tile-relative
    swizzle) come from ``codegen.describe_operand`` and ``kc`` is None."""
    spec = _spec(cfg)
    mode = SwizzleMode.parse(cfg["mode"])
    align = max(mode.pattern_boundary_bytes, 16)
    starts = (spec["A"]["start_address"], spec["B"]["start_address"])
    if cfg["anchor"] == "absolute" and all(s % align == 0 for s in starts):
        kc = codegen.kernel_constants(codegen.parse_spec(spec))
        return kc.operand("A"), kc.operand("B"), kc
    ops = []
    for name in ("A", "B"):
        o = spec[name]
        ops.append(codegen.describe_operand("sm90", o["major"], o["swizzle"], o["dtype"], tuple(o["tile"]),
                                            o["start_address"], order=o["order"], mma_mn=o["mma_mn"],
                                            swizzle_anchor=cfg["anchor"], name=name))
    return ops[0], ops[1], None


def _r1_boxes(major: str, mode: str, eb: int, mn: int, k: int, comp: ComposedLayout, base: int
              ) -> tuple[tuple[int, int], list[tuple[int, int, int]]]:
    """Round 1's TMA boxes (before codegen existed), kept to verify round-1 result files: K-major one box per
    K atom covering every row, MN-major one box per atom (8 rows)."""
    w_elems = SwizzleMode.parse(mode).width_bytes // eb
    boxes: list[tuple[int, int, int]] = []
    if major == "K":
        for k0 in range(0, k, w_elems):
            boxes.append((k0, 0, base + int(comp.inner(0, k0)) * eb))
        return (w_elems, mn), boxes
    for k0 in range(0, k, 8):
        for m0 in range(0, mn, w_elems):
            boxes.append((m0, k0, base + int(comp.inner(m0, k0)) * eb))
    return (w_elems, 8), boxes


def _operand(oc: Any, cfg: dict, major: str, base: int) -> _OperandConsts:
    """One operand's constants read from codegen's OperandConstants; store addresses from SwizzledSmemLayout."""
    bits = oc.element_bits
    eb = bits // 8
    comp = oc.tile_layout  # Sw o 0 o (MN, K) tile, exactly the tile codegen derived
    mn, k = oc.tile_mn, oc.tile_k
    mm, kk = np.meshgrid(np.arange(mn), np.arange(k), indexing="ij")
    if cfg["anchor"] == "absolute":
        addrs = np.asarray(SwizzledSmemLayout(comp.outer, comp.inner, bits, base_address=base).byte_address(mm, kk))
    else:
        addrs = base + np.asarray(SwizzledSmemLayout(comp.outer, comp.inner, bits).byte_address(mm, kk))
    descs = [[wgmma.SmemDescriptor.decode(v + (off >> 4)) for v in oc.descs[0]] for off in oc.mn_block_offsets_bytes]
    steps = [b - a for a, b in zip(oc.k_step_offsets_bytes, oc.k_step_offsets_bytes[1:])]
    if "order" not in cfg:  # a round-1 record
        box, boxes = _r1_boxes(major, cfg["mode"], eb, mn, k, comp, base)
        mode = SwizzleMode.parse(cfg["mode"]).tma_swizzle
    elif oc.tma_box_dim is None:
        box, boxes, mode = (0, 0), [], SwizzleMode.parse(cfg["mode"]).tma_swizzle
    else:
        box = tuple(oc.tma_box_dim)
        boxes = [(int(ci), int(cr), int(oc.stage_starts[0] + off))
                 for (ci, cr), off in zip(oc.tma_copy_coords, oc.tma_copy_offsets_bytes, strict=True)]
        mode = int(oc.tma_swizzle)
    return _OperandConsts(addrs.astype(np.int64), descs, steps, boxes, box, int(mode), oc)


def _box_elements(major: str, c0: int, c1: int, box: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """(mn, k) of the elements of one box, in box byte-row order (rows, elements)."""
    r, e = np.meshgrid(np.arange(box[1]), np.arange(box[0]), indexing="ij")
    if major == "K":
        return c1 + r, c0 + e
    return c0 + e, c1 + r


def _tma_placement(op: _OperandConsts, major: str, eb: int, mode: int) -> np.ndarray:
    """Where the library says TMA puts each element (box_to_smem), as an (MN, K) address array."""
    mn, k = op.addrs.shape
    out = np.full((mn, k), -1, dtype=np.int64)
    for c0, c1, dst in op.boxes:
        placed = tma.box_to_smem(mode, eb, op.box, dst) + dst  # (rows, row bytes)
        first = placed[:, ::eb]  # the first byte of each element
        mi, ki = _box_elements(major, c0, c1, op.box)
        out[mi, ki] = first
    return out


@cache
def _mma_consts_cached(key: str) -> dict:
    cfg = {k: v for k, v in json.loads(key).items() if v is not None}
    dtype, m, n, k = cfg["dtype"], cfg["M"], cfg["N"], cfg["K"]
    try:
        oa, ob, kc = _codegen_consts(cfg)
    except LayoutError as e:
        raise HwCheckError(f"mma_constants: codegen refuses {_cfg_id(cfg)}: {str(e).splitlines()[0]}") from None
    a = _operand(oa, cfg, cfg["major_a"], ABS_DATA + cfg["off_a"])
    b = _operand(ob, cfg, cfg["major_b"], ABS_B + cfg["off_b"])
    seed = _seed(_cfg_id(cfg))
    va, vb = _values(seed, (m, k)), _values(seed + 1, (n, k))
    bits, ki = _DTYPES[dtype], _K_INSTR[dtype]
    ref = va.astype(np.int32) @ vb.astype(np.int32).T  # exact; integer matmul avoids BLAS threads
    return {"A": a, "B": b, "kc": kc, "va": va, "vb": vb, "ref_hash": fnv_hash(ref),
            "a_addr_hash": fnv_hash(a.addrs), "b_addr_hash": fnv_hash(b.addrs),
            "reads_A": _model_reads(a.descs, cfg["major_a"], bits, 64, ki),
            "reads_B": _model_reads(b.descs, cfg["major_b"], bits, n, ki)}


def mma_constants(cfg: dict) -> dict:
    """The library-derived constants of one wgmma configuration (see :func:`plan` for ``cfg``).

    Returns ``A`` and ``B`` (store addresses, descriptors per MN block and K step, K-step
    advances, TMA boxes) and the operand values ``va`` (M x K) and ``vb`` (N x K).

    >>> c = mma_constants({"dtype": "bf16", "major_a": "K", "major_b": "K", "mode": "128B", "M": 64, "N": 64,
    ...                    "K": 64, "off_a": 0, "off_b": 0, "anchor": "absolute"})
    >>> hex(c["A"].descs[0][1].encode()), c["A"].k_step_bytes
    ('0x4000004000010202', [32, 32, 32])
    """
    try:
        key = json.dumps({**{k: cfg[k] for k in ("dtype", "major_a", "major_b", "mode", "M", "N", "K", "off_a", "off_b",
                                                 "anchor")}, "order": cfg.get("order")}, sort_keys=True)
    except (KeyError, TypeError) as e:
        raise HwCheckError(f"mma_constants: bad configuration {cfg!r}: {e}") from None
    return _mma_consts_cached(key)


def _mutate(d: wgmma.SmemDescriptor, field: str, cfg: dict) -> wgmma.SmemDescriptor:
    if field == "lbo+16":
        return dataclasses.replace(d, lbo_bytes=d.lbo_bytes + 16)
    if field == "lbo+4096":
        return dataclasses.replace(d, lbo_bytes=d.lbo_bytes + 4096)
    if field == "sbo+16":
        return dataclasses.replace(d, sbo_bytes=d.sbo_bytes + 16)
    if field == "mode":
        return dataclasses.replace(d, swizzle=_WRONG_MODE[cfg["mode"]])
    if field == "base_offset^1":
        return dataclasses.replace(d, base_offset=d.base_offset ^ 1)
    if field == "base_offset+2":
        return dataclasses.replace(d, base_offset=(d.base_offset + 2) & 7)
    if field == "base_offset+4":
        return dataclasses.replace(d, base_offset=(d.base_offset + 4) & 7)
    raise HwCheckError(f"hwcheck: unknown mutation {field!r}")


def _model_reads(descs: list[list[wgmma.SmemDescriptor]], major: str, bits: int, mn_instr: int, k_instr: int) -> np.ndarray:
    return np.stack([np.stack([d.element_addresses(major, bits, (mn_instr, k_instr)) for d in row]) for row in descs])


def _case_descs(case: dict) -> tuple[list[list[int]], list[int], bool | None]:
    """Descriptors (encoded) the case runs with, and for ``neg`` whether the library predicts a wrong product."""
    cfg = case["cfg"]
    c = mma_constants(cfg)
    bits, ki = _DTYPES[cfg["dtype"]], _K_INSTR[cfg["dtype"]]
    da, db = c["A"].descs, c["B"].descs
    predicted = None
    mut = case.get("mutation")
    if mut and mut["field"] != "tma_swizzle":
        op = mut["operand"]
        src = da if op == "A" else db
        mutated = [[_mutate(d, mut["field"], cfg) for d in row] for row in src]
        major = cfg["major_a"] if op == "A" else cfg["major_b"]
        mn_i = 64 if op == "A" else cfg["N"]
        before = c["reads_" + op]
        after = _model_reads(mutated, major, bits, mn_i, ki)
        predicted = bool(np.any(before != after))
        if op == "A":
            da = mutated
        else:
            db = mutated
    return [[d.encode() for d in row] for row in da], [d.encode() for d in db[0]], predicted


def _e2e_prediction(case: dict) -> tuple[bool, int]:
    """For a TMA-loaded case: (does the library's TMA placement equal what the descriptors read, tma swizzle used)."""
    cfg = case["cfg"]
    c = mma_constants(cfg)
    bits = _DTYPES[cfg["dtype"]]
    eb = bits // 8
    ok = True
    mode_a = c["A"].tma_mode
    for op, major in (("A", cfg["major_a"]), ("B", cfg["major_b"])):
        oc = c[op]
        mode = oc.tma_mode
        mut = case.get("mutation")
        if mut and mut["field"] == "tma_swizzle" and mut["operand"] == op:
            mode = 0 if oc.tma_mode else 3
            if op == "A":
                mode_a = mode
        try:
            placed = _tma_placement(oc, major, eb, mode)
        except LayoutError:
            return False, mode_a
        ok &= bool(np.array_equal(placed, oc.addrs))
    return ok, mode_a


# --------------------------------------------------------------------------------------------------
# Emitting the CUDA sources
# --------------------------------------------------------------------------------------------------


def _variant(dtype: str, n: int, ta: int, tb: int) -> str:
    return f"{dtype}_n{n}_t{ta}{tb}"


def _variants(cases: Iterable[dict]) -> list[tuple[str, int, int, int]]:
    seen: dict[str, tuple[str, int, int, int]] = {}
    for c in cases:
        if c["kind"] in ("mma", "e2e", "neg"):
            cfg = c["cfg"]
            ta, tb = int(cfg["major_a"] == "MN"), int(cfg["major_b"] == "MN")
            seen[_variant(cfg["dtype"], cfg["N"], ta, tb)] = (cfg["dtype"], cfg["N"], ta, tb)
    return sorted(seen.values())


def _wgmma_asm(dtype: str, n: int, ta: int, tb: int) -> str:
    regs = n // 2
    k = _K_INSTR[dtype]
    ptx_t = {"bf16": "bf16", "tf32": "tf32", "e4m3": "e4m3"}[dtype]
    dl = ",".join(f"%{i}" for i in range(regs))
    tail = f", {ta}, {tb}" if dtype == "bf16" else ""
    outs = ", ".join(f'"+f"(d[{i}])' for i in range(regs))
    return (f'    asm volatile("{{\\n.reg .pred p;\\nsetp.ne.b32 p, %{regs + 2}, 0;\\n"\n'
            f'                 "wgmma.mma_async.sync.aligned.m64n{n}k{k}.f32.{ptx_t}.{ptx_t} {{{dl}}}, %{regs}, '
            f'%{regs + 1}, p, 1, 1{tail};\\n}}\\n"\n'
            f'                 : {outs}\n                 : "l"(da), "l"(db), "r"(scale_d));\n')


def _c_str(s: str) -> str:
    return json.dumps(s)


def _u64(vals: Iterable[int]) -> str:
    return "{" + ", ".join(f"0x{v:016x}ull" for v in vals) + "}"


def _describe_header(ns: str, a: Any, b: Any) -> str:
    """The members of codegen's header that the harness reads, for operands that only ``describe_operand`` covers."""
    L = [f"// {ns}: pycute_layouts.codegen.describe_operand (off the pattern boundary or tile-relative swizzle)",
         f"namespace {ns} {{"]
    for o in (a, b):
        n = max(len(o.tma_copy_coords), 1)
        coords = o.tma_copy_coords or ((0, 0),)
        toffs = o.tma_copy_offsets_bytes or (0,)
        L += [f"// Operand {o.name}: {o.tile_mn}x{o.tile_k} {o.dtype.name} {o.major}-major {o.swizzle}, {o.order}, "
              f"anchor {o.swizzle_anchor}: {o.tile_layout}",
              f"struct Operand{o.name} {{",
              f"  static constexpr uint32_t kStageStart[1] = {{{o.stage_starts[0]}u}};",
              f"  static constexpr uint64_t kDescStageK[1][{o.k_steps}] = "
              f"{{{{{', '.join(f'0x{v:016x}ull' for v in o.descs[0])}}}}};",
              f"  static constexpr uint32_t kMmaMNBlockOffsetBytes[{len(o.mn_block_offsets_bytes)}] = "
              f"{{{', '.join(f'{v}u' for v in o.mn_block_offsets_bytes)}}};",
              f"  static constexpr int kTmaSwizzle = {int(o.tma_swizzle) if o.tma_swizzle is not None else -1};",
              f"  static constexpr uint32_t kTmaBoxDim[2] = {{{', '.join(f'{v}u' for v in (o.tma_box_dim or (0, 0)))}}};",
              f"  static constexpr int kTmaCopies = {len(o.tma_copy_coords)};",
              f"  static constexpr int kTmaCopyCoord[{n}][2] = {{{', '.join(f'{{{x}, {y}}}' for x, y in coords)}}};",
              f"  static constexpr uint32_t kTmaCopyOffsetBytes[{n}] = {{{', '.join(f'{v}u' for v in toffs)}}};",
              "};",
              f"inline constexpr CUtensorMapDataType kTmaDataType{o.name} = {o.tma_data_type};"]
    L.append(f"}}  // namespace {ns}")
    return "\n".join(L) + "\n"


def _im2col_prediction(c: dict, dense: bool = False) -> dict:
    """The library's prediction for an im2col case: which pixel lands in which smem row (``im2col_load``),
    where each element's bytes go (``tma.box_to_smem`` with box ``(channels, pixels)``; ``dense=True``: rows
    packed at ``channels * elem_bytes`` as docs/im2col.md's element offsets read literally), and the dumped
    region's expected values (``1 + linear element index`` of the global tensor; 0 = filled)."""
    from ..arch import im2col

    eb = int(tma.TensorDataType.parse(c["dtype"]).size_bytes)
    acc = im2col.im2col_load(coords=c["coords"], offsets=c["offsets"], global_dim=c["gdim"],
                             pixel_box_lower_corner=c["lower"], pixel_box_upper_corner=c["upper"],
                             channels_per_pixel=c["channels"], pixels_per_column=c["pixels"],
                             element_strides=c["estrides"])
    el = acc.elements()
    dims = c["gdim"]
    spatial = [el["w"]] + ([el["h"]] if len(dims) == 4 else [])
    lin = np.zeros_like(el["c"])
    for coord, size in zip(reversed([el["c"], *spatial, el["n"]]), reversed(dims), strict=True):
        lin = lin * size + coord
    vals = np.where(el["in_bounds"], (1 + lin) % (1 << (8 * eb)), 0).astype(np.int64)
    rows, cpp = acc.num_rows, c["channels"]
    dst = ABS_PLACE + c["dst_off"]
    pitch = {"row_pitch_bytes": cpp * eb} if dense else {}
    placed = tma.box_to_smem(c["swizzle"], eb, (cpp, rows), dst, **pitch)  # (rows, cpp * eb) offsets from dst
    idx = (c["dst_off"] + placed[:, ::eb]) // eb  # element index of each (row, channel) in the region
    region = np.zeros(IM2COL_REGION_BYTES // eb, dtype=np.int64)
    if idx.max() >= region.size:
        raise HwCheckError(f"hwcheck: im2col case {c['id']} does not fit the {IM2COL_REGION_BYTES}-byte region")
    region[idx.ravel()] = vals
    row_pix = np.where(acc.in_bounds & acc.channel_in_bounds[0], lin.reshape(rows, cpp)[:, 0] // dims[0], -1)
    return {"acc": acc, "elem_bytes": eb, "expected": region, "row0": idx[:, 0].astype(np.int64), "rows": rows,
            "row_pixels": row_pix.astype(np.int64), "hash": fnv_hash(region)}


def emit(out_dir: str | os.PathLike) -> dict:
    """Write ``hwcheck_cases.cuh`` and ``hwcheck_data.bin`` (and ``plan.json``) into ``out_dir``.

    Every layout constant in them comes from the library: the TMA swizzle modes, boxes and
    destinations, the wgmma descriptors (``make_smem_desc(...).encode()``) per K step, and the
    shared-memory address of every operand element (``SwizzledSmemLayout.byte_address``).
    Returns counts per kind. ``examples/hardware/hwcheck.cu`` includes the header.

    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile() as f:
    ...     emit(f.name)
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.HwCheckError: hwcheck --emit: ... exists and is not a directory
    """
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise HwCheckError(f"hwcheck --emit: {out} exists and is not a directory")
    out.mkdir(parents=True, exist_ok=True)
    cases = plan()
    blob = bytearray()

    def put(arr: np.ndarray, dtype: Any) -> int:
        off = len(blob)
        blob.extend(np.ascontiguousarray(arr, dtype=dtype).tobytes())
        while len(blob) % 16:
            blob.append(0)
        return off

    h: list[str] = ["// Generated by `pycute-layouts hwcheck --emit` from pycute_layouts; do not edit.",
                    "// Every layout constant below was computed by pycute_layouts.arch (tma, wgmma).", "#pragma once",
                    "#include <cstdint>", "",
                    f"constexpr uint32_t kAbsMbar = {ABS_MBAR:#x};", f"constexpr uint32_t kAbsData = {ABS_DATA:#x};",
                    f"constexpr uint32_t kAbsB = {ABS_B:#x};", f"constexpr uint32_t kAbsPlace = {ABS_PLACE:#x};",
                    f"constexpr uint32_t kPlaceRegion = {PLACE_REGION_BYTES:#x};",
                    f"constexpr uint32_t kDynSmem = {DYN_SMEM_BYTES:#x};", ""]
    # ---- placement
    place = [c for c in cases if c["kind"] == "place"]
    h.append("struct PlaceCase { const char* id; int mode; int elem_bytes; int box0; int box1; uint32_t dst_off; "
             "uint64_t expect_off; int expect_ok; };")
    h.append(f"constexpr int kNumPlace = {len(place)};")
    h.append("static const PlaceCase kPlace[] = {")
    for c in place:
        try:
            pred = tma.box_to_smem(c["mode"], c["elem_bytes"], c["box"], ABS_PLACE + c["dst_off"]).ravel()
            ok = 1
        except LayoutError:
            pred, ok = np.zeros(1, dtype=np.int64), 0
        off = put(pred, "<i4")
        h.append(f"  {{{_c_str(c['id'])}, {c['mode']}, {c['elem_bytes']}, {c['box'][0]}, {c['box'][1]}, {c['dst_off']}, "
                 f"{off}ull, {ok}}},")
    h.append("};\n")
    # ---- validation battery
    val = [c for c in cases if c["kind"] == "valid"]
    h.append("struct ValCase { const char* id; int im2col; int dtype; int rank; uint64_t gdim[5]; uint64_t gstrides[4]; "
             "uint32_t box[5]; uint32_t estrides[5]; int lower[3]; int upper[3]; int channels; int pixels; int interleave; "
             "int swizzle; int oob; uint32_t addr_off; const char* params; };")
    h.append(f"constexpr int kNumVal = {len(val)};")
    h.append("static const ValCase kVal[] = {")
    for c in val:
        def arr(xs: Sequence[int], n: int, fmt: str = "{}") -> str:
            xs = list(xs) + [0] * (n - len(xs))
            return "{" + ", ".join(fmt.format(x) for x in xs) + "}"
        h.append(f"  {{{_c_str(c['id'])}, {int(c['function'] == tma.IM2COL)}, {int(tma.TensorDataType.parse(c['dtype']))}, "
                 f"{len(c['gdim'])}, {arr(c['gdim'], 5, '{}ull')}, {arr(c['gstrides'], 4, '{}ull')}, "
                 f"{arr(c.get('box', []), 5)}, {arr(c['estrides'], 5)}, {arr(c.get('lower', []), 3)}, "
                 f"{arr(c.get('upper', []), 3)}, {c.get('channels', 0)}, {c.get('pixels', 0)}, "
                 f"{int(tma.Interleave.parse(c['interleave']))}, {int(SwizzleMode.parse(c['swizzle']))}, "
                 f"{int(tma.OobFill.parse(c['oob']))}, {c['addr_off']}, {_c_str(json.dumps(c, sort_keys=True))}}},")
    h.append("};\n")
    # ---- store (same record as placement)
    store = [c for c in cases if c["kind"] == "store"]
    h.append(f"constexpr int kNumStore = {len(store)};")
    h.append("static const PlaceCase kStore[] = {")
    for c in store:
        try:
            pred, ok = tma.box_to_smem(c["mode"], c["elem_bytes"], c["box"], ABS_PLACE + c["dst_off"]).ravel(), 1
        except LayoutError:  # the library refuses it (e.g. a destination off the 128-byte lines): expect a fault
            pred, ok = np.zeros(1, dtype=np.int64), 0
        h.append(f"  {{{_c_str(c['id'])}, {c['mode']}, {c['elem_bytes']}, {c['box'][0]}, {c['box'][1]}, {c['dst_off']}, "
                 f"{put(pred, '<i4')}ull, {ok}}},")
    h.append("};\n")
    # ---- im2col
    i2c = [c for c in cases if c["kind"] == "im2col"]
    h.append(f"constexpr uint32_t kIm2colRegion = {IM2COL_REGION_BYTES:#x};")
    h.append("struct Im2colCase { const char* id; int rank; int dtype; int elem_bytes; uint64_t gdim[5]; uint64_t gstrides[4]; "
             "int lower[3]; int upper[3]; int channels; int pixels; uint32_t estrides[5]; int swizzle; int coords[5]; "
             "uint16_t offsets[3]; uint32_t dst_off; uint64_t expect_off; uint64_t row0_off; int rows; "
             "const char* params; };")
    h.append(f"constexpr int kNumIm2col = {len(i2c)};")
    h.append("static const Im2colCase kIm2col[] = {")
    for c in i2c:
        try:
            pr = _im2col_prediction(c)
        except LayoutError:  # refused by the library (a destination off the 128-byte lines): the GPU must fault
            pr = _im2col_prediction(dict(c, dst_off=c["dst_off"] - c["dst_off"] % 128))
        eb = pr["elem_bytes"]

        def arr(xs: Sequence[int], n: int, fmt: str = "{}") -> str:
            xs = list(xs) + [0] * (n - len(xs))
            return "{" + ", ".join(fmt.format(x) for x in xs) + "}"
        gstr = [int(np.prod(c["gdim"][:i + 1])) * eb for i in range(len(c["gdim"]) - 1)]
        h.append(f"  {{{_c_str(c['id'])}, {len(c['gdim'])}, {int(tma.TensorDataType.parse(c['dtype']))}, {eb}, "
                 f"{arr(c['gdim'], 5, '{}ull')}, {arr(gstr, 4, '{}ull')}, {arr(c['lower'], 3)}, {arr(c['upper'], 3)}, "
                 f"{c['channels']}, {c['pixels']}, {arr(c['estrides'], 5)}, {int(SwizzleMode.parse(c['swizzle']))}, "
                 f"{arr(c['coords'], 5)}, {arr(c['offsets'], 3)}, {c['dst_off']}, {put(pr['expected'], '<i4')}ull, "
                 f"{put(pr['row0'], '<i4')}ull, {pr['rows']}, {_c_str(json.dumps(c, sort_keys=True))}}},")
    h.append("};\n")
    # ---- wgmma variants
    variants = _variants(cases)
    vindex = {_variant(*v): i for i, v in enumerate(variants)}
    for i, (dtype, n, ta, tb) in enumerate(variants):
        h.append(f"// variant {i}: wgmma m64n{n}k{_K_INSTR[dtype]} {dtype}, A {'MN' if ta else 'K'}-major, "
                 f"B {'MN' if tb else 'K'}-major")
        h.append(f"struct Variant{i} {{\n  static constexpr int N = {n};\n  static constexpr int kBits = {_DTYPES[dtype]};")
        h.append(f"  __device__ static void mma(float (&d)[{n // 2}], uint64_t da, uint64_t db, uint32_t scale_d) {{")
        h.append(_wgmma_asm(dtype, n, ta, tb) + "  }\n};")
    h.append(f"constexpr int kNumVariants = {len(variants)};")
    h.append("#define HWCHECK_FOR_EACH_VARIANT(X) " + " ".join(f"X({i})" for i in range(len(variants))) + "\n")
    # ---- mma / e2e / neg: every operand constant is read from codegen's header (namespace per configuration)
    mm = [c for c in cases if c["kind"] in ("mma", "e2e", "neg")]
    cg: list[str] = ["// Generated by `pycute-layouts hwcheck --emit`: one namespace per wgmma configuration.",
                     "// Configurations on the swizzle pattern boundary: codegen.emit_header(kernel_constants(spec))",
                     "// verbatim. Tiles off the boundary / tile-relative swizzle (which kernel_constants refuses by design):",
                     "// the same member names, values from pycute_layouts.codegen.describe_operand.", "#pragma once", ""]
    seen: set[str] = set()
    n_header = n_describe = 0
    for c in mm:
        ns = _namespace(c["cfg"])
        if ns in seen:
            continue
        seen.add(ns)
        k = mma_constants(c["cfg"])
        if k["kc"] is not None:
            cg.append(codegen.emit_header(k["kc"]))
            n_header += 1
        else:
            cg.append(_describe_header(ns, k["A"].oc, k["B"].oc))
            n_describe += 1
    (out / "hwcheck_codegen.cuh").write_text("\n".join(cg) + "\n")
    h.append('#include "hwcheck_codegen.cuh"')
    h.append(f"// {n_header} configurations from codegen.emit_header, {n_describe} from codegen.describe_operand")
    h.append("struct MmaCase { const char* id; const char* kind; int variant; int loader; int M; int N; int K; int mblocks; "
             "int ksteps; int bits; uint64_t descA[32]; uint64_t descB[32]; uint64_t a_vals; uint64_t a_addrs; "
             "uint64_t b_vals; uint64_t b_addrs; uint64_t a_int; uint64_t b_int; int tma_mode_a; int tma_mode_b; "
             "int tma_dtype_a; int tma_dtype_b; uint32_t box_a[2]; uint32_t box_b[2]; int nboxes_a; int nboxes_b; "
             "const int* coord_a; const int* coord_b; const uint32_t* off_a; const uint32_t* off_b; uint32_t stage_a; "
             "uint32_t stage_b; int major_a_mn; int major_b_mn; int expect_mismatch; const char* cfg; const char* mutation; };")
    h.append(f"constexpr int kNumMma = {len(mm)};")
    h.append("static const MmaCase kMma[] = {")
    blobs: dict[str, tuple[int, ...]] = {}
    for c in mm:
        cfg = c["cfg"]
        k = mma_constants(cfg)
        ns = _namespace(cfg)
        key = _cfg_id(cfg)
        if key not in blobs:
            bt = _bits(cfg["dtype"], k["va"]), _bits(cfg["dtype"], k["vb"])
            blobs[key] = (put(bt[0], "<u4"), put(k["A"].addrs, "<u4"), put(bt[1], "<u4"), put(k["B"].addrs, "<u4"),
                          put(k["va"], "i1"), put(k["vb"], "i1"))
        offs = blobs[key]
        da, db, predicted = _case_descs(c)
        mut = c.get("mutation") or {}
        ta, tb = int(cfg["major_a"] == "MN"), int(cfg["major_b"] == "MN")
        loader = 1 if (c["kind"] == "e2e" or c.get("loader") == "tma") else 0
        tma_a = f"{ns}::OperandA::kTmaSwizzle"
        if mut.get("field") == "tma_swizzle":
            predicted_ok, mode_a = _e2e_prediction(c)
            predicted, tma_a = not predicted_ok, str(mode_a)
        n_k = len(k["A"].descs[0])
        if mut.get("operand") == "A" and mut.get("field") != "tma_swizzle":
            ea = _u64(v for row in da for v in row)
        else:
            ea = "{" + ", ".join(f"{ns}::OperandA::kDescStageK[0][{s}] + ({ns}::OperandA::kMmaMNBlockOffsetBytes[{i}] >> 4)"
                                 for i in range(len(da)) for s in range(n_k)) + "}"
        if mut.get("operand") == "B" and mut.get("field") != "tma_swizzle":
            eb_ = _u64(db)
        else:
            eb_ = "{" + ", ".join(f"{ns}::OperandB::kDescStageK[0][{s}]" for s in range(n_k)) + "}"
        expect = -1 if predicted is None else int(predicted)

        def tma_fields(op: str, ns: str = ns) -> tuple[str, ...]:
            o = f"{ns}::Operand{op}"
            return (f"{{{o}::kTmaBoxDim[0], {o}::kTmaBoxDim[1]}}", f"{o}::kTmaCopies", f"&{o}::kTmaCopyCoord[0][0]",
                    f"&{o}::kTmaCopyOffsetBytes[0]", f"{o}::kStageStart[0]", f"int({ns}::kTmaDataType{op})")
        fa, fb = tma_fields("A"), tma_fields("B")
        h.append(f"  {{{_c_str(c['id'])}, {_c_str(c['kind'])}, {vindex[_variant(cfg['dtype'], cfg['N'], ta, tb)]}, {loader}, "
                 f"{cfg['M']}, {cfg['N']}, {cfg['K']}, {cfg['M'] // 64}, {cfg['K'] // _K_INSTR[cfg['dtype']]}, "
                 f"{_DTYPES[cfg['dtype']]}, {ea}, {eb_}, {offs[0]}ull, {offs[1]}ull, {offs[2]}ull, {offs[3]}ull, "
                 f"{offs[4]}ull, {offs[5]}ull, {tma_a}, {ns}::OperandB::kTmaSwizzle, {fa[5]}, {fb[5]}, {fa[0]}, {fb[0]}, "
                 f"{fa[1]}, {fb[1]}, {fa[2]}, {fb[2]}, {fa[3]}, {fb[3]}, {fa[4]}, {fb[4]}, {ta}, {tb}, {expect}, "
                 f"{_c_str(json.dumps(cfg, sort_keys=True))}, {_c_str(json.dumps(c.get('mutation')))}}},")
    h.append("};")
    (out / "hwcheck_cases.cuh").write_text("\n".join(h) + "\n")
    (out / "hwcheck_data.bin").write_bytes(bytes(blob))
    (out / "plan.json").write_text(json.dumps(cases, indent=0, sort_keys=True))
    counts: dict[str, int] = {}
    for c in cases:
        counts[c["kind"]] = counts.get(c["kind"], 0) + 1
    return counts


# --------------------------------------------------------------------------------------------------
# Verifying a result file
# --------------------------------------------------------------------------------------------------


def _load(results: Any) -> dict:
    if isinstance(results, dict):
        return results
    p = Path(results)
    try:
        data = json.loads(p.read_text())
    except FileNotFoundError:
        raise HwCheckError(f"hwcheck --verify: no such file: {p}") from None
    except (OSError, json.JSONDecodeError) as e:
        raise HwCheckError(f"hwcheck --verify: {p} is not a readable JSON result file: {e}") from None
    if not isinstance(data, dict) or "cases" not in data or not isinstance(data["cases"], list):
        raise HwCheckError(f"hwcheck --verify: {p} has no 'cases' list (not a hwcheck result file)")
    return data


def _row(case: dict, ok: bool, detail: str) -> dict:
    return {"id": case.get("id", "?"), "kind": case.get("kind", "?"), "ok": bool(ok), "detail": detail}


def _verify_place(obs: dict) -> dict:
    mode, eb, box, dst = obs["mode"], obs["elem_bytes"], tuple(obs["box"]), obs["dst_abs"]
    try:
        if SwizzleMode.parse(mode).min_arch != "sm90":
            raise TensorMapError(f"swizzle {mode} needs {SwizzleMode.parse(mode).min_arch} "
                                     "(rule arch.swizzle_sm100)")
        pred = tma.box_to_smem(mode, eb, box, dst).ravel()
        lib_ok = True
    except LayoutError as e:
        lib_ok, why = False, str(e).splitlines()[0]
    drv_ok = obs["encode_rc"] == 0 and obs.get("launch_rc", 0) == 0
    if not lib_ok:
        return _row(obs, not drv_ok, f"library rejects ({why[:80]}); driver rc={obs['encode_rc']}")
    if not drv_ok:
        return _row(obs, False, f"library predicts a placement but the driver returned rc={obs['encode_rc']} "
                                f"launch={obs.get('launch_rc', 0)}")
    h = fnv_hash(pred)
    if h == obs["hash"] and obs.get("anomalies", 0) == 0:
        return _row(obs, True, f"{pred.size} bytes placed as box_to_smem predicts")
    alt = []
    span = tma.swizzle_mode_info(mode).span_bytes
    if span:
        try:
            if fnv_hash(tma.box_to_smem(mode, eb, box, dst, row_pitch_bytes=span).ravel()) == obs["hash"]:
                alt.append(f"rows padded to the {span}-byte span")
        except LayoutError:
            pass
    if fnv_hash(tma.box_to_smem(mode, eb, box, dst - dst % 1024).ravel()) == obs["hash"]:
        alt.append("swizzle relative to dst (dst treated as aligned)")
    diffs = obs.get("first_diffs", [])
    return _row(obs, False, f"hash {obs['hash']} != predicted {h}; anomalies={obs.get('anomalies', 0)}; "
                            f"matches model: {', '.join(alt) or 'none tried'}; first diffs (byte, observed, expected) "
                            f"{diffs[:4]}")


def _verify_store(obs: dict) -> dict:
    """A TMA store: global byte i must come from the smem byte box_to_smem names; the load-store round trip is exact."""
    row = _verify_place(obs)
    if row["ok"] and obs.get("roundtrip_mismatches", 0):
        return _row(obs, False, f"{row['detail']}; but the TMA load -> TMA store round trip changed "
                                f"{obs['roundtrip_mismatches']} bytes")
    if row["ok"] and "hash" in obs:
        row["detail"] = row["detail"].replace("placed as box_to_smem predicts",
                                              "stored from where box_to_smem places them; load->store round trip exact")
    return row


def _verify_im2col(obs: dict) -> dict:
    """An im2col load: every smem pixel row and every element against im2col_load + box_to_smem."""
    c = obs["params"]
    try:
        pr = _im2col_prediction(c)
        lib_ok, why = True, ""
    except LayoutError as e:
        lib_ok, why = False, str(e).splitlines()[0]
    drv_ok = obs["encode_rc"] == 0 and obs.get("launch_rc", 0) == 0 and not obs.get("status", 0)
    if not lib_ok:
        return _row(obs, not drv_ok, f"library rejects ({why[:90]}); driver rc={obs['encode_rc']} "
                                     f"launch={obs.get('launch_rc')}")
    if not drv_ok:
        return _row(obs, False, f"library predicts a load but the GPU gave encode rc={obs['encode_rc']}, launch "
                                f"rc={obs.get('launch_rc')} ({obs.get('launch_error', '')}), status={obs.get('status')}")
    acc = pr["acc"]
    rows_ok = list(pr["row_pixels"]) == list(obs["row_pixels"])
    if obs["hash"] == pr["hash"] and rows_ok:
        filled = int(np.count_nonzero(~acc.in_bounds))
        return _row(obs, True, f"{acc.num_rows} pixel rows x {c['channels']} channels as im2col_load predicts "
                               f"({filled} rows filled), bytes where box_to_smem puts them")
    alt = []
    if obs["hash"] == _im2col_prediction(c, dense=True)["hash"]:
        alt.append("rows packed densely (channels * elem_bytes apart)")
    bad_rows = [r for r, (x, y) in enumerate(zip(pr["row_pixels"], obs["row_pixels"], strict=False)) if x != y]
    return _row(obs, False, f"hash {obs['hash']} != predicted {pr['hash']}; rows differing from im2col_load: "
                            f"{bad_rows[:8]}; matches model: {', '.join(alt) or 'none tried'}; first diffs (element, "
                            f"observed, expected) {obs.get('first_diffs', [])[:4]}")


def _verify_valid(obs: dict) -> dict:
    p = obs["params"]
    common = dict(tensor_data_type=p["dtype"], global_dim=p["gdim"], global_strides=p["gstrides"],
                  element_strides=p["estrides"], interleave=p["interleave"], swizzle=p["swizzle"], oob_fill=p["oob"],
                  global_address=p["addr_off"])
    try:
        if p["function"] == tma.IM2COL:
            m: Any = tma.Im2colTensorMap(pixel_box_lower_corner=p["lower"], pixel_box_upper_corner=p["upper"],
                                         channels_per_pixel=p["channels"], pixels_per_column=p["pixels"], **common)
        else:
            m = tma.TiledTensorMap(box_dim=p["box"], **common)
        v = m.violations(arch="sm90")
    except LayoutError as e:
        v = [tma.TensorMapViolation("parse", str(e))]
    lib_accepts = not v
    drv_accepts = obs["encode_rc"] == 0
    rules = ",".join(x.rule for x in v) or "-"
    return _row(obs, lib_accepts == drv_accepts, f"driver {'accepts' if drv_accepts else 'rejects'} (rc="
                f"{obs['encode_rc']}), library {'accepts' if lib_accepts else 'rejects: ' + rules}; {p.get('note', '')}")


def _verify_mma(obs: dict) -> dict:
    cfg = obs["cfg"]
    case = {"cfg": cfg, "mutation": obs.get("mutation"), "kind": obs["kind"], "id": obs["id"]}
    try:
        c = mma_constants(cfg)
        da, db, predicted = _case_descs(case)
    except LayoutError as e:
        return _row(obs, False, f"the library no longer derives this configuration: {str(e).splitlines()[0]}")
    problems = []
    ran_a = [int(x, 16) for x in obs["descA"]]
    ran_b = [int(x, 16) for x in obs["descB"]]
    if ran_a != [v for row in da for v in row] or ran_b != db:
        problems.append("descriptors differ from the ones the GPU ran")
    loader = obs.get("loader", 0)
    if loader == 0 and (c["a_addr_hash"] != obs["a_addr_hash"] or c["b_addr_hash"] != obs["b_addr_hash"]):
        problems.append("store addresses differ from the ones the GPU ran")
    ok_place = True
    if loader == 1:
        ok_place, mode_a = _e2e_prediction(case)
        if mode_a != obs["tma_mode_a"] or c["B"].tma_mode != obs["tma_mode_b"]:
            problems.append("TMA swizzle modes differ from the ones the GPU ran")
        boxes = [list(x) for x in c["A"].boxes] + [list(x) for x in c["B"].boxes]
        if fnv_hash(np.array(boxes).ravel()) != obs.get("boxes_hash"):
            problems.append("TMA boxes differ from the ones the GPU ran")
        if "box_a" in obs and (tuple(obs["box_a"]) != tuple(c["A"].box) or tuple(obs["box_b"]) != tuple(c["B"].box)):
            problems.append("TMA box dimensions differ from the ones the GPU ran")
        if "tma_dtype_a" in obs:
            want = [int(tma.TensorDataType.parse(c[op].oc.dtype.tma_data_type)) for op in ("A", "B")]
            if [obs["tma_dtype_a"], obs["tma_dtype_b"]] != want:
                problems.append("TMA data types differ from the ones the GPU ran")
    if obs.get("launch_rc", 0) != 0 or obs.get("encode_rc", 0) != 0:
        return _row(obs, False, f"GPU run failed: encode rc={obs.get('encode_rc', 0)}, launch rc={obs.get('launch_rc')}")
    ref_hash = c["ref_hash"]
    observed_wrong = obs["mismatches"] > 0
    if observed_wrong == (obs["d_hash"] == ref_hash):
        problems.append("inconsistent result record (mismatch count vs D hash)")
    if obs["kind"] in ("mma", "e2e"):
        # the model's own consistency: descriptor reads == store/TMA placement
        ki = _K_INSTR[cfg["dtype"]]
        ra, rb = c["reads_A"], c["reads_B"]
        exp_a = np.stack([np.stack([c["A"].addrs[i * 64:(i + 1) * 64, s * ki:(s + 1) * ki] for s in range(len(row))])
                          for i, row in enumerate(c["A"].descs)])
        exp_b = np.stack([c["B"].addrs[:, s * ki:(s + 1) * ki] for s in range(len(c["B"].descs[0]))])[None]
        if not (np.array_equal(ra, exp_a) and np.array_equal(rb, exp_b)):
            problems.append("library inconsistency: descriptor model reads != placement")
        if loader == 1 and not ok_place:
            problems.append("library inconsistency: TMA placement != descriptor placement")
        if observed_wrong:
            problems.append(f"D differs from A@B in {obs['mismatches']} elements (first {obs.get('first_diffs', [])[:3]})")
        detail = "D == A@B exactly" if not problems else "; ".join(problems)
        return _row(obs, not problems, detail)
    if case["mutation"] and case["mutation"]["field"] == "tma_swizzle":
        predicted = not ok_place
    want = "wrong product" if predicted else "unchanged product (field not read)"
    got = "wrong product" if observed_wrong else "unchanged product"
    if bool(predicted) != observed_wrong:
        problems.append(f"library predicts {want}, GPU gave {got}")
    return _row(obs, not problems, "; ".join(problems) if problems else f"{got}, as predicted")


#: Differences between the library and the H100 that remain after the library adopted the hardware's
#: behaviour where the reference documents are silent (row pitch of narrow swizzled boxes; the sm90
#: rules of ``validate(arch="sm90")``; 128-byte aligned TMA destinations), documented in
#: docs/hardware-validation.md. A failing row is labelled with one of these keys only when its evidence
#: matches the documented pattern exactly; any other failure stays unexplained.
KNOWN_DIFFERENCES: dict[str, str] = {
    "tma.interleave32_swizzle": ("the driver accepts interleave 32B with a swizzle other than 32B, although the driver "
                                 "documentation (and validate()) require CU_TENSOR_MAP_SWIZZLE_32B; the library keeps "
                                 "the documented (stricter) rule"),
}


def _known(obs: dict, row: dict) -> str | None:
    """The KNOWN_DIFFERENCES key whose documented pattern this failing row matches, else None."""
    if obs.get("kind") == "valid":
        p = obs["params"]
        if obs["encode_rc"] == 0 and p["interleave"] == "32B" and p["swizzle"] != "32B":
            return "tma.interleave32_swizzle"
    return None


def verify(results: Any) -> tuple[list[dict], dict]:
    """Recompute every prediction for a result file (path or dict) with the current library.

    Returns ``(rows, meta)``: one row per case (``id``, ``kind``, ``ok``, ``detail``, and
    ``known``: the :data:`KNOWN_DIFFERENCES` key that explains a failing row, else None) and the
    file's metadata. Raises :class:`HwCheckError` for a file that is not a result file.

    >>> verify({"meta": {}, "cases": []})
    ([], {})
    >>> verify({"cases": [{"kind": "bogus", "id": "x"}]})
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.HwCheckError: hwcheck --verify: case 'x' has unknown kind 'bogus'
    """
    data = _load(results)
    rows = []
    fn = {"place": _verify_place, "store": _verify_store, "valid": _verify_valid, "im2col": _verify_im2col,
          "mma": _verify_mma, "e2e": _verify_mma, "neg": _verify_mma}
    for obs in data["cases"]:
        if not isinstance(obs, dict) or obs.get("kind") not in fn:
            kind = obs.get("kind") if isinstance(obs, dict) else type(obs).__name__
            cid = obs.get("id") if isinstance(obs, dict) else "?"
            raise HwCheckError(f"hwcheck --verify: case {cid!r} has unknown kind {kind!r}")
        try:
            row = fn[obs["kind"]](obs)
            row["known"] = None if row["ok"] else _known(obs, row)
            rows.append(row)
        except (KeyError, TypeError, ValueError) as e:
            if isinstance(e, LayoutError):
                raise
            raise HwCheckError(f"hwcheck --verify: case {obs.get('id')!r} is malformed: {type(e).__name__}: {e}") from None
    return rows, data.get("meta", {})


def format_table(rows: list[dict], *, all_rows: bool = False) -> str:
    """A pass/fail summary per kind, the known differences, then the unexplained failures (every row with ``all_rows``).

    >>> print(format_table([{"id": "a", "kind": "mma", "ok": True, "detail": "fine"}]))
    kind    pass  fail
    mma        1     0
    total      1     0
    """
    kinds: dict[str, list[int]] = {}
    known: dict[str, int] = {}
    for r in rows:
        k = kinds.setdefault(r["kind"], [0, 0, 0])
        if r["ok"]:
            k[0] += 1
        elif r.get("known"):
            k[1] += 1
            known[r["known"]] = known.get(r["known"], 0) + 1
        else:
            k[2] += 1
    lines = [f"{'kind':6} {'pass':>5} {'fail':>5}"]
    for name, (p, kf, f) in kinds.items():
        lines.append(f"{name:6} {p:5d} {kf + f:5d}" + (f"  ({kf} known)" if kf else ""))
    tp = sum(v[0] for v in kinds.values())
    tk = sum(v[1] for v in kinds.values())
    tf = sum(v[2] for v in kinds.values())
    lines.append(f"{'total':6} {tp:5d} {tk + tf:5d}" + (f"  ({tk} known)" if tk else ""))
    if known:
        lines.append("")
        lines.append("known differences (docs/hardware-validation.md):")
        for key, n in known.items():
            lines.append(f"  {key}: {n} case(s): {KNOWN_DIFFERENCES[key]}")
    shown = [r for r in rows if all_rows or (not r["ok"] and not r.get("known"))]
    if shown:
        lines.append("")
        for r in shown:
            tag = "PASS" if r["ok"] else ("KNOWN" if r.get("known") else "FAIL")
            lines.append(f"{tag:5} {r['id']}: {r['detail']}")
    return "\n".join(lines)
