"""The CUDA sources of the hardware checks: the generated header, the data blob and the plan."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from .. import codegen
from ..arch import tma
from ..errors import HwCheckError, LayoutError
from .cases import (
    ABS_B,
    ABS_DATA,
    ABS_MBAR,
    ABS_PLACE,
    DTYPE_BITS,
    DYN_SMEM_BYTES,
    IM2COL_REGION_BYTES,
    K_INSTR_ELEMS,
    PLACE_REGION_BYTES,
    cfg_id,
    plan,
    to_bits,
)
from .predict import case_descriptors, e2e_prediction, im2col_prediction, mma_constants, namespace_of

__all__ = ['emit']


# --------------------------------------------------------------------------------------------------
# Emitting the CUDA sources
# --------------------------------------------------------------------------------------------------


def _variant(dtype: str, n: int, ta: int, tb: int) -> str:
    return f"{dtype}_n{n}_t{ta}{tb}"


def _variants(cases: Iterable[dict]) -> list[tuple[str, int, int, int]]:
    seen: dict[str, tuple[str, int, int, int]] = {}
    for c in cases:
        if c["kind"] in ("mma", "e2e", "neg"):
            cfg = c["cfg"]
            ta, tb = int(cfg["major_a"] == "MN"), int(cfg["major_b"] == "MN")
            seen[_variant(cfg["dtype"], cfg["N"], ta, tb)] = (cfg["dtype"], cfg["N"], ta, tb)
    return sorted(seen.values())


def _wgmma_asm(dtype: str, n: int, ta: int, tb: int) -> str:
    regs = n // 2
    k = K_INSTR_ELEMS[dtype]
    ptx_t = {"bf16": "bf16", "tf32": "tf32", "e4m3": "e4m3"}[dtype]
    dl = ",".join(f"%{i}" for i in range(regs))
    tail = f", {ta}, {tb}" if dtype == "bf16" else ""
    outs = ", ".join(f'"+f"(d[{i}])' for i in range(regs))
    return (f'    asm volatile("{{\\n.reg .pred p;\\nsetp.ne.b32 p, %{regs + 2}, 0;\\n"\n'
            f'                 "wgmma.mma_async.sync.aligned.m64n{n}k{k}.f32.{ptx_t}.{ptx_t} {{{dl}}}, %{regs}, '
            f'%{regs + 1}, p, 1, 1{tail};\\n}}\\n"\n'
            f'                 : {outs}\n                 : "l"(da), "l"(db), "r"(scale_d));\n')


def _c_str(s: str) -> str:
    return json.dumps(s)


def _u64(vals: Iterable[int]) -> str:
    return "{" + ", ".join(f"0x{v:016x}ull" for v in vals) + "}"


def _describe_header(ns: str, a: Any, b: Any) -> str:
    """The members of codegen's header that the harness reads, for operands that only ``describe_operand`` covers."""
    L = [f"// {ns}: pycute_layouts.codegen.describe_operand (off the pattern boundary or tile-relative swizzle)",
         f"namespace {ns} {{"]
    for o in (a, b):
        n = max(len(o.tma_copy_coords), 1)
        coords = o.tma_copy_coords or ((0, 0),)
        toffs = o.tma_copy_offsets_bytes or (0,)
        L += [f"// Operand {o.name}: {o.tile_mn}x{o.tile_k} {o.dtype.name} {o.major}-major {o.swizzle}, {o.order}, "
              f"anchor {o.swizzle_anchor}: {o.tile_layout}",
              f"struct Operand{o.name} {{",
              f"  static constexpr uint32_t kStageStart[1] = {{{o.stage_starts[0]}u}};",
              f"  static constexpr uint64_t kDescStageK[1][{o.k_steps}] = "
              f"{{{{{', '.join(f'0x{v:016x}ull' for v in o.descs[0])}}}}};",
              f"  static constexpr uint32_t kMmaMNBlockOffsetBytes[{len(o.mn_block_offsets_bytes)}] = "
              f"{{{', '.join(f'{v}u' for v in o.mn_block_offsets_bytes)}}};",
              f"  static constexpr int kTmaSwizzle = {int(o.tma_swizzle) if o.tma_swizzle is not None else -1};",
              f"  static constexpr uint32_t kTmaBoxDim[2] = {{{', '.join(f'{v}u' for v in (o.tma_box_dim or (0, 0)))}}};",
              f"  static constexpr int kTmaCopies = {len(o.tma_copy_coords)};",
              f"  static constexpr int kTmaCopyCoord[{n}][2] = {{{', '.join(f'{{{x}, {y}}}' for x, y in coords)}}};",
              f"  static constexpr uint32_t kTmaCopyOffsetBytes[{n}] = {{{', '.join(f'{v}u' for v in toffs)}}};",
              "};",
              f"inline constexpr CUtensorMapDataType kTmaDataType{o.name} = {o.tma_data_type};"]
    L.append(f"}}  // namespace {ns}")
    return "\n".join(L) + "\n"


