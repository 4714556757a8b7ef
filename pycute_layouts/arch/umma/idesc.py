"""tcgen05 (sm100) instruction descriptors: the 32-bit ``idesc`` operand of ``tcgen05.mma``.

Every ``tcgen05.mma`` takes a 32-bit *instruction descriptor* naming the operand types, the
shape and the per-instruction flags. Its layout depends on the instruction kind (PTX ISA
9.7.16.4.2 "Instruction descriptor": Table 42 for the dense kinds and the block-scaled table
after it; CuTe ``UMMA::InstrDescriptor`` and
``UMMA::InstrDescriptorBlockScaled`` in ``cute/arch/mma_sm100_desc.hpp``):

=====  =========================  ===========================================================
bits   .kind::f16/tf32/f8f6f4/i8  .kind::mxf8f6f4/mxf4/mxf4nvf4 (block-scaled)
=====  =========================  ===========================================================
0-1    sparsity selector          sparsity selector
2      sparse                     sparse
3      saturate (i8 only)         reserved 0
4-5    dtype: f16 0, f32 1, s32 2 scale-factor id of B
6      reserved 0                 reserved 0
7-9    atype                      atype
10-12  btype                      btype
13-14  negate A, negate B         negate A, negate B
15-16  transpose (MN-major) A, B  transpose (MN-major) A, B
17-22  N >> 3                     N >> 3
23     reserved 0                 scale-factor type: ue4m3 0, ue8m0 1
24-28  M >> 4                     M >> 4 (PTX writes M >> 7 at 27-28: the same bits for M 128/256)
29     reserved 0                 scale-factor id of A (29-30)
30-31  max shift (.ws): 0/8/16/32 bit 30: A's id; bit 31 reserved (CuTe ``k_size_``, not modelled)
=====  =========================  ===========================================================

Type codes: kind::f16 f16 0, bf16 1; kind::tf32 tf32 2; kind::f8f6f4 and kind::mxf8f6f4 e4m3 0,
e5m2 1, e2m3 3, e3m2 4, e2m1 5; kind::i8 u8 0, s8 1; kind::mxf4 and kind::mxf4nvf4 e2m1 1.
The kind itself is not in the descriptor (it is part of the opcode), so the same bits can read
as f16 x f16 (kind::f16) or e4m3 x e4m3 (kind::f8f6f4): :meth:`InstrDescriptor.decode` then
asks for ``kind=``.

**Rules checked** (PTX ISA 9.7.16.2.1 "Matrix shape", Table 39; 9.7.16.4.2; the data-type
rules of the ``tcgen05.mma`` instruction section; where PTX leaves a choice to the atom, CuTe's
``SM100_MMA_*`` static_asserts in ``cute/arch/mma_sm100_umma.hpp`` and
``cute/atom/mma_traits_sm100.hpp``, which are at least as strict):

- M: cta_group 1: 64 or 128 (block-scaled kinds: 128); cta_group 2: 128 or 256 (mxf8f6f4: 256,
  as CuTe's ``SM100_MMA_MXF8F6F4_2x1SM_SS``); the ``.ws`` variants (``ws=True``, implied by a
  non-zero ``max_shift``): 32, 64 or 128, cta_group 1 only, no block scaling.
- N: cta_group 1: 8..256 in steps of 8 (i8: 8 or 16..256 in steps of 16; f8f6f4 with MN-major B:
  steps of 16); cta_group 2: 16..256 in steps of 16 (i8, and f8f6f4 sparse or with MN-major B:
  32..256 in steps of 32); ``.ws``: 64, 128, 256 (sparse: 64, 128).
- Types per kind (above); f16 x f16 may accumulate in f16 or f32, bf16 only in f32; i8 in s32;
  tf32 and the block-scaled kinds in f32; f8f6f4 in f16 or f32.
- MN-major (transpose) only for f16, bf16, tf32, e4m3, e5m2, s8, u8 (not for e2m3, e3m2, e2m1;
  mxf4 and mxf4nvf4 are K-major only). Negation not for i8; saturation only for i8.
- Block-scaled: scale type ue8m0 for mxf8f6f4 and mxf4, ue8m0 or ue4m3 for mxf4nvf4; scale-factor
  ids 0-3 for mxf8f6f4 (scale_vec::1X), 0 or 2 for mxf4 and for mxf4nvf4 with ue8m0 (2X), 0 for
  ue4m3 (4X).

These facts are checked against CuTe C++ compiled for the host (no Blackwell GPU was used).

>>> d = InstrDescriptor(a_type="bf16", b_type="bf16", d_type="f32", m=128, n=256, a_major="K", b_major="K")
>>> d.kind, hex(d.encode())
('f16', '0x8400490')
>>> InstrDescriptor.decode(0x8400490, kind="f16") == d
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...core.display import rich_repr
from ...errors import DescriptorError
from ...limits import check_count, fmt

__all__ = ["InstrDescriptor", "INSTR_KINDS", "BLOCK_SCALED_KINDS", "SMEM_TYPE_TO_IDESC", "describe_value", "header_lines",
           "instr_desc_for_operands", "kind_for_operand_types"]


@dataclass(frozen=True)
class _Kind:
    name: str
    ab: dict[str, int]  # operand type -> 3-bit code
    d: tuple[str, ...]  # accumulator types
    sf: tuple[str, ...] = ()  # scale-factor types (block-scaled kinds)
    mn_major: tuple[str, ...] = ()  # operand types that may be MN-major


_F8F6F4 = {"e4m3": 0, "e5m2": 1, "e2m3": 3, "e3m2": 4, "e2m1": 5}
_KINDS: dict[str, _Kind] = {
    "f16": _Kind("f16", {"f16": 0, "bf16": 1}, ("f16", "f32"), mn_major=("f16", "bf16")),
    "tf32": _Kind("tf32", {"tf32": 2}, ("f32",), mn_major=("tf32",)),
    "f8f6f4": _Kind("f8f6f4", _F8F6F4, ("f16", "f32"), mn_major=("e4m3", "e5m2")),
    "i8": _Kind("i8", {"u8": 0, "s8": 1}, ("s32",), mn_major=("u8", "s8")),
    "mxf8f6f4": _Kind("mxf8f6f4", _F8F6F4, ("f32",), ("ue8m0",), mn_major=("e4m3", "e5m2")),
    "mxf4": _Kind("mxf4", {"e2m1": 1}, ("f32",), ("ue8m0",)),
    "mxf4nvf4": _Kind("mxf4nvf4", {"e2m1": 1}, ("f32",), ("ue8m0", "ue4m3")),
}

#: The tcgen05.mma kinds, dense-descriptor kinds first.
INSTR_KINDS: tuple[str, ...] = tuple(_KINDS)
#: The kinds whose descriptor has the block-scaled layout.
BLOCK_SCALED_KINDS: tuple[str, ...] = ("mxf8f6f4", "mxf4", "mxf4nvf4")

_D_CODE = {"f16": 0, "f32": 1, "s32": 2}
_SF_CODE = {"ue4m3": 0, "ue8m0": 1}
_SHIFT_CODE = {0: 0, 8: 1, 16: 2, 32: 3}
_OPERAND_TYPES = ("f16", "bf16", "tf32", "e4m3", "e5m2", "e2m3", "e3m2", "e2m1", "s8", "u8")
_FLAGS = ("negate_a", "negate_b", "saturate", "sparse", "ws")

# Reserved bits (must be 0): dense bits 6, 23, 29; block-scaled bits 3, 6, 31.
_RESERVED_DENSE = (1 << 6) | (1 << 23) | (1 << 29)
_RESERVED_BS = (1 << 3) | (1 << 6) | (1 << 31)


def _who() -> str:
    return "InstrDescriptor"


def _check_name(name: str, value: Any, allowed: tuple[str, ...]) -> str:
    if isinstance(value, str) and value.strip().lower() in allowed:
        return value.strip().lower()
    raise DescriptorError(f"{_who()}: {name}={fmt(value)} is not a tcgen05 type (allowed: {', '.join(allowed)})")


def _infer_kind(a: str, b: str, sf: str | None) -> str:
    """The kind the operand types (and the scale-factor type) determine, or an error naming the choices."""
    if sf is None:
        fam = {t: k for k in ("f16", "tf32", "f8f6f4", "i8") for t in _KINDS[k].ab}
        if fam[a] != fam[b]:
            raise DescriptorError(f"{_who()}: a_type={a} (kind::{fam[a]}) and b_type={b} (kind::{fam[b]}) belong "
                                  "to different tcgen05 kinds; one instruction has one kind")
        return fam[a]
    if a == b == "e2m1":
        if sf == "ue4m3":
            return "mxf4nvf4"
        raise DescriptorError(f"{_who()}: block-scaled e2m1 x e2m1 with sf_type={sf} is encoded differently under "
                              "kind::mxf8f6f4 (e2m1 code 5, padded operands) and kind::mxf4 / kind::mxf4nvf4 "
                              "(code 1, packed operands); pass kind='mxf8f6f4', 'mxf4' or 'mxf4nvf4'")
    return "mxf8f6f4"


def _check_flag(name: str, v: Any) -> bool:
    if not isinstance(v, bool):
        raise DescriptorError(f"{_who()}: {name} must be a bool, got {fmt(v)}")
    return v


def _check_int(name: str, v: Any, allowed: Any) -> int:
    v = check_count(_who(), name, v, None, None, DescriptorError)
    if v not in allowed:
        shown = ", ".join(str(x) for x in allowed) if len(allowed) < 10 else f"{min(allowed)}..{max(allowed)}"
        raise DescriptorError(f"{_who()}: {name}={fmt(v)} is not allowed here (allowed: {shown})")
    return v


def _legal_m(kind: str, cta_group: int, ws: bool) -> tuple[int, ...]:
    if ws:
        return (32, 64, 128)
    if kind in BLOCK_SCALED_KINDS:
        return (128,) if cta_group == 1 else ((256,) if kind == "mxf8f6f4" else (128, 256))
    return (64, 128) if cta_group == 1 else (128, 256)


def _legal_n(kind: str, cta_group: int, ws: bool, sparse: bool, b_major: str) -> tuple[tuple[int, ...], str]:
    """The legal N values and the rule's wording."""
    if ws:
        ns = (64, 128) if sparse else (64, 128, 256)
        return ns, f"N in {{{', '.join(map(str, ns))}}} for the .ws variants" + (" (sparse)" if sparse else "")
    if cta_group == 2:
        step = 32 if kind == "i8" or (kind == "f8f6f4" and (sparse or b_major == "MN")) else 16
        why = " (kind::f8f6f4 sparse or with MN-major B: CuTe SM100_MMA_F8F6F4_2x1SM_SS)" if kind == "f8f6f4" else ""
        return tuple(range(step, 257, step)), f"N = {step}..256 in steps of {step} for cta_group 2{why}"
    if kind == "i8":
        return (8, *range(16, 257, 16)), "N = 8 or 16..256 in steps of 16 for kind::i8, cta_group 1"
    if kind == "f8f6f4" and b_major == "MN":
        return tuple(range(16, 257, 16)), ("N = 16..256 in steps of 16 for kind::f8f6f4 with MN-major B "
                                           "(CuTe SM100_MMA_F8F6F4_SS)")
    return tuple(range(8, 257, 8)), "N = 8..256 in steps of 8 for cta_group 1"


