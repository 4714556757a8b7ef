"""Hostile input for every public function and every CLI subcommand: only LayoutError escapes, fast.

Every callable in the ``__all__`` of every public module (and the public methods of one valid
instance of each public class) is called with argument lists drawn by hypothesis from a pool of
hostile values -- wrong types, NaN/inf, huge and negative numbers, deep nesting, odd sympy
values, malformed notation, huge layouts -- mixed with valid ones so that the calls get past the
first check. A call passes when it returns or raises a ``LayoutError`` subclass, within a time
bound and a memory bound (the address-space limit is lowered around each call, so a call that
tries to allocate gigabytes fails here instead of freezing the machine). The CLI is driven the
same way through ``cli.main(argv)`` with hostile argument lists and hostile files; it must return
0, 1 or 2 and never print a traceback.

Budgets are fixed (the ``ci`` hypothesis profile with ``max_examples`` set per test below).
"""

from __future__ import annotations

import contextlib
import enum
import importlib
import inspect
import io
import json
import math
import os
import resource
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pycute_layouts import LayoutError
from pycute_layouts.cli import main as cli_main

#: Public modules whose ``__all__`` is fuzzed.
MODULES = [
    "pycute_layouts",
    "pycute_layouts.limits",
    "pycute_layouts.core.symbols",
    "pycute_layouts.core.inttuple",
    "pycute_layouts.arch.swizzle_modes",
    "pycute_layouts.arch.smem_desc",
    "pycute_layouts.arch.wgmma",
    "pycute_layouts.arch.umma",
    "pycute_layouts.arch.tma",
    "pycute_layouts.arch.im2col",
    "pycute_layouts.arch.shfl",
    "pycute_layouts.arch.atoms",
    "pycute_layouts.analysis",
    "pycute_layouts.proofs",
    "pycute_layouts.codegen",
    "pycute_layouts.render",
    "pycute_layouts.hwcheck",
    "pycute_layouts.interop.triton",
    "pycute_layouts.interop.cute_dsl",
]

#: Seconds one call may take (calls whose valid defaults do real work get more).
TIME_BOUND_S = 3.0
SLOW_CALLS = {"report": 60.0, "emit": 30.0, "prove_tma_matches_wgmma": 20.0, "main": 30.0}

#: Extra address space one call may take (bytes).
MEMORY_BOUND = 3 << 30

EXAMPLES_PER_FUNCTION = 15

#: Keyword arguments passed to every call of a function whose defaults do minutes of valid work (a whole
#: report); each slot still gets every hostile value (the slot's own value replaces the default here).
SMALL_WORK = {"report": {"archs": ("sm90",), "modes": ("128B",), "majors": ("K",), "element_bits": (16,)}}


class Hang(BaseException):
    """Raised by the alarm inside a call that ran past its time bound (a BaseException, so that
    no ``except Exception`` in the library swallows it)."""


def _deep(n: int) -> Any:
    t: Any = 2
    for _ in range(n):
        t = (t,)
    return t


def hostile_values() -> list[Any]:
    """The pool: hostile values first, then a few valid ones to get deeper into each function."""
    import sympy

    from pycute_layouts import Layout

    pool: list[Any] = [
        None, True, "", "x", "(8,4):(4,", "9" * 5000 + ":1", "(" * 1000 + "1" + ")" * 1000, b"\xff\xfe",
        1.5, float("nan"), float("inf"), -1, 0, 2**64, 10**12, -(2**63),
        (), (2, None), (0,), (-4, 8), (2**40, 2**40), _deep(700), [4, 8], {}, {"R0": "x"},
        np.array([2, 3]), np.int64(4), np.float64(2.0), sympy.Symbol("x"), sympy.nan, sympy.Rational(1, 2),
        object(), print,
    ]
    for make in (
        lambda: Layout(10**10, 1),
        lambda: Layout((10**4, 10**4), (1, 10**4)),
        lambda: Layout((2**30, 16), (64, 1)),
        lambda: Layout(_deep(600), _deep(600)),
    ):
        try:
            pool.append(make())
        except LayoutError:
            pass
    pool += [Layout(10**9, 1), (2**20, 2**20), (2**20, 2**20, 2**10), 2**20, -(2**20), 10**6]
    return pool


