"""Differential test of the second set of atoms (issue 25) against CuTe C++ compiled for the host.

MMA atoms: every name of :func:`more_mma_atom_names` (sm61 dp4a/dp2a, sm70 8x8x4, sm75, sm80 F64 /
C64 / GC64, S4/U4, U1 XOR/AND-popc, sm89 FP8, sm90 F64/C64 mma.sync, every sparse wgmma with its
metadata layout ``ELayout``, sm120 F8F6F4 and block-scaled with ``SFALayout``/``SFBLayout``, and a
representative set of sm100 F8F6F4 (SS and TS), MXF8F6F4 and MXF4 UMMA atoms). Copy atoms: every
name of :func:`more_copy_atom_names` (UniversalCopy, sm80 cp.async, the sm90/sm100 TMA and bulk-copy
traits). All are instantiated in ONE CuteBatch (cached); CuTe prints each layout, and ours must be the
same function over its whole domain (same size, same value at every index). Printed forms are
compared too and counted. Skipped without g++ / the CuTe headers.
"""

from __future__ import annotations

import re

import oracles
import pytest

from pycute_layouts import Layout
from pycute_layouts.arch import atoms
from pycute_layouts.arch.atoms_copy import more_copy_atom_names
from pycute_layouts.arch.atoms_mma import more_mma_atom_names, sm103_atom_names, sm120_sparse_atom_names

PREAMBLE = r"""
template <class T> std::string traits_str() {
  std::ostringstream os;
  os << typename T::Shape_MNK{} << " | " << typename T::ThrID{} << " | " << typename T::ALayout{} << " | "
     << typename T::BLayout{} << " | " << typename T::CLayout{};
  return os.str();
}
template <class T> std::string sparse_str() {
  std::ostringstream os;
  os << traits_str<T>() << " | " << typename T::ELayout{};
  return os.str();
}
template <class T> std::string scaled_str() {
  std::ostringstream os;
  os << traits_str<T>() << " | " << typename T::SFALayout{} << " | " << typename T::SFBLayout{} << " | " << T::SFVecSize;
  return os.str();
}
template <class T> std::string sparse_scaled_str() {
  std::ostringstream os;
  os << scaled_str<T>() << " | " << typename T::ELayout{};
  return os.str();
}
template <class T> std::string copy_traits_str() {
  std::ostringstream os;
  os << typename T::ThrID{} << " | " << typename T::SrcLayout{} << " | " << typename T::DstLayout{} << " | "
     << typename T::RefLayout{};
  return os.str();
}
"""
INCLUDES = ["cute/atom/mma_traits_sm61.hpp", "cute/atom/mma_traits_sm70.hpp", "cute/atom/mma_traits_sm75.hpp",
            "cute/atom/mma_traits_sm80.hpp", "cute/atom/mma_traits_sm89.hpp", "cute/atom/mma_traits_sm90.hpp",
            "cute/atom/mma_traits_sm90_gmma.hpp", "cute/atom/mma_traits_sm90_gmma_sparse.hpp",
            "cute/arch/mma_sm90_gmma_ext.hpp", "cute/atom/mma_traits_sm90_gmma_ext.hpp",
            "cute/arch/mma_sm90_gmma_sparse_ext.hpp", "cute/atom/mma_traits_sm90_gmma_sparse_ext.hpp",
            "cute/atom/mma_traits_sm120.hpp", "cute/atom/mma_traits_sm100.hpp",
            "cute/atom/mma_atom.hpp"]
COPY_INCLUDES = ["cute/atom/copy_traits_sm50.hpp", "cute/atom/copy_traits_sm75.hpp", "cute/atom/copy_traits_sm80.hpp",
                 "cute/atom/copy_traits_sm90_tma.hpp", "cute/atom/copy_traits_sm90_im2col.hpp",
                 "cute/atom/copy_traits_sm100.hpp", "cute/atom/copy_traits_sm100_tma.hpp",
                 "cute/atom/copy_traits_sm100_im2col.hpp", "cute/atom/copy_atom.hpp"]

#: the sparse sm120 atoms (added last) compile in their own small batch, so the big one stays cached
SM120_SPARSE = sm120_sparse_atom_names() + sm103_atom_names()
MMA_NAMES = [n for n in more_mma_atom_names() if n not in set(SM120_SPARSE)]
COPY_NAMES = more_copy_atom_names()

