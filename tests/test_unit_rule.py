"""Issue 23: one meaning per string on every path (CuTe's unit rule), table-driven.

The rule: ``Sw<B,M,S> o k o L`` swizzles the layout's own units (element offsets when an element
width is given); ``Sw<B,M,S> o smem_ptr[Nb](..) o L`` swizzles byte addresses. The same three
strings go through every path, API and CLI, for 8-, 16- and 32-bit elements:

* ``elem``: the 128B atom in element units, ``Sw<3,4-log2(bytes),3> o 0 o (8,W):(W,1)`` (W elements =
  128 bytes per row), CuTe's ``composition(Swizzle<3,M,3>{}, L)`` on a plain ``T*`` pointer;
* ``ptr``: the same atom in pointer form, ``Sw<3,4,3> o smem_ptr[Nb](unset) o (8,W):(W,1)``, CuTe's
  GMMA atom ``ComposedLayout<Swizzle<3,4,3>, smem_ptr_flag_bits<N>, L>``;
* ``sw343``, ``dsl`` (the DSL spelling ``S<3,4,3>``), ``sw333`` (``Sw<3,3,3>``): plain ``Sw<3,M,3> o 0 o (8,W):(W,1)``,
  in element units; ``Sw<3,4,3>`` is the 128B atom only for 8-bit elements (for 16/32-bit elements it is
  ``Sw<3,5,3>``/``Sw<3,6,3>`` on bytes: no hardware atom), ``Sw<3,3,3>`` only for 16-bit elements.

Expected placements come from the PTX 128B swizzle table (reference 000, section 5.5.7: 16-byte
chunk ``c`` of 128-byte row ``r`` goes to chunk ``c ^ (r % 8)``), from CuTe C++ (the oracle test at
the end), and, for the non-atom, from the byte-swizzle formula.
"""

from __future__ import annotations

import json

import numpy as np
import oracles
import pytest

from pycute_layouts import (
    DescriptorError,
    Layout,
    LayoutError,
    Swizzle,
    SwizzledSmemLayout,
    TensorMapError,
    UnitError,
    parse,
)
from pycute_layouts import analysis as an
from pycute_layouts.arch import atoms, wgmma
from pycute_layouts.arch.swizzle_modes import SwizzleMode
from pycute_layouts.arch.tma import plan_tma_load
from pycute_layouts.cli import main
from pycute_layouts.codegen import describe_layout
from pycute_layouts.core.composed import element_unit_note, smem_layout_of, swizzle_forms

BITS = (8, 16, 32)
DTYPE = {8: "e4m3", 16: "bf16", 32: "tf32"}
FORMS = ("elem", "ptr", "sw343", "dsl", "sw333")
# the element-offset swizzle's M of each plain form (the pointer form's byte M is 4): "dsl" is the CuTe DSL's
# spelling S<3,4,3> of sw343; "sw333" is the literal Sw<3,3,3> o 0 o L, the 128B atom only on 16-bit elements
ELEM_M = {"sw343": 4, "dsl": 4, "sw333": 3}


