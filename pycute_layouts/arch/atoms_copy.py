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

from ..core.layout import Layout
from ..errors import LayoutTypeError, LayoutValueError, UnitError
from ..limits import check_bool, check_count, check_fields, check_sequence, check_type, fmt
from .access import AccessPattern

__all__ = ["CopyAtom", "parse_copy_name", "copy_families", "ldsm_layouts", "tmem_layouts", "TMEM_SHAPES", "copy_atom_names"]

#: tcgen05.ld/st shapes: name -> (data-path lanes, bits per repetition, largest repetition CuTe defines).
TMEM_SHAPES: dict[str, tuple[int, int, int]] = {
    "32dp32b": (32, 32, 128), "16dp64b": (16, 64, 128), "16dp128b": (16, 128, 64), "16dp256b": (16, 256, 32),
    "16dp32b": (16, 64, 128),
}

_FAMILIES = (
    "SM75_U32x{1,2,4}_LDSM_N", "SM75_U16x{2,4,8}_LDSM_T", "SM90_U32x{1,2,4}_STSM_N", "SM90_U16x{2,4,8}_STSM_T",
    "SM100_TMEM_{LOAD,STORE}_{32dp32b,16dp64b,16dp128b,16dp256b,16dp32b}{1,2,4,..,128}x[_16b] "
    "(at most 32x for 16dp256b, 64x for 16dp128b)",
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