_UMMA_NONTEMPLATE = re.compile(r"^SM100_MMA_F8F6F4(_2x1SM)?_SS<(.*)>$")


def mma_expr(name: str) -> str:
    """The C++ expression printing the atom's traits (CuTe's spelling of the same atom)."""
    m = _UMMA_NONTEMPLATE.match(name)
    if m:  # a non-template op: the traits carry the parameters
        a, b, c, mm, nn, am, bm = m.group(2).split(",")[:7]
        ic = "integral_constant<UMMA::{0}, UMMA::{0}::{1}>"
        args = [a, b, c, f"C<{mm}>", f"C<{nn}>", ic.format("Major", am.rsplit(":", 1)[1]),
                ic.format("Major", bm.rsplit(":", 1)[1]), ic.format("ScaleIn", "One"), ic.format("ScaleIn", "One")]
        return f"traits_str<MMA_Traits<SM100_MMA_F8F6F4{m.group(1) or ''}_SS, {', '.join(args)}>>()"
    cxx = name + "<>" if name.startswith("SM90::GMMA::SPARSE::") and "<" not in name else name
    if name.startswith("SM90::GMMA::SPARSE::"):
        return f"sparse_str<MMA_Traits<{cxx}>>()"
    if name.startswith("SM120::SPARSE::"):
        return f"sparse_str<MMA_Traits<{cxx}>>()"
    if name.startswith("SM120::BLOCKSCALED::SPARSE::"):
        return f"sparse_scaled_str<MMA_Traits<{cxx}>>()"
    if "_TN_VS<" in name:
        return f"scaled_str<MMA_Traits<{cxx}>>()"
    return f"traits_str<MMA_Traits<{cxx}>>()"


_AUX = ("SM90_TMA_LOAD", "SM90_TMA_LOAD_MULTICAST", "SM90_TMA_STORE", "SM90_TMA_REDUCE_ADD", "SM100_TMA_2SM_LOAD",
        "SM100_TMA_2SM_LOAD_MULTICAST", "SM90_TMA_LOAD_IM2COL", "SM90_TMA_LOAD_IM2COL_MULTICAST", "SM90_TMA_STORE_IM2COL",
        "SM100_TMA_2SM_LOAD_IM2COL", "SM100_TMA_2SM_LOAD_IM2COL_MULTICAST")


def copy_expr(name: str) -> str:
    """The C++ expression printing CuTe's Copy_Traits of the atom (a TMA's AuxParams do not touch its layouts)."""
    if "<" not in name:
        traits = f"Copy_Traits<{name}>"
    elif name.startswith("AutoVectorizing"):
        traits = f"Copy_Traits<{name}>"
    else:
        op, args = name[:-1].split("<", 1)
        if op.startswith(("UniversalCopy", "SM80_CP_ASYNC")):
            parts = args.split(",")
            traits = f"Copy_Traits<{op}<{parts[0]},{parts[-1]}>>"
        else:
            traits = f"Copy_Traits<{op}, Int<{args}>{', int' if op in _AUX else ''}>"
    return f"copy_traits_str<{traits}>()"


@pytest.fixture(scope="module")
def oracle():
    import oracles

    oracles.skip_without_cxx()
    batch = oracles.CuteBatch(preamble=PREAMBLE, extra_includes=INCLUDES, chunk_size=1000)
    for n in MMA_NAMES:
        batch.add(mma_expr(n))
    res = batch.run()
    print("atoms oracle (second set):", batch.stats.describe())
    return res


@pytest.fixture(scope="module")
def copy_oracle():
    import oracles

    oracles.skip_without_cxx()
    batch = oracles.CuteBatch(preamble=PREAMBLE, extra_includes=COPY_INCLUDES)
    for n in COPY_NAMES:
        batch.add(copy_expr(n))
    return batch.run()


#: CuTe 4.2's SM80_16x8x32 S4/U4 BLayout has t4 stride 32 (two threads hold each of half of B, the other half
#: nobody): not injective, against the PTX fragment (row = threadID_in_group * 8 + i). NVIDIA/cutlass PR #3140
#: (merged) changes it to 64, which is ours. Those atoms are checked against the corrected layout, and the header's
#: text is pinned, so a wheel with the fix turns this into an ordinary comparison (then drop the entry).
CUTE_42_S4_BLAYOUT = "((_4,_8),(_8)):((_32,_1),(_8))"


