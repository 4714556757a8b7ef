"""CuTe's complex f64 atoms and its dp2a atom run on the H100 as themselves (the third atoms run of 2026-11-26).

examples/hardware/results/hwcheck-h100-2026-11-26-atoms-themselves.json was written by ``pycute-layouts hwcheck --emit
DIR`` and ``HWCHECK_PARTS=atoms examples/hardware/run.sh DIR OUT`` on an H100: the 112 atom cases of the earlier runs
again, and 7 new ones (the five complex atoms through CuTe's f64 ``mma.sync`` sequence, dp2a ``.lo`` and ``.hi``).
Every value is re-verified here against the CURRENT library; planted faults must be reported.
hwcheck-h100-2026-11-26-dp2a-cute.log is nvcc on that machine compiling CuTe's own ``SM61_DP2A::fma``.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import json
import re
from pathlib import Path

import cli_runner
import pytest

from pycute_layouts import hwcheck, parse
from pycute_layouts.arch import atoms
from pycute_layouts.errors import HwCheckError, LayoutError
from pycute_layouts.hwcheck import atoms_check, atoms_complex

ROOT = Path(__file__).resolve().parents[1]
RES = ROOT / "examples" / "hardware" / "results"
THEMSELVES = RES / "hwcheck-h100-2026-11-26-atoms-themselves.json"
DP2A_LOG = RES / "hwcheck-h100-2026-11-26-dp2a-cute.log"
NEW = [f"mma.complex/{a}" for a in atoms_complex.COMPLEX_CASES] + [f"dot2/SM61_DP2A/{m}" for m in atoms_complex.DP2A_MODES]


@pytest.fixture(scope="module")
def run() -> dict:
    return json.loads(THEMSELVES.read_text())


def _case(name: str) -> atoms_check.Case:
    return next(c for c in atoms_check.cases() if c.name == name)


def _obs(run: dict, name: str) -> dict:
    return next(o for o in run["cases"] if o.get("name") == name)


def test_every_value_held_on_the_h100(run: dict) -> None:
    m = run["meta"]
    assert m["date"] == "2026-11-26" and m["device"] == "NVIDIA H100 80GB HBM3" and m["programs"]["atoms"]["cc"] == "9.0"
    assert m["driver_version"] == "580.159.04" and "sm_90a" in m["nvcc_flags"] and "cuda_13.0" in m["nvcc"]
    rows, _ = hwcheck.verify(run)
    assert len(rows) == 119 and all(r["ok"] for r in rows), [r for r in rows if not r["ok"]][:3]
    assert sum(int(r["detail"].split()[0]) for r in rows) == 191712
    new = {r["id"].split("/", 1)[1]: int(r["detail"].split()[0]) for r in rows if r["id"].split("/", 1)[1] in NEW}
    assert new == {"mma.complex/SM80_8x8x4_C64C64C64C64_TN": 64, "mma.complex/SM80_8x8x4_GC64C64C64GC64_TN": 64,
                   "mma.complex/SM90_16x8x4_C64C64C64C64_TN": 128, "mma.complex/SM90_16x8x8_C64C64C64C64_TN": 128,
                   "mma.complex/SM90_16x8x16_C64C64C64C64_TN": 128, "dot2/SM61_DP2A/lo": 32, "dot2/SM61_DP2A/hi": 32}
    r = cli_runner.run("hwcheck", "--verify", str(THEMSELVES))
    assert r.returncode == 0 and re.search(r"^atom\s+119\s+0$", r.stdout, re.M), r.stdout[-300:]


def test_sass_is_cutes_instruction_sequence(run: dict) -> None:
    """C64: four DMMA of the atom's shape; GC64: three; dp2a .lo / .hi: one IDP.2A each."""
    sass = run["meta"]["sass"]["atoms"]
    idx = {c.name: i for i, c in enumerate(atoms_check.cases())}

    def ops(name: str) -> dict:
        return next(v for k, v in sass.items() if re.search(rf"case{idx[name]}P", k))

    assert ops("mma.complex/SM80_8x8x4_C64C64C64C64_TN") == {"DMMA.8x8x4": 4}
    assert ops("mma.complex/SM80_8x8x4_GC64C64C64GC64_TN") == {"DMMA.8x8x4": 3}
    for k in (4, 8, 16):
        assert ops(f"mma.complex/SM90_16x8x{k}_C64C64C64C64_TN") == {f"DMMA.16x8x{k}": 4}
    assert ops("dot2/SM61_DP2A/lo") == {"IDP.2A.LO.S16.S8": 1} and ops("dot2/SM61_DP2A/hi") == {"IDP.2A.HI.S16.S8": 1}


