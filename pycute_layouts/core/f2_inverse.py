"""Right and left inverses of layouts with F2 (XOR) strides.

A layout with F2 strides ``(s0,s1,...):(F v0, F v1, ...)`` maps an index to the XOR of the
carry-less products ``v_k (x) c_k`` of its coordinates (a swizzle written as a layout). CuTe C++
has no F2 strides; the meaning here is NVIDIA PyCuTe's, stated as a law and checked point by point:

* ``right_inverse(L)`` is a layout ``R`` with F2 strides and ``L(R(i)) == i`` (and ``R(i)`` inside
  L's domain) for every ``i < size(R)``. It is built as CuTe builds the integer one, a chain of
  L's modes in stride order covering ``[0, 1)``, ``[0, c)``, ... -- except that a mode whose
  stride is ``c XOR r`` may continue the chain when its residue ``r`` only permutes what the chain
  already covers; R's stride for that mode then undoes the residue. The chain stops at the first
  mode that does not continue it (the chain goes on while some mode continues it, as CuTe's does).
* ``left_inverse(L)``: defined where L without its stride-0 modes is a bijection onto
  ``[0, n)``; then the right inverse is also the left one (``R(L(i)) == i``, or
  ``L(R(L(i))) == L(i)`` with broadcast modes, as for integer strides). A layout whose image has
  gaps is refused (``AdmissibilityError``), as PyCuTe refuses it.
"""

from __future__ import annotations

import numpy as np

from ..errors import AdmissibilityError, LayoutTypeError, SymbolicUndecidable
from ..limits import MAX_EVAL_POINTS, check_budget, fmt
from .f2 import F2, clmul, is_pow2
from .layout import Layout

__all__ = ["is_f2_layout", "right_inverse_f2", "left_inverse_f2"]


def is_f2_layout(fd: tuple) -> bool:
    """True when the flat strides ``fd`` (a tuple, as ``Layout.flat_modes()[1]``) hold an F2 stride.

    >>> is_f2_layout((F2(1), 0)), is_f2_layout((1, 4))
    (True, False)
    """
    if type(fd) is not tuple:
        raise LayoutTypeError(f"is_f2_layout: expected the flat strides as a tuple, got {type(fd).__name__}")
    return any(type(d) is F2 for d in fd)


def _check(layout: Layout, who: str) -> tuple[list, list]:
    if not isinstance(layout, Layout):
        raise LayoutTypeError(f"{who}: expected a Layout with F2 strides, got {type(layout).__name__} {fmt(layout)}"[:300])
    fs, fd = layout.flat_modes()
    if not is_f2_layout(fd):
        raise LayoutTypeError(f"{who}: expected a Layout with F2 strides, got {layout}"[:300])
    for s in fs:
        if type(s) is not int:
            raise SymbolicUndecidable(f"{who}: {layout} has F2 strides and a symbolic shape; subs() first")
    vals = []
    for d in fd:
        if type(d) is F2:
            vals.append(int(d))
        elif d == 0:
            vals.append(0)
        else:  # a Layout never mixes F2 with other nonzero strides; kept loud in case it ever does
            raise LayoutTypeError(f"{who}: {layout} mixes F2 strides with the stride {d}")
    return list(fs), vals


def _continues(table: np.ndarray, s: int, r: int, pre: int, cur: int, rtab: np.ndarray) -> np.ndarray | None:
    """R's values on [0, cur*s) if the mode (shape s, stride cur XOR r, domain position pre) extends R from [0, cur).

    ``table`` is L on its whole domain, ``rtab`` R on [0, cur). R's new stride undoes the residue r
    through R itself (``w = pre XOR R(r)``), and the law ``L(R(i)) == i`` is checked at every new
    point: a residue whose carry-less products leave [0, cur), or a domain position that does not
    split into bits, fails here. None when the mode does not continue the chain.
    """
    w = pre ^ (int(rtab[r]) if r else 0)
    ks = np.arange(s, dtype=np.int64)
    wk = np.zeros(s, dtype=np.int64)  # w (x) k for every k < s, one shift per bit of k
    for b in range(max(s - 1, 0).bit_length()):
        wk ^= ((ks >> b) & 1) * (w << b)
    x = np.bitwise_xor(wk[:, None], rtab[None, :]).reshape(-1)  # R(cur*k + y) = (w (x) k) XOR R(y)
    if int(x.max()) >= table.shape[0] or not np.array_equal(table[x], np.arange(cur * s, dtype=np.int64)):
        return None
    return x


