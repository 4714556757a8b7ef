"""Rich display in Jupyter: layouts, composed and shared-memory layouts draw as SVG, descriptors as HTML.

IPython is not needed: the display protocol is the methods ``_repr_svg_`` / ``_repr_html_`` that
IPython calls, tested directly; they are size-bounded (text past the bound) and never raise.
"""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from pycute_layouts import Layout, parse
from pycute_layouts.arch.umma import UmmaSmemDescriptor
from pycute_layouts.arch.wgmma import SmemDescriptor
from pycute_layouts.core import display
from pycute_layouts.errors import LayoutTypeError, LayoutValueError
from pycute_layouts.render import layout_grid
from pycute_layouts.render.jupyter import MAX_DISPLAY_ELEMENTS

NS = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("text", [
    "(8,4):(4,1)",
    "Sw<3,3,3> o 0 o (8,64):(64,1)",
    "Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)",
    "Sw<3,4,3> o smem_ptr[16b](unset) o ((8,8),(64,1)):((64,512),(1,0))",
])
def test_layouts_draw_their_own_values(text: str) -> None:
    obj = parse(text)
    root = ET.fromstring(obj._repr_svg_())
    assert root.find(f"{NS}text[@class='title']").text == str(obj)
    labels = [int(t.text) for t in root.findall(f".//{NS}text[@class='label']")]
    assert labels == layout_grid(obj).ravel().tolist()  # row by row: the object's own values, obj(r, c)


@pytest.mark.parametrize("obj", [
    Layout((128, 128), (128, 1)),                      # past MAX_DISPLAY_ELEMENTS
    parse("(8,m):(m,1)"),                              # symbolic
    Layout((2, 2, 2)),                                 # rank 3
    parse("Sw<1,4,3> o smem_ptr[6b](unset) o (8,64):(64,1)"),  # elements moved off 6-bit boundaries
])
def test_past_the_bound_or_undrawable_falls_back_to_text(obj) -> None:
    assert obj._repr_svg_() is None
    assert repr(obj)  # what IPython shows instead


def test_the_bound() -> None:
    assert MAX_DISPLAY_ELEMENTS == 64 * 64
    assert Layout((64, 64), (64, 1))._repr_svg_().startswith("<svg")
    assert Layout((64, 65), (65, 1))._repr_svg_() is None


def test_descriptors_show_their_fields() -> None:
    d = SmemDescriptor(start_address=0x400, lbo_bytes=16, sbo_bytes=1024, swizzle="128B")
    html = d._repr_html_()
    assert "0x4000004000010040" in html and html.count("<tr>") == 5
    assert "<td><code>sbo</code></td><td>1024 B (field 64)</td>" in html
    u = UmmaSmemDescriptor(0x2000, 256, 128, "none")._repr_html_()
    assert "sm100 tcgen05" in u and u.count("<tr>") == 7
    assert Layout(4)._repr_svg_() is not None and display.rich_repr(d, "svg") is None


def test_a_failing_renderer_never_breaks_display(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(obj):
        raise RuntimeError("boom")

    monkeypatch.setitem(display._RENDERERS, "svg", [broken])
    assert Layout(4)._repr_svg_() is None
    monkeypatch.setitem(display._RENDERERS, "svg", [broken, lambda obj: "<svg/>"])
    assert Layout(4)._repr_svg_() == "<svg/>"


def test_bad_registrations() -> None:
    with pytest.raises(LayoutValueError, match="format must be one of 'svg', 'html'"):
        display.register_renderer("png", lambda obj: None)
    with pytest.raises(LayoutTypeError, match="must be callable"):
        display.register_renderer("svg", "to_svg")
    with pytest.raises(LayoutTypeError, match="must be callable"):
        display.set_display_loader(42)


def test_import_stays_light_and_the_first_display_loads_the_pictures() -> None:
    code = ("import sys, pycute_layouts as p; assert 'pycute_layouts.render' not in sys.modules; "
            "s = p.parse('(2,2):(1,2)')._repr_svg_(); assert s.startswith('<svg'), s; "
            "assert 'pycute_layouts.render' in sys.modules; print('ok')")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.stdout.strip() == "ok", r.stderr
