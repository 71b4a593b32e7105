-- What fixtures_sluice.sql makes, for a PostgreSQL server (DRIVERS_TARGET=postgres):
-- plain tables with the stream's and the query result's columns and rows.
CREATE TABLE orders (id INT, item TEXT, amount DECIMAL(8,2), ts TIMESTAMP);
CREATE TABLE order_totals (item TEXT, n BIGINT, total DECIMAL(18,2));
INSERT INTO order_totals VALUES ('apple', 2, 6.50), ('leek', 1, 1.20);
