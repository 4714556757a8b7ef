"""Generated CUDA checks of the library's claims for an H100, and the verifier of their result files.

The one harness for every hardware claim: ``emit(DIR)`` writes every generated source,
``examples/hardware/run.sh DIR OUT`` builds and runs them into one result file, ``verify(OUT)``
recomputes every prediction. Modules: ``cases`` (the plan of the TMA / im2col / validation / wgmma
cases, harness addresses, hashing), ``predict`` (what the library predicts for a case), ``emit``
(every source), ``atoms_check`` (thread-value layouts of atoms, tiled copies, cp.async), ``atoms_complex`` (CuTe's
complex f64 atoms and dp2a run as themselves),
``banks_check`` (bank conflicts), ``gemm`` (the GEMM built from codegen constants), ``verify``
(a result file of any kind against the predictions, known differences).
"""

from ..errors import HwCheckError
from .cases import ABS_B, ABS_DATA, ABS_PLACE, DYN_SMEM_BYTES, fnv_hash, plan
from .emit import emit
from .predict import mma_constants
from .verify import KNOWN_DIFFERENCES, format_table, verify

__all__ = ['ABS_DATA', 'ABS_B', 'ABS_PLACE', 'DYN_SMEM_BYTES', 'HwCheckError', 'fnv_hash', 'plan', 'mma_constants', 'emit',
           'verify', 'format_table', 'KNOWN_DIFFERENCES']
