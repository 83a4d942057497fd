#!/usr/bin/env bash
# Checks that web/openapi.json and web/src/api/schema.gen.ts are what the current server
# generates (the SPA's API types are generated, never hand-edited). Fix with `make web-types`.
set -euo pipefail
bin=${COSTSCOPE_BIN:?COSTSCOPE_BIN is not set}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" openapi > "$tmp/openapi.json"
(cd web && npx --no-install openapi-typescript "$tmp/openapi.json" -o "$tmp/schema.gen.ts" >/dev/null)
stale=0
if ! diff -u web/openapi.json "$tmp/openapi.json" > "$tmp/openapi.diff"; then
  echo "web/openapi.json differs from '\$COSTSCOPE_BIN openapi':"; head -40 "$tmp/openapi.diff"; stale=1
fi
if ! diff -u web/src/api/schema.gen.ts "$tmp/schema.gen.ts" > "$tmp/types.diff"; then
  echo "web/src/api/schema.gen.ts differs from what openapi-typescript generates:"; head -40 "$tmp/types.diff"; stale=1
fi
if [ $stale = 1 ]; then
  echo "The web app's API types are stale: run 'make web-types' and commit web/openapi.json and web/src/api/schema.gen.ts" >&2
  exit 1
fi
echo "check-api-types: web/openapi.json and web/src/api/schema.gen.ts match the server"
