"""psycopg2 (Debian's python3-psycopg2) against the server of the PG*
environment, the way applications use it: connect() with its defaults
(autocommit off, so every statement runs in a transaction psycopg2 opens),
parameters interpolated client-side into simple-protocol text queries,
results typed by their column OIDs, cursors read in batches, close().
The fixtures are tests/integration/drivers.sh's: static table prices, stream
orders, query result table order_totals, empty table tx_psycopg2."""

import datetime
import decimal
import sys

import psycopg2

import checks
from checks import eq, true, run

D = decimal.Decimal
TS1 = datetime.datetime(2024, 5, 1, 12, 0, 10, 500000)
TS3 = datetime.datetime(1999, 12, 31, 23, 59, 59, 999999)
PRICES = "SELECT id, name, price, ts, dur, note, raw, flag, big, ratio, day FROM prices"

LEFT_OPEN = []


def connect():
    return psycopg2.connect("")


def values(conn):
    checks.begin("psycopg2/values")
    cur = conn.cursor()
    cur.execute(PRICES + " WHERE id = %s", (1,))
    r = cur.fetchone()
    eq("int", r[0], 1)
    eq("text", r[1], "apple")
    eq("decimal", r[2], D("12.34"))
    eq("timestamp", r[3], TS1)
    eq("interval", r[4], datetime.timedelta(days=1, seconds=7384))
    eq("null", r[5], None)
    true("bytea", isinstance(r[6], memoryview) and bytes(r[6]) == b"ab", repr(r[6]))
    eq("bool", r[7], True)
    eq("bigint", r[8], 9000000000)
    eq("double", r[9], 0.5)
    eq("date", r[10], datetime.date(2024, 5, 1))
    eq("type codes", [d.type_code for d in cur.description],
       [23, 25, 1700, 1114, 1186, 25, 17, 16, 20, 701, 1082])
    eq("column names", [d.name for d in cur.description],
       ["id", "name", "price", "ts", "dur", "note", "raw", "flag", "big", "ratio", "day"])
    cur.execute(PRICES + " WHERE id = %(id)s", {"id": 2})
    eq("nulls", cur.fetchone()[2:], (None, None, None, "none", None, None, None, None, None))
    cur.execute(PRICES + " WHERE id = %s", (3,))
    r = cur.fetchone()
    eq("negative decimal", r[2], D("-0.05"))
    eq("microseconds", r[3], TS3)
    eq("negative interval", r[4], datetime.timedelta(hours=-3))
    eq("empty text", r[5], "")
    true("empty bytea", isinstance(r[6], memoryview) and bytes(r[6]) == b"", repr(r[6]))
    cur.execute("SELECT name FROM prices WHERE name = %s OR name = %s ORDER BY name", ("pear", "it's"))
    eq("quoted string parameter", cur.fetchall(), [("pear",)])
    conn.rollback()


def parameters(conn):
    checks.begin("psycopg2/parameters")
    cur = conn.cursor()
    cur.execute("INSERT INTO tx_psycopg2 (id, amount, note, ts, raw) VALUES (%s, %s, %s, %s, %s)",
                (1, D("7.25"), None, TS1, b"\x00\x01\xff"))
    conn.commit()
    cur.execute("SELECT id, amount, note, ts, raw FROM tx_psycopg2 WHERE id = %s", (1,))
    r = cur.fetchone()
    eq("int", r[0], 1)
    eq("decimal", r[1], D("7.25"))
    eq("null", r[2], None)
    eq("timestamp", r[3], TS1)
    true("bytea", r[4] is not None and bytes(r[4]) == b"\x00\x01\xff", repr(r[4] and bytes(r[4])))
    cur.execute("SELECT %s + 1, %s, %s", (41, D("1.5"), "x"))
    eq("expressions", cur.fetchone(), (42, D("1.5"), "x"))
    cur.execute("SELECT count(*) FROM prices WHERE ts < %s", (datetime.datetime(2000, 1, 1),))
    eq("timestamp comparison", cur.fetchone()[0], 1)
    cur.execute("SELECT count(*) FROM prices WHERE dur > %s", (datetime.timedelta(hours=1),))
    eq("interval comparison", cur.fetchone()[0], 1)
    conn.rollback()


