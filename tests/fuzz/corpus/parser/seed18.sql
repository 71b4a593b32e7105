SELECT * FROM a CROSS JOIN b;
SELECT * FROM a, b, c;
SELECT * FROM a JOIN b ON p LEFT JOIN c ON q;
SELECT * FROM impressions i WATERMARK ts DELAY OF '2 hours' JOIN clicks AS c WATERMARK c.ts DELAY OF INTERVAL '3' hours ON i.id = c.id AND c.ts BETWEEN i.ts AND i.ts + INTERVAL '1 hour';
SELECT x FROM (SELECT a AS x FROM t) AS s WATERMARK x DELAY OF '1 minute', (SELECT 1) u