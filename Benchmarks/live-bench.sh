#!/bin/sh
# The live-ledger table for one log, each command a whole replay-tool process (release build):
#   Benchmarks/live-bench.sh TOOL LOG [RUNS]
# LOG is a log built by `ledger-bench populate USERS LOG` (users u_0, u_1, ...). Prints one line
# per measurement: what, seconds, peak RSS in MiB, CPU seconds (user + system; the machine is shared). It appends a few events to LOG (ids bench-*).
# Bulk import: Benchmarks/live-bench.sh TOOL --bulk FILE (imports FILE into a new log under /tmp).
set -eu
T=${1:?usage: live-bench.sh TOOL LOG [RUNS]}
L=${2:?usage: live-bench.sh TOOL LOG [RUNS]}
RUNS=${3:-3}
measure() {   # measure WHAT CMD...: one line "WHAT  seconds  MiB"
  what=$1; shift
  /usr/bin/time -o "${TMPDIR:-/tmp}/live-bench-time.$$" -f "%e %M %U %S" "$@" >/dev/null 2>&1 || echo "  (exit $?)"
  echo "$what  $(awk '{printf "%.3f s  %d MiB  (cpu %.2f s)", $1, $2/1024, $3 + $4}' "${TMPDIR:-/tmp}/live-bench-time.$$")"
}
event() {     # one new paywall view for an existing user, with a unique id
  echo "{\"id\":\"bench-$1-$(date +%s%N)\",\"type\":\"paywall_viewed\",\"user\":\"u_$2\",\"time\":\"2026-05-01T10:00:00Z\",\"data\":{\"context\":\"settings\"}}"
}
if [ "$L" = "--bulk" ]; then
  F=${3:?live-bench.sh TOOL --bulk FILE}
  D=/tmp/live-bench-bulk.$$
  rm -rf "$D"
  n=$(wc -l < "$F")
  start=$(date +%s.%N)
  measure "bulk import of $n lines into a new log" "$T" import --log "$D" "$F"
  end=$(date +%s.%N)
  echo "  = $(echo "$n $start $end" | awk '{printf "%.0f events/s", $1 / ($3 - $2)}')"
  rm -rf "$D"
  exit 0
fi
tmp=/tmp/live-bench.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
echo "log $L: $(ls "$L"/segments | grep -c seg) segments, $(du -sh "$L"/segments | cut -f1)"
rm -rf "$L/indexes"
measure "first open without index files (state u_0: index every segment, save the files)" "$T" state --log "$L" --user u_0
du -sh "$L/indexes" | sed 's/^/index files: /'
for r in $(seq "$RUNS"); do
  event one "$((r * 7))" > "$tmp/one.jsonl"
  measure "import one new event" "$T" import --log "$L" "$tmp/one.jsonl"
done
for r in $(seq "$RUNS"); do
  measure "state --user u_$((r * 1009))" "$T" state --log "$L" --user "u_$((r * 1009))"
  measure "history --user u_$((r * 1009))" "$T" history --log "$L" --user "u_$((r * 1009))"
done
measure "counts, first (builds the kept projection)" "$T" counts --log "$L"
for c in counts funnel revenue notifications; do
  for r in $(seq "$RUNS"); do measure "$c, nothing new" "$T" "$c" --log "$L"; done
done
for k in 1 1000; do
  : > "$tmp/k.jsonl"
  i=0; while [ $i -lt $k ]; do event "k$k" "$((i * 13))" >> "$tmp/k.jsonl"; i=$((i + 1)); done
  "$T" import --log "$L" "$tmp/k.jsonl" > /dev/null
  measure "counts after $k new events" "$T" counts --log "$L"
done
measure "counts --at 2026-03-01T00:00:00Z (a past instant)" "$T" counts --log "$L" --at 2026-03-01T00:00:00Z
