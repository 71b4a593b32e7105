/* clients/cli_stream.c — the streaming commands: listings over SHOW QUERIES
 * / STREAMS / TABLES (\dq \ds \dt), \d over DESCRIBE, \progress (SHOW
 * PROGRESS's StreamingQueryProgress JSON as a readable summary), \watch
 * (repeat a statement until Ctrl-C) and \tail (follow a memory sink: poll
 * SELECT * FROM q and print only the rows not printed yet; when the table is
 * rewritten — complete or update mode — print it again under a separator). */
#include "clients/cli_json.h"
#include "clients/cli_meta.h"
#include "clients/cli_print.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* ---- patterns ------------------------------------------------------------------------ */

/* psql-style name pattern: '*' any run, '?' one character; case-insensitive
 * unless the pattern is double-quoted. */
static bool wild_match(const char *pat, const char *s, bool fold)
{
    for (; *pat; pat++, s++) {
        if (*pat == '*') {
            for (const char *t = s;; t++) {
                if (wild_match(pat + 1, t, fold)) return true;
                if (!*t) return false;
            }
        }
        if (!*s) return false;
        if (*pat == '?') continue;
        char a = fold ? (char)tolower((unsigned char)*pat) : *pat;
        char b = fold ? (char)tolower((unsigned char)*s) : *s;
        if (a != b) return false;
    }
    return *s == '\0';
}

static bool name_matches(const char *pattern, const char *name)
{
    if (!pattern) return true;
    size_t n = strlen(pattern);
    if (n >= 2 && pattern[0] == '"' && pattern[n - 1] == '"') {
        char *inner = sl_xstrdup(pattern + 1);
        inner[n - 2] = '\0';
        bool m = wild_match(inner, name, false);
        free(inner);
        return m;
    }
    return wild_match(pattern, name, true);
}

/* ---- listings ------------------------------------------------------------------------ */

/* One column of a listing: the result column it shows and its header. */
typedef struct {
    const char *source; /* result column name */
    const char *header; /* header shown */
} list_col_t;

typedef struct {
    const char *sql;        /* statement producing the rows */
    const char *title;      /* table title */
    const char *what;       /* plural noun for "Did not find any ..." */
    const char *singular;   /* singular noun for the pattern message */
    const list_col_t *cols; /* shown columns (NULL: every column, headers prettified) */
    int ncols;
} listing_t;

static char *pretty_header(const char *name, sl_arena_t *a)
{
    char *h = sl_strndup(a, name, strlen(name));
    for (char *p = h; *p; p++)
        if (*p == '_') *p = ' ';
    h[0] = (char)toupper((unsigned char)h[0]);
    return h;
}

/* Result column numbers the listing shows (-1 when absent); returns count. */
static int map_columns(const listing_t *l, const PGresult *res, int *map, const char **headers,
                       sl_arena_t *a)
{
    if (!l->cols) {
        for (int c = 0; c < PQnfields(res); c++) {
            map[c] = c;
            headers[c] = pretty_header(PQfname(res, c), a);
        }
        return PQnfields(res);
    }
    for (int c = 0; c < l->ncols; c++) {
        map[c] = PQfnumber(res, l->cols[c].source);
        headers[c] = l->cols[c].header;
    }
    return l->ncols;
}

static bool numeric_type(Oid t)
{
    return t == 20 || t == 21 || t == 23 || t == 700 || t == 701 || t == 1700;
}

