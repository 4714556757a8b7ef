"""What a proof returns: a proof (truthy) or a counterexample (falsy), and the helpers every proof step shares."""

from __future__ import annotations

from typing import Any

from ..errors import ProofError
from ..limits import check_count, fmt
from .bitvec import Counterexample, Proof
from .model import Faults, Pairing, check_pairing

__all__ = ["TheoremProof", "TheoremCounterexample", "LemmaCounterexample", "LibraryMismatch", "is_pow2", "sympy_module"]


def sympy_module() -> Any:
    """The sympy module, imported on first use (proof texts only; the package imports without it).

    >>> sympy_module().Integer(3) + 1
    4
    """
    import sympy

    return sympy


def is_pow2(n: int) -> bool:
    """Whether ``n`` is a positive power of two.

    >>> is_pow2(64), is_pow2(0), is_pow2(96)
    (True, False, False)
    """


    check_count("is_pow2", "n", n, None, None, ProofError)
    return n > 0 and n & (n - 1) == 0


class LibraryMismatch(ProofError):
    """The library disagrees with the symbolic model at a concrete witness: turned into a refutation.

    >>> e = LibraryMismatch("swizzled_address(0x80) = 0x80, PTX gives 0x90", (1, 1, 0))
    >>> isinstance(e, ProofError), e.where
    (True, (1, 1, 0))
    """

    def __init__(self, reason: str, where: tuple | None = None):
        self.reason = reason
        self.where = where  # (m, k, dst) where it was seen, or None
        super().__init__(reason)


class TheoremProof(Proof):
    """A proof of the TMA == wgmma theorem for one pairing (truthy); ``steps`` are ``(words, formulas)``.

    >>> from pycute_layouts.proofs import prove_tma_matches_wgmma
    >>> p = prove_tma_matches_wgmma("none", "MN", 16, method="exhaustive")
    >>> p.method, p.pairing.mma_mode.short_name, p.to_text().splitlines()[-1]
    ('exhaustive', 'none', 'Q.E.D.')
    """

    def __init__(self, p: Pairing | None, method: str, claim: str, steps: list, domain: Any = ("MN", "K")):
        super().__init__("TMA", "wgmma", domain, 0, steps, method)
        self.pairing = p
        self._claim = claim

    @property
    def claim(self) -> str:
        """The statement proved (given as a function, it is written on first read)."""
        c = self._claim
        if callable(c):
            c = self._claim = c()
        return c

    def __repr__(self) -> str:
        what = self.pairing.describe() if self.pairing is not None else self.claim.split(":")[0]
        return f"TheoremProof({what!r}, method={self.method!r})"


