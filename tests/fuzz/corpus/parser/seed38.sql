SELECT a.x ~ 'p' COLLATE "C", a.x OPERATOR(pg_catalog.~*) '^q', 'b' = ANY ('{a,b}'), k[1], (f(1))[2]::pg_catalog.int2[] FROM t a WHERE x !~ '(' ;
SELECT row_number() OVER (PARTITION BY a ORDER BY b DESC NULLS FIRST), unnest('{1,2}') FROM pg_catalog.generate_series(1, 3) s (a);
SELECT ARRAY(SELECT 1), 'x'::regclass::text, 'int4'::regtype::text FROM unnest(x);
