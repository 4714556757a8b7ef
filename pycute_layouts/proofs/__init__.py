"""Proofs that each TMA swizzle mode writes exactly the wgmma/tcgen05 swizzle atom: the bit-vector model (``bitvec``), the two sides as numpy models (``model``), the theorem and lemmas (``theorem``)."""

from .model import (
    ARCHS,
    ELEMENT_BITS,
    MAJORS,
    PTX_TCGEN05_FIELDS,
    PTX_TCGEN05_LAYOUT_TYPE,
    PTX_WGMMA_FIELDS,
    PTX_WGMMA_LAYOUT_TYPE,
    TMA_MODES,
    Faults,
    NotApplicable,
    Pairing,
    hardware_descriptor,
    pairing,
    ptx_decode,
    ptx_encode,
    tma_addresses,
    wgmma_addresses,
)
from .theorem import (
    LemmaCounterexample,
    ProofReport,
    TheoremCounterexample,
    TheoremProof,
    check_sizes,
    expected_status,
    prove_base_offset_rule,
    prove_descriptor_encoding,
    prove_k_step,
    prove_pairing,
    prove_tma_matches_wgmma,
    report,
    swizzle_period_lemma,
)

__all__ = ['ARCHS', 'MAJORS', 'ELEMENT_BITS', 'TMA_MODES', 'NotApplicable', 'Faults', 'Pairing', 'pairing', 'tma_addresses', 'wgmma_addresses', 'ptx_encode', 'ptx_decode', 'hardware_descriptor', 'PTX_WGMMA_FIELDS', 'PTX_WGMMA_LAYOUT_TYPE', 'PTX_TCGEN05_FIELDS', 'PTX_TCGEN05_LAYOUT_TYPE', 'TheoremProof', 'TheoremCounterexample', 'prove_tma_matches_wgmma', 'prove_pairing', 'check_sizes', 'prove_k_step', 'prove_base_offset_rule', 'swizzle_period_lemma', 'prove_descriptor_encoding', 'expected_status', 'LemmaCounterexample', 'ProofReport', 'report']
