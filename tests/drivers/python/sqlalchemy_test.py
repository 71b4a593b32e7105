"""SQLAlchemy 1.4 (Debian's python3-sqlalchemy) with its psycopg2 dialect,
against the server of the PG* environment, the way an application uses
it: create_engine() and engine.connect() (the dialect's first-connect
queries: version(), current_schema(), the isolation level and
standard_conforming_strings), text() queries with bound parameters,
engine.begin() and begin_nested() transactions, the inspector's tables
and columns, engine.dispose(). Fixtures: tests/integration/drivers.sh's."""

import datetime
import decimal
import os

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql as pgtypes

import checks
from checks import eq, true, run

D = decimal.Decimal
TS1 = datetime.datetime(2024, 5, 1, 12, 0, 10, 500000)


def make_engine():
    url = sa.engine.URL.create("postgresql+psycopg2", username=os.environ["PGUSER"],
                               host=os.environ["PGHOST"], port=int(os.environ["PGPORT"]),
                               database=os.environ["PGDATABASE"])
    return sa.create_engine(url, future=True)


def connect_checks(engine):
    checks.begin("sqlalchemy/connect")
    with engine.connect() as conn:
        eq("select 1", conn.execute(sa.text("SELECT 1")).scalar(), 1)
        info = engine.dialect.server_version_info
        true("server version parsed", isinstance(info, tuple) and info >= (9, 6), repr(info))
        eq("default schema", engine.dialect.default_schema_name, "public")
        eq("isolation level", conn.get_isolation_level(), "READ COMMITTED")


def values(engine):
    checks.begin("sqlalchemy/values")
    with engine.connect() as conn:
        r = conn.execute(sa.text("SELECT id, name, price, ts, dur, note, raw FROM prices WHERE id = :id"),
                         {"id": 1}).one()
        eq("int", r.id, 1)
        eq("text", r.name, "apple")
        eq("decimal", r.price, D("12.34"))
        eq("timestamp", r.ts, TS1)
        eq("interval", r.dur, datetime.timedelta(days=1, seconds=7384))
        eq("null", r.note, None)
        true("bytea", r.raw is not None and bytes(r.raw) == b"ab", repr(r.raw))
        rows = conn.execute(sa.text("SELECT name FROM prices WHERE price IS NULL OR price < :p ORDER BY id"),
                            {"p": D("0")}).scalars().all()
        eq("decimal parameter", rows, ["leek", "pear"])
        rows = conn.execute(sa.text("SELECT id FROM prices WHERE ts > :t AND name IN :names ORDER BY id")
                            .bindparams(sa.bindparam("names", expanding=True)),
                            {"t": datetime.datetime(2000, 1, 1), "names": ["apple", "leek", "pear"]}).scalars().all()
        eq("timestamp and expanding parameters", rows, [1])
        rows = conn.execute(sa.text("SELECT item, n, total FROM order_totals ORDER BY item")).all()
        eq("query result table", [tuple(r) for r in rows], [("apple", 2, D("6.50")), ("leek", 1, D("1.20"))])


def transactions(engine):
    checks.begin("sqlalchemy/transactions")
    with engine.begin() as conn:
        conn.execute(sa.text("DELETE FROM tx_sqlalchemy"))
        conn.execute(sa.text("INSERT INTO tx_sqlalchemy (id, amount, note, ts) VALUES (:i, :a, :n, :t)"),
                     [{"i": 1, "a": D("7.25"), "n": None, "t": TS1}, {"i": 2, "a": D("0.01"), "n": "two", "t": None}])
    with engine.connect() as conn:
        rows = conn.execute(sa.text("SELECT id, amount, note, ts FROM tx_sqlalchemy ORDER BY id")).all()
        eq("engine.begin() commits", [tuple(r) for r in rows], [(1, D("7.25"), None, TS1), (2, D("0.01"), "two", None)])
        conn.rollback()
        trans = conn.begin()
        conn.execute(sa.text("INSERT INTO tx_sqlalchemy (id, note) VALUES (:i, :n)"), {"i": 3, "n": "rolled back"})
        trans.rollback()
        eq("rollback undoes insert", conn.execute(sa.text("SELECT count(*) FROM tx_sqlalchemy")).scalar(), 2)
        conn.rollback()
        with conn.begin():
            conn.execute(sa.text("INSERT INTO tx_sqlalchemy (id, note) VALUES (:i, :n)"), {"i": 4, "n": "outer"})
            nested = conn.begin_nested()
            conn.execute(sa.text("INSERT INTO tx_sqlalchemy (id, note) VALUES (:i, :n)"), {"i": 5, "n": "inner"})
            nested.rollback()
        ids = conn.execute(sa.text("SELECT id FROM tx_sqlalchemy ORDER BY id")).scalars().all()
        eq("begin_nested() rollback", ids, [1, 2, 4])
        conn.rollback()


def introspection(engine):
    checks.begin("sqlalchemy/introspection")
    insp = sa.inspect(engine)
    tables = insp.get_table_names()
    true("static table listed", "prices" in tables, repr(tables))
    every = set(tables) | set(insp.get_view_names()) | set(insp.get_foreign_table_names())
    true("stream and query result listed", {"orders", "order_totals"} <= every, repr(sorted(every)))
    true("schema public", "public" in insp.get_schema_names(), repr(insp.get_schema_names()))
    cols = insp.get_columns("prices")
    eq("prices column names", [c["name"] for c in cols],
       ["id", "name", "price", "ts", "dur", "note", "raw", "flag", "big", "ratio", "day"])
    kinds = [type(c["type"]) for c in cols]
    eq("prices column types", kinds,
       [sa.INTEGER, sa.TEXT, sa.NUMERIC, pgtypes.TIMESTAMP, pgtypes.INTERVAL, sa.TEXT, pgtypes.BYTEA,
        sa.BOOLEAN, sa.BIGINT, pgtypes.DOUBLE_PRECISION, sa.DATE])
    eq("decimal precision and scale", (cols[2]["type"].precision, cols[2]["type"].scale), (10, 2))
    eq("timestamp without time zone", cols[3]["type"].timezone, False)
    eq("nullable", [c["nullable"] for c in cols], [True] * 11)
    cols = insp.get_columns("orders")
    eq("stream columns", [(c["name"], type(c["type"])) for c in cols],
       [("id", sa.INTEGER), ("item", sa.TEXT), ("amount", sa.NUMERIC), ("ts", pgtypes.TIMESTAMP)])
    cols = insp.get_columns("order_totals")
    eq("query result columns", [(c["name"], type(c["type"])) for c in cols],
       [("item", sa.TEXT), ("n", sa.BIGINT), ("total", sa.NUMERIC)])
    eq("no primary key", insp.get_pk_constraint("prices")["constrained_columns"], [])
    eq("no indexes", insp.get_indexes("prices"), [])
    true("has_table", insp.has_table("prices") and not insp.has_table("no_such_table"))
    meta = sa.MetaData()
    t = sa.Table("prices", meta, autoload_with=engine)
    with engine.connect() as conn:
        got = conn.execute(sa.select(t.c.name, t.c.price).where(t.c.id == 3)).one()
        eq("reflected table select", tuple(got), ("pear", D("-0.05")))


def main():
    engine = make_engine()
    for fn in (connect_checks, values, transactions, introspection):
        run(f"sqlalchemy/{fn.__name__}", lambda: fn(engine))
    checks.begin("sqlalchemy/disconnect")
    eq("pool checked in", engine.pool.checkedout(), 0)
    engine.dispose()
    eq("dispose closes the pool", engine.pool.checkedin(), 0)
    checks.done()


main()
