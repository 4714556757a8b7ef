"""Add the run's metadata (date, device, driver, nvcc, SASS instruction counts) to the raw result: ONE JSON file.

    python3 merge_atoms.py OUT.json TMPDIR "NVCC FLAGS" PLAN.json      (called by run.sh; standard library only)
"""

import datetime
import json
import re
import sys
from pathlib import Path


def main() -> None:
    out, tmp, flags, plan = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3], Path(sys.argv[4])
    raw = json.loads((tmp / "raw.json").read_text())
    read = lambda n: (tmp / n).read_text().strip() if (tmp / n).is_file() else ""  # noqa: E731
    sass: dict[str, dict[str, int]] = {}
    fn = None
    for line in read("sass.txt").splitlines():
        m = re.search(r"Function : (\S+)", line)
        if m:
            fn = m.group(1)
            continue
        m = re.search(r"\b(HGMMA|QGMMA|IGMMA|LDSM|STSM)(\.[A-Z0-9.]+)?", line)
        if fn and m:
            op = m.group(1) + (m.group(2) or "")
            sass.setdefault(fn, {})[op] = sass.setdefault(fn, {}).get(op, 0) + 1
    meta = {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d"),
        "generator": "examples/hardware/atoms/gen_atoms.py (pycute_layouts.arch.atoms)",
        "device": raw["device"], "compute_capability": raw["cc"], "nvidia_smi": read("smi.txt"),
        "cuda_driver_version": read("cuda.txt"), "nvcc": read("nvcc.txt"), "nvcc_flags": flags,
        "sass_per_kernel": sass, "plan": json.loads(plan.read_text()),
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"meta": meta, "cases": raw["cases"]}) + "\n")
    print(f"wrote {out}: {len(raw['cases'])} cases on {raw['device']}")


if __name__ == "__main__":
    main()
