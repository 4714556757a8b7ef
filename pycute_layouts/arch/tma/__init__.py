"""TMA: the tensor-map parameter enums (``enums``), box -> shared-memory placement (``box``), the
documented rules (``rules``), the ``cuTensorMapEncode*`` parameter models (``maps``), and the reverse
direction, a shared-memory layout -> box, swizzle and copies (``plan``).

Layering inside the package: enums -> box -> rules -> maps -> plan (each imports only the ones
before it). The swizzle mode is :class:`pycute_layouts.arch.swizzle_modes.SwizzleMode`.
"""

from .box import (
    MAX_BOX_BYTES,
    SwizzleModeInfo,
    box_to_smem,
    elements_per_dim,
    pattern_table,
    swizzle_base_offset,
    swizzle_byte_map,
    swizzle_mode_info,
)
from .enums import (
    ARCHS,
    IM2COL,
    IM2COL_WIDE,
    TILED,
    Im2colWideMode,
    Interleave,
    L2Promotion,
    OobFill,
    TensorDataType,
    element_size_bits,
)
from .maps import Im2colTensorMap, Im2colWideTensorMap, TiledTensorMap
from .plan import DTYPE_ALIASES, PLAN_RULES, TmaCopy, TmaLoadPlan, parse_data_type, plan_tma_load
from .rules import RULES, TensorMapRule, TensorMapViolation, rules_for

__all__ = [
    "TensorDataType",
    "Interleave",
    "L2Promotion",
    "OobFill",
    "Im2colWideMode",
    "SwizzleModeInfo",
    "swizzle_mode_info",
    "swizzle_byte_map",
    "swizzle_base_offset",
    "pattern_table",
    "element_size_bits",
    "elements_per_dim",
    "box_to_smem",
    "MAX_BOX_BYTES",
    "TensorMapRule",
    "TensorMapViolation",
    "RULES",
    "rules_for",
    "TiledTensorMap",
    "Im2colTensorMap",
    "Im2colWideTensorMap",
    "TILED",
    "IM2COL",
    "IM2COL_WIDE",
    "ARCHS",
    "TmaCopy",
    "TmaLoadPlan",
    "plan_tma_load",
    "parse_data_type",
    "PLAN_RULES",
    "DTYPE_ALIASES",
]
