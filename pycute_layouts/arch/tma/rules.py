"""TMA rules: every documented ``cuTensorMapEncode*`` constraint, by id (the ``RULES`` table).

Sources: the CUDA driver API section "Tensor Map Object Management" (reference ``002_*.txt``),
PTX ISA 5.5.5-5.5.7 (reference ``000_*.txt``) and the architecture rules of
docs/hardware-validation.md.

>>> RULES["swizzle.b96_not_encodable"].functions[0]
'cuTensorMapEncodeTiled'
"""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import TensorMapError
from ...limits import check_fields, fmt
from .enums import ALL_FUNCTIONS, IM2COL, IM2COL_WIDE, TILED

__all__ = ["TensorMapRule", "TensorMapViolation", "RULES", "rules_for"]


# ---------------------------------------------------------------------------------------------
# Rules
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TensorMapRule:
    """One documented constraint: its id, the functions it binds, the reference text, how it is checked.

    ``checked_by`` is "validate" (reported by ``violations()``), "parse" (enforced when the map is
    built) or "not checked" (out of scope; the docs say why).

    >>> RULES["box_dim.range"].functions
    ('cuTensorMapEncodeTiled',)
    """

    id: str
    functions: tuple[str, ...]
    statement: str
    text: str
    source: str = "002"
    checked_by: str = "validate"

    def __post_init__(self) -> None:
        check_fields(self)


@dataclass(frozen=True)
class TensorMapViolation:
    """A violated rule: its id and the message naming the rule and the values.

    >>> TensorMapViolation("box_dim.range", "cuTensorMapEncodeTiled: ...").rule
    'box_dim.range'
    """

    rule: str
    message: str

    def __post_init__(self) -> None:
        check_fields(self)

    def __str__(self) -> str:
        return self.message


_T, _I, _W = (TILED,), (IM2COL,), (IM2COL_WIDE,)
_TI = (TILED, IM2COL)
_IW = (IM2COL, IM2COL_WIDE)
_A = ALL_FUNCTIONS


def _r(
    id: str,
    functions: tuple[str, ...],
    statement: str,
    text: str,
    source: str = "002",
    checked_by: str = "validate",
) -> TensorMapRule:
    return TensorMapRule(id, functions, statement, text, source, checked_by)


