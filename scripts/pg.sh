#!/usr/bin/env bash
# A throwaway PostgreSQL for the pg layer and `make pg-race`, on a Unix socket only (no TCP port, no
# password: trust authentication for the socket, which only this machine's users can reach). Usage:
#   scripts/pg.sh run <command...>   start a fresh cluster, run the command with PG_RACE_URL set,
#                                    stop the server and delete the cluster whatever the command
#                                    does; exits with the command's status
# The cluster and its socket live in a fresh folder of their own under the system's temporary
# folder (/tmp/idem-pg.XXXXXX), owned by the server's user, never under the checkout: as root the
# server runs as the `postgres` user, who cannot pass through a private parent such as /root
# (mode 700). The server's log is copied to target/test-logs/pg-server.log before the folder goes.
# To use an existing server instead, skip this script and set PG_RACE_URL yourself
# (a libpq connection string, e.g. "host=/var/run/postgresql user=me dbname=scratch"; the
# driver drops and creates the tables account, ledger, idem_keys, idem_keys_u and outbox).
set -euo pipefail
cd "$(dirname "$0")/.."
[ "${1:-}" = run ] && [ $# -ge 2 ] || { echo "usage: scripts/pg.sh run <command...>" >&2; exit 2; }
shift
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$bin/initdb" ] || { echo "[pg] PostgreSQL's server programs are missing: run scripts/setup.sh test (Debian package postgresql)" >&2; exit 1; }

# As root, initdb refuses to run: the cluster belongs to the postgres user the package creates.
# Its programs run from / so that they never need the caller's folder ("could not change directory").
as=()
base="${TMPDIR:-/tmp}"
if [ "$(id -u)" = 0 ]; then
  as=(runuser -u postgres --)
  base=/tmp # TMPDIR may be private to root; /tmp is open to every user
fi
as_server() { (cd / && "${as[@]}" "$@"); }
# A socket's path is at most 107 bytes; a long TMPDIR falls back to /tmp.
[ ${#base} -le 60 ] || base=/tmp
dir=$(mktemp -d "$base/idem-pg.XXXXXX")
logs="$PWD/target/test-logs"
cleanup() {
  as_server "$bin/pg_ctl" -D "$dir/data" stop -m fast >/dev/null 2>&1 || true
  if [ -f "$dir/server.log" ]; then mkdir -p "$logs" && cp "$dir/server.log" "$logs/pg-server.log" || true; fi
  rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP
[ ${#as[@]} -eq 0 ] || chown postgres "$dir"
chmod 700 "$dir"

as_server "$bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --no-sync >"$dir/initdb.log" 2>&1 \
  || { cat "$dir/initdb.log" >&2; exit 1; }
# fsync off: a throwaway cluster; what is measured is locking and isolation, not durability.
as_server "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
  -o "-k $dir -c listen_addresses='' -c fsync=off -c max_connections=100" start >/dev/null \
  || { cat "$dir/server.log" >&2; exit 1; }
export PG_RACE_URL="host=$dir user=postgres dbname=postgres"
echo "[pg] $("$bin/postgres" --version) on the socket in $dir (removed when this run ends)"
set +e
"$@"
status=$?
set -e
exit $status
