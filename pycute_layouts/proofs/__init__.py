"""Proofs that each TMA swizzle mode writes exactly the wgmma/tcgen05 swizzle atom.

Modules, bottom up: ``bitvec`` (the bit-vector model), ``model`` (both sides as numpy models),
``results`` (proofs and counterexamples), ``exhaustive`` (every coordinate of concrete tiles),
``lemmas`` (period, K step, base offset, encoding), ``theorem`` (TMA == wgmma, symbolic and exhaustive),
``report`` (the classified table).
"""

from .exhaustive import check_sizes
from .lemmas import prove_base_offset_rule, prove_descriptor_encoding, prove_k_step, swizzle_period_lemma
from .model import (
    ARCHS,
    ELEMENT_BITS,
    MAJORS,
    PTX_PATTERN_BOUNDARY_BYTES,
    PTX_SWIZZLE_XOR,
    PTX_TCGEN05_FIELDS,
    PTX_TCGEN05_LAYOUT_TYPE,
    PTX_WGMMA_FIELDS,
    PTX_WGMMA_LAYOUT_TYPE,
    TMA_MODES,
    Faults,
    NotApplicable,
    Pairing,
    fact_scope,
    hardware_descriptor,
    pairing,
    ptx_base_offset,
    ptx_decode,
    ptx_encode,
    ptx_swizzle,
    tma_addresses,
    wgmma_addresses,
)
from .report import ProofReport, expected_status, report
from .results import LemmaCounterexample, TheoremCounterexample, TheoremProof
from .theorem import prove_pairing, prove_tma_matches_wgmma

__all__ = [
    'ARCHS', 'MAJORS', 'ELEMENT_BITS', 'TMA_MODES', 'NotApplicable', 'Faults', 'Pairing', 'pairing', 'tma_addresses',
    'wgmma_addresses', 'ptx_encode', 'ptx_decode', 'hardware_descriptor', 'PTX_WGMMA_FIELDS', 'PTX_WGMMA_LAYOUT_TYPE',
    'PTX_TCGEN05_FIELDS', 'PTX_TCGEN05_LAYOUT_TYPE', 'TheoremProof', 'TheoremCounterexample', 'prove_tma_matches_wgmma',
    'prove_pairing', 'check_sizes', 'prove_k_step', 'prove_base_offset_rule', 'swizzle_period_lemma',
    'prove_descriptor_encoding', 'expected_status', 'LemmaCounterexample', 'ProofReport', 'report',
    'PTX_SWIZZLE_XOR', 'PTX_PATTERN_BOUNDARY_BYTES', 'ptx_swizzle', 'ptx_base_offset', 'fact_scope',
]
