#!/usr/bin/env bash
# Re-runs the measurement: each repository of repos.txt at its commit, from a
# bare mirror (MIRRORS/owner+name/repo, as the fetch tool leaves them),
# exported to a scratch directory (.py files only) and analysed whole.
#   bench/realworld/python/run.sh MIRRORS OUT_DIR
# Then, for lmdeploy, the model forwards its CUDA graph runner captures
# declared "captured" (lmdeploy-captured.json, generated here from the
# *ForCausalLM classes), the way a user would configure it. Last, NeMo and
# lmdeploy again with what their engines fix for graphs stated in an
# "assume" section (assume-nemo.json, assume-lmdeploy.json).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
lint=${CAPTURE_LINT:-$here/../../../build/tool/capture-lint/capture-lint}
mirrors=$1
out=$2
mkdir -p "$out"
grep -v '^#' "$here/repos.txt" | while read -r repo commit; do
  name=${repo/\//+}
  src="$out/src/$name"
  rm -rf "$src" && mkdir -p "$src"
  # Mirrors may lack large binary blobs; git names them on stderr, and the
  # .py files still come out.
  { git -C "$mirrors/$name/repo" archive "$commit" -- ':(glob)**/*.py' 2>/dev/null || true; } |
    tar -x -C "$src"
  "$lint" --report-only "$src" >"$out/$name.txt" 2>"$out/$name.err"
  echo "$repo: $(tail -1 "$out/$name.err")"
done
lmd="$out/src/InternLM+lmdeploy"
python3 - "$lmd" "$out/lmdeploy-captured.json" <<'PY'
import glob, json, re, sys
names = sorted({m.group(1) + ".forward"
                for f in glob.glob(sys.argv[1] + "/lmdeploy/pytorch/models/*.py")
                for m in re.finditer(r"^class (\w+ForCausalLM)\b", open(f).read(), re.M)})
json.dump({"family": "bench-lmdeploy", "functions": [
    {"name": n, "role": "captured",
     "source": "lmdeploy's CUDA graph runner captures the model's forward"} for n in names]},
    open(sys.argv[2], "w"), indent=1)
PY
"$lint" --report-only --catalog="$out/lmdeploy-captured.json" "$lmd/lmdeploy/pytorch/models" \
  >"$out/lmdeploy-captured.txt" 2>"$out/lmdeploy-captured.err"
echo "lmdeploy models, forwards declared captured: $(tail -1 "$out/lmdeploy-captured.err")"
nemo="$out/src/NVIDIA+NeMo"
"$lint" --report-only --catalog="$here/assume-nemo.json" "$nemo" \
  >"$out/nemo-assume.txt" 2>"$out/nemo-assume.err"
echo "NeMo, assume-nemo.json: $(tail -1 "$out/nemo-assume.err")"
"$lint" --report-only --catalog="$here/assume-lmdeploy.json" "$lmd" \
  >"$out/lmdeploy-assume.txt" 2>"$out/lmdeploy-assume.err"
echo "lmdeploy, assume-lmdeploy.json: $(tail -1 "$out/lmdeploy-assume.err")"
"$lint" --report-only --catalog="$out/lmdeploy-captured.json" \
  --catalog="$here/assume-lmdeploy.json" "$lmd/lmdeploy/pytorch/models" \
  >"$out/lmdeploy-captured-assume.txt" 2>"$out/lmdeploy-captured-assume.err"
echo "lmdeploy models, forwards declared captured, assume-lmdeploy.json: $(tail -1 "$out/lmdeploy-captured-assume.err")"
