#!/usr/bin/env bash
# Exports the NVIDIA/cuda-samples folders the GPU suites build (the graph
# samples of check_samples.py, the programs of check_transparency.py, and
# Common/) from a clone or mirror of NVIDIA/cuda-samples into DEST, at the
# pinned commit. The samples are never committed here: DEST is meant to be
# .cache/cuda-samples (ignored by git), carried to the device machine.
# usage: export_samples.sh CUDA_SAMPLES_GIT_DIR DEST [COMMIT]
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
SRC="$1"
DEST="$2"
COMMIT="${3:-c94ff366}"
mapfile -t FOLDERS < <( (python3 "$HERE/check_samples.py" --folders
                          python3 "$HERE/check_transparency.py" --folders) | sort -u)
mkdir -p "$DEST"
git -C "$SRC" archive "$COMMIT" Common "${FOLDERS[@]/#/Samples/}" | tar -x -C "$DEST"
echo "exported ${#FOLDERS[@]} sample folders and Common/ at $COMMIT into $DEST"
