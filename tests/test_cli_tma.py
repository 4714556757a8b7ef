"""``pycute-layouts tma``, run as the installed console script (subprocesses), incl. bad input."""

from __future__ import annotations

import json
import shutil
import subprocess

import cli_runner
import pytest

from pycute_layouts.arch.tma import pattern_table

EXE = shutil.which("pycute-layouts")
MAP = ["--dtype", "bf16", "--global-dim", "4096,4096", "--global-strides", "8192", "--box-dim", "64,64"]
K128 = "Sw<3,3,3> o 0 o ((8,16),(64,2)):((64,512),(1,8192))"  # bf16: the swizzle on element offsets (CuTe)


def run(*args: str) -> subprocess.CompletedProcess:
    """pycute-layouts ARGS, answered in this process (tests/cli_runner.py)."""
    return cli_runner.run(*args)


def table_rows(stdout: str) -> list[list[int]]:
    rows = []
    for line in stdout.splitlines():
        if line.startswith(" 0x") and "|" in line:
            rows.append([-1 if c == "." else int(c) for c in line.split("|")[1].split()])
    return rows


def test_valid_map_summary_and_128b_table() -> None:
    r = run("tma", *MAP, "--swizzle", "128B", "--lines", "8")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert out.splitlines()[0] == "cuTensorMapEncodeTiled: valid (load)"
    assert "64 x 64 elements, 8192 bytes per copy" in out
    assert "swizzle 128B (CUtensorMapSwizzle 3): span 128 B, byte map Sw<3,4,3>, period 1024 B" in out
    assert table_rows(out) == pattern_table("128B")            # PTX 5.5.7's 128B table, row by row
    assert "... 56 more lines" in out


@pytest.mark.parametrize("mode,box", [("32B", "16,16"), ("64B", "32,16"), ("128B_ATOM_32B", "64,16"),
                                      ("128B_ATOM_64B", "64,16")])
def test_each_mode_table(mode: str, box: str) -> None:
    r = run("tma", "--dtype", "f16", "--global-dim", "64,64", "--global-strides", "128", "--box-dim", box,
            "--swizzle", mode, "--lines", "8")
    assert r.returncode == 0, r.stderr
    period_rows = len(pattern_table(mode))
    rows = table_rows(r.stdout)
    # rows shorter than 128 bytes pack 2 or 4 box rows per line: the source cells are still numbered per line
    assert rows[:period_rows] == pattern_table(mode)


def test_base_offset_from_dst() -> None:
    r = run("tma", *MAP, "--swizzle", "128B", "--dst", "0x180", "--lines", "2")
    assert r.returncode == 0, r.stderr
    assert "dst 0x180: swizzle base offset 3" in r.stdout
    assert table_rows(r.stdout) == [[3, 2, 1, 0, 7, 6, 5, 4], [4, 5, 6, 7, 0, 1, 2, 3]]
    assert " 0x0180 |" in r.stdout


def test_flip_8b_uses_8_byte_cells() -> None:
    r = run("tma", *MAP, "--swizzle", "128B_ATOM_32B_FLIP_8B", "--lines", "2")
    assert r.returncode == 0, r.stderr
    assert "8-byte cells" in r.stdout
    assert table_rows(r.stdout) == pattern_table("128B_ATOM_32B_FLIP_8B", cell_bytes=8)[:2]


