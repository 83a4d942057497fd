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
source "$(dirname "${BASH_SOURCE[0]}")/lib-python-venv.sh"
if ensure_python_tool ensure-focus-validator "$VENV" focus-validator "${PACKAGES[@]}"; then
  "$VENV/bin/focus-validator" --supported-versions >/dev/null
  echo "ensure-focus-validator: installed; FOCUS versions it validates: $("$VENV/bin/focus-validator" --supported-versions | tr '\n' ' ')"
  python_tool_installed "$VENV" focus-validator "${PACKAGES[@]}"
fi
