"""The shortcuts of the faster ``prove`` path, each against the computation it replaced.

* ``check_count``: plain ints in bounds return at once; everything else takes the checked path
  (same value or same error).
* ``Layout.is_symbolic`` reads the cached flat modes: the same answer as the IntTuple walk.
* ``make_smem_desc`` with ``swizzle_unit="bytes"`` reads a ``Sw o k o L`` swizzle directly: the
  swizzle the unit rule (``smem_layout_of``) gives, and the same descriptor or refusal.
* ``logical_divide`` / ``zipped_divide`` / ``flat_divide`` with positive int tilers take the
  integer path: the layouts the general path (mode by mode, ``n`` read as ``n:1``) gives.
* ``UmmaSmemDescriptor``: plain valid ``lbo_mode`` / ``version`` accepted at once; the accepted
  set is the documented one.
* The report runs its tasks in the :func:`_schedule` order (rows sharing an MMA atom in one
  process) and keeps its own order; ``gc.freeze`` around the worker is undone.
"""

from __future__ import annotations

import gc
import importlib
import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pycute_layouts import Layout, LayoutError, _
from pycute_layouts.arch import smem_desc, umma, wgmma
from pycute_layouts.arch.swizzle_modes import MMA_MODES, SwizzleMode
from pycute_layouts.core import tiling
from pycute_layouts.core.composed import ComposedLayout, smem_layout_of
from pycute_layouts.core.inttuple import is_symbolic
from pycute_layouts.core.swizzle import Swizzle
from pycute_layouts.core.symbols import symbols
from pycute_layouts.errors import DescriptorError, ProofError
from pycute_layouts.limits import check_count
from pycute_layouts.proofs import pairing

report_mod = importlib.import_module("pycute_layouts.proofs.report")


def _slow_check_count(*args: object, **kw: object) -> object:
    """check_count with the fast path skipped: a bool-free int subclass takes the checked path."""
    class Int(int):
        pass

    who, name, value = args[:3]
    v = Int(value) if type(value) is int else value
    try:
        return ("ok", check_count(who, name, v, *args[3:], **kw))
    except LayoutError as e:
        return (type(e), str(e))


def _fast_check_count(*args: object, **kw: object) -> object:
    try:
        return ("ok", check_count(*args, **kw))
    except LayoutError as e:
        return (type(e), str(e))


@given(st.integers(-(1 << 70), 1 << 70), st.sampled_from([None, 0, 1, -5, 1 << 64]),
       st.sampled_from([None, 0, 10, 1 << 62]), st.sampled_from([None, ProofError, DescriptorError]))
def test_check_count_fast_path_is_the_checked_path(value: int, lo: int | None, hi: int | None, error: type) -> None:
    assert _fast_check_count("f", "n", value, lo, hi, error) == _slow_check_count("f", "n", value, lo, hi, error)


@pytest.mark.parametrize("args", [("f", "n", True), ("f", "n", 3, True), ("f", "n", 3, 0, False), (1, "n", 3),
                                  ("f", None, 3), ("f", "n", 3, 0, 5, ValueError), ("f", "n", 3, 0, 5, int),
                                  ("f", "n", 10**70), ("f", "n", 7, 0, 5)])
def test_check_count_refusals_are_unchanged(args: tuple) -> None:
    got = _fast_check_count(*args)
    assert got == _slow_check_count(*args) and got[0] != "ok"


def test_layout_is_symbolic_from_flat_modes() -> None:
    m, k = symbols("m k")
    for lay in (Layout((8, 4), (4, 1)), Layout(((2, 4), 3)), Layout((m, 4)), Layout((4, 8), (1, m)),
                Layout(((8, m), 2)), Layout(1, 0), Layout((4, 0 * m + 2))):
        want = is_symbolic(lay.shape) or is_symbolic(lay.stride)
        assert lay.is_symbolic() == want
        lay.flat_modes()  # the cached flat modes: the same answer
        assert lay.is_symbolic() == want


