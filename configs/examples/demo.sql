-- The demo that `make run` loads: a rate stream generating 10 rows a second.
CREATE STREAM IF NOT EXISTS demo_ticks USING rate OPTIONS (rowsPerSecond '10');
