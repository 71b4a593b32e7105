-- ALTER STREAM / ALTER QUERY: the options and triggers a checkpoint can
-- take are changed in the stored definition; the others are refused
-- (55000) and change nothing.
\set VERBOSITY verbose
CREATE STREAM files (a INT) USING file OPTIONS (path '/tmp/sluice-alter-in', format 'csv', maxFilesPerTrigger '1');
CREATE STREAM k USING kafka OPTIONS ('kafka.bootstrap.servers' 'localhost:9092', subscribe 't');
CREATE STREAM ticks USING rate OPTIONS (rowsPerSecond '10');
-- allowed: read limits, replaced in place or added
ALTER STREAM files SET OPTIONS (maxFilesPerTrigger '2', latestFirst 'true');
ALTER STREAM k SET OPTIONS (maxOffsetsPerTrigger '100', failOnDataLoss 'false');
SHOW STREAMS;
DESCRIBE files;
-- refused: what the checkpoints recorded, unknown or repeated options, bad values, other objects
ALTER STREAM files SET OPTIONS (path '/elsewhere');
ALTER STREAM files SET OPTIONS (maxFilesPerTrigger '3', format 'json');
ALTER STREAM k SET OPTIONS (subscribe 'other');
ALTER STREAM ticks SET OPTIONS (rowsPerSecond '20');
ALTER STREAM files SET OPTIONS (nosuch '1');
ALTER STREAM files SET OPTIONS (maxFilesPerTrigger '1', maxfilespertrigger '2');
ALTER STREAM files SET OPTIONS (maxFilesPerTrigger 'lots');
ALTER STREAM files SET OPTIONS ();
ALTER STREAM nosuch SET OPTIONS (maxFilesPerTrigger '1');
DESCRIBE files;
-- queries: the sink's alterable options and the trigger
CREATE QUERY shown SINK console OPTIONS (numRows '5') AS SELECT value FROM ticks;
CREATE QUERY plain AS SELECT value FROM ticks;
STOP QUERY shown;
STOP QUERY plain;
ALTER QUERY shown SET OPTIONS (numRows '10', truncate 'false');
ALTER QUERY shown SET TRIGGER PROCESSING TIME '5 seconds';
ALTER QUERY shown SET TRIGGER AVAILABLE NOW;
ALTER QUERY plain SET TRIGGER PROCESSING TIME '1 minute';
ALTER QUERY plain SET TRIGGER CONTINUOUS '1 second';
ALTER QUERY plain SET OPTIONS (numRows '1');
ALTER QUERY ticks SET TRIGGER ONCE;
ALTER QUERY nosuch SET TRIGGER ONCE;
ALTER STREAM shown SET OPTIONS (maxFilesPerTrigger '1');
-- the definitions as stored (DESCRIBE's other lines hold this run's ids)
\pset format unaligned
\pset tuples_only on
DESCRIBE shown \g :testdir/d1
DESCRIBE plain \g :testdir/d2
\! grep -hE '^(Trigger|Definition)' $TESTDIR/d1 $TESTDIR/d2
\pset format aligned
\pset tuples_only off
-- secret options stay redacted in what an ALTER stores and refuses
CREATE STREAM sec USING kafka OPTIONS ('kafka.bootstrap.servers' 'localhost:9092', subscribe 't', 'kafka.sasl.password' 'hunter2');
ALTER STREAM sec SET OPTIONS (maxOffsetsPerTrigger '5');
ALTER STREAM sec SET OPTIONS ('kafka.sasl.password' 'hunter3');
DESCRIBE sec;
DROP STREAM sec;
-- not inside a transaction block
BEGIN;
ALTER STREAM files SET OPTIONS (maxFilesPerTrigger '2');
ROLLBACK;
DROP QUERY shown;
DROP QUERY plain;
DROP STREAM files;
DROP STREAM k;
DROP STREAM ticks;