#: CuTe 4.2's SM80_16x8x128 U1 ALayout spells its value stride Stride<Stride<_16,_8>> for Shape<_32,_2> (one nesting
#: level too many: not congruent, so not a layout CuTe can evaluate). Read with the extra parentheses dropped it is
#: ours, the PTX fragment (32 K bits of row g, then row g + 8).
CUTE_42_U1_ALAYOUT = "((_4,_8),(_32,_2)):((_512,_1),((_16,_8)))"


def _known_cute_bug(name: str, operand: int, text: str) -> bool:
    return (operand == 2 and re.match(r"^SM80_16x8x32_S32[SU]4[SU]4S32_TN", name) is not None
            and text == CUTE_42_S4_BLAYOUT)


@pytest.mark.oracle
def test_more_mma_atoms_match_cute(oracle):
    import oracles

    funcs = printed = bugs = 0
    fails = []
    for i, name in enumerate(MMA_NAMES):
        res = oracle[i]
        if not isinstance(res, str):
            fails.append((name, str(res)[:300]))
            continue
        parts = [x.strip() for x in res.split("|")]
        atom = atoms.mma_atom(name)
        assert atom.name == name, (atom.name, name)
        assert oracles.parse_int_tuple(parts[0]) == atom.shape_mnk, name
        ours = [atom.thr_id, atom.layout_a, atom.layout_b, atom.layout_c]
        if atom.layout_e is not None:
            ours.append(atom.layout_e)
        if atom.layout_sfa is not None:
            ours += [atom.layout_sfa, atom.layout_sfb]
            assert int(parts[-1]) == atom.sf_vec_size, name
        assert len(parts) - 1 - (atom.layout_sfa is not None) == len(ours), (name, parts)
        for op, (lay, text) in enumerate(zip(ours, parts[1:], strict=False)):
            if _known_cute_bug(name, op, text):
                assert str(lay) == "((4,8),8):((64,1),8)", (name, str(lay))
                assert sorted(lay.to_numpy().tolist()) == list(range(256)), name
                bugs += 1
                continue
            if name.startswith("SM80_16x8x128_S32U1U1S32") and op == 1:
                assert text == CUTE_42_U1_ALAYOUT, (name, text)
                text = text.replace("((_16,_8))", "(_16,_8)")
                bugs += 1
            same, identical = oracles.same_function(lay, text)
            assert same, (name, str(lay), text)
            funcs += 1
            printed += identical
    assert not fails, fails[:5]
    print(f"second-set MMA atoms: {len(MMA_NAMES)} atoms, {funcs} layouts equal as functions, {printed} also printed "
          f"identically, {bugs} CuTe 4.2 misprints (8 S4/U4 BLayouts, 2 U1 ALayouts) checked as documented")
    assert bugs == 8 + 2


@pytest.mark.oracle
def test_more_copy_atoms_match_cute(copy_oracle):
    funcs = printed = 0
    for j, name in enumerate(COPY_NAMES):
        res = copy_oracle[j]
        assert isinstance(res, str), (name, str(res)[:300])
        atom = atoms.copy_atom(name)
        for lay, text in zip((atom.thr_id, atom.src_layout, atom.dst_layout, atom.ref_layout),
                             (x.strip() for x in res.split("|")), strict=True):
            same, identical = oracles.same_function(lay, text)
            assert same, (name, str(lay), text)
            funcs += 1
            printed += identical
    print(f"second-set copy atoms: {len(COPY_NAMES)} atoms, {funcs} layouts equal as functions, {printed} also printed "
          "identically")
    assert funcs == 4 * len(COPY_NAMES)


TILED_PREAMBLE = r"""
template <class TM> std::string tiled_str(TM const& t) {
  std::ostringstream os;
  os << t.get_layoutA_TV() << " | " << t.get_layoutB_TV() << " | " << t.get_layoutC_TV();
  return os.str();
}
"""

