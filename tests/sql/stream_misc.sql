-- Streaming queries beyond windows, joins and deduplication, checked against
-- Spark's semantics: UNION ALL of two streams; LIMIT in append mode (Spark's
-- stateful globalLimit: never more than n rows in all, across batches, STOP
-- and START); ORDER BY with LIMIT on an aggregation in complete mode;
-- HAVING in update and complete mode; expressions in GROUP BY; count, sum,
-- avg, min, max and approx_count_distinct; CASE; from_json on a STRING
-- column; several watermarked inputs combined by the 'min' and 'max'
-- policies, and the policy pinned by the checkpoint.
--
-- Each trigger's input is written before START QUERY, so batches are
-- deterministic.
\set VERBOSITY verbose
\set adir :testdir/a
\set bdir :testdir/b
\! mkdir -p $TESTDIR/a $TESTDIR/b
CREATE STREAM sa (k STRING, v INT, ts TIMESTAMP) USING file
  OPTIONS (path :'adir', format 'csv', header 'true');
CREATE STREAM sb (k STRING, v INT, ts TIMESTAMP) USING file
  OPTIONS (path :'bdir', format 'json');
-- ---------------------------------------------------------------------
-- UNION ALL of a csv stream and a json stream, as rows and aggregated
CREATE QUERY u1 TRIGGER AVAILABLE NOW AS
  SELECT k, v, 'a' AS src FROM sa UNION ALL SELECT k, v, 'b' FROM sb;
CREATE QUERY u2 OUTPUT MODE complete TRIGGER AVAILABLE NOW AS
  SELECT k, count(*) AS n, sum(v) AS s
  FROM (SELECT k, v FROM sa UNION ALL SELECT k, v FROM sb) AS u GROUP BY k;
-- LIMIT in append mode: at most 5 rows in all
CREATE QUERY lim TRIGGER AVAILABLE NOW AS SELECT k, v FROM sa LIMIT 5;
-- the same with the default trigger, stopped and started between files
CREATE QUERY lim_run AS SELECT k, v FROM sa LIMIT 5;
-- the top two keys by sum, rewritten every batch
CREATE QUERY top OUTPUT MODE complete TRIGGER AVAILABLE NOW AS
  SELECT k, sum(v) AS s FROM sa GROUP BY k ORDER BY s DESC NULLS LAST, k LIMIT 2;
-- HAVING: update mode emits the groups updated in a batch that pass it, so
-- a group that stops passing keeps its last emitted row in the memory
-- table; complete mode filters the whole result every batch
CREATE QUERY hav_u OUTPUT MODE update TRIGGER AVAILABLE NOW AS
  SELECT k, sum(v) AS s FROM sa GROUP BY k HAVING sum(v) > 2;
CREATE QUERY hav_c OUTPUT MODE complete TRIGGER AVAILABLE NOW AS
  SELECT k, sum(v) AS s FROM sa GROUP BY k HAVING sum(v) > 2;
-- expressions in GROUP BY (a NULL v gives a NULL parity group)
CREATE QUERY expr OUTPUT MODE complete TRIGGER AVAILABLE NOW AS
  SELECT v % 2 AS parity, upper(k) AS uk, count(*) AS n FROM sa GROUP BY v % 2, upper(k);
-- the aggregate functions over the whole stream (NULL v counted by count(*) only)
CREATE QUERY aggs OUTPUT MODE complete TRIGGER AVAILABLE NOW AS
  SELECT count(*) AS n, count(v) AS nv, sum(v) AS s, avg(v) AS a, min(v) AS mi, max(v) AS ma,
         min(k) AS mik, max(ts) AS mts, approx_count_distinct(k) AS dk FROM sa;
-- and per key in update mode
CREATE QUERY aggs_k OUTPUT MODE update TRIGGER AVAILABLE NOW AS
  SELECT k, count(*) AS n, sum(v) AS s, avg(v) AS a, min(v) AS mi, max(v) AS ma,
         approx_count_distinct(v) AS dv FROM sa GROUP BY k;
-- CASE in a projection and in a filter
CREATE QUERY cs TRIGGER AVAILABLE NOW AS
  SELECT k, v, CASE WHEN v > 5 THEN 'big' WHEN v > 1 THEN 'mid' ELSE 'small' END AS size,
         CASE k WHEN 'a' THEN 1 ELSE 0 END AS isa
  FROM sa WHERE CASE WHEN v IS NULL THEN false ELSE true END;
