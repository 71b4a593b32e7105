/* Option and schema validation of streams and sinks, the same checks
 * source_create() and sink_create() make, for CREATE STREAM and CREATE
 * QUERY to run before anything starts (so a bad rowsPerSecond is refused
 * when the stream is created, not when a query first reads it).
 *
 * Errors: 22023 naming the option, the value and the accepted values or
 * range; 42804 for a column of the wrong type (a rate stream's `value`
 * that is not BIGINT, a `_corrupt_record` that is not STRING); 0A000 for
 * an output mode a sink does not support; 42704 for an unknown connector. */
#ifndef SL_CONN_VALIDATE_H
#define SL_CONN_VALIDATE_H

#include "common/sl_error.h"
#include "connectors/sink.h"
#include "connectors/connector.h"

/* Checks a stream (rel->connector is its source descriptor): the options
 * the registry knows (conn_check_options) and their values, and the
 * columns the connector needs. */
int source_validate(const conn_stream_t *rel, sl_error_t *err);

/* Checks a sink's options, output mode and result schema. */
int sink_validate(const conn_desc_t *desc, output_mode_t mode, const sink_schema_t *schema,
                  const conn_kv_t *opts, int nopts, sl_error_t *err);

#endif
