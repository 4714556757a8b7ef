"""The one swizzle-mode vocabulary shared by wgmma (sm90), tcgen05 (sm100), TMA and im2col::w.

A shared-memory tile is stored in one swizzle mode. Each mode is a single fact about the bytes in
memory -- an XOR map on *byte* addresses -- and every number that names it somewhere is a column of
the one facts table below (``_FACTS``), read through the properties of :class:`SwizzleMode`:

======================  ==============  ============  ============  ============  ======  ======  ========
mode                    byte map        wgmma         tcgen05       CUtensorMap-  width   period  units
                                        layout_type   layout_type   Swizzle       bytes   bytes
                                        (bits 62-63)  (bits 61-63)
======================  ==============  ============  ============  ============  ======  ======  ========
INTERLEAVE / NONE       Sw<0,4,3>       0             0             0 NONE        16      1       W T M
B32                     Sw<1,4,3>       3             6             1 32B         32      256     W T M
B64                     Sw<2,4,3>       2             4             2 64B         64      512     W T M I
B128                    Sw<3,4,3>       1             2             3 128B        128     1024    W T M I
B128_BASE32B            Sw<2,5,2>       --            1             4 128B_ATOM_  128     512     T M I
                                                                    32B
B128_ATOM_32B_FLIP_8B   Sw<2,5,2> then  --            --            5             128     512     M
                        bit 7 -> bit 3
B128_ATOM_64B           Sw<1,6,1>       --            --            6             128     256     M
B96                     Sw<1,4,3>       --            --            -- (PTX only) 96      256     --
======================  ==============  ============  ============  ============  ======  ======  ========

Units: W wgmma, T tcgen05, M the TMA driver (``cuTensorMapEncode*``), I im2col::w
(``cuTensorMapEncodeIm2colWide``). B96 is PTX's 96-byte mode: PTX 5.5.7 documents it, but
``CUtensorMapSwizzle`` has no value for it, so no unit can be asked for it.

Sources: CuTe ``SM90::GMMA::LayoutType`` (``cute/arch/mma_sm90_desc.hpp``), ``UMMA::LayoutType``
(``cute/arch/mma_sm100_desc.hpp``), the atoms ``GMMA::Layout_{K,MN}_{INTER,SW32,SW64,SW128}_Atom``
and ``UMMA::Layout_MN_SW128_32B_Atom`` (``Swizzle<2,5,2>``, ``cute/atom/mma_traits_sm100.hpp``),
PTX ISA 9.7.15.5.1.2.2 "Matrix Descriptor Format", 9.7.16.4.1 "Shared Memory Descriptor"
(Table 40) and 5.5.5-5.5.7 (im2col::w, swizzling modes), and the driver's ``CUtensorMapSwizzle``.

The *width* is the number of contiguous bytes in one swizzled row (``W = width / 16`` 16-byte
units; 16 for INTERLEAVE: one core-matrix row); the TMA *span* is the same number, None when
unswizzled. The *period* is the byte distance after which the XOR pattern repeats. The *pattern
boundary* is PTX's "starting address of the repeating pattern" (Table 41): a pattern that starts
there needs descriptor base offset 0.

>>> m = SwizzleMode.parse("128B")
>>> m.wgmma_layout_type, m.tcgen05_layout_type, m.tma_swizzle, str(m.byte_swizzle), m.period_bytes
(1, 2, 3, 'Sw<3,4,3>', 1024)
>>> [str(x) for x in MMA_MODES]
['none', '32B', '64B', '128B', '128B_base32B']
>>> SwizzleMode.parse("CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B"), SwizzleMode.parse("96B").on_tma
(<SwizzleMode.B128_BASE32B: 4>, False)
"""

from __future__ import annotations

import functools
from enum import Enum, EnumMeta, IntEnum
from typing import Any, NamedTuple

import numpy as np

from ..core.swizzle import Swizzle, XorSwizzle
from ..errors import DescriptorError, SwizzleError, SwizzleModeError
from ..limits import fmt

__all__ = [
    "SwizzleMode",
    "MMA_MODES",
    "WGMMA_MODES",
    "IM2COL_W_MODES",
    "TMA_DRIVER_PREFIX",
    "base_offset_for_pattern_start",
    "xor_pairs",
    "SMEM_WINDOW_BYTES",
]

#: Bytes of shared memory a descriptor address can name: ``(x & 0x3FFFF) >> 4`` keeps 18 bits.
SMEM_WINDOW_BYTES = 1 << 18

