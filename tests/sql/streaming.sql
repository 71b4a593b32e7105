-- Continuous queries over a file stream: AVAILABLE NOW runs, restarts that
-- pick up new files, the three output modes, watermarks and late rows, the
-- file sink's exactly-once output read back as a table, and the checks.
\set VERBOSITY verbose
\set indir :testdir/in
\set outdir :testdir/out
\! mkdir -p $TESTDIR/in
\! printf 'id,name,amount,ts\n1,ada,10.50,2024-05-01 12:00:00\n2,bob,20.25,2024-05-01 12:00:30\n3,cyd,5.00,2024-05-01 12:01:10\n' > $TESTDIR/in/.a.tmp && mv $TESTDIR/in/.a.tmp $TESTDIR/in/a.csv
CREATE STREAM orders (id INT, name STRING, amount DECIMAL(8,2), ts TIMESTAMP) USING file
  OPTIONS (path :'indir', format 'csv', header 'true');
-- a stateless query, run once over what is there
CREATE QUERY big TRIGGER AVAILABLE NOW AS
  SELECT id, upper(name) AS who, amount * 2 AS twice FROM orders WHERE amount > 6;
AWAIT QUERY big;
SELECT * FROM big ORDER BY id;
-- new files are taken by the next run, each file once
\! printf 'id,name,amount,ts\n4,dee,7.75,2024-05-01 12:02:00\n5,eve,1.00,2024-05-01 12:02:05\n' > $TESTDIR/in/.b.tmp && mv $TESTDIR/in/.b.tmp $TESTDIR/in/b.csv
START QUERY big;
AWAIT QUERY big;
SELECT * FROM big ORDER BY id;
-- aggregation: update mode upserts by key, complete mode rewrites the table
CREATE QUERY per_name OUTPUT MODE update TRIGGER AVAILABLE NOW AS
  SELECT name, count(*) AS n, sum(amount) AS total FROM orders GROUP BY name;
CREATE QUERY overall OUTPUT MODE complete TRIGGER AVAILABLE NOW AS
  SELECT count(*) AS n, sum(amount) AS total, min(ts) AS first_ts, max(ts) AS last_ts FROM orders;
AWAIT QUERY per_name;
AWAIT QUERY overall;
SELECT * FROM per_name ORDER BY name;
SELECT * FROM overall;
-- update mode without the grouping column selected: the table is keyed by
-- the grouping key all the same (a hidden column), one row per group
CREATE QUERY big_or_not OUTPUT MODE update TRIGGER AVAILABLE NOW AS
  SELECT count(*) AS n FROM orders GROUP BY amount > 6;
AWAIT QUERY big_or_not;
SELECT * FROM big_or_not ORDER BY n;
-- event-time windows in append mode: a window is emitted once the watermark
-- passes its end; rows at or before the watermark are late and dropped
CREATE QUERY per_minute TRIGGER AVAILABLE NOW AS
  SELECT window.start AS minute, count(*) AS n, sum(amount) AS total
  FROM orders WATERMARK ts DELAY OF INTERVAL '30 seconds'
  GROUP BY window(ts, '1 minute');
AWAIT QUERY per_minute;
SELECT * FROM per_minute ORDER BY minute;
\! printf 'id,name,amount,ts\n6,fay,3.00,2024-05-01 12:00:10\n7,gus,4.00,2024-05-01 12:05:00\n' > $TESTDIR/in/.c.tmp && mv $TESTDIR/in/.c.tmp $TESTDIR/in/c.csv
START QUERY per_minute;
AWAIT QUERY per_minute;
SELECT * FROM per_minute ORDER BY minute;
START QUERY big_or_not;
AWAIT QUERY big_or_not;
SELECT * FROM big_or_not ORDER BY n;
-- the file sink: data files plus a manifest per batch, read back as a table
CREATE QUERY archive SINK file OPTIONS (path :'outdir', format 'json') TRIGGER AVAILABLE NOW AS
  SELECT id, name, amount FROM orders;
AWAIT QUERY archive;
CREATE TABLE archived (id INT, name STRING, amount DECIMAL(8,2)) USING json OPTIONS (path :'outdir');
SELECT * FROM archived ORDER BY id;
\! ls $TESTDIR/out/_sluice_metadata
-- a file not listed in a manifest is not part of the output
\! printf '{"id":99,"name":"stray","amount":1}\n' > $TESTDIR/out/stray.json
SELECT count(*) FROM archived;
-- EXPLAIN shows the incremental plan and the state it keeps
EXPLAIN CREATE QUERY x OUTPUT MODE update AS SELECT name, count(*) FROM orders GROUP BY name;
-- queries that cannot run incrementally are refused
CREATE QUERY bad AS SELECT name, count(*) FROM orders GROUP BY name;
CREATE QUERY bad OUTPUT MODE complete AS SELECT name FROM orders;
CREATE QUERY bad AS SELECT name FROM orders ORDER BY name;
CREATE QUERY bad OUTPUT MODE update AS SELECT name FROM orders LIMIT 1;
CREATE QUERY bad AS SELECT approx_count_distinct(name), count(DISTINCT name) FROM orders;
CREATE QUERY bad TRIGGER CONTINUOUS '1 second' AS SELECT name, count(*) FROM orders GROUP BY name;
-- continuous processing refuses current time operations, as Spark does
CREATE STREAM ticks USING rate;
CREATE QUERY bad TRIGGER CONTINUOUS '1 second' AS SELECT value, current_timestamp() AS at FROM ticks;
CREATE QUERY bad TRIGGER CONTINUOUS '1 second' AS SELECT value FROM ticks WHERE timestamp < now();
CREATE QUERY bad TRIGGER CONTINUOUS '1 second' AS SELECT value, current_date AS d FROM ticks;
EXPLAIN CREATE QUERY fine TRIGGER CONTINUOUS '1 second' AS SELECT value FROM ticks WHERE value > 1;
CREATE QUERY bad SINK file OUTPUT MODE complete AS SELECT count(*) FROM orders;
CREATE QUERY bad AS SELECT id FROM customers;
CREATE QUERY bad TRIGGER PROCESSING TIME 'often' AS SELECT id FROM orders;
CREATE QUERY bad SINK nowhere AS SELECT id FROM orders;
CREATE QUERY bad OPTIONS ('sluice.stateStore' 'paper') AS SELECT id FROM orders;
CREATE QUERY big AS SELECT id FROM orders;
-- management statements on unknown queries
START QUERY nosuch;
STOP QUERY nosuch;
AWAIT QUERY nosuch;
SHOW PROGRESS nosuch;
STOP QUERY big;
DROP QUERY big;
DROP QUERY per_name;
DROP QUERY overall;
DROP QUERY per_minute;
DROP QUERY big_or_not;
DROP TABLE archived;
DROP QUERY archive;
DROP STREAM orders;
DROP STREAM ticks;
SHOW STREAMS;
