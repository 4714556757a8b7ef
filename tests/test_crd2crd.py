"""crd2crd (CuTe's int_tuple helper): values compiled with CuTe C++, refusals by name."""

from __future__ import annotations

import pytest
from oracles import CuteBatch, normalize, skip_without_cxx

from pycute_layouts import CongruenceError, LayoutTypeError, LayoutValueError, crd2crd, crd2idx, idx2crd

# (coord, src_shape, dst_shape) and the same in C++
CASES = [
    (((1, 2), 1), ((2, 3), 2), (6, 2)),
    (((0, 1), 0), ((2, 3), 2), (6, 2)),
    ((1, 1), (2, 4), 8),
    (5, 8, (2, 4)),
    ((2, 3), (3, 4), (3, 4)),
    ((1, (1, 2)), (3, (2, 3)), (3, 6)),
    (7, 12, ((2, 3), 2)),
]


def _cxx(t) -> str:
    if isinstance(t, tuple):
        return "make_tuple(" + ",".join(_cxx(e) for e in t) + ")"
    return f"_{t}{{}}"


@pytest.mark.oracle
def test_cute_cxx_agrees_on_crd2crd() -> None:
    skip_without_cxx()
    batch = CuteBatch()
    for c, s, d in CASES:
        batch.add(f"crd2crd({_cxx(c)}, {_cxx(s)}, {_cxx(d)})")
    for (c, s, d), res in zip(CASES, batch.run()):
        assert isinstance(res, str), (c, s, d, res)
        ours = crd2crd(c, s, d)
        text = str(ours).replace(" ", "")
        assert normalize(res) == text, (c, s, d, ours, res)


def test_crd2crd_is_idx2crd_of_crd2idx_at_each_leaf() -> None:
    for i in range(12):
        c = idx2crd(i, ((2, 3), 2))
        assert crd2crd(c, ((2, 3), 2), 12) == i
        assert crd2crd(i, 12, (3, 4)) == idx2crd(i, (3, 4))
        assert crd2idx(crd2crd(crd2crd(c, ((2, 3), 2), 12), 12, (4, 3)), (4, 3)) == i


def test_crd2crd_refuses_by_name() -> None:
    with pytest.raises(CongruenceError, match="mismatched ranks"):
        crd2crd((1, 2, 3), (3, 4), (3, 4))
    with pytest.raises(LayoutValueError, match="different sizes"):
        crd2crd(1, 8, 9)
    with pytest.raises(LayoutTypeError, match="crd2crd"):
        crd2crd("a", 8, 8)
