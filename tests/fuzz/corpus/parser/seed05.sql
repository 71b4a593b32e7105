DROP QUERY IF EXISTS q;
DROP STREAM s;
DROP TABLE IF EXISTS t;
INSERT INTO customers VALUES ('0','standard'), ('1','premium');
INSERT INTO t (a, b) VALUES (1, $1)