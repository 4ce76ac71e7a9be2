/// The Python checks of the table export tests: each prints a JSON list of mismatches.
enum TableExportScripts {
    /// argv: folder, instant. The folder holds events/subscriptions/users as .parquet and .csv,
    /// export.jsonl (plain export), states.json (user → state --format json), verify.json, revenue.json.
    static let sample = #"""
import json, sys, datetime, decimal, os
import duckdb, pyarrow.parquet as pq
d, at = sys.argv[1], sys.argv[2]
bad = []
EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
def us(v):
    if v is None: return None
    if isinstance(v, str): v = datetime.datetime.fromisoformat(v.replace('Z', '+00:00'))
    return (v - EPOCH) // datetime.timedelta(microseconds=1)
def dec(v): return None if v is None else decimal.Decimal(v)
def load(name): return json.load(open(os.path.join(d, name)))
lines = [json.loads(l) for l in open(os.path.join(d, 'export.jsonl'))]
head = load('verify.json')
types = {
 'events': ['int64', 'string', 'string', 'string', 'timestamp[us, tz=UTC]', 'timestamp[us, tz=UTC]', 'int64', 'string', 'string', 'decimal128(18, 6)', 'string', 'string'],
 'subscriptions': ['string', 'string', 'string', 'string', 'string', 'timestamp[us, tz=UTC]', 'timestamp[us, tz=UTC]', 'timestamp[us, tz=UTC]', 'bool', 'string', 'decimal128(18, 6)', 'string', 'timestamp[us, tz=UTC]', 'bool', 'bool', 'int64', 'bool'],
 'users': ['string', 'string', 'string', 'timestamp[us, tz=UTC]', 'string', 'string', 'timestamp[us, tz=UTC]', 'bool', 'timestamp[us, tz=UTC]', 'bool', 'int64', 'bool', 'int64', 'string', 'string', 'string', 'string', 'timestamp[us, tz=UTC]'],
}
tables = {}
for t in types:
    p = os.path.join(d, t + '.parquet')
    f = pq.ParquetFile(p)
    md = f.metadata.metadata or {}
    if md.get(b'ledger.head.position') != str(head['headPosition']).encode(): bad.append(f'{t}: head position {md.get(b"ledger.head.position")} != {head["headPosition"]}')
    if md.get(b'ledger.head.hash') != head['headHash'].encode(): bad.append(f'{t}: head hash differs')
    got = [str(x.type) for x in f.schema_arrow]
    if got != types[t]: bad.append(f'{t}: pyarrow types {got}')
    tables[t] = f.read().to_pylist()
    # DuckDB reads the same rows as pyarrow, and the CSV holds the same rows as the Parquet file.
    con = duckdb.connect()
    n = con.execute(f"select count(*) from read_parquet('{p}')").fetchone()[0]
    if n != len(tables[t]): bad.append(f'{t}: duckdb count {n} != pyarrow {len(tables[t])}')
    cols = con.execute(f"describe select * from read_parquet('{p}')").fetchall()
    spec = '{' + ', '.join(f"'{c[0]}': '{c[1]}'" for c in cols) + '}'
    c = os.path.join(d, t + '.csv')
    q = f"read_csv('{c}', header=true, columns={spec}, allow_quoted_nulls=false, auto_detect=false, delim=',', quote='\"', escape='\"')"
    for a, b in [(f"read_parquet('{p}')", q), (q, f"read_parquet('{p}')")]:
        diff = con.execute(f"select count(*) from (select * from {a} except all select * from {b})").fetchone()[0]
        if diff: bad.append(f'{t}: {diff} rows of {a[:12]} not in the other file')
# events = export's lines, field by field
ev = tables['events']
if len(ev) != len(lines): bad.append(f'events: {len(ev)} rows, export has {len(lines)} lines')
for r, l in zip(ev, lines):
    data = l.get('data', {})
    want = {'position': l['position'], 'id': l['id'], 'type': l['type'], 'user': l['user'], 'time': us(l['time']), 'recorded': us(l['recorded']),
            'version': l['version'], 'product': data.get('product'), 'transaction': data.get('transaction'), 'price': dec(data.get('price')),
            'currency': data.get('currency'), 'data': data}
    have = dict(r); have['time'] = us(r['time']); have['recorded'] = us(r['recorded']); have['data'] = json.loads(r['data'])
    for k in want:
        if want[k] != have[k]: bad.append(f'events position {l["position"]}: {k} {have[k]!r} != {want[k]!r}')
# users = state --format json as of the instant
states = load('states.json')
at_us = us(at)
expected = {l['user'] for l in lines if us(l['time']) <= at_us}
have_users = [r['user'] for r in tables['users']]
if len(set(have_users)) != len(have_users): bad.append('users: a user twice')
if not expected <= set(have_users): bad.append(f'users: missing {sorted(expected - set(have_users))}')
for r in tables['users']:
    s = states[r['user']]
    want = {'plan_state': s['planState'], 'grace_reason': s['graceReason'], 'grace_ends_at': us(s['graceEndsAt']), 'entitlements': s['entitlements'],
            'product': s['product'], 'expires_at': us(s['expiresAt']), 'auto_renew': s['autoRenew'], 'auto_renew_off_at': us(s['autoRenewOffAt']),
            'trial_eligible': s['trialEligible'], 'credits': s['credits'], 'billing_issue': s['billingIssue'], 'badge': s['badge'], 'tier': s['tier'],
            'limits': s['limits'], 'rule': s['rule']['id'], 'rule_summary': s['rule']['summary'], 'as_of': us(s['asOf'])}
    have = dict(r)
    for k in ['grace_ends_at', 'expires_at', 'auto_renew_off_at', 'as_of']: have[k] = us(r[k])
    have['entitlements'] = json.loads(r['entitlements']); have['limits'] = json.loads(r['limits'])
    for k in want:
        if want[k] != have[k]: bad.append(f'users {r["user"]}: {k} {have[k]!r} != {want[k]!r}')
# SQL over subscriptions (and the events' credit packs) = revenue --format json
rev = load('revenue.json')
con = duckdb.connect()
S = f"read_parquet('{os.path.join(d, 'subscriptions.parquet')}')"
E = f"read_parquet('{os.path.join(d, 'events.parquet')}')"
gross = dict(con.execute(f"""
  select currency, sum(price) from (
    select currency, price from {S} where not sandbox and price is not null
    union all
    select currency, price from {E} where type = 'consumable_purchase' and price > 0
      and coalesce(json_extract_string(data, '$.environment'), 'production') <> 'sandbox')
  group by currency""").fetchall())
refunded = dict(con.execute(f"select currency, sum(price) from {S} where not sandbox and refunded_at is not null and price is not null group by currency").fetchall())
for line in rev['currencies']:
    cur = line['currency']
    if dec(line['gross']) != gross.get(cur, decimal.Decimal(0)): bad.append(f'gross {cur}: sql {gross.get(cur)} != {line["gross"]}')
    if dec(line['refunded']) != refunded.get(cur, decimal.Decimal(0)): bad.append(f'refunded {cur}: sql {refunded.get(cur)} != {line["refunded"]}')
for cur in set(gross) | set(refunded):
    if cur not in [x['currency'] for x in rev['currencies']]: bad.append(f'sql has currency {cur} that revenue has not')
active = con.execute(f"""select count(distinct "user") from {S} where effective_end is null and not sandbox and not family_shared
  and not temporary_grant and not (is_trial and expires > TIMESTAMPTZ '{at}')""").fetchone()[0]
if active != rev['activeSubscriptions']: bad.append(f'active subscriptions: sql {active} != {rev["activeSubscriptions"]}')
trials = con.execute(f"""select count(distinct "user") from {S} where effective_end is null and not sandbox and is_trial
  and expires > TIMESTAMPTZ '{at}'""").fetchone()[0]
if trials != rev['activeTrials']: bad.append(f'active trials: sql {trials} != {rev["activeTrials"]}')
print(json.dumps(bad))
"""#

    /// argv: file. Prints the `user` column of a Parquet file as a JSON list.
    static let users = #"""
import json, sys, pyarrow.parquet as pq
print(json.dumps(pq.read_table(sys.argv[1]).column('user').to_pylist()))
"""#

    /// argv: single-log file, partition folder glob, table. The union of the partitions' files
    /// holds the single log's rows (events without the log-local position, version, recorded).
    static let union = #"""
import json, sys, duckdb
single, parts, table = sys.argv[1], sys.argv[2], sys.argv[3]
cols = '* exclude (position, version, recorded)' if table == 'events' else '*'
con = duckdb.connect()
bad = []
a = f"select {cols} from read_parquet('{single}')"
b = f"select {cols} from read_parquet('{parts}')"
n = con.execute(f"select count(*) from ({a})").fetchone()[0]
if n == 0: bad.append('the single log table is empty')
for x, y, name in [(a, b, 'single'), (b, a, 'partitions')]:
    diff = con.execute(f"select count(*) from ({x} except all {y})").fetchone()[0]
    if diff: bad.append(f'{table}: {diff} rows of the {name} file(s) are not in the other side')
print(json.dumps(bad))
"""#

    /// argv: Parquet file, CSV file. Prints every row through pyarrow as JSON (values as text),
    /// DuckDB's count, and how many rows differ between the Parquet and the CSV file.
    static let rows = #"""
import json, sys, duckdb, pyarrow.parquet as pq
p, c = sys.argv[1], sys.argv[2]
t = pq.read_table(p)
rows = [{k: (None if v is None else str(v)) for k, v in r.items()} for r in t.to_pylist()]
con = duckdb.connect()
n = con.execute(f"select count(*) from read_parquet('{p}')").fetchone()[0]
cols = con.execute(f"describe select * from read_parquet('{p}')").fetchall()
spec = '{' + ', '.join(f"'{x[0]}': '{x[1]}'" for x in cols) + '}'
q = f"read_csv('{c}', header=true, columns={spec}, allow_quoted_nulls=false, auto_detect=false, delim=',', quote='\"', escape='\"')"
diff = sum(con.execute(f"select count(*) from (select * from {a} except all select * from {b})").fetchone()[0]
           for a, b in [(f"read_parquet('{p}')", q), (q, f"read_parquet('{p}')")])
print(json.dumps({"pyarrow": rows, "duckdb_count": n, "csv_diff": diff}, ensure_ascii=False))
"""#
}
