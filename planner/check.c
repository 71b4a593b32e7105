/* The streaming checks: which queries can run incrementally, Spark's
 * UnsupportedOperationChecker in sluice's words. Every refusal is 0A000,
 * points at the clause, names the operator and says what to do instead. */
#include "planner/check.h"

#include <stdio.h>
#include <string.h>

#include "exec/op.h"
#include "planner/join_bound.h"

static int refuse(sl_error_t *err, const plan_node_t *n, const char *msg, const char *hint)
{
    sl_error_set(err, SL_ERR_FEATURE_NOT_SUPPORTED, "%s", msg);
    if (hint) sl_error_hint(err, "%s", hint);
    if (!err->position) err->position = n->pos + 1;
    return -1;
}

static int has_kind(const plan_node_t *n, plan_kind_t kind)
{
    if (n->kind == kind && n->streaming) return 1;
    for (int i = 0; i < n->nchildren; i++)
        if (has_kind(n->children[i], kind)) return 1;
    return 0;
}

static int has_watermark_col(const plan_node_t *n)
{
    for (int i = 0; i < n->ncols; i++)
        if (n->cols[i].wm_delay_ms >= 0) return 1;
    return 0;
}

/* Spark's rules for session windows on a stream: no update mode (a
 * session emitted as updated may later merge into another and vanish),
 * another grouping key besides the session, and in append mode a
 * watermark on the session's time column. */
static int check_sessions(const plan_node_t *n, output_mode_t mode, sl_error_t *err)
{
    if (mode == OUTPUT_UPDATE)
        return refuse(
            err, n, "update output mode is not supported with session_window",
            "Sessions merge as rows arrive, so a session emitted as updated could later become part "
            "of a longer one; use OUTPUT MODE append (each session once, when the watermark closes "
            "it) or complete.");
    if (n->agg.nkeys == 1)
        return refuse(
            err, n, "session_window on a stream needs another grouping column",
            "Group by session_window(ts, gap) and a key, such as a user id; sessions over the whole "
            "stream are not supported (as in Spark).");
    if (mode == OUTPUT_APPEND && n->agg.event_key < 0)
        return refuse(
            err, n, "append output mode needs a watermark on the time column of session_window",
            "A session is emitted once the watermark passes its end: declare WATERMARK ts DELAY OF "
            "INTERVAL '...' on the stream (or in FROM) for the column given to session_window; or use "
            "OUTPUT MODE complete.");
    return 0;
}

/* Whether a postgres_cdc stream is read below `n`: its rows include the
 * retractions (sign -1) of updated and deleted rows. */
static int reads_changes(const plan_node_t *n)
{
    if (n->kind == LP_SCAN && n->scan.rel->stream.connector &&
        !strcmp(n->scan.rel->stream.connector->name, "postgres_cdc"))
        return 1;
    for (int i = 0; i < n->nchildren; i++)
        if (reads_changes(n->children[i])) return 1;
    return 0;
}

/* min and max cannot take a row back: over a change stream they would
 * keep values of rows since updated or deleted. */
static int check_retractable(const plan_node_t *n, sl_error_t *err)
{
    for (int i = 0; i < n->agg.naggs; i++) {
        const char *f = n->agg.aggs[i].func;
        if (strcmp(f, "min") && strcmp(f, "max")) continue;
        sl_error_set(err, SL_ERR_FEATURE_NOT_SUPPORTED,
                     "%s() over a postgres_cdc stream is not supported", f);
        sl_error_hint(err,
                      "Updated and deleted rows come back as rows with sign -1, which %s() "
                      "cannot take back; aggregate with sum(x * sign) and sum(sign).",
                      f);
        if (!err->position) err->position = n->pos + 1;
        return -1;
    }
    return 0;
}

static int check_aggregate(const plan_node_t *n, output_mode_t mode, sl_error_t *err)
{
    if (reads_changes(n) && check_retractable(n, err) < 0) return -1;
    for (int i = 0; i < n->agg.naggs; i++)
        if (n->agg.aggs[i].distinct)
            return refuse(
                err, n,
                "count(DISTINCT ...) and other DISTINCT aggregates are not supported on a stream",
                "Use approx_count_distinct(x), which keeps a fixed-size sketch per group.");
    if (n->agg.session_key >= 0) return check_sessions(n, mode, err);
    if (mode == OUTPUT_APPEND && n->agg.event_key < 0)
        return refuse(
            err, n, "append output mode needs a watermark on a grouping column of this aggregation",
            "Append mode emits a group once, when the watermark passes it: declare WATERMARK "
            "col DELAY OF INTERVAL '...' on the stream and GROUP BY that column or "
            "window(col, ...); or use OUTPUT MODE update or complete.");
    return 0;
}

static int has_watermarked_key(const plan_node_t *n)
{
    const plan_node_t *l = n->children[0], *r = n->children[1];
    for (int k = 0; k < n->join.nkeys; k++)
        if (l->cols[n->join.lkeys[k]].wm_delay_ms >= 0 ||
            r->cols[n->join.rkeys[k]].wm_delay_ms >= 0)
            return 1;
    return 0;
}

