/* The pgoutput logical replication messages (protocol version 1) that the
 * postgres_cdc source reads: the CopyData frames of a replication stream
 * (XLogData 'w', primary keepalive 'k') and the messages pgoutput puts in
 * XLogData (Begin, Commit, Relation, Insert, Update, Delete, Truncate;
 * Origin, Type and Message are recognised and skipped). A pure parser of
 * bytes: no connection, no allocation but from the arena it is given.
 * Used by connectors/source_pgcdc*.c and the unit tests only. */
#ifndef SL_PGOUTPUT_H
#define SL_PGOUTPUT_H

#include <stddef.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/sl_error.h"

/* Microseconds between the Unix epoch and PostgreSQL's (2000-01-01). */
#define PGO_EPOCH_US 946684800000000LL

/* One value of a tuple: 'n' NULL, 'u' unchanged TOASTed value (not sent),
 * 't' text of `len` bytes at `text` (not NUL-terminated). */
typedef struct pgo_value {
    char kind;
    uint32_t len;
    const char *text;
} pgo_value_t;

typedef struct pgo_tuple {
    int ncols;
    pgo_value_t *values;
} pgo_tuple_t;

typedef struct pgo_column {
    const char *name;
    uint32_t type_oid;
    int32_t typmod;
    int key; /* part of the replica identity */
} pgo_column_t;

typedef enum {
    PGO_BEGIN = 'B',
    PGO_COMMIT = 'C',
    PGO_RELATION = 'R',
    PGO_INSERT = 'I',
    PGO_UPDATE = 'U',
    PGO_DELETE = 'D',
    PGO_TRUNCATE = 'T',
    PGO_SKIPPED = 0 /* Origin, Type, Message */
} pgo_kind_t;

typedef struct pgo_msg {
    pgo_kind_t kind;
    uint64_t final_lsn;            /* Begin */
    uint64_t commit_lsn;           /* Commit */
    uint64_t end_lsn;              /* Commit: the end of the commit record */
    int64_t commit_us;             /* Begin, Commit: Unix microseconds */
    uint32_t xid;                  /* Begin */
    uint32_t relid;                /* Relation, Insert, Update, Delete */
    const char *nspname, *relname; /* Relation */
    char replident;                /* Relation: 'd', 'n', 'f' or 'i' */
    int ncols;                     /* Relation */
    pgo_column_t *cols;            /* Relation */
    char old_kind;                 /* Update, Delete: 'K' key, 'O' old row, 0 none */
    pgo_tuple_t old_tuple;         /* Update (when old_kind), Delete */
    pgo_tuple_t new_tuple;         /* Insert, Update */
    int nrelids;                   /* Truncate */
    uint32_t *relids;              /* Truncate */
} pgo_msg_t;

/* Parses one pgoutput message; 08P01 naming what is malformed. Strings and
 * arrays point into `a` or into `p` (tuple texts), which must outlive out. */
int pgo_parse(const uint8_t *p, size_t n, sl_arena_t *a, pgo_msg_t *out, sl_error_t *err);

/* A CopyData frame of the replication stream. */
typedef struct pgo_frame {
    char kind;           /* 'w' XLogData, 'k' keepalive */
    uint64_t wal_start;  /* 'w' */
    uint64_t wal_end;    /* both: the server's position */
    int reply_requested; /* 'k' */
    const uint8_t *data; /* 'w': the pgoutput message */
    size_t len;
} pgo_frame_t;

int pgo_parse_frame(const uint8_t *p, size_t n, pgo_frame_t *out, sl_error_t *err);

/* The 34-byte Standby Status Update ('r') at `now_us` (Unix microseconds):
 * `written` as written, `flushed` as flushed and applied (0: none, the
 * slot's confirmed position is left as it is). */
void pgo_status_update(uint8_t out[34], uint64_t written, uint64_t flushed, int64_t now_us,
                       int reply);

/* "X/Y" as PostgreSQL prints an LSN, into out (at least 20 bytes). */
void pgo_lsn_format(uint64_t lsn, char *out, size_t n);
/* Parses "X/Y"; -1 when it is not one. */
int pgo_lsn_parse(const char *s, uint64_t *out);

#endif
