#!/usr/bin/env bash
# Builds the native helpers of src/media/native into build/ (needs cc and libespeak-ng-dev).
# Idempotent: a binary newer than its source is left alone.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

src="src/media/native/espeak-words.c"
out="build/espeak-words"
if [[ -x "$out" && "$out" -nt "$src" ]]; then
  exit 0
fi
command -v cc >/dev/null 2>&1 || { echo "build-native: no C compiler (cc) on PATH" >&2; exit 1; }
echo '#include <espeak-ng/speak_lib.h>' | cc -E - >/dev/null 2>&1 ||
  { echo "build-native: the espeak-ng headers are missing (apt-get install libespeak-ng-dev)" >&2; exit 1; }
mkdir -p build
# Built beside the target and renamed, so a concurrent caller never runs a half-written binary.
cc -O2 -Wall -Wextra -o "$out.tmp.$$" "$src" -lespeak-ng
mv -f "$out.tmp.$$" "$out"
echo "build-native: built $out"
