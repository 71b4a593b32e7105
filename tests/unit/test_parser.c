/* Unit tests of parser/: SQL text in, ast_dump_stmt() text out, for every
 * statement and expression form; PostgreSQL's syntax errors with their
 * character positions; keywords usable as identifiers; statement ranges,
 * $n counting, node positions and the nesting limits. */
#include "unit.h"

#include "common/arena.h"
#include "common/buf.h"
#include "common/sl_error.h"
#include "grammar.h"
#include "parser/parse_int.h"

typedef struct {
    const char *sql;
    const char *dump; /* the statements' dumps joined with "; " */
} dump_case_t;

typedef struct {
    const char *sql;
    const char *message;
    int position; /* 1-based character position */
} error_case_t;

/* Parses sql and returns its dump (statements joined by "; ") or
 * "ERROR <sqlstate> <message> @<position>", in a.  */
static const char *parse_dump(sl_arena_t *a, const char *sql, size_t len)
{
    ast_stmt_list_t l;
    sl_error_t err;
    sl_error_clear(&err);
    if (parse_sql(sql, len, a, &l, &err) != 0)
        return sl_printf(a, "ERROR %s %s @%d", err.sqlstate, err.message, err.position);
    sl_buf_t b = SL_BUF_INIT;
    for (int i = 0; i < l.n; i++) {
        if (i) sl_buf_puts(&b, "; ");
        ast_dump_stmt(&b, l.items[i]);
    }
    const char *r = sl_strdup(a, b.data ? b.data : "");
    sl_buf_free(&b);
    return r;
}

/* Runs a table of cases, printing every mismatch; returns how many failed. */
static int run_dump_cases(const dump_case_t *cases, int n)
{
    sl_arena_t *a = sl_arena_new("test");
    int failed = 0;
    for (int i = 0; i < n; i++) {
        const char *got = parse_dump(a, cases[i].sql, strlen(cases[i].sql));
        if (strcmp(got, cases[i].dump) == 0) continue;
        fprintf(stderr, "  sql:      %s\n  got:      %s\n  expected: %s\n", cases[i].sql, got,
                cases[i].dump);
        failed++;
    }
    sl_arena_free(a);
    return failed;
}

#define RUN_CASES(table) run_dump_cases(table, (int)(sizeof table / sizeof table[0]))

static const dump_case_t statement_cases[] =
    {
        {"SELECT 1", "(select (items (int 1)))"},
        {"SELECT timestamp, value FROM rate_stream WHERE key = 'x'",
         "(select (items (col timestamp) (col value)) (from (table rate_stream)) (where (= (col key) (str 'x'))))"},
        {"SELECT window.start, count(*) FROM t GROUP BY window(ts, '1 hour')",
         "(select (items (col window start) (func count *)) (from (table t)) (group (func window (col ts) (str '1 hour'))))"},
        {"CREATE STREAM clicks (campaign_id STRING, user_id STRING, event_time TIMESTAMP) USING kafka OPTIONS ('kafka.bootstrap.servers' 'localhost:9092', subscribe 'clicks', startingOffsets 'earliest', maxOffsetsPerTrigger '200000', format 'json') WATERMARK event_time DELAY OF INTERVAL '15 minutes'",
         "(create-stream clicks (columns (campaign_id string) (user_id string) (event_time timestamp)) (using kafka) (options ('kafka.bootstrap.servers' 'localhost:9092') (subscribe 'clicks') (startingoffsets 'earliest') (maxoffsetspertrigger '200000') (format 'json')) (watermark (col event_time) (interval '15 minutes')))"},
        {"CREATE STREAM IF NOT EXISTS r USING rate",
         "(create-stream if-not-exists r (using rate))"},
        {"CREATE STREAM r USING rate OPTIONS (rowsPerSecond 10, rampUpTime = '5s', flag true, neg -1.5, kafka.group.id = 'g')",
         "(create-stream r (using rate) (options (rowspersecond 10) (rampuptime '5s') (flag true) (neg -1.5) (kafka.group.id 'g')))"},
        {"CREATE STREAM s (a INT NOT NULL, b DECIMAL(10,2), c DOUBLE PRECISION, d STRUCT<x: INT, y STRING>, e VARCHAR(20), f \"MyType\", g double, h NUMERIC(5), i BIGINT NULL) USING kafka",
         "(create-stream s (columns (a int not-null) (b decimal(10,2)) (c double precision) (d struct<x:int,y:string>) (e varchar(20)) (f \"MyType\") (g double) (h numeric(5)) (i bigint)) (using kafka))"},
        {"CREATE STREAM s (w STRUCT<start: TIMESTAMP, inner: STRUCT<a: INT>>) USING file OPTIONS ()",
         "(create-stream s (columns (w struct<start:timestamp,inner:struct<a:int>>)) (using file))"},
        {"CREATE TABLE customers (customer_id STRING, tier STRING)",
         "(create-table customers (columns (customer_id string) (tier string)))"},
        {"CREATE TABLE campaigns (id STRING, name STRING) USING csv OPTIONS (path '/dims/campaigns.csv', header 'true')",
         "(create-table campaigns (columns (id string) (name string)) (using csv) (options (path '/dims/campaigns.csv') (header 'true')))"},
        {"CREATE TABLE IF NOT EXISTS x USING csv OPTIONS (path 'p')",
         "(create-table if-not-exists x (using csv) (options (path 'p')))"},
        {"CREATE TABLE t (a INT) USING csv", "(create-table t (columns (a int)) (using csv))"},
        {"CREATE QUERY hourly_clicks SINK file OPTIONS (path '/lake/gold/hourly_clicks', format 'json') OUTPUT MODE append TRIGGER PROCESSING TIME '1 minute' CHECKPOINT '/chk/hourly_clicks' OPTIONS ('sluice.stateStore' 'rocksdb', 'sluice.shufflePartitions' '4') AS SELECT window.start AS hour, campaign_id, count(*) AS clicks FROM clicks WATERMARK event_time DELAY OF INTERVAL '15 minutes' GROUP BY window(event_time, '1 hour'), campaign_id", "(create-query hourly_clicks (sink file (options (path '/lake/gold/hourly_clicks') (format 'json'))) (output-mode append) (trigger processing-time (str '1 minute')) (checkpoint '/chk/hourly_clicks') (options ('sluice.stateStore' 'rocksdb') ('sluice.shufflePartitions' '4')) (select (items (as (col window start) hour) (col campaign_id) (as (func count *) clicks)) (from (table clicks (watermark (col event_time) (interval '15 minutes')))) (group (func window (col event_time) (str '1 hour')) (col campaign_id))))"},
        {"CREATE QUERY IF NOT EXISTS q SINK kafka OPTIONS (topic 'o') OPTIONS (a 'b') TRIGGER AVAILABLE NOW AS SELECT * FROM s",
         "(create-query if-not-exists q (sink kafka (options (topic 'o'))) (trigger available-now) (options (a 'b')) (select (items *) (from (table s))))"},
        {"CREATE QUERY q OPTIONS (a 'b') SINK memory AS SELECT * FROM s",
         "(create-query q (sink memory) (options (a 'b')) (select (items *) (from (table s))))"},
        {"CREATE QUERY q CHECKPOINT '/c' TRIGGER CONTINUOUS '1 second' OUTPUT MODE update AS SELECT a FROM s",
         "(create-query q (output-mode update) (trigger continuous (str '1 second')) (checkpoint '/c') (select (items (col a)) (from (table s))))"},
        {"CREATE QUERY q TRIGGER ONCE OUTPUT MODE complete AS SELECT count(*) FROM s",
         "(create-query q (output-mode complete) (trigger once) (select (items (func count *)) (from (table s))))"},
        {"CREATE QUERY q TRIGGER PROCESSING TIME INTERVAL '10' SECONDS AS (SELECT 1)",
         "(create-query q (trigger processing-time (interval '10' seconds)) (select (items (int 1))))"},
        {"CREATE QUERY q AS SELECT 1", "(create-query q (select (items (int 1))))"},
        {"ALTER STREAM s SET OPTIONS (maxFilesPerTrigger '2', latestFirst true)",
         "(alter stream s (options (maxfilespertrigger '2') (latestfirst true)))"},
        {"ALTER QUERY q SET OPTIONS (topic 'o2')", "(alter query q (options (topic 'o2')))"},
        {"ALTER QUERY q SET TRIGGER PROCESSING TIME '10 seconds'",
         "(alter query q (trigger processing-time (str '10 seconds')))"},
        {"ALTER QUERY q SET TRIGGER AVAILABLE NOW", "(alter query q (trigger available-now))"},
        {"SELECT alter FROM alter", "(select (items (col alter)) (from (table alter)))"},
        {"DROP QUERY q", "(drop query q)"},
        {"DROP QUERY IF EXISTS q", "(drop query if-exists q)"},
        {"DROP STREAM s", "(drop stream s)"},
        {"DROP TABLE IF EXISTS t", "(drop table if-exists t)"},
        {"INSERT INTO customers VALUES ('0','standard'), ('1','premium')",
         "(insert customers (values ((str '0') (str 'standard')) ((str '1') (str 'premium'))))"},
        {"INSERT INTO t (a, b) VALUES (1, $1)", "(insert t (columns a b) (values ((int 1) $1)))"},
        {"INSERT INTO t (a, b) SELECT x, y FROM u",
         "(insert t (columns a b) (select (items (col x) (col y)) (from (table u))))"},
        {"INSERT INTO t SELECT * FROM u", "(insert t (select (items *) (from (table u))))"},
        {"INSERT INTO t (SELECT 1)", "(insert t (select (items (int 1))))"},
        {"DELETE FROM customers WHERE customer_id = '1'",
         "(delete customers (where (= (col customer_id) (str '1'))))"},
        {"DELETE FROM c", "(delete c)"},
        {"SHOW QUERIES", "(show queries)"},
        {"SHOW STREAMS", "(show streams)"},
        {"SHOW TABLES", "(show tables)"},
        {"SHOW PROGRESS q", "(show progress q)"},
        {"SHOW RECENT PROGRESS q", "(show recent-progress q)"},
        {"SHOW server_version", "(show variable server_version)"},
        {"SHOW ALL", "(show variable all)"},
        {"SHOW TIME ZONE", "(show variable timezone)"},
        {"SHOW TRANSACTION ISOLATION LEVEL", "(show variable transaction_isolation)"},
        {"SHOW sluice.version", "(show variable sluice.version)"},
        {"DESCRIBE clicks", "(describe clicks)"},
        {"DESCRIBE \"Clicks\"", "(describe \"Clicks\")"},
        {"EXPLAIN SELECT a FROM t", "(explain (select (items (col a)) (from (table t))))"},
        {"EXPLAIN CREATE QUERY q SINK console AS SELECT a FROM s",
         "(explain (create-query q (sink console) (select (items (col a)) (from (table s)))))"},
        {"START QUERY q", "(start-query q)"},
        {"STOP QUERY q", "(stop-query q)"},
        {"AWAIT QUERY q", "(await-query q)"},
        {"AWAIT QUERY q TIMEOUT '10 seconds'", "(await-query q (timeout (str '10 seconds')))"},
        {"AWAIT QUERY q TIMEOUT INTERVAL 5 SECONDS",
         "(await-query q (timeout (interval '5' seconds)))"},
        {"BEGIN", "(begin)"},
        {"BEGIN TRANSACTION", "(begin)"},
        {"BEGIN WORK", "(begin)"},
        {"START TRANSACTION", "(begin)"},
        {"COMMIT", "(commit)"},
        {"COMMIT WORK", "(commit)"},
        {"END", "(commit)"},
        {"END TRANSACTION", "(commit)"},
        {"ROLLBACK", "(rollback)"},
        {"ROLLBACK WORK", "(rollback)"},
        {"ABORT", "(rollback)"},
        {"BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY",
         "(begin (isolation 'repeatable read') (read-only on))"},
        {"START TRANSACTION READ WRITE NOT DEFERRABLE ISOLATION LEVEL SERIALIZABLE",
         "(begin (isolation 'serializable') (read-only off) (deferrable off))"},
        {"BEGIN TRANSACTION ISOLATION LEVEL READ COMMITTED",
         "(begin (isolation 'read committed'))"},
        {"SAVEPOINT s1", "(savepoint s1)"},
        {"RELEASE SAVEPOINT s1", "(release s1)"},
        {"RELEASE s1", "(release s1)"},
        {"ROLLBACK TO SAVEPOINT s1", "(rollback to s1)"},
        {"ROLLBACK WORK TO s1", "(rollback to s1)"},
        {"SET TRANSACTION ISOLATION LEVEL READ UNCOMMITTED",
         "(set-transaction (isolation 'read uncommitted'))"},
        {"SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY",
         "(set-transaction session (read-only on))"},
        {"SET extra_float_digits = 3", "(set extra_float_digits (int 3))"},
        {"SET SESSION application_name TO 'psql'", "(set session application_name (str 'psql'))"},
        {"SET LOCAL b = DEFAULT", "(set local b default)"},
        {"SET search_path TO \"$user\", public", "(set search_path (str '$user') (str 'public'))"},
        {"SET TIME ZONE 'UTC'", "(set timezone (str 'UTC'))"},
        {"SET TIME ZONE LOCAL", "(set timezone default)"},
        {"SET SESSION TIME ZONE DEFAULT", "(set session timezone default)"},
        {"SET standard_conforming_strings = on", "(set standard_conforming_strings (str 'on'))"},
        {"SET y = -1.5", "(set y (num -1.5))"},
        {"SET sluice.flag = true", "(set sluice.flag (bool true))"},
        {"RESET ALL", "(reset all)"},
        {"RESET application_name", "(reset application_name)"},
        {"RESET TIME ZONE", "(reset timezone)"},
        {"DISCARD ALL", "(discard all)"},
        {"PREPARE p (int, varchar(5)) AS SELECT $1, $2",
         "(prepare p (types int varchar(5)) (select (items $1 $2)))"},
        {"PREPARE ins AS INSERT INTO t VALUES ($1)", "(prepare ins (insert t (values ($1))))"},
        {"EXECUTE p(1, 'x' || 'y')", "(execute p (int 1) (|| (str 'x') (str 'y')))"},
        {"EXECUTE p", "(execute p)"},
        {"DEALLOCATE p", "(deallocate p)"},
        {"DEALLOCATE PREPARE ALL", "(deallocate all)"},
};

