"""Hardware check of the thread-value layouts of pycute_layouts.arch.atoms: the committed H100 result re-verified.

examples/hardware/atoms/results/atoms-h100-2026-11-25.json holds, per case, the raw registers (wgmma, ldmatrix) or
shared memory (stmatrix) that the real instruction produced from inputs encoding every element's identity (see
examples/hardware/atoms/gen_atoms.py). Every value is decoded and compared here with the CURRENT library's layouts
(``layout_c``, ``dst_layout``, ``src_layout``; the RS cases also depend on ``layout_a``, which packed the A
registers), so a library change that contradicts the hardware fails this file. Criterion: every value equal.

GPU execution (examples/hardware/atoms/run.sh) runs only where nvcc and an sm_90 GPU exist; it is skipped otherwise.
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

from pycute_layouts import Layout

ROOT = Path(__file__).resolve().parents[1]
HERE = ROOT / "examples" / "hardware" / "atoms"
RESULTS = HERE / "results" / "atoms-h100-2026-11-25.json"


def _load_gen():
    spec = importlib.util.spec_from_file_location("gen_atoms", HERE / "gen_atoms.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["gen_atoms"] = mod
    spec.loader.exec_module(mod)
    return mod


gen_atoms = _load_gen()


@pytest.fixture(scope="module")
def data() -> dict:
    return json.loads(RESULTS.read_text())


def test_metadata(data: dict) -> None:
    m = data["meta"]
    assert m["device"] == "NVIDIA H100 80GB HBM3" and m["compute_capability"] == "9.0"
    assert m["date"] == "2026-11-25"
    assert "580.159.04" in m["nvidia_smi"] and m["cuda_driver_version"] == "CUDA Version: 13.0"
    assert "V13.0.88" in m["nvcc"] and "sm_90a" in m["nvcc_flags"]


def test_sass_has_the_intended_instructions(data: dict) -> None:
    """Each kernel compiled to the one tensor-core / matrix instruction its case names."""
    sass = data["meta"]["sass_per_kernel"]
    plan = {p["index"]: p for p in data["meta"]["plan"]}
    for fn, ops in sass.items():
        i = int(fn.split("case")[1].split("P")[0])
        name = plan[i]["name"]
        want = {"wgmma": ("QGMMA.64" if "e4m3" in name else "HGMMA.64")}.get(plan[i]["kind"])
        if want is None:
            a = gen_atoms.atoms.copy_atom(name)
            want = ("LDSM" if a.kind == "ldsm" else "STSM") + (".16.MT88" if a.trans else ".16.M88") + \
                {1: "", 2: ".2", 4: ".4"}[a.num_matrices]
        assert ops == {want: 1}, (name, ops)
    assert len(sass) == len(plan) == 21


def test_every_value_agrees_with_the_current_library(data: dict) -> None:
    total, errs = gen_atoms.verify(data)
    assert errs == []
    # 9 wgmma cases: 128 threads x N/2 registers; ldmatrix and stmatrix, each _N and _T with 1, 2 and 4
    # matrices: 32 threads x 2 halves per matrix
    wgmma = 128 * (4 + 32 + 128 + 32 + 32 + 128 + 32 + 16 + 16)
    copies = 2 * 2 * 32 * 2 * (1 + 2 + 4)
    assert total == wgmma + copies == 55552


def test_coverage(data: dict) -> None:
    names = {c["name"] for c in data["cases"]}
    assert {"wgmma/bf16/SS/N8", "wgmma/bf16/SS/N64", "wgmma/bf16/SS/N256", "wgmma/tf32/SS/N64",
            "wgmma/e4m3/SS/N256", "wgmma/bf16/RS/N64", "wgmma/tf32/RS/N32", "wgmma/e4m3/RS/N32"} <= names
    assert set(gen_atoms.COPY_CASES) <= names


# ----------------------------------------------------------------------------------------------------------------
# planted faults: each must be caught
# ----------------------------------------------------------------------------------------------------------------


def _with(case_name: str, **changes) -> list:
    out = []
    for c in gen_atoms.cases():
        if c.name == case_name:
            c = dataclasses.replace(c, atom=dataclasses.replace(c.atom, **changes))
        out.append(c)
    return out


def _only(data: dict, case_name: str) -> dict:
    """The result file cut to one case: a fault planted in that case's atom shows there (the other cases, with the
    library unchanged, are test_every_value_agrees_with_the_current_library's)."""
    return {**data, "cases": [r for r in data["cases"] if r["name"] == case_name]}


