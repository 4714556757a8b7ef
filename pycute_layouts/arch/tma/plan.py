"""The reverse direction of TMA: from a shared-memory tile layout to a tensor map and its copies.

:mod:`pycute_layouts.arch.tma` answers "given a tensor map, where does every byte land?". This
module answers the question a kernel author starts from: "my shared-memory tile has this
(swizzled) layout; which ``cuTensorMapEncodeTiled`` parameters and how many
``cp.async.bulk.tensor`` copies produce it?" -- or, when none do, exactly why not.

The construction follows CuTe's ``make_tma_copy`` (``cute/atom/copy_traits_sm90_tma.hpp``,
``construct_tma_gbasis`` and ``make_tma_copy_desc``), restated on explicit arrays:

1. **Units.** The smem layout maps tile coordinates to *element* offsets; its swizzle acts on
   absolute shared-memory *byte* addresses (as TMA writes and as wgmma reads). The swizzle must be
   the byte map of a TMA mode (``Sw<3,4,3>`` is 128B, ``Sw<2,5,2>`` 128B_ATOM_32B, ...). CuTe:
   ``get_swizzle_portion`` / ``get_tma_swizzle_bits``.
2. **The smem vector.** Walk the tile in increasing element offset (CuTe: the ``right_inverse`` of
   the non-swizzle portion) and record which global coordinate each offset holds. The tile's
   coordinates are the global tensor's coordinates, mode by mode (coordinate ``c`` of mode ``j``
   is global coordinate ``c`` of mode ``j`` counted from the tile's origin); each global mode is
   coalesced into its sub-modes first.
3. **The box.** The longest prefix of the smem vector that is a dense, mixed-radix walk in which
   every mode is one *unit* step along one global sub-mode (CuTe truncates ``sidx2gmode`` at the
   first stride that is not a unit basis ``E<j>``). Its modes, innermost first, are the TMA box
   dimensions. The first one must run along the global stride-1 dimension: the tensor map's
   dimension 0 has an implicit stride of one element (CuTe: "Majorness of smem doesn't match
   majorness of gmem").
4. **The tensor map.** TMA dimension ``i`` is the global sub-mode of box mode ``i``; the global
   sub-modes the box does not cover follow with box size 1 (CuTe appends the "remaining" bases).
   ``globalDim`` and ``globalStrides`` (bytes) come from the global layout; ``elementStrides`` are
   1, interleave NONE. The result must pass every rule of :meth:`TiledTensorMap.validate`.
5. **The copies.** The tile must be a dense packing of copies of that box: cutting the smem
   vector into blocks of ``prod(boxDim)`` elements, every block must be contiguous in shared
   memory and hold exactly the box at some global coordinate. Each block is one copy: TMA
   coordinates (relative to the tile's origin) and a shared-memory byte offset (relative to the
   tile's element offset 0), whose address must meet the swizzle mode's alignment.

Because TMA applies the swizzle to the absolute destination address of the dense box, a tile
whose un-swizzled element layout is a dense packing of boxes is reproduced exactly: byte
``f(base + offset * element_bytes)`` on both sides. :meth:`TmaLoadPlan.smem_byte_addresses`
recomputes every element's address from the tensor map alone (through :func:`box_to_smem`),
and :meth:`TmaLoadPlan.smem_layout` returns it as a :class:`SwizzledSmemLayout`.

>>> from pycute_layouts import parse
>>> plan = plan_tma_load(parse("Sw<3,3,3> o 0 o ((8,16),(64,2)):((64,512),(1,8192))"),
...                      parse("(4096,4096):(4096,1)"), 16, data_type="BFLOAT16")
>>> plan.box_dim, plan.swizzle.tma_name, plan.num_copies, [c.coords for c in plan.copies]
((64, 128), '128B', 2, [(0, 0), (64, 0)])
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...core import inttuple as it
from ...core.composed import ComposedLayout, SwizzledSmemLayout, check_swizzle_unit, element_unit_note, smem_layout_of
from ...core.layout import Layout, require_offsets
from ...core.notation import parse
from ...core.swizzle import Swizzle, XorSwizzle
from ...errors import LayoutError, TensorMapError
from ...limits import check_fields, fmt
from ..swizzle_modes import SwizzleMode, xor_pairs
from .box import MAX_BOX_BYTES, swizzle_mode_info
from .enums import TensorDataType
from .maps import TiledTensorMap

__all__ = ["TmaCopy", "TmaLoadPlan", "plan_tma_load", "parse_data_type", "PLAN_RULES", "DTYPE_ALIASES"]

#: The reasons the planner itself can give (rule id -> statement); the derived tensor map's own
#: violations carry the ids of :data:`pycute_layouts.arch.tma.RULES`.
PLAN_RULES: dict[str, str] = {
    "plan.input": "the smem layout, global layout and element width must be well-formed, integral and of "
                  "whole-byte TMA element sizes (8, 16, 32 or 64 bits)",
    "plan.rank_mismatch": "the smem tile and the global tensor must have the same number of top-level modes "
                          "(tile coordinate mode j is global coordinate mode j)",
    "plan.swizzle_not_tma": "the smem swizzle must be the byte-address map of a TMA swizzle mode",
    "plan.smem_not_injective": "every tile element needs its own shared-memory element offset",
    "plan.inner_not_contiguous": "the smem inner (contiguous) dimension must be the global stride-1 dimension: "
                                 "TMA box dimension 0 has an implicit global stride of one element",
    "plan.not_dense_packing": "the smem layout must be a dense packing of copies of one box",
    "plan.tma_rank": "a tiled tensor map has at most 5 dimensions",
    "plan.copy_alignment": "each copy's shared-memory destination must meet the swizzle mode's alignment",
    "plan.tensor_map_rules": "the derived cuTensorMapEncodeTiled parameters must pass validate()",
}

#: Short data-type names accepted by :func:`parse_data_type` (besides the driver's names).
#: TMA has no 8-bit float or signed 8/16-bit types: they travel as UINT8 / UINT16 (as CUTLASS does).
DTYPE_ALIASES: dict[str, str] = {
    "bf16": "BFLOAT16", "bfloat16": "BFLOAT16",
    "f16": "FLOAT16", "fp16": "FLOAT16", "half": "FLOAT16", "float16": "FLOAT16",
    "f32": "FLOAT32", "fp32": "FLOAT32", "float": "FLOAT32", "float32": "FLOAT32",
    "tf32": "TFLOAT32",
    "f64": "FLOAT64", "fp64": "FLOAT64", "double": "FLOAT64", "float64": "FLOAT64",
    "fp8": "UINT8", "e4m3": "UINT8", "e5m2": "UINT8", "f8": "UINT8",
    "u8": "UINT8", "s8": "UINT8", "i8": "UINT8", "int8": "UINT8", "uint8": "UINT8",
    "u16": "UINT16", "s16": "UINT16", "i16": "UINT16", "int16": "UINT16", "uint16": "UINT16",
    "u32": "UINT32", "uint32": "UINT32", "s32": "INT32", "i32": "INT32", "int32": "INT32",
    "u64": "UINT64", "uint64": "UINT64", "s64": "INT64", "i64": "INT64", "int64": "INT64",
    # sm100 narrow types, as codegen names them: packed e2m1 (kind::mxf4), the 16-byte padded forms (kind::f8f6f4)
    "e2m1": "U4x16_ALIGN8B", "fp4": "U4x16_ALIGN8B", "e2m1_p64": "U4x16_ALIGN16B",
    "e2m3": "U6x16_ALIGN16B", "e3m2": "U6x16_ALIGN16B", "fp6_e2m3": "U6x16_ALIGN16B", "fp6_e3m2": "U6x16_ALIGN16B",
}

_DEFAULT_DTYPE = {8: "UINT8", 16: "UINT16", 32: "UINT32", 64: "UINT64"}
_MAX_TMA_RANK = 5
_WHO = "plan_tma_load"


def _err(rule: str, msg: str, **extra: Any) -> TensorMapError:
    e = TensorMapError(f"{_WHO}: {PLAN_RULES[rule] if rule != 'plan.input' else 'bad input'}: {msg}")
    e.rule = rule  # type: ignore[attr-defined]
    for k, v in extra.items():
        setattr(e, k, v)
    return e


def parse_data_type(value: Any) -> TensorDataType:
    """A ``CUtensorMapDataType`` from a short name ("bf16", "fp8", "tf32", "u8", ...) or anything
    :meth:`TensorDataType.parse` takes.

    Pre: ``value`` is a TensorDataType spelling or a short alias ("bf16", "f32", ...).
    Post: the TensorDataType; TensorMapError otherwise.

    8-bit floats and signed 8/16-bit integers have no TMA type; they map to UINT8 / UINT16. The sm100
    narrow types map to the packed-type members: e2m1 to 16U4_ALIGN8B, e2m1_p64 to 16U4_ALIGN16B,
    e2m3 and e3m2 to 16U6_ALIGN16B.

    >>> parse_data_type("bf16"), parse_data_type("e4m3"), parse_data_type("CU_TENSOR_MAP_DATA_TYPE_TFLOAT32")
    (<TensorDataType.BFLOAT16: 9>, <TensorDataType.UINT8: 0>, <TensorDataType.TFLOAT32: 11>)
    """
    if isinstance(value, str) and value.strip().lower() in DTYPE_ALIASES:
        return TensorDataType[DTYPE_ALIASES[value.strip().lower()]]
    try:
        return TensorDataType.parse(value)
    except TensorMapError as e:
        raise TensorMapError(f"{e} (short names: {', '.join(sorted(DTYPE_ALIASES))})") from None


@dataclass(frozen=True)
class TmaCopy:
    """One ``cp.async.bulk.tensor`` of a plan.

    ``coords``: the TMA coordinates of the box origin, one per tensor-map dimension (innermost
    first), relative to the tile's origin in the global tensor (add the tile's own coordinates).
    ``smem_offset_bytes``: the destination, in bytes from the address of the tile's element offset 0.

    >>> TmaCopy((64, 0), 16384).smem_offset_bytes
    16384
    """

    coords: tuple[int, ...]
    smem_offset_bytes: int

    def __post_init__(self) -> None:
        check_fields(self)


@dataclass(frozen=True)
class TmaLoadPlan:
    """A tensor map and the copies that fill a shared-memory tile (the result of :func:`plan_tma_load`).

    - ``tensor_map``: the :class:`TiledTensorMap` (``global_address`` as passed, usually 0).
    - ``copies``: one :class:`TmaCopy` per ``cp.async.bulk.tensor``, in shared-memory order.
    - ``tma_modes``: for each tensor-map dimension, ``(global mode, sub-mode)`` it walks, in the
      global layout coalesced mode by mode (``global_submodes`` lists ``(size, stride)`` per mode).
    - ``tile_shape``: the smem layout's shape; ``element_bits``; ``base_address``: the byte address
      of the tile's element offset 0 (its swizzle acts on absolute addresses).
    - ``box_notes``: one sentence per box dimension saying where it came from, and why the box ends.

    >>> from pycute_layouts import parse
    >>> p = plan_tma_load(parse("Sw<3,3,3> o 0 o (8,64):(64,1)"), parse("(64,64):(64,1)"), 16)
    >>> p.tensor_map.global_strides, p.bytes_per_copy, p.smem_layout().layout
    ((128,), 1024, Layout('(8,64):(64,1)'))
    """

    tensor_map: TiledTensorMap
    copies: tuple[TmaCopy, ...]
    tma_modes: tuple[tuple[int, int], ...]
    global_submodes: tuple[tuple[tuple[int, int], ...], ...]
    tile_shape: Any
    element_bits: int
    base_address: int
    box_notes: tuple[str, ...]

    def __post_init__(self) -> None:
        check_fields(self)

    @property
    def box_dim(self) -> tuple[int, ...]:
        """``boxDim`` of the tensor map, innermost first.

        >>> from pycute_layouts import Layout
        >>> plan_tma_load(Layout((64, 8), (1, 64)), Layout((64, 8), (1, 64)), 16).box_dim
        (64, 8)
        """
        return tuple(self.tensor_map.box_dim)

    @property
    def swizzle(self) -> SwizzleMode:
        """The ``CUtensorMapSwizzle`` of the tensor map.

        >>> from pycute_layouts import Layout
        >>> plan_tma_load(Layout((64, 8), (1, 64)), Layout((64, 8), (1, 64)), 16).swizzle
        <SwizzleMode.INTERLEAVE: 0>
        """
        return self.tensor_map.swizzle

    @property
    def num_copies(self) -> int:
        """How many TMA copies fill the tile.

        >>> from pycute_layouts import Layout
        >>> plan_tma_load(Layout((8, 16), (1, 8)), Layout((8, 16), (1, 8)), 16).num_copies
        1
        """
        return len(self.copies)

    @property
    def element_bytes(self) -> int:
        """Bytes per element (``element_bits // 8``).

        >>> from pycute_layouts import Layout
        >>> plan_tma_load(Layout((8, 16), (1, 8)), Layout((8, 16), (1, 8)), 16).element_bytes
        2
        """
        return self.element_bits // 8

    @property
    def bytes_per_copy(self) -> int:
        """Bytes one copy writes: ``prod(boxDim) * element bytes`` (the mbarrier transaction count).

        >>> from pycute_layouts import Layout
        >>> plan_tma_load(Layout((8, 16), (1, 8)), Layout((8, 16), (1, 8)), 16).bytes_per_copy
        256
        """
        return math.prod(self.box_dim) * self.element_bytes

    def _tile_index(self, sub_coords: dict[tuple[int, int], np.ndarray]) -> np.ndarray:
        # tile index (colexicographic over the smem layout's top-level modes) of global sub-coordinates
        sizes = _top_sizes(self.tile_shape)
        idx: np.ndarray | int = 0
        mul = 1
        for j, subs in enumerate(self.global_submodes):
            c: np.ndarray | int = 0
            pm = 1
            for p, (n, _s) in enumerate(subs):
                if (j, p) in sub_coords:
                    c = c + sub_coords[(j, p)] * pm
                pm *= n
            idx = idx + c * mul
            mul *= sizes[j]
        return np.asarray(idx, dtype=np.int64)

    def smem_byte_addresses(self) -> np.ndarray:
        """Absolute byte address of every tile element as the copies place it (tile index order).

        Pre: the plan came from :func:`plan_tma_load`.
        Post: the byte address of every tile element (tile order), recomputed from the tensor map alone.

        Computed from the plan alone: each copy's box goes through the forward model
        (``tensor_map.smem_layout(dst)``, i.e. :func:`box_to_smem`), and each box element's TMA
        coordinates are mapped back to its tile coordinate. Raises TensorMapError if some tile
        element is not written exactly once (which a plan from :func:`plan_tma_load` never does).

        >>> from pycute_layouts import parse
        >>> p = plan_tma_load(parse("Sw<1,3,3> o 0 o (8,16):(16,1)"), parse("(8,16):(16,1)"), 16)
        >>> p.smem_byte_addresses()[:4].tolist()        # coordinates (0..3, 0): rows 0..3 of the 32B table
        [0, 32, 64, 96]
        """
        eb = self.element_bytes
        size = math.prod(_top_sizes(self.tile_shape))
        out = np.full(size, -1, dtype=np.int64)
        written = np.zeros(size, dtype=np.int64)
        box = self.box_dim
        grids = np.indices(tuple(reversed(box)), dtype=np.int64).reshape(len(box), -1)[::-1]  # dim i coords
        for cp in self.copies:
            dst = self.base_address + cp.smem_offset_bytes
            placed = self.tensor_map.smem_layout(dst_address=dst)[..., ::eb].reshape(-1)
            sub = {mode: grids[i] + cp.coords[i] for i, mode in enumerate(self.tma_modes)}
            t = self._tile_index(sub)
            if t.min() < 0 or t.max() >= size:
                raise TensorMapError(f"TmaLoadPlan.smem_byte_addresses: copy at {cp.coords} reaches outside the tile")
            out[t] = dst + placed
            np.add.at(written, t, 1)
        if not np.all(written == 1):
            bad = int(np.flatnonzero(written != 1)[0])
            raise TensorMapError(f"TmaLoadPlan.smem_byte_addresses: tile element {bad} is written "
                                 f"{int(written[bad])} times by the copies (must be exactly once)")
        return out

    def smem_layout(self) -> Any:
        """The tile layout the copies produce, as a :class:`SwizzledSmemLayout` (swizzle on bytes).

        Pre: as :meth:`smem_byte_addresses`.
        Post: a SwizzledSmemLayout equal element by element to those addresses.

        Built from :meth:`smem_byte_addresses` (the forward model): the addresses are un-swizzled
        with the mode's byte map, turned into element offsets and fitted with a layout of the
        tile's shape (one stride per flat mode, verified on every element). Its ``base_address``
        is the byte address where tile coordinate 0's element offset starts before swizzling.

        >>> from pycute_layouts import parse
        >>> p = plan_tma_load(parse("Sw<2,3,3> o 0 o ((8,2),(32,2)):((32,256),(1,512))"),
        ...                   parse("(16,64):(64,1)"), 16)
        >>> print(p.smem_layout())
        Sw<2,4,3> o smem_ptr[16b](unset) o ((8,2),(32,2)):((32,256),(1,512))
        """
        f = swizzle_mode_info(self.swizzle).byte_map
        addr = self.smem_byte_addresses()
        dense = f.inverse()(addr) - self.base_address
        eb = self.element_bytes
        if np.any(dense % eb):
            raise TensorMapError("TmaLoadPlan.smem_layout: some element does not start on an element boundary")
        v = dense // eb
        v0 = int(v[0])
        rel = v - v0
        flat = it.flatten(self.tile_shape) if isinstance(self.tile_shape, tuple) else (self.tile_shape,)
        strides = []
        step = 1
        for n in flat:
            strides.append(int(rel[step]) if n > 1 else 0)
            step *= n
        stride = it.unflatten(tuple(strides), self.tile_shape) if isinstance(self.tile_shape, tuple) else strides[0]
        lay = Layout(self.tile_shape, stride)
        if not np.array_equal(lay.to_numpy().astype(np.int64), rel):
            raise TensorMapError(f"TmaLoadPlan.smem_layout: no layout of shape {self.tile_shape} describes the "
                                 "placement of the copies")
        base = self.base_address + v0 * eb
        if base < 0:
            raise TensorMapError(f"TmaLoadPlan.smem_layout: tile coordinate 0 lies at negative address {base}")
        return SwizzledSmemLayout(f, lay, self.element_bits, "bytes", base)

    def to_dict(self) -> dict:
        """A JSON-ready summary: tensor-map parameters (driver names), box, copies and notes.

        Pre: none.
        Post: a JSON-ready dict of the map and the copies (driver spellings).

        >>> from pycute_layouts import Layout
        >>> d = plan_tma_load(Layout((8, 16), (1, 8)), Layout((8, 16), (1, 8)), 16).to_dict()
        >>> d["tensor_map"]["boxDim"], d["num_copies"], d["swizzle"]
        ([8, 16], 1, 'NONE')
        """
        m = self.tensor_map
        return {
            "tensor_map": {
                "tensorDataType": m.tensor_data_type.short_name,
                "tensorRank": m.tensor_rank,
                "globalAddress": m.global_address,
                "globalDim": list(m.global_dim),
                "globalStrides": list(m.global_strides),
                "boxDim": list(m.box_dim),
                "elementStrides": list(m.element_strides),
                "interleave": m.interleave.short_name,
                "swizzle": m.swizzle.tma_name,
                "l2Promotion": m.l2_promotion.short_name,
                "oobFill": m.oob_fill.short_name,
            },
            "swizzle": m.swizzle.tma_name,
            "swizzle_value": int(m.swizzle),
            "box_dim": list(self.box_dim),
            "bytes_per_copy": self.bytes_per_copy,
            "num_copies": self.num_copies,
            "copies": [{"coords": list(c.coords), "smem_offset_bytes": c.smem_offset_bytes} for c in self.copies],
            "tma_modes": [list(x) for x in self.tma_modes],
            "element_bits": self.element_bits,
            "base_address": self.base_address,
            "box_notes": list(self.box_notes),
        }


# ---------------------------------------------------------------------------------------------
# Input normalisation
# ---------------------------------------------------------------------------------------------


def _top_sizes(shape: Any) -> tuple[int, ...]:
    return tuple(int(x) for x in it.product_each(shape)) if isinstance(shape, tuple) else (int(shape),)


def _as_layout_obj(x: Any, what: str) -> Any:
    if isinstance(x, str):
        try:
            x = parse(x)
        except LayoutError as e:
            raise _err("plan.input", f"cannot parse the {what} {fmt(x)}: {e}") from None
    if isinstance(x, Layout):
        try:
            require_offsets(x, what)
        except LayoutError as e:
            raise _err("plan.input", str(e)) from None
    return x


def _normalize_smem(smem: Any) -> tuple[Any, Any, int, int, int | None]:
    """(swizzle as written, element Layout, element offset, base byte address, element bits or None).

    The swizzle of a ComposedLayout is returned as written; :func:`_byte_swizzle_of` reads it by CuTe's
    unit rule once the element width is known.
    """
    smem = _as_layout_obj(smem, "smem layout")
    if isinstance(smem, SwizzledSmemLayout):
        try:
            sw = smem.byte_swizzle()
        except LayoutError as e:
            raise _err("plan.swizzle_not_tma", f"the layout's swizzle has no byte-address form: {e}") from None
        return sw, smem.layout, 0, smem.base_address, smem.element_bits
    if isinstance(smem, ComposedLayout):
        sw, inner, off = smem.outer, smem.inner, smem.offset
        if not isinstance(sw, (Swizzle, XorSwizzle)):
            raise _err("plan.input", f"the outer function of the ComposedLayout must be a swizzle "
                                     f"(Sw<B,M,S> o k o L), got {sw}")
        if not isinstance(inner, Layout):
            raise _err("plan.input", f"the inner layout of the ComposedLayout must be a plain Layout, got {inner}")
        if isinstance(off, bool) or not isinstance(off, (int, np.integer)):
            raise _err("plan.input", f"the ComposedLayout's offset {off} is symbolic; bind it first")
        return sw, inner, int(off), 0, None
    if isinstance(smem, Layout):
        return Swizzle(0, 4, 3), smem, 0, 0, None
    raise _err("plan.input", "smem_layout must be a SwizzledSmemLayout ('Sw<B,M,S> o smem_ptr[Nb](..) o L', swizzle "
                             "on byte addresses), a ComposedLayout 'Sw<B,M,S> o off o L' (swizzle on element offsets, "
                             f"CuTe's meaning) or a Layout, got {type(smem).__name__}")


def _byte_swizzle_of(smem: Any, sw: Any, L: Any, bits: int, swizzle_unit: Any) -> Any:
    """The swizzle on byte addresses: a ComposedLayout's by CuTe's unit rule (core.composed.smem_layout_of)."""
    if not isinstance(smem, ComposedLayout):
        return sw
    try:
        s = smem_layout_of(ComposedLayout(sw, 0, L), bits, swizzle_unit=swizzle_unit, who="plan_tma_load")
        b = s.byte_swizzle()
    except LayoutError as e:
        raise _err("plan.swizzle_not_tma", f"{element_unit_note(smem, bits)} ({e})", swizzle=sw) from None
    if s.swizzle_unit == "elements" and not sw.is_identity():
        try:
            _tma_mode_of(b, bits)
        except TensorMapError:
            raise _err("plan.swizzle_not_tma", element_unit_note(
                smem, bits, "which is no CUtensorMapSwizzle mode (byte maps: 32B Sw<1,4,3>, 64B Sw<2,4,3>, "
                "128B Sw<3,4,3>, ...)", lambda x: _tma_mode_of(x, bits)), swizzle=sw) from None
    return b


def _tma_mode_of(sw: Any, element_bits: int) -> SwizzleMode:
    pairs = tuple(sorted(xor_pairs(sw)))
    for mode, info in ((m, swizzle_mode_info(m)) for m in SwizzleMode):
        if mode is SwizzleMode.B96:
            continue  # same map as 32B, which is the encodable one
        if tuple(sorted(xor_pairs(info.byte_map))) == pairs:
            return mode
    hint = ""
    if isinstance(sw, Swizzle) and element_bits % 8 == 0 and element_bits // 8 in (2, 4, 8):
        k = (element_bits // 8).bit_length() - 1
        cand = Swizzle(sw.bits, sw.base + k, sw.shift)
        for mode, info in ((m, swizzle_mode_info(m)) for m in SwizzleMode):
            if mode is not SwizzleMode.B96 and tuple(sorted(xor_pairs(info.byte_map))) == tuple(
                    sorted(xor_pairs(cand))):
                hint = (f"; it looks like the {mode.tma_name} mode written on {element_bits}-bit element offsets "
                        f"(CuTe's element-unit form): on byte addresses that is {cand} (use "
                        "SwizzledSmemLayout(..., swizzle_unit='elements') or the byte form)")
                break
    maps = ", ".join(f"{m.tma_name} {m.byte_map}" for m in SwizzleMode if m is not SwizzleMode.B96)
    raise _err("plan.swizzle_not_tma", f"{sw} is not the byte map of any CUtensorMapSwizzle mode ({maps}){hint}",
               swizzle=sw)


def _global_submodes(g: Any) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per top-level mode of the global layout: its sub-modes (size, stride), coalesced, size-1 dropped."""
    out = []
    for j in range(g.rank()):
        mode = g[j] if g.rank() > 1 else g
        shp = it.flatten(mode.shape) if isinstance(mode.shape, tuple) else (mode.shape,)
        std = it.flatten(mode.stride) if isinstance(mode.stride, tuple) else (mode.stride,)
        subs: list[tuple[int, int]] = []
        for n, s in zip(shp, std, strict=True):
            n, s = int(n), int(s)
            if n == 1:
                continue
            if subs and s == subs[-1][0] * subs[-1][1]:
                subs[-1] = (subs[-1][0] * n, subs[-1][1])
            else:
                subs.append((n, s))
        if not subs:
            subs = [(1, int(std[-1]) if std else 0)]
        out.append(tuple(subs))
    return tuple(out)


def _fmt_vec(v: np.ndarray, names: list[str]) -> str:
    parts = [f"{names[i]}={int(x)}" for i, x in enumerate(v) if x]
    return "(" + ", ".join(parts) + ")" if parts else "(origin)"


# ---------------------------------------------------------------------------------------------
# The planner
# ---------------------------------------------------------------------------------------------


def _largest_divisor(m: int, ok: Any) -> int | None:
    for d in range(min(m, 256), 0, -1):
        if m % d == 0 and ok(d):
            return d
    return None


def plan_tma_load(
    smem_layout: Any,
    global_layout: Any,
    element_bits: int | None = None,
    *,
    data_type: Any = None,
    global_address: int = 0,
    split: bool = False,
    swizzle_unit: str = "elements",
) -> TmaLoadPlan:
    """The tensor map and TMA copies that load a global tensor's tile into ``smem_layout``.

    Pre: ``smem_layout`` and ``global_layout`` are bound and of equal rank; ``element_bits`` in 8, 16, 32, 64
    (or implied).
    Post: a TmaLoadPlan whose copies place every tile element where ``smem_layout`` puts it; TensorMapError
    with a ``rule`` otherwise.

    ``smem_layout``: a :class:`SwizzledSmemLayout` (CuTe's pointer form ``Sw<3,4,3> o
    smem_ptr[16b](unset) o L``, the swizzle on byte addresses), a :class:`ComposedLayout` ``Sw<B,M,S> o
    off o L`` read by CuTe's unit rule (``off`` and ``L`` in elements, the swizzle on element offsets:
    ``Sw<3,3,3> o 0 o L`` on 16-bit elements is the 128B mode; ``swizzle_unit="bytes"`` reads it on
    byte addresses instead; a swizzle that is no TMA mode in element units is refused naming both
    forms), a plain :class:`Layout` (no swizzle), or CuTe notation for one. ``global_layout``: the tensor's ``shape:stride`` in
    elements, one top-level mode per tile mode (tile coordinate mode j = global coordinate mode j,
    from the tile's origin). ``element_bits``: 8, 16, 32 or 64 (or taken from ``data_type`` /
    the SwizzledSmemLayout). ``data_type``: the ``CUtensorMapDataType`` (default: the unsigned
    integer type of that width; :func:`parse_data_type` names such as "bf16" work).
    ``split=True`` lets a box dimension that breaks a driver limit (inner bytes > swizzle span,
    dimension > 256) shrink to its largest fitting divisor, at the price of more copies; by
    default (CuTe's behaviour) the limit is an error.

    The construction is CuTe's ``make_tma_copy`` (see the module docstring). Raises
    :class:`TensorMapError` with a ``rule`` attribute (:data:`PLAN_RULES` or, for the derived
    map, the ids of :data:`~pycute_layouts.arch.tma.RULES` with ``violations``) naming why no
    single tensor map produces the layout.

    >>> from pycute_layouts import parse
    >>> p = plan_tma_load(parse("Sw<3,3,3> o 0 o (8,64):(64,1)"), parse("(4096,4096):(4096,1)"), 16,
    ...                   data_type="bf16")
    >>> p.box_dim, p.swizzle, p.num_copies, p.tensor_map.global_strides
    ((64, 8), <SwizzleMode.B128: 3>, 1, (8192,))
    >>> plan_tma_load(parse("Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)"), parse("(4096,4096):(4096,1)")).box_dim
    (64, 8)
    >>> plan_tma_load(parse("Sw<3,3,3> o 0 o (8,64):(64,1)"), parse("(4096,4096):(1,4096)"), 16)
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.TensorMapError: plan_tma_load: the smem inner (contiguous) dimension must be ...
    """
    sw, L, off_elems, base_address, G, dt, bits = _plan_inputs(smem_layout, global_layout, element_bits, data_type,
                                                               split, swizzle_unit)
    eb = bits // 8
    mode = _tma_mode_of(sw, bits)
    info = swizzle_mode_info(mode)
    if L.rank() != G.rank():
        raise _err("plan.rank_mismatch", f"the smem layout {L} has {L.rank()} top-level modes, the global layout "
                                         f"{G} has {G.rank()}")
    n_elems = math.prod(_top_sizes(L.shape))
    if n_elems * eb > MAX_BOX_BYTES:
        raise _err("plan.input", f"a tile of {n_elems * eb} bytes exceeds the {MAX_BOX_BYTES}-byte model limit")
    tile = _tile_coordinates(L, G, off_elems)
    _sort_injective(tile, L, eb, base_address)
    box, notes = _derive_box(tile, info.span_bytes, eb, split)
    _check_inner_dimension(tile, box, G)
    dims, box_dim = _tma_dimensions(tile, box, G)
    B = math.prod(d for _, d in box)
    _check_dense_packing(tile, B, box_dim[:len(box)])
    copies = _copies(tile, B, dims, eb, base_address, mode)
    tmap = _tensor_map(tile, dims, box_dim, dt, eb, global_address, mode, notes)
    return TmaLoadPlan(
        tensor_map=tmap,
        copies=copies,
        tma_modes=tuple(tile.owners[r] for r in dims),
        global_submodes=tile.subs,
        tile_shape=L.shape,
        element_bits=bits,
        base_address=base_address,
        box_notes=tuple(notes),
    )


# -- the planner's steps ---------------------------------------------------------------------


def _plan_inputs(smem_layout: Any, global_layout: Any, element_bits: Any, data_type: Any,
                 split: Any, swizzle_unit: Any = "elements") -> tuple[Any, Any, int, int, Any, TensorDataType, int]:
    """(byte swizzle, smem Layout, element offset, base address, global Layout, data type, element bits)."""
    try:
        check_swizzle_unit(swizzle_unit, "plan_tma_load")
    except LayoutError as e:
        raise _err("plan.input", str(e)) from None
    smem_obj = _as_layout_obj(smem_layout, "smem layout")
    sw, L, off_elems, base_address, bits_from_layout = _normalize_smem(smem_obj)
    G = _as_layout_obj(global_layout, "global layout")
    if not isinstance(G, Layout):
        raise _err("plan.input", f"global_layout must be a Layout (shape:stride in elements), got {type(G).__name__}")
    dt = None
    if data_type is not None:
        dt = parse_data_type(data_type)
        if dt.is_packed:
            raise _err("plan.input", f"the packed type {dt.short_name} is not planned (whole-byte elements only)")
    if element_bits is None:
        element_bits = bits_from_layout if bits_from_layout is not None else (dt.bits if dt is not None else None)
    if element_bits is None:
        raise _err("plan.input", "element_bits is required (or a data_type, or a SwizzledSmemLayout)")
    if isinstance(element_bits, bool) or not isinstance(element_bits, (int, np.integer)) \
            or int(element_bits) not in (8, 16, 32, 64):
        raise _err("plan.input", f"element_bits must be 8, 16, 32 or 64 (TMA's whole-byte element sizes), "
                                 f"got {fmt(element_bits)}")
    bits = int(element_bits)
    if bits_from_layout is not None and bits_from_layout != bits:
        raise _err("plan.input", f"the SwizzledSmemLayout holds {bits_from_layout}-bit elements but "
                                 f"element_bits={bits}")
    if dt is None:
        dt = TensorDataType[_DEFAULT_DTYPE[bits]]
    elif dt.bits != bits:
        raise _err("plan.input", f"data_type {dt.short_name} has {dt.bits}-bit elements but element_bits={bits}")
    if not isinstance(split, bool):
        raise _err("plan.input", f"split must be True or False, got {fmt(split)}")
    for lay, what in ((L, "smem layout"), (G, "global layout")):
        if lay.is_symbolic():
            raise _err("plan.input", f"the {what} {lay} has unbound symbols; bind them first (layout.subs(...))")
    sw = _byte_swizzle_of(smem_obj, sw, L, bits, swizzle_unit)
    return sw, L, off_elems, base_address, G, dt, bits


@dataclass
class _Tile:
    """The tile seen element by element: smem offset and global sub-coordinates of every tile index."""

    N: int  # elements in the tile
    subs: tuple[tuple[tuple[int, int], ...], ...]  # per global mode: its coalesced (size, stride) sub-modes
    owners: list[tuple[int, int]]  # sub-mode r -> (global mode j, position p)
    names: list[str]  # sub-mode r -> "g0", "g1.0", ...
    sub_size: list[int]
    sub_stride: list[int]
    s: np.ndarray  # (N,) smem element offset of tile index t
    GC: np.ndarray  # (N, R) global sub-coordinates of tile index t
    ss: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))  # offsets, ascending
    GCs: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), dtype=np.int64))  # GC in that order

    @property
    def R(self) -> int:
        return self.GC.shape[1]


