#!/usr/bin/env bash
# schemathesis against the OpenAPI document of a real server (make test-schemathesis):
#   1. starts $COSTSCOPE_BIN serve --demo on a free port with a fresh data dir (or uses
#      $COSTSCOPE_SCHEMATHESIS_URL, a server already running with the demo tenant),
#   2. signs in as the demo account (demo@costscope.dev) for a bearer token,
#   3. runs schemathesis on /openapi.json, every operation, a bounded number of examples each,
#      with the checks not_a_server_error, status_code_conformance, content_type_conformance
#      and response_schema_conformance; any failure fails the run,
#   4. stops the server and removes the data dir (kept with COSTSCOPE_SCHEMATHESIS_KEEP=1).
# The number of examples per operation is SCHEMATHESIS_EXAMPLES (default 60: about a minute on
# 2 cores); SCHEMATHESIS_SEED makes a run repeatable (default: a fixed seed); SCHEMATHESIS_CHECKS
# replaces the list of checks (e.g. to add negative_data_rejection while exploring).
set -euo pipefail

VENV="${COSTSCOPE_SCHEMATHESIS_VENV:-$HOME/.cache/costscope-schemathesis-venv}"
BIN="${COSTSCOPE_BIN:-${CARGO_TARGET_DIR:-$HOME/.cache/costscope-target}/debug/costscope}"
EXAMPLES="${SCHEMATHESIS_EXAMPLES:-60}"
SEED="${SCHEMATHESIS_SEED:-20261123}"
CHECKS="${SCHEMATHESIS_CHECKS:-not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance}"
READY_TIMEOUT_SECONDS=180

if [[ ! -x "$VENV/bin/schemathesis" ]]; then
  echo "schemathesis.sh: $VENV/bin/schemathesis is missing: run scripts/ensure-schemathesis.sh" >&2
  exit 1
fi

server_pid=""
data_dir=""
cleanup() {
  if [[ -n "$server_pid" ]]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  if [[ -n "$data_dir" && "${COSTSCOPE_SCHEMATHESIS_KEEP:-0}" != 1 ]]; then
    rm -rf "$data_dir"
  fi
}
trap cleanup EXIT

base="${COSTSCOPE_SCHEMATHESIS_URL:-}"
if [[ -z "$base" ]]; then
  if [[ ! -x "$BIN" ]]; then
    echo "schemathesis.sh: the costscope binary is not at $BIN (make bin, or set COSTSCOPE_BIN)" >&2
    exit 1
  fi
  port="$("$VENV/bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  data_dir="$(mktemp -d -t costscope-schemathesis.XXXXXX)"
  base="http://127.0.0.1:$port"
  # Microsoft Teams configured against an address nothing listens on: its routes answer their
  # 4xx (no sign-in can complete here) instead of the 503 of a server without [teams].
  COSTSCOPE_TEAMS_CLIENT_ID=schemathesis COSTSCOPE_TEAMS_CLIENT_SECRET=schemathesis \
    COSTSCOPE_TEAMS_AUTHORITY=http://127.0.0.1:9 COSTSCOPE_TEAMS_GRAPH_URL=http://127.0.0.1:9 \
    "$BIN" serve --demo --addr "127.0.0.1:$port" --data-dir "$data_dir/data" >"$data_dir/server.log" 2>&1 &
  server_pid=$!
  echo "schemathesis.sh: costscope serve --demo on $base (log $data_dir/server.log)"
  deadline=$((SECONDS + READY_TIMEOUT_SECONDS))
  until curl -fsS -o /dev/null "$base/readyz" 2>/dev/null; do
    if ! kill -0 "$server_pid" 2>/dev/null; then
      echo "schemathesis.sh: costscope exited before it was ready; its log:" >&2
      tail -n 40 "$data_dir/server.log" >&2
      server_pid=""
      exit 1
    fi
    if ((SECONDS > deadline)); then
      echo "schemathesis.sh: costscope was not ready after ${READY_TIMEOUT_SECONDS}s; its log:" >&2
      tail -n 40 "$data_dir/server.log" >&2
      exit 1
    fi
    sleep 0.5
  done
fi

token="$(curl -fsS -H 'content-type: application/json' \
  -d '{"email":"demo@costscope.dev","password":"costscope-demo"}' "$base/v1/auth/login" |
  "$VENV/bin/python" -c 'import json, sys; print(json.load(sys.stdin)["access_token"])')"

# schemathesis keeps its replay store in ./.schemathesis: run it in the temp dir, not the checkout.
work_dir="${data_dir:-$(mktemp -d -t costscope-schemathesis.XXXXXX)}"
report_dir="$work_dir/report"
echo "schemathesis.sh: $EXAMPLES examples per operation, seed $SEED, checks $CHECKS"
status=0
(cd "$work_dir" && "$VENV/bin/schemathesis" run "$base/openapi.json" \
  --url "$base" \
  --header "Authorization: Bearer $token" \
  --checks "$CHECKS" \
  --max-examples "$EXAMPLES" \
  --seed "$SEED" \
  --workers 2 \
  --request-timeout 30 \
  --generation-database none \
  --no-color \
  --report junit --report-dir "$report_dir") || status=$?
if ((status != 0)); then
  echo "schemathesis.sh: failures above (JUnit report in $report_dir; server log ${data_dir:+$data_dir/server.log})" >&2
  COSTSCOPE_SCHEMATHESIS_KEEP=1
fi
exit "$status"