@dataclass(frozen=True)
class InstrDescriptor:
    """The 32-bit tcgen05 instruction descriptor (PTX ISA 9.7.16.4.2, dense and block-scaled).

    Pre: the fields satisfy every rule of the module docstring (else :class:`DescriptorError`).
    Post: type names lower-case, majors ``"K"``/``"MN"``, ``kind`` resolved, ``ws`` True when
    ``max_shift`` is non-zero.

    Fields: ``a_type``, ``b_type`` (f16, bf16, tf32, e4m3, e5m2, e2m3, e3m2, e2m1, s8, u8),
    ``d_type`` (f16, f32, s32), ``m`` and ``n`` (the instruction's M and N in elements),
    ``a_major`` / ``b_major`` (``"K"`` or ``"MN"``: PTX's transpose bits), ``negate_a``,
    ``negate_b``, ``saturate`` (i8), ``sparse``, ``max_shift`` (the ``.ws`` B-reuse shift in
    columns: 0, 8, 16 or 32), ``sf_type`` (ue8m0 or ue4m3; set for the block-scaled kinds,
    None otherwise), ``sf_id_a`` / ``sf_id_b`` (scale-factor ids), ``kind`` (inferred from the
    types where they determine it), ``cta_group`` (1 or 2; M=256 needs 2), ``ws`` (the
    ``.ws`` variant: M 32/64/128, N 64/128/256; implied by a non-zero ``max_shift``) and
    ``sparse_id`` (the sparsity selector, bits 0-1, 0-3 when sparse). ``kind``, ``cta_group`` and
    ``ws`` belong to the instruction, not to the 32 bits: they are checked but do not take part
    in ``==``, so ``decode(d.encode()) == d``. Every rule of the module docstring is checked at
    construction; a violation raises :class:`DescriptorError` naming the rule and the values.

    >>> d = InstrDescriptor(a_type="e4m3", b_type="e4m3", d_type="f32", m=128, n=128, a_major="K", b_major="K")
    >>> d.kind, hex(d.encode())
    ('f8f6f4', '0x8200010')
    >>> InstrDescriptor(a_type="f16", b_type="f16", d_type="f32", m=256, n=128, a_major="K", b_major="K")
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.DescriptorError: InstrDescriptor: M=256 is illegal for kind::f16 with cta_group 1 ...
    """

    a_type: str
    b_type: str
    d_type: str
    m: int
    n: int
    a_major: str = "K"
    b_major: str = "K"
    negate_a: bool = False
    negate_b: bool = False
    saturate: bool = False
    sparse: bool = False
    max_shift: int = 0
    sf_type: str | None = None
    sf_id_a: int = 0
    sf_id_b: int = 0
    kind: str | None = field(default=None, compare=False)
    cta_group: int = field(default=1, compare=False)
    ws: bool = field(default=False, compare=False)
    sparse_id: int = 0

    def _repr_html_(self) -> str | None:
        """IPython's display protocol: a table (see :mod:`pycute_layouts.core.display`), or None for text."""
        return rich_repr(self, "html")

    def __post_init__(self) -> None:
        a = _check_name("a_type", self.a_type, _OPERAND_TYPES)
        b = _check_name("b_type", self.b_type, _OPERAND_TYPES)
        d = _check_name("d_type", self.d_type, tuple(_D_CODE))
        sf = None if self.sf_type is None else _check_name("sf_type", self.sf_type, tuple(_SF_CODE))
        for name, v in (("a_type", a), ("b_type", b), ("d_type", d), ("sf_type", sf)):
            object.__setattr__(self, name, v)
        for name in ("a_major", "b_major"):
            v = getattr(self, name)
            if not (isinstance(v, str) and v.strip().upper() in ("K", "MN")):
                raise DescriptorError(f"{_who()}: {name} must be 'K' or 'MN' (PTX: transpose 0 or 1), got {fmt(v)}")
            object.__setattr__(self, name, v.strip().upper())
        for name in _FLAGS:
            _check_flag(name, getattr(self, name))
        if isinstance(self.max_shift, bool) or type(self.max_shift) is not int or self.max_shift not in _SHIFT_CODE:
            raise DescriptorError(f"{_who()}: max_shift={fmt(self.max_shift)} is not a .ws maximum B-reuse shift (in "
                                  "columns: 0, 8, 16 or 32, encoded 0-3 in bits 30-31)")
        if self.max_shift and not self.ws:
            object.__setattr__(self, "ws", True)
        _check_int("cta_group", self.cta_group, (1, 2))
        object.__setattr__(self, "kind", self._resolve_kind(a, b, sf))
        self._check_types()
        self._check_shape()
        self._check_flags()

    # -- validation ---------------------------------------------------------------------------
    def _resolve_kind(self, a: str, b: str, sf: str | None) -> str:
        if self.kind is None:
            return _infer_kind(a, b, sf)
        k = self.kind.strip().lower() if isinstance(self.kind, str) else None
        if k not in _KINDS:
            raise DescriptorError(f"{_who()}: kind={fmt(self.kind)} is not a tcgen05.mma kind (kinds: "
                                  f"{', '.join(INSTR_KINDS)})")
        if (k in BLOCK_SCALED_KINDS) != (sf is not None):
            need = "needs sf_type (ue8m0 or ue4m3)" if k in BLOCK_SCALED_KINDS else "takes no sf_type"
            raise DescriptorError(f"{_who()}: kind::{k} {need}, got sf_type={fmt(sf)}")
        return k

    def _check_types(self) -> None:
        k = _KINDS[self.kind]
        for name in ("a_type", "b_type"):
            t = getattr(self, name)
            if t not in k.ab:
                raise DescriptorError(f"{_who()}: {name}={t} is not an operand type of kind::{k.name} (its types: "
                                      f"{', '.join(k.ab)})")
        if k.name == "f16" and self.a_type != self.b_type:
            raise DescriptorError(f"{_who()}: kind::f16 multiplies f16 x f16 or bf16 x bf16, got {self.a_type} x "
                                  f"{self.b_type}")
        if self.d_type not in k.d or (self.a_type == "bf16" and self.d_type != "f32"):
            allowed = "f32" if self.a_type == "bf16" else ", ".join(k.d)
            raise DescriptorError(f"{_who()}: d_type={self.d_type} is not an accumulator of kind::{k.name} with "
                                  f"{self.a_type} operands (allowed: {allowed})")
        if k.sf and self.sf_type not in k.sf:
            raise DescriptorError(f"{_who()}: sf_type={self.sf_type} is not a scale-factor type of kind::{k.name} "
                                  f"(allowed: {', '.join(k.sf)})")
        for name, t in (("a_major", self.a_type), ("b_major", self.b_type)):
            if getattr(self, name) == "MN" and t not in k.mn_major:
                ok = ", ".join(k.mn_major) if k.mn_major else "none: K-major only"
                raise DescriptorError(f"{_who()}: {name}='MN' (transpose) is not allowed for {t} operands of "
                                      f"kind::{k.name} (MN-major types: {ok})")

    def _check_shape(self) -> None:
        kind, cta, ws = self.kind, self.cta_group, self.ws
        if ws and (cta != 1 or kind in BLOCK_SCALED_KINDS):
            raise DescriptorError(f"{_who()}: the .ws variant (max_shift={self.max_shift}, ws=True) exists only "
                                  f"for cta_group 1 and the dense kinds, got cta_group {cta}, kind::{kind}")
        ms = _legal_m(kind, cta, ws)
        if isinstance(self.m, bool) or not isinstance(self.m, int) or self.m not in ms:
            hint = "; M=256 needs cta_group=2" if self.m == 256 and cta == 1 else ""
            hint += "; M=32 needs the .ws variant (ws=True)" if self.m == 32 and not ws else ""
            raise DescriptorError(f"{_who()}: M={fmt(self.m)} is illegal for kind::{kind} with cta_group {cta}"
                                  f"{' .ws' if ws else ''} (legal M: {', '.join(map(str, ms))}){hint}")
        ns, rule = _legal_n(kind, cta, ws, self.sparse, self.b_major)
        if isinstance(self.n, bool) or not isinstance(self.n, int) or self.n not in ns:
            raise DescriptorError(f"{_who()}: N={fmt(self.n)} is illegal for kind::{kind} with M={self.m}: {rule}")

    def _check_flags(self) -> None:
        kind = self.kind
        if kind == "i8" and (self.negate_a or self.negate_b):
            raise DescriptorError(f"{_who()}: kind::i8 has no negation (Table 42: bits 13-14 are 0), got "
                                  f"negate_a={self.negate_a}, negate_b={self.negate_b}")
        if self.saturate and kind != "i8":
            raise DescriptorError(f"{_who()}: saturate=True is only for kind::i8 (bit 3 'saturate for integer "
                                  f"types'), got kind::{kind}")
        _check_int("sparse_id", self.sparse_id, (0, 1, 2, 3) if self.sparse else (0,))
        if kind in BLOCK_SCALED_KINDS:
            ids = (0, 1, 2, 3) if kind == "mxf8f6f4" else ((0,) if self.sf_type == "ue4m3" else (0, 2))
            for name in ("sf_id_a", "sf_id_b"):
                v = getattr(self, name)
                if isinstance(v, bool) or not isinstance(v, int) or v not in ids:
                    raise DescriptorError(f"{_who()}: {name}={fmt(v)} is illegal for kind::{kind} with sf_type "
                                          f"{self.sf_type} (legal scale-factor ids: {', '.join(map(str, ids))})")
        else:
            for name in ("sf_id_a", "sf_id_b"):
                v = getattr(self, name)
                if isinstance(v, bool) or not isinstance(v, int) or v != 0:
                    raise DescriptorError(f"{_who()}: sf_id_a/sf_id_b are block-scaled fields; kind::{kind} has none "
                                          f"(they must be 0, got {name}={fmt(v)})")

    # -- encoding -----------------------------------------------------------------------------
    @property
    def block_scaled(self) -> bool:
        """True for the block-scaled kinds (mxf8f6f4, mxf4, mxf4nvf4), whose descriptor has the block-scaled layout.

        Pre: a constructed descriptor. Post: ``sf_type is not None``.

        >>> InstrDescriptor("e2m1", "e2m1", "f32", 128, 64, sf_type="ue4m3").block_scaled
        True
        """
        return self.kind in BLOCK_SCALED_KINDS

    def fields(self) -> list[tuple[str, str, int, str]]:
        """``(field, bits, encoded value, meaning)`` for every field of the descriptor, low bits first.

        Pre: a constructed descriptor. Post: the bit ranges are disjoint and skip the reserved bits;
        Table 42's fields for the dense kinds, the block-scaled table's for the others.

        >>> [f for f in InstrDescriptor("f16", "f16", "f16", 64, 8).fields() if f[0] in ("n_dim", "m_dim")]
        [('n_dim', '17-22', 1, 'N >> 3 (N = 8)'), ('m_dim', '24-28', 4, 'M >> 4 (M = 64)')]
        """
        ab = _KINDS[self.kind].ab
        out = [("sparse_id", "0-1", self.sparse_id, "sparsity selector"),
               ("sparse", "2", int(self.sparse), "sparse" if self.sparse else "dense")]
        if self.block_scaled:
            out.append(("sf_id_b", "4-5", self.sf_id_b, "scale-factor id of B"))
        else:
            out += [("saturate", "3", int(self.saturate), "saturate" if self.saturate else "no saturate"),
                    ("d_type", "4-5", _D_CODE[self.d_type], self.d_type)]
        out += [("a_type", "7-9", ab[self.a_type], f"{self.a_type} (kind::{self.kind})"),
                ("b_type", "10-12", ab[self.b_type], f"{self.b_type} (kind::{self.kind})"),
                ("negate_a", "13", int(self.negate_a), "negate" if self.negate_a else "no negate"),
                ("negate_b", "14", int(self.negate_b), "negate" if self.negate_b else "no negate"),
                ("a_major", "15", int(self.a_major == "MN"), f"{self.a_major}-major"),
                ("b_major", "16", int(self.b_major == "MN"), f"{self.b_major}-major"),
                ("n_dim", "17-22", self.n >> 3, f"N >> 3 (N = {self.n})")]
        if self.block_scaled:
            out.append(("sf_type", "23", _SF_CODE[self.sf_type], str(self.sf_type)))
        out.append(("m_dim", "24-28", self.m >> 4, f"M >> 4 (M = {self.m})"))
        if self.block_scaled:
            out.append(("sf_id_a", "29-30", self.sf_id_a, "scale-factor id of A"))
        else:
            out.append(("max_shift", "30-31", _SHIFT_CODE[self.max_shift], f"max shift {self.max_shift}"))
        return out

    def encode(self) -> int:
        """The 32-bit descriptor value (as CuTe's ``make_instr_desc`` / ``make_instr_desc_block_scaled``).

        Pre: a constructed descriptor. Post: ``0 <= value < 2**32``, reserved bits 0, and
        ``decode(value, self.block_scaled, kind=self.kind) == self``.

        >>> hex(InstrDescriptor("s8", "u8", "s32", 128, 256, saturate=True).encode())
        '0x84000a8'
        """
        v = 0
        for _name, bits, value, _ in self.fields():
            v |= value << int(bits.split("-")[0])
        return v

    # -- decoding -----------------------------------------------------------------------------
    @classmethod
    def readings(cls, value: Any, block_scaled: bool = False) -> list[InstrDescriptor]:
        """Every legal descriptor (one per kind that reads the bits legally) with this 32-bit value.

        Pre: ``value`` is an int in [0, 2**32); ``block_scaled`` says which layout (Table 42 or 43).
        Post: the list may be empty (no kind reads it legally) or hold several kinds' readings;
        ``cta_group`` and ``ws`` are the smallest that make each reading legal.

        >>> [(d.kind, d.a_type) for d in InstrDescriptor.readings(0x8200010)]
        [('f16', 'f16'), ('f8f6f4', 'e4m3')]
        """
        v = _check_u32(value)
        if not isinstance(block_scaled, bool):
            raise DescriptorError(f"InstrDescriptor.decode: block_scaled must be a bool, got {fmt(block_scaled)}")
        out = []
        for kind in (BLOCK_SCALED_KINDS if block_scaled else INSTR_KINDS[:4]):
            d = _reading(v, kind)
            if d is not None:
                out.append(d)
        return out

    @classmethod
    def decode(cls, value: Any, block_scaled: bool = False, *, kind: str | None = None) -> InstrDescriptor:
        """The descriptor of a 32-bit value; reserved bits must be 0 and the fields must be legal.

        Pre: ``value`` is an int in [0, 2**32); ``block_scaled`` selects the block-scaled layout.
        Post: ``decode(d.encode(), d.block_scaled, kind=d.kind) == d`` for every descriptor ``d``;
        without ``kind`` the value must read legally under one kind (kind::mxf4 and kind::mxf4nvf4
        read e2m1/ue8m0 bits identically: the reading says mxf4). ``cta_group`` and ``ws`` come out
        as the smallest that make the fields legal (M=256 gives cta_group 2).

        >>> InstrDescriptor.decode(0x84000a8).a_type
        's8'
        >>> InstrDescriptor.decode(0x8400490, kind="f16").a_type
        'bf16'
        >>> InstrDescriptor.decode(0x8200010)
        Traceback (most recent call last):
        ...
        pycute_layouts.errors.DescriptorError: InstrDescriptor.decode: 0x08200010 reads legally as ...
        >>> InstrDescriptor.decode(1 << 6)
        Traceback (most recent call last):
        ...
        pycute_layouts.errors.DescriptorError: InstrDescriptor.decode: 0x00000040 sets reserved bit(s) 6 ...
        """
        v = _check_u32(value)
        if not isinstance(block_scaled, bool):
            raise DescriptorError(f"InstrDescriptor.decode: block_scaled must be a bool, got {fmt(block_scaled)}")
        reserved = _RESERVED_BS if block_scaled else _RESERVED_DENSE
        if v & reserved:
            bits = ", ".join(str(i) for i in range(32) if (v & reserved) >> i & 1)
            table = "the block-scaled table (3, 6 and 31" if block_scaled else "Table 42 (dense kinds: 6, 23 and 29"
            note = "; bit 31 is CuTe's k_size_ (K=96), which this model does not cover" if v >> 31 and block_scaled else ""
            raise DescriptorError(f"InstrDescriptor.decode: {v:#010x} sets reserved bit(s) {bits} of {table} "
                                  f"must be 0){note}")
        if kind is not None:
            if not isinstance(kind, str) or kind not in _KINDS or (kind in BLOCK_SCALED_KINDS) != bool(block_scaled):
                kinds = ", ".join(BLOCK_SCALED_KINDS if block_scaled else INSTR_KINDS[:4])
                raise DescriptorError(f"InstrDescriptor.decode: kind={fmt(kind)} does not match block_scaled="
                                      f"{block_scaled} (kinds: {kinds})")
            return _reading(v, kind, strict=True)
        found = cls.readings(v, block_scaled)
        if any(d.kind == "mxf4" for d in found):  # mxf4nvf4 reads the same fields: one reading
            found = [d for d in found if d.kind != "mxf4nvf4"]
        if len(found) == 1:
            return found[0]
        if not found:
            return _reading(v, BLOCK_SCALED_KINDS[0] if block_scaled else _guess_kind(v), strict=True)
        what = "; ".join(f"kind::{d.kind} ({d.a_type} x {d.b_type} -> {d.d_type})" for d in found)
        raise DescriptorError(f"InstrDescriptor.decode: {v:#010x} reads legally as {what}; the kind is part of the "
                              f"opcode, not the descriptor: pass kind='{found[0].kind}' or another of "
                              f"{', '.join(d.kind for d in found)}")

    def __str__(self) -> str:
        head = (f"InstrDescriptor[tcgen05.mma.cta_group::{self.cta_group}.kind::{self.kind}{' .ws' if self.ws else ''}"
                f"] {self.encode():#010x}")
        lines = [head] + [f"  {name:<9} bits {bits:<5} = {value:<3} {meaning}"
                          for name, bits, value, meaning in self.fields()]
        return "\n".join(lines)


