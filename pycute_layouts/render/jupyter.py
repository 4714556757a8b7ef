"""What layouts and descriptors show in Jupyter: the renderers :mod:`pycute_layouts.core.display` asks.

Importing :mod:`pycute_layouts.render` registers them. A layout (Layout, ComposedLayout,
SwizzledSmemLayout) of rank 1 or 2 with at most :data:`MAX_DISPLAY_ELEMENTS` elements shows its
SVG picture (one cell per element, the values in the units its notation gives them); a larger,
symbolic or higher-rank one shows its text. A shared-memory descriptor and a tcgen05 instruction
descriptor show their fields as an HTML table. An MMA atom or a tiled MMA shows A, B and C together
(:func:`pycute_layouts.render.tv.mma_svg`, CuTe's ``print_latex(mma)``), a copy atom its thread-value
picture, a :class:`~pycute_layouts.render.Picture` itself, a tensor of rank 1 or 2 its values as a
table (larger ones: ``print_tensor``'s text in a ``<pre>``).

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

from ..arch import atoms
from ..arch.smem_desc import SmemDescriptorBase
from ..arch.umma import InstrDescriptor
from ..core.composed import ComposedLayout, SwizzledSmemLayout
from ..core.display import register_renderer
from ..core.layout import Layout
from ..core.tensor import Tensor, print_tensor
from ..errors import LayoutError
from .picture import Picture
from .svg import to_svg
from .tv import mma_svg, tv_svg

__all__ = ["MAX_DISPLAY_ELEMENTS", "MAX_DISPLAY_CELLS", "layout_svg", "descriptor_html", "atom_svg", "picture_svg_repr",
           "instr_desc_html", "tensor_html"]

#: The largest layout drawn in a notebook (elements); larger ones show their text.
MAX_DISPLAY_ELEMENTS = 4096
#: The most labelled cells of a thread-value picture drawn in a notebook (a 64x256 accumulator with its A and B).
MAX_DISPLAY_CELLS = 1 << 15


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


def atom_svg(obj: Any) -> str | None:
    """The picture a notebook shows for an MMA atom, a tiled MMA (A, B and C together) or a copy atom.

    Pre:  any object.
    Post: :func:`~pycute_layouts.render.tv.mma_svg` of an MmaAtom/TiledMma, :func:`~pycute_layouts.render.tv.tv_svg`
          of a CopyAtom (its register side); ``None`` for anything else or past :data:`MAX_DISPLAY_CELLS`.

    >>> svg = atom_svg(atoms.mma_atom("SM80_16x8x8_F16F16F16F16_TN"))
    >>> svg.count('class="cell"'), atom_svg(3) is None
    (320, True)
    """
    try:
        if isinstance(obj, atoms.MmaAtom):
            m, n, k = obj.shape_mnk
        elif isinstance(obj, atoms.TiledMma):
            m, n, k = obj.tile_size_mnk
        elif isinstance(obj, atoms.CopyAtom):
            return tv_svg(obj)
        else:
            return None
        if m * n + m * k + n * k > MAX_DISPLAY_CELLS:
            return None
        return mma_svg(obj)
    except LayoutError:
        return None


def picture_svg_repr(obj: Any) -> str | None:
    """A :class:`~pycute_layouts.render.Picture` (e.g. from ``render.tv.atom_picture``) as its SVG, every label drawn.

    Pre:  any object. Post: :func:`~pycute_layouts.render.tv.tv_svg` of a Picture of at most
    :data:`MAX_DISPLAY_CELLS` cells; ``None`` otherwise.

    >>> from pycute_layouts.render.tv import atom_picture
    >>> picture_svg_repr(atom_picture("SM80_16x8x8_F16F16F16F16_TN")).count('class="label"')
    128
    """
    if not isinstance(obj, Picture) or obj.nrows * obj.ncols > MAX_DISPLAY_CELLS:
        return None
    return tv_svg(obj)


def instr_desc_html(obj: Any) -> str | None:
    """The HTML table a notebook shows for a tcgen05 instruction descriptor: its value, then one row per field.

    Pre:  any object. Post: for an :class:`~pycute_layouts.arch.umma.InstrDescriptor`: the instruction and
    value, and (field, bits, value, meaning) rows, escaped; ``None`` otherwise.

    >>> html = instr_desc_html(InstrDescriptor("bf16", "bf16", "f32", 128, 256))
    >>> "0x08400490" in html, html.count("<tr>")
    (True, 14)
    """
    if not isinstance(obj, InstrDescriptor):
        return None
    head = str(obj).splitlines()[0]
    rows = "".join(f"<tr><td><code>{escape(name)}</code></td><td>{escape(bits)}</td><td>{value}</td>"
                   f"<td>{escape(meaning)}</td></tr>" for name, bits, value, meaning in obj.fields())
    return (f"<div><code>{escape(head)}</code><table><tr><th>field</th><th>bits</th><th>value</th><th>meaning</th></tr>"
            f"{rows}</table></div>")


def tensor_html(obj: Any) -> str | None:
    """The HTML a notebook shows for a :class:`~pycute_layouts.Tensor`: a rank-1/2 tensor's values as a table.

    Pre:  any object. Post: a table (row and column numbers, ``T(r, c)`` in each cell) for a concrete
    rank-1 or rank-2 tensor of at most :data:`MAX_DISPLAY_ELEMENTS` elements; ``print_tensor``'s text in a
    ``<pre>`` for higher ranks within the bound; ``None`` otherwise.

    >>> import numpy as np
    >>> from pycute_layouts import make_tensor
    >>> html = tensor_html(make_tensor(np.arange(6), Layout((2, 3), (3, 1))))
    >>> html.count("<tr>"), "<td>5</td>" in html
    (3, True)
    """
    if not isinstance(obj, Tensor):
        return None
    lay = obj.layout
    try:
        if lay.is_symbolic() or lay.size() > MAX_DISPLAY_ELEMENTS:
            return None
        head = f"<code>{escape(str(obj))}</code>"
        if lay.rank() > 2:
            return f"<div>{head}<pre>{escape(print_tensor(obj))}</pre></div>"
        shape = lay.shape if isinstance(lay.shape, tuple) else (lay.shape,)
        rows = int(Layout(shape[0]).size())
        cols = int(Layout(shape[1]).size()) if len(shape) == 2 else 1

        def cell(r: int, c: int) -> str:
            v = obj(r, c) if len(shape) == 2 else obj(r)
            return escape(str(v).replace(" ", ""))

        top = "<tr><th></th>" + "".join(f"<th>{c}</th>" for c in range(cols)) + "</tr>"
        body = "".join("<tr><th>" + str(r) + "</th>" + "".join(f"<td>{cell(r, c)}</td>" for c in range(cols)) + "</tr>"
                       for r in range(rows))
        return f"<div>{head}<table>{top}{body}</table></div>"
    except LayoutError:
        return None


register_renderer("svg", layout_svg)
register_renderer("html", descriptor_html)
register_renderer("svg", atom_svg)
register_renderer("svg", picture_svg_repr)
register_renderer("html", instr_desc_html)
register_renderer("html", tensor_html)
