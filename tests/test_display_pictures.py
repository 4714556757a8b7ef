"""Pictures a person reads at a glance: the palette's colors are told apart, every displayed object has a picture.

The palette test computes CIEDE2000 (CIE 142-2001; the formula as Sharma, Wu and Dalal, "The CIEDE2000
color-difference formula: implementation notes", 2005, state it) between every pair of colors, and checks the
implementation against test pairs of that paper.
"""

from __future__ import annotations

import itertools
import math
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from pycute_layouts.render import PALETTE
from pycute_layouts.render.picture import WHITE


def _lab(hex_color: str) -> tuple[float, float, float]:
    """sRGB (D65) -> CIELAB."""
    h = hex_color.lstrip("#")
    rgb = [int(h[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    x = 0.4124564 * lin[0] + 0.3575761 * lin[1] + 0.1804375 * lin[2]
    y = 0.2126729 * lin[0] + 0.7151522 * lin[1] + 0.0721750 * lin[2]
    z = 0.0193339 * lin[0] + 0.1191920 * lin[1] + 0.9503041 * lin[2]

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x / 0.95047), f(y / 1.0), f(z / 1.08883)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def _luminance(hex_color: str) -> float:
    h = hex_color.lstrip("#")
    lin = [(c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4) for c in (int(h[i:i + 2], 16) / 255 for i in (0, 2, 4))]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def ciede2000(lab1: tuple[float, float, float], lab2: tuple[float, float, float]) -> float:
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    cb = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(cb ** 7 / (cb ** 7 + 25 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360
    h2p = math.degrees(math.atan2(b2, a2p)) % 360
    dlp, dcp = l2 - l1, c2p - c1p
    dhp = 0.0
    if c1p * c2p:
        dhp = h2p - h1p
        dhp = dhp - 360 if dhp > 180 else dhp + 360 if dhp < -180 else dhp
    dhh = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dhp / 2))
    lbp, cbp = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        hbp = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hbp = (h1p + h2p) / 2
    else:
        hbp = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(hbp - 30)) + 0.24 * math.cos(math.radians(2 * hbp))
         + 0.32 * math.cos(math.radians(3 * hbp + 6)) - 0.20 * math.cos(math.radians(4 * hbp - 63)))
    dth = 30 * math.exp(-(((hbp - 275) / 25) ** 2))
    rc = 2 * math.sqrt(cbp ** 7 / (cbp ** 7 + 25 ** 7))
    sl = 1 + 0.015 * (lbp - 50) ** 2 / math.sqrt(20 + (lbp - 50) ** 2)
    sc, sh = 1 + 0.045 * cbp, 1 + 0.015 * cbp * t
    rt = -math.sin(math.radians(2 * dth)) * rc
    return math.sqrt((dlp / sl) ** 2 + (dcp / sc) ** 2 + (dhh / sh) ** 2 + rt * (dcp / sc) * (dhh / sh))


@pytest.mark.parametrize("lab1,lab2,de", [  # Sharma, Wu, Dalal (2005), Table 1, pairs 1, 7, 13, 19, 25, 34
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
    ((50.0, 2.4900, -0.0010), (50.0, -2.4900, 0.0011), 7.2195),
    ((50.0, 2.5, 0.0), (50.0, 0.0, -2.5), 4.3065),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((22.7233, 20.0904, -46.6940), (23.0331, 14.9730, -42.5619), 2.0373),
])
def test_ciede2000_reference_pairs(lab1: tuple, lab2: tuple, de: float) -> None:
    assert ciede2000(lab1, lab2) == pytest.approx(de, abs=1e-4)
    assert ciede2000(lab2, lab1) == pytest.approx(de, abs=1e-4)


def test_no_two_palette_colors_look_alike() -> None:
    labs = [_lab(c) for c in PALETTE]
    assert len(PALETTE) == 16 and all(c.startswith("#") and len(c) == 7 for c in PALETTE)
    worst = min((ciede2000(labs[i], labs[j]), i, j) for i, j in itertools.combinations(range(16), 2))
    assert worst[0] >= 16, f"colors {worst[1]} and {worst[2]} are only {worst[0]:.1f} apart (CIEDE2000)"
    first8 = min(ciede2000(labs[i], labs[j]) for i, j in itertools.combinations(range(8), 2))
    assert first8 >= 23  # swizzle phases and values mod 8 use the first 8
    # threads 6/14 and 2/15 (mod 16) were near-identical in the old palette (5.2 and 6.7 apart)
    assert ciede2000(labs[6], labs[14]) >= 16 and ciede2000(labs[2], labs[15]) >= 16
    # a cell nobody holds is white: no color may pass for it
    assert min(ciede2000(lab, _lab(WHITE)) for lab in labs) >= 18


