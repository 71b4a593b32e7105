-- Spark SQL as Spark's documentation writes it: aliases inside struct(...),
-- quoted (reserved) field names in struct types, struct expansion with
-- (expr).* and s.*, Spark's names for unaliased aggregates in continuous
-- queries, current_date() — each in a batch SELECT and where the name
-- reaches a sink (a file sink's JSON records, a memory sink's columns).
\set VERBOSITY verbose
\set indir :testdir/in
\set outdir :testdir/out
\! mkdir -p $TESTDIR/in
\! printf '{"campaign_id":"c1","amount":5,"ts":"2024-01-01T10:03:00Z"}\n{"campaign_id":"c1","amount":7,"ts":"2024-01-01T10:40:00Z"}\n{"campaign_id":"c2","amount":1,"ts":"2024-01-01T11:05:00Z"}\n' > $TESTDIR/in/1.json
CREATE STREAM clicks (campaign_id STRING, amount INT, ts TIMESTAMP) USING file
  OPTIONS (path :'indir', format 'json');
-- ---------------------------------------------------------------------
-- 1. struct(x AS name, ...): the alias names the field; a column keeps its
-- name, a struct field (window.start) its field name, anything else colN
SELECT struct(1 AS x, 2, v.k, v.k AS "end") AS s FROM (VALUES (5)) v(k);
SELECT struct(window.start AS hour, campaign_id, count(*) AS clicks) AS s
  FROM (VALUES ('c1', TIMESTAMP '2024-01-01 10:03:00'), ('c1', TIMESTAMP '2024-01-01 10:40:00'))
       AS v(campaign_id, ts)
  GROUP BY window(ts, '1 hour'), campaign_id;
SELECT (struct(1 AS a, 'x' AS b)).b;
-- a name is struct's only: elsewhere the AS is a syntax error
SELECT lower('A' AS x);
SELECT count(1 AS x) FROM (VALUES (1)) v(k);
-- the aliased fields reach the file sink's JSON records
CREATE QUERY by_hour SINK file OPTIONS (path :'outdir', format 'json') TRIGGER AVAILABLE NOW AS
  SELECT struct(ts AS at, campaign_id AS campaign, amount * 2) AS s FROM clicks;
