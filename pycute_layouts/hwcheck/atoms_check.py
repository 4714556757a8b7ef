"""Thread-value layouts of pycute_layouts.arch.atoms checked through the real instructions on a Hopper GPU.

Every kernel is generated from the library's values (nothing below is a typed table of fragments):

* **wgmma** (accumulator, and the register A of RS atoms). A and B are chosen so that
  ``D(m, n) = m + 64 n`` exactly in every element type (bf16, tf32, e4m3): with base-8 digits,
  ``A[m] = (m%8, m//8, 1, 8, 64, 0..)`` and ``B[n] = (1, 8, 64 (n%8), 64 ((n//8)%8), 64 (n//64), 0..)``
  (every entry is at most 448 = 7 * 64, exact in e4m3). The shared-memory operands are written at
  the element addresses of a K-major unswizzled canonical layout and read through the descriptor
  that :func:`pycute_layouts.arch.wgmma.make_smem_desc` derives; an RS atom's A registers are
  packed from ``atom.layout_a`` (register ``j`` of thread ``t`` = values ``j*e .. j*e+e-1``). Each
  thread writes its raw accumulator registers: register ``v`` of thread ``t`` must hold
  ``m + 64 n`` of ``(m, n) = layout_c(t, v)``.
* **ldmatrix** (``SM75_*_LDSM_*``). Shared memory holds the 16-bit element index ``e`` at element
  ``e`` of ``8 * nm`` dense 16-byte rows; thread ``t`` passes the address of the row that
  ``atom.smem_row_threads()`` gives it (unused threads: any row). Register ``j`` half ``h`` of
  thread ``t`` must hold ``dst_layout(t, 32 j + 16 h) // 16``.
* **stmatrix** (``SM90_*_STSM_*``). Thread ``t`` stores the code ``8 t + 2 j + h`` in register ``j``
  half ``h``; shared element ``src_layout(t, 32 j + 16 h) // 16`` must hold it afterwards.

* **mma.sync** (``SM80_*`` atoms, which sm_90 executes): one warp; thread ``t`` packs register ``j``
  of A (B) from ``layout_a`` (``layout_b``), values ``j*e .. j*e+e-1``, with ``A[m] = (m, 1, 0..)`` and
  ``B[n] = (1, M n, 0..)``, so ``D(m, n) = m + M n`` exactly in every type; value ``v`` of thread ``t``
  (register ``v``, or half ``v % 2`` of register ``v // 2`` for 16-bit accumulators) must hold
  ``m + M n`` of ``(m, n) = layout_c(t, v)``.
* **wgmma with f16 accumulators** (``SM90_64xNx16_F16F16F16_{SS,RS}``, N <= 32 so ``m + 64 n`` is exact
  in f16): as the f32 wgmma cases, two accumulator values per register.

* **mma.sync of every other generation sm_90 executes** (:data:`MORE_MMA_SYNC_CASES`: SM70 m8n8k4 in every quad-pair,
  SM75, SM80 f64 / s4 / u4 / 1-bit XOR and AND popc, SM89 e4m3 / e5m2 with f32 and f16 accumulators, SM90 f64
  m16n8k{4,8,16}): as the SM80 cases, with operands from :func:`sync_operands` (base-4 digits where ``(m, 1)`` and
  ``(1, M n)`` are not exact in the type, unary bit strings for 1-bit atoms), so ``D(m, n) = m + M n`` in every type.
* **dp4a** (``SM61_DP4A``): lane t's B is one-hot at element ``t % 4``, A's element k holds ``k + 1``; D must be ``t % 4 + 1``.
* **complex f64 atoms and dp2a as themselves** (``SM80_8x8x4_{C64C64C64C64,GC64C64C64GC64}_TN``,
  ``SM90_16x8x{4,8,16}_C64C64C64C64_TN``; ``SM61_DP2A`` with ``.lo`` and ``.hi``): see :mod:`.atoms_complex`.
* **cp.async atoms** (``SM80_CP_ASYNC_*``): lane t copies value t; bit ``DstLayout(0, b)`` of the destination must hold
  bit ``SrcLayout(0, b)`` of the source (every bit compared; _ZFILL lanes with src-size 0 must read zeros).
* **sparse wgmma** (``SM90::GMMA::SPARSE::GMMA_64xNx32_F32BF16BF16_SS``, sparsity selector 0 and 1): A is 2:4 sparse
  (row m, K group g keeps the pair :func:`sparse_pair`; the compressed A holds 1, 2), B's row n is nonzero only in
  K group ``n % 8`` (``B[n, k] = k % 4 + 1``), so ``D(m, n)`` names the pair of row m, group ``n % 8``. Each thread's
  metadata register is placed by ``atom.layout_e`` (byte j = values 8j..8j+7, CuTe's ``sparse_elem<8, uint8_t>``);
  value ``v`` of thread ``t`` must hold ``D`` of ``layout_c(t, v)``.

Written by ``pycute-layouts hwcheck --emit DIR`` (``atoms_cases.cuh``, ``atoms_plan.json``), run by
``examples/hardware/run.sh`` (``examples/hardware/atoms/atoms.cu``); :func:`verify` re-checks a result.
"""

from __future__ import annotations

import hashlib
import json
import re
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..arch import atoms
from ..arch.atoms import make_tiled_mma
from ..arch.atoms_copy import more_copy_atom_names
from ..arch.wgmma import make_smem_desc
from ..core.composed import SwizzledSmemLayout
from ..core.layout import Layout
from ..core.swizzle import Swizzle
from ..errors import HwCheckError
from ..limits import check_count, check_type, fmt, make_output_dir
from . import atoms_complex

__all__ = ["WGMMA_CASES", "MMA_SYNC_CASES", "MORE_MMA_SYNC_CASES", "DOT_CASES", "CP_ASYNC_ATOM_CASES", "COPY_CASES",
           "TILED_COPY_ATOMS", "TILE_SWIZZLES", "CP_ASYNC_BYTES", "REGS_WORDS", "Case", "cases", "emit", "check_case",
           "verify", "sync_operands", "exact", "lane_atom_thread"]

#: (case name, atom name) of every wgmma case.
WGMMA_CASES = (
    ("wgmma/bf16/SS/N8", "SM90_64x8x16_F32BF16BF16_SS"),
    ("wgmma/bf16/SS/N64", "SM90_64x64x16_F32BF16BF16_SS"),
    ("wgmma/bf16/SS/N256", "SM90_64x256x16_F32BF16BF16_SS"),
    ("wgmma/tf32/SS/N64", "SM90_64x64x8_F32TF32TF32_SS_TN"),
    ("wgmma/e4m3/SS/N64", "SM90_64x64x32_F32E4M3E4M3_SS_TN"),
    ("wgmma/e4m3/SS/N256", "SM90_64x256x32_F32E4M3E4M3_SS_TN"),
    ("wgmma/bf16/RS/N64", "SM90_64x64x16_F32BF16BF16_RS"),
    ("wgmma/tf32/RS/N32", "SM90_64x32x8_F32TF32TF32_RS_TN"),
    ("wgmma/e4m3/RS/N32", "SM90_64x32x32_F32E4M3E4M3_RS_TN"),
    ("wgmma/f16acc/SS/N8", "SM90_64x8x16_F16F16F16_SS"),
    ("wgmma/f16acc/SS/N16", "SM90_64x16x16_F16F16F16_SS"),
    ("wgmma/f16acc/SS/N32", "SM90_64x32x16_F16F16F16_SS"),
    ("wgmma/f16acc/RS/N32", "SM90_64x32x16_F16F16F16_RS"),
    ("wgmma/f16/SS/N64", "SM90_64x64x16_F32F16F16_SS"),
)
#: Tiled MMAs: (case name, atom, rows BM of the tile) over two warpgroups, make_tiled_mma(atom, (2, 1, 1)).
TILED_MMA_CASES = (
    ("tiled_mma/bf16/2x1x1/128x64", "SM90_64x64x16_F32BF16BF16_SS", 128),
    ("tiled_mma/bf16/2x1x1/256x64", "SM90_64x64x16_F32BF16BF16_SS", 256),
    ("tiled_mma/tf32/2x1x1/256x32", "SM90_64x32x8_F32TF32TF32_SS_TN", 256),
)
#: SM80 warp-level MMA atoms (mma.sync), executed by sm_90, and the first SM89 fp8 one.
MMA_SYNC_CASES = ("SM80_16x8x8_F16F16F16F16_TN", "SM80_16x8x16_F16F16F16F16_TN", "SM80_16x8x8_F32F16F16F32_TN",
                  "SM80_16x8x16_F32F16F16F32_TN", "SM80_16x8x8_F32BF16BF16F32_TN", "SM80_16x8x16_F32BF16BF16F32_TN",
                  "SM80_16x8x4_F32TF32TF32F32_TN", "SM80_16x8x8_F32TF32TF32F32_TN", "SM80_8x8x16_S32S8S8S32_TN",
                  "SM80_16x8x16_S32S8S8S32_TN", "SM80_16x8x32_S32S8S8S32_TN", "SM80_16x8x32_S32U8U8S32_TN",
                  "SM89_16x8x32_F32E4M3E4M3F32_TN")
