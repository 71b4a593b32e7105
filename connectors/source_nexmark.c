/* The nexmark source: one of the Nexmark benchmark's three streams (option
 * `table`: person, auction or bid) from the generator in nexmark_gen.h.
 *
 * The offset is the next event number (a bare number); batch (start, end]
 * covers events start .. end-1, of which this stream emits those of its
 * kind (the numbers of the other kinds are skipped, so three streams with
 * the same seed and rate see one consistent auction site). Events become
 * available as their event time passes: event n at base + n /
 * eventsPerSecond, where base is the query's start time, persisted in the
 * source's checkpoint directory at first use (`<dir>/0`, as the rate
 * source) so a replay regenerates the same rows. maxEvents > 0 ends the
 * stream there. Splits are ranges of event numbers. */
#include <string.h>
#include <strings.h>

#include "connectors/conn_int.h"
#include "connectors/nexmark_gen.h"

/* Fields of the three tables, in conn_nexmark_schema() order. */
typedef enum {
    F_ID,
    F_NAME,
    F_EMAIL,
    F_CARD,
    F_CITY,
    F_STATE,
    F_DATE_TIME,
    F_EXTRA, /* person */
    F_ITEM_NAME,
    F_DESCRIPTION,
    F_INITIAL_BID,
    F_RESERVE,
    F_EXPIRES,
    F_SELLER,
    F_CATEGORY,
    F_AUCTION,
    F_BIDDER,
    F_PRICE,
    F_CHANNEL,
    F_URL
} nx_field_t;

typedef struct nx_column {
    const char *name;
    exec_type_id_t type;
    nx_field_t field;
} nx_column_t;

#define TS EXEC_TYPE_TIMESTAMP
#define BI EXEC_TYPE_BIGINT
#define ST EXEC_TYPE_STRING
static const nx_column_t person_cols[] = {{"id", BI, F_ID},
                                          {"name", ST, F_NAME},
                                          {"email_address", ST, F_EMAIL},
                                          {"credit_card", ST, F_CARD},
                                          {"city", ST, F_CITY},
                                          {"state", ST, F_STATE},
                                          {"date_time", TS, F_DATE_TIME},
                                          {"extra", ST, F_EXTRA},
                                          {NULL, 0, 0}};
static const nx_column_t auction_cols[] = {{"id", BI, F_ID},
                                           {"item_name", ST, F_ITEM_NAME},
                                           {"description", ST, F_DESCRIPTION},
                                           {"initial_bid", BI, F_INITIAL_BID},
                                           {"reserve", BI, F_RESERVE},
                                           {"date_time", TS, F_DATE_TIME},
                                           {"expires", TS, F_EXPIRES},
                                           {"seller", BI, F_SELLER},
                                           {"category", BI, F_CATEGORY},
                                           {"extra", ST, F_EXTRA},
                                           {NULL, 0, 0}};
static const nx_column_t bid_cols[] = {{"auction", BI, F_AUCTION}, {"bidder", BI, F_BIDDER},
                                       {"price", BI, F_PRICE},     {"channel", ST, F_CHANNEL},
                                       {"url", ST, F_URL},         {"date_time", TS, F_DATE_TIME},
                                       {"extra", ST, F_EXTRA},     {NULL, 0, 0}};
#undef TS
#undef BI
#undef ST

static const char *const TABLES[] = {"person", "auction", "bid", NULL};
static const nx_column_t *const TABLE_COLS[] = {person_cols, auction_cols, bid_cols};

/* Events per split (about this many rows for bids). */
#define NX_SPLIT_EVENTS 200000
#define NX_MAX_SPLITS 16

typedef struct nx_src {
    nexmark_config_t cfg; /* base_ms valid once started */
    nexmark_kind_t kind;
    int64_t max_events; /* 0: unbounded */
    bool started;
    int64_t avail_now;  /* AVAILABLE NOW cap, else -1 */
    nx_field_t *fields; /* per stream column */
} nx_src_t;

typedef struct nx_split {
    int64_t lo, hi; /* events lo .. hi-1 */
} nx_split_t;

static int nx_options(const conn_stream_t *rel, nx_src_t *x, sl_error_t *err)
{
    const conn_desc_t *d = rel->connector;
    int table = 0;
    int64_t seed = 0;
    x->cfg.events_per_sec = 10000;
    x->max_events = 0;
    if (conn_opt_choice(d, rel->opts, rel->nopts, "table", TABLES, &table, err) < 0 ||
        conn_opt_int64(d, rel->opts, rel->nopts, "eventsPerSecond", 1, INT64_C(1000000000000),
                       &x->cfg.events_per_sec, err) < 0 ||
        conn_opt_int64(d, rel->opts, rel->nopts, "maxEvents", 0, INT64_MAX / 2, &x->max_events,
                       err) < 0 ||
        conn_opt_int64(d, rel->opts, rel->nopts, "seed", INT64_MIN, INT64_MAX, &seed, err) < 0)
        return -1;
    x->kind = (nexmark_kind_t)table;
    x->cfg.seed = (uint64_t)seed;
    return 0;
}

