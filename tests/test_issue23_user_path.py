"""What a new user hit (issue 23, "the rest"): each case reproduced as the user ran it, and its fix."""

from __future__ import annotations

import json

import pytest

from pycute_layouts.arch.instruction import check_instruction_mn, instruction_rows
from pycute_layouts.cli import main
from pycute_layouts.codegen import emit_header, kernel_constants, parse_spec
from pycute_layouts.errors import DescriptorError, SpecError

BF16_K = {"dtype": "bf16", "major": "K", "swizzle": "128B"}


def _spec(arch: str, a: dict, b: dict | None = None, **top: object) -> object:
    d = {"kernel": "k", "arch": arch, "A": a, **top}
    if b is not None:
        d["B"] = b
    return parse_spec(d)


# ------------------------------------------------------------------------------------------------
# codegen: rows per instruction default to what `desc` says
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("arch,a_tile,b_tile,mma,a_rows,b_rows,idesc_mn", [
    ("sm90", "128x64", "256x64", None, 64, 256, None),
    ("sm90", "192x64", "384x64", None, 64, 192, None),
    ("sm100", "128x64", "256x64", None, 128, 256, (128, 256)),
    ("sm100", "64x64", "64x64", None, 64, 64, (64, 64)),
    ("sm100", "256x64", "256x64", None, 128, 256, (128, 256)),  # one CTA's 256 rows: two M = 128 instructions
    ("sm100", "128x64", "256x64", {"cta_group": 2}, 128, 128, (256, 256)),  # pair: 128 rows of A, N / 2 of B per CTA
    ("sm100", "128x64", "128x64", {"m": 64}, 64, 128, (64, 128)),
])
def test_codegen_rows_default_to_the_instruction(arch: str, a_tile: str, b_tile: str, mma: dict | None, a_rows: int,
                                                  b_rows: int, idesc_mn: tuple | None) -> None:
    top = {} if mma is None else {"mma": mma}
    kc = kernel_constants(_spec(arch, {**BF16_K, "tile": a_tile}, {**BF16_K, "tile": b_tile}, **top))
    a, b = kc.operand("A"), kc.operand("B")
    assert (a.mma_mn, b.mma_mn) == (a_rows, b_rows)
    assert len(a.mn_block_offsets_bytes) == a.tile_mn // a_rows
    if idesc_mn is not None:
        assert (kc.instr_desc.m, kc.instr_desc.n) == idesc_mn
    # the same rows as `desc` prints for each operand
    for name, op, tile in (("A", a, a_tile), ("B", b, b_tile)):
        cg = ["--cta-group", str((mma or {}).get("cta_group", 1))] if arch == "sm100" and mma and "m" not in mma else []
        if mma and "m" in mma:
            continue
        argv = ["desc", "--arch", arch, "--major", "K", "--dtype", "bf16", "--swizzle", "128B", "--tile", tile,
                "--operand", name, *cg, "--json"]
        out = _run(argv)
        assert json.loads(out)["mma_mn"] == op.mma_mn, (name, out)


def test_codegen_header_128x64_a_tile_has_two_mn_blocks() -> None:
    h = emit_header(kernel_constants(_spec("sm90", {**BF16_K, "tile": "128x64"})))
    assert "static constexpr int kMmaMN = 64;" in h and "static constexpr int kMmaMNBlocks = 2;" in h
    assert "kMmaMNBlockOffsetBytes[kMmaMNBlocks] = {0u, 8192u};" in h


@pytest.mark.parametrize("arch,op,mma_mn,tile,words", [
    ("sm90", "A", 128, "128x64", "mma_mn = 128: no instruction reads 128 rows of A: sm90 wgmma.mma_async reads A as "
                                  "M = 64 rows per instruction"),
    ("sm90", "A", 32, "64x64", "no instruction reads 32 rows of A"),
    ("sm90", "B", 512, "512x64", "no instruction reads 512 rows of B: sm90 wgmma.mma_async reads B as N = 8..256"),
    ("sm90", "B", 12, "24x64", "no instruction reads 12 rows of B"),  # N steps of 8
    ("sm100", "A", 256, "256x64", "no instruction reads 256 rows of A: sm100 tcgen05.mma cta_group::1 reads A as "
                                  "M = 64 or 128"),
])
def test_codegen_refuses_rows_no_instruction_reads(arch: str, op: str, mma_mn: int, tile: str, words: str | None) -> None:
    d = {**BF16_K, "tile": tile, "mma_mn": mma_mn}
    with pytest.raises(SpecError, match=f"^spec field '{op}.mma_mn': ") as ei:
        kernel_constants(parse_spec({"kernel": "k", "arch": arch, op: d}))
    if words:
        assert words in str(ei.value)


