#!/usr/bin/env bash
# Installs what capture-lint needs (Debian 12 packages) and builds it in
# build/. Safe to run again: it installs only what is missing and rebuilds
# incrementally. Used by demo.sh, test.sh and .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  clang-19 libclang-19-dev libclang-cpp19-dev llvm-19-dev
  libclang-common-19-dev llvm-19-tools clang-tidy-19
  cmake ninja-build libgtest-dev libgmock-dev nlohmann-json3-dev
  libamdhip64-dev python3 python3-jsonschema pre-commit git
  libgrpc++-dev libprotobuf-dev pkg-config libclang-rt-19-dev
  clang-format-19 dpkg-dev
)

# The real editors the tests run the docs' recipes in, and Bazel with nginx
# (the aspect's test: a sandboxed build with a remote cache on loopback);
# scripts/test.sh asks for them, the demo does not need them.
if [ "${CAPTURE_LINT_TEST_TOOLS:-0}" = 1 ]; then
  PACKAGES+=(neovim emacs-nox elpa-eglot bazel-bootstrap bazel-rules-java nginx)
fi

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
# npm fetches the Python grammar. Machines of this kind ship Node.js and npm
# outside Debian's packages (whose npm conflicts with them): install Debian's
# only where no npm is on PATH.
command -v npm >/dev/null || missing+=(npm)
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
fi

# The Python front end's parser (npm's tree-sitter runtime and
# tree-sitter-python grammar), into build/.
scripts/fetch-tree-sitter.sh build

jobs=$(nproc)
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
# Matcher-heavy clang code needs ~1 GB per compile job.
ninja -C build -j "$jobs"
