"""Generated CUDA checks of the library's claims for an H100, and the verifier of their result files.

Modules: ``cases`` (the plan of every case, harness addresses, hashing), ``predict`` (what the
library predicts for a case), ``emit`` (the CUDA header, data blob and plan), ``verify`` (a GPU
result file against the predictions, known differences).
"""

from ..errors import HwCheckError
from .cases import ABS_B, ABS_DATA, ABS_PLACE, DYN_SMEM_BYTES, fnv_hash, plan
from .emit import emit
from .predict import mma_constants
from .verify import KNOWN_DIFFERENCES, format_table, verify

__all__ = ['ABS_DATA', 'ABS_B', 'ABS_PLACE', 'DYN_SMEM_BYTES', 'HwCheckError', 'fnv_hash', 'plan', 'mma_constants', 'emit',
           'verify', 'format_table', 'KNOWN_DIFFERENCES']
