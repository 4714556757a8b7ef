"""``pycute-layouts show`` pictures, run as the installed console script (subprocesses)."""

from __future__ import annotations

import json
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import cli_runner
import pytest

EXE = shutil.which("pycute-layouts")
NS = "{http://www.w3.org/2000/svg}"
ATOM = "Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)"  # the 128B atom of 16-bit elements, as CuTe prints it


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """pycute-layouts ARGS, answered in this process (tests/cli_runner.py)."""
    return cli_runner.run(*args, cwd=cwd)


def test_svg_of_the_128b_atom_in_chunks(tmp_path: Path) -> None:
    out = tmp_path / "atom.svg"
    r = run("show", ATOM, "-e", "16", "--cell", "chunk16", "--label", "bank_group", "--svg", str(out))
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == f"wrote {out} (svg, 8x8 cells)"
    root = ET.parse(out).getroot()
    cells = root.findall(f".//{NS}rect[@class='cell']")
    labels = [int(t.text) for t in root.findall(f".//{NS}text[@class='label']")]
    assert len(cells) == 64 and len({c.get("fill") for c in cells}) == 8
    assert labels == [c ^ r for r in range(8) for c in range(8)]  # PTX 128B table


def test_tikz_standalone_and_svg_together_with_symbols(tmp_path: Path) -> None:
    r = run("show", "Sw<3,4,3> o 0 o ((8,m),(64,2)):((64,512),(1,8192))", "-D", "m=2", "-e", "16",
            "--cell", "chunk16", "--svg", "t.svg", "--tikz", "t.tex", "--standalone", "--title", "B tile", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["wrote t.svg (svg, 16x16 cells)", "wrote t.tex (tikz, 16x16 cells)"]
    tex = (tmp_path / "t.tex").read_text()
    assert tex.startswith(r"\documentclass") and tex.rstrip().endswith(r"\end{document}")
    assert tex.count(r"\node[cell") == 256 and "B tile" in tex
    assert ET.parse(tmp_path / "t.svg").getroot().find(f"{NS}title").text == "B tile"


def test_json_lists_what_was_written(tmp_path: Path) -> None:
    r = run("show", "(8,8):(8,1)", "--svg", str(tmp_path / "a.svg"), "--label", "coord", "--color", "none", "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["rows"] == 8 and data["columns"] == 8 and data["label"] == "coord" and data["color"] is None
    assert data["written"] == [{"format": "svg", "path": str(tmp_path / "a.svg")}]


def test_table_and_json_unchanged_without_pictures() -> None:
    r = run("show", "(2,3):(3,1)")
    assert r.returncode == 0 and "| 3 | 4 | 5 |" in r.stdout
    r = run("show", "(2,3):(3,1)", "--json")
    assert json.loads(r.stdout)["values"] == [0, 3, 1, 4, 2, 5]


def test_help_lists_picture_options() -> None:
    r = run("show", "--help")
    assert r.returncode == 0
    for opt in ("--svg", "--png", "--tikz", "--cell", "--label", "--color", "--element-bits", "--swizzle-unit"):
        assert opt in r.stdout


def test_png_writes_a_png_or_says_what_to_install(tmp_path: Path) -> None:
    """With matplotlib (in the console script's environment): a PNG; without: exit 2, one line, nothing written."""
    r = run("show", ATOM, "-e", "16", "--cell", "chunk16", "--png", str(tmp_path / "a.png"), "--svg",
            str(tmp_path / "a.svg"))
    if r.returncode == 0:
        assert (tmp_path / "a.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert (tmp_path / "a.svg").exists()
        return
    assert r.returncode == 2, r.stderr
    lines = [x for x in r.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and "pip install 'pycute-layouts[png]'" in lines[0] and "Traceback" not in r.stderr
    assert not (tmp_path / "a.png").exists() and not (tmp_path / "a.svg").exists()


def _table_values(stdout: str) -> list[list[int]]:
    rows = [line.split("|")[1:-1] for line in stdout.splitlines() if "|" in line]
    return [[int(v) for v in r] for r in rows]


@pytest.mark.parametrize("layout, extra, units, row1", [
    (ATOM, (), "element offsets (16-bit elements, swizzle on byte addresses)", [72, 73]),
    ("Sw<3,4,3> o 0 o (8,64):(64,1)", ("-e", "16"), "element offsets (16-bit elements, swizzle on element offsets)",
     [64, 65]),
    ("Sw<3,3,3> o 0 o (8,64):(64,1)", ("-e", "16"), "element offsets (16-bit elements, swizzle on element offsets)",
     [72, 73]),
    ("Sw<3,4,3> o 0 o (8,64):(64,1)", ("-e", "16", "--swizzle-unit", "bytes"),
     "element offsets (16-bit elements, swizzle on byte addresses (swizzle_unit='bytes'))", [72, 73]),
])
def test_table_and_picture_show_the_same_values_and_say_the_units(tmp_path: Path, layout: str, extra: tuple,
                                                                  units: str, row1: list) -> None:
    r = run("show", layout, *extra)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[1] == f"units: {units}"
    table = _table_values(r.stdout)
    assert table[1][:2] == row1
    out = tmp_path / "a.svg"
    r = run("show", layout, *extra, "--svg", str(out))
    assert r.returncode == 0, r.stderr
    root = ET.parse(out).getroot()
    labels = [int(t.text) for t in root.findall(f".//{NS}text[@class='label']")]
    assert labels == [v for row in table for v in row]
    assert f"values: {units}" in root.find(f"{NS}text[@class='subtitle']").text
    data = json.loads(run("show", layout, *extra, "--json").stdout)
    assert data["units"] == units and data["values"][1] == table[1][0]


@pytest.mark.parametrize("args, words", [
    (("show", "(2,2,2):(1,2,4)", "--svg", "x.svg"), "rank 3"),
    (("show", "(8,64):(64,1)", "--svg", "x.svg", "--cell", "chunk16"), "--element-bits"),
    (("show", "(8,64):(64,1)", "--svg", "x.svg", "--label", "address"), "element_bits"),
    (("show", "(512,2):(1,512)", "--svg", "x.svg"), "at most 256x256"),
    (("show", "(8,m):(m,1)", "--svg", "x.svg"), "unbound symbols"),
    (("show", "(8,8):(8,1)", "--svg", "x.svg", "--cell", "chunk"), "invalid choice"),
    (("show", "(8,8):(8,1)", "--svg", "x.svg", "-e", "0"), "positive integer"),
    (("show", "(8,8):(8,1)", "--svg", "x.svg", "-e", "sixteen"), "invalid int"),
    (("show", "(8,16):(2,16)", "--svg", "x.svg", "-e", "16", "--cell", "chunk16"), "consecutive"),
    (("show", "(8,8):(8,1)", "--svg", "no/such/dir/x.svg"), "cannot write"),
    (("show", "(8,8):(8,", "--svg", "x.svg"), "expected"),
])
def test_bad_input_exit_2_one_line(tmp_path: Path, args: tuple, words: str) -> None:
    r = run(*args, cwd=tmp_path)
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert "Traceback" not in r.stderr
    lines = [x for x in r.stderr.splitlines() if x.strip()]
    assert lines and "error" in lines[-1] and words.lower() in lines[-1].lower()
    assert not (tmp_path / "x.svg").exists()
