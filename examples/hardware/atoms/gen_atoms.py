"""Compatibility shim: the atom checks live in :mod:`pycute_layouts.hwcheck.atoms_check` now.

``pycute-layouts hwcheck --emit DIR`` writes their sources with every other check; this file keeps the old
entry point (``python examples/hardware/atoms/gen_atoms.py OUTDIR``) and the names tests import.
"""

import sys
from pathlib import Path

from pycute_layouts.arch import atoms  # noqa: F401  (re-exported for tests)
from pycute_layouts.hwcheck.atoms_check import *  # noqa: F401,F403
from pycute_layouts.hwcheck.atoms_check import emit

if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: gen_atoms.py OUTDIR")
    p = emit(Path(sys.argv[1]))
    print(f"wrote {len(p['cases'])} cases to {sys.argv[1]}")
