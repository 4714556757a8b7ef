"""tcgen05 (sm100) shared-memory operands: the UMMA shared-memory descriptor.

``tcgen05.mma`` reads shared-memory operands through a 64-bit *shared memory descriptor* (PTX ISA
9.7.16.4.1, Table 40) that extends the sm90 wgmma descriptor (see
:mod:`pycute_layouts.arch.wgmma`, whose model, units and canonical layouts carry over):

======  ====  ===========================================================================
bits    size  field
======  ====  ===========================================================================
0-13    14    start address ``(addr & 0x3FFFF) >> 4``
16-29   14    leading dimension byte offset (``lbo_mode`` 0) or byte address (``lbo_mode`` 1)
32-45   14    stride dimension byte offset
46-48   3     fixed constant 0b001 (CuTe: ``version_ = 1``, "the version for blackwell")
49-51   3     matrix base offset
52      1     leading dimension stride mode: 0 relative offset, 1 absolute address
53-60   8     fixed 0
61-63   3     layout type: SWIZZLE_NONE 0, 128B_BASE32B 1, 128B 2, 64B 4, 32B 6 (3, 5, 7 invalid)
======  ====  ===========================================================================

**What sm100 adds.** The 128-byte swizzle with 32-byte atomicity, ``Sw<2,5,2>`` on byte
addresses (layout type 1; TMA writes it with ``CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B``): 32-byte
chunks permuted inside 128-byte rows, 4 rows per atom. CuTe has only an MN-major atom for it
(``UMMA::Layout_MN_SW128_32B_Atom``: 128 bytes of MN x 4 K rows) and rejects it for K-major
(``"SWIZZLE_128B_BASE32B is invalid for Major-K"``); its canonical layout is
``((T,8,m),(4,k)):((1,T,LBO),(8T,SBO))`` (CuTe's comment writes the K-row stride as ``?T``; its
code checks 8 units = ``8T`` elements, one 128-byte row). The *LBO mode* bit selects PTX
9.7.16.3.1.2's absolute-address mode for a 48-byte K tile: LBO then holds the byte address of the
second K chunk; PTX restricts it to the 128B swizzle with 16-byte atomicity, K-major, base offset
0 (and sm_103a). :func:`make_smem_desc` derives relative-mode descriptors only; build an
absolute-mode one with ``UmmaSmemDescriptor(..., lbo_mode=1)``.

**Element types.** 16 (f16/bf16), 32 (tf32), 8 (e4m3/e5m2, s8/u8, and the *padded* sub-byte
forms of .kind::f8f6f4: e2m3/e3m2 as .b6x16_p32 and e2m1 as .b4x16_p64 take 16 bytes per 16
elements, the geometry of 8-bit elements) in both majors; 4 (*packed* e2m1 of .kind::mxf4 /
.kind::mxf4nvf4) K-major only. 6-bit elements have no packed shared-memory form; 1-bit elements
have no tcgen05 kind.

>>> from pycute_layouts import SwizzledSmemLayout, tile_to_shape
>>> a = smem_atom("MN", "128B_base32B", 32)                     # 32 tf32 (128 B) x 4 K rows
>>> d = make_smem_desc(SwizzledSmemLayout(a.swizzle, tile_to_shape(a.layout, (64, 8)), 32), "MN", 32)
>>> d.layout_type, d.lbo_bytes, d.sbo_bytes, d.version, hex(d.encode())
(1, 512, 1024, 1, '0x2000404000200000')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ...core.composed import SwizzledSmemLayout, UnboundWidthSmemLayout
from ...errors import DescriptorError
from ...limits import fmt
from ..smem_desc import MmaRules, SmemDescriptorBase, canonical_layout_for, check_u64, make_smem_desc_for, smem_atom_for
from ..swizzle_modes import MMA_MODES, SwizzleMode
from ..wgmma import CANONICAL_LAYOUTS as _SM90_TABLE

__all__ = [
    "CANONICAL_LAYOUTS",
    "SmemDescriptor",
    "SwizzleMode",
    "UmmaSmemDescriptor",
    "canonical_layout",
    "make_smem_desc",
    "smem_atom",
]

#: The sm90 table plus the MN-major 128B_base32B row (from CuTe's make_umma_desc).
CANONICAL_LAYOUTS: dict[tuple[str, SwizzleMode], str] = {
    **_SM90_TABLE,
    ("MN", SwizzleMode.B128_BASE32B): "((T,8,m),(4,k)):((1,T,LBO),(8T,SBO))",
}

_BOTH = ("K", "MN")

#: What sm100 tcgen05 accepts (the five modes, 4-bit K-major operands, the MN-only 128B_base32B).
SM100_RULES = MmaRules(
    who="umma",
    arch="sm100 tcgen05.mma",
    modes=MMA_MODES,
    table=CANONICAL_LAYOUTS,
    atom_bits={4: ("K",), 8: _BOTH, 16: _BOTH, 32: _BOTH, 64: _BOTH, 128: _BOTH},
    desc_bits={4: ("K",), 8: _BOTH, 16: _BOTH, 32: _BOTH},
    reject_bits={
        1: "1-bit elements: tcgen05.mma has no 1-bit kind (its kinds are tf32, f16, f8f6f4, i8, mxf8f6f4, "
           "mxf4, mxf4nvf4)",
        6: ("6-bit elements have no packed shared-memory form: e2m3/e3m2 operands of .kind::f8f6f4 are "
            "stored padded, 16 elements per 16 bytes (.b6x16_p32), which is the geometry of 8-bit elements: "
            "describe such a tile with element_bits=8"),
    },
    k_bytes={"K": (32, 64), "MN": (16, 32, 64)},
    mn_only_modes=(SwizzleMode.B128_BASE32B,),
)

_USED_BITS = (0x3FFF | (0x3FFF << 16) | (0x3FFF << 32) | (0x7 << 46) | (0x7 << 49) | (1 << 52) | (0x7 << 61))


@dataclass(frozen=True)
class UmmaSmemDescriptor(SmemDescriptorBase):
    """The sm100 tcgen05 shared memory descriptor (PTX ISA 9.7.16.4.1 "Shared Memory Descriptor", Table 40).

    Fields as :class:`pycute_layouts.arch.wgmma.SmemDescriptor` (bytes; same hardware model and
    base-offset rules) plus ``lbo_mode`` (bit 52: 0 = LBO is a relative byte offset, 1 = LBO is
    the absolute byte address of the second K chunk; 1 needs the 128B swizzle and base offset 0)
    and ``version`` (bits 46-48, the fixed constant 0b001). :meth:`encode` writes start 0-13,
    LBO 16-29, SBO 32-45, version 46-48, base offset 49-51, LBO mode 52, layout type 61-63.

    >>> d = UmmaSmemDescriptor(start_address=0x400, lbo_bytes=16, sbo_bytes=1024, swizzle="128B")
    >>> d.layout_type, hex(d.encode())
    (2, '0x4000404000010040')
    >>> UmmaSmemDescriptor.decode(d.encode()) == d
    True
    >>> print(d)
    UmmaSmemDescriptor[sm100 tcgen05] 0x4000404000010040
      start_address = 0x00400 (1024 B; field 0x0040)
      lbo           = 16 B (field 1)
      sbo           = 1024 B (field 64)
      base_offset   = 0
      lbo_mode      = 0 (relative byte offset)
      version       = 1 (bits 46-48 = 0b001)
      layout_type   = 2 (128B)
    """

    lbo_mode: int = 0
    version: int = 1

    _ARCH: ClassVar[str] = "sm100 tcgen05"

    def __post_init__(self) -> None:
        super().__post_init__()
        lm, v = self.lbo_mode, self.version
        if type(lm) is int and type(v) is int and v == 1 and (lm == 0 or lm == 1 and self.swizzle is SwizzleMode.B128
                                                              and not self.base_offset):
            return  # plain valid fields (the common case, e.g. decode): the checks below would all pass
        who = "UmmaSmemDescriptor"
        if isinstance(self.lbo_mode, bool) or not isinstance(self.lbo_mode, int) or self.lbo_mode not in (0, 1):
            raise DescriptorError(f"{who}: lbo_mode must be 0 (relative byte offset) or 1 (absolute byte "
                                  f"address), got {fmt(self.lbo_mode)}")
        if isinstance(self.version, bool) or not isinstance(self.version, int) or self.version != 1:
            raise DescriptorError(f"{who}: bits 46-48 are the fixed constant 0b001 (version 1), got "
                                  f"{fmt(self.version)}")
        if self.lbo_mode == 1:
            if self.swizzle is not SwizzleMode.B128:
                raise DescriptorError(f"{who}: lbo_mode=1 (absolute LBO address) is supported only with the "
                                      "128B swizzle with 16-byte atomicity (PTX 9.7.16.3.1.2.1), got "
                                      f"{self.swizzle.short_name}")
            if self.base_offset:
                raise DescriptorError(f"{who}: lbo_mode=1 requires base_offset 0 (PTX 9.7.16.3.1.2.1), got "
                                      f"{self.base_offset}")

    @property
    def layout_type(self) -> int:
        """Bits 61-63: SWIZZLE_NONE 0, 128B_BASE32B 1, 128B 2, 64B 4, 32B 6.

        >>> UmmaSmemDescriptor(0, 16, 256, "32B").layout_type
        6
        """
        return self.swizzle.tcgen05_layout_type

    def encode(self) -> int:
        """The 64-bit descriptor value.

        Pre: the descriptor was validated at construction.
        Post: a 64-bit int with the fields at Table 40's bit positions (version 1 at bits 46-48);
        ``decode(encode()) == self``.

        >>> hex(UmmaSmemDescriptor(0x2000, 256, 128, "none").encode())
        '0x400800100200'
        """
        return (self.start_16B | (self.lbo_16B << 16) | (self.sbo_16B << 32) | (self.version << 46)
                | (self.base_offset << 49) | (self.lbo_mode << 52) | (self.layout_type << 61))

    @classmethod
    def decode(cls, value: int) -> UmmaSmemDescriptor:
        """The descriptor of a 64-bit value; reserved bits must be 0 and bits 46-48 must be 0b001.

        Pre: ``value`` is a 64-bit unsigned int with version 1 and a valid layout type.
        Post: the descriptor with ``encode() == value``; DescriptorError otherwise.

        >>> UmmaSmemDescriptor.decode(0x4000404000010040).swizzle
        <SwizzleMode.B128: 3>
        >>> UmmaSmemDescriptor.decode(0x4000004000010040)
        Traceback (most recent call last):
        ...
        pycute_layouts.errors.DescriptorError: UmmaSmemDescriptor.decode: bits 46-48 are 0b000, ...
        """
        v = check_u64("UmmaSmemDescriptor.decode", value)
        if v & ~_USED_BITS:
            raise DescriptorError(f"UmmaSmemDescriptor.decode: {v:#018x} sets reserved bits "
                                  f"{v & ~_USED_BITS:#018x} (14-15, 30-31 and 53-60 must be 0)")
        version = (v >> 46) & 7
        if version != 1:
            raise DescriptorError(f"UmmaSmemDescriptor.decode: bits 46-48 are {version:#05b}, but Table 40 "
                                  "fixes them to 0b001 (a wgmma descriptor has 0 there)")
        return cls(start_address=(v & 0x3FFF) << 4, lbo_bytes=((v >> 16) & 0x3FFF) << 4,
                   sbo_bytes=((v >> 32) & 0x3FFF) << 4,
                   swizzle=SwizzleMode.from_tcgen05_layout_type((v >> 61) & 7),
                   base_offset=(v >> 49) & 7, lbo_mode=(v >> 52) & 1, version=version)

    def __str__(self) -> str:
        lines = [f"UmmaSmemDescriptor[{self._ARCH}] {self.encode():#018x}", *self._str_fields(),
                 f"  lbo_mode      = {self.lbo_mode} "
                 f"({'absolute byte address' if self.lbo_mode else 'relative byte offset'})",
                 f"  version       = {self.version} (bits 46-48 = 0b{self.version:03b})",
                 f"  layout_type   = {self.layout_type} ({self.swizzle.short_name})"]
        return "\n".join(lines)


#: The contract name: ``umma.SmemDescriptor`` is the sm100 descriptor.
SmemDescriptor = UmmaSmemDescriptor


def canonical_layout(major: Any, swizzle: Any, *, element_bits: int | None = None,
                     **symbols: Any) -> SwizzledSmemLayout | UnboundWidthSmemLayout:
    """The canonical layout of a (major, swizzle) row for tcgen05, symbolic in ``T, m, k, LBO, SBO``.

    Pre: as :func:`pycute_layouts.arch.wgmma.canonical_layout`, with the sm100 modes (128B_base32B MN-major
    only).
    Post: as :func:`pycute_layouts.arch.wgmma.canonical_layout`: the pointer form
    ``Sw<B,M,S> o smem_ptr[Nb](unset) o L`` once the element width is known; while T is unbound the
    same pointer form with the width a symbol (an UnboundWidthSmemLayout; ``ptx_text()`` is PTX's text).

    As :func:`pycute_layouts.arch.wgmma.canonical_layout`, plus the MN-major 128B_base32B row.

    >>> print(canonical_layout("MN", "128B_base32B", T=4))
    Sw<2,5,2> o smem_ptr[32b](unset) o ((4,8,m),(4,k)):((1,4,LBO),(32,SBO))
    """
    return canonical_layout_for(SM100_RULES, major, swizzle, element_bits, symbols)


def smem_atom(major: Any, swizzle: Any, element_bits: int) -> SwizzledSmemLayout:
    """The tcgen05 swizzle atom (CuTe ``UMMA::Layout_*_Atom<T>``; 128B_base32B is MN-major only).

    Pre: ``major`` is "K"/"MN"; ``swizzle`` names a tcgen05 mode (128B_base32B MN-major only);
    ``element_bits`` in 4 (K only), 8, 16, 32, 64, 128.
    Post: a SwizzledSmemLayout of one swizzle atom (MN x K).

    Element widths: 8, 16, 32 both majors; 4 (packed e2m1) K-major only; 64 and 128 as pure
    geometry; 1 and 6 raise :class:`DescriptorError`.

    >>> a = smem_atom("MN", "128B_base32B", 32)
    >>> print(a.swizzle, a.layout)
    Sw<2,5,2> (32,4):(1,32)
    >>> print(smem_atom("K", "128B", 4).layout)
    (8,256):(256,1)
    """
    return smem_atom_for(SM100_RULES, major, swizzle, element_bits)


def make_smem_desc(layout: Any, major: Any, element_bits: int, start_address: int = 0, *,
                   swizzle_anchor: str = "absolute", swizzle_unit: str = "elements") -> UmmaSmemDescriptor:
    """The tcgen05 descriptor of ONE operand's shared-memory layout (as CuTe's ``make_umma_desc``).

    Pre: as :func:`pycute_layouts.arch.wgmma.make_smem_desc`, with the sm100 modes and element widths.
    Post: a UmmaSmemDescriptor (relative LBO mode) whose model reads exactly ``layout``; DescriptorError
    naming the rule otherwise.

    Same contract as :func:`pycute_layouts.arch.wgmma.make_smem_desc`; the result has
    ``version`` 1 and ``lbo_mode`` 0. 128B_base32B operands must be MN-major (4-row K groups:
    SBO is the stride between 4-row groups).

    >>> from pycute_layouts import Layout, SwizzledSmemLayout, tile_to_shape
    >>> a = smem_atom("MN", "128B", 16)
    >>> d = make_smem_desc(SwizzledSmemLayout(a.swizzle, tile_to_shape(a.layout, (128, 16)), 16), "MN", 16)
    >>> d.lbo_bytes, d.sbo_bytes, d.layout_type
    (1024, 2048, 2)
    """
    return make_smem_desc_for(SM100_RULES, UmmaSmemDescriptor, layout, major, element_bits, start_address,
                           swizzle_anchor, {"lbo_mode": 0, "version": 1}, swizzle_unit)

