"""Kernel-level checks of a spec: the rules that hold between operands and against the block's limits.

:func:`~pycute_layouts.codegen.kernel_constants` checks each operand on its own (atom, descriptor,
TMA box, the 256 KiB window a descriptor can name). A kernel needs more: one MMA instruction
reads A and B together, and one thread block holds every stage of both. The rules:

* ``mma_types`` -- the A/B element types form a pair the instruction accepts
  (:func:`pycute_layouts.arch.mma_types.mma_type_kind`: the PTX ``wgmma.mma_async`` type table on
  sm90, the ``tcgen05.mma`` kinds on sm100);
* ``equal_k`` -- A and B have the same K extent (one MMA step reads the same K slice of both);
* ``smem_budget`` -- from shared-memory address 0 to the end of the last stage (``smem_base``,
  stages x operands, the alignment padding between operands) fits the per-block limit:
  232448 bytes (227 KiB) on sm90 and sm100, the opt-in maximum of dynamic shared memory per block
  (CUDA C++ Programming Guide, "Technical Specifications per Compute Capability": compute
  capability 9.0 and 10.0, 227 KB; ``cudaFuncAttributeMaxDynamicSharedMemorySize``).

Every refusal is one line naming the rule and the numbers. The ``codegen`` command runs
:func:`check_kernel` before it writes anything.

>>> from pycute_layouts.codegen import parse_spec
>>> op = {"tile": "128x64", "dtype": "bf16", "major": "K", "swizzle": "128B", "stages": 4}
>>> kc = check_kernel(parse_spec({"kernel": "k", "arch": "sm90", "A": op, "B": dict(op, tile="256x64")}))
>>> kc.smem_bytes, SMEM_BYTES_PER_BLOCK["sm90"]
(196608, 232448)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..arch.mma_types import mma_type_kind
from ..errors import DescriptorError, LayoutError, SpecError
from ..limits import check_fields
from .constants import KernelConstants, kernel_constants
from .spec import KernelSpec

__all__ = ["SMEM_BYTES_PER_BLOCK", "KernelViolation", "kernel_violations", "check_kernel"]

#: Dynamic shared memory one thread block may use (opt-in maximum), by arch: 227 KiB on both
#: (CUDA C++ Programming Guide, compute capabilities 9.0 and 10.0).
SMEM_BYTES_PER_BLOCK: dict[str, int] = {"sm90": 227 * 1024, "sm100": 227 * 1024}


@dataclass(frozen=True)
class KernelViolation:
    """A kernel rule the spec breaks: the rule's name and a one-line message with the numbers.

    >>> KernelViolation("equal_k", "...").rule
    'equal_k'
    """

    rule: str
    message: str

    def __post_init__(self) -> None:
        check_fields(self)


def _spec_of(x: Any) -> tuple[KernelSpec, KernelConstants | None]:
    if isinstance(x, KernelConstants):
        return x.spec, x
    if isinstance(x, KernelSpec):
        return x, None
    raise SpecError(f"check_kernel: expected a KernelSpec (parse_spec / load_spec) or KernelConstants, got "
                    f"{type(x).__name__}")


def _pair_violations(spec: KernelSpec) -> list[KernelViolation]:
    ops = {o.name: o for o in spec.operands}
    if "A" not in ops or "B" not in ops:
        return []
    a, b = ops["A"], ops["B"]
    out = []
    try:
        mma_type_kind(spec.arch, a.dtype.name, b.dtype.name)
    except DescriptorError as e:
        out.append(KernelViolation("mma_types", f"kernel check 'mma_types': {e}"))
    if a.tile_k != b.tile_k:
        out.append(KernelViolation(
            "equal_k", f"kernel check 'equal_k': A.tile K = {a.tile_k} but B.tile K = {b.tile_k}; one MMA step reads "
                       "the same K slice of A and B, so their tiles need the same K extent"))
    return out


def _budget_violation(kc: KernelConstants) -> KernelViolation | None:
    limit = SMEM_BYTES_PER_BLOCK[kc.arch]
    end = kc.spec.smem_base + kc.smem_bytes
    if end <= limit:
        return None
    parts = " + ".join(f"{o.name} {o.stages} stage(s) x {o.stage_bytes} B" for o in kc.operands)
    payload = sum(o.stages * o.stage_bytes for o in kc.operands)
    padding = kc.smem_bytes - payload
    return KernelViolation(
        "smem_budget", f"kernel check 'smem_budget': smem_base {kc.spec.smem_base} B + {parts} + {padding} B alignment "
                       f"padding = {end} B ({end / 1024:g} KiB), more than the {limit} B ({limit // 1024} KiB) of shared "
                       f"memory an {kc.arch} thread block may use; use fewer stages or smaller tiles")


def _constants_or_type_error(spec: KernelSpec, pairs: list[KernelViolation]) -> KernelConstants:
    """kernel_constants(spec); when an operand fails and no instruction takes the A/B types, that is the error."""
    try:
        return kernel_constants(spec)
    except LayoutError:
        bad = [v for v in pairs if v.rule == "mma_types"]
        if bad:
            raise SpecError(bad[0].message) from None
        raise


def kernel_violations(spec_or_constants: Any) -> tuple[KernelViolation, ...]:
    """Every kernel rule the spec breaks (empty when it holds), in the order mma_types, equal_k, smem_budget.

    Pre:  a KernelSpec or the KernelConstants built from one.
    Post: the violations; an operand's own error (kernel_constants) propagates as SpecError/DescriptorError,
          replaced by the mma_types violation when no instruction takes the A/B types at all.

    >>> from pycute_layouts.codegen import parse_spec
    >>> spec = parse_spec({"kernel": "k", "arch": "sm90",
    ...                    "A": {"tile": "64x64", "dtype": "bf16", "major": "K", "swizzle": "128B"},
    ...                    "B": {"tile": "64x128", "dtype": "bf16", "major": "K", "swizzle": "128B"}})
    >>> [v.rule for v in kernel_violations(spec)]
    ['equal_k']
    """
    spec, kc = _spec_of(spec_or_constants)
    pairs = _pair_violations(spec)
    kc = _constants_or_type_error(spec, pairs) if kc is None else kc
    v = _budget_violation(kc)
    return tuple(pairs + ([v] if v else []))


def check_kernel(spec_or_constants: Any) -> KernelConstants:
    """The kernel's constants when every kernel rule holds; SpecError with the first broken rule otherwise.

    Pre:  a KernelSpec or KernelConstants.
    Post: KernelConstants of a kernel whose A/B types one instruction takes, whose K extents agree and
          whose stages fit the block's shared memory; else SpecError, one line naming the rule and the numbers
          (and how many rules are broken when more than one).

    >>> from pycute_layouts.codegen import parse_spec
    >>> op = {"tile": "128x64", "dtype": "bf16", "major": "K", "swizzle": "128B", "stages": 5}
    >>> check_kernel(parse_spec({"kernel": "k", "arch": "sm90", "A": op, "B": dict(op, tile="256x64")}))
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.SpecError: kernel check 'smem_budget': smem_base 0 B + A 5 stage(s) x 16384 B + ... = 245760 B ...
    """
    spec, kc = _spec_of(spec_or_constants)
    kc = _constants_or_type_error(spec, _pair_violations(spec)) if kc is None else kc
    found = kernel_violations(kc)
    if found:
        more = f" (and {len(found) - 1} more broken rule(s))" if len(found) > 1 else ""
        raise SpecError(found[0].message + more)
    return kc
