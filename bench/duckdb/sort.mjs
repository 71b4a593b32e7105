// DuckDB side of bench/bench_sort.c: the same rows (k = (i * 2654435761) % 1000003,
// v = i % 1000 for i in 0..rows-1, BIGINT), the same query
// (SELECT k, v ORDER BY k, v LIMIT n; -1 = no limit), one thread, median of N
// runs. The result is folded into sums (rows, sum(k), sum(v)) to compare with
// sluice's checksum. Prints the median wall and process CPU times.
//
//   cd bench/duckdb && npm install && node sort.mjs [rows] [limit,limit] [repeats]
import { DuckDBInstance } from '@duckdb/node-api';
import { timeQuery } from './timing.mjs';

const rows = Number(process.argv[2] ?? 10000000);
const limits = (process.argv[3] ?? '10,10000,-1').split(',').map(Number);
const repeats = Number(process.argv[4] ?? 5);

const instance = await DuckDBInstance.create(':memory:');
const con = await instance.connect();
await con.run('SET threads = 1');
await con.run(`CREATE TABLE t AS SELECT (i * 2654435761) % 1000003 AS k, i % 1000 AS v FROM range(${rows}) r(i)`);

for (const limit of limits) {
  const inner = `SELECT k, v FROM t ORDER BY k, v${limit >= 0 ? ` LIMIT ${limit}` : ''}`;
  const sql = `SELECT count(*), sum(k), sum(v) FROM (${inner})`;
  const { wall, cpu, row: check } = await timeQuery(con, sql, repeats);
  console.log(`duckdb  limit=${String(limit).padEnd(8)} rows=${rows}  median wall ${wall.toFixed(3)} s  ` +
              `cpu ${cpu.toFixed(3)} s  result rows=${check[0]} sum(k)=${check[1]} sum(v)=${check[2]}`);
}
