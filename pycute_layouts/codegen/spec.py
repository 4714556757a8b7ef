"""The kernel spec: element types, architectures, and the validated spec of each operand (parse / load).

A spec is a small mapping (or a TOML/JSON document): ``kernel``, ``arch``, ``smem_base`` and one
table per operand (``A``, ``B``) with ``tile``, ``dtype``, ``major``, ``swizzle`` and optional
``stages``, ``order``, ``mma_mn``, ``start_address``. Every error is a :class:`SpecError` naming
the spec field.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..arch import umma, wgmma
from ..arch.swizzle_choice import choose_swizzle
from ..arch.swizzle_modes import SwizzleMode
from ..errors import LayoutError, SpecError
from ..limits import (
    MAX_ELEMENT_BITS,
    MAX_NESTING_DEPTH,
    check_count,
    check_sequence,
    check_text_nesting,
    check_type,
    read_text_file,
)
from ..limits import fmt as fmt_value

__all__ = ["MMA_K_BYTES", "DTYPES", "DType", "parse_dtype", "parse_arch", "arch_module", "OperandSpec", "KernelSpec",
           "int_field", "tile_field", "swizzle_field", "parse_spec", "load_spec"]

#: K bytes one dense ``wgmma.mma_async`` / ``tcgen05.mma`` reads per operand (PTX: K = 16 f16/bf16,
#: 8 tf32, 32 8-bit); the arch modules check it again in ``make_smem_desc``.
MMA_K_BYTES = 32

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

    def __post_init__(self) -> None:
        for field in ("name", "cute_type", "tma_data_type", "min_arch"):
            if not isinstance(getattr(self, field), str):
                raise SpecError(f"DType: {field} must be a string, got {fmt_value(getattr(self, field))}")
        check_count("DType", "element_bits", self.element_bits, 1, MAX_ELEMENT_BITS, SpecError)
        if self.gmem_bits is not None:
            check_count("DType", "gmem_bits", self.gmem_bits, 1, MAX_ELEMENT_BITS, SpecError)


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

    Pre:  ``name`` one of DTYPES' names or aliases (case-insensitive).
    Post: the DType; SpecError naming the allowed names otherwise.

    >>> parse_dtype("half").name
    'f16'
    >>> parse_dtype("fp32")
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.SpecError: unknown dtype 'fp32' (allowed: f16, bf16, tf32, e4m3, e5m2, s8, u8, e2m1, ...
    """
    if isinstance(name, DType):
        return name
    if isinstance(name, str):
        key = name.strip().lower()
        key = _DTYPE_ALIASES.get(key, key)
        if key in DTYPES:
            return DTYPES[key]
    raise SpecError(f"unknown dtype {fmt_value(name)} (allowed: {', '.join(DTYPES)}; aliases: "
                    f"{', '.join(sorted(_DTYPE_ALIASES))}); fp32 operands are read as tf32")

# --------------------------------------------------------------------------------------------------
# Architectures
# --------------------------------------------------------------------------------------------------

def _where(field: str) -> str:
    """How an error names what was wrong: ``spec field 'A.tile'``, or a command-line option (``--tile``) as itself."""
    return field if field.startswith("--") else f"spec field '{field}'"


_ARCH_NAMES = {"sm90": "sm90", "sm90a": "sm90", "sm_90": "sm90", "sm_90a": "sm90", "hopper": "sm90",
               "sm100": "sm100", "sm100a": "sm100", "sm_100": "sm100", "sm_100a": "sm100", "blackwell": "sm100"}


def parse_arch(arch: Any, field: str = "arch") -> str:
    """The canonical arch name (``sm90`` or ``sm100``) of a spelling such as ``sm90a``, ``hopper``, ``sm_100``.

    Pre: ``arch`` is a string naming Hopper or Blackwell. Post: ``"sm90"`` or ``"sm100"``; else SpecError.

    >>> parse_arch("Hopper"), parse_arch("sm_100a")
    ('sm90', 'sm100')
    """
    check_type("spec", "a field name", field, str, SpecError)
    if isinstance(arch, str) and arch.strip().lower() in _ARCH_NAMES:
        return _ARCH_NAMES[arch.strip().lower()]
    raise SpecError(f"{_where(field)}: unknown arch {fmt_value(arch)} (allowed: sm90 (wgmma), sm100 (tcgen05))")


