-- Event-time windows on a file stream, checked against Spark's semantics:
-- tumbling and sliding windows in append, update and complete output modes;
-- the worked example of Spark's guide (dog/cat/donkey) batch by batch; late
-- rows dropped only when their window ends at or before the watermark
-- (equal is late); no-data batches that emit final windows and evict state;
-- numRowsDroppedByWatermark read from SHOW RECENT PROGRESS; window offsets
-- and the checks on window() and WATERMARK.
--
-- Each trigger's input is one file written before START QUERY, so batches
-- are deterministic. Progress is summarised per executed batch (idle
-- triggers, which have no addBatch duration, are left out) with sed.
\set VERBOSITY verbose
\set wdir :testdir/words
\! mkdir -p $TESTDIR/words
CREATE STREAM words (word STRING, ts TIMESTAMP) USING file
  OPTIONS (path :'wdir', format 'csv', header 'true');
-- Spark's example: window 10 minutes sliding every 5, watermark 10 minutes,
-- in the three output modes over the same input.
CREATE QUERY wu OUTPUT MODE update TRIGGER AVAILABLE NOW AS
  SELECT window, word, count(*) AS n
  FROM words WATERMARK ts DELAY OF INTERVAL '10 minutes'
  GROUP BY window(ts, '10 minutes', '5 minutes'), word;
CREATE QUERY wa TRIGGER AVAILABLE NOW AS
  SELECT window.start AS ws, window.end AS we, word, count(*) AS n
  FROM words WATERMARK ts DELAY OF INTERVAL '10 minutes'
  GROUP BY window(ts, '10 minutes', '5 minutes'), word;
CREATE QUERY wc OUTPUT MODE complete TRIGGER AVAILABLE NOW AS
  SELECT window.start AS ws, window.end AS we, word, count(*) AS n
  FROM words WATERMARK ts DELAY OF INTERVAL '10 minutes'
  GROUP BY window(ts, '10 minutes', '5 minutes'), word;
