"""Bank-conflict cases for the hardware check of pycute_layouts.analysis (issue 10).

Every case is built from the library: a shared-memory layout (a ``SwizzledSmemLayout`` or a byte-address
``Layout``) and a warp access pattern (``analysis.ldmatrix_pattern`` / ``analysis.vector_pattern``). The
32 thread byte addresses the GPU uses come from ``BankConflicts.thread_addresses`` (i.e.
``SwizzledSmemLayout.byte_address`` / ``Layout.__call__``); no address is typed by hand. The predicted
wavefronts per instruction are ``bank_conflicts(...).wavefronts``.

Written by ``pycute-layouts hwcheck --emit DIR`` (``banks_cases.cuh``, ``banks_plan.json``), run by
``examples/hardware/run.sh`` (``examples/hardware/banks/banks.cu``, timed, and counted by ncu where it
can read the counters); :func:`verify_banks` recomputes every prediction with the current library.

Criteria (fixed before the first run): ncu wavefronts == predicted x iterations EXACTLY, bank conflicts ==
(predicted - ideal) x iterations exactly; cycles per instruction / the conflict-free ``b32/stride4B``
baseline within 25 % of the predicted wavefronts.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..analysis import AccessPattern, bank_conflicts, ldmatrix_pattern, vector_pattern
from ..core.composed import SwizzledSmemLayout
from ..core.layout import Layout
from ..core.swizzle import Swizzle
from ..errors import HwCheckError
from ..limits import fmt, make_output_dir

__all__ = ["KINDS", "SMEM_BYTES", "Case", "cases", "plan", "emit", "verify_banks", "WF", "BC", "INST", "TIMING_REL_TOL",
           "TIMING_BASELINE"]

WF = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"
BC = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"
INST = ("smsp__sass_inst_executed_op_shared_ld.sum", "smsp__sass_inst_executed_op_ldsm.sum")
TIMING_REL_TOL = 0.25
TIMING_BASELINE = "b32/stride4B"

#: PTX instruction of each case kind (the kernel's template parameter is the index in this tuple).
KINDS = ("b8", "b16", "b32", "v2", "v4",
         "ldsm.x1", "ldsm.x2", "ldsm.x4", "ldsm.x1.trans", "ldsm.x2.trans", "ldsm.x4.trans")
_VEC_KIND = {1: "b8", 2: "b16", 4: "b32", 8: "v2", 16: "v4"}
#: Size of the shared-memory buffer the kernel reads (bytes); every address must lie below it.
SMEM_BYTES = 32768
RANDOM_SEED = 20261121


@dataclass(frozen=True)
class Case:
    """One warp access: the name, the PTX kind, the library's layout and pattern.

    >>> pat = vector_pattern(Layout(32, 8), 4, name="stride8")   # 4-byte loads 8 bytes apart: banks 0, 2, ..
    >>> c = Case("b32/stride8B", "b32", Layout(SMEM_BYTES, 1), pat, "vector")
    >>> c.addresses()[:4], c.analyse().wavefronts
    ([0, 8, 16, 24], 2)
    """

    name: str
    kind: str
    layout: Any
    pattern: AccessPattern
    group: str

    def analyse(self) -> Any:
        """The library's :class:`~pycute_layouts.analysis.BankConflicts` of this access (the class example uses it)."""
        return bank_conflicts(self.layout, self.pattern)

    def addresses(self) -> list[int]:
        """The 32 byte addresses the kernel uses: the library's, and for the threads ldmatrix ignores
        (.x1: 8-31, .x2: 16-31) the address of thread ``t % active`` (valid, never read by the hardware)."""
        addrs = self.analyse().thread_addresses
        act = [a for a in addrs if a is not None]
        return [int(a) if a is not None else int(act[t % len(act)]) for t, a in enumerate(addrs)]


