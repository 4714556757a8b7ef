"""``prove`` checks the library against something else, and its report is pinned.

* The report's content (text and JSON, every row's detail; the timings aside) is the committed
  ``tests/data/prove_report.*`` (regenerate with ``python tests/test_prove_independent.py --write``
  after a deliberate change; the Markdown copy is ``docs/proofs.md``, checked in test_proofs).
* The lemmas read descriptors through PTX's formula (``proofs.ptx_swizzle``, written from the
  pattern tables of PTX ISA 5.5.7), never through the library's ``swizzled_address``: mutation
  tests weaken the library (a wrong read at high addresses, a dropped tile-anchored base offset)
  and the model (a wrong table row, the model replaced by the library itself) and require a
  refutation each time.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import numpy as np
import pytest

from pycute_layouts import proofs
from pycute_layouts.arch import smem_desc, wgmma
from pycute_layouts.arch.swizzle_modes import SwizzleMode
from pycute_layouts.errors import ProofError
from pycute_layouts.proofs import lemmas as lemmas_mod
from pycute_layouts.proofs import model as model_mod

DATA = Path(__file__).resolve().parent / "data"
TEXT = DATA / "prove_report.txt"
JSON = DATA / "prove_report.json"


def _json_without_times(text: str) -> str:
    return re.sub(r'"seconds": [0-9.e+-]+', '"seconds": 0', text)


# ------------------------------------------------------------------------------------------------
# the report's content is pinned
# ------------------------------------------------------------------------------------------------


def test_report_text_is_the_committed_one(proof_report: proofs.ProofReport) -> None:
    assert proof_report.to_text() + "\n" == TEXT.read_text(), \
        "the prove report changed: if deliberate, run python tests/test_prove_independent.py --write"


def test_report_json_is_the_committed_one(proof_report: proofs.ProofReport) -> None:
    got = _json_without_times(proof_report.to_json())
    assert got + "\n" == JSON.read_text(), \
        "the prove --json report changed: if deliberate, run python tests/test_prove_independent.py --write"
    assert json.loads(got)["ok"] is True


# under xdist, Python 3.12 warns of the worker's execnet I/O thread at the fork; the child uses none of its state
@pytest.mark.filterwarnings("ignore:This process .* is multi-threaded, use of fork:DeprecationWarning")
def test_report_is_the_same_in_one_process(monkeypatch: pytest.MonkeyPatch, proof_report: proofs.ProofReport) -> None:
    # the rows are shared with a forked worker on two CPUs; one process gives the same report
    monkeypatch.setenv("PYCUTE_LAYOUTS_JOBS", "1")
    one = proofs.report(modes=("64B", "128B_ATOM_64B"))
    monkeypatch.setenv("PYCUTE_LAYOUTS_JOBS", "2")  # (any value but 1: forked where _can_fork allows it)
    two = proofs.report(modes=("64B", "128B_ATOM_64B"))
    assert len(one.rows) == 24 and one.to_text() == two.to_text()
    assert _json_without_times(one.to_json()) == _json_without_times(two.to_json())
    full = {(r.tma_mode, r.major, r.element_bits, r.arch): r.to_dict() for r in proof_report.rows}
    for r in one.rows:
        a, b = r.to_dict(), full[(r.tma_mode, r.major, r.element_bits, r.arch)]
        a.pop("seconds"), b.pop("seconds")
        assert a == b


# ------------------------------------------------------------------------------------------------
# the PTX model is PTX's pattern tables (PTX ISA 5.5.7, restated: line r of the pattern holds, at
# position p, the 16-byte cell the table names)
# ------------------------------------------------------------------------------------------------

PATTERN_TABLES = {
    "32B": ["0 1 2 3 4 5 6 7", "1 0 3 2 5 4 7 6"],
    "64B": ["0 1 2 3 4 5 6 7", "1 0 3 2 5 4 7 6", "2 3 0 1 6 7 4 5", "3 2 1 0 7 6 5 4"],
    "128B": ["0 1 2 3 4 5 6 7", "1 0 3 2 5 4 7 6", "2 3 0 1 6 7 4 5", "3 2 1 0 7 6 5 4",
             "4 5 6 7 0 1 2 3", "5 4 7 6 1 0 3 2", "6 7 4 5 2 3 0 1", "7 6 5 4 3 2 1 0"],
    "128B_base32B": ["0 1 2 3 4 5 6 7", "2 3 0 1 6 7 4 5", "4 5 6 7 0 1 2 3", "6 7 4 5 2 3 0 1"],
}
#: PTX ISA 5.5.7: "(dstMem / 128) % 8" (128B), "% 4" (64B), "% 2" (32B); 0 on the pattern boundary.
BASE_OFFSET_EXAMPLES = [("128B", 0x480, 1), ("128B", 0x380, 7), ("128B", 0x400, 0), ("64B", 0x180, 3),
                        ("64B", 0x200, 0), ("32B", 0x180, 1), ("32B", 0x100, 0)]


@pytest.mark.parametrize("mode", sorted(PATTERN_TABLES))
def test_ptx_model_is_the_pattern_table(mode: str) -> None:
    table = [[int(c) for c in row.split()] for row in PATTERN_TABLES[mode]]
    for rep in range(2):  # "... Pattern repeats ..."
        for r, row in enumerate(table):
            line = (rep * len(table) + r) * 128
            for pos, cell in enumerate(row):
                for byte in (0, 5, 15):
                    assert proofs.ptx_swizzle(mode, line + 16 * cell + byte) == line + 16 * pos + byte, (mode, r, pos)


@pytest.mark.parametrize("mode,start,want", BASE_OFFSET_EXAMPLES)
def test_ptx_base_offset_formula(mode: str, start: int, want: int) -> None:
    assert proofs.ptx_base_offset(mode, start) == want
    # a pattern that starts at `start`, read with that base offset, is the table placed at `start`
    x = np.arange(proofs.PTX_PATTERN_BOUNDARY_BYTES[mode])
    assert (proofs.ptx_swizzle(mode, start + x, want) == start + proofs.ptx_swizzle(mode, x)).all()


# ------------------------------------------------------------------------------------------------
# weakening the library is refuted
# ------------------------------------------------------------------------------------------------


def _wrong_high(monkeypatch: pytest.MonkeyPatch) -> None:
    """The library reads a wrong 16-byte chunk in the upper 128 KiB (nothing but the window-wide check sees it)."""
    orig = smem_desc.SmemDescriptorBase.swizzled_address

    def wrong(self: object, address: object) -> object:
        a = orig(self, address)
        return a ^ (((np.asarray(address) >> 17) & 1) << 4) if self.swizzle.is_swizzled else a

    monkeypatch.setattr(smem_desc.SmemDescriptorBase, "swizzled_address", wrong)


def test_library_read_wrong_at_high_addresses_is_refuted(monkeypatch: pytest.MonkeyPatch) -> None:
    _wrong_high(monkeypatch)
    cx = proofs.prove_base_offset_rule("128B", "sm90")
    assert not cx and "swizzled_address(0x20000)" in cx.summary()
    with pytest.raises(ProofError, match="the PTX formula"):  # the read side's model is not the library
        lemmas_mod.descriptor_swizzle(wgmma.SmemDescriptor(0, 16, 1024, "64B"))
    assert not proofs.prove_tma_matches_wgmma("128B", "K", 16)
    assert not proofs.prove_k_step("128B", 16)
    assert not proofs.report(modes=("32B",), majors=("K",), element_bits=(16,), archs=("sm90",), exhaustive=False).ok


def test_tile_anchored_base_offset_of_a_32B_tile_dropped_is_refuted(monkeypatch: pytest.MonkeyPatch) -> None:
    orig = smem_desc.base_offset_for_pattern_start

    def dropped(mode: object, start: int) -> int:
        return 0 if SwizzleMode.parse(mode) is SwizzleMode.B32 else orig(mode, start)

    monkeypatch.setattr(smem_desc, "base_offset_for_pattern_start", dropped)
    for arch in ("sm90", "sm100"):
        cx = proofs.prove_base_offset_rule("32B", arch)
        assert not cx, arch
    assert proofs.prove_base_offset_rule("64B", "sm90")  # only the 32B tile was weakened
    rep = proofs.report(modes=("32B",), majors=("K",), element_bits=(16,), archs=("sm90",), exhaustive=False)
    assert not rep.ok and [r.tma_mode for r in rep.failures] == ["base-offset rule 32B"]


def test_tile_anchored_base_offset_off_by_one_line_is_refuted(monkeypatch: pytest.MonkeyPatch) -> None:
    orig = smem_desc.base_offset_for_pattern_start
    monkeypatch.setattr(smem_desc, "base_offset_for_pattern_start",
                        lambda mode, start: (orig(mode, start) + 1) % 8 if start % 1024 else 0)
    for mode in ("32B", "64B", "128B"):
        assert not proofs.prove_base_offset_rule(mode, "sm90"), mode


# ------------------------------------------------------------------------------------------------
# weakening the model is refuted too (the library, right, disagrees with it)
# ------------------------------------------------------------------------------------------------


def test_model_with_a_wrong_table_row_is_refuted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(model_mod.PTX_SWIZZLE_XOR, "128B", (2, 4))
    lemmas_mod._SWIZZLE_CHECKED.clear()
    try:
        assert not proofs.prove_base_offset_rule("128B", "sm90")
        # the library agrees with TMA, so no tile coordinate differs: the proof stops, undecided, never "proved"
        with pytest.raises(ProofError, match="the PTX formula"):
            proofs.prove_tma_matches_wgmma("128B", "K", 16)
    finally:
        lemmas_mod._SWIZZLE_CHECKED.clear()


def test_model_ignoring_the_base_offset_is_refuted(monkeypatch: pytest.MonkeyPatch) -> None:
    orig = model_mod.ptx_swizzle
    monkeypatch.setattr(lemmas_mod, "ptx_swizzle", lambda name, a, base_offset=0: orig(name, a))
    lemmas_mod._SWIZZLE_CHECKED.clear()
    try:
        for mode in ("32B", "64B", "128B"):
            assert not proofs.prove_base_offset_rule(mode, "sm90"), mode
    finally:
        lemmas_mod._SWIZZLE_CHECKED.clear()


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    if "--write" in sys.argv:
        rep = proofs.report()
        DATA.mkdir(exist_ok=True)
        TEXT.write_text(rep.to_text() + "\n")
        JSON.write_text(_json_without_times(rep.to_json()) + "\n")
        print(f"wrote {TEXT} and {JSON}")
