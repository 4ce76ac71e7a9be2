#!/usr/bin/env bash
# Exports a populated log's three tables to Parquet (and events to CSV), then runs DuckDB's counts
# by type over the Parquet file beside the same over the log's JSON Lines (export). Wall time and
# peak RSS of each step through /usr/bin/time -v.
#
#   swift build -c release --product replay-tool && swift build -c release --product ledger-bench
#   .build/release/ledger-bench populate 1000000 /tmp/bench10m 5      # 10,018,214 events
#   Benchmarks/tables-bench.sh .build/release/replay-tool /tmp/bench10m [OUT_DIR] [AT]
set -euo pipefail
T=${1:?replay-tool binary}
LOG=${2:?populated log}
OUT=${3:-$(mktemp -d)}
AT=${4:-2026-06-01T00:00:00Z}
mkdir -p "$OUT"
measure() {  # label, command…
  local label=$1; shift
  /usr/bin/time -v "$@" > "$OUT/$label.out" 2> "$OUT/$label.time" || { cat "$OUT/$label.time" >&2; exit 1; }
  local wall rss
  wall=$(grep 'Elapsed (wall clock)' "$OUT/$label.time" | awk '{print $NF}')
  rss=$(grep 'Maximum resident set size' "$OUT/$label.time" | awk '{print $NF}')
  printf '%-28s wall %-10s peak RSS %6d MiB  %s\n' "$label" "$wall" $((rss / 1024)) "$(head -c 300 "$OUT/$label.out" | head -1)"
}
echo "log $LOG, at $AT, commit $(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(nproc) cores"
measure events.parquet "$T" export --log "$LOG" --table events --format parquet --out "$OUT/events.parquet"
measure subscriptions.parquet "$T" export --log "$LOG" --table subscriptions --format parquet --out "$OUT/subscriptions.parquet" --at "$AT"
measure users.parquet "$T" export --log "$LOG" --table users --format parquet --out "$OUT/users.parquet" --at "$AT"
measure events.csv "$T" export --log "$LOG" --table events --format csv --out "$OUT/events.csv"
measure export.jsonl "$T" export --log "$LOG"
mv "$OUT/export.jsonl.out" "$OUT/events.jsonl"
ls -l "$OUT"/*.parquet "$OUT"/events.csv "$OUT"/events.jsonl | awk '{printf "%-40s %8.1f MiB\n", $NF, $5 / 1048576}'
# DuckDB: counts by type over the Parquet file, then over the JSON Lines.
measure duckdb-parquet python3 -c "
import duckdb, sys
con = duckdb.connect(); con.execute('SET enable_progress_bar = false')
print(con.sql(\"select type, count(*) from read_parquet('$OUT/events.parquet') group by type order by type\").fetchall())"
measure duckdb-jsonl python3 -c "
import duckdb, sys
con = duckdb.connect(); con.execute('SET enable_progress_bar = false')
print(con.sql(\"select type, count(*) from read_json('$OUT/events.jsonl', format='newline_delimited', columns={'type': 'VARCHAR'}) group by type order by type\").fetchall())"
cmp <(cut -c1-2000 "$OUT/duckdb-parquet.out") <(cut -c1-2000 "$OUT/duckdb-jsonl.out") && echo "DuckDB: the same counts by type over Parquet and JSON Lines"
