"""TMA swizzle modes vs wgmma/tcgen05 descriptors: pycute_layouts.proofs and ``pycute-layouts prove``.

The engine must be able to fail: every planted fault (wrong LBO, SBO, layout type, base offset,
start address, mismatched atom or major) must produce a confirmed counterexample, and the
symbolic and exhaustive methods must agree on every pairing.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import subprocess

import cli_runner
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pycute_layouts import Layout, LayoutError, XorSwizzle
from pycute_layouts.arch import smem_desc, tma, umma, wgmma
from pycute_layouts.arch.swizzle_modes import MMA_MODES, SwizzleMode
from pycute_layouts.arch.tma import box as tma_box
from pycute_layouts.core.symbols import symbols
from pycute_layouts.errors import DescriptorError, ProofError
from pycute_layouts.proofs.exhaustive import check_sizes
from pycute_layouts.proofs.lemmas import (
    prove_base_offset_rule,
    prove_descriptor_encoding,
    prove_k_step,
    swizzle_period_lemma,
)
from pycute_layouts.proofs.model import (
    ARCHS,
    ELEMENT_BITS,
    MAJORS,
    PTX_TCGEN05_LAYOUT_TYPE,
    PTX_WGMMA_LAYOUT_TYPE,
    TMA_MODES,
    instruction_descriptors,
    pairing,
    ptx_decode,
    ptx_encode,
    tma_addresses,
    wgmma_addresses,
)
from pycute_layouts.proofs.report import EXPECTED_NOT_APPLICABLE, ProofReport, ReportRow, expected_status, report
from pycute_layouts.proofs.theorem import (
    Faults,
    NotApplicable,
    TheoremCounterexample,
    TheoremProof,
    _bitwise_linear,
    prove_pairing,
    prove_tma_matches_wgmma,
)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ALL = [(m, mj, b, a) for m in TMA_MODES for mj in MAJORS for b in ELEMENT_BITS for a in ARCHS]
MATCHED = []
for _args in ALL:
    try:
        MATCHED.append(pairing(*_args))
    except NotApplicable:
        pass


@pytest.fixture(scope="module")
def full_report(proof_report: ProofReport) -> ProofReport:
    return proof_report  # conftest: built once per session


# ------------------------------------------------------------------------------------------------
# the table: expectations, agreement of the two methods, the docs copy
# ------------------------------------------------------------------------------------------------


def test_report_all_as_expected_and_methods_agree(full_report: ProofReport) -> None:
    assert full_report.ok, [r.to_dict() for r in full_report.failures]
    assert len(full_report.rows) == len(ALL) == 96
    for r in full_report.rows:
        if r.status != "not applicable":
            assert r.exhaustive == r.status, r
        assert r.expected == expected_status(r.tma_mode, r.major, r.element_bits, r.arch)[0]  # the fixed table
    assert {(r.tma_mode, r.arch) for r in full_report.lemmas} >= {("descriptor encoding", a) for a in ARCHS}
    c = full_report.counts()
    # 4 plain modes: sm90 K (3 widths) + MN 16-bit, sm100 both majors x 3 widths; 128B_ATOM_32B sm100 MN x 3
    assert c["proved"] == 4 * (3 + 1) + 4 * 6 + 3 == 43
    assert len(full_report.negatives) >= 8 and all(r.status == "refuted" for r in full_report.negatives)


def test_classification_of_the_special_modes(full_report: ProofReport) -> None:
    rows = {(r.tma_mode, r.major, r.element_bits, r.arch): r for r in full_report.rows}
    assert rows[("128B_ATOM_32B", "MN", 16, "sm100")].status == "proved"
    assert rows[("128B_ATOM_32B", "K", 16, "sm100")].status == "not applicable"
    assert "MN-major only" in rows[("128B_ATOM_32B", "K", 16, "sm100")].detail
    assert "sm90" in rows[("128B_ATOM_32B", "MN", 16, "sm90")].detail
    flip = rows[("128B_ATOM_32B_FLIP_8B", "MN", 16, "sm100")]
    assert flip.status == "refuted" and flip.wgmma_mode == "128B_base32B" and flip.counterexample
    assert rows[("128B_ATOM_64B", "K", 8, "sm90")].status == "refuted"
    assert rows[("96B", "K", 16, "sm90")].status == "refuted" and "PTX-only" in rows[("96B", "K", 16, "sm90")].detail
    na = rows[("64B", "MN", 8, "sm90")]
    assert na.status == "not applicable" and ".f16/.bf16" in na.detail


def test_docs_table_is_the_report(full_report: ProofReport) -> None:
    text = open(os.path.join(ROOT, "docs", "proofs.md")).read()
    m = re.search(r"<!-- report-start -->\n(.*)\n<!-- report-end -->", text, re.S)
    assert m, "docs/proofs.md lost its report markers"
    assert m.group(1) == full_report.to_markdown()


def test_report_renderings(full_report: ProofReport) -> None:
    data = json.loads(full_report.to_json())
    assert data["ok"] is True and len(data["rows"]) == 96
    cx = next(r for r in data["rows"] if r["status"] == "refuted")["counterexample"]
    assert set(cx) >= {"coordinate", "tma_address", "wgmma_address", "descriptor"}
    assert "| 128B | K | 16 | sm90 | 128B | proved | proved | proved |" in full_report.to_markdown()
    text = full_report.to_text()
    assert text.splitlines()[-1].endswith("all as expected")
    assert max(len(x) for x in text.splitlines()) <= 120  # rows fit 120 characters by default
    head = next(x for x in text.splitlines() if x.startswith("TMA mode"))
    assert head.split() == ["TMA", "mode", "major", "bits", "arch", "MMA", "atom", "expected", "result", "exhaustive",
                            "detail"]  # architecture-neutral: sm100 rows sit under "MMA atom"
    assert "wgmma atom" not in text and "(23 as expected)" in text
    full = full_report.to_text(details=True)
    assert max(len(x) for x in full.splitlines()) > 120 and "counterexample" not in text.splitlines()[0]


def test_report_flags_unexpected_rows() -> None:
    bad = ProofReport(rows=[ReportRow("128B", "K", 16, "sm90", "128B", "refuted", "proved", "x")])
    assert not bad.ok and bad.failures and "UNEXPECTED" in bad.to_text()
    disagree = ReportRow("128B", "K", 16, "sm90", "128B", "proved", "proved", "", exhaustive="refuted")
    assert not disagree.ok


# ------------------------------------------------------------------------------------------------
# symbolic proof objects
# ------------------------------------------------------------------------------------------------


def test_symbolic_proof_structure() -> None:
    p = prove_tma_matches_wgmma("64B", "K", 8, "sm100")
    assert isinstance(p, TheoremProof) and p and p.method == "symbolic"
    words = [w for w, _ in p.steps]
    for key in ("Atom base", "Period lemma", "In-atom identity", "K-step lemma", "Conclusion"):
        assert any(w.startswith(key) for w in words), key
    text = p.to_text()
    assert "Mod(base, 512) = 0" in text and "base_TMA - base_wgmma = 0" in text and text.endswith("Q.E.D.")
    md = p.to_markdown()
    assert md.startswith("**Claim.**") and "| step | reason | formula |" in md


@pytest.mark.parametrize("mode,major,bits,arch", [("none", "K", 16, "sm90"), ("32B", "MN", 16, "sm90"),
                                                   ("128B", "MN", 32, "sm100"), ("128B_ATOM_32B", "MN", 8, "sm100")])
def test_symbolic_covers_every_128_aligned_destination(mode: str, major: str, bits: int, arch: str) -> None:
    # the proof quantifies over dst mod P in 128-byte steps; spot-check far, off-period destinations exhaustively
    p = pairing(mode, major, bits, arch)
    proof = prove_pairing(p, "symbolic", 0)
    assert proof and "every 128-byte-aligned dst" in proof.claim
    mn, kk = p.tile_shape(2, 2)
    top = ((1 << 18) - mn * kk * p.element_bytes - 1024) // 1024 * 1024 + 0x380
    for dst in (0x180, 0x480, 0x80 + 37 * 128, top):
        assert check_sizes(p, [(2, 2)], dst) is None, hex(dst)


def test_reference_values() -> None:
    # PTX 5.5.7 128B table row 1 (16-byte chunks 1 0 3 2 5 4 7 6), read by the TMA side
    p = pairing("128B", "K", 16)
    row1 = tma_addresses(p, 1, 1, 0)[1, ::8]
    assert ((row1 - 128) // 16).tolist() == [1, 0, 3, 2, 5, 4, 7, 6]
    # the wgmma docstring's descriptor: ((8,8),(8,2)):((64,512),(1,8)) at 0x400 -> 0x4000004000010040
    _a, descs = wgmma_addresses(p, 8, 1, 0x400)
    assert descs[0].encode() == 0x4000004000010040
    assert [d.start_address - 0x400 for d in descs] == [0, 32, 64, 96]
    # MN-major 64B bf16 (PTX example: LBO 256 x 2 B, SBO 512 x 2 B) for a 64 x 16 tile
    p = pairing("64B", "MN", 16)
    d = instruction_descriptors(p, 2, 1, 0, Faults())[0]
    assert (d.lbo_bytes, d.sbo_bytes, d.lbo_16B, d.sbo_16B) == (512, 1024, 32, 64)


# ------------------------------------------------------------------------------------------------
# exhaustive, with hypothesis
# ------------------------------------------------------------------------------------------------


@st.composite
def sized_pairings(draw: st.DrawFn) -> tuple:
    p = draw(st.sampled_from(MATCHED))
    m = draw(st.integers(1, 4))
    k = draw(st.integers(1, 3))
    mn, kk = p.tile_shape(m, k)
    room = (1 << 18) - mn * kk * p.element_bytes  # anywhere in the 256 KiB window
    dst = draw(st.integers(0, room // p.tma_alignment_bytes)) * p.tma_alignment_bytes
    return p, m, k, dst


@settings(max_examples=60)
@given(sized_pairings())
def test_exhaustive_every_coordinate(case: tuple) -> None:
    p, m, k, dst = case
    a = tma_addresses(p, m, k, dst)
    b, descs = wgmma_addresses(p, m, k, dst)
    assert a.shape == p.tile_shape(m, k) and np.array_equal(a, b)
    # TMA fills its box without overlap, in the box's own bytes
    assert len(np.unique(a)) == a.size
    assert all(d.base_offset == 0 for d in descs)


@settings(max_examples=40)
@given(sized_pairings(), st.data())
def test_planted_faults_are_caught(case: tuple, data: st.DataObject) -> None:
    p, m, k, dst = case
    d = instruction_descriptors(p, m, k, dst, Faults())[0]
    mode = p.mma_mode
    options = []
    mn, _ = p.tile_shape(m, k)
    if p.mma_major == "K" and mn > 8:
        options.append(Faults(sbo_bytes=d.sbo_bytes + 16 * data.draw(st.integers(1, 8))))
    if p.mma_major == "K" and not mode.is_swizzled:
        options.append(Faults(lbo_bytes=d.lbo_bytes + 16))
    if p.mma_major == "MN" and mode.is_swizzled and mn > p.tma_span_elems:
        options.append(Faults(lbo_bytes=d.lbo_bytes + 16))
    if mode.is_swizzled:
        nb = 1 << mode.byte_swizzle.bits
        bo = data.draw(st.sampled_from([b for b in range(1, 8) if b % nb]))
        options.append(Faults(base_offset=bo))
        others = [x for x in ("none", "32B", "64B", "128B") if x != mode.short_name]
        options.append(Faults(swizzle=data.draw(st.sampled_from(others))))
    options.append(Faults(start_offset_bytes=16 * data.draw(st.integers(1, 4))))
    fault = data.draw(st.sampled_from(options))
    cx = check_sizes(p, [(m, k)], dst, fault)
    assert cx is not None, (p.describe(), m, k, dst, fault)
    assert isinstance(cx, TheoremCounterexample) and not cx
    a = tma_addresses(p, m, k, dst)
    b, _ = wgmma_addresses(p, m, k, dst, fault)
    assert a[cx.coordinate] == cx.tma_address != cx.wgmma_address == b[cx.coordinate]


# ------------------------------------------------------------------------------------------------
# planted faults and stated mismatches: both methods refute, with a confirmed counterexample
# ------------------------------------------------------------------------------------------------

FAULTS = [
    (("none", "K", 16, "sm90"), {}, Faults(lbo_bytes=128), 0),
    (("none", "MN", 16, "sm90"), {}, Faults(sbo_bytes=256), 0),
    (("128B", "K", 8, "sm90"), {}, Faults(sbo_bytes=512), 0),
    (("64B", "MN", 16, "sm100"), {}, Faults(lbo_bytes=1024), 0),
    (("32B", "K", 32, "sm90"), {}, Faults(swizzle="64B"), 0),
    (("128B", "MN", 16, "sm90"), {}, Faults(swizzle="none"), 0),
    (("128B", "K", 16, "sm90"), {}, Faults(base_offset=1), 0),
    (("128B", "K", 16, "sm100"), {}, Faults(swizzle_anchor="tile"), 0x480),
    (("64B", "K", 16, "sm90"), {}, Faults(swizzle_anchor="tile"), 0x280),
    (("128B_ATOM_32B", "MN", 16, "sm100"), {}, Faults(base_offset=1), 0),
    (("64B", "K", 16, "sm90"), {}, Faults(start_offset_bytes=16), 0),
    (("64B", "K", 16, "sm90"), {"wgmma_swizzle": "128B"}, None, 0),
    (("128B", "K", 16, "sm90"), {"wgmma_swizzle": "64B"}, None, 0),
    (("128B", "MN", 16, "sm90"), {"wgmma_major": "K"}, None, 0),
    (("32B", "K", 16, "sm100"), {"wgmma_major": "MN"}, None, 0),
    (("128B_ATOM_32B", "MN", 16, "sm100"), {"wgmma_swizzle": "128B"}, None, 0),
]


@pytest.mark.parametrize("args,kw,fault,dst", FAULTS)
def test_faults_refuted_by_both_methods(args: tuple, kw: dict, fault: Faults | None, dst: int) -> None:
    results = [prove_tma_matches_wgmma(*args, method=meth, dst_address=dst, faults=fault, **kw)
               for meth in ("symbolic", "exhaustive")]
    for cx in results:
        assert isinstance(cx, TheoremCounterexample) and not cx
        p = cx.pairing
        a = tma_addresses(p, cx.m, cx.k, cx.dst_address)
        b, descs = wgmma_addresses(p, cx.m, cx.k, cx.dst_address, fault)
        assert a[cx.coordinate] == cx.tma_address and b[cx.coordinate] == cx.wgmma_address
        assert cx.tma_address != cx.wgmma_address
        text = cx.to_text()
        assert text.startswith("Counterexample:") and f"{cx.tma_address:#x}" in text
        assert cx.differing_bits and cx.to_markdown().startswith("**Counterexample:")
    assert "failed step" in results[0].reason


def test_harmless_changes_are_proved() -> None:
    # K-major swizzled layouts do not read LBO ("assumed 1"); 32B reads only bit 0 of the base offset
    assert prove_tma_matches_wgmma("128B", "K", 16, faults=Faults(lbo_bytes=4096))
    assert prove_tma_matches_wgmma("128B", "K", 16, method="exhaustive", faults=Faults(lbo_bytes=4096))
    assert prove_tma_matches_wgmma("32B", "K", 16, faults=Faults(base_offset=2))
    assert prove_tma_matches_wgmma("32B", "K", 16, method="exhaustive", faults=Faults(base_offset=2))


def test_tile_off_the_pattern_boundary_needs_base_offset_zero() -> None:
    # TMA destinations are 128-byte aligned (an H100 faults otherwise); off the 1024-byte pattern
    # boundary the data is still swizzled by absolute address, so base offset 0 reads it
    for dst in (0x80, 0x180, 0x480, 0x780):
        assert prove_tma_matches_wgmma("128B", "K", 16, dst_address=dst)
        assert prove_tma_matches_wgmma("128B", "K", 16, method="exhaustive", dst_address=dst)
    cx = prove_tma_matches_wgmma("128B", "K", 16, dst_address=0x480, faults=Faults(swizzle_anchor="tile"))
    assert not cx and cx.descriptor.base_offset == 1


@pytest.mark.parametrize("dst", [0x4A0, 0x2D0, 0x10, 0x440])
def test_destination_not_128_aligned_is_refused(dst: int) -> None:
    with pytest.raises(ProofError, match="not a multiple of 128 bytes"):
        prove_tma_matches_wgmma("128B", "K", 16, dst_address=dst)
    with pytest.raises(ProofError, match="not a multiple of 128 bytes"):
        tma_addresses(pairing("128B", "K", 16), 1, 1, dst)


def test_k_step_descriptors_at_128_aligned_starts() -> None:
    # K-major 128B tiles at 128-byte-aligned starts begin on a row of the pattern: advance() counts
    # rows the same way from the pattern boundary and from the tile start
    for dst in (0x480, 0x180):
        _, d = wgmma_addresses(pairing("128B", "K", 16), 1, 1, dst)
        assert [x.start_address - dst for x in d] == [0, 32, 64, 96]
        assert all(d[0].advance(32 * s, major="K") == d[s] == d[0].advance(32 * s, major="K", tile_start=dst)
                   for s in range(4))


# ------------------------------------------------------------------------------------------------
# lemmas
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("mode", ["64B", "128B"])
@pytest.mark.parametrize("bits", ELEMENT_BITS)
def test_k_step_lemma(arch: str, mode: str, bits: int) -> None:
    assert prove_k_step(mode, bits, arch)
    cx = prove_k_step(mode, bits, arch, advance_bytes=64 if mode == "128B" else 16)
    # instruction 0 is not moved, so the first differing element is in a later K slice
    assert not cx and cx.coordinate[1] >= 32 * 8 // bits


def test_k_step_not_applicable_and_bad_step() -> None:
    with pytest.raises(NotApplicable):
        prove_k_step("32B", 16)
    with pytest.raises(NotApplicable):
        prove_k_step("none", 16)
    with pytest.raises(ProofError):
        prove_k_step("128B", 16, advance_bytes=8)


@pytest.mark.parametrize("mode,arch", [("32B", "sm90"), ("64B", "sm90"), ("128B", "sm90"), ("128B", "sm100"),
                                       ("128B_base32B", "sm100")])
def test_base_offset_rule(mode: str, arch: str) -> None:
    assert prove_base_offset_rule(mode, arch)
    # the alternative the H100 test must rule out: the phase XOR-ed instead of subtracted -- it is
    # the same map for the XOR of (S >> 7); the fault "always 0" is refuted for every swizzled mode
    assert not prove_base_offset_rule(mode, arch, base_offset_fn=lambda m, s: 0)
    assert not prove_base_offset_rule(mode, arch, base_offset_fn=lambda m, s: ((s >> 7) + 1) & 7)


def test_period_lemma() -> None:
    ok, bits = swizzle_period_lemma(tma.swizzle_byte_map("128B_ATOM_32B_FLIP_8B"), 512)
    assert ok and str(bits[3]) == "i3 ^ i7"
    assert not swizzle_period_lemma(tma.swizzle_byte_map("128B"), 512)[0]
    with pytest.raises(ProofError):
        swizzle_period_lemma(tma.swizzle_byte_map("128B"), 1000)


# ------------------------------------------------------------------------------------------------
# bad input
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("args,kw,exc", [
    (("12B", "K", 16), {}, ProofError),
    (("128B", "K", 12), {}, ProofError),
    (("128B", "K", True), {}, ProofError),
    (("128B", "K", 16, "sm80"), {}, ProofError),
    (("128B", "Q", 16), {}, ProofError),
    (("128B", "K", 16), {"method": "sat"}, ProofError),
    (("128B", "K", 16), {"wgmma_swizzle": "96B"}, ProofError),
    (("128B", "K", 16), {"wgmma_major": "row"}, ProofError),
    (("128B", "K", 16), {"dst_address": 8}, ProofError),
    (("128B", "K", 16), {"dst_address": -16}, ProofError),
    (("128B_ATOM_32B", "MN", 16), {"dst_address": 16}, ProofError),
    (("128B", "K", 16), {"faults": "sbo=512"}, ProofError),
    (("128B", "MN", 8, "sm90"), {}, NotApplicable),
    (("128B_ATOM_32B", "MN", 16, "sm90"), {}, NotApplicable),
    (("128B_ATOM_32B", "K", 16, "sm100"), {}, NotApplicable),
    (("128B_ATOM_64B", "K", 16, "sm100"), {}, NotApplicable),
    (("96B", "K", 16), {}, NotApplicable),
])
def test_bad_input(args: tuple, kw: dict, exc: type) -> None:
    with pytest.raises(exc) as e:
        prove_tma_matches_wgmma(*args, **kw)
    assert isinstance(e.value, LayoutError) and str(e.value)


def test_bad_faults_and_sizes() -> None:
    for kw in ({"lbo_bytes": -16}, {"sbo_bytes": 1.5}, {"base_offset": True}, {"swizzle": "13B"},
               {"swizzle_anchor": "relative"}, {"start_offset_bytes": "16"}):
        with pytest.raises(LayoutError):
            Faults(**kw)
    p = pairing("128B", "K", 16)
    with pytest.raises(ProofError):
        check_sizes(p, [(0, 1)])
    with pytest.raises(ProofError):
        check_sizes(p, [(64, 64)])  # does not fit the 256 KiB window
    with pytest.raises(ProofError):  # a base offset cannot be encoded without swizzle
        prove_tma_matches_wgmma("none", "K", 16, faults=Faults(base_offset=1))
    with pytest.raises(ProofError):
        report(archs=("sm80",))


# ------------------------------------------------------------------------------------------------
# the command line
# ------------------------------------------------------------------------------------------------

EXE = shutil.which("pycute-layouts")


def run(*args: str) -> subprocess.CompletedProcess:
    """pycute-layouts ARGS, answered in this process (tests/cli_runner.py)."""
    return cli_runner.run(*args)


def test_cli_json_subset() -> None:
    r = run("prove", "--mode", "128B,128B_ATOM_32B", "--arch", "sm100", "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["ok"] is True and len(data["rows"]) == 12
    assert {x["status"] for x in data["rows"]} == {"proved", "not applicable"}


def test_cli_text_and_markdown() -> None:
    r = run("prove", "--mode", "32B", "--bits", "16", "--no-exhaustive")
    assert r.returncode == 0, r.stderr
    assert "all as expected" in r.stdout and "32B" in r.stdout
    r = run("prove", "--mode", "64B", "--major", "K", "--bits", "8", "--arch", "sm90", "--markdown")
    assert r.returncode == 0, r.stderr
    assert "| 64B | K | 8 | sm90 | 64B | proved | proved |" in r.stdout


def test_cli_single_pairing() -> None:
    r = run("prove", "--pairing", "128B", "K", "16", "sm90")
    assert r.returncode == 0 and r.stdout.startswith("Claim:") and "Q.E.D." in r.stdout
    r = run("prove", "--pairing", "64B", "K", "16", "sm90", "--wgmma-swizzle", "128B", "--json")
    assert r.returncode == 1, r.stderr  # a counterexample is a finding, also for a stated mismatch
    data = json.loads(r.stdout)
    assert data["proved"] is False and data["coordinate"] == [0, 32]


@pytest.mark.parametrize("args,words", [
    (("prove", "--mode", "13B"), "13B"),
    (("prove", "--bits", "12"), "element_bits"),
    (("prove", "--arch", "sm80"), "sm80"),
    (("prove", "--json", "--markdown"), "one of"),
    (("prove", "--pairing", "128B", "K", "x", "sm90"), "integer"),
    (("prove", "--pairing", "128B", "MN", "8", "sm90"), "not applicable"),
])
def test_cli_bad_input_exit_2_one_line(args: tuple, words: str) -> None:
    r = run(*args)
    assert r.returncode == 2, (r.stdout, r.stderr)
    lines = [x for x in r.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and "error" in lines[0] and words.lower() in lines[0].lower()
    assert "Traceback" not in r.stderr


def test_cli_unknown_option_and_help() -> None:
    r = run("prove", "--frobnicate")
    assert r.returncode == 2 and "error" in r.stderr.splitlines()[-1] and "Traceback" not in r.stderr
    r = run("prove", "--help")
    assert r.returncode == 0 and "--json" in r.stdout and "--markdown" in r.stdout


def test_cli_exit_1_when_an_expected_proof_fails(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    from pycute_layouts import cli, proofs

    bad = ProofReport(rows=[ReportRow("128B", "K", 16, "sm90", "128B", "refuted", "proved", "planted")])
    monkeypatch.setattr(proofs, "report", lambda **kw: bad)
    assert cli.main(["prove"]) == 1
    assert "UNEXPECTED" in capsys.readouterr().out


# ------------------------------------------------------------------------------------------------
# library mutants (issue 6 review): each one was missed before and must now be refuted
# ------------------------------------------------------------------------------------------------


def _wrap_encode(monkeypatch: pytest.MonkeyPatch, cls: type, clear_mask: int) -> None:
    orig = cls.encode
    monkeypatch.setattr(cls, "encode", lambda self: orig(self) & ~clear_mask)


def test_g1_encode_dropping_start_bit_13(monkeypatch: pytest.MonkeyPatch) -> None:
    # start-field bit 13 is address bit 17: only tiles at or above 0x20000 see it
    _wrap_encode(monkeypatch, wgmma.SmemDescriptor, 1 << 13)
    cx = prove_descriptor_encoding("sm90")
    assert not cx and "start_address=131072" in cx.summary()  # 0x20000, the first start with the bit set
    for method in ("symbolic", "exhaustive"):
        cx = prove_tma_matches_wgmma("128B", "K", 16, method=method)
        assert isinstance(cx, TheoremCounterexample) and cx.dst_address + cx.wgmma_address >= 0x20000
        assert cx.tma_address - cx.wgmma_address == 0x20000


def test_g1_encode_dropping_sbo_bit_13(monkeypatch: pytest.MonkeyPatch) -> None:
    # SBO-field bit 13 = 128 KiB: only the whole-window 8192x16 bf16 MN-major tile (m = 128) sets it
    _wrap_encode(monkeypatch, wgmma.SmemDescriptor, 1 << 45)
    assert not prove_descriptor_encoding("sm90")
    cx = prove_tma_matches_wgmma("128B", "MN", 16)
    assert isinstance(cx, TheoremCounterexample) and cx.m == 128 and "descriptor fields" in cx.reason
    assert cx.tma_address - cx.wgmma_address == 1 << 17


def test_g1_sbo_field_wrapping_at_4k(monkeypatch: pytest.MonkeyPatch) -> None:
    # the SBO field keeps only 8 bits (& 0xFF): a 256x16 bf16 MN-major 128B tile (m = 4) reads SBO 0
    _wrap_encode(monkeypatch, wgmma.SmemDescriptor, 0x3F00 << 32)
    assert not prove_descriptor_encoding("sm90")
    cx = prove_tma_matches_wgmma("128B", "MN", 16)
    assert isinstance(cx, TheoremCounterexample) and cx.m >= 4
    assert cx.descriptor.sbo_bytes == 1024 * cx.m % 4096


def _sbo_plus_16(monkeypatch: pytest.MonkeyPatch, from_bytes: int) -> None:
    orig = wgmma.make_smem_desc

    def broken(*a: object, **kw: object) -> object:
        d = orig(*a, **kw)
        return dataclasses.replace(d, sbo_bytes=d.sbo_bytes + 16) if d.sbo_bytes >= from_bytes else d

    monkeypatch.setattr(wgmma, "make_smem_desc", broken)


def test_g1_make_smem_desc_sbo_plus_16_above_4k(monkeypatch: pytest.MonkeyPatch) -> None:
    _sbo_plus_16(monkeypatch, 4096)  # escaped: the witness sizes never reach a 4 KiB SBO
    cx = prove_tma_matches_wgmma("128B", "MN", 16)
    assert isinstance(cx, TheoremCounterexample) and cx.m >= 4 and cx.descriptor.sbo_bytes % 1024 == 16
    assert "descriptor fields" in cx.reason and cx.tma_address != cx.wgmma_address


def test_g2_library_disagreement_is_a_refutation(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture) -> None:
    from pycute_layouts import cli

    _sbo_plus_16(monkeypatch, 16)  # was: ProofError "internal ... (please report)" and exit 2
    cx = prove_tma_matches_wgmma("128B", "MN", 16)
    assert isinstance(cx, TheoremCounterexample) and cx.descriptor.sbo_bytes == 1040 and "descriptor fields" in cx.reason
    rc = cli.main(["prove", "--mode", "128B", "--major", "MN", "--bits", "16", "--arch", "sm90", "--no-exhaustive"])
    out = capsys.readouterr().out
    assert rc == 1 and "refuted (UNEXPECTED)" in out


def test_g2_undecidable_is_an_error_row_not_a_crash(monkeypatch: pytest.MonkeyPatch) -> None:
    from pycute_layouts.proofs import theorem as proofs

    def undecided(*a: object) -> None:
        raise ProofError("planted: the method cannot decide")

    monkeypatch.setattr(proofs, "_symbolic", undecided)
    rep = report(archs=("sm90",), modes=("32B",), majors=("K",), element_bits=(16,), exhaustive=False)
    assert rep.rows[0].status == "error" and not rep.ok and "cannot decide" in rep.rows[0].detail


def test_g3_expected_table() -> None:
    # written from the PTX ISA, not from the library: 30 pairings do not exist
    na = [a for a in ALL if expected_status(*a)[0] == "not applicable"]
    assert len(na) == 30
    assert expected_status("32B", "MN", 8, "sm90")[0] == "not applicable"
    assert expected_status("32B", "MN", 16, "sm90")[0] == "proved"
    assert expected_status("128B_ATOM_32B", "K", 16, "sm100")[0] == "not applicable"
    assert expected_status("128B_ATOM_32B_FLIP_8B", "MN", 8, "sm100")[0] == "refuted"
    assert expected_status("128B_ATOM_64B", "MN", 32, "sm90")[0] == "not applicable"
    assert expected_status("96B", "MN", 16, "sm90")[0] == "refuted"
    assert all(len(row) == 5 and row[4] for row in EXPECTED_NOT_APPLICABLE)


def test_g3_library_allowing_mn_major_32_bit_on_sm90_is_flagged(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(smem_desc, "_check_bits", lambda element_bits, *a, **kw: int(element_bits))
    rep = report(archs=("sm90",), modes=("64B",), majors=("MN",), element_bits=(32,), exhaustive=False)
    row = rep.rows[0]
    assert row.expected == "not applicable" and row.status != "not applicable" and not row.ok and not rep.ok


def test_g3_library_refusing_k_major_8_bit_is_flagged(monkeypatch: pytest.MonkeyPatch) -> None:
    orig = wgmma.make_smem_desc

    def broken(layout: object, major: object, element_bits: int, *a: object, **kw: object) -> object:
        if element_bits == 8:
            raise DescriptorError("planted: 8-bit operands refused")
        return orig(layout, major, element_bits, *a, **kw)

    monkeypatch.setattr(wgmma, "make_smem_desc", broken)
    rep = report(archs=("sm90",), modes=("128B",), majors=("K",), element_bits=(8,), exhaustive=False)
    row = rep.rows[0]
    assert row.status == "not applicable" and row.expected == "proved" and not rep.ok and "planted" in row.detail


def test_g3_mode_filter_runs_the_relevant_negatives_and_lemmas() -> None:
    rep = report(modes=("64B",), exhaustive=False)
    assert rep.ok and len(rep.rows) == 12
    labels = {r.detail.split(";")[0] for r in rep.negatives}
    assert labels == {"TMA 64B box, wgmma 128B atom", "LBO/SBO swapped (interleave swap)",
                      "base offset 2 on aligned TMA data"}
    names = {(r.tma_mode, r.arch) for r in rep.lemmas}
    assert ("K-step lemma 64B", "sm90") in names and ("base-offset rule 64B", "sm100") in names
    assert ("descriptor encoding", "sm90") in names and not any("128B" in n for n, _ in names)
    assert len(report(modes=("64B",), archs=("sm100",), majors=("MN",), exhaustive=False).negatives) == 1


def test_g4_swizzle_reading_a_high_address_bit_is_refuted(monkeypatch: pytest.MonkeyPatch) -> None:
    # a TMA 128B map that also XORs address bit 12 into bit 4: invisible on [0, 4 KiB)
    bad = XorSwizzle([(7, 4), (8, 5), (9, 6), (12, 4)])
    info = tma.swizzle_mode_info("128B")
    monkeypatch.setitem(tma_box._MODE_INFO, SwizzleMode.B128, dataclasses.replace(info, byte_map=bad))
    assert not swizzle_period_lemma(bad, 1024)[0]
    cx = prove_tma_matches_wgmma("128B", "K", 16)
    assert isinstance(cx, TheoremCounterexample) and "period lemma" in cx.reason
    assert (cx.tma_address ^ cx.wgmma_address) == 16


def test_g4_period_lemma_over_the_window() -> None:
    assert swizzle_period_lemma(tma.swizzle_byte_map("128B"), 1024)[0]
    assert not swizzle_period_lemma(XorSwizzle([(17, 4)]), 1024)[0]  # the top address bit of the window
    assert swizzle_period_lemma(XorSwizzle([(18, 4)]), 1024)[0]  # outside the window: never reached
    with pytest.raises(ProofError):
        swizzle_period_lemma(tma.swizzle_byte_map("128B"), 1 << 19)


def _swap_wgmma_layout_types(monkeypatch: pytest.MonkeyPatch) -> None:
    # one table swaps the 128B and 64B codes; encode and decode (which searches that table) both use it
    swap = {1: 2, 2: 1}
    prop = SwizzleMode.__dict__["wgmma_layout_type"]
    monkeypatch.setattr(SwizzleMode, "wgmma_layout_type", property(lambda self: swap.get(prop.fget(self),
                                                                                        prop.fget(self))))


def test_g5_swapped_layout_type_codes_are_refuted(monkeypatch: pytest.MonkeyPatch) -> None:
    _swap_wgmma_layout_types(monkeypatch)
    d = wgmma.SmemDescriptor(0, 16, 1024, "128B")
    assert wgmma.SmemDescriptor.decode(d.encode()) == d  # the library agrees with itself
    cx = prove_descriptor_encoding("sm90")
    assert not cx and "PTX bit positions" in cx.summary()
    for method in ("symbolic", "exhaustive"):
        cx = prove_tma_matches_wgmma("128B", "K", 16, method=method)
        assert isinstance(cx, TheoremCounterexample) and cx.descriptor.swizzle is SwizzleMode.B64
    assert prove_descriptor_encoding("sm100")


def test_g5_tcgen05_version_bits(monkeypatch: pytest.MonkeyPatch) -> None:
    orig_dec = umma.UmmaSmemDescriptor.decode.__func__
    _wrap_encode(monkeypatch, umma.UmmaSmemDescriptor, 1 << 46)
    monkeypatch.setattr(umma.UmmaSmemDescriptor, "decode", classmethod(lambda cls, v: orig_dec(cls, v | 1 << 46)))
    assert not prove_descriptor_encoding("sm100")
    rep = report(archs=("sm100",), modes=("128B",), majors=("K",), element_bits=(16,), exhaustive=False)
    assert rep.rows[0].status == "error" and "bits 46-48" in rep.rows[0].detail and not rep.ok


def test_g5_literal_ptx_values() -> None:
    # PTX ISA 9.7.15.5.1.2.2 (wgmma) and 9.7.16.4.1 Table 40 (tcgen05), as written in proofs_model
    assert PTX_WGMMA_LAYOUT_TYPE == {"none": 0, "128B": 1, "64B": 2, "32B": 3}
    assert PTX_TCGEN05_LAYOUT_TYPE == {"none": 0, "128B_base32B": 1, "128B": 2, "64B": 4, "32B": 6}
    assert ptx_encode("sm90", 0, 0, 0, 0, 3) == 3 << 62
    assert ptx_encode("sm100", 0, 0, 0, 0, 6) == 6 << 61 | 1 << 46
    assert ptx_encode("sm90", 0x3FFF, 0x3FFF, 0x3FFF, 7, 0) == 0x3FFF | 0x3FFF << 16 | 0x3FFF << 32 | 7 << 49
    # the PTX example descriptor: K-major bf16 128B at 0x400, SBO 1024 B
    assert ptx_decode("sm90", 0x4000004000010040)["mode"] is SwizzleMode.B128
    for bad in (1 << 47, 1 << 14, 1 << 30):
        with pytest.raises(ProofError):
            ptx_decode("sm90", bad)
    with pytest.raises(ProofError, match="not defined"):
        ptx_decode("sm100", 1 << 46 | 3 << 61)
    for arch in ARCHS:
        assert prove_descriptor_encoding(arch)


def test_g6_packing_mutant_visible_only_at_32_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    orig = tma.box_to_smem

    def broken(mode: object, eb: object, box: tuple, dst: int = 0, **kw: object) -> np.ndarray:
        r = orig(mode, eb, box, dst, **kw)
        if len(box) == 3 and box[1] >= 32:  # swaps two rows of big boxes only
            r = r.copy()
            r[0, [0, 1]] = r[0, [1, 0]]
        return r

    monkeypatch.setattr(tma, "box_to_smem", broken)
    cx = prove_tma_matches_wgmma("128B", "K", 16)
    assert isinstance(cx, TheoremCounterexample) and "linear forms" in cx.reason and cx.m >= 4


def test_g6_linearity_is_checked_on_the_leaves() -> None:
    m, k = symbols("m k")
    assert _bitwise_linear(Layout(((8, m), (64, k)), ((64, 512), (1, 512 * m))), (8, 64), "tile") is None
    assert "power of two" in _bitwise_linear(Layout(((6, m), 8), ((1, 6), 64)), (8, None), "x")
    assert "not its last" in _bitwise_linear(Layout(((m, 8), 8), ((8, 1), 64)), (8, None), "x")
    assert "does not divide" in _bitwise_linear(Layout(((16, m), 8), ((1, 16), 64)), (8, None), "x")
    words = " ".join(w for w, _ in prove_tma_matches_wgmma("64B", "MN", 16).steps)
    assert "compared (not proved)" in words and "checked on the three layouts" in words
    assert "compact layout" in words  # the TMA packing is derived from the box


def test_g7_off_period_destination_mutant(monkeypatch: pytest.MonkeyPatch) -> None:
    # a library that anchors the swizzle at the tile (base offset from the start address): at dst 0
    # every start is on the pattern boundary, at 0x180 it is not
    orig = wgmma.make_smem_desc

    def broken(*a: object, **kw: object) -> object:
        d = orig(*a, **kw)
        bo = (d.start_address >> 7) & 7 if d.swizzle.is_swizzled else 0
        return dataclasses.replace(d, base_offset=bo)

    monkeypatch.setattr(wgmma, "make_smem_desc", broken)
    cx = prove_tma_matches_wgmma("128B", "K", 16)
    assert isinstance(cx, TheoremCounterexample) and cx.dst_address % 1024 and cx.descriptor.base_offset


def test_g7_witness_destinations_in_the_proof() -> None:
    p = prove_tma_matches_wgmma("64B", "K", 16)
    words = " ".join(w for w, _ in p.steps)
    assert "0x180" in words and "0x3f" in words  # off the period and at the top of the window
    assert "residues dst mod 512" in words


def test_g8_descriptor_swizzle_source_bit_is_7_for_every_mode() -> None:
    # SmemDescriptor.swizzled_address reads address bits from bit 7 (it ignores S of Sw<B,M,S>);
    # that is right exactly when M + S = 7, which holds for all five modes
    for mode in MMA_MODES:
        sw = mode.byte_swizzle
        assert sw.bits == 0 or sw.base + sw.shift == 7, mode
