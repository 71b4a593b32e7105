/* Internals shared by format*.c: the decoder's layout and the per-kind
 * decode and encode functions that format.c dispatches to. */
#ifndef SL_FORMAT_INT_H
#define SL_FORMAT_INT_H

#include "connectors/format.h"

struct format_decoder {
    format_options_t opts;
    int ncols; /* the stream's columns */
    const char **names;
    exec_type_t *types;
    int corrupt_col;      /* index of _corrupt_record, or -1 */
    int ndata;            /* columns read from the record (all but _corrupt_record) */
    int *data_cols;       /* their indexes, in order */
    exec_type_t row_type; /* JSON: STRUCT of the data columns */
};

int format_json_decode(const format_decoder_t *d, exec_builder_t *bld, const char *rec, size_t n,
                       sl_arena_t *scratch, sl_error_t *why);
int format_csv_decode(const format_decoder_t *d, exec_builder_t *bld, const char *rec, size_t n,
                      sl_arena_t *scratch, sl_error_t *why);
size_t format_csv_split(char sep, const char *text, size_t n, size_t *next, int *lines);

void format_json_encode(const format_encoder_t *e, const exec_batch_t *b, uint32_t row,
                        sl_buf_t *out);
void format_csv_encode(const format_encoder_t *e, const exec_batch_t *b, uint32_t row,
                       sl_buf_t *out);
/* Appends one CSV field, quoted when it must be. */
void format_csv_field(char sep, const char *p, size_t n, sl_buf_t *out);

#endif