def _check_u32(value: Any) -> int:
    return check_count("InstrDescriptor.decode", "the 32-bit unsigned value", value, 0, (1 << 32) - 1, DescriptorError)


def _guess_kind(v: int) -> str:
    """The kind whose error message best explains an illegal dense value (by its D type code)."""
    d = (v >> 4) & 3
    a = (v >> 7) & 7
    if d == 2:
        return "i8"
    return "tf32" if a == 2 else ("f8f6f4" if a > 2 else "f16")


def _fields_of(v: int, kind: str) -> dict[str, Any] | None:
    """The constructor arguments bits ``v`` spell under ``kind`` (None where a type code has no name)."""
    k = _KINDS[kind]
    names = {c: t for t, c in k.ab.items()}
    a, b = names.get((v >> 7) & 7), names.get((v >> 10) & 7)
    args: dict[str, Any] = dict(
        a_type=a, b_type=b, m=((v >> 24) & 0x1F) << 4, n=((v >> 17) & 0x3F) << 3,
        a_major="MN" if v >> 15 & 1 else "K", b_major="MN" if v >> 16 & 1 else "K",
        negate_a=bool(v >> 13 & 1), negate_b=bool(v >> 14 & 1), sparse=bool(v >> 2 & 1), sparse_id=v & 3, kind=kind)
    if kind in BLOCK_SCALED_KINDS:
        args.update(d_type="f32", sf_type="ue8m0" if v >> 23 & 1 else "ue4m3", sf_id_a=(v >> 29) & 3,
                    sf_id_b=(v >> 4) & 3)
    else:
        dn = {c: t for t, c in _D_CODE.items()}.get((v >> 4) & 3)
        shift = {c: s for s, c in _SHIFT_CODE.items()}[(v >> 30) & 3]
        args.update(d_type=dn, saturate=bool(v >> 3 & 1), max_shift=shift)
    return None if a is None or b is None or args["d_type"] is None else args


