"""Hardware validation: generate CUDA checks from the library, and verify a GPU result file.

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

import hashlib
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..arch import tma
from ..arch.swizzle_modes import SwizzleMode
from ..errors import HwCheckError
from ..limits import fmt

__all__ = ["ABS_DATA", "ABS_B", "ABS_PLACE", "DYN_SMEM_BYTES", "fnv_hash", "plan"]

# Harness addresses (absolute shared-memory byte addresses; not layout constants: where the harness
# puts its data). The kernels check at run time that the dynamic shared memory covers them.
ABS_MBAR = 0x1F00  #: the mbarrier
ABS_DATA = 0x2000  #: A operand tiles (and the first TMA placement region)
ABS_B = 0x12000  #: B operand tiles
ABS_PLACE = ABS_DATA  #: TMA placement: region 0; region 1 is ABS_PLACE + PLACE_REGION_BYTES
PLACE_REGION_BYTES = 0x2000
IM2COL_REGION_BYTES = 0x5000  #: im2col: the region dumped (every model's rows fit)
DYN_SMEM_BYTES = 0x32000  #: dynamic shared memory requested by the wgmma kernels (200 KiB)

DTYPE_BITS = {"bf16": 16, "tf32": 32, "e4m3": 8}
K_INSTR_ELEMS = {"bf16": 16, "tf32": 8, "e4m3": 32}
SWIZZLE_NAMES = ("none", "32B", "64B", "128B")


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

    Pre:  ``values`` integers (any shape).
    Post: 16 hex digits, the hash the CUDA program computes over the same values.

    ``sum_i splitmix64(i) * splitmix64(uint32(v_i)) mod 2**64`` -- vectorised here, a loop in the
    CUDA program; the name is historical. Raises :class:`HwCheckError` for non-integer input.

    >>> fnv_hash([])
    '0000000000000000'
    >>> fnv_hash([0, 1]) != fnv_hash([1, 0])
    True
    """
    try:
        a = np.asarray(values)
    except (TypeError, ValueError):
        raise HwCheckError(f"fnv_hash: expected a sequence of integers, got {fmt(values)}"[:200]) from None
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


def operand_values(seed: int, shape: tuple[int, int]) -> np.ndarray:
    n = shape[0] * shape[1]
    with np.errstate(over="ignore"):
        x = _splitmix(np.uint64(seed) * np.uint64(1 << 24) + np.arange(n, dtype=np.uint64))
    return ((x % np.uint64(7)).astype(np.int64) - 3).reshape(shape).astype(np.int8)


_E4M3 = {0: 0x00, 1: 0x38, 2: 0x40, 3: 0x44}


def to_bits(dtype: str, v: np.ndarray) -> np.ndarray:
    """The element bit patterns of small integers (bf16, tf32 as fp32 bits, e4m3)."""
    if dtype == "e4m3":
        mag = np.vectorize(lambda x: _E4M3[abs(int(x))])(v).astype(np.uint32)
        return np.where(v < 0, mag | 0x80, mag).astype(np.uint32)
    f = v.astype(np.float32).view(np.uint32)
    return (f >> 16).astype(np.uint32) if dtype == "bf16" else f.astype(np.uint32)


def seed_of(text: str) -> int:
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


def _valid_box_cases() -> list[dict]:
    """Tiled maps: rank, box extents, inner box bytes, inner box vs swizzle span."""
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
    return c


def _valid_global_cases() -> list[dict]:
    """Tiled maps: global strides, global address alignment, global dims, element strides."""
    c: list[dict] = []
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
    return c


def _valid_mode_cases() -> list[dict]:
    """Tiled maps: interleave and swizzle combinations, OOB fill, packed types."""
    c: list[dict] = []
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
    return c


def _valid_im2col_cases() -> list[dict]:
    """im2col maps: rank, pixel box, channels, pixels, swizzle span, strides, alignment."""
    c: list[dict] = []
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
    return c


def _valid_cases() -> list[dict]:
    """The tensor-map validation battery: parameter sets at and just past each rule, numbered in order."""
    c = _valid_box_cases() + _valid_global_cases() + _valid_mode_cases() + _valid_im2col_cases()
    for i, case in enumerate(c):
        case["id"] = f"valid/{i:03d}"
    return c


def _mma_base_configs() -> list[dict]:
    out: list[dict] = []
    shapes = ((64, 64, 64), (128, 64, 64), (64, 128, 64), (64, 64, 128), (128, 128, 128))
    majors = {"bf16": (("K", "K"), ("MN", "K"), ("K", "MN"), ("MN", "MN")), "tf32": (("K", "K"),), "e4m3": (("K", "K"),)}
    for dtype, combos in majors.items():
        for ma, mb in combos:
            for mode in SWIZZLE_NAMES:
                for m, n, k in shapes:
                    k = 2 * k if dtype == "e4m3" else k  # the same bytes per row: the 128B atom is 128 fp8 wide
                    out.append({"dtype": dtype, "major_a": ma, "major_b": mb, "mode": mode, "M": m, "N": n, "K": k,
                                "off_a": 0, "off_b": 0, "anchor": "absolute", "order": "auto"})
    # round 1's MN-major tile order (atoms along MN first), now through codegen's order="mn_first"
    for ma, mb in (("MN", "MN"), ("MN", "K"), ("K", "MN")):
        for mode in SWIZZLE_NAMES:
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


def cfg_id(cfg: dict) -> str:
    tail = f"/{cfg['order']}" if cfg.get("order") else ""  # round-1 records have no order (their seeds stay)
    return (f"{cfg['dtype']}/{cfg['major_a']}{cfg['major_b']}/{cfg['mode']}/{cfg['M']}x{cfg['N']}x{cfg['K']}/"
            f"a{cfg['off_a']}b{cfg['off_b']}/{cfg['anchor']}{tail}")


def _e2e_configs() -> list[dict]:
    out = []
    for mode in SWIZZLE_NAMES:
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


MUTATIONS = ("lbo+16", "sbo+16", "lbo+4096", "mode", "base_offset^1", "base_offset+2", "base_offset+4")
WRONG_MODE = {"none": "128B", "32B": "64B", "64B": "128B", "128B": "64B"}


def plan() -> list[dict]:
    """Every case the GPU program runs, as JSON-able dicts (``kind``, ``id`` and the parameters).

    Pre:  none.
    Post: every case as a JSON-able dict with a unique ``id`` and its ``kind``.

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
        cases.append({"kind": "mma", "id": f"mma/{cfg_id(cfg)}", "cfg": cfg, "mutation": None})
    e2e = _e2e_configs()
    for cfg in e2e:
        cases.append({"kind": "e2e", "id": f"e2e/{cfg_id(cfg)}", "cfg": cfg, "mutation": None})
    for cfg in bases:
        if cfg["off_a"] or cfg["K"] == 128 or cfg["M"] == 128:
            ops = ("A",)
        else:
            ops = ("A", "B")
        for op in ops:
            for mut in MUTATIONS:
                if mut.startswith("base_offset") and cfg["mode"] == "none":
                    continue
                cases.append({"kind": "neg", "id": f"neg/{cfg_id(cfg)}/{op}.{mut}", "cfg": cfg,
                              "mutation": {"operand": op, "field": mut}, "loader": "st"})
    for cfg in e2e:
        if cfg["M"] == 64 and cfg["off_a"] == 0:
            cases.append({"kind": "neg", "id": f"neg/e2e/{cfg_id(cfg)}/A.tma_swizzle", "cfg": cfg,
                          "mutation": {"operand": "A", "field": "tma_swizzle"}, "loader": "tma"})
    return cases