def _ldsm_cases() -> list[Case]:
    out: list[Case] = []
    swizzles = {"none": Swizzle(0, 4, 3), "Sw<1,4,3>": Swizzle(1, 4, 3),
                "Sw<2,4,3>": Swizzle(2, 4, 3), "Sw<3,4,3>": Swizzle(3, 4, 3)}
    for row_bytes in (32, 64, 128):
        cols = row_bytes // 2                       # bf16 elements per row
        chunks = row_bytes // 16                    # 16-byte columns (matrices side by side)
        tile = Layout((32, cols), (cols, 1))        # K-major bf16 tile, 32 rows
        for sw_name, sw in swizzles.items():
            smem = SwizzledSmemLayout(sw, tile, 16)
            for num, trans in ((1, False), (2, False), (4, False), (4, True)):
                # matrix m: 16-byte column m % chunks, rows 8 * (m // chunks) .. +7 (the CuTe/ldmatrix tiling)
                origins = [(8 * (m // chunks), 8 * (m % chunks)) for m in range(num)]
                pat = ldmatrix_pattern(num, trans, element_bits=16, matrix_origins=origins)
                kind = f"ldsm.x{num}" + (".trans" if trans else "")
                out.append(Case(f"{kind}/bf16/{row_bytes}B-rows/{sw_name}", kind, smem, pat, "ldmatrix"))
    # .x2.trans once per swizzle on 128-byte rows
    tile = Layout((32, 64), (64, 1))
    for sw_name, sw in (("none", Swizzle(0, 4, 3)), ("Sw<3,4,3>", Swizzle(3, 4, 3))):
        pat = ldmatrix_pattern(2, True, element_bits=16)
        out.append(Case(f"ldsm.x2.trans/bf16/128B-rows/{sw_name}", "ldsm.x2.trans",
                        SwizzledSmemLayout(sw, tile, 16), pat, "ldmatrix"))
    # column-of-matrices access (M-direction ldmatrix.x4: matrices stacked along rows)
    for sw_name, sw in (("none", Swizzle(0, 4, 3)), ("Sw<3,4,3>", Swizzle(3, 4, 3))):
        pat = ldmatrix_pattern(4, element_bits=16, matrix_origins=[(0, 0), (8, 0), (16, 0), (24, 0)])
        out.append(Case(f"ldsm.x4/bf16/128B-rows/{sw_name}/rows0-31", "ldsm.x4",
                        SwizzledSmemLayout(sw, tile, 16), pat, "ldmatrix"))
    return out


def _vector_cases() -> list[Case]:
    out: list[Case] = []
    flat = Layout(SMEM_BYTES, 1)                   # byte index -> byte address
    strides = {1: (0, 1, 2, 4, 8), 2: (2, 4, 64, 128), 4: (0, 4, 8, 12, 16, 32, 128),
               8: (8, 16, 24, 64, 128), 16: (16, 32, 48, 64, 128)}
    for ab, ss in strides.items():
        for s in ss:
            pat = vector_pattern(Layout(32, s), ab, name=f"stride{s}")
            out.append(Case(f"{_VEC_KIND[ab]}/stride{s}B", _VEC_KIND[ab], flat, pat, "vector"))
    # threads repeating addresses across the phases of 8- and 16-byte accesses (the model counts every phase)
    pat = vector_pattern(Layout((16, 2), (8, 0)), 8, name="halves-repeat")
    out.append(Case("v2/halfwarps-same-128B", "v2", flat, pat, "vector"))
    pat = vector_pattern(Layout((8, 4), (16, 0)), 16, name="quarters-repeat")
    out.append(Case("v4/quarterwarps-same-128B", "v4", flat, pat, "vector"))
    pat = vector_pattern(Layout((8, 4), (16, 128)), 16, name="quarters-next-row")
    out.append(Case("v4/quarterwarps-rows-128B-apart", "v4", flat, pat, "vector"))
    # column reads of a bf16 tile with 128-byte rows: thread t reads row t, swizzled or not
    tile = Layout((32, 64), (64, 1))
    for sw_name, sw in (("none", Swizzle(0, 4, 3)), ("Sw<3,4,3>", Swizzle(3, 4, 3)), ("Sw<2,4,3>", Swizzle(2, 4, 3))):
        smem = SwizzledSmemLayout(sw, tile, 16)
        for ab in (4, 8, 16):
            pat = vector_pattern([(t, 0) for t in range(32)], ab, name="column")
            out.append(Case(f"{_VEC_KIND[ab]}/bf16-128B-rows/{sw_name}/column", _VEC_KIND[ab], smem, pat, "swizzled"))
    return out


def _random_cases(n: int = 12) -> list[Case]:
    """Random (seeded) thread layouts over random swizzled byte layouts, hypothesis-style."""
    rng = np.random.default_rng(RANDOM_SEED)
    out: list[Case] = []
    for i in range(n):
        ab = int(rng.choice([4, 8, 16]))
        # thread layout: shape (a, 32 / a), strides random multiples of the access width
        a = int(rng.choice([1, 2, 4, 8, 16, 32]))
        shape = (a, 32 // a)
        strides = tuple(int(rng.integers(0, 40)) * ab for _ in range(2))
        thr = Layout(shape, strides)
        b = int(rng.integers(0, 4))
        sw = Swizzle(b, 4, 3) if b else Swizzle(0, 4, 3)
        smem = SwizzledSmemLayout(sw, Layout(SMEM_BYTES, 1), 8)
        pat = vector_pattern(thr, ab, name=f"random{i}")
        out.append(Case(f"random/{i:02d}/{_VEC_KIND[ab]}/{thr}/Sw<{b},4,3>", _VEC_KIND[ab], smem, pat, "random"))
    return out


def cases() -> list[Case]:
    """All bank-conflict cases, in the order of the generated header.

    Pre:  none.
    Post: unique names; every address inside the SMEM_BYTES buffer (HwCheckError otherwise).

    >>> cs = cases()
    >>> len(cs), cs[0].name, cs[0].analyse().wavefronts
    (102, 'ldsm.x1/bf16/32B-rows/none', 2)
    """
    cs = _ldsm_cases() + _vector_cases() + _random_cases()
    names = [c.name for c in cs]
    if len(set(names)) != len(names):
        raise HwCheckError("banks_check: duplicate case names")
    for c in cs:
        if c.kind not in KINDS:
            raise HwCheckError(f"banks_check: unknown kind {c.kind}")
        if max(c.addresses()) + 16 > SMEM_BYTES:
            raise HwCheckError(f"banks_check: case {c.name} reads past the {SMEM_BYTES}-byte buffer")
    return cs


def plan() -> list[dict]:
    """Every case as a JSON-able dict: name, kind, group, the 32 addresses, predicted and ideal wavefronts.

    Pre:  none.
    Post: one dict per :func:`cases`, in order.

    >>> plan()[0]["predicted_wavefronts"]
    2
    """
    out = []
    for c in cases():
        r = c.analyse()
        out.append({"name": c.name, "kind": c.kind, "group": c.group, "access_bytes": r.access_bytes,
                    "addresses": c.addresses(), "predicted_wavefronts": r.wavefronts,
                    "ideal_wavefronts": r.ideal_wavefronts, "conflict_degree": r.conflict_degree})
    return out


def emit(outdir: Path) -> list[dict]:
    """Write OUTDIR/banks_cases.cuh and OUTDIR/banks_plan.json; the plan.

    Pre:  ``outdir`` a directory path (created if missing).
    Post: the two files written.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     n = len(emit(Path(d)))
    ...     names = sorted(f.name for f in Path(d).iterdir())
    >>> names, n == len(plan())
    (['banks_cases.cuh', 'banks_plan.json'], True)
    """
    outdir = Path(make_output_dir(outdir, "banks_check.emit", HwCheckError))
    p = plan()
    lines = ["// generated by `pycute-layouts hwcheck --emit` (pycute_layouts.hwcheck.banks_check): do not edit",
             f"#define BANKS_NUM_CASES {len(p)}", f"#define BANKS_SMEM_BYTES {SMEM_BYTES}",
             "static const char* const kKindNames[] = {" + ", ".join(f'"{k}"' for k in KINDS) + "};",
             "struct BankCase { const char* name; int kind; unsigned addr[32]; };",
             "static const BankCase kCases[BANKS_NUM_CASES] = {"]
    for c in p:
        addrs = ", ".join(str(a) for a in c["addresses"])
        lines.append(f'  {{"{c["name"]}", {KINDS.index(c["kind"])}, {{{addrs}}}}},')
    lines.append("};")
    (outdir / "banks_cases.cuh").write_text("\n".join(lines) + "\n")
    (outdir / "banks_plan.json").write_text(json.dumps(p, indent=1) + "\n")
    return p


def verify_banks(cases_: list[dict], ncu_iters: int, library: dict | None = None) -> list[str]:
    """Every disagreement between bank-conflict observations and the current library (empty: all agree).

    Pre:  ``cases_`` the observed cases (``name``, ``addresses``, ``smem_base``, ``ncu``, ``cycles_per_instr``),
          ``ncu_iters`` the executions ncu counted; ``library`` name -> (addresses, BankConflicts), default
          the current library's.
    Post: one message per disagreement, each starting with the case name.

    >>> verify_banks([], 1024)
    []
    """
    if not isinstance(cases_, list) or not all(isinstance(c, dict) for c in cases_) or isinstance(ncu_iters, bool) \
            or not isinstance(ncu_iters, int) or ncu_iters <= 0:
        raise HwCheckError(f"verify_banks: expected a list of case dicts and a positive ncu_iters, got {fmt(ncu_iters)}")
    if library is None:
        library = {c.name: (c.addresses(), c.analyse()) for c in cases()}
    errs: list[str] = []
    names = [c["name"] for c in cases_]
    if set(names) - set(library):
        errs.append(f"case set differs: file-only {sorted(set(names) - set(library))}")
    base = next((c["cycles_per_instr"] for c in cases_ if c["name"] == TIMING_BASELINE), None)
    for c in cases_:
        if c["name"] not in library:
            continue
        addrs, r = library[c["name"]]
        n = c["name"]
        if c["addresses"] != addrs:
            errs.append(f"{n}: the GPU used addresses {c['addresses'][:4]}.. but the library now gives {addrs[:4]}..")
        if c["smem_base"] % 1024:
            errs.append(f"{n}: shared buffer at {c['smem_base']}, not 1024-byte aligned")
        ncu = c.get("ncu")
        if ncu:
            if sum(ncu[k] for k in INST) != ncu_iters:
                errs.append(f"{n}: {sum(ncu[k] for k in INST)} shared-load instructions executed, expected {ncu_iters}")
            if ncu[WF] != r.wavefronts * ncu_iters:
                errs.append(f"{n}: ncu {ncu[WF]} wavefronts = {ncu[WF] / ncu_iters} per instruction, library predicts "
                            f"{r.wavefronts}")
            if ncu[BC] != (r.wavefronts - r.ideal_wavefronts) * ncu_iters:
                errs.append(f"{n}: ncu {ncu[BC]} bank conflicts, library predicts "
                            f"({r.wavefronts} - {r.ideal_wavefronts}) x {ncu_iters}")
        if base:
            t = c["cycles_per_instr"] / base
            if abs(t - r.wavefronts) > TIMING_REL_TOL * r.wavefronts:
                errs.append(f"{n}: timing {t:.2f} baseline units per instruction, library predicts {r.wavefronts} "
                            f"(tolerance {TIMING_REL_TOL:.0%})")
    return errs


