/* The checks a start makes against what the checkpoint recorded, before any
 * batch runs: the changes Spark lists as not allowed on one checkpoint
 * ("Recovery Semantics after Changes in a Streaming Query") are refused
 * with SQLSTATE 55000 and a message showing the recorded and the new
 * value, instead of running (a changed number of sources) or failing at
 * the first batch with data (a changed state schema).
 *   - the number of sources: the source lines of the newest offsets/N;
 *   - each stateful operator's key and value schema: state/<op>/_metadata;
 *   - the sink options the checkpoint pins (the file sink's path):
 *     sink/options, `v1` and {"sink":"<name>","<option>":"<value>"|null},
 *     written by the first start that finds it missing (so a checkpoint
 *     from before this file records its options at its next start). */
#include "runtime/runner_int.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "common/durable.h"
#include "common/private_file.h"
#include "state/checkpoint.h"
#include "state/store.h"

#define SINK_OPTIONS_DIR "sink"
#define SINK_OPTIONS_FILE "options"

static int not_fit(sl_error_t *err)
{
    return sl_error_hint(err, "Restore the query text that created the checkpoint, or start the "
                              "query with a new checkpoint location.");
}

static int check_source_count(const runner_spec_t *spec, sl_arena_t *a, sl_error_t *err)
{
    ckpt_offsets_t o;
    int rc = ckpt_offsets_peek_latest(spec->checkpoint, a, &o, err);
    if (rc <= 0 || o.nsources == spec->nsources) return rc < 0 ? -1 : 0;
    sl_error_set(err, SL_ERR_OBJECT_NOT_IN_PREREQUISITE_STATE,
                 "query \"%s\" does not fit its checkpoint: the number of sources changed: "
                 "checkpoint %d, query now %d",
                 spec->name, o.nsources, spec->nsources);
    sl_error_detail(err,
                    "The newest offsets file of checkpoint \"%s\" has the offsets of %d "
                    "sources; a query must keep its sources on one checkpoint.",
                    spec->checkpoint, o.nsources);
    return not_fit(err);
}

static int check_state_schemas(const runner_spec_t *spec, sl_arena_t *a, sl_error_t *err)
{
    const char *root = sl_printf(a, "%s/state", spec->checkpoint);
    for (int i = 0; i < spec->nstateful; i++) {
        const exec_pnode_t *n = spec->stateful[i];
        const char *name, *key, *value;
        for (int k = 0; n->ops->state_schema && n->ops->state_schema(n, k, &name, &key, &value);
             k++)
            if (store_schema_compare(root, n->op_id, name, key, value, err) < 0) return -1;
    }
    return 0;
}

/* {"sink":..,<pinned option>:..} of the spec, compact. */
static char *sink_options_json(const runner_spec_t *spec)
{
    json_t *o = json_object();
    json_object_set_new(o, "sink", json_string(spec->sink_name));
    for (int i = 0; i < spec->nsink_pinned; i++) {
        const char *v = spec->sink_pinned[i].value;
        json_object_set_new(o, spec->sink_pinned[i].key, v ? json_string(v) : json_null());
    }
    char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(o);
    return s;
}

static int record_sink_options(const runner_spec_t *spec, sl_arena_t *a, sl_error_t *err)
{
    const char *dir = sl_printf(a, "%s/%s", spec->checkpoint, SINK_OPTIONS_DIR);
    char *json = sink_options_json(spec);
    const char *text = sl_printf(a, "v1\n%s", json);
    free(json);
    if (sl_fs_mkdirs(dir, SL_PRIVATE_DIR_MODE, err) < 0) return -1;
    return sl_fs_write_file(dir, SINK_OPTIONS_FILE, text, strlen(text), SL_FW_NOREPLACE, NULL, NULL,
                            err);
}

static const char *shown(const char *v)
{
    return v ? v : "(default)";
}

/* Compares the recorded options of the same sink with the spec's. */
static int compare_sink_options(const runner_spec_t *spec, json_t *rec, sl_error_t *err)
{
    const char *sink = json_string_value(json_object_get(rec, "sink"));
    if (!sink || strcmp(sink, spec->sink_name)) return 0; /* another sink: nothing it pins */
    for (int i = 0; i < spec->nsink_pinned; i++) {
        const conn_kv_t *kv = &spec->sink_pinned[i];
        json_t *old = json_object_get(rec, kv->key);
        if (!old) continue; /* recorded before this option was pinned */
        const char *was = json_string_value(old);
        if ((!was && !kv->value) || (was && kv->value && !strcmp(was, kv->value))) continue;
        sl_error_set(err, SL_ERR_OBJECT_NOT_IN_PREREQUISITE_STATE,
                     "query \"%s\" does not fit its checkpoint: option \"%s\" of the %s sink "
                     "changed: checkpoint %s, query now %s",
                     spec->name, kv->key, sink, shown(was), shown(kv->value));
        sl_error_detail(err,
                        "The %s sink's \"%s\" cannot change on one checkpoint: its output "
                        "log would no longer match the checkpoint's batches.",
                        sink, kv->key);
        return not_fit(err);
    }
    return 0;
}

static int check_sink_options(const runner_spec_t *spec, sl_arena_t *a, sl_error_t *err)
{
    if (!spec->sink_name) return 0;
    const char *path =
        sl_printf(a, "%s/%s/%s", spec->checkpoint, SINK_OPTIONS_DIR, SINK_OPTIONS_FILE);
    sl_buf_t b = SL_BUF_INIT;
    int rc = sl_fs_read_file(path, &b, err);
    if (rc == 0) {
        sl_buf_free(&b);
        return 0;
    }
    json_t *rec = NULL;
    if (rc > 0 && b.len > 3 && !memcmp(b.data, "v1\n", 3))
        rec = json_loadb(b.data + 3, b.len - 3, 0, NULL);
    sl_buf_free(&b);
    if (rc < 0) return -1;
    if (!json_is_object(rec)) {
        json_decref(rec);
        return sl_error_set(err, SL_ERR_IO_ERROR, "sink options file \"%s\" is malformed", path);
    }
    rc = compare_sink_options(spec, rec, err);
    json_decref(rec);
    return rc;
}

int runner_check_checkpoint(const runner_spec_t *spec, sl_error_t *err)
{
    sl_arena_t *a = sl_arena_new("ckpt-check");
    int rc = check_source_count(spec, a, err);
    if (rc == 0) rc = check_state_schemas(spec, a, err);
    if (rc == 0) rc = check_sink_options(spec, a, err);
    sl_arena_free(a);
    return rc;
}

int runner_record_sink_options(const runner_spec_t *spec, sl_error_t *err)
{
    if (!spec->sink_name) return 0;
    sl_arena_t *a = sl_arena_new("ckpt-check");
    const char *path =
        sl_printf(a, "%s/%s/%s", spec->checkpoint, SINK_OPTIONS_DIR, SINK_OPTIONS_FILE);
    sl_buf_t b = SL_BUF_INIT;
    int rc = sl_fs_read_file(path, &b, err);
    sl_buf_free(&b);
    if (rc == 0) rc = record_sink_options(spec, a, err);
    sl_arena_free(a);
    return rc < 0 ? -1 : 0;
}
