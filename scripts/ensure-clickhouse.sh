#!/usr/bin/env bash
# Make sure two local ClickHouse servers answer over HTTP: the two shards of cluster `costscope`
# that the ClickHouse tests (crates/clickhouse/tests/) run against, at
# COSTSCOPE_TEST_CLICKHOUSE_URL (default below).
#
#   shard 1: http 127.0.0.1:8123, tcp 9000, interserver 9009
#   shard 2: http 127.0.0.1:8124, tcp 9001, interserver 9010
#
# Each runs as a plain background process of the calling user (no systemd) with the config this
# script writes to $COSTSCOPE_CLICKHOUSE_DIR (default ~/.cache/costscope-clickhouse): one
# config.xml + users.xml for both, the per-shard ports and paths given on the command line after
# `--`, data and logs in shardN/. Listening on 127.0.0.1 only; user `default` without a password;
# server time zone UTC; caches and per-query memory kept small.
#
# On a machine where both already answer, this only checks. Otherwise it installs Debian's
# clickhouse-server (18.16) when missing, starts what is not running, waits for `SELECT 1` and
# creates database `test` on both. It prints every change it makes.
set -euo pipefail

HOST=127.0.0.1
DEFAULT_URL="clickhouse://default@$HOST:8123/test?cluster=costscope&shards=$HOST:8123,$HOST:8124"
URL=${COSTSCOPE_TEST_CLICKHOUSE_URL:-$DEFAULT_URL}
DIR=${COSTSCOPE_CLICKHOUSE_DIR:-$HOME/.cache/costscope-clickhouse}
CLUSTER=costscope
DATABASE=test
# shard number, http port, tcp port, interserver http port
SHARDS=("1 8123 9000 9009" "2 8124 9001 9010")
say() { echo "ensure-clickhouse: $*"; }
die() { echo "ensure-clickhouse: ERROR: $*" >&2; exit 1; }

# shellcheck source=lib-apt.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib-apt.sh"
command -v curl >/dev/null 2>&1 || apt_install curl

# query URL SQL [curl args...]: the answer of one query, or a failure with ClickHouse's message.
query() {
  local url=$1 sql=$2; shift 2
  curl -sS --max-time 10 --fail-with-body "$@" --data-binary "$sql" "$url" 2>&1
}

# A URL of your own: only check it, never install or start anything.
if [ "$URL" != "$DEFAULT_URL" ]; then
  re='^clickhouse://(([^:@/]*)(:([^@/]*))?@)?([^:/?]+)(:([0-9]+))?(/([^?]*))?(\?(.*))?$'
  [[ $URL =~ $re ]] || die "COSTSCOPE_TEST_CLICKHOUSE_URL=$URL is not clickhouse://user:password@host:port/database"
  user=${BASH_REMATCH[2]:-default} password=${BASH_REMATCH[4]:-} host=${BASH_REMATCH[5]}
  port=${BASH_REMATCH[7]:-8123} database=${BASH_REMATCH[9]:-default}
  # The user and password may be percent-encoded in the URL: the headers take them decoded.
  decode() { printf '%b' "${1//%/\\x}"; }
  auth=(-H "X-ClickHouse-User: $(decode "$user")" -H "X-ClickHouse-Key: $(decode "$password")")
  shown=${URL/:$password@/:***@}
  # The database (still percent-encoded, as a request parameter wants it) must exist.
  answer=$(query "http://$host:$port/?database=$database" "SELECT 1" "${auth[@]}") \
    || die "cannot query COSTSCOPE_TEST_CLICKHOUSE_URL=$shown: $answer"
  say "using COSTSCOPE_TEST_CLICKHOUSE_URL=$shown (reachable)"
  exit 0
fi

CONFIG=$DIR/config.xml
USERS=$DIR/users.xml

# The configuration both shards share; what differs per shard is given after `--` (start_shard).
write_config() {
  local tmp
  mkdir -p "$DIR"
  tmp=$(mktemp "$DIR/.config.XXXXXX")
  cat > "$tmp" <<EOF
<?xml version="1.0"?>
<!-- Written by costscope scripts/ensure-clickhouse.sh: the two local test shards. Ports, paths and
     log files are given per shard on the command line. Edits are overwritten. -->
<yandex>
    <logger>
        <level>information</level>
        <size>50M</size>
        <count>2</count>
    </logger>
    <listen_host>$HOST</listen_host>
    <interserver_http_host>$HOST</interserver_http_host>
    <timezone>UTC</timezone>
    <max_connections>1024</max_connections>
    <keep_alive_timeout>3</keep_alive_timeout>
    <max_concurrent_queries>64</max_concurrent_queries>
    <mark_cache_size>268435456</mark_cache_size>
    <uncompressed_cache_size>268435456</uncompressed_cache_size>
    <mlock_executable>false</mlock_executable>
    <users_config>$USERS</users_config>
    <default_profile>default</default_profile>
    <default_database>default</default_database>
    <!-- Test tables are dropped freely. -->
    <max_table_size_to_drop>0</max_table_size_to_drop>
    <max_partition_size_to_drop>0</max_partition_size_to_drop>
    <remote_servers>
        <$CLUSTER>
            <shard><replica><host>$HOST</host><port>9000</port></replica></shard>
            <shard><replica><host>$HOST</host><port>9001</port></replica></shard>
        </$CLUSTER>
    </remote_servers>
</yandex>
EOF
  write_if_changed "$tmp" "$CONFIG"
  tmp=$(mktemp "$DIR/.users.XXXXXX")
  cat > "$tmp" <<EOF
<?xml version="1.0"?>
<!-- Written by costscope scripts/ensure-clickhouse.sh. Edits are overwritten. -->
<yandex>
    <profiles>
        <default>
            <!-- 2 GiB per query, 3 GiB for all queries of a shard (18.16 has no
                 max_server_memory_usage). -->
            <max_memory_usage>2147483648</max_memory_usage>
            <max_memory_usage_for_all_queries>3221225472</max_memory_usage_for_all_queries>
            <use_uncompressed_cache>0</use_uncompressed_cache>
            <load_balancing>random</load_balancing>
        </default>
    </profiles>
    <users>
        <default>
            <password></password>
            <networks><ip>127.0.0.1</ip><ip>::1</ip></networks>
            <profile>default</profile>
            <quota>default</quota>
        </default>
    </users>
    <quotas>
        <default>
            <interval>
                <duration>3600</duration>
                <queries>0</queries>
                <errors>0</errors>
                <result_rows>0</result_rows>
                <read_rows>0</read_rows>
                <execution_time>0</execution_time>
            </interval>
        </default>
    </quotas>
</yandex>
EOF
  write_if_changed "$tmp" "$USERS"
}
write_if_changed() { # TMP DEST
  if [ -f "$2" ] && cmp -s "$1" "$2"; then rm -f "$1"; return; fi
  mv "$1" "$2"
  say "wrote $2"
}