def _tile_coordinates(L: Any, G: Any, off_elems: int) -> _Tile:
    """Tile index -> smem element offset, global sub-coordinates."""
    tile_sizes = _top_sizes(L.shape)
    N = math.prod(tile_sizes)
    subs = _global_submodes(G)
    owners = [(j, p) for j, ss_ in enumerate(subs) for p in range(len(ss_))]
    names = [f"g{j}" if len(subs[j]) == 1 else f"g{j}.{p}" for j, p in owners]
    s = L.to_numpy().astype(np.int64).reshape(-1) + off_elems
    t = np.arange(N, dtype=np.int64)
    cols = []
    mul = 1
    for j, n_j in enumerate(tile_sizes):
        c = (t // mul) % n_j
        mul *= n_j
        rem = c
        for p, (n, _st) in enumerate(subs[j]):
            last = p == len(subs[j]) - 1
            cols.append(rem if last else rem % n)
            rem = rem // n
    return _Tile(N, subs, owners, names, [subs[j][p][0] for j, p in owners], [subs[j][p][1] for j, p in owners],
                 s, np.stack(cols, axis=1))


def _sort_injective(tile: _Tile, L: Any, eb: int, base_address: int) -> None:
    """Sort the tile by smem offset (``tile.ss``, ``tile.GCs``); two elements at one offset are an error."""
    order = np.argsort(tile.s, kind="stable")
    ss = tile.s[order]
    dup = np.flatnonzero(ss[1:] == ss[:-1])
    if dup.size:
        a, b = int(order[dup[0]]), int(order[dup[0] + 1])
        raise _err("plan.smem_not_injective",
                   f"tile elements {a} (global {_fmt_vec(tile.GC[a], tile.names)}) and {b} (global "
                   f"{_fmt_vec(tile.GC[b], tile.names)}) share element offset {int(ss[dup[0]])} in {L}")
    if int(ss[0]) * eb + base_address < 0:
        raise _err("plan.input", f"the smem layout reaches a negative address ({int(ss[0]) * eb + base_address})")
    tile.ss, tile.GCs = ss, tile.GC[order]


def _box_repeats(tile: _Tile, cur: int, r: int) -> int:
    """How many times the first ``cur`` smem elements repeat, one unit step along sub-mode ``r`` each."""
    ss, GCs, R = tile.ss, tile.GCs, tile.R
    nblk = tile.N // cur
    blocks = GCs[: nblk * cur].reshape(nblk, cur, R) - GCs[:cur][None]
    expect = np.zeros((nblk, R), dtype=np.int64)
    expect[:, r] = np.arange(nblk, dtype=np.int64)
    ok = np.all(blocks == expect[:, None, :], axis=(1, 2))
    ok &= np.all(ss[: nblk * cur].reshape(nblk, cur) == ss[0] + np.arange(nblk * cur).reshape(nblk, cur), axis=1)
    return int(np.argmin(ok)) if not ok.all() else nblk


def _next_box_dim(tile: _Tile, cur: int, box: list[tuple[int, int]]) -> tuple[int | None, str]:
    """The sub-mode the box grows along after ``cur`` elements, or None and why it stops there."""
    ss, GCs, names = tile.ss, tile.GCs, tile.names
    if ss[cur] != ss[0] + cur:
        return None, (f"the box ends after {cur} elements: the next smem element is at offset {int(ss[cur])}, not "
                      f"{int(ss[0]) + cur}")
    delta = GCs[cur] - GCs[0]
    nz = np.flatnonzero(delta)
    if nz.size != 1 or delta[nz[0]] != 1 or any(r == nz[0] for r, _ in box):
        return None, (f"the box ends after {cur} elements: smem offset {int(ss[cur])} holds global coordinate "
                      f"{_fmt_vec(GCs[cur], names)}, not one unit step along one new global dimension from the "
                      "box origin")
    return int(nz[0]), ""


def _derive_box(tile: _Tile, span: int | None, eb: int, split: bool) -> tuple[list[tuple[int, int]], list[str]]:
    """The box: the longest prefix of the smem vector that is a dense unit-step walk ((sub-mode, extent) list)."""
    box: list[tuple[int, int]] = []
    notes: list[str] = []
    cur = 1
    stop = "the box covers the whole tile"
    while cur < tile.N:
        r, why = _next_box_dim(tile, cur, box)
        if r is None:
            stop = why
            break
        m = _box_repeats(tile, cur, r)
        if m < 2:
            stop = (f"the box ends after {cur} elements: the smem run along global {tile.names[r]} from offset "
                    f"{int(tile.ss[cur])} does not repeat the box so far")
            break
        d = m
        if split:
            if not box:
                fit = _largest_divisor(m, lambda x: (span is None or x * eb <= span) and (x * eb) % 16 == 0)
            else:
                fit = _largest_divisor(m, lambda x: True)
            d = m if fit is None else fit
        box.append((r, d))
        notes.append(f"boxDim[{len(box) - 1}]={d}: smem offsets step by {cur} along global {tile.names[r]} "
                     f"(stride {tile.sub_stride[r]} elements) {m} times" + (f", split to {d}" if d != m else ""))
        cur *= d
        if d != m:
            stop = f"the box ends after {cur} elements: split=True shrank boxDim[{len(box) - 1}] from {m} to {d}"
            break
    notes.append(stop)
    return box, notes


def _check_inner_dimension(tile: _Tile, box: list[tuple[int, int]], G: Any) -> None:
    """Dimension 0 of the box must be the global stride-1 dimension."""
    ss, GCs, names, sub_stride = tile.ss, tile.GCs, tile.names, tile.sub_stride
    unit = [r for r in range(tile.R) if sub_stride[r] == 1 and tile.sub_size[r] > 1]
    if not box:
        if tile.N == 1:
            where = "the tile has a single element"
        elif ss[1] != ss[0] + 1:
            where = (f"no tile element sits at smem element offset {int(ss[0]) + 1} (after offset {int(ss[0])} the "
                     f"next is {int(ss[1])})")
        else:
            where = (f"smem offsets {int(ss[0])} and {int(ss[1])} hold global coordinates {_fmt_vec(GCs[0], names)} "
                     f"and {_fmt_vec(GCs[1], names)}, not one unit step along one global dimension")
        raise _err("plan.inner_not_contiguous", f"{where}: no contiguous smem run along the global stride-1 dimension "
                                                f"({', '.join(names[r] for r in unit) or 'none in ' + str(G)})")
    r0 = box[0][0]
    if sub_stride[r0] != 1:
        raise _err("plan.inner_not_contiguous",
                   f"smem offsets {int(ss[0])}..{int(ss[0]) + box[0][1] - 1} run along global {names[r0]} whose "
                   f"stride is {sub_stride[r0]} elements, but the global stride-1 dimension is "
                   f"{', '.join(names[r] for r in unit) or 'absent from ' + str(G)} (smem and global majorness "
                   "differ: make the smem layout contiguous along the global stride-1 mode)")


def _tma_dimensions(tile: _Tile, box: list[tuple[int, int]], G: Any) -> tuple[list[int], list[int]]:
    """The TMA dimensions (sub-modes: the box's, then every other one the tile or the map needs) and boxDim."""
    in_box = [r for r, _ in box]
    varies = [bool(np.any(tile.GC[:, r] != tile.GC[0, r])) for r in range(tile.R)]
    rest = [r for r in range(tile.R)
            if r not in in_box and ((tile.sub_size[r] > 1 and tile.sub_stride[r] != 0) or varies[r])]
    dims = in_box + rest
    if len(dims) > _MAX_TMA_RANK:
        raise _err("plan.tma_rank", f"the tile needs {len(dims)} TMA dimensions "
                                    f"({', '.join(tile.names[r] for r in dims)}: {len(in_box)} in the box, "
                                    f"{len(rest)} more of the global layout {G}); coalesce the global layout or give "
                                    "it fewer modes")
    return dims, [d for _, d in box] + [1] * len(rest)


def _check_dense_packing(tile: _Tile, B: int, box_extents: list[int]) -> None:
    """The tile must be a dense packing of copies of the box (``B`` elements each)."""
    N, R, ss, GCs, names = tile.N, tile.R, tile.ss, tile.GCs, tile.names
    if N % B:
        raise _err("plan.not_dense_packing", f"the tile has {N} elements, not a multiple of the box's {B}")
    nb = N // B
    pattern = GCs[:B] - GCs[0]
    origins = GCs[::B]
    good = np.all(GCs.reshape(nb, B, R) - origins[:, None, :] == pattern[None], axis=2)
    good &= ss.reshape(nb, B) - ss[::B][:, None] == np.arange(B)[None]
    if not good.all():
        qb, rb = (int(x[0]) for x in np.nonzero(~good))
        k = qb * B + rb
        want = origins[qb] + pattern[rb]
        raise _err("plan.not_dense_packing",
                   f"copy #{qb} would write the box ({', '.join(map(str, box_extents))}) at smem element offset "
                   f"{int(ss[qb * B])}, putting global {_fmt_vec(want, names)} at offset {int(ss[qb * B]) + rb}, but "
                   f"the layout has global {_fmt_vec(GCs[k], names)} at offset {int(ss[k])}")


def _copies(tile: _Tile, B: int, dims: list[int], eb: int, base_address: int, mode: SwizzleMode) -> tuple[TmaCopy, ...]:
    """One copy per box: TMA coordinates of its origin and its byte offset; destinations must be aligned."""
    align = swizzle_mode_info(mode).required_alignment_bytes
    origins = tile.GCs[::B]
    copies = []
    for qb in range(tile.N // B):
        off = int(tile.ss[qb * B]) * eb
        dst = base_address + off
        if dst % align:
            raise _err("plan.copy_alignment",
                       f"copy #{qb} lands at byte address {dst:#x} (tile base {base_address:#x} + {off}), but swizzle "
                       f"{mode.tma_name} needs {align}-byte aligned destinations ({dst:#x} % {align} = {dst % align})")
        copies.append(TmaCopy(tuple(int(origins[qb][r]) for r in dims), off))
    return tuple(copies)


def _tensor_map(tile: _Tile, dims: list[int], box_dim: list[int], dt: TensorDataType, eb: int, global_address: int,
                mode: SwizzleMode, notes: list[str]) -> TiledTensorMap:
    """The ``cuTensorMapEncodeTiled`` parameters; a map that violates a driver rule is an error."""
    tmap = TiledTensorMap(
        tensor_data_type=dt,
        global_dim=tuple(tile.sub_size[r] for r in dims),
        global_strides=tuple(tile.sub_stride[r] * eb for r in dims[1:]),
        box_dim=tuple(box_dim),
        global_address=global_address,
        swizzle=mode,
    )
    found = tmap.violations("load")
    if found:
        first = found[0]
        msg = (f"the box ({', '.join(map(str, box_dim))}) derived from the smem layout needs a tensor map that "
               f"violates {len(found)} rule(s): [{first.rule}] {first.message}")
        msg += "".join(f"\n  [{v.rule}] {v.message}" for v in found[1:])
        msg += "\n  box derivation: " + "; ".join(notes)
        raise _err("plan.tensor_map_rules", msg, violations=tuple(found), tensor_map=tmap)
    return tmap