#: Prefix of the driver's ``CUtensorMapSwizzle`` enumerator names.
TMA_DRIVER_PREFIX = "CU_TENSOR_MAP_SWIZZLE_"


class _Facts(NamedTuple):
    short_name: str  # the name in text ("none", "128B_base32B")
    tma_name: str  # the driver's enumerator suffix ("NONE", "128B_ATOM_32B"; "96B": no enumerator)
    byte_map: tuple[int, int, int] | tuple[tuple[int, int], ...]  # Swizzle<B,M,S>, or XOR pairs applied in order
    wgmma_layout_type: int | None  # sm90 descriptor bits 62-63 (None: no wgmma layout type)
    tcgen05_layout_type: int | None  # sm100 descriptor bits 61-63 (None: no tcgen05 layout type)
    width_bytes: int  # bytes in one swizzled row (16 unswizzled: one core-matrix row)
    atomicity_bytes: int  # the chunk the swizzle moves as a whole
    pattern_boundary_bytes: int  # PTX "starting address of the repeating pattern" (16 unswizzled)
    flip_8b: bool  # the 8-byte halves of 16-byte chunks are swapped on alternate lines
    units: frozenset[str]  # "wgmma", "tcgen05", "tma" (a CUtensorMapSwizzle value exists), "im2col_w"


_WTM = frozenset({"wgmma", "tcgen05", "tma"})
_FLIP_PAIRS = ((7, 3), (7, 5), (8, 6))  # Sw<2,5,2> (bits 7,8 -> 5,6), then bit 7 -> bit 3

# THE facts table: one row per member, the only place a swizzle-mode number is written.
_FACTS: dict[str, _Facts] = {
    "INTERLEAVE": _Facts("none", "NONE", (0, 4, 3), 0, 0, 16, 16, 16, False, _WTM),
    "B32": _Facts("32B", "32B", (1, 4, 3), 3, 6, 32, 16, 256, False, _WTM),
    "B64": _Facts("64B", "64B", (2, 4, 3), 2, 4, 64, 16, 512, False, _WTM | {"im2col_w"}),
    "B128": _Facts("128B", "128B", (3, 4, 3), 1, 2, 128, 16, 1024, False, _WTM | {"im2col_w"}),
    "B128_BASE32B": _Facts("128B_base32B", "128B_ATOM_32B", (2, 5, 2), None, 1, 128, 32, 1024, False,
                           frozenset({"tcgen05", "tma", "im2col_w"})),
    "B128_ATOM_32B_FLIP_8B": _Facts("128B_ATOM_32B_FLIP_8B", "128B_ATOM_32B_FLIP_8B", _FLIP_PAIRS, None, None,
                                    128, 32, 1024, True, frozenset({"tma"})),
    "B128_ATOM_64B": _Facts("128B_ATOM_64B", "128B_ATOM_64B", (1, 6, 1), None, None, 128, 64, 1024, False,
                            frozenset({"tma"})),
    "B96": _Facts("96B", "96B", (1, 4, 3), None, None, 96, 16, 256, False, frozenset()),
}

# Spellings (upper case, '-' read as '_') beyond the member names, short names and driver names.
_EXTRA_SPELLINGS: dict[str, str] = {
    "INTERLEAVED": "INTERLEAVE",
    "SWIZZLE_NONE": "INTERLEAVE",
    "SW32": "B32",
    "SWIZZLE_32B": "B32",
    "SW64": "B64",
    "SWIZZLE_64B": "B64",
    "SW128": "B128",
    "SWIZZLE_128B": "B128",
    "SWIZZLE_128B_BASE32B": "B128_BASE32B",
    "SW128_32B": "B128_BASE32B",
    "B128_ATOM_32B": "B128_BASE32B",
    "SWIZZLE_128B_ATOM_32B": "B128_BASE32B",
    "SWIZZLE_128B_ATOM_32B_FLIP_8B": "B128_ATOM_32B_FLIP_8B",
    "SWIZZLE_128B_ATOM_64B": "B128_ATOM_64B",
    "SWIZZLE_96B": "B96",
}


@functools.cache
def _byte_map_of(spec: tuple, flip_8b: bool) -> Swizzle | XorSwizzle:
    """The byte map of a facts row (immutable, so built once per row)."""
    if flip_8b:
        return XorSwizzle([spec[0]]).compose(Swizzle(2, 5, 2))
    return Swizzle(*spec)


