"""A Hopper GEMM whose every layout constant comes from :mod:`pycute_layouts.codegen`: cases, sources, verification.

One warp-specialised kernel (``examples/hardware/gemm/gemm.cu``): a TMA producer warp, a ``kStages``-deep
mbarrier pipeline, two consumer warpgroups issuing ``wgmma.mma_async`` with the descriptors of the header
``codegen.emit_header(kernel_constants(spec))`` per stage and per K step (``kDescStageK``), A's MN blocks
at ``kMmaMNBlockOffsetBytes``, the TMA boxes, copies and destinations of the same header, and an epilogue
that writes C through the thread-value layout of the tiled MMA (:meth:`TiledMma.partition` of C, two
warpgroups, emitted as a function). The generated file ``gemm_configs.cuh`` holds each configuration's
header verbatim and the glue (the wgmma instruction, the epilogue's layout). No layout constant is typed
in ``gemm.cu``.

Claims (``kind`` ``gemm`` in the result file): each configuration's product equals the exact reference
(small integers: every product and sum is exact in f32, so the criterion is *equal*), the constants
the GPU ran are the ones the current library derives, and each planted wrong constant (an LBO, a stage
offset, a tensor-map swizzle) gives a wrong product.

>>> cfgs = configs()
>>> sorted({c["dtype"] for c in cfgs}), sorted({c["swizzle"] for c in cfgs})
(['bf16', 'e4m3'], ['128B', '32B', '64B'])
>>> len(gemm_cases()) >= 20
True
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .. import codegen
from ..arch.atoms import make_tiled_mma, tv_table
from ..errors import HwCheckError, LayoutError
from ..limits import check_type, fmt, make_output_dir
from .cases import fnv_hash

__all__ = ["configs", "gemm_cases", "gemm_constants", "emit_gemm", "verify_gemm", "FAULTS"]

#: Planted faults: 1 = B's LBO field halved, 2 = A's stage-1 TMA destination moved by one swizzle
#: period, 3 = A's tensor map encoded without swizzle.
FAULTS = {0: None, 1: "lbo", 2: "stage_offset", 3: "swizzle"}
_K_INSTR = {"bf16": 16, "e4m3": 32}
_PTX = {"bf16": "bf16", "e4m3": "e4m3"}
_ATOM = {"bf16": "SM90_64x{n}x16_F32BF16BF16_SS", "e4m3": "SM90_64x{n}x32_F32E4M3E4M3_SS_TN"}


def configs() -> list[dict]:
    """Every GEMM configuration: element type, majors, swizzle, CTA tile (BM x BN x BK) and stages.

    Pre:  none.
    Post: JSON-able dicts with a unique ``name``.

    >>> configs()[0]["name"]
    'bf16_KK_128B_128x128x64_s4'
    """
    raw = [("bf16", "K", "128B", 128, 128, 64, 4), ("bf16", "K", "128B", 128, 256, 64, 3),
           ("bf16", "K", "128B", 256, 128, 64, 4), ("bf16", "K", "64B", 128, 128, 64, 4),
           ("bf16", "K", "32B", 128, 64, 64, 2), ("bf16", "K", "32B", 256, 128, 32, 6),
           ("bf16", "MN", "128B", 128, 128, 64, 4), ("bf16", "MN", "64B", 128, 256, 64, 3),
           ("bf16", "MN", "32B", 256, 64, 64, 3),
           ("e4m3", "K", "128B", 128, 128, 128, 4), ("e4m3", "K", "128B", 128, 256, 128, 4),
           ("e4m3", "K", "64B", 256, 128, 128, 3), ("e4m3", "K", "32B", 128, 128, 64, 5)]
    out = []
    for dt, mb, sw, bm, bn, bk, st in raw:
        out.append({"name": f"{dt}_K{mb}_{sw}_{bm}x{bn}x{bk}_s{st}", "dtype": dt, "major_a": "K", "major_b": mb,
                    "swizzle": sw, "BM": bm, "BN": bn, "BK": bk, "stages": st})
    return out


def _spec(cfg: dict) -> dict:
    op = {"dtype": cfg["dtype"], "swizzle": cfg["swizzle"], "stages": cfg["stages"]}
    return {"kernel": f"gemm_{cfg['name']}", "arch": "sm90", "smem_base": 0,
            "A": {**op, "tile": [cfg["BM"], cfg["BK"]], "major": cfg["major_a"], "mma_mn": 64},
            "B": {**op, "tile": [cfg["BN"], cfg["BK"]], "major": cfg["major_b"]}}


def gemm_constants(cfg: dict) -> Any:
    """The :class:`KernelConstants` of one configuration (``codegen.kernel_constants`` of its spec, checked).

    Pre:  ``cfg`` one of :func:`configs`.
    Post: the constants ``emit_header`` writes; LayoutError where the library refuses the spec.

    >>> gemm_constants(configs()[0]).operand("A").k_steps
    4
    """
    if not isinstance(cfg, dict) or "name" not in cfg:
        raise HwCheckError(f"gemm_constants: expected a configuration dict from configs(), got {fmt(cfg)}"[:200])
    return codegen.check_kernel(codegen.parse_spec(_spec(cfg)))


def tv_layout_c(cfg: dict) -> Any:
    """The accumulator's (thread, value) -> m + BM * n layout over the CTA tile: two warpgroups along M."""
    atom = _ATOM[cfg["dtype"]].format(n=cfg["BN"])
    return make_tiled_mma(atom, (2, 1, 1)).partition("C", (cfg["BM"], cfg["BN"]))