AWAIT QUERY by_hour;
\! cat $TESTDIR/out/*.json | sort
-- ---------------------------------------------------------------------
-- 3. quoted field names in struct types: "end" (SQL) or `end` (Spark) may be
-- a reserved word; a doubled quote stands for itself
SELECT CAST(struct(1 AS a, TIMESTAMP '2024-01-01 00:00:00' AS "end") AS STRUCT<a: INT, "end": TIMESTAMP>) AS s;
SELECT CAST(struct(1 AS "end") AS STRUCT<`end`: BIGINT>) AS s;
SELECT from_json('{"a":1,"end":2,"x\"y":3}', 'a INT, "end" INT, "x""y" INT') AS s;
SELECT (from_json('{"end":"2024-01-01T10:00:00Z"}', '"end" TIMESTAMP'))."end";
SELECT from_json('{"a":1}', 'a INT, "b STRING') AS s;
CREATE TABLE spans (id INT, w STRUCT<"start": TIMESTAMP, "end": TIMESTAMP>);
INSERT INTO spans VALUES (1, from_json('{"start":"2024-01-01T10:00:00Z","end":"2024-01-01T11:00:00Z"}', '"start" TIMESTAMP, "end" TIMESTAMP'));
SELECT id, w, w."end" FROM spans;
-- a stream's struct column with a quoted reserved field name, to a file sink
\set spandir :testdir/spans
\set spanout :testdir/spanout
\! mkdir -p $TESTDIR/spans
\! printf '{"id":1,"w":{"start":"2024-01-01T10:00:00Z","end":"2024-01-01T11:00:00Z"}}\n' > $TESTDIR/spans/1.json
CREATE STREAM spans_in (id INT, w STRUCT<"start": TIMESTAMP, "end": TIMESTAMP>) USING file
  OPTIONS (path :'spandir', format 'json');
CREATE QUERY span_ends SINK file OPTIONS (path :'spanout', format 'json') TRIGGER AVAILABLE NOW AS
  SELECT id, w."end" AS finish, w FROM spans_in;
AWAIT QUERY span_ends;
\! cat $TESTDIR/spanout/*.json
-- ---------------------------------------------------------------------
-- 2. struct expansion: (expr).* and s.* (s a struct column, not a table)
-- give one column per field, named by it
SELECT (from_json('{"a":1,"b":"x"}', 'a INT, b STRING')).*;
SELECT e.*, t.k FROM (SELECT struct(1 AS x, 'y' AS "end") AS e, 5 AS k) AS t;
SELECT t.e.* FROM (SELECT struct(1 AS x) AS e) AS t;
SELECT t.* FROM (SELECT struct(1 AS x) AS e) AS t;
SELECT id, w.* FROM spans;
SELECT window.*, count(*) AS n
  FROM (VALUES (TIMESTAMP '2024-01-01 10:03:00'), (TIMESTAMP '2024-01-01 10:59:00')) AS v(ts)
  GROUP BY window(ts, '1 hour');
SELECT (struct(k, count(*) AS n)).* FROM (VALUES (1), (1), (2)) AS v(k) GROUP BY k ORDER BY n;
-- only a struct expands; a name that is neither a table nor a struct column
SELECT (1).*;
SELECT k.* FROM (SELECT 1 AS k) AS t;
-- in a continuous query, the fields become the sink's columns
CREATE QUERY span_parts TRIGGER AVAILABLE NOW AS
  SELECT id, w.*, (from_json('{"n":' || CAST(id * 10 AS STRING) || ',"m":"z"}', 'n INT, m STRING')).*
  FROM spans_in;
AWAIT QUERY span_parts;
SELECT * FROM span_parts;
-- ---------------------------------------------------------------------
-- 4. column names of unaliased aggregate calls: an ad-hoc SELECT keeps
-- PostgreSQL's (sum, count), as psql users and drivers compare with it ...
SELECT campaign_id, sum(amount), count(*), max(amount) FROM
  (VALUES ('c1', 5), ('c1', 7)) AS v(campaign_id, amount) GROUP BY campaign_id;
-- ... while a continuous query's are Spark's, as they name its sink's columns
CREATE QUERY totals OUTPUT MODE complete TRIGGER AVAILABLE NOW AS
  SELECT campaign_id, sum(amount), count(*), count('x'), avg(clicks.amount * 2),
         max(CAST(amount AS BIGINT)), min(-amount), approx_count_distinct(amount),
         sum(amount) AS total, sum(amount) + 1
  FROM clicks GROUP BY campaign_id;
AWAIT QUERY totals;
SELECT * FROM totals ORDER BY campaign_id;
SELECT campaign_id, "sum(amount)", "count(1)" FROM totals ORDER BY campaign_id;
-- through a file sink: the names are the JSON records' field names
\set hourdir :testdir/hours
CREATE QUERY hourly SINK file OPTIONS (path :'hourdir', format 'json') TRIGGER AVAILABLE NOW AS
  SELECT window.start, sum(amount), count(*)
  FROM clicks WATERMARK ts DELAY OF INTERVAL '0 seconds'
  GROUP BY window(ts, '1 hour');
AWAIT QUERY hourly;
\! cat $TESTDIR/hours/*.json | sort
-- ---------------------------------------------------------------------
-- 5. current_date() (and current_date): the date of the batch's pinned
-- time, the same for every row of a batch
SELECT current_date() = CAST(current_timestamp() AS DATE) AS same_day,
       current_date = current_date() AS both_spellings;
CREATE QUERY dated TRIGGER AVAILABLE NOW AS
  SELECT campaign_id, current_date() AS d, CAST(current_timestamp() AS DATE) AS ts_day FROM clicks;
AWAIT QUERY dated;
SELECT count(*) AS n, count(DISTINCT d) AS dates, sum(CASE WHEN d = ts_day THEN 1 ELSE 0 END) AS pinned
  FROM dated;
-- 6. continuous processing has no batch time: current_date() is refused
-- (0A000) like every current time operation, as in Spark
CREATE STREAM ticks USING rate;
CREATE QUERY bad TRIGGER CONTINUOUS '1 second' AS SELECT value, current_date() AS d FROM ticks;
CREATE QUERY bad TRIGGER CONTINUOUS '1 second' AS SELECT value FROM ticks WHERE current_date() > DATE '2024-01-01';
