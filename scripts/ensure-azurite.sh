#!/usr/bin/env bash
# Installs Azurite (npm `azurite`), the Azure Storage emulator, into
# $COSTSCOPE_AZURITE_DIR (default ~/.cache/costscope-azurite). The Azure export tests
# (crates/connectors/tests/azure_*.rs) start `node_modules/.bin/azurite-blob` from there on a
# free port. Idempotent: quiet when the pinned version is already there.
set -euo pipefail

AZURITE_PACKAGE="azurite@3.37.0"
dir="${COSTSCOPE_AZURITE_DIR:-$HOME/.cache/costscope-azurite}"
stamp="$dir/.package"

if [[ -x "$dir/node_modules/.bin/azurite-blob" && -f "$stamp" && "$(cat "$stamp")" == "$AZURITE_PACKAGE" ]]; then
  exit 0
fi

if ! command -v npm >/dev/null; then
  echo "ensure-azurite: npm is needed to install Azurite (apt-get install nodejs npm)" >&2
  exit 1
fi

echo "ensure-azurite: installing $AZURITE_PACKAGE into $dir" >&2
mkdir -p "$dir"
if [[ ! -f "$dir/package.json" ]]; then
  echo '{"name":"costscope-azurite","private":true}' > "$dir/package.json"
fi
(cd "$dir" && npm install --silent --no-audit --no-fund --no-save "$AZURITE_PACKAGE" >/dev/null)
"$dir/node_modules/.bin/azurite-blob" --version >/dev/null
echo "$AZURITE_PACKAGE" > "$stamp"
echo "ensure-azurite: installed $AZURITE_PACKAGE ($("$dir/node_modules/.bin/azurite-blob" --version))" >&2
