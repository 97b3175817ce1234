#!/usr/bin/env bash
# Installs the real servers the production-stack test run uses (scripts/infra.sh starts them; .ci/run
# calls this before its second test run):
#   - the Temporal CLI (its dev server is the real Temporal server, SQLite inside),
#   - FerretDB (a MongoDB wire-protocol server) and Debian's postgresql for its PostgreSQL handler,
# the two Go binaries built into a cached tools directory ($TOOLS_DIR). Not needed for `npm start` or
# `npm test` on the embedded default.
# Idempotent: whatever is already present is left alone, so a warm run takes about a second.
# Prints one line per tool.
set -euo pipefail
SCRIPT_NAME=install-servers
# shellcheck source=install-lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/install-lib.sh"

TOOLS_DIR="${TOOLS_DIR:-/root/.cache/service-tools/bin}"
TEMPORAL_VERSION="v1.5.1" # later tags carry a `replace` directive and cannot be `go install`ed
FERRETDB_VERSION="v1.24.2"

LOG_DIR="$(mktemp -d "${TMPDIR:-/tmp}/install-servers.XXXXXX")"
trap 'rm -rf "$LOG_DIR"' EXIT

# ---------------------------------------------------------------- Debian packages
install_debs postgresql

# ---------------------------------------------------------------- Go binaries
mkdir -p "$TOOLS_DIR"
need_go() {
  if ! command -v go >/dev/null 2>&1; then
    [[ -x /usr/local/go/bin/go ]] && export PATH="/usr/local/go/bin:$PATH"
  fi
  command -v go >/dev/null 2>&1 || fail "the Go toolchain (go) is not on PATH"
}

# Temporal CLI. A `go install`ed binary reports version 0.0.0-DEV, so the installed tag is kept
# in a stamp file beside it; a binary without a stamp (installed by hand) is accepted as is.
temporal_bin="$TOOLS_DIR/temporal"
temporal_stamp="$TOOLS_DIR/.temporal.version"
temporal_state="present"
if ! { [[ -x "$temporal_bin" ]] && "$temporal_bin" --version >/dev/null 2>&1 &&
  { [[ ! -f "$temporal_stamp" ]] || [[ "$(cat "$temporal_stamp")" == "$TEMPORAL_VERSION" ]]; }; }; then
  need_go
  GOBIN="$TOOLS_DIR" go install "github.com/temporalio/cli/cmd/temporal@$TEMPORAL_VERSION" \
    >"$LOG_DIR/temporal.log" 2>&1 || fail "go install temporal@$TEMPORAL_VERSION" "$LOG_DIR/temporal.log"
  echo "$TEMPORAL_VERSION" >"$temporal_stamp"
  temporal_state="installed"
fi
"$temporal_bin" --version >/dev/null 2>&1 || fail "$temporal_bin does not run"
temporal_version_line="$("$temporal_bin" --version)"
echo "temporal: $temporal_state ($TEMPORAL_VERSION; ${temporal_version_line%%$'\n'*})"

# FerretDB. `go install ...@v1.24.2` fails here (the module proxy refuses the version list), so it
# is built from a vendored throw-away module. The module zip ships build/version/version.txt
# empty and the binary panics at start without it, so it is filled in before building.
ferretdb_bin="$TOOLS_DIR/ferretdb"
ferretdb_state="present"
ferretdb_ok() { [[ -x "$ferretdb_bin" ]] && [[ "$("$ferretdb_bin" --version 2>/dev/null)" == "version: $FERRETDB_VERSION"$'\n'* ]]; }
if ! ferretdb_ok; then
  need_go
  build_dir="$LOG_DIR/ferretbuild"
  mkdir -p "$build_dir"
  (
    cd "$build_dir"
    go mod init ferretbuild
    cat >tools.go <<'EOF'
//go:build tools

package tools

import _ "github.com/FerretDB/FerretDB/cmd/ferretdb"
EOF
    go get "github.com/FerretDB/FerretDB/cmd/ferretdb@$FERRETDB_VERSION"
    go mod vendor
    echo "$FERRETDB_VERSION" >vendor/github.com/FerretDB/FerretDB/build/version/version.txt
    go build -mod=vendor -o "$ferretdb_bin" github.com/FerretDB/FerretDB/cmd/ferretdb
  ) >"$LOG_DIR/ferretdb.log" 2>&1 || fail "build ferretdb@$FERRETDB_VERSION" "$LOG_DIR/ferretdb.log"
  ferretdb_state="installed"
fi
ferretdb_ok || fail "$ferretdb_bin does not report $FERRETDB_VERSION"
echo "ferretdb: $ferretdb_state ($FERRETDB_VERSION)"