/* Rows of res whose "name" matches pattern, as a table of the mapped columns. */
static void build_listing(cli_t *cli, const listing_t *l, const PGresult *res, const char *pattern,
                          cli_table_t *t, sl_arena_t *a)
{
    int nf = PQnfields(res) > l->ncols ? PQnfields(res) : l->ncols;
    int *map = sl_alloc0(a, (size_t)(nf + 1) * sizeof *map);
    const char **headers = sl_alloc0(a, (size_t)(nf + 1) * sizeof *headers);
    int ncols = map_columns(l, res, map, headers, a);
    int name_col = PQfnumber(res, "name");
    long keep = 0;
    for (int r = 0; r < PQntuples(res); r++)
        if (name_col < 0 || name_matches(pattern, PQgetvalue(res, r, name_col))) keep++;
    cli_table_init(t, ncols, keep, PQclientEncoding(cli->conn), a);
    char *aligns = (char *)t->aligns;
    for (int c = 0; c < ncols; c++) {
        t->headers[c] = headers[c];
        aligns[c] = map[c] >= 0 && numeric_type(PQftype(res, map[c])) ? 'r' : 'l';
    }
    const char *null_display = cli->popt.null_display ? cli->popt.null_display : "";
    long row = 0;
    for (int r = 0; r < PQntuples(res); r++) {
        if (name_col >= 0 && !name_matches(pattern, PQgetvalue(res, r, name_col))) continue;
        for (int c = 0; c < ncols; c++)
            if (map[c] >= 0)
                t->cells[row * ncols + c] =
                    PQgetisnull(res, r, map[c]) ? null_display : PQgetvalue(res, r, map[c]);
        row++;
    }
    t->title = l->title;
}

static cli_cmd_result_t run_listing(cli_cmdctx_t *ctx, const listing_t *l)
{
    cli_t *cli = ctx->cli;
    char *pattern = cli_meta_arg(ctx);
    PGresult *res = cli_exec_internal(cli, l->sql, NULL);
    if (!res) {
        free(pattern);
        return cli_cancel_pressed ? CLI_CMD_SKIP_LINE : CLI_CMD_ERROR;
    }
    sl_arena_t *a = sl_arena_new("cli");
    cli_table_t t;
    build_listing(cli, l, res, pattern, &t, a);
    if (t.nrows == 0 && !cli_vars_bool(&cli->vars, "QUIET", false)) {
        if (pattern)
            cli_log(CLI_LOG_ERROR, "Did not find any %s named \"%s\".", l->singular, pattern);
        else cli_log(CLI_LOG_ERROR, "Did not find any %s.", l->what);
    } else {
        cli_print_table(cli->out, &t, &cli->popt);
        fflush(cli->out);
    }
    sl_arena_free(a);
    PQclear(res);
    free(pattern);
    return CLI_CMD_SKIP_LINE;
}

static const list_col_t query_cols[] = {
    {"name", "Name"},
    {"status", "Status"},
    {"batch", "Batch"},
    {"input_rows_per_second", "Input rows/s"},
    {"processed_rows_per_second", "Processed rows/s"},
    {"watermark", "Watermark"},
    {"last_error", "Last error"},
    {"id", "Id"},
};

cli_cmd_result_t cli_stream_dq(cli_cmdctx_t *ctx)
{
    bool plus = ctx->name[strlen(ctx->name) - 1] == '+';
    listing_t l = {"SHOW QUERIES", "List of queries", "queries", "query", query_cols, plus ? 8 : 7};
    return run_listing(ctx, &l);
}

cli_cmd_result_t cli_stream_ds(cli_cmdctx_t *ctx)
{
    listing_t l = {"SHOW STREAMS", "List of streams", "streams", "stream", NULL, 0};
    return run_listing(ctx, &l);
}

cli_cmd_result_t cli_stream_dt(cli_cmdctx_t *ctx)
{
    listing_t l = {"SHOW TABLES", "List of tables", "tables", "table", NULL, 0};
    return run_listing(ctx, &l);
}

/* ---- \d ------------------------------------------------------------------------------ */

/* Names and kinds of every stream, table and query. */
typedef struct {
    const char **names; /* object names (arena strings) */
    const char **kinds; /* "stream", "table" or "query" */
    long n;             /* entries */
} relations_t;