static const dump_case_t select_cases[] = {
    {"SELECT DISTINCT a FROM t", "(select distinct (items (col a)) (from (table t)))"},
    {"SELECT ALL a FROM t", "(select (items (col a)) (from (table t)))"},
    {"SELECT DISTINCT ON (order_id) * FROM orders WATERMARK ts DELAY OF INTERVAL '1 hour'",
     "(select (distinct-on (col order_id)) (items *) (from (table orders (watermark (col ts) (interval '1 hour')))))"},
    {"SELECT DISTINCT ON (a, b) WITHIN WATERMARK a, t.* FROM orders",
     "(select (distinct-on (col a) (col b) within-watermark) (items (col a) t.*) (from (table orders)))"},
    {"SELECT * FROM a JOIN b ON a.x = b.x",
     "(select (items *) (from (join inner (table a) (table b) (on (= (col a x) (col b x))))))"},
    {"SELECT * FROM a INNER JOIN b USING (k)",
     "(select (items *) (from (join inner (table a) (table b) (using k))))"},
    {"SELECT * FROM a LEFT JOIN b ON true",
     "(select (items *) (from (join left (table a) (table b) (on (bool true)))))"},
    {"SELECT * FROM a LEFT OUTER JOIN b ON true",
     "(select (items *) (from (join left (table a) (table b) (on (bool true)))))"},
    {"SELECT * FROM a RIGHT JOIN b ON true",
     "(select (items *) (from (join right (table a) (table b) (on (bool true)))))"},
    {"SELECT * FROM a RIGHT OUTER JOIN b ON true",
     "(select (items *) (from (join right (table a) (table b) (on (bool true)))))"},
    {"SELECT * FROM a FULL JOIN b ON true",
     "(select (items *) (from (join full (table a) (table b) (on (bool true)))))"},
    {"SELECT * FROM a FULL OUTER JOIN b USING (x, y)",
     "(select (items *) (from (join full (table a) (table b) (using x y))))"},
    {"SELECT * FROM a CROSS JOIN b", "(select (items *) (from (join cross (table a) (table b))))"},
    {"SELECT * FROM a, b, c", "(select (items *) (from (table a) (table b) (table c)))"},
    {"SELECT * FROM a JOIN b ON p LEFT JOIN c ON q",
     "(select (items *) (from (join left (join inner (table a) (table b) (on (col p))) (table c) (on (col q)))))"},
    {"SELECT * FROM impressions i WATERMARK ts DELAY OF '2 hours' JOIN clicks AS c WATERMARK c.ts DELAY OF INTERVAL '3' hours ON i.id = c.id AND c.ts BETWEEN i.ts AND i.ts + INTERVAL '1 hour'",
     "(select (items *) (from (join inner (table impressions (alias i) (watermark (col ts) (str '2 hours'))) (table clicks (alias c) (watermark (col c ts) (interval '3' hours))) (on (and (= (col i id) (col c id)) (between (col c ts) (col i ts) (+ (col i ts) (interval '1 hour'))))))))"},
    {"SELECT x FROM (SELECT a AS x FROM t) AS s WATERMARK x DELAY OF '1 minute', (SELECT 1) u",
     "(select (items (col x)) (from (subquery (select (items (as (col a) x)) (from (table t))) (alias s) (watermark (col x) (str '1 minute'))) (subquery (select (items (int 1))) (alias u))))"},
    {"SELECT * FROM (a JOIN b ON true) AS j, (c)",
     "(select (items *) (from (join inner (table a) (table b) (on (bool true)) (alias j)) (table c)))"},
    {"SELECT * FROM pg_catalog.pg_type t",
     "(select (items *) (from (table pg_catalog.pg_type (alias t))))"},
    {"SELECT a FROM t WHERE a > 1 GROUP BY a, b HAVING count(*) > 1 ORDER BY a DESC NULLS LAST, b ASC, c NULLS FIRST LIMIT 10 OFFSET 5",
     "(select (items (col a)) (from (table t)) (where (> (col a) (int 1))) (group (col a) (col b)) (having (> (func count *) (int 1))) (order (sort (col a) desc nulls-last) (sort (col b)) (sort (col c) nulls-first)) (limit (int 10)) (offset (int 5)))"},
    {"SELECT a FROM t LIMIT ALL", "(select (items (col a)) (from (table t)))"},
    {"SELECT a FROM t OFFSET 3 LIMIT 2",
     "(select (items (col a)) (from (table t)) (limit (int 2)) (offset (int 3)))"},
    {"SELECT 1 OFFSET $1", "(select (items (int 1)) (offset $1))"},
    {"SELECT a FROM s1 UNION ALL SELECT a FROM s2 UNION ALL SELECT a FROM s3 ORDER BY a LIMIT 1",
     "(union-all (select (items (col a)) (from (table s1))) (select (items (col a)) (from (table s2))) (select (items (col a)) (from (table s3))) (order (sort (col a))) (limit (int 1)))"},
    {"SELECT 1 UNION SELECT 2 UNION ALL SELECT 3",
     "(union-all (union (select (items (int 1))) (select (items (int 2)))) (select (items (int 3))))"},
    {"SELECT 1 UNION DISTINCT SELECT 2",
     "(union (select (items (int 1))) (select (items (int 2))))"},
    {"(SELECT 1 ORDER BY 1 LIMIT 1) UNION ALL (SELECT 2) ORDER BY 1",
     "(union-all (select (items (int 1)) (order (sort (int 1))) (limit (int 1))) (select (items (int 2))) (order (sort (int 1))))"},
    {"VALUES (1, 'a'), (2, 'b')", "(values ((int 1) (str 'a')) ((int 2) (str 'b')))"},
    {"SELECT * FROM (VALUES (1), (2)) AS v",
     "(select (items *) (from (subquery (values ((int 1)) ((int 2))) (alias v))))"},
    {"SELECT 1 AS select, 2 AS from, 3 AS \"X\", 4 y, 5 AS end, 6 \"Z\"",
     "(select (items (as (int 1) select) (as (int 2) from) (as (int 3) \"X\") (as (int 4) y) (as (int 5) end) (as (int 6) \"Z\")))"},
    {"SELECT *, t.*, s.t.* FROM t", "(select (items * t.* s.t.*) (from (table t)))"},
    {"SELECT struct(a AS x, b, 1 AS \"end\"), (f(y)).*, (s).t.* FROM t",
     "(select (items (func struct (as (col a) x) (col b) (as (int 1) \"end\")) (fields (func f (col y))) (fields (field (col s) t))) (from (table t)))"},
    {"SELECT * FROM a NATURAL JOIN b NATURAL LEFT OUTER JOIN c NATURAL FULL JOIN d",
     "(select (items *) (from (join natural-full (join natural-left (join natural-inner (table a) (table b)) (table c)) (table d))))"},
    {"SELECT * FROM (VALUES (1, 'a')) AS v(x, y), t u (p), (SELECT 1) s (\"Q\") WATERMARK \"Q\" DELAY OF '1 second'",
     "(select (items *) (from (subquery (values ((int 1) (str 'a'))) (alias v x y)) (table t (alias u p)) (subquery (select (items (int 1))) (alias s \"Q\") (watermark (col \"Q\") (str '1 second')))))"},
    {"SELECT * FROM (a JOIN b USING (k)) AS j (x, y)",
     "(select (items *) (from (join inner (table a) (table b) (using k) (alias j x y))))"},
    {"WITH c AS (SELECT 1), d (x, y) AS (SELECT * FROM c) SELECT * FROM d",
     "(with (cte c (select (items (int 1)))) (cte d (cols x y) (select (items *) (from (table c))))) (select (items *) (from (table d)))"},
    {"WITH c AS (SELECT 1) SELECT 2 UNION ALL SELECT 3 ORDER BY 1 LIMIT 1",
     "(with (cte c (select (items (int 1))))) (union-all (select (items (int 2))) (select (items (int 3))) (order (sort (int 1))) (limit (int 1)))"},
    {"SELECT * FROM (WITH c AS (SELECT 1) SELECT * FROM c) s",
     "(select (items *) (from (subquery (with (cte c (select (items (int 1))))) (select (items *) (from (table c))) (alias s))))"},
    {"CREATE QUERY q AS WITH w AS (SELECT * FROM s) SELECT * FROM w",
     "(create-query q (with (cte w (select (items *) (from (table s))))) (select (items *) (from (table w))))"},
    {"INSERT INTO t WITH c AS (SELECT 1) SELECT * FROM c",
     "(insert t (with (cte c (select (items (int 1))))) (select (items *) (from (table c))))"},
};

