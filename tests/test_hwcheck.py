"""Hardware validation: the committed H100 result files checked against the CURRENT library.

Round 2 (hwcheck-h100-2026-11-21-r2.json, the main file): constants from pycute_layouts.codegen, TMA stores, im2col
loads, every base offset; round 1 (hwcheck-h100-2026-11-21.json) is kept as history and verified too.

The GPU observations in examples/hardware/results/ are raw (hashes of where TMA put every byte,
hashes of wgmma products, the driver's return codes); every prediction is recomputed here, so a
library change that contradicts the hardware fails this file. GPU execution itself runs only
where a Hopper GPU, nvidia-smi and nvcc exist, and is skipped with a reason elsewhere.
"""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
from pathlib import Path

import cli_runner
import hwcheck_memo
import numpy as np
import pytest

from pycute_layouts import hwcheck
from pycute_layouts.arch import tma
from pycute_layouts.errors import LayoutError
from pycute_layouts.hwcheck import cases, predict

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "examples" / "hardware" / "results" / "hwcheck-h100-2026-11-21-r2.json"
RESULTS_R1 = ROOT / "examples" / "hardware" / "results" / "hwcheck-h100-2026-11-21.json"
EXE = shutil.which("pycute-layouts")


def run_cli(*args: str) -> subprocess.CompletedProcess:
    """``pycute-layouts ARGS`` answered in this process (tests/cli_runner.py; test_cli.py keeps the subprocess tests)."""
    return cli_runner.run(*args)


@pytest.fixture(scope="module")
def data() -> dict:
    return json.loads(RESULTS.read_text())


@pytest.fixture(scope="module")
def rows(data: dict) -> list[dict]:
    return hwcheck_memo.verify(RESULTS)[0]  # the committed file, verified once per process (the CLI tests reuse it)


@pytest.fixture(scope="module")
def data_r1() -> dict:
    return json.loads(RESULTS_R1.read_text())


def by_id(data: dict, prefix: str) -> dict:
    return next(c for c in data["cases"] if c["id"].startswith(prefix))


# --------------------------------------------------------------------------------------------------
# The committed result file against the current library
# --------------------------------------------------------------------------------------------------


def test_metadata(data: dict, data_r1: dict) -> None:
    for d in (data, data_r1):
        m = d["meta"]
        assert m["date"] == "2026-11-21"
        assert "H100" in m["gpu"] and m["cc"] == "9.0"
        assert m["driver_version"] == "580.159.04" and m["cuda_runtime_version"] == 13000


def test_round1_file_still_verifies(data_r1: dict) -> None:
    """History: round 1 (constants derived before codegen existed) against today's codegen-based derivation."""
    rows = hwcheck.verify(data_r1)[0]
    assert len(rows) == 2293
    assert not [r for r in rows if not r["ok"] and not r["known"]]
    assert {r["known"] for r in rows if r["known"]} == {"tma.interleave32_swizzle"}


def test_coverage(data: dict) -> None:
    cases = data["cases"]
    kinds = {k: sum(c["kind"] == k for c in cases) for k in ("place", "store", "valid", "im2col", "mma", "e2e", "neg")}
    assert kinds["valid"] >= 60 and kinds["mma"] >= 200 and kinds["e2e"] >= 40 and kinds["neg"] >= 1000
    assert kinds["store"] >= 240 and kinds["im2col"] >= 20
    place = [c for c in cases if c["kind"] == "place"]
    assert {c["mode"] for c in place} == set(range(7))  # every CUtensorMapSwizzle value
    assert {c["elem_bytes"] for c in place} == {1, 2, 4} and {c["box"][1] for c in place} == {8, 16}
    assert {c["dst_abs"] % 1024 for c in place if c["dst_abs"] % 128 == 0} == {128 * j for j in range(8)}
    mma = [c["cfg"] for c in cases if c["kind"] == "mma"]
    assert {(c["dtype"], c["major_a"], c["major_b"]) for c in mma} >= {
        ("bf16", "K", "K"), ("bf16", "MN", "K"), ("bf16", "K", "MN"), ("bf16", "MN", "MN"), ("tf32", "K", "K"),
        ("e4m3", "K", "K")}
    assert {c["mode"] for c in mma} == {"none", "32B", "64B", "128B"}
    assert {c["anchor"] for c in mma} == {"absolute", "tile"}
    # codegen's default tile order (MN-major: atoms along K first) and round 1's order, in wgmma and end to end
    for kind in ("mma", "e2e"):
        cfgs = [c["cfg"] for c in cases if c["kind"] == kind]
        assert {c["order"] for c in cfgs if c["major_a"] == "MN"} == {"auto", "mn_first"}
    # every base offset 1..7 with tile-relative swizzle
    tile = {(c["mode"], (c["off_a"] >> 7) & 7) for c in mma if c["anchor"] == "tile"}
    assert tile == {(m, b) for m in ("32B", "64B", "128B") for b in range(1, 8)}