def valid_values() -> list[Any]:
    from pycute_layouts import Layout, Swizzle, parse

    return [Layout((8, 4), (4, 1)), Layout((8, 64), (64, 1)), parse("Sw<3,4,3> o 0 o (8,64):(64,1)"),
            Swizzle(3, 4, 3), 16, 8, 64, (64, 64), (128, 64), "K", "MN", "128B", "bf16", "sm90", 0x4000]


HOSTILE = hostile_values()
POOL = HOSTILE + valid_values()


def valid_for(param: str) -> Any:
    """A plausible valid argument for a parameter of this name (so that a sweep reaches past it)."""
    from pycute_layouts import Layout, SwizzledSmemLayout, parse

    name = param.lower().strip("_")
    table = [
        (("major",), "K"),
        (("element_bits", "bits", "elem_bits", "old_bits", "new_bits"), 16),
        (("swizzle", "mode", "tma_mode", "sw"), "128B"),
        (("dtype", "data_type", "a_type", "b_type"), "bf16"),
        (("arch",), "sm90"),
        (("tile", "smem", "smem_layout"), SwizzledSmemLayout.from_composed(parse("Sw<3,4,3> o 0 o (8,64):(64,1)"), 16)
         if hasattr(SwizzledSmemLayout, "from_composed") else Layout((8, 64), (64, 1))),
        (("layout", "a", "b", "block", "tiler", "l", "layout_a", "layout_b", "src", "dst"), Layout((8, 64), (64, 1))),
        (("shape", "domain", "domain_shape", "box", "box_dim", "trg_shape", "global_dim", "dims"), (8, 64)),
        (("text", "s", "notation"), "(8,64):(64,1)"),
        (("path", "outdir", "directory", "file", "spec"), "out"),
        (("tensor_data_type",), "bfloat16"),
        (("global_strides",), (8192,)),
        (("pixel_box_lower_corner", "pixel_box_upper_corner"), (0,)),
        (("pixel_box_lower_corner_width", "pixel_box_upper_corner_width", "global_address"), 0),
    ]
    for names, value in table:
        if name in names:
            return value
    return 16


def sweep_calls(fn: Callable) -> list[tuple[tuple, dict]]:
    """Every hostile value in every parameter slot, the other required slots valid by name."""
    req, names, kwonly = signature_slots(fn)
    base = [valid_for(n) for n in names[:req]]
    kwbase = required_keywords(fn)
    calls: list[tuple[tuple, dict]] = []
    for i in range(req):
        for h in HOSTILE:
            args = list(base)
            args[i] = h
            calls.append((tuple(args), dict(kwbase)))
    later = [x for x in names[req:] if not x.startswith("*")][:6]
    for n in later + [k for k in kwonly if k in kwbase] + [k for k in kwonly if k not in kwbase][:4]:
        for h in HOSTILE:
            calls.append((tuple(base), {**kwbase, n: h}))
    return calls


def _public_callables() -> list[tuple[str, str, Callable]]:
    out = []
    seen: set[int] = set()
    for modname in MODULES:
        try:
            mod = importlib.import_module(modname)
        except ModuleNotFoundError:
            continue
        for name in getattr(mod, "__all__", ()):
            obj = getattr(mod, name, None)
            if not callable(obj) or id(obj) in seen:
                continue
            if inspect.isclass(obj) and issubclass(obj, BaseException):
                continue
            seen.add(id(obj))
            out.append((modname, name, obj))
    return out


CALLABLES = _public_callables()


def _load_slack() -> float:
    """How much longer than on an idle CPU a call may take here: the run-queue length per usable CPU
    (1-minute load average), at least 1 -- so the wall-clock bounds catch hangs, not a busy machine
    (pytest-xdist workers and other jobs share the CPUs)."""
    try:
        cpus = len(os.sched_getaffinity(0))
        return max(1.0, min(10.0, os.getloadavg()[0] / max(1, cpus)))
    except (AttributeError, OSError):
        return 1.0