def test_codegen_refuses_a_tile_no_instruction_reads() -> None:
    with pytest.raises(SpecError, match=r"spec field 'A.tile': sm90 wgmma.mma_async reads A as 64 rows .* 32 rows"):
        kernel_constants(_spec("sm90", {**BF16_K, "tile": "32x64"}))


def test_instruction_rows_and_check() -> None:
    assert instruction_rows("sm90", "A")[0] == (64,)
    assert instruction_rows("sm90", "B")[0] == tuple(range(8, 257, 8))
    assert instruction_rows("sm100", "A", 2)[0] == (64, 128)
    assert instruction_rows("sm100", "B", 2)[0] == tuple(range(8, 129, 8))
    assert "2 instruction(s) cover the 256 rows" in check_instruction_mn("sm100", "B", 128, 256, 2)
    with pytest.raises(DescriptorError, match="does not divide the tile's 192 rows"):
        check_instruction_mn("sm90", "B", 128, 192)
    for bad in (0, -8, True, "64", 2.0):
        with pytest.raises(DescriptorError, match="must be an int >= 1"):
            check_instruction_mn("sm90", "B", bad, 64)


def test_desc_refuses_mma_mn_no_instruction_reads(capsys: pytest.CaptureFixture) -> None:
    rc = main(["desc", "--major", "K", "--dtype", "bf16", "--swizzle", "128B", "--tile", "128x64", "--mma-mn", "128"])
    err = capsys.readouterr().err
    assert rc == 2 and "--mma-mn 128" in err and "no instruction reads 128 rows of A" in err and "--operand B" in err


def _run(argv: list[str]) -> str:
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main(argv) == 0
    return buf.getvalue()


# ------------------------------------------------------------------------------------------------
# conflict_free_swizzles takes a copy atom as bank_conflicts does
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("atom,bits", [("SM75_U16x8_LDSM_T", 16), ("SM75_U32x4_LDSM_N", 16), ("SM75_U32x4_LDSM_N", 8),
                                       ("SM90_U32x4_STSM_N", 32)])
def test_conflict_free_swizzles_takes_a_copy_atom(atom: str, bits: int) -> None:
    from pycute_layouts import Layout, SwizzledSmemLayout
    from pycute_layouts.analysis import bank_conflicts, conflict_free_swizzles
    from pycute_layouts.arch.atoms import copy_atom

    cols = 1024 // bits  # one 128-byte row per tile row
    tile = Layout((64, cols), (cols, 1))
    a = copy_atom(atom)
    got = conflict_free_swizzles(tile, a, element_bits=bits)
    assert got == conflict_free_swizzles(tile, a.access_pattern(element_bits=bits), element_bits=bits)
    assert got and any(str(c.swizzle) == "Sw<3,4,3>" for c in got)
    for c in got:  # every proposal is conflict-free when checked the way bank_conflicts checks the atom
        assert bank_conflicts(SwizzledSmemLayout(c.swizzle, tile, bits), a, element_bits=bits).is_conflict_free
    assert not bank_conflicts(tile, a, element_bits=bits).is_conflict_free


def test_conflict_free_swizzles_atom_refusals() -> None:
    from pycute_layouts import Layout
    from pycute_layouts.analysis import conflict_free_swizzles
    from pycute_layouts.arch.atoms import copy_atom
    from pycute_layouts.errors import LayoutError

    with pytest.raises(LayoutError, match="element_bits must be 8, 16, 32, 64 or 128, got 12"):
        conflict_free_swizzles(Layout((8, 64), (64, 1)), copy_atom("SM75_U16x8_LDSM_T"), element_bits=12)
    with pytest.raises(LayoutError, match="contradicts"):
        conflict_free_swizzles(Layout((8, 64), (64, 1)), copy_atom("SM75_U16x8_LDSM_T"), 4, element_bits=16)


