"""What layouts and descriptors show in Jupyter: the renderers :mod:`pycute_layouts.core.display` asks.

Importing :mod:`pycute_layouts.render` registers them. A layout (Layout, ComposedLayout,
SwizzledSmemLayout) of rank 1 or 2 with at most :data:`MAX_DISPLAY_ELEMENTS` elements shows its
SVG picture (one cell per element, the values in the units its notation gives them); a larger,
symbolic or higher-rank one shows its text. A shared-memory descriptor shows its fields as an
HTML table.

>>> from pycute_layouts import parse
>>> layout_svg(parse("Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)")).startswith("<svg")
True
>>> layout_svg(parse("(128,128):(128,1)")) is None         # past the bound: plain text
True
>>> parse("(8,4):(4,1)")._repr_svg_() == layout_svg(parse("(8,4):(4,1)"))
True
"""

from __future__ import annotations

from html import escape
from typing import Any

from ..arch.smem_desc import SmemDescriptorBase
from ..core.composed import ComposedLayout, SwizzledSmemLayout
from ..core.display import register_renderer
from ..core.layout import Layout
from ..errors import LayoutError
from .svg import to_svg

__all__ = ["MAX_DISPLAY_ELEMENTS", "layout_svg", "descriptor_html"]

#: The largest layout drawn in a notebook (elements); larger ones show their text.
MAX_DISPLAY_ELEMENTS = 4096


def layout_svg(obj: Any) -> str | None:
    """The SVG picture a notebook shows for ``obj``, or ``None`` (not a layout, too large, or not drawable).

    Pre:  any object.
    Post: the SVG of :func:`pycute_layouts.render.to_svg` for a concrete rank-1/2 layout of at most
          :data:`MAX_DISPLAY_ELEMENTS` elements; ``None`` otherwise (never raises a LayoutError).

    >>> from pycute_layouts import Layout
    >>> layout_svg(Layout((2, 2, 2))) is None, layout_svg("(8,4):(4,1)") is None
    (True, True)
    """
    if not isinstance(obj, (Layout, ComposedLayout, SwizzledSmemLayout)):
        return None
    if obj.is_symbolic() or obj.rank() not in (1, 2) or obj.size() > MAX_DISPLAY_ELEMENTS:
        return None
    try:
        return to_svg(obj)
    except LayoutError:  # e.g. a swizzle that splits sub-byte elements: the text says it
        return None


def descriptor_html(obj: Any) -> str | None:
    """The HTML table a notebook shows for a shared-memory descriptor, or ``None`` for anything else.

    Pre:  any object.
    Post: for a ``wgmma.SmemDescriptor`` / ``umma.UmmaSmemDescriptor``: its header line (class, arch,
          encoded value) and one row per field (name, value with units), escaped; ``None`` otherwise.

    >>> from pycute_layouts.arch.wgmma import SmemDescriptor
    >>> html = descriptor_html(SmemDescriptor(start_address=0x400, lbo_bytes=16, sbo_bytes=1024, swizzle="128B"))
    >>> html.count("<tr>"), "0x4000004000010040" in html, descriptor_html(3) is None
    (5, True, True)
    """
    if not isinstance(obj, SmemDescriptorBase):
        return None
    head, *rows = str(obj).splitlines()
    cells = "".join(f"<tr><td><code>{escape(k.strip())}</code></td><td>{escape(v.strip())}</td></tr>"
                    for k, _, v in (r.partition("=") for r in rows))
    return f"<div><code>{escape(head)}</code><table>{cells}</table></div>"


register_renderer("svg", layout_svg)
register_renderer("html", descriptor_html)
