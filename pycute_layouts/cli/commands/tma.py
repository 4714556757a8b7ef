"""``pycute-layouts tma``: check a tensor map's parameters and picture where the box lands, or plan one.

Two uses. With the ``cuTensorMapEncodeTiled`` parameters (``--dtype --global-dim
--global-strides --box-dim [--swizzle ...]``) it runs :meth:`TiledTensorMap.violations` and
prints every violated rule once (exit 1: a finding about the map), or, for a valid map, a summary
and the shared-memory placement of one box as a table of 16-byte chunks: one row per 128-byte
shared-memory line, each cell the number of the source chunk it holds, counted within its source
128-byte line -- PTX ISA 5.5.7's pattern tables (8-byte cells for 128B_ATOM_32B_FLIP_8B). With
``--plan SMEM --global GLOBAL --dtype T`` it runs :func:`~pycute_layouts.arch.tma.plan_tma_load`.
Every number comes from :mod:`pycute_layouts.arch.tma`; this module parses and prints.

>>> from pycute_layouts.cli import main
>>> main(["tma", "--dtype", "bf16", "--global-dim", "64,64", "--global-strides", "128", "--box-dim", "64,8",
...       "--swizzle", "128B", "--lines", "2"])
cuTensorMapEncodeTiled: valid (load)
...
   line |  0  1  2  3  4  5  6  7
 0x0000 |  0  1  2  3  4  5  6  7
 0x0080 |  1  0  3  2  5  4  7  6
  ... 6 more lines (--lines to show more)
0
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

import numpy as np

from ...arch.tma import TiledTensorMap
from ...errors import TensorMapError
from ...limits import check_count, check_type, fmt
from ._common import subparsers

__all__ = ["register", "int_list", "placement_grid", "format_grid"]


def int_list(text: str, what: str) -> tuple[int, ...]:
    """Parse "4096,4096" (decimal or 0x hex, comma-separated; "64x64" also works) into ints; LayoutError otherwise.

    >>> int_list("64,0x10", "--box-dim"), int_list("64x64", "--box-dim"), int_list("8192", "--global-strides")
    ((64, 16), (64, 64), (8192,))
    """
    check_type("int_list", "what", what, str, TensorMapError)
    t = check_type(what, "the value", text, str, TensorMapError).strip()
    if "," not in t and "x" in t.lower() and not t.lower().startswith("0x"):
        items = t.lower().split("x")
    else:
        items = t.split(",")
    out = []
    for x in items:
        try:
            out.append(int(x.strip(), 0))
        except ValueError:
            raise TensorMapError(f"{what}: expected comma-separated integers (decimal or 0x hex), got {fmt(text)}") \
                from None
    return tuple(out)


def _int(text: str, what: str) -> int:
    try:
        return int(text, 0)
    except ValueError:
        raise TensorMapError(f"{what}: expected an integer (decimal or 0x hex), got {fmt(text)}") from None


def placement_grid(m: Any, dst_address: int, direction: str = "load") -> tuple[int, int, np.ndarray]:
    """The box placement as (cell_bytes, first line address, grid): grid[row, pos] is the source cell held.

    Rows are the 128-byte shared-memory lines the box touches, from the first; ``pos`` the cell
    position in the line; the value is the number of the source cell within its own (dense)
    128-byte line, -1 where the box writes nothing. Cells are 16 bytes, 8 under FLIP_8B.

    >>> from pycute_layouts.arch.tma import TiledTensorMap
    >>> m = TiledTensorMap(tensor_data_type="FLOAT16", global_dim=(32, 8), global_strides=(64,), box_dim=(32, 4),
    ...                    swizzle="64B")
    >>> cb, first, grid = placement_grid(m, 0)
    >>> cb, first, grid.tolist()
    (16, 0, [[0, 1, 2, 3, 4, 5, 6, 7], [1, 0, 3, 2, 5, 4, 7, 6]])
    """
    from ...arch.swizzle_modes import SwizzleMode

    check_type("placement_grid", "m", m, TiledTensorMap, TensorMapError)
    placed = m.smem_layout(dst_address=dst_address, direction=direction).reshape(-1) + dst_address
    cell = 8 if m.swizzle is SwizzleMode.B128_ATOM_32B_FLIP_8B else 16
    src = np.arange(placed.size, dtype=np.int64)[::cell]
    dst = placed[::cell]
    first = int(dst.min()) // 128 * 128
    nlines = int(dst.max()) // 128 * 128 - first + 128
    grid = np.full((nlines // 128, 128 // cell), -1, dtype=np.int64)
    rel = dst - first
    grid[rel // 128, (rel % 128) // cell] = (src % 128) // cell
    return cell, first, grid


def format_grid(cell: int, first: int, grid: np.ndarray, lines: int) -> str:
    """The placement grid as text: one row per 128-byte line (its address), '.' where nothing lands.

    >>> print(format_grid(16, 0, np.array([[0, 1, 2, 3, 4, 5, 6, 7], [1, 0, 3, 2, 5, 4, 7, -1]]), 8))
       line |  0  1  2  3  4  5  6  7
     0x0000 |  0  1  2  3  4  5  6  7
     0x0080 |  1  0  3  2  5  4  7  .
    """
    check_count("format_grid", "cell", cell, 1, 128, TensorMapError)
    check_count("format_grid", "first", first, 0, None, TensorMapError)
    check_count("format_grid", "lines", lines, 0, None, TensorMapError)
    if not isinstance(grid, np.ndarray) or grid.ndim != 2 or grid.dtype.kind not in "iu":
        raise TensorMapError(f"format_grid: grid must be a 2-D integer array, got {fmt(grid)}")
    ncol = grid.shape[1]
    w = max(2, len(str(ncol - 1)))
    aw = max(4, len(f"{first + 128 * (grid.shape[0] - 1):x}"))
    out = [f" {'line':>{aw + 2}} | " + " ".join(f"{c:>{w}}" for c in range(ncol))]
    for r in range(min(lines, grid.shape[0])):
        cells = " ".join(f"{'.' if v < 0 else v:>{w}}" for v in grid[r].tolist())
        out.append(f" 0x{first + 128 * r:0{aw}x} | {cells}")
    if grid.shape[0] > lines:
        out.append(f"  ... {grid.shape[0] - lines} more lines (--lines to show more)")
    return "\n".join(out)


def _map_from_args(args: argparse.Namespace) -> Any:
    from ...arch.tma.maps import TiledTensorMap
    from ...arch.tma.plan import parse_data_type

    missing = [o for o, v in (("--dtype", args.dtype), ("--global-dim", args.global_dim),
                              ("--global-strides", args.global_strides), ("--box-dim", args.box_dim)) if v is None]
    if missing:
        raise TensorMapError(f"missing {', '.join(missing)} (or use --plan SMEM --global GLOBAL --dtype T)")
    gdim = int_list(args.global_dim, "--global-dim")
    # A rank-1 tensor has no strides: accept an empty --global-strides ''.
    gstr = int_list(args.global_strides, "--global-strides") if args.global_strides.strip() else ()
    kw: dict[str, Any] = {
        "tensor_data_type": parse_data_type(args.dtype),
        "global_dim": gdim,
        "global_strides": gstr,
        "box_dim": int_list(args.box_dim, "--box-dim"),
        "swizzle": args.swizzle,
        "interleave": args.interleave,
        "l2_promotion": args.l2_promotion,
        "oob_fill": args.oob_fill,
        "global_address": _int(args.global_address, "--global-address"),
    }
    if args.element_strides is not None:
        kw["element_strides"] = int_list(args.element_strides, "--element-strides")
    if args.rank is not None:
        kw["tensor_rank"] = _int(args.rank, "--rank")
    return TiledTensorMap(**kw)


def _params(m: Any) -> dict:
    return {
        "tensorDataType": m.tensor_data_type.short_name, "tensorRank": m.tensor_rank,
        "globalAddress": m.global_address, "globalDim": list(m.global_dim), "globalStrides": list(m.global_strides),
        "boxDim": list(m.box_dim), "elementStrides": list(m.element_strides), "interleave": m.interleave.short_name,
        "swizzle": m.swizzle.tma_name, "l2Promotion": m.l2_promotion.short_name, "oobFill": m.oob_fill.short_name,
    }


def _cmd_check(args: argparse.Namespace) -> int:
    from ...arch.tma import TILED, swizzle_base_offset, swizzle_mode_info

    m = _map_from_args(args)
    direction = args.direction
    if direction not in ("load", "store"):
        raise TensorMapError(f"--direction must be 'load' or 'store', got {fmt(direction)}")
    found = m.violations(direction, arch=None if args.arch == "any" else args.arch)
    if found:
        if args.json:
            print(json.dumps({"valid": False, "function": TILED, "direction": direction, "parameters": _params(m),
                              "violations": [{"rule": v.rule, "message": v.message} for v in found]}))
        else:
            print(f"{TILED}: {len(found)} violated rule(s) ({direction})")
            for v in found:
                print(f"  [{v.rule}] {v.message}")
        return 1  # a finding: every violated rule is printed above, once
    dst = _int(args.dst, "--dst")
    lines = _int(args.lines, "--lines")
    if lines < 1:
        raise TensorMapError(f"--lines must be >= 1, got {lines}")
    info = swizzle_mode_info(m.swizzle)
    loaded = m.elements_per_dim()
    eb = m.tensor_data_type.smem_bits / 8
    box_bytes = int(np.prod(loaded) * eb)
    cell, first, grid = placement_grid(m, dst, direction)  # validates dst against the mode's alignment
    base = swizzle_base_offset(m.swizzle, dst)
    if args.json:
        print(json.dumps({
            "valid": True, "function": TILED, "direction": direction, "parameters": _params(m),
            "elements_per_dim": list(loaded), "box_bytes": box_bytes, "dst_address": dst,
            "swizzle": {"mode": info.mode.tma_name, "value": int(info.mode), "span_bytes": info.span_bytes,
                        "atomicity_bytes": info.atomicity_bytes, "period_bytes": info.period_bytes,
                        "byte_map": str(info.byte_map), "base_offset": base,
                        "cute_forms": _map_forms(info, m.tensor_data_type.smem_bits)},
            "cell_bytes": cell, "first_line_address": first, "lines_total": int(grid.shape[0]),
            "placement": [[int(v) for v in row] for row in grid[:lines]],
        }))
        return 0
    p = _params(m)
    span = "no limit" if info.span_bytes is None else f"{info.span_bytes} B"
    print(f"{TILED}: valid ({direction})")
    print(f"  tensorDataType {p['tensorDataType']} ({m.tensor_data_type.bits} bits), tensorRank {m.tensor_rank}, "
          f"globalAddress {m.global_address:#x}")
    print(f"  globalDim {{{', '.join(map(str, m.global_dim))}}}, globalStrides {{{', '.join(map(str, m.global_strides))}}} "
          "bytes")
    print(f"  boxDim {{{', '.join(map(str, m.box_dim))}}}, elementStrides {{{', '.join(map(str, m.element_strides))}}} "
          f"-> {' x '.join(map(str, loaded))} elements, {box_bytes} bytes per copy")
    print(f"  interleave {p['interleave']}, l2Promotion {p['l2Promotion']}, oobFill {p['oobFill']}")
    print(f"  swizzle {info.mode.tma_name} (CUtensorMapSwizzle {int(info.mode)}): span {span}, byte map "
          f"{info.byte_map}, period {info.period_bytes} B, alignment {info.required_alignment_bytes} B")
    forms = _map_forms(info, m.tensor_data_type.smem_bits)
    if forms is not None:
        print(f"  in CuTe: {forms}")
    print(f"  dst {dst:#x}: swizzle base offset {base}")
    print(f"shared-memory placement ({cell}-byte cells; row = 128-byte line, cell = source {cell}-byte cell it "
          "holds, numbered within its source 128-byte line)")
    print(format_grid(cell, first, grid, lines))
    return 0


def _cmd_plan(args: argparse.Namespace) -> int:
    from ...arch.tma.plan import parse_data_type, plan_tma_load

    if args.global_layout is None:
        raise TensorMapError("--plan needs --global GLOBAL_LAYOUT (the tensor's shape:stride in elements)")
    if args.dtype is None:
        raise TensorMapError("--plan needs --dtype (e.g. bf16, fp8, tf32)")
    clash = [o for o, v in (("--global-dim", args.global_dim), ("--global-strides", args.global_strides),
                            ("--box-dim", args.box_dim), ("--element-strides", args.element_strides)) if v is not None]
    if clash:
        raise TensorMapError(f"--plan derives the tensor map itself; drop {', '.join(clash)}")
    dt = parse_data_type(args.dtype)
    plan = plan_tma_load(args.plan, args.global_layout, dt.bits, data_type=dt,
                         global_address=_int(args.global_address, "--global-address"), split=args.split,
                         swizzle_unit=args.swizzle_unit or "elements")
    forms = _forms(plan)
    if args.json:
        d = plan.to_dict()
        d["smem_layout"] = args.plan
        d["global_layout"] = args.global_layout
        d["swizzle_forms"] = forms
        print(json.dumps(d))
        return 0
    m = plan.tensor_map
    print(f"smem layout : {args.plan}  ({plan.element_bits}-bit {m.tensor_data_type.short_name})")
    print(f"in CuTe     : {forms}")
    print(f"global      : {args.global_layout}")
    print(f"box         : {{{', '.join(map(str, plan.box_dim))}}} (innermost first), swizzle {plan.swizzle.tma_name} "
          f"(CUtensorMapSwizzle {int(plan.swizzle)}), {plan.num_copies} cop{'y' if plan.num_copies == 1 else 'ies'} "
          f"of {plan.bytes_per_copy} bytes")
    for note in plan.box_notes:
        print(f"  {note}")
    print(f"tensor map  : cuTensorMapEncodeTiled(tensorDataType={m.tensor_data_type.short_name}, "
          f"tensorRank={m.tensor_rank}, globalDim={{{', '.join(map(str, m.global_dim))}}}, "
          f"globalStrides={{{', '.join(map(str, m.global_strides))}}}, boxDim={{{', '.join(map(str, m.box_dim))}}}, "
          f"elementStrides={{{', '.join(map(str, m.element_strides))}}}, interleave=NONE, "
          f"swizzle={m.swizzle.tma_name})")
    print("copies      :   #  TMA coordinates (from the tile origin)  smem offset (bytes)")
    for i, c in enumerate(plan.copies):
        print(f"              {i:>3}  {'(' + ', '.join(map(str, c.coords)) + ')':<38} {c.smem_offset_bytes:#x}")
    return 0


def _map_forms(info: Any, smem_bits: Any) -> str | None:
    """A tensor map's swizzle in both CuTe forms for its element width (None when unswizzled or not one map)."""
    from ...core.composed import swizzle_forms
    from ...core.swizzle import Swizzle, XorSwizzle

    sw = info.byte_map
    if not isinstance(sw, (Swizzle, XorSwizzle)) or sw.is_identity() or not isinstance(smem_bits, int):
        return None
    return swizzle_forms(sw, smem_bits)


