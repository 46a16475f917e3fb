#!/usr/bin/env bash
# What each way of seeing kernel launches costs, on the GPU machine, in one
# call: builds the probe and probe-bench, then runs `probe-bench kinds 1000`
# (microseconds per capture by kind of call) plain and under the probe with
# each CAPTURE_PROBE_LAUNCH_CALLBACKS setting (runtime: the default, the
# runtime's launches through the probe's wrappers; on: CUPTI's launch
# callbacks kept, as before the wrappers; all-off: the driver's launch
# callbacks off too), and with CAPTURE_PROBE_EMPTY_CALLBACKS=1 (CUPTI's
# callbacks and the wrappers alone; empty-nonode: without the graph-node
# callback too; empty-none-nonode: subscribed to CUPTI with nothing enabled;
# empty-unsubscribed: the wrappers on, CUPTI never subscribed; wrappers:
# CAPTURE_PROBE_CALLS=wrappers, every driver call through the probe's
# wrappers and no CUPTI; empty-wrappers: the same returning at once), alternating,
# ROUNDS times (VARIANTS picks); then one
# CAPTURE_PROBE_PROFILE=1 capture run per setting (where the time goes, and
# how many launches reached the wrappers against CUPTI's launch callbacks).
# usage: launch_modes.sh [ROUNDS]
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
ROUNDS="${1:-5}"
BUILD="${BUILD:-$ROOT/build-gpu}"
OUTDIR="${OUT:-$BUILD/out}"
mkdir -p "$OUTDIR"
nvidia-smi -L
cmake -S "$ROOT/runtime_probe" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCAPTURE_PROBE_GPU_TESTS=ON >"$OUTDIR/cmake.log" 2>&1 &&
  ninja -C "$BUILD" >"$OUTDIR/build.log" 2>&1 ||
  { tail -40 "$OUTDIR/build.log" "$OUTDIR/cmake.log"; exit 1; }
BENCH="$BUILD/gpu/probe-bench"
PROBE="$BUILD/capture-probe"
PIN=()
command -v taskset >/dev/null && PIN=(taskset -c "$(($(nproc) - 1))")
R="$OUTDIR/modes-report.json"
probe() { # SETTING ARGS...: probe-bench ARGS under the probe (with CUPTI
  # unless the variant sets CAPTURE_PROBE_CALLS=wrappers)
  local setting=$1; shift
  CAPTURE_PROBE_CALLS=${CAPTURE_PROBE_CALLS:-cupti} \
  CAPTURE_PROBE_LAUNCH_CALLBACKS=$setting "${PIN[@]}" "$PROBE" run --quiet \
    --no-symbolize --report "$R" -- "$BENCH" "$@"
}
kinds() {
  case $1 in
    plain) "${PIN[@]}" "$BENCH" kinds 1000 ;;
    empty) CAPTURE_PROBE_EMPTY_CALLBACKS=1 probe all-off kinds 1000 ;;
    empty-nonode) CAPTURE_PROBE_NO_NODE_CALLBACK=1 CAPTURE_PROBE_EMPTY_CALLBACKS=1 \
      probe all-off kinds 1000 ;;
    empty-none-nonode) CAPTURE_PROBE_NO_NODE_CALLBACK=1 CAPTURE_PROBE_DOMAINS=none \
      CAPTURE_PROBE_EMPTY_CALLBACKS=1 probe all-off kinds 1000 ;;
    empty-runtime | empty-driver | empty-none | empty-unsubscribed)
      CAPTURE_PROBE_DOMAINS=${1#empty-} CAPTURE_PROBE_EMPTY_CALLBACKS=1 \
        probe all-off kinds 1000 ;;
    wrappers) CAPTURE_PROBE_CALLS=wrappers probe runtime kinds 1000 ;;
    empty-wrappers) CAPTURE_PROBE_CALLS=wrappers CAPTURE_PROBE_EMPTY_CALLBACKS=1 \
      probe runtime kinds 1000 ;;
    *) probe "$1" kinds 1000 ;;
  esac
}
for r in $(seq "$ROUNDS"); do
  for v in ${VARIANTS:-plain runtime on all-off empty}; do
    echo "kinds $v $(kinds $v | grep '^kinds')"
  done
done | tee "$OUTDIR/modes.txt"
python3 "$ROOT/runtime_probe/gpu/kinds_summary.py" "$OUTDIR/modes.txt"
for v in ${PROFILES-runtime on all-off}; do
  echo "profile ($v):"
  if [ "$v" = wrappers ]; then
    CAPTURE_PROBE_CALLS=wrappers CAPTURE_PROBE_PROFILE=1 probe runtime capture 1000
  else
    CAPTURE_PROBE_PROFILE=1 probe "$v" capture 1000
  fi 2>&1 | grep -v '^capture-probe: report'
done
