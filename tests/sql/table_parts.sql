-- Catalog tables larger than one batch: read from their columnar copy, by
-- several tasks at once in an ad-hoc SELECT (server/inputs.c), in one
-- snapshot and in insertion order; a change is seen by the next statement,
-- a transaction sees its own rows.
CREATE TABLE big (i BIGINT, k INT, s STRING);
INSERT INTO big SELECT i, i % 7, 'x' || (i % 13) FROM generate_series(1, 50000) AS g(i);
CREATE TABLE small (k INT, name STRING);
INSERT INTO small SELECT i, 'k' || i FROM generate_series(0, 6) AS g(i);
SELECT count(*), sum(i), min(i), max(i) FROM big;
-- insertion order kept across the parts: the row numbers are the values
SELECT count(*) FROM (SELECT i, row_number() OVER () AS n FROM big) x WHERE i <> n;
SELECT i FROM big LIMIT 3;
SELECT i FROM big ORDER BY i DESC LIMIT 3;
SELECT k, count(*), sum(i) FROM big GROUP BY k ORDER BY k;
SELECT count(DISTINCT s) FROM big;
SELECT s.name, count(*) FROM big b JOIN small s ON b.k = s.k GROUP BY s.name ORDER BY s.name;
SELECT count(*) FROM big b1 JOIN big b2 ON b1.i = b2.i;
SELECT count(*) FROM big WHERE i > (SELECT avg(i) FROM big);
-- a write is seen by the next statement
DELETE FROM big WHERE i > 40000;
SELECT count(*), max(i) FROM big;
INSERT INTO big SELECT i, 0, 'y' FROM generate_series(40001, 45000) AS g(i);
SELECT count(*), max(i) FROM big;
-- inside a transaction block: the session's own rows; a rollback leaves the copy as it was
BEGIN;
INSERT INTO big VALUES (99999, 1, 'z');
SELECT count(*), max(i) FROM big;
ROLLBACK;
SELECT count(*), max(i) FROM big;
DROP TABLE big;
DROP TABLE small;
