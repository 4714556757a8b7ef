"""Differential-testing oracles: NVIDIA's ``pycute`` and CuTe C++ compiled for the host.

Both oracles come from the ``nvidia-cutlass`` wheel (``.ci/fetch-oracles`` downloads and unpacks it
into ``<repo>/.oracle/cutlass``).  Both are optional: tests that need them must *skip* with a clear
reason when they are absent (see :func:`skip_without_pycute` and :func:`skip_without_cxx`).

Python oracle
    :func:`load_pycute` imports NVIDIA's ``pycute`` package under the isolated module name
    ``_pycute_oracle_nvidia`` (nothing called ``pycute`` is put in :data:`sys.modules`).

C++ oracle
    :class:`CuteBatch` collects many C++ expressions, writes ONE translation unit that prints every
    result between unique markers, compiles it once with ``g++`` against ``cute/tensor.hpp``, runs it
    and returns one string per expression.  Expressions that do not compile (CuTe rejects an
    inadmissible input with a ``static_assert``) or that crash at run time are isolated and reported
    per expression as :class:`CompileError` / :class:`RunError` values, without poisoning the rest of
    the batch.  Results are cached on disk, keyed by a hash of the generated source.

Notation helpers
    :func:`layout_cxx` turns a Python ``(shape, stride)`` pair of nested int tuples into the static
    C++ type text (``Layout<Shape<_4,_8>,Stride<_1,_4>>{}``); :func:`normalize` turns CuTe's printed
    output (``(_4,_8):(_1,_4)``, ``Sw<3,4,3> o _0 o (_8,_64):(_64,_1)``) and pycute's printed output
    (``(4, 8):(1, 4)``, ``(4,):(1,)``) into one notation (``(4,8):(1,4)``, ``(4):(1)``);
    :func:`parse_layout` / :func:`parse_int_tuple` / :func:`parse_values` read it back.

Host notes
    CuTe needs the CUDA toolkit's *headers* only (``cuda_runtime_api.h`` and CCCL); nothing links to
    CUDA.  ``cute/atom/mma_traits_sm90_gmma.hpp`` (``make_gmma_desc``) compiles for the host with the
    same flags (pass it in ``extra_includes``); on the host ``cast_smem_ptr_to_uint`` prints
    ``ERROR: cast_smem_ptr_to_uint not supported but used.`` and yields 0, so a descriptor's start
    address is 0.  That line lands in :attr:`CuteBatch.stray`, not in the value.

Environment variables
    ``PYCUTE_ORACLE_DIR``          unpacked wheel directory(ies), searched first (``os.pathsep``-separated)
    ``CUTE_ORACLE_CXX``            C++ compiler (default: ``g++`` on ``PATH``)
    ``CUTE_ORACLE_CUDA_INCLUDE``   CUDA/CCCL include dirs (``os.pathsep``-separated) instead of the search
    ``CUTE_ORACLE_CACHE``          result-cache directory (default: outside the clone, in the user's cache,
                                   ``$XDG_CACHE_HOME/pycute_layouts/oracle`` or ``~/.cache/pycute_layouts/oracle``,
                                   so a second clone, a CI run and a developer's second run on the same machine
                                   are warm; set it to ``<repo>/.oracle/cache`` to keep the cache in the clone)
    ``CUTE_ORACLE_JOBS``           parallel compiles per batch (default: the CPUs this process may use)
    ``CUTE_ORACLE_DISABLE``        set to ``1`` to pretend the C++ oracle is absent
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, Literal

__all__ = [
    "REPO_ROOT",
    "BatchStats",
    "CompileError",
    "CuteBatch",
    "HarnessError",
    "IntTuple",
    "OracleError",
    "OracleUnavailable",
    "Result",
    "RunError",
    "composed_cxx",
    "cuda_include_dirs",
    "cute_eval",
    "cute_headers",
    "cxx_skip_reason",
    "find_cxx",
    "have_cxx",
    "int_tuple_cxx",
    "layout_cxx",
    "load_pycute",
    "normalize",
    "oracle_cache_dir",
    "oracle_roots",
    "parse_composed",
    "parse_int_tuple",
    "parse_layout",
    "parse_values",
    "pycute_dir",
    "pycute_skip_reason",
    "skip_without_cxx",
    "skip_without_pycute",
    "static_int_cxx",
    "swizzle_cxx",
]

#: Root of the repository (``tests/..``).
REPO_ROOT: Path = Path(__file__).resolve().parents[1]

#: Bumped whenever the generated source or the cached-result format changes.
_HARNESS_VERSION = "1"

#: Name under which NVIDIA's pycute is imported (never ``pycute``, so nothing is shadowed).
_PYCUTE_MODULE_NAME = "_pycute_oracle_nvidia"

#: Relative location of the CuTe headers inside the unpacked ``nvidia-cutlass`` wheel.
_HEADERS_REL = Path("cutlass_library") / "source" / "include"

#: A nested tuple of ints, as used for shapes, strides and coordinates.
IntTuple = int | tuple["IntTuple", ...]


# --------------------------------------------------------------------------------------------------
# Locating the unpacked wheel
# --------------------------------------------------------------------------------------------------


def oracle_roots() -> list[Path]:
    """Candidate unpacked-wheel directories, in search order.

    ``$PYCUTE_ORACLE_DIR`` (``os.pathsep``-separated), then ``<repo>/.oracle/cutlass``, then
    ``/tmp/oracle/cutlass``.  Directories that do not exist are still listed; callers check contents.
    """
    roots: list[Path] = []
    env = os.environ.get("PYCUTE_ORACLE_DIR", "")
    roots += [Path(p).expanduser() for p in env.split(os.pathsep) if p.strip()]
    roots += [REPO_ROOT / ".oracle" / "cutlass", Path("/tmp/oracle/cutlass")]
    return roots


def pycute_dir() -> Path | None:
    """The first oracle root that contains NVIDIA's ``pycute/__init__.py`` (or ``None``)."""
    for root in oracle_roots():
        if (root / "pycute" / "__init__.py").is_file():
            return root
    return None


def cute_headers() -> Path | None:
    """The include directory holding ``cute/tensor.hpp`` from the first oracle root that has it."""
    for root in oracle_roots():
        inc = root / _HEADERS_REL
        if (inc / "cute" / "tensor.hpp").is_file():
            return inc.resolve()
    return None


# --------------------------------------------------------------------------------------------------
# Python oracle: NVIDIA pycute
# --------------------------------------------------------------------------------------------------

_pycute_failure: str | None = None


