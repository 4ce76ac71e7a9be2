#!/bin/sh
# Reports at past instants, windows and series: the fold (REPLAY_TOOL_TIME_INDEX=off) against
# the time index, each a whole replay-tool process (a release build linked statically, `swift build
# -c release --static-swift-stdlib`, as docs/BENCHMARKS.md's figures), and DuckDB over the
# same events in a table (2 threads) when `python3 -c 'import duckdb'` works:
#   Benchmarks/timeindex-bench.sh TOOL USERS [SEED]
# Generates USERS users (`replay-tool generate`), imports them into a new log under /tmp (timed;
# and once more without the event cache the import writes, with the first build after each),
# builds the index once and once more under changed rules (timed: from the event cache, and
# derived from the kept index; DuckDB's load of the same JSON Lines and answer beside them), then prints one table row per question: seconds and peak
# RSS of each; then brings the index up after batches of k new records (k = 1, 100, 10,000).
set -eu
T=${1:?usage: timeindex-bench.sh TOOL USERS [SEED]}
U=${2:?usage: timeindex-bench.sh TOOL USERS [SEED]}
SEED=${3:-1}
D=/tmp/timeindex-bench.$$
mkdir -p "$D"
trap 'rm -rf "$D"' EXIT
"$T" generate --users "$U" --seed "$SEED" --out "$D/events.jsonl" >/dev/null
n=$(wc -l < "$D/events.jsonl")
timed() {   # timed CMD...: "seconds MiB"
  /usr/bin/time -o "$D/time" -f "%e %M" "$@" >/dev/null 2>&1 || echo "(exit $?)" >&2
  awk '{printf "%.3f s, %d MiB", $1, $2/1024}' "$D/time"
}
export REPLAY_TOOL_NOW=2026-12-31T00:00:00Z
duck=no
if python3 -c 'import duckdb' 2>/dev/null; then duck=yes; fi
echo "$U users, $n lines"
echo "import (into an empty log: it writes the event cache as it goes): $(timed "$T" import --log "$D/log" "$D/events.jsonl")"
echo "first build of the index (counts --at; the event cache is there): $(timed "$T" counts --log "$D/log" --at 2026-05-01T00:00:00Z)"
# The same without the import's event cache: the first build reads, checks and decodes the log to build it.
echo "import without the event cache (REPLAY_TOOL_IMPORT_EVENT_CACHE=off): $(timed env REPLAY_TOOL_IMPORT_EVENT_CACHE=off "$T" import --log "$D/log2" "$D/events.jsonl")"
echo "first build of the index after it (builds the event cache first): $(timed "$T" counts --log "$D/log2" --at 2026-05-01T00:00:00Z)"
rm -rf "$D/log2"
# Developers change a rule and ask again: the index under other rules (event cache present).
"$T" profiles show handz | sed 's/"billingGraceDays" : 3/"billingGraceDays" : 7/' > "$D/grace7.json"
mkdir "$D/kept" && mv "$D"/log/projections/*.timeindex "$D/kept/"
echo "the index under changed rules (billing grace 7 days; event cache present): $(timed "$T" counts --log "$D/log" --profile "$D/grace7.json" --at 2026-05-01T00:00:00Z)"
rm -f "$D"/log/projections/*.timeindex && mv "$D"/kept/*.timeindex "$D/log/projections/"
# The same change with the index under the shipped rules kept: derived from it by walking only the
# users the change reaches (those with a billing issue); then asked as of now (no summary kept).
kept=$(echo "$D"/log/projections/*.timeindex)
dropnew() { for f in "$D"/log/projections/*.timeindex; do case " $kept " in *" $f "*) ;; *) rm -f "$f" "$f-overlay" ;; esac; done; }
echo "the index under changed rules derived from the kept one: $(timed "$T" counts --log "$D/log" --profile "$D/grace7.json" --at 2026-05-01T00:00:00Z)"
dropnew
echo "counts as of now under changed rules (the index derived, no summary kept): $(timed "$T" counts --log "$D/log" --profile "$D/grace7.json")"
dropnew
if [ "$duck" = yes ]; then
  echo "DuckDB (2 threads) reading the same JSON Lines into a table and answering the funnel at an instant: $(python3 - "$D/events.jsonl" <<'PY'
import sys, time, duckdb
s = time.time()
c = duckdb.connect(); c.execute("SET threads=2")
c.execute(f"CREATE TABLE e AS SELECT type, \"user\", CAST(time AS TIMESTAMPTZ) AS t FROM read_json_auto('{sys.argv[1]}')")
c.execute("SELECT type, count(DISTINCT \"user\") FROM e WHERE t <= TIMESTAMPTZ '2026-05-01 00:00:00+00' AND (type LIKE 'paywall%' OR type = 'purchase_started' OR type = 'purchase_success') GROUP BY type").fetchall()
print(f"{time.time() - s:.3f} s")
PY
)"
fi
echo
echo "| question | fold | index | DuckDB (2 threads) |"
echo "| --- | --- | --- | --- |"
row() {   # row LABEL SQL ARGS...
  label=$1; sql=$2; shift 2
  fold=$(REPLAY_TOOL_TIME_INDEX=off timed "$T" "$@" --log "$D/log" --format json)
  index=$(timed "$T" "$@" --log "$D/log" --format json)
  d="-"
  if [ "$duck" = yes ] && [ -n "$sql" ]; then
    d=$(python3 - "$D/events.jsonl" "$sql" <<'PY'
import sys, time, duckdb
c = duckdb.connect(); c.execute("SET threads=2")
c.execute(f"CREATE TABLE e AS SELECT type, \"user\", CAST(time AS TIMESTAMPTZ) AS t FROM read_json_auto('{sys.argv[1]}')")
s = time.time(); c.execute(sys.argv[2]).fetchall(); print(f"{time.time() - s:.3f} s (query only)")
PY
)
  fi
  echo "| $label | $fold | $index | $d |"
}
row "counts --at 2026-05-01" "SELECT type, count(*) FROM e WHERE t <= TIMESTAMPTZ '2026-05-01 00:00:00+00' GROUP BY type" counts --at 2026-05-01T00:00:00Z
row "counts --from 2026-04-01 --to 2026-05-01" "SELECT type, count(*) FROM e WHERE t >= TIMESTAMPTZ '2026-04-01 00:00:00+00' AND t < TIMESTAMPTZ '2026-05-01 00:00:00+00' GROUP BY type" counts --from 2026-04-01T00:00:00Z --to 2026-05-01T00:00:00Z
row "counts --by month" "SELECT date_trunc('month', t), type, count(*) FROM e GROUP BY ALL" counts --by month
row "funnel --at 2026-05-01" "SELECT type, count(DISTINCT \"user\") FROM e WHERE t <= TIMESTAMPTZ '2026-05-01 00:00:00+00' AND (type LIKE 'paywall%' OR type = 'purchase_started' OR type = 'purchase_success') GROUP BY type" funnel --at 2026-05-01T00:00:00Z
row "revenue --at 2026-05-01" "" revenue --at 2026-05-01T00:00:00Z
row "funnel --from 2026-04-01 --to 2026-05-01" "SELECT type, count(DISTINCT \"user\") FROM e WHERE t >= TIMESTAMPTZ '2026-04-01 00:00:00+00' AND t < TIMESTAMPTZ '2026-05-01 00:00:00+00' AND (type LIKE 'paywall%' OR type = 'purchase_started' OR type = 'purchase_success') GROUP BY type" funnel --from 2026-04-01T00:00:00Z --to 2026-05-01T00:00:00Z
row "funnel --by week" "SELECT date_trunc('week', t), type, count(DISTINCT \"user\") FROM e WHERE type LIKE 'paywall%' OR type = 'purchase_started' OR type = 'purchase_success' GROUP BY ALL" funnel --by week
row "revenue --from 2026-04-01 --to 2026-05-01" "" revenue --from 2026-04-01T00:00:00Z --to 2026-05-01T00:00:00Z
row "revenue --by month" "" revenue --by month
row "funnel --by week --from 2026-03-02 --to 2026-05-01" "" funnel --by week --from 2026-03-02T00:00:00Z --to 2026-05-01T00:00:00Z
# The report page (HTML: no JSON to compare), as of an instant and for a window.
for q in "--at 2026-05-01T00:00:00Z" "--from 2026-04-01T00:00:00Z --to 2026-05-01T00:00:00Z"; do
  # shellcheck disable=SC2086
  rfold=$(REPLAY_TOOL_TIME_INDEX=off timed "$T" report --log "$D/log" $q --out "$D/report.html")
  # shellcheck disable=SC2086
  rindex=$(timed "$T" report --log "$D/log" $q --out "$D/report.html")
  echo "| report $q | $rfold | $rindex | - |"
done
# Two rule sets (billing grace 3 and 7 days), folded at the same time from the event cache.
diff1=$(timed "$T" diff --log "$D/log" --profile handz --profile "$D/grace7.json" --at 2026-05-01T00:00:00Z --format json)
diff2=$(timed "$T" diff --log "$D/log" --profile handz --profile "$D/grace7.json" --at 2026-05-01T00:00:00Z --format json)
echo "| diff (grace 3 vs 7 days) --at 2026-05-01: first, then again | $diff1 | $diff2 | - |"
# The notification list at a past instant: folded, against the report summary as of now (the
# first question builds the summary from the kept projection; the second reads it).
nfold=$(REPLAY_TOOL_REPORT_SUMMARY=off timed "$T" notifications --log "$D/log" --at 2026-05-01T00:00:00Z --format json)
nfirst=$(timed "$T" notifications --log "$D/log" --at 2026-05-01T00:00:00Z --format json)
nread=$(timed "$T" notifications --log "$D/log" --at 2026-05-01T00:00:00Z --format json)
echo "| notifications --at 2026-05-01 (every entry; index column: the report summary, built then read) | $nfold | $nfirst; $nread | - |"

# The four questions the target compares, timed closer: `time.perf_counter()` around each whole
# process (`/usr/bin/time` cuts to hundredths), nine runs each, against DuckDB's query alone timed
# the same way in its own process over the loaded table: minimum and median, and the medians' ratio.
if [ "$duck" = yes ]; then
  echo
  echo "| question (nine runs: min, median) | ours | DuckDB's query | ours / DuckDB |"
  echo "| --- | --- | --- | --- |"
  python3 - "$T" "$D/log" "$D/events.jsonl" <<'PY'
import statistics, subprocess, sys, time, duckdb
tool, log, events = sys.argv[1:4]
c = duckdb.connect(); c.execute("SET threads=2")
c.execute(f"CREATE TABLE e AS SELECT type, \"user\", CAST(time AS TIMESTAMPTZ) AS t FROM read_json_auto('{events}')")
def runs(f):
    f()
    out = []
    for _ in range(9):
        s = time.perf_counter(); f(); out.append(1000 * (time.perf_counter() - s))
    return min(out), statistics.median(out)
funnel = "(type LIKE 'paywall%' OR type = 'purchase_started' OR type = 'purchase_success')"
for label, args, sql in [
    ("counts --at 2026-05-01", ["counts", "--at", "2026-05-01T00:00:00Z"],
     "SELECT type, count(*) FROM e WHERE t <= TIMESTAMPTZ '2026-05-01 00:00:00+00' GROUP BY type"),
    ("counts --from 2026-04-01 --to 2026-05-01", ["counts", "--from", "2026-04-01T00:00:00Z", "--to", "2026-05-01T00:00:00Z"],
     "SELECT type, count(*) FROM e WHERE t >= TIMESTAMPTZ '2026-04-01 00:00:00+00' AND t < TIMESTAMPTZ '2026-05-01 00:00:00+00' GROUP BY type"),
    ("funnel --at 2026-05-01", ["funnel", "--at", "2026-05-01T00:00:00Z"],
     f"SELECT type, count(DISTINCT \"user\") FROM e WHERE t <= TIMESTAMPTZ '2026-05-01 00:00:00+00' AND {funnel} GROUP BY type"),
    ("counts --by month", ["counts", "--by", "month"], "SELECT date_trunc('month', t), type, count(*) FROM e GROUP BY ALL"),
]:
    ours = runs(lambda: subprocess.run([tool] + args + ["--log", log, "--format", "json"], stdout=subprocess.DEVNULL, check=True))
    duck = runs(lambda: c.execute(sql).fetchall())
    print(f"| {label} | {ours[0]:.1f}, {ours[1]:.1f} ms | {duck[0]:.1f}, {duck[1]:.1f} ms | {ours[1] / duck[1]:.2f} |")
PY
  echo
fi
# After k new records: the index brought up by walking the users they touch (the overlay, or a
# merge into the base when the overlay passes an eighth of it), against a build from scratch.
# Each batch: k paywall views of k distinct existing users at distinct instants (one in ten
# dated in the past: late), imported, then `counts --at` timed (the update and the answer).
echo
echo "| after k new records (import, then counts --at 2026-05-01) | update + answer | overlay file | base file |"
echo "| --- | --- | --- | --- |"
size() { if [ -f "$1" ]; then awk -v b="$(wc -c < "$1")" 'BEGIN { printf "%.1f MiB", b / 1048576 }'; else echo "-"; fi; }
for k in 1 100 10000; do
  awk -v k="$k" -v u="$U" -v r="$k" 'BEGIN { for (i = 0; i < k; i++) {
    day = (i % 10 == 0) ? "2026-03-15" : "2026-06-20"
    printf "{\"id\":\"bench_%s_%d\",\"type\":\"paywall_viewed\",\"user\":\"u_%d\",\"time\":\"%sT%02d:%02d:%02dZ\",\"data\":{\"context\":\"settings\"}}\n", r, i, (i * 7919) % u, day, i % 24, int(i / 24) % 60, int(i / 1440) % 60 } }' > "$D/new.jsonl"
  "$T" import --log "$D/log" "$D/new.jsonl" >/dev/null
  base=$(ls "$D"/log/projections/*.timeindex | head -1)
  t=$(timed "$T" counts --log "$D/log" --at 2026-05-01T00:00:00Z --format json)
  echo "| k = $k | $t | $(size "$base-overlay") | $(size "$base") |"
done
rm -f "$D"/log/projections/*.timeindex "$D"/log/projections/*.timeindex-overlay
echo "| the same log, built from scratch (the event cache built again too: the appends made it stale) | $(timed "$T" counts --log "$D/log" --at 2026-05-01T00:00:00Z --format json) | | |"