#: The atoms of every other generation that sm_90 executes as warp-level mma.sync (CuTe's names; a representative per
#: PTX shape and type, every distinct fragment layout): SM70 m8n8k4 (all four majors, f16 and f32 accumulators: 8
#: distinct fragment sets, every quad-pair), SM75, SM80 f64 / 4-bit / 1-bit (XOR and AND popc), SM89 fp8 (e4m3, e5m2,
#: mixed, f32 and f16 accumulators), SM90 f64 m16n8k{4,8,16}. (CuTe's C64/GC64/SM90 C64 atoms issue these f64
#: instructions several times with the same fragments; they run as themselves in :mod:`.atoms_complex`.)
MORE_MMA_SYNC_CASES = (
    "SM70_8x8x4_F16F16F16F16_TN", "SM70_8x8x4_F16F16F16F16_NT", "SM70_8x8x4_F16F16F16F16_NN",
    "SM70_8x8x4_F16F16F16F16_TT", "SM70_8x8x4_F32F16F16F32_TN", "SM70_8x8x4_F32F16F16F32_NT",
    "SM70_8x8x4_F32F16F16F32_NN", "SM70_8x8x4_F32F16F16F32_TT",
    "SM75_16x8x8_F32F16F16F32_TN", "SM75_8x8x16_S32S8S8S32_TN",
    "SM80_8x8x4_F64F64F64F64_TN",
    "SM80_8x8x32_S32S4S4S32_TN", "SM80_16x8x32_S32U4U4S32_TN", "SM80_16x8x64_S32S4U4S32_TN",
    "SM80_16x8x64_S32U4S4S32_TN",
    "SM80_8x8x128_S32U1U1S32_TN_XORPOPC", "SM80_8x8x128_S32U1U1S32_TN_ANDPOPC", "SM80_16x8x128_S32U1U1S32_TN_XORPOPC",
    "SM80_16x8x128_S32U1U1S32_TN_ANDPOPC", "SM80_16x8x256_S32U1U1S32_TN_XORPOPC", "SM80_16x8x256_S32U1U1S32_TN_ANDPOPC",
    "SM89_16x8x32_F32E5M2E5M2F32_TN", "SM89_16x8x32_F32E4M3E5M2F32_TN", "SM89_16x8x32_F32E5M2E4M3F32_TN",
    "SM89_16x8x32_F16E4M3E4M3F16_TN", "SM89_16x8x32_F16E5M2E5M2F16_TN",
    "SM90_16x8x4_F64F64F64F64_TN", "SM90_16x8x8_F64F64F64F64_TN", "SM90_16x8x16_F64F64F64F64_TN",
)
#: One-thread dot-product atoms (dp4a). SM61_DP2A is not here: CuTe's ``dp2a.s32.s32`` has no ``.lo``/``.hi`` and
#: ptxas refuses it ("'.hi/.lo' modifier required for instruction 'dp2a'"); :mod:`.atoms_complex` runs both modes.
DOT_CASES = ("SM61_DP4A",)
#: SM80 cp.async copy atoms: each lane copies one value of the atom's width; bit b of the source value must land at
#: bit b of the destination value (SrcLayout = DstLayout = (1,bits):(0,1)); _ZFILL atoms with src-size 0 on odd lanes.
CP_ASYNC_ATOM_CASES = tuple(n for n in more_copy_atom_names() if n.startswith("SM80_CP_ASYNC_"))
#: Copy atoms run through ldmatrix / stmatrix.
COPY_CASES = ("SM75_U32x1_LDSM_N", "SM75_U32x2_LDSM_N", "SM75_U32x4_LDSM_N", "SM75_U16x2_LDSM_T", "SM75_U16x4_LDSM_T",
              "SM75_U16x8_LDSM_T", "SM90_U32x1_STSM_N", "SM90_U32x2_STSM_N", "SM90_U32x4_STSM_N", "SM90_U16x2_STSM_T",
              "SM90_U16x4_STSM_T", "SM90_U16x8_STSM_T")
#: ldmatrix / stmatrix atoms tiled over a whole swizzled bf16 tile (one warp, one instruction per 4 matrices).
TILED_COPY_ATOMS = ("SM75_U32x4_LDSM_N", "SM75_U16x8_LDSM_T", "SM90_U32x4_STSM_N", "SM90_U16x8_STSM_T")
#: swizzled tiles of the tiled copies and cp.async: name -> (Swizzle B of Sw<B,4,3>, bf16 columns), 32 rows
TILE_SWIZZLES = {"Sw<3,4,3>": (3, 64), "Sw<2,4,3>": (2, 32), "none": (0, 64)}
#: cp.async copy sizes (cp.async.cg for 16 bytes, cp.async.ca for 4 and 8)
CP_ASYNC_BYTES = (16, 8, 4)
B_OFFSET_BYTES = 4096
#: words of per-thread input (registers or addresses) each case gets (atoms.cu copies this many)
REGS_WORDS = 2048
_TYPE_RE = re.compile(r"BF16|TF32|F32|F16|F64|E4M3|E5M2|S32|S8|U8|S4|U4|U1")


def types_of(atom: Any) -> tuple[str, str, str]:
    """(D, A, B) element types of an MMA atom from its CuTe name, lower case (``f32``, ``bf16``, ``e4m3`` ...)."""
    parts = atom.name.split("<")[0].split("_")
    if parts[1].startswith("DP"):
        return "s32", "s8", "s8"
    t = _TYPE_RE.findall(parts[2])
    return t[0].lower(), t[1].lower(), t[2].lower()


@dataclass(frozen=True)
class Case:
    """One hardware case: its name, kind (wgmma / ldsm / stsm) and the library's atom.

    >>> c = Case("SM75_U32x1_LDSM_N", "ldsm", atoms.copy_atom("SM75_U32x1_LDSM_N"))
    >>> c.kind, c.atom.name
    ('ldsm', 'SM75_U32x1_LDSM_N')
    """

    name: str
    kind: str
    atom: object


def cases() -> list[Case]:
    """Every thread-value case, built from the library's atoms.

    Pre:  none.
    Post: unique names; kinds ``wgmma``, ``wgmma_tiled``, ``mma_sync``, ``dot``, ``ldsm``, ``stsm``, ``ldsm_tile``,
    ``stsm_tile``, ``cp_async`` (into swizzled tiles), ``cp_async_atom`` (CuTe's SM80_CP_ASYNC_* atoms), ``wgmma_sp``,
    ``mma_complex`` (CuTe's complex f64 atoms as themselves), ``dot2`` (dp2a .lo / .hi for SM61_DP2A).

    >>> cs = cases()
    >>> len(cs), cs[0].name, sorted({c.kind for c in cs})[:4]
    (119, 'wgmma/bf16/SS/N8', ['cp_async', 'cp_async_atom', 'dot', 'dot2'])
    """
    return [Case(name, kind, _ATOM_OF[kind](a) if a else None) for name, kind, a in case_rows()]


def _copy_kind(name: str) -> str:
    return atoms.copy_atom(name).kind


#: case kind -> the library object a case of that kind checks, from the atom's CuTe name
_ATOM_OF = {**dict.fromkeys(("wgmma", "mma_sync", "dot", "wgmma_sp", "mma_complex", "dot2"), atoms.mma_atom),
            **dict.fromkeys(("ldsm", "stsm", "ldsm_tile", "stsm_tile", "cp_async_atom"), atoms.copy_atom),
            "wgmma_tiled": lambda a: make_tiled_mma(a, (2, 1, 1))}


def case_rows() -> list[tuple[str, str, str | None]]:
    """(case name, kind, CuTe atom name or None) of every case of :func:`cases`, in emission order, from the tables above.

    Groups after the first run's are appended, never inserted, so that a result file's kernel indices (``case<i>``)
    keep naming the same cases.

    >>> case_rows()[0], case_rows()[14]
    (('wgmma/bf16/SS/N8', 'wgmma', 'SM90_64x8x16_F32BF16BF16_SS'), ('mma.sync/SM80_16x8x8_F16F16F16F16_TN', 'mma_sync', \
'SM80_16x8x8_F16F16F16F16_TN'))
    """
    rows = [(n, "wgmma", a) for n, a in WGMMA_CASES]
    rows += [(f"mma.sync/{a}", "mma_sync", a) for a in MMA_SYNC_CASES]
    rows += [(n, "wgmma_tiled", a) for n, a, _ in TILED_MMA_CASES]
    rows += [(a, _copy_kind(a), a) for a in COPY_CASES]
    for sw_name, (_, cols) in TILE_SWIZZLES.items():
        rows += [(f"tiled/{a}/32x{cols}/{sw_name}", f"{_copy_kind(a)}_tile", a) for a in TILED_COPY_ATOMS]
        rows += [(f"cp.async/{nbytes}B/32x{cols}/{sw_name}", "cp_async", None) for nbytes in CP_ASYNC_BYTES]
    # appended after the cases of the 2026-11-26 run, so that its kernel indices (case<i>) keep naming the same cases
    rows += [(f"mma.sync/{a}", "mma_sync", a) for a in MORE_MMA_SYNC_CASES]
    rows += [(f"dot/{a}", "dot", a) for a in DOT_CASES]
    rows += [(f"cp.async.atom/{a}", "cp_async_atom", a) for a in CP_ASYNC_ATOM_CASES]
    rows += [(n, "wgmma_sp", a) for n, a, _ in SPARSE_CASES]
    # appended after the cases of the second 2026-11-26 run (the atoms as themselves: complex f64, dp2a .lo/.hi)
    rows += [(f"mma.complex/{a}", "mma_complex", a) for a in atoms_complex.COMPLEX_CASES]
    rows += [(f"dot2/SM61_DP2A/{mode}", "dot2", "SM61_DP2A") for mode in atoms_complex.DP2A_MODES]
    return rows


# --------------------------------------------------------------------------------------------------
# operand values


