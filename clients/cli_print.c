/* clients/cli_print.c — table output in psql's layouts (see cli_print.h).
 *
 * Every cell is shown as psql shows it: lines split at '\n', tabs expanded to
 * the next multiple of 8, '\r' as "\r", other control characters as \xNN or
 * \uXXXX, widths measured with libpq's PQdsplen for the client encoding.
 * The aligned layout is border 1: " a | b " headers centred, a "---+---"
 * rule, cells padded (the last column is not padded), continuation lines
 * marked with '+', then "(N rows)" and a blank line. */
#include "clients/cli_print.h"

#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* One display line of a formatted cell. */
typedef struct {
    size_t off; /* start of the line's text in the cell's buffer */
    int width;  /* display width */
} line_t;

/* A cell formatted for display: lines separated by NULs in text. */
typedef struct {
    sl_buf_t text; /* the shown text, each line NUL-terminated */
    line_t *lines; /* where each line starts and how wide it is */
    int nlines;    /* lines in use */
    int cap;       /* lines allocated */
} cellfmt_t;

/* ---- cell formatting ----------------------------------------------------------------- */

static int utf8_id(void)
{
    static int id = -2;
    if (id == -2) id = pg_char_to_encoding("UTF8");
    return id;
}

static unsigned utf8_code(const unsigned char *c, int len)
{
    if (len == 2) return ((c[0] & 0x1fu) << 6) | (c[1] & 0x3fu);
    if (len == 3) return ((c[0] & 0x0fu) << 12) | ((c[1] & 0x3fu) << 6) | (c[2] & 0x3fu);
    if (len == 4)
        return ((c[0] & 0x07u) << 18) | ((c[1] & 0x3fu) << 12) | ((c[2] & 0x3fu) << 6) |
               (c[3] & 0x3fu);
    return c[0];
}

/* One character at p (not a newline): its byte length (0 when truncated),
 * its display width in *w, its shown text appended to out when out != NULL.
 * col is the display column, for tab stops. */
static int char_step(const char *p, size_t rest, int enc, int col, sl_buf_t *out, int *w)
{
    int chlen = PQmblen(p, enc);
    if (chlen < 1 || (size_t)chlen > rest) return 0;
    int dw = PQdsplen(p, enc);
    unsigned char c = (unsigned char)*p;
    if (chlen == 1 && c == '\r') {
        *w = 2;
        if (out) sl_buf_puts(out, "\\r");
    } else if (chlen == 1 && c == '\t') {
        *w = 8 - col % 8;
        for (int i = 0; out && i < *w; i++) sl_buf_putc(out, ' ');
    } else if (chlen == 1 && dw < 0) {
        *w = 4;
        if (out) sl_buf_printf(out, "\\x%02X", c);
    } else if (dw < 0) {
        *w = 6;
        if (out && enc == utf8_id())
            sl_buf_printf(out, "\\u%04X", utf8_code((const unsigned char *)p, chlen));
        else if (out) sl_buf_puts(out, "\\u????");
    } else {
        *w = dw;
        if (out) sl_buf_append(out, p, (size_t)chlen);
    }
    return chlen;
}

void cli_print_cell_size(const char *s, int encoding, int *width, int *height)
{
    int maxw = 0, linew = 0, lines = 1;
    size_t rest = strlen(s);
    while (rest > 0) {
        if (*s == '\n') {
            if (linew > maxw) maxw = linew;
            linew = 0;
            lines++;
            s++, rest--;
            continue;
        }
        int w, n = char_step(s, rest, encoding, linew, NULL, &w);
        if (n == 0) break;
        linew += w;
        s += n, rest -= (size_t)n;
    }
    *width = linew > maxw ? linew : maxw;
    *height = lines;
}

static void fmt_new_line(cellfmt_t *f)
{
    if (f->nlines == f->cap) {
        f->cap = f->cap ? f->cap * 2 : 4;
        f->lines = sl_xrealloc(f->lines, (size_t)f->cap * sizeof *f->lines);
    }
    f->lines[f->nlines].off = f->text.len;
    f->lines[f->nlines].width = 0;
    f->nlines++;
}

/* Formats s into f's lines (each NUL-terminated inside f->text). */
static void cell_format(const char *s, int enc, cellfmt_t *f)
{
    sl_buf_clear(&f->text);
    f->nlines = 0;
    fmt_new_line(f);
    size_t rest = strlen(s);
    while (rest > 0) {
        line_t *ln = &f->lines[f->nlines - 1];
        if (*s == '\n') {
            sl_buf_putc(&f->text, '\0');
            fmt_new_line(f);
            s++, rest--;
            continue;
        }
        int w, n = char_step(s, rest, enc, ln->width, &f->text, &w);
        if (n == 0) break;
        ln->width += w;
        s += n, rest -= (size_t)n;
    }
    sl_buf_putc(&f->text, '\0');
}

