#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz) with clang-19 and ASan+UBSan in
# build-fuzz/ and runs each for a bounded time from its seed corpus
# (tests/fuzz/corpus/<target>), as many at once as there are cores (each
# fuzzer is one process on one core; CAPTURE_LINT_FUZZ_JOBS=N changes it).
# Fails on any crash, leak, timeout or out-of-memory, leaving the reproducer
# in build-fuzz/artifacts/<target>/.
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]
#
# CI runs 10 s per target with a fixed seed (scripts/test.sh), so a run is
# repeatable; CAPTURE_LINT_FUZZ_SEED picks another seed (0: libFuzzer draws
# one). CAPTURE_LINT_FUZZ_BUILD=DIR uses a build directory already configured
# with -DCAPTURE_LINT_FUZZ=ON (scripts/test.sh: build-asan/, the ASan+UBSan
# test build) instead of configuring build-fuzz/. A developer's longer run is
# described in tests/fuzz/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-25}
seed=${CAPTURE_LINT_FUZZ_SEED:-0}
jobs=${CAPTURE_LINT_FUZZ_JOBS:-$(nproc)}
build=${CAPTURE_LINT_FUZZ_BUILD:-build-fuzz}
shift || true
targets=("$@")
if ((${#targets[@]} == 0)); then
  targets=(catalog project-config compile-database compile-command cache-entry
    probe-report event-log python-source lsp-transport document-mirror
    pyproject-config summary-file)
fi

if [ "$build" = build-fuzz ]; then
  cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 \
    "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG" \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG" \
    -DCAPTURE_LINT_FUZZ=ON -DCAPTURE_LINT_BUILD_TESTS=OFF >/dev/null
elif ! grep -q '^CAPTURE_LINT_FUZZ:BOOL=ON$' "$build/CMakeCache.txt" 2>/dev/null; then
  echo "fuzz: $build is not configured with -DCAPTURE_LINT_FUZZ=ON" >&2
  exit 1
fi
# Quiet when it builds; the compiler's errors when it does not (the fuzz
# build has no precompiled headers, so a missing include shows here first).
if ! ninja -C "$build" -j "$(nproc)" $(printf 'fuzz-%s ' "${targets[@]}") \
     > "$build/fuzz-build.log" 2>&1; then
  grep -E "error|FAILED" "$build/fuzz-build.log" | head -20
  echo "fuzz: the fuzz targets do not build ($build/fuzz-build.log)" >&2
  exit 1
fi

# One target: its exit status in $build/fuzz-$t.status.
fuzz_one() {
  local t=$1 work=$build/corpus/$1 artifacts=$build/artifacts/$1 rc=0
  mkdir -p "$work" "$artifacts"
  # New inputs go to $build/corpus; the checked-in seeds stay as written.
  ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$build/tests/fuzz/fuzz-$t" -max_total_time="$seconds" -seed="$seed" \
    -timeout=10 \
    -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
    -artifact_prefix="$artifacts/" "$work" "tests/fuzz/corpus/$t" \
    >"$build/fuzz-$t.log" 2>&1 || rc=$?
  echo "$rc" >"$build/fuzz-$t.status"
}

running=0
for t in "${targets[@]}"; do
  rm -f "$build/fuzz-$t.status"
  if ((running >= jobs)); then
    wait -n || true
    running=$((running - 1))
  fi
  fuzz_one "$t" &
  running=$((running + 1))
done
wait

status=0
for t in "${targets[@]}"; do
  if [ "$(cat "$build/fuzz-$t.status" 2>/dev/null)" = 0 ]; then
    runs=$(grep -a -m1 'stat::number_of_executed_units' "$build/fuzz-$t.log" | awk '{print $2}')
    echo "fuzz: $t: ${seconds} s, seed $seed, ${runs:-?} inputs, no crash"
  else
    echo "fuzz: $t: FAILED (see $build/fuzz-$t.log; reproducer in $build/artifacts/$t/)"
    tail -40 "$build/fuzz-$t.log"
    status=1
  fi
done
exit $status
