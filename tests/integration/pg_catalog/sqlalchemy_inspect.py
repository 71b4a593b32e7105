"""SQLAlchemy 1.4 over psycopg2 against sluice: create_engine, connect, and
the inspector's catalog queries. Prints one line per check; exits 1 on the
first wrong answer. argv: port."""
import sys

import sqlalchemy as sa

port = sys.argv[1]
engine = sa.create_engine(f"postgresql+psycopg2://sluice@127.0.0.1:{port}/sluice")
failed = 0


def check(what, got, want):
    global failed
    ok = got == want
    failed |= not ok
    print(("ok   " if ok else "FAIL ") + what + ("" if ok else f": got {got!r}, want {want!r}"))


with engine.connect() as conn:
    check("connect", conn.execute(sa.text("SELECT 1")).scalar(), 1)
    check("server version", engine.dialect.server_version_info[:1], (15,))
insp = sa.inspect(engine)
check("get_table_names", sorted(insp.get_table_names()), ["cat_t", "completion_target"])
cols = insp.get_columns("cat_t")
check("get_columns names", [c["name"] for c in cols], ["id", "name", "price", "at", "ok"])
check("get_columns types", [type(c["type"]).__name__ for c in cols],
      ["INTEGER", "TEXT", "NUMERIC", "TIMESTAMP", "BOOLEAN"])
check("get_columns numeric(10,2)", (cols[2]["type"].precision, cols[2]["type"].scale), (10, 2))
check("get_columns nullable", [c["nullable"] for c in cols], [True] * 5)
check("get_pk_constraint", insp.get_pk_constraint("cat_t")["constrained_columns"], [])
check("get_foreign_keys", insp.get_foreign_keys("cat_t"), [])
check("get_indexes", insp.get_indexes("cat_t"), [])
check("has_table", (insp.has_table("cat_t"), insp.has_table("no_such_table")), (True, False))
check("get_view_names (streams, query tables)", sorted(insp.get_view_names()), ["cat_q", "cat_s"])
check("get_schema_names", sorted(insp.get_schema_names()), ["information_schema", "public"])
check("get_view_definition (a stream)", insp.get_view_definition("cat_s").startswith("CREATE STREAM cat_s"), True)
check("stream columns", [c["name"] for c in insp.get_columns("cat_s")], ["id", "v"])
sys.exit(1 if failed else 0)