AWAIT QUERY u1;
AWAIT QUERY u2;
AWAIT QUERY lim;
AWAIT QUERY lim_run;
AWAIT QUERY top;
AWAIT QUERY hav_u;
AWAIT QUERY hav_c;
AWAIT QUERY expr;
AWAIT QUERY aggs;
AWAIT QUERY aggs_k;
AWAIT QUERY cs;
STOP QUERY lim_run;
-- trigger 1
\! cd $TESTDIR/a && printf 'k,v,ts\na,1,2024-05-01 12:00:00\nb,2,2024-05-01 12:01:00\na,3,2024-05-01 12:02:00\nc,,2024-05-01 12:03:00\n' > .t && mv .t 1.csv
\! cd $TESTDIR/b && printf '{"k":"a","v":10,"ts":"2024-05-01 12:00:30"}\n{"k":"d","v":20,"ts":"2024-05-01 12:04:00"}\n' > .t && mv .t 1.json
START QUERY u1;
START QUERY u2;
START QUERY lim;
START QUERY lim_run;
START QUERY top;
START QUERY hav_u;
START QUERY hav_c;
START QUERY expr;
START QUERY aggs;
START QUERY aggs_k;
START QUERY cs;
AWAIT QUERY u1;
AWAIT QUERY u2;
AWAIT QUERY lim;
AWAIT QUERY lim_run;
AWAIT QUERY top;
AWAIT QUERY hav_u;
AWAIT QUERY hav_c;
AWAIT QUERY expr;
AWAIT QUERY aggs;
AWAIT QUERY aggs_k;
AWAIT QUERY cs;
STOP QUERY lim_run;
SELECT * FROM u1 ORDER BY src, k, v;
SELECT * FROM u2 ORDER BY k;
SELECT * FROM lim ORDER BY k, v;
SELECT * FROM lim_run ORDER BY k, v;
SELECT * FROM top;
SELECT * FROM hav_u ORDER BY k;
SELECT * FROM hav_c ORDER BY k;
SELECT * FROM expr ORDER BY parity NULLS LAST, uk;
SELECT * FROM aggs;
SELECT * FROM aggs_k ORDER BY k;
SELECT * FROM cs ORDER BY k, v;
-- trigger 2: a's sum drops to 0 (hav_u keeps a at 4, hav_c drops it);
-- the limits take one more row (b 7, the first of the file), no more
\! cd $TESTDIR/a && printf 'k,v,ts\nb,7,2024-05-01 12:05:00\nd,1,2024-05-01 12:06:00\na,-4,2024-05-01 12:07:00\n' > .t && mv .t 2.csv
START QUERY u1;
START QUERY u2;
START QUERY lim;
START QUERY lim_run;
START QUERY top;
START QUERY hav_u;
START QUERY hav_c;
START QUERY expr;
START QUERY aggs;
START QUERY aggs_k;
START QUERY cs;
AWAIT QUERY u1;
AWAIT QUERY u2;
AWAIT QUERY lim;
AWAIT QUERY lim_run;
AWAIT QUERY top;
AWAIT QUERY hav_u;
AWAIT QUERY hav_c;
AWAIT QUERY expr;
AWAIT QUERY aggs;
AWAIT QUERY aggs_k;
AWAIT QUERY cs;
STOP QUERY lim_run;
SELECT * FROM u1 ORDER BY src, k, v;
SELECT * FROM u2 ORDER BY k;
SELECT * FROM lim ORDER BY k, v;
SELECT * FROM lim_run ORDER BY k, v;
SELECT * FROM top;
SELECT * FROM hav_u ORDER BY k;
SELECT * FROM hav_c ORDER BY k;
SELECT * FROM expr ORDER BY parity NULLS LAST, uk;
SELECT * FROM aggs;
SELECT * FROM aggs_k ORDER BY k;
SELECT * FROM cs ORDER BY k, v;
-- trigger 3: the limits are full; nothing more, ever
\! cd $TESTDIR/a && printf 'k,v,ts\ne,5,2024-05-01 12:08:00\n' > .t && mv .t 3.csv
START QUERY lim;
START QUERY lim_run;
AWAIT QUERY lim;
AWAIT QUERY lim_run;
STOP QUERY lim_run;
SELECT * FROM lim ORDER BY k, v;
SELECT * FROM lim_run ORDER BY k, v;
-- the limit's state: the count of rows emitted so far (operator globalLimit)
\pset format unaligned
\pset tuples_only on
SHOW RECENT PROGRESS lim \g :testdir/lim.progress
\pset format aligned
\pset tuples_only off
\! grep '"addBatch"' $TESTDIR/lim.progress | sed -E 's/.*"batchId":([0-9]+),"batchDuration":[0-9]+,"numInputRows":([0-9]+),.*"operatorName":"([a-zA-Z]+)","numRowsTotal":([0-9]+),.*"numOutputRows":(-?[0-9]+).*/batch \1: input \2, \3 state \4, output \5/'
-- the checks
CREATE TABLE t (k STRING, v INT, ts TIMESTAMP);
CREATE QUERY bad AS SELECT k, v FROM sa UNION ALL SELECT k, v FROM t;
CREATE QUERY bad AS SELECT k, v FROM sa UNION SELECT k, v FROM sb;
CREATE QUERY bad OUTPUT MODE update AS SELECT k, v FROM sa LIMIT 2;
CREATE QUERY bad OUTPUT MODE update AS SELECT k, sum(v) AS s FROM sa GROUP BY k ORDER BY k;
CREATE QUERY bad AS SELECT k, v FROM sa ORDER BY v LIMIT 2;
CREATE QUERY bad AS SELECT k, v FROM sa LIMIT 2 OFFSET 1;
DROP TABLE t;
DROP QUERY u1;
DROP QUERY u2;
DROP QUERY lim;
DROP QUERY lim_run;
DROP QUERY top;
DROP QUERY hav_u;
DROP QUERY hav_c;
DROP QUERY expr;
DROP QUERY aggs;
DROP QUERY aggs_k;
DROP QUERY cs;
-- ---------------------------------------------------------------------
-- from_json on a STRING column: fields and nested structs; an unknown
-- field is ignored; malformed text and a missing column give NULL fields
\set jdir :testdir/j
\! mkdir -p $TESTDIR/j
CREATE STREAM js (id INT, payload STRING) USING file OPTIONS (path :'jdir', format 'json');
CREATE QUERY fj TRIGGER AVAILABLE NOW AS
  SELECT id, p.a AS a, p.b AS b, p.c.d AS d, p.a + 1 AS a1
  FROM (SELECT id, from_json(payload, 'a INT, b STRING, c STRUCT<d: DOUBLE>') AS p FROM js) AS x;