/* Spark's rule for outer joins of two streams (checkForStreamStreamJoinWatermark):
 * a watermarked join key, or a range condition from which the preserved
 * side's state watermark follows — its time bounded in ON by a watermarked
 * time of the other side (LEFT: the left side's, RIGHT: the right side's,
 * FULL: either). As in Spark, the preserved side needs no watermark of its
 * own to be accepted; without one its state is never evicted. */
static int check_outer_join(const plan_node_t *n, sl_error_t *err)
{
    plan_join_t t = n->join.type;
    int64_t off;
    if (has_watermarked_key(n) || (t != PLAN_JOIN_RIGHT && plan_join_state_bound(n, 0, -1, &off)) ||
        (t != PLAN_JOIN_LEFT && plan_join_state_bound(n, 1, -1, &off)))
        return 0;
    int lw = has_watermark_col(n->children[0]), rw = has_watermark_col(n->children[1]);
    char msg[200];
    if (t == PLAN_JOIN_FULL) {
        if (!lw && !rw)
            return refuse(
                err, n, "a FULL join of two streams needs a watermark on at least one of them",
                "Rows without a match are emitted once the other stream's watermark shows "
                "that none can come: declare a WATERMARK and bound the times in ON, e.g. AND "
                "r.t BETWEEN l.t AND l.t + INTERVAL '1' HOUR; or join on a watermarked column.");
        return refuse(
            err, n,
            "a FULL join of two streams needs a condition in ON that bounds the time "
            "of one stream by a watermarked column of the other",
            "For example AND r.t BETWEEN l.t AND l.t + INTERVAL '1' HOUR, with a watermark "
            "on r.t or l.t; or join on a watermarked column.");
    }
    const char *kept = t == PLAN_JOIN_LEFT ? "left" : "right";
    const char *other = t == PLAN_JOIN_LEFT ? "right" : "left";
    if (!(t == PLAN_JOIN_LEFT ? rw : lw)) {
        snprintf(msg, sizeof msg, "a %s join of two streams needs a watermark on its %s side",
                 t == PLAN_JOIN_LEFT ? "LEFT" : "RIGHT", other);
        return refuse(
            err, n, msg,
            "A row without a match is emitted once the other stream's watermark shows that "
            "none can come: declare a WATERMARK on that stream and bound the times in ON, "
            "e.g. AND r.t BETWEEN l.t AND l.t + INTERVAL '1' HOUR; or join on a watermarked column.");
    }
    snprintf(msg, sizeof msg,
             "a %s join of two streams needs a condition in ON that bounds the time "
             "of its %s side by a watermarked column of its %s side",
             t == PLAN_JOIN_LEFT ? "LEFT" : "RIGHT", kept, other);
    return refuse(
        err, n, msg,
        "For example AND r.t BETWEEN l.t AND l.t + INTERVAL '1' HOUR, with the watermark on "
        "the other side's column; or join on a watermarked column.");
}

static int check_join(const plan_node_t *n, output_mode_t mode, sl_error_t *err)
{
    int ls = n->children[0]->streaming, rs = n->children[1]->streaming;
    plan_join_t t = n->join.type;
    if (ls && rs) {
        if (mode != OUTPUT_APPEND)
            return refuse(err, n, "a join of two streams runs only in append output mode",
                          "Use OUTPUT MODE append (the default).");
        if (t == PLAN_JOIN_LEFT || t == PLAN_JOIN_RIGHT || t == PLAN_JOIN_FULL)
            return check_outer_join(n, err);
        return 0;
    }
    if (ls && (t == PLAN_JOIN_RIGHT || t == PLAN_JOIN_FULL))
        return refuse(err, n,
                      "a RIGHT or FULL join that keeps the rows of a static table is not supported "
                      "with a stream on the left",
                      "Put the stream on the preserved side: FROM stream LEFT JOIN table.");
    if (rs && (t == PLAN_JOIN_LEFT || t == PLAN_JOIN_FULL))
        return refuse(err, n,
                      "a LEFT or FULL join that keeps the rows of a static table is not supported "
                      "with a stream on the right",
                      "Put the stream on the preserved side: FROM stream LEFT JOIN table.");
    return 0;
}

/* Whether `e` reads the clock: current_timestamp(), now(), current_date()
 * (and what binds to them: localtimestamp, current_date). */
static int reads_clock(const exec_expr_t *e)
{
    if (!e) return 0;
    if (e->kind == EXEC_EXPR_CALL && (!strcmp(e->name, "current_timestamp") ||
                                      !strcmp(e->name, "now") || !strcmp(e->name, "current_date")))
        return 1;
    for (int i = 0; i < e->nargs; i++)
        if (reads_clock(e->args[i])) return 1;
    return 0;
}