def _reading(v: int, kind: str, strict: bool = False) -> InstrDescriptor | None:
    """The descriptor bits ``v`` spell under ``kind`` with the smallest legal cta_group / ws, else None.

    With ``strict`` an illegal value raises the error of its cta_group-1 reading instead.
    """
    args = _fields_of(v, kind)
    if args is None:
        if not strict:
            return None
        codes = ", ".join(f"{t} {c}" for t, c in _KINDS[kind].ab.items())
        raise DescriptorError(f"InstrDescriptor.decode: {v:#010x} has type codes a={(v >> 7) & 7}, b={(v >> 10) & 7}, "
                              f"d={(v >> 4) & 3} that kind::{kind} does not define (operand codes: {codes}; d: f16 0, "
                              "f32 1, s32 2)")
    first: DescriptorError | None = None
    for cta, ws in ((1, False), (2, False), (1, True)):
        try:
            return InstrDescriptor(**args, cta_group=cta, ws=ws)
        except DescriptorError as e:
            first = first or e
    if strict and first is not None:
        raise DescriptorError(f"InstrDescriptor.decode: {v:#010x} under kind::{kind}: {first}") from None
    return None



# --------------------------------------------------------------------------------------------------
# Operand element types -> descriptor fields, and text for the CLI and generated headers
# --------------------------------------------------------------------------------------------------

