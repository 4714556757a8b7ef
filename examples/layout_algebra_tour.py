"""A tour of the layout algebra on a Hopper-style tile: divide a 128x64 tile into 64x16 blocks."""

from pycute_layouts import Layout, coalesce, composition, logical_divide, right_inverse, zipped_divide

tile = Layout((128, 64), (64, 1))                 # row-major 128x64 tile of bf16
blocks = zipped_divide(tile, (64, 16))            # ((block), (rest))
print("tile          :", tile)
print("zipped_divide :", blocks)
print("block (1, 2)  :", blocks(((0, 0), (1, 2))), "= offset of element (64, 32)")
assert blocks(((0, 0), (1, 2))) == tile(64, 32)
print("coalesce      :", coalesce(tile))
inv = right_inverse(tile)
print("right_inverse :", inv, "-> tile(inv(i)) == i for i <", inv.size())
assert all(tile(inv(i)) == i for i in range(inv.size()))
print("logical_divide by a strided tiler:", logical_divide(Layout(16), Layout(4, 2)))
print("composition   :", composition(tile, Layout((4, 2), (64, 1))))