/* Adds the "name" column of one listing statement; false when it failed. */
static bool add_relations(cli_t *cli, const char *sql, const char *kind, relations_t *rel,
                          sl_arena_t *a)
{
    PGresult *res = cli_exec_internal(cli, sql, NULL);
    if (!res) return false;
    int col = PQfnumber(res, "name");
    size_t cap = (size_t)(rel->n + PQntuples(res) + 1);
    rel->names = sl_xrealloc(rel->names, cap * sizeof *rel->names);
    rel->kinds = sl_xrealloc(rel->kinds, cap * sizeof *rel->kinds);
    for (int r = 0; col >= 0 && r < PQntuples(res); r++, rel->n++) {
        const char *v = PQgetvalue(res, r, col);
        rel->names[rel->n] = sl_strndup(a, v, strlen(v));
        rel->kinds[rel->n] = kind;
    }
    PQclear(res);
    return true;
}

static void print_relations(cli_t *cli, const relations_t *rel, sl_arena_t *a)
{
    cli_table_t t;
    cli_table_init(&t, 2, rel->n, PQclientEncoding(cli->conn), a);
    t.headers[0] = "Name";
    t.headers[1] = "Type";
    t.title = "List of relations";
    for (long r = 0; r < rel->n; r++) {
        t.cells[r * 2] = rel->names[r];
        t.cells[r * 2 + 1] = rel->kinds[r];
    }
    cli_print_table(cli->out, &t, &cli->popt);
    fflush(cli->out);
}

/* \d without a name: every stream, table and query. */
static cli_cmd_result_t list_relations(cli_cmdctx_t *ctx)
{
    cli_t *cli = ctx->cli;
    sl_arena_t *a = sl_arena_new("cli");
    relations_t rel = {NULL, NULL, 0};
    bool ok = add_relations(cli, "SHOW STREAMS", "stream", &rel, a) &&
              add_relations(cli, "SHOW TABLES", "table", &rel, a) &&
              add_relations(cli, "SHOW QUERIES", "query", &rel, a);
    if (ok && rel.n == 0) cli_log(CLI_LOG_ERROR, "Did not find any relations.");
    else if (ok) print_relations(cli, &rel, a);
    free(rel.names);
    free(rel.kinds);
    sl_arena_free(a);
    return ok || cli_cancel_pressed ? CLI_CMD_SKIP_LINE : CLI_CMD_ERROR;
}

/* Footer lines of a described object, from DESCRIBE's "# Detailed
 * Information" rows (col_name = key, data_type = value, comment = more). */
static void describe_footers(const PGresult *res, int from, sl_buf_t *lines, int *nlines,
                             const char **kind, const char **name)
{
    const char *group = NULL;
    for (int r = from; r < PQntuples(res); r++) {
        const char *key = PQgetvalue(res, r, 0), *value = PQgetvalue(res, r, 1);
        const char *more = PQnfields(res) > 2 ? PQgetvalue(res, r, 2) : "";
        if (!strcmp(key, "Kind")) *kind = value;
        if (!strcmp(key, "Name")) *name = value;
        if (!strcmp(key, "Kind") || !strcmp(key, "Name") || !*key) continue;
        bool multi = !strcmp(key, "Plan") || !strcmp(key, "Option") || !strcmp(key, "Definition");
        if (multi && (!group || strcmp(group, key))) {
            sl_buf_printf(lines, "%s:", !strcmp(key, "Option") ? "Options" : key);
            sl_buf_putc(lines, '\0');
            (*nlines)++;
            group = key;
        }
        if (multi) sl_buf_printf(lines, "    %s%s%s", value, *more ? " = " : "", more);
        else sl_buf_printf(lines, "%s: %s%s%s", key, value, *more ? " " : "", more);
        sl_buf_putc(lines, '\0');
        (*nlines)++;
    }
}

/* DESCRIBE's rows as psql's \d would show them: a title, the columns, then
 * the details as footer lines. */