static const char *fmt_line(const cellfmt_t *f, int i)
{
    return f->text.data + f->lines[i].off;
}

static cellfmt_t *fmts_new(int n)
{
    cellfmt_t *f = sl_xmalloc((size_t)(n > 0 ? n : 1) * sizeof *f);
    memset(f, 0, (size_t)(n > 0 ? n : 1) * sizeof *f);
    return f;
}

static void fmts_free(cellfmt_t *f, int n)
{
    for (int i = 0; i < n; i++) {
        sl_buf_free(&f[i].text);
        free(f[i].lines);
    }
    free(f);
}

/* ---- tables -------------------------------------------------------------------------- */

static char type_align(Oid type)
{
    switch (type) {
    case 20:   /* int8 */
    case 21:   /* int2 */
    case 23:   /* int4 */
    case 26:   /* oid */
    case 28:   /* xid */
    case 29:   /* cid */
    case 700:  /* float4 */
    case 701:  /* float8 */
    case 790:  /* money */
    case 1700: /* numeric */
    case 5069: /* xid8 */ return 'r';
    default: return 'l';
    }
}

void cli_table_init(cli_table_t *t, int ncols, long nrows, int encoding, sl_arena_t *a)
{
    memset(t, 0, sizeof *t);
    t->ncols = ncols;
    t->nrows = nrows;
    t->encoding = encoding;
    t->headers = sl_alloc0(a, (size_t)(ncols + 1) * sizeof *t->headers);
    char *aligns = sl_alloc0(a, (size_t)ncols + 1);
    memset(aligns, 'l', (size_t)ncols);
    t->aligns = aligns;
    size_t ncells = (size_t)ncols * (size_t)nrows;
    t->cells = sl_alloc0(a, (ncells + 1) * sizeof *t->cells);
    for (size_t i = 0; i < ncells; i++) t->cells[i] = "";
    for (int i = 0; i < ncols; i++) t->headers[i] = "";
}

void cli_table_from_result(cli_table_t *t, const PGresult *res, const cli_popt_t *opt, int encoding,
                           sl_arena_t *a)
{
    int ncols = PQnfields(res);
    long nrows = PQntuples(res);
    cli_table_init(t, ncols, nrows, encoding, a);
    char *aligns = (char *)t->aligns;
    for (int c = 0; c < ncols; c++) {
        t->headers[c] = PQfname(res, c);
        aligns[c] = type_align(PQftype(res, c));
    }
    const char *null_display = opt->null_display ? opt->null_display : "";
    for (long r = 0; r < nrows; r++)
        for (int c = 0; c < ncols; c++)
            t->cells[r * ncols + c] =
                PQgetisnull(res, (int)r, c) ? null_display : PQgetvalue(res, (int)r, c);
    t->title = opt->title;
}

static const char *cell(const cli_table_t *t, long r, int c)
{
    return t->cells[r * t->ncols + c];
}

/* ---- aligned ------------------------------------------------------------------------- */

static void put_n(FILE *out, char ch, int n)
{
    while (n-- > 0) fputc(ch, out);
}

void cli_print_widths(const cli_table_t *t, int *widths)
{
    int w, h;
    for (int c = 0; c < t->ncols; c++) {
        cli_print_cell_size(t->headers[c], t->encoding, &w, &h);
        if (w > widths[c]) widths[c] = w;
        for (long r = 0; r < t->nrows; r++) {
            cli_print_cell_size(cell(t, r, c), t->encoding, &w, &h);
            if (w > widths[c]) widths[c] = w;
        }
    }
}

static int total_width(const cli_table_t *t, const int *widths)
{
    int total = t->ncols > 0 ? t->ncols * 3 - 1 : 0;
    for (int c = 0; c < t->ncols; c++) total += widths[c];
    return total;
}

static void put_rule(FILE *out, const cli_table_t *t, const int *widths)
{
    fputc('-', out);
    for (int c = 0; c < t->ncols; c++) {
        put_n(out, '-', widths[c]);
        if (c < t->ncols - 1) fputs("-+-", out);
    }
    fputs("-\n", out);
}

