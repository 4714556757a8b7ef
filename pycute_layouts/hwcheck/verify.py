"""Verifying a GPU result file: every prediction recomputed with the current library, known differences."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from ..arch import tma
from ..arch.swizzle_modes import SwizzleMode
from ..errors import HwCheckError, LayoutError, TensorMapError
from ..limits import check_text_nesting, fmt, read_text_file
from . import atoms_check, banks_check
from .cases import K_INSTR_ELEMS, fnv_hash
from .gemm import verify_gemm
from .predict import case_descriptors, e2e_prediction, im2col_prediction, mma_constants

__all__ = ['KNOWN_DIFFERENCES', 'verify', 'format_table']


# --------------------------------------------------------------------------------------------------
# Verifying a result file
# --------------------------------------------------------------------------------------------------


def _load(results: Any) -> dict:
    if isinstance(results, dict):
        if not isinstance(results.get("cases"), list):
            raise HwCheckError("hwcheck --verify: the result dict has no 'cases' list (not a hwcheck result)")
        return results
    text = read_text_file(results, "hwcheck --verify", HwCheckError)
    p = Path(results)
    check_text_nesting(text, f"hwcheck --verify: {p}", HwCheckError)
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as e:
        raise HwCheckError(f"hwcheck --verify: {p} is not a readable JSON result file: {e}") from None
    if not isinstance(data, dict) or "cases" not in data or not isinstance(data["cases"], list):
        raise HwCheckError(f"hwcheck --verify: {p} has no 'cases' list (not a hwcheck result file)")
    return data


def _legacy(data: dict) -> dict:
    """Result files of the former separate harnesses (atoms, banks) as cases with a ``kind``."""
    meta = data.get("meta") if isinstance(data.get("meta"), dict) else {}
    gen = str(meta.get("generator", ""))
    if "gen_atoms" in gen:
        cases = [{"kind": "atom", "id": f"atom/{c.get('name')}", **c} if isinstance(c, dict) and "kind" not in c else c
                 for c in data["cases"]]
        return {**data, "cases": cases}
    if "gen_banks" in gen:
        cases = [{"id": f"bank/{c.get('name')}", "ncu_iters": meta.get("ncu_iters"), **c, "kind": "bank",
                  "access_kind": c.get("kind")} if isinstance(c, dict) else c for c in data["cases"]]
        return {**data, "cases": cases}
    return data


_ATOM_CASES: dict[str, Any] = {}


def _verify_atom(obs: dict) -> dict:
    """A thread-value layout case: every register value against the current library's layouts."""
    if not _ATOM_CASES:
        _ATOM_CASES.update({c.name: c for c in atoms_check.cases()})
    c = _ATOM_CASES.get(obs["name"])
    if c is None:
        return _row(obs, False, f"the library no longer has the case {fmt(obs['name'])}")
    if obs.get("error"):
        return _row(obs, False, f"CUDA error {obs['error']}")
    n, errs = atoms_check.check_case(c, [int(x) for x in obs["out"]])
    if c.atom is None:
        what = "the swizzled tile's byte_address"
    elif c.kind == "wgmma_tiled":
        what = f"the two-warpgroup partition of {c.atom.atom.name}"
    elif c.kind == "mma_complex":
        what = f"the host's complex GEMM through {c.atom.name}'s layouts (CuTe's f64 mma.sync sequence)"
    elif c.kind == "dot2":
        what = f"PTX's dp2a.{c.name.rsplit('/', 1)[1]} rule on {c.atom.name}'s A (CuTe's traits' 16-bit B holds for no mode)"
    else:
        what = f"{c.atom.name}'s layouts"
    return _row(obs, not errs, f"{n} values equal to {what}" if not errs else "; ".join(errs[:3]))


