"""``python -m pycute_layouts.cli``: the same command line as ``pycute-layouts``."""

import sys

from .main import main

sys.exit(main())
