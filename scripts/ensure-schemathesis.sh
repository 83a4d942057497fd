#!/usr/bin/env bash
# Installs schemathesis (PyPI) into a virtualenv at $COSTSCOPE_SCHEMATHESIS_VENV (default
# ~/.cache/costscope-schemathesis-venv), where scripts/schemathesis.sh runs it against
# /openapi.json of a running server (make test-schemathesis). A venv of its own: schemathesis
# and the FOCUS validator (scripts/ensure-focus-validator.sh) pin different dependencies.
set -euo pipefail

VENV="${COSTSCOPE_SCHEMATHESIS_VENV:-$HOME/.cache/costscope-schemathesis-venv}"
PACKAGES=("schemathesis==4.32.5")
source "$(dirname "${BASH_SOURCE[0]}")/lib-python-venv.sh"
if ensure_python_tool ensure-schemathesis "$VENV" schemathesis "${PACKAGES[@]}"; then
  "$VENV/bin/schemathesis" --version >/dev/null
  echo "ensure-schemathesis: installed $("$VENV/bin/schemathesis" --version)"
  python_tool_installed "$VENV" schemathesis "${PACKAGES[@]}"
fi
