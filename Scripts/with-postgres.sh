#!/usr/bin/env bash
# Runs a command against a throw-away PostgreSQL server:
#
#   bash Scripts/with-postgres.sh CMD [ARGS…]
#
# Installs Debian's postgresql package when no PostgreSQL is installed (apt-get; as root),
# creates a new cluster in a temporary folder, starts it on 127.0.0.1 and a free port (trust
# authentication, user and database `orders`), runs CMD with
# DATABASE_URL=postgres://orders@127.0.0.1:PORT/orders, then stops the server and removes the
# folder, also when CMD fails or the script is interrupted. Exits with CMD's status, or 3 with
# a message saying why when PostgreSQL cannot be installed or started.
set -euo pipefail

if [ $# -eq 0 ]; then
  echo "usage: $0 CMD [ARGS…]   (runs CMD with DATABASE_URL set to a throw-away PostgreSQL)" >&2
  exit 2
fi
command_name=$1
cannot() {
  echo "with-postgres: $*; not running '$command_name' against PostgreSQL" >&2
  exit 3
}

pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }
if [ -z "$(pg_bin)" ]; then
  [ "$(id -u)" -eq 0 ] || cannot "PostgreSQL is not installed and installing it needs root"
  echo "with-postgres: installing Debian's postgresql package" >&2
  export DEBIAN_FRONTEND=noninteractive
  timeout 300 apt-get install -y -q postgresql >/dev/null 2>&1 ||
    { timeout 120 apt-get update -q >/dev/null 2>&1 &&
      timeout 300 apt-get install -y -q postgresql >/dev/null 2>&1; } ||
    cannot "apt-get could not install postgresql"
fi
bin=$(pg_bin)
[ -x "$bin/initdb" ] && [ -x "$bin/pg_ctl" ] || cannot "no initdb/pg_ctl in '$bin'"

# PostgreSQL refuses to run as root: as root, the server runs as the package's user.
as_server_user() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

dir=$(mktemp -d /tmp/with-postgres.XXXXXX)
started=""
cleanup() {
  if [ -n "$started" ]; then
    as_server_user "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
if [ "$(id -u)" -eq 0 ]; then
  id postgres >/dev/null 2>&1 || cannot "there is no 'postgres' user to run the server as"
  chown postgres "$dir"
fi

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
as_server_user "$bin/initdb" -D "$dir/data" -U orders --auth=trust -E UTF8 \
  >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; cannot "initdb failed"; }
started=yes
as_server_user "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 120 \
  -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off" start >/dev/null ||
  { cat "$dir/server.log" >&2 || true; cannot "the server did not start"; }
as_server_user "$bin/createdb" -h 127.0.0.1 -p "$port" -U orders orders ||
  cannot "createdb failed"

echo "with-postgres: PostgreSQL $("$bin/postgres" --version | awk '{ print $3 }') on 127.0.0.1:$port" >&2
status=0
DATABASE_URL="postgres://orders@127.0.0.1:$port/orders" "$@" || status=$?
exit "$status"
