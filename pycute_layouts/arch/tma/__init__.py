"""TMA: tensor-map parameter models and their rules (``maps``), box -> shared-memory placement, and the reverse direction, a shared-memory layout -> box, swizzle and copies (``plan``)."""

from .maps import (
    IM2COL,
    IM2COL_WIDE,
    RULES,
    TILED,
    Im2colTensorMap,
    Im2colWideMode,
    Im2colWideTensorMap,
    Interleave,
    L2Promotion,
    OobFill,
    SwizzleModeInfo,
    TensorDataType,
    TensorMapRule,
    TensorMapViolation,
    TiledTensorMap,
    TmaSwizzle,
    box_to_smem,
    element_size_bits,
    elements_per_dim,
    pattern_table,
    rules_for,
    swizzle_base_offset,
    swizzle_byte_map,
    swizzle_mode_info,
)
from .plan import DTYPE_ALIASES, PLAN_RULES, TmaCopy, TmaLoadPlan, parse_data_type, plan_tma_load

__all__ = ['TmaSwizzle', 'TensorDataType', 'Interleave', 'L2Promotion', 'OobFill', 'Im2colWideMode', 'SwizzleModeInfo', 'swizzle_mode_info', 'swizzle_byte_map', 'swizzle_base_offset', 'pattern_table', 'element_size_bits', 'elements_per_dim', 'box_to_smem', 'TensorMapRule', 'TensorMapViolation', 'RULES', 'rules_for', 'TiledTensorMap', 'Im2colTensorMap', 'Im2colWideTensorMap', 'TILED', 'IM2COL', 'IM2COL_WIDE', 'TmaCopy', 'TmaLoadPlan', 'plan_tma_load', 'parse_data_type', 'PLAN_RULES', 'DTYPE_ALIASES']
