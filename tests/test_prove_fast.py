"""The faster ``prove`` decides what it decided before: each shortcut against the computation it replaced.

* The atom-base step (step 4) is decided on integer coefficients; sympy's ``expand`` /
  ``Mod(factor_terms(...))`` must agree on every pairing, faulted ones included (held and failed).
* Formulas evaluated from their integer terms equal sympy's ``xreplace``.
* The 256 KiB window is checked in chunks: the first flagged address is the one a whole-window
  comparison finds.
* Proof texts written when read are the same text, and a failing step is still a refutation.
"""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from pycute_layouts import Swizzle
from pycute_layouts.arch.swizzle_modes import SMEM_WINDOW_BYTES
from pycute_layouts.core.symbols import symbols
from pycute_layouts.proofs import Faults, pairing, prove_base_offset_rule, prove_pairing, prove_tma_matches_wgmma
from pycute_layouts.proofs import lemmas as lemmas_mod
from pycute_layouts.proofs import theorem as theorem_mod
from pycute_layouts.proofs.model import fact_scope

CASES = [
    (("128B", "K", 16, "sm90"), {}, None),
    (("64B", "MN", 16, "sm100"), {}, None),
    (("none", "K", 8, "sm90"), {}, None),
    (("32B", "MN", 32, "sm100"), {}, None),
    (("128B_ATOM_32B", "MN", 16, "sm100"), {}, None),
    (("128B", "K", 16, "sm90"), {}, Faults(sbo_bytes=512)),
    (("none", "K", 16, "sm90"), {}, Faults(lbo_bytes=128)),
    (("64B", "K", 16, "sm90"), {"mma_mode": "128B"}, None),
]


def _sympy_atom_base(fm, in_mn, in_k, P):  # noqa: ANN001, ANN202 -- the computation step 4 used before
    import sympy as sp

    dq = sp.Symbol("d", integer=True, nonnegative=True)

    def base(s):  # noqa: ANN001, ANN202
        return (P * dq + sum((s.mn_bits[t] * fm.mn_bits[t] for t in range(len(fm.mn_bits)) if t not in in_mn), sp.Integer(0))
                + sum((s.k_bits[t] * fm.k_bits[t] for t in range(len(fm.k_bits)) if t not in in_k), sp.Integer(0))
                + s.mn_outer * fm.a + s.k_outer * fm.q)

    bt, bw = base(fm.t_side), base(fm.w_side)
    return sp.expand(bt - bw) == 0 and sp.Mod(sp.factor_terms(bt), P) == 0


def test_atom_base_integer_decision_is_sympys(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = []
    orig = theorem_mod._atom_base_holds

    def both(fm, in_mn, in_k, P, gens):  # noqa: ANN001, ANN202
        fast = orig(fm, in_mn, in_k, P, gens)
        assert fast == _sympy_atom_base(fm, in_mn, in_k, P)
        seen.append(fast)
        return fast

    monkeypatch.setattr(theorem_mod, "_atom_base_holds", both)
    for args, kw, faults in CASES:
        prove_pairing(pairing(*args, **kw), "symbolic", 0, faults)
    assert True in seen and False in seen  # both outcomes were compared


def test_integer_evaluation_is_xreplace() -> None:
    m, k = symbols("m k")
    for e in (8 * m * k + 16 * m + 3, 1024 * k, m**2 * k - 7, (m + 1) * k, m / 2 + k / 2, 5 + 0 * m):
        for mv, kv in ((1, 1), (3, 7), (256, 1)):
            sub = {m: mv, k: kv}
            assert theorem_mod._num(e, sub) == int(e.xreplace(sub))
    assert theorem_mod._poly_terms((m + 1) * k, (m, k)) is None  # not expanded: xreplace decides


@pytest.mark.parametrize("bad", [None, 0, 1, 16383, 16384, 200_000, SMEM_WINDOW_BYTES - 1])
def test_window_chunks_find_the_first_disagreement(bad: int | None) -> None:
    def f(a: np.ndarray) -> np.ndarray:
        return (a >= bad) & (a % 3 == bad % 3) if bad is not None else a < 0

    whole = np.flatnonzero(f(np.arange(SMEM_WINDOW_BYTES, dtype=np.int64)))
    assert lemmas_mod._first_in_window(f) == (int(whole[0]) if len(whole) else None)
    sw = Swizzle(3, 4, 3)
    assert lemmas_mod.first_period_violation(sw, 1024) is None
    a = np.arange(SMEM_WINDOW_BYTES, dtype=np.int64)
    assert lemmas_mod.first_period_violation(sw, 512) == int(np.flatnonzero(sw(a) != sw(a % 512) + a - a % 512)[0]) == 512


def test_texts_written_when_read_are_complete() -> None:
    p = prove_tma_matches_wgmma("128B", "K", 16)
    words = [w for w, _ in p.steps]
    assert words[0].startswith("TMA side") and words[-1].startswith("Conclusion")
    assert any(w.startswith("Atom base") for w in words) and any(w.startswith("In-atom identity") for w in words)
    assert p.steps is p.steps  # written once
    assert "(8*m)x(64*k) tile" in p.claim and p.to_text().endswith("Q.E.D.")
    with fact_scope():
        cx = prove_tma_matches_wgmma("128B", "K", 16, faults=Faults(sbo_bytes=512))
    assert not cx and "atom base" in cx.reason


def test_a_proof_with_texts_written_when_read_pickles() -> None:
    p = prove_tma_matches_wgmma("64B", "MN", 16, "sm100")
    q = pickle.loads(pickle.dumps(p))
    assert q.to_text() == p.to_text() and q.claim == p.claim
    b = pickle.loads(pickle.dumps(prove_base_offset_rule("128B")))
    assert b.to_text() == prove_base_offset_rule("128B").to_text()
