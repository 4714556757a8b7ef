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

    >>> issubclass(LayoutValueError, LayoutError)
    True
    """


class LayoutTypeError(LayoutError, TypeError):
    """An argument has the wrong type (a string where an IntTuple is expected, ...).

    >>> issubclass(LayoutTypeError, LayoutError) and issubclass(LayoutTypeError, TypeError)
    True
    """


class CongruenceError(LayoutError):
    """Shape and stride (or coordinate and shape) do not have the same profile.

    >>> issubclass(CongruenceError, LayoutError)
    True
    """


class AdmissibilityError(LayoutError):
    """An algebra operation's precondition fails (CuTe's divisibility conditions, injectivity).

    >>> issubclass(AdmissibilityError, LayoutError)
    True
    """


class CoordinateError(LayoutError, IndexError):
    """A coordinate is out of range (when range checking was asked for) or malformed.

    >>> issubclass(CoordinateError, LayoutError) and issubclass(CoordinateError, IndexError)
    True
    """


class SwizzleError(LayoutError):
    """Bad Swizzle<B,M,S> parameters or an XOR map that is not what was asked.

    >>> issubclass(SwizzleError, LayoutError)
    True
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

    >>> issubclass(SymbolicUndecidable, LayoutError)
    True
    """


class UnitError(LayoutError):
    """Bytes and elements were mixed, or an element width makes a conversion impossible.

    >>> issubclass(UnitError, LayoutError)
    True
    """


class DescriptorError(LayoutError):
    """A shared-memory layout or field value that no wgmma/tcgen05 descriptor can express.

    >>> issubclass(DescriptorError, LayoutError)
    True
    """


class TensorMapError(LayoutError):
    """A cuTensorMapEncode* parameter set that violates a documented driver constraint.

    >>> issubclass(TensorMapError, LayoutError)
    True
    """


class SwizzleModeError(DescriptorError, TensorMapError):
    """A value that names no swizzle mode, or a mode a unit (wgmma, tcgen05, TMA) cannot use.

    It is both a DescriptorError (descriptor callers) and a TensorMapError (tensor-map callers).

    >>> issubclass(SwizzleModeError, DescriptorError) and issubclass(SwizzleModeError, TensorMapError)
    True
    """


class ShflError(LayoutError):
    """Bad SHFL operands (mode, Sb, Sc, active mask).

    >>> issubclass(ShflError, LayoutError)
    True
    """


class ProofError(LayoutError):
    """A proof could not be carried out (not a refutation: a refutation is a Counterexample).

    >>> issubclass(ProofError, LayoutError)
    True
    """


class SpecError(LayoutValueError):
    """A codegen spec is malformed; the message starts with the offending field (``spec field 'A.dtype'``).

    >>> issubclass(SpecError, LayoutError)
    True
    """


class HwCheckError(LayoutError):
    """A generator or verifier input is unusable (a bad result file, an unknown case kind).

    >>> issubclass(HwCheckError, LayoutError)
    True
    """


class MissingDependencyError(LayoutError, ImportError):
    """An optional dependency (matplotlib for PNG) is not installed; the message says what to install.

    >>> issubclass(MissingDependencyError, LayoutError)
    True
    """
