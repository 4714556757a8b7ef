"""Which A/B element-type pairs one MMA instruction accepts (sm90 ``wgmma.mma_async``, sm100 ``tcgen05.mma``).

sm90 (PTX ISA 9.7.15.2, the ``wgmma.mma_async`` data types; CuTe's ``SM90_64xNxK_*`` atoms in
``cute/arch/mma_sm90_gmma.hpp`` are named after the same pairs):

==========  =====================================  =========
``.kind``   A and B                                 K bytes
==========  =====================================  =========
f16         f16 x f16                               32
bf16        bf16 x bf16                             32
tf32        tf32 x tf32                             32
e4m3/e5m2   any of e4m3, e5m2 for A and for B       32
s8/u8       any of s8, u8 for A and for B           32
==========  =====================================  =========

(``.b1`` exists too; no shared-memory type here has one bit.) sm100 takes the ``tcgen05.mma``
kinds of :func:`pycute_layouts.arch.umma.kind_for_operand_types`: f16 (f16 x f16, bf16 x bf16),
tf32, f8f6f4 (any of e4m3, e5m2, e2m3, e3m2, padded e2m1 for A and for B), i8 (s8/u8 mixes), and
packed e2m1 x e2m1 (block-scaled mxf4). Types are named as :mod:`pycute_layouts.codegen` names
them (``bf16``, ``e4m3``, ``e2m1_p64``...).

>>> mma_type_kind("sm90", "e4m3", "e5m2"), mma_type_kind("sm100", "bf16", "bf16")
('e4m3/e5m2', 'f16')
"""

from __future__ import annotations

from typing import Any

from ..errors import DescriptorError
from .umma import kind_for_operand_types

__all__ = ["WGMMA_TYPE_GROUPS", "mma_type_kind"]

#: sm90 wgmma: group name -> the element types A and B may each take (every pair within a group).
#: f16 and bf16 are separate groups: a wgmma reads both operands in one of the two.
WGMMA_TYPE_GROUPS: dict[str, tuple[str, ...]] = {
    "f16": ("f16",),
    "bf16": ("bf16",),
    "tf32": ("tf32",),
    "e4m3/e5m2": ("e4m3", "e5m2"),
    "s8/u8": ("s8", "u8"),
}


def _shown(v: Any) -> str:
    """``repr`` of a short str/int/float/None; the type's name for anything else (its repr may be huge)."""
    if isinstance(v, (str, float, type(None))) or (isinstance(v, int) and abs(v).bit_length() <= 64):
        return repr(v) if len(repr(v)) <= 80 else repr(v)[:77] + "..."
    return f"<{type(v).__name__}>"


def _wgmma_group(t: Any) -> str | None:
    if not isinstance(t, str):
        return None
    for g, types in WGMMA_TYPE_GROUPS.items():
        if t in types:
            return g
    return None


def mma_type_kind(arch: Any, a_type: Any, b_type: Any) -> str:
    """The instruction type (sm90 wgmma group, sm100 tcgen05 kind) that reads A of ``a_type`` with B of ``b_type``.

    Pre:  ``arch`` 'sm90' or 'sm100'; ``a_type``/``b_type`` element type names (codegen's spelling).
    Post: the group/kind name; DescriptorError naming the rule, both types and what each pairs with otherwise.

    >>> mma_type_kind("sm90", "bf16", "e4m3")
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.DescriptorError: MMA type pair: sm90 wgmma.mma_async takes A and B from one type group (...); A bf16 ...
    """
    if not isinstance(arch, str) or arch not in ("sm90", "sm100"):
        raise DescriptorError(f"MMA type pair: arch must be 'sm90' or 'sm100', got {_shown(arch)}")
    if arch == "sm100":
        try:
            return kind_for_operand_types(a_type, b_type)
        except DescriptorError as e:
            raise DescriptorError(f"MMA type pair: sm100 tcgen05.mma: {e}") from None
    ga, gb = _wgmma_group(a_type), _wgmma_group(b_type)
    for name, t, g in (("A", a_type, ga), ("B", b_type, gb)):
        if g is None:
            raise DescriptorError(f"MMA type pair: sm90 wgmma.mma_async has no {name} operand of type {_shown(t)} (types: "
                                  "f16, bf16, tf32, e4m3, e5m2, s8, u8; the 4- and 6-bit types need sm100 tcgen05)")
    if ga != gb:
        raise DescriptorError("MMA type pair: sm90 wgmma.mma_async takes A and B from one type group (f16 x f16, "
                              "bf16 x bf16, tf32 x tf32, e4m3/e5m2 mixes, s8/u8 mixes); "
                              f"A {a_type} (group {ga}) with B {b_type} (group {gb}) is not one")
    return str(ga)
