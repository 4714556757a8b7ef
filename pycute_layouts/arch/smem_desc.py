"""What the sm90 (wgmma) and sm100 (tcgen05) shared-memory descriptors share.

Both read an operand through a 64-bit descriptor holding a start address, LBO, SBO, a swizzle mode
and a base offset, and both accept exactly the PTX canonical layouts (PTX ISA 9.7.15.5.1.2.1.3 and
9.7.16.4.1). This module holds the machinery both build on, parameterised by :class:`MmaRules`
(what one generation accepts):

- :func:`canonical_layout_for`, :func:`smem_atom_for`: the table rows and the swizzle atoms;
- :func:`make_smem_desc_for`: a layout -> its descriptor, the way CuTe's ``make_gmma_desc`` /
  ``make_umma_desc`` derive it (view in 16-byte units, divide by the core matrix, check the inner
  strides, read the outer ones), with a DescriptorError naming the rule for every refusal;
- :class:`SmemDescriptorBase`: the fields, their checks and the hardware model (addresses read,
  advance along K).

:mod:`pycute_layouts.arch.wgmma` (sm90) and :mod:`pycute_layouts.arch.umma` (sm100) supply the rules,
the layout-type field and the bit layouts.

>>> from pycute_layouts.arch.wgmma import SM90_RULES
>>> SM90_RULES.who, [str(m) for m in SM90_RULES.modes]
('wgmma', ['none', '32B', '64B', '128B'])
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

import numpy as np

from ..core.composed import (
    ComposedLayout,
    SwizzledSmemLayout,
    UnboundWidthSmemLayout,
    check_swizzle_unit,
    element_unit_note,
    smem_layout_of,
)
from ..core.display import rich_repr
from ..core.f2 import F2
from ..core.inttuple import flatten
from ..core.layout import Layout, require_offsets
from ..core.notation import parse
from ..core.swizzle import Swizzle, XorSwizzle
from ..errors import DescriptorError, LayoutError, LayoutTypeError
from ..limits import MAX_ADDRESS_POINTS, MAX_ELEMENT_BITS, check_budget, check_count, check_fields, fmt
from .swizzle_modes import MMA_MODES, SMEM_WINDOW_BYTES, SwizzleMode, base_offset_for_pattern_start

__all__ = [
    "MmaRules",
    "SmemDescriptorBase",
    "canonical_layout_for",
    "check_u64",
    "make_smem_desc_for",
    "smem_atom_for",
]

_TABLE_SYMBOLS = ("T", "m", "k", "LBO", "SBO")

_Leaf = tuple[int, int]  # (shape, stride) of one flat mode


# --------------------------------------------------------------------------------------------------
# Per-architecture rules (wgmma.py and umma.py each build one)
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MmaRules:
    """What one MMA generation accepts; the derivation in this module is shared by sm90 and sm100.

    ``wgmma`` builds the sm90 rules, ``umma`` the sm100 ones; the functions below take them as their
    first argument. Construction checks each field's type (LayoutTypeError otherwise).

    >>> from pycute_layouts.arch.wgmma import SM90_RULES
    >>> SM90_RULES.who, [m.short_name for m in SM90_RULES.modes]
    ('wgmma', ['none', '32B', '64B', '128B'])
    """

    who: str  # "wgmma" / "umma": prefix of error messages
    arch: str  # text for messages
    modes: tuple[SwizzleMode, ...]
    table: dict[tuple[str, SwizzleMode], str]
    atom_bits: dict[int, tuple[str, ...]]  # element_bits -> majors smem_atom accepts
    desc_bits: dict[int, tuple[str, ...]]  # element_bits -> majors make_smem_desc accepts
    reject_bits: dict[int, str]  # element_bits -> reason (DescriptorError text)
    k_bytes: dict[str, tuple[int, ...]]  # major -> allowed K extents of one operand, in bytes
    mn_only_modes: tuple[SwizzleMode, ...] = ()

    def __post_init__(self) -> None:
        check_fields(self)


def _check_rules(rules: Any, who: str) -> None:
    if not isinstance(rules, MmaRules):
        raise LayoutTypeError(f"{who}: rules must be an MmaRules (wgmma.SM90_RULES, umma.SM100_RULES), got {fmt(rules)}"[:200])


def _parse_major(major: Any, who: str) -> str:
    if isinstance(major, str) and major.strip().upper() in ("K", "MN"):
        return major.strip().upper()
    raise DescriptorError(f"{who}: major must be 'K' or 'MN' (the operand's contiguous dimension), got "
                          f"{fmt(major)}")


def _parse_mode(swizzle: Any, rules: MmaRules, who: str) -> SwizzleMode:
    mode = SwizzleMode.parse(swizzle)
    if mode not in rules.modes:
        raise DescriptorError(
            f"{who}: the {mode.short_name} swizzle mode does not exist on {rules.arch} (modes: "
            f"{', '.join(m.short_name for m in rules.modes)})"
        )
    return mode


def _check_bits(element_bits: Any, major: str, allowed: dict[int, tuple[str, ...]], rules: MmaRules,
                who: str, what: str) -> int:
    b = check_count(who, "element_bits", element_bits, None, None, DescriptorError)
    if b in rules.reject_bits:
        raise DescriptorError(f"{who}: {rules.reject_bits[b]}")
    if b not in allowed:
        listing = ", ".join(f"{k} ({'/'.join(v)}-major)" for k, v in allowed.items())
        raise DescriptorError(f"{who}: {b}-bit elements are not allowed for {what} on {rules.arch} (allowed "
                              f"element_bits: {listing})")
    if major not in allowed[b]:
        raise DescriptorError(f"{who}: {major}-major {b}-bit operands are not allowed for {what} on "
                              f"{rules.arch} ({b}-bit elements allow only {'/'.join(allowed[b])}-major; "
                              f"{_major_note(rules, b)})")
    return b


def _major_note(rules: MmaRules, bits: int) -> str:
    if rules.who == "wgmma":
        if bits == 1:
            return "the .b1 variants of wgmma are K-major only"
        return "wgmma transposes (imm-trans-a/b = 1, MN-major) only .f16/.bf16 operands"
    if bits == 4:
        return "packed 4-bit operands (.kind::mxf4/.kind::mxf4nvf4) are K-major only"
    return "see the module documentation"


# --------------------------------------------------------------------------------------------------
# canonical_layout / smem_atom
# --------------------------------------------------------------------------------------------------


def canonical_layout_for(rules: MmaRules, major: Any, swizzle: Any, element_bits: Any,
                      symbols: dict) -> SwizzledSmemLayout | UnboundWidthSmemLayout:
    """The PTX canonical layout of a (major, swizzle) row of ``rules.table`` (see ``wgmma.canonical_layout``).

    Pre: ``major`` is "K"/"MN"; ``swizzle`` names a mode of ``rules``; ``symbols`` bind some of T, m, k,
    LBO, SBO; ``element_bits`` divides 128 (or is None).
    Post: with the element width known (``element_bits`` or ``T``), CuTe's pointer form
    ``Sw<B,M,S> o smem_ptr[Nb](unset) o L`` (a SwizzledSmemLayout: the swizzle on byte addresses, the
    layout in elements); with ``T`` unbound, the same pointer form with the width a symbol (an
    UnboundWidthSmemLayout, ``Sw<B,M,S> o smem_ptr[(128/T)b](unset) o L``: binding T gives the
    SwizzledSmemLayout; ``ptx_text()`` is PTX's table text).

    >>> from pycute_layouts.arch.wgmma import SM90_RULES
    >>> print(canonical_layout_for(SM90_RULES, "K", "none", 16, {"m": 1, "k": 1}).inner)
    ((8,1),(8,2)):((8,SBO),(1,LBO))
    >>> print(canonical_layout_for(SM90_RULES, "K", "128B", 16, {"m": 1, "k": 1}))
    Sw<3,4,3> o smem_ptr[16b](unset) o ((8,1),(8,2)):((64,SBO),(1,8))
    """
    _check_rules(rules, "canonical_layout_for")
    who = f"{rules.who}.canonical_layout"
    mj = _parse_major(major, who)
    mode = _parse_mode(swizzle, rules, who)
    if (mj, mode) not in rules.table:
        raise DescriptorError(f"{who}: the {mode.short_name} mode has no {mj}-major canonical layout "
                              f"({mode.short_name} is MN-major only)")
    bad = sorted(set(symbols) - set(_TABLE_SYMBOLS))
    if bad:
        raise DescriptorError(f"{who}: unknown symbol(s) {', '.join(bad)}; the table's symbols are "
                              f"{', '.join(_TABLE_SYMBOLS)}")
    if element_bits is not None:
        if isinstance(element_bits, bool) or not isinstance(element_bits, int) or element_bits <= 0 \
                or 128 % element_bits:
            raise DescriptorError(f"{who}: element_bits must divide 128 (T = 128 / element_bits), got "
                                  f"{fmt(element_bits)}")
        t = 128 // element_bits
        if "T" in symbols and symbols["T"] != t:
            raise DescriptorError(f"{who}: T={fmt(symbols['T'])} contradicts element_bits={element_bits} (T = "
                                  f"{t})")
        symbols = {**symbols, "T": t}
    for name, v in symbols.items():
        # LBO/SBO may be 0: make_smem_desc encodes 0 for a stride the layout never reads
        low = 0 if name in ("LBO", "SBO") else 1
        if isinstance(v, bool) or (isinstance(v, int) and v < low):
            kind = "a non-negative" if low == 0 else "a positive"
            raise DescriptorError(f"{who}: symbol {name} must be {kind} integer, got {fmt(v)}")
    inner = parse(rules.table[(mj, mode)], **symbols)
    t = symbols.get("T")
    if isinstance(t, int) and not isinstance(t, bool) and 128 % t == 0:
        # the element width is known: CuTe's pointer form, the swizzle unambiguously on byte addresses
        return SwizzledSmemLayout(mode.byte_swizzle, inner, 128 // t, "bytes")
    # T unbound: the pointer form with the width still a symbol (PTX's table text is .ptx_text()); it cannot be
    # evaluated, and binding T (or passing an element width to smem_layout_of) gives the SwizzledSmemLayout
    return UnboundWidthSmemLayout(mode.byte_swizzle, inner)


def smem_atom_for(rules: MmaRules, major: Any, swizzle: Any, element_bits: Any) -> SwizzledSmemLayout:
    """The swizzle atom of a (major, swizzle, element width) under ``rules`` (see ``wgmma.smem_atom``).

    Pre: ``major`` is "K"/"MN"; ``swizzle`` names a mode of ``rules``; ``rules.atom_bits`` allows
    ``element_bits`` for ``major``.
    Post: a SwizzledSmemLayout ``atom_rows`` x ``width_bytes * 8 / element_bits`` elements (MN x K order).

    >>> from pycute_layouts.arch.wgmma import SM90_RULES
    >>> print(smem_atom_for(SM90_RULES, "K", "64B", 16).layout)
    (8,32):(32,1)
    """
    _check_rules(rules, "smem_atom_for")
    who = f"{rules.who}.smem_atom"
    mj = _parse_major(major, who)
    mode = _parse_mode(swizzle, rules, who)
    if mode in rules.mn_only_modes and mj == "K":
        raise DescriptorError(f"{who}: the {mode.short_name} mode has no K-major atom: it is MN-major only "
                              "(CuTe: 'SWIZZLE_128B_BASE32B is invalid for Major-K')")
    bits = _check_bits(element_bits, mj, rules.atom_bits, rules, who, "swizzle atoms")
    width = mode.width_bytes * 8 // bits  # elements in one swizzled row (W * T)
    rows = mode.atom_rows
    if mj == "MN":
        layout = Layout((width, rows), (1, width))
    else:
        layout = Layout((rows, width), (width, 1))
    return SwizzledSmemLayout(mode.byte_swizzle, layout, bits)


# --------------------------------------------------------------------------------------------------
# Leaf helpers: flat (shape, stride) lists, split at an element count, coalesce, print
# --------------------------------------------------------------------------------------------------


def _leaves_of(mode: Any, mode_stride: Any) -> list[_Leaf]:
    ss = flatten(mode) if isinstance(mode, tuple) else (mode,)
    ds = flatten(mode_stride) if isinstance(mode_stride, tuple) else (mode_stride,)
    return [(int(s), int(d)) for s, d in zip(ss, ds, strict=True) if int(s) != 1]


def _coalesce(leaves: list[_Leaf]) -> list[_Leaf]:
    out: list[_Leaf] = []
    for s, d in leaves:
        if s == 1:
            continue
        if out and out[-1][0] * out[-1][1] == d:
            ps, pd = out[-1]
            out[-1] = (ps * s, pd)
        else:
            out.append((s, d))
    return out


def split_leaves(leaves: list[_Leaf], n: int) -> tuple[list[_Leaf], list[_Leaf]] | None:
    """The first ``n`` elements of a flat mode and the rest, splitting one leaf if needed.

    Returns None when ``n`` does not fall on a leaf boundary (a leaf neither divides nor is
    divided by what is left of ``n``) or when the mode has fewer than ``n`` elements.
    """
    inner: list[_Leaf] = []
    rest: list[_Leaf] = []
    need = n
    for s, d in leaves:
        if need == 1:
            rest.append((s, d))
        elif need % s == 0:
            inner.append((s, d))
            need //= s
        elif s % need == 0:
            inner.append((need, d))
            rest.append((s // need, d * need))
            need = 1
        else:
            return None
    if need != 1:
        return None
    return inner, rest


def _fmt(leaves: list[_Leaf], unit: str = "") -> str:
    if not leaves:
        return "1:0"
    if len(leaves) == 1:
        return f"{leaves[0][0]}:{leaves[0][1]}{unit}"
    return f"({','.join(str(s) for s, _ in leaves)}):({','.join(str(d) for _, d in leaves)}){unit}"


def _size(leaves: list[_Leaf]) -> int:
    n = 1
    for s, _ in leaves:
        n *= s
    return n


# --------------------------------------------------------------------------------------------------
# make_smem_desc: normalize the input, check it, divide by the core matrix, read the strides
# --------------------------------------------------------------------------------------------------


class _Operand(NamedTuple):  # (immutable; a tuple: built once per make_smem_desc call, cheaply)
    layout: Layout  # element layout, rank 2 (MN, K), origin at element offset 0
    mode: SwizzleMode
    element_bits: int
    start_bits: int  # bit address of element offset 0 (absolute)
    pattern_start: int | None  # byte address the swizzle pattern is anchored at; None: absolute


def _check_start(start_address: Any, swizzle_anchor: Any, who: str) -> int:
    # Pre:  none (user input).  Post: the start byte address as an int; swizzle_anchor is 'absolute' or 'tile'.
    if isinstance(start_address, bool) or not isinstance(start_address, (int, np.integer)) \
            or start_address < 0:
        raise DescriptorError(f"{who}: start_address must be a non-negative int (a shared-memory byte "
                              f"address), got {fmt(start_address)}")
    if not isinstance(swizzle_anchor, str) or swizzle_anchor not in ("absolute", "tile"):
        raise DescriptorError(f"{who}: swizzle_anchor must be 'absolute' (the swizzle acts on absolute "
                              "shared-memory addresses, as TMA writes) or 'tile' (it acts on byte offsets "
                              f"from start_address), got {fmt(swizzle_anchor)}")
    return int(start_address)


def _bind_width(layout: Any, element_bits: int, who: str) -> Any:
    # Pre:  element_bits is the operand's element width.
    # Post: an UnboundWidthSmemLayout is bound to it (the swizzle stays on bytes); a plain Layout has
    #       checked offsets and no F2 strides; anything else comes back unchanged.
    if isinstance(layout, UnboundWidthSmemLayout):
        try:  # PTX's canonical layout with T unbound: the element width binds T (the swizzle stays on bytes)
            layout = layout.with_element_bits(element_bits)
        except LayoutError as e:
            raise DescriptorError(f"{who}: {e}") from None
    if isinstance(layout, Layout):
        require_offsets(layout, who)
        if any(type(d) is F2 for d in flatten(layout.stride)):
            raise DescriptorError(f"{who}: {fmt(layout, True)} has F2 (XOR) strides; a descriptor describes a layout of "
                                  "integer strides under a swizzle mode: write it as 'Sw<B,M,S> o 0 o L'")
    return layout


def _smem_parts(layout: SwizzledSmemLayout, element_bits: int, start: int, swizzle_anchor: str,
                who: str) -> tuple[Any, Layout, int]:
    # Pre:  layout is a SwizzledSmemLayout (its swizzle acts on absolute byte addresses).
    # Post: (byte swizzle, inner layout, start byte address), the start taken from the layout when not passed.
    if layout.element_bits != element_bits:
        raise DescriptorError(f"{who}: the SwizzledSmemLayout holds {layout.element_bits}-bit elements "
                              f"but element_bits={element_bits} was passed")
    if swizzle_anchor != "absolute":
        raise DescriptorError(f"{who}: a SwizzledSmemLayout swizzles absolute addresses by definition; "
                              "swizzle_anchor='tile' needs a ComposedLayout")
    try:
        sw = layout.byte_swizzle()
    except LayoutError as e:
        raise DescriptorError(f"{who}: the layout's swizzle has no byte-address form: {e}") from None
    if layout.base_address and start and layout.base_address != start:
        raise DescriptorError(f"{who}: start_address={start:#x} contradicts the layout's "
                              f"base_address={layout.base_address:#x}; pass one of them")
    return sw, layout.layout, start or layout.base_address


def _composed_parts(layout: ComposedLayout, element_bits: int, swizzle_unit: Any,
                    who: str) -> tuple[Any, Layout, int]:
    # Pre:  layout is a ComposedLayout 'Sw<B,M,S> o k o L'.
    # Post: (byte swizzle, inner layout L, integer offset k in elements); the swizzle acts on element
    #       offsets unless swizzle_unit="bytes" (CuTe's unit rule, core.composed.smem_layout_of).
    sw, inner = layout.outer, layout.inner
    if not isinstance(sw, (Swizzle, XorSwizzle)):
        raise DescriptorError(f"{who}: the outer function of a ComposedLayout must be a swizzle "
                              f"(Sw<B,M,S> o k o L), got {sw}")
    if not isinstance(inner, Layout):
        raise DescriptorError(f"{who}: the inner layout must be a plain Layout, got {inner}")
    offset_elems = layout.offset
    if not isinstance(offset_elems, (int, np.integer)):
        raise DescriptorError(f"{who}: the ComposedLayout's offset {offset_elems} is symbolic; bind it "
                              "first")
    if swizzle_unit == "bytes" and type(inner) is Layout and 0 < element_bits <= MAX_ELEMENT_BITS \
            and inner.coord_profile() is None:
        # PTX's reading: the swizzle already acts on byte addresses, and every check of the unit rule below
        # (an offset layout, a valid width, the offset 0 of the probe) passes; it would return sw itself
        return sw, inner, int(offset_elems)
    try:  # the descriptor needs the swizzle's byte-address form
        sw = smem_layout_of(ComposedLayout(sw, 0, inner), element_bits, swizzle_unit=swizzle_unit,
                            who=who).byte_swizzle()
    except LayoutError as e:
        raise DescriptorError(f"{who}: {element_unit_note(layout, element_bits)} ({e})") from None
    if swizzle_unit == "elements" and not layout.outer.is_identity():
        try:
            SwizzleMode.from_swizzle(sw)
        except DescriptorError:
            raise DescriptorError(f"{who}: " + element_unit_note(
                layout, element_bits, "which is no swizzle atom (atoms on byte addresses: Sw<1,4,3> 32B, "
                "Sw<2,4,3> 64B, Sw<3,4,3> 128B, Sw<2,5,2> 128B_base32B)", SwizzleMode.from_swizzle)) from None
    return sw, inner, int(offset_elems)


def _operand_mode(sw: Any, inner: Layout, rules: MmaRules, who: str) -> SwizzleMode:
    # Pre:  sw is a byte-address swizzle.  Post: the swizzle mode it is, one the rules' architecture
    #       supports, and inner has no unbound symbols.
    try:
        mode = SwizzleMode.from_swizzle(sw)
    except DescriptorError as e:
        raise DescriptorError(f"{who}: swizzle does not match any swizzle atom: {e}") from None
    if mode not in rules.modes:
        raise DescriptorError(f"{who}: the swizzle {sw} is the {mode.short_name} mode, which {rules.arch} "
                              f"does not support (modes: {', '.join(m.short_name for m in rules.modes)})")
    if inner.is_symbolic():
        raise DescriptorError(f"{who}: the layout {inner} has unbound symbols "
                              f"({', '.join(sorted(map(str, inner.free_symbols())))}); bind them first "
                              "(layout.subs(...))")
    return mode


def _normalize(layout: Any, element_bits: int, start_address: Any, swizzle_anchor: str, rules: MmaRules,
               who: str, swizzle_unit: Any = "elements") -> _Operand:
    # Pre:  none on layout, start_address, swizzle_anchor (user input); element_bits already checked.
    # Post: the operand as one element layout, its swizzle mode and its absolute start bit address;
    #       otherwise DescriptorError names what does not fit.
    start = _check_start(start_address, swizzle_anchor, who)
    layout = _bind_width(layout, element_bits, who)
    offset_elems = 0
    if isinstance(layout, SwizzledSmemLayout):
        sw, inner, start = _smem_parts(layout, element_bits, start, swizzle_anchor, who)
    elif isinstance(layout, ComposedLayout):
        sw, inner, offset_elems = _composed_parts(layout, element_bits, swizzle_unit, who)
    elif isinstance(layout, Layout):
        sw, inner = Swizzle(0, 4, 3), layout
    else:
        raise DescriptorError(f"{who}: expected a Layout (no swizzle), a ComposedLayout 'Sw<B,M,S> o k o L' "
                              "(swizzle on element offsets, CuTe's meaning) or a SwizzledSmemLayout "
                              "('Sw<B,M,S> o smem_ptr[Nb](unset) o L', swizzle on byte addresses), got "
                              f"{type(layout).__name__}")
    mode = _operand_mode(sw, inner, rules, who)
    start_bits = start * 8 + offset_elems * element_bits
    pattern = None if swizzle_anchor == "absolute" else start
    return _Operand(inner, mode, element_bits, start_bits, pattern)


def _check_injective(layout: Layout, who: str) -> None:
    shape = layout.shape
    if layout.rank() != 2:
        raise DescriptorError(f"{who}: an MMA operand layout has two modes (MN, K); {layout} has rank "
                              f"{layout.rank()}")
    flat_shape, flat_stride = layout.flat_modes()  # (cached) == flatten(shape), flatten(stride)
    for s, d in zip(flat_shape, flat_stride, strict=True):
        if d < 0 and s > 1:
            raise DescriptorError(f"{who}: {layout} has the negative stride {d}; descriptor strides are "
                                  "non-negative byte offsets")
    _check_extent(layout, who)
    if _disjoint_translates(flat_shape, flat_stride):
        return
    offs = np.asarray(layout.to_numpy(), dtype=np.int64)
    uniq, first, counts = np.unique(offs, return_index=True, return_counts=True)
    if len(uniq) == len(offs):
        return
    dup_val = uniq[np.argmax(counts > 1)]
    idx = np.nonzero(offs == dup_val)[0][:2]
    mn = int(np.prod(flatten(shape[0])))

    def crd(i: int) -> tuple[int, int]:
        return (int(i) % mn, int(i) // mn)

    raise DescriptorError(
        f"{who}: the layout {layout} is not injective: coordinates (mn, k) = {crd(idx[0])} and {crd(idx[1])} "
        f"both hold element offset {int(dup_val)}; a layout that stores two elements in one place cannot be "
        "a wgmma/tcgen05 operand (check that the strides of one mode do not run into the next row or group)"
    )


def _disjoint_translates(shapes: Any, strides: Any) -> bool:
    """A sufficient condition for injectivity, from the leaves alone (nothing enumerated).

    With the leaves of size > 1 sorted by stride, each stride exceeding the largest offset the
    smaller ones reach (``sum (s - 1) * d``) puts every new translate of the offsets so far past
    them, so no offset repeats. False means "not shown" (enumerate), never "not injective".
    """
    leaves = []
    for s, d in zip(shapes, strides):
        if type(s) is not int or type(d) is not int:
            return False
        if s > 1:
            leaves.append((d, s))
    leaves.sort()
    span = 0
    for d, s in leaves:
        if d <= span:
            return False
        span += (s - 1) * d
    return True


def _check_extent(layout: Layout, who: str) -> None:
    """The tile's extent against the descriptor's range, from the shape alone (nothing enumerated): an operand
    with more elements than the 256 KiB window has bytes cannot be described (strides are checked field by field
    after the derivation)."""
    size = layout.size()
    if size > SMEM_WINDOW_BYTES:
        raise DescriptorError(f"{who}: the layout {layout} has {size} elements, more than the {SMEM_WINDOW_BYTES}-element "
                              "bound of one operand (the 256 KiB shared-memory window a descriptor addresses); checked "
                              "before enumerating")


class _Derived(NamedTuple):
    lbo_16B: int
    sbo_16B: int
    lbo_note: str
    sbo_note: str


def _derive(op: _Operand, major: str, rules: MmaRules, who: str) -> _Derived:
    """Divide the operand by the core matrix (in 16-byte units) and read LBO and SBO."""
    layout = op.layout
    mn_leaves = _leaves_of(layout.shape[0], layout.stride[0])
    k_leaves = _leaves_of(layout.shape[1], layout.stride[1])
    _check_k_extent(layout, _size(k_leaves), op.element_bits, major, rules, who)
    names = {"MN": "mode 0 (MN)", "K": "mode 1 (K)"}
    lead_name = names[major]
    other_name = names["K" if major == "MN" else "MN"]
    lead, other = (mn_leaves, k_leaves) if major == "MN" else (k_leaves, mn_leaves)
    lead_u, other_u = _to_units(op, major, lead, other, lead_name, other_name, who)
    if major == "K":
        return _derive_k_major(op.mode, lead_u, other_u, lead_name, other_name, rules, who)
    return _derive_mn_major(op, lead_u, other_u, lead_name, other_name, rules, who)


def _check_k_extent(layout: Layout, k_size: int, bits: int, major: str, rules: MmaRules, who: str) -> None:
    """Mode 1 (K) must be the K extent of one instruction."""
    k_bytes = k_size * bits / 8
    if k_bytes not in rules.k_bytes[major]:
        allowed = " or ".join(f"{b} B ({int(b * 8 // bits)} elements)" for b in rules.k_bytes[major])
        raise DescriptorError(
            f"{who}: wrong K extent: mode 1 (K) of {layout} has {k_size} {bits}-bit elements = {k_bytes:g} "
            f"bytes, but one {major}-major {rules.arch} operand spans {allowed} of K (32 bytes dense; "
            f"{'64 bytes sparse' if major == 'K' else '16 bytes sparse A, 64 bytes sparse B'}); pass the K "
            "slice of ONE instruction (e.g. flat_divide(tile, (M, K_instr))(_, _, i, k))"
        )


def _to_units(op: _Operand, major: str, lead: list[_Leaf], other: list[_Leaf], lead_name: str, other_name: str,
              who: str) -> tuple[list[_Leaf], list[_Leaf]]:
    """Both modes in 16-byte units: the leading mode starts with T contiguous elements, strides are multiples of T."""
    bits = op.element_bits
    t = 128 // bits  # elements per 16-byte unit
    if op.start_bits % 128:
        raise DescriptorError(
            f"{who}: misaligned start address: the operand starts at bit {op.start_bits} (byte "
            f"{op.start_bits / 8:g}); the descriptor's start address must be a multiple of 16 bytes (PTX: "
            "'the matrix start address must be 16-byte aligned'); nearest valid: "
            f"{(op.start_bits // 128) * 16:#x}"
        )
    lead_rest = lead
    if t > 1:
        sp = split_leaves(lead, t)
        if sp is None or _coalesce(sp[0]) != [(t, 1)]:
            got = _fmt(sp[0]) if sp else _fmt(lead)
            raise DescriptorError(
                f"{who}: {lead_name} of a {major}-major operand must start with {t} contiguous elements (one "
                f"16-byte core-matrix row of {bits}-bit elements): its first {t} elements have layout {got}, "
                f"needed {t}:1"
            )
        lead_rest = sp[1]
    units: dict[str, list[_Leaf]] = {}
    for name, part in ((lead_name, lead_rest), (other_name, other)):
        for _s, d in part:
            if d % t:
                raise DescriptorError(
                    f"{who}: {name} has stride {d} elements ({d * bits / 8:g} bytes), not a multiple of {t} "
                    "elements (16 bytes): every core-matrix row must start on a 16-byte boundary; needed a "
                    f"multiple of {t} such as {((d + t - 1) // t) * t}"
                )
        units[name] = [(s, d // t) for s, d in part]
    return units[lead_name], units[other_name]


def _single_stride(part: list[_Leaf], name: str, what: str, field: str, who: str) -> int:
    """The one stride (in units) between the groups of ``part``; 0 when there is a single group."""
    c = _coalesce(part)
    if not c:
        return 0
    if len(c) > 1:
        s0, d0 = c[0]
        raise DescriptorError(
            f"{who}: {name}: the {what} must all be one stride ({field}) apart, but they have layout "
            f"{_fmt(c, ' units')}; the second stride {c[1][1]} units ({c[1][1] * 16} B) would need to be "
            f"{s0 * d0} units ({s0 * d0 * 16} B) = {s0} x {d0}"
        )
    return c[0][1]


def _core_rows(part: list[_Leaf], name: str, nrows: int, pitch: int, mode: SwizzleMode, rules: MmaRules,
               who: str) -> list[_Leaf]:
    """Check that ``part`` starts with ``nrows`` core-matrix rows ``pitch`` units apart; return the rest."""
    sp = split_leaves(part, nrows)
    if sp is None:
        raise DescriptorError(
            f"{who}: {name} has {_size(part)} rows with layout {_fmt(part, ' units')}; core matrices "
            f"have {nrows} rows, so it needs a multiple of {nrows} rows split at row {nrows}"
        )
    inner = _coalesce(sp[0])
    if inner != [(nrows, pitch)]:
        hint = ""
        if len(inner) == 1:
            for m in MMA_MODES:
                if m.width_16B == inner[0][1] and m is not mode and m in rules.modes \
                        and m.atom_rows == nrows:
                    hint = (f"; {inner[0][1] * 16} B is the row pitch of the {m.short_name} mode: the "
                            f"swizzle does not match the atom (use {m.byte_swizzle})")
                    break
        raise DescriptorError(
            f"{who}: {name}: the {nrows} rows of a core matrix must be {pitch} units ({pitch * 16} B, "
            f"the {mode.short_name} row pitch) apart, but they have layout {_fmt(inner, ' units')}; "
            f"needed {nrows}:{pitch}{hint}"
        )
    return sp[1]


def _derive_k_major(mode: SwizzleMode, lead_u: list[_Leaf], other_u: list[_Leaf], lead_name: str,
                    other_name: str, rules: MmaRules, who: str) -> _Derived:
    """K-major: ``other`` holds the MN rows, ``lead`` the K units."""
    w, wb = mode.width_16B, mode.width_bytes
    mn_rest = _core_rows(other_u, other_name, 8, w, mode, rules, who)
    sbo = _single_stride(mn_rest, other_name, "8-row core-matrix groups", "SBO", who)
    ku = _size(lead_u)
    kc = _coalesce(lead_u)
    if mode.is_swizzled:
        if ku > w:
            raise DescriptorError(
                f"{who}: {lead_name} spans {ku} 16-byte units ({ku * 16} B) of K, more than one "
                f"{wb}-byte swizzle row: a K-major swizzled descriptor has no K stride (LBO is unused, "
                f"assumed 1), so K must stay inside one row; describe each {wb}-byte K block with its "
                "own descriptor"
            )
        if kc != [(ku, 1)]:
            raise DescriptorError(
                f"{who}: {lead_name}: the {ku} K units of a K-major swizzled row must be contiguous "
                "(K-major swizzled layouts have no K stride: LBO is unused, assumed 1), but they have "
                f"layout {_fmt(kc, ' units')}; needed {ku}:1"
            )
        return _Derived(1, sbo, "unused, assumed 1 (K-major swizzled)", "between 8-row groups" if sbo else
                        "unused (one 8-row group)")
    lbo = _single_stride(lead_u, lead_name, "16-byte core-matrix columns along K", "LBO", who)
    return _Derived(lbo, sbo, "between core-matrix columns along K",
                    "between 8-row groups" if sbo else "unused (one 8-row group)")


def _mn_outer_stride(op: _Operand, lead_u: list[_Leaf], lead_name: str, who: str) -> int:
    """MN-major: the stride (units) between swizzle atoms (or MN units) along MN; 0 for a single one."""
    mode = op.mode
    w, wb, t = mode.width_16B, mode.width_bytes, 128 // op.element_bits
    mnu = _size(lead_u)
    if mode.is_swizzled and mnu < w:
        if w % mnu or (mnu > 1 and _coalesce(lead_u) != [(mnu, 1)]):
            raise DescriptorError(
                f"{who}: {lead_name} has {mnu} 16-byte units with layout {_fmt(lead_u, ' units')}; an MN "
                f"extent narrower than one {wb}-byte swizzle row must be contiguous and divide it (needed "
                f"{mnu}:1 with {mnu} dividing {w})"
            )
        return 0
    sp = split_leaves(lead_u, w)
    if sp is None:
        raise DescriptorError(
            f"{who}: {lead_name} has {mnu} 16-byte units ({_fmt(lead_u, ' units')}), not a multiple of "
            f"the {w}-unit ({wb} B) swizzle row: needed a multiple of {w * t} elements"
        )
    inner = _coalesce(sp[0])
    if mode.is_swizzled and inner != [(w, 1)]:
        raise DescriptorError(
            f"{who}: {lead_name}: the {w} units of one {wb}-byte swizzle row must be contiguous, but "
            f"they have layout {_fmt(inner, ' units')}; needed {w}:1 (the {mode.short_name} atom is "
            f"{w * t} contiguous elements wide)"
        )
    groups = "MN units" if w == 1 else f"{wb}-byte swizzle atoms along MN"
    return _single_stride(sp[1], lead_name, groups, "SBO" if w == 1 and not mode.is_swizzled else "LBO", who)


def _derive_mn_major(op: _Operand, lead_u: list[_Leaf], other_u: list[_Leaf], lead_name: str, other_name: str,
                     rules: MmaRules, who: str) -> _Derived:
    """MN-major: ``lead`` holds the MN units, ``other`` the K rows."""
    mode = op.mode
    mn_outer = _mn_outer_stride(op, lead_u, lead_name, who)
    k_rest = _core_rows(other_u, other_name, mode.atom_rows, mode.width_16B, mode, rules, who)
    k_outer = _single_stride(k_rest, other_name, f"{mode.atom_rows}-row K groups",
                             "LBO" if not mode.is_swizzled else "SBO", who)
    if mode.is_swizzled:
        return _Derived(mn_outer, k_outer,
                        "between swizzle atoms along MN" if mn_outer else "unused (one atom along MN)",
                        f"between {mode.atom_rows}-row K groups" if k_outer else "unused (one K group)")
    # the interleave swap: SBO is the MN stride, LBO the K stride
    return _Derived(k_outer, mn_outer,
                    "between 8-row K groups (interleave: LBO is the K stride)" if k_outer else "unused (one "
                                                                                               "K group)",
                    "between MN units (interleave: SBO is the MN stride)" if mn_outer else "unused (one MN "
                                                                                           "unit)")


def make_smem_desc_for(rules: MmaRules, cls: type, layout: Any, major: Any, element_bits: Any, start_address: Any,
                    swizzle_anchor: str, extra: dict, swizzle_unit: Any = "elements") -> Any:
    """The descriptor (of class ``cls``) of one operand's shared-memory layout under ``rules``.

    Pre: as ``wgmma.make_smem_desc``; ``cls`` is a SmemDescriptorBase subclass taking the fields.
    Post: ``cls(start_address, lbo_bytes, sbo_bytes, swizzle, base_offset, ...)`` whose hardware
    model reads exactly ``layout``; DescriptorError naming the rule otherwise.

    >>> from pycute_layouts import parse
    >>> from pycute_layouts.arch.wgmma import SM90_RULES, SmemDescriptor
    >>> d = make_smem_desc_for(SM90_RULES, SmemDescriptor, parse("Sw<3,3,3> o 0 o ((8,8),(8,2)):((64,512),(1,8))"),
    ...                        "K", 16, 0, "absolute", {})
    >>> d.lbo_bytes, d.sbo_bytes
    (16, 1024)
    """
    _check_rules(rules, "make_smem_desc_for")
    who = f"{rules.who}.make_smem_desc"
    mj = _parse_major(major, who)
    bits = _check_bits(element_bits, mj, rules.desc_bits, rules, who, "descriptors")
    check_swizzle_unit(swizzle_unit, who)
    op = _normalize(layout, bits, start_address, swizzle_anchor, rules, who, swizzle_unit)
    if op.mode in rules.mn_only_modes and mj == "K":
        raise DescriptorError(f"{who}: the {op.mode.short_name} mode is MN-major only (CuTe: "
                              "'SWIZZLE_128B_BASE32B is invalid for Major-K'); a K-major operand cannot use "
                              "it")
    _check_injective(op.layout, who)
    der = _derive(op, mj, rules, who)
    start = op.start_bits // 8
    base_offset = 0
    if op.pattern_start is not None and op.mode.is_swizzled:
        base_offset = base_offset_for_pattern_start(op.mode, op.pattern_start)
    for field, units, note in (("LBO", der.lbo_16B, der.lbo_note), ("SBO", der.sbo_16B, der.sbo_note)):
        if units >= 1 << 14:
            raise DescriptorError(
                f"{who}: {field} overflow: the stride {note} is {units} units = {units * 16} bytes, but the "
                "14-bit field holds at most 16383 units (262128 bytes)"
            )
    if start >= SMEM_WINDOW_BYTES:
        raise DescriptorError(f"{who}: the operand starts at byte {start:#x}, outside the 256 KiB "
                              "shared-memory window a descriptor can address ((addr & 0x3FFFF) >> 4 must not "
                              "drop bits)")
    return cls(start_address=start, lbo_bytes=der.lbo_16B * 16, sbo_bytes=der.sbo_16B * 16, swizzle=op.mode,
               base_offset=base_offset, **extra)


# --------------------------------------------------------------------------------------------------
# Descriptors
# --------------------------------------------------------------------------------------------------


def _check_field_bytes(who: str, name: str, v: Any) -> int:
    v = check_count(who, name, v, None, None, DescriptorError)
    if v < 0:
        raise DescriptorError(f"{who}: {name} must be non-negative, got {v}")
    if v % 16:
        raise DescriptorError(f"{who}: {name}={v} is not a multiple of 16 bytes: the descriptor keeps it in "
                              f"16-byte units (PTX: it must be 16-byte aligned); nearest: {v - v % 16} or "
                              f"{v - v % 16 + 16}")
    if v >= SMEM_WINDOW_BYTES:
        raise DescriptorError(f"{who}: {name}={v} ({v:#x}) overflows the 14-bit field: {v} >> 4 = {v >> 4} > "
                              f"16383 (at most {SMEM_WINDOW_BYTES - 16} bytes; matrix-descriptor-encode "
                              "keeps x & 0x3FFFF)")
    return v


@dataclass(frozen=True)
class SmemDescriptorBase:
    """Fields, checks and the hardware model common to the sm90 and sm100 descriptors.

    ``wgmma.SmemDescriptor`` and ``umma.UmmaSmemDescriptor`` add the layout-type field and the bit
    layout; the model is stated on ``wgmma.SmemDescriptor``.

    Pre:  ``start_address``, ``lbo_bytes``, ``sbo_bytes`` multiples of 16 in the 256 KiB window; ``swizzle`` an MMA
          mode (any :meth:`SwizzleMode.parse` spelling); ``base_offset`` in [0, 7] (DescriptorError otherwise).
    Post: the fields as given, ``swizzle`` parsed to a SwizzleMode.

    >>> d = SmemDescriptorBase(start_address=0x400, lbo_bytes=16, sbo_bytes=1024, swizzle="128B")
    >>> d.swizzle, d.base_offset
    (<SwizzleMode.B128: 3>, 0)
    """

    start_address: int
    lbo_bytes: int
    sbo_bytes: int
    swizzle: SwizzleMode = SwizzleMode.INTERLEAVE
    base_offset: int = 0

    _ARCH: ClassVar[str] = ""

    def __post_init__(self) -> None:
        s, lb, sb, bo, sw = self.start_address, self.lbo_bytes, self.sbo_bytes, self.base_offset, self.swizzle
        if type(s) is int and type(lb) is int and type(sb) is int and type(bo) is int and type(sw) is SwizzleMode \
                and not (s | lb | sb) & 15 and 0 <= s < SMEM_WINDOW_BYTES and 0 <= lb < SMEM_WINDOW_BYTES \
                and 0 <= sb < SMEM_WINDOW_BYTES and (bo == 0 or (0 < bo <= 7 and sw.is_swizzled)) and sw.is_mma:
            return  # plain valid fields (the common case, e.g. decode): the checks below would all pass
        who = type(self).__name__
        if isinstance(self.swizzle, (int, np.integer)) and not isinstance(self.swizzle, SwizzleMode):
            raise DescriptorError(
                f"{who}: swizzle={fmt(self.swizzle)} is ambiguous (a wgmma layout type, a tcgen05 layout type "
                "or a CUtensorMapSwizzle value?); pass a SwizzleMode, a name such as '128B', or "
                "SwizzleMode.from_wgmma_layout_type(...) / from_tcgen05_layout_type(...)"
            )
        object.__setattr__(self, "swizzle", SwizzleMode.parse(self.swizzle))
        if not self.swizzle.is_mma:
            raise DescriptorError(f"{who}: the {self.swizzle.short_name} swizzle mode is TMA-only: no MMA "
                                  "descriptor names it (modes: none, 32B, 64B, 128B, 128B_base32B)")
        s = _check_field_bytes(who, "start_address", self.start_address)
        object.__setattr__(self, "start_address", s)
        object.__setattr__(self, "lbo_bytes", _check_field_bytes(who, "lbo_bytes", self.lbo_bytes))
        object.__setattr__(self, "sbo_bytes", _check_field_bytes(who, "sbo_bytes", self.sbo_bytes))
        bo = self.base_offset
        if isinstance(bo, bool) or not isinstance(bo, (int, np.integer)) or not 0 <= int(bo) <= 7:
            raise DescriptorError(f"{who}: base_offset must be an int in [0, 7] (a 3-bit field, bits 49-51), "
                                  f"got {fmt(bo)}")
        object.__setattr__(self, "base_offset", int(bo))
        if self.base_offset and not self.swizzle.is_swizzled:
            raise DescriptorError(f"{who}: base_offset={self.base_offset} with no swizzle: the base offset "
                                  "is valid only for the swizzled modes (PTX 9.7.15.5.1.2.2); use 0")

    def _repr_html_(self) -> str | None:
        """IPython's display protocol: the fields as a table (see :mod:`pycute_layouts.core.display`)."""
        return rich_repr(self, "html")

    # -- units -------------------------------------------------------------------------------
    @property
    def lbo_16B(self) -> int:
        """The LBO field value: ``lbo_bytes >> 4``."""
        return self.lbo_bytes >> 4

    @property
    def sbo_16B(self) -> int:
        """The SBO field value: ``sbo_bytes >> 4``."""
        return self.sbo_bytes >> 4

    @property
    def start_16B(self) -> int:
        """The start-address field value: ``start_address >> 4``."""
        return self.start_address >> 4

    # -- the hardware model --------------------------------------------------------------------
    def swizzled_address(self, address: Any) -> Any:
        """The byte address the model reads for the unswizzled address ``address`` (ints or int arrays).

        Pre: ``address`` is an int or an int array of unswizzled byte addresses.
        Post: the byte addresses the model reads (same shape).

        ``address ^ ((((address >> 7) - base_offset) mod 2**B) << M)`` for the mode's ``Sw<B,M,S>``
        (every mode's source bits start at bit 7); with base offset 0 this is the byte swizzle
        of the absolute address.
        """
        if isinstance(address, np.ndarray):
            if address.dtype.kind not in "iu":
                raise DescriptorError(f"swizzled_address: an address array must hold integers, got dtype {address.dtype}")
        else:
            address = check_count("swizzled_address", "address", address, 0, 2**63 - 1)
        sw = self.swizzle.byte_swizzle
        if sw.is_identity():
            return address
        a = np.asarray(address, dtype=np.int64) if not isinstance(address, int) else address
        phase = ((a >> 7) - self.base_offset) & ((1 << sw.bits) - 1)
        return a ^ (phase << sw.base)

    def element_addresses(self, major: Any, element_bits: int, shape: tuple[int, int]) -> np.ndarray:
        """Byte address of every element ``(mn, k)`` of a ``shape = (MN, K)`` operand read by the model.

        Pre: ``major`` is "K"/"MN"; ``shape`` is one instruction's (MN, K) in elements.
        Post: an int64 array of ``shape``: the byte address the unit reads for each element.

        The canonical walk (PTX 9.7.15.5.1.2.1, in 16-byte units, ``W`` = swizzle width): K-major
        row ``r``, K unit ``u``: ``(r%8)*W + (r//8)*SBO + u`` (swizzled) or ``(r%8) + (r//8)*SBO +
        u*LBO`` (none); MN-major MN unit ``u``, K row ``c`` (``R`` = 8 rows, 4 for 128B_base32B):
        ``(u%W) + (u//W)*LBO + (c%R)*W + (c//R)*SBO`` (swizzled) or ``u*SBO + (c%8) + (c//8)*LBO``
        (none); then :meth:`swizzled_address`. For sub-byte elements the byte holding the element.
        """
        mj = _parse_major(major, "element_addresses")
        if isinstance(element_bits, bool) or not isinstance(element_bits, int) or element_bits <= 0 \
                or 128 % element_bits:
            raise DescriptorError(f"element_addresses: element_bits must divide 128, got {fmt(element_bits)}")
        if not (isinstance(shape, tuple) and len(shape) == 2):
            raise DescriptorError(f"element_addresses: shape must be an (MN, K) pair of positive ints, got {fmt(shape)}"[:200])
        shape = (check_count("element_addresses", "shape MN", shape[0], 1),
                 check_count("element_addresses", "shape K", shape[1], 1))
        check_budget("element_addresses", f"shape {shape}", shape[0] * shape[1], MAX_ADDRESS_POINTS)
        t = 128 // element_bits
        mn, kk = np.meshgrid(np.arange(shape[0], dtype=np.int64), np.arange(shape[1], dtype=np.int64),
                             indexing="ij")
        w, rr = self.swizzle.width_16B, self.swizzle.atom_rows
        lbo, sbo = self.lbo_16B, self.sbo_16B
        if mj == "K":
            r, u, e = mn, kk // t, kk % t
            if self.swizzle.is_swizzled:
                unit = (r % 8) * w + (r // 8) * sbo + u
            else:
                unit = (r % 8) + (r // 8) * sbo + u * lbo
        else:
            u, e, c = mn // t, mn % t, kk
            if self.swizzle.is_swizzled:
                unit = (u % w) + (u // w) * lbo + (c % rr) * w + (c // rr) * sbo
            else:
                unit = u * sbo + (c % 8) + (c // 8) * lbo
        a = self.start_address + unit * 16
        return self.swizzled_address(a) + (e * element_bits) // 8

    def advance(self, nbytes: int, *, major: Any = None, k_bytes: int = 32, tile_start: int | None = None) -> Any:
        """The descriptor whose start address is ``nbytes`` further (stepping along K); fields are kept.

        Pre: ``nbytes`` is a multiple of 16 that stays inside the swizzle row or steps whole atoms.
        Post: the descriptor of the operand ``nbytes`` further along (same LBO, SBO, mode, base offset).

        The rule this relies on: the unit computes each 16-byte chunk's *unswizzled* address from
        the start address and the canonical offsets and applies the swizzle to that absolute
        address (see the hardware model on :class:`SmemDescriptor`). So moving the start by
        ``nbytes`` reads the sub-matrix whose unswizzled offsets are ``nbytes`` larger: K block
        ``i`` of a K-major swizzled tile starts ``i * 32`` bytes into the same rows (DeepGEMM's
        ``desc.lo += 2``), even though its bytes sit at XOR-permuted places. Checked always:
        ``nbytes`` is a multiple of 16 and the new start is in the 256 KiB window. Checked when
        ``major`` is given, for the swizzled modes: K-major -- the new start stays on the same row
        of the 8-row atom and its ``k_bytes`` of K fit in the row (a step out of the row, e.g.
        from the last 32 bytes of a 128-byte row by 32, reads the next rows, not the next K
        atom); MN-major -- the step is a whole number of swizzle atoms (K moves by 8-row groups).
        Rows are counted from ``tile_start`` (the byte address of the tile's element (0, 0)) when
        given, else from the pattern boundary the base offset names: pass ``tile_start`` for a tile
        that does not start on a row of the swizzle pattern (e.g. at 0x4A0).

        >>> from pycute_layouts.arch.wgmma import SmemDescriptor
        >>> d = SmemDescriptor(0x400, 16, 1024, "128B")
        >>> [hex(d.advance(32 * i, major="K").start_address) for i in range(4)]
        ['0x400', '0x420', '0x440', '0x460']
        >>> d.advance(128, major="K")
        Traceback (most recent call last):
        ...
        pycute_layouts.errors.DescriptorError: advance(128): ...
        """
        nbytes = check_count("advance", "nbytes", nbytes, None, None, DescriptorError)
        who = f"advance({nbytes})"
        if nbytes % 16:
            raise DescriptorError(f"{who}: the start address moves in 16-byte units; {nbytes} is not a "
                                  "multiple of 16")
        new = self.start_address + nbytes
        if not 0 <= new < SMEM_WINDOW_BYTES:
            raise DescriptorError(f"{who}: the new start address {new:#x} leaves the 256 KiB shared-memory "
                                  f"window [0, {SMEM_WINDOW_BYTES:#x})")
        m = self.swizzle
        if major is not None and m.is_swizzled:
            mj = _parse_major(major, who)
            wb, atom = m.width_bytes, m.atom_bytes
            if tile_start is None:
                anchor = self.base_offset * 128
            elif isinstance(tile_start, bool) or not isinstance(tile_start, (int, np.integer)) or tile_start < 0:
                raise DescriptorError(f"{who}: tile_start must be a non-negative int (a byte address), got {fmt(tile_start)}")
            else:
                anchor = int(tile_start)

            def row(a: int) -> int:
                return ((a - anchor) % atom) // wb

            if mj == "K":
                if row(new) != row(self.start_address):
                    raise DescriptorError(
                        f"{who}: K-major {m.short_name}: the start moves from row {row(self.start_address)} "
                        f"to row {row(new)} of the {m.atom_rows}-row swizzle atom; stepping along K must "
                        f"stay in the row (steps of 16 B within its {wb} bytes) or move by whole atoms "
                        f"({atom} B): the next K atom is not the next row"
                    )
                if (new - anchor) % wb + k_bytes > wb:
                    raise DescriptorError(
                        f"{who}: K-major {m.short_name}: the {k_bytes} bytes of K at the new start (byte "
                        f"{(new - anchor) % wb} of a {wb}-byte row) run past the end of the swizzle row"
                    )
            elif nbytes % atom:
                raise DescriptorError(
                    f"{who}: MN-major {m.short_name}: stepping along K must move by whole {m.atom_rows}-row "
                    f"swizzle atoms ({atom} B, or the SBO of {self.sbo_bytes} B); {nbytes} is not a multiple "
                    f"of {atom}"
                )
        return dataclasses.replace(self, start_address=new)

    def _str_fields(self) -> list[str]:
        return [
            f"  start_address = {self.start_address:#07x} ({self.start_address} B; field "
            f"{self.start_16B:#06x})",
            f"  lbo           = {self.lbo_bytes} B (field {self.lbo_16B})",
            f"  sbo           = {self.sbo_bytes} B (field {self.sbo_16B})",
            f"  base_offset   = {self.base_offset}",
        ]


def check_u64(who: str, value: Any) -> int:
    """``value`` as a 64-bit unsigned int, or DescriptorError naming ``who``.

    Pre: ``value`` is an int. Post: ``0 <= result < 2**64``.

    >>> hex(check_u64("f", 1 << 63))
    '0x8000000000000000'
    """
    v = check_count(who, "the 64-bit value", value, None, None, DescriptorError)
    if not 0 <= v < 1 << 64:
        raise DescriptorError(f"{who}: {v:#x} is not a 64-bit unsigned value")
    return v
