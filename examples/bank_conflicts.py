"""Bank conflicts of ldmatrix on K-major bf16 tiles, and the swizzles that remove them.

For 128-, 64- and 32-byte rows: the unswizzled conflict (8-, 4-, 2-way), the TMA/wgmma swizzle
that fixes it, the search over Swizzle<B,M,S>, and the F2-linear form of the fixed layout.
"""

from pycute_layouts import ComposedLayout, Layout, Swizzle, byte_to_element_swizzle
from pycute_layouts.analysis import bank_conflicts, conflict_free_swizzles, explain, ldmatrix_pattern, to_linear_layout

CASES = [  # row bytes, tile (elements), the swizzle of that span ON BYTES, ldmatrix .xN covering one row block
    (128, Layout((8, 64), (64, 1)), Swizzle(3, 4, 3), 4),
    (64, Layout((8, 32), (32, 1)), Swizzle(2, 4, 3), 4),
    (32, Layout((8, 16), (16, 1)), Swizzle(1, 4, 3), 2),
]

for row_bytes, tile, sw, n in CASES:
    pat = ldmatrix_pattern(n)
    plain = bank_conflicts(tile, pat, element_bits=16)
    el = byte_to_element_swizzle(sw, 16)  # CuTe's Sw o 0 o L swizzles element offsets: Sw<B,3,3> for bf16
    fixed = bank_conflicts(ComposedLayout(el, 0, tile), pat, element_bits=16)
    print(f"{row_bytes:>3}-byte rows {str(tile):<14} ldmatrix.x{n}: {plain.wavefronts:>2} wavefronts "
          f"({plain.conflict_degree}-way) -> with {sw} o smem_ptr[16b] = {el} o 0: {fixed.wavefronts} "
          f"(conflict-free: {fixed.is_conflict_free})")
    assert plain.conflict_degree == row_bytes // 16   # 8 rows x row_bytes over the 128 bytes of the banks
    assert fixed.is_conflict_free
    found = conflict_free_swizzles(tile, pat, element_bits=16)
    tma = [f"{c.forms()} ({'/'.join(c.tma_modes)})" for c in found if c.tma_modes]
    print(f"     conflict-free TMA modes: {', '.join(tma)}; {len(found)} Swizzle<B,M,S> in all")
    assert sw in [c.swizzle for c in found]

print()
print("Which thread hits which bank, 128-byte rows, no swizzle, one matrix (ldmatrix.x1):")
print(bank_conflicts(CASES[0][1], ldmatrix_pattern(1), element_bits=16).picture())
print()
print(to_linear_layout(ComposedLayout(Swizzle(3, 4, 3), 0, Layout((8, 64), (128, 2)))))   # byte addresses
print()
print(explain(ComposedLayout(Swizzle(3, 3, 3), 0, CASES[0][1]), element_bits=16).to_text())  # the bf16 128B atom
