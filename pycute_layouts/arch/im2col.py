"""TMA im2col, im2col::w and im2col::w::128: which global pixels one load reads, where each one lands.

A convolution read as a GEMM wants, for one filter tap, a matrix whose rows are output pixels and
whose columns are input channels. The TMA im2col modes build that matrix in shared memory without
materialising it in global memory. The tensor is a batch of images, ``N`` images of ``D x H x W``
pixels with ``C`` channels each, stored NDHWC (``NHWC`` for rank 4, ``NWC`` for rank 3).

**Dimension order.** Everything here uses the driver's order, innermost first, exactly as
``globalDim[]`` and the PTX coordinate vector do::

    rank 3: (C, W, N)     rank 4: (C, W, H, N)     rank 5: (C, W, H, D, N)

Spatial vectors (box corners, im2col offsets, element strides of the spatial modes) are innermost
first too: ``(W, H, D)``, as CUTLASS passes them (``lower_corner_whd``). Result coordinates are
reported per pixel as ``(n, d, h, w)`` (``d = h = 0`` where the rank has no such mode).

**The bounding box** (PTX 5.5.4.1) lives in DHW space. Its corners are offsets from the tensor's
corners: the lower corner from ``0``, the upper corner from ``dim - 1``, so along a spatial mode
the box is the inclusive range ``[lower, dim - 1 + upper]``. For a convolution with padding ``p``,
filter size ``k`` (dilation folded in) the usual values are ``lower = -p``,
``upper = p - (k - 1)``, and the box is exactly the set of legal filter-base positions.

**Traversal** (PTX 5.5.4.2). The instruction's DHW coordinates give the first filter base, which
must lie in the box; N and C coordinates are plain starting offsets. Pixels are visited W fastest,
then H, then D, then N: each spatial step adds that mode's traversal stride
(``elementStrides[i]``); stepping past the box's upper end wraps that mode back to the box's lower
end and carries into the next mode, and a carry out of the outermost spatial mode advances N by
one. ``pixelsPerColumn`` pixels are visited. The pixel read is ``filter base + im2col offsets``.

**im2col::w and ::w::128** (PTX 5.5.5). The box is one pixel tall in D and H, placed at the
instruction's D and H coordinates; the W corners (``pixelBoxLowerCornerWidth`` /
``...UpperCornerWidth``) bound it in W. The instruction's W coordinate is the first pixel read and
may lie left of the box (only left, only in W). ``wOffset`` moves the whole access along W:
lower corner, upper corner and W all ``+= wOffset``. The pixel count is ``pixelsPerColumn`` for
``::w`` and always 128 for ``::w::128``. Halo pixels continue the row to the right (``wHalo`` of
them, at the traversal stride): for ``::w`` once, after all main pixels; for ``::w::128`` after
every 32 main pixels.

**Shared memory.** Each pixel fills one row of ``channelsPerPixel`` elements, rows in load order
(halo rows in their place), placed as :func:`pycute_layouts.arch.tma.box_to_smem` places box rows:
one row pitch apart (the swizzle span when a swizzled row is narrower than it; dense otherwise), so
for an unswizzled or full-span row element ``j`` of row ``r`` sits at element offset
``r * channelsPerPixel + j`` before the swizzle is applied (docs/hardware-validation.md).
A pixel outside the tensor (or a channel outside ``[0, C)``) is not read: its slot is filled
(zero, or NaN under ``OOB_FILL_NAN_REQUEST_ZERO_FMA``).

What the reference text does not pin down and this model decides (docs/im2col.md lists each):
wrap of ``::w`` rows into the next image (N) when the box's W range is used up; the halo continuing
along W from the last main pixel of its group, past the box, in the same image; N advancing by 1.

>>> acc = im2col_w_load(coords=(0, 0, 0, 0), w_halo=2, global_dim=(8, 6, 1, 1),
...                     pixel_box_lower_corner_width=-1, pixel_box_upper_corner_width=-1,
...                     channels_per_pixel=8, pixels_per_column=4)
>>> acc.w.tolist(), acc.is_halo.tolist()
([0, 1, 2, 3, 4, 5], [False, False, False, False, True, True])
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.layout import Layout
from ..errors import TensorMapError, UnitError
from ..limits import MAX_EVAL_POINTS, check_budget, check_count, check_fields, check_sequence, fmt
from .swizzle_modes import SwizzleMode

__all__ = [
    "Im2colAccess",
    "im2col_bounding_box",
    "im2col_load",
    "im2col_w_load",
    "im2col_w128_load",
    "validate_im2col_w",
    "normalize_interleave",
    "InterleaveInfo",
    "interleave_info",
    "interleave_layout",
    "interleave_offsets",
    "interleave_pack",
]

# PTX 5.5.4.1 tables (bit widths of the signed corners and the unsigned im2col offsets per rank).
_CORNER_RANGE = {3: (-(2**15), 2**15 - 1), 4: (-(2**7), 2**7 - 1), 5: (-(2**4), 2**4 - 1)}
_OFFSET_RANGE = {3: (0, 2**16 - 1), 4: (0, 2**8 - 1), 5: (0, 2**5 - 1)}
_WIDE_CORNER_RANGE = (-32768, 32767)  # cuTensorMapEncodeIm2colWide, pixelBoxLower/UpperCornerWidth
_SPATIAL_NAMES = ("W", "H", "D")
_W128_PIXELS = 128
_W128_GROUP = 32

_INTERLEAVES = ("NONE", "16B", "32B")
_INTERLEAVE_ALIASES = {
    "NDHWC": "NONE", "NHWC": "NONE", "NWC": "NONE",
    "NC/8DHWC8": "16B", "NC/8HWC8": "16B", "NC/8WC8": "16B",
    "NC/16DHWC16": "32B", "NC/16HWC16": "32B", "NC/16WC16": "32B",
}


# --------------------------------------------------------------------------------------------
# small validators: user input never escapes as TypeError/IndexError
# --------------------------------------------------------------------------------------------


def _int(who: str, name: str, v: Any) -> int:
    return check_count(who, name, v, None, None, TensorMapError)


def _ints(who: str, name: str, v: Any, length: int | None = None) -> tuple[int, ...]:
    v = check_sequence(who, name, v, error=TensorMapError, items="integers")
    out = tuple(_int(who, f"{name}[{i}]", x) for i, x in enumerate(v))
    if length is not None and len(out) != length:
        raise TensorMapError(f"{who}: {name} must have {length} entries, got {len(out)}: {out}")
    return out


def _in_range(who: str, name: str, v: int, lo: int, hi: int, rule: str) -> None:
    if not lo <= v <= hi:
        raise TensorMapError(f"{who}: {name} = {v} is outside [{lo}, {hi}] ({rule})")


def _param(tensor_map: Any, given: Any, name: str) -> Any:
    """A keyword argument wins; otherwise the attribute of the tensor-map object (duck typing)."""
    if given is not None:
        return given
    if tensor_map is None:
        return None
    return getattr(tensor_map, name, None)


def _global_dim(who: str, tensor_map: Any, global_dim: Any) -> tuple[int, ...]:
    dims = _param(tensor_map, global_dim, "global_dim")
    if dims is None:
        raise TensorMapError(f"{who}: global_dim is required (keyword or tensor-map attribute)")
    dims = _ints(who, "global_dim", dims)
    if len(dims) not in (3, 4, 5):
        raise TensorMapError(
            f"{who}: tensorRank must be 3, 4, or 5 (im2col modes), got rank {len(dims)}: {dims}"
        )
    for i, d in enumerate(dims):
        _in_range(who, f"global_dim[{i}]", d, 1, 2**32, "globalDim must be non-zero and <= 2^32")
    return dims


def _channels_per_pixel(who: str, tensor_map: Any, value: Any) -> int:
    v = _param(tensor_map, value, "channels_per_pixel")
    if v is None:
        raise TensorMapError(f"{who}: channels_per_pixel is required")
    v = _int(who, "channels_per_pixel", v)
    _in_range(who, "channels_per_pixel", v, 1, 256, "channelsPerPixel must be <= 256")
    return v


def _pixels_per_column(who: str, tensor_map: Any, value: Any) -> int:
    v = _param(tensor_map, value, "pixels_per_column")
    if v is None:
        raise TensorMapError(f"{who}: pixels_per_column is required")
    v = _int(who, "pixels_per_column", v)
    _in_range(who, "pixels_per_column", v, 1, 1024, "pixelsPerColumn must be <= 1024")
    return v


def _element_strides(who: str, tensor_map: Any, value: Any, rank: int) -> tuple[int, ...]:
    v = _param(tensor_map, value, "element_strides")
    if v is None:
        return (1,) * rank
    v = _ints(who, "element_strides", v, rank)
    for i, s in enumerate(v):
        _in_range(who, f"element_strides[{i}]", s, 1, 8, "elementStrides must be non-zero and <= 8")
    return v


def _coords(who: str, coords: Any, rank: int) -> tuple[int, ...]:
    order = {3: "(C, W, N)", 4: "(C, W, H, N)", 5: "(C, W, H, D, N)"}[rank]
    if coords is None:
        raise TensorMapError(f"{who}: coords {order} are required")
    v = _ints(who, f"coords {order}", coords)
    if len(v) != rank:
        raise TensorMapError(
            f"{who}: coords must have one entry per tensor mode, innermost first {order}; got {v}"
        )
    return v


def _enum_name(value: Any) -> str | None:
    """The name of an enum-like value (``short_name``, else ``name``) or of a string; None for ints."""
    if isinstance(value, str):
        return value
    for attr in ("short_name", "name"):
        v = getattr(value, attr, None)
        if isinstance(v, str):
            return v
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        return None
    raise TensorMapError(f"expected a mode name, enum member or integer, got {fmt(value)}")


def normalize_interleave(interleave: Any) -> str:
    """The CUtensorMapInterleave mode as ``'NONE'``, ``'16B'`` or ``'32B'``.

    Pre: ``interleave`` is a name, driver name, PTX layout name, enum member or int.
    Post: one of "NONE", "16B", "32B"; TensorMapError otherwise.

    Also accepts the layout names of PTX 5.5.6: ``NC/8DHWC8`` (16-byte slices) and ``NC/16HWC16``
    (32-byte slices), the driver's names and the enum's integer value.

    >>> normalize_interleave("NC/8DHWC8"), normalize_interleave("CU_TENSOR_MAP_INTERLEAVE_32B")
    ('16B', '32B')
    """
    name = _enum_name(interleave)
    if name is None:
        if isinstance(interleave, (int, np.integer)) and 0 <= int(interleave) < len(_INTERLEAVES):
            return _INTERLEAVES[int(interleave)]
    else:
        key = name.upper().replace(" ", "")
        if key in _INTERLEAVE_ALIASES:
            return _INTERLEAVE_ALIASES[key]
        key = key.replace("CU_TENSOR_MAP_INTERLEAVE_", "").replace("INTERLEAVE_", "").strip("_")
        if key in _INTERLEAVES:
            return key
    raise TensorMapError(
        f"unknown interleave {fmt(interleave)}; expected NONE, 16B (NC/8DHWC8) or 32B (NC/16HWC16)"
    )


def validate_im2col_w(swizzle: Any = None, interleave: Any = None, mode: str = "im2col::w") -> None:
    """Raise TensorMapError unless ``swizzle``/``interleave`` are legal for the im2col::w modes.

    Pre: ``swizzle``/``interleave`` are None or any spelling of a mode.
    Post: returns None when both are legal for im2col::w; TensorMapError naming the rule otherwise.

    PTX 5.5.5: "the valid Swizzling Modes must be set ... swizzling mode must not be (i) no swizzle
    and (ii) 128-byte swizzle mode with 32-byte atomicity with 8-byte flip"; the driver's
    cuTensorMapEncodeIm2colWide further allows only SWIZZLE_64B, SWIZZLE_128B and
    SWIZZLE_128B_ATOM_32B. PTX 5.5.6: "The interleave layout is not supported for .im2col::w and
    .im2col::w::128 modes". ``None`` means "not given" and is not checked.

    >>> validate_im2col_w(swizzle="128B", interleave="NONE")
    >>> validate_im2col_w(swizzle="NONE")
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.TensorMapError: im2col::w: swizzle NONE is not allowed: ...
    """
    if swizzle is not None:
        sw = SwizzleMode.parse(swizzle)
        if sw in (SwizzleMode.NONE, SwizzleMode.B128_ATOM_32B_FLIP_8B):
            raise TensorMapError(
                f"{mode}: swizzle {sw.tma_name} is not allowed: PTX 5.5.5 says 'the valid Swizzling Modes must "
                "be set. In other words, swizzling mode must not be (i) no swizzle and (ii) 128-byte "
                "swizzle mode with 32-byte atomicity with 8-byte flip'"
            )
        if not sw.on_im2col_w:
            raise TensorMapError(
                f"{mode}: swizzle {sw.tma_name} is not allowed: cuTensorMapEncodeIm2colWide accepts only "
                "CU_TENSOR_MAP_SWIZZLE_64B, CU_TENSOR_MAP_SWIZZLE_128B and "
                "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B ('other swizzle modes are not supported')"
            )
    if interleave is not None:
        il = normalize_interleave(interleave)
        if il != "NONE":
            raise TensorMapError(
                f"{mode}: interleave {il} is not allowed: PTX 5.5.6 says 'The interleave layout is "
                "not supported for .im2col::w and .im2col::w::128 modes'"
            )


# --------------------------------------------------------------------------------------------
# the result
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Im2colAccess:
    """What one im2col-mode load reads and where each pixel lands in shared memory.

    Arrays are indexed by shared-memory pixel row (``smem_row[i] == i``): ``pixels[i]`` is the
    tensor coordinate ``(n, d, h, w)`` read into row ``i``, ``is_halo[i]`` marks halo rows and
    ``in_bounds[i]`` is False where the pixel lies outside the tensor (the row is filled, not read).
    Every row holds the channels ``channel_start .. channel_start + channels_per_pixel - 1``.
    ``bounding_box`` is the box in tensor coordinates, innermost first ``((lo_w, hi_w), (lo_h,
    hi_h), ...)``, inclusive, after im2col offsets / ``wOffset`` were added.

    >>> acc = im2col_w_load(coords=(0, 2, 0, 0), global_dim=(8, 4, 1, 1), channels_per_pixel=8,
    ...                     pixels_per_column=2, pixel_box_lower_corner_width=0,
    ...                     pixel_box_upper_corner_width=0, w_halo=2)
    >>> print(acc)
    im2col::w: 4 smem rows (2 pixels + 2 halo) x 8 channels [c 0..7], tensor (C,W,H,N) = (8, 4, 1, 1)
      bounding box W [0, 3]  H [0, 0]
      row  n  h  w
        0  0  0  2
        1  0  0  3
        2  0  0  4  halo  filled
        3  0  0  5  halo  filled
    >>> acc.rank, acc.num_rows, acc.num_pixels, acc.num_halo, acc.smem_elems, acc.w.tolist()
    (4, 4, 2, 2, 32, [2, 3, 4, 5])
    >>> bool(acc.channel_in_bounds.all()), acc.smem_offsets()[1, :3].tolist(), acc.elements()["w"][::8].tolist()
    (True, [8, 9, 10], [2, 3, 4, 5])
    """

    mode: str
    global_dim: tuple[int, ...]
    channel_start: int
    channels_per_pixel: int
    bounding_box: tuple[tuple[int, int], ...]
    pixels: np.ndarray
    smem_row: np.ndarray
    is_halo: np.ndarray
    in_bounds: np.ndarray

    def __post_init__(self) -> None:
        check_fields(self)

    @property
    def rank(self) -> int:
        """Tensor rank (3, 4 or 5)."""
        return len(self.global_dim)

    @property
    def n(self) -> np.ndarray:
        """N coordinate of each smem row."""
        return self.pixels[:, 0]

    @property
    def d(self) -> np.ndarray:
        """D coordinate of each smem row (0 below rank 5)."""
        return self.pixels[:, 1]

    @property
    def h(self) -> np.ndarray:
        """H coordinate of each smem row (0 for rank 3)."""
        return self.pixels[:, 2]

    @property
    def w(self) -> np.ndarray:
        """W coordinate of each smem row."""
        return self.pixels[:, 3]

    @property
    def num_rows(self) -> int:
        """Shared-memory pixel rows written (main pixels + halo pixels)."""
        return int(self.pixels.shape[0])

    @property
    def num_pixels(self) -> int:
        """Main (non-halo) pixels."""
        return int(np.count_nonzero(~self.is_halo))

    @property
    def num_halo(self) -> int:
        """Halo pixels."""
        return int(np.count_nonzero(self.is_halo))

    @property
    def channels(self) -> np.ndarray:
        """The C coordinates every row holds."""
        return np.arange(self.channels_per_pixel, dtype=np.int64) + self.channel_start

    @property
    def channel_in_bounds(self) -> np.ndarray:
        """Per channel of a row: True where ``0 <= c < C`` (else that element is filled)."""
        c = self.channels
        return (c >= 0) & (c < self.global_dim[0])

    @property
    def smem_elems(self) -> int:
        """Elements written to shared memory: rows x channelsPerPixel."""
        return self.num_rows * self.channels_per_pixel

    def smem_offsets(self) -> np.ndarray:
        """``(rows, channels_per_pixel)`` array of element offsets, before swizzling."""
        rows = self.smem_row.astype(np.int64)[:, None]
        return rows * self.channels_per_pixel + np.arange(self.channels_per_pixel, dtype=np.int64)

    def elements(self) -> dict[str, np.ndarray]:
        """Every element, flattened row-major over ``(row, channel)``.

        Keys ``n, d, h, w, c`` (tensor coordinate), ``smem_offset`` (element offset before the
        swizzle), ``is_halo`` and ``in_bounds`` (False: the element is filled, not read).
        """
        k = self.channels_per_pixel
        out = {name: np.repeat(self.pixels[:, i], k) for i, name in enumerate("ndhw")}
        out["c"] = np.tile(self.channels, self.num_rows)
        out["smem_offset"] = self.smem_offsets().reshape(-1)
        out["is_halo"] = np.repeat(self.is_halo, k)
        out["in_bounds"] = np.repeat(self.in_bounds, k) & np.tile(self.channel_in_bounds, self.num_rows)
        return out

    def __repr__(self) -> str:
        return (
            f"Im2colAccess(mode={self.mode!r}, rows={self.num_rows}, halo={self.num_halo}, "
            f"channels={self.channel_start}..{self.channel_start + self.channels_per_pixel - 1})"
        )

    def __str__(self) -> str:
        names = {3: "(C,W,N)", 4: "(C,W,H,N)", 5: "(C,W,H,D,N)"}[self.rank]
        c0, c1 = self.channel_start, self.channel_start + self.channels_per_pixel - 1
        head = (
            f"{self.mode}: {self.num_rows} smem rows ({self.num_pixels} pixels + {self.num_halo} halo)"
            f" x {self.channels_per_pixel} channels [c {c0}..{c1}], tensor {names} = {self.global_dim}"
        )
        box = "  ".join(f"{_SPATIAL_NAMES[i]} [{lo}, {hi}]" for i, (lo, hi) in enumerate(self.bounding_box))
        cols = [("row", self.smem_row), ("n", self.n)]
        if self.rank == 5:
            cols.append(("d", self.d))
        if self.rank >= 4:
            cols.append(("h", self.h))
        cols.append(("w", self.w))
        widths = [max(len(name), *(len(str(int(x))) for x in arr)) for name, arr in cols]
        lines = [head, f"  bounding box {box}"]
        spec = list(zip(cols, widths, strict=True))
        lines.append("  " + "  ".join(name.rjust(wd) for (name, _), wd in spec))
        for i in range(self.num_rows):
            row = "  " + "  ".join(str(int(arr[i])).rjust(wd) for (_, arr), wd in spec)
            flags = ("halo" if self.is_halo[i] else "", "" if self.in_bounds[i] else "filled")
            if any(flags):
                row += "  " + "  ".join(f.ljust(4) for f in flags).rstrip()
            lines.append(row)
        if not self.channel_in_bounds.all():
            bad = self.channels[~self.channel_in_bounds]
            lines.append(f"  channels outside [0, {self.global_dim[0]}) are filled: {bad.tolist()}")
        return "\n".join(lines)


def _in_tensor(pix: np.ndarray, dims: tuple[int, ...]) -> np.ndarray:
    rank = len(dims)
    spatial = list(dims[1 : rank - 1]) + [1] * (4 - rank + 1)  # (W, H, D) padded with 1
    w_dim, h_dim, d_dim = spatial[0], spatial[1], spatial[2]
    n, d, h, w = pix[:, 0], pix[:, 1], pix[:, 2], pix[:, 3]
    return (
        (n >= 0) & (n < dims[-1]) & (d >= 0) & (d < d_dim) & (h >= 0) & (h < h_dim)
        & (w >= 0) & (w < w_dim)
    )


def _to_ndhw(n: int, spatial: Sequence[int]) -> tuple[int, int, int, int]:
    s = list(spatial) + [0] * (3 - len(spatial))
    return (n, s[2], s[1], s[0])


def _traverse(start: Sequence[int], lo: Sequence[int], hi: Sequence[int], steps: Sequence[int],
              n0: int, count: int) -> list[tuple[int, list[int]]]:
    """``count`` (n, spatial) positions: W fastest, wrap to ``lo`` past ``hi``, carry into N."""
    cur = list(start)
    n = n0
    out: list[tuple[int, list[int]]] = []
    for _ in range(count):
        out.append((n, list(cur)))
        k = 0
        while True:
            if k == len(cur):
                n += 1
                break
            cur[k] += steps[k]
            if cur[k] <= hi[k]:
                break
            cur[k] = lo[k]
            k += 1
    return out


def _make_access(mode: str, dims: tuple[int, ...], c0: int, cpp: int,
                 box: tuple[tuple[int, int], ...], rows: list[tuple[tuple[int, int, int, int], bool]]
                 ) -> Im2colAccess:
    pix = np.array([p for p, _ in rows], dtype=np.int64).reshape(-1, 4)
    halo = np.array([hb for _, hb in rows], dtype=bool)
    return Im2colAccess(
        mode=mode,
        global_dim=dims,
        channel_start=c0,
        channels_per_pixel=cpp,
        bounding_box=box,
        pixels=pix,
        smem_row=np.arange(len(rows), dtype=np.int64),
        is_halo=halo,
        in_bounds=_in_tensor(pix, dims),
    )


# --------------------------------------------------------------------------------------------
# plain im2col
# --------------------------------------------------------------------------------------------


def im2col_bounding_box(global_dim: Sequence[int], lower_corner: Sequence[int],
                        upper_corner: Sequence[int]) -> tuple[tuple[int, int], ...]:
    """The inclusive filter-base range ``(lo, hi)`` per spatial mode, innermost first (W, H, D).

    Pre: a rank 3..5 tensor and corners inside the driver ranges.
    Post: the per-dimension inclusive bounding box.

    PTX 5.5.4.1: the lower corner is an offset from the tensor's first pixel, the upper corner an
    offset from its last, so ``lo = lower`` and ``hi = dim - 1 + upper``. The box must be
    non-empty ("must have non-zero area"). ``global_dim`` is the full (C, W, ..., N) vector.

    >>> im2col_bounding_box((128, 7, 7, 64), (-1, -1), (-1, -1))
    ((-1, 5), (-1, 5))
    """
    who = "im2col_bounding_box"
    dims = _ints(who, "global_dim", global_dim)
    if len(dims) not in (3, 4, 5):
        raise TensorMapError(f"{who}: tensorRank must be 3, 4, or 5, got {len(dims)}")
    ns = len(dims) - 2
    lower = _ints(who, "pixel_box_lower_corner (W, H, D order)", lower_corner, ns)
    upper = _ints(who, "pixel_box_upper_corner (W, H, D order)", upper_corner, ns)
    box = tuple((lower[i], dims[1 + i] - 1 + upper[i]) for i in range(ns))
    for i, (lo, hi) in enumerate(box):
        if hi < lo:
            raise TensorMapError(
                f"{who}: the bounding box specified by pixelBoxLowerCorner and pixelBoxUpperCorner must "
                f"have non-zero area; along {_SPATIAL_NAMES[i]} it is [{lo}, {hi}] (dim {dims[1 + i]}, "
                f"lower {lower[i]}, upper {upper[i]})"
            )
    return box


def im2col_load(tensor_map: Any = None, *, coords: Sequence[int], offsets: Sequence[int] | None = None,
                global_dim: Sequence[int] | None = None,
                pixel_box_lower_corner: Sequence[int] | None = None,
                pixel_box_upper_corner: Sequence[int] | None = None,
                channels_per_pixel: int | None = None, pixels_per_column: int | None = None,
                element_strides: Sequence[int] | None = None) -> Im2colAccess:
    """The pixels a ``cp.async.bulk.tensor ... .im2col`` load reads, in shared-memory row order.

    Pre: a tensor map (or the parameters) of rank 3..5 and coordinates inside the driver ranges.
    Post: an Im2colAccess listing, row by row, the pixel each shared-memory row holds.

    Parameters come from ``tensor_map`` (any object with the attributes of the same names) or
    from keywords, keywords winning. ``coords`` is innermost first (C, W, [H, [D]], N); ``offsets``
    are the instruction's im2col offsets (W, [H, [D]]), default all zero. PTX 5.5.4.1: "The filter
    corner location must be within the bounding box", else TensorMapError.

    >>> acc = im2col_load(coords=(0, 2, 0), offsets=(1,), global_dim=(8, 4, 2),
    ...                   pixel_box_lower_corner=(-1,), pixel_box_upper_corner=(-1,),
    ...                   channels_per_pixel=8, pixels_per_column=4)
    >>> acc.n.tolist(), acc.w.tolist(), acc.in_bounds.tolist()
    ([0, 1, 1, 1], [3, 0, 1, 2], [True, True, True, True])
    """
    who = "im2col"
    dims = _global_dim(who, tensor_map, global_dim)
    rank = len(dims)
    ns = rank - 2
    lower, upper = _pixel_box_corners(who, tensor_map, pixel_box_lower_corner, pixel_box_upper_corner, rank)
    cpp = _channels_per_pixel(who, tensor_map, channels_per_pixel)
    ppc = _pixels_per_column(who, tensor_map, pixels_per_column)
    es = _element_strides(who, tensor_map, element_strides, rank)
    crd = _coords(who, coords, rank)
    offs = (0,) * ns if offsets is None else _ints(who, "offsets (W, H, D order)", offsets, ns)
    lo_o, hi_o = _OFFSET_RANGE[rank]
    for i, v in enumerate(offs):
        _in_range(who, f"offsets[{i}] ({_SPATIAL_NAMES[i]})", v, lo_o, hi_o,
                  f"rank {rank}: im2col offsets must be within [{lo_o}, {hi_o}]")
    box = im2col_bounding_box(dims, lower, upper)
    base = crd[1 : rank - 1]
    for i, b in enumerate(base):
        lo, hi = box[i]
        if not lo <= b <= hi:
            raise TensorMapError(
                f"{who}: the filter corner location must be within the bounding box (PTX 5.5.4.1); "
                f"coordinate {_SPATIAL_NAMES[i]} = {b} is outside [{lo}, {hi}]"
            )
    lo_b = [lo for lo, _ in box]
    hi_b = [hi for _, hi in box]
    steps = es[1 : rank - 1]
    visits = _traverse(base, lo_b, hi_b, steps, crd[-1], ppc)
    rows = [(_to_ndhw(n, [s + o for s, o in zip(sp, offs, strict=True)]), False) for n, sp in visits]
    shifted = tuple((lo + o, hi + o) for (lo, hi), o in zip(box, offs, strict=True))
    return _make_access("im2col", dims, crd[0], cpp, shifted, rows)


def _pixel_box_corners(who: str, tensor_map: Any, lower: Any, upper: Any, rank: int) -> tuple[tuple, tuple]:
    # Pre:  rank 3..5; lower/upper the keywords (None: take them from tensor_map).
    # Post: (lower, upper), rank - 2 ints each (W, H, D order) within the driver's range for the rank;
    #       otherwise TensorMapError.
    lower = _param(tensor_map, lower, "pixel_box_lower_corner")
    upper = _param(tensor_map, upper, "pixel_box_upper_corner")
    if lower is None or upper is None:
        raise TensorMapError(f"{who}: pixel_box_lower_corner and pixel_box_upper_corner are required")
    lower = _ints(who, "pixel_box_lower_corner (W, H, D order)", lower, rank - 2)
    upper = _ints(who, "pixel_box_upper_corner (W, H, D order)", upper, rank - 2)
    lo_c, hi_c = _CORNER_RANGE[rank]
    for name, vec in (("pixel_box_lower_corner", lower), ("pixel_box_upper_corner", upper)):
        for i, v in enumerate(vec):
            _in_range(who, f"{name}[{i}] ({_SPATIAL_NAMES[i]})", v, lo_c, hi_c,
                      f"rank {rank}: corner offsets must be within [{lo_c}, {hi_c}]")
    return lower, upper


# --------------------------------------------------------------------------------------------
# im2col::w and im2col::w::128
# --------------------------------------------------------------------------------------------


def _wide_corners(who: str, tensor_map: Any, dims: tuple[int, ...], lower_w: Any, upper_w: Any,
                  lower: Any, upper: Any) -> tuple[int, int]:
    """(lowerW, upperW) from the *_width parameters, or from full (W, H, D) corner vectors whose
    H and D entries must describe a box of size 1."""
    lw = _param(tensor_map, lower_w, "pixel_box_lower_corner_width")
    uw = _param(tensor_map, upper_w, "pixel_box_upper_corner_width")
    if lw is None or uw is None:
        lv = _param(tensor_map, lower, "pixel_box_lower_corner")
        uv = _param(tensor_map, upper, "pixel_box_upper_corner")
        if lv is None or uv is None:
            raise TensorMapError(
                f"{who}: pixel_box_lower_corner_width and pixel_box_upper_corner_width are required"
            )
        if isinstance(lv, (int, np.integer)) and isinstance(uv, (int, np.integer)):
            lw, uw = lv, uv
        else:
            ns = len(dims) - 2
            lv_t = _ints(who, "pixel_box_lower_corner (W, H, D order)", lv)
            uv_t = _ints(who, "pixel_box_upper_corner (W, H, D order)", uv)
            if len(lv_t) not in (1, ns) or len(uv_t) != len(lv_t):
                raise TensorMapError(
                    f"{who}: corner vectors must have 1 (W) or {ns} (W, H, D) entries, got {lv_t}, {uv_t}"
                )
            for i in range(1, len(lv_t)):
                size = dims[1 + i] + uv_t[i] - lv_t[i]
                if size != 1:
                    raise TensorMapError(
                        f"{who}: 'In these modes, the size of the bounding box in D and H dimensions are "
                        f"1' (PTX 5.5.5.1); the corners give {_SPATIAL_NAMES[i]} box size {size}"
                    )
            lw, uw = lv_t[0], uv_t[0]
    lw = _int(who, "pixel_box_lower_corner_width", lw)
    uw = _int(who, "pixel_box_upper_corner_width", uw)
    for name, v in (("pixel_box_lower_corner_width", lw), ("pixel_box_upper_corner_width", uw)):
        _in_range(who, name, v, *_WIDE_CORNER_RANGE, "the offset must be within range [-32768, 32767]")
    return lw, uw


def _w_access(mode: str, tensor_map: Any, coords: Any, w_halo: Any, w_offset: Any, global_dim: Any,
              lower_w: Any, upper_w: Any, lower: Any, upper: Any, cpp_in: Any, ppc_in: Any,
              es_in: Any, swizzle: Any, interleave: Any) -> Im2colAccess:
    who = mode
    validate_im2col_w(_param(tensor_map, swizzle, "swizzle"), _param(tensor_map, interleave, "interleave"),
                      mode)
    dims = _global_dim(who, tensor_map, global_dim)
    rank = len(dims)
    lw, uw = _wide_corners(who, tensor_map, dims, lower_w, upper_w, lower, upper)
    cpp = _channels_per_pixel(who, tensor_map, cpp_in)
    ppc = _W128_PIXELS if mode == "im2col::w::128" else _pixels_per_column(who, tensor_map, ppc_in)
    es = _element_strides(who, tensor_map, es_in, rank)
    crd = _coords(who, coords, rank)
    halo = _int(who, "w_halo", w_halo)
    woff = _int(who, "w_offset", w_offset)
    _in_range(who, "w_halo", halo, 0, 2**16 - 1, "wHalo is a 16-bit unsigned instruction operand")
    _in_range(who, "w_offset", woff, 0, 2**16 - 1, "wOffset is a 16-bit unsigned instruction operand")
    # PTX 5.5.5.4: Bounding Box Lower Corner W += wOffset; Upper Corner W += wOffset; W += wOffset.
    lo = lw + woff
    hi = dims[1] - 1 + uw + woff
    if hi < lo:
        raise TensorMapError(
            f"{who}: the bounding box specified by pixelBoxLowerCornerWidth and pixelBoxUpperCornerWidth "
            f"must have non-zero area; W range is [{lo}, {hi}]"
        )
    w0 = crd[1] + woff
    if w0 > hi:
        raise TensorMapError(
            f"{who}: 'The first element can lie outside of the Bounding Box in the W-dimension only and "
            f"only on the left side of the Bounding Box' (PTX 5.5.5.1); W = {w0} is right of [{lo}, {hi}]"
        )
    fixed = list(crd[2 : rank - 1])  # H, D: the box position, size 1
    step = es[1]
    visits = _traverse([w0], [lo], [hi], [step], crd[-1], ppc)
    main = [(_to_ndhw(n, [sp[0], *fixed]), n, sp[0]) for n, sp in visits]

    def halo_rows(n: int, w_last: int) -> list[tuple[tuple[int, int, int, int], bool]]:
        return [(_to_ndhw(n, [w_last + j * step, *fixed]), True) for j in range(1, halo + 1)]

    rows: list[tuple[tuple[int, int, int, int], bool]] = []
    group = _W128_GROUP if mode == "im2col::w::128" else ppc
    for g in range(0, ppc, group):
        chunk = main[g : g + group]
        rows.extend((p, False) for p, _, _ in chunk)
        rows.extend(halo_rows(chunk[-1][1], chunk[-1][2]))
    box = ((lo, hi),) + tuple((x, x) for x in fixed)
    return _make_access(mode, dims, crd[0], cpp, box, rows)


def im2col_w_load(tensor_map: Any = None, *, coords: Sequence[int], w_halo: int = 0, w_offset: int = 0,
                  global_dim: Sequence[int] | None = None,
                  pixel_box_lower_corner_width: int | None = None,
                  pixel_box_upper_corner_width: int | None = None,
                  pixel_box_lower_corner: Sequence[int] | None = None,
                  pixel_box_upper_corner: Sequence[int] | None = None,
                  channels_per_pixel: int | None = None, pixels_per_column: int | None = None,
                  element_strides: Sequence[int] | None = None, swizzle: Any = None,
                  interleave: Any = None) -> Im2colAccess:
    """The pixels an ``.im2col::w`` load reads: ``pixelsPerColumn`` along W, then ``wHalo`` halo.

    Pre: as :func:`im2col_load`, with a legal im2col::w swizzle and interleave NONE.
    Post: an Im2colAccess of the im2col::w rows.

    The box is ``[lowerW, dimW - 1 + upperW]`` in W, one pixel in H and D (at the coordinates'
    H, D). ``wOffset`` shifts box and start: all three ``+= wOffset`` (PTX 5.5.5.4). The first pixel
    may lie left of the box, never right. Main pixels step by ``elementStrides[1]``; past the box
    they wrap to its left end in the next image. The ``wHalo`` halo pixels continue W after the
    last main pixel (same image, same stride) and land right after the main rows ("next to the main
    row pixels"). Swizzle/interleave, when known, are checked by :func:`validate_im2col_w`.

    >>> acc = im2col_w_load(coords=(0, -1, 0, 0), w_halo=1, w_offset=0, global_dim=(64, 9, 1, 1),
    ...                     pixel_box_lower_corner_width=-1, pixel_box_upper_corner_width=0,
    ...                     channels_per_pixel=64, pixels_per_column=5, element_strides=(1, 2, 1, 1))
    >>> acc.w.tolist(), acc.in_bounds.tolist()
    ([-1, 1, 3, 5, 7, 9], [False, True, True, True, True, False])
    """
    return _w_access("im2col::w", tensor_map, coords, w_halo, w_offset, global_dim,
                     pixel_box_lower_corner_width, pixel_box_upper_corner_width, pixel_box_lower_corner,
                     pixel_box_upper_corner, channels_per_pixel, pixels_per_column, element_strides,
                     swizzle, interleave)


def im2col_w128_load(tensor_map: Any = None, *, coords: Sequence[int], w_halo: int = 0, w_offset: int = 0,
                     global_dim: Sequence[int] | None = None,
                     pixel_box_lower_corner_width: int | None = None,
                     pixel_box_upper_corner_width: int | None = None,
                     pixel_box_lower_corner: Sequence[int] | None = None,
                     pixel_box_upper_corner: Sequence[int] | None = None,
                     channels_per_pixel: int | None = None, pixels_per_column: int | None = None,
                     element_strides: Sequence[int] | None = None, swizzle: Any = None,
                     interleave: Any = None) -> Im2colAccess:
    """The pixels an ``.im2col::w::128`` load reads: 128 along W, ``wHalo`` halo after every 32.

    Pre: as :func:`im2col_w_load`.
    Post: an Im2colAccess of the im2col::w::128 rows.

    As :func:`im2col_w_load`, except that the pixel count is always 128 ("Pixels-per-Column is
    ignored", so ``pixels_per_column`` is accepted and ignored) and the halo follows each group of
    32 main pixels: group ``g`` fills rows ``g*(32+wHalo) ..``, its halo continuing W after the
    group's last pixel. 128 + 4 * wHalo rows in all.

    >>> acc = im2col_w128_load(coords=(0, 0, 0, 0), w_halo=2, global_dim=(64, 256, 1, 1),
    ...                        pixel_box_lower_corner_width=0, pixel_box_upper_corner_width=0,
    ...                        channels_per_pixel=64)
    >>> acc.num_rows, acc.w[acc.is_halo].tolist()
    (136, [32, 33, 64, 65, 96, 97, 128, 129])
    """
    return _w_access("im2col::w::128", tensor_map, coords, w_halo, w_offset, global_dim,
                     pixel_box_lower_corner_width, pixel_box_upper_corner_width, pixel_box_lower_corner,
                     pixel_box_upper_corner, channels_per_pixel, pixels_per_column, element_strides,
                     swizzle, interleave)


# --------------------------------------------------------------------------------------------
# interleave layouts (PTX 5.5.6)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class InterleaveInfo:
    """The facts of one interleaved tensor: slice geometry, padding, and its CuTe shape:stride.

    Coordinates are innermost first ``(c, w, [h, [d]], n)``. For the interleaved kinds the channel
    mode is split into ``(channels_per_slice, slices)`` (an integer ``c`` decomposes colexicographically
    into ``(c % channels_per_slice, c // channels_per_slice)``, CuTe's rule), so its size is the channel
    count padded up to whole slices. Strides are in bytes.

    >>> info = interleave_info("NC/8DHWC8", (12, 3, 2, 2, 1), 2)
    >>> print(info.layout)
    ((8,2),3,2,2,1):((2,192),16,48,96,384)
    >>> info.layout(9, 1, 0, 0, 0), info.channels, info.padded_channels, info.total_bytes
    (210, 12, 16, 384)
    """

    kind: str
    global_dim: tuple[int, ...]
    elem_bytes: int
    slice_bytes: int
    channels_per_slice: int
    slices: int
    shape: tuple
    stride: tuple

    def __post_init__(self) -> None:
        check_fields(self)

    @property
    def channels(self) -> int:
        """The tensor's channel count C (without padding)."""
        return self.global_dim[0]

    @property
    def padded_channels(self) -> int:
        """C rounded up to whole slices; channels ``C .. padded_channels - 1`` hold zeros."""
        return self.channels_per_slice * self.slices if self.kind != "NONE" else self.channels

    @property
    def total_bytes(self) -> int:
        """Bytes the whole tensor occupies, padding included (largest offset + one element)."""
        flat_shape = [x for m in self.shape for x in (m if isinstance(m, tuple) else (m,))]
        flat_stride = [x for m in self.stride for x in (m if isinstance(m, tuple) else (m,))]
        return sum((n - 1) * d for n, d in zip(flat_shape, flat_stride, strict=True)) + self.elem_bytes

    @property
    def layout(self) -> Layout:
        """The map as a :class:`pycute_layouts.core.layout.Layout`: element coordinate -> byte offset."""
        return Layout(self.shape, self.stride)

    def __str__(self) -> str:
        return f"{_cute(self.shape)}:{_cute(self.stride)}"


def _cute(t: Any) -> str:
    if isinstance(t, tuple):
        return "(" + ",".join(_cute(x) for x in t) + ")"
    return str(t)


def interleave_info(kind: Any, dims: Sequence[int], elem_bytes: int) -> InterleaveInfo:
    """Slice geometry, zero padding and the CuTe shape:stride of an interleaved tensor (PTX 5.5.6).

    Pre: ``kind`` names an interleave; ``dims`` are positive; ``elem_bytes`` is 1, 2, 4 or 8.
    Post: the slice geometry, padding and CuTe shape:stride.

    ``kind``: ``'NC/8DHWC8'`` / ``'16B'`` (16-byte channel slices), ``'NC/16HWC16'`` / ``'32B'``
    (32-byte slices) or ``'NONE'`` (plain NDHWC); the driver's names and enum values work too.
    ``dims`` is the driver's ``globalDim``, innermost first (C, W, [H, [D]], N). Memory order is
    N, C-slice, D, H, W, channel-in-slice; a slice holds ``slice_bytes // elem_bytes`` channels and
    "If the total number of channels is not a multiple of the number of channels per slice, then the
    last slice must be padded with zeros". "Interleaved layouts are supported only for the
    dimensionalities: 3D, 4D and 5D": other ranks raise TensorMapError. A slice that does not hold a
    whole number of elements raises UnitError.

    >>> info = interleave_info("NC/16HWC16", (20, 4, 2, 3), 2)
    >>> print(info)
    ((16,2),4,2,3):((2,256),32,128,512)
    >>> info.channels_per_slice, info.padded_channels, info.total_bytes
    (16, 32, 1536)
    """
    who = "interleave_layout"
    il = normalize_interleave(kind)
    dims_t = _ints(who, "dims", dims)
    if len(dims_t) not in (3, 4, 5):
        raise TensorMapError(
            f"{who}: 'Interleaved layouts are supported only for the dimensionalities: 3D, 4D and 5D'; "
            f"got rank {len(dims_t)}: {dims_t}"
        )
    for i, d in enumerate(dims_t):
        if d < 1:
            raise TensorMapError(f"{who}: dims[{i}] = {d} must be >= 1")
    eb = _int(who, "elem_bytes", elem_bytes)
    if eb < 1:
        raise UnitError(f"{who}: elem_bytes must be >= 1, got {eb}")
    c, spatial, n = dims_t[0], dims_t[1:-1], dims_t[-1]
    if il == "NONE":
        strides = [eb, c * eb]
        for s in spatial:
            strides.append(strides[-1] * s)
        return InterleaveInfo("NONE", dims_t, eb, 0, 0, 0, dims_t, tuple(strides))
    slice_bytes = 16 if il == "16B" else 32
    if slice_bytes % eb != 0:
        raise UnitError(
            f"{who}: a {slice_bytes}-byte channel slice does not hold a whole number of {eb}-byte elements"
        )
    cps = slice_bytes // eb
    nslices = -(-c // cps)
    pix_strides = [slice_bytes]
    for s in spatial[:-1]:
        pix_strides.append(pix_strides[-1] * s)
    image_bytes = slice_bytes * math.prod(spatial)  # one channel slice of one image, every pixel
    shape = ((cps, nslices), *spatial, n)
    stride = ((eb, image_bytes), *pix_strides, image_bytes * nslices)
    return InterleaveInfo(il, dims_t, eb, slice_bytes, cps, nslices, shape, stride)


def interleave_layout(kind: Any, dims: Sequence[int], elem_bytes: int) -> Layout:
    """The element -> byte offset :class:`~pycute_layouts.core.layout.Layout` of an interleaved tensor.

    Pre: as :func:`interleave_info`.
    Post: a Layout from logical element coordinates to byte offsets.

    Same arguments and rules as :func:`interleave_info` (which also reports the padding). The
    layout's coordinates are ``(c, w, [h, [d]], n)`` with ``c`` ranging over the padded channels.

    >>> lay = interleave_layout("NC/8DHWC8", (12, 3, 2, 2, 1), 2)
    >>> print(lay)
    ((8,2),3,2,2,1):((2,192),16,48,96,384)
    >>> lay(9, 1, 0, 0, 0)
    210
    """
    return interleave_info(kind, dims, elem_bytes).layout


def interleave_offsets(kind: Any, dims: Sequence[int], elem_bytes: int) -> np.ndarray:
    """Byte offsets of every logical element, as an array indexed ``[c, w, (h, (d,)) n]``.

    Pre: as :func:`interleave_info`.
    Post: an int array of byte offsets, indexed ``[c, w, (h, (d,)) n]``.

    Only the tensor's own C channels appear; padded channels own the remaining slice bytes.

    >>> off = interleave_offsets("NC/8DHWC8", (12, 3, 1), 2)
    >>> off.shape, int(off[0, 1, 0]), int(off[8, 0, 0])
    ((12, 3, 1), 16, 48)
    """
    info = interleave_info(kind, dims, elem_bytes)
    check_budget("interleave_offsets", f"dims {tuple(info.global_dim)}", math.prod(info.global_dim), MAX_EVAL_POINTS)
    grids = np.indices(info.global_dim, dtype=np.int64)
    if info.kind == "NONE":
        parts = list(grids)
        strides = list(info.stride)
    else:
        cps = info.channels_per_slice
        parts = [grids[0] % cps, grids[0] // cps, *grids[1:]]
        strides = [info.stride[0][0], info.stride[0][1], *info.stride[1:]]
    out = np.zeros(info.global_dim, dtype=np.int64)
    for p, s in zip(parts, strides, strict=True):
        out += p * s
    return out


def interleave_pack(values: np.ndarray, kind: Any, elem_bytes: int) -> np.ndarray:
    """The interleaved memory image of ``values`` (indexed ``[c, w, (h, (d,)) n]``), padding zeroed.

    Pre: ``values`` has the logical shape; ``kind``/``elem_bytes`` as :func:`interleave_info`.
    Post: the interleaved memory image (uint8), padding zeroed.

    Returns a flat array of ``total_bytes // elem_bytes`` elements (dtype of ``values``) in memory
    order; the padded channel slots are zero, as PTX 5.5.6 requires.

    >>> interleave_pack(np.arange(1, 4).reshape(3, 1, 1), "NC/8DHWC8", 2).tolist()
    [1, 2, 3, 0, 0, 0, 0, 0]
    """
    try:
        arr = np.asarray(values)
    except (TypeError, ValueError) as exc:
        raise TensorMapError(f"interleave_pack: values must be a 3-, 4- or 5-D array: {exc}") from None
    if arr.ndim not in (3, 4, 5):
        raise TensorMapError(
            "interleave_pack: 'Interleaved layouts are supported only for the dimensionalities: 3D, 4D "
            f"and 5D'; got an array of rank {arr.ndim}"
        )
    info = interleave_info(kind, arr.shape, elem_bytes)
    off = interleave_offsets(kind, arr.shape, elem_bytes) // info.elem_bytes
    image = np.zeros(info.total_bytes // info.elem_bytes, dtype=arr.dtype)
    image[off.reshape(-1)] = arr.reshape(-1)
    return image
