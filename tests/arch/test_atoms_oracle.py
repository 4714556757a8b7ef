"""Differential test of pycute_layouts.arch.atoms against CuTe C++ compiled for the host.

Every MMA atom of ``mma_atom_names(majors=True)`` (sm80 mma.sync, every sm90 GMMA family SS/RS
for every N and every major combination CuTe accepts, a representative sm100 UMMA set) and every
copy atom of ``copy_atom_names()`` (ldmatrix, stmatrix, all tcgen05.ld/st shapes and
repetitions) is instantiated in ONE CuteBatch: CuTe prints ``Shape_MNK``, ``ThrID``, ``ALayout``,
``BLayout``, ``CLayout`` (``SrcLayout``, ``DstLayout``, ``RefLayout`` for copies). Each printed
layout is compared with ours as a function over its whole domain (same size, same value at every
index), and the printed forms are counted where they are identical. Tiled MMAs are compared with
CuTe's ``get_layoutA_TV``/``get_layoutB_TV``/``get_layoutC_TV``. Skipped without g++/headers.
"""

from __future__ import annotations

import oracles
import pytest

from pycute_layouts import Layout
from pycute_layouts.arch import atoms
from pycute_layouts.arch.atoms_copy import copy_atom_names
from pycute_layouts.arch.atoms_mma import mma_atom_names

PREAMBLE = r"""
template <class Op> std::string mma_str() {
  using T = MMA_Traits<Op>;
  std::ostringstream os;
  os << typename T::Shape_MNK{} << " | " << typename T::ThrID{} << " | " << typename T::ALayout{} << " | "
     << typename T::BLayout{} << " | " << typename T::CLayout{};
  return os.str();
}
template <class Op> std::string copy_str() {
  using T = Copy_Traits<Op>;
  std::ostringstream os;
  os << typename T::ThrID{} << " | " << typename T::SrcLayout{} << " | " << typename T::DstLayout{} << " | "
     << typename T::RefLayout{};
  return os.str();
}
template <class TM> std::string tiled_str(TM const& t) {
  std::ostringstream os;
  os << t.get_layoutA_TV() << " | " << t.get_layoutB_TV() << " | " << t.get_layoutC_TV();
  return os.str();
}
"""
INCLUDES = ["cute/atom/mma_traits_sm80.hpp", "cute/atom/mma_traits_sm90_gmma.hpp", "cute/arch/mma_sm90_gmma_ext.hpp",
            "cute/atom/mma_traits_sm90_gmma_ext.hpp", "cute/atom/mma_traits_sm100.hpp",
            "cute/atom/copy_traits_sm75.hpp", "cute/atom/copy_traits_sm90.hpp", "cute/atom/copy_traits_sm100.hpp",
            "cute/atom/mma_atom.hpp"]

MMA_NAMES = mma_atom_names(majors=True)
COPY_NAMES = copy_atom_names()

#: (atom, atom_layout as C++ and as our Layout, permutation as C++ and ours)
TILED = [
    ("SM80_16x8x16_F32F16F16F32_TN", "Layout<Shape<_2,_2,_1>>{}", Layout((2, 2, 1)), "Tile<_32,_32,_16>{}",
     (32, 32, 16)),
    ("SM80_16x8x8_F16F16F16F16_TN", "Layout<Shape<_2,_2>,Stride<_2,_1>>{}", Layout((2, 2), (2, 1)), "Tile<_32,_16,_8>{}",
     (None, None, None)),
    ("SM80_16x8x16_F32BF16BF16F32_TN", "Layout<Shape<_2,_2,_1>>{}", Layout((2, 2, 1)),
     "Tile<_32,Layout<Shape<_8,_2,_2>,Stride<_1,_16,_8>>,_16>{}", (None, Layout((8, 2, 2), (1, 16, 8)), None)),
    ("SM90_64x64x16_F32BF16BF16_SS", "Layout<Shape<_2,_1,_1>>{}", Layout((2, 1, 1)), "Tile<_128,_64,_16>{}",
     (None, None, None)),
    ("SM90_64x32x16_F16F16F16_RS", "Layout<Shape<_1,_2,_1>>{}", Layout((1, 2, 1)), "Tile<_64,_64,_16>{}",
     (None, None, None)),
]


def cxx_mma(name: str) -> str:
    if name.startswith("SM90_") and name.endswith("_TN") and ("TF32" in name or "E4M3" in name or "E5M2" in name):
        return name + "<>"  # template alias with defaulted ScaleIn arguments
    return name


@pytest.fixture(scope="module")
def oracle():
    import oracles

    oracles.skip_without_cxx()
    batch = oracles.CuteBatch(preamble=PREAMBLE, extra_includes=INCLUDES, chunk_size=1000)
    for n in MMA_NAMES:
        batch.add(f"mma_str<{cxx_mma(n)}>()")
    for n in COPY_NAMES:
        batch.add(f"copy_str<{n}>()")
    for name, lay, _l, perm, _p in TILED:
        batch.add(f"tiled_str(make_tiled_mma({cxx_mma(atoms.mma_atom(name).name)}{{}}, {lay}, {perm}))")
    res = batch.run()
    print("atoms oracle:", batch.stats.describe())
    return res


@pytest.mark.oracle
def test_mma_atoms_match_cute(oracle):
    import oracles

    funcs = printed = 0
    for i, name in enumerate(MMA_NAMES):
        res = oracle[i]
        assert isinstance(res, str), (name, res)
        shape_mnk, thr, a, b, c = (x.strip() for x in res.split("|"))
        atom = atoms.mma_atom(name)
        assert oracles.parse_int_tuple(shape_mnk) == atom.shape_mnk, name
        for ours, text in ((atom.thr_id, thr), (atom.layout_a, a), (atom.layout_b, b), (atom.layout_c, c)):
            same, identical = oracles.same_function(ours, text)
            assert same, (name, str(ours), text)
            funcs += 1
            printed += identical
    print(f"MMA atoms: {len(MMA_NAMES)} atoms, {funcs} layouts equal as functions, {printed} also printed identically")
    assert funcs == 4 * len(MMA_NAMES) == 6464
    assert printed == funcs


@pytest.mark.oracle
def test_copy_atoms_match_cute(oracle):
    funcs = printed = 0
    for j, name in enumerate(COPY_NAMES):
        res = oracle[len(MMA_NAMES) + j]
        assert isinstance(res, str), (name, res)
        thr, src, dst, ref = (x.strip() for x in res.split("|"))
        atom = atoms.copy_atom(name)
        for ours, text in ((atom.thr_id, thr), (atom.src_layout, src), (atom.dst_layout, dst), (atom.ref_layout, ref)):
            same, identical = oracles.same_function(ours, text)
            assert same, (name, str(ours), text)
            funcs += 1
            printed += identical
    print(f"copy atoms: {len(COPY_NAMES)} atoms, {funcs} layouts equal as functions, {printed} also printed identically")
    assert funcs == 4 * len(COPY_NAMES) == 640
    assert printed == funcs


@pytest.mark.oracle
def test_tiled_mma_partitions_match_cute(oracle):
    base = len(MMA_NAMES) + len(COPY_NAMES)
    for k, (name, _lay, ours_lay, _perm, perm) in enumerate(TILED):
        res = oracle[base + k]
        assert isinstance(res, str), (name, res)
        tiled = atoms.make_tiled_mma(name, ours_lay, perm)
        for op, text in zip("ABC", (x.strip() for x in res.split("|")), strict=True):
            same, _ = oracles.same_function(tiled.partition(op), text)
            assert same, (name, op, str(tiled.partition(op)), text)
