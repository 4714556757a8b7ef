"""``pycute-layouts``: the command line (:func:`main`), one module per subcommand in ``commands``."""

from .main import main

__all__ = ["main"]
