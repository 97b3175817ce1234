#!/usr/bin/env bash
# Real infrastructure for tests, on loopback ports, without Docker:
#   PostgreSQL (Debian's, a throw-away cluster)      on 127.0.0.1:$POSTGRES_PORT (default 5434)
#   FerretDB (MongoDB wire protocol, on PostgreSQL)  on 127.0.0.1:$FERRETDB_PORT (default 27018)
#   Temporal CLI dev server (real Temporal, SQLite)   on 127.0.0.1:$TEMPORAL_PORT (default 7234)
# `start` first runs scripts/install-servers.sh (a second when all is installed; binaries in $TOOLS_DIR).
# State, logs and pid files live in $INFRA_DIR (default /tmp/service-infra); every `start` begins with
# empty databases. FerretDB runs on PostgreSQL: its SQLite handler serves about 100 reads/s, which would
# measure FerretDB, not the service.
#
#   scripts/infra.sh start    start all three (or keep them if already running), wait until they answer
#   scripts/infra.sh stop     stop all three (no error when they are not running)
#   scripts/infra.sh status   one line per server
#   scripts/infra.sh env      print the `export TEST_...=...` lines the test suite reads;
#                             use as: eval "$(scripts/infra.sh env)"
set -euo pipefail

TOOLS_DIR="${TOOLS_DIR:-/root/.cache/service-tools/bin}"
INFRA_DIR="${INFRA_DIR:-/tmp/service-infra}"
FERRETDB_PORT="${FERRETDB_PORT:-27018}"
POSTGRES_PORT="${POSTGRES_PORT:-5434}"
TEMPORAL_PORT="${TEMPORAL_PORT:-7234}"
# The dev server also opens an HTTP API port and a metrics port; pin them next to the gRPC port
# (instead of the dev server's random choice) so that two runs cannot race for the same port.
TEMPORAL_HTTP_PORT="${TEMPORAL_HTTP_PORT:-$((TEMPORAL_PORT + 1000))}"
TEMPORAL_METRICS_PORT="${TEMPORAL_METRICS_PORT:-$((TEMPORAL_PORT + 2000))}"
START_TIMEOUT="${INFRA_START_TIMEOUT:-90}" # seconds, per server
HOST=127.0.0.1

usage() {
  echo "usage: $0 start|stop|status|env" >&2
  exit 2
}

log() { echo "infra: $*"; }

port_answers() { timeout 2 bash -c ">/dev/tcp/$HOST/$1" 2>/dev/null; }

pid_file() { echo "$INFRA_DIR/$1.pid"; }
log_file() { echo "$INFRA_DIR/$1.log"; }

# The pid recorded for a server, if that process is still alive and still runs its binary.
running_pid() {
  local name="$1" file pid
  file="$(pid_file "$name")"
  [[ -f "$file" ]] || return 1
  pid="$(cat "$file")"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  kill -0 "$pid" 2>/dev/null || return 1
  local cmdline
  cmdline="$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)" || return 1
  [[ "$cmdline" == *"$name"* ]] || return 1
  echo "$pid"
}

show_log_tail() {
  local name="$1"
  echo "---- last lines of $(log_file "$name") ----" >&2
  tail -n 40 "$(log_file "$name")" >&2 || true
  echo "----" >&2
}

stop_one() {
  local name="$1" pid i
  if pid="$(running_pid "$name")"; then
    kill -TERM "$pid" 2>/dev/null || true
    for ((i = 0; i < 100; i++)); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then
      kill -KILL "$pid" 2>/dev/null || true
      log "$name (pid $pid) did not stop within 10 s; killed"
    else
      log "$name (pid $pid) stopped"
    fi
  else
    log "$name not running"
  fi
  rm -f "$(pid_file "$name")"
}

stop_all() {
  stop_one temporal
  stop_one ferretdb
  stop_one postgres
}

# start_one NAME PORT CMD...: starts CMD in the background, logging to $INFRA_DIR/NAME.log,
# and waits (bounded) until PORT accepts TCP connections.
start_one() {
  local name="$1" port="$2" pid started waited=0
  shift 2
  if pid="$(running_pid "$name")"; then
    if port_answers "$port"; then
      log "$name already running (pid $pid) on $HOST:$port"
      return 0
    fi
    log "$name (pid $pid) is running but $HOST:$port does not answer; restarting it"
    stop_one "$name"
  fi
  if port_answers "$port"; then
    echo "infra: FAILED: $HOST:$port is already in use by another process (not a $name started here);" \
      "free it or choose another port (${name^^}_PORT)" >&2
    return 1
  fi
  [[ -x "$1" ]] || {
    echo "infra: FAILED: $1 is missing; run scripts/install-servers.sh first (TOOLS_DIR=$TOOLS_DIR)" >&2
    return 1
  }
  nohup "$@" >"$(log_file "$name")" 2>&1 </dev/null &
  pid=$!
  echo "$pid" >"$(pid_file "$name")"
  started=$SECONDS
  until port_answers "$port"; do
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "infra: FAILED: $name exited before $HOST:$port answered" >&2
      show_log_tail "$name"
      rm -f "$(pid_file "$name")"
      return 1
    fi
    waited=$((SECONDS - started))
    if ((waited >= START_TIMEOUT)); then
      echo "infra: FAILED: $name did not accept connections on $HOST:$port within ${START_TIMEOUT} s" >&2
      show_log_tail "$name"
      stop_one "$name" >&2
      return 1
    fi
    sleep 0.2
  done
  log "$name started (pid $pid) on $HOST:$port in $((SECONDS - started)) s; log: $(log_file "$name")"
}

