"""Merge the per-phase JSON files of examples/hardware/hwcheck.cu into one result file (stdlib only).

usage: python3 merge_results.py OUT.json PART.json [PART.json ...]

Adds what the CUDA program cannot see itself: the date, nvidia-smi's GPU name and driver version,
and nvcc's version. Cases keep the program's raw observations; predictions are NOT stored here:
``pycute-layouts hwcheck --verify OUT.json`` recomputes them with the current library.
"""

from __future__ import annotations

import datetime
import json
import subprocess
import sys


def _cmd(args: list[str]) -> str:
    try:
        return subprocess.run(args, capture_output=True, text=True, timeout=60).stdout.strip()
    except (OSError, subprocess.SubprocessError) as e:
        return f"unavailable: {e}"


def main(argv: list[str]) -> int:
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    out, parts = argv[1], argv[2:]
    meta: dict = {}
    cases: list = []
    order = {"place": 0, "store": 1, "valid": 2, "im2col": 3, "mma": 4, "e2e": 5, "neg": 6}
    for p in sorted(parts, key=lambda s: (order.get(s.rsplit("/", 1)[-1].split(".")[0], 9), s)):
        try:
            with open(p) as f:
                data = json.load(f)
        except (OSError, json.JSONDecodeError) as e:
            print(f"merge_results: skipping unreadable {p}: {e}", file=sys.stderr)
            continue
        meta.update(data.get("meta", {}))
        cases.extend(data.get("cases", []))
    smi = _cmd(["nvidia-smi", "--query-gpu=name,driver_version,memory.total", "--format=csv,noheader"])
    meta.update({
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d"),
        "nvidia_smi": smi,
        "driver_version": smi.split(",")[1].strip() if smi.count(",") >= 2 else smi,
        "nvcc": _cmd(["nvcc", "--version"]).splitlines()[-1] if _cmd(["nvcc", "--version"]) else "unavailable",
        "generator": "pycute-layouts hwcheck --emit (pycute_layouts.hwcheck)",
    })
    with open(out, "w") as f:
        f.write('{"meta": ' + json.dumps(meta, sort_keys=True) + ',\n"cases": [\n')
        f.write(",\n".join(json.dumps(c, sort_keys=True) for c in cases))
        f.write("\n]}\n")
    kinds: dict = {}
    for c in cases:
        kinds[c.get("kind")] = kinds.get(c.get("kind"), 0) + 1
    print(f"merge_results: wrote {out}: {len(cases)} cases {kinds}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