CREATE QUERY fj_count OUTPUT MODE complete TRIGGER AVAILABLE NOW AS
  SELECT from_json(payload, 'b STRING').b AS b, count(*) AS n FROM js
  GROUP BY from_json(payload, 'b STRING').b;
AWAIT QUERY fj;
AWAIT QUERY fj_count;
\! cd $TESTDIR/j && printf '%s\n' '{"id":1,"payload":"{\"a\":5,\"b\":\"x\",\"c\":{\"d\":1.5}}"}' '{"id":2,"payload":"not json"}' '{"id":3,"payload":"{\"b\":\"x\",\"zz\":[1,2]}"}' '{"id":4}' '{"id":5,"payload":"{\"b\":\"y\",\"c\":{\"d\":-2}}"}' > .t && mv .t 1.json
START QUERY fj;
START QUERY fj_count;
AWAIT QUERY fj;
AWAIT QUERY fj_count;
SELECT * FROM fj ORDER BY id;
SELECT * FROM fj_count ORDER BY b NULLS LAST;
DROP QUERY fj;
DROP QUERY fj_count;
DROP STREAM js;
-- ---------------------------------------------------------------------
-- Several watermarked inputs: two streams with a 1-minute watermark, the
-- union of their event times counted per 5-minute window. Each operator
-- has its own watermark (max event time - delay, one that saw no data in
-- the run counts as 0); 'min' (the default) takes the smallest, 'max' the
-- largest; the query's watermark never goes back.
\set cdir :testdir/c
\set ddir :testdir/d
\set chk :testdir/chk_pin
\! mkdir -p $TESTDIR/c $TESTDIR/d
CREATE STREAM sc (k STRING, ts TIMESTAMP) USING file
  OPTIONS (path :'cdir', format 'csv', header 'true')
  WATERMARK ts DELAY OF INTERVAL '1 minute';
CREATE STREAM sd (k STRING, ts TIMESTAMP) USING file
  OPTIONS (path :'ddir', format 'csv', header 'true')
  WATERMARK ts DELAY OF INTERVAL '1 minute';
CREATE QUERY pmin OUTPUT MODE update TRIGGER AVAILABLE NOW AS
  SELECT window, count(*) AS n FROM (SELECT ts FROM sc UNION ALL SELECT ts FROM sd) AS u
  GROUP BY window(ts, '5 minutes');
