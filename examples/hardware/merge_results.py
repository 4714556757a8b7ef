"""Merge the outputs of every hardware-check program into ONE result file (standard library only).

usage: python3 merge_results.py OUT.json TMPDIR GENDIR "NVCC FLAGS"      (called by run.sh)

TMPDIR holds what run.sh collected: hw.<phase>.<i>.json (hwcheck.cu), atoms.raw.json (atoms.cu),
banks.result.json (banks/run.sh), gemm.<i>.json (gemm.cu, JSON lines), torch.json, and <program>.sass
(cuobjdump). Adds what the programs cannot see themselves: the date, nvidia-smi's GPU name and driver,
nvcc's version, SASS opcode counts per kernel. Cases keep the raw observations, each with its ``kind``
(place, store, valid, im2col, mma, e2e, neg, atom, bank, gemm); predictions are NOT stored here:
``pycute-layouts hwcheck --verify OUT.json`` recomputes them with the current library.
"""

from __future__ import annotations

import datetime
import glob
import json
import os
import re
import subprocess
import sys

#: SASS instructions counted per kernel (the base mnemonic; modifiers are kept in the key).
SASS_OPS = ("HGMMA", "QGMMA", "IGMMA", "HMMA", "IMMA", "DMMA", "BMMA", "IDP", "LDSM", "STSM", "UTMALDG", "UTMASTG",
            "LDGSTS", "SYNCS", "LDS", "WARPGROUP")


def _cmd(args: list[str]) -> str:
    try:
        return subprocess.run(args, capture_output=True, text=True, timeout=60).stdout.strip()
    except (OSError, subprocess.SubprocessError) as e:
        return f"unavailable: {e}"


def _read_json(path: str):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        print(f"merge_results: skipping unreadable {path}: {e}", file=sys.stderr)
        return None


def _sass(path: str) -> dict:
    out: dict[str, dict[str, int]] = {}
    fn = None
    with open(path, errors="replace") as f:
        for line in f:
            m = re.search(r"Function : (\S+)", line)
            if m:
                fn = m.group(1)
                out[fn] = {}
                continue
            m = re.search(r"\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9]*)(\.[A-Za-z0-9_.]+)?", line)
            if fn and m and m.group(1) in SASS_OPS:
                op = m.group(1) + (m.group(2) or "")
                out[fn][op] = out[fn].get(op, 0) + 1
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    out, tmp, gen, flags = argv[1:]
    meta: dict = {"nvcc_flags": flags, "programs": {}}
    cases: list = []
    # hwcheck.cu phases
    order = {"place": 0, "store": 1, "valid": 2, "im2col": 3, "mma": 4, "e2e": 5, "neg": 6}
    parts = glob.glob(os.path.join(tmp, "hw.*.json"))
    for p in sorted(parts, key=lambda s: (order.get(os.path.basename(s).split(".")[1], 9), s)):
        data = _read_json(p)
        if data:
            meta.update(data.get("meta", {}))
            cases.extend(data.get("cases", []))
    # atoms.cu
    data = _read_json(os.path.join(tmp, "atoms.raw.json")) if os.path.exists(os.path.join(tmp, "atoms.raw.json")) else None
    if data:
        meta["programs"]["atoms"] = {"device": data.get("device"), "cc": data.get("cc")}
        for c in data["cases"]:
            cases.append({"id": f"atom/{c['name']}", **c, "kind": "atom"})
    # banks/run.sh (already merged with its ncu and timing metadata)
    bp = os.path.join(tmp, "banks.result.json")
    data = _read_json(bp) if os.path.exists(bp) else None
    if data:
        bm = {k: v for k, v in data["meta"].items() if k not in ("sass_shared_loads_per_kernel",)}
        meta["programs"]["banks"] = bm
        meta.setdefault("sass", {})["banks"] = data["meta"].get("sass_shared_loads_per_kernel", {})
        for c in data["cases"]:
            cases.append({"id": f"bank/{c['name']}", "ncu_iters": bm.get("ncu_iters"), **c, "kind": "bank",
                          "access_kind": c["kind"]})
    # gemm.cu (JSON lines; a case with no line stopped its program)
    plan_p = os.path.join(gen, "gemm_plan.json")
    if glob.glob(os.path.join(tmp, "gemm.*.json")) and os.path.exists(plan_p):
        plan = {c["id"]: c for c in _read_json(plan_p) or []}
        seen = set()
        for p in sorted(glob.glob(os.path.join(tmp, "gemm.*.json"))):
            with open(p) as f:
                for line in f:
                    line = line.strip()
                    if not line:
                        continue
                    try:
                        r = json.loads(line)
                    except json.JSONDecodeError as e:
                        print(f"merge_results: bad gemm line in {p}: {e}", file=sys.stderr)
                        continue
                    if r.get("id") in plan:
                        r["cfg"] = plan[r["id"]]["cfg"]
                        r["timed"] = plan[r["id"]]["timed"]
                    seen.add(r.get("id"))
                    cases.append(r)
        for cid, c in plan.items():
            if cid not in seen:
                cases.append({"kind": "gemm", "id": cid, "cfg": c["cfg"], "M": c["M"], "N": c["N"], "K": c["K"],
                              "fault": c["fault"], "timed": c["timed"], "error": "no record: the program stopped on this case",
                              "mismatches": -1, "max_abs_err": -1, "constants": {}})
    tp = os.path.join(tmp, "torch.json")
    if os.path.exists(tp):
        meta["torch_matmul"] = _read_json(tp)
    for p in sorted(glob.glob(os.path.join(tmp, "*.sass"))):
        meta.setdefault("sass", {})[os.path.basename(p)[:-5]] = _sass(p)
    smi = _cmd(["nvidia-smi", "--query-gpu=name,driver_version,compute_cap", "--format=csv,noheader"])
    nvcc = _cmd(["nvcc", "--version"])
    meta.update({
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d"),
        "nvidia_smi": smi,
        "device": smi.split(",")[0].strip() if smi.count(",") >= 2 else smi,
        "driver_version": smi.split(",")[1].strip() if smi.count(",") >= 2 else smi,
        "nvcc": nvcc.splitlines()[-1] if nvcc else "unavailable",
        "generator": "pycute-layouts hwcheck --emit (pycute_layouts.hwcheck) + examples/hardware/run.sh",
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