def emit(out_dir: str | os.PathLike) -> dict:
    """Write ``hwcheck_cases.cuh`` and ``hwcheck_data.bin`` (and ``plan.json``) into ``out_dir``.

    Every layout constant in them comes from the library: the TMA swizzle modes, boxes and
    destinations, the wgmma descriptors (``make_smem_desc(...).encode()``) per K step, and the
    shared-memory address of every operand element (``SwizzledSmemLayout.byte_address``).
    Returns counts per kind. ``examples/hardware/hwcheck.cu`` includes the header.

    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile() as f:
    ...     emit(f.name)
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.HwCheckError: hwcheck --emit: ... exists and is not a directory
    """
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise HwCheckError(f"hwcheck --emit: {out} exists and is not a directory")
    out.mkdir(parents=True, exist_ok=True)
    cases = plan()
    blob = bytearray()

    def put(arr: np.ndarray, dtype: Any) -> int:
        off = len(blob)
        blob.extend(np.ascontiguousarray(arr, dtype=dtype).tobytes())
        while len(blob) % 16:
            blob.append(0)
        return off

    h: list[str] = ["// Generated by `pycute-layouts hwcheck --emit` from pycute_layouts; do not edit.",
                    "// Every layout constant below was computed by pycute_layouts.arch (tma, wgmma).", "#pragma once",
                    "#include <cstdint>", "",
                    f"constexpr uint32_t kAbsMbar = {ABS_MBAR:#x};", f"constexpr uint32_t kAbsData = {ABS_DATA:#x};",
                    f"constexpr uint32_t kAbsB = {ABS_B:#x};", f"constexpr uint32_t kAbsPlace = {ABS_PLACE:#x};",
                    f"constexpr uint32_t kPlaceRegion = {PLACE_REGION_BYTES:#x};",
                    f"constexpr uint32_t kDynSmem = {DYN_SMEM_BYTES:#x};", ""]
    # ---- placement
    place = [c for c in cases if c["kind"] == "place"]
    h.append("struct PlaceCase { const char* id; int mode; int elem_bytes; int box0; int box1; uint32_t dst_off; "
             "uint64_t expect_off; int expect_ok; };")
    h.append(f"constexpr int kNumPlace = {len(place)};")
    h.append("static const PlaceCase kPlace[] = {")
    for c in place:
        try:
            pred = tma.box_to_smem(c["mode"], c["elem_bytes"], c["box"], ABS_PLACE + c["dst_off"]).ravel()
            ok = 1
        except LayoutError:
            pred, ok = np.zeros(1, dtype=np.int64), 0
        off = put(pred, "<i4")
        h.append(f"  {{{_c_str(c['id'])}, {c['mode']}, {c['elem_bytes']}, {c['box'][0]}, {c['box'][1]}, {c['dst_off']}, "
                 f"{off}ull, {ok}}},")
    h.append("};\n")
    # ---- validation battery
    val = [c for c in cases if c["kind"] == "valid"]
    h.append("struct ValCase { const char* id; int im2col; int dtype; int rank; uint64_t gdim[5]; uint64_t gstrides[4]; "
             "uint32_t box[5]; uint32_t estrides[5]; int lower[3]; int upper[3]; int channels; int pixels; int interleave; "
             "int swizzle; int oob; uint32_t addr_off; const char* params; };")
    h.append(f"constexpr int kNumVal = {len(val)};")
    h.append("static const ValCase kVal[] = {")
    for c in val:
        def arr(xs: Sequence[int], n: int, fmt: str = "{}") -> str:
            xs = list(xs) + [0] * (n - len(xs))
            return "{" + ", ".join(fmt.format(x) for x in xs) + "}"
        h.append(f"  {{{_c_str(c['id'])}, {int(c['function'] == tma.IM2COL)}, {int(tma.TensorDataType.parse(c['dtype']))}, "
                 f"{len(c['gdim'])}, {arr(c['gdim'], 5, '{}ull')}, {arr(c['gstrides'], 4, '{}ull')}, "
                 f"{arr(c.get('box', []), 5)}, {arr(c['estrides'], 5)}, {arr(c.get('lower', []), 3)}, "
                 f"{arr(c.get('upper', []), 3)}, {c.get('channels', 0)}, {c.get('pixels', 0)}, "
                 f"{int(tma.Interleave.parse(c['interleave']))}, {int(tma.TmaSwizzle.parse(c['swizzle']))}, "
                 f"{int(tma.OobFill.parse(c['oob']))}, {c['addr_off']}, {_c_str(json.dumps(c, sort_keys=True))}}},")
    h.append("};\n")
    # ---- store (same record as placement)
    store = [c for c in cases if c["kind"] == "store"]
    h.append(f"constexpr int kNumStore = {len(store)};")
    h.append("static const PlaceCase kStore[] = {")
    for c in store:
        try:
            pred, ok = tma.box_to_smem(c["mode"], c["elem_bytes"], c["box"], ABS_PLACE + c["dst_off"]).ravel(), 1
        except LayoutError:  # the library refuses it (e.g. a destination off the 128-byte lines): expect a fault
            pred, ok = np.zeros(1, dtype=np.int64), 0
        h.append(f"  {{{_c_str(c['id'])}, {c['mode']}, {c['elem_bytes']}, {c['box'][0]}, {c['box'][1]}, {c['dst_off']}, "
                 f"{put(pred, '<i4')}ull, {ok}}},")
    h.append("};\n")
    # ---- im2col
    i2c = [c for c in cases if c["kind"] == "im2col"]
    h.append(f"constexpr uint32_t kIm2colRegion = {IM2COL_REGION_BYTES:#x};")
    h.append("struct Im2colCase { const char* id; int rank; int dtype; int elem_bytes; uint64_t gdim[5]; uint64_t gstrides[4]; "
             "int lower[3]; int upper[3]; int channels; int pixels; uint32_t estrides[5]; int swizzle; int coords[5]; "
             "uint16_t offsets[3]; uint32_t dst_off; uint64_t expect_off; uint64_t row0_off; int rows; "
             "const char* params; };")
    h.append(f"constexpr int kNumIm2col = {len(i2c)};")
    h.append("static const Im2colCase kIm2col[] = {")
    for c in i2c:
        try:
            pr = im2col_prediction(c)
        except LayoutError:  # refused by the library (a destination off the 128-byte lines): the GPU must fault
            pr = im2col_prediction(dict(c, dst_off=c["dst_off"] - c["dst_off"] % 128))
        eb = pr["elem_bytes"]

        def arr(xs: Sequence[int], n: int, fmt: str = "{}") -> str:
            xs = list(xs) + [0] * (n - len(xs))
            return "{" + ", ".join(fmt.format(x) for x in xs) + "}"
        gstr = [int(np.prod(c["gdim"][:i + 1])) * eb for i in range(len(c["gdim"]) - 1)]
        h.append(f"  {{{_c_str(c['id'])}, {len(c['gdim'])}, {int(tma.TensorDataType.parse(c['dtype']))}, {eb}, "
                 f"{arr(c['gdim'], 5, '{}ull')}, {arr(gstr, 4, '{}ull')}, {arr(c['lower'], 3)}, {arr(c['upper'], 3)}, "
                 f"{c['channels']}, {c['pixels']}, {arr(c['estrides'], 5)}, {int(tma.TmaSwizzle.parse(c['swizzle']))}, "
                 f"{arr(c['coords'], 5)}, {arr(c['offsets'], 3)}, {c['dst_off']}, {put(pr['expected'], '<i4')}ull, "
                 f"{put(pr['row0'], '<i4')}ull, {pr['rows']}, {_c_str(json.dumps(c, sort_keys=True))}}},")
    h.append("};\n")
    # ---- wgmma variants
    variants = _variants(cases)
    vindex = {_variant(*v): i for i, v in enumerate(variants)}
    for i, (dtype, n, ta, tb) in enumerate(variants):
        h.append(f"// variant {i}: wgmma m64n{n}k{K_INSTR_ELEMS[dtype]} {dtype}, A {'MN' if ta else 'K'}-major, "
                 f"B {'MN' if tb else 'K'}-major")
        h.append(f"struct Variant{i} {{\n  static constexpr int N = {n};\n  static constexpr int kBits = {DTYPE_BITS[dtype]};")
        h.append(f"  __device__ static void mma(float (&d)[{n // 2}], uint64_t da, uint64_t db, uint32_t scale_d) {{")
        h.append(_wgmma_asm(dtype, n, ta, tb) + "  }\n};")
    h.append(f"constexpr int kNumVariants = {len(variants)};")
    h.append("#define HWCHECK_FOR_EACH_VARIANT(X) " + " ".join(f"X({i})" for i in range(len(variants))) + "\n")
    # ---- mma / e2e / neg: every operand constant is read from codegen's header (namespace per configuration)
    mm = [c for c in cases if c["kind"] in ("mma", "e2e", "neg")]
    cg: list[str] = ["// Generated by `pycute-layouts hwcheck --emit`: one namespace per wgmma configuration.",
                     "// Configurations on the swizzle pattern boundary: codegen.emit_header(kernel_constants(spec))",
                     "// verbatim. Tiles off the boundary / tile-relative swizzle (which kernel_constants refuses by design):",
                     "// the same member names, values from pycute_layouts.codegen.describe_operand.", "#pragma once", ""]
    seen: set[str] = set()
    n_header = n_describe = 0
    for c in mm:
        ns = namespace_of(c["cfg"])
        if ns in seen:
            continue
        seen.add(ns)
        k = mma_constants(c["cfg"])
        if k["kc"] is not None:
            cg.append(codegen.emit_header(k["kc"]))
            n_header += 1
        else:
            cg.append(_describe_header(ns, k["A"].oc, k["B"].oc))
            n_describe += 1
    (out / "hwcheck_codegen.cuh").write_text("\n".join(cg) + "\n")
    h.append('#include "hwcheck_codegen.cuh"')
    h.append(f"// {n_header} configurations from codegen.emit_header, {n_describe} from codegen.describe_operand")
    h.append("struct MmaCase { const char* id; const char* kind; int variant; int loader; int M; int N; int K; int mblocks; "
             "int ksteps; int bits; uint64_t descA[32]; uint64_t descB[32]; uint64_t a_vals; uint64_t a_addrs; "
             "uint64_t b_vals; uint64_t b_addrs; uint64_t a_int; uint64_t b_int; int tma_mode_a; int tma_mode_b; "
             "int tma_dtype_a; int tma_dtype_b; uint32_t box_a[2]; uint32_t box_b[2]; int nboxes_a; int nboxes_b; "
             "const int* coord_a; const int* coord_b; const uint32_t* off_a; const uint32_t* off_b; uint32_t stage_a; "
             "uint32_t stage_b; int major_a_mn; int major_b_mn; int expect_mismatch; const char* cfg; const char* mutation; };")
    h.append(f"constexpr int kNumMma = {len(mm)};")
    h.append("static const MmaCase kMma[] = {")
    blobs: dict[str, tuple[int, ...]] = {}
    for c in mm:
        cfg = c["cfg"]
        k = mma_constants(cfg)
        ns = namespace_of(cfg)
        key = cfg_id(cfg)
        if key not in blobs:
            bt = to_bits(cfg["dtype"], k["va"]), to_bits(cfg["dtype"], k["vb"])
            blobs[key] = (put(bt[0], "<u4"), put(k["A"].addrs, "<u4"), put(bt[1], "<u4"), put(k["B"].addrs, "<u4"),
                          put(k["va"], "i1"), put(k["vb"], "i1"))
        offs = blobs[key]
        da, db, predicted = case_descriptors(c)
        mut = c.get("mutation") or {}
        ta, tb = int(cfg["major_a"] == "MN"), int(cfg["major_b"] == "MN")
        loader = 1 if (c["kind"] == "e2e" or c.get("loader") == "tma") else 0
        tma_a = f"{ns}::OperandA::kTmaSwizzle"
        if mut.get("field") == "tma_swizzle":
            predicted_ok, mode_a = e2e_prediction(c)
            predicted, tma_a = not predicted_ok, str(mode_a)
        n_k = len(k["A"].descs[0])
        if mut.get("operand") == "A" and mut.get("field") != "tma_swizzle":
            ea = _u64(v for row in da for v in row)
        else:
            ea = "{" + ", ".join(f"{ns}::OperandA::kDescStageK[0][{s}] + ({ns}::OperandA::kMmaMNBlockOffsetBytes[{i}] >> 4)"
                                 for i in range(len(da)) for s in range(n_k)) + "}"
        if mut.get("operand") == "B" and mut.get("field") != "tma_swizzle":
            eb_ = _u64(db)
        else:
            eb_ = "{" + ", ".join(f"{ns}::OperandB::kDescStageK[0][{s}]" for s in range(n_k)) + "}"
        expect = -1 if predicted is None else int(predicted)

        def tma_fields(op: str, ns: str = ns) -> tuple[str, ...]:
            o = f"{ns}::Operand{op}"
            return (f"{{{o}::kTmaBoxDim[0], {o}::kTmaBoxDim[1]}}", f"{o}::kTmaCopies", f"&{o}::kTmaCopyCoord[0][0]",
                    f"&{o}::kTmaCopyOffsetBytes[0]", f"{o}::kStageStart[0]", f"int({ns}::kTmaDataType{op})")
        fa, fb = tma_fields("A"), tma_fields("B")
        h.append(f"  {{{_c_str(c['id'])}, {_c_str(c['kind'])}, {vindex[_variant(cfg['dtype'], cfg['N'], ta, tb)]}, {loader}, "
                 f"{cfg['M']}, {cfg['N']}, {cfg['K']}, {cfg['M'] // 64}, {cfg['K'] // K_INSTR_ELEMS[cfg['dtype']]}, "
                 f"{DTYPE_BITS[cfg['dtype']]}, {ea}, {eb_}, {offs[0]}ull, {offs[1]}ull, {offs[2]}ull, {offs[3]}ull, "
                 f"{offs[4]}ull, {offs[5]}ull, {tma_a}, {ns}::OperandB::kTmaSwizzle, {fa[5]}, {fb[5]}, {fa[0]}, {fb[0]}, "
                 f"{fa[1]}, {fb[1]}, {fa[2]}, {fb[2]}, {fa[3]}, {fb[3]}, {fa[4]}, {fb[4]}, {ta}, {tb}, {expect}, "
                 f"{_c_str(json.dumps(cfg, sort_keys=True))}, {_c_str(json.dumps(c.get('mutation')))}}},")
    h.append("};")
    (out / "hwcheck_cases.cuh").write_text("\n".join(h) + "\n")
    (out / "hwcheck_data.bin").write_bytes(bytes(blob))
    (out / "plan.json").write_text(json.dumps(cases, indent=0, sort_keys=True))
    counts: dict[str, int] = {}
    for c in cases:
        counts[c["kind"]] = counts.get(c["kind"], 0) + 1
    return counts


