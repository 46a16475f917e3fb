#!/usr/bin/env bash
# The measurement as it was run before run.py: each repository of repos.txt
# at its commit, from a bare mirror (MIRRORS/owner+name/repo, as the fetch
# tool leaves them), exported to OUT_DIR (.py files only) and analysed
# whole, then the configured runs (lmdeploy's forwards declared captured,
# assume-nemo.json, assume-lmdeploy.json).  run.py does all of that, and
# the recall runs besides; this keeps the old command line:
#   bench/realworld/python/run.sh MIRRORS OUT_DIR [run.py options]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
lint=${CAPTURE_LINT:-$here/../../../build/tool/capture-lint/capture-lint}
mirrors=$1
out=$2
shift 2
exec python3 "$here/run.py" "$lint" --mirrors "$mirrors" --out "$out" "$@"
