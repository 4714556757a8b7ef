"""What the library predicts for each case: the wgmma operands' constants, descriptors, e2e and im2col results."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from functools import cache
from typing import Any

import numpy as np

from .. import codegen
from ..arch import im2col, tma, wgmma
from ..arch.swizzle_modes import SwizzleMode
from ..core.composed import SwizzledSmemLayout
from ..errors import HwCheckError, LayoutError
from ..limits import fmt
from .cases import (
    ABS_B,
    ABS_DATA,
    ABS_PLACE,
    DTYPE_BITS,
    IM2COL_REGION_BYTES,
    K_INSTR_ELEMS,
    WRONG_MODE,
    cfg_id,
    fnv_hash,
    operand_values,
    seed_of,
)

__all__ = ["mma_constants"]


# --------------------------------------------------------------------------------------------------
# Library-derived constants of one wgmma case
# --------------------------------------------------------------------------------------------------


@dataclasses.dataclass
class _OperandConsts:
    addrs: np.ndarray  # (MN, K) absolute byte address of every element (plain-store / TMA placement)
    descs: list[list[wgmma.SmemDescriptor]]  # [mn block][k step]
    k_step_bytes: list[int]  # start-address advance between consecutive K steps (block 0)
    boxes: list[tuple[int, int, int]]  # TMA: (coord0, coord1, dst absolute address)
    box: tuple[int, int]  # TMA box (elements, rows); (0, 0) where codegen gives no TMA plan
    tma_mode: int
    oc: Any = None  # the codegen.OperandConstants it was read from


def _order(cfg: dict) -> str:
    """The tile order of a configuration: its ``order``, else ``mn_first`` (see docs/hardware-validation.md)."""
    return cfg.get("order") or "mn_first"


def _spec(cfg: dict) -> dict:
    """The codegen spec (``codegen.parse_spec`` input) of one wgmma configuration: operands A and B at their addresses."""
    def op(mn: int, major: str, start: int, mma_mn: int) -> dict:
        return {"tile": [mn, cfg["K"]], "dtype": cfg["dtype"], "major": major, "swizzle": cfg["mode"],
                "order": _order(cfg), "mma_mn": mma_mn, "start_address": start}
    return {"kernel": namespace_of(cfg), "arch": "sm90",
            "A": op(cfg["M"], cfg["major_a"], ABS_DATA + cfg["off_a"], 64),
            "B": op(cfg["N"], cfg["major_b"], ABS_B + cfg["off_b"], cfg["N"])}


def namespace_of(cfg: dict) -> str:
    return "hw_" + hashlib.sha256(cfg_id(cfg).encode()).hexdigest()[:12]


def _codegen_consts(cfg: dict) -> tuple[Any, Any, Any]:
    """``(A, B, kc)``: codegen's OperandConstants of both operands, and the KernelConstants where codegen's
    ``kernel_constants`` takes the configuration (tiles on the swizzle pattern boundary, absolute anchor; the
    generated header comes from ``emit_header(kc)``). Other configurations (tiles off the boundary, tile-relative
    swizzle) come from ``codegen.describe_operand`` and ``kc`` is None."""
    spec = _spec(cfg)
    mode = SwizzleMode.parse(cfg["mode"])
    align = max(mode.pattern_boundary_bytes, 16)
    starts = (spec["A"]["start_address"], spec["B"]["start_address"])
    if cfg["anchor"] == "absolute" and all(s % align == 0 for s in starts):
        kc = codegen.kernel_constants(codegen.parse_spec(spec))
        return kc.operand("A"), kc.operand("B"), kc
    ops = []
    for name in ("A", "B"):
        o = spec[name]
        ops.append(codegen.describe_operand("sm90", o["major"], o["swizzle"], o["dtype"], tuple(o["tile"]),
                                            o["start_address"], order=o["order"], mma_mn=o["mma_mn"],
                                            swizzle_anchor=cfg["anchor"], name=name))
    return ops[0], ops[1], None


def _r1_boxes(major: str, mode: str, eb: int, mn: int, k: int, comp: SwizzledSmemLayout, base: int
              ) -> tuple[tuple[int, int], list[tuple[int, int, int]]]:
    """The TMA boxes of a configuration without ``order``: K-major one box per K atom covering every row,
    MN-major one box per atom (8 rows). Result-file formats: docs/hardware-validation.md."""
    w_elems = SwizzleMode.parse(mode).width_bytes // eb
    boxes: list[tuple[int, int, int]] = []
    if major == "K":
        for k0 in range(0, k, w_elems):
            boxes.append((k0, 0, base + int(comp.inner(0, k0)) * eb))
        return (w_elems, mn), boxes
    for k0 in range(0, k, 8):
        for m0 in range(0, mn, w_elems):
            boxes.append((m0, k0, base + int(comp.inner(m0, k0)) * eb))
    return (w_elems, 8), boxes


def _operand(oc: Any, cfg: dict, major: str, base: int) -> _OperandConsts:
    """One operand's constants read from codegen's OperandConstants; store addresses from SwizzledSmemLayout."""
    bits = oc.element_bits
    eb = bits // 8
    comp = oc.tile_layout  # Sw o smem_ptr[Nb] o (MN, K) tile (swizzle on bytes), exactly the tile codegen derived
    mn, k = oc.tile_mn, oc.tile_k
    mm, kk = np.meshgrid(np.arange(mn), np.arange(k), indexing="ij")
    if cfg["anchor"] == "absolute":
        addrs = np.asarray(SwizzledSmemLayout(comp.byte_swizzle(), comp.layout, bits, base_address=base).byte_address(mm, kk))
    else:
        addrs = base + np.asarray(SwizzledSmemLayout(comp.byte_swizzle(), comp.layout, bits).byte_address(mm, kk))
    descs = [[wgmma.SmemDescriptor.decode(v + (off >> 4)) for v in oc.descs[0]] for off in oc.mn_block_offsets_bytes]
    steps = [b - a for a, b in zip(oc.k_step_offsets_bytes, oc.k_step_offsets_bytes[1:])]
    if "order" not in cfg:  # a round-1 record
        box, boxes = _r1_boxes(major, cfg["mode"], eb, mn, k, comp, base)
        mode = SwizzleMode.parse(cfg["mode"]).tma_swizzle
    elif oc.tma_box_dim is None:
        box, boxes, mode = (0, 0), [], SwizzleMode.parse(cfg["mode"]).tma_swizzle
    else:
        box = tuple(oc.tma_box_dim)
        boxes = [(int(ci), int(cr), int(oc.stage_starts[0] + off))
                 for (ci, cr), off in zip(oc.tma_copy_coords, oc.tma_copy_offsets_bytes, strict=True)]
        mode = int(oc.tma_swizzle)
    return _OperandConsts(addrs.astype(np.int64), descs, steps, boxes, box, int(mode), oc)


def _box_elements(major: str, c0: int, c1: int, box: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """(mn, k) of the elements of one box, in box byte-row order (rows, elements)."""
    r, e = np.meshgrid(np.arange(box[1]), np.arange(box[0]), indexing="ij")
    if major == "K":
        return c1 + r, c0 + e
    return c0 + e, c1 + r


def _tma_placement(op: _OperandConsts, major: str, eb: int, mode: int) -> np.ndarray:
    """Where the library says TMA puts each element (box_to_smem), as an (MN, K) address array."""
    mn, k = op.addrs.shape
    out = np.full((mn, k), -1, dtype=np.int64)
    for c0, c1, dst in op.boxes:
        placed = tma.box_to_smem(mode, eb, op.box, dst) + dst  # (rows, row bytes)
        first = placed[:, ::eb]  # the first byte of each element
        mi, ki = _box_elements(major, c0, c1, op.box)
        out[mi, ki] = first
    return out


@cache
def _mma_consts_cached(key: str) -> dict:
    cfg = {k: v for k, v in json.loads(key).items() if v is not None}
    dtype, m, n, k = cfg["dtype"], cfg["M"], cfg["N"], cfg["K"]
    try:
        oa, ob, kc = _codegen_consts(cfg)
    except LayoutError as e:
        raise HwCheckError(f"mma_constants: codegen refuses {cfg_id(cfg)}: {str(e).splitlines()[0]}") from None
    a = _operand(oa, cfg, cfg["major_a"], ABS_DATA + cfg["off_a"])
    b = _operand(ob, cfg, cfg["major_b"], ABS_B + cfg["off_b"])
    seed = seed_of(cfg_id(cfg))
    va, vb = operand_values(seed, (m, k)), operand_values(seed + 1, (n, k))
    bits, ki = DTYPE_BITS[dtype], K_INSTR_ELEMS[dtype]
    ref = va.astype(np.int32) @ vb.astype(np.int32).T  # exact; integer matmul avoids BLAS threads
    return {"A": a, "B": b, "kc": kc, "va": va, "vb": vb, "ref_hash": fnv_hash(ref),
            "a_addr_hash": fnv_hash(a.addrs), "b_addr_hash": fnv_hash(b.addrs),
            "reads_A": _model_reads(a.descs, cfg["major_a"], bits, 64, ki),
            "reads_B": _model_reads(b.descs, cfg["major_b"], bits, n, ki)}


def mma_constants(cfg: dict) -> dict:
    """The library-derived constants of one wgmma configuration (see :func:`plan` for ``cfg``).

    Pre:  ``cfg`` a wgmma configuration of the plan (dtype, M, N, K, majors, modes).
    Post: the library's constants and operand values of that configuration; HwCheckError otherwise.

    Returns ``A`` and ``B`` (store addresses, descriptors per MN block and K step, K-step
    advances, TMA boxes) and the operand values ``va`` (M x K) and ``vb`` (N x K).

    >>> c = mma_constants({"dtype": "bf16", "major_a": "K", "major_b": "K", "mode": "128B", "M": 64, "N": 64,
    ...                    "K": 64, "off_a": 0, "off_b": 0, "anchor": "absolute"})
    >>> hex(c["A"].descs[0][1].encode()), c["A"].k_step_bytes
    ('0x4000004000010202', [32, 32, 32])
    """
    if not isinstance(cfg, dict):
        raise HwCheckError(f"mma_constants: the configuration must be a dict (see plan()), got {fmt(cfg)}"[:200])
    try:
        key = json.dumps({**{k: cfg[k] for k in ("dtype", "major_a", "major_b", "mode", "M", "N", "K", "off_a", "off_b",
                                                 "anchor")}, "order": cfg.get("order")}, sort_keys=True)
    except (KeyError, TypeError) as e:
        raise HwCheckError(f"mma_constants: bad configuration {fmt(cfg)}: {e}") from None
    return _mma_consts_cached(key)


def _mutate(d: wgmma.SmemDescriptor, field: str, cfg: dict) -> wgmma.SmemDescriptor:
    if field == "lbo+16":
        return dataclasses.replace(d, lbo_bytes=d.lbo_bytes + 16)
    if field == "lbo+4096":
        return dataclasses.replace(d, lbo_bytes=d.lbo_bytes + 4096)
    if field == "sbo+16":
        return dataclasses.replace(d, sbo_bytes=d.sbo_bytes + 16)
    if field == "mode":
        return dataclasses.replace(d, swizzle=WRONG_MODE[cfg["mode"]])
    if field == "base_offset^1":
        return dataclasses.replace(d, base_offset=d.base_offset ^ 1)
    if field == "base_offset+2":
        return dataclasses.replace(d, base_offset=(d.base_offset + 2) & 7)
    if field == "base_offset+4":
        return dataclasses.replace(d, base_offset=(d.base_offset + 4) & 7)
    raise HwCheckError(f"hwcheck: unknown mutation {fmt(field)}")


def _model_reads(descs: list[list[wgmma.SmemDescriptor]], major: str, bits: int, mn_instr: int, k_instr: int) -> np.ndarray:
    return np.stack([np.stack([d.element_addresses(major, bits, (mn_instr, k_instr)) for d in row]) for row in descs])


def case_descriptors(case: dict) -> tuple[list[list[int]], list[int], bool | None]:
    """Descriptors (encoded) the case runs with, and for ``neg`` whether the library predicts a wrong product."""
    cfg = case["cfg"]
    c = mma_constants(cfg)
    bits, ki = DTYPE_BITS[cfg["dtype"]], K_INSTR_ELEMS[cfg["dtype"]]
    da, db = c["A"].descs, c["B"].descs
    predicted = None
    mut = case.get("mutation")
    if mut and mut["field"] != "tma_swizzle":
        op = mut["operand"]
        src = da if op == "A" else db
        mutated = [[_mutate(d, mut["field"], cfg) for d in row] for row in src]
        major = cfg["major_a"] if op == "A" else cfg["major_b"]
        mn_i = 64 if op == "A" else cfg["N"]
        before = c["reads_" + op]
        after = _model_reads(mutated, major, bits, mn_i, ki)
        predicted = bool(np.any(before != after))
        if op == "A":
            da = mutated
        else:
            db = mutated
    return [[d.encode() for d in row] for row in da], [d.encode() for d in db[0]], predicted


def e2e_prediction(case: dict) -> tuple[bool, int]:
    """For a TMA-loaded case: (does the library's TMA placement equal what the descriptors read, tma swizzle used)."""
    cfg = case["cfg"]
    c = mma_constants(cfg)
    bits = DTYPE_BITS[cfg["dtype"]]
    eb = bits // 8
    ok = True
    mode_a = c["A"].tma_mode
    for op, major in (("A", cfg["major_a"]), ("B", cfg["major_b"])):
        oc = c[op]
        mode = oc.tma_mode
        mut = case.get("mutation")
        if mut and mut["field"] == "tma_swizzle" and mut["operand"] == op:
            mode = 0 if oc.tma_mode else 3
            if op == "A":
                mode_a = mode
        try:
            placed = _tma_placement(oc, major, eb, mode)
        except LayoutError:
            return False, mode_a
        ok &= bool(np.array_equal(placed, oc.addrs))
    return ok, mode_a




def im2col_prediction(c: dict, dense: bool = False) -> dict:
    """The library's prediction for an im2col case: which pixel lands in which smem row (``im2col_load``),
    where each element's bytes go (``tma.box_to_smem`` with box ``(channels, pixels)``; ``dense=True``: rows
    packed at ``channels * elem_bytes`` as docs/im2col.md's element offsets read literally), and the dumped
    region's expected values (``1 + linear element index`` of the global tensor; 0 = filled)."""
    eb = int(tma.TensorDataType.parse(c["dtype"]).size_bytes)
    acc = im2col.im2col_load(coords=c["coords"], offsets=c["offsets"], global_dim=c["gdim"],
                             pixel_box_lower_corner=c["lower"], pixel_box_upper_corner=c["upper"],
                             channels_per_pixel=c["channels"], pixels_per_column=c["pixels"],
                             element_strides=c["estrides"])
    el = acc.elements()
    dims = c["gdim"]
    spatial = [el["w"]] + ([el["h"]] if len(dims) == 4 else [])
    lin = np.zeros_like(el["c"])
    for coord, size in zip(reversed([el["c"], *spatial, el["n"]]), reversed(dims), strict=True):
        lin = lin * size + coord
    vals = np.where(el["in_bounds"], (1 + lin) % (1 << (8 * eb)), 0).astype(np.int64)
    rows, cpp = acc.num_rows, c["channels"]
    dst = ABS_PLACE + c["dst_off"]
    pitch = {"row_pitch_bytes": cpp * eb} if dense else {}
    placed = tma.box_to_smem(c["swizzle"], eb, (cpp, rows), dst, **pitch)  # (rows, cpp * eb) offsets from dst
    idx = (c["dst_off"] + placed[:, ::eb]) // eb  # element index of each (row, channel) in the region
    region = np.zeros(IM2COL_REGION_BYTES // eb, dtype=np.int64)
    if idx.max() >= region.size:
        raise HwCheckError(f"hwcheck: im2col case {c['id']} does not fit the {IM2COL_REGION_BYTES}-byte region")
    region[idx.ravel()] = vals
    row_pix = np.where(acc.in_bounds & acc.channel_in_bounds[0], lin.reshape(rows, cpp)[:, 0] // dims[0], -1)
    return {"acc": acc, "elem_bytes": eb, "expected": region, "row0": idx[:, 0].astype(np.int64), "rows": rows,
            "row_pixels": row_pix.astype(np.int64), "hash": fnv_hash(region)}