def transactions(conn):
    checks.begin("psycopg2/transactions")
    cur = conn.cursor()
    eq("autocommit off", conn.autocommit, False)
    cur.execute("DELETE FROM tx_psycopg2")
    conn.commit()
    cur.execute("INSERT INTO tx_psycopg2 (id, note) VALUES (10, 'rolled back')")
    eq("in transaction", conn.info.transaction_status, psycopg2.extensions.TRANSACTION_STATUS_INTRANS)
    conn.rollback()
    cur.execute("SELECT count(*) FROM tx_psycopg2")
    eq("rollback undoes insert", cur.fetchone()[0], 0)
    cur.execute("INSERT INTO tx_psycopg2 (id, note) VALUES (11, 'kept')")
    conn.commit()
    other = connect()
    ocur = other.cursor()
    ocur.execute("SELECT note FROM tx_psycopg2")
    eq("commit seen by another connection", ocur.fetchall(), [("kept",)])
    other.close()
    cur.execute("INSERT INTO tx_psycopg2 (id, note) VALUES (12, 'before savepoint')")
    cur.execute("SAVEPOINT sp")
    cur.execute("INSERT INTO tx_psycopg2 (id, note) VALUES (13, 'after savepoint')")
    cur.execute("ROLLBACK TO SAVEPOINT sp")
    conn.commit()
    cur.execute("SELECT id FROM tx_psycopg2 ORDER BY id")
    eq("rollback to savepoint", cur.fetchall(), [(11,), (12,)])
    conn.rollback()
    try:
        cur.execute("SELECT * FROM no_such_table")
        true("error raised", False)
    except psycopg2.errors.UndefinedTable:
        true("error raised", True)
    eq("failed transaction", conn.info.transaction_status, psycopg2.extensions.TRANSACTION_STATUS_INERROR)
    try:
        cur.execute("SELECT 1")
        true("statements refused until rollback", False)
    except psycopg2.errors.InFailedSqlTransaction:
        true("statements refused until rollback", True)
    conn.rollback()
    cur.execute("SELECT 1")
    eq("usable after rollback", cur.fetchone(), (1,))
    conn.rollback()


def cursors(conn):
    checks.begin("psycopg2/cursors")
    cur = conn.cursor()
    cur.arraysize = 2
    cur.execute("SELECT id FROM prices ORDER BY id")
    eq("rowcount", cur.rowcount, 3)
    eq("fetchmany", cur.fetchmany(), [(1,), (2,)])
    eq("fetchone", cur.fetchone(), (3,))
    eq("exhausted", cur.fetchone(), None)
    cur.execute("SELECT item, n, total FROM order_totals ORDER BY item")
    eq("query result table", list(cur), [("apple", 2, D("6.50")), ("leek", 1, D("1.20"))])
    cur.close()
    true("cursor closed", cur.closed)
    conn.rollback()


def introspection(conn):
    checks.begin("psycopg2/introspection")
    cur = conn.cursor()
    cur.execute("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' "
                "AND table_name IN ('prices', 'orders', 'order_totals') ORDER BY table_name")
    eq("information_schema.tables", cur.fetchall(), [("order_totals",), ("orders",), ("prices",)])
    cur.execute("SELECT column_name, data_type, numeric_precision, numeric_scale "
                "FROM information_schema.columns WHERE table_name = %s ORDER BY ordinal_position", ("orders",))
    eq("stream columns", cur.fetchall(),
       [("id", "integer", 32, 0), ("item", "text", None, None), ("amount", "numeric", 8, 2),
        ("ts", "timestamp without time zone", None, None)])
    cur.execute("SELECT a.attname, pg_catalog.format_type(a.atttypid, a.atttypmod) FROM pg_catalog.pg_attribute a "
                "WHERE a.attrelid = 'prices'::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum")
    eq("pg_attribute of a table", cur.fetchall(),
       [("id", "integer"), ("name", "text"), ("price", "numeric(10,2)"), ("ts", "timestamp without time zone"),
        ("dur", "interval"), ("note", "text"), ("raw", "bytea"), ("flag", "boolean"), ("big", "bigint"),
        ("ratio", "double precision"), ("day", "date")])
    cur.execute("SELECT column_name, data_type FROM information_schema.columns "
                "WHERE table_name = 'order_totals' ORDER BY ordinal_position")
    eq("query result columns", cur.fetchall(), [("item", "text"), ("n", "bigint"), ("total", "numeric")])
    conn.rollback()


def exit_without_close():
    """The last statement had a parameter; the process ends without close()."""
    checks.begin("psycopg2/exit without close")
    conn = connect()
    LEFT_OPEN.append(conn)  # not closed, not collected: the process exit drops it
    cur = conn.cursor()
    cur.execute("SELECT name FROM prices WHERE id = %s", (1,))
    eq("parameterized query", cur.fetchone(), ("apple",))


def main():
    if sys.argv[1:] == ["exit-without-close"]:
        run("psycopg2/exit without close", exit_without_close)
        checks.done(hard=True)
    conn = connect()
    for fn in (values, parameters, transactions, cursors, introspection):
        if not run(f"psycopg2/{fn.__name__}", lambda: fn(conn)):
            try:
                conn.rollback()
            except psycopg2.Error:
                conn = connect()
    checks.begin("psycopg2/disconnect")
    conn.close()
    eq("closed", conn.closed, 1)
    checks.done()


main()
