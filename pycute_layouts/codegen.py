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
and ``mma_mn`` = the tile's MN unless the spec says otherwise. K step ``k`` is the slice
``flat_divide(tile, (mma_mn, K_instr))(_, _, 0, k)``; its descriptor is the step-0 descriptor with
the start address advanced by the slice's unswizzled byte offset (checked by
:meth:`SmemDescriptor.advance`, which rejects steps the hardware would read wrongly). Kernels add
``offset >> 4`` to the descriptor's low 14 bits (DeepGEMM's ``desc.lo += 2`` for 32-byte steps).

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
Sw<3,4,3> o 0 o ((8,16),(64,1)):((64,512),(1,0))
>>> a.cute_type.startswith("cute::ComposedLayout<cute::Swizzle<3,4,3>, cute::smem_ptr_flag_bits<16>, cute::Layout<")
True
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from .arch import umma_idesc
from .composed import ComposedLayout, SwizzledSmemLayout
from .errors import DescriptorError, LayoutError, LayoutValueError
from .inttuple import flatten
from .layout import Layout, _, flat_divide, tile_to_shape
from .swizzle import Swizzle

__all__ = [
    "DTYPES",
    "DType",
    "KernelConstants",
    "KernelSpec",
    "MMA_K_BYTES",
    "OperandConstants",
    "OperandSpec",
    "SpecError",
    "canonical_match",
    "cute_layout_type",
    "describe_layout",
    "describe_operand",
    "emit_header",
    "emit_json",
    "emit_python",
    "kernel_constants",
    "load_spec",
    "parse_dtype",
    "parse_spec",
]

#: K bytes one dense ``wgmma.mma_async`` / ``tcgen05.mma`` reads per operand (PTX: K = 16 f16/bf16,
#: 8 tf32, 32 8-bit); the arch modules check it again in ``make_smem_desc``.
MMA_K_BYTES = 32

SCHEMA = "pycute_layouts.codegen/1"


class SpecError(LayoutValueError):
    """A codegen spec is malformed; the message starts with the offending field (``spec field 'A.dtype'``).

    >>> issubclass(SpecError, LayoutError)
    True
    """


# --------------------------------------------------------------------------------------------------
# Element types (vocabulary: name -> width, CuTe type, CUtensorMapDataType)
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DType:
    """An operand element type: its width, CuTe C++ value type and TMA ``CUtensorMapDataType`` member.

    >>> parse_dtype("fp8").cute_type, parse_dtype("BF16").element_bits
    ('cute::float_e4m3_t', 16)
    """

    name: str
    element_bits: int
    cute_type: str
    tma_data_type: str
    gmem_bits: int | None = None  # bits per element in global memory when smem pads them (e2m3: 6)
    min_arch: str = "sm90"


#: The element types a spec may name (aliases in :data:`_DTYPE_ALIASES`).
DTYPES: dict[str, DType] = {
    "f16": DType("f16", 16, "cute::half_t", "FLOAT16"),
    "bf16": DType("bf16", 16, "cute::bfloat16_t", "BFLOAT16"),
    "tf32": DType("tf32", 32, "cute::tfloat32_t", "TFLOAT32"),
    "e4m3": DType("e4m3", 8, "cute::float_e4m3_t", "UINT8"),
    "e5m2": DType("e5m2", 8, "cute::float_e5m2_t", "UINT8"),
    "s8": DType("s8", 8, "int8_t", "UINT8"),
    "u8": DType("u8", 8, "uint8_t", "UINT8"),
    # sm100 narrow types: packed e2m1 (kind::mxf4/mxf4nvf4, K-major) and the 16-byte padded forms of
    # kind::f8f6f4/mxf8f6f4 (.b4x16_p64, .b6x16_p32: 16 elements per 16 bytes, the geometry of 8-bit elements;
    # their CuTe smem layouts use uint8_t, CUTLASS's ElementAMma_SmemAllocType: CuTe's *_unpacksmem_t types
    # report sizeof_bits 4 and 6, for which the UMMA atoms do not divide)
    "e2m1": DType("e2m1", 4, "cute::float_e2m1_t", "16U4_ALIGN8B", min_arch="sm100"),
    "e2m1_p64": DType("e2m1_p64", 8, "uint8_t", "16U4_ALIGN16B", 4, "sm100"),
    "e2m3": DType("e2m3", 8, "uint8_t", "16U6_ALIGN16B", 6, "sm100"),
    "e3m2": DType("e3m2", 8, "uint8_t", "16U6_ALIGN16B", 6, "sm100"),
}

_DTYPE_ALIASES = {
    "fp16": "f16", "half": "f16", "float16": "f16", "half_t": "f16",
    "bfloat16": "bf16", "bfloat16_t": "bf16",
    "tfloat32": "tf32", "tfloat32_t": "tf32",
    "fp8": "e4m3", "fp8_e4m3": "e4m3", "float_e4m3": "e4m3", "e4m3fn": "e4m3",
    "fp8_e5m2": "e5m2", "float_e5m2": "e5m2",
    "int8": "s8", "i8": "s8", "uint8": "u8",
    "fp4": "e2m1", "float_e2m1": "e2m1", "e2m1_padded": "e2m1_p64", "fp6_e2m3": "e2m3", "fp6_e3m2": "e3m2",
}


def parse_dtype(name: Any) -> DType:
    """The :class:`DType` named by ``name`` (case-insensitive; aliases such as ``fp8``, ``half``).

    >>> parse_dtype("half").name
    'f16'
    >>> parse_dtype("fp32")
    Traceback (most recent call last):
    ...
    pycute_layouts.codegen.SpecError: unknown dtype 'fp32' (allowed: f16, bf16, tf32, e4m3, e5m2, s8, u8, e2m1, ...
    """
    if isinstance(name, DType):
        return name
    if isinstance(name, str):
        key = name.strip().lower()
        key = _DTYPE_ALIASES.get(key, key)
        if key in DTYPES:
            return DTYPES[key]
    raise SpecError(f"unknown dtype {name!r} (allowed: {', '.join(DTYPES)}; aliases: "
                    f"{', '.join(sorted(_DTYPE_ALIASES))}); fp32 operands are read as tf32")


# --------------------------------------------------------------------------------------------------
# Architectures
# --------------------------------------------------------------------------------------------------

_ARCH_NAMES = {"sm90": "sm90", "sm90a": "sm90", "sm_90": "sm90", "sm_90a": "sm90", "hopper": "sm90",
               "sm100": "sm100", "sm100a": "sm100", "sm_100": "sm100", "sm_100a": "sm100", "blackwell": "sm100"}


def _parse_arch(arch: Any, field: str = "arch") -> str:
    if isinstance(arch, str) and arch.strip().lower() in _ARCH_NAMES:
        return _ARCH_NAMES[arch.strip().lower()]
    raise SpecError(f"spec field '{field}': unknown arch {arch!r} (allowed: sm90 (wgmma), sm100 (tcgen05))")


def _arch_module(arch: str) -> Any:
    from .arch import umma, wgmma

    return wgmma if arch == "sm90" else umma


_CUTE_ATOM_NAME = {"none": "INTER", "32B": "SW32", "64B": "SW64", "128B": "SW128", "128B_base32B": "SW128_32B"}


