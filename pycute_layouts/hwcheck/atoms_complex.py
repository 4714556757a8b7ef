"""CuTe's complex f64 MMA atoms and its dp2a atom, run on a Hopper GPU as themselves.

* **Complex atoms** (``SM80_8x8x4_C64C64C64C64_TN``, ``SM80_8x8x4_GC64C64C64GC64_TN``,
  ``SM90_16x8x{4,8,16}_C64C64C64C64_TN``). They are not one instruction: CuTe's ``fma`` (cute/arch/mma_sm80.hpp,
  mma_sm90.hpp) issues the f64 ``mma.sync`` of the same shape on the real and imaginary parts, with the fragments of
  the f64 atom. The kernel does the same, in CuTe's order: C64 four times, ``re = ar br + cr``, ``im = ai br + ci``,
  ``re = (-ai) bi + re``, ``im = ar bi + im``; GC64 (CuTe's Gauss form, the accumulator a ``GaussComplex`` of three
  doubles) three times, ``t0 = ar br + c.t0``, ``t1 = ai bi + c.t1``, ``t2 = (ar + ai)(br + bi) + c.t2``, whose complex
  value is ``(t0 - t1, t2 - t0 - t1)``. Lane ``t`` loads value ``v`` of A (B, C) from element ``layout_a(t, v)``
  (``layout_b``, ``layout_c``) of small integer complex matrices (exact in f64); its D value ``v`` must equal the
  host's complex GEMM ``D = A B^T + C`` at ``layout_c(t, v)`` (for GC64, each of the three doubles, and the complex
  value they make). A B^T is injective over (m, n) (:func:`complex_operands` makes sure), so a wrong C layout cannot
  hide behind the C values that the same layout loaded.
* **dp2a** (``SM61_DP2A``). CuTe's atom writes ``dp2a.s32.s32 d, a, b, c`` (no ``.lo``/``.hi``), which ptxas refuses;
  its traits say A and B are two ``int16_t`` values each. The PTX instruction reads A as two 16-bit values and B as four
  bytes, of which ``.lo`` takes bytes 0, 1 and ``.hi`` bytes 2, 3: ``d = c + a.h0 b.byte(2s) + a.h1 b.byte(2s+1)``
  (s = 0 for .lo, 1 for .hi). Both modes are run: A's value ``v`` (element ``layout_a(0, v)``, value ``k + 1`` for
  element k) sits at bits ``16 v``; lane ``t``'s B is packed from ``layout_b`` as CuTe's two 16-bit values chosen so
  that byte ``t % 4`` is 1 and the others 0. The check is the PTX rule (:func:`dp2a_ptx`); what CuTe's traits claim
  (:func:`dp2a_traits`, ``sum_k A[k] B[k]`` over 16-bit values) is reported beside it: it holds for no mode.
"""

from __future__ import annotations

import functools
import hashlib
import struct
from typing import Any

from ..arch import atoms
from ..errors import HwCheckError
from ..limits import check_count, check_type, fmt

__all__ = ["COMPLEX_CASES", "DP2A_MODES", "REGS_RUN_SHA", "complex_operands", "complex_reference", "complex_regs",
           "complex_kernel", "check_complex", "complex_out_words", "dp2a_regs", "dp2a_kernel", "dp2a_ptx", "dp2a_traits",
           "check_dp2a", "is_gauss"]

#: every complex MMA atom CuTe has (C64 planar, GC64 Gauss, SM90 C64); CuTe 4.2 defines no complex-float MMA atom.
COMPLEX_CASES = ("SM80_8x8x4_C64C64C64C64_TN", "SM80_8x8x4_GC64C64C64GC64_TN", "SM90_16x8x4_C64C64C64C64_TN",
                 "SM90_16x8x8_C64C64C64C64_TN", "SM90_16x8x16_C64C64C64C64_TN")
