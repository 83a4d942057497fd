#!/usr/bin/env bash
# Installs schemathesis (PyPI) into a virtualenv at $COSTSCOPE_SCHEMATHESIS_VENV (default
# ~/.cache/costscope-schemathesis-venv), where scripts/schemathesis.sh runs it against
# /openapi.json of a running server (make test-schemathesis). A venv of its own: schemathesis
# and the FOCUS validator (scripts/ensure-focus-validator.sh) pin different dependencies.
set -euo pipefail

VENV="${COSTSCOPE_SCHEMATHESIS_VENV:-$HOME/.cache/costscope-schemathesis-venv}"
PACKAGES=("schemathesis==4.32.5")
stamp="$VENV/.costscope-schemathesis"
wanted="${PACKAGES[*]}"

if [[ -x "$VENV/bin/schemathesis" && -f "$stamp" && "$(cat "$stamp")" == "$wanted" ]]; then
  echo "ensure-schemathesis: $VENV/bin/schemathesis is installed"
  exit 0
fi

python=""
for candidate in python3 python; do
  if command -v "$candidate" >/dev/null 2>&1; then python="$candidate"; break; fi
done
if [[ -z "$python" ]]; then
  echo "ensure-schemathesis: no python3 found; install python3 and python3-venv" >&2
  exit 1
fi

if [[ ! -x "$VENV/bin/python" ]] && ! "$python" -m venv "$VENV"; then
  rm -rf "$VENV"
  if command -v apt-get >/dev/null 2>&1 && [[ "$(id -u)" == 0 ]]; then
    echo "ensure-schemathesis: installing python3-venv (apt-get)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q
    apt-get install -y -q --no-install-recommends python3-venv python3-pip
    python3 -m venv "$VENV"
  else
    echo "ensure-schemathesis: cannot create a virtualenv at $VENV (install python3-venv)" >&2
    exit 1
  fi
fi

echo "ensure-schemathesis: installing ${PACKAGES[*]} into $VENV"
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "${PACKAGES[@]}"
"$VENV/bin/schemathesis" --version >/dev/null
echo "$wanted" > "$stamp"
echo "ensure-schemathesis: installed $("$VENV/bin/schemathesis" --version)"
