"""The command line as a script sees it: exit codes, per-instruction ``desc``, kernel checks, ``--swizzle auto``.

The commands quoted by the user report run as subprocesses (``python -m pycute_layouts``, which
also checks that entry point); the exit-code table of docs/cli.md runs in process through
``pycute_layouts.cli.main``.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import cli_runner
import pytest

from pycute_layouts.cli import main
from pycute_layouts.version import __version__

ROOT = Path(__file__).resolve().parents[1]

A_BF16 = {"tile": "128x64", "dtype": "bf16", "major": "K", "swizzle": "128B"}


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """pycute-layouts ARGS, answered in this process (tests/cli_runner.py; test_cli.py runs real processes)."""
    return cli_runner.run(*args, cwd=cwd)


def write_spec(tmp_path: Path, a: dict, b: dict, arch: str = "sm90") -> Path:
    p = tmp_path / "spec.json"
    p.write_text(json.dumps({"kernel": "gemm", "arch": arch, "A": a, "B": b}))
    return p


# ------------------------------------------------------------------------------------------------
# the quoted commands
# ------------------------------------------------------------------------------------------------


def test_prove_stated_mismatch_prints_a_counterexample_and_exits_1() -> None:
    r = run("prove", "--pairing", "128B", "K", "16", "sm90", "--wgmma-swizzle", "64B")
    assert r.returncode == 1, (r.stdout, r.stderr)
    assert r.stdout.startswith("Counterexample: TMA 128B K-major box -> sm90 wgmma 64B K-major atom, 16-bit elements")
    assert "element (mn, kk) = (0, 32) of the 8x64 tile at 0x0: TMA 0x40, wgmma 0x200" in r.stdout
    assert r.stdout.count("failed step") == 1 and r.stderr == ""


def test_desc_issues_only_instructions_sm90_has() -> None:
    r = run("desc", "--major", "K", "--dtype", "bf16", "--swizzle", "128B", "--tile", "128x64")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "128x16" not in out  # no sm90 wgmma reads 128 rows of A
    assert ("instruction  : 64x16 (MN x K) per instruction = 32 bytes of K; 2 MN block(s) x 4 K step(s) = 8 "
            "instruction(s) in the tile") in out
    assert "sm90 wgmma.mma_async reads A as 64 rows (M = 64) per instruction: 2 instruction(s) cover the 128 rows" in out
    assert "MN blocks    : 64-row blocks start at byte offsets 0, 8192" in out
    table = out[out.index("instructions :"):].splitlines()[2:10]
    rows = [(int(x.split()[0]), int(x.split()[1]), int(x.split()[2], 16), int(x.split()[3], 16)) for x in table]
    assert [(i, k, s) for i, k, s, _ in rows] == [(i, k, 8192 * i + 32 * k) for i in range(2) for k in range(4)]
    assert all(d == 0x4000004000010000 | (s >> 4) for _, _, s, d in rows)
    for name, bits, value in (("start address", "bits 0-13", 0), ("LBO", "bits 16-29", 1), ("SBO", "bits 32-45", 64),
                              ("base offset", "bits 49-51", 0), ("layout type", "bits 62-63", 1)):
        assert re.search(rf"^  {name} +{bits} += {value} +\S", out, re.M), (name, out)


@pytest.mark.parametrize("args,mma_mn,blocks,note", [
    (("--operand", "B"), 128, 1, "sm90 wgmma.mma_async reads B as N = 128 rows"),
    (("--operand", "B", "--tile", "512x64"), 256, 2, "reads B as N = 256 rows"),
    (("--arch", "sm100"), 128, 1, "cta_group::1 reads A as M = 128 rows"),
    (("--arch", "sm100", "--tile", "64x64"), 64, 1, "cta_group::1 reads A as M = 64 rows"),
    (("--arch", "sm100", "--cta-group", "2", "--tile", "256x64"), 128, 2, "M = 256 over the CTA pair, 128 rows of A"),
    (("--arch", "sm100", "--cta-group", "2", "--operand", "B", "--tile", "256x64"), 128, 2,
     "N = 256 over the CTA pair, 128 rows of B"),
    (("--operand", "B", "--mma-mn", "32"), 32, 4, "reads B as N = 8..256 rows"),
])
def test_desc_rows_per_instruction(capsys: pytest.CaptureFixture, args: tuple, mma_mn: int, blocks: int,
                                   note: str | None) -> None:
    argv = ["desc", "--major", "K", "--dtype", "bf16", "--swizzle", "128B", "--tile", "128x64", *args, "--json"]
    if "--tile" in args:
        i = argv.index("--tile")
        del argv[i:i + 2]
    assert main(argv) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["mma_mn"] == mma_mn and len(d["mn_block_offsets_bytes"]) == blocks
    assert [(x["mn_block"], x["start_address"]) for x in d["instructions"]] == [
        (i, mn + k) for i, mn in enumerate(d["mn_block_offsets_bytes"]) for k in d["k_step_offsets_bytes"]]
    assert d["mn_block_offsets_bytes"] == [mma_mn * 128 * i for i in range(blocks)]  # 128 bytes of K per row
    assert (note in d["instruction_note"]) if note else d["instruction_note"] == ""


@pytest.mark.parametrize("args,words", [
    (("--tile", "32x64"), "reads A as 64 rows (M = 64) per instruction; the tile has 32 rows"),
    (("--tile", "64x64", "--cta-group", "2"), "cta_group 2 is a tcgen05 (sm100) setting"),
    (("--tile", "64x64", "--arch", "sm100", "--cta-group", "2"), "128 rows of A from each CTA; the tile has 64 rows"),
    (("--tile", "64x64", "--operand", "C"), "operand must be 'A' or 'B'"),
    (("--tile", "64x64", "--mma-mn", "64", "--cta-group", "2"), "do not combine it with --mma-mn"),
    (("--tile", "64x4", "--swizzle", "auto"), "is not a multiple of 16 B"),
])
def test_desc_per_instruction_refusals(capsys: pytest.CaptureFixture, args: tuple, words: str) -> None:
    argv = ["desc", "--major", "K", "--dtype", "bf16", "--swizzle", "128B", *args]
    if args.count("--swizzle"):
        i = argv.index("--swizzle")
        del argv[i:i + 2]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("pycute-layouts desc: error: ") and words in err[0], err


def test_desc_fp8_note_and_swizzle_auto() -> None:
    r = run("desc", "--major", "K", "--swizzle", "auto", "--dtype", "e4m3", "--tile", "128x96", "--operand", "B")
    assert r.returncode == 0, r.stderr
    assert ("swizzle      : auto -> 32B: K-major contiguous extent 96 x 8-bit = 96 B: 128B does not divide it; 64B does "
            "not divide it; 32B is the widest span dividing it (CUTLASS ss_smem_selector, DeepGEMM get_swizzle_mode)"
            ) in r.stdout
    assert "CU_TENSOR_MAP_DATA_TYPE_UINT8" in r.stdout
    assert r.stdout.splitlines()[-1].startswith("note         : CUtensorMapDataType has no fp8 member")
    r = run("desc", "--major", "K", "--swizzle", "128B", "--dtype", "bf16", "--tile", "64x64")
    assert "note" not in r.stdout and "swizzle      :" not in r.stdout


@pytest.mark.parametrize("edit,message", [
    ({"A": {**A_BF16, "stages": 5}, "B": {**A_BF16, "tile": "256x64", "stages": 5}},
     "kernel check 'smem_budget': smem_base 0 B + A 5 stage(s) x 16384 B + B 5 stage(s) x 32768 B + 0 B alignment "
     "padding = 245760 B (240 KiB), more than the 232448 B (227 KiB) of shared memory an sm90 thread block may use; "
     "use fewer stages or smaller tiles"),
    ({"A": A_BF16, "B": {**A_BF16, "tile": "256x64", "dtype": "e4m3", "swizzle": "64B"}},
     "kernel check 'mma_types': MMA type pair: sm90 wgmma.mma_async takes A and B from one type group (f16 x f16, "
     "bf16 x bf16, tf32 x tf32, e4m3/e5m2 mixes, s8/u8 mixes); A bf16 (group bf16) with B e4m3 (group e4m3/e5m2) is "
     "not one"),
    ({"A": A_BF16, "B": {**A_BF16, "tile": "256x128"}},
     "kernel check 'equal_k': A.tile K = 64 but B.tile K = 128; one MMA step reads the same K slice of A and B, so "
     "their tiles need the same K extent"),
])
def test_codegen_refuses_kernels_that_cannot_launch(tmp_path: Path, edit: dict, message: str) -> None:
    spec = write_spec(tmp_path, edit["A"], edit["B"])
    r = run("codegen", str(spec), "--header", str(tmp_path / "out.h"))
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert r.stderr == f"pycute-layouts codegen: error: {message}\n"
    assert r.stdout == "" and not (tmp_path / "out.h").exists()


def test_codegen_swizzle_auto_writes_its_reason(tmp_path: Path) -> None:
    spec = write_spec(tmp_path, {**A_BF16, "swizzle": "auto"}, {**A_BF16, "tile": "128x48", "major": "K",
                                                               "swizzle": "auto"})
    r = run("codegen", str(spec))
    assert r.returncode == 2  # A.K = 64, B.K = 48: refused, K differs
    spec = write_spec(tmp_path, {**A_BF16, "swizzle": "auto"}, {**A_BF16, "tile": "96x64", "major": "MN",
                                                               "swizzle": "auto"})
    r = run("codegen", str(spec))
    assert r.returncode == 0, r.stderr
    assert ("//   swizzle auto -> 128B: K-major contiguous extent 64 x 16-bit = 128 B: 128B is the widest span dividing "
            "it (CUTLASS ss_smem_selector, DeepGEMM get_swizzle_mode)") in r.stdout
    assert ("//   swizzle auto -> 64B: MN-major contiguous extent 96 x 16-bit = 192 B: 128B does not divide it; 64B is "
            "the widest span dividing it") in r.stdout
    assert '"swizzle": "64B"' in r.stdout.splitlines()[1]  # the spec comment records the chosen mode


# ------------------------------------------------------------------------------------------------
# one exit-code convention for every subcommand (docs/cli.md)
# ------------------------------------------------------------------------------------------------

TMA_OK = ["tma", "--dtype", "bf16", "--global-dim", "64,64", "--global-strides", "128", "--box-dim", "64,8"]

EXIT_CODES = [
    (["prove", "--mode", "32B", "--bits", "16", "--major", "K", "--arch", "sm90", "--no-exhaustive"], 0),
    (["prove", "--pairing", "128B", "K", "16", "sm90"], 0),
    (["prove", "--pairing", "64B", "K", "16", "sm90", "--wgmma-swizzle", "128B"], 1),
    (["prove", "--mode", "13B"], 2),
    (["show", "(2,2):(1,2)"], 0),
    (["show", "(2,"], 2),
    (["desc", "--major", "K", "--dtype", "bf16", "--swizzle", "auto", "--tile", "64x64"], 0),
    (["desc", "--major", "K", "--dtype", "bf17", "--swizzle", "128B", "--tile", "64x64"], 2),
    (["desc", "--major", "K", "--dtype", "e2m3", "--swizzle", "128B", "--tile", "64x64"], 2),
    (TMA_OK, 0),
    ([*TMA_OK[:6], "120", *TMA_OK[7:]], 1),
    ([*TMA_OK, "--swizzle", "256B"], 2),
    (["analyze", "banks", "(8,64):(64,1)", "--pattern", "ldmatrix.x4", "--element-bits", "16"], 0),
    (["analyze", "banks", "(8,64):(64,1)", "--pattern", "nope"], 2),
    (["shfl", "BFLY", "1", "0x1f"], 0),
    (["shfl", "SIDEWAYS", "1", "0x1f"], 2),
    (["hwcheck"], 2),
    (["codegen", "/nonexistent/spec.toml"], 2),
    ([], 2),
]


@pytest.mark.parametrize("argv,code", EXIT_CODES, ids=[" ".join(a[:2]) + f" -> {c}" for a, c in EXIT_CODES])
def test_exit_codes(capsys: pytest.CaptureFixture, argv: list, code: int) -> None:
    assert main(argv) == code
    out, err = capsys.readouterr()
    if code == 2 and argv:
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"pycute-layouts {argv[0]}: error: "), err
    else:
        assert err == ""
    if code == 1 and argv[0] == "tma":
        assert out.count("globalStrides must be a multiple of 16") == 1  # printed once


def test_codegen_ok_and_refused_in_process(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["codegen", str(write_spec(tmp_path, A_BF16, {**A_BF16, "tile": "256x64"})), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["smem_bytes"] == 16384 + 32768
    assert main(["codegen", str(write_spec(tmp_path, A_BF16, {**A_BF16, "dtype": "e4m3", "tile": "128x128"}))]) == 2


def test_version_and_python_m() -> None:
    r = run("--version")
    assert r.returncode == 0 and r.stdout.strip() == f"pycute-layouts {__version__}"
    r = run()
    assert r.returncode == 2 and "usage: pycute-layouts" in r.stdout
    r = run("prove", "--help")
    assert r.returncode == 0 and "--details" in r.stdout


@pytest.mark.parametrize("dtype,tma_type", [("e2m1", "16U4_ALIGN8B"), ("fp4", "16U4_ALIGN8B"),
                                            ("e2m1_p64", "16U4_ALIGN16B"), ("e2m3", "16U6_ALIGN16B"),
                                            ("e3m2", "16U6_ALIGN16B")])
def test_tma_takes_the_narrow_types(capsys: pytest.CaptureFixture, dtype: str, tma_type: str) -> None:
    argv = ["tma", "--dtype", dtype, "--global-dim", "128,64", "--global-strides", "128", "--box-dim", "128,8",
            "--swizzle", "128B"]
    assert main(argv) == 0
    assert f"tensorDataType {tma_type} " in capsys.readouterr().out
    sm90 = main([*argv, "--arch", "sm90"])
    out = capsys.readouterr().out
    if tma_type.endswith("ALIGN16B"):
        assert sm90 == 1 and "[arch.data_type_sm100]" in out  # the H100's driver rejects them


@pytest.mark.parametrize("dtype", ["e2m1", "e2m3", "e3m2"])
def test_sm90_refuses_the_narrow_types_with_a_rule(capsys: pytest.CaptureFixture, tmp_path: Path, dtype: str) -> None:
    tile = "128x256" if dtype == "e2m1" else "128x128"
    assert main(["desc", "--major", "K", "--dtype", dtype, "--swizzle", "128B", "--tile", tile]) == 2
    assert f"{dtype} operands exist only for tcgen05 (sm100), not sm90" in capsys.readouterr().err
    assert main(["desc", "--arch", "sm100", "--major", "K", "--dtype", dtype, "--swizzle", "128B", "--tile", tile]) == 0
    capsys.readouterr()
    op = {"tile": tile, "dtype": dtype, "major": "K", "swizzle": "128B"}
    assert main(["codegen", str(write_spec(tmp_path, op, op))]) == 2
    assert (f"kernel check 'mma_types': MMA type pair: sm90 wgmma.mma_async has no A operand of type '{dtype}' "
            "(types: f16, bf16, tf32, e4m3, e5m2, s8, u8; the 4- and 6-bit types need sm100 tcgen05)"
            ) in capsys.readouterr().err
    assert main(["codegen", str(write_spec(tmp_path, op, op, arch="sm100")), "--format", "json"]) == 0
