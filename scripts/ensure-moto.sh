#!/usr/bin/env bash
# Installs moto in server mode (PyPI moto[server]), the local AWS emulator the AWS connector's
# tests start on a free port (crates/connectors/src/testing/moto.rs), into a virtualenv at
# $COSTSCOPE_MOTO_VENV (default ~/.cache/costscope-moto-venv). Idempotent; quiet when present.
set -euo pipefail

VENV="${COSTSCOPE_MOTO_VENV:-$HOME/.cache/costscope-moto-venv}"
PACKAGES=("moto[server]==5.2.5")
source "$(dirname "${BASH_SOURCE[0]}")/lib-python-venv.sh"
if ensure_python_tool ensure-moto "$VENV" moto_server "${PACKAGES[@]}"; then
  "$VENV/bin/moto_server" --help >/dev/null
  echo "ensure-moto: installed moto $("$VENV/bin/python" -c 'import moto; print(moto.__version__)')"
  python_tool_installed "$VENV" moto_server "${PACKAGES[@]}"
fi