def test_black_labels_are_readable_on_every_color() -> None:
    for c in PALETTE:  # WCAG contrast ratio of black text: (L + 0.05) / 0.05; 7 is the AAA level
        assert (_luminance(c) + 0.05) / 0.05 >= 7, c


# ------------------------------------------------------------------------------------------------
# every object a user displays shows a picture or a table (IPython's protocol, called directly)
# ------------------------------------------------------------------------------------------------

NS = "{http://www.w3.org/2000/svg}"


def _cells(svg: str) -> list:
    return ET.fromstring(svg).findall(f".//{NS}rect[@class='cell']")


def test_mma_atom_shows_a_b_and_c() -> None:
    from pycute_layouts.arch.atoms import mma_atom, owners

    a = mma_atom("SM80_16x8x16_F32F16F16F32_TN")
    root = ET.fromstring(a._repr_svg_())
    groups = {g.get("data-operand"): g for g in root.iter(f"{NS}g") if g.get("data-operand")}
    assert set(groups) == {"A", "B", "C"}
    sizes = {op: len(g.findall(f"{NS}rect")) for op, g in groups.items()}
    assert sizes == {"A": 16 * 16, "B": 16 * 8, "C": 16 * 8}
    # positions: B above C (same columns), A left of C (same rows)
    def box(op: str) -> tuple[float, float, float, float]:
        rs = groups[op].findall(f"{NS}rect")
        xs, ys = [float(r.get("x")) for r in rs], [float(r.get("y")) for r in rs]
        return min(xs), max(xs), min(ys), max(ys)
    ax0, ax1, ay0, ay1 = box("A")
    bx0, bx1, by0, by1 = box("B")
    cx0, cx1, cy0, cy1 = box("C")
    assert (bx0, bx1) == (cx0, cx1) and by1 < cy0 and (ay0, ay1) == (cy0, cy1) and ax1 < cx0
    # every label is the owner the API names: C(9, 3), A(m, k), B drawn K x N
    labels = {op: [t.text for t in g.findall(f"{NS}text")] for op, g in groups.items()}
    t, v = owners(a, "C", (9, 3))[0]
    assert labels["C"][9 * 8 + 3] == f"T{t}V{v}"
    for k in range(16):
        for n in range(8):
            t, v = owners(a, "B", (n, k))[0]
            assert labels["B"][k * 8 + n] == f"T{t}V{v}"
    t, v = owners(a, "A", (15, 9))[0]
    assert labels["A"][15 * 16 + 9] == f"T{t}V{v}"


def test_mma_text_matches_ptx_fragments() -> None:
    from pycute_layouts.render.tv import mma_picture, mma_text

    p = mma_picture("SM80_16x8x4_F32TF32TF32F32_TN")
    assert str(p) == mma_text(p)
    rows = str(p).splitlines()
    # PTX mma.m16n8k4 .tf32: a0 at (groupID, tid_in_group), a1 at groupID + 8; b0 at (k = tid_in_group, n = groupID)
    b_rows = [r for r in rows if r.startswith("  k ")]
    a_rows = [r for r in rows if r.startswith("  m ")]
    assert len(b_rows) == 4 and len(a_rows) == 16
    assert b_rows[1].split("|")[1].split() == [f"T{4 * n + 1}V0" for n in range(8)]
    assert a_rows[9].split("|")[0].split()[2:] == [f"T{4 + k}V1" for k in range(4)]
    assert a_rows[9].split("|")[1].split() == [f"T{4 + j // 2}V{2 + j % 2}" for j in range(8)]


def test_ss_wgmma_operands_are_marked_shared() -> None:
    from pycute_layouts.render.tv import mma_picture

    p = mma_picture("SM90_64x16x16_F32BF16BF16_SS")
    assert [n.split(":")[0] for n in p.notes] == ["A", "B"]
    assert all(k == -1 for row in p.a.colors for k in row) and all(k == -1 for row in p.b.colors for k in row)
    assert any(k >= 0 for row in p.c.colors for k in row)
    rs = mma_picture("SM90_64x16x16_F32BF16BF16_RS")
    assert [n.split(":")[0] for n in rs.notes] == ["B"]


def test_tiled_mma_and_copy_atom_and_picture_show_pictures() -> None:
    from pycute_layouts.arch.atoms import copy_atom, make_tiled_mma
    from pycute_layouts.render.tv import atom_picture

    t = make_tiled_mma("SM80_16x8x8_F16F16F16F16_TN", (2, 2, 1))
    assert len(_cells(t._repr_svg_())) == 32 * 8 + 8 * 16 + 32 * 16
    c = copy_atom("SM75_U16x8_LDSM_T")
    assert len(_cells(c._repr_svg_())) == 32 * 8
    p = atom_picture("SM90_64x16x16_F32BF16BF16_SS")
    root = ET.fromstring(p._repr_svg_())
    assert len(root.findall(f".//{NS}text[@class='label']")) == 64 * 16


