#!/usr/bin/env bash
# Sets up and builds capture-lint, then runs the whole test suite (GoogleTest
# unit tests and the lit suites: per-check fixtures on mock headers, the real
# CUDA/HIP headers of this machine, and end-to-end CLI tests) through ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cd build
ctest --output-on-failure -j "$(nproc)"