# The dev server accepts TCP a little before it can serve requests; wait until the default
# namespace can be described (bounded by the same timeout).
wait_temporal_ready() {
  local started=$SECONDS
  until "$TOOLS_DIR/temporal" operator namespace describe --namespace default \
    --address "$HOST:$TEMPORAL_PORT" --command-timeout 5s >/dev/null 2>&1; do
    if ((SECONDS - started >= START_TIMEOUT)); then
      echo "infra: FAILED: temporal answers on $HOST:$TEMPORAL_PORT but its default namespace is not ready" \
        "within ${START_TIMEOUT} s" >&2
      show_log_tail temporal
      return 1
    fi
    sleep 0.5
  done
  log "temporal ready (default namespace) after $((SECONDS - started)) s more"
}

# PostgreSQL refuses to run as root: as root, its cluster belongs to (and runs as) the postgres user.
AS_POSTGRES=()
[[ "$(id -u)" == 0 ]] && AS_POSTGRES=("$(command -v setpriv)" --reuid=postgres --regid=postgres --init-groups)

# A fresh cluster on every start (unless one is running): trust auth on loopback only, no fsync
# (test data), no Unix socket (nothing outside $INFRA_DIR is touched).
start_postgres() {
  local bin data="$INFRA_DIR/postgres-data"
  bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
  [[ -x "$bin/postgres" ]] || {
    echo "infra: FAILED: PostgreSQL is missing; run scripts/install-servers.sh first" >&2
    return 1
  }
  if ! running_pid postgres >/dev/null; then
    rm -rf "$data"
    mkdir -p "$data"
    [[ "$(id -u)" == 0 ]] && chown postgres:postgres "$data"
    "${AS_POSTGRES[@]}" "$bin/initdb" -D "$data" -U postgres --auth=trust -E UTF8 --no-sync >"$(log_file postgres-initdb)" 2>&1 || {
      echo "infra: FAILED: initdb" >&2
      show_log_tail postgres-initdb
      return 1
    }
  fi
  start_one postgres "$POSTGRES_PORT" \
    "${AS_POSTGRES[@]}" "$bin/postgres" -D "$data" -p "$POSTGRES_PORT" -c listen_addresses="$HOST" -c unix_socket_directories= \
    -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200 || return 1
  local started=$SECONDS
  until "$bin/pg_isready" -q -h "$HOST" -p "$POSTGRES_PORT"; do
    if ((SECONDS - started >= START_TIMEOUT)); then
      echo "infra: FAILED: postgres answers on $HOST:$POSTGRES_PORT but does not accept sessions within ${START_TIMEOUT} s" >&2
      show_log_tail postgres
      return 1
    fi
    sleep 0.2
  done
}

start_all() {
  bash "$(dirname "${BASH_SOURCE[0]}")/install-servers.sh"
  mkdir -p "$INFRA_DIR"
  start_postgres || return 1
  if ! running_pid ferretdb >/dev/null; then
    rm -rf "$INFRA_DIR/ferretdb-state"
    mkdir -p "$INFRA_DIR/ferretdb-state"
  fi
  start_one ferretdb "$FERRETDB_PORT" \
    "$TOOLS_DIR/ferretdb" \
    --handler=postgresql \
    --postgresql-url="postgres://postgres@$HOST:$POSTGRES_PORT/postgres" \
    --state-dir="$INFRA_DIR/ferretdb-state" \
    --listen-addr="$HOST:$FERRETDB_PORT" \
    --debug-addr=- \
    --telemetry=disable \
    --log-level=warn ||
    return 1

  if ! running_pid temporal >/dev/null; then
    rm -f "$INFRA_DIR"/temporal.db*
  fi
  start_one temporal "$TEMPORAL_PORT" \
    "$TOOLS_DIR/temporal" server start-dev \
    --headless \
    --ip "$HOST" \
    --port "$TEMPORAL_PORT" \
    --http-port "$TEMPORAL_HTTP_PORT" \
    --metrics-port "$TEMPORAL_METRICS_PORT" \
    --db-filename "$INFRA_DIR/temporal.db" \
    --log-level warn ||
    return 1
  wait_temporal_ready
}

status_one() {
  local name="$1" port="$2" pid
  if pid="$(running_pid "$name")"; then
    if port_answers "$port"; then
      echo "$name: running (pid $pid) on $HOST:$port"
    else
      echo "$name: running (pid $pid) but $HOST:$port does not answer"
    fi
  else
    echo "$name: stopped"
  fi
}

case "${1:-}" in
  start)
    if ! start_all; then
      stop_all >&2
      exit 1
    fi
    ;;
  stop) stop_all ;;
  status)
    status_one postgres "$POSTGRES_PORT"
    status_one ferretdb "$FERRETDB_PORT"
    status_one temporal "$TEMPORAL_PORT"
    ;;
  env)
    echo "export TEST_MONGODB_URL=mongodb://$HOST:$FERRETDB_PORT"
    echo "export TEST_TEMPORAL_ADDRESS=$HOST:$TEMPORAL_PORT"
    ;;
  *) usage ;;
esac
