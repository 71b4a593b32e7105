/* COPY's text and CSV formats: line encoding, record splitting and field
 * decoding (the rules are in copy_format.h). */
#include "server/copy_format.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"

void copy_opts_default(copy_opts_t *o, copy_fmt_t fmt)
{
    memset(o, 0, sizeof *o);
    o->fmt = fmt;
    o->delim = fmt == COPY_FMT_CSV ? ',' : '\t';
    o->quote = '"';
    o->escape = '"';
    o->null_str = fmt == COPY_FMT_CSV ? "" : "\\N";
    o->null_len = strlen(o->null_str);
}

/* ---- output ------------------------------------------------------------------ */

/* The letter of a backslash escape for a control byte, or 0. */
static char text_escape_letter(char c)
{
    switch (c) {
    case '\b': return 'b';
    case '\f': return 'f';
    case '\n': return 'n';
    case '\r': return 'r';
    case '\t': return 't';
    case '\v': return 'v';
    default: return 0;
    }
}

static void encode_text(const copy_opts_t *o, const char *s, size_t n, sl_buf_t *out)
{
    size_t run = 0; /* start of the bytes not yet appended */
    for (size_t i = 0; i < n; i++) {
        char c = s[i], letter = (unsigned char)c < 0x20 ? text_escape_letter(c) : 0;
        if (!letter && c != '\\' && c != o->delim) continue;
        sl_buf_append(out, s + run, i - run);
        sl_buf_putc(out, '\\');
        sl_buf_putc(out, letter ? letter : c);
        run = i + 1;
    }
    sl_buf_append(out, s + run, n - run);
}

/* True when a[0..an) and b[0..bn) hold the same bytes (either may be NULL when empty). */
static int same_bytes(const char *a, size_t an, const char *b, size_t bn)
{
    return an == bn && (an == 0 || !memcmp(a, b, an));
}

/* PostgreSQL's rule: quote when forced, when the value reads as the null
 * string, when it holds the delimiter, the quote, CR or LF, or when a lone
 * column's value is "\." (the end-of-data line). */
static int csv_needs_quote(const copy_opts_t *o, const char *s, size_t n, int single)
{
    if (same_bytes(s, n, o->null_str, o->null_len)) return 1;
    if (single && n == 2 && s[0] == '\\' && s[1] == '.') return 1;
    for (size_t i = 0; i < n; i++)
        if (s[i] == o->delim || s[i] == o->quote || s[i] == '\n' || s[i] == '\r') return 1;
    return 0;
}

static void encode_csv(const copy_opts_t *o, const char *s, size_t n, int force, int single,
                       sl_buf_t *out)
{
    if (!force && !csv_needs_quote(o, s, n, single)) {
        sl_buf_append(out, s, n);
        return;
    }
    sl_buf_putc(out, o->quote);
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] != o->quote && s[i] != o->escape) continue;
        sl_buf_append(out, s + run, i - run);
        sl_buf_putc(out, o->escape);
        run = i; /* the byte itself goes out with the next run */
    }
    sl_buf_append(out, s + run, n - run);
    sl_buf_putc(out, o->quote);
}

void copy_encode_row(const copy_opts_t *o, int ncols, const char *const *vals, const size_t *lens,
                     const unsigned char *force_quote, sl_buf_t *out)
{
    for (int i = 0; i < ncols; i++) {
        if (i) sl_buf_putc(out, o->delim);
        if (!vals[i]) sl_buf_append(out, o->null_str, o->null_len);
        else if (o->fmt == COPY_FMT_TEXT) encode_text(o, vals[i], lens[i], out);
        else encode_csv(o, vals[i], lens[i], force_quote && force_quote[i], ncols == 1, out);
    }
    sl_buf_putc(out, '\n');
}

/* ---- splitting records --------------------------------------------------------- */

/* Length of the line ending at newline index nl (drops a CR before it). */
static size_t line_len(const char *p, size_t nl)
{
    return nl > 0 && p[nl - 1] == '\r' ? nl - 1 : nl;
}

static size_t next_text_record(const char *p, size_t n, int eof, size_t *rec_len)
{
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '\\') {
            i++; /* the escaped byte, a newline too, belongs to the field */
            continue;
        }
        if (p[i] == '\n') {
            *rec_len = line_len(p, i);
            return i + 1;
        }
    }
    if (!eof || n == 0) return 0;
    *rec_len = n;
    return n;
}

static size_t next_csv_record(const copy_opts_t *o, const char *p, size_t n, int eof,
                              size_t *rec_len)
{
    int in_quote = 0, last_was_esc = 0;
    for (size_t i = 0; i < n; i++) {
        char c = p[i];
        if (in_quote && c == o->escape && o->escape != o->quote) {
            last_was_esc = !last_was_esc;
            continue;
        }
        if (c == o->quote && !last_was_esc) in_quote = !in_quote;
        last_was_esc = 0;
        if (c == '\n' && !in_quote) {
            *rec_len = line_len(p, i);
            return i + 1;
        }
    }
    if (!eof || n == 0) return 0;
    *rec_len = n;
    return n;
}

