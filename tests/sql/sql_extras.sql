-- SQL forms beyond plain function calls, with Spark SQL's semantics
-- (PostgreSQL agrees unless said): LIKE/ILIKE ... ESCAPE; substring(s FROM
-- a FOR b), position(a IN b), trim([BOTH|LEADING|TRAILING] [chars] FROM s),
-- extract(field FROM ts); column aliases of FROM items; JOIN ... USING and
-- NATURAL JOIN with Spark's output columns; WITH; uncorrelated subqueries
-- in expressions (scalar, IN, EXISTS), refused when correlated and in
-- continuous queries. Every error shows its SQLSTATE and position.
\set VERBOSITY verbose
CREATE TABLE w (id INT, s STRING);
INSERT INTO w VALUES (1, '100%'), (2, 'under_score'), (3, 'a_c'), (4, 'abc'), (5, 'x!y'), (6, NULL);

-- ---- LIKE ... ESCAPE ---------------------------------------------------------
SELECT id, s FROM w WHERE s LIKE '%!%' ESCAPE '!' ORDER BY id;
SELECT id, s FROM w WHERE s LIKE '%#_%' ESCAPE '#' ORDER BY id;
SELECT id, s LIKE 'a_c', s LIKE 'a$_c' ESCAPE '$', s NOT LIKE 'a$_c' ESCAPE '$' FROM w ORDER BY id;
-- the escape escapes itself; ESCAPE '' turns escaping off (a backslash is then plain)
SELECT 'x!y' LIKE 'x!!y' ESCAPE '!', 'a\b' LIKE 'a\b' ESCAPE '', 'a\b' LIKE 'a\\b';
SELECT id, s ILIKE 'A#_C' ESCAPE '#', s NOT ILIKE 'ABC' ESCAPE '' FROM w ORDER BY id;
-- NULL anywhere gives NULL, ESCAPE NULL too
SELECT NULL LIKE 'a' ESCAPE '!', 'a' LIKE NULL ESCAPE '!', 'a' LIKE 'a' ESCAPE NULL;
-- errors: two-character escape, pattern ending with the escape, non-constant escape, types
SELECT 'abc' LIKE 'a%' ESCAPE '!!';
SELECT 'abc' LIKE 'a!' ESCAPE '!';
SELECT id FROM w WHERE s LIKE s || '!' ESCAPE '!';
SELECT s LIKE 'a' ESCAPE s FROM w;
SELECT 1 LIKE 'a' ESCAPE '!';

-- ---- substring FROM/FOR, position IN ----------------------------------------
SELECT substring('hello' FROM 2), substring('hello' FROM 2 FOR 3), substring('hello' FROM 0 FOR 2),
       substr('naïve' FROM 3 FOR 2), substring('hello' FROM -3);
SELECT id, substring(s FROM id), substring(s FROM 1 FOR id) FROM w ORDER BY id;
SELECT substring(NULL FROM 1), substring('x' FROM NULL), substring('x' FROM 1 FOR NULL);
SELECT position('l' IN 'hello'), position('z' IN 'hello'), position('' IN 'abc'), position('é' IN 'naïve é'),
       position('b' IN ('abc')), position('a' || 'b' IN 'xab'), position(NULL IN 'x');
SELECT position('an', 'banana'), position('an', 'banana', 3), locate('an', 'banana', 5), locate('an', 'banana', 0);
SELECT id, position('_' IN s) FROM w ORDER BY id;
-- position is still a name when not called
SELECT position FROM (VALUES (1)) AS t (position);
SELECT lower('A' FROM 1);
SELECT substring('abc' FROM 1 FOR 2 FOR 3);
SELECT position('a' IN 1);

-- ---- trim ----------------------------------------------------------------------
SELECT '[' || trim('  a b  ') || ']', '[' || trim(BOTH FROM '  a  ') || ']', '[' || trim(LEADING FROM '  a  ') || ']',
       '[' || trim(TRAILING FROM '  a  ') || ']';
