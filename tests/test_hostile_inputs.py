"""Every hostile input found by review, each a LayoutError subclass whose message names the rule and value.

One row per input: the call, the exception class it must raise and key words of the message.
Budget rows also check that the refusal comes before any allocation (they return at once).
The same catalog runs in a ``python -O`` subprocess (validation never relies on ``assert``).
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from pycute_layouts import (
    Layout,
    SwizzledSmemLayout,
    ceil_div,
    coalesce,
    codegen,
    compatible,
    composition,
    crd2idx,
    equivalent,
    flatten,
    hwcheck,
    idx2crd,
    logical_divide,
    make_ordered_layout,
    parse,
    prefix_product,
    product,
    proofs,
    render,
    shape_div,
    size,
    tile_to_shape,
)
from pycute_layouts.analysis import explain
from pycute_layouts.arch import im2col, shfl, wgmma
from pycute_layouts.arch.swizzle_modes import SwizzleMode
from pycute_layouts.arch.tma import TiledTensorMap
from pycute_layouts.cli import main as cli_main
from pycute_layouts.errors import (
    CoordinateError,
    DescriptorError,
    HwCheckError,
    LayoutError,
    LayoutTypeError,
    LayoutValueError,
    NotationError,
    ProofError,
    ShflError,
    SpecError,
    TensorMapError,
    UnitError,
)
from pycute_layouts.limits import MAX_NESTING_DEPTH, check_text_nesting, read_text_file

REPO = Path(__file__).resolve().parents[1]


def _deep(n: int) -> tuple:
    t: object = 2
    for _ in range(n):
        t = (t,)
    return t  # type: ignore[return-value]


def _desc() -> wgmma.SmemDescriptor:
    atom = wgmma.smem_atom("K", "32B", 16)
    return wgmma.make_smem_desc(SwizzledSmemLayout(atom.swizzle, tile_to_shape(atom.layout, (64, 16)), 16), "K", 16)


L = Layout((8, 64), (64, 1))

#: (id, call, exception class, key words of the message)
CATALOG = [
    # unbounded work: refused by a budget before allocating
    ("make_smem_desc huge tile", lambda: wgmma.make_smem_desc(Layout((2**30, 16), (64, 1)), "K", 16),
     DescriptorError, ["17179869184 elements", "262144-element bound", "before enumerating"]),
    ("make_smem_desc 10000x10000", lambda: wgmma.make_smem_desc(Layout((10**4, 10**4), (1, 10**4)), "K", 16),
     DescriptorError, ["100000000 elements"]),
    ("element_addresses huge", lambda: _desc().element_addresses("K", 16, (2**20, 2**20)),
     LayoutValueError, ["element_addresses", "MAX_ADDRESS_POINTS", "(1048576, 1048576)"]),
    ("layout_table huge", lambda: render.layout_table(Layout(10**9, 1)),
     LayoutValueError, ["layout_table", "MAX_TABLE_CELLS", "1000000000:1"]),
    ("to_numpy huge", lambda: Layout(10**10, 1).to_numpy(), LayoutValueError, ["MAX_EVAL_POINTS", "10000000000"]),
    ("interleave_offsets huge", lambda: im2col.interleave_offsets("32B", (2**20, 2**20, 2**10), 2),
     LayoutValueError, ["interleave_offsets", "MAX_EVAL_POINTS", "(1048576, 1048576, 1024)"]),
    ("describe_operand huge", lambda: codegen.describe_operand("sm90", "K", "128B", "bf16", (2**20, 64)),
     LayoutValueError, ["describe_operand", "1048576x64", "262144-byte"]),
    ("equivalent nbits", lambda: equivalent(L, L, (8, 64), nbits=10**6),
     LayoutValueError, ["nbits", "MAX_PROOF_BITS", "1000000"]),
    # depth
    ("Layout deep", lambda: Layout(_deep(600), _deep(600)), LayoutValueError, ["Layout", "MAX_NESTING_DEPTH"]),
    ("size deep", lambda: size(_deep(600)), LayoutValueError, ["MAX_NESTING_DEPTH"]),
    ("composition deep tiler", lambda: composition(L, _deep(600)),
     LayoutValueError, ["composition", "MAX_NESTING_DEPTH"]),
    ("logical_divide deep tiler", lambda: logical_divide(L, _deep(600)),
     LayoutValueError, ["logical_divide", "tiler", "MAX_NESTING_DEPTH"]),
    ("coalesce deep profile", lambda: coalesce(L, _deep(600)),
     LayoutValueError, ["coalesce", "profile", "MAX_NESTING_DEPTH"]),
    ("flatten deep", lambda: flatten(_deep(600)), LayoutValueError, ["flatten", "MAX_NESTING_DEPTH"]),
    ("call deep coordinate", lambda: L(_deep(600)), LayoutValueError, ["coordinate", "MAX_NESTING_DEPTH"]),
    ("ceil_div(Layout, None)", lambda: ceil_div(Layout(4, 1), None), LayoutTypeError, ["ceil_div", "IntTuple", "Layout"]),
    ("compatible(Layout, None)", lambda: compatible(Layout(4, 1), None), LayoutTypeError, ["compatible", "IntTuple"]),
    ("parse 1000 parentheses", lambda: parse("(" * 1000 + "1" + ")" * 1000),
     NotationError, ["parentheses nested", "MAX_NESTING_DEPTH"]),
    # unchecked arguments
    ("ceil_div(8, None)", lambda: ceil_div(8, None), LayoutTypeError, ["ceil_div", "b", "None"]),
    ("shape_div((4,8),'a')", lambda: shape_div((4, 8), "a"), LayoutTypeError, ["shape_div", "'a'"]),
    ("crd2idx(None,...)", lambda: crd2idx(None, (4, 8), (8, 1)), LayoutTypeError, ["crd2idx", "crd", "None"]),
    ("idx2crd(None,...)", lambda: idx2crd(None, (4, 8)), LayoutTypeError, ["idx2crd", "idx", "None"]),
    ("idx2crd zero shape", lambda: idx2crd(16, (0,)), LayoutValueError, ["idx2crd", "non-zero"]),
    ("product((2,None))", lambda: product((2, None)), LayoutTypeError, ["product", "None"]),
    ("prefix_product((2,None))", lambda: prefix_product((2, None)), LayoutTypeError, ["prefix_product", "None"]),
    ("ceil_div('', Layout)", lambda: ceil_div("", Layout(4, 1)), LayoutTypeError, ["ceil_div", "''"]),
    ("ceil_div numpy array", lambda: ceil_div((4, 8), np.array([2, 3])), LayoutTypeError, ["ceil_div", "array"]),
    ("compatible(None,(4,8))", lambda: compatible(None, (4, 8)), LayoutTypeError, ["compatible", "a", "None"]),
    ("compatible((4,8),None)", lambda: compatible((4, 8), None), LayoutTypeError, ["compatible", "b", "None"]),
    ("make_ordered_layout float order", lambda: make_ordered_layout((4, 8), (0.5, 1)),
     LayoutTypeError, ["make_ordered_layout", "order", "integer"]),
    ("parse m=[2]", lambda: parse("(8,m):(m,1)", m=[2]), NotationError, ["'m'", "[2]"]),
    ("parse 5000 digits", lambda: parse("9" * 5000 + ":1"), NotationError, ["5000 digits", "MAX_INT_DIGITS"]),
    ("parse huge power", lambda: parse("(2**100000):1"), NotationError, ["2**100000", "4096 bits"]),
    ("explain element_bits 2**64", lambda: explain(L, 2**64), UnitError, ["explain", "element_bits", str(2**64)]),
    ("TiledTensorMap tensor_rank 2**64",
     lambda: TiledTensorMap(tensor_data_type="bfloat16", global_dim=(64, 64), global_strides=(128,), box_dim=(64, 64),
                            tensor_rank=2**64),
     TensorMapError, ["tensorRank", str(2**64)]),
    ("swizzled_address(None)", lambda: _desc().swizzled_address(None), LayoutTypeError, ["swizzled_address", "None"]),
    ("element_addresses rank-1 shape", lambda: _desc().element_addresses("K", 16, (64,)),
     DescriptorError, ["element_addresses", "(MN, K)", "(64,)"]),
    ("run_program register 'x'", lambda: shfl.run_program("SHFL.BFLY PT, R1, R0, 0x1, 0x1f ;", {"R0": "x"}),
     ShflError, ["register R0", "'x'"]),
    ("report(element_bits=None)", lambda: proofs.report(element_bits=None), ProofError, ["element_bits", "None"]),
    ("load_spec(3)", lambda: codegen.load_spec(3), SpecError, ["file path", "3"]),
    ("load_spec deep JSON", lambda: codegen.load_spec(text="[" * 5000 + "]" * 5000, fmt="json"),
     SpecError, ["MAX_NESTING_DEPTH"]),
    ("load_spec deep TOML", lambda: codegen.load_spec(text="a = " + "[" * 5000 + "]" * 5000 + "\n", fmt="toml"),
     SpecError, ["MAX_NESTING_DEPTH"]),
    ("size mode", lambda: size(L, 7), CoordinateError, ["size", "mode 7"]),
    ("SwizzleMode bad value", lambda: SwizzleMode(""),
     LayoutError, ["SwizzleMode", "''"]),
    ("hwcheck.verify no cases", lambda: hwcheck.verify({}),
     HwCheckError, ["'cases'"]),
]




def _tiled_mma(shape: tuple = (2, 2, 1)) -> object:
    from pycute_layouts.arch.atoms import make_tiled_mma

    return make_tiled_mma("SM80_16x8x16_F32BF16BF16F32_TN", shape)


def _issue28() -> list:
    """The examples of issue 28, one row each (the library's objects where they do not belong, huge ints past
    Python's 4,300-digit string limit, depth on the composed paths, budgets before work, constructors)."""
    from pycute_layouts import XorSwizzle, make_identity_tensor, make_tensor, recast_tensor
    from pycute_layouts.analysis import LinearLayout
    from pycute_layouts.arch.atoms import make_tiled_mma, mma_atom
    from pycute_layouts.arch.smem_desc import SmemDescriptorBase
    from pycute_layouts.arch.umma.idesc import InstrDescriptor
    from pycute_layouts.core import f2, grammar
    from pycute_layouts.core.tensor import print_tensor
    from pycute_layouts.errors import DescriptorError as DE
    from pycute_layouts.proofs import prove_tma_matches_wgmma
    from pycute_layouts.proofs.bitvec import BitVector
    from pycute_layouts.render import to_svg
    from pycute_layouts.render.tv import tv_picture, tv_svg

    huge = 10**5000
    deep = _deep(700)
    return [
        ("SmemDescriptorBase huge start", lambda: SmemDescriptorBase(huge, 16, 1024, "128B"), DE,
         ["start_address", "MAX_INT_DIGITS", "16610 bits"]),
        ("MmaAtom.layout huge", lambda: mma_atom("SM90_64x16x16_F32BF16BF16_SS").layout(huge), LayoutError, ["16610 bits"]),
        ("TiledMma.partition huge", lambda: _tiled_mma().partition("C", huge), LayoutError, ["16610 bits"]),
        ("prove_tma_matches_wgmma huge", lambda: prove_tma_matches_wgmma("128B", "K", huge), LayoutError, ["16610 bits"]),
        ("shfl.segment_size huge", lambda: shfl.segment_size(huge), ShflError, ["16610 bits"]),
        ("repr(F2(huge))", lambda: repr(f2.F2(huge)), LayoutValueError, ["F2", "MAX_INT_DIGITS", "16610 bits"]),
        ("XorSwizzle(tensor)", lambda: XorSwizzle(make_identity_tensor((4, 8))), LayoutError, ["pairs", "sequence", "Tensor"]),
        ("LinearLayout(tensor)", lambda: LinearLayout(make_identity_tensor((4, 8)), ["x"]), LayoutTypeError,
         ["LinearLayout", "sequence", "Tensor"]),
        ("to_svg identity layout", lambda: to_svg(Layout("(4,8):(1@0,1@1)")), LayoutTypeError,
         ["to_svg", "(4,8):(1@0,1@1)", "basis strides", "coordinates, not offsets"]),
        ("parse_text(None)", lambda: grammar.parse_text(None, "(4,8)", {}), NotationError, ["ctors", "Constructors"]),
        ("ComposedLayout deep coordinate", lambda: parse("Sw<3,3,3> o 0 o (8,64):(64,1)")(deep), LayoutValueError,
         ["coordinate", "MAX_NESTING_DEPTH"]),
        ("SwizzledSmemLayout deep coordinate", lambda: _desc_tile()(deep), LayoutValueError, ["MAX_NESTING_DEPTH"]),
        ("tv_picture 2**40 tile", lambda: tv_picture(Layout((2, 2), (1, 2)), (2**40, 2**40)), LayoutValueError,
         ["tv_picture", "MAX_TABLE_CELLS"]),
        ("tv_svg 4096x4096", lambda: tv_svg(_tiled_mma(), "C", (4096, 4096)), LayoutValueError,
         ["4096x4096", "MAX_TABLE_CELLS"]),
        ("make_tiled_mma 4096x4096 atoms", lambda: make_tiled_mma("SM80_16x8x16_F32BF16BF16F32_TN", (4096, 4096, 1)),
         LayoutValueError, ["make_tiled_mma", "16777216 points", "MAX_TABLE_CELLS"]),
        ("print_tensor 2**30", lambda: print_tensor(make_identity_tensor(2**30)), LayoutValueError,
         ["print_tensor", "1073741824 points", "MAX_TABLE_CELLS"]),
        ("describe_operand stages 10**9",
         lambda: codegen.describe_operand("sm90", "K", "128B", "bf16", (128, 64), stages=10**9), LayoutValueError,
         ["stages", "1000000000 stages", "262144-byte"]),
        ("clmul(1, -1)", lambda: f2.clmul(1, -1), LayoutValueError, ["clmul", "b must be >= 0"]),
        ("list(identity tensor 2**30)", lambda: list(make_identity_tensor(2**30)), LayoutValueError,
         ["Tensor.__iter__", "MAX_EVAL_POINTS"]),
        ("BitVector.to_sympy(2**64)", lambda: BitVector.coordinates((8,))[0].to_sympy(2**64), LayoutValueError,
         ["to_sympy", "MAX_PROOF_BITS"]),
        ("equivalent 5000-item domain", lambda: equivalent(L, L, (1,) * 5000), ProofError,
         ["equivalent", "5000 modes", "MAX_PROOF_BITS"]),
        ("report 5000-item selection", lambda: proofs.report(modes=("128B",) * 5000), ProofError,
         ["report", "modes", "64"]),
        ("InstrDescriptor sf_id_a=None", lambda: InstrDescriptor("bf16", "bf16", "f32", 128, 256, sf_id_a=None), DE,
         ["sf_id_a", "None"]),
        ("KernelSpec(operands=None)", lambda: codegen.KernelSpec("k", "sm90", None).to_dict(), SpecError,
         ["KernelSpec", "operands", "sequence"]),
        ("cli.main(True)", lambda: cli_main(True), LayoutTypeError, ["argv", "list of strings"]),
        ("cli.main(array)", lambda: cli_main(np.array([2, 3])), LayoutTypeError, ["argv", "list of strings"]),
        ("recast_tensor dtype 'V0'", lambda: recast_tensor(make_tensor(np.arange(8, dtype=np.uint16), Layout(8)), "V0"),
         LayoutTypeError, ["recast_tensor", "numeric dtype"]),
        ("recast_tensor dtype '(('", lambda: recast_tensor(make_tensor(np.arange(8, dtype=np.uint16), Layout(8)), "(("),
         LayoutTypeError, ["recast_tensor", "dtype"]),
        ("shfl array in int slot", lambda: shfl.segment_size(np.array([2, 3])), ShflError, ["must be an int"]),
        ("check_bool array", lambda: _mma_names(np.array([True, False])), LayoutTypeError, ["majors", "bool"]),
    ]


def _desc_tile() -> SwizzledSmemLayout:
    atom = wgmma.smem_atom("K", "32B", 16)
    return SwizzledSmemLayout(atom.swizzle, tile_to_shape(atom.layout, (64, 16)), 16)


def _mma_names(majors: object) -> object:
    from pycute_layouts.arch.atoms_mma import mma_atom_names

    return mma_atom_names(majors=majors)


CATALOG += _issue28()


def test_strategies_refuse_bad_arguments() -> None:
    """Hypothesis strategies check their arguments when built: StrategyArgumentError is a LayoutError and
    hypothesis's InvalidArgument; divisors and tilers_for refuse sizes past their bounds before working."""
    hypothesis = pytest.importorskip("hypothesis")
    from pycute_layouts import strategies

    for call in (lambda: strategies.divisors(10**13), lambda: strategies.tilers_for(Layout(10**10)),
                 lambda: strategies.layouts(max_rank="x"), lambda: strategies.shapes(leaves=3),
                 lambda: strategies.swizzles(10**5000), lambda: strategies.tilers_for(5)):
        with pytest.raises(LayoutError) as info:
            call()
        assert isinstance(info.value, hypothesis.errors.InvalidArgument)
    assert len(strategies.divisors(10**12)) == 169


def test_tensor_iteration_is_cute_s() -> None:
    """Iteration runs over the layout's domain (CuTe's loop over size(T)), not over the engine."""
    from pycute_layouts import make_identity_tensor, make_tensor

    assert list(make_tensor(np.arange(32), Layout(4, 1))) == [0, 1, 2, 3]
    assert list(make_identity_tensor((2, 2))) == [(0, 0), (1, 0), (0, 1), (1, 1)]


@pytest.mark.parametrize("call,exc,words", [c[1:] for c in CATALOG], ids=[c[0] for c in CATALOG])
def test_hostile_input_is_refused(call, exc, words) -> None:
    t0 = time.process_time()  # CPU time: a refusal is cheap however loaded the machine is (a hang detector, not a timing)
    with pytest.raises(exc) as info:
        call()
    assert time.process_time() - t0 < 5.0
    msg = str(info.value)
    for w in words:
        assert w in msg, (w, msg)


def test_unary_chain_parses_without_recursion() -> None:
    assert parse("-" * 5000 + "1:1").shape == 1
    assert parse("--" * 2000 + "4:1").shape == 4


def test_tma_stride_must_include_the_row() -> None:
    m = TiledTensorMap(tensor_data_type="bfloat16", global_dim=(4096, 4096), global_strides=(4096,), box_dim=(64, 128),
                       swizzle="128B")
    found = m.violations()
    assert [v.rule for v in found] == ["global_strides.padding"]
    assert "globalStrides[0]=4096 < globalDim[0] * elementSize = 4096 * 2 = 8192" in found[0].message
    ok = TiledTensorMap(tensor_data_type="bfloat16", global_dim=(4096, 4096), global_strides=(8192,), box_dim=(64, 128),
                        swizzle="128B")
    assert ok.violations() == []


def test_files_are_named_by_their_failure(tmp_path: Path) -> None:
    (tmp_path / "bin").write_bytes(b"\x00\xff\xfe")
    (tmp_path / "latin1").write_bytes("\xe9".encode("latin-1"))
    (tmp_path / "file").write_text("x")
    cases = [(tmp_path / "missing", "no such file"), (tmp_path, "is a directory"), (tmp_path / "bin", "binary file"),
             (tmp_path / "latin1", "not UTF-8"), (tmp_path / "file" / "sub", "is a file, not a directory"),
             (3, "expected a file path")]
    for path, words in cases:
        with pytest.raises(SpecError, match=words):
            read_text_file(path, "spec", SpecError)
    with pytest.raises(SpecError, match="MAX_NESTING_DEPTH"):
        check_text_nesting("[" * (MAX_NESTING_DEPTH + 1), "spec", SpecError)
    check_text_nesting('"' + "[" * 500 + '"', "spec", SpecError)  # brackets inside strings do not count


def _cli(argv: list[str], capsys: pytest.CaptureFixture) -> tuple[int, str]:
    rc = cli_main(argv)
    err = capsys.readouterr().err
    return rc, err


CLI = [
    (["desc", "--major", "K", "--swizzle", "128B", "--dtype", "bf16", "--tile", "128x64", "--mma-mn", "0"],
     ["--mma-mn", ">= 1", "got 0"]),
    (["codegen", "BIN"], ["binary file"]),
    (["hwcheck", "--verify", "BIN"], ["binary file"]),
    (["codegen", "MISSING"], ["no such file"]),
    (["codegen", "DIR"], ["is a directory"]),
    (["codegen", "DEEP"], ["MAX_NESTING_DEPTH"]),
    (["hwcheck", "--emit", "FILE/sub"], ["a part of the path is a file"]),
    (["show", "(" * 1000 + "1" + ")" * 1000], ["parentheses nested", "MAX_NESTING_DEPTH"]),
    (["show", "(10000000000):(1)"], ["MAX_TABLE_CELLS", "10000000000"]),
    (["show", "(10000,10000):(1,10000)"], ["MAX_TABLE_CELLS", "100000000"]),
    (["show", "--json", "(10000,10000):(1,10000)"], ["MAX_TABLE_CELLS"]),
    (["show", "(4,8):(1@0,1@1)"], ["basis strides", "coordinates, not offsets"]),
    (["show", "(4,8):(1@0,1@99999999999)"], ["ScaledBasis", "MAX_SEQUENCE_ITEMS"]),
    (["analyze", "explain", "(4,8):(1@0,1@1)"], ["explain", "basis strides"]),
    (["analyze", "banks", "(4,8):(1@0,1@1)", "--pattern", "ldmatrix.x4"], ["basis strides"]),
    (["analyze", "search", "(4,8):(1@0,1@1)", "--pattern", "ldmatrix.x4"], ["basis strides"]),
    (["analyze", "linear", "(4,8):(1@0,1@1)"], ["to_linear_layout", "basis strides"]),
    (["tma", "--plan", "Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)", "--dtype", "bf16", "--global",
      "(4,8):(1@0,1@1)"], ["global layout", "basis strides"]),
]


def test_tma_reports_the_stride_padding_rule_as_a_finding(capsys: pytest.CaptureFixture) -> None:
    """An invalid tensor map asked to be validated is a finding: exit 1, each broken rule once on stdout."""
    rc = cli_main(["tma", "--dtype", "bf16", "--global-dim", "4096,4096", "--global-strides", "4096", "--box-dim",
                   "64,128", "--swizzle", "128B"])
    out, err = capsys.readouterr()
    assert rc == 1 and err == ""
    assert "global_strides.padding" in out and "globalStrides[0]=4096" in out


@pytest.mark.parametrize("argv,words", CLI, ids=[" ".join(a)[:50] for a, _ in CLI])
def test_cli_errors_are_one_line_exit_2(argv, words, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    (tmp_path / "bin").write_bytes(b"\x00\xff\xfe\x80" * 16)
    (tmp_path / "file").write_text("x")
    (tmp_path / "deep.json").write_text("[" * 5000 + "]" * 5000)
    subst = {"BIN": str(tmp_path / "bin"), "MISSING": str(tmp_path / "missing.toml"), "DIR": str(tmp_path),
             "DEEP": str(tmp_path / "deep.json"), "FILE/sub": str(tmp_path / "file" / "sub")}
    t0 = time.process_time()  # CPU time (a hang detector, not a timing)
    rc, err = _cli([subst.get(a, a) for a in argv], capsys)
    assert time.process_time() - t0 < 10.0
    assert rc == 2, err
    assert "Traceback" not in err
    last = err.strip().splitlines()[-1]
    assert last.startswith("pycute-layouts "), err
    for w in words:
        assert w in last, (w, last)


def test_catalog_under_python_O() -> None:
    """The catalog in a ``python -O`` subprocess: asserts are gone there, the checks must not be."""
    r = subprocess.run([sys.executable, "-O", "-c", "assert False"], capture_output=True, text=True, cwd=REPO)
    assert r.returncode == 0, r.stderr  # -O really strips asserts
    r = subprocess.run([sys.executable, "-O", "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",  # one process
                        "-k", "not python_O",
                        str(Path(__file__))], capture_output=True, text=True, cwd=REPO, timeout=300)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    assert " passed" in r.stdout
