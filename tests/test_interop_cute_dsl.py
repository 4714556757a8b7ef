"""NVIDIA's CuTe DSL as a differential oracle: the DSL computes, ``from_cute_dsl`` reads what it prints, ours must agree.

All DSL cases are written into ONE generated ``@cute.jit`` file (the DSL wants a jit function's source in
a file), run once per session in a child process with ``CUTE_DSL_ARCH=sm_90a`` (no GPU needed), and the
printed results are cached on disk by the hash of the generated source. ``to_cute_dsl`` writes most of
the DSL expressions, so it is checked too. Skipped with a reason when the DSL is not installed
(``pip install -e '.[interop]'``; the DSL is under NVIDIA's proprietary licence, never vendored).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest

from pycute_layouts import (
    ComposedLayout,
    Layout,
    LayoutError,
    NotationError,
    SwizzledSmemLayout,
    UnitError,
    blocked_product,
    coalesce,
    complement,
    composition,
    left_inverse,
    logical_divide,
    logical_product,
    parse,
    raked_product,
    recast,
    right_inverse,
    tile_to_shape,
    zipped_divide,
)
from pycute_layouts.arch.atoms import copy_atom, make_tiled_mma, mma_atom
from pycute_layouts.arch.wgmma import smem_atom
from pycute_layouts.interop.cute_dsl import from_cute_dsl, make_layout_tv, to_cute_dsl

HAVE_DSL = importlib.util.find_spec("cutlass") is not None and importlib.util.find_spec("cutlass.cute") is not None


def L(s):
    return parse(s)


def values(obj):
    if isinstance(obj, SwizzledSmemLayout):
        return np.asarray(obj.byte_addresses(), dtype=np.int64)
    return np.asarray(obj.to_numpy(), dtype=np.int64)


def same(ours, theirs) -> bool:
    """Equal as functions: same size, same top-level mode sizes (size-1 modes aside), same values."""
    if isinstance(ours, SwizzledSmemLayout) != isinstance(theirs, SwizzledSmemLayout):
        return False
    a = ours.layout if isinstance(ours, SwizzledSmemLayout) else ours
    b = theirs.layout if isinstance(theirs, SwizzledSmemLayout) else theirs
    if a.size() != b.size():
        return False
    ma = [int(a[i].size()) for i in range(a.rank())] if a.rank() > 1 else [int(a.size())]
    mb = [int(b[i].size()) for i in range(b.rank())] if b.rank() > 1 else [int(b.size())]
    if [x for x in ma if x != 1] != [x for x in mb if x != 1]:
        return False
    return bool(np.array_equal(values(ours), values(theirs)))


# --------------------------------------------------------------------------------------------------
# the cases: (key, DSL expression, our object, how to read the DSL's text)

A_LAYS = ["(6,2):(8,2)", "(8,4):(4,1)", "(16,8):(8,1)", "((2,4),(3,2)):((1,6),(2,24))", "(4,8):(1,4)", "20:2",
          "(8,(2,4)):(1,(64,16))", "(32,32):(32,1)"]
B_LAYS = ["(4,3):(3,1)", "(4,2):(1,8)", "4:2", "(2,4):(1,2)", "8:1", "(4,4):(4,1)", "(2,2):(2,1)", "16:1"]


def _algebra_cases():
    cases = []

    def add(key, expr, fn):
        try:
            ours = fn()
        except LayoutError:
            return
        cases.append((key, expr, ours, None))

    d = to_cute_dsl
    for i, a in enumerate(A_LAYS):
        for j, b in enumerate(B_LAYS):
            A, B = L(a), L(b)
            add(f"comp_{i}_{j}", f"cute.composition({d(A)}, {d(B)})", lambda A=A, B=B: composition(A, B))
    for i, a in enumerate(A_LAYS):
        for j, b in enumerate(["4:1", "2:1", "(2,2):(1,2)", "8:2"]):
            A, B = L(a), L(b)
            add(f"ldiv_{i}_{j}", f"cute.logical_divide({d(A)}, {d(B)})", lambda A=A, B=B: logical_divide(A, B))
    for i, (a, t) in enumerate([("(8,4):(4,1)", (2, 2)), ("(16,8):(8,1)", (4, 4)), ("(32,32):(32,1)", (8, 16))]):
        A = L(a)
        tiler = f"({d(Layout(t[0]))}, {d(Layout(t[1]))})"
        add(f"zdiv_{i}", f"cute.zipped_divide({d(A)}, {tiler})", lambda A=A, t=t: zipped_divide(A, (Layout(t[0]), Layout(t[1]))))
    for i, (a, b) in enumerate([("(2,2):(2,1)", "(3,4):(1,3)"), ("(4,1):(1,0)", "(2,3):(1,2)"), ("8:1", "4:1"),
                                ("(2,4):(4,1)", "(2,2):(1,2)"), ("(4,2):(1,4)", "(3,2):(2,1)")]):
        A, B = L(a), L(b)
        add(f"lprod_{i}", f"cute.logical_product({d(A)}, {d(B)})", lambda A=A, B=B: logical_product(A, B))
        if A.rank() == B.rank() == 2:
            add(f"bprod_{i}", f"cute.blocked_product({d(A)}, {d(B)})", lambda A=A, B=B: blocked_product(A, B))
            add(f"rprod_{i}", f"cute.raked_product({d(A)}, {d(B)})", lambda A=A, B=B: raked_product(A, B))
    for i, a in enumerate(["(4,8):(8,1)", "(8,4):(4,1)", "((2,4),(3,2)):((1,6),(2,24))", "(4,2):(1,4)", "8:2",
                           "(2,2):(1,4)", "(16,8):(8,1)", "(4,8):(1,4)"]):
        A = L(a)
        add(f"rinv_{i}", f"cute.right_inverse({d(A)})", lambda A=A: right_inverse(A))
        add(f"linv_{i}", f"cute.left_inverse({d(A)})", lambda A=A: left_inverse(A))
    for i, (a, c) in enumerate([("4:2", 16), ("(2,2):(1,4)", 32), ("(4,4):(1,8)", 64), ("(2,4):(8,1)", 64), ("3:1", 12),
                                ("(2,3):(1,4)", 24)]):
        A = L(a)
        add(f"cpl_{i}", f"cute.complement({d(A)}, {c})", lambda A=A, c=c: complement(A, c))
    for i, a in enumerate(["(2,(1,6)):(1,(6,2))", "((4,8),2):((1,4),32)", "(2,4,8):(1,2,8)", "(4,(2,2)):(2,(1,8))",
                           "((2,2),(2,2)):((1,2),(4,8))", "(8,1,4):(1,0,8)"]):
        A = L(a)
        add(f"coal_{i}", f"cute.coalesce({d(A)})", lambda A=A: coalesce(A))
    for i, (a, shp, order) in enumerate([("(8,8):(8,1)", (16, 32), (0, 1)), ("(8,8):(8,1)", (16, 32), (1, 0)),
                                         ("(8,64):(64,1)", (128, 128), (0, 1)), ("(64,8):(1,64)", (128, 64), (1, 0)),
                                         ("(4,4):(1,4)", (8, 16), (0, 1))]):
        A = L(a)
        add(f"tts_{i}", f"cute.tile_to_shape({d(A)}, {shp}, {order})", lambda A=A, s=shp, o=order: tile_to_shape(A, s, o))
    for i, (a, old, new) in enumerate([("(8,64):(64,1)", 16, 32), ("(8,64):(64,1)", 16, 128), ("(8,16):(16,1)", 32, 16),
                                       ("(8,32):(32,1)", 8, 32), ("((8,2),64):((64,512),1)", 16, 64),
                                       ("(64,8):(1,64)", 16, 8)]):
        A = L(a)
        add(f"recast_{i}", f"cute.recast_layout({new}, {old}, {d(A)})", lambda A=A, o=old, n=new: recast(A, o, n))
    for i, (thr, val) in enumerate([("(4,8):(8,1)", "(1,4):(1,1)"), ("(32,4):(1,32)", "(4,1):(1,1)"),
                                    ("(8,4):(4,1)", "(2,2):(1,2)"), ("(16,8):(8,1)", "(1,8):(1,1)")]):
        T, V = L(thr), L(val)
        add(f"ltv_{i}", f"cute.make_layout_tv({d(T)}, {d(V)})[1]", lambda T=T, V=V: make_layout_tv(T, V)[1])
    return cases


def _swizzle_cases():
    cases = []
    sws = [("Sw<3,4,3> o 0 o (8,64):(64,1)", "(8,16):(1,8)"), ("Sw<2,3,3> o 0 o (8,32):(32,1)", "(4,8):(1,4)"),
           ("Sw<3,3,3> o 0 o (16,64):(64,1)", "(8,8):(8,1)"), ("Sw<1,4,3> o 0 o (8,16):(16,1)", "(8,2):(1,8)")]
    for i, (c, t) in enumerate(sws):
        C, T = L(c), L(t)
        cases.append((f"swz_{i}", to_cute_dsl(C), C, None))
        cases.append((f"swzcomp_{i}", f"cute.composition({to_cute_dsl(C)}, {to_cute_dsl(T)})", composition(C, T), None))
    for i, (c, shp) in enumerate([("Sw<3,4,3> o 0 o (8,64):(64,1)", (64, 128)), ("Sw<2,4,3> o 0 o (8,32):(32,1)", (32, 64))]):
        C = L(c)
        cases.append((f"swztts_{i}", f"cute.tile_to_shape({to_cute_dsl(C)}, {shp}, (0, 1))", tile_to_shape(C, shp), None))
    return cases


def _atom_cases():
    cases = []
    for bits, dtype in ((8, "cutlass.Float8E4M3FN"), (16, "cutlass.Float16"), (32, "cutlass.Float32")):
        for major in ("K", "MN"):
            for mode in ("INTERLEAVE", "32B", "64B", "128B"):
                ours = smem_atom(major, mode, bits)
                expr = to_cute_dsl(ours)
                assert dtype in expr
                cases.append((f"gmma_{major}_{mode}_{bits}", expr, ours, ("pointer", bits)))
                if mode == "128B":
                    tiled = SwizzledSmemLayout(ours.swizzle, tile_to_shape(ours.layout, (128, 128)), bits)
                    cases.append((f"gmmatts_{major}_{bits}", f"cute.tile_to_shape({expr}, (128, 128), (0, 1))", tiled,
                                  ("pointer", bits)))
    for n in (8, 16, 64, 128, 256):
        for name in (f"SM90_64x{n}x16_F32F16F16_SS", f"SM90_64x{n}x16_F32BF16BF16_RS"):
            a = mma_atom(name)
            expr = to_cute_dsl(a)
            for op in "ABC":
                cases.append((f"mma_{name}_{op}", f"{expr}.tv_layout_{op}", a.layout(op), None))
    for name in ("SM90_64x64x32_F32E4M3E5M2_SS_TN", "SM90_64x128x32_F16E4M3E4M3_RS_TN", "SM90_64x64x32_S32S8S8_SS_TN",
                 "SM90_64x32x32_S32U8S8_RS_TN", "SM80_16x8x16_F32F16F16F32_TN", "SM80_16x8x8_F16F16F16F16_TN"):
        a = mma_atom(name)
        for op in "ABC":
            cases.append((f"mma_{name}_{op}", f"{to_cute_dsl(a)}.tv_layout_{op}", a.layout(op), None))
    for name in ("SM75_U32x1_LDSM_N", "SM75_U32x2_LDSM_N", "SM75_U32x4_LDSM_N", "SM75_U16x2_LDSM_T", "SM75_U16x4_LDSM_T",
                 "SM75_U16x8_LDSM_T", "SM90_U32x1_STSM_N", "SM90_U32x2_STSM_N", "SM90_U32x4_STSM_N", "SM90_U16x8_STSM_T"):
        c = copy_atom(name)
        expr = to_cute_dsl(c)
        cases.append((f"copy_{name}_src", f"{expr}.layout_src_tv", recast(c.src_layout, 1, 16), None))
        cases.append((f"copy_{name}_dst", f"{expr}.layout_dst_tv", recast(c.dst_layout, 1, 16), None))
    for name, grid in (("SM90_64x128x16_F32F16F16_SS", (2, 1, 1)), ("SM90_64x64x16_F32BF16BF16_SS", (1, 2, 1)),
                       ("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1)), ("SM80_16x8x16_F32F16F16F32_TN", (4, 1, 1))):
        t = make_tiled_mma(name, grid)
        for op in "ABC":
            cases.append((f"tiled_{name}_{grid}_{op}", f"{to_cute_dsl(t)}.tv_layout_{op}_tiled", t.partition(op), None))
    tiled_more = [("SM90_64x64x16_F32F16F16_SS", Layout((2, 2, 1), (2, 1, 0)), (None, None, None)),
                  ("SM90_64x64x16_F32F16F16_SS", Layout((2, 1, 1)), (L("(4,32):(32,1)"), 64, 16)),
                  ("SM90_64x32x16_F32BF16BF16_RS", Layout((2, 2, 1), (2, 1, 0)), (None, 128, None)),
                  ("SM80_16x8x16_F32F16F16F32_TN", Layout((2, 2), (2, 1)), (None, None, None)),
                  ("SM80_16x8x16_F32F16F16F32_TN", Layout((2, 2, 1)), (32, L("(2,4,4):(1,8,2)"), 16)),
                  ("SM80_16x8x16_F32F16F16F32_TN", Layout((2, 2, 1)), (L("(8,4):(4,1)"), L("(4,4):(4,1)"), None)),
                  ("SM80_16x8x8_F16F16F16F16_TN", Layout((4, 1, 1)), (None, 32, 16)),
                  ("SM90_64x128x32_F32E4M3E4M3_SS_TN", Layout((1, 2, 1)), (None, L("(2,128):(128,1)"), None))]
    for i, (name, lay, perm) in enumerate(tiled_more):
        t = make_tiled_mma(name, lay, perm)
        for op in "ABC":
            cases.append((f"tiledperm_{i}_{op}", f"{to_cute_dsl(t)}.tv_layout_{op}_tiled", t.partition(op), None))
    return cases


UMMA_ATOMS = [f"SM100_MMA_F16BF16_{src}<{t},{t},float,{m},{n},UMMA::Major::{am},UMMA::Major::{bm}>"
              for src, t, m, n, am, bm in [("SS", "half_t", 128, 64, "K", "K"), ("SS", "bfloat16_t", 128, 256, "K", "MN"),
                                           ("SS", "half_t", 64, 128, "MN", "K"), ("TS", "half_t", 128, 128, "K", "K"),
                                           ("TS", "bfloat16_t", 64, 64, "K", "MN"), ("SS", "half_t", 128, 16, "K", "K")]]
UMMA_ATOMS += [f"SM100_MMA_F16BF16_2x1SM_{src}<half_t,half_t,float,256,{n},UMMA::Major::K,UMMA::Major::{bm}>"
               for src, n, bm in [("SS", 128, "K"), ("SS", 256, "MN"), ("TS", 64, "K")]]
UMMA_ATOMS += [f"SM100_MMA_TF32_{src}<tfloat32_t,tfloat32_t,float,{m},{n},UMMA::Major::K,UMMA::Major::{bm}>"
               for src, m, n, bm in [("SS", 128, 64, "K"), ("SS", 64, 32, "MN"), ("TS", 128, 256, "K")]]
UMMA_ATOMS += ["SM100_MMA_TF32_2x1SM_SS<tfloat32_t,tfloat32_t,float,256,128,UMMA::Major::K,UMMA::Major::K>",
               "SM100_MMA_S8_SS<int8_t,int8_t,int32_t,128,64,UMMA::Major::K,UMMA::Major::K>",
               "SM100_MMA_S8_TS<uint8_t,uint8_t,int32_t,128,128,UMMA::Major::K,UMMA::Major::K>",
               "SM100_MMA_S8_2x1SM_SS<int8_t,int8_t,int32_t,256,64,UMMA::Major::K,UMMA::Major::MN>"]
TMEM_COPIES = [f"SM100_TMEM_{d}_{shp}{r}x" for d in ("LOAD", "STORE")
               for shp, reps in (("32dp32b", (1, 4, 32, 128)), ("16dp64b", (1, 8, 64)), ("16dp128b", (1, 2, 16)),
                                 ("16dp256b", (1, 4, 32)), ("16dp32b", (1, 16, 64)))
               for r in reps]


def _sm100_cases():
    """tcgen05 (UMMA) atoms and TMEM copy atoms: the DSL builds them with CUTE_DSL_ARCH=sm_100a (its own file)."""
    cases = []
    for name in UMMA_ATOMS:
        a = mma_atom(name)
        for op in "ABC":
            cases.append((f"umma_{name}_{op}", f"{to_cute_dsl(a)}.tv_layout_{op}", a.layout(op), None))
    for name in TMEM_COPIES:
        c = copy_atom(name)
        expr = to_cute_dsl(c)
        cases.append((f"tmem_{name}_src", f"{expr}.layout_src_tv", recast(c.src_layout, 1, 32), None))
        cases.append((f"tmem_{name}_dst", f"{expr}.layout_dst_tv", recast(c.dst_layout, 1, 32), None))
    return cases


def all_cases():
    return _algebra_cases() + _swizzle_cases() + _atom_cases()


# The kernel: three 16x64 f16 shared tensors, each built by to_cute_dsl's expression: the 128B atom's swizzle on
# the pointer (bytes), Sw<3,3,3> as the layout (element offsets: the same addresses) and Sw<3,4,3> as the layout
# (element offsets: other addresses). Each store writes a distinct f16 constant, so its st.shared is found in the PTX.
KERNEL_TILE = parse("(16,64):(64,1)")
KERNEL_TENSORS = [
    SwizzledSmemLayout(parse("Sw<3,4,3>"), KERNEL_TILE, 16),                          # pointer swizzle
    SwizzledSmemLayout(parse("Sw<3,3,3>"), KERNEL_TILE, 16, swizzle_unit="elements"),  # layout swizzle, same map
    SwizzledSmemLayout(parse("Sw<3,4,3>"), KERNEL_TILE, 16, swizzle_unit="elements"),  # layout swizzle, not the atom
]
KERNEL_COORDS = [(1, 0), (2, 8), (5, 17), (7, 63), (12, 40), (15, 1)]


def _kernel_lines() -> list[str]:
    lines = ["", "", "@cute.kernel", "def store_kernel():"]
    for i, t in enumerate(KERNEL_TENSORS):
        expr = to_cute_dsl(t)
        if t.swizzle_unit == "elements":   # a composed layout: the tensor's own layout
            expr = f"cutlass.memory.SmemAllocator().allocate_tensor(cutlass.Float16, {expr}, byte_alignment=1024)"
        lines.append(f"    t{i} = {expr}")
    for i in range(len(KERNEL_TENSORS)):
        for j, c in enumerate(KERNEL_COORDS):
            lines.append(f"    t{i}[{c!r}] = cutlass.Float16({1 + i * len(KERNEL_COORDS) + j}.0)")
    lines += ["", "", "@cute.jit", "def launch():", "    store_kernel().launch(grid=[1, 1, 1], block=[32, 1, 1], smem=8192)",
              "", "", "cute.compile(launch)"]
    return lines


def _source(cases, kernel: bool = True) -> str:
    lines = ["import json", "import cutlass", "import cutlass.cute as cute", "import cutlass.utils", "", "RES = {}", "",
             "", "@cute.jit", "def run_all():"]
    for key, expr, _, _ in cases:
        lines.append(f"    RES[{key!r}] = str({expr})")
    lines += ["", "", "run_all()", *(_kernel_lines() if kernel else []), "print('@@RESULTS@@' + json.dumps(RES))", ""]
    return "\n".join(lines)


def run_dsl_file(src: str, timeout_s: int = 240, arch: str = "sm_90a") -> dict:
    """Run a generated DSL file once (cached by its hash) and return what it printed after the marker."""
    h = hashlib.sha256((arch + src).encode()).hexdigest()[:16]
    root = Path(tempfile.gettempdir()) / f"pycute_layouts_dsl_{os.getuid()}" / h
    root.mkdir(parents=True, exist_ok=True)
    cached = root / "results.json"
    if cached.exists():
        return json.loads(cached.read_text())
    path = root / "dsl_cases.py"
    path.write_text(src)
    env = {**os.environ, "CUTE_DSL_ARCH": arch, "CUTE_DSL_KEEP": "ptx", "CUTE_DSL_DUMP_DIR": str(root)}
    r = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=timeout_s, env=env, cwd=root)
    marker = [ln for ln in r.stdout.splitlines() if ln.startswith("@@RESULTS@@")]
    if r.returncode or not marker:
        raise AssertionError(f"the DSL run failed (exit {r.returncode}):\n{r.stderr[-3000:]}")
    res = json.loads(marker[0][len("@@RESULTS@@"):])
    res["__ptx__"] = "\n".join(p.read_text() for p in sorted(root.glob("*.ptx")))
    tmp = cached.with_name(f".results.{os.getpid()}.json")  # atomic: xdist workers and runs share the dir
    tmp.write_text(json.dumps(res))
    os.replace(tmp, cached)
    return res


CASES = all_cases()


@pytest.fixture(scope="session")
def dsl_results():
    if not HAVE_DSL:
        pytest.skip("nvidia-cutlass-dsl is not installed (pip install -e '.[interop]')")
    return run_dsl_file(_source(CASES))


def test_enough_cases():
    kinds = {k.split("_")[0] for k, *_ in CASES}
    assert len(CASES) >= 100, len(CASES)
    assert {"comp", "ldiv", "zdiv", "lprod", "rinv", "linv", "cpl", "coal", "tts", "recast", "swz", "gmma", "mma", "copy",
            "tiled"} <= kinds


CASES_SM100 = _sm100_cases()


@pytest.fixture(scope="session")
def dsl_results_sm100():
    if not HAVE_DSL:
        pytest.skip("nvidia-cutlass-dsl is not installed (pip install -e '.[interop]')")
    return run_dsl_file(_source(CASES_SM100, kernel=False), arch="sm_100a")


@pytest.mark.parametrize("key, expr, ours, how", CASES_SM100, ids=[c[0] for c in CASES_SM100])
def test_dsl_agrees_sm100(dsl_results_sm100, key, expr, ours, how):
    """tcgen05 MMA and TMEM copy atoms, built by the DSL for sm_100a on the CPU, read back: equal to ours."""
    theirs = from_cute_dsl(dsl_results_sm100[key])
    assert same(ours, theirs), (key, expr, dsl_results_sm100[key], str(ours))


@pytest.mark.parametrize("key, expr, ours, how", CASES, ids=[c[0] for c in CASES])
def test_dsl_agrees(dsl_results, key, expr, ours, how):
    text = dsl_results[key]
    if how is None:
        theirs = from_cute_dsl(text, element_bits=ours.element_bits, swizzle_on="layout") \
            if isinstance(ours, SwizzledSmemLayout) else from_cute_dsl(text)
    else:
        theirs = from_cute_dsl(text, element_bits=how[1], swizzle_on=how[0])
    assert same(ours, theirs), (key, expr, text, str(ours))


def _ptx_stores(ptx: str) -> dict[int, int]:
    """f16 constant -> shared byte offset of each ``st.shared.b16 [addr], 0x....`` (offsets from the dynamic smem base)."""
    regs: dict[str, int] = {}
    stores: dict[int, int] = {}

    def val(tok: str) -> int:
        tok = tok.strip()
        return regs[tok] if tok.startswith("%") else int(tok, 0)

    for ln in ptx.splitlines():
        parts = ln.strip().rstrip(";").replace(",", " ").split()
        if not parts:
            continue
        op = parts[0]
        if op.startswith("mov.b32") and parts[2] == "__dynamic_shmem__0":
            regs[parts[1]] = 0
        elif op.startswith("shfl.sync.idx") and parts[2] in regs:
            regs[parts[1]] = regs[parts[2]]
        elif op.split(".")[0] in ("add", "xor", "or", "and") and parts[2] in regs:
            a, b = val(parts[2]), val(parts[3])
            regs[parts[1]] = {"add": a + b, "xor": a ^ b, "or": a | b, "and": a & b}[op.split(".")[0]]
        elif op.startswith("st.shared"):
            addr = parts[1].strip("[]")
            base, _, off = addr.partition("+")
            value = float(np.frombuffer(int(parts[2], 16).to_bytes(2, "little"), dtype=np.float16)[0])
            stores[int(value)] = regs[base] + (int(off) if off else 0)
    return stores


def test_kernel_ptx_addresses_pointer_and_layout_swizzle(dsl_results):
    """The compiled kernel's st.shared addresses are where our objects (and to_cute_dsl's source) put each element."""
    stores = _ptx_stores(dsl_results["__ptx__"])
    size_bytes = KERNEL_TILE.cosize() * 2
    n = len(KERNEL_COORDS)
    for i, t in enumerate(KERNEL_TENSORS):
        base = i * size_bytes          # each allocator call takes the next 1024-aligned 2048 bytes
        for j, c in enumerate(KERNEL_COORDS):
            assert stores[1 + i * n + j] == base + int(t.byte_address(*c)), (str(t), c)
    # the units pitfall, in hardware addresses: same string Sw<3,4,3> on the pointer vs as the layout
    p, x = KERNEL_TENSORS[0], KERNEL_TENSORS[2]
    assert p.byte_address(1, 0) == 144 and x.byte_address(1, 0) == 128
    assert stores[1] == 144 and stores[1 + 2 * n] - 2 * size_bytes == 128


# --------------------------------------------------------------------------------------------------
# without the DSL


def test_from_cute_dsl_units_and_errors():
    s = "S<3,4,3> o 0 o (8,64):(64,1)"
    lay = from_cute_dsl(s)
    ptr = from_cute_dsl(s, element_bits=16, swizzle_on="pointer")
    assert isinstance(lay, ComposedLayout) and lay(1, 0) == 64 and lay(2, 0) == 128 ^ 16   # on element offsets
    assert ptr.byte_address(1, 0) == 144 and lay(1, 0) * 2 != 144                          # on bytes: the 128B atom
    assert from_cute_dsl(s, element_bits=16).swizzle_unit == "elements"
    with pytest.raises(UnitError, match="element_bits"):
        from_cute_dsl(s, swizzle_on="pointer")
    with pytest.raises(NotationError, match="dynamic"):
        from_cute_dsl("(?,4):(1,?)")
    with pytest.raises(LayoutError, match="swizzle_on"):
        from_cute_dsl(s, swizzle_on="bytes")
    with pytest.raises(NotationError):
        from_cute_dsl("S<3,4 o 0")
    with pytest.raises(LayoutError):
        from_cute_dsl(12)


def test_to_cute_dsl_spellings():
    assert to_cute_dsl(L("((2,4)):((4,1))")) == "cute.make_layout(((2, 4),), stride=((4, 1),))"
    assert to_cute_dsl(L("Sw<3,4,3>")) == "cute.make_swizzle(3, 4, 3)"
    pointer = SwizzledSmemLayout(L("Sw<3,4,3>"), L("(16,64):(64,1)"), 16)
    assert to_cute_dsl(pointer).startswith("cutlass.memory.SmemAllocator().allocate_tensor(cutlass.Float16,")
    assert "SmemLayoutAtomKind.MN_SW64" in to_cute_dsl(smem_atom("MN", "64B", 16))
    with pytest.raises(LayoutError, match="symbolic"):
        to_cute_dsl(parse("(M,4):(1,M)"))
    with pytest.raises(LayoutError, match="16-bit packing"):
        to_cute_dsl(copy_atom("SM100_TMEM_LOAD_32dp32b1x_16b"))
    with pytest.raises(LayoutError, match="no TF32 warpgroup MMA"):
        to_cute_dsl(mma_atom("SM90_64x64x8_F32TF32TF32_SS_TN"))
    with pytest.raises(LayoutError, match="one A/B type"):
        to_cute_dsl(mma_atom("SM100_MMA_S8_SS<int8_t,uint8_t,int32_t,128,64,UMMA::Major::K,UMMA::Major::K>"))
    with pytest.raises(LayoutError):
        to_cute_dsl("(8,4):(4,1)")
