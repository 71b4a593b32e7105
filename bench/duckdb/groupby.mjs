// DuckDB side of bench/bench_groupby.c: the same rows (k = (i * 2654435761) % groups,
// v = i % 100 for i in 0..rows-1, BIGINT), the same query
// (SELECT k, sum(v), count(*), avg(v) GROUP BY k), one thread, median of N runs.
// The aggregates are folded into sums so DuckDB cannot drop any of them and the
// checksum can be compared with sluice's. Prints the median wall time and the
// median process CPU time (steadier on a shared machine).
//
//   cd bench/duckdb && npm install && node groupby.mjs [rows] [groups,groups] [repeats]
import { DuckDBInstance } from '@duckdb/node-api';
import { timeQuery } from './timing.mjs';

const rows = Number(process.argv[2] ?? 10000000);
const groupsList = (process.argv[3] ?? '1000,1000000').split(',').map(Number);
const repeats = Number(process.argv[4] ?? 5);

const instance = await DuckDBInstance.create(':memory:');
const con = await instance.connect();
await con.run('SET threads = 1');

for (const groups of groupsList) {
  await con.run('DROP TABLE IF EXISTS t');
  await con.run(`CREATE TABLE t AS SELECT (i * 2654435761) % ${groups} AS k, i % 100 AS v
                 FROM range(${rows}) r(i)`);
  const sql = `SELECT count(*) AS nrows, sum(s) AS sum_s, sum(c) AS sum_c, sum(a) AS sum_a
               FROM (SELECT k, sum(v) AS s, count(*) AS c, avg(v) AS a FROM t GROUP BY k)`;
  const { wall: med, cpu: mcpu, row: check } = await timeQuery(con, sql, repeats);
  console.log(`duckdb          groups=${String(groups).padEnd(8)} rows=${rows}  median wall ${med.toFixed(3)} s ` +
              `(${(rows / med / 1e6).toFixed(1)} M rows/s)  cpu ${mcpu.toFixed(3)} s  result rows=${check[0]} sum(s)=${check[1]} ` +
              `sum(c)=${check[2]} sum(a)=${Number(check[3]).toFixed(6)}`);
}