#: (atom, atom layout as C++, as ours): quad-pair ThrID (sm70: 8 of 32 lanes), one-thread atoms, the new mma.sync
TILED = [
    ("SM70_8x8x4_F32F16F16F32_TN", "Layout<Shape<_2,_2,_1>>{}", Layout((2, 2, 1))),
    ("SM70_8x8x4_F16F16F16F16_NT", "Layout<Shape<_1,_1,_1>>{}", Layout((1, 1, 1))),
    ("SM70_8x8x4_F32F16F16F32_NN", "Layout<Shape<_2,_1,_1>,Stride<_1,_0,_0>>{}", Layout((2, 1, 1), (1, 0, 0))),
    ("SM61_DP4A", "Layout<Shape<_4,_8,_1>>{}", Layout((4, 8, 1))),
    ("SM80_16x8x256_S32U1U1S32_TN_XORPOPC", "Layout<Shape<_2,_1,_1>>{}", Layout((2, 1, 1))),
    ("SM80_8x8x4_F64F64F64F64_TN", "Layout<Shape<_2,_2,_1>,Stride<_2,_1,_0>>{}", Layout((2, 2, 1), (2, 1, 0))),
    ("SM89_16x8x32_F32E4M3E5M2F32_TN", "Layout<Shape<_1,_2,_1>>{}", Layout((1, 2, 1))),
    ("SM90_16x8x16_C64C64C64C64_TN", "Layout<Shape<_2,_1,_1>>{}", Layout((2, 1, 1))),
    ("SM120_16x8x32_TN<float_e2m1_t,float_e4m3_t,float>", "Layout<Shape<_2,_2,_1>>{}", Layout((2, 2, 1))),
]


@pytest.fixture(scope="module")
def tiled_oracle():
    import oracles

    oracles.skip_without_cxx()
    batch = oracles.CuteBatch(preamble=TILED_PREAMBLE, extra_includes=INCLUDES[:10] + ["cute/atom/mma_atom.hpp"])
    for name, lay, _ in TILED:
        batch.add(f"tiled_str(make_tiled_mma({name}{{}}, {lay}))")
    return batch.run()


@pytest.mark.oracle
def test_tiled_mmas_of_new_atoms_match_cute(tiled_oracle):
    for (name, _cxx, lay), res in zip(TILED, tiled_oracle, strict=True):
        assert isinstance(res, str), (name, str(res)[:300])
        tiled = atoms.make_tiled_mma(name, lay)
        for op, text in zip("ABC", (x.strip() for x in res.split("|")), strict=True):
            same, _ = oracles.same_function(tiled.partition(op), text)
            assert same, (name, op, str(tiled.partition(op)), text)


@pytest.fixture(scope="module")
def sm120_sparse_oracle():
    import oracles

    oracles.skip_without_cxx()
    batch = oracles.CuteBatch(preamble=PREAMBLE, extra_includes=["cute/atom/mma_traits_sm120_sparse.hpp",
                                                                 "cute/atom/mma_traits_sm100.hpp", "cute/atom/mma_atom.hpp"])
    for n in SM120_SPARSE:
        batch.add(mma_expr(n))
    return batch.run()


@pytest.mark.oracle
def test_sm120_sparse_and_sm103_atoms_match_cute(sm120_sparse_oracle):
    import oracles

    for name, res in zip(SM120_SPARSE, sm120_sparse_oracle, strict=True):
        assert isinstance(res, str), (name, str(res)[:300])
        parts = [x.strip() for x in res.split("|")]
        atom = atoms.mma_atom(name)
        assert atom.name == name and oracles.parse_int_tuple(parts[0]) == atom.shape_mnk, name
        ours = [atom.thr_id, atom.layout_a, atom.layout_b, atom.layout_c]
        if atom.layout_sfa is not None:   # scaled_str: ..., SFA, SFB, SFVecSize, then E
            ours += [atom.layout_sfa, atom.layout_sfb]
            assert int(parts[7]) == atom.sf_vec_size, name
            texts = parts[1:7] + parts[8:]
        else:
            texts = parts[1:]
        if atom.layout_e is not None:
            ours.append(atom.layout_e)
        assert len(texts) == len(ours), (name, parts)
        for lay, text in zip(ours, texts, strict=True):
            same, _ = oracles.same_function(lay, text)
            assert same, (name, str(lay), text)

