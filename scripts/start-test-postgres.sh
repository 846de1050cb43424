#!/usr/bin/env bash
# Starts a throwaway PostgreSQL cluster on loopback for the test suite, and prints the line that
# points the tests at it:
#   eval "$(scripts/start-test-postgres.sh)"   # then: npm test
# Idempotent: a cluster already running is reused. Needs Debian's `postgresql` package (any
# version under /usr/lib/postgresql; 15 on bookworm). As root it runs the server as `postgres`.
# Environment: TEST_PG_DIR (default /tmp/nirmaya-test-pg), TEST_PG_PORT (default 54329).
set -euo pipefail

dir="${TEST_PG_DIR:-/tmp/nirmaya-test-pg}"
port="${TEST_PG_PORT:-54329}"
password="nirmaya-test"
url="postgres://postgres:${password}@127.0.0.1:${port}/postgres"

bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
if [[ -z "$bin" || ! -x "$bin/initdb" ]]; then
  echo "PostgreSQL server binaries not found: apt-get install postgresql" >&2
  exit 1
fi

# Run as the postgres system user when we are root (the server refuses to run as root).
as_owner() {
  if [[ "$(id -u)" == 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}

if as_owner "$bin/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
  echo "PostgreSQL test cluster already running in $dir on port $port" >&2
else
  mkdir -p "$dir"
  [[ "$(id -u)" == 0 ]] && chown postgres:postgres "$dir"
  if [[ ! -f "$dir/data/PG_VERSION" ]]; then
    as_owner bash -c "umask 077; printf '%s\n' '$password' > '$dir/pwfile'"
    as_owner "$bin/initdb" -D "$dir/data" -U postgres --pwfile="$dir/pwfile" \
      --auth-local=trust --auth-host=scram-sha-256 --encoding=UTF8 --locale=C.UTF-8 >/dev/null
  fi
  as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w start \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c max_connections=200 -c fsync=off" >/dev/null
  echo "PostgreSQL test cluster started in $dir on port $port (log: $dir/server.log)" >&2
fi

export TEST_DATABASE_URL="$url"
echo "export TEST_DATABASE_URL=$url"
