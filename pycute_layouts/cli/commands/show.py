"""``pycute-layouts show LAYOUT``: a layout's function as a table, or as an SVG/PNG/TikZ picture.

Without picture options it prints CuTe's ``print_layout`` table, its second line naming the units
(``--json``: the values and their units); the table shows exactly the values the pictures label,
in the units CuTe's notation gives them (``Sw<3,3,3> o 0 o L`` swizzles element offsets,
``Sw<3,4,3> o smem_ptr[16b](unset) o L`` byte addresses; both show element offsets). With
``--svg FILE``, ``--png FILE`` or ``--tikz FILE`` it writes the pictures (any combination) and
prints one ``wrote FILE`` line each (``--json``: a JSON object listing them). ``--atom NAME`` shows an
MMA or copy atom instead (:mod:`pycute_layouts.arch.atoms`): its layouts, or with a picture option its
thread-value picture (:mod:`pycute_layouts.render_tv`; ``--operand``, ``--tile``). The options
``--cell``, ``--label``, ``--color``, ``--element-bits``, ``--swizzle-unit``, ``--title`` and
``--standalone`` are those of :func:`pycute_layouts.render.to_svg` / ``to_tikz``.

>>> import argparse
>>> p = argparse.ArgumentParser(); register(p.add_subparsers())
>>> a = p.parse_args(["show", "(8,64):(64,1)", "--svg", "x.svg", "--cell", "chunk16", "-e", "16"])
>>> a.svg, a.cell, a.element_bits, a.label
('x.svg', 'chunk16', 16, 'value')
>>> from pycute_layouts.cli import main
>>> main(["show", "--atom", "SM80_16x8x8_F16F16F16F16_TN"])
SM80_16x8x8_F16F16F16F16_TN
  Shape_MNK : (16,8,8)
  ThrID     : 32:1
  ALayout   : ((4,8),(2,2)):((32,1),(16,8))
  BLayout   : ((4,8),2):((16,1),8)
  CLayout   : ((4,8),(2,2)):((32,1),(16,8))
0
"""

from __future__ import annotations

import argparse
import json
import os
from typing import Any

from ...arch import atoms
from ...core.notation import parse
from ...errors import LayoutValueError
from ...limits import MAX_TABLE_CELLS, check_budget
from ...limits import fmt as fmt_value
from ...render import grid_table, picture, picture_values, to_png, to_svg, to_tikz
from ...render import tv as render_tv
from ._common import defines, subparsers

__all__ = ["register"]


def _none(text: str) -> str | None:
    return None if text == "none" else text


def _write(path: str, text: str) -> None:
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        raise LayoutValueError(f"cannot write {fmt_value(path)}: {e.strerror or e}") from None


def _atom_text(a: Any) -> tuple[str, dict]:
    """The text and JSON summary of an MMA or copy atom's layouts."""
    if isinstance(a, atoms.MmaAtom):
        rows = [("Shape_MNK", str(a.shape_mnk).replace(" ", "")), ("ThrID", str(a.thr_id)), ("ALayout", str(a.layout_a)),
                ("BLayout", str(a.layout_b)), ("CLayout", str(a.layout_c))]
    else:
        rows = [("ThrID", str(a.thr_id)), ("SrcLayout", str(a.src_layout)), ("DstLayout", str(a.dst_layout)),
                ("RefLayout", str(a.ref_layout))]
    text = "\n".join([a.name] + [f"  {k:<10}: {v}" for k, v in rows])
    return text, {"atom": a.name, **dict(rows)}


def _cmd_mma_all(a: Any, args: argparse.Namespace, outputs: list) -> int:
    """``--operand all``: A, B and C together (CuTe's print_latex(mma)), as text or SVG."""
    if not isinstance(a, atoms.MmaAtom):
        raise LayoutValueError(f"show: --operand all draws an MMA atom's A, B and C; {a.name} is a copy atom")
    if any(fmt != "svg" for fmt, _ in outputs) or args.tile:
        raise LayoutValueError("show: --operand all is drawn as text or with --svg (not --png, --tikz or --tile)")
    pic = render_tv.mma_picture(a)
    if not outputs:
        print(json.dumps({"atom": a.name, "text": str(pic)}) if args.json else str(pic))
        return 0
    _write(outputs[0][1], render_tv.mma_svg(pic))
    print(json.dumps({"atom": a.name, "written": [{"format": "svg", "path": os.fspath(outputs[0][1])}]}) if args.json
          else f"wrote {outputs[0][1]} (svg, A, B and C of {a.name})")
    return 0


