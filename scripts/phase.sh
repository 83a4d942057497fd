#!/usr/bin/env bash
# scripts/phase.sh NAME COMMAND [ARGS...]
# Runs one phase of the build/test pipeline, prints its duration, and on failure says which
# phase failed. When COSTSCOPE_PHASE_LOG is set, appends "NAME<TAB>ok|FAILED<TAB>seconds" to it
# (.ci/run prints that as a summary).
set -uo pipefail
name=$1; shift
start=$(date +%s)
echo
echo "==> [$name] $*"
"$@"
rc=$?
secs=$(( $(date +%s) - start ))
if [ -n "${COSTSCOPE_PHASE_LOG:-}" ]; then
  printf '%s\t%s\t%s\n' "$name" "$([ $rc = 0 ] && echo ok || echo FAILED)" "$secs" >> "$COSTSCOPE_PHASE_LOG"
fi
if [ $rc != 0 ]; then
  echo
  echo "!!! phase '$name' FAILED (exit $rc) after ${secs}s: $*" >&2
  exit $rc
fi
echo "<== [$name] ok in ${secs}s"
