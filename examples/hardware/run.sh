#!/usr/bin/env bash
# Build and run EVERY hardware check of pycute_layouts on a Hopper GPU; writes ONE JSON result file.
#
#   pycute-layouts hwcheck --emit DIR          # any machine: every generated source, from the library
#   examples/hardware/run.sh DIR [OUT.json]    # the GPU machine (nvcc, an sm_90 GPU, driver); python3 (stdlib)
#   pycute-layouts hwcheck --verify OUT.json   # anywhere: recompute every prediction (exit 0 held, 1 mismatch, 2 bad file)
#
# DIR may also be given as HWCHECK_GEN (default examples/hardware/generated). Programs (each built with
# nvcc -gencode=arch=compute_90a,code=sm_90a -I DIR): hwcheck.cu (TMA placement/stores, tensor-map validation,
# im2col, wgmma, TMA + wgmma, negative controls), atoms/atoms.cu (thread-value layouts), banks/banks.cu (bank
# conflicts: timing, and ncu counters where ncu can read them), gemm/gemm.cu (the GEMM from codegen constants).
# A program that breaks its CUDA context (possible for a negative control) is restarted after the failing case.
# HWCHECK_PARTS selects programs (default "hwcheck atoms banks gemm"); HWCHECK_PHASES the hwcheck phases.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
GEN=${1:-${HWCHECK_GEN:-$HERE/generated}}
case "$GEN" in *.json) echo "run.sh: first argument is the generated DIR, then OUT.json" >&2; exit 2;; esac
OUTF=${2:-$HERE/results/hwcheck-$(date -u +%F).json}
GEN=$(cd "$GEN" 2>/dev/null && pwd) || { echo "run.sh: no directory $1: run 'pycute-layouts hwcheck --emit DIR' first" >&2; exit 2; }
for f in hwcheck_cases.cuh atoms_cases.cuh banks_cases.cuh gemm_configs.cuh; do
  [ -f "$GEN/$f" ] || { echo "run.sh: $GEN/$f is missing: run 'pycute-layouts hwcheck --emit $GEN' first" >&2; exit 2; }
done
command -v nvcc >/dev/null || { echo "run.sh: nvcc not found" >&2; exit 2; }
FLAGS="-std=c++17 -O3 -gencode=arch=compute_90a,code=sm_90a"
TMP=$(mktemp -d)
PARTS=${HWCHECK_PARTS:-hwcheck atoms banks gemm}
build() {  # name source (HWCHECK_BIN: a folder of binaries built earlier from the same DIR, e.g. on a machine without a GPU)
  if [ -n "${HWCHECK_BIN:-}" ] && [ -x "$HWCHECK_BIN/$1" ]; then cp "$HWCHECK_BIN/$1" "$TMP/$1"; else
  nvcc $FLAGS -I"$GEN" -o "$TMP/$1" "$2" > "$TMP/$1.build.log" 2>&1 || { cat "$TMP/$1.build.log" >&2; echo "run.sh: building $1 failed" >&2; exit 2; }
  fi
  command -v cuobjdump >/dev/null && cuobjdump -sass "$TMP/$1" > "$TMP/$1.sass" 2>&1
}
restartable() {  # binary out-prefix args...: rerun from the .next case after a crash (rc 3 or 4)
  local bin=$1 pre=$2; shift 2
  local start=0 i=0
  while :; do
    "$bin" "$@" "$pre.$i.json" "$start"; rc=$?
    if [ $rc -ne 0 ] && [ -f "$pre.$i.json.next" ] && [ $i -lt 50 ]; then
      start=$(cat "$pre.$i.json.next"); i=$((i + 1)); echo "run.sh: $bin ended with rc $rc; restarting at case $start" >&2
    else
      [ $rc -eq 0 ] || echo "run.sh: $bin ended with rc $rc" >&2
      break
    fi
  done
}
for part in $PARTS; do
  case $part in
    hwcheck)
      build hwcheck "$HERE/hwcheck.cu"
      for phase in ${HWCHECK_PHASES:-place store valid im2col mma e2e neg}; do
        start=0; i=0
        while :; do
          "$TMP/hwcheck" "$phase" "$TMP/hw.$phase.$i.json" "$GEN/hwcheck_data.bin" "$start"; rc=$?
          if [ $rc -eq 3 ] && [ $i -lt 50 ]; then start=$(cat "$TMP/hw.$phase.$i.json.next"); i=$((i + 1)); else
            [ $rc -eq 0 ] || echo "run.sh: hwcheck phase $phase ended with rc $rc" >&2; break; fi
        done
      done ;;
    atoms)
      build atoms "$HERE/atoms/atoms.cu"
      "$TMP/atoms" "$TMP/atoms.raw.json" || echo "run.sh: atoms ended with rc $?" >&2 ;;
    banks)
      (cd "$HERE/banks" && BANKS_BIN="${HWCHECK_BIN:+$HWCHECK_BIN/banks}" BANKS_GEN="$GEN" BANKS_PLAN="$GEN/banks_plan.json" ./run.sh "$TMP/banks.result.json") \
        || echo "run.sh: banks ended with rc $?" >&2 ;;
    gemm)
      build gemm "$HERE/gemm/gemm.cu"
      restartable "$TMP/gemm" "$TMP/gemm"
      python3 "$HERE/gemm/torch_baseline.py" "$TMP/torch.json" >/dev/null 2>&1 || echo "run.sh: torch baseline unavailable" >&2 ;;
    *) echo "run.sh: unknown part $part" >&2; exit 2 ;;
  esac
done
python3 "$HERE/merge_results.py" "$OUTF" "$TMP" "$GEN" "$FLAGS"
