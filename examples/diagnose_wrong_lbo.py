"""Diagnose a wrong LBO from a counterexample: an MN-major bf16 B operand, 128B swizzle.

The atom is 64 N-columns x 8 K-rows. In this tile TMA writes the N-atoms one after the other (one
8-row box per atom, 1024 bytes each), so the descriptor's LBO (the distance between N-atoms) is 1024.
A kernel author copied LBO = 8192 from another kernel whose stage was laid out K-first; the GEMM
produced garbage in columns 64 and up. The library finds the first coordinate where the bytes TMA
wrote and the bytes wgmma reads differ, and the difference names the field and its right value.
"""

from pycute_layouts.proofs import Faults, prove_tma_matches_wgmma

good = prove_tma_matches_wgmma("128B", "MN", 16, method="exhaustive")
print("library's own LBO:", "proved" if good else "REFUTED")
assert good

for lbo in (8192, 2048):
    cx = prove_tma_matches_wgmma("128B", "MN", 16, method="exhaustive", faults=Faults(lbo_bytes=lbo))
    if cx:
        print(f"LBO {lbo}: no mismatch at the sizes tried (this LBO happens to be right for them)")
        continue
    mn, kk = cx.coordinate
    d = cx.descriptor
    print(f"LBO {lbo}: first mismatch at (n, k) = ({mn}, {kk}) of a {cx.m}x{cx.k}-atom tile: "
          f"TMA wrote it at {cx.tma_address:#x}, wgmma reads {cx.wgmma_address:#x}")
    print(f"   the descriptor: LBO {d.lbo_bytes} B, SBO {d.sbo_bytes} B; the element is in N-atom {mn // 64}, "
          f"so the address moved by {cx.wgmma_address - cx.tma_address:+#x} = ({d.lbo_bytes} - true LBO) * {mn // 64}")
    true_lbo = d.lbo_bytes - (cx.wgmma_address - cx.tma_address) // (mn // 64)
    print(f"   => the LBO that makes the two agree here: {true_lbo} bytes")
    fixed = prove_tma_matches_wgmma("128B", "MN", 16, method="exhaustive", faults=Faults(lbo_bytes=true_lbo))
    print(f"   re-checked with LBO {true_lbo}: {'proved at every size tried' if fixed else 'still refuted'}")
