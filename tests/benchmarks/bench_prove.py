"""Benchmark: the full ``pycute-layouts prove`` report, in fresh processes (nothing is cached across them).

Run: ``python tests/benchmarks/bench_prove.py [--repeat N]``. Not collected by the test run.

Target (issue 26, "Fast and portable"): the full report -- 96 pairings, each proved symbolically for
every tile in the 256 KiB window at any 128-byte-aligned destination (with the library's descriptors
compared at sizes that set every field bit) and checked exhaustively at concrete sizes, plus the
stated mismatches, planted faults and lemmas (the descriptor-encoding lemma sweeps all 2^14 values of
each field) -- in under 2 seconds on a 2-core machine, byte-identical to the report before the work
(tests/test_prove_independent.py pins it). The script pins the child process to two CPUs where
``os.sched_setaffinity`` exists and prints the wall time of each run, the best and the median, the
CPU seconds of the process and its forked worker, and the slowest rows of one in-process report.

Measured (2026-11-26, the shared 2-core machine with 7 agents on it, load average 8-10, so wall
times there are 5-10x what an idle machine gives; CPU seconds are the steadier figure):
  before (main at 1049b8a):  `prove` 26.4 s wall, 12.6 s user CPU (the issue: 12.9-13.5 s wall on a
                              quiet machine); cProfile of report(): 46.7 million calls
  after (branch issue-26):   `prove` 4.3-4.4 s user + 0.45 s system CPU in all (start-up included,
                              parent and forked worker together; one process: 4.4 s user);
                              cProfile of report(): 10.2 million calls. On two idle cores that is
                              about 1 s of start-up and imports plus half of the rest: an estimated
                              2.5 s, not yet the 2 s target -- to be re-measured on a quiet machine.
  same machine, alternating runs at load 3-5 (python -m pycute_layouts prove, PYTHONPATH to each tree):
                              main 1049b8a 25.8-28.6 s wall, 12.6-13.6 s user CPU;
                              this branch   7.0-12.7 s wall,  3.7-4.2 s user CPU (3.2-3.5x less)
  follow-f26b (same machine, load average 8-13; before = main at a06ed55 from `git archive`, run
  alternately with PYTHONPATH, `taskset -c 0,1`): sympy.simplify no longer runs at all in the report
  (9 calls before, 0.3-0.6 s of CPU on an idle core, the first one loading simplify's machinery), the
  two processes take rows from a shared counter instead of every second row. One process
  (PYCUTE_LAYOUTS_JOBS=1), report() alone: main 4.04 / 4.22 s CPU, this branch 3.77 / 4.12 s CPU;
  `prove`: main 5.3-6.1 s user CPU, 17.8-39.7 s wall, this branch 5.1-6.4 s user, 16.2-33.1 s wall
  (within the noise of a machine at load 8-13). The 2 s target is NOT met: one process still needs
  about 3.6-4 s of CPU for the rows plus 0.35 s of imports; by cProfile the rows are sympy arithmetic
  in the symbolic steps (descriptor fields and linear forms per witness tile, about half), the
  library's descriptor derivations (make_smem_desc_for, 7,173 calls, about 13%), the exhaustive
  checks (10%) and the descriptor-encoding lemma (2 x 16,384 descriptors built, encoded, decoded: 9%).
  s5-prove (2026-11-26; before = main at 1c6cae6, after = branch s5-prove; outputs of `prove`,
  `--json`, `--markdown`, `--details` byte-identical to before). What changed: validation stays at the
  public boundary with a fast path for plain ints (Pairing.tile_shape, derived_once, fits_window,
  witness_destinations); the atom-base step is decided on integer coefficients (the same polynomial
  identity and gcd sympy's expand / Mod(factor_terms) decide; sympy still decides wherever the integer
  check does not prove it, with the same message); formulas are evaluated from their integer terms
  (27,198 evaluations, equal to xreplace); proof texts (sympy formulas, claims, equivalent's per-bit
  steps with their sympy confirmation) are written when a proof is read, which the report never does;
  the 2^18-address window checks run in cache-sized chunks (same addresses, same first violation); the
  TMA side is shared by pairings that load the same box; the two processes take rows from the two
  ends of the list (one warm row instead of six). tests/test_prove_fast.py checks each shortcut
  against what it replaced.
  One process (PYCUTE_LAYOUTS_JOBS=1, `python -m pycute_layouts prove` run from /tmp with PYTHONPATH
  to each tree, alternating, shared 2-core machine at load 11-12):
      Python 3.11.7: before 3.12-3.57 s user + 0.26-0.28 s sys, after 2.58-2.78 s user + 0.09-0.11 s sys
      Python 3.12.1: before 3.28-3.73 s user + 0.25-0.31 s sys, after 2.68-2.84 s user + 0.09-0.10 s sys
      (about 25% less CPU; report() alone about 2.0 s CPU of it, imports 0.3 s + sympy 0.3 s).
  Two processes (the default), same machine and method: before 3.17-3.49 s user + 0.32-0.37 s sys,
  after 2.52-2.66 s user + 0.10-0.15 s sys. Per-process CPU of the two (instrumented _run): about
  0.56 s serial before the fork and 1.06-1.18 s each after it, so about 1.7 s of wall on two idle
  cores of this machine's speed (not measured: the machine is never idle).
  The device (16 idle cores of an H200 host, Python 3.12.3, `taskset -c 0,1`, three alternating
  rounds, branch at c2b4c22; its CPU is slower than the shared machine's and noisy):
      `prove`, two cores:  before 4.27-4.60 s wall (5.46-5.90 s user, 0.28-0.33 s sys)
                           after  3.77-4.63 s wall (5.00-5.92 s user, 0.13-0.15 s sys)
      one process, one core: before 4.81-5.96 s wall, after 4.39-5.50 s wall
  (an earlier round on an H100 host, at an intermediate commit: before 5.95-8.60 s, after 5.34-6.52 s).
  The 2 s target is NOT met. By a sampling profile of report() after the change: about half is the
  library itself, called on distinct inputs (tile_to_shape 7%, make_smem_desc 11%, box_to_smem 6%,
  symbolic crd2idx 5%, descriptor construction/encoding/decoding 8%, swizzled_address 3%, the
  descriptor-encoding lemma's 2 x 16,384 descriptors 10% of the whole), 35% the proofs' own numpy
  and glue (PTX formulas, canonical offsets, element-by-element comparisons), 14% sympy (the symbolic
  tile, linear forms and start addresses, which are the symbolic part of the proof). Under two processes
  about 0.6 s is serial (package and sympy imports, one warm row) on the shared machine.
  Main after the session-5 merges (s5-prove, s5-bench's integer fast paths, at f9b2d9f+1; reports
  byte-identical to 1c6cae6's, compared with cmp on the device):
    * The device's earlier figures above were dominated by a quirk of that machine: it sets
      PYTHONDONTWRITEBYTECODE=1 and its site-packages has no __pycache__, so every run compiled sympy
      from source (`import sympy` 1.7-2.8 s there, 0.2 s with cached bytecode). A normal install caches
      bytecode; the run below sets PYTHONPYCACHEPREFIX=/tmp/pyc and warms it once.
    * The device (H200 host, 16 idle Xeon cores, Python 3.12.3, sympy 1.14.0, `taskset -c 0,1`, four
      alternating rounds, 2026-11-26 about 21:50 UTC):
          before (1c6cae6): 2.08-2.25 s wall, 3.20-3.46 s user + 0.28-0.34 s sys
          after  (main):    1.42-1.72 s wall, 2.39-2.93 s user + 0.06-0.10 s sys
    * This 2-core machine (load average 2.4, Python 3.11.7, three runs): 1.43-1.65 s wall,
      2.20-2.25 s user + 0.12-0.14 s sys (before, at load 1.1: 3.2 s wall, 4.0 s user + 0.8 s sys).
    * One process, report() alone, this machine: 1.47 s CPU (imports: the package 0.23 s, sympy 0.2 s).
  The 2 s target is met on both machines.
  Session 6 (main at fc3f30b; "base" = 8711bbe, reports compared with cmp: identical). What changed: the
  report's rows are scheduled by MMA atom (rows sharing an atom's tiles and descriptors run in one process),
  the two descriptor-encoding lemmas (no sympy) go to an early worker forked before sympy loads, gc.freeze()
  around the forks, make_smem_desc/tiles/wgmma addresses derived once per distinct argument inside the
  report's fact scope, and checks moved out of the library's inner loops (tests/test_prove_speed_paths.py
  checks each shortcut against what it replaced).
    * The device (an H100 host, 16 Xeon cores, freshly started and noisy, Python 3.12.3, `taskset -c 0,1`,
      warm PYTHONPYCACHEPREFIX, base and main alternating, eight rounds over two batches):
          base (8711bbe): 1.87-2.71 s wall, 3.21-4.47 s user (this host is slower than the H200 host above)
          main (fc3f30b): 1.32-1.95 s wall, 2.29-3.38 s user
    * This 2-core machine (Python 3.11.7, load average about 1, four alternating rounds): base 1.40-1.46 s
      wall, 2.22-2.36 s user; main 0.98-1.06 s wall, 1.56-1.74 s user. `bench_prove.py --repeat 5`: best
      1.02 s, median 1.03 s, 1.77-1.87 s CPU.
  The 2 s target is met on all three hosts.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

TARGET_S = 2.0


def _pin_two_cpus() -> str:
    if not hasattr(os, "sched_setaffinity"):
        return "affinity not available"
    cpus = sorted(os.sched_getaffinity(0))[:2]
    os.sched_setaffinity(0, cpus)  # inherited by the child processes
    return f"pinned to CPUs {cpus}"


def run_cli(repeat: int) -> list[float]:
    exe = shutil.which("pycute-layouts")
    cmd = [exe, "prove"] if exe else [sys.executable, "-m", "pycute_layouts", "prove"]
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        c0 = os.times()
        r = subprocess.run(cmd, capture_output=True, text=True)
        times.append(time.perf_counter() - t0)
        c1 = os.times()
        print(f"  run {len(times)}: {times[-1]:.2f} s wall, "
              f"{c1.children_user - c0.children_user + c1.children_system - c0.children_system:.2f} s CPU")
        if r.returncode != 0:
            raise SystemExit(f"pycute-layouts prove exited {r.returncode}:\n{r.stdout[-2000:]}\n{r.stderr[-2000:]}")
    return times


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    pin = _pin_two_cpus()
    times = run_cli(args.repeat)
    print(f"pycute-layouts prove (full report, fresh process, {pin}):")
    print("  runs: " + ", ".join(f"{t:.2f} s" for t in times))
    best, med = min(times), statistics.median(times)
    print(f"  best {best:.2f} s, median {med:.2f} s, target < {TARGET_S:.0f} s: {'MET' if med < TARGET_S else 'MISSED'}")
    from pycute_layouts import proofs

    t0 = time.perf_counter()
    rep = proofs.report()
    total = time.perf_counter() - t0
    rows = sorted(rep.rows + rep.negatives + rep.lemmas, key=lambda r: -r.seconds)
    print(f"in-process report(): {total:.2f} s ({rep.counts()}); slowest rows:")
    for r in rows[:5]:
        print(f"  {r.seconds:.2f} s  {r.tma_mode} {r.major} {r.element_bits} {r.arch} -> {r.status}")
    return 0 if med < TARGET_S else 1


if __name__ == "__main__":
    sys.exit(main())
