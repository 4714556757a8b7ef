"""Proofs that TMA swizzle modes produce exactly the bytes wgmma / tcgen05 read through our descriptors.

**The theorem.** Fix a TMA swizzle mode, the operand's major-ness (K or MN), an element width
(8, 16 or 32 bits) and an MMA generation (sm90 ``wgmma.mma_async``, sm100 ``tcgen05.mma``). A
TMA tiled load whose box's inner extent is the swizzle span (16 bytes without swizzling),
repeated over ``m`` blocks along MN and ``k`` blocks along K, puts element ``(mn, kk)`` at the
byte address the MMA unit computes for it from the descriptor this library derives
(:func:`pycute_layouts.arch.wgmma.make_smem_desc`, encoded to 64 bits and decoded back): ``start
address + canonical offset`` (the PTX canonical layout with the decoded LBO / SBO substituted),
then the descriptor's byte swizzle on the absolute address -- for every ``m, k >= 1`` and every
coordinate. :mod:`pycute_layouts.proofs_model` builds both sides; see ``docs/proofs.md``.

**The proof** (``method="symbolic"``), for all ``m`` and ``k`` at once:

1. *Linear forms.* Before swizzling, both addresses are layouts of the coordinate, so each is
   ``dst + sum(coefficient * coordinate bit) + a * c_a + q * c_q`` where the bits are those of the
   coordinate inside one block and ``a < m``, ``q < k`` the block indices; the coefficients are
   sympy expressions in ``m, k`` (the descriptor fields enter through them). Both sides' forms
   are computed and compared term by term.
2. *Atom base.* Terms at or above the TMA atom, plus ``dst - dst mod P``, form the atom base: a
   symbolic multiple of the period ``P`` (``sympy.Mod(base, P) == 0`` under integer assumptions).
3. *Period lemma.* Each swizzle reads and writes only address bits below ``log2(P)`` (shown on bit
   vectors), so ``swizzle(base + x) == base + swizzle(x)`` when ``P`` divides ``base``.
4. *In-atom identity.* What is left is a finite bit-vector identity over the coordinate bits of
   one atom, decided by :func:`pycute_layouts.symbolic.equivalent`.
5. *K-step lemma* (K-major swizzled modes): the ``32 * s``-byte start advance of instruction
   ``s`` inside a swizzle row is part of the in-atom identity, and the library's derived
   descriptor equals ``advance(32 * s)`` of the first one.

``method="exhaustive"`` compares every coordinate of concrete tiles (vectorised). A failed
proof becomes a :class:`TheoremCounterexample`: coordinate, TMA byte address, wgmma byte address,
confirmed by direct evaluation.

>>> p = prove_tma_matches_wgmma("128B", "K", 16)
>>> bool(p), p.claim[:60]
(True, 'for all m, k >= 1 and every element (mn, kk) of the (8*m)x(6')
>>> cx = prove_tma_matches_wgmma("64B", "K", 16, wgmma_swizzle="128B")
>>> bool(cx), cx.coordinate, cx.tma_address, cx.wgmma_address
(False, (0, 32), 512, 64)
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .arch.swizzle_modes import SwizzleMode, base_offset_for_pattern_start
from .errors import LayoutError, ProofError
from .layout import Layout
from .proofs_model import (
    ARCHS,
    ELEMENT_BITS,
    MAJORS,
    NEAREST_ATOM,
    TMA_MODES,
    Faults,
    NotApplicable,
    Pairing,
    pairing,
    parse_arch,
    parse_bits,
    parse_major,
    parse_tma_mode,
    tma_addresses,
    wgmma_addresses,
)
from .symbolic import Counterexample, Proof, address_bits, equivalent, symbols

__all__ = [
    "Faults",
    "NotApplicable",
    "TheoremProof",
    "TheoremCounterexample",
    "prove_tma_matches_wgmma",
    "prove_pairing",
    "check_sizes",
    "prove_k_step",
    "prove_base_offset_rule",
    "swizzle_period_lemma",
    "ProofReport",
    "report",
]

#: Sizes (m, k) and destinations the exhaustive method checks by default (every coordinate of each).
EXHAUSTIVE_SIZES = ((1, 1), (2, 1), (1, 2), (2, 3), (3, 2))
#: Sizes the symbolic method evaluates to connect its formulas to the library (and to find counterexamples).
WITNESS_SIZES = ((1, 1), (2, 2), (3, 1))


def _sp() -> Any:
    import sympy

    return sympy


# ----------------------------------------------------------------------------------------------
# results
# ----------------------------------------------------------------------------------------------


class TheoremProof(Proof):
    """A proof of the TMA == wgmma theorem for one pairing (truthy); ``steps`` are ``(words, formulas)``.

    >>> p = prove_tma_matches_wgmma("none", "MN", 16, method="exhaustive")
    >>> p.method, p.pairing.mma_mode.short_name, p.to_text().splitlines()[-1]
    ('exhaustive', 'none', 'Q.E.D.')
    """

    def __init__(self, p: Pairing | None, method: str, claim: str, steps: list, domain: Any = ("MN", "K")):
        super().__init__("TMA", "wgmma", domain, 0, steps, method)
        self.pairing = p
        self._claim = claim

    @property
    def claim(self) -> str:
        """The statement proved."""
        return self._claim

    def __repr__(self) -> str:
        what = self.pairing.describe() if self.pairing is not None else self.claim.split(":")[0]
        return f"TheoremProof({what!r}, method={self.method!r})"


class TheoremCounterexample(Counterexample):
    """A refutation (falsy): a tile coordinate where the TMA and wgmma byte addresses differ.

    ``coordinate`` is ``(mn, kk)`` of a tile of ``m`` x ``k`` blocks loaded at ``dst_address``;
    ``tma_address`` / ``wgmma_address`` are absolute shared-memory byte addresses (confirmed by
    direct evaluation); ``descriptor`` is the decoded descriptor of the instruction that reads the
    element; ``reason`` names the proof step that failed (symbolic method).

    >>> cx = prove_tma_matches_wgmma("128B", "K", 16, faults=Faults(sbo_bytes=512))
    >>> cx.coordinate, cx.tma_address, cx.wgmma_address, cx.m
    ((8, 0), 1024, 576, 2)
    """

    def __init__(self, p: Pairing, coordinate: tuple[int, int], tma_address: int, wgmma_address: int, m: int, k: int,
                 dst_address: int, descriptor: Any, method: str, reason: str, faults: Faults):
        mn, kk = p.tile_shape(m, k)
        diff = int(tma_address) ^ int(wgmma_address)
        bits = [t for t in range(diff.bit_length()) if diff >> t & 1]
        super().__init__("TMA", "wgmma", (mn, kk), coordinate, coordinate[0] + mn * coordinate[1], int(tma_address),
                         int(wgmma_address), bits[0] if bits else 0, None, None, {}, bits)
        self.pairing = p
        self.tma_address = int(tma_address)
        self.wgmma_address = int(wgmma_address)
        self.m, self.k, self.dst_address = m, k, dst_address
        self.descriptor = descriptor
        self.method = method
        self.reason = reason
        self.faults = faults

    def summary(self) -> str:
        """One line: coordinate and the two addresses.

        >>> prove_tma_matches_wgmma("128B", "K", 16, faults=Faults(swizzle="64B")).summary()
        '(mn, kk) = (1, 0) of the 8x64 tile at 0x0: TMA 0x90, wgmma 0x40'
        """
        mn, kk = self.pairing.tile_shape(self.m, self.k)
        return (f"(mn, kk) = {self.coordinate} of the {mn}x{kk} tile at {self.dst_address:#x}: TMA "
                f"{self.tma_address:#x}, wgmma {self.wgmma_address:#x}")

    def to_text(self) -> str:
        """The refutation in words: pairing, faults, coordinate, both addresses, the descriptor, the failed step."""
        lines = [f"Counterexample: {self.pairing.describe()}"]
        if self.faults.active():
            lines.append(f"  planted faults: {self.faults.describe()}")
        lines += [
            f"  tile m={self.m}, k={self.k} at dst {self.dst_address:#x}: element {self.summary()}",
            f"  address bits that differ: {self.differing_bits}",
            f"  descriptor of the instruction reading it: {self.descriptor.encode():#018x} "
            f"(start {self.descriptor.start_address:#x}, LBO {self.descriptor.lbo_bytes} B, SBO "
            f"{self.descriptor.sbo_bytes} B, {self.descriptor.swizzle.short_name}, base offset "
            f"{self.descriptor.base_offset})",
            f"  found by: {self.method}; {self.reason}",
        ]
        return "\n".join(lines)

    def to_markdown(self) -> str:
        """The refutation as a short Markdown block."""
        return "\n".join(f"- {x.strip()}" if i else f"**{x}**" for i, x in enumerate(self.to_text().splitlines()))

    def __repr__(self) -> str:
        return (f"TheoremCounterexample(coordinate={self.coordinate!r}, tma_address={self.tma_address}, "
                f"wgmma_address={self.wgmma_address})")


# ----------------------------------------------------------------------------------------------
# exhaustive
# ----------------------------------------------------------------------------------------------


def _first_mismatch(p: Pairing, m: int, k: int, dst: int, faults: Faults, method: str,
                    reason: str) -> TheoremCounterexample | None:
    a = tma_addresses(p, m, k, dst)
    b, descs = wgmma_addresses(p, m, k, dst, faults)
    bad = np.argwhere(a != b)
    if not len(bad):
        return None
    mn, kk = (int(x) for x in bad[0])
    return TheoremCounterexample(p, (mn, kk), int(a[mn, kk]), int(b[mn, kk]), m, k, dst,
                                 descs[kk // p.k_instr_elems], method, reason, faults)


def check_sizes(p: Pairing, sizes: Any, dst_address: int = 0, faults: Faults | None = None,
                method: str = "exhaustive") -> TheoremCounterexample | None:
    """Compare every coordinate of the tile for each ``(m, k)`` in ``sizes``; the first mismatch or None.

    >>> from pycute_layouts.proofs_model import pairing
    >>> check_sizes(pairing("64B", "MN", 16), [(1, 1), (4, 2)], 0x480) is None
    True
    """
    f = faults or Faults()
    for m, k in sizes:
        cx = _first_mismatch(p, m, k, dst_address, f, method, "every coordinate evaluated")
        if cx is not None:
            return cx
    return None


def _exhaustive(p: Pairing, dst: int, faults: Faults) -> TheoremProof | TheoremCounterexample:
    dsts = sorted({dst, dst + 3 * 128 + p.tma_alignment_bytes * (1 if p.tma_alignment_bytes < 128 else 0)})
    steps: list = []
    n = 0
    for d in dsts:
        for m, k in EXHAUSTIVE_SIZES:
            cx = _first_mismatch(p, m, k, d, faults, "exhaustive", "every coordinate evaluated")
            if cx is not None:
                return cx
            mn, kk = p.tile_shape(m, k)
            n += mn * kk
            steps.append((f"m={m}, k={k}, dst={d:#x}: all {mn * kk} elements of the {mn}x{kk} tile have equal TMA "
                          "and wgmma byte addresses (vectorised: box_to_smem vs the decoded descriptors)", None))
    claim = (f"{p.describe()}: every coordinate of every listed tile ({n} elements) has the same byte address on "
             "both sides")
    return TheoremProof(p, "exhaustive", claim, steps)


# ----------------------------------------------------------------------------------------------
# symbolic: linear forms, atom base, period lemma, in-atom identity
# ----------------------------------------------------------------------------------------------


@dataclass
class _Side:
    name: str
    const: Any
    mn_bits: list  # coefficient of bit t of mn inside the block
    k_bits: list
    mn_outer: Any  # coefficient of the block index a (0 <= a < m)
    k_outer: Any


def _is_pow2(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


def _linear_form(name: str, f: Any, bm: int, bk: int) -> _Side:
    sp = _sp()
    c0 = sp.expand(f(0, 0))
    mnb = [sp.expand(f(1 << t, 0) - c0) for t in range(bm.bit_length() - 1)]
    kb = [sp.expand(f(0, 1 << t) - c0) for t in range(bk.bit_length() - 1)]
    return _Side(name, c0, mnb, kb, sp.expand(f(bm, 0) - c0), sp.expand(f(0, bk) - c0))


class _Symbolic:
    """The symbolic objects of one pairing (both sides as functions of concrete coordinates, sympy values)."""

    def __init__(self, p: Pairing, dst: int, faults: Faults):
        sp = _sp()
        self.p, self.dst, self.faults = p, dst, faults
        self._starts: dict = {}
        self.m, self.k = symbols("m k")
        mn, kk = p.tile_shape(self.m, self.k)
        eb = p.element_bytes
        span = p.tma_span_elems
        if p.tma_major == "K":
            self.tma_layout = Layout((mn, (span, kk / span)), (span, (1, mn * span)))
        else:
            r = p.tma_rows
            self.tma_layout = Layout(((span, mn / span), (r, kk / r)), ((1, r * span), (span, r * span * mn / span)))
        tile = p.tile_layout(self.m, self.k)
        self.tile = tile
        s_mn = _last_stride(tile.stride[0])
        s_k = _last_stride(tile.stride[1])
        # the descriptor fields, read off the tile's strides as make_smem_desc reads them (bytes)
        swz = p.mma_mode.is_swizzled
        if p.mma_major == "K":
            lbo, sbo = (16 if swz else s_k * eb), s_mn * eb
        elif swz:
            lbo, sbo = s_mn * eb, s_k * eb
        else:
            lbo, sbo = s_k * eb, s_mn * eb
        self.lbo = sp.sympify(faults.lbo_bytes if faults.lbo_bytes is not None else lbo)
        self.sbo = sp.sympify(faults.sbo_bytes if faults.sbo_bytes is not None else sbo)
        self.mode = faults.swizzle if faults.swizzle is not None else p.mma_mode
        if faults.base_offset is not None:
            self.base_offset = faults.base_offset
        elif faults.swizzle_anchor == "tile" and self.mode.is_swizzled:
            self.base_offset = base_offset_for_pattern_start(self.mode, dst)
        else:
            self.base_offset = 0
        self.canonical = p.module.canonical_layout(p.mma_major, self.mode, element_bits=p.element_bits)
        self.canonical_bound = self.canonical.subs(LBO=self.lbo / eb, SBO=self.sbo / eb)

    def start(self, j: int) -> Any:
        """Start address of instruction ``j``: dst + bytes of the tile's element (0, j * K_instr) (+ fault)."""
        r = self._starts.get(j)
        if r is None:
            off = self.tile(0, j * self.p.k_instr_elems) * self.p.element_bytes
            r = self._starts[j] = _sp().sympify(self.dst + self.faults.start_offset_bytes + off)
        return r

    def tma_unswizzled(self, mn: int, kk: int) -> Any:
        return self.dst + self.tma_layout(mn, kk) * self.p.element_bytes

    def wgmma_unswizzled(self, mn: int, kk: int) -> Any:
        ki = self.p.k_instr_elems
        return self.start(kk // ki) + self.canonical_bound.inner(mn, kk % ki) * self.p.element_bytes


def _last_stride(s: Any) -> Any:
    while isinstance(s, tuple):
        s = s[-1]
    return s


def _descriptor_check(sy: _Symbolic) -> tuple[list, Any, str | None]:
    """Compare the library's encoded+decoded descriptors with the symbolic fields at the witness sizes.

    Returns the summary lines, the first decoded descriptor and, when the symbolic fields are not
    exact, the reason (the library encodes 0 for a stride its layout type does not read, which a
    faulted layout type reads).
    """
    from .proofs_model import _derive

    p = sy.p
    lines = []
    first = None
    inexact = None
    for m, k in WITNESS_SIZES:
        descs = _derive(p, m, k, sy.dst, sy.faults)
        first = first or descs[0]
        mn, _kk = p.tile_shape(m, k)
        g_lib = _groups(p, p.mma_mode, mn)
        g_read = _groups(p, sy.mode, mn)
        for j, d in enumerate(descs):
            sub = {sy.m: m, sy.k: k}
            want = {"start": int(sy.start(j).subs(sub)), "LBO": int(sy.lbo.subs(sub)),
                    "SBO": int(sy.sbo.subs(sub))}
            got = {"start": d.start_address, "LBO": d.lbo_bytes, "SBO": d.sbo_bytes}
            for name in ("start", "LBO", "SBO"):
                if got[name] == want[name]:
                    continue
                zeroed = name != "start" and got[name] == 0 and g_lib[name] == 1 and not _faulted(sy.faults, name)
                if zeroed and g_read[name] == 1:
                    continue  # encoded 0 and never read
                if zeroed:
                    inexact = (f"descriptor fields: at m={m}, k={k} the library encodes {name} = 0 (unused by "
                               f"{p.mma_mode}) but the {sy.mode} layout type reads it")
                    continue
                raise ProofError(f"internal: the library's descriptor for m={m}, k={k}, instruction {j} has {name} "
                                 f"= {got[name]}, the symbolic derivation {want[name]} (please report)")
            if d.swizzle is not sy.mode or d.base_offset != sy.base_offset:
                raise ProofError(f"internal: decoded layout type {d.swizzle} / base offset {d.base_offset} differ from "
                                 f"{sy.mode} / {sy.base_offset}")
        lines.append(f"m={m}, k={k}: {len(descs)} descriptors, e.g. {descs[0].encode():#018x}")
    return lines, first, inexact


def _faulted(f: Faults, name: str) -> bool:
    return (name == "LBO" and f.lbo_bytes is not None) or (name == "SBO" and f.sbo_bytes is not None)


def _groups(p: Pairing, mode: SwizzleMode, mn: int) -> dict:
    """How many groups each field strides over in one instruction (1: the field is never read)."""
    t = 128 // p.element_bits
    ki = p.k_instr_elems
    if p.mma_major == "K":
        return {"LBO": 2 if not mode.is_swizzled else 1, "SBO": -(-mn // 8)}
    n_mn = -(-mn // (t * mode.width_16B))
    n_k = -(-ki // mode.atom_rows)
    return {"LBO": n_mn, "SBO": n_k} if mode.is_swizzled else {"LBO": n_k, "SBO": n_mn}


def swizzle_period_lemma(fn: Any, period_bytes: int, name: str = "swizzle") -> tuple[bool, list]:
    """Whether ``fn`` commutes with adding multiples of ``period_bytes``, shown on bit vectors; and its bit formulas.

    On addresses ``[0, 4P)``: bits ``p = log2(P)`` and ``p + 1`` must be the input bits and every
    bit below ``p`` a function of input bits below ``p`` only. Then ``fn(x + n*P) == fn(x) + n*P``.

    >>> from pycute_layouts import Swizzle
    >>> ok, bits = swizzle_period_lemma(Swizzle(1, 4, 3), 256)
    >>> ok, bits[4]
    (True, i4 ^ i7)
    >>> swizzle_period_lemma(Swizzle(3, 4, 3), 256)[0]
    False
    """
    if not _is_pow2(int(period_bytes)):
        raise ProofError(f"swizzle_period_lemma: the period must be a power of two, got {period_bytes!r}")
    sp = _sp()
    p = int(period_bytes).bit_length() - 1
    bits = address_bits(fn, (4 << p,), p + 2)
    names = {f"i{t}" for t in range(p)}
    ok = all({s.name for s in b.free_symbols} <= names for b in bits[:p])
    ok = ok and all(bits[t] == sp.Symbol(f"i{t}") or str(bits[t]) == f"i{t}" for t in (p, p + 1))
    return ok, bits


def _descriptor_swizzle(d: Any) -> Any:
    """The descriptor's swizzle model as integer operations that also run on bit vectors.

    ``a ^ ((((a >> 7) - base_offset) mod 2**B) << M)`` (SmemDescriptor.swizzled_address), with the
    subtraction written as an addition mod 2**B; checked against the library's function on [0, 8 KiB).
    """
    sw = d.swizzle.byte_swizzle
    mask = (1 << sw.bits) - 1
    add = (-d.base_offset) % (1 << sw.bits) if sw.bits else 0

    def desc_swizzle(a: Any) -> Any:
        if not mask:
            return a
        return a ^ ((((a >> 7) + add) & mask) << sw.base)

    xs = np.arange(1 << 13, dtype=np.int64)
    if not np.array_equal(desc_swizzle(xs), np.asarray(d.swizzled_address(xs))):
        raise ProofError(f"internal: the bit-vector form of {d.swizzle} base offset {d.base_offset} differs from "
                         "SmemDescriptor.swizzled_address (please report)")
    desc_swizzle.__name__ = f"desc_swizzle[{d.swizzle}, base offset {d.base_offset}]"
    return desc_swizzle


def _period_step(sy: _Symbolic, dsc: Any) -> tuple[bool, list]:
    p = sy.p
    P = p.period_bytes
    tmap = p.tma_info.byte_map
    ok1, b1 = swizzle_period_lemma(tmap, P)
    ok2, b2 = swizzle_period_lemma(_descriptor_swizzle(dsc), P)
    return ok1 and ok2, [("TMA " + str(tmap), b1), (f"descriptor {dsc.swizzle} base offset {dsc.base_offset}", b2)]


def _symbolic(p: Pairing, dst: int, faults: Faults) -> TheoremProof | TheoremCounterexample:
    sp = _sp()
    bm, bk = p.block_mn, p.block_k
    tm, tk = p.tma_atom
    mn_s, k_s = p.tile_shape(*symbols("m k"))
    claim = (f"for all m, k >= 1 and every element (mn, kk) of the ({mn_s})x({k_s}) tile: the byte address where "
             f"the TMA load puts it == the byte address the {p.arch} MMA unit reads through our descriptor "
             f"({p.describe()}; dst = {dst:#x} + any multiple of {p.period_bytes} B)")
    if faults.active():
        claim += f" [planted faults: {faults.describe()}]"

    def refute(reason: str) -> TheoremProof | TheoremCounterexample:
        sizes = list(WITNESS_SIZES) + [(2, 1), (1, 2), (2, 3), (4, 4)]
        cx = check_sizes(p, sizes, dst, faults, method=f"symbolic (failed step: {reason.split(':')[0]})")
        if cx is None:
            raise ProofError(f"{p.describe()}: the symbolic proof fails ({reason}) but no counterexample was found at "
                             f"sizes {sizes}; the method cannot decide this pairing")
        cx.reason = f"failed step: {reason}; counterexample confirmed by evaluating both sides"
        return cx

    if not (_is_pow2(bm) and _is_pow2(bk)):
        return refute(f"block {bm}x{bk} is not a power of two in each mode: the coordinate is not a bit vector")
    sy = _Symbolic(p, dst, faults)
    steps: list = []
    steps.append((f"TMA side (arch.tma.box_to_smem model): the box {_fmt_box(p)} is packed densely and the "
                  f"{p.tma.short_name} byte map {p.tma_info.byte_map} is applied to the absolute address; in elements "
                  f"the packing is the layout {sy.tma_layout}", sp.Eq(sp.Symbol("A_TMA"), sp.Symbol(
                      f"sigma_TMA(dst + {p.element_bytes}*L_TMA(mn, kk))"))))
    lib_lines, dsc, inexact = _descriptor_check(sy)
    if inexact:
        return refute(inexact)
    steps.append((f"Descriptor (library): the MMA tile is {p.mma_atom} tiled to shape = {sy.tile}; "
                  f"{p.module.__name__.split('.')[-1]}.make_smem_desc of instruction j's K slice, encoded to 64 bits "
                  "and decoded, has the fields below (read off the tile's strides; checked against the decoded "
                  "descriptors at " + "; ".join(lib_lines) + ")",
                  [sp.Eq(sp.Symbol("LBO"), sy.lbo), sp.Eq(sp.Symbol("SBO"), sy.sbo),
                   sp.Eq(sp.Symbol("start_j"), sp.Symbol(f"dst + {p.element_bytes}*tile(0, {p.k_instr_elems}*j)")),
                   sp.Eq(sp.Symbol("layout_type"), sp.Symbol(sy.mode.short_name)),
                   sp.Eq(sp.Symbol("base_offset"), sy.base_offset)]))
    steps.append((f"wgmma side: the PTX canonical layout {sy.canonical} with the decoded LBO/SBO (in elements) "
                  f"substituted; element (mn, kk) is read by instruction j = kk // {p.k_instr_elems} at "
                  "sigma_desc(start_j + canonical(mn, kk mod K_instr) * element_bytes)", sy.canonical_bound.inner))
    # 1. linear forms
    t_side = _linear_form("TMA", sy.tma_unswizzled, bm, bk)
    w_side = _linear_form("wgmma", sy.wgmma_unswizzled, bm, bk)
    a_s, q_s = sp.symbols("a q", integer=True, nonnegative=True)
    outer_ok = all(sp.expand(f(bm * a_s, bk * q_s) - (s.const + s.mn_outer * a_s + s.k_outer * q_s)) == 0
                   for f, s in ((sy.tma_unswizzled, t_side), (sy.wgmma_unswizzled, w_side)))
    mn_bits = [sp.Symbol(f"mn{t}", integer=True, nonnegative=True) for t in range(len(t_side.mn_bits))]
    k_bits = [sp.Symbol(f"kk{t}", integer=True, nonnegative=True) for t in range(len(t_side.k_bits))]
    coord = [sp.Eq(sp.Symbol("mn"), sum((b * (1 << t) for t, b in enumerate(mn_bits)), sp.Integer(0)) + bm * a_s),
             sp.Eq(sp.Symbol("kk"), sum((b * (1 << t) for t, b in enumerate(k_bits)), sp.Integer(0)) + bk * q_s)]
    steps.append((f"Coordinates: block {bm}x{bk} elements; mn and kk are their bits inside the block plus the block "
                  "indices a < m, q < k (every layout leaf boundary is a power of two dividing the block, so both "
                  "unswizzled addresses are linear in these; checked symbolically in a and q: "
                  f"{'yes' if outer_ok else 'NO'})", coord))

    def form(s: _Side) -> Any:
        return (s.const + sum((c * b for c, b in zip(s.mn_bits, mn_bits)), sp.Integer(0))
                + sum((c * b for c, b in zip(s.k_bits, k_bits)), sp.Integer(0)) + s.mn_outer * a_s + s.k_outer * q_s)

    ft, fw = form(t_side), form(w_side)
    wit = _forms_match_models(p, dst, faults, t_side, w_side, sy, dsc)
    if wit:
        raise ProofError(f"internal: {wit} (please report)")
    steps.append(("Unswizzled byte addresses as linear forms (sympy, symbolic in m and k; swizzled, they reproduce "
                  "box_to_smem and the decoded-descriptor walk element by element at m, k = 1, 1 and 2, 2):",
                  [sp.Eq(sp.Symbol("u_TMA"), ft), sp.Eq(sp.Symbol("u_wgmma"), fw)]))
    if not outer_ok:
        return refute("linear forms: an address is not linear in the block indices")
    # 2. atom base
    P = p.period_bytes
    in_mn = [t for t in range(len(mn_bits)) if (1 << t) < tm]
    in_k = [t for t in range(len(k_bits)) if (1 << t) < tk]
    dq = sp.Symbol("d", integer=True, nonnegative=True)
    dst_lo = dst % P

    def base(s: _Side) -> Any:
        return (P * dq + sum((s.mn_bits[t] * mn_bits[t] for t in range(len(mn_bits)) if t not in in_mn), sp.Integer(0))
                + sum((s.k_bits[t] * k_bits[t] for t in range(len(k_bits)) if t not in in_k), sp.Integer(0))
                + s.mn_outer * a_s + s.k_outer * q_s)

    bt, bw = base(t_side), base(w_side)
    diff = sp.expand(bt - bw)
    mod_t = sp.Mod(sp.factor_terms(bt), P)  # gcd of the terms pulled out: Mod(16*(8*a + d + ...), 16) -> 0
    steps.append((f"Atom base: the terms at or above the {tm}x{tk}-element TMA atom plus dst - (dst mod {P}) = {P}*d. "
                  f"Both sides have the same base, and it is a multiple of the period P = {P} B (sympy.Mod with "
                  "integer symbols):", [sp.Eq(sp.Symbol("base"), bt), sp.Eq(sp.Symbol("base_TMA - base_wgmma"), diff),
                                        sp.Eq(sp.Symbol(f"Mod(base, {P})"), mod_t)]))
    if diff != 0:
        return refute(f"atom base: base_TMA - base_wgmma = {diff} != 0")
    if mod_t != 0:
        return refute(f"atom base: {bt} is not a multiple of the period {P}")
    # 3. period lemma
    per_ok, per_bits = _period_step(sy, dsc)
    lines = [sp.Eq(sp.Symbol(f"{name}: bits 0..{len(bits) - 1}"), sp.Tuple(*bits)) for name, bits in per_bits]
    steps.append((f"Period lemma (bit vectors on [0, {4 * P})): both swizzles read and write only address bits below "
                  f"log2({P}) = {P.bit_length() - 1}; bits {P.bit_length() - 1}.. pass through. Hence swizzle(base + x) "
                  "== base + swizzle(x) whenever P divides base:", lines))
    if not per_ok:
        return refute(f"period lemma: a swizzle touches address bits at or above log2({P})")
    # 4. in-atom identity
    tcoef = [(t_side.mn_bits[t], 0, t) for t in in_mn] + [(t_side.k_bits[t], 1, t) for t in in_k]
    wcoef = [(w_side.mn_bits[t], 0, t) for t in in_mn] + [(w_side.k_bits[t], 1, t) for t in in_k]
    lo_t = dst_lo + int(t_side.const - dst)
    w_const = sp.expand(w_side.const - dst)
    if not all(c.is_Integer for c, _, _ in tcoef + wcoef) or not w_const.is_Integer:
        return refute("in-atom offsets depend on m or k")
    lo_w = dst_lo + int(w_const)
    tmap = p.tma_info.byte_map

    def lin(coefs: list, lo: int, x: Any, y: Any) -> Any:
        acc = lo
        for c, which, t in coefs:
            v = x if which == 0 else y
            if int(c):
                acc = acc + ((v >> t) & 1) * int(c)
        return acc

    def f_tma(x: Any, y: Any) -> Any:
        return tmap(lin(tcoef, lo_t, x, y))

    dsw = _descriptor_swizzle(dsc)

    def f_wgmma(x: Any, y: Any) -> Any:
        return dsw(lin(wcoef, lo_w, x, y))

    f_tma.__name__ = f"in-atom TMA: {tmap}({dst_lo} + row/col offsets)"
    f_wgmma.__name__ = f"in-atom wgmma: desc swizzle({lo_w} + canonical offsets)"
    inner = equivalent(f_tma, f_wgmma, (tm, tk))
    if not inner:
        return refute(f"in-atom identity: address bit {inner.bit} differs ({inner.left_formula} vs "
                      f"{inner.right_formula}) at in-atom coordinate {inner.coordinate}")
    bit_lines = [sp.Eq(sp.Symbol(f"bits 0..{len(inner.steps) - 4}"), sp.Tuple(*[s[1] for s in inner.steps[3:]]))]
    steps.append((f"In-atom identity (symbolic.equivalent over the {tm}x{tk} coordinates of one atom, dst mod P = "
                  f"{dst_lo}): every address bit of the swizzled TMA offset equals the wgmma one (unique ANF):",
                  bit_lines))
    # 5. K-step lemma
    if p.mma_major == "K" and sy.mode.is_swizzled and p.mma_mode.width_bytes > 32:
        spa = p.mma_mode.width_bytes // 32
        starts = [sp.expand(sy.start(j) - sy.start(0)) for j in range(spa)]
        steps.append((f"K-step lemma: instructions 0..{spa - 1} of one {p.mma_mode.width_bytes}-byte swizzled row start "
                      f"{starts} bytes after the first (inside the row, part of the in-atom identity above), and the "
                      "library's descriptor for each equals SmemDescriptor.advance(32*s) of the first "
                      f"({_advance_check(p, dst, faults)})", None))
    steps.append(("Conclusion: address = swizzle(base + in-atom) = base + swizzle(in-atom) on both sides (period "
                  "lemma), the bases are equal and the in-atom parts are equal for every coordinate bit; so TMA and "
                  "wgmma addresses agree for every m, k and coordinate.", None))
    return TheoremProof(p, "symbolic", claim, steps)


def _eval_form(s: _Side, sub: dict, bm: int, bk: int, shape: tuple) -> np.ndarray:
    mn = np.arange(shape[0], dtype=np.int64)[:, None]
    kk = np.arange(shape[1], dtype=np.int64)[None, :]
    v = np.full(shape, int(s.const.subs(sub)), dtype=np.int64)
    for t, c in enumerate(s.mn_bits):
        v = v + ((mn % bm) >> t & 1) * int(c.subs(sub))
    for t, c in enumerate(s.k_bits):
        v = v + ((kk % bk) >> t & 1) * int(c.subs(sub))
    return v + (mn // bm) * int(s.mn_outer.subs(sub)) + (kk // bk) * int(s.k_outer.subs(sub))


def _forms_match_models(p: Pairing, dst: int, faults: Faults, t_side: _Side, w_side: _Side, sy: Any,
                        dsc: Any) -> str | None:
    """The swizzled linear forms must reproduce box_to_smem and the decoded-descriptor walk at witness sizes."""
    dsw = _descriptor_swizzle(dsc)
    for m, k in ((1, 1), (2, 2)):
        sub = {sy.m: m, sy.k: k}
        shape = p.tile_shape(m, k)
        ut = _eval_form(t_side, sub, p.block_mn, p.block_k, shape)
        uw = _eval_form(w_side, sub, p.block_mn, p.block_k, shape)
        if not np.array_equal(np.asarray(p.tma_info.byte_map(ut)), tma_addresses(p, m, k, dst)):
            return f"the TMA linear form disagrees with box_to_smem at m={m}, k={k}"
        if not np.array_equal(dsw(uw), wgmma_addresses(p, m, k, dst, faults)[0]):
            return f"the wgmma linear form disagrees with the decoded descriptors at m={m}, k={k}"
    return None


def _advance_check(p: Pairing, dst: int, faults: Faults) -> str:
    from .proofs_model import _derive

    descs = _derive(p, 2, 1, dst, faults)
    spa = p.mma_mode.width_bytes // 32
    # rows are counted from the tile's start, so a tile off the 128-byte lines (e.g. at 0x4a0) is checked too
    for s in range(spa):
        adv = descs[0].advance(32 * s, major="K", tile_start=dst)
        if adv != descs[s]:
            raise ProofError(f"internal: instruction {s}'s descriptor {descs[s]} != advance({32 * s}) = {adv}")
    return f"checked for s = 0..{spa - 1} with advance(32*s, major='K', tile_start={dst:#x})"


def _fmt_box(p: Pairing) -> str:
    names = ("span", "MN", "K/span") if p.tma_major == "K" else ("span", "rows", "MN/span", "K/rows")
    m, k = symbols("m k")
    mn, kk = p.tile_shape(m, k)
    vals = (p.tma_span_elems, mn, kk / p.tma_span_elems) if p.tma_major == "K" else \
        (p.tma_span_elems, p.tma_rows, mn / p.tma_span_elems, kk / p.tma_rows)
    return "(" + ", ".join(f"{n}={v}" for n, v in zip(names, vals)) + ")"


# ----------------------------------------------------------------------------------------------
# public entry points
# ----------------------------------------------------------------------------------------------


def prove_pairing(p: Pairing, method: str = "symbolic", dst_address: int = 0,
                  faults: Faults | None = None) -> TheoremProof | TheoremCounterexample:
    """The lower-level entry point: prove or refute a resolved :class:`~pycute_layouts.proofs_model.Pairing`.

    >>> from pycute_layouts.proofs_model import pairing
    >>> bool(prove_pairing(pairing("32B", "K", 8), "exhaustive", dst_address=0x100))
    True
    """
    if method not in ("symbolic", "exhaustive"):
        raise ProofError(f"method must be 'symbolic' or 'exhaustive', got {method!r}")
    f = faults if faults is not None else Faults()
    if not isinstance(f, Faults):
        raise ProofError(f"faults must be a Faults object, got {faults!r}")
    if isinstance(dst_address, bool) or not isinstance(dst_address, int) or dst_address < 0:
        raise ProofError(f"dst_address must be a non-negative int, got {dst_address!r}")
    if dst_address % p.tma_alignment_bytes:
        raise ProofError(f"dst_address {dst_address:#x} is not a multiple of {p.tma_alignment_bytes} bytes, the TMA "
                         f"destination alignment of {p.tma.short_name}")
    if method == "exhaustive":
        return _exhaustive(p, dst_address, f)
    return _symbolic(p, dst_address, f)


def prove_tma_matches_wgmma(tma_swizzle: Any, major: Any, element_bits: Any, arch: Any = "sm90",
                            method: str = "symbolic", wgmma_swizzle: Any = None, *, wgmma_major: Any = None,
                            dst_address: int = 0, faults: Faults | None = None) -> TheoremProof | TheoremCounterexample:
    """Prove that a TMA load in ``tma_swizzle`` puts every element where wgmma reads it, or refute it.

    ``wgmma_swizzle`` (default: the atom matching ``tma_swizzle``) and ``wgmma_major`` (default
    ``major``) state the MMA side; naming others states a mismatched pairing. ``dst_address`` is
    the tile's shared-memory address (the symbolic proof covers it plus any multiple of the
    period). ``faults`` plants descriptor faults (tests). Returns a :class:`TheoremProof`
    (truthy) or a :class:`TheoremCounterexample` (falsy). Bad input raises ProofError; a pairing
    the hardware does not have raises :class:`NotApplicable` (a ProofError) with the reason.

    >>> bool(prove_tma_matches_wgmma("128B", "MN", 16, "sm100", method="exhaustive"))
    True
    >>> prove_tma_matches_wgmma("128B", "MN", 16, wgmma_major="K")
    TheoremCounterexample(coordinate=(0, 1), tma_address=144, wgmma_address=2)
    >>> prove_tma_matches_wgmma("128B", "K", 12)
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.ProofError: element_bits must be one of (8, 16, 32) ...
    """
    p = pairing(tma_swizzle, major, element_bits, arch, mma_mode=wgmma_swizzle, mma_major=wgmma_major)
    return prove_pairing(p, method, dst_address, faults)


def prove_k_step(swizzle: Any, element_bits: Any, arch: Any = "sm90", dst_address: int = 0,
                 advance_bytes: int = 32) -> TheoremProof | TheoremCounterexample:
    """The K-step lemma: advancing the start address by ``advance_bytes`` inside a swizzled row reads the next K slice.

    For a K-major tile of one swizzle atom along K (``m = 2`` 8-row groups), instruction ``s``
    reads its descriptor ``D.advance(advance_bytes * s)``; the lemma holds when for every row
    ``r``, slice ``s`` and column ``c < K_instr`` the wgmma byte address equals the TMA byte
    address of element ``(r, s * K_instr + c)`` -- a bit-vector identity over one atom. A wrong
    step (16 bytes) is refuted.

    >>> bool(prove_k_step("128B", 16))
    True
    >>> prove_k_step("128B", 16, advance_bytes=16).coordinate
    (0, 16)
    """
    p = pairing(swizzle, "K", element_bits, arch)
    if not p.mma_mode.is_swizzled or p.mma_mode.width_bytes <= 32:
        raise NotApplicable(f"the {p.mma_mode.short_name} mode holds one instruction's 32 bytes of K per swizzle row "
                            "(or less): the next K slice is the next atom, covered by the atom-base step")
    if isinstance(advance_bytes, bool) or not isinstance(advance_bytes, int) or advance_bytes % 16:
        raise ProofError(f"advance_bytes must be a multiple of 16, got {advance_bytes!r}")
    from .proofs_model import _derive

    d0 = _derive(p, 2, 1, dst_address, Faults())[0]
    spa = p.mma_mode.width_bytes // 32
    ki = p.k_instr_elems
    eb = p.element_bytes
    span_b = p.mma_mode.width_bytes
    tmap = p.tma_info.byte_map
    descs = [p.descriptor_class.decode(d0.advance(advance_bytes * s).encode()) for s in range(spa)]
    from .proofs_model import canonical_offsets

    offs = canonical_offsets(p, d0, 16)
    a_t = np.empty((16, spa * ki), dtype=np.int64)
    a_w = np.empty_like(a_t)
    r, c = np.meshgrid(np.arange(16), np.arange(ki), indexing="ij")
    for s, d in enumerate(descs):
        a_w[:, s * ki:(s + 1) * ki] = d.swizzled_address(d.start_address + offs * eb)
        a_t[:, s * ki:(s + 1) * ki] = tmap(dst_address + r * span_b + (s * ki + c) * eb)
    # the same identity on bit vectors over one atom (8 rows, spa slices, K_instr columns)
    lo = dst_address
    bv = equivalent(lambda r_, s_, c_: tmap(lo + r_ * span_b + s_ * 32 + c_ * eb),
                    lambda r_, s_, c_: descs[0].swizzled_address(lo + advance_bytes * s_ + r_ * span_b + c_ * eb),
                    (8, spa, ki))
    bad = np.argwhere(a_t != a_w)
    if len(bad) or not bv:
        mn, kk = (int(x) for x in bad[0]) if len(bad) else (0, 0)
        return TheoremCounterexample(p, (mn, kk), int(a_t[mn, kk]), int(a_w[mn, kk]), 2, 1, dst_address,
                                     descs[kk // ki], "exhaustive + bit vectors",
                                     f"instruction {kk // ki} reads D.advance({advance_bytes * (kk // ki)})", Faults())
    sp = _sp()
    steps = [
        (f"The library's descriptor of instruction 0: {d0.encode():#018x}; instruction s uses D.advance({advance_bytes}*s) "
         f"(encoded and decoded), s = 0..{spa - 1}.", [sp.Eq(sp.Symbol(f"start_{s}"), d.start_address)
                                                        for s, d in enumerate(descs)]),
        (f"Bit vectors over one atom (row r < 8, slice s < {spa}, column c < {ki}): "
         f"{tmap}(dst + {span_b}*r + 32*s + {eb}*c) == desc_swizzle(dst + {advance_bytes}*s + canonical(r, c)) for "
         "every address bit:", [st[1] for st in bv.steps[3:]]),
        (f"Every element of a 16 x {spa * ki} K-major tile compared (vectorised): equal.", None),
    ]
    claim = (f"K-step lemma ({p.mma_mode.short_name}, {p.element_bits}-bit, {p.arch}): advancing the start address by "
             f"{advance_bytes} bytes per instruction inside a {span_b}-byte swizzled row reads the next K slice "
             "of the same TMA tile")
    return TheoremProof(p, "symbolic", claim, steps)


def prove_base_offset_rule(swizzle: Any, arch: Any = "sm90", base_offset_fn: Any = None) -> TheoremProof | Counterexample:
    """The base-offset rule: data swizzled relative to a pattern start ``S`` is read with PTX's base offset of ``S``.

    For every pattern start ``S = 128*n`` (``n`` < 8) and every byte ``x`` of one period: the
    descriptor model with ``base_offset = base_offset_for_pattern_start(mode, S)`` reads
    ``S + x`` at ``S + swizzle(x)`` -- a bit-vector identity over ``(x, n)``. TMA data (swizzled by
    absolute address) is the case ``S = 0``: base offset 0 wherever the tile starts.
    ``base_offset_fn(mode, S)`` replaces the rule (fault injection).

    >>> bool(prove_base_offset_rule("128B"))
    True
    >>> bool(prove_base_offset_rule("64B", base_offset_fn=lambda mode, s: 0))
    False
    """
    ar = parse_arch(arch)
    try:
        mode = SwizzleMode.parse(swizzle)
    except LayoutError as e:
        raise ProofError(f"unknown swizzle mode {swizzle!r}: {e}") from None
    from .arch import umma as umma_mod
    from .arch import wgmma as wgmma_mod

    cls = wgmma_mod.SmemDescriptor if ar == "sm90" else umma_mod.UmmaSmemDescriptor
    if not mode.is_swizzled:
        raise NotApplicable("the unswizzled mode has no pattern and no base offset")
    if ar == "sm90" and not mode.on_sm90:
        raise NotApplicable(f"sm90 wgmma has no {mode.short_name} layout type")
    rule = base_offset_fn or base_offset_for_pattern_start
    sw = mode.byte_swizzle
    P = mode.period_bytes
    descs = [cls(0, 16, 16, mode, rule(mode, 128 * n)) for n in range(8)]
    sp = _sp()
    lines = []
    for n, d in enumerate(descs):
        dsw = _descriptor_swizzle(d)

        def reads(x: Any, _f: Any = dsw, _n: int = n) -> Any:
            return _f(x + 128 * _n)

        def relative(x: Any, _n: int = n) -> Any:
            return sw(x) + 128 * _n

        reads.__name__ = f"descriptor model, base offset {d.base_offset}, at S + x (S = {128 * n})"
        relative.__name__ = f"S + {sw}(x)"
        r = equivalent(reads, relative, (P,))
        if not r:
            return r
        lines.append(sp.Eq(sp.Symbol(f"S={128 * n}, base_offset={d.base_offset}"),
                           sp.Tuple(*[st[1] for st in r.steps[3:]])))
    steps = [(f"Pattern starts S = 128*n, n = 0..7 -> base offsets {[d.base_offset for d in descs]} "
              "(base_offset_for_pattern_start: 0 on the pattern boundary, else (S >> 7) & 7).", None),
             (f"For each S, bit vectors over x < {P}: every address bit of the descriptor model at S + x equals that of "
              f"S + {sw}(x):", lines)]
    claim = (f"base-offset rule ({mode.short_name}, {ar}): for every pattern start S = 128*n and every byte x of one "
             f"{P}-byte period, the descriptor with base offset {rule.__name__}(mode, S) reads S + x at S + {sw}(x)")
    return TheoremProof(None, "symbolic", claim, steps, domain=(P, 8))


# ----------------------------------------------------------------------------------------------
# the report
# ----------------------------------------------------------------------------------------------


@dataclass
class ReportRow:
    """One classified pairing of the report."""

    tma_mode: str
    major: str
    element_bits: int
    arch: str
    wgmma_mode: str | None
    status: str  # "proved" | "refuted" | "not applicable"
    expected: str  # "proved" | "refuted" | "not applicable"
    detail: str
    exhaustive: str | None = None
    seconds: float = 0.0
    counterexample: dict | None = None

    @property
    def ok(self) -> bool:
        return self.status == self.expected and (self.exhaustive is None or self.exhaustive == self.status)

    def to_dict(self) -> dict:
        d = dict(self.__dict__)
        d["ok"] = self.ok
        return d


@dataclass
class ProofReport:
    """The table of ``pycute-layouts prove``: pairings, stated mismatches and lemmas, each classified.

    ``ok`` is False when any row differs from its expectation (an expected proof that failed, an
    expected refutation that was proved, or symbolic and exhaustive answers that disagree).
    """

    rows: list = field(default_factory=list)
    negatives: list = field(default_factory=list)
    lemmas: list = field(default_factory=list)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return all(r.ok for r in self.rows + self.negatives + self.lemmas)

    @property
    def failures(self) -> list:
        return [r for r in self.rows + self.negatives + self.lemmas if not r.ok]

    def counts(self) -> dict:
        out: dict = {}
        for r in self.rows:
            out[r.status] = out.get(r.status, 0) + 1
        return out

    def _table(self, rows: list, md: bool, neg: bool = False) -> list:
        head = ["TMA mode", "major", "bits", "arch", "wgmma atom", "result", "exhaustive", "detail"]
        if neg:
            head[0] = "stated pairing"
        body = [[r.tma_mode, r.major, str(r.element_bits), r.arch, r.wgmma_mode or "-",
                 r.status + ("" if r.ok else " (UNEXPECTED)"), r.exhaustive or "-", r.detail] for r in rows]
        if md:
            out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
            out += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in body]
            return out
        widths = [max(len(h), *(len(row[i]) for row in body)) if body else len(h) for i, h in enumerate(head)]
        widths[-1] = 0
        fmt = lambda row: "  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip()  # noqa: E731
        return [fmt(head), fmt(["-" * max(w, 1) for w in widths[:-1]] + ["------"])] + [fmt(r) for r in body]

    def _summary(self) -> str:
        c = self.counts()
        return (f"{len(self.rows)} pairings: {c.get('proved', 0)} proved, {c.get('refuted', 0)} refuted, "
                f"{c.get('not applicable', 0)} not applicable; {len(self.negatives)} stated mismatches refuted as "
                f"expected: {sum(r.ok for r in self.negatives)}; lemmas: {sum(r.ok for r in self.lemmas)}/"
                f"{len(self.lemmas)}; {'all as expected' if self.ok else f'{len(self.failures)} UNEXPECTED'}")

    def to_text(self) -> str:
        """The three tables as plain text, with a summary line."""
        out = ["TMA swizzle modes vs wgmma/tcgen05 descriptors (symbolic proof for all m, k; exhaustive check at "
               "concrete sizes)", ""]
        out += self._table(self.rows, False)
        out += ["", "Stated mismatches and planted faults (each must be refuted):", ""]
        out += self._table(self.negatives, False, neg=True)
        out += ["", "Lemmas:", ""] + self._table(self.lemmas, False, neg=True)
        out += ["", self._summary()]
        return "\n".join(out)

    def to_markdown(self) -> str:
        """The three tables as Markdown (the table in ``docs/proofs.md`` is this text)."""
        out = ["#### Pairings", ""] + self._table(self.rows, True)
        out += ["", "#### Stated mismatches and planted faults", ""] + self._table(self.negatives, True, neg=True)
        out += ["", "#### Lemmas", ""] + self._table(self.lemmas, True, neg=True)
        out += ["", self._summary()]
        return "\n".join(out)

    def to_json(self) -> str:
        """Everything as JSON (rows, negatives, lemmas, ok, counts)."""
        return json.dumps({"ok": self.ok, "counts": self.counts(), "rows": [r.to_dict() for r in self.rows],
                           "negatives": [r.to_dict() for r in self.negatives],
                           "lemmas": [r.to_dict() for r in self.lemmas]}, indent=1)


def _cx_dict(cx: Any) -> dict:
    return {"coordinate": list(cx.coordinate), "tma_address": cx.tma_address, "wgmma_address": cx.wgmma_address,
            "m": cx.m, "k": cx.k, "dst_address": cx.dst_address, "descriptor": f"{cx.descriptor.encode():#018x}"}


def _classify(p: Pairing, expected: str, note: str, exhaustive: bool, faults: Faults | None = None,
              dst: int = 0) -> tuple:
    t0 = time.perf_counter()
    r = prove_pairing(p, "symbolic", dst, faults)
    status = "proved" if r else "refuted"
    ex = None
    if exhaustive:
        ex = "proved" if prove_pairing(p, "exhaustive", dst, faults) else "refuted"
    detail = note
    cxd = None
    if not r:
        detail = (note + "; " if note else "") + r.summary()
        cxd = _cx_dict(r)
    return status, expected, detail, ex, time.perf_counter() - t0, cxd


def report(archs: Any = ARCHS, modes: Any = None, majors: Any = MAJORS, element_bits: Any = ELEMENT_BITS,
           exhaustive: bool = True) -> ProofReport:
    """Classify every pairing (mode x major x element width x arch), the stated mismatches and the lemmas.

    >>> r = report(archs=("sm90",), modes=("128B",), majors=("K",), element_bits=(16,))
    >>> [(x.tma_mode, x.status) for x in r.rows], r.ok
    ([('128B', 'proved')], True)
    """
    t0 = time.perf_counter()
    archs = tuple(parse_arch(a) for a in archs)
    mds = TMA_MODES if modes is None else tuple(parse_tma_mode(m) for m in modes)
    majors = tuple(parse_major(m) for m in majors)
    bits_list = tuple(parse_bits(b) for b in element_bits)
    rep = ProofReport()
    for mode in mds:
        for major in majors:
            for bits in bits_list:
                for arch in archs:
                    try:
                        p = pairing(mode, major, bits, arch)
                        expected, note = "proved", ""
                    except NotApplicable as e:
                        near = NEAREST_ATOM.get(mode)
                        p = None
                        if near is not None:
                            try:
                                p = pairing(mode, major, bits, arch, mma_mode=near)
                                expected = "refuted"
                                note = f"no MMA atom matches ({e.reason.split(';')[0].split(':')[0]}); vs the nearest"
                            except NotApplicable as e2:
                                e = NotApplicable(f"{e.reason.split('; name')[0]}; the nearest atom "
                                                  f"({near.short_name}) does not apply either: {e2.reason}")
                        if p is None:
                            rep.rows.append(ReportRow(mode.short_name, major, bits, arch, None, "not applicable",
                                                      "not applicable", e.reason))
                            continue
                    res = _classify(p, expected, note, exhaustive)
                    rep.rows.append(ReportRow(mode.short_name, major, bits, arch, p.mma_mode.short_name, *res))
    if modes is None:
        _negatives(rep, exhaustive)
        _lemmas(rep)
    rep.seconds = time.perf_counter() - t0
    return rep


#: The stated mismatches and planted faults of the report: (label, pairing args, faults, dst).
NEGATIVES = (
    ("TMA 64B box, wgmma 128B atom", ("64B", "K", 16, "sm90"), {"mma_mode": "128B"}, None, 0),
    ("TMA 128B MN-major box, K-major atom", ("128B", "MN", 16, "sm90"), {"mma_major": "K"}, None, 0),
    ("TMA 128B K-major box, MN-major atom", ("128B", "K", 16, "sm100"), {"mma_major": "MN"}, None, 0),
    ("wrong LBO (128 B fixed)", ("none", "K", 16, "sm90"), {}, Faults(lbo_bytes=128), 0),
    ("wrong SBO (512 B)", ("128B", "K", 16, "sm90"), {}, Faults(sbo_bytes=512), 0),
    ("LBO/SBO swapped (interleave swap)", ("64B", "MN", 16, "sm90"), {}, "swap", 0),
    ("wrong layout type (64B)", ("128B", "K", 16, "sm90"), {}, Faults(swizzle="64B"), 0),
    ("tile at 0x480 off the 1024 B boundary, PTX base offset", ("128B", "K", 16, "sm90"), {},
     Faults(swizzle_anchor="tile"), 0x480),
    ("base offset 2 on aligned TMA data", ("64B", "MN", 16, "sm100"), {}, Faults(base_offset=2), 0),
)


def _negatives(rep: ProofReport, exhaustive: bool) -> None:
    for label, args, kw, faults, dst in NEGATIVES:
        p = pairing(*args, **kw)
        if faults == "swap":
            from .proofs_model import _derive

            d = _derive(p, 2, 2, dst, Faults())[0]
            faults = Faults(lbo_bytes=d.sbo_bytes, sbo_bytes=d.lbo_bytes)
        res = _classify(p, "refuted", label, exhaustive, faults, dst)
        rep.negatives.append(ReportRow(p.tma.short_name + " / " + p.tma_major, p.mma_major, p.element_bits, p.arch,
                                       p.mma_mode.short_name, *res))


def _lemmas(rep: ProofReport) -> None:
    for arch in ARCHS:
        for mode in ("64B", "128B"):
            for bits in ELEMENT_BITS:
                t0 = time.perf_counter()
                r = prove_k_step(mode, bits, arch)
                rep.lemmas.append(ReportRow(f"K-step lemma {mode}", "K", bits, arch, mode,
                                            "proved" if r else "refuted", "proved",
                                            "start += 32 B per instruction inside the swizzled row",
                                            seconds=time.perf_counter() - t0))
        t0 = time.perf_counter()
        r = prove_k_step("128B", 16, arch, advance_bytes=16)
        rep.lemmas.append(ReportRow("K-step with a 16 B step", "K", 16, arch, "128B", "proved" if r else "refuted",
                                    "refuted", "planted fault: half an instruction" + ("" if r else "; " + r.summary()),
                                    seconds=time.perf_counter() - t0))
        for mode in SwizzleMode:
            if not mode.is_swizzled or (arch == "sm90" and not mode.on_sm90):
                continue
            t0 = time.perf_counter()
            r = prove_base_offset_rule(mode, arch)
            rep.lemmas.append(ReportRow(f"base-offset rule {mode.short_name}", "-", 0, arch, mode.short_name,
                                        "proved" if r else "refuted", "proved",
                                        "pattern at S = 128*n read with base offset (S >> 7) & 7 (0 on the boundary)",
                                        seconds=time.perf_counter() - t0))