static const dump_case_t
    expression_cases[] =
        {
            {"SELECT 1 + 2 * 3, (1 + 2) * 3",
             "(select (items (+ (int 1) (* (int 2) (int 3))) (* (+ (int 1) (int 2)) (int 3))))"},
            {"SELECT a % b / c * d - e + f",
             "(select (items (+ (- (* (/ (% (col a) (col b)) (col c)) (col d)) (col e)) (col f))))"},
            {"SELECT -a + b, - 5, -9223372036854775808, +1, -(2), - -3, -1.5e3",
             "(select (items (+ (- (col a)) (col b)) (int -5) (int -9223372036854775808) (+ (int 1)) (int -2) (int 3) (num -1.5e3)))"},
            {"SELECT a || b = c, 'x' || 1 + 2",
             "(select (items (= (|| (col a) (col b)) (col c)) (|| (str 'x') (+ (int 1) (int 2)))))"},
            {"SELECT NOT a = b AND c OR d, a AND NOT b, NOT NOT a",
             "(select (items (or (and (not (= (col a) (col b))) (col c)) (col d)) (and (col a) (not (col b))) (not (not (col a)))))"},
            {"SELECT a = 1 OR b <> 2 OR c != 3 AND d <= 4 AND e >= 5 AND f < 6 AND g > 7",
             "(select (items (or (or (= (col a) (int 1)) (<> (col b) (int 2))) (and (and (and (and (<> (col c) (int 3)) (<= (col d) (int 4))) (>= (col e) (int 5))) (< (col f) (int 6))) (> (col g) (int 7))))))"},
            {"SELECT a BETWEEN 1 AND 2 AND c, a NOT BETWEEN b + 1 AND c * 2",
             "(select (items (and (between (col a) (int 1) (int 2)) (col c)) (not-between (col a) (+ (col b) (int 1)) (* (col c) (int 2)))))"},
            {"SELECT a IN (1, 2), a NOT IN ('x'), NOT a IN (1), a + 1 IN (b)",
             "(select (items (in (col a) (int 1) (int 2)) (not-in (col a) (str 'x')) (not (in (col a) (int 1))) (in (+ (col a) (int 1)) (col b))))"},
            {"SELECT a LIKE 'x%', a NOT LIKE 'y', a ILIKE 'z', a NOT ILIKE 'w', a || b LIKE c",
             "(select (items (like (col a) (str 'x%')) (not-like (col a) (str 'y')) (ilike (col a) (str 'z')) (not-ilike (col a) (str 'w')) (like (|| (col a) (col b)) (col c))))"},
            {"SELECT a = b LIKE c, a LIKE b = c",
             "(select (items (= (col a) (like (col b) (col c))) (= (like (col a) (col b)) (col c))))"},
            {"SELECT a IS NULL, a IS NOT NULL, a IS TRUE, a IS NOT TRUE, a IS FALSE, a IS NOT FALSE",
             "(select (items (is-null (col a)) (is-not-null (col a)) (is-true (col a)) (is-not-true (col a)) (is-false (col a)) (is-not-false (col a))))"},
            {"SELECT a IS DISTINCT FROM b, a IS NOT DISTINCT FROM b + 1, a = b IS NULL",
             "(select (items (is-distinct-from (col a) (col b)) (is-not-distinct-from (col a) (+ (col b) (int 1))) (is-null (= (col a) (col b)))))"},
            {"SELECT CAST(a AS BIGINT), a::int, a::decimal(10,2)::string, CAST(x AS STRUCT<a:INT>), -a::int, CAST(t AS TIMESTAMP)",
             "(select (items (cast (col a) bigint) (cast (col a) int) (cast (cast (col a) decimal(10,2)) string) (cast (col x) struct<a:int>) (- (cast (col a) int)) (cast (col t) timestamp)))"},
            {"SELECT a::double precision, CAST(b AS DATE), c::interval",
             "(select (items (cast (col a) double precision) (cast (col b) date) (cast (col c) interval)))"},
            {"SELECT CASE WHEN a > 1 THEN 'x' WHEN a < 0 THEN 'y' ELSE 'z' END, CASE a WHEN 1 THEN 2 END",
             "(select (items (case (when (> (col a) (int 1)) (str 'x')) (when (< (col a) (int 0)) (str 'y')) (else (str 'z'))) (case (col a) (when (int 1) (int 2)))))"},
            {"SELECT TIMESTAMP '2020-01-01 00:00:00', DATE '2020-01-01', INTERVAL '15 minutes', INTERVAL '1' HOUR, INTERVAL 15 MINUTES, INTERVAL 1.5 hours",
             "(select (items (timestamp '2020-01-01 00:00:00') (date '2020-01-01') (interval '15 minutes') (interval '1' hour) (interval '15' minutes) (interval '1.5' hours)))"},
            {"SELECT 1.5, .5, 1., 1e3, 1.5E-3, 12345678901234567890123",
             "(select (items (num 1.5) (num .5) (num 1.) (num 1e3) (num 1.5E-3) (int 12345678901234567890123)))"},
            {"SELECT 'it''s', E'a\\nb\\'c\\\\d\\x41', '', TRUE, FALSE, NULL",
             "(select (items (str 'it''s') (str 'a\\x0ab''c\\\\dA') (str '') (bool true) (bool false) null))"},
            {"SELECT (a).b, f(x).y, (t.s).f.g, t.window.start, \"Quoted Col\", `back tick`, \"a\"\"b\"",
             "(select (items (field (col a) b) (field (func f (col x)) y) (field (field (col t s) f) g) (col t window start) (col \"Quoted Col\") (col \"back tick\") (col \"a\"\"b\")))"},
            {"SELECT count(DISTINCT a), sum(ALL b), f(), now(), coalesce(a, b, c), count(*)",
             "(select (items (func count distinct (col a)) (func sum (col b)) (func f) (func now) (func coalesce (col a) (col b) (col c)) (func count *)))"},
            {"SELECT left(s, 3), right(s, 2), date(ts), timestamp(x), if(a, b, c), first(x), last(y), struct(a, b)",
             "(select (items (func left (col s) (int 3)) (func right (col s) (int 2)) (func date (col ts)) (func timestamp (col x)) (func if (col a) (col b) (col c)) (func first (col x)) (func last (col y)) (func struct (col a) (col b))))"},
            {"SELECT pg_catalog.set_config('search_path', '', false), s.f(DISTINCT x), a.b.c(1)",
             "(select (items (func pg_catalog.set_config (str 'search_path') (str '') (bool false)) (func s.f distinct (col x)) (func a.b.c (int 1))))"},
            {"SELECT $1, $2 + $10", "(select (items $1 (+ $2 $10)))"},
            {"SELECT from_json(CAST(value AS STRING), 'a INT, b STRING').a",
             "(select (items (field (func from_json (cast (col value) string) (str 'a INT, b STRING')) a)))"},
            {"SELECT window.end, t.end, t.select, x.from",
             "(select (items (col window end) (col t end) (col t select) (col x from)))"},
            {"SELECT ÄÖÜ, größe FROM straße",
             "(select (items (col ÄÖÜ) (col größe)) (from (table straße)))"},
            {"SELECT 1 -- trailing comment", "(select (items (int 1)))"},
            {"/* leading */ SELECT /* nested /* comment */ here */ 2", "(select (items (int 2)))"},
            {"SELECT a LIKE 'x!%' ESCAPE '!', a NOT LIKE b ESCAPE c, a ILIKE 'z' ESCAPE '', a NOT ILIKE 'w' ESCAPE e || f",
             "(select (items (like (col a) (str 'x!%') (str '!')) (not-like (col a) (col b) (col c)) (ilike (col a) (str 'z') (str '')) (not-ilike (col a) (str 'w') (|| (col e) (col f)))))"},
            {"SELECT a LIKE b ESCAPE c = d, escape FROM t escape",
             "(select (items (= (like (col a) (col b) (col c)) (col d)) (col escape)) (from (table t (alias escape))))"},
            {"SELECT substring(s FROM 2), substring(s FROM a + 1 FOR 3), substr(s FROM 1 FOR 2), substring(s, 1)",
             "(select (items (func substring (col s) (int 2)) (func substring (col s) (+ (col a) (int 1)) (int 3)) (func substr (col s) (int 1) (int 2)) (func substring (col s) (int 1))))"},
            {"SELECT extract(year FROM ts), extract(DOW FROM d), EXTRACT('second' FROM ts), extract(day FROM ts + INTERVAL '1' DAY)", "(select (items (func extract (str 'year') (col ts)) (func extract (str 'dow') (col d)) (func extract (str 'second') (col ts)) (func extract (str 'day') (+ (col ts) (interval '1' day)))))"},
            {"SELECT trim(s), trim('x' FROM s), trim(BOTH FROM s), trim(LEADING 'ab' FROM s), trim(TRAILING c FROM s), trim(both FROM s || t)",
             "(select (items (func trim (col s)) (func btrim (col s) (str 'x')) (func btrim (col s)) (func ltrim (str 'ab') (col s)) (func rtrim (col c) (col s)) (func btrim (|| (col s) (col t)))))"},
            {"SELECT position('b' IN s), position(a || 'b' IN ('abc')), position(x, y), POSITION(CASE WHEN a IN (1) THEN 'b' END IN s), position(position('a' IN b) IN c)",
             "(select (items (func position (str 'b') (col s)) (func position (|| (col a) (str 'b')) (str 'abc')) (func position (col x) (col y)) (func position (case (when (in (col a) (int 1)) (str 'b'))) (col s)) (func position (func position (str 'a') (col b)) (col c))))"},
            {"SELECT position FROM t WHERE position IN (1, 2) AND \"position\"(a IN (b))",
             "(select (items (col position)) (from (table t)) (where (and (in (col position) (int 1) (int 2)) (func \"position\" (in (col a) (col b))))))"},
            {"SELECT (SELECT max(a) FROM t), EXISTS (SELECT 1), NOT EXISTS (SELECT 1 FROM t WHERE b), x IN (SELECT y FROM u), x NOT IN (SELECT 1 UNION SELECT 2)",
             "(select (items (subquery (select (items (func max (col a))) (from (table t)))) (exists (select (items (int 1)))) (not (exists (select (items (int 1)) (from (table t)) (where (col b))))) (in (col x) (select (items (col y)) (from (table u)))) (not-in (col x) (union (select (items (int 1))) (select (items (int 2)))))))"},
            {"SELECT ((SELECT 1)), (SELECT 1) + 1, x IN ((SELECT 1)), ((SELECT 1) UNION (SELECT 2))",
             "(select (items (subquery (select (items (int 1)))) (+ (subquery (select (items (int 1)))) (int 1)) (in (col x) (select (items (int 1)))) (subquery (union (select (items (int 1))) (select (items (int 2)))))))"},
            {"SELECT exists, exists.a FROM exists WHERE exists > 1",
             "(select (items (col exists) (col exists a)) (from (table exists)) (where (> (col exists) (int 1))))"},
};

