-- Streams, tables and the catalog: creation, listing, description, errors, dropping.
\set VERBOSITY verbose
SHOW STREAMS;
CREATE STREAM ticks USING rate OPTIONS (rowsPerSecond '100', numPartitions '2');
CREATE STREAM clicks (campaign_id STRING, user_id STRING, event_time TIMESTAMP)
  USING kafka OPTIONS ('kafka.bootstrap.servers' 'localhost:9092', subscribe 'clicks',
                       startingOffsets 'earliest', format 'json')
  WATERMARK event_time DELAY OF INTERVAL '15 minutes';
CREATE STREAM raw USING kafka OPTIONS ('kafka.bootstrap.servers' 'localhost:9092', subscribe 't');
CREATE STREAM bids USING nexmark OPTIONS (table 'bid');
CREATE STREAM files (a INT, b STRING, c DECIMAL(10,2), d DATE) USING file
  OPTIONS (path '/tmp/in', format 'csv', header 'true', maxFilesPerTrigger '2');
SHOW STREAMS;
DESCRIBE clicks;
DESCRIBE raw;
DESCRIBE bids;
-- errors: duplicates, unknown connectors and options, schema rules
CREATE STREAM ticks USING rate;
CREATE STREAM IF NOT EXISTS ticks USING rate;
CREATE STREAM bad USING nosuch;
CREATE STREAM bad USING rate OPTIONS (rowsPerSecnd '1');
CREATE STREAM bad USING rate OPTIONS (rowsPerSecond '1', rowsPerSecond '2');
CREATE STREAM bad USING rate OPTIONS (rowsPerSecond 'lots');
CREATE STREAM bad (a INT) USING file OPTIONS (path '/tmp', mode 'CAREFUL');
CREATE STREAM bad (a INT) USING rate;
CREATE STREAM bad USING file OPTIONS (path '/tmp');
CREATE STREAM bad (a INT) USING file;
CREATE STREAM bad (a INT, a STRING) USING file OPTIONS (path '/tmp');
CREATE STREAM bad (a NOSUCHTYPE) USING file OPTIONS (path '/tmp');
CREATE STREAM bad USING nexmark OPTIONS (table 'nope');
CREATE STREAM bad (t TIMESTAMP) USING file OPTIONS (path '/tmp') WATERMARK x DELAY OF INTERVAL '1 minute';
CREATE STREAM bad (t STRING) USING file OPTIONS (path '/tmp') WATERMARK t DELAY OF INTERVAL '1 minute';
CREATE STREAM bad (t TIMESTAMP) USING file OPTIONS (path '/tmp') WATERMARK t DELAY OF INTERVAL '1 month';
CREATE STREAM bad (t TIMESTAMP) USING file OPTIONS (path '/tmp') WATERMARK t DELAY OF INTERVAL 'soon';
-- tables
CREATE TABLE customers (customer_id STRING, tier STRING, since DATE);
CREATE TABLE IF NOT EXISTS customers (x INT);
CREATE TABLE campaigns (id STRING, name STRING) USING csv OPTIONS (path '/tmp/campaigns.csv', header 'true');
CREATE TABLE bad USING csv OPTIONS (path '/tmp/x.csv');
CREATE TABLE bad (a INT) OPTIONS (path '/tmp/x.csv');
CREATE TABLE ticks (a INT);
SHOW TABLES;
DESCRIBE customers;
DESCRIBE nosuch;
-- dependencies: a query keeps its stream and tables
CREATE QUERY q1 AS SELECT value FROM ticks JOIN customers ON customer_id = CAST(value AS STRING);
DROP STREAM ticks;
DROP TABLE customers;
DROP TABLE ticks;
DROP STREAM nosuch;
DROP STREAM IF EXISTS nosuch;
DROP QUERY q1;
DROP STREAM ticks;
DROP TABLE customers;
DROP STREAM clicks;
DROP STREAM raw;
SHOW STREAMS;
SHOW TABLES;
