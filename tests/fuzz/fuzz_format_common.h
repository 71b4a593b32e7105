/* Shared body of the record-format fuzz targets (fuzz_format_json.c,
 * fuzz_format_csv.c): decode arbitrary bytes as a file of records in
 * PERMISSIVE mode, then check the round trip — every decoded row encoded
 * and decoded again must give the same row, cell for cell, and no record
 * of the re-encoded text may be malformed. The schemas leave out what the
 * format stores lossily (timestamps in JSON keep milliseconds only). */
#ifndef SL_FUZZ_FORMAT_COMMON_H
#define SL_FUZZ_FORMAT_COMMON_H

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "connectors/format.h"
#include "model/batch.h"

typedef struct fuzz_out {
    sl_buf_t text; /* the rows, rendered cell by cell */
    int64_t rows;
    const format_encoder_t *enc;
    sl_buf_t encoded; /* the rows re-encoded (when enc is set) */
} fuzz_out_t;

static int fuzz_emit(void *arg, exec_batch_t *b, sl_error_t *err)
{
    (void)err;
    fuzz_out_t *o = arg;
    for (uint32_t k = 0; k < exec_batch_count(b); k++) {
        uint32_t row = exec_batch_row(b, k);
        for (int c = 0; c < b->ncols; c++) {
            sl_buf_putc(&o->text, c ? '|' : '\n');
            if (!exec_vec_text(&b->cols[c], row, &o->text)) sl_buf_puts(&o->text, "<null>");
        }
        if (o->enc) format_encode_row(o->enc, b, row, &o->encoded);
        o->rows++;
    }
    return 0;
}

static const format_decoder_t *fuzz_decoder(format_kind_t kind, const char *schema, sl_arena_t *a)
{
    exec_type_t t;
    sl_error_t err;
    if (exec_schema_parse(schema, strlen(schema), a, &t, &err) < 0) abort();
    const char **names = SL_NEW_ARRAY(a, const char *, t.nfields);
    exec_type_t *types = SL_NEW_ARRAY(a, exec_type_t, t.nfields);
    for (int i = 0; i < t.nfields; i++) {
        names[i] = t.fields[i].name;
        types[i] = t.fields[i].type;
    }
    format_options_t o = {.kind = kind, .mode = FORMAT_PERMISSIVE, .sep = ','};
    const format_decoder_t *d = format_decoder_new(&o, t.nfields, names, types, a, &err);
    if (!d) abort();
    return d;
}

/* Decodes `text` with `d` into `out`; returns the malformed count. */
static long long fuzz_read(const format_decoder_t *d, const char *text, size_t n, fuzz_out_t *out,
                           sl_arena_t *a)
{
    atomic_llong bad;
    atomic_init(&bad, 0);
    format_reader_t r;
    sl_error_t err;
    format_reader_init(&r, d, a, fuzz_emit, out);
    r.malformed = &bad;
    format_pos_t pos = {"file", "fuzz", "line", 0};
    if (format_reader_text(&r, text, n, &pos, &err) < 0 || format_reader_flush(&r, &err) < 0)
        abort(); /* PERMISSIVE never fails */
    format_reader_done(&r);
    return atomic_load(&bad);
}

/* The data columns of the decoder, for the encoder (all but _corrupt_record). */
static int fuzz_one(format_kind_t kind, const char *schema, const char *data_schema,
                    const uint8_t *data, size_t size)
{
    static const format_decoder_t *dec, *data_dec;
    static sl_arena_t *keep;
    static format_encoder_t enc;
    if (!dec) {
        keep = sl_arena_new("fuzz decoders");
        dec = fuzz_decoder(kind, schema, keep);
        data_dec = fuzz_decoder(kind, data_schema, keep);
        exec_type_t t;
        sl_error_t err;
        exec_schema_parse(data_schema, strlen(data_schema), keep, &t, &err);
        const char **names = SL_NEW_ARRAY(keep, const char *, t.nfields);
        for (int i = 0; i < t.nfields; i++) names[i] = t.fields[i].name;
        format_encoder_init(&enc, kind, ',', t.nfields, names);
    }
    sl_arena_t *a = sl_arena_new("fuzz");
    fuzz_out_t first = {SL_BUF_INIT, 0, NULL, SL_BUF_INIT};
    fuzz_read(dec, (const char *)data, size, &first, a);
    /* round trip over the data columns only */
    fuzz_out_t once = {SL_BUF_INIT, 0, &enc, SL_BUF_INIT};
    fuzz_read(data_dec, (const char *)data, size, &once, a);
    fuzz_out_t twice = {SL_BUF_INIT, 0, NULL, SL_BUF_INIT};
    long long bad = fuzz_read(data_dec, once.encoded.data ? once.encoded.data : "",
                              once.encoded.len, &twice, a);
    if (bad || twice.rows != once.rows || (once.rows && strcmp(once.text.data, twice.text.data))) {
        fprintf(stderr,
                "round trip differs (%lld malformed)\nfirst:%s\nre-encoded:\n%s\nsecond:%s\n", bad,
                once.text.data ? once.text.data : "", once.encoded.data ? once.encoded.data : "",
                twice.text.data ? twice.text.data : "");
        abort();
    }
    sl_buf_free(&first.text);
    sl_buf_free(&once.text);
    sl_buf_free(&once.encoded);
    sl_buf_free(&twice.text);
    sl_arena_free(a);
    return 0;
}

#endif
