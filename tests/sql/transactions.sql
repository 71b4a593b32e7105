-- Transactions as PostgreSQL clients see them: warnings outside a block,
-- COMMIT and ROLLBACK of static-table changes, the failed state (25P02),
-- savepoints, isolation levels and READ ONLY, settings that follow the
-- block, and what a block refuses.
\set VERBOSITY verbose
CREATE TABLE acct (id INT, balance BIGINT);
-- outside a block
COMMIT;
ROLLBACK;
SAVEPOINT a;
RELEASE a;
ROLLBACK TO a;
-- a block's rows appear at COMMIT
BEGIN;
INSERT INTO acct VALUES (1, 100), (2, 200);
SELECT * FROM acct ORDER BY id;
COMMIT;
SELECT * FROM acct ORDER BY id;
-- ROLLBACK undoes inserts and deletes
BEGIN;
INSERT INTO acct VALUES (3, 300);
DELETE FROM acct WHERE id = 1;
SELECT * FROM acct ORDER BY id;
ROLLBACK;
SELECT * FROM acct ORDER BY id;
-- BEGIN inside a block
BEGIN;
BEGIN;
COMMIT;
-- an error fails the block; COMMIT then rolls back
BEGIN;
INSERT INTO acct VALUES (4, 400);
SELECT 1 / 0;
SELECT 1;
INSERT INTO acct VALUES (5, 500);
COMMIT;
SELECT * FROM acct ORDER BY id;
-- savepoints
BEGIN;
INSERT INTO acct VALUES (10, 1);
SAVEPOINT s1;
INSERT INTO acct VALUES (11, 1);
SAVEPOINT s2;
INSERT INTO acct VALUES (12, 1);
ROLLBACK TO SAVEPOINT s2;
SELECT id FROM acct WHERE id >= 10 ORDER BY id;
ROLLBACK TO s1;
SELECT id FROM acct WHERE id >= 10 ORDER BY id;
INSERT INTO acct VALUES (13, 1);
RELEASE SAVEPOINT s1;
ROLLBACK TO s1;
ROLLBACK;
SELECT count(*) FROM acct WHERE id >= 10;
-- ROLLBACK TO leaves the failed state; the savepoint stays
BEGIN;
SAVEPOINT s;
INSERT INTO acct VALUES (20, 1);
SELECT nosuchcol FROM acct;
SELECT 1;
ROLLBACK TO s;
INSERT INTO acct VALUES (21, 1);
SAVEPOINT s;
INSERT INTO acct VALUES (22, 1);
ROLLBACK TO s;
COMMIT;
SELECT id FROM acct WHERE id >= 20 ORDER BY id;
-- a repeated savepoint name means the innermost one
BEGIN;
SAVEPOINT x;
INSERT INTO acct VALUES (30, 1);
SAVEPOINT x;
INSERT INTO acct VALUES (31, 1);
ROLLBACK TO x;
RELEASE x;
INSERT INTO acct VALUES (32, 1);
ROLLBACK TO x;
COMMIT;
SELECT id FROM acct WHERE id >= 30 ORDER BY id;
-- END and ABORT
BEGIN;
INSERT INTO acct VALUES (50, 1);
END;
BEGIN WORK;
INSERT INTO acct VALUES (51, 1);
ABORT;
SELECT id FROM acct WHERE id >= 50 ORDER BY id;
-- isolation levels are accepted; READ ONLY refuses changes
BEGIN ISOLATION LEVEL SERIALIZABLE;
SHOW transaction_isolation;
SHOW TRANSACTION ISOLATION LEVEL;
COMMIT;
SHOW transaction_isolation;
START TRANSACTION READ ONLY, ISOLATION LEVEL REPEATABLE READ;
SHOW transaction_read_only;
SHOW transaction_isolation;
INSERT INTO acct VALUES (40, 1);
ROLLBACK;
SET default_transaction_read_only = on;
DELETE FROM acct;
COPY acct FROM STDIN;
BEGIN READ WRITE;
SHOW transaction_read_only;
COMMIT;
RESET default_transaction_read_only;
SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL REPEATABLE READ;
SHOW default_transaction_isolation;
BEGIN;
SHOW transaction_isolation;
SET TRANSACTION ISOLATION LEVEL READ COMMITTED;
SHOW transaction_isolation;
COMMIT;
SET TRANSACTION READ ONLY;
RESET default_transaction_isolation;
-- settings follow the block
SET application_name = 'before';
BEGIN;
SET application_name = 'inside';
ROLLBACK;
SHOW application_name;
BEGIN;
SET LOCAL application_name = 'local';
SHOW application_name;
COMMIT;
SHOW application_name;
BEGIN;
SET application_name = 'kept';
COMMIT;
SHOW application_name;
BEGIN;
SAVEPOINT a;
SET application_name = 'in savepoint';
ROLLBACK TO a;
SHOW application_name;
COMMIT;
SET LOCAL application_name = 'ignored';
SHOW application_name;
-- what a block refuses: stream and query statements
BEGIN;
CREATE STREAM ticks USING rate;
ROLLBACK;
-- CREATE TABLE in a block is undone by ROLLBACK, and by ROLLBACK TO a
-- savepoint set before it; DROP TABLE takes effect at once
BEGIN;
CREATE TABLE t3 (a INT);
INSERT INTO t3 VALUES (1);
ROLLBACK;
SELECT * FROM t3;
BEGIN;
INSERT INTO acct VALUES (70, 1);
CREATE TABLE t2 (a INT);
INSERT INTO t2 VALUES (1);
SELECT * FROM t2;
ROLLBACK;
SELECT * FROM t2;
BEGIN;
INSERT INTO acct VALUES (71, 1);
CREATE TABLE t6 (a INT);
INSERT INTO t6 VALUES (6);
COMMIT;
SELECT * FROM t6;
BEGIN;
SAVEPOINT before_t4;
CREATE TABLE t4 (a INT);
ROLLBACK TO before_t4;
CREATE TABLE t5 (a INT);
COMMIT;
SHOW TABLES;
BEGIN;
INSERT INTO acct VALUES (72, 1);
DROP TABLE t5;
ROLLBACK;
SHOW TABLES;
SELECT id FROM acct WHERE id >= 70 ORDER BY id;
-- outside a block each statement commits on its own
INSERT INTO acct VALUES (60, 1)\; SELECT 1 / 0;
SELECT id FROM acct WHERE id = 60;
