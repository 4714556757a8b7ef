"""The layout algebra, which knows no hardware.

Modules, bottom to top (each imports only from those before it): ``symbols`` (sympy leaves and the
facts users state), ``inttuple`` (hierarchical integer tuples), ``layout`` (the ``Layout`` type:
construct, call, slice, print), ``admissibility`` (why a composition is refused), ``algebra`` (the
operations: coalesce ... products, tile_to_shape, casts), ``swizzle`` (``Swizzle<B,M,S>``, XOR maps),
``composed`` (``ComposedLayout``, swizzled shared-memory layouts with explicit units) and
``notation`` (CuTe notation in and out). The CuTe names are re-exported by :mod:`pycute_layouts`.
"""