def arch_module(arch: str) -> Any:
    """The module that holds the arch's MMA facts: :mod:`~pycute_layouts.arch.wgmma` (sm90) or ``umma`` (sm100).

    >>> arch_module("sm100").__name__
    'pycute_layouts.arch.umma'
    """
    if not isinstance(arch, str) or arch not in ("sm90", "sm100"):
        raise SpecError(f"arch must be 'sm90' or 'sm100', got {fmt_value(arch)}"[:200])
    return wgmma if arch == "sm90" else umma


# --------------------------------------------------------------------------------------------------
# The spec
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class OperandSpec:
    """One shared-memory operand of the spec (A or B): an ``MN x K`` tile, element type, major, swizzle.

    ``order`` is ``"mn_first"`` or ``"k_first"`` (see the module docstring; :func:`parse_spec`
    resolves ``"auto"``); ``mma_mn`` the MN extent one instruction reads (default: what the instruction reads, see
    :func:`~pycute_layouts.arch.instruction.instruction_mn`);
    ``start_address`` the byte address of stage 0 (default: placed after the previous operand).

    >>> OperandSpec("A", 128, 64, parse_dtype("bf16"), "K", swizzle_field("128B"), 4).order
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
    swizzle_reason: str = ""  # set when the spec said swizzle = "auto": why this mode was chosen

    def __post_init__(self) -> None:
        if not isinstance(self.name, str):
            raise SpecError(f"OperandSpec: name must be a string ('A', 'B'), got {fmt_value(self.name)}")
        who = f"OperandSpec {fmt_value(self.name)}"
        for field, lo in (("tile_mn", 1), ("tile_k", 1), ("stages", 1)):
            check_count(who, field, getattr(self, field), lo, None, SpecError)
        for field in ("mma_mn", "start_address"):
            if getattr(self, field) is not None:
                check_count(who, field, getattr(self, field), 0, None, SpecError)
        if not isinstance(self.dtype, DType):
            raise SpecError(f"{who}: dtype must be a DType (parse_dtype('bf16')), got {fmt_value(self.dtype)}")
        if not isinstance(self.major, str) or self.major not in ("K", "MN"):
            raise SpecError(f"{who}: major must be 'K' or 'MN', got {fmt_value(self.major)}")
        if not isinstance(self.order, str) or self.order not in ("auto", "mn_first", "k_first"):
            raise SpecError(f"{who}: order must be 'auto', 'mn_first' or 'k_first', got {fmt_value(self.order)}")
        if not isinstance(self.swizzle_reason, str):
            raise SpecError(f"{who}: swizzle_reason must be a string, got {fmt_value(self.swizzle_reason)}")
        object.__setattr__(self, "swizzle", swizzle_field(self.swizzle, f"{self.name}.swizzle"))
        if self.order == "auto":
            object.__setattr__(self, "order", "mn_first" if self.major == "K" else "k_first")

    def to_dict(self) -> dict:
        """The spec entry as plain data (the normalized form the header comment records).

        >>> OperandSpec("A", 64, 64, parse_dtype("bf16"), "K", swizzle_field("128B")).to_dict()["tile"]
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
    mma: dict | None = None  # sm100: instruction-descriptor settings (umma.instr_desc_for_operands)

    def __post_init__(self) -> None:
        for field in ("kernel", "arch"):
            if not isinstance(getattr(self, field), str):
                raise SpecError(f"KernelSpec: {field} must be a string, got {fmt_value(getattr(self, field))}")
        ops = check_sequence("KernelSpec", "operands", self.operands, 2, SpecError)
        for op in ops:
            if not isinstance(op, OperandSpec):
                raise SpecError(f"KernelSpec: operands must be OperandSpecs, got {fmt_value(op)}")
        object.__setattr__(self, "operands", tuple(ops))
        check_count("KernelSpec", "smem_base", self.smem_base, 0, None, SpecError)
        if self.mma is not None and not isinstance(self.mma, dict):
            raise SpecError(f"KernelSpec: mma must be None or a dict of instruction-descriptor settings, got "
                            f"{fmt_value(self.mma)}")

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