@contextlib.contextmanager
def bounded(seconds: float):
    """Run the body with an alarm after ``seconds`` and the address space capped."""

    wall_s = seconds * _load_slack()

    def _alarm(signum: int, frame: Any) -> None:
        raise Hang(f"still running after {wall_s:.1f} s (bound {seconds} s on an idle CPU)")

    old_handler = signal.signal(signal.SIGALRM, _alarm)
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    used = _address_space()
    cap = used + MEMORY_BOUND
    if hard == resource.RLIM_INFINITY or cap < hard:
        resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    signal.setitimer(signal.ITIMER_REAL, wall_s)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old_handler)
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def _address_space() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 0  # pragma: no cover - not Linux


def outcome(fn: Callable, args: tuple, seconds: float, kwargs: dict | None = None) -> str | None:
    """None when ``fn(*args, **kwargs)`` returned or raised a LayoutError in time; otherwise what escaped."""
    try:
        with bounded(seconds):
            result = fn(*args, **(kwargs or {}))
            if inspect.isgenerator(result):
                for _ in zip(range(100), result):
                    pass
    except LayoutError:
        return None
    except Hang as e:
        return f"hang: {e}"
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as e:  # noqa: BLE001 - the point of the test is to see anything that escapes
        return f"{type(e).__name__}: {str(e)[:160]}"
    return None


def _describe(fn_name: str, args: tuple, kwargs: dict | None = None) -> str:
    def short(a: Any) -> str:
        r = repr(a)
        return r if len(r) <= 60 else r[:57] + "..."

    parts = [short(a) for a in args] + [f"{k}={short(v)}" for k, v in (kwargs or {}).items()]
    return f"{fn_name}({', '.join(parts)})"


def signature_slots(fn: Callable) -> tuple[int, list[str], list[str]]:
    """(required positional count, positional-or-keyword names in order, keyword-only names) of ``fn``.

    The fuzz passes hostile *values* in the places the signature gives them; a wrong number of
    arguments is a call that cannot be written, not input.
    """
    if inspect.isclass(fn) and issubclass(fn, enum.Enum):
        return 1, ["value"], []  # Enum(value) looks a member up; Enum(name, names, ...) is the functional API
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return 1, ["a0", "a1", "a2"], []
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    req = sum(1 for p in positional if p.default is p.empty)
    names = [p.name for p in positional]
    if any(p.kind == p.VAR_POSITIONAL for p in params):
        names += [f"*{k}" for k in range(3)]
    kwonly = [p.name for p in params if p.kind == p.KEYWORD_ONLY]
    return req, names, kwonly


def required_keywords(fn: Callable) -> dict[str, Any]:
    """Valid values (by name) for the keyword-only parameters without a default (every call passes them),
    plus the SMALL_WORK defaults of the function."""
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return {}
    req = {p.name: valid_for(p.name) for p in params if p.kind == p.KEYWORD_ONLY and p.default is p.empty}
    return {**SMALL_WORK.get(getattr(fn, "__name__", ""), {}), **req}


def call_strategy(fn: Callable) -> st.SearchStrategy:
    """Positional arguments within the signature's range plus up to two later parameters by keyword."""
    req, names, kwonly = signature_slots(fn)
    index = st.integers(0, len(POOL) - 1)
    most = min(max(len(names), req), req + 3)

    def with_keywords(n: int) -> st.SearchStrategy:
        later = [x for x in names[n:] if not x.startswith("*")] + kwonly
        kw = st.dictionaries(st.sampled_from(later), index, max_size=2) if later else st.just({})
        return st.tuples(st.lists(index, min_size=n, max_size=n), kw)

    return st.integers(req, most).flatmap(with_keywords)


