"""The C++/CUDA header of a kernel's constants: one struct per operand, static_asserts, optional CuTe type checks."""

from __future__ import annotations

from typing import Any

from ..arch import umma
from ..errors import SpecError
from .constants import KernelConstants, OperandConstants, spec_comment
from .spec import MMA_K_BYTES

__all__ = ["emit_header"]


def _u64(v: int) -> str:
    return f"0x{v:016x}ull"


def _arr(vals: Any, fmt: Any = str) -> str:
    return "{" + ", ".join(fmt(v) for v in vals) + "}"


def _header_operand(kc: KernelConstants, o: OperandConstants) -> list[str]:
    """Operand ``o``'s struct of constants followed by the static_asserts that tie them together."""
    return _header_struct(kc, o) + _header_asserts(o)


def _header_struct(kc: KernelConstants, o: OperandConstants) -> list[str]:
    """``struct Operand<name> { static constexpr ... }``: every constant of one operand."""
    d = o.descriptor
    s = f"Operand{o.name}"
    arch90 = kc.arch == "sm90"
    L: list[str] = []
    L.append(f"// Operand {o.name}: {o.tile_mn}x{o.tile_k} (MN x K) {o.dtype.name if o.dtype else ''}, {o.major}-major, "
             f"{o.swizzle} swizzle, {o.stages} stage(s), tile order {o.order}")
    reason = next((op.swizzle_reason for op in kc.spec.operands if op.name == o.name), "")
    if reason:
        L.append(f"//   swizzle {reason}")
    L.append(f"//   smem tile (elements; swizzle on byte addresses): {o.smem_layout_text}")
    if o.smem_layout_element_text:
        L.append(f"//   = on {o.element_bits}-bit element offsets (CuTe's Sw o k o L): {o.smem_layout_element_text}")
    L.append(f"//   canonical layout of one instruction's operand (PTX): {o.canonical}")
    L.append(f"struct {s} {{")
    L.append(f"  static constexpr int kTileMN = {o.tile_mn};")
    L.append(f"  static constexpr int kTileK = {o.tile_k};")
    L.append(f"  static constexpr int kElementBits = {o.element_bits};")
    L.append(f"  static constexpr int kStages = {o.stages};")
    L.append(f"  static constexpr int kMmaMN = {o.mma_mn};  // MN extent one instruction reads")
    L.append(f"  static constexpr int kMmaK = {o.mma_k};  // K elements one instruction reads ({MMA_K_BYTES} bytes)")
    L.append(f"  static constexpr int kKSteps = {o.k_steps};  // instructions along K per stage")
    L.append(f"  static constexpr uint32_t kStageBytes = {o.stage_bytes}u;")
    L.append(f"  static constexpr uint32_t kStageAlignBytes = {o.stage_alignment_bytes}u;  // swizzle pattern boundary")
    L.append(f"  static constexpr uint32_t kStageStart[kStages] = {_arr(o.stage_starts, lambda v: f'{v}u')};")
    L.append(f"  static constexpr uint32_t kLboBytes = {d.lbo_bytes}u;")
    L.append(f"  static constexpr uint32_t kLbo16B = {d.lbo_16B}u;")
    L.append(f"  static constexpr uint32_t kSboBytes = {d.sbo_bytes}u;")
    L.append(f"  static constexpr uint32_t kSbo16B = {d.sbo_16B}u;")
    lt_bits = "62-63, wgmma" if arch90 else "61-63, tcgen05"
    L.append(f"  static constexpr uint32_t kLayoutType = {d.layout_type}u;  // {o.swizzle} (bits {lt_bits})")
    L.append(f"  static constexpr uint32_t kBaseOffset = {d.base_offset}u;")
    L.append("  // descriptor with start address 0: OR in ((smem_addr & 0x3FFFF) >> 4)")
    L.append(f"  static constexpr uint64_t kDescTemplate = {_u64(o.desc_template)};")
    L.append(f"  static constexpr uint64_t kDesc = {_u64(o.desc)};  // stage 0, K step 0")
    L.append("  // K step k starts kKStepOffsetBytes[k] after K step 0: desc + kKStepAdvance16B[k]")
    L.append(f"  static constexpr uint32_t kKStepOffsetBytes[kKSteps] = {_arr(o.k_step_offsets_bytes, lambda v: f'{v}u')};")
    L.append(f"  static constexpr uint32_t kKStepAdvance16B[kKSteps] = {_arr(o.k_step_advance_16B, lambda v: f'{v}u')};")
    L.append(f"  static constexpr int kMmaMNBlocks = {len(o.mn_block_offsets_bytes)};")
    L.append(f"  static constexpr uint32_t kMmaMNBlockOffsetBytes[kMmaMNBlocks] = "
             f"{_arr(o.mn_block_offsets_bytes, lambda v: f'{v}u')};")
    rows = ", ".join(_arr(r, _u64) for r in o.descs)
    L.append(f"  static constexpr uint64_t kDescStageK[kStages][kKSteps] = {{{rows}}};")
    L.append(f"  // TMA (cuTensorMapEncodeTiled): {o.tma_data_type}, {o.tma_swizzle_name}")
    L.append(f"  static constexpr int kTmaSwizzle = {int(o.tma_swizzle)};  // {o.tma_swizzle_name}")
    L.append(f"  static constexpr const char* kTmaSwizzleName = \"{o.tma_swizzle_name}\";")
    L.append(f"  static constexpr uint32_t kTmaBoxDim[2] = {_arr(o.tma_box_dim, lambda v: f'{v}u')};  // boxDim, innermost first")
    L.append(f"  static constexpr uint32_t kTmaBoxBytes = {o.tma_box_bytes}u;")
    L.append(f"  static constexpr int kTmaCopies = {o.tma_copies};  // boxes per stage")
    L.append("  // box c covers tile elements from (inner, row) = kTmaCopyCoord[c] and lands kTmaCopyOffsetBytes[c] "
             "into the stage")
    coords = ", ".join(_arr(c) for c in o.tma_copy_coords)
    L.append(f"  static constexpr int kTmaCopyCoord[kTmaCopies][2] = {{{coords}}};")
    L.append(f"  static constexpr uint32_t kTmaCopyOffsetBytes[kTmaCopies] = "
             f"{_arr(o.tma_copy_offsets_bytes, lambda v: f'{v}u')};")
    L.append("};")
    return L


