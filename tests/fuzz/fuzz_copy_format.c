/* libFuzzer target: COPY's text and CSV formats (server/copy_format.c).
 * The first byte picks the options; the rest is split into records in
 * chunks whose sizes come from the data (as CopyData arrive), each record
 * is decoded, and its fields must survive a round trip through the
 * encoder: encode, split (one record), decode, same values and NULLs.
 * `make test` replays tests/fuzz/corpus/copy_format. */
#include "tests/fuzz/fuzz.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "server/copy_format.h"

static void pick_options(uint8_t b, copy_opts_t *o)
{
    copy_opts_default(o, (b & 1) ? COPY_FMT_CSV : COPY_FMT_TEXT);
    if (b & 2) o->delim = o->fmt == COPY_FMT_CSV ? ';' : '|';
    if ((b & 4) && o->fmt == COPY_FMT_CSV) o->escape = '\\';
    if (b & 8) {
        o->null_str = o->fmt == COPY_FMT_CSV ? "\\N" : "NULL";
        o->null_len = strlen(o->null_str);
    }
}

/* A text-format value equal to the null string reads back as NULL (text
 * output does not escape it, as in PostgreSQL): left out of the round trip. */
static int ambiguous(const copy_opts_t *o, const copy_field_t *f, int n)
{
    for (int i = 0; i < n && o->fmt == COPY_FMT_TEXT; i++)
        if (!f[i].null && f[i].n == o->null_len && !memcmp(f[i].p, o->null_str, o->null_len))
            return 1;
    return 0;
}

static void round_trip(const copy_opts_t *o, const copy_field_t *f, int n)
{
    if (ambiguous(o, f, n)) return;
    const char **vals = calloc((size_t)n, sizeof *vals);
    size_t *lens = calloc((size_t)n, sizeof *lens);
    for (int i = 0; i < n; i++) {
        vals[i] = f[i].null ? NULL : f[i].p;
        lens[i] = f[i].n;
    }
    sl_buf_t line = SL_BUF_INIT, scratch = SL_BUF_INIT;
    copy_encode_row(o, n, vals, lens, NULL, &line);
    size_t rec_len;
    size_t used = copy_next_record(o, line.data, line.len, 1, &rec_len);
    if (used != line.len || rec_len != line.len - 1) abort(); /* one line, one record */
    copy_field_t *g = NULL;
    int cap = 0;
    sl_error_t err;
    int m = copy_decode_record(o, NULL, line.data, rec_len, &scratch, &g, &cap, &err);
    if (m != n) abort();
    for (int i = 0; i < n; i++) {
        if (g[i].null != f[i].null) abort();
        if (!f[i].null && (g[i].n != f[i].n || memcmp(g[i].p, f[i].p, f[i].n))) abort();
    }
    free(g);
    free(vals);
    free(lens);
    sl_buf_free(&line);
    sl_buf_free(&scratch);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2) return 0;
    copy_opts_t o;
    pick_options(data[0], &o);
    size_t step = 1 + data[1] % 64; /* bytes per arriving chunk */
    const char *p = (const char *)data + 2;
    size_t n = size - 2, have = 0, off = 0;
    sl_buf_t scratch = SL_BUF_INIT;
    copy_field_t *f = NULL;
    int cap = 0;
    while (off < n) {
        have = have + step > n ? n : have + step;
        size_t rec_len, used;
        while ((used = copy_next_record(&o, p + off, have - off, have == n, &rec_len)) > 0) {
            if (used > have - off || rec_len > used) abort();
            sl_error_t err;
            int nf = copy_decode_record(&o, NULL, p + off, rec_len, &scratch, &f, &cap, &err);
            if (nf < 0 && strcmp(err.sqlstate, "22P04")) abort();
            if (nf > 0) round_trip(&o, f, nf);
            off += used;
        }
        if (have == n) break;
    }
    copy_utf8_check(p, n, data[1] & 1);
    free(f);
    sl_buf_free(&scratch);
    return 0;
}
