"""Kernel constants from a spec: C++/CUDA header, Python module, JSON (every fact asked of ``arch``)."""

from .kernel import (
    DTYPES,
    MMA_K_BYTES,
    DType,
    KernelConstants,
    KernelSpec,
    OperandConstants,
    OperandSpec,
    SpecError,
    canonical_match,
    cute_layout_type,
    describe_layout,
    describe_operand,
    emit_header,
    emit_json,
    emit_python,
    kernel_constants,
    load_spec,
    parse_dtype,
    parse_spec,
)

__all__ = ['DTYPES', 'DType', 'KernelConstants', 'KernelSpec', 'MMA_K_BYTES', 'OperandConstants', 'OperandSpec', 'SpecError', 'canonical_match', 'cute_layout_type', 'describe_layout', 'describe_operand', 'emit_header', 'emit_json', 'emit_python', 'kernel_constants', 'load_spec', 'parse_dtype', 'parse_spec']
