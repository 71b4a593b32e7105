SELECT a BETWEEN 1 AND 2 AND c, a NOT BETWEEN b + 1 AND c * 2;
SELECT a IN (1, 2), a NOT IN ('x'), NOT a IN (1), a + 1 IN (b);
SELECT a LIKE 'x%', a NOT LIKE 'y', a ILIKE 'z', a NOT ILIKE 'w', a || b LIKE c;
SELECT a = b LIKE c, a LIKE b = c;
SELECT a IS NULL, a IS NOT NULL, a IS TRUE, a IS NOT TRUE, a IS FALSE, a IS NOT FALSE