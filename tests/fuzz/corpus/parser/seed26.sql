SELECT $1, $2 + $10;
SELECT from_json(CAST(value AS STRING), 'a INT, b STRING').a;
SELECT window.end, t.end, t.select, x.from;
SELECT ÄÖÜ, größe FROM straße;
SELECT 1 -- trailing comment