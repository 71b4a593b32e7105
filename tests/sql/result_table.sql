-- The result table of an update-mode aggregation holds exactly one row per
-- group, whatever the projection does with the grouping key: the key
-- selected as it is, a window's start or end, an expression of the key
-- (k + 1, k % 2), the key not selected at all, no GROUP BY (one row).
-- Windows are revised across batches (12:00 counted in triggers 1, 2 and
-- 3), so an append log would show several rows per group. DESCRIBE says
-- what the key is.
\set VERBOSITY verbose
\set edir :testdir/ev
\! mkdir -p $TESTDIR/ev
CREATE STREAM ev (k INT, ts TIMESTAMP) USING file
  OPTIONS (path :'edir', format 'csv', header 'true')
  WATERMARK ts DELAY OF INTERVAL '10 minutes';
CREATE QUERY by_start OUTPUT MODE update TRIGGER AVAILABLE NOW AS
  SELECT window.start AS start, count(*) AS n FROM ev GROUP BY window(ts, '5 minutes');
CREATE QUERY by_end OUTPUT MODE update TRIGGER AVAILABLE NOW AS
  SELECT window.end AS wend, k, count(*) AS n FROM ev GROUP BY window(ts, '10 minutes', '5 minutes'), k;
CREATE QUERY by_window OUTPUT MODE update TRIGGER AVAILABLE NOW AS
  SELECT window, count(*) AS n FROM ev GROUP BY window(ts, '5 minutes');
CREATE QUERY plus_one OUTPUT MODE update TRIGGER AVAILABLE NOW AS
  SELECT k + 1 AS k1, count(*) AS n FROM ev GROUP BY k;
CREATE QUERY parity OUTPUT MODE update TRIGGER AVAILABLE NOW AS
  SELECT k % 2 AS odd, count(*) AS n FROM ev GROUP BY k;
CREATE QUERY unselected OUTPUT MODE update TRIGGER AVAILABLE NOW AS
  SELECT count(*) AS n, max(ts) AS last FROM ev GROUP BY k, window(ts, '5 minutes') HAVING count(*) > 0;
CREATE QUERY total OUTPUT MODE update TRIGGER AVAILABLE NOW AS
  SELECT count(*) AS n FROM ev;
CREATE QUERY nested OUTPUT MODE update TRIGGER AVAILABLE NOW AS
  SELECT s, n * 10 AS n10 FROM (SELECT window.start AS s, k, count(*) AS n FROM ev
                                GROUP BY window(ts, '5 minutes'), k) AS w WHERE n > 0;
AWAIT QUERY by_start;
AWAIT QUERY by_end;
AWAIT QUERY by_window;
AWAIT QUERY plus_one;
AWAIT QUERY parity;
AWAIT QUERY unselected;
AWAIT QUERY total;
AWAIT QUERY nested;
-- trigger 1: two rows in 12:00-12:05 (k 1 and 2), one in 12:05-12:10 (k 1)
\! cd $TESTDIR/ev && printf 'k,ts\n1,2024-05-01 12:00:10\n2,2024-05-01 12:01:00\n1,2024-05-01 12:06:00\n' > .t && mv .t 1.csv
START QUERY by_start;
START QUERY by_end;
START QUERY by_window;
START QUERY plus_one;
START QUERY parity;
START QUERY unselected;
START QUERY total;
START QUERY nested;
AWAIT QUERY by_start;
AWAIT QUERY by_end;
AWAIT QUERY by_window;
AWAIT QUERY plus_one;
AWAIT QUERY parity;
AWAIT QUERY unselected;
AWAIT QUERY total;
AWAIT QUERY nested;
SELECT * FROM by_start ORDER BY start;
-- trigger 2: 12:00-12:05 again (k 1), k 3 new
\! cd $TESTDIR/ev && printf 'k,ts\n1,2024-05-01 12:02:00\n3,2024-05-01 12:07:00\n' > .t && mv .t 2.csv
START QUERY by_start;
START QUERY by_end;
START QUERY by_window;
START QUERY plus_one;
START QUERY parity;
START QUERY unselected;
START QUERY total;
START QUERY nested;
AWAIT QUERY by_start;
AWAIT QUERY by_end;
AWAIT QUERY by_window;
AWAIT QUERY plus_one;
AWAIT QUERY parity;
AWAIT QUERY unselected;
AWAIT QUERY total;
AWAIT QUERY nested;
-- trigger 3: 12:00-12:05 a third time (k 3)
\! cd $TESTDIR/ev && printf 'k,ts\n3,2024-05-01 12:03:00\n' > .t && mv .t 3.csv
START QUERY by_start;
START QUERY by_end;
START QUERY by_window;
START QUERY plus_one;
START QUERY parity;
START QUERY unselected;
START QUERY total;
START QUERY nested;
AWAIT QUERY by_start;
AWAIT QUERY by_end;
AWAIT QUERY by_window;
AWAIT QUERY plus_one;
AWAIT QUERY parity;
AWAIT QUERY unselected;
AWAIT QUERY total;
AWAIT QUERY nested;
-- one row per group, each with its latest value
SELECT * FROM by_start ORDER BY start;
SELECT * FROM by_end ORDER BY wend, k;
SELECT window.start AS ws, n FROM by_window ORDER BY ws;
SELECT * FROM plus_one ORDER BY k1;
-- two groups (k 1 and 3) are odd: two rows, not one
SELECT * FROM parity ORDER BY odd, n;
SELECT * FROM unselected ORDER BY last;
SELECT * FROM total;
SELECT * FROM nested ORDER BY s, n10;
-- the key: selected columns are marked, hidden ones named (DESCRIBE's
-- lines about the key; the others hold ids and paths of this run)
\pset format unaligned
\pset tuples_only on
DESCRIBE by_start \g :testdir/d1
DESCRIBE by_end \g :testdir/d2
DESCRIBE plus_one \g :testdir/d3
DESCRIBE unselected \g :testdir/d4
DESCRIBE total \g :testdir/d5
\! for i in 1 2 3 4 5; do grep -Ei 'result key|^Name' $TESTDIR/d$i; done
-- an append-mode query has no result key: its rows are appended
CREATE QUERY appended TRIGGER AVAILABLE NOW AS
  SELECT window.start AS start, count(*) AS n FROM ev GROUP BY window(ts, '5 minutes');
DESCRIBE appended \g :testdir/d6
\! grep -Eic 'result key' $TESTDIR/d6
\pset format aligned
\pset tuples_only off
DROP QUERY by_start;
DROP QUERY by_end;
DROP QUERY by_window;
DROP QUERY plus_one;
DROP QUERY parity;
DROP QUERY unselected;
DROP QUERY total;
DROP QUERY nested;
DROP QUERY appended;
DROP STREAM ev;
