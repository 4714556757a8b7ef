"""Tests for pycute_layouts.render.tv (thread-value pictures) and ``pycute-layouts show --atom``."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from pycute_layouts import Layout, LayoutTypeError, LayoutValueError, UnitError
from pycute_layouts.arch import atoms
from pycute_layouts.cli import main
from pycute_layouts.render import PALETTE, to_tikz
from pycute_layouts.render.tv import atom_layout_for_picture, atom_picture, tv_picture, tv_svg

SVG = "{http://www.w3.org/2000/svg}"


def test_accumulator_64x256_every_cell_labelled_with_its_thread_and_register():
    name = "SM90_64x256x16_F32BF16BF16_SS"
    svg = tv_svg(name)
    root = ET.fromstring(svg)
    cells = root.findall(f".//{SVG}rect[@class='cell']")
    labels = [t.text for t in root.findall(f".//{SVG}text[@class='label']")]
    assert len(cells) == len(labels) == 64 * 256
    c = atoms.mma_atom(name).layout_c
    # row-by-row order: cell (m, n) is labelled with the (thread, value) that holds C(m, n)
    for m, n in ((0, 0), (9, 3), (63, 255), (17, 130)):
        [(t, v)] = atoms.owners(name, "C", (m, n))
        assert labels[m * 256 + n] == f"T{t}V{v}" and c(t, v) == m + 64 * n
        assert cells[m * 256 + n].get("fill") == PALETTE[t % 16]
    font = float(root.find(f".//{SVG}g[@class='labels']").get("font-size"))
    assert font >= 5


def test_broadcast_operand_names_first_holder():
    p = atom_picture("SM90_64x8x16_F16F16F16_SS", "A")
    assert p.labels[3][5] == f"T0V{3 + 64 * 5}" and "+127 more threads" in p.tooltips[3][5]


def test_copy_atom_pictures_in_elements():
    p = atom_picture("SM75_U16x8_LDSM_T")                  # register side, 16-bit elements, rows of the 4 matrices
    assert (p.nrows, p.ncols) == (32, 8)
    assert p.labels[1][0] == "T0V1" and p.labels[0][1] == "T4V0"      # .trans: thread 0 holds column 0, rows 0-1
    src = atom_picture("SM75_U16x8_LDSM_T", "src")
    assert src.labels[5][0] == "T5V0"
    tm = atom_picture("SM100_TMEM_LOAD_16dp256b1x")         # 16 lanes x 8 32-bit columns
    assert (tm.nrows, tm.ncols) == (16, 8) and tm.labels[3][2] == "T13V0" and tm.labels[11][2] == "T13V2"
    lay, shape, row_major, *_ = atom_layout_for_picture("SM100_TMEM_LOAD_32dp32b2x", "dst")
    assert str(lay) == "(32,2):(2,1)" and shape == (32, 2) and row_major


def test_tiled_picture_and_other_backends():
    t = atoms.make_tiled_mma("SM80_16x8x8_F16F16F16F16_TN", (2, 1, 1))
    p = atom_picture(t, "C", (32, 16))
    assert p.labels[16][0] == "T32V0" and p.labels[0][8] == "T0V4"
    tex = to_tikz(p)
    assert tex.count(r"\node[cell") == 32 * 16 and "T32V0" in tex


def test_cli_show_atom(tmp_path, capsys):
    out = tmp_path / "acc.svg"
    assert main(["show", "--atom", "SM90_64x64x16_F32BF16BF16_SS", "--svg", str(out), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rows"] == 64 and data["columns"] == 64 and ET.parse(out).getroot().tag == f"{SVG}svg"
    assert main(["show", "--atom", "SM90_U32x4_STSM_N", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["SrcLayout"] == "(32,(32,4)):(32,(1,1024))"
    assert main(["show", "--atom", "SM80_16x8x16_F16F16F16F16_TN", "--operand", "A", "--tile", "32x16",
                 "--tikz", str(tmp_path / "a.tex")]) == 0
    assert "32x16 cells" in capsys.readouterr().out
    assert main(["show"]) == 2 and "exactly one" in capsys.readouterr().err
    assert main(["show", "--atom", "SM90_64x12x16_F16F16F16_SS"]) == 2
    assert "unknown MMA atom" in capsys.readouterr().err


def test_bad_inputs():
    with pytest.raises(LayoutTypeError, match="tile_shape"):
        tv_picture(Layout((2, 2)), (2,))
    with pytest.raises(LayoutValueError, match="outside the 2x1 tile"):
        tv_picture(Layout((2, 2)), (2, 1))
    with pytest.raises(LayoutValueError, match="'src' or 'dst'"):
        atom_picture("SM75_U32x1_LDSM_N", "A")
    with pytest.raises(UnitError, match="whole 32-bit elements"):
        atom_picture("SM75_U16x8_LDSM_T", element_bits=32)
    with pytest.raises(UnitError, match="copy atoms"):
        atom_picture("SM80_16x8x8_F16F16F16F16_TN", element_bits=16)
    with pytest.raises(LayoutValueError, match="operand must be"):
        atom_picture(atoms.make_tiled_mma("SM80_16x8x8_F16F16F16F16_TN"), "Q")