static void put_title(FILE *out, const char *title, int encoding, int total)
{
    int w, h;
    cli_print_cell_size(title, encoding, &w, &h);
    if (w < total) put_n(out, ' ', (total - w) / 2);
    fprintf(out, "%s\n", title);
}

/* One display line of the (possibly multi-line) headers; returns columns
 * still unfinished. */
static int header_line(FILE *out, const cli_table_t *t, const int *widths, cellfmt_t *f, bool *done,
                       int line)
{
    int remaining = 0;
    for (int c = 0; c < t->ncols; c++) {
        fputc(' ', out);
        if (!done[c]) {
            int space = widths[c] - f[c].lines[line].width;
            put_n(out, ' ', space / 2);
            fputs(fmt_line(&f[c], line), out);
            put_n(out, ' ', (space + 1) / 2);
            if (line + 1 >= f[c].nlines) done[c] = true;
        } else {
            put_n(out, ' ', widths[c]);
        }
        fputc(done[c] ? ' ' : '+', out);
        if (!done[c]) remaining++;
        if (c < t->ncols - 1) fputc('|', out);
    }
    fputc('\n', out);
    return remaining;
}

void cli_print_aligned_header(FILE *out, const cli_table_t *t, const int *widths)
{
    cellfmt_t *f = fmts_new(t->ncols);
    bool *done = sl_xmalloc((size_t)(t->ncols + 1) * sizeof *done);
    for (int c = 0; c < t->ncols; c++) {
        cell_format(t->headers[c], t->encoding, &f[c]);
        done[c] = false;
    }
    for (int line = 0, remaining = t->ncols; remaining > 0; line++)
        remaining = header_line(out, t, widths, f, done, line);
    put_rule(out, t, widths);
    free(done);
    fmts_free(f, t->ncols);
}

/* One display line of a row; cur[] is each column's next line. Returns true
 * while some cell has lines left. */
static bool row_line(FILE *out, const cli_table_t *t, const int *widths, cellfmt_t *f, int *cur)
{
    bool more = false;
    for (int c = 0; c < t->ncols; c++) {
        bool last = c == t->ncols - 1;
        bool has = cur[c] < f[c].nlines;
        int chars = widths[c];
        fputc(' ', out);
        if (!has) {
            if (!last) put_n(out, ' ', widths[c]);
        } else {
            chars = f[c].lines[cur[c]].width;
            if (t->aligns[c] == 'r') put_n(out, ' ', widths[c] - chars);
            fputs(fmt_line(&f[c], cur[c]), out);
            cur[c]++;
        }
        bool nl = has && cur[c] < f[c].nlines;
        more |= nl;
        if (t->aligns[c] != 'r' && (!last || nl)) put_n(out, ' ', widths[c] - chars);
        if (nl) fputc('+', out);
        else if (!last) fputc(' ', out);
        if (!last) fputc('|', out);
    }
    fputc('\n', out);
    return more;
}

void cli_print_aligned_rows(FILE *out, const cli_table_t *t, const int *widths, long from, long to)
{
    cellfmt_t *f = fmts_new(t->ncols);
    int *cur = sl_xmalloc((size_t)(t->ncols + 1) * sizeof *cur);
    for (long r = from; r < to && !cli_cancel_pressed; r++) {
        for (int c = 0; c < t->ncols; c++) {
            cell_format(cell(t, r, c), t->encoding, &f[c]);
            cur[c] = 0;
        }
        while (row_line(out, t, widths, f, cur)) {
        }
    }
    free(cur);
    fmts_free(f, t->ncols);
}

void cli_print_footer(FILE *out, const cli_table_t *t, const cli_popt_t *opt, long count)
{
    if (!opt->tuples_only) {
        if (t->footers) {
            for (int i = 0; i < t->nfooters; i++) fprintf(out, "%s\n", t->footers[i]);
        } else if (opt->footer) {
            fprintf(out, count == 1 ? "(%ld row)\n" : "(%ld rows)\n", count);
        }
    }
    fputc('\n', out);
}

static void print_aligned(FILE *out, const cli_table_t *t, const cli_popt_t *opt, int *widths)
{
    if (t->title && !opt->tuples_only)
        put_title(out, t->title, t->encoding, total_width(t, widths));
    if (!opt->tuples_only) cli_print_aligned_header(out, t, widths);
    cli_print_aligned_rows(out, t, widths, 0, t->nrows);
    cli_print_footer(out, t, opt, t->nrows);
}

/* ---- expanded (aligned vertical) ----------------------------------------------------- */

