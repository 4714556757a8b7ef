"""wgmma (sm90) shared-memory operands: canonical layouts, swizzle atoms, and the matrix descriptor.

``wgmma.mma_async`` reads an A or B operand from shared memory through a 64-bit *matrix
descriptor*: a start address, two strides (LBO, SBO), a swizzle mode ("layout type") and a base
offset. The descriptor can only express a small family of layouts, the *canonical layouts* of
PTX ISA 9.7.15.5.1.2.1.3. This module reproduces that table, the swizzle atoms of Table 38, and
derives the descriptor of any shared-memory layout that belongs to the family (or explains, stride
by stride, why a layout does not).

**Units.** Layouts here are in *elements* (``T = 128 / element_bits`` elements per 16 bytes);
their swizzle acts on *byte addresses* (``Sw<3,4,3>`` is the 128-byte swizzle for every element
type). Descriptor fields are bytes (``lbo_bytes``, ``sbo_bytes``, ``start_address``); the
descriptor stores them in 16-byte units (``lbo_16B``: ``matrix-descriptor-encode(x) = (x &
0x3FFFF) >> 4``).

**The core matrix.** Seen in 16-byte units (CuTe: ``recast<uint128_t>``) every operand is made
of *core matrices*: 8 rows of one 16-byte unit. A swizzle mode of width ``W`` units (1, 2, 4, 8
for none, 32B, 64B, 128B) packs ``W`` units of the leading dimension in one row and 8 rows in one
atom; rows are ``W`` units apart. In 16-byte units the canonical layouts are::

    K-major   none   ((8,m),Ku):((1,SBO),LBO)        Ku = 2 (dense) or 4 (sparse) K units
              swz    ((8,m),Ku):((W,SBO),1)          Ku <= W: K stays inside one swizzle row
    MN-major  none   ((1,n),(8,k)):((-,SBO),(1,LBO)) SBO between MN units, LBO between 8-row K groups
              swz    ((W,n),(8,k)):((1,LBO),(W,SBO)) LBO between MN atoms, SBO between K groups

Note the *interleave swap*: for MN-major, the unswizzled mode calls the MN stride SBO and the K
stride LBO, the swizzled modes the other way round (PTX's definitions of LBO/SBO, CuTe's
``make_gmma_desc``). For K-major swizzled layouts LBO is unused and encoded as 1 ("assumed 1").
A stride whose mode has a single group (``m``, ``n`` or ``k`` = 1) is never read; it is
encoded 0, as CuTe does.

:func:`make_smem_desc` derives the fields the way CuTe's ``make_gmma_desc`` does -- view the
operand in 16-byte units, divide each mode by the core matrix, check the inner strides, read the
outer strides -- with three deliberate differences: every check raises :class:`DescriptorError`
naming the mode, the stride, the rule and the value that would satisfy it; strides CuTe leaves
unchecked (a second K chunk of a sparse operand) are checked too; and layouts that store two
elements at one address are rejected first.

**The hardware model** (used by :meth:`SmemDescriptor.element_addresses`, :meth:`advance` and the
base-offset rules) is stated on :class:`SmemDescriptor`.

>>> from pycute_layouts import parse
>>> print(canonical_layout("K", "128B", T=8))
Sw<3,4,3> o smem_ptr[16b](unset) o ((8,m),(8,2*k)):((64,SBO),(1,8))
>>> d = make_smem_desc(parse("Sw<3,3,3> o 0 o ((8,8),(8,2)):((64,512),(1,8))"), "K", 16, start_address=0x400)
>>> d.lbo_bytes, d.sbo_bytes, d.layout_type, hex(d.encode())
(16, 1024, 1, '0x4000004000010040')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ..core.composed import SwizzledSmemLayout, UnboundWidthSmemLayout
from ..errors import DescriptorError
from .smem_desc import MmaRules, SmemDescriptorBase, canonical_layout_for, check_u64, make_smem_desc_for, smem_atom_for
from .swizzle_modes import WGMMA_MODES, SwizzleMode

__all__ = [
    "CANONICAL_LAYOUTS",
    "SmemDescriptor",
    "SwizzleMode",
    "canonical_layout",
    "make_smem_desc",
    "smem_atom",
]

# --------------------------------------------------------------------------------------------------
# The PTX table, verbatim (PTX ISA 9.7.15.5.1.2.1.3 "Canonical Layouts", in elements)
# --------------------------------------------------------------------------------------------------

#: (major, mode) -> the canonical layout exactly as the PTX table writes it (layout text, swizzle).
CANONICAL_LAYOUTS: dict[tuple[str, SwizzleMode], str] = {
    ("MN", SwizzleMode.INTERLEAVE): "((T,1,m),(8,k)):((1,T,SBO),(1T,LBO))",
    ("MN", SwizzleMode.B32): "((T,2,m),(8,k)):((1,T,LBO),(2T,SBO))",
    ("MN", SwizzleMode.B64): "((T,4,m),(8,k)):((1,T,LBO),(4T,SBO))",
    ("MN", SwizzleMode.B128): "((T,8,m),(8,k)):((1,T,LBO),(8T,SBO))",
    ("K", SwizzleMode.INTERLEAVE): "((8,m),(T,2k)):((1T,SBO),(1,LBO))",
    ("K", SwizzleMode.B32): "((8,m),(T,2k)):((2T,SBO),(1,T))",
    ("K", SwizzleMode.B64): "((8,m),(T,2k)):((4T,SBO),(1,T))",
    ("K", SwizzleMode.B128): "((8,m),(T,2k)):((8T,SBO),(1,T))",
}


_BOTH = ("K", "MN")

_SM90_REJECT = {
    4: ("4-bit elements: sm90 wgmma has no 4-bit operand type (its types are f16, bf16, tf32, e4m3, e5m2, "
        "s8, u8 and b1); packed 4-bit operands exist only for tcgen05 .kind::mxf4/.kind::mxf4nvf4 on sm100 "
        "(use pycute_layouts.arch.umma)"),
    6: ("6-bit elements have no packed shared-memory form for any MMA: e2m3/e3m2 operands (tcgen05 "
        ".kind::f8f6f4, sm100 only) are stored padded, 16 elements per 16 bytes (.b6x16_p32), which is the "
        "geometry of 8-bit elements: describe such a tile with element_bits=8"),
}

#: What sm90 wgmma accepts (modes, element widths per major, K extents); the shared derivation's input.
SM90_RULES = MmaRules(
    who="wgmma",
    arch="sm90 wgmma.mma_async",
    modes=WGMMA_MODES,
    table=CANONICAL_LAYOUTS,
    atom_bits={1: ("K",), 8: _BOTH, 16: _BOTH, 32: _BOTH, 64: _BOTH, 128: _BOTH},
    desc_bits={1: ("K",), 8: ("K",), 16: _BOTH, 32: ("K",)},
    reject_bits=_SM90_REJECT,
    k_bytes={"K": (32, 64), "MN": (16, 32, 64)},
)


@dataclass(frozen=True)
class SmemDescriptor(SmemDescriptorBase):
    """The sm90 wgmma matrix descriptor (PTX ISA 9.7.15.5.1.2.2 "Matrix Descriptor Format").

    Fields in bytes: ``start_address`` (shared-memory byte address of the operand),
    ``lbo_bytes`` / ``sbo_bytes`` (leading / stride dimension byte offsets), ``swizzle`` (a
    :class:`SwizzleMode`), ``base_offset`` (3 bits). Bit layout of :meth:`encode`: start address
    bits 0-13, LBO 16-29, SBO 32-45 (each ``(x & 0x3FFFF) >> 4``), base offset 49-51, layout type
    62-63 (INTERLEAVE 0, 128B 1, 64B 2, 32B 3); all other bits 0. Values that do not fit are a
    :class:`DescriptorError`, never truncated: addresses and offsets must be multiples of 16 below
    256 KiB (so ``x >> 4`` fits 14 bits), the base offset in [0, 7] and 0 without swizzle.

    **Hardware model** (this library's; docs/hardware-validation.md records how it is checked). For
    every 16-byte chunk of the operand the unit forms the *unswizzled* address ``a = start_address
    + canonical offset`` (:meth:`element_addresses` spells the walk out) and reads the physical
    address ``a ^ ((((a >> 7) - base_offset) mod 2**B) << M)`` for the mode's ``Sw<B,M,S>``
    (:meth:`swizzled_address`). With ``base_offset = 0`` that is the byte swizzle of the
    *absolute* address -- exactly how TMA writes -- which is why advancing the start address inside
    a swizzled row works (:meth:`advance`). The base offset names the 128-byte line where the
    pattern's row 0 sits (PTX: ``(pattern start addr >> 0x7) & 0x7``), so

    - data swizzled by absolute address (TMA; CuTe's swizzled smem pointers): base offset 0,
      whatever the tile's alignment;
    - data swizzled relative to a buffer start ``P`` (threads storing through an element-offset
      swizzle from a buffer not on the 256/512/1024-byte pattern boundary; ``P`` on a 128-byte
      line): base offset ``(P >> 7) & 7`` (``make_smem_desc(..., swizzle_anchor="tile")``).

    >>> d = SmemDescriptor(start_address=0x400, lbo_bytes=16, sbo_bytes=1024, swizzle="128B")
    >>> d.lbo_16B, d.sbo_16B, d.layout_type, hex(d.encode())
    (1, 64, 1, '0x4000004000010040')
    >>> SmemDescriptor.decode(d.encode()) == d
    True
    >>> print(d)
    SmemDescriptor[sm90 wgmma] 0x4000004000010040
      start_address = 0x00400 (1024 B; field 0x0040)
      lbo           = 16 B (field 1)
      sbo           = 1024 B (field 64)
      base_offset   = 0
      layout_type   = 1 (128B)
    """

    _ARCH: ClassVar[str] = "sm90 wgmma"

    def __post_init__(self) -> None:
        super().__post_init__()
        if not self.swizzle.on_sm90:
            raise DescriptorError(f"SmemDescriptor: the {self.swizzle.short_name} mode does not exist on "
                                  "sm90 (use pycute_layouts.arch.umma.UmmaSmemDescriptor)")

    @property
    def layout_type(self) -> int:
        """Bits 62-63: INTERLEAVE 0, 128B 1, 64B 2, 32B 3.

        >>> SmemDescriptor(0, 16, 256, "32B").layout_type
        3
        """
        return self.swizzle.wgmma_layout_type

    def encode(self) -> int:
        """The 64-bit descriptor value.

        Pre: the descriptor was validated at construction.
        Post: a 64-bit int with the fields at PTX's bit positions and every other bit 0; ``decode(encode()) ==
        self``.

        >>> hex(SmemDescriptor(0x2000, 256, 128, "none").encode())
        '0x800100200'
        """
        return (self.start_16B | (self.lbo_16B << 16) | (self.sbo_16B << 32) | (self.base_offset << 49)
                | (self.layout_type << 62))

    @classmethod
    def decode(cls, value: int) -> SmemDescriptor:
        """The descriptor of a 64-bit value; bits outside the documented fields must be 0.

        Pre: ``value`` is a 64-bit unsigned int whose reserved bits are 0.
        Post: the descriptor with ``encode() == value``; DescriptorError otherwise.

        >>> SmemDescriptor.decode(0x4000004000010040).sbo_bytes
        1024
        >>> SmemDescriptor.decode(1 << 47)
        Traceback (most recent call last):
        ...
        pycute_layouts.errors.DescriptorError: SmemDescriptor.decode: ...
        """
        v = check_u64("SmemDescriptor.decode", value)
        used = 0x3FFF | (0x3FFF << 16) | (0x3FFF << 32) | (0x7 << 49) | (0x3 << 62)
        if v & ~used:
            raise DescriptorError(f"SmemDescriptor.decode: {v:#018x} sets bits outside the wgmma fields "
                                  f"(reserved bits {v & ~used:#018x}: 14-15, 30-31, 46-48, 52-61 must be 0)")
        return cls(start_address=(v & 0x3FFF) << 4, lbo_bytes=((v >> 16) & 0x3FFF) << 4,
                   sbo_bytes=((v >> 32) & 0x3FFF) << 4,
                   swizzle=SwizzleMode.from_wgmma_layout_type((v >> 62) & 3),
                   base_offset=(v >> 49) & 7)

    def __str__(self) -> str:
        lines = [f"SmemDescriptor[{self._ARCH}] {self.encode():#018x}", *self._str_fields(),
                 f"  layout_type   = {self.layout_type} ({self.swizzle.short_name})"]
        return "\n".join(lines)


# --------------------------------------------------------------------------------------------------
# Public functions
# --------------------------------------------------------------------------------------------------


def canonical_layout(major: Any, swizzle: Any, *, element_bits: int | None = None,
                     **symbols: Any) -> SwizzledSmemLayout | UnboundWidthSmemLayout:
    """The PTX canonical layout of a (major, swizzle) row, symbolic in ``T, m, k, LBO, SBO``.

    Pre: ``major`` is "K" or "MN"; ``swizzle`` names an sm90 mode; ``symbols`` bind some of T, m, k, LBO, SBO
    (positive ints; LBO/SBO may be 0); ``element_bits`` divides 128 or is None.
    Post: ``L`` the PTX row (elements), unbound symbols left symbolic, with the row's byte swizzle:
    CuTe's pointer form ``Sw<B,M,S> o smem_ptr[Nb](unset) o L`` (a SwizzledSmemLayout) when the
    element width is known (``element_bits`` or ``T``); while ``T`` is unbound the same pointer form
    with a symbolic width, ``Sw<B,M,S> o smem_ptr[(128/T)b](unset) o L`` (an UnboundWidthSmemLayout:
    it cannot be evaluated, binding ``T`` gives the SwizzledSmemLayout, ``ptx_text()`` is PTX's text).

    The layout text is the PTX table's (9.7.15.5.1.2.1.3), parsed with :func:`parse`: names
    given as keywords are bound, the others stay positive-integer symbols. The swizzle acts on
    byte addresses and the layout is in elements, so ``LBO`` and ``SBO`` here are *element*
    strides (the PTX examples' "LBO = 64*sizeof(tf32)"). ``element_bits`` binds ``T = 128 /
    element_bits``. PTX's table text ``Sw o 0 o L`` is not returned as a ComposedLayout: read with
    CuTe's unit rule, a plain ``Sw o 0 o L`` swizzles element offsets (``Sw<3,4,3> o 0 o L`` is the
    128B atom only on 8-bit elements; on 16-bit elements it is ``Sw<3,3,3> o 0 o L``).

    >>> print(canonical_layout("MN", "64B"))
    Sw<2,4,3> o smem_ptr[(128/T)b](unset) o ((T,4,m),(8,k)):((1,T,LBO),(4*T,SBO))
    >>> canonical_layout("MN", "64B").ptx_text()
    'Sw<2,4,3> o 0 o ((T,4,m),(8,k)):((1,T,LBO),(4*T,SBO))'
    >>> print(canonical_layout("MN", "64B").subs(T=8, m=1, k=1, LBO=64, SBO=256))
    Sw<2,4,3> o smem_ptr[16b](unset) o ((8,4,1),(8,1)):((1,8,64),(32,256))
    >>> print(canonical_layout("MN", "none", T=8, m=2, k=2, LBO=128, SBO=64))
    Sw<0,4,3> o smem_ptr[16b](unset) o ((8,1,2),(8,2)):((1,8,64),(8,128))
    >>> print(canonical_layout("K", "128B", element_bits=16, m=1, k=1, SBO=512).as_composed())
    Sw<3,3,3> o 0 o ((8,1),(8,2)):((64,512),(1,8))
    """
    return canonical_layout_for(SM90_RULES, major, swizzle, element_bits, symbols)


def smem_atom(major: Any, swizzle: Any, element_bits: int) -> SwizzledSmemLayout:
    """The swizzle atom of Table 38 for ``element_bits``-bit elements (CuTe's ``GMMA::Layout_*_Atom<T>``).

    Pre: ``major`` is "K"/"MN"; ``swizzle`` names an sm90 mode; ``element_bits`` in 1 (K only), 8, 16, 32, 64,
    128.
    Post: a SwizzledSmemLayout of ``atom_rows`` rows x ``width_bytes * 8 / element_bits`` elements (MN x K).

    In 16-byte units the atoms are 8x8, 4x8, 2x8, 1x8 (MN-major, MN x K) and 8x8, 8x4, 8x2, 8x1
    (K-major) for 128B/64B/32B/none; the leading dimension is scaled by ``T = 128 /
    element_bits``. Allowed element widths: 16 (f16/bf16), 32 (tf32), 8 (e4m3/e5m2/s8/u8), 1
    (b1, K-major) -- and 64 and 128 as pure geometry (no wgmma reads them; they view the same
    bytes in 8- or 16-byte units, 128 being Table 38's own unit). MN-major atoms of 8- and 32-bit
    elements are the geometry of Table 38 (its tf32 example) although wgmma can only read 16-bit
    MN-major operands. 4- and 6-bit elements raise :class:`DescriptorError`.

    >>> a = smem_atom("K", "128B", 16)
    >>> print(a.swizzle, a.layout)
    Sw<3,4,3> (8,64):(64,1)
    >>> print(smem_atom("MN", "32B", 32).layout)
    (8,8):(1,8)
    """
    return smem_atom_for(SM90_RULES, major, swizzle, element_bits)


def make_smem_desc(layout: Any, major: Any, element_bits: int, start_address: int = 0, *,
                   swizzle_anchor: str = "absolute", swizzle_unit: str = "elements") -> SmemDescriptor:
    """The wgmma descriptor of the shared-memory layout of ONE operand of one instruction.

    Pre: ``layout`` is one operand of one instruction, (MN, K) in elements, injective, bound;
    ``start_address`` a 16-byte multiple below 256 KiB.
    Post: a SmemDescriptor whose hardware model (``element_addresses``) reads exactly ``layout``;
    DescriptorError naming the rule otherwise.

    ``layout`` is the operand's ``(MN, K)`` layout in elements: a :class:`SwizzledSmemLayout`
    (CuTe's pointer form ``Sw<3,4,3> o smem_ptr[16b](unset) o L``, swizzle on byte addresses), a
    :class:`ComposedLayout` ``Sw o k o L`` read by CuTe's unit rule (the swizzle acts on element
    offsets: ``Sw<3,3,3> o 0 o L`` on 16-bit elements is the 128B atom; ``swizzle_unit="bytes"``
    reads it on byte addresses instead, PTX's reading; its offset, in elements, moves the start;
    a swizzle that is no atom in element units is refused naming both forms), or a plain
    :class:`Layout` (no swizzle). ``start_address`` is the shared-memory
    byte address of element offset 0. ``K`` must be one instruction's K: 32 bytes dense
    (16 x 16-bit, 8 x tf32, 32 x 8-bit, 256 x b1) or the sparse sizes (K-major 64 B; MN-major 16
    or 64 B). As CuTe's ``make_gmma_desc``: view the layout in 16-byte units, divide by the core
    matrix, check the inner strides, read the outer ones (see the module docstring for the
    canonical forms and the interleave swap). ``swizzle_anchor="tile"`` says the swizzle acts on
    byte offsets from ``start_address`` rather than on absolute addresses; the base offset is
    then PTX's ``(start_address >> 7) & 7`` (see :class:`SmemDescriptor`).

    Raises :class:`DescriptorError` naming the mode, stride, rule and needed value for any layout
    the descriptor cannot express (non-injective, non-canonical strides, wrong K extent,
    misaligned start, LBO/SBO overflow, a swizzle that matches no atom, element types wgmma
    lacks).

    >>> from pycute_layouts import parse
    >>> d = make_smem_desc(parse("Sw<2,3,3> o ((8,4,2),(8,2)):((1,8,256),(32,512))"), "MN", 16)
    >>> d.lbo_bytes, d.sbo_bytes, d.lbo_16B, d.sbo_16B, d.swizzle.short_name
    (512, 1024, 32, 64, '64B')
    >>> d == make_smem_desc(parse("Sw<2,4,3> o smem_ptr[16b](unset) o ((8,4,2),(8,2)):((1,8,256),(32,512))"), "MN", 16)
    True
    >>> make_smem_desc(parse("Sw<1,2,3> o ((8,2),(4,4)):((8,64),(1,4))"), "K", 32)
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.DescriptorError: wgmma.make_smem_desc: the layout ((8,2),(4,4)):((8,64),(1,4)) ...
    """
    return make_smem_desc_for(SM90_RULES, SmemDescriptor, layout, major, element_bits, start_address,
                           swizzle_anchor, {}, swizzle_unit)
