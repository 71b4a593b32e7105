/* Record formats: option parsing, decoder construction, and the dispatch
 * from the generic decode/split/encode calls to JSON and CSV. */
#include "connectors/format_int.h"

#include <string.h>
#include <strings.h>

#include "connectors/conn_int.h"

const char *format_kind_name(format_kind_t k)
{
    return k == FORMAT_JSON ? "json" : k == FORMAT_CSV ? "csv" : "raw";
}

/* sep: one byte, or the two-character escape \t. */
static int parse_sep(const char *v, char *out, sl_error_t *err)
{
    if (strlen(v) == 1) *out = v[0];
    else if (!strcmp(v, "\\t")) *out = '\t';
    else return conn_bad_option(err, "sep", v, "It must be one character (or \\t for a tab).");
    if (*out == '"' || *out == '\n' || *out == '\r')
        return conn_bad_option(err, "sep", v, "A quote or a line end cannot separate fields.");
    return 0;
}

int format_options_parse(const conn_desc_t *d, const conn_kv_t *opts, int nopts, const char *format,
                         format_options_t *out, sl_error_t *err)
{
    static const char *const kinds[] = {"json", "csv", "raw", NULL};
    static const char *const modes[] = {"PERMISSIVE", "DROPMALFORMED", "FAILFAST", NULL};
    memset(out, 0, sizeof *out);
    out->sep = ',';
    int kind = 0, mode = 0;
    if (format) {
        if (!strcasecmp(format, "csv")) kind = 1;
        else if (strcasecmp(format, "json"))
            return conn_bad_option(err, "format", format, "Accepted values: json, csv.");
    } else if (conn_opt_choice(d, opts, nopts, "format", kinds, &kind, err) < 0) {
        return -1;
    }
    if (conn_opt_choice(d, opts, nopts, "mode", modes, &mode, err) < 0) return -1;
    if (conn_opt_bool(d, opts, nopts, "header", &out->header, err) < 0) return -1;
    const char *sep = conn_option(d, opts, nopts, "sep");
    if (sep && parse_sep(sep, &out->sep, err) < 0) return -1;
    const char *bad = conn_option(d, opts, nopts, "badRecordsPath");
    if (bad && !*bad) return conn_bad_option(err, "badRecordsPath", bad, "It must be a directory.");
    int64_t max_files = 0;
    if (conn_opt_bytes(d, opts, nopts, "badRecordsMaxBytes", &out->bad_records_max_bytes, err) <
            0 ||
        conn_opt_int64(d, opts, nopts, "badRecordsMaxFiles", 0, FORMAT_BAD_RECORDS_FILES_MAX,
                       &max_files, err) < 0)
        return -1;
    out->bad_records_max_files = (int)max_files;
    out->kind = (format_kind_t)(kind + 1);
    out->mode = (format_mode_t)mode;
    out->bad_records_dir = bad;
    return 0;
}

/* Finds _corrupt_record and lays out the data columns. */
static int decoder_columns(format_decoder_t *d, sl_arena_t *a, sl_error_t *err)
{
    d->corrupt_col = -1;
    d->data_cols = SL_NEW_ARRAY(a, int, d->ncols ? d->ncols : 1);
    for (int i = 0; i < d->ncols; i++) {
        if (strcasecmp(d->names[i], FORMAT_CORRUPT_COLUMN)) {
            d->data_cols[d->ndata++] = i;
            continue;
        }
        if (d->types[i].id != EXEC_TYPE_STRING)
            return sl_error_set(err, SL_ERR_DATATYPE_MISMATCH,
                                "column \"%s\" must be STRING to hold malformed records",
                                d->names[i]);
        d->corrupt_col = i;
    }
    const char **names = SL_NEW_ARRAY(a, const char *, d->ndata ? d->ndata : 1);
    exec_type_t *types = SL_NEW_ARRAY(a, exec_type_t, d->ndata ? d->ndata : 1);
    for (int k = 0; k < d->ndata; k++) {
        names[k] = d->names[d->data_cols[k]];
        types[k] = d->types[d->data_cols[k]];
    }
    d->row_type = exec_type_struct(a, d->ndata, names, types);
    return 0;
}

format_decoder_t *format_decoder_new(const format_options_t *o, int ncols, const char *const *names,
                                     const exec_type_t *types, sl_arena_t *a, sl_error_t *err)
{
    if (o->kind != FORMAT_JSON && o->kind != FORMAT_CSV) {
        sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE, "format %s has no record decoder",
                     format_kind_name(o->kind));
        return NULL;
    }
    format_decoder_t *d = SL_NEW(a, format_decoder_t);
    d->opts = *o;
    if (o->bad_records_dir) d->opts.bad_records_dir = sl_strdup(a, o->bad_records_dir);
    d->ncols = ncols;
    d->names = SL_NEW_ARRAY(a, const char *, ncols ? ncols : 1);
    d->types = SL_NEW_ARRAY(a, exec_type_t, ncols ? ncols : 1);
    for (int i = 0; i < ncols; i++) {
        d->names[i] = sl_strdup(a, names[i]);
        d->types[i] = conn_type_copy(a, types[i]);
    }
    return decoder_columns(d, a, err) < 0 ? NULL : d;
}

int format_decode(const format_decoder_t *d, exec_builder_t *bld, const char *rec, size_t n,
                  sl_arena_t *scratch, sl_error_t *why)
{
    if (d->opts.kind == FORMAT_CSV) return format_csv_decode(d, bld, rec, n, scratch, why);
    return format_json_decode(d, bld, rec, n, scratch, why);
}

size_t format_record_split(format_kind_t kind, char sep, const char *text, size_t n, size_t *next,
                           int *lines)
{
    if (kind == FORMAT_CSV) return format_csv_split(sep, text, n, next, lines);
    const char *nl = memchr(text, '\n', n);
    size_t len = nl ? (size_t)(nl - text) : n;
    *next = nl ? len + 1 : n;
    *lines = nl ? 1 : 0;
    if (len && text[len - 1] == '\r') len--;
    return len;
}

/* ---- encoding ------------------------------------------------------------- */

void format_encoder_init(format_encoder_t *e, format_kind_t kind, char sep, int ncols,
                         const char *const *names)
{
    e->kind = kind;
    e->sep = sep ? sep : ',';
    e->ncols = ncols;
    e->names = names;
}

void format_encode_header(const format_encoder_t *e, sl_buf_t *out)
{
    if (e->kind != FORMAT_CSV) return;
    for (int c = 0; c < e->ncols; c++) {
        if (c) sl_buf_putc(out, e->sep);
        format_csv_field(e->sep, e->names[c], strlen(e->names[c]), out);
    }
    sl_buf_putc(out, '\n');
}

void format_encode_value(const format_encoder_t *e, const exec_batch_t *b, uint32_t row,
                         sl_buf_t *out)
{
    if (e->kind == FORMAT_CSV) format_csv_encode(e, b, row, out);
    else format_json_encode(e, b, row, out);
}

void format_encode_row(const format_encoder_t *e, const exec_batch_t *b, uint32_t row,
                       sl_buf_t *out)
{
    format_encode_value(e, b, row, out);
    sl_buf_putc(out, '\n');
}
