"""psycopg 3 (Debian's python3-psycopg) against the server of the PG*
environment, with its defaults: autocommit off, server-side parameters
through the extended protocol (int and datetime sent in binary, str and
Decimal in text), statements prepared after prepare_threshold (5)
executions, text results unless a cursor asks for binary. Then nested
transaction() blocks (savepoints), TypeInfo.fetch, streaming a result
row by row, and close(). Fixtures: tests/integration/drivers.sh's."""

import datetime
import decimal
import sys

import psycopg
from psycopg import pq
from psycopg.types import TypeInfo

import checks
from checks import eq, true, run

D = decimal.Decimal
TS1 = datetime.datetime(2024, 5, 1, 12, 0, 10, 500000)
TS3 = datetime.datetime(1999, 12, 31, 23, 59, 59, 999999)
PRICES = "SELECT id, name, price, ts, dur, note, raw, flag, big, ratio, day FROM prices"
ROW1 = (1, "apple", D("12.34"), TS1, datetime.timedelta(days=1, seconds=7384), None, b"ab",
        True, 9000000000, 0.5, datetime.date(2024, 5, 1))
ROW2 = (2, "leek", None, None, None, "none", None, None, None, None, None)
ROW3 = (3, "pear", D("-0.05"), TS3, datetime.timedelta(hours=-3), "", b"", False, -1, -2.25,
        datetime.date(1999, 12, 31))
NAMES = ("id", "name", "price", "ts", "dur", "note", "raw", "flag", "big", "ratio", "day")

LEFT_OPEN = []


def connect():
    return psycopg.connect("")


def row_checks(fmt, rows):
    """Every column of the three rows of prices, value and Python type."""
    for want, got in zip((ROW1, ROW2, ROW3), rows):
        for name, w, g in zip(NAMES, want, got):
            eq(f"{fmt} row {want[0]} {name}", g, w)


def values(conn):
    checks.begin("psycopg/values")
    for fmt, binary in (("text", False), ("binary", True)):
        cur = conn.cursor(binary=binary)
        cur.execute(PRICES + " ORDER BY id")
        eq(f"{fmt} result format", cur.pgresult.fformat(0), 1 if binary else 0)
        row_checks(fmt, cur.fetchall())
        eq(f"{fmt} type codes", [d.type_code for d in cur.description],
           [23, 25, 1700, 1114, 1186, 25, 17, 16, 20, 701, 1082])
    conn.rollback()


def parameters(conn):
    checks.begin("psycopg/parameters")
    cur = conn.cursor()
    for fmt, ph in (("auto", "%s"), ("binary", "%b"), ("text", "%t")):
        cur.execute(PRICES + f" WHERE id = {ph}", (1,))
        eq(f"{fmt} int parameter", cur.fetchone(), ROW1)
        cur.execute(f"SELECT id FROM prices WHERE ts = {ph}", (TS1,))
        eq(f"{fmt} timestamp parameter", cur.fetchall(), [(1,)])
        cur.execute(f"SELECT id FROM prices WHERE price = {ph}", (D("-0.05"),))
        eq(f"{fmt} decimal parameter", cur.fetchall(), [(3,)])
        cur.execute(f"SELECT id FROM prices WHERE name = {ph}", ("leek",))
        eq(f"{fmt} text parameter", cur.fetchall(), [(2,)])
        cur.execute(f"SELECT id FROM prices WHERE dur < {ph}", (datetime.timedelta(0),))
        eq(f"{fmt} interval parameter", cur.fetchall(), [(3,)])
    cur.execute("DELETE FROM tx_psycopg")
    cur.execute("INSERT INTO tx_psycopg (id, amount, note, ts, raw) VALUES (%s, %s, %s, %s, %s)",
                (1, D("7.25"), None, TS1, b"\x00\x01\xff"))
    cur.execute("INSERT INTO tx_psycopg (id, amount, note, ts, raw) VALUES (%b, %b, %b, %b, %b)",
                (2, D("-1234.5"), "two", TS3, b""))
    conn.commit()
    cur.execute("SELECT id, amount, note, ts, raw FROM tx_psycopg ORDER BY id")
    eq("inserted with parameters", cur.fetchall(),
       [(1, D("7.25"), None, TS1, b"\x00\x01\xff"), (2, D("-1234.50"), "two", TS3, b"")])
    cur.execute("SELECT %s + 1, %s", (41, None))
    eq("int and null parameters", cur.fetchone(), (42, None))
    conn.rollback()


def prepared(conn):
    checks.begin("psycopg/prepared")
    eq("prepare_threshold", conn.prepare_threshold, 5)
    cur = conn.cursor()
    got = []
    for i in range(8):
        cur.execute("SELECT name, price FROM prices WHERE id = %s", (i % 3 + 1,))
        got.append(cur.fetchone())
    eq("eight executions, prepared after five",
       got, [("apple", D("12.34")), ("leek", None), ("pear", D("-0.05"))] * 2 + [("apple", D("12.34")), ("leek", None)])
    cur.execute("SELECT name FROM prices WHERE id = %s", (3,), prepare=True)
    eq("prepare=True", cur.fetchone(), ("pear",))
    cur.execute("SELECT name FROM prices WHERE id = %s", (1,), prepare=True)
    eq("prepare=True again", cur.fetchone(), ("apple",))
    bcur = conn.cursor(binary=True)
    for i in range(7):
        bcur.execute("SELECT price, ts FROM prices WHERE id = %b", (1,))
    eq("binary prepared", bcur.fetchone(), (D("12.34"), TS1))
    conn.rollback()


