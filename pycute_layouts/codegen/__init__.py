"""Kernel constants from a spec: C++/CUDA header, Python module, JSON (every fact asked of ``arch``).

Modules: ``spec`` (parse and validate the spec), ``constants`` (derive every operand's constants),
``header`` (the C++ header), ``pymodule`` (the Python module and JSON),
``checks`` (kernel-level rules: A/B type pair, equal K, the block's shared-memory budget).
"""

from ..errors import SpecError
from .checks import SMEM_BYTES_PER_BLOCK, KernelViolation, check_kernel, kernel_violations
from .constants import (
    KernelConstants,
    OperandConstants,
    canonical_match,
    cute_layout_type,
    describe_layout,
    describe_operand,
    kernel_constants,
)
from .header import emit_header
from .pymodule import emit_json, emit_python
from .spec import DTYPES, MMA_K_BYTES, DType, KernelSpec, OperandSpec, load_spec, parse_dtype, parse_spec

__all__ = ['SMEM_BYTES_PER_BLOCK', 'KernelViolation', 'check_kernel', 'kernel_violations',
           'DTYPES', 'DType', 'KernelConstants', 'KernelSpec', 'MMA_K_BYTES', 'OperandConstants', 'OperandSpec', 'SpecError',
           'canonical_match', 'cute_layout_type', 'describe_layout', 'describe_operand', 'emit_header', 'emit_json',
           'emit_python', 'kernel_constants', 'load_spec', 'parse_dtype', 'parse_spec']
