#!/usr/bin/env bash
# Auditors' proofs at scale: the first build of DIR/proofs (hashes file + user index), a
# checkpoint, a checkpoint after one append, prove --user, prove --consistency, check-proof,
# a checkpoint after 1000 appends, each a whole replay-tool process (wall time and peak RSS by
# /usr/bin/time); prove and check-proof three times each.
#
# usage: Benchmarks/proofs-bench.sh USERS LOG [EXTRA]
#   builds the release binaries, makes LOG with `ledger-bench populate USERS LOG EXTRA` if it is
#   missing (2000000 users: about 10 M events), then measures. LOG/proofs is removed first.
set -euo pipefail
cd "$(dirname "$0")/.."
users=${1:?USERS}; log=${2:?LOG}; extra=${3:-}
# replay-tool linked with the Swift runtime and Foundation statically (its own scratch folder, so
# the ordinary release build is left as it is): process start falls from about 7 ms of CPU to 3 ms
# (no dynamic loading of 15 Swift libraries), which is most of a proof's cost. DYNAMIC=1 measures the
# ordinary build instead; STATIC_SCRATCH=DIR puts the static build elsewhere.
if [ -n "${DYNAMIC:-}" ]; then
  swift build -c release --product replay-tool >/dev/null
  T=.build/release/replay-tool
else
  scratch=${STATIC_SCRATCH:-.build/static}
  swift build -c release --product replay-tool --static-swift-stdlib --scratch-path "$scratch" >/dev/null
  T=$scratch/release/replay-tool
fi
B=.build/release/ledger-bench
[ -d "$log/segments" ] || { swift build -c release --product ledger-bench >/dev/null; echo "populate $users $log $extra"; /usr/bin/time -f "populate: %e s" $B populate "$users" "$log" $extra; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rm -rf "$log/proofs"
timed() { local what=$1; shift; /usr/bin/time -f "$what: %e s, %M KiB" "$@"; }
# Short commands, run 10 times: mean wall time and mean CPU time (perf's task-clock), since on a
# loaded machine a process waits for a core longer than it runs. Output of the last run kept.
short() {
  local what=$1; shift
  if command -v perf >/dev/null; then
    perf stat -r 10 -x, -e task-clock -o "$work/perf" "$@" >/dev/null
    local cpu wall
    cpu=$(grep task-clock "$work/perf" | cut -d, -f1)
    perf stat -r 10 -o "$work/perf" "$@" >/dev/null
    wall=$(grep 'time elapsed' "$work/perf" | awk '{print $1 * 1000}')
    echo "$what: ${wall} ms wall, ${cpu} ms CPU (mean of 10)"
  else
    timed "$what" "$@" >/dev/null
  fi
}
echo "commit $(git rev-parse --short HEAD), $(nproc) cores, load: $(cut -d' ' -f1-3 /proc/loadavg), $T"
events=$($T verify --log "$log" --format json | sed 's/.*"headPosition":\([0-9]*\).*/\1/')
echo "log: $events events, $(du -sh "$log/segments" | cut -f1)"
$T keygen --name bench.example/ledger --out "$work/key" >/dev/null
timed "first checkpoint (hashes file and user index built from the whole log)" $T checkpoint --log "$log" --key "$work/key" > "$work/cp1"
echo "  hashes file: $(du -h "$log/proofs/hashes" | cut -f1), user index nodes: $(du -h "$log/proofs/user-nodes" | cut -f1) ($(sed -n 4p "$work/cp1"))"
timed "checkpoint again, nothing appended" $T checkpoint --log "$log" --key "$work/key" > "$work/cp1b"
short "checkpoint again, nothing appended" $T checkpoint --log "$log" --key "$work/key"
short "replay-tool --help (process start alone)" $T --help
cmp -s "$work/cp1" "$work/cp1b" || echo "  (a second signature of the same tree)"
echo "{\"id\":\"proofs-bench-1-$$\",\"type\":\"account_created\",\"user\":\"proofs-bench-user\",\"time\":\"2026-01-20T10:00:00Z\",\"data\":{},\"source\":\"server\"}" > "$work/one.jsonl"
timed "import of one event" $T import --log "$log" "$work/one.jsonl" >/dev/null
nodes=$(stat -c %s "$log/proofs/user-nodes")
timed "checkpoint after one append (tree: one leaf; user index: one path)" $T checkpoint --log "$log" --key "$work/key" > "$work/cp2"
echo "  user index nodes grew by $(( $(stat -c %s "$log/proofs/user-nodes") - nodes )) bytes"
# Five more rounds of one append then a checkpoint, the checkpoint's wall and CPU time each.
command -v perf >/dev/null && for i in 1 2 3 4 5; do
  echo "{\"id\":\"proofs-bench-r$i-$$\",\"type\":\"account_created\",\"user\":\"proofs-bench-r$i\",\"time\":\"2026-01-20T10:00:00Z\",\"data\":{},\"source\":\"server\"}" | $T import --log "$log" - >/dev/null
  perf stat -e task-clock -o "$work/perf" $T checkpoint --log "$log" --key "$work/key" >/dev/null
  echo "checkpoint after one append, round $i: $(grep 'time elapsed' "$work/perf" | awk '{print $1 * 1000}') ms wall, $(grep task-clock "$work/perf" | awk '{print $1}') ms CPU"
done
for i in $(seq 1000); do echo "{\"id\":\"proofs-bench-k-$i-$$\",\"type\":\"account_created\",\"user\":\"proofs-bench-k-$i\",\"time\":\"2026-01-20T10:00:00Z\",\"data\":{},\"source\":\"server\"}"; done > "$work/thousand.jsonl"
timed "import of 1000 events (1000 new users)" $T import --log "$log" "$work/thousand.jsonl" >/dev/null
nodes=$(stat -c %s "$log/proofs/user-nodes")
timed "checkpoint after 1000 appends (1000 paths)" $T checkpoint --log "$log" --key "$work/key" > "$work/cp3"
echo "  user index nodes grew by $(( $(stat -c %s "$log/proofs/user-nodes") - nodes )) bytes"
for p in $((events / 4)) $((events / 2)) $((events * 3 / 4)); do
  u=$({ $T export --log "$log" --from-position $p 2>/dev/null || true; } | head -1 | sed 's/.*"user":"\([^"]*\)".*/\1/')
  timed "prove --user $u (first)" $T prove --log "$log" --user "$u" --checkpoint "$work/cp2" --out "$work/p-$u.json"
  short "prove --user $u" $T prove --log "$log" --user "$u" --checkpoint "$work/cp2" --out "$work/p-$u.json"
  echo "  $(grep -o '"index"' "$work/p-$u.json" | wc -l) records, $(wc -c < "$work/p-$u.json") bytes"
  short "check-proof ($u)" $T check-proof --verifier "$work/key.pub" "$work/p-$u.json"
done
timed "prove --user against the older checkpoint (cp1)" $T prove --log "$log" --user "$u" --checkpoint "$work/cp1" --out "$work/old.json"
timed "prove --user (absent)" $T prove --log "$log" --user no-such-user --checkpoint "$work/cp2" --out "$work/absent.json"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
timed "prove --consistency" $T prove --log "$log" --consistency --from "$work/cp1" --checkpoint "$work/cp2" --out "$work/c.json"
timed "check-proof --from --checkpoint" $T check-proof --verifier "$work/key.pub" --from "$work/cp1" --checkpoint "$work/cp2" "$work/c.json" >/dev/null
