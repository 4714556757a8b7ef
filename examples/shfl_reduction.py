"""A warp sum reduction written as SASS SHFL.BFLY steps, simulated lane by lane and checked.

The butterfly reduction is the classic `__shfl_xor_sync` loop: at step d every lane adds the value
of lane (i XOR d). Five steps (d = 16, 8, 4, 2, 1) leave the warp's sum in every lane. Here the loop
is written as SASS (SHFL.BFLY with Sc = 0x1f: one 32-lane segment, clamp 31), each lane map is
printed as the library sees it, and the simulated registers are compared with numpy.
"""

import numpy as np

from pycute_layouts.arch import shfl

x = np.arange(32, dtype=np.float64) * 1.5 + 1.0
program = "\n".join(f"SHFL.BFLY PT, Ry, Rx, {d}, 0x1f\nFADD Rx, Rx, Ry" for d in (16, 8, 4, 2, 1))
print(program, "\n")

for d in (16, 8, 4, 2, 1):
    m = shfl.shfl("BFLY", d, 0x1F)
    print(f"BFLY {d:>2}: lane i reads lane i ^ {d}; as a layout: {shfl.lane_layout('BFLY', d, 0x1F)}; "
          f"all in range: {bool(m.in_range.all())}")

warp = shfl.run_program(program, {"Rx": x})
print("\nlane 0 after the reduction:", warp["Rx"][0], " numpy sum:", x.sum())
if not np.array_equal(warp["Rx"], np.full(32, x.sum())):
    raise SystemExit("the simulated reduction does not give the warp sum in every lane")

# A segmented reduction: mask 0x18 cuts the warp into four 8-lane segments (Sc = 0x18 << 8 | 7).
sc = shfl.encode_sc(0x18, 7)
seg_prog = "\n".join(f"SHFL.BFLY PT, Ry, Rx, {d}, {sc:#x}\nFADD Rx, Rx, Ry" for d in (4, 2, 1))
w8 = shfl.run_program(seg_prog, {"Rx": x})
expect = np.repeat(x.reshape(4, 8).sum(axis=1), 8)
print(f"segmented (Sc = {sc:#x}): per-segment sums", w8["Rx"][::8].tolist())
if not np.array_equal(w8["Rx"], expect):
    raise SystemExit("the segmented reduction is wrong")
print("both reductions match numpy")
