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

# add_debian_components COMPONENT...: makes apt read these components of the Debian archive too (contrib, non-free),
# in a sources file of their own beside the machine's, for each Debian site and suite apt reads already. Nothing is
# written when apt reads them all already (from any file); apt-get update follows in install_debs, when a package is
# missing.
add_debian_components() {
  local targets wanted=() component site suites file=/etc/apt/sources.list.d/debian-extra-components.sources
  targets="$(apt-get indextargets --format '$(SITE) $(RELEASE) $(COMPONENT)' 'Identifier: Packages')"
  for component in "$@"; do
    awk -v component="$component" '$3 == component { found = 1 } END { exit !found }' <<<"$targets" || wanted+=("$component")
  done
  ((${#wanted[@]})) || return 0
  {
    echo "# Debian's ${wanted[*]} components, added by ${SCRIPT_NAME:-install} (scripts/install-lib.sh)."
    for site in $(awk '$3 == "main" && $1 ~ /\/debian(-security)?\/?$/ { print $1 }' <<<"$targets" | sort -u); do
      suites="$(awk -v site="$site" '$1 == site && $3 == "main" { print $2 }' <<<"$targets" | sort -u | tr '\n' ' ')"
      printf '\nTypes: deb\nURIs: %s\nSuites: %s\nComponents: %s\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
        "$site" "${suites% }" "${wanted[*]}"
    done
  } >"$LOG_DIR/extra-components.sources"
  grep -q '^URIs:' "$LOG_DIR/extra-components.sources" || fail "no Debian archive in apt's sources to add ${wanted[*]} to"
  as_root cp "$LOG_DIR/extra-components.sources" "$file"
  echo "apt sources: added ${wanted[*]} ($file)"
}