static const error_case_t error_cases[] = {
    {"SELECT foo FROM", "syntax error at end of input", 16},
    {"SELEC 1", "syntax error at or near \"SELEC\"", 1},
    {"SELECT lower(a AS x)", "syntax error at or near \"AS\"", 16},
    {"PREPARE p AS BEGIN", "syntax error at or near \"BEGIN\"", 14},
    {"SELECT 1; SELEC 2", "syntax error at or near \"SELEC\"", 11},
    {"SELECT 1 +", "syntax error at end of input", 11},
    {"SELECT 1 +   ", "syntax error at end of input", 14},
    {"SELECT 1 +;", "syntax error at or near \";\"", 11},
    {"SELECT 'abc", "unterminated quoted string at or near \"'abc\"", 8},
    {"SELECT 'é' || 'abc", "unterminated quoted string at or near \"'abc\"", 15},
    {"SELECT /* abc", "unterminated /* comment at or near \"/* abc\"", 8},
    {"SELECT /* a /* b */ c", "unterminated /* comment at or near \"/* a /* b */ c\"", 8},
    {"SELECT \"abc", "unterminated quoted identifier at or near \"\"abc\"", 8},
    {"SELECT \"\"", "zero-length delimited identifier at or near \"\"\"\"", 8},
    {"SELECT `abc", "unterminated quoted identifier at or near \"`abc\"", 8},
    {"SELECT 123abc", "trailing junk after numeric literal at or near \"123a\"", 8},
    {"SELECT 1.5e", "trailing junk after numeric literal at or near \"1.5e\"", 8},
    {"SELECT $65536", "parameter number too large at or near \"$65536\"", 8},
    {"SELECT $1x", "trailing junk after parameter at or near \"$1x\"", 8},
    {"SELECT $", "syntax error at or near \"$\"", 8},
    {"SELECT 1 #", "syntax error at or near \"#\"", 10},
    {"SELECT a FROM t WHERE", "syntax error at end of input", 22},
    {"SELECT select", "syntax error at or near \"select\"", 8},
    {"SELECT 'é', é + é ++ #", "syntax error at or near \"#\"", 22},
    {"é SELECT", "syntax error at or near \"é\"", 1},
    {"SELECT 1 'abc'", "syntax error at or near \"'abc'\"", 10},
    {"SELECT a FROM t LIMIT 1 LIMIT 2", "syntax error at or near \"LIMIT\"", 25},
    {"(SELECT 1 LIMIT 1) LIMIT 2", "multiple LIMIT clauses not allowed", 20},
    {"(SELECT 1 ORDER BY 1) ORDER BY 1", "multiple ORDER BY clauses not allowed", 32},
    {"(SELECT 1 OFFSET 1) OFFSET 2", "multiple OFFSET clauses not allowed", 21},
    {"CREATE QUERY q TRIGGER ONCE TRIGGER ONCE AS SELECT 1",
     "TRIGGER clause specified more than once", 29},
    {"CREATE QUERY q SINK memory SINK x AS SELECT 1", "SINK clause specified more than once", 28},
    {"CREATE QUERY q OPTIONS (a 1) OPTIONS (b 2) AS SELECT 1",
     "OPTIONS clause specified more than once", 30},
    {"CREATE QUERY q OUTPUT MODE append OUTPUT MODE append AS SELECT 1",
     "OUTPUT MODE clause specified more than once", 35},
    {"CREATE QUERY q CHECKPOINT 'a' CHECKPOINT 'b' AS SELECT 1",
     "CHECKPOINT clause specified more than once", 31},
    {"CREATE QUERY q OUTPUT MODE foo AS SELECT 1", "unrecognized output mode \"foo\"", 28},
    {"CREATE QUERY q OUTPUT MODE \"append\" AS SELECT 1", "unrecognized output mode \"append\"",
     28},
    {"CREATE QUERY q AS", "syntax error at end of input", 18},
    {"CREATE TABLE t", "syntax error at end of input", 15},
    {"CREATE STREAM s (a INT)", "syntax error at end of input", 24},
    {"SELECT a FROM (SELECT 1)", "syntax error at end of input", 25},
    {"SELECT * FROM a JOIN b", "syntax error at end of input", 23},
    {"SELECT CAST(a AS)", "syntax error at or near \")\"", 17},
    {"SELECT a NOT NULL", "syntax error at or near \"NOT\"", 10},
    {"DROP VIEW v", "syntax error at or near \"VIEW\"", 6},
    {"SELECT 1 a b", "syntax error at or near \"b\"", 12},
    {"INSERT INTO t VALUES", "syntax error at end of input", 21},
    {"SET x", "syntax error at end of input", 6},
    {"SELECT a b c d FROM t WHERE 🙂 = 1", "syntax error at or near \"c\"", 12},
    {"SELECT lower(a FROM b)", "syntax error at or near \"FROM\"", 16},
    {"SELECT trim(a FROM b FOR c)", "syntax error at or near \"FOR\"", 22},
    {"SELECT \"substring\"(a FROM b)", "syntax error at or near \"FROM\"", 22},
    {"SELECT upper(LEADING 'x' FROM b)", "syntax error at or near \"LEADING\"", 14},
    {"SELECT extract(t.year FROM b)", "syntax error at or near \"t.year\"", 16},
    {"SELECT trim(a, LEADING FROM b)", "syntax error at or near \"LEADING\"", 16},
    {"SELECT leading FROM t", "syntax error at or near \"leading\"", 8},
    {"SELECT * FROM a NATURAL JOIN b ON true", "syntax error at or near \"ON\"", 32},
    {"SELECT * FROM a NATURAL CROSS JOIN b", "syntax error at or near \"CROSS\"", 25},
    {"SELECT * FROM (SELECT 1) AS s ()", "syntax error at or near \")\"", 32},
    {"WITH c AS (SELECT 1) (WITH d AS (SELECT 2) SELECT 3)", "multiple WITH clauses not allowed",
     1},
    {"WITH c (SELECT 1) SELECT 2", "syntax error at or near \"SELECT\"", 9},
    {"SELECT a LIKE b ESCAPE", "syntax error at end of input", 23},
    {"SELECT EXISTS SELECT 1", "syntax error at or near \"SELECT\"", 15},
};