@functools.cache
def load_pycute() -> ModuleType | None:
    """Import NVIDIA's ``pycute`` under the isolated name ``_pycute_oracle_nvidia``; ``None`` if absent.

    The package is loaded straight from the unpacked wheel with :mod:`importlib` (nothing is
    installed).  Its ``__init__`` does ``from .layout import *`` etc.; the relative imports resolve
    to ``_pycute_oracle_nvidia.layout`` and friends, so no module named ``pycute`` (or ``typing``,
    which pycute also has) is ever shadowed.  Use :func:`pycute_skip_reason` for the reason of a
    ``None``.
    """
    global _pycute_failure
    root = pycute_dir()
    if root is None:
        _pycute_failure = (
            "NVIDIA pycute oracle not found (run .ci/fetch-oracles, or set PYCUTE_ORACLE_DIR); searched: "
            + ", ".join(str(r) for r in oracle_roots())
        )
        return None
    if _PYCUTE_MODULE_NAME in sys.modules:
        return sys.modules[_PYCUTE_MODULE_NAME]
    pkg = root / "pycute"
    spec = importlib.util.spec_from_file_location(
        _PYCUTE_MODULE_NAME, pkg / "__init__.py", submodule_search_locations=[str(pkg)]
    )
    if spec is None or spec.loader is None:
        _pycute_failure = f"cannot build an import spec for {pkg}"
        return None
    module = importlib.util.module_from_spec(spec)
    sys.modules[_PYCUTE_MODULE_NAME] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:  # noqa: BLE001 - any import failure just means "oracle unavailable"
        for name in [
            n for n in sys.modules if n == _PYCUTE_MODULE_NAME or n.startswith(_PYCUTE_MODULE_NAME + ".")
        ]:
            del sys.modules[name]
        _pycute_failure = f"importing NVIDIA pycute from {pkg} failed: {exc!r}"
        return None
    return module


def pycute_skip_reason() -> str | None:
    """Why the pycute oracle is unavailable, or ``None`` when :func:`load_pycute` succeeds."""
    if load_pycute() is not None:
        return None
    return _pycute_failure or "NVIDIA pycute oracle unavailable"


def skip_without_pycute() -> ModuleType:
    """Return the pycute oracle module, or ``pytest.skip`` the calling test with the reason."""
    module = load_pycute()
    if module is None:
        import pytest

        pytest.skip(pycute_skip_reason() or "NVIDIA pycute oracle unavailable")
    return module


# --------------------------------------------------------------------------------------------------
# C++ oracle: toolchain discovery
# --------------------------------------------------------------------------------------------------


def find_cxx() -> str | None:
    """The C++ compiler to use: ``$CUTE_ORACLE_CXX`` or ``g++`` on ``PATH`` (``None`` if missing)."""
    env = os.environ.get("CUTE_ORACLE_CXX")
    if env:
        return shutil.which(env) or (env if Path(env).is_file() else None)
    return shutil.which("g++")


def cuda_include_dirs() -> list[Path] | None:
    """Include directories that provide ``cuda_runtime_api.h`` and CCCL's ``cuda/std`` headers.

    CuTe's host code needs both (``cute/util/debug.hpp`` includes ``<cuda_runtime_api.h>``).  CUDA 13
    keeps CCCL in ``<cuda>/include/cccl``; CUDA 12 keeps it directly in ``<cuda>/include``.  Searched:
    ``$CUTE_ORACLE_CUDA_INCLUDE`` (used as given), ``$CUDA_HOME``, ``$CUDA_PATH``, ``/usr/local/cuda``,
    ``/usr/local/cuda-*``, ``/opt/cuda``.
    """
    env = os.environ.get("CUTE_ORACLE_CUDA_INCLUDE")
    if env:
        dirs = [Path(p) for p in env.split(os.pathsep) if p.strip()]
        return dirs if _has_cuda_headers(dirs) else None
    bases: list[Path] = []
    for var in ("CUDA_HOME", "CUDA_PATH"):
        if os.environ.get(var):
            bases.append(Path(os.environ[var]))
    bases.append(Path("/usr/local/cuda"))
    bases += sorted(Path("/usr/local").glob("cuda-*"), reverse=True)
    bases.append(Path("/opt/cuda"))
    for base in bases:
        inc = base / "include"
        dirs = [inc] + ([inc / "cccl"] if (inc / "cccl").is_dir() else [])
        if _has_cuda_headers(dirs):
            return [d.resolve() for d in dirs]
    return None


def _has_cuda_headers(dirs: Sequence[Path]) -> bool:
    """Whether ``dirs`` together provide ``cuda_runtime_api.h`` and ``cuda/std/cstdint``."""
    runtime = any((d / "cuda_runtime_api.h").is_file() for d in dirs)
    cccl = any((d / "cuda" / "std" / "cstdint").is_file() for d in dirs)
    return runtime and cccl


