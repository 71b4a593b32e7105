-- Joins on streams, checked against Spark's semantics: stream-static inner
-- and left joins that see the table's changes from the next batch on;
-- stream-stream inner joins matching rows across batches; left, right and
-- full outer joins with watermarks and a time bound, whose null-extended
-- rows appear exactly once, only after the watermark passes the bound;
-- late rows dropped on either side; the checks that refuse what cannot
-- run incrementally; the one-millisecond rule of non-strict bounds; and an
-- aggregation after a join, which gets the join's output watermark.
--
-- Each trigger's input is written before START QUERY, so batches are
-- deterministic. Event times stay off the exact eviction bounds, except in
-- the section on the one-millisecond rule for BETWEEN near the end.
\set VERBOSITY verbose
\set idir :testdir/imp
\set cdir :testdir/clk
\! mkdir -p $TESTDIR/imp $TESTDIR/clk
-- ---------------------------------------------------------------------
-- Stream-static joins: impressions joined with a catalog table of ads.
CREATE STREAM imp (ad STRING, it TIMESTAMP) USING file
  OPTIONS (path :'idir', format 'csv', header 'true')
  WATERMARK it DELAY OF INTERVAL '5 minutes';
CREATE TABLE ads (ad STRING, campaign STRING);
INSERT INTO ads VALUES ('a', 'spring'), ('b', 'spring'), ('c', 'autumn');
CREATE QUERY si TRIGGER AVAILABLE NOW AS
  SELECT i.ad, i.it, a.campaign FROM imp i JOIN ads a ON i.ad = a.ad;
CREATE QUERY sl TRIGGER AVAILABLE NOW AS
  SELECT i.ad, i.it, a.campaign FROM imp i LEFT JOIN ads a ON i.ad = a.ad;
-- the stream on the preserved side of a RIGHT join is a LEFT join
CREATE QUERY sr TRIGGER AVAILABLE NOW AS
  SELECT i.ad, i.it, a.campaign FROM ads a RIGHT JOIN imp i ON a.ad = i.ad;
-- a condition without an equality (nested loop over the table)
CREATE QUERY sn TRIGGER AVAILABLE NOW AS
  SELECT i.ad, a.ad AS other FROM imp i JOIN ads a ON a.ad > i.ad;
-- an aggregation over the joined rows
CREATE QUERY sc OUTPUT MODE update TRIGGER AVAILABLE NOW AS
  SELECT coalesce(a.campaign, '?') AS campaign, count(*) AS n
  FROM imp i LEFT JOIN ads a ON i.ad = a.ad GROUP BY coalesce(a.campaign, '?');
