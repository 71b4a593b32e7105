-- SQL-level prepared statements: PREPARE, EXECUTE, DEALLOCATE, DISCARD ALL
CREATE TABLE fruit (id INT, name TEXT, price DECIMAL(6,2));
INSERT INTO fruit VALUES (1, 'apple', 1.20), (2, 'pear', 0.80), (3, 'plum', 2.50);
-- declared parameter types
PREPARE by_id (int) AS SELECT name, price FROM fruit WHERE id = $1;
EXECUTE by_id(2);
EXECUTE by_id(3);
-- an expression as the argument
EXECUTE by_id(1 + 2);
-- types inferred from use
PREPARE cheaper AS SELECT name FROM fruit WHERE price < $1 ORDER BY name;
EXECUTE cheaper(2);
EXECUTE cheaper('1.00');
-- NULL arguments
EXECUTE by_id(NULL);
-- no parameters; VALUES
PREPARE pairs AS VALUES (1, 'a'), (2, 'b');
EXECUTE pairs;
-- INSERT and DELETE: the executed statement's command tag
PREPARE add_fruit (int, text, numeric) AS INSERT INTO fruit VALUES ($1, $2, $3);
EXECUTE add_fruit(4, 'fig', 3.10);
EXECUTE add_fruit(5, 'kiwi', 0.40);
PREPARE drop_fruit (int) AS DELETE FROM fruit WHERE id = $1;
EXECUTE drop_fruit(5);
SELECT id, name FROM fruit ORDER BY id;
-- the session's statements in pg_catalog
SELECT name, statement, parameter_types, from_sql FROM pg_prepared_statements ORDER BY name;
-- errors
PREPARE by_id AS SELECT 1;
EXECUTE nosuch;
EXECUTE by_id;
EXECUTE by_id(1, 2);
EXECUTE by_id('x');
EXECUTE by_id(unnest('{}'::int[]));
PREPARE bad AS SELECT nosuch FROM fruit;
PREPARE bad AS BEGIN;
PREPARE bad (nosuchtype) AS SELECT $1;
DEALLOCATE nosuch;
-- the failed PREPAREs left nothing behind
EXECUTE bad;
-- DEALLOCATE [PREPARE] name | ALL
DEALLOCATE by_id;
EXECUTE by_id(1);
DEALLOCATE PREPARE cheaper;
EXECUTE cheaper(1);
PREPARE again AS SELECT 'again' AS word;
DEALLOCATE ALL;
EXECUTE pairs;
EXECUTE again;
SELECT count(*) AS left_over FROM pg_prepared_statements;
-- a name may be used again once deallocated
PREPARE again AS SELECT 'once more' AS word;
EXECUTE again;
-- DISCARD ALL drops prepared statements too
DISCARD ALL;
EXECUTE again;
-- in a transaction block: PREPARE and DEALLOCATE are not transactional
BEGIN;
PREPARE in_block AS SELECT count(*) AS n FROM fruit;
EXECUTE in_block;
ROLLBACK;
EXECUTE in_block;
DEALLOCATE in_block;