def test_wgmma_e2e_and_negative_controls_all_pass(rows: list[dict]) -> None:
    bad = [r for r in rows if r["kind"] in ("mma", "e2e", "neg") and not r["ok"]]
    assert not bad, bad[:5]


def test_every_failure_is_a_documented_known_difference(rows: list[dict]) -> None:
    unexplained = [r for r in rows if not r["ok"] and not r["known"]]
    assert not unexplained, unexplained[:5]
    counts: dict[str, int] = {}
    for r in rows:
        if r["known"]:
            counts[r["known"]] = counts.get(r["known"], 0) + 1
    # The library adopted the hardware's row pitch and the sm90 driver rules (validate(arch="sm90")); what
    # is left is the driver accepting more than its documentation. Update KNOWN_DIFFERENCES, this test and
    # docs/hardware-validation.md together.
    # Round 2 found the 128-byte shared-memory alignment of cp.async.bulk.tensor; the library adopted it too.
    assert counts == {"tma.interleave32_swizzle": 2}
    assert set(counts) == set(hwcheck.KNOWN_DIFFERENCES)


def test_full_span_boxes_follow_the_absolute_address_model(rows: list[dict], data: dict) -> None:
    obs = {c["id"]: c for c in data["cases"]}
    full = [r for r in rows if r["kind"] == "place" and obs[r["id"]]["mode"] <= 3 and obs[r["id"]]["dst_abs"] % 128 == 0
            and (obs[r["id"]]["mode"] == 0 or obs[r["id"]]["box"][0] * obs[r["id"]]["elem_bytes"]
                 == tma.swizzle_mode_info(obs[r["id"]]["mode"]).span_bytes)]
    assert len(full) == 240 and all(r["ok"] for r in full)
    # the off-boundary destinations are among them: the pattern phase follows the absolute address
    assert any(obs[r["id"]]["dst_abs"] % 1024 == 384 and obs[r["id"]]["mode"] == 3 for r in full)


def test_narrow_box_evidence(data_r1: dict) -> None:
    c = by_id(data_r1, "place/128B/e2/w64/r8/o0")  # round 1 kept the full observation of this disagreement
    observed = np.array(c["observed"])
    model = tma.box_to_smem("128B", 2, (32, 8), c["dst_abs"]).ravel()          # rows one 128-byte span apart
    dense = tma.box_to_smem("128B", 2, (32, 8), c["dst_abs"], row_pitch_bytes=64).ravel()
    assert np.array_equal(observed, model) and not np.array_equal(observed, dense)


def test_sm100_swizzle_modes_and_packed_types_rejected_on_h100(data: dict) -> None:
    """The driver's rejections that validate(arch="sm90") reproduces (rules arch.*)."""
    rejected = [c for c in data["cases"] if c["kind"] == "place" and c["mode"] in (4, 5, 6)]
    assert rejected and all(c["encode_rc"] == 1 for c in rejected)
    u4 = [c for c in data["cases"] if c["kind"] == "valid" and c["params"]["dtype"] == "U4x16_ALIGN16B"
          and c["params"]["box"][0] == 128]
    assert u4 and all(c["encode_rc"] == 1 for c in u4)


