#!/usr/bin/env bash
# Fetches tree-sitter for the Python front end into BUILD_DIR/_deps: the
# runtime (the C library vendored in the npm package tree-sitter, into
# tree-sitter/lib) and the Python grammar (npm tree-sitter-python, into
# tree-sitter-python/src), both pinned. Only their C sources are compiled,
# into capture-lint itself; nothing third-party is committed. Debian's
# libtree-sitter (0.20) cannot load grammars of ABI 15. Called by setup.sh
# and, when a part is missing, by the CMake configure step.
set -euo pipefail
RUNTIME_VERSION=0.25.1
GRAMMAR_VERSION=0.25.0
BUILD_DIR=${1:?usage: fetch-tree-sitter.sh BUILD_DIR}
DEPS="$BUILD_DIR/_deps"
want="runtime $RUNTIME_VERSION grammar $GRAMMAR_VERSION"
if [ -f "$DEPS/tree-sitter/lib/src/lib.c" ] &&
  [ -f "$DEPS/tree-sitter-python/src/parser.c" ] &&
  [ "$(cat "$DEPS/.tree-sitter-version" 2>/dev/null)" = "$want" ]; then
  exit 0
fi
command -v npm >/dev/null || {
  echo "fetch-tree-sitter: npm is missing (apt-get install npm)" >&2
  exit 1
}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
(cd "$TMP" && npm pack --silent "tree-sitter@$RUNTIME_VERSION" \
  "tree-sitter-python@$GRAMMAR_VERSION" >/dev/null)
mkdir -p "$TMP/runtime" "$TMP/grammar"
tar -xzf "$TMP/tree-sitter-$RUNTIME_VERSION.tgz" -C "$TMP/runtime"
tar -xzf "$TMP/tree-sitter-python-$GRAMMAR_VERSION.tgz" -C "$TMP/grammar"
for part in "$TMP/runtime/package/vendor/tree-sitter/lib/src/lib.c" \
  "$TMP/grammar/package/src/parser.c"; do
  [ -f "$part" ] || {
    echo "fetch-tree-sitter: the npm package lacks ${part#"$TMP"/}" >&2
    exit 1
  }
done
rm -rf "$DEPS/tree-sitter" "$DEPS/tree-sitter-python"
mkdir -p "$DEPS/tree-sitter" "$DEPS/tree-sitter-python"
cp -r "$TMP/runtime/package/vendor/tree-sitter/lib" \
  "$TMP/runtime/package/LICENSE" "$DEPS/tree-sitter/"
cp -r "$TMP/grammar/package/src" "$TMP/grammar/package/LICENSE" \
  "$DEPS/tree-sitter-python/"
echo "$want" >"$DEPS/.tree-sitter-version"