static void print_described(cli_t *cli, const PGresult *res, int split, const char *arg)
{
    sl_arena_t *a = sl_arena_new("cli");
    sl_buf_t lines = {0};
    int nlines = 0;
    const char *kind = "Relation", *name = arg;
    describe_footers(res, split + 1, &lines, &nlines, &kind, &name);
    int ncols = split;
    while (ncols > 0 && !*PQgetvalue(res, ncols - 1, 0)) ncols--;
    cli_table_t t;
    cli_table_init(&t, 2, ncols, PQclientEncoding(cli->conn), a);
    t.headers[0] = "Column";
    t.headers[1] = "Type";
    for (int r = 0; r < ncols; r++) {
        t.cells[r * 2] = PQgetvalue(res, r, 0);
        t.cells[r * 2 + 1] = PQgetvalue(res, r, 1);
    }
    const char **footers = sl_alloc0(a, (size_t)(nlines + 1) * sizeof *footers);
    const char *p = lines.data;
    for (int i = 0; i < nlines; i++, p += strlen(p) + 1) footers[i] = p;
    char *title = sl_alloc0(a, strlen(kind) + strlen(name) + 8);
    sprintf(title, "%c%s \"%s\"", toupper((unsigned char)kind[0]), kind + 1, name);
    t.title = title;
    t.footers = footers;
    t.nfooters = nlines;
    cli_print_table(cli->out, &t, &cli->popt);
    fflush(cli->out);
    sl_buf_free(&lines);
    sl_arena_free(a);
}

/* Row of DESCRIBE's "# Detailed Information" marker, or -1. */
static int detail_row(const PGresult *res)
{
    if (PQnfields(res) < 2) return -1;
    for (int r = 0; r < PQntuples(res); r++)
        if (!strncmp(PQgetvalue(res, r, 0), "# Detailed", 10)) return r;
    return -1;
}

cli_cmd_result_t cli_stream_describe(cli_cmdctx_t *ctx)
{
    cli_t *cli = ctx->cli;
    char *name = cli_meta_arg(ctx);
    if (!name) return list_relations(ctx);
    sl_buf_t sql = {0};
    sl_buf_printf(&sql, "DESCRIBE %s", name);
    PGresult *res = cli_exec_internal(cli, sql.data, "42P01");
    sl_buf_free(&sql);
    if (!res) {
        const char *state = cli_vars_get(&cli->vars, "LAST_ERROR_SQLSTATE");
        if (!cli_cancel_pressed && state && !strcmp(state, "42P01") &&
            !cli_vars_bool(&cli->vars, "QUIET", false))
            cli_log(CLI_LOG_ERROR, "Did not find any relation named \"%s\".", name);
        free(name);
        return cli_cancel_pressed ? CLI_CMD_SKIP_LINE : CLI_CMD_ERROR;
    }
    bool plus = ctx->name[strlen(ctx->name) - 1] == '+';
    int split = detail_row(res);
    if (split < 0 || plus) cli_print_result(cli, res, NULL);
    else print_described(cli, res, split, name);
    PQclear(res);
    free(name);
    return CLI_CMD_SKIP_LINE;
}

/* ---- \progress ----------------------------------------------------------------------- */

/* psql's pg_size_pretty units. */
static void pretty_bytes(double bytes, char *out, size_t n)
{
    static const char *const units[] = {"bytes", "kB", "MB", "GB", "TB"};
    int u = 0;
    while (u < 4 && bytes >= 10240) bytes /= 1024, u++;
    snprintf(out, n, "%.0f %s", bytes, units[u]);
}

/* A JSON value as shown in the summary: strings bare, the rest as sent. */
static void put_value(FILE *out, const cli_json_t *v)
{
    if (!v) fputs("-", out);
    else if (v->type == CLI_JSON_STRING) fputs(v->str, out);
    else fwrite(v->raw, 1, v->raw_len, out);
}

static void put_rate(FILE *out, const cli_json_t *obj, const char *key)
{
    const cli_json_t *v = cli_json_get(obj, key);
    if (v && v->type == CLI_JSON_NUMBER) fprintf(out, "%.1f", v->num);
    else put_value(out, v);
}

static void progress_head(FILE *out, const cli_json_t *p)
{
    const char *name = cli_json_str(p, "name");
    fprintf(out, "Query %s (id %s, run %s)\n", name ? name : "?",
            cli_json_str(p, "id") ? cli_json_str(p, "id") : "?",
            cli_json_str(p, "runId") ? cli_json_str(p, "runId") : "?");
    fprintf(out, "%-13s", "Batch:");
    put_value(out, cli_json_get(p, "batchId"));
    fprintf(out, " at ");
    put_value(out, cli_json_get(p, "timestamp"));
    fputc('\n', out);
    fprintf(out, "%-13s%.0f rows, ", "Input:", cli_json_num(p, "numInputRows", 0));
    put_rate(out, p, "inputRowsPerSecond");
    fputs(" rows/s in, ", out);
    put_rate(out, p, "processedRowsPerSecond");
    fputs(" rows/s processed\n", out);
}

