"""Why a composition is refused: the admissibility conditions of ``A o B`` decided and explained.

``composition`` (in :mod:`pycute_layouts.core.algebra`) walks each mode of B through the modes of
``coalesce(A)``; this module holds the conditions of that walk and the messages that name them:
CuTe's stride and shape divisibility conditions, and the rule CuTe does not check, that the modes
of B must not interact (their offsets must not carry across a mode of A, nor mix signs across
modes). Symbolic conditions are three-valued: True, False, or the SymbolicUndecidable that a
decision helper raised, so that a verdict is never guessed.
"""

from __future__ import annotations

from typing import Any

from ..errors import AdmissibilityError, SymbolicUndecidable
from . import inttuple as it
from .inttuple import divides, flatten, format_inttuple, is_eq, is_lt, simplify, three_valued
from .layout import Layout


class ModesInteract(Exception):
    """Internal: the walk found modes of B that interact (the message is built afterwards)."""


def raise_undecided(e: AdmissibilityError, undecided: list) -> None:
    """A verdict on a coalesce(A) with undecided merges is not universal: SymbolicUndecidable."""
    if undecided:
        raise SymbolicUndecidable(
            f"{e}; but this verdict needs coalesce(A) fully merged, and coalesce cannot decide "
            f"{' or '.join(dict.fromkeys(undecided))} (for values where it holds, modes merge and B may be "
            "admissible): bind or constrain the symbols"
        ) from e


def check_stride_divisibility(cs: Any, ard: Any, rest_s: Any, i: int, flat_a: Layout) -> bool:
    """CuTe's stride divisibility condition on mode ``i`` (symbolic: decided, each half tried).

    Returns False when one of ``cs``, ``ard`` divides the other, True when neither is known to but
    every point of B lies inside the mode (``ard < cs`` and ``(rest_s-1)*ard < cs``); raises
    AdmissibilityError when it fails and SymbolicUndecidable when the verdict depends on the symbols.
    """
    verdicts = []
    for x, y in ((cs, ard), (ard, cs)):
        v = three_valued(divides, x, y)
        if v is True:
            return False
        verdicts.append(v)
    # neither divides (or undecided): admissible only if every point of B stays inside this mode
    too_big = three_valued(is_lt, cs, ard)
    inside = three_valued(is_lt, (rest_s - 1) * ard, cs)
    if too_big is False and inside is True:
        return True
    if too_big is True or inside is False:
        for v in verdicts:
            if isinstance(v, SymbolicUndecidable):
                raise SymbolicUndecidable(
                    f"composition: stride divisibility on mode {i} of coalesce(A) = {flat_a}: {v}"
                ) from v
        raise_stride_div(ard, cs, i, flat_a, rest_s)
    cause = too_big if isinstance(too_big, SymbolicUndecidable) else inside
    div = next((v for v in verdicts if isinstance(v, SymbolicUndecidable)), None)
    div_text = f"{div}" if div is not None else f"neither of {ard} and {cs} divides the other"
    raise SymbolicUndecidable(
        f"composition: stride divisibility on mode {i} of coalesce(A) = {flat_a}: {div_text}; and whether "
        f"all {rest_s} points of B (stride {ard}) stay inside that mode is undecidable: {cause}"
    ) from cause


def either_is_one(next_s: Any, rest_s: Any) -> bool:
    """``next_s == 1 or rest_s == 1``, each half tried before an undecidable one gives up."""
    first = three_valued(is_eq, next_s, 1)
    if first is True:
        return True
    second = three_valued(is_eq, rest_s, 1)
    if second is True:
        return True
    for v in (first, second):
        if isinstance(v, SymbolicUndecidable):
            raise v
    return False


