-- Deduplication on a stream, checked against Spark's dropDuplicates and
-- dropDuplicatesWithinWatermark: DISTINCT ON (keys) keeps the first row per
-- key, within a batch and across batches; without a watermark its state
-- grows forever; with one, late rows (event time at or before the previous
-- batch's watermark) are dropped and counted, and state is evicted only
-- when the keys include the event-time column; WITHIN WATERMARK forgets a
-- key once the watermark reaches its first occurrence plus the delay.
-- SELECT DISTINCT is an aggregation on every column. Both state stores.
--
-- Each trigger's input is one file written before START QUERY. Progress is
-- summarised per executed batch with sed: input rows, the watermark the
-- batch used, state rows after it, late rows, duplicates dropped
-- (customMetrics.numDroppedDuplicateRows) and rows emitted.
\set VERBOSITY verbose
\set odir :testdir/orders
\! mkdir -p $TESTDIR/orders
CREATE STREAM orders (id INT, item STRING, ts TIMESTAMP) USING file
  OPTIONS (path :'odir', format 'csv', header 'true');
-- no watermark: a key is remembered forever
CREATE QUERY d0 TRIGGER AVAILABLE NOW AS
  SELECT DISTINCT ON (id) * FROM orders;
-- a watermark, keys without the event time: late rows dropped, no eviction
CREATE QUERY d1 TRIGGER AVAILABLE NOW AS
  SELECT DISTINCT ON (id) id, item, ts FROM orders WATERMARK ts DELAY OF INTERVAL '10 minutes';
-- the event time among the keys: a key is evicted once ts <= watermark
CREATE QUERY d2 TRIGGER AVAILABLE NOW AS
  SELECT DISTINCT ON (id, ts) id, item, ts FROM orders WATERMARK ts DELAY OF INTERVAL '10 minutes';
-- within watermark: a key expires at its first occurrence's ts + 10 minutes
CREATE QUERY d3 TRIGGER AVAILABLE NOW AS
  SELECT DISTINCT ON (id) WITHIN WATERMARK id, item, ts
  FROM orders WATERMARK ts DELAY OF INTERVAL '10 minutes';
-- the same two with the rocksdb state store: the same results
CREATE QUERY r1 TRIGGER AVAILABLE NOW OPTIONS ('sluice.stateStore' 'rocksdb') AS
  SELECT DISTINCT ON (id) id, item, ts FROM orders WATERMARK ts DELAY OF INTERVAL '10 minutes';
CREATE QUERY r3 TRIGGER AVAILABLE NOW OPTIONS ('sluice.stateStore' 'rocksdb') AS
  SELECT DISTINCT ON (id) WITHIN WATERMARK id, item, ts
  FROM orders WATERMARK ts DELAY OF INTERVAL '10 minutes';
-- update mode is allowed (a deduplication emits each row once either way)
CREATE QUERY du OUTPUT MODE update TRIGGER AVAILABLE NOW AS
  SELECT DISTINCT ON (id) id, item FROM orders;
-- (no input yet: each run finds nothing and finishes)
AWAIT QUERY d0;
AWAIT QUERY d1;
AWAIT QUERY d2;
AWAIT QUERY d3;
AWAIT QUERY r1;
AWAIT QUERY r3;
AWAIT QUERY du;
-- batch 0: id 1 twice (the first row wins), a NULL id twice (NULL is a key
-- like any other), ts up to 12:20, so the watermark becomes 12:10
\! cd $TESTDIR/orders && printf 'id,item,ts\n1,apple,2024-05-01 12:00:00\n2,pear,2024-05-01 12:01:00\n1,apple-dup,2024-05-01 12:02:00\n,nul1,2024-05-01 12:03:00\n3,fig,2024-05-01 12:20:00\n,nul2,2024-05-01 12:04:00\n' > .t && mv .t 1.csv
START QUERY d0;
START QUERY d1;
START QUERY d2;
START QUERY d3;
START QUERY r1;
START QUERY r3;
START QUERY du;
AWAIT QUERY d0;
AWAIT QUERY d1;
AWAIT QUERY d2;
AWAIT QUERY d3;
AWAIT QUERY r1;
AWAIT QUERY r3;
AWAIT QUERY du;
SELECT * FROM d0 ORDER BY id, ts;
SELECT * FROM d1 ORDER BY id, ts;
SELECT * FROM d2 ORDER BY id, ts;
SELECT * FROM d3 ORDER BY id, ts;
SELECT * FROM du ORDER BY id;
-- batch 1, against the watermark 12:10:
--   1 apple-2 12:30    a duplicate for d0, d1; new for d2 (other ts); new for
--                      d3 (id 1 expired at 12:00 + 10 minutes = 12:10)
--   2 pear-late 12:10  ts = watermark: late (d1, d2, d3); a duplicate for d0
--   4 kiwi 12:10:00.000001  on time, new
--   3 fig-dup 12:21    a duplicate (d3: id 3 lives until 12:30)
--   5 plum 12:00       late (d1, d2, d3); new for d0
--   1 apple-3 12:00    late; a duplicate for d0
\! cd $TESTDIR/orders && printf 'id,item,ts\n1,apple-2,2024-05-01 12:30:00\n2,pear-late,2024-05-01 12:10:00\n4,kiwi,2024-05-01 12:10:00.000001\n3,fig-dup,2024-05-01 12:21:00\n5,plum,2024-05-01 12:00:00\n1,apple-3,2024-05-01 12:00:00\n' > .t && mv .t 2.csv
START QUERY d0;
START QUERY d1;
START QUERY d2;
START QUERY d3;
START QUERY r1;
START QUERY r3;
START QUERY du;
AWAIT QUERY d0;
AWAIT QUERY d1;
AWAIT QUERY d2;
AWAIT QUERY d3;
AWAIT QUERY r1;
AWAIT QUERY r3;
AWAIT QUERY du;
SELECT * FROM d0 ORDER BY id, ts;
SELECT * FROM d1 ORDER BY id, ts;
SELECT * FROM d2 ORDER BY id, ts;
SELECT * FROM d3 ORDER BY id, ts;
SELECT * FROM du ORDER BY id;
-- batch 2, against the watermark 12:20: id 3 (first seen 12:20) still
-- lives in d3 until the watermark reaches 12:30, so fig-3 is a duplicate;
-- so is apple-4 (id 1 again first seen 12:30)
\! cd $TESTDIR/orders && printf 'id,item,ts\n3,fig-3,2024-05-01 12:31:00\n1,apple-4,2024-05-01 12:40:00\n6,lime,2024-05-01 12:45:00\n' > .t && mv .t 3.csv
START QUERY d0;
START QUERY d1;
START QUERY d2;
START QUERY d3;
START QUERY r1;
START QUERY r3;
START QUERY du;
AWAIT QUERY d0;
AWAIT QUERY d1;
AWAIT QUERY d2;
AWAIT QUERY d3;
AWAIT QUERY r1;
AWAIT QUERY r3;
AWAIT QUERY du;
SELECT * FROM d0 ORDER BY id, ts;
SELECT * FROM d1 ORDER BY id, ts;
SELECT * FROM d2 ORDER BY id, ts;
SELECT * FROM d3 ORDER BY id, ts;
SELECT * FROM du ORDER BY id;
-- the rocksdb queries agree with their memory twins d1 and d3
SELECT * FROM r1 ORDER BY id, ts;
SELECT * FROM r3 ORDER BY id, ts;
-- Per executed batch. d0 has no watermark, so no no-data batches and its
-- state only grows. d1 runs no-data batches (the watermark moved) but
-- evicts nothing: its keys carry no event time. d2 evicts (id, ts) keys
-- with ts <= watermark; d3 evicts a key once watermark >= first ts + 10
-- minutes (batch 1 forgets id 1, batch 3 ids 2 and NULL, batch 5 ids 3 and 4).
\pset format unaligned
\pset tuples_only on
SHOW RECENT PROGRESS d0 \g :testdir/d0.progress
SHOW RECENT PROGRESS d1 \g :testdir/d1.progress
SHOW RECENT PROGRESS d2 \g :testdir/d2.progress
SHOW RECENT PROGRESS d3 \g :testdir/d3.progress
SHOW RECENT PROGRESS r1 \g :testdir/r1.progress
SHOW RECENT PROGRESS r3 \g :testdir/r3.progress
\pset format aligned
\pset tuples_only off
\! echo '-- d0'; grep '"addBatch"' $TESTDIR/d0.progress | sed -E 's/.*"batchId":([0-9]+),"batchDuration":[0-9]+,"numInputRows":([0-9]+),.*"operatorName":"([a-zA-Z]+)","numRowsTotal":([0-9]+),"numRowsUpdated":([0-9]+),.*"numRowsRemoved":([0-9]+),.*"numRowsDroppedByWatermark":([0-9]+),.*"numDroppedDuplicateRows":([0-9]+).*"numOutputRows":(-?[0-9]+).*/batch \1: input \2, \3 state \4 (updated \5, removed \6), late \7, duplicates \8, output \9/'
\! for q in d1 d2 d3 r1 r3; do echo "-- $q"; grep '"addBatch"' $TESTDIR/$q.progress | sed -E 's/.*"batchId":([0-9]+),"batchDuration":[0-9]+,"numInputRows":([0-9]+),.*"watermark":"([^"]*)".*"numRowsTotal":([0-9]+),"numRowsUpdated":([0-9]+),.*"numRowsRemoved":([0-9]+),.*"numRowsDroppedByWatermark":([0-9]+),.*"numDroppedDuplicateRows":([0-9]+).*"numOutputRows":(-?[0-9]+).*/batch \1: input \2, watermark \3, state \4 (updated \5, removed \6), late \7, duplicates \8, output \9/'; done
\! for q in d1 d2 d3 r3; do grep -o '"operatorName":"[a-zA-Z]*"' $TESTDIR/$q.progress | sort -u; done
DROP QUERY d0;
DROP QUERY d1;
DROP QUERY d2;
DROP QUERY d3;
DROP QUERY r1;
DROP QUERY r3;
DROP QUERY du;
--
-- A stream with its own watermark: SELECT DISTINCT (an aggregation on all
-- columns), DISTINCT ON an expression, deduplication before an aggregation,
-- and a projection that drops the event time before deduplicating.
\set pdir :testdir/picks
\! mkdir -p $TESTDIR/picks
CREATE STREAM picks (id INT, item STRING, ts TIMESTAMP) USING file
  OPTIONS (path :'pdir', format 'csv', header 'true')
  WATERMARK ts DELAY OF INTERVAL '10 minutes';
-- DISTINCT without the event time groups by item only: update mode
CREATE QUERY items OUTPUT MODE update TRIGGER AVAILABLE NOW AS
  SELECT DISTINCT item FROM picks;
-- DISTINCT with the event time can run in append mode: a row is emitted
-- once the watermark passes its ts
CREATE QUERY item_times TRIGGER AVAILABLE NOW AS
  SELECT DISTINCT item, ts FROM picks;
CREATE QUERY first_kind TRIGGER AVAILABLE NOW AS
  SELECT DISTINCT ON (lower(item)) id, item FROM picks;
CREATE QUERY per_item OUTPUT MODE update TRIGGER AVAILABLE NOW AS
  SELECT item, count(*) AS n FROM (SELECT DISTINCT ON (id) * FROM picks) AS d GROUP BY item;
-- ts is projected away before the deduplication, so the watermark does not
-- apply to it (as dropDuplicates after a select without the event time):
-- a row older than the watermark is kept, and its key never expires
CREATE QUERY no_ts TRIGGER AVAILABLE NOW AS
  SELECT DISTINCT ON (id) id, item FROM (SELECT id, item FROM picks) AS p;
-- with every column, the late row is dropped
CREATE QUERY all_cols TRIGGER AVAILABLE NOW AS
  SELECT DISTINCT ON (id) * FROM picks;
AWAIT QUERY items;
AWAIT QUERY item_times;
AWAIT QUERY first_kind;
AWAIT QUERY per_item;
AWAIT QUERY no_ts;
AWAIT QUERY all_cols;
\! cd $TESTDIR/picks && printf 'id,item,ts\n1,Apple,2024-05-01 12:00:00\n2,pear,2024-05-01 12:01:00\n1,apple,2024-05-01 12:02:00\n3,fig,2024-05-01 12:20:00\n7,pear,2024-05-01 12:01:00\n' > .t && mv .t 1.csv
START QUERY items;
START QUERY item_times;
START QUERY first_kind;
START QUERY per_item;
START QUERY no_ts;
START QUERY all_cols;
AWAIT QUERY items;
AWAIT QUERY item_times;
AWAIT QUERY first_kind;
AWAIT QUERY per_item;
AWAIT QUERY no_ts;
AWAIT QUERY all_cols;
SELECT * FROM items ORDER BY item;
SELECT * FROM item_times ORDER BY item, ts;
SELECT * FROM first_kind ORDER BY id;
SELECT * FROM per_item ORDER BY item;
-- the second file, against the watermark 12:10: (9 late 12:05) is late
-- wherever ts reaches the operator
\! cd $TESTDIR/picks && printf 'id,item,ts\n4,APPLE,2024-05-01 12:30:00\n5,kiwi,2024-05-01 12:30:00\n2,pear,2024-05-01 12:40:00\n8,fig,2024-05-01 12:20:00\n9,late,2024-05-01 12:05:00\n' > .t && mv .t 2.csv
START QUERY items;
START QUERY item_times;
START QUERY first_kind;
START QUERY per_item;
START QUERY no_ts;
START QUERY all_cols;
AWAIT QUERY items;
AWAIT QUERY item_times;
AWAIT QUERY first_kind;
AWAIT QUERY per_item;
AWAIT QUERY no_ts;
AWAIT QUERY all_cols;
SELECT * FROM items ORDER BY item;
SELECT * FROM item_times ORDER BY item, ts;
SELECT * FROM first_kind ORDER BY id;
SELECT * FROM per_item ORDER BY item;
SELECT * FROM no_ts ORDER BY id;
SELECT * FROM all_cols ORDER BY id;
-- EXPLAIN names the operators and what evicts their state
EXPLAIN CREATE QUERY x AS SELECT DISTINCT ON (id) * FROM orders;
EXPLAIN CREATE QUERY x AS SELECT DISTINCT ON (id, ts) * FROM picks;
EXPLAIN CREATE QUERY x AS SELECT DISTINCT ON (id) WITHIN WATERMARK * FROM picks;
-- the checks
CREATE QUERY bad AS SELECT DISTINCT ON (id) WITHIN WATERMARK * FROM orders;
CREATE QUERY bad OUTPUT MODE complete AS SELECT DISTINCT ON (id) * FROM picks;
CREATE QUERY bad AS SELECT DISTINCT item FROM orders;
CREATE QUERY bad OUTPUT MODE update AS
  SELECT DISTINCT ON (n) * FROM (SELECT item, count(*) AS n FROM picks GROUP BY item) AS a;
CREATE QUERY bad AS SELECT DISTINCT ON (nope) * FROM picks;
DROP QUERY items;
DROP QUERY item_times;
DROP QUERY first_kind;
DROP QUERY per_item;
DROP QUERY no_ts;
DROP QUERY all_cols;
DROP STREAM picks;
DROP STREAM orders;
SHOW QUERIES;
