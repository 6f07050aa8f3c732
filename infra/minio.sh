#!/usr/bin/env bash
# MinIO: an S3-compatible server that checks SigV4 signatures, so the s3blob
# tests really exercise presigned URLs (tampered and expired ones get 403).
#
#   bash infra/minio.sh install   build the pinned MinIO into $LECTERN_TOOLS (skipped when present)
#   bash infra/minio.sh start     start on a free loopback port with a fresh data folder; stdout is
#                                 exactly three lines to eval:
#                                   export LECTERN_TEST_S3_ENDPOINT=http://127.0.0.1:PORT
#                                   export LECTERN_TEST_S3_ACCESS_KEY=...
#                                   export LECTERN_TEST_S3_SECRET_KEY=...
#   bash infra/minio.sh stop      stop it and remove its data folder
#
# Everything but those three lines goes to stderr, because callers run
# eval "$(bash infra/minio.sh start)".
set -euo pipefail
cd "$(dirname "$0")/.."
source infra/common.sh

# MinIO publishes no tagged Go module versions, so the pin is a pseudo-version
# (a commit of 2026-02-12). Building it takes minutes (~240 modules); the
# binary is cached per version so later runs and clean clones skip the build.
MINIO_VERSION=v0.0.0-20260212201848-7aac2a2c5b7c
DIR="$LECTERN_TOOLS/minio-$MINIO_VERSION"
BIN="$DIR/minio"
PIDFILE="$LECTERN_STATE/minio.pid"
LOG="$LECTERN_STATE/minio.log"
DATA="$LECTERN_STATE/minio-data"

# installed succeeds when the cached binary runs: an interrupted copy into
# GOBIN (go install copies when the build cache is on another disk) leaves a
# truncated file that is executable but fails to start.
installed() {
  [ -x "$BIN" ] && "$BIN" --version >/dev/null 2>&1
}

install() {
  installed && return 0
  mkdir -p "$DIR"
  # The lock keeps two concurrent installs (say, `make -j`) from building twice:
  # the second waits and then finds the binary.
  exec 9>"$DIR.lock"
  flock 9
  if ! installed; then
    echo "building MinIO $MINIO_VERSION into $DIR (takes a few minutes)" >&2
    rm -f "$BIN"
    GOBIN="$DIR" go install "github.com/minio/minio@$MINIO_VERSION" >&2
  fi
  exec 9>&-
}

start() {
  install
  # One server per state folder: a leftover from an aborted run is replaced.
  stop
  local port console user password pid started
  port=$(free_port)
  console=$(free_port)
  while [ "$console" = "$port" ]; do console=$(free_port); done
  # Fresh credentials per start; hex keeps them safe to eval unquoted.
  # Letters and digits only: DynamoDB Local refuses other access key ids, and
  # infra/run-bootstraps.py gives one key pair to a function for both.
  user="lectern$(head -c 6 /dev/urandom | od -An -tx1 | tr -d ' \n')"
  password=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
  mkdir -p "$DATA"
  started=$(date +%s.%N)
  # Detached from our stdout (see above). MINIO_CI_CD caps MinIO's buffer
  # pool at 256 MiB instead of up to half the machine's memory.
  MINIO_ROOT_USER="$user" MINIO_ROOT_PASSWORD="$password" MINIO_CI_CD=1 MINIO_UPDATE=off \
    nohup "$BIN" server "$DATA" --address "127.0.0.1:$port" --console-address "127.0.0.1:$console" \
    </dev/null >"$LOG" 2>&1 &
  pid=$!
  echo "$pid" >"$PIDFILE"
  local url="http://127.0.0.1:$port" i code
  for ((i = 0; i < 1200; i++)); do # 2 min: a bound for a loaded machine
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "MinIO exited during start; log: $LOG" >&2
      tail -n 20 "$LOG" >&2
      rm -f "$PIDFILE"
      return 1
    fi
    code=$(curl -s -o /dev/null -w '%{http_code}' "$url/minio/health/ready" || true)
    [ "$code" = 200 ] && break
    sleep 0.1
  done
  if [ "$code" != 200 ]; then
    echo "MinIO not ready after 2 min; log: $LOG" >&2
    stop
    return 1
  fi
  echo "MinIO ready at $url in $(python3 -c "print(f'{$(date +%s.%N) - $started:.2f}')") s (console 127.0.0.1:$console, log $LOG)" >&2
  echo "export LECTERN_TEST_S3_ENDPOINT=$url"
  echo "export LECTERN_TEST_S3_ACCESS_KEY=$user"
  echo "export LECTERN_TEST_S3_SECRET_KEY=$password"
}

stop() {
  stop_pidfile minio
  rm -rf "$DATA"
}

case "${1:-}" in
  install) install ;;
  start) start ;;
  stop) stop ;;
  *)
    echo "usage: $0 install|start|stop" >&2
    exit 2
    ;;
esac