def xor_pairs(m: Swizzle | XorSwizzle) -> tuple[tuple[int, int], ...]:
    """The ``(source bit, target bit)`` pairs of an F2-linear XOR map, for a ``Swizzle`` or an ``XorSwizzle``.

    Pre: ``m`` is a Swizzle or an XorSwizzle.
    Post: ``x ^ sum(((x >> s) & 1) << t for s, t in pairs)`` is ``m(x)`` when the pairs' sources are
    not also targets (true for every swizzle mode).

    >>> xor_pairs(Swizzle(1, 4, 3)), xor_pairs(Swizzle(0, 4, 3))
    (((7, 4),), ())
    """
    if isinstance(m, Swizzle):
        return m.to_xor().pairs
    if isinstance(m, XorSwizzle):
        return m.pairs
    raise SwizzleModeError(f"xor_pairs: expected a Swizzle or an XorSwizzle, got {fmt(m)}")


class CheckedEnumMeta(EnumMeta):
    """Enum metaclass whose lookup ``E(value)`` refuses arrays and other values that cannot name a member
    before Enum compares them (numpy arrays make ``==`` ambiguous); ``_missing_`` says why in each enum."""

    def __call__(cls, value: Any, *args: Any, **kwargs: Any) -> Any:
        if not args and not kwargs and (isinstance(value, (np.ndarray, list, dict, set, tuple)) or isinstance(
                value, int) and not -(1 << 64) < value < 1 << 64):
            return cls._missing_(value)  # (Enum would format a huge int into its own message first)
        return super().__call__(value, *args, **kwargs)


