"""Analysis of shared-memory layouts: bank conflicts, swizzle search, F2-linear form, ``explain``.

Three tools that kernel and compiler authors otherwise run by hand:

* :func:`bank_conflicts` -- wavefronts of one warp access (``ldmatrix``/``stmatrix`` x1/x2/x4,
  4/8/16-byte loads and stores) through a shared-memory layout with its byte swizzle, conflicts
  per bank and a picture of which thread hits which bank; :func:`conflict_free_swizzles` lists
  the ``Swizzle<B,M,S>`` and TMA modes that remove the conflicts (module
  :mod:`pycute_layouts.analysis.banks`).
* :func:`to_linear_layout` / :func:`from_linear_layout` and :class:`LinearLayout` -- the
  basis-vector form of Triton's LinearLayout, with compose, invert and equivalence (module
  :mod:`pycute_layouts.analysis.linear`).
* :func:`explain` -- a readable description of a layout: shape tree, strides, contiguity, vector
  width, swizzle phase and period, contiguous coordinates, and which canonical wgmma layout it is.

>>> from pycute_layouts import Layout, Swizzle, SwizzledSmemLayout
>>> from pycute_layouts.analysis import bank_conflicts, ldmatrix_pattern
>>> tile = SwizzledSmemLayout(Swizzle(3, 4, 3), Layout((8, 64), (64, 1)), element_bits=16)
>>> bank_conflicts(tile, ldmatrix_pattern(4)).wavefronts
4
>>> e = explain(tile)
>>> e.vector_elems, e.vector_bytes, e.wgmma[0]["major"], e.wgmma[0]["mode"]
(8, 16, 'K', '128B')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..arch.wgmma import make_smem_desc, smem_atom
from ..core.algebra import composition
from ..core.composed import ComposedLayout, SwizzledSmemLayout, check_swizzle_unit, smem_layout_of, swizzle_forms
from ..core.inttuple import flatten
from ..core.layout import Layout, format_inttuple, require_offsets
from ..core.swizzle import Swizzle, XorSwizzle
from ..errors import LayoutError, LayoutTypeError, LayoutValueError, UnitError
from ..limits import MAX_ELEMENT_BITS, MAX_EXPLAIN_POINTS, check_fields, fmt
from .banks import tma_swizzle_maps, wgmma_mode_name

__all__ = ["EXPLAIN_MAX_SIZE", "LayoutExplanation", "explain"]

#: Largest layout :func:`explain` evaluates point by point.
EXPLAIN_MAX_SIZE = MAX_EXPLAIN_POINTS  # limits.py


@dataclass(frozen=True)
class LayoutExplanation:
    """What :func:`explain` found; ``to_text()`` prints it, ``to_dict()`` gives JSON.

    Contiguity is measured on the layout's values in *address units*: element offsets (no
    ``element_bits``) or bit addresses through the byte swizzle (with ``element_bits``).

    - ``max_contiguous_elems``: the longest run of consecutive coordinates at consecutive
      addresses, walking the coordinates in index order (mode 0 fastest) or in the opposite
      order (last mode fastest, "row-major");
    - ``contiguous_along``: per top-level mode, the largest power of two ``V`` such that every
      aligned group of ``V`` consecutive coordinates along that mode (the others fixed) is
      contiguous;
    - ``vector_elems``: the largest of those: the widest vector access valid at every aligned
      position along one mode;
    - ``*_bytes``: the same in bytes (None without ``element_bits`` or off a byte);
    - ``swizzle``: None or a dict (text, XOR-ed bits, intact unit, row, phases, period, modes);
    - ``wgmma``: the canonical wgmma layouts it matches (major, mode, atom, LBO/SBO in bytes);
      ``wgmma_notes``: why each major did not match.

    >>> e = explain(Layout((8, 4), (4, 1)), 16)   # 8 rows of 4 contiguous 16-bit elements
    >>> e.max_contiguous_elems, e.contiguous_along, e.vector_elems, e.vector_bytes
    (32, (1, 4), 4, 8)
    """

    layout: str
    kind: str
    element_bits: int | None
    shape: str
    stride: str
    size: int
    cosize: int
    injective: bool
    compact: bool
    shape_tree: tuple[str, ...]
    max_contiguous_elems: int
    vector_elems: int
    contiguous_along: tuple[int, ...]
    max_contiguous_bytes: int | None
    vector_bytes: int | None
    swizzle: dict | None
    wgmma: tuple[dict, ...]
    wgmma_notes: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        check_fields(self)

    def to_dict(self) -> dict:
        """JSON-ready fields.

        >>> explain(Layout((4, 8), (8, 1))).to_dict()["contiguous_along"]
        [1, 8]
        """
        return {
            "layout": self.layout, "kind": self.kind, "element_bits": self.element_bits, "shape": self.shape,
            "stride": self.stride, "size": self.size, "cosize": self.cosize, "injective": self.injective,
            "compact": self.compact, "shape_tree": list(self.shape_tree),
            "max_contiguous_elems": self.max_contiguous_elems, "vector_elems": self.vector_elems,
            "contiguous_along": list(self.contiguous_along), "max_contiguous_bytes": self.max_contiguous_bytes,
            "vector_bytes": self.vector_bytes, "swizzle": self.swizzle, "wgmma": list(self.wgmma),
            "wgmma_notes": list(self.wgmma_notes),
        }

    def to_text(self) -> str:
        """A readable multi-line description.

        >>> print(explain(Layout((4, 8), (8, 1))).to_text().splitlines()[0])
        (4,8):(8,1)  [Layout]
        """
        unit = f", {self.element_bits}-bit elements" if self.element_bits else ""
        lines = [f"{self.layout}  [{self.kind}]",
                 f"  shape {self.shape}, stride {self.stride} (strides in elements{unit})",
                 f"  size {self.size}, cosize {self.cosize}; "
                 + ("compact (a bijection onto [0, size))" if self.compact else
                    "injective" if self.injective else "NOT injective (several coordinates share an address)"),
                 "  shape tree:"]
        lines += [f"    {t}" for t in self.shape_tree]

        def both(e: int, b: int | None) -> str:
            return f"{e} elements" + (f" ({b} bytes)" if b is not None else "")

        lines.append(f"  longest contiguous run: {both(self.max_contiguous_elems, self.max_contiguous_bytes)}")
        lines.append(f"  vector width (every aligned group along one mode contiguous): "
                     f"{both(self.vector_elems, self.vector_bytes)}")
        for i, v in enumerate(self.contiguous_along):
            b = None if self.element_bits is None or (v * self.element_bits) % 8 else v * self.element_bits // 8
            lines.append(f"  along mode {i}: runs of {both(v, b)} are contiguous")
        if self.swizzle:
            s = self.swizzle
            lines.append(f"  swizzle {s['swizzle']} on {s['unit']}: XORs bits {s['source_bits']} into bits "
                         f"{s['target_bits']}; keeps aligned blocks of {s['intact']} {s['unit_short']} intact, "
                         f"{s['phases']} phase(s): the pattern changes every {s['row']} {s['unit_short']} and repeats "
                         f"every {s['period']} {s['unit_short']}")
            if s.get("forms"):
                lines.append(f"    in CuTe: {s['forms']}")
            if s.get("tma_modes") or s.get("wgmma_mode"):
                lines.append(f"    TMA mode(s): {', '.join(s['tma_modes']) or '-'}; wgmma mode: "
                             f"{s['wgmma_mode'] or '-'}")
        if self.wgmma:
            for m in self.wgmma:
                el = f" = {m['atom_elements']}" if m.get("atom_elements") else ""
                lines.append(f"  canonical wgmma layout: {m['major']}-major {m['mode']} (atom {m['atom']}{el}); descriptor "
                             f"LBO = {m['lbo_bytes']} B, SBO = {m['sbo_bytes']} B over {m['k_slices']} K slice(s) of "
                             f"{m['k_slice_elems']} elements")
        else:
            lines.append("  not a canonical wgmma layout")
        lines += [f"    {n}" for n in self.wgmma_notes]
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.to_text()


def _norm_explain_input(layout: Any, element_bits: Any,
                        swizzle_unit: str = "elements") -> tuple[Any, Layout, Any, int | None, str]:
    """(evaluator, element layout, swizzle (on bytes when element_bits is known) or None, element_bits, kind)."""
    who = "explain"
    check_swizzle_unit(swizzle_unit, who)
    if element_bits is not None and (isinstance(element_bits, bool) or not isinstance(element_bits, (int, np.integer))
                                     or not 0 < element_bits <= MAX_ELEMENT_BITS):
        raise UnitError(f"{who}: element_bits must be a positive int, got {fmt(element_bits)} "
                        f"(at most MAX_ELEMENT_BITS = {MAX_ELEMENT_BITS})")
    if not isinstance(layout, (Layout, ComposedLayout, SwizzledSmemLayout)):
        raise LayoutTypeError(f"{who}: expected a Layout, ComposedLayout or SwizzledSmemLayout, got "
                              f"{type(layout).__name__}")
    kind = type(layout).__name__
    if layout.is_symbolic():
        raise LayoutValueError(f"{who}: {layout} has unbound symbols; bind them first (subs or -D NAME=VALUE)")
    if isinstance(layout, ComposedLayout) and (not isinstance(layout.inner, Layout)
                                               or not isinstance(layout.outer, (Swizzle, XorSwizzle))):
        raise LayoutTypeError(f"{who}: a ComposedLayout must be 'Swizzle o offset o Layout', got {layout}")
    require_offsets(layout.layout if isinstance(layout, SwizzledSmemLayout) else
                    layout.inner if isinstance(layout, ComposedLayout) else layout, who)
    if element_bits is None and not isinstance(layout, SwizzledSmemLayout):
        # no element width: the values are the layout's own units, the swizzle acts on them (CuTe's meaning)
        sw = layout.outer if isinstance(layout, ComposedLayout) else None
        inner = layout.inner if isinstance(layout, ComposedLayout) else layout
        return layout, inner, sw, None, kind
    s = smem_layout_of(layout, None if element_bits is None else int(element_bits), swizzle_unit=swizzle_unit,
                       who=who)
    try:
        sw = s.byte_swizzle()
    except LayoutError:
        sw = None  # e.g. an element-unit swizzle on 24-bit elements: placements still evaluate, no byte map
    if isinstance(layout, Layout):
        sw = None
    return s, s.layout, sw, s.element_bits, kind


def _values(ev: Any, n: int) -> np.ndarray:
    idx = np.arange(n, dtype=np.int64)
    if isinstance(ev, SwizzledSmemLayout):
        return np.asarray(ev.bit_address(idx), dtype=np.int64)
    return np.asarray(ev(idx), dtype=np.int64)


def _longest_run(v: np.ndarray, unit: int) -> int:
    if v.size <= 1:
        return int(v.size)
    ok = np.diff(v) == unit
    best = cur = 0
    for x in ok:
        cur = cur + 1 if x else 0
        best = max(best, cur)
    return best + 1


def _vector_width(v: np.ndarray, unit: int, axis: int = 0) -> int:
    """Largest power of two V dividing the axis length with every aligned V-group contiguous along ``axis``."""
    n = v.shape[axis]
    vv = np.moveaxis(v, axis, 0)
    best = 1
    w = 2
    while w <= n and n % w == 0:
        g = vv.reshape((n // w, w) + vv.shape[1:])
        step = np.arange(w, dtype=np.int64).reshape((1, w) + (1,) * (vv.ndim - 1)) * unit
        if not np.all(g == g[:, :1] + step):
            break
        best = w
        w *= 2
    return best


def _shape_tree(inner: Layout, bits: int | None) -> tuple[str, ...]:
    out = []

    def bytes_of(d: Any) -> str:
        if bits is None or type(d) is not int or (d * bits) % 8:
            return ""
        return f" ({d * bits // 8} B)"

    modes = list(inner) if isinstance(inner.shape, tuple) else [inner]
    for i, m in enumerate(modes):
        out.append(f"mode {i}: {format_inttuple(m.shape)}:{format_inttuple(m.stride)}  (size {m.size()})")
        if isinstance(m.shape, tuple):
            for j, (s, d) in enumerate(zip(flatten(m.shape), flatten(m.stride))):
                out.append(f"  leaf {i}.{j}: {s}:{d}{bytes_of(d)}")
        else:
            out.append(f"  leaf {i}.0: {m.shape}:{m.stride}{bytes_of(m.stride)}")
    return tuple(out)


def _swizzle_info(sw: Any, bits: int | None) -> dict | None:
    bytes_unit = bits is not None
    if sw is None:
        return None
    xs = sw.to_xor() if isinstance(sw, Swizzle) else sw
    pairs = xs.pairs
    if not pairs:
        return None
    srcs = sorted({s for s, _ in pairs})
    tgts = sorted({t for _, t in pairs})
    info = {
        "swizzle": str(sw),
        "unit": "byte addresses" if bytes_unit else "offsets",
        "unit_short": "B" if bytes_unit else "offsets",
        "source_bits": srcs,
        "target_bits": tgts,
        "intact": 1 << min(tgts),
        "row": 1 << min(srcs),
        "phases": 1 << len(srcs),
        "period": 1 << xs.nbits,
        "tma_modes": [],
        "wgmma_mode": None,
    }
    if bytes_unit:
        info["forms"] = swizzle_forms(sw, bits)
        info["tma_modes"] = [n for n, m in tma_swizzle_maps() if (m.to_xor() if isinstance(m, Swizzle) else m) == xs]
        info["wgmma_mode"] = wgmma_mode_name(sw)
    return info


def _element_form(s: SwizzledSmemLayout) -> str | None:
    try:
        return str(s.as_composed())
    except LayoutError:
        return None


def _wgmma_matches(inner: Layout, sw: Any, bits: int | None, base_bytes: int) -> tuple[tuple[dict, ...], tuple[str, ...]]:
    if bits is None:
        return (), ("wgmma: pass element_bits to check the canonical wgmma layouts",)
    if inner.rank() != 2 or not isinstance(inner.shape, tuple):
        return (), (f"wgmma: an operand layout has two modes (MN, K); this one has rank {inner.rank()}",)
    k_elems = 256 // bits if 256 % bits == 0 else None  # one dense instruction: K = 32 bytes
    if k_elems is None:
        return (), (f"wgmma: {bits}-bit elements do not divide a 32-byte K slice",)
    mode0, mode1 = inner[0], inner[1]
    k_size = int(mode1.size())
    if k_size % k_elems:
        return (), (f"wgmma: the K extent {k_size} is not a multiple of one instruction's K ({k_elems} elements = "
                    "32 bytes)",)
    try:
        sub1 = composition(mode1, Layout(k_elems, 1))
    except LayoutError as e:
        return (), (f"wgmma: the first K slice of mode 1 is not a layout: {e}",)
    slice0 = Layout((mode0.shape, sub1.shape), (mode0.stride, sub1.stride))
    k_all = mode1.to_numpy()
    s0 = sub1.to_numpy()
    sw_b = sw if sw is not None else Swizzle(0, 4, 3)
    found: list[dict] = []
    notes: list[str] = []
    for major in ("K", "MN"):
        try:
            descs = []
            nslices = k_size // k_elems
            for j in range(nslices):
                seg = k_all[j * k_elems:(j + 1) * k_elems]
                off = int(seg[0] - s0[0])
                if not np.array_equal(seg, s0 + off):
                    raise LayoutValueError(f"K slice {j} is not a translate of slice 0")
                start_bits = base_bytes * 8 + off * bits
                if start_bits % 8 or start_bits < 0:
                    raise LayoutValueError(f"K slice {j} does not start on a byte")
                op = SwizzledSmemLayout(sw_b, slice0, bits, "bytes", base_address=start_bits // 8)
                descs.append(make_smem_desc(op, major, bits))
            d0 = descs[0]
            if any((d.lbo_bytes, d.sbo_bytes, d.swizzle) != (d0.lbo_bytes, d0.sbo_bytes, d0.swizzle) for d in descs):
                raise LayoutValueError("the K slices need different LBO/SBO")
            atom = smem_atom(major, d0.swizzle, bits)
            found.append({"major": major, "mode": d0.swizzle.short_name, "atom": str(atom),
                          "atom_elements": _element_form(atom),
                          "lbo_bytes": d0.lbo_bytes, "sbo_bytes": d0.sbo_bytes, "k_slices": nslices,
                          "k_slice_elems": k_elems, "descriptor": hex(d0.encode())})
        except LayoutError as e:
            notes.append(f"not {major}-major canonical: {str(e).splitlines()[0]}")
    return tuple(found), tuple(notes)


def explain(layout: Any, element_bits: int | None = None, *, swizzle_unit: str = "elements") -> LayoutExplanation:
    """A readable description of a layout (``.to_text()``) with every finding as a field.

    ``layout``: a Layout (in elements), ``Swizzle o offset o Layout`` or a SwizzledSmemLayout.
    With ``element_bits`` (implied by a SwizzledSmemLayout) the layout is read by CuTe's unit rule
    (:func:`~pycute_layouts.core.composed.smem_layout_of`: the swizzle of ``Sw o k o L`` acts on
    element offsets unless ``swizzle_unit="bytes"``), the swizzle is reported on byte addresses with
    both CuTe forms, contiguity is also given in bytes, and the
    layout is checked against every canonical wgmma layout (``make_smem_desc`` on each 32-byte
    K slice, both majors). Raises for symbolic layouts and layouts larger than 2**22 elements.

    >>> e = explain(Layout((8, 64), (64, 1)), element_bits=16)       # 128-byte rows, no swizzle
    >>> e.max_contiguous_elems, e.contiguous_along, e.vector_bytes, e.wgmma
    (512, (1, 64), 128, ())
    >>> w = explain(Layout((8, (8, 2)), (8, (1, 64))), element_bits=16).wgmma[0]  # core matrices
    >>> w["major"], w["mode"], w["lbo_bytes"]
    ('K', 'none', 128)
    >>> from pycute_layouts import parse
    >>> s = explain(parse("Sw<3,3,3> o 0 o (8,64):(64,1)"), element_bits=16).swizzle
    >>> s["swizzle"], s["source_bits"], s["target_bits"], s["intact"], s["period"], s["tma_modes"]
    ('Sw<3,4,3>', [7, 8, 9], [4, 5, 6], 16, 1024, ['128B'])
    >>> s["forms"]
    'Sw<3,4,3> o smem_ptr[16b](unset) o L = Sw<3,3,3> o 0 o L on 16-bit elements'
    """
    ev, inner, sw, bits, kind = _norm_explain_input(layout, element_bits, swizzle_unit)
    n = int(inner.size())
    if n > EXPLAIN_MAX_SIZE:
        raise LayoutValueError(f"explain: {layout} has {n} elements; explain evaluates at most {EXPLAIN_MAX_SIZE}")
    vals = _values(ev, n)
    unit = bits if bits is not None else 1
    injective = len(np.unique(vals)) == n
    compact = injective and bool(np.array_equal(np.sort(vals), vals.min() + np.arange(n, dtype=np.int64) * unit))
    modes = list(inner) if isinstance(inner.shape, tuple) else [inner]
    dims = tuple(int(m.size()) for m in modes)
    grid = vals.reshape(dims, order="F")
    run = max(_longest_run(vals, unit), _longest_run(grid.reshape(-1, order="C"), unit))
    along = tuple(_vector_width(grid, unit, axis=i) for i in range(len(dims)))
    vec = max(along)

    def to_bytes(e: int) -> int | None:
        if bits is None or (e * bits) % 8:
            return None
        return e * bits // 8

    base = ev.base_address if isinstance(ev, SwizzledSmemLayout) else 0
    matches, notes = _wgmma_matches(inner, sw if bits is not None else None, bits, base)
    return LayoutExplanation(
        layout=str(layout), kind=kind, element_bits=bits, shape=format_inttuple(inner.shape),
        stride=format_inttuple(inner.stride), size=n, cosize=int(inner.cosize()), injective=bool(injective),
        compact=bool(compact), shape_tree=_shape_tree(inner, bits), max_contiguous_elems=run, vector_elems=vec,
        contiguous_along=along, max_contiguous_bytes=to_bytes(run), vector_bytes=to_bytes(vec),
        swizzle=_swizzle_info(sw, bits), wgmma=matches, wgmma_notes=notes,
    )
