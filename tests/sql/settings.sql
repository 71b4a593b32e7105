-- Session settings: SET/SHOW/RESET as PostgreSQL, the values drivers send,
-- refusals (42704, 22023, 55P02), current_setting() and set_config(), and
-- statement_timeout.
\set VERBOSITY verbose
-- what drivers send on connect
SET extra_float_digits = 3;
SHOW extra_float_digits;
SET extra_float_digits = 4;
SET application_name = 'PostgreSQL JDBC Driver';
SHOW application_name;
SET DateStyle = 'ISO';
SHOW DateStyle;
SET datestyle TO 'ISO, DMY';
SHOW datestyle;
SET DateStyle = 'German';
RESET DateStyle;
SHOW DateStyle;
SET TimeZone = 'Europe/Berlin';
SHOW TimeZone;
SET TIME ZONE 'Etc/UTC';
SHOW TIME ZONE;
SET TIME ZONE 'Mars/Olympus';
SET TIME ZONE 'GMT-02:00';
SET TIME ZONE '+02:00';
SHOW timezone;
SET TIME ZONE DEFAULT;
SHOW timezone;
SET client_encoding = 'UTF8';
SET client_encoding = 'utf-8';
SET client_encoding TO 'unicode';
SHOW client_encoding;
SET client_encoding = 'LATIN1';
SET client_encoding = 'SQL_ASCII';
SHOW client_encoding;
RESET client_encoding;
SET standard_conforming_strings = on;
SET standard_conforming_strings = off;
SET IntervalStyle = 'iso_8601';
SHOW IntervalStyle;
SET bytea_output = 'escape';
-- types and units
SET statement_timeout = 5000;
SHOW statement_timeout;
SET statement_timeout = '90s';
SHOW statement_timeout;
SET statement_timeout = '1500ms';
SHOW statement_timeout;
SET statement_timeout = '5 parsecs';
SET lock_timeout = -1;
SET idle_in_transaction_session_timeout = '1h';
SHOW idle_in_transaction_session_timeout;
RESET statement_timeout;
RESET lock_timeout;
SET default_transaction_read_only = yes;
SHOW default_transaction_read_only;
SET default_transaction_read_only = maybe;
RESET default_transaction_read_only;
SET default_transaction_isolation = 'SERIALIZABLE';
SHOW default_transaction_isolation;
SET default_transaction_isolation = 'chaos';
RESET ALL;
SHOW default_transaction_isolation;
SET search_path TO "$user", public;
SHOW search_path;
SET search_path = public, Audit;
SHOW search_path;
RESET search_path;
SHOW search_path;
-- fixed and unknown settings
SET server_version = '16';
SET integer_datetimes = off;
SHOW server_version_num;
SHOW max_identifier_length;
SHOW integer_datetimes;
SHOW is_superuser;
SET no_such_setting = 1;
SHOW no_such_setting;
RESET no_such_setting;
-- client_min_messages holds back notices (then warnings)
CREATE TABLE IF NOT EXISTS n1 (a INT);
CREATE TABLE IF NOT EXISTS n1 (a INT);
SET client_min_messages = warning;
CREATE TABLE IF NOT EXISTS n1 (a INT);
COMMIT;
SET client_min_messages = error;
COMMIT;
RESET client_min_messages;
-- placeholders (names with a dot) are kept
SET myapp.tenant = 'acme';
SHOW myapp.tenant;
SELECT current_setting('myapp.tenant');
-- current_setting() and set_config()
SELECT current_setting('server_encoding'), current_setting('DateStyle');
SELECT current_setting('no_such_setting');
SELECT current_setting('no_such_setting', true) IS NULL AS missing;
SELECT set_config('application_name', 'from set_config', false);
SHOW application_name;
SELECT set_config('search_path', '', false);
SHOW search_path;
SELECT set_config('TimeZone', 'Nowhere/Else', false);
BEGIN;
SELECT set_config('application_name', 'local one', true);
COMMIT;
SHOW application_name;
-- statement_timeout cancels a statement that runs longer
SET statement_timeout = '200ms';
SELECT pg_sleep(5);
RESET statement_timeout;
SELECT 1 AS still_serving;
SELECT pg_sleep(0.3) IS NULL AS slept;