def _cmd_atom(args: argparse.Namespace) -> int:
    a = atoms.atom(args.atom)
    outputs = [(fmt, path) for fmt, path in (("png", args.png), ("svg", args.svg), ("tikz", args.tikz)) if path]
    if (args.operand or "").strip().lower() == "all":
        return _cmd_mma_all(a, args, outputs)
    if not outputs:
        text, data = _atom_text(a)
        print(json.dumps(data) if args.json else text)
        return 0
    tile = None
    if args.tile:
        try:
            tile = tuple(int(x) for x in args.tile.lower().split("x"))
        except ValueError:
            raise LayoutValueError(f"show: --tile must be ROWSxCOLS, got {fmt_value(args.tile)}") from None
    operand = args.operand or "C"
    pic = render_tv.atom_picture(a, operand, tile, element_bits=args.element_bits, title=args.title)
    written = []
    for fmt, path in outputs:
        if fmt == "svg":
            _write(path, render_tv.tv_svg(pic))
        elif fmt == "tikz":
            _write(path, to_tikz(pic, standalone=args.standalone))
        else:
            try:
                to_png(pic, path)
            except OSError as e:
                raise LayoutValueError(f"cannot write {fmt_value(path)}: {e.strerror or e}") from None
        written.append({"format": fmt, "path": os.fspath(path)})
    if args.json:
        print(json.dumps({"atom": a.name, "operand": operand, "rows": pic.nrows, "columns": pic.ncols,
                          "written": written}))
    else:
        for w in written:
            print(f"wrote {w['path']} ({w['format']}, {pic.nrows}x{pic.ncols} cells, thread-value labels)")
    return 0


def _print_values(obj: Any, args: argparse.Namespace) -> int:
    """The table (or JSON) of the values the pictures label, and the line saying their units."""
    if obj.rank() > 2 and args.json and args.element_bits is None and args.swizzle_unit is None:
        values, units = [int(x) for x in obj.to_numpy()], "element offsets"  # JSON only: any rank
    else:
        grid, units = picture_values(obj, element_bits=args.element_bits, swizzle_unit=args.swizzle_unit, who="show")
        values = [int(x) for x in grid.T.ravel()]  # the layout's index order (colexicographic)
    if args.json:
        print(json.dumps({"layout": str(obj), "size": int(obj.size()), "units": units, "values": values}))
        return 0
    table = grid_table(str(obj), grid)
    head, rest = table.split("\n", 1)
    print(f"{head}\nunits: {units}\n{rest}")
    return 0


def _cmd_show(args: argparse.Namespace) -> int:
    if (args.atom is None) == (args.layout is None):
        raise LayoutValueError("show: give a LAYOUT or --atom NAME (exactly one)")
    if args.atom is not None:
        return _cmd_atom(args)

    obj = parse(args.layout, **defines(args.define))
    opts = {"cell": args.cell, "label": _none(args.label), "color": _none(args.color), "element_bits": args.element_bits,
            "swizzle_unit": args.swizzle_unit, "title": args.title}
    outputs = [(fmt, path) for fmt, path in (("png", args.png), ("svg", args.svg), ("tikz", args.tikz)) if path]
    if not outputs:
        check_budget("show", f"layout {obj}", obj.size(), MAX_TABLE_CELLS)
        return _print_values(obj, args)
    pic = picture(obj, who="show", **opts)  # validate everything before writing anything
    written = []
    for fmt, path in outputs:
        if fmt == "svg":
            _write(path, to_svg(obj, **opts))
        elif fmt == "tikz":
            _write(path, to_tikz(obj, standalone=args.standalone, **opts))
        else:
            try:
                to_png(obj, path, **opts)
            except OSError as e:
                raise LayoutValueError(f"cannot write {fmt_value(path)}: {e.strerror or e}") from None
        written.append({"format": fmt, "path": os.fspath(path)})
    if args.json:
        print(json.dumps({"layout": str(obj), "rows": pic.nrows, "columns": pic.ncols, "cell": args.cell,
                          "label": pic.label_kind, "color": pic.color_kind,
                          "units": pic.subtitle.split("; ")[0].removeprefix("values: "), "written": written}))
    else:
        for w in written:
            print(f"wrote {w['path']} ({w['format']}, {pic.nrows}x{pic.ncols} cells)")
    return 0


