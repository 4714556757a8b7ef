#!/usr/bin/env bash
# Hardware check of pycute_layouts.arch.atoms (wgmma accumulator / RS A fragments, ldmatrix, stmatrix) on sm_90a.
#
#   pycute-layouts hwcheck --emit examples/hardware/atoms/generated                                # any machine
#   examples/hardware/atoms/run.sh [OUT.json]                                                      # GPU machine
#   python -m pytest -q tests/test_hw_atoms.py                                                     # re-verify
#
# Needs nvcc and an sm_90 GPU; python3 (standard library only) adds the metadata to the result file.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
GEN=${ATOMS_GEN:-$HERE/generated}
OUTF=${1:-$HERE/results/atoms-$(date -u +%F).json}
[ -f "$GEN/atoms_cases.cuh" ] || { echo "run.sh: $GEN/atoms_cases.cuh missing: run 'pycute-layouts hwcheck --emit $GEN' first" >&2; exit 2; }
TMP=$(mktemp -d)
FLAGS="-std=c++17 -O2 -gencode=arch=compute_90a,code=sm_90a"
nvcc $FLAGS -I"$GEN" -o "$TMP/atoms" "$HERE/atoms.cu" || exit 2
if command -v cuobjdump >/dev/null; then cuobjdump -sass "$TMP/atoms" > "$TMP/sass.txt" 2>&1 || true; fi
"$TMP/atoms" "$TMP/raw.json" || exit 2
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader > "$TMP/smi.txt" 2>&1 || true
nvidia-smi | grep -o "CUDA Version: [0-9.]*" > "$TMP/cuda.txt" 2>&1 || true
nvcc --version | grep -o "release .*" > "$TMP/nvcc.txt"
python3 "$HERE/merge_atoms.py" "$OUTF" "$TMP" "$FLAGS" "$GEN/atoms_plan.json"
