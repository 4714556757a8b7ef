"""The two sides of the TMA == wgmma theorem, as concrete (numpy) models; used by :mod:`pycute_layouts.proofs`.

A *pairing* names a TMA swizzle mode, the operand's major-ness, the element width and the MMA
generation (sm90 ``wgmma.mma_async`` or sm100 ``tcgen05.mma``), and the swizzle atom the MMA
side assumes (normally the one that matches the TMA mode). For a tile of ``m`` blocks along MN
and ``k`` blocks along K this module computes, for every element ``(mn, kk)`` of the tile:

* the **TMA side**: the absolute shared-memory byte address :func:`pycute_layouts.arch.tma.box_to_smem`
  gives it, for a tiled load whose box is ``(span, MN, K/span)`` (K-major: the inner box extent
  is the swizzle span along K) or ``(span, R, MN/span, K/R)`` (MN-major; ``R`` rows per atom);
* the **wgmma side**: for each instruction's K slice, the descriptor
  :func:`pycute_layouts.arch.wgmma.make_smem_desc` (``umma`` on sm100) derives from the tile's
  layout (:func:`~pycute_layouts.arch.wgmma.smem_atom` tiled with ``tile_to_shape``), encoded to
  64 bits and read back by the literal PTX bit positions (:func:`ptx_decode`, tables written out
  here, not the library's); the address is ``start + canonical offset`` (the PTX canonical
  layout of the layout type read back, with the LBO/SBO read back substituted) followed by the
  descriptor's swizzle model (:meth:`~pycute_layouts.arch.wgmma.SmemDescriptor.swizzled_address`).

Faults for tests (:class:`Faults`) replace descriptor fields before encoding.

>>> p = pairing("128B", "K", 16, "sm90")
>>> p.block_mn, p.block_k, p.k_instr_elems, p.tma_box(2, 1)
(8, 64, 16, (64, 16, 1))
>>> bool((tma_addresses(p, 2, 1, 0x400) == wgmma_addresses(p, 2, 1, 0x400)[0]).all())
True
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np

from ..arch import tma as tma_mod
from ..arch import umma as umma_mod
from ..arch import wgmma as wgmma_mod
from ..arch.swizzle_modes import SMEM_WINDOW_BYTES, SwizzleMode
from ..core.composed import ComposedLayout
from ..core.inttuple import is_int
from ..core.layout import _
from ..core.tiling import flat_divide, tile_to_shape
from ..errors import DescriptorError, LayoutError, ProofError, TensorMapError
from ..limits import MAX_EVAL_POINTS, check_count, check_fields, check_type, fmt
from .bitvec import BitVector

__all__ = [
    "ARCHS",
    "MAJORS",
    "ELEMENT_BITS",
    "TMA_MODES",
    "NotApplicable",
    "Faults",
    "Pairing",
    "pairing",
    "tma_addresses",
    "wgmma_addresses",
    "ptx_encode",
    "ptx_decode",
    "hardware_descriptor",
    "PTX_WGMMA_FIELDS",
    "PTX_WGMMA_LAYOUT_TYPE",
    "PTX_TCGEN05_FIELDS",
    "PTX_TCGEN05_LAYOUT_TYPE",
    "fact_scope",
    "derived_once",
    "PTX_SWIZZLE_XOR",
    "PTX_PATTERN_BOUNDARY_BYTES",
    "ptx_swizzle",
    "ptx_base_offset",
]

ARCHS = ("sm90", "sm100")
MAJORS = ("K", "MN")
ELEMENT_BITS = (8, 16, 32)
#: Every TMA mode the report classifies, in the order it lists them.
TMA_MODES = (SwizzleMode.NONE, SwizzleMode.B32, SwizzleMode.B64, SwizzleMode.B128,
             SwizzleMode.B128_BASE32B, SwizzleMode.B128_ATOM_32B_FLIP_8B,
             SwizzleMode.B128_ATOM_64B, SwizzleMode.B96)

#: The bytes of K one dense wgmma / tcgen05 instruction reads (16 x bf16, 8 x tf32, 32 x fp8).
K_INSTR_BYTES = 32

_S = SwizzleMode
_NO_MMA_MODE = {
    _S.B128_ATOM_32B_FLIP_8B: ("the 8-byte flip (128B_ATOM_32B_FLIP_8B) is a TMA-only layout: no wgmma or tcgen05 "
                               "layout type swaps 8-byte halves"),
    _S.B128_ATOM_64B: ("128B_ATOM_64B (64-byte atomicity, Sw<1,6,1>) is a TMA-only layout: no wgmma or tcgen05 "
                       "layout type moves 64-byte chunks"),
    _S.B96: ("96B is a PTX-only mode: CUtensorMapSwizzle has no value for it (no cuTensorMapEncodeTiled call can "
             "request it) and no wgmma or tcgen05 layout type has 96-byte rows"),
}
#: For the TMA-only modes: the MMA atom a kernel would have to pair them with (stated mismatched pairing).
NEAREST_ATOM = {_S.B128_ATOM_32B_FLIP_8B: SwizzleMode.B128_BASE32B, _S.B128_ATOM_64B: SwizzleMode.B128,
                _S.B96: SwizzleMode.B32}
del _S

# ----------------------------------------------------------------------------------------------
# facts derived once per proof (one report, one pairing's proof): tiles, descriptors, addresses
# ----------------------------------------------------------------------------------------------

_FACTS: dict | None = None
_MISSING = object()


@contextlib.contextmanager
def fact_scope() -> Iterator[None]:
    """Inside it, what the library derives for a pairing (tiles, descriptors, addresses) is computed once.

    The facts are kept for the outermost scope only (one ``report()``, one proof) and dropped when it
    ends, so a library changed between two proofs (a planted fault) is asked again.

    >>> with fact_scope():
    ...     a = tma_addresses(pairing("32B", "K", 16), 1, 1, 0)
    ...     a is tma_addresses(pairing("32B", "K", 16), 1, 1, 0)
    True
    """
    global _FACTS
    outer = _FACTS is None
    if outer:
        _FACTS = {}
    try:
        yield
    finally:
        if outer:
            _FACTS = None


def derived_once(key: tuple, fn: Callable[[], Any]) -> Any:
    """``fn()``, computed once per key inside a :func:`fact_scope` (every time outside one).

    >>> with fact_scope():
    ...     derived_once(("x",), lambda: [1]) is derived_once(("x",), lambda: [2])
    True

    Pre: ``key`` a hashable tuple, ``fn`` callable with no arguments (else ProofError).
    """
    if type(key) is not tuple:  # a tuple subclass is refused by the same check
        check_type("derived_once", "key", key, tuple, ProofError)
    if not callable(fn):
        raise ProofError(f"derived_once: fn must be callable with no arguments, got {fmt(fn)} ({type(fn).__name__})")
    try:
        facts = _FACTS
        v = _MISSING if facts is None else facts.get(key, _MISSING)  # the lookup hashes the key
        if facts is None:
            hash(key)
    except TypeError:
        raise ProofError(f"derived_once: key must be hashable, got {fmt(key)}") from None
    if facts is None:
        return fn()
    if v is _MISSING:
        v = facts[key] = fn()
    return v


def _frozen(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a


# ----------------------------------------------------------------------------------------------
# the descriptor bits as the hardware reads them, written out literally (not the library's tables)
# ----------------------------------------------------------------------------------------------

#: PTX ISA 9.7.15.5.1.2.2 "Matrix Descriptor Format" (sm90 ``wgmma``): field -> (lowest bit, width).
#: Start address, LBO and SBO hold ``(bytes & 0x3FFFF) >> 4``; every other bit is 0.
PTX_WGMMA_FIELDS = {"start": (0, 14), "lbo": (16, 14), "sbo": (32, 14), "base_offset": (49, 3), "layout_type": (62, 2)}
#: Bits 62-63 of a wgmma descriptor: 0 interleave (no swizzle), 1 128B, 2 64B, 3 32B.
PTX_WGMMA_LAYOUT_TYPE = {"none": 0, "128B": 1, "64B": 2, "32B": 3}
#: PTX ISA 9.7.16.4.1 "Shared Memory Descriptor", Table 40 (sm100 ``tcgen05``): bits 46-48 are the
#: fixed constant 0b001, bit 52 the LBO mode (0: relative offset), 53-60 fixed 0.
PTX_TCGEN05_FIELDS = {"start": (0, 14), "lbo": (16, 14), "sbo": (32, 14), "version": (46, 3), "base_offset": (49, 3),
                      "lbo_mode": (52, 1), "layout_type": (61, 3)}
#: Bits 61-63 of a tcgen05 descriptor: 0 none, 1 128B with 32-byte atomicity, 2 128B, 4 64B, 6 32B.
PTX_TCGEN05_LAYOUT_TYPE = {"none": 0, "128B_base32B": 1, "128B": 2, "64B": 4, "32B": 6}
PTX_TCGEN05_VERSION = 1

#: The swizzled layout types as PTX ISA 5.5.7's pattern tables draw them (16-byte cells; a row is a
#: 128-byte shared-memory line): XOR address bits ``[7, 7 + B)`` (the line within the pattern) into bits
#: ``[M, M + B)`` (the chunk within the line). 32B: cell bit 4 ^= line bit 7; 64B: bits 4-5 ^= bits 7-8;
#: 128B: bits 4-6 ^= bits 7-9; 128B with 32-byte atomicity: the 32-byte chunk (bits 5-6) ^= bits 7-8.
#: Name -> (B, M); written out here, not read from the library's facts table.
PTX_SWIZZLE_XOR = {"none": (0, 4), "32B": (1, 4), "64B": (2, 4), "128B": (3, 4), "128B_base32B": (2, 5)}
#: PTX ISA 5.5.7 "Starting address of the repeating pattern" (the base offset is 0 there), in bytes.
PTX_PATTERN_BOUNDARY_BYTES = {"32B": 256, "64B": 512, "128B": 1024, "128B_base32B": 1024}


def ptx_swizzle(mode_name: str, address: Any, base_offset: int = 0) -> Any:
    """The byte address the MMA unit reads for ``address`` under a layout type, by the PTX pattern tables.

    ``a ^ ((((a >> 7) - base_offset) mod 2**B) << M)`` with ``(B, M)`` from :data:`PTX_SWIZZLE_XOR`:
    the line of the pattern counted from the pattern start the base offset names. Works on ints,
    int arrays and bit vectors (the subtraction is written as an addition mod 2**B).

    >>> [ptx_swizzle("128B", a) for a in (128, 128 + 16, 2 * 128)]   # line 1: cells 0, 1 swapped; line 2: 0 <-> 2
    [144, 128, 288]
    >>> ptx_swizzle("32B", 384, base_offset=1)                       # the pattern starts at 128: line 0
    384
    """
    if not isinstance(mode_name, str) or mode_name not in PTX_SWIZZLE_XOR:
        raise ProofError(f"ptx_swizzle: the layout type must be one of {sorted(PTX_SWIZZLE_XOR)}, got {fmt(mode_name)}"[:200])
    if isinstance(base_offset, bool) or not isinstance(base_offset, (int, np.integer)) or not 0 <= base_offset <= 7:
        raise ProofError(f"ptx_swizzle: base_offset must be an int in [0, 7], got {fmt(base_offset)}"[:200])
    if isinstance(address, np.ndarray):
        if address.dtype.kind not in "iu":
            raise ProofError(f"ptx_swizzle: an address array must hold integers, got dtype {address.dtype}")
    elif isinstance(address, (bool, np.bool_)) or not isinstance(address, (int, np.integer, BitVector)):
        raise ProofError(f"ptx_swizzle: address must be an int, an int array or a bit vector, got {fmt(address)}"[:200])
    elif isinstance(address, (int, np.integer)) and not 0 <= address < 1 << 62:
        raise ProofError(f"ptx_swizzle: address must be a non-negative byte address below 2**62, got {fmt(address)}"[:200])
    b, m = PTX_SWIZZLE_XOR[mode_name]
    if not b:
        return address
    return address ^ ((((address >> 7) + (-base_offset) % (1 << b)) & ((1 << b) - 1)) << m)


def ptx_base_offset(mode_name: str, pattern_start: int) -> int:
    """PTX ISA 5.5.7's swizzle base offset of a pattern starting at ``pattern_start`` (0 on the boundary).

    ``(pattern_start / 128) % (boundary / 128)``: 128B ``% 8``, 64B ``% 4``, 32B ``% 2``.

    >>> ptx_base_offset("32B", 384), ptx_base_offset("128B", 0x480), ptx_base_offset("64B", 512)
    (1, 1, 0)
    """
    if not isinstance(mode_name, str) or mode_name not in PTX_PATTERN_BOUNDARY_BYTES:
        raise ProofError(f"ptx_base_offset: the swizzle must be one of {sorted(PTX_PATTERN_BOUNDARY_BYTES)}, got "
                         f"{fmt(mode_name)}"[:200])
    pattern_start = check_count("ptx_base_offset", "pattern_start", pattern_start, 0, 2**62)
    return (pattern_start // 128) % (PTX_PATTERN_BOUNDARY_BYTES[mode_name] // 128)


def ptx_fields(arch: str) -> tuple[dict, dict]:
    """The literal (field -> (bit, width), mode name -> layout-type code) tables of ``arch``.

    >>> ptx_fields("sm100")[1]["128B"], ptx_fields("sm90")[0]["layout_type"]
    (2, (62, 2))
    """
    ar = parse_arch(arch)
    if ar == "sm90":
        return PTX_WGMMA_FIELDS, PTX_WGMMA_LAYOUT_TYPE
    return PTX_TCGEN05_FIELDS, PTX_TCGEN05_LAYOUT_TYPE


def ptx_encode(arch: str, start_16B: Any, lbo_16B: Any, sbo_16B: Any, base_offset: Any, layout_type: Any,
               lbo_mode: Any = 0) -> Any:
    """The 64-bit descriptor value(s) by the literal PTX bit positions (ints or uint64 arrays, vectorised).

    >>> hex(ptx_encode("sm90", 0x40, 1, 64, 0, PTX_WGMMA_LAYOUT_TYPE["128B"]))
    '0x4000004000010040'
    >>> hex(ptx_encode("sm100", 0x40, 1, 64, 0, PTX_TCGEN05_LAYOUT_TYPE["128B"]))
    '0x4000404000010040'
    """
    fields, _ = ptx_fields(arch)
    for name, v in (("start_16B", start_16B), ("lbo_16B", lbo_16B), ("sbo_16B", sbo_16B), ("base_offset", base_offset),
                    ("layout_type", layout_type), ("lbo_mode", lbo_mode)):
        if isinstance(v, np.ndarray) and v.dtype.kind in "iu":
            continue
        check_count("ptx_encode", name, v, 0, 2**64 - 1)
    vals = {"start": start_16B, "lbo": lbo_16B, "sbo": sbo_16B, "base_offset": base_offset,
            "layout_type": layout_type, "lbo_mode": lbo_mode, "version": PTX_TCGEN05_VERSION}
    arr = any(isinstance(v, np.ndarray) for v in vals.values())
    out: Any = np.zeros(np.broadcast(*[np.asarray(v) for v in vals.values()]).shape, dtype=np.uint64) if arr else 0
    for name, (lo, width) in fields.items():
        v = vals[name]
        v = np.asarray(v, dtype=np.uint64) if arr else int(v)
        out = out | ((v & ((1 << width) - 1)) << (np.uint64(lo) if arr else lo))
    return out


def ptx_decode(arch: str, value: int) -> dict:
    """The fields the hardware reads from a 64-bit descriptor, by the literal PTX bit positions.

    Returns ``start_address``, ``lbo_bytes``, ``sbo_bytes`` (bytes), ``base_offset``, ``mode`` (a
    :class:`SwizzleMode` found by its *name* in the literal layout-type table) and ``lbo_mode``.
    A value with reserved bits set, a wrong fixed constant or an undefined layout type raises
    ProofError (the hardware's reading is undefined).

    >>> f = ptx_decode("sm90", 0x4000004000010040)
    >>> f["start_address"], f["sbo_bytes"], f["mode"].short_name
    (1024, 1024, '128B')
    >>> ptx_decode("sm100", 0x4000004000010040)
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.ProofError: ptx_decode(sm100): bits 46-48 of 0x4000004000010040 are 0, PTX fixes them to 0b001
    """
    fields, types = ptx_fields(arch)
    ar = parse_arch(arch)
    v = check_count("ptx_decode", "value", value, 0, 2**64 - 1)
    got = {name: (v >> lo) & ((1 << width) - 1) for name, (lo, width) in fields.items()}
    used = 0
    for lo, width in fields.values():
        used |= ((1 << width) - 1) << lo
    if v & ~used & ((1 << 64) - 1):
        raise ProofError(f"ptx_decode({ar}): {v:#018x} sets reserved bits {v & ~used:#018x}")
    if "version" in got and got["version"] != PTX_TCGEN05_VERSION:
        raise ProofError(f"ptx_decode({ar}): bits 46-48 of {v:#018x} are {got['version']}, PTX fixes them to 0b001")
    names = {code: name for name, code in types.items()}
    if got["layout_type"] not in names:
        raise ProofError(f"ptx_decode({ar}): layout type {got['layout_type']} of {v:#018x} is not defined by PTX")
    if got.get("lbo_mode", 0):
        raise ProofError(f"ptx_decode({ar}): {v:#018x} sets the LBO mode bit (absolute LBO address), which the "
                         "theorem's address model does not cover")
    return {"start_address": got["start"] << 4, "lbo_bytes": got["lbo"] << 4, "sbo_bytes": got["sbo"] << 4,
            "base_offset": got["base_offset"], "mode": SwizzleMode.parse(names[got["layout_type"]]),
            "lbo_mode": got.get("lbo_mode", 0)}


def hardware_descriptor(p: Pairing, value: int) -> Any:
    """The descriptor object whose fields are what the hardware reads from ``value`` (:func:`ptx_decode`).

    >>> hardware_descriptor(pairing("128B", "K", 16), 0x4000004000010040).start_address
    1024
    """
    check_pairing(p, "hardware_descriptor")
    f = ptx_decode(p.arch, value)
    try:
        return p.descriptor_class(f["start_address"], f["lbo_bytes"], f["sbo_bytes"], f["mode"], f["base_offset"])
    except DescriptorError as e:
        raise ProofError(f"the encoded descriptor {int(value):#018x} has fields no {p.arch} descriptor allows: {e}") from None


class NotApplicable(ProofError):
    """The pairing does not exist on the hardware (the message says why); not a refutation.

    >>> try:
    ...     pairing("128B_ATOM_32B", "K", 16, "sm100")
    ... except NotApplicable as e:
    ...     print(e.reason[:40])
    umma.smem_atom: the 128B_base32B mode ha
    """

    def __init__(self, reason: str):
        self.reason = reason
        super().__init__(f"not applicable: {reason}")


@dataclass(frozen=True)
class Faults:
    """Deliberate descriptor faults (for tests): each non-None field replaces the derived value.

    ``lbo_bytes`` / ``sbo_bytes`` / ``base_offset`` / ``swizzle`` (the layout type, any
    :meth:`SwizzleMode.parse` spelling) replace the field of every instruction's descriptor before
    it is encoded; ``start_offset_bytes`` moves every start address; ``swizzle_anchor="tile"``
    derives the descriptor as if the data were swizzled relative to the tile start (PTX's base
    offset ``(start >> 7) & 7``) instead of by absolute address as TMA writes it.

    >>> Faults(sbo_bytes=512).active()
    True
    >>> Faults().active()
    False
    """

    lbo_bytes: int | None = None
    sbo_bytes: int | None = None
    base_offset: int | None = None
    swizzle: Any = None
    start_offset_bytes: int = 0
    swizzle_anchor: str = "absolute"

    def __post_init__(self) -> None:
        for name in ("lbo_bytes", "sbo_bytes", "base_offset"):
            v = getattr(self, name)
            if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v < 0):
                raise ProofError(f"Faults: {name} must be a non-negative int or None, got {fmt(v)}")
        if isinstance(self.start_offset_bytes, bool) or not isinstance(self.start_offset_bytes, int):
            raise ProofError(f"Faults: start_offset_bytes must be an int, got {fmt(self.start_offset_bytes)}")
        if self.swizzle is not None:
            object.__setattr__(self, "swizzle", SwizzleMode.parse(self.swizzle))
        if not isinstance(self.swizzle_anchor, str) or self.swizzle_anchor not in ("absolute", "tile"):
            raise ProofError(f"Faults: swizzle_anchor must be 'absolute' or 'tile', got {fmt(self.swizzle_anchor)}")

    def active(self) -> bool:
        """Whether any fault is set."""
        return self != _NO_FAULTS

    def describe(self) -> str:
        """The faults in words, e.g. ``"SBO = 512 B"`` (empty when none).

        >>> Faults(lbo_bytes=32, base_offset=3).describe()
        'LBO = 32 B, base offset = 3'
        """
        out = []
        if self.lbo_bytes is not None:
            out.append(f"LBO = {self.lbo_bytes} B")
        if self.sbo_bytes is not None:
            out.append(f"SBO = {self.sbo_bytes} B")
        if self.base_offset is not None:
            out.append(f"base offset = {self.base_offset}")
        if self.swizzle is not None:
            out.append(f"layout type = {self.swizzle.short_name}")
        if self.start_offset_bytes:
            out.append(f"start address + {self.start_offset_bytes} B")
        if self.swizzle_anchor != "absolute":
            out.append("swizzle anchored at the tile start (PTX base-offset formula)")
        return ", ".join(out)


_NO_FAULTS = Faults()


# ----------------------------------------------------------------------------------------------
# input parsing
# ----------------------------------------------------------------------------------------------


def parse_tma_mode(value: Any) -> SwizzleMode:
    """A TMA swizzle mode (anything ``SwizzleMode.parse`` accepts; "interleave" means NONE).

    >>> parse_tma_mode("interleave"), parse_tma_mode(3)
    (<SwizzleMode.INTERLEAVE: 0>, <SwizzleMode.B128: 3>)
    """
    try:
        return SwizzleMode.parse(value)
    except TensorMapError as e:
        raise ProofError(f"unknown TMA swizzle mode {fmt(value)}: {str(e).split(': ', 1)[-1]}") from None


def parse_major(value: Any, who: str = "major") -> str:
    """'K' or 'MN' (case-insensitive; 'M' and 'N' mean MN).

    >>> parse_major("mn"), parse_major("N")
    ('MN', 'MN')
    """
    if isinstance(value, str):
        v = value.strip().upper()
        if v in ("K", "MN", "M", "N"):
            return "K" if v == "K" else "MN"
    raise ProofError(f"{who} must be 'K' or 'MN' (the operand's contiguous dimension), got {fmt(value)}")


def parse_bits(value: Any) -> int:
    """An element width of the theorem: 8, 16 or 32 bits.

    >>> parse_bits(16)
    16
    """
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or int(value) not in ELEMENT_BITS:
        raise ProofError(f"element_bits must be one of {ELEMENT_BITS} (8: e4m3/e5m2/s8/u8, 16: f16/bf16, 32: tf32), "
                         f"got {fmt(value)}")
    return int(value)


def parse_arch(value: Any) -> str:
    """'sm90' (wgmma) or 'sm100' (tcgen05); 'sm90a', 'sm100a', 'hopper', 'blackwell' are accepted.

    >>> parse_arch("SM90a"), parse_arch("blackwell")
    ('sm90', 'sm100')
    """
    if isinstance(value, str):
        v = value.strip().lower()
        if v in ("sm90", "sm90a", "hopper", "wgmma"):
            return "sm90"
        if v in ("sm100", "sm100a", "blackwell", "tcgen05", "umma"):
            return "sm100"
    raise ProofError(f"arch must be 'sm90' (wgmma.mma_async) or 'sm100' (tcgen05.mma), got {fmt(value)}; the theorem "
                     "is about the wgmma/tcgen05 shared-memory descriptors, which earlier architectures lack")


# ----------------------------------------------------------------------------------------------
# the pairing and its geometry
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Pairing:
    """A resolved pairing: both sides' modes, majors, the element width, the arch and the tile geometry.

    ``block_mn`` x ``block_k`` (elements) is the tile block: the least common multiple of the TMA
    atom, the MMA atom and (along K) one instruction's K; a tile is ``m`` x ``k`` blocks.
    Build one with :func:`pairing`, which resolves and checks the names.

    >>> p = pairing("64B", "MN", 16)
    >>> p.mma_mode, p.block_mn, p.block_k, p.tile_shape(2, 1)
    (<SwizzleMode.B64: 2>, 32, 16, (64, 16))
    """

    tma: SwizzleMode
    tma_major: str
    mma_mode: SwizzleMode
    mma_major: str
    element_bits: int
    arch: str

    # -- facts ------------------------------------------------------------------------------
    def __post_init__(self) -> None:
        check_fields(self)

    @property
    def module(self) -> ModuleType:
        """``arch.wgmma`` (sm90) or ``arch.umma`` (sm100)."""
        return wgmma_mod if self.arch == "sm90" else umma_mod

    @property
    def descriptor_class(self) -> type:
        """``SmemDescriptor`` (sm90) or ``UmmaSmemDescriptor`` (sm100)."""
        return wgmma_mod.SmemDescriptor if self.arch == "sm90" else umma_mod.UmmaSmemDescriptor

    @property
    def element_bytes(self) -> int:
        return self.element_bits // 8

    @property
    def tma_info(self) -> tma_mod.SwizzleModeInfo:
        return tma_mod.swizzle_mode_info(self.tma)

    @property
    def tma_span_bytes(self) -> int:
        """The box's inner extent: the swizzle span (16 bytes, one core-matrix row, without swizzling)."""
        return self.tma_info.span_bytes or 16

    @property
    def tma_span_elems(self) -> int:
        return self.tma_span_bytes // self.element_bytes

    @property
    def tma_rows(self) -> int:
        """Rows of ``span`` bytes in one TMA atom: the pattern's 128-byte lines (8; 4 for the 32-byte-atom modes)."""
        return 4 if self.tma in (SwizzleMode.B128_BASE32B, SwizzleMode.B128_ATOM_32B_FLIP_8B) else 8

    @property
    def tma_atom(self) -> tuple[int, int]:
        """The TMA atom's (MN, K) extent in elements."""
        if self.tma_major == "K":
            return (self.tma_rows, self.tma_span_elems)
        return (self.tma_span_elems, self.tma_rows)

    @property
    def mma_atom(self) -> Any:
        """The MMA side's swizzle atom (``smem_atom``), a SwizzledSmemLayout."""
        return self.module.smem_atom(self.mma_major, self.mma_mode, self.element_bits)

    @functools.cached_property
    def mma_atom_shape(self) -> tuple[int, int]:
        lay = self.mma_atom.layout
        return (int(lay.shape[0]), int(lay.shape[1]))

    @property
    def k_instr_elems(self) -> int:
        """K elements one dense instruction reads: 32 bytes."""
        return K_INSTR_BYTES * 8 // self.element_bits

    @functools.cached_property
    def block_mn(self) -> int:
        return math.lcm(self.tma_atom[0], self.mma_atom_shape[0])

    @functools.cached_property
    def block_k(self) -> int:
        return math.lcm(self.tma_atom[1], self.mma_atom_shape[1], self.k_instr_elems)

    @property
    def period_bytes(self) -> int:
        """The split period ``P``: the larger swizzle period of the two sides, at least 16 bytes."""
        tma_period = 1 if self.tma is SwizzleMode.NONE else self.tma_info.period_bytes
        return max(16, tma_period, self.mma_mode.period_bytes)

    @property
    def tma_alignment_bytes(self) -> int:
        return self.tma_info.required_alignment_bytes

    def tile_shape(self, m: Any, k: Any) -> tuple[Any, Any]:
        """(MN, K) of a tile of ``m`` x ``k`` blocks, in elements."""
        if type(m) is int and type(k) is int and 1 <= m <= MAX_EVAL_POINTS and 1 <= k <= MAX_EVAL_POINTS:
            return (self.block_mn * m, self.block_k * k)  # the common case, checked as check_count would
        for name, v in (("m", m), ("k", k)):
            if isinstance(v, tuple) or type(v) is not int and not is_int(v):
                raise ProofError(f"Pairing.tile_shape: {name} must be an integer or a sympy integer symbol, got {fmt(v)}")
            if type(v) is int:
                check_count("Pairing.tile_shape", name, v, 1, MAX_EVAL_POINTS, ProofError)
        return (self.block_mn * m, self.block_k * k)

    def tma_box(self, m: int, k: int) -> tuple[int, ...]:
        """The box dims (elements, innermost first) of the TMA load that fills the tile."""
        mn, kk = self.tile_shape(m, k)
        if self.tma_major == "K":
            return (self.tma_span_elems, mn, kk // self.tma_span_elems)
        return (self.tma_span_elems, self.tma_rows, mn // self.tma_span_elems, kk // self.tma_rows)

    def tile_layout(self, m: Any, k: Any) -> Any:
        """The MMA side's tile (elements): its atom tiled to the tile shape, MN first (CuTe's default)."""
        shape = self.tile_shape(m, k)
        atom = self.mma_atom_layout
        # a function of the atom's layout and the shape: pairings whose atoms are one layout (both archs) share it
        return derived_once(("tile", atom, shape), lambda: tile_to_shape(atom, shape))

    @functools.cached_property
    def mma_atom_layout(self) -> Any:
        """The layout (elements) of the MMA side's swizzle atom, derived once per pairing.

        >>> print(pairing("64B", "K", 16).mma_atom_layout)
        (8,32):(32,1)
        """
        return self.mma_atom.layout

    @property
    def mma_key(self) -> tuple:
        """What the MMA side's facts depend on: arch, atom mode, major and element width."""
        return (self.arch, self.mma_mode, self.mma_major, self.element_bits)

    def describe(self) -> str:
        """One line naming both sides.

        >>> pairing("64B", "K", 16, "sm90", mma_mode="128B").describe()
        'TMA 64B K-major box -> sm90 wgmma 128B K-major atom, 16-bit elements'
        """
        mma = "wgmma" if self.arch == "sm90" else "tcgen05"
        return (f"TMA {self.tma.tma_name} {self.tma_major}-major box -> {self.arch} {mma} {self.mma_mode.short_name} "
                f"{self.mma_major}-major atom, {self.element_bits}-bit elements")


def pairing(tma_swizzle: Any, major: Any, element_bits: Any, arch: Any = "sm90", *, mma_mode: Any = None,
            mma_major: Any = None) -> Pairing:
    """Resolve and check a pairing; raises ProofError for bad input, NotApplicable when it cannot exist.

    ``mma_mode`` defaults to the atom that matches the TMA mode (``SwizzleMode.from_tma``);
    ``mma_major`` to ``major``. Naming another one states a mismatched pairing.

    >>> pairing("128B", "K", 16).mma_mode
    <SwizzleMode.B128: 3>
    >>> pairing("32B", "MN", 8, "sm90")
    Traceback (most recent call last):
    ...
    pycute_layouts.proofs.model.NotApplicable: not applicable: wgmma.make_smem_desc: MN-major 8-bit operands ...
    """
    t = parse_tma_mode(tma_swizzle)
    mj = parse_major(major)
    bits = parse_bits(element_bits)
    ar = parse_arch(arch)
    wmj = mj if mma_major is None else parse_major(mma_major, "wgmma_major")
    if mma_mode is None:
        if t in _NO_MMA_MODE:
            raise NotApplicable(f"{_NO_MMA_MODE[t]}; name an MMA atom (wgmma_swizzle=...) to state a mismatched "
                                f"pairing (nearest: {NEAREST_ATOM[t].short_name})")
        mode = SwizzleMode.from_tma(int(t))
    else:
        try:
            mode = SwizzleMode.parse(mma_mode)
        except DescriptorError as e:
            raise ProofError(f"unknown wgmma swizzle mode {fmt(mma_mode)}: {str(e).split(': ', 1)[-1]}") from None
    p = Pairing(t, mj, mode, wmj, bits, ar)
    if t is SwizzleMode.B96 and (p.tma_span_bytes * 8) % bits:
        raise NotApplicable("96-byte rows do not hold a whole number of elements")
    mod = p.module
    if ar == "sm90" and not mode.on_sm90:
        raise NotApplicable(f"sm90 wgmma has no layout type for the {mode.short_name} mode (128-byte swizzle with "
                            "32-byte atomicity exists only for tcgen05 on sm100)")
    try:
        mod.smem_atom(wmj, mode, bits)
        # the descriptor rules (element types per major) are checked on the smallest tile
        instruction_descriptors(p, 1, 1, 0, Faults(), only_first=True)
    except DescriptorError as e:
        raise NotApplicable(str(e)) from None
    return p


# ----------------------------------------------------------------------------------------------
# the two sides, concretely
# ----------------------------------------------------------------------------------------------


def check_pairing(p: Any, who: str) -> None:
    """Refuse anything but a :class:`Pairing` (build one with :func:`pairing`).

    >>> check_pairing("128B", "tma_addresses")
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.ProofError: tma_addresses: expected a Pairing (proofs.pairing(...)), got '128B'
    """
    if not isinstance(p, Pairing):
        raise ProofError(f"{who}: expected a Pairing (proofs.pairing(...)), got {fmt(p)}"[:200])


def _check_size(p: Pairing, m: Any, k: Any, dst: Any) -> None:
    for name, v in (("m", m), ("k", k)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1:
            raise ProofError(f"{name} (blocks of the tile) must be a positive int, got {fmt(v)}")
    if isinstance(dst, bool) or not isinstance(dst, (int, np.integer)) or dst < 0:
        raise ProofError(f"dst_address must be a non-negative int (a shared-memory byte address), got {fmt(dst)}")
    a = p.tma_alignment_bytes
    if dst % a:
        raise ProofError(f"dst_address {dst:#x} is not a multiple of {a} bytes, the TMA destination alignment of "
                         f"{p.tma.tma_name}")
    mn, kk = p.tile_shape(int(m), int(k))
    if dst + mn * kk * p.element_bytes > SMEM_WINDOW_BYTES:
        raise ProofError(f"the {mn}x{kk} tile at {dst:#x} does not fit the 256 KiB shared-memory window")


def tma_addresses(p: Pairing, m: int, k: int, dst_address: int) -> np.ndarray:
    """Absolute byte address of every tile element ``[mn, kk]`` as the TMA load places it (box_to_smem).

    >>> p = pairing("32B", "K", 16)
    >>> tma_addresses(p, 1, 1, 0)[1, :2].tolist()      # row 1 is in the second 32-byte row: chunks swapped
    [32, 34]
    """
    check_pairing(p, "tma_addresses")
    _check_size(p, m, k, dst_address)
    # the TMA side is a function of the mode, the box's major-ness, the element width, the box and dst (the
    # MMA side only sized the tile): pairings that load the same box share it
    key = ("tma", p.tma, p.tma_major, p.element_bits, p.tma_box(m, k), int(dst_address))
    return derived_once(key, lambda: _frozen(_tma_addresses(p, m, k, dst_address)))


def _tma_addresses(p: Pairing, m: int, k: int, dst_address: int) -> np.ndarray:
    box = p.tma_box(m, k)
    eb = p.element_bytes
    placed = tma_mod.box_to_smem(p.tma, eb, box, int(dst_address))
    mn_n, k_n = p.tile_shape(m, k)
    span = p.tma_span_elems
    r = p.tma_rows

    def flat_index() -> np.ndarray:
        """Element (mn, kk)'s byte in the placed box, as a flat index: where tma_addresses indexes box_to_smem's result."""
        mn, kk = np.meshgrid(np.arange(mn_n), np.arange(k_n), indexing="ij")
        if p.tma_major == "K":
            at = (kk // span, mn, (kk % span) * eb)
        else:
            at = (kk // r, mn // span, kk % r, (mn % span) * eb)
        return _frozen(np.ravel_multi_index(at, placed.shape))

    flat = derived_once(("tma index", p.tma_major, span, r, eb, mn_n, k_n, placed.shape), flat_index)
    return placed.reshape(-1)[flat] + int(dst_address)


def instruction_descriptors(p: Pairing, m: int, k: int, dst: int, faults: Faults, only_first: bool = False,
            instructions: Any = None) -> list:
    """The descriptor of every instruction K slice as the hardware reads it.

    The library derives it (``make_smem_desc``), faults are applied, it is encoded to 64 bits
    (``encode``) and read back by the literal PTX bit positions (:func:`hardware_descriptor`; the
    library's ``decode`` is checked separately, by the descriptor-encoding lemma).
    ``instructions`` selects instruction indices (default: all; ``only_first``: instruction 0).
    """
    mn_n, k_n = p.tile_shape(m, k)
    ki = p.k_instr_elems
    js = [0] if only_first else range(k_n // ki) if instructions is None else instructions
    key = (p.mma_key, mn_n, k_n)

    def divided() -> tuple:
        # the tile with the mode's swizzle on byte addresses: PTX's reading, asked for explicitly (swizzle_unit="bytes")
        tile = ComposedLayout(p.mma_mode.byte_swizzle, 0, p.tile_layout(m, k))
        div = flat_divide(tile, (mn_n, ki))
        return div(_, _, 0, 0), div.inner[3]

    def instruction_slice(j: int) -> Any:
        """``div(_, _, 0, j)``: the same modes for every j, the offset of (0, 0, 0, j) -- mode 3 at j -- added."""
        # a function of the byte swizzle (the mode's), the tile (the atom's layout, the shape) and K_instr (the width)
        s0, mode3 = derived_once(("divided", p.mma_mode, p.element_bits, p.mma_atom_layout, mn_n, k_n), divided)
        if j == 0:
            return s0
        return ComposedLayout(s0.outer, s0.offset + mode3(j), s0.inner)

    out = []
    for j in js:
        def derive(j: int = j) -> Any:
            sl = instruction_slice(j)
            # the library's answer for this argument (a pure function of it): tiles of one MN extent have the
            # same instruction slices, whatever their K extent, and are asked once
            return derived_once(("make_smem_desc", p.arch, sl, p.mma_major, p.element_bits, dst, faults.swizzle_anchor),
                                lambda: p.module.make_smem_desc(sl, p.mma_major, p.element_bits, start_address=dst,
                                                                swizzle_anchor=faults.swizzle_anchor, swizzle_unit="bytes"))

        d = _apply_faults(derived_once(("desc", dst, faults.swizzle_anchor, j) + key, derive), faults)
        v = d.encode()
        out.append(derived_once(("hardware", p.arch, v), lambda v=v: hardware_descriptor(p, v)))
    return out


def _apply_faults(d: Any, f: Faults) -> Any:
    if not f.active():
        return d
    ch: dict = {}
    if f.lbo_bytes is not None:
        ch["lbo_bytes"] = f.lbo_bytes
    if f.sbo_bytes is not None:
        ch["sbo_bytes"] = f.sbo_bytes
    if f.base_offset is not None:
        ch["base_offset"] = f.base_offset
    if f.swizzle is not None:
        ch["swizzle"] = f.swizzle
    if f.start_offset_bytes:
        ch["start_address"] = d.start_address + f.start_offset_bytes
    try:
        return dataclasses.replace(d, **ch)
    except LayoutError as e:
        raise ProofError(f"the fault ({f.describe()}) cannot be encoded in a descriptor: {e}") from None


def canonical_extents(p: Pairing, mode: SwizzleMode, mn_elems: int) -> dict:
    """The canonical layout's ``m`` and ``k`` for one instruction's operand (MN x 32 bytes of K).

    >>> canonical_extents(pairing("128B", "MN", 16), SwizzleMode.B128, 128)
    {'m': 2, 'k': 2}
    """
    t = 128 // p.element_bits
    ki = p.k_instr_elems
    if p.mma_major == "K":
        return {"m": -(-mn_elems // 8), "k": max(1, ki // (2 * t))}
    return {"m": -(-mn_elems // (t * mode.width_16B)), "k": -(-ki // mode.atom_rows)}


def canonical_offsets(p: Pairing, d: Any, mn_elems: int) -> np.ndarray:
    """Element offset of every ``(mn, kk)`` of one instruction's operand in the canonical layout of ``d``.

    The PTX canonical layout of ``d``'s layout type (:func:`canonical_layout`, symbolic), with
    ``T``, ``m``, ``k`` bound and the descriptor's LBO / SBO (bytes / element bytes) substituted.
    """
    return derived_once(("canonical", p.mma_key, d.swizzle, d.lbo_bytes, d.sbo_bytes, mn_elems),
                 lambda: _frozen(_canonical_offsets(p, d, mn_elems)))


def _canonical_offsets(p: Pairing, d: Any, mn_elems: int) -> np.ndarray:
    mode = d.swizzle
    lay = p.module.canonical_layout(p.mma_major, mode, element_bits=p.element_bits, **canonical_extents(p, mode,
                                                                                                        mn_elems))
    eb = p.element_bytes
    lay = lay.subs(LBO=d.lbo_bytes // eb, SBO=d.sbo_bytes // eb)
    mn, kk = np.meshgrid(np.arange(mn_elems), np.arange(p.k_instr_elems), indexing="ij")
    return np.asarray(lay.inner(mn, kk), dtype=np.int64)


def wgmma_addresses(p: Pairing, m: int, k: int, dst_address: int, faults: Faults | None = None) -> tuple:
    """Absolute byte address of every tile element as the MMA unit reads it, and the decoded descriptors.

    Element ``(mn, kk)`` is read by instruction ``j = kk // K_instr`` through its descriptor:
    ``swizzled_address(start + eb * canonical(mn, kk % K_instr))``.

    >>> p = pairing("32B", "K", 16)
    >>> a, descs = wgmma_addresses(p, 1, 1, 0)
    >>> a[1, :2].tolist(), hex(descs[0].encode())
    ([32, 34], '0xc000000000010000')
    """
    check_pairing(p, "wgmma_addresses")
    _check_size(p, m, k, dst_address)
    f = faults or Faults()
    # a function of the MMA side (the TMA side only sized the tile): pairings of one atom and tile shape share it
    out, descs = derived_once(("wgmma", p.mma_key, p.tile_shape(m, k), int(dst_address), f),
                              lambda: _wgmma_addresses(p, m, k, dst_address, f))
    return out, list(descs)


def _wgmma_addresses(p: Pairing, m: int, k: int, dst_address: int, f: Faults) -> tuple:
    descs = instruction_descriptors(p, m, k, int(dst_address), f)
    mn_n, k_n = p.tile_shape(m, k)
    ki = p.k_instr_elems
    out = np.empty((mn_n, k_n), dtype=np.int64)
    cache: dict = {}
    for j, d in enumerate(descs):
        key = (d.swizzle, d.lbo_bytes, d.sbo_bytes)
        offs_bytes = cache.get(key)
        if offs_bytes is None:
            offs_bytes = cache[key] = canonical_offsets(p, d, mn_n) * p.element_bytes
        out[:, j * ki:(j + 1) * ki] = d.swizzled_address(d.start_address + offs_bytes)
    return _frozen(out), tuple(descs)