SELECT trim('xy' FROM 'yxaxy'), trim(BOTH 'x' FROM 'xxaxx'), trim(LEADING 'x' FROM 'xxaxx'),
       trim(TRAILING 'x' FROM 'xxaxx'), trim(BOTH 'é' FROM 'ééaé');
SELECT ltrim('  a  ') || ']', '[' || rtrim('  a  '), btrim('  a  '), btrim('xyaxy', 'xy');
-- ltrim and rtrim with two arguments take Spark's order: the characters first
SELECT ltrim('xy', 'xyaxy'), rtrim('xy', 'xyaxy');
SELECT trim(NULL FROM 'a'), trim(BOTH 'a' FROM NULL), trim(LEADING NULL FROM 'a');
SELECT id, trim(BOTH '_0%1' FROM s) FROM w ORDER BY id;
SELECT upper(BOTH 'x' FROM 'a');
SELECT trim('a', 'b');
SELECT leading FROM w;

-- ---- extract -------------------------------------------------------------------
SELECT extract(YEAR FROM ts), extract(QUARTER FROM ts), extract(MONTH FROM ts), extract(WEEK FROM ts),
       extract(DAY FROM ts), extract(HOUR FROM ts), extract(MINUTE FROM ts), extract(SECOND FROM ts)
  FROM (VALUES (TIMESTAMP '2024-05-17 13:45:56.789123')) AS t (ts);
-- DAYOFWEEK is Spark's (Sunday 1 .. Saturday 7; PostgreSQL's dow counts from 0), DAYOFWEEK_ISO Monday 1
SELECT d, extract(DOW FROM d), extract(DAYOFWEEK_ISO FROM d), extract(DOY FROM d), extract(WEEK FROM d),
       extract(YEAROFWEEK FROM d) FROM (VALUES (DATE '2005-01-02'), (DATE '2012-12-31'), (DATE '2024-03-02')) AS t (d) ORDER BY d;
-- aliases, date_part, a DATE is its midnight, NULL, times before 1970
SELECT extract(y FROM DATE '2024-03-02'), extract(mons FROM DATE '2024-03-02'), extract('hours' FROM DATE '2024-03-02'),
       date_part('minute', TIMESTAMP '2024-03-02 10:11:12'), extract(sec FROM TIMESTAMP '1969-12-31 23:59:58.5'),
       extract(year FROM CAST(NULL AS TIMESTAMP));
SELECT extract(epoch FROM TIMESTAMP '2024-01-01 00:00:00');
SELECT extract(year FROM 42);
SELECT extract(a.b FROM TIMESTAMP '2024-01-01 00:00:00');

-- ---- column aliases of FROM items ----------------------------------------------
SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS v (x, y) ORDER BY x;
SELECT t.p, t.q FROM (SELECT id, s FROM w WHERE id < 3) AS t (p, q) ORDER BY t.p;
SELECT x.a, x.b FROM w AS x (a, b) WHERE x.a = 2;
SELECT * FROM (VALUES (1, 2)) AS v (a);
SELECT * FROM w AS x (a, b, c);
SELECT id FROM (VALUES (1, 'a')) AS v (x, y);

