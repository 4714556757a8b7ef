"""Copy atoms: CuTe's thread-value layouts of ldmatrix (sm75), stmatrix (sm90) and tcgen05.ld/st (sm100).

CuTe describes a copy atom by ``ThrID`` and three layouts in **bits**: ``SrcLayout`` and
``DstLayout`` map (thread, value-bit) of the source and destination to a bit of a *reference*
tile, and ``RefLayout`` is the one of the two the reference is spelled in. Built here by formula:

* **ldmatrix.m8n8.x{1,2,4}.b16** (``SM75_U32x{1,2,4}_LDSM_N``; ``.trans``: ``SM75_U16x{2,4,8}_LDSM_T``).
  The reference is ``8 * nm`` rows of 128 bits (``nm`` matrices; bit ``b`` of row ``r`` is
  ``128 * r + b``). Source: thread ``t < 8 * nm`` gives the address of row ``t`` (the other
  threads' addresses are ignored: stride 0). Destination, without ``.trans``: thread ``t`` gets
  32 bits per matrix, bits ``32 * t .. 32 * t + 31`` of its row ``t / 4``; with ``.trans`` two
  16-bit elements per matrix, rows ``2 * (t % 4)`` and ``+ 1`` of 16-bit column ``t / 4``.
* **stmatrix** (``SM90_U32x{1,2,4}_STSM_N``, ``SM90_U16x{2,4,8}_STSM_T``): ldmatrix reversed
  (source and destination swapped; the reference is the register side).
* **tcgen05.ld / tcgen05.st** (``SM100_TMEM_LOAD_<shape><r>x[_16b]``, ``SM100_TMEM_STORE_...``).
  The reference is a tensor-memory tile of ``dp`` data-path lanes (32 or 16) by ``W`` bits
  (``W`` = shape width x repetitions ``r``), bit ``b`` of lane ``l`` being ``b + W * l``; the
  TMEM side is every thread's view of the whole tile (thread stride 0). Register side per shape:
  ``32dp32b`` thread t = lane t, all W bits; ``16dp256b`` thread ``t4 + 4 g``: lanes ``g`` and
  ``g + 8``, 64 bits at ``64 t4`` of each 256-bit repetition; ``16dp128b`` the same with 32
  bits; ``16dp64b`` lane ``t/4 + 8 (t%2)``, 32 bits at ``32 ((t/2)%2)`` of each 64-bit
  repetition; ``16dp32b`` (PTX ``16x32bx2``) lane ``t % 16``, the half-warp ``t / 16`` at
  ``W / 2``. ``_16b`` (pack/unpack 16-bit) atoms have the same layouts.

>>> a = parse_copy_name("SM75_U16x8_LDSM_T")
>>> str(a.src_layout), str(a.dst_layout)
('(32,128):(128,1)', '((4,8),(16,2,4)):((256,16),(1,128,1024))')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..core.display import rich_repr
from ..core.layout import Layout
from ..errors import LayoutTypeError, LayoutValueError, UnitError
from ..limits import check_bool, check_count, check_fields, check_sequence, check_type, fmt
from .access import AccessPattern

__all__ = ["CopyAtom", "parse_copy_name", "copy_families", "ldsm_layouts", "tmem_layouts", "TMEM_SHAPES", "copy_atom_names",
           "more_copy_atom_names", "CXX_TYPE_BITS", "TMA_OPS", "single_issue_layouts", "shuffle_transpose_layouts",
           "ldsm_b8_trans_layouts", "utccp_layouts"]

#: Bits of the C++ value types CuTe's UniversalCopy / cp.async atoms take (``sizeof_bits``).
CXX_TYPE_BITS: dict[str, int] = {
    "uint8_t": 8, "int8_t": 8, "uint16_t": 16, "int16_t": 16, "uint32_t": 32, "int32_t": 32, "uint64_t": 64,
    "int64_t": 64, "uint128_t": 128, "half_t": 16, "bfloat16_t": 16, "tfloat32_t": 32, "float": 32, "double": 64,
    "float_e4m3_t": 8, "float_e5m2_t": 8, "uint1b_t": 1, "int4b_t": 4, "uint4b_t": 4, "uint256_t": 256,
}

#: TMA / bulk-copy operations -> the number of "threads" CuTe's traits give them (2 for the 2-SM loads).
TMA_OPS: dict[str, int] = {
    "SM90_TMA_LOAD": 1, "SM90_TMA_LOAD_MULTICAST": 1, "SM90_TMA_STORE": 1, "SM90_TMA_REDUCE_ADD": 1,
    "SM90_BULK_COPY_G2S": 1, "SM90_BULK_COPY_S2G": 1, "SM100_TMA_2SM_LOAD": 2, "SM100_TMA_2SM_LOAD_MULTICAST": 2,
    "SM90_TMA_LOAD_IM2COL": 1, "SM90_TMA_LOAD_IM2COL_MULTICAST": 1, "SM90_TMA_STORE_IM2COL": 1,
    "SM100_TMA_2SM_LOAD_IM2COL": 2, "SM100_TMA_2SM_LOAD_IM2COL_MULTICAST": 2,
}

#: Fixed one-thread copies -> bits moved (the global loads/stores of sm100 with a cache hint).
_FIXED_SINGLE: dict[str, int] = {"SM100_LOAD_256bit_CACHE_NOALLOCATION": 256,
                                 "SM100_STORE_256bit_CACHE_NOALLOCATION": 256}

#: tcgen05.ld/st shapes: name -> (data-path lanes, bits per repetition, largest repetition CuTe defines).
TMEM_SHAPES: dict[str, tuple[int, int, int]] = {
    "32dp32b": (32, 32, 128), "16dp64b": (16, 64, 128), "16dp128b": (16, 128, 64), "16dp256b": (16, 256, 32),
    "16dp32b": (16, 64, 128),
}

_FAMILIES = (
    "SM75_U32x{1,2,4}_LDSM_N", "SM75_U16x{2,4,8}_LDSM_T", "SM90_U32x{1,2,4}_STSM_N", "SM90_U16x{2,4,8}_STSM_T",
    "SM100_TMEM_{LOAD,STORE}_{32dp32b,16dp64b,16dp128b,16dp256b,16dp32b}{1,2,4,..,128}x[_16b] "
    "(at most 32x for 16dp256b, 64x for 16dp128b)",
    "UniversalCopy<S[,D]> (S, D: C++ value types, e.g. uint128_t, half_t)",
    "SM80_CP_ASYNC_{CACHEALWAYS,CACHEGLOBAL}[_ZFILL]<S[,D]> (4, 8 or 16 bytes; CACHEGLOBAL 16)",
    "{SM90_TMA_LOAD,SM90_TMA_LOAD_MULTICAST,SM90_TMA_STORE,SM90_TMA_REDUCE_ADD,SM90_BULK_COPY_G2S,SM90_BULK_COPY_S2G,"
    "SM100_TMA_2SM_LOAD,SM100_TMA_2SM_LOAD_MULTICAST}<NumBitsPerTMA>, SM90_BULK_COPY_AUTO",
    "{SM90_TMA_LOAD_IM2COL,SM90_TMA_LOAD_IM2COL_MULTICAST,SM90_TMA_STORE_IM2COL,SM100_TMA_2SM_LOAD_IM2COL,"
    "SM100_TMA_2SM_LOAD_IM2COL_MULTICAST}<NumBitsPerTMA>",
    "SM100_{LOAD,STORE}_256bit_CACHE_NOALLOCATION, AutoVectorizingCopyWithAssumedAlignment<MaxVecBits>",
    "SM50_Shuffle_U32_2x2Trans_{XOR1,XOR4}, SM75_U32x1_MOVM_T",
    "SM100_U8x{8,16}_LDSM_T, SM100_U8x{4,8,16}_STSM_T, SM100_SU{4,6}_DU8x16_x{1,2,4}_LDSM_N",
    "SM100_UTCCP_{128dp256bit,128dp128bit,4dp256bit,4x32dp128bit,2x64dp128bitlw0213,2x64dp128bitlw0123}_{1,2}cta",
)


def copy_families() -> tuple[str, ...]:
    """The copy atom name families :func:`parse_copy_name` knows, as patterns.

    Pre: none. Post: a tuple of patterns.

    >>> copy_families()[0]
    'SM75_U32x{1,2,4}_LDSM_N'
    """
    return _FAMILIES


@dataclass(frozen=True)
class CopyAtom:
    """One copy instruction as CuTe's ``Copy_Traits`` describe it; layouts are in bits.

    ``kind`` is ``"ldsm"``, ``"stsm"``, ``"tmem_load"`` or ``"tmem_store"``; ``num_matrices`` the
    8x8 b16 matrices of ldmatrix/stmatrix (0 for TMEM), ``trans`` the ``.trans`` qualifier,
    ``tmem_shape``/``repeat`` the tcgen05 shape and repetition count.

    >>> a = parse_copy_name("SM90_U32x4_STSM_N")
    >>> a.kind, a.num_matrices, str(a.ref_layout) == str(a.src_layout)
    ('stsm', 4, True)
    """

    name: str
    kind: str
    thr_id: Layout
    src_layout: Layout
    dst_layout: Layout
    ref_layout: Layout
    num_matrices: int = 0
    trans: bool = False
    tmem_shape: str = ""
    repeat: int = 0

    def _repr_svg_(self) -> str | None:
        """IPython's display protocol: the picture (see :mod:`pycute_layouts.core.display`), or None for text."""
        return rich_repr(self, "svg")

    def __post_init__(self) -> None:
        check_fields(self)

    @property
    def smem_side(self) -> str:
        """Which side is shared memory (``"src"`` for ldmatrix, ``"dst"`` for stmatrix, ``""`` for TMEM atoms).

        Pre: none. Post: one of ``"src"``, ``"dst"``, ``""``.

        >>> parse_copy_name("SM75_U32x1_LDSM_N").smem_side
        'src'
        """
        return {"ldsm": "src", "stsm": "dst"}.get(self.kind, "")

    @property
    def register_layout(self) -> Layout:
        """The register side's (thread, bit) -> reference bit layout.

        Pre: none. Post: ``dst_layout`` for loads (ldmatrix, tcgen05.ld), ``src_layout`` for stores.

        >>> str(parse_copy_name("SM100_TMEM_LOAD_32dp32b2x").register_layout)
        '(32,64):(64,1)'
        """
        return self.dst_layout if self.kind in ("ldsm", "tmem_load") else self.src_layout

    def smem_row_threads(self) -> tuple[tuple[int, int], ...]:
        """For ldmatrix/stmatrix: (thread, 128-bit row of the reference) of every thread whose address is used.

        Pre: an ldmatrix/stmatrix atom (LayoutValueError otherwise). Post: sorted pairs, one per row.
        A thread is used when it is the first to name its row (the others have stride 0 in CuTe's layout).

        >>> parse_copy_name("SM75_U32x1_LDSM_N").smem_row_threads()[-1]
        (7, 7)
        """
        if not self.smem_side:
            raise LayoutValueError(f"CopyAtom.smem_row_threads: {self.name} does not touch shared memory")
        lay = self.src_layout if self.smem_side == "src" else self.dst_layout
        seen: dict[int, int] = {}
        for t in range(32):
            seen.setdefault(int(lay(t, 0)) // 128, t)
        return tuple(sorted((t, r) for r, t in seen.items()))

    def access_pattern(self, *, element_bits: int = 16, matrix_origins: Any = None) -> AccessPattern:
        """The shared-memory addresses of a warp executing this ldmatrix/stmatrix atom, for bank analysis.

        Pre: an LDSM/STSM atom; element_bits in 8..128; matrix_origins one (row, col) per matrix
        (default: matrix m at column m * 128 / element_bits). Post: an AccessPattern of 16-byte rows:
        the threads :meth:`smem_row_threads` names, each at row ``r % 8`` of matrix ``r // 8``.
        :func:`pycute_layouts.analysis.banks.bank_conflicts` takes the atom itself and calls this.

        >>> parse_copy_name("SM75_U16x4_LDSM_T").access_pattern(matrix_origins=[(0, 0), (8, 0)]).coords[9]
        (9, 0)
        """
        if not self.smem_side:
            raise LayoutValueError(f"CopyAtom.access_pattern: {self.name} moves tensor memory, not shared memory")
        if isinstance(element_bits, bool) or type(element_bits) is not int or element_bits not in (8, 16, 32, 64, 128):
            raise UnitError(f"CopyAtom.access_pattern: element_bits must be 8, 16, 32, 64 or 128, got {fmt(element_bits)}")
        row_elems = 128 // element_bits
        origins = [(0, m * row_elems) for m in range(self.num_matrices)] if matrix_origins is None \
            else check_sequence("CopyAtom.access_pattern", "matrix_origins", matrix_origins, 64)
        if len(origins) != self.num_matrices:
            raise LayoutValueError(f"CopyAtom.access_pattern: {self.name} moves {self.num_matrices} matrices; "
                                   f"matrix_origins has {len(origins)} entries")
        coords: list[Any] = [None] * 32
        for t, row in self.smem_row_threads():
            r0, c0 = origins[row // 8]
            coords[t] = (int(r0) + row % 8, int(c0))
        return AccessPattern(self.name, 16, tuple(coords))


def ldsm_layouts(num_matrices: int, trans: bool) -> tuple[Layout, Layout]:
    """(shared-memory side, register side) of ldmatrix ``.x{num_matrices}`` in bits (CuTe's Src/DstLayout).

    Pre: num_matrices in (1, 2, 4). Post: smem ((8nm,32/(8nm)),128):((128,0),1) (coalesced to (32,128):(128,1)
    for x4); registers (32,(32,nm)):(32,(1,1024)), or ((4,8),(16,2,nm)):((256,16),(1,128,1024)) with .trans.

    >>> [str(x) for x in ldsm_layouts(2, False)]
    ['((16,2),128):((128,0),1)', '(32,(32,2)):(32,(1,1024))']
    """
    check_count("ldsm_layouts", "num_matrices", num_matrices, 1, 4, LayoutValueError)
    check_bool("ldsm_layouts", "trans", trans)
    if isinstance(num_matrices, bool) or num_matrices not in (1, 2, 4):
        raise LayoutValueError(f"ldsm_layouts: num_matrices must be 1, 2 or 4, got {fmt(num_matrices)}")
    rows = 8 * num_matrices
    smem = Layout((32, 128), (128, 1)) if rows == 32 else Layout(((rows, 32 // rows), 128), ((128, 0), 1))
    if trans:
        vals = (16, 2, num_matrices) if num_matrices > 1 else (16, 2)
        regs = Layout(((4, 8), vals), ((256, 16), (1, 128, 1024)[:len(vals)]))
    else:
        regs = Layout((32, 32), (32, 1)) if num_matrices == 1 else Layout((32, (32, num_matrices)), (32, (1, 1024)))
    return smem, regs


def tmem_layouts(shape: str, repeat: int) -> tuple[Layout, Layout]:
    """(tensor-memory side, register side) of ``tcgen05.ld/st`` with ``shape`` and ``repeat`` in bits.

    Pre: shape in :data:`TMEM_SHAPES`, repeat a power of two up to the shape's limit. Post: the TMEM
    side (32,dp*W):(0,1); the register side per the module docstring.

    >>> [str(x) for x in tmem_layouts("16dp256b", 2)]
    ['(32,8192):(0,1)', '((4,8),(64,2,2)):((64,512),(1,4096,256))']
    """
    check_type("tmem_layouts", "shape", shape, str, LayoutValueError)
    if shape not in TMEM_SHAPES:
        raise LayoutValueError(f"tmem_layouts: unknown tcgen05 shape {fmt(shape)}; known: {', '.join(TMEM_SHAPES)}")
    dp, bits, rmax = TMEM_SHAPES[shape]
    if isinstance(repeat, bool) or not isinstance(repeat, int) or repeat < 1 or repeat > rmax or repeat & (repeat - 1):
        raise LayoutValueError(f"tmem_layouts: {shape} repeats 1, 2, 4, .. {rmax} times, got {fmt(repeat)}")
    w = bits * repeat
    tmem = Layout((32, dp * w), (0, 1))
    if shape == "32dp32b":
        regs = Layout((32, w), (w, 1))
    elif shape in ("16dp256b", "16dp128b"):
        chunk = bits // 4
        vals, vstr = ((chunk, 2, repeat), (1, 8 * w, bits)) if repeat > 1 else ((chunk, 2), (1, 8 * w))
        regs = Layout(((4, 8), vals), ((chunk, w), vstr))
    elif shape == "16dp64b":
        vals2, vstr2 = ((32, repeat), (1, 64)) if repeat > 1 else (32, 1)
        regs = Layout(((2, 2, 8), vals2), ((8 * w, 32, w), vstr2))
    else:
        regs = Layout(((16, 2), w // 2), ((w, w // 2), 1))
    return tmem, regs


def single_issue_layouts(src_bits: int, dst_bits: int, threads: int = 1) -> tuple[Layout, Layout, Layout]:
    """(ThrID, SrcLayout, DstLayout) of a copy one thread issues for its whole payload (UniversalCopy, cp.async, TMA).

    One "thread" moves ``src_bits`` as one value: (1, src_bits):(0, 1). The 2-SM TMA loads have two
    (the peer CTAs), each its own payload: (2, bits):(bits, 1).
    Pre: positive bit counts, threads 1 or 2. Post: the layouts of CuTe's Copy_Traits.

    >>> [str(x) for x in single_issue_layouts(128, 128)]
    ['1:0', '(1,128):(0,1)', '(1,128):(0,1)']
    """
    for v in (src_bits, dst_bits):
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise LayoutValueError(f"single_issue_layouts: bit counts must be positive ints, got {fmt(v)}")
    threads = check_count("single_issue_layouts", "threads", threads, error=LayoutValueError)
    if threads == 2:
        return Layout(2, 1), Layout((2, src_bits), (src_bits, 1)), Layout((2, dst_bits), (dst_bits, 1))
    if threads != 1:
        raise LayoutValueError(f"single_issue_layouts: threads must be 1 or 2, got {fmt(threads)}")
    return Layout(1, 0), Layout((1, src_bits), (0, 1)), Layout((1, dst_bits), (0, 1))


def shuffle_transpose_layouts(xor: int) -> tuple[Layout, Layout]:
    """(SrcLayout, DstLayout) in bits of ``SM50_Shuffle_U32_2x2Trans_XOR{xor}``: 2x2 transposes between lanes t, t ^ xor.

    Every thread holds two 32-bit words (source (32,64):(64,1)). Afterwards thread ``t`` holds, as its
    word j, word ``(t & xor) != 0`` of thread ``(t & ~xor) | j * xor``: with ``t = a + xor * b + 2 xor * c``
    the bit offset is ``64 (a + xor j + 2 xor c) + 32 b + bit``.
    Pre: xor in (1, 4). Post: the two layouts of CuTe's traits.

    >>> print(shuffle_transpose_layouts(4)[1])
    ((4,2,4),(32,2)):((64,32,512),(1,256))
    """
    if check_count("shuffle_transpose_layouts", "xor", xor, error=LayoutValueError) not in (1, 4):
        raise LayoutValueError(f"shuffle_transpose_layouts: CuTe has XOR1 and XOR4, got {fmt(xor)}")
    src = Layout((32, 64), (64, 1))
    if xor == 1:
        return src, Layout(((2, 16), (32, 2)), ((32, 128), (1, 64)))
    return src, Layout(((xor, 2, 32 // (2 * xor)), (32, 2)), ((64, 32, 128 * xor), (1, 64 * xor)))


def utccp_layouts(shape: str, ctas: int) -> tuple[Layout, Layout, Layout]:
    """(ThrID, SrcLayout, DstLayout) in bits of ``tcgen05.cp`` (CuTe's ``SM100_UTCCP_<shape>_{1,2}cta``).

    The reference is the tensor-memory tile, bit ``b`` of data-path lane ``l`` at ``l + lanes * b`` (lane
    fastest) except ``4dp256bit`` (4 lanes x 256 bits at ``32 l + 128 b``). One issuing thread per CTA; both
    CTAs of a 2-CTA copy see the same tile (thread stride 0). The multicast shapes read a smaller source
    that several lane groups receive: ``4x32dp128bit`` a 32-lane source copied to 4 warps' lanes,
    ``2x64dp128bitlw0213`` a 64-lane source to 2 halves, ``2x64dp128bitlw0123`` two 32-lane halves each
    copied twice: the copy index has source stride 0.
    Pre: shape one of 128dp256bit, 128dp128bit, 4dp256bit, 4x32dp128bit, 2x64dp128bitlw0213,
    2x64dp128bitlw0123; ctas 1 or 2. Post: the three layouts.

    >>> [str(x) for x in utccp_layouts("4x32dp128bit", 2)]
    ['2:1', '(2,(32,128,4)):(0,(1,32,0))', '(2,16384):(0,1)']
    """
    ctas = check_count("utccp_layouts", "ctas", ctas, error=LayoutValueError)
    check_type("utccp_layouts", "shape", shape, str, LayoutValueError)
    if ctas not in (1, 2):
        raise LayoutValueError(f"utccp_layouts: ctas must be 1 or 2, got {fmt(ctas)}")
    thr = Layout(1, 0) if ctas == 1 else Layout(2, 1)
    shapes = {
        "128dp256bit": ((128 * 256,), (1,)),
        "128dp128bit": ((128 * 128,), (1,)),
        "4dp256bit": ((4, 256), (32, 128)),
        "4x32dp128bit": ((32, 128, 4), (1, 32, 0)),
        "2x64dp128bitlw0213": ((64, 128, 2), (1, 64, 0)),
        "2x64dp128bitlw0123": ((32, 128, 2, 2), (1, 32, 32 * 128, 0)),
    }
    if shape not in shapes:
        raise LayoutValueError(f"utccp_layouts: unknown tcgen05.cp shape {fmt(shape)}; known: {', '.join(shapes)}")
    sh, st = shapes[shape]
    src = Layout((ctas, sh if len(sh) > 1 else sh[0]), (0, st if len(st) > 1 else st[0]))
    dst = src if shape.startswith(("128dp", "4dp")) else Layout((ctas, 128 * 128), (0, 1))
    return thr, src, dst


_UTCCP = re.compile(r"^SM100_UTCCP_(128dp256bit|128dp128bit|4dp256bit|4x32dp128bit|2x64dp128bitlw0213|"
                    r"2x64dp128bitlw0123)_([12])cta$")
_AUTOVEC = re.compile(r"^AutoVectorizingCopyWithAssumedAlignment<(\d{1,8})>$")
_SHFL = re.compile(r"^SM50_Shuffle_U32_2x2Trans_XOR([14])$")
_UNIVERSAL = re.compile(r"^(UniversalCopy|SM80_CP_ASYNC_(?:CACHEALWAYS|CACHEGLOBAL)(?:_ZFILL)?)<([A-Za-z0-9_:]+)"
                        r"(?:,([A-Za-z0-9_:]+))?>$")
_TMA = re.compile(r"^([A-Z0-9_]+)<(\d+)>$")


def _value_bits(t: str, name: str) -> int:
    key = t.replace("cutlass::", "").replace("cute::", "")
    if key not in CXX_TYPE_BITS:
        raise LayoutValueError(f"copy_atom: unknown copy atom {fmt(name)}: unknown value type {fmt(t)}; known: "
                               f"{', '.join(CXX_TYPE_BITS)}"[:400])
    return CXX_TYPE_BITS[key]


def _single_issue(text: str) -> CopyAtom | None:
    m = _UNIVERSAL.match(text)
    if m is not None:
        op, s_t, d_t = m.group(1), m.group(2), m.group(3) or m.group(2)
        sb, db = _value_bits(s_t, text), _value_bits(d_t, text)
        if op.startswith("SM80"):
            sizes = (128,) if "CACHEGLOBAL" in op else (32, 64, 128)
            if sb != db or sb not in sizes:
                raise LayoutValueError(f"copy_atom: unknown copy atom {fmt(text)}: cp.async needs sizeof(S) == sizeof(D) "
                                       "of "
                                       f"{' or '.join(str(x // 8) for x in sizes)} bytes, got {sb // 8} and {db // 8}")
        thr, src, dst = single_issue_layouts(sb, db)
        return CopyAtom(text, "cp_async" if op.startswith("SM80") else "universal", thr, src, dst, src)
    if text in _FIXED_SINGLE:
        thr, src, dst = single_issue_layouts(_FIXED_SINGLE[text], _FIXED_SINGLE[text])
        return CopyAtom(text, "universal", thr, src, dst, src)
    m = _AUTOVEC.match(text)
    if m is not None:
        if not 8 <= int(m.group(1)) <= 1 << 20:
            raise LayoutValueError(f"copy_atom: unknown copy atom {fmt(text)}: MaxVecBits must be in [8, 2**20]")
        z = Layout((1, 1), (0, 0))
        return CopyAtom(text, "universal", Layout(1, 0), z, z, z)
    m = _SHFL.match(text)
    if m is not None:
        src, dst = shuffle_transpose_layouts(int(m.group(1)))
        return CopyAtom(text, "shfl", Layout(32), src, dst, src)
    m = _UTCCP.match(text)
    if m is not None:
        thr, src, dst = utccp_layouts(m.group(1), int(m.group(2)))
        return CopyAtom(text, "utccp", thr, src, dst, dst)
    if text == "SM75_U32x1_MOVM_T":
        lay = Layout((32, 32), (32, 1))
        return CopyAtom(text, "movm", Layout(32), lay, lay, lay)
    if text == "SM90_BULK_COPY_AUTO":
        return CopyAtom(text, "tma", Layout(1, 0), Layout((1, 1), (0, 0)), Layout((1, 1), (0, 0)),
                        Layout((1, 1), (0, 0)))
    m = _TMA.match(text)
    if m is not None and m.group(1) in TMA_OPS:
        bits = int(m.group(2))
        if not 0 < bits <= 1 << 40:
            raise LayoutValueError(f"copy_atom: unknown copy atom {fmt(text)}: NumBitsPerTMA must be in [1, 2**40], "
                                   f"got {bits}")
        thr, src, dst = single_issue_layouts(bits, bits, TMA_OPS[m.group(1)])
        return CopyAtom(text, "tma", thr, src, dst, src)
    return None


def ldsm_b8_trans_layouts(rows: int, load: bool) -> tuple[Layout, Layout]:
    """(shared-memory side, register side) in bits of sm100's 8-bit transposing ldmatrix/stmatrix.

    The reference is ``rows`` rows of 16 bytes (bit ``128 r + b``). Registers: thread ``t4 + 4 g`` holds the
    bytes of columns ``g`` and ``g + 8`` of rows ``2 t4``, ``2 t4 + 1`` (and ``+ 8``, ``+ 16``, ``+ 24`` in each
    further 8-row group): ((4,8),(8,2,2,rows/8)):((256,8),(1,128,64,1024)). Shared memory, stmatrix
    (``load`` False): thread t < rows gives row t, as ldmatrix.x{rows/8}; ldmatrix (``load``, the m16n16
    ``.b8`` form, rows 16 or 32): thread ``a + 2 b + 4 c + 16 d`` gives row ``a + 8 b + 2 c + 16 d``.
    Pre: rows in (8, 16, 32), ``load`` only with 16 or 32. Post: CuTe's Src/DstLayout of
    SM100_U8x{4,8,16}_STSM_T / SM100_U8x{8,16}_LDSM_T.

    >>> [str(x) for x in ldsm_b8_trans_layouts(16, True)]
    ['((2,2,4,2),128):((128,1024,256,0),1)', '((4,8),(8,2,2,2)):((256,8),(1,128,64,1024))']
    """
    rows = check_count("ldsm_b8_trans_layouts", "rows", rows, error=LayoutValueError)
    load = check_bool("ldsm_b8_trans_layouts", "load", load)
    if rows not in (8, 16, 32) or (load and rows == 8):
        raise LayoutValueError(f"ldsm_b8_trans_layouts: rows must be 8, 16 or 32 (16 or 32 for ldmatrix), got {fmt(rows)}")
    vals = (8, 2, 2, rows // 8) if rows > 8 else (8, 2, 2)
    regs = Layout(((4, 8), vals), ((256, 8), (1, 128, 64, 1024)[:len(vals)]))
    if load:
        smem = Layout(((2, 2, 4, 2), 128), ((128, 1024, 256, 2048 if rows == 32 else 0), 1))
    else:
        smem = ldsm_layouts(rows // 8, False)[0]
    return smem, regs


_SM100_LDSM = re.compile(r"^SM100_(?:U8x(4|8|16)_(LDSM|STSM)_T|SU([46])_DU8x16_x([124])_LDSM_N)$")


def _sm100_ldsm(m: re.Match, name: str) -> CopyAtom | None:
    if m.group(4) is not None:       # 4/6-bit elements unpacked into 8-bit containers: the ldmatrix.xN fragment
        nm = int(m.group(4))
        smem, regs = ldsm_layouts(nm, False)
        return CopyAtom(name, "ldsm", Layout(32), smem, regs, regs, nm, False)
    count, op = int(m.group(1)), m.group(2)
    rows = 2 * count                 # U8xN: N bytes per thread, 32 N bytes in all, 16-byte rows
    if (op == "LDSM" and count == 4):
        return None
    smem, regs = ldsm_b8_trans_layouts(rows, op == "LDSM")
    if op == "LDSM":
        return CopyAtom(name, "ldsm", Layout(32), smem, regs, regs, rows // 8, True)
    return CopyAtom(name, "stsm", Layout(32), regs, smem, regs, rows // 8, True)


_LDSM = re.compile(r"^(SM75|SM90)_U(32|16)x(\d+)_(LDSM|STSM)_(N|T)$")
_TMEM = re.compile(r"^SM100_TMEM_(LOAD|STORE)_(\d+dp\d+b)(\d+)x(_16b)?$")


def _ldsm(m: re.Match, name: str) -> CopyAtom:
    arch, bits, count, op, nt = m.group(1), int(m.group(2)), int(m.group(3)), m.group(4), m.group(5)
    ok_arch = (op == "LDSM") == (arch == "SM75")
    ok_kind = (bits, nt) in ((32, "N"), (16, "T"))
    nm = count if bits == 32 else count // 2
    if not (ok_arch and ok_kind and count * bits // 32 in (1, 2, 4) and nm in (1, 2, 4)):
        raise LayoutValueError(f"copy_atom: unknown copy atom {fmt(name)}: ldmatrix is SM75_U32x{{1,2,4}}_LDSM_N or "
                               "SM75_U16x{2,4,8}_LDSM_T, stmatrix SM90_U32x{1,2,4}_STSM_N or SM90_U16x{2,4,8}_STSM_T")
    smem, regs = ldsm_layouts(nm, nt == "T")
    if op == "LDSM":
        return CopyAtom(name, "ldsm", Layout(32), smem, regs, regs, nm, nt == "T")
    return CopyAtom(name, "stsm", Layout(32), regs, smem, regs, nm, nt == "T")


def parse_copy_name(name: str) -> CopyAtom:
    """The :class:`CopyAtom` of CuTe's copy atom ``name``.

    Pre: ``name`` is a string naming one of :func:`copy_families`. Post: the atom, layouts in bits.
    Raises LayoutValueError naming the rule (and the families) for anything else.

    >>> str(parse_copy_name("SM100_TMEM_STORE_16dp32b2x").src_layout)
    '((16,2),64):((128,64),1)'
    >>> parse_copy_name("SM75_U32x3_LDSM_N")
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.LayoutValueError: copy_atom: unknown copy atom 'SM75_U32x3_LDSM_N': ldmatrix is ...
    """
    if not isinstance(name, str):
        raise LayoutTypeError(f"copy_atom: the atom name must be a string, got {fmt(name)}")
    text = "".join(name.split())
    single = _single_issue(text)
    if single is not None:
        return single
    m = _SM100_LDSM.match(text)
    if m is not None:
        got = _sm100_ldsm(m, text)
        if got is not None:
            return got
    m = _LDSM.match(text)
    if m is not None:
        return _ldsm(m, text)
    m = _TMEM.match(text)
    if m is not None and m.group(2) in TMEM_SHAPES:
        try:
            tmem, regs = tmem_layouts(m.group(2), int(m.group(3)))
        except LayoutValueError as e:
            raise LayoutValueError(f"copy_atom: unknown copy atom {fmt(text)}: {str(e).split(': ', 1)[1]}") from None
        kw: dict[str, Any] = {"tmem_shape": m.group(2), "repeat": int(m.group(3))}
        if m.group(1) == "LOAD":
            return CopyAtom(text, "tmem_load", Layout(32), tmem, regs, tmem, **kw)
        return CopyAtom(text, "tmem_store", Layout(32), regs, tmem, tmem, **kw)
    raise LayoutValueError(f"copy_atom: unknown copy atom {fmt(name)}; known families: {'; '.join(_FAMILIES)}")


def copy_atom_names() -> list[str]:
    """Every copy atom name of :func:`copy_families` (all repetitions, with and without ``_16b``).

    Pre: none. Post: the names, ldmatrix/stmatrix first.

    >>> names = copy_atom_names()
    >>> len(names), names[-1]
    (160, 'SM100_TMEM_STORE_16dp32b128x_16b')
    """
    out = [f"SM75_U32x{c}_LDSM_N" for c in (1, 2, 4)] + [f"SM75_U16x{c}_LDSM_T" for c in (2, 4, 8)]
    out += [f"SM90_U32x{c}_STSM_N" for c in (1, 2, 4)] + [f"SM90_U16x{c}_STSM_T" for c in (2, 4, 8)]
    for op in ("LOAD", "STORE"):
        for shape, (_dp, _bits, rmax) in TMEM_SHAPES.items():
            r = 1
            while r <= rmax:
                out += [f"SM100_TMEM_{op}_{shape}{r}x", f"SM100_TMEM_{op}_{shape}{r}x_16b"]
                r *= 2
    return out


def more_copy_atom_names() -> list[str]:
    """The copy atoms of the second set: UniversalCopy, sm80 cp.async, the TMA and bulk-copy traits.

    Pre: none. Post: names (TMA atoms at a few NumBitsPerTMA values).

    >>> more_copy_atom_names()[:2]
    ['UniversalCopy<uint8_t>', 'UniversalCopy<uint16_t>']
    """
    out = [f"UniversalCopy<{t}>" for t in ("uint8_t", "uint16_t", "uint32_t", "uint64_t", "uint128_t", "half_t",
                                            "bfloat16_t", "float", "double", "uint1b_t", "uint4b_t")]
    out += ["UniversalCopy<half_t,uint16_t>", "UniversalCopy<uint32_t,float>"]
    for op in ("CACHEALWAYS", "CACHEGLOBAL", "CACHEALWAYS_ZFILL", "CACHEGLOBAL_ZFILL"):
        types = ("uint128_t",) if "GLOBAL" in op else ("uint32_t", "uint64_t", "uint128_t", "float", "double")
        out += [f"SM80_CP_ASYNC_{op}<{t}>" for t in types]
        out.append(f"SM80_CP_ASYNC_{op}<uint128_t,uint128_t>")
    out += [f"{op}<{bits}>" for op in TMA_OPS for bits in (128, 8192, 65536)]
    out.append("SM90_BULK_COPY_AUTO")
    out += list(_FIXED_SINGLE) + ["AutoVectorizingCopyWithAssumedAlignment<128>", "SM50_Shuffle_U32_2x2Trans_XOR1",
                                  "SM50_Shuffle_U32_2x2Trans_XOR4", "SM75_U32x1_MOVM_T"]
    out += ["SM100_U8x8_LDSM_T", "SM100_U8x16_LDSM_T", "SM100_U8x4_STSM_T", "SM100_U8x8_STSM_T", "SM100_U8x16_STSM_T"]
    out += [f"SM100_SU{b}_DU8x16_x{n}_LDSM_N" for b in (4, 6) for n in (1, 2, 4)]
    out += [f"SM100_UTCCP_{sh}_{c}cta" for sh in ("128dp256bit", "128dp128bit", "4dp256bit", "4x32dp128bit",
                                                  "2x64dp128bitlw0213", "2x64dp128bitlw0123") for c in (1, 2)]
    return out