def _composed_parts_slow(layout: ComposedLayout, bits: int) -> tuple:
    sw = smem_layout_of(ComposedLayout(layout.outer, 0, layout.inner), bits, swizzle_unit="bytes").byte_swizzle()
    return sw, layout.inner, int(layout.offset)


@pytest.mark.parametrize("mode", MMA_MODES)
@pytest.mark.parametrize("bits", [8, 16, 32])
def test_bytes_unit_swizzle_is_the_unit_rules(mode: SwizzleMode, bits: int) -> None:
    for inner in (Layout((8, 64), (64, 1)), Layout(((8, 2), (16, 2)), ((16, 256), (1, 128))), Layout((4, 8), (1, 4))):
        c = ComposedLayout(mode.byte_swizzle, 96, inner)
        assert smem_desc._composed_parts(c, bits, "bytes", "t") == _composed_parts_slow(c, bits)


@pytest.mark.parametrize("arch, major, bits, mode", [("sm90", "K", 16, "128B"), ("sm100", "MN", 16, "64B"),
                                                     ("sm100", "K", 8, "32B"), ("sm90", "MN", 16, "none"),
                                                     ("sm100", "MN", 32, "128B_base32B")])
def test_make_smem_desc_bytes_unit_agrees_with_the_pointer_form(arch: str, major: str, bits: int, mode: str) -> None:
    # Sw o k o L read with swizzle_unit="bytes" is the pointer form Sw o smem_ptr[Nb] o L at byte k * bits / 8
    p = pairing(mode, major, bits, arch)
    mod = umma if arch == "sm100" else wgmma
    mn, kk = p.tile_shape(2, 1)
    div = tiling.flat_divide(p.tile_layout(2, 1), (mn, p.k_instr_elems))
    for j in range(kk // p.k_instr_elems):
        inner = div(_, _, 0, j)
        for start in (0, 0x180, 0x400):
            fast = mod.make_smem_desc(ComposedLayout(p.mma_mode.byte_swizzle, 0, inner), major, bits,
                                      start_address=start, swizzle_unit="bytes")
            ref = mod.make_smem_desc(smem_layout_of(ComposedLayout(p.mma_mode.byte_swizzle, 0, inner), bits,
                                                    swizzle_unit="bytes"), major, bits, start_address=start)
            assert fast == ref


def test_make_smem_desc_bytes_unit_refusals_unchanged() -> None:
    from pycute_layouts import make_identity_layout

    plain = ComposedLayout(Swizzle(3, 4, 3), 0, Layout((8, 64), (64, 1)))
    with pytest.raises(DescriptorError, match="not allowed"):
        wgmma.make_smem_desc(plain, "K", 12, swizzle_unit="bytes")
    with pytest.raises(LayoutError):
        wgmma.make_smem_desc(ComposedLayout(Swizzle(3, 4, 3), 0, make_identity_layout((8, 64))), "K", 16,
                             swizzle_unit="bytes")
    with pytest.raises(DescriptorError, match="128B mode|does not match"):
        wgmma.make_smem_desc(ComposedLayout(Swizzle(3, 3, 3), 0, Layout((8, 64), (64, 1))), "K", 16,
                             swizzle_unit="bytes")


def _general_divide(layout: Layout, tiler: tuple) -> Layout:
    """logical_divide mode by mode, each int n read as the layout n:1 (1:0 for 1): the general path."""
    modes = [tiling.logical_divide(layout[i], Layout.from_normalized(t, 1 if t != 1 else 0))
             for i, t in enumerate(tiler)]
    rest = [layout[i] for i in range(len(tiler), layout.rank())]
    return Layout.from_normalized(tuple(m.shape for m in modes) + tuple(r.shape for r in rest),
                                  tuple(m.stride for m in modes) + tuple(r.stride for r in rest))


LAYOUTS = [Layout((8, 64), (64, 1)), Layout(((8, 2), (16, 4)), ((16, 256), (1, 128))), Layout((16, 32, 2)),
           Layout((12, 8), (8, 1)), Layout(((4, 2), 6), ((1, 24), 4))]


@pytest.mark.parametrize("layout", LAYOUTS, ids=str)
def test_int_tilers_take_the_integer_path_with_the_general_result(layout: Layout) -> None:
    sizes = [tuple(range(1, 1 + (s if type(s) is int else Layout(s).size()))) for s in layout.shape[:2]]
    n = 0
    for a in sizes[0]:
        for b in sizes[1]:
            for tiler in ((a,), (a, b)):
                try:
                    want = _general_divide(layout, tiler)
                except LayoutError:
                    with pytest.raises(LayoutError):
                        tiling.logical_divide(layout, tiler)
                    continue
                assert tiling._int_divide_modes(layout, tiler) is not None
                got = tiling.logical_divide(layout, tiler)
                assert (got.shape, got.stride) == (want.shape, want.stride)
                z, want_z = tiling.zipped_divide(layout, tiler), tiling._tile_unzip(want, tiler)  # the general path's
                assert (z.shape, z.stride) == (want_z.shape, want_z.stride)
                f = tiling.flat_divide(layout, tiler)
                want_f = tiling._unpack(want_z, tuple(len(x) if isinstance(x, tuple) else 0 for x in want_z.shape))
                assert (f.shape, f.stride) == (want_f.shape, want_f.stride)
                n += 1
    assert n > 0


def test_int_tiler_refusals_keep_the_general_path() -> None:
    L = Layout((8, 64), (64, 1))
    for tiler in ((0, 4), (-2, 4), (True, 4), (8.0, 4)):
        assert tiling._int_divide_modes(L, tiler) is None


def _umma_rules_accept(lbo_mode: object, version: object, swizzle: SwizzleMode, bo: int) -> bool:
    """The documented rules: lbo_mode 0/1 (1 only with 128B and base offset 0), version 1."""
    if isinstance(lbo_mode, bool) or not isinstance(lbo_mode, int) or lbo_mode not in (0, 1):
        return False
    if isinstance(version, bool) or not isinstance(version, int) or version != 1:
        return False
    return lbo_mode == 0 or swizzle is SwizzleMode.B128 and bo == 0


def test_umma_descriptor_accepts_exactly_the_documented_fields() -> None:
    n = 0
    for lm, v, mode, bo in itertools.product((0, 1, 2, -1, True, False, 1.0), (1, 0, 2, True, 1.0), MMA_MODES,
                                             (0, 1, 7)):
        if bo and not mode.is_swizzled:
            continue
        try:
            d = umma.UmmaSmemDescriptor(0x400, 16, 1024, mode, bo, lbo_mode=lm, version=v)
            ok = True
        except DescriptorError:
            ok = False
        assert ok == _umma_rules_accept(lm, v, mode, bo), (lm, v, mode, bo)
        if ok:
            assert umma.UmmaSmemDescriptor.decode(d.encode()) == d
            n += 1
    assert n > 10


def test_schedule_is_a_permutation_keeping_groups_together() -> None:
    groups = [("a",), None, ("b",), ("a",), ("c",), ("b",), None, ("c",), ("a",)]
    order = report_mod._schedule(groups)
    assert sorted(order) == list(range(len(groups)))
    seq = [groups[i] for i in order]
    for g in {g for g in groups if g is not None}:
        idx = [i for i, x in enumerate(seq) if x == g]
        assert idx == list(range(idx[0], idx[0] + len(idx)))  # contiguous
    assert all(x is None for x in seq[3:5])  # the groupless tasks in the middle (after a; before b, c)


def test_report_order_does_not_depend_on_the_schedule(monkeypatch: pytest.MonkeyPatch) -> None:
    kw = dict(archs=("sm90", "sm100"), modes=("64B", "128B", "128B_ATOM_64B"), majors=("K",), element_bits=(16,),
              exhaustive=False)
    monkeypatch.setenv("PYCUTE_LAYOUTS_JOBS", "1")
    got = report_mod.report(**kw)
    monkeypatch.setattr(report_mod, "_schedule", lambda groups: list(range(len(groups))))
    want = report_mod.report(**kw)
    strip = lambda r: [(x.tma_mode, x.major, x.element_bits, x.arch, x.status, x.detail)  # noqa: E731
                       for x in r.rows + r.negatives + r.lemmas]
    assert strip(got) == strip(want) and got.to_text() == want.to_text()


# under xdist, Python 3.12 warns of the worker's execnet I/O thread at the fork; the child uses none of its state
@pytest.mark.filterwarnings("ignore:This process .* is multi-threaded, use of fork:DeprecationWarning")
def test_report_leaves_the_gc_as_it_found_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(report_mod, "_can_fork", lambda n_tasks: True)  # the worker path, wherever the test runs
    calls = []
    monkeypatch.setattr(gc, "freeze", lambda orig=gc.freeze: calls.append("freeze") or orig())
    gc.unfreeze()
    kw = dict(archs=("sm90",), modes=("32B", "64B"), exhaustive=False)
    one = report_mod.report(**kw)
    # frozen before each fork (the early worker of the encoding lemma, then the worker), then unfrozen
    assert calls == ["freeze", "freeze"] and gc.get_freeze_count() == 0
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        two = report_mod.report(**kw)
        assert calls == ["freeze"] * 3  # the caller's freeze (none inside)
        assert gc.get_freeze_count() > frozen // 2  # a caller's frozen objects stay frozen (less those freed)
    finally:
        gc.unfreeze()
    monkeypatch.setattr(report_mod, "_can_fork", lambda n_tasks: False)
    alone = report_mod.report(**kw)  # one process: the same report
    assert one.to_text() == two.to_text() == alone.to_text() and one.ok
    assert [r.to_dict() | {"seconds": 0} for r in one.lemmas] == [r.to_dict() | {"seconds": 0} for r in alone.lemmas]


SLICE_LAYOUTS = [Layout((8, 4), (4, 1)), Layout(((2, 4), (3, 5)), ((1, 2), (8, 24))), Layout((16, 32, 2)),
                 Layout(((8, 2), (16, 2)), ((16, 256), (1, 128))), Layout(7, 3), Layout((4, 1), (1, 0))]


@pytest.mark.parametrize("layout", SLICE_LAYOUTS, ids=str)
def test_slice_at_the_origin_is_the_checked_slice(layout: Layout) -> None:
    # the origin of an integer layout has offset 0: the same sub-layout and offset as the checked path
    from pycute_layouts.core.layout import slice_and_offset

    def coords(s: object) -> list:
        if not isinstance(s, tuple):
            return [_, 0]
        return [tuple(c) for c in itertools.product(*[coords(x) for x in s])] + [_, 0]

    n = 0
    for c in coords(layout.shape):
        sub, off = slice_and_offset(c, layout)
        ref_sub, ref_off = slice_and_offset(c, layout, check=True)  # check=True: crd2idx, as before
        assert (sub.shape, sub.stride, off, type(off)) == (ref_sub.shape, ref_sub.stride, ref_off, type(ref_off))
        n += 1
    assert n >= 2


@pytest.mark.parametrize("args", [("128B", "K", 16, "sm90"), ("64B", "MN", 8, "sm100"), ("none", "MN", 16, "sm90"),
                                  ("128B_ATOM_32B", "MN", 32, "sm100"), ("96B", "K", 16, "sm90")])
def test_symbolic_tma_layout_is_the_checked_layout(args: tuple) -> None:
    # theorem._Symbolic regroups the modes of the packed box with the trusted constructor: the checked one agrees
    theorem_mod = importlib.import_module("pycute_layouts.proofs.theorem")
    from pycute_layouts.proofs.model import Faults

    kw = {"mma_mode": "32B"} if args[0] == "96B" else {}
    sy = theorem_mod._Symbolic(pairing(*args, **kw), 0, Faults())
    checked = Layout(sy.tma_layout.shape, sy.tma_layout.stride)
    assert (checked.shape, checked.stride) == (sy.tma_layout.shape, sy.tma_layout.stride)
    assert checked == sy.tma_layout and hash(checked) == hash(sy.tma_layout)


@pytest.mark.parametrize("args", [("128B", "K", 16, "sm90"), ("64B", "MN", 16, "sm100"), ("none", "K", 8, "sm90"),
                                  ("128B_ATOM_32B", "MN", 32, "sm100"), ("32B", "K", 32, "sm100")])
def test_descriptors_asked_once_per_argument_are_those_asked_per_tile(args: tuple) -> None:
    # inside one fact scope the library is asked once per distinct instruction slice (tiles of one MN extent share
    # them); each tile's descriptors, asked alone, are the same, and the slices shared are equal layouts
    from pycute_layouts.proofs.model import Faults, fact_scope, instruction_descriptors

    p = pairing(*args)
    sizes = [(1, 1), (1, 2), (1, 4), (2, 1), (2, 3), (3, 1), (1, 8)]
    shared = {}
    with fact_scope():
        for m, k in sizes:
            for dst in (0, 0x180):
                for anchor in ("absolute", "tile"):
                    shared[(m, k, dst, anchor)] = instruction_descriptors(p, m, k, dst, Faults(swizzle_anchor=anchor))
    for (m, k, dst, anchor), descs in shared.items():
        with fact_scope():
            alone = instruction_descriptors(p, m, k, dst, Faults(swizzle_anchor=anchor))
        assert descs == alone and len(alone) == p.tile_shape(m, k)[1] // p.k_instr_elems
    mn, ki = p.tile_shape(1, 1)[0], p.k_instr_elems
    one, four = (tiling.flat_divide(p.tile_layout(1, k), (mn, ki)) for k in (1, 4))
    assert all(one(_, _, 0, j) == four(_, _, 0, j) for j in range(p.block_k // ki))  # why they are shared


@pytest.mark.parametrize("group", [[("128B", "K", 16, "sm90"), ("128B", "K", 16, "sm100"), ("128B_ATOM_64B", "K", 16, "sm90")],
                                   [("64B", "MN", 16, "sm90"), ("64B", "MN", 16, "sm100")],
                                   [("128B_ATOM_32B", "MN", 8, "sm100"), ("128B_ATOM_32B_FLIP_8B", "MN", 8, "sm100")],
                                   [("32B", "K", 8, "sm90"), ("96B", "K", 8, "sm100")]])
def test_tiles_shared_by_atom_layout_are_those_derived_alone(group: list) -> None:
    # tiles and their division are keyed by the atom's layout (both archs, and TMA modes with one atom, share
    # them), wgmma addresses by the MMA side and the tile shape; what is derived in one scope equals what is
    # derived per pairing alone
    from pycute_layouts.proofs.model import Faults, fact_scope, instruction_descriptors, wgmma_addresses

    ps = [pairing(*a, **({"mma_mode": "128B"} if a[0] == "128B_ATOM_64B" else {"mma_mode": "32B"} if a[0] == "96B"
                         else {"mma_mode": "128B_base32B"} if a[0] == "128B_ATOM_32B_FLIP_8B" else {})) for a in group]
    sizes = [(1, 1), (2, 1), (1, 2), (3, 2)]

    def facts(p: object, m: int, k: int) -> tuple:
        a, descs = wgmma_addresses(p, m, k, 0x100 * (m + k), Faults(sbo_bytes=512) if m == 3 else None)
        return p.tile_layout(m, k), instruction_descriptors(p, m, k, 0x100 * (m + k), Faults()), a.tolist(), descs

    with fact_scope():
        shared = [facts(p, m, k) for p in ps for m, k in sizes]
    alone = []
    for p in ps:
        for m, k in sizes:
            with fact_scope():
                alone.append(facts(p, m, k))
    assert shared == alone
    assert all(type(d) is type(a) for x, y in zip(shared, alone) for d, a in zip(x[1] + x[3], y[1] + y[3]))
