"""psycopg 3's TypeInfo.fetch and psycopg2's connect-time queries against
sluice. TypeInfo.fetch reads results in binary; where the server does not
send binary results yet, the same query (TypeInfo's own) is checked in
text. Exits 1 on a wrong answer. argv: port."""
import sys

import psycopg
import psycopg2
from psycopg.types import TypeInfo

port = sys.argv[1]
dsn = f"host=127.0.0.1 port={port} user=sluice dbname=sluice"
failed = 0


def check(what, got, want):
    global failed
    ok = got == want
    failed |= not ok
    print(("ok   " if ok else "FAIL ") + what + ("" if ok else f": got {got!r}, want {want!r}"))


WANT = {"numeric": (1700, 1231, "numeric"), "int4": (23, 1007, "integer"), "text": (25, 1009, "text"),
        "timestamptz": (1184, 1185, "timestamp with time zone"), "uuid": (2950, 2951, "uuid"),
        "jsonb": (3802, 3807, "jsonb")}

with psycopg.connect(dsn) as conn:
    try:
        conn.cursor(binary=True).execute("SELECT 1").fetchone()
        binary = True
    except psycopg.errors.FeatureNotSupported:
        binary = False
        conn.rollback()
    for name, want in WANT.items():
        if binary:
            t = TypeInfo.fetch(conn, name)
            got = t and (t.oid, t.array_oid, t.regtype)
        else:
            rows = conn.execute(TypeInfo._get_info_query(conn), {"name": name}).fetchall()
            got = rows and (rows[0][1], rows[0][2], rows[0][3])
        check(f"TypeInfo {name}" + ("" if binary else " (text)"), got, want)
    if binary:
        check("TypeInfo unknown type", TypeInfo.fetch(conn, "no_such_type"), None)
    else:
        try:
            conn.execute(TypeInfo._get_info_query(conn), {"name": "no_such_type"})
            check("unknown type is 42704", "no error", "UndefinedObject")
        except psycopg.errors.UndefinedObject:
            check("unknown type is 42704", True, True)
            conn.rollback()

c2 = psycopg2.connect(dsn)
check("psycopg2 server_version", c2.server_version, 150000)
cur = c2.cursor()
cur.execute("SELECT current_database(), current_user, current_schema()")
check("psycopg2 session functions", cur.fetchone(), ("sluice", "sluice", "public"))
cur.execute("SELECT typname FROM pg_type WHERE oid = %s", (1700,))
check("psycopg2 pg_type by oid", cur.fetchone(), ("numeric",))
c2.close()
sys.exit(1 if failed else 0)
