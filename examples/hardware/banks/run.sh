#!/usr/bin/env bash
# Bank-conflict check of pycute_layouts.analysis on a Hopper GPU (issue 10); writes ONE JSON result file.
#
#   pycute-layouts hwcheck --emit examples/hardware/banks/generated                # any machine: cases from the library
#   examples/hardware/banks/run.sh [OUT.json]                                        # GPU machine: build, time, ncu
#   python -m pytest -q -p no:cacheprovider tests/test_hw_banks.py                   # any machine: re-verify the file
#
# Timing always runs; the ncu wavefront counters are collected when `ncu` is on PATH and may read the GPU's
# performance counters (its exit status and stderr are recorded either way).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
GEN=${BANKS_GEN:-$HERE/generated}
OUTF=${1:-$HERE/results/banks-$(date -u +%F).json}
[ -f "$GEN/banks_cases.cuh" ] || { echo "run.sh: $GEN/banks_cases.cuh missing: run 'pycute-layouts hwcheck --emit $GEN'" >&2; exit 2; }
TMP=$(mktemp -d)
if [ -n "${BANKS_BIN:-}" ] && [ -x "$BANKS_BIN" ]; then cp "$BANKS_BIN" "$TMP/banks"; else
  nvcc -std=c++17 -O3 -gencode=arch=compute_90a,code=sm_90a -I"$GEN" -o "$TMP/banks" "$HERE/banks.cu" || exit 2
fi
if command -v cuobjdump >/dev/null; then
  cuobjdump -sass "$TMP/banks" > "$TMP/sass.txt" 2>&1 || true
fi
"$TMP/banks" time "$TMP/time.json" || exit 2
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
if [ -n "$NCU" ]; then
  "$NCU" --version > "$TMP/ncu.version" 2>&1
  "$NCU" --query-metrics > "$TMP/ncu.metrics" 2>&1 || true
  WANT="l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum \
l1tex__data_pipe_lsu_wavefronts_mem_shared.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum \
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum \
smsp__inst_executed_op_shared_ld.sum smsp__inst_executed_op_ldsm.sum smsp__sass_inst_executed_op_shared_ld.sum \
smsp__sass_inst_executed_op_ldsm.sum"
  M=""
  for m in $WANT; do
    grep -q "^${m%.sum}\b\|^${m%.sum} " "$TMP/ncu.metrics" && M="$M${M:+,}$m"
  done
  [ -n "$M" ] || M="l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"
  echo "$M" > "$TMP/ncu.asked"
  "$NCU" --metrics "$M" --csv --print-units base -k regex:bank_kernel "$TMP/banks" ncu > "$TMP/ncu.csv" 2> "$TMP/ncu.err"
  echo $? > "$TMP/ncu.rc"
fi
python3 "$HERE/merge_banks.py" "$OUTF" "$TMP" "${BANKS_PLAN:-$GEN/banks_plan.json}"
