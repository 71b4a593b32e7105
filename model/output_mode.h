/* A streaming query's output mode (Spark's OutputMode): how each micro-batch
 * changes the result table. One type for every layer: the parser's OUTPUT
 * MODE clause (0 there means "no clause"), the streaming checks, the stateful
 * operators and the sinks. */
#ifndef SL_OUTPUT_MODE_H
#define SL_OUTPUT_MODE_H

typedef enum {
    OUTPUT_APPEND = 1, /* rows that will never change again, once */
    OUTPUT_UPDATE,     /* rows changed by the batch (upserts by key) */
    OUTPUT_COMPLETE    /* the whole result table, every batch */
} output_mode_t;

/* "append", "update" or "complete" (SHOW QUERIES, EXPLAIN, messages). */
const char *output_mode_name(output_mode_t m);

#endif
