#!/usr/bin/env bash
# Bundles the build machine's espeak-ng (Debian x86_64) into DEST, so a
# Lambda (provided.al2023, x86_64) runs it with nothing installed:
#   DEST/run   espeak-ng with every shared library it loads, its own dynamic
#              loader and its data (LECTERN_ESPEAK in template.yaml)
# Used by the worker (functions/worker/bundle-speech.sh) and the Voices
# function (functions/voices/Makefile).
set -euo pipefail
dest=${1:?usage: bundle-espeak.sh DEST}

bin=$(command -v espeak-ng) || { echo "espeak-ng is not installed (make deps installs espeak-ng)" >&2; exit 1; }
data=$("$bin" --version | sed -n 's/.*Data at: //p')
[ -f "$data/phontab" ] || { echo "no espeak-ng-data at '$data'" >&2; exit 1; }

rm -rf "$dest"
mkdir -p "$dest/bin" "$dest/lib"
cp -L "$bin" "$dest/bin/espeak-ng"
ldd "$bin" | awk '/=> \//{print $3} $1 ~ /^\/.*ld-linux/{print $1}' | while read -r lib; do cp -L "$lib" "$dest/lib/"; done
# Every language's voice and dictionary (the voice library lists them all),
# but not the MBROLA voices: they need the mbrola program, not bundled.
cp -r "$data" "$dest/espeak-ng-data"
rm -rf "$dest/espeak-ng-data/mbrola_ph" "$dest/espeak-ng-data/voices/mb"
cat > "$dest/run" <<'SH'
#!/bin/sh
# Runs the bundled espeak-ng with its own loader, libraries and data.
here=$(cd "$(dirname "$0")" && pwd)
ESPEAK_DATA_PATH="$here" exec "$here/lib/ld-linux-x86-64.so.2" --library-path "$here/lib" "$here/bin/espeak-ng" "$@"
SH
chmod +x "$dest/run"