static void progress_durations(FILE *out, const cli_json_t *p)
{
    const cli_json_t *d = cli_json_get(p, "durationMs");
    fprintf(out, "%-13s", "Duration:");
    const cli_json_t *total = cli_json_get(d, "triggerExecution");
    if (total) {
        put_value(out, total);
        fputs(" ms", out);
    } else {
        put_value(out, cli_json_get(p, "batchDuration"));
        fputs(" ms", out);
    }
    int n = 0;
    for (const cli_json_t *m = d ? d->child : NULL; m; m = m->next) {
        if (!strcmp(m->key, "triggerExecution")) continue;
        fprintf(out, "%s%s ", n++ ? ", " : " (", m->key);
        put_value(out, m);
    }
    fputs(n ? ")\n" : "\n", out);
}

static void progress_event_time(FILE *out, const cli_json_t *p)
{
    const cli_json_t *e = cli_json_get(p, "eventTime");
    const char *wm = cli_json_str(e, "watermark");
    fprintf(out, "%-13s%s\n", "Watermark:", wm ? wm : "none");
    if (!cli_json_get(e, "min") && !cli_json_get(e, "max")) return;
    fprintf(out, "%-13smin ", "Event time:");
    put_value(out, cli_json_get(e, "min"));
    fputs(", avg ", out);
    put_value(out, cli_json_get(e, "avg"));
    fputs(", max ", out);
    put_value(out, cli_json_get(e, "max"));
    fputc('\n', out);
}

static void progress_state(FILE *out, const cli_json_t *p)
{
    const cli_json_t *ops = cli_json_get(p, "stateOperators");
    if (!ops || ops->count == 0) {
        fprintf(out, "%-13snone\n", "State:");
        return;
    }
    for (const cli_json_t *op = ops->child; op; op = op->next) {
        char mem[64];
        pretty_bytes(cli_json_num(op, "memoryUsedBytes", 0), mem, sizeof mem);
        const char *name = cli_json_str(op, "operatorName");
        fprintf(out,
                "%-13s%s: %.0f rows (%.0f updated, %.0f removed, %.0f dropped by watermark), "
                "%s memory, %.0f store instances\n",
                op == ops->child ? "State:" : "", name ? name : "operator",
                cli_json_num(op, "numRowsTotal", 0), cli_json_num(op, "numRowsUpdated", 0),
                cli_json_num(op, "numRowsRemoved", 0),
                cli_json_num(op, "numRowsDroppedByWatermark", 0), mem,
                cli_json_num(op, "numStateStoreInstances", 0));
    }
}

static void progress_sources(FILE *out, const cli_json_t *p)
{
    const cli_json_t *sources = cli_json_get(p, "sources");
    for (const cli_json_t *s = sources ? sources->child : NULL; s; s = s->next) {
        const char *desc = cli_json_str(s, "description");
        fprintf(out, "%-13s%s\n", s == sources->child ? "Source:" : "", desc ? desc : "?");
        fprintf(out, "%-13soffsets ", "");
        put_value(out, cli_json_get(s, "startOffset"));
        fputs(" -> ", out);
        put_value(out, cli_json_get(s, "endOffset"));
        fputs(" (latest ", out);
        put_value(out, cli_json_get(s, "latestOffset"));
        fprintf(out, "), %.0f rows, ", cli_json_num(s, "numInputRows", 0));
        put_rate(out, s, "inputRowsPerSecond");
        fputs(" rows/s in, ", out);
        put_rate(out, s, "processedRowsPerSecond");
        fputs(" rows/s processed\n", out);
    }
}

