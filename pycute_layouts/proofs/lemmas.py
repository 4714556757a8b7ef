"""The lemmas the theorem rests on: the swizzle period, the K step, the base-offset rule and the descriptor encoding.

Each lemma is a function returning a :class:`~pycute_layouts.proofs.results.TheoremProof` (truthy)
or a counterexample (falsy); :func:`swizzle_period_lemma` returns ``(holds, bit formulas)``.
``docs/proofs.md`` states them in words.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from ..arch import umma as umma_mod
from ..arch import wgmma as wgmma_mod
from ..arch.smem_desc import SmemDescriptorBase
from ..arch.swizzle_modes import SMEM_WINDOW_BYTES, SwizzleMode
from ..errors import LayoutError, ProofError
from ..limits import check_count, check_type, fmt
from .bitvec import BitVector, Counterexample, address_bits, apply_map, equivalent
from .model import (
    PTX_PATTERN_BOUNDARY_BYTES,
    PTX_SWIZZLE_XOR,
    Faults,
    NotApplicable,
    canonical_offsets,
    fact_scope,
    instruction_descriptors,
    pairing,
    parse_arch,
    ptx_encode,
    ptx_fields,
    ptx_swizzle,
)
from .results import LemmaCounterexample, LibraryMismatch, TheoremCounterexample, TheoremProof, is_pow2, sympy_module

__all__ = [
    "swizzle_period_lemma",
    "first_period_violation",
    "descriptor_swizzle",
    "prove_k_step",
    "prove_base_offset_rule",
    "prove_descriptor_encoding",
]


def swizzle_period_lemma(fn: Any, period_bytes: int, name: str = "swizzle") -> tuple[bool, list]:
    """Whether ``fn(x + n*P) == fn(x) + n*P`` for every byte address of the 256 KiB window; and bit formulas.

    Pre:  ``fn`` maps int arrays of byte addresses; ``period_bytes`` a power of two up to 2**18.
    Post: (whether the period holds at every address of the window, the bit formulas on [0, 2P)).

    Decided by evaluating ``fn`` at all 2^18 addresses of the shared-memory window (vectorised):
    ``fn(a) == fn(a mod P) + (a - a mod P)``. The bit formulas (sympy, for the proof text) are those
    of ``[0, 2P)``.

    >>> from pycute_layouts import Swizzle
    >>> ok, bits = swizzle_period_lemma(Swizzle(1, 4, 3), 256)
    >>> ok, bits[4]
    (True, i4 ^ i7)
    >>> swizzle_period_lemma(Swizzle(3, 4, 3), 256)[0]
    False
    """
    if isinstance(period_bytes, bool) or not isinstance(period_bytes, (int, np.integer)) or not is_pow2(int(period_bytes)) \
            or period_bytes > SMEM_WINDOW_BYTES:
        raise ProofError(f"swizzle_period_lemma: the period must be a power of two up to 2**18, got {fmt(period_bytes)}")
    P = int(period_bytes)
    return first_period_violation(fn, P) is None, address_bits(fn, (2 * P,), P.bit_length())


def first_period_violation(fn: Any, P: int) -> int | None:
    """The first address of the window where ``fn(a) != fn(a mod P) + a - a mod P``, or None.

    Pre:  ``fn`` callable on int64 address arrays; ``P`` in [1, 256 KiB] (ProofError otherwise).
    Post: None when ``fn`` is ``P``-periodic (up to the shift) on the whole 256 KiB window, else the least such address.

    >>> from pycute_layouts import Swizzle
    >>> first_period_violation(Swizzle(1, 4, 3), 256), first_period_violation(Swizzle(3, 4, 3), 256)
    (None, 256)
    """
    if not callable(fn):
        raise ProofError(f"first_period_violation: fn must be callable, got {fmt(fn)}")
    check_count("first_period_violation", "P", P, 1, SMEM_WINDOW_BYTES, ProofError)

    def differs(a: np.ndarray) -> np.ndarray:
        lo = a % P
        try:
            return np.asarray(fn(a), dtype=np.int64) != np.asarray(fn(lo), dtype=np.int64) + (a - lo)
        except (TypeError, ValueError, LayoutError) as e:
            raise ProofError(f"swizzle_period_lemma: {_name_of(fn)} cannot be evaluated on address arrays: {e}") from None

    return _first_in_window(differs)


#: Addresses evaluated per numpy call by :func:`_first_in_window` (arrays that stay in the CPU cache).
_WINDOW_CHUNK = 1 << 14


def _first_in_window(differs: Any) -> int | None:
    """The first byte address of the 256 KiB window where ``differs`` flags a disagreement, or None.

    ``differs(a)`` gets an int64 array of consecutive addresses and returns a boolean array of the
    same shape; the window is evaluated chunk by chunk (``_WINDOW_CHUNK`` addresses at a time, in
    order), so every address is checked and the first flagged one is returned.

    >>> _first_in_window(lambda a: a == 70000), _first_in_window(lambda a: a < 0)
    (70000, None)
    """
    for start in range(0, SMEM_WINDOW_BYTES, _WINDOW_CHUNK):
        bad = np.flatnonzero(differs(np.arange(start, start + _WINDOW_CHUNK, dtype=np.int64)))
        if len(bad):
            return start + int(bad[0])
    return None


def _name_of(fn: Any) -> str:
    return getattr(fn, "__name__", None) or str(fn)


#: (descriptor class, its swizzled_address, mode, base offset) -> first disagreeing address or None.
_SWIZZLE_CHECKED: dict = {}


def descriptor_swizzle(d: Any) -> Any:
    """The PTX model of what the descriptor reads, as integer operations that also run on bit vectors.

    ``a ^ ((((a >> 7) - base_offset) mod 2**B) << M)`` with ``(B, M)`` of the descriptor's layout
    type from PTX's pattern tables (:func:`~pycute_layouts.proofs.model.ptx_swizzle`, written out in
    ``proofs.model``, not the library's facts table); compared with the library's
    ``swizzled_address`` at every address of the 256 KiB window (a disagreement raises
    LibraryMismatch). The proofs use this model, so the library is checked against it, never
    against itself.

    Pre:  ``d`` an SmemDescriptorBase (ProofError otherwise).
    Post: ``f(a) == d.swizzled_address(a)`` for every address ``a`` of the window (LibraryMismatch otherwise).

    >>> from pycute_layouts.arch.wgmma import SmemDescriptor
    >>> f = descriptor_swizzle(SmemDescriptor(0, 16, 1024, "128B"))
    >>> f(0x80), hex(f(0x3f0))  # 128B: a ^ (((a >> 7) mod 8) << 4)
    (144, '0x380')
    """
    check_type("descriptor_swizzle", "d", d, SmemDescriptorBase, ProofError)
    name = d.swizzle.short_name
    if name not in PTX_SWIZZLE_XOR:
        raise LibraryMismatch(f"descriptor swizzle: {type(d).__name__} has layout type {d.swizzle}, which no PTX "
                              "descriptor layout type names")
    bo = d.base_offset

    def desc_swizzle(a: Any) -> Any:
        return ptx_swizzle(name, a, bo)

    key = (type(d), type(d).swizzled_address, d.swizzle, bo)
    x = _SWIZZLE_CHECKED.get(key, -1)
    if x == -1:
        x = _SWIZZLE_CHECKED[key] = _first_in_window(
            lambda xs: desc_swizzle(xs) != np.asarray(d.swizzled_address(xs), dtype=np.int64))
    if x is not None:
        raise LibraryMismatch(f"descriptor swizzle: {type(d).__name__}.swizzled_address({x:#x}) = "
                               f"{int(d.swizzled_address(x)):#x}, the PTX formula for {d.swizzle} base offset "
                               f"{d.base_offset} gives {desc_swizzle(x):#x}")
    desc_swizzle.__name__ = f"desc_swizzle[{d.swizzle}, base offset {d.base_offset}]"
    desc_swizzle.model_key = ("ptx_swizzle", name, bo)  # what the function is, for facts derived once
    return desc_swizzle


def prove_k_step(swizzle: Any, element_bits: Any, arch: Any = "sm90", dst_address: int = 0,
                 advance_bytes: int = 32) -> TheoremProof | TheoremCounterexample:
    """The K-step lemma: advancing the start address by ``advance_bytes`` inside a swizzled row reads the next K slice.

    Pre:  a K-major swizzled pairing whose swizzle row holds more than 32 bytes; ``advance_bytes`` a multiple of 16.
    Post: a TheoremProof, or a TheoremCounterexample at the first element read from the wrong address.

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
        raise ProofError(f"advance_bytes must be a multiple of 16, got {fmt(advance_bytes)}")
    d0 = instruction_descriptors(p, 2, 1, dst_address, Faults())[0]
    spa = p.mma_mode.width_bytes // 32
    ki = p.k_instr_elems
    eb = p.element_bytes
    span_b = p.mma_mode.width_bytes
    tmap = p.tma_info.byte_map
    descs = [p.descriptor_class.decode(d0.advance(advance_bytes * s).encode()) for s in range(spa)]
    offs = canonical_offsets(p, d0, 16)
    a_t = np.empty((16, spa * ki), dtype=np.int64)
    a_w = np.empty_like(a_t)
    r, c = np.meshgrid(np.arange(16), np.arange(ki), indexing="ij")
    for s, d in enumerate(descs):
        a_w[:, s * ki:(s + 1) * ki] = d.swizzled_address(d.start_address + offs * eb)
        a_t[:, s * ki:(s + 1) * ki] = tmap(dst_address + r * span_b + (s * ki + c) * eb)
    # the same identity on bit vectors over one atom (8 rows, spa slices, K_instr columns)
    lo = dst_address
    try:
        dsw = descriptor_swizzle(descs[0])
    except LibraryMismatch as e:
        return LemmaCounterexample(f"K-step lemma ({p.mma_mode.short_name}, {p.element_bits}-bit, {p.arch})", e.reason)

    def placed(r_: Any, s_: Any, c_: Any) -> Any:
        a = lo + r_ * span_b + s_ * 32 + c_ * eb
        return apply_map(tmap, a) if isinstance(a, BitVector) else tmap(a)

    bv = equivalent(placed, lambda r_, s_, c_: dsw(lo + advance_bytes * s_ + r_ * span_b + c_ * eb), (8, spa, ki))
    bad = np.argwhere(a_t != a_w)
    if len(bad) or not bv:
        mn, kk = (int(x) for x in bad[0]) if len(bad) else (0, 0)
        return TheoremCounterexample(p, (mn, kk), int(a_t[mn, kk]), int(a_w[mn, kk]), 2, 1, dst_address,
                                     descs[kk // ki], "exhaustive + bit vectors",
                                     f"instruction {kk // ki} reads D.advance({advance_bytes * (kk // ki)})", Faults())
    sp = sympy_module()
    steps = [
        (f"The library's descriptor of instruction 0: {d0.encode():#018x}; instruction s uses D.advance({advance_bytes}*s) "
         f"(encoded and decoded), s = 0..{spa - 1}.", [_eq(sp, sp.Symbol(f"start_{s}"), d.start_address)
                                                        for s, d in enumerate(descs)]),
        lambda: (f"Bit vectors over one atom (row r < 8, slice s < {spa}, column c < {ki}): "
                 f"{tmap}(dst + {span_b}*r + 32*s + {eb}*c) == desc_swizzle(dst + {advance_bytes}*s + canonical(r, c)) "
                 "for every address bit:", [st[1] for st in bv.steps[3:]]),
        (f"Every element of a 16 x {spa * ki} K-major tile compared (vectorised): equal.", None),
    ]
    claim = (f"K-step lemma ({p.mma_mode.short_name}, {p.element_bits}-bit, {p.arch}): advancing the start address by "
             f"{advance_bytes} bytes per instruction inside a {span_b}-byte swizzled row reads the next K slice "
             "of the same TMA tile")
    return TheoremProof(p, "symbolic", claim, steps)


def _call_rule(rule: Any, mode: SwizzleMode, start: int) -> Any:
    try:
        return rule(mode, start)
    except LayoutError:
        raise
    except Exception as e:
        raise ProofError(f"base_offset_fn({mode.short_name}, {start}) raised {type(e).__name__}: {e}"[:300]) from e


def _base_offset_descriptors(mode: Any, ar: str, base_offset_fn: Any, what: str) -> list | LemmaCounterexample:
    """The library's descriptors of data swizzled from each pattern start S = 128*n (n < 8), one swizzle atom.

    Pre:  mode is a PTX descriptor layout type of arch ``ar``. Post: 8 descriptors (the operand K-major where
          the mode has one, else MN-major, 16-bit elements; ``base_offset_fn`` replacing the base offset), or
          the counterexample naming the start where the library refused.
    """
    with fact_scope():
        p = pairing(mode, "MN" if mode in (SwizzleMode.B128_BASE32B,) else "K", 16, ar)
        descs = []
        for n in range(8):
            try:
                d = instruction_descriptors(p, 1, 1, 128 * n, Faults(swizzle_anchor="tile"), only_first=True)[0]
            except ProofError as e:
                return LemmaCounterexample(what, f"pattern start S = {128 * n}: {e}")
            if base_offset_fn is not None:
                try:
                    d = dataclasses.replace(d, base_offset=_call_rule(base_offset_fn, mode, 128 * n))
                except LayoutError as e:
                    return LemmaCounterexample(what, f"pattern start S = {128 * n}: {e}")
            descs.append(d)
    return descs


def _base_offset_reads(mode: Any, descs: list, what: str) -> list | Any:
    """Per pattern start S: PTX's read of the descriptor at S + x equals S + pattern(x) for every byte x of a period.

    Pre:  ``descs[n]`` the descriptor for S = 128*n. Post: ``[(S, base_offset, Proof)]`` for every S, or the first
          counterexample (the descriptor's start or layout type, the library's swizzled_address against the PTX
          formula on the whole window, or the bit-vector identity).
    """
    name = mode.short_name
    P = PTX_PATTERN_BOUNDARY_BYTES[name]
    proved = []
    for n, d in enumerate(descs):
        S = 128 * n
        if d.start_address != S or d.swizzle is not mode:
            return LemmaCounterexample(what, f"pattern start S = {S}: the library's descriptor reads start "
                                             f"{d.start_address:#x}, layout type {d.swizzle}")
        try:
            descriptor_swizzle(d)  # the library's swizzled_address against the PTX formula, whole window
        except LibraryMismatch as e:
            return LemmaCounterexample(what, e.reason)

        def reads(x: Any, _S: int = S, _bo: int = d.base_offset) -> Any:
            return ptx_swizzle(name, x + _S, _bo)

        def relative(x: Any, _S: int = S) -> Any:
            return ptx_swizzle(name, x) + _S

        reads.__name__ = f"PTX read with base offset {d.base_offset} at S + x (S = {S})"
        relative.__name__ = "S + PTX pattern(x)"
        r = equivalent(reads, relative, (P,))
        if not r:
            return r
        proved.append((S, d.base_offset, r))
    return proved


def prove_base_offset_rule(swizzle: Any, arch: Any = "sm90", base_offset_fn: Any = None) -> TheoremProof | Counterexample:
    """The base-offset rule: data swizzled relative to a pattern start ``S`` is read with PTX's base offset of ``S``.

    Pre:  a swizzled mode the arch's descriptor has; ``base_offset_fn(mode, S)`` optional.
    Post: a TheoremProof over every pattern start and byte of one period, or the first counterexample.

    For every pattern start ``S = 128*n`` (``n`` < 8): the library derives the descriptor of an
    operand at ``S`` whose swizzle is anchored at ``S`` (``make_smem_desc(..., start_address=S,
    swizzle_anchor="tile")``), encodes it and the hardware's reading of the bits is taken
    (``ptx_decode``); through PTX's address formula (:func:`~pycute_layouts.proofs.model.ptx_swizzle`,
    independent of the library) that descriptor must read ``S + x`` at ``S + pattern(x)`` for every
    byte ``x`` of one period, where ``pattern`` is PTX's pattern table placed at ``S`` -- a bit-vector
    identity over ``x`` for each ``S``. The library's ``swizzled_address`` is compared with the same
    formula on the whole window. TMA data (swizzled by absolute address) is the case ``S = 0``.
    ``base_offset_fn(mode, S)`` replaces the base offset the library derived (fault injection).

    >>> bool(prove_base_offset_rule("128B"))
    True
    >>> bool(prove_base_offset_rule("64B", base_offset_fn=lambda mode, s: 0))
    False
    """
    ar = parse_arch(arch)
    try:
        mode = SwizzleMode.parse(swizzle)
    except LayoutError as e:
        raise ProofError(f"unknown swizzle mode {fmt(swizzle)}: {e}") from None
    if not mode.is_swizzled:
        raise NotApplicable("the unswizzled mode has no pattern and no base offset")
    if ar == "sm90" and not mode.on_sm90:
        raise NotApplicable(f"sm90 wgmma has no {mode.short_name} layout type")
    if base_offset_fn is not None and not callable(base_offset_fn):
        raise ProofError(f"base_offset_fn must be None or a callable (mode, pattern_start) -> base offset, got "
                         f"{fmt(base_offset_fn)}"[:200])
    what = f"base-offset rule ({mode.short_name}, {ar})"
    name = mode.short_name
    if name not in PTX_SWIZZLE_XOR:
        return LemmaCounterexample(what, f"{mode} is no PTX descriptor layout type")
    descs = _base_offset_descriptors(mode, ar, base_offset_fn, what)
    if isinstance(descs, LemmaCounterexample):
        return descs
    P = PTX_PATTERN_BOUNDARY_BYTES[name]
    proved = _base_offset_reads(mode, descs, what)
    if not isinstance(proved, list):
        return proved

    def lines() -> list:  # the bit formulas, written when the proof is read
        sp = sympy_module()
        return [_eq(sp, sp.Symbol(f"S={S}, base_offset={bo}"), sp.Tuple(*[st[1] for st in r.steps[3:]]))
                for S, bo, r in proved]

    source = "base_offset_fn" if base_offset_fn is not None else "make_smem_desc(swizzle_anchor='tile')"
    steps = [(f"Pattern starts S = 128*n, n = 0..7 -> base offsets {[d.base_offset for d in descs]} ({source}, encoded "
              f"and read back by the PTX bit positions; PTX 5.5.7: (S / 128) % {P // 128}, 0 on the {P}-byte "
              "boundary).", None),
             lambda: (f"For each S, bit vectors over x < {P}: every address bit of PTX's read at S + x equals that of "
                      f"S + pattern(x) (pattern: PTX's {name} table, XOR bits {PTX_SWIZZLE_XOR[name]}); the library's "
                      "swizzled_address equals PTX's formula on the 256 KiB window:", lines())]
    claim = (f"{what}: for every pattern start S = 128*n and every byte x of one {P}-byte period, the descriptor "
             f"the library derives for data swizzled from S reads S + x at S + pattern(x)")
    return TheoremProof(None, "symbolic", claim, steps, domain=(P, 8))


def _bijection(i: np.ndarray, salt: int) -> np.ndarray:
    """A bijection of [0, 2^14): multiply by an odd number, add, mask (so every field value occurs once)."""
    return (i * (2 * salt + 1) + 977 * salt) & 0x3FFF


def prove_descriptor_encoding(arch: Any = "sm90") -> TheoremProof | LemmaCounterexample:
    """Every field value of the descriptor encodes at the literal PTX bit positions and decodes back.

    Pre:  ``arch`` is sm90 or sm100.
    Post: a TheoremProof when every field value encodes at the PTX bit positions and decodes back, else a LemmaCounterexample.

    2^14 descriptors of the library's class (``SmemDescriptor`` / ``UmmaSmemDescriptor``) are
    built so that the start address, LBO and SBO fields each take every one of their 2^14 values
    (three different bijections of the index), with every layout type and base offset (and, on
    sm100, LBO mode) cycling through. Each is encoded by the library; the values are compared, as
    one vectorised identity, with :func:`~pycute_layouts.proofs.model.ptx_encode` -- the fields
    shifted to the bit positions written literally in ``proofs_model`` (wgmma: layout type in bits
    62-63 with 128B=1, 64B=2, 32B=3, interleave 0; tcgen05: bits 61-63 with 128B_base32B=1, 128B=2,
    64B=4, 32B=6, none 0, and the fixed 0b001 in bits 46-48) -- and decoded by the library back to
    the same descriptor.

    >>> bool(prove_descriptor_encoding("sm90")), bool(prove_descriptor_encoding("sm100"))
    (True, True)
    """
    ar = parse_arch(arch)
    cls = wgmma_mod.SmemDescriptor if ar == "sm90" else umma_mod.UmmaSmemDescriptor
    _fields, types = ptx_fields(ar)
    modes = [SwizzleMode.parse(name) for name in types]
    n = 1 << 14
    i = np.arange(n, dtype=np.int64)
    start, lbo, sbo = i, _bijection(i, 2), _bijection(i ^ 0x2AAA, 5)
    mode_ix = i % len(modes)
    swizzled = np.array([m.is_swizzled for m in modes])[mode_ix]
    bo = np.where(swizzled, (i // len(modes)) % 8, 0)
    lbo_mode = np.zeros(n, dtype=np.int64)
    if ar == "sm100":  # bit 52 needs the 128B mode and base offset 0
        b128 = np.array([m is SwizzleMode.B128 for m in modes])[mode_ix]
        lbo_mode = np.where(b128 & (bo == 0) & ((i >> 6) & 1 == 1), 1, 0)
    codes = np.array([types[m.short_name] for m in modes])[mode_ix]
    want = ptx_encode(ar, start, lbo, sbo, bo, codes, lbo_mode)
    what = f"descriptor encoding ({ar}, {cls.__name__})"
    # the fields as Python ints (indexing numpy arrays element by element costs more than the descriptor)
    f_start, f_lbo, f_sbo, f_bo = (start << 4).tolist(), (lbo << 4).tolist(), (sbo << 4).tolist(), bo.tolist()
    f_mode, f_lbo_mode = [modes[x] for x in mode_ix.tolist()], lbo_mode.tolist()
    got_list = [0] * n
    sm100 = ar == "sm100"
    for t, (fs, fl, fb, fm, fo, flm) in enumerate(zip(f_start, f_lbo, f_sbo, f_mode, f_bo, f_lbo_mode)):
        try:
            d = cls(fs, fl, fb, fm, fo, lbo_mode=flm) if sm100 else cls(fs, fl, fb, fm, fo)
            v = d.encode()
            if type(v) is not int and (isinstance(v, bool) or not isinstance(v, (int, np.integer))) \
                    or not 0 <= v < 1 << 64:
                raise ValueError(f"encode() returned {fmt(v)}, not a 64-bit value")
            got_list[t] = v if type(v) is int else int(v)
            back = cls.decode(v)
        except (LayoutError, OverflowError, TypeError, ValueError) as e:
            return LemmaCounterexample(what, f"fields start {int(start[t]) << 4:#x}, LBO {int(lbo[t]) << 4}, SBO "
                                             f"{int(sbo[t]) << 4}, {modes[mode_ix[t]]}, base offset {int(bo[t])}: {e}")
        if back != d:
            return LemmaCounterexample(what, f"decode(encode(D)) != D for D = {fmt(d)}: decoded {fmt(back)}", v)
    got = np.array(got_list, dtype=np.uint64)
    bad = np.nonzero(got != want)[0]
    if len(bad):
        t = int(bad[0])
        return LemmaCounterexample(
            what, f"start {int(start[t]) << 4:#x}, LBO {int(lbo[t]) << 4} B, SBO {int(sbo[t]) << 4} B, "
                  f"{modes[mode_ix[t]]}, base offset {int(bo[t])}: encode() = {int(got[t]):#018x}, the PTX bit "
                  f"positions give {int(want[t]):#018x} (differing bits {int(got[t]) ^ int(want[t]):#018x})", int(got[t]))
    steps = [(f"{n} descriptors: start, LBO and SBO fields each take all 2^14 values; layout types "
              f"{', '.join(f'{m}={types[m.short_name]}' for m in modes)}, base offsets 0..7 (swizzled modes)"
              + (", LBO mode 0/1 (128B)" if ar == "sm100" else "") + " cycle through.", None),
             ("encode() equals the literal PTX bit layout for all of them (one vectorised comparison), and "
              "decode(encode(D)) == D for each.", None)]
    claim = (f"{what}: every start / LBO / SBO field value (the whole 256 KiB window in 16-byte units), every layout "
             "type and base offset encodes at the PTX bit positions and decodes back")
    return TheoremProof(None, "exhaustive", claim, steps, domain=(n,))


def _eq(sp: Any, lhs: Any, rhs: Any) -> Any:
    """``sympy.Eq(lhs, rhs)`` for the proof text, unevaluated (the step states it; deciding it costs more)."""
    return sp.Eq(lhs, rhs, evaluate=False)
