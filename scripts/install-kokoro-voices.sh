#!/usr/bin/env bash
# Installs the style vectors of all 54 Kokoro-82M v1.0 voices (Apache-2.0), whose first letter is their language:
# a American and b British English, e Spanish, f French, h Hindi, i Italian, j Japanese, p Brazilian Portuguese,
# z Mandarin (the second letter: f female, m male). Into $(dirname $TOOLS_DIR)/kokoro/voices, beside the Kokoro
# venv (scripts/install-venv.sh kokoro ...) and after it, since rebuilding the venv removes them. They ship in the npm package kokoro-js, whose JavaScript
# (and its dependencies) the service does not use: only voices/*.bin is extracted from the pinned tarball.
# Idempotent: with the same version present, one line and nothing else.
set -euo pipefail
SCRIPT_NAME=install-kokoro-voices
# shellcheck source=install-lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/install-lib.sh"

KOKORO_JS_VERSION=1.2.1
TOOLS_DIR="${TOOLS_DIR:-/root/.cache/service-tools/bin}"
VOICES="$(dirname "$TOOLS_DIR")/kokoro/voices"
# The stamp names what was installed: an install of the English voices only (an older stamp) is redone.
STAMP="$VOICES/.kokoro-js-$KOKORO_JS_VERSION-all"

LOG_DIR="$(mktemp -d "${TMPDIR:-/tmp}/install-kokoro-voices.XXXXXX")"
trap 'rm -rf "$LOG_DIR"' EXIT

if [[ -f "$STAMP" ]]; then
  echo "kokoro voices: present (kokoro-js $KOKORO_JS_VERSION, $(ls "$VOICES"/*.bin | wc -l) voices, $VOICES)"
  exit 0
fi
{
  npm pack --silent "kokoro-js@$KOKORO_JS_VERSION" --pack-destination "$LOG_DIR" &&
    tar -xzf "$LOG_DIR/kokoro-js-$KOKORO_JS_VERSION.tgz" -C "$LOG_DIR" --wildcards 'package/voices/[a-z][fm]_*.bin'
} >"$LOG_DIR/npm.log" 2>&1 || fail "kokoro-js $KOKORO_JS_VERSION voices" "$LOG_DIR/npm.log"
rm -rf "$VOICES"
mkdir -p "$VOICES"
mv "$LOG_DIR"/package/voices/*.bin "$VOICES/"
touch "$STAMP"
echo "kokoro voices: installed (kokoro-js $KOKORO_JS_VERSION, $(ls "$VOICES"/*.bin | wc -l) voices, $VOICES)"