def a_digits(m: int) -> list[int]:
    return [m % 8, m // 8, 1, 8, 64]


def b_digits(n: int) -> list[int]:
    return [1, 8, 64 * (n % 8), 64 * ((n // 8) % 8), 64 * (n // 64)]


def encode(value: int, bits: int, kind: str = "") -> int:
    """The bit pattern of a small exact value as bf16, tf32 (fp32 bits), e4m3, e5m2, f16, f64, s8/u8, s4/u4, u1."""
    if kind == "f16":
        return int(np.array(value, dtype=np.float16).view(np.uint16))
    if kind in ("s8", "u8"):
        return value & 0xFF
    if kind in ("s4", "u4"):
        return value & 0xF
    if kind == "u1":
        return value & 1
    if kind == "f64":
        return struct.unpack("<Q", struct.pack("<d", float(value)))[0]
    if kind == "e5m2":
        if value == 0:
            return 0
        e = value.bit_length() - 1
        mant = (value - (1 << e)) * 4 // (1 << e)
        if (1 << e) + mant * (1 << e) // 4 != value or e + 15 > 30:
            raise ValueError(f"{value} is not exact in e5m2")
        return ((e + 15) << 2) | mant
    f32 = struct.unpack("<I", struct.pack("<f", float(value)))[0]
    if bits == 16:
        return f32 >> 16
    if bits == 32:
        return f32
    if value == 0:
        return 0
    e = value.bit_length() - 1
    mant = (value - (1 << e)) * 8 // (1 << e)
    if (1 << e) + mant * (1 << e) // 8 != value or e + 7 > 15:
        raise ValueError(f"{value} is not exact in e4m3")
    return ((e + 7) << 3) | mant


def smem_layout(rows: int, bits: int) -> Layout:
    """The K-major unswizzled canonical operand layout (elements): 8x16-byte core matrices, 2 K chunks."""
    t = 128 // bits
    return Layout(((8, rows // 8), (t, 2)), ((t, 16 * t), (1, 8 * t)))


def operand_image(rows: int, k: int, bits: int, digits, kind: str = "") -> bytes:
    """The shared-memory bytes of a rows x k operand whose row r is digits(r) (then zeros)."""
    lay = smem_layout(rows, bits)
    nbytes = rows * k * bits // 8
    img = bytearray(nbytes)
    for r in range(rows):
        vals = digits(r) + [0] * (k - 5)
        for kk in range(k):
            off = int(lay(r, kk)) * bits // 8
            img[off:off + bits // 8] = encode(vals[kk], bits, kind).to_bytes(bits // 8, "little")
    return bytes(img)


def a_registers(atom) -> list[int]:
    """The 4 A registers of each of the 128 threads of an RS atom, packed from layout_a."""
    bits = atom.a_bits
    e = 32 // bits
    regs = []
    for t in range(128):
        for j in range(4):
            word = 0
            for i in range(e):
                idx = int(atom.layout_a(t, j * e + i))
                m, kk = idx % 64, idx // 64
                vals = a_digits(m) + [0] * (atom.shape_mnk[2] - 5)
                word |= encode(vals[kk], bits, types_of(atom)[1]) << (bits * i)
            regs.append(word)
    return regs


# --------------------------------------------------------------------------------------------------
# tiled copies and cp.async over a swizzled bf16 tile (32 rows): element (r, c) holds the code r * cols + c


def tile_of(name: str) -> tuple[SwizzledSmemLayout, int]:
    """The swizzled shared-memory tile of a tiled-copy / cp.async case and its bf16 columns."""
    sw_name = name.split("/")[-1]
    b, cols = TILE_SWIZZLES[sw_name]
    return SwizzledSmemLayout(Swizzle(b, 4, 3), Layout((32, cols), (cols, 1)), 16), cols


def tile_origins(cols: int) -> list[list[tuple[int, int]]]:
    """Per instruction, the (row, col) origins of its 4 8x8 matrices: matrix q at (8 (q % 4), 8 (q // 4))."""
    q = [(8 * (i % 4), 8 * (i // 4)) for i in range(4 * cols // 8)]
    return [q[4 * i:4 * i + 4] for i in range(len(q) // 4)]


def tile_thread_addresses(c: Case) -> list[int]:
    """Per instruction and lane, the byte offset in the tile the lane passes: the library's access pattern."""
    smem, cols = tile_of(c.name)
    out = []
    for origins in tile_origins(cols):
        coords = c.atom.access_pattern(element_bits=16, matrix_origins=origins).coords
        out += [int(smem.byte_address(*coords[t])) for t in range(32)]
    return out


def _dense_to_tile(e: int, origins: list[tuple[int, int]]) -> tuple[int, int]:
    """Element ``e`` of the atom's dense 8 * nm x 8 rows -> the tile coordinate of the matrix it belongs to."""
    row, col = e // 8, e % 8
    r0, c0 = origins[row // 8]
    return r0 + row % 8, c0 + col


def tile_image(name: str) -> bytes:
    """The tile's shared-memory bytes: code r * cols + c at byte_address(r, c)."""
    smem, cols = tile_of(name)
    img = bytearray(32 * cols * 2)
    for r in range(32):
        for col in range(cols):
            a = int(smem.byte_address(r, col))
            img[a:a + 2] = (r * cols + col).to_bytes(2, "little")
    return bytes(img)


def _tile_copy_kernel(i: int, c: Case) -> str:
    a = c.atom
    _, cols = tile_of(c.name)
    ni = len(tile_origins(cols))
    qual = "m8n8.x4" + (".trans" if a.trans else "")
    if a.kind == "ldsm":
        body = f"""  for (int j = lane; j < {32 * cols}; j += 32) s[j] = reinterpret_cast<const uint16_t*>(img)[j];
  __syncwarp();
  for (int q = 0; q < {ni}; ++q) {{
    uint32_t r[4];
    asm volatile("ldmatrix.sync.aligned.{qual}.shared.b16 {{%0,%1,%2,%3}}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(base + addrs[q * 32 + lane]) : "memory");
    for (int j = 0; j < 4; ++j) out[(q * 32 + lane) * 4 + j] = r[j];
  }}"""
    else:
        body = f"""  for (int j = lane; j < {32 * cols}; j += 32) s[j] = 0xFFFFu;
  __syncwarp();
  for (int q = 0; q < {ni}; ++q) {{
    uint32_t r[4];
    for (int j = 0; j < 4; ++j) {{
      const uint32_t code = 256u * q + 8u * lane + 2u * j;
      r[j] = ((code + 1u) << 16) | code;
    }}
    asm volatile("stmatrix.sync.aligned.{qual}.shared.b16 [%0], {{%1,%2,%3,%4}};"
                 :: "r"(base + addrs[q * 32 + lane]), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]) : "memory");
  }}
  __syncwarp();
  for (int j = lane; j < {16 * cols}; j += 32) out[j] = ((uint32_t)s[2 * j + 1] << 16) | s[2 * j];"""
    return f"""
// case {i}: {c.name}: {a.name} tiled over a swizzled 32x{cols} bf16 tile; lane addresses from the library
__global__ void case{i}(const uint8_t* img, int, int, const uint32_t* addrs, uint32_t* out) {{
  __shared__ __align__(1024) uint16_t s[{32 * cols}];
  const int lane = threadIdx.x;
  const uint32_t base = smem_u32(s);
{body}
}}
"""


def _cp_async_kernel(i: int, c: Case) -> str:
    nbytes = int(c.name.split("/")[1][:-1])
    _, cols = tile_of(c.name)
    op = "cp.async.cg.shared.global" if nbytes == 16 else "cp.async.ca.shared.global"
    per_row = cols * 2 // nbytes
    return f"""
// case {i}: {c.name}: {op} of {nbytes}-byte pieces of a dense 32x{cols} bf16 tile to the swizzled addresses
__global__ void case{i}(const uint8_t* img, int, int, const uint32_t* addrs, uint32_t* out) {{
  __shared__ __align__(1024) uint16_t s[{32 * cols}];
  for (int j = threadIdx.x; j < {32 * cols}; j += blockDim.x) s[j] = 0xFFFFu;
  __syncthreads();
  for (int q = threadIdx.x; q < {32 * per_row}; q += blockDim.x) {{
    asm volatile("{op} [%0], [%1], {nbytes};" :: "r"(smem_u32(s) + addrs[q]), "l"(img + {nbytes} * q) : "memory");
  }}
  asm volatile("cp.async.commit_group;" ::: "memory");
  asm volatile("cp.async.wait_group 0;" ::: "memory");
  __syncthreads();
  for (int j = threadIdx.x; j < {16 * cols}; j += blockDim.x) out[j] = ((uint32_t)s[2 * j + 1] << 16) | s[2 * j];
}}
"""


def cp_async_addresses(name: str) -> list[int]:
    """Destination byte of every piece q of a cp.async case: byte_address of its first element (row-major pieces)."""
    nbytes = int(name.split("/")[1][:-1])
    smem, cols = tile_of(name)
    per = nbytes // 2
    return [int(smem.byte_address(q * per // cols, q * per % cols)) for q in range(32 * cols // per)]


def check_tile(c: Case, out: list[int]) -> tuple[int, list[str]]:
    """(values compared, disagreements) of a tiled-copy or cp.async case."""
    smem, cols = tile_of(c.name)
    errs: list[str] = []
    n = 0
    halves = [(w >> (16 * h)) & 0xFFFF for w in out for h in range(2)]
    if c.kind == "cp_async":
        for r in range(32):
            for col in range(cols):
                got = halves[int(smem.byte_address(r, col)) // 2]
                n += 1
                if got != r * cols + col and len(errs) < 8:
                    errs.append(f"{c.name}: shared byte_address({r}, {col}) holds element code {got}, library says "
                                f"{r * cols + col}")
        return n, errs
    a = c.atom
    for q, origins in enumerate(tile_origins(cols)):
        for t in range(32):
            for j in range(4):
                for h in range(2):
                    if c.kind == "ldsm_tile":
                        rr, cc = _dense_to_tile(int(a.dst_layout(t, 32 * j + 16 * h)) // 16, origins)
                        got, want = (out[(q * 32 + t) * 4 + j] >> (16 * h)) & 0xFFFF, rr * cols + cc
                        what = f"instruction {q} thread {t} register {j} half {h} got element {got}"
                    else:
                        rr, cc = _dense_to_tile(int(a.src_layout(t, 32 * j + 16 * h)) // 16, origins)
                        got, want = halves[int(smem.byte_address(rr, cc)) // 2], 256 * q + 8 * t + 2 * j + h
                        what = f"tile ({rr}, {cc}) holds code {got}"
                    n += 1
                    if got != want and len(errs) < 8:
                        errs.append(f"{c.name}: {what}, library says {want}")
    return n, errs


# --------------------------------------------------------------------------------------------------
# CUDA source


def _smem_operands(threads: int, b_off: int) -> str:
    """Kernel lines: copy A (``a_bytes``) to shared byte 0 and B (``b_bytes``) to ``b_off``, fence for the async proxy."""
    return f"""  extern __shared__ __align__(1024) uint8_t smem[];
  for (int j = threadIdx.x; j < a_bytes; j += {threads}) smem[j] = img[j];
  for (int j = threadIdx.x; j < b_bytes; j += {threads}) smem[{b_off} + j] = img[a_bytes + j];
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  const uint32_t base = smem_u32(smem);
"""


def _descriptors(desc_a: int, desc_b: int, b_off: int) -> str:
    """Kernel lines: the wgmma descriptors ``da`` / ``db`` of A at shared byte 0 and B at ``b_off`` (start address ORed in)."""
    return f"""  const uint64_t da = 0x{desc_a:016x}ull | ((base >> 4) & 0x3FFF);
  const uint64_t db = 0x{desc_b:016x}ull | (((base + {b_off}) >> 4) & 0x3FFF);
"""


def _wgmma_kernel(i: int, c: Case) -> str:
    a = c.atom
    n, k = a.shape_mnk[1], a.shape_mnk[2]
    bits, rs = a.a_bits, a.a_source == "reg"
    dt, at, _ = types_of(a)
    regs = n // 2 if dt == "f32" else n // 4
    dty, con, cvt = ("float", "f", "__float_as_uint") if dt == "f32" else ("uint32_t", "r", "")
    desc_a = make_smem_desc(smem_layout(64, bits), "K", bits).encode()
    desc_b = make_smem_desc(smem_layout(n, bits), "K", bits).encode()
    dl = ",".join(f"%{j}" for j in range(regs))
    if rs:
        a_op = "{" + ",".join(f"%{regs + j}" for j in range(4)) + "}"
        b_op, pred = f"%{regs + 4}", regs + 5
    else:
        a_op, b_op, pred = f"%{regs}", f"%{regs + 1}", regs + 2
    tail = ", 0" if bits == 16 and rs else (", 0, 0" if bits == 16 else "")
    outs = ", ".join(f'"+{con}"(d[{j}])' for j in range(regs))
    ra = ("  uint32_t ra[4];\n  for (int j = 0; j < 4; ++j) ra[j] = a_regs[threadIdx.x * 4 + j];\n" if rs
          else "  (void)a_regs;\n")
    ins = ", ".join(f'"r"(ra[{j}])' for j in range(4)) + ', "l"(db)' if rs else '"l"(da), "l"(db)'
    return f"""
// case {i}: {c.name}: {a.name}
__global__ void __launch_bounds__(128, 1) case{i}(const uint8_t* img, int a_bytes, int b_bytes, const uint32_t* a_regs,
                                                  uint32_t* out) {{
{_smem_operands(128, B_OFFSET_BYTES)}{_descriptors(desc_a, desc_b, B_OFFSET_BYTES)}  (void)da;
{ra}  {dty} d[{regs}];
#pragma unroll
  for (int j = 0; j < {regs}; ++j) d[j] = 0;
  const uint32_t scale_d = 0;
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  asm volatile("{{\\n.reg .pred p;\\nsetp.ne.b32 p, %{pred}, 0;\\n"
               "wgmma.mma_async.sync.aligned.m64n{n}k{k}.{dt}.{at}.{at} {{{dl}}}, {a_op}, {b_op}, p, 1, 1{tail};\\n}}\\n"
               : {outs}
               : {ins}, "r"(scale_d));
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
#pragma unroll
  for (int j = 0; j < {regs}; ++j) out[threadIdx.x * {regs} + j] = {cvt}(d[j]);
}}
"""


def row_of_thread(atom) -> list[int]:
    """The 128-bit row each of the 32 threads addresses: the library's, else (unused thread) its own modulo rows."""
    used = dict(atom.smem_row_threads())
    rows = 8 * atom.num_matrices
    return [used.get(t, t % rows) for t in range(32)]


def _copy_kernel(i: int, c: Case) -> str:
    a = c.atom
    nm = a.num_matrices
    op = "ldmatrix" if a.kind == "ldsm" else "stmatrix"
    qual = f"m8n8.x{nm}" + (".trans" if a.trans else "")
    rows = ", ".join(str(r) for r in row_of_thread(a))
    regs = ",".join(f"%{j}" for j in range(nm))
    if a.kind == "ldsm":
        body = f"""  for (int j = lane; j < 256; j += 32) s[j] = (uint16_t)j;
  __syncwarp();
  uint32_t r[{nm}];
  asm volatile("{op}.sync.aligned.{qual}.shared.b16 {{{regs}}}, [%{nm}];"
               : {", ".join(f'"=r"(r[{j}])' for j in range(nm))} : "r"(addr) : "memory");
  for (int j = 0; j < {nm}; ++j) out[lane * {nm} + j] = r[j];"""
    else:
        body = f"""  for (int j = lane; j < 256; j += 32) s[j] = 0xFFFFu;
  __syncwarp();
  uint32_t r[{nm}];
  for (int j = 0; j < {nm}; ++j) r[j] = ((uint32_t)(lane * 8 + 2 * j + 1) << 16) | (uint32_t)(lane * 8 + 2 * j);
  asm volatile("{op}.sync.aligned.{qual}.shared.b16 [%0], {{{",".join(f"%{j + 1}" for j in range(nm))}}};"
               :: "r"(addr), {", ".join(f'"r"(r[{j}])' for j in range(nm))} : "memory");
  __syncwarp();
  for (int j = lane; j < 128; j += 32) out[j] = ((uint32_t)s[2 * j + 1] << 16) | s[2 * j];"""
    return f"""
// case {i}: {c.name}
__global__ void case{i}(const uint8_t*, int, int, const uint32_t*, uint32_t* out) {{
  __shared__ __align__(128) uint16_t s[256];
  const int lane = threadIdx.x;
  const int rows[32] = {{{rows}}};
  const uint32_t addr = smem_u32(s) + rows[lane] * 16;
{body}
}}
"""


#: significant bits (floats) or largest value (integers) of an operand type, for :func:`exact`
_SIG_BITS = {"bf16": 8, "f16": 11, "tf32": 11, "f32": 24, "f64": 53, "e4m3": 4, "e5m2": 3}
_INT_MAX = {"s8": 127, "u8": 255, "s4": 7, "u4": 15, "u1": 1, "s32": 2 ** 31 - 1}


def exact(value: int, kind: str) -> bool:
    """Whether the small non-negative int ``value`` is exact in operand type ``kind``.

    >>> exact(112, "e4m3"), exact(9, "e5m2"), exact(8, "s4"), exact(255, "bf16")
    (True, False, False, True)
    """
    check_count("exact", "value", value, 0, None, HwCheckError)
    if not isinstance(kind, str) or kind not in _INT_MAX and kind not in _SIG_BITS:
        raise HwCheckError(f"exact: kind must be one of {', '.join(sorted({*_INT_MAX, *_SIG_BITS}))}, got "
                           f"{fmt(kind)}")
    if kind in _INT_MAX:
        return 0 <= value <= _INT_MAX[kind]
    if value == 0:
        return True
    shift = max(0, value.bit_length() - _SIG_BITS[kind])
    return (value >> shift) << shift == value and (kind != "e4m3" or value <= 448)


def _pieces(total: int, kind: str, cap: int = 64) -> list[int]:
    """``total`` as a sum of values exact in ``kind`` (greedy, largest first, each at most ``cap``)."""
    out = []
    while total:
        v = next(v for v in range(min(total, cap), 0, -1) if exact(v, kind))
        out.append(v)
        total -= v
    return out


def sync_operands(atom: Any) -> tuple[list[list[int]], list[list[int]]]:
    """A (M rows of K ints) and B (N rows of K ints) of a mma.sync atom with ``sum_k A[m,k] op B[n,k] = m + M n``.

    * Every value fits the types: ``A[m] = (m, 1)``, ``B[n] = (1, M n)``, then zeros (as the first run).
    * Otherwise (4-bit, e5m2): base-4 digits ``A[m] = (m % 4, m // 4, 4, 4, ..)``, ``B[n] = (1, 4, p_0, p_1, ..)`` with
      ``sum p = M n / 4``, each ``p`` exact in B's type.
    * 1-bit (popc) atoms, unary: XOR ``A[m] = 1^m 0^(M-m) | 0^(M(N-1))``, ``B[n] = 0^M | 1^(Mn) 0..``; AND ``A[m] =
      1^m 0^(M-m) | 1^(M(N-1))``, ``B[n] = 1^M | 1^(Mn) 0..`` (needs M N <= K).

    Pre: a mma.sync / SM70 atom of :data:`MMA_SYNC_CASES` or :data:`MORE_MMA_SYNC_CASES`. Post: the two matrices;
    HwCheckError when no scheme fits K.

    >>> A, B = sync_operands(atoms.mma_atom("SM80_8x8x32_S32S4S4S32_TN"))
    >>> A[5][:6], B[7][:6], sum(x * y for x, y in zip(A[5], B[7]))
    ([1, 1, 4, 4, 0, 0], [1, 4, 7, 7, 0, 0], 61)
    """
    check_type("sync_operands", "atom", atom, atoms.MmaAtom, HwCheckError)
    m_, n_, k_ = atom.shape_mnk
    _, ta, tb = types_of(atom)
    if ta == "u1":
        land = atom.name.endswith("ANDPOPC")
        r2 = m_ * (n_ - 1)
        a = [[1] * m + [0] * (m_ - m) + [int(land)] * r2 for m in range(m_)]
        b = [[int(land)] * m_ + [1] * (m_ * n) + [0] * (r2 - m_ * n) for n in range(n_)]
    elif all(exact(m, ta) for m in range(m_)) and all(exact(m_ * n, tb) for n in range(n_)):
        a = [[m, 1] for m in range(m_)]
        b = [[1, m_ * n] for n in range(n_)]
    else:
        ps = [_pieces(m_ * n // 4, tb) for n in range(n_)]
        width = max(len(x) for x in ps)
        a = [[m % 4, m // 4] + [4] * width for m in range(m_)]
        b = [[1, 4] + x + [0] * (width - len(x)) for x in ps]
    if max(len(r) for r in a + b) > k_:
        raise HwCheckError(f"atoms_check: no operand scheme of {atom.name} fits K = {k_}")
    return [r + [0] * (k_ - len(r)) for r in a], [r + [0] * (k_ - len(r)) for r in b]


def lane_atom_thread(atom: Any, lane: int) -> int:
    """The atom thread of hardware lane ``lane``.

    mma.sync of sm75..sm90: the lane itself. SM70 m8n8k4: every quad-pair ``q`` (lanes ``4q..4q+3`` and
    ``4q+16..4q+19``) computes its own 8x8x4 product; lane ``l`` is atom thread ``l % 4 + 4 (l // 16)`` of quad-pair
    ``(l // 4) % 4`` (ThrID (4,2):(1,16) places quad-pair 0).

    >>> [lane_atom_thread(atoms.mma_atom("SM70_8x8x4_F32F16F16F32_TN"), l) for l in (0, 5, 16, 23)]
    [0, 1, 4, 7]
    """
    check_type("lane_atom_thread", "atom", atom, atoms.MmaAtom, HwCheckError)
    check_count("lane_atom_thread", "lane", lane, 0, 31, HwCheckError)
    if atom.num_threads == 32:
        return lane
    i = lane % 4 + 4 * (lane // 16)
    if int(atom.thr_id(i)) + 4 * ((lane // 4) % 4) != lane:
        raise HwCheckError(f"atoms_check: {atom.name}'s ThrID {atom.thr_id} does not place lane {lane} in a quad-pair")
    return i


def _pack(vals: list[int], bits: int) -> list[int]:
    """Values of ``bits`` bits, value ``v`` at bit ``v * bits`` of the thread's register words (little-endian)."""
    acc = 0
    for v, x in enumerate(vals):
        acc |= x << (bits * v)
    return [(acc >> (32 * w)) & 0xFFFFFFFF for w in range(max(1, len(vals) * bits // 32))]


def sync_values(atom: Any, operand: str) -> list[int]:
    """Per lane (32), the packed register words of A or B of a mma.sync atom, from :func:`sync_operands`."""
    mats = sync_operands(atom)[0 if operand == "A" else 1]
    bits = atom.a_bits if operand == "A" else atom.b_bits
    kind = types_of(atom)[1 if operand == "A" else 2]
    lay = atom.layout_a if operand == "A" else atom.layout_b
    rows = len(mats)
    nv = atom.values_per_thread(operand)
    out = []
    for lane in range(32):
        t = lane_atom_thread(atom, lane)
        vals = []
        for v in range(nv):
            idx = int(lay(t, v))
            vals.append(encode(mats[idx % rows][idx // rows], bits, kind))
        out += _pack(vals, bits)
    return out


def sync_words(atom: Any, operand: str) -> int:
    """32-bit register words per lane of an operand (A, B or C) of a mma.sync atom."""
    bits = {"A": atom.a_bits, "B": atom.b_bits, "C": atom.c_bits}[operand]
    return max(1, atom.values_per_thread(operand) * bits // 32)


def _mma_sync_ptx(a: Any) -> str:
    m_, n_, k_ = a.shape_mnk
    dt, at, bt = types_of(a)
    if a.arch == "sm70":
        ab = a.name.rsplit("_", 1)[1]
        return f"mma.sync.aligned.m8n8k4.{'row' if ab[0] == 'T' else 'col'}.{'col' if ab[1] == 'N' else 'row'}.{dt}.f16.f16.{dt}"
    op = ".xor.popc" if a.name.endswith("XORPOPC") else (".and.popc" if a.name.endswith("ANDPOPC") else "")
    pt = {"u1": "b1"}
    return f"mma.sync.aligned.m{m_}n{n_}k{k_}.row.col.{dt}.{pt.get(at, at)}.{pt.get(bt, bt)}.{dt}{op}"


def tiled_rows(c: Case) -> int:
    """Rows BM of a tiled-MMA case's tile."""
    return next(bm for n, _, bm in TILED_MMA_CASES if n == c.name)


def tiled_digits(bm: int) -> tuple[Any, Any]:
    """A and B rows with ``D(m, n) = m + BM n``.

    ``A[m] = (m%8, (m//8)%8, m//64, 1, 1)``, ``B[n] = (1, 8, 64, BM (n%8), 8 BM (n//8))`` (then zeros).
    """
    return (lambda m: [m % 8, (m // 8) % 8, m // 64, 1, 1]), (lambda n: [1, 8, 64, bm * (n % 8), 8 * bm * (n // 8)])


def _wgmma_tiled_kernel(i: int, c: Case) -> str:
    a = c.atom.atom
    n, k = a.shape_mnk[1], a.shape_mnk[2]
    bits, bm = a.a_bits, tiled_rows(c)
    mr = bm // 128
    dt, at, _ = types_of(a)
    regs = n // 2
    lay_a = smem_layout(bm, bits)
    desc_a = make_smem_desc(smem_layout(64, bits), "K", bits).encode()
    desc_b = make_smem_desc(smem_layout(n, bits), "K", bits).encode()
    blocks = [int(lay_a(64 * b, 0)) * bits // 8 for b in range(bm // 64)]   # byte offset of A's 64-row block b
    a_bytes = bm * k * bits // 8
    b_off = (a_bytes + 1023) // 1024 * 1024
    dl = ",".join(f"%{j}" for j in range(regs))
    tail = ", 0, 0" if bits == 16 else ""
    outs = ", ".join(f'"+f"(d[r][{j}])' for j in range(regs))
    return f"""
// case {i}: {c.name}: make_tiled_mma({a.name}, (2,1,1)) over {bm}x{n}; warpgroup w, repetition r reads A block w + 2 r
__global__ void __launch_bounds__(256, 1) case{i}(const uint8_t* img, int a_bytes, int b_bytes, const uint32_t*, uint32_t* out) {{
{_smem_operands(256, b_off)}  const uint32_t blocks[{bm // 64}] = {{{", ".join(str(b) for b in blocks)}}};
  const int w = threadIdx.x / 128;
  const uint64_t db = 0x{desc_b:016x}ull | (((base + {b_off}) >> 4) & 0x3FFF);
  float d[{mr}][{regs}];
#pragma unroll
  for (int r = 0; r < {mr}; ++r)
#pragma unroll
    for (int j = 0; j < {regs}; ++j) d[r][j] = 0.f;
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
  for (int r = 0; r < {mr}; ++r) {{
    const uint64_t da = 0x{desc_a:016x}ull | (((base + blocks[w + 2 * r]) >> 4) & 0x3FFF);
    asm volatile("wgmma.mma_async.sync.aligned.m64n{n}k{k}.{dt}.{at}.{at} {{{dl}}}, %{regs}, %{regs + 1}, 0, 1, 1{tail};\\n"
                 : {outs}
                 : "l"(da), "l"(db));
  }}
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
#pragma unroll
  for (int r = 0; r < {mr}; ++r)
#pragma unroll
    for (int j = 0; j < {regs}; ++j) out[threadIdx.x * {mr * regs} + r * {regs} + j] = __float_as_uint(d[r][j]);
}}
"""


def _mma_sync_kernel(i: int, c: Case) -> str:
    a = c.atom
    ra, rb, rc = sync_words(a, "A"), sync_words(a, "B"), sync_words(a, "C")
    wide = a.a_bits == 64                       # f64: one double per register pair, "d" operands
    step = 2 if wide else 1
    na, nb, nc = ra // step, rb // step, rc // step
    ops = [",".join(f"%{o + j}" for j in range(n)) for o, n in ((0, nc), (nc, na), (nc + na, nb), (nc + na + nb, nc))]
    if wide:
        outs = ", ".join(f'"=d"(d[{j}])' for j in range(nc))
        ins = ", ".join([f'"d"(__hiloint2double(r[{2 * j + 1}], r[{2 * j}]))' for j in range(na + nb)]
                        + ['"d"(0.0)' for _ in range(nc)])
        decl = f"double d[{nc}];"
        store = (f"for (int j = 0; j < {nc}; ++j) {{ out[t * {rc} + 2 * j] = __double2loint(d[j]); "
                 f"out[t * {rc} + 2 * j + 1] = __double2hiint(d[j]); }}")
    else:
        outs = ", ".join(f'"=r"(d[{j}])' for j in range(rc))
        ins = ", ".join([f'"r"(r[{j}])' for j in range(ra + rb)] + ['"r"(zero)' for _ in range(rc)])
        decl = f"uint32_t d[{rc}];"
        store = f"for (int j = 0; j < {rc}; ++j) out[t * {rc} + j] = d[j];"
    return f"""
// case {i}: {c.name}
__global__ void case{i}(const uint8_t*, int, int, const uint32_t* regs, uint32_t* out) {{
  const int t = threadIdx.x;
  uint32_t r[{ra + rb}];
  for (int j = 0; j < {ra + rb}; ++j) r[j] = regs[t * {ra + rb} + j];
  {decl}
  const uint32_t zero = 0;
  (void)zero;
  asm volatile("{_mma_sync_ptx(a)} {{{ops[0]}}}, {{{ops[1]}}}, {{{ops[2]}}}, {{{ops[3]}}};" : {outs} : {ins});
  {store}
}}
"""


def dot_values(atom: Any) -> list[int]:
    """Per lane, the A and B words of a dp4a atom: A's element k holds k + 1, B is one-hot at element ``lane % K``."""
    k_ = atom.shape_mnk[2]
    out = []
    for lane in range(32):
        av = [0] * k_
        bv = [0] * k_
        for v in range(k_):
            av[v] = int(atom.layout_a(0, v)) + 1
            bv[v] = int(int(atom.layout_b(0, v)) == lane % k_)
        out += _pack(av, 8) + _pack(bv, 8)
    return out


def _dot_kernel(i: int, c: Case) -> str:
    return f"""
// case {i}: {c.name}: each lane one dp4a; D must be A's element lane % 4, i.e. lane % 4 + 1
__global__ void case{i}(const uint8_t*, int, int, const uint32_t* regs, uint32_t* out) {{
  const int t = threadIdx.x;
  int d;
  asm volatile("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(regs[2 * t]), "r"(regs[2 * t + 1]), "r"(0));
  out[t] = (uint32_t)d;
}}
"""


def cp_async_atom_bytes(c: Case) -> int:
    """Bytes one lane copies in a cp.async atom case (the atom's value width)."""
    return int(c.atom.src_layout.size()) // 8


def cp_async_atom_image(c: Case) -> bytes:
    """The global source of a cp.async atom case: 32 values, byte j = (73 j + 41) mod 251 + 1 (never 0, never 0xFF)."""
    return bytes((73 * j + 41) % 251 + 1 for j in range(32 * cp_async_atom_bytes(c)))


def _cp_async_atom_kernel(i: int, c: Case) -> str:
    nb = cp_async_atom_bytes(c)
    op = "cp.async.cg.shared.global" if "CACHEGLOBAL" in c.atom.name else "cp.async.ca.shared.global"
    zfill = "ZFILL" in c.atom.name
    src_size = ", %2" if zfill else ""
    size_in = f', "r"((t & 1) ? 0 : {nb})' if zfill else ""
    return f"""
// case {i}: {c.name}: lane t copies value t ({nb} bytes) with {op}{' (src-size 0 on odd lanes)' if zfill else ''}
__global__ void case{i}(const uint8_t* img, int, int, const uint32_t*, uint32_t* out) {{
  __shared__ __align__(128) uint32_t s[{8 * nb}];
  const int t = threadIdx.x;
  for (int j = t; j < {8 * nb}; j += 32) s[j] = 0xFFFFFFFFu;
  __syncwarp();
  asm volatile("{op} [%0], [%1], {nb}{src_size};" :: "r"(smem_u32(s) + {nb} * t), "l"(img + {nb} * t){size_in} : "memory");
  asm volatile("cp.async.commit_group;" ::: "memory");
  asm volatile("cp.async.wait_group 0;" ::: "memory");
  __syncwarp();
  for (int j = t; j < {8 * nb}; j += 32) out[j] = s[j];
}}
"""


@dataclass(frozen=True)
class Built:
    """What one case puts into ``atoms_cases.cuh``: its kernel source, its data, and how atoms.cu launches it.

    ``img`` is copied to the GPU (A's ``a_bytes`` first, then the rest), ``regs`` (at most :data:`REGS_WORDS` words)
    too; ``threads`` threads of one block run the kernel, which writes ``words`` 32-bit words.
    """

    kernel: str
    img: bytes
    a_bytes: int
    regs: list[int]
    threads: int
    words: int


def _build_wgmma(i: int, c: Case) -> Built:
    a = c.atom
    n, k, bits = a.shape_mnk[1], a.shape_mnk[2], a.a_bits
    kind = types_of(a)[1]
    img = operand_image(64, k, bits, a_digits, kind) + operand_image(n, k, bits, b_digits, kind)
    regs = a_registers(a) if a.a_source == "reg" else []
    return Built(_wgmma_kernel(i, c), img, 64 * k * bits // 8, regs, 128, 128 * (n // 2 if a.c_bits == 32 else n // 4))


def _build_wgmma_tiled(i: int, c: Case) -> Built:
    a, bm = c.atom.atom, tiled_rows(c)
    n, k, bits = a.shape_mnk[1], a.shape_mnk[2], a.a_bits
    da, db = tiled_digits(bm)
    kind = types_of(a)[1]
    img = operand_image(bm, k, bits, da, kind) + operand_image(n, k, bits, db, kind)
    return Built(_wgmma_tiled_kernel(i, c), img, bm * k * bits // 8, [], 256, 256 * (bm // 128) * (n // 2))


def _build_mma_sync(i: int, c: Case) -> Built:
    a = c.atom
    ra, rb = sync_words(a, "A"), sync_words(a, "B")
    va, vb = sync_values(a, "A"), sync_values(a, "B")
    regs = [w for t in range(32) for w in va[t * ra:(t + 1) * ra] + vb[t * rb:(t + 1) * rb]]
    return Built(_mma_sync_kernel(i, c), b"", 0, regs, 32, 32 * sync_words(a, "C"))


def _build_dot(i: int, c: Case) -> Built:
    return Built(_dot_kernel(i, c), b"", 0, dot_values(c.atom), 32, 32)


def _build_wgmma_sp(i: int, c: Case) -> Built:
    sel = next(sel for n, _, sel in SPARSE_CASES if n == c.name)
    return Built(_wgmma_sp_kernel(i, c, sel), sparse_image(c.atom), 2048, sparse_e_registers(c.atom), 128,
                 128 * c.atom.shape_mnk[1] // 2)


def _build_cp_async_atom(i: int, c: Case) -> Built:
    img = cp_async_atom_image(c)
    return Built(_cp_async_atom_kernel(i, c), img, len(img), [], 32, len(img) // 4)


def _build_tile_copy(i: int, c: Case) -> Built:
    img = tile_image(c.name)
    regs = tile_thread_addresses(c)
    return Built(_tile_copy_kernel(i, c), img, len(img), regs, 32, len(regs) * 4 if c.kind == "ldsm_tile" else len(img) // 4)


def _build_cp_async(i: int, c: Case) -> Built:
    _, cols = tile_of(c.name)
    img = b"".join((r * cols + col).to_bytes(2, "little") for r in range(32) for col in range(cols))
    return Built(_cp_async_kernel(i, c), img, len(img), cp_async_addresses(c.name), 128, len(img) // 4)


def _build_mma_complex(i: int, c: Case) -> Built:
    return Built(atoms_complex.complex_kernel(i, c.name, c.atom), b"", 0, atoms_complex.complex_regs(c.atom), 32,
                 32 * atoms_complex.complex_out_words(c.atom))


def _build_dot2(i: int, c: Case) -> Built:
    return Built(atoms_complex.dp2a_kernel(i, c.name, dp2a_mode(c)), b"", 0, atoms_complex.dp2a_regs(c.atom), 32, 32)


def dp2a_mode(c: Case) -> str:
    """The dp2a mode (``lo`` / ``hi``) of a ``dot2`` case, from its name."""
    return c.name.rsplit("/", 1)[1]


def _build_copy(i: int, c: Case) -> Built:
    return Built(_copy_kernel(i, c), b"", 0, [], 32, 32 * c.atom.num_matrices if c.kind == "ldsm" else 128)


#: case kind -> the function that builds its kernel and data (one per kind of :func:`cases`)
_BUILDERS = {"wgmma": _build_wgmma, "wgmma_tiled": _build_wgmma_tiled, "mma_sync": _build_mma_sync, "dot": _build_dot,
             "wgmma_sp": _build_wgmma_sp, "cp_async_atom": _build_cp_async_atom, "ldsm_tile": _build_tile_copy,
             "stsm_tile": _build_tile_copy, "cp_async": _build_cp_async, "ldsm": _build_copy, "stsm": _build_copy,
             "mma_complex": _build_mma_complex, "dot2": _build_dot2}


def _data_arrays(i: int, c: Case, b: Built) -> list[str]:
    """The C arrays ``img<i>`` and ``regs<i>`` of a case (regs padded to :data:`REGS_WORDS`: atoms.cu copies that many)."""
    if len(b.regs) > REGS_WORDS:
        raise HwCheckError(f"atoms_check: case {c.name} needs {len(b.regs)} input words > {REGS_WORDS}")
    padded = list(b.regs) + [0] * (REGS_WORDS - len(b.regs)) if b.regs else []
    return [f"static const uint8_t img{i}[] = {{{', '.join(str(x) for x in b.img) or '0'}}};",
            f"static const uint32_t regs{i}[] = {{{', '.join(f'{r}u' for r in padded) or '0u'}}};"]


def _plan_row(i: int, c: Case, b: Built) -> dict:
    """The case's row of ``atoms_plan.json``."""
    aname = c.atom.atom.name if c.kind == "wgmma_tiled" else (c.atom.name if c.atom else None)
    return {"index": i, "name": c.name, "kind": c.kind, "atom": aname, "threads": b.threads, "words": b.words,
            "a_bytes": b.a_bytes, "img_bytes": len(b.img), "has_regs": bool(b.regs)}


def _case_table(plan: list[dict]) -> list[str]:
    """``kCases`` (one CaseDef per case, as atoms.cu declares it), ``kNumCases`` and ``kRegsWords``."""
    table = ",\n".join(f"  {{\"{p['name']}\", case{p['index']}, img{p['index']}, {p['a_bytes']}, "
                       f"{p['img_bytes'] - p['a_bytes']}, {'regs' + str(p['index']) if p['has_regs'] else 'nullptr'}, "
                       f"{p['threads']}, {p['words']}}}" for p in plan)
    return [f"static const CaseDef kCases[] = {{\n{table}\n}};\nstatic const int kNumCases = {len(plan)};",
            f"static const int kRegsWords = {REGS_WORDS};"]


def emit(outdir: Path) -> dict:
    """Write OUTDIR/atoms_cases.cuh (kernels + data) and OUTDIR/atoms_plan.json; return the plan.

    Pre:  ``outdir`` a directory path (created if missing); anything else raises HwCheckError.
    Post: the two files written; ``{"cases": plan}``, one row per case of :func:`cases`, in order.

    >>> emit(3)
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.HwCheckError: atoms_check.emit: expected a directory path, got 3 (int)
    """
    outdir = Path(make_output_dir(outdir, "atoms_check.emit", HwCheckError))
    src = ["// generated by `pycute-layouts hwcheck --emit` (pycute_layouts.hwcheck.atoms_check) from "
           "pycute_layouts.arch.atoms: do not edit"]
    plan = []
    for i, c in enumerate(cases()):
        built = _BUILDERS[c.kind](i, c)
        src += [built.kernel, *_data_arrays(i, c, built)]
        plan.append(_plan_row(i, c, built))
    src += _case_table(plan)
    (outdir / "atoms_cases.cuh").write_text("\n".join(src) + "\n")
    (outdir / "atoms_plan.json").write_text(json.dumps(plan, indent=1) + "\n")
    return {"cases": plan}


# --------------------------------------------------------------------------------------------------
# sparse wgmma (SM90::GMMA::SPARSE, 2:4 A with the metadata operand E)

#: (case name, atom, sparsity selector) of the sparse wgmma cases (16-bit A: metadata ELayout_64x32).
SPARSE_CASES = (
    ("wgmma.sp/bf16/SS/N16/sel0", "SM90::GMMA::SPARSE::GMMA_64x16x32_F32BF16BF16_SS<GMMA::Major::K,GMMA::Major::K>", 0),
    ("wgmma.sp/bf16/SS/N16/sel1", "SM90::GMMA::SPARSE::GMMA_64x16x32_F32BF16BF16_SS<GMMA::Major::K,GMMA::Major::K>", 1),
    ("wgmma.sp/bf16/SS/N64/sel0", "SM90::GMMA::SPARSE::GMMA_64x64x32_F32BF16BF16_SS<GMMA::Major::K,GMMA::Major::K>", 0),
)
#: sha256 (first 16 hex digits) of ``str(sparse_e_registers(atom))`` as the 2026-11-26 H100 run used them (every
#: sparse case: one ELayout_64x32). The kernels take the metadata registers the library placed at emit time, so a
#: later change of ``layout_e`` shows here: the GPU's answer then no longer speaks for the new layout.
SPARSE_E_RUN_SHA = "40039da8f2c1409c"
#: the 2:4 index pairs (i0 < i1) a metadata nibble ``i0 | i1 << 2`` can name
SPARSE_PAIRS = ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))


def sparse_pair(m: int, g: int) -> tuple[int, int]:
    """The nonzero positions of row ``m``, K group ``g`` (4 logical elements) of a sparse case's A (varies by row and group)."""
    return SPARSE_PAIRS[(5 * m + g + 3 * (g // 4) + m // 8) % 6]


def sparse_predicted(m: int, n: int) -> int:
    """``D(m, n)``: B's row n is nonzero only in K group ``n % 8`` (``B[n, k] = k % 4 + 1``), A's kept pair is (1, 2)."""
    i0, i1 = sparse_pair(m, n % 8)
    return (i0 + 1) + 2 * (i1 + 1)


def sparse_e_registers(atom: Any) -> list[int]:
    """The metadata register of each of the 128 threads, placed by ``atom.layout_e``.

    CuTe's metadata type is ``sparse_elem<8, uint8_t>``: byte ``j`` of the register is values ``8j .. 8j+7``, the 8
    logical A elements ``layout_e(t, 8j) + 64 i`` (row m, K ``k0 .. k0+7``: two groups of 4); its nibbles are
    ``i0 | i1 << 2`` of groups ``k0 / 4`` and ``k0 / 4 + 1``.
    """
    lay = atom.layout_e
    out = []
    for t in range(128):
        word = 0
        for j in range(4):
            idx = int(lay(t, 8 * j))
            if any(int(lay(t, 8 * j + i)) != idx + 64 * i for i in range(8)):
                raise HwCheckError(f"atoms_check: {atom.name}'s ELayout byte {j} of thread {t} is not 8 K-consecutive elements")
            m, g0 = idx % 64, idx // 64 // 4
            for h in range(2):
                i0, i1 = sparse_pair(m, g0 + h)
                word |= (i0 | i1 << 2) << (8 * j + 4 * h)
        out.append(word)
    return out


def sparse_b_layout(n: int) -> Layout:
    """B's K-major unswizzled canonical layout for K = 32 16-bit elements (4 core matrices along K)."""
    return Layout(((8, n // 8), (8, 4)), ((8, 256), (1, 64)))


def sparse_image(atom: Any) -> bytes:
    """A compressed (64 x 16: the kept pair of every group holds 1, 2) then B (N x 32), as bf16 in shared memory."""
    n = atom.shape_mnk[1]
    img = bytearray(64 * 16 * 2 + n * 32 * 2)
    la, lb = smem_layout(64, 16), sparse_b_layout(n)
    for m in range(64):
        for kk in range(16):
            off = int(la(m, kk)) * 2
            img[off:off + 2] = encode(1 + kk % 2, 16, "bf16").to_bytes(2, "little")
    for r in range(n):
        for kk in range(32):
            off = 2048 + int(lb(r, kk)) * 2
            img[off:off + 2] = encode(kk % 4 + 1 if kk // 4 == r % 8 else 0, 16, "bf16").to_bytes(2, "little")
    return bytes(img)


def _wgmma_sp_kernel(i: int, c: Case, sel: int) -> str:
    a = c.atom
    n = a.shape_mnk[1]
    regs = n // 2
    desc_a = make_smem_desc(smem_layout(64, 16), "K", 16).encode()
    desc_b = make_smem_desc(sparse_b_layout(n), "K", 16).encode()
    dl = ",".join(f"%{j}" for j in range(regs))
    outs = ", ".join(f'"+f"(d[{j}])' for j in range(regs))
    return f"""
// case {i}: {c.name}: {a.name}, metadata from layout_e, sparsity selector {sel}
__global__ void __launch_bounds__(128, 1) case{i}(const uint8_t* img, int a_bytes, int b_bytes, const uint32_t* e_regs,
                                                  uint32_t* out) {{
{_smem_operands(128, B_OFFSET_BYTES)}{_descriptors(desc_a, desc_b, B_OFFSET_BYTES)}  const uint32_t e = e_regs[threadIdx.x];
  float d[{regs}];
#pragma unroll
  for (int j = 0; j < {regs}; ++j) d[j] = 0.f;
  const uint32_t scale_d = 0;
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  asm volatile("{{\\n.reg .pred p;\\nsetp.ne.b32 p, %{regs + 4}, 0;\\n"
               "wgmma.mma_async.sp.sync.aligned.m64n{n}k32.f32.bf16.bf16 {{{dl}}}, "
               "%{regs}, %{regs + 1}, %{regs + 2}, %{regs + 3}, p, 1, 1, 0, 0;\\n}}\\n"
               : {outs}
               : "l"(da), "l"(db), "r"(e), "n"({sel}), "r"(scale_d));
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
#pragma unroll
  for (int j = 0; j < {regs}; ++j) out[threadIdx.x * {regs} + j] = __float_as_uint(d[j]);
}}
"""


def check_sparse(c: Case, out: list[int]) -> tuple[int, list[str]]:
    """(values compared, disagreements) of a sparse wgmma case: value v of thread t holds D of ``layout_c(t, v)``."""
    a = c.atom
    n = a.shape_mnk[1]
    vals = n // 2
    errs: list[str] = []
    cnt = 0
    try:
        sha = hashlib.sha256(str(sparse_e_registers(a)).encode()).hexdigest()[:16]
    except HwCheckError as e:
        sha = str(e)
    if sha != SPARSE_E_RUN_SHA:
        errs.append(f"{c.name}: the metadata registers the library's layout_e {a.layout_e} places today ({sha}) differ "
                    f"from those the GPU ran with ({SPARSE_E_RUN_SHA}): the observation no longer confirms layout_e")
    for t in range(128):
        for v in range(vals):
            idx = int(a.layout_c(t, v))
            m, nn = idx % 64, idx // 64
            got, want = _float(out[t * vals + v]), sparse_predicted(m, nn)
            cnt += 1
            if got != want and len(errs) < 8:
                errs.append(f"{c.name}: thread {t} value {v} = C({m},{nn}) holds {got:g}, the metadata placed by layout_e "
                            f"(pair {sparse_pair(m, nn % 8)} of row {m}, group {nn % 8}) gives {want}")
    return cnt, errs


# --------------------------------------------------------------------------------------------------
# verification of a result file against the current library


def _float(word: int) -> float:
    return struct.unpack("<f", struct.pack("<I", word & 0xFFFFFFFF))[0]


def _value(words: list[int], v: int, dtype: str) -> float:
    """Accumulator value ``v`` of one thread's raw words: f32/s32 one per word, f16 two per word (low half first)."""
    if dtype == "f16":
        return float(np.array((words[v // 2] >> (16 * (v % 2))) & 0xFFFF, dtype=np.uint16).view(np.float16))
    if dtype == "f64":
        return struct.unpack("<d", struct.pack("<Q", (words[2 * v] & 0xFFFFFFFF) | (words[2 * v + 1] & 0xFFFFFFFF) << 32))[0]
    if dtype == "s32":
        w = words[v] & 0xFFFFFFFF
        return float(w - (1 << 32) if w >> 31 else w)
    return _float(words[v])


def check_cp_async_atom(c: Case, out: list[int]) -> tuple[int, list[str]]:
    """(bits compared, disagreements) of a cp.async atom case.

    Bit ``dst_layout(0, b)`` of lane t's destination value must hold bit ``src_layout(0, b)`` of its source value (0 for
    a _ZFILL lane with src-size 0).
    """
    a = c.atom
    nbits = int(a.src_layout.size())
    src = int.from_bytes(cp_async_atom_image(c), "little")
    dst = 0
    for j, w in enumerate(out):
        dst |= (int(w) & 0xFFFFFFFF) << (32 * j)
    errs: list[str] = []
    n = 0
    zfill = "ZFILL" in a.name
    for t in range(32):
        for b in range(nbits):
            want = 0 if zfill and t & 1 else (src >> (t * nbits + int(a.src_layout(0, b)))) & 1
            got = (dst >> (t * nbits + int(a.dst_layout(0, b)))) & 1
            n += 1
            if got != want and len(errs) < 8:
                errs.append(f"{c.name}: lane {t} destination bit {int(a.dst_layout(0, b))} is {got}, library says source "
                            f"bit {int(a.src_layout(0, b))} ({want})")
    return n, errs


def check_case(c: Case, out: list[int]) -> tuple[int, list[str]]:
    """(number of values compared, disagreements) of one case's raw output against the library.

    Pre:  ``c`` one of :func:`cases`; ``out`` the words its kernel wrote (as many as its plan says).
    Post: (values compared, at most 8 messages per case); HwCheckError for output of the wrong length.

    >>> c = next(c for c in cases() if c.name == "mma.sync/SM80_8x8x16_S32S8S8S32_TN")
    >>> ok = [0] * 64
    >>> for t in range(32):
    ...     for v in range(2):
    ...         i = int(c.atom.layout_c(t, v)); ok[2 * t + v] = i % 8 + 8 * (i // 8)
    >>> check_case(c, ok)
    (64, [])
    >>> check_case(c, ok[:10])
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.HwCheckError: check_case: mma.sync/SM80_8x8x16_S32S8S8S32_TN: its output of 10 words is shorter \
than the case writes (a truncated result file?)
    """
    if not isinstance(c, Case) or not isinstance(out, (list, tuple)):
        raise HwCheckError(f"check_case: expected a Case and a list of words, got {type(c).__name__}, {type(out).__name__}")
    try:
        return _CHECKERS[c.kind](c, out)
    except IndexError:
        raise HwCheckError(f"check_case: {c.name}: its output of {len(out)} words is shorter than the case writes "
                           "(a truncated result file?)") from None


def _check_d(name: str, rows: int, got_want) -> tuple[int, list[str]]:
    """(values compared, disagreements) of accumulators that must hold ``D = m + rows n`` of the library's ``(m, n)``.

    ``got_want`` yields (thread, value, D the GPU wrote, index ``m + rows n`` the library's layout gives).
    """
    errs: list[str] = []
    n_cmp = 0
    for t, v, got, idx in got_want:
        n_cmp += 1
        if got != idx and len(errs) < 8:
            errs.append(f"{name}: thread {t} value {v} holds D={got:g} = C({int(got) % rows},{int(got) // rows}), "
                        f"library says C({idx % rows},{idx // rows})")
    return n_cmp, errs


def _check_mma(c: Case, out: list[int]) -> tuple[int, list[str]]:
    a = c.atom
    dt = types_of(a)[0]
    rows, nthr = a.shape_mnk[0], (32 if c.kind == "mma_sync" else a.num_threads)
    vals = a.values_per_thread("C")
    words = max(1, vals * a.c_bits // 32)

    def got_want():
        for t in range(nthr):
            mine = out[t * words:(t + 1) * words]
            at = lane_atom_thread(a, t) if c.kind == "mma_sync" else t
            for v in range(vals):
                idx = int(a.layout_c(at, v))
                yield t, v, _value(mine, v, dt), idx % rows + rows * (idx // rows)
    return _check_d(c.name, rows, got_want())


def _check_wgmma_tiled(c: Case, out: list[int]) -> tuple[int, list[str]]:
    bm, n = tiled_rows(c), c.atom.atom.shape_mnk[1]
    tv = c.atom.partition("C", (bm, n))
    vals = bm * n // 256
    return _check_d(c.name, bm, ((t, v, _float(out[t * vals + v]), int(tv(t, v))) for t in range(256) for v in range(vals)))


def _check_dot(c: Case, out: list[int]) -> tuple[int, list[str]]:
    k_ = c.atom.shape_mnk[2]
    errs: list[str] = []
    for t in range(32):
        got = _value(out, t, "s32")
        if got != t % k_ + 1 and len(errs) < 8:
            errs.append(f"{c.name}: lane {t} holds D={got:g}, library says A's element {t % k_} (value {t % k_ + 1}) "
                        "pairs with B's one-hot element")
    return 32, errs


def _check_ldsm(c: Case, out: list[int]) -> tuple[int, list[str]]:
    nm = c.atom.num_matrices
    errs: list[str] = []
    n_cmp = 0
    for t in range(32):
        for j in range(nm):
            for h in range(2):
                want = int(c.atom.dst_layout(t, 32 * j + 16 * h)) // 16
                got = (out[t * nm + j] >> (16 * h)) & 0xFFFF
                n_cmp += 1
                if got != want and len(errs) < 8:
                    errs.append(f"{c.name}: thread {t} register {j} half {h} got element {got}, library says {want}")
    return n_cmp, errs


def _check_stsm(c: Case, out: list[int]) -> tuple[int, list[str]]:
    halves = [(w >> (16 * h)) & 0xFFFF for w in out for h in range(2)]
    errs: list[str] = []
    n_cmp = 0
    for t in range(32):
        for j in range(c.atom.num_matrices):
            for h in range(2):
                e = int(c.atom.src_layout(t, 32 * j + 16 * h)) // 16
                n_cmp += 1
                if halves[e] != 8 * t + 2 * j + h and len(errs) < 8:
                    errs.append(f"{c.name}: shared element {e} holds code {halves[e]}, library says thread {t} "
                                f"register {j} half {h} (code {8 * t + 2 * j + h})")
    return n_cmp, errs


#: case kind -> the function that checks its raw output against the library (one per kind of :func:`cases`)
_CHECKERS = {"wgmma": _check_mma, "mma_sync": _check_mma, "dot": _check_dot, "cp_async_atom": check_cp_async_atom,
             "wgmma_sp": check_sparse, "wgmma_tiled": _check_wgmma_tiled, "ldsm_tile": check_tile, "stsm_tile": check_tile,
             "cp_async": check_tile, "ldsm": _check_ldsm, "stsm": _check_stsm,
             "mma_complex": lambda c, out: atoms_complex.check_complex(c.name, c.atom, out),
             "dot2": lambda c, out: atoms_complex.check_dp2a(c.name, c.atom, dp2a_mode(c), out)}


def verify(data: dict, the_cases: list[Case] | None = None) -> tuple[int, list[str]]:
    """(values compared, every disagreement) between a result file and the library.

    Pre:  ``data`` a result dict whose cases have ``name``, ``error`` and ``out``; cases of an older run
          (a subset of :func:`cases`) are checked one by one.
    Post: (values compared, disagreements); empty disagreements: every value held.
    HwCheckError for a dict without a ``cases`` list.

    >>> verify({"cases": []})
    (0, [])
    """
    if not isinstance(data, dict) or not isinstance(data.get("cases"), list):
        raise HwCheckError(f"atoms_check.verify: expected a result dict with a 'cases' list, got {type(data).__name__}")
    by = {c.name: c for c in (the_cases if the_cases is not None else cases())}
    errs: list[str] = []
    total = 0
    names = [r["name"] for r in data["cases"]]
    if set(names) - set(by):
        errs.append(f"case set differs: file-only {sorted(set(names) - set(by))}")
    for r in data["cases"]:
        if r["name"] not in by:
            continue
        if r.get("error"):
            errs.append(f"{r['name']}: CUDA error {r['error']}")
            continue
        n, e = check_case(by[r["name"]], r["out"])
        total += n
        errs += e
    return total, errs


