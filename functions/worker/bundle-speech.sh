#!/usr/bin/env bash
# Bundles what the speech renderer runs into DEST, so the Worker Lambda
# (provided.al2023) can run it with nothing installed:
#   DEST/ffmpeg          a static ffmpeg (LECTERN_FFMPEG in template.yaml)
#   DEST/espeak-ng/run   the build machine's espeak-ng with its libraries,
#                        loader and data (functions/bundle-espeak.sh;
#                        LECTERN_ESPEAK in template.yaml)
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

rm -rf "$dest"
mkdir -p "$dest"
# A wheel is a zip; python3 (which pip needs anyway) reads it.
python3 -c 'import sys, zipfile; sys.stdout.buffer.write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]))' \
  "$cache/$wheel" "$member" > "$dest/ffmpeg"
chmod +x "$dest/ffmpeg"

"$(dirname "$0")/../bundle-espeak.sh" "$dest/espeak-ng"
