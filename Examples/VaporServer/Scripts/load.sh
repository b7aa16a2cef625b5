#!/usr/bin/env bash
# Load test of the bookmark server: GET /stats, whose handler the container makes in the
# request's scope, against GET /by-hand/stats, the same handler built by hand outside the
# scope middleware (same server, same Vapor middleware otherwise), in paired wrk rounds on
# loopback, alternating which goes first. Prints each round's requests/s and their ratio.
#
#   bash Examples/VaporServer/Scripts/load.sh [--duration SECONDS] [--rounds N]
#                                             [--connections N] [--debug]
#
# --duration     seconds of each wrk run (default 10; at most 60)
# --rounds       paired rounds (default 3; at most 7)
# --connections  wrk's open connections (default 32)
# --debug        use the debug build (scratch path .build-vapor, the one CI and the tests
#                use) instead of a release build: quicker to get, not the figure to quote
#
# Builds the server in release (scratch path .build-vapor-release at the repository's
# root) unless --debug. Installs wrk (Debian's package) when it is missing. Targets 127.0.0.1 only; the
# server it starts is stopped (SIGTERM, then SIGKILL) whatever way the script ends.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

duration=10 rounds=3 connections=32 configuration=release
while [ $# -gt 0 ]; do
  case "$1" in
    --duration) duration=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --connections) connections=$2; shift 2 ;;
    --debug) configuration=debug; shift ;;
    *) echo "usage: $0 [--duration S] [--rounds N] [--connections N] [--debug]" >&2; exit 2 ;;
  esac
done
[ "$duration" -ge 1 ] && [ "$duration" -le 60 ] || { echo "--duration: 1 to 60" >&2; exit 2; }
[ "$rounds" -ge 1 ] && [ "$rounds" -le 7 ] || { echo "--rounds: 1 to 7" >&2; exit 2; }
[ "$connections" -ge 1 ] && [ "$connections" -le 256 ] || { echo "--connections: 1 to 256" >&2; exit 2; }

if ! command -v wrk >/dev/null; then
  echo "installing wrk"
  timeout 180 apt-get install -y -q wrk >/dev/null 2>&1 ||
    { timeout 120 apt-get update -q >/dev/null 2>&1 &&
      timeout 180 apt-get install -y -q wrk >/dev/null 2>&1; } ||
    { echo "wrk could not be installed" >&2; exit 1; }
fi

scratch=../../.build-vapor-release
[ "$configuration" = debug ] && scratch=../../.build-vapor
echo "building the server ($configuration)"
swift build -c "$configuration" --product BookmarkServer --scratch-path "$scratch" 2>&1 | tail -n 1
server="$(swift build -c "$configuration" --scratch-path "$scratch" --show-bin-path)/BookmarkServer"

pid="" work="" load=""
stop() {
  if [ -n "$load" ]; then kill -TERM "$load" 2>/dev/null || true; load=""; fi
  if [ -n "$pid" ]; then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    pid=""
  fi
  if [ -n "$work" ]; then rm -rf "$work"; work=""; fi
}
trap stop EXIT
trap 'exit 130' INT TERM

work=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
LOG_LEVEL=warning "$server" --hostname 127.0.0.1 --port "$port" --sqlite "$work/load.sqlite" \
  >"$work/server.log" 2>&1 &
pid=$!
for _ in $(seq 100); do
  curl -sf "http://127.0.0.1:$port/stats" >/dev/null 2>&1 && break
  kill -0 "$pid" 2>/dev/null || { cat "$work/server.log" >&2; exit 1; }
  sleep 0.2
done

# Runs wrk on a path in the background (so a signal reaches the trap at once, not after
# wrk's run) and prints its requests/s.
measure() {
  wrk -t1 -c"$connections" -d"${duration}s" "http://127.0.0.1:$port$1" >"$work/wrk.txt" &
  load=$!
  wait "$load"
  load=""
  awk '/Requests\/sec/ { print $2 }' "$work/wrk.txt"
}

echo "$configuration build, $rounds paired rounds of ${duration}s, $connections connections"
echo "round  container req/s  by-hand req/s  ratio"
for round in $(seq "$rounds"); do
  if [ $((round % 2)) -eq 1 ]; then
    measure /stats >"$work/di"; measure /by-hand/stats >"$work/hand"
  else
    measure /by-hand/stats >"$work/hand"; measure /stats >"$work/di"
  fi
  di=$(cat "$work/di") hand=$(cat "$work/hand")
  ratio=$(python3 -c "print(f'{$di / $hand:.3f}')")
  printf '%5s  %15s  %13s  %5s\n' "$round" "$di" "$hand" "$ratio"
done
