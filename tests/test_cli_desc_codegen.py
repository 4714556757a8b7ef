"""``pycute-layouts desc`` and ``pycute-layouts codegen`` run as subprocesses of the installed console script."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import cli_runner
import pytest

from pycute_layouts.codegen import describe_operand, emit_header, kernel_constants, load_spec

EXE = shutil.which("pycute-layouts")

SPEC_TOML = """\
kernel = "deepgemm_bf16"
arch = "sm90"
[A]
tile = "128x64"
dtype = "bf16"
major = "K"
swizzle = "128B"
stages = 4
mma_mn = 64
[B]
tile = "128x64"
dtype = "bf16"
major = "MN"
swizzle = "128B"
stages = 4
"""


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """pycute-layouts ARGS, answered in this process (tests/cli_runner.py)."""
    return cli_runner.run(*args, cwd=cwd)


def one_line_error(r: subprocess.CompletedProcess, words: str) -> None:
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr
    lines = [x for x in r.stderr.splitlines() if x.strip()]
    assert lines and "error" in lines[-1], r.stderr
    assert words.lower() in r.stderr.lower(), r.stderr


# ------------------------------------------------------------------------------------------------
# desc
# ------------------------------------------------------------------------------------------------


def test_desc_text() -> None:
    r = run("desc", "--major", "K", "--swizzle", "128B", "--dtype", "bf16", "--tile", "64x64", "--start", "0x400")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "LBO          : 16 B, encoded 1" in out
    assert "SBO          : 1024 B, encoded 64" in out
    assert "layout type  : 1 (128B swizzle; bits 62-63)" in out
    assert "base offset  : 0" in out
    assert "descriptor   : 0x4000004000010040" in out
    assert "canonical    : Sw<3,4,3> o smem_ptr[16b](unset) o ((8,8),(8,2)):((64,512),(1,8))" in out
    for k, (off, adv) in enumerate(((0, 0), (32, 2), (64, 4), (96, 6))):
        assert f"  {k:>2}  {off:>8}  {adv:>11}  0x400000400001004{2 * k}" in out
    assert "CU_TENSOR_MAP_SWIZZLE_128B (3)" in out and "boxDim {64, 64}" in out


def test_desc_json_matches_library() -> None:
    r = run("desc", "--major", "MN", "--swizzle", "128B", "--dtype", "bf16", "--tile", "128x64", "--operand", "B", "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    oc = describe_operand("sm90", "MN", "128B", "bf16", (128, 64))  # B: N = 128 in one sm90 wgmma
    assert data.pop("instruction_note").startswith("sm90 wgmma.mma_async reads B as N = 128 rows")
    assert data.pop("swizzle_reason") == ""
    assert len(data.pop("instructions")) == 4  # one MN block x 4 K steps
    assert data == json.loads(json.dumps(oc.to_dict()))
    assert (data["lbo_bytes"], data["sbo_bytes"], data["lbo_16B"], data["sbo_16B"]) == (8192, 1024, 512, 64)
    assert data["k_step_advance_16B"] == [0, 128, 256, 384]


def test_desc_sm100_and_order() -> None:
    r = run("desc", "--arch", "sm100", "--major", "MN", "--swizzle", "128B_base32B", "--dtype", "tf32",
            "--tile", "64x8", "--order", "mn_first", "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["desc_hex"] == "0x2000404000200000" and data["layout_type"] == 1
    assert data["tma"]["swizzle"] == "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B" and data["tma"]["swizzle_value"] == 4


def test_desc_layout_and_symbols() -> None:
    r = run("desc", "--layout", "Sw<2,3,3> o ((8,4,m),(8,2)):((1,8,256),(32,512))", "-D", "m=2", "--major", "MN",
            "--dtype", "bf16")
    assert r.returncode == 0, r.stderr
    assert "LBO          : 512 B, encoded 32" in r.stdout and "SBO          : 1024 B, encoded 64" in r.stdout
    assert "canonical    : Sw<2,4,3> o smem_ptr[16b](unset) o ((8,4,2),(8,2)):((1,8,256),(32,512))" in r.stdout


def test_desc_tile_anchor_base_offset() -> None:
    r = run("desc", "--major", "K", "--swizzle", "128B", "--dtype", "bf16", "--tile", "64x64", "--start", "0x480",
            "--anchor", "tile", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["base_offset"] == 1


@pytest.mark.parametrize("args,words", [
    (("--major", "K", "--swizzle", "128B", "--dtype", "bf17", "--tile", "64x64"), "unknown dtype"),
    (("--major", "K", "--swizzle", "96B", "--dtype", "bf16", "--tile", "64x64"), "96B"),
    (("--major", "K", "--swizzle", "128B", "--dtype", "bf16"), "--tile"),
    (("--major", "K", "--swizzle", "128B", "--dtype", "bf16", "--tile", "60x64"), "not a multiple"),
    (("--major", "MN", "--swizzle", "128B", "--dtype", "tf32", "--tile", "64x64"), "only .f16/.bf16"),
    (("--major", "K", "--swizzle", "128B", "--dtype", "bf16", "--tile", "64x64", "--start", "0x408"), "aligned to 128 bytes"),
    (("--major", "K", "--swizzle", "128B", "--dtype", "bf16", "--tile", "64x64", "--start", "zz"), "integer"),
    (("--major", "X", "--swizzle", "128B", "--dtype", "bf16", "--tile", "64x64"), "major"),
    (("--major", "K", "--swizzle", "128B", "--dtype", "bf16", "--tile", "64x64", "--arch", "sm80"), "arch"),
    (("--layout", "(64,64):(64,", "--major", "K", "--dtype", "bf16"), "expected"),
    (("--layout", "(64,64):(64,1)", "--tile", "64x64", "--major", "K", "--dtype", "bf16"), "--layout"),
    (("--layout", "Sw<3,4,3> o (64,16):(64,1)", "--major", "K", "--dtype", "bf16"), "smem_ptr[16b](unset)"),
    (("--major", "K", "--dtype", "bf16"), "required"),
])
def test_desc_bad_input(args: tuple, words: str) -> None:
    one_line_error(run("desc", *args), words)


def test_desc_help() -> None:
    r = run("desc", "--help")
    assert r.returncode == 0 and "--swizzle" in r.stdout and "--layout" in r.stdout and "--json" in r.stdout


# ------------------------------------------------------------------------------------------------
# codegen
# ------------------------------------------------------------------------------------------------


def test_codegen_writes_all_outputs(tmp_path: Path) -> None:
    spec = tmp_path / "gemm.toml"
    spec.write_text(SPEC_TOML)
    r = run("codegen", str(spec), "--header", "out.h", "--python", "out.py", "--json", "out.json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout == ""
    kc = kernel_constants(load_spec(spec))
    assert (tmp_path / "out.h").read_text() == emit_header(kc)
    data = json.loads((tmp_path / "out.json").read_text())
    assert data["operands"]["A"]["desc_hex"] == "0x4000004000010000"
    ns: dict = {}
    exec((tmp_path / "out.py").read_text(), ns)
    assert ns["B_LBO_BYTES"] == 8192 and ns["A_K_STEP_ADVANCE_16B"] == (0, 2, 4, 6)


def test_codegen_stdout_formats(tmp_path: Path) -> None:
    spec = tmp_path / "gemm.json"
    spec.write_text(json.dumps({"kernel": "g", "arch": "sm100", "A": {"tile": [128, 64], "dtype": "bf16",
                                                                      "major": "K", "swizzle": "128B"}}))
    r = run("codegen", str(spec))
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("// Generated by pycute_layouts") and "namespace g {" in r.stdout
    r = run("codegen", str(spec), "--format", "json")
    assert json.loads(r.stdout)["operands"]["A"]["desc_hex"] == "0x4000404000010000"
    r = run("codegen", str(spec), "--format", "python")
    assert "A_DESC = 0x4000404000010000" in r.stdout
    txt = tmp_path / "spec.txt"
    txt.write_text(spec.read_text())
    r = run("codegen", str(txt), "--spec-format", "json", "--format", "json")
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("edit,words", [
    (('dtype = "bf16"\nmajor = "K"', 'dtype = "bf17"\nmajor = "K"'), "A.dtype"),
    (('tile = "128x64"\ndtype = "bf16"\nmajor = "MN"', 'tile = "120x64"\ndtype = "bf16"\nmajor = "MN"'), "B.tile"),
    (('[B]\ntile = "128x64"\ndtype = "bf16"\nmajor = "MN"', '[B]\ntile = "128x64"\ndtype = "tf32"\nmajor = "MN"'),
     "kernel check 'mma_types'"),  # bf16 x tf32: no wgmma takes the pair (B's MN-major tf32 is refused too)
    (("stages = 4\nmma_mn = 64", "stages = 4\nmma_mn = 48"), "A.mma_mn"),
    (('kernel = "deepgemm_bf16"', 'kernel = "deep-gemm"'), "kernel"),
    (("[A]", "[A\n"), "invalid TOML"),
    (('arch = "sm90"', 'arch = "sm90"\nwarps = 4'), "'warps': unknown field"),
])
def test_codegen_bad_spec(tmp_path: Path, edit: tuple, words: str) -> None:
    text = SPEC_TOML.replace(*edit, 1)
    assert text != SPEC_TOML
    spec = tmp_path / "bad.toml"
    spec.write_text(text)
    r = run("codegen", str(spec), "--header", str(tmp_path / "out.h"))
    one_line_error(r, words)
    assert not (tmp_path / "out.h").exists()


def test_codegen_missing_file_and_help(tmp_path: Path) -> None:
    one_line_error(run("codegen", str(tmp_path / "nope.toml")), "cannot read")
    one_line_error(run("codegen", "x.toml", "--format", "yaml"), "invalid choice")
    r = run("codegen", "--help")
    assert r.returncode == 0 and "--header" in r.stdout and "--python" in r.stdout and "--json" in r.stdout


def test_codegen_unwritable_output(tmp_path: Path) -> None:
    spec = tmp_path / "gemm.toml"
    spec.write_text(SPEC_TOML)
    one_line_error(run("codegen", str(spec), "--header", str(tmp_path / "no" / "dir" / "out.h")), "cannot write")
