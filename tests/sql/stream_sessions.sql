-- Session windows (session_window(ts, gap)), checked against Spark's
-- semantics: a row opens the session [ts, ts + gap); sessions of one key
-- that overlap or touch merge into [first start, last end). In batch
-- statements over a table, and on a stream in append mode (a session is
-- emitted once, when the watermark passes its end) and complete mode;
-- late rows dropped by their session's end; a late-arriving row that
-- bridges two stored sessions; per-row gaps; the refusals of Spark's
-- checker; state surviving STOP/START.
\set VERBOSITY verbose
CREATE TABLE clicks (u STRING, ts TIMESTAMP, v INT);
INSERT INTO clicks VALUES
  ('a', '2024-01-01 10:00:00', 1), ('a', '2024-01-01 10:03:00', 2),
  ('a', '2024-01-01 10:08:00', 3), ('a', '2024-01-01 10:13:01', 4),
  ('b', '2024-01-01 10:01:00', 5), ('b', NULL, 6), (NULL, '2024-01-01 10:02:00', 7);
-- a: 10:00-10:05, 10:03-10:08 and 10:08-10:13 overlap or touch: one
-- session; 10:13:01 starts a second after it ends: a second session. NULL times
-- have no session and are dropped; a NULL key is a key.
SELECT u, session_window.start AS s, session_window.end AS e, count(*) AS n, sum(v) AS sv,
       first(v) AS fv, last(v) AS lv
FROM clicks GROUP BY u, session_window(ts, '5 minutes') ORDER BY u NULLS LAST, s;
-- the gap as an INTERVAL; the session as a struct column
SELECT u, session_window(ts, INTERVAL '10 minutes') AS sw, count(*) AS n
FROM clicks WHERE u IS NOT NULL GROUP BY 1, 2 ORDER BY u, sw;
-- sessions over the whole table: no other key (allowed in batch statements)
SELECT session_window.start AS s, session_window.end AS e, count(*) AS n
FROM clicks GROUP BY session_window(ts, '3 minutes') ORDER BY s;
-- a per-row gap: rows whose gap is NULL or not positive have no session
SELECT u, session_window.start AS s, session_window.end AS e, count(*) AS n
FROM clicks
GROUP BY u, session_window(ts, CASE WHEN v = 3 THEN NULL WHEN v = 4 THEN '-1 minute'
                                    WHEN u = 'a' THEN '2 minutes' ELSE '1 hour' END)
ORDER BY u NULLS LAST, s;
-- HAVING and ORDER BY on the session
SELECT u, session_window.end - session_window.start AS length, count(*) AS n
FROM clicks GROUP BY u, session_window(ts, '5 minutes')
HAVING count(*) > 1 ORDER BY length DESC;
-- outside GROUP BY: each row's initial session; a row without one (b's
-- NULL time, v 6) is left out, as in Spark
SELECT v, session_window(ts, '1 minute') AS sw FROM clicks WHERE v <= 2 OR u = 'b' ORDER BY v;
-- errors
SELECT u, count(*) FROM clicks GROUP BY u, session_window(ts, '0 minutes');
SELECT u, count(*) FROM clicks GROUP BY u, session_window(ts, 'soon');
SELECT u, count(*) FROM clicks GROUP BY u, session_window(ts, NULL);
SELECT u, count(*) FROM clicks GROUP BY u, session_window(v, '1 minute');
SELECT u, count(*) FROM clicks GROUP BY u, session_window(ts, '5 minutes'), window(ts, '10 minutes');
SELECT u, count(DISTINCT v) FROM clicks GROUP BY u, session_window(ts, '5 minutes');
--
-- On a stream. Each trigger's input is one file written before START
-- QUERY, so batches are deterministic.
\set sdir :testdir/sessions
\! mkdir -p $TESTDIR/sessions
CREATE STREAM ev (u STRING, ts TIMESTAMP, v INT) USING file
  OPTIONS (path :'sdir', format 'csv', header 'true');
-- Spark's checker, in sluice's words
CREATE QUERY x OUTPUT MODE update AS
  SELECT u, count(*) FROM ev WATERMARK ts DELAY OF INTERVAL '1 minute'
  GROUP BY u, session_window(ts, '5 minutes');
CREATE QUERY x AS
  SELECT count(*) FROM ev WATERMARK ts DELAY OF INTERVAL '1 minute'
  GROUP BY session_window(ts, '5 minutes');
CREATE QUERY x AS SELECT u, count(*) FROM ev GROUP BY u, session_window(ts, '5 minutes');
EXPLAIN CREATE QUERY x AS
  SELECT u, count(*) AS n FROM ev WATERMARK ts DELAY OF INTERVAL '1 minute'
  GROUP BY u, session_window(ts, '5 minutes');
