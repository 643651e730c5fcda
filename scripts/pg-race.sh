#!/usr/bin/env bash
# `make pg-race`: the race matrix and the forced schedules on a throwaway PostgreSQL
# (scripts/pg.sh), the table printed and the report written to data/pg-race.json, which the lab's
# "On a real database" page shows (commit it). About three minutes on 2 cores.
#   PG_RACE_CONNECTIONS (10), PG_RACE_TRIALS (200); PG_RACE_URL set: that server instead.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
cargo build --release --features pg --bin pg-race
bin="${CARGO_TARGET_DIR:-target}/release/pg-race"
args=(--connections "${PG_RACE_CONNECTIONS:-10}" --trials "${PG_RACE_TRIALS:-200}" --date "$(date -u +%F)" --out data/pg-race.json)
mkdir -p data
if [ -n "${PG_RACE_URL:-}" ]; then
  "$bin" "${args[@]}" | tee target/pg-race.txt
else
  scripts/pg.sh run "$bin" "${args[@]}" | tee target/pg-race.txt
fi