def test_new_cases_are_appended() -> None:
    """The earlier runs' kernel indices (case<i>) keep naming the same cases."""
    names = [c.name for c in atoms_check.cases()]
    assert names[112:] == NEW and len(names) == len(set(names)) == 119
    old = json.loads((RES / "hwcheck-h100-2026-11-26-atoms.json").read_text())
    assert [o["name"] for o in old["cases"]] == names[:112]


@pytest.mark.parametrize("atom", atoms_complex.COMPLEX_CASES)
def test_complex_operands_identify_every_element(atom: str) -> None:
    """A B^T differs at every (m, n), so a wrong C layout cannot hide behind the C values it loaded; all exact."""
    a = atoms.mma_atom(atom)
    A, B, C = atoms_complex.complex_operands(a)
    m_, n_, k_ = a.shape_mnk
    prods = {(m, n): tuple(sum(x) for x in zip(*[(p[0] * q[0] - p[1] * q[1], p[0] * q[1] + p[1] * q[0])
                                                  for p, q in zip(A[m], B[n])])) for m in range(m_) for n in range(n_)}
    assert len(set(prods.values())) == m_ * n_
    D = atoms_complex.complex_reference(a)
    for m in range(m_):
        for n in range(n_):
            if atoms_complex.is_gauss(a):
                t0, t1, t2 = D[m][n]
                c0, c1, c2 = C[m][n]
                re_, im_ = prods[m, n]
                assert (t0 - t1, t2 - t0 - t1) == (re_ + c0 - c1, im_ + c2 - c0 - c1)
            else:
                assert D[m][n] == (prods[m, n][0] + C[m][n][0], prods[m, n][1] + C[m][n][1])
    # imaginary parts matter: some A and B elements have both parts nonzero
    assert any(z[0] and z[1] for r in A for z in r) and any(z[0] and z[1] for r in B for z in r)


def test_complex_kernel_is_cutes_sequence() -> None:
    """The emitted mma.sync statements, in CuTe's order, with CuTe's operands (negated imag A in the third)."""
    src = atoms_complex.complex_kernel(7, "x", atoms.mma_atom("SM90_16x8x8_C64C64C64C64_TN"))
    calls = re.findall(r'asm volatile\("(mma\.sync[^ ]+) [^"]*" : "=d"\((d\[\d\])\[0\]\).*?: "d"\((\w+)\[0\]\)'
                       r'.*?"d"\((\w+)\[0\]\).*?"d"\(([\w\[\]]+)\[0\]\)', src)
    assert calls == [("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64", "d[0]", "ar", "br", "c[0]"),
                     ("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64", "d[1]", "ai", "br", "c[1]"),
                     ("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64", "d[0]", "nai", "bi", "d[0]"),
                     ("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64", "d[1]", "ar", "bi", "d[1]")]
    g = atoms_complex.complex_kernel(8, "g", atoms.mma_atom("SM80_8x8x4_GC64C64C64GC64_TN"))
    assert re.findall(r'"=d"\((d\[\d\])\[0\]\).*?: "d"\((\w+)\[0\]\), "d"\((\w+)\[0\]\)', g) == [
        ("d[0]", "ar", "br"), ("d[1]", "ai", "bi"), ("d[2]", "as", "bs")]


@pytest.mark.parametrize("name,field,bad", [
    ("mma.complex/SM80_8x8x4_C64C64C64C64_TN", "layout_c", "((4,8),2):((16,2),1)"),
    ("mma.complex/SM80_8x8x4_GC64C64C64GC64_TN", "layout_a", "((4,8),1):((1,4),0)"),
    ("mma.complex/SM90_16x8x16_C64C64C64C64_TN", "layout_c", "((4,8),(2,2)):((32,1),(8,16))"),
    ("mma.complex/SM90_16x8x8_C64C64C64C64_TN", "layout_b", "((4,8),2):((8,1),16)"),
    ("mma.complex/SM90_16x8x4_C64C64C64C64_TN", "layout_a", "((4,8),2):((16,1),2)"),
])
def test_planted_layout_faults_are_caught(run: dict, name: str, field: str, bad: str) -> None:
    """A library whose complex atom's layout differs from what the H100 computed disagrees with the observation."""
    c = _case(name)
    obs = _obs(run, name)
    assert atoms_check.check_case(c, obs["out"])[1] == []
    wrong = dataclasses.replace(c, atom=dataclasses.replace(c.atom, **{field: parse(bad)}))
    n, errs = atoms_check.check_case(wrong, obs["out"])
    assert errs and n > 0


