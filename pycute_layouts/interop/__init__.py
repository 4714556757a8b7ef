"""Other frameworks' layouts in and out: Triton (Gluon) and NVIDIA's CuTe DSL.

Converters only. The frameworks are optional (``pip install 'pycute-layouts[interop]'``) and are
never imported by ``import pycute_layouts`` or by these modules: :func:`~.triton.from_gluon` asks
Triton in a child process, and the CuTe DSL is only ever read (what it prints) and written
(source for a ``@cute.jit`` function).

>>> from pycute_layouts.interop import from_cute_dsl, to_cute_dsl
>>> print(from_cute_dsl("S<3,4,3> o 0 o (8,64):(64,1)"))
Sw<3,4,3> o 0 o (8,64):(64,1)
"""

from . import cute_dsl, triton
from .cute_dsl import from_cute_dsl, make_layout_tv, to_cute_dsl
from .triton import from_gluon, to_gluon

__all__ = ["triton", "cute_dsl", "from_gluon", "to_gluon", "from_cute_dsl", "to_cute_dsl", "make_layout_tv"]