#: Shared-memory element type names (as :mod:`pycute_layouts.codegen` spells them) -> descriptor type.
#: ``e2m1`` is the packed 4-bit form (kind::mxf4 / mxf4nvf4), ``e2m1_p64`` the 16-byte padded form
#: (PTX ``.b4x16_p64``, kind::f8f6f4 / mxf8f6f4); e2m3 and e3m2 are always padded (``.b6x16_p32``).
SMEM_TYPE_TO_IDESC: dict[str, str] = {t: t for t in _OPERAND_TYPES} | {"e2m1_p64": "e2m1"}

_SETTING_KEYS = ("kind", "d_type", "m", "n", "cta_group", "ws", "sf_type", "negate_a", "negate_b", "saturate",
                 "sparse", "sparse_id", "max_shift", "sf_id_a", "sf_id_b")


def instr_desc_for_operands(a_type: str, b_type: str, a_major: str, b_major: str, m: int, n: int,
                            settings: Any = None) -> InstrDescriptor:
    """The instruction descriptor of an MMA whose shared-memory operands have these element types.

    Pre: ``a_type``/``b_type`` are keys of :data:`SMEM_TYPE_TO_IDESC`; ``settings`` is None or a
    mapping with keys among ``kind, d_type, m, n, cta_group, ws, sf_type, negate_a, negate_b,
    saturate, sparse, sparse_id, max_shift, sf_id_a, sf_id_b`` (they override the defaults).
    Post: defaults -- ``d_type`` s32 for s8/u8 operands, else f32; ``cta_group`` 2 when M is 256;
    packed e2m1 selects kind::mxf4 (kind::mxf4nvf4 with sf_type ue4m3) with sf_type ue8m0; padded
    e2m1 with an ``sf_type`` selects kind::mxf8f6f4.

    >>> instr_desc_for_operands("e2m1", "e2m1", "K", "K", 128, 256).kind
    'mxf4'
    >>> instr_desc_for_operands("e2m1_p64", "e2m1_p64", "K", "K", 128, 256, {"sf_type": "ue8m0"}).kind
    'mxf8f6f4'
    """
    if settings is not None and not isinstance(settings, dict):
        raise DescriptorError(f"instr_desc_for_operands: settings must be None or a dict of setting -> value, "
                              f"got {fmt(settings)}"[:200])
    s = dict(settings or {})
    bad = sorted(set(s) - set(_SETTING_KEYS))
    if bad:
        raise DescriptorError(f"instr_desc_for_operands: unknown setting {fmt(bad[0])} (settings: {', '.join(_SETTING_KEYS)})")
    for name, t in (("a_type", a_type), ("b_type", b_type)):
        if not isinstance(t, str) or t not in SMEM_TYPE_TO_IDESC:
            raise DescriptorError(f"instr_desc_for_operands: {name}={fmt(t)} has no tcgen05 type (types: "
                                  f"{', '.join(SMEM_TYPE_TO_IDESC)})")
    packed = "e2m1" in (a_type, b_type)
    if packed:
        s.setdefault("sf_type", "ue8m0")
        s.setdefault("kind", "mxf4nvf4" if s["sf_type"] == "ue4m3" else "mxf4")
    elif s.get("sf_type") and a_type == b_type == "e2m1_p64":
        s.setdefault("kind", "mxf8f6f4")
    s.setdefault("d_type", "s32" if a_type in ("s8", "u8") else "f32")
    s.setdefault("m", m)
    s.setdefault("n", n)
    for name in ("m", "n"):
        if isinstance(s[name], bool) or not isinstance(s[name], int):
            raise DescriptorError(f"instr_desc_for_operands: {name} must be an int, got {fmt(s[name])}"[:200])
    s.setdefault("cta_group", 2 if s["m"] == 256 else 1)
    return InstrDescriptor(a_type=SMEM_TYPE_TO_IDESC[a_type], b_type=SMEM_TYPE_TO_IDESC[b_type],
                           a_major=a_major, b_major=b_major, **s)


