"""The one swizzle-mode vocabulary shared by wgmma (sm90), tcgen05 (sm100) and TMA.

A shared-memory operand of ``wgmma.mma_async`` or ``tcgen05.mma`` is stored in one of five
swizzle modes. Each mode is a single fact about the bytes in memory -- an XOR map on *byte*
addresses -- and every number that names it somewhere is derived here from that one fact:

================  ===========  ==============  ===========  ============  =========  =========
mode              byte map     wgmma           tcgen05      TMA           row/width  period
                               layout_type     layout_type  CUtensorMap-  (bytes)    (bytes)
                               (bits 62-63)    (bits 61-63) Swizzle
================  ===========  ==============  ===========  ============  =========  =========
INTERLEAVE/none   Sw<0,4,3>    0 INTERLEAVE    0 NONE       0 NONE        16         1 (none)
B32               Sw<1,4,3>    3 B32           6 32B        1 32B         32         256
B64               Sw<2,4,3>    2 B64           4 64B        2 64B         64         512
B128              Sw<3,4,3>    1 B128          2 128B       3 128B        128        1024
B128_BASE32B      Sw<2,5,2>    (none: sm100)   1 128B_B32B  4 128B_ATOM_  128        512
                                                            32B
================  ===========  ==============  ===========  ============  =========  =========

Sources: CuTe ``SM90::GMMA::LayoutType`` (``cute/arch/mma_sm90_desc.hpp``), ``UMMA::LayoutType``
(``cute/arch/mma_sm100_desc.hpp``), the atoms ``GMMA::Layout_{K,MN}_{INTER,SW32,SW64,SW128}_Atom``
and ``UMMA::Layout_MN_SW128_32B_Atom`` (``Swizzle<2,5,2>``, ``cute/atom/mma_traits_sm100.hpp``),
PTX ISA 9.7.15.5.1.2.2 "Matrix Descriptor Format" and 9.7.16.4.1 "Shared Memory Descriptor"
(Table 40), and the driver's ``CUtensorMapSwizzle``.

The *width* is the number of contiguous bytes in one swizzled row (``W = width / 16`` 16-byte
units; 16 for INTERLEAVE: one core-matrix row). The *period* is the byte distance after which the
XOR pattern repeats (``Swizzle.period``). The *pattern boundary* is PTX's "starting address of the
repeating pattern" (Table 41): a pattern that starts there needs descriptor base offset 0.

>>> m = SwizzleMode.parse("128B")
>>> m.wgmma_layout_type, m.tcgen05_layout_type, m.tma_swizzle, str(m.byte_swizzle), m.period_bytes
(1, 2, 3, 'Sw<3,4,3>', 1024)
>>> [str(x) for x in SwizzleMode]
['none', '32B', '64B', '128B', '128B_base32B']
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any

from ..core.swizzle import Swizzle, XorSwizzle
from ..errors import DescriptorError, SwizzleError

__all__ = ["SwizzleMode", "base_offset_for_pattern_start", "SMEM_WINDOW_BYTES"]

#: Bytes of shared memory a descriptor address can name: ``(x & 0x3FFFF) >> 4`` keeps 18 bits.
SMEM_WINDOW_BYTES = 1 << 18

# Per member: short name, byte swizzle (B, M, S), wgmma layout type (None: not on sm90),
# tcgen05 layout type, width in bytes, atomicity in bytes, PTX pattern boundary in bytes.
_FACTS: dict[str, tuple[str, tuple[int, int, int], int | None, int, int, int, int]] = {
    "INTERLEAVE": ("none", (0, 4, 3), 0, 0, 16, 16, 16),
    "B32": ("32B", (1, 4, 3), 3, 6, 32, 16, 256),
    "B64": ("64B", (2, 4, 3), 2, 4, 64, 16, 512),
    "B128": ("128B", (3, 4, 3), 1, 2, 128, 16, 1024),
    "B128_BASE32B": ("128B_base32B", (2, 5, 2), None, 1, 128, 32, 1024),
}

_SPELLINGS: dict[str, str] = {
    "NONE": "INTERLEAVE",
    "INTERLEAVE": "INTERLEAVE",
    "INTERLEAVED": "INTERLEAVE",
    "SWIZZLE_NONE": "INTERLEAVE",
    "32B": "B32",
    "B32": "B32",
    "SW32": "B32",
    "SWIZZLE_32B": "B32",
    "64B": "B64",
    "B64": "B64",
    "SW64": "B64",
    "SWIZZLE_64B": "B64",
    "128B": "B128",
    "B128": "B128",
    "SW128": "B128",
    "SWIZZLE_128B": "B128",
    "128B_BASE32B": "B128_BASE32B",
    "B128_BASE32B": "B128_BASE32B",
    "SWIZZLE_128B_BASE32B": "B128_BASE32B",
    "128B_ATOM_32B": "B128_BASE32B",
    "SW128_32B": "B128_BASE32B",
}


class SwizzleMode(IntEnum):
    """A shared-memory swizzle mode; the integer value is the TMA ``CUtensorMapSwizzle`` value.

    ``NONE`` is an alias of ``INTERLEAVE`` (wgmma calls the unswizzled mode INTERLEAVE,
    tcgen05 calls it SWIZZLE_NONE). ``B128_BASE32B`` (128-byte swizzle with 32-byte atomicity)
    exists only on sm100; TMA writes it with ``CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B`` (= 4).

    >>> SwizzleMode.NONE is SwizzleMode.INTERLEAVE
    True
    >>> SwizzleMode.B128_BASE32B.tma_swizzle, str(SwizzleMode.B128_BASE32B.byte_swizzle)
    (4, 'Sw<2,5,2>')
    """

    INTERLEAVE = 0
    NONE = 0
    B32 = 1
    B64 = 2
    B128 = 3
    B128_BASE32B = 4

    # -- facts -------------------------------------------------------------------------------
    @property
    def _facts(self) -> tuple[str, tuple[int, int, int], int | None, int, int, int, int]:
        return _FACTS[self.name]

    @property
    def short_name(self) -> str:
        """The name used in text: "none", "32B", "64B", "128B", "128B_base32B".

        >>> SwizzleMode.B64.short_name
        '64B'
        """
        return self._facts[0]

    @property
    def byte_swizzle(self) -> Swizzle:
        """The XOR map on shared-memory *byte* addresses (CuTe ``Swizzle<B,M,S>``).

        >>> [str(m.byte_swizzle) for m in SwizzleMode]
        ['Sw<0,4,3>', 'Sw<1,4,3>', 'Sw<2,4,3>', 'Sw<3,4,3>', 'Sw<2,5,2>']
        """
        return Swizzle(*self._facts[1])

    @property
    def on_sm90(self) -> bool:
        """Whether wgmma (sm90) has a layout type for the mode (all but B128_BASE32B).

        >>> SwizzleMode.B128.on_sm90, SwizzleMode.B128_BASE32B.on_sm90
        (True, False)
        """
        return self._facts[2] is not None

    @property
    def wgmma_layout_type(self) -> int:
        """wgmma descriptor bits 62-63: INTERLEAVE=0, 128B=1, 64B=2, 32B=3 (DescriptorError for base32B).

        >>> [m.wgmma_layout_type for m in SwizzleMode if m.on_sm90]
        [0, 3, 2, 1]
        """
        lt = self._facts[2]
        if lt is None:
            raise DescriptorError(
                f"SwizzleMode.{self.name}: wgmma (sm90) has no layout type for the {self.short_name} mode "
                "(128-byte swizzle with 32-byte atomicity exists only for tcgen05 on sm100; wgmma layout "
                "types are INTERLEAVE=0, 128B=1, 64B=2, 32B=3)"
            )
        return lt

    @property
    def tcgen05_layout_type(self) -> int:
        """tcgen05 descriptor bits 61-63: NONE=0, 128B_BASE32B=1, 128B=2, 64B=4, 32B=6.

        >>> [m.tcgen05_layout_type for m in SwizzleMode]
        [0, 6, 4, 2, 1]
        """
        return self._facts[3]

    umma_layout_type = tcgen05_layout_type

    @property
    def tma_swizzle(self) -> int:
        """The ``CUtensorMapSwizzle`` value TMA needs to write data in this mode (0, 1, 2, 3, 4).

        >>> SwizzleMode.B32.tma_swizzle
        1
        """
        return int(self)

    @property
    def width_bytes(self) -> int:
        """Bytes in one swizzled row (the swizzle span): 16 (none: a core-matrix row), 32, 64, 128, 128.

        >>> [m.width_bytes for m in SwizzleMode]
        [16, 32, 64, 128, 128]
        """
        return self._facts[4]

    @property
    def width_16B(self) -> int:
        """``W``: 16-byte units in one swizzled row; the swizzle atom is ``W`` units wide.

        >>> [m.width_16B for m in SwizzleMode]
        [1, 2, 4, 8, 8]
        """
        return self._facts[4] // 16

    @property
    def atomicity_bytes(self) -> int:
        """Size of the chunk the swizzle moves as a whole: 16, or 32 for B128_BASE32B.

        >>> SwizzleMode.B128.atomicity_bytes, SwizzleMode.B128_BASE32B.atomicity_bytes
        (16, 32)
        """
        return self._facts[5]

    @property
    def atom_rows(self) -> int:
        """Rows (of ``width_bytes``) in one swizzle atom: 8, or 4 for B128_BASE32B.

        >>> SwizzleMode.B64.atom_rows, SwizzleMode.B128_BASE32B.atom_rows
        (8, 4)
        """
        return 4 if self is SwizzleMode.B128_BASE32B else 8

    @property
    def atom_bytes(self) -> int:
        """Bytes in one swizzle atom: ``atom_rows * width_bytes`` (128, 256, 512, 1024, 512).

        >>> [m.atom_bytes for m in SwizzleMode]
        [128, 256, 512, 1024, 512]
        """
        return self.atom_rows * self.width_bytes

    @property
    def period_bytes(self) -> int:
        """The XOR pattern's repeat period in bytes (``Swizzle.period``): 1 (none), 256, 512, 1024, 512.

        >>> [m.period_bytes for m in SwizzleMode]
        [1, 256, 512, 1024, 512]
        """
        return self.byte_swizzle.period

    @property
    def pattern_boundary_bytes(self) -> int:
        """PTX's "starting address of the repeating pattern" (Table 41): base offset 0 for a pattern there.

        256 / 512 / 1024 for the 32/64/128-byte swizzles. For B128_BASE32B we use the 128-byte
        row of that table (1024) although its XOR only reads address bits 7-8 (period 512).
        INTERLEAVE has no pattern: 16 (the descriptor's address granule).

        >>> [m.pattern_boundary_bytes for m in SwizzleMode]
        [16, 256, 512, 1024, 1024]
        """
        return self._facts[6]

    base_alignment_bytes = pattern_boundary_bytes

    @property
    def is_swizzled(self) -> bool:
        """False only for INTERLEAVE/none.

        >>> SwizzleMode.NONE.is_swizzled, SwizzleMode.B32.is_swizzled
        (False, True)
        """
        return self is not SwizzleMode.INTERLEAVE

    def __str__(self) -> str:
        return self.short_name

    # -- parsing -----------------------------------------------------------------------------
    @classmethod
    def parse(cls, value: Any) -> SwizzleMode:
        """The mode named by ``value``.

        Accepts a member; a string ("none", "interleave", "32B", "64B", "128B", "128B_base32B",
        the member names, CuTe's ``SWIZZLE_*`` names; case-insensitive); a byte ``Swizzle``
        (``Sw<3,4,3>`` -> B128); or an ``int``, read in ONE namespace: the TMA
        ``CUtensorMapSwizzle`` value (0 NONE, 1 32B, 2 64B, 3 128B, 4 128B_ATOM_32B). Descriptor
        field values are not accepted here, because wgmma's 1 means 128B while TMA's 1 means 32B:
        use :meth:`from_wgmma_layout_type` / :meth:`from_tcgen05_layout_type` for those.

        >>> SwizzleMode.parse("interleave"), SwizzleMode.parse("128b_BASE32B"), SwizzleMode.parse(3)
        (<SwizzleMode.INTERLEAVE: 0>, <SwizzleMode.B128_BASE32B: 4>, <SwizzleMode.B128: 3>)
        >>> SwizzleMode.parse("96B")
        Traceback (most recent call last):
        ...
        pycute_layouts.errors.DescriptorError: SwizzleMode.parse: cannot parse '96B'; ...
        """
        if isinstance(value, cls):
            return value
        if isinstance(value, (Swizzle, XorSwizzle)):
            return cls.from_swizzle(value)
        if isinstance(value, bool):
            raise DescriptorError(f"SwizzleMode.parse: got the bool {value!r}; {cls._allowed()}")
        if isinstance(value, int):
            try:
                return cls(int(value))
            except ValueError:
                raise DescriptorError(
                    f"SwizzleMode.parse: {value} is not a CUtensorMapSwizzle value of an MMA swizzle mode "
                    f"(ints are read as CUtensorMapSwizzle: 0..4); {cls._allowed()}"
                ) from None
        if isinstance(value, str):
            key = value.strip().upper().replace("-", "_")
            name = _SPELLINGS.get(key)
            if name is not None:
                return cls[name]
        raise DescriptorError(f"SwizzleMode.parse: cannot parse {value!r}; {cls._allowed()}")

    @classmethod
    def _allowed(cls) -> str:
        return ("allowed: 'none'/'interleave', '32B', '64B', '128B', '128B_base32B', a SwizzleMode, a byte "
                "Swizzle (Sw<0..3,4,3>, Sw<2,5,2>) or a CUtensorMapSwizzle int 0..4")

    @classmethod
    def from_swizzle(cls, sw: Swizzle | XorSwizzle) -> SwizzleMode:
        """The mode whose byte-address map is ``sw`` (DescriptorError naming the nearest reading otherwise).

        >>> SwizzleMode.from_swizzle(Swizzle(2, 4, 3))
        <SwizzleMode.B64: 2>
        >>> SwizzleMode.from_swizzle(Swizzle(3, 3, 3))
        Traceback (most recent call last):
        ...
        pycute_layouts.errors.DescriptorError: ... Sw<3,3,3> is not the byte map of any ...
        """
        if isinstance(sw, XorSwizzle):
            if sw.is_identity():
                return cls.INTERLEAVE
            try:
                sw = sw.to_swizzle()
            except SwizzleError:
                raise DescriptorError(
                    f"SwizzleMode.from_swizzle: the XOR map {sw} is not a single Swizzle<B,M,S>, so it is no "
                    "MMA swizzle mode (byte maps: Sw<0,4,3>, Sw<1,4,3>, Sw<2,4,3>, Sw<3,4,3>, Sw<2,5,2>)"
                ) from None
        if not isinstance(sw, Swizzle):
            raise DescriptorError(f"SwizzleMode.from_swizzle: expected a Swizzle, got {sw!r}")
        if sw.is_identity():
            return cls.INTERLEAVE
        for m in cls:
            if m.byte_swizzle == sw:
                return m
        hint = ""
        if sw.shift == 3 and sw.base < 4 and 1 <= sw.bits <= 3:
            eb = 1 << (4 - sw.base)
            hint = (f"; it looks like the {1 << (sw.bits + 4)}B swizzle written on {eb}-byte element offsets "
                    f"(CuTe's element-unit ComposedLayout): on byte addresses that is Sw<{sw.bits},4,3> (see "
                    "element_to_byte_swizzle)")
        raise DescriptorError(
            f"SwizzleMode.from_swizzle: {sw} is not the byte map of any MMA swizzle mode (byte maps: "
            f"Sw<0,4,3> none, Sw<1,4,3> 32B, Sw<2,4,3> 64B, Sw<3,4,3> 128B, Sw<2,5,2> 128B_base32B){hint}"
        )

    @classmethod
    def from_wgmma_layout_type(cls, value: int) -> SwizzleMode:
        """The mode of a wgmma descriptor's 2-bit layout type (bits 62-63).

        >>> SwizzleMode.from_wgmma_layout_type(1)
        <SwizzleMode.B128: 3>
        """
        for m in cls:
            if m.on_sm90 and m.wgmma_layout_type == value:
                return m
        raise DescriptorError(f"SwizzleMode.from_wgmma_layout_type: {value!r} is not a wgmma layout type "
                              "(INTERLEAVE=0, B128=1, B64=2, B32=3)")

    @classmethod
    def from_tcgen05_layout_type(cls, value: int) -> SwizzleMode:
        """The mode of a tcgen05 descriptor's 3-bit layout type (bits 61-63); 3, 5, 7 are invalid (Table 40).

        >>> SwizzleMode.from_tcgen05_layout_type(6), SwizzleMode.from_tcgen05_layout_type(1)
        (<SwizzleMode.B32: 1>, <SwizzleMode.B128_BASE32B: 4>)
        """
        for m in cls:
            if m.tcgen05_layout_type == value:
                return m
        raise DescriptorError(f"SwizzleMode.from_tcgen05_layout_type: {value!r} is not a tcgen05 layout type "
                              "(SWIZZLE_NONE=0, 128B_BASE32B=1, 128B=2, 64B=4, 32B=6; 3, 5, 7 are invalid)")

    @classmethod
    def from_tma(cls, value: int) -> SwizzleMode:
        """The MMA mode of a ``CUtensorMapSwizzle`` value; 5 (FLIP_8B) and 6 (ATOM_64B) have no MMA mode.

        >>> SwizzleMode.from_tma(4)
        <SwizzleMode.B128_BASE32B: 4>
        """
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 4:
            raise DescriptorError(
                f"SwizzleMode.from_tma: {value!r} has no MMA swizzle mode (NONE=0, 32B=1, 64B=2, 128B=3, "
                "128B_ATOM_32B=4; 128B_ATOM_32B_FLIP_8B=5 and 128B_ATOM_64B=6 are TMA-only)"
            )
        return cls(value)


def base_offset_for_pattern_start(mode: Any, pattern_start: int) -> int:
    """PTX's descriptor base offset for a swizzle pattern that starts at byte address ``pattern_start``.

    PTX ISA 9.7.15.5.1.2.2 / 9.7.16.4.1: 0 when the pattern starts on its boundary (1024 / 512 /
    256 bytes for the 128/64/32-byte swizzles), otherwise ``(pattern start addr >> 0x7) & 0x7``.
    The pattern can only start on a 128-byte line (its rows are 128-byte lines), so any other
    start raises DescriptorError. INTERLEAVE has no pattern: always 0.

    >>> base_offset_for_pattern_start("128B", 1024), base_offset_for_pattern_start("128B", 1024 + 384)
    (0, 3)
    >>> base_offset_for_pattern_start("32B", 256 + 128)
    3
    """
    m = SwizzleMode.parse(mode)
    if isinstance(pattern_start, bool) or not isinstance(pattern_start, int) or pattern_start < 0:
        raise DescriptorError("base_offset_for_pattern_start: pattern_start must be a non-negative int, got "
                              f"{pattern_start!r}")
    if not m.is_swizzled or pattern_start % m.pattern_boundary_bytes == 0:
        return 0
    if pattern_start % 128:
        raise DescriptorError(
            f"base_offset_for_pattern_start: a {m.short_name} swizzle pattern starting at byte "
            f"{pattern_start:#x} (= {pattern_start % 128} mod 128) cannot be described: the base offset "
            "counts whole 128-byte lines, so the pattern must start on a 128-byte boundary"
        )
    return (pattern_start >> 7) & 7