# --------------------------------------------------------------------------------------------------
# The spec
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class OperandSpec:
    """One shared-memory operand of the spec (A or B): an ``MN x K`` tile, element type, major, swizzle.

    ``order`` is ``"mn_first"`` or ``"k_first"`` (see the module docstring; :func:`parse_spec`
    resolves ``"auto"``); ``mma_mn`` the MN extent one instruction reads (default: the tile's);
    ``start_address`` the byte address of stage 0 (default: placed after the previous operand).

    >>> OperandSpec("A", 128, 64, parse_dtype("bf16"), "K", _mode("128B"), 4).order
    'mn_first'
    """

    name: str
    tile_mn: int
    tile_k: int
    dtype: DType
    major: str
    swizzle: Any
    stages: int = 1
    order: str = "auto"
    mma_mn: int | None = None
    start_address: int | None = None

    def __post_init__(self) -> None:
        if self.order == "auto":
            object.__setattr__(self, "order", "mn_first" if self.major == "K" else "k_first")

    def to_dict(self) -> dict:
        """The spec entry as plain data (the normalized form the header comment records).

        >>> OperandSpec("A", 64, 64, parse_dtype("bf16"), "K", _mode("128B")).to_dict()["tile"]
        [64, 64]
        """
        d: dict[str, Any] = {"tile": [self.tile_mn, self.tile_k], "dtype": self.dtype.name, "major": self.major,
                             "swizzle": str(self.swizzle), "stages": self.stages, "order": self.order}
        if self.mma_mn is not None:
            d["mma_mn"] = self.mma_mn
        if self.start_address is not None:
            d["start_address"] = self.start_address
        return d


@dataclass(frozen=True)
class KernelSpec:
    """A parsed spec: kernel name (a C++ identifier), arch, operands, shared-memory base address.

    >>> KernelSpec("k", "sm90", ()).smem_base
    0
    """

    kernel: str
    arch: str
    operands: tuple[OperandSpec, ...]
    smem_base: int = 0
    mma: dict | None = None  # sm100: instruction-descriptor settings (umma_idesc.instr_desc_for_operands)

    def to_dict(self) -> dict:
        """The normalized spec as plain data (sorted, defaults filled in).

        >>> KernelSpec("k", "sm90", ()).to_dict()
        {'kernel': 'k', 'arch': 'sm90', 'smem_base': 0}
        """
        d: dict[str, Any] = {"kernel": self.kernel, "arch": self.arch, "smem_base": self.smem_base}
        if self.mma is not None:
            d["mma"] = dict(self.mma)
        for op in self.operands:
            d[op.name] = op.to_dict()
        return d


def _mode(value: Any, field: str = "swizzle") -> Any:
    from .arch.swizzle_modes import SwizzleMode

    try:
        return SwizzleMode.parse(value)
    except LayoutError as e:
        raise SpecError(f"spec field '{field}': {e}") from None


_CXX_KEYWORDS = frozenset(
    "alignas alignof and asm auto bool break case catch char class const constexpr continue decltype default "
    "delete do double else enum explicit export extern false float for friend goto if inline int long mutable "
    "namespace new noexcept not nullptr operator or private protected public register return short signed "
    "sizeof static struct switch template this throw true try typedef typeid typename union unsigned using "
    "virtual void volatile while std cute".split())

_OPERAND_KEYS = ("tile", "dtype", "major", "swizzle", "stages", "order", "mma_mn", "start_address")
_TOP_KEYS = ("kernel", "arch", "smem_base", "mma", "A", "B")


def _int_field(value: Any, field: str, lo: int | None = None) -> int:
    if isinstance(value, str):
        try:
            value = int(value.strip(), 0)
        except ValueError:
            raise SpecError(f"spec field '{field}': expected an integer (decimal or 0x hex), got {value!r}") from None
    if isinstance(value, bool) or not isinstance(value, int):
        raise SpecError(f"spec field '{field}': expected an integer, got {value!r}")
    if lo is not None and value < lo:
        raise SpecError(f"spec field '{field}': must be >= {lo}, got {value}")
    return value


def _tile_field(value: Any, field: str) -> tuple[int, int]:
    if isinstance(value, str):
        m = re.fullmatch(r"\s*(\w+)\s*[xX*,]\s*(\w+)\s*", value)
        if not m:
            raise SpecError(f"spec field '{field}': expected 'MNxK' such as '128x64', got {value!r}")
        parts: Any = m.groups()
    elif isinstance(value, (list, tuple)):
        parts = value
    else:
        raise SpecError(f"spec field '{field}': expected 'MNxK' or [MN, K], got {value!r}")
    if len(parts) != 2:
        raise SpecError(f"spec field '{field}': expected two extents (MN, K), got {value!r}")
    return _int_field(parts[0], f"{field}[0] (MN)", 1), _int_field(parts[1], f"{field}[1] (K)", 1)


def _parse_operand(name: str, d: Any) -> OperandSpec:
    if not isinstance(d, Mapping):
        raise SpecError(f"spec field '{name}': expected a table with {', '.join(_OPERAND_KEYS)}, got {d!r}")
    unknown = sorted(set(d) - set(_OPERAND_KEYS))
    if unknown:
        raise SpecError(f"spec field '{name}.{unknown[0]}': unknown field (allowed: {', '.join(_OPERAND_KEYS)})")
    for req in ("tile", "dtype", "major", "swizzle"):
        if req not in d:
            raise SpecError(f"spec field '{name}.{req}': missing (required: tile, dtype, major, swizzle)")
    mn, k = _tile_field(d["tile"], f"{name}.tile")
    try:
        dtype = parse_dtype(d["dtype"])
    except SpecError as e:
        raise SpecError(f"spec field '{name}.dtype': {e}") from None
    major = d["major"]
    if not (isinstance(major, str) and major.strip().upper() in ("K", "MN", "M", "N")):
        raise SpecError(f"spec field '{name}.major': expected 'K' or 'MN' (the contiguous dimension), got {major!r}")
    major = "K" if major.strip().upper() == "K" else "MN"
    swizzle = _mode(d["swizzle"], f"{name}.swizzle")
    stages = _int_field(d.get("stages", 1), f"{name}.stages", 1)
    order = d.get("order", "auto")
    if order not in ("auto", "mn_first", "k_first"):
        raise SpecError(f"spec field '{name}.order': expected 'auto', 'mn_first' or 'k_first', got {order!r}")
    mma_mn = None if d.get("mma_mn") is None else _int_field(d["mma_mn"], f"{name}.mma_mn", 1)
    start = None if d.get("start_address") is None else _int_field(d["start_address"], f"{name}.start_address", 0)
    return OperandSpec(name, mn, k, dtype, major, swizzle, stages, order, mma_mn, start)


