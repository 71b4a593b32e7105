SET SESSION application_name TO 'psql';
SET LOCAL b = DEFAULT;
SET search_path TO "$user", public;
SET TIME ZONE 'UTC';
SET TIME ZONE LOCAL