def header_lines(d: InstrDescriptor, name: str = "kInstrDesc") -> list[str]:
    """C++ lines declaring ``d`` as a ``constexpr uint32_t`` with one comment line per field.

    Pre: ``d`` is an :class:`InstrDescriptor`; ``name`` a C++ identifier.
    Post: the value line is ``inline constexpr uint32_t <name> = 0x...u;``.

    >>> header_lines(InstrDescriptor("f16", "f16", "f32", 128, 64))[1]
    'inline constexpr uint32_t kInstrDesc = 0x08100010u;'
    """
    if not isinstance(d, InstrDescriptor):
        raise DescriptorError(f"header_lines: expected an InstrDescriptor, got {type(d).__name__}")
    ws = " .ws" if d.ws else ""
    lines = [f"// tcgen05.mma.cta_group::{d.cta_group}.kind::{d.kind}{ws} instruction descriptor (PTX ISA "
             f"9.7.16.4.2, {'block-scaled table' if d.block_scaled else 'Table 42'})",
             f"inline constexpr uint32_t {name} = {d.encode():#010x}u;"]
    lines += [f"//   {fname:<9} bits {bits:<5} = {value:<3} {meaning}" for fname, bits, value, meaning in d.fields()]
    return lines


def describe_value(value: Any, block_scaled: bool = False, kind: str | None = None) -> str:
    """Text for a pasted 32-bit value: its descriptor, or every legal reading when the kind is not known.

    Pre: ``value`` a 32-bit int; ``kind`` None or a kind of the chosen layout.
    Post: one :meth:`InstrDescriptor.__str__` block per reading; an illegal value raises
    :class:`DescriptorError` naming the rule.

    >>> print(describe_value(0x08100010).splitlines()[0])
    0x08100010 reads legally under 2 kinds (the kind is part of the opcode, not the descriptor):
    """
    if kind is not None:
        return str(InstrDescriptor.decode(value, block_scaled, kind=kind))
    found = InstrDescriptor.readings(value, block_scaled)
    if any(d.kind == "mxf4" for d in found):
        found = [d for d in found if d.kind != "mxf4nvf4"]
    if len(found) <= 1:
        return str(InstrDescriptor.decode(value, block_scaled))
    head = (f"{value:#010x} reads legally under {len(found)} kinds (the kind is part of the opcode, not the "
            "descriptor):")
    return "\n".join([head, *(str(d) for d in found)])


