"""``pycute-layouts convert``: CuTe notation, CuTe DSL text/source and Triton Gluon, both ways, and the TV picture."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

from pycute_layouts.cli import main

HAVE_TRITON = importlib.util.find_spec("triton") is not None


def run(argv, capsys):
    rc = main(argv)
    out, err = capsys.readouterr()
    return rc, out.strip(), err.strip()


@pytest.mark.parametrize("argv, want", [
    (["S<3,4,3> o 0 o (8,64):(64,1)", "--from", "dsl"], "Sw<3,4,3> o 0 o (8,64):(64,1)"),
    (["S<3,4,3> o 0 o (8,64):(64,1)", "--from", "dsl", "--swizzle-on", "pointer", "-e", "16"],
     "Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)\n= Sw<3,3,3> o 0 o (8,64):(64,1)  (the same placement, swizzle on "
     "16-bit element offsets)"),
    (["S<3,4,3> o 0 o (8,64):(64,1)", "--from", "dsl", "-e", "16"],
     "Sw<3,5,3> o smem_ptr[16b](unset) o (8,64):(64,1)\n= Sw<3,4,3> o 0 o (8,64):(64,1)  (the same placement, swizzle on "
     "16-bit element offsets)"),
    (["S<3,4,3> o 0 o (8,64):(64,1)", "--from", "dsl", "--swizzle-on", "pointer", "-e", "16", "--to", "gluon",
      "--shape", "8,64"], "gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False)"),
    (["Sw<3,3,3> o 0 o (8,64):(64,1)", "--to", "gluon", "--shape", "8,64"],
     "gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False)"),
    (["Sw<3,3,3> o 0 o (8,64):(64,1)", "--to", "dsl"],
     "cute.make_composed_layout(cute.make_swizzle(3, 3, 3), 0, cute.make_layout((8, 64), stride=(64, 1)))"),
    (["Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)", "--to", "dsl"],
     "cute.nvgpu.warpgroup.make_smem_layout_atom(cute.nvgpu.warpgroup.SmemLayoutAtomKind.K_SW128, cutlass.Float16)"),
    (["SM90_64x8x16_F32F16F16_SS", "--to", "gluon"],
     "gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 8, 16])"),
    (['{"offset_bases": [[0, 1], [0, 2], [1, 0], [2, 0]]}', "--from", "triton"], "(4,4):(4,1)"),
    (["(4,4):(4,1)", "--to", "triton", "--shape", "4,4", "--kind", "shared"],
     '{"kind": "shared", "offset_bases": [[0, 1], [0, 2], [1, 0], [2, 0]], "block_bases": []}'),
])
def test_convert(argv, want, capsys):
    rc, out, err = run(["convert", *argv], capsys)
    assert (rc, out, err) == (0, want, "")


def test_convert_roundtrip_through_dsl_text(capsys):
    rc, out, _ = run(["convert", "S<2,4,3> o 0 o ((8,2),32):((32,256),1)", "--from", "dsl", "--to", "cute"], capsys)
    assert rc == 0
    rc, back, _ = run(["convert", out, "--to", "gluon", "--shape", "16,32", "-e", "16"], capsys)
    assert rc == 0 and back.startswith("gl.")


def test_convert_picture_side_by_side(capsys):
    rc, out, err = run(["convert", "SM80_16x8x8_F16F16F16F16_TN", "--to", "picture"], capsys)
    lines = out.splitlines()
    assert rc == 0 and err == ""
    assert "CuTe TV" in lines[0] and "Triton (warp W, lane L, register R)" in lines[0]
    assert lines[2].split()[1:3] == ["T0V0", "T0V1"] and "W0L0R0" in lines[2] and "W0L1R0" in lines[2]
    assert "T0V2" in lines[10] and "W0L0R2" in lines[10]            # row 8: the second register pair


@pytest.mark.parametrize("argv, msg", [
    (["(4,"], "parse"),
    (["(4,4):(4,1)", "--to", "gluon", "--shape", "4,4"], "--kind"),
    (["(4,4):(4,1)", "--to", "gluon"], "needs --shape"),
    (["S<3,4,3> o 0 o (8,64):(64,1)", "--from", "dsl", "--swizzle-on", "pointer"], "element_bits"),
    (["(?,4):(1,?)", "--from", "dsl"], "dynamic"),
    (["x", "--from", "triton"], "JSON"),
    (["gl.NVMMASharedLayout(128, 16)", "--from", "gluon", "--shape", "8,32"], "8 rows"),
    (["gl.NVMMASharedLayout(128, 16)", "--from", "gluon"], "needs --shape"),
    (["(8,64):(64,1)", "--to", "gluon", "--shape", "6,64", "--kind", "shared"], "power of two"),
    (["Sw<3,3,3> o 0 o (8,64):(64,1)", "--to", "picture", "--shape", "8,64"], "show"),
])
def test_convert_bad_input_one_line_exit_2(argv, msg, capsys):
    rc, out, err = run(["convert", *argv], capsys)
    assert rc == 2 and out == "" and len(err.splitlines()) == 1 and msg in err, err


@pytest.mark.skipif(not HAVE_TRITON, reason="triton is not installed (pip install -e '.[interop]')")
def test_convert_from_gluon(capsys):
    rc, out, err = run(["convert", "gl.NVMMASharedLayout(128, 16, transposed=True)", "--from", "gluon", "--shape", "64,64"],
                       capsys)
    assert rc == 0 and out.splitlines()[0] == "Sw<3,4,3> o smem_ptr[16b](unset) o (64,64):(1,64)", (out, err)
    assert out.splitlines()[1].startswith("= Sw<3,3,3> o 0 o (64,64):(1,64)")
    rc, out, err = run(["convert", "gl.NVMMADistributedLayout([3, 0], [4, 1], [16, 8, 16])", "--from", "gluon",
                        "--shape", "64,8", "--to", "dsl"], capsys)
    assert rc == 0 and out == "cute.make_layout(((4, 8, 4), (2, 2)), stride=((128, 1, 16), (64, 8)))"


def test_import_never_imports_the_frameworks():
    code = ("import sys, pycute_layouts, pycute_layouts.interop, pycute_layouts.cli.commands.convert; "
            "print([m for m in ('triton', 'cutlass') if m in sys.modules])")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "[]", r.stderr
