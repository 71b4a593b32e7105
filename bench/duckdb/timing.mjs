// What groupby.mjs and sort.mjs share: run one query `repeats` times and
// take the median wall and process CPU times, and the first result row.
export async function timeQuery(con, sql, repeats) {
  const times = [], cpu = [];
  let row;
  for (let r = 0; r < repeats; r++) {
    const t0 = process.hrtime.bigint(), c0 = process.cpuUsage();
    const reader = await con.runAndReadAll(sql);
    times.push(Number(process.hrtime.bigint() - t0) / 1e9);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1e6);
    row = reader.getRows()[0];
  }
  times.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  const m = Math.floor(repeats / 2);
  return { wall: times[m], cpu: cpu[m], row };
}
