"""Core-algebra benchmark: pycute_layouts vs NVIDIA's pycute, PyCuTe and tensor-layouts, in one process.

Run: ``python tests/benchmarks/bench_core.py [--quick] [--base DIR] [--only op,op] [--clock cpu|wall]``.
Not collected by the test run.

Every operation runs on the same list of random inputs for every library (plain nested tuples turned into
each library's objects before timing, except for ``construct+call``, which times ``Layout(s, d)`` and two
calls). The libraries are timed in alternating rounds: each round times every library once, after one
untimed warm call, in a shuffled order (no library always follows another, whose cache misses it would
inherit), so a shared machine's load falls on all alike. A cell is the median over the rounds of
peer_time / our_time in the same round (> 1 means we are faster); 'n/a' where a peer lacks the operation.
The default clock is this process's CPU time (``--clock wall`` for a quiet, pinned machine).

Peers, each skipped with the printed reason when absent:
  - NVIDIA's pycute from the oracle wheel (``.ci/fetch-oracles``, or ``PYCUTE_ORACLE_DIR``);
  - PyCuTe (github NVlabs/CuTe, not on PyPI): a folder holding its ``pycute`` package, named by
    ``PYCUTE_LAYOUTS_BENCH_PYCUTE`` (default ``/tmp/peer/pycute_src``); loaded under a private module name,
    so it never shadows NVIDIA's ``pycute``;
  - tensor-layouts (``pip install tensor-layouts``);
  - ``--base DIR``: an earlier checkout's ``DIR/pycute_layouts``, timed in the same rounds (before/after).
The second table times the basis (``E(i)`` strides) and F2 (XOR strides) paths: ours, ``--base`` and, for
the basis paths, PyCuTe (NVIDIA's pycute and tensor-layouts have neither).

Targets (issue 26): at least 3x NVIDIA's pycute and 10x PyCuTe on every operation (construct+call and
coalesce included), no loss on the basis/F2 paths; full-domain evaluation of a 128x64 layout >= 100x
faster than pycute point by point.

Current record (2026-11-27, main at fc3f30b; "base" = main at 8711bbe, the session-5 end, loaded with --base
and timed in the same rounds). Device: an H100 host's CPU ("Intel(R) Xeon(R) Processor", 16 cores, freshly
started), Python 3.12.3, sympy 1.14, numpy 2.5, ``taskset -c 0,1 python tests/benchmarks/bench_core.py --base
../base --clock wall``; peers as below (PyCuTe at 02e137e3, pycute from nvidia-cutlass 4.2.0.0, tensor-layouts
0.3.2). Two full runs of 15 rounds, then two runs of 21 rounds of the operations this session changed:
  operation          pycute        PyCuTe         tensor-layouts   vs base
  construct+call     3.09-3.20x    11.15-12.38x   10.27-10.96x     1.05-1.07x  rank 2 and 3 unrolled; the
                                                                               first bound checks compare with a
                                                                               one-digit int (specialised compares);
                                                                               nested modes flattened by tuple
                                                                               concatenation
  coalesce           6.63-6.71x    11.01-11.73x   22.92-24.25x     1.22-1.27x  flat ranks 2-4 without size-1
                                                                               modes unrolled; the walk iterates
                                                                               the modes
  composition        5.09-5.27x    14.17-15.19x   14.43-14.95x     0.99-1.01x
  complement         3.58-3.74x    24.74-25.54x    7.97-8.06x      0.95-1.02x
  logical_divide     5.17-5.19x    21.69-22.84x   18.06-18.25x     0.95-1.00x
  zipped_divide      4.21-4.31x    50.17-51.44x   14.16-14.24x     0.95-1.00x
  logical_product    3.83x         14.53-14.77x   10.49-10.83x     0.96-0.98x
  blocked_product      n/a         16.80-17.96x    2.96-3.04x      0.98-1.01x
  right_inverse      4.17-4.37x    12.72-12.93x   15.45-16.27x     0.99-1.00x
  left_inverse       6.70-6.96x    13.90-15.56x   11.75-12.24x     1.01x
  tile_to_shape        n/a           n/a            n/a            0.98-0.99x
  full-domain 128x64  460-632x     1675-1906x      977-1277x       1.15-1.16x
  Basis / F2 paths (vs PyCuTe; vs base):
  E: call            12.57-14.59x; 1.30-1.34x   the flat basis plan computed once per layout (slot _bp)
  E: composition     11.50-12.86x; 5.82-6.26x   integer walk on integer surrogates of the basis strides
  E: zipped_divide   35.86-40.32x; 5.06-5.52x   (algebra.compose_basis_ints, tiling._logical_divide_basis)
  F2: call 1.66-1.68x, F2: construct+call 1.32-1.36x, F2: composition 1.01-1.02x, F2: logical_divide
  0.99-1.03x (vs base).
  The untouched operations read 0.95-1.02x vs base on the device (the lowest in the first run after the
  machine started); an A/B on the shared machine (21 rounds, twice) gave 0.98-1.02x for complement,
  logical_divide, zipped_divide, logical_product and tile_to_shape: no loss.
  Earlier in the session (the H200 host, at d677a0f): construct+call 3.12-3.20x pycute, coalesce
  11.48-11.88x PyCuTe.
  The shared 2-core machine, main at fc3f30b, 15 rounds, CPU clock, two runs each: Python 3.11.7
  construct+call 3.08-3.10x pycute / 12.47-12.99x PyCuTe, coalesce 6.59-6.73x / 11.73-12.00x, E: call
  14.13-14.75x, E: composition 10.93-11.35x, E: zipped_divide 30.64-31.34x PyCuTe; Python 3.12.1
  construct+call 3.35-3.41x / 13.76-14.06x, coalesce 7.51-7.56x / 13.71-13.78x, E: composition
  12.91-13.01x.
  Targets: met on every operation, on the device and on both Pythons here. construct+call has the
  thinnest margin (3.08-3.20x pycute): pycute's Layout(s, d) stores two attributes, ours validates every
  leaf (bound, type, congruence), and the two calls are at CPython's instance-call floor.

Earlier records:
Measured (2026-11-26, branch s5-bench at 81013bd; "before" = main at 1c6cae6, loaded with --base and
timed in the same rounds). Device: the H200 host's CPU ("Intel Xeon Processor", 16 cores, idle),
Python 3.12.3, sympy 1.14, numpy 2.5.2, ``taskset -c 0,1 python3 tests/benchmarks/bench_core.py --base
../base --rounds 15 --clock wall``; PyCuTe = NVlabs/CuTe's pycute package (algebra modules, code as at
commit 02e137e3), NVIDIA's pycute from nvidia-cutlass 4.2.0.0, tensor-layouts 0.3.2. Cells: median over
the rounds of peer/ours; "after/before" = the base column (before's time / ours).
  operation         pycute   PyCuTe   tensor-layouts   after/before
  construct+call     3.10x   11.00x      10.01x          0.93x   (the nested fast path now also refuses
                                                                   leaves past MAX_INT_DIGITS, as the
                                                                   checked path does: it let 10**400 in)
  coalesce           5.35x    9.09x      19.03x          1.37x   one forward pass, the result built directly
  composition        5.38x   14.82x      14.89x          1.00x
  complement         3.62x   24.75x       7.84x          0.99x
  logical_divide     5.61x   22.63x      18.95x          1.01x
  zipped_divide      4.45x   54.14x      14.78x          1.70x   a tuple of Layouts: per-mode integer divide
  logical_product    3.69x   15.06x      10.80x          1.76x   integer fast path: (A, complement o B)
  blocked_product      n/a   16.04x       2.97x          1.78x   without intermediate checks
  right_inverse      4.54x   13.23x      16.60x          1.11x   prefix products once, one sort
  left_inverse       7.46x   15.99x      13.34x          0.99x
  tile_to_shape        n/a      n/a         n/a          1.32x
  full-domain 128x64  419x    1468x        922x          1.07x
  Before (derived: after's ratio / the base column): construct+call 3.33x pycute; coalesce 3.9x pycute,
  6.6x PyCuTe; zipped_divide 2.6x pycute; logical_product 2.1x pycute, 8.6x PyCuTe; blocked_product 9.0x
  PyCuTe; right_inverse 11.9x PyCuTe.
  Repeated on the same host (31 rounds, PYTHONHASHSEED=1 and 2): construct+call 2.99x / 2.93x pycute,
  coalesce 9.18x / 9.33x PyCuTe. An earlier run on the H100 host (at 07d0bb9): 2.92x and 9.19x.
  Basis/F2 paths, after/before: E: call 1.00x, E: composition 1.01x, E: zipped_divide 0.99x, F2: call
  0.99x, F2: construct+call 1.01x, F2: composition 1.00x, F2: logical_divide 0.99x (no loss); vs PyCuTe:
  E: call 0.97x, E: composition 2.32x, E: zipped_divide 7.23x.
  So on this host two targets are missed: construct+call vs pycute (2.93-3.10x) and coalesce vs PyCuTe
  (9.1-9.3x). The shared 2-core machine (Python 3.12.1, CPU clock, load ~8, 15 rounds, same commit): every
  operation >= 3.70x pycute (complement; construct+call 3.70x) and >= 12.1x PyCuTe (coalesce).
  After the record, coalesce_int_layout reuses the flat-mode pair: 3-4% faster coalesce in an A/B on the
  shared machine (Python 3.12.1); not re-measured on the device.

Main after the session-5 merges (2026-11-26, at 1d08ad7: s5-bench plus the flat basis call path), the
same device command and peers (no --base), 15 rounds, wall clock:
  construct+call 3.03x pycute / 12.12x PyCuTe / 10.35x tensor-layouts; coalesce 5.44x / 9.59x / 19.26x;
  composition 5.44x / 16.16x; complement 3.66x / 27.89x; logical_divide 5.46x / 23.67x; zipped_divide
  4.48x / 56.54x; logical_product 3.83x / 15.61x; blocked_product 17.84x PyCuTe; right_inverse 4.29x /
  12.53x; left_inverse 6.77x / 14.45x; full-domain 128x64 393x / 1399x. Basis paths vs PyCuTe: E: call
  11.10x (was 0.97x: a coordinate layout with a flat profile now evaluates in ints per mode), E:
  composition 2.09x, E: zipped_divide 7.45x.
  The shared 2-core machine, same commit, 11 rounds, CPU clock: Python 3.12.1 construct+call 3.17x pycute,
  coalesce 10.68x PyCuTe, every other operation >= 3.84x pycute and >= 14.49x PyCuTe; Python 3.11.7
  construct+call 2.87-2.96x pycute, coalesce 9.42-9.87x PyCuTe (three runs).
  Targets: met on every operation but coalesce vs PyCuTe on the device (9.59x; 9.09-9.59x over four
  device runs) and on Python 3.11 (construct+call vs pycute 2.87-2.96x, coalesce vs PyCuTe 9.4-9.9x).

Earlier record (before PyCuTe was wired in; rotated rounds, best round):
Measured (2026-11-26, branch follow-f26b, the shared 2-core machine, load average 12-14; Python 3.11;
400 inputs per operation, the same closures as below, 40 alternating rounds, best round; before = main
at a06ed55 and after = this branch, run one after the other on the same machine):
  operation        before    after   (ratio = pycute time / our time)
  construct+call    2.79x    3.31-3.40x   Layout.__call__: integer index unrolled for flat rank <= 4;
                                          Layout(shape, stride): one nesting level flattened inline
  coalesce          3.31x    3.83x        integer fast path first (no profile/nesting checks)
  complement        3.48x    4.06-4.12x   int cotarget: kept modes sorted by stride, no pre-coalesce
                                          (a stride that breaks it falls back to the checked path)
  composition, logical_divide, left_inverse >= 14x; right_inverse 4.2x, zipped_divide 6.1x (same run;
  pycute's times for the slower operations vary 2-10x between runs on this machine, ours do not).
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from types import ModuleType

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests"))

import pycute_layouts as pl  # noqa: E402

#: where PyCuTe's source is looked for when PYCUTE_LAYOUTS_BENCH_PYCUTE is not set
PYCUTE_DEFAULT_DIR = "/tmp/peer/pycute_src"


def _load_package(alias: str, parent: str, pkg: str) -> ModuleType:
    """Import ``parent/pkg`` (a package directory) under the module name ``alias`` (nothing installed,
    no module shadowed: its relative imports resolve under ``alias``)."""
    init = os.path.join(parent, pkg, "__init__.py")
    if not os.path.isfile(init):
        raise FileNotFoundError(f"no {init}")
    spec = importlib.util.spec_from_file_location(alias, init, submodule_search_locations=[os.path.join(parent, pkg)])
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot build an import spec for {init}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[alias] = module
    spec.loader.exec_module(module)
    return module


def load_peers(base: str | None) -> tuple[dict[str, ModuleType | None], dict[str, str]]:
    """The libraries to time (None where absent) and, for the absent ones, why."""
    libs: dict[str, ModuleType | None] = {"pycute_layouts": pl}
    why: dict[str, str] = {}
    if base:  # an earlier checkout of this package, timed in the same rounds (before/after)
        libs["base"] = _load_package("_pycute_layouts_bench_base", base, "pycute_layouts")
    try:
        from oracles import load_pycute, pycute_skip_reason

        libs["pycute"] = load_pycute()
        if libs["pycute"] is None:
            why["pycute"] = pycute_skip_reason()
    except Exception as e:  # pragma: no cover - oracle harness missing
        libs["pycute"], why["pycute"] = None, f"{type(e).__name__}: {e}"
    src = os.environ.get("PYCUTE_LAYOUTS_BENCH_PYCUTE", PYCUTE_DEFAULT_DIR)
    try:
        libs["PyCuTe"] = _load_package("_pycute_nvlabs_bench", src, "pycute")
    except Exception as e:
        libs["PyCuTe"] = None
        why["PyCuTe"] = (f"not found ({type(e).__name__}: {e}); put the `pycute` package of github NVlabs/CuTe "
                         f"in a folder and set PYCUTE_LAYOUTS_BENCH_PYCUTE to it (default {PYCUTE_DEFAULT_DIR})")
    try:
        import tensor_layouts as tl
    except Exception as e:  # pragma: no cover
        tl, why["tensor-layouts"] = None, f"not installed ({type(e).__name__}); pip install tensor-layouts"
    libs["tensor-layouts"] = tl
    return libs, why


def _rand_shape(rng: random.Random, rank: int) -> tuple:
    return tuple(
        rng.choice([2, 4, 8]) if rng.random() < 0.7 else (rng.choice([2, 4]), rng.choice([2, 4]))
        for _ in range(rank)
    )


def _compact(shape: tuple, rng: random.Random, rowmajor: bool) -> tuple:
    flat_order = list(range(len(pl.flatten(shape))))
    if rowmajor:
        flat_order.reverse()
    if rng.random() < 0.3:
        rng.shuffle(flat_order)
    return pl.make_ordered_layout(shape, pl.core.inttuple.unflatten(tuple(flat_order), shape)).stride


def make_cases(n: int, seed: int = 0) -> dict[str, list]:
    """Inputs for every operation as plain nested tuples, the same for every library."""
    rng = random.Random(seed)
    keys = ("layout", "compose", "complement", "divide", "zdivide", "tile", "product", "bproduct")
    cases: dict[str, list] = {k: [] for k in keys}
    for _ in range(n):
        s = _rand_shape(rng, rng.choice([2, 3]))
        d = _compact(s, rng, rng.random() < 0.5)
        cases["layout"].append((s, d))
        # composition pair: B picks a sub-block of A's domain (admissible by construction)
        size = pl.product(s)
        bs = rng.choice([x for x in (2, 4, 8, 16) if size % x == 0] or [1])
        bstride = rng.choice([1, 2]) if size % (bs * 2) == 0 else 1
        cases["compose"].append(((s, d), ((bs, size // (bs * bstride)), (bstride, bs * bstride))))
        cases["complement"].append(((s, d), size * 4))
        cases["divide"].append(((s, d), (rng.choice([2, 4]), rng.choice([1, 2]))))
        cases["zdivide"].append(((s, d), (2, 2)))
        cases["tile"].append((((8, 8), (8, 1)), (rng.choice([16, 32, 64]), rng.choice([16, 32, 64]))))
        cases["product"].append(((s, d), (rng.choice([2, 3, 4]), 1)))
        a, b = rng.choice([2, 4]), rng.choice([2, 4])
        cases["bproduct"].append((((a, b), (b, 1)), ((rng.choice([2, 3]), rng.choice([2, 4])), (1, 3))))
    return cases


def _ops(lib: ModuleType | None, name: str, cases: dict[str, list]) -> dict[str, Callable[[], object]]:
    """Build the timed closures for one library (objects constructed outside the timing, except for
    construct+call). An operation a library does not have is left out (reported as n/a)."""
    if lib is None:
        return {}
    L = lib.Layout
    ours = name in ("pycute_layouts", "base")

    def mk(sd):
        return L(sd[0], sd[1])

    lays = [mk(x) for x in cases["layout"]]
    comp = [(mk(a), mk(b)) for a, b in cases["compose"]]
    cmpl = [(mk(a), m) for a, m in cases["complement"]]
    div = [(mk(a), mk(t)) for a, t in cases["divide"]]
    zdiv = [(mk(a), t) for a, t in cases["zdivide"]]
    tile = [(mk(a), t) for a, t in cases["tile"]]
    prod = [(mk(a), mk(b)) for a, b in cases["product"]]
    bprod = [(mk(a), mk(b)) for a, b in cases["bproduct"]]
    ops: dict[str, Callable[[], object]] = {}
    raw = cases["layout"]

    def construct_call():
        for s, d in raw:
            x = L(s, d)
            x(3)
            x(5)

    ops["construct+call"] = construct_call
    ops["coalesce"] = lambda: [lib.coalesce(x) for x in lays]
    compose = lib.compose if name == "tensor-layouts" else lib.composition
    ops["composition"] = lambda: [compose(a, b) for a, b in comp]
    ops["complement"] = lambda: [lib.complement(a, m) for a, m in cmpl]
    ops["logical_divide"] = lambda: [lib.logical_divide(a, t) for a, t in div]
    if name == "tensor-layouts":
        ops["zipped_divide"] = lambda: [lib.zipped_divide(a, lib.Tile(*[L(x) for x in t])) for a, t in zdiv]
    else:
        ops["zipped_divide"] = lambda: [lib.zipped_divide(a, tuple(L(x) for x in t)) for a, t in zdiv]
    ops["logical_product"] = lambda: [lib.logical_product(a, b) for a, b in prod]
    if hasattr(lib, "blocked_product"):
        ops["blocked_product"] = lambda: [lib.blocked_product(a, b) for a, b in bprod]
    ops["right_inverse"] = lambda: [lib.right_inverse(x) for x in lays]
    ops["left_inverse"] = lambda: [lib.left_inverse(x) for x in lays]
    if hasattr(lib, "tile_to_shape"):
        ops["tile_to_shape"] = lambda: [lib.tile_to_shape(a, t) for a, t in tile]
    big = L((128, 64), (64, 1))
    if ours:
        ops["full-domain 128x64"] = lambda: big.to_numpy()
    else:
        ops["full-domain 128x64"] = lambda: [big(i) for i in range(128 * 64)]
    return ops


def _path_ops(lib: ModuleType | None, name: str, n: int) -> dict[str, Callable[[], object]]:
    """The basis (E(i) strides) and F2 (XOR strides) paths: ours (and an earlier checkout of ours), and
    PyCuTe for the basis paths (NVIDIA's pycute and tensor-layouts have neither)."""
    if lib is None or name not in ("pycute_layouts", "base", "PyCuTe"):
        return {}
    L, E = lib.Layout, lib.E
    idx = [i % 32 for i in range(n)]
    coord = L((4, 8), (E(0), E(1)))
    ident = L((8, 16), (E(0), E(1)))
    tiles = [L((4, 4), (1, 8)), L((2, 8), (8, 1)), L((8, 2), (1, 16))]
    ops: dict[str, Callable[[], object]] = {
        "E: call": lambda: [coord(i) for i in idx],
        "E: composition": lambda: [lib.composition(ident, tiles[i % 3]) for i in range(n // 4)],
        "E: zipped_divide": lambda: [lib.zipped_divide(ident, (L(4, 1), L(4, 1))) for _ in range(n // 4)],
    }
    if name == "PyCuTe":
        return ops
    F2 = lib.F2
    f2 = L((8, 8), (F2(1), F2(9)))
    ops["F2: call"] = lambda: [f2(i) for i in idx]
    ops["F2: construct+call"] = lambda: [L((8, 8), (F2(1), F2(9)))(i) for i in idx]
    ops["F2: composition"] = lambda: [lib.composition(f2, tiles[i % 3]) for i in range(n // 4)]
    ops["F2: logical_divide"] = lambda: [lib.logical_divide(f2, L(4, 1)) for _ in range(n // 4)]
    return ops


#: the clock: CPU seconds of this process (a busy shared machine's waiting is not counted) or wall seconds
CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}


Times = dict[str, dict[str, list[float]]]


def run_rounds(all_ops: dict[str, dict[str, Callable[[], object]]], rounds: int, clock: str = "cpu") -> Times:
    """Time every operation of every library in alternating rounds: each round times each library once (after
    one untimed warm call), in a shuffled order, so that a change in machine load (a shared machine) falls on all
    of them alike."""
    now = CLOCKS[clock]
    times: dict[str, dict[str, list[float]]] = {name: {} for name in all_ops}
    gc.collect()
    gc.freeze()  # the inputs and the libraries' modules: out of the collector's way (its full passes stay short)
    for op in all_ops["pycute_layouts"]:
        fns = {}
        for name, ops in all_ops.items():
            fn = ops.get(op)
            if fn is None:
                continue
            try:
                fn()  # warm up, and check it runs
                fns[name] = fn
            except Exception as e:  # a peer that cannot do an operation is reported, not fatal
                print(f"# {name}: {op} failed: {type(e).__name__}: {str(e)[:80]}", file=sys.stderr)
        names = list(fns)
        for name in names:
            times[name][op] = []
        order = random.Random(op)
        for _rnd in range(rounds):
            order.shuffle(names)  # no library always runs right after another (whose cache misses it would inherit)
            for name in names:
                fn = fns[name]
                fn()  # warm: the timed call measures the steady state, whichever library ran before
                t0 = now()
                fn()
                times[name][op].append(now() - t0)
    return times


def report(title: str, times: dict[str, dict[str, list[float]]], peers: list[str]) -> dict[str, dict[str, float]]:
    """Print one table: our best round (ms) and, per peer, the median over rounds of peer time / our time in
    the same round (> 1 means we are faster; 'n/a' where the peer lacks the operation). Returns the medians."""
    ours = times["pycute_layouts"]
    print(f"\n{title}")
    hdr = f"{'operation':<22}{'ours (ms)':>10}" + "".join(f"{p:>16}" for p in peers)
    print(hdr)
    print("-" * len(hdr))
    med: dict[str, dict[str, float]] = {p: {} for p in peers}
    for op, ts in ours.items():
        row = f"{op:<22}{min(ts) * 1e3:>10.3f}"
        for p in peers:
            tp = times[p].get(op)
            if not tp:
                row += f"{'n/a':>16}"
                continue
            r = statistics.median(a / b for a, b in zip(tp, ts))
            med[p][op] = r
            row += f"{r:>15.2f}x"
        print(row)
    for p in peers:
        rs = med[p]
        if rs:
            worst = min(rs, key=rs.get)
            print(f"vs {p}: median of the per-op medians {statistics.median(rs.values()):.1f}x, "
                  f"slowest op {worst} {rs[worst]:.2f}x over {len(rs)} operations")
    return med


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer inputs and rounds")
    ap.add_argument("--n", type=int, default=None, help="inputs per operation")
    ap.add_argument("--rounds", type=int, default=None, help="alternating rounds per operation")
    ap.add_argument("--base", default=None, help="a folder holding an earlier pycute_layouts package, timed alongside")
    ap.add_argument("--only", default=None, help="comma-separated operations to time (default all)")
    ap.add_argument("--clock", choices=sorted(CLOCKS), default="cpu", help="cpu: process CPU time (default), wall")
    ap.add_argument("--no-paths", action="store_true", help="skip the basis/F2 path table")
    args = ap.parse_args(argv)
    n = args.n or (100 if args.quick else 400)
    rounds = args.rounds or (5 if args.quick else 15)
    libs, why = load_peers(args.base)
    cases = make_cases(n)
    only = set(args.only.split(",")) if args.only else None

    def pick(ops: dict) -> dict:
        return {k: v for k, v in ops.items() if only is None or k in only}

    print(f"inputs per operation: {n}, {rounds} alternating rounds, {args.clock} clock; "
          "cell = median over rounds of peer/ours (same round)")
    for p, reason in why.items():
        print(f"vs {p}: skipped -- {reason}")
    present = [p for p in libs if p != "pycute_layouts" and libs[p] is not None]
    times = run_rounds({p: pick(_ops(libs[p], p, cases)) for p in libs if libs[p] is not None}, rounds, args.clock)
    report("core algebra", times, present)
    if not args.no_paths:
        path_ops = {p: pick(_path_ops(libs[p], p, n)) for p in libs if libs[p] is not None}
        path_ops = {p: o for p, o in path_ops.items() if o or p == "pycute_layouts"}
        if path_ops["pycute_layouts"]:
            times = run_rounds(path_ops, rounds, args.clock)
            report("basis / F2 paths", times, [p for p in path_ops if p != "pycute_layouts"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