def check_interaction(pieces: list, flat_a: Layout, rs: Any, rd: Any, res: Layout) -> None:
    """The modes of B must not interact inside a mode of coalesce(A) (no carries, no mixed signs).

    Composition is right-distributive: ``R = (A o B_0, A o B_1, ...)`` is ``A o B`` only if
    ``A(B_0(c_0) + B_1(c_1) + ...) == A(B_0(c_0)) + A(B_1(c_1)) + ...``. Each leaf of B puts the
    offsets ``k*step`` (``k < count``) into some modes of ``coalesce(A) = (s_0,...,s_n):(d_0,...)``
    (``pieces``). The sum over B's leaves stays inside every mode ``j < n`` -- no carry into the
    next mode, which ``coalesce`` guarantees changes the value, since ``s_j*d_j != d_{j+1}`` --
    iff the largest offsets of the leaves in mode ``j`` add up to less than ``s_j``. Leaves of
    negative stride (offsets below A's domain, read as CuTe does: ``A(-x) == -A(x)``) must not mix
    with positive ones across two or more modes of A: the difference borrows.
    """
    ls = flat_a.shape
    n = len(ls)
    for i in range(n - 1):
        cs = ls[i]
        for positive in (True, False):
            contributors = [p for p in pieces if p[0] == i and p[3] == positive]
            if len(contributors) < 2:  # a single leaf is checked by the walk
                continue
            t = simplify(sum((p[1] - 1) * p[2] for p in contributors))
            fits = t < cs if type(t) is int and type(cs) is int else three_valued(is_lt, t, cs)
            if fits is True:
                continue
            if fits is False:
                raise_interaction(i, cs, t, contributors, flat_a, rs, rd, res)
            raise SymbolicUndecidable(
                f"composition: cannot decide whether the modes of B stay inside mode {i} (shape {cs}) of "
                f"coalesce(A) = {flat_a} together: their largest offsets there add up to {t}, which must be "
                f"less than {cs} ({fits})"
            ) from fits
    pos_modes = {p[0] for p in pieces if p[3]}
    neg_modes = {p[0] for p in pieces if not p[3]}
    if pos_modes and neg_modes and len(pos_modes | neg_modes) > 1:
        raise AdmissibilityError(
            f"composition: modes of B interact: B = {b_text(rs, rd)} has modes of positive and of negative "
            f"stride landing in different modes {sorted(pos_modes)} and {sorted(neg_modes)} of coalesce(A) = "
            f"{flat_a}; their sum borrows across A's modes, so the by-mode result {res} is not A o B"
        )


def b_text(rs: Any, rd: Any) -> str:
    return f"{format_inttuple(rs)}:{format_inttuple(rd)}"


def raise_interaction(
    i: int, cs: Any, total: Any, contributors: list, flat_a: Layout, rs: Any, rd: Any, res: Layout
) -> None:
    """AdmissibilityError for modes of B whose offsets add up past mode ``i`` of coalesce(A)."""
    leaves = sorted({p[4] for p in contributors})
    witness = ""
    if not flat_a.is_symbolic() and not it.is_symbolic(rs) and not it.is_symbolic(rd):
        witness = interaction_witness(i, cs, contributors, flat_a, rs, rd, res)
    raise AdmissibilityError(
        f"composition: modes of B interact: in mode {i} (shape {cs}) of coalesce(A) = {flat_a}, the modes "
        f"{leaves} of B = {b_text(rs, rd)} (flat mode indices) reach offsets adding up to {total} >= {cs}, so "
        f"B(c) carries into A's next mode and the by-mode result {res} is not A o B{witness} "
        "(CuTe returns that layout silently; each mode of B is admissible alone)"
    )


def interaction_witness(i: int, cs: int, contributors: list, flat_a: Layout, rs: Any, rd: Any, res: Layout) -> str:
    """A coordinate of B where the by-mode result differs from A(B(c)), for the message."""
    flat_rs = flatten(rs) if isinstance(rs, tuple) else (rs,)
    res_modes = [res]
    if isinstance(rs, tuple):
        res_modes = [Layout.from_normalized(s, d) for s, d in zip(flatten_modes(res.shape, rs), flatten_modes(res.stride, rs))]
    coord = [0] * len(flat_rs)
    total = 0
    for _i, count, step, _pos, leaf, piece in contributors:
        if total >= cs:
            break
        sub = res_modes[leaf].shape
        sub = sub if isinstance(sub, tuple) else (sub,)
        pre = 1
        for x in sub[:piece]:
            pre *= x
        coord[leaf] += (count - 1) * pre
        total += (count - 1) * step
    idx = 0
    mul = 1
    for c, s in zip(coord, flat_rs):
        idx += c * mul
        mul *= s
    b = Layout.from_normalized(rs, rd)
    got, want = res(idx), flat_a(b(idx)) if b(idx) >= 0 else None
    if want is None or got == want:  # pragma: no cover - the rule guarantees a difference
        return ""
    return f": at B's index {idx}, B = {b(idx)} and A(B) = {want}, but the result gives {got}"


def flatten_modes(t: Any, profile: Any) -> list:
    """The pieces of ``t`` (a refinement of ``profile``) that belong to each leaf of ``profile``."""
    if isinstance(profile, tuple):
        out: list = []
        for x, p in zip(t, profile):
            out.extend(flatten_modes(x, p))
        return out
    return [t]


def raise_stride_div(rest_d: Any, cs: Any, i: int, flat_a: Layout, rest_s: Any) -> None:
    raise AdmissibilityError(
        f"composition: stride divisibility fails: the remaining stride {rest_d} of B (size {rest_s} left) and "
        f"shape {cs} of mode {i} of coalesce(A) = {flat_a} do not divide one another "
        "(CuTe's Stride Divisibility Condition)"
    )


def raise_shape_div(new_s: Any, rest_s: Any, i: int, flat_a: Layout) -> None:
    raise AdmissibilityError(
        f"composition: shape divisibility fails: shape {new_s} of mode {i} of coalesce(A) = {flat_a} "
        f"does not divide the remaining size {rest_s} of B"
    )
