"""``pycute-layouts analyze``: the installed console script, run as a subprocess."""

from __future__ import annotations

import json
import shutil
import subprocess

import cli_runner
import pytest

EXE = shutil.which("pycute-layouts")


def run(*args: str) -> subprocess.CompletedProcess:
    """pycute-layouts ARGS, answered in this process (tests/cli_runner.py)."""
    return cli_runner.run(*args)


def test_banks_classic_128B() -> None:
    r = run("analyze", "banks", "(8,64):(64,1)", "--pattern", "ldmatrix.x4", "--element-bits", "16")
    assert r.returncode == 0, r.stderr
    assert "32 wavefront(s) (ideal 4): 8-way bank conflict" in r.stdout
    # CuTe's meaning: Sw<3,3,3> o 0 o L on 16-bit elements swizzles element offsets: the 128B atom
    r = run("analyze", "banks", "Sw<3,3,3> o 0 o (8,64):(64,1)", "--pattern", "ldmatrix.x4", "--element-bits", "16",
            "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert (data["wavefronts"], data["conflict_free"], data["per_bank"]) == (4, True, [1] * 32)
    # PTX's byte reading of the plain string only through --swizzle-unit bytes
    r = run("analyze", "banks", "Sw<3,4,3> o 0 o (8,64):(64,1)", "--pattern", "ldmatrix.x4", "--element-bits", "16",
            "--swizzle-unit", "bytes", "--json")
    assert json.loads(r.stdout)["wavefronts"] == 4


def test_banks_byte_layout_threads_and_origins() -> None:
    r = run("analyze", "banks", "(8,128):(128,1)", "--pattern", "ldmatrix.x2", "--json")   # bytes: 16-byte columns
    assert json.loads(r.stdout)["wavefronts"] == 16
    r = run("analyze", "banks", "32:8", "--threads", "32:1", "--access", "4", "--json")
    data = json.loads(r.stdout)
    assert (data["wavefronts"], data["conflict_degree"]) == (2, 2)
    r = run("analyze", "banks", "Sw<3,3,3> o 0 o (16,64):(64,1)", "--pattern", "ldmatrix.x4", "--element-bits", "16",
            "--matrix-origins", "0,0;8,0;0,8;8,8", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["wavefronts"] == 4


def test_linear_explain_search() -> None:
    r = run("analyze", "linear", "Sw<3,3,3> o 0 o (8,64):(64,1)", "--element-bits", "16", "--json")
    data = json.loads(r.stdout)
    assert data["bases"]["mode0"] == [144, 288, 576] and data["cute"] == "Sw<3,4,3> o 0 o (8,64):(128,2)"
    r = run("analyze", "linear", "(8,4):(4,1)")
    assert r.returncode == 0 and "mode0: 1 -> 4, 2 -> 8, 4 -> 16" in r.stdout
    r = run("analyze", "explain", "Sw<3,3,3> o 0 o ((8,m),(64,2)):((64,512),(1,1024))", "-D", "m=2",
            "--element-bits", "16")
    assert r.returncode == 0, r.stderr
    assert "canonical wgmma layout: K-major 128B" in r.stdout and "SBO = 1024 B" in r.stdout
    r = run("analyze", "explain", "(4,8):(8,1)", "--json")
    assert json.loads(r.stdout)["contiguous_along"] == [1, 8]
    r = run("analyze", "search", "(8,32):(32,1)", "--pattern", "ldmatrix.x4", "--element-bits", "16", "--json")
    cands = json.loads(r.stdout)["candidates"]
    assert cands[0]["swizzle"] == "Sw<2,4,3>" and cands[0]["tma_modes"] == ["64B"]
    assert cands[0]["element_swizzle"] == "Sw<2,3,3>"   # both forms: pointer (bytes) and element offsets
    r = run("analyze", "search", "(8,64):(64,1)", "--pattern", "ldmatrix.x4")
    assert r.returncode == 0 and "TMA 128B" in r.stdout
    assert "Sw<3,4,3> o smem_ptr[16b](unset) o TILE" in r.stdout and "= Sw<3,3,3> o 0 o TILE" in r.stdout


@pytest.mark.parametrize("args,words", [
    (("analyze", "banks", "32:4", "--threads", "31:1", "--access", "4"), "31 threads"),
    (("analyze", "banks", "32:4", "--threads", "32:1", "--access", "3"), "--access must be"),
    (("analyze", "banks", "32:2", "--threads", "32:1", "--access", "4"), "not a multiple of 4"),
    (("analyze", "banks", "32:4", "--threads", "32:1"), "--access"),
    (("analyze", "banks", "32:4"), "exactly one"),
    (("analyze", "banks", "(8,64):(64,1)", "--pattern", "ldmatrix.x3"), "unknown pattern"),
    (("analyze", "banks", "(8,64):(64,1)", "--pattern", "ldmatrix.x4", "--access", "8"), "contradicts"),
    (("analyze", "banks", "(8,64):(64,1)", "--pattern", "ldmatrix.x1", "--matrix-origins", "0;0"), "row,col"),
    (("analyze", "banks", "(8,64):(64,", "--pattern", "ldmatrix.x1"), "expected"),
    (("analyze", "linear", "(4,2):(1,3)"), "not F2-linear"),
    (("analyze", "linear", "(6,2):(1,6)"), "power of two"),
    (("analyze", "explain", "(8,m):(m,1)"), "unbound"),
    (("analyze", "search", "Sw<1,4,3> o 0 o (8,16):(16,1)", "--pattern", "ldmatrix.x1"), "plain element layout"),
    (("analyze", "banks", "32:4", "--threads", "32:1", "--access", "x"), "invalid int"),
])
def test_bad_input_exit_2_one_line(args: tuple, words: str) -> None:
    r = run(*args)
    assert r.returncode == 2, r.stdout
    assert "Traceback" not in r.stderr
    lines = [x for x in r.stderr.splitlines() if x.strip()]
    assert lines and words.lower() in r.stderr.lower()
    assert "error" in lines[-1]


def test_help() -> None:
    for sub in (("analyze",), ("analyze", "banks"), ("analyze", "linear"), ("analyze", "explain"),
                ("analyze", "search")):
        r = run(*sub, "--help")
        assert r.returncode == 0 and "usage" in r.stdout
    r = run("analyze")
    assert r.returncode == 2 and "banks" in r.stdout


def test_banks_of_the_smem_ptr_form_say_its_units() -> None:
    """CuTe's GMMA atom in its printed form needs no --element-bits: the header names the width it carries."""
    ptr = run("analyze", "banks", "Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)", "--pattern", "ldmatrix.x4")
    assert ptr.returncode == 0, ptr.stderr
    assert "(16-bit elements, swizzle on byte addresses; in CuTe: " in ptr.stdout.splitlines()[0]
    assert ptr.stdout.splitlines()[0].endswith("= Sw<3,3,3> o 0 o (8,64):(64,1))")
    assert "conflict-free" in ptr.stdout
    js = run("analyze", "banks", "Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)", "--pattern", "ldmatrix.x4",
             "--json")
    assert json.loads(js.stdout)["wavefronts"] == 4 and json.loads(js.stdout)["element_bits"] == 16