@functools.cache
def _cxx_version(cxx: str) -> str:
    """First line of ``cxx --version`` (part of every cache key)."""
    try:
        out = subprocess.run([cxx, "--version"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return out.splitlines()[0].strip() if out else "unknown"


def _c_locale() -> dict[str, str]:
    """The environment with ``LC_ALL=C``, so compiler messages use plain ASCII quotes."""
    return {**os.environ, "LC_ALL": "C", "LANG": "C"}


def _base_flags(cxx: str) -> list[str]:
    """Compiler flags shared by every oracle compile (``-w`` hides CUDA's deprecation noise)."""
    flags = ["-std=c++17", "-O0", "-w"]
    if "clang" not in _cxx_version(cxx).lower():
        flags.append("-fdiagnostics-plain-output")
    return flags


def _toolchain() -> tuple[str, list[str]] | str:
    """``(cxx, include_flags)``, or a string saying what is missing."""
    if os.environ.get("CUTE_ORACLE_DISABLE", "").strip() not in ("", "0"):
        return "CuTe C++ oracle disabled by CUTE_ORACLE_DISABLE"
    cxx = find_cxx()
    if cxx is None:
        return "CuTe C++ oracle unavailable: no g++ on PATH (or $CUTE_ORACLE_CXX)"
    headers = cute_headers()
    if headers is None:
        return (
            "CuTe C++ oracle unavailable: cute/tensor.hpp not found (run .ci/fetch-oracles, or set "
            "PYCUTE_ORACLE_DIR); searched: " + ", ".join(str(r) for r in oracle_roots())
        )
    cuda = cuda_include_dirs()
    if cuda is None:
        return (
            "CuTe C++ oracle unavailable: no CUDA include dir with cuda_runtime_api.h and CCCL "
            "(cuda/std) found; set CUTE_ORACLE_CUDA_INCLUDE"
        )
    return cxx, [f"-I{d}" for d in cuda] + [f"-I{headers}"]


_CHECK_SOURCE = """\
#include <cute/tensor.hpp>
#include <iostream>
int main() {
  using namespace cute;
  std::cout << coalesce(Layout<Shape<_2,_4>,Stride<_1,_2>>{}) << std::endl;
  return 0;
}
"""
_CHECK_EXPECTED = "_8:_1"


@functools.cache
def cxx_skip_reason() -> str | None:
    """Why the CuTe C++ oracle is unusable, or ``None`` when a tiny CuTe program compiles and runs.

    The verdict is cached in-process, and a *success* is also cached on disk (in the temp dir, keyed
    by compiler, header and CUDA paths and the header's mtime) so later test sessions skip the check.
    """
    tool = _toolchain()
    if isinstance(tool, str):
        return tool
    cxx, includes = tool
    headers = cute_headers()
    assert headers is not None
    stamp = _header_version(headers)
    key = _sha([_HARNESS_VERSION, cxx, _cxx_version(cxx), includes, stamp])
    marker = Path(tempfile.gettempdir()) / f"pycute_oracle_cxxcheck_{key[:24]}.ok"
    if marker.is_file():
        return None
    with tempfile.TemporaryDirectory(prefix="pycute_oracle_check_") as tmp:
        src = Path(tmp) / "check.cpp"
        src.write_text(_CHECK_SOURCE)
        exe = Path(tmp) / "check"
        cmd = [cxx, *_base_flags(cxx), *includes, str(src), "-o", str(exe)]
        try:
            comp = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=_c_locale())
        except (OSError, subprocess.SubprocessError) as exc:
            return f"CuTe C++ oracle unavailable: running {cxx} failed: {exc!r}"
        if comp.returncode != 0:
            first = _first_error(comp.stderr) or comp.stderr.strip()[-500:]
            return f"CuTe C++ oracle unavailable: a tiny CuTe program does not compile: {first}"
        try:
            run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
        except (OSError, subprocess.SubprocessError) as exc:
            return f"CuTe C++ oracle unavailable: running the check program failed: {exc!r}"
        if run.returncode != 0 or run.stdout.strip() != _CHECK_EXPECTED:
            return f"CuTe C++ oracle unavailable: check program printed {run.stdout.strip()!r}"
    _atomic_write(marker, "ok\n")
    return None


def have_cxx() -> bool:
    """Whether the CuTe C++ oracle works: g++, CUDA/CCCL and CuTe headers found, and CuTe compiles."""
    return cxx_skip_reason() is None


def skip_without_cxx() -> None:
    """``pytest.skip`` the calling test (with the reason) unless :func:`have_cxx`."""
    reason = cxx_skip_reason()
    if reason is not None:
        import pytest

        pytest.skip(reason)


# --------------------------------------------------------------------------------------------------
# Errors and results
# --------------------------------------------------------------------------------------------------


class OracleError(Exception):
    """Base class of the per-expression failures returned (not raised) by :meth:`CuteBatch.run`."""

    def __init__(self, expr: str, message: str, log: str = "") -> None:
        super().__init__(f"{message}  [expr: {expr}]")
        #: The C++ expression that failed.
        self.expr = expr
        #: The most relevant line: the first ``error:`` text, or the run-time failure.
        self.message = message
        #: The full diagnostic block / program output for this expression.
        self.log = log

    def __eq__(self, other: object) -> bool:
        """Equal when of the same class, for the same expression, with the same message."""
        if not isinstance(other, OracleError):
            return NotImplemented
        return (type(self), self.expr, self.message) == (type(other), other.expr, other.message)

    def __hash__(self) -> int:
        """Hash consistent with :meth:`__eq__`."""
        return hash((type(self).__name__, self.expr, self.message))

    def __reduce__(self) -> tuple[object, ...]:
        """Pickle with all three fields (``Exception`` would only keep ``args``)."""
        return (type(self), (self.expr, self.message, self.log))


class CompileError(OracleError):
    """The expression does not compile (e.g. CuTe's ``static_assert`` "Stride Divisibility Condition")."""


class RunError(OracleError):
    """The expression compiled, but evaluating or printing it crashed, aborted or timed out."""


class HarnessError(RuntimeError):
    """The batch cannot be evaluated at all (e.g. the preamble or extra includes do not compile)."""


class OracleUnavailable(RuntimeError):
    """:meth:`CuteBatch.run` was called although the C++ oracle is unavailable (see the message)."""


#: What :meth:`CuteBatch.run` returns per expression.
Result = str | CompileError | RunError


@dataclass
class BatchStats:
    """Timing and cache statistics of one :meth:`CuteBatch.run`."""

    #: Number of chunks (translation units before isolation) the batch was split into.
    chunks: int = 0
    #: Chunks answered from the on-disk cache.
    cache_hits: int = 0
    #: Compiler invocations made by this run (0 with a warm cache).
    compiles: int = 0
    #: Wall time of all compiler invocations made by this run.
    compile_seconds: float = 0.0
    #: Wall time of the first compiler invocation of this run (``None`` with a warm cache).
    first_compile_seconds: float | None = None
    #: Compile seconds recorded when the cached chunks were first computed.
    cached_compile_seconds: float = 0.0
    #: Wall time spent running the compiled programs.
    run_seconds: float = 0.0
    #: Wall time of the whole :meth:`CuteBatch.run`.
    total_seconds: float = 0.0

    def describe(self) -> str:
        """One-line human summary (for printing from tests)."""
        if self.compiles:
            first = f"{self.first_compile_seconds:.2f}s" if self.first_compile_seconds is not None else "-"
            comp = f"{self.compiles} compile(s) {self.compile_seconds:.2f}s (first {first})"
        else:
            comp = "no compile"
        cached = (
            f", {self.cache_hits}/{self.chunks} chunk(s) cached"
            f" (originally {self.cached_compile_seconds:.2f}s)"
            if self.cache_hits
            else ""
        )
        return f"{comp}, run {self.run_seconds:.3f}s, total {self.total_seconds:.2f}s{cached}"


@dataclass
class _Item:
    """One expression queued in a :class:`CuteBatch`."""

    index: int
    expr: str
    setup: str
    printer: Literal["cout", "print"]


@dataclass
class _Outcome:
    """A result plus the text the expression printed outside its value markers (side effects)."""

    result: Result
    stray: str = ""


@dataclass
class _ChunkRecord:
    """What one chunk produced, as stored in the cache."""

    outcomes: dict[int, _Outcome] = field(default_factory=dict)
    compiles: int = 0
    compile_seconds: float = 0.0
    first_compile_seconds: float | None = None
    run_seconds: float = 0.0
    preamble_ok: bool = False


# --------------------------------------------------------------------------------------------------
# C++ oracle: the batch
# --------------------------------------------------------------------------------------------------

_TU_NAME = "oracle_tu.cpp"
_TU_LINE = re.compile(r"(?:^|[\s/])" + re.escape(_TU_NAME) + r":(\d+):")
_LD_FUNCTION = re.compile(r"in function [`'\u2018]oracle_expr_(\d+)\(\)")
_ERROR_LINE = re.compile(r"(?:^|:\s)(?:fatal )?error:\s*(.*)$")

_BUILTIN_PREAMBLE = r"""
// Prints layout(i) for every i in [0, size(layout)), space-separated (used by CuteBatch.add_values).
template <class Layout_>
std::string oracle_values(Layout_ const& layout) {
  std::ostringstream os;
  for (long i = 0; i < static_cast<long>(cute::size(layout)); ++i) {
    if (i != 0) { os << ' '; }
    os << layout(static_cast<int>(i));
  }
  return os.str();
}
"""


class CuteBatch:
    """Evaluate many CuTe C++ expressions with one compile (per chunk) and one run.

    Typical use::

        batch = CuteBatch()
        i = batch.add("coalesce(Layout<Shape<_2,_4>,Stride<_1,_2>>{})")
        j = batch.add("composition(Layout<Shape<_4,_6>,Stride<_1,_5>>{}, Layout<_2,_6>{})")
        k = batch.add_values(layout_cxx((4, 8), (8, 1)))
        out = batch.run()          # out[i] == "_8:_1"; out[j] is a CompileError; out[k] == "0 8 16 ..."
        normalize(out[i])          # "8:1"

    Each expression is printed with ``std::cout << (expr)`` (``printer="cout"``) or
    ``cute::print(expr)`` (``printer="print"``, for types without ``operator<<``).  ``setup`` is
    C++ statements run first in the same scope (to declare helpers the expression uses).  Every
    expression gets its own function, so names never clash.  ``using namespace cute;`` is in effect.

    With ``isolate=True`` (default) a compile error is attributed to the expression(s) whose line
    the compiler blames; those become :class:`CompileError` values and the rest is recompiled.  When
    the compiler's output blames no expression line, the chunk is bisected.  A crash or abort while
    evaluating expression ``i`` makes it a :class:`RunError`; the same binary is then re-run from
    ``i + 1`` (no recompile).  With ``isolate=False`` any compile error raises :class:`CompileError`.

    Large batches are split into chunks of at most ``chunk_size`` expressions, compiled in parallel
    on ``jobs`` threads.  The results of each chunk are cached on disk (see :func:`oracle_cache_dir`)
    under a hash of the generated source, the compiler and the header location.
    """

    def __init__(
        self,
        *,
        preamble: str = "",
        extra_includes: Sequence[str] = (),
        extra_flags: Sequence[str] = (),
        isolate: bool = True,
        chunk_size: int = 200,
        jobs: int | None = None,
        use_cache: bool = True,
        cache_dir: Path | str | None = None,
        compile_timeout: float = 600.0,
        run_timeout: float = 120.0,
    ) -> None:
        """Create an empty batch.

        :param preamble: C++ text placed after the includes and ``using namespace cute;`` (helpers,
            type aliases, ...).
        :param extra_includes: headers to ``#include <...>`` after ``cute/tensor.hpp``, e.g.
            ``"cute/atom/mma_traits_sm90_gmma.hpp"`` (host-compilable, see the module docs).
        :param extra_flags: extra compiler flags (e.g. ``-DNDEBUG``).
        :param isolate: isolate failing expressions (default) instead of raising on any error.
        :param chunk_size: maximum number of expressions per translation unit.
        :param jobs: parallel compiles (default: ``$CUTE_ORACLE_JOBS``, else the CPUs available).
        :param use_cache: read and write the on-disk result cache.
        :param cache_dir: cache directory (default :func:`oracle_cache_dir`).
        :param compile_timeout: seconds allowed per compiler invocation.
        :param run_timeout: seconds allowed per run of a compiled program.
        """
        if chunk_size < 1:
            raise ValueError("chunk_size must be >= 1")
        self.preamble = preamble
        self.extra_includes = list(extra_includes)
        self.extra_flags = list(extra_flags)
        self.isolate = isolate
        self.chunk_size = chunk_size
        self.jobs = jobs if jobs is not None else _default_jobs()
        self.use_cache = use_cache
        self.cache_dir = Path(cache_dir) if cache_dir is not None else None
        self.compile_timeout = compile_timeout
        self.run_timeout = run_timeout
        self._items: list[_Item] = []
        #: Results of the last :meth:`run`, in :meth:`add` order.
        self.results: list[Result] = []
        #: Text each expression printed as a side effect (outside its value), from the last run.
        self.stray: list[str] = []
        #: Statistics of the last :meth:`run`.
        self.stats = BatchStats()

    # ---- building ---------------------------------------------------------------------------

    def add(self, expr: str, *, setup: str = "", printer: Literal["cout", "print"] = "cout") -> int:
        """Queue a C++ expression; return its index in the list :meth:`run` returns."""
        if printer not in ("cout", "print"):
            raise ValueError(f"printer must be 'cout' or 'print', not {printer!r}")
        if not expr.strip():
            raise ValueError("empty expression")
        item = _Item(len(self._items), expr.strip(), setup, printer)
        self._items.append(item)
        return item.index

    def add_values(self, layout_expr: str, *, setup: str = "") -> int:
        """Queue ``layout(i)`` for every ``i`` in ``[0, size(layout))``; parse with :func:`parse_values`.

        Works for ``Layout`` and ``ComposedLayout`` (swizzled) expressions alike.
        """
        return self.add(f"oracle_values({layout_expr})", setup=setup)

    def extend(self, exprs: Iterable[str]) -> list[int]:
        """Queue several expressions (``printer="cout"``); return their indices."""
        return [self.add(e) for e in exprs]

    def __len__(self) -> int:
        """Number of queued expressions."""
        return len(self._items)

    @property
    def exprs(self) -> list[str]:
        """The queued expressions, in order."""
        return [it.expr for it in self._items]

    # ---- running ----------------------------------------------------------------------------

    def run(self) -> list[Result]:
        """Compile (or fetch from cache) and run everything queued; return one result per expression.

        A result is the printed ``str`` (surrounding whitespace stripped; CuTe notation, see
        :func:`normalize`), or a :class:`CompileError` / :class:`RunError` instance (returned, not
        raised).  Raises :class:`OracleUnavailable` when the C++ oracle is unusable and
        :class:`HarnessError` when the preamble / extra includes themselves do not compile.
        """
        reason = cxx_skip_reason()
        if reason is not None:
            raise OracleUnavailable(reason)
        tool = _toolchain()
        assert not isinstance(tool, str)
        self._cxx, self._includes = tool
        start = time.perf_counter()
        stats = BatchStats()
        n = len(self._items)
        n_chunks = max(1, -(-n // self.chunk_size)) if n else 0
        size = -(-n // n_chunks) if n_chunks else 0
        chunks = [self._items[k : k + size] for k in range(0, n, size)] if n else []
        stats.chunks = len(chunks)
        outcomes: dict[int, _Outcome] = {}
        if chunks:
            with ThreadPoolExecutor(max_workers=max(1, min(self.jobs, len(chunks)))) as pool:
                # first the chunks nobody else is compiling (another xdist worker may hold a lock),
                # then, waiting for those locks, the rest (usually answered by the cache by then)
                first = list(pool.map(lambda c: self._chunk(c, blocking=False), chunks))
                later = [c for c, r in zip(chunks, first) if r is None]
                done = iter(pool.map(self._chunk, later))
                records = [r if r is not None else next(done) for r in first]
            for rec, cached in records:
                outcomes.update(rec.outcomes)
                if cached:
                    stats.cache_hits += 1
                    stats.cached_compile_seconds += rec.compile_seconds
                else:
                    stats.compiles += rec.compiles
                    stats.compile_seconds += rec.compile_seconds
                    if rec.first_compile_seconds is not None and stats.first_compile_seconds is None:
                        stats.first_compile_seconds = rec.first_compile_seconds
                    stats.run_seconds += rec.run_seconds
        self.results = [outcomes[it.index].result for it in self._items]
        self.stray = [outcomes[it.index].stray for it in self._items]
        stats.total_seconds = time.perf_counter() - start
        self.stats = stats
        return self.results

    def value(self, index: int) -> str:
        """The printed result of expression ``index`` from the last :meth:`run`; raises its error."""
        result = self.results[index]
        if isinstance(result, OracleError):
            raise result
        return result

    def source(self) -> str:
        """The translation unit that :meth:`run` would compile for all queued expressions (debugging)."""
        return self._render(self._items)[0]

    # ---- internals --------------------------------------------------------------------------

    def _chunk(self, items: list[_Item], blocking: bool = True) -> tuple[_ChunkRecord, bool] | None:
        """Process one chunk, through the cache; return ``(record, was_cached)``.

        With ``blocking=False``, return ``None`` when another process is compiling this chunk now.
        """
        source = self._render(items)[0]
        key = self._cache_key(source, items)
        cache_file = (self.cache_dir or oracle_cache_dir()) / f"{key}.json" if self.use_cache else None
        if cache_file is None:
            rec = _ChunkRecord()
            rec.outcomes = self._process(items, rec)
            return rec, False
        rec = _load_record(cache_file, items)
        if rec is not None:
            return rec, True
        lock = _ChunkLock(cache_file)
        if not lock.acquire(blocking=blocking):
            return None
        try:
            rec = _load_record(cache_file, items)  # another process may have just written it
            if rec is not None:
                return rec, True
            rec = _ChunkRecord()
            try:
                rec.outcomes = self._process(items, rec)
            except (HarnessError, CompileError) as exc:
                # A broken preamble (HarnessError) or any error with isolate=False: cache the verdict too.
                _store_failure(cache_file, exc)
                raise
            _store_record(cache_file, items, rec)
            return rec, False
        finally:
            lock.release()

    def _cache_key(self, source: str, items: list[_Item]) -> str:
        """Hash of everything that determines a chunk's results."""
        headers = cute_headers()
        stamp = _header_version(headers) if headers else 0
        # the include flags without the checkout's own path (a fresh clone's .oracle is the same headers,
        # identified by ``stamp``), so a new CI checkout hits the cache
        includes = [str(x).replace(str(headers), "<cute-headers>") if headers else str(x) for x in self._includes]
        return _sha(
            [
                _HARNESS_VERSION,
                self._cxx,
                _cxx_version(self._cxx),
                _base_flags(self._cxx),
                includes,
                stamp,
                self.extra_flags,
                self.isolate,
                source,
                [(it.expr, it.setup, it.printer) for it in items],
            ]
        )

    def _render(self, items: Sequence[_Item]) -> tuple[str, list[tuple[int, int]]]:
        """Generate the translation unit; return it and each item's 1-based ``(first, last)`` lines."""
        tag = _sha([it.expr for it in items])[:10]
        lines: list[str] = [
            "// Generated by tests/oracles.py (CuteBatch). Do not edit.",
            "#include <cute/tensor.hpp>",
            *[f"#include <{inc}>" for inc in self.extra_includes],
            "#include <cstdio>",
            "#include <cstdlib>",
            "#include <iostream>",
            "#include <sstream>",
            "#include <string>",
            "using namespace cute;",
            *_BUILTIN_PREAMBLE.splitlines(),
            *self.preamble.splitlines(),
            "#define ORACLE_MARK(i, what) \\",
            f'  (std::cout << "\\n@@ORACLE{tag}:" << (i) << ":" what "@@\\n" << std::flush)',
        ]
        spans: list[tuple[int, int]] = []
        for k, it in enumerate(items):
            first = len(lines) + 1
            lines.append(f"static void oracle_expr_{k}() {{")
            lines.append(f'  ORACLE_MARK({k}, "START");')
            lines += ["  " + ln for ln in it.setup.splitlines()]
            lines.append("  auto&& oracle_v = (")
            lines += ["    " + ln for ln in it.expr.splitlines()]
            lines.append("  );")
            lines.append(f'  ORACLE_MARK({k}, "VALUE");')
            if it.printer == "cout":
                lines.append("  std::cout << oracle_v << std::flush;")
            else:
                lines.append("  cute::print(oracle_v); std::fflush(stdout);")
            lines.append(f'  ORACLE_MARK({k}, "END");')
            lines.append("}")
            spans.append((first, len(lines)))
        table = ", ".join(f"oracle_expr_{k}" for k in range(len(items)))
        lines += [
            "int main(int argc, char** argv) {",
            "  std::setvbuf(stdout, nullptr, _IOLBF, 1 << 16);  // keep output printed before a crash",
            "  using oracle_fn = void (*)();",
            f"  static oracle_fn const table[] = {{{table}{', ' if items else ''}nullptr}};",
            "  long first = argc > 1 ? std::atol(argv[1]) : 0;",
            f"  for (long i = first; i < {len(items)}; ++i) {{ table[i](); }}",
            '  ORACLE_MARK(-1, "DONE");',
            "  return 0;",
            "}",
        ]
        return "\n".join(lines) + "\n", spans

    def _process(self, items: list[_Item], rec: _ChunkRecord) -> dict[int, _Outcome]:
        """Compile and run ``items``, isolating compile and run-time failures."""
        out: dict[int, _Outcome] = {}
        pending = list(items)
        while pending:
            source, spans = self._render(pending)
            with tempfile.TemporaryDirectory(prefix="pycute_oracle_") as tmp:
                ok, log = self._compile(source, Path(tmp), rec)
                if ok:
                    out.update(self._execute(Path(tmp) / "oracle_tu", pending, source, rec))
                    return out
            if not self.isolate:
                raise CompileError(
                    f"<batch of {len(pending)}>", _first_error(log) or "compile failed", _trim(log)
                )
            blamed = _attribute(log, spans)
            if blamed:
                for k, (message, block) in blamed.items():
                    out[pending[k].index] = _Outcome(CompileError(pending[k].expr, message, block))
                pending = [it for k, it in enumerate(pending) if k not in blamed]
                continue
            self._check_preamble(rec)
            if len(pending) == 1:
                it = pending[0]
                out[it.index] = _Outcome(
                    CompileError(it.expr, _first_error(log) or "compile failed", _trim(log))
                )
                return out
            mid = len(pending) // 2
            out.update(self._process(pending[:mid], rec))
            out.update(self._process(pending[mid:], rec))
            return out
        return out

    def _compile(self, source: str, tmp: Path, rec: _ChunkRecord) -> tuple[bool, str]:
        """Compile ``source`` in ``tmp`` to ``tmp/oracle_tu``; return ``(ok, compiler output)``."""
        (tmp / _TU_NAME).write_text(source)
        cmd = [
            self._cxx,
            *_base_flags(self._cxx),
            *self.extra_flags,
            *self._includes,
            _TU_NAME,
            "-o",
            "oracle_tu",
        ]
        start = time.perf_counter()
        try:
            proc = subprocess.run(
                cmd, cwd=tmp, capture_output=True, text=True, timeout=self.compile_timeout, env=_c_locale()
            )
            ok, log = proc.returncode == 0, proc.stderr
        except subprocess.TimeoutExpired:
            ok, log = False, f"error: compiler timed out after {self.compile_timeout:.0f}s"
        elapsed = time.perf_counter() - start
        rec.compiles += 1
        rec.compile_seconds += elapsed
        if rec.first_compile_seconds is None:
            rec.first_compile_seconds = elapsed
        return ok, log

    def _check_preamble(self, rec: _ChunkRecord) -> None:
        """Raise :class:`HarnessError` if the includes / preamble alone do not compile (checked once)."""
        if rec.preamble_ok:
            return
        source, _ = self._render([])
        with tempfile.TemporaryDirectory(prefix="pycute_oracle_") as tmp:
            ok, log = self._compile(source, Path(tmp), rec)
        if not ok:
            raise HarnessError(
                "the batch preamble / extra includes do not compile: "
                f"{_first_error(log) or 'unknown error'}\n{_trim(log)}"
            )
        rec.preamble_ok = True

    def _execute(self, exe: Path, items: list[_Item], source: str, rec: _ChunkRecord) -> dict[int, _Outcome]:
        """Run the compiled chunk; re-run past any expression that crashes."""
        tag = _sha([it.expr for it in items])[:10]
        marker = re.compile(r"\n?@@ORACLE" + tag + r":(-?\d+):(START|VALUE|END|DONE)@@\n")
        out: dict[int, _Outcome] = {}
        first = 0
        while first < len(items):
            start = time.perf_counter()
            try:
                proc = subprocess.run(
                    [str(exe), str(first)],
                    cwd=exe.parent,
                    capture_output=True,
                    timeout=self.run_timeout,
                )
                stdout, stderr, rc = proc.stdout, proc.stderr, proc.returncode
                failure = f"exit status {rc}" if rc >= 0 else f"killed by signal {-rc}"
            except subprocess.TimeoutExpired as exc:
                stdout, stderr, rc = exc.stdout or b"", exc.stderr or b"", None
                failure = f"timed out after {self.run_timeout:.0f}s"
            rec.run_seconds += time.perf_counter() - start
            text = stdout.decode("utf-8", errors="replace")
            err_text = stderr.decode("utf-8", errors="replace")
            events = _parse_markers(marker, text)
            done = -1 in events and "DONE" in events[-1]
            for k in range(first, len(items)):
                ev = events.get(k, {})
                if "END" in ev:
                    out[items[k].index] = _Outcome(ev["VALUE"].strip(), stray=ev.get("START", ""))
                    continue
                # expression k started (or never got to start) and the program died there
                partial = "".join(ev.values())
                if done and rc == 0:
                    msg = "program finished without printing this expression"
                else:
                    msg = f"program {failure} while evaluating this expression"
                    if err_text.strip():
                        msg += ": " + err_text.strip().splitlines()[-1]
                out[items[k].index] = _Outcome(
                    RunError(items[k].expr, msg, (partial + "\n--- stderr ---\n" + err_text).strip()),
                    stray=ev.get("START", ""),
                )
                first = k + 1
                break
            else:
                first = len(items)
        return out


def cute_eval(exprs: Iterable[str], **kwargs: object) -> list[Result]:
    """Evaluate ``exprs`` in one :class:`CuteBatch` (``kwargs`` go to its constructor)."""
    batch = CuteBatch(**kwargs)  # type: ignore[arg-type]
    batch.extend(exprs)
    return batch.run()


def _parse_markers(marker: re.Pattern[str], text: str) -> dict[int, dict[str, str]]:
    """Split program output into ``{index: {"START": stray, "VALUE": value, "END": ""}}``.

    The text following a ``START`` marker (up to ``VALUE``) is what evaluating the expression
    printed as a side effect; the text following ``VALUE`` (up to ``END``) is the printed value.
    """
    events: dict[int, dict[str, str]] = {}
    matches = list(marker.finditer(text))
    for m, nxt in zip(matches, matches[1:] + [None], strict=True):
        k, what = int(m.group(1)), m.group(2)
        body = text[m.end() : nxt.start() if nxt is not None else len(text)]
        events.setdefault(k, {})[what] = body
    return events


def _attribute(log: str, spans: Sequence[tuple[int, int]]) -> dict[int, tuple[str, str]]:
    """Map g++ errors to expression positions: ``{k: (first error message, diagnostic block)}``.

    g++ prints an instantiation chain ending in ``oracle_tu.cpp:LINE: required from here`` *before*
    the ``error:`` line; an error in the expression itself carries its own ``oracle_tu.cpp:LINE``.
    Each error is blamed on that line (or the last translation-unit line mentioned since the previous
    error's notes); the ``note:`` lines after an error belong to it.  Errors whose line lies outside
    every expression (includes, preamble) are not blamed on anything.
    """
    blamed: dict[int, tuple[str, list[str]]] = {}
    block: list[str] = []
    last_line: int | None = None
    current: int | None = None
    in_notes = False
    linker: int | None = None
    for raw in log.splitlines():
        ld = _LD_FUNCTION.search(raw)
        if ld:
            # "ld: x.o: in function `oracle_expr_3()':" then "oracle_tu.cpp:(.text+0x1d): undefined ..."
            linker = int(ld.group(1))
            linker = linker if linker < len(spans) else None
            continue
        if linker is not None:
            if linker not in blamed:
                blamed[linker] = (raw.split("): ", 1)[-1].strip(), [raw])
            linker = None
            continue
        err = _ERROR_LINE.search(raw)
        if err:
            own = _TU_LINE.search(raw)
            line = int(own.group(1)) if own else last_line
            current = _span_of(line, spans) if line is not None else None
            block.append(raw)
            if current is not None:
                if current in blamed:
                    blamed[current][1].extend(block)
                else:
                    blamed[current] = (err.group(1).strip(), list(block))
            block, last_line, in_notes = [], None, True
            continue
        if in_notes and (": note:" in raw or raw.startswith(" ")):
            if current is not None:
                blamed[current][1].append(raw)
            continue
        in_notes = False
        block.append(raw)
        tu = _TU_LINE.search(raw)
        if tu:
            last_line = int(tu.group(1))
    return {k: (msg, _trim("\n".join(lines))) for k, (msg, lines) in blamed.items()}


def _span_of(line: int, spans: Sequence[tuple[int, int]]) -> int | None:
    """Index of the expression whose generated lines contain ``line``."""
    for k, (lo, hi) in enumerate(spans):
        if lo <= line <= hi:
            return k
    return None


def _first_error(log: str) -> str | None:
    """Text of the first ``error:`` line of a compiler log."""
    for raw in log.splitlines():
        m = _ERROR_LINE.search(raw)
        if m:
            return m.group(1).strip()
    return None


def _trim(text: str, limit: int = 6000) -> str:
    """Cap a diagnostic text at ``limit`` characters (keeping the head)."""
    return text if len(text) <= limit else text[:limit] + f"\n... [{len(text) - limit} more characters]"


# --------------------------------------------------------------------------------------------------
# On-disk cache
# --------------------------------------------------------------------------------------------------


def oracle_cache_dir() -> Path:
    """Result-cache directory: ``$CUTE_ORACLE_CACHE``, else the user's cache outside the clone
    (``$XDG_CACHE_HOME/pycute_layouts/oracle``, default ``~/.cache/pycute_layouts/oracle``), else
    ``<repo>/.oracle/cache`` (git-ignored), else tmp.

    Entries are keyed by the harness version, the compiler and its version, the flags, the include
    paths, the CuTe header version and the generated source, so one directory serves every clone and
    every branch; entries are written atomically (several pytest-xdist workers may share it).
    The first candidate that can be created and written wins.
    """
    env = os.environ.get("CUTE_ORACLE_CACHE")
    candidates = [Path(env).expanduser()] if env else []
    xdg = os.environ.get("XDG_CACHE_HOME", "").strip()
    try:
        user_cache = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".cache"
        candidates.append(user_cache / "pycute_layouts" / "oracle")
    except RuntimeError:  # no home directory
        pass
    candidates += [REPO_ROOT / ".oracle" / "cache", Path(tempfile.gettempdir()) / "pycute_oracle_cache"]
    for cand in candidates:
        try:
            cand.mkdir(parents=True, exist_ok=True)
        except OSError:
            continue
        if os.access(cand, os.W_OK):
            return cand
    raise HarnessError("no writable cache directory for the CuTe oracle")


def _default_jobs() -> int:
    """Parallel compiles per batch: ``$CUTE_ORACLE_JOBS``, else the CPUs this process may run on."""
    env = os.environ.get("CUTE_ORACLE_JOBS", "").strip()
    if env.isdigit() and int(env) > 0:
        return int(env)
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


class _ChunkLock:
    """An exclusive advisory lock on ``<cache entry>.lock`` (POSIX ``flock``; a no-op elsewhere).

    Two pytest-xdist workers (or two test runs) that need the same chunk compile it once: the second
    waits for the first and then reads the cache.  ``acquire(blocking=False)`` lets a batch compile
    the chunks nobody else is compiling first.
    """

    def __init__(self, path: Path) -> None:
        self.path = path.with_suffix(".lock")
        self._fd: int | None = None

    def acquire(self, blocking: bool = True) -> bool:
        try:
            import fcntl
        except ImportError:
            return True
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError:
            return True  # cannot lock: compile anyway (the write is atomic)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | (0 if blocking else fcntl.LOCK_NB))
        except OSError:
            os.close(fd)
            return False
        self._fd = fd
        return True

    def release(self) -> None:
        if self._fd is not None:
            try:
                import fcntl

                fcntl.flock(self._fd, fcntl.LOCK_UN)
            finally:
                os.close(self._fd)
                self._fd = None


def _header_version(headers: Path) -> object:
    """What identifies the CuTe headers in cache keys: the fetched wheel's version stamp (``.ci/fetch-oracles``
    writes ``.oracle-version`` beside the unpacked wheel), so a fresh unpack of the same version -- a new CI
    checkout -- still hits the cache; else the header's modification time."""
    for d in list(headers.parents)[:5]:
        f = d / ".oracle-version"
        if f.is_file():
            try:
                return "nvidia-cutlass " + f.read_text().strip()
            except OSError:
                break
    return (headers / "cute" / "tensor.hpp").stat().st_mtime_ns


def _sha(obj: object) -> str:
    """SHA-256 of a JSON-serialisable object (paths are stringified)."""
    return hashlib.sha256(json.dumps(obj, sort_keys=True, default=str).encode()).hexdigest()


def _atomic_write(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically (best effort: errors are ignored)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp_")
        with os.fdopen(fd, "w") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except OSError:
        pass


def _store_record(path: Path, items: list[_Item], rec: _ChunkRecord) -> None:
    """Save a chunk record to the cache (results in item order)."""
    rows = []
    for it in items:
        oc = rec.outcomes[it.index]
        res = oc.result
        if isinstance(res, OracleError):
            kind = "compile_error" if isinstance(res, CompileError) else "run_error"
            rows.append({"kind": kind, "message": res.message, "log": res.log, "stray": oc.stray})
        else:
            rows.append({"kind": "ok", "value": res, "stray": oc.stray})
    data = {
        "version": _HARNESS_VERSION,
        "rows": rows,
        "compiles": rec.compiles,
        "compile_seconds": rec.compile_seconds,
        "first_compile_seconds": rec.first_compile_seconds,
        "run_seconds": rec.run_seconds,
    }
    _atomic_write(path, json.dumps(data, indent=1))


def _store_failure(path: Path, exc: HarnessError | CompileError) -> None:
    """Save a whole-chunk failure (raised again by :func:`_load_record`)."""
    if isinstance(exc, CompileError):
        data = {"version": _HARNESS_VERSION, "raise": "compile", "expr": exc.expr, "message": exc.message}
        data["log"] = exc.log
    else:
        data = {"version": _HARNESS_VERSION, "raise": "harness", "message": str(exc)}
    _atomic_write(path, json.dumps(data, indent=1))


def _load_record(path: Path, items: list[_Item]) -> _ChunkRecord | None:
    """Load a cached chunk record, or ``None`` if missing / unreadable / mismatched.

    A cached whole-chunk failure is raised again (:class:`HarnessError` or :class:`CompileError`).
    """
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    if data.get("version") == _HARNESS_VERSION and data.get("raise") == "harness":
        raise HarnessError(str(data.get("message", "")))
    if data.get("version") == _HARNESS_VERSION and data.get("raise") == "compile":
        raise CompileError(str(data.get("expr", "")), str(data.get("message", "")), str(data.get("log", "")))
    rows = data.get("rows")
    if data.get("version") != _HARNESS_VERSION or not isinstance(rows, list) or len(rows) != len(items):
        return None
    rec = _ChunkRecord(
        compiles=int(data.get("compiles", 0)),
        compile_seconds=float(data.get("compile_seconds", 0.0)),
        first_compile_seconds=data.get("first_compile_seconds"),
        run_seconds=float(data.get("run_seconds", 0.0)),
    )
    for it, row in zip(items, rows, strict=True):
        kind = row.get("kind")
        if kind == "ok":
            rec.outcomes[it.index] = _Outcome(str(row["value"]), row.get("stray", ""))
        elif kind in ("compile_error", "run_error"):
            cls = CompileError if kind == "compile_error" else RunError
            rec.outcomes[it.index] = _Outcome(
                cls(it.expr, row["message"], row.get("log", "")), row.get("stray", "")
            )
        else:
            return None
    return rec


# --------------------------------------------------------------------------------------------------
# Python <-> C++ notation
# --------------------------------------------------------------------------------------------------

#: Static integers CuTe names ``_N`` / ``_mN`` (cute/numeric/integral_constant.hpp); others use ``Int<N>``.
_NAMED_INTS = frozenset(
    [-32, -24, -16, -12, -10, *range(-9, 11), 12, 16, 24, *range(32, 257, 8), 384, 512, 768]
    + [1 << k for k in range(10, 20)]
)


def _check_int(n: object) -> int:
    """Validate one integer leaf of an int tuple."""
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"expected an int or a nested tuple of ints, got {n!r}")
    if not -(2**31) <= n < 2**31:
        raise ValueError(f"{n} does not fit CuTe's int-based static integers")
    return n


def static_int_cxx(n: int) -> str:
    """C++ type of the static integer ``n``: ``_4``, ``_m1``, or ``Int<7>`` where CuTe has no alias."""
    n = _check_int(n)
    if n in _NAMED_INTS:
        return f"_{n}" if n >= 0 else f"_m{-n}"
    return f"Int<{n}>"


def int_tuple_cxx(t: IntTuple, kind: str = "Shape", *, dynamic: bool = False) -> str:
    """C++ text of a nested int tuple.

    Static (default): a *type*, ``4`` -> ``_4``, ``(4, (2, 3))`` -> ``Shape<_4,Shape<_2,_3>>`` (``kind``
    names the tuple template: ``Shape``, ``Stride``, ``Coord``, ``Tile``...).  Dynamic: an
    *expression* with run-time ints, ``make_shape(4,make_shape(2,3))`` (``make_`` + ``kind.lower()``).
    """
    if isinstance(t, tuple):
        inner = ",".join(int_tuple_cxx(x, kind, dynamic=dynamic) for x in t)
        return f"make_{kind.lower()}({inner})" if dynamic else f"{kind}<{inner}>"
    n = _check_int(t)
    return str(n) if dynamic else static_int_cxx(n)


def layout_cxx(shape: IntTuple, stride: IntTuple | None = None, *, dynamic: bool = False) -> str:
    """C++ expression of the layout ``shape:stride``.

    ``layout_cxx((4, 8), (1, 4))`` -> ``Layout<Shape<_4,_8>,Stride<_1,_4>>{}``;
    ``layout_cxx(4, 2)`` -> ``Layout<_4,_2>{}``; ``stride=None`` gives CuTe's default (compact
    column-major) stride.  ``dynamic=True`` gives ``make_layout(make_shape(4,8),make_stride(1,4))``
    (run-time ints: CuTe then skips its static checks and prints ints without ``_``).
    """
    if stride is not None and _profile(shape) != _profile(stride):
        raise ValueError(f"shape {shape!r} and stride {stride!r} are not congruent")
    if dynamic:
        args = int_tuple_cxx(shape, "Shape", dynamic=True)
        if stride is not None:
            args += "," + int_tuple_cxx(stride, "Stride", dynamic=True)
        return f"make_layout({args})"
    if stride is None:
        return f"Layout<{int_tuple_cxx(shape, 'Shape')}>{{}}"
    return f"Layout<{int_tuple_cxx(shape, 'Shape')},{int_tuple_cxx(stride, 'Stride')}>{{}}"


def _profile(t: IntTuple) -> object:
    """The nesting structure of an int tuple (ints replaced by ``None``)."""
    return tuple(_profile(x) for x in t) if isinstance(t, tuple) else None


def swizzle_cxx(b: int, m: int, s: int) -> str:
    """C++ expression of ``Swizzle<B,M,S>`` (printed by CuTe as ``Sw<B,M,S>``)."""
    return f"Swizzle<{_check_int(b)},{_check_int(m)},{_check_int(s)}>{{}}"


def composed_cxx(
    swizzle: tuple[int, int, int], shape: IntTuple, stride: IntTuple | None = None, offset: int = 0
) -> str:
    """C++ expression of the swizzled layout ``Sw<B,M,S> o offset o shape:stride``.

    Built with ``make_composed_layout(Swizzle<B,M,S>{}, _offset{}, Layout<...>{})``; CuTe prints it as
    ``Sw<3,4,3> o _0 o (_8,_64):(_64,_1)`` (:func:`normalize`: ``Sw<3,4,3> o 0 o (8,64):(64,1)``).
    """
    parts = [swizzle_cxx(*swizzle), static_int_cxx(offset) + "{}", layout_cxx(shape, stride)]
    return f"make_composed_layout({', '.join(parts)})"


_STATIC_PREFIX = re.compile(r"(?<![A-Za-z0-9_])_(?=-?\d)")
_COMMA_SPACE = re.compile(r",\s+")
_TRAILING_COMMA = re.compile(r",\)")


def normalize(text: str, *, keep_static: bool = False) -> str:
    """Bring CuTe's or pycute's printed layout notation to ours.

    * CuTe marks static ints with ``_``: ``(_4,_8):(_1,_4)`` -> ``(4,8):(1,4)`` (``_-1`` -> ``-1``;
      kept with ``keep_static=True``);
    * pycute prints Python tuples: ``(4, (2, 3)):(1, (4, 8))`` -> ``(4,(2,3)):(1,(4,8))`` and
      ``(4,):(1,)`` -> ``(4):(1)`` (CuTe already prints rank-1 tuples as ``(_4):(_1)``);
    * swizzled layouts keep CuTe's spelling: ``Sw<3,4,3> o _0 o (_8,_64):(_64,_1)`` ->
      ``Sw<3,4,3> o 0 o (8,64):(64,1)``.

    Surrounding whitespace is stripped.
    """
    s = text.strip()
    if not keep_static:
        s = _STATIC_PREFIX.sub("", s)
    s = _COMMA_SPACE.sub(",", s)
    return _TRAILING_COMMA.sub(")", s)


def parse_int_tuple(text: str) -> IntTuple:
    """Parse ``4``, ``(4)``, ``(4,(2,3))``, ``()`` (CuTe or normalised notation) into Python.

    A parenthesised single element is a rank-1 tuple: ``(4)`` -> ``(4,)``.
    """
    s = normalize(text).replace(" ", "")
    value, pos = _parse_tuple_at(s, 0)
    if pos != len(s):
        raise ValueError(f"trailing text in int tuple {text!r}")
    return value


def _parse_tuple_at(s: str, pos: int) -> tuple[IntTuple, int]:
    """Recursive-descent step of :func:`parse_int_tuple`."""
    if pos < len(s) and s[pos] == "(":
        pos += 1
        elems: list[IntTuple] = []
        if pos < len(s) and s[pos] == ")":
            return (), pos + 1
        while True:
            elem, pos = _parse_tuple_at(s, pos)
            elems.append(elem)
            if pos < len(s) and s[pos] == ",":
                pos += 1
                continue
            if pos < len(s) and s[pos] == ")":
                return tuple(elems), pos + 1
            raise ValueError(f"malformed int tuple {s!r} at {pos}")
    m = re.compile(r"-?\d+").match(s, pos)
    if not m:
        raise ValueError(f"malformed int tuple {s!r} at {pos}")
    return int(m.group()), m.end()


def parse_layout(text: str) -> tuple[IntTuple, IntTuple]:
    """Parse ``(4,8):(1,4)`` / ``(_4,_8):(_1,_4)`` / ``8:1`` into ``(shape, stride)``."""
    s = normalize(text)
    depth = 0
    for pos, ch in enumerate(s):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if ch == ":" and depth == 0:
            return parse_int_tuple(s[:pos]), parse_int_tuple(s[pos + 1 :])
    raise ValueError(f"not a layout: {text!r}")


_COMPOSED = re.compile(r"^Sw<(-?\d+),(-?\d+),(-?\d+)>\s+o\s+(-?\d+)\s+o\s+(.+)$")



def same_function(ours: Any, text: str) -> tuple[bool, bool]:
    """(same function, same printed form) of a layout of ours and a layout CuTe C++ printed.

    The function is compared on the whole domain (sizes, then every value); the print after normalize().
    """
    import numpy as np

    from pycute_layouts import Layout

    shape, stride = parse_layout(text)
    theirs = Layout(shape, stride)
    same = int(theirs.size()) == int(ours.size()) and np.array_equal(theirs.to_numpy(), ours.to_numpy())
    return same, normalize(text) == str(ours)

def parse_composed(text: str) -> tuple[tuple[int, int, int], int, tuple[IntTuple, IntTuple]]:
    """Parse ``Sw<3,4,3> o _0 o (_8,_64):(_64,_1)`` into ``((3, 4, 3), 0, ((8, 64), (64, 1)))``."""
    m = _COMPOSED.match(normalize(text))
    if not m:
        raise ValueError(f"not a swizzled composed layout: {text!r}")
    b, mm, s, off = (int(m.group(i)) for i in range(1, 5))
    return (b, mm, s), off, parse_layout(m.group(5))


def parse_values(text: str) -> list[int]:
    """Parse the output of :meth:`CuteBatch.add_values` (``"0 8 16 _24"``) into a list of ints."""
    return [int(tok.lstrip("_")) for tok in text.split()]