def _bank_errors(cases: list[dict]) -> dict[str, list[str]]:
    """name -> disagreements of every bank case in the file (the timing baseline is file-wide)."""
    banks = [c for c in cases if isinstance(c, dict) and c.get("kind") == "bank"]
    if not banks:
        return {}
    iters = {c.get("ncu_iters") for c in banks}
    if len(iters) != 1 or not isinstance(next(iter(iters)), int):
        raise HwCheckError(f"hwcheck --verify: bank cases need one integer ncu_iters, got {sorted(map(str, iters))}")
    by: dict[str, list[str]] = {c["name"]: [] for c in banks}
    for e in banks_check.verify_banks(banks, next(iter(iters))):
        name = next((n for n in by if e.startswith(n + ":")), None)
        if name is None:
            raise HwCheckError(f"hwcheck --verify: bank cases: {e}")
        by[name].append(e)
    return by


def _row(case: dict, ok: bool, detail: str) -> dict:
    return {"id": case.get("id", "?"), "kind": case.get("kind", "?"), "ok": bool(ok), "detail": detail}


def _verify_place(obs: dict) -> dict:
    mode, eb, box, dst = obs["mode"], obs["elem_bytes"], tuple(obs["box"]), obs["dst_abs"]
    try:
        if SwizzleMode.parse(mode).min_arch != "sm90":
            raise TensorMapError(f"swizzle {mode} needs {SwizzleMode.parse(mode).min_arch} "
                                     "(rule arch.swizzle_sm100)")
        pred = tma.box_to_smem(mode, eb, box, dst).ravel()
        lib_ok = True
    except LayoutError as e:
        lib_ok, why = False, str(e).splitlines()[0]
    drv_ok = obs["encode_rc"] == 0 and obs.get("launch_rc", 0) == 0
    if not lib_ok:
        return _row(obs, not drv_ok, f"library rejects ({why[:80]}); driver rc={obs['encode_rc']}")
    if not drv_ok:
        return _row(obs, False, f"library predicts a placement but the driver returned rc={obs['encode_rc']} "
                                f"launch={obs.get('launch_rc', 0)}")
    h = fnv_hash(pred)
    if h == obs["hash"] and obs.get("anomalies", 0) == 0:
        return _row(obs, True, f"{pred.size} bytes placed as box_to_smem predicts")
    alt = []
    span = tma.swizzle_mode_info(mode).span_bytes
    if span:
        try:
            if fnv_hash(tma.box_to_smem(mode, eb, box, dst, row_pitch_bytes=span).ravel()) == obs["hash"]:
                alt.append(f"rows padded to the {span}-byte span")
        except LayoutError:
            pass
    if fnv_hash(tma.box_to_smem(mode, eb, box, dst - dst % 1024).ravel()) == obs["hash"]:
        alt.append("swizzle relative to dst (dst treated as aligned)")
    diffs = obs.get("first_diffs", [])
    return _row(obs, False, f"hash {obs['hash']} != predicted {h}; anomalies={obs.get('anomalies', 0)}; "
                            f"matches model: {', '.join(alt) or 'none tried'}; first diffs (byte, observed, expected) "
                            f"{diffs[:4]}")


def _verify_store(obs: dict) -> dict:
    """A TMA store: global byte i must come from the smem byte box_to_smem names; the load-store round trip is exact."""
    row = _verify_place(obs)
    if row["ok"] and obs.get("roundtrip_mismatches", 0):
        return _row(obs, False, f"{row['detail']}; but the TMA load -> TMA store round trip changed "
                                f"{obs['roundtrip_mismatches']} bytes")
    if row["ok"] and "hash" in obs:
        row["detail"] = row["detail"].replace("placed as box_to_smem predicts",
                                              "stored from where box_to_smem places them; load->store round trip exact")
    return row


