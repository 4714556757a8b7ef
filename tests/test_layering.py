"""The package's shape: folders are layers, imports go one way, no private names cross modules.

The import graph is read from the source with ``ast`` (function-level imports included, so a
cycle cannot hide inside a function). Rules:

* a module imports only from its own layer or the layers below it:
  errors -> core -> arch -> analysis -> proofs -> codegen/render/hwcheck/interop/strategies -> cli;
* inside ``core`` the modules are ordered too (each imports only from those before it);
* no import cycles at all;
* no ``from module import _private`` across modules (CuTe's placeholder ``_`` is public);
* one swizzle-mode vocabulary: exactly one ``Enum`` whose name mentions "Swizzle".

The package ``__init__`` re-exports the public names and is exempt from the direction rule.
Each checker is also run on a small planted graph, so these tests can fail.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "pycute_layouts"
ROOT = "pycute_layouts"

#: layer of each top-level part of the package (lower imports nothing from higher)
LAYERS = {
    "errors": 0,
    "version": 0,
    "limits": 0,
    "core": 1,
    "arch": 2,
    "analysis": 3,
    "proofs": 4,
    "codegen": 5,
    "render": 5,
    "hwcheck": 5,
    "interop": 5,
    "strategies": 5,
    "cli": 6,
    "__main__": 6,
}

#: the order inside core: each module imports only from the modules before it
CORE_ORDER = (
    "display",
    "symbols",
    "basis",
    "f2",
    "inttuple",
    "grammar",
    "layout",
    "f2_inverse",
    "admissibility",
    "algebra",
    "tiling",
    "swizzle",
    "composed",
    "notation",
    "tensor",
    "tuples",
)


def _modules() -> dict[str, Path]:
    mods = {}
    for p in PACKAGE.rglob("*.py"):
        parts = list(p.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        mods[".".join(parts)] = p
    return mods


def _resolve(module: str, is_pkg: bool, level: int, target: str | None) -> str:
    if level == 0:
        return target or ""
    base = module.split(".") if is_pkg else module.split(".")[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join(base + ([target] if target else []))


def import_graph() -> tuple[dict[str, set[str]], list[str]]:
    """(module -> the package modules it imports, ['file:line name from module' for private imports])."""
    mods = _modules()
    edges: dict[str, set[str]] = {m: set() for m in mods}
    private = []
    for m, p in mods.items():
        tree = ast.parse(p.read_text())
        is_pkg = p.name == "__init__.py"
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                tgt = _resolve(m, is_pkg, node.level, node.module)
                if not tgt.startswith(ROOT):
                    continue
                for a in node.names:
                    sub = f"{tgt}.{a.name}"
                    t = sub if sub in mods else tgt
                    if t in mods and t != m:
                        edges[m].add(t)
                    if a.name.startswith("_") and a.name != "_" and not a.name.startswith("__") and t != m:
                        private.append(f"{p.relative_to(PACKAGE.parent)}:{node.lineno} {a.name} from {t}")
            elif isinstance(node, ast.Import):
                for a in node.names:
                    if a.name in mods and a.name != m:
                        edges[m].add(a.name)
    return edges, private


def layer_of(module: str) -> tuple[int, int]:
    """(layer, position inside core) of a module; the package root is (-1, 0)."""
    parts = module.split(".")
    if len(parts) == 1:
        return (-1, 0)
    layer = LAYERS[parts[1]]
    pos = CORE_ORDER.index(parts[2]) if parts[1] == "core" and len(parts) > 2 else (-1 if parts[1] == "core" else 0)
    return (layer, pos)


def upward_imports(edges: dict[str, set[str]]) -> list[str]:
    """Every import from a module to a module of a higher layer (or later in core's order)."""
    bad = []
    for m, ts in edges.items():
        if m == ROOT:
            continue
        lm = layer_of(m)
        for t in ts:
            lt = layer_of(t)
            if t == ROOT or lt[0] > lm[0] or (lt[0] == lm[0] == 1 and lm[1] >= 0 and lt[1] > lm[1]):
                bad.append(f"{m} -> {t}")
    return sorted(bad)


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), the package root left out."""
    graph = {m: {t for t in ts if t != ROOT} for m, ts in edges.items() if m != ROOT}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def swizzle_vocabularies() -> list[str]:
    """Enum classes whose name mentions Swizzle, as 'file:line Name'."""
    found = []
    for p in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(p.read_text())):
            if isinstance(node, ast.ClassDef) and "swizzle" in node.name.lower():
                if any(getattr(b, "id", getattr(b, "attr", "")).endswith("Enum") for b in node.bases):
                    found.append(f"{p.relative_to(PACKAGE.parent)}:{node.lineno} {node.name}")
    return found


# -- the package ---------------------------------------------------------------------------


def test_every_module_belongs_to_a_layer() -> None:
    for m in _modules():
        parts = m.split(".")
        assert len(parts) == 1 or parts[1] in LAYERS, f"{m} is in no layer of LAYERS"
        if len(parts) > 2 and parts[1] == "core":
            assert parts[2] in CORE_ORDER, f"{m} is missing from CORE_ORDER"


def test_imports_go_one_way() -> None:
    edges, _ = import_graph()
    assert upward_imports(edges) == []


def test_no_import_cycles() -> None:
    edges, _ = import_graph()
    assert cycles(edges) == []


def test_no_private_names_cross_modules() -> None:
    _, private = import_graph()
    assert private == []


def test_one_swizzle_vocabulary() -> None:
    assert len(swizzle_vocabularies()) == 1, swizzle_vocabularies()


# -- the checkers find what they look for -------------------------------------------------


def test_checkers_find_planted_faults() -> None:
    planted = {
        "pycute_layouts.core.layout": {"pycute_layouts.core.algebra"},  # later in core's order
        "pycute_layouts.core.algebra": {"pycute_layouts.core.layout"},
        "pycute_layouts.arch.wgmma": {"pycute_layouts.proofs.theorem"},  # upward across layers
        "pycute_layouts.proofs.theorem": {"pycute_layouts.arch.wgmma", "pycute_layouts"},
    }
    assert upward_imports(planted) == [
        "pycute_layouts.arch.wgmma -> pycute_layouts.proofs.theorem",
        "pycute_layouts.core.layout -> pycute_layouts.core.algebra",
        "pycute_layouts.proofs.theorem -> pycute_layouts",
    ]
    assert sorted(cycles(planted)) == [
        ["pycute_layouts.arch.wgmma", "pycute_layouts.proofs.theorem"],
        ["pycute_layouts.core.algebra", "pycute_layouts.core.layout"],
    ]


def test_function_level_imports_are_seen() -> None:
    src = "def f():\n    from ..proofs import theorem\n    from .layout import _hidden\n"
    tree = ast.parse(src)
    found = [n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    assert [(n.level, n.module) for n in found] == [(2, "proofs"), (1, "layout")]
    assert _resolve("pycute_layouts.core.algebra", False, 2, "proofs") == "pycute_layouts.proofs"
    assert _resolve("pycute_layouts.core", True, 1, "layout") == "pycute_layouts.core.layout"
