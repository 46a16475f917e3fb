#!/usr/bin/env bash
# The GitHub Action's build step (action.yml): builds the capture-lint CLI
# alone (no tests, no editor or probe targets) from this source tree into
# BUILD_DIR. Incremental when BUILD_DIR is restored from a cache.
#
#   build.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
SRC=${1:?usage: build.sh SOURCE_DIR BUILD_DIR}
BUILD=${2:?usage: build.sh SOURCE_DIR BUILD_DIR}
"$SRC/scripts/fetch-tree-sitter.sh" "$BUILD"
cmake -S "$SRC" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCAPTURE_LINT_BUILD_TESTS=OFF >/dev/null
# Matcher-heavy clang code needs about 1 GB per compile job.
jobs=$(($(free -g | awk '/^Mem:/ {print $2}') / 2))
jobs=$((jobs < 1 ? 1 : jobs > $(nproc) ? $(nproc) : jobs))
ninja -C "$BUILD" -j "$jobs" capture-lint
"$BUILD/tool/capture-lint/capture-lint" --version
