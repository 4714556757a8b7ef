"""Generated CUDA checks of the library's claims for an H100, and the verifier of their result files."""

from .cases import (
    ABS_B,
    ABS_DATA,
    ABS_PLACE,
    DYN_SMEM_BYTES,
    KNOWN_DIFFERENCES,
    HwCheckError,
    emit,
    fnv_hash,
    format_table,
    mma_constants,
    plan,
    verify,
)

__all__ = ['ABS_DATA', 'ABS_B', 'ABS_PLACE', 'DYN_SMEM_BYTES', 'HwCheckError', 'fnv_hash', 'plan', 'mma_constants', 'emit', 'verify', 'format_table', 'KNOWN_DIFFERENCES']
