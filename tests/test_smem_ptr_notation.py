"""CuTe's byte-swizzled smem layouts ``Sw<B,M,S> o smem_ptr[Nb](unset) o L``: notation and placement.

The differential part builds every GMMA/UMMA shared-memory atom CuTe defines
(``GMMA::Layout_{MN,K}_{INTER,SW32,SW64,SW128}_Atom<T>``, ``UMMA::Layout_MN_SW128_32B_Atom<T>``)
for ``half_t``, ``tfloat32_t``, ``float_e4m3_t`` and ``uint8_t``, and two ``tile_to_shape`` tiles of
each, in ONE CuteBatch. For each case CuTe prints the layout (``cute::print``) and the byte
offset of every element of ``make_tensor(make_smem_ptr<T>(base), layout)`` (the address of
``tensor(i)`` minus a 1024-byte aligned ``base``; the swizzle pointer swizzles the real address).
The printed string must parse, print back to itself (up to CuTe's ``_`` static markers), equal
our own ``tile_to_shape`` and ``smem_atom``, and place every element at CuTe's byte offset.
"""

from __future__ import annotations

import numpy as np
import oracles
import pytest

from pycute_layouts import ComposedLayout, Layout, Swizzle, SwizzledSmemLayout, _, parse, tile_to_shape, upcast
from pycute_layouts.arch import umma, wgmma
from pycute_layouts.errors import NotationError, UnitError

TYPES = {"half_t": 16, "tfloat32_t": 32, "float_e4m3_t": 8, "uint8_t": 8}
GMMA_ATOMS = [f"GMMA::Layout_{mj}_{sw}_Atom" for mj in ("MN", "K") for sw in ("INTER", "SW32", "SW64", "SW128")]
ATOMS = GMMA_ATOMS + ["UMMA::Layout_MN_SW128_32B_Atom"]
TILE_TARGETS = [(64, 64), (128, 64), (64, 128), (128, 128)]

