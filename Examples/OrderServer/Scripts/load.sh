#!/usr/bin/env bash
# Load test of the order server: the same GET /stock handler wired through the container
# and wired by hand, each driven by wrk on loopback for a bounded time, then the container's
# cost per request in instructions, counted by callgrind on the request loop without HTTP
# (the whole request, and its wiring alone: the same loop without the handler's query).
#
#   bash Examples/OrderServer/Scripts/load.sh [--duration SECONDS] [--rounds N]
#                                             [--connections N] [--requests N]
#
# --duration     seconds of each wrk run (default 10; at most 60)
# --rounds       paired rounds, one wrk run per wiring each, alternating which goes first
#                (default 2; at most 5): requests/s on a shared machine vary from run to
#                run, so every run is printed
# --connections  wrk's open connections (default 32)
# --requests     requests of the callgrind loop (default 2000; at most 100000)
#
# Installs wrk (Debian's package) when it is missing; needs valgrind and objcopy for the
# last figure.
# Targets 127.0.0.1 only; every server it starts is stopped with SIGTERM when it ends.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

duration=10 rounds=2 connections=32 requests=2000
while [ $# -gt 0 ]; do
  case "$1" in
    --duration) duration=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --connections) connections=$2; shift 2 ;;
    --requests) requests=$2; shift 2 ;;
    *) echo "usage: $0 [--duration S] [--rounds N] [--connections N] [--requests N]" >&2; exit 2 ;;
  esac
done
[ "$duration" -ge 1 ] && [ "$duration" -le 60 ] || { echo "--duration: 1 to 60" >&2; exit 2; }
[ "$rounds" -ge 1 ] && [ "$rounds" -le 5 ] || { echo "--rounds: 1 to 5" >&2; exit 2; }
[ "$requests" -ge 1 ] && [ "$requests" -le 100000 ] || { echo "--requests: 1 to 100000" >&2; exit 2; }

if ! command -v wrk >/dev/null; then
  echo "installing wrk"
  timeout 180 apt-get install -y -q wrk >/dev/null 2>&1 ||
    { timeout 120 apt-get update -q >/dev/null 2>&1 &&
      timeout 180 apt-get install -y -q wrk >/dev/null 2>&1; } ||
    { echo "wrk could not be installed" >&2; exit 1; }
fi

echo "building the server (release, scratch path .build-release)"
swift build -c release --product OrderServer --scratch-path .build-release 2>&1 | tail -n 1
bin="$(swift build -c release --scratch-path .build-release --show-bin-path)"
server="$bin/OrderServer"

work=$(mktemp -d)
pid=""
stop() { if [ -n "$pid" ]; then kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; pid=""; fi; }
trap 'stop; rm -rf "$work"' EXIT

# Starts the server with "$@" on a free port and waits until it answers; sets `port` and
# `pid` (in this shell, never in a `$(…)` subshell, so `stop` and the EXIT trap see the pid).
start() {
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  "$server" --host 127.0.0.1 --port "$port" --log-level warning \
    --database-path "$work/orders.sqlite" "$@" >/dev/null 2>&1 &
  pid=$!
  for _ in $(seq 100); do
    curl -sf "http://127.0.0.1:$port/stock" >/dev/null 2>&1 && return
    sleep 0.1
  done
  echo "the server did not start" >&2
  exit 1
}

# wrk against one wiring; appends its requests/s to the variable named $1.
measure() {
  local into=$1 rate
  shift
  start "$@"
  wrk -t2 -c"$connections" -d"${duration}s" --timeout 5s "http://127.0.0.1:$port/stock" \
    >"$work/wrk.txt"
  stop
  rate=$(awk '/^Requests\/sec/ { print $2 }' "$work/wrk.txt")
  grep -E "Non-2xx|Socket errors" "$work/wrk.txt" >&2 || true
  printf -v "$into" '%s %s' "${!into}" "$rate"
}

echo "wrk: $rounds × ${duration}s per wiring, $connections connections, GET /stock"
via_di="" by_hand=""
for round in $(seq "$rounds"); do
  if [ $((round % 2)) -eq 1 ]; then
    measure via_di; measure by_hand --hand
  else
    measure by_hand --hand; measure via_di
  fi
done
ratios=$(paste <(tr ' ' '\n' <<<"${via_di# }") <(tr ' ' '\n' <<<"${by_hand# }") |
  awk '{ printf "%.2f ", $1 / $2 }')

# Instructions of the request loop without HTTP, from callgrind's totals. valgrind 3.19
# cannot read DWARF 5, so it runs a copy without debug information (symbols stay);
# SWIFT_DETERMINISTIC_HASHING=1 makes the counts the same from run to run. Each wiring runs
# N and 2N requests: (I(2N) - I(N)) / N is one request, start-up and first use cancelled out.
instructions() {
  SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="$work/out" \
    "$work/OrderServer" cost "$@" >/dev/null 2>&1
  awk '/^(summary|totals):/ { print $2; exit }' "$work/out"
}
cost=""
if command -v valgrind >/dev/null && command -v objcopy >/dev/null; then
  echo "callgrind: $requests and $((2 * requests)) requests without HTTP, each wiring"
  objcopy --strip-debug "$server" "$work/OrderServer"
  # One request of each wiring, "$@" added to the command: "via the container, by hand".
  per_request() {
    local di_n di_2n hand_n hand_2n
    di_n=$(instructions --requests "$requests" "$@")
    di_2n=$(instructions --requests $((2 * requests)) "$@")
    hand_n=$(instructions --hand --requests "$requests" "$@")
    hand_2n=$(instructions --hand --requests $((2 * requests)) "$@")
    echo "$(((di_2n - di_n) / requests)) $(((hand_2n - hand_n) / requests))"
  }
  # The whole request moves by about a thousand from run to run (the query hops to SQLite's
  # threads); the wiring alone, without the query, is the same in every run.
  read -r di_each hand_each < <(per_request)
  read -r di_wiring hand_wiring < <(per_request --without-query)
  cost="$di_each instructions via the container, $hand_each by hand"
  wiring="$di_wiring instructions via the container, $hand_wiring by hand:"
  wiring+=" the container adds $((di_wiring - hand_wiring))"
fi

printf '\n%-34s %s\n' "requests/s, wired by the container" "$via_di"
printf '%-34s %s\n' "requests/s, wired by hand" "$by_hand"
printf '%-34s %s\n' "ratio, each pair (container/hand)" "$ratios"
if [ -n "$cost" ]; then
  printf '%-34s %s\n' "a request without HTTP" "$cost"
  printf '%-34s %s\n' "its wiring (no query)" "$wiring"
else
  echo "DI cost per request: valgrind (and objcopy) are not installed"
fi
stop
left=$(pgrep -f "$server" || true)
echo "order servers still running: ${left:-none}"
[ -z "$left" ]
