"""Core-algebra benchmark: pycute_layouts vs NVIDIA's pycute vs tensor-layouts, in one process.

Run: ``python tests/benchmarks/bench_core.py [--quick]``. Not collected by the test run.

Every operation runs on the same list of freshly generated random inputs for every library (the
objects are built before timing, except for ``construct+call``). Each library's time is the best
of several repeats; the printed ratio is peer_time / our_time (> 1 means we are faster). Peers
that are not installed are reported as missing: NVIDIA's pycute comes from the oracle wheel
(``.ci/fetch-oracles``), tensor-layouts from ``pip install tensor-layouts``.

Targets (issue 26): at least 3x NVIDIA's pycute on every operation (construct+call and coalesce
included) and 10x PyCuTe on every operation; full-domain evaluation of a 128x64 layout >= 100x faster
than pycute point by point. The libraries are timed in alternating rounds (every round times each
library once, in a rotated order; the best round counts), so a shared machine's load falls on all alike.
PyCuTe (github NVlabs/CuTe, not on PyPI) is not wired in yet.

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
import os
import random
import statistics
import sys
import time
from collections.abc import Callable

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests"))

import pycute_layouts as pl  # noqa: E402

try:
    from oracles import load_pycute  # noqa: E402

    pc = load_pycute()
except Exception:  # pragma: no cover - oracle harness missing
    pc = None
try:
    import tensor_layouts as tl  # noqa: E402
except Exception:  # pragma: no cover
    tl = None


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
    cases: dict[str, list] = {k: [] for k in ("layout", "compose", "complement", "divide", "zdivide", "tile")}
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
    return cases


def _best(fn: Callable[[], object], repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def _ops(lib: object, name: str, cases: dict[str, list]) -> dict[str, Callable[[], object]]:
    """Build the timed closures for one library (objects constructed outside the timing)."""
    if lib is None:
        return {}
    L = lib.Layout

    def mk(sd):
        return L(sd[0], sd[1])

    lays = [mk(x) for x in cases["layout"]]
    comp = [(mk(a), mk(b)) for a, b in cases["compose"]]
    cmpl = [(mk(a), m) for a, m in cases["complement"]]
    div = [(mk(a), mk(t)) for a, t in cases["divide"]]
    zdiv = [(mk(a), t) for a, t in cases["zdivide"]]
    tile = [(mk(a), t) for a, t in cases["tile"]]
    inj = lays
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
    ops["right_inverse"] = lambda: [lib.right_inverse(x) for x in inj]
    ops["left_inverse"] = lambda: [lib.left_inverse(x) for x in inj]
    ops["tile_to_shape"] = lambda: [lib.tile_to_shape(a, t) for a, t in tile]
    big = L((128, 64), (64, 1))
    if name == "pycute_layouts":
        ops["full-domain 128x64"] = lambda: big.to_numpy()
    else:
        ops["full-domain 128x64"] = lambda: [big(i) for i in range(128 * 64)]
    return ops


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer inputs and repeats")
    ap.add_argument("--n", type=int, default=None, help="inputs per operation")
    args = ap.parse_args(argv)
    n = args.n or (100 if args.quick else 400)
    repeats = 3 if args.quick else 7
    cases = make_cases(n)
    libs = {"pycute_layouts": pl, "pycute": pc, "tensor-layouts": tl}
    timings: dict[str, dict[str, float]] = {name: {} for name in libs}
    all_ops = {name: _ops(lib, name, cases) for name, lib in libs.items()}
    for op in all_ops["pycute_layouts"]:
        # alternating rounds: each round times every library once, in a rotated order, so that a
        # change in machine load (a shared machine) falls on all of them alike; the best round counts
        fns = {}
        for name in libs:
            fn = all_ops[name].get(op)
            if fn is None:
                continue
            try:
                fn()  # warm up, and check it runs
                fns[name] = fn
            except Exception as e:  # a peer that cannot do an operation is reported, not fatal
                timings[name][op] = float("nan")
                print(f"# {name}: {op} failed: {type(e).__name__}: {str(e)[:80]}", file=sys.stderr)
        names = list(fns)
        best = {name: float("inf") for name in names}
        for rnd in range(repeats):
            for name in names[rnd % len(names):] + names[:rnd % len(names)]:
                best[name] = min(best[name], _best(fns[name], 1))
        for name in names:
            timings[name][op] = best[name]
    ours = timings["pycute_layouts"]
    peers = [p for p in ("pycute", "tensor-layouts") if libs[p] is not None]
    missing = [p for p in ("pycute", "tensor-layouts") if libs[p] is None]
    print(f"inputs per operation: {n}, best of {repeats} repeats; ratio = peer time / our time")
    hdr = f"{'operation':<22}{'ours (ms)':>11}" + "".join(f"{p + ' (ms)':>22}{'ratio':>9}" for p in peers)
    print(hdr)
    print("-" * len(hdr))
    ratios: dict[str, list[float]] = {p: [] for p in peers}
    for op, t in ours.items():
        row = f"{op:<22}{t * 1e3:>11.3f}"
        for p in peers:
            tp = timings[p].get(op, float("nan"))
            r = tp / t if t > 0 else float("nan")
            if r == r:
                ratios[p].append(r)
            row += f"{tp * 1e3:>22.3f}{r:>8.1f}x"
        print(row)
    for p in peers:
        rs = ratios[p]
        if rs:
            print(
                f"vs {p}: median speedup {statistics.median(rs):.1f}x, min {min(rs):.2f}x over {len(rs)} operations"
            )
    for p in missing:
        print(f"vs {p}: not installed (skipped)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
