"""NVIDIA's CuTe DSL (``nvidia-cutlass-dsl``, ``import cutlass.cute as cute``) in and out.

The DSL computes layouts only inside a ``@cute.jit`` function; what it prints is CuTe notation with
three differences handled here: a swizzle prints as ``S<B,M,S>`` (we print ``Sw<B,M,S>``), size-1
modes may be dropped or kept and thread modes coalesced differently (compare layouts as functions,
not strings), and a dynamic value prints as ``?`` (refused: it has no value to compute with).

**Units.** The DSL prints the same string ``S<3,4,3> o 0 o (8,64):(64,1)`` for two different
things: a composed layout that IS a tensor's layout (the swizzle acts on the layout's own units,
element offsets: CuTe's ``Sw<3,4,3> o 0 o L``), and ``warpgroup.make_smem_layout_atom`` (the atom
whose ``inner`` swizzle the DSL applies to the shared-memory *pointer*: byte addresses, our
``Sw<3,4,3> o smem_ptr[16b](unset) o L``). :func:`from_cute_dsl` reads the layout meaning unless
told ``swizzle_on="pointer"`` (then ``element_bits`` is needed). The DSL names the swizzle
``inner`` and the layout ``outer`` of a composed layout, the reverse of CuTe C++ and this package.

>>> print(from_cute_dsl("S<3,4,3> o 0 o (8,64):(64,1)"))                       # element offsets
Sw<3,4,3> o 0 o (8,64):(64,1)
>>> print(from_cute_dsl("S<3,4,3> o 0 o (8,64):(64,1)", element_bits=16, swizzle_on="pointer"))
Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)
>>> to_cute_dsl(Layout((8, 4), (4, 1)))
'cute.make_layout((8, 4), stride=(4, 1))'
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from ..arch.atoms import TiledMma
from ..arch.atoms_copy import CopyAtom
from ..arch.atoms_mma import MmaAtom
from ..arch.wgmma import smem_atom
from ..core.composed import ComposedLayout, SwizzledSmemLayout
from ..core.inttuple import is_int
from ..core.layout import Layout
from ..core.notation import parse
from ..core.swizzle import Swizzle
from ..core.tiling import make_layout_tv
from ..errors import LayoutError, LayoutTypeError, LayoutValueError, NotationError, UnitError
from ..limits import fmt

__all__ = ["from_cute_dsl", "to_cute_dsl", "make_layout_tv", "DSL_DTYPES"]

#: element width -> the DSL's numeric type used where only the width matters (geometry is the same
#: for every type of one width: Float16/BFloat16, Float8E4M3FN/Int8, Float32/TFloat32)
DSL_DTYPES = {8: "cutlass.Float8E4M3FN", 16: "cutlass.Float16", 32: "cutlass.Float32"}

_TYPES = {"F16": "cutlass.Float16", "BF16": "cutlass.BFloat16", "F32": "cutlass.Float32", "TF32": "cutlass.TFloat32",
          "E4M3": "cutlass.Float8E4M3FN", "E5M2": "cutlass.Float8E5M2", "S8": "cutlass.Int8", "U8": "cutlass.Uint8",
          "S32": "cutlass.Int32"}

_S_SPELLING = re.compile(r"(?<![A-Za-z_])S<")


def from_cute_dsl(text: str, element_bits: int | None = None, swizzle_on: str = "layout") -> Any:
    """What the CuTe DSL prints (a layout, ``S<B,M,S> o k o L``, a swizzle, a shape) as this package's object.

    Pre: ``text`` a string the DSL printed, with no dynamic ``?``; ``swizzle_on`` is ``"layout"`` (default:
    the swizzle acts on the layout's own units, as for a composed tensor layout) or ``"pointer"`` (the
    swizzle acts on byte addresses, as for ``make_smem_layout_atom``/``allocate_tensor(.., swizzle=)``:
    needs ``element_bits``). Post: a Layout, ComposedLayout, Swizzle, or a SwizzledSmemLayout when
    ``element_bits`` is given for a swizzled layout (its unit then explicit).
    Raises NotationError (unreadable, dynamic), UnitError (pointer meaning without ``element_bits``).

    >>> print(from_cute_dsl("((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"))
    ((4,8,4),(2,2,8)):((128,1,16),(64,8,512))
    >>> print(from_cute_dsl("S<2,4,3>"))
    Sw<2,4,3>
    >>> from_cute_dsl("(?,64):(64,1)")
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.NotationError: from_cute_dsl: '(?,64):(64,1)' holds a dynamic value '?' ...
    """
    who = "from_cute_dsl"
    if not isinstance(text, str):
        raise LayoutTypeError(f"{who}: expected the text the DSL printed, got {type(text).__name__}")
    if not isinstance(swizzle_on, str) or swizzle_on not in ("layout", "pointer"):
        raise LayoutValueError(f"{who}: swizzle_on is 'layout' (the layout's own units) or 'pointer' (byte "
                               f"addresses), got {fmt(swizzle_on)}"[:300])
    if element_bits is not None and (isinstance(element_bits, bool) or not isinstance(element_bits, (int, np.integer))
                                     or not 0 < element_bits <= 1024):
        raise UnitError(f"{who}: element_bits must be a positive int, got {fmt(element_bits)}"[:300])
    src = text.strip()
    if len(src) > 100_000:
        raise NotationError(f"{who}: {len(src)} characters is more than a layout the DSL prints")
    if "?" in src:
        raise NotationError(f"{who}: {fmt(src[:200])} holds a dynamic value '?' (the DSL knows it only at run time); "
                            "print a static layout (cute.printf prints runtime values) or pass the values")
    src = _S_SPELLING.sub("Sw<", src)
    try:
        obj = parse(src)
    except NotationError as e:
        raise NotationError(f"{who}: {str(e).split(': ', 1)[-1]}"[:400]) from None
    if isinstance(obj, Swizzle):
        return obj
    if isinstance(obj, SwizzledSmemLayout) and element_bits is not None and element_bits != obj.element_bits:
        raise UnitError(f"{who}: {obj} holds {obj.element_bits}-bit elements but element_bits={element_bits} was passed")
    swizzled = isinstance(obj, ComposedLayout) and isinstance(obj.outer, Swizzle) and isinstance(obj.inner, Layout)
    if swizzle_on == "pointer":
        if not swizzled:
            raise LayoutValueError(f"{who}: swizzle_on='pointer' needs a swizzled layout (S<B,M,S> o 0 o L), "
                                   f"got {fmt(src)}"[:300])
        if element_bits is None:
            raise UnitError(f"{who}: a pointer swizzle acts on byte addresses: pass element_bits (16 for Float16)")
        if obj.offset != 0:
            raise LayoutValueError(f"{who}: a pointer-swizzled layout has offset 0, got {obj.offset}")
        return SwizzledSmemLayout(obj.outer, obj.inner, int(element_bits))
    if swizzled and element_bits is not None and obj.offset == 0:
        return SwizzledSmemLayout(obj.outer, obj.inner, int(element_bits), swizzle_unit="elements")
    return obj


def _py(t: Any, who: str) -> str:
    """An IntTuple as Python literal text: ``(8, (2, 4))``; a 1-tuple keeps its comma."""
    if isinstance(t, tuple):
        parts = [_py(x, who) for x in t]
        return "(" + parts[0] + ",)" if len(parts) == 1 else "(" + ", ".join(parts) + ")"
    if is_int(t) and not isinstance(t, bool):
        return str(int(t))
    raise LayoutValueError(f"{who}: {fmt(t)} is not an integer: the DSL builds static layouts from ints (symbols and basis "
                           "strides have no DSL spelling here)")


def _layout_src(lay: Layout, who: str) -> str:
    if lay.is_symbolic():
        raise LayoutValueError(f"{who}: {lay} is symbolic; bind its symbols first")
    return f"cute.make_layout({_py(lay.shape, who)}, stride={_py(lay.stride, who)})"


def _swizzle_src(sw: Any, who: str) -> str:
    if not isinstance(sw, Swizzle):
        raise LayoutValueError(f"{who}: only Swizzle<B,M,S> has a DSL spelling (cute.make_swizzle), got {sw}")
    return f"cute.make_swizzle({sw.bits}, {sw.base}, {sw.shift})"


def _gmma_atom_kind(s: SwizzledSmemLayout) -> str | None:
    if s.swizzle_unit != "bytes" or s.base_address or s.element_bits not in DSL_DTYPES:
        return None
    for major in ("K", "MN"):
        for mode, kind in (("128B", "SW128"), ("64B", "SW64"), ("32B", "SW32"), ("INTERLEAVE", "INTER")):
            try:
                a = smem_atom(major, mode, s.element_bits)
            except LayoutError:
                continue
            if str(a.layout) == str(s.layout) and a.swizzle == s.swizzle:
                return f"{major}_{kind}"
    return None


_CXX_TYPES = {"half_t": "cutlass.Float16", "bfloat16_t": "cutlass.BFloat16", "float": "cutlass.Float32",
              "tfloat32_t": "cutlass.TFloat32", "int8_t": "cutlass.Int8", "uint8_t": "cutlass.Uint8",
              "int32_t": "cutlass.Int32"}


def _umma_src(a: MmaAtom, who: str) -> str:
    """tcgen05 (UMMA) atoms: cute.nvgpu.tcgen05.Mma{F16BF16,TF32,I8}Op (the DSL builds them with CUTE_DSL_ARCH=sm_100a)."""
    m = re.match(r"^SM100_MMA_(TF32|F16BF16|S8)(_2x1SM)?_(SS|TS)<([a-z0-9_]+),([a-z0-9_]+),([a-z0-9_]+),(\d+),(\d+),"
                 r"UMMA::Major::(K|MN),UMMA::Major::(K|MN)>$", a.name)
    if m is None:
        raise LayoutValueError(f"{who}: no CuTe DSL op is spelled here for {a.name}")
    fam, two, src, ta, tb, tc = m.group(1), m.group(2), m.group(3), m.group(4), m.group(5), m.group(6)
    mm, nn, kk = a.shape_mnk
    shape = f"({mm}, {nn}, {kk})"
    tail = (f"{shape}, cute.nvgpu.tcgen05.CtaGroup.{'TWO' if two else 'ONE'}, "
            f"cute.nvgpu.tcgen05.OperandSource.{'TMEM' if src == 'TS' else 'SMEM'}, "
            f"cute.nvgpu.OperandMajorMode.{m.group(9)}, cute.nvgpu.OperandMajorMode.{m.group(10)}))")
    if fam == "TF32":
        return f"cute.make_mma_atom(cute.nvgpu.tcgen05.MmaTF32Op({tail}"
    if ta != tb:
        raise LayoutValueError(f"{who}: the CuTe DSL's tcgen05 ops take one A/B type; {a.name} mixes {ta} and {tb}")
    if fam == "S8":
        return f"cute.make_mma_atom(cute.nvgpu.tcgen05.MmaI8Op({_CXX_TYPES[ta]}, {tail}"
    return f"cute.make_mma_atom(cute.nvgpu.tcgen05.MmaF16BF16Op({_CXX_TYPES[ta]}, {_CXX_TYPES[tc]}, {tail}"


def _mma_src(a: MmaAtom, who: str) -> str:
    if a.name.startswith("SM100_"):
        return _umma_src(a, who)
    if re.match(r"^SM90_64x\d+x8_F32TF32TF32", a.name):
        raise LayoutValueError(f"{who}: no CuTe DSL op for {a.name}: nvidia-cutlass-dsl 4.8.1 has no TF32 warpgroup MMA "
                               "(cute.nvgpu.warpgroup has MmaF16BF16Op, MmaF8Op, MmaI8Op; MmaF16BF16Op refuses "
                               "TFloat32); tcgen05.MmaTF32Op is the Blackwell one")
    m = re.match(r"^SM(80|90)_(\d+)x(\d+)x(\d+)_([A-Z0-9]+?)_(SS|RS|TN)", a.name)
    types = re.findall(r"BF16|TF32|F16|F32|E4M3|E5M2|S8|U8|S32", m.group(5)) if m else []
    if m is None or len(types) < 3:
        raise LayoutValueError(f"{who}: no CuTe DSL op is spelled here for {a.name}")
    shape = f"({m.group(2)}, {m.group(3)}, {m.group(4)})"
    acc, ta, tb = _TYPES[types[0]], _TYPES[types[1]], _TYPES[types[2]]
    f16 = types[1] == types[2] and types[1] in ("F16", "BF16")
    if m.group(1) == "80":
        if not f16:
            raise LayoutValueError(f"{who}: no CuTe DSL op is spelled here for {a.name} (F16/BF16 mma.sync only)")
        return f"cute.make_mma_atom(cute.nvgpu.warp.MmaF16BF16Op({ta}, {acc}, {shape}))"
    src = "RMEM" if a.a_source == "reg" else "SMEM"
    tail = (f"{shape}, cute.nvgpu.warpgroup.OperandSource.{src}, cute.nvgpu.OperandMajorMode.{a.a_major}, "
            f"cute.nvgpu.OperandMajorMode.{a.b_major}))")
    if f16:
        return f"cute.make_mma_atom(cute.nvgpu.warpgroup.MmaF16BF16Op({ta}, {acc}, {tail}"
    if types[1] in ("E4M3", "E5M2") and types[2] in ("E4M3", "E5M2"):
        return f"cute.make_mma_atom(cute.nvgpu.warpgroup.MmaF8Op({ta}, {tb}, {acc}, {tail}"
    if types[1] in ("S8", "U8") and types[2] in ("S8", "U8"):
        return f"cute.make_mma_atom(cute.nvgpu.warpgroup.MmaI8Op({ta}, {tb}, {acc}, {tail}"
    raise LayoutValueError(f"{who}: no CuTe DSL op is spelled here for {a.name} (F16/BF16, FP8 and int8 wgmma, "
                           "F16/BF16 mma.sync)")


_TMEM_OPS = {"32dp32b": "32x32b", "16dp64b": "16x64b", "16dp128b": "16x128b", "16dp256b": "16x256b", "16dp32b": "16x32bx2"}


def _copy_src(c: CopyAtom, who: str) -> str:
    if c.kind in ("ldsm", "stsm"):
        op = "LdMatrix8x8x16bOp" if c.kind == "ldsm" else "StMatrix8x8x16bOp"
        return f"cute.make_copy_atom(cute.nvgpu.warp.{op}({c.trans}, {c.num_matrices}), cutlass.Float16)"
    if c.kind in ("tmem_load", "tmem_store") and c.tmem_shape in _TMEM_OPS:
        if c.name.endswith("_16b"):
            raise LayoutValueError(f"{who}: {c.name} (16-bit packing) is not spelled here; its 32-bit form "
                                   f"{c.name[:-4]} is (cute.nvgpu.tcgen05 Ld/St ops with cutlass.Float32)")
        op = ("Ld" if c.kind == "tmem_load" else "St") + _TMEM_OPS[c.tmem_shape] + "Op"
        return f"cute.make_copy_atom(cute.nvgpu.tcgen05.{op}(cute.nvgpu.tcgen05.Repetition.x{c.repeat}), cutlass.Float32)"
    raise LayoutValueError(f"{who}: no CuTe DSL op is spelled here for {c.name} (ldmatrix/stmatrix, tcgen05.ld/st)")


def _tile_entry_src(p: Any, extent: int, who: str) -> str:
    if p is None:
        return str(extent)
    if isinstance(p, Layout):
        return _layout_src(p, who)
    return _py(p, who)


def to_cute_dsl(obj: Any) -> str:
    """A Python expression in the CuTe DSL's names that builds ``obj`` (inside ``@cute.jit``, with ``import cutlass``
    and ``import cutlass.cute as cute``).

    Pre: ``obj`` an integer Layout, a Swizzle, ``Swizzle o k o Layout`` (a composed layout: the swizzle
    on the layout's units), a SwizzledSmemLayout (on bytes: ``warpgroup.make_smem_layout_atom`` where it
    is a GMMA atom, else a tensor allocated with the swizzle on its pointer; on elements: a composed
    layout), an MmaAtom (F16/BF16 mma.sync; F16/BF16, FP8, int8 wgmma; tcgen05 F16/BF16, TF32, int8, 1 or 2 SM,
    SS or TS), an ldmatrix/stmatrix or tcgen05.ld/st (TMEM, 32-bit) CopyAtom, or a TiledMma of such an atom
    (any atom layout, permutations as ints or Layouts). TF32 wgmma has no DSL op (4.8.1).
    Post: the expression; LayoutValueError for what has no DSL spelling here.

    >>> to_cute_dsl(parse("Sw<3,3,3> o 0 o (8,64):(64,1)"))
    'cute.make_composed_layout(cute.make_swizzle(3, 3, 3), 0, cute.make_layout((8, 64), stride=(64, 1)))'
    >>> to_cute_dsl(smem_atom("K", "128B", 16))
    'cute.nvgpu.warpgroup.make_smem_layout_atom(cute.nvgpu.warpgroup.SmemLayoutAtomKind.K_SW128, cutlass.Float16)'
    """
    who = "to_cute_dsl"
    if isinstance(obj, Layout):
        return _layout_src(obj, who)
    if isinstance(obj, Swizzle):
        return _swizzle_src(obj, who)
    if isinstance(obj, ComposedLayout):
        if not isinstance(obj.inner, Layout):
            raise LayoutValueError(f"{who}: only Swizzle o offset o Layout has a DSL spelling, got {obj}")
        off = _py(obj.offset, who)
        return f"cute.make_composed_layout({_swizzle_src(obj.outer, who)}, {off}, {_layout_src(obj.inner, who)})"
    if isinstance(obj, SwizzledSmemLayout):
        if obj.swizzle_unit == "elements":
            return (f"cute.make_composed_layout({_swizzle_src(obj.swizzle, who)}, 0, "
                    f"{_layout_src(obj.layout, who)})")
        kind = _gmma_atom_kind(obj)
        dtype = DSL_DTYPES.get(obj.element_bits)
        if kind is not None:
            return f"cute.nvgpu.warpgroup.make_smem_layout_atom(cute.nvgpu.warpgroup.SmemLayoutAtomKind.{kind}, {dtype})"
        if dtype is None or obj.base_address:
            raise LayoutValueError(f"{who}: {obj} has no DSL spelling here (8-, 16- or 32-bit elements at base address 0)")
        return (f"cutlass.memory.SmemAllocator().allocate_tensor({dtype}, {_layout_src(obj.layout, who)}, "
                f"byte_alignment=1024, swizzle={_swizzle_src(obj.swizzle, who)})")
    if isinstance(obj, MmaAtom):
        return _mma_src(obj, who)
    if isinstance(obj, CopyAtom):
        return _copy_src(obj, who)
    if isinstance(obj, TiledMma):
        lay = obj.atom_layout
        rank = lay.rank() if isinstance(lay.shape, tuple) else 1
        modes = [lay[i] for i in range(rank)] if rank > 1 else [lay]
        shp = [int(x.size()) for x in modes] + [1] * (3 - rank)
        strides = [x.stride for x in modes] + [0] * (3 - rank)
        if str(Layout(tuple(shp))) == str(Layout(tuple(shp), tuple(strides))) or rank == 1:
            lay_src = _py(tuple(shp), who)
        else:
            lay_src = _layout_src(Layout(tuple(shp), tuple(strides)), who)
        atom = _mma_src(obj.atom, who)
        if all(p is None for p in obj.permutation):
            return f"cute.make_tiled_mma({atom}, {lay_src})"
        perm = ", ".join(_tile_entry_src(p, shp[i] * obj.atom.shape_mnk[i], who) for i, p in enumerate(obj.permutation))
        return f"cute.make_tiled_mma({atom}, {lay_src}, ({perm}))"
    raise LayoutTypeError(f"{who}: expected a Layout, Swizzle, ComposedLayout, SwizzledSmemLayout, MmaAtom, CopyAtom or "
                          f"TiledMma, got {type(obj).__name__}")