CREATE QUERY pmax OUTPUT MODE update TRIGGER AVAILABLE NOW
  OPTIONS ('sluice.multipleWatermarkPolicy' 'max') AS
  SELECT window, count(*) AS n FROM (SELECT ts FROM sc UNION ALL SELECT ts FROM sd) AS u
  GROUP BY window(ts, '5 minutes');
-- 'max' too, with its own checkpoint, to be dropped and created again
-- without the option: the checkpoint keeps 'max'
CREATE QUERY pin OUTPUT MODE update TRIGGER AVAILABLE NOW CHECKPOINT :'chk'
  OPTIONS ('sluice.multipleWatermarkPolicy' 'max') AS
  SELECT window, count(*) AS n FROM (SELECT ts FROM sc UNION ALL SELECT ts FROM sd) AS u
  GROUP BY window(ts, '5 minutes');
AWAIT QUERY pmin;
AWAIT QUERY pmax;
AWAIT QUERY pin;
-- trigger 1: sc at 12:10 (its watermark 12:09), sd at 12:02 (12:01): the
-- query's watermark becomes 12:01 with 'min', 12:09 with 'max'
\! cd $TESTDIR/c && printf 'k,ts\nc,2024-05-01 12:10:00\n' > .t && mv .t 1.csv
\! cd $TESTDIR/d && printf 'k,ts\nd,2024-05-01 12:02:00\n' > .t && mv .t 1.csv
START QUERY pmin;
START QUERY pmax;
START QUERY pin;
AWAIT QUERY pmin;
AWAIT QUERY pmax;
AWAIT QUERY pin;
-- trigger 2: (12:03) falls in 12:00-12:05, which ends before the 'max'
-- watermark 12:09: late there, counted with 'min' (12:01)
\! cd $TESTDIR/c && printf 'k,ts\nc,2024-05-01 12:05:00\n' > .t && mv .t 2.csv
\! cd $TESTDIR/d && printf 'k,ts\nd,2024-05-01 12:03:00\n' > .t && mv .t 2.csv
START QUERY pmin;
START QUERY pmax;
START QUERY pin;
AWAIT QUERY pmin;
AWAIT QUERY pmax;
AWAIT QUERY pin;
SELECT window.start AS ws, n FROM pmin ORDER BY ws;
SELECT window.start AS ws, n FROM pmax ORDER BY ws;
SELECT window.start AS ws, n FROM pin ORDER BY ws;
-- DROP QUERY keeps a checkpoint the query named; the new query on it runs
-- with the pinned 'max' although it does not ask for it
DROP QUERY pin;
CREATE QUERY pin OUTPUT MODE update TRIGGER AVAILABLE NOW CHECKPOINT :'chk' AS
  SELECT window, count(*) AS n FROM (SELECT ts FROM sc UNION ALL SELECT ts FROM sd) AS u
  GROUP BY window(ts, '5 minutes');
AWAIT QUERY pin;
-- trigger 3: sc moves to 12:30 (12:29), sd to 12:12 (12:11): 'min' moves
-- the watermark to 12:11, 'max' to 12:29
\! cd $TESTDIR/c && printf 'k,ts\nc,2024-05-01 12:30:00\n' > .t && mv .t 3.csv
\! cd $TESTDIR/d && printf 'k,ts\nd,2024-05-01 12:12:00\n' > .t && mv .t 3.csv
START QUERY pmin;
START QUERY pmax;
START QUERY pin;
AWAIT QUERY pmin;
AWAIT QUERY pmax;
AWAIT QUERY pin;
-- trigger 4: (12:20) only in sd: late for 'max' (12:20-12:25 ends before
-- 12:29), counted for 'min'; sc saw nothing in this run, so with 'min' the
-- watermark does not move (it would be 0)
\! cd $TESTDIR/d && printf 'k,ts\nd,2024-05-01 12:20:00\n' > .t && mv .t 4.csv
START QUERY pmin;
START QUERY pmax;
START QUERY pin;
AWAIT QUERY pmin;
AWAIT QUERY pmax;
AWAIT QUERY pin;
SELECT window.start AS ws, n FROM pmin ORDER BY ws;
SELECT window.start AS ws, n FROM pmax ORDER BY ws;
SELECT window.start AS ws, n FROM pin ORDER BY ws;
\pset format unaligned
\pset tuples_only on
SHOW RECENT PROGRESS pmin \g :testdir/pmin.progress
SHOW RECENT PROGRESS pmax \g :testdir/pmax.progress
SHOW RECENT PROGRESS pin \g :testdir/pin.progress
\pset format aligned
\pset tuples_only off
\! for q in pmin pmax pin; do echo "-- $q"; grep '"addBatch"' $TESTDIR/$q.progress | sed -E 's/.*"batchId":([0-9]+),"batchDuration":[0-9]+,"numInputRows":([0-9]+),.*"watermark":"([^"]*)".*"numRowsTotal":([0-9]+),"numRowsUpdated":([0-9]+),.*"numRowsRemoved":([0-9]+),.*"numRowsDroppedByWatermark":([0-9]+),.*"numOutputRows":(-?[0-9]+).*/batch \1: input \2, watermark \3, state \4 (updated \5, removed \6), late \7, output \8/'; done
-- the checkpoint's offsets keep the policy of the first run
\! grep -ho '"sluice.multipleWatermarkPolicy":"[a-z]*"' $TESTDIR/chk_pin/offsets/* | sort | uniq -c | sed 's/^ *//'
CREATE QUERY bad OPTIONS ('sluice.multipleWatermarkPolicy' 'median') AS SELECT k FROM sc;
-- a window over the UNION ALL of two streams with different delays (1 and
-- 3 minutes) has the combined watermark: append mode runs and emits a
-- window once the watermark passes its end, update mode evicts its state
\set uadir :testdir/ua
\set ubdir :testdir/ub
\! mkdir -p $TESTDIR/ua $TESTDIR/ub
CREATE STREAM ua (ts TIMESTAMP) USING file OPTIONS (path :'uadir', format 'csv', header 'true')
  WATERMARK ts DELAY OF INTERVAL '1 minute';