def test_fields_the_hardware_ignores(data: dict) -> None:
    """LBO of K-major swizzled operands and base-offset bits above the pattern's row count are not read."""
    neg = [c for c in data["cases"] if c["kind"] == "neg" and c["mutation"]["field"] != "tma_swizzle"]

    def outcome(major: str, mode: str, field: str) -> set[bool]:
        out = set()
        for c in neg:
            op = c["mutation"]["operand"]
            mj = c["cfg"]["major_a"] if op == "A" else c["cfg"]["major_b"]
            if mj == major and c["cfg"]["mode"] == mode and c["mutation"]["field"] == field:
                out.add(c["mismatches"] > 0)
        return out

    for mode in ("32B", "64B", "128B"):
        assert outcome("K", mode, "lbo+4096") == {False}
        assert outcome("K", mode, "sbo+16") == {True}
        assert outcome("K", mode, "base_offset^1") == {True}
    assert outcome("K", "none", "lbo+16") == {True}
    assert outcome("K", "32B", "base_offset+2") == {False}
    assert outcome("K", "64B", "base_offset+4") == {False} and outcome("K", "64B", "base_offset+2") == {True}
    assert outcome("K", "128B", "base_offset+4") == {True}


def test_smem_alignment_128(data: dict, rows: list[dict]) -> None:
    """Every TMA shared-memory address off a 128-byte line faults (716); the library refuses them all (floor 128)."""
    obs = {c["id"]: c for c in data["cases"]}
    off = [c for c in data["cases"] if c["kind"] in ("place", "store", "im2col") and c["dst_abs"] % 128]
    assert len(off) == 17 and all(c["launch_rc"] == 716 for c in off)
    assert {c["dst_abs"] % 128 for c in off} == {16, 32, 64}
    assert all(tma.swizzle_mode_info(m).required_alignment_bytes == 128 for m in range(7))
    probes = [r for r in rows if r["id"] in {c["id"] for c in off}]
    assert len(probes) == 17 and all(r["ok"] and "library rejects" in r["detail"] for r in probes)
    aligned = [r for r in rows if r["kind"] in ("place", "store", "im2col") and obs[r["id"]]["dst_abs"] % 128 == 0]
    assert aligned and all(r["ok"] for r in aligned)


def test_tma_store_follows_the_placement_model(data: dict, rows: list[dict]) -> None:
    store = [r for r in rows if r["kind"] == "store" and r["ok"] and "round trip exact" in r["detail"]]
    assert len(store) == 240
    cases = [c for c in data["cases"] if c["kind"] == "store" and c["dst_abs"] % 128 == 0]
    assert {c["mode"] for c in cases} == {0, 1, 2, 3} and all(c["roundtrip_mismatches"] == 0 for c in cases)
    # narrow swizzled rows are read from one span apart, as loads write them
    narrow = by_id(data, "store/128B/e2/w64/r8/o384")
    assert narrow["hash"] == hwcheck.fnv_hash(tma.box_to_smem("128B", 2, (32, 8), narrow["dst_abs"]).ravel())


def test_im2col_rows_match_the_model(data: dict, rows: list[dict]) -> None:
    """Every pixel row of every aligned im2col load is what im2col_load predicts; the decisions it rests on."""
    ok = {r["id"] for r in rows if r["kind"] == "im2col" and r["ok"] and "as im2col_load predicts" in r["detail"]}
    assert len(ok) == 21
    # wrap into the next image: a 10x10 output plane has 100 filter positions, row 100 is image 1's first
    c = by_id(data, "im2col/4d/u16/128B/c64/p128/s1/tap11")
    assert c["row_pixels"][99] == 99 and c["row_pixels"][100] == 100
    # past the last image (N = 2) every row is filled (zero)
    c = by_id(data, "im2col/4d/u16/128B/c64/p128/s1/mid-to-past-N")
    assert c["row_pixels"][-1] == -1 and c["row_pixels"][0] >= 100
    # stride 2: after w = 7 the next filter base is the box's lower corner w = -1 (a filled padding pixel)
    c = by_id(data, "im2col/4d/u16/128B/c64/p64/s2/tap00")
    assert c["row_pixels"][:6] == [-1, -1, -1, -1, -1, -1] and c["row_pixels"][6:10] == [11, 13, 15, 17]
    # channels past C are filled, narrow rows (16 B, 64 B under 128B swizzle) one 128-byte span apart
    for cid in ("channels-past-C", "c32/p32/s1/narrow", "c8/p32/s1/narrow"):
        assert next(r for r in rows if r["id"].endswith(cid))["ok"]


