WITH a (x, y) AS (SELECT 1, 'b'), b AS (SELECT * FROM a NATURAL FULL JOIN a AS c (x, y))
SELECT x, (SELECT max(x) FROM b), EXISTS (SELECT 1), x NOT IN (SELECT x FROM b), ((SELECT 1))
FROM (VALUES (1, 2)) AS v (x, z) JOIN b USING (x)
WHERE y LIKE 'a!%' ESCAPE '!' AND y NOT ILIKE 'q' ESCAPE ''
  AND substring(y FROM 1 FOR 2) = trim(LEADING 'x' FROM y) AND position('a' IN y) > 0
  AND extract(year FROM ts) = 2024 AND trim(BOTH FROM y) <> trim('z' FROM y);
