/* Session settings (PostgreSQL's GUCs): the table of settings sluice knows
 * (server/guc.def), and one session's values with PostgreSQL's rules —
 * SET and SET LOCAL, RESET, values that a rolled-back transaction or
 * savepoint reverts, placeholders (names with a dot, such as myapp.flag),
 * and the changes that ParameterStatus must report.
 *
 * A guc_t belongs to one session and is used by whichever thread runs that
 * session's statement, or by the loop thread between statements: never by
 * two at once (the session runs one submission at a time). */
#ifndef SL_GUC_H
#define SL_GUC_H

#include <stdint.h>

#include "common/sl_error.h"

typedef enum {
#define GUC(id, name, kind, def, flags, values, desc) GUC_##id,
#include "server/guc.def"
#undef GUC
    GUC__COUNT
} guc_id_t;

typedef struct guc guc_t;

/* A session's settings, all at their defaults; `user` is the
 * session_authorization. */
guc_t *guc_new(const char *user);
void guc_free(guc_t *g);

/* The setting called `name` (case-insensitive), or -1. */
int guc_find(const char *name);
/* PostgreSQL's spelling of a setting's name, and its description. */
const char *guc_name(guc_id_t id);
const char *guc_description(guc_id_t id);

/* The current value of a setting or placeholder; NULL when `name` is
 * neither a known setting nor a placeholder that was set. */
const char *guc_get(const guc_t *g, const char *name);
const char *guc_value(const guc_t *g, guc_id_t id);
/* A BOOL setting's value as 0/1; an INT or MS setting's as a number (MS in
 * milliseconds). */
int64_t guc_int(const guc_t *g, guc_id_t id);

/* SET name = value (value NULL: back to the default, as SET ... TO DEFAULT
 * and RESET). The value is checked and stored in PostgreSQL's spelling.
 * `local`: until the end of the transaction block. Errors: 42704 unknown
 * name, 55P02 a fixed setting, 22023 an invalid value. Returns 1 (and does
 * nothing) for SET LOCAL or a transaction property outside a block, where
 * PostgreSQL warns; else 0. */
int guc_set(guc_t *g, const char *name, const char *value, int local, int in_block,
            sl_error_t *err);
/* RESET ALL: every changeable setting back to its default, placeholders dropped. */
void guc_reset_all(guc_t *g);

/* Transaction events, called by the session's transaction state. A block's
 * settings are kept at BEGIN and at each SAVEPOINT: ROLLBACK brings back
 * those of BEGIN, ROLLBACK TO those of the savepoint (level 0 = the first
 * savepoint of the block, and it stays); COMMIT keeps what SET (not SET
 * LOCAL) changed. */
void guc_txn_begin(guc_t *g);
void guc_txn_savepoint(guc_t *g);
void guc_txn_rollback_to(guc_t *g, int level);
void guc_txn_release(guc_t *g, int level);
void guc_txn_end(guc_t *g, int commit);
/* Sets a TXN setting (transaction_isolation, ...) for the current block. */
void guc_txn_property(guc_t *g, guc_id_t id, const char *value);

/* Calls `cb` for every REPORT setting whose value differs from the one last
 * reported (all of them on the first call). */
void guc_report_changes(guc_t *g, void (*cb)(void *arg, const char *name, const char *value),
                        void *arg);

#endif
