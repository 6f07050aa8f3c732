#!/usr/bin/env bash
# ElasticMQ: an SQS-compatible server (SQS JSON protocol, as the current Go SDK
# speaks it) for the sqsjobs tests.
#
#   bash infra/elasticmq.sh install   copy ElasticMQ from Maven Central into $LECTERN_TOOLS (idempotent)
#   bash infra/elasticmq.sh start     start on a free loopback port; stdout is exactly
#                                     "export LECTERN_TEST_SQS_ENDPOINT=http://127.0.0.1:PORT"
#   bash infra/elasticmq.sh stop      stop the server started by `start`
set -euo pipefail
cd "$(dirname "$0")/.."
source infra/common.sh

# 1.7.1: the newest release on Maven Central when this was written; the JSON
# protocol (X-Amz-Target: AmazonSQS.*) has been supported since 1.4.
ELASTICMQ_VERSION=1.7.1
DIR="$LECTERN_TOOLS/elasticmq-$ELASTICMQ_VERSION"
PIDFILE="$LECTERN_STATE/elasticmq.pid"
LOG="$LECTERN_STATE/elasticmq.log"
CONF="$LECTERN_STATE/elasticmq.conf"

install() {
  # The marker file is written last, so an interrupted copy is redone.
  [ -f "$DIR/.complete" ] && return 0
  local tmp="$DIR.partial"
  rm -rf "$tmp"
  echo "installing ElasticMQ $ELASTICMQ_VERSION into $DIR" >&2
  # Maven's output goes to stderr: `start` may install, and its stdout is eval'ed.
  mvn -q -B -Dstyle.color=never -f infra/elasticmq/pom.xml dependency:copy-dependencies \
    -Delasticmq.version="$ELASTICMQ_VERSION" -DincludeScope=runtime \
    -DoutputDirectory="$tmp" >&2
  ls "$tmp"/elasticmq-server_2.13-"$ELASTICMQ_VERSION".jar >/dev/null
  touch "$tmp/.complete"
  rm -rf "$DIR"
  mv "$tmp" "$DIR"
}

start() {
  install
  # One server per state folder: a leftover from an aborted run is replaced.
  stop
  local port
  port=$(free_port)
  # node-address is what ElasticMQ puts in queue URLs, so it must be the
  # address clients use; the default binding is 0.0.0.0, which we don't want.
  cat >"$CONF" <<CONF
include classpath("application.conf")
node-address {
  protocol = http
  host = "127.0.0.1"
  port = $port
  context-path = ""
}
rest-sqs {
  enabled = true
  bind-port = $port
  bind-hostname = "127.0.0.1"
  sqs-limits = strict
}
generate-node-address = false
CONF
  # Detached from our stdout: callers run `eval "$(... start)"`, which waits
  # for every writer of the pipe to exit.
  nohup java -Dconfig.file="$CONF" -cp "$DIR/*" org.elasticmq.server.Main \
    </dev/null >"$LOG" 2>&1 &
  echo $! >"$PIDFILE"
  local url="http://127.0.0.1:$port" i
  for ((i = 0; i < 1800; i++)); do # 3 min: a JVM's start on a loaded machine
    if ! kill -0 "$(cat "$PIDFILE")" 2>/dev/null; then
      echo "ElasticMQ exited during start; log: $LOG" >&2
      tail -n 20 "$LOG" >&2
      rm -f "$PIDFILE"
      return 1
    fi
    curl -s -o /dev/null "$url/" && break
    sleep 0.1
  done
  wait_http "$url/" 1 >/dev/null || { stop_pidfile elasticmq; return 1; }
  echo "export LECTERN_TEST_SQS_ENDPOINT=$url"
}

stop() { stop_pidfile elasticmq; }

case "${1:-}" in
  install) install ;;
  start) start ;;
  stop) stop ;;
  *)
    echo "usage: $0 install|start|stop" >&2
    exit 2
    ;;
esac