AWAIT QUERY wu;
AWAIT QUERY wa;
AWAIT QUERY wc;
-- trigger 1: (12:07 dog) (12:08 owl); afterwards the watermark is 11:58
\! cd $TESTDIR/words && printf 'word,ts\ndog,2024-05-01 12:07:00\nowl,2024-05-01 12:08:00\n' > .t && mv .t 1.csv
START QUERY wu;
START QUERY wa;
START QUERY wc;
AWAIT QUERY wu;
AWAIT QUERY wa;
AWAIT QUERY wc;
SELECT window.start AS ws, window.end AS we, word, n FROM wu ORDER BY ws, word;
SELECT * FROM wa ORDER BY ws, word;
SELECT * FROM wc ORDER BY ws, word;
-- trigger 2: (12:14 dog) moves the watermark to 12:04
\! cd $TESTDIR/words && printf 'word,ts\ndog,2024-05-01 12:14:00\n' > .t && mv .t 2.csv
START QUERY wu;
START QUERY wa;
START QUERY wc;
AWAIT QUERY wu;
AWAIT QUERY wa;
AWAIT QUERY wc;
SELECT window.start AS ws, window.end AS we, word, n FROM wu ORDER BY ws, word;
SELECT * FROM wa ORDER BY ws, word;
SELECT * FROM wc ORDER BY ws, word;
-- trigger 3: (12:09 cat) is late but ahead of the watermark 12:04: it still
-- counts in 12:00-12:10 and 12:05-12:15; (12:21 owl) moves the watermark to
-- 12:11, so the no-data batch that follows closes 12:00-12:10 (append emits
-- it, update only forgets it, complete keeps everything)
\! cd $TESTDIR/words && printf 'word,ts\ncat,2024-05-01 12:09:00\ncat,2024-05-01 12:15:00\ndog,2024-05-01 12:08:00\nowl,2024-05-01 12:13:00\nowl,2024-05-01 12:21:00\n' > .t && mv .t 3.csv
START QUERY wu;
START QUERY wa;
START QUERY wc;
AWAIT QUERY wu;
AWAIT QUERY wa;
AWAIT QUERY wc;
SELECT window.start AS ws, window.end AS we, word, n FROM wu ORDER BY ws, word;
SELECT * FROM wa ORDER BY ws, word;
SELECT * FROM wc ORDER BY ws, word;
-- trigger 4: (12:04 donkey) falls in 11:55-12:05 and 12:00-12:10, both ending
-- at or before the watermark 12:11: too late, dropped (two partial groups)
-- in append and update; complete mode filters nothing and counts it
\! cd $TESTDIR/words && printf 'word,ts\nowl,2024-05-01 12:17:00\ndonkey,2024-05-01 12:04:00\n' > .t && mv .t 4.csv
START QUERY wu;
START QUERY wa;
START QUERY wc;
AWAIT QUERY wu;
AWAIT QUERY wa;
AWAIT QUERY wc;
SELECT window.start AS ws, window.end AS we, word, n FROM wu ORDER BY ws, word;
SELECT * FROM wa ORDER BY ws, word;
SELECT * FROM wc ORDER BY ws, word;
-- trigger 5: (12:27 cat) moves the watermark to 12:17: 12:05-12:15 is final
\! cd $TESTDIR/words && printf 'word,ts\ncat,2024-05-01 12:27:00\n' > .t && mv .t 5.csv
START QUERY wu;
START QUERY wa;
START QUERY wc;
AWAIT QUERY wu;
AWAIT QUERY wa;
AWAIT QUERY wc;
SELECT window.start AS ws, window.end AS we, word, n FROM wu ORDER BY ws, word;
SELECT * FROM wa ORDER BY ws, word;
SELECT * FROM wc ORDER BY ws, word;
-- Per executed batch: the watermark it used, the state rows after it, the
-- late rows it dropped and the rows it emitted. Every data batch that moves
-- the watermark is followed by a no-data batch (input 0) that evicts state
-- and, in append mode, emits the windows it closes.
\pset format unaligned
\pset tuples_only on
SHOW RECENT PROGRESS wu \g :testdir/wu.progress
SHOW RECENT PROGRESS wa \g :testdir/wa.progress
SHOW RECENT PROGRESS wc \g :testdir/wc.progress
\pset format aligned
\pset tuples_only off
\! grep '"addBatch"' $TESTDIR/wu.progress | sed -E 's/.*"batchId":([0-9]+),"batchDuration":[0-9]+,"numInputRows":([0-9]+),.*"watermark":"([^"]*)".*"numRowsTotal":([0-9]+),"numRowsUpdated":([0-9]+),.*"numRowsRemoved":([0-9]+),.*"numRowsDroppedByWatermark":([0-9]+),.*"numOutputRows":(-?[0-9]+).*/batch \1: input \2, watermark \3, state \4 (updated \5, removed \6), late \7, output \8/'
\! grep '"addBatch"' $TESTDIR/wa.progress | sed -E 's/.*"batchId":([0-9]+),"batchDuration":[0-9]+,"numInputRows":([0-9]+),.*"watermark":"([^"]*)".*"numRowsTotal":([0-9]+),"numRowsUpdated":([0-9]+),.*"numRowsRemoved":([0-9]+),.*"numRowsDroppedByWatermark":([0-9]+),.*"numOutputRows":(-?[0-9]+).*/batch \1: input \2, watermark \3, state \4 (updated \5, removed \6), late \7, output \8/'
-- Complete mode never evicts and never drops late rows. Spark asks for a
-- no-data batch only in append and update mode, so the complete query runs
-- just the five data batches, 0-4, and none with 0 input rows.
\! grep '"addBatch"' $TESTDIR/wc.progress | sed -E 's/.*"batchId":([0-9]+),"batchDuration":[0-9]+,"numInputRows":([0-9]+),.*"watermark":"([^"]*)".*"numRowsTotal":([0-9]+),"numRowsUpdated":([0-9]+),.*"numRowsRemoved":([0-9]+),.*"numRowsDroppedByWatermark":([0-9]+),.*"numOutputRows":(-?[0-9]+).*/batch \1: input \2, state \4 (updated \5, removed \6), late \7, output \8/'
--
-- The same input taken at once, one file per batch (maxFilesPerTrigger 1):
-- now no no-data batch separates the data batches, and Spark (3.4+) filters
-- late rows by the previous batch's watermark but evicts by the current one.
-- In the batch of (12:04 donkey) that is 12:04 (late) and 12:11 (evict):
-- donkey's windows end at 12:05 and 12:10, after 12:04, so it is counted,
-- and 12:00-12:10 closes in the same batch with donkey in it. Data later
-- than the delay may or may not be dropped; Spark's rules decide which.
-- One AWAIT waits for all five rate-limited batches and the no-data batch:
-- files held back by maxFilesPerTrigger keep the query behind its latest
-- offset.
CREATE STREAM words1 (word STRING, ts TIMESTAMP) USING file
  OPTIONS (path :'wdir', format 'csv', header 'true', maxFilesPerTrigger '1');
\! cd $TESTDIR/words && for i in 1 2 3 4 5; do touch -d @170000000$i $i.csv; done
CREATE QUERY wa1 TRIGGER AVAILABLE NOW AS
  SELECT window.start AS ws, window.end AS we, word, count(*) AS n
  FROM words1 WATERMARK ts DELAY OF INTERVAL '10 minutes'
  GROUP BY window(ts, '10 minutes', '5 minutes'), word;
