"""``python -m pycute_layouts``: the same command line as ``pycute-layouts``."""

import sys

from .cli import main

sys.exit(main())