/* "-[ RECORD n ]-----+------" sized to the header and data widths. */
static void record_line(FILE *out, long record, int hwidth, int dwidth)
{
    fputc('-', out);
    int reclen = record ? fprintf(out, "[ RECORD %ld ]", record) : 0;
    reclen++;
    for (int i = reclen; i < hwidth; i++) fputc('-', out);
    reclen -= hwidth;
    if (reclen-- <= 0) fputc('-', out);
    if (reclen-- <= 0) fputc('+', out);
    if (reclen-- <= 0) fputc('-', out);
    if (reclen < 0) reclen = 0;
    for (int i = reclen; i < dwidth; i++) fputc('-', out);
    fputc('\n', out);
}

typedef struct {
    int hwidth, dwidth; /* widest header, widest data line */
    bool dmultiline;    /* some cell has several lines: room for '+' */
} vert_dims_t;

static vert_dims_t vertical_dims(const cli_table_t *t, const cli_popt_t *opt)
{
    vert_dims_t d = {0, 0, false};
    int w, h;
    for (int c = 0; c < t->ncols; c++) {
        cli_print_cell_size(t->headers[c], t->encoding, &w, &h);
        if (w > d.hwidth) d.hwidth = w;
    }
    for (long i = 0; i < t->nrows * t->ncols; i++) {
        cli_print_cell_size(t->cells[i], t->encoding, &w, &h);
        if (w > d.dwidth) d.dwidth = w;
        if (h > 1) d.dmultiline = true;
    }
    (void)opt; /* psql widens the data column only in its wrapped format */
    return d;
}

/* One field of a record: header and data lines side by side. */
static void vertical_field(FILE *out, const vert_dims_t *d, cellfmt_t *hf, cellfmt_t *df)
{
    int hl = 0, dl = 0;
    bool hdone = false, ddone = false;
    while (!hdone || !ddone) {
        if (!hdone) {
            fputs(fmt_line(hf, hl), out);
            put_n(out, ' ', d->hwidth - hf->lines[hl].width);
            if (hl + 1 < hf->nlines) {
                fputc('+', out);
                hl++;
            } else {
                fputc(' ', out);
                hdone = true;
            }
        } else {
            put_n(out, ' ', d->hwidth + 1);
        }
        fputc('|', out);
        if (ddone) {
            fputc('\n', out);
            continue;
        }
        fputc(' ', out);
        fputs(fmt_line(df, dl), out);
        if (dl + 1 < df->nlines) {
            if (d->dmultiline) {
                put_n(out, ' ', d->dwidth - df->lines[dl].width);
                fputc('+', out);
            }
            dl++;
        } else {
            ddone = true;
        }
        fputc('\n', out);
    }
}

static void print_vertical(FILE *out, const cli_table_t *t, const cli_popt_t *opt)
{
    if (t->nrows == 0) {
        cli_print_footer(out, t, opt, 0);
        return;
    }
    vert_dims_t d = vertical_dims(t, opt);
    if (t->title && !opt->tuples_only) fprintf(out, "%s\n", t->title);
    cellfmt_t *f = fmts_new(2);
    for (long r = 0; r < t->nrows && !cli_cancel_pressed; r++) {
        if (!opt->tuples_only) record_line(out, t->prior_records + r + 1, d.hwidth, d.dwidth);
        else if (r > 0) record_line(out, 0, d.hwidth, d.dwidth);
        for (int c = 0; c < t->ncols; c++) {
            cell_format(t->headers[c], t->encoding, &f[0]);
            cell_format(cell(t, r, c), t->encoding, &f[1]);
            vertical_field(out, &d, &f[0], &f[1]);
        }
    }
    fmts_free(f, 2);
    if (!opt->tuples_only && t->footers) {
        fputc('\n', out);
        for (int i = 0; i < t->nfooters; i++) fprintf(out, "%s\n", t->footers[i]);
    }
    fputc('\n', out);
}

/* ---- unaligned and CSV --------------------------------------------------------------- */

static void print_unaligned(FILE *out, const cli_table_t *t, const cli_popt_t *opt)
{
    const char *fs = opt->fieldsep ? opt->fieldsep : "|";
    const char *rs = opt->recordsep ? opt->recordsep : "\n";
    bool need_rs = false;
    if (!opt->tuples_only && t->title) fprintf(out, "%s%s", t->title, rs);
    if (!opt->tuples_only) {
        for (int c = 0; c < t->ncols; c++) fprintf(out, "%s%s", c ? fs : "", t->headers[c]);
        need_rs = true;
    }
    for (long r = 0; r < t->nrows && !cli_cancel_pressed; r++) {
        if (need_rs) fputs(rs, out);
        for (int c = 0; c < t->ncols; c++) fprintf(out, "%s%s", c ? fs : "", cell(t, r, c));
        need_rs = true;
    }
    if (!opt->tuples_only && (t->footers || opt->footer)) {
        if (need_rs) fputs(rs, out);
        if (t->footers) {
            for (int i = 0; i < t->nfooters; i++)
                fprintf(out, "%s%s", t->footers[i], i < t->nfooters - 1 ? rs : "");
        } else {
            fprintf(out, t->nrows == 1 ? "(%ld row)" : "(%ld rows)", t->nrows);
        }
        need_rs = true;
    }
    if (need_rs) fputc('\n', out);
}