def _verify_im2col(obs: dict) -> dict:
    """An im2col load: every smem pixel row and every element against im2col_load + box_to_smem."""
    c = obs["params"]
    try:
        pr = im2col_prediction(c)
        lib_ok, why = True, ""
    except LayoutError as e:
        lib_ok, why = False, str(e).splitlines()[0]
    drv_ok = obs["encode_rc"] == 0 and obs.get("launch_rc", 0) == 0 and not obs.get("status", 0)
    if not lib_ok:
        return _row(obs, not drv_ok, f"library rejects ({why[:90]}); driver rc={obs['encode_rc']} "
                                     f"launch={obs.get('launch_rc')}")
    if not drv_ok:
        return _row(obs, False, f"library predicts a load but the GPU gave encode rc={obs['encode_rc']}, launch "
                                f"rc={obs.get('launch_rc')} ({obs.get('launch_error', '')}), status={obs.get('status')}")
    acc = pr["acc"]
    rows_ok = list(pr["row_pixels"]) == list(obs["row_pixels"])
    if obs["hash"] == pr["hash"] and rows_ok:
        filled = int(np.count_nonzero(~acc.in_bounds))
        return _row(obs, True, f"{acc.num_rows} pixel rows x {c['channels']} channels as im2col_load predicts "
                               f"({filled} rows filled), bytes where box_to_smem puts them")
    alt = []
    if obs["hash"] == im2col_prediction(c, dense=True)["hash"]:
        alt.append("rows packed densely (channels * elem_bytes apart)")
    bad_rows = [r for r, (x, y) in enumerate(zip(pr["row_pixels"], obs["row_pixels"], strict=False)) if x != y]
    return _row(obs, False, f"hash {obs['hash']} != predicted {pr['hash']}; rows differing from im2col_load: "
                            f"{bad_rows[:8]}; matches model: {', '.join(alt) or 'none tried'}; first diffs (element, "
                            f"observed, expected) {obs.get('first_diffs', [])[:4]}")


def _verify_valid(obs: dict) -> dict:
    p = obs["params"]
    common = dict(tensor_data_type=p["dtype"], global_dim=p["gdim"], global_strides=p["gstrides"],
                  element_strides=p["estrides"], interleave=p["interleave"], swizzle=p["swizzle"], oob_fill=p["oob"],
                  global_address=p["addr_off"])
    try:
        if p["function"] == tma.IM2COL:
            m: Any = tma.Im2colTensorMap(pixel_box_lower_corner=p["lower"], pixel_box_upper_corner=p["upper"],
                                         channels_per_pixel=p["channels"], pixels_per_column=p["pixels"], **common)
        else:
            m = tma.TiledTensorMap(box_dim=p["box"], **common)
        v = m.violations(arch="sm90")
    except LayoutError as e:
        v = [tma.TensorMapViolation("parse", str(e))]
    lib_accepts = not v
    drv_accepts = obs["encode_rc"] == 0
    rules = ",".join(x.rule for x in v) or "-"
    return _row(obs, lib_accepts == drv_accepts, f"driver {'accepts' if drv_accepts else 'rejects'} (rc="
                f"{obs['encode_rc']}), library {'accepts' if lib_accepts else 'rejects: ' + rules}; {p.get('note', '')}")