def _header_asserts(o: OperandConstants) -> list[str]:
    """The static_asserts that check one operand's constants against each other and the descriptor fields."""
    s = f"Operand{o.name}"
    L: list[str] = []
    L.append(f"static_assert({s}::kStageBytes == uint32_t({s}::kTileMN) * {s}::kTileK * {s}::kElementBits / 8, "
             f"\"{o.name}: stage bytes = MN * K * bits / 8\");")
    L.append(f"static_assert({s}::kTmaCopies * {s}::kTmaBoxBytes == {s}::kStageBytes, "
             f"\"{o.name}: the TMA boxes fill the stage exactly\");")
    L.append(f"static_assert({s}::kTmaBoxDim[0] * {s}::kElementBits / 8 == {o.swizzle.width_bytes}u && "
             f"{s}::kTmaBoxDim[0] * {s}::kElementBits % 128 == 0 && {s}::kTmaBoxDim[1] <= 256u, "
             f"\"{o.name}: box inner extent = one {o.swizzle.width_bytes}-byte swizzle row, rows <= 256\");")
    L.append(f"static_assert({s}::kTileK % {s}::kMmaK == 0 && {s}::kKSteps == {s}::kTileK / {s}::kMmaK, "
             f"\"{o.name}: whole instructions along K\");")
    for i in range(o.stages):
        L.append(f"static_assert({s}::kStageStart[{i}] % {s}::kStageAlignBytes == 0, \"{o.name}: stage {i} aligned\");")
        if i:
            L.append(f"static_assert({s}::kStageStart[{i}] == {s}::kStageStart[{i - 1}] + {s}::kStageBytes, "
                     f"\"{o.name}: stages packed\");")
    L.append(f"static_assert(desc_start_16B({s}::kDesc) == ({s}::kStageStart[0] >> 4) && "
             f"desc_lbo_16B({s}::kDesc) == {s}::kLbo16B && desc_sbo_16B({s}::kDesc) == {s}::kSbo16B, "
             f"\"{o.name}: descriptor start/LBO/SBO fields\");")
    L.append(f"static_assert({s}::kLbo16B == {s}::kLboBytes / 16 && {s}::kSbo16B == {s}::kSboBytes / 16 && "
             f"{s}::kLboBytes % 16 == 0 && {s}::kSboBytes % 16 == 0, \"{o.name}: LBO/SBO in 16-byte units\");")
    L.append(f"static_assert(desc_layout_type({s}::kDesc) == {s}::kLayoutType && "
             f"desc_base_offset({s}::kDesc) == {s}::kBaseOffset && desc_reserved_ok({s}::kDesc), "
             f"\"{o.name}: descriptor layout type / base offset / reserved bits\");")
    L.append(f"static_assert(({s}::kDescTemplate | ({s}::kStageStart[0] >> 4)) == {s}::kDesc, "
             f"\"{o.name}: template | start = descriptor\");")
    for si in range(o.stages):
        for k in range(o.k_steps):
            L.append(f"static_assert({s}::kDescStageK[{si}][{k}] == {s}::kDescTemplate + "
                     f"(({s}::kStageStart[{si}] + {s}::kKStepOffsetBytes[{k}]) >> 4), "
                     f"\"{o.name}: stage {si} K step {k}\");")
    for k in range(o.k_steps):
        L.append(f"static_assert({s}::kKStepAdvance16B[{k}] * 16 == {s}::kKStepOffsetBytes[{k}], "
                 f"\"{o.name}: K step {k} advance\");")
    return L


