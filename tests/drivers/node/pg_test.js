// node-postgres (npm `pg`, locked in package-lock.json) against the server of
// the PG* environment, the way a Node application uses it: a Pool with its
// defaults, pool.query(text, values) (extended protocol, text parameters),
// named prepared statements, binary results on request, a client checkout
// with BEGIN/COMMIT/ROLLBACK and a savepoint, information_schema
// introspection, pool.end(); then a pool whose idle timeout closes its
// connection. With the argument exit-without-close: one query with a
// parameter, then the process exits with the pool open.
// Every check prints one ok/FAIL line; the exit status is 1 when one failed.
// Fixtures: tests/integration/drivers.sh's (run with TZ=UTC).
'use strict';

const { Pool } = require('pg');

let failed = 0;
let prefix = 'node';

function report(name, error) {
  if (error === null) console.log(`ok   ${prefix}/${name}`);
  else { failed++; console.log(`FAIL ${prefix}/${name}: ${error}`); }
}

function show(v) {
  if (Buffer.isBuffer(v)) return `Buffer<${v.toString('hex')}>`;
  if (v instanceof Date) return `Date(${v.toISOString()})`;
  if (v !== null && typeof v === 'object') return `${v.constructor.name}${JSON.stringify(v)}`;
  return `${JSON.stringify(v)} (${typeof v})`;
}

// eq compares by the shown form: the value and its JS type (string vs number, Date, Buffer, ...).
function eq(name, got, want) {
  const g = Array.isArray(got) ? got.map(show).join(', ') : show(got);
  const w = Array.isArray(want) ? want.map(show).join(', ') : show(want);
  report(name, g === w ? null : `got ${g}, want ${w}`);
}

async function part(name, fn) {
  prefix = `node/${name}`;
  try {
    await fn();
  } catch (e) {
    prefix = 'node';
    report(name, `${e.code || ''} ${e.message}`);
  }
}

const TS1 = new Date(Date.UTC(2024, 4, 1, 12, 0, 10, 500));
const PRICES = 'SELECT id, name, price, ts, dur, note, raw, flag, big, ratio, day FROM prices';

async function values(pool) {
  const r = await pool.query(PRICES + ' WHERE id = $1', [1]);
  const row = r.rows[0];
  eq('int', row.id, 1);
  eq('text', row.name, 'apple');
  eq('decimal as string', row.price, '12.34');
  eq('timestamp as Date', row.ts, TS1);
  eq('interval', JSON.stringify(row.dur), '{"days":1,"hours":2,"minutes":3,"seconds":4}');
  eq('interval class', row.dur && row.dur.constructor.name, 'PostgresInterval');
  eq('interval toPostgres', row.dur && row.dur.toPostgres(), '4 seconds 3 minutes 2 hours 1 days');
  eq('null', row.note, null);
  eq('bytea as Buffer', row.raw, Buffer.from('ab'));
  eq('bool', row.flag, true);
  eq('bigint as string', row.big, '9000000000');
  eq('double', row.ratio, 0.5);
  eq('date', row.day, new Date(Date.UTC(2024, 4, 1)));
  eq('field type OIDs', r.fields.map((f) => f.dataTypeID), [23, 25, 1700, 1114, 1186, 25, 17, 16, 20, 701, 1082]);
  eq('rowCount', r.rowCount, 1);
  const r2 = await pool.query(PRICES + ' WHERE id = $1', ['2']);
  eq('nulls', Object.values(r2.rows[0]).slice(2), [null, null, null, 'none', null, null, null, null, null]);
  const r3 = await pool.query(PRICES + ' WHERE name = $1 AND price < $2', ['pear', '0']);
  const p = r3.rows[0];
  eq('negative decimal', p.price, '-0.05');
  eq('negative interval', JSON.stringify(p.dur), '{"hours":-3}');
  eq('empty bytea', p.raw, Buffer.alloc(0));
  eq('microseconds truncated to ms by Date', p.ts, new Date(Date.UTC(1999, 11, 31, 23, 59, 59, 999)));
}

async function parameters(pool) {
  await pool.query('DELETE FROM tx_node');
  const ins = 'INSERT INTO tx_node (id, amount, note, ts, raw) VALUES ($1, $2, $3, $4, $5)';
  eq('insert', (await pool.query(ins, [1, '7.25', null, TS1, Buffer.from([0, 1, 255])])).rowCount, 1);
  await pool.query(ins, [2, -1234.5, "it's", '1999-12-31 23:59:59.999999', null]);
  const r = await pool.query('SELECT id, amount, note, ts, raw FROM tx_node WHERE id > $1 ORDER BY id', [0]);
  eq('decimal back', r.rows.map((x) => x.amount), ['7.25', '-1234.50']);
  eq('null and quote back', r.rows.map((x) => x.note), [null, "it's"]);
  eq('timestamp back', r.rows.map((x) => x.ts), [TS1, new Date(Date.UTC(1999, 11, 31, 23, 59, 59, 999))]);
  eq('bytea back', r.rows.map((x) => x.raw), [Buffer.from([0, 1, 255]), null]);
  const e = await pool.query('SELECT $1::int + 1 AS a, $2::text AS b', [41, null]);
  eq('cast parameters', [e.rows[0].a, e.rows[0].b], [42, null]);
  const named = { name: 'price-by-id', text: 'SELECT price FROM prices WHERE id = $1' };
  const got = [];
  for (const id of [1, 2, 3, 1]) got.push((await pool.query({ ...named, values: [id] })).rows[0].price);
  eq('named prepared statement', got, ['12.34', null, '-0.05', '12.34']);
  // pg-types decodes these binary formats (its timestamp, float8 and bytea
  // binary parsers, and its numeric one for a value below 1, give wrong values,
  // also from PostgreSQL)
  const b = await pool.query({ text: 'SELECT id, name, price, flag, big FROM prices WHERE id = $1',
    values: [1], binary: true });
  const br = b.rows[0];
  eq('binary int', br.id, 1);
  eq('binary text', br.name, 'apple');
  eq('binary decimal', br.price, 12.34);
  eq('binary bool', br.flag, true);
  eq('binary bigint', br.big, '9000000000');
  const bn = await pool.query({ text: 'SELECT price, big FROM prices WHERE id = $1', values: [2], binary: true });
  eq('binary nulls', [bn.rows[0].price, bn.rows[0].big], [null, null]);
}

