#!/usr/bin/env bash
# Rebuilds shared/magazine/lexicon/words.txt.gz, the word list the text-layer
# quality measure checks words against: Debian's word lists for English,
# French, German, Spanish and Italian (wamerican, wbritish, wfrench, wngerman, wspanish,
# witalian), lower-cased, NFC, without possessives or words over 14 letters,
# sorted and deduplicated. Run it by hand when a list should change; the
# output is committed so builds need no network.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && apt-get download wamerican wbritish wfrench wngerman wspanish witalian >/dev/null)
for deb in "$work"/*.deb; do dpkg-deb -x "$deb" "$work/x"; done
python3 - "$work/x/usr/share/dict" shared/magazine/lexicon/words.txt.gz <<'PY'
import gzip, sys, unicodedata
src, out = sys.argv[1], sys.argv[2]
words = set()
for name in ("american-english", "british-english", "french", "ngerman", "spanish", "italian"):
    for line in open(f"{src}/{name}", encoding="utf-8"):
        w = unicodedata.normalize("NFC", line.strip().lower())
        if w and "'" not in w and len(w) <= 14:
            words.add(w)
data = "\n".join(sorted(words)).encode()
with open(out, "wb") as f:
    f.write(gzip.compress(data, 9, mtime=0))
print(f"{len(words)} words, {len(data)} bytes, written to {out}")
PY
