SELECT a FROM t WHERE;
SELECT select;
SELECT 'é', é + é ++ #;
é SELECT;
SELECT 1 'abc'