def fuzz(label: str, fn: Callable, seconds: float) -> list[str]:
    """Run ``fn`` on the drawn calls; the failures, described."""
    failures: list[str] = []

    @settings(max_examples=EXAMPLES_PER_FUNCTION, database=None)
    @given(call_strategy(fn))
    def run(call: tuple[list[int], dict[str, int]]) -> None:
        idx, kw = call
        args = tuple(POOL[i] for i in idx)
        filled = set(signature_slots(fn)[1][:len(args)])
        kwargs = {k: v for k, v in required_keywords(fn).items() if k not in filled}
        kwargs.update({k: POOL[i] for k, i in kw.items()})
        bad = outcome(fn, args, seconds, kwargs)
        if bad:
            failures.append(f"{_describe(label, args, kwargs)} -> {bad}")

    run()
    for args, kwargs in sweep_calls(fn):
        bad = outcome(fn, args, seconds, kwargs)
        if bad:
            failures.append(f"{_describe(label, args, kwargs)} -> {bad}")
    return sorted(set(failures))


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # functions that write files write them here


@pytest.mark.parametrize("modname,name,fn", CALLABLES, ids=[f"{m.split('.')[-1]}.{n}" for m, n, _ in CALLABLES])
def test_public_function_answers_hostile_input(modname: str, name: str, fn: Callable) -> None:
    failures = fuzz(name, fn, SLOW_CALLS.get(name, TIME_BOUND_S))
    assert not failures, f"{modname}.{name}:\n" + "\n".join(failures[:10])


# -- methods of valid instances -------------------------------------------------------------


def _instances() -> list[tuple[str, Any]]:
    from pycute_layouts import Layout, Swizzle, SwizzledSmemLayout, XorSwizzle, parse, tile_to_shape
    from pycute_layouts.arch import wgmma

    atom = wgmma.smem_atom("K", "32B", 16)
    tile = SwizzledSmemLayout(atom.swizzle, tile_to_shape(atom.layout, (64, 16)), 16)
    made = [
        ("Layout", Layout((8, 4), (4, 1))),
        ("ComposedLayout", parse("Sw<3,4,3> o 0 o (8,64):(64,1)")),
        ("Swizzle", Swizzle(3, 4, 3)),
        ("XorSwizzle", XorSwizzle([(7, 4), (8, 5)])),
        ("SwizzledSmemLayout", tile),
        ("SmemDescriptor", wgmma.make_smem_desc(tile, "K", 16)),
    ]
    return made


INSTANCES = _instances()
METHODS = [
    (cls, meth)
    for cls, obj in INSTANCES
    for meth in sorted(dir(obj))
    if not meth.startswith("_") and callable(getattr(obj, meth, None)) and not inspect.isclass(getattr(obj, meth))
]


@pytest.mark.parametrize("cls,meth", METHODS, ids=[f"{c}.{m}" for c, m in METHODS])
def test_public_method_answers_hostile_input(cls: str, meth: str) -> None:
    failures = fuzz(f"{cls}.{meth}", getattr(dict(INSTANCES)[cls], meth), TIME_BOUND_S)
    assert not failures, "\n".join(failures[:10])


# -- the command line -------------------------------------------------------------------------

HOSTILE_ARGS = ["0", "-1", "x", "", "1e9", "999999999999999999999", "0x", "nan", "128x0", "0x64", "64,0",
                "(10000000000):(1)", "(10000,10000):(1,10000)", "(" * 1000, "K", "128B", "bf16", "e2m1", "16",
                "64", "128x64", "sm90"]


def _hostile_files(root: Path) -> list[str]:
    (root / "bin").write_bytes(b"\x00\xff\xfe\x80" * 64)
    (root / "latin1.json").write_bytes('{"a": "\xe9"}'.encode("latin-1"))
    (root / "deep.json").write_text("[" * 5000 + "]" * 5000)
    (root / "deep.toml").write_text("a = " + "[" * 5000 + "]" * 5000 + "\n")
    (root / "empty.json").write_text("")
    (root / "list.json").write_text(json.dumps([1, 2, 3]))
    (root / "dir").mkdir(exist_ok=True)
    return [str(root / n) for n in ("bin", "latin1.json", "deep.json", "deep.toml", "empty.json", "list.json", "dir",
                                    "missing.json", "bin/sub")]


def _subcommands() -> dict[str, list[str]]:
    from pycute_layouts.cli.main import build_parser

    parser = build_parser()
    subs: dict[str, list[str]] = {}
    for action in parser._actions:  # argparse keeps its sub-parsers here
        choices = getattr(action, "choices", None)
        if isinstance(choices, dict):
            for name, sub in choices.items():
                subs[name] = [o for a in sub._actions for o in a.option_strings if o not in ("-h", "--help")]
    return subs