AWAIT QUERY si;
AWAIT QUERY sl;
AWAIT QUERY sr;
AWAIT QUERY sn;
AWAIT QUERY sc;
\! cd $TESTDIR/imp && printf 'ad,it\na,2024-05-01 12:00:00\nb,2024-05-01 12:01:10\nd,2024-05-01 12:02:00\n' > .t && mv .t s1.csv
START QUERY si;
START QUERY sl;
START QUERY sr;
START QUERY sn;
START QUERY sc;
AWAIT QUERY si;
AWAIT QUERY sl;
AWAIT QUERY sr;
AWAIT QUERY sn;
AWAIT QUERY sc;
SELECT * FROM si ORDER BY it;
SELECT * FROM sl ORDER BY it;
SELECT * FROM sr ORDER BY it;
SELECT * FROM sn ORDER BY ad, other;
SELECT * FROM sc ORDER BY campaign;
-- the table changes between batches: the next batch sees it (d now has a
-- campaign, b moved to another one); rows already emitted are not revised
INSERT INTO ads VALUES ('d', 'winter');
DELETE FROM ads WHERE ad = 'b';
INSERT INTO ads VALUES ('b', 'summer');
\! cd $TESTDIR/imp && printf 'ad,it\nb,2024-05-01 12:03:00\nd,2024-05-01 12:04:00\ne,2024-05-01 12:05:00\n' > .t && mv .t s2.csv
START QUERY si;
START QUERY sl;
START QUERY sr;
START QUERY sn;
START QUERY sc;
AWAIT QUERY si;
AWAIT QUERY sl;
AWAIT QUERY sr;
AWAIT QUERY sn;
AWAIT QUERY sc;
SELECT * FROM si ORDER BY it;
SELECT * FROM sl ORDER BY it;
SELECT * FROM sr ORDER BY it;
SELECT * FROM sn ORDER BY ad, other;
SELECT * FROM sc ORDER BY campaign;
-- a late impression (at or before the watermark 12:00) goes through: a
-- stateless join does not drop late rows
\! cd $TESTDIR/imp && printf 'ad,it\nc,2024-05-01 11:00:00\n' > .t && mv .t s3.csv
START QUERY sl;
AWAIT QUERY sl;
SELECT * FROM sl ORDER BY it;
-- the checks: a static table cannot be the preserved side of an outer join
-- with a stream, and a stream-static join needs no watermark
CREATE QUERY bad AS SELECT i.ad, a.campaign FROM ads a LEFT JOIN imp i ON a.ad = i.ad;
CREATE QUERY bad AS SELECT i.ad, a.campaign FROM imp i RIGHT JOIN ads a ON a.ad = i.ad;
CREATE QUERY bad AS SELECT i.ad, a.campaign FROM imp i FULL JOIN ads a ON a.ad = i.ad;
DROP QUERY si;
DROP QUERY sl;
DROP QUERY sr;
DROP QUERY sn;
DROP QUERY sc;
DROP TABLE ads;
\! rm $TESTDIR/imp/*.csv
-- ---------------------------------------------------------------------
-- Stream-stream joins: impressions and clicks, both with a 5-minute
-- watermark; the query's watermark is the smaller of the two (policy min).
-- A click matches an impression of its ad within the next 10 minutes.
CREATE STREAM clk (ad STRING, ct TIMESTAMP) USING file
  OPTIONS (path :'cdir', format 'csv', header 'true')
  WATERMARK ct DELAY OF INTERVAL '5 minutes';
CREATE QUERY ji TRIGGER AVAILABLE NOW AS
  SELECT i.ad, i.it, c.ad AS cad, c.ct FROM imp i JOIN clk c
  ON i.ad = c.ad AND c.ct BETWEEN i.it AND i.it + INTERVAL '10 minutes';
CREATE QUERY jl TRIGGER AVAILABLE NOW AS
  SELECT i.ad, i.it, c.ad AS cad, c.ct FROM imp i LEFT JOIN clk c
  ON i.ad = c.ad AND c.ct BETWEEN i.it AND i.it + INTERVAL '10 minutes';
CREATE QUERY jr TRIGGER AVAILABLE NOW AS
  SELECT i.ad, i.it, c.ad AS cad, c.ct FROM imp i RIGHT JOIN clk c
  ON i.ad = c.ad AND c.ct BETWEEN i.it AND i.it + INTERVAL '10 minutes';
CREATE QUERY jf TRIGGER AVAILABLE NOW AS
  SELECT i.ad, i.it, c.ad AS cad, c.ct FROM imp i FULL JOIN clk c
  ON i.ad = c.ad AND c.ct BETWEEN i.it AND i.it + INTERVAL '10 minutes';
-- the same input without watermarks, joined on the ad only: no bound, no
-- late rows, every pair across all batches (state is never evicted)
CREATE STREAM imp0 (ad STRING, it TIMESTAMP) USING file OPTIONS (path :'idir', format 'csv', header 'true');
CREATE STREAM clk0 (ad STRING, ct TIMESTAMP) USING file OPTIONS (path :'cdir', format 'csv', header 'true');
CREATE QUERY jk TRIGGER AVAILABLE NOW AS
  SELECT i.ad, i.it, c.ct FROM imp0 i JOIN clk0 c ON i.ad = c.ad;
-- an equality of the event times is a key: state evicted by key time
CREATE QUERY je TRIGGER AVAILABLE NOW AS
  SELECT i.ad, i.it, c.ct FROM imp i LEFT JOIN clk c ON i.ad = c.ad AND i.it = c.ct;
AWAIT QUERY ji;
AWAIT QUERY jl;
AWAIT QUERY jr;
AWAIT QUERY jf;
AWAIT QUERY jk;
AWAIT QUERY je;
-- trigger 1: impressions a b c x, clicks a (matches a), z (no impression),
-- c at 12:19:40 (too late for c's 12:02-12:12). Watermarks after it: imp
-- 11:58:30, clk 12:14:40, the query's 11:58:30.
\! cd $TESTDIR/imp && printf 'ad,it\na,2024-05-01 12:00:00\nb,2024-05-01 12:01:10\nc,2024-05-01 12:02:00\nx,2024-05-01 12:03:30\n' > .t && mv .t 1.csv
\! cd $TESTDIR/clk && printf 'ad,ct\na,2024-05-01 12:04:00\nz,2024-05-01 12:05:30\nc,2024-05-01 12:19:40\n' > .t && mv .t 1.csv
START QUERY ji;
START QUERY jl;
START QUERY jr;
START QUERY jf;
START QUERY jk;
START QUERY je;
AWAIT QUERY ji;
AWAIT QUERY jl;
AWAIT QUERY jr;
AWAIT QUERY jf;
AWAIT QUERY jk;
AWAIT QUERY je;
SELECT * FROM ji ORDER BY it, ct;
SELECT * FROM jl ORDER BY it, ct;
SELECT * FROM jr ORDER BY ct, it;
SELECT * FROM jf ORDER BY it, ct;
-- trigger 2: b's click arrives 8 minutes later and matches the b
-- impression kept in state; d's click (12:25) is out of d's 12:10:20-12:20:20.
-- Watermark after it: min(12:11, 12:20) = 12:11. The no-data batch then
-- evicts clicks with ct <= 12:11: z was never matched, so the right and
-- full joins emit it with a NULL impression, once.
\! cd $TESTDIR/imp && printf 'ad,it\nd,2024-05-01 12:10:20\ne,2024-05-01 12:16:00\n' > .t && mv .t 2.csv
\! cd $TESTDIR/clk && printf 'ad,ct\nb,2024-05-01 12:09:00\nd,2024-05-01 12:25:00\n' > .t && mv .t 2.csv
START QUERY ji;
START QUERY jl;
START QUERY jr;
START QUERY jf;
START QUERY jk;
START QUERY je;
AWAIT QUERY ji;
AWAIT QUERY jl;
AWAIT QUERY jr;
AWAIT QUERY jf;
AWAIT QUERY jk;
AWAIT QUERY je;
SELECT * FROM ji ORDER BY it, ct;
SELECT * FROM jl ORDER BY it, ct;
SELECT * FROM jr ORDER BY ct, it;
SELECT * FROM jf ORDER BY it, ct;
-- trigger 3, against the watermark 12:11: (late1 12:05) and the click
-- (x 12:11, at the watermark) are late and dropped, although the click
-- would have matched x; e's click matches. Each START QUERY is a new run,
-- and as in Spark's WatermarkTracker the per-stream watermarks restart
-- from that run's data (only the query's watermark is kept): imp 12:25,
-- clk 12:15:30 (its newest click is 12:20:30), so the watermark moves to
-- min = 12:15:30. The no-data batch evicts impressions with it + 10
-- minutes <= 12:15:30 (c and x unmatched: the left and full joins emit
-- them) and clicks with ct <= 12:15:30 (c's click, 12:19:40, stays).
\! cd $TESTDIR/imp && printf 'ad,it\nf,2024-05-01 12:30:00\nlate1,2024-05-01 12:05:00\n' > .t && mv .t 3.csv
\! cd $TESTDIR/clk && printf 'ad,ct\ne,2024-05-01 12:20:30\nx,2024-05-01 12:11:00\n' > .t && mv .t 3.csv
START QUERY ji;
START QUERY jl;
START QUERY jr;
START QUERY jf;
START QUERY jk;
START QUERY je;
AWAIT QUERY ji;
AWAIT QUERY jl;
AWAIT QUERY jr;
AWAIT QUERY jf;
AWAIT QUERY jk;
AWAIT QUERY je;
SELECT * FROM ji ORDER BY it, ct;
SELECT * FROM jl ORDER BY it, ct;
SELECT * FROM jr ORDER BY ct, it;
SELECT * FROM jf ORDER BY it, ct;
-- trigger 4: f's click matches; both streams move to 13:30, the watermark
-- to 13:25: d's impression, c's click and d's click, all unmatched, come
-- out null-extended; the rows of 13:30 stay in state
\! cd $TESTDIR/imp && printf 'ad,it\nzz,2024-05-01 13:30:00\n' > .t && mv .t 4.csv
\! cd $TESTDIR/clk && printf 'ad,ct\nf,2024-05-01 12:35:00\nzz2,2024-05-01 13:30:00\n' > .t && mv .t 4.csv
START QUERY ji;
START QUERY jl;
START QUERY jr;
START QUERY jf;
START QUERY jk;
START QUERY je;
AWAIT QUERY ji;
AWAIT QUERY jl;
AWAIT QUERY jr;
AWAIT QUERY jf;
AWAIT QUERY jk;
AWAIT QUERY je;
SELECT * FROM ji ORDER BY it, ct;
SELECT * FROM jl ORDER BY it, ct;
SELECT * FROM jr ORDER BY ct, it;
SELECT * FROM jf ORDER BY it, ct;
-- every null-extended row exactly once
SELECT ad, cad, count(*) AS n FROM jf GROUP BY ad, cad HAVING count(*) > 1;
SELECT * FROM jk ORDER BY it, ct;
-- je: no impression and click have equal times; every impression up to
-- the watermark 13:25 is emitted once with NULL
SELECT * FROM je ORDER BY it;
-- Per executed batch of the full and left joins: the watermark it used,
-- the rows in state (both sides), the rows appended to state (Spark's
-- numRowsUpdated: every non-late input row, 7, 4, 2 and 3 in the data
-- batches; rewriting a stored row's matched flag when it first joins does
-- not count), the rows evicted, late rows dropped (trigger 3: one per
-- side) and rows emitted; null-extended rows come out of the no-data
-- batches.
\pset format unaligned
\pset tuples_only on
SHOW RECENT PROGRESS jf \g :testdir/jf.progress
SHOW RECENT PROGRESS jl \g :testdir/jl.progress
\pset format aligned
\pset tuples_only off
\! for q in jf jl; do echo "-- $q"; grep '"addBatch"' $TESTDIR/$q.progress | sed -E 's/.*"batchId":([0-9]+),"batchDuration":[0-9]+,"numInputRows":([0-9]+),.*"watermark":"([^"]*)".*"operatorName":"([a-zA-Z]+)","numRowsTotal":([0-9]+),"numRowsUpdated":([0-9]+),.*"numRowsRemoved":([0-9]+),.*"numRowsDroppedByWatermark":([0-9]+),.*"numOutputRows":(-?[0-9]+).*/batch \1: input \2, watermark \3, \4 state \5 (updated \6, removed \7), late \8, output \9/'; done
-- ---------------------------------------------------------------------
-- The checks. Outer joins of two streams need watermarks and a bound.
CREATE QUERY bad AS SELECT i.ad, c.ct FROM imp0 i LEFT JOIN clk0 c
  ON i.ad = c.ad AND c.ct BETWEEN i.it AND i.it + INTERVAL '10 minutes';