/* Maps each stream column to a generator field by name, checking its type. */
static int nx_columns(const conn_stream_t *rel, nx_src_t *x, sl_arena_t *a, sl_error_t *err)
{
    const nx_column_t *cols = TABLE_COLS[x->kind];
    x->fields = SL_NEW_ARRAY(a, nx_field_t, rel->ncols ? rel->ncols : 1);
    for (int i = 0; i < rel->ncols; i++) {
        const nx_column_t *c = cols;
        while (c->name && strcasecmp(c->name, rel->col_names[i])) c++;
        if (!c->name) {
            sl_error_set(err, SL_ERR_INVALID_OBJECT_DEFINITION,
                         "the nexmark %s table has no column \"%s\"", TABLES[x->kind],
                         rel->col_names[i]);
            return sl_error_hint(err, "Its columns are: %s.", conn_nexmark_schema(TABLES[x->kind]));
        }
        int idx;
        if (conn_stream_column(rel, c->name, c->type, &idx, err) < 0) return -1;
        x->fields[i] = c->field;
    }
    return 0;
}

int source_nexmark_validate(const conn_stream_t *rel, sl_error_t *err)
{
    nx_src_t x;
    if (nx_options(rel, &x, err) < 0) return -1;
    sl_arena_t *tmp = sl_arena_new("nexmark check");
    int rc = nx_columns(rel, &x, tmp, err);
    sl_arena_free(tmp);
    return rc;
}

static int nx_start(source_t *s, sl_error_t *err)
{
    nx_src_t *x = s->impl;
    if (x->started) return 0;
    if (conn_start_time(s->dir, s->now_ms(), &x->cfg.base_ms, err) < 0) return -1;
    x->started = true;
    return 0;
}

static int nx_initial(source_t *s, sl_arena_t *a, const char **out, sl_error_t *err)
{
    if (nx_start(s, err) < 0) return -1;
    *out = conn_offset_long(a, 0);
    return 0;
}

/* Events whose time has passed (capped by maxEvents and AVAILABLE NOW). */
static int64_t nx_available(source_t *s)
{
    nx_src_t *x = s->impl;
    int64_t elapsed = s->now_ms() - x->cfg.base_ms;
    int64_t n = elapsed <= 0 ? 0 : (int64_t)((__int128)elapsed * x->cfg.events_per_sec / 1000);
    if (x->max_events && n > x->max_events) n = x->max_events;
    if (x->avail_now >= 0 && n > x->avail_now) n = x->avail_now;
    return n;
}

static int nx_latest(source_t *s, const char *start, source_limit_t limit, sl_arena_t *a,
                     const char **end, const char **latest, sl_error_t *err)
{
    (void)limit;
    int64_t from = 0;
    if (nx_start(s, err) < 0 || (start && conn_offset_parse_long(start, &from, err) < 0)) return -1;
    int64_t n = nx_available(s);
    *end = *latest = conn_offset_long(a, n > from ? n : from);
    return 0;
}

static int nx_available_now(source_t *s, sl_error_t *err)
{
    nx_src_t *x = s->impl;
    if (nx_start(s, err) < 0) return -1;
    x->avail_now = -1;
    x->avail_now = nx_available(s);
    return 0;
}

static int nx_plan(source_t *s, int64_t batch_id, const char *start, const char *end, sl_arena_t *a,
                   source_split_t **splits, int *nsplits, sl_error_t *err)
{
    (void)batch_id;
    int64_t lo = 0, hi;
    *splits = NULL;
    *nsplits = 0;
    if (nx_start(s, err) < 0 || (start && conn_offset_parse_long(start, &lo, err) < 0) ||
        conn_offset_parse_long(end, &hi, err) < 0)
        return -1;
    if (lo < 0 || hi < lo)
        return sl_error_set(err, SL_ERR_INTERNAL_ERROR, "nexmark offsets go backwards: %s to %s",
                            start ? start : "0", end);
    if (hi == lo) return 0;
    int64_t n = (hi - lo + NX_SPLIT_EVENTS - 1) / NX_SPLIT_EVENTS;
    if (n > NX_MAX_SPLITS) n = NX_MAX_SPLITS;
    *splits = SL_NEW_ARRAY(a, source_split_t, n);
    for (int64_t i = 0; i < n; i++) {
        nx_split_t *sp = SL_NEW(a, nx_split_t);
        sp->lo = lo + (hi - lo) * i / n;
        sp->hi = lo + (hi - lo) * (i + 1) / n;
        (*splits)[i] = (source_split_t){(int)i, sp};
    }
    *nsplits = (int)n;
    return 0;
}

/* One generated event, whichever its kind. */
typedef union nx_event {
    nexmark_person_t p;
    nexmark_auction_t a;
    nexmark_bid_t b;
} nx_event_t;

static void set_str(exec_builder_t *bld, int col, uint32_t row, const char *s)
{
    exec_builder_set_str(bld, col, row, s, strlen(s));
}

