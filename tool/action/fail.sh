#!/usr/bin/env bash
# The GitHub Action's last step (action.yml): fails the job from the lint
# step's exit status and the fail-on input.
#
#   fail.sh EXIT_CODE FAIL_ON
#     FAIL_ON  findings: fail on findings (1) and tool failures (2)
#              error:    fail only when capture-lint could not do its job (2)
#              never:    never fail
set -euo pipefail
code=${1:?usage: fail.sh EXIT_CODE FAIL_ON}
fail_on=${2:?usage: fail.sh EXIT_CODE FAIL_ON}
case "$fail_on" in
findings) [ "$code" -eq 0 ] || { echo "capture-lint exited $code"; exit "$code"; } ;;
error) [ "$code" -ne 2 ] || { echo "capture-lint could not do its job (exit 2)"; exit 2; } ;;
never) ;;
*)
  echo "::error title=capture-lint::fail-on must be findings, error or never, not '$fail_on'"
  exit 2
  ;;
esac
