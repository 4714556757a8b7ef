"""An im2col load plan for a 3x3 convolution (padding 1) on an NHWC tensor, tap by tap.

Implicit GEMM: rows = output pixels, columns = (filter tap, input channel). One TMA im2col tensor
map serves all nine taps: its bounding box is the set of legal filter-base positions
(lower corner -pad, upper corner pad - (k - 1)), and each tap is the same load with im2col offsets
(s, r). Pixels that fall in the padding are outside the tensor: TMA fills their rows with zeros.
The script prints, for each tap, which input pixels land in which shared-memory rows, and checks
the whole plan against a direct numpy im2col of the padded tensor.
"""

import numpy as np

from pycute_layouts.arch import im2col

N, H, W, C = 1, 6, 6, 8             # NHWC
K, PAD = 3, 1
PIXELS = 32                         # output pixels per load (GEMM-M tile): all 36 do not fit, take 32
params = dict(global_dim=(C, W, H, N), pixel_box_lower_corner=(-PAD, -PAD),
              pixel_box_upper_corner=(PAD - (K - 1), PAD - (K - 1)),
              channels_per_pixel=C, pixels_per_column=PIXELS)

x = np.arange(N * H * W * C).reshape(N, H, W, C) + 1
xp = np.pad(x, ((0, 0), (PAD, PAD), (PAD, PAD), (0, 0)))      # zero padding = TMA's OOB fill
out_pix = [(n, h, w) for n in range(N) for h in range(H) for w in range(W)][:PIXELS]

for r in range(K):
    for s in range(K):
        # the first filter base is the bounding box's lower corner (-PAD, -PAD); coords are (C, W, H, N)
        acc = im2col.im2col_load(coords=(0, -PAD, -PAD, 0), offsets=(s, r), **params)
        smem = np.zeros((PIXELS, C), dtype=x.dtype)
        for row, (n, _, h, w) in enumerate(acc.pixels.tolist()):
            if acc.in_bounds[row]:
                smem[row] = x[n, h, w]
        ref = np.stack([xp[n, h + r, w + s] for n, h, w in out_pix])
        if not np.array_equal(smem, ref):
            raise SystemExit(f"tap (r={r}, s={s}): the TMA plan differs from numpy im2col")
        filled = int((~acc.in_bounds).sum())
        print(f"tap (r={r}, s={s}): {PIXELS} rows, {filled:2d} zero-filled (padding), "
              f"first pixels (h,w): {[(int(p[2]), int(p[3])) for p in acc.pixels[:3]]}")
print(f"all {K * K} taps match a numpy im2col of the zero-padded tensor")
