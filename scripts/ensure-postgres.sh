#!/usr/bin/env bash
# Make sure a PostgreSQL server answers on 127.0.0.1:5432, that role `postgres` can connect to it
# over TCP without a password prompt, and that a database `test` exists. This is what
# `make test` runs the PostgreSQL half of the Rust test suite against
# (COSTSCOPE_TEST_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/test).
#
# On a machine that already has it, this only checks. Otherwise it installs Debian's postgresql,
# creates/starts the cluster with pg_ctlcluster (no systemd needed), allows `trust` for local TCP
# connections of that cluster, and creates the `test` database. It prints every change it makes.
set -euo pipefail

HOST=127.0.0.1
PORT=${COSTSCOPE_PG_PORT:-5432}   # another port only for testing this script
DEFAULT_URL=postgres://postgres@$HOST:$PORT/test
URL=${COSTSCOPE_TEST_POSTGRES_URL:-$DEFAULT_URL}
say() { echo "ensure-postgres: $*"; }
die() { echo "ensure-postgres: ERROR: $*" >&2; exit 1; }

# shellcheck source=lib-apt.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib-apt.sh"

# A URL of your own: only check it, never install anything.
if [ "$URL" != "$DEFAULT_URL" ]; then
  command -v psql >/dev/null 2>&1 || apt_install postgresql-client
  psql "$URL" -w -tAc 'select 1' >/dev/null \
    || die "cannot connect to COSTSCOPE_TEST_POSTGRES_URL=$URL"
  say "using COSTSCOPE_TEST_POSTGRES_URL=$URL (reachable)"
  exit 0
fi

as_postgres() { # run a command as the postgres OS user (socket, peer auth)
  if [ "$(id -un)" = postgres ]; then "$@"
  elif [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"
  else $SUDO -u postgres "$@"; fi
}
tcp_psql() { psql -h "$HOST" -p "$PORT" -U postgres -w "$@"; }

if ! command -v pg_isready >/dev/null 2>&1 && ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
  apt_install postgresql-client
fi
if ! command -v pg_isready >/dev/null 2>&1 || ! pg_isready -q -h "$HOST" -p "$PORT"; then
  say "nothing answers on $HOST:$PORT"
  if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
    apt_install postgresql
  fi
  VER=$(ls /usr/lib/postgresql | sort -V | tail -1)
  if ! pg_lsclusters -h 2>/dev/null | awk '{print $1" "$2}' | grep -qx "$VER main"; then
    say "pg_createcluster $VER main --port $PORT"
    $SUDO pg_createcluster "$VER" main --port "$PORT"
  fi
  CPORT=$(pg_lsclusters -h | awk -v v="$VER" '$1==v && $2=="main" {print $3}')
  [ "$CPORT" = "$PORT" ] || die "cluster $VER/main is configured for port $CPORT, not $PORT"
  if ! pg_isready -q -h "$HOST" -p "$PORT"; then
    say "pg_ctlcluster --skip-systemctl-redirect $VER main start"
    $SUDO pg_ctlcluster --skip-systemctl-redirect "$VER" main start || true
  fi
  for _ in $(seq 1 30); do pg_isready -q -h "$HOST" -p "$PORT" && break; sleep 1; done
  pg_isready -h "$HOST" -p "$PORT" >/dev/null || die "PostgreSQL $VER did not start on $HOST:$PORT (see /var/log/postgresql/)"
  say "PostgreSQL $VER is running on $HOST:$PORT"
fi

# Role postgres over TCP without a password prompt.
if ! tcp_psql -d postgres -tAc 'select 1' >/dev/null 2>&1; then
  say "role postgres cannot connect over TCP without a password; allowing trust for 127.0.0.1 and ::1"
  HBA=$(as_postgres psql -p "$PORT" -tAc 'show hba_file' 2>/dev/null) \
    || die "cannot reach the server on its local socket as OS user postgres to fix pg_hba.conf; set COSTSCOPE_TEST_POSTGRES_URL to a URL that works"
  TMP=$(mktemp)
  { echo "# added by costscope scripts/ensure-postgres.sh (test machine)"
    echo "host all all 127.0.0.1/32 trust"
    echo "host all all ::1/128 trust"
    cat "$HBA"; } > "$TMP"
  cat "$TMP" > "$HBA"; rm -f "$TMP"
  as_postgres psql -p "$PORT" -tAc 'select pg_reload_conf()' >/dev/null
  say "prepended trust rules to $HBA and reloaded"
  sleep 1
  tcp_psql -d postgres -tAc 'select 1' >/dev/null || die "role postgres still cannot connect to $HOST:$PORT"
fi

if [ "$(tcp_psql -d postgres -tAc "select 1 from pg_database where datname = 'test'")" != 1 ]; then
  say "creating database test"
  tcp_psql -d postgres -c 'create database test' >/dev/null
fi
say "$URL is ready ($(tcp_psql -d test -tAc 'show server_version'))"