CREATE QUERY bad AS SELECT i.ad, c.ct FROM imp i LEFT JOIN clk c ON i.ad = c.ad;
CREATE QUERY bad AS SELECT i.ad, c.ct FROM imp i FULL JOIN clk c ON i.ad = c.ad;
-- a left join's state is bounded by the right side's watermark: without it
-- the left rows would wait forever
CREATE QUERY bad AS SELECT i.ad, c.ct FROM imp i LEFT JOIN clk0 c
  ON i.ad = c.ad AND c.ct BETWEEN i.it AND i.it + INTERVAL '10 minutes';
CREATE QUERY bad AS SELECT i.ad, c.ct FROM imp0 i RIGHT JOIN clk c
  ON i.ad = c.ad AND c.ct BETWEEN i.it AND i.it + INTERVAL '10 minutes';
-- As in Spark (3.5), a watermark on the other side of the preserved one is
-- enough, with a condition bounding the preserved side's time by the
-- watermarked one: LEFT with the watermark on the right, RIGHT with it on
-- the left, FULL with it on either. But, as in Spark, the state of a side
-- without a watermark of its own is never evicted: these queries emit
-- their matches, never a row without one (EXPLAIN shows no eviction).
EXPLAIN CREATE QUERY ok AS SELECT i.ad, c.ct FROM imp0 i LEFT JOIN clk c
  ON i.ad = c.ad AND c.ct BETWEEN i.it AND i.it + INTERVAL '10 minutes';