_USED_BITS = {
    "sm90": 0x3FFF | (0x3FFF << 16) | (0x3FFF << 32) | (0x7 << 49) | (0x3 << 62),
    "sm100": 0x3FFF | (0x3FFF << 16) | (0x3FFF << 32) | (0x7 << 46) | (0x7 << 49) | (1 << 52) | (0x7 << 61),
}


def _desc_helpers(arch: str) -> list[str]:
    reserved = f"0x{~_USED_BITS[arch] & ((1 << 64) - 1):016x}ull"
    if arch == "sm90":
        lt = "int((d >> 62) & 0x3)"
        ver = []
    else:
        lt = "int((d >> 61) & 0x7)"
        ver = ["constexpr uint32_t desc_version(uint64_t d) { return uint32_t((d >> 46) & 0x7); }  // fixed 0b001"]
    return [
        "// Descriptor fields (PTX ISA " + ("9.7.15.5.1.2.2, wgmma" if arch == "sm90" else
                                          "9.7.16.4.1 Table 40, tcgen05") + ")",
        "constexpr uint32_t desc_start_16B(uint64_t d) { return uint32_t(d & 0x3FFF); }",
        "constexpr uint32_t desc_lbo_16B(uint64_t d) { return uint32_t((d >> 16) & 0x3FFF); }",
        "constexpr uint32_t desc_sbo_16B(uint64_t d) { return uint32_t((d >> 32) & 0x3FFF); }",
        "constexpr uint32_t desc_base_offset(uint64_t d) { return uint32_t((d >> 49) & 0x7); }",
        f"constexpr uint32_t desc_layout_type(uint64_t d) {{ return uint32_t({lt}); }}",
        *ver,
        f"constexpr bool desc_reserved_ok(uint64_t d) {{ return (d & ({reserved})) == 0"
        + (" && desc_version(d) == 1" if arch != "sm90" else "") + "; }",
    ]