def _forms(plan: Any) -> str:
    """The planned mode's swizzle in both CuTe forms for the plan's element width."""
    from ...arch.tma import swizzle_mode_info
    from ...core.composed import swizzle_forms

    return f"{plan.swizzle.tma_name}: " + swizzle_forms(swizzle_mode_info(plan.swizzle).byte_map, plan.element_bits)


def _cmd_tma(args: argparse.Namespace) -> int:
    if args.plan is not None:
        return _cmd_plan(args)
    if args.global_layout is not None:
        raise TensorMapError("--global is only used with --plan SMEM_LAYOUT")
    if args.swizzle_unit is not None:
        raise TensorMapError("--swizzle-unit is only used with --plan SMEM_LAYOUT")
    return _cmd_check(args)


def _one_line_error(parser: argparse.ArgumentParser) -> Any:
    def error(message: str) -> None:
        print(f"pycute-layouts tma: error: {message}", file=sys.stderr)
        raise SystemExit(2)

    return error


def register(sub: Any) -> None:
    """Add the ``tma`` subcommand to an argparse subparsers object.

    >>> import argparse
    >>> p = argparse.ArgumentParser(); register(p.add_subparsers())
    """
    sub = subparsers(sub, "tma.register")
    t = sub.add_parser(
        "tma", help="check cuTensorMapEncodeTiled parameters and show the smem placement, or plan a tensor map",
        description="Validate cuTensorMapEncodeTiled parameters (every violated rule is listed) and show where "
                    "the box lands in shared memory as a table of 16-byte chunks; or, with --plan, derive the "
                    "tensor map and the copies that produce a shared-memory tile layout.",
        epilog='examples:\n  pycute-layouts tma --dtype bf16 --global-dim 4096,4096 --global-strides 8192 '
               '--box-dim 64,64 --swizzle 128B\n  pycute-layouts tma --plan "Sw<3,3,3> o 0 o ((8,16),(64,2))'
               ':((64,512),(1,8192))" --global "(4096,4096):(4096,1)" --dtype bf16',
        formatter_class=argparse.RawDescriptionHelpFormatter)
    t.error = _one_line_error(t)  # type: ignore[method-assign]
    t.add_argument("--dtype", help="tensorDataType: bf16, f16, tf32, f32, fp8, u8, ... or a CU_TENSOR_MAP_DATA_TYPE_* name")
    t.add_argument("--global-dim", metavar="D0,D1,...", help="globalDim, innermost first (elements)")
    t.add_argument("--global-strides", metavar="S1,...", help="globalStrides in bytes (tensorRank - 1 entries)")
    t.add_argument("--box-dim", metavar="B0,B1,...", help="boxDim, innermost first")
    t.add_argument("--element-strides", metavar="E0,...", help="elementStrides (default all 1)")
    t.add_argument("--rank", help="tensorRank (default: the number of --global-dim entries)")
    t.add_argument("--swizzle", default="NONE", help="NONE, 32B, 64B, 128B, 128B_ATOM_32B, 128B_ATOM_32B_FLIP_8B, "
                                                   "128B_ATOM_64B (or the driver name / value)")
    t.add_argument("--interleave", default="NONE", help="NONE, 16B, 32B")
    t.add_argument("--l2-promotion", default="NONE", help="NONE, 64B, 128B, 256B")
    t.add_argument("--oob-fill", default="NONE", help="NONE or NAN_REQUEST_ZERO_FMA")
    t.add_argument("--global-address", default="0", help="globalAddress (default 0)")
    t.add_argument("--direction", default="load", help="load (global -> shared, default) or store")
    t.add_argument("--arch", default="any", choices=("sm90", "sm100", "any"),
                   help="target GPU: any (default) checks the documented rules only, as validate() does; sm90 also "
                        "applies what the H100's driver rejects (rules arch.*: the 128B_ATOM modes, ALIGN16B types)")
    t.add_argument("--dst", default="0", help="shared-memory destination address of the box (default 0)")
    t.add_argument("--lines", default="16", help="128-byte lines of the placement table to print (default 16)")
    t.add_argument("--plan", metavar="SMEM_LAYOUT", help='derive the tensor map for this smem layout (elements), e.g. '
                   '"Sw<3,3,3> o 0 o (8,64):(64,1)" with --dtype bf16 (CuTe\'s meaning: the swizzle on element '
                   'offsets) or "Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)" (the swizzle on byte addresses)')
    t.add_argument("--swizzle-unit", choices=("elements", "bytes"), default=None,
                   help="with --plan: what the swizzle of 'Sw<B,M,S> o k o L' acts on: element offsets (default, "
                        "CuTe's meaning) or byte addresses (PTX's reading; prefer the smem_ptr form)")
    t.add_argument("--global", dest="global_layout", metavar="GLOBAL_LAYOUT",
                   help='with --plan: the global tensor, shape:stride in elements, e.g. "(4096,4096):(4096,1)"')
    t.add_argument("--split", action="store_true", help="with --plan: shrink box dimensions past a driver limit "
                                                        "(more copies) instead of failing")
    t.add_argument("--json", action="store_true", help="print JSON")
    t.set_defaults(func=_cmd_tma)