/* The syntax PostgreSQL clients' catalog queries send (parser/ast_pg.c). */
static const dump_case_t pg_syntax_cases[] = {
    {"SELECT a ~ 'x', a !~ 'x', a ~* 'x', a !~* 'x' FROM t",
     "(select (items (~ (col a) (str 'x')) (!~ (col a) (str 'x')) (~* (col a) (str 'x')) (!~* (col a) (str 'x'))) (from (table t)))"},
    {"SELECT 1 WHERE c.relname OPERATOR(pg_catalog.~) '^(t)$' COLLATE pg_catalog.default",
     "(select (items (int 1)) (where (~ (col c relname) (collate (str '^(t)$') pg_catalog.default))))"},
    {"SELECT 'x' || 'y' ~ 'z' AND 1 + 1 = 2",
     "(select (items (and (~ (|| (str 'x') (str 'y')) (str 'z')) (= (+ (int 1) (int 1)) (int 2)))))"},
    {"SELECT x::pg_catalog.regtype::pg_catalog.text, y::int2[], z::pg_catalog.oid[]",
     "(select (items (cast (cast (col x) regtype) text) (cast (col y) int2[]) (cast (col z) oid[])))"},
    {"SELECT ARRAY(SELECT 1), 'a' = ANY (SELECT b FROM t), 'a' = ANY (c.arr), k[1], (current_schemas(true))[1]",
     "(select (items (array (select (items (int 1)))) (in (str 'a') (select (items (col b)) (from (table t)))) (func array_contains (col c arr) (str 'a')) (func element_at (col k) (int 1)) (func element_at (func current_schemas (bool true)) (int 1))))"},
    {"SELECT last_value(a) OVER (ORDER BY b ROWS BETWEEN 2 PRECEDING AND UNBOUNDED FOLLOWING), "
     "first_value(a) OVER (RANGE CURRENT ROW) FROM t",
     "(select (items (func last_value (col a) (over (order (sort (col b))) (rows (preceding (int 2)) (unbounded-following)))) (func first_value (col a) (over (range (current-row) (current-row))))) (from (table t)))"},
    {"SELECT sum(a) FILTER (WHERE a > 1) OVER w, rank() OVER (w ORDER BY b ROWS 1 PRECEDING), "
     "count(*) FILTER (WHERE b) FROM t WINDOW w AS (PARTITION BY c), w2 AS (w)",
     "(select (items (func sum (col a) (filter (> (col a) (int 1))) (over w)) (func rank (over w (order (sort (col b))) (rows (preceding (int 1)) (current-row)))) (func count * (filter (col b)))) (from (table t)) (windows (w (over (partition (col c)))) (w2 (over w))))"},
    {"SELECT window(ts, '5 minutes'), filter FROM t GROUP BY window(ts, '5 minutes'), filter",
     "(select (items (func window (col ts) (str '5 minutes')) (col filter)) (from (table t)) (group (func window (col ts) (str '5 minutes')) (col filter)))"},
    {"SELECT row_number() OVER (PARTITION BY a, b ORDER BY c DESC), row_number() OVER () FROM t",
     "(select (items (func row_number (over (partition (col a) (col b)) (order (sort (col c) desc)))) (func row_number (over))) (from (table t)))"},
    {"SELECT s FROM pg_catalog.generate_series(1, 3) s, unnest(x) AS u (v)",
     "(select (items (col s)) (from (function generate_series (int 1) (int 3) (alias s)) (function unnest (col x) (alias u v))))"},
    {"SELECT 1 AS any, 2 AS array, 3 AS collate, operator, over, partition FROM t",
     "(select (items (as (int 1) any) (as (int 2) array) (as (int 3) collate) (col operator) (col over) (col partition)) (from (table t)))"},
    /* schemas are the binder's to check */
    {"SELECT a OPERATOR(public.~) 'x', a::myschema.text FROM s.f(1)",
     "(select (items (~ (col a) (str 'x')) (cast (col a) text)) (from (function f (int 1))))"},
};