PREAMBLE = r"""
alignas(1024) static unsigned char oracle_smem[1 << 17];

// Byte offset of every element of a CuTe smem tensor with layout `layout` (swizzle on the real address).
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


def _atom_shape(name: str, bits: int) -> tuple[int, int]:
    """The (MN, K) shape of a CuTe atom: the Bits atoms are 8 rows x 128..1024 bits, upcast to ``bits``."""
    width_bits = {"INTER": 128, "SW32": 256, "SW64": 512, "SW128": 1024}
    if name.endswith("SW128_32B_Atom"):
        return 1024 // bits, 4
    mj, sw = name.split("_")[1:3]
    return (width_bits[sw] // bits, 8) if mj == "MN" else (8, width_bits[sw] // bits)


def _cases() -> list[tuple[str, str, int, tuple[int, int] | None]]:
    """(atom, type, bits, tile target or None for the atom itself)."""
    cases = []
    for atom in ATOMS:
        for t, bits in TYPES.items():
            if t == "uint8_t" and atom != "GMMA::Layout_K_SW128_Atom":
                continue  # uint8_t is float_e4m3_t's geometry; one atom shows the printed width is the type's
            cases.append((atom, t, bits, None))
            mn, k = _atom_shape(atom, bits)
            targets = [s for s in TILE_TARGETS if s[0] % mn == 0 and s[1] % k == 0][:2]
            cases += [(atom, t, bits, s) for s in targets]
    return cases


CASES = _cases()


def _cxx(atom: str, t: str, tile: tuple[int, int] | None) -> str:
    expr = f"{atom}<{t}>{{}}"
    return expr if tile is None else f"tile_to_shape({expr}, Shape<_{tile[0]},_{tile[1]}>{{}})"


#: CuTe's bare call ``layout(i)`` of this flagged atom (docs/differences.md: it ignores the pointer flag).
BARE_CALL = ("GMMA::Layout_K_SW128_Atom", "half_t", None)


@pytest.fixture(scope="module")
def cute_out() -> dict:
    oracles.skip_without_cxx()
    batch = oracles.CuteBatch(preamble=PREAMBLE, extra_includes=["cute/atom/mma_traits_sm100.hpp"], chunk_size=1000)
    idx = {}
    for case in CASES:
        atom, t, _bits, tile = case
        e = _cxx(atom, t, tile)
        idx[case] = (batch.add(e, printer="print"), batch.add(f"oracle_smem_bytes<{t}>({e})"))
    bare = batch.add_values(_cxx(*BARE_CALL))
    batch.run()
    out = {case: (batch.value(i), oracles.parse_values(batch.value(j))) for case, (i, j) in idx.items()}
    out["bare call"] = oracles.parse_values(batch.value(bare))
    return out


def _id(case: tuple) -> str:
    atom, t, _bits, tile = case
    return f"{atom.split('::')[1]}-{t}-" + ("atom" if tile is None else f"{tile[0]}x{tile[1]}")


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_cute_printed_layout_parses_prints_back_and_places_like_cute(cute_out: dict, case: tuple) -> None:
    atom, _t, bits, tile = case
    text, cute_bytes = cute_out[case]
    assert f"o smem_ptr[{bits}b](unset) o" in text
    L = parse(text)
    assert isinstance(L, SwizzledSmemLayout) and L.element_bits == bits
    assert str(L) == oracles.normalize(text)
    assert parse(str(L)) == L
    ours = np.asarray(L.byte_addresses()).tolist()
    assert ours == cute_bytes
    assert (L.to_numpy() * bits // 8).tolist() == cute_bytes  # evaluation: the element offset where it lands
    if tile is not None:  # our own tile_to_shape of the atom CuTe printed: same string, same placement
        atom_text, _ = cute_out[(atom, _t, bits, None)]
        assert str(tile_to_shape(parse(atom_text), tile)) == str(L)


def test_cute_bare_call_ignores_the_pointer_flag(cute_out: dict) -> None:
    """CuTe's ``layout(i)`` is the byte swizzle applied to element offsets; the smem tensor (and we) differ."""
    text, cute_bytes = cute_out[("GMMA::Layout_K_SW128_Atom", "half_t", 16, None)]
    L = parse(text)
    assert cute_out["bare call"] == ComposedLayout(L.swizzle, 0, L.layout).to_numpy().tolist()
    assert cute_out["bare call"] != L.to_numpy().tolist()
    assert (L.to_numpy() * 2).tolist() == cute_bytes


@pytest.mark.parametrize("atom", ATOMS)
@pytest.mark.parametrize("bits", [16, 32, 8])
def test_cute_atoms_are_our_arch_atoms(cute_out: dict, atom: str, bits: int) -> None:
    """parse(CuTe's atom) == wgmma/umma smem_atom (swizzle on bytes, layout in elements)."""
    t = {16: "half_t", 32: "tfloat32_t", 8: "float_e4m3_t"}[bits]
    text, _ = cute_out[(atom, t, bits, None)]
    if atom.endswith("SW128_32B_Atom"):
        ours = umma.smem_atom("MN", "128B_base32B", bits)
    else:
        mj, sw = atom.split("_")[1:3]
        ours = wgmma.smem_atom(mj, {"INTER": "none", "SW32": "32B", "SW64": "64B", "SW128": "128B"}[sw], bits)
    assert parse(text) == ours


# -- the notation forms ------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)",
    "Sw<3,4,3> o smem_ptr[1b](unset) o (8,1024):(1024,1)",
    "Sw<2,4,3> o smem_ptr[4b](unset) o (256,8):(1,256)",
    "Sw<1,4,3> o smem_ptr[6b](unset) o (8,64):(64,1)",
    "Sw<3,4,3> o smem_ptr[32b](0x7f0000000400) o ((8,2),(32,2)):((32,256),(1,512))",
    "Sw<0,4,3> o smem_ptr[8b](unset) o (8,16):(16,1)",
])
def test_round_trip(text: str) -> None:
    assert str(parse(text)) == text


