VALUES (1, 'a'), (2, 'b');
SELECT * FROM (VALUES (1), (2)) AS v;
SELECT 1 AS select, 2 AS from, 3 AS "X", 4 y, 5 AS end, 6 "Z";
SELECT *, t.*, s.t.* FROM t;
SELECT 1 + 2 * 3, (1 + 2) * 3