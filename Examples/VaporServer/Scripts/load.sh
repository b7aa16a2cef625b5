#!/usr/bin/env bash
# Load test of the bookmark server: GET /stats, whose handler the container makes in the
# request's scope, against GET /by-hand/stats, the same handler built by hand outside the
# scope middleware (same server, same Vapor middleware otherwise), in paired wrk rounds on
# loopback, alternating which goes first. Prints each round's requests/s and their ratio,
# then the ratio of the sums; then the instructions of one request of each route, counted by
# callgrind on the server's responder without HTTP (`BookmarkServer cost`), and the
# difference: what the container (its middleware, the request's scope, the resolve) adds.
#
#   bash Examples/VaporServer/Scripts/load.sh [--duration SECONDS] [--rounds N]
#                                             [--connections N] [--requests N] [--debug]
#
# --duration     seconds of each wrk run (default 10; at most 60)
# --rounds       paired rounds (default 3; at most 7)
# --connections  wrk's open connections (default 32)
# --requests     requests of the callgrind loop (default 2000; at most 100000)
# --debug        use the debug build (scratch path .build-vapor, the one CI and the tests
#                use) instead of a release build: quicker to get, not the figure to quote
#
# Builds the server in release (scratch path .build-vapor-release at the repository's
# root) unless --debug. Installs wrk (Debian's package) when it is missing; needs valgrind
# and objcopy for the instruction counts. Targets 127.0.0.1 only; the server it starts is
# stopped (SIGTERM, then SIGKILL) whatever way the script ends.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

duration=10 rounds=3 connections=32 requests=2000 configuration=release
while [ $# -gt 0 ]; do
  case "$1" in
    --duration) duration=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --connections) connections=$2; shift 2 ;;
    --requests) requests=$2; shift 2 ;;
    --debug) configuration=debug; shift ;;
    *)
      echo "usage: $0 [--duration S] [--rounds N] [--connections N] [--requests N] [--debug]" >&2
      exit 2
      ;;
  esac
done
[ "$duration" -ge 1 ] && [ "$duration" -le 60 ] || { echo "--duration: 1 to 60" >&2; exit 2; }
[ "$rounds" -ge 1 ] && [ "$rounds" -le 7 ] || { echo "--rounds: 1 to 7" >&2; exit 2; }
[ "$connections" -ge 1 ] && [ "$connections" -le 256 ] || { echo "--connections: 1 to 256" >&2; exit 2; }
[ "$requests" -ge 1 ] && [ "$requests" -le 100000 ] || { echo "--requests: 1 to 100000" >&2; exit 2; }

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
di_sum=0 hand_sum=0
for round in $(seq "$rounds"); do
  if [ $((round % 2)) -eq 1 ]; then
    measure /stats >"$work/di"; measure /by-hand/stats >"$work/hand"
  else
    measure /by-hand/stats >"$work/hand"; measure /stats >"$work/di"
  fi
  di=$(cat "$work/di") hand=$(cat "$work/hand")
  ratio=$(python3 -c "print(f'{$di / $hand:.3f}')")
  printf '%5s  %15s  %13s  %5s\n' "$round" "$di" "$hand" "$ratio"
  di_sum=$(python3 -c "print($di_sum + $di)") hand_sum=$(python3 -c "print($hand_sum + $hand)")
done
printf '%5s  %15.0f  %13.0f  %5s\n' "sum" "$di_sum" "$hand_sum" \
  "$(python3 -c "print(f'{$di_sum / $hand_sum:.3f}')")"
stop

# Instructions of one request through the responder without HTTP, from callgrind's totals.
# valgrind 3.19 cannot read DWARF 5, so it runs a copy without debug information (symbols
# stay); SWIFT_DETERMINISTIC_HASHING=1 keeps hashing from changing the counts. A count is
# (I(2N) - I(N)) / N, start-up and first use cancelled out. The route's handler runs on a
# task and its response comes back through the event loop, so a count moves by a few
# thousand from run to run: each route is counted three times and the median is kept.
if command -v valgrind >/dev/null && command -v objcopy >/dev/null; then
  work=$(mktemp -d)
  objcopy --strip-debug "$server" "$work/BookmarkServer"
  instructions() {
    SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="$work/out" \
      "$work/BookmarkServer" cost "$@" >/dev/null 2>&1
    awk '/^(summary|totals):/ { print $2; exit }' "$work/out"
  }
  # The median of three counts of one request, "$@" added to the command.
  per_request() {
    local counts=() n twice
    for _ in 1 2 3; do
      n=$(instructions --requests "$requests" "$@")
      twice=$(instructions --requests $((2 * requests)) "$@")
      counts+=($(((twice - n) / requests)))
    done
    printf '%s\n' "${counts[@]}" | sort -n | sed -n 2p
  }
  echo "callgrind, $requests and $((2 * requests)) requests without HTTP, median of three:"
  di=$(per_request) hand=$(per_request --hand)
  printf '  GET /stats          %8s instructions\n' "$di"
  printf '  GET /by-hand/stats  %8s instructions\n' "$hand"
  printf '  the container adds  %8s instructions\n' "$((di - hand))"
else
  echo "instructions per request: valgrind (and objcopy) are not installed"
fi
stop
left=$(pgrep -f "$server" || true)
echo "bookmark servers still running: ${left:-none}"
[ -z "$left" ]
