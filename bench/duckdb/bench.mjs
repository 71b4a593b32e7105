// The DuckDB side of bench/bench_expr.c: the same 10 M rows (generated in
// SQL from the same hash of the row number), the same two queries, one
// thread (SET threads = 1). Prints median and best times of several runs,
// by wall clock and by process CPU time (the fair figure on a loaded host).
//
//   cd bench/duckdb && npm install && node bench.mjs [--rows N] [--runs N]
import { DuckDBInstance } from '@duckdb/node-api';
import { performance } from 'node:perf_hooks';

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : def;
};
const rows = opt('--rows', 10_000_000);
const runs = opt('--runs', 5);

// mix(i) of bench_expr.c: two multiply-mod-(2^31 - 1) rounds with xor-shifts.
const mix = (m1, m2) => {
  const x0 = `((i * ${m1} + 12345) % 2147483647)`;
  const x1 = `xor(${x0}, ${x0} >> 13)`;
  const x2 = `((${x1} * ${m2}) % 2147483647)`;
  return `xor(${x2}, ${x2} >> 7)`;
};

const queries = {
  a: 'SELECT sum(a * 2 + b) FROM t WHERE a > 0',
  b: `SELECT sum(((CASE WHEN c < 0.25 THEN 'low' WHEN c < 0.75 THEN 'mid' ELSE 'high' END) = 'mid')::INTEGER) FROM t`,
};

const instance = await DuckDBInstance.create(':memory:');
const con = await instance.connect();
await con.run('SET threads = 1');
let t = performance.now();
await con.run(`CREATE TABLE t AS SELECT
    ${mix(48271, 69621)} % 2000001 - 1000000 AS a,
    ${mix(16807, 40692)} % 2000001 - 1000000 AS b,
    CAST(${mix(39373, 50653)} % 1000000 AS DOUBLE) / 1000000.0::DOUBLE AS c
  FROM range(${rows}) r(i)`);
const sums = (await con.runAndReadAll('SELECT sum(a), sum(b), sum(c) FROM t')).getRows()[0];
console.log(`generated ${rows} rows (${((performance.now() - t) / 1000).toFixed(2)} s); checksums ` +
  `sum(a)=${sums[0]} sum(b)=${sums[1]} sum(c)=${Number(sums[2]).toFixed(6)}`);

const median = (xs) => [...xs].sort((p, q) => p - q)[Math.floor(xs.length / 2)];
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; };
for (const [name, sql] of Object.entries(queries)) {
  const wall = [], used = [];
  let result;
  for (let r = 0; r < runs; r++) {
    const w0 = performance.now(), c0 = cpu();
    result = (await con.runAndReadAll(sql)).getRows()[0][0];
    used.push(cpu() - c0);
    wall.push((performance.now() - w0) / 1000);
  }
  const mw = median(wall), mc = median(used), bw = Math.min(...wall), bc = Math.min(...used);
  console.log(`(${name}) result ${result}: wall median ${mw.toFixed(3)} s (${(rows / mw / 1e6).toFixed(1)} M rows/s), ` +
    `best ${bw.toFixed(3)} s; cpu median ${mc.toFixed(3)} s (${(rows / mc / 1e6).toFixed(1)} M rows/s), best ${bc.toFixed(3)} s`);
}
