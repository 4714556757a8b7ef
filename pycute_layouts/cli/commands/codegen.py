"""``pycute-layouts codegen SPEC``: kernel constants as a C++ header, a Python module and JSON.

The spec format is described in ``docs/codegen.md`` and :func:`pycute_layouts.codegen.parse_spec`.

>>> import argparse
>>> p = argparse.ArgumentParser(); register(p.add_subparsers())
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ... import codegen
from ...errors import LayoutError
from ...limits import fmt as fmt_value
from ._common import subparsers

__all__ = ["register"]

_FORMATS = ("header", "python", "json")


def _write(path: str, text: str) -> None:
    try:
        Path(path).write_text(text)
    except OSError as e:
        raise LayoutError(f"codegen: cannot write {fmt_value(path)}: {e.strerror or e}") from None


def _cmd_codegen(args: argparse.Namespace) -> int:
    spec = codegen.load_spec(args.spec, args.spec_format)
    kc = codegen.check_kernel(spec)  # the operands' constants and the kernel rules (types, K, smem budget)
    emit = {"header": codegen.emit_header, "python": codegen.emit_python, "json": codegen.emit_json}
    outputs = [(fmt, getattr(args, fmt)) for fmt in _FORMATS if getattr(args, fmt)]
    for fmt, path in outputs:
        _write(path, emit[fmt](kc))
    if not outputs:
        print(emit[args.format or "header"](kc), end="")
    elif args.format:
        print(emit[args.format](kc), end="")
    return 0


def register(sub: Any) -> None:
    """Add the ``codegen`` subcommand to an argparse subparsers object.

    Usage: ``pycute-layouts codegen SPEC [--header FILE] [--python FILE] [--json FILE]``.

    >>> p = argparse.ArgumentParser(); register(p.add_subparsers())
    >>> p.parse_args(["codegen", "gemm.toml"]).spec
    'gemm.toml'
    """
    sub = subparsers(sub, "codegen.register")
    h = sub.add_parser(
        "codegen", help="kernel constants (descriptors, K-step advances, TMA boxes, CuTe types) from a spec",
        description="Read a TOML or JSON spec (kernel, arch, operands A/B with tile MNxK, dtype, major, swizzle, "
                    "stages; see docs/codegen.md) and write a self-contained C++ header (constexpr descriptors and "
                    "static_asserts; CuTe type checks under PYCUTE_LAYOUTS_WITH_CUTE), a Python module and/or JSON. "
                    "With no output file the header (or --format) is printed.")
    h.add_argument("spec", help="spec file (.toml or .json)")
    h.add_argument("--spec-format", choices=("toml", "json"), default=None,
                   help="read SPEC as this format (default: from the suffix)")
    h.add_argument("--header", metavar="FILE", help="write the C++ header here")
    h.add_argument("--python", metavar="FILE", help="write the Python module here")
    h.add_argument("--json", metavar="FILE", help="write the JSON here")
    h.add_argument("--format", choices=_FORMATS, default=None, help="print this output to stdout")
    h.set_defaults(func=_cmd_codegen)
