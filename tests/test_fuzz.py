"""Hostile input for every public function and every CLI subcommand: only LayoutError escapes, fast.

Every callable in the ``__all__`` of every public module (and every public method of one valid
instance of each public class) is called with argument lists drawn by hypothesis from a pool of
hostile values -- wrong types, NaN/inf, huge and negative numbers, integers past Python's
4,300-digit string limit, long and deep tuples, numpy arrays where strings, bools and ints belong,
odd sympy values, malformed notation, huge layouts, and the library's own objects where they do
not belong (tensors, basis and F2 strides, identity and composed layouts, atoms, tiled MMAs) --
mixed with valid ones so that the calls get past the first check; then every hostile value is put
in every parameter slot in turn (the sweep). A call passes when it returns or raises a
``LayoutError`` subclass, within a time bound and a memory bound (the address-space limit is
lowered around each call, so a call that tries to allocate gigabytes fails here instead of
freezing the machine). The CLI is driven the same way through ``cli.main(argv)`` with hostile
argument lists and files, and every layout-taking subcommand gets every layout the parser accepts;
it must return 0, 1 or 2 and never print a traceback. Property checks with exact oracles close
the file (Tensor slicing and iteration against numpy, descriptor encode/decode round trips), and
the optional matplotlib path runs where matplotlib is installed.

How the surface is found (nothing to register): every module under ``pycute_layouts`` with no
``_`` path part and an ``__all__`` (``_discover_modules``; modules elsewhere go in ``EXTRA_MODULES``);
every public class gets its methods fuzzed once an instance of it is found -- a recipe in
``_recipes``, or a value that a valid call of a public function returns; parameters get valid
values by name from ``valid_for``. ``test_every_public_class_with_methods_has_an_instance`` fails
for a new class with methods and no instance: add a recipe.

Budget (fixed, the same work on every machine and at every load): ``EXAMPLES_PER_FUNCTION`` = 15 hypothesis
examples per callable and method (derandomized), the sweep (every value of ``HOSTILE`` in every required slot
and in up to six optional ones; about 98,600 function calls and 9,600 method calls for 493 callables and 184
methods), 30 argument lists per subcommand, and the property tests' own ``max_examples``. Each distinct call is
made once (``_call_key``); a plain file name in an output-path slot of a function whose valid call does seconds
of work (``SLOW_CALLS``: every hardware check emitted, a picture) is valid input, left to that function's own
tests. Each call has ``TIME_BOUND_S`` of CPU time (``SLOW_CALLS`` for the few that do real work) -- CPU time,
not wall time, so that the verdict does not depend on the machine's load -- a wall-clock backstop for a call that
waits, and ``MEMORY_BOUND``. Its tests take about 32 s of CPU (their collection about 1.7 s per process;
measured per test with a CPU-time plugin on a 2-core machine, 2026-11-26; 76 s and 4.3 s before the budgets
were sized).
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
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pycute_layouts import LayoutError
from pycute_layouts.cli import main as cli_main

#: Public modules whose ``__all__`` is fuzzed: found by walking the package, so a new module is fuzzed as soon
#: as it is merged. A module is *registered* by being importable under ``pycute_layouts``, having no path part
#: that starts with ``_``, and defining ``__all__`` (nothing to edit here). Modules outside the package, or
#: ones imported lazily, can be added to ``EXTRA_MODULES``. A new public class gets its methods fuzzed when the
#: harness finds an instance of it (``_instances``: recipes below, else the values returned by valid calls of
#: every public function); a parameter name gets a plausible valid value from ``valid_for``.
EXTRA_MODULES: list[str] = []


def _discover_modules() -> list[str]:
    import pkgutil

    import pycute_layouts

    names = ["pycute_layouts"]
    for info in pkgutil.walk_packages(pycute_layouts.__path__, "pycute_layouts."):
        if any(part.startswith("_") for part in info.name.split(".")):
            continue
        try:
            mod = importlib.import_module(info.name)
        except ImportError:  # an optional dependency's module
            continue
        if hasattr(mod, "__all__"):
            names.append(info.name)
    return names + [m for m in EXTRA_MODULES if m not in names]


MODULES = _discover_modules()

#: Seconds one call may take (calls whose valid defaults do real work get more).
TIME_BOUND_S = 3.0
SLOW_CALLS = {"report": 60.0, "emit": 120.0, "prove_tma_matches_wgmma": 20.0, "main": 30.0, "to_png": 30.0}

#: Extra address space one call may take (bytes).
MEMORY_BOUND = 3 << 30

EXAMPLES_PER_FUNCTION = 15

#: Keyword arguments passed to every call of a function whose defaults do minutes of valid work (a whole
#: report); each slot still gets every hostile value (the slot's own value replaces the default here).
SMALL_WORK = {"report": {"archs": ("sm90",), "modes": ("128B",), "majors": ("K",), "element_bits": (16,)}}

#: Valid values by parameter name for functions whose valid call draws a picture: a small layout, so that every
#: accepted option draws 8 cells, not 512 (what is checked is the answer to hostile input, not the drawing).
SMALL_VALID = {"to_png": {"layout": (2, 4)}, "to_svg": {"layout": (2, 4)}, "to_tikz": {"layout": (2, 4)}}

#: Parameters that name a file or directory to write. For a function in ``SLOW_CALLS`` (its valid call does
#: seconds of work: every hardware check emitted, a whole picture), a plain writable name ("x", "K", "(8,4):(4,",
#: ...) is valid input, not hostile: that call is left to the function's own tests (tests/test_hwcheck*.py emit
#: into a directory, test_png_path_errors_are_one_layout_error writes a PNG); every other value is still put there.
PATH_PARAMS = {"path", "outdir", "out_dir", "out", "directory", "file", "dest", "filename"}


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
    pool += HUGE + LONG + ARRAYS + library_objects()
    return pool


#: Integers past Python's 4,300-digit ``str`` limit (a message that formats them fails), alone and as leaves.
HUGE: list[Any] = [10**5000, -(10**5000), (10**5000, 2), [2, (4, 10**5000)], 2**64 - 1]
#: Long tuples (work proportional to their length) and numpy arrays where strings, bools and ints belong.
LONG: list[Any] = [tuple(range(1, 5001)), (1,) * 5000, (2,) * 70]
ARRAYS: list[Any] = [np.array(["x", "y"]), np.array(True), np.array([[1, 2], [3, 4]]), np.array(2**40), np.zeros(0)]


def library_objects() -> list[Any]:
    """The library's own objects, each where it does not belong: tensors, basis and F2 strides, composed and
    identity layouts, atoms, descriptors. Every public class the harness can make an instance of is here too
    (``INSTANCES`` below), so a new class becomes a hostile value once it is merged."""
    made: list[Any] = []
    for make in (
        lambda: importlib.import_module("pycute_layouts").make_identity_tensor((4, 8)),
        lambda: importlib.import_module("pycute_layouts").make_identity_tensor(2**30),
        lambda: importlib.import_module("pycute_layouts").make_tensor(np.arange(32), importlib.import_module(
            "pycute_layouts").Layout(4, 1)),
        lambda: importlib.import_module("pycute_layouts.core.basis").E(1),
        lambda: importlib.import_module("pycute_layouts.core.basis").E(0) * 10**5000,
        lambda: importlib.import_module("pycute_layouts.core.f2").F2(9),
        lambda: importlib.import_module("pycute_layouts").Layout("(4,8):(1@0,1@1)"),
        lambda: importlib.import_module("pycute_layouts").Layout("(4,8):(1@0,1@99999999999)"),
        lambda: importlib.import_module("pycute_layouts").Layout("(8,8):(F1,F9)"),
        lambda: importlib.import_module("pycute_layouts").parse("Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)"),
        lambda: importlib.import_module("pycute_layouts.arch.atoms").mma_atom("SM90_64x16x16_F32BF16BF16_SS"),
        lambda: importlib.import_module("pycute_layouts.arch.atoms").copy_atom("SM75_U32x4_LDSM_N"),
        lambda: importlib.import_module("pycute_layouts.arch.atoms").make_tiled_mma("SM80_16x8x16_F32BF16BF16F32_TN",
                                                                                     (2, 2, 1)),
        lambda: importlib.import_module("pycute_layouts").parse("Sw<3,3,3> o 0 o (8,64):(64,1)"),
        lambda: importlib.import_module("pycute_layouts").Swizzle(3, 4, 3),
        lambda: importlib.import_module("pycute_layouts").Layout,
    ):
        try:
            made.append(make())
        except Exception:  # noqa: BLE001 - a recipe a later change broke only shrinks the pool
            pass
    return made


def valid_values() -> list[Any]:
    from pycute_layouts import Layout, Swizzle, parse

    return [Layout((8, 4), (4, 1)), Layout((8, 64), (64, 1)), parse("Sw<3,4,3> o 0 o (8,64):(64,1)"),
            Swizzle(3, 4, 3), 16, 8, 64, (64, 64), (128, 64), "K", "MN", "128B", "bf16", "sm90", 0x4000]


SPEC = """kernel = "gemm"
arch = "sm90"
[A]
tile = "128x64"
dtype = "bf16"
major = "K"
swizzle = "128B"
stages = 2
"""


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


def _valid_for_fn(fn: Callable, param: str) -> Any:
    small = SMALL_VALID.get(getattr(fn, "__name__", ""), {}).get(param)
    if small is not None:
        from pycute_layouts import Layout

        return Layout(small)
    return valid_for(param)


def _plain_name(v: Any) -> bool:
    return type(v) is str and 0 < len(v) < 200 and v.isprintable() and "/" not in v and v not in (".", "..")


def _call_key(fn: Callable, args: tuple, kwargs: dict) -> tuple | None:
    """What makes two calls of ``fn`` the same call: the same values (by identity) in the same slots. None for a
    call that is valid work, not hostile input: a plain file name in a ``PATH_PARAMS`` slot of a ``SLOW_CALLS``
    function."""
    names = signature_slots(fn)[1]
    slow = getattr(fn, "__name__", "") in SLOW_CALLS
    named = [(names[i] if i < len(names) else "", a) for i, a in enumerate(args)] + list(kwargs.items())
    if slow and any(n in PATH_PARAMS and _plain_name(v) for n, v in named):
        return None
    pos = tuple((type(a).__name__, id(a)) for a in args)
    return pos, tuple(sorted((k, (type(v).__name__, id(v))) for k, v in kwargs.items()))


def sweep_calls(fn: Callable) -> list[tuple[tuple, dict]]:
    """Every hostile value in every parameter slot, the other required slots valid by name."""
    req, names, kwonly = signature_slots(fn)
    base = [_valid_for_fn(fn, n) for n in names[:req]]
    kwbase = required_keywords(fn)
    calls: list[tuple[tuple, dict]] = []
    for i in range(req):
        for h in HOSTILE:
            args = list(base)
            args[i] = h
            calls.append((tuple(args), dict(kwbase)))
    later = [x for x in names[req:] if not x.startswith("*")][:6]
    small = SMALL_WORK.get(getattr(fn, "__name__", ""), {})
    for n in later + [k for k in kwonly if k in kwbase] + [k for k in kwonly if k not in kwbase][:4]:
        for h in HOSTILE:
            if h is None and n in small:
                continue  # None selects the default: the whole report (minutes of valid work), not hostile input
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
            if type(obj).__module__ == "typing":  # a type alias (typing.Literal[...]) in __all__, not a function
                continue
            seen.add(id(obj))
            out.append((modname, name, obj))
    return out


CALLABLES = _public_callables()


#: A call that blocks without using the CPU (a lock, a pipe) is stopped after this many times its bound in
#: wall-clock seconds (at least ``WALL_BACKSTOP_MIN_S``); the bound itself is CPU time, see ``bounded``.
WALL_BACKSTOP_FACTOR = 20
WALL_BACKSTOP_MIN_S = 60.0


@contextlib.contextmanager
def bounded(seconds: float):
    """Run the body with ``seconds`` of CPU time (this process's user + system time) and the address space capped.

    The bound is CPU time, not wall time, so the same call gets the same budget on an idle and on a loaded
    machine (pytest-xdist workers and other jobs share the CPUs): a CI result does not depend on the load.
    A wall-clock backstop (``WALL_BACKSTOP_FACTOR`` times the bound, at least ``WALL_BACKSTOP_MIN_S``) stops a
    call that waits without computing."""

    wall_s = max(WALL_BACKSTOP_MIN_S, seconds * WALL_BACKSTOP_FACTOR)

    def _cpu_alarm(signum: int, frame: Any) -> None:
        raise Hang(f"still running after {seconds} s of CPU time")

    def _wall_alarm(signum: int, frame: Any) -> None:
        raise Hang(f"still running after {wall_s:.0f} s of wall time (bound {seconds} s of CPU time)")

    old_prof = signal.signal(signal.SIGPROF, _cpu_alarm)
    old_alrm = signal.signal(signal.SIGALRM, _wall_alarm)
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    used = _address_space()
    cap = used + MEMORY_BOUND
    if hard == resource.RLIM_INFINITY or cap < hard:
        resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    signal.setitimer(signal.ITIMER_PROF, seconds)
    signal.setitimer(signal.ITIMER_REAL, wall_s)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGPROF, old_prof)
        signal.signal(signal.SIGALRM, old_alrm)
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
        try:
            r = repr(a)
        except ValueError:  # an int past the string limit, or a value holding one
            r = f"<{type(a).__name__} holding a huge int>"
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
    """Run ``fn`` on the drawn calls (each distinct hostile call once, see ``_call_key``); the failures, described."""
    failures: list[str] = []
    seen: set[tuple] = set()
    made: list[tuple] = []  # every call's values stay alive, so no id in a key is reused

    def once(args: tuple, kwargs: dict) -> bool:
        key = _call_key(fn, args, kwargs)
        if key is None or key in seen:
            return False
        seen.add(key)
        made.append((args, kwargs))
        return True

    @settings(max_examples=EXAMPLES_PER_FUNCTION, database=None)
    @given(call_strategy(fn))
    def run(call: tuple[list[int], dict[str, int]]) -> None:
        idx, kw = call
        args = tuple(POOL[i] for i in idx)
        filled = set(signature_slots(fn)[1][:len(args)])
        kwargs = {k: v for k, v in required_keywords(fn).items() if k not in filled}
        small = SMALL_WORK.get(getattr(fn, "__name__", ""), {})
        kwargs.update({k: POOL[i] for k, i in kw.items() if not (POOL[i] is None and k in small)})
        if not once(args, kwargs):
            return
        bad = outcome(fn, args, seconds, kwargs)
        if bad:
            failures.append(f"{_describe(label, args, kwargs)} -> {bad}")

    for args, kwargs in sweep_calls(fn):
        if not once(args, kwargs):
            continue
        bad = outcome(fn, args, seconds, kwargs)
        if bad:
            failures.append(f"{_describe(label, args, kwargs)} -> {bad}")
    run()
    return sorted(set(failures))


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # functions that write files write them here


@pytest.mark.parametrize("modname,name,fn", CALLABLES, ids=[f"{m.split('.')[-1]}.{n}" for m, n, _ in CALLABLES])
def test_public_function_answers_hostile_input(modname: str, name: str, fn: Callable) -> None:
    failures = fuzz(name, fn, SLOW_CALLS.get(name, TIME_BOUND_S))
    assert not failures, f"{modname}.{name}:\n" + "\n".join(failures[:10])


# -- methods of valid instances -------------------------------------------------------------


def _recipes() -> list[Any]:
    """Valid instances made by hand (classes whose constructors need more than a valid value per name)."""
    from pycute_layouts import Layout, Swizzle, SwizzledSmemLayout, XorSwizzle, parse, tile_to_shape
    from pycute_layouts.arch import wgmma

    atom = wgmma.smem_atom("K", "32B", 16)
    tile = SwizzledSmemLayout(atom.swizzle, tile_to_shape(atom.layout, (64, 16)), 16)
    made = [Layout((8, 4), (4, 1)), parse("Sw<3,4,3> o 0 o (8,64):(64,1)"), Swizzle(3, 4, 3),
            XorSwizzle([(7, 4), (8, 5)]), tile, wgmma.make_smem_desc(tile, "K", 16)]
    for make in (
        lambda: importlib.import_module("pycute_layouts.arch.access").ldmatrix_pattern(4),
        lambda: importlib.import_module("pycute_layouts.proofs.bitvec").BitVector.coordinates((8, 64))[0],
        lambda: importlib.import_module("pycute_layouts.core.symbols").Divisible(
            importlib.import_module("pycute_layouts.core.symbols").symbols("m")[0], 16),
        lambda: importlib.import_module("pycute_layouts.arch.umma.idesc").InstrDescriptor("bf16", "bf16", "f32", 128, 256),
        lambda: importlib.import_module("pycute_layouts.codegen").load_spec(text=SPEC).operands[0],
        lambda: importlib.import_module("pycute_layouts.arch.shfl").shfl("BFLY", 1, 0x1F),
        lambda: importlib.import_module("pycute_layouts.arch.shfl").parse_program("FADD Rx, Rx, Rx")[0],
        lambda: importlib.import_module("pycute_layouts.codegen").load_spec(text=SPEC),
        lambda: importlib.import_module("pycute_layouts.codegen").load_spec(text=SPEC).operands[0].dtype,
        lambda: importlib.import_module("pycute_layouts.codegen").kernel_constants(
            importlib.import_module("pycute_layouts.codegen").load_spec(text=SPEC)),
        lambda: importlib.import_module("pycute_layouts.codegen").kernel_constants(
            importlib.import_module("pycute_layouts.codegen").load_spec(text=SPEC)).operands[0],
        lambda: importlib.import_module("pycute_layouts.codegen").kernel_violations(
            importlib.import_module("pycute_layouts.codegen").parse_spec(
                {"kernel": "k", "arch": "sm90", "A": {"tile": "128x64", "dtype": "bf16", "major": "K", "swizzle": "128B",
                                                      "stages": 4},
                 "B": {"tile": "256x64", "dtype": "bf16", "major": "K", "swizzle": "128B", "stages": 4}}))[0],
        lambda: importlib.import_module("pycute_layouts.analysis").bank_conflicts(
            importlib.import_module("pycute_layouts").Layout((8, 64), (64, 1)),
            importlib.import_module("pycute_layouts.analysis").ldmatrix_pattern(4), element_bits=16),
        lambda: importlib.import_module("pycute_layouts.analysis").conflict_free_swizzles(
            importlib.import_module("pycute_layouts").Layout((8, 32), (32, 1)),
            importlib.import_module("pycute_layouts.analysis").ldmatrix_pattern(4), element_bits=16)[0],
        lambda: importlib.import_module("pycute_layouts.arch.im2col").im2col_load(
            coords=(0, 2, 0), offsets=(1,), global_dim=(8, 4, 2), pixel_box_lower_corner=(-1,),
            pixel_box_upper_corner=(-1,), channels_per_pixel=8, pixels_per_column=4),
        lambda: importlib.import_module("pycute_layouts.arch.im2col").interleave_info("NC/8DHWC8", (12, 3, 2, 2, 1), 2),
        lambda: importlib.import_module("pycute_layouts.arch.wgmma").SM90_RULES,
        lambda: importlib.import_module("pycute_layouts.proofs").pairing("128B", "K", 16),
        lambda: importlib.import_module("pycute_layouts").equivalent(
            importlib.import_module("pycute_layouts").Layout((8, 64), (64, 1)), lambda i, j: 64 * i + j, (8, 64)),
        lambda: importlib.import_module("pycute_layouts").equivalent(
            importlib.import_module("pycute_layouts").Layout((8, 64), (64, 1)), lambda i, j: 64 * i + j + 1, (8, 64)),
        lambda: importlib.import_module("pycute_layouts.proofs").prove_tma_matches_wgmma(
            "128B", "K", 16, faults=importlib.import_module("pycute_layouts.proofs").Faults(sbo_bytes=512)),
        lambda: importlib.import_module("pycute_layouts.render").picture(
            importlib.import_module("pycute_layouts").Layout((4, 8))),
        lambda: next(iter(importlib.import_module("pycute_layouts.arch.tma").RULES.values())),
        lambda: importlib.import_module("pycute_layouts.proofs").report(**SMALL_WORK["report"]).rows[0],
        lambda: importlib.import_module("pycute_layouts.arch.tma").TiledTensorMap(
            tensor_data_type="FLOAT16", global_dim=(12, 8), global_strides=(24,), box_dim=(12, 4)).violations()[0],
        lambda: importlib.import_module("pycute_layouts.arch.tma").plan_tma_load(
            "Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)", "(64,64):(64,1)"),
        lambda: importlib.import_module("pycute_layouts.arch.tma").plan_tma_load(
            "Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)", "(64,64):(64,1)").copies[0],
        lambda: importlib.import_module("pycute_layouts.analysis.coalescing").global_access(
            importlib.import_module("pycute_layouts").Layout(32, 1), element_bytes=2, base_byte_address=96),
        lambda: importlib.import_module("pycute_layouts.analysis.coalescing").global_access(
            importlib.import_module("pycute_layouts").Layout(32, 1), element_bytes=2).requests[0],
        lambda: importlib.import_module("pycute_layouts.analysis.coalescing").group_bank_conflicts(
            importlib.import_module("pycute_layouts").Layout((8, 4), (4, 1)), element_bytes=4, group_threads=8),
        lambda: importlib.import_module("pycute_layouts.analysis.coalescing").group_bank_conflicts(
            importlib.import_module("pycute_layouts").Layout((8, 4), (4, 1)), element_bytes=4, group_threads=8).groups[0],
        lambda: importlib.import_module("pycute_layouts.codegen.checks").KernelViolation("equal_k", "..."),
    ):
        try:
            made.append(make())
        except Exception:  # noqa: BLE001 - a recipe a later change broke leaves its class unlisted
            pass
    return made + library_objects()


def _public_classes() -> list[type]:
    return [obj for _, _, obj in CALLABLES if inspect.isclass(obj) and not issubclass(obj, enum.Enum)]


def _harvest(classes: list[type]) -> dict[type, Any]:
    """One instance of each public class: the recipes, then whatever valid calls of the public functions return
    (and the values inside returned tuples, lists and dicts, one level down)."""
    found: dict[type, Any] = {}

    def offer(v: Any, depth: int = 0) -> None:
        for c in classes:
            if c not in found and type(v) is c:
                found[c] = v
        if depth == 0 and isinstance(v, (tuple, list)):
            for e in v[:8]:
                offer(e, 1)
        elif depth == 0 and isinstance(v, dict):
            for e in list(v.values())[:8]:
                offer(e, 1)

    for v in _recipes():
        offer(v)
    import tempfile

    here = os.getcwd()
    with tempfile.TemporaryDirectory() as tmp, contextlib.redirect_stdout(io.StringIO()), \
            contextlib.redirect_stderr(io.StringIO()):
        os.chdir(tmp)  # valid calls that write files write them here
        try:
            for _, name, fn in CALLABLES:
                if all(c in found for c in classes):
                    break
                if name in SLOW_CALLS:
                    continue  # seconds of valid work (every hardware check emitted, ...); no class is found only there
                req, names, _ = signature_slots(fn)
                args = tuple(valid_for(n) for n in names[:req])
                try:
                    with bounded(2.0):
                        offer(fn(*args, **required_keywords(fn)))
                except BaseException as e:  # noqa: BLE001 - a call that fails offers nothing
                    if isinstance(e, KeyboardInterrupt):
                        raise
        finally:
            os.chdir(here)
    return found


def _attribute(obj: Any, name: str) -> Any:
    try:
        return getattr(obj, name)
    except Exception:  # noqa: BLE001 - a property that raises is reported by test_public_attributes
        return None


INSTANCES_BY_CLASS = _harvest(_public_classes())
INSTANCES = [(c.__name__, obj) for c, obj in INSTANCES_BY_CLASS.items()]
#: Public classes of which no instance was found (their methods are not fuzzed; listed by test_instances_found).
UNINSTANTIATED = sorted(c.__qualname__ for c in _public_classes() if c not in INSTANCES_BY_CLASS)


def _own_method(obj: Any, name: str) -> bool:
    """A public method the library defines (not one inherited unchanged from tuple, dict, int, Enum ...)."""
    if name.startswith("_") or not callable(_attribute(obj, name)) or inspect.isclass(_attribute(obj, name)):
        return False
    for klass in type(obj).__mro__:
        if name in vars(klass):
            return (klass.__module__ or "").startswith("pycute_layouts")
    return False


METHODS = [(cls, meth) for cls, obj in INSTANCES for meth in sorted(dir(obj)) if _own_method(obj, meth)]


@pytest.mark.parametrize("cls,meth", METHODS, ids=[f"{c}.{m}" for c, m in METHODS])
def test_public_method_answers_hostile_input(cls: str, meth: str) -> None:
    failures = fuzz(f"{cls}.{meth}", getattr(dict(INSTANCES)[cls], meth), TIME_BOUND_S)
    assert not failures, "\n".join(failures[:10])


# -- the command line -------------------------------------------------------------------------

#: Layouts the parser accepts that are not plain offset layouts: every subcommand must answer or refuse them.
PARSED_LAYOUTS = ["(4,8):(1@0,1@1)", "(8,8):(F1,F9)", "(4,8):(1@0,1@99999999999)", "((2,2),4):((1@0,1@1),1@2)",
                  "Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)", "Sw<3,3,3> o 0 o (8,64):(64,1)",
                  "(8,m):(m,1)", "9" * 70 + ":1"]

HOSTILE_ARGS = ["0", "-1", "x", "", "1e9", "999999999999999999999", "0x", "nan", "128x0", "0x64", "64,0",
                "(10000000000):(1)", "(10000,10000):(1,10000)", "(" * 1000, "K", "128B", "bf16", "e2m1", "16",
                "64", "128x64", "sm90", "9" * 5000] + PARSED_LAYOUTS


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

#: One valid invocation per subcommand; the fuzz mutates it (replaces words, adds flags).
BASES = {
    "show": ["(8,4):(4,1)"],
    "desc": ["--major", "K", "--swizzle", "128B", "--dtype", "bf16", "--tile", "128x64"],
    "tma": ["--dtype", "bf16", "--global-dim", "4096,4096", "--global-strides", "8192", "--box-dim", "64,128",
            "--swizzle", "128B"],
    "codegen": ["SPEC"],
    "analyze": ["banks", "(8,64):(64,1)", "--pattern", "ldmatrix.x4"],
    "shfl": ["BFLY", "1", "0x1f"],
    "hwcheck": ["--verify", "SMALL_RESULTS"],
    "prove": ["--pairing", "128B", "K", "16", "sm90"],
    "convert": ["S<3,4,3> o 0 o (8,64):(64,1)", "--from", "dsl", "--to", "gluon", "--shape", "8,64", "-e", "16"],
}

#: Every layout-taking invocation; each PARSED_LAYOUTS entry replaces LAYOUT (test_cli_takes_every_parsed_layout).
LAYOUT_COMMANDS = [
    ["show", "LAYOUT"], ["show", "LAYOUT", "--json"], ["show", "LAYOUT", "--svg", "out.svg"],
    ["show", "LAYOUT", "--tikz", "out.tex"], ["analyze", "explain", "LAYOUT"], ["analyze", "explain", "LAYOUT", "-e", "16"],
    ["analyze", "banks", "LAYOUT", "--pattern", "ldmatrix.x4"], ["analyze", "search", "LAYOUT", "--pattern", "ldmatrix.x4"],
    ["analyze", "linear", "LAYOUT"],
    ["tma", "--plan", "LAYOUT", "--dtype", "bf16", "--global", "(64,64):(64,1)"],
    ["tma", "--plan", "Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)", "--dtype", "bf16", "--global", "LAYOUT"],
]


@pytest.mark.parametrize("command", sorted(SUBCOMMANDS))
def test_cli_answers_hostile_arguments(command: str, tmp_path: Path) -> None:
    files = _hostile_files(tmp_path)
    (tmp_path / "spec.toml").write_text(SPEC)
    base = [str(tmp_path / "spec.toml") if w == "SPEC" else w for w in BASES.get(command, [])]
    if "SMALL_RESULTS" in base:
        # a valid result file of the committed run cut to 24 cases: the arguments are what is fuzzed here, a
        # whole file's verification (seconds) is tests/test_hwcheck*.py's job
        full = json.loads((REPO / "examples/hardware/results/hwcheck-h100-2026-11-21-r2.json").read_text())
        (tmp_path / "small.json").write_text(json.dumps({**full, "cases": full["cases"][::len(full["cases"]) // 24][:24]}))
        base = [str(tmp_path / "small.json") if w == "SMALL_RESULTS" else w for w in base]
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
    assert outcome(lambda: time.sleep(0.3), (), 0.1) is None        # the bound is CPU time: waiting is not charged
    assert outcome(lambda n: np.zeros(n, dtype=np.int64), (MEMORY_BOUND,), 5.0).startswith("MemoryError")
    assert outcome(lambda: math.sqrt(4), (), 1.0) is None
    assert os.getcwd() != str(Path(__file__).parent)
    assert sys.getrecursionlimit() >= 1000


@pytest.mark.parametrize("words", LAYOUT_COMMANDS, ids=[" ".join(w[:2]) + (" " + w[-1] if w[-1] != "LAYOUT" else "")
                                                         for w in LAYOUT_COMMANDS])
def test_cli_takes_every_parsed_layout(words: list[str]) -> None:
    """Every layout-taking subcommand answers or refuses in one line (exit 0/1/2) every layout the parser
    accepts: basis strides, F2 strides, an out-of-range basis index, symbols, huge literals."""
    failures = []
    for text in PARSED_LAYOUTS:
        argv = [text if w == "LAYOUT" else w for w in words]
        rc, err = run_cli(argv, 20.0)
        if rc not in (0, 1, 2) or "Traceback" in err or rc == 2 and len(err.strip().splitlines()) != 1:
            failures.append(f"{argv!r} -> {rc}: {err.strip()[:200]}")
    assert not failures, "\n".join(failures)


def test_cli_main_requires_a_list_of_strings() -> None:
    for argv in (True, np.array([2, 3]), "show", [1, 2], ("show", None)):
        with pytest.raises(LayoutError, match="argv must be None or a list of strings"):
            cli_main(argv)


# -- every public class is exercised -------------------------------------------------------


def test_every_public_class_with_methods_has_an_instance() -> None:
    """A public class whose methods the harness cannot reach needs a recipe in ``_recipes`` (or a public
    function whose valid call returns one)."""
    missing = [c.__qualname__ for c in _public_classes() if c not in INSTANCES_BY_CLASS
               and any(not n.startswith("_") and callable(getattr(c, n, None)) and n in vars(c) for n in dir(c))]
    assert not missing, f"no instance of {missing}: add a recipe to tests/test_fuzz.py::_recipes"


def test_public_attributes_answer() -> None:
    """Every public property of every instance answers (no AttributeError/TypeError from a stored field)."""
    failures = []
    for cls, obj in INSTANCES:
        for name in dir(obj):
            if name.startswith("_") or not isinstance(getattr(type(obj), name, None), property):
                continue
            bad = outcome(lambda o=obj, n=name: getattr(o, n), (), TIME_BOUND_S)
            if bad:
                failures.append(f"{cls}.{name} -> {bad}")
    assert not failures, "\n".join(failures)


# -- property checks with exact oracles ----------------------------------------------------


@settings(max_examples=60, database=None, deadline=None)
@given(st.integers(1, 6), st.integers(1, 6), st.integers(0, 3), st.integers(0, 3), st.integers(0, 3),
       st.sampled_from([np.int16, np.int32, np.float64]))
def test_tensor_slicing_and_iteration_match_numpy(m: int, n: int, d0: int, d1: int, off: int, dtype: Any) -> None:
    """A rank-2 data tensor against numpy's strided view of the same engine: every element, every row and column
    slice, and iteration (CuTe's order: over the layout's domain, column-major, never the engine)."""
    from pycute_layouts import Layout, Tensor, _

    stride = (d0 or 1, (d0 or 1) * m + d1)  # injective: the column stride passes the whole column
    size = off + (m - 1) * stride[0] + (n - 1) * stride[1] + 1
    engine = (np.arange(size) * 3 + 1).astype(dtype)
    T = Tensor(engine, Layout((m, n), stride), off)
    item = engine.dtype.itemsize
    view = np.lib.stride_tricks.as_strided(engine[off:], shape=(m, n), strides=(stride[0] * item, stride[1] * item))
    assert [T(i, j) for j in range(n) for i in range(m)] == view.flatten(order="F").tolist()
    assert list(T) == view.flatten(order="F").tolist()
    for j in range(n):
        assert T(_, j).to_numpy().tolist() == view[:, j].tolist()
        assert list(T(_, j)) == view[:, j].tolist()
    for i in range(m):
        assert T(i, _).to_numpy().tolist() == view[i, :].tolist()


@settings(max_examples=40, database=None, deadline=None)
@given(st.integers(1, 5), st.integers(1, 5))
def test_identity_tensor_iterates_its_coordinates(m: int, n: int) -> None:
    from pycute_layouts import make_identity_tensor

    assert list(make_identity_tensor((m, n))) == [(i, j) for j in range(n) for i in range(m)]


def _legal_instr_descriptors() -> Any:
    """Every legal tcgen05 instruction descriptor over all type/kind combinations, every M, every N multiple of 8,
    both CTA groups and the .ws variant; then every flag combination at one legal shape of each type combination."""
    import itertools

    from pycute_layouts.arch.umma.idesc import InstrDescriptor

    types = ("f16", "bf16", "tf32", "e4m3", "e5m2", "e2m3", "e3m2", "e2m1", "s8", "u8")
    for a, b, d, sf in itertools.product(types, types, ("f16", "f32", "s32"), (None, "ue4m3", "ue8m0")):
        kinds = ("mxf8f6f4", "mxf4", "mxf4nvf4") if sf and a == b == "e2m1" else (None,)
        for kind in kinds:
            base = None
            for m, cta in ((128, 1), (256, 2), (128, 2), (64, 1)):
                try:
                    base = InstrDescriptor(a, b, d, m, 64, sf_type=sf, kind=kind, cta_group=cta)
                    break
                except LayoutError:
                    pass
            if base is None:
                continue
            for m, n, cta, ws in itertools.product((32, 64, 128, 256), range(8, 257, 8), (1, 2), (False, True)):
                try:
                    yield InstrDescriptor(a, b, d, m, n, sf_type=sf, kind=kind, cta_group=cta, ws=ws)
                except LayoutError:
                    pass
            for am, bm, neg, sat, sparse, shift, ids in itertools.product(
                    ("K", "MN"), ("K", "MN"), (False, True), (False, True), (False, True), (0, 8, 16, 32),
                    ((0, 0), (2, 1), (3, 3)) if sf else ((0, 0),)):
                try:
                    yield InstrDescriptor(a, b, d, base.m, base.n, a_major=am, b_major=bm, negate_a=neg, negate_b=neg,
                                          saturate=sat, sparse=sparse, max_shift=shift, sf_type=sf, sf_id_a=ids[0],
                                          sf_id_b=ids[1], kind=kind, cta_group=base.cta_group)
                except LayoutError:
                    pass


def test_instr_descriptor_round_trips_over_every_legal_descriptor() -> None:
    """decode(encode(d)) == d (encode's postcondition) for every descriptor the enumeration finds legal."""
    from pycute_layouts.arch.umma.idesc import InstrDescriptor

    count = 0
    for d in _legal_instr_descriptors():
        count += 1
        value = d.encode()
        assert 0 <= value < 1 << 32
        assert InstrDescriptor.decode(value, d.block_scaled, kind=d.kind) == d, d
    assert count > 5000


@settings(max_examples=200, database=None, deadline=None)
@given(st.integers(0, (1 << 18) - 16).map(lambda a: a // 16 * 16), st.integers(0, 1023).map(lambda x: x * 16),
       st.integers(0, 1023).map(lambda x: x * 16), st.sampled_from(["none", "32B", "64B", "128B"]), st.integers(0, 7))
def test_smem_descriptor_round_trips(start: int, lbo: int, sbo: int, mode: str, base_offset: int) -> None:
    """SmemDescriptor / UmmaSmemDescriptor: decode(encode(d)) == d for every constructible field set drawn."""
    from pycute_layouts.arch.umma import UmmaSmemDescriptor
    from pycute_layouts.arch.wgmma import SmemDescriptor

    for cls in (SmemDescriptor, UmmaSmemDescriptor):
        try:
            d = cls(start, lbo, sbo, mode, base_offset=base_offset)
        except LayoutError:
            continue
        assert cls.decode(d.encode()) == d


# -- the optional dependency: matplotlib -----------------------------------------------------


def test_png_path_errors_are_one_layout_error(tmp_path: Path) -> None:
    """to_png with matplotlib installed (CI installs it once): a valid file, and every unwritable name
    (300 characters, a missing directory, a directory, a path through a file) one LayoutError."""
    pytest.importorskip("matplotlib")
    from pycute_layouts import Layout
    from pycute_layouts.render import to_png

    good = tmp_path / "ok.png"
    assert to_png(Layout((4, 8)), good) == str(good) and good.read_bytes()[:4] == b"\x89PNG"
    (tmp_path / "file").write_text("x")
    for bad in ("a" * 300 + ".png", str(tmp_path / "missing" / "x.png"), str(tmp_path), str(tmp_path / "file" / "x.png")):
        with pytest.raises(LayoutError, match="to_png: (cannot write|expected a file path)"):
            to_png(Layout((4, 8)), bad)