def swizzle_field(value: Any, field: str = "swizzle") -> Any:
    """The swizzle mode a spec field names; SpecError naming the field otherwise.

    >>> swizzle_field("128B").short_name
    '128B'
    """
    check_type("spec", "a field name", field, str, SpecError)
    try:
        mode = SwizzleMode.parse(value)
    except LayoutError as e:
        raise SpecError(f"{_where(field)}: {e}") from None
    if not mode.is_mma:
        raise SpecError(f"{_where(field)}: the {mode.short_name} swizzle mode is TMA-only: no MMA operand "
                        "is stored in it (modes: none, 32B, 64B, 128B, 128B_base32B)")
    return mode


_CXX_KEYWORDS = frozenset(
    "alignas alignof and asm auto bool break case catch char class const constexpr continue decltype default "
    "delete do double else enum explicit export extern false float for friend goto if inline int long mutable "
    "namespace new noexcept not nullptr operator or private protected public register return short signed "
    "sizeof static struct switch template this throw true try typedef typeid typename union unsigned using "
    "virtual void volatile while std cute".split())

_OPERAND_KEYS = ("tile", "dtype", "major", "swizzle", "stages", "order", "mma_mn", "start_address")
_TOP_KEYS = ("kernel", "arch", "smem_base", "mma", "A", "B")


def int_field(value: Any, field: str, lo: int | None = None) -> int:
    """The integer a spec field holds (an int, or a decimal or ``0x`` hex string).

    Pre:  none (user input).  Post: an int >= ``lo`` (when given); otherwise SpecError names the field.

    >>> int_field("0x40", "A.tile[0]", 1), int_field(3, "stages", 1)
    (64, 3)
    """
    check_type("spec", "a field name", field, str, SpecError)
    if isinstance(value, str):
        try:
            value = int(value.strip(), 0)
        except ValueError:
            raise SpecError(f"{_where(field)}: expected an integer (decimal or 0x hex), got {fmt_value(value)}") from None
    if isinstance(value, bool) or not isinstance(value, int):
        raise SpecError(f"{_where(field)}: expected an integer, got {fmt_value(value)}")
    value = check_count("spec", _where(field), value, None, None, SpecError)
    if lo is not None and value < lo:
        raise SpecError(f"{_where(field)}: must be >= {lo}, got {value}")
    return value


def tile_field(value: Any, field: str) -> tuple[int, int]:
    """The ``(MN, K)`` extents a tile field holds: ``'MNxK'`` text or a pair of integers.

    Pre:  none (user input).  Post: two positive ints; otherwise SpecError names the field.

    >>> tile_field("128x64", "A.tile"), tile_field([64, 32], "B.tile")
    ((128, 64), (64, 32))
    """
    check_type("spec", "a field name", field, str, SpecError)
    if isinstance(value, str):
        m = re.fullmatch(r"\s*(\w+)\s*[xX*,]\s*(\w+)\s*", value)
        if not m:
            raise SpecError(f"{_where(field)}: expected 'MNxK' such as '128x64', got {fmt_value(value)}")
        parts: Any = m.groups()
    elif isinstance(value, (list, tuple)):
        parts = value
    else:
        raise SpecError(f"{_where(field)}: expected 'MNxK' or [MN, K], got {fmt_value(value)}")
    if len(parts) != 2:
        raise SpecError(f"{_where(field)}: expected two extents (MN, K), got {fmt_value(value)}")
    return int_field(parts[0], f"{field}[0] (MN)", 1), int_field(parts[1], f"{field}[1] (K)", 1)