TEST(statements)
{
    CHECK_INT(RUN_CASES(statement_cases), 0);
}

TEST(select_clauses)
{
    CHECK_INT(RUN_CASES(select_cases), 0);
}

TEST(postgres_catalog_syntax)
{
    CHECK_INT(RUN_CASES(pg_syntax_cases), 0);
}

TEST(expressions_and_precedence)
{
    CHECK_INT(RUN_CASES(expression_cases), 0);
}

TEST(syntax_errors_with_positions)
{
    sl_arena_t *a = sl_arena_new("test");
    int failed = 0;
    for (size_t i = 0; i < sizeof error_cases / sizeof error_cases[0]; i++) {
        const error_case_t *c = &error_cases[i];
        const char *want = sl_printf(a, "ERROR 42601 %s @%d", c->message, c->position);
        const char *got = parse_dump(a, c->sql, strlen(c->sql));
        if (strcmp(got, want) == 0) continue;
        fprintf(stderr, "  sql:      %s\n  got:      %s\n  expected: %s\n", c->sql, got, want);
        failed++;
    }
    sl_arena_free(a);
    CHECK_INT(failed, 0);
}

TEST(error_fields)
{
    sl_arena_t *a = sl_arena_new("test");
    ast_stmt_list_t l;
    sl_error_t err;
    const char *sql = "CREATE QUERY q OUTPUT MODE sometimes AS SELECT 1";
    CHECK_INT(parse_sql(sql, strlen(sql), a, &l, &err), -1);
    CHECK_STR(err.sqlstate, "42601");
    CHECK_STR(err.message, "unrecognized output mode \"sometimes\"");
    CHECK_STR(err.hint, "Output modes are append, update and complete.");
    CHECK_INT(err.position, 28);
    CHECK_INT(l.n, 0); /* nothing is returned on error */
    CHECK(l.items == NULL);
    /* a long token is quoted, cut on a character boundary */
    sl_buf_t b = SL_BUF_INIT;
    sl_buf_puts(&b, "SELECT 1 '");
    for (int i = 0; i < 300; i++) sl_buf_puts(&b, "é");
    sl_buf_puts(&b, "'");
    CHECK_INT(parse_sql(b.data, b.len, a, &l, &err), -1);
    CHECK(strncmp(err.message, "syntax error at or near \"'éé", 29) == 0);
    /* 400 bytes would split the 200th 'é': the quote holds "'" and 199 of them */
    CHECK_INT(strlen(err.message), 25 + 1 + 199 * 2 + 1);
    CHECK_INT(err.position, 10);
    sl_buf_free(&b);
    sl_arena_free(a);
}

TEST(statement_ranges)
{
    sl_arena_t *a = sl_arena_new("test");
    ast_stmt_list_t l;
    sl_error_t err;
    const char *sql =
        "  CREATE TABLE t (a INT) ;\n-- note\nSELECT a FROM t\t;;; /* x */ SHOW QUERIES";
    CHECK_INT(parse_sql(sql, strlen(sql), a, &l, &err), 0);
    CHECK_INT(l.n, 3);
    const char *want[] = {"CREATE TABLE t (a INT)", "SELECT a FROM t", "SHOW QUERIES"};
    ast_stmt_kind_t kinds[] = {AST_STMT_CREATE_TABLE, AST_STMT_SELECT, AST_STMT_SHOW};
    for (int i = 0; i < 3; i++) {
        const ast_stmt_t *s = l.items[i];
        CHECK_INT(s->kind, kinds[i]);
        CHECK_INT(s->pos, s->start);
        CHECK_STR(sl_strndup(a, sql + s->start, (size_t)(s->end - s->start)), want[i]);
    }
    CHECK_INT(l.items[0]->start, 2);
    CHECK_STR(ast_stmt_kind_name(l.items[0]->kind), "CREATE TABLE");
    /* the CREATE QUERY's select text can be quoted from its node */
    sql = "CREATE QUERY q SINK memory AS SELECT a\nFROM s ;";
    CHECK_INT(parse_sql(sql, strlen(sql), a, &l, &err), 0);
    const ast_select_t *q = l.items[0]->create_query.select;
    CHECK_STR(sl_strndup(a, sql + q->pos, (size_t)(q->end - q->pos)), "SELECT a\nFROM s");
    sl_arena_free(a);
}

TEST(empty_statements_and_comments)
{
    sl_arena_t *a = sl_arena_new("test");
    const char *inputs[] = {
        "", ";", ";;", "  ;\n ; ", "-- only a comment", "/* a /* nested */ one */", "/**/;--x\n;"};
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
        ast_stmt_list_t l = {5, NULL, 9};
        sl_error_t err;
        CHECK_INT(parse_sql(inputs[i], strlen(inputs[i]), a, &l, &err), 0);
        CHECK_INT(l.n, 0);
        CHECK_INT(l.max_param, 0);
    }
    sl_arena_free(a);
}

TEST(input_is_not_nul_terminated)
{
    sl_arena_t *a = sl_arena_new("test");
    /* only the first len bytes count: the rest must never be read */
    const char buf[] = "SELECT abc'unterminated";
    CHECK_STR(parse_dump(a, buf, 10), "(select (items (col abc)))");
    CHECK_STR(parse_dump(a, "SELECT 12e", 9), "(select (items (int 12)))");
    CHECK_STR(parse_dump(a, "SELECT $12", 9), "(select (items $1))");
    CHECK_STR(parse_dump(a, "SELECT 'ab'", 10),
              "ERROR 42601 unterminated quoted string at or near \"'ab\" @8");
    CHECK_STR(parse_dump(a, "SELECT 1 /*/", 11),
              "ERROR 42601 unterminated /* comment at or near \"/*\" @10");
    sl_arena_free(a);
}

TEST(max_param)
{
    sl_arena_t *a = sl_arena_new("test");
    ast_stmt_list_t l;
    sl_error_t err;
    const char *sql = "SELECT $2 FROM t WHERE a = $7; INSERT INTO t VALUES ($3, $1)";
    CHECK_INT(parse_sql(sql, strlen(sql), a, &l, &err), 0);
    CHECK_INT(l.n, 2);
    CHECK_INT(l.max_param, 7);
    sql = "SELECT 1";
    CHECK_INT(parse_sql(sql, strlen(sql), a, &l, &err), 0);
    CHECK_INT(l.max_param, 0);
    sql = "SELECT $65535";
    CHECK_INT(parse_sql(sql, strlen(sql), a, &l, &err), 0);
    CHECK_INT(l.max_param, 65535);
    CHECK_INT(l.items[0]->select->items.items[0]->expr->param, 65535);
    sl_arena_free(a);
}

