#!/bin/sh
# One generated population folded as 1, 2, 4 and 8 partition logs (docs/scaling.md,
# docs/BENCHMARKS.md). Release build; run from the repository root:
#
#   swift build -c release && Benchmarks/partition-bench.sh 2000000 /tmp/partition-bench
#
# USERS users (about 5 events each: 2,000,000 users give about 10 M events), in DIR (needs about
# 6 times the generated file's size free). For each N: `partition --of N` splits the file,
# `import --partition p/N` makes each partition log (timed one by one), then `ledger-bench
# partitions` folds each log alone on one core and merges the reports, and `replay-tool counts`
# answers over all N logs end to end (projections written on the first run, read on the second).
set -eu
USERS=${1:-2000000}
DIR=${2:-/tmp/partition-bench}
BIN=$(swift build -c release --show-bin-path)
T="$BIN/replay-tool"
AT=2026-06-01T00:00:00Z
export REPLAY_TOOL_NOW=$AT
now() { date +%s.%N; }
took() { echo "$(now) $1" | awk '{printf "%.2f", $1 - $2}'; }

rm -rf "$DIR"
mkdir -p "$DIR"
echo "commit $(git rev-parse --short HEAD), $(nproc) cores, load before: $(cut -d' ' -f1-3 /proc/loadavg)"
t=$(now)
"$T" generate --users "$USERS" --out "$DIR/all.jsonl" 2>/dev/null
echo "generate: $(wc -l < "$DIR/all.jsonl") events, $(du -m "$DIR/all.jsonl" | cut -f1) MiB in $(took "$t") s"
for N in 1 2 4 8; do
    mkdir -p "$DIR/n$N"
    if [ "$N" -gt 1 ]; then
        t=$(now)
        "$T" partition --of "$N" --out "$DIR/n$N" "$DIR/all.jsonl" > /dev/null
        echo "N=$N partition --of $N: $(took "$t") s"
    fi
    logs=""
    p=0
    while [ "$p" -lt "$N" ]; do
        if [ "$N" -gt 1 ]; then
            input="$DIR/n$N/partition-$p.jsonl"   # N ≤ 10: one digit, no padding
        else
            input="$DIR/all.jsonl"
        fi
        t=$(now)
        "$T" import --log "$DIR/n$N/p$p" --partition "$p/$N" "$input" > /dev/null 2>&1
        echo "N=$N import partition $p: $(took "$t") s"
        [ "$N" -gt 1 ] && rm -f "$input"
        logs="$logs $DIR/n$N/p$p"
        p=$((p + 1))
    done
    # shellcheck disable=SC2086
    "$BIN/ledger-bench" partitions "$AT" $logs | sed "s/^/N=$N /"
    args=""
    for l in $logs; do args="$args --log $l"; done
    for run in first again; do
        t=$(now)
        # shellcheck disable=SC2086
        "$T" counts $args --format json > /dev/null
        echo "N=$N replay-tool counts over $N log(s), $run: $(took "$t") s"
    done
    echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
done