def transactions(conn):
    checks.begin("psycopg/transactions")
    cur = conn.cursor()
    eq("autocommit off", conn.autocommit, False)
    cur.execute("DELETE FROM tx_psycopg")
    conn.commit()
    cur.execute("INSERT INTO tx_psycopg (id, note) VALUES (%s, %s)", (10, "rolled back"))
    eq("in transaction", conn.info.transaction_status, pq.TransactionStatus.INTRANS)
    conn.rollback()
    eq("idle after rollback", conn.info.transaction_status, pq.TransactionStatus.IDLE)
    cur.execute("SELECT count(*) FROM tx_psycopg")
    eq("rollback undoes insert", cur.fetchone(), (0,))
    conn.rollback()
    with conn.transaction():
        cur.execute("INSERT INTO tx_psycopg (id, note) VALUES (%s, %s)", (20, "outer"))
        with conn.transaction() as inner:
            cur.execute("INSERT INTO tx_psycopg (id, note) VALUES (%s, %s)", (21, "inner"))
            raise psycopg.Rollback(inner)
    with conn.transaction():
        with conn.transaction():
            cur.execute("INSERT INTO tx_psycopg (id, note) VALUES (%s, %s)", (22, "nested kept"))
    conn.commit()
    other = connect()
    eq("nested transaction(): inner rollback, outer commit",
       other.execute("SELECT id, note FROM tx_psycopg ORDER BY id").fetchall(),
       [(20, "outer"), (22, "nested kept")])
    other.close()
    try:
        cur.execute("SELECT * FROM no_such_table WHERE id = %s", (1,))
        true("error raised", False)
    except psycopg.errors.UndefinedTable:
        true("error raised", True)
    eq("failed transaction", conn.info.transaction_status, pq.TransactionStatus.INERROR)
    try:
        cur.execute("SELECT %s", (1,))
        true("statements refused until rollback", False)
    except psycopg.errors.InFailedSqlTransaction:
        true("statements refused until rollback", True)
    conn.rollback()
    eq("usable after rollback", cur.execute("SELECT %s", (7,)).fetchone(), (7,))
    conn.rollback()


def cursors(conn):
    checks.begin("psycopg/cursors")
    cur = conn.cursor()
    cur.execute("SELECT id FROM prices ORDER BY id")
    eq("rowcount", cur.rowcount, 3)
    eq("fetchmany", cur.fetchmany(2), [(1,), (2,)])
    cur.scroll(0, mode="absolute")
    eq("scroll", cur.fetchone(), (1,))
    eq("stream (single-row mode)",
       list(cur.stream("SELECT item, n, total FROM order_totals WHERE n > %s ORDER BY item", (0,))),
       [("apple", 2, D("6.50")), ("leek", 1, D("1.20"))])
    cur.close()
    true("cursor closed", cur.closed)
    conn.rollback()


def introspection(conn):
    checks.begin("psycopg/introspection")
    info = TypeInfo.fetch(conn, "numeric")
    true("TypeInfo numeric", info is not None and (info.oid, info.array_oid) == (1700, 1231), repr(info))
    info = TypeInfo.fetch(conn, "interval")
    true("TypeInfo interval", info is not None and (info.oid, info.array_oid) == (1186, 1187), repr(info))
    conn.rollback()
    cur = conn.cursor()
    cur.execute("SELECT column_name, data_type FROM information_schema.columns "
                "WHERE table_schema = %s AND table_name = %s ORDER BY ordinal_position", ("public", "order_totals"))
    eq("query result columns", cur.fetchall(), [("item", "text"), ("n", "bigint"), ("total", "numeric")])
    cur.execute("SELECT column_name, data_type FROM information_schema.columns "
                "WHERE table_name = %s ORDER BY ordinal_position", ("orders",))
    eq("stream columns", cur.fetchall(), [("id", "integer"), ("item", "text"), ("amount", "numeric"),
                                          ("ts", "timestamp without time zone")])
    cur.execute("SELECT c.relname FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n "
                "ON n.oid = c.relnamespace WHERE n.nspname = %s AND c.relname IN (%s, %s, %s) ORDER BY 1",
                ("public", "prices", "orders", "order_totals"))
    eq("pg_class", cur.fetchall(), [("order_totals",), ("orders",), ("prices",)])
    eq("current_database()", cur.execute("SELECT current_database(), current_schema()").fetchone(),
       ("sluice", "public"))
    conn.rollback()


def exit_without_close():
    """psycopg 3's binary int parameter as the last statement, then the process ends without close()."""
    checks.begin("psycopg/exit without close")
    conn = connect()
    LEFT_OPEN.append(conn)  # not closed, not collected: the process exit drops it
    eq("parameterized query", conn.execute("SELECT name FROM prices WHERE id = %s", ("1",)).fetchone(), ("apple",))
    eq("binary parameter", conn.execute("SELECT name FROM prices WHERE id = %b", (3,)).fetchone(), ("pear",))


def main():
    if sys.argv[1:] == ["exit-without-close"]:
        run("psycopg/exit without close", exit_without_close)
        checks.done(hard=True)
    conn = connect()
    for fn in (values, parameters, prepared, transactions, cursors, introspection):
        if not run(f"psycopg/{fn.__name__}", lambda: fn(conn)):
            try:
                conn.rollback()
            except psycopg.Error:
                conn = connect()
    checks.begin("psycopg/disconnect")
    with connect() as c2:
        eq("context manager query", c2.execute("SELECT %s::int", ("5",)).fetchone(), (5,))
    true("context manager closes", c2.closed)
    conn.close()
    true("closed", conn.closed)
    checks.done()


main()
