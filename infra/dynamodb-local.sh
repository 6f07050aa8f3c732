#!/usr/bin/env bash
# DynamoDB Local v3 for the store contract suite.
#   install  copy DynamoDB Local and its runtime dependencies from Maven Central
#   start    run it in memory on a free loopback port; prints the export line
#   stop     stop it
set -euo pipefail
cd "$(dirname "$0")/.."
source infra/common.sh

VERSION=3.1.0
DIR="$LECTERN_TOOLS/dynamodb-local-$VERSION"

install() {
  if compgen -G "$DIR/DynamoDBLocal-$VERSION.jar" >/dev/null && compgen -G "$DIR/libsqlite4java-linux-amd64*.so" >/dev/null; then
    return 0
  fi
  echo "installing DynamoDB Local $VERSION into $DIR" >&2
  mkdir -p "$DIR"
  mvn -q -B -f infra/dynamodb-local/pom.xml dependency:copy-dependencies \
    -DincludeScope=runtime -DoutputDirectory="$DIR" >&2
  # sqlite4java loads its native library by this exact name from java.library.path.
  for so in "$DIR"/libsqlite4java-linux-*.so "$DIR"/sqlite4java-linux-*.so; do
    [ -e "$so" ] || continue
    base=$(basename "$so")
    case "$base" in
      *amd64*) cp -f "$so" "$DIR/libsqlite4java-linux-amd64.so" ;;
      *aarch64*) cp -f "$so" "$DIR/libsqlite4java-linux-aarch64.so" ;;
    esac
  done
  compgen -G "$DIR/libsqlite4java-linux-*.so" >/dev/null || { echo "sqlite4java native library missing in $DIR" >&2; exit 1; }
}

start() {
  install
  local port
  port=$(free_port)
  # It writes a metadata file into its working directory: keep that out of the checkout.
  (cd "$LECTERN_STATE" && exec java -Djava.library.path="$DIR" -cp "$DIR/*" \
    software.amazon.dynamodb.services.local.main.ServerRunner -inMemory -port "$port" \
    >"$LECTERN_STATE/dynamodb-local.log" 2>&1) &
  echo $! >"$LECTERN_STATE/dynamodb-local.pid"
  wait_http "http://127.0.0.1:$port" 180 "$(cat "$LECTERN_STATE/dynamodb-local.pid")" || { cat "$LECTERN_STATE/dynamodb-local.log" >&2; exit 1; }
  echo "export LECTERN_TEST_DYNAMODB_ENDPOINT=http://127.0.0.1:$port"
}

case "${1:-}" in
  install) install ;;
  start) start ;;
  stop) stop_pidfile dynamodb-local ;;
  *) echo "usage: $0 install|start|stop" >&2; exit 2 ;;
esac