def parse_spec(data: Any) -> KernelSpec:
    """Check and normalize a spec given as a dict (the parsed TOML or JSON; see docs/codegen.md).

    Fields: ``kernel`` (C++ identifier), ``arch`` (``sm90`` or ``sm100``), optional ``smem_base``
    (byte address of the first stage, default 0), and tables ``A`` and ``B`` with ``tile``
    (``"MNxK"`` or ``[MN, K]``, elements), ``dtype``, ``major`` (``K``/``MN``), ``swizzle``
    (``none``/``32B``/``64B``/``128B``/``128B_base32B``), optional ``stages`` (1), ``order``,
    ``mma_mn``, ``start_address``. Errors raise :class:`SpecError` naming the field.

    >>> parse_spec({"kernel": "k", "arch": "sm90", "A": {"tile": "64x64", "dtype": "bf16", "major": "K",
    ...             "swizzle": "128B"}}).operands[0].tile_mn
    64
    >>> parse_spec({"kernel": "k", "arch": "sm90", "A": {"tile": "64x64", "dtype": "bf16", "major": "K"}})
    Traceback (most recent call last):
    ...
    pycute_layouts.codegen.SpecError: spec field 'A.swizzle': missing (required: tile, dtype, major, swizzle)
    """
    if not isinstance(data, Mapping):
        raise SpecError(f"spec: expected a table (TOML) or object (JSON) at the top level, got {type(data).__name__}")
    unknown = sorted(set(data) - set(_TOP_KEYS))
    if unknown:
        raise SpecError(f"spec field '{unknown[0]}': unknown field (allowed: {', '.join(_TOP_KEYS)})")
    if "kernel" not in data:
        raise SpecError("spec field 'kernel': missing (a C++ identifier naming the kernel's namespace)")
    kernel = data["kernel"]
    if not isinstance(kernel, str) or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", kernel) \
            or kernel in _CXX_KEYWORDS:
        raise SpecError(f"spec field 'kernel': {kernel!r} is not a usable C++ identifier (letters, digits, _; not "
                        "a keyword)")
    if "arch" not in data:
        raise SpecError("spec field 'arch': missing (sm90 or sm100)")
    arch = _parse_arch(data["arch"])
    smem_base = _int_field(data.get("smem_base", 0), "smem_base", 0)
    ops = tuple(_parse_operand(n, data[n]) for n in ("A", "B") if n in data)
    if not ops:
        raise SpecError("spec field 'A': missing (the spec needs operand tables A and/or B)")
    mma = data.get("mma")
    if mma is not None and (not isinstance(mma, Mapping) or arch != "sm100" or len(ops) != 2):
        raise SpecError("spec field 'mma': a table of tcgen05 instruction-descriptor settings, for sm100 specs with "
                        f"operands A and B (got {mma!r} for {arch} with {len(ops)} operand(s))")
    return KernelSpec(kernel, arch, ops, smem_base, None if mma is None else dict(mma))