-- ---- JOIN ... USING, NATURAL JOIN ------------------------------------------------
CREATE TABLE l (k INT, lv STRING, c INT);
CREATE TABLE r (c INT, k INT, rv STRING);
INSERT INTO l VALUES (1, 'l1', 10), (2, 'l2', 20), (NULL, 'ln', 30);
INSERT INTO r VALUES (10, 1, 'r1'), (99, 3, 'r3'), (30, NULL, 'rn');
-- the key first, then the other columns of each side
SELECT * FROM l JOIN r USING (k) ORDER BY k;
SELECT * FROM l LEFT JOIN r USING (k) ORDER BY k NULLS FIRST, lv;
-- RIGHT: the right side's key; FULL: coalesce(left, right)
SELECT * FROM l RIGHT JOIN r USING (k) ORDER BY k NULLS FIRST, rv;
SELECT * FROM l FULL JOIN r USING (k) ORDER BY k NULLS FIRST, lv NULLS FIRST;
SELECT k, l.k, r.k FROM l FULL JOIN r USING (k) ORDER BY 1 NULLS FIRST, 2 NULLS FIRST;
SELECT l.*, r.* FROM l JOIN r USING (k);
SELECT * FROM l JOIN r USING (k, c);
SELECT k, count(*) FROM l FULL JOIN r USING (k) GROUP BY k ORDER BY k NULLS FIRST;
-- NATURAL: every shared name (k and c here); none shared is a cross join
SELECT * FROM l NATURAL JOIN r;
SELECT * FROM l NATURAL FULL JOIN r ORDER BY k NULLS FIRST, c, lv NULLS FIRST;
SELECT * FROM (SELECT k FROM l) a NATURAL JOIN (SELECT rv FROM r) b ORDER BY k NULLS FIRST, rv;
SELECT * FROM (SELECT k FROM l WHERE k = 1) a NATURAL LEFT JOIN (SELECT rv FROM r WHERE false) b;
-- a USING join of a USING join, and an aliased one
SELECT * FROM l JOIN r USING (k) JOIN (VALUES (1, 'z')) AS z (k, zv) USING (k);
SELECT j.k, j.lv, j.rv FROM (l JOIN r USING (k)) AS j;
SELECT l.k FROM (l JOIN r USING (k)) AS j;
SELECT * FROM l JOIN r USING (lv);
SELECT * FROM l JOIN r USING (nope);
SELECT * FROM l CROSS JOIN r JOIN l AS l2 USING (k);
SELECT * FROM l JOIN (VALUES (true)) AS v (k) USING (k);

-- ---- WITH ---------------------------------------------------------------------------
WITH a AS (SELECT id, s FROM w WHERE id <= 3), b (n) AS (SELECT count(*) FROM a)
SELECT a.id, a.s, b.n FROM a, b ORDER BY a.id;
-- a WITH query hides a table of its name; a later one sees the earlier ones; an inner
-- WITH hides an outer name
WITH w AS (SELECT 'shadowed' AS s) SELECT s FROM w;
WITH a AS (SELECT 1 AS x), b AS (SELECT x + 1 AS y FROM a) SELECT * FROM (WITH a AS (SELECT 10 AS x) SELECT x FROM a) i, b;
-- referenced twice: inlined twice
WITH n AS (SELECT id FROM w WHERE id <= 2) SELECT x.id, y.id FROM n x JOIN n y ON x.id <= y.id ORDER BY 1, 2;
WITH c AS (SELECT 1) SELECT 2 UNION ALL SELECT 3 ORDER BY 1;
INSERT INTO w WITH m AS (SELECT max(id) AS id FROM w) SELECT id + 1, 'inserted' FROM m;
SELECT id, s FROM w WHERE id > 6;
-- errors: duplicate names, column count, a WITH query cannot read itself or a later one,
-- an unused WITH query is still checked, a second WITH clause
WITH a AS (SELECT 1), a AS (SELECT 2) SELECT * FROM a;
WITH a (x, y) AS (SELECT 1) SELECT * FROM a;
WITH a AS (SELECT * FROM a) SELECT * FROM a;
WITH a AS (SELECT * FROM b), b AS (SELECT 1) SELECT * FROM a;
WITH a AS (SELECT nope FROM w) SELECT 1;
WITH a AS (SELECT 1) (WITH b AS (SELECT 2) SELECT 3);

-- ---- subqueries in expressions ----------------------------------------------------------
-- scalar: its value; NULL without rows; more than one row is 21000
SELECT (SELECT max(id) FROM w), (SELECT s FROM w WHERE id = 4), (SELECT s FROM w WHERE id = 99);
SELECT id, id * 10 - (SELECT min(id) FROM w) AS d FROM w WHERE id <= 3 ORDER BY id;
SELECT id FROM w WHERE id = (SELECT max(k) FROM l);
SELECT (SELECT id FROM w);
SELECT (SELECT id, s FROM w WHERE id = 1);
-- IN: three-valued; a NULL among the values makes a miss NULL; an empty result makes IN false
SELECT k, k IN (SELECT c / 10 FROM l), k IN (SELECT k FROM r), k NOT IN (SELECT k FROM r),
       k IN (SELECT k FROM r WHERE k IS NOT NULL), k NOT IN (SELECT k FROM r WHERE false)
  FROM l ORDER BY k NULLS FIRST;
