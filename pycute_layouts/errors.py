"""Every error the package raises derives from :class:`LayoutError`.

Messages name the violated rule and the offending values, e.g.
``composition: shape divisibility fails: ...``. Validation never uses ``assert``
(it vanishes under ``python -O``).

>>> issubclass(AdmissibilityError, LayoutError)
True
"""

from __future__ import annotations

__all__ = [
    "LayoutError",
    "LayoutValueError",
    "LayoutTypeError",
    "CongruenceError",
    "AdmissibilityError",
    "CoordinateError",
    "SwizzleError",
    "NotationError",
    "SymbolicUndecidable",
    "UnitError",
    "DescriptorError",
    "TensorMapError",
    "SwizzleModeError",
    "ShflError",
    "ProofError",
    "SpecError",
    "HwCheckError",
    "MissingDependencyError",
]


class LayoutError(ValueError):
    """Base class of every error raised by pycute_layouts.

    It subclasses ValueError so that generic callers that catch ValueError keep working.

    >>> try:
    ...     raise LayoutError("example")
    ... except ValueError as e:
    ...     print(e)
    example
    """


class LayoutValueError(LayoutError):
    """A value is not acceptable (negative or zero size, non-integer shape, ...).

    >>> from pycute_layouts import Layout
    >>> Layout((4, -2))
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.LayoutValueError: Layout: shape leaves must be non-negative ...
    """


class LayoutTypeError(LayoutError, TypeError):
    """An argument has the wrong type (a string where an IntTuple is expected, ...).

    >>> from pycute_layouts import Layout
    >>> Layout(2.5)
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.LayoutTypeError: Layout: shape leaves must be int or sympy integer expressions, got 2.5 (float)
    """


class CongruenceError(LayoutError):
    """Shape and stride (or coordinate and shape) do not have the same profile.

    >>> from pycute_layouts import Layout
    >>> Layout((4, 2), (1,))
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.CongruenceError: Layout: shape (4,2) and stride (1) are not congruent ...
    """


class AdmissibilityError(LayoutError):
    """An algebra operation's precondition fails (CuTe's divisibility conditions, injectivity).

    >>> from pycute_layouts.core.inttuple import shape_div
    >>> shape_div(6, 4)
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.AdmissibilityError: shape_div: divisibility fails: neither 6 nor 4 divides the other
    """


class CoordinateError(LayoutError, IndexError):
    """A coordinate is out of range (when range checking was asked for) or malformed.

    >>> from pycute_layouts import Layout
    >>> Layout(4)(5, check=True)
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.CoordinateError: Layout 4:1: index 5 is out of range [0, 4)
    """


class SwizzleError(LayoutError):
    """Bad Swizzle<B,M,S> parameters or an XOR map that is not what was asked.

    >>> from pycute_layouts import Swizzle
    >>> Swizzle(3, 4, 2)
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.SwizzleError: Swizzle<3,4,2>: |S| >= B is required ...
    """


class NotationError(LayoutError):
    """CuTe notation that cannot be parsed; the message points at the column.

    >>> print(NotationError("expected ':'", "(8,4)(4,1)", 5))
    expected ':'
      (8,4)(4,1)
           ^ (column 6)
    """

    def __init__(self, message: str, text: str | None = None, column: int | None = None):
        self.text = text
        self.column = column
        if text is not None and column is not None:
            message = f"{message}\n  {text}\n  {' ' * column}^ (column {column + 1})"
        super().__init__(message)


class SymbolicUndecidable(LayoutError):
    """A condition on symbolic shapes/strides cannot be decided from the symbols' assumptions.

    >>> from pycute_layouts.core.inttuple import shape_div
    >>> from pycute_layouts.core.symbols import symbol
    >>> shape_div(symbol("m"), 4)
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.SymbolicUndecidable: cannot decide whether 4 divides m ...
    """


class UnitError(LayoutError):
    """Bytes and elements were mixed, or an element width makes a conversion impossible.

    >>> from pycute_layouts import Swizzle, byte_to_element_swizzle
    >>> byte_to_element_swizzle(Swizzle(3, 4, 3), 12)
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.UnitError: byte_to_element_swizzle: 12-bit elements are not a whole number of bytes
    """


class DescriptorError(LayoutError):
    """A shared-memory layout or field value that no wgmma/tcgen05 descriptor can express.

    >>> from pycute_layouts.arch.wgmma import SmemDescriptor
    >>> SmemDescriptor(3, 16, 256, "none")
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.DescriptorError: SmemDescriptor: start_address=3 is not a multiple of 16 bytes: ...
    """


class TensorMapError(LayoutError):
    """A cuTensorMapEncode* parameter set that violates a documented driver constraint.

    >>> from pycute_layouts.arch.tma import TensorDataType
    >>> TensorDataType.parse("float7")
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.TensorMapError: TensorDataType.parse: cannot parse 'float7'; ...
    """


class SwizzleModeError(DescriptorError, TensorMapError):
    """A value that names no swizzle mode, or a mode a unit (wgmma, tcgen05, TMA) cannot use.

    It is both a DescriptorError (descriptor callers) and a TensorMapError (tensor-map callers).

    >>> issubclass(SwizzleModeError, DescriptorError) and issubclass(SwizzleModeError, TensorMapError)
    True
    """


class ShflError(LayoutError):
    """Bad SHFL operands (mode, Sb, Sc, active mask).

    >>> from pycute_layouts.arch.shfl import shfl
    >>> shfl("SIDEWAYS", 0, 0)
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.ShflError: unknown SHFL mode 'SIDEWAYS': expected one of IDX, UP, DOWN, BFLY
    """


class ProofError(LayoutError):
    """A proof could not be carried out (not a refutation: a refutation is a Counterexample).

    >>> from pycute_layouts.proofs.model import ptx_swizzle
    >>> ptx_swizzle("16B", 0)
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.ProofError: ptx_swizzle: the layout type must be one of [...], got '16B'
    """


class SpecError(LayoutValueError):
    """A codegen spec is malformed; the message starts with the offending field (``spec field 'A.dtype'``).

    >>> issubclass(SpecError, LayoutError)
    True
    """


class HwCheckError(LayoutError):
    """A generator or verifier input is unusable (a bad result file, an unknown case kind).

    >>> from pycute_layouts.hwcheck.gemm import verify_gemm
    >>> verify_gemm({"id": 3})
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.HwCheckError: hwcheck --verify: gemm case 3 is malformed: KeyError: 'cfg'
    """


class MissingDependencyError(LayoutError, ImportError):
    """An optional dependency (matplotlib for PNG) is not installed; the message says what to install.

    >>> issubclass(MissingDependencyError, LayoutError)
    True
    """