static void print_unaligned_vertical(FILE *out, const cli_table_t *t, const cli_popt_t *opt)
{
    const char *fs = opt->fieldsep ? opt->fieldsep : "|";
    const char *rs = opt->recordsep ? opt->recordsep : "\n";
    bool need_rs = false;
    if (!opt->tuples_only && t->title) {
        fputs(t->title, out);
        need_rs = true;
    }
    for (long r = 0; r < t->nrows && !cli_cancel_pressed; r++) {
        if (need_rs) fprintf(out, "%s%s", rs, rs);
        for (int c = 0; c < t->ncols; c++)
            fprintf(out, "%s%s%s%s", t->headers[c], fs, cell(t, r, c), c < t->ncols - 1 ? rs : "");
        need_rs = true;
    }
    if (!opt->tuples_only && t->footers) {
        fputs(rs, out);
        for (int i = 0; i < t->nfooters; i++) fprintf(out, "%s%s", rs, t->footers[i]);
    }
    if (need_rs) fputc('\n', out);
}

static void csv_field(FILE *out, const char *s)
{
    if (!strpbrk(s, ",\r\n\"") && strcmp(s, "\\.") != 0) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"') fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

static void print_csv(FILE *out, const cli_table_t *t, const cli_popt_t *opt)
{
    if (!opt->tuples_only && !opt->expanded) {
        for (int c = 0; c < t->ncols; c++) {
            if (c) fputc(',', out);
            csv_field(out, t->headers[c]);
        }
        fputc('\n', out);
    }
    for (long r = 0; r < t->nrows && !cli_cancel_pressed; r++)
        for (int c = 0; c < t->ncols; c++) {
            if (opt->expanded) {
                csv_field(out, t->headers[c]);
                fputc(',', out);
            }
            csv_field(out, cell(t, r, c));
            fputc(opt->expanded || c == t->ncols - 1 ? '\n' : ',', out);
        }
}

/* ---- dispatch ------------------------------------------------------------------------ */

int cli_print_term_columns(FILE *out, const cli_popt_t *opt)
{
    if (opt->columns > 0) return opt->columns;
    if (out != stdout || !isatty(fileno(stdout))) return 0;
    const char *env = getenv("COLUMNS");
    if (env && atoi(env) > 0) return atoi(env);
    struct winsize ws;
    if (ioctl(fileno(stdout), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
    return 0;
}

/* \x auto: expanded when the aligned table would not fit the terminal. */
static bool too_wide(FILE *out, const cli_table_t *t, const cli_popt_t *opt, const int *widths)
{
    int cols = cli_print_term_columns(out, opt);
    if (cols <= 0 || t->ncols < 2) return false;
    int header_total = t->ncols * 3 - 1, w, h;
    for (int c = 0; c < t->ncols; c++) {
        cli_print_cell_size(t->headers[c], t->encoding, &w, &h);
        header_total += w;
    }
    return cols < header_total || cols < total_width(t, widths);
}

void cli_print_table(FILE *out, const cli_table_t *t, const cli_popt_t *opt)
{
    if (opt->format == CLI_FMT_CSV) {
        print_csv(out, t, opt);
        return;
    }
    if (opt->format == CLI_FMT_UNALIGNED) {
        if (opt->expanded == 1) print_unaligned_vertical(out, t, opt);
        else print_unaligned(out, t, opt);
        return;
    }
    if (opt->expanded == 1) {
        print_vertical(out, t, opt);
        return;
    }
    int *widths = sl_xmalloc((size_t)(t->ncols + 1) * sizeof *widths);
    memset(widths, 0, (size_t)(t->ncols + 1) * sizeof *widths);
    cli_print_widths(t, widths);
    if (opt->expanded == 2 && too_wide(out, t, opt, widths)) print_vertical(out, t, opt);
    else print_aligned(out, t, opt, widths);
    free(widths);
}
