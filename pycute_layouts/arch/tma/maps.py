"""TMA tensor maps: the ``cuTensorMapEncode*`` parameter models and their validation against ``RULES``.

Sources: the CUDA driver API section "Tensor Map Object Management" (``cuTensorMapEncodeTiled``,
``cuTensorMapEncodeIm2col``, ``cuTensorMapEncodeIm2colWide``; reference ``002_*.txt``) and PTX ISA
5.5.5-5.5.7 (reference ``000_*.txt``). The swizzle field is a
:class:`pycute_layouts.arch.swizzle_modes.SwizzleMode`.

>>> m = TiledTensorMap(tensor_data_type="FLOAT16", global_dim=(64, 64), global_strides=(128,),
...                    box_dim=(64, 8), swizzle="128B")
>>> m.swizzle, m.violations()
(<SwizzleMode.B128: 3>, [])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from ...core.composed import ComposedLayout
from ...core.layout import Layout
from ...errors import TensorMapError
from ...limits import check_bool, fmt
from ..swizzle_modes import SwizzleMode
from .box import box_to_smem, elements_per_dim, swizzle_mode_info
from .enums import (
    ARCHS,
    IM2COL,
    IM2COL_WIDE,
    TILED,
    Direction,
    Im2colWideMode,
    Interleave,
    L2Promotion,
    OobFill,
    TensorDataType,
    check_int,
    check_int_seq,
    fmt_number,
)
from .rules import RULES, TensorMapViolation

__all__ = ["TiledTensorMap", "Im2colTensorMap", "Im2colWideTensorMap"]


# ---------------------------------------------------------------------------------------------
# Tensor maps
# ---------------------------------------------------------------------------------------------

_U6 = TensorDataType.U6x16_ALIGN16B
_U4A16 = TensorDataType.U4x16_ALIGN16B
_U4A8 = TensorDataType.U4x16_ALIGN8B

# Allowed swizzles for the packed ALIGN16B types: {dtype: {direction: allowed}}
_PACKED_SWIZZLES = {
    _U6: {
        "load": (SwizzleMode.NONE, SwizzleMode.B128, SwizzleMode.B128_BASE32B),
        "store": (SwizzleMode.NONE, SwizzleMode.B128, SwizzleMode.B128_BASE32B, SwizzleMode.B128_ATOM_64B),
    },
    _U4A16: {"load": (SwizzleMode.NONE, SwizzleMode.B128, SwizzleMode.B128_BASE32B), "store": ()},
}
_WIDE_SWIZZLES = (SwizzleMode.B64, SwizzleMode.B128, SwizzleMode.B128_BASE32B)
_WIDE_PACKED_SWIZZLES = {
    _U6: {
        "load": (SwizzleMode.B128, SwizzleMode.B128_BASE32B),
        "store": (SwizzleMode.B128, SwizzleMode.B128_BASE32B),
    },
    _U4A16: {"load": (SwizzleMode.B128, SwizzleMode.B128_BASE32B), "store": ()},
}
_CORNER_RANGE = {3: (-32768, 32767), 4: (-128, 127), 5: (-16, 15)}


def _names(modes: Sequence[SwizzleMode]) -> str:
    return ", ".join(m.tma_name for m in modes) if modes else "none"



def _padding_problems(dims: tuple, strides: tuple, size_bytes: Any) -> list[str]:
    """The driver's stride/dimension relation: ``globalStrides[0] = globalDim[0] * elementSize + padding[0]`` and
    ``globalStrides[i] = globalStrides[i - 1] * (globalDim[i] + padding[i])``, read as ``padding[i] >= 0``;
    one text per stride that breaks it."""
    problems = []
    row = dims[0] * size_bytes
    if strides[0] < row:
        problems.append(
            f"globalStrides[0]={strides[0]} < globalDim[0] * elementSize = {dims[0]} * "
            f"{fmt_number(size_bytes)} = {fmt_number(row)} (padding[0] < 0)"
        )
    for i in range(1, len(strides)):
        need = strides[i - 1] * dims[i]
        if strides[i] < need:
            problems.append(
                f"globalStrides[{i}]={strides[i]} < globalStrides[{i - 1}] * globalDim[{i}] = "
                f"{strides[i - 1]} * {dims[i]} = {need} (padding[{i}] < 0)"
            )
    return problems


def _bad(seq: Sequence[int], name: str, ok: Any) -> list[str]:
    return [f"{name}[{i}]={v}" for i, v in enumerate(seq) if not ok(v)]


class _Checker:
    def __init__(self, function: str) -> None:
        self.function = function
        self.found: list[TensorMapViolation] = []

    def add(self, rule_id: str, detail: str, statement: str | None = None) -> None:
        rule = RULES[rule_id]
        self.found.append(
            TensorMapViolation(rule_id, f"{self.function}: {statement or rule.statement}: {detail}")
        )


def _parse_direction(direction: Any, who: str) -> str:
    if not isinstance(direction, str) or direction not in ("load", "store"):
        raise TensorMapError(f"{who}: direction must be 'load' or 'store', got {fmt(direction)}")
    return direction


class _TensorMapBase:
    """Normalisation and the rules shared by the three encode functions."""

    _FUNCTION = ""

    def _normalise_common(self) -> None:
        fn = self._FUNCTION
        set_ = object.__setattr__
        set_(self, "tensor_data_type", TensorDataType.parse(self.tensor_data_type))
        set_(self, "interleave", Interleave.parse(self.interleave))
        set_(self, "swizzle", SwizzleMode.parse(self.swizzle))
        set_(self, "l2_promotion", L2Promotion.parse(self.l2_promotion))
        set_(self, "oob_fill", OobFill.parse(self.oob_fill))
        self._set_checked(check_int_seq, global_dim="globalDim", global_strides="globalStrides")
        if self.tensor_rank is None:
            set_(self, "tensor_rank", len(self.global_dim))
        set_(self, "tensor_rank", check_int(fn, "tensorRank", self.tensor_rank, 0, 2**32 - 1))
        set_(
            self,
            "global_address",
            check_int(fn, "globalAddress (a pointer)", self.global_address, 0, 2**64 - 1),
        )
        if self.element_strides is None:
            rank = self.tensor_rank  # one stride per dimension; past the maximum rank (5) one per globalDim entry
            set_(self, "element_strides", (1,) * (rank if rank <= 5 else len(self.global_dim)))
        self._set_checked(check_int_seq, element_strides="elementStrides")

    def _set_checked(self, check: Any, **params: str) -> None:
        """Each field ``attr="cuTensorMap name"`` replaced by ``check(encode function, name, value)``, in order.

        Pre:  ``check`` is check_int or check_int_seq.  Post: the fields hold the checked values; otherwise
        TensorMapError names the encode function and the parameter.
        """
        for attr, name in params.items():
            object.__setattr__(self, attr, check(self._FUNCTION, name, getattr(self, attr)))

    # -- shared rule groups ---------------------------------------------------------------
    def _check_rank_and_lengths(self, c: _Checker) -> None:
        rank = self.tensor_rank
        if self._FUNCTION == TILED:
            if not 1 <= rank <= 5:
                c.add("rank.tiled_range", f"tensorRank={rank}")
            if self.interleave is not Interleave.NONE and rank < 3:
                c.add("rank.interleave_min3", f"interleave={self.interleave.short_name}, tensorRank={rank}")
        elif rank not in (3, 4, 5):
            c.add("rank.im2col_range", f"tensorRank={rank}")
        if len(self.global_dim) != rank:
            c.add("length.global_dim", f"len(globalDim)={len(self.global_dim)}, tensorRank={rank}")
        if len(self.global_strides) != rank - 1:
            c.add(
                "length.global_strides",
                f"len(globalStrides)={len(self.global_strides)}, tensorRank - 1={rank - 1}",
            )
        if len(self.element_strides) != rank:
            c.add(
                "length.element_strides",
                f"len(elementStrides)={len(self.element_strides)}, tensorRank={rank}",
            )

    def _check_global(self, c: _Checker) -> None:
        dt = self.tensor_data_type
        addr = self.global_address
        if addr % 16:
            c.add("global_address.align16", f"globalAddress={addr:#x} (globalAddress % 16 = {addr % 16})")
        if self.interleave is Interleave.B32 and addr % 32:
            c.add(
                "global_address.align32_interleave32",
                f"globalAddress={addr:#x} (globalAddress % 32 = {addr % 32})",
            )
        if dt.is_packed_align16 and addr % 32:
            c.add(
                "global_address.align32_packed16",
                f"tensorDataType={dt.short_name}, globalAddress={addr:#x} (globalAddress % 32 = {addr % 32})",
            )
        dims = self.global_dim
        bad = _bad(dims, "globalDim", lambda v: 1 <= v <= 2**32)
        if bad:
            c.add("global_dim.range", ", ".join(bad))
        if dims and dt.is_packed_align16 and dims[0] % 128:
            c.add(
                "global_dim.packed16_multiple128", f"tensorDataType={dt.short_name}, globalDim[0]={dims[0]}"
            )
        if dims and dt is _U4A8 and dims[0] % 2:
            c.add("global_dim.u4align8_multiple2", f"tensorDataType={dt.short_name}, globalDim[0]={dims[0]}")
        strides = self.global_strides
        bad = _bad(strides, "globalStrides", lambda v: v % 16 == 0)
        if bad:
            c.add("global_strides.multiple16", ", ".join(bad))
        bad = _bad(strides, "globalStrides", lambda v: 0 <= v < 2**40)
        if bad:
            c.add("global_strides.range", ", ".join(bad) + " (limit 2^40 = 1099511627776)")
        if self.interleave is Interleave.B32:
            bad = _bad(strides, "globalStrides", lambda v: v % 32 == 0)
            if bad:
                c.add("global_strides.multiple32_interleave32", ", ".join(bad))
        if dt.is_packed_align16:
            bad = _bad(strides, "globalStrides", lambda v: v % 32 == 0)
            if bad:
                c.add(
                    "global_strides.multiple32_packed16", f"tensorDataType={dt.short_name}, " + ", ".join(bad)
                )
        if strides and len(dims) == len(strides) + 1:
            problems = _padding_problems(dims, strides, dt.size_bytes)
            if problems:
                rule = "global_strides.packed16_padding" if dt.is_packed_align16 else "global_strides.padding"
                c.add(rule, f"tensorDataType={dt.short_name}, " + "; ".join(problems))

    def _check_element_strides(self, c: _Checker) -> None:
        bad = _bad(self.element_strides, "elementStrides", lambda v: 1 <= v <= 8)
        if bad:
            c.add("element_strides.range", ", ".join(bad))

    def _check_inner_span(self, c: _Checker, label: str, count: int | None) -> None:
        if count is None or self.interleave is not Interleave.NONE:
            return
        info = swizzle_mode_info(self.swizzle)
        if info.span_bytes is None:
            return
        size = self.tensor_data_type.size_bytes
        inner = count * size
        if inner > info.span_bytes:
            c.add(
                "swizzle.inner_box_span",
                f"{label}={count}, elementSize={fmt_number(size)} -> {fmt_number(inner)} bytes > {info.span_bytes} "
                f"(swizzle {info.mode.tma_name})",
                statement=f"the bounding box inner dimension ({label} * elementSize) must be <= the "
                "swizzle span when interleave is NONE",
            )

    def _check_types_and_modes(self, c: _Checker, direction: str) -> None:
        dt, il, sw = self.tensor_data_type, self.interleave, self.swizzle
        wide = self._FUNCTION == IM2COL_WIDE
        if dt is _U6 and il is not Interleave.NONE:
            c.add(
                "interleave.u6_requires_none", f"tensorDataType={dt.short_name}, interleave={il.short_name}"
            )
        if wide and il is not Interleave.NONE:
            c.add("interleave.wide_none", f"interleave={il.short_name}")
        if not wide and il is Interleave.B32 and sw is not SwizzleMode.B32:
            c.add("swizzle.interleave32_requires_32B", f"interleave=32B, swizzle={sw.tma_name}")
        if wide:
            if sw not in _WIDE_SWIZZLES:
                c.add("swizzle.wide_allowed", f"swizzle={sw.tma_name}")
            if dt in _WIDE_PACKED_SWIZZLES and sw not in _WIDE_PACKED_SWIZZLES[dt][direction]:
                rid = "swizzle.wide_u6_allowed" if dt is _U6 else "swizzle.wide_u4align16_allowed"
                c.add(
                    rid,
                    f"tensorDataType={dt.short_name}, swizzle={sw.tma_name}, direction={direction} "
                    f"(allowed for {direction}: {_names(_WIDE_PACKED_SWIZZLES[dt][direction])})",
                )
        else:
            if dt in _PACKED_SWIZZLES and sw not in _PACKED_SWIZZLES[dt][direction]:
                rid = "swizzle.u6_allowed" if dt is _U6 else "swizzle.u4align16_allowed"
                c.add(
                    rid,
                    f"tensorDataType={dt.short_name}, swizzle={sw.tma_name}, direction={direction} "
                    f"(allowed for {direction}: {_names(_PACKED_SWIZZLES[dt][direction])})",
                )
            if sw is SwizzleMode.B128_ATOM_32B_FLIP_8B and direction == "store":
                c.add("swizzle.flip8b_load_only", f"swizzle={sw.tma_name}, direction=store")
        if sw is SwizzleMode.B96:
            c.add("swizzle.b96_not_encodable", f"swizzle={sw.tma_name} (PTX-only)")
        if self.oob_fill is OobFill.NAN_REQUEST_ZERO_FMA and (not dt.is_float or dt.is_packed):
            c.add("oob_fill.float_only", f"oobFill=NAN_REQUEST_ZERO_FMA, tensorDataType={dt.short_name}")

    def _check_channels_pixels(self, c: _Checker, check_pixels: bool) -> None:
        cpp = self.channels_per_pixel
        if not 1 <= cpp <= 256:
            c.add("channels_per_pixel.range", f"channelsPerPixel={cpp}")
        if self.tensor_data_type.is_packed_align16 and cpp != 128:
            c.add(
                "channels_per_pixel.packed16_is128",
                f"tensorDataType={self.tensor_data_type.short_name}, channelsPerPixel={cpp}",
            )
        if check_pixels and not 1 <= self.pixels_per_column <= 1024:
            c.add("pixels_per_column.range", f"pixelsPerColumn={self.pixels_per_column}")

    def _specific(self, c: _Checker, direction: str) -> None:  # pragma: no cover - overridden
        """Rules of one cuTensorMapEncode* function; the shared base class has none of its own."""

    # -- public ---------------------------------------------------------------------------
    def violations(self, direction: Direction = "load", *, arch: str | None = None) -> list[TensorMapViolation]:
        """Every documented rule this parameter set violates (empty when the driver would accept it).

        Pre: ``direction`` is "load" or "store"; ``arch`` is None or one of ARCHS.
        Post: every violated rule, in table order (empty when the map is valid).

        ``direction`` ("load": global -> shared, "store": shared -> global) matters for the
        packed types' swizzle lists and for 128B_ATOM_32B_FLIP_8B. ``arch`` ("sm90" or "sm100")
        adds the rules of that architecture's driver (``arch.*``: the 128B_ATOM swizzle modes, the
        ALIGN16B packed types and im2col-wide need sm100); None checks the documented rules only.

        >>> TiledTensorMap(tensor_data_type="FLOAT16", global_dim=(64, 64), global_strides=(128,),
        ...                box_dim=(12, 8), swizzle="NONE").violations()[0].rule
        'box_dim.inner_bytes_multiple16'
        """
        d = _parse_direction(direction, f"{self._FUNCTION}.violations")
        c = _Checker(self._FUNCTION)
        self._specific(c, d)
        if arch is not None:
            if not isinstance(arch, str) or arch not in ARCHS:
                raise TensorMapError(f"{self._FUNCTION}: arch must be one of {', '.join(ARCHS)} or None, got {fmt(arch)}")
            if arch == "sm90":
                self._check_sm90(c)
        return c.found

    def _check_sm90(self, c: _Checker) -> None:
        if self.swizzle.min_arch != "sm90":
            c.add("arch.swizzle_sm100", f"swizzle={self.swizzle.tma_name}, arch=sm90")
        if self.tensor_data_type.min_arch != "sm90":
            c.add("arch.data_type_sm100", f"tensorDataType={self.tensor_data_type.name}, arch=sm90")
        if self._FUNCTION == IM2COL_WIDE:
            c.add("arch.im2col_wide_sm100", "arch=sm90")

    def validate(self, direction: Direction = "load", *, collect_all: bool = False,
                 arch: str | None = None) -> _TensorMapBase:
        """Return self if no rule is violated, else raise TensorMapError naming the first (or every) one.

        Pre: as :meth:`violations`.
        Post: returns self for a valid map; else raises TensorMapError with ``rule`` and ``violations``.

        ``arch`` as in :meth:`violations` (``"sm90"`` also applies the sm90 driver's extra rejections,
        docs/hardware-validation.md).

        The exception carries ``violations`` (the full list) and ``rule`` (the first rule id).

        >>> m = TiledTensorMap(tensor_data_type="FLOAT16", global_dim=(64, 64), global_strides=(128,),
        ...                    box_dim=(12, 8), swizzle="NONE")
        >>> try:
        ...     m.validate()
        ... except TensorMapError as e:
        ...     print(e.rule); print(e)
        box_dim.inner_bytes_multiple16
        cuTensorMapEncodeTiled: boxDim[0] * elementSize must be a multiple of 16 bytes when interleave is
        NONE: boxDim[0]=12, elementSize=2 -> 24 bytes
        """
        check_bool(f"{self._FUNCTION}.validate", "collect_all", collect_all, TensorMapError)
        found = self.violations(direction, arch=arch)
        if not found:
            return self
        if collect_all and len(found) > 1:
            msg = f"{len(found)} violated rules:\n" + "\n".join(f"  [{v.rule}] {v.message}" for v in found)
        else:
            msg = found[0].message
        err = TensorMapError(msg)
        err.violations = tuple(found)  # type: ignore[attr-defined]
        err.rule = found[0].rule  # type: ignore[attr-defined]
        raise err


@dataclass(frozen=True, kw_only=True)
class TiledTensorMap(_TensorMapBase):
    """The parameters of ``cuTensorMapEncodeTiled`` (the driver's names in snake_case).

    Enum fields take anything their ``parse`` accepts; ``tensor_rank`` defaults to
    ``len(global_dim)`` and ``element_strides`` to all ones. Construction parses and type-checks;
    :meth:`violations` / :meth:`validate` check every documented value rule.

    >>> m = TiledTensorMap(tensor_data_type="BFLOAT16", global_dim=(4096, 4096), global_strides=(8192,),
    ...                    box_dim=(64, 128), swizzle="128B")
    >>> m.violations(), m.swizzle, m.elements_per_dim()
    ([], <SwizzleMode.B128: 3>, (64, 128))
    """

    _FUNCTION = TILED

    tensor_data_type: Any
    global_dim: Sequence[int]
    global_strides: Sequence[int]
    box_dim: Sequence[int]
    tensor_rank: int | None = None
    global_address: int = 0
    element_strides: Sequence[int] | None = None
    interleave: Any = Interleave.NONE
    swizzle: Any = SwizzleMode.NONE
    l2_promotion: Any = L2Promotion.NONE
    oob_fill: Any = OobFill.NONE

    def __post_init__(self) -> None:
        self._normalise_common()
        self._set_checked(check_int_seq, box_dim="boxDim")

    def _specific(self, c: _Checker, direction: str) -> None:
        self._check_rank_and_lengths(c)
        if len(self.box_dim) != self.tensor_rank:
            c.add("length.box_dim", f"len(boxDim)={len(self.box_dim)}, tensorRank={self.tensor_rank}")
        self._check_global(c)
        dt = self.tensor_data_type
        bad = _bad(self.box_dim, "boxDim", lambda v: 1 <= v <= 256)
        if bad:
            c.add("box_dim.range", ", ".join(bad))
        inner = self.box_dim[0] if self.box_dim else None
        if inner is not None and self.interleave is Interleave.NONE:
            nbytes = inner * dt.size_bytes
            if nbytes % 16:
                c.add(
                    "box_dim.inner_bytes_multiple16",
                    f"boxDim[0]={inner}, elementSize={fmt_number(dt.size_bytes)} -> {fmt_number(nbytes)} bytes",
                )
        if inner is not None and dt.is_packed_align16 and inner != 128:
            c.add("box_dim.packed16_is128", f"tensorDataType={dt.short_name}, boxDim[0]={inner}")
        self._check_element_strides(c)
        self._check_inner_span(c, "boxDim[0]", inner)
        self._check_types_and_modes(c, direction)

    def elements_per_dim(self) -> tuple[int, ...]:
        """Elements loaded per dimension: ``ceil(boxDim[i] / elementStrides[i])`` (dimension 0 unstrided
        when interleave is NONE).

        Pre: the map was parsed at construction.
        Post: one count per dimension, innermost first.

        >>> TiledTensorMap(tensor_data_type="FLOAT32", global_dim=(64, 64, 8), global_strides=(256, 16384),
        ...                box_dim=(32, 16, 6), element_strides=(1, 2, 4)).elements_per_dim()
        (32, 8, 2)
        """
        return elements_per_dim(self.box_dim, self.element_strides, self.interleave)

    def smem_layout(self, dst_address: int = 0, direction: Direction = "load") -> np.ndarray:
        """Shared-memory byte offset of every byte of the box, via :func:`box_to_smem`.

        Pre: the map is valid for ``direction``; ``dst_address`` is 128-byte aligned.
        Post: as :func:`box_to_smem` for the elements loaded.

        Validates first. The shape is ``(n[-1], ..., n[1], n[0] * smem element bytes)`` with ``n``
        the elements loaded per dimension; the ``*_ALIGN16B`` packed types occupy one byte per value
        in shared memory (16 values per 16 bytes, per the driver's description of the gaps).

        >>> m = TiledTensorMap(tensor_data_type="FLOAT16", global_dim=(64, 64), global_strides=(128,),
        ...                    box_dim=(64, 8), swizzle="128B")
        >>> m.smem_layout()[1, ::16].tolist()
        [144, 128, 176, 160, 208, 192, 240, 224]
        """
        self.validate(direction)
        eb = Fraction(self.tensor_data_type.smem_bits, 8)
        return box_to_smem(self.swizzle, eb, self.elements_per_dim(), dst_address)

    def smem_byte_layout(self, dst_address: int = 0, direction: Direction = "load") -> Any:
        """The placement as a CuTe byte layout ``swizzle o dst o (row_bytes,n1,...):(1,row_bytes,...)``.

        Pre: as :meth:`smem_layout`.
        Post: a ComposedLayout whose values minus ``dst_address`` are ``smem_layout(dst_address).ravel()``.

        Coordinates are (byte in the innermost row, index along dimension 1, ...); the value is the
        ABSOLUTE shared-memory byte address. ``layout.to_numpy() - dst_address`` equals
        ``smem_layout(dst_address).ravel()``. Validates first.

        >>> m = TiledTensorMap(tensor_data_type="FLOAT16", global_dim=(64, 64), global_strides=(128,),
        ...                    box_dim=(64, 8), swizzle="128B")
        >>> L = m.smem_byte_layout()
        >>> print(L)
        Sw<3,4,3> o 0 o (128,8):(1,128)
        >>> L(0, 1), L(16, 1)
        (144, 128)
        """
        placed = self.smem_layout(dst_address, direction)  # validates dst_address and the span
        dims = placed.shape[::-1]
        strides = [1]
        for d in dims[:-1]:
            strides.append(strides[-1] * d)
        inner = Layout(tuple(dims), tuple(strides)) if len(dims) > 1 else Layout(dims[0], 1)
        return ComposedLayout(self.swizzle.byte_map, int(dst_address), inner)


@dataclass(frozen=True, kw_only=True)
class Im2colTensorMap(_TensorMapBase):
    """The parameters of ``cuTensorMapEncodeIm2col``.

    ``pixel_box_lower_corner`` / ``pixel_box_upper_corner`` have ``tensor_rank - 2`` entries, in the
    order of ``global_dim[1:-1]`` (W, H, D for an NDHWC tensor, innermost first: the order CUTLASS
    passes them in). The box along spatial dimension i spans
    ``global_dim[i+1] + upper[i] - lower[i]`` positions.

    >>> m = Im2colTensorMap(tensor_data_type="FLOAT16", global_dim=(64, 9, 9, 2),
    ...                     global_strides=(128, 1152, 10368), pixel_box_lower_corner=(-1, -1),
    ...                     pixel_box_upper_corner=(-1, -1), channels_per_pixel=64, pixels_per_column=128,
    ...                     swizzle="128B")
    >>> m.violations()
    []
    """

    _FUNCTION = IM2COL

    tensor_data_type: Any
    global_dim: Sequence[int]
    global_strides: Sequence[int]
    pixel_box_lower_corner: Sequence[int]
    pixel_box_upper_corner: Sequence[int]
    channels_per_pixel: int
    pixels_per_column: int
    tensor_rank: int | None = None
    global_address: int = 0
    element_strides: Sequence[int] | None = None
    interleave: Any = Interleave.NONE
    swizzle: Any = SwizzleMode.NONE
    l2_promotion: Any = L2Promotion.NONE
    oob_fill: Any = OobFill.NONE

    def __post_init__(self) -> None:
        self._normalise_common()
        self._set_checked(check_int_seq, pixel_box_lower_corner="pixelBoxLowerCorner",
                          pixel_box_upper_corner="pixelBoxUpperCorner")
        self._set_checked(check_int, channels_per_pixel="channelsPerPixel", pixels_per_column="pixelsPerColumn")

    def _specific(self, c: _Checker, direction: str) -> None:
        self._check_rank_and_lengths(c)
        rank = self.tensor_rank
        lo, up = self.pixel_box_lower_corner, self.pixel_box_upper_corner
        corners_ok = rank in _CORNER_RANGE and len(lo) == rank - 2 and len(up) == rank - 2
        if rank in _CORNER_RANGE and not corners_ok:
            c.add(
                "length.pixel_box_corners",
                f"len(pixelBoxLowerCorner)={len(lo)}, len(pixelBoxUpperCorner)={len(up)}, tensorRank - "
                f"2={rank - 2}",
            )
        self._check_global(c)
        if rank in _CORNER_RANGE:
            a, b = _CORNER_RANGE[rank]
            bad = _bad(lo, "pixelBoxLowerCorner", lambda v: a <= v <= b) + _bad(
                up, "pixelBoxUpperCorner", lambda v: a <= v <= b
            )
            if bad:
                c.add("pixel_box.range", f"tensorRank={rank} allows [{a}, {b}]: " + ", ".join(bad))
        if corners_ok and len(self.global_dim) == rank:
            extents = [self.global_dim[i + 1] + up[i] - lo[i] for i in range(rank - 2)]
            if any(e <= 0 for e in extents):
                parts = [
                    f"globalDim[{i + 1}] + upper[{i}] - lower[{i}] = {self.global_dim[i + 1]} + {up[i]} - "
                    f"{lo[i]} = {e}"
                    for i, e in enumerate(extents)
                ]
                c.add("pixel_box.nonzero_area", "; ".join(parts))
        self._check_channels_pixels(c, check_pixels=True)
        self._check_element_strides(c)
        self._check_inner_span(c, "channelsPerPixel", self.channels_per_pixel)
        self._check_types_and_modes(c, direction)


@dataclass(frozen=True, kw_only=True)
class Im2colWideTensorMap(_TensorMapBase):
    """The parameters of ``cuTensorMapEncodeIm2colWide`` (sm_100+): im2col along W only.

    The box along W spans ``global_dim[1] + pixel_box_upper_corner_width - pixel_box_lower_corner_width``
    positions (D and H extents are 1). ``pixels_per_column`` is ignored in mode W128.

    >>> m = Im2colWideTensorMap(tensor_data_type="FLOAT16", global_dim=(128, 9, 7, 64),
    ...                         global_strides=(256, 2304, 16128), pixel_box_lower_corner_width=0,
    ...                         pixel_box_upper_corner_width=0, channels_per_pixel=64, pixels_per_column=128,
    ...                         mode="W", swizzle="128B")
    >>> m.violations()
    []
    """

    _FUNCTION = IM2COL_WIDE

    tensor_data_type: Any
    global_dim: Sequence[int]
    global_strides: Sequence[int]
    pixel_box_lower_corner_width: int
    pixel_box_upper_corner_width: int
    channels_per_pixel: int
    pixels_per_column: int
    mode: Any = Im2colWideMode.W
    tensor_rank: int | None = None
    global_address: int = 0
    element_strides: Sequence[int] | None = None
    interleave: Any = Interleave.NONE
    swizzle: Any = SwizzleMode.B128
    l2_promotion: Any = L2Promotion.NONE
    oob_fill: Any = OobFill.NONE

    def __post_init__(self) -> None:
        self._normalise_common()
        object.__setattr__(self, "mode", Im2colWideMode.parse(self.mode))
        self._set_checked(check_int, pixel_box_lower_corner_width="pixelBoxLowerCornerWidth",
                          pixel_box_upper_corner_width="pixelBoxUpperCornerWidth",
                          channels_per_pixel="channelsPerPixel", pixels_per_column="pixelsPerColumn")

    def _specific(self, c: _Checker, direction: str) -> None:
        self._check_rank_and_lengths(c)
        self._check_global(c)
        lo, up = self.pixel_box_lower_corner_width, self.pixel_box_upper_corner_width
        bad = [
            f"{n}={v}"
            for n, v in (("pixelBoxLowerCornerWidth", lo), ("pixelBoxUpperCornerWidth", up))
            if not -32768 <= v <= 32767
        ]
        if bad:
            c.add("pixel_box_width.range", ", ".join(bad))
        if len(self.global_dim) >= 2:
            w = self.global_dim[1] + up - lo
            if w <= 0:
                c.add(
                    "pixel_box_width.nonzero_area",
                    f"globalDim[1] + upper - lower = {self.global_dim[1]} + {up} - {lo} = {w}",
                )
        self._check_channels_pixels(c, check_pixels=self.mode is Im2colWideMode.W)
        self._check_element_strides(c)
        self._check_inner_span(c, "channelsPerPixel", self.channels_per_pixel)
        self._check_types_and_modes(c, direction)