def register(sub: Any) -> None:
    """Add the ``show`` subcommand to an argparse subparsers object.

    Usage: ``pycute-layouts show [LAYOUT | --atom NAME] [--svg FILE] [--png FILE] [--tikz FILE]``.

    >>> p = argparse.ArgumentParser(); register(p.add_subparsers())
    >>> p.parse_args(["show", "(8,4):(4,1)", "--svg", "x.svg"]).svg
    'x.svg'
    """
    sub = subparsers(sub, "show.register")
    s = sub.add_parser(
        "show", help="print a layout's function as a table, or draw it (SVG/PNG/TikZ)",
        description="Print a layout as a table (CuTe's print_layout), or write pictures of it: one cell per element "
                    "or per 16-byte chunk, colored by swizzle phase, labelled with values, addresses, bank groups "
                    "or coordinates. Units follow CuTe's notation: 'Sw<3,3,3> o 0 o L' swizzles element offsets, "
                    "'Sw<3,4,3> o smem_ptr[16b](unset) o L' byte addresses; the table and the pictures show the same "
                    "values (element offsets), and say so.",
    )
    s.add_argument("layout", nargs="?", help='CuTe notation, e.g. "Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)" '
                   '(swizzle on bytes) or "Sw<3,3,3> o 0 o (8,64):(64,1)" (on element offsets)')
    s.add_argument("--atom", metavar="NAME", help='an MMA or copy atom by CuTe\'s name, e.g. "SM90_64x256x16_F32BF16BF16_SS": '
                   "prints its layouts; with --svg/--png/--tikz draws its thread-value picture (T#V# per element)")
    s.add_argument("--operand", help="with --atom: A, B or C (default C) for MMA atoms, or all: A, B and C together "
                   "(B as K x N above C, A to its left, as CuTe's print_latex(mma); text or --svg); src or dst for copy "
                   "atoms (default: the register side)")
    s.add_argument("--tile", metavar="ROWSxCOLS", help="with --atom (MMA): draw the partition of a larger tile")
    s.add_argument("-D", "--define", action="append", metavar="NAME=VALUE", help="bind a symbol (repeatable)")
    s.add_argument("--json", action="store_true", help="print JSON")
    g = s.add_argument_group("pictures")
    g.add_argument("--svg", metavar="FILE", help="write an SVG picture (no dependency)")
    g.add_argument("--png", metavar="FILE", help="write a PNG picture (needs matplotlib: pip install 'pycute-layouts[png]')")
    g.add_argument("--tikz", metavar="FILE", help="write a LaTeX/TikZ picture")
    g.add_argument("--standalone", action="store_true", help="with --tikz: a complete, compilable LaTeX document")
    g.add_argument("--cell", choices=("element", "chunk16"), default="element",
                   help="one cell per element (default) or per 16-byte chunk (needs --element-bits)")
    g.add_argument("--label", choices=("value", "coord", "address", "bank_group", "none"), default="value",
                   help="cell text (default: value; address and bank_group need --element-bits)")
    g.add_argument("--color", choices=("auto", "phase", "value", "bank_group", "none"), default="auto",
                   help="cell fill (default auto: swizzle phase if the layout is swizzled, else value mod 8)")
    g.add_argument("-e", "--element-bits", type=int, metavar="BITS",
                   help="element width in bits (16 for f16/bf16, 8 for e4m3, 32 for tf32): enables byte addresses")
    g.add_argument("--swizzle-unit", choices=("bytes", "elements"), default=None,
                   help="override for a ComposedLayout 'Sw o k o L' with --element-bits: its swizzle acts on element "
                        "offsets (default, CuTe's meaning) or on byte addresses; prefer the smem_ptr form for bytes")
    g.add_argument("--title", help="picture title (default: the layout)")
    s.set_defaults(func=_cmd_show)
