#!/usr/bin/env bash
# LocalStack: a second Step Functions (with S3 and EventBridge) for the ingest
# state machine's tests, run without Docker from localstack-core on PyPI.
#
#   bash infra/localstack.sh install   a venv with the pinned LocalStack in $LECTERN_TOOLS (skipped when present)
#   bash infra/localstack.sh start     start it in the background on a free loopback port; returns at once
#   bash infra/localstack.sh wait      wait until it is ready; stdout is exactly
#                                      "export LECTERN_TEST_LOCALSTACK_ENDPOINT=http://127.0.0.1:PORT"
#   bash infra/localstack.sh stop      stop it and remove its data folder
#
# start and wait are apart because LocalStack takes seconds to come up: test.sh
# starts it first and waits for it only when the Go tests begin.
set -euo pipefail
cd "$(dirname "$0")/.."
source infra/common.sh

LOCALSTACK_VERSION=2026.3.0
# Only Python 3.13 runs it (3.11 and 3.12 fail at import); the pins are the
# versions that made it import (newer ones break its TLS and CBOR code).
PYTHON_VERSION=3.13.0
PINS=(cbor2'<5.7' pyopenssl==24.2.1 cryptography==43.0.3 service_identity==24.1.0)
DIR="$LECTERN_TOOLS/localstack-$LOCALSTACK_VERSION"
VENV_DIR="$DIR/venv"
PIDFILE="$LECTERN_STATE/localstack.pid"
PORTFILE="$LECTERN_STATE/localstack.port"
LOG="$LECTERN_STATE/localstack.log"
DATA="$LECTERN_STATE/localstack-data"
# The mock-config file Step Functions reads its mocked Lambda answers from:
# written by the Go tests before they start executions (LocalStack reads it
# per execution), so its path is fixed here and handed to both.
MOCKS="$LECTERN_STATE/localstack-sfn-mocks.json"

# python313 prints pyenv's Python 3.13, installing it (and what its build
# needs) when missing.
python313() {
  local root
  root=$(pyenv root 2>/dev/null || echo "$HOME/.pyenv")
  if [ ! -x "$root/versions/$PYTHON_VERSION/bin/python" ]; then
    echo "installing Python $PYTHON_VERSION with pyenv (for LocalStack)" >&2
    if command -v apt-get >/dev/null; then
      apt-get install -y -q build-essential libssl-dev zlib1g-dev libbz2-dev libreadline-dev \
        libsqlite3-dev libffi-dev liblzma-dev >&2
    fi
    pyenv install -s "$PYTHON_VERSION" >&2
  fi
  echo "$root/versions/$PYTHON_VERSION/bin/python"
}

installed() {
  [ -f "$DIR/.complete" ] && "$VENV_DIR/bin/python" -c 'import localstack.runtime.components' 2>/dev/null
}

install() {
  installed && return 0
  mkdir -p "$LECTERN_TOOLS"
  exec 9>"$DIR.lock"
  flock 9
  if ! installed; then
    echo "installing localstack-core $LOCALSTACK_VERSION into $VENV_DIR" >&2
    rm -rf "$DIR"
    mkdir -p "$DIR"
    "$(python313)" -m venv "$VENV_DIR"
    "$VENV_DIR/bin/pip" install -q --disable-pip-version-check \
      "localstack-core[runtime]==$LOCALSTACK_VERSION" "${PINS[@]}" >&2
    "$VENV_DIR/bin/python" -c 'import localstack.runtime.components' >&2
    touch "$DIR/.complete"
  fi
  exec 9>&-
}

start() {
  install
  stop
  local port
  port=$(free_port)
  echo "$port" >"$PORTFILE"
  mkdir -p "$DATA"
  : >"$LOG"
  [ -f "$MOCKS" ] || echo '{"StateMachines": {}, "MockedResponses": {}}' >"$MOCKS"
  # Without Docker: no DNS server, no in-Docker assumptions, no certificate
  # download, no telemetry; services start lazily on first use.
  GATEWAY_LISTEN="127.0.0.1:$port" DNS_ADDRESS=0 OVERRIDE_IN_DOCKER=0 LOCALSTACK_CLI=0 \
    SKIP_SSL_CERT_DOWNLOAD=1 DISABLE_EVENTS=1 FILESYSTEM_ROOT="$DATA" LOCALSTACK_VOLUME_DIR="$DATA" \
    SFN_MOCK_CONFIG="$MOCKS" SERVICES=s3,sqs,events,stepfunctions,sts \
    nohup "$VENV_DIR/bin/python" -m localstack.runtime.main </dev/null >"$LOG" 2>&1 &
  echo $! >"$PIDFILE"
  echo "LocalStack starting on 127.0.0.1:$port (log $LOG)" >&2
}

wait_ready() {
  local pid port i
  pid=$(cat "$PIDFILE" 2>/dev/null) || { echo "LocalStack was not started" >&2; return 1; }
  port=$(cat "$PORTFILE")
  for ((i = 0; i < 1200; i++)); do
    grep -q '^Ready\.' "$LOG" && break
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "LocalStack exited during start; log: $LOG" >&2
      tail -n 30 "$LOG" >&2
      return 1
    fi
    sleep 0.1
  done
  grep -q '^Ready\.' "$LOG" || { echo "LocalStack not ready after 120 s; log: $LOG" >&2; stop; return 1; }
  echo "export LECTERN_TEST_LOCALSTACK_ENDPOINT=http://127.0.0.1:$port"
  echo "export LECTERN_TEST_LOCALSTACK_MOCKS=$MOCKS"
}

stop() {
  stop_pidfile localstack
  rm -rf "$DATA" "$PORTFILE"
}

case "${1:-}" in
  install) install ;;
  start) start ;;
  wait) wait_ready ;;
  stop) stop ;;
  *)
    echo "usage: $0 install|start|wait|stop" >&2
    exit 2
    ;;
esac
