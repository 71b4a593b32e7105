-- Differential test schema: the same statements run on PostgreSQL 15 and on
-- sluice, so only type names both accept (integer, bigint, double precision,
-- numeric(p,s), text, boolean, date, timestamp).

-- Facts: ~400 rows with NULLs in every column, duplicates, negatives, empty
-- strings, and customer ids with no customer.
CREATE TABLE orders (
    id      integer,
    cust    integer,
    qty     integer,
    amount  numeric(10,2),
    big     bigint,
    price   double precision,
    status  text,
    express boolean,
    odate   date,
    ots     timestamp
);

-- Dimension: duplicate and NULL keys, customers without orders.
CREATE TABLE customers (
    cid    integer,
    name   text,
    city   text,
    tier   integer,
    credit numeric(8,3),
    active boolean,
    since  date
);

-- Three-valued logic: every combination of TRUE/FALSE/NULL and 1/2/NULL.
CREATE TABLE tv (
    id integer,
    p  boolean,
    q  boolean,
    x  integer,
    y  integer,
    s  text,
    t  text
);

-- Strings: case, spaces, empty, NULL, LIKE wildcards, non-ASCII.
CREATE TABLE words (
    id integer,
    w  text,
    n  integer
);
