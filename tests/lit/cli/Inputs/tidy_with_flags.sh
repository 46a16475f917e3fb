#!/bin/bash
# docs/ci.md's `--` form of the clang-tidy plugin on a CUDA file, as a user
# types it: tidy_with_flags.sh CLANG_TIDY PLUGIN CAPTURE_LINT FILE
set -e
"$1" -load="$2" -checks='-*,capture-*' "$4" -- -x cuda --cuda-gpu-arch=sm_80 \
  $("$3" --print-clang-flags=cuda)