#: the dp2a modes run for SM61_DP2A (CuTe's string has neither)
DP2A_MODES = ("lo", "hi")
#: sha256 (first 16 hex digits) of ``str(complex_regs(atom))`` (``str(dp2a_regs(atom))`` for SM61_DP2A) as the H100 run
#: of 2026-11-26 used them. The kernels take the operand registers that the library's layout_a / layout_b / layout_c
#: placed at emit time, so a later change of those layouts shows here: the GPU's answer no longer speaks for them.
REGS_RUN_SHA = {"SM80_8x8x4_C64C64C64C64_TN": "0bf88a215999463a", "SM80_8x8x4_GC64C64C64GC64_TN": "b4b5f7d0a0f45296",
                "SM90_16x8x4_C64C64C64C64_TN": "95aceb96df174975", "SM90_16x8x8_C64C64C64C64_TN": "69545ac2d9cfb752",
                "SM90_16x8x16_C64C64C64C64_TN": "ef351a8037ee9777", "SM61_DP2A": "d3c7d704a428b6fe"}


def _regs_changed(name: str, atom: Any, regs: list[int]) -> list[str]:
    """[message] when the registers the current layouts place differ from those the GPU ran with, else []."""
    sha = hashlib.sha256(str(regs).encode()).hexdigest()[:16]
    if sha == REGS_RUN_SHA.get(atom.name):
        return []
    return [f"{name}: the operand registers that {atom.name}'s layouts place today ({sha}) differ from those the GPU ran "
            f"with ({REGS_RUN_SHA.get(atom.name)}): the observation no longer confirms layout_a / layout_b / layout_c"]


def is_gauss(atom: Any) -> bool:
    """Whether an MMA atom accumulates in CuTe's GaussComplex (three doubles per value).

    >>> is_gauss(atoms.mma_atom("SM80_8x8x4_GC64C64C64GC64_TN")), is_gauss(atoms.mma_atom("SM80_8x8x4_C64C64C64C64_TN"))
    (True, False)
    """
    check_type("is_gauss", "atom", atom, atoms.MmaAtom, HwCheckError)
    return "GC64" in atom.name


def _complex_atom(where: str, atom: Any) -> None:
    check_type(where, "atom", atom, atoms.MmaAtom, HwCheckError)
    if atom.name not in COMPLEX_CASES:
        raise HwCheckError(f"{where}: atom must be one of CuTe's complex atoms {', '.join(COMPLEX_CASES)}, got {fmt(atom.name)}")


def _mode(where: str, mode: Any) -> str:
    if not isinstance(mode, str) or mode not in DP2A_MODES:
        raise HwCheckError(f"{where}: mode must be one of {', '.join(DP2A_MODES)}, got {fmt(mode)}")
    return mode


def _out_words(where: str, name: Any, out: Any, n: int) -> list[int]:
    """``out`` checked: a list or tuple of ``n`` ints (a result's raw 32-bit words); ``name`` a string."""
    if not isinstance(name, str):
        raise HwCheckError(f"{where}: the case name must be a string, got {fmt(name)}")
    if not isinstance(out, (list, tuple)) or len(out) != n:
        raise HwCheckError(f"{where}: {name} needs {n} output words, got "
                           f"{len(out) if isinstance(out, (list, tuple)) else type(out).__name__}")
    if not all(isinstance(w, int) and not isinstance(w, bool) for w in out):
        raise HwCheckError(f"{where}: {name}'s output words must be ints")
    return [w & 0xFFFFFFFF for w in out]


def _small(salt: int, *key: int) -> int:
    """A deterministic integer in [-4, 4] from a key (a 32-bit multiplicative hash)."""
    h = 0x811C9DC5 ^ salt
    for k in key:
        h = ((h ^ (k + 7)) * 0x01000193) & 0xFFFFFFFF
        h ^= h >> 13
    return h % 9 - 4


def complex_operands(atom: Any) -> tuple[list[list[tuple[int, int]]], list[list[tuple[int, int]]], list[list[tuple[int, ...]]]]:
    """A (M x K), B (N x K) and C (M x N) of a complex atom's case: small integers, (re, im) per element.

    C's elements are (re, im), or the three doubles (t0, t1, t2) of a GaussComplex for GC64. The first salt for which
    the complex product ``A B^T`` takes a different value at every (m, n) is used.

    Pre: one of :data:`COMPLEX_CASES`. Post: the three matrices; HwCheckError for another atom.

    >>> A, B, C = complex_operands(atoms.mma_atom("SM80_8x8x4_C64C64C64C64_TN"))
    >>> len(A), len(A[0]), len(B), len(C[0]), len(C[0][0]), all(-4 <= x <= 4 for r in A for z in r for x in z)
    (8, 4, 8, 8, 2, True)
    """
    _complex_atom("complex_operands", atom)
    return _operands(atom.shape_mnk, is_gauss(atom))


