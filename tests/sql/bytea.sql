-- bytea input: the type name decides. BYTEA (and a text value stored into
-- a BYTEA/BINARY column) reads PostgreSQL's bytea input: hex \x... or the
-- escape format (\\ and \ooo); CAST(x AS BINARY) keeps Spark's meaning,
-- the string's own UTF-8 bytes.
SELECT '\x0001ff'::bytea AS hex, CAST('\xDEADbeef' AS bytea) AS upper_hex, bytea '\x 00 ff' AS spaced;
SELECT 'ab'::bytea AS plain, 'a\\b'::bytea AS backslash, 'a\001\377'::bytea AS octal, ''::bytea AS empty;
SELECT length('\x0001ff'::bytea) AS hex_len, length('a\\b'::bytea) AS esc_len;
SELECT CAST('\x00' AS BINARY) AS spark_bytes, CAST('ab' AS BINARY) AS spark_ab, 'é'::binary AS utf8;
SELECT '\x0001'::bytea = CAST('\x0001' AS bytea) AS same, '\x41'::bytea = CAST('A' AS BINARY) AS hex_vs_spark;
SELECT NULL::bytea IS NULL AS null_stays;
-- bad input, as PostgreSQL reports it
SELECT '\xzz'::bytea;
SELECT '\x123'::bytea;
SELECT 'a\b'::bytea;
SELECT 'a\9'::bytea;
-- a text value stored into a BYTEA or BINARY column
CREATE TABLE blobs (id INT, b BYTEA, c BINARY);
INSERT INTO blobs VALUES (1, '\x0001ff', '\xff'), (2, 'a\\b', 'xy'), (3, NULL, '');
SELECT id, b, length(b) AS len, c FROM blobs ORDER BY id;
SELECT id FROM blobs WHERE b = '\x0001ff';
INSERT INTO blobs VALUES (4, '\xq', NULL);
SELECT count(*) AS n FROM blobs;
-- other types spelled `type 'string'`
SELECT int4 '5' + 1 AS five_plus_one, text 'x' || 'y' AS xy;
