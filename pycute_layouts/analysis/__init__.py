"""Analyses of layouts: shared-memory bank conflicts (``banks``), F2 linear layouts (``linear``) and ``explain``."""

from .banks import (
    BANK_WIDTH_BYTES,
    NUM_BANKS,
    AccessPattern,
    BankConflicts,
    SwizzleCandidate,
    bank_conflicts,
    conflict_free_swizzles,
    ldmatrix_pattern,
    parse_pattern,
    phases_for,
    stmatrix_pattern,
    vector_pattern,
)
from .explain import EXPLAIN_MAX_SIZE, LayoutExplanation, explain
from .linear import LinearLayout, from_linear_layout, to_linear_layout

__all__ = [
    'NUM_BANKS', 'BANK_WIDTH_BYTES', 'AccessPattern', 'BankConflicts', 'SwizzleCandidate', 'bank_conflicts', 'ldmatrix_pattern',
    'stmatrix_pattern', 'vector_pattern', 'conflict_free_swizzles', 'parse_pattern', 'phases_for', 'LinearLayout',
    'to_linear_layout', 'from_linear_layout', 'EXPLAIN_MAX_SIZE', 'LayoutExplanation', 'explain',
]
