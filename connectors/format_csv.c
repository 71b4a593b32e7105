/* CSV (RFC 4180): splitting text into records (a quoted field may span
 * lines when it closes where a field ends; otherwise a record is its line,
 * so one stray quote damages one record), tokenising a record into fields,
 * decoding fields into a row by the columns' text input, and encoding a row
 * back with the quoting the decoder undoes. */
#include "connectors/format_int.h"

#include <string.h>

#include "model/text_io.h"
#include "model/value.h"

/* The quoted field opening at text[open]: the index of its closing quote
 * (doubled quotes skipped), or n when it is never closed; *nl counts the
 * newlines inside it. */
static size_t csv_quote_close(const char *text, size_t n, size_t open, int *nl)
{
    *nl = 0;
    for (size_t i = open + 1; i < n; i++) {
        if (text[i] == '\n') (*nl)++;
        else if (text[i] == '"' && i + 1 < n && text[i + 1] == '"') i++;
        else if (text[i] == '"') return i;
    }
    return n;
}

/* Whether a quoted field that spans lines is plausible: it closes, and its
 * closing quote at text[close] ends the field (a separator, the line end or
 * the end of the text follows). A stray quote elsewhere on a line is not
 * taken as the start of a multi-line field (Spark's parser bounds a quoted
 * value the same way), so its damage stays on its line. */
static bool csv_span_plausible(char sep, const char *text, size_t n, size_t close)
{
    if (close >= n) return false;
    size_t i = close + 1;
    if (i == n || text[i] == sep || text[i] == '\n') return true;
    return text[i] == '\r' && (i + 1 == n || text[i + 1] == '\n');
}

size_t format_csv_split(char sep, const char *text, size_t n, size_t *next, int *lines)
{
    bool field_start = true;
    int nl = 0;
    size_t i = 0;
    for (; i < n; i++) {
        char c = text[i];
        if (c == '\n') break;
        if (c == '"' && field_start) {
            int inside;
            size_t close = csv_quote_close(text, n, i, &inside);
            if (inside == 0 || csv_span_plausible(sep, text, n, close)) {
                nl += inside;
                i = close < n ? close : n - 1; /* on the closing quote (or the last byte) */
                field_start = false;
                continue;
            }
            /* implausible: the record ends with this line; the decoder reports it */
            const char *e = memchr(text + i, '\n', n - i);
            i = e ? (size_t)(e - text) : n;
            break;
        }
        field_start = c == sep;
    }
    *lines = nl + (i < n);
    *next = i < n ? i + 1 : n;
    return i && text[i - 1] == '\r' ? i - 1 : i;
}

/* One field of a record: its text (unescaped), and whether it was quoted. */
typedef struct csv_field {
    const char *p;
    size_t n;
    bool quoted;
} csv_field_t;

static int csv_malformed(sl_error_t *why, const char *detail)
{
    sl_error_set(why, SL_ERR_INVALID_TEXT_REPRESENTATION, "invalid input syntax for a CSV record");
    sl_error_detail(why, "%s", detail);
    return -1;
}

/* A quoted field starting at rec[*i] (on the quote): unescapes doubled
 * quotes (copying into scratch only when there are some) and leaves *i on
 * the separator or the end. */
static int csv_quoted(const char *rec, size_t n, size_t *i, char sep, sl_arena_t *scratch,
                      csv_field_t *f, sl_error_t *why)
{
    size_t start = ++*i, k = 0;
    char *copy = NULL;
    for (;; (*i)++) {
        if (*i >= n) return csv_malformed(why, "A quoted field is not closed.");
        if (rec[*i] != '"') {
            if (copy) copy[k++] = rec[*i];
            continue;
        }
        if (*i + 1 < n && rec[*i + 1] == '"') {
            if (!copy) {
                copy = sl_alloc(scratch, n - start);
                memcpy(copy, rec + start, k = *i - start);
            }
            copy[k++] = '"';
            (*i)++;
            continue;
        }
        break;
    }
    f->p = copy ? copy : rec + start;
    f->n = copy ? k : *i - start;
    f->quoted = true;
    (*i)++;
    if (*i < n && rec[*i] != sep) return csv_malformed(why, "A closing quote is followed by text.");
    return 0;
}

/* Splits a record into fields; keeps the first `maxf` in f[] and sets *nf
 * to how many were kept. */
