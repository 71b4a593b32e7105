-- The driver suite's fixtures, shared by sluice and PostgreSQL (psql runs
-- this file with ON_ERROR_STOP). prices: a static table holding every type
-- the programs read; tx_<client>: one empty table per program for its
-- writes and transactions. The stream `orders` and the query result table
-- `order_totals` come from fixtures_sluice.sql (or, for a PostgreSQL
-- server, fixtures_postgres.sql: plain tables with the same columns).
CREATE TABLE prices (id INT, name TEXT, price DECIMAL(10,2), ts TIMESTAMP, dur INTERVAL,
                     note TEXT, raw BYTEA, flag BOOLEAN, big BIGINT, ratio DOUBLE PRECISION, day DATE);
INSERT INTO prices VALUES
  (1, 'apple', 12.34, TIMESTAMP '2024-05-01 12:00:10.5', INTERVAL '1 day 02:03:04', NULL,
   CAST('ab' AS BYTEA), true, 9000000000, 0.5, DATE '2024-05-01');
INSERT INTO prices VALUES
  (2, 'leek', NULL, NULL, NULL, 'none', NULL, NULL, NULL, NULL, NULL);
INSERT INTO prices VALUES
  (3, 'pear', -0.05, TIMESTAMP '1999-12-31 23:59:59.999999', INTERVAL '-3 hours', '',
   CAST('' AS BYTEA), false, -1, -2.25, DATE '1999-12-31');
CREATE TABLE tx_psycopg2 (id INT, amount DECIMAL(10,2), note TEXT, ts TIMESTAMP, raw BYTEA);
CREATE TABLE tx_psycopg (id INT, amount DECIMAL(10,2), note TEXT, ts TIMESTAMP, raw BYTEA);
CREATE TABLE tx_sqlalchemy (id INT, amount DECIMAL(10,2), note TEXT, ts TIMESTAMP, raw BYTEA);
CREATE TABLE tx_jdbc (id INT, amount DECIMAL(10,2), note TEXT, ts TIMESTAMP, raw BYTEA);
CREATE TABLE tx_node (id INT, amount DECIMAL(10,2), note TEXT, ts TIMESTAMP, raw BYTEA);
CREATE TABLE tx_pgbench (id INT, amount DECIMAL(10,2), note TEXT, ts TIMESTAMP, raw BYTEA);
CREATE TABLE tx_psql (id INT, amount DECIMAL(10,2), note TEXT, ts TIMESTAMP, raw BYTEA);