@functools.lru_cache(maxsize=16)
def _operands(shape_mnk: tuple[int, int, int], gauss: bool) -> tuple[Any, Any, Any]:
    m_, n_, k_ = shape_mnk
    parts = 3 if gauss else 2
    for salt in range(64):
        a = [[(_small(salt, 0, m, k, 0), _small(salt, 0, m, k, 1)) for k in range(k_)] for m in range(m_)]
        b = [[(_small(salt, 1, n, k, 0), _small(salt, 1, n, k, 1)) for k in range(k_)] for n in range(n_)]
        ab = {(m, n): _cdot(a[m], b[n]) for m in range(m_) for n in range(n_)}
        if len(set(ab.values())) == m_ * n_:
            c = [[tuple(_small(salt, 2, m, n, p) for p in range(parts)) for n in range(n_)] for m in range(m_)]
            return a, b, c
    raise HwCheckError(f"complex_operands: no salt below 64 makes A B^T injective for the {m_}x{n_}x{k_} shape")


def _cdot(x: list[tuple[int, int]], y: list[tuple[int, int]]) -> tuple[int, int]:
    return (sum(a * c - b * d for (a, b), (c, d) in zip(x, y)), sum(a * d + b * c for (a, b), (c, d) in zip(x, y)))


def complex_reference(atom: Any) -> list[list[tuple[int, ...]]]:
    """The host's answer D (M x N) of a complex atom's case: ``A B^T + C`` as (re, im); GC64 the Gauss triple.

    GC64: ``(c.t0 + sum ar br, c.t1 + sum ai bi, c.t2 + sum (ar + ai)(br + bi))``, whose complex value
    ``(t0 - t1, t2 - t0 - t1)`` is ``A B^T + C`` with ``C = (c.t0 - c.t1, c.t2 - c.t0 - c.t1)``.

    >>> atom = atoms.mma_atom("SM80_8x8x4_GC64C64C64GC64_TN")
    >>> (A, B, C), D = complex_operands(atom), complex_reference(atom)
    >>> t0, t1, t2 = D[3][5]; c0, c1, c2 = C[3][5]
    >>> (t0 - t1, t2 - t0 - t1) == tuple(p + q for p, q in zip(_cdot(A[3], B[5]), (c0 - c1, c2 - c0 - c1)))
    True
    """
    a, b, c = complex_operands(atom)
    m_, n_, _ = atom.shape_mnk
    out = []
    for m in range(m_):
        row = []
        for n in range(n_):
            if is_gauss(atom):
                t0 = c[m][n][0] + sum(x[0] * y[0] for x, y in zip(a[m], b[n]))
                t1 = c[m][n][1] + sum(x[1] * y[1] for x, y in zip(a[m], b[n]))
                t2 = c[m][n][2] + sum((x[0] + x[1]) * (y[0] + y[1]) for x, y in zip(a[m], b[n]))
                row.append((t0, t1, t2))
            else:
                re, im = _cdot(a[m], b[n])
                row.append((re + c[m][n][0], im + c[m][n][1]))
        out.append(row)
    return out


def _words(x: float) -> list[int]:
    """The two 32-bit words (low first) of a double."""
    q = struct.unpack("<Q", struct.pack("<d", float(x)))[0]
    return [q & 0xFFFFFFFF, q >> 32]


def _double(lo: int, hi: int) -> float:
    return struct.unpack("<d", struct.pack("<Q", (lo & 0xFFFFFFFF) | (hi & 0xFFFFFFFF) << 32))[0]


def _counts(atom: Any) -> tuple[int, int, int, int]:
    """(A values, B values, C values, doubles per C value) of one lane."""
    return (atom.values_per_thread("A"), atom.values_per_thread("B"), atom.values_per_thread("C"), 3 if is_gauss(atom) else 2)