static int node_reads_clock(const plan_node_t *n)
{
    if (n->kind == LP_FILTER) return reads_clock(n->filter.pred);
    if (n->kind != LP_PROJECT) return 0;
    for (int i = 0; i < n->ncols; i++)
        if (reads_clock(n->project.exprs[i])) return 1;
    return 0;
}

/* Spark's checkForContinuous: map-like operators only, and no current time
 * (a continuous query has no batch whose time the clock could be pinned to). */
static int check_continuous(const plan_node_t *n, sl_error_t *err)
{
    static const char *const names[] = {
        "",     "",      "VALUES",      "",         "",     "", "window", "aggregation",
        "join", "UNION", "DISTINCT ON", "ORDER BY", "LIMIT"};
    if (node_reads_clock(n))
        return refuse(
            err, n, "a continuous trigger does not support current time operations",
            "current_timestamp(), now(), localtimestamp and current_date have no batch time to "
            "be pinned to in continuous processing (as in Spark); use TRIGGER PROCESSING TIME "
            "'...', or the event time of the rows.");
    if (n->kind == LP_SCAN || n->kind == LP_WATERMARK || n->kind == LP_FILTER ||
        n->kind == LP_PROJECT)
        return 0;
    sl_error_set(err, SL_ERR_FEATURE_NOT_SUPPORTED,
                 "a continuous trigger runs only projections and filters, not %s", names[n->kind]);
    sl_error_hint(err, "Use TRIGGER PROCESSING TIME '...' (micro-batches) for this query.");
    if (!err->position) err->position = n->pos + 1;
    return -1;
}

/* A stateful operator above an aggregation may see rows older than the
 * watermark unless the aggregation only emits final rows (append mode). */
static int check_chain(const plan_node_t *n, output_mode_t mode, sl_error_t *err)
{
    if (mode == OUTPUT_APPEND) return 0;
    int stateful = n->kind == LP_AGGREGATE || n->kind == LP_DEDUP ||
                   (n->kind == LP_JOIN && n->children[0]->streaming && n->children[1]->streaming);
    if (!stateful) return 0;
    for (int i = 0; i < n->nchildren; i++)
        if (has_kind(n->children[i], LP_AGGREGATE))
            return refuse(
                err, n, "a stateful operator after an aggregation runs only in append output mode",
                "In update and complete modes an aggregation emits rows that later stateful "
                "operators would count as late; use OUTPUT MODE append.");
    return 0;
}

static int check_node(const plan_node_t *n, output_mode_t mode, int continuous, sl_error_t *err)
{
    for (int i = 0; i < n->nchildren; i++)
        if (check_node(n->children[i], mode, continuous, err) < 0) return -1;
    if (!n->streaming) return 0;
    if (continuous && check_continuous(n, err) < 0) return -1;
    if (check_chain(n, mode, err) < 0) return -1;
    switch (n->kind) {
    case LP_AGGREGATE: return check_aggregate(n, mode, err);
    case LP_JOIN: return check_join(n, mode, err);
    case LP_SORT:
        if (mode == OUTPUT_COMPLETE && has_kind(n, LP_AGGREGATE)) return 0;
        return refuse(
            err, n,
            "ORDER BY on a stream is supported only after an aggregation in complete output mode",
            "A stream never ends, so its rows cannot be sorted; sort the aggregated result "
            "with OUTPUT MODE complete, or sort when you SELECT from the query's table.");
    case LP_LIMIT:
        if (mode != OUTPUT_UPDATE) return 0;
        return refuse(err, n, "LIMIT on a stream is not supported in update output mode",
                      "Use OUTPUT MODE append or complete.");
    case LP_UNION:
        if (n->children[0]->streaming && n->children[1]->streaming) return 0;
        return refuse(err, n, "UNION ALL of a stream and a static table is not supported",
                      "Union streams with streams; join static tables instead.");
    case LP_DEDUP:
        if (n->dedup.within_watermark && !has_watermark_col(n->children[0]))
            return refuse(err, n, "DISTINCT ON ... WITHIN WATERMARK needs a watermark on its input",
                          "Declare WATERMARK col DELAY OF INTERVAL '...' on the stream.");
        return 0;
    default: return 0;
    }
}

int plan_check_streaming(const plan_node_t *root, output_mode_t mode, int continuous,
                         const conn_desc_t *sink, sl_error_t *err)
{
    if (!root->streaming)
        return refuse(err, root, "a continuous query must read a stream",
                      "FROM names only static tables here; read them with an ordinary SELECT.");
    if (mode == OUTPUT_COMPLETE && !has_kind(root, LP_AGGREGATE))
        return refuse(
            err, root, "complete output mode needs an aggregation",
            "Complete mode rewrites the whole result every batch, which is only bounded for "
            "aggregated results; use OUTPUT MODE append (the default) or update.");
    if (sink && conn_check_mode(sink, mode, err) < 0) {
        if (!err->position) err->position = root->pos + 1;
        return -1;
    }
    return check_node(root, mode, continuous, err);
}
