#!/usr/bin/env bash
# Fetches the tree-sitter Python grammar (npm package tree-sitter-python,
# pinned) into BUILD_DIR/_deps/tree-sitter-python. Only its generated C
# sources (src/parser.c, src/scanner.c, ABI 14) are compiled; nothing
# third-party is committed. Called by setup.sh and, when the grammar is
# missing, by the CMake configure step.
set -euo pipefail
VERSION=0.23.6
BUILD_DIR=${1:?usage: fetch-python-grammar.sh BUILD_DIR}
DEST="$BUILD_DIR/_deps/tree-sitter-python"
if [ -f "$DEST/src/parser.c" ] && [ "$(cat "$DEST/.version" 2>/dev/null)" = "$VERSION" ]; then
  exit 0
fi
command -v npm >/dev/null || {
  echo "fetch-python-grammar: npm is missing (apt-get install npm)" >&2
  exit 1
}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
(cd "$TMP" && npm pack --silent "tree-sitter-python@$VERSION" >/dev/null)
tar -xzf "$TMP/tree-sitter-python-$VERSION.tgz" -C "$TMP"
rm -rf "$DEST"
mkdir -p "$DEST"
cp -r "$TMP/package/src" "$TMP/package/LICENSE" "$DEST/"
echo "$VERSION" >"$DEST/.version"
