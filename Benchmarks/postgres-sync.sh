#!/usr/bin/env bash
# Times `replay-tool sync` (docs/postgres.md) on a generated population: a first sync of every user,
# then an incremental sync after 1,000 new events. Release build, a throwaway PostgreSQL server
# (initdb + pg_ctl on a temporary folder, Unix socket, default durability settings: fsync on).
#
#   swift build -c release --product replay-tool
#   Benchmarks/postgres-sync.sh [USERS] [WORKDIR]      # defaults: 1000000 /tmp/pg-sync-bench
#
# Users get UUID ids (the tables' user_id is uuid): u_N becomes 00000000-0000-4000-8000-<N, 12 digits>.
set -euo pipefail
cd "$(dirname "$0")/.."
users=${1:-1000000}
work=${2:-/tmp/pg-sync-bench}
bin=$PWD/.build/release/replay-tool
rm -rf "$work" && mkdir -p "$work"
bindir=$(dirname "$(readlink -f "$(command -v initdb)")")
as_pg=(); [ "$(id -u)" = 0 ] && { chown postgres "$work"; as_pg=(runuser -u postgres --); }
"${as_pg[@]}" "$bindir/initdb" -D "$work/data" -U postgres --auth=trust -E UTF8 --no-locale >/dev/null
"${as_pg[@]}" "$bindir/pg_ctl" -D "$work/data" -l "$work/server.log" -w -o "-k $work -c listen_addresses=''" start >/dev/null
trap '"${as_pg[@]}" "$bindir/pg_ctl" -D "$work/data" -m fast -w stop >/dev/null' EXIT
psql -X -q "host=$work user=postgres dbname=postgres" -c "CREATE DATABASE bench"
db="host=$work user=postgres dbname=bench"

"$bin" generate --users "$users" --seed 1 --profile mirrormate \
  | perl -pe 's/"(user|to)":"u_(\d+)"/sprintf("\"%s\":\"00000000-0000-4000-8000-%012d\"",$1,$2)/ge' > "$work/all.jsonl"
/usr/bin/time -f "import: %e s" "$bin" import --log "$work/ledger" --profile mirrormate "$work/all.jsonl"
# The projection the sync reads is built once, as any query would (timed apart from the sync).
/usr/bin/time -f "projection (first query): %e s, %M KB" "$bin" counts --log "$work/ledger" --profile mirrormate --at 2026-09-15T00:00:00Z >/dev/null

at1=2026-09-15T00:00:00Z   # after every generated event (the last is on 2026-09-11): "now"
/usr/bin/time -f "first sync: %e s, %M KB" "$bin" sync --log "$work/ledger" --profile mirrormate --postgres "$db" --init --at "$at1" --format json

# 1,000 new events for existing users, 10 minutes later: 500 cancellations and 500 paywall views.
perl -e 'srand(7); for $i (1..1000) { $u = int(rand('"$users"')); $t = $i <= 500 ? "cancellation" : "paywall_viewed";
  $d = $t eq "cancellation" ? "{}" : "{\"context\":\"settings\"}";
  printf("{\"id\":\"bench-%d\",\"type\":\"%s\",\"user\":\"00000000-0000-4000-8000-%012d\",\"time\":\"2026-09-15T00:05:00Z\",\"data\":%s}\n", $i, $t, $u, $d) }' > "$work/new.jsonl"
"$bin" import --log "$work/ledger" --profile mirrormate "$work/new.jsonl"
at2=2026-09-15T00:10:00Z
/usr/bin/time -f "incremental sync: %e s, %M KB" "$bin" sync --log "$work/ledger" --profile mirrormate --postgres "$db" --at "$at2" --format json
/usr/bin/time -f "sync, nothing new: %e s" "$bin" sync --log "$work/ledger" --profile mirrormate --postgres "$db" --at "$at2" --format json
psql -X -q -A -t "$db" -c "SELECT count(*) || ' rows' FROM subscriptions"
# Two more rounds of 1,000 new events, for the spread.
for r in 2 3; do
  perl -e 'srand('$r'); for $i (1..1000) { $u = int(rand('"$users"')); printf("{\"id\":\"bench%d-%d\",\"type\":\"cancellation\",\"user\":\"00000000-0000-4000-8000-%012d\",\"time\":\"2026-09-15T00:%02d:00Z\",\"data\":{}}\n", '$r', $i, $u, 10*'$r'+5) }' > "$work/new$r.jsonl"
  "$bin" import --log "$work/ledger" --profile mirrormate "$work/new$r.jsonl"
  /usr/bin/time -f "incremental sync: %e s, %M KB" "$bin" sync --log "$work/ledger" --profile mirrormate --postgres "$db" --at "2026-09-15T00:$((10*r+10)):00Z" --format json
done
