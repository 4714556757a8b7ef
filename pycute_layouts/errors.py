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
    """A value is not acceptable (negative or zero size, non-integer shape, ...)."""


class LayoutTypeError(LayoutError, TypeError):
    """An argument has the wrong type (a string where an IntTuple is expected, ...)."""


class CongruenceError(LayoutError):
    """Shape and stride (or coordinate and shape) do not have the same profile."""


class AdmissibilityError(LayoutError):
    """An algebra operation's precondition fails (CuTe's divisibility conditions, injectivity)."""


class CoordinateError(LayoutError, IndexError):
    """A coordinate is out of range (when range checking was asked for) or malformed."""


class SwizzleError(LayoutError):
    """Bad Swizzle<B,M,S> parameters or an XOR map that is not what was asked."""


class NotationError(LayoutError):
    """CuTe notation that cannot be parsed; the message points at the column."""

    def __init__(self, message: str, text: str | None = None, column: int | None = None):
        self.text = text
        self.column = column
        if text is not None and column is not None:
            message = f"{message}\n  {text}\n  {' ' * column}^ (column {column + 1})"
        super().__init__(message)


class SymbolicUndecidable(LayoutError):
    """A condition on symbolic shapes/strides cannot be decided from the symbols' assumptions."""


class UnitError(LayoutError):
    """Bytes and elements were mixed, or an element width makes a conversion impossible."""


class DescriptorError(LayoutError):
    """A shared-memory layout or field value that no wgmma/tcgen05 descriptor can express."""


class TensorMapError(LayoutError):
    """A cuTensorMapEncode* parameter set that violates a documented driver constraint."""


class SwizzleModeError(DescriptorError, TensorMapError):
    """A value that names no swizzle mode, or a mode a unit (wgmma, tcgen05, TMA) cannot use.

    It is both a DescriptorError (descriptor callers) and a TensorMapError (tensor-map callers).

    >>> issubclass(SwizzleModeError, DescriptorError) and issubclass(SwizzleModeError, TensorMapError)
    True
    """


class ShflError(LayoutError):
    """Bad SHFL operands (mode, Sb, Sc, active mask)."""


class ProofError(LayoutError):
    """A proof could not be carried out (not a refutation: a refutation is a Counterexample)."""


class SpecError(LayoutValueError):
    """A codegen spec is malformed; the message starts with the offending field (``spec field 'A.dtype'``).

    >>> issubclass(SpecError, LayoutError)
    True
    """


class HwCheckError(LayoutError):
    """A generator or verifier input is unusable (a bad result file, an unknown case kind)."""


class MissingDependencyError(LayoutError, ImportError):
    """An optional dependency (matplotlib for PNG) is not installed; the message says what to install.

    >>> issubclass(MissingDependencyError, LayoutError)
    True
    """