def right_inverse_f2(layout: Layout) -> Layout:
    """The right inverse of a layout with F2 strides (see the module's docstring for the chain).

    Pre:  layout has int shapes, F2 strides (and zeros).
    Post: layout(R(i)) == i and R(i) < size(layout) for every i < size(R); R has F2 strides
          (``1:0`` when no mode has the stride F1).

    >>> from pycute_layouts import Layout, F2
    >>> print(right_inverse_f2(Layout((8, 8), (F2(9), F2(1)))))
    (8,8):(F8,F9)
    >>> print(right_inverse_f2(Layout((8, 8), (F2(1), F2(13)))))
    8:F1
    """
    who = "right_inverse"
    fs, v = _check(layout, who)
    size_l = 1
    for s in fs:
        size_l *= s
    check_budget(who, f"layout {layout}", size_l, MAX_EVAL_POINTS)
    pre = [1]
    for s in fs:
        pre.append(pre[-1] * s)
    used = [False] * len(fs)
    table = layout.to_numpy()  # L on its domain, once (MAX_EVAL_POINTS)
    rtab = np.zeros(1, dtype=np.int64)  # R on [0, cur)
    rs: list = []
    rw: list = []
    cur = 1
    while is_pow2(cur):  # a mode of a non-power-of-two extent ends the chain: XOR does not continue it
        cand = sorted((i for i in range(len(fs)) if not used[i] and fs[i] > 1 and cur <= v[i] < 2 * cur),
                      key=lambda k: (v[k], k))
        found = None
        for i in cand:  # the first mode (by stride, then position) that continues the chain
            nxt = _continues(table, fs[i], v[i] ^ cur, pre[i], cur, rtab) if is_pow2(pre[i]) else None
            if nxt is not None:
                found = i
                break
        if found is None:
            break
        i = found
        r = v[i] ^ cur
        used[i] = True
        rs.append(fs[i])
        rw.append(pre[i] ^ (int(rtab[r]) if r else 0))
        rtab = nxt
        cur *= fs[i]
    if not rs:
        return Layout(1, 0)
    ms, mw = [rs[0]], [rw[0]]  # coalesce: s0:F w0 then s1:F (w0 (x) s0) is (s0*s1):F w0 for s0 = 2^k
    for s, w in zip(rs[1:], rw[1:]):
        if is_pow2(ms[-1]) and w == clmul(mw[-1], ms[-1]):
            ms[-1] *= s
        else:
            ms.append(s)
            mw.append(w)
    if len(ms) == 1:
        return Layout(ms[0], F2(mw[0]))
    return Layout(tuple(ms), tuple(F2(w) for w in mw))


def left_inverse_f2(layout: Layout) -> Layout:
    """The left inverse of a layout with F2 strides that is a bijection onto ``[0, size(layout))``.

    Pre:  layout has int shapes, F2 strides (and zeros); without its stride-0 modes it is a
          bijection onto ``[0, n)``.
    Post: layout(R(layout(i))) == layout(i) for every i < size(layout), and R(layout(i)) == i
          when no stride is 0; AdmissibilityError otherwise (an image with gaps or repeats: an
          F2 gap is no integer extent).

    >>> from pycute_layouts import Layout, F2
    >>> print(left_inverse_f2(Layout((4, 8), (F2(1), F2(4)))))
    32:F1
    >>> print(left_inverse_f2(Layout((8, 8), (F2(1), F2(9)))))
    (8,8):(F1,F9)
    """
    fs, v = _check(layout, "left_inverse")
    r = right_inverse_f2(layout)
    n = 1
    for s, d in zip(fs, v):
        n *= s if d else 1  # broadcast (stride-0) modes: R picks one preimage, as the integer left_inverse
    if r.size() != n:
        raise AdmissibilityError(
            f"left_inverse: {layout} has F2 strides and is not a bijection onto [0, {n}) along its chain of modes "
            f"(its right inverse {r} covers {r.size()}); an F2 layout's left inverse is defined only there"
        )
    return r