static int csv_tokenize(const char *rec, size_t n, char sep, sl_arena_t *scratch, csv_field_t *f,
                        int maxf, int *nf, sl_error_t *why)
{
    size_t i = 0;
    int count = 0;
    for (;;) {
        csv_field_t tmp;
        csv_field_t *cur = count < maxf ? &f[count] : &tmp;
        if (i < n && rec[i] == '"') {
            if (csv_quoted(rec, n, &i, sep, scratch, cur, why) < 0) return -1;
        } else {
            const char *s = rec + i;
            const char *e = memchr(s, sep, n - i);
            size_t len = e ? (size_t)(e - s) : n - i;
            *cur = (csv_field_t){s, len, false};
            i += len;
        }
        count++;
        if (i >= n) break;
        i++;          /* the separator */
        if (i == n) { /* a trailing separator: one more empty field */
            if (count < maxf) f[count] = (csv_field_t){rec + n, 0, false};
            count++;
            break;
        }
    }
    *nf = count < maxf ? count : maxf;
    return 0;
}

/* The value of one field for a column of type t (NULL for empty fields, as
 * described in format.h). */
static int csv_value(const csv_field_t *f, exec_type_t t, sl_arena_t *scratch, exec_value_t *out,
                     sl_error_t *why)
{
    bool varlen = exec_type_is_varlen(t);
    if (f->n == 0 && (!f->quoted || !varlen)) {
        *out = exec_value_null(t);
        return 0;
    }
    if (t.id == EXEC_TYPE_STRING) {
        *out = exec_value_string(f->p, f->n);
        return 0;
    }
    return exec_value_parse(t, f->p, f->n, scratch, out, why);
}

int format_csv_decode(const format_decoder_t *d, exec_builder_t *bld, const char *rec, size_t n,
                      sl_arena_t *scratch, sl_error_t *why)
{
    csv_field_t *f = SL_NEW_ARRAY(scratch, csv_field_t, d->ndata ? d->ndata : 1);
    exec_value_t *v = SL_NEW_ARRAY(scratch, exec_value_t, d->ndata ? d->ndata : 1);
    int nf;
    if (csv_tokenize(rec, n, d->opts.sep, scratch, f, d->ndata, &nf, why) < 0) return 1;
    for (int k = 0; k < d->ndata; k++) {
        exec_type_t t = d->types[d->data_cols[k]];
        if (k >= nf) v[k] = exec_value_null(t);
        else if (csv_value(&f[k], t, scratch, &v[k], why) < 0) return 1;
    }
    uint32_t row = exec_builder_add_row(bld);
    for (int k = 0; k < d->ndata; k++) exec_builder_set_value(bld, d->data_cols[k], row, &v[k]);
    if (d->corrupt_col >= 0) exec_builder_set_null(bld, d->corrupt_col, row);
    return 0;
}

/* ---- encoding ------------------------------------------------------------- */

/* Quotes the field that occupies out[start..] when it must be: it holds the
 * separator, a quote, CR or LF, is empty, or starts with a UTF-8 byte order
 * mark (which a reader would strip at the start of a file). Works in place
 * (no copy). */
static void csv_quote_tail(char sep, sl_buf_t *out, size_t start)
{
    size_t n = out->len - start, quotes = 0;
    bool quote = n == 0 || (n >= 3 && !memcmp(out->data + start, "\xef\xbb\xbf", 3));
    for (size_t i = 0; i < n; i++) {
        char c = out->data[start + i];
        quotes += c == '"';
        quote |= c == sep || c == '"' || c == '\n' || c == '\r';
    }
    if (!quote) return;
    sl_buf_reserve(out, 2 + quotes);
    char *d = out->data + start;
    size_t src = n, dst = n + 2 + quotes;
    d[--dst] = '"';
    while (src > 0) {
        char c = d[--src];
        d[--dst] = c;
        if (c == '"') d[--dst] = '"';
    }
    d[--dst] = '"';
    out->len += 2 + quotes;
    out->data[out->len] = 0;
}

void format_csv_field(char sep, const char *p, size_t n, sl_buf_t *out)
{
    size_t start = out->len;
    sl_buf_append(out, p, n);
    csv_quote_tail(sep, out, start);
}

/* Appends one non-NULL cell's CSV text. */
static void csv_cell(char sep, const exec_vec_t *v, uint32_t row, sl_buf_t *out)
{
    if (v->type.id == EXEC_TYPE_BOOLEAN) {
        sl_buf_puts(out, EXEC_VEC_AT(v, uint8_t, row) ? "true" : "false");
        return;
    }
    size_t start = out->len;
    if (v->type.id == EXEC_TYPE_STRING) {
        exec_str_t s = EXEC_VEC_AT(v, exec_str_t, row);
        sl_buf_append(out, s.ptr, s.len);
    } else {
        exec_vec_text(v, row, out);
    }
    csv_quote_tail(sep, out, start);
}

void format_csv_encode(const format_encoder_t *e, const exec_batch_t *b, uint32_t row,
                       sl_buf_t *out)
{
    for (int c = 0; c < e->ncols; c++) {
        if (c) sl_buf_putc(out, e->sep);
        if (!exec_vec_is_null(&b->cols[c], row)) csv_cell(e->sep, &b->cols[c], row, out);
    }
}
