/* The REST API's documents, built from the query manager's snapshots:
 * the query list, one query (definition, StreamingQueryStatus, lastProgress),
 * lastProgress and recentProgress (the runner's JSON text, embedded byte
 * for byte, so /progress equals SHOW PROGRESS), and the answers of STOP and
 * START. Names are matched exactly as SHOW QUERIES lists them; a
 * definition is shown with its secret option values redacted. */
#include <microhttpd.h>
#include <string.h>

#include "common/json_write.h"
#include "common/log.h"
#include "common/redact.h"
#include "server/http_int.h"
#include "server/qm.h"

static qm_t *api_qm(const http_req_t *rq)
{
    return rq->hs->srv->qm;
}

static void unknown_query(http_resp_t *r, const char *name)
{
    http_error(r, MHD_HTTP_NOT_FOUND, SL_ERR_UNDEFINED_TABLE, "query \"%s\" does not exist", name);
}

/* -1 (no batch yet) is written as null. */
static void kv_batch(sl_json_t *j, const char *key, int64_t id)
{
    sl_json_key(j, key);
    if (id >= 0) sl_json_int(j, id);
    else sl_json_null(j);
}

/* The members every query document shares (list entries and the detail
 * document), after name, id and runId. */
static void info_figures(sl_json_t *j, const qm_info_t *q)
{
    kv_batch(j, "lastBatchId", q->last_batch_id);
    sl_json_kv_double(j, "inputRowsPerSecond", q->input_rows_per_second);
    sl_json_kv_double(j, "processedRowsPerSecond", q->processed_rows_per_second);
    sl_json_kv_string(j, "watermark", q->watermark);
    sl_json_kv_string(j, "lastError", q->last_error);
    sl_json_kv_string(j, "sink", q->sink);
    sl_json_kv_string(j, "outputMode", q->output_mode);
    sl_json_kv_string(j, "trigger", q->trigger);
}

static void info_ids(sl_json_t *j, const qm_info_t *q)
{
    sl_json_kv_string(j, "name", q->name);
    sl_json_kv_string(j, "id", q->id);
    sl_json_kv_string(j, "runId", q->run_id);
}

void http_api_list(http_req_t *rq, http_resp_t *r)
{
    qm_info_t *qs;
    int n = qm_list(api_qm(rq), rq->arena, &qs);
    http_json(r);
    sl_json_t j;
    sl_json_init(&j, &r->body, false);
    sl_json_array_begin(&j);
    for (int i = 0; i < n; i++) {
        sl_json_object_begin(&j);
        info_ids(&j, &qs[i]);
        sl_json_kv_string(&j, "status", qs[i].status_name);
        info_figures(&j, &qs[i]);
        sl_json_object_end(&j);
    }
    sl_json_array_end(&j);
}

/* StreamingQueryStatus (Spark's three fields in Spark's order) plus
 * sluice's lifecycle state. */
static void status_json(sl_json_t *j, const qm_info_t *q)
{
    sl_json_key(j, "status");
    sl_json_object_begin(j);
    sl_json_kv_string(j, "message", q->status_message);
    sl_json_kv_bool(j, "isDataAvailable", q->is_data_available);
    sl_json_kv_bool(j, "isTriggerActive", q->is_trigger_active);
    sl_json_kv_string(j, "state", q->status_name);
    sl_json_object_end(j);
}

int http_api_query_doc(http_req_t *rq, const char *name, sl_buf_t *out)
{
    qm_info_t q;
    if (!qm_get(api_qm(rq), name, rq->arena, &q)) return 0;
    sl_json_t j;
    sl_json_init(&j, out, false);
    sl_json_object_begin(&j);
    info_ids(&j, &q);
    status_json(&j, &q);
    sl_json_kv_string(&j, "definition", sl_redact_sql(rq->arena, q.sql));
    info_figures(&j, &q);
    sl_json_kv_string(&j, "checkpoint", q.checkpoint);
    sl_json_key(&j, "lastProgress");
    if (q.last_progress) sl_json_raw(&j, q.last_progress, strlen(q.last_progress));
    else sl_json_null(&j);
    sl_json_object_end(&j);
    return 1;
}

void http_api_query(http_req_t *rq, const char *name, http_resp_t *r)
{
    http_json(r);
    if (!http_api_query_doc(rq, name, &r->body)) unknown_query(r, name);
}

void http_api_progress(http_req_t *rq, const char *name, int recent, http_resp_t *r)
{
    const char **docs;
    sl_error_t err;
    int n = qm_progress(api_qm(rq), name, recent > 0, rq->arena, &docs, &err);
    if (n < 0) {
        unknown_query(r, name);
        return;
    }
    http_json(r);
    if (!recent) { /* lastProgress: the document itself, null before the first one */
        sl_buf_puts(&r->body, n > 0 ? docs[n - 1] : "null");
        return;
    }
    int first = n > recent ? n - recent : 0;
    sl_buf_putc(&r->body, '[');
    for (int i = first; i < n; i++) {
        if (i > first) sl_buf_putc(&r->body, ',');
        sl_buf_puts(&r->body, docs[i]);
    }
    sl_buf_putc(&r->body, ']');
}

void http_api_action(http_req_t *rq, const char *name, int action, http_resp_t *r)
{
    sl_error_t err;
    qm_t *qm = api_qm(rq);
    const char *verb = action == 'x' ? "stop" : "start";
    int rc = action == 'x' ? qm_stop(qm, name, &err) : qm_start(qm, name, &err);
    if (rc < 0) {
        unsigned status =
            !strcmp(err.sqlstate, SL_ERR_UNDEFINED_TABLE) ? MHD_HTTP_NOT_FOUND : MHD_HTTP_CONFLICT;
        http_error(r, status, err.sqlstate, "%s", err.message);
        return;
    }
    SL_INFO("http", "query=%s %s requested changed=%s", name, verb, rc ? "yes" : "no");
    http_json(r);
    if (!http_api_query_doc(rq, name, &r->body)) unknown_query(r, name); /* dropped meanwhile */
}