def gemm_cases() -> list[dict]:
    """Every run: a configuration, a problem size (M, N, K), a planted fault (0: none) and whether it is timed.

    Pre:  none.
    Post: JSON-able dicts with a unique ``id`` and ``kind`` ``gemm``.

    >>> c = gemm_cases()[0]
    >>> c["id"], c["fault"]
    ('gemm/bf16_KK_128B_128x128x64_s4/1000x1096x1000', 0)
    """
    out: list[dict] = []
    for i, cfg in enumerate(configs()):
        k0 = 1008 + 16 * (i % 4) if cfg["dtype"] == "e4m3" else 1000 + 8 * (i % 4)  # row pitch: a multiple of 16 B
        sizes = [(1000 + 8 * (i % 3), 1096 - 8 * (i % 2), k0), (2 * cfg["BM"], 3 * cfg["BN"], 4 * cfg["BK"] * cfg["stages"])]
        if cfg["major_b"] == "MN":
            sizes.append((129, 264, 72))
        for m, n, k in sizes:
            out.append({"kind": "gemm", "id": f"gemm/{cfg['name']}/{m}x{n}x{k}", "cfg": cfg, "M": m, "N": n, "K": k,
                        "fault": 0, "timed": False})
    by = {c["name"]: c for c in configs()}
    plants = (("bf16_KMN_128B_128x128x64_s4", 1), ("bf16_KK_128B_128x128x64_s4", 2),
              ("bf16_KK_128B_128x128x64_s4", 3), ("e4m3_KK_128B_128x128x128_s4", 2),
              ("e4m3_KK_128B_128x128x128_s4", 3), ("bf16_KMN_64B_128x256x64_s3", 1))
    for name, f in plants:
        out.append({"kind": "gemm", "id": f"gemm/{name}/1000x1096x1008/fault-{FAULTS[f]}", "cfg": by[name], "M": 1000,
                    "N": 1096, "K": 1008, "fault": f, "timed": False})
    for name in ("bf16_KK_128B_128x256x64_s3", "bf16_KK_128B_256x128x64_s4", "e4m3_KK_128B_128x256x128_s4"):
        out.append({"kind": "gemm", "id": f"gemm/{name}/8192x8192x8192/timed", "cfg": by[name], "M": 8192, "N": 8192,
                    "K": 8192, "fault": 0, "timed": True})
    return out


# --------------------------------------------------------------------------------------------------
# sources
# --------------------------------------------------------------------------------------------------


def _flat(x: Any) -> list[int]:
    return [int(v) for v in (_flat_t(x))]


def _flat_t(x: Any) -> list[Any]:
    if isinstance(x, tuple):
        return [y for e in x for y in _flat_t(e)]
    return [x]


def _layout_expr(shape: Any, stride: Any, var: str) -> str:
    """C++ expression of a flattened (shape, stride) mode at coordinate ``var`` (CuTe's colexicographic order)."""
    terms, div = [], 1
    for s, d in zip(_flat(shape), _flat(stride), strict=True):
        if s != 1 and d != 0:
            terms.append(f"(({var} / {div}) % {s}) * {d}")
        div *= s
    return " + ".join(terms) or "0"


