/* exec sessions: the merge rule of session windows (Spark's
 * MergingSessionsIterator), apart from any operator so that it can be
 * tested on its own.
 *
 * An ENTRY is one candidate session [start, end) of one group (the grouping
 * key without the session): a row's initial session [ts, ts + gap), a
 * partial aggregate's, or a session kept in state. Entries of one group
 * whose ranges overlap or touch (the next start <= the current end) are one
 * session: [smallest start, largest end). Entries are taken in the order
 * (group, start, end, entry number), which is also the order in which the
 * caller should merge their aggregate buffers, so first()/last() follow
 * event time and ties keep the caller's order (state before new rows).
 *
 * Everything is allocated in the arena given; nothing is kept. */
#ifndef EXEC_SESSION_H
#define EXEC_SESSION_H

#include <stdint.h>

#include "common/arena.h"

typedef struct exec_sessions {
    uint32_t n;           /* merged sessions */
    uint32_t *order;      /* the entries in merge order (all of them) */
    uint32_t *sid;        /* per entry (indexed by entry number): its session */
    uint32_t *first;      /* per session: its first entry in merge order */
    uint32_t *count;      /* per session: how many entries it merged */
    int64_t *start, *end; /* per session: its bounds (µs) */
} exec_sessions_t;

/* Merges entries 0..n-1 (group ids, starts and ends; start < end) into
 * sessions, numbered in merge order (group by group, earliest first). */
void exec_sessions_merge(sl_arena_t *a, uint32_t n, const uint32_t *group, const int64_t *start,
                         const int64_t *end, exec_sessions_t *out);

#endif