answers() { curl -sf --max-time 2 "http://$HOST:$1/?query=SELECT%201" 2>/dev/null | grep -qx 1; }
listening() { ss -Hltn "sport = :$1" 2>/dev/null | grep -q .; }

start_shard() { # N HTTP TCP INTERSERVER
  local n=$1 http=$2 tcp=$3 inter=$4 dir=$DIR/shard$1 pid
  for port in "$tcp" "$inter" "$http"; do
    # A server that is shutting down keeps its ports for a few seconds.
    for _ in $(seq 1 40); do listening "$port" || break; sleep 0.5; done
    listening "$port" && die "port $port (shard $n) is taken by another process: $(ss -Hltnp "sport = :$port" | head -1)"
  done
  mkdir -p "$dir/data/" "$dir/tmp/" "$dir/user_files/" "$dir/format_schemas/" "$dir/log"
  say "starting shard $n: clickhouse-server on $HOST:$http (tcp $tcp), data and logs in $dir"
  setsid clickhouse-server --config-file="$CONFIG" -- \
    --path="$dir/data/" --tmp_path="$dir/tmp/" --user_files_path="$dir/user_files/" \
    --format_schema_path="$dir/format_schemas/" \
    --http_port="$http" --tcp_port="$tcp" --interserver_http_port="$inter" \
    --logger.log="$dir/log/clickhouse-server.log" --logger.errorlog="$dir/log/clickhouse-server.err.log" \
    < /dev/null >> "$dir/log/stdout.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 60); do
    answers "$http" && { say "shard $n answers on $HOST:$http (pid $pid)"; return; }
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
  done
  tail -n 20 "$dir/log/clickhouse-server.err.log" "$dir/log/stdout.log" >&2 2>/dev/null || true
  die "shard $n did not answer on $HOST:$http (logs in $dir/log/)"
}

if ! command -v clickhouse-server >/dev/null 2>&1; then
  say "clickhouse-server is not installed"
  apt_install clickhouse-server clickhouse-client
  # On a machine with systemd the package starts its own server on 8123/9000 (user clickhouse,
  # /var/lib/clickhouse): the test shards need those ports.
  if command -v systemctl >/dev/null 2>&1 && systemctl is-active --quiet clickhouse-server 2>/dev/null; then
    say "stopping and disabling the packaged clickhouse-server service (the test shards use its ports)"
    $SUDO systemctl disable --now clickhouse-server
  fi
fi

write_config
for shard in "${SHARDS[@]}"; do
  read -r n http tcp inter <<< "$shard"
  answers "$http" || start_shard "$n" "$http" "$tcp" "$inter"
done

for shard in "${SHARDS[@]}"; do
  read -r n http _ _ <<< "$shard"
  base=http://$HOST:$http/
  # Something else answering on our port (the packaged server, say) lacks our cluster. (A
  # running shard reloads a config this run rewrote within seconds.)
  for _ in $(seq 1 20); do
    shards=$(query "$base" "SELECT count() FROM system.clusters WHERE cluster = '$CLUSTER'") \
      || die "cannot query $base: $shards"
    [ "$shards" = "${#SHARDS[@]}" ] && break
    sleep 0.5
  done
  [ "$shards" = "${#SHARDS[@]}" ] \
    || die "the server on $base is not a costscope test shard (cluster '$CLUSTER' has '$shards' shards there, not ${#SHARDS[@]}); stop it or set COSTSCOPE_TEST_CLICKHOUSE_URL"
  if [ "$(query "$base" "SELECT count() FROM system.databases WHERE name = '$DATABASE'")" != 1 ]; then
    say "creating database $DATABASE on shard $n"
    out=$(query "$base" "CREATE DATABASE IF NOT EXISTS $DATABASE") || die "CREATE DATABASE on $base: $out"
  fi
done
say "$URL is ready (ClickHouse $(query "http://$HOST:8123/" 'SELECT version()'), 2 shards, data in $DIR)"
