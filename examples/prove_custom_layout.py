"""Prove that a hand-written shared-memory layout is exactly the wgmma 128B swizzle atom.

Kernel code often hand-rolls the swizzle: "element (r, c) of a 64-wide bf16 row goes to
r * 128 + ((c * 2) ^ ((r % 8) * 16))". Is that the same as the 128B atom that TMA writes and
wgmma reads? The bit-vector model answers for every coordinate at once: each address bit is a
boolean function of the coordinate bits, and the two sides are compared in their unique normal
form (sympy). A wrong hand-written formula gets a concrete counterexample instead.
"""

from pycute_layouts import parse
from pycute_layouts.arch import wgmma
from pycute_layouts.proofs.bitvec import equivalent

atom = wgmma.smem_atom("K", "128B", 16)        # Sw<3,4,3> on byte addresses o (8,64):(64,1), bf16
print("library atom     :", atom)


def hand_written(r, c):                         # the kernel author's formula, in bytes
    return r * 128 + ((c * 2) ^ ((r % 8) * 16))


proof = equivalent(atom, hand_written, (8, 64))
print("hand-written     :", "PROVED" if proof else "REFUTED")
print(proof.to_text().splitlines()[0])
if not proof:
    raise SystemExit("expected a proof")

# CuTe's element-offset form of the same atom (Sw<3,3,3> on 2-byte offsets), scaled to bytes:
cute = parse("Sw<3,3,3> o 0 o (8,64):(64,1)")
proof2 = equivalent(atom, lambda r, c: 2 * cute(r, c), (8, 64))
print("CuTe Sw<3,3,3> x2:", "PROVED" if proof2 else "REFUTED")


def off_by_one_row(r, c):                       # a classic bug: XOR with the row of the next 8-row group
    return r * 128 + ((c * 2) ^ (((r + 1) % 8) * 16))


cx = equivalent(atom, off_by_one_row, (8, 64))
print("buggy formula    :", "PROVED" if cx else f"REFUTED at (row, col) = {cx.coordinate}: "
      f"atom byte {cx.left_address}, formula byte {cx.right_address}")
if cx or not proof2:
    raise SystemExit("the buggy formula must be refuted and CuTe's form proved")
