"""Merge the bank-check outputs (timing JSON, ncu CSV, plan) into one result file with versions (stdlib only).

    python3 merge_banks.py OUT.json TMPDIR PLAN.json
"""

from __future__ import annotations

import csv
import datetime
import io
import json
import re
import statistics
import subprocess
import sys
from pathlib import Path


def _cmd(*args: str) -> str:
    try:
        return subprocess.run(args, capture_output=True, text=True, timeout=60).stdout.strip()
    except (OSError, subprocess.SubprocessError) as e:
        return f"unavailable: {e}"


def _ncu(tmp: Path, n_cases: int) -> dict:
    info: dict = {"available": (tmp / "ncu.rc").exists()}
    if not info["available"]:
        return info
    info["rc"] = int((tmp / "ncu.rc").read_text().strip() or -1)
    info["version"] = (tmp / "ncu.version").read_text().strip().splitlines()[-1:]
    info["metrics_asked"] = (tmp / "ncu.asked").read_text().strip().split(",")
    err = (tmp / "ncu.err").read_text()
    info["stderr_tail"] = err[-2000:]
    text = (tmp / "ncu.csv").read_text()
    info["stdout_tail"] = text[-1500:] if '"ID"' not in text else ""
    start = text.find('"ID"')
    per_launch: dict[int, dict] = {}
    if start >= 0:
        for row in csv.DictReader(io.StringIO(text[start:])):
            try:
                lid = int(row["ID"])
            except (KeyError, ValueError):
                continue
            val = row.get("Metric Value", "").replace(",", "")
            try:
                num: float | str = float(val)
            except ValueError:
                num = val
            per_launch.setdefault(lid, {"kernel": row.get("Kernel Name", "")})[row["Metric Name"]] = num
    ids = sorted(per_launch)
    info["launches"] = len(ids)
    info["per_case"] = [per_launch[i] for i in ids] if len(ids) == n_cases else []
    return info


def _sass(tmp: Path) -> dict:
    p = tmp / "sass.txt"
    if not p.exists():
        return {}
    out: dict[str, dict] = {}
    fn = None
    for line in p.read_text().splitlines():
        m = re.search(r"Function : (\S+)", line)
        if m:
            fn = m.group(1)
            out[fn] = {}
            continue
        m = re.search(r"\b(LDSM[.\w]*|LDS[.\w]*)\s", line)
        if fn and m:
            out[fn][m.group(1)] = out[fn].get(m.group(1), 0) + 1
    return out


def main() -> int:
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    outf, tmp, plan_path = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
    plan = json.loads(plan_path.read_text())
    timing = json.loads((tmp / "time.json").read_text())
    if [c["name"] for c in timing["cases"]] != [c["name"] for c in plan]:
        print("merge_banks: the binary's cases are not the plan's", file=sys.stderr)
        return 2
    ncu = _ncu(tmp, len(plan))
    cases = []
    for i, (p, t) in enumerate(zip(plan, timing["cases"])):
        spans = t["span_cycles"]
        row = dict(p)
        row["predicted_wavefronts_at_generation"] = row.pop("predicted_wavefronts")
        row["smem_base"] = t["smem_base"]
        row["span_cycles"] = spans
        row["cycles_per_instr"] = statistics.median(spans) / (timing["time_warps"] * timing["time_iters"])
        if ncu.get("per_case"):
            row["ncu"] = ncu["per_case"][i]
        cases.append(row)
    smi = _cmd("nvidia-smi", "--query-gpu=name,driver_version,compute_cap,clocks.sm,clocks.max.sm", "--format=csv,noheader")
    meta = {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d"),
        "generator": "examples/hardware/banks/gen_banks.py (pycute_layouts.analysis.bank_conflicts)",
        "device": timing["device"], "compute_capability": timing["cc"], "sms": timing["sms"],
        "nvidia_smi": smi,
        "cuda_driver_version": _cmd("bash", "-c", "nvidia-smi | grep -o 'CUDA Version: [0-9.]*'"),
        "nvcc": _cmd("bash", "-c", "nvcc --version | tail -2 | tr '\\n' ' '"),
        "nvcc_flags": "-std=c++17 -O3 -gencode=arch=compute_90a,code=sm_90a",
        "time_warps": timing["time_warps"], "time_iters": timing["time_iters"], "time_reps": timing["time_reps"],
        "ncu_iters": timing["ncu_iters"],
        "timing_method": "one block of time_warps warps on one SM, every warp executing the case's instruction "
                         "time_iters times; span = max(end clock64) - min(start clock64) over the warps; "
                         "cycles_per_instr = median(span) / (time_warps * time_iters)",
        "ncu": {k: v for k, v in ncu.items() if k != "per_case"},
        "sass_shared_loads_per_kernel": _sass(tmp),
    }
    outf.parent.mkdir(parents=True, exist_ok=True)
    outf.write_text(json.dumps({"meta": meta, "cases": cases}, indent=1) + "\n")
    print(f"merge_banks: {len(cases)} cases -> {outf}; ncu: {meta['ncu'].get('rc', 'absent')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