def _wgmma(cfg: dict) -> str:
    n, dt = cfg["BN"], cfg["dtype"]
    regs = n // 2
    dl = ",".join(f"%{i}" for i in range(regs))
    tail = f", 0, {int(cfg['major_b'] == 'MN')}" if dt == "bf16" else ""
    outs = ", ".join(f'"+f"(d[{i}])' for i in range(regs))
    return (f'    asm volatile("wgmma.mma_async.sync.aligned.m64n{n}k{_K_INSTR[dt]}.f32.{_PTX[dt]}.{_PTX[dt]} '
            f'{{{dl}}}, %{regs}, %{regs + 1}, 1, 1, 1{tail};\\n"\n'
            f'                 : {outs}\n                 : "l"(da), "l"(db));')


def _glue(i: int, cfg: dict, kc: Any) -> str:
    ns = kc.kernel
    tv = tv_layout_c(cfg)
    thr, val = tv.shape[0], tv.shape[1]
    ts, vs = tv.stride[0], tv.stride[1]
    return f"""
// configuration {i}: {cfg['name']} -- glue: the wgmma instruction and the accumulator's TV layout
namespace {ns} {{
struct Cfg {{
  using A = OperandA;
  using B = OperandB;
  static constexpr const char* kName = "{cfg['name']}";
  static constexpr int BM = {cfg['BM']}, BN = {cfg['BN']}, BK = {cfg['BK']}, kStages = {cfg['stages']};
  static constexpr int kMR = BM / 128;  // A's 64-row MMA blocks per consumer warpgroup
  static constexpr int kElemBytes = {8 if cfg['dtype'] == 'e4m3' else 16} / 8;
  static constexpr bool kAMNMajor = {str(cfg['major_a'] == 'MN').lower()}, kBMNMajor = {str(cfg['major_b'] == 'MN').lower()};
  static constexpr uint32_t kSmemBytes = {ns}::kSmemBytes;
  static constexpr CUtensorMapDataType kTmaTypeA = kTmaDataTypeA, kTmaTypeB = kTmaDataTypeB;
  static constexpr int kIsFp8 = {int(cfg['dtype'] == 'e4m3')};
  __device__ static void mma(float (&d)[{cfg['BN'] // 2}], uint64_t da, uint64_t db) {{
{_wgmma(cfg)}
  }}
  // pycute_layouts: make_tiled_mma("{_ATOM[cfg['dtype']].format(n=cfg['BN'])}", (2,1,1))
  //                 .partition("C", ({cfg['BM']},{cfg['BN']}))
  //   = {tv}
  // (thread 0..255 of the two consumer warpgroups, value v) -> m + BM * n
  __host__ __device__ static constexpr int tv_c(int t, int v) {{
    return {_layout_expr(thr, ts, 't')} + {_layout_expr(val, vs, 'v')};
  }}
}};
}}  // namespace {ns}
"""


def emit_gemm(out: Any) -> int:
    """Write ``gemm_configs.cuh`` (codegen headers verbatim + glue) and ``gemm_plan.json`` into ``out``; cases.

    Pre:  ``out`` an existing directory (a :class:`pathlib.Path`).
    Post: the files written; the number of GEMM cases.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     n = emit_gemm(Path(d))
    ...     names = sorted(f.name for f in Path(d).iterdir())
    >>> names, n == len(gemm_cases())
    (['gemm_configs.cuh', 'gemm_plan.json'], True)
    """
    out = Path(make_output_dir(out, "emit_gemm", HwCheckError))
    cfgs = configs()
    cases = gemm_cases()
    idx = {c["name"]: i for i, c in enumerate(cfgs)}
    src = ["// Generated by `pycute-layouts hwcheck --emit` (pycute_layouts.hwcheck.gemm); do not edit.",
           "// Every layout constant of examples/hardware/gemm/gemm.cu comes from here: one namespace per configuration,",
           "// the output of pycute_layouts.codegen.emit_header(kernel_constants(spec)) verbatim, then its glue.",
           "#pragma once", "#include <cuda.h>", "#include <cstdint>", ""]
    for i, cfg in enumerate(cfgs):
        kc = gemm_constants(cfg)
        src.append(f"// spec of configuration {i}: {json.dumps(_spec(cfg), sort_keys=True)}")
        src.append(codegen.emit_header(kc))
        src.append(_glue(i, cfg, kc))
    src.append("#define GEMM_FOR_EACH_CONFIG(X) " + " ".join(f"X({i}, {gemm_constants(c).kernel}::Cfg)"
                                                           for i, c in enumerate(cfgs)))
    src.append("struct GemmCase { const char* id; int config; int M; int N; int K; int fault; int timed; };")
    src.append(f"constexpr int kNumGemm = {len(cases)};")
    src.append("static const GemmCase kGemm[] = {")
    for c in cases:
        src.append(f'  {{"{c["id"]}", {idx[c["cfg"]["name"]]}, {c["M"]}, {c["N"]}, {c["K"]}, {c["fault"]}, '
                   f'{int(c["timed"])}}},')
    src.append("};")
    (out / "gemm_configs.cuh").write_text("\n".join(src) + "\n")
    (out / "gemm_plan.json").write_text(json.dumps(cases, indent=0, sort_keys=True))
    return len(cases)