size_t copy_next_record(const copy_opts_t *o, const char *p, size_t n, int eof, size_t *rec_len)
{
    *rec_len = 0;
    return o->fmt == COPY_FMT_CSV ? next_csv_record(o, p, n, eof, rec_len)
                                  : next_text_record(p, n, eof, rec_len);
}

int copy_is_end_marker(const char *rec, size_t n)
{
    return n == 2 && rec[0] == '\\' && rec[1] == '.';
}

/* ---- decoding fields ------------------------------------------------------------- */

static copy_field_t *field_add(copy_field_t **fields, int *cap, int n)
{
    if (n == *cap) {
        *cap = *cap ? *cap * 2 : 16;
        *fields = sl_xrealloc(*fields, sizeof **fields * (size_t)*cap);
    }
    copy_field_t *f = &(*fields)[n];
    memset(f, 0, sizeof *f);
    return f;
}

static int hex_val(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Decodes the backslash sequence at s[i] (s[i] == '\\'); returns the bytes
 * it used. */
static size_t text_unescape(const char *s, size_t i, size_t end, sl_buf_t *out)
{
    if (i + 1 >= end) { /* a lone backslash at the end of the line stays */
        sl_buf_putc(out, '\\');
        return 1;
    }
    char c = s[i + 1];
    if (c >= '0' && c <= '7') {
        int v = 0;
        size_t k = i + 1;
        for (; k < end && k < i + 4 && s[k] >= '0' && s[k] <= '7'; k++) v = v * 8 + (s[k] - '0');
        sl_buf_putc(out, (char)(v & 0xff));
        return k - i;
    }
    if (c == 'x' && i + 2 < end && hex_val(s[i + 2]) >= 0) {
        int v = hex_val(s[i + 2]);
        size_t used = 3;
        if (i + 3 < end && hex_val(s[i + 3]) >= 0) {
            v = v * 16 + hex_val(s[i + 3]);
            used = 4;
        }
        sl_buf_putc(out, (char)v);
        return used;
    }
    switch (c) {
    case 'b': c = '\b'; break;
    case 'f': c = '\f'; break;
    case 'n': c = '\n'; break;
    case 'r': c = '\r'; break;
    case 't': c = '\t'; break;
    case 'v': c = '\v'; break;
    default: break; /* any other byte stands for itself */
    }
    sl_buf_putc(out, c);
    return 2;
}

/* One text field s[start..end): NULL by its raw text, else de-escaped. */
static void text_field(const copy_opts_t *o, const char *s, size_t start, size_t end,
                       copy_field_t *f, size_t *off, sl_buf_t *scratch)
{
    size_t n = end - start;
    *off = scratch->len;
    if (same_bytes(s + start, n, o->null_str, o->null_len)) {
        f->null = 1;
        return;
    }
    size_t run = start;
    for (size_t i = start; i < end;) {
        if (s[i] != '\\') {
            i++;
            continue;
        }
        sl_buf_append(scratch, s + run, i - run);
        i += text_unescape(s, i, end, scratch);
        run = i;
    }
    sl_buf_append(scratch, s + run, end - run);
    f->n = scratch->len - *off;
}

/* The end of the text field starting at `i` (a delimiter or the end). */
static size_t text_field_end(const copy_opts_t *o, const char *s, size_t i, size_t n)
{
    for (; i < n; i++) {
        if (s[i] == '\\') i++;
        else if (s[i] == o->delim) return i;
    }
    return n;
}

/* One CSV field from s[*i]: reads through quoted parts up to a delimiter
 * outside quotes or the end. Returns -1 on an unterminated quote. */
static int csv_field(const copy_opts_t *o, const char *s, size_t *i, size_t n, copy_field_t *f,
                     sl_buf_t *scratch, size_t *raw_len)
{
    size_t start = *i, k = *i;
    while (k < n && s[k] != o->delim) {
        if (s[k] != o->quote) {
            sl_buf_putc(scratch, s[k++]);
            continue;
        }
        f->quoted = 1;
        for (k++;; k++) {
            if (k >= n) return -1;
            if (s[k] == o->escape && k + 1 < n && (s[k + 1] == o->quote || s[k + 1] == o->escape)) {
                sl_buf_putc(scratch, s[++k]);
                continue;
            }
            if (s[k] == o->quote) break;
            sl_buf_putc(scratch, s[k]);
        }
        k++;
    }
    *raw_len = k - start;
    *i = k;
    return 0;
}

/* CSV's NULL rules for field `idx`: the unquoted null string, unless
 * FORCE_NOT_NULL; with FORCE_NULL a quoted null string too. */
static int csv_is_null(const copy_opts_t *o, const copy_null_rules_t *r, int idx, const char *raw,
                       size_t raw_len, const char *val, size_t n, int quoted)
{
    int in_rules = r && idx < r->n;
    if (in_rules && r->force_not_null && r->force_not_null[idx]) return 0;
    if (!quoted) return same_bytes(raw, raw_len, o->null_str, o->null_len);
    return in_rules && r->force_null && r->force_null[idx] &&
           same_bytes(val, n, o->null_str, o->null_len);
}

static int decode_csv(const copy_opts_t *o, const copy_null_rules_t *rules, const char *rec,
                      size_t n, sl_buf_t *scratch, copy_field_t **fields, int *cap, size_t **offs,
                      int *ocap, sl_error_t *err)
{
    int nf = 0;
    size_t i = 0;
    for (;;) {
        copy_field_t *f = field_add(fields, cap, nf);
        if (nf == *ocap) {
            *offs = sl_xrealloc(*offs, sizeof **offs * (size_t)*cap);
            *ocap = *cap;
        }
        size_t off = scratch->len, raw_len, start = i;
        if (csv_field(o, rec, &i, n, f, scratch, &raw_len) < 0)
            return sl_error_set(err, SL_ERR_BAD_COPY_FILE_FORMAT, "unterminated CSV quoted field");
        f->n = scratch->len - off;
        const char *val = scratch->data ? scratch->data + off : "";
        f->null = csv_is_null(o, rules, nf, rec + start, raw_len, val, f->n, f->quoted);
        (*offs)[nf++] = off;
        if (i >= n) break;
        i++; /* the delimiter */
    }
    return nf;
}

static int decode_text(const copy_opts_t *o, const char *rec, size_t n, sl_buf_t *scratch,
                       copy_field_t **fields, int *cap, size_t **offs, int *ocap)
{
    int nf = 0;
    size_t i = 0;
    for (;;) {
        copy_field_t *f = field_add(fields, cap, nf);
        if (nf == *ocap) {
            *offs = sl_xrealloc(*offs, sizeof **offs * (size_t)*cap);
            *ocap = *cap;
        }
        size_t end = text_field_end(o, rec, i, n);
        text_field(o, rec, i, end, f, &(*offs)[nf], scratch);
        nf++;
        if (end >= n) break;
        i = end + 1;
    }
    return nf;
}

int copy_decode_record(const copy_opts_t *o, const copy_null_rules_t *rules, const char *rec,
                       size_t n, sl_buf_t *scratch, copy_field_t **fields, int *cap,
                       sl_error_t *err)
{
    sl_buf_clear(scratch);
    size_t *offs = NULL;
    int ocap = 0;
    int nf = o->fmt == COPY_FMT_CSV
                 ? decode_csv(o, rules, rec, n, scratch, fields, cap, &offs, &ocap, err)
                 : decode_text(o, rec, n, scratch, fields, cap, &offs, &ocap);
    for (int i = 0; i < nf; i++) (*fields)[i].p = scratch->data ? scratch->data + offs[i] : "";
    free(offs);
    return nf;
}

/* ---- UTF-8 ------------------------------------------------------------------------ */

/* Bytes of the UTF-8 sequence at p (n available): its length, 0 when
 * invalid, or -1 when cut short by the end. */
static int utf8_seq(const unsigned char *p, size_t n)
{
    unsigned c = p[0];
    int len = c < 0x80             ? 1
              : (c & 0xe0) == 0xc0 ? 2
              : (c & 0xf0) == 0xe0 ? 3
              : (c & 0xf8) == 0xf0 ? 4
                                   : 0;
    if (len == 0 || c == 0 || c == 0xc0 || c == 0xc1 || c > 0xf4) return 0;
    for (int k = 1; k < len; k++) {
        if ((size_t)k >= n) return -1;
        if ((p[k] & 0xc0) != 0x80) return 0;
    }
    if (len == 3 && ((c == 0xe0 && p[1] < 0xa0) || (c == 0xed && p[1] > 0x9f))) return 0;
    if (len == 4 && ((c == 0xf0 && p[1] < 0x90) || (c == 0xf4 && p[1] > 0x8f))) return 0;
    return len;
}

size_t copy_utf8_check(const char *p, size_t n, int partial_ok)
{
    const unsigned char *u = (const unsigned char *)p;
    size_t i = 0;
    while (i < n) {
        if (u[i] >= 0x20 && u[i] < 0x80) { /* the common case, one byte at a time */
            i++;
            continue;
        }
        int len = utf8_seq(u + i, n - i);
        if (len < 0) return partial_ok ? n : i;
        if (len == 0) return i;
        i += (size_t)len;
    }
    return n;
}