def test_valid_json() -> None:
    r = run("tma", *MAP, "--swizzle", "64B", "--box-dim", "32,8", "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["valid"] is True and d["parameters"]["boxDim"] == [32, 8] and d["box_bytes"] == 512
    assert d["swizzle"] == {"mode": "64B", "value": 2, "span_bytes": 64, "atomicity_bytes": 16, "period_bytes": 512,
                            "byte_map": "Sw<2,4,3>", "base_offset": 0,
                            "cute_forms": "Sw<2,4,3> o smem_ptr[16b](unset) o L = Sw<2,3,3> o 0 o L on 16-bit elements"}
    assert d["cell_bytes"] == 16 and d["lines_total"] == 4
    assert d["placement"] == pattern_table("64B")


def test_every_violation_is_printed() -> None:
    r = run("tma", "--dtype", "bf16", "--global-dim", "4096,4096", "--global-strides", "8200", "--box-dim", "300,64",
            "--swizzle", "128B", "--element-strides", "1,9")
    assert r.returncode == 1  # an invalid map is a finding
    rules = [line.split("]")[0].strip(" [") for line in r.stdout.splitlines()[1:]]
    assert rules == ["global_strides.multiple16", "box_dim.range", "box_dim.inner_bytes_multiple16",
                     "element_strides.range", "swizzle.inner_box_span"]
    assert "globalStrides[0]=8200" in r.stdout and "boxDim[0]=300" in r.stdout and "elementStrides[1]=9" in r.stdout
    assert r.stderr == ""  # each violation printed once, on stdout
    assert r.stdout.count("globalStrides must be a multiple of 16") == 1


def test_violations_json() -> None:
    r = run("tma", "--dtype", "16U4_ALIGN16B", "--global-dim", "128,64", "--global-strides", "128", "--box-dim", "128,8",
            "--swizzle", "64B", "--direction", "store", "--json")
    assert r.returncode == 1
    d = json.loads(r.stdout)
    assert d["valid"] is False and d["direction"] == "store"
    assert [v["rule"] for v in d["violations"]] == ["swizzle.u4align16_allowed"]
    assert r.stderr == ""


def test_plan_text() -> None:
    r = run("tma", "--plan", K128, "--global", "(4096,4096):(4096,1)", "--dtype", "bf16")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "box         : {64, 128} (innermost first), swizzle 128B (CUtensorMapSwizzle 3), 2 copies of 16384 bytes" in out
    assert "globalDim={4096, 4096}, globalStrides={8192}, boxDim={64, 128}" in out
    assert "  1  (64, 0)" in out and "0x4000" in out
    assert "in CuTe     : 128B: Sw<3,4,3> o smem_ptr[16b](unset) o L = Sw<3,3,3> o 0 o L on 16-bit elements" in out


def test_plan_json() -> None:
    r = run("tma", "--plan", "Sw<1,3,3> o 0 o ((8,8),(16,4)):((16,128),(1,1024))", "--global",
            "(4096,4096):(4096,1)", "--dtype", "bf16", "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["box_dim"] == [16, 64] and d["swizzle"] == "32B" and d["num_copies"] == 4
    assert [c["smem_offset_bytes"] for c in d["copies"]] == [0, 2048, 4096, 6144]
    assert d["tensor_map"]["tensorDataType"] == "BFLOAT16"


def test_plan_split() -> None:
    r = run("tma", "--plan", "Sw<3,3,3> o 0 o (8,128):(128,1)", "--global", "(64,4096):(4096,1)", "--dtype", "bf16",
            "--split", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["num_copies"] == 16


def test_invalid_map_is_a_finding_exit_1() -> None:
    r = run("tma", "--dtype", "bf16", "--global-dim", "64,64", "--global-strides", "136", "--box-dim", "64,8")
    assert r.returncode == 1 and r.stderr == "", (r.stdout, r.stderr)
    assert "1 violated rule(s)" in r.stdout and "[global_strides.multiple16]" in r.stdout


@pytest.mark.parametrize("args,words", [
    (("tma", "--plan", K128, "--global", "(4096,4096):(1,4096)", "--dtype", "bf16"),
     "smem inner (contiguous) dimension must be the global stride-1 dimension"),
    (("tma", "--plan", "Sw<3,3,3> o 0 o (8,128):(128,1)", "--global", "(64,4096):(4096,1)", "--dtype", "bf16"),
     "violates 1 rule(s): [swizzle.inner_box_span]"),
    (("tma", "--plan", "Sw<3,3,3> o 0 o (8,64):(64,1)", "--global", "(64,64):(64,1)", "--dtype", "bf16",
      "--swizzle-unit", "bytes"), "not the byte map of any CUtensorMapSwizzle mode"),
    (("tma", "--plan", "Sw<3,4,3> o 0 o (8,64):(64,1)", "--global", "(64,64):(64,1)", "--dtype", "bf16"),
     "Sw<3,4,3> o smem_ptr[16b](unset) o L = Sw<3,3,3> o 0 o L on 16-bit elements"),
    (("tma", "--plan", "(8,64):(64,", "--global", "(64,64):(64,1)", "--dtype", "bf16"), "cannot parse the smem layout"),
    (("tma", "--plan", K128, "--dtype", "bf16"), "--plan needs --global"),
    (("tma", "--plan", K128, "--global", "(4096,4096):(4096,1)"), "--plan needs --dtype"),
    (("tma", "--plan", K128, "--global", "(4096,4096):(4096,1)", "--dtype", "bf16", "--box-dim", "64,64"),
     "drop --box-dim"),
    (("tma", "--global", "(64,64):(64,1)", *MAP), "--global is only used with --plan"),
    (("tma", "--dtype", "bf17", "--global-dim", "64", "--global-strides", "", "--box-dim", "64"), "cannot parse 'bf17'"),
    (("tma", "--dtype", "bf16", "--global-dim", "64,x", "--global-strides", "128", "--box-dim", "64,8"),
     "--global-dim: expected comma-separated integers"),
    (("tma", "--dtype", "bf16", "--box-dim", "64,8"), "missing --global-dim, --global-strides"),
    (("tma", *MAP, "--swizzle", "256B"), "SwizzleMode.parse: cannot parse '256B'"),
    (("tma", *MAP, "--swizzle", "128B_ATOM_64B", "--dst", "0x20"), "requires a shared-memory destination aligned to 128"),
    (("tma", *MAP, "--dst", "zz"), "--dst: expected an integer"),
    (("tma", *MAP, "--lines", "0"), "--lines must be >= 1"),
    (("tma", *MAP, "--direction", "sideways"), "--direction must be 'load' or 'store'"),
    (("tma", *MAP, "--lines"), "expected one argument"),
])
def test_bad_input_exit_2_one_line(args: tuple, words: str) -> None:
    r = run(*args)
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert "Traceback" not in r.stderr
    lines = [x for x in r.stderr.splitlines() if x.strip()]
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith("pycute-layouts tma: error: ")
    assert words in lines[0]


def test_help() -> None:
    r = run("tma", "--help")
    assert r.returncode == 0 and "usage" in r.stdout
    for opt in ("--global-dim", "--global-strides", "--box-dim", "--swizzle", "--element-strides", "--interleave",
                "--dst", "--plan", "--global", "--json"):
        assert opt in r.stdout
    r = run("--help")
    assert "tma" in r.stdout


def test_arch_sm90_applies_the_h100_rules() -> None:
    args = ["tma", "--dtype", "bf16", "--global-dim", "256,64", "--global-strides", "512", "--box-dim", "64,8",
            "--swizzle", "128B_ATOM_32B"]
    ok = run(*args)
    assert ok.returncode == 0, ok.stderr
    bad = run(*args, "--arch", "sm90")
    assert bad.returncode == 1 and "arch.swizzle_sm100" in bad.stdout
    assert bad.stderr == ""
