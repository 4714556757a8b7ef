"""Hardware check of the bank-conflict model (issue 10): the committed H100 result re-verified against the CURRENT library.

examples/hardware/banks/results/banks-h100-2026-11-21.json holds, per case, the 32 byte addresses the GPU used, the
ncu counters (shared-load wavefronts, bank conflicts, instructions) of NCU_ITERS executions by one warp, and the
clock64 span of 16 warps x 4096 executions. Every prediction is recomputed here with
``pycute_layouts.analysis.bank_conflicts`` on the case rebuilt by examples/hardware/banks/gen_banks.py, so a library
change that contradicts the hardware fails this file. Criteria (fixed before the run, docs/hardware-validation.md):

* ncu: wavefronts == predicted * iterations EXACTLY, bank conflicts == (predicted - ideal) * iterations exactly;
* timing: cycles per instruction / cycles of the conflict-free ``b32/stride4B`` baseline within 25 % of predicted.

GPU execution (examples/hardware/banks/run.sh) runs only where nvcc and nvidia-smi exist; it is skipped otherwise.
"""

from __future__ import annotations

import copy
import dataclasses
import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BANKS = ROOT / "examples" / "hardware" / "banks"
RESULTS = BANKS / "results" / "banks-h100-2026-11-21.json"
WF = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"
BC = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"
INST = ("smsp__sass_inst_executed_op_shared_ld.sum", "smsp__sass_inst_executed_op_ldsm.sum")
TIMING_REL_TOL = 0.25
TIMING_BASELINE = "b32/stride4B"