_RULE_LIST: list[TensorMapRule] = [
    _r(
        "tensor_map.align64",
        _A,
        "the tensorMap object must be 64-byte aligned",
        "tensorMap address must be aligned to 64 bytes.",
        checked_by="not checked",
    ),
    _r(
        "enum.data_type",
        _A,
        "tensorDataType must be a CUtensorMapDataType",
        "tensorDataType has to be an enum from CUtensorMapDataType",
        checked_by="parse",
    ),
    _r(
        "enum.interleave",
        _A,
        "interleave must be a CUtensorMapInterleave",
        "interleave specifies the interleaved layout of type CUtensorMapInterleave",
        checked_by="parse",
    ),
    _r(
        "enum.swizzle",
        _A,
        "swizzle must be a CUtensorMapSwizzle",
        "swizzle ... has to be of type CUtensorMapSwizzle",
        checked_by="parse",
    ),
    _r(
        "enum.l2_promotion",
        _A,
        "l2Promotion must be a CUtensorMapL2promotion",
        "It must be of type CUtensorMapL2promotion",
        checked_by="parse",
    ),
    _r(
        "enum.oob_fill",
        _A,
        "oobFill must be a CUtensorMapFloatOOBfill",
        "oobFill ... must be of type CUtensorMapFloatOOBfill",
        checked_by="parse",
    ),
    _r(
        "enum.mode",
        _W,
        "mode must be a CUtensorMapIm2ColWideMode",
        "mode ... has to be one of the following CUtensorMapIm2ColWideMode types",
        checked_by="parse",
    ),
    _r(
        "rank.tiled_range",
        _T,
        "tensorRank must be in [1, 5]",
        "tensorRank must be non-zero and less than or equal to the maximum supported dimensionality of 5.",
    ),
    _r(
        "rank.im2col_range",
        _IW,
        "tensorRank must be 3, 4, or 5",
        "tensorRank, which specifies the number of tensor dimensions, must be 3, 4, or 5.",
    ),
    _r(
        "rank.interleave_min3",
        _T,
        "tensorRank must be >= 3 when interleave is not NONE",
        "If interleave is not CU_TENSOR_MAP_INTERLEAVE_NONE, then tensorRank must additionally be greater "
        "than or equal to 3.",
    ),
    _r(
        "length.global_dim",
        _A,
        "globalDim must have tensorRank entries",
        "globalDim - Array containing tensor size (number of elements) along each of the tensorRank "
        "dimensions",
    ),
    _r(
        "length.global_strides",
        _A,
        "globalStrides must have tensorRank - 1 entries",
        "globalStrides - Array containing stride size (in bytes) along each of the tensorRank - 1 dimensions",
    ),
    _r(
        "length.box_dim",
        _T,
        "boxDim must have tensorRank entries",
        "boxDim - Array containing traversal box size (number of elments) along each of the tensorRank "
        "dimensions.",
    ),
    _r(
        "length.element_strides",
        _A,
        "elementStrides must have tensorRank entries",
        "elementStrides - Array containing traversal stride in each of the tensorRank dimensions",
    ),
    _r(
        "length.pixel_box_corners",
        _I,
        "pixelBoxLowerCorner and pixelBoxUpperCorner must have tensorRank - 2 entries",
        "When tensorRank is 3, one signed offset ... When tensorRank is 4, two signed offsets ... When "
        "tensorRank is "
        "5, three offsets",
    ),
    _r(
        "global_address.align16",
        _A,
        "globalAddress must be 16-byte aligned",
        "globalAddress, which specifies the starting address of the memory region described, must be 16 byte "
        "aligned.",
    ),
    _r(
        "global_address.align32_interleave32",
        _A,
        "globalAddress must be 32-byte aligned when interleave is 32B",
        "When interleave is CU_TENSOR_MAP_INTERLEAVE_32B, globalAddress must be 32 byte aligned.",
    ),
    _r(
        "global_address.align32_packed16",
        _A,
        "globalAddress must be 32-byte aligned for 16U6_ALIGN16B and 16U4_ALIGN16B",
        "When tensorDataType is CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B or "
        "CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B, "
        "globalAddress must be 32 byte aligned.",
    ),
    _r(
        "global_dim.range",
        _A,
        "globalDim must be non-zero and <= 2^32",
        "globalDim array ... must be non-zero and less than or equal to 2^32.",
    ),
    _r(
        "global_dim.packed16_multiple128",
        _A,
        "globalDim[0] must be a multiple of 128 for 16U6_ALIGN16B and 16U4_ALIGN16B",
        "When tensorDataType is CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B or "
        "CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B, "
        "globalDim[0] must be a multiple of 128.",
    ),
    _r(
        "global_dim.u4align8_multiple2",
        _A,
        "globalDim[0] must be a multiple of 2 for 16U4_ALIGN8B",
        "When tensorDataType is CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B, globalDim[0] must be a multiple of 2.",
    ),
    _r(
        "global_dim.packed_counts_values",
        _A,
        "globalDim counts individual U# values for the packed types",
        "Dimension for the packed data types must reflect the number of individual U# values.",
        checked_by="not checked",
    ),
    _r(
        "global_strides.multiple16",
        _A,
        "globalStrides must be a multiple of 16",
        "globalStrides array ... must be a multiple of 16 and less than 2^40.",
    ),
    _r(
        "global_strides.range",
        _A,
        "globalStrides must be less than 2^40 (and not negative)",
        "globalStrides array ... must be a multiple of 16 and less than 2^40.",
    ),
    _r(
        "global_strides.multiple32_interleave32",
        _A,
        "globalStrides must be a multiple of 32 when interleave is 32B",
        "When interleave is CU_TENSOR_MAP_INTERLEAVE_32B, the strides must be a multiple of 32.",
    ),
    _r(
        "global_strides.multiple32_packed16",
        _A,
        "globalStrides must be a multiple of 32 for 16U6_ALIGN16B and 16U4_ALIGN16B",
        "When tensorDataType is CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B or "
        "CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B, "
        "the strides must be a multiple of 32.",
    ),
    _r(
        "global_strides.packed16_padding",
        _A,
        "for 16U6_ALIGN16B and 16U4_ALIGN16B each stride must include the previous one (padding >= 0)",
        "globalStrides[0] = globalDim[0] * elementSizeInBytes(tensorDataType) + padding[0]; for (i = 1; i < "
        "tensorRank - 1; i++) globalStrides[i] = globalStrides[i - 1] * (globalDim[i] + padding[i]); "
        "assert(globalStrides[i] >= globalDim[i]);",
    ),
    _r(
        "global_strides.padding",
        _A,
        "each stride must include the previous dimension (padding >= 0): globalStrides[0] >= globalDim[0] * "
        "elementSize and globalStrides[i] >= globalStrides[i - 1] * globalDim[i]",
        "Each following dimension specified includes previous dimension stride: globalStrides[0] = globalDim[0] * "
        "elementSizeInBytes(tensorDataType) + padding[0]; for (i = 1; i < tensorRank - 1; i++) globalStrides[i] = "
        "globalStrides[i - 1] * (globalDim[i] + padding[i]);",
    ),
    _r(
        "box_dim.range",
        _T,
        "boxDim must be non-zero and <= 256",
        "boxDim array ... must be non-zero and less than or equal to 256.",
    ),
    _r(
        "box_dim.inner_bytes_multiple16",
        _T,
        "boxDim[0] * elementSize must be a multiple of 16 bytes when interleave is NONE",
        "When interleave is CU_TENSOR_MAP_INTERLEAVE_NONE, "
        "{ boxDim[0] * elementSizeInBytes( tensorDataType ) } "
        "must be a multiple of 16 bytes.",
    ),
    _r(
        "box_dim.packed16_is128",
        _T,
        "boxDim[0] must be 128 for 16U6_ALIGN16B and 16U4_ALIGN16B",
        "When tensorDataType is CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B or "
        "CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B, "
        "boxDim[0] must be 128.",
    ),
    _r(
        "element_strides.range",
        _A,
        "elementStrides must be non-zero and <= 8",
        "elementStrides array ... must be non-zero and less than or equal to 8.",
    ),
    _r(
        "swizzle.inner_box_span",
        _A,
        "the bounding box inner dimension must be <= the swizzle span when interleave is NONE",
        "When interleave is CU_TENSOR_MAP_INTERLEAVE_NONE and swizzle is not CU_TENSOR_MAP_SWIZZLE_NONE, the "
        "bounding box inner dimension (computed as boxDim[0] [channelsPerPixel for im2col] multiplied by "
        "element "
        "size derived from tensorDataType) must be less than or equal to the swizzle size. 32B: <= 32, 64B: "
        "<= 64, "
        "128B*: <= 128.",
    ),
    _r(
        "interleave.u6_requires_none",
        _A,
        "16U6_ALIGN16B requires interleave NONE",
        "tensorDataType of CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B requires interleave to be "
        "CU_TENSOR_MAP_INTERLEAVE_NONE.",
    ),
    _r(
        "interleave.wide_none",
        _W,
        "interleave must be NONE for im2col::w / im2col::w::128",
        "The interleave layout is not supported for .im2col::w and .im2col::w::128 modes.",
        source="000 5.5.6",
    ),
    _r(
        "swizzle.interleave32_requires_32B",
        _TI,
        "swizzle must be 32B when interleave is 32B",
        "When interleave is CU_TENSOR_MAP_INTERLEAVE_32B, swizzle must be CU_TENSOR_MAP_SWIZZLE_32B.",
    ),
    _r(
        "swizzle.u6_allowed",
        _TI,
        "16U6_ALIGN16B supports swizzle NONE, 128B, 128B_ATOM_32B (load & store) and 128B_ATOM_64B (store "
        "only)",
        "When the tensorDataType is CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B, only the following swizzle modes "
        "are "
        "supported: NONE (Load & Store), 128B (Load & Store), 128B_ATOM_32B (Load & Store), 128B_ATOM_64B "
        "(Store only)",
    ),
    _r(
        "swizzle.u4align16_allowed",
        _TI,
        "16U4_ALIGN16B supports swizzle NONE, 128B, 128B_ATOM_32B (load only)",
        "When the tensorDataType is CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B, only the following swizzle modes "
        "are "
        "supported: NONE (Load only), 128B (Load only), 128B_ATOM_32B (Load only)",
    ),
    _r(
        "swizzle.wide_allowed",
        _W,
        "swizzle must be 64B, 128B or 128B_ATOM_32B",
        "swizzle ... must be one of the following CUtensorMapSwizzle modes (other swizzle modes are not "
        "supported): "
        "CU_TENSOR_MAP_SWIZZLE_64B, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B",
    ),
    _r(
        "swizzle.wide_u6_allowed",
        _W,
        "16U6_ALIGN16B supports swizzle 128B and 128B_ATOM_32B (load & store)",
        "When the tensorDataType is CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B, only the following swizzle modes "
        "are "
        "supported: 128B (Load & Store), 128B_ATOM_32B (Load & Store)",
    ),
    _r(
        "swizzle.wide_u4align16_allowed",
        _W,
        "16U4_ALIGN16B supports swizzle 128B and 128B_ATOM_32B (load only)",
        "When the tensorDataType is CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B, only the following swizzle modes "
        "are "
        "supported: 128B (Load only), 128B_ATOM_32B (Load only)",
    ),
    _r(
        "swizzle.flip8b_load_only",
        _TI,
        "128B_ATOM_32B_FLIP_8B is legal only for loads (global -> shared)",
        "Note that this mode is legal only when cp.async.bulk.tensor specifies the copy direction as "
        ".shared::cluster.global or otherwise .shared::cta.global.",
        source="000 5.5.7",
    ),
    _r(
        "swizzle.b96_not_encodable",
        _A,
        "the 96-byte swizzle mode has no CUtensorMapSwizzle value",
        "CUtensorMapSwizzle lists NONE, 32B, 64B, 128B, 128B_ATOM_32B, 128B_ATOM_32B_FLIP_8B, 128B_ATOM_64B "
        "(PTX 5.5.7's 96B mode is absent).",
    ),
    _r(
        "oob_fill.float_only",
        _A,
        "NAN_REQUEST_ZERO_FMA requires a floating-point tensorDataType that is not a packed type",
        "CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA can only be used when tensorDataType represents a "
        "floating-point data type, and when tensorDataType is not CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B, "
        "CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B, and CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B.",
    ),
    _r(
        "pixel_box.range",
        _I,
        "pixel box corner offsets must be in range for tensorRank",
        "When tensorRank is 3, one signed offset within range [-32768, 32767] is supported. When tensorRank "
        "is 4, "
        "two signed offsets each within range [-128, 127] are supported. When tensorRank is 5, three offsets "
        "each "
        "within range [-16, 15] are supported.",
    ),
    _r(
        "pixel_box.nonzero_area",
        _I,
        "the bounding box must have non-zero area",
        "The bounding box specified by pixelBoxLowerCorner and pixelBoxUpperCorner must have non-zero area.",
    ),
    _r(
        "pixel_box_width.range",
        _W,
        "pixelBoxLowerCornerWidth and pixelBoxUpperCornerWidth must be in [-32768, 32767]",
        "pixelBoxLowerCornerWidth ... The offset must be within range [-32768, 32767]. "
        "pixelBoxUpperCornerWidth ... "
        "The offset must be within range [-32768, 32767].",
    ),
    _r(
        "pixel_box_width.nonzero_area",
        _W,
        "the bounding box must have non-zero area",
        "The bounding box specified by pixelBoxLowerCornerWidth and pixelBoxUpperCornerWidth must have "
        "non-zero area.",
    ),
    _r(
        "channels_per_pixel.range",
        _IW,
        "channelsPerPixel must be non-zero and <= 256",
        "channelsPerPixel, which specifies the number of elements which must be accessed along C dimension, "
        "must be "
        "less than or equal to 256.",
    ),
    _r(
        "channels_per_pixel.packed16_is128",
        _IW,
        "channelsPerPixel must be 128 for 16U6_ALIGN16B and 16U4_ALIGN16B",
        "when tensorDataType is CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B or "
        "CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B, "
        "channelsPerPixel must be 128.",
    ),
    _r(
        "pixels_per_column.range",
        _IW,
        "pixelsPerColumn must be non-zero and <= 1024",
        "pixelsPerColumn ... must be less than or equal to 1024. [im2col-wide:] This field is ignored when "
        "mode is "
        "CU_TENSOR_MAP_IM2COL_WIDE_MODE_W128.",
    ),
]