AWAIT QUERY wa1;
SELECT * FROM wa1 ORDER BY ws, word;
\pset format unaligned
\pset tuples_only on
SHOW RECENT PROGRESS wa1 \g :testdir/wa1.progress
\pset format aligned
\pset tuples_only off
\! grep '"addBatch"' $TESTDIR/wa1.progress | sed -E 's/.*"batchId":([0-9]+),"batchDuration":[0-9]+,"numInputRows":([0-9]+),.*"watermark":"([^"]*)".*"numRowsTotal":([0-9]+),"numRowsUpdated":([0-9]+),.*"numRowsRemoved":([0-9]+),.*"numRowsDroppedByWatermark":([0-9]+),.*"numOutputRows":(-?[0-9]+).*/batch \1: input \2, watermark \3, state \4 (updated \5, removed \6), late \7, output \8/'
DROP QUERY wu;
DROP QUERY wa;
DROP QUERY wc;
DROP QUERY wa1;
--
-- Tumbling windows and the late-row boundary, with the stream's own
-- watermark (5 minutes). The first file moves the watermark to 12:20.
\set edir :testdir/events
\! mkdir -p $TESTDIR/events
CREATE STREAM ev (k STRING, ts TIMESTAMP, amount INT) USING file
  OPTIONS (path :'edir', format 'csv', header 'true')
  WATERMARK ts DELAY OF INTERVAL '5 minutes';
CREATE QUERY tu OUTPUT MODE update TRIGGER AVAILABLE NOW AS
  SELECT window, k, count(*) AS n, sum(amount) AS total FROM ev GROUP BY window(ts, '10 minutes'), k;
CREATE QUERY ta TRIGGER AVAILABLE NOW AS
  SELECT window.start AS ws, k, count(*) AS n, sum(amount) AS total, avg(amount) AS mean,
         min(ts) AS first, max(ts) AS last
  FROM ev GROUP BY window(ts, '10 minutes'), k;
-- grouping by the event-time column itself: late when ts <= watermark
CREATE QUERY tt TRIGGER AVAILABLE NOW AS
  SELECT ts, count(*) AS n FROM ev GROUP BY ts;
-- a query's WATERMARK replaces the stream's
CREATE QUERY tq OUTPUT MODE update TRIGGER AVAILABLE NOW AS
  SELECT window, count(*) AS n FROM ev WATERMARK ts DELAY OF INTERVAL '1 minute'
  GROUP BY window(ts, '10 minutes');
-- (each finishes at once over the empty directory; START runs it again)
AWAIT QUERY tu;
AWAIT QUERY ta;
AWAIT QUERY tt;
AWAIT QUERY tq;
\! cd $TESTDIR/events && printf 'k,ts,amount\na,2024-05-01 12:25:00,1\n' > .t && mv .t 1.csv
START QUERY tu;
START QUERY ta;
START QUERY tt;
START QUERY tq;
AWAIT QUERY tu;
AWAIT QUERY ta;
AWAIT QUERY tt;
AWAIT QUERY tq;
-- The second file, against the watermark 12:20 (tq: 12:24):
--   b 12:19:59.999999  window 12:10-12:20 ends at the watermark: late
--   c 12:20:00         window 12:20-12:30: on time (but ts = watermark: late for tt)
--   d 12:15, 12:15:30, 12:12  window 12:10-12:20: late (one group)
--   e 12:20:00.000001  on time everywhere
\! cd $TESTDIR/events && printf 'k,ts,amount\nb,2024-05-01 12:19:59.999999,2\nc,2024-05-01 12:20:00,3\nd,2024-05-01 12:15:00,4\nd,2024-05-01 12:15:30,5\nd,2024-05-01 12:12:00,6\ne,2024-05-01 12:20:00.000001,7\n' > .t && mv .t 2.csv
START QUERY tu;
START QUERY ta;
START QUERY tt;
START QUERY tq;
AWAIT QUERY tu;
AWAIT QUERY ta;
AWAIT QUERY tt;
AWAIT QUERY tq;
SELECT window.start AS ws, window.end AS we, k, n, total FROM tu ORDER BY ws, k;
SELECT * FROM ta ORDER BY ws, k;
SELECT * FROM tt ORDER BY ts;
SELECT window.start AS ws, n FROM tq ORDER BY ws;
-- The third file moves the watermark to 12:35: the no-data batch closes
-- 12:20-12:30 (ta) and every ts up to 12:35 (tt)
\! cd $TESTDIR/events && printf 'k,ts,amount\na,2024-05-01 12:29:59,10\nf,2024-05-01 12:40:00,20\n' > .t && mv .t 3.csv
START QUERY tu;
START QUERY ta;
START QUERY tt;
START QUERY tq;
AWAIT QUERY tu;
AWAIT QUERY ta;
AWAIT QUERY tt;
AWAIT QUERY tq;
SELECT window.start AS ws, window.end AS we, k, n, total FROM tu ORDER BY ws, k;
SELECT * FROM ta ORDER BY ws, k;
SELECT * FROM tt ORDER BY ts;
SELECT window.start AS ws, n FROM tq ORDER BY ws;
-- late rows are counted per late group of the partial aggregation (Spark
-- counts the rows entering its state store): tu and ta 2 (b and d), tt 5
-- (b, c and the three d times); tq 1 (its one 12:10-12:20 window)
\pset format unaligned
\pset tuples_only on
SHOW RECENT PROGRESS tu \g :testdir/tu.progress
SHOW RECENT PROGRESS ta \g :testdir/ta.progress
SHOW RECENT PROGRESS tt \g :testdir/tt.progress
SHOW RECENT PROGRESS tq \g :testdir/tq.progress
\pset format aligned
\pset tuples_only off
\! for q in tu ta tt tq; do echo "-- $q"; grep '"addBatch"' $TESTDIR/$q.progress | sed -E 's/.*"batchId":([0-9]+),"batchDuration":[0-9]+,"numInputRows":([0-9]+),.*"watermark":"([^"]*)".*"numRowsTotal":([0-9]+),"numRowsUpdated":([0-9]+),.*"numRowsRemoved":([0-9]+),.*"numRowsDroppedByWatermark":([0-9]+),.*"numOutputRows":(-?[0-9]+).*/batch \1: input \2, watermark \3, state \4 (updated \5, removed \6), late \7, output \8/'; done
-- the progress is JSON text: from_json reads its scalar and struct fields
SHOW PROGRESS ta \gset
SELECT p.batchId AS batch, p.eventTime.watermark AS watermark, p.sink.description AS sink
FROM (SELECT from_json(:'progress', 'batchId BIGINT, eventTime STRUCT<watermark: STRING>, sink STRUCT<description: STRING>') AS p) AS x;
-- window offsets (a start of 3 minutes) and a slide that does not divide
-- the size (10 minutes every 4): each row falls in every window whose
-- start is a multiple of the slide within the last 10 minutes
CREATE QUERY woff OUTPUT MODE complete TRIGGER AVAILABLE NOW AS
  SELECT window.start AS ws, window.end AS we, count(*) AS n
  FROM ev GROUP BY window(ts, '10 minutes', '10 minutes', '3 minutes');