# ------------------------------------------------------------------------------------------------
# CLI messages: --kind against the wrong field table, options named as typed, fixes that work
# ------------------------------------------------------------------------------------------------


def _err(capsys: pytest.CaptureFixture, argv: list[str]) -> str:
    rc = main(argv)
    out = capsys.readouterr()
    assert rc == 2 and out.out == "", (rc, out)
    assert out.err.count("\n") == 1 and "Traceback" not in out.err
    return out.err


def test_desc_idesc_block_scaled_kind_on_a_dense_value(capsys: pytest.CaptureFixture) -> None:
    err = _err(capsys, ["desc", "--idesc", "0x08400490", "--kind", "mxf4"])
    assert "--kind mxf4 is block-scaled: add --block-scaled" in err
    assert "0x08400490 reads as a dense descriptor (kind::f16, kind::f8f6f4)" in err
    err = _err(capsys, ["desc", "--idesc", "0x08400490", "--kind", "f16", "--block-scaled"])
    assert "--kind f16 is a dense kind" in err and "drop --block-scaled" in err
    # the fix the message names works
    assert main(["desc", "--idesc", "0x08400490", "--kind", "f16"]) == 0
    assert "kind::f16" in capsys.readouterr().out


@pytest.mark.parametrize("extra,words", [
    (["--arch", "sm80"], "desc: --arch: unknown arch 'sm80'"),
    (["--dtype", "bf17"], "desc: --dtype: unknown dtype 'bf17'"),
    (["--major", "Q"], "desc: --major must be K or MN"),
    (["--swizzle", "12B"], "desc: --swizzle: "),
    (["--tile", "64y64"], "desc: --tile: expected 'MNxK'"),
    (["--tile", "0x64"], "desc: --tile[0] (MN): must be >= 1"),
    (["--mma-mn", "0"], "--mma-mn must be an int >= 1, got 0"),
])
def test_desc_errors_name_the_options(capsys: pytest.CaptureFixture, extra: list[str], words: str) -> None:
    argv = ["desc", "--major", "K", "--dtype", "bf16", "--tile", "64x64", "--swizzle", "128B", *extra]
    err = _err(capsys, argv)
    assert words in err and "spec field" not in err, err


def test_desc_layout_errors_name_the_options(capsys: pytest.CaptureFixture) -> None:
    err = _err(capsys, ["desc", "--layout", "(64,64):(64,1)", "--major", "K", "--dtype", "bf16", "--arch", "sm80"])
    assert "--arch" in err and "spec field" not in err


@pytest.mark.parametrize("argv,words", [
    (["analyze", "banks", "(8,64):(64,1)", "--pattern", "ldmatrix.x4", "--element-bits", "12"], "--element-bits must be"),
    (["analyze", "banks", "(8,64):(64,1)", "--threads", "32:1", "--access", "3"], "--access must be one of"),
])
def test_library_argument_names_become_options(capsys: pytest.CaptureFixture, argv: list[str], words: str) -> None:
    err = _err(capsys, argv)
    assert words in err and "element_bits" not in err.split("(")[0] and "access_bytes" not in err


@pytest.mark.parametrize("bits,fix", [(12, ["--label", "bank_group"]), (12, ["--label", "value"]), (12, ["--label", "coord"]),
                                      (4, ["--label", "address", "--cell", "chunk16"])])
def test_show_address_label_suggests_a_fix_that_works(capsys: pytest.CaptureFixture, tmp_path: object, bits: int,
                                                      fix: list[str]) -> None:
    svg = str(tmp_path / "x.svg")  # type: ignore[operator]
    err = _err(capsys, ["show", "(8,64):(64,1)", "-e", str(bits), "--label", "address", "--svg", svg])
    assert f"--label address: {bits}-bit elements do not all start on a byte" in err and "label=" not in err
    for opt in fix[1::2]:
        assert (f"--label {opt}" in err or f"'{opt}'" in err or f"--cell {opt}" in err), (opt, err)
    assert "--cell chunk16 cannot help" in err if bits == 12 else "use --cell chunk16" in err
    assert main(["show", "(8,64):(64,1)", "-e", str(bits), *fix, "--svg", svg]) == 0


