"""The package version (bottom layer: imports nothing of ours).

>>> __version__.count(".")
2
"""

__all__ = ["__version__"]

__version__ = "0.1.0"