def _verify_mma(obs: dict) -> dict:
    cfg = obs["cfg"]
    case = {"cfg": cfg, "mutation": obs.get("mutation"), "kind": obs["kind"], "id": obs["id"]}
    try:
        c = mma_constants(cfg)
        da, db, predicted = case_descriptors(case)
    except LayoutError as e:
        return _row(obs, False, f"the library no longer derives this configuration: {str(e).splitlines()[0]}")
    problems = []
    ran_a = [int(x, 16) for x in obs["descA"]]
    ran_b = [int(x, 16) for x in obs["descB"]]
    if ran_a != [v for row in da for v in row] or ran_b != db:
        problems.append("descriptors differ from the ones the GPU ran")
    loader = obs.get("loader", 0)
    if loader == 0 and (c["a_addr_hash"] != obs["a_addr_hash"] or c["b_addr_hash"] != obs["b_addr_hash"]):
        problems.append("store addresses differ from the ones the GPU ran")
    ok_place = True
    if loader == 1:
        ok_place, mode_a = e2e_prediction(case)
        if mode_a != obs["tma_mode_a"] or c["B"].tma_mode != obs["tma_mode_b"]:
            problems.append("TMA swizzle modes differ from the ones the GPU ran")
        boxes = [list(x) for x in c["A"].boxes] + [list(x) for x in c["B"].boxes]
        if fnv_hash(np.array(boxes).ravel()) != obs.get("boxes_hash"):
            problems.append("TMA boxes differ from the ones the GPU ran")
        if "box_a" in obs and (tuple(obs["box_a"]) != tuple(c["A"].box) or tuple(obs["box_b"]) != tuple(c["B"].box)):
            problems.append("TMA box dimensions differ from the ones the GPU ran")
        if "tma_dtype_a" in obs:
            want = [int(tma.TensorDataType.parse(c[op].oc.dtype.tma_data_type)) for op in ("A", "B")]
            if [obs["tma_dtype_a"], obs["tma_dtype_b"]] != want:
                problems.append("TMA data types differ from the ones the GPU ran")
    if obs.get("launch_rc", 0) != 0 or obs.get("encode_rc", 0) != 0:
        return _row(obs, False, f"GPU run failed: encode rc={obs.get('encode_rc', 0)}, launch rc={obs.get('launch_rc')}")
    ref_hash = c["ref_hash"]
    observed_wrong = obs["mismatches"] > 0
    if observed_wrong == (obs["d_hash"] == ref_hash):
        problems.append("inconsistent result record (mismatch count vs D hash)")
    if obs["kind"] in ("mma", "e2e"):
        # the model's own consistency: descriptor reads == store/TMA placement
        ki = K_INSTR_ELEMS[cfg["dtype"]]
        ra, rb = c["reads_A"], c["reads_B"]
        exp_a = np.stack([np.stack([c["A"].addrs[i * 64:(i + 1) * 64, s * ki:(s + 1) * ki] for s in range(len(row))])
                          for i, row in enumerate(c["A"].descs)])
        exp_b = np.stack([c["B"].addrs[:, s * ki:(s + 1) * ki] for s in range(len(c["B"].descs[0]))])[None]
        if not (np.array_equal(ra, exp_a) and np.array_equal(rb, exp_b)):
            problems.append("library inconsistency: descriptor model reads != placement")
        if loader == 1 and not ok_place:
            problems.append("library inconsistency: TMA placement != descriptor placement")
        if observed_wrong:
            problems.append(f"D differs from A@B in {obs['mismatches']} elements (first {obs.get('first_diffs', [])[:3]})")
        detail = "D == A@B exactly" if not problems else "; ".join(problems)
        return _row(obs, not problems, detail)
    if case["mutation"] and case["mutation"]["field"] == "tma_swizzle":
        predicted = not ok_place
    want = "wrong product" if predicted else "unchanged product (field not read)"
    got = "wrong product" if observed_wrong else "unchanged product"
    if bool(predicted) != observed_wrong:
        problems.append(f"library predicts {want}, GPU gave {got}")
    return _row(obs, not problems, "; ".join(problems) if problems else f"{got}, as predicted")


#: Documented differences between the library and the hardware (docs/hardware-validation.md). A failing
#: row is labelled with one of these keys only when its evidence matches the documented pattern exactly;
#: any other failure stays unexplained.
KNOWN_DIFFERENCES: dict[str, str] = {
    "tma.interleave32_swizzle": ("the driver accepts interleave 32B with a swizzle other than 32B, although the driver "
                                 "documentation (and validate()) require CU_TENSOR_MAP_SWIZZLE_32B; the library keeps "
                                 "the documented (stricter) rule"),
}


def _known(obs: dict, row: dict) -> str | None:
    """The KNOWN_DIFFERENCES key whose documented pattern this failing row matches, else None."""
    if obs.get("kind") == "valid":
        p = obs["params"]
        if obs["encode_rc"] == 0 and p["interleave"] == "32B" and p["swizzle"] != "32B":
            return "tma.interleave32_swizzle"
    return None


