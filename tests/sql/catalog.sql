-- pg_catalog and information_schema: generated from sluice's catalog, with
-- the functions, casts and operators PostgreSQL tools' catalog queries use.
\set VERBOSITY verbose
CREATE TABLE cat_t (id INT, name STRING, price DECIMAL(10,2), at TIMESTAMP, ok BOOLEAN);
\set indir :testdir/in
\! mkdir -p $TESTDIR/in && printf 'id,v\n1,10\n' > $TESTDIR/in/a.csv
CREATE STREAM cat_s (id INT, v BIGINT) USING file OPTIONS (path :'indir', format 'csv', header 'true');
CREATE QUERY cat_q TRIGGER AVAILABLE NOW AS SELECT v AS value FROM cat_s;
AWAIT QUERY cat_q;
-- schemas
SELECT oid, nspname, nspowner FROM pg_catalog.pg_namespace ORDER BY oid;
SELECT catalog_name, schema_name FROM information_schema.schemata ORDER BY schema_name;
-- relations: static table 'r', stream 'v', query table 'm'
SELECT c.relname, c.relkind, n.nspname, c.relnatts
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE n.nspname = 'public' ORDER BY 1;
SELECT table_name, table_type, is_insertable_into FROM information_schema.tables
 WHERE table_schema = 'public' ORDER BY 1;
SELECT table_name, substring(view_definition, 1, 40) AS defined FROM information_schema.views ORDER BY 1;
-- columns
SELECT a.attnum, a.attname, a.atttypid, a.atttypmod, pg_catalog.format_type(a.atttypid, a.atttypmod)
  FROM pg_attribute a WHERE a.attrelid = 'cat_t'::regclass AND a.attnum > 0 ORDER BY a.attnum;
SELECT column_name, ordinal_position, is_nullable, data_type, numeric_precision, numeric_scale,
       datetime_precision, udt_name
  FROM information_schema.columns WHERE table_name = 'cat_t' ORDER BY ordinal_position;
SELECT table_name, column_name, data_type FROM information_schema.columns
 WHERE table_name IN ('cat_s', 'cat_q') ORDER BY 1, 2;
-- types: the OIDs drivers hard-code
SELECT oid, typname, typlen, typtype, typcategory, typarray, typelem, typinput, typoutput, typreceive
  FROM pg_type
 WHERE typname IN ('bool', 'bytea', 'int8', 'int2', 'int4', 'text', 'oid', 'json', 'float4', 'float8',
                   'varchar', 'date', 'time', 'timestamp', 'timestamptz', 'interval', 'numeric',
                   'uuid', 'jsonb', '_int4', '_text')
 ORDER BY oid;
SELECT format_type(1700, 655366), format_type(1043, 24), format_type(1007, -1), format_type(1184, NULL),
       format_type(99999, -1), format_type(NULL, -1) IS NULL AS null_oid;
SELECT 'numeric'::regtype, 'int4'::regtype::text, to_regtype('varchar'), to_regtype('nope') IS NULL AS unknown,
       'public'::regnamespace, 'pg_catalog.pg_class'::regclass = 'pg_class'::regclass AS same;
SELECT c.oid::regclass::text AS rel, 'pg_class'::regclass::text AS sys, 99::regclass::text AS unknown,
       pg_get_viewdef(c.oid) LIKE 'CREATE %' AS has_definition
  FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace ORDER BY 1;
-- session functions
SELECT current_user, session_user, current_database(), current_schema(), current_schemas(true),
       current_schemas(false), pg_get_userbyid(10), pg_get_userbyid(7);
SELECT current_date = CAST(now() AS DATE) AS today, localtimestamp <= now() AS before_now;
SELECT r.rolname, r.rolsuper, r.rolcanlogin FROM pg_roles r;
SELECT usename, usesuper FROM pg_user;
SELECT datname, pg_encoding_to_char(encoding), datcollate FROM pg_database;
SELECT pg_table_is_visible('cat_t'::regclass), has_table_privilege('cat_t', 'SELECT'),
       has_schema_privilege('public', 'USAGE'), has_database_privilege('sluice', 'CONNECT'),
       obj_description('cat_t'::regclass, 'pg_class') IS NULL AS no_comment,
       quote_ident('cat_t'), quote_ident('Mixed Case'), quote_ident('a"b');
-- regular expressions, OPERATOR(pg_catalog.~), COLLATE
SELECT 'cat_t' ~ '^cat', 'CAT_T' ~* '^cat', 'cat_t' !~ 'x$', 'cat_t' !~* 'T$',
       'cat_t' OPERATOR(pg_catalog.~) '^(cat_t)$' COLLATE pg_catalog.default AS psql_form;
SELECT relname FROM pg_class WHERE relname ~ '^cat_[sq]$' ORDER BY 1;
SELECT 'a' ~ '(';
SELECT 'a' COLLATE "fr_FR";
-- arrays in their text form
SELECT array_to_string('{a,"b,c",NULL,d}', '-'), 'b' = ANY ('{a,b}'), 'z' = ANY ('{a,b}'),
       ('{x,y,z}')[2], ('1 2 3')[0], array_upper('{x,y}', 1);
SELECT ARRAY(SELECT relname FROM pg_class WHERE relname LIKE 'cat\_%' ORDER BY 1);
SELECT unnest('{a,b}') AS e, generate_subscripts('{a,b}', 1) AS i;
SELECT s FROM generate_series(1, 3) s;
-- correlated subqueries, as psql's \d sends them
SELECT a.attname,
       (SELECT t.typname FROM pg_type t WHERE t.oid = a.atttypid) AS typname,
       EXISTS (SELECT 1 FROM pg_attrdef d WHERE d.adrelid = a.attrelid AND d.adnum = a.attnum) AS has_default
  FROM pg_attribute a WHERE a.attrelid = 'cat_t'::regclass ORDER BY a.attnum;
-- window row_number() and nullif, as pgjdbc's getColumns sends them
SELECT a.attname, row_number() OVER (PARTITION BY a.attrelid ORDER BY a.attnum DESC) AS rn,
       nullif(a.attname, 'id') AS not_id
  FROM pg_attribute a WHERE a.attrelid = 'cat_t'::regclass ORDER BY rn;
SELECT relname, count(*) OVER (ORDER BY relname) AS n FROM pg_class WHERE relname = 'cat_t';
SELECT relname FROM pg_class WHERE row_number() OVER () = 1;
-- empty where sluice has nothing
SELECT count(*) FROM pg_index;
SELECT count(*) FROM pg_constraint;
SELECT count(*) FROM information_schema.key_column_usage;
-- schema prefixes
SELECT count(*) FROM public.cat_t;
SELECT * FROM anything.cat_t;
SELECT * FROM public.pg_class;
SELECT * FROM information_schema.cat_t;
SELECT anything.lower('X');
SELECT 'a' OPERATOR(public.~) 'a';
SELECT 'a'::myschema.text;
SELECT * FROM myschema.generate_series(1, 2);
-- a user table named like a catalog relation is reached through public
CREATE TABLE pg_am (x INT);
INSERT INTO pg_am VALUES (1);
SELECT count(*) AS catalog_rows FROM pg_am;
SELECT x AS user_rows FROM public.pg_am;
DROP TABLE pg_am;
-- catalog relations are read by ad-hoc statements only
CREATE QUERY cat_bad AS SELECT s.v FROM cat_s s JOIN pg_class c ON c.relnatts = s.v;
DROP QUERY cat_q;
DROP STREAM cat_s;
DROP TABLE cat_t;