SUBCOMMANDS = _subcommands()


def run_cli(argv: list[str], seconds: float = 30.0) -> tuple[int | str, str]:
    """(exit code or what escaped, stderr) of ``pycute-layouts argv`` run in-process."""
    out, err = io.StringIO(), io.StringIO()
    try:
        with bounded(seconds), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = cli_main(argv)
    except Hang as e:
        return f"hang: {e}", err.getvalue()
    except SystemExit as e:
        return (e.code if isinstance(e.code, int) else 2), err.getvalue()
    except BaseException as e:  # noqa: BLE001
        return f"{type(e).__name__}: {str(e)[:160]}", err.getvalue()
    return rc, err.getvalue()


REPO = Path(__file__).resolve().parents[1]
SPEC = """kernel = "gemm"
arch = "sm90"
[A]
tile = "128x64"
dtype = "bf16"
major = "K"
swizzle = "128B"
stages = 2
"""

#: One valid invocation per subcommand; the fuzz mutates it (replaces words, adds flags).
BASES = {
    "show": ["(8,4):(4,1)"],
    "desc": ["--major", "K", "--swizzle", "128B", "--dtype", "bf16", "--tile", "128x64"],
    "tma": ["--dtype", "bf16", "--global-dim", "4096,4096", "--global-strides", "8192", "--box-dim", "64,128",
            "--swizzle", "128B"],
    "codegen": ["SPEC"],
    "analyze": ["banks", "(8,64):(64,1)", "--pattern", "ldmatrix.x4"],
    "shfl": ["BFLY", "1", "0x1f"],
    "hwcheck": ["--verify", str(REPO / "examples/hardware/results/hwcheck-h100-2026-11-21-r2.json")],
    "prove": ["--pairing", "128B", "K", "16", "sm90"],
    "convert": ["S<3,4,3> o 0 o (8,64):(64,1)", "--from", "dsl", "--to", "gluon", "--shape", "8,64", "-e", "16"],
}


@pytest.mark.parametrize("command", sorted(SUBCOMMANDS))
def test_cli_answers_hostile_arguments(command: str, tmp_path: Path) -> None:
    files = _hostile_files(tmp_path)
    (tmp_path / "spec.toml").write_text(SPEC)
    base = [str(tmp_path / "spec.toml") if w == "SPEC" else w for w in BASES.get(command, [])]
    flags = SUBCOMMANDS[command] or ["--help"]
    values = HOSTILE_ARGS + files
    failures: list[str] = []

    @settings(max_examples=30, database=None)
    @given(st.lists(st.tuples(st.integers(0, max(len(base) - 1, 0)), st.sampled_from(values)), max_size=2),
           st.lists(st.tuples(st.sampled_from(flags), st.sampled_from(values)), max_size=2))
    def run(replace: list[tuple[int, str]], extra: list[tuple[str, str]]) -> None:
        argv = list(base)
        for pos, value in replace:
            if argv:
                argv[pos] = value
        for flag, value in extra:
            argv += [flag, value]
        rc, err = run_cli([command, *argv])
        if rc not in (0, 1, 2) or "Traceback" in err:
            failures.append(f"{[command, *argv]!r} -> {rc}: {err.strip()[:200]}")

    run()
    assert not failures, "\n".join(sorted(set(failures))[:10])


def test_harness_sees_escapes_and_hangs() -> None:
    def leaks(x: Any) -> None:
        raise TypeError("bare")

    def spins(x: Any) -> None:
        while True:
            pass

    assert outcome(leaks, (1,), 1.0) == "TypeError: bare"
    assert outcome(spins, (1,), 0.2).startswith("hang")
    assert outcome(lambda n: np.zeros(n, dtype=np.int64), (MEMORY_BOUND,), 5.0).startswith("MemoryError")
    assert outcome(lambda: math.sqrt(4), (), 1.0) is None
    assert os.getcwd() != str(Path(__file__).parent)
    assert sys.getrecursionlimit() >= 1000