CREATE QUERY sa TRIGGER AVAILABLE NOW AS
  SELECT u, session_window.start AS s, session_window.end AS e, count(*) AS n, sum(v) AS sv,
         approx_count_distinct(v % 2) AS parities
  FROM ev WATERMARK ts DELAY OF INTERVAL '1 minute'
  GROUP BY u, session_window(ts, '5 minutes');
CREATE QUERY sc OUTPUT MODE complete TRIGGER AVAILABLE NOW AS
  SELECT u, session_window.start AS s, session_window.end AS e, count(*) AS n, sum(v) AS sv,
         first(v) AS fv, last(v) AS lv
  FROM ev WATERMARK ts DELAY OF INTERVAL '1 minute'
  GROUP BY u, session_window(ts, '5 minutes');
AWAIT QUERY sa;
AWAIT QUERY sc;
-- trigger 1: a 10:00 and 10:10 (two sessions), b 10:01; the watermark
-- becomes 10:09, so append's no-data batch emits a 10:00-10:05 and
-- b 10:01-10:06
\! cd $TESTDIR/sessions && printf 'u,ts,v\na,2024-01-01 10:00:00,1\na,2024-01-01 10:10:00,2\nb,2024-01-01 10:01:00,3\n' > .t && mv .t 1.csv
START QUERY sa;
START QUERY sc;
AWAIT QUERY sa;
AWAIT QUERY sc;
SELECT * FROM sa ORDER BY u, s;
SELECT * FROM sc ORDER BY u, s;
-- trigger 2: a 10:05 bridges 10:00-10:05 and 10:10-10:15 (in complete mode,
-- where both are still in state: one session, its first() the earliest
-- row); in append, 10:00-10:05 was already emitted, so it extends only
-- 10:10-10:15. b 09:00 ends at 09:05, before append's watermark 10:09:
-- late. Complete mode ran no no-data batch, so its late-row watermark is
-- still that of batch 0 (Spark 3.4+: the previous batch's) and b 09:00
-- counts there. c 10:20 moves the watermark to 10:19.
\! cd $TESTDIR/sessions && printf 'u,ts,v\na,2024-01-01 10:05:00,10\nb,2024-01-01 09:00:00,100\nc,2024-01-01 10:20:00,7\n' > .t && mv .t 2.csv
START QUERY sa;
START QUERY sc;
AWAIT QUERY sa;
AWAIT QUERY sc;
SELECT * FROM sa ORDER BY u, s;
SELECT * FROM sc ORDER BY u, s;
-- trigger 3: c 10:24 extends c's open session (state survived the STOP and
-- START). b 10:14 ends at 10:19, the watermark: late in append; complete
-- mode's late-row watermark is batch 1's, 10:09, so it counts there.
\! cd $TESTDIR/sessions && printf 'u,ts,v\nc,2024-01-01 10:24:00,8\nb,2024-01-01 10:14:00,9\nd,2024-01-01 11:00:00,1\n' > .t && mv .t 3.csv
START QUERY sa;
START QUERY sc;
AWAIT QUERY sa;
AWAIT QUERY sc;
SELECT * FROM sa ORDER BY u, s;
SELECT * FROM sc ORDER BY u, s;
-- Per executed batch: the watermark it used, the state rows after it, the
-- late rows it dropped and the rows it emitted.
\pset format unaligned
\pset tuples_only on
SHOW RECENT PROGRESS sa \g :testdir/sa.progress
SHOW RECENT PROGRESS sc \g :testdir/sc.progress
\pset format aligned
\pset tuples_only off
\! grep '"addBatch"' $TESTDIR/sa.progress | sed -E 's/.*"batchId":([0-9]+),"batchDuration":[0-9]+,"numInputRows":([0-9]+),.*"watermark":"([^"]*)".*"operatorName":"([^"]*)","numRowsTotal":([0-9]+),"numRowsUpdated":([0-9]+),.*"numRowsRemoved":([0-9]+),.*"numRowsDroppedByWatermark":([0-9]+),.*"numOutputRows":(-?[0-9]+).*/batch \1: input \2, watermark \3, \4 state \5 (updated \6, removed \7), late \8, output \9/'
\! grep '"addBatch"' $TESTDIR/sc.progress | sed -E 's/.*"batchId":([0-9]+),"batchDuration":[0-9]+,"numInputRows":([0-9]+),.*"watermark":"([^"]*)".*"numRowsTotal":([0-9]+),"numRowsUpdated":([0-9]+),.*"numRowsRemoved":([0-9]+),.*"numRowsDroppedByWatermark":([0-9]+),.*"numOutputRows":(-?[0-9]+).*/batch \1: input \2, watermark \3, state \4 (updated \5, removed \6), late \7, output \8/'
DROP QUERY sa;
DROP QUERY sc;
DROP STREAM ev;
