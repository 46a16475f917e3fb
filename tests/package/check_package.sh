#!/usr/bin/env bash
# The Debian package (issue 27, item 8): cpack builds
# capture-lint_<version>_amd64.deb from the build directory, with the shared
# libraries it needs as Depends; dpkg installs it into a fresh root (its own
# empty dpkg database, no LLVM build tree); the installed tools then run on
# the bundled examples as the build's own do, and the installed pre-commit
# hook finds the installed capture-lint (or says how to get it).
#   tests/package/check_package.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src="$1" build="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail() { echo "package: FAIL: $*" >&2; exit 1; }

version="$(sed -n 's/^project(capture-lint VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")"
(cd "$build" && cpack -G DEB -B "$work/out" > "$work/cpack.log" 2>&1) ||
  { tail -20 "$work/cpack.log"; fail "cpack -G DEB failed"; }
deb="$work/out/capture-lint_${version}_amd64.deb"
[ -f "$deb" ] || fail "no $(basename "$deb") (made: $(ls "$work/out"))"
depends="$(dpkg-deb -f "$deb" Depends)"
for lib in libclang-cpp19 libllvm19 libstdc++6; do
  case "$depends" in *"$lib"*) ;; *) fail "Depends lacks $lib: $depends" ;; esac
done
case "$depends" in *libcuda*|*cupti*) fail "Depends names the CUDA driver or CUPTI: $depends" ;; esac
# tree-sitter is compiled in (Debian's 0.20 cannot load the grammar).
case "$depends" in *tree-sitter*) fail "Depends names tree-sitter, which is compiled in: $depends" ;; esac

# The fresh root has no shell to run the maintainer scripts in (the package
# has one: ldconfig after installing its plugins), so they run outside it,
# with a stand-in ldconfig that records the call (the host's stays untouched).
root="$work/root" stub="$work/stub"
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates" "$stub"
touch "$root/var/lib/dpkg/status" "$root/var/lib/dpkg/available"
printf '#!/bin/sh\necho ldconfig >> "%s/ldconfig.calls"\n' "$work" > "$stub/ldconfig"
chmod +x "$stub/ldconfig"
PATH="$stub:$PATH" dpkg --root="$root" --log="$work/dpkg.log" --force-not-root \
     --force-depends --force-script-chrootless -i "$deb" > "$work/dpkg.out" 2>&1 ||
  { cat "$work/dpkg.out"; fail "dpkg -i into a fresh root failed"; }
[ -s "$work/ldconfig.calls" ] || fail "the package's postinst did not run"
grep -q "^Status: install ok installed" "$root/var/lib/dpkg/status" ||
  fail "dpkg does not list capture-lint as installed"
for tool in capture-lint capture-clangd capture-probe capture-lint-pre-commit; do
  [ -x "$root/usr/bin/$tool" ] || fail "no /usr/bin/$tool in the package"
done
[ -f "$root/usr/lib/libCaptureLintPlugin.so" ] || fail "no clang-tidy plugin"

# The installed CLI gives what the build's gives on the Python example (the
# C++ one needs its compile database from a CMake configure: scripts/demo.sh).
installed="$("$root/usr/bin/capture-lint" --version)" || fail "--version"
echo "$installed" | grep -q "$version" || fail "--version says: $installed"
expect="$("$build/tool/capture-lint/capture-lint" --quiet "$src/examples/torch_decode" 2>&1 || true)"
got="$("$root/usr/bin/capture-lint" --quiet "$src/examples/torch_decode" 2>&1 || true)"
[ -n "$got" ] && [ "$got" = "$expect" ] ||
  fail "installed capture-lint differs on examples/torch_decode:
$got
--- the build's:
$expect"
"$root/usr/bin/capture-probe" --help > /dev/null 2>&1 || fail "capture-probe --help"

# The hook beside the installed tool finds it without PATH; alone, it says
# how to get it and exits 2.
cp -r "$src/examples/torch_decode" "$work/repo"
status=0
(cd "$work/repo" && PATH=/usr/bin:/bin "$root/usr/bin/capture-lint-pre-commit" model.py \
   > "$work/hook.out" 2>&1) || status=$?
[ "$status" = 1 ] && grep -q "capture-" "$work/hook.out" ||
  { cat "$work/hook.out"; fail "the installed hook gave status $status, not 1 with findings"; }
cp "$root/usr/bin/capture-lint-pre-commit" "$work/hook-alone"
status=0
PATH=/usr/bin:/bin "$work/hook-alone" x.py > "$work/alone.out" 2>&1 || status=$?
[ "$status" = 2 ] && grep -q "apt-get install" "$work/alone.out" ||
  { cat "$work/alone.out"; fail "a hook without capture-lint gave status $status"; }
echo "package: ok: $(basename "$deb") ($(du -k "$deb" | cut -f1) KiB), installed into a fresh root, tools run"