def test_planted_accumulator_fault_is_caught(data: dict) -> None:
    """A library whose wgmma accumulator swapped the two row halves (v1 stride 8 -> the n step) must disagree."""
    bad = Layout(((4, 8, 4), (2, 2, 32)), ((128, 1, 16), (64, 512, 8)))
    _, errs = gen_atoms.verify(_only(data, "wgmma/bf16/SS/N256"), _with("wgmma/bf16/SS/N256", layout_c=bad))
    assert errs and all(e.startswith("wgmma/bf16/SS/N256") for e in errs)


def test_planted_ldmatrix_trans_fault_is_caught(data: dict) -> None:
    """ldmatrix.trans read as the non-transposed fragment must disagree."""
    plain = gen_atoms.atoms.copy_atom("SM75_U32x4_LDSM_N").dst_layout
    _, errs = gen_atoms.verify(_only(data, "SM75_U16x8_LDSM_T"), _with("SM75_U16x8_LDSM_T", dst_layout=plain))
    assert errs and all(e.startswith("SM75_U16x8_LDSM_T") for e in errs)


def test_planted_stmatrix_fault_is_caught(data: dict) -> None:
    """stmatrix whose threads 8-31 were mapped as (row, quarter) instead of (quarter, row) must disagree."""
    changed = Layout(((8, 4), (32, 2)), ((128, 32), (1, 1024)))
    _, errs = gen_atoms.verify(_only(data, "SM90_U32x2_STSM_N"), _with("SM90_U32x2_STSM_N", src_layout=changed))
    assert any(e.startswith("SM90_U32x2_STSM_N") for e in errs)


def test_planted_measurement_change_is_caught(data: dict) -> None:
    d = copy.deepcopy(data)
    c = next(c for c in d["cases"] if c["name"] == "wgmma/tf32/RS/N32")
    c["out"][5] ^= 1 << 20
    _, errs = gen_atoms.verify(_only(d, "wgmma/tf32/RS/N32"))
    assert any(e.startswith("wgmma/tf32/RS/N32: thread 0 value 5") for e in errs)


# ----------------------------------------------------------------------------------------------------------------
# GPU execution (skipped without a GPU)
# ----------------------------------------------------------------------------------------------------------------


@pytest.mark.skipif(shutil.which("nvcc") is None or shutil.which("nvidia-smi") is None,
                    reason="needs nvcc and an NVIDIA GPU (nvidia-smi); the committed H100 result is verified above")
def test_run_on_this_gpu(tmp_path: Path) -> None:
    cc = subprocess.run(["nvidia-smi", "--query-gpu=compute_cap", "--format=csv,noheader"],
                        capture_output=True, text=True).stdout.split()
    if not cc or cc[0] != "9.0":
        pytest.skip(f"needs an sm_90 GPU, found compute capability {cc}")
    gen = tmp_path / "gen"
    gen_atoms.emit(gen)
    out = tmp_path / "atoms.json"
    p = subprocess.run(["bash", str(HERE / "run.sh"), str(out)], capture_output=True, text=True, timeout=600,
                       env={**os.environ, "ATOMS_GEN": str(gen)})
    assert p.returncode == 0, p.stderr[-2000:]
    total, errs = gen_atoms.verify(json.loads(out.read_text()))
    assert errs == [] and total > 55552