SELECT count(*) FROM w WHERE id IN (SELECT k FROM l UNION ALL SELECT c FROM r);
SELECT lv FROM l WHERE lv IN (SELECT 'l' || k FROM r);
SELECT 1 IN (SELECT 1, 2);
-- EXISTS
SELECT EXISTS (SELECT 1 FROM w WHERE id = 2), EXISTS (SELECT 1 FROM w WHERE id = 99), NOT EXISTS (SELECT * FROM r WHERE false);
SELECT id FROM w WHERE EXISTS (SELECT 1 FROM l) AND id < 3 ORDER BY id;
-- in HAVING, ORDER BY, LIMIT, a join condition, nested
SELECT k, count(*) FROM r GROUP BY k HAVING count(*) >= (SELECT count(*) FROM w WHERE id = 1) ORDER BY k NULLS FIRST;
SELECT id FROM w ORDER BY id = (SELECT max(id) FROM w) DESC, id LIMIT (SELECT count(*) FROM l);
SELECT l.k, r.rv FROM l JOIN r ON r.c = (SELECT max(c) FROM r WHERE c < 99) ORDER BY l.k NULLS FIRST;
SELECT (SELECT (SELECT max(id) FROM w) - 1);
-- DELETE and INSERT evaluate them before changing the table
DELETE FROM w WHERE id IN (SELECT max(id) FROM w);
SELECT max(id) FROM w;
-- correlated subqueries are computed for every value of the outer columns they read
SELECT id, (SELECT count(*) FROM l WHERE l.k = w.id) FROM w;
SELECT id FROM w WHERE EXISTS (SELECT 1 FROM l WHERE lv = s);
SELECT k FROM l WHERE k IN (SELECT k FROM r WHERE rv > lv);
SELECT (SELECT nope FROM w);

-- ---- continuous queries: WITH is inlined, subqueries are refused -------------------------
\set sdir :testdir/s
\! mkdir -p $TESTDIR/s
\! cd $TESTDIR/s && printf 'k,v,ts\na,1,2024-05-01 12:00:00\nb,2,2024-05-01 12:01:00\na,3,2024-05-01 12:11:00\n' > .t && mv .t 1.csv
CREATE STREAM st (k STRING, v INT, ts TIMESTAMP) USING file OPTIONS (path :'sdir', format 'csv', header 'true');
EXPLAIN CREATE QUERY cte_q TRIGGER AVAILABLE NOW AS
  WITH e (key, val, t) AS (SELECT k, v, ts FROM st)
  SELECT window.start, key, sum(val) AS s FROM e WATERMARK t DELAY OF INTERVAL '1 minute'
  GROUP BY window(t, '10 minutes'), key;
CREATE QUERY cte_q TRIGGER AVAILABLE NOW AS
  WITH e (key, val, t) AS (SELECT k, v, ts FROM st)
  SELECT window.start, key, sum(val) AS s FROM e WATERMARK t DELAY OF INTERVAL '1 minute'
  GROUP BY window(t, '10 minutes'), key;
CREATE QUERY alias_q TRIGGER AVAILABLE NOW AS
  SELECT x.key, x.val, trim(BOTH '-' FROM '--' || x.key || '-') AS t FROM st AS x (key, val, at) WHERE x.key LIKE 'a%' ESCAPE '!';
AWAIT QUERY cte_q;
AWAIT QUERY alias_q;
SELECT * FROM cte_q ORDER BY start, key;
SELECT * FROM alias_q ORDER BY val;
-- the streaming checks see the WITH query's aggregation
CREATE QUERY cte_bad AS WITH agg AS (SELECT k, count(*) AS n FROM st GROUP BY k) SELECT * FROM agg;
CREATE QUERY sub_bad AS SELECT k FROM st WHERE v IN (SELECT id FROM w);
CREATE QUERY sub_bad2 AS SELECT k, (SELECT max(id) FROM w) AS m FROM st;
SELECT * FROM st WHERE v IN (SELECT id FROM w);
