"""Compatibility shim: the bank-conflict checks live in :mod:`pycute_layouts.hwcheck.banks_check` now.

``pycute-layouts hwcheck --emit DIR`` writes their sources with every other check; this file keeps the old
entry point (``python examples/hardware/banks/gen_banks.py OUTDIR``) and the names tests import.
"""

import sys
from pathlib import Path

from pycute_layouts.hwcheck.banks_check import *  # noqa: F401,F403
from pycute_layouts.hwcheck.banks_check import emit

if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("usage: gen_banks.py OUTDIR", file=sys.stderr)
        sys.exit(2)
    rows = emit(Path(sys.argv[1]))
    print(f"{len(rows)} cases written to {sys.argv[1]}")
