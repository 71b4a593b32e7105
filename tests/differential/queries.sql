-- Differential test queries: each runs on PostgreSQL 15 and on sluice and
-- the two outputs (psql -A -t -F '|') must be identical. Only the subset of
-- SQL where PostgreSQL and Spark SQL (ANSI mode) agree:
--   * no integer division (INT / INT is DOUBLE in Spark, INTEGER in PostgreSQL);
--   * nullable sort keys say NULLS FIRST or NULLS LAST (the defaults differ);
--   * no ORDER BY with ties: the sort keys make every row's place unique;
--   * decimal division and avg are cast to a fixed scale (the scales differ);
--   * round() only on numerics with a scale >= the digits kept (PostgreSQL
--     pads the scale, Spark keeps it; PostgreSQL rounds doubles half-even);
--   * no CASE / COALESCE / UNION / VALUES mixing integers with decimals or
--     decimals of different scales (Spark widens to one decimal type, so 5
--     prints as 5.00; PostgreSQL's numeric keeps each value's own scale);
--   * substring positions >= 1 (Spark reads 0 as 1, PostgreSQL does not);
--   * concat() and || only with non-NULL arguments for concat (PostgreSQL's
--     concat skips NULLs, Spark's returns NULL);
--   * no double-to-text casts (Spark prints 1.0E10, PostgreSQL 10000000000).
-- A query ends with a ';' at the end of a line; '--' lines are comments.

-- ==== filters and comparisons ====
SELECT id, cust, qty FROM orders WHERE qty > 45 ORDER BY id;
SELECT id FROM orders WHERE qty < -8 ORDER BY id;
SELECT id FROM orders WHERE qty = 0 ORDER BY id;
SELECT id FROM orders WHERE qty <> 0 AND qty >= 48 ORDER BY id;
SELECT id FROM orders WHERE qty != 0 AND qty <= -9 ORDER BY id;
SELECT count(*) FROM orders WHERE qty >= 0;
SELECT count(*) FROM orders WHERE NOT (qty >= 0);
SELECT count(*) FROM orders WHERE qty IS NULL;
SELECT count(*) FROM orders WHERE qty IS NOT NULL;
SELECT id, amount FROM orders WHERE amount > 1780 ORDER BY id;
SELECT id, amount FROM orders WHERE amount < -180.5 ORDER BY amount, id;
SELECT id, big FROM orders WHERE big > 990000000000 ORDER BY id;
SELECT id, big FROM orders WHERE big < -990000000000 ORDER BY big;
SELECT id, price FROM orders WHERE price >= 895 ORDER BY id;
SELECT id, price FROM orders WHERE price < -90 ORDER BY id;
SELECT id, price FROM orders WHERE price = 786.25 OR price = 477.5 ORDER BY id;
SELECT id, status FROM orders WHERE status = 'Paid' ORDER BY id;
SELECT id, status FROM orders WHERE status = '' ORDER BY id;
SELECT count(*) FROM orders WHERE status > 'new';
SELECT count(*) FROM orders WHERE status < 'Z';
SELECT id FROM orders WHERE express AND qty > 40 ORDER BY id;
SELECT id FROM orders WHERE NOT express AND qty > 40 ORDER BY id;
SELECT id FROM orders WHERE express IS NULL AND qty > 44 ORDER BY id;
SELECT count(*) FROM orders WHERE express = true;
SELECT count(*) FROM orders WHERE express = false;
SELECT id, odate FROM orders WHERE odate = '2024-02-29' ORDER BY id;
SELECT id, odate FROM orders WHERE odate < '2023-01-10' ORDER BY id;
SELECT id, odate FROM orders WHERE odate >= DATE '2024-12-20' ORDER BY id;
SELECT id, ots FROM orders WHERE ots < TIMESTAMP '2023-01-08 00:00:00' ORDER BY ots;
SELECT id, ots FROM orders WHERE ots > '2024-12-25 12:00:00' ORDER BY ots;
SELECT id FROM orders WHERE qty > 30 AND amount > 1500 AND price > 500 ORDER BY id;
SELECT id FROM orders WHERE (qty >= 45 OR amount > 1700) AND NOT express ORDER BY id;
SELECT id FROM orders WHERE cust = 7 OR cust = 19 ORDER BY id;
SELECT id, qty, cust FROM orders WHERE qty = cust ORDER BY id;
SELECT id, amount, price FROM orders WHERE amount > price AND price > 850 ORDER BY id;
SELECT id, qty, big FROM orders WHERE big > qty * 30000000000 AND qty > 30 ORDER BY id;
SELECT count(*) FROM orders WHERE amount = 119.98;
SELECT count(*) FROM orders WHERE odate = CAST(ots AS date);
SELECT count(*) FROM orders WHERE ots >= odate;
SELECT * FROM orders ORDER BY id;
SELECT * FROM customers ORDER BY name;
SELECT * FROM tv ORDER BY id;
SELECT * FROM words ORDER BY id;
SELECT id, qty FROM orders WHERE qty IN (1.0, 2.5, 3) ORDER BY id;
SELECT id, amount FROM orders WHERE amount = 119.980 OR amount = -4.5400 ORDER BY id;
SELECT id, qty, price FROM orders WHERE qty = price OR qty * 20 = price ORDER BY id;
SELECT id, amount, big FROM orders WHERE big < amount AND big > -2000000000 ORDER BY id;
SELECT id FROM orders WHERE NOT qty = 3 AND qty < 3 AND qty > -3 ORDER BY id;
SELECT id FROM orders WHERE qty > 45 OR express AND amount < -150 ORDER BY id;
SELECT id FROM orders WHERE (qty > 45 OR express) AND amount < -150 ORDER BY id;
SELECT id FROM orders WHERE qty BETWEEN 30 AND 10 ORDER BY id;
SELECT id, ots, odate FROM orders WHERE ots < odate OR CAST(ots AS date) <> odate ORDER BY id;
SELECT count(*) FROM orders WHERE odate < ots;
SELECT id, status FROM orders WHERE status = 'paid ' OR status = 'PAID' ORDER BY id;

-- ==== three-valued logic ====
SELECT id, p AND q, p OR q FROM tv WHERE x = 1 AND y = 1 ORDER BY id;
SELECT id, NOT p, NOT q FROM tv WHERE x = 2 AND y = 2 ORDER BY id;
SELECT p, q, p AND q AS a, p OR q AS o FROM tv WHERE x IS NULL AND y IS NULL ORDER BY id;
SELECT id FROM tv WHERE p AND q ORDER BY id;
SELECT id FROM tv WHERE p OR q ORDER BY id;
SELECT id FROM tv WHERE NOT (p OR q) ORDER BY id;
SELECT id FROM tv WHERE NOT (p AND q) ORDER BY id;
SELECT count(*) FROM tv WHERE (p AND q) IS NULL;
SELECT count(*) FROM tv WHERE (NOT p OR NOT q) IS NULL;
SELECT count(*) FROM tv WHERE (p OR q) IS NULL;
SELECT id, x, y, x = y, x <> y FROM tv WHERE p AND q ORDER BY id;
SELECT id, x, y, x < y, x <= y, x > y, x >= y FROM tv WHERE p AND q ORDER BY id;
SELECT count(*) FROM tv WHERE x = y;
SELECT count(*) FROM tv WHERE x <> y;
SELECT count(*) FROM tv WHERE NOT (x = y);
SELECT count(*) FROM tv WHERE x = y OR x <> y;
SELECT count(*) FROM tv WHERE (x = y) IS NULL;
SELECT id, x IS DISTINCT FROM y, x IS NOT DISTINCT FROM y FROM tv WHERE p AND q ORDER BY id;
SELECT count(*) FROM tv WHERE x IS NOT DISTINCT FROM y;
SELECT id, p IS TRUE, p IS NOT TRUE, p IS FALSE, p IS NOT FALSE FROM tv WHERE q AND x = 1 AND y = 1 ORDER BY id;
SELECT id, p = q, p <> q FROM tv WHERE x = 1 AND y = 1 ORDER BY id;
SELECT id, x + y, x * y, x - y FROM tv WHERE p AND q ORDER BY id;
SELECT id, s || t, s = t, s < t FROM tv WHERE p AND q ORDER BY id;
SELECT id, x IN (1, 3), x NOT IN (1, 3) FROM tv WHERE p AND q ORDER BY id;
SELECT id, x IN (1, NULL), x NOT IN (2, NULL) FROM tv WHERE p AND q ORDER BY id;
SELECT count(*) FROM tv WHERE x NOT IN (1, NULL);
SELECT count(*) FROM tv WHERE x IN (2, NULL);
SELECT id, x BETWEEN 1 AND 1, x NOT BETWEEN 2 AND 2, x BETWEEN y AND 2 FROM tv WHERE p AND q ORDER BY id;
SELECT id FROM tv WHERE x BETWEEN y AND 2 ORDER BY id;
SELECT id FROM tv WHERE x NOT BETWEEN y AND 1 ORDER BY id;
SELECT id, s LIKE 'a', s NOT LIKE 'a%' FROM tv WHERE p AND q AND y = 1 ORDER BY id;
SELECT id, CASE WHEN p THEN 'p' WHEN q THEN 'q' ELSE 'neither' END FROM tv WHERE x = 1 AND y = 1 ORDER BY id;
SELECT id, CASE p WHEN true THEN 1 WHEN false THEN 0 END FROM tv WHERE q AND x = 1 AND y = 1 ORDER BY id;
SELECT id, coalesce(x, y), coalesce(x, y, 0) FROM tv WHERE p AND q ORDER BY id;
SELECT id, coalesce(s, t, '-') FROM tv WHERE p AND q ORDER BY id;
SELECT id, (p AND q) OR (x = y), NOT (p OR (x > y)) FROM tv WHERE s = 'a' OR t = 'b' ORDER BY id;
SELECT count(*), count(p), count(x), count(s) FROM tv;
SELECT id FROM tv WHERE p IS NOT NULL AND q IS NULL AND x IS NULL ORDER BY id;
SELECT id FROM tv WHERE p IS NOT TRUE AND q IS NOT FALSE AND x = 1 AND y = 2 ORDER BY id;
SELECT id, NOT p = q, p OR q AND x = 1, (p OR q) AND x = 1 FROM tv WHERE y = 1 ORDER BY id;
SELECT id, p AND NOT q, NOT NOT p, p OR NOT p FROM tv WHERE x = 2 AND y IS NULL ORDER BY id;
SELECT id, NOT NOT p, p OR NOT p, NOT (NOT p OR q) FROM tv WHERE x = 2 AND y IS NULL ORDER BY id;
SELECT id, x * NULL, x + NULL, x = NULL, s || NULL FROM tv WHERE p AND q AND y = 1 ORDER BY id;
SELECT id, x IN (y, 2), x NOT IN (y, 1) FROM tv WHERE p AND q ORDER BY id;
SELECT id, CASE WHEN x = y THEN 'eq' WHEN x <> y THEN 'ne' END FROM tv WHERE p AND q ORDER BY id;
SELECT id, CASE x WHEN y THEN 'same' WHEN 1 THEN 'one' ELSE 'other' END FROM tv WHERE p AND q ORDER BY id;

-- ==== CASE, COALESCE, IN, BETWEEN, LIKE ====
SELECT id, CASE WHEN qty < 0 THEN 'neg' WHEN qty = 0 THEN 'zero' WHEN qty < 25 THEN 'low' ELSE 'high' END FROM orders WHERE id <= 30 ORDER BY id;
SELECT CASE WHEN qty IS NULL THEN 'none' WHEN qty < 0 THEN 'neg' ELSE 'pos' END AS k, count(*) FROM orders GROUP BY 1 ORDER BY 1;
SELECT id, CASE status WHEN 'paid' THEN 1 WHEN 'Paid' THEN 2 WHEN '' THEN 3 ELSE 0 END FROM orders WHERE id <= 40 ORDER BY id;
SELECT id, CASE WHEN express THEN amount ELSE -amount END FROM orders WHERE id <= 25 ORDER BY id;
SELECT id, CASE WHEN price > 500 THEN price END FROM orders WHERE id BETWEEN 10 AND 30 ORDER BY id;
SELECT id, coalesce(status, '(null)') FROM orders WHERE id <= 40 ORDER BY id;
SELECT id, coalesce(qty, cust, -1) FROM orders WHERE qty IS NULL ORDER BY id;
SELECT id, coalesce(amount, 0.00) FROM orders WHERE id <= 60 AND (amount IS NULL OR id % 10 = 0) ORDER BY id;
SELECT id, coalesce(big, 0) FROM orders WHERE big IS NULL ORDER BY id;
SELECT id, coalesce(express, false) FROM orders WHERE id <= 20 ORDER BY id;
SELECT coalesce(odate, DATE '1999-12-31') AS d, count(*) FROM orders WHERE odate IS NULL GROUP BY 1 ORDER BY 1;
SELECT id FROM orders WHERE cust IN (1, 2, 3) ORDER BY id;
SELECT id FROM orders WHERE cust NOT IN (1, 2, 3) AND id <= 20 ORDER BY id;
SELECT id, status FROM orders WHERE status IN ('paid', 'Paid', '') AND id <= 40 ORDER BY id;
SELECT count(*) FROM orders WHERE status NOT IN ('paid', 'new');
SELECT id FROM orders WHERE odate IN (DATE '2023-05-11', DATE '2024-09-01') ORDER BY id;
SELECT id, qty FROM orders WHERE qty BETWEEN 10 AND 12 ORDER BY id;
SELECT count(*) FROM orders WHERE qty NOT BETWEEN 0 AND 40;
SELECT id, amount FROM orders WHERE amount BETWEEN 100 AND 110.5 ORDER BY id;
SELECT id FROM orders WHERE odate BETWEEN '2024-06-01' AND '2024-06-05' ORDER BY id;
SELECT id, status FROM orders WHERE status BETWEEN 'ca' AND 'p' ORDER BY id LIMIT 10;
SELECT id, w FROM words WHERE w LIKE 'a%' ORDER BY id;
SELECT id, w FROM words WHERE w LIKE '%e' ORDER BY id;
SELECT id, w FROM words WHERE w LIKE '%ll%' ORDER BY id;
SELECT id, w FROM words WHERE w LIKE 'a_c' ORDER BY id;
SELECT id, w FROM words WHERE w LIKE '___' ORDER BY id;
SELECT id, w FROM words WHERE w LIKE '%\%' ORDER BY id;
SELECT id, w FROM words WHERE w LIKE '%\_%' ORDER BY id;
SELECT id, w FROM words WHERE w NOT LIKE '%e%' ORDER BY id;
SELECT id, w FROM words WHERE w LIKE '' ORDER BY id;
SELECT id, w FROM words WHERE w LIKE '%' ORDER BY id;
SELECT id, w FROM words WHERE w ILIKE 'hello%' ORDER BY id;
SELECT id, w FROM words WHERE w ILIKE '%A%' ORDER BY id;
SELECT id, w FROM words WHERE w LIKE 'h_llo' ORDER BY id;
SELECT id, w FROM words WHERE w LIKE '%語' ORDER BY id;
SELECT count(*) FROM orders WHERE status LIKE '%a%';
SELECT count(*) FROM orders WHERE status NOT LIKE 'p%';
SELECT id, w FROM words WHERE w LIKE '%a%b%' ORDER BY id;
SELECT id, w FROM words WHERE w LIKE '_%_' AND w NOT LIKE '% %' ORDER BY id;
SELECT id, w FROM words WHERE w LIKE '%r_' ORDER BY id;
SELECT id, w FROM words WHERE w LIKE 'a%c%' ORDER BY id;
SELECT id, w FROM words WHERE w LIKE 'repeat' ORDER BY id;
SELECT id, w, w LIKE 'a%', w ILIKE 'A%' FROM words ORDER BY id;
SELECT id, CASE WHEN qty > 40 THEN CASE WHEN express THEN 'fast' ELSE 'slow' END ELSE 'small' END FROM orders WHERE id <= 40 ORDER BY id;
SELECT id FROM orders WHERE CASE WHEN express THEN qty > 40 ELSE qty < -8 END ORDER BY id;
SELECT count(CASE WHEN express THEN 1 END), sum(CASE WHEN qty > 0 THEN qty ELSE 0 END), count(CASE WHEN status = '' THEN 1 END) FROM orders;
SELECT id FROM orders ORDER BY CASE WHEN status IS NULL THEN 0 ELSE 1 END, id LIMIT 30;

-- ==== arithmetic ====
SELECT id, qty + cust, qty - cust, qty * cust, -qty FROM orders WHERE id <= 30 ORDER BY id;
SELECT id, qty % 7, cust % 5, -qty % 7 FROM orders WHERE id <= 30 ORDER BY id;
SELECT id, big + qty, big - 1, big * 2 FROM orders WHERE id <= 30 ORDER BY id;
SELECT id, big % 1000, big % -7 FROM orders WHERE id <= 30 ORDER BY id;
SELECT id, amount + 1, amount - 0.5, amount * 2, -amount FROM orders WHERE id <= 30 ORDER BY id;
SELECT id, amount * qty, amount + qty, amount - qty FROM orders WHERE id <= 30 ORDER BY id;
SELECT id, amount * amount FROM orders WHERE id <= 30 ORDER BY id;
SELECT id, amount * 1.5, amount + 0.125 FROM orders WHERE id <= 30 ORDER BY id;
SELECT id, price + 1, price * 2, price - 0.25, -price FROM orders WHERE id <= 30 ORDER BY id;
SELECT id, price * qty, price + qty FROM orders WHERE id <= 30 ORDER BY id;
SELECT id, price / 4, price / 0.5 FROM orders WHERE id <= 30 ORDER BY id;
SELECT id, CAST(qty AS double precision) / 4 FROM orders WHERE id <= 30 ORDER BY id;
SELECT id, CAST(amount / 3 AS numeric(14,4)) FROM orders WHERE id <= 30 ORDER BY id;
SELECT id, CAST(amount / qty AS numeric(16,4)) FROM orders WHERE id <= 40 AND qty > 0 ORDER BY id;
SELECT id, CAST(price / qty AS numeric(16,4)) FROM orders WHERE id <= 40 AND qty > 0 ORDER BY id;
SELECT id, CAST(price AS numeric(10,2)) + amount FROM orders WHERE id <= 30 ORDER BY id;
SELECT id, amount - CAST(price AS numeric(10,2)) FROM orders WHERE id <= 30 ORDER BY id;
SELECT id, abs(qty), abs(amount), abs(price), abs(big) FROM orders WHERE id <= 30 ORDER BY id;
SELECT id, round(amount, 1), round(amount, 0), round(amount, -2) FROM orders WHERE id <= 30 ORDER BY id;
SELECT id, round(amount, 2), round(-amount, 1) FROM orders WHERE id <= 30 ORDER BY id;
SELECT id, round(CAST(price AS numeric(10,2)), 0) FROM orders WHERE id <= 30 ORDER BY id;
SELECT id, qty * qty * qty, qty * 1000000 FROM orders WHERE id <= 30 ORDER BY id;
SELECT id, (qty + 1) * (cust - 1) - qty FROM orders WHERE id <= 30 ORDER BY id;
SELECT 1 + 2 * 3, (1 + 2) * 3, 7 % 3, -7 % 3, 2.5 * 4, 10.0 - 0.01, 0.1 + 0.2;
SELECT 2147483647 + 0, -2147483648 + 0, 9223372036854775807 - 1;
SELECT id, CAST(big AS double precision) * 2 FROM orders WHERE id <= 10 ORDER BY id;
SELECT credit, credit * 2, credit + tier, credit - 0.0005 FROM customers WHERE cid <= 12 ORDER BY cid, name;
SELECT id, price * 0, -price * 0 FROM orders WHERE id <= 30 ORDER BY id;
SELECT id, qty % -4, - -qty, -(qty - cust) FROM orders WHERE id <= 30 ORDER BY id;
SELECT id, qty + big, cust * big, big - amount FROM orders WHERE id <= 30 ORDER BY id;
SELECT id, amount * 1000000, amount * amount * amount FROM orders WHERE id <= 30 ORDER BY id;
SELECT id, price + amount, price * amount FROM orders WHERE id <= 30 ORDER BY id;
SELECT id, price * price, price - price FROM orders WHERE id <= 30 ORDER BY id;
SELECT id, CAST(qty AS double precision) / 3, CAST(price AS double precision) / 7 FROM orders WHERE id <= 30 ORDER BY id;
SELECT 2147483647 + 0.5, 9223372036854775807 + 0.0, -9223372036854775808 * 1, 0.000001 * 0.000001;

-- ==== string functions ====
SELECT id, lower(w), upper(w) FROM words ORDER BY id;
SELECT id, length(w), char_length(w) FROM words ORDER BY id;
SELECT id, substring(w, 1, 3), substring(w, 2) FROM words ORDER BY id;
SELECT id, substring(w, 3, 2), substr(w, 2, 4) FROM words ORDER BY id;
SELECT id, substring(w, 20), substring(w, 1, 0) FROM words WHERE id <= 10 ORDER BY id;
SELECT id, w || '!', '[' || w || ']' FROM words ORDER BY id;
SELECT id, concat(w, '-', w) FROM words WHERE w IS NOT NULL ORDER BY id;
SELECT id, concat('<', upper(w), '>') FROM words WHERE w IS NOT NULL ORDER BY id;
SELECT id, lower(w) = 'hello world', upper(w) LIKE '%A%' FROM words ORDER BY id;
SELECT lower(w) AS lw, count(*) FROM words GROUP BY lower(w) ORDER BY lw NULLS FIRST;
SELECT length(w) AS len, count(*) FROM words GROUP BY 1 ORDER BY 1 NULLS LAST;
SELECT id, w FROM words WHERE length(w) > 8 ORDER BY id;
SELECT id, w FROM words WHERE upper(w) = 'HELLO WORLD' ORDER BY id;
SELECT id, upper(substring(w, 1, 1)) || lower(substring(w, 2)) FROM words ORDER BY id;
SELECT id, length(w || w), length(concat(w, w, w)) FROM words WHERE w IS NOT NULL ORDER BY id;
SELECT id, status, upper(status), length(status) FROM orders WHERE id <= 30 ORDER BY id;
SELECT upper(status) AS u, count(*) FROM orders GROUP BY upper(status) ORDER BY u NULLS FIRST;
SELECT name, lower(name) || '@' || lower(city) FROM customers WHERE cid <= 20 ORDER BY name;
SELECT id, substring(status, 1, 1) FROM orders WHERE id <= 30 ORDER BY id;
SELECT id, w, w < 'b', w >= 'Z' FROM words ORDER BY id;
SELECT w FROM words ORDER BY w NULLS FIRST, id;
SELECT w FROM words ORDER BY w DESC NULLS LAST, id;
SELECT id, n, substring(w, n + 4, 2) FROM words WHERE n IS NOT NULL ORDER BY id;
SELECT lower('ABC'), upper('abc'), length(''), length('abc  '), substring('hello', 2, 3), 'a' || 'b';
SELECT lower('NAÏVE Éclair'), upper('ÀÉÎÕÜ àéîõü'), length('héllo'), substring('日本語です', 2, 2);

-- ==== aggregates, GROUP BY, HAVING ====
SELECT count(*), count(cust), count(qty), count(amount), count(status), count(express) FROM orders;
SELECT sum(qty), min(qty), max(qty), sum(cust) FROM orders;
SELECT sum(amount), min(amount), max(amount) FROM orders;
SELECT sum(big), min(big), max(big) FROM orders;
SELECT sum(price), min(price), max(price) FROM orders;
SELECT CAST(avg(qty) AS numeric(12,4)), CAST(avg(amount) AS numeric(12,4)), CAST(avg(big) AS numeric(20,2)) FROM orders;
SELECT avg(price), avg(price * 2) FROM orders;
SELECT min(status), max(status), min(odate), max(odate), min(ots), max(ots) FROM orders;
SELECT count(DISTINCT cust), count(DISTINCT status), count(DISTINCT express), count(DISTINCT odate) FROM orders;
SELECT cust, count(*) FROM orders GROUP BY cust ORDER BY cust NULLS FIRST;
SELECT cust, count(*), sum(qty), min(amount), max(amount) FROM orders GROUP BY cust ORDER BY cust NULLS LAST;
SELECT status, count(*), count(qty), sum(qty) FROM orders GROUP BY status ORDER BY status NULLS FIRST;
SELECT express, count(*), sum(amount) FROM orders GROUP BY express ORDER BY express NULLS LAST;
SELECT status, express, count(*) FROM orders GROUP BY status, express ORDER BY status NULLS FIRST, express NULLS FIRST;
SELECT cust, CAST(avg(qty) AS numeric(12,3)), CAST(avg(amount) AS numeric(12,3)) FROM orders GROUP BY cust ORDER BY cust NULLS FIRST;
SELECT cust, avg(price), sum(price) FROM orders GROUP BY cust ORDER BY cust NULLS FIRST;
SELECT cust, min(odate), max(ots), min(status), max(status) FROM orders GROUP BY cust ORDER BY cust NULLS FIRST;
SELECT cust, count(DISTINCT status), count(DISTINCT express) FROM orders GROUP BY cust ORDER BY cust NULLS FIRST;
SELECT qty % 5 AS m, count(*), sum(qty) FROM orders GROUP BY qty % 5 ORDER BY m NULLS FIRST;
SELECT CAST(ots AS date) AS d, count(*) FROM orders GROUP BY CAST(ots AS date) HAVING count(*) > 1 ORDER BY d NULLS FIRST;
SELECT cust, count(*) FROM orders GROUP BY cust HAVING count(*) >= 12 ORDER BY cust NULLS FIRST;
SELECT cust, sum(qty) FROM orders GROUP BY cust HAVING sum(qty) > 250 ORDER BY cust NULLS FIRST;
SELECT status, sum(amount) FROM orders GROUP BY status HAVING sum(amount) > 40000 ORDER BY status NULLS FIRST;
SELECT cust, max(qty) - min(qty) AS spread FROM orders GROUP BY cust HAVING max(qty) - min(qty) > 55 ORDER BY cust NULLS FIRST;
SELECT cust FROM orders GROUP BY cust HAVING count(DISTINCT status) = 7 ORDER BY cust NULLS FIRST;
SELECT cust, count(*) FROM orders WHERE express GROUP BY cust HAVING count(*) > 5 ORDER BY cust NULLS FIRST;
SELECT status, count(*) AS n FROM orders GROUP BY status HAVING min(qty) < -9 ORDER BY n, status NULLS FIRST;
SELECT count(*), sum(qty), min(qty), max(amount), avg(price) FROM orders WHERE id < 0;
SELECT cust, count(*) FROM orders WHERE id < 0 GROUP BY cust ORDER BY cust;
SELECT count(*) FROM orders HAVING count(*) > 1000;
SELECT sum(qty) FROM orders WHERE qty IS NULL;
SELECT tier, count(*), count(city), sum(credit), min(credit), max(credit) FROM customers GROUP BY tier ORDER BY tier NULLS FIRST;
SELECT city, count(*), count(DISTINCT tier), min(since), max(name) FROM customers GROUP BY city ORDER BY city NULLS FIRST;
SELECT active, CAST(avg(credit) AS numeric(12,3)) FROM customers GROUP BY active ORDER BY active NULLS FIRST;
SELECT p, q, count(*), count(x), sum(x), sum(y), min(s), max(t) FROM tv GROUP BY p, q ORDER BY p NULLS FIRST, q NULLS FIRST;
SELECT x, y, count(*) FROM tv GROUP BY x, y ORDER BY x NULLS LAST, y NULLS LAST;
SELECT cust, sum(qty * amount), sum(amount) - sum(qty) FROM orders GROUP BY cust ORDER BY cust NULLS FIRST;
SELECT CASE WHEN amount >= 1000 THEN 'big' WHEN amount >= 0 THEN 'small' ELSE 'refund' END AS k, count(*), sum(amount) FROM orders GROUP BY 1 ORDER BY 1 NULLS FIRST;
SELECT status AS st, count(*) FROM orders GROUP BY st ORDER BY st NULLS FIRST;
SELECT lower(status), count(*) FROM orders GROUP BY lower(status) ORDER BY 1 NULLS FIRST;
SELECT cust, count(*) * 2, sum(qty) + 1, max(qty) * min(qty) FROM orders GROUP BY cust ORDER BY cust NULLS FIRST;
SELECT date_trunc('month', ots) AS m, count(*) FROM orders GROUP BY date_trunc('month', ots) ORDER BY m NULLS FIRST;
SELECT count(*) FROM (SELECT cust FROM orders GROUP BY cust) g;
SELECT price, count(*) FROM orders GROUP BY price HAVING count(*) > 1 ORDER BY price NULLS FIRST;
SELECT odate, count(*), min(id) FROM orders GROUP BY odate HAVING count(*) > 2 ORDER BY odate NULLS FIRST;
SELECT date_trunc('day', ots) AS d, count(*), max(ots) FROM orders GROUP BY 1 HAVING count(*) > 2 ORDER BY 1 NULLS FIRST;
SELECT amount, count(*) FROM orders GROUP BY amount HAVING count(*) > 1 ORDER BY amount NULLS FIRST;
SELECT express, status, count(*), min(id), max(id) FROM orders GROUP BY express, status ORDER BY 3 DESC, 4;
SELECT cust, count(*) FROM orders GROUP BY cust ORDER BY count(*) DESC, cust NULLS FIRST LIMIT 10;
SELECT cust, sum(qty) FROM orders GROUP BY cust HAVING count(*) > 10 AND min(amount) < 0 ORDER BY cust NULLS FIRST;
SELECT cust % 4 AS m, express, sum(amount), count(DISTINCT status) FROM orders GROUP BY cust % 4, express ORDER BY m NULLS FIRST, express NULLS FIRST;
SELECT count(DISTINCT qty % 10), count(DISTINCT lower(status)), count(DISTINCT CAST(ots AS date)) FROM orders;
SELECT sum(qty) + sum(cust), sum(qty + cust), count(qty + cust) FROM orders;
SELECT min(amount * qty), max(price * qty), sum(amount * 2) FROM orders;
SELECT status, sum(price) FROM orders GROUP BY status ORDER BY status NULLS LAST;
SELECT big % 3 AS m, count(*), sum(big), min(big), max(big) FROM orders GROUP BY big % 3 ORDER BY m NULLS FIRST;
SELECT length(status) AS l, count(*) FROM orders GROUP BY length(status) ORDER BY l NULLS FIRST;

-- ==== DISTINCT ====
SELECT DISTINCT status FROM orders ORDER BY status NULLS FIRST;
SELECT DISTINCT express FROM orders ORDER BY express NULLS LAST;
SELECT DISTINCT status, express FROM orders ORDER BY status NULLS LAST, express NULLS FIRST;
SELECT DISTINCT cust FROM orders WHERE cust > 40 ORDER BY cust;
SELECT DISTINCT city FROM customers ORDER BY city NULLS FIRST;
SELECT DISTINCT w FROM words ORDER BY w NULLS FIRST;
SELECT DISTINCT x, y FROM tv ORDER BY x NULLS FIRST, y NULLS FIRST;
SELECT DISTINCT qty % 3 FROM orders ORDER BY 1 NULLS FIRST;
SELECT count(*) FROM (SELECT DISTINCT cust, status FROM orders) d;
SELECT DISTINCT lower(status) AS s FROM orders ORDER BY s NULLS LAST;

-- ==== joins ====
SELECT o.id, o.cust, c.name FROM orders o JOIN customers c ON o.cust = c.cid WHERE o.id <= 40 ORDER BY o.id, c.name;
SELECT o.id, o.cust, c.name FROM orders o LEFT JOIN customers c ON o.cust = c.cid WHERE o.id <= 40 ORDER BY o.id, c.name NULLS FIRST;
SELECT o.id, c.cid, c.name FROM orders o RIGHT JOIN customers c ON o.cust = c.cid WHERE c.cid > 35 OR c.cid IS NULL ORDER BY c.name, o.id NULLS FIRST;
SELECT o.id, o.cust, c.cid, c.name FROM orders o FULL JOIN customers c ON o.cust = c.cid WHERE o.id IS NULL OR c.cid IS NULL ORDER BY o.id NULLS FIRST, c.name NULLS FIRST;
SELECT count(*) FROM orders o JOIN customers c ON o.cust = c.cid;
SELECT count(*) FROM orders o LEFT JOIN customers c ON o.cust = c.cid;
SELECT count(*) FROM orders o RIGHT JOIN customers c ON o.cust = c.cid;
SELECT count(*) FROM orders o FULL JOIN customers c ON o.cust = c.cid;
SELECT count(*), count(o.id), count(c.cid) FROM orders o FULL JOIN customers c ON o.cust = c.cid;
SELECT o.cust, count(*) FROM orders o LEFT JOIN customers c ON o.cust = c.cid WHERE c.cid IS NULL GROUP BY o.cust ORDER BY o.cust NULLS FIRST;
SELECT c.name FROM customers c LEFT JOIN orders o ON o.cust = c.cid WHERE o.id IS NULL ORDER BY c.name;
SELECT c.city, count(o.id), sum(o.amount) FROM customers c LEFT JOIN orders o ON o.cust = c.cid GROUP BY c.city ORDER BY c.city NULLS FIRST;
SELECT c.tier, o.status, count(*) FROM orders o JOIN customers c ON o.cust = c.cid GROUP BY c.tier, o.status ORDER BY c.tier NULLS FIRST, o.status NULLS FIRST;
SELECT o.id, c.name FROM orders o JOIN customers c ON o.cust = c.cid AND c.active WHERE o.id <= 60 ORDER BY o.id, c.name;
SELECT o.id, c.name FROM orders o LEFT JOIN customers c ON o.cust = c.cid AND c.tier = 4 WHERE o.id <= 40 ORDER BY o.id, c.name NULLS FIRST;
SELECT o.id, c.name FROM orders o JOIN customers c ON o.cust = c.cid AND o.amount > c.credit WHERE o.id <= 40 ORDER BY o.id, c.name;
SELECT o.id, c.name FROM orders o JOIN customers c ON o.cust = c.cid WHERE c.city = 'Oslo' AND o.qty > 40 ORDER BY o.id, c.name;
SELECT c.cid, c.name, o.id FROM customers c JOIN orders o ON c.cid = o.cust WHERE c.cid IN (5, 12) AND o.id < 150 ORDER BY c.name, o.id;
SELECT a.id, b.id FROM orders a JOIN orders b ON a.cust = b.cust AND a.id < b.id WHERE a.cust = 3 ORDER BY a.id, b.id;
SELECT count(*) FROM orders a JOIN orders b ON a.cust = b.cust;
SELECT count(*) FROM orders a JOIN orders b ON a.status = b.status AND a.express = b.express;
SELECT a.id, b.id, a.qty FROM orders a JOIN orders b ON a.qty = b.qty AND a.id <> b.id WHERE a.qty > 48 ORDER BY a.id, b.id;
SELECT a.name, b.name FROM customers a JOIN customers b ON a.cid = b.cid AND a.name < b.name ORDER BY a.name, b.name;
-- columns of the same name from two sides stay apart (a.qty, b.qty)
SELECT a.qty, b.qty, count(*) FROM orders a JOIN orders b ON a.cust = b.cust AND a.id < b.id WHERE a.cust <= 3 GROUP BY a.qty, b.qty ORDER BY a.qty NULLS FIRST, b.qty NULLS FIRST;
SELECT a.id, b.id FROM orders a JOIN orders b ON a.cust = b.cust AND a.id < b.id WHERE a.cust = 3 ORDER BY b.id DESC, a.id;
SELECT aq, bq, count(*) FROM (SELECT a.qty AS aq, b.qty AS bq FROM orders a JOIN orders b ON a.cust = b.cust AND a.id < b.id WHERE a.cust <= 3) z GROUP BY aq, bq ORDER BY aq NULLS FIRST, bq NULLS FIRST;
SELECT a.id AS aid, b.id AS bid FROM orders a JOIN orders b ON a.cust = b.cust AND a.id < b.id WHERE a.cust = 3 ORDER BY bid DESC, aid;
SELECT count(*) FROM customers a LEFT JOIN customers b ON a.cid = b.cid;
SELECT count(*) FROM customers a FULL JOIN customers b ON a.cid = b.cid;
SELECT t1.id, t2.id FROM tv t1 JOIN tv t2 ON t1.x = t2.y AND t1.p = t2.q WHERE t1.id <= 12 ORDER BY t1.id, t2.id;
SELECT t1.id, t2.id FROM tv t1 LEFT JOIN tv t2 ON t1.s = t2.t AND t2.id > 75 WHERE t1.id >= 70 ORDER BY t1.id, t2.id NULLS FIRST;
SELECT count(*) FROM tv t1 FULL JOIN tv t2 ON t1.x = t2.x AND t1.y = t2.y;
SELECT count(*) FROM tv t1 CROSS JOIN words w;
SELECT t.x, w.w FROM tv t CROSS JOIN words w WHERE t.id = 1 AND w.id <= 3 ORDER BY w.w;
SELECT o.id, c1.name, c2.name FROM orders o JOIN customers c1 ON o.cust = c1.cid JOIN customers c2 ON c1.tier = c2.tier AND c2.cid = 2 WHERE o.id <= 80 ORDER BY o.id, c1.name;
SELECT o.id, c.name, w.w FROM orders o LEFT JOIN customers c ON o.cust = c.cid LEFT JOIN words w ON w.id = o.qty WHERE o.id <= 30 ORDER BY o.id, c.name NULLS FIRST;
SELECT c.name, count(o.id) AS n FROM customers c LEFT JOIN orders o ON o.cust = c.cid AND o.express GROUP BY c.name ORDER BY n DESC, c.name;
SELECT o.id, c.name FROM orders o, customers c WHERE o.cust = c.cid AND o.id <= 25 ORDER BY o.id, c.name;
SELECT o.id, c.name FROM orders o JOIN customers c ON o.cust + 1 = c.cid WHERE o.id <= 25 ORDER BY o.id, c.name;
SELECT o.id, c.name FROM orders o JOIN customers c ON o.qty > c.tier * 12 AND c.cid >= 60 WHERE o.id <= 25 ORDER BY o.id, c.name;
SELECT o.id, c.name FROM orders o JOIN customers c ON o.cust = c.cid OR o.qty = c.cid WHERE o.id <= 12 ORDER BY o.id, c.name;
SELECT o.id, c.name FROM orders o LEFT JOIN customers c ON o.qty < c.tier WHERE o.id <= 10 ORDER BY o.id, c.name NULLS FIRST;
SELECT o.id, w.id FROM orders o JOIN words w ON o.status = w.w ORDER BY o.id, w.id;
SELECT o.status, count(w.id) FROM orders o LEFT JOIN words w ON lower(o.status) = lower(w.w) GROUP BY o.status ORDER BY o.status NULLS FIRST;
SELECT o.id, c.name FROM orders o JOIN customers c ON o.odate = c.since OR o.express = c.active AND o.cust = c.cid WHERE o.id <= 20 ORDER BY o.id, c.name;
SELECT a.x, a.id, b.id FROM tv a FULL JOIN tv b ON a.x = b.y AND a.id = b.id - 1 WHERE a.id <= 5 OR b.id <= 5 ORDER BY a.id NULLS FIRST, b.id NULLS FIRST;
SELECT x, count(*) FROM tv a FULL JOIN tv b USING (x) GROUP BY x ORDER BY x NULLS FIRST;
SELECT x, a.id, b.id FROM tv a JOIN tv b USING (x) WHERE a.id = 1 AND b.id <= 30 ORDER BY b.id;
SELECT ax, bx, count(*) FROM (SELECT a.x AS ax, b.x AS bx FROM tv a FULL JOIN tv b USING (x)) z GROUP BY ax, bx ORDER BY ax NULLS FIRST, bx NULLS FIRST;
SELECT a.id AS ai, b.id AS bi FROM tv a JOIN tv b USING (x, y) WHERE a.id <= 3 AND b.id <= 40 ORDER BY ai, bi;
SELECT c.name, o.id, w.w FROM customers c FULL JOIN orders o ON o.cust = c.cid AND o.id <= 20 LEFT JOIN words w ON w.id = c.tier WHERE c.cid >= 38 OR c.cid IS NULL ORDER BY c.name NULLS FIRST, o.id NULLS FIRST;
SELECT c.name, o.id FROM customers c RIGHT JOIN orders o ON o.cust = c.cid WHERE o.id BETWEEN 100 AND 120 ORDER BY o.id, c.name NULLS FIRST;
SELECT count(*), count(c.name), sum(o.qty) FROM orders o LEFT JOIN customers c ON o.cust = c.cid AND c.city = 'Oslo';
SELECT o.express, c.active, count(*) FROM orders o JOIN customers c ON o.cust = c.cid GROUP BY o.express, c.active ORDER BY o.express NULLS FIRST, c.active NULLS FIRST;

-- ==== subqueries in FROM ====
SELECT g.cust, g.n FROM (SELECT cust, count(*) AS n FROM orders GROUP BY cust) g WHERE g.n > 11 ORDER BY g.cust NULLS FIRST;
SELECT c.name, g.n, g.total FROM customers c JOIN (SELECT cust, count(*) AS n, sum(amount) AS total FROM orders GROUP BY cust) g ON g.cust = c.cid ORDER BY c.name;
SELECT s.k, count(*) FROM (SELECT CASE WHEN qty > 25 THEN 'hi' ELSE 'lo' END AS k FROM orders WHERE qty IS NOT NULL) s GROUP BY s.k ORDER BY s.k;
SELECT max(n), min(n), sum(n) FROM (SELECT cust, count(*) AS n FROM orders GROUP BY cust) g;
SELECT x.id, x.dbl FROM (SELECT id, qty * 2 AS dbl FROM orders WHERE qty > 45) x WHERE x.dbl > 95 ORDER BY x.id;
SELECT y.status, y.n FROM (SELECT status, count(*) AS n FROM orders GROUP BY status) y WHERE y.status IS NOT NULL ORDER BY y.n DESC, y.status;
-- columns of the same name from two sides stay apart (a.qty, b.qty)
SELECT a.cust, a.n, b.n FROM (SELECT cust, count(*) AS n FROM orders WHERE express GROUP BY cust) a FULL JOIN (SELECT cust, count(*) AS n FROM orders WHERE NOT express GROUP BY cust) b ON a.cust = b.cust ORDER BY a.cust NULLS FIRST, b.cust NULLS FIRST, a.n NULLS FIRST, b.n;
SELECT a.cust AS ac, b.cust AS bc, a.n AS an, b.n AS bn FROM (SELECT cust, count(*) AS n FROM orders WHERE express GROUP BY cust) a FULL JOIN (SELECT cust, count(*) AS n FROM orders WHERE NOT express GROUP BY cust) b ON a.cust = b.cust ORDER BY ac NULLS FIRST, bc NULLS FIRST, an NULLS FIRST, bn;
SELECT t.tier, t.cnt FROM (SELECT tier, count(*) AS cnt FROM customers c JOIN orders o ON o.cust = c.cid GROUP BY tier) t ORDER BY t.tier NULLS LAST;
SELECT z.d, z.n FROM (SELECT odate AS d, count(*) AS n FROM orders GROUP BY odate) z WHERE z.n >= 3 ORDER BY z.d NULLS FIRST;
SELECT q.id FROM (SELECT id, amount FROM orders ORDER BY amount DESC NULLS LAST, id LIMIT 5) q ORDER BY q.id;
SELECT count(*) FROM (SELECT DISTINCT status FROM orders) s;
SELECT s.c, count(*) FROM (SELECT cust AS c FROM orders UNION ALL SELECT cid FROM customers) s GROUP BY s.c HAVING count(*) > 12 ORDER BY s.c NULLS FIRST;
SELECT m.id, m.total FROM (SELECT id, qty * amount AS total FROM orders) m WHERE m.total > 80000 ORDER BY m.total DESC, m.id;
SELECT t.a, t.b FROM (SELECT x AS a, y AS b FROM tv WHERE p) t WHERE t.a = t.b ORDER BY 1, 2;
SELECT z.k, z.n FROM (SELECT lower(w) AS k, count(*) AS n FROM words GROUP BY lower(w)) z WHERE z.n > 1 ORDER BY z.k NULLS FIRST;
SELECT CAST(avg(n) AS numeric(10,4)) FROM (SELECT cust, count(*) AS n FROM orders WHERE cust IS NOT NULL GROUP BY cust) g;

-- ==== UNION ALL, UNION ====
SELECT cust FROM orders WHERE id <= 5 UNION ALL SELECT cid FROM customers WHERE cid >= 60 ORDER BY 1;
SELECT cust FROM orders WHERE id <= 10 UNION SELECT cid FROM customers WHERE cid <= 10 ORDER BY 1 NULLS FIRST;
SELECT status FROM orders UNION SELECT city FROM customers ORDER BY 1 NULLS FIRST;
SELECT status FROM orders WHERE id <= 20 UNION ALL SELECT w FROM words WHERE id <= 10 ORDER BY 1 NULLS LAST;
SELECT x, s FROM tv UNION SELECT y, t FROM tv ORDER BY 1 NULLS FIRST, 2 NULLS FIRST;
SELECT count(*) FROM (SELECT x FROM tv UNION ALL SELECT y FROM tv) u;
SELECT count(*) FROM (SELECT x FROM tv UNION SELECT y FROM tv) u;
SELECT id, 'order' AS kind FROM orders WHERE id <= 3 UNION ALL SELECT cid, 'customer' FROM customers WHERE cid <= 3 ORDER BY 1, 2;
SELECT CAST(amount AS numeric(11,3)) FROM orders WHERE id <= 5 UNION ALL SELECT credit FROM customers WHERE cid <= 5 ORDER BY 1;
SELECT odate FROM orders WHERE id <= 5 UNION SELECT since FROM customers WHERE cid <= 5 ORDER BY 1 NULLS FIRST;
SELECT 1 AS a UNION ALL SELECT 2 UNION ALL SELECT 1 ORDER BY a;
SELECT 1 AS a UNION SELECT 2 UNION SELECT 1 ORDER BY a;
SELECT u.k, count(*) FROM (SELECT status AS k FROM orders UNION ALL SELECT city FROM customers) u GROUP BY u.k ORDER BY u.k NULLS FIRST;
SELECT id FROM orders WHERE qty > 48 UNION SELECT id FROM orders WHERE amount > 1780 UNION SELECT id FROM orders WHERE price > 895 ORDER BY 1;
SELECT qty FROM orders WHERE id <= 30 UNION SELECT qty FROM orders WHERE id > 370 ORDER BY 1 DESC NULLS LAST LIMIT 10;
SELECT express, status FROM orders WHERE id <= 50 UNION SELECT active, city FROM customers ORDER BY 1 NULLS FIRST, 2 NULLS FIRST;
SELECT odate FROM orders WHERE id <= 10 UNION ALL SELECT CAST(ots AS date) FROM orders WHERE id <= 10 ORDER BY 1 NULLS LAST;

-- ==== ORDER BY, NULLS FIRST / LAST, LIMIT, OFFSET ====
SELECT id, qty FROM orders ORDER BY qty NULLS FIRST, id LIMIT 40;
SELECT id, qty FROM orders ORDER BY qty NULLS LAST, id LIMIT 10 OFFSET 360;
SELECT id, qty FROM orders ORDER BY qty DESC NULLS FIRST, id LIMIT 40;
SELECT id, qty FROM orders ORDER BY qty DESC NULLS LAST, id DESC LIMIT 20 OFFSET 350;
SELECT id, amount FROM orders ORDER BY amount NULLS FIRST, id LIMIT 35;
SELECT id, price FROM orders ORDER BY price DESC NULLS LAST, id LIMIT 15;
SELECT id, status FROM orders ORDER BY status NULLS FIRST, id LIMIT 60;
SELECT id, status FROM orders ORDER BY status DESC NULLS LAST, id LIMIT 30;
SELECT id, express FROM orders ORDER BY express NULLS FIRST, id LIMIT 20 OFFSET 120;
SELECT id, odate FROM orders ORDER BY odate DESC NULLS FIRST, id LIMIT 30;
SELECT id, ots FROM orders ORDER BY ots NULLS LAST, id LIMIT 25;
SELECT id, ots FROM orders ORDER BY ots DESC NULLS LAST, id LIMIT 10 OFFSET 5;
SELECT id, big FROM orders ORDER BY big, id LIMIT 10;
SELECT id, cust, qty FROM orders ORDER BY cust NULLS FIRST, qty DESC NULLS LAST, id LIMIT 50;
SELECT id, qty, amount FROM orders ORDER BY qty * 2 - id NULLS LAST, id LIMIT 12;
SELECT id FROM orders ORDER BY id LIMIT 0;
SELECT id FROM orders ORDER BY id OFFSET 395;
SELECT id FROM orders ORDER BY id DESC LIMIT 5 OFFSET 1000;
SELECT name, credit FROM customers ORDER BY credit DESC NULLS FIRST, name;
SELECT w, id FROM words ORDER BY length(w) NULLS FIRST, w, id;
SELECT id, p, q FROM tv ORDER BY p NULLS FIRST, q DESC NULLS LAST, id LIMIT 30;
SELECT id, x, y FROM tv ORDER BY x DESC NULLS FIRST, y NULLS FIRST, id LIMIT 20;
SELECT id, status AS s FROM orders ORDER BY s NULLS LAST, id DESC LIMIT 15;
SELECT id, qty FROM orders ORDER BY 2 NULLS FIRST, 1 DESC LIMIT 15;

-- ==== VALUES ====
SELECT * FROM (VALUES (1, 'one'), (2, 'two'), (3, NULL)) AS v ORDER BY 1;
SELECT column1, column2 FROM (VALUES (3, 1.50), (1, 2.25), (2, -0.50)) AS v ORDER BY column2;
SELECT count(*), sum(column1), max(column2) FROM (VALUES (1, 'a'), (2, 'b'), (NULL, 'c')) AS v;
SELECT v.column1, c.name FROM (VALUES (1), (5), (99)) AS v JOIN customers c ON c.cid = v.column1 ORDER BY v.column1, c.name;
SELECT column1 FROM (VALUES ('b'), ('a'), (NULL), ('c')) AS v ORDER BY column1 NULLS FIRST;
SELECT column1, count(*) FROM (VALUES (true), (false), (true), (NULL)) AS v GROUP BY column1 ORDER BY column1 NULLS LAST;
SELECT * FROM (VALUES (DATE '2024-01-01', TIMESTAMP '2024-01-01 10:00:00'), (DATE '2023-06-15', TIMESTAMP '2023-06-15 23:59:59.25')) AS v ORDER BY 1;

-- ==== dates and timestamps ====
SELECT id, CAST(ots AS date), odate FROM orders WHERE id <= 30 ORDER BY id;
SELECT id, date_trunc('day', ots), date_trunc('hour', ots) FROM orders WHERE id <= 30 ORDER BY id;
SELECT id, date_trunc('year', ots), date_trunc('month', ots), date_trunc('minute', ots) FROM orders WHERE id <= 30 ORDER BY id;
SELECT id, date_trunc('week', ots), date_trunc('quarter', ots), date_trunc('second', ots) FROM orders WHERE id <= 30 ORDER BY id;
SELECT date_trunc('quarter', ots) AS qt, count(*), min(ots), max(ots) FROM orders GROUP BY 1 ORDER BY 1 NULLS FIRST;
SELECT CAST(odate AS timestamp) AS t, count(*) FROM orders WHERE odate < '2023-02-01' GROUP BY 1 ORDER BY 1;
SELECT id, ots FROM orders WHERE ots BETWEEN '2024-03-01' AND '2024-03-10' ORDER BY ots;
SELECT id, odate FROM orders WHERE odate > CAST('2024-12-24' AS date) ORDER BY odate, id;
SELECT count(*) FROM orders WHERE ots >= TIMESTAMP '2024-01-01 00:00:00';
SELECT min(since), max(since), count(DISTINCT since) FROM customers;
SELECT id FROM orders WHERE date_trunc('month', ots) = TIMESTAMP '2024-02-01 00:00:00' ORDER BY id;

-- ==== casts ====
SELECT id, CAST(qty AS bigint), CAST(qty AS numeric(6,1)), CAST(qty AS double precision) FROM orders WHERE id <= 20 ORDER BY id;
SELECT id, CAST(qty AS text), CAST(amount AS text), CAST(express AS text) FROM orders WHERE id <= 20 ORDER BY id;
SELECT id, CAST(odate AS text), CAST(ots AS text) FROM orders WHERE id <= 20 ORDER BY id;
SELECT id, CAST(amount AS numeric(14,4)), CAST(amount AS numeric(12,1)), CAST(amount AS double precision) FROM orders WHERE id <= 20 ORDER BY id;
SELECT id, CAST(price AS numeric(10,1)), CAST(big AS numeric(20,0)) FROM orders WHERE id <= 20 ORDER BY id;
SELECT CAST('42' AS integer), CAST(' -7 ' AS integer), CAST('123456789012' AS bigint), CAST('3.25' AS numeric(5,2));
SELECT CAST('2.5' AS double precision), CAST('-0.125' AS double precision), CAST('1e3' AS double precision);
SELECT CAST('true' AS boolean), CAST('f' AS boolean), CAST('2024-02-29' AS date), CAST('2024-02-29 13:14:15.5' AS timestamp);
SELECT id, w, CAST(w AS integer) FROM words WHERE w IN ('0123456789', '-5') ORDER BY id;
SELECT CAST(1.005 AS numeric(4,2)), CAST(-1.005 AS numeric(4,2)), CAST(2.5 AS numeric(2,0)), CAST(123.456 AS numeric(6,1));
SELECT id, qty::bigint + big, amount::numeric(12,3) FROM orders WHERE id <= 10 ORDER BY id;
SELECT CAST(CAST(qty AS text) AS integer) = qty AS same, count(*) FROM orders GROUP BY 1 ORDER BY 1 NULLS FIRST;
SELECT id, CAST(cust AS text) || ':' || status FROM orders WHERE id <= 20 ORDER BY id;

-- ==== SQL's special forms: LIKE ... ESCAPE, substring FROM/FOR, position IN, trim, extract ====
-- (no extract(dow): Spark counts Sunday as 1, PostgreSQL as 0; no extract of
-- hours from a date, which PostgreSQL refuses)
SELECT id, w FROM words WHERE w LIKE '%!%' ESCAPE '!' OR w LIKE 'a!_%' ESCAPE '!' ORDER BY id;
SELECT id, w, w NOT LIKE '%#_%' ESCAPE '#', w ILIKE 'ABC#%' ESCAPE '#' FROM words WHERE id <= 16 ORDER BY id;
SELECT id, w, substring(w FROM 2), substring(w FROM 2 FOR 3), substring(w FROM id FOR 2) FROM words WHERE id <= 30 ORDER BY id;
SELECT id, w, position('a' IN w), position('' IN w), position(lower(w) IN 'xhello world') FROM words ORDER BY id;
SELECT id, '[' || trim(w) || ']', trim(BOTH 'a' FROM w), trim(LEADING 'a' FROM w), trim(TRAILING 'ed ' FROM w), trim('x' FROM w) FROM words ORDER BY id;
SELECT id, ots, extract(year FROM ots), extract(month FROM ots), extract(day FROM ots), extract(hour FROM ots), extract(minute FROM ots), extract(second FROM ots) FROM orders WHERE id <= 40 ORDER BY id;
SELECT id, odate, extract(quarter FROM odate), extract(week FROM odate), extract(doy FROM odate), extract(YEAR FROM odate) FROM orders WHERE id <= 40 ORDER BY id;
SELECT extract(month FROM ots) AS m, count(*) FROM orders GROUP BY 1 ORDER BY 1 NULLS FIRST;

-- ==== column aliases of FROM items, USING and NATURAL joins ====
SELECT * FROM (VALUES (1, 'one'), (2, 'two'), (3, NULL)) AS v (n, word) ORDER BY n;
SELECT s.k, s.cnt FROM (SELECT status, count(*) FROM orders GROUP BY status) AS s (k, cnt) ORDER BY s.k NULLS FIRST;
SELECT * FROM tv a JOIN tv b USING (id) WHERE a.id <= 5 ORDER BY id;
SELECT * FROM tv a FULL JOIN (SELECT x, count(*) AS n FROM tv WHERE p GROUP BY x) b USING (x) WHERE a.id <= 9 OR a.id IS NULL ORDER BY id NULLS FIRST, x NULLS FIRST;
SELECT * FROM (SELECT id, x FROM tv WHERE id <= 9) a NATURAL LEFT JOIN (SELECT x, y FROM tv WHERE id >= 75) b ORDER BY x NULLS FIRST, id, y NULLS FIRST;
SELECT a.x, b.x, x FROM (SELECT x FROM tv WHERE id <= 3) a RIGHT JOIN (SELECT x FROM tv WHERE id >= 79) b USING (x) ORDER BY 3 NULLS FIRST, 1 NULLS FIRST;

-- ==== WITH ====
WITH big AS (SELECT id, cust, qty FROM orders WHERE qty > 40), per AS (SELECT cust, count(*) AS n FROM big GROUP BY cust) SELECT p.cust, p.n, c.name FROM per p LEFT JOIN customers c ON c.cid = p.cust WHERE p.n > 1 ORDER BY p.cust NULLS FIRST, c.name NULLS FIRST;
WITH t (k, total) AS (SELECT status, sum(qty) FROM orders GROUP BY status) SELECT k, total FROM t WHERE total > 1000 ORDER BY k NULLS FIRST;
WITH c AS (SELECT cid, name FROM customers WHERE tier = 1) SELECT count(*) FROM orders o JOIN c ON o.cust = c.cid;

-- ==== subqueries in expressions (uncorrelated) ====
SELECT id, qty FROM orders WHERE qty = (SELECT max(qty) FROM orders) ORDER BY id;
SELECT id, qty - (SELECT min(qty) FROM orders WHERE express) AS d FROM orders WHERE id <= 10 ORDER BY id;
SELECT (SELECT count(*) FROM customers WHERE cid > 1000), (SELECT name FROM customers WHERE cid = 60);
SELECT id, x, x IN (SELECT y FROM tv WHERE q), x NOT IN (SELECT y FROM tv WHERE q), x IN (SELECT y FROM tv WHERE p AND y IS NOT NULL) FROM tv WHERE id <= 27 ORDER BY id;
SELECT count(*) FROM orders WHERE cust NOT IN (SELECT cid FROM customers WHERE cid IS NOT NULL);
SELECT count(*) FROM orders WHERE cust IN (SELECT cid FROM customers WHERE city = 'Oslo');
SELECT id, EXISTS (SELECT 1 FROM customers WHERE cid = 60), NOT EXISTS (SELECT 1 FROM customers WHERE cid = 999) FROM orders WHERE id <= 3 ORDER BY id;
SELECT status, count(*) FROM orders GROUP BY status HAVING count(*) > (SELECT count(*) + 5 FROM orders WHERE qty > 42) ORDER BY status NULLS FIRST;
