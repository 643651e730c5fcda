#!/usr/bin/env bash
# A throwaway PostgreSQL for the pg layer and `make pg-race`, under target/pg, on a Unix socket
# only (no TCP port, no password: trust authentication for the socket, which only this machine's
# users can reach). Usage:
#   scripts/pg.sh run <command...>   start a fresh cluster, run the command with PG_RACE_URL set,
#                                    stop the server whatever the command does; its exit status
# To use an existing server instead, skip this script and set PG_RACE_URL yourself
# (a libpq connection string, e.g. "host=/var/run/postgresql user=me dbname=scratch"; the
# driver drops and creates the tables account, ledger, idem_keys, idem_keys_u and outbox).
set -euo pipefail
cd "$(dirname "$0")/.."
[ "${1:-}" = run ] && [ $# -ge 2 ] || { echo "usage: scripts/pg.sh run <command...>" >&2; exit 2; }
shift
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$bin/initdb" ] || { echo "[pg] PostgreSQL's server programs are missing: run scripts/setup.sh test (Debian package postgresql)" >&2; exit 1; }
dir="$PWD/target/pg"
rm -rf "$dir"
mkdir -p "$dir/data"
# As root, initdb refuses to run: the cluster belongs to the postgres user the package creates.
as=()
if [ "$(id -u)" = 0 ]; then
  chown -R postgres "$dir"
  as=(runuser -u postgres --)
fi
"${as[@]}" "$bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --no-sync >"$dir/initdb.log" 2>&1 \
  || { cat "$dir/initdb.log" >&2; exit 1; }
stop() { "${as[@]}" "$bin/pg_ctl" -D "$dir/data" stop -m fast >/dev/null 2>&1 || true; }
trap stop EXIT
# fsync off: a throwaway cluster; what is measured is locking and isolation, not durability.
"${as[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
  -o "-k $dir -c listen_addresses='' -c fsync=off -c max_connections=100" start >/dev/null \
  || { cat "$dir/server.log" >&2; exit 1; }
export PG_RACE_URL="host=$dir user=postgres dbname=postgres"
echo "[pg] $("$bin/postgres" --version) on the socket in $dir"
set +e
"$@"
status=$?
set -e
exit $status