# --------------------------------------------------------------------------------------------------
# verification
# --------------------------------------------------------------------------------------------------


def _expected_constants(cfg: dict) -> dict:
    kc = gemm_constants(cfg)
    a, b = kc.operand("A"), kc.operand("B")
    return {"descA": [f"{v:016x}" for row in a.descs for v in row], "descB": [f"{v:016x}" for row in b.descs for v in row],
            "stageA": list(a.stage_starts), "stageB": list(b.stage_starts),
            "mnblkA": list(a.mn_block_offsets_bytes), "boxA": list(a.tma_box_dim), "boxB": list(b.tma_box_dim),
            "swzA": int(a.tma_swizzle), "swzB": int(b.tma_swizzle),
            "copiesA": [list(x) for x in a.tma_copy_coords], "copiesB": [list(x) for x in b.tma_copy_coords],
            "offA": list(a.tma_copy_offsets_bytes), "offB": list(b.tma_copy_offsets_bytes),
            "tv_c_hash": fnv_hash(tv_table(tv_layout_c(cfg)).ravel())}


def verify_gemm(obs: dict) -> tuple[bool, str]:
    """One GEMM record against the current library: (held, detail).

    Pre:  ``obs`` a ``gemm`` record of a result file.
    Post: held when the constants the GPU ran are the library's and the product is exact (a planted fault:
    wrong); HwCheckError for a malformed record.

    >>> try:
    ...     verify_gemm({"id": 3})
    ... except HwCheckError as e:
    ...     print(e)
    hwcheck --verify: gemm case 3 is malformed: KeyError: 'cfg'
    """
    check_type("verify_gemm", "obs", obs, dict, HwCheckError)
    try:
        cfg, fault = obs["cfg"], int(obs["fault"])
        ran = obs["constants"]
        mism, err = int(obs["mismatches"]), float(obs["max_abs_err"])
    except (KeyError, TypeError, ValueError) as e:
        raise HwCheckError(f"hwcheck --verify: gemm case {fmt(obs.get('id'))} is malformed: {type(e).__name__}: {e}") from None
    try:
        want = _expected_constants(cfg)
    except LayoutError as e:
        return False, f"the library no longer derives this configuration: {str(e).splitlines()[0]}"
    if obs.get("error"):
        return False, f"GPU run failed: {obs['error']}"
    diff = sorted(k for k in want if ran.get(k) != want[k])
    if diff:
        return False, f"constants the GPU ran differ from the library's: {', '.join(diff)}"
    perf = f"; {obs['tflops']:.0f} TFLOP/s" if obs.get("tflops") else ""
    if fault:
        if mism > 0:
            return True, f"planted {FAULTS[fault]} fault: wrong product ({mism} elements differ, max |err| {err:g}), as it must"
        return False, f"planted {FAULTS[fault]} fault was NOT detected: the product is still exact"
    if mism:
        first = obs.get("first_diffs", [])[:3]
        return False, f"C differs from the reference in {mism} elements (max |err| {err:g}; first {first})"
    return True, f"C == reference exactly ({obs['M']}x{obs['N']}x{obs['K']}){perf}"
