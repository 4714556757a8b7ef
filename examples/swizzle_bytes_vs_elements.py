"""The 128B swizzle: the same hardware pattern as a byte swizzle and as an element swizzle."""

from pycute_layouts import Layout, Swizzle, SwizzledSmemLayout

atom = Layout((8, 64), (64, 1))                   # K-major 128B atom of 16-bit elements, in elements
smem = SwizzledSmemLayout(Swizzle(3, 4, 3), atom, element_bits=16)   # the hardware swizzles bytes
print("byte swizzle   :", smem.swizzle, " element swizzle:", smem.element_swizzle())
print("as CuTe writes it:", smem.as_composed())
for row in range(8):
    chunks = [int(smem.byte_address(row, 8 * c)) % 128 // 16 for c in range(8)]
    print(f"row {row}: 16-byte chunk order {chunks}")
# The PTX table for 128B swizzle: row r holds chunk c at position c XOR r.
assert all(int(smem.byte_address(r, 8 * c)) % 128 // 16 == c ^ r for r in range(8) for c in range(8))
print("matches the PTX 128-byte swizzle table")