def _auto_swizzle(name: str, major: str, dtype: DType, mn: int, k: int, arch: str) -> tuple[Any, str]:
    """``swizzle = "auto"``: :func:`~pycute_layouts.arch.swizzle_choice.choose_swizzle` on the tile's contiguous extent."""
    try:
        c = choose_swizzle(major, dtype.element_bits, k if major == "K" else mn, arch)
    except LayoutError as e:
        raise SpecError(f"spec field '{name}.swizzle': auto: {e}") from None
    return c.mode, f"auto -> {c.mode.short_name}: {c.reason}"


def _parse_operand(name: str, d: Any, arch: str = "sm90") -> OperandSpec:
    if not isinstance(d, Mapping):
        raise SpecError(f"spec field '{name}': expected a table with {', '.join(_OPERAND_KEYS)}, got {fmt_value(d)}")
    unknown = sorted(set(d) - set(_OPERAND_KEYS))
    if unknown:
        raise SpecError(f"spec field '{name}.{unknown[0]}': unknown field (allowed: {', '.join(_OPERAND_KEYS)})")
    for req in ("tile", "dtype", "major", "swizzle"):
        if req not in d:
            raise SpecError(f"spec field '{name}.{req}': missing (required: tile, dtype, major, swizzle)")
    mn, k = tile_field(d["tile"], f"{name}.tile")
    try:
        dtype = parse_dtype(d["dtype"])
    except SpecError as e:
        raise SpecError(f"spec field '{name}.dtype': {e}") from None
    major = d["major"]
    if not (isinstance(major, str) and major.strip().upper() in ("K", "MN", "M", "N")):
        raise SpecError(f"spec field '{name}.major': expected 'K' or 'MN' (the contiguous dimension), got {fmt_value(major)}")
    major = "K" if major.strip().upper() == "K" else "MN"
    reason = ""
    if isinstance(d["swizzle"], str) and d["swizzle"].strip().lower() == "auto":
        swizzle, reason = _auto_swizzle(name, major, dtype, mn, k, arch)
    else:
        swizzle = swizzle_field(d["swizzle"], f"{name}.swizzle")
    stages = int_field(d.get("stages", 1), f"{name}.stages", 1)
    order = d.get("order", "auto")
    if not isinstance(order, str) or order not in ("auto", "mn_first", "k_first"):
        raise SpecError(f"spec field '{name}.order': expected 'auto', 'mn_first' or 'k_first', got {fmt_value(order)}")
    mma_mn = None if d.get("mma_mn") is None else int_field(d["mma_mn"], f"{name}.mma_mn", 1)
    start = None if d.get("start_address") is None else int_field(d["start_address"], f"{name}.start_address", 0)
    return OperandSpec(name, mn, k, dtype, major, swizzle, stages, order, mma_mn, start, reason)