def _load_gen():
    spec = importlib.util.spec_from_file_location("gen_banks", BANKS / "gen_banks.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["gen_banks"] = mod
    spec.loader.exec_module(mod)
    return mod


gen_banks = _load_gen()


@pytest.fixture(scope="module")
def data() -> dict:
    return json.loads(RESULTS.read_text())


@pytest.fixture(scope="module")
def library() -> dict:
    """name -> (addresses, BankConflicts) from the current library."""
    return {c.name: (c.addresses(), c.analyse()) for c in gen_banks.cases()}


def verify(data: dict, library: dict) -> list[str]:
    """Every disagreement between the committed observations and the current library (empty: all agree)."""
    return gen_banks.verify_banks(data["cases"], data["meta"]["ncu_iters"], library)


def test_metadata(data: dict) -> None:
    m = data["meta"]
    assert m["device"] == "NVIDIA H100 80GB HBM3" and m["compute_capability"] == "9.0"
    assert m["date"] == "2026-11-21"
    assert "580.159.04" in m["nvidia_smi"] and m["cuda_driver_version"] == "CUDA Version: 13.0"
    assert "V13.0.88" in m["nvcc"] and "sm_90a" in m["nvcc_flags"]
    assert m["ncu"]["rc"] == 0 and m["ncu"]["launches"] == len(data["cases"])
    assert WF in m["ncu"]["metrics_asked"] and BC in m["ncu"]["metrics_asked"]


def test_sass_has_the_intended_instructions(data: dict) -> None:
    """Each kernel kind compiled to the shared load it names (16 per unrolled loop body, no merging)."""
    sass = data["meta"]["sass_shared_loads_per_kernel"]
    ops = {k: set(v) for k, v in sass.items()}
    expect = ["LDS.U8", "LDS.U16", "LDS", "LDS.64", "LDS.128", "LDSM.16.M88", "LDSM.16.M88.2", "LDSM.16.M88.4",
              "LDSM.16.MT88", "LDSM.16.MT88.2", "LDSM.16.MT88.4"]
    for kind, op in enumerate(expect):
        fn = next(k for k in ops if f"ILi{kind}EE" in k)
        assert ops[fn] == {op}, (fn, ops[fn])


def test_coverage(data: dict) -> None:
    kinds = {c["kind"] for c in data["cases"]}
    assert kinds == set(gen_banks.KINDS) - {"ldsm.x1.trans"}      # compiled (SASS checked), no case uses it
    groups = {g: sum(c["group"] == g for c in data["cases"]) for g in ("ldmatrix", "vector", "swizzled", "random")}
    assert groups == {"ldmatrix": 52, "vector": 29, "swizzled": 9, "random": 12}
    preds = {c["predicted_wavefronts_at_generation"] for c in data["cases"]}
    assert {1, 2, 4, 6, 8, 16, 32} <= preds


def test_committed_file_agrees_with_the_current_library(data: dict, library: dict) -> None:
    assert verify(data, library) == []


def test_exact_classic_results(data: dict) -> None:
    """The numbers of docs/analysis.md, as ncu counted them on the H100."""
    by = {c["name"]: c["ncu"][WF] / data["meta"]["ncu_iters"] for c in data["cases"]}
    assert by["ldsm.x4/bf16/128B-rows/none"] == 32.0
    assert by["ldsm.x4/bf16/128B-rows/Sw<3,4,3>"] == 4.0
    assert by["ldsm.x4.trans/bf16/128B-rows/none"] == 32.0      # .trans: same addresses, same wavefronts
    assert by["v2/halfwarps-same-128B"] == 2.0                   # no merging of the two 8-byte phases on sm_90
    assert by["v4/quarterwarps-same-128B"] == 4.0                # nor of the four 16-byte phases
    assert by["b8/stride1B"] == by["b32/stride0B"] == 1.0        # same word: broadcast, no conflict


def test_timing_is_one_cycle_per_wavefront(data: dict, library: dict) -> None:
    """Stronger than the declared 25 %: raw cycles per instruction = predicted wavefronts (1 cycle each) + < 0.2."""
    for c in data["cases"]:
        pred = library[c["name"]][1].wavefronts
        assert 0 <= c["cycles_per_instr"] - pred < 0.2, (c["name"], c["cycles_per_instr"], pred)


# ----------------------------------------------------------------------------------------------------------------
# planted faults: each must be caught
# ----------------------------------------------------------------------------------------------------------------


def test_planted_wrong_prediction_is_caught(data: dict, library: dict) -> None:
    lib = dict(library)
    name = "ldsm.x4/bf16/128B-rows/Sw<3,4,3>"
    addrs, r = lib[name]
    lib[name] = (addrs, dataclasses.replace(r, wavefronts=r.wavefronts + 1))
    errs = verify(data, lib)
    assert any(name in e and "ncu" in e and "wavefronts" in e for e in errs), errs


def test_planted_library_fault_is_caught(data: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    """A library that forgot the swizzle (every SwizzledSmemLayout read unswizzled) must disagree with the GPU."""
    from pycute_layouts import Swizzle, SwizzledSmemLayout

    orig = SwizzledSmemLayout.byte_address

    def unswizzled(self, *coord):
        return orig(SwizzledSmemLayout(Swizzle(0, 4, 3), self.layout, self.element_bits), *coord)

    monkeypatch.setattr(SwizzledSmemLayout, "byte_address", unswizzled)
    lib = {c.name: (c.addresses(), c.analyse()) for c in gen_banks.cases()}
    errs = verify(data, lib)
    assert any("Sw<3,4,3>" in e and "wavefronts" in e for e in errs)


def test_planted_phase_model_fault_is_caught(data: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    """A model serving 16-byte accesses in 2 phases instead of 4 must disagree with the GPU."""
    from pycute_layouts.analysis import banks as analysis_banks

    def two_phases(ab: int):
        per = 32 // min(2, max(1, ab // 4))
        return tuple(tuple(range(k * per, (k + 1) * per)) for k in range(32 // per))

    monkeypatch.setattr(analysis_banks, "phases_for", two_phases)
    lib = {c.name: (c.addresses(), c.analyse()) for c in gen_banks.cases()}
    errs = verify(data, lib)
    assert any(e.startswith("v4/stride16B:") for e in errs), errs[:5]


def test_planted_measurement_change_is_caught(data: dict, library: dict) -> None:
    d = copy.deepcopy(data)
    c = next(c for c in d["cases"] if c["name"] == "b32/stride32B")
    c["ncu"][WF] += 1
    c["cycles_per_instr"] *= 2
    errs = verify(d, library)
    assert any(e.startswith("b32/stride32B: ncu") for e in errs)
    assert any(e.startswith("b32/stride32B: timing") for e in errs)


def test_planted_address_drift_is_caught(data: dict, library: dict) -> None:
    d = copy.deepcopy(data)
    d["cases"][0]["addresses"][3] += 16
    assert any("addresses" in e for e in verify(d, library))


# ----------------------------------------------------------------------------------------------------------------
# GPU execution (skipped without a GPU)
# ----------------------------------------------------------------------------------------------------------------


@pytest.mark.skipif(shutil.which("nvcc") is None or shutil.which("nvidia-smi") is None,
                    reason="needs nvcc and an NVIDIA GPU (nvidia-smi); the committed H100 result is verified above")
def test_run_on_this_gpu(tmp_path: Path, library: dict) -> None:
    cc = subprocess.run(["nvidia-smi", "--query-gpu=compute_cap", "--format=csv,noheader"],
                        capture_output=True, text=True).stdout.split()
    if not cc or cc[0] != "9.0":
        pytest.skip(f"needs an sm_90 GPU, found compute capability {cc}")
    out = tmp_path / "banks.json"
    env_gen = tmp_path / "gen"
    gen_banks.emit(env_gen)
    p = subprocess.run([str(BANKS / "run.sh"), str(out)], capture_output=True, text=True, timeout=900,
                       env={**os.environ, "BANKS_GEN": str(env_gen)})
    assert p.returncode == 0, p.stderr[-2000:]
    d = json.loads(out.read_text())
    if not d["cases"][0].get("ncu"):
        pytest.skip("ncu unavailable or without counter permission: timing only")
    assert verify(d, library) == []