def test_big_atoms_fall_back_to_text() -> None:
    from pycute_layouts.arch.atoms import make_tiled_mma, mma_atom

    assert mma_atom("SM90_64x256x16_F32BF16BF16_SS")._repr_svg_().startswith("<svg")  # 21504 cells: drawn
    assert make_tiled_mma("SM90_64x256x16_F32BF16BF16_SS", (4, 1, 1))._repr_svg_() is None  # past the bound
    assert repr(make_tiled_mma("SM90_64x256x16_F32BF16BF16_SS", (4, 1, 1)))


def test_instr_descriptor_shows_a_field_table() -> None:
    from pycute_layouts.arch.umma import InstrDescriptor

    d = InstrDescriptor("bf16", "bf16", "f32", 128, 256)
    html = d._repr_html_()
    assert "0x08400490" in html and "kind::f16" in html
    rows = ET.fromstring(html.replace("<code>", "").replace("</code>", "")).findall(".//tr")
    assert len(rows) == 1 + len(d.fields())
    got = {r[0].text: (r[1].text, int(r[2].text)) for r in rows[1:]}
    assert got["n_dim"] == ("17-22", 32) and got["m_dim"] == ("24-28", 8)  # N >> 3, M >> 4


def test_tensor_shows_its_values() -> None:
    from pycute_layouts import Layout, make_tensor

    t = make_tensor(np.arange(12) * 10, Layout((3, 4), (4, 1)))
    root = ET.fromstring(t._repr_html_().replace("<code>", "").replace("</code>", ""))
    rows = root.findall(".//tr")
    assert [int(x.text) for x in rows[2].findall("td")] == [t(1, c) for c in range(4)] == [40, 50, 60, 70]
    assert make_tensor(np.arange(8), Layout((2, 2, 2)))._repr_html_().count("<pre>") == 1
    assert make_tensor(np.arange(1 << 13), Layout(1 << 13))._repr_html_() is None  # past the bound: text


def test_display_never_raises() -> None:
    from pycute_layouts.render import jupyter

    for fn in (jupyter.atom_svg, jupyter.picture_svg_repr, jupyter.instr_desc_html, jupyter.tensor_html):
        assert fn(object()) is None and fn(None) is None


def test_doc_images_of_this_page_are_current() -> None:
    """docs/img pictures drawn by render.tv (regenerate: PYCUTE_LAYOUTS_REGENERATE_IMAGES=1)."""
    import os
    from pathlib import Path

    from pycute_layouts.render.tv import mma_svg, tv_svg

    img = Path(__file__).resolve().parents[1] / "docs" / "img"
    want = {"atom_sm80_16x8x16_mma.svg": mma_svg("SM80_16x8x16_F32F16F16F32_TN"),
            "atom_wgmma_64x16_C.svg": tv_svg("SM90_64x16x16_F32BF16BF16_SS",
                                             title="SM90_64x16x16_F32BF16BF16_SS accumulator (CLayout_64x16)")}
    for name, svg in want.items():
        if os.environ.get("PYCUTE_LAYOUTS_REGENERATE_IMAGES"):
            (img / name).write_text(svg, encoding="utf-8")
        assert (img / name).read_text(encoding="utf-8") == svg, f"docs/img/{name} is stale"
        assert f"](img/{name})" in (img.parent / "atoms.md").read_text(encoding="utf-8")


def test_show_operand_all(capsys: pytest.CaptureFixture, tmp_path: object) -> None:
    from pycute_layouts.cli import main
    from pycute_layouts.render.tv import mma_svg, mma_text

    assert main(["show", "--atom", "SM80_16x8x8_F16F16F16F16_TN", "--operand", "all"]) == 0
    assert capsys.readouterr().out == mma_text("SM80_16x8x8_F16F16F16F16_TN") + "\n"
    path = tmp_path / "abc.svg"  # type: ignore[operator]
    assert main(["show", "--atom", "SM80_16x8x8_F16F16F16F16_TN", "--operand", "all", "--svg", str(path)]) == 0
    assert path.read_text(encoding="utf-8") == mma_svg("SM80_16x8x8_F16F16F16F16_TN")
    capsys.readouterr()
    assert main(["show", "--atom", "SM75_U16x8_LDSM_T", "--operand", "all"]) == 2
    assert "copy atom" in capsys.readouterr().err
