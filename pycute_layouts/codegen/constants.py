"""Kernel constants: from a small spec to a C++ header, a Python module and JSON.

A hand-written Hopper/Blackwell GEMM needs a handful of numbers that must agree with each
other: the 64-bit shared-memory descriptors of the A and B operands (and how to step them along
K), the TMA swizzle mode and box that fill the same shared memory, the stage sizes and their
alignment, and -- when the kernel also uses CuTe -- the CuTe type of each shared-memory layout.
This module derives all of them from one spec and writes them out; it computes no hardware fact
itself: the atoms, descriptors and advances come from :mod:`pycute_layouts.arch.wgmma` (sm90) or
:mod:`pycute_layouts.arch.umma` (sm100), the swizzle vocabulary from
:mod:`pycute_layouts.arch.swizzle_modes`, the TMA facts and their validation from
:mod:`pycute_layouts.arch.tma`.

**The tile.** One operand's shared-memory tile is ``MN x K`` elements (``M x K`` for A, ``N x K``
for B), built the way CUTLASS's sm90/sm100 collectives build it::

    atom  = smem_atom(major, swizzle, element_bits)          # Table 38: 8 rows x one swizzle row
    tile  = tile_to_shape(atom.layout, (MN, K), order)       # order: which mode is repeated first
    stage = tile_to_shape(atom.layout, (MN, K, stages), order + (2,))

``order`` is ``"mn_first"`` (CuTe ``Step<_1,_2,_3>``) or ``"k_first"`` (``Step<_2,_1,_3>``); the
default is CUTLASS's: K-major tiles repeat the atom along MN first, MN-major tiles along K first.
With that order one TMA box (inner extent = one swizzle row, all rows of the tile) lands on a
contiguous piece of the tile, so a stage takes ``K / span`` (K-major) or ``MN / span`` (MN-major)
TMA copies. The other order is allowed; its boxes are then one swizzle atom tall.

**The descriptor** describes ONE instruction's operand: the ``(mma_mn, K_instr)`` slice of the
tile with ``K_instr`` = 32 bytes of K (16 bf16, 8 tf32, 32 fp8; dense ``wgmma``/``tcgen05.mma``)
and ``mma_mn`` = the rows one instruction reads (sm90 A 64, B up to 256; sm100 by cta_group:
:func:`~pycute_layouts.arch.instruction.instruction_mn`) unless the spec says otherwise. K step ``k`` is the slice
``flat_divide(tile, (mma_mn, K_instr))(_, _, 0, k)``; its descriptor is the step-0 descriptor with
the start address advanced by the slice's unswizzled byte offset (checked by
:meth:`SmemDescriptor.advance`, which rejects steps the hardware would read wrongly). Kernels add
``offset >> 4`` to the descriptor's low 14 bits (DeepGEMM's ``desc.lo += 2`` for 32-byte steps).

>>> from pycute_layouts.codegen import kernel_constants, parse_spec
>>> spec = parse_spec({"kernel": "gemm", "arch": "sm90",
...                    "A": {"tile": "128x64", "dtype": "bf16", "major": "K", "swizzle": "128B", "stages": 2},
...                    "B": {"tile": "128x64", "dtype": "bf16", "major": "MN", "swizzle": "128B", "stages": 2}})
>>> kc = kernel_constants(spec)
>>> a = kc.operand("A")
>>> hex(a.desc), a.lbo_bytes, a.sbo_bytes, a.k_step_offsets_bytes, a.k_step_advance_16B
('0x4000004000010000', 16, 1024, (0, 32, 64, 96), (0, 2, 4, 6))
>>> a.tma_swizzle_name, a.tma_box_dim, a.tma_copies
('CU_TENSOR_MAP_SWIZZLE_128B', (64, 128), 1)
>>> b = kc.operand("B")
>>> b.stage_starts, b.lbo_bytes, b.sbo_bytes, b.k_step_offsets_bytes
((32768, 49152), 8192, 1024, (0, 2048, 4096, 6144))
>>> print(a.tile_layout)                          # the CuTe type adds the stage mode: a.cute_type
Sw<3,4,3> o smem_ptr[16b](unset) o ((8,16),(64,1)):((64,512),(1,0))
>>> a.smem_layout_element_text                    # the same tile, the swizzle on 16-bit element offsets
'Sw<3,3,3> o 0 o ((8,16),(64,1)):((64,512),(1,0))'
>>> a.cute_type.startswith("cute::ComposedLayout<cute::Swizzle<3,4,3>, cute::smem_ptr_flag_bits<16>, cute::Layout<")
True
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from ..arch import tma, umma
from ..arch.instruction import check_instruction_mn, instruction_mn
from ..arch.swizzle_modes import SMEM_WINDOW_BYTES, SwizzleMode
from ..core.composed import (
    ComposedLayout,
    SwizzledSmemLayout,
    check_swizzle_unit,
    element_unit_note,
    smem_layout_of,
    swizzle_forms,
)
from ..core.inttuple import flatten
from ..core.layout import Layout, _
from ..core.swizzle import Swizzle, XorSwizzle
from ..core.tiling import flat_divide, tile_to_shape
from ..errors import DescriptorError, LayoutError, LayoutValueError, SpecError
from ..limits import check_count, check_fields, check_type, fmt
from ..version import __version__
from .spec import (
    MMA_K_BYTES,
    DType,
    KernelSpec,
    arch_module,
    parse_arch,
    parse_dtype,
    swizzle_field,
    tile_field,
)

__all__ = ["SCHEMA", "OperandConstants", "KernelConstants", "cute_layout_type", "canonical_match", "describe_operand",
           "describe_layout", "kernel_constants", "spec_comment"]

SCHEMA = "pycute_layouts.codegen/1"

_CUTE_ATOM_NAME = {"none": "INTER", "32B": "SW32", "64B": "SW64", "128B": "SW128", "128B_base32B": "SW128_32B"}


# --------------------------------------------------------------------------------------------------
# Operand constants
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class OperandConstants:
    """Everything a kernel needs about one shared-memory operand, derived from the arch modules.

    Byte quantities end in ``_bytes``, descriptor units in ``_16B``. ``desc`` is the descriptor of
    stage 0, K step 0; ``desc_template`` the same with start address 0 (OR in ``(addr & 0x3FFFF)
    >> 4`` at run time); ``descs[s][k]`` the descriptor of stage ``s``, K step ``k``.
    ``k_step_offsets_bytes[k]`` is the start-address offset of K step ``k``
    (``k_step_advance_16B[k]`` the same in 16-byte units, what kernels add to the descriptor).
    TMA fields are None for :func:`describe_layout` results (no tile model).

    >>> oc = describe_operand("sm90", "K", "64B", "bf16", (64, 32))
    >>> oc.lbo_bytes, oc.sbo_bytes, oc.k_steps, oc.k_step_offsets_bytes, oc.tma_box_dim
    (16, 512, 2, (0, 32), (32, 64))
    """

    name: str
    arch: str
    dtype: DType | None
    element_bits: int
    major: str
    swizzle: Any
    tile_mn: int
    tile_k: int
    order: str | None
    stages: int
    mma_mn: int
    mma_k: int
    tile_layout: SwizzledSmemLayout
    atom: SwizzledSmemLayout | None
    cute_type: str | None
    cute_expr: str | None
    descriptor: Any
    descs: tuple[tuple[int, ...], ...]
    k_step_offsets_bytes: tuple[int, ...]
    mn_block_offsets_bytes: tuple[int, ...]
    stage_bytes: int
    stage_alignment_bytes: int
    stage_starts: tuple[int, ...]
    canonical: str | None
    canonical_symbols: dict
    canonical_note: str
    swizzle_anchor: str = "absolute"
    tma_swizzle: Any = None
    tma_box_dim: tuple[int, int] | None = None
    tma_copy_coords: tuple[tuple[int, int], ...] = ()
    tma_copy_offsets_bytes: tuple[int, ...] = ()

    # -- derived --------------------------------------------------------------------------------
    def __post_init__(self) -> None:
        check_fields(self)

    @property
    def smem_layout_text(self) -> str:
        """The smem tile as CuTe prints its type: ``Sw<B,M,S> o smem_ptr[Nb](unset) o L`` (swizzle on bytes).

        >>> describe_operand("sm90", "K", "128B", "bf16", (64, 64)).smem_layout_text
        'Sw<3,4,3> o smem_ptr[16b](unset) o ((8,8),(64,1)):((64,512),(1,0))'
        """
        return str(self.tile_layout)

    @property
    def smem_layout_element_text(self) -> str | None:
        """The same tile in CuTe's element-unit form ``Sw<B,M',S> o k o L`` (the swizzle on element offsets).

        None where no element-offset swizzle is equivalent (sub-byte elements).

        >>> describe_operand("sm90", "K", "64B", "tf32", (64, 16)).smem_layout_element_text
        'Sw<2,2,3> o 0 o ((8,8),(16,1)):((16,128),(1,0))'
        """
        try:
            return str(self.tile_layout.as_composed())
        except LayoutError:
            return None

    @property
    def desc(self) -> int:
        """The 64-bit descriptor of stage 0, K step 0."""
        return self.descs[0][0]

    @property
    def desc_template(self) -> int:
        """The descriptor with start address 0 (add the operand's address in 16-byte units at run time)."""
        return dataclasses.replace(self.descriptor, start_address=0).encode()

    @property
    def lbo_bytes(self) -> int:
        """Leading dimension byte offset (descriptor field ``lbo_bytes >> 4``)."""
        return self.descriptor.lbo_bytes

    @property
    def sbo_bytes(self) -> int:
        """Stride dimension byte offset (descriptor field ``sbo_bytes >> 4``)."""
        return self.descriptor.sbo_bytes

    @property
    def k_steps(self) -> int:
        """Instructions along K in the tile (``tile_k / mma_k``)."""
        return len(self.k_step_offsets_bytes)

    @property
    def k_step_advance_16B(self) -> tuple[int, ...]:
        """``k_step_offsets_bytes`` in 16-byte units: what a kernel adds to the descriptor's low bits."""
        return tuple(o >> 4 for o in self.k_step_offsets_bytes)

    @property
    def stage_stride_bytes(self) -> int:
        """Bytes between consecutive stages (the stage size: stages are packed)."""
        return self.stage_bytes

    @property
    def tma_swizzle_name(self) -> str | None:
        """The ``CUtensorMapSwizzle`` enumerator TMA needs (``CU_TENSOR_MAP_SWIZZLE_128B``)."""
        return None if self.tma_swizzle is None else self.tma_swizzle.driver_name

    @property
    def tma_copies(self) -> int:
        """TMA box copies per stage."""
        return len(self.tma_copy_coords)

    @property
    def tma_box_bytes(self) -> int | None:
        """Bytes one TMA box writes."""
        if self.tma_box_dim is None:
            return None
        return self.tma_box_dim[0] * self.tma_box_dim[1] * self.element_bits // 8

    @property
    def tma_data_type(self) -> str | None:
        """The ``CUtensorMapDataType`` enumerator for the element type."""
        return None if self.dtype is None else "CU_TENSOR_MAP_DATA_TYPE_" + self.dtype.tma_data_type

    def to_dict(self) -> dict:
        """Plain data for JSON (every integer an int; descriptors also as hex strings).

        >>> describe_operand("sm90", "K", "128B", "bf16", (64, 64)).to_dict()["desc_hex"]
        '0x4000004000010000'
        """
        d = self.descriptor
        out: dict[str, Any] = {
            "name": self.name, "arch": self.arch, "dtype": None if self.dtype is None else self.dtype.name,
            "element_bits": self.element_bits, "major": self.major, "swizzle": str(self.swizzle),
            "tile": [self.tile_mn, self.tile_k], "order": self.order, "stages": self.stages,
            "mma_mn": self.mma_mn, "mma_k": self.mma_k, "k_steps": self.k_steps,
            "smem_layout": self.smem_layout_text, "smem_layout_elements": self.smem_layout_element_text,
            "swizzle_forms": swizzle_forms(self.tile_layout.byte_swizzle(), self.element_bits),
            "cute_type": self.cute_type, "cute_expr": self.cute_expr,
            "canonical_layout": self.canonical, "canonical_symbols": dict(self.canonical_symbols),
            "canonical_note": self.canonical_note, "swizzle_anchor": self.swizzle_anchor,
            "lbo_bytes": d.lbo_bytes, "lbo_16B": d.lbo_16B, "sbo_bytes": d.sbo_bytes, "sbo_16B": d.sbo_16B,
            "layout_type": d.layout_type, "base_offset": d.base_offset, "start_address": d.start_address,
            "start_16B": d.start_16B, "desc": self.desc, "desc_hex": f"{self.desc:#018x}",
            "desc_template": self.desc_template, "desc_template_hex": f"{self.desc_template:#018x}",
            "k_step_offsets_bytes": list(self.k_step_offsets_bytes),
            "k_step_advance_16B": list(self.k_step_advance_16B),
            "descs": [list(row) for row in self.descs],
            "descs_hex": [[f"{v:#018x}" for v in row] for row in self.descs],
            "mn_block_offsets_bytes": list(self.mn_block_offsets_bytes),
            "stage_bytes": self.stage_bytes, "stage_alignment_bytes": self.stage_alignment_bytes,
            "stage_starts": list(self.stage_starts),
            "tma": None,
        }
        if self.tma_box_dim is not None:
            out["tma"] = {
                "swizzle": self.tma_swizzle_name, "swizzle_value": int(self.tma_swizzle),
                "data_type": self.tma_data_type, "box_dim": list(self.tma_box_dim),
                "box_bytes": self.tma_box_bytes, "copies": self.tma_copies,
                "copy_coords": [list(c) for c in self.tma_copy_coords],
                "copy_offsets_bytes": list(self.tma_copy_offsets_bytes),
            }
        return out


def _cxx_tuple(x: Any, kind: str) -> str:
    if isinstance(x, tuple):
        return f"cute::{kind}<{','.join(_cxx_tuple(e, kind) for e in x)}>"
    return f"cute::Int<{int(x)}>"


def cute_layout_type(swizzle: Swizzle, element_bits: int, layout: Layout) -> str:
    """The CuTe C++ type of a swizzled shared-memory layout built from a GMMA/UMMA atom.

    Pre:  ``swizzle`` a Swizzle, ``element_bits`` positive, ``layout`` a concrete Layout.
    Post: the C++ type ``cute::ComposedLayout<...>`` CuTe builds for it.

    CuTe's atoms are ``ComposedLayout<Swizzle<B,M,S>, smem_ptr_flag_bits<bits>, Layout<...>>`` with
    the swizzle on byte addresses (as here) and the layout in elements; ``tile_to_shape`` keeps
    that form, and this library's ``tile_to_shape`` builds the same shape/stride tree.

    >>> t = cute_layout_type(Swizzle(3, 4, 3), 16, Layout((8, 64), (64, 1)))
    >>> t[:73]
    'cute::ComposedLayout<cute::Swizzle<3,4,3>, cute::smem_ptr_flag_bits<16>, '
    >>> t[73:]
    'cute::Layout<cute::Shape<cute::Int<8>,cute::Int<64>>, cute::Stride<cute::Int<64>,cute::Int<1>>>>'
    """
    if not isinstance(swizzle, Swizzle) or not isinstance(layout, Layout):
        raise LayoutValueError(f"cute_layout_type: expected a Swizzle and a Layout, got {fmt(swizzle)}, {fmt(layout)}")
    if layout.is_symbolic():
        raise LayoutValueError(f"cute_layout_type: the layout {layout} has symbols; CuTe types need integers")
    shape, stride = layout.shape, layout.stride
    if not isinstance(shape, tuple):
        shape, stride = (shape,), (stride,)
    return (f"cute::ComposedLayout<cute::Swizzle<{swizzle.bits},{swizzle.base},{swizzle.shift}>, "
            f"cute::smem_ptr_flag_bits<{element_bits}>, cute::Layout<{_cxx_tuple(shape, 'Shape')}, "
            f"{_cxx_tuple(stride, 'Stride')}>>")


def _cute_expr(arch: str, major: str, mode: Any, dtype: DType, shape: tuple[int, ...], order: str) -> str:
    ns = "GMMA" if arch == "sm90" else "UMMA"
    atom = f"cute::{ns}::Layout_{major}_{_CUTE_ATOM_NAME[str(mode)]}_Atom<{dtype.cute_type}>"
    sh = ", ".join(f"cute::Int<{n}>{{}}" for n in shape)
    steps = ["cute::_1", "cute::_2", "cute::_3"][: len(shape)]
    if order == "k_first":
        steps[0], steps[1] = steps[1], steps[0]
    return f"cute::tile_to_shape({atom}{{}}, cute::make_shape({sh}), cute::Step<{', '.join(steps)}>{{}})"


def canonical_match(arch: str, major: str, swizzle: Any, element_bits: int, shape: tuple[int, int],
                    inner: Layout, descriptor: Any) -> tuple[str | None, dict, str]:
    """The PTX canonical layout of one instruction's operand, with ``T, m, k, LBO, SBO`` substituted.

    Pre:  arch, major, swizzle and element width the arch module accepts; ``shape`` (MN, K) in elements.
    Post: the PTX canonical layout the tile matches, as text.

    ``shape`` is the operand's ``(MN, K)`` in elements, ``inner`` its element layout (offset 0),
    ``descriptor`` its descriptor. LBO/SBO are substituted in elements (as the PTX examples write
    them); a stride whose mode has one repetition is never read and stays a symbol. The result is
    checked to be the same function as ``inner``. Returns ``(layout text, symbols, note)``; the
    text is None when no table row has the operand's shape (an MN extent narrower than a swizzle
    row).

    >>> from pycute_layouts.arch import wgmma
    >>> d = wgmma.SmemDescriptor(0, 16, 1024, "128B")
    >>> canonical_match("sm90", "K", "128B", 16, (64, 16), Layout((64, 16), (64, 1)), d)[0]
    'Sw<3,4,3> o smem_ptr[16b](unset) o ((8,8),(8,2)):((64,512),(1,8))'
    """
    mod = arch_module(arch)
    mode = swizzle_field(swizzle)
    _check_canonical_args("canonical_match", major, element_bits, shape, inner, descriptor)
    sym, unused, why = _canonical_symbols(major, mode, element_bits, shape, descriptor)
    if sym is None:
        return None, {}, why
    shown = mod.canonical_layout(major, mode, **sym)
    check = mod.canonical_layout(major, mode, **sym, **{u: 1 for u in unused})
    if not np.array_equal(np.asarray(check.inner.to_numpy()), np.asarray(inner.to_numpy())):
        raise LayoutValueError(f"canonical_match: the operand {inner} is not the canonical layout {check} "
                               "(the descriptor does not describe it)")
    note = "" if not unused else f"{' and '.join(unused)} unused (one repetition along that mode; encoded as derived)"
    return str(shown), sym, note


def _check_canonical_args(who: str, major: Any, element_bits: Any, shape: Any, inner: Any, descriptor: Any) -> None:
    # Pre:  none (caller input).  Post: element_bits divides 128, shape an (MN, K) pair of positive ints, major
    #       'K' or 'MN', inner a Layout, descriptor has integer lbo_bytes and sbo_bytes; otherwise LayoutValueError.
    if isinstance(element_bits, bool) or not isinstance(element_bits, int) or element_bits <= 0 or 128 % element_bits:
        raise LayoutValueError(f"{who}: element_bits must divide 128, got {fmt(element_bits)}"[:200])
    if not (isinstance(shape, tuple) and len(shape) == 2 and all(isinstance(v, int) and v > 0 for v in shape)):
        raise LayoutValueError(f"{who}: shape must be an (MN, K) pair of positive ints, got {fmt(shape)}"[:200])
    if not isinstance(major, str) or major not in ("K", "MN"):
        raise LayoutValueError(f"{who}: major must be 'K' or 'MN', got {fmt(major)}"[:200])
    if not isinstance(inner, Layout):
        raise LayoutValueError(f"{who}: inner must be the operand's Layout, got {fmt(inner)}"[:200])
    if not isinstance(getattr(descriptor, "lbo_bytes", None), int) or not isinstance(getattr(descriptor, "sbo_bytes", None),
                                                                                      int):
        raise LayoutValueError(f"{who}: descriptor must be a shared-memory descriptor, got {fmt(descriptor)}"[:200])


def _canonical_symbols(major: str, mode: Any, element_bits: int, shape: tuple[int, int],
                       descriptor: Any) -> tuple[dict | None, list[str], str]:
    # Pre:  the arguments checked (_check_canonical_args).
    # Post: (T, m, k and the LBO/SBO that are read, in elements; the strides never read; "") for the PTX table
    #       row of the operand's shape, or (None, [], why) when no row has that shape.
    t = 128 // element_bits
    mn, k = shape
    lbo = descriptor.lbo_bytes * 8 // element_bits
    sbo = descriptor.sbo_bytes * 8 // element_bits
    sym: dict[str, int] = {"T": t}
    unused: list[str] = []
    if major == "K":
        if mn % 8 or (k * element_bits) % 256:
            return None, [], f"no table row: K-major operands are (8*m) x (T*2k) elements; got {mn} x {k}"
        sym["m"], sym["k"] = mn // 8, k // (2 * t)
        if sym["m"] > 1:
            sym["SBO"] = sbo
        else:
            unused.append("SBO")
        if not mode.is_swizzled:
            sym["LBO"] = lbo
        return sym, unused, ""
    lead = t * (mode.width_16B if mode.is_swizzled else 1)
    if mn % lead or k % mode.atom_rows:
        return None, [], (f"no table row: MN-major {mode.short_name} operands are ({lead}*m) x ({mode.atom_rows}*k) "
                          f"elements; got {mn} x {k} (an MN extent narrower than one swizzle row)")
    sym["m"], sym["k"] = mn // lead, k // mode.atom_rows
    mn_field, k_field = ("LBO", "SBO") if mode.is_swizzled else ("SBO", "LBO")
    vals = {"LBO": lbo, "SBO": sbo}
    for fld, reps in ((mn_field, sym["m"]), (k_field, sym["k"])):
        if reps > 1:
            sym[fld] = vals[fld]
        else:
            unused.append(fld)
    return sym, unused, ""


def _check_start(start: Any, who: str) -> int:
    if isinstance(start, bool) or not isinstance(start, (int, np.integer)) or start < 0:
        raise LayoutValueError(f"{who}: start address must be a non-negative int, got {fmt(start)}")
    return int(start)


def _descs_for(mod: Any, tile_s: SwizzledSmemLayout, major: str, bits: int, mma_mn: int, mma_k: int, k_steps: int,
               start: int, anchor: str, who: str, offset_elems: int = 0) -> tuple[list[Any], list[int], list[int]]:
    # the instruction blocks as 'byte swizzle o offset o block', read explicitly on bytes (swizzle_unit="bytes")
    tile_c = ComposedLayout(tile_s.byte_swizzle(), offset_elems, tile_s.layout)
    fd = flat_divide(tile_c, (mma_mn, mma_k))
    descs = [mod.make_smem_desc(fd(_, _, 0, kk), major, bits, start_address=start, swizzle_anchor=anchor,
                                swizzle_unit="bytes") for kk in range(k_steps)]
    d0 = descs[0]
    offsets = [d.start_address - d0.start_address for d in descs]
    for kk, (d, off) in enumerate(zip(descs, offsets, strict=True)):
        if d0.advance(off, major=major) != d:  # advance() also rejects steps the unit would read wrongly
            raise LayoutValueError(f"{who}: K step {kk} is not the step-0 descriptor advanced by {off} bytes")
    mn_blocks = []
    n_mn = tile_c.inner.size() // (mma_mn * k_steps * mma_k)
    for i in range(n_mn):
        di = mod.make_smem_desc(fd(_, _, i, 0), major, bits, start_address=start, swizzle_anchor=anchor,
                                swizzle_unit="bytes")
        if dataclasses.replace(di, start_address=d0.start_address) != d0:
            raise LayoutValueError(f"{who}: MN block {i} needs a different LBO/SBO than block 0")
        mn_blocks.append(di.start_address - d0.start_address)
    return descs, offsets, mn_blocks


def _tma_plan(oc_major: str, mode: Any, dtype: DType, bits: int, tile: Layout, tile_mn: int, tile_k: int,
              start: int, atom_rows: int, who: str) -> tuple[Any, tuple[int, int], list[tuple[int, int]], list[int]]:
    """The TMA box that fills the tile: inner extent one swizzle row, rows as many as land contiguously.

    Every candidate is checked byte for byte against :func:`pycute_layouts.arch.tma.box_to_smem`
    (TMA's placement model) and validated as a ``cuTensorMapEncodeTiled`` box.
    """
    tma_sw = SwizzleMode.parse(mode.tma_swizzle)
    info = tma.swizzle_mode_info(tma_sw)
    inner_bytes = mode.width_bytes  # one swizzle row (16 B, one core-matrix row, without swizzle)
    if info.span_bytes is not None and info.span_bytes != inner_bytes:
        raise LayoutValueError(f"{who}: TMA span {info.span_bytes} B disagrees with the {mode} row {inner_bytes} B")
    inner = inner_bytes * 8 // bits
    inner_total, rows_total = (tile_k, tile_mn) if oc_major == "K" else (tile_mn, tile_k)
    if inner_total % inner:
        raise LayoutValueError(f"{who}: the tile's contiguous extent {inner_total} is not a multiple of the "
                               f"{inner}-element swizzle row")
    candidates = [r for r in range(min(rows_total, 256), 0, -1) if rows_total % r == 0 and r % atom_rows == 0]
    candidates = [candidates[0], atom_rows] if candidates and candidates[0] != atom_rows else [atom_rows]
    smem = SwizzledSmemLayout(mode.byte_swizzle, tile, bits, base_address=start)
    eb = Fraction(bits, 8)
    for box_rows in candidates:
        coords = [(j * inner, i * box_rows) for j in range(inner_total // inner) for i in range(rows_total // box_rows)]
        offsets = []
        ok = True
        for c_in, c_row in coords:
            e, r = np.meshgrid(np.arange(inner, dtype=np.int64), np.arange(box_rows, dtype=np.int64))
            mn_idx, k_idx = (c_row + r, c_in + e) if oc_major == "K" else (c_in + e, c_row + r)
            lin = (mn_idx + k_idx * tile_mn).ravel()
            bit_addr = np.asarray(smem.bit_address(lin)).reshape(box_rows, inner)
            off_bits = int(tile(int(lin[0]))) * bits
            if off_bits % 128:
                ok = False
                break
            dst = start + off_bits // 8
            placed = tma.box_to_smem(tma_sw, eb, (inner, box_rows), dst)  # (rows, inner_bytes)
            byte_in_row = (np.arange(inner, dtype=np.int64) * bits) // 8
            want = dst + placed[:, byte_in_row]
            if not np.array_equal(bit_addr // 8, want):
                ok = False
                break
            offsets.append(off_bits // 8)
        if not ok:
            continue
        m = tma.TiledTensorMap(tensor_data_type=dtype.tma_data_type, global_dim=(inner_total, rows_total),
                               global_strides=(inner_total * (dtype.gmem_bits or bits) // 8,),
                               box_dim=(inner, box_rows), swizzle=tma_sw)
        bad = m.violations()
        if bad:
            raise LayoutValueError(f"{who}: the TMA box {(inner, box_rows)} breaks {bad[0]}")
        order = sorted(range(len(coords)), key=lambda i: offsets[i])
        return tma_sw, (inner, box_rows), [coords[i] for i in order], [offsets[i] for i in order]
    raise LayoutValueError(f"{who}: no TMA box of one swizzle row lands contiguously in the tile {tile}")


def _check_stages(who: str, arch: str, dtype: DType, stages: Any, tile_mn: int, tile_k: int) -> int:
    # Pre:  tile_mn, tile_k positive ints.  Post: stages a positive int whose tiles fit the 256 KiB window,
    #       and dtype exists on arch; otherwise LayoutValueError / SpecError (refused before any stage is laid out).
    bits = dtype.element_bits
    stages = check_count(_field(who, "stages"), "stages", stages, 1)
    if stages * tile_mn * tile_k * bits > SMEM_WINDOW_BYTES * 8:
        raise LayoutValueError(f"{_field(who, 'stages')}: {stages} stages of a {tile_mn}x{tile_k} {dtype.name} tile take "
                               f"{stages * tile_mn * tile_k * bits // 8} bytes, more than the {SMEM_WINDOW_BYTES}-byte "
                               "(256 KiB) shared-memory window (SMEM_WINDOW_BYTES)")
    if dtype.min_arch == "sm100" and arch != "sm100":
        raise SpecError(f"{_field(who, 'dtype')}: {dtype.name} operands exist only for tcgen05 (sm100), not {arch}")
    return stages


def _check_atom_tiles(who: str, atom: Any, major: str, mode: Any, dtype: DType, tile_mn: int, tile_k: int) -> None:
    # Pre:  atom the swizzle atom of (major, mode, dtype).  Post: the tile is a whole number of atoms.
    if tile_mn % atom.layout.shape[0] or tile_k % atom.layout.shape[1]:
        raise LayoutValueError(
            f"{_field(who, 'tile')}: the tile {tile_mn}x{tile_k} (MN x K) is not a multiple of the "
            f"{atom.layout.shape[0]}x{atom.layout.shape[1]} swizzle atom ({major}-major {mode} {dtype.name}: "
            f"{atom.layout})")


def _mma_extents(who: str, dtype: DType, tile_mn: int, tile_k: int, mma_mn: Any) -> tuple[int, int]:
    # Pre:  tile_mn, tile_k positive ints.  Post: (mma_mn, mma_k) in elements, each dividing the tile's extent;
    #       mma_mn defaults to the tile's MN.
    mma_k = MMA_K_BYTES * 8 // dtype.element_bits
    if tile_k % mma_k:
        raise LayoutValueError(f"{_field(who, 'tile')}: tile K = {tile_k} is not a multiple of one instruction's K ({mma_k} "
                               f"{dtype.name} = {MMA_K_BYTES} bytes)")
    mma_mn = tile_mn if mma_mn is None else check_count(_field(who, "mma_mn"), "mma_mn", mma_mn, 1)
    if tile_mn % mma_mn:
        raise LayoutValueError(f"{_field(who, 'mma_mn')}: mma_mn = {mma_mn} does not divide the tile's MN = {tile_mn}")
    return mma_mn, mma_k


def _stage_alignment(who: str, mode: Any, start: int, stages: int, stage_bytes: int, aligned: bool) -> int:
    # Pre:  start a byte address, stage_bytes the bytes of one stage.
    # Post: the stage alignment in bytes (the swizzle pattern boundary or TMA's, the larger); start (when
    #       ``aligned``) and every stage start sit on it.
    align = max(mode.pattern_boundary_bytes, _tma_alignment(mode))
    if aligned and start % align:
        raise LayoutValueError(f"{who}: start address {start:#x} is not a multiple of the stage alignment {align} "
                               f"B (the {mode} swizzle pattern boundary: base offset 0 then holds under every "
                               "reading of PTX's base-offset rule)")
    _check_row_start(who, start, mode, align)
    if stages > 1 and stage_bytes % align:
        raise LayoutValueError(f"{_field(who, 'tile')}: a stage of {stage_bytes} B is not a multiple of the {align}-byte stage "
                               "alignment, so stage 1 would start off the swizzle pattern boundary")
    return align


def _stage_descs(mod: Any, tile_c: SwizzledSmemLayout, major: str, bits: int, mma_mn: int, mma_k: int,
                 k_steps: int, stage_starts: tuple[int, ...], anchor: str, who: str) -> tuple[Any, tuple, list, list]:
    # Pre:  stage_starts the byte address of each stage.
    # Post: (stage 0's first descriptor, every stage's encoded descriptors, stage 0's K-step and MN-block offsets).
    per_stage = []
    offsets: list[int] = []
    mn_blocks: list[int] = []
    desc0 = None
    for s, st in enumerate(stage_starts):
        descs, offs, mnb = _descs_for(mod, tile_c, major, bits, mma_mn, mma_k, k_steps, st, anchor, who)
        if s == 0:
            desc0, offsets, mn_blocks = descs[0], offs, mnb
        per_stage.append(tuple(d.encode() for d in descs))
    return desc0, tuple(per_stage), offsets, mn_blocks


def _build(name: str, arch: str, dtype: DType, major: str, swizzle: Any, tile_mn: int, tile_k: int,
           stages: int, order: str, mma_mn: int | None, start: int, anchor: str, who: str,
           with_tma: bool = True, aligned: bool = True, staged: bool = True) -> OperandConstants:
    # Pre:  the spec's fields read (dtype, major, order, anchor); stages, tile, mma_mn, start as the user gave them.
    # Post: every constant of one operand (tile, descriptors per stage and K step, TMA plan);
    #       otherwise LayoutValueError / SpecError naming the field.
    mod = arch_module(arch)
    mode = swizzle_field(swizzle)
    bits = dtype.element_bits
    stages = _check_stages(who, arch, dtype, stages, tile_mn, tile_k)
    atom = mod.smem_atom(major, mode, bits)
    _check_atom_tiles(who, atom, major, mode, dtype, tile_mn, tile_k)
    o2 = (0, 1) if order == "mn_first" else (1, 0)
    tile = tile_to_shape(atom.layout, (tile_mn, tile_k), o2)
    full_shape = (tile_mn, tile_k, stages) if staged else (tile_mn, tile_k)
    full = tile_to_shape(atom.layout, full_shape, o2 + (2,) if staged else o2)
    tile_c = SwizzledSmemLayout(atom.byte_swizzle(), tile, bits)
    mma_mn, mma_k = _mma_extents(who, dtype, tile_mn, tile_k, mma_mn)
    stage_bytes = tile_mn * tile_k * bits // 8
    if int(tile.cosize()) * bits // 8 != stage_bytes:
        raise LayoutValueError(f"{who}: the tile {tile} is not compact")
    align = _stage_alignment(who, mode, start, stages, stage_bytes, aligned)
    stage_starts = tuple(start + s * stage_bytes for s in range(stages))
    desc0, per_stage, offsets, mn_blocks = _stage_descs(mod, tile_c, major, bits, mma_mn, mma_k, tile_k // mma_k,
                                                        stage_starts, anchor, who)
    first = flat_divide(tile, (mma_mn, mma_k))(_, _, 0, 0)
    canon, syms, note = canonical_match(arch, major, mode, bits, (mma_mn, mma_k), first, desc0)
    tma_sw = box = None
    coords: list = []
    tma_offs: list = []
    if with_tma:
        tma_sw, box, coords, tma_offs = _tma_plan(major, mode, dtype, bits, tile, tile_mn, tile_k, start,
                                                  atom.layout.shape[0 if major == "K" else 1], who)
    return OperandConstants(
        name=name, arch=arch, dtype=dtype, element_bits=bits, major=major, swizzle=mode, tile_mn=tile_mn,
        tile_k=tile_k, order=order, stages=stages, mma_mn=mma_mn, mma_k=mma_k, tile_layout=tile_c, atom=atom,
        cute_type=cute_layout_type(atom.swizzle, bits, full),
        cute_expr=_cute_expr(arch, major, mode, dtype, full_shape, order),
        descriptor=desc0, descs=per_stage, k_step_offsets_bytes=tuple(offsets),
        mn_block_offsets_bytes=tuple(mn_blocks), stage_bytes=stage_bytes, stage_alignment_bytes=align,
        stage_starts=stage_starts, canonical=canon, canonical_symbols=syms, canonical_note=note,
        swizzle_anchor=anchor, tma_swizzle=tma_sw, tma_box_dim=box, tma_copy_coords=tuple(coords),
        tma_copy_offsets_bytes=tuple(tma_offs))


def _field(who: str, sub: str) -> str:
    """``spec field 'A'`` + ``tile`` -> ``spec field 'A.tile'``; other callers: ``who: tile``."""
    if who.startswith("spec field '") and who.endswith("'"):
        return f"{who[:-1]}.{sub}'"
    return f"{who} ({sub})"


def _tma_alignment(mode: Any) -> int:
    return tma.swizzle_mode_info(mode.tma_swizzle).required_alignment_bytes


def _wrap(who: str, fn: Any, *args: Any, **kwargs: Any) -> Any:
    """Run ``fn``; re-raise a LayoutError with ``who`` in front (same class), so spec errors name the field."""
    try:
        return fn(*args, **kwargs)
    except LayoutError as e:
        msg = str(e).splitlines()[0] if str(e) else type(e).__name__
        if msg.startswith(who) or msg.startswith("spec field '"):
            raise
        err = type(e)(f"{who}: {msg}")
        raise err from None


def _check_tile_bytes(who: str, what: str, elems: int, element_bits: int) -> None:
    """Refuse a tile larger than the shared-memory window before anything is enumerated or allocated."""
    if elems * element_bits > SMEM_WINDOW_BYTES * 8:
        raise LayoutValueError(f"{who}: the {what} holds {elems * element_bits // 8} bytes, more than the "
                               f"{SMEM_WINDOW_BYTES}-byte (256 KiB) shared-memory window an operand lives in")


def describe_operand(arch: Any, major: Any, swizzle: Any, dtype: Any, tile: Any, start_address: int = 0, *,
                     order: str = "auto", stages: int = 1, mma_mn: int | None = None,
                     swizzle_anchor: str = "absolute", name: str = "X") -> OperandConstants:
    """The constants of one ``MN x K`` operand tile built from the swizzle atom (the ``desc`` command).

    Pre:  arch, major, swizzle, dtype and tile as in a spec operand; ``start_address`` 16-byte aligned.
    Post: the OperandConstants of that tile at ``start_address``; LayoutError subclasses naming the argument otherwise.

    ``tile`` is ``(MN, K)`` or ``"MNxK"``; see the module docstring for how the tile is built.

    >>> oc = describe_operand("sm90", "K", "128B", "bf16", "64x64", 0x400)
    >>> hex(oc.desc), [hex(v) for v in oc.descs[0]]
    ('0x4000004000010040', ['0x4000004000010040', '0x4000004000010042', '0x4000004000010044', '0x4000004000010046'])
    >>> oc.canonical
    'Sw<3,4,3> o smem_ptr[16b](unset) o ((8,8),(8,2)):((64,512),(1,8))'
    """
    who = "describe_operand"
    a = parse_arch(arch, "arch")
    dt = parse_dtype(dtype)
    mj = major.strip().upper() if isinstance(major, str) else major
    if not isinstance(mj, str) or mj not in ("K", "MN"):
        raise LayoutValueError(f"{who}: major must be 'K' or 'MN', got {fmt(major)}")
    mn, k = tile_field(tile, "tile")
    _check_tile_bytes(who, f"tile {mn}x{k}", mn * k, dt.element_bits)
    if not isinstance(order, str) or order not in ("auto", "mn_first", "k_first"):
        raise LayoutValueError(f"{who}: order must be 'auto', 'mn_first' or 'k_first', got {fmt(order)}")
    if order == "auto":
        order = "mn_first" if mj == "K" else "k_first"
    if not isinstance(swizzle_anchor, str) or swizzle_anchor not in ("absolute", "tile"):
        raise LayoutValueError(f"{who}: swizzle_anchor must be 'absolute' or 'tile', got {fmt(swizzle_anchor)}")
    start = _check_start(start_address, who)
    mode = swizzle_field(swizzle)
    with_tma = swizzle_anchor == "absolute" and start % _tma_alignment(mode) == 0
    return _build(name, a, dt, mj, mode, mn, k, stages, order, mma_mn, start, swizzle_anchor, who,
                  with_tma=with_tma, aligned=False, staged=stages > 1)


def describe_layout(layout: Any, arch: Any, major: Any, dtype: Any, start_address: int = 0, *,
                    swizzle_anchor: str = "absolute", name: str = "X", swizzle_unit: str = "elements") -> OperandConstants:
    """The constants of an operand given as a layout (CuTe notation parsed, CuTe's unit rule).

    Pre:  ``layout`` an operand tile of shape (MN, K) in elements: a Layout, ``Sw o k o L`` (the
          swizzle on element offsets, CuTe's meaning, unless ``swizzle_unit="bytes"``) or the pointer
          form ``Sw o smem_ptr[Nb](..) o L`` (the swizzle on byte addresses).
    Post: the OperandConstants of that tile; LayoutError subclasses naming the rule otherwise (an
          element-unit swizzle that is no atom on byte addresses: both forms named).

    The layout is the ``(MN, K)`` tile in elements; its K must be a multiple of one instruction's
    K (32 bytes); K step ``k`` is ``flat_divide(layout, (MN, K_instr))(_, _, 0, k)``.

    >>> from pycute_layouts import parse
    >>> oc = describe_layout(parse("Sw<2,3,3> o ((8,4,2),(8,2)):((1,8,256),(32,512))"), "sm90", "MN", "bf16")
    >>> oc.lbo_bytes, oc.sbo_bytes, oc.canonical
    (512, 1024, 'Sw<2,4,3> o smem_ptr[16b](unset) o ((8,4,2),(8,2)):((1,8,256),(32,512))')
    >>> oc.smem_layout_text, oc.smem_layout_element_text
    ('Sw<2,4,3> o smem_ptr[16b](unset) o ((8,4,2),(8,2)):((1,8,256),(32,512))', \
'Sw<2,3,3> o 0 o ((8,4,2),(8,2)):((1,8,256),(32,512))')
    """
    who = "describe_layout"
    a = parse_arch(arch, "arch")
    dt = parse_dtype(dtype)
    mj = major.strip().upper() if isinstance(major, str) else major
    if not isinstance(mj, str) or mj not in ("K", "MN"):
        raise LayoutValueError(f"{who}: major must be 'K' or 'MN', got {fmt(major)}")
    start = _check_start(start_address, who)
    bits = dt.element_bits
    check_swizzle_unit(swizzle_unit, who)
    tile_s, off = _tile_of(layout, bits, swizzle_unit, who)
    inner = tile_s.layout
    mn, k, mma_k = _operand_extents(who, inner, dt)
    mod = arch_module(a)
    _check_injective_tile(who, inner, mn)
    try:
        tile_mode = SwizzleMode.from_swizzle(tile_s.swizzle)
    except LayoutError:
        tile_mode = None  # no atom: _descs_for refuses it naming the rule
    if tile_mode is not None:
        _check_row_start(who, start + tile_s.base_address, tile_mode,
                         max(tile_mode.pattern_boundary_bytes, _tma_alignment(tile_mode)))
    descs, offsets, mnb = _descs_for(mod, tile_s, mj, bits, mn, mma_k, k // mma_k, start, swizzle_anchor, who, off)
    d0 = descs[0]
    first = flat_divide(inner, (mn, mma_k))(_, _, 0, 0)
    canon, syms, note = canonical_match(a, mj, d0.swizzle, bits, (mn, mma_k), first, d0)
    sw = tile_s.swizzle
    cute_t = cute_layout_type(sw, bits, inner) if isinstance(sw, Swizzle) and off == 0 else None
    return OperandConstants(
        name=name, arch=a, dtype=dt, element_bits=bits, major=mj, swizzle=d0.swizzle, tile_mn=mn, tile_k=k,
        order=None, stages=1, mma_mn=mn, mma_k=mma_k, tile_layout=tile_s, atom=None, cute_type=cute_t, cute_expr=None,
        descriptor=d0, descs=(tuple(d.encode() for d in descs),), k_step_offsets_bytes=tuple(offsets),
        mn_block_offsets_bytes=tuple(mnb), stage_bytes=int(inner.cosize()) * bits // 8,
        stage_alignment_bytes=max(d0.swizzle.pattern_boundary_bytes, 16), stage_starts=(start,),
        canonical=canon, canonical_symbols=syms, canonical_note=note, swizzle_anchor=swizzle_anchor)


def _operand_extents(who: str, inner: Layout, dt: DType) -> tuple[int, int, int]:
    # Pre:  inner the operand's element layout.
    # Post: (MN, K, one instruction's K) in elements: inner bound, of rank 2, within the tile size limit, its K a
    #       multiple of 32 bytes; otherwise LayoutValueError.
    bits = dt.element_bits
    if inner.is_symbolic():
        raise LayoutValueError(f"{who}: the layout {inner} has unbound symbols; bind them (-D NAME=VALUE)")
    if inner.rank() != 2:
        raise LayoutValueError(f"{who}: an operand layout has two modes (MN, K); {inner} has rank {inner.rank()}")
    mn = int(np.prod(flatten(inner.shape[0]))) if isinstance(inner.shape[0], tuple) else int(inner.shape[0])
    k = int(np.prod(flatten(inner.shape[1]))) if isinstance(inner.shape[1], tuple) else int(inner.shape[1])
    _check_tile_bytes(who, f"layout {inner}", inner.size(), bits)
    mma_k = MMA_K_BYTES * 8 // bits
    if k % mma_k:
        raise LayoutValueError(f"{who}: the layout's K = {k} {dt.name} is not a multiple of one instruction's K "
                               f"({mma_k} = {MMA_K_BYTES} bytes)")
    return mn, k, mma_k


def _check_injective_tile(who: str, inner: Layout, mn: int) -> None:
    # Pre:  inner a bound rank-2 layout with MN extent mn.  Post: no two coordinates hold one element offset;
    #       otherwise DescriptorError names two such coordinates (mn, k).
    offs = np.asarray(inner.to_numpy(), dtype=np.int64)
    uniq = np.unique(offs)
    if len(uniq) != len(offs):
        dup = int(np.flatnonzero(np.bincount(np.searchsorted(uniq, offs)) > 1)[0])
        i0, i1 = np.flatnonzero(offs == uniq[dup])[:2]
        raise DescriptorError(f"{who}: the layout {inner} is not injective: coordinates (mn, k) = "
                              f"{(int(i0) % mn, int(i0) // mn)} and {(int(i1) % mn, int(i1) // mn)} both hold element "
                              f"offset {int(uniq[dup])}")


def _check_row_start(who: str, start: int, mode: SwizzleMode, align: int) -> None:
    """LayoutValueError unless ``start`` is on a swizzle row of ``mode`` (16 bytes when unswizzled)."""
    row = mode.width_bytes if mode.is_swizzled else 16
    if start % row:
        raise LayoutValueError(f"{who}: start address {start:#x} is not aligned to {row} bytes: each row of the "
                               f"{mode} swizzle atom is one {row}-byte swizzle row, so the tile must start on a "
                               f"multiple of {row} B (e.g. {start - start % row:#x} or {start - start % row + row:#x}; a "
                               f"multiple of {align} B, the pattern boundary, also gives base offset 0)")


def _tile_of(layout: Any, bits: int, swizzle_unit: Any, who: str) -> tuple[SwizzledSmemLayout, int]:
    """(the tile with its swizzle on byte addresses, its offset in elements), by CuTe's unit rule."""
    off = 0
    if isinstance(layout, ComposedLayout):
        off = layout.offset
        if isinstance(off, bool) or not isinstance(off, (int, np.integer)):
            raise LayoutValueError(f"{who}: the layout's offset {off} is symbolic; bind it")
        off = int(off)
        if not isinstance(layout.outer, (Swizzle, XorSwizzle)) or not isinstance(layout.inner, Layout):
            raise LayoutValueError(f"{who}: expected a Layout or a swizzle o offset o Layout, got {fmt(layout)}")
        body = ComposedLayout(layout.outer, 0, layout.inner)
    elif isinstance(layout, (Layout, SwizzledSmemLayout)):
        body = layout
    else:
        raise LayoutValueError(f"{who}: expected a Layout or a swizzle o offset o Layout, got {fmt(layout)}")
    s = smem_layout_of(body, bits, swizzle_unit=swizzle_unit, who=who)
    try:
        sw = s.byte_swizzle()
        if s.swizzle_unit == "elements":
            SwizzleMode.from_swizzle(sw)
    except LayoutError:
        raise DescriptorError(f"{who}: " + element_unit_note(
            layout, bits, "which is no swizzle atom (atoms on byte addresses: Sw<1,4,3> 32B, Sw<2,4,3> 64B, "
            "Sw<3,4,3> 128B, Sw<2,5,2> 128B_base32B)", SwizzleMode.from_swizzle)) from None
    base = off * bits // 8 if (off * bits) % 8 == 0 and off >= 0 else 0
    return SwizzledSmemLayout(sw, s.layout, bits, "bytes", base_address=s.base_address + base), off


# --------------------------------------------------------------------------------------------------
# Kernel constants
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class KernelConstants:
    """The constants of a whole spec: one :class:`OperandConstants` per operand, plus the layout of smem.

    >>> from pycute_layouts.codegen import kernel_constants, parse_spec
    >>> kc = kernel_constants(parse_spec({"kernel": "k", "arch": "sm90", "A": {"tile": "64x64", "dtype": "bf16",
    ...                                   "major": "K", "swizzle": "128B", "stages": 3}}))
    >>> kc.smem_bytes, kc.operand("A").stage_starts
    (24576, (0, 8192, 16384))
    """

    spec: KernelSpec
    operands: tuple[OperandConstants, ...]
    version: str
    instr_desc: Any = None  # sm100 with A and B: the umma.InstrDescriptor (None: see instr_desc_note)
    instr_desc_note: str = ""

    def __post_init__(self) -> None:
        check_fields(self)

    @property
    def kernel(self) -> str:
        """The kernel name (C++ namespace)."""
        return self.spec.kernel

    @property
    def arch(self) -> str:
        """``sm90`` or ``sm100``."""
        return self.spec.arch

    @property
    def smem_bytes(self) -> int:
        """Bytes from ``smem_base`` to the end of the last stage."""
        end = max(o.stage_starts[-1] + o.stage_bytes for o in self.operands)
        return end - self.spec.smem_base

    def operand(self, name: str) -> OperandConstants:
        """The operand called ``name`` ("A" or "B")."""
        check_type("KernelConstants.operand", "name", name, str, LayoutValueError)
        for o in self.operands:
            if o.name == name:
                return o
        raise LayoutValueError(f"KernelConstants.operand: no operand {fmt(name)} (have "
                               f"{', '.join(o.name for o in self.operands)})")

    def to_dict(self) -> dict:
        """Plain data (what :func:`emit_json` writes).

        >>> from pycute_layouts.codegen import kernel_constants, parse_spec
        >>> sorted(kernel_constants(parse_spec({"kernel": "k", "arch": "sm90", "A": {"tile": "64x64",
        ...        "dtype": "bf16", "major": "K", "swizzle": "128B"}})).to_dict())
        ['arch', 'generator', 'kernel', 'operands', 'schema', 'smem_base', 'smem_bytes', 'spec']
        """
        return {"schema": SCHEMA, "generator": f"pycute_layouts {self.version}", "kernel": self.kernel,
                "arch": self.arch, "spec": self.spec.to_dict(), "smem_base": self.spec.smem_base,
                "smem_bytes": self.smem_bytes, "operands": {o.name: o.to_dict() for o in self.operands},
                **_instr_desc_dict(self)}


def kernel_constants(spec: KernelSpec) -> KernelConstants:
    """Derive every operand's constants; stages are placed from ``smem_base`` in spec order (A, then B).

    Pre:  ``spec`` a KernelSpec (parse_spec / load_spec).
    Post: KernelConstants whose operands' stages fit the 256 KiB window without overlapping; SpecError or
          DescriptorError naming the spec field otherwise.

    Each operand starts at its ``start_address`` or at the first address after the previous
    operand that is a multiple of its stage alignment. Errors name the spec field.

    >>> from pycute_layouts.codegen import kernel_constants, parse_spec
    >>> spec = parse_spec({"kernel": "k", "arch": "sm90", "A": {"tile": "64x64", "dtype": "tf32", "major": "MN",
    ...                    "swizzle": "128B"}})
    >>> kernel_constants(spec)
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.DescriptorError: spec field 'A' (tf32, MN-major, 128B swizzle, sm90): wgmma.make_smem_desc: ...
    """
    if not isinstance(spec, KernelSpec):
        raise SpecError(f"kernel_constants: expected a KernelSpec (see parse_spec), got {type(spec).__name__}")
    cursor = spec.smem_base
    out = []
    for op in spec.operands:
        who = f"spec field '{op.name}'"
        mode = op.swizzle
        start = _operand_start(op, cursor)
        ctx = f"{who} ({op.dtype.name}, {op.major}-major, {mode} swizzle, {spec.arch})"
        try:
            mma_mn = _mma_mn(spec, op)
        except SpecError:
            if op.mma_mn is None:  # a tile the swizzle atom does not divide: say that first
                _wrap(ctx, _build, op.name, spec.arch, op.dtype, op.major, mode, op.tile_mn, op.tile_k, 1,
                      op.order, op.tile_mn, start, "absolute", who, with_tma=False, staged=False)
            raise
        oc = _wrap(ctx, _build, op.name, spec.arch, op.dtype, op.major, mode, op.tile_mn, op.tile_k, op.stages,
                   op.order, mma_mn, start, "absolute", who)
        end = oc.stage_starts[-1] + oc.stage_bytes
        if end > SMEM_WINDOW_BYTES:
            raise SpecError(f"spec field '{op.name}.stages': the stages end at byte {end:#x}, beyond the 256 KiB "
                            "window a descriptor start address can name")
        cursor = max(cursor, end)
        out.append(oc)
    _check_no_overlap(out)
    idesc, note = _instr_desc(spec, out)
    return KernelConstants(spec, tuple(out), __version__, idesc, note)


def _operand_start(op: Any, cursor: int) -> int:
    # Pre:  op an operand spec; cursor the first byte after the operands placed before it.
    # Post: its first stage's byte address: op.start_address, or cursor rounded up to the stage alignment; its
    #       stages end inside the 256 KiB window. Otherwise SpecError naming the field.
    mode = op.swizzle
    align = max(mode.pattern_boundary_bytes, _tma_alignment(mode))
    if op.start_address is None:
        start = -(-cursor // align) * align
    else:
        start = op.start_address
        if start % align:
            raise SpecError(f"spec field '{op.name}.start_address': {start:#x} is not a multiple of the "
                            f"{align}-byte stage alignment of the {mode} swizzle")
    end = start + op.stages * op.tile_mn * op.tile_k * op.dtype.element_bits // 8
    if end > SMEM_WINDOW_BYTES:
        raise SpecError(f"spec field '{op.name}.stages': {op.stages} stages of {op.tile_mn}x{op.tile_k} "
                        f"{op.dtype.name} from {start:#x} end at byte {end:#x}, beyond the 256 KiB window a "
                        "descriptor start address can name")
    return start


def _check_no_overlap(out: list) -> None:
    # Pre:  out the operands' constants, in spec order.  Post: no two operands' stages share a byte; otherwise
    #       SpecError names the later operand's start_address.
    for i, a in enumerate(out):
        for b in out[i + 1:]:
            a0, a1 = a.stage_starts[0], a.stage_starts[-1] + a.stage_bytes
            b0, b1 = b.stage_starts[0], b.stage_starts[-1] + b.stage_bytes
            if a0 < b1 and b0 < a1:
                raise SpecError(f"spec field '{b.name}.start_address': operand {b.name} [{b0:#x}, {b1:#x}) overlaps "
                                f"operand {a.name} [{a0:#x}, {a1:#x})")


def _cta_group(spec: KernelSpec) -> int:
    """The spec's tcgen05 cta_group: ``mma.cta_group``, else 2 when ``mma.m`` is 256, else 1 (sm90: 1)."""
    mma = spec.mma or {}
    if "cta_group" in mma:
        cg = mma["cta_group"]
        if isinstance(cg, bool) or cg not in (1, 2):
            raise SpecError(f"spec field 'mma.cta_group': must be 1 or 2, got {fmt(cg)}"[:200])
        return cg
    return 2 if mma.get("m") == 256 else 1


def _mma_mn(spec: KernelSpec, op: Any) -> int:
    """Rows of ``op`` one instruction reads: ``op.mma_mn`` if given (checked against the instruction shapes),
    else the spec's ``mma.m`` / ``mma.n`` per CTA, else what the hardware issues for the tile
    (:func:`~pycute_layouts.arch.instruction.instruction_mn`: sm90 A 64, B up to 256; sm100 by cta_group)."""
    cg = _cta_group(spec)
    name = op.name if op.name in ("A", "B") else "A"
    field = f"spec field '{op.name}.{'tile' if op.mma_mn is None else 'mma_mn'}'"
    try:
        if op.mma_mn is not None:
            check_instruction_mn(spec.arch, name, op.mma_mn, op.tile_mn, cg)
            return op.mma_mn
        given = (spec.mma or {}).get("m" if name == "A" else "n")
        if isinstance(given, int) and not isinstance(given, bool) and given % cg == 0 and op.tile_mn % (given // cg) == 0:
            return given // cg
        return instruction_mn(spec.arch, name, op.tile_mn, cg)[0]
    except DescriptorError as e:
        raise SpecError(f"{field}: {e}".replace("instruction_mn: ", "")) from None


def _instr_desc_dict(kc: KernelConstants) -> dict:
    d = kc.instr_desc
    if d is None:
        return {"instr_desc": None} if kc.arch == "sm100" else {}
    return {"instr_desc": {"value": d.encode(), "hex": f"{d.encode():#010x}", "kind": d.kind, "cta_group": d.cta_group,
                           "fields": {name: value for name, _bits, value, _ in d.fields()}}}


def _instr_desc(spec: KernelSpec, ops: list[OperandConstants]) -> tuple[Any, str]:
    """The tcgen05 instruction descriptor of an sm100 spec with A and B (settings from its ``mma`` table)."""
    if spec.arch != "sm100" or len(ops) != 2:
        return None, ""
    a, b = ops
    cg = _cta_group(spec)
    settings = {"cta_group": cg, **(spec.mma or {})} if cg == 2 else spec.mma
    try:  # M and N of the instruction: the rows each CTA reads, times the CTAs of the group
        d = umma.instr_desc_for_operands(a.dtype.name, b.dtype.name, a.major, b.major, a.mma_mn * cg, b.mma_mn * cg,
                                         settings)
    except DescriptorError as e:
        if spec.mma is not None:
            raise SpecError(f"spec field 'mma': {e}") from None
        return None, f"no instruction descriptor for the default settings ({e}); add an 'mma' table to the spec"
    for key, op, dim in (("m", a, "M"), ("n", b, "N")):  # an instruction shape the operands' rows do not fill
        given = (spec.mma or {}).get(key)
        if given is not None and given != op.mma_mn * cg:
            per_cta = given // cg if given % cg == 0 else given / cg
            raise SpecError(f"spec field 'mma.{key}': {dim} = {given} with cta_group {cg} reads {per_cta} rows of "
                            f"{op.name} per CTA, but {op.name}.mma_mn is {op.mma_mn} (one of them is wrong)")
    return d, ""




def spec_comment(kc: KernelConstants, prefix: str) -> list[str]:
    """The two generated-file comment lines (generator, spec as JSON), each starting with ``prefix``.

    >>> from pycute_layouts.codegen import parse_spec
    >>> op = {"tile": "64x64", "dtype": "bf16", "major": "K", "swizzle": "128B"}
    >>> kc = kernel_constants(parse_spec({"kernel": "gemm", "arch": "sm90", "A": op, "B": op}))
    >>> [line.split(" ")[:3] for line in spec_comment(kc, "#")]
    [['#', 'Generated', 'by'], ['#', 'spec:', '{"A":']]
    """
    check_type("spec_comment", "kc", kc, KernelConstants)
    check_type("spec_comment", "prefix", prefix, str)
    text = json.dumps(kc.spec.to_dict(), sort_keys=True)
    return [f"{prefix} Generated by pycute_layouts {kc.version} (pycute_layouts.codegen); do not edit.",
            f"{prefix} spec: {text}"]