def emit_header(kc: KernelConstants) -> str:
    """The C++/CUDA header: ``namespace <kernel> { struct OperandA {...}; static_asserts }``, plain ``<cstdint>``.

    Pre:  ``kc`` KernelConstants (kernel_constants).
    Post: the header text; SpecError for any other argument.

    Define ``PYCUTE_LAYOUTS_WITH_CUTE`` before including it (with CuTe on the include path) to
    also check that ``SmemLayoutA`` is exactly the type CuTe's ``tile_to_shape`` builds from the
    GMMA/UMMA atom. With ``<cuda.h>`` included first, ``kTmaSwizzleEnum`` is the driver enumerator.

    >>> from pycute_layouts.codegen import kernel_constants, parse_spec
    >>> h = emit_header(kernel_constants(parse_spec({"kernel": "k", "arch": "sm90", "A": {"tile": "64x64",
    ...                 "dtype": "bf16", "major": "K", "swizzle": "128B"}})))
    >>> [line for line in h.splitlines() if "kDesc =" in line]
    ['  static constexpr uint64_t kDesc = 0x4000004000010000ull;  // stage 0, K step 0']
    """
    if not isinstance(kc, KernelConstants):
        raise SpecError(f"emit_header: expected KernelConstants, got {type(kc).__name__}")
    guard = f"PYCUTE_LAYOUTS_{kc.kernel.upper()}_CONSTANTS_H"
    L = [*spec_comment(kc, "//"),
         f"// Shared-memory operand constants for kernel '{kc.kernel}' ({kc.arch}, "
         f"{'wgmma.mma_async' if kc.arch == 'sm90' else 'tcgen05.mma'}). Self-contained (<cstdint>); define",
         "// PYCUTE_LAYOUTS_WITH_CUTE to also check the CuTe layout types.",
         f"#ifndef {guard}", f"#define {guard}", "", "#include <cstdint>", "",
         f"namespace {kc.kernel} {{", "",
         f"inline constexpr const char* kArch = \"{kc.arch}\";",
         f"inline constexpr uint32_t kSmemBase = {kc.spec.smem_base}u;",
         f"inline constexpr uint32_t kSmemBytes = {kc.smem_bytes}u;  // from kSmemBase to the end of the last stage",
         "", *_desc_helpers(kc.arch), ""]
    for o in kc.operands:
        L += _header_operand(kc, o)
        L.append("")
    if kc.instr_desc is not None:
        L += [*umma.header_lines(kc.instr_desc), ""]
    elif kc.instr_desc_note:
        L += [f"// {kc.instr_desc_note}", ""]
    L += _driver_enum_lines(kc)
    L.append("")
    L.append("}  // namespace " + kc.kernel)
    L.append("")
    L += _cute_check_lines(kc)
    L += ["", f"#endif  // {guard}", ""]
    return "\n".join(L)


def _driver_enum_lines(kc: KernelConstants) -> list[str]:
    # Pre:  kc KernelConstants.  Post: the block that, with <cuda.h> included, checks each operand's TMA swizzle
    #       against the driver's enumerator and names its CUtensorMapSwizzle and CUtensorMapDataType.
    L = ["#if defined(__cuda_cuda_h__)  // <cuda.h> included: the driver's enumerators"]
    for o in kc.operands:
        L.append(f"static_assert(int({o.tma_swizzle_name}) == Operand{o.name}::kTmaSwizzle, "
                 f"\"{o.name}: CUtensorMapSwizzle\");")
        L.append(f"inline constexpr CUtensorMapSwizzle kTmaSwizzleEnum{o.name} = {o.tma_swizzle_name};")
        L.append(f"inline constexpr CUtensorMapDataType kTmaDataType{o.name} = {o.tma_data_type};")
    L.append("#endif")
    return L


def _cute_check_lines(kc: KernelConstants) -> list[str]:
    # Pre:  kc KernelConstants.  Post: the PYCUTE_LAYOUTS_WITH_CUTE block: per operand its CuTe smem layout type,
    #       checked to be what CuTe's expression builds, its cosize and the offsets of its K steps.
    header = "cute/atom/mma_traits_sm90_gmma.hpp" if kc.arch == "sm90" else "cute/atom/mma_traits_sm100.hpp"
    L = ["#ifdef PYCUTE_LAYOUTS_WITH_CUTE", "#include <type_traits>", "#include <cute/tensor.hpp>",
         f"#include <{header}>", f"namespace {kc.kernel} {{"]
    for o in kc.operands:
        s = f"Operand{o.name}"
        L.append(f"// CuTe type of operand {o.name}'s smem (MN, K, stage) layout, and the CuTe expression that builds it")
        L.append(f"using SmemLayout{o.name} = {o.cute_type};")
        L.append(f"static_assert(std::is_same_v<SmemLayout{o.name}, decltype({o.cute_expr})>, "
                 f"\"{o.name}: CuTe builds this type\");")
        L.append(f"static_assert(decltype(cute::cosize(SmemLayout{o.name}{{}}.layout_b()))::value * {s}::kElementBits / 8 "
                 f"== {s}::kStages * {s}::kStageBytes, \"{o.name}: CuTe's cosize = stages * stage bytes\");")
        steps = [f"decltype(SmemLayout{o.name}{{}}.layout_b()(cute::Int<0>{{}}, cute::Int<{k * o.mma_k}>{{}}, "
                 f"cute::Int<0>{{}}))::value * {s}::kElementBits / 8 == {s}::kKStepOffsetBytes[{k}]"
                 for k in range(o.k_steps)]
        L.append(f"static_assert({' && '.join(steps)}, \"{o.name}: CuTe's offsets of the K steps\");")
    return L + [f"}}  // namespace {kc.kernel}", "#endif  // PYCUTE_LAYOUTS_WITH_CUTE"]