static void progress_sink(FILE *out, const cli_json_t *p)
{
    const cli_json_t *sink = cli_json_get(p, "sink");
    const char *desc = cli_json_str(sink, "description");
    double rows = cli_json_num(sink, "numOutputRows", -1);
    fprintf(out, "%-13s%s", "Sink:", desc ? desc : "?");
    if (rows >= 0) fprintf(out, ", %.0f rows written", rows);
    fputc('\n', out);
}

/* Prints the summary of one StreamingQueryProgress document. */
static bool print_progress(FILE *out, const char *json)
{
    sl_arena_t *a = sl_arena_new("cli");
    char err[128];
    cli_json_t *p = cli_json_parse(json, a, err, sizeof err);
    if (!p || p->type != CLI_JSON_OBJECT) {
        cli_log(CLI_LOG_ERROR, "\\progress: could not read the progress report: %s",
                p ? "not an object" : err);
        sl_arena_free(a);
        return false;
    }
    progress_head(out, p);
    progress_durations(out, p);
    progress_event_time(out, p);
    progress_state(out, p);
    progress_sources(out, p);
    progress_sink(out, p);
    fputc('\n', out);
    fflush(out);
    sl_arena_free(a);
    return true;
}

cli_cmd_result_t cli_stream_progress(cli_cmdctx_t *ctx)
{
    char *name = cli_meta_arg(ctx);
    if (!name) {
        cli_log(CLI_LOG_ERROR, "\\progress: missing required argument");
        return CLI_CMD_ERROR;
    }
    sl_buf_t sql = {0};
    sl_buf_printf(&sql, "SHOW PROGRESS %s", name);
    PGresult *res = cli_exec_internal(ctx->cli, sql.data, NULL);
    sl_buf_free(&sql);
    bool ok = res != NULL;
    if (res && (PQntuples(res) == 0 || PQnfields(res) < 1 || PQgetisnull(res, 0, 0)))
        printf("No progress reported for query \"%s\" yet.\n", name);
    else if (res) ok = print_progress(ctx->cli->out, PQgetvalue(res, 0, 0));
    PQclear(res);
    free(name);
    return ok || cli_cancel_pressed ? CLI_CMD_SKIP_LINE : CLI_CMD_ERROR;
}

/* ---- \watch -------------------------------------------------------------------------- */

/* Parses \watch arguments: [SEC] [i=SEC] [c=N]. */
static bool watch_args(cli_cmdctx_t *ctx, double *interval, long *count)
{
    char *arg;
    bool ok = true;
    while (ok && (arg = cli_meta_arg(ctx)) != NULL) {
        const char *v = arg;
        bool is_count = false;
        if (!strncmp(arg, "c=", 2) || !strncmp(arg, "count=", 6)) {
            is_count = true;
            v = strchr(arg, '=') + 1;
        } else if (!strncmp(arg, "i=", 2) || !strncmp(arg, "interval=", 9)) {
            v = strchr(arg, '=') + 1;
        }
        char *end;
        double d = strtod(v, &end);
        if (!*v || *end || d < 0 || (is_count && d < 1)) {
            cli_log(CLI_LOG_ERROR, "\\watch: incorrect %s value \"%s\"",
                    is_count ? "count" : "interval", v);
            ok = false;
        } else if (is_count) {
            *count = (long)d;
        } else {
            *interval = d;
        }
        free(arg);
    }
    return ok;
}

/* One execution under \watch; false when it failed or was cancelled. */
static bool watch_once(cli_t *cli, const char *query, double interval)
{
    char when[128], title[512];
    time_t now = time(NULL);
    strftime(when, sizeof when, "%c", localtime(&now));
    if (cli->popt.title)
        snprintf(title, sizeof title, "%s\t%s (every %gs)\n", cli->popt.title, when, interval);
    else snprintf(title, sizeof title, "%s (every %gs)\n", when, interval);
    double start = cli_now_ms();
    PGresult *res = cli_exec_repeat(cli, query);
    double ms = cli_now_ms() - start;
    if (!res) return false;
    if (PQresultStatus(res) == PGRES_TUPLES_OK) cli_print_result(cli, res, title);
    else fprintf(cli->out, "%s\n%s\n\n", title, PQcmdStatus(res));
    fflush(cli->out);
    PQclear(res);
    if (cli->timing) cli_exec_print_timing(ms);
    return true;
}

