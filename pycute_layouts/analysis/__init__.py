"""Analyses of layouts: shared-memory bank conflicts (``banks``), F2 linear layouts (``linear``),
``explain``, the image / footprint / gaps / aliasing / permutation cycles of a layout (``footprint``)
and the global-memory and grouped bank cost of a thread-value access (``coalescing``).

Each submodule's ``__all__`` is its list of public names; this package re-exports them all (and
``pycute_layouts`` re-exports them at the top level).
"""

from .banks import *  # noqa: F403
from .banks import __all__ as _banks_all
from .coalescing import *  # noqa: F403
from .coalescing import __all__ as _coalescing_all
from .explain import *  # noqa: F403
from .explain import __all__ as _explain_all
from .footprint import *  # noqa: F403
from .footprint import __all__ as _footprint_all
from .linear import *  # noqa: F403
from .linear import __all__ as _linear_all

__all__ = [*_banks_all, *_linear_all, *_explain_all, *_footprint_all, *_coalescing_all]