static void nx_set(exec_builder_t *bld, int col, uint32_t row, nx_field_t f, const nx_event_t *e,
                   nexmark_kind_t kind)
{
    switch (f) {
    case F_ID:
        exec_builder_set_bigint(bld, col, row, kind == NEXMARK_PERSON ? e->p.id : e->a.id);
        break;
    case F_NAME: set_str(bld, col, row, e->p.name); break;
    case F_EMAIL: set_str(bld, col, row, e->p.email); break;
    case F_CARD: set_str(bld, col, row, e->p.credit_card); break;
    case F_CITY: set_str(bld, col, row, e->p.city); break;
    case F_STATE: set_str(bld, col, row, e->p.state); break;
    case F_DATE_TIME: {
        int64_t ms = kind == NEXMARK_PERSON    ? e->p.date_time_ms
                     : kind == NEXMARK_AUCTION ? e->a.date_time_ms
                                               : e->b.date_time_ms;
        exec_builder_set_bigint(bld, col, row, ms * 1000);
        break;
    }
    case F_EXTRA:
        set_str(bld, col, row,
                kind == NEXMARK_PERSON    ? e->p.extra
                : kind == NEXMARK_AUCTION ? e->a.extra
                                          : e->b.extra);
        break;
    case F_ITEM_NAME: set_str(bld, col, row, e->a.item_name); break;
    case F_DESCRIPTION: set_str(bld, col, row, e->a.description); break;
    case F_INITIAL_BID: exec_builder_set_bigint(bld, col, row, e->a.initial_bid); break;
    case F_RESERVE: exec_builder_set_bigint(bld, col, row, e->a.reserve); break;
    case F_EXPIRES: exec_builder_set_bigint(bld, col, row, e->a.expires_ms * 1000); break;
    case F_SELLER: exec_builder_set_bigint(bld, col, row, e->a.seller); break;
    case F_CATEGORY: exec_builder_set_bigint(bld, col, row, e->a.category); break;
    case F_AUCTION: exec_builder_set_bigint(bld, col, row, e->b.auction); break;
    case F_BIDDER: exec_builder_set_bigint(bld, col, row, e->b.bidder); break;
    case F_PRICE: exec_builder_set_bigint(bld, col, row, e->b.price); break;
    case F_CHANNEL: set_str(bld, col, row, e->b.channel); break;
    case F_URL: set_str(bld, col, row, e->b.url); break;
    }
}

static void nx_generate(const nx_src_t *x, int64_t n, nx_event_t *e)
{
    if (x->kind == NEXMARK_PERSON) nexmark_person(&x->cfg, n, &e->p);
    else if (x->kind == NEXMARK_AUCTION) nexmark_auction(&x->cfg, n, &e->a);
    else nexmark_bid(&x->cfg, n, &e->b);
}

static int nx_read(source_t *s, const source_split_t *split, sl_arena_t *a, source_emit_fn emit,
                   void *emit_arg, sl_error_t *err)
{
    const nx_src_t *x = s->impl;
    const nx_split_t *sp = split->data;
    const conn_stream_t *rel = s->rel;
    exec_builder_t bld;
    bool building = false;
    nx_event_t e;
    for (int64_t n = sp->lo; n < sp->hi; n++) {
        if (nexmark_kind(n) != x->kind) continue;
        if (!building) {
            exec_builder_init(&bld, a, rel->ncols, rel->col_types, EXEC_BATCH_ROWS);
            building = true;
        }
        nx_generate(x, n, &e);
        uint32_t row = exec_builder_add_row(&bld);
        for (int c = 0; c < rel->ncols; c++) nx_set(&bld, c, row, x->fields[c], &e, x->kind);
        if (bld.batch->nrows == EXEC_BATCH_ROWS) {
            building = false;
            if (emit(emit_arg, exec_builder_finish(&bld), err) < 0) return -1;
        }
    }
    return building ? emit(emit_arg, exec_builder_finish(&bld), err) : 0;
}

static void nx_describe(source_t *s, sl_buf_t *out)
{
    const nx_src_t *x = s->impl;
    sl_buf_printf(out, "NexmarkSource[table=%s, eventsPerSecond=%lld, maxEvents=%lld, seed=%lld]",
                  TABLES[x->kind], (long long)x->cfg.events_per_sec, (long long)x->max_events,
                  (long long)(int64_t)x->cfg.seed);
}

static void nx_destroy(source_t *s)
{
    (void)s;
}

static const source_ops_t nexmark_ops = {
    .name = "nexmark",
    .reports_latest = 1,
    .initial_offset = nx_initial,
    .latest_offset = nx_latest,
    .prepare_available_now = nx_available_now,
    .plan = nx_plan,
    .read_split = nx_read,
    .describe = nx_describe,
    .destroy = nx_destroy,
};

int source_nexmark_create(source_t *s, sl_arena_t *a, sl_error_t *err)
{
    nx_src_t *x = SL_NEW(a, nx_src_t);
    if (nx_options(s->rel, x, err) < 0 || nx_columns(s->rel, x, a, err) < 0) return -1;
    x->avail_now = -1;
    s->impl = x;
    s->ops = &nexmark_ops;
    return 0;
}