CREATE QUERY wslide OUTPUT MODE complete TRIGGER AVAILABLE NOW AS
  SELECT window.start AS ws, window.end AS we, count(*) AS n, sum(amount) AS total
  FROM ev GROUP BY window(ts, '10 minutes', '4 minutes');
AWAIT QUERY woff;
AWAIT QUERY wslide;
SELECT * FROM woff ORDER BY ws;
SELECT * FROM wslide ORDER BY ws;
-- EXPLAIN shows which column drives eviction
EXPLAIN CREATE QUERY x AS SELECT window.start AS ws, k, count(*) AS c FROM ev GROUP BY window(ts, '10 minutes'), k;
-- the checks
CREATE STREAM nowm (k STRING, ts TIMESTAMP) USING file OPTIONS (path :'edir', format 'csv', header 'true');
CREATE QUERY bad AS SELECT window.start, count(*) FROM nowm GROUP BY window(ts, '10 minutes');
CREATE QUERY bad AS SELECT k, count(*) FROM ev GROUP BY k;
CREATE QUERY bad AS SELECT window.start, count(*) FROM ev GROUP BY window(ts, '5 minutes', '10 minutes');
CREATE QUERY bad AS SELECT window.start, count(*) FROM ev GROUP BY window(ts, '0 minutes');
CREATE QUERY bad AS SELECT window.start, count(*) FROM ev GROUP BY window(ts, 'soon');
CREATE QUERY bad AS SELECT window.start, count(*) FROM ev GROUP BY window(ts, '1 month');
CREATE QUERY bad AS SELECT window.start, count(*) FROM ev GROUP BY window(ts, '10 minutes', '5 minutes', '5 minutes');
CREATE QUERY bad AS SELECT window.start, count(*) FROM ev GROUP BY window(k, '10 minutes');
CREATE QUERY bad AS SELECT k FROM nowm WATERMARK k DELAY OF INTERVAL '1 minute';
CREATE QUERY bad AS SELECT k FROM nowm WATERMARK ts DELAY OF INTERVAL '-1 minute';
CREATE QUERY bad AS SELECT k FROM nowm WATERMARK ts DELAY OF INTERVAL '300000000 days';
DROP QUERY tu;
DROP QUERY ta;
DROP QUERY tt;
DROP QUERY tq;
DROP QUERY woff;
DROP QUERY wslide;
DROP STREAM ev;
DROP STREAM nowm;
DROP STREAM words;
DROP STREAM words1;
SHOW QUERIES;
SHOW STREAMS;
