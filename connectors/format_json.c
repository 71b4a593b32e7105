/* JSON lines: one object per record into a row (through model/json.h's
 * typed parser over a STRUCT of the data columns), and a row back into
 * one object the way Spark's JSON writer prints it. */
#include "connectors/format_int.h"

#include "common/json_write.h"
#include "model/json.h"

static int not_an_object(sl_error_t *why)
{
    sl_error_set(why, SL_ERR_INVALID_TEXT_REPRESENTATION, "invalid input syntax for type json");
    sl_error_detail(why, "The record is not a JSON object.");
    return 1;
}

int format_json_decode(const format_decoder_t *d, exec_builder_t *bld, const char *rec, size_t n,
                       sl_arena_t *scratch, sl_error_t *why)
{
    size_t i = 0;
    while (i < n && (rec[i] == ' ' || rec[i] == '\t' || rec[i] == '\r' || rec[i] == '\n')) i++;
    if (i == n || rec[i] != '{') return not_an_object(why);
    exec_value_t v;
    if (exec_json_parse_value(d->row_type, rec + i, n - i, scratch, &v, why) < 0) return 1;
    uint32_t row = exec_builder_add_row(bld);
    for (int k = 0; k < d->ndata; k++)
        exec_builder_set_value(bld, d->data_cols[k], row, &v.u.fields[k]);
    if (d->corrupt_col >= 0) exec_builder_set_null(bld, d->corrupt_col, row);
    return 0;
}

void format_json_encode(const format_encoder_t *e, const exec_batch_t *b, uint32_t row,
                        sl_buf_t *out)
{
    sl_json_t j;
    sl_json_init(&j, out, false);
    sl_json_object_begin(&j);
    for (int c = 0; c < e->ncols; c++) {
        if (exec_vec_is_null(&b->cols[c], row)) continue;
        sl_json_key(&j, e->names[c]);
        exec_json_write_cell(&j, &b->cols[c], row, true);
    }
    sl_json_object_end(&j);
}