_RULE_LIST += [
    _r(
        "arch.swizzle_sm100",
        _A,
        "the 128B_ATOM swizzle modes need compute capability 10.0 (rejected by the H100's driver)",
        "Observed on an H100 (driver 580.159.04): CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B, _32B_FLIP_8B and _64B "
        "give CUDA_ERROR_INVALID_VALUE (examples/hardware/results, docs/hardware-validation.md).",
        source="hardware",
    ),
    _r(
        "arch.data_type_sm100",
        _A,
        "the 16U4_ALIGN16B and 16U6_ALIGN16B types need compute capability 10.0 (rejected by the H100's driver)",
        "Observed on an H100 (driver 580.159.04): a 16U4_ALIGN16B map valid by every documented rule gives "
        "CUDA_ERROR_INVALID_VALUE; 16U6_ALIGN16B is assumed to behave the same (not run).",
        source="hardware",
    ),
    _r(
        "arch.im2col_wide_sm100",
        _W,
        "cuTensorMapEncodeIm2colWide needs compute capability 10.0",
        "This API is only supported on devices of compute capability 10.0 or higher.",
    ),
]

RULES: dict[str, TensorMapRule] = {r.id: r for r in _RULE_LIST}
del _T, _I, _W, _TI, _IW, _A


def rules_for(function: str, checked_by: str | None = "validate") -> list[TensorMapRule]:
    """The rules binding one ``cuTensorMapEncode*`` function (by default only those ``violations()`` reports).

    Pre: ``function`` is TILED, IM2COL or IM2COL_WIDE. Post: the rules in table order.

    >>> [r.id for r in rules_for("cuTensorMapEncodeIm2colWide")][:3]
    ['rank.im2col_range', 'length.global_dim', 'length.global_strides']
    """
    if not isinstance(function, str) or function not in ALL_FUNCTIONS:
        raise TensorMapError(
            f"rules_for: unknown function {fmt(function)}; expected one of {', '.join(ALL_FUNCTIONS)}"
        )
    return [
        r
        for r in _RULE_LIST
        if function in r.functions and (checked_by is None or r.checked_by == checked_by)
    ]
