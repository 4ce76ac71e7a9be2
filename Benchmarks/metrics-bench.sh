#!/bin/sh
# The analysts' metrics, segments and customer lists at a past instant: each a whole replay-tool
# process (use a release build) answered from the kept analysts' model, beside DuckDB (2 threads)
# answering the nearest question over the tables `export --table` writes as of that instant:
#   Benchmarks/metrics-bench.sh TOOL USERS [SEED] [AT]
# Generates USERS users (`replay-tool generate`), imports them into a new log under /tmp, builds
# the model once (timed), exports the subscriptions and users tables as of AT (timed), then prints
# one table row per question: seconds and peak RSS of the tool, DuckDB's query time.
set -eu
T=${1:?usage: metrics-bench.sh TOOL USERS [SEED] [AT]}
U=${2:?usage: metrics-bench.sh TOOL USERS [SEED] [AT]}
SEED=${3:-1}
AT=${4:-2026-05-01T00:00:00Z}
D=/tmp/metrics-bench.$$
mkdir -p "$D"
trap 'rm -rf "$D"' EXIT
export REPLAY_TOOL_NOW=2026-12-31T00:00:00Z
"$T" generate --users "$U" --seed "$SEED" --out "$D/events.jsonl" >/dev/null
"$T" import --log "$D/log" "$D/events.jsonl" >/dev/null
n=$(wc -l < "$D/events.jsonl")
timed() {   # timed CMD...: "seconds | MiB"
  /usr/bin/time -o "$D/time" -f "%e %M" "$@" >/dev/null 2>&1 || echo "(exit $?)" >&2
  awk '{printf "%.3f s | %d MiB", $1, $2/1024}' "$D/time"
}
echo "$U users, $n events, at $AT, commit $(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "first build of the model (metrics --at, includes the event cache): $(timed "$T" metrics --log "$D/log" --at "$AT")"
echo "export --table subscriptions --at: $(timed "$T" export --log "$D/log" --table subscriptions --out "$D/s.parquet" --at "$AT")"
echo "export --table users --at: $(timed "$T" export --log "$D/log" --table users --out "$D/u.parquet" --at "$AT")"
echo
duck=no
if python3 -c 'import duckdb' 2>/dev/null; then duck=yes; fi
echo "| question | replay-tool (whole process) | DuckDB over the exported tables (query only) |"
echo "| --- | --- | --- |"
row() {   # row LABEL SQL ARGS...
  label=$1; sql=$2; shift 2
  tool=$(timed "$T" "$@" --log "$D/log" --format json)
  d="-"
  if [ "$duck" = yes ] && [ -n "$sql" ]; then
    d=$(python3 - "$D" "$sql" <<'PY'
import sys, time, duckdb
c = duckdb.connect(); c.execute("SET threads=2")
c.execute(f"CREATE TABLE s AS SELECT * FROM read_parquet('{sys.argv[1]}/s.parquet')")
c.execute(f"CREATE TABLE u AS SELECT * FROM read_parquet('{sys.argv[1]}/u.parquet')")
s = time.time(); c.execute(sys.argv[2]).fetchall(); print(f"{time.time() - s:.3f} s")
PY
)
  fi
  echo "| $label | $tool | $d |"
}
W="start >= TIMESTAMPTZ '2026-03-01 00:00:00+00' AND start < TIMESTAMPTZ '2026-04-01 00:00:00+00'"
PAID="price IS NOT NULL AND NOT sandbox AND NOT family_shared"
row "metrics --at (every metric, whole log)" "SELECT count(*), count(refunded_at), sum(price) FROM s WHERE $PAID" metrics --at "$AT"
row "metrics --from 03-01 --to 04-01 (refund rate, ARPPU of a month)" "SELECT count(*), count(refunded_at), sum(price) / count(DISTINCT \"user\") FROM s WHERE $PAID AND $W" metrics --from 2026-03-01T00:00:00Z --to 2026-04-01T00:00:00Z --at "$AT"
row "metrics --by month --to AT" "SELECT date_trunc('month', start), count(*), count(refunded_at), sum(price) / count(DISTINCT \"user\") FROM s WHERE $PAID GROUP BY ALL" metrics --by month --to "$AT" --at "$AT"
row "metrics --by-segment product (a month)" "SELECT product, count(*), count(refunded_at), sum(price) FROM s WHERE $PAID AND $W GROUP BY product" metrics --by-segment product --from 2026-03-01T00:00:00Z --to 2026-04-01T00:00:00Z --at "$AT"
row "metrics --by week --by-segment offer" "SELECT date_trunc('week', start), offer, count(*) FROM s WHERE $PAID GROUP BY ALL" metrics --by week --by-segment offer --to "$AT" --at "$AT"
row "users --where planState=pro_grace" "SELECT \"user\" FROM u WHERE plan_state = 'pro_grace' ORDER BY \"user\"" users --where planState=pro_grace --at "$AT"
row "users --where trialEndsBefore=AT+3d" "SELECT \"user\" FROM u WHERE plan_state = 'trial' AND expires_at < TIMESTAMPTZ '2026-05-04 00:00:00+00' ORDER BY \"user\"" users --where trialEndsBefore=2026-05-04T00:00:00Z --at "$AT"
row "users --where billingIssue=true --limit 100" "SELECT \"user\" FROM u WHERE billing_issue ORDER BY \"user\" LIMIT 100" users --where billingIssue=true --limit 100 --at "$AT"
row "users --where churnedSince=04-01" "" users --where churnedSince=2026-04-01T00:00:00Z --at "$AT"
row "users --where autoRenew=false (reads every user's span)" "SELECT \"user\" FROM u WHERE NOT auto_renew ORDER BY \"user\"" users --where autoRenew=false --at "$AT"