EXPLAIN CREATE QUERY ok AS SELECT i.ad, c.ct FROM imp i RIGHT JOIN clk0 c
  ON i.ad = c.ad AND c.ct BETWEEN i.it AND i.it + INTERVAL '10 minutes';
EXPLAIN CREATE QUERY ok AS SELECT i.ad, c.ct FROM imp0 i FULL JOIN clk c
  ON i.ad = c.ad AND c.ct BETWEEN i.it AND i.it + INTERVAL '10 minutes';
EXPLAIN CREATE QUERY ok AS SELECT i.ad, c.ct FROM imp i FULL JOIN clk0 c
  ON i.ad = c.ad AND c.ct BETWEEN i.it AND i.it + INTERVAL '10 minutes';
-- a one-sided bound is enough when it bounds the preserved side: a left
-- row cannot match a click more than 10 minutes after it ...
EXPLAIN CREATE QUERY ok AS SELECT i.ad, c.ct FROM imp i LEFT JOIN clk c
  ON i.ad = c.ad AND c.ct < i.it + INTERVAL '10 minutes';
-- ... but a bound from the other direction is not (it bounds the clicks)
CREATE QUERY bad AS SELECT i.ad, c.ct FROM imp i LEFT JOIN clk c
  ON i.ad = c.ad AND c.ct > i.it;
