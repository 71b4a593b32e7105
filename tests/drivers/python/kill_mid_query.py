"""A psycopg 3 connection that sends `SELECT pg_sleep(2)` without waiting
for it, prints "sent" once libpq flushed it to the socket, then waits to be
killed (tests/drivers/kill_mid_query.sh sends SIGKILL). The statement ends
after the client is gone, while the suite goes on; its end checks the
daemon stopped cleanly."""

import sys

import psycopg

conn = psycopg.connect("", autocommit=True)
pg = conn.pgconn
pg.send_query(b"SELECT pg_sleep(2)")
while pg.flush() != 0:
    pass
print("sent", flush=True)
sys.stdin.read()