def parse_spec(data: Any) -> KernelSpec:
    """Check and normalize a spec given as a dict (the parsed TOML or JSON; see docs/codegen.md).

    Pre:  ``data`` a mapping with ``kernel``, ``arch`` and operand tables ``A``/``B``.
    Post: a validated KernelSpec; SpecError naming the offending spec field otherwise.

    Fields: ``kernel`` (C++ identifier), ``arch`` (``sm90`` or ``sm100``), optional ``smem_base``
    (byte address of the first stage, default 0), and tables ``A`` and ``B`` with ``tile``
    (``"MNxK"`` or ``[MN, K]``, elements), ``dtype``, ``major`` (``K``/``MN``), ``swizzle``
    (``none``/``32B``/``64B``/``128B``/``128B_base32B``, or ``auto``: the widest mode whose span divides the
    tile's contiguous extent, :func:`~pycute_layouts.arch.swizzle_choice.choose_swizzle`), optional ``stages`` (1), ``order``,
    ``mma_mn``, ``start_address``. Errors raise :class:`SpecError` naming the field.

    >>> parse_spec({"kernel": "k", "arch": "sm90", "A": {"tile": "64x64", "dtype": "bf16", "major": "K",
    ...             "swizzle": "128B"}}).operands[0].tile_mn
    64
    >>> parse_spec({"kernel": "k", "arch": "sm90", "A": {"tile": "64x64", "dtype": "bf16", "major": "K"}})
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.SpecError: spec field 'A.swizzle': missing (required: tile, dtype, major, swizzle)
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
        raise SpecError(f"spec field 'kernel': {fmt_value(kernel)} is not a usable C++ identifier (letters, digits, _; not "
                        "a keyword)")
    if "arch" not in data:
        raise SpecError("spec field 'arch': missing (sm90 or sm100)")
    arch = parse_arch(data["arch"])
    smem_base = int_field(data.get("smem_base", 0), "smem_base", 0)
    ops = tuple(_parse_operand(n, data[n], arch) for n in ("A", "B") if n in data)
    if not ops:
        raise SpecError("spec field 'A': missing (the spec needs operand tables A and/or B)")
    mma = data.get("mma")
    if mma is not None and (not isinstance(mma, Mapping) or arch != "sm100" or len(ops) != 2):
        raise SpecError("spec field 'mma': a table of tcgen05 instruction-descriptor settings, for sm100 specs with "
                        f"operands A and B (got {fmt_value(mma)} for {arch} with {len(ops)} operand(s))")
    return KernelSpec(kernel, arch, ops, smem_base, None if mma is None else dict(mma))


def load_spec(source: Any = None, fmt: str | None = None, *, text: str | None = None) -> KernelSpec:
    """Read a spec from a TOML or JSON file and :func:`parse_spec` it.

    Pre:  a path, a file object or ``text=``, in TOML or JSON (``fmt`` or the file suffix says which).
    Post: the KernelSpec of :func:`parse_spec`; SpecError for unreadable or invalid input.

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
        text, fmt = _read_spec(source, fmt)
    if not isinstance(text, str):
        raise SpecError(f"spec: text must be a string, got {fmt_value(text)}"[:200])
    if fmt is not None and not isinstance(fmt, str):
        raise SpecError(f"spec: unknown format {fmt_value(fmt)} (toml or json)"[:200])
    check_text_nesting(text, "spec", SpecError)
    if fmt is None:
        fmt = "json" if text.lstrip().startswith("{") else "toml"
    return parse_spec(_decode_spec(text, fmt))


def _read_spec(source: Any, fmt: Any) -> tuple[Any, Any]:
    # Pre:  source a path or a file object (user input).
    # Post: (its text, the format: fmt, else the path's .json/.toml suffix, else None); SpecError when unreadable.
    if source is None:
        raise SpecError("spec: pass a path or text=")
    if hasattr(source, "read") and not isinstance(source, (str, Path)):
        try:
            text = source.read()
        except (OSError, UnicodeDecodeError, ValueError) as e:
            raise SpecError(f"spec: cannot read {fmt_value(source)}: {e}"[:200]) from None
        if isinstance(text, bytes):
            try:
                text = text.decode("utf-8")
            except UnicodeDecodeError:
                raise SpecError(f"spec: {fmt_value(source)} is not UTF-8 text"[:200]) from None
        return text, fmt
    text = read_text_file(source, "spec", SpecError)
    suffix = Path(source).suffix.lower()
    if fmt is None and suffix in (".json", ".toml"):
        fmt = suffix[1:]
    return text, fmt


def _decode_spec(text: str, fmt: str) -> Any:
    # Pre:  text within the nesting limit; fmt a string.
    # Post: the JSON or TOML data of text; SpecError for invalid text or an unknown format.
    if fmt == "json":
        try:
            data = json.loads(text)
        except RecursionError:
            raise SpecError(f"spec: the JSON nests more than MAX_NESTING_DEPTH = {MAX_NESTING_DEPTH} levels deep") from None
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
        except RecursionError:
            raise SpecError(f"spec: the TOML nests more than MAX_NESTING_DEPTH = {MAX_NESTING_DEPTH} levels deep") from None
        except toml_mod.TOMLDecodeError as e:
            raise SpecError(f"spec: invalid TOML: {e}") from None
    else:
        raise SpecError(f"spec: unknown format {fmt_value(fmt)} (toml or json)")
    return data