def test_base_offset_readings_cannot_differ_for_32B() -> None:
    """32B has B = 1: (a - b) mod 2 == (a XOR b) mod 2 for all a, b, so no 32B case separates the readings."""
    assert all(((a - b) & 1) == ((a ^ b) & 1) for a in range(64) for b in range(8))
    assert any(((a - b) & 3) != ((a ^ b) & 3) for a in range(8) for b in range(4))  # 64B can (and did)


# --------------------------------------------------------------------------------------------------
# Planted faults: the verifier must catch them
# --------------------------------------------------------------------------------------------------


def _verify_one(data: dict, case: dict) -> dict:
    rows, _ = hwcheck.verify({"meta": data["meta"], "cases": [case]})
    return rows[0]


def test_planted_wrong_product_is_caught(data: dict) -> None:
    c = copy.deepcopy(by_id(data, "mma/bf16/KK/128B/64x64x64"))
    assert _verify_one(data, c)["ok"]
    c["d_hash"], c["mismatches"] = "0123456789abcdef", 3
    r = _verify_one(data, c)
    assert not r["ok"] and r["known"] is None and "differs from A@B" in r["detail"]


def test_planted_descriptor_change_is_caught(data: dict) -> None:
    c = copy.deepcopy(by_id(data, "mma/bf16/MNMN/64B/64x64x64"))
    c["descA"][0] = f"{int(c['descA'][0], 16) ^ (1 << 32):016x}"
    r = _verify_one(data, c)
    assert not r["ok"] and "descriptors differ" in r["detail"]


def test_planted_negative_control_that_does_not_fail_is_caught(data: dict) -> None:
    c = copy.deepcopy(by_id(data, "neg/bf16/KK/128B/64x64x64/a0b0/absolute/auto/A.sbo+16"))
    assert _verify_one(data, c)["ok"]
    c["mismatches"], c["d_hash"] = 0, hwcheck.fnv_hash(
        (hwcheck.mma_constants(c["cfg"])["va"].astype(np.int64) @ hwcheck.mma_constants(c["cfg"])["vb"].astype(
            np.int64).T).astype(np.int32))
    r = _verify_one(data, c)
    assert not r["ok"] and "library predicts wrong product" in r["detail"]


def test_planted_placement_change_is_caught(data: dict) -> None:
    c = copy.deepcopy(by_id(data, "place/64B/e4/w64/r16/o384"))
    assert _verify_one(data, c)["ok"]
    c["hash"] = "00000000deadbeef"
    r = _verify_one(data, c)
    assert not r["ok"] and r["known"] is None