async function transactions(pool) {
  await pool.query('DELETE FROM tx_node');
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('INSERT INTO tx_node (id, note) VALUES ($1, $2)', [10, 'rolled back']);
    await client.query('ROLLBACK');
    eq('rollback undoes insert', (await client.query('SELECT count(*) AS n FROM tx_node')).rows[0].n, '0');
    await client.query('BEGIN');
    await client.query('INSERT INTO tx_node (id, note) VALUES ($1, $2)', [11, 'kept']);
    await client.query('SAVEPOINT sp');
    await client.query('INSERT INTO tx_node (id, note) VALUES ($1, $2)', [12, 'after savepoint']);
    await client.query('ROLLBACK TO SAVEPOINT sp');
    await client.query('RELEASE SAVEPOINT sp');
    const inside = await pool.query('SELECT count(*) AS n FROM tx_node');
    eq('uncommitted insert not seen by another connection', inside.rows[0].n, '0');
    await client.query('COMMIT');
    const after = await pool.query('SELECT id, note FROM tx_node ORDER BY id');
    eq('commit and rollback to savepoint', after.rows.map((x) => `${x.id} ${x.note}`), ['11 kept']);
    await client.query('BEGIN');
    try {
      await client.query('SELECT * FROM no_such_table WHERE id = $1', [1]);
      report('error raised', 'no error');
    } catch (err) {
      eq('error raised', err.code, '42P01');
    }
    try {
      await client.query('SELECT 1');
      report('statements refused until rollback', 'no error');
    } catch (err) {
      eq('statements refused until rollback', err.code, '25P02');
    }
    await client.query('ROLLBACK');
    eq('usable after rollback', (await client.query('SELECT $1::int AS v', [7])).rows[0].v, 7);
  } finally {
    client.release();
  }
}

async function introspection(pool) {
  const cols = async (t) => (await pool.query(
    'SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 ' +
    'ORDER BY ordinal_position', ['public', t])).rows.map((x) => `${x.column_name} ${x.data_type}`);
  eq('static table columns', await cols('prices'), ['id integer', 'name text', 'price numeric',
    'ts timestamp without time zone', 'dur interval', 'note text', 'raw bytea', 'flag boolean', 'big bigint',
    'ratio double precision', 'day date']);
  eq('stream columns', await cols('orders'), ['id integer', 'item text', 'amount numeric',
    'ts timestamp without time zone']);
  eq('query result columns', await cols('order_totals'), ['item text', 'n bigint', 'total numeric']);
  const t = await pool.query("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' " +
    "AND table_name IN ($1, $2, $3) ORDER BY table_name", ['prices', 'orders', 'order_totals']);
  eq('tables', t.rows.map((x) => x.table_name), ['order_totals', 'orders', 'prices']);
  const q = await pool.query('SELECT item, n, total FROM order_totals ORDER BY item');
  eq('query result rows', q.rows.map((x) => `${x.item} ${x.n} ${x.total}`), ['apple 2 6.50', 'leek 1 1.20']);
}

async function waitFor(seconds, cond) {
  const deadline = Date.now() + seconds * 1000;
  while (!cond()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

async function idleTimeout() {
  const pool = new Pool({ idleTimeoutMillis: 100 });
  eq('query', (await pool.query('SELECT name FROM prices WHERE id = $1', [3])).rows[0].name, 'pear');
  eq('connection closed by the idle timeout', await waitFor(10, () => pool.totalCount === 0), true);
  eq('pool reconnects', (await pool.query('SELECT name FROM prices WHERE id = $1', [1])).rows[0].name, 'apple');
  await pool.end();
  eq('ended', pool.ended, true);
}

async function main() {
  if (process.argv[2] === 'exit-without-close') {
    prefix = 'node/exit without close';
    const pool = new Pool();
    eq('parameterized query', (await pool.query('SELECT name FROM prices WHERE id = $1', [3])).rows[0].name, 'pear');
    console.log(failed === 0 ? 'all checks passed' : `${failed} failed`);
    process.exit(failed === 0 ? 0 : 1);
  }
  const pool = new Pool();
  await part('values', () => values(pool));
  await part('parameters', () => parameters(pool));
  await part('transactions', () => transactions(pool));
  await part('introspection', () => introspection(pool));
  await part('disconnect', async () => {
    eq('idle clients before end', pool.waitingCount, 0);
    await pool.end();
    eq('pool ended', pool.ended, true);
  });
  await part('idle timeout', idleTimeout);
  console.log(failed === 0 ? 'all checks passed' : `${failed} failed`);
  process.exitCode = failed === 0 ? 0 : 1;
}

main();