def load_spec(source: Any = None, fmt: str | None = None, *, text: str | None = None) -> KernelSpec:
    """Read a spec from a TOML or JSON file and :func:`parse_spec` it.

    ``source`` is a path; ``fmt`` (``"toml"``/``"json"``) defaults to the suffix (``.json`` is
    JSON, anything else TOML unless it starts with ``{``). Pass ``text=`` instead of a path to
    parse a string. TOML needs Python 3.11's ``tomllib`` or the ``tomli`` package.

    >>> load_spec(text='kernel = "k"\\narch = "sm90"\\n[A]\\ntile = "64x64"\\ndtype = "bf16"\\nmajor = "K"\\n'
    ...                'swizzle = "128B"\\n').operands[0].swizzle
    <SwizzleMode.B128: 3>
    >>> load_spec(text='{"kernel": "k", "arch": "sm90", "A": {"tile": [64, 64], "dtype": "bf16", "major": "K",'
    ...                ' "swizzle": "none"}}').operands[0].tile_k
    64
    """
    if text is None:
        if source is None:
            raise SpecError("spec: pass a path or text=")
        path = Path(source)
        try:
            text = path.read_text()
        except OSError as e:
            raise SpecError(f"spec: cannot read {str(source)!r}: {e.strerror or e}") from None
        suffix = path.suffix.lower()
        if fmt is None and suffix in (".json", ".toml"):
            fmt = suffix[1:]
    if fmt is None:
        fmt = "json" if text.lstrip().startswith("{") else "toml"
    if fmt == "json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise SpecError(f"spec: invalid JSON at line {e.lineno} column {e.colno}: {e.msg}") from None
    elif fmt == "toml":
        try:
            import tomllib as toml_mod  # type: ignore[import-not-found]
        except ModuleNotFoundError:  # pragma: no cover - Python 3.10
            try:
                import tomli as toml_mod  # type: ignore[import-not-found,no-redef]
            except ModuleNotFoundError:
                raise SpecError("spec: reading TOML needs Python >= 3.11 (tomllib) or the tomli package; "
                                "or write the spec as JSON") from None
        try:
            data = toml_mod.loads(text)
        except toml_mod.TOMLDecodeError as e:
            raise SpecError(f"spec: invalid TOML: {e}") from None
    else:
        raise SpecError(f"spec: unknown format {fmt!r} (toml or json)")
    return parse_spec(data)


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
    tile_layout: ComposedLayout
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
            "smem_layout": str(self.tile_layout), "cute_type": self.cute_type, "cute_expr": self.cute_expr,
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
        raise LayoutValueError(f"cute_layout_type: expected a Swizzle and a Layout, got {swizzle!r}, {layout!r}")
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

    ``shape`` is the operand's ``(MN, K)`` in elements, ``inner`` its element layout (offset 0),
    ``descriptor`` its descriptor. LBO/SBO are substituted in elements (as the PTX examples write
    them); a stride whose mode has one repetition is never read and stays a symbol. The result is
    checked to be the same function as ``inner``. Returns ``(layout text, symbols, note)``; the
    text is None when no table row has the operand's shape (an MN extent narrower than a swizzle
    row).

    >>> from pycute_layouts.arch import wgmma
    >>> d = wgmma.SmemDescriptor(0, 16, 1024, "128B")
    >>> canonical_match("sm90", "K", "128B", 16, (64, 16), Layout((64, 16), (64, 1)), d)[0]
    'Sw<3,4,3> o 0 o ((8,8),(8,2)):((64,512),(1,8))'
    """
    mod = _arch_module(arch)
    mode = _mode(swizzle)
    t = 128 // element_bits
    mn, k = shape
    w = mode.width_16B
    rows = mode.atom_rows
    lbo = descriptor.lbo_bytes * 8 // element_bits
    sbo = descriptor.sbo_bytes * 8 // element_bits
    sym: dict[str, int] = {"T": t}
    unused: list[str] = []
    if major == "K":
        if mn % 8 or (k * element_bits) % 256:
            return None, {}, f"no table row: K-major operands are (8*m) x (T*2k) elements; got {mn} x {k}"
        sym["m"], sym["k"] = mn // 8, k // (2 * t)
        if sym["m"] > 1:
            sym["SBO"] = sbo
        else:
            unused.append("SBO")
        if not mode.is_swizzled:
            sym["LBO"] = lbo
    else:
        lead = t * (w if mode.is_swizzled else 1)
        if mn % lead or k % rows:
            return None, {}, (f"no table row: MN-major {mode.short_name} operands are ({lead}*m) x ({rows}*k) "
                              f"elements; got {mn} x {k} (an MN extent narrower than one swizzle row)")
        sym["m"], sym["k"] = mn // lead, k // rows
        mn_field, k_field = ("LBO", "SBO") if mode.is_swizzled else ("SBO", "LBO")
        vals = {"LBO": lbo, "SBO": sbo}
        for fld, reps in ((mn_field, sym["m"]), (k_field, sym["k"])):
            if reps > 1:
                sym[fld] = vals[fld]
            else:
                unused.append(fld)
    shown = mod.canonical_layout(major, mode, **sym)
    check = mod.canonical_layout(major, mode, **sym, **{u: 1 for u in unused})
    if not np.array_equal(np.asarray(check.inner.to_numpy()), np.asarray(inner.to_numpy())):
        raise LayoutValueError(f"canonical_match: the operand {inner} is not the canonical layout {check} "
                               "(the descriptor does not describe it)")
    note = "" if not unused else f"{' and '.join(unused)} unused (one repetition along that mode; encoded as derived)"
    return str(shown), sym, note


def _check_start(start: Any, who: str) -> int:
    if isinstance(start, bool) or not isinstance(start, (int, np.integer)) or start < 0:
        raise LayoutValueError(f"{who}: start address must be a non-negative int, got {start!r}")
    return int(start)


def _descs_for(mod: Any, tile_c: ComposedLayout, major: str, bits: int, mma_mn: int, mma_k: int, k_steps: int,
               start: int, anchor: str, who: str) -> tuple[list[Any], list[int], list[int]]:
    fd = flat_divide(tile_c, (mma_mn, mma_k))
    descs = [mod.make_smem_desc(fd(_, _, 0, kk), major, bits, start_address=start, swizzle_anchor=anchor)
             for kk in range(k_steps)]
    d0 = descs[0]
    offsets = [d.start_address - d0.start_address for d in descs]
    for kk, (d, off) in enumerate(zip(descs, offsets, strict=True)):
        if d0.advance(off, major=major) != d:  # advance() also rejects steps the unit would read wrongly
            raise LayoutValueError(f"{who}: K step {kk} is not the step-0 descriptor advanced by {off} bytes")
    mn_blocks = []
    n_mn = tile_c.inner.size() // (mma_mn * k_steps * mma_k)
    for i in range(n_mn):
        di = mod.make_smem_desc(fd(_, _, i, 0), major, bits, start_address=start, swizzle_anchor=anchor)
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
    from .arch import tma

    tma_sw = tma.TmaSwizzle.parse(mode.tma_swizzle)
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
                               global_strides=(inner_total * (dtype.gmem_bits or bits) // 8,), box_dim=(inner, box_rows),
                               swizzle=tma_sw)
        bad = m.violations()
        if bad:
            raise LayoutValueError(f"{who}: the TMA box {(inner, box_rows)} breaks {bad[0]}")
        order = sorted(range(len(coords)), key=lambda i: offsets[i])
        return tma_sw, (inner, box_rows), [coords[i] for i in order], [offsets[i] for i in order]
    raise LayoutValueError(f"{who}: no TMA box of one swizzle row lands contiguously in the tile {tile}")


def _build(name: str, arch: str, dtype: DType, major: str, swizzle: Any, tile_mn: int, tile_k: int,
           stages: int, order: str, mma_mn: int | None, start: int, anchor: str, who: str,
           with_tma: bool = True, aligned: bool = True, staged: bool = True) -> OperandConstants:
    mod = _arch_module(arch)
    mode = _mode(swizzle)
    bits = dtype.element_bits
    if dtype.min_arch == "sm100" and arch != "sm100":
        raise SpecError(f"{_field(who, 'dtype')}: {dtype.name} operands exist only for tcgen05 (sm100), not {arch}")
    atom = mod.smem_atom(major, mode, bits)
    o2 = (0, 1) if order == "mn_first" else (1, 0)
    if tile_mn % atom.layout.shape[0] or tile_k % atom.layout.shape[1]:
        raise LayoutValueError(
            f"{_field(who, 'tile')}: the tile {tile_mn}x{tile_k} (MN x K) is not a multiple of the "
            f"{atom.layout.shape[0]}x{atom.layout.shape[1]} swizzle atom ({major}-major {mode} {dtype.name}: "
            f"{atom.layout})")
    tile = tile_to_shape(atom.layout, (tile_mn, tile_k), o2)
    full_shape = (tile_mn, tile_k, stages) if staged else (tile_mn, tile_k)
    full = tile_to_shape(atom.layout, full_shape, o2 + (2,) if staged else o2)
    tile_c = ComposedLayout(atom.swizzle, 0, tile)
    mma_k = MMA_K_BYTES * 8 // bits
    if tile_k % mma_k:
        raise LayoutValueError(f"{_field(who, 'tile')}: tile K = {tile_k} is not a multiple of one instruction's K ({mma_k} "
                               f"{dtype.name} = {MMA_K_BYTES} bytes)")
    mma_mn = tile_mn if mma_mn is None else mma_mn
    if tile_mn % mma_mn:
        raise LayoutValueError(f"{_field(who, 'mma_mn')}: mma_mn = {mma_mn} does not divide the tile's MN = {tile_mn}")
    stage_bytes = tile_mn * tile_k * bits // 8
    if int(tile.cosize()) * bits // 8 != stage_bytes:
        raise LayoutValueError(f"{who}: the tile {tile} is not compact")
    align = max(mode.pattern_boundary_bytes, _tma_alignment(mode))
    if aligned and start % align:
        raise LayoutValueError(f"{who}: start address {start:#x} is not a multiple of the stage alignment {align} "
                               f"B (the {mode} swizzle pattern boundary: base offset 0 then holds under every "
                               "reading of PTX's base-offset rule)")
    if stages > 1 and stage_bytes % align:
        raise LayoutValueError(f"{_field(who, 'tile')}: a stage of {stage_bytes} B is not a multiple of the {align}-byte stage "
                               "alignment, so stage 1 would start off the swizzle pattern boundary")
    stage_starts = tuple(start + s * stage_bytes for s in range(stages))
    k_steps = tile_k // mma_k
    per_stage = []
    offsets: list[int] = []
    mn_blocks: list[int] = []
    desc0 = None
    for s, st in enumerate(stage_starts):
        descs, offs, mnb = _descs_for(mod, tile_c, major, bits, mma_mn, mma_k, k_steps, st, anchor, who)
        if s == 0:
            desc0, offsets, mn_blocks = descs[0], offs, mnb
        per_stage.append(tuple(d.encode() for d in descs))
    first = flat_divide(tile_c, (mma_mn, mma_k))(_, _, 0, 0)
    canon, syms, note = canonical_match(arch, major, mode, bits, (mma_mn, mma_k), first.inner, desc0)
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
        descriptor=desc0, descs=tuple(per_stage), k_step_offsets_bytes=tuple(offsets),
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
    from .arch import tma

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


def describe_operand(arch: Any, major: Any, swizzle: Any, dtype: Any, tile: Any, start_address: int = 0, *,
                     order: str = "auto", stages: int = 1, mma_mn: int | None = None,
                     swizzle_anchor: str = "absolute", name: str = "X") -> OperandConstants:
    """The constants of one ``MN x K`` operand tile built from the swizzle atom (the ``desc`` command).

    ``tile`` is ``(MN, K)`` or ``"MNxK"``; see the module docstring for how the tile is built.

    >>> oc = describe_operand("sm90", "K", "128B", "bf16", "64x64", 0x400)
    >>> hex(oc.desc), [hex(v) for v in oc.descs[0]]
    ('0x4000004000010040', ['0x4000004000010040', '0x4000004000010042', '0x4000004000010044', '0x4000004000010046'])
    >>> oc.canonical
    'Sw<3,4,3> o 0 o ((8,8),(8,2)):((64,512),(1,8))'
    """
    who = "describe_operand"
    a = _parse_arch(arch, "arch")
    dt = parse_dtype(dtype)
    mj = major.strip().upper() if isinstance(major, str) else major
    if mj not in ("K", "MN"):
        raise LayoutValueError(f"{who}: major must be 'K' or 'MN', got {major!r}")
    mn, k = _tile_field(tile, "tile")
    if order not in ("auto", "mn_first", "k_first"):
        raise LayoutValueError(f"{who}: order must be 'auto', 'mn_first' or 'k_first', got {order!r}")
    if order == "auto":
        order = "mn_first" if mj == "K" else "k_first"
    if swizzle_anchor not in ("absolute", "tile"):
        raise LayoutValueError(f"{who}: swizzle_anchor must be 'absolute' or 'tile', got {swizzle_anchor!r}")
    start = _check_start(start_address, who)
    mode = _mode(swizzle)
    with_tma = swizzle_anchor == "absolute" and start % _tma_alignment(mode) == 0
    return _build(name, a, dt, mj, mode, mn, k, stages, order, mma_mn, start, swizzle_anchor, who,
                  with_tma=with_tma, aligned=False, staged=stages > 1)


def describe_layout(layout: Any, arch: Any, major: Any, dtype: Any, start_address: int = 0, *,
                    swizzle_anchor: str = "absolute", name: str = "X") -> OperandConstants:
    """The constants of an operand given as a layout (CuTe notation parsed, swizzle on byte addresses).

    The layout is the ``(MN, K)`` tile in elements; its K must be a multiple of one instruction's
    K (32 bytes); K step ``k`` is ``flat_divide(layout, (MN, K_instr))(_, _, 0, k)``.

    >>> from pycute_layouts import parse
    >>> oc = describe_layout(parse("Sw<2,4,3> o ((8,4,2),(8,2)):((1,8,256),(32,512))"), "sm90", "MN", "bf16")
    >>> oc.lbo_bytes, oc.sbo_bytes, oc.canonical
    (512, 1024, 'Sw<2,4,3> o 0 o ((8,4,2),(8,2)):((1,8,256),(32,512))')
    """
    who = "describe_layout"
    a = _parse_arch(arch, "arch")
    dt = parse_dtype(dtype)
    mj = major.strip().upper() if isinstance(major, str) else major
    if mj not in ("K", "MN"):
        raise LayoutValueError(f"{who}: major must be 'K' or 'MN', got {major!r}")
    start = _check_start(start_address, who)
    bits = dt.element_bits
    if isinstance(layout, SwizzledSmemLayout):
        layout = ComposedLayout(layout.byte_swizzle(), 0, layout.layout)
    if isinstance(layout, Layout):
        layout = ComposedLayout(Swizzle(0, 4, 3), 0, layout)
    if not isinstance(layout, ComposedLayout) or not isinstance(layout.inner, Layout):
        raise LayoutValueError(f"{who}: expected a Layout or a swizzle o offset o Layout, got {layout!r}")
    inner = layout.inner
    if inner.is_symbolic():
        raise LayoutValueError(f"{who}: the layout {inner} has unbound symbols; bind them (-D NAME=VALUE)")
    if inner.rank() != 2:
        raise LayoutValueError(f"{who}: an operand layout has two modes (MN, K); {inner} has rank {inner.rank()}")
    mn = int(np.prod(flatten(inner.shape[0]))) if isinstance(inner.shape[0], tuple) else int(inner.shape[0])
    k = int(np.prod(flatten(inner.shape[1]))) if isinstance(inner.shape[1], tuple) else int(inner.shape[1])
    mod = _arch_module(a)
    mma_k = MMA_K_BYTES * 8 // bits
    if k % mma_k:
        raise LayoutValueError(f"{who}: the layout's K = {k} {dt.name} is not a multiple of one instruction's K "
                               f"({mma_k} = {MMA_K_BYTES} bytes)")
    off = layout.offset
    if not isinstance(off, (int, np.integer)):
        raise LayoutValueError(f"{who}: the layout's offset {off} is symbolic; bind it")
    offs = np.asarray(inner.to_numpy(), dtype=np.int64)
    uniq = np.unique(offs)
    if len(uniq) != len(offs):
        dup = int(np.flatnonzero(np.bincount(np.searchsorted(uniq, offs)) > 1)[0])
        i0, i1 = np.flatnonzero(offs == uniq[dup])[:2]
        raise DescriptorError(f"{who}: the layout {inner} is not injective: coordinates (mn, k) = "
                              f"{(int(i0) % mn, int(i0) // mn)} and {(int(i1) % mn, int(i1) // mn)} both hold element "
                              f"offset {int(uniq[dup])}")
    descs, offsets, mnb = _descs_for(mod, layout, mj, bits, mn, mma_k, k // mma_k, start, swizzle_anchor, who)
    d0 = descs[0]
    first = flat_divide(layout, (mn, mma_k))(_, _, 0, 0)
    canon, syms, note = canonical_match(a, mj, d0.swizzle, bits, (mn, mma_k), first.inner, d0)
    sw = layout.outer
    cute_t = cute_layout_type(sw, bits, inner) if isinstance(sw, Swizzle) and int(off) == 0 else None
    return OperandConstants(
        name=name, arch=a, dtype=dt, element_bits=bits, major=mj, swizzle=d0.swizzle, tile_mn=mn, tile_k=k,
        order=None, stages=1, mma_mn=mn, mma_k=mma_k, tile_layout=layout, atom=None, cute_type=cute_t, cute_expr=None,
        descriptor=d0, descs=(tuple(d.encode() for d in descs),), k_step_offsets_bytes=tuple(offsets),
        mn_block_offsets_bytes=tuple(mnb), stage_bytes=int(inner.cosize()) * bits // 8,
        stage_alignment_bytes=max(d0.swizzle.pattern_boundary_bytes, 16), stage_starts=(start,),
        canonical=canon, canonical_symbols=syms, canonical_note=note, swizzle_anchor=swizzle_anchor)


# --------------------------------------------------------------------------------------------------
# Kernel constants
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class KernelConstants:
    """The constants of a whole spec: one :class:`OperandConstants` per operand, plus the layout of smem.

    >>> kc = kernel_constants(parse_spec({"kernel": "k", "arch": "sm90", "A": {"tile": "64x64", "dtype": "bf16",
    ...                                   "major": "K", "swizzle": "128B", "stages": 3}}))
    >>> kc.smem_bytes, kc.operand("A").stage_starts
    (24576, (0, 8192, 16384))
    """

    spec: KernelSpec
    operands: tuple[OperandConstants, ...]
    version: str
    instr_desc: Any = None  # sm100 with A and B: the umma_idesc.InstrDescriptor (None: see instr_desc_note)
    instr_desc_note: str = ""

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
        for o in self.operands:
            if o.name == name:
                return o
        raise LayoutValueError(f"KernelConstants.operand: no operand {name!r} (have "
                               f"{', '.join(o.name for o in self.operands)})")

    def to_dict(self) -> dict:
        """Plain data (what :func:`emit_json` writes).

        >>> sorted(kernel_constants(parse_spec({"kernel": "k", "arch": "sm90", "A": {"tile": "64x64",
        ...        "dtype": "bf16", "major": "K", "swizzle": "128B"}})).to_dict())
        ['arch', 'generator', 'kernel', 'operands', 'schema', 'smem_base', 'smem_bytes', 'spec']
        """
        return {"schema": SCHEMA, "generator": f"pycute_layouts {self.version}", "kernel": self.kernel,
                "arch": self.arch, "spec": self.spec.to_dict(), "smem_base": self.spec.smem_base,
                "smem_bytes": self.smem_bytes, "operands": {o.name: o.to_dict() for o in self.operands},
                **_instr_desc_dict(self)}


def _instr_desc_dict(kc: KernelConstants) -> dict:
    d = kc.instr_desc
    if d is None:
        return {"instr_desc": None} if kc.arch == "sm100" else {}
    return {"instr_desc": {"value": d.encode(), "hex": f"{d.encode():#010x}", "kind": d.kind, "cta_group": d.cta_group,
                           "fields": {name: value for name, _bits, value, _ in d.fields()}}}


def _version() -> str:
    from . import __version__

    return __version__


def kernel_constants(spec: KernelSpec) -> KernelConstants:
    """Derive every operand's constants; stages are placed from ``smem_base`` in spec order (A, then B).

    Each operand starts at its ``start_address`` or at the first address after the previous
    operand that is a multiple of its stage alignment. Errors name the spec field.

    >>> spec = parse_spec({"kernel": "k", "arch": "sm90", "A": {"tile": "64x64", "dtype": "tf32", "major": "MN",
    ...                    "swizzle": "128B"}})
    >>> kernel_constants(spec)
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.DescriptorError: spec field 'A' (tf32, MN-major, 128B swizzle, sm90): wgmma.make_smem_desc: ...
    """
    from .arch.swizzle_modes import SMEM_WINDOW_BYTES

    if not isinstance(spec, KernelSpec):
        raise SpecError(f"kernel_constants: expected a KernelSpec (see parse_spec), got {type(spec).__name__}")
    cursor = spec.smem_base
    out = []
    for op in spec.operands:
        who = f"spec field '{op.name}'"
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
        ctx = f"{who} ({op.dtype.name}, {op.major}-major, {mode} swizzle, {spec.arch})"
        oc = _wrap(ctx, _build, op.name, spec.arch, op.dtype, op.major, mode, op.tile_mn, op.tile_k, op.stages,
                   op.order, op.mma_mn, start, "absolute", who)
        end = oc.stage_starts[-1] + oc.stage_bytes
        if end > SMEM_WINDOW_BYTES:
            raise SpecError(f"spec field '{op.name}.stages': the stages end at byte {end:#x}, beyond the 256 KiB "
                            "window a descriptor start address can name")
        cursor = max(cursor, end)
        out.append(oc)
    for i, a in enumerate(out):
        for b in out[i + 1:]:
            a0, a1 = a.stage_starts[0], a.stage_starts[-1] + a.stage_bytes
            b0, b1 = b.stage_starts[0], b.stage_starts[-1] + b.stage_bytes
            if a0 < b1 and b0 < a1:
                raise SpecError(f"spec field '{b.name}.start_address': operand {b.name} [{b0:#x}, {b1:#x}) overlaps "
                                f"operand {a.name} [{a0:#x}, {a1:#x})")
    idesc, note = _instr_desc(spec, out)
    return KernelConstants(spec, tuple(out), _version(), idesc, note)


def _instr_desc(spec: KernelSpec, ops: list[OperandConstants]) -> tuple[Any, str]:
    """The tcgen05 instruction descriptor of an sm100 spec with A and B (settings from its ``mma`` table)."""
    if spec.arch != "sm100" or len(ops) != 2:
        return None, ""
    a, b = ops
    try:
        return umma_idesc.instr_desc_for_operands(a.dtype.name, b.dtype.name, a.major, b.major, a.mma_mn, b.mma_mn,
                                                  spec.mma), ""
    except DescriptorError as e:
        if spec.mma is not None:
            raise SpecError(f"spec field 'mma': {e}") from None
        return None, f"no instruction descriptor for the default settings ({e}); add an 'mma' table to the spec"



# --------------------------------------------------------------------------------------------------
# Emitters
# --------------------------------------------------------------------------------------------------


def _spec_comment(kc: KernelConstants, prefix: str) -> list[str]:
    text = json.dumps(kc.spec.to_dict(), sort_keys=True)
    return [f"{prefix} Generated by pycute_layouts {kc.version} (pycute_layouts.codegen); do not edit.",
            f"{prefix} spec: {text}"]


def _u64(v: int) -> str:
    return f"0x{v:016x}ull"


def _arr(vals: Any, fmt: Any = str) -> str:
    return "{" + ", ".join(fmt(v) for v in vals) + "}"


def _header_operand(kc: KernelConstants, o: OperandConstants) -> list[str]:
    d = o.descriptor
    s = f"Operand{o.name}"
    arch90 = kc.arch == "sm90"
    L: list[str] = []
    L.append(f"// Operand {o.name}: {o.tile_mn}x{o.tile_k} (MN x K) {o.dtype.name if o.dtype else ''}, {o.major}-major, "
             f"{o.swizzle} swizzle, {o.stages} stage(s), tile order {o.order}")
    L.append(f"//   smem tile (elements; swizzle on byte addresses): {o.tile_layout}")
    L.append(f"//   canonical layout of one instruction's operand (PTX): {o.canonical}")
    L.append(f"struct {s} {{")
    L.append(f"  static constexpr int kTileMN = {o.tile_mn};")
    L.append(f"  static constexpr int kTileK = {o.tile_k};")
    L.append(f"  static constexpr int kElementBits = {o.element_bits};")
    L.append(f"  static constexpr int kStages = {o.stages};")
    L.append(f"  static constexpr int kMmaMN = {o.mma_mn};  // MN extent one instruction reads")
    L.append(f"  static constexpr int kMmaK = {o.mma_k};  // K elements one instruction reads ({MMA_K_BYTES} bytes)")
    L.append(f"  static constexpr int kKSteps = {o.k_steps};  // instructions along K per stage")
    L.append(f"  static constexpr uint32_t kStageBytes = {o.stage_bytes}u;")
    L.append(f"  static constexpr uint32_t kStageAlignBytes = {o.stage_alignment_bytes}u;  // swizzle pattern boundary")
    L.append(f"  static constexpr uint32_t kStageStart[kStages] = {_arr(o.stage_starts, lambda v: f'{v}u')};")
    L.append(f"  static constexpr uint32_t kLboBytes = {d.lbo_bytes}u;")
    L.append(f"  static constexpr uint32_t kLbo16B = {d.lbo_16B}u;")
    L.append(f"  static constexpr uint32_t kSboBytes = {d.sbo_bytes}u;")
    L.append(f"  static constexpr uint32_t kSbo16B = {d.sbo_16B}u;")
    lt_bits = "62-63, wgmma" if arch90 else "61-63, tcgen05"
    L.append(f"  static constexpr uint32_t kLayoutType = {d.layout_type}u;  // {o.swizzle} (bits {lt_bits})")
    L.append(f"  static constexpr uint32_t kBaseOffset = {d.base_offset}u;")
    L.append("  // descriptor with start address 0: OR in ((smem_addr & 0x3FFFF) >> 4)")
    L.append(f"  static constexpr uint64_t kDescTemplate = {_u64(o.desc_template)};")
    L.append(f"  static constexpr uint64_t kDesc = {_u64(o.desc)};  // stage 0, K step 0")
    L.append("  // K step k starts kKStepOffsetBytes[k] after K step 0: desc + kKStepAdvance16B[k]")
    L.append(f"  static constexpr uint32_t kKStepOffsetBytes[kKSteps] = {_arr(o.k_step_offsets_bytes, lambda v: f'{v}u')};")
    L.append(f"  static constexpr uint32_t kKStepAdvance16B[kKSteps] = {_arr(o.k_step_advance_16B, lambda v: f'{v}u')};")
    L.append(f"  static constexpr int kMmaMNBlocks = {len(o.mn_block_offsets_bytes)};")
    L.append(f"  static constexpr uint32_t kMmaMNBlockOffsetBytes[kMmaMNBlocks] = "
             f"{_arr(o.mn_block_offsets_bytes, lambda v: f'{v}u')};")
    rows = ", ".join(_arr(r, _u64) for r in o.descs)
    L.append(f"  static constexpr uint64_t kDescStageK[kStages][kKSteps] = {{{rows}}};")
    L.append(f"  // TMA (cuTensorMapEncodeTiled): {o.tma_data_type}, {o.tma_swizzle_name}")
    L.append(f"  static constexpr int kTmaSwizzle = {int(o.tma_swizzle)};  // {o.tma_swizzle_name}")
    L.append(f"  static constexpr const char* kTmaSwizzleName = \"{o.tma_swizzle_name}\";")
    L.append(f"  static constexpr uint32_t kTmaBoxDim[2] = {_arr(o.tma_box_dim, lambda v: f'{v}u')};  // boxDim, innermost first")
    L.append(f"  static constexpr uint32_t kTmaBoxBytes = {o.tma_box_bytes}u;")
    L.append(f"  static constexpr int kTmaCopies = {o.tma_copies};  // boxes per stage")
    L.append("  // box c covers tile elements from (inner, row) = kTmaCopyCoord[c] and lands kTmaCopyOffsetBytes[c] "
             "into the stage")
    coords = ", ".join(_arr(c) for c in o.tma_copy_coords)
    L.append(f"  static constexpr int kTmaCopyCoord[kTmaCopies][2] = {{{coords}}};")
    L.append(f"  static constexpr uint32_t kTmaCopyOffsetBytes[kTmaCopies] = "
             f"{_arr(o.tma_copy_offsets_bytes, lambda v: f'{v}u')};")
    L.append("};")
    # static_asserts
    L.append(f"static_assert({s}::kStageBytes == uint32_t({s}::kTileMN) * {s}::kTileK * {s}::kElementBits / 8, "
             f"\"{o.name}: stage bytes = MN * K * bits / 8\");")
    L.append(f"static_assert({s}::kTmaCopies * {s}::kTmaBoxBytes == {s}::kStageBytes, "
             f"\"{o.name}: the TMA boxes fill the stage exactly\");")
    L.append(f"static_assert({s}::kTmaBoxDim[0] * {s}::kElementBits / 8 == {o.swizzle.width_bytes}u && "
             f"{s}::kTmaBoxDim[0] * {s}::kElementBits % 128 == 0 && {s}::kTmaBoxDim[1] <= 256u, "
             f"\"{o.name}: box inner extent = one {o.swizzle.width_bytes}-byte swizzle row, rows <= 256\");")
    L.append(f"static_assert({s}::kTileK % {s}::kMmaK == 0 && {s}::kKSteps == {s}::kTileK / {s}::kMmaK, "
             f"\"{o.name}: whole instructions along K\");")
    for i in range(o.stages):
        L.append(f"static_assert({s}::kStageStart[{i}] % {s}::kStageAlignBytes == 0, \"{o.name}: stage {i} aligned\");")
        if i:
            L.append(f"static_assert({s}::kStageStart[{i}] == {s}::kStageStart[{i - 1}] + {s}::kStageBytes, "
                     f"\"{o.name}: stages packed\");")
    L.append(f"static_assert(desc_start_16B({s}::kDesc) == ({s}::kStageStart[0] >> 4) && "
             f"desc_lbo_16B({s}::kDesc) == {s}::kLbo16B && desc_sbo_16B({s}::kDesc) == {s}::kSbo16B, "
             f"\"{o.name}: descriptor start/LBO/SBO fields\");")
    L.append(f"static_assert({s}::kLbo16B == {s}::kLboBytes / 16 && {s}::kSbo16B == {s}::kSboBytes / 16 && "
             f"{s}::kLboBytes % 16 == 0 && {s}::kSboBytes % 16 == 0, \"{o.name}: LBO/SBO in 16-byte units\");")
    L.append(f"static_assert(desc_layout_type({s}::kDesc) == {s}::kLayoutType && "
             f"desc_base_offset({s}::kDesc) == {s}::kBaseOffset && desc_reserved_ok({s}::kDesc), "
             f"\"{o.name}: descriptor layout type / base offset / reserved bits\");")
    L.append(f"static_assert(({s}::kDescTemplate | ({s}::kStageStart[0] >> 4)) == {s}::kDesc, "
             f"\"{o.name}: template | start = descriptor\");")
    for si in range(o.stages):
        for k in range(o.k_steps):
            L.append(f"static_assert({s}::kDescStageK[{si}][{k}] == {s}::kDescTemplate + "
                     f"(({s}::kStageStart[{si}] + {s}::kKStepOffsetBytes[{k}]) >> 4), "
                     f"\"{o.name}: stage {si} K step {k}\");")
    for k in range(o.k_steps):
        L.append(f"static_assert({s}::kKStepAdvance16B[{k}] * 16 == {s}::kKStepOffsetBytes[{k}], "
                 f"\"{o.name}: K step {k} advance\");")
    return L


_USED_BITS = {
    "sm90": 0x3FFF | (0x3FFF << 16) | (0x3FFF << 32) | (0x7 << 49) | (0x3 << 62),
    "sm100": 0x3FFF | (0x3FFF << 16) | (0x3FFF << 32) | (0x7 << 46) | (0x7 << 49) | (1 << 52) | (0x7 << 61),
}


def _desc_helpers(arch: str) -> list[str]:
    reserved = f"0x{~_USED_BITS[arch] & ((1 << 64) - 1):016x}ull"
    if arch == "sm90":
        lt = "int((d >> 62) & 0x3)"
        ver = []
    else:
        lt = "int((d >> 61) & 0x7)"
        ver = ["constexpr uint32_t desc_version(uint64_t d) { return uint32_t((d >> 46) & 0x7); }  // fixed 0b001"]
    return [
        "// Descriptor fields (PTX ISA " + ("9.7.15.5.1.2.2, wgmma" if arch == "sm90" else
                                          "9.7.16.4.1 Table 40, tcgen05") + ")",
        "constexpr uint32_t desc_start_16B(uint64_t d) { return uint32_t(d & 0x3FFF); }",
        "constexpr uint32_t desc_lbo_16B(uint64_t d) { return uint32_t((d >> 16) & 0x3FFF); }",
        "constexpr uint32_t desc_sbo_16B(uint64_t d) { return uint32_t((d >> 32) & 0x3FFF); }",
        "constexpr uint32_t desc_base_offset(uint64_t d) { return uint32_t((d >> 49) & 0x7); }",
        f"constexpr uint32_t desc_layout_type(uint64_t d) {{ return uint32_t({lt}); }}",
        *ver,
        f"constexpr bool desc_reserved_ok(uint64_t d) {{ return (d & ({reserved})) == 0"
        + (" && desc_version(d) == 1" if arch != "sm90" else "") + "; }",
    ]


def emit_header(kc: KernelConstants) -> str:
    """The C++/CUDA header: ``namespace <kernel> { struct OperandA {...}; static_asserts }``, plain ``<cstdint>``.

    Define ``PYCUTE_LAYOUTS_WITH_CUTE`` before including it (with CuTe on the include path) to
    also check that ``SmemLayoutA`` is exactly the type CuTe's ``tile_to_shape`` builds from the
    GMMA/UMMA atom. With ``<cuda.h>`` included first, ``kTmaSwizzleEnum`` is the driver enumerator.

    >>> h = emit_header(kernel_constants(parse_spec({"kernel": "k", "arch": "sm90", "A": {"tile": "64x64",
    ...                 "dtype": "bf16", "major": "K", "swizzle": "128B"}})))
    >>> [line for line in h.splitlines() if "kDesc =" in line]
    ['  static constexpr uint64_t kDesc = 0x4000004000010000ull;  // stage 0, K step 0']
    """
    if not isinstance(kc, KernelConstants):
        raise SpecError(f"emit_header: expected KernelConstants, got {type(kc).__name__}")
    guard = f"PYCUTE_LAYOUTS_{kc.kernel.upper()}_CONSTANTS_H"
    L = [*_spec_comment(kc, "//"),
         f"// Shared-memory operand constants for kernel '{kc.kernel}' ({kc.arch}, "
         f"{'wgmma.mma_async' if kc.arch == 'sm90' else 'tcgen05.mma'}). Self-contained (<cstdint>); define",
         "// PYCUTE_LAYOUTS_WITH_CUTE to also check the CuTe layout types.",
         f"#ifndef {guard}", f"#define {guard}", "", "#include <cstdint>", "",
         f"namespace {kc.kernel} {{", "",
         f"inline constexpr const char* kArch = \"{kc.arch}\";",
         f"inline constexpr uint32_t kSmemBase = {kc.spec.smem_base}u;",
         f"inline constexpr uint32_t kSmemBytes = {kc.smem_bytes}u;  // from kSmemBase to the end of the last stage",
         "", *_desc_helpers(kc.arch), ""]
    for o in kc.operands:
        L += _header_operand(kc, o)
        L.append("")
    if kc.instr_desc is not None:
        L += [*umma_idesc.header_lines(kc.instr_desc), ""]
    elif kc.instr_desc_note:
        L += [f"// {kc.instr_desc_note}", ""]
    L.append("#if defined(__cuda_cuda_h__)  // <cuda.h> included: the driver's enumerators")
    for o in kc.operands:
        L.append(f"static_assert(int({o.tma_swizzle_name}) == Operand{o.name}::kTmaSwizzle, "
                 f"\"{o.name}: CUtensorMapSwizzle\");")
        L.append(f"inline constexpr CUtensorMapSwizzle kTmaSwizzleEnum{o.name} = {o.tma_swizzle_name};")
        L.append(f"inline constexpr CUtensorMapDataType kTmaDataType{o.name} = {o.tma_data_type};")
    L.append("#endif")
    L.append("")
    L.append("}  // namespace " + kc.kernel)
    L.append("")
    header = "cute/atom/mma_traits_sm90_gmma.hpp" if kc.arch == "sm90" else "cute/atom/mma_traits_sm100.hpp"
    L += ["#ifdef PYCUTE_LAYOUTS_WITH_CUTE", "#include <type_traits>", "#include <cute/tensor.hpp>",
          f"#include <{header}>", f"namespace {kc.kernel} {{"]
    for o in kc.operands:
        s = f"Operand{o.name}"
        L.append(f"// CuTe type of operand {o.name}'s smem (MN, K, stage) layout, and the CuTe expression that builds it")
        L.append(f"using SmemLayout{o.name} = {o.cute_type};")
        L.append(f"static_assert(std::is_same_v<SmemLayout{o.name}, decltype({o.cute_expr})>, "
                 f"\"{o.name}: CuTe builds this type\");")
        L.append(f"static_assert(decltype(cute::cosize(SmemLayout{o.name}{{}}.layout_b()))::value * {s}::kElementBits / 8 "
                 f"== {s}::kStages * {s}::kStageBytes, \"{o.name}: CuTe's cosize = stages * stage bytes\");")
        steps = [f"decltype(SmemLayout{o.name}{{}}.layout_b()(cute::Int<0>{{}}, cute::Int<{k * o.mma_k}>{{}}, "
                 f"cute::Int<0>{{}}))::value * {s}::kElementBits / 8 == {s}::kKStepOffsetBytes[{k}]"
                 for k in range(o.k_steps)]
        L.append(f"static_assert({' && '.join(steps)}, \"{o.name}: CuTe's offsets of the K steps\");")
    L += [f"}}  // namespace {kc.kernel}", "#endif  // PYCUTE_LAYOUTS_WITH_CUTE", "", f"#endif  // {guard}", ""]
    return "\n".join(L)


def emit_python(kc: KernelConstants) -> str:
    """A Python module: ``A_DESC = 0x...`` style integer constants plus ``CONSTANTS`` (the JSON data).

    >>> src = emit_python(kernel_constants(parse_spec({"kernel": "k", "arch": "sm90", "A": {"tile": "64x64",
    ...                   "dtype": "bf16", "major": "K", "swizzle": "128B"}})))
    >>> ns = {}; exec(src, ns); hex(ns["A_DESC"]), ns["A_K_STEP_ADVANCE_16B"]
    ('0x4000004000010000', (0, 2, 4, 6))
    """
    if not isinstance(kc, KernelConstants):
        raise SpecError(f"emit_python: expected KernelConstants, got {type(kc).__name__}")
    L = ['"""Kernel constants for ' + kc.kernel + ' (generated by pycute_layouts.codegen; do not edit)."""',
         *_spec_comment(kc, "#"), "", f"KERNEL = {kc.kernel!r}", f"ARCH = {kc.arch!r}",
         f"SMEM_BASE = {kc.spec.smem_base}", f"SMEM_BYTES = {kc.smem_bytes}", ""]
    if kc.instr_desc is not None:
        L += [f"INSTR_DESC = 0x{kc.instr_desc.encode():08x}  # tcgen05 kind::{kc.instr_desc.kind}", ""]
    for o in kc.operands:
        p = o.name
        d = o.descriptor
        vals: list[tuple[str, Any]] = [
            ("TILE_MN", o.tile_mn), ("TILE_K", o.tile_k), ("ELEMENT_BITS", o.element_bits), ("STAGES", o.stages),
            ("MMA_MN", o.mma_mn), ("MMA_K", o.mma_k), ("K_STEPS", o.k_steps), ("STAGE_BYTES", o.stage_bytes),
            ("STAGE_ALIGN_BYTES", o.stage_alignment_bytes), ("STAGE_START", o.stage_starts),
            ("LBO_BYTES", d.lbo_bytes), ("LBO_16B", d.lbo_16B), ("SBO_BYTES", d.sbo_bytes), ("SBO_16B", d.sbo_16B),
            ("LAYOUT_TYPE", d.layout_type), ("BASE_OFFSET", d.base_offset),
            ("DESC_TEMPLATE", o.desc_template), ("DESC", o.desc),
            ("K_STEP_OFFSET_BYTES", o.k_step_offsets_bytes), ("K_STEP_ADVANCE_16B", o.k_step_advance_16B),
            ("MMA_MN_BLOCK_OFFSET_BYTES", o.mn_block_offsets_bytes), ("DESC_STAGE_K", o.descs),
            ("TMA_SWIZZLE", int(o.tma_swizzle)), ("TMA_SWIZZLE_NAME", o.tma_swizzle_name),
            ("TMA_DATA_TYPE_NAME", o.tma_data_type), ("TMA_BOX_DIM", o.tma_box_dim),
            ("TMA_BOX_BYTES", o.tma_box_bytes), ("TMA_COPIES", o.tma_copies),
            ("TMA_COPY_COORD", o.tma_copy_coords), ("TMA_COPY_OFFSET_BYTES", o.tma_copy_offsets_bytes),
            ("SMEM_LAYOUT", str(o.tile_layout)), ("CUTE_TYPE", o.cute_type),
        ]
        for key, v in vals:
            if key in ("DESC", "DESC_TEMPLATE"):
                L.append(f"{p}_{key} = 0x{v:016x}")
            elif key == "DESC_STAGE_K":
                rows = ", ".join("(" + ", ".join(f"0x{x:016x}" for x in r) + ",)" for r in v)
                L.append(f"{p}_{key} = ({rows},)")
            else:
                L.append(f"{p}_{key} = {v!r}")
        L.append("")
    L.append("import json as _json")
    L.append("")
    L.append(f"CONSTANTS = _json.loads({json.dumps(kc.to_dict(), sort_keys=True)!r})")
    L.append("")
    return "\n".join(L)


def emit_json(kc: KernelConstants) -> str:
    """The JSON document (schema ``pycute_layouts.codegen/1``), keys sorted, 2-space indent.

    >>> j = json.loads(emit_json(kernel_constants(parse_spec({"kernel": "k", "arch": "sm90", "A": {"tile": "64x64",
    ...                "dtype": "bf16", "major": "K", "swizzle": "128B"}}))))
    >>> j["schema"], j["operands"]["A"]["desc_hex"]
    ('pycute_layouts.codegen/1', '0x4000004000010000')
    """
    if not isinstance(kc, KernelConstants):
        raise SpecError(f"emit_json: expected KernelConstants, got {type(kc).__name__}")
    return json.dumps(kc.to_dict(), sort_keys=True, indent=2) + "\n"
