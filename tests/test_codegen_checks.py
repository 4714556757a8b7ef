"""Kernel-level checks of a spec (codegen.check_kernel / kernel_violations): types, equal K, the smem budget."""

from __future__ import annotations

import pytest

from pycute_layouts.codegen import (
    SMEM_BYTES_PER_BLOCK,
    check_kernel,
    kernel_constants,
    kernel_violations,
    parse_spec,
)
from pycute_layouts.errors import SpecError

BF16 = {"tile": "128x64", "dtype": "bf16", "major": "K", "swizzle": "128B"}


def spec(a: dict, b: dict | None = None, arch: str = "sm90", **top: object) -> object:
    d = {"kernel": "k", "arch": arch, "A": a, **top}
    if b is not None:
        d["B"] = b
    return parse_spec(d)


def test_budget_is_227_kib() -> None:
    # CUDA C++ Programming Guide, compute capabilities 9.0 and 10.0: 227 KB of shared memory per block
    assert SMEM_BYTES_PER_BLOCK == {"sm90": 232448, "sm100": 232448}


def test_the_three_refusals() -> None:
    with pytest.raises(SpecError) as e:
        check_kernel(spec({**BF16, "stages": 5}, {**BF16, "tile": "256x64", "stages": 5}))
    assert str(e.value) == (
        "kernel check 'smem_budget': smem_base 0 B + A 5 stage(s) x 16384 B + B 5 stage(s) x 32768 B + 0 B alignment "
        "padding = 245760 B (240 KiB), more than the 232448 B (227 KiB) of shared memory an sm90 thread block may use; "
        "use fewer stages or smaller tiles")
    with pytest.raises(SpecError, match=r"kernel check 'mma_types': .*A bf16 \(group bf16\) with B e4m3"):
        check_kernel(spec(BF16, {**BF16, "dtype": "e4m3", "swizzle": "64B"}))
    with pytest.raises(SpecError, match=r"^kernel check 'equal_k': A.tile K = 64 but B.tile K = 128; "):
        check_kernel(spec(BF16, {**BF16, "tile": "128x128"}))


def test_budget_boundary_and_padding() -> None:
    # 14 stages of 16 KiB = 229376 B; smem_base 3072 ends exactly at 232448
    ok = spec({**BF16, "stages": 14}, smem_base=3072)
    assert check_kernel(ok).smem_bytes == 229376 and kernel_violations(ok) == ()
    over = spec({**BF16, "stages": 14}, smem_base=4096)
    (v,) = kernel_violations(over)
    assert v.rule == "smem_budget" and "smem_base 4096 B + A 14 stage(s) x 16384 B + 0 B alignment padding = 233472 B" \
        in v.message
    # A at 256 (2048 B, no swizzle; 64 rows: one wgmma's M) then B (128B swizzle, 1024-byte alignment): 768 B of
    # padding counted
    a = {"tile": "64x16", "dtype": "bf16", "major": "K", "swizzle": "none"}
    b = {"tile": "64x16", "dtype": "bf16", "major": "MN", "swizzle": "128B", "stages": 112}
    kc = kernel_constants(spec(a, b, smem_base=256))
    assert kc.operand("B").stage_starts[0] == 3072 and 256 + kc.smem_bytes == 3072 + 112 * 2048 == 232448
    assert kernel_violations(kc) == ()  # exactly the limit
    (v,) = kernel_violations(spec(a, {**b, "stages": 113}, smem_base=256))
    assert ("smem_base 256 B + A 1 stage(s) x 2048 B + B 113 stage(s) x 2048 B + 768 B alignment padding = 234496 B "
            "(229 KiB), more than the 232448 B (227 KiB)") in v.message


def test_every_violation_listed_first_one_raised() -> None:
    s = spec({**BF16, "stages": 5}, {"tile": "256x128", "dtype": "e4m3", "major": "K", "swizzle": "128B", "stages": 5})
    assert [v.rule for v in kernel_violations(s)] == ["mma_types", "equal_k", "smem_budget"]
    with pytest.raises(SpecError, match=r"^kernel check 'mma_types': .* \(and 2 more broken rule\(s\)\)$"):
        check_kernel(s)


def test_accepted_pairs_and_constants_input() -> None:
    for a, b, arch in (("e4m3", "e5m2", "sm90"), ("s8", "u8", "sm90"), ("e4m3", "e2m3", "sm100"),
                       ("bf16", "bf16", "sm100")):
        sw = "128B"
        k = 64 if a == "bf16" else 128
        s = spec({"tile": f"128x{k}", "dtype": a, "major": "K", "swizzle": sw},
                 {"tile": f"128x{k}", "dtype": b, "major": "K", "swizzle": sw}, arch)
        kc = check_kernel(s)
        assert check_kernel(kc) is kc and kernel_violations(kc) == ()
    assert kernel_violations(spec(BF16)) == ()  # one operand: only the budget applies


@pytest.mark.parametrize("bad", [None, {"kernel": "k"}, "spec.toml", 3])
def test_bad_input(bad: object) -> None:
    with pytest.raises(SpecError, match="expected a KernelSpec"):
        check_kernel(bad)
    with pytest.raises(SpecError, match="expected a KernelSpec"):
        kernel_violations(bad)
