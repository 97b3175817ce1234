#!/usr/bin/env bash
# Builds the native helpers of src/media/native into build/: espeak-words (needs cc and libespeak-ng-dev) and, where
# RHVoice's headers are installed (librhvoice-dev), rhvoice-words. `build-native.sh NAME` builds that one only.
# Idempotent: a binary newer than its source is left alone.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# build NAME HEADER PACKAGE LIBRARY
build() {
  local name="$1" header="$2" package="$3" library="$4" src="src/media/native/$1.c" out="build/$1"
  if [[ -x "$out" && "$out" -nt "$src" ]]; then
    return 0
  fi
  command -v cc >/dev/null 2>&1 || { echo "build-native: no C compiler (cc) on PATH" >&2; exit 1; }
  echo "#include <$header>" | cc -E - >/dev/null 2>&1 ||
    { echo "build-native: the headers of $name are missing (apt-get install $package)" >&2; exit 1; }
  mkdir -p build
  # Built beside the target and renamed, so a concurrent caller never runs a half-written binary.
  cc -O2 -Wall -Wextra -o "$out.tmp.$$" "$src" "$library"
  mv -f "$out.tmp.$$" "$out"
  echo "build-native: built $out"
}

espeak() { build espeak-words espeak-ng/speak_lib.h libespeak-ng-dev -lespeak-ng; }
rhvoice() { build rhvoice-words RHVoice.h librhvoice-dev -lRHVoice; }

case "${1:-}" in
  espeak-words) espeak ;;
  rhvoice-words) rhvoice ;;
  '')
    espeak
    if echo '#include <RHVoice.h>' | cc -E - >/dev/null 2>&1; then rhvoice; fi
    ;;
  *) echo "build-native: no helper named $1" >&2; exit 2 ;;
esac