CREATE STREAM ub (ts TIMESTAMP) USING file OPTIONS (path :'ubdir', format 'csv', header 'true')
  WATERMARK ts DELAY OF INTERVAL '3 minutes';
CREATE QUERY uappend TRIGGER AVAILABLE NOW AS
  SELECT window.start AS ws, count(*) AS n FROM (SELECT ts FROM ua UNION ALL SELECT ts FROM ub) AS u
  GROUP BY window(ts, '5 minutes');
CREATE QUERY uupdate OUTPUT MODE update TRIGGER AVAILABLE NOW AS
  SELECT window.start AS ws, count(*) AS n FROM (SELECT ts FROM ua UNION ALL SELECT ts FROM ub) AS u
  GROUP BY window(ts, '5 minutes');
AWAIT QUERY uappend;
AWAIT QUERY uupdate;
-- trigger 1: 12:01 in ua (its watermark 12:00), 12:02 in ub (11:59)
\! cd $TESTDIR/ua && printf 'ts\n2024-05-01 12:01:00\n' > .t && mv .t 1.csv
\! cd $TESTDIR/ub && printf 'ts\n2024-05-01 12:02:00\n' > .t && mv .t 1.csv
START QUERY uappend;
START QUERY uupdate;
AWAIT QUERY uappend;
AWAIT QUERY uupdate;
SELECT * FROM uappend ORDER BY ws;
-- trigger 2: 12:12 in ua (12:11), 12:14 in ub (12:11): 12:00-12:05 is final
\! cd $TESTDIR/ua && printf 'ts\n2024-05-01 12:12:00\n' > .t && mv .t 2.csv
\! cd $TESTDIR/ub && printf 'ts\n2024-05-01 12:14:00\n' > .t && mv .t 2.csv
START QUERY uappend;
START QUERY uupdate;
AWAIT QUERY uappend;
AWAIT QUERY uupdate;
SELECT * FROM uappend ORDER BY ws;
SELECT * FROM uupdate ORDER BY ws;
\pset format unaligned
\pset tuples_only on
SHOW RECENT PROGRESS uupdate \g :testdir/uupdate.progress
\pset format aligned
\pset tuples_only off
\! grep '"addBatch"' $TESTDIR/uupdate.progress | sed -E 's/.*"batchId":([0-9]+),"batchDuration":[0-9]+,"numInputRows":([0-9]+),.*"watermark":"([^"]*)".*"numRowsTotal":([0-9]+),"numRowsUpdated":([0-9]+),.*"numRowsRemoved":([0-9]+),.*"numRowsDroppedByWatermark":([0-9]+),.*"numOutputRows":(-?[0-9]+).*/batch \1: input \2, watermark \3, state \4 (updated \5, removed \6), late \7, output \8/'
DROP QUERY uappend;
DROP QUERY uupdate;
DROP STREAM ua;
DROP STREAM ub;
DROP QUERY pmin;
DROP QUERY pmax;
DROP QUERY pin;
DROP STREAM sa;
DROP STREAM sb;
DROP STREAM sc;
DROP STREAM sd;
SHOW QUERIES;
