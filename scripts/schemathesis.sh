#!/usr/bin/env bash
# Fuzzes a running embedded server with schemathesis: every operation of /v1/openapi.json (examples, coverage,
# fuzzing and, along the document's links, stateful sequences), then the GraphQL API at /graphql. Fails on any
# 5xx answer or any answer that does not match the document.
#   bash scripts/schemathesis.sh            install (if needed) and run
#   bash scripts/schemathesis.sh install    only install schemathesis into a venv under the tools directory
# SCHEMATHESIS_MAX_EXAMPLES (default 25) bounds the cases per operation and phase, and so the run's time.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

TOOLS_DIR="${TOOLS_DIR:-/root/.cache/service-tools/bin}"
VERSION="$(sed -n 's/^schemathesis==//p' scripts/schemathesis-requirements.txt)"
VENV="$(dirname "$TOOLS_DIR")/schemathesis-$VERSION"
ST="$VENV/bin/st"
export SCHEMATHESIS_HOOKS="$PWD/scripts/schemathesis_hooks.py"
MAX_EXAMPLES="${SCHEMATHESIS_MAX_EXAMPLES:-25}"
KEY="schemathesis_key_0123456789abcdef"

install() {
  if [[ -x "$ST" ]] && "$ST" --version 2>/dev/null | grep -q "version $VERSION\$"; then
    echo "schemathesis: present ($VERSION)"
    return
  fi
  local log
  log="$(mktemp)"
  rm -rf "$VENV"
  if ! { python3 -m venv "$VENV" && "$VENV/bin/pip" install --quiet --disable-pip-version-check -r scripts/schemathesis-requirements.txt; } >"$log" 2>&1; then
    tail -n 40 "$log" >&2
    echo "schemathesis: FAILED to install" >&2
    exit 1
  fi
  rm -f "$log"
  echo "schemathesis: installed ($VERSION)"
}

install
[[ "${1:-}" == "install" ]] && exit 0

WORK="$(mktemp -d "${TMPDIR:-/tmp}/schemathesis.XXXXXX")"
PORT="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
BASE="http://127.0.0.1:$PORT"
server_pid=""
cleanup() {
  if [[ -n "$server_pid" ]]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT

# The embedded default, generation paused (items stay queued), limits out of the fuzzer's way.
env -u EVENTSTORE_URL -u MONGODB_URL -u TEMPORAL_ADDRESS \
  PORT="$PORT" HOST=127.0.0.1 DATA_DIR="$WORK/data" BOOTSTRAP_API_KEY="$KEY" GENERATION_ENABLED=false \
  RATE_LIMIT_GET=1000000 RATE_LIMIT_OTHER=1000000 RATE_LIMIT_PUBLIC=1000000 \
  node --import tsx src/main.ts >"$WORK/server.log" 2>&1 &
server_pid=$!

failed=0
# run NAME ARGS...: one schemathesis run; its own report shows the operations and cases it ran.
run() {
  local name="$1"
  shift
  echo
  echo "==== schemathesis: $name"
  # From the scratch folder: schemathesis and hypothesis keep their caches in the current directory.
  # Requests may take up to 120 s, the server's own socket limit (schemathesis waits 10 by default): a voice design
  # preview speaks up to three neural recordings on the two cores (about 40 s), before the server keeps it for repeats.
  if ! (cd "$WORK" && "$ST" --no-color run --wait-for-schema 90 --request-timeout 120 -H "X-Api-Key: $KEY" --max-examples "$MAX_EXAMPLES" --seed 1 "$@"); then
    failed=1
  fi
}

CHECKS="not_a_server_error,response_schema_conformance"
# Deleting project 1 early would leave the other operations little to work on: it runs on its own, last.
run "OpenAPI, every operation but deleteProject" "$BASE/v1/openapi.json" --checks "$CHECKS" --exclude-operation-id deleteProject
run "OpenAPI, deleteProject" "$BASE/v1/openapi.json" --checks "$CHECKS" --include-operation-id deleteProject --phases examples,coverage,fuzzing
# Every GraphQL error of the service carries its REST meaning (`extensions.code` and `.status`); the stock check
# counts refusals it cannot classify (NOTFOUND, INVALID) as resolver failures, so GraphQL answers get our own
# check of the same rule: no 5xx and no error that is a failure of the server (scripts/schemathesis_hooks.py).
run "GraphQL" "$BASE/graphql" --checks graphql_no_server_failure,response_schema_conformance

if ! kill -0 "$server_pid" 2>/dev/null; then
  echo "schemathesis: the server stopped during the run" >&2
  failed=1
fi
if ((failed)); then
  echo "---- last lines of the server's log ----"
  tail -n 40 "$WORK/server.log"
  echo "schemathesis: FAILED"
  exit 1
fi
echo "schemathesis: passed (0 server errors, 0 schema violations)"
