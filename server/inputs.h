/* Producers for the INPUT leaves of a physical plan that are not streams:
 * static tables (SQLite or csv/json files, re-read at every execution so a
 * stream-static join sees a table's changes from the next micro-batch on),
 * memory sink tables and constant rows. Used by ad-hoc SELECT and by the
 * micro-batch runner alike. */
#ifndef SL_INPUTS_H
#define SL_INPUTS_H

#include "exec/stage.h"
#include "planner/physical.h"
#include "server/server.h"

struct tstore_conn;
/* Fills `out` (allocated in a) with the exec_input_t of each non-stream
 * input of `p`; returns the count. Stream inputs are left to the caller.
 * Static tables are read through `reader` (a session's open transaction,
 * which sees its own changes), or their last committed rows when NULL; with
 * `nparts` > 1 (a statement run once: the arena lives until it ends) a
 * catalog table's committed rows are read by up to nparts tasks in
 * parallel, from one snapshot held until `a` is reset. */
int inputs_static(srv_t *srv, struct tstore_conn *reader, const plan_physical_t *p, int nparts,
                  sl_arena_t *a, exec_input_t **out);
/* The producer of constant rows: `arg` is the VALUES plan node
 * (plan_input_t.values). */
int inputs_produce_values(void *arg, sl_arena_t *a, exec_emit_fn emit, void *emit_arg,
                          sl_error_t *err);

#endif