cli_cmd_result_t cli_stream_watch(cli_cmdctx_t *ctx)
{
    cli_t *cli = ctx->cli;
    double interval = 2;
    long count = 0;
    if (!watch_args(ctx, &interval, &count)) return CLI_CMD_ERROR;
    char *query = sl_xstrdup(cli_meta_current_query(ctx));
    if (!*query) {
        cli_log(CLI_LOG_ERROR, "\\watch cannot be used with an empty query");
        free(query);
        return CLI_CMD_ERROR;
    }
    bool ok = true;
    for (long done = 0;;) {
        ok = watch_once(cli, query, interval);
        if (!ok || (count && ++done >= count)) break;
        if (cli_signal_sleep((long)(interval * 1000))) break;
    }
    if (cli_cancel_pressed) ok = true;
    cli_cancel_pressed = 0;
    sl_buf_clear(&cli->last_query);
    sl_buf_puts(&cli->last_query, query);
    sl_buf_clear(ctx->query);
    cli_lex_reset(ctx->lx);
    free(query);
    return ok ? CLI_CMD_SKIP_LINE : CLI_CMD_ERROR;
}

/* ---- \tail --------------------------------------------------------------------------- */

/* What \tail has shown so far. */
typedef struct {
    long printed;     /* rows printed since the last (re)print of the table */
    uint64_t *hashes; /* fingerprint of each printed row */
    long cap;         /* entries allocated in hashes */
    int *widths;      /* aligned column widths in use */
    int ncols;        /* columns of the table being followed, -1 before the first poll */
} tail_t;

static uint64_t row_hash(const PGresult *res, int r)
{
    uint64_t h = 1469598103934665603ULL;
    for (int c = 0; c < PQnfields(res); c++) {
        const unsigned char *s = (const unsigned char *)PQgetvalue(res, r, c);
        h = (h ^ (uint64_t)(PQgetisnull(res, r, c) ? 1 : 2)) * 1099511628211ULL;
        for (; *s; s++) h = (h ^ *s) * 1099511628211ULL;
        h = (h ^ 0xff) * 1099511628211ULL;
    }
    return h;
}

/* True when the first tail->printed rows of res are the rows printed. */
static bool same_prefix(const tail_t *tail, const PGresult *res)
{
    if (PQntuples(res) < tail->printed || PQnfields(res) != tail->ncols) return false;
    for (long r = 0; r < tail->printed; r++)
        if (row_hash(res, (int)r) != tail->hashes[r]) return false;
    return true;
}

static void remember_rows(tail_t *tail, const PGresult *res)
{
    long n = PQntuples(res);
    if (n > tail->cap) {
        tail->cap = n * 2;
        tail->hashes = sl_xrealloc(tail->hashes, (size_t)tail->cap * sizeof *tail->hashes);
    }
    for (long r = tail->printed; r < n; r++) tail->hashes[r] = row_hash(res, (int)r);
    tail->printed = n;
}

static void tail_unaligned_rows(cli_t *cli, const cli_table_t *t, long from)
{
    const char *fs = cli->popt.fieldsep ? cli->popt.fieldsep : "|";
    for (long r = from; r < t->nrows; r++) {
        for (int c = 0; c < t->ncols; c++)
            fprintf(cli->out, "%s%s", c ? fs : "", t->cells[r * t->ncols + c]);
        fputc('\n', cli->out);
    }
}

static void tail_header(cli_t *cli, const cli_table_t *t, tail_t *tail)
{
    if (cli->popt.tuples_only) return;
    if (cli->popt.format != CLI_FMT_ALIGNED) {
        const char *fs = cli->popt.fieldsep ? cli->popt.fieldsep : "|";
        for (int c = 0; c < t->ncols; c++) fprintf(cli->out, "%s%s", c ? fs : "", t->headers[c]);
        fputc('\n', cli->out);
        return;
    }
    cli_print_aligned_header(cli->out, t, tail->widths);
}

