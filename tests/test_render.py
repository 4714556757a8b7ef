"""Pictures (pycute_layouts.render): SVG parsed with xml.etree, TikZ text, PNG where the tools exist.

Expected values are PTX ISA 5.5.7's swizzle pattern tables (restated below exactly as the
reference prints them: 16-byte chunks, one row per 128-byte shared-memory line) and the layouts'
own functions. Regenerate the committed pictures in docs/img with
``PYCUTE_LAYOUTS_REGENERATE_IMAGES=1 python -m pytest -q tests/test_render.py -k doc_images``.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pycute_layouts import (
    ComposedLayout,
    Layout,
    LayoutError,
    LayoutTypeError,
    LayoutValueError,
    Swizzle,
    SwizzledSmemLayout,
    UnitError,
    blocked_product,
    parse,
    raked_product,
    render,
    zipped_divide,
)
from pycute_layouts.arch.tma import box_to_smem, pattern_table
from pycute_layouts.arch.wgmma import smem_atom
from pycute_layouts.render import layout_grid, picture, to_png, to_svg, to_tikz
from pycute_layouts.strategies import layouts

NS = "{http://www.w3.org/2000/svg}"
ROOT = Path(__file__).resolve().parents[1]
IMG = ROOT / "docs" / "img"

# PTX ISA 5.5.7, "the pattern of the destination data layout" (each number a 16-byte chunk)
PTX_128B = [
    [0, 1, 2, 3, 4, 5, 6, 7],
    [1, 0, 3, 2, 5, 4, 7, 6],
    [2, 3, 0, 1, 6, 7, 4, 5],
    [3, 2, 1, 0, 7, 6, 5, 4],
    [4, 5, 6, 7, 0, 1, 2, 3],
    [5, 4, 7, 6, 1, 0, 3, 2],
    [6, 7, 4, 5, 2, 3, 0, 1],
    [7, 6, 5, 4, 3, 2, 1, 0],
]
PTX_64B = PTX_128B[:4]
PTX_32B = [[0, 1, 2, 3, 4, 5, 6, 7], [1, 0, 3, 2, 5, 4, 7, 6]]


# ------------------------------------------------------------------------------------------
# helpers


def svg_cells(svg: str) -> tuple[ET.Element, list[ET.Element], list[str]]:
    root = ET.fromstring(svg)  # raises on malformed XML
    assert root.tag == f"{NS}svg"
    cells = root.findall(f".//{NS}rect[@class='cell']")
    labels = [t.text for t in root.findall(f".//{NS}text[@class='label']")]
    return root, cells, labels


def grid_of(cells: list[ET.Element], values: list, ncols: int) -> list[list]:
    return [values[i:i + ncols] for i in range(0, len(cells), ncols)]


def check_geometry(root: ET.Element, cells: list[ET.Element]) -> None:
    w, h = int(root.get("width")), int(root.get("height"))
    assert root.get("viewBox") == f"0 0 {w} {h}"
    for c in cells:
        x, y = float(c.get("x")), float(c.get("y"))
        assert 0 <= x and x + float(c.get("width")) <= w and 0 <= y and y + float(c.get("height")) <= h


# ------------------------------------------------------------------------------------------
# the PTX swizzle tables, drawn


@pytest.mark.parametrize("text, rows, cols, table, phases", [
    ("Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)", 8, 8, PTX_128B, 8),
    ("Sw<2,4,3> o smem_ptr[16b](unset) o (8,32):(32,1)", 8, 4, PTX_64B, 4),
    ("Sw<1,4,3> o smem_ptr[16b](unset) o (8,16):(16,1)", 8, 2, PTX_32B, 2),
])
def test_k_major_atoms_in_chunks_are_the_ptx_tables(text: str, rows: int, cols: int, table: list, phases: int) -> None:
    svg = to_svg(parse(text), cell="chunk16", label="bank_group", element_bits=16)
    root, cells, labels = svg_cells(svg)
    assert len(cells) == rows * cols and len(labels) == rows * cols
    check_geometry(root, cells)
    # 8 // cols rows of the picture make one 128-byte line; the line pattern repeats with the table's period
    lines = [[int(v) for v in labels[i:i + 8]] for i in range(0, len(labels), 8)]
    assert lines == [table[i % len(table)] for i in range(len(lines))]
    fills = [c.get("fill") for c in cells]
    assert len(set(fills)) == phases
    # each picture row lies in one line: one phase per row, and rows of one line share it
    by_row = grid_of(cells, fills, cols)
    assert all(len(set(r)) == 1 for r in by_row)
    per_line = 8 // cols
    for i in range(0, rows, per_line):  # the rows of one 128-byte line share its phase
        assert len({by_row[j][0] for j in range(i, i + per_line)}) == 1


def test_128b_atom_row_r_chunk_c_is_c_xor_r() -> None:
    p = picture(parse("Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)"), cell="chunk16", label="bank_group", element_bits=16)
    assert (p.nrows, p.ncols, p.row_step, p.col_step) == (8, 8, 1, 8)
    assert [[int(v) for v in row] for row in p.labels] == [[c ^ r for c in range(8)] for r in range(8)]
    assert [[int(v) for v in row] for row in p.labels] == pattern_table("128B")


def test_planted_fault_wrong_swizzle_is_not_the_table() -> None:
    """The table check discriminates: a shift of 4 instead of 3 gives other labels."""
    p = picture(parse("Sw<3,4,4> o smem_ptr[16b](unset) o (8,64):(64,1)"), cell="chunk16", label="bank_group", element_bits=16)
    assert [[int(v) for v in row] for row in p.labels] != PTX_128B


def test_mn_major_atom_chunks_run_down_the_rows() -> None:
    atom = smem_atom("MN", "128B", 16)  # (64,8):(1,64), Sw<3,4,3> on bytes
    p = picture(atom, cell="chunk16", label="bank_group")
    assert (p.nrows, p.ncols, p.row_step, p.col_step) == (8, 8, 8, 1)
    assert [[int(v) for v in row] for row in p.labels] == [[i ^ k for k in range(8)] for i in range(8)]
    svg = to_svg(atom, cell="chunk16", label="bank_group")
    root, cells, labels = svg_cells(svg)
    fills = grid_of(cells, [c.get("fill") for c in cells], 8)
    assert all(len({row[k] for row in fills}) == 1 for k in range(8))  # phase = the K column
    assert len({c.get("fill") for c in cells}) == 8
    ticks = [t.text for t in root.findall(f".//{NS}text[@class='tick']")]
    assert ticks[:8] == [str(k) for k in range(8)] and ticks[8:] == [str(8 * i) for i in range(8)]


def test_tma_placement_equals_the_wgmma_atom_picture() -> None:
    placed = box_to_smem("128B", 2, (64, 8))
    p_tma = picture(placed, cell="chunk16", label="bank_group")
    p_atom = picture(smem_atom("K", "128B", 16), cell="chunk16", label="bank_group")
    assert p_tma.labels == p_atom.labels
    assert [[int(v) for v in row] for row in p_tma.labels] == PTX_128B
    assert p_tma.colors == p_atom.colors
    root, cells, _ = svg_cells(to_svg(placed, cell="chunk16", label="address"))
    assert len(cells) == 64


def test_tma_32b_atom_flip_splits_16b_chunks_loudly() -> None:
    placed = box_to_smem("128B_ATOM_32B_FLIP_8B", 4, (32, 8))
    with pytest.raises(LayoutValueError, match="consecutive"):
        picture(placed, cell="chunk16")
    with pytest.raises(UnitError, match="not consecutive"):
        picture(placed, element_bits=128)
    p = picture(placed, element_bits=64, label="address")  # 8-byte elements stay whole
    assert p.ncols == 16 and p.nrows == 8


# ------------------------------------------------------------------------------------------
# labels and colors in element mode, every input kind


def test_element_labels_are_the_layout_values() -> None:
    L = parse("((2,4),(3,2)):((1,6),(2,24))")
    p = picture(L)
    assert [[int(v) for v in r] for r in p.labels] == layout_grid(L).tolist()
    _, cells, labels = svg_cells(to_svg(L))
    assert len(cells) == 48 and [int(v) for v in labels] == layout_grid(L).ravel().tolist()
    fills = {c.get("fill") for c in cells}
    assert len(fills) == len({v % 8 for v in layout_grid(L).ravel().tolist()})  # plain layout: value mod 8


def test_coord_labels_and_rank1() -> None:
    p = picture(Layout((2, 3), (3, 1)), label="coord")
    assert p.labels == (("0,0", "0,1", "0,2"), ("1,0", "1,1", "1,2"))
    p1 = picture(Layout(4, 2), label="coord")
    assert p1.labels == (("0", "1", "2", "3"),) and p1.row_caption == ""
    _, cells, labels = svg_cells(to_svg(Layout(4, 2)))
    assert labels == ["0", "2", "4", "6"]


def test_addresses_agree_with_swizzled_smem_layout() -> None:
    atom = smem_atom("K", "128B", 16)
    expect = [[int(atom.byte_address(r, c)) for c in range(64)] for r in range(8)]
    via_smem = picture(atom, label="address")
    via_ptr = picture(parse("Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)"), label="address")
    via_elements = picture(parse("Sw<3,3,3> o 0 o (8,64):(64,1)"), label="address", element_bits=16)
    via_bytes = picture(parse("Sw<3,4,3> o 0 o (8,64):(64,1)"), label="address", element_bits=16,
                        swizzle_unit="bytes")  # the explicit override: this swizzle on byte addresses
    for p in (via_smem, via_ptr, via_elements, via_bytes):
        assert [[int(v) for v in r] for r in p.labels] == expect
    assert via_smem.colors == via_ptr.colors == via_elements.colors == via_bytes.colors
    assert via_elements.chunk_cells == (1, 8)


def test_values_are_the_evaluation_in_both_forms() -> None:
    """A picture's value labels are the object's own values: S(c) for the pointer form, C(c) for Sw o 0 o L."""
    S = parse("Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)")
    C = parse("Sw<3,4,3> o 0 o (8,64):(64,1)")
    for obj in (S, C):
        p = picture(obj, element_bits=16)
        assert [[int(v) for v in r] for r in p.labels] == [[obj(r, c) for c in range(64)] for r in range(8)]
    assert S(1, 0) == 72 and C(1, 0) == 64
    assert "swizzle on byte addresses" in picture(S).subtitle
    assert "swizzle on element offsets" in picture(C, element_bits=16).subtitle


def test_composed_without_element_bits_is_cute_semantics() -> None:
    C = parse("Sw<3,4,3> o 0 o (8,64):(64,1)")
    p = picture(C)
    assert [[int(v) for v in r] for r in p.labels] == [[C(r, c) for c in range(64)] for r in range(8)]
    with pytest.raises(UnitError, match="element_bits"):
        picture(C, label="address")


def test_offset_and_base_address_move_the_pattern() -> None:
    # the pattern is anchored at absolute addresses: starting at line 3 of the 1024-byte period
    S = SwizzledSmemLayout(Swizzle(3, 4, 3), Layout((8, 64), (64, 1)), 16, base_address=384)
    p = picture(S, cell="chunk16", label="bank_group")
    assert [[int(v) for v in r] for r in p.labels] == [PTX_128B[(r + 3) % 8] for r in range(8)]
    C = ComposedLayout(Swizzle(3, 3, 3), 192, Layout((8, 64), (64, 1)))  # 192 elements = 384 bytes
    assert picture(C, cell="chunk16", label="bank_group", element_bits=16).labels == p.labels


def test_color_options() -> None:
    C = parse("Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)")
    bank = picture(C, color="bank_group", element_bits=16, cell="chunk16")
    assert [list(r) for r in bank.colors] == PTX_128B
    none = picture(C, color=None)
    assert {k for r in none.colors for k in r} == {-1}
    _, cells, _ = svg_cells(to_svg(C, color=None))
    assert {c.get("fill") for c in cells} == {"#ffffff"}
    assert picture(Layout((8, 8), (8, 1))).color_kind == "value"
    assert picture(parse("Sw<0,4,3> o 0 o (8,8):(8,1)")).color_kind == "value"  # identity swizzle: one phase
    assert picture(C).color_kind == "phase"
    assert len(render.PALETTE) == 16 and len(set(render.PALETTE[:8])) == 8


def test_legend_names_every_phase() -> None:
    root, _, _ = svg_cells(to_svg(parse("Sw<2,4,3> o smem_ptr[16b](unset) o (8,32):(32,1)"), element_bits=16))
    legend = [t.text for t in root.findall(f".//{NS}g[@class='legend']/{NS}text")]
    assert legend == ["phase 0: XOR 0x0", "phase 1: XOR 0x10", "phase 2: XOR 0x20", "phase 3: XOR 0x30"]


def test_title_escaped_and_custom() -> None:
    root, _, _ = svg_cells(to_svg(parse("Sw<3,4,3> o 0 o (8,8):(8,1)")))
    assert root.find(f"{NS}text[@class='title']").text == "Sw<3,4,3> o 0 o (8,8):(8,1)"
    root, _, _ = svg_cells(to_svg(Layout(4), title="a & <b>"))
    assert root.find(f"{NS}title").text == "a & <b>"


def test_tooltips() -> None:
    root, cells, _ = svg_cells(to_svg(parse("Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)"), element_bits=16))
    tip = cells[64 + 8].find(f"{NS}title").text  # row 1, column 8
    assert tip == "(1,8) offset 64, byte 128, bank group 0, XOR 0x10"


@given(layouts(max_rank=2, max_size=64, negative=True))
def test_property_any_small_layout_draws_its_values(L: Layout) -> None:
    grid = layout_grid(L)
    p = picture(L)
    assert (p.nrows, p.ncols) == grid.shape
    assert [[int(v) for v in r] for r in p.labels] == grid.tolist()
    _, cells, labels = svg_cells(to_svg(L))
    assert len(cells) == grid.size and [int(v) for v in labels] == grid.ravel().tolist()


@given(st.sampled_from([1, 2, 3]), st.sampled_from([8, 16, 32, 64, 128]), st.integers(1, 4))
def test_property_k_major_chunks_follow_the_table(b: int, bits: int, m: int) -> None:
    """Sw<b,4,3> K-major atoms of any element width: chunk (r, c) lands in bank group of c ^ (line % 2^b)."""
    w = 1 << b  # 16-byte chunks per row
    t = 128 // bits
    L = Layout((8 * m, w * t), (w * t, 1))
    p = picture(SwizzledSmemLayout(Swizzle(b, 4, 3), L, bits), cell="chunk16", label="bank_group")
    for r in range(8 * m):
        line, pos = divmod(r * w, 8)
        assert [int(v) for v in p.labels[r]] == [(pos + c) ^ (line % (1 << b)) for c in range(w)]


# ------------------------------------------------------------------------------------------
# size: 128x128 readable, 256 the limit


def test_128x128_renders_with_sparse_labels() -> None:
    L = parse("Sw<3,4,3> o smem_ptr[16b](unset) o ((8,16),(64,2)):((64,512),(1,8192))")
    svg = to_svg(L, element_bits=16)
    root, cells, labels = svg_cells(svg)
    assert len(cells) == 128 * 128
    assert 0 < len(labels) < 128 * 128  # labels thinned, not dropped
    assert int(root.get("width")) < 2000 and int(root.get("height")) < 2000
    check_geometry(root, cells)
    sizes = {float(g.get("font-size")) for g in root.findall(f".//{NS}g[@class='labels']")}
    assert min(sizes) >= 5
    chunked = svg_cells(to_svg(L, element_bits=16, cell="chunk16"))[1]
    assert len(chunked) == 128 * 16


def test_256_is_the_limit() -> None:
    assert picture(Layout(256)).ncols == 256
    assert len(svg_cells(to_svg(Layout((256, 256), (256, 1)), label=None))[1]) == 256 * 256
    assert to_tikz(Layout((256, 256), (256, 1)), label=None).count(r"\node[cell") == 256 * 256
    with pytest.raises(LayoutValueError, match="257x1 cells; at most 256x256"):
        picture(Layout((257, 1)))
    with pytest.raises(LayoutValueError, match="chunk16"):
        picture(Layout((8, 512), (512, 1)))
    assert picture(Layout((8, 512), (512, 1)), cell="chunk16", element_bits=16).ncols == 64
    with pytest.raises(LayoutValueError, match="elements; at most"):
        picture(Layout((4096, 4096)))


# ------------------------------------------------------------------------------------------
# bad input


@pytest.mark.parametrize("obj, kw, exc, words", [
    (Layout((2, 2, 2)), {}, LayoutValueError, "rank 3"),
    (parse("(8,m):(m,1)"), {}, LayoutValueError, "unbound symbols"),
    (Layout(4), {"cell": "chunk"}, LayoutValueError, "cell must be one of"),
    (Layout(4), {"label": "values"}, LayoutValueError, "label must be one of"),
    (Layout(4), {"color": "rainbow"}, LayoutValueError, "color must be one of"),
    (Layout(4), {"swizzle_unit": "bits"}, LayoutValueError, "swizzle_unit"),
    (Layout(4), {"element_bits": 0}, UnitError, "positive integer"),
    (Layout(4), {"element_bits": True}, UnitError, "positive integer"),
    (Layout(4), {"element_bits": "16"}, UnitError, "positive integer"),
    (Layout(4), {"title": 3}, LayoutTypeError, "title"),
    (Layout((8, 8), (8, 1)), {"cell": "chunk16"}, UnitError, "element_bits"),
    (Layout((8, 8), (8, 1)), {"label": "address"}, UnitError, "element_bits"),
    (Layout((8, 8), (8, 1)), {"color": "bank_group"}, UnitError, "element_bits"),
    (Layout((2, 8), (8, 1)), {"cell": "chunk16", "element_bits": 256}, UnitError, "dividing 128"),
    (Layout((8, 16), (2, 16)), {"cell": "chunk16", "element_bits": 16}, LayoutValueError, "consecutive"),
    (Layout((8, 12), (12, 1)), {"cell": "chunk16", "element_bits": 16}, LayoutValueError, "consecutive"),
    (Layout((8, 64), (64, 1)), {"label": "address", "element_bits": 4}, UnitError, "start on a byte"),
    (parse("Sw<3,0,3> o 0 o (8,64):(64,1)"), {"element_bits": 16, "swizzle_unit": "bytes"}, UnitError,
     "splits 16-bit elements"),
    (parse("Sw<3,4,3> o 0 o (8,64):(64,1)"), {"swizzle_unit": "byte"}, LayoutValueError, "swizzle_unit must be"),
    (smem_atom("K", "128B", 16), {"element_bits": 8}, UnitError, "16-bit elements"),
    ("(8,8):(8,1)", {}, LayoutTypeError, "expected a Layout"),
    (np.zeros((2, 2, 2), dtype=np.int64), {}, LayoutValueError, "2-D"),
    (np.zeros((2, 2)), {}, LayoutTypeError, "integer"),
    (np.arange(8).reshape(1, 8), {"element_bits": 12}, UnitError, "multiple of 8"),
    (np.arange(6).reshape(1, 6), {"element_bits": 32}, UnitError, "whole number"),
])
def test_bad_input(obj, kw: dict, exc: type, words: str) -> None:
    for fn in (picture, to_svg, to_tikz):
        with pytest.raises(exc, match=words):
            fn(obj, **kw)


def test_sub_byte_elements_draw_in_chunks() -> None:
    p = picture(Layout((8, 256), (256, 1)), cell="chunk16", element_bits=4, label="address")
    assert p.ncols == 8 and p.labels[1][:2] == ("128", "144")
    S = SwizzledSmemLayout(Swizzle(3, 4, 3), Layout((8, 256), (256, 1)), 4)
    assert picture(S).labels[1][:2] == ("288", "289") == (str(S(1, 0)), str(S(1, 1)))  # element offsets
    with pytest.raises(UnitError, match="do not all start on a byte"):
        picture(S, label="address")


def test_errors_are_layout_errors() -> None:
    assert issubclass(render.MissingDependencyError, LayoutError)
    with pytest.raises(LayoutError):
        to_tikz(Layout(4), standalone="yes")
    with pytest.raises(LayoutValueError, match="dpi"):
        to_png(Layout(4), "x.png", dpi=0)
    with pytest.raises(LayoutTypeError, match="path"):
        to_png(Layout(4), 42)


# ------------------------------------------------------------------------------------------
# TikZ


def test_tikz_nodes_and_labels() -> None:
    tex = to_tikz(parse("Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)"), cell="chunk16", label="bank_group", element_bits=16)
    cells = re.findall(r"\\node\[cell, fill=(pc\d+|white)\] at \(([\d.]+), ([\d.]+)\) \{([^}]*)\};", tex)
    assert len(cells) == 64
    got = [[None] * 8 for _ in range(8)]
    for _, x, y, text in cells:
        got[int(float(y) - 0.5)][int(float(x) - 0.5)] = int(text)
    assert got == PTX_128B
    assert len({f for f, *_ in cells}) == 8
    for k in range(8):
        assert rf"\definecolor{{pc{k}}}{{HTML}}{{{render.PALETTE[k][1:].upper()}}}" in tex
    assert tex.count("{") == tex.count("}")
    assert r"Sw\textless{}3,4,3\textgreater{}" in tex and "<" not in tex


def test_tikz_standalone_document_and_sparse_labels() -> None:
    tex = to_tikz(Layout((128, 128), (128, 1)), standalone=True)
    lines = tex.splitlines()
    assert lines[0] == r"\documentclass[tikz,border=4pt]{standalone}" and lines[-1] == r"\end{document}"
    assert tex.count(r"\node[cell") == 128 * 128
    assert 0 < tex.count(r"\node[lbl]") < 128 * 128
    assert tex.count(r"\begin{tikzpicture}") == tex.count(r"\end{tikzpicture}") == 1


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex is not installed: TikZ output not compiled")
def test_tikz_compiles(tmp_path: Path) -> None:  # pragma: no cover - needs TeX
    atom = parse("Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)")
    (tmp_path / "a.tex").write_text(to_tikz(atom, cell="chunk16", standalone=True))
    r = subprocess.run(["pdflatex", "-interaction=nonstopmode", "a.tex"], cwd=tmp_path, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stdout[-2000:]


# ------------------------------------------------------------------------------------------
# PNG


def _have(module: str) -> bool:
    try:
        __import__(module)
    except Exception:  # noqa: BLE001 - an unusable install counts as absent
        return False
    return True


@pytest.mark.skipif(_have("matplotlib"), reason="matplotlib is installed: the missing-dependency error cannot occur")
def test_png_without_matplotlib_says_what_to_install(tmp_path: Path) -> None:
    with pytest.raises(render.MissingDependencyError, match=r"pip install 'pycute-layouts\[png\]'"):
        to_png(Layout(4), tmp_path / "x.png")
    assert not (tmp_path / "x.png").exists()


@pytest.mark.skipif(not _have("matplotlib"), reason="matplotlib is not installed (pip install 'pycute-layouts[png]')")
def test_png_with_matplotlib(tmp_path: Path) -> None:  # pragma: no cover - optional dependency
    out = to_png(parse("Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)"), tmp_path / "a.png", cell="chunk16", element_bits=16,
                 label="bank_group", dpi=72)
    data = Path(out).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    w, h = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert w > 100 and h > 100


@pytest.mark.skipif(not _have("cairosvg"), reason="cairosvg is not installed: the SVG is not rasterised "
                                                  "(pip install cairosvg to run this check)")
def test_svg_rasterises_to_the_colors_it_declares() -> None:  # pragma: no cover - optional tool
    import io

    import cairosvg
    from PIL import Image

    svg = to_svg(parse("Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)"), cell="chunk16", label=None, element_bits=16)
    root, cells, _ = svg_cells(svg)
    png = cairosvg.svg2png(bytestring=svg.encode())
    img = Image.open(io.BytesIO(png)).convert("RGB")
    assert img.size == (int(root.get("width")), int(root.get("height")))
    for c in cells:
        x = float(c.get("x")) + float(c.get("width")) / 2
        y = float(c.get("y")) + float(c.get("height")) / 2
        want = tuple(int(c.get("fill")[i:i + 2], 16) for i in (1, 3, 5))
        assert img.getpixel((int(x), int(y))) == want


# ------------------------------------------------------------------------------------------
# the committed pictures of docs/pictures.md never rot

DOC_IMAGES = {
    "sw128_k_bf16_chunks.svg": (lambda: parse("Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)"),
                                {"cell": "chunk16", "label": "bank_group", "element_bits": 16}),
    "sw64_k_bf16_chunks.svg": (lambda: parse("Sw<2,4,3> o smem_ptr[16b](unset) o (8,32):(32,1)"),
                               {"cell": "chunk16", "label": "bank_group", "element_bits": 16}),
    "sw32_k_bf16_chunks.svg": (lambda: parse("Sw<1,4,3> o smem_ptr[16b](unset) o (8,16):(16,1)"),
                               {"cell": "chunk16", "label": "bank_group", "element_bits": 16}),
    "sw128_mn_bf16_chunks.svg": (lambda: smem_atom("MN", "128B", 16), {"cell": "chunk16", "label": "bank_group"}),
    "sw128_k_bf16_elements.svg": (lambda: parse("Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)"), {"element_bits": 16}),
    # docs/layout-algebra.md
    "algebra_zipped_divide.svg": (lambda: parse("((2,4),(4,2)):((1,8),(2,32))"),
                                  {"label": "value", "color": "value", "title": "zipped_divide((8,8):(1,8), (2,4))"}),
    "algebra_blocked_product.svg": (lambda: parse("((2,2),(2,3)):((2,4),(1,8))"),
                                    {"label": "value", "color": "value",
                                     "title": "blocked_product((2,2):(2,1), (2,3))"}),
    "algebra_raked_product.svg": (lambda: parse("((2,2),(3,2)):((12,1),(4,2))"),
                                  {"label": "value", "color": "value",
                                   "title": "raked_product((2,2):(1,2), (2,3):(3,1))"}),
}
#: the docs page that shows each picture (default pictures.md)
DOC_PAGE = {name: "layout-algebra.md" for name in DOC_IMAGES if name.startswith("algebra_")}


@pytest.mark.parametrize("name", sorted(DOC_IMAGES))
def test_doc_images_are_current(name: str) -> None:
    make, kw = DOC_IMAGES[name]
    svg = to_svg(make(), **kw)
    path = IMG / name
    if os.environ.get("PYCUTE_LAYOUTS_REGENERATE_IMAGES"):
        IMG.mkdir(parents=True, exist_ok=True)
        path.write_text(svg, encoding="utf-8")
    assert path.exists(), f"{path} is missing: regenerate with PYCUTE_LAYOUTS_REGENERATE_IMAGES=1"
    assert path.read_text(encoding="utf-8") == svg, f"{path} is stale: regenerate with PYCUTE_LAYOUTS_REGENERATE_IMAGES=1"
    page = DOC_PAGE.get(name, "pictures.md")
    assert f"](img/{name})" in (ROOT / "docs" / page).read_text(encoding="utf-8"), f"docs/{page} must show it"


def test_algebra_pictures_show_what_the_algebra_computes() -> None:
    # the layouts drawn in docs/layout-algebra.md are the results of the operations named in their titles
    assert str(zipped_divide(Layout((8, 8), (1, 8)), (2, 4))) == "((2,4),(4,2)):((1,8),(2,32))"
    assert str(blocked_product(Layout((2, 2), (2, 1)), Layout((2, 3)))) == "((2,2),(2,3)):((2,4),(1,8))"
    assert str(raked_product(Layout((2, 2), (1, 2)), Layout((2, 3), (3, 1)))) == "((2,2),(3,2)):((12,1),(4,2))"
