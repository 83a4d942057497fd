#!/usr/bin/env bash
# Installs the FinOps Foundation's FOCUS validator (PyPI `focus-validator`) into a virtualenv at
# $COSTSCOPE_VENV (default ~/.cache/costscope-venv), where the FOCUS export API tests run it
# (crates/server/tests/api/focus_export.rs). Only 1.0.0 is published on the registry we reach;
# its rules cover FOCUS 0.5, 1.0-preview and 1.0 (docs/FOCUS-EXPORT.md says what that proves).
#
# focus-validator 1.0.0 declares numpy<2 and pandera 0.17 but not the upper bounds those need:
# pandera 0.17 breaks with multimethod 2.x and current pyarrow needs numpy 2, so both are pinned.
set -euo pipefail

VENV="${COSTSCOPE_VENV:-$HOME/.cache/costscope-venv}"
PACKAGES=("focus-validator==1.0.0" "multimethod<2" "pyarrow<20")
stamp="$VENV/.costscope-focus-validator"
wanted="${PACKAGES[*]}"

if [[ -x "$VENV/bin/focus-validator" && -f "$stamp" && "$(cat "$stamp")" == "$wanted" ]]; then
  echo "ensure-focus-validator: $VENV/bin/focus-validator is installed"
  exit 0
fi

python=""
for candidate in python3 python; do
  if command -v "$candidate" >/dev/null 2>&1; then python="$candidate"; break; fi
done
if [[ -z "$python" ]]; then
  echo "ensure-focus-validator: no python3 found; install python3 and python3-venv" >&2
  exit 1
fi

if [[ ! -x "$VENV/bin/python" ]] && ! "$python" -m venv "$VENV"; then
  rm -rf "$VENV"
  if command -v apt-get >/dev/null 2>&1 && [[ "$(id -u)" == 0 ]]; then
    echo "ensure-focus-validator: installing python3-venv (apt-get)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q
    apt-get install -y -q --no-install-recommends python3-venv python3-pip
    python3 -m venv "$VENV"
  else
    echo "ensure-focus-validator: cannot create a virtualenv at $VENV (install python3-venv)" >&2
    exit 1
  fi
fi

echo "ensure-focus-validator: installing ${PACKAGES[*]} into $VENV"
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "${PACKAGES[@]}"
"$VENV/bin/focus-validator" --supported-versions >/dev/null
echo "$wanted" > "$stamp"
echo "ensure-focus-validator: installed; FOCUS versions it validates: $("$VENV/bin/focus-validator" --supported-versions | tr '\n' ' ')"