-- a FULL join with no watermark at all
CREATE QUERY bad AS SELECT i.ad, c.ct FROM imp0 i FULL JOIN clk0 c
  ON i.ad = c.ad AND c.ct BETWEEN i.it AND i.it + INTERVAL '10 minutes';
-- a watermarked join key bounds both sides, on whichever side it is
EXPLAIN CREATE QUERY ok AS SELECT i.ad, c.ct FROM imp0 i FULL JOIN clk c
  ON i.ad = c.ad AND i.it = c.ct;
-- Joins of two streams run only in append mode.
CREATE QUERY bad OUTPUT MODE update AS SELECT i.ad, c.ct FROM imp i JOIN clk c ON i.ad = c.ad;
CREATE QUERY bad OUTPUT MODE complete AS
  SELECT i.ad, count(*) AS n FROM imp i JOIN clk c ON i.ad = c.ad GROUP BY i.ad;
-- EXPLAIN of an inner join without watermarks: state is never evicted
EXPLAIN CREATE QUERY x AS SELECT i.ad, i.it, c.ct FROM imp0 i JOIN clk0 c ON i.ad = c.ad;
-- ---------------------------------------------------------------------
-- The one-millisecond rule. For BETWEEN and the other non-strict bounds
-- (<=, >=) Spark lowers each side's state watermark by 1 ms: with c.ct
-- BETWEEN i.it AND i.it + 10 minutes, impressions are evicted at it <=
-- watermark - 10 minutes - 1 ms and clicks at ct <= watermark - 1 ms, so an
-- unmatched impression exactly 10 minutes behind the watermark stays one
-- batch longer; strict bounds (<, >) keep their value (see above).
\set i3dir :testdir/imp3
\set c3dir :testdir/clk3
\! mkdir -p $TESTDIR/imp3 $TESTDIR/clk3
CREATE STREAM imp3 (ad STRING, it TIMESTAMP) USING file
  OPTIONS (path :'i3dir', format 'csv', header 'true')
  WATERMARK it DELAY OF INTERVAL '5 minutes';