def test_planted_library_fault_is_caught(data: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    c = by_id(data, "place/128B/e1/w128/r16/o256")
    assert _verify_one(data, c)["ok"]
    real = tma.box_to_smem
    monkeypatch.setattr(tma, "box_to_smem", lambda mode, eb, dims, dst=0, **kw: real(mode, eb, dims, dst - dst % 1024, **kw))
    r = _verify_one(data, c)
    assert not r["ok"] and r["known"] is None


def test_planted_driver_verdict_flip_is_caught(data: dict) -> None:
    c = copy.deepcopy(by_id(data, "valid/005"))  # boxDim 256: accepted by both
    assert _verify_one(data, c)["ok"]
    c["encode_rc"] = 1
    r = _verify_one(data, c)
    assert not r["ok"] and r["known"] is None


def test_planted_im2col_row_change_is_caught(data: dict) -> None:
    c = copy.deepcopy(by_id(data, "im2col/4d/u16/64B/c32/p64/s1"))
    assert _verify_one(data, c)["ok"]
    c["row_pixels"][3] += 1
    r = _verify_one(data, c)
    assert not r["ok"] and "rows differing from im2col_load: [3]" in r["detail"]


def test_planted_im2col_model_fault_is_caught(data: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    """A traversal that carries into N at the tensor's edge instead of the box's is caught by the hardware data."""
    from pycute_layouts.arch import im2col

    c = by_id(data, "im2col/4d/u16/128B/c64/p128/s1/tap00")
    assert _verify_one(data, c)["ok"]
    real = im2col.im2col_load
    monkeypatch.setattr(im2col, "im2col_load", lambda **kw: real(**{**kw, "pixel_box_upper_corner": (0, 0)}))
    r = _verify_one(data, c)
    assert not r["ok"] and r["known"] is None


def test_planted_store_roundtrip_is_caught(data: dict) -> None:
    c = copy.deepcopy(by_id(data, "store/64B/e2/w64/r8/o128"))
    assert _verify_one(data, c)["ok"]
    c["roundtrip_mismatches"] = 5
    assert not _verify_one(data, c)["ok"]


def test_planted_codegen_fault_is_caught(data: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    """The verifier's constants come from codegen: a wrong codegen descriptor fails the GPU record."""
    import dataclasses

    from pycute_layouts import codegen

    c = by_id(data, "mma/bf16/MNMN/128B/128x128x128/a0b0/absolute/auto")
    assert _verify_one(data, c)["ok"]
    real = codegen.kernel_constants

    def faulty(spec: codegen.KernelSpec) -> codegen.KernelConstants:
        kc = real(spec)
        a = kc.operand("A")
        bad = dataclasses.replace(a, descs=tuple(tuple(v + (1 << 16) for v in row) for row in a.descs))
        return dataclasses.replace(kc, operands=(bad, kc.operand("B")))

    monkeypatch.setattr(codegen, "kernel_constants", faulty)
    predict._mma_consts_cached.cache_clear()
    try:
        r = _verify_one(data, c)
    finally:
        monkeypatch.undo()
        predict._mma_consts_cached.cache_clear()
    assert not r["ok"] and "descriptors differ" in r["detail"]


def test_bad_result_files() -> None:
    with pytest.raises(hwcheck.HwCheckError, match="unknown kind"):
        hwcheck.verify({"cases": [{"kind": "nope", "id": "x"}]})
    with pytest.raises(hwcheck.HwCheckError, match="malformed"):
        hwcheck.verify({"cases": [{"kind": "mma", "id": "x"}]})
    with pytest.raises(LayoutError, match="no such file"):
        hwcheck.verify("/nonexistent/results.json")
    with pytest.raises(hwcheck.HwCheckError, match="bad configuration"):
        hwcheck.mma_constants({"dtype": "bf16"})
    with pytest.raises(hwcheck.HwCheckError, match="integers"):
        hwcheck.fnv_hash([0.5])


def test_values_and_hash_are_stable() -> None:
    assert hwcheck.fnv_hash([1, 2, 3]) == "42189266390ddcf3"
    v = cases.operand_values(7, (4, 4))
    assert v.dtype == np.int8 and v.min() >= -3 and v.max() <= 3
    assert np.array_equal(v, cases.operand_values(7, (4, 4)))


# --------------------------------------------------------------------------------------------------
# CLI (installed console script, subprocess)
# --------------------------------------------------------------------------------------------------


def test_cli_verify_committed_file(rows: list[dict], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hwcheck, "verify", hwcheck_memo.verify)   # the rows fixture's verification, not a second one
    r = run_cli("hwcheck", "--verify", str(RESULTS))
    assert r.returncode == 1, r.stderr  # documented known differences are still mismatches
    assert "mma      228     0" in r.stdout and "im2col    22     0" in r.stdout
    assert "tma.interleave32_swizzle: 2 case(s)" in r.stdout and "smem_align128" not in r.stdout
    r = run_cli("hwcheck", "--verify", str(RESULTS), "--allow-known", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["unexplained"] == 0 and out["failed"] == 2 and out["meta"]["gpu"].startswith("NVIDIA H100")
    assert out["rows"] == rows


@pytest.mark.xdist_group("hwcheck-emit")
def test_cli_emit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hwcheck, "emit", hwcheck_memo.emit)   # one real emit per process (test_hwcheck_unified too)
    r = run_cli("hwcheck", "--emit", str(tmp_path / "gen"), "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["cases"]["valid"] >= 60
    header = (tmp_path / "gen" / "hwcheck_cases.cuh").read_text()
    assert "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16" in header
    # operand constants are read from codegen's header, one namespace per configuration
    cg = (tmp_path / "gen" / "hwcheck_codegen.cuh").read_text()
    assert "kDescStageK[kStages][kKSteps] = {{0x4000004000010200ull, 0x4000004000010202ull" in cg
    assert "::OperandA::kDescStageK[0][1] + (" in header and "::OperandA::kTmaCopyCoord[0][0]" in header
    assert "cp.async" not in header and "im2col/4d/u16/128B/c64/p128/s1/tap00" in header


def test_cli_bad_input(tmp_path: Path) -> None:
    assert run_cli("hwcheck").returncode == 2
    r = run_cli("hwcheck", "--verify", str(tmp_path / "missing.json"))
    assert r.returncode == 2 and "no such file" in r.stderr and "Traceback" not in r.stderr
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert run_cli("hwcheck", "--verify", str(bad)).returncode == 2
    bad.write_text('{"cases": [{"kind": "valid", "id": "v"}]}')
    r = run_cli("hwcheck", "--verify", str(bad))
    assert r.returncode == 2 and "malformed" in r.stderr
    f = tmp_path / "file"
    f.write_text("x")
    assert run_cli("hwcheck", "--emit", str(f)).returncode == 2
    assert run_cli("hwcheck", "--help").returncode == 0


# --------------------------------------------------------------------------------------------------
# GPU execution: only on a machine with a Hopper GPU and nvcc
# --------------------------------------------------------------------------------------------------


def _hopper_gpu() -> str | None:
    if not shutil.which("nvidia-smi") or not shutil.which("nvcc"):
        return "no nvidia-smi / nvcc on this machine"
    r = subprocess.run(["nvidia-smi", "--query-gpu=compute_cap", "--format=csv,noheader"], capture_output=True,
                       text=True)
    if r.returncode != 0 or not r.stdout.strip():
        return "nvidia-smi finds no GPU"
    if not r.stdout.split()[0].startswith("9."):
        return f"GPU compute capability {r.stdout.split()[0]} is not Hopper (9.x)"
    return None


@pytest.mark.slow
def test_gpu_run(tmp_path: Path) -> None:
    """The whole flow from a clean checkout: --emit, run.sh (builds and runs every program), --verify."""
    why = _hopper_gpu()
    if why:
        pytest.skip(f"GPU execution skipped: {why}")
    gen = tmp_path / "gen"
    r = run_cli("hwcheck", "--emit", str(gen))
    assert r.returncode == 0, r.stderr
    out = tmp_path / "results.json"
    r = subprocess.run([str(ROOT / "examples" / "hardware" / "run.sh"), str(gen), str(out)], capture_output=True,
                       text=True, env={**__import__("os").environ}, timeout=3600)
    assert r.returncode == 0, r.stderr[-4000:]
    rows, _ = hwcheck.verify(out)
    kinds = {x["kind"] for x in rows}
    assert {"place", "store", "valid", "im2col", "mma", "e2e", "neg", "atom", "bank", "gemm"} <= kinds
    assert not [x for x in rows if not x["ok"] and not x["known"]]
    assert run_cli("hwcheck", "--verify", str(out), "--allow-known").returncode == 0