def test_planted_arithmetic_faults_are_caught(run: dict) -> None:
    """re/im swapped, one GaussComplex term, one lane's value: each reported."""
    c = _case("mma.complex/SM90_16x8x4_C64C64C64C64_TN")
    out = list(_obs(run, c.name)["out"])
    swapped = [w for i in range(0, len(out), 4) for w in out[i + 2:i + 4] + out[i:i + 2]]
    assert atoms_check.check_case(c, swapped)[1]
    g = _case("mma.complex/SM80_8x8x4_GC64C64C64GC64_TN")
    gout = copy.deepcopy(_obs(run, g.name)["out"])
    gout[5] ^= 1 << 20                                     # lane 0 value 0: t2's high word
    errs = atoms_check.check_case(g, gout)[1]
    assert errs and "lane 0 value 0" in errs[0] and "Gauss" in errs[0]
    with pytest.raises(HwCheckError):
        atoms_check.check_case(c, out[:-1])
    short = _case("mma.sync/SM90_16x8x16_F64F64F64F64_TN")
    with pytest.raises(HwCheckError, match="shorter than the case writes"):    # every kind: no bare IndexError
        atoms_check.check_case(short, [0] * 5)


def test_dp2a_finding(run: dict) -> None:
    """The H100 computes PTX's rule for .lo and .hi; CuTe's traits (two 16-bit B values) hold for neither."""
    a = atoms.mma_atom("SM61_DP2A")
    regs = atoms_complex.dp2a_regs(a)
    traits = [atoms_complex.dp2a_traits(a, regs[2 * t], regs[2 * t + 1]) for t in range(32)]
    lo, hi = _obs(run, "dot2/SM61_DP2A/lo")["out"], _obs(run, "dot2/SM61_DP2A/hi")["out"]
    assert lo[:4] == [1, 2, 0, 0] and hi[:4] == [0, 0, 1, 2] and traits[:4] == [1, 256, 2, 512]
    assert lo == [1, 2, 0, 0] * 8 and hi == [0, 0, 1, 2] * 8
    assert sum(x != y for x, y in zip(lo, traits)) == 24 and sum(x != y for x, y in zip(hi, traits)) == 32
    for mode in ("lo", "hi"):
        bad = copy.deepcopy(_obs(run, f"dot2/SM61_DP2A/{mode}"))
        bad["out"] = [traits[t] & 0xFFFFFFFF for t in range(32)]   # a GPU that did what CuTe's traits say
        rows, _ = hwcheck.verify({"cases": [bad]})
        assert not rows[0]["ok"] and "CuTe's traits" in rows[0]["detail"]
    log = DP2A_LOG.read_text()
    assert "error   : '.hi/.lo' modifier required for instruction 'dp2a'" in log
    assert re.search(r"dp2a_cute\.cu\nptxas .*\nptxas fatal.*\nnvcc rc=255", log)
    assert re.search(r"dp4a_cute\.cu\nnvcc rc=0", log) and "\tdp2a.s32.s32 %r1, %r2, %r3, %r4;" in log
    src = (ROOT / "examples" / "hardware" / "atoms" / "cute_dp2a" / "dp2a_cute.cu").read_text()
    assert "cute::SM61_DP2A::fma" in src


def test_emitted_sources_of_the_earlier_cases_are_unchanged(tmp_path: Path) -> None:
    """The refactored emitter writes the same kernels and data for the 112 earlier cases as the run of 2026-11-26.

    sha256 of atoms_cases.cuh up to the first new case, as the emitter before the refactor wrote it (the whole file
    then ended with the case table; its rows of those cases are unchanged too).
    """
    atoms_check.emit(tmp_path)
    src = (tmp_path / "atoms_cases.cuh").read_text()
    head = src[:src.index("\n// case 112: ")]
    assert hashlib.sha256(head.encode()).hexdigest()[:16] == "fc125e5cc8c71234"
    table = src[src.index("static const CaseDef kCases[]"):]
    assert table.count("case111, img111, 2048, 4096, regs111, 128, 4096},\n") == 1 and "kNumCases = 119;" in table
    plan = json.loads((tmp_path / "atoms_plan.json").read_text())
    assert [p["name"] for p in plan] == [c.name for c in atoms_check.cases()]


@pytest.mark.parametrize("call", [
    lambda: atoms_complex.complex_operands(atoms.mma_atom("SM80_8x8x4_F64F64F64F64_TN")),
    lambda: atoms_complex.complex_regs("SM80_8x8x4_C64C64C64C64_TN"),
    lambda: atoms_complex.complex_kernel(-1, "x", atoms.mma_atom("SM80_8x8x4_C64C64C64C64_TN")),
    lambda: atoms_complex.check_complex("x", atoms.mma_atom("SM80_8x8x4_C64C64C64C64_TN"), "words"),
    lambda: atoms_complex.dp2a_ptx(1, 2, "mid"),
    lambda: atoms_complex.dp2a_ptx(-1, 2, "lo"),
    lambda: atoms_complex.dp2a_kernel(0, "x", "LO"),
    lambda: atoms_complex.check_dp2a("x", atoms.mma_atom("SM61_DP4A"), "lo", [0] * 32),
    lambda: atoms_complex.is_gauss(None),
])
def test_bad_inputs_are_refused(call) -> None:
    with pytest.raises(LayoutError):
        call()
