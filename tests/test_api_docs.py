"""docs/api.md is the API reference generated from the public modules; it must stay current.

Regenerate with ``python tests/test_api_docs.py --write`` after changing a public name or the first
line of its docstring.
"""

from __future__ import annotations

import enum
import importlib
import inspect
import sys
import types
import typing
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
API_MD = ROOT / "docs" / "api.md"

#: Public modules in reading order; a module that does not exist (yet) is skipped.
MODULES = [
    "pycute_layouts",
    "pycute_layouts.core.symbols",
    "pycute_layouts.core.inttuple",
    "pycute_layouts.core.display",
    "pycute_layouts.strategies",
    "pycute_layouts.arch.swizzle_modes",
    "pycute_layouts.arch.smem_desc",
    "pycute_layouts.arch.wgmma",
    "pycute_layouts.arch.umma",
    "pycute_layouts.arch.tma",
    "pycute_layouts.arch.im2col",
    "pycute_layouts.arch.shfl",
    "pycute_layouts.arch.access",
    "pycute_layouts.arch.atoms",
    "pycute_layouts.arch.atoms_mma",
    "pycute_layouts.arch.atoms_copy",
    "pycute_layouts.proofs",
    "pycute_layouts.proofs.bitvec",
    "pycute_layouts.codegen",
    "pycute_layouts.render",
    "pycute_layouts.render.tv",
    "pycute_layouts.render.jupyter",
    "pycute_layouts.analysis",
    "pycute_layouts.hwcheck",
    "pycute_layouts.interop",
    "pycute_layouts.interop.triton",
    "pycute_layouts.interop.cute_dsl",
    "pycute_layouts.cli",
]


def _first_line(obj: object) -> str:
    doc = inspect.getdoc(obj) or ""
    return doc.strip().split("\n\n")[0].replace("\n", " ").strip()


def _signature(obj: object) -> str:
    try:
        sig = str(inspect.signature(obj))
    except (TypeError, ValueError):
        return ""
    return sig if len(sig) <= 120 else "(...)"


def _is_type_alias(obj: object) -> bool:
    """A union such as ``int | Any | tuple`` (3.10 makes it a typing.Union, 3.11+ a types.UnionType-like object)."""
    return typing.get_origin(obj) in (typing.Union, types.UnionType)


def _type_name(t: object) -> str:
    return t.__name__ if isinstance(t, type) else str(t).replace("typing.", "")


def render_api() -> str:
    out = [
        "# API reference",
        "",
        "Generated from the public modules' `__all__` and the first paragraph of each docstring",
        "(`python tests/test_api_docs.py --write`; a test keeps it current). Every docstring has a",
        "doctest example that the test suite runs; read the source docstrings for the full contract.",
        "",
    ]
    for name in MODULES:
        try:
            mod = importlib.import_module(name)
        except ModuleNotFoundError as e:
            if e.name == name:
                continue
            raise
        out += [f"## `{name}`", "", _first_line(mod), ""]
        names = list(getattr(mod, "__all__", []))
        if not names:
            continue
        out += ["| name | kind | what |", "| --- | --- | --- |"]
        for n in names:
            obj = getattr(mod, n)
            if inspect.isclass(obj) and issubclass(obj, enum.Enum):
                kind, sig = "enum", ""  # the signature Python gives an Enum class differs between versions
            elif inspect.isclass(obj):
                kind, sig = "class", _signature(obj)
            elif _is_type_alias(obj):
                kind, sig = "type", ""
            elif callable(obj):
                kind, sig = "function", _signature(obj)
            elif inspect.ismodule(obj):
                kind, sig = "module", ""
            else:
                kind, sig = "constant", ""
            if kind == "type":
                what = "type alias: " + " | ".join(f"`{_type_name(a)}`" for a in typing.get_args(obj))
            else:
                what = _first_line(obj) if kind != "constant" else f"`{obj!r}`"[:100]
            if kind == "module":
                what = f"the module `{obj.__name__}`: {_first_line(obj)}"
            if kind not in ("constant", "module") and inspect.getmodule(obj) is not None and name == "pycute_layouts":
                what += f" (from `{inspect.getmodule(obj).__name__}`)"
            sig = sig.replace("|", "\\|")
            what = what.replace("|", "\\|")
            out.append(f"| `{n}{sig}` | {kind} | {what} |")
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def test_api_md_is_current() -> None:
    assert API_MD.exists(), "docs/api.md is missing: run python tests/test_api_docs.py --write"
    assert API_MD.read_text() == render_api(), "docs/api.md is stale: run python tests/test_api_docs.py --write"


def test_every_public_name_has_a_docstring() -> None:
    missing = []
    for name in MODULES:
        try:
            mod = importlib.import_module(name)
        except ModuleNotFoundError as e:
            if e.name == name:
                continue
            raise
        for n in getattr(mod, "__all__", []):
            obj = getattr(mod, n)
            if (inspect.isclass(obj) or inspect.isfunction(obj)) and not inspect.getdoc(obj):
                missing.append(f"{name}.{n}")
    assert not missing, f"public names without a docstring: {missing}"


#: Public names that still lack a doctest, all in files other work owned when this test was written
#: (proofs/, hwcheck/atoms_check.py, core/layout.py, arch/smem_desc.py's classes). Shrink it; never grow it.
DOCTEST_PENDING: frozenset = frozenset()


def _package_modules() -> list[str]:
    """Every module of the package but the private ones (``_gluon_worker``) and the ``__main__`` entry points."""
    import pkgutil

    import pycute_layouts

    names = ["pycute_layouts"] + [m.name for m in pkgutil.walk_packages(pycute_layouts.__path__, "pycute_layouts.")]
    return [n for n in names if not any(part.startswith("_") for part in n.split(".")[1:])]


def test_every_public_name_has_a_doctest() -> None:
    """Each function and class in a module's ``__all__`` (defined in the package) shows an example that runs."""
    missing = set()
    for name in _package_modules():
        mod = importlib.import_module(name)
        for n in getattr(mod, "__all__", []):
            obj = getattr(mod, n)
            if not (inspect.isclass(obj) or inspect.isfunction(obj)):
                continue
            qual = f"{obj.__module__}.{obj.__qualname__}"
            if qual.startswith("pycute_layouts.") and ">>>" not in (inspect.getdoc(obj) or ""):
                missing.add(qual)
    assert not missing - DOCTEST_PENDING, f"public names without a doctest: {sorted(missing - DOCTEST_PENDING)}"


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))  # document this checkout, not whatever is installed
    if "--write" in sys.argv:
        API_MD.write_text(render_api())
        print(f"wrote {API_MD}")
    else:
        print(render_api())
