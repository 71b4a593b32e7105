-- COPY: TO STDOUT in text and CSV (HEADER, quoting, escaping, NULL) of a
-- static table, a query's result table and an ad-hoc query; FROM STDIN with
-- both option syntaxes; psql's \copy both ways; and the refusals.
\set VERBOSITY verbose
\cd :testdir
CREATE TABLE people (id INT, name STRING, score DECIMAL(6,2), seen TIMESTAMP, ok BOOLEAN);
INSERT INTO people VALUES
  (1, 'ada', 10.50, TIMESTAMP '2024-05-01 12:00:00', true),
  (2, 'tab	and
newline', NULL, NULL, false),
  (3, 'back\slash, "quoted"', 2.25, TIMESTAMP '2024-05-01 12:00:30.5', NULL),
  (4, '', 0, NULL, true);
-- text format: \N for NULL, backslash escapes for tab, newline, backslash
COPY people TO STDOUT;
COPY people (name, id) TO STDOUT WITH (DELIMITER '|', NULL 'NULL');
-- CSV: quotes where needed, the empty string quoted, NULL unquoted
COPY people TO STDOUT (FORMAT csv, HEADER);
COPY people TO STDOUT WITH CSV HEADER FORCE QUOTE name;
COPY people (id, name) TO STDOUT (FORMAT csv, FORCE_QUOTE *, QUOTE '''', ESCAPE '\');
-- an ad-hoc query, with HEADER in text format
COPY (SELECT id, upper(name) AS who, score * 2 AS twice FROM people WHERE id <> 2 ORDER BY id DESC)
  TO STDOUT (HEADER true);
-- a query's result table (memory sink)
CREATE STREAM nums (n INT, label STRING) USING file OPTIONS (path :'testdir', format 'csv', header 'true');
\! printf 'n,label\n1,one\n2,"two, too"\n3,three\n' > $TESTDIR/.n.tmp && mv $TESTDIR/.n.tmp $TESTDIR/nums.csv
CREATE QUERY big_nums TRIGGER AVAILABLE NOW AS SELECT n, label FROM nums WHERE n > 1;
AWAIT QUERY big_nums;
COPY big_nums TO STDOUT (FORMAT csv);
COPY (SELECT count(*) AS n FROM big_nums) TO STDOUT;
-- FROM STDIN: text, then CSV with a header, quoted newlines and the end marker
CREATE TABLE loaded (a INT, b STRING, c DECIMAL(8,2));
COPY loaded FROM STDIN;
1	one	1.5
2	\N	\N
3	tab\there	-2
\.
COPY loaded (c, a, b) FROM STDIN WITH (FORMAT csv, HEADER);
c,a,b
9.99,4,"multi
line"
,5,""
\.
COPY loaded FROM STDIN CSV DELIMITER AS ';' NULL AS 'none';
6;none;none
\.
SELECT a, b, c, b IS NULL AS b_null FROM loaded ORDER BY a;
-- psql's \copy: a file into a table and a query out to a file, compared
\! printf '10\tten\t10.01\n11\t\\N\t11.00\n12\tback\\\\slash\t-0.50\n' > $TESTDIR/in.txt
\copy loaded FROM 'in.txt'
\copy (SELECT a, b, c FROM loaded WHERE a >= 10 ORDER BY a) TO 'out.txt'
\! cmp $TESTDIR/in.txt $TESTDIR/out.txt && echo "round trip: same bytes"
\! cat $TESTDIR/out.txt
\copy (SELECT * FROM loaded WHERE a < 3 ORDER BY a) TO 'out.csv' WITH CSV HEADER
\! cat $TESTDIR/out.csv
-- errors: a bad value loads nothing; the line and column are reported
COPY loaded FROM STDIN;
20	fine	1
21	fine	2
x	bad	3
\.
COPY loaded FROM STDIN (FORMAT csv);
22,"unterminated
\.
COPY loaded FROM STDIN;
23	too	few	columns	here
\.
\! printf '30\tnot \377 utf8\t1\n' > $TESTDIR/bad.txt
\copy loaded FROM 'bad.txt'
SELECT count(*) AS rows_after_errors FROM loaded;
COPY missing TO STDOUT;
COPY missing FROM STDIN;
COPY nums FROM STDIN;
COPY nums TO STDOUT;
COPY big_nums FROM STDIN;
COPY loaded (a, nope) FROM STDIN;
COPY loaded TO '/tmp/sluice-copy-out.txt';
COPY loaded FROM '/etc/passwd';
COPY loaded TO PROGRAM 'cat';
COPY loaded TO STDOUT (FORMAT binary);
COPY loaded TO STDOUT (FORMAT json);
COPY loaded TO STDOUT (QUOTE '"');
COPY loaded TO STDOUT (FORMAT csv, FORCE_NOT_NULL (a));
COPY loaded FROM STDIN (FORMAT csv, FORCE_QUOTE (a));
COPY loaded TO STDOUT (FORMAT csv, FORCE_QUOTE (nope));
COPY loaded (a) TO STDOUT (FORMAT csv, FORCE_QUOTE (b));
COPY loaded TO STDOUT (DELIMITER 'ab');
COPY loaded TO STDOUT (HEADER maybe);
COPY loaded TO STDOUT (FORMAT csv, FORMAT text);
COPY loaded TO STDOUT (BOGUS 1);
COPY loaded TO STDOUT (ENCODING 'LATIN1');
COPY loaded TO STDOUT (ENCODING 'UTF8', FORMAT csv);
SELECT 'still serving' AS status;