def _k(bits: int) -> int:
    return (bits // 8).bit_length() - 1


def _w(bits: int) -> int:
    return 1024 // bits  # elements per 128-byte row


def text(form: str, bits: int, width: int | None = None) -> str:
    w = _w(bits)
    cols = w if width is None else width
    lay = f"(8,{cols}):({w},1)"
    if form == "elem":
        return f"Sw<3,{4 - _k(bits)},3> o 0 o {lay}"
    if form == "ptr":
        return f"Sw<3,4,3> o smem_ptr[{bits}b](unset) o {lay}"
    return f"{'S' if form == 'dsl' else 'Sw'}<3,{ELEM_M[form]},3> o 0 o {lay}"


def byte_swizzle(form: str, bits: int) -> Swizzle:
    """The byte-address swizzle each string means on ``bits``-bit elements (CuTe's unit rule)."""
    if form in ("elem", "ptr"):
        return Swizzle(3, 4, 3)
    return Swizzle(3, ELEM_M[form] + _k(bits), 3)


def is_atom(form: str, bits: int) -> bool:
    return byte_swizzle(form, bits) == Swizzle(3, 4, 3)


def ptx_128B_bytes(bits: int) -> list[int]:
    """PTX's 128B table: chunk c of row r -> chunk c ^ (r % 8), in the layout's index order (row fastest)."""
    eb, w = bits // 8, _w(bits)
    out = []
    for c in range(w):
        for r in range(8):
            b = c * eb
            out.append(r * 128 + (((b // 16) ^ (r % 8)) * 16) + b % 16)
    return out


def formula_bytes(sw: Swizzle, bits: int) -> list[int]:
    """A byte swizzle applied to the byte offset of each element (layout index order)."""
    eb, w = bits // 8, _w(bits)
    return [int(sw((r * w + c) * eb)) for c in range(w) for r in range(8)]


CASES = [(f, b) for b in BITS for f in FORMS]
IDS = [f"{f}-{b}b" for f, b in CASES]


# --------------------------------------------------------------------------------------------------
# The one conversion helper
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("form,bits", CASES, ids=IDS)
def test_helper_places_every_element(form: str, bits: int) -> None:
    s = smem_layout_of(parse(text(form, bits)), bits)
    assert s.byte_swizzle() == byte_swizzle(form, bits)
    want = ptx_128B_bytes(bits) if is_atom(form, bits) else formula_bytes(byte_swizzle(form, bits), bits)
    assert np.asarray(s.byte_addresses()).tolist() == want
    # the element-unit form is the layout's own evaluation times the element size (CuTe's meaning)
    if form != "ptr":
        assert (parse(text(form, bits)).to_numpy() * (bits // 8)).tolist() == want


@pytest.mark.parametrize("bits", BITS)
def test_bytes_keyword_is_the_only_way_to_the_ptx_reading(bits: int) -> None:
    """PTX's byte reading of a plain composed layout: only with swizzle_unit="bytes" (or the pointer form)."""
    lay = parse(text("sw343", bits))
    as_bytes = smem_layout_of(lay, bits, swizzle_unit="bytes")
    assert np.asarray(as_bytes.byte_addresses()).tolist() == ptx_128B_bytes(bits)
    assert as_bytes == parse(text("ptr", bits))
    with pytest.raises(UnitError, match="swizzle_unit must be 'elements'"):
        smem_layout_of(lay, bits, swizzle_unit="byte")


def test_forms_and_refusal_text() -> None:
    assert swizzle_forms(Swizzle(3, 4, 3), 16) == "Sw<3,4,3> o smem_ptr[16b](unset) o L = Sw<3,3,3> o 0 o L on 16-bit elements"
    assert swizzle_forms(Swizzle(3, 4, 3), 8) == "Sw<3,4,3> o smem_ptr[8b](unset) o L = Sw<3,4,3> o 0 o L on 8-bit elements"
    note = element_unit_note(parse(text("sw343", 32)), 32)
    assert "on byte addresses that is Sw<3,6,3> o smem_ptr[32b](unset) o L" in note
    assert "Sw<3,4,3> o smem_ptr[32b](unset) o L = Sw<3,2,3> o 0 o L on 32-bit elements" in note
    assert "\n" not in note
    # sub-byte elements: an element-offset swizzle has no byte form: refused, naming the pointer form
    with pytest.raises(UnitError, match=r"smem_ptr\[4b\]"):
        smem_layout_of(parse("Sw<1,4,3> o 0 o (8,64):(64,1)"), 4)


# --------------------------------------------------------------------------------------------------
# Every API path gives the same answer
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("form,bits", CASES, ids=IDS)
def test_bank_conflicts(form: str, bits: int) -> None:
    lay = parse(text(form, bits))
    pat = an.ldmatrix_pattern(4, element_bits=bits)
    r = an.bank_conflicts(lay, pat, element_bits=bits if form != "ptr" else None)
    ref = an.bank_conflicts(SwizzledSmemLayout(byte_swizzle(form, bits), Layout((8, _w(bits)), (_w(bits), 1)), bits),
                            pat)
    assert r.wavefronts == ref.wavefronts and r.thread_addresses == ref.thread_addresses
    if is_atom(form, bits):
        assert (r.wavefronts, r.is_conflict_free) == (4, True)
    else:
        assert not r.is_conflict_free


@pytest.mark.parametrize("bits", BITS)
def test_search_proposes_both_forms_and_each_means_what_was_measured(bits: int) -> None:
    tile = Layout((8, _w(bits)), (_w(bits), 1))
    pat = an.ldmatrix_pattern(4, element_bits=bits)
    best = an.conflict_free_swizzles(tile, pat, element_bits=bits)[0]
    assert best.swizzle == Swizzle(3, 4, 3) and best.element_swizzle == Swizzle(3, 4 - _k(bits), 3)
    ptr = parse(f"{best.swizzle} o smem_ptr[{bits}b](unset) o {tile}")
    elem = parse(f"{best.element_swizzle} o 0 o {tile}")
    for pasted, eb in ((ptr, None), (elem, bits)):
        assert an.bank_conflicts(pasted, pat, element_bits=eb).wavefronts == best.wavefronts == 4
    assert best.to_dict()["element_swizzle"] == str(best.element_swizzle)


@pytest.mark.parametrize("form,bits", CASES, ids=IDS)
def test_explain_linear_and_operand_addresses(form: str, bits: int) -> None:
    lay = parse(text(form, bits))
    e = an.explain(lay, element_bits=bits if form != "ptr" else None)
    assert e.swizzle["swizzle"] == str(byte_swizzle(form, bits))
    assert e.swizzle["tma_modes"] == (["128B"] if is_atom(form, bits) else [])
    ll = an.to_linear_layout(smem_layout_of(lay, bits))
    ref = an.to_linear_layout(SwizzledSmemLayout(byte_swizzle(form, bits), smem_layout_of(lay, bits).layout, bits))
    assert ll.bases == ref.bases
    addr = atoms.operand_addresses(lay, bits if form != "ptr" else None)
    assert addr.reshape(-1, order="F").tolist() == np.asarray(smem_layout_of(lay, bits).byte_addresses()).tolist()


@pytest.mark.parametrize("form,bits", CASES, ids=IDS)
def test_descriptors(form: str, bits: int) -> None:
    """make_smem_desc of one K slice (32 bytes) and describe_layout of the whole atom (4 K steps)."""
    one_k = parse(text(form, bits, width=256 // bits))
    whole = parse(text(form, bits))
    if is_atom(form, bits):
        d = wgmma.make_smem_desc(one_k, "K", bits)
        assert d.swizzle is SwizzleMode.B128 and d.lbo_bytes == 16  # SBO unused: one 8-row group
        assert d == wgmma.make_smem_desc(parse(text("ptr", bits, width=256 // bits)), "K", bits)
        assert d == wgmma.make_smem_desc(parse(text("sw343", bits, width=256 // bits)), "K", bits,
                                         swizzle_unit="bytes")
        oc = describe_layout(whole, "sm90", "K", DTYPE[bits])
        assert oc.swizzle is SwizzleMode.B128 and oc.k_step_offsets_bytes == (0, 32, 64, 96)
        assert oc.smem_layout_text == text("ptr", bits)
        assert oc.smem_layout_element_text == text("elem", bits)
    else:
        for call in (lambda: wgmma.make_smem_desc(one_k, "K", bits),
                     lambda: describe_layout(whole, "sm90", "K", DTYPE[bits])):
            with pytest.raises(DescriptorError) as e:
                call()
            msg = str(e.value)
            assert f"{byte_swizzle(form, bits)} o smem_ptr[{bits}b](unset) o L" in msg
            assert swizzle_forms(Swizzle(3, 4, 3), bits) in msg and "\n" not in msg


@pytest.mark.parametrize("form,bits", CASES, ids=IDS)
def test_tma_plan(form: str, bits: int) -> None:
    glob = Layout((64, _w(bits)), (_w(bits), 1))
    lay = parse(text(form, bits))
    if is_atom(form, bits):
        p = plan_tma_load(lay, glob, bits)
        assert p.swizzle is SwizzleMode.B128 and p.box_dim == (_w(bits), 8)
        assert np.asarray(p.smem_byte_addresses()).tolist() == ptx_128B_bytes(bits)
    else:
        with pytest.raises(TensorMapError) as e:
            plan_tma_load(lay, glob, bits)
        assert swizzle_forms(Swizzle(3, 4, 3), bits) in str(e.value)


def test_canonical_layout_is_the_pointer_form() -> None:
    for bits in BITS:
        c = wgmma.canonical_layout("K", "128B", element_bits=bits, m=1, k=1, SBO=_w(bits) * 8)
        assert isinstance(c, SwizzledSmemLayout) and c.byte_swizzle() == Swizzle(3, 4, 3)
        assert c.as_composed().outer == Swizzle(3, 4 - _k(bits), 3)


def test_dsl_spelling_reads_with_the_layout_meaning() -> None:
    """The CuTe DSL prints ``S<3,4,3> o 0 o L``: the same string as ``Sw<3,4,3> o 0 o L``, the same meaning."""
    assert parse("S<3,4,3> o 0 o (8,64):(64,1)") == parse("Sw<3,4,3> o 0 o (8,64):(64,1)")
    assert parse("S<3,3,3>") == Swizzle(3, 3, 3)
    assert parse("(8,S):(S,1)", S=4) == Layout((8, 4), (4, 1))  # S is still a symbol elsewhere
    r = an.bank_conflicts(parse("S<3,3,3> o 0 o (64,64):(64,1)"), an.ldmatrix_pattern(4, element_bits=16),
                          element_bits=16)
    assert r.wavefronts == 4


# --------------------------------------------------------------------------------------------------
# The CLI gives the same answers (in process: one parser, no subprocess per case)
# --------------------------------------------------------------------------------------------------


def _cli(capsys: pytest.CaptureFixture, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out = capsys.readouterr()
    return rc, out.out, out.err


def _eb_args(form: str, bits: int) -> list[str]:
    return [] if form == "ptr" else ["--element-bits", str(bits)]


@pytest.mark.parametrize("form,bits", CASES, ids=IDS)
def test_cli_every_path(capsys: pytest.CaptureFixture, form: str, bits: int) -> None:
    s = text(form, bits)
    pat = "ldmatrix.x4"
    rc, out, _ = _cli(capsys, "analyze", "banks", s, "--pattern", pat, *_eb_args(form, bits), "--json")
    assert rc == 0
    want = an.bank_conflicts(SwizzledSmemLayout(byte_swizzle(form, bits), Layout((8, _w(bits)), (_w(bits), 1)), bits),
                             an.parse_pattern(pat, element_bits=bits))
    assert json.loads(out)["wavefronts"] == want.wavefronts
    rc, out, _ = _cli(capsys, "analyze", "explain", s, *_eb_args(form, bits), "--json")
    assert rc == 0 and json.loads(out)["swizzle"]["swizzle"] == str(byte_swizzle(form, bits))
    rc, out, _ = _cli(capsys, "analyze", "linear", s, "--element-bits", str(bits), "--json")
    assert rc == 0
    rc, out, err = _cli(capsys, "desc", "--layout", s, "--major", "K", "--dtype", DTYPE[bits], "--json")
    if is_atom(form, bits):
        d = json.loads(out)
        assert rc == 0 and d["lbo_bytes"] == 16 and d["swizzle"] == "128B"
        assert d["smem_layout"] == text("ptr", bits)
    else:
        assert rc == 2 and swizzle_forms(Swizzle(3, 4, 3), bits) in err and len(err.strip().splitlines()) == 1
    rc, out, err = _cli(capsys, "tma", "--plan", s, "--global", f"(64,{_w(bits)}):({_w(bits)},1)", "--dtype",
                        {8: "u8", 16: "bf16", 32: "f32"}[bits], "--json")
    if is_atom(form, bits):
        assert rc == 0 and json.loads(out)["swizzle"] == "128B"
    else:
        assert rc == 2 and swizzle_forms(Swizzle(3, 4, 3), bits) in err


def test_cli_the_issue_example(capsys: pytest.CaptureFixture) -> None:
    rc, out, _ = _cli(capsys, "analyze", "banks", "Sw<3,3,3> o 0 o (64,64):(64,1)", "--pattern", "SM75_U16x8_LDSM_T",
                      "--element-bits", "16")
    assert rc == 0
    assert "SM75_U16x8_LDSM_T: 16-byte accesses, 4 phase(s), 4 wavefront(s) (ideal 4): conflict-free" in out
    rc, out, _ = _cli(capsys, "analyze", "banks", "Sw<3,4,3> o 0 o (64,64):(64,1)", "--pattern", "SM75_U16x8_LDSM_T",
                      "--element-bits", "16", "--swizzle-unit", "bytes")
    assert rc == 0 and "conflict-free" in out
    rc, out, _ = _cli(capsys, "analyze", "search", "(64,64):(64,1)", "--pattern", "SM75_U16x8_LDSM_T",
                      "--element-bits", "16")
    assert rc == 0 and "Sw<3,4,3> o smem_ptr[16b](unset) o TILE" in out and "= Sw<3,3,3> o 0 o TILE" in out
    rc, out, _ = _cli(capsys, "desc", "--layout", "Sw<3,3,3> o 0 o (8,64):(64,1)", "--dtype", "bf16", "--major", "K")
    assert rc == 0 and "128B swizzle" in out and "= Sw<3,3,3> o 0 o (8,64):(64,1)" in out
    rc, _, err = _cli(capsys, "desc", "--layout", "Sw<3,4,3> o 0 o (8,64):(64,1)", "--dtype", "bf16", "--major", "K")
    assert rc == 2 and "Sw<3,4,3> o smem_ptr[16b](unset) o L = Sw<3,3,3> o 0 o L on 16-bit elements" in err
    rc, out, _ = _cli(capsys, "desc", "--layout", "Sw<3,4,3> o 0 o (8,64):(64,1)", "--dtype", "bf16", "--major", "K",
                      "--swizzle-unit", "bytes")
    assert rc == 0 and "128B swizzle" in out
    rc, _, err = _cli(capsys, "desc", "--major", "K", "--swizzle", "128B", "--dtype", "bf16", "--tile", "64x64",
                      "--start", "0x1010")
    assert rc == 2 and "not aligned to 128 bytes" in err and "0x1000 or 0x1080" in err and "advance" not in err


# --------------------------------------------------------------------------------------------------
# CuTe C++: the three strings as CuTe builds them, placed by make_tensor on a real smem pointer
# --------------------------------------------------------------------------------------------------

PREAMBLE = r"""
alignas(1024) static unsigned char oracle_smem[1 << 14];

template <class T, class CLayout>
std::string oracle_smem_bytes(CLayout const& layout) {
  auto tensor = make_tensor(make_smem_ptr(reinterpret_cast<T*>(oracle_smem)), layout);
  std::ostringstream os;
  for (int i = 0; i < int(size(layout)); ++i) {
    if (i != 0) { os << ' '; }
    os << (reinterpret_cast<unsigned char const*>(&tensor(i)) - oracle_smem);
  }
  return os.str();
}
"""

CXX_T = {8: "uint8_t", 16: "half_t", 32: "float"}


def _cxx(form: str, bits: int) -> str:
    w = _w(bits)
    lay = f"Layout<Shape<_8,_{w}>,Stride<_{w},_1>>{{}}"
    if form == "elem":
        return f"composition(Swizzle<3,{4 - _k(bits)},3>{{}}, {lay})"
    if form == "ptr":
        return f"ComposedLayout<Swizzle<3,4,3>, smem_ptr_flag_bits<{bits}>, Layout<Shape<_8,_{w}>,Stride<_{w},_1>>>{{}}"
    return f"composition(Swizzle<3,{ELEM_M[form]},3>{{}}, {lay})"


@pytest.fixture(scope="module")
def cute_bytes() -> dict:
    oracles.skip_without_cxx()
    batch = oracles.CuteBatch(preamble=PREAMBLE)
    idx = {c: batch.add(f"oracle_smem_bytes<{CXX_T[c[1]]}>({_cxx(*c)})") for c in CASES}
    batch.run()
    return {c: oracles.parse_values(batch.value(i)) for c, i in idx.items()}


@pytest.mark.parametrize("form,bits", CASES, ids=IDS)
def test_cute_places_each_string_where_we_do(cute_bytes: dict, form: str, bits: int) -> None:
    ours = np.asarray(smem_layout_of(parse(text(form, bits)), bits).byte_addresses()).tolist()
    assert ours == cute_bytes[(form, bits)]


def test_bad_inputs_are_loud() -> None:
    lay = parse(text("elem", 16))
    with pytest.raises(UnitError):
        smem_layout_of(lay, 0)
    with pytest.raises(UnitError, match="holds 16-bit elements"):
        smem_layout_of(parse(text("ptr", 16)), 8)
    with pytest.raises(LayoutError):
        smem_layout_of("Sw<3,3,3> o 0 o 8:1", 16)
    with pytest.raises(LayoutError):
        smem_layout_of(parse("Sw<3,3,3> o 3 o 8:1"), 4)  # 3 * 4 bits: not on a byte
    assert main(["analyze", "banks", "32:4", "--threads", "32:1", "--access", "4", "--swizzle-unit", "bytes"]) == 2
    # swizzle_unit is checked at every boundary, even where it would not be used
    tile = Layout((8, 64), (64, 1))
    for call in (lambda: an.bank_conflicts(tile, an.ldmatrix_pattern(4), swizzle_unit="byte"),
                 lambda: an.explain(tile, swizzle_unit=1),
                 lambda: wgmma.make_smem_desc(Layout((8, 8), (8, 1)), "K", 16, swizzle_unit="B"),
                 lambda: plan_tma_load(tile, tile, 16, swizzle_unit="el"),
                 lambda: describe_layout(tile, "sm90", "K", "bf16", swizzle_unit=None),
                 lambda: atoms.operand_addresses(tile, 16, swizzle_unit="x")):
        with pytest.raises(LayoutError, match="swizzle_unit must be 'elements'"):
            call()


# --------------------------------------------------------------------------------------------------
# Follow-up audit: the unbound canonical layout carries its unit; pictures read through the helper
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("bits", BITS)
def test_unbound_canonical_layout_is_never_read_in_element_units(bits: int) -> None:
    """PTX's table with T unbound: binding T later gives the byte swizzle, never an element-unit reading."""
    from pycute_layouts import UnboundWidthSmemLayout
    from pycute_layouts.arch import umma
    for mod in (wgmma, umma):
        c = mod.canonical_layout("K", "128B")
        assert isinstance(c, UnboundWidthSmemLayout)
        assert c.ptx_text() == "Sw<3,4,3> o 0 o ((8,m),(T,2*k)):((8*T,SBO),(1,T))"
        bound = c.subs(T=128 // bits, m=1, k=4, SBO=8 * _w(bits))
        assert isinstance(bound, SwizzledSmemLayout) and bound.element_bits == bits
        assert np.asarray(bound.byte_addresses()).tolist() == ptx_128B_bytes(bits)
        via_width = smem_layout_of(c.subs(m=1, k=4, SBO=8 * _w(bits)), bits)
        assert via_width == bound
        assert an.bank_conflicts(bound, an.ldmatrix_pattern(4, element_bits=bits)).wavefronts == 4
        with pytest.raises(UnitError, match="T unbound"):
            c(0)
        with pytest.raises(UnitError, match="T unbound"):
            smem_layout_of(c, None)
        assert len(c) == 2 and isinstance(c[1], UnboundWidthSmemLayout)  # a mode keeps the pointer and its unit
        assert c[1].subs(T=128 // bits, k=1).byte_swizzle() == Swizzle(3, 4, 3)
        d = wgmma.make_smem_desc(mod.canonical_layout("K", "128B", m=1, k=1, SBO=0), "K", bits)
        assert d.swizzle is SwizzleMode.B128


@pytest.mark.parametrize("form,bits", CASES, ids=IDS)
def test_show_reads_through_the_helper(capsys: pytest.CaptureFixture, form: str, bits: int) -> None:
    """show's values are element offsets of where each element lands: byte address / element bytes."""
    from pycute_layouts.render import picture_values
    s = text(form, bits)
    vals, units = picture_values(parse(s), element_bits=bits)
    want = ptx_128B_bytes(bits) if is_atom(form, bits) else formula_bytes(byte_swizzle(form, bits), bits)
    assert (vals.reshape(-1, order="F") * (bits // 8)).tolist() == want
    rc, out, _ = _cli(capsys, "show", s, "-e", str(bits), "--json")
    assert rc == 0 and [v * (bits // 8) for v in json.loads(out)["values"]] == want
    with pytest.raises(UnitError, match="needs the element width"):
        picture_values(parse(text("elem", bits)), swizzle_unit="bytes")


@pytest.mark.parametrize("form", ("elem", "ptr"))
def test_desc_layout_start_alignment(capsys: pytest.CaptureFixture, form: str) -> None:
    """--layout checks the start address as --tile does: the 128B atom starts on a 128-byte row."""
    rc, _, err = _cli(capsys, "desc", "--layout", text(form, 16), "--major", "K", "--dtype", "bf16", "--start", "0x1010")
    assert rc == 2 and "not aligned to 128 bytes" in err and "0x1000 or 0x1080" in err and "advance" not in err
    rc, out, _ = _cli(capsys, "desc", "--layout", text(form, 16), "--major", "K", "--dtype", "bf16", "--start", "0x1080",
                      "--json")
    assert rc == 0 and json.loads(out)["start_address"] == 0x1080


@pytest.mark.parametrize("form,bits", CASES, ids=IDS)
def test_to_linear_layout_takes_the_element_width(capsys: pytest.CaptureFixture, form: str, bits: int) -> None:
    """to_linear_layout(L, element_bits=N) is the byte map of smem_layout_of(L, N); the CLI prints the same bases."""
    lay = parse(text(form, bits))
    ref = an.to_linear_layout(SwizzledSmemLayout(byte_swizzle(form, bits), Layout((8, _w(bits)), (_w(bits), 1)), bits))
    ll = an.to_linear_layout(lay, element_bits=bits if form != "ptr" else None)
    assert ll.bases == ref.bases
    # the bases are the PTX table's byte addresses of the unit coordinates
    if is_atom(form, bits):  # row r chunk 0 -> byte r * 128 + (r % 8) * 16 (PTX 128B table)
        assert ref.bases["mode0"] == (144, 288, 576) and ref.bases["mode1"][0] == bits // 8
    rc, out, _ = _cli(capsys, "analyze", "linear", text(form, bits), *_eb_args(form, bits), "--json")
    assert rc == 0 and json.loads(out)["bases"]["mode0"] == list(ref.bases["mode0"])
    if form != "ptr":
        with pytest.raises(UnitError, match="needs the element width"):
            an.to_linear_layout(lay, swizzle_unit="bytes")


@pytest.mark.parametrize("form,bits", CASES, ids=IDS)
def test_proofs_equivalent_reads_by_the_rule(form: str, bits: int) -> None:
    """proofs.equivalent with element_bits: each string against the PTX table, and the forms against each other."""
    from pycute_layouts.proofs.bitvec import equivalent
    lay = parse(text(form, bits))
    shape = (8, _w(bits))
    want = {(r, c): ptx_128B_bytes(bits)[c * 8 + r] for r in range(8) for c in range(_w(bits))}
    verdict = equivalent(lay, lambda r, c: want[(int(r), int(c))], shape, element_bits=bits)
    assert bool(verdict) == is_atom(form, bits)
    assert bool(equivalent(lay, parse(text("ptr", bits)), shape, element_bits=bits)) == is_atom(form, bits)
    if form != "ptr":  # a byte-address side against an element-offset side without a width: refused, not a verdict
        with pytest.raises(UnitError, match=f"element_bits={bits}"):
            equivalent(lay, parse(text("ptr", bits)), shape)


def test_interop_refuses_a_contradicting_width() -> None:
    from pycute_layouts.interop.cute_dsl import from_cute_dsl
    from pycute_layouts.interop.triton import to_gluon
    ptr = parse(text("ptr", 16))
    for call in (lambda: to_gluon(ptr, [8, 64], element_bits=8), lambda: from_cute_dsl(str(ptr), 8)):
        with pytest.raises(UnitError, match="holds 16-bit elements but element_bits=8"):
            call()


def test_banks_without_a_width_says_how_the_values_were_read(capsys: pytest.CaptureFixture) -> None:
    rc, _, err = _cli(capsys, "analyze", "banks", "Sw<3,3,3> o 0 o (64,64):(64,1)", "--pattern", "SM75_U16x8_LDSM_T")
    assert rc == 2 and "read as byte addresses" in err and "--element-bits" in err


def test_refusal_names_the_atom_when_neither_reading_is_one() -> None:
    """Sw<3,3,3> o 0 o L on 32-bit elements: neither Sw<3,5,3> nor Sw<3,3,3> on bytes is an atom; the 128B one is named."""
    lay = parse(text("sw333", 32))
    for call in (lambda: wgmma.make_smem_desc(parse(text("sw333", 32, width=8)), "K", 32),
                 lambda: plan_tma_load(lay, Layout((64, 32), (32, 1)), 32)):
        with pytest.raises(LayoutError) as e:
            call()
        msg = str(e.value)
        assert "nor is Sw<3,3,3> on byte addresses" in msg and "if Sw<3,3,3> was meant" not in msg
        assert "the atom with 3 XOR bit(s) is " + swizzle_forms(Swizzle(3, 4, 3), 32) in msg


def test_unbound_pointer_form_round_trips_through_parse() -> None:
    """str(canonical_layout(..)) with T unbound parses back to the same object; binding T gives the width."""
    from pycute_layouts import UnboundWidthSmemLayout
    from pycute_layouts.errors import NotationError
    for major in ("K", "MN"):
        for mode in ("none", "32B", "64B", "128B"):
            c = wgmma.canonical_layout(major, mode)
            assert isinstance(parse(str(c)), UnboundWidthSmemLayout) and parse(str(c)) == c
            bound = dict(T=4, m=2, k=1, LBO=256, SBO=512)
            assert parse(str(c), **bound) == c.subs(**bound) == wgmma.canonical_layout(major, mode, **bound)
    with pytest.raises(NotationError, match="T to divide 128"):
        parse("Sw<3,4,3> o smem_ptr[(128/T)b](unset) o (8,8):(8,1)", T=3)


def test_analyze_takes_the_short_width_option(capsys: pytest.CaptureFixture) -> None:
    """-e BITS works on analyze as on show and convert (the same option everywhere)."""
    for sub in (["banks", "--pattern", "ldmatrix.x4"], ["explain"], ["linear"]):
        rc, out, _ = _cli(capsys, "analyze", sub[0], text("elem", 16), *sub[1:], "-e", "16", "--json")
        assert rc == 0 and out
    rc, out, _ = _cli(capsys, "analyze", "search", "(8,64):(64,1)", "--pattern", "ldmatrix.x4", "-e", "16", "--json")
    assert rc == 0 and json.loads(out)["element_bits"] == 16
