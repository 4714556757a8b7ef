"""tcgen05 (sm100): the shared-memory descriptor (``smem``), the 32-bit instruction descriptor
(``idesc``) and block-scaled operands' scale factors (``sf``). See
:mod:`pycute_layouts.arch.umma.smem` for the descriptor's bit table.
"""

from .idesc import (
    BLOCK_SCALED_KINDS,
    INSTR_KINDS,
    SMEM_TYPE_TO_IDESC,
    InstrDescriptor,
    describe_value,
    header_lines,
    instr_desc_for_operands,
    kind_for_operand_types,
)
from .sf import (
    COPY_SHAPES,
    SF_VEC_SIZES,
    copy_source_desc,
    sf_chunk_layout,
    sf_copy_desc,
    sf_gmem_layout,
    sf_per_mma,
    sf_smem_layout,
    tmem_sf_layout,
    warpx4_placement,
)
from .smem import (
    CANONICAL_LAYOUTS,
    SmemDescriptor,
    SwizzleMode,
    UmmaSmemDescriptor,
    canonical_layout,
    make_smem_desc,
    smem_atom,
)

__all__ = [
    "CANONICAL_LAYOUTS",
    "SmemDescriptor",
    "SwizzleMode",
    "UmmaSmemDescriptor",
    "canonical_layout",
    "make_smem_desc",
    "smem_atom",
    "InstrDescriptor",
    "INSTR_KINDS",
    "BLOCK_SCALED_KINDS",
    "SMEM_TYPE_TO_IDESC",
    "describe_value",
    "header_lines",
    "instr_desc_for_operands",
    "kind_for_operand_types",
    "COPY_SHAPES",
    "SF_VEC_SIZES",
    "copy_source_desc",
    "sf_chunk_layout",
    "sf_copy_desc",
    "sf_gmem_layout",
    "sf_per_mma",
    "sf_smem_layout",
    "tmem_sf_layout",
    "warpx4_placement",
]
