#!/usr/bin/env bash
# Sets up and builds capture-lint, configures the bundled CMake+nvcc example
# (examples/decode_loop) to get its compile_commands.json, and runs
# capture-lint on it (the README's first example), then on the PyTorch
# example (examples/torch_decode). Both have genuine capture bugs, so findings
# are the expected outcome.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh

# CUDA first, as the README shows it: a CMake+nvcc decode loop; its compile
# database comes from configuring it.
cuda="${CUDA_HOME:-${CUDA_PATH:-/usr/local/cuda}}"
nvcc="$(command -v nvcc || echo "$cuda/bin/nvcc")"
if [ ! -x "$nvcc" ]; then
  echo "demo: nvcc not found (set CUDA_HOME); the example is built with CMake+nvcc" >&2
  exit 2
fi
cmake -S examples/decode_loop -B build/examples/decode_loop -G Ninja \
  -DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null

status=0
build/tool/capture-lint/capture-lint -p build/examples/decode_loop || status=$?
case $status in
  0) echo "demo: no findings (unexpected: the example has capture bugs)"; exit 1 ;;
  1) echo "demo: capture-lint found the CUDA example's capture bugs (exit status 1 means findings); now the PyTorch example" ;;
  *) echo "demo: capture-lint could not analyse the example (exit status $status)"; exit "$status" ;;
esac

# PyTorch: a small captured decoder package with capture bugs (no GPU needed).
pystatus=0
build/tool/capture-lint/capture-lint examples/torch_decode || pystatus=$?
if [ "$pystatus" -ne 1 ]; then
  echo "demo: capture-lint on examples/torch_decode exited $pystatus (expected 1: findings)"
  exit 1
fi
echo "demo: capture-lint found the PyTorch example's capture bugs (exit status 1 means findings)"
