#!/usr/bin/env bash
# Helpers shared by scripts/install-tools.sh and scripts/install-servers.sh (sourced, not run).
# Each caller sets LOG_DIR (a scratch directory for command logs) before using them.

# fail WHAT [LOG]: says what failed, shows the end of its log, and stops the script.
fail() {
  local what="$1" log="${2:-}"
  echo "${SCRIPT_NAME:-install}: FAILED: $what" >&2
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

# (Outputs are captured before matching: `cmd | grep -q` under pipefail fails at random when grep
# exits first and cmd dies of SIGPIPE.)
deb_installed() { [[ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" == *"install ok installed"* ]]; }
deb_version() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null; }

# install_debs PKG...: installs the Debian packages that are missing (apt-get update only then), and
# prints one line per package: present or installed, with its version.
install_debs() {
  local pkg state missing=()
  for pkg in "$@"; do
    deb_installed "$pkg" || missing+=("$pkg")
  done
  if ((${#missing[@]})); then
    as_root apt-get update -qq >"$LOG_DIR/apt-update.log" 2>&1 || fail "apt-get update" "$LOG_DIR/apt-update.log"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" \
      >"$LOG_DIR/apt-install.log" 2>&1 || fail "apt-get install ${missing[*]}" "$LOG_DIR/apt-install.log"
  fi
  for pkg in "$@"; do
    deb_installed "$pkg" || fail "$pkg is still not installed"
    state="present"
    [[ " ${missing[*]-} " == *" $pkg "* ]] && state="installed"
    echo "$pkg: $state ($(deb_version "$pkg"))"
  done
}
