#!/usr/bin/env bash
# The GitHub Action's lint step (action.yml): runs capture-lint with the
# action's inputs and records its exit status; fail.sh decides afterwards
# whether the job fails, so a SARIF upload between the two always runs.
#
# Inputs come from the environment (action.yml maps them):
#   CAPTURE_LINT       the capture-lint binary
#   CL_PATHS           files and directories, separated by spaces (may be
#                      empty with CL_COMPILE_DB)
#   CL_COMPILE_DB      the directory of compile_commands.json (-p), or ""
#   CL_FORMAT          sarif or github
#   CL_SARIF_FILE      where the SARIF goes (format sarif)
#   CL_BASELINE        a baseline file (--baseline), or ""
#   CL_EXTRA_ARGS      more capture-lint options, separated by spaces
# Writes exit-code=N (0 clean, 1 findings, 2 the tool failed) to
# $GITHUB_OUTPUT, or prints it when that is unset.
set -uo pipefail
args=()
[ -n "${CL_COMPILE_DB:-}" ] && args+=(-p "$CL_COMPILE_DB")
[ -n "${CL_BASELINE:-}" ] && args+=(--baseline "$CL_BASELINE")
case "${CL_FORMAT:-github}" in
sarif) args+=(--format=sarif -o "${CL_SARIF_FILE:-capture-lint.sarif}") ;;
github) args+=(--format=github) ;;
*)
  echo "::error title=capture-lint::format must be sarif or github, not '$CL_FORMAT'"
  echo "exit-code=2" >>"${GITHUB_OUTPUT:-/dev/stdout}"
  exit 0
  ;;
esac
read -r -a extra <<<"${CL_EXTRA_ARGS:-}"
read -r -a paths <<<"${CL_PATHS:-}"
if [ -z "${CL_COMPILE_DB:-}" ] && [ ${#paths[@]} -eq 0 ]; then
  echo "::error title=capture-lint::give paths, compile-db-dir or both"
  echo "exit-code=2" >>"${GITHUB_OUTPUT:-/dev/stdout}"
  exit 0
fi
# Paths before the extra options: those may end with `-- COMPILER FLAGS`.
"${CAPTURE_LINT:-capture-lint}" "${args[@]}" "${paths[@]}" "${extra[@]}"
status=$?
echo "exit-code=$status" >>"${GITHUB_OUTPUT:-/dev/stdout}"
exit 0