TEST(char_positions)
{
    const char *s = "aé🙂b";
    CHECK_INT(parse_char_position(s, strlen(s), 0), 1);
    CHECK_INT(parse_char_position(s, strlen(s), 1), 2);
    CHECK_INT(parse_char_position(s, strlen(s), 3), 3);
    CHECK_INT(parse_char_position(s, strlen(s), 7), 4);
    CHECK_INT(parse_char_position(s, strlen(s), 8), 5);
    CHECK_INT(parse_char_position(s, strlen(s), 100), 5);
    sl_arena_t *a = sl_arena_new("test");
    /* after multi-byte characters in an earlier statement and in strings */
    CHECK_STR(parse_dump(a, "SELECT 'ü'; SELECT 'größe', straße +",
                         strlen("SELECT 'ü'; SELECT 'größe', straße +")),
              "ERROR 42601 syntax error at end of input @37");
    CHECK_STR(parse_dump(a, "SELECT '🙂🙂' FROM WHERE", strlen("SELECT '🙂🙂' FROM WHERE")),
              "ERROR 42601 syntax error at or near \"WHERE\" @18");
    sl_arena_free(a);
}

/* Every keyword-as-identifier case of the brief. */
static const dump_case_t keyword_ident_cases[] = {
    {"SELECT timestamp, value FROM rate_stream WHERE key = 'x'",
     "(select (items (col timestamp) (col value)) (from (table rate_stream)) (where (= (col key) (str 'x'))))"},
    {"SELECT offset, partition, topic FROM k WHERE offset > 5 ORDER BY offset",
     "(select (items (col offset) (col partition) (col topic)) (from (table k)) (where (> (col offset) (int 5))) (order (sort (col offset))))"},
    {"SELECT window.start, window.end, count(*) FROM t GROUP BY window(ts, '1 hour')",
     "(select (items (col window start) (col window end) (func count *)) (from (table t)) (group (func window (col ts) (str '1 hour'))))"},
    {"SELECT date, start, end, name, type, status, source FROM t",
     "(select (items (col date) (col start) (col end) (col name) (col type) (col status) (col source)) (from (table t)))"},
    {"SELECT sink, mode, trigger, query, stream, options, interval, watermark FROM t",
     "(select (items (col sink) (col mode) (col trigger) (col query) (col stream) (col options) (col interval) (col watermark)) (from (table t)))"},
    {"SELECT x FROM t WHERE timestamp > TIMESTAMP '2020-01-01' AND date = DATE '2020-01-01'",
     "(select (items (col x)) (from (table t)) (where (and (> (col timestamp) (timestamp '2020-01-01')) (= (col date) (date '2020-01-01')))))"},
    {"SELECT interval FROM t WHERE interval > INTERVAL '1 hour'",
     "(select (items (col interval)) (from (table t)) (where (> (col interval) (interval '1 hour'))))"},
    {"CREATE TABLE t (offset BIGINT, timestamp TIMESTAMP, date DATE, interval INTERVAL, watermark INT, key BINARY, value BINARY, table STRING, end INT)",
     "(create-table t (columns (offset bigint) (timestamp timestamp) (date date) (interval interval) (watermark int) (key binary) (value binary) (table string) (end int)))"},
    {"CREATE STREAM s USING nexmark OPTIONS (table 'bid', mode 'x', format 'json', trigger 'y', options 'z')",
     "(create-stream s (using nexmark) (options (table 'bid') (mode 'x') (format 'json') (trigger 'y') (options 'z')))"},
    {"SELECT a FROM t LIMIT 3 OFFSET 2",
     "(select (items (col a)) (from (table t)) (limit (int 3)) (offset (int 2)))"},
    {"SELECT a FROM t WATERMARK, u",
     "(select (items (col a)) (from (table t (alias watermark)) (table u)))"},
    {"SELECT x FROM stream WHERE query = 'q' AND sink = 's'",
     "(select (items (col x)) (from (table stream)) (where (and (= (col query) (str 'q')) (= (col sink) (str 's')))))"},
    {"SELECT \"select\", t.from, \"FROM\" FROM t",
     "(select (items (col \"select\") (col t from) (col \"FROM\")) (from (table t)))"},
};

TEST(keywords_as_identifiers)
{
    CHECK_INT(RUN_CASES(keyword_ident_cases), 0);
}

/* keywords.def is sorted, and its categories agree with the grammar's
 * %fallback list and with how each word parses. */
TEST(keyword_table)
{
    sl_arena_t *a = sl_arena_new("test");
    int n = parse_keyword_count(), failed = 0;
    CHECK(n > 100);
    const char *prev = "";
    for (int i = 0; i < n; i++) {
        int code, cat;
        const char *w = parse_keyword_at(i, &code, &cat);
        CHECK(strcmp(prev, w) < 0);
        prev = w;
        char upper[32];
        for (size_t j = 0; j <= strlen(w); j++)
            upper[j] = (char)(w[j] >= 'a' && w[j] <= 'z' ? w[j] - 32 : w[j]);
        CHECK_INT(parse_keyword_code(upper, strlen(upper)), code);
        CHECK_INT(parse_token_fallback(code), cat == 'U' ? TK_ID : 0);
        CHECK_INT(parse_is_reserved_word(w, strlen(w)), cat == 'R');
        /* any keyword is a column label after AS and a field name after '.' */
        const char *sql = sl_printf(a, "SELECT 1 AS %s, t.%s", w, w);
        const char *got = parse_dump(a, sql, strlen(sql));
        if (strcmp(got, sl_printf(a, "(select (items (as (int 1) %s) (col t %s)))", w, w))) {
            fprintf(stderr, "  %s: %s\n", w, got);
            failed++;
        }
        /* non-reserved and contextual words are column names */
        sql = sl_printf(a, "CREATE TABLE t (%s INT)", w);
        got = parse_dump(a, sql, strlen(sql));
        int is_col = strcmp(got, sl_printf(a, "(create-table t (columns (%s int)))", w)) == 0;
        if (is_col != (cat != 'R')) {
            fprintf(stderr, "  %s (%c): %s\n", w, cat, got);
            failed++;
        }
    }
    CHECK_INT(failed, 0);
    CHECK_INT(parse_keyword_code("SeLeCt", 6), TK_SELECT);
    CHECK_INT(parse_keyword_code("selects", 7), 0);
    CHECK_INT(parse_keyword_code("microsecondsx", 13), 0);
    sl_arena_free(a);
}

TEST(node_positions)
{
    sl_arena_t *a = sl_arena_new("test");
    ast_stmt_list_t l;
    sl_error_t err;
    const char *sql =
        "SELECT  (a + 1) * f(b, 'x') AS y, -c::int, CASE WHEN d THEN 1 END FROM t x JOIN u ON x.k = u.k";
    CHECK_INT(parse_sql(sql, strlen(sql), a, &l, &err), 0);
    const ast_select_t *q = l.items[0]->select;
#define SRC(node) sl_strndup(a, sql + (node)->pos, (size_t)((node)->end - (node)->pos))
    CHECK_STR(SRC(q->items.items[0]), "(a + 1) * f(b, 'x') AS y");
    CHECK_STR(SRC(q->items.items[0]->expr), "(a + 1) * f(b, 'x')");
    CHECK_STR(SRC(q->items.items[0]->expr->left), "(a + 1)");
    CHECK_STR(SRC(q->items.items[0]->expr->left->left), "a");
    CHECK_STR(SRC(q->items.items[0]->expr->right), "f(b, 'x')");
    CHECK_STR(SRC(q->items.items[0]->expr->right->args.items[1]), "'x'");
    CHECK_STR(SRC(q->items.items[0]->alias), "y");
    CHECK_STR(SRC(q->items.items[1]->expr), "-c::int");
    CHECK_STR(SRC(q->items.items[1]->expr->arg->type), "int");
    CHECK_STR(SRC(q->items.items[2]->expr), "CASE WHEN d THEN 1 END");
    CHECK_STR(SRC(q->from.items[0]), "t x JOIN u ON x.k = u.k");
    CHECK_STR(SRC(q->from.items[0]->left), "t x");
    CHECK_STR(SRC(q->from.items[0]->on), "x.k = u.k");
    CHECK_STR(
        SRC(q),
        "SELECT  (a + 1) * f(b, 'x') AS y, -c::int, CASE WHEN d THEN 1 END FROM t x JOIN u ON x.k = u.k");
    sql =
        "CREATE STREAM s (a INT NOT NULL, b DECIMAL(10, 2)) USING kafka OPTIONS (k = 'v') WATERMARK a DELAY OF '1 minute'";
    CHECK_INT(parse_sql(sql, strlen(sql), a, &l, &err), 0);
    const ast_create_stream_t *cs = &l.items[0]->create_stream;
    CHECK_STR(SRC(cs->columns.items[0]), "a INT NOT NULL");
    CHECK_STR(SRC(cs->columns.items[1]->type), "DECIMAL(10, 2)");
    CHECK_STR(SRC(cs->options.items[0]), "k = 'v'");
    CHECK_STR(SRC(cs->watermark), "WATERMARK a DELAY OF '1 minute'");
    CHECK_INT(cs->watermark->delay->lit, AST_LIT_STRING);
    CHECK_STR(cs->watermark->delay->text, "1 minute");
    CHECK_INT(cs->options.items[0]->kind, AST_OPTVAL_STRING);
#undef SRC
    sl_arena_free(a);
}

