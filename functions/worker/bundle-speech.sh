#!/usr/bin/env bash
# Bundles what the speech renderer runs into DEST, so the Worker Lambda
# (provided.al2023) can run it with nothing installed:
#   DEST/ffmpeg          a static ffmpeg (LECTERN_FFMPEG in template.yaml)
#   DEST/espeak-ng/run   the build machine's espeak-ng (Debian x86_64) with
#                        every shared library it loads, its own dynamic loader
#                        and its data (LECTERN_ESPEAK in template.yaml)
set -euo pipefail
dest=${1:?usage: bundle-speech.sh DEST}

# ffmpeg: Debian's pulls about 240 MB of shared libraries, too much for a
# Lambda (250 MB unzipped). The imageio-ffmpeg wheel carries John Van
# Sickle's static build (GPL; ffmpeg 7.0.2 with libmp3lame, aac, ebur128 and
# the ipod muxer), pinned by its hash and downloaded once.
wheel_version=0.7.0
wheel=imageio_ffmpeg-$wheel_version-py3-none-manylinux2014_x86_64.whl
wheel_sha256=4e1f36bef7bedd4bc5dc25f60a8345d88f57133fa1e754f09b411ac61b854408
member=imageio_ffmpeg/binaries/ffmpeg-linux-x86_64-v7.0.2
cache=${LECTERN_TOOLS:-$HOME/.cache/lectern/tools}/imageio-ffmpeg-$wheel_version
if [ ! -f "$cache/$wheel" ]; then
  mkdir -p "$cache"
  pip download --quiet --no-deps --only-binary=:all: --platform manylinux2014_x86_64 \
    "imageio-ffmpeg==$wheel_version" -d "$cache"
fi
echo "$wheel_sha256  $cache/$wheel" | sha256sum --check --quiet - \
  || { echo "$cache/$wheel does not have the pinned sha256; delete it to download it again" >&2; exit 1; }

bin=$(command -v espeak-ng) || { echo "espeak-ng is not installed (make deps installs espeak-ng)" >&2; exit 1; }
data=$("$bin" --version | sed -n 's/.*Data at: //p')
[ -f "$data/phontab" ] || { echo "no espeak-ng-data at '$data'" >&2; exit 1; }

rm -rf "$dest"
mkdir -p "$dest/espeak-ng/bin" "$dest/espeak-ng/lib"
# A wheel is a zip; python3 (which pip needs anyway) reads it.
python3 -c 'import sys, zipfile; sys.stdout.buffer.write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]))' \
  "$cache/$wheel" "$member" > "$dest/ffmpeg"
chmod +x "$dest/ffmpeg"

cp -L "$bin" "$dest/espeak-ng/bin/espeak-ng"
ldd "$bin" | awk '/=> \//{print $3} $1 ~ /^\/.*ld-linux/{print $1}' | while read -r lib; do cp -L "$lib" "$dest/espeak-ng/lib/"; done
# Every language's voice and dictionary (the voice library lists them all),
# but not the MBROLA voices: they need the mbrola program, not bundled.
cp -r "$data" "$dest/espeak-ng/espeak-ng-data"
rm -rf "$dest/espeak-ng/espeak-ng-data/mbrola_ph" "$dest/espeak-ng/espeak-ng-data/voices/mb"
cat > "$dest/espeak-ng/run" <<'SH'
#!/bin/sh
# Runs the bundled espeak-ng with its own loader, libraries and data.
here=$(cd "$(dirname "$0")" && pwd)
ESPEAK_DATA_PATH="$here" exec "$here/lib/ld-linux-x86-64.so.2" --library-path "$here/lib" "$here/bin/espeak-ng" "$@"
SH
chmod +x "$dest/espeak-ng/run"