def complex_out_words(atom: Any) -> int:
    """32-bit words of D one lane writes: 2 doubles (re, im) or 3 (GaussComplex) per C value.

    >>> [complex_out_words(atoms.mma_atom(a)) for a in ("SM80_8x8x4_GC64C64C64GC64_TN", "SM90_16x8x8_C64C64C64C64_TN")]
    [12, 16]
    """
    _complex_atom("complex_out_words", atom)
    _, _, nc, parts = _counts(atom)
    return 2 * parts * nc


def complex_regs(atom: Any) -> list[int]:
    """Per lane (32), its input words: A's values (re, im as doubles), then B's, then C's (re, im, or t0, t1, t2).

    Lane ``t``'s value ``v`` of A is element ``layout_a(t, v)`` (m + M k) of :func:`complex_operands`'s A; likewise B
    (``layout_b``, n + N k) and C (``layout_c``, m + M n).

    >>> w = complex_regs(atoms.mma_atom("SM90_16x8x16_C64C64C64C64_TN"))
    >>> len(w), len(w) // 32                  # (8 + 4 + 4) complex values of 4 words each per lane
    (2048, 64)
    """
    _complex_atom("complex_regs", atom)
    a, b, c = complex_operands(atom)
    m_, n_, _ = atom.shape_mnk
    na, nb, nc, _ = _counts(atom)
    out: list[int] = []
    for t in range(32):
        for v in range(na):
            i = _element(atom, "layout_a", t, v, m_ * len(a[0]))
            out += [w for x in a[i % m_][i // m_] for w in _words(x)]
        for v in range(nb):
            i = _element(atom, "layout_b", t, v, n_ * len(b[0]))
            out += [w for x in b[i % n_][i // n_] for w in _words(x)]
        for v in range(nc):
            i = _element(atom, "layout_c", t, v, m_ * n_)
            out += [w for x in c[i % m_][i // m_] for w in _words(x)]
    return out


def _element(atom: Any, field: str, t: int, v: int, n: int) -> int:
    """``atom.<field>(t, v)``, the element of an operand of ``n`` elements; HwCheckError where it is none of them."""
    i = int(getattr(atom, field)(t, v))
    if not 0 <= i < n:
        raise HwCheckError(f"complex_regs: {atom.name}'s {field} maps (lane {t}, value {v}) to {i}, outside the "
                           f"operand's {n} elements")
    return i


def _f64_ptx(atom: Any) -> str:
    m_, n_, k_ = atom.shape_mnk
    return f"mma.sync.aligned.m{m_}n{n_}k{k_}.row.col.f64.f64.f64.f64"


def _mma(ptx: str, d: str, a: str, b: str, c: str, na: int, nb: int, nc: int) -> str:
    """One f64 mma.sync statement: D registers ``d[0..nc)``, A ``a[0..na)``, B ``b[0..nb)``, C ``c[0..nc)`` (arrays)."""
    groups, o = [], 0
    for n in (nc, na, nb, nc):
        groups.append("{" + ",".join(f"%{o + j}" for j in range(n)) + "}")
        o += n
    outs = ", ".join(f'"=d"({d}[{j}])' for j in range(nc))
    ins = ", ".join([f'"d"({a}[{j}])' for j in range(na)] + [f'"d"({b}[{j}])' for j in range(nb)]
                    + [f'"d"({c}[{j}])' for j in range(nc)])
    return f'  asm volatile("{ptx} {", ".join(groups)};" : {outs} : {ins});'


def _complex_load(atom: Any) -> str:
    """CUDA statements that read lane t's A, B (re, im) and C (re, im or t0, t1, t2) doubles from ``regs``."""
    # Pre:  atom is a complex MMA atom (checked by the caller).
    # Post: declares ar, ai, br, bi and c[parts][nc] for the body.
    na, nb, nc, parts = _counts(atom)
    per = 4 * (na + nb) + 2 * parts * nc
    return f"""  const uint32_t* w = regs + t * {per};
  double ar[{na}], ai[{na}], br[{nb}], bi[{nb}];
#pragma unroll
  for (int j = 0; j < {na}; ++j) {{
    ar[j] = __hiloint2double(w[4 * j + 1], w[4 * j]);
    ai[j] = __hiloint2double(w[4 * j + 3], w[4 * j + 2]);
  }}
#pragma unroll
  for (int j = 0; j < {nb}; ++j) {{
    br[j] = __hiloint2double(w[{4 * na} + 4 * j + 1], w[{4 * na} + 4 * j]);
    bi[j] = __hiloint2double(w[{4 * na} + 4 * j + 3], w[{4 * na} + 4 * j + 2]);
  }}
  double c[{parts}][{nc}], d[{parts}][{nc}];
#pragma unroll
  for (int j = 0; j < {nc}; ++j)
#pragma unroll
    for (int p = 0; p < {parts}; ++p)
      c[p][j] = __hiloint2double(w[{4 * (na + nb)} + {2 * parts} * j + 2 * p + 1], w[{4 * (na + nb)} + {2 * parts} * j + 2 * p]);
"""


def _complex_body(atom: Any) -> str:
    """CUDA statements of CuTe's complex fma: four f64 mma.sync (C64) or the three of the Gauss form (GC64), into d."""
    # Pre:  the statements of _complex_load precede these.
    # Post: d[parts][nc] holds lane t's D values.
    na, nb, nc, parts = _counts(atom)
    ptx = _f64_ptx(atom)
    if parts == 2:
        return f"""  // CuTe's SM80/SM90 C64 fma: four f64 mma.sync on the real and imaginary parts, in its order
  double nai[{na}];
#pragma unroll
  for (int j = 0; j < {na}; ++j) nai[j] = -ai[j];
  // d.real() =  a.real() * b.real() + c.real()
{_mma(ptx, "d[0]", "ar", "br", "c[0]", na, nb, nc)}
  // d.imag() =  a.imag() * b.real() + c.imag()
{_mma(ptx, "d[1]", "ai", "br", "c[1]", na, nb, nc)}
  // d.real() = -a.imag() * b.imag() + d.real()
{_mma(ptx, "d[0]", "nai", "bi", "d[0]", na, nb, nc)}
  // d.imag() =  a.real() * b.imag() + d.imag()
{_mma(ptx, "d[1]", "ar", "bi", "d[1]", na, nb, nc)}
"""
    return f"""  // CuTe's SM80_8x8x4_GC64C64C64GC64_TN fma: three f64 mma.sync into the GaussComplex (t0, t1, t2)
  double as[{na}], bs[{nb}];
#pragma unroll
  for (int j = 0; j < {na}; ++j) as[j] = ar[j] + ai[j];
#pragma unroll
  for (int j = 0; j < {nb}; ++j) bs[j] = br[j] + bi[j];
  // t0 = a.real() * b.real() + c.t0
{_mma(ptx, "d[0]", "ar", "br", "c[0]", na, nb, nc)}
  // t1 = a.imag() * b.imag() + c.t1
{_mma(ptx, "d[1]", "ai", "bi", "c[1]", na, nb, nc)}
  // t2 = (a.real() + a.imag()) * (b.real() + b.imag()) + c.t2
{_mma(ptx, "d[2]", "as", "bs", "c[2]", na, nb, nc)}
"""


def complex_kernel(i: int, name: str, atom: Any) -> str:
    """The CUDA kernel of a complex atom's case: CuTe's f64 mma.sync sequence on registers loaded by the layouts.

    >>> src = complex_kernel(0, "x", atoms.mma_atom("SM80_8x8x4_C64C64C64C64_TN"))
    >>> src.count('asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64'), "nai[j] = -ai[j]" in src
    (4, True)
    """
    _complex_atom("complex_kernel", atom)
    check_count("complex_kernel", "i", i, 0, None, HwCheckError)
    check_type("complex_kernel", "name", name, str, HwCheckError)
    na, nb, nc, parts = _counts(atom)
    ptx = _f64_ptx(atom)
    load, body = _complex_load(atom), _complex_body(atom)
    return f"""
// case {i}: {name}: {atom.name} as CuTe executes it ({'3' if parts == 3 else '4'} x {ptx}); operands by layout_a/b/c
__global__ void case{i}(const uint8_t*, int, int, const uint32_t* regs, uint32_t* out) {{
  const int t = threadIdx.x;
{load}{body}#pragma unroll
  for (int j = 0; j < {nc}; ++j)
#pragma unroll
    for (int p = 0; p < {parts}; ++p) {{
      out[t * {2 * parts * nc} + {2 * parts} * j + 2 * p] = __double2loint(d[p][j]);
      out[t * {2 * parts * nc} + {2 * parts} * j + 2 * p + 1] = __double2hiint(d[p][j]);
    }}
}}
"""


def check_complex(name: str, atom: Any, out: list[int]) -> tuple[int, list[str]]:
    """(values compared, disagreements) of a complex atom's case: lane t's D value v against the host's D at layout_c(t, v).

    A value is one complex number (C64) or one GaussComplex (GC64: its three doubles against the Gauss form of the
    complex GEMM, :func:`complex_reference`); each counts once.

    >>> atom = atoms.mma_atom("SM80_8x8x4_C64C64C64C64_TN")
    >>> D = complex_reference(atom)
    >>> ok = [w for t in range(32) for v in range(2) for x in D[int(atom.layout_c(t, v)) % 8][int(atom.layout_c(t, v)) // 8]
    ...       for w in _words(x)]
    >>> check_complex("c", atom, ok)
    (64, [])
    >>> check_complex("c", atom, ok[4:] + ok[:4])[1][0]
    'c: lane 0 value 0 = C(0,0) holds (23, -27), the complex GEMM says (0, 11)'
    """
    _complex_atom("check_complex", atom)
    _, _, nc, parts = _counts(atom)
    out = _out_words("check_complex", name, out, 32 * nc * 2 * parts)
    ref = complex_reference(atom)
    m_ = atom.shape_mnk[0]
    errs: list[str] = _regs_changed(name, atom, complex_regs(atom))
    n_cmp = 0
    for t in range(32):
        for v in range(nc):
            idx = int(atom.layout_c(t, v))
            m, n = idx % m_, idx // m_
            base = (t * nc + v) * 2 * parts
            got = tuple(_double(out[base + 2 * p], out[base + 2 * p + 1]) for p in range(parts))
            want = ref[m][n]
            n_cmp += 1
            if got != want and len(errs) < 8:
                what = "the Gauss form says" if parts == 3 else "the complex GEMM says"
                errs.append(f"{name}: lane {t} value {v} = C({m},{n}) holds ({', '.join(f'{x:g}' for x in got)}), "
                            f"{what} ({', '.join(str(x) for x in want)})")
    return n_cmp, errs


# --------------------------------------------------------------------------------------------------
# dp2a


def _dp2a_atom(where: str, atom: Any, mode: str) -> None:
    check_type(where, "atom", atom, atoms.MmaAtom, HwCheckError)
    _mode(where, mode)
    if atom.name != "SM61_DP2A":
        raise HwCheckError(f"{where}: expected the atom SM61_DP2A, got {fmt(atom.name)}")


def dp2a_regs(atom: Any) -> list[int]:
    """Per lane (32), the A and B words of a dp2a case.

    A: value v (16 bits at bit 16 v) is element ``layout_a(0, v)``, element k holding k + 1. B: CuTe's two 16-bit
    values, value v (bits 16 v) element ``layout_b(0, v)``, chosen so that byte ``lane % 4`` of the word is 1.

    >>> w = dp2a_regs(atoms.mma_atom("SM61_DP2A"))
    >>> [hex(x) for x in w[:8]]
    ['0x20001', '0x1', '0x20001', '0x100', '0x20001', '0x10000', '0x20001', '0x1000000']
    """
    _dp2a_atom("dp2a_regs", atom, "lo")
    out = []
    for lane in range(32):
        a = sum((int(atom.layout_a(0, v)) + 1) << (16 * v) for v in range(2))
        elem = [0, 0]                                   # B's 16-bit elements, by CuTe's traits
        elem[(lane % 4) // 2] = 1 << (8 * (lane % 2))
        b = sum(elem[int(atom.layout_b(0, v))] << (16 * v) for v in range(2))
        out += [a, b]
    return out


def _s8(x: int) -> int:
    return x - 256 if x & 0x80 else x


def _s16(x: int) -> int:
    return x - 65536 if x & 0x8000 else x


def dp2a_ptx(a_word: int, b_word: int, mode: str) -> int:
    """What PTX's ``dp2a.{mode}.s32.s32 d, a, b, 0`` computes: ``a.h0 b.byte(2s) + a.h1 b.byte(2s+1)``, s = 1 for .hi.

    >>> dp2a_ptx(0x20001, 0x100, "lo"), dp2a_ptx(0x20001, 0x1000000, "hi"), dp2a_ptx(0x20001, 0x100, "hi")
    (2, 2, 0)
    """
    check_count("dp2a_ptx", "a_word", a_word, 0, 0xFFFFFFFF, HwCheckError)
    check_count("dp2a_ptx", "b_word", b_word, 0, 0xFFFFFFFF, HwCheckError)
    _mode("dp2a_ptx", mode)
    s = 2 if mode == "hi" else 0
    return sum(_s16((a_word >> (16 * h)) & 0xFFFF) * _s8((b_word >> (8 * (s + h))) & 0xFF) for h in range(2))


def dp2a_traits(atom: Any, a_word: int, b_word: int) -> int:
    """What CuTe's SM61_DP2A traits say D is: ``sum_k A[k] B[k]`` over the two 16-bit values of A and of B.

    >>> dp2a_traits(atoms.mma_atom("SM61_DP2A"), 0x20001, 0x100)
    256
    """
    _dp2a_atom("dp2a_traits", atom, "lo")
    check_count("dp2a_traits", "a_word", a_word, 0, 0xFFFFFFFF, HwCheckError)
    check_count("dp2a_traits", "b_word", b_word, 0, 0xFFFFFFFF, HwCheckError)
    a = {int(atom.layout_a(0, v)): _s16((a_word >> (16 * v)) & 0xFFFF) for v in range(2)}
    b = {int(atom.layout_b(0, v)): _s16((b_word >> (16 * v)) & 0xFFFF) for v in range(2)}
    return sum(a[k] * b[k] for k in range(2))


def dp2a_kernel(i: int, name: str, mode: str) -> str:
    """The CUDA kernel of a dp2a case: each lane one ``dp2a.{mode}.s32.s32`` (CuTe writes ``dp2a.s32.s32``).

    >>> src = dp2a_kernel(3, "x", "lo")
    >>> "__global__ void case3(" in src, src.count('asm volatile("dp2a.lo.s32.s32 %0, %1, %2, %3;"')
    (True, 1)
    """
    check_count("dp2a_kernel", "i", i, 0, None, HwCheckError)
    check_type("dp2a_kernel", "name", name, str, HwCheckError)
    _mode("dp2a_kernel", mode)
    return f"""
// case {i}: {name}: each lane one dp2a.{mode}.s32.s32 (CuTe's SM61_DP2A writes dp2a.s32.s32, which ptxas refuses)
__global__ void case{i}(const uint8_t*, int, int, const uint32_t* regs, uint32_t* out) {{
  const int t = threadIdx.x;
  int d;
  asm volatile("dp2a.{mode}.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(regs[2 * t]), "r"(regs[2 * t + 1]), "r"(0));
  out[t] = (uint32_t)d;
}}
"""


def check_dp2a(name: str, atom: Any, mode: str, out: list[int]) -> tuple[int, list[str]]:
    """(lanes compared, disagreements) of a dp2a case against PTX's rule (:func:`dp2a_ptx`) on the words sent.

    >>> atom = atoms.mma_atom("SM61_DP2A")
    >>> check_dp2a("d", atom, "lo", [1, 2, 0, 0] * 8)
    (32, [])
    >>> check_dp2a("d", atom, "hi", [1, 2, 0, 0] * 8)[1][0]
    "d: lane 0 holds D=1, dp2a.hi's rule gives 0 (CuTe's traits: 1)"
    """
    _dp2a_atom("check_dp2a", atom, mode)
    out = _out_words("check_dp2a", name, out, 32)
    regs = dp2a_regs(atom)
    errs: list[str] = _regs_changed(name, atom, regs)
    for t in range(32):
        got = out[t] - (1 << 32) if out[t] >> 31 else out[t]
        want = dp2a_ptx(regs[2 * t], regs[2 * t + 1], mode)
        if got != want and len(errs) < 8:
            errs.append(f"{name}: lane {t} holds D={got}, dp2a.{mode}'s rule gives {want} "
                        f"(CuTe's traits: {dp2a_traits(atom, regs[2 * t], regs[2 * t + 1])})")
    return 32, errs
