/* Internal to state/'s stores: the built-in providers and a helper for
 * their metrics. */
#ifndef SL_STORE_INT_H
#define SL_STORE_INT_H

#include "state/store.h"

extern const store_ops_t store_memory_ops;  /* store_mem.c */
extern const store_ops_t store_rocksdb_ops; /* store_rocksdb.c */

/* Appends a custom metric (`name` must be a static string); store_metrics()
 * sorts them by name afterwards. Ignored past STORE_MAX_CUSTOM_METRICS. */
void store_metric_add(store_metrics_t *m, const char *name, int64_t value);

#endif
