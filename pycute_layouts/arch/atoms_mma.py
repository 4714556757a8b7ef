"""MMA atoms: CuTe's thread-value layouts of mma.sync (sm80), wgmma (sm90) and tcgen05.mma (sm100).

An MMA atom names one instruction. CuTe describes it by ``Shape_MNK``, ``ThrID`` (atom thread
-> hardware thread) and three *thread-value layouts* ``ALayout``, ``BLayout``, ``CLayout``: a
``(thread, value)`` pair maps to the column-major index of an element of the ``M x K`` (A),
``N x K`` (B) or ``M x N`` (C) tile, so ``m + M * k`` for A, ``n + N * k`` for B and ``m + M * n``
for C. This module builds those layouts by formula from the instruction's parameters
(``M``, ``N``, ``K`` and the element widths), following the PTX fragment rules:

* **mma.sync m16n8k* (sm80).** A thread ``t = t4 + 4 * g`` (``g`` = group of 4 lanes) owns
  rows ``g`` and ``g + 8`` and, per 32-bit register, ``e = 32 / bits`` consecutive K elements
  at column ``e * t4``; registers step rows by 8 first, then K by ``4 * e``. C holds two
  adjacent columns ``2 * t4, 2 * t4 + 1`` of rows ``g`` and ``g + 8``.
* **wgmma m64nNk* (sm90).** 128 threads; warp ``w`` owns rows ``16 * w .. 16 * w + 15``; within
  a warp the C fragment is the mma.sync one, repeated every 8 columns: ``N / 8`` times. An SS
  operand is read from shared memory by the whole warpgroup: every thread "holds" the whole tile
  (thread stride 0). The register A of an RS wgmma follows the C pattern with ``e`` elements per
  register.
* **tcgen05.mma (sm100).** One thread (two for the 2-SM ``2x1SM`` atoms) issues the instruction;
  the accumulator lives in tensor memory, so CuTe's view is one "thread" holding the whole
  ``M x N`` tile (two halves of ``M / 2`` rows for 2-SM atoms). ``K`` is always 256 bits.

>>> a = parse_mma_name("SM90_64x128x16_F32BF16BF16_SS")
>>> a.shape_mnk, str(a.layout_c)
((64, 128, 16), '((4,8,4),(2,2,16)):((128,1,16),(64,8,512))')
>>> a.layout_c(5, 3)          # thread 5, value 3: C(8 + 1, 2 + 1) -> 9 + 64 * 3
201
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..core.layout import Layout
from ..errors import LayoutTypeError, LayoutValueError
from ..limits import check_bool, check_count, check_fields, check_sequence, fmt

__all__ = [
    "MmaAtom",
    "tv_layout",
    "parse_mma_name",
    "mma_families",
    "ELEMENT_BITS",
    "sm80_layouts",
    "gmma_layouts",
    "umma_layouts",
    "gmma_n_values",
    "mma_atom_names",
]

#: Bits of each element type as CuTe's atom names spell it.
ELEMENT_BITS: dict[str, int] = {"F16": 16, "BF16": 16, "TF32": 32, "F32": 32, "S32": 32, "S8": 8, "U8": 8,
                                "E4M3": 8, "E5M2": 8}

_UMMA_CTYPES: dict[str, str] = {"half_t": "F16", "bfloat16_t": "BF16", "tfloat32_t": "TF32", "float": "F32",
                                "int8_t": "S8", "uint8_t": "U8", "int32_t": "S32"}

_FAMILIES = (
    "SM80_16x8x{8,16}_{F16F16F16F16,F32F16F16F32,F32BF16BF16F32}_TN",
    "SM80_16x8x{4,8}_F32TF32TF32F32_TN",
    "SM80_{8x8x16,16x8x16,16x8x32}_S32{S8,U8}{S8,U8}S32_TN[_SATURATE]",
    "SM90_64xNx16_{F16F16F16,F32F16F16,F32BF16BF16}_{SS,RS}[<GMMA::Major::{K,MN},GMMA::Major::{K,MN}>] (N = 8..256 step 8)",
    "SM90_64xNx8_F32TF32TF32_{SS,RS}_TN (N = 8..256 step 8)",
    "SM90_64xNx32_{F16,F32}{E4M3,E5M2}{E4M3,E5M2}_{SS,RS}_TN (N = 8..256 step 8)",
    "SM90_64xNx32_S32{S8,U8}{S8,U8}_{SS,RS}_TN[_SATURATE] (N = 8, 16, 24, 32..256 step 16)",
    "SM100_MMA_{TF32,F16BF16,S8}[_2x1SM]_{SS,TS}<a_type,b_type,c_type,M,N,UMMA::Major::{K,MN},UMMA::Major::{K,MN}>",
)


def mma_families() -> tuple[str, ...]:
    """The MMA atom name families :func:`parse_mma_name` knows, as patterns.

    Pre: none. Post: a tuple of human-readable patterns, one per family.

    >>> any(f.startswith("SM90_64xNx16") for f in mma_families())
    True
    """
    return _FAMILIES


@dataclass(frozen=True)
class MmaAtom:
    """One MMA instruction as CuTe's ``MMA_Traits`` describe it.

    ``shape_mnk`` is (M, N, K); ``thr_id`` maps atom thread -> hardware thread; ``layout_a``,
    ``layout_b`` and ``layout_c`` map (thread, value) to the column-major index of the M x K, N x K
    and M x N tiles. ``a_bits``/``b_bits``/``c_bits`` are the element widths, ``a_major``/``b_major``
    ``"K"`` or ``"MN"``, ``a_source`` where A comes from (``"reg"``, ``"smem"``, ``"tmem"``).

    >>> a = parse_mma_name("SM80_16x8x16_F32BF16BF16F32_TN")
    >>> a.num_threads, a.values_per_thread("C")
    (32, 4)
    """

    name: str
    arch: str
    shape_mnk: tuple[int, int, int]
    thr_id: Layout
    layout_a: Layout
    layout_b: Layout
    layout_c: Layout
    a_bits: int
    b_bits: int
    c_bits: int
    a_major: str
    b_major: str
    a_source: str

    def __post_init__(self) -> None:
        check_fields(self)

    @property
    def num_threads(self) -> int:
        """Threads of the atom (CuTe's ``size(ThrID)``).

        Pre: none. Post: a positive int (128 for wgmma, 32 for mma.sync, 1 or 2 for tcgen05.mma).

        >>> parse_mma_name("SM90_64x8x16_F16F16F16_SS").num_threads
        128
        """
        return int(self.thr_id.size())

    def layout(self, operand: str) -> Layout:
        """The thread-value layout of operand ``"A"``, ``"B"`` or ``"C"`` (D is C).

        Pre: operand in A, B, C, D. Post: the Layout, (thread, value) -> column-major tile index.

        >>> print(parse_mma_name("SM80_16x8x8_F32TF32TF32F32_TN").layout("B"))
        ((4,8),2):((8,1),32)
        """
        op = _check_operand(operand, "MmaAtom.layout")
        return {"A": self.layout_a, "B": self.layout_b, "C": self.layout_c}[op]

    def tile_shape(self, operand: str) -> tuple[int, int]:
        """The (rows, columns) of the operand's tile: (M, K), (N, K) or (M, N).

        Pre: operand in A, B, C, D. Post: a pair of positive ints.

        >>> parse_mma_name("SM90_64x32x16_F16F16F16_RS").tile_shape("B")
        (32, 16)
        """
        op = _check_operand(operand, "MmaAtom.tile_shape")
        m, n, k = self.shape_mnk
        return {"A": (m, k), "B": (n, k), "C": (m, n)}[op]

    def values_per_thread(self, operand: str) -> int:
        """Values one thread holds of the operand (size of the value mode).

        Pre: operand in A, B, C, D. Post: a positive int.

        >>> parse_mma_name("SM90_64x256x16_F32BF16BF16_SS").values_per_thread("C")
        128
        """
        return int(self.layout(operand)[1].size())


def _check_operand(operand: Any, who: str) -> str:
    if not isinstance(operand, str) or operand.upper() not in ("A", "B", "C", "D"):
        raise LayoutValueError(f"{who}: operand must be 'A', 'B' or 'C' ('D' is C), got {fmt(operand)}")
    op = operand.upper()
    return "C" if op == "D" else op


# --------------------------------------------------------------------------------------------------
# layouts by formula


def tv_layout(thr_shape: Any, thr_stride: Any, val_modes: list[tuple[int, int]]) -> Layout:
    """A (thread, value) layout; value modes of size 1 are dropped (CuTe's spelling), ``1:0`` if none remain.

    Pre: val_modes is a list of (size, stride) pairs. Post: Layout((thr_shape, vals), (thr_stride, strides)).

    >>> print(tv_layout((4, 8), (32, 1), [(2, 16), (1, 8), (2, 8)]))
    ((4,8),(2,2)):((32,1),(16,8))
    """


    check_sequence("tv_layout", "val_modes", val_modes)


    for _vm in val_modes:


        if not isinstance(_vm, tuple) or len(_vm) != 2:


            raise LayoutTypeError(f"tv_layout: each value mode is a (size, stride) pair, got {fmt(_vm)}")
    vm = [(s, d) for s, d in val_modes if s != 1]
    if not vm:
        vs, vd = 1, 0
    elif len(vm) == 1:
        vs, vd = vm[0]
    else:
        vs, vd = tuple(s for s, _ in vm), tuple(d for _, d in vm)
    return Layout((thr_shape, vs), (thr_stride, vd))


def sm80_layouts(m: int, n: int, k: int, ab_bits: int) -> tuple[Layout, Layout, Layout]:
    """(ALayout, BLayout, CLayout) of ``mma.sync.m{m}n{n}k{k}`` with ``ab_bits``-bit A/B (32-bit registers).

    Pre: m in (8, 16), n == 8, k a multiple of 4 * 32 / ab_bits. Post: CuTe's sm80 layouts.

    >>> print(sm80_layouts(16, 8, 16, 16)[0])
    ((4,8),(2,2,2)):((32,1),(16,8,128))
    """


    for _n, _v in (("m", m), ("n", n), ("k", k), ("ab_bits", ab_bits)):


        check_count("sm80_layouts", _n, _v, 1, 1024)
    e = 32 // ab_bits
    if m not in (8, 16) or n != 8 or k % (4 * e):
        raise LayoutValueError(f"sm80_layouts: no mma.sync m{m}n{n}k{k} for {ab_bits}-bit inputs (m 8 or 16, n 8, "
                               f"k a multiple of {4 * e})")
    a = tv_layout((4, 8), (m * e, 1), [(e, m), (m // 8, 8), (k // (4 * e), m * 4 * e)])
    b = tv_layout((4, 8), (n * e, 1), [(e, n), (k // (4 * e), n * 4 * e)])
    c = tv_layout((4, 8), (2 * m, 1), [(2, m), (m // 8, 8)])
    return a, b, c


def gmma_layouts(n: int, k: int, ab_bits: int, a_in_regs: bool) -> tuple[Layout, Layout, Layout]:
    """(ALayout, BLayout, CLayout) of ``wgmma.mma_async.m64n{n}k{k}`` (CuTe's GMMA::CLayout_64xN etc.).

    Pre: n a multiple of 8 in [8, 256]; k * ab_bits == 256. Post: C is ((4,8,4),(2,2,N/8)):((128,1,16),(64,8,512));
    A is the register layout when ``a_in_regs`` (RS) else (128,(64,K)):(0,(1,64)); B is (128,(N,K)):(0,(1,N)).

    >>> print(gmma_layouts(16, 16, 16, True)[0])
    ((4,8,4),(2,2,2)):((128,1,16),(64,8,512))
    """


    for _n, _v in (("n", n), ("k", k), ("ab_bits", ab_bits)):


        check_count("gmma_layouts", _n, _v, 1, 1024)


    check_bool("gmma_layouts", "a_in_regs", a_in_regs)
    if n % 8 or not 8 <= n <= 256 or k * ab_bits != 256:
        raise LayoutValueError(f"gmma_layouts: no wgmma m64n{n}k{k} for {ab_bits}-bit inputs (n a multiple of 8 in "
                               "[8, 256], k = 256 / bits)")
    c = Layout(((4, 8, 4), (2, 2, n // 8)), ((128, 1, 16), (64, 8, 512)))
    e = 32 // ab_bits
    if a_in_regs:
        a = tv_layout((4, 8, 4), (64 * e, 1, 16), [(e, 64), (2, 8), (2, 256 * e)])
    else:
        a = Layout((128, (64, k)), (0, (1, 64)))
    b = Layout((128, (n, k)), (0, (1, n)))
    return a, b, c


def umma_layouts(m: int, n: int, k: int, two_sm: bool) -> tuple[Layout, Layout, Layout, Layout]:
    """(ThrID, ALayout, BLayout, CLayout) of a tcgen05.mma atom as CuTe's sm100 MMA_Traits define them.

    Pre: m, n, k positive, m and n even for 2-SM atoms. Post: one thread holds the M x N tile
    ((1,(M,N)):(0,(1,M))); 2-SM atoms split M and N in halves over two "threads" (the two CTAs).

    >>> print(umma_layouts(256, 128, 16, True)[3])
    (2,(128,128)):(128,(1,256))
    """


    for _n, _v in (("m", m), ("n", n), ("k", k)):


        check_count("umma_layouts", _n, _v, 1, 1024)


    check_bool("umma_layouts", "two_sm", two_sm)
    if two_sm:
        return (Layout(2, 1), Layout((2, (m // 2, k)), (m // 2, (1, m))), Layout((2, (n // 2, k)), (n // 2, (1, n))),
                Layout((2, (m // 2, n)), (m // 2, (1, m))))
    return (Layout(1, 0), Layout((1, (m, k)), (0, (1, m))), Layout((1, (n, k)), (0, (1, n))),
            Layout((1, (m, n)), (0, (1, m))))


def gmma_n_values(int8: bool) -> tuple[int, ...]:
    """The N of CuTe's wgmma atoms: 8..256 step 8, or for 8-bit integer inputs 8, 16, 24 and 32..256 step 16.

    >>> gmma_n_values(True)[:5], len(gmma_n_values(False))
    ((8, 16, 24, 32, 48), 32)
    """


    check_bool("gmma_n_values", "int8", int8)
    if int8:
        return (8, 16, 24) + tuple(range(32, 257, 16))
    return tuple(range(8, 257, 8))


# --------------------------------------------------------------------------------------------------
# name parsing

_TYPE_TOKEN = re.compile(r"BF16|TF32|E4M3|E5M2|F16|F32|S32|S8|U8")
_SM80 = re.compile(r"^SM80_(\d+)x(\d+)x(\d+)_([A-Z0-9]+)_TN(_SATURATE)?$")
_SM90 = re.compile(r"^SM90_64x(\d+)x(\d+)_([A-Z0-9]+)_(SS|RS)(_TN)?(_SATURATE)?$")
_SM100 = re.compile(r"^SM100_MMA_(TF32|F16BF16|S8)(_2x1SM)?_(SS|TS)$")
_MAJOR = re.compile(r"^(?:cute::)?(?:SM90::)?(GMMA|UMMA)::Major::(K|MN)$")
_SCALE = re.compile(r"^(?:cute::)?(?:SM90::)?(GMMA|UMMA)::(ScaleIn::(One|Neg)|Saturate::(True|False))$")


class _Unknown(Exception):
    """Internal: the name is not one of CuTe's MMA atoms (the reason is the message)."""


def _split_template(name: str) -> tuple[str, list[str]]:
    text = "".join(name.split())
    if "<" not in text:
        return text, []
    if not text.endswith(">") or text.count("<") != 1:
        raise _Unknown("malformed template arguments")
    base, args = text[:-1].split("<", 1)
    return base, ([a for a in args.split(",")] if args else [])


def _types(text: str, count: int) -> list[str]:
    toks = _TYPE_TOKEN.findall(text)
    if "".join(toks) != text or len(toks) != count:
        raise _Unknown(f"type string {fmt(text)} is not {count} element types")
    return toks


def _check_scales(args: list[str], who: str) -> None:
    if len(args) > 2 or any(not _SCALE.match(a) for a in args):
        raise _Unknown(f"{who} takes at most two ScaleIn template arguments, got <{','.join(args)}>")


def _sm80(m: re.Match, name: str) -> MmaAtom:
    mm, nn, kk = (int(m.group(i)) for i in (1, 2, 3))
    d, a, b, c = _types(m.group(4), 4)
    fp = {("F16", "F16", "F16", "F16"), ("F32", "F16", "F16", "F32"), ("F32", "BF16", "BF16", "F32")}
    ok = ((d, a, b, c) in fp and (mm, nn, kk) in ((16, 8, 8), (16, 8, 16))) or \
        ((d, a, b, c) == ("F32", "TF32", "TF32", "F32") and (mm, nn, kk) in ((16, 8, 4), (16, 8, 8))) or \
        (d == c == "S32" and a in ("S8", "U8") and b in ("S8", "U8") and (mm, nn, kk) in ((8, 8, 16), (16, 8, 16),
                                                                                          (16, 8, 32)))
    if not ok or (m.group(5) and d != "S32"):
        raise _Unknown(f"CuTe has no sm80 atom {mm}x{nn}x{kk} with types {m.group(4)}{m.group(5) or ''}")
    la, lb, lc = sm80_layouts(mm, nn, kk, ELEMENT_BITS[a])
    return MmaAtom(name, "sm80", (mm, nn, kk), Layout(32), la, lb, lc, ELEMENT_BITS[a], ELEMENT_BITS[b],
                   ELEMENT_BITS[d], "K", "K", "reg")


def _sm90(m: re.Match, args: list[str]) -> MmaAtom:
    n, k, types, ss, tn, sat = int(m.group(1)), int(m.group(2)), m.group(3), m.group(4), m.group(5), m.group(6)
    d, a, b = _types(types, 3)
    half = a == b and a in ("F16", "BF16") and (d == "F32" or (d == "F16" and a == "F16"))
    tf32 = (d, a, b) == ("F32", "TF32", "TF32")
    fp8 = d in ("F16", "F32") and a in ("E4M3", "E5M2") and b in ("E4M3", "E5M2")
    int8 = d == "S32" and a in ("S8", "U8") and b in ("S8", "U8")
    if not (half or tf32 or fp8 or int8) or k * ELEMENT_BITS[a] != 256 or bool(tn) == half or (sat and not int8):
        raise _Unknown(f"CuTe has no wgmma atom 64x{n}x{k} {types}_{ss}{tn or ''}{sat or ''}")
    if n not in gmma_n_values(int8):
        steps = "8, 16, 24, 32..256 step 16" if int8 else "8..256 step 8"
        raise _Unknown(f"N={n} is not one of CuTe's wgmma N for {types} ({steps})")
    majors = ["K", "K"]
    if half:
        if args and (len(args) not in (2, 3, 4) or not all(_MAJOR.match(x) for x in args[:2])):
            raise _Unknown(f"{types} atoms take <GMMA::Major::{{K,MN}},GMMA::Major::{{K,MN}}[,ScaleIn,ScaleIn]>, got "
                           f"<{','.join(args)}>")
        if args:
            majors = [_MAJOR.match(x).group(2) for x in args[:2]]
            _check_scales(args[2:], "the GMMA atom")
        if ss == "RS" and majors[0] != "K":
            raise _Unknown("an RS wgmma reads A from registers, which must be K-major (CuTe: static_assert "
                           "tnspA == GMMA::Major::K)")
    elif int8:
        if args:
            raise _Unknown(f"{types} atoms take no template arguments, got <{','.join(args)}>")
    else:
        _check_scales(args, "the GMMA atom")
    la, lb, lc = gmma_layouts(n, k, ELEMENT_BITS[a], ss == "RS")
    base = f"SM90_64x{n}x{k}_{types}_{ss}{tn or ''}{sat or ''}"
    canon = base + (f"<GMMA::Major::{majors[0]},GMMA::Major::{majors[1]}>" if half else "")
    return MmaAtom(canon, "sm90", (64, n, k), Layout(128), la, lb, lc, ELEMENT_BITS[a], ELEMENT_BITS[b],
                   ELEMENT_BITS[d], majors[0], majors[1], "reg" if ss == "RS" else "smem")


def _umma_shape_ok(kind: str, two: bool, ts: bool, m: int, n: int) -> bool:
    if two:
        step = 32 if ts else 16
        return m in (128, 256) and n % step == 0 and step <= n <= 256
    if m not in (64, 128):
        return False
    if kind == "S8":
        return n == 8 or (n % 16 == 0 and 16 <= n <= 256)
    if ts and m == 128:
        return n % 16 == 0 and 16 <= n <= 256
    return n % 8 == 0 and 8 <= n <= 256


def _sm100(mt: re.Match, args: list[str]) -> MmaAtom:
    kind, two, ts = mt.group(1), bool(mt.group(2)), mt.group(3) == "TS"
    if len(args) < 7 or len(args) > 9:
        raise _Unknown("SM100_MMA atoms take <a_type,b_type,c_type,M,N,UMMA::Major::{K,MN},UMMA::Major::{K,MN}"
                       f"[,...]>, got <{','.join(args)}>")
    tys = [_UMMA_CTYPES.get(x.replace("cutlass::", "").replace("cute::", "")) for x in args[:3]]
    ok_types = {"TF32": tys[0] == tys[1] == "TF32" and tys[2] == "F32",
                "F16BF16": tys[0] == tys[1] and tys[0] in ("F16", "BF16") and tys[2] in ("F16", "F32"),
                "S8": tys[0] in ("S8", "U8") and tys[1] in ("S8", "U8") and tys[2] == "S32"}[kind]
    if not ok_types:
        raise _Unknown(f"{kind} atoms do not take the types <{','.join(args[:3])}>")
    if not (args[3].isdigit() and args[4].isdigit()):
        raise _Unknown(f"M and N must be integers, got {fmt(args[3])}, {fmt(args[4])}")
    m, n = int(args[3]), int(args[4])
    if not _umma_shape_ok(kind, two, ts, m, n):
        raise _Unknown(f"CuTe's static_asserts reject M={m}, N={n} for this atom")
    mj = [_MAJOR.match(x) for x in args[5:7]]
    if not all(mj) or any(x.group(1) != "UMMA" for x in mj):
        raise _Unknown(f"majors must be UMMA::Major::K or UMMA::Major::MN, got {fmt(args[5])}, {fmt(args[6])}")
    if ts and mj[0].group(2) != "K":
        raise _Unknown("A from tensor memory (TS) can't be transposed: a_major must be UMMA::Major::K")
    if any(not _SCALE.match(x) for x in args[7:]):
        raise _Unknown(f"trailing template arguments must be UMMA::ScaleIn/Saturate values, got {args[7:]}")
    bits = ELEMENT_BITS[tys[0]]
    k = 256 // bits
    thr, la, lb, lc = umma_layouts(m, n, k, two)
    canon = f"SM100_MMA_{kind}{mt.group(2) or ''}_{mt.group(3)}<{','.join(args)}>"
    return MmaAtom(canon, "sm100", (m, n, k), thr, la, lb, lc, bits, ELEMENT_BITS[tys[1]], ELEMENT_BITS[tys[2]],
                   mj[0].group(2), mj[1].group(2), "tmem" if ts else "smem")


def parse_mma_name(name: str) -> MmaAtom:
    """The :class:`MmaAtom` of CuTe's MMA atom ``name`` (template arguments as CuTe spells them).

    Pre: ``name`` is a string naming one of :func:`mma_families`. Post: the atom; its ``name`` is the
    canonical spelling (GMMA 16-bit atoms without template arguments mean both K-major).
    Raises LayoutValueError naming the rule broken (and listing the families) for anything else.

    >>> parse_mma_name("SM90_64x64x16_F16F16F16_SS").name
    'SM90_64x64x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K>'
    >>> parse_mma_name("SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256,UMMA::Major::K,UMMA::Major::MN>").shape_mnk
    (128, 256, 16)
    >>> parse_mma_name("SM90_64x12x16_F16F16F16_SS")
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.LayoutValueError: mma_atom: unknown MMA atom 'SM90_64x12x16_F16F16F16_SS': N=12 is not ...
    """
    if not isinstance(name, str):
        raise LayoutTypeError(f"mma_atom: the atom name must be a string, got {fmt(name)}")
    try:
        base, args = _split_template(name)
        mt = _SM80.match(base)
        if mt is not None:
            if args:
                raise _Unknown("sm80 atoms take no template arguments")
            return _sm80(mt, base)
        mt = _SM90.match(base)
        if mt is not None:
            return _sm90(mt, args)
        mt = _SM100.match(base)
        if mt is not None:
            return _sm100(mt, args)
        raise _Unknown("not an MMA atom name CuTe defines")
    except _Unknown as e:
        fams = "; ".join(_FAMILIES)
        raise LayoutValueError(f"mma_atom: unknown MMA atom {fmt(name)}: {e}. Known families: {fams}") from None


def mma_atom_names(*, majors: bool = False) -> list[str]:
    """Every MMA atom name of :func:`mma_families` (sm100: a representative set of M, N and types).

    Pre: none. Post: canonical names; with ``majors=True`` the 16-bit GMMA atoms come in every
    major combination CuTe accepts (RS: A K-major), else K-major only.

    >>> names = mma_atom_names()
    >>> len([n for n in names if n.startswith("SM90_")]), names[0]
    (1056, 'SM80_16x8x8_F16F16F16F16_TN')
    """
    check_bool("mma_atom_names", "majors", majors)
    out = [f"SM80_16x8x{k}_{t}_TN" for k in (8, 16) for t in ("F16F16F16F16", "F32F16F16F32", "F32BF16BF16F32")]
    out += [f"SM80_16x8x{k}_F32TF32TF32F32_TN" for k in (4, 8)]
    out += [f"SM80_{s}_S32{a}{b}S32_TN{sat}" for s in ("8x8x16", "16x8x16", "16x8x32") for a in ("S8", "U8")
            for b in ("S8", "U8") for sat in ("", "_SATURATE")]
    mj = [("K", "K"), ("K", "MN"), ("MN", "K"), ("MN", "MN")] if majors else [("K", "K")]
    for ss in ("SS", "RS"):
        for n in gmma_n_values(False):
            for t in ("F16F16F16", "F32F16F16", "F32BF16BF16"):
                out += [f"SM90_64x{n}x16_{t}_{ss}<GMMA::Major::{a},GMMA::Major::{b}>" for a, b in mj
                        if ss == "SS" or a == "K"]
            out.append(f"SM90_64x{n}x8_F32TF32TF32_{ss}_TN")
            out += [f"SM90_64x{n}x32_{d}{a}{b}_{ss}_TN" for d in ("F16", "F32") for a in ("E4M3", "E5M2")
                    for b in ("E4M3", "E5M2")]
        for n in gmma_n_values(True):
            out += [f"SM90_64x{n}x32_S32{a}{b}_{ss}_TN{sat}" for a in ("S8", "U8") for b in ("S8", "U8")
                    for sat in ("", "_SATURATE")]
    kinds = (("TF32", "tfloat32_t,tfloat32_t,float"), ("F16BF16", "half_t,half_t,float"),
             ("F16BF16", "bfloat16_t,bfloat16_t,float"), ("S8", "int8_t,int8_t,int32_t"))
    for kind, ty in kinds:
        for two, ms in (("", (64, 128)), ("_2x1SM", (128, 256))):
            for ss in ("SS", "TS"):
                for m in ms:
                    for n in (32, 64, 256):
                        for a, b in (("K", "K"), ("MN", "MN")) if ss == "SS" else (("K", "MN"),):
                            out.append(f"SM100_MMA_{kind}{two}_{ss}<{ty},{m},{n},UMMA::Major::{a},UMMA::Major::{b}>")
    return out