CREATE STREAM clk3 (ad STRING, ct TIMESTAMP) USING file
  OPTIONS (path :'c3dir', format 'csv', header 'true')
  WATERMARK ct DELAY OF INTERVAL '5 minutes';
CREATE QUERY jb TRIGGER AVAILABLE NOW AS
  SELECT i.ad, i.it, c.ad AS cad, c.ct FROM imp3 i LEFT JOIN clk3 c
  ON i.ad = c.ad AND c.ct BETWEEN i.it AND i.it + INTERVAL '10 minutes';
AWAIT QUERY jb;
EXPLAIN CREATE QUERY x AS
  SELECT i.ad, i.it, c.ad AS cad, c.ct FROM imp3 i LEFT JOIN clk3 c
  ON i.ad = c.ad AND c.ct BETWEEN i.it AND i.it + INTERVAL '10 minutes';
-- of two bounds of the same side, the lower one counts (here the clicks':
-- ct >= it gives watermark - 1 ms, ct > it + 1 minute watermark + 1 minute)
EXPLAIN CREATE QUERY x AS
  SELECT i.ad, i.it, c.ad AS cad, c.ct FROM imp3 i LEFT JOIN clk3 c
  ON i.ad = c.ad AND c.ct >= i.it AND c.ct > i.it + INTERVAL '1 minute'
  AND c.ct <= i.it + INTERVAL '10 minutes';
-- trigger 1: impressions k 12:00 and m 12:15, a click m2 12:15 that
-- matches nothing. The watermark moves to 12:10: k is exactly 10 minutes
-- behind it and stays in state.
\! cd $TESTDIR/imp3 && printf 'ad,it\nk,2024-05-01 12:00:00\nm,2024-05-01 12:15:00\n' > .t && mv .t 1.csv
\! cd $TESTDIR/clk3 && printf 'ad,ct\nm2,2024-05-01 12:15:00\n' > .t && mv .t 1.csv
START QUERY jb;
AWAIT QUERY jb;
SELECT * FROM jb ORDER BY it;
-- trigger 2: n at 12:16 on both streams moves the watermark to 12:11, and
-- k comes out without a match
\! cd $TESTDIR/imp3 && printf 'ad,it\nn,2024-05-01 12:16:00\n' > .t && mv .t 2.csv
\! cd $TESTDIR/clk3 && printf 'ad,ct\nn2,2024-05-01 12:16:00\n' > .t && mv .t 2.csv
START QUERY jb;
AWAIT QUERY jb;
SELECT * FROM jb ORDER BY it;
-- ---------------------------------------------------------------------
-- An aggregation after a stream-stream join. Spark (3.5) propagates the
-- watermark through stateful operators: the join can still emit a row
-- whose impression is as old as its left state watermark (the query's
-- watermark - 10 minutes - 1 ms), so that, not the query's watermark, is
-- what the aggregation above it gets, both for late rows (from the
-- previous batch's watermark) and for closing windows (from this batch's).
\set i2dir :testdir/imp2
\set c2dir :testdir/clk2
\! mkdir -p $TESTDIR/imp2 $TESTDIR/clk2
CREATE STREAM imp2 (ad STRING, it TIMESTAMP) USING file
  OPTIONS (path :'i2dir', format 'csv', header 'true')
  WATERMARK it DELAY OF INTERVAL '5 minutes';
