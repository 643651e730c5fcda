#!/usr/bin/env bash
# Part of the pg layer: the throwaway PostgreSQL must start wherever the project is cloned, also in
# a folder only its owner may enter (as /root is). Copies the checkout's files (tracked and new, as
# they are now) into a fresh mode-700 folder, runs scripts/pg.sh there with the pg tests built by
# the layer, and checks that the cluster's folder is gone afterwards. Run as root, it does this as
# root and again as the unprivileged user `nobody` (the copy and the test program handed to it);
# otherwise as the invoking user. Usage: scripts/pg-private-check.sh <pg test program> [its args]
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] && [ -x "$1" ] || { echo "usage: scripts/pg-private-check.sh <pg test program> [args]" >&2; exit 2; }
program=$1
shift

priv=$(mktemp -d /tmp/idem-private.XXXXXX)
trap 'rm -rf "$priv"' EXIT
{ git ls-files -z --cached --others --exclude-standard; } \
  | tar --null --ignore-failed-read -T - -cf - 2>/dev/null | (mkdir -p "$priv/home/repo" && tar -C "$priv/home/repo" -xf -)
cp "$program" "$priv/home/pg-tests"

# One run: as the given user (empty: this one), from inside the private folder.
run_as() {
  local who=$1 label=$2 prefix=()
  shift 2
  if [ -n "$who" ]; then
    chown -R "$who" "$priv/home"
    chmod 711 "$priv" # the user may pass through to a home of their own, private as /root is
    prefix=(runuser -u "$who" -- env HOME="$priv/home" TMPDIR=/tmp)
  fi
  chmod 700 "$priv/home"
  local before after
  before=$(ls -d /tmp/idem-pg.* 2>/dev/null | sort || true)
  echo "[pg-private] $label: a clone in $priv/home (mode $(stat -c %a "$priv/home")), scripts/pg.sh from there"
  (cd "$priv/home/repo" && "${prefix[@]}" scripts/pg.sh run "$priv/home/pg-tests" "$@")
  after=$(ls -d /tmp/idem-pg.* 2>/dev/null | sort || true)
  if [ "$before" != "$after" ]; then
    echo "[pg-private] $label: the cluster's folder was left behind: $(comm -13 <(echo "$before") <(echo "$after"))" >&2
    exit 1
  fi
  [ -f "$priv/home/repo/target/test-logs/pg-server.log" ] \
    || { echo "[pg-private] $label: the server's log was not kept in target/test-logs" >&2; exit 1; }
  echo "[pg-private] $label: passed, and nothing left in /tmp"
}

if [ "$(id -u)" = 0 ]; then
  run_as "" "as root" "$@"
  run_as nobody "as the unprivileged user nobody" "$@"
else
  run_as "" "as $(id -un)" "$@"
fi
