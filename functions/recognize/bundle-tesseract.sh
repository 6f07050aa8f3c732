#!/usr/bin/env bash
# Bundles the build machine's Tesseract (Debian x86_64) with every shared
# library it loads, its own dynamic loader and its models into DEST,
# so the Recognize Lambda (provided.al2023) can run it with nothing installed:
# DEST/run is the command (LECTERN_TESSERACT in template.yaml).
set -euo pipefail
dest=${1:?usage: bundle-tesseract.sh DEST}
bin=$(command -v tesseract) || { echo "tesseract is not installed (make deps installs tesseract-ocr)" >&2; exit 1; }
data=$(dirname "$(ls /usr/share/tesseract-ocr/*/tessdata/eng.traineddata | head -n 1)")
rm -rf "$dest"
mkdir -p "$dest/bin" "$dest/lib" "$dest/tessdata"
cp -L "$bin" "$dest/bin/tesseract"
ldd "$bin" | awk '/=> \//{print $3} $1 ~ /^\/.*ld-linux/{print $1}' | while read -r lib; do cp -L "$lib" "$dest/lib/"; done
# The models (English, script detection, Simplified Chinese: Recognize tries
# the page's own script when English reads it poorly), and the output
# configs (tsv) tesseract reads by name.
for model in eng osd chi_sim; do
  [ -f "$data/$model.traineddata" ] || { echo "no $model model in $data (make deps installs tesseract-ocr-${model//_/-})" >&2; exit 1; }
  cp "$data/$model.traineddata" "$dest/tessdata/"
done
cp -r "$data/configs" "$data/tessconfigs" "$dest/tessdata/"
cat > "$dest/run" <<'SH'
#!/bin/sh
# Runs the bundled Tesseract with its own loader and libraries.
here=$(cd "$(dirname "$0")" && pwd)
TESSDATA_PREFIX="$here/tessdata" exec "$here/lib/ld-linux-x86-64.so.2" --library-path "$here/lib" "$here/bin/tesseract" "$@"
SH
chmod +x "$dest/run"
