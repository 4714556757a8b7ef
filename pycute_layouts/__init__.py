"""pycute_layouts: CuTe's layout algebra in pure Python, for people who write Hopper/Blackwell kernels.

Layouts (``Shape:Stride``), the full CuTe algebra, swizzles and composed layouts, CuTe notation
with symbols, and (in ``pycute_layouts.arch``) the hardware facts: wgmma/tcgen05 descriptors,
TMA tensor maps and swizzle modes, SHFL lane maps.

>>> from pycute_layouts import Layout, composition, parse
>>> print(composition(parse("(8,8):(8,1)"), Layout((4, 2), (1, 8))))
(4,2):(8,1)
"""

import importlib as _importlib

from .core.algebra import coalesce, complement, composition, filter, left_inverse, right_inverse, tiler_to_layout
from .core.basis import E, ScaledBasis
from .core.composed import (
    ComposedLayout,
    SwizzledSmemLayout,
    byte_to_element_swizzle,
    element_to_byte_swizzle,
    make_composed_layout,
)
from .core.display import set_display_loader
from .core.f2 import F2
from .core.inttuple import (
    ceil_div,
    compatible,
    congruent,
    crd2idx,
    idx2crd,
    idx2crd_flat,
    prefix_product,
    product,
    shape_div,
    weakly_congruent,
)
from .core.layout import (
    Layout,
    Underscore,
    _,
    cosize,
    depth,
    make_identity_layout,
    make_layout,
    rank,
    shape,
    size,
    slice_and_offset,
    stride,
)
from .core.notation import parse
from .core.swizzle import Swizzle, XorSwizzle, f2_layout, f2_layout_to_xor
from .core.symbols import Divisible, assume_divisible, assumptions, symbols
from .core.tensor import (
    Tensor,
    local_partition,
    local_tile,
    make_identity_tensor,
    make_tensor,
    print_tensor,
    recast_tensor,
    tensor_divide,
)
from .core.tiling import (
    apply_at,
    blocked_product,
    coalesce_z,
    downcast,
    flat_divide,
    flat_product,
    greatest_common_domain,
    layout_add,
    logical_divide,
    logical_product,
    make_ordered_layout,
    max_common_layout,
    max_common_vector,
    nullspace,
    raked_product,
    recast,
    tile_to_shape,
    tiled_divide,
    tiled_product,
    upcast,
    zipped_divide,
    zipped_product,
)
from .core.tuples import (
    append,
    colex_less,
    common_coarsening,
    common_refinement,
    coordinates,
    dice_modes,
    elem_less,
    flatten,
    group_modes,
    lex_less,
    make_layout_like,
    prepend,
    repeat_like,
    select,
    slice_modes,
    take,
    transform_leaf,
    unflatten,
    unwrap,
    wrap,
)
from .errors import (
    AdmissibilityError,
    CongruenceError,
    CoordinateError,
    DescriptorError,
    LayoutError,
    LayoutTypeError,
    LayoutValueError,
    NotationError,
    ProofError,
    ShflError,
    SwizzleError,
    SymbolicUndecidable,
    TensorMapError,
    UnitError,
)
from .version import __version__ as __version__

# Rich display in Jupyter: the pictures (render) load on the first display (core.display says why).
set_display_loader(lambda: _importlib.import_module(f"{__name__}.render"))

#: Names re-exported lazily (their modules are imported on first use, keeping ``import pycute_layouts``
#: light): proofs, kernel-constant generation, analysis and pictures.
_LAZY = {
    "BitVector": "proofs.bitvec",
    "Counterexample": "proofs.bitvec",
    "Proof": "proofs.bitvec",
    "address_bits": "proofs.bitvec",
    "equivalent": "proofs.bitvec",
    "prove_tma_matches_wgmma": "proofs",
    "kernel_constants": "codegen",
    "bank_conflicts": "analysis",
    "conflict_free_swizzles": "analysis",
    "explain": "analysis",
    "LinearLayout": "analysis",
    "to_linear_layout": "analysis",
    "from_linear_layout": "analysis",
    "to_svg": "render",
    "to_tikz": "render",
    "to_png": "render",
}


def __getattr__(name: str) -> object:
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "E",
    "ScaledBasis",
    "F2",
    "apply_at",
    "f2_layout",
    "f2_layout_to_xor",
    "coalesce_z",
    "greatest_common_domain",
    "layout_add",
    "tiler_to_layout",
    "Tensor",
    "elem_less",
    "append",
    "colex_less",
    "common_coarsening",
    "common_refinement",
    "coordinates",
    "dice_modes",
    "group_modes",
    "lex_less",
    "make_layout_like",
    "prepend",
    "repeat_like",
    "select",
    "slice_modes",
    "take",
    "transform_leaf",
    "unflatten",
    "unwrap",
    "wrap",
    "local_partition",
    "local_tile",
    "make_identity_tensor",
    "make_tensor",
    "print_tensor",
    "recast_tensor",
    "tensor_divide",
    "BitVector",
    "Counterexample",
    "Divisible",
    "Proof",
    "address_bits",
    "assume_divisible",
    "assumptions",
    "equivalent",
    "symbols",
    "AdmissibilityError",
    "ComposedLayout",
    "CongruenceError",
    "CoordinateError",
    "DescriptorError",
    "Layout",
    "LayoutError",
    "LayoutTypeError",
    "LayoutValueError",
    "NotationError",
    "ProofError",
    "ShflError",
    "Swizzle",
    "SwizzleError",
    "SwizzledSmemLayout",
    "SymbolicUndecidable",
    "TensorMapError",
    "Underscore",
    "UnitError",
    "XorSwizzle",
    "_",
    "blocked_product",
    "byte_to_element_swizzle",
    "ceil_div",
    "coalesce",
    "compatible",
    "complement",
    "composition",
    "congruent",
    "cosize",
    "crd2idx",
    "depth",
    "downcast",
    "element_to_byte_swizzle",
    "filter",
    "flat_divide",
    "flat_product",
    "flatten",
    "idx2crd",
    "idx2crd_flat",
    "left_inverse",
    "logical_divide",
    "logical_product",
    "make_composed_layout",
    "make_identity_layout",
    "make_layout",
    "make_ordered_layout",
    "max_common_layout",
    "max_common_vector",
    "nullspace",
    "parse",
    "prefix_product",
    "product",
    "raked_product",
    "rank",
    "recast",
    "right_inverse",
    "shape",
    "shape_div",
    "size",
    "slice_and_offset",
    "stride",
    "tile_to_shape",
    "tiled_divide",
    "tiled_product",
    "upcast",
    "weakly_congruent",
    "zipped_divide",
    "zipped_product",
    *_LAZY,
]
