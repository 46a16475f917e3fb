#!/usr/bin/env bash
# Sets up and builds capture-lint, then runs the whole test suite (GoogleTest
# unit tests and the lit suites: per-check fixtures on mock headers, the real
# CUDA/HIP headers of this machine, and end-to-end tests of every front door)
# through ctest; then the same suite on an ASan+UBSan build of capture-lint
# (build-asan/), unless CAPTURE_LINT_SKIP_SANITIZERS=1; then every libFuzzer
# target for CAPTURE_LINT_FUZZ_SECONDS (default 10) seconds from seed
# CAPTURE_LINT_FUZZ_SEED (default 1, so CI repeats itself) (scripts/fuzz.sh),
# unless CAPTURE_LINT_SKIP_FUZZ=1. The fuzz targets are built in build-asan/
# too (the same clang-19, ASan+UBSan and -O1; everything also carries
# libFuzzer's coverage instrumentation), so the analysis libraries are
# compiled once for both; with the sanitizers skipped, scripts/fuzz.sh makes
# its own build-fuzz/.
set -euo pipefail
cd "$(dirname "$0")/.."
CAPTURE_LINT_TEST_TOOLS=1 scripts/setup.sh
(cd build && ctest --output-on-failure -j "$(nproc)")

fuzz=ON
[ "${CAPTURE_LINT_SKIP_FUZZ:-0}" != 1 ] || fuzz=OFF

if [ "${CAPTURE_LINT_SKIP_SANITIZERS:-0}" != 1 ]; then
  echo "== the same tests on an ASan+UBSan build"
  # clang-19 at -O1 with line tables only: the sanitizers' reports keep file
  # and line, and the build takes about 6 minutes on 2 cores instead of 15.
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 \
    "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG" \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG" \
    -DCAPTURE_LINT_SANITIZE=ON "-DCAPTURE_LINT_FUZZ=$fuzz" >/dev/null
  # Quiet when it builds; the compiler's errors when it does not.
  if ! ninja -C build-asan -j "$(nproc)" >build-asan/build.log 2>&1; then
    grep -E "error|FAILED" build-asan/build.log | head -20
    echo "test: build-asan does not build (build-asan/build.log)" >&2
    exit 1
  fi
  (cd build-asan && ASAN_OPTIONS=detect_leaks=0 ctest --output-on-failure -j "$(nproc)")
fi

if [ "$fuzz" = ON ]; then
  echo "== fuzzing every reader of untrusted input"
  fuzz_build=build-fuzz
  [ "${CAPTURE_LINT_SKIP_SANITIZERS:-0}" = 1 ] || fuzz_build=build-asan
  CAPTURE_LINT_FUZZ_BUILD=$fuzz_build \
    CAPTURE_LINT_FUZZ_SEED=${CAPTURE_LINT_FUZZ_SEED:-1} \
    scripts/fuzz.sh "${CAPTURE_LINT_FUZZ_SECONDS:-10}"
fi
