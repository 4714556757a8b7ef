"""validate(arch=...): what the H100's driver rejects beyond the documented rules (docs/hardware-validation.md).

Each arch rule: valid at the limit (the same map on sm100, or the sm90 mode/type next to it) and
invalid just past it (on sm90), with the rule named in the message.
"""

from __future__ import annotations

import pytest

from pycute_layouts import TensorMapError
from pycute_layouts.arch.swizzle_modes import SwizzleMode
from pycute_layouts.arch.tma import (
    ARCHS,
    IM2COL,
    IM2COL_WIDE,
    RULES,
    TILED,
    Im2colTensorMap,
    Im2colWideTensorMap,
    TensorDataType,
    TiledTensorMap,
)

BASE = {
    TILED: (TiledTensorMap, dict(tensor_data_type="FLOAT16", global_dim=(256, 64), global_strides=(512,),
                                 box_dim=(64, 8), swizzle="128B")),
    IM2COL: (Im2colTensorMap, dict(tensor_data_type="FLOAT16", global_dim=(64, 9, 9, 2),
                                   global_strides=(128, 1152, 10368), pixel_box_lower_corner=(-1, -1),
                                   pixel_box_upper_corner=(-1, -1), channels_per_pixel=64, pixels_per_column=128,
                                   swizzle="128B")),
    IM2COL_WIDE: (Im2colWideTensorMap, dict(tensor_data_type="FLOAT16", global_dim=(128, 9, 7, 64),
                                            global_strides=(256, 2304, 16128), pixel_box_lower_corner_width=0,
                                            pixel_box_upper_corner_width=0, channels_per_pixel=64,
                                            pixels_per_column=128, mode="W", swizzle="128B")),
}
U4 = {  # 16U4_ALIGN16B maps valid by every documented rule
    TILED: dict(tensor_data_type="16U4_ALIGN16B", global_dim=(256, 8), global_strides=(128,), box_dim=(128, 8),
                swizzle="NONE"),
}


def make(fn: str, **over: object):
    cls, base = BASE[fn]
    return cls(**{**base, **over})


CASES = [
    # (rule, function, overrides valid on sm90 (the limit), overrides invalid on sm90 (past it))
    ("arch.swizzle_sm100", TILED, dict(swizzle="128B"), dict(swizzle="128B_ATOM_32B")),
    ("arch.swizzle_sm100", TILED, dict(swizzle="128B"), dict(swizzle="128B_ATOM_64B")),
    ("arch.swizzle_sm100", IM2COL, dict(swizzle="128B"), dict(swizzle="128B_ATOM_32B_FLIP_8B")),
    ("arch.data_type_sm100", TILED, dict(tensor_data_type="16U4_ALIGN8B", global_dim=(256, 8), global_strides=(128,),
                                         box_dim=(128, 8), swizzle="NONE"), U4[TILED]),
]


@pytest.mark.parametrize("rule, fn, ok, bad", CASES, ids=[f"{c[0]}-{c[1]}-{i}" for i, c in enumerate(CASES)])
def test_arch_rule_at_limit_and_past_it(rule: str, fn: str, ok: dict, bad: dict) -> None:
    good = make(fn, **ok)
    assert good.violations(arch="sm90") == [] and good.validate(arch="sm90") is good
    m = make(fn, **bad)
    assert m.violations() == [], "valid by the documented rules"
    assert m.violations(arch="sm100") == []
    found = m.violations(arch="sm90")
    assert [v.rule for v in found] == [rule]
    assert found[0].message.startswith(fn + ": ") and "arch=sm90" in found[0].message
    with pytest.raises(TensorMapError) as e:
        m.validate(arch="sm90")
    assert e.value.rule == rule


def test_im2col_wide_needs_sm100() -> None:
    m = make(IM2COL_WIDE)
    assert m.violations() == [] and m.violations(arch="sm100") == []
    assert [v.rule for v in m.violations(arch="sm90")] == ["arch.im2col_wide_sm100"]


def test_every_arch_rule_has_a_case() -> None:
    covered = {c[0] for c in CASES} | {"arch.im2col_wide_sm100"}
    assert covered == {r for r in RULES if r.startswith("arch.")}


def test_min_arch_of_every_mode_and_type() -> None:
    assert [m.tma_name for m in SwizzleMode if m.min_arch == "sm100"] == [
        "128B_ATOM_32B", "128B_ATOM_32B_FLIP_8B", "128B_ATOM_64B"]
    assert {t.name for t in TensorDataType if t.min_arch == "sm100"} == {"U4x16_ALIGN16B", "U6x16_ALIGN16B"}
    assert ARCHS == ("sm90", "sm100")


@pytest.mark.parametrize("arch", ["sm80", "SM90", 90, ""])
def test_unknown_arch_is_refused(arch: object) -> None:
    with pytest.raises(TensorMapError, match="arch must be one of sm90, sm100"):
        make(TILED).violations(arch=arch)  # type: ignore[arg-type]
