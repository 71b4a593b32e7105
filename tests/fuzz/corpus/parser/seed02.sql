CREATE STREAM r USING rate OPTIONS (rowsPerSecond 10, rampUpTime = '5s', flag true, neg -1.5, kafka.group.id = 'g');
CREATE STREAM s (a INT NOT NULL, b DECIMAL(10,2), c DOUBLE PRECISION, d STRUCT<x: INT, y STRING>, e VARCHAR(20), f "MyType", g double, h NUMERIC(5), i BIGINT NULL) USING kafka;
CREATE STREAM s (w STRUCT<start: TIMESTAMP, inner: STRUCT<a: INT>>) USING file OPTIONS ();
CREATE TABLE customers (customer_id STRING, tier STRING);
CREATE TABLE campaigns (id STRING, name STRING) USING csv OPTIONS (path '/dims/campaigns.csv', header 'true')