#!/usr/bin/env bash
# The project's own C++ is formatted as .clang-format says (LLVM style), by
# clang-format-19 (Debian's, installed by scripts/setup.sh): lists every file
# that is not, with the command that formats it, and fails. Test inputs,
# stubs and examples keep the shapes they test.
#   tests/format/check_format.sh [CLANG_FORMAT]
set -uo pipefail
cd "$(dirname "$0")/../.."
format=${1:-clang-format-19}
if ! command -v "$format" >/dev/null; then
  echo "format: $format is not installed (scripts/setup.sh installs it)" >&2
  exit 1
fi
mapfile -t files < <(git ls-files 'checks/*.cpp' 'checks/*.h' 'tool/*.cpp' \
  'tool/*.h' 'runtime_probe/*.cpp' 'runtime_probe/*.h' 'runtime_probe/*.c' \
  'tests/unit/*.cpp' 'tests/unit/*.h' 'tests/fuzz/*.cpp' 'include/*.h' |
  grep -v -e '/Inputs/' -e '^tool/compat/')
if ((${#files[@]} == 0)); then
  echo "format: no source files found (not a git checkout?)" >&2
  exit 1
fi
bad=()
for f in "${files[@]}"; do
  "$format" --dry-run -Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
# A banner longer than 80 columns is split by clang-format into two lines.
banners=$(grep -l -m1 -e '^//-\*-' -e '^//C++ -\*-' "${files[@]}")
if ((${#bad[@]})) || [ -n "$banners" ]; then
  ((${#bad[@]})) && printf 'format: not formatted: %s\n' "${bad[@]}" >&2
  [ -n "$banners" ] && printf 'format: banner split over two lines: %s\n' $banners >&2
  echo "format: run $format -i on them (and keep banners to 80 columns)" >&2
  exit 1
fi
echo "format: ${#files[@]} files formatted as .clang-format says"
