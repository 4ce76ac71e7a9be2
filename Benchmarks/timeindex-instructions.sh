#!/usr/bin/env bash
# Instructions executed by the time index's build from the event cache (`counts --at` on a log
# without an index), counted by valgrind's cachegrind for each replay-tool binary given: the same
# seeded log gives the same count whatever else runs on the machine. Checks that every binary
# writes the index file with the same bytes as the first. Prints a markdown table.
#
#   Benchmarks/timeindex-instructions.sh [-u USERS] REPLAY_TOOL...
#
# Build each binary with `swift build -c release --product replay-tool` (at the commits to
# compare); each is copied to $WORK (default /tmp/tiinstr) with its debug info stripped (valgrind
# 3.19 cannot read Swift 6.3's DWARF 5). The log (`generate --users USERS --seed 1`, default
# 50,000 users) is imported by the first binary, once.
set -euo pipefail
users=50000
if [ "${1:-}" = -u ]; then users=$2; shift 2; fi
[ $# -ge 1 ] || { echo "usage: $0 [-u USERS] REPLAY_TOOL..." >&2; exit 2; }
command -v valgrind >/dev/null || { echo "valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }
work=${WORK:-/tmp/tiinstr}
export REPLAY_TOOL_NOW=2026-12-31T00:00:00Z
at=2026-05-01T00:00:00Z
mkdir -p "$work"
given=("$@")
bins=()
for i in "${!given[@]}"; do
    strip --strip-debug -o "$work/rt-$i" "${given[$i]}"
    bins+=("$work/rt-$i")
done
log="$work/log-$users"
if [ ! -d "$log" ]; then
    "${bins[0]}" generate --users "$users" --seed 1 --out "$work/events-$users.jsonl" >/dev/null
    "${bins[0]}" import --log "$log" "$work/events-$users.jsonl" >/dev/null
fi
echo "| binary ($users users, counts --at $at, index built from the event cache) | instructions | index file |"
echo "| --- | --- | --- |"
first=""
for i in "${!bins[@]}"; do
    b=${bins[$i]}
    # Two runs first, not counted: a new binary's first run computes its rules' fingerprint, and
    # the first after the import builds the event cache.
    for _ in 1 2; do rm -f "$log"/projections/*.timeindex; "$b" counts --log "$log" --at "$at" >/dev/null; done
    rm -f "$log"/projections/*.timeindex
    refs=$(valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$b" counts --log "$log" --at "$at" 2>&1 >/dev/null \
        | sed -n 's/.*I *refs: *//p')
    hash=$(cat "$log"/projections/*.timeindex | sha256sum | cut -c1-16)
    [ -n "$first" ] || first=$hash
    same=$([ "$hash" = "$first" ] && echo "same bytes ($hash)" || echo "DIFFERS ($hash, first $first)")
    echo "| ${given[$i]} | $refs | $same |"
done