class SwizzleMode(IntEnum, metaclass=CheckedEnumMeta):
    """A shared-memory swizzle mode; the integer value is the TMA ``CUtensorMapSwizzle`` value.

    ``NONE`` is an alias of ``INTERLEAVE`` (wgmma calls the unswizzled mode INTERLEAVE, tcgen05
    SWIZZLE_NONE, the driver CU_TENSOR_MAP_SWIZZLE_NONE). ``B128_BASE32B`` (128-byte swizzle with
    32-byte atomicity) is tcgen05's 128B_BASE32B and the driver's 128B_ATOM_32B (= 4).
    ``B128_ATOM_32B_FLIP_8B`` and ``B128_ATOM_64B`` are TMA-only; ``B96`` is PTX-only (value 96,
    outside the driver's range on purpose).

    >>> SwizzleMode.NONE is SwizzleMode.INTERLEAVE
    True
    >>> SwizzleMode.B128_BASE32B.tma_swizzle, str(SwizzleMode.B128_BASE32B.byte_swizzle)
    (4, 'Sw<2,5,2>')
    """

    INTERLEAVE = 0
    NONE = 0

    @classmethod
    def _missing_(cls, value: Any) -> SwizzleMode:
        """``SwizzleMode(v)`` for a value that is no mode: SwizzleModeError (``parse`` reads names)."""
        raise SwizzleModeError(f"SwizzleMode: {fmt(value)} is not a swizzle mode value (values: "
                               f"{sorted({int(m) for m in cls})}); SwizzleMode.parse reads names such as '128B'"[:300])
    B32 = 1
    B64 = 2
    B128 = 3
    B128_BASE32B = 4
    B128_ATOM_32B_FLIP_8B = 5
    B128_ATOM_64B = 6
    B96 = 96

    # -- facts -------------------------------------------------------------------------------
    @property
    def facts(self) -> _Facts:
        """The member's row of the facts table (a named tuple).

        >>> SwizzleMode.B64.facts.atomicity_bytes
        16
        """
        return _FACTS_OF[self]

    @property
    def short_name(self) -> str:
        """The name used in text: "none", "32B", "64B", "128B", "128B_base32B", "128B_ATOM_64B", ...

        >>> SwizzleMode.B64.short_name
        '64B'
        """
        return self.facts.short_name

    @property
    def tma_name(self) -> str:
        """The driver's enumerator without its prefix: "NONE", "32B", ..., "128B_ATOM_32B", ...; "96B".

        >>> SwizzleMode.B128_BASE32B.tma_name, SwizzleMode.NONE.tma_name
        ('128B_ATOM_32B', 'NONE')
        """
        return self.facts.tma_name

    @property
    def driver_name(self) -> str | None:
        """The driver's full ``CUtensorMapSwizzle`` enumerator name, or None (B96: PTX-only).

        >>> SwizzleMode.B128.driver_name
        'CU_TENSOR_MAP_SWIZZLE_128B'
        >>> print(SwizzleMode.B96.driver_name)
        None
        """
        return TMA_DRIVER_PREFIX + self.tma_name if self.on_tma else None

    @property
    def byte_map(self) -> Swizzle | XorSwizzle:
        """The map on absolute shared-memory byte addresses (an XorSwizzle for the 8-byte flip).

        >>> str(SwizzleMode.B128_ATOM_64B.byte_map), SwizzleMode.B128_ATOM_32B_FLIP_8B.byte_map.pairs
        ('Sw<1,6,1>', ((7, 3), (7, 5), (8, 6)))
        """
        return _byte_map_of(self.facts.byte_map, self.facts.flip_8b)

    @property
    def byte_swizzle(self) -> Swizzle:
        """The XOR map on shared-memory *byte* addresses as CuTe ``Swizzle<B,M,S>``.

        SwizzleModeError for B128_ATOM_32B_FLIP_8B (two XOR patterns: use :attr:`byte_map`).

        >>> [str(m.byte_swizzle) for m in MMA_MODES]
        ['Sw<0,4,3>', 'Sw<1,4,3>', 'Sw<2,4,3>', 'Sw<3,4,3>', 'Sw<2,5,2>']
        """
        f = self.byte_map
        if not isinstance(f, Swizzle):
            raise SwizzleModeError(f"SwizzleMode.{self.name}: the byte map {f} is not a single Swizzle<B,M,S> "
                                   "(use byte_map)")
        return f

    @property
    def xor_pairs(self) -> tuple[tuple[int, int], ...]:
        """The byte map's ``(source bit, target bit)`` pairs (empty when unswizzled).

        >>> SwizzleMode.B64.xor_pairs
        ((7, 4), (8, 5))
        """
        return xor_pairs(self.byte_map)

    # -- capability flags ----------------------------------------------------------------------
    @property
    def on_wgmma(self) -> bool:
        """Whether wgmma (sm90) has a layout type for the mode (none, 32B, 64B, 128B).

        >>> SwizzleMode.B128.on_wgmma, SwizzleMode.B128_BASE32B.on_wgmma
        (True, False)
        """
        return "wgmma" in self.facts.units

    on_sm90 = on_wgmma

    @property
    def on_tcgen05(self) -> bool:
        """Whether tcgen05 (sm100) has a layout type for the mode (the five MMA modes).

        >>> SwizzleMode.B128_BASE32B.on_tcgen05, SwizzleMode.B128_ATOM_64B.on_tcgen05
        (True, False)
        """
        return "tcgen05" in self.facts.units

    @property
    def on_tma(self) -> bool:
        """Whether the driver has a ``CUtensorMapSwizzle`` value for the mode (all but B96).

        >>> SwizzleMode.B128_ATOM_64B.on_tma, SwizzleMode.B96.on_tma
        (True, False)
        """
        return "tma" in self.facts.units

    encodable = on_tma

    @property
    def on_im2col_w(self) -> bool:
        """Whether ``cuTensorMapEncodeIm2colWide`` (im2col::w) accepts the mode: 64B, 128B, 128B_ATOM_32B.

        >>> [m.tma_name for m in SwizzleMode if m.on_im2col_w]
        ['64B', '128B', '128B_ATOM_32B']
        """
        return "im2col_w" in self.facts.units

    @property
    def is_mma(self) -> bool:
        """Whether some MMA unit (wgmma or tcgen05) reads operands stored in the mode.

        >>> SwizzleMode.B128_BASE32B.is_mma, SwizzleMode.B96.is_mma
        (True, False)
        """
        return self.on_wgmma or self.on_tcgen05

    @property
    def min_arch(self) -> str:
        """The oldest architecture whose TMA driver accepts the mode: ``"sm100"`` for the 128B_ATOM modes.

        The driver documentation does not say so; see docs/hardware-validation.md (TMA swizzle modes).

        >>> SwizzleMode.B128.min_arch, SwizzleMode.B128_ATOM_64B.min_arch
        ('sm90', 'sm100')
        """
        return "sm100" if self in (SwizzleMode.B128_BASE32B, SwizzleMode.B128_ATOM_32B_FLIP_8B,
                                   SwizzleMode.B128_ATOM_64B) else "sm90"

    # -- codes ---------------------------------------------------------------------------------
    @property
    def wgmma_layout_type(self) -> int:
        """wgmma descriptor bits 62-63: INTERLEAVE=0, 128B=1, 64B=2, 32B=3 (DescriptorError otherwise).

        >>> [m.wgmma_layout_type for m in WGMMA_MODES]
        [0, 3, 2, 1]
        """
        lt = self.facts.wgmma_layout_type
        if lt is None:
            extra = ("128-byte swizzle with 32-byte atomicity exists only for tcgen05 on sm100; "
                     if self is SwizzleMode.B128_BASE32B else "")
            raise SwizzleModeError(
                f"SwizzleMode.{self.name}: wgmma (sm90) has no layout type for the {self.short_name} mode "
                f"({extra}wgmma layout types are INTERLEAVE=0, 128B=1, 64B=2, 32B=3)"
            )
        return lt

    @property
    def tcgen05_layout_type(self) -> int:
        """tcgen05 descriptor bits 61-63: NONE=0, 128B_BASE32B=1, 128B=2, 64B=4, 32B=6 (DescriptorError otherwise).

        >>> [m.tcgen05_layout_type for m in MMA_MODES]
        [0, 6, 4, 2, 1]
        """
        lt = self.facts.tcgen05_layout_type
        if lt is None:
            raise SwizzleModeError(
                f"SwizzleMode.{self.name}: tcgen05 (sm100) has no layout type for the {self.short_name} mode "
                "(tcgen05 layout types are SWIZZLE_NONE=0, 128B_BASE32B=1, 128B=2, 64B=4, 32B=6)"
            )
        return lt

    umma_layout_type = tcgen05_layout_type

    @property
    def tma_swizzle(self) -> int:
        """The ``CUtensorMapSwizzle`` value TMA needs to write data in this mode (0..6; none for B96).

        >>> SwizzleMode.B32.tma_swizzle, SwizzleMode.B128_ATOM_64B.tma_swizzle
        (1, 6)
        """
        if not self.on_tma:
            raise SwizzleModeError(f"SwizzleMode.{self.name}: the {self.short_name} mode is PTX-only: "
                                   "CUtensorMapSwizzle has no value for it")
        return int(self)

    # -- geometry ------------------------------------------------------------------------------
    @property
    def width_bytes(self) -> int:
        """Bytes in one swizzled row (the swizzle span): 16 (none: a core-matrix row), 32, 64, 128, 96.

        >>> [m.width_bytes for m in SwizzleMode]
        [16, 32, 64, 128, 128, 128, 128, 96]
        """
        return self.facts.width_bytes

    @property
    def span_bytes(self) -> int | None:
        """TMA's swizzle span: the largest inner box dimension in bytes (None: no limit, unswizzled).

        >>> [m.span_bytes for m in SwizzleMode]
        [None, 32, 64, 128, 128, 128, 128, 96]
        """
        return self.width_bytes if self.is_swizzled else None

    @property
    def width_16B(self) -> int:
        """``W``: 16-byte units in one swizzled row; the swizzle atom is ``W`` units wide.

        >>> [m.width_16B for m in MMA_MODES]
        [1, 2, 4, 8, 8]
        """
        return self.width_bytes // 16

    @property
    def atomicity_bytes(self) -> int:
        """Size of the chunk the swizzle moves as a whole: 16, or 32 / 64 for the 128B_ATOM modes.

        >>> SwizzleMode.B128.atomicity_bytes, SwizzleMode.B128_BASE32B.atomicity_bytes
        (16, 32)
        """
        return self.facts.atomicity_bytes

    @property
    def flip_8b(self) -> bool:
        """Whether the mode also swaps the 8-byte halves of 16-byte chunks (B128_ATOM_32B_FLIP_8B).

        >>> SwizzleMode.B128_ATOM_32B_FLIP_8B.flip_8b, SwizzleMode.B128.flip_8b
        (True, False)
        """
        return self.facts.flip_8b

    @property
    def atom_rows(self) -> int:
        """Rows (of ``width_bytes``) in one swizzle atom: 8, or 4 for the 32-byte-atomicity modes.

        >>> SwizzleMode.B64.atom_rows, SwizzleMode.B128_BASE32B.atom_rows
        (8, 4)
        """
        return 4 if self.atomicity_bytes == 32 else 8

    @property
    def atom_bytes(self) -> int:
        """Bytes in one swizzle atom: ``atom_rows * width_bytes`` (128, 256, 512, 1024, 512).

        >>> [m.atom_bytes for m in MMA_MODES]
        [128, 256, 512, 1024, 512]
        """
        return self.atom_rows * self.width_bytes

    @property
    def period_bytes(self) -> int:
        """The XOR pattern's repeat period in bytes: 2 ** (highest source bit + 1); 1 when unswizzled.

        >>> [m.period_bytes for m in SwizzleMode]
        [1, 256, 512, 1024, 512, 512, 256, 256]
        """
        pairs = self.xor_pairs
        return 1 << (max(s for s, _ in pairs) + 1) if pairs else 1

    @property
    def pattern_boundary_bytes(self) -> int:
        """PTX's "starting address of the repeating pattern" (Table 41): base offset 0 for a pattern there.

        256 / 512 / 1024 for the 32/64/128-byte swizzles (256 for 96B). For the 128B_ATOM modes we
        use the 128-byte row of that table (1024) although their XOR reads fewer address bits.
        INTERLEAVE has no pattern: 16 (the descriptor's address granule).

        >>> [m.pattern_boundary_bytes for m in SwizzleMode]
        [16, 256, 512, 1024, 1024, 1024, 1024, 256]
        """
        return self.facts.pattern_boundary_bytes

    base_alignment_bytes = pattern_boundary_bytes

    @property
    def base_offset_modulus(self) -> int:
        """The ``% n`` of PTX's base-offset formula ``(dstMem / 128) % n``: 8, 4, 2 (1 when unswizzled).

        >>> [m.base_offset_modulus for m in SwizzleMode]
        [1, 2, 4, 8, 8, 8, 8, 2]
        """
        return self.pattern_boundary_bytes // 128 if self.is_swizzled else 1

    @property
    def tma_dst_alignment_bytes(self) -> int:
        """Shared-memory alignment a ``cp.async.bulk.tensor`` destination needs: 128 in every mode.

        See docs/hardware-validation.md (TMA destination alignment) for why it is not the reference's 32/64.

        >>> {m.tma_dst_alignment_bytes for m in SwizzleMode}
        {128}
        """
        return 128

    @property
    def is_swizzled(self) -> bool:
        """False only for INTERLEAVE/NONE.

        >>> SwizzleMode.NONE.is_swizzled, SwizzleMode.B32.is_swizzled
        (False, True)
        """
        return self is not SwizzleMode.INTERLEAVE

    def __str__(self) -> str:
        return self.short_name

    # -- parsing -----------------------------------------------------------------------------
    @classmethod
    def parse(cls, value: Any) -> SwizzleMode:
        """The mode named by ``value``; the one parser for every spelling of every vocabulary.

        Pre: ``value`` is a member, a string, a byte ``Swizzle`` of an MMA mode, or an int.
        Post: the member; SwizzleModeError (a DescriptorError and a TensorMapError) otherwise.

        Strings (case-insensitive, '-' read as '_'): the member names, the short names ("none",
        "interleave", "32B", "128B_base32B", "96B"), the driver's names with or without their
        prefix ("CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B", "128B_ATOM_64B"), CuTe's ``SWIZZLE_*`` names
        and "SW32"/"SW64"/"SW128"/"SW128_32B". Ints (and numpy ints) are read in ONE namespace: the
        ``CUtensorMapSwizzle`` value (0..6, and 96 for B96). Descriptor field values are not
        accepted here, because wgmma's 1 means 128B while TMA's 1 means 32B: use
        :meth:`from_wgmma_layout_type` / :meth:`from_tcgen05_layout_type` for those.

        >>> SwizzleMode.parse("interleave"), SwizzleMode.parse("128b_BASE32B"), SwizzleMode.parse(3)
        (<SwizzleMode.INTERLEAVE: 0>, <SwizzleMode.B128_BASE32B: 4>, <SwizzleMode.B128: 3>)
        >>> SwizzleMode.parse("256B")
        Traceback (most recent call last):
        ...
        pycute_layouts.errors.SwizzleModeError: SwizzleMode.parse: cannot parse '256B'; ...
        """
        if isinstance(value, cls):
            return value
        if isinstance(value, Enum):
            raise SwizzleModeError(f"SwizzleMode.parse: got {type(value).__name__}.{value.name}, a member of "
                                   f"another enum; {cls._allowed()}")
        if isinstance(value, (Swizzle, XorSwizzle)):
            return cls.from_swizzle(value)
        if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
            return cls._parse_int(int(value))
        if isinstance(value, str):
            return cls._parse_str(value)
        raise SwizzleModeError(f"SwizzleMode.parse: cannot parse {fmt(value)}; {cls._allowed()}")

    @classmethod
    def _parse_int(cls, value: int) -> SwizzleMode:
        try:
            return cls(value)
        except ValueError:
            raise SwizzleModeError(
                f"SwizzleMode.parse: {fmt(value)} is not a SwizzleMode value (ints are read as CUtensorMapSwizzle: "
                f"0..6, and 96 for PTX's 96B); {cls._allowed()}"
            ) from None

    @classmethod
    def _parse_str(cls, value: str) -> SwizzleMode:
        key = value.strip().upper().replace("-", "_")
        full = key.startswith(TMA_DRIVER_PREFIX)
        if full:
            key = key[len(TMA_DRIVER_PREFIX):]
        mode = _SPELLINGS.get(key)
        if mode is None:
            raise SwizzleModeError(f"SwizzleMode.parse: cannot parse {fmt(value)}; {cls._allowed()}")
        if full and not mode.on_tma:
            raise SwizzleModeError(
                f"SwizzleMode.parse: {fmt(value)} does not exist in the driver: {mode.name} is a PTX-only mode "
                f"with no CUtensorMapSwizzle value (write '{mode.short_name}')"
            )
        return mode

    @classmethod
    def _allowed(cls) -> str:
        items = [f"{m.name}={int(m)} ('{m.short_name}', {m.driver_name or 'PTX-only: no driver value'})"
                 for m in cls]
        return "allowed values: " + "; ".join(items) + "; or an MMA byte Swizzle (Sw<0..3,4,3>, Sw<2,5,2>)"

    @classmethod
    def from_swizzle(cls, sw: Swizzle | XorSwizzle) -> SwizzleMode:
        """The MMA mode whose byte-address map is ``sw`` (DescriptorError naming the nearest reading otherwise).

        Pre: ``sw`` is a Swizzle or an XorSwizzle on byte addresses.
        Post: the member of :data:`MMA_MODES` whose :attr:`byte_swizzle` is ``sw``.

        >>> SwizzleMode.from_swizzle(Swizzle(2, 4, 3))
        <SwizzleMode.B64: 2>
        >>> SwizzleMode.from_swizzle(Swizzle(3, 3, 3))
        Traceback (most recent call last):
        ...
        pycute_layouts.errors.SwizzleModeError: ... Sw<3,3,3> is not the byte map of any ...
        """
        if isinstance(sw, XorSwizzle):
            if sw.is_identity():
                return cls.INTERLEAVE
            try:
                sw = sw.to_swizzle()
            except SwizzleError:
                raise SwizzleModeError(
                    f"SwizzleMode.from_swizzle: the XOR map {sw} is not a single Swizzle<B,M,S>, so it is no "
                    "MMA swizzle mode (byte maps: Sw<0,4,3>, Sw<1,4,3>, Sw<2,4,3>, Sw<3,4,3>, Sw<2,5,2>)"
                ) from None
        if not isinstance(sw, Swizzle):
            raise SwizzleModeError(f"SwizzleMode.from_swizzle: expected a Swizzle, got {fmt(sw)}")
        if sw.is_identity():
            return cls.INTERLEAVE
        for m in MMA_MODES:
            if m.byte_swizzle == sw:
                return m
        hint = ""
        if sw.shift == 3 and sw.base < 4 and 1 <= sw.bits <= 3:
            eb = 1 << (4 - sw.base)
            hint = (f"; it looks like the {1 << (sw.bits + 4)}B swizzle written on {eb}-byte element offsets "
                    f"(CuTe's element-unit ComposedLayout): on byte addresses that is Sw<{sw.bits},4,3> (see "
                    "element_to_byte_swizzle)")
        raise SwizzleModeError(
            f"SwizzleMode.from_swizzle: {sw} is not the byte map of any MMA swizzle mode (byte maps: "
            f"Sw<0,4,3> none, Sw<1,4,3> 32B, Sw<2,4,3> 64B, Sw<3,4,3> 128B, Sw<2,5,2> 128B_base32B){hint}"
        )

    @classmethod
    def from_wgmma_layout_type(cls, value: int) -> SwizzleMode:
        """The mode of a wgmma descriptor's 2-bit layout type (bits 62-63).

        Pre: ``value`` is an int. Post: the member whose :attr:`wgmma_layout_type` is ``value``.

        >>> SwizzleMode.from_wgmma_layout_type(1)
        <SwizzleMode.B128: 3>
        """
        for m in WGMMA_MODES:
            if m.wgmma_layout_type == value:
                return m
        raise SwizzleModeError(f"SwizzleMode.from_wgmma_layout_type: {fmt(value)} is not a wgmma layout type "
                               "(INTERLEAVE=0, B128=1, B64=2, B32=3)")

    @classmethod
    def from_tcgen05_layout_type(cls, value: int) -> SwizzleMode:
        """The mode of a tcgen05 descriptor's 3-bit layout type (bits 61-63); 3, 5, 7 are invalid (Table 40).

        Pre: ``value`` is an int. Post: the member whose :attr:`tcgen05_layout_type` is ``value``.

        >>> SwizzleMode.from_tcgen05_layout_type(6), SwizzleMode.from_tcgen05_layout_type(1)
        (<SwizzleMode.B32: 1>, <SwizzleMode.B128_BASE32B: 4>)
        """
        for m in MMA_MODES:
            if m.tcgen05_layout_type == value:
                return m
        raise SwizzleModeError(f"SwizzleMode.from_tcgen05_layout_type: {fmt(value)} is not a tcgen05 layout type "
                               "(SWIZZLE_NONE=0, 128B_BASE32B=1, 128B=2, 64B=4, 32B=6; 3, 5, 7 are invalid)")

    @classmethod
    def from_tma(cls, value: int) -> SwizzleMode:
        """The MMA mode of a ``CUtensorMapSwizzle`` value; 5 (FLIP_8B) and 6 (ATOM_64B) have no MMA mode.

        Pre: ``value`` is an int. Post: a member of :data:`MMA_MODES` whose value is ``value``.

        >>> SwizzleMode.from_tma(4)
        <SwizzleMode.B128_BASE32B: 4>
        """
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 4:
            raise SwizzleModeError(
                f"SwizzleMode.from_tma: {fmt(value)} has no MMA swizzle mode (NONE=0, 32B=1, 64B=2, 128B=3, "
                "128B_ATOM_32B=4; 128B_ATOM_32B_FLIP_8B=5 and 128B_ATOM_64B=6 are TMA-only)"
            )
        return cls(value)


