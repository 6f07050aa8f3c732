# Shared helpers for the test-part scripts (sourced, not run).
# Tools are cached outside the checkout so clean clones (CI) reuse them.
LECTERN_TOOLS="${LECTERN_TOOLS:-$HOME/.cache/lectern/tools}"
LECTERN_STATE="${LECTERN_STATE:-$(pwd)/.testparts}"
mkdir -p "$LECTERN_TOOLS" "$LECTERN_STATE"

# free_port prints a free TCP port on the loopback interface.
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

# wait_http URL SECONDS [PID] waits until URL answers any HTTP status; gives
# up early when PID (the server being waited for) has exited.
wait_http() {
  local url=$1 secs=${2:-30} pid=${3:-} i
  for ((i = 0; i < secs * 10; i++)); do
    curl -s -o /dev/null "$url" && return 0
    if [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; then
      echo "server for $url exited before it was ready" >&2
      return 1
    fi
    sleep 0.1
  done
  echo "timed out waiting for $url" >&2
  return 1
}

# stop_pidfile NAME stops the process recorded by a start command and waits
# for it to exit (a following start, or removing its data, must find it gone);
# after 10 s it is killed.
stop_pidfile() {
  local f="$LECTERN_STATE/$1.pid" pid i
  [ -f "$f" ] || return 0
  pid=$(cat "$f")
  rm -f "$f"
  kill "$pid" 2>/dev/null || return 0
  for ((i = 0; i < 100; i++)); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  echo "$1 (pid $pid) ignored SIGTERM for 10 s; killing it" >&2
  kill -KILL "$pid" 2>/dev/null || true
}
