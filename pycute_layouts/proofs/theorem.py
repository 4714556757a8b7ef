"""Proofs that TMA swizzle modes produce exactly the bytes wgmma / tcgen05 read through our descriptors.

**The theorem.** Fix a TMA swizzle mode, the operand's major-ness (K or MN), an element width
(8, 16 or 32 bits) and an MMA generation (sm90 ``wgmma.mma_async``, sm100 ``tcgen05.mma``). A
TMA tiled load whose box's inner extent is the swizzle span (16 bytes without swizzling),
repeated over ``m`` blocks along MN and ``k`` blocks along K and written to a 128-byte-aligned
``dst``, puts element ``(mn, kk)`` at the byte address the MMA unit computes for it from the
descriptor this library derives (:func:`pycute_layouts.arch.wgmma.make_smem_desc`, encoded to 64
bits and read back by the literal PTX bit positions, :func:`~pycute_layouts.proofs.model.ptx_decode`):
``start address + canonical offset`` (the PTX canonical layout with the LBO / SBO read back
substituted), then the descriptor's byte swizzle on the absolute address -- for every tile inside
the 256 KiB shared-memory window and every coordinate. :mod:`pycute_layouts.proofs.model` builds
both sides; see ``docs/proofs.md``.

**The proof** (``method="symbolic"``), for all ``m``, ``k`` and 128-byte-aligned ``dst`` at once:

1. *TMA packing*, derived from the box (its compact layout) and the coordinate split.
2. *Descriptor fields*: sympy formulas read off the tile's strides, compared (not proved) with the
   library's read-back descriptors at sizes that set every field bit ((2^i, 1), (1, 2^i) up to the
   window) and at three destinations (dst, dst + 0x180, the top of the window).
3. *Linear forms.* Every concrete layout leaf is a power of two and symbolic leaves are last, so
   each address is ``dst + sum(coefficient * coordinate bit) + a * c_a + q * c_q`` over the
   coordinate bits inside one block and the block indices ``a < m``, ``q < k``; coefficients are
   sympy expressions in ``m, k``. Cross-checked element by element against the library.
4. *Atom base.* Terms at or above the TMA atom, plus ``dst - dst mod P``, form the atom base: a
   symbolic multiple of the period ``P`` (``sympy.Mod(base, P) == 0`` under integer assumptions).
5. *Period lemma.* ``f(x + n*P) == f(x) + n*P`` for both swizzles at all 2^18 addresses of the
   window, so ``swizzle(base + x) == base + swizzle(x)`` when ``P`` divides ``base``.
6. *In-atom identity.* A finite bit-vector identity over the coordinate bits of one atom and the
   residue ``dst mod P = 128*r``, decided by :func:`pycute_layouts.proofs.bitvec.equivalent`.
7. *K-step lemma* (K-major swizzled modes): the ``32 * s``-byte start advance of instruction
   ``s`` inside a swizzle row is part of the in-atom identity, and the library's derived
   descriptor equals ``advance(32 * s)`` of the first one.

A disagreement between the library and the model at a witness is a refutation, with a
counterexample found where it was seen. :func:`prove_descriptor_encoding` checks the encoding
of every descriptor field value; :func:`expected_status` is the fixed table of what the report
expects. ``method="exhaustive"`` compares every coordinate of concrete tiles (vectorised). A
failed proof becomes a :class:`TheoremCounterexample`: coordinate, TMA byte address, wgmma byte
address, confirmed by direct evaluation.

>>> p = prove_tma_matches_wgmma("128B", "K", 16)
>>> bool(p), p.claim[:60]
(True, 'for every 128-byte-aligned dst and all m, k >= 1 with the ti')
>>> cx = prove_tma_matches_wgmma("64B", "K", 16, wgmma_swizzle="128B")
>>> bool(cx), cx.coordinate, cx.tma_address, cx.wgmma_address
(False, (0, 32), 512, 64)
"""


from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..arch.swizzle_modes import SMEM_WINDOW_BYTES, SwizzleMode, base_offset_for_pattern_start
from ..core.inttuple import crd2idx, flatten
from ..core.layout import Layout
from ..core.symbols import symbols
from ..errors import LayoutError, ProofError
from ..limits import fmt
from .bitvec import BitVector, apply_map, equivalent
from .exhaustive import first_mismatch, fits_window, prove_exhaustive, witness_destinations
from .lemmas import descriptor_swizzle, first_period_violation, prove_k_step, swizzle_period_lemma
from .model import (
    Faults,
    NotApplicable,
    Pairing,
    check_pairing,
    derived_once,
    fact_scope,
    instruction_descriptors,
    pairing,
    tma_addresses,
    wgmma_addresses,
)
from .results import LibraryMismatch, TheoremCounterexample, TheoremProof, is_pow2, sympy_module

__all__ = [
    "Faults",
    "NotApplicable",
    "TheoremProof",
    "TheoremCounterexample",
    "prove_tma_matches_wgmma",
    "prove_pairing",
]

#: Sizes the symbolic method evaluates to connect its formulas to the library (and to find counterexamples).
WITNESS_SIZES = ((1, 1), (2, 2), (3, 1))


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



def _num(expr: Any, sub: dict) -> int:
    """A sympy expression in m, k evaluated at integers.

    An expanded polynomial with integer coefficients (every formula of the proof) is evaluated from its
    terms in Python integers -- the same value; anything else by ``xreplace`` (much faster than subs).

    >>> from pycute_layouts.core.symbols import symbols
    >>> m, k = symbols("m k")
    >>> _num(8 * m * k + 16 * m + 3, {m: 2, k: 5}), _num((m + 1) * k, {m: 2, k: 5})
    (115, 15)
    """
    if not hasattr(expr, "xreplace"):
        return int(expr)
    gens = tuple(sub)
    terms = _poly_terms(expr, gens) if len(gens) == 2 else None
    if terms is None:
        return int(expr.xreplace(sub))
    x, y = (int(sub[g]) for g in gens)
    return sum(c * x ** a * y ** b for c, a, b in terms)


