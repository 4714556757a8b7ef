"""The exhaustive method: every coordinate of concrete tiles compared (vectorised), and the witness destinations."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..arch.swizzle_modes import SMEM_WINDOW_BYTES
from ..errors import ProofError
from ..limits import check_count, check_type, fmt
from .model import Faults, Pairing, check_pairing, tma_addresses, wgmma_addresses
from .results import TheoremCounterexample, TheoremProof

__all__ = ["EXHAUSTIVE_SIZES", "OFF_PERIOD_BYTES", "fits_window", "witness_destinations", "first_mismatch", "check_sizes",
           "prove_exhaustive"]

#: Sizes (m, k) and destinations the exhaustive method checks by default (every coordinate of each).
EXHAUSTIVE_SIZES = ((1, 1), (2, 1), (1, 2), (2, 3), (3, 2), (4, 1), (1, 4))
#: The witness destination off the swizzle period: dst + 0x180 (128-byte aligned, as TMA requires).
OFF_PERIOD_BYTES = 0x180


def fits_window(p: Pairing, m: int, k: int, dst: int) -> bool:
    """Whether the tile of ``m`` x ``k`` blocks at ``dst`` lies inside the 256 KiB shared-memory window.

    Pre:  ``p`` a Pairing; ``m``, ``k``, ``dst`` non-negative ints (ProofError otherwise).
    Post: ``dst + tile bytes <= 256 KiB``.

    >>> from pycute_layouts.proofs.model import pairing
    >>> p = pairing("64B", "MN", 16)  # one block: 32 x 16 elements of 2 bytes = 1024 bytes
    >>> fits_window(p, 1, 1, 0x40000 - 1024), fits_window(p, 1, 1, 0x40000 - 1023)
    (True, False)
    """
    _check_args("fits_window", p, m, k, dst)
    mn, kk = p.tile_shape(m, k)
    return 0 <= dst and dst + mn * kk * p.element_bytes <= SMEM_WINDOW_BYTES


def witness_destinations(p: Pairing, m: int, k: int, dst: int) -> list:
    """Destinations of the witnesses: ``dst``, one off the swizzle period (``dst + 0x180``, still 128-byte
    aligned) and the highest 128-byte-aligned one where the tile still fits the 256 KiB window.

    Pre:  ``p`` a Pairing; ``m``, ``k``, ``dst`` non-negative ints (ProofError otherwise).
    Post: distinct destinations, in that order, each TMA-aligned and each where the tile fits the window.

    >>> from pycute_layouts.proofs.model import pairing
    >>> witness_destinations(pairing("64B", "MN", 16), 1, 1, 0)  # a 1024-byte tile: the top is 0x40000 - 1024
    [0, 384, 261120]
    """
    _check_args("witness_destinations", p, m, k, dst)
    mn, kk = p.tile_shape(m, k)
    size_bytes = mn * kk * p.element_bytes
    top = (SMEM_WINDOW_BYTES - size_bytes) // 128 * 128
    align = p.tma_alignment_bytes
    out = []
    for d in (dst, dst + OFF_PERIOD_BYTES, top):
        if d in out or d % align:
            continue
        if d < 0:  # a tile larger than the window: fits_window refuses the negative destination
            fits_window(p, m, k, d)
        if d + size_bytes <= SMEM_WINDOW_BYTES:  # fits_window(p, m, k, d)
            out.append(d)
    return out


def _check_args(who: str, p: Any, m: Any, k: Any, dst: Any) -> None:
    """``p`` a Pairing and ``m``, ``k``, ``dst`` non-negative ints (ProofError otherwise; plain ints pass at once)."""
    if type(p) is Pairing and type(m) is int and type(k) is int and type(dst) is int and 0 <= min(m, k, dst) \
            and max(m, k, dst) < 1 << 62:
        return
    check_type(who, "p", p, Pairing, ProofError)
    for _n, _v in (("m", m), ("k", k), ("dst", dst)):
        check_count(who, _n, _v, 0, None, ProofError)


def first_mismatch(p: Pairing, m: int, k: int, dst: int, faults: Faults, method: str,
                   reason: str) -> TheoremCounterexample | None:
    """The first coordinate of the tile whose TMA and wgmma byte addresses differ, as a counterexample; or None.

    Pre:  ``p`` a resolved Pairing whose ``m`` x ``k`` tile at ``dst`` fits the window; ``method`` and ``reason``
          are the words the counterexample carries.
    Post: None when every coordinate agrees, else the TheoremCounterexample of the first differing (mn, k).

    A 128-byte TMA box read by 64-byte wgmma atoms: element k=32 of row 0 is byte 64 for TMA, while
    wgmma's third K step (16 elements each) starts a new 512-byte atom:

    >>> from pycute_layouts.proofs.model import Faults, pairing
    >>> cx = first_mismatch(pairing("128B", "K", 16, mma_mode="64B"), 1, 1, 0, Faults(), "exhaustive", "demo")
    >>> cx.coordinate, cx.tma_address, cx.wgmma_address
    ((0, 32), 64, 512)
    """
    a = tma_addresses(p, m, k, dst)
    b, descs = wgmma_addresses(p, m, k, dst, faults)
    bad = np.argwhere(a != b)
    if not len(bad):
        return None
    mn, kk = (int(x) for x in bad[0])
    return TheoremCounterexample(p, (mn, kk), int(a[mn, kk]), int(b[mn, kk]), m, k, dst,
                                 descs[kk // p.k_instr_elems], method, reason, faults)


def check_sizes(p: Pairing, sizes: Any, dst_address: int = 0, faults: Faults | None = None,
                method: str = "exhaustive") -> TheoremCounterexample | None:
    """Compare every coordinate of the tile for each ``(m, k)`` in ``sizes``; the first mismatch or None.

    Pre:  ``p`` a resolved Pairing; ``sizes`` (m, k) pairs whose tiles fit the window at ``dst_address``.
    Post: None when every coordinate of every tile agrees, else the first TheoremCounterexample.

    >>> from pycute_layouts.proofs.model import pairing
    >>> check_sizes(pairing("64B", "MN", 16), [(1, 1), (4, 2)], 0x480) is None
    True
    """
    check_pairing(p, "check_sizes")
    f = faults if faults is not None else Faults()
    if not isinstance(f, Faults):
        raise ProofError(f"check_sizes: faults must be a Faults object, got {fmt(faults)}"[:200])
    if isinstance(sizes, (str, bytes)) or not isinstance(sizes, (list, tuple)) \
            or not all(isinstance(mk, (list, tuple)) and len(mk) == 2 for mk in sizes):
        raise ProofError(f"check_sizes: sizes must be a list of (m, k) pairs, got {fmt(sizes)}"[:200])
    for m, k in sizes:
        cx = first_mismatch(p, m, k, dst_address, f, method, "every coordinate evaluated")
        if cx is not None:
            return cx
    return None


def prove_exhaustive(p: Pairing, dst: int, faults: Faults) -> TheoremProof | TheoremCounterexample:
    """The exhaustive method: every coordinate of the EXHAUSTIVE_SIZES tiles at the witness destinations.

    Pre:  ``p`` a Pairing, ``dst`` a non-negative int, ``faults`` a Faults (ProofError otherwise).
    Post: a TheoremProof with one step per (size, destination) checked, or the first TheoremCounterexample.

    >>> from pycute_layouts.proofs.model import Faults, pairing
    >>> r = prove_exhaustive(pairing("none", "MN", 16), 0, Faults())
    >>> type(r).__name__, r.method, len(r.steps)  # 7 sizes x 3 witness destinations
    ('TheoremProof', 'exhaustive', 21)
    >>> type(prove_exhaustive(pairing("128B", "K", 16, mma_mode="64B"), 0, Faults())).__name__
    'TheoremCounterexample'
    """


    check_type("prove_exhaustive", "p", p, Pairing, ProofError)
    check_count("prove_exhaustive", "dst", dst, 0, None, ProofError)
    check_type("prove_exhaustive", "faults", faults, Faults, ProofError)
    steps: list = []
    n = 0
    for m, k in EXHAUSTIVE_SIZES:
        for d in witness_destinations(p, m, k, dst):
            cx = first_mismatch(p, m, k, d, faults, "exhaustive", "every coordinate evaluated")
            if cx is not None:
                return cx
            mn, kk = p.tile_shape(m, k)
            n += mn * kk
            steps.append((f"m={m}, k={k}, dst={d:#x}: all {mn * kk} elements of the {mn}x{kk} tile have equal TMA "
                          "and wgmma byte addresses (vectorised: box_to_smem vs the hardware-read descriptors)", None))
    claim = (f"{p.describe()}: every coordinate of every listed tile ({n} elements; at dst, dst + 0x180 and the top "
             "of the 256 KiB window) has the same byte address on both sides")
    return TheoremProof(p, "exhaustive", claim, steps)