# ------------------------------------------------------------------------------------------------
# owners: which thread and register hold C(m, n); what thread t holds
# ------------------------------------------------------------------------------------------------


def _json(capsys: pytest.CaptureFixture, argv: list[str]) -> dict:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_owners_every_element_of_the_sm80_accumulator(capsys: pytest.CaptureFixture) -> None:
    # PTX ISA mma.m16n8k16 f32 accumulator: c0,c1 at (groupID, 2 * tid_in_group + {0,1}), c2,c3 at groupID + 8,
    # where groupID = lane / 4, tid_in_group = lane % 4
    coords = [f"{r},{c}" for r in range(16) for c in range(8)]
    d = _json(capsys, ["owners", "SM80_16x8x16_F32F16F16F32_TN", *[x for rc in coords for x in ("--coord", rc)]])
    assert d["tile"] == [16, 8] and len(d["answers"]) == 128
    for ans in d["answers"]:
        r, c = ans["coord"]
        assert ans["owners"] == [{"thread": (r % 8) * 4 + c // 2, "value": c % 2 + 2 * (r // 8)}]
    # and the other question, for every thread: the inverse of the above
    d = _json(capsys, ["owners", "SM80_16x8x16_F32F16F16F32_TN", "--thread", ",".join(map(str, range(32)))])
    for ans in d["answers"]:
        t = ans["thread"]
        assert [tuple(v["coord"]) for v in ans["values"]] == [(t // 4, 2 * (t % 4)), (t // 4, 2 * (t % 4) + 1),
                                                              (t // 4 + 8, 2 * (t % 4)), (t // 4 + 8, 2 * (t % 4) + 1)]


def test_owners_tiled_mma_matches_the_api(capsys: pytest.CaptureFixture) -> None:
    from pycute_layouts.arch import atoms

    tiled = atoms.make_tiled_mma("SM90_64x128x16_F32BF16BF16_SS", (2, 1, 1), (None, 256, None))
    d = _json(capsys, ["owners", "SM90_64x128x16_F32BF16BF16_SS", "--atom-layout", "2x1x1", "--permute", "_,256,_",
                       "--coord", "100,200", "--coord", "0,0", "--coord", "127,255"])
    assert d["tile"] == [128, 256]
    for ans in d["answers"]:
        assert [(o["thread"], o["value"]) for o in ans["owners"]] == list(atoms.owners(tiled, "C", tuple(ans["coord"])))
    assert d["answers"][0]["owners"] == [{"thread": 208, "value": 100}]
    d = _json(capsys, ["owners", "SM90_64x128x16_F32BF16BF16_SS", "--atom-layout", "2x1x1", "--permute", "_,256,_",
                       "--thread", "208"])
    assert [(v["value"], tuple(v["coord"])) for v in d["answers"][0]["values"]] == atoms.thread_fragment(tiled, "C", 208)


def test_owners_text_and_broadcast(capsys: pytest.CaptureFixture) -> None:
    assert main(["owners", "SM90_64x16x16_F32BF16BF16_SS", "--operand", "A", "--coord", "0,0"]) == 0
    out = capsys.readouterr().out
    assert "A(0,0) is held by T0 V0, T1 V0" in out and "(128 (thread, value) pairs: every thread that reads it)" in out
    assert main(["owners", "SM80_16x8x16_F32F16F16F32_TN", "--tile", "32x16", "--coord", "17,9"]) == 0
    assert capsys.readouterr().out == "SM80_16x8x16_F32F16F16F32_TN C (32x16): C(17,9) is held by T4 V13\n"


@pytest.mark.parametrize("argv,words", [
    (["SM80_16x8x16_F32F16F16F32_TN"], "give --coord M,N (who holds an element) or --thread T"),
    (["SM80_16x8x16_F32F16F16F32_TN", "--coord", "1,1", "--thread", "0"], "exactly one"),
    (["SM80_16x8x16_F32F16F16F32_TN", "--coord", "16,0"], "--coord must be (row, column) inside the 16x8 tile"),
    (["SM80_16x8x16_F32F16F16F32_TN", "--coord", "1"], "--coord takes 2 integers"),
    (["SM80_16x8x16_F32F16F16F32_TN", "--coord", "a,b"], "--coord must be integers"),
    (["SM80_16x8x16_F32F16F16F32_TN", "--thread", "32"], "--thread must be in [0, 32), got 32"),
    (["SM80_16x8x16_F32F16F16F32_TN", "--operand", "E", "--thread", "0"], "operand"),
    (["SM75_U16x8_LDSM_T", "--thread", "0"], "SM75_U16x8_LDSM_T"),
    (["SM80_16x8x16_F32F16F16F32_TN", "--atom-layout", "2x1", "--thread", "0"], "--atom-layout takes 3 integers"),
    (["SM80_16x8x16_F32F16F16F32_TN", "--permute", "_,_", "--thread", "0"], "--permute takes three entries"),
    (["SM80_16x8x16_F32F16F16F32_TN", "--tile", "24x8", "--thread", "0"], "24"),
])
def test_owners_bad_input(capsys: pytest.CaptureFixture, argv: list[str], words: str) -> None:
    err = _err(capsys, ["owners", *argv])
    assert words in err, err


def test_owners_help(capsys: pytest.CaptureFixture) -> None:
    assert main(["owners", "--help"]) == 0
    out = capsys.readouterr().out
    assert "--coord" in out and "--thread" in out and "register" in out


def test_desc_atom_mma_sync_is_named_for_what_it_is(capsys: pytest.CaptureFixture) -> None:
    err = _err(capsys, ["desc", "--major", "K", "--dtype", "bf16", "--tile", "64x64", "--swizzle", "128B", "--atom",
                        "SM80_16x8x8_F16F16F16F16_TN"])
    assert "mma.sync atom: it reads A and B from registers" in err and "--mma-mn" not in err


def test_desc_atom_rows_follow_the_instruction(capsys: pytest.CaptureFixture) -> None:
    # a 128-row A tile: one wgmma reads 64 rows, so the SS atom's 64x16 A tile matches without --mma-mn
    assert main(["desc", "--major", "K", "--dtype", "bf16", "--tile", "128x16", "--swizzle", "32B", "--atom",
                 "SM90_64x16x16_F32BF16BF16_SS", "--threads", "0"]) == 0
    assert "reads        : T0: V0 (0,0) @0x0" in capsys.readouterr().out


@pytest.mark.parametrize("argv,words", [
    (["tma", "--dtype", "bf17", "--global-dim", "64,64", "--global-strides", "128", "--box-dim", "64,8"],
     "--dtype: TensorDataType.parse: cannot parse 'bf17'"),
    (["tma", "--dtype", "bf16", "--global-dim", "64,64", "--global-strides", "128", "--box-dim", "64,8", "--swizzle",
      "12B"], "--swizzle: SwizzleMode.parse: cannot parse '12B'"),
])
def test_vocabulary_errors_name_the_option(capsys: pytest.CaptureFixture, argv: list[str], words: str) -> None:
    assert words in _err(capsys, argv)


@pytest.mark.parametrize("mma,a_mn,words", [
    ({"m": 256}, 64, "spec field 'mma.m': M = 256 with cta_group 2 reads 128 rows of A per CTA, but A.mma_mn is 64"),
    ({"n": 128}, None, "spec field 'mma.n': N = 128 with cta_group 1 reads 128 rows of B per CTA, but B.mma_mn is 64"),
])
def test_codegen_mma_table_agrees_with_the_rows(mma: dict, a_mn: int | None, words: str) -> None:
    a = {**BF16_K, "tile": "128x64", **({"mma_mn": a_mn} if a_mn else {})}
    b = {**BF16_K, "tile": "64x64", **({"mma_mn": 64} if "n" in mma else {})}
    with pytest.raises(SpecError, match=words.replace("(", r"\(").replace(")", r"\)")):
        kernel_constants(_spec("sm100", a, b, mma=mma))
