/* The reading loop of record formats: records into batches of up to
 * EXEC_BATCH_ROWS rows, the malformed-record modes (PERMISSIVE,
 * DROPMALFORMED, FAILFAST) and the counters; bad records go to
 * format_bad.c's writer. */
#include "connectors/format_int.h"

#include <stdio.h>
#include <string.h>

/* Rows a reader's first batch has room for (it doubles as it fills), so
 * that a split of a few rows does not allocate a full batch. */
#define READER_FIRST_CAP 256
/* Scratch bytes after which the reader resets its scratch arena: below the
 * arena's first block, so that resets never hand blocks back to malloc (a
 * free/malloc cycle per reset costs more than the decoding on some hosts). */
#define READER_SCRATCH_LIMIT (12u << 10)

/* ---- the reader ----------------------------------------------------------- */

void format_reader_init(format_reader_t *r, const format_decoder_t *dec, sl_arena_t *a,
                        format_emit_fn emit, void *emit_arg)
{
    memset(r, 0, sizeof *r);
    r->dec = dec;
    r->a = a;
    r->scratch = sl_arena_new("format scratch");
    r->emit = emit;
    r->emit_arg = emit_arg;
}

void format_reader_done(format_reader_t *r)
{
    sl_arena_free(r->scratch);
    r->scratch = NULL;
}

int format_reader_flush(format_reader_t *r, sl_error_t *err)
{
    if (!r->building || r->bld.batch->nrows == 0) return 0;
    exec_batch_t *b = exec_builder_finish(&r->bld);
    r->building = false;
    r->rows += b->nrows;
    return r->emit(r->emit_arg, b, err);
}

/* The reason text of a decode failure: message, and detail when present. */
static const char *reason_text(const sl_error_t *why, char *buf, size_t n)
{
    if (why->detail[0]) snprintf(buf, n, "%s: %s", why->message, why->detail);
    else snprintf(buf, n, "%s", why->message);
    return buf;
}

static int failfast(const format_pos_t *pos, const char *reason, sl_error_t *err)
{
    sl_error_set(err, SL_ERR_INVALID_TEXT_REPRESENTATION,
                 "malformed record in %s \"%s\" at %s %lld", pos->kind, pos->name, pos->unit,
                 (long long)pos->at);
    sl_error_detail(err, "%s", reason);
    return sl_error_hint(err, "Fix or remove the record, or set the stream's mode to PERMISSIVE "
                              "or DROPMALFORMED.");
}

static int malformed(format_reader_t *r, const char *rec, size_t n, const format_pos_t *pos,
                     const sl_error_t *why, sl_error_t *err)
{
    char reason[1600];
    reason_text(why, reason, sizeof reason);
    if (r->malformed) atomic_fetch_add(r->malformed, 1);
    if (r->bad && format_bad_records_write(r->bad, pos, rec, n, reason, err) < 0) return -1;
    const format_decoder_t *d = r->dec;
    switch (d->opts.mode) {
    case FORMAT_FAILFAST: return failfast(pos, reason, err);
    case FORMAT_DROPMALFORMED:
        if (r->dropped) atomic_fetch_add(r->dropped, 1);
        return 0;
    case FORMAT_PERMISSIVE: break;
    }
    uint32_t row = exec_builder_add_row(&r->bld);
    for (int c = 0; c < d->ncols; c++) exec_builder_set_null(&r->bld, c, row);
    if (d->corrupt_col >= 0) exec_builder_set_str(&r->bld, d->corrupt_col, row, rec, n);
    return 0;
}

int format_reader_record(format_reader_t *r, const char *rec, size_t n, const format_pos_t *pos,
                         sl_error_t *err)
{
    if (!r->building) {
        exec_builder_init(&r->bld, r->a, r->dec->ncols, r->dec->types, READER_FIRST_CAP);
        r->building = true;
    }
    sl_error_t why;
    if (format_decode(r->dec, &r->bld, rec, n, r->scratch, &why) == 1 &&
        malformed(r, rec, n, pos, &why, err) < 0)
        return -1;
    if (r->bld.batch->nrows >= EXEC_BATCH_ROWS) return format_reader_flush(r, err);
    if (sl_arena_used(r->scratch) > READER_SCRATCH_LIMIT) sl_arena_reset(r->scratch);
    return 0;
}

static bool blank_record(format_kind_t kind, const char *rec, size_t n)
{
    if (kind == FORMAT_CSV) return n == 0;
    for (size_t i = 0; i < n; i++)
        if (rec[i] != ' ' && rec[i] != '\t' && rec[i] != '\r') return false;
    return true;
}

int format_reader_text(format_reader_t *r, const char *text, size_t n, format_pos_t *pos,
                       sl_error_t *err)
{
    const format_options_t *o = &r->dec->opts;
    bool skip_header = o->kind == FORMAT_CSV && o->header;
    int64_t line = 1;
    size_t start = n >= 3 && !memcmp(text, "\xef\xbb\xbf", 3) ? 3 : 0; /* a UTF-8 byte order mark */
    for (size_t off = start; off < n;) {
        size_t next;
        int lines;
        size_t len = format_record_split(o->kind, o->sep, text + off, n - off, &next, &lines);
        const char *rec = text + off;
        pos->at = line;
        off += next;
        line += lines;
        if (blank_record(o->kind, rec, len)) continue;
        if (skip_header) {
            skip_header = false;
            continue;
        }
        if (format_reader_record(r, rec, len, pos, err) < 0) return -1;
    }
    return 0;
}
