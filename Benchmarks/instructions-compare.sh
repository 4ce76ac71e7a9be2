#!/usr/bin/env bash
# Instructions executed by the fold, the rebuild and the import at two commits, counted by
# valgrind's cachegrind: the same seeded work gives the same count whatever else runs on the
# machine, so a change of code is measured on a busy machine too. Prints a markdown table.
#
#   Benchmarks/instructions-compare.sh OLD_COMMIT NEW_COMMIT [USERS]
#
# Each commit's ledger-bench is built in release in a worktree under $WORK (default /tmp/icmp),
# with its debug info stripped (valgrind 3.19 cannot read Swift 6.3's DWARF 5); a binary already
# there ($WORK/lb-COMMIT) is used as it is.
set -euo pipefail
old=${1:?old commit}; new=${2:?new commit}; users=${3:-20000}
work=${WORK:-/tmp/icmp}
command -v valgrind >/dev/null || { echo "valgrind is not installed (apt-get install valgrind)"; exit 2; }
root=$(git rev-parse --show-toplevel)
mkdir -p "$work"
for c in "$old" "$new"; do
    [ -x "$work/lb-$c" ] && continue   # built by an earlier run
    dir="$work/src-$c"
    [ -d "$dir" ] || git -C "$root" worktree add -f --detach "$dir" "$c" >/dev/null
    (cd "$dir" && swift build -c release --product ledger-bench >/dev/null)
    cp "$dir/.build/release/ledger-bench" "$work/lb-$c"
    strip --strip-debug "$work/lb-$c"
done
refs() { valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$@" 2>&1 >/dev/null | sed -n 's/.*I *refs: *//p' | tr -d ,; }
rm -rf "$work/log"
"$work/lb-$old" populate "$users" "$work/log" >/dev/null
"$work/lb-$old" rebuild "$work/log" 1 cache >/dev/null   # builds the event cache both then read
echo "| work ($users users) | $old | $new | change |"
echo "| --- | --- | --- | --- |"
row() {
    local name=$1; shift
    local a b
    if [ "$1" = populate ]; then
        rm -rf "$work/imp"; a=$(refs "$work/lb-$old" populate "$2" "$work/imp")
        rm -rf "$work/imp"; b=$(refs "$work/lb-$new" populate "$2" "$work/imp")
    else
        a=$(refs "$work/lb-$old" "$@"); b=$(refs "$work/lb-$new" "$@")
    fi
    echo "| $name | $a | $b | $(awk -v a="$a" -v b="$b" 'BEGIN { printf "%+.1f %%", (b - a) * 100 / a }') |"
}
row "decode, decode + fold, fold of a generated population (\`fold $users\`)" fold "$users"
row "rebuild from the event cache (\`rebuild LOG 1 cache\`)" rebuild "$work/log" 1 cache
row "rebuild from the log's JSON (\`rebuild LOG 1 log\`)" rebuild "$work/log" 1 log
row "import of $((users / 4)) users' events, fsync per batch (\`populate $((users / 4))\`)" populate $((users / 4))
