-- Ad-hoc SELECT over static tables: filters, expressions, grouping,
-- joins, ordering, limits, unions, VALUES, DISTINCT, INSERT and DELETE.
\set VERBOSITY verbose
CREATE TABLE emp (id INT, name STRING, dept STRING, salary DECIMAL(10,2), hired DATE, boss INT);
INSERT INTO emp VALUES
  (1, 'ada', 'eng', 120000.00, DATE '2019-03-01', NULL),
  (2, 'bob', 'eng', 95000.50, DATE '2020-07-15', 1),
  (3, 'cyd', 'ops', 70000.00, DATE '2021-01-10', 1),
  (4, 'dee', 'ops', NULL, DATE '2022-11-30', 3),
  (5, 'eve', NULL, 50000.00, NULL, 3);
CREATE TABLE dept (code STRING, title STRING);
INSERT INTO dept (code, title) VALUES ('eng', 'Engineering'), ('ops', 'Operations'), ('fin', 'Finance');
SELECT * FROM emp ORDER BY id;
SELECT name, salary * 2 AS double_pay, upper(dept) FROM emp WHERE salary > 60000 ORDER BY name;
SELECT id FROM emp WHERE dept IS NULL OR salary IS NULL ORDER BY id;
SELECT dept, count(*) AS n, sum(salary) AS total, avg(salary), min(hired), max(name)
  FROM emp GROUP BY dept ORDER BY dept NULLS FIRST;
SELECT dept, count(*) FROM emp GROUP BY dept HAVING count(*) > 1 ORDER BY 1;
SELECT count(*), count(salary), count(DISTINCT dept) FROM emp;
SELECT count(*) FROM emp WHERE id > 100;
SELECT e.name, d.title FROM emp e JOIN dept d ON e.dept = d.code ORDER BY e.name;
SELECT e.name, d.title FROM emp e LEFT JOIN dept d ON e.dept = d.code ORDER BY e.name;
SELECT e.name, d.title FROM emp e RIGHT JOIN dept d ON e.dept = d.code ORDER BY d.title, e.name;
SELECT e.name, d.title FROM emp e FULL JOIN dept d ON e.dept = d.code ORDER BY e.name NULLS FIRST, d.title;
SELECT w.name AS worker, b.name AS boss FROM emp w JOIN emp b ON w.boss = b.id ORDER BY worker;
SELECT count(*) FROM emp CROSS JOIN dept;
SELECT name FROM emp ORDER BY salary DESC NULLS LAST LIMIT 2;
SELECT name FROM emp ORDER BY id LIMIT 2 OFFSET 3;
SELECT dept FROM emp WHERE dept IS NOT NULL UNION ALL SELECT code FROM dept ORDER BY 1;
SELECT dept FROM emp UNION SELECT code FROM dept ORDER BY 1 NULLS LAST;
SELECT DISTINCT dept FROM emp ORDER BY dept;
SELECT DISTINCT ON (dept) dept, name FROM emp ORDER BY dept, name;
SELECT * FROM (VALUES (1, 'one'), (2, 'two')) AS v ORDER BY column1 DESC;
SELECT x.n, x.n * x.n AS sq FROM (SELECT id AS n FROM emp WHERE id <= 3) x ORDER BY n;
SELECT CASE WHEN salary >= 100000 THEN 'high' WHEN salary >= 60000 THEN 'mid' ELSE 'low' END AS band, count(*)
  FROM emp GROUP BY 1 ORDER BY 1;
SELECT name, coalesce(dept, '(none)'), id IN (1, 3, 5), id BETWEEN 2 AND 4, name LIKE '%e%' FROM emp ORDER BY id;
-- DELETE and the row count of changes
DELETE FROM emp WHERE salary IS NULL;
DELETE FROM emp WHERE id > 100;
SELECT id FROM emp ORDER BY id;
INSERT INTO emp (id, name) SELECT id + 10, name || '2' FROM emp WHERE dept = 'eng';
SELECT id, name, dept FROM emp WHERE id > 10 ORDER BY id;
-- ORDER BY ... LIMIT over 100000 rows keeps only the best rows (top-N):
-- the same answers as sort(1) over the file, ties in file order
\set bigcsv :testdir/big.csv
\! seq 1 100000 | awk '{ print $1 "," ($1 * 7919) % 1009 }' > $TESTDIR/big.csv
CREATE TABLE big (i INT, k INT) USING csv OPTIONS (path :'bigcsv');
SELECT k, i FROM big ORDER BY k DESC LIMIT 5;
\! sort -t, -k2,2nr -k1,1n $TESTDIR/big.csv | head -n 5
SELECT k, i FROM big ORDER BY k, i DESC LIMIT 3 OFFSET 1000;
\! sort -t, -k2,2n -k1,1nr $TESTDIR/big.csv | sed -n 1001,1003p
SELECT count(*), sum(k), sum(i) FROM (SELECT k, i FROM big ORDER BY k LIMIT 20000) t;
\! sort -s -t, -k2,2n $TESTDIR/big.csv | head -n 20000 | awk -F, '{ n++; k += $2; i += $1 } END { print n, k, i }'
-- errors
SELECT nosuch FROM emp;
SELECT name FROM nosuch;
SELECT id FROM emp e JOIN emp f ON e.id = f.id;
SELECT name, count(*) FROM emp;
SELECT sum(name) FROM emp;
SELECT id + 'x' FROM emp;
SELECT * FROM emp WHERE id;
SELECT count(count(*)) FROM emp;
SELECT 1 FROM emp WHERE count(*) > 1;
INSERT INTO emp VALUES (1, 2);
INSERT INTO emp (id, nosuch) VALUES (1, 2);
INSERT INTO emp (id) VALUES ('abc');
SELECT 1 / 0;
SELECT 2147483647 + 1;
SELECT CAST('x' AS INT);
DELETE FROM dept WHERE nosuch = 1;