/* The new forms keep source ranges a caret can point into. */
TEST(special_form_positions)
{
    sl_arena_t *a = sl_arena_new("test");
    ast_stmt_list_t l;
    sl_error_t err;
    const char *sql =
        "WITH c AS (SELECT 1) SELECT a LIKE 'x' ESCAPE '!', substring(s FROM 1 FOR 2), "
        "(SELECT 1), EXISTS (SELECT 2), b IN (SELECT 3), position('p' IN q) FROM c";
    CHECK_INT(parse_sql(sql, strlen(sql), a, &l, &err), 0);
    const ast_select_t *q = l.items[0]->select;
    ast_select_item_t **it = q->items.items;
#define SRC(node) sl_strndup(a, sql + (node)->pos, (size_t)((node)->end - (node)->pos))
    CHECK_STR(SRC(q), sql);
    CHECK_STR(SRC(q->with.items[0]), "c AS (SELECT 1)");
    CHECK_STR(SRC(q->with.items[0]->query), "(SELECT 1)");
    CHECK_STR(SRC(it[0]->expr), "a LIKE 'x' ESCAPE '!'");
    CHECK_STR(SRC(it[0]->expr->escape), "'!'");
    CHECK_STR(SRC(it[1]->expr), "substring(s FROM 1 FOR 2)");
    CHECK_STR(SRC(it[2]->expr), "(SELECT 1)");
    CHECK_STR(SRC(it[3]->expr), "EXISTS (SELECT 2)");
    CHECK_STR(SRC(it[4]->expr), "b IN (SELECT 3)");
    CHECK_STR(SRC(it[4]->expr->query), "(SELECT 3)");
    CHECK_STR(SRC(it[5]->expr), "position('p' IN q)");
#undef SRC
    sl_arena_free(a);
}

TEST(literal_fields)
{
    sl_arena_t *a = sl_arena_new("test");
    ast_stmt_list_t l;
    sl_error_t err;
    const char *sql = "SELECT 42, -7, 2.5, 'o''k', INTERVAL '3' HOURS, \"MiXed\", MiXed, NULL";
    CHECK_INT(parse_sql(sql, strlen(sql), a, &l, &err), 0);
    ast_select_item_t **it = l.items[0]->select->items.items;
    CHECK_INT(it[0]->expr->lit, AST_LIT_INTEGER);
    CHECK_STR(it[0]->expr->text, "42");
    CHECK_STR(it[1]->expr->text, "-7");
    CHECK_INT(it[2]->expr->lit, AST_LIT_NUMERIC);
    CHECK_STR(it[3]->expr->text, "o'k");
    CHECK_INT(it[4]->expr->lit, AST_LIT_INTERVAL);
    CHECK_STR(it[4]->expr->text, "3");
    CHECK_STR(it[4]->expr->unit, "hours");
    CHECK_STR(it[5]->expr->names.items[0]->name, "MiXed");
    CHECK_INT(it[5]->expr->names.items[0]->quoted, 1);
    CHECK_STR(it[6]->expr->names.items[0]->name, "mixed");
    CHECK_INT(it[6]->expr->names.items[0]->quoted, 0);
    CHECK_INT(it[7]->expr->lit, AST_LIT_NULL);
    CHECK(it[7]->expr->text == NULL);
    sl_arena_free(a);
}

TEST(create_query_fields)
{
    sl_arena_t *a = sl_arena_new("test");
    ast_stmt_list_t l;
    sl_error_t err;
    const char *sql =
        "CREATE QUERY IF NOT EXISTS Q1 TRIGGER PROCESSING TIME '5 seconds' SINK kafka "
        "OPTIONS (topic 'out') OUTPUT MODE update CHECKPOINT '/c' OPTIONS (x 1) AS SELECT 1";
    CHECK_INT(parse_sql(sql, strlen(sql), a, &l, &err), 0);
    const ast_create_query_t *q = &l.items[0]->create_query;
    CHECK_STR(q->name->name, "q1");
    CHECK_INT(q->if_not_exists, 1);
    CHECK_INT(q->trigger, AST_TRIGGER_PROCESSING_TIME);
    CHECK_STR(q->trigger_interval->text, "5 seconds");
    CHECK_STR(q->sink->name, "kafka");
    CHECK_INT(q->sink_options.n, 1);
    CHECK_STR(q->sink_options.items[0]->key, "topic");
    CHECK_INT(q->output_mode, OUTPUT_UPDATE);
    CHECK_STR(q->checkpoint, "/c");
    CHECK_INT(q->options.n, 1);
    CHECK_INT(q->options.items[0]->kind, AST_OPTVAL_NUMBER);
    CHECK_STR(q->options.items[0]->value, "1");
    CHECK_INT(l.items[0]->start, 0);
    CHECK_INT(l.items[0]->end, (int)strlen(sql));
    sl_arena_free(a);
}

/* Deep nesting fails cleanly with 54000 rather than exhausting a stack. */
TEST(nesting_limits)
{
    sl_arena_t *a = sl_arena_new("test");
    sl_buf_t b = SL_BUF_INIT;
    sl_buf_puts(&b, "SELECT ");
    for (int i = 0; i < 5000; i++) sl_buf_putc(&b, '(');
    sl_buf_putc(&b, '1');
    for (int i = 0; i < 5000; i++) sl_buf_putc(&b, ')');
    const char *got = parse_dump(a, b.data, b.len);
    CHECK(strncmp(got, "ERROR 54000 statement is too deeply nested", 42) == 0);
    sl_buf_clear(&b);
    sl_buf_puts(&b, "SELECT 1");
    for (int i = 0; i < 3000; i++) sl_buf_puts(&b, " + 1");
    got = parse_dump(a, b.data, b.len);
    CHECK(strncmp(got, "ERROR 54000 expression is too deeply nested", 43) == 0);
    /* 200 levels are fine */
    sl_buf_clear(&b);
    sl_buf_puts(&b, "SELECT ");
    for (int i = 0; i < 200; i++) sl_buf_puts(&b, "-(");
    sl_buf_putc(&b, 'x');
    for (int i = 0; i < 200; i++) sl_buf_putc(&b, ')');
    got = parse_dump(a, b.data, b.len);
    CHECK(strncmp(got, "(select (items (- (- ", 21) == 0);
    sl_buf_free(&b);
    sl_arena_free(a);
}

TEST(kind_names)
{
    CHECK_STR(ast_stmt_kind_name(AST_STMT_CREATE_STREAM), "CREATE STREAM");
    CHECK_STR(ast_stmt_kind_name(AST_STMT_AWAIT_QUERY), "AWAIT QUERY");
    CHECK_STR(ast_stmt_kind_name((ast_stmt_kind_t)999), "?");
    CHECK_STR(ast_expr_kind_name(AST_EXPR_BETWEEN), "between");
    CHECK_STR(ast_op_name(AST_OP_NE), "<>");
    CHECK_STR(ast_op_name(AST_OP_IS_NOT_DISTINCT), "IS NOT DISTINCT FROM");
}