def kind_for_operand_types(a_type: Any, b_type: Any) -> str:
    """The ``tcgen05.mma`` kind whose type table takes shared-memory operands of these types.

    Pre:  ``a_type``/``b_type`` keys of :data:`SMEM_TYPE_TO_IDESC` (codegen's dtype names).
    Post: ``f16`` (f16 x f16, bf16 x bf16), ``tf32``, ``f8f6f4``, ``i8`` or, for packed e2m1 x e2m1, ``mxf4``;
          DescriptorError naming both types and their kinds when no one kind takes the pair.

    >>> kind_for_operand_types("e4m3", "e2m3"), kind_for_operand_types("u8", "s8"), kind_for_operand_types("e2m1", "e2m1")
    ('f8f6f4', 'i8', 'mxf4')
    """
    for name, t in (("a_type", a_type), ("b_type", b_type)):
        if not isinstance(t, str) or t not in SMEM_TYPE_TO_IDESC:
            shown = repr(t) if isinstance(t, str) else f"<{type(t).__name__}>"
            raise DescriptorError(f"kind_for_operand_types: {name}={shown} has no tcgen05 type (types: "
                                  f"{', '.join(SMEM_TYPE_TO_IDESC)})")
    if "e2m1" in (a_type, b_type):
        if a_type == b_type:
            return "mxf4"
        raise DescriptorError(f"kind_for_operand_types: packed e2m1 is read only by kind::mxf4/mxf4nvf4, whose "
                              f"operands are both packed e2m1; got a_type={a_type}, b_type={b_type} (use e2m1_p64, "
                              "the padded form, with kind::f8f6f4)")
    kind = _infer_kind(SMEM_TYPE_TO_IDESC[a_type], SMEM_TYPE_TO_IDESC[b_type], None)
    if kind == "f16" and a_type != b_type:
        raise DescriptorError(f"kind_for_operand_types: kind::f16 multiplies f16 x f16 or bf16 x bf16, got "
                              f"{a_type} x {b_type}")
    return kind
