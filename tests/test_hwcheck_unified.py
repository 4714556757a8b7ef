"""One harness for every hardware claim: the committed H100 run of 2026-11-26 against the CURRENT library.

examples/hardware/results/hwcheck-h100-2026-11-26.json was written by ONE flow (``pycute-layouts hwcheck --emit
DIR``, ``examples/hardware/run.sh DIR OUT``) on an H100 and holds every claim kind: TMA placement and stores,
tensor-map validation, im2col, wgmma, TMA + wgmma, negative controls, thread-value layouts of atoms (wgmma with f32
and f16 accumulators, SM80 mma.sync, ldmatrix/stmatrix alone and tiled over swizzled tiles, cp.async into swizzled
tiles), bank conflicts, and the GEMM built from ``codegen`` constants. ``hwcheck.verify`` recomputes every
prediction here; the former separate result files (atoms, banks) verify through the same command.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import re
import shutil
import subprocess
from pathlib import Path

import cli_runner
import hwcheck_memo
import pytest

from pycute_layouts import codegen, hwcheck, parse
from pycute_layouts.hwcheck import atoms_check, gemm

ROOT = Path(__file__).resolve().parents[1]
HW = ROOT / "examples" / "hardware"
RESULTS = HW / "results" / "hwcheck-h100-2026-11-26.json"
ATOMS_MORE = HW / "results" / "hwcheck-h100-2026-11-26-atoms.json"   # run.sh with HWCHECK_PARTS=atoms
ATOMS_2025 = HW / "atoms" / "results" / "atoms-h100-2026-11-25.json"
BANKS_2021 = HW / "banks" / "results" / "banks-h100-2026-11-21.json"
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


def test_metadata(data: dict) -> None:
    m = data["meta"]
    assert m["date"] == "2026-11-26" and m["device"] == "NVIDIA H100 80GB HBM3" and m["cc"] == "9.0"
    assert m["driver_version"] == "580.159.04" and "cuda_13.0" in m["nvcc"] and "sm_90a" in m["nvcc_flags"]
    assert set(m["sass"]) == {"hwcheck", "atoms", "banks", "gemm"}


def test_every_claim_kind_in_one_file(data: dict, rows: list[dict]) -> None:
    counts: dict[str, int] = {}
    for r in rows:
        counts[r["kind"]] = counts.get(r["kind"], 0) + 1
    assert counts == {"place": 924, "store": 244, "valid": 84, "im2col": 22, "mma": 228, "e2e": 46, "neg": 1862,
                      "atom": 63, "bank": 102, "gemm": 38}
    assert not [r for r in rows if not r["ok"] and not r["known"]]
    assert [r["known"] for r in rows if r["known"]] == ["tma.interleave32_swizzle"] * 2


def test_atoms_cover_the_new_claims(data: dict, rows: list[dict]) -> None:
    names = {c["name"] for c in data["cases"] if c["kind"] == "atom"}
    assert {f"mma.sync/{a}" for a in atoms_check.MMA_SYNC_CASES} <= names
    assert {"wgmma/f16acc/SS/N8", "wgmma/f16acc/SS/N32", "wgmma/f16acc/RS/N32"} <= names
    assert sum(n.startswith("tiled/") for n in names) == 12 and sum(n.startswith("cp.async/") for n in names) == 9
    assert {"tiled_mma/bf16/2x1x1/128x64", "tiled_mma/bf16/2x1x1/256x64", "tiled_mma/tf32/2x1x1/256x32",
            "mma.sync/SM89_16x8x32_F32E4M3E4M3F32_TN"} <= names
    good = [r for r in rows if r["kind"] == "atom" and r["ok"]]
    assert len(good) == 63
    assert sum(int(r["detail"].split()[0]) for r in good) == 135488      # values compared, every one equal


def test_sass_has_the_intended_instructions(data: dict) -> None:
    sass = data["meta"]["sass"]
    atom_ops = {int(re.search(r"case(\d+)", fn).group(1)): set(ops) for fn, ops in sass["atoms"].items()}
    by_name = {c.name: i for i, c in enumerate(atoms_check.cases())}
    assert any(o.startswith("HMMA.16816.F32.BF16") for o in atom_ops[by_name["mma.sync/SM80_16x8x16_F32BF16BF16F32_TN"]])
    assert any(o.startswith("IMMA.16832.U8.U8") for o in atom_ops[by_name["mma.sync/SM80_16x8x32_S32U8U8S32_TN"]])
    assert any(o.startswith("HGMMA") and "F16" in o for o in atom_ops[by_name["wgmma/f16acc/SS/N32"]])
    assert any(o.startswith("LDGSTS.E.BYPASS.128") for o in atom_ops[by_name["cp.async/16B/32x64/Sw<3,4,3>"]])
    # sm_90 has no fp8 mma.sync: ptxas emulates the SM89 e4m3 instruction with two f16 HMMA.16816 (conversions first)
    assert sass["atoms"][next(k for k in sass["atoms"] if f"case{by_name['mma.sync/SM89_16x8x32_F32E4M3E4M3F32_TN']}P" in k)] \
        == {"HMMA.16816.F32": 2}
    assert sum(o.startswith("HGMMA") for o in atom_ops[by_name["tiled_mma/bf16/2x1x1/256x64"]]) >= 1
    assert any(o.startswith("STSM.16.MT88.4") for o in atom_ops[by_name["tiled/SM90_U16x8_STSM_T/32x64/Sw<3,4,3>"]])
    kernels = {fn: ops for fn, ops in sass["gemm"].items() if "gemm_kernel" in fn}
    assert len(kernels) == len(gemm.configs())
    for fn, ops in kernels.items():
        mma = "QGMMA" if "e4m3" in fn else "HGMMA"
        assert any(o.startswith(mma) for o in ops) and any(o.startswith("UTMALDG.2D") for o in ops), fn
        assert any(o.startswith("SYNCS.PHASECHK") for o in ops), fn   # mbarrier waits


def test_gemm_coverage_and_results(data: dict, rows: list[dict]) -> None:
    g = [c for c in data["cases"] if c["kind"] == "gemm"]
    cfgs = [c["cfg"] for c in g]
    assert {c["dtype"] for c in cfgs} == {"bf16", "e4m3"}
    assert {c["swizzle"] for c in cfgs} == {"128B", "64B", "32B"}
    assert {(c["dtype"], c["major_b"]) for c in cfgs} == {("bf16", "K"), ("bf16", "MN"), ("e4m3", "K")}
    assert len({(c["BM"], c["BN"], c["BK"]) for c in cfgs}) >= 6 and {c["stages"] for c in cfgs} >= {2, 3, 4, 5, 6}
    ragged = [c for c in g if c["M"] % c["cfg"]["BM"] and c["N"] % c["cfg"]["BN"] and c["K"] % c["cfg"]["BK"]]
    assert len(ragged) >= 13                               # every configuration, on a ragged edge in M, N and K
    clean = [c for c in g if not c["fault"]]
    assert all(c["mismatches"] == 0 and c["max_abs_err"] == 0 for c in clean)
    faults = {(c["cfg"]["dtype"], gemm.FAULTS[c["fault"]]): c["mismatches"] for c in g if c["fault"]}
    assert set(faults) == {("bf16", "lbo"), ("bf16", "stage_offset"), ("bf16", "swizzle"), ("e4m3", "stage_offset"),
                           ("e4m3", "swizzle")}
    assert all(v > 100000 for v in faults.values())
    assert all(r["ok"] for r in rows if r["kind"] == "gemm")


def test_gemm_speed_is_recorded_next_to_torch(data: dict) -> None:
    """Information, not a claim: TFLOP/s of the timed runs and torch.matmul on the same GPU in the same run."""
    timed = {c["cfg"]["dtype"]: c["tflops"] for c in data["cases"] if c["kind"] == "gemm" and c.get("timed")}
    t = data["meta"]["torch_matmul"]
    assert t["available"] and t["size"] == 8192 and t["bf16"]["tflops"] > 0 and t["e4m3"]["tflops"] > 0
    assert timed["bf16"] > 0 and timed["e4m3"] > 0


def test_former_result_files_verify_through_the_one_command() -> None:
    for f, kind, n in ((ATOMS_2025, "atom", 21), (BANKS_2021, "bank", 102)):
        rows, _ = hwcheck_memo.verify(f)
        assert len(rows) == n and {r["kind"] for r in rows} == {kind} and all(r["ok"] for r in rows)
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(hwcheck, "verify", hwcheck_memo.verify)   # the verification above, not a second one
            r = run_cli("hwcheck", "--verify", str(f))
        assert r.returncode == 0, r.stderr


# --------------------------------------------------------------------------------------------------
# planted faults: each must be caught
# --------------------------------------------------------------------------------------------------


def _gemm_case(data: dict, fault: int = 0) -> dict:
    return copy.deepcopy(next(c for c in data["cases"] if c["kind"] == "gemm" and c["fault"] == fault))


def test_planted_gemm_constant_change_is_caught(data: dict) -> None:
    """A record whose kernel ran other descriptors than the library derives today fails."""
    c = _gemm_case(data)
    c["constants"]["descB"][1] = c["constants"]["descB"][0]
    rows, _ = hwcheck.verify({"cases": [c]})
    assert not rows[0]["ok"] and "descB" in rows[0]["detail"]


def test_planted_library_fault_is_caught(data: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    """A library whose codegen moved stage 1 of every operand by 1 KiB disagrees with what the GPU ran."""
    orig = gemm.gemm_constants

    def shifted(cfg: dict):
        kc = orig(cfg)
        a = kc.operand("A")
        bad = dataclasses.replace(a, stage_starts=(a.stage_starts[0], a.stage_starts[1] + 1024) + a.stage_starts[2:])
        return dataclasses.replace(kc, operands=tuple(bad if o.name == "A" else o for o in kc.operands))

    monkeypatch.setattr(gemm, "gemm_constants", shifted)
    rows, _ = hwcheck.verify({"cases": [_gemm_case(data)]})
    assert not rows[0]["ok"] and "stageA" in rows[0]["detail"]


def test_planted_measurements_are_caught(data: dict) -> None:
    wrong = _gemm_case(data)
    wrong["mismatches"], wrong["max_abs_err"] = 3, 1.0
    missed = _gemm_case(data, fault=1)
    missed["mismatches"], missed["max_abs_err"] = 0, 0.0
    atom = copy.deepcopy(next(c for c in data["cases"] if c["kind"] == "atom" and c["name"].startswith("mma.sync/")))
    atom["out"][0] ^= 1 << 24
    rows, _ = hwcheck.verify({"cases": [wrong, missed, atom]})
    assert [r["ok"] for r in rows] == [False, False, False]
    assert "NOT detected" in rows[1]["detail"] and "thread 0" in rows[2]["detail"]


def test_planted_atom_layout_fault_is_caught(data: dict) -> None:
    """SM80 16x8x16 accumulator with its two value modes swapped ((2,2):(16,8) -> (8,16)) must disagree with the GPU."""
    name = "mma.sync/SM80_16x8x16_F32BF16BF16F32_TN"
    c = next(c for c in atoms_check.cases() if c.name == name)
    assert str(c.atom.layout_c) == "((4,8),(2,2)):((32,1),(16,8))"
    bad = parse("((4,8),(2,2)):((32,1),(8,16))")
    swapped = dataclasses.replace(c, atom=dataclasses.replace(c.atom, layout_c=bad))
    obs = next(o for o in data["cases"] if o.get("name") == name)
    n, errs = atoms_check.check_case(swapped, obs["out"])
    assert errs and n == 128


def test_cli_exit_codes(tmp_path: Path, data: dict, rows: list[dict], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hwcheck, "verify", hwcheck_memo.verify)   # the rows fixture's verification, not a second one
    r = run_cli("hwcheck", "--verify", str(RESULTS), "--allow-known")
    assert r.returncode == 0 and re.search(r"^total\s+3611\s+2\s+\(2 known\)$", r.stdout, re.M), r.stdout[-500:]
    bad = tmp_path / "bad.json"
    c = _gemm_case(data)
    c["mismatches"] = 1
    bad.write_text(json.dumps({"cases": [c]}))
    assert run_cli("hwcheck", "--verify", str(bad)).returncode == 1
    c.pop("constants")
    bad.write_text(json.dumps({"cases": [c]}))
    r = run_cli("hwcheck", "--verify", str(bad))
    assert r.returncode == 2 and "malformed" in r.stderr and "Traceback" not in r.stderr


# --------------------------------------------------------------------------------------------------
# the generated sources
# --------------------------------------------------------------------------------------------------


@pytest.mark.xdist_group("hwcheck-emit")
def test_emit_writes_every_source(tmp_path: Path) -> None:
    counts = hwcheck_memo.emit(tmp_path)   # one real emit per process (test_hwcheck.py's CLI test copies it)
    assert counts["atom"] == 119 and counts["bank"] == 102 and counts["gemm"] == len(gemm.gemm_cases())
    for f in ("hwcheck_cases.cuh", "hwcheck_codegen.cuh", "hwcheck_data.bin", "plan.json", "atoms_cases.cuh",
              "atoms_plan.json", "banks_cases.cuh", "banks_plan.json", "gemm_configs.cuh", "gemm_plan.json"):
        assert (tmp_path / f).is_file(), f
    text = (tmp_path / "gemm_configs.cuh").read_text()
    for cfg in gemm.configs():                               # each configuration's codegen header, verbatim
        assert codegen.emit_header(gemm.gemm_constants(cfg)) in text


def test_gemm_kernel_types_no_layout_constant() -> None:
    """gemm.cu reads descriptors, stage starts, TMA boxes/copies and the epilogue layout from the generated header."""
    src = (HW / "gemm" / "gemm.cu").read_text()
    for mix in ("0x9E3779B97F4A7C15", "0xBF58476D1CE4E5B9", "0x94D049BB133111EB"):   # splitmix64 (the data hash)
        src = src.replace(mix, "")
    assert not re.search(r"0x[0-9a-fA-F]{9,}", src)          # no descriptor literal
    for name in ("kDescStageK", "kStageStart", "kMmaMNBlockOffsetBytes", "kTmaBoxDim", "kTmaCopyCoord",
                 "kTmaCopyOffsetBytes", "kTmaSwizzle", "tv_c"):
        assert name in src, name


def test_gemm_configs_are_valid_kernels() -> None:
    for cfg in gemm.configs():
        kc = gemm.gemm_constants(cfg)
        assert codegen.kernel_violations(kc) == ()
        assert kc.operand("A").k_steps == kc.operand("B").k_steps


# --------------------------------------------------------------------------------------------------
# the atoms of every generation sm_90 executes (the second H100 run of 2026-11-26, HWCHECK_PARTS=atoms)
# --------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def more() -> dict:
    return json.loads(ATOMS_MORE.read_text())


def _new_names() -> set[str]:
    return ({f"mma.sync/{a}" for a in atoms_check.MORE_MMA_SYNC_CASES} | {f"dot/{a}" for a in atoms_check.DOT_CASES}
            | {f"cp.async.atom/{a}" for a in atoms_check.CP_ASYNC_ATOM_CASES} | {n for n, _, _ in atoms_check.SPARSE_CASES})


def test_more_atoms_every_value_held_on_the_h100(more: dict) -> None:
    m = more["meta"]
    assert m["date"] == "2026-11-26" and m["device"] == "NVIDIA H100 80GB HBM3" and m["programs"]["atoms"]["cc"] == "9.0"
    assert m["driver_version"] == "580.159.04" and "sm_90a" in m["nvcc_flags"]
    rows, _ = hwcheck_memo.verify(ATOMS_MORE)
    assert len(rows) == 112 and {r["kind"] for r in rows} == {"atom"} and all(r["ok"] for r in rows)
    assert sum(int(r["detail"].split()[0]) for r in rows) == 191136          # values compared, every one equal
    new = [r for r in rows if r["id"].split("/", 1)[1] in _new_names()]
    assert len(new) == 29 + 1 + 16 + 3 == len(_new_names())
    assert sum(int(r["detail"].split()[0]) for r in new) == 55648              # of which the new atoms (cp.async: bits)
    arches = {n.split("/")[1].split("_")[0] for n in _new_names() if not n.startswith("wgmma.sp/")}
    assert arches == {"SM61", "SM70", "SM75", "SM80", "SM89", "SM90"}
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(hwcheck, "verify", hwcheck_memo.verify)   # the verification above, not a second one
        r = run_cli("hwcheck", "--verify", str(ATOMS_MORE))
    assert r.returncode == 0 and re.search(r"^atom\s+112\s+0$", r.stdout, re.M), r.stdout[-300:]


def test_more_atoms_sass(more: dict) -> None:
    """What sm_90 runs for each: native DMMA / IDP / BMMA / IMMA; 4-bit, XOR-popc, fp8 and m8n8k4 emulated."""
    sass = more["meta"]["sass"]["atoms"]
    by_name = {c.name: i for i, c in enumerate(atoms_check.cases())}

    def ops(name: str) -> dict:
        return next(v for k, v in sass.items() if re.search(rf"case{by_name[name]}P", k))

    assert ops("mma.sync/SM90_16x8x16_F64F64F64F64_TN") == {"DMMA.16x8x16": 1}
    assert ops("mma.sync/SM80_8x8x4_F64F64F64F64_TN") == {"DMMA.8x8x4": 1}
    assert ops("dot/SM61_DP4A") == {"IDP.4A.S8.S8": 1}
    assert ops("mma.sync/SM80_16x8x256_S32U1U1S32_TN_ANDPOPC") == {"BMMA.168256.AND.POPC": 1}
    assert ops("mma.sync/SM80_16x8x256_S32U1U1S32_TN_XORPOPC") == {"BMMA.168256.AND.POPC": 2}   # XOR from two ANDs
    assert ops("mma.sync/SM80_16x8x64_S32S4U4S32_TN") == {"IMMA.16832.S8.U8": 2}              # 4-bit widened to 8
    assert ops("mma.sync/SM89_16x8x32_F16E5M2E5M2F16_TN") == {"HMMA.16816.F16": 2}            # fp8 through f16
    assert ops("mma.sync/SM75_16x8x8_F32F16F16F32_TN") == {"HMMA.1688.F32": 1}
    assert ops("mma.sync/SM70_8x8x4_F32F16F16F32_TN") == {}                  # m8n8k4: no tensor-core op on sm_90
    assert ops("cp.async.atom/SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint128_t>")["LDGSTS.E.BYPASS.128"] == 1
    assert ops("cp.async.atom/SM80_CP_ASYNC_CACHEALWAYS<uint64_t>")["LDGSTS.E.64"] == 1
    assert ops("wgmma.sp/bf16/SS/N64/sel0")["HGMMA.SP.64x64x32.F32.BF16"] == 1              # native sparse wgmma
    assert ops("wgmma.sp/bf16/SS/N16/sel1")["HGMMA.SP.64x16x32.F32.BF16"] == 1


@pytest.mark.parametrize("name,field,bad", [
    ("mma.sync/SM70_8x8x4_F32F16F16F32_TN", "layout_c", "((2,2,2),(2,2,2)):((1,16,4),(8,32,2))"),
    ("mma.sync/SM70_8x8x4_F16F16F16F16_NT", "layout_c", "(8,8):(8,1)"),
    ("mma.sync/SM90_16x8x16_F64F64F64F64_TN", "layout_c", "((4,8),(2,2)):((32,1),(8,16))"),
    ("mma.sync/SM80_16x8x64_S32S4U4S32_TN", "layout_c", "((4,8),(2,2)):((32,2),(16,1))"),
    ("mma.sync/SM80_16x8x256_S32U1U1S32_TN_XORPOPC", "layout_c", "((4,8),(2,2)):((32,1),(8,16))"),
    ("mma.sync/SM89_16x8x32_F16E4M3E4M3F16_TN", "layout_c", "((4,8),(2,2)):((32,1),(8,16))"),
    ("cp.async.atom/SM80_CP_ASYNC_CACHEALWAYS<uint128_t>", "dst_layout", "(1,(8,16)):(0,(16,1))"),
    ("cp.async.atom/SM80_CP_ASYNC_CACHEALWAYS_ZFILL<uint32_t>", "dst_layout", "(1,(16,2)):(0,(2,1))"),
])
def test_more_atoms_planted_layout_faults_are_caught(more: dict, name: str, field: str, bad: str) -> None:
    """A library whose layout differs from what the H100 did disagrees with the committed observations."""
    c = next(c for c in atoms_check.cases() if c.name == name)
    obs = next(o for o in more["cases"] if o.get("name") == name)
    assert atoms_check.check_case(c, obs["out"])[1] == []
    wrong = dataclasses.replace(c, atom=dataclasses.replace(c.atom, **{field: parse(bad)}))
    n, errs = atoms_check.check_case(wrong, obs["out"])
    assert errs and n > 0


def test_more_atoms_dot_planted_measurement_is_caught(more: dict) -> None:
    obs = copy.deepcopy(next(o for o in more["cases"] if o.get("name") == "dot/SM61_DP4A"))
    assert obs["out"][:4] == [1, 2, 3, 4]
    obs["out"][1] = 3                                       # lane 1 paired A's element 2 with B's element 1
    rows, _ = hwcheck.verify({"cases": [obs]})
    assert not rows[0]["ok"] and "lane 1" in rows[0]["detail"]


@pytest.mark.xdist_group("hwcheck-emit")
def test_more_atoms_operands_are_exact_and_emitted(tmp_path: Path) -> None:
    """Every operand value exact in its type, D = m + M n by construction; the PTX each kernel issues."""
    for a in atoms_check.MMA_SYNC_CASES + atoms_check.MORE_MMA_SYNC_CASES:
        atom = atoms_check.atoms.mma_atom(a)
        m_, n_, _ = atom.shape_mnk
        A, B = atoms_check.sync_operands(atom)
        _, ta, tb = atoms_check.types_of(atom)
        assert all(atoms_check.exact(v, ta) for r in A for v in r) and all(atoms_check.exact(v, tb) for r in B for v in r)
        xor = a.endswith("XORPOPC")
        for m in range(m_):
            for n in range(n_):
                d = sum((x ^ y) if xor else x * y for x, y in zip(A[m], B[n]))
                assert d == m + m_ * n, (a, m, n)
    with pytest.raises(ValueError):
        atoms_check.encode(9, 8, "e5m2")
    assert atoms_check.encode(7, 8, "e5m2") == 0x47 and atoms_check.encode(4, 4, "s4") == 4
    hwcheck_memo.emit(tmp_path)   # hwcheck.emit writes atoms_check.emit's files (one real emit per process)
    src = (tmp_path / "atoms_cases.cuh").read_text()
    for ptx in ("mma.sync.aligned.m8n8k4.col.row.f16.f16.f16.f16", "mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32",
                "mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.xor.popc", "mma.sync.aligned.m16n8k64.row.col.s32.s4.u4.s32",
                "mma.sync.aligned.m16n8k32.row.col.f16.e5m2.e5m2.f16", "mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64",
                "dp4a.s32.s32", "cp.async.cg.shared.global [%0], [%1], 16, %2;", "cp.async.ca.shared.global [%0], [%1], 8;"):
        assert ptx in src, ptx


@pytest.mark.parametrize("field,bad", [
    ("layout_e", "((2,2,8,4),(16,2)):((1024,0,1,16),(64,512))"),     # the two rows of a thread swapped with K
    ("layout_e", "((2,2,8,4),(16,2)):((1024,0,16,1),(64,8))"),       # lane group and warp strides exchanged
    ("layout_c", "((4,8,4),(2,2,8)):((128,1,16),(8,64,512))"),
])
def test_sparse_wgmma_planted_faults_are_caught(more: dict, field: str, bad: str) -> None:
    """Sparse wgmma: a changed metadata layout or accumulator layout no longer agrees with the H100's answer."""
    name = "wgmma.sp/bf16/SS/N64/sel0"
    c = next(c for c in atoms_check.cases() if c.name == name)
    assert str(c.atom.layout_e) == "((2,2,8,4),(16,2)):((1024,0,1,16),(64,8))"
    obs = next(o for o in more["cases"] if o.get("name") == name)
    assert atoms_check.check_case(c, obs["out"]) == (4096, [])
    wrong = dataclasses.replace(c, atom=dataclasses.replace(c.atom, **{field: parse(bad)}))
    n, errs = atoms_check.check_case(wrong, obs["out"])
    assert errs
    obs2 = copy.deepcopy(obs)
    obs2["out"][5] = obs2["out"][6]
    assert atoms_check.check_case(c, obs2["out"])[1]