def verify(results: Any) -> tuple[list[dict], dict]:
    """Recompute every prediction for a result file (path or dict) with the current library.

    Pre:  ``results`` a result file path or its parsed dict.
    Post: (one row per case with ``ok`` and ``known``, the file's meta); HwCheckError for a malformed file.

    Returns ``(rows, meta)``: one row per case (``id``, ``kind``, ``ok``, ``detail``, and
    ``known``: the :data:`KNOWN_DIFFERENCES` key that explains a failing row, else None) and the
    file's metadata. Raises :class:`HwCheckError` for a file that is not a result file.

    >>> verify({"meta": {}, "cases": []})
    ([], {})
    >>> verify({"cases": [{"kind": "bogus", "id": "x"}]})
    Traceback (most recent call last):
    ...
    pycute_layouts.errors.HwCheckError: hwcheck --verify: case 'x' has unknown kind 'bogus'
    """
    data = _legacy(_load(results))
    rows = []
    try:
        bank_errs = _bank_errors(data["cases"])
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise HwCheckError(f"hwcheck --verify: bank cases are malformed: {type(e).__name__}: {e}") from None

    def _verify_bank(obs: dict) -> dict:
        errs = bank_errs[obs["name"]]
        src = "ncu counters and timing" if obs.get("ncu") else "timing only (no ncu counters)"
        return _row(obs, not errs, "; ".join(errs[:3]) if errs else f"{src} as bank_conflicts predicts")

    def _gemm(obs: dict) -> dict:
        ok, detail = verify_gemm(obs)
        return _row(obs, ok, detail)

    fn = {"place": _verify_place, "store": _verify_store, "valid": _verify_valid, "im2col": _verify_im2col,
          "mma": _verify_mma, "e2e": _verify_mma, "neg": _verify_mma, "atom": _verify_atom, "bank": _verify_bank,
          "gemm": _gemm}
    for obs in data["cases"]:
        if not isinstance(obs, dict) or obs.get("kind") not in fn:
            kind = obs.get("kind") if isinstance(obs, dict) else type(obs).__name__
            cid = obs.get("id") if isinstance(obs, dict) else "?"
            raise HwCheckError(f"hwcheck --verify: case {fmt(cid)} has unknown kind {fmt(kind)}")
        try:
            row = fn[obs["kind"]](obs)
            row["known"] = None if row["ok"] else _known(obs, row)
            rows.append(row)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
            if isinstance(e, LayoutError):
                raise
            raise HwCheckError(f"hwcheck --verify: case {fmt(obs.get('id'))} is malformed: {type(e).__name__}: {e}") from None
    return rows, data.get("meta", {})


def format_table(rows: list[dict], *, all_rows: bool = False) -> str:
    """A pass/fail summary per kind, the known differences, then the unexplained failures (every row with ``all_rows``).

    Pre:  ``rows`` as :func:`verify` returns them.
    Post: a pass/fail table per kind, then the failing (or all) rows.

    >>> print(format_table([{"id": "a", "kind": "mma", "ok": True, "detail": "fine"}]))
    kind    pass  fail
    mma        1     0
    total      1     0
    """
    if not isinstance(rows, list) or not all(isinstance(r, dict) and "kind" in r and "ok" in r for r in rows):
        raise HwCheckError(f"format_table: rows must be the list of row dicts verify() returns, got {fmt(rows)}"[:200])
    kinds: dict[str, list[int]] = {}
    known: dict[str, int] = {}
    for r in rows:
        k = kinds.setdefault(r["kind"], [0, 0, 0])
        if r["ok"]:
            k[0] += 1
        elif r.get("known"):
            k[1] += 1
            known[r["known"]] = known.get(r["known"], 0) + 1
        else:
            k[2] += 1
    lines = [f"{'kind':6} {'pass':>5} {'fail':>5}"]
    for name, (p, kf, f) in kinds.items():
        lines.append(f"{name:6} {p:5d} {kf + f:5d}" + (f"  ({kf} known)" if kf else ""))
    tp = sum(v[0] for v in kinds.values())
    tk = sum(v[1] for v in kinds.values())
    tf = sum(v[2] for v in kinds.values())
    lines.append(f"{'total':6} {tp:5d} {tk + tf:5d}" + (f"  ({tk} known)" if tk else ""))
    if known:
        lines.append("")
        lines.append("known differences (docs/hardware-validation.md):")
        for key, n in known.items():
            lines.append(f"  {key}: {n} case(s): {KNOWN_DIFFERENCES[key]}")
    shown = [r for r in rows if all_rows or (not r["ok"] and not r.get("known"))]
    if shown:
        lines.append("")
        for r in shown:
            tag = "PASS" if r["ok"] else ("KNOWN" if r.get("known") else "FAIL")
            lines.append(f"{tag:5} {r['id']}: {r['detail']}")
    return "\n".join(lines)