#: The modes an MMA unit reads (tcgen05 reads all five; wgmma all but B128_BASE32B), in enum order.
#: Each member's facts row, looked up by value (``self.name`` goes through the enum machinery: slow in loops).
_FACTS_OF: dict = {m: _FACTS[m.name] for m in SwizzleMode}

MMA_MODES: tuple[SwizzleMode, ...] = tuple(m for m in SwizzleMode if m.is_mma)
#: The modes wgmma (sm90) has a layout type for.
WGMMA_MODES: tuple[SwizzleMode, ...] = tuple(m for m in SwizzleMode if m.on_wgmma)
#: The modes ``cuTensorMapEncodeIm2colWide`` accepts.
IM2COL_W_MODES: tuple[SwizzleMode, ...] = tuple(m for m in SwizzleMode if m.on_im2col_w)


def _spellings() -> dict[str, SwizzleMode]:
    table: dict[str, SwizzleMode] = {}
    for name, m in SwizzleMode.__members__.items():
        table[name] = m
    for m in SwizzleMode:
        table[m.short_name.upper()] = m
        table[m.tma_name.upper()] = m
    for spelling, name in _EXTRA_SPELLINGS.items():
        table[spelling] = SwizzleMode[name]
    return table


_SPELLINGS = _spellings()


def base_offset_for_pattern_start(mode: Any, pattern_start: int) -> int:
    """PTX's descriptor base offset for a swizzle pattern that starts at byte address ``pattern_start``.

    Pre: ``mode`` names a swizzle mode; ``pattern_start >= 0`` is on a 128-byte line (or the pattern
    boundary).
    Post: an int in ``[0, 8)``: 0 on the boundary or unswizzled.

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
                              f"{fmt(pattern_start)}")
    if not m.is_swizzled or pattern_start % m.pattern_boundary_bytes == 0:
        return 0
    if pattern_start % 128:
        raise DescriptorError(
            f"base_offset_for_pattern_start: a {m.short_name} swizzle pattern starting at byte "
            f"{pattern_start:#x} (= {pattern_start % 128} mod 128) cannot be described: the base offset "
            "counts whole 128-byte lines, so the pattern must start on a 128-byte boundary"
        )
    return (pattern_start >> 7) & 7