def test_the_two_forms_of_the_128b_atom_agree() -> None:
    """Sw<3,4,3> on bytes with 16-bit elements is Sw<3,3,3> on element offsets; Sw<3,4,3> o 0 o L is not."""
    ptr = parse("Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)")
    elem = parse("Sw<3,3,3> o 0 o (8,64):(64,1)")
    assert ptr.to_numpy().tolist() == elem.to_numpy().tolist()
    assert [ptr(1, c) for c in (0, 8, 16)] == [72, 64, 88]            # row 1: 16-byte chunks XOR 1
    assert [parse("Sw<3,4,3> o 0 o (8,64):(64,1)")(1, c) for c in (0, 8, 16)] == [64, 72, 80]  # element units
    assert ptr.as_composed() == elem
    assert upcast(parse("Sw<3,4,3> o smem_ptr[1b](unset) o (8,1024):(1024,1)"), 16) == ptr


def test_address_and_slices() -> None:
    based = parse("Sw<3,4,3> o smem_ptr[16b](0x480) o (8,64):(64,1)")
    assert based.base_address == 0x480
    assert based(0, 0) == (Swizzle(3, 4, 3)(0x480) - 0x480) // 2    # relative to the pointer
    ptr = parse("Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)")
    row = ptr(1, _)
    assert isinstance(row, ComposedLayout) and str(row) == "Sw<3,3,3> o 64 o 64:1"
    assert [row(c) for c in range(64)] == [ptr(1, c) for c in range(64)]
    col = ptr(_, 0)
    assert isinstance(col, SwizzledSmemLayout) and [col(r) for r in range(8)] == [ptr(r, 0) for r in range(8)]
    with pytest.raises(UnitError, match="address"):
        based(1, _)


def test_sub_byte_landing_off_an_element_boundary_is_loud() -> None:
    L = parse("Sw<1,4,3> o smem_ptr[6b](unset) o (8,64):(64,1)")
    assert L(0, 5) == 5
    with pytest.raises(UnitError, match="6-bit element boundary"):
        L.to_numpy()


@pytest.mark.parametrize("text, col, words", [
    ("Sw<3,4,3> o smem_ptr[12b](unset) o (8,64):(64,1)", 21, "element width must be one of"),
    ("Sw<3,4,3> o smem_ptr[0b](unset) o (8,64):(64,1)", 21, "element width must be one of"),
    ("Sw<3,4,3> o smem_ptr[16b] o (8,64):(64,1)", 26, "needs its address: (unset)"),
    ("Sw<3,4,3> o smem_ptr[16b](0xZZ) o (8,64):(64,1)", 26, "must be 'unset' or hexadecimal"),
    ("Sw<3,4,3> o smem_ptr[16b](1024) o (8,64):(64,1)", 26, "must be 'unset' or hexadecimal"),
    ("Sw<3,4,3> o smem_ptr[16b]() o (8,64):(64,1)", 26, "must be 'unset' or hexadecimal"),
    ("Sw<3,4,3> o smem_ptr[16b](null) o (8,64):(64,1)", 26, "must be 'unset' or hexadecimal"),
    ("Sw<3,4,3> o smem_ptr(unset) o (8,64):(64,1)", 12, "expected smem_ptr[Nb](unset)"),
    ("(8,8):(8,1) o smem_ptr[16b](unset) o (8,64):(64,1)", 14, "must be a swizzle"),
    ("Sw<3,4,3> o smem_ptr[16b](unset)", 32, "expected 'o' and a layout"),
    ("Sw<3,4,3> o smem_ptr[16b](unset) o Sw<1,4,3>", 35, "must be a layout"),
    ("smem_ptr[16b](unset)", 8, "unexpected '['"),
])
def test_bad_forms(text: str, col: int, words: str) -> None:
    with pytest.raises(NotationError) as e:
        parse(text)
    assert words in str(e.value)
    assert e.value.column == col


def test_static_markers_read_as_integers() -> None:
    assert parse("(_8,_64):(_64,_1)") == Layout((8, 64), (64, 1))
    assert str(parse("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)")) == "Sw<3,4,3> o 0 o (8,64):(64,1)"