CREATE STREAM clk2 (ad STRING, ct TIMESTAMP) USING file
  OPTIONS (path :'c2dir', format 'csv', header 'true')
  WATERMARK ct DELAY OF INTERVAL '5 minutes';
CREATE QUERY jagg TRIGGER AVAILABLE NOW AS
  SELECT window.start AS ws, count(*) AS n
  FROM (SELECT i.ad, i.it FROM imp2 i JOIN clk2 c
        ON i.ad = c.ad AND c.ct BETWEEN i.it AND i.it + INTERVAL '10 minutes') AS j
  GROUP BY window(it, '10 minutes');
AWAIT QUERY jagg;
-- trigger 1: impressions w 12:21, x 12:28, y 12:40 and clicks w 12:22,
-- y 12:40: w and y match, x waits for its click. The watermark moves to
-- 12:35, the aggregation's to 12:24:59.999: window 12:20-12:30 stays open.
\! cd $TESTDIR/imp2 && printf 'ad,it\nw,2024-05-01 12:21:00\nx,2024-05-01 12:28:00\ny,2024-05-01 12:40:00\n' > .t && mv .t 1.csv
\! cd $TESTDIR/clk2 && printf 'ad,ct\nw,2024-05-01 12:22:00\ny,2024-05-01 12:40:00\n' > .t && mv .t 1.csv
START QUERY jagg;
AWAIT QUERY jagg;
SELECT * FROM jagg ORDER BY ws;
-- trigger 2: x's click (12:36) matches x (12:28). The joined row is not
-- late for the aggregation (window end 12:30 > 12:24:59.999), though it
-- would be for the query's watermark 12:35.
\! cd $TESTDIR/clk2 && printf 'ad,ct\nx,2024-05-01 12:36:00\n' > .t && mv .t 2.csv
START QUERY jagg;
AWAIT QUERY jagg;
SELECT * FROM jagg ORDER BY ws;
-- trigger 3: zz at 13:30 on both streams moves the watermark to 13:25 and
-- the aggregation's to 13:14:59.999: windows 12:20 (w and x) and 12:40 (y)
-- are final. Spark: (12:20, 2) and (12:40, 1).
\! cd $TESTDIR/imp2 && printf 'ad,it\nzz,2024-05-01 13:30:00\n' > .t && mv .t 3.csv
\! cd $TESTDIR/clk2 && printf 'ad,ct\nzz,2024-05-01 13:30:00\n' > .t && mv .t 3.csv
START QUERY jagg;
AWAIT QUERY jagg;
SELECT * FROM jagg ORDER BY ws;
-- per executed batch: the query's watermark, and the rows in state and the
-- late rows dropped of the join and of the aggregation (none)
\pset format unaligned
\pset tuples_only on
SHOW RECENT PROGRESS jagg \g :testdir/jagg.progress
\pset format aligned
\pset tuples_only off
\! grep '"addBatch"' $TESTDIR/jagg.progress | while read -r l; do printf '%s\n' "$l" | grep -oE '"batchId":[0-9]+|"watermark":"[^"]*"|"operatorName":"[a-zA-Z]+"|"numRowsTotal":[0-9]+|"numRowsDroppedByWatermark":[0-9]+' | sed -E 's/^"([a-zA-Z]+)":"?([^"]*)"?$/\1=\2/' | paste -sd' ' -; done
DROP QUERY jb;
DROP QUERY jagg;
DROP STREAM imp2;
DROP STREAM clk2;
DROP STREAM imp3;
DROP STREAM clk3;
DROP QUERY ji;
DROP QUERY jl;
DROP QUERY jr;
DROP QUERY jf;
DROP QUERY jk;
DROP QUERY je;
DROP STREAM imp;
DROP STREAM clk;
DROP STREAM imp0;
DROP STREAM clk0;
SHOW QUERIES;
