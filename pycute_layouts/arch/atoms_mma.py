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

from ..core.display import rich_repr
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
    "more_mma_atom_names",
    "sm70_layouts",
    "dot_layouts",
    "sm120_sf_layouts",
    "gmma_sparse_e_layout",
    "sm120_sparse_e_layout",
    "sm120_sparse_atom_names",
    "sm103_atom_names",
]

#: Bits of each element type as CuTe's atom names spell it.
ELEMENT_BITS: dict[str, int] = {"F16": 16, "BF16": 16, "TF32": 32, "F32": 32, "S32": 32, "S8": 8, "U8": 8,
                                "E4M3": 8, "E5M2": 8, "F64": 64, "C64": 128, "GC64": 128, "S16": 16, "S4": 4, "U4": 4,
                                "U1": 1, "E2M1": 4, "E3M2": 6, "E2M3": 6}

_UMMA_CTYPES: dict[str, str] = {"half_t": "F16", "bfloat16_t": "BF16", "tfloat32_t": "TF32", "float": "F32",
                                "int8_t": "S8", "uint8_t": "U8", "int32_t": "S32"}

_FAMILIES = (
    "SM61_DP4A, SM61_DP2A",
    "SM70_8x8x4_{F16F16F16F16,F32F16F16F32}_{TN,NT,NN,TT}",
    "SM75_16x8x8_F32F16F16F32_TN, SM75_8x8x16_S32S8S8S32_TN",
    "SM80_16x8x{8,16}_{F16F16F16F16,F32F16F16F32,F32BF16BF16F32}_TN",
    "SM80_8x8x4_{F64F64F64F64,C64C64C64C64,GC64C64C64GC64}_TN",
    "SM80_{8x8x32,16x8x32,16x8x64}_S32{S4,U4}{S4,U4}S32_TN[_SATURATE]",
    "SM80_{8x8x128,16x8x128,16x8x256}_S32U1U1S32_TN_{XORPOPC,ANDPOPC}",
    "SM89_16x8x32_{F32,F16}{E4M3,E5M2}{E4M3,E5M2}{F32,F16}_TN",
    "SM90_16x8x{4,8,16}_{F64F64F64F64,C64C64C64C64}_TN",
    "SM120_16x8x32_TN<a_type,b_type,c_type> (a, b: float_e{4m3,5m2,3m2,2m3,2m1}_t; c: float, half_t)",
    "SM120::BLOCKSCALED::SM120_16x8x32_TN_VS<a_type,b_type,float,float_ue8m0_t,32>",
    "SM120::BLOCKSCALED::SM120_16x8x64_TN_VS<float_e2m1_t,float_e2m1_t,float,float_ue{8m0,4m3}_t,{16,32}>",
    "SM120::SPARSE::SM120_SPARSE_16x8x64_TN<a_type,b_type,c_type>, SM120::BLOCKSCALED::SPARSE::SM120_SPARSE_16x8x64_TN_VS"
    "<a,b,float,float_ue8m0_t,64>, SM120::BLOCKSCALED::SPARSE::SM120_SPARSE_16x8x128_TN_VS<float_e2m1_t,float_e2m1_t,"
    "float,float_ue{8m0,4m3}_t,{32,64}> (metadata: E)",
    "SM103::SM103_MXF4_ULTRA[_2x1SM]_SS_VS<float_e2m1_t,float_e2m1_t,float,sf_type,M,N,VS,UMMA::Major::K,UMMA::Major::K>",
    "SM90::GMMA::SPARSE::GMMA_64xNx{32,16,64}_<types as the dense wgmma>_{SS,RS}[_TN][_SATURATE][<...>] (metadata: E)",
    "SM100_MMA_F8F6F4[_2x1SM]_{SS,TS}<a_type,b_type,c_type,M,N,UMMA::Major::{K,MN},UMMA::Major::{K,MN}>",
    "SM100_MMA_MXF8F6F4[_2x1SM]_SS<a_type,b_type,float,float_ue8m0_t,M,N,UMMA::Major::{K,MN},UMMA::Major::{K,MN}>",
    "SM100_MMA_MXF4[_2x1SM]_SS<float_e2m1_t,float_e2m1_t,float,sf_type,M,N,VS,UMMA::Major::{K,MN},UMMA::Major::{K,MN}>",
    "SM80_16x8x{4,8}_F32TF32TF32F32_TN",
    "SM80_{8x8x16,16x8x16,16x8x32}_S32{S8,U8}{S8,U8}S32_TN[_SATURATE]",
    "SM90_64xNx16_{F16F16F16,F32F16F16,F32BF16BF16}_{SS,RS}[<GMMA::Major::{K,MN},GMMA::Major::{K,MN}>] (N = 8..256 step 8)",
    "SM90_64xNx8_F32TF32TF32_{SS,RS}_TN (N = 8..256 step 8)",
    "SM90_64xNx32_{F16,F32}{E4M3,E5M2}{E4M3,E5M2}_{SS,RS}_TN (N = 8..256 step 8)",
    "SM90_64xNx32_S32{S8,U8}{S8,U8}_{SS,RS}_TN[_SATURATE] (N = 8, 16, 24, 32..256 step 16)",
    "SM100_MMA_{TF32,F16BF16,S8}[_2x1SM]_{SS,TS}<a_type,b_type,c_type,M,N,UMMA::Major::{K,MN},UMMA::Major::{K,MN}>",
    "SM100_MMA_F16BF16[_2x1SM]_{SS,TS}_SCALED<a_type,b_type,c_type,M,N,UMMA::Major::..,UMMA::Major::..,ScaleC>",
    "SM100_{2x1x1,1x2x1}_F32F32F32F32",
    "SM100_MMA_{TF32,F16BF16,S8,F8F6F4}[_2x1SM]_SS_SPARSE<a_type,b_type,c_type,M,N,majors>, "
    "SM100_MMA_MXF8F6F4[_2x1SM]_SS_SPARSE<a,b,float,float_ue8m0_t,M,N,majors>, "
    "SM100_MMA_MXF4NVF4[_2x1SM]_SS_SPARSE<float_e2m1_t,float_e2m1_t,float,sf_type,M,N,VS,majors> (K doubled)",
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
    Sparse atoms carry ``layout_e`` (the metadata operand, (thread, value) -> m + M * k); sm120
    block-scaled atoms ``layout_sfa``/``layout_sfb`` (scale factors of A(m, k) and B(n, k)) and
    ``sf_vec_size`` (elements per scale factor; also set for sm100 MX atoms, whose scale factors live
    in tensor memory and have no thread-value layout in CuTe).

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
    layout_e: Layout | None = None
    layout_sfa: Layout | None = None
    layout_sfb: Layout | None = None
    sf_vec_size: int = 0

    def _repr_svg_(self) -> str | None:
        """IPython's display protocol: the picture (see :mod:`pycute_layouts.core.display`), or None for text."""
        return rich_repr(self, "svg")

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

        Pre: operand in A, B, C, D, or E / SFA / SFB where the atom has them. Post: the Layout,
        (thread, value) -> column-major tile index.

        >>> print(parse_mma_name("SM80_16x8x8_F32TF32TF32F32_TN").layout("B"))
        ((4,8),2):((8,1),32)
        """
        op = _check_operand(operand, "MmaAtom.layout")
        lay = {"A": self.layout_a, "B": self.layout_b, "C": self.layout_c, "E": self.layout_e, "SFA": self.layout_sfa,
               "SFB": self.layout_sfb}[op]
        if lay is None:
            raise LayoutValueError(f"MmaAtom.layout: {self.name} has no operand {op} (E: sparse atoms only; SFA/SFB: "
                                   "sm120 block-scaled atoms only)")
        return lay

    def tile_shape(self, operand: str) -> tuple[int, int]:
        """The (rows, columns) of the operand's tile: (M, K), (N, K) or (M, N).

        Pre: operand in A, B, C, D. Post: a pair of positive ints.

        >>> parse_mma_name("SM90_64x32x16_F16F16F16_RS").tile_shape("B")
        (32, 16)
        """
        op = _check_operand(operand, "MmaAtom.tile_shape")
        m, n, k = self.shape_mnk
        return {"A": (m, k), "B": (n, k), "C": (m, n), "E": (m, k), "SFA": (m, k), "SFB": (n, k)}[op]

    def values_per_thread(self, operand: str) -> int:
        """Values one thread holds of the operand (size of the value mode).

        Pre: operand in A, B, C, D. Post: a positive int.

        >>> parse_mma_name("SM90_64x256x16_F32BF16BF16_SS").values_per_thread("C")
        128
        """
        return int(self.layout(operand)[1].size())


def _check_operand(operand: Any, who: str) -> str:
    if not isinstance(operand, str) or operand.upper() not in ("A", "B", "C", "D", "E", "SFA", "SFB"):
        raise LayoutValueError(f"{who}: operand must be 'A', 'B', 'C' ('D' is C), 'E' (sparse metadata), 'SFA' or "
                               f"'SFB' (scale factors), got {fmt(operand)}"[:300])
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

    Every warp-wide mma.sync of sm75..sm120 follows it (``e = max(1, 32 / ab_bits)`` elements per
    register: 64-bit F64/C64 atoms take one element per register pair, the same fragment as TF32).
    Pre: m in (8, 16), n == 8, ab_bits in (1, 2, 4, 8, 16, 32, 64), k a multiple of 4 * e. Post: CuTe's layouts.

    >>> print(sm80_layouts(16, 8, 16, 16)[0])
    ((4,8),(2,2,2)):((32,1),(16,8,128))
    """
    for _n, _v in (("m", m), ("n", n), ("k", k), ("ab_bits", ab_bits)):
        check_count("sm80_layouts", _n, _v, 1, 1024)
    if ab_bits not in (1, 2, 4, 8, 16, 32, 64):
        raise LayoutValueError(f"sm80_layouts: A/B element width must be 1, 2, 4, 8, 16, 32 or 64 bits, got {fmt(ab_bits)}")
    e = max(1, 32 // ab_bits)
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


def sm70_layouts(a_k_major: bool, b_k_major: bool, c_bits: int) -> tuple[Layout, Layout, Layout, Layout]:
    """(ThrID, ALayout, BLayout, CLayout) of Volta's ``mma.sync.m8n8k4`` (one quad-pair of 8 threads).

    The 8 threads of a quad-pair are lanes ``t0 + 16 * t1`` (t0 < 4, t1 < 2), ThrID (4,2):(1,16);
    quad-pair thread ``i = t0 + 4 * t1``. A K-major operand (``T`` for A, ``N`` for B): thread i
    holds row i, its 4 K values: (8,4):(1,8). An M/N-major one: thread i holds K column ``t0``, rows
    ``4 * t1 .. 4 * t1 + 3``: ((4,2),4):((8,4),1). F16 C: thread i holds row i, 8 columns: (8,8):(1,8);
    F32 C: thread bits (b0, b1, b2) move (row 1, column 2, row 4), value bits (c0, c1, c2) move
    (column 1, row 2, column 4).
    Pre: c_bits in (16, 32). Post: the four layouts of CuTe's SM70_8x8x4 traits.

    >>> [str(x) for x in sm70_layouts(True, False, 16)]
    ['(4,2):(1,16)', '(8,4):(1,8)', '((4,2),4):((8,4),1)', '(8,8):(1,8)']
    """
    check_bool("sm70_layouts", "a_k_major", a_k_major)
    check_bool("sm70_layouts", "b_k_major", b_k_major)
    c_bits = check_count("sm70_layouts", "c_bits", c_bits, error=LayoutValueError)
    if c_bits not in (16, 32):
        raise LayoutValueError(f"sm70_layouts: the accumulator is 16 or 32 bits, got {fmt(c_bits)}")
    row = Layout((8, 4), (1, 8))
    col = Layout(((4, 2), 4), ((8, 4), 1))
    c = Layout((8, 8), (1, 8)) if c_bits == 16 else Layout(((2, 2, 2), (2, 2, 2)), ((1, 16, 4), (8, 2, 32)))
    return Layout((4, 2), (1, 16)), row if a_k_major else col, row if b_k_major else col, c


def dot_layouts(k: int) -> tuple[Layout, Layout, Layout, Layout]:
    """(ThrID, ALayout, BLayout, CLayout) of a one-thread dot product of ``k`` elements (sm61 dp4a/dp2a, FMA).

    Pre: k a positive int. Post: one thread holds A and B (1,k):(0,1) and C (1,1):(0,0).

    >>> [str(x) for x in dot_layouts(4)]
    ['1:0', '(1,4):(0,1)', '(1,4):(0,1)', '(1,1):(0,0)']
    """
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise LayoutValueError(f"dot_layouts: k must be a positive int, got {fmt(k)}")
    ab = Layout((1, k), (0, 1))
    return Layout(1, 0), ab, ab, Layout((1, 1), (0, 0))


def sm120_sf_layouts(k: int) -> tuple[Layout, Layout]:
    """(SFALayout, SFBLayout) of a block-scaled sm120 ``mma.sync.m16n8k{k}``: who supplies the scale of A(m, k), B(n, k).

    Thread ``t = t0 + 2 * t1 + 4 * g`` (t0, t1 < 2, g < 8) holds row ``g + 8 * t0`` of A's scale
    factors (the t1 = 1 threads repeat it: stride 0), all K of them; thread ``t4 + 4 * g`` holds
    column g of B's (t4 ignored). Indices are ``m + 16 * k`` and ``n + 8 * k``.
    Pre: k a positive int. Post: ((2,2,8),k):((8,0,1),16) and ((4,8),k):((0,1),8).

    >>> [str(x) for x in sm120_sf_layouts(32)]
    ['((2,2,8),32):((8,0,1),16)', '((4,8),32):((0,1),8)']
    """
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise LayoutValueError(f"sm120_sf_layouts: k must be a positive int, got {fmt(k)}")
    return Layout(((2, 2, 8), k), ((8, 0, 1), 16)), Layout(((4, 8), k), ((0, 1), 8))


def sm120_sparse_e_layout(k: int) -> Layout:
    """ELayout of a sparse sm120 ``mma.sync.sp.m16n8k{k}``: (thread, value) -> m + 16 * k of the metadata.

    Thread ``t = t0 + 2 * t1 + 4 * g`` holds row ``g + 8 * t0`` and the K half ``t1`` (k / 2 values each):
    ((2,2,8),k/2):((8,8k,1),16).
    Pre: k in (64, 128). Post: CuTe's ELayout of SM120_SPARSE_16x8x{64,128}.

    >>> print(sm120_sparse_e_layout(64))
    ((2,2,8),32):((8,512,1),16)
    """
    if check_count("sm120_sparse_e_layout", "k", k, error=LayoutValueError) not in (64, 128):
        raise LayoutValueError(f"sm120_sparse_e_layout: sparse sm120 mma.sync has K = 64 or 128, got {fmt(k)}")
    return Layout(((2, 2, 8), k // 2), ((8, 8 * k, 1), 16))


def gmma_sparse_e_layout(k: int) -> Layout:
    """ELayout of a sparse ``wgmma.mma_async.sp.m64nNk{k}``: (thread, value) -> m + 64 * k of the metadata.

    Thread ``t = t0 + 2 * t1 + 4 * g + 32 * w``: warp w owns rows 16 w.., lane group g row g. For
    16- and 32-bit inputs (k = 32, 16) t0 picks the K half, the t1 = 1 threads repeat (stride 0)
    and each thread's values cover k / 2 K positions of rows g and g + 8; for 8-bit inputs (k = 64)
    t0 picks row g + 8 and t1 the K half, 32 K positions each.
    Pre: k in (16, 32, 64). Post: CuTe's GMMA::ELayout_64xK.

    >>> print(gmma_sparse_e_layout(32))
    ((2,2,8,4),(16,2)):((1024,0,1,16),(64,8))
    """
    k = check_count("gmma_sparse_e_layout", "k", k, error=LayoutValueError)
    if k == 64:
        return Layout(((2, 2, 8, 4), 32), ((8, 64 * 32, 1, 16), 64))
    if k in (16, 32):
        return Layout(((2, 2, 8, 4), (k // 2, 2)), ((64 * k // 2, 0, 1, 16), (64, 8)))
    raise LayoutValueError(f"gmma_sparse_e_layout: sparse wgmma has K = 16, 32 or 64, got {fmt(k)}")


def _mma_sync_catalog() -> dict[str, tuple[str, tuple[int, int, int], tuple[str, str, str, str]]]:
    """Every register-operand MMA atom CuTe defines by a plain name: name -> (arch, (M, N, K), (D, A, B, C))."""
    cat: dict[str, tuple[str, tuple[int, int, int], tuple[str, str, str, str]]] = {}

    def add(name: str, arch: str, mnk: tuple[int, int, int], types: tuple[str, str, str, str]) -> None:
        cat[name] = (arch, mnk, types)

    add("SM61_DP4A", "sm61", (1, 1, 4), ("S32", "S8", "S8", "S32"))
    add("SM100_2x1x1_F32F32F32F32", "sm100", (2, 1, 1), ("F32", "F32", "F32", "F32"))
    add("SM100_1x2x1_F32F32F32F32", "sm100", (1, 2, 1), ("F32", "F32", "F32", "F32"))
    add("SM61_DP2A", "sm61", (1, 1, 2), ("S32", "S16", "S16", "S32"))
    for d in ("F16", "F32"):
        for tn in ("TN", "NT", "NN", "TT"):
            add(f"SM70_8x8x4_{d}F16F16{d}_{tn}", "sm70", (8, 8, 4), (d, "F16", "F16", d))
    add("SM75_16x8x8_F32F16F16F32_TN", "sm75", (16, 8, 8), ("F32", "F16", "F16", "F32"))
    add("SM75_8x8x16_S32S8S8S32_TN", "sm75", (8, 8, 16), ("S32", "S8", "S8", "S32"))
    for k in (8, 16):
        for d, a in (("F16", "F16"), ("F32", "F16"), ("F32", "BF16")):
            add(f"SM80_16x8x{k}_{d}{a}{a}{d}_TN", "sm80", (16, 8, k), (d, a, a, d))
    for k in (4, 8):
        add(f"SM80_16x8x{k}_F32TF32TF32F32_TN", "sm80", (16, 8, k), ("F32", "TF32", "TF32", "F32"))
    add("SM80_8x8x4_F64F64F64F64_TN", "sm80", (8, 8, 4), ("F64", "F64", "F64", "F64"))
    add("SM80_8x8x4_C64C64C64C64_TN", "sm80", (8, 8, 4), ("C64", "C64", "C64", "C64"))
    add("SM80_8x8x4_GC64C64C64GC64_TN", "sm80", (8, 8, 4), ("GC64", "C64", "C64", "GC64"))
    ints = (((8, 8, 16), (16, 8, 16), (16, 8, 32)), ("S8", "U8")), (((8, 8, 32), (16, 8, 32), (16, 8, 64)), ("S4", "U4"))
    for shapes, tys in ints:
        for mnk in shapes:
            for a in tys:
                for b in tys:
                    for sat in ("", "_SATURATE"):
                        add(f"SM80_{mnk[0]}x{mnk[1]}x{mnk[2]}_S32{a}{b}S32_TN{sat}", "sm80", mnk, ("S32", a, b, "S32"))
    for mnk in ((8, 8, 128), (16, 8, 128), (16, 8, 256)):
        for op in ("XORPOPC", "ANDPOPC"):
            add(f"SM80_{mnk[0]}x{mnk[1]}x{mnk[2]}_S32U1U1S32_TN_{op}", "sm80", mnk, ("S32", "U1", "U1", "S32"))
    for d in ("F32", "F16"):
        for a in ("E4M3", "E5M2"):
            for b in ("E4M3", "E5M2"):
                add(f"SM89_16x8x32_{d}{a}{b}{d}_TN", "sm89", (16, 8, 32), (d, a, b, d))
    for k in (4, 8, 16):
        for t in ("F64", "C64"):
            add(f"SM90_16x8x{k}_{t}{t}{t}{t}_TN", "sm90", (16, 8, k), (t, t, t, t))
    return cat


_MMA_SYNC = _mma_sync_catalog()

#: sm120 F8F6F4 element types: CuTe type -> our token (the MMA reads each from an 8-bit container).
_F8F6F4_CTYPES: dict[str, str] = {"float_e4m3_t": "E4M3", "float_e5m2_t": "E5M2", "float_e3m2_t": "E3M2",
                                  "float_e2m3_t": "E2M3", "float_e2m1_t": "E2M1"}
_SF_CTYPES: dict[str, str] = {"float_ue8m0_t": "UE8M0", "float_ue4m3_t": "UE4M3"}


def _mma_sync_atom(name: str) -> MmaAtom:
    arch, (m, n, k), (d, a, b, c) = _MMA_SYNC[name]
    if arch == "sm61":
        thr, la, lb, lc = dot_layouts(k)
    elif arch == "sm100":  # the paired FFMA2 atoms: one thread, every element (index m + M k etc.) a value
        thr = Layout(1, 0)
        la, lb, lc = (Layout((1, r * c), (0, 1)) if r * c > 1 else Layout((1, 1), (0, 0))
                      for r, c in ((m, k), (n, k), (m, n)))
    elif arch == "sm70":
        ab = name.rsplit("_", 1)[1]
        thr, la, lb, lc = sm70_layouts(ab[0] == "T", ab[1] == "N", ELEMENT_BITS[d])
    else:
        thr = Layout(32)
        la, lb, lc = sm80_layouts(m, n, k, min(ELEMENT_BITS[a], 64))  # complex<double>: the F64 fragment
    am = bm = "K"
    if arch == "sm70":
        ab = name.rsplit("_", 1)[1]
        am, bm = ("K" if ab[0] == "T" else "MN"), ("K" if ab[1] == "N" else "MN")
    return MmaAtom(name, arch, (m, n, k), thr, la, lb, lc, ELEMENT_BITS[a], ELEMENT_BITS[b], ELEMENT_BITS[d], am, bm,
                   "reg")


# --------------------------------------------------------------------------------------------------
# name parsing

_TYPE_TOKEN = re.compile(r"BF16|TF32|E4M3|E5M2|F16|F32|S32|S8|U8")
_SM90 = re.compile(r"^SM90_64x(\d+)x(\d+)_([A-Z0-9]+)_(SS|RS)(_TN)?(_SATURATE)?$")
_SM100 = re.compile(r"^SM100_MMA_(TF32|F16BF16|S8)(_2x1SM)?_(SS|TS)(_SCALED)?$")
_MMA_SYNC_LIKE = re.compile(r"^(SM(?:61|70|75|80|89|90))_(?:\d+x\d+x\d+_[A-Z0-9]+_[A-Z_]+|DP\d+A)$")
_SM100_F8 = re.compile(r"^SM100_MMA_(F8F6F4|MXF8F6F4|MXF4)(_2x1SM)?_(SS|TS)$")
_SM120 = re.compile(r"^(?:SM120::BLOCKSCALED::)?SM120_16x8x(32|64)_TN(_VS)?$")
_SM120_SPARSE = re.compile(r"^(?:SM120::(?:BLOCKSCALED::)?SPARSE::)?SM120_SPARSE_16x8x(64|128)_TN(_VS)?$")
_SM90_SPARSE = re.compile(r"^SM90::GMMA::SPARSE::GMMA_64x(\d+)x(\d+)_([A-Z0-9]+)_(SS|RS)(_TN)?(_SATURATE)?$")
_SPSEL = re.compile(r"^(?:cute::)?(?:SM90::)?GMMA::(ScaleIn::(One|Neg)|SparseSel::(Zero|One))$")
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
    scaled = bool(mt.group(4))
    if scaled:   # F16BF16 with a ScaleC (uint32) after the majors; otherwise the same atom
        if kind != "F16BF16" or len(args) < 8 or not args[7].isdigit() or int(args[7]) >= 1 << 32:
            raise _Unknown("CuTe's _SCALED atoms are SM100_MMA_F16BF16[_2x1SM]_{SS,TS}_SCALED<a_type,b_type,c_type,M,N,"
                           f"UMMA::Major::..,UMMA::Major::..,ScaleC[,...]> (ScaleC a uint32); got <{','.join(args)}>")
    orig_args = args
    if scaled:
        args = args[:7] + args[8:]
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
    canon = f"SM100_MMA_{kind}{mt.group(2) or ''}_{mt.group(3)}{mt.group(4) or ''}<{','.join(orig_args)}>"
    return MmaAtom(canon, "sm100", (m, n, k), thr, la, lb, lc, bits, ELEMENT_BITS[tys[1]], ELEMENT_BITS[tys[2]],
                   mj[0].group(2), mj[1].group(2), "tmem" if ts else "smem")


def _sm90_sparse(mt: re.Match, args: list[str]) -> MmaAtom:
    n, k, types, ss, tn, sat = int(mt.group(1)), int(mt.group(2)), mt.group(3), mt.group(4), mt.group(5), mt.group(6)
    d, a, b = _types(types, 3)
    half = a == b and a in ("F16", "BF16") and (d == "F32" or (d == "F16" and a == "F16"))
    tf32 = (d, a, b) == ("F32", "TF32", "TF32")
    fp8 = d in ("F16", "F32") and a in ("E4M3", "E5M2") and b in ("E4M3", "E5M2")
    int8 = d == "S32" and a in ("S8", "U8") and b in ("S8", "U8")
    if not (half or tf32 or fp8 or int8) or k * ELEMENT_BITS[a] != 512 or bool(tn) == half or (sat and not int8):
        raise _Unknown(f"CuTe has no sparse wgmma atom 64x{n}x{k} {types}_{ss}{tn or ''}{sat or ''} (K is 512 bits)")
    if n not in gmma_n_values(int8):
        raise _Unknown(f"N={n} is not one of CuTe's sparse wgmma N for {types}")
    majors = ["K", "K"]
    rest = args
    if half:
        if len(args) < 2 or not all(_MAJOR.match(x) and _MAJOR.match(x).group(1) == "GMMA" for x in args[:2]):
            raise _Unknown(f"{types} sparse atoms take <GMMA::Major::{{K,MN}},GMMA::Major::{{K,MN}}[,ScaleIn,ScaleIn"
                           f"[,SparseSel]]>, got <{','.join(args)}>")
        majors = [_MAJOR.match(x).group(2) for x in args[:2]]
        rest = args[2:]
        if ss == "RS" and majors[0] != "K":
            raise _Unknown("an RS wgmma reads A from registers, which must be K-major")
    limit = 1 if int8 else 3
    if len(rest) > limit or any(not _SPSEL.match(x) for x in rest) or (int8 and rest and "SparseSel" not in rest[0]):
        raise _Unknown(f"trailing template arguments must be GMMA::ScaleIn / GMMA::SparseSel values (at most {limit}), "
                       f"got <{','.join(rest)}>")
    la, lb, lc = gmma_layouts(n, k, ELEMENT_BITS[a] // 2, ss == "RS")
    base = f"SM90::GMMA::SPARSE::GMMA_64x{n}x{k}_{types}_{ss}{tn or ''}{sat or ''}"
    canon = base + (f"<GMMA::Major::{majors[0]},GMMA::Major::{majors[1]}>" if half else "")
    return MmaAtom(canon, "sm90", (64, n, k), Layout(128), la, lb, lc, ELEMENT_BITS[a], ELEMENT_BITS[b],
                   ELEMENT_BITS[d], majors[0], majors[1], "reg" if ss == "RS" else "smem",
                   layout_e=gmma_sparse_e_layout(k))


def _ctype(x: str) -> str:
    return x.replace("cutlass::", "").replace("cute::", "")


def _sm120(mt: re.Match, args: list[str]) -> MmaAtom:
    k, vs = int(mt.group(1)), bool(mt.group(2))
    if len(args) != (5 if vs else 3):
        raise _Unknown("SM120_16x8x32_TN takes <a_type,b_type,c_type>, the block-scaled SM120_16x8x{32,64}_TN_VS "
                       f"<a_type,b_type,c_type,sf_type,VS>; got <{','.join(args)}>")
    a, b = (_F8F6F4_CTYPES.get(_ctype(x)) for x in args[:2])
    c = _ctype(args[2])
    if not vs:
        if k != 32 or a is None or b is None or c not in ("float", "half_t"):
            raise _Unknown("SM120_16x8x32_TN takes a_type, b_type in float_e{4m3,5m2,3m2,2m3,2m1}_t and c_type float or "
                           f"half_t; got <{','.join(args)}>")
        la, lb, lc = sm80_layouts(16, 8, 32, 8)
        canon = f"SM120_16x8x32_TN<{','.join(_ctype(x) for x in args)}>"
        return MmaAtom(canon, "sm120", (16, 8, 32), Layout(32), la, lb, lc, ELEMENT_BITS[a], ELEMENT_BITS[b],
                       32 if c == "float" else 16, "K", "K", "reg")
    sf, vsz = _SF_CTYPES.get(_ctype(args[3])), args[4]
    ok = c == "float" and vsz.isdigit() and (
        (k == 32 and a is not None and b is not None and sf == "UE8M0" and int(vsz) == 32)
        or (k == 64 and a == b == "E2M1" and sf is not None and int(vsz) in (16, 32)))
    if not ok:
        raise _Unknown("SM120_16x8x32_TN_VS takes F8F6F4 a/b types, float, float_ue8m0_t and VS 32; SM120_16x8x64_TN_VS "
                       f"float_e2m1_t x2, float, float_ue{{8m0,4m3}}_t and VS 16 or 32; got <{','.join(args)}>")
    la, lb, lc = sm80_layouts(16, 8, k, 8 if k == 32 else 4)
    sfa, sfb = sm120_sf_layouts(k)
    canon = f"SM120::BLOCKSCALED::SM120_16x8x{k}_TN_VS<{','.join(_ctype(x) for x in args)}>"
    return MmaAtom(canon, "sm120", (16, 8, k), Layout(32), la, lb, lc, ELEMENT_BITS[a], ELEMENT_BITS[b], 32, "K", "K",
                   "reg", layout_sfa=sfa, layout_sfb=sfb, sf_vec_size=int(vsz))


def _sm120_sparse(mt: re.Match, args: list[str]) -> MmaAtom:
    k, vs = int(mt.group(1)), bool(mt.group(2))
    if len(args) != (5 if vs else 3) or (k == 128 and not vs):
        raise _Unknown("SM120::SPARSE::SM120_SPARSE_16x8x64_TN takes <a_type,b_type,c_type>, the block-scaled "
                       "SM120::BLOCKSCALED::SPARSE::SM120_SPARSE_16x8x{64,128}_TN_VS <a_type,b_type,c_type,sf_type,VS>; "
                       f"got <{','.join(args)}>")
    a, b = (_F8F6F4_CTYPES.get(_ctype(x)) for x in args[:2])
    c = _ctype(args[2])
    sf = _SF_CTYPES.get(_ctype(args[3])) if vs else None
    vsz = args[4] if vs else "0"
    if not vs:
        ok = a is not None and b is not None and c in ("float", "half_t")
    elif k == 64:
        ok = a is not None and b is not None and c == "float" and sf == "UE8M0" and vsz == "64"
    else:
        ok = a == b == "E2M1" and c == "float" and ((sf == "UE8M0" and vsz in ("32", "64")) or (sf == "UE4M3" and vsz == "32"))
    if not ok:
        raise _Unknown("sparse sm120 atoms take F8F6F4 a/b types and float/half_t (16x8x64_TN), float, float_ue8m0_t, VS 64 "
                       "(16x8x64_TN_VS), float_e2m1_t x2, float and float_ue8m0_t with VS 32 or 64 or float_ue4m3_t with "
                       f"VS 32 (16x8x128_TN_VS); got <{','.join(args)}>")
    la = sm80_layouts(16, 8, k, 4 if k == 64 else 2)[0]
    lb = sm80_layouts(16, 8, k, 8 if k == 64 else 4)[1]
    lc = sm80_layouts(16, 8, 16, 16)[2]
    extra: dict[str, Any] = {"layout_e": sm120_sparse_e_layout(k)}
    if vs:
        extra["layout_sfa"], extra["layout_sfb"] = sm120_sf_layouts(k)
        extra["sf_vec_size"] = int(vsz)
    ns = "SM120::BLOCKSCALED::SPARSE::" if vs else "SM120::SPARSE::"
    canon = f"{ns}SM120_SPARSE_16x8x{k}_TN{'_VS' if vs else ''}<{','.join(_ctype(x) for x in args)}>"
    return MmaAtom(canon, "sm120", (16, 8, k), Layout(32), la, lb, lc, ELEMENT_BITS[a], ELEMENT_BITS[b],
                   32 if c == "float" else 16, "K", "K", "reg", **extra)


def _sm100_f8_shape_ok(kind: str, two: bool, ts: bool, m: int, n: int, b_k: bool) -> bool:
    def steps(step: int) -> bool:
        return n % step == 0 and step <= n <= 256
    if kind == "F8F6F4":
        if two:
            return m in (128, 256) and steps(32 if ts or not b_k else 16)
        if ts:
            return (m == 64 and steps(8)) or (m == 128 and steps(16))
        return m in (64, 128) and steps(8 if b_k else 16)
    if kind == "MXF8F6F4":
        return (m == 256 and steps(16)) if two else (m == 128 and steps(8))
    return (m in (128, 256) and steps(16)) if two else (m == 128 and steps(8))


def _sm100_f8(mt: re.Match, args: list[str]) -> MmaAtom:
    kind, two, ts = mt.group(1), bool(mt.group(2)), mt.group(3) == "TS"
    nsf = 0 if kind == "F8F6F4" else 1
    nvs = 1 if kind == "MXF4" else 0
    need = 7 + nsf + nvs
    form = {"F8F6F4": "a_type,b_type,c_type,M,N", "MXF8F6F4": "a_type,b_type,c_type,sf_type,M,N",
            "MXF4": "a_type,b_type,c_type,sf_type,M,N,VS"}[kind]
    if ts and kind != "F8F6F4":
        raise _Unknown(f"CuTe has no TS form of the block-scaled {kind} atoms")
    if not need <= len(args) <= need + 3:
        raise _Unknown(f"SM100_MMA_{kind} atoms take <{form},UMMA::Major::{{K,MN}},UMMA::Major::{{K,MN}}[,...]>, got "
                       f"<{','.join(args)}>")
    a, b = (_F8F6F4_CTYPES.get(_ctype(x)) for x in args[:2])
    c = _ctype(args[2])
    sf = _SF_CTYPES.get(_ctype(args[3])) if nsf else None
    if kind == "MXF4":
        ok = a == b == "E2M1" and c == "float" and sf is not None
    else:
        ok = a is not None and b is not None and c in (("float", "half_t") if kind == "F8F6F4" else ("float",)) and (
            kind == "F8F6F4" or sf == "UE8M0")
    if not ok:
        raise _Unknown(f"{kind} atoms do not take the types <{','.join(args[:3 + nsf])}>")
    nums = args[3 + nsf:5 + nsf + nvs]
    if not all(x.isdigit() for x in nums):
        raise _Unknown(f"M, N{' and VS' if nvs else ''} must be integers, got {nums}")
    m, n = int(nums[0]), int(nums[1])
    vs = int(nums[2]) if nvs else (32 if kind == "MXF8F6F4" else 0)
    if nvs and (vs not in (16, 32) or (vs == 32 and sf != "UE8M0")):
        raise _Unknown(f"MXF4 takes VS 16, or 32 with float_ue8m0_t scale factors; got VS={vs} with {args[3]}")
    mj = [_MAJOR.match(x) for x in args[need - 2:need]]
    if not all(mj) or any(x.group(1) != "UMMA" for x in mj):
        raise _Unknown(f"majors must be UMMA::Major::K or UMMA::Major::MN, got {args[need - 2:need]}")
    if not _sm100_f8_shape_ok(kind, two, ts, m, n, mj[1].group(2) == "K"):
        raise _Unknown(f"CuTe's static_asserts reject M={m}, N={n} for SM100_MMA_{kind}{mt.group(2) or ''}_{mt.group(3)}")
    if ts and mj[0].group(2) != "K":
        raise _Unknown("A from tensor memory (TS) can't be transposed: a_major must be UMMA::Major::K")
    if any(not _SCALE.match(x) for x in args[need:]):
        raise _Unknown(f"trailing template arguments must be UMMA::ScaleIn/Saturate values, got {args[need:]}")
    k = 64 if kind == "MXF4" else 32
    thr, la, lb, lc = umma_layouts(m, n, k, two)
    canon = f"SM100_MMA_{kind}{mt.group(2) or ''}_{mt.group(3)}<{','.join(_ctype(x) for x in args)}>"
    return MmaAtom(canon, "sm100", (m, n, k), thr, la, lb, lc, ELEMENT_BITS[a], ELEMENT_BITS[b], 32 if c == "float" else 16,
                   mj[0].group(2), mj[1].group(2), "tmem" if ts else "smem", sf_vec_size=vs)


_SM100_SPARSE = re.compile(r"^SM100_MMA_(TF32|F16BF16|S8|F8F6F4|MXF8F6F4|MXF4NVF4)(_2x1SM)?_SS_SPARSE$")

#: Sparse UMMA: kind -> (K, scale-factor type argument, VS argument)
_SPARSE_KINDS: dict[str, tuple[int, bool, bool]] = {"TF32": (16, False, False), "F16BF16": (32, False, False),
                                                     "S8": (64, False, False), "F8F6F4": (64, False, False),
                                                     "MXF8F6F4": (64, True, False), "MXF4NVF4": (128, True, True)}


def _sm100_sparse_shape_ok(kind: str, two: bool, m: int, n: int) -> bool:
    def steps(step: int) -> bool:
        return n % step == 0 and step <= n <= 256
    if two:
        if kind == "MXF8F6F4":
            return m == 256 and steps(16)
        return m in (128, 256) and steps(32 if kind in ("S8", "F8F6F4") else 16)
    if kind in ("MXF8F6F4", "MXF4NVF4"):
        return m == 128 and steps(8)
    if kind == "S8":
        return m in (64, 128) and (n == 8 or steps(16))
    if kind == "F8F6F4":
        return (m == 64 and steps(8)) or (m == 128 and steps(16))
    return m in (64, 128) and steps(8)


def _sm100_sparse(mt: re.Match, args: list[str]) -> MmaAtom:
    """Sparse tcgen05.mma (2:4 A): K doubles; the metadata lives in tensor memory (no thread-value layout in CuTe)."""
    kind, two = mt.group(1), bool(mt.group(2))
    k, has_sf, has_vs = _SPARSE_KINDS[kind]
    need = 7 + has_sf + has_vs
    if not need <= len(args) <= need + 2:
        raise _Unknown(f"SM100_MMA_{kind}_SS_SPARSE takes <a_type,b_type,c_type{',sf_type' if has_sf else ''},M,N"
                       f"{',VS' if has_vs else ''},UMMA::Major::..,UMMA::Major::..[,...]>, got <{','.join(args)}>")
    tys = [_ctype(x) for x in args[:3]]
    f8 = [_F8F6F4_CTYPES.get(x) for x in tys[:2]]
    um = [_UMMA_CTYPES.get(x) for x in tys]
    sf = _SF_CTYPES.get(_ctype(args[3])) if has_sf else None
    ok = {"TF32": um[0] == um[1] == "TF32" and um[2] == "F32",
          "F16BF16": um[0] == um[1] and um[0] in ("F16", "BF16") and um[2] in ("F16", "F32"),
          "S8": um[0] in ("S8", "U8") and um[1] in ("S8", "U8") and um[2] == "S32",
          "F8F6F4": None not in f8 and tys[2] in ("float", "half_t"),
          "MXF8F6F4": None not in f8 and tys[2] == "float" and sf == "UE8M0",
          "MXF4NVF4": f8 == ["E2M1", "E2M1"] and tys[2] == "float" and sf is not None}[kind]
    if not ok:
        raise _Unknown(f"SM100_MMA_{kind}_SS_SPARSE does not take the types <{','.join(args[:3 + has_sf])}>")
    nums = args[3 + has_sf:5 + has_sf + has_vs]
    if not all(x.isdigit() for x in nums):
        raise _Unknown(f"M, N{' and VS' if has_vs else ''} must be integers, got {nums}")
    m, n = int(nums[0]), int(nums[1])
    vs = int(nums[2]) if has_vs else (64 if kind == "MXF8F6F4" else 0)
    if has_vs and (vs not in (32, 64) or (vs == 64 and sf != "UE8M0")):
        raise _Unknown(f"MXF4NVF4 sparse takes VS 32, or 64 with float_ue8m0_t scale factors; got VS={vs}")
    if not _sm100_sparse_shape_ok(kind, two, m, n):
        raise _Unknown(f"CuTe's static_asserts reject M={m}, N={n} for SM100_MMA_{kind}{mt.group(2) or ''}_SS_SPARSE")
    mj = [_MAJOR.match(x) for x in args[need - 2:need]]
    if not all(mj) or any(x.group(1) != "UMMA" for x in mj):
        raise _Unknown(f"majors must be UMMA::Major::K or UMMA::Major::MN, got {args[need - 2:need]}")
    if any(not _SCALE.match(x) for x in args[need:]):
        raise _Unknown(f"trailing template arguments must be UMMA::ScaleIn/Saturate values, got {args[need:]}")
    thr, la, lb, lc = umma_layouts(m, n, k, two)
    bits = {"TF32": 32, "F16BF16": 16, "S8": 8}.get(kind)
    ab = (bits, bits) if bits else (ELEMENT_BITS[f8[0]], ELEMENT_BITS[f8[1]])
    cbits = 16 if tys[2] == "half_t" else 32
    canon = f"SM100_MMA_{kind}{mt.group(2) or ''}_SS_SPARSE<{','.join(_ctype(x) for x in args)}>"
    return MmaAtom(canon, "sm100", (m, n, k), thr, la, lb, lc, ab[0], ab[1], cbits, mj[0].group(2), mj[1].group(2),
                   "smem", sf_vec_size=vs)


_SM103 = re.compile(r"^(?:SM103::)?SM103_MXF4_ULTRA(_2x1SM)?_SS_VS$")


def _sm103(mt: re.Match, args: list[str]) -> MmaAtom:
    """sm103's MXF4 "ultra" UMMA: K = 96 FP4 elements, both operands K-major."""
    two = bool(mt.group(1))
    if not 9 <= len(args) <= 11:
        raise _Unknown("SM103_MXF4_ULTRA atoms take <a_type,b_type,c_type,sf_type,M,N,VS,UMMA::Major::K,UMMA::Major::K"
                       f"[,...]>, got <{','.join(args)}>")
    a, b = (_F8F6F4_CTYPES.get(_ctype(x)) for x in args[:2])
    c, sf = _ctype(args[2]), _SF_CTYPES.get(_ctype(args[3]))
    if not (a == b == "E2M1" and c == "float" and sf is not None):
        raise _Unknown(f"SM103_MXF4_ULTRA takes float_e2m1_t x2, float and float_ue{{8m0,4m3}}_t, got <{','.join(args[:4])}>")
    if not all(x.isdigit() for x in args[4:7]):
        raise _Unknown(f"M, N and VS must be integers, got {args[4:7]}")
    m, n, vs = (int(x) for x in args[4:7])
    if m not in ((128, 256) if two else (128,)) or n % 16 or not 16 <= n <= 256:
        raise _Unknown(f"CuTe's static_asserts reject M={m}, N={n} for SM103_MXF4_ULTRA{mt.group(1) or ''}_SS_VS")
    if vs not in (16, 32) or (vs == 32 and sf != "UE8M0"):
        raise _Unknown(f"SM103_MXF4_ULTRA takes VS 16, or 32 with float_ue8m0_t; got VS={vs}")
    mj = [_MAJOR.match(x) for x in args[7:9]]
    if not all(mj) or any(x.group(1) != "UMMA" or x.group(2) != "K" for x in mj):
        raise _Unknown(f"SM103_MXF4_ULTRA does not support transpose: majors must be UMMA::Major::K, got {args[7:9]}")
    if any(not _SCALE.match(x) for x in args[9:]):
        raise _Unknown(f"trailing template arguments must be UMMA::ScaleIn values, got {args[9:]}")
    thr, la, lb, lc = umma_layouts(m, n, 96, two)
    canon = f"SM103::SM103_MXF4_ULTRA{mt.group(1) or ''}_SS_VS<{','.join(_ctype(x) for x in args)}>"
    return MmaAtom(canon, "sm103", (m, n, 96), thr, la, lb, lc, 4, 4, 32, "K", "K", "smem", sf_vec_size=vs)


def sm103_atom_names() -> list[str]:
    """sm103's MXF4 "ultra" UMMA atoms at a representative set of M, N, scale types (part of :func:`more_mma_atom_names`).

    Pre: none. Post: canonical names.

    >>> sm103_atom_names()[0]
    'SM103::SM103_MXF4_ULTRA_SS_VS<float_e2m1_t,float_e2m1_t,float,float_ue8m0_t,128,16,32,UMMA::Major::K,UMMA::Major::K>'
    """
    out = []
    for two, ms in (("", (128,)), ("_2x1SM", (128, 256))):
        for m in ms:
            for n in (16, 128, 256):
                for sf, vs in (("float_ue8m0_t", 32), ("float_ue8m0_t", 16), ("float_ue4m3_t", 16)):
                    out.append(f"SM103::SM103_MXF4_ULTRA{two}_SS_VS<float_e2m1_t,float_e2m1_t,float,{sf},{m},{n},{vs},"
                               "UMMA::Major::K,UMMA::Major::K>")
    return out


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
        if base.startswith("cute::"):
            base = base[6:]
        if base in _MMA_SYNC:
            if args:
                raise _Unknown(f"{base} takes no template arguments")
            return _mma_sync_atom(base)
        mt = _SM90_SPARSE.match(base)
        if mt is not None:
            return _sm90_sparse(mt, args)
        mt = _SM120.match(base)
        if mt is not None:
            return _sm120(mt, args)
        mt = _SM120_SPARSE.match(base)
        if mt is not None:
            return _sm120_sparse(mt, args)
        mt = _SM103.match(base)
        if mt is not None:
            return _sm103(mt, args)
        mt = _SM100_F8.match(base)
        if mt is not None:
            return _sm100_f8(mt, args)
        mt = _SM100_SPARSE.match(base)
        if mt is not None:
            return _sm100_sparse(mt, args)
        mt = _SM90.match(base)
        if mt is not None:
            return _sm90(mt, args)
        mt = _SM100.match(base)
        if mt is not None:
            return _sm100(mt, args)
        mt = _MMA_SYNC_LIKE.match(base)
        if mt is not None:
            raise _Unknown(f"CuTe has no {mt.group(1).lower()} atom {base} (a register-operand mma.sync atom; "
                           "the known ones are listed below)")
        raise _Unknown("not an MMA atom name CuTe defines")
    except _Unknown as e:
        fams = "; ".join(_FAMILIES)
        raise LayoutValueError(f"mma_atom: unknown MMA atom {fmt(name)}: {e}. Known families: {fams}") from None


def mma_atom_names(*, majors: bool = False, extended: bool = False) -> list[str]:
    """Every MMA atom name of :func:`mma_families` (sm100: a representative set of M, N and types).

    Pre: none. Post: canonical names; with ``majors=True`` the 16-bit GMMA atoms come in every
    major combination CuTe accepts (RS: A K-major), else K-major only. Without ``extended`` only the
    sm80 mma.sync, dense wgmma and sm100 TF32/F16BF16/S8 families (the first set this package had);
    with it, also every family added since (:func:`more_mma_atom_names`).

    >>> names = mma_atom_names()
    >>> len([n for n in names if n.startswith("SM90_")]), names[0]
    (1056, 'SM80_16x8x8_F16F16F16F16_TN')
    """
    extended = check_bool("mma_atom_names", "extended", extended)
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
    return out + more_mma_atom_names() if extended else out


def more_mma_atom_names() -> list[str]:
    """The MMA atoms of the second set: sm61, sm70, sm75, the remaining sm80, sm89, sm90 F64/C64 and
    sparse wgmma (every N, both majors), sm120 (block-scaled too), sm100 F8F6F4/MXF8F6F4/MXF4.

    Pre: none. Post: canonical names (sm100: a representative set of M, N, types and majors).

    >>> names = more_mma_atom_names()
    >>> names[0], "SM80_16x8x256_S32U1U1S32_TN_XORPOPC" in names
    ('SM61_DP4A', True)
    """
    old = set(mma_atom_names())
    out = [n for n in _MMA_SYNC if n not in old]
    f8 = ("float_e4m3_t", "float_e5m2_t", "float_e3m2_t", "float_e2m3_t", "float_e2m1_t")
    out += [f"SM120_16x8x32_TN<{a},{b},{c}>" for a in f8 for b in f8 for c in ("float", "half_t")]
    out += [f"SM120::BLOCKSCALED::SM120_16x8x32_TN_VS<{a},{b},float,float_ue8m0_t,32>" for a in f8 for b in f8]
    out += [f"SM120::BLOCKSCALED::SM120_16x8x64_TN_VS<float_e2m1_t,float_e2m1_t,float,{sf},{vs}>"
            for sf in ("float_ue8m0_t", "float_ue4m3_t") for vs in (16, 32)]
    for ss in ("SS", "RS"):
        for n in gmma_n_values(False):
            for t in ("F16F16F16", "F32F16F16", "F32BF16BF16"):
                out += [f"SM90::GMMA::SPARSE::GMMA_64x{n}x32_{t}_{ss}<GMMA::Major::{a},GMMA::Major::{b}>"
                        for a in ("K", "MN") for b in ("K", "MN") if ss == "SS" or a == "K"]
            out.append(f"SM90::GMMA::SPARSE::GMMA_64x{n}x16_F32TF32TF32_{ss}_TN")
            out += [f"SM90::GMMA::SPARSE::GMMA_64x{n}x64_{d}{a}{b}_{ss}_TN" for d in ("F16", "F32")
                    for a in ("E4M3", "E5M2") for b in ("E4M3", "E5M2")]
        for n in gmma_n_values(True):
            out += [f"SM90::GMMA::SPARSE::GMMA_64x{n}x64_S32{a}{b}_{ss}_TN{sat}" for a in ("S8", "U8")
                    for b in ("S8", "U8") for sat in ("", "_SATURATE")]
    mj = ("UMMA::Major::K,UMMA::Major::K", "UMMA::Major::K,UMMA::Major::MN", "UMMA::Major::MN,UMMA::Major::MN")
    sparse = {"TF32": "tfloat32_t,tfloat32_t,float", "F16BF16": "bfloat16_t,bfloat16_t,float", "S8": "int8_t,uint8_t,int32_t",
              "F8F6F4": "float_e4m3_t,float_e2m1_t,half_t", "MXF8F6F4": "float_e5m2_t,float_e3m2_t,float,float_ue8m0_t",
              "MXF4NVF4": "float_e2m1_t,float_e2m1_t,float,float_ue8m0_t"}
    for kind, ty in sparse.items():
        for two, ms in (("", (64, 128)), ("_2x1SM", (128, 256))):
            for m in ms:
                if (kind.startswith("MX") and m != (256 if two and kind == "MXF8F6F4" else 128)) or \
                        (kind == "MXF8F6F4" and two and m != 256):
                    continue
                for n in (32, 64, 256):
                    vs = ",64" if kind == "MXF4NVF4" else ""
                    out += [f"SM100_MMA_{kind}{two}_SS_SPARSE<{ty},{m},{n}{vs},{x}>" for x in (mj[0], mj[2])]
    for two, ms in (("", (64, 128)), ("_2x1SM", (128, 256))):
        for ss in ("SS", "TS"):
            out += [f"SM100_MMA_F16BF16{two}_{ss}_SCALED<{ty},{m},{n},{x},{sc}>" for m in ms for n in (64, 256)
                    for ty, x, sc in (("half_t,half_t,float", mj[0], 1), ("bfloat16_t,bfloat16_t,float", mj[1], 3))]
    for two, ms in (("", (64, 128)), ("_2x1SM", (128, 256))):
        for ss in ("SS", "TS"):
            for m in ms:
                for n in (32, 64, 256):
                    for ty in ("float_e4m3_t,float_e4m3_t,float", "float_e2m1_t,float_e3m2_t,half_t"):
                        out += [f"SM100_MMA_F8F6F4{two}_{ss}<{ty},{m},{n},{x}>" for x in mj
                                if ss == "SS" or x.startswith("UMMA::Major::K,")]
        for n in (32, 64, 256):
            m = 256 if two else 128
            out += [f"SM100_MMA_MXF8F6F4{two}_SS<{ty},float,float_ue8m0_t,{m},{n},{x}>" for x in mj
                    for ty in ("float_e4m3_t,float_e4m3_t", "float_e2m1_t,float_e2m3_t")]
            out += [f"SM100_MMA_MXF4{two}_SS<float_e2m1_t,float_e2m1_t,float,{sf},{m},{n},{vs},{x}>" for x in mj
                    for sf, vs in (("float_ue8m0_t", 32), ("float_ue8m0_t", 16), ("float_ue4m3_t", 16))]
    return out + sm120_sparse_atom_names() + sm103_atom_names()


def sm120_sparse_atom_names() -> list[str]:
    """The sparse sm120 mma.sync atoms (plain and block-scaled), every type combination CuTe defines.

    Pre: none. Post: canonical names (part of :func:`more_mma_atom_names`).

    >>> len(sm120_sparse_atom_names()), sm120_sparse_atom_names()[-1]
    (78, 'SM120::BLOCKSCALED::SPARSE::SM120_SPARSE_16x8x128_TN_VS<float_e2m1_t,float_e2m1_t,float,float_ue4m3_t,32>')
    """
    f8 = ("float_e4m3_t", "float_e5m2_t", "float_e3m2_t", "float_e2m3_t", "float_e2m1_t")
    out = [f"SM120::SPARSE::SM120_SPARSE_16x8x64_TN<{a},{b},{c}>" for a in f8 for b in f8 for c in ("float", "half_t")]
    out += [f"SM120::BLOCKSCALED::SPARSE::SM120_SPARSE_16x8x64_TN_VS<{a},{b},float,float_ue8m0_t,64>" for a in f8
            for b in f8]
    out += [f"SM120::BLOCKSCALED::SPARSE::SM120_SPARSE_16x8x128_TN_VS<float_e2m1_t,float_e2m1_t,float,{sf},{vs}>"
            for sf, vs in (("float_ue8m0_t", 32), ("float_ue8m0_t", 64), ("float_ue4m3_t", 32))]
    return out