class TheoremCounterexample(Counterexample):
    """A refutation (falsy): a tile coordinate where the TMA and wgmma byte addresses differ.

    ``coordinate`` is ``(mn, kk)`` of a tile of ``m`` x ``k`` blocks loaded at ``dst_address``;
    ``tma_address`` / ``wgmma_address`` are absolute shared-memory byte addresses (confirmed by
    direct evaluation); ``descriptor`` is the decoded descriptor of the instruction that reads the
    element; ``reason`` names the proof step that failed (symbolic method).

    >>> from pycute_layouts.proofs import prove_tma_matches_wgmma
    >>> cx = prove_tma_matches_wgmma("128B", "K", 16, faults=Faults(sbo_bytes=512))
    >>> cx.coordinate, cx.tma_address, cx.wgmma_address, cx.m
    ((8, 0), 1024, 576, 2)
    """

    def __init__(self, p: Pairing, coordinate: tuple[int, int], tma_address: int, wgmma_address: int, m: int, k: int,
                 dst_address: int, descriptor: Any, method: str, reason: str, faults: Faults):
        who = "TheoremCounterexample"
        check_pairing(p, who)
        for name, v, lo in (("tma_address", tma_address, 0), ("wgmma_address", wgmma_address, 0), ("m", m, 1),
                            ("k", k, 1), ("dst_address", dst_address, 0)):
            check_count(who, name, v, lo)
        if not (isinstance(coordinate, tuple) and len(coordinate) == 2):
            raise ProofError(f"{who}: coordinate must be an (mn, k) pair, got {fmt(coordinate)}"[:200])
        for v in coordinate:
            check_count(who, "coordinate", v, 0)
        if not isinstance(faults, Faults) or not isinstance(method, str) or not isinstance(reason, str):
            raise ProofError(f"{who}: faults must be a Faults object and method, reason strings")
        mn, kk = p.tile_shape(m, k)
        diff = int(tma_address) ^ int(wgmma_address)
        bits = [t for t in range(diff.bit_length()) if diff >> t & 1]
        super().__init__("TMA", "wgmma", (mn, kk), coordinate, coordinate[0] + mn * coordinate[1], int(tma_address),
                         int(wgmma_address), bits[0] if bits else 0, None, None, {}, bits)
        self.pairing = p
        self.tma_address = int(tma_address)
        self.wgmma_address = int(wgmma_address)
        self.m, self.k, self.dst_address = m, k, dst_address
        self.descriptor = descriptor
        self.method = method
        self.reason = reason
        self.faults = faults

    def summary(self) -> str:
        """One line: coordinate and the two addresses.

        >>> from pycute_layouts.proofs import prove_tma_matches_wgmma
        >>> prove_tma_matches_wgmma("128B", "K", 16, faults=Faults(swizzle="64B")).summary()
        '(mn, kk) = (1, 0) of the 8x64 tile at 0x0: TMA 0x90, wgmma 0x40'
        """
        mn, kk = self.pairing.tile_shape(self.m, self.k)
        return (f"(mn, kk) = {self.coordinate} of the {mn}x{kk} tile at {self.dst_address:#x}: TMA "
                f"{self.tma_address:#x}, wgmma {self.wgmma_address:#x}")

    def to_text(self) -> str:
        """The refutation in words: pairing, faults, coordinate, both addresses, the descriptor, the failed step."""
        lines = [f"Counterexample: {self.pairing.describe()}"]
        if self.faults.active():
            lines.append(f"  planted faults: {self.faults.describe()}")
        lines += [
            f"  tile m={self.m}, k={self.k} at dst {self.dst_address:#x}: element {self.summary()}",
            f"  address bits that differ: {self.differing_bits}",
            f"  descriptor of the instruction reading it: {self.descriptor.encode():#018x} "
            f"(start {self.descriptor.start_address:#x}, LBO {self.descriptor.lbo_bytes} B, SBO "
            f"{self.descriptor.sbo_bytes} B, {self.descriptor.swizzle.short_name}, base offset "
            f"{self.descriptor.base_offset})",
            f"  found by: {self.method}; {self.reason}",
        ]
        return "\n".join(lines)

    def to_markdown(self) -> str:
        """The refutation as a short Markdown block."""
        return "\n".join(f"- {x.strip()}" if i else f"**{x}**" for i, x in enumerate(self.to_text().splitlines()))

    def __repr__(self) -> str:
        return (f"TheoremCounterexample(coordinate={self.coordinate!r}, tma_address={self.tma_address}, "
                f"wgmma_address={self.wgmma_address})")


class LemmaCounterexample:
    """A refuted lemma whose witness is not a tile coordinate (a descriptor value, an address); falsy.

    >>> cx = LemmaCounterexample("descriptor encoding (sm90)", "start 0x20000 encodes to 0x0")
    >>> bool(cx), cx.summary()
    (False, 'start 0x20000 encodes to 0x0')
    """

    def __init__(self, what: str, reason: str, value: Any = None):
        self.what, self.reason, self.value = what, reason, value

    def __bool__(self) -> bool:
        return False

    def summary(self) -> str:
        """The witness in one line."""
        return self.reason

    def to_text(self) -> str:
        """The refutation in words."""
        return f"Counterexample: {self.what}\n  {self.reason}"

    def __repr__(self) -> str:
        return f"LemmaCounterexample({self.what!r}, {self.reason!r})"
