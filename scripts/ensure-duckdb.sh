#!/usr/bin/env bash
# Puts DuckDB's prebuilt shared library at $CARGO_TARGET_DIR/duckdb/libduckdb.so, where the
# rpath in .cargo/config.toml finds it and DUCKDB_LIB_DIR (set by the Makefile) points the
# linker. The library comes from the npm registry: DuckDB's own Node bindings package ships the
# official libduckdb.so (with the parquet and json extensions built in). Building DuckDB from
# source instead is the `bundled-duckdb` cargo feature (45+ minutes on 2 cores).
set -euo pipefail

DUCKDB_NPM_PACKAGE="@duckdb/node-bindings-linux-x64@1.5.6-r.1"
target_dir="${CARGO_TARGET_DIR:-$(cd "$(dirname "$0")/.." && pwd)/target}"
lib_dir="$target_dir/duckdb"
stamp="$lib_dir/.package"

if [[ -f "$lib_dir/libduckdb.so" && -f "$stamp" && "$(cat "$stamp")" == "$DUCKDB_NPM_PACKAGE" ]]; then
  exit 0
fi

echo "fetching libduckdb.so from npm package $DUCKDB_NPM_PACKAGE into $lib_dir" >&2
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "$DUCKDB_NPM_PACKAGE" >/dev/null)
tar -xzf "$work"/*.tgz -C "$work"
mkdir -p "$lib_dir"
install -m 0644 "$work/package/libduckdb.so" "$lib_dir/libduckdb.so"
install -m 0644 "$work/package/LICENSE" "$lib_dir/LICENSE"
echo "$DUCKDB_NPM_PACKAGE" > "$stamp"
