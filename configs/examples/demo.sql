-- The demo that `make run` loads: a rate stream and two continuous queries
-- on it, so the web UI (http://127.0.0.1:4040/) shows live queries at once.
-- Every statement is idempotent: the daemon resumes the queries after a
-- restart and the startup file only adds what is missing.
CREATE STREAM IF NOT EXISTS demo_ticks USING rate OPTIONS (rowsPerSecond '50');

-- Ticks per 10-second window, final once the watermark passes the window.
CREATE QUERY IF NOT EXISTS demo_per_window
  OUTPUT MODE append
  TRIGGER PROCESSING TIME '2 seconds'
AS SELECT window.start AS window_start, count(*) AS ticks, sum(value) AS value_sum
   FROM demo_ticks WATERMARK timestamp DELAY OF INTERVAL '5 seconds'
   GROUP BY window(timestamp, '10 seconds');

-- A running count per residue, updated every batch.
CREATE QUERY IF NOT EXISTS demo_by_residue
  OUTPUT MODE update
AS SELECT value % 5 AS residue, count(*) AS ticks FROM demo_ticks GROUP BY value % 5;
