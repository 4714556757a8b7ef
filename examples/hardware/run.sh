#!/usr/bin/env bash
# Build (if needed) and run the hardware checks of pycute_layouts on a Hopper GPU; writes ONE JSON result file.
#
#   pycute-layouts hwcheck --emit examples/hardware/generated     # on any machine: sources + data from the library
#   examples/hardware/run.sh [OUT.json]                            # on the GPU machine (nvcc, sm_90 GPU, driver)
#   pycute-layouts hwcheck --verify OUT.json                       # anywhere: recompute every prediction
#
# The binary is built with nvcc -gencode=arch=compute_90a,code=sm_90a (wgmma needs sm_90a); the driver's
# tensor-map encoders are reached through cudaGetDriverEntryPointByVersion, so no -lcuda is needed to link.
# Each phase runs in its own process; a launch that breaks the CUDA context (possible for a negative control)
# ends that process, which is restarted after the failing case.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
GEN=${HWCHECK_GEN:-$HERE/generated}
OUTF=${1:-$HERE/results/hwcheck-$(date -u +%F).json}
if [ ! -f "$GEN/hwcheck_cases.cuh" ]; then
  echo "run.sh: $GEN/hwcheck_cases.cuh is missing: run 'pycute-layouts hwcheck --emit $GEN' first" >&2
  exit 2
fi
if [ ! -x "$GEN/hwcheck" ] || [ "${HWCHECK_REBUILD:-0}" = 1 ]; then
  (cd "$HERE" && nvcc -std=c++17 -O2 -gencode=arch=compute_90a,code=sm_90a -o "$GEN/hwcheck" hwcheck.cu) || exit 2
fi
TMP=$(mktemp -d)
for phase in ${HWCHECK_PHASES:-place store valid im2col mma e2e neg}; do
  start=0
  i=0
  while :; do
    "$GEN/hwcheck" "$phase" "$TMP/$phase.$i.json" "$GEN/hwcheck_data.bin" "$start"
    rc=$?
    if [ $rc -eq 3 ] && [ $i -lt 50 ]; then
      start=$(cat "$TMP/$phase.$i.json.next")
      i=$((i + 1))
    else
      [ $rc -eq 0 ] || echo "run.sh: phase $phase ended with rc $rc" >&2
      break
    fi
  done
done
python3 "$HERE/merge_results.py" "$OUTF" "$TMP"/*.json
