-- Window functions: row_number() over a table, and where a window function
-- call is refused while binding: WHERE, GROUP BY, HAVING (42P20, as
-- PostgreSQL), inside an aggregate (42803), and over a stream (0A000,
-- Spark's rule, with the fix in the hint). Never a syntax error.
\set VERBOSITY verbose
CREATE TABLE t (k INT, v INT);
INSERT INTO t VALUES (1, 10), (1, 20), (2, 30), (NULL, 40), (2, NULL);
SELECT k, v, row_number() OVER (PARTITION BY k ORDER BY v) AS n FROM t ORDER BY k, v;
SELECT v, row_number() OVER (ORDER BY v DESC NULLS LAST) AS n FROM t ORDER BY n;
-- ties: rank leaves gaps after peers, dense_rank does not; NULLs are peers
INSERT INTO t VALUES (1, 20), (1, NULL), (1, NULL);
SELECT k, v, row_number() OVER (PARTITION BY k ORDER BY v, 1) AS rn,
       rank() OVER (PARTITION BY k ORDER BY v) AS r,
       dense_rank() OVER (PARTITION BY k ORDER BY v) AS d
FROM t ORDER BY k, v;
SELECT v, rank() OVER (ORDER BY v DESC NULLS FIRST), dense_rank() OVER () FROM t ORDER BY v DESC NULLS FIRST;
-- percent_rank and cume_dist are double precision; a one-row partition is 0 and 1
SELECT k, v, percent_rank() OVER (PARTITION BY k ORDER BY v) AS pr,
       cume_dist() OVER (PARTITION BY k ORDER BY v) AS cd
FROM t ORDER BY k, v;
SELECT row_number() OVER () AS rn, rank() OVER () AS r, percent_rank() OVER () AS pr, cume_dist() OVER () AS cd FROM t \gdesc
-- offsets with defaults, the default frame (to the last peer), ntile with uneven buckets
SELECT k, v, lag(v) OVER (PARTITION BY k ORDER BY v) AS lag1, lead(v, 2, -1) OVER (PARTITION BY k ORDER BY v) AS lead2,
       first_value(v) OVER (PARTITION BY k ORDER BY v) AS fv, last_value(v) OVER (PARTITION BY k ORDER BY v) AS lv, nth_value(v, 2) OVER (PARTITION BY k ORDER BY v) AS nv
FROM (SELECT k, v FROM t) s ORDER BY k, v;
SELECT v, ntile(3) OVER (ORDER BY v NULLS FIRST) AS t3 FROM t ORDER BY v NULLS FIRST;
SELECT ntile(0) OVER () FROM t;
SELECT nth_value(v, 0) OVER () FROM t;
-- frames: ROWS with offsets, RANGE with UNBOUNDED / CURRENT ROW; the refused ones
SELECT k, v, first_value(v) OVER (PARTITION BY k ORDER BY v ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS f,
       last_value(v) OVER (PARTITION BY k ORDER BY v RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS l
FROM t ORDER BY k, v;
SELECT first_value(v) OVER (ORDER BY v RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM t;
SELECT first_value(v) OVER (ORDER BY v ROWS BETWEEN -1 PRECEDING AND CURRENT ROW) FROM t;
SELECT first_value(v) OVER (ORDER BY v ROWS BETWEEN UNBOUNDED FOLLOWING AND CURRENT ROW) FROM t;
-- INSERT ... SELECT, and a top-N per key over a subquery
CREATE TABLE ranked (k INT, v INT, r BIGINT);
INSERT INTO ranked SELECT k, v, dense_rank() OVER (PARTITION BY k ORDER BY v DESC NULLS LAST) FROM t;
SELECT k, v FROM ranked WHERE r = 1 ORDER BY k NULLS FIRST;
-- aggregates over the frame: by default to the last peer with ORDER BY, the
-- whole partition without; sum(int) is bigint, count over no row 0, sum NULL
SELECT k, v, sum(v) OVER (PARTITION BY k ORDER BY v) AS s, count(*) OVER (PARTITION BY k ORDER BY v) AS c,
       count(v) OVER (PARTITION BY k) AS cv, min(v) OVER (PARTITION BY k) AS lo, max(v) OVER () AS hi
FROM t ORDER BY k, v;
SELECT v, sum(v) OVER (ORDER BY v NULLS FIRST ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS s,
       count(*) OVER (ORDER BY v NULLS FIRST ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS c,
       avg(v) OVER (ORDER BY v NULLS FIRST ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS a
FROM t ORDER BY v NULLS FIRST, s;
SELECT v, sum(v) OVER (ORDER BY v ROWS BETWEEN 1 FOLLOWING AND 2 FOLLOWING) AS next2,
       count(v) OVER (ORDER BY v ROWS BETWEEN 3 PRECEDING AND 2 PRECEDING) AS before
FROM t ORDER BY v, next2;
SELECT sum(v) OVER () AS s, count(*) OVER () AS c, avg(v) OVER () AS a, min(k) OVER () AS m FROM t LIMIT 1 \gdesc
SELECT sum(DISTINCT v) OVER () FROM t;
SELECT sum(CAST(v AS TEXT)) OVER () FROM t;
SELECT sum(v) OVER (ORDER BY v ROWS BETWEEN CURRENT ROW AND 1 PRECEDING) FROM t;
SELECT sum(v) OVER (ORDER BY v ROWS BETWEEN 1 FOLLOWING AND CURRENT ROW) FROM t;
-- window calls inside expressions and in ORDER BY; a nested call is 42803
SELECT k, v, v - lag(v) OVER (PARTITION BY k ORDER BY v) AS delta,
       rank() OVER (ORDER BY v DESC NULLS LAST) + 100 AS r,
       sum(v) OVER () / count(*) OVER () AS mean
FROM t WHERE v IS NOT NULL ORDER BY rank() OVER (ORDER BY v DESC NULLS LAST), k, delta;
SELECT k, count(*) OVER (PARTITION BY k) AS c FROM t ORDER BY c DESC, k NULLS FIRST LIMIT 3;
SELECT sum(rank() OVER (ORDER BY v)) OVER () FROM t;
SELECT unnest('{1,2}'::int[]), row_number() OVER () FROM t;
-- WINDOW clause: OVER w, OVER (w ORDER BY ...) and a window built on another;
-- PostgreSQL's errors for a missing window and what may not be overridden
SELECT k, v, sum(v) OVER w AS s, rank() OVER (w ORDER BY v) AS r, count(*) OVER w2 AS c
FROM t WINDOW w AS (PARTITION BY k), w2 AS (w ORDER BY v ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)
ORDER BY k, v, c;
SELECT sum(v) OVER nope FROM t;
SELECT sum(v) OVER (w PARTITION BY v) FROM t WINDOW w AS (ORDER BY k);
SELECT sum(v) OVER (w ORDER BY v) FROM t WINDOW w AS (ORDER BY k);
SELECT sum(v) OVER (w) FROM t WINDOW w AS (ORDER BY k ROWS CURRENT ROW);
SELECT sum(v) OVER w2 FROM t WINDOW w2 AS (w1), w1 AS (PARTITION BY k);
-- FILTER (WHERE ...) on aggregates, over a window and in GROUP BY; window and
-- filter stay ordinary names elsewhere
SELECT k, v, count(*) FILTER (WHERE v > 15) OVER (PARTITION BY k) AS big,
       sum(v) FILTER (WHERE k = 1) OVER (ORDER BY v ROWS UNBOUNDED PRECEDING) AS ones
FROM t ORDER BY k, v, ones;
SELECT k, count(*) FILTER (WHERE v > 15) AS big, sum(v) FILTER (WHERE v < 25) AS small, count(*)
FROM t GROUP BY k ORDER BY k;
SELECT rank() FILTER (WHERE v > 1) OVER () FROM t;
SELECT lower('A') FILTER (WHERE true) FROM t;
SELECT sum(v) FILTER (WHERE v) FROM t;
SELECT sum(v) FILTER (WHERE rank() OVER () > 1) FROM t;
SELECT window, filter FROM (SELECT 1 AS window, 2 AS filter) x;
-- with GROUP BY the windows see the groups: ranks of aggregates, a share of
-- the total; a column that is not grouped is 42803, as elsewhere
SELECT k, sum(v) AS s, rank() OVER (ORDER BY sum(v) DESC NULLS LAST) AS r,
       sum(sum(v)) OVER () AS total, lag(k) OVER (ORDER BY k NULLS FIRST) AS prev
FROM t GROUP BY k ORDER BY r, k;
SELECT k, rank() OVER (ORDER BY v) FROM t GROUP BY k;
-- refused in clauses, as PostgreSQL
SELECT k FROM t WHERE row_number() OVER () > 1;
SELECT k FROM t GROUP BY row_number() OVER ();
SELECT k FROM t GROUP BY k HAVING row_number() OVER () > 1;
SELECT sum(row_number() OVER ()) FROM t;
-- refused on a stream: a partition of a stream never ends
\set edir :testdir/events
\! mkdir -p $TESTDIR/events
CREATE STREAM events (id INT, ts TIMESTAMP) USING file
  OPTIONS (path :'edir', format 'csv', header 'true');
CREATE QUERY w1 TRIGGER AVAILABLE NOW AS
  SELECT id, row_number() OVER (PARTITION BY id ORDER BY ts) AS n FROM events;
CREATE QUERY w2 TRIGGER AVAILABLE NOW AS
  SELECT id, count(*), row_number() OVER () FROM events GROUP BY id;
CREATE QUERY w3 TRIGGER AVAILABLE NOW AS
  SELECT id, id - lag(id) OVER w AS d FROM events WINDOW w AS (ORDER BY ts);
SHOW QUERIES;
