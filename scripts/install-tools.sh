#!/usr/bin/env bash
# Installs what the service and its tests need from outside npm:
#   - Debian packages: espeak-ng (text to speech) and ffmpeg (audio/video),
#   - the Temporal CLI (its dev server is the real Temporal server, SQLite inside),
#   - FerretDB (a MongoDB wire-protocol server on SQLite),
# the two Go binaries into a cached tools directory ($TOOLS_DIR).
# Idempotent: whatever is already present is left alone, so a warm run takes about a second.
# Prints one line per tool.
set -euo pipefail

TOOLS_DIR="${TOOLS_DIR:-/root/.cache/service-tools/bin}"
TEMPORAL_VERSION="v1.5.1" # later tags carry a `replace` directive and cannot be `go install`ed
FERRETDB_VERSION="v1.24.2"
APT_PACKAGES=(espeak-ng libespeak-ng-dev ffmpeg chromium)

LOG_DIR="$(mktemp -d "${TMPDIR:-/tmp}/install-tools.XXXXXX")"
cleanup() { rm -rf "$LOG_DIR"; }
trap cleanup EXIT

fail() {
  local what="$1" log="${2:-}"
  echo "install-tools: FAILED: $what" >&2
  if [[ -n "$log" && -s "$log" ]]; then
    echo "---- last lines of $(basename "$log") ----" >&2
    tail -n 40 "$log" >&2
  fi
  exit 1
}

as_root() {
  if [[ "$(id -u)" == 0 ]]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo "$@"
  else
    fail "need root (or sudo) to run: $*"
  fi
}

# ---------------------------------------------------------------- Debian packages
# (Outputs are captured before matching: `cmd | grep -q` under pipefail fails at random when grep
# exits first and cmd dies of SIGPIPE.)
deb_installed() { [[ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" == *"install ok installed"* ]]; }
deb_version() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null; }

missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  deb_installed "$pkg" || missing+=("$pkg")
done
if ((${#missing[@]})); then
  as_root apt-get update -qq >"$LOG_DIR/apt-update.log" 2>&1 || fail "apt-get update" "$LOG_DIR/apt-update.log"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" \
    >"$LOG_DIR/apt-install.log" 2>&1 || fail "apt-get install ${missing[*]}" "$LOG_DIR/apt-install.log"
fi
for pkg in "${APT_PACKAGES[@]}"; do
  deb_installed "$pkg" || fail "$pkg is still not installed"
  state="present"
  [[ " ${missing[*]-} " == *" $pkg "* ]] && state="installed"
  echo "$pkg: $state ($(deb_version "$pkg"))"
done

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