@functools.lru_cache(maxsize=1 << 12)
def _poly_terms(expr: Any, gens: tuple) -> tuple | None:
    """``expr`` (expanded, in the two symbols ``gens``) as ((coefficient, exponent of gens[0], of gens[1]), ...); else None."""
    poly = _int_poly(expr, gens)
    if poly is None:
        return None
    out = []
    for mono, c in poly.items():
        pw = {} if mono == 1 else mono.as_powers_dict()
        out.append((c, int(pw.get(gens[0], 0)), int(pw.get(gens[1], 0))))
    return tuple(out)


def _linear_form(name: str, f: Any, bm: int, bk: int) -> _Side:
    sp = sympy_module()
    c0 = sp.expand(f(0, 0))
    mnb = [sp.expand(f(1 << t, 0) - c0) for t in range(bm.bit_length() - 1)]
    kb = [sp.expand(f(0, 1 << t) - c0) for t in range(bk.bit_length() - 1)]
    return _Side(name, c0, mnb, kb, sp.expand(f(bm, 0) - c0), sp.expand(f(0, bk) - c0))


def _symbolic_box(p: Pairing, m: Any, k: Any) -> tuple:
    """The TMA box (innermost first) with exact divisions, so that it stays symbolic in m and k."""
    mn, kk = p.tile_shape(m, k)
    span = p.tma_span_elems
    if p.tma_major == "K":
        return (span, mn, (p.block_k // span) * k)
    r = p.tma_rows
    return (span, r, (p.block_mn // span) * m, (p.block_k // r) * k)


class _Symbolic:
    """The symbolic objects of one pairing (both sides as functions of concrete coordinates, sympy values)."""

    def __init__(self, p: Pairing, dst: int, faults: Faults):
        sp = sympy_module()
        self.p, self.dst, self.faults = p, dst, faults
        self._starts: dict = {}
        self.m, self.k = symbols("m k")
        eb = p.element_bytes
        # TMA packing, derived: the box is packed densely, innermost dimension first (the compact
        # column-major layout of the box shape, strides computed by Layout), and the tile coordinate
        # (mn, kk) is split into box coordinates exactly as tma_addresses indexes box_to_smem's result.
        self.box = _symbolic_box(p, self.m, self.k)
        packed = Layout(self.box)
        sh, st = packed.shape, packed.stride
        # the modes of the checked layout `packed`, regrouped (its leaves are normalised: the trusted constructor)
        if p.tma_major == "K":  # (mn, kk) -> (kk % span, mn, kk // span)
            self.tma_layout = Layout.from_normalized((sh[1], (sh[0], sh[2])), (st[1], (st[0], st[2])))
        else:  # (mn, kk) -> (mn % span, kk % rows, mn // span, kk // rows)
            self.tma_layout = Layout.from_normalized(((sh[0], sh[2]), (sh[1], sh[3])), ((st[0], st[2]), (st[1], st[3])))
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
        self.base_offset = self.base_offset_at(dst)
        self.canonical = p.module.canonical_layout(p.mma_major, self.mode, element_bits=p.element_bits)
        self.canonical_bound = self.canonical.subs(LBO=self.lbo / eb, SBO=self.sbo / eb)

    def base_offset_at(self, dst: int) -> int:
        """The base offset the descriptor of a tile at ``dst`` has: 0 (TMA swizzles absolute addresses) unless faulted."""
        if self.faults.base_offset is not None:
            return self.faults.base_offset
        if self.faults.swizzle_anchor == "tile" and self.mode.is_swizzled:
            return base_offset_for_pattern_start(self.mode, dst)
        return 0

    def start(self, j: int) -> Any:
        """Start address of instruction ``j``: dst + bytes of the tile's element (0, j * K_instr) (+ fault).

        The tile's K mode is linear in the bits of its coordinate (checked by _bitwise_linear before
        any use), so ``start(j) = start(0) + sum over the set bits b of j of (start(2^b) - start(0))``;
        only the powers of two are evaluated on the symbolic tile.
        """
        r = self._starts.get(j)
        if r is None:
            if not isinstance(j, int) or j & (j - 1) == 0:  # symbolic, 0 or a power of two: evaluate the tile
                off = _at(self.tile, 0, j * self.p.k_instr_elems) * self.p.element_bytes
                r = sympy_module().expand(self.dst + self.faults.start_offset_bytes + off)
            else:
                s0 = self.start(0)
                r = sympy_module().expand(s0 + sum((self.start(1 << b) - s0 for b in range(j.bit_length()) if j >> b & 1),
                                          sympy_module().Integer(0)))
            self._starts[j] = r
        return r

    def tma_unswizzled(self, mn: int, kk: int) -> Any:
        return self.dst + _at(self.tma_layout, mn, kk) * self.p.element_bytes

    def wgmma_unswizzled(self, mn: int, kk: int) -> Any:
        ki = self.p.k_instr_elems
        return self.start(kk // ki) + _at(self.canonical_bound.inner, mn, kk % ki) * self.p.element_bytes


def _at(layout: Layout, mn: Any, kk: Any) -> Any:
    """``layout(mn, kk)`` as an unsimplified sympy value: every caller expands it (a polynomial in m, k)."""
    return crd2idx((mn, kk), layout.shape, layout.stride)


def _last_stride(s: Any) -> Any:
    while isinstance(s, tuple):
        s = s[-1]
    return s


def _sweep_sizes(p: Pairing) -> list:
    """(m, k) = (2^i, 1) and (1, 2^i) up to the window: every bit a field formula in m or k can set."""
    bb = p.block_mn * p.block_k * p.element_bytes
    out = []
    i = 1
    while i * bb <= SMEM_WINDOW_BYTES:
        out += [(i, 1)] + ([(1, i)] if i > 1 else [])
        i *= 2
    return out


def _instructions(n: int) -> list:
    """Instruction indices that set every bit of j: 0..3, the powers of two and the last one."""
    return sorted({j for j in (0, 1, 2, 3, n - 1) if 0 <= j < n} | {1 << i for i in range(n.bit_length()) if 1 << i < n})


def _find_counterexample(p: Pairing, dst: int, faults: Faults, reason: str,
                         where: tuple | None) -> TheoremCounterexample | None:
    """A confirmed counterexample for a failed symbolic step: at ``where`` first, then at the witnesses."""
    method = "symbolic"  # the failed step is named once, in the reason
    tried = []
    if where is not None:
        tried.append(where)
    for m, k in list(WITNESS_SIZES) + [(2, 1), (1, 2), (2, 3), (4, 4), (4, 1), (1, 4)]:
        tried += [(m, k, d) for d in witness_destinations(p, m, k, dst)]
    tried += [(m, k, dst) for m, k in _sweep_sizes(p) if fits_window(p, m, k, dst)]
    seen = set()
    for m, k, d in tried:
        if (m, k, d) in seen or not fits_window(p, m, k, d):
            continue
        seen.add((m, k, d))
        cx = first_mismatch(p, m, k, d, faults, method, "every coordinate evaluated")
        if cx is not None:
            cx.reason = f"failed step: {reason}; counterexample confirmed by evaluating both sides"
            return cx
    return None


def _descriptor_check(sy: _Symbolic) -> tuple[list, Any, tuple | None]:
    """Compare the descriptors the hardware reads (library derivation, encoded, PTX bit positions) with the formulas.

    At the witness sizes and destinations (dst, off the period, top of the window) and at (m, k) =
    (2^i, 1), (1, 2^i) up to the window, for instructions 0..3, the powers of two and the last one:
    every field bit a formula can set is set somewhere. Returns the summary lines, the first
    descriptor at ``dst`` and the first disagreement ``(reason, (m, k, dst))`` or None. A stride
    the library encodes as 0 because its mode has a single group is accepted when it is never read.
    """
    p = sy.p
    lines: list = []
    first = None
    plan = []
    for m, k in WITNESS_SIZES:
        plan += [(m, k, d) for d in witness_destinations(p, m, k, sy.dst)]
    plan += [(m, k, sy.dst) for m, k in _sweep_sizes(p) if fits_window(p, m, k, sy.dst) and (m, k) not in WITNESS_SIZES]
    ki = p.k_instr_elems
    n_desc = 0
    for m, k, d in plan:
        n = p.tile_shape(m, k)[1] // ki
        js = _instructions(n)
        descs = instruction_descriptors(p, m, k, d, sy.faults, instructions=js)
        n_desc += len(descs)
        if first is None and d == sy.dst:
            first = descs[0]
        mn, _kk = p.tile_shape(m, k)
        g_lib = _groups(p, p.mma_mode, mn)
        g_read = _groups(p, sy.mode, mn)
        sub = {sy.m: m, sy.k: k}
        want_bo = sy.base_offset_at(d)
        lbo, sbo = _num(sy.lbo, sub), _num(sy.sbo, sub)  # the same for every instruction of the tile
        for j, desc in zip(js, descs):
            want = {"start": _num(sy.start(j), sub) + d - sy.dst, "LBO": lbo, "SBO": sbo}
            got = {"start": desc.start_address, "LBO": desc.lbo_bytes, "SBO": desc.sbo_bytes}
            for name in ("start", "LBO", "SBO"):
                if got[name] == want[name]:
                    continue
                zeroed = name != "start" and got[name] == 0 and g_lib[name] == 1 and not _faulted(sy.faults, name)
                if zeroed and g_read[name] == 1:
                    continue  # encoded 0 and never read
                if zeroed:
                    return lines, first, (f"descriptor fields: at m={m}, k={k} the library encodes {name} = 0 (unused "
                                          f"by {p.mma_mode}) but the {sy.mode} layout type reads it", (m, k, d))
                return lines, first, (f"descriptor fields: at m={m}, k={k}, dst={d:#x} instruction {j}'s descriptor, "
                                      f"as the hardware reads it, has {name} = {got[name]}, the formula gives "
                                      f"{want[name]}", (m, k, d))
            if desc.swizzle is not sy.mode or desc.base_offset != want_bo:
                return lines, first, (f"descriptor fields: at m={m}, k={k}, dst={d:#x} the descriptor reads layout type "
                                      f"{desc.swizzle} / base offset {desc.base_offset}, expected {sy.mode} / {want_bo}",
                                      (m, k, d))
    wit = sorted({(m, k) for m, k, _d in plan if (m, k) in WITNESS_SIZES})
    dsts = ", ".join(f"{d:#x}" for d in sorted({d for *_x, d in plan}))
    lines.append(f"{n_desc} descriptors at (m, k) = {wit} x dst in [{dsts}] and at "
                 f"(m, k) = (2^i, 1), (1, 2^i) up to the window ({len(plan)} tiles); e.g. {first.encode():#018x}")
    return lines, first, None


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



def _period_step(sy: _Symbolic, dsc: Any) -> tuple[bool, list, str]:
    p = sy.p
    P = p.period_bytes
    tmap = p.tma_info.byte_map
    bad = []
    out = []
    for name, fn in (("TMA " + str(tmap), tmap), (f"descriptor {dsc.swizzle} base offset {dsc.base_offset}",
                                                  descriptor_swizzle(dsc))):
        ok, bits = derived_once(("period", getattr(fn, "model_key", fn), P), lambda fn=fn: swizzle_period_lemma(fn, P))
        out.append((name, bits))
        if not ok:
            x = first_period_violation(fn, P)
            bad.append(f"{name}: f({x:#x}) = {int(fn(x)):#x} but f({x % P:#x}) + {x - x % P:#x} = "
                       f"{int(fn(x % P)) + x - x % P:#x}")
    return not bad, out, "; ".join(bad)


def _leaves(shape: Any) -> list:
    return list(flatten(shape)) if isinstance(shape, tuple) else [shape]


def _bitwise_linear(layout: Any, blocks: tuple, what: str) -> str | None:
    """Why ``layout`` is (or is not) linear in the coordinate bits inside a block plus the block indices.

    Per mode: every concrete leaf is a power of two and a symbolic leaf (m, k) can only be the
    last one; then the mode's coordinate ``c`` enters as ``sum_t bit_t(c) * 2^t * stride`` over the
    concrete leaves and ``(c >> B) * stride_last`` (mixed radix with power-of-two radices). When the
    mode sees the block index (``blocks[i]`` is the block extent, None when it does not), the
    concrete leaves' product ``2^B`` must divide the block, so that ``c >> B`` is linear in the block
    index. Returns None when the conditions hold, else the reason.
    """
    for i, mode in enumerate(layout.shape):
        leaves = _leaves(mode)
        concrete = [int(x) for x in leaves if isinstance(x, (int, np.integer)) or getattr(x, "is_Integer", False)]
        sym = [t for t, x in enumerate(leaves) if not (isinstance(x, (int, np.integer)) or getattr(x, "is_Integer", False))]
        if sym and sym != [len(leaves) - 1]:
            return f"{what}: mode {i} {mode} has a symbolic leaf that is not its last"
        if not all(is_pow2(c) for c in concrete):
            return f"{what}: mode {i} {mode} has a leaf that is not a power of two"
        inner = int(np.prod(concrete[:len(leaves) - 1] if sym else concrete[:-1] or [1]))
        if blocks[i] is not None and blocks[i] % inner:
            return f"{what}: mode {i}'s inner leaves span {inner} elements, which does not divide the block {blocks[i]}"
    return None


class _Refuted(Exception):
    """A proof step failed: ``reason`` (and ``where``, the witness (m, k, dst) or None) become a counterexample.

    ``result`` is set when the step already holds the counterexample (the K-step lemma's).
    """

    def __init__(self, reason: str, where: tuple | None = None, result: Any = None):
        super().__init__(reason)
        self.reason, self.where, self.result = reason, where, result


@dataclass
class _Forms:
    """Both unswizzled addresses as linear forms over the coordinate bits and block indices (step 3)."""

    t_side: _Side
    w_side: _Side
    mn_bits: list  # sympy symbols mn0, mn1, ... (bits of mn inside the block)
    k_bits: list
    a: Any  # block index along MN
    q: Any  # block index along K


def _symbolic(p: Pairing, dst: int, faults: Faults) -> TheoremProof | TheoremCounterexample:
    try:
        return _symbolic_steps(p, dst, faults)
    except (LibraryMismatch, _Refuted) as e:
        if getattr(e, "result", None) is not None:
            return e.result
        cx = _find_counterexample(p, dst, faults, e.reason, e.where)
        if cx is None:
            raise ProofError(f"{p.describe()}: the symbolic proof fails ({e.reason}) but no counterexample was found at "
                             "the witness sizes and destinations; the method cannot decide this pairing") from None
        return cx


def _symbolic_steps(p: Pairing, dst: int, faults: Faults) -> TheoremProof:
    """The steps of the symbolic proof in order; a failing step raises _Refuted (or LibraryMismatch)."""
    sp = sympy_module()
    where = _domain_words(p, dst, faults)
    if not (is_pow2(p.block_mn) and is_pow2(p.block_k)):
        raise _Refuted(f"block {p.block_mn}x{p.block_k} is not a power of two in each mode: the coordinate is not a "
                       "bit vector")
    sy = _Symbolic(p, dst, faults)
    steps: list = [_tma_side_step(p, sy, dst, sp)]
    why = (_bitwise_linear(sy.tma_layout, (p.block_mn, p.block_k), "TMA packing")
           or _bitwise_linear(sy.tile, (None, p.block_k), "tile (start addresses)")
           or _bitwise_linear(sy.canonical_bound.inner, (p.block_mn, None), "canonical layout"))
    if why:
        raise _Refuted(f"linear forms: {why}")
    dsc, desc_steps = _descriptor_steps(p, sy, sp)
    steps += desc_steps
    fm, form_steps = _linear_form_steps(p, sy, dst, faults, sp)
    steps += form_steps
    steps.append(_atom_base_step(p, fm, sp, (sy.m, sy.k)))
    steps.append(_period_lemma_step(sy, dsc, sp))
    steps.append(_in_atom_step(p, sy, fm, dsc, dst, sp))
    k_step = _k_step_step(p, sy, dst, faults, sp)
    if k_step is not None:
        steps.append(k_step)
    steps.append(("Conclusion: address = swizzle(base + in-atom) = base + swizzle(in-atom) on both sides (period "
                  "lemma), the bases are equal and the in-atom parts are equal for every coordinate bit; so TMA and "
                  f"wgmma addresses agree for {where}, given the descriptor fields of step 2.", None))
    return TheoremProof(p, "symbolic", lambda: _claim(p, dst, faults), steps)


def _domain_words(p: Pairing, dst: int, faults: Faults) -> str:
    """The domain of the symbolic proof, in words."""
    return ("every 128-byte-aligned dst and all m, k >= 1 with the tile inside the 256 KiB shared-memory window"
            if faults.swizzle_anchor == "absolute"
            else f"dst = {dst:#x} + any multiple of {p.period_bytes} B and all m, k >= 1 with the tile inside the "
                 "256 KiB shared-memory window")


def _claim(p: Pairing, dst: int, faults: Faults) -> str:
    """The claim of the symbolic proof (written when it is read: the tile's shape is a sympy expression)."""
    where = _domain_words(p, dst, faults)
    mn_s, k_s = p.tile_shape(*symbols("m k"))
    claim = (f"for {where}, and every element (mn, kk) of the ({mn_s})x({k_s}) tile: the byte address where the TMA "
             f"load puts it == the byte address the {p.arch} MMA unit reads through our descriptor ({p.describe()})")
    if faults.active():
        claim += f" [planted faults: {faults.describe()}]"
    return claim


def _tma_side_step(p: Pairing, sy: _Symbolic, dst: int, sp: Any) -> tuple:
    """Step 1: the TMA packing; the box the model loads (p.tma_box) must be the symbolic box it was derived from."""
    for m, k in WITNESS_SIZES:
        want = tuple(_num(x, {sy.m: m, sy.k: k}) for x in sy.box)
        if tuple(p.tma_box(m, k)) != want:
            raise LibraryMismatch(f"TMA box: the model loads {p.tma_box(m, k)} at m={m}, k={k}, the derivation "
                                  f"assumes {want}", (m, k, dst))
    return lambda: (f"TMA side (arch.tma.box_to_smem model): the box {_fmt_box(p)} is packed densely, innermost "
                    f"dimension first (compact layout {Layout(sy.box)}), and the {p.tma.tma_name} byte map "
                    f"{p.tma_info.byte_map} is applied to the absolute address; splitting (mn, kk) into box "
                    f"coordinates gives, in elements, the layout {sy.tma_layout}",
                    _eq(sp, sp.Symbol("A_TMA"), sp.Symbol(f"sigma_TMA(dst + {p.element_bytes}*L_TMA(mn, kk))")))


def _descriptor_steps(p: Pairing, sy: _Symbolic, sp: Any) -> tuple[Any, list]:
    """Step 2: the descriptor fields as formulas, compared with the library; and the wgmma side. (descriptor, steps)"""
    lib_lines, dsc, problem = _descriptor_check(sy)
    if problem:
        raise _Refuted(*problem)
    steps = [lambda: (f"Descriptor (library, checked): the MMA tile is {p.mma_atom} tiled to shape = {sy.tile}; "
              f"{p.module.__name__.split('.')[-1]}.make_smem_desc of instruction j's K slice is encoded to 64 bits "
              "and read back by the literal PTX bit positions (ptx_decode). Its fields are the formulas below, read "
              "off the tile's strides -- compared (not proved) with the library at "
              + "; ".join(lib_lines) + ". Encoding and decoding of every field value: the descriptor-encoding lemma.",
              [_eq(sp, sp.Symbol("LBO"), sy.lbo), _eq(sp, sp.Symbol("SBO"), sy.sbo),
               _eq(sp, sp.Symbol("start_j"), sp.Symbol(f"dst + {p.element_bytes}*tile(0, {p.k_instr_elems}*j)")),
               _eq(sp, sp.Symbol("layout_type"), sp.Symbol(sy.mode.short_name)),
               _eq(sp, sp.Symbol("base_offset"), sy.base_offset)]),
             lambda: (f"wgmma side: the PTX canonical layout {sy.canonical} with the decoded LBO/SBO (in elements) "
                      f"substituted; element (mn, kk) is read by instruction j = kk // {p.k_instr_elems} at "
                      "sigma_desc(start_j + canonical(mn, kk mod K_instr) * element_bytes)", sy.canonical_bound.inner)]
    return dsc, steps


def _linear_form_steps(p: Pairing, sy: _Symbolic, dst: int, faults: Faults, sp: Any) -> tuple[_Forms, list]:
    """Step 3: both unswizzled addresses as linear forms, cross-checked against the library at the witnesses."""
    bm, bk = p.block_mn, p.block_k
    t_side = _linear_form("TMA", sy.tma_unswizzled, bm, bk)
    w_side = _linear_form("wgmma", sy.wgmma_unswizzled, bm, bk)
    a_s, q_s = sp.symbols("a q", integer=True, nonnegative=True)
    outer_ok = all(sp.expand(f(bm * a_s, bk * q_s) - (s.const + s.mn_outer * a_s + s.k_outer * q_s)) == 0
                   for f, s in ((sy.tma_unswizzled, t_side), (sy.wgmma_unswizzled, w_side)))
    mn_bits = [sp.Symbol(f"mn{t}", integer=True, nonnegative=True) for t in range(len(t_side.mn_bits))]
    k_bits = [sp.Symbol(f"kk{t}", integer=True, nonnegative=True) for t in range(len(t_side.k_bits))]
    fm = _Forms(t_side, w_side, mn_bits, k_bits, a_s, q_s)

    def coord() -> list:
        return [_eq(sp, sp.Symbol("mn"), sum((b * (1 << t) for t, b in enumerate(mn_bits)), sp.Integer(0)) + bm * a_s),
                _eq(sp, sp.Symbol("kk"), sum((b * (1 << t) for t, b in enumerate(k_bits)), sp.Integer(0)) + bk * q_s)]

    steps = [lambda: (f"Coordinates: block {bm}x{bk} elements; mn and kk are their bits inside the block plus the "
                      "block indices a < m, q < k. Both unswizzled addresses are linear in these: every concrete leaf "
                      "of the TMA packing, the tile and the canonical layout is a power of two, a symbolic leaf is last "
                      "in its mode and the inner leaves divide the block (checked on the three layouts), so each mode is "
                      "a mixed-radix sum over coordinate bits; the block part f(a*block) - f(0) is linear in a, q "
                      f"(sympy, symbolic a, q: {'yes' if outer_ok else 'NO'})", coord())]
    mism, checked = _forms_match_models(p, dst, faults, t_side, w_side, sy)
    if mism:
        raise _Refuted(*mism)
    steps.append(lambda: (f"Unswizzled byte addresses as linear forms (sympy, symbolic in m and k). Cross-check: swizzled, "
                          f"they reproduce box_to_smem and the hardware-read descriptors element by element at {checked}:",
                          [_eq(sp, sp.Symbol("u_TMA"), _form(fm, t_side, sp)),
                           _eq(sp, sp.Symbol("u_wgmma"), _form(fm, w_side, sp))]))
    if not outer_ok:
        raise _Refuted("linear forms: an address is not linear in the block indices")
    return fm, steps


def _form(fm: _Forms, s: _Side, sp: Any) -> Any:
    """One side's unswizzled address as a sympy linear form in the coordinate bits and block indices."""
    return (s.const + sum((c * b for c, b in zip(s.mn_bits, fm.mn_bits)), sp.Integer(0))
            + sum((c * b for c, b in zip(s.k_bits, fm.k_bits)), sp.Integer(0)) + s.mn_outer * fm.a + s.k_outer * fm.q)


def _in_atom_bits(p: Pairing, fm: _Forms) -> tuple[list, list]:
    """The indices of the mn and kk bits inside one TMA atom."""
    tm, tk = p.tma_atom
    return ([t for t in range(len(fm.mn_bits)) if (1 << t) < tm], [t for t in range(len(fm.k_bits)) if (1 << t) < tk])


def _atom_base_step(p: Pairing, fm: _Forms, sp: Any, gens: tuple) -> Any:
    """Step 4: the terms at or above the TMA atom agree on both sides and are a multiple of the period.

    The identity is decided on integer coefficients (:func:`_atom_base_holds`); the step's formulas
    (sympy) are written when the proof is printed. Where the integer check does not prove it, sympy
    decides, as the step states (``expand(base_TMA - base_wgmma)``, ``Mod(factor_terms(base), P)``).
    """
    tm, tk = p.tma_atom
    P = p.period_bytes
    in_mn, in_k = _in_atom_bits(p, fm)

    def sympy_step() -> tuple:
        dq = sp.Symbol("d", integer=True, nonnegative=True)

        def base(s: _Side) -> Any:
            return (P * dq + sum((s.mn_bits[t] * fm.mn_bits[t] for t in range(len(fm.mn_bits)) if t not in in_mn),
                                 sp.Integer(0))
                    + sum((s.k_bits[t] * fm.k_bits[t] for t in range(len(fm.k_bits)) if t not in in_k), sp.Integer(0))
                    + s.mn_outer * fm.a + s.k_outer * fm.q)

        bt, bw = base(fm.t_side), base(fm.w_side)
        diff = sp.expand(bt - bw)
        mod_t = sp.Mod(sp.factor_terms(bt), P)  # gcd of the terms pulled out: Mod(16*(8*a + d + ...), 16) -> 0
        step = (f"Atom base: the terms at or above the {tm}x{tk}-element TMA atom plus dst - (dst mod {P}) = {P}*d. "
                f"Both sides have the same base, and it is a multiple of the period P = {P} B (sympy.Mod with "
                "integer symbols):", [_eq(sp, sp.Symbol("base"), bt), _eq(sp, sp.Symbol("base_TMA - base_wgmma"), diff),
                                      _eq(sp, sp.Symbol(f"Mod(base, {P})"), mod_t)])
        return step, bt, diff, mod_t

    if _atom_base_holds(fm, in_mn, in_k, P, gens):
        return lambda: sympy_step()[0]  # proved; the formulas are written when the proof is printed
    step, bt, diff, mod_t = sympy_step()
    if diff != 0:
        raise _Refuted(f"atom base: base_TMA - base_wgmma = {diff} != 0")
    if mod_t != 0:
        raise _Refuted(f"atom base: {bt} is not a multiple of the period {P}")
    return step


def _int_poly(expr: Any, gens: tuple) -> dict | None:
    """An expanded polynomial in ``gens`` with integer coefficients as {monomial: int} (zero terms dropped); else None.

    >>> from pycute_layouts.core.symbols import symbols
    >>> m, k = symbols("m k")
    >>> sorted(_int_poly(8 * m * k + 16 * m + 3, (m, k)).values()), _int_poly(m / 2, (m, k))
    ([3, 8, 16], None)
    """
    if isinstance(expr, int):
        return {1: expr} if expr else {}
    out = {}
    for mono, c in expr.as_coefficients_dict().items():
        if not c.is_Integer:
            return None
        if c == 0:
            continue
        if mono == 1:
            out[1] = int(c)
            continue
        for base, e in mono.as_powers_dict().items():
            if base not in gens or not (e.is_Integer and e > 0):
                return None
        out[mono] = int(c)
    return out


def _atom_base_holds(fm: _Forms, in_mn: list, in_k: list, P: int, gens: tuple) -> bool:
    """Whether step 4 holds, decided on integer coefficients; False when that does not prove it.

    ``base = P*d + sum_t c_t * mn_t + sum_t c'_t * kk_t + c_a * a + c_q * q`` over the bits at or
    above the atom, each coefficient a polynomial in ``m, k``. ``base_TMA - base_wgmma`` is 0 exactly
    when every coefficient polynomial is the same on both sides (the bit symbols, ``a``, ``q`` and
    ``d`` are distinct from ``m, k``), and ``P`` divides ``base`` for all integer values when it
    divides every integer coefficient of every term (``P*d`` included) -- the gcd sympy's
    ``Mod(factor_terms(base), P)`` pulls out.
    """
    def coefs(s: _Side) -> list:
        return ([s.mn_bits[t] for t in range(len(fm.mn_bits)) if t not in in_mn]
                + [s.k_bits[t] for t in range(len(fm.k_bits)) if t not in in_k] + [s.mn_outer, s.k_outer])

    ct, cw = coefs(fm.t_side), coefs(fm.w_side)
    if len(ct) != len(cw):
        return False
    for a, b in zip(ct, cw):
        pa, pb = _int_poly(a, gens), _int_poly(b, gens)
        if pa is None or pa != pb or any(c % P for c in pa.values()):
            return False
    return True


def _period_lemma_step(sy: _Symbolic, dsc: Any, sp: Any) -> tuple:
    """Step 5: the period lemma for both swizzles over the whole window."""
    P = sy.p.period_bytes
    per_ok, per_bits, per_bad = _period_step(sy, dsc)
    lines = [_eq(sp, sp.Symbol(f"{name}: bits 0..{len(bits) - 1}"), sp.Tuple(*bits)) for name, bits in per_bits]
    if not per_ok:
        raise _Refuted(f"period lemma: {per_bad}")
    return (f"Period lemma: for both swizzles f, f(x + n*{P}) == f(x) + n*{P} at every byte address of the "
            f"256 KiB window (all 2^18 addresses evaluated). Hence swizzle(base + x) == base + swizzle(x) "
            f"whenever P divides base. Bit formulas on [0, {2 * P}), where iN is bit N of the byte address x:", lines)


def _lin(coefs: list, lo: Any, x: Any, y: Any) -> Any:
    """``lo`` plus the coefficient of every set coordinate bit: ``coefs`` holds (coefficient, 0 for x / 1 for y, bit)."""
    acc = lo
    for c, which, t in coefs:
        v = x if which == 0 else y
        if int(c):
            acc = acc + ((v >> t) & 1) * int(c)
    return acc


def _in_atom_step(p: Pairing, sy: _Symbolic, fm: _Forms, dsc: Any, dst: int, sp: Any) -> tuple:
    """Step 6: the in-atom identity over the coordinate bits of one atom (and dst mod P for absolute anchoring)."""
    tm, tk = p.tma_atom
    P = p.period_bytes
    in_mn, in_k = _in_atom_bits(p, fm)
    t_side, w_side = fm.t_side, fm.w_side
    tcoef = [(t_side.mn_bits[t], 0, t) for t in in_mn] + [(t_side.k_bits[t], 1, t) for t in in_k]
    wcoef = [(w_side.mn_bits[t], 0, t) for t in in_mn] + [(w_side.k_bits[t], 1, t) for t in in_k]
    t_const, w_const = sp.expand(t_side.const - dst), sp.expand(w_side.const - dst)
    if not all(c.is_Integer for c, _, _ in tcoef + wcoef) or not (t_const.is_Integer and w_const.is_Integer):
        raise _Refuted("in-atom offsets depend on m or k")
    every_dst = sy.faults.swizzle_anchor == "absolute"
    dst_lo = dst % P
    n_res = max(1, P // 128) if every_dst else 1
    r0 = dst_lo if not every_dst else 0
    tmap = p.tma_info.byte_map
    dsw = descriptor_swizzle(dsc)

    def f_tma(x: Any, y: Any, z: Any = 0) -> Any:
        a = _lin(tcoef, r0 + 128 * z + int(t_const), x, y)
        return apply_map(tmap, a) if isinstance(a, BitVector) else tmap(a)

    def f_wgmma(x: Any, y: Any, z: Any = 0) -> Any:
        return dsw(_lin(wcoef, r0 + 128 * z + int(w_const), x, y))

    res = f"128*r (r < {n_res}: every 128-byte-aligned dst mod P)" if n_res > 1 else f"{r0}"
    f_tma.__name__ = f"in-atom TMA: {tmap}({res} + row/col offsets)"
    f_wgmma.__name__ = f"in-atom wgmma: desc swizzle({res} + {int(w_const)} + canonical offsets)"
    inner = equivalent(f_tma, f_wgmma, (tm, tk, n_res) if n_res > 1 else (tm, tk))
    if not inner:
        c = inner.coordinate
        d_bad = dst - dst_lo + (128 * c[2] if n_res > 1 else dst_lo)
        raise _Refuted(f"in-atom identity: address bit {inner.bit} differs ({inner.left_formula} vs "
                       f"{inner.right_formula}) at in-atom coordinate {tuple(c[:2])}, dst mod {P} = {d_bad % P}",
                       (1, 1, d_bad) if fits_window(p, 1, 1, d_bad) else None)
    over = (f"and the {n_res} residues dst mod {P} = 128*r" if n_res > 1 else f"dst mod P = {dst_lo}")
    names = (f"iN is bit N of the in-atom row mn mod {tm}, jN bit N of the in-atom column kk mod {tk}"
             + (", kN bit N of r" if n_res > 1 else ""))
    return lambda: (f"In-atom identity (symbolic.equivalent over the {tm}x{tk} coordinates of one atom {over}): every "
                    f"address bit of the swizzled TMA offset equals the wgmma one (unique ANF; {names}):",
                    [_eq(sp, sp.Symbol(f"bits 0..{len(inner.steps) - 4}"), sp.Tuple(*[s[1] for s in inner.steps[3:]]))])


def _k_step_step(p: Pairing, sy: _Symbolic, dst: int, faults: Faults, sp: Any) -> tuple | None:
    """Step 7 (K-major swizzled rows wider than 32 B): each instruction's descriptor is the first one advanced."""
    if not (p.mma_major == "K" and sy.mode.is_swizzled and p.mma_mode.width_bytes > 32):
        return None
    spa = p.mma_mode.width_bytes // 32
    bad = _advance_check(p, dst, faults)
    if bad:
        r = prove_k_step(p.mma_mode, p.element_bits, p.arch, dst_address=dst)
        if not r:
            r.reason = f"failed step: K-step lemma: {bad}"
            raise _Refuted(r.reason, result=r)
        raise _Refuted(f"K-step lemma: {bad}")
    return lambda: (f"K-step lemma: instructions 0..{spa - 1} of one {p.mma_mode.width_bytes}-byte swizzled row start "
                    f"{[sp.expand(sy.start(j) - sy.start(0)) for j in range(spa)]} bytes after the first (inside the "
                    "row, part of the in-atom identity above), and the library's descriptor for each equals "
                    f"SmemDescriptor.advance(32*s, major='K') of the first (checked for s = 0..{spa - 1} at dst {dst:#x})",
                    None)


def _eval_form(s: _Side, sub: dict, bm: int, bk: int, shape: tuple) -> np.ndarray:
    """The linear form at every (mn, kk) of the tile: its mn terms summed along the rows, its kk terms along the columns."""
    def along(n: int, block: int, bit_coefs: list, outer: Any) -> np.ndarray:
        # sum_t bit_t(x mod block) * c_t + (x // block) * c_outer for x < n, in int64 (exact: integer matmul)
        x = np.arange(n, dtype=np.int64)
        bits = (x % block)[:, None] >> np.arange(len(bit_coefs), dtype=np.int64)[None, :] & 1
        return bits @ np.array([_num(c, sub) for c in bit_coefs], dtype=np.int64) + (x // block) * _num(outer, sub)

    rows = along(shape[0], bm, s.mn_bits, s.mn_outer) + _num(s.const, sub)
    return rows[:, None] + along(shape[1], bk, s.k_bits, s.k_outer)[None, :]


#: Sizes at which the swizzled linear forms are compared with the library, element by element.
FORM_CHECK_SIZES = ((1, 1), (2, 2), (4, 1), (1, 4))


def _forms_match_models(p: Pairing, dst: int, faults: Faults, t_side: _Side, w_side: _Side,
                        sy: Any) -> tuple[tuple | None, str]:
    """The swizzled linear forms must reproduce box_to_smem and the hardware-read descriptors at the witnesses."""
    done = []
    for m, k in FORM_CHECK_SIZES:
        sub = {sy.m: m, sy.k: k}
        shape = p.tile_shape(m, k)
        ut = _eval_form(t_side, sub, p.block_mn, p.block_k, shape)
        uw = _eval_form(w_side, sub, p.block_mn, p.block_k, shape)
        for d in witness_destinations(p, m, k, dst):
            dsw = descriptor_swizzle(instruction_descriptors(p, 1, 1, d, faults, only_first=True)[0])
            if not np.array_equal(np.asarray(p.tma_info.byte_map(ut + (d - dst))), tma_addresses(p, m, k, d)):
                return (f"linear forms: the TMA linear form disagrees with box_to_smem at m={m}, k={k}, dst={d:#x}",
                        (m, k, d)), ""
            if not np.array_equal(dsw(uw + (d - dst)), wgmma_addresses(p, m, k, d, faults)[0]):
                return (f"linear forms: the wgmma linear form disagrees with the hardware-read descriptors at m={m}, "
                        f"k={k}, dst={d:#x}", (m, k, d)), ""
            done.append(f"({m},{k})@{d:#x}")
    return None, ", ".join(done)


def _advance_check(p: Pairing, dst: int, faults: Faults) -> str | None:
    """Whether instruction s's descriptor is ``advance(32*s, major='K')`` of instruction 0's; the difference or None.

    TMA destinations are 128-byte aligned, so a K-major tile starts on a row of the swizzle
    pattern and rows counted from the pattern boundary are rows counted from the tile.
    """
    descs = instruction_descriptors(p, 2, 1, dst, faults)
    spa = p.mma_mode.width_bytes // 32
    for s in range(spa):
        try:
            adv = descs[0].advance(32 * s, major="K")
        except LayoutError as e:
            return f"advance({32 * s}) of instruction 0's descriptor is refused: {e}"
        if adv != descs[s]:
            return f"instruction {s}'s descriptor {descs[s].encode():#018x} != advance({32 * s}) = {adv.encode():#018x}"
    return None


def _fmt_box(p: Pairing) -> str:
    names = ("span", "MN", "K/span") if p.tma_major == "K" else ("span", "rows", "MN/span", "K/rows")
    return "(" + ", ".join(f"{n}={v}" for n, v in zip(names, _symbolic_box(p, *symbols("m k")))) + ")"


# ----------------------------------------------------------------------------------------------
# public entry points
# ----------------------------------------------------------------------------------------------


def prove_pairing(p: Pairing, method: str = "symbolic", dst_address: int = 0,
                  faults: Faults | None = None) -> TheoremProof | TheoremCounterexample:
    """The lower-level entry point: prove or refute a resolved :class:`~pycute_layouts.proofs.model.Pairing`.

    Pre:  ``p`` a resolved Pairing; ``method`` ``'symbolic'`` or ``'exhaustive'``; ``dst_address`` aligned as TMA requires.
    Post: a TheoremProof (truthy) or a TheoremCounterexample (falsy); ProofError for bad input.

    >>> from pycute_layouts.proofs.model import pairing
    >>> bool(prove_pairing(pairing("32B", "K", 8), "exhaustive", dst_address=0x100))
    True
    """
    check_pairing(p, "prove_pairing")
    if not isinstance(method, str) or method not in ("symbolic", "exhaustive"):
        raise ProofError(f"method must be 'symbolic' or 'exhaustive', got {fmt(method)}")
    f = faults if faults is not None else Faults()
    if not isinstance(f, Faults):
        raise ProofError(f"faults must be a Faults object, got {fmt(faults)}")
    if isinstance(dst_address, bool) or not isinstance(dst_address, int) or dst_address < 0:
        raise ProofError(f"dst_address must be a non-negative int, got {fmt(dst_address)}")
    if dst_address % p.tma_alignment_bytes:
        raise ProofError(f"dst_address {dst_address:#x} is not a multiple of {p.tma_alignment_bytes} bytes, the TMA "
                         f"destination alignment of {p.tma.tma_name}")
    if not fits_window(p, 1, 1, dst_address):
        mn, kk = p.tile_shape(1, 1)
        raise ProofError(f"dst_address {dst_address:#x}: the smallest tile ({mn}x{kk}) does not fit the 256 KiB "
                         "shared-memory window there")
    with fact_scope():
        if method == "exhaustive":
            return prove_exhaustive(p, dst_address, f)
        return _symbolic(p, dst_address, f)


def prove_tma_matches_wgmma(tma_swizzle: Any, major: Any, element_bits: Any, arch: Any = "sm90",
                            method: str = "symbolic", wgmma_swizzle: Any = None, *, wgmma_major: Any = None,
                            dst_address: int = 0, faults: Faults | None = None) -> TheoremProof | TheoremCounterexample:
    """Prove that a TMA load in ``tma_swizzle`` puts every element where wgmma reads it, or refute it.

    Pre:  a TMA mode, major (K/MN), element width (8/16/32) and arch (sm90/sm100) that pair on the hardware;
          ``dst_address`` 128-byte aligned with the smallest tile inside the 256 KiB window.
    Post: a TheoremProof (truthy) or a TheoremCounterexample (falsy); NotApplicable or ProofError otherwise.

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


def _eq(sp: Any, lhs: Any, rhs: Any) -> Any:
    """``sympy.Eq(lhs, rhs)`` for the proof text, unevaluated (the step states it; deciding it costs more)."""
    return sp.Eq(lhs, rhs, evaluate=False)