/* Starts (or restarts) the display with res's columns. */
static void tail_restart(cli_t *cli, tail_t *tail, const char *name, const cli_table_t *t)
{
    if (tail->ncols >= 0) {
        char when[64];
        time_t now = time(NULL);
        strftime(when, sizeof when, "%H:%M:%S", localtime(&now));
        fprintf(cli->out, "-- %s: %s rewritten, now %ld rows --\n", when, name, t->nrows);
    }
    free(tail->widths);
    tail->ncols = t->ncols;
    tail->widths = sl_xmalloc((size_t)(t->ncols + 1) * sizeof *tail->widths);
    memset(tail->widths, 0, (size_t)(t->ncols + 1) * sizeof *tail->widths);
    tail->printed = 0;
    cli_print_widths(t, tail->widths);
    tail_header(cli, t, tail);
}

/* Prints what one poll found. */
static void tail_show(cli_t *cli, tail_t *tail, const char *name, const PGresult *res)
{
    sl_arena_t *a = sl_arena_new("cli");
    cli_table_t t;
    cli_table_from_result(&t, res, &cli->popt, PQclientEncoding(cli->conn), a);
    if (tail->ncols < 0 || !same_prefix(tail, res)) tail_restart(cli, tail, name, &t);
    long from = tail->printed;
    if (cli->popt.format == CLI_FMT_ALIGNED) {
        cli_table_t fresh = t;
        fresh.cells = t.cells + from * t.ncols;
        fresh.nrows = t.nrows - from;
        cli_print_widths(&fresh, tail->widths);
        cli_print_aligned_rows(cli->out, &t, tail->widths, from, t.nrows);
    } else {
        tail_unaligned_rows(cli, &t, from);
    }
    fflush(cli->out);
    remember_rows(tail, res);
    sl_arena_free(a);
}

static bool tail_args(cli_cmdctx_t *ctx, char **name, double *interval)
{
    *name = cli_meta_arg(ctx);
    if (!*name) {
        cli_log(CLI_LOG_ERROR, "\\tail: missing required argument");
        return false;
    }
    char *sec = cli_meta_arg(ctx);
    if (sec) {
        char *end;
        *interval = strtod(sec, &end);
        if (!*sec || *end || *interval <= 0) {
            cli_log(CLI_LOG_ERROR, "\\tail: incorrect interval value \"%s\"", sec);
            free(sec);
            free(*name);
            return false;
        }
        free(sec);
    }
    return true;
}

cli_cmd_result_t cli_stream_tail(cli_cmdctx_t *ctx)
{
    cli_t *cli = ctx->cli;
    char *name;
    double interval = 0.5;
    if (!tail_args(ctx, &name, &interval)) return CLI_CMD_ERROR;
    sl_buf_t sql = {0};
    sl_buf_printf(&sql, "SELECT * FROM %s", name);
    tail_t tail = {.ncols = -1};
    bool ok = true;
    for (;;) {
        PGresult *res = cli_exec_internal(cli, sql.data, NULL);
        if (!res) {
            ok = cli_cancel_pressed != 0;
            break;
        }
        if (PQresultStatus(res) == PGRES_TUPLES_OK) tail_show(cli, &tail, name, res);
        PQclear(res);
        if (cli_signal_sleep((long)(interval * 1000))) break;
    }
    /* after the terminal's "^C", start the footer on a line of its own */
    if (cli_cancel_pressed && cli->out == stdout && cli->interactive) fputc('\n', cli->out);
    if (tail.ncols >= 0 && !cli->popt.tuples_only)
        fprintf(cli->out, tail.printed == 1 ? "(%ld row)\n\n" : "(%ld rows)\n\n", tail.printed);
    fflush(cli->out);
    cli_cancel_pressed = 0;
    free(tail.hashes);
    free(tail.widths);
    sl_buf_free(&sql);
    free(name);
    return ok ? CLI_CMD_SKIP_LINE : CLI_CMD_ERROR;
}
