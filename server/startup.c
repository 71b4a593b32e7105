/* The startup file: read, submit through a session, log each result. */
#include "server/startup.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/buf.h"
#include "common/log.h"
#include "server/session.h"

static void on_startup_done(sess_t *s, sess_reply_t *reply, void *arg)
{
    char *path = arg;
    int n = 0;
    for (sess_result_t *r = reply->first; r; r = r->next) {
        if (r->kind == SESS_RES_ERROR)
            SL_ERROR("startup", "%s: statement %d failed: %s (SQLSTATE %s)", path, n + 1,
                     r->error.message, r->error.sqlstate);
        else n++;
    }
    SL_INFO("startup", "%s: %d statement(s) done", path, n);
    sess_reply_free(reply);
    sess_close(s);
    free(path);
}

void startup_run_file(srv_t *srv, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        SL_ERROR("startup", "could not open %s: %s", path, strerror(errno));
        return;
    }
    sl_buf_t text = SL_BUF_INIT;
    char chunk[8192];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) sl_buf_append(&text, chunk, n);
    fclose(f);
    sess_t *s = sess_new(srv, "sluice", "sluice");
    sess_request_t req = {.sql = text.data ? text.data : "", .len = text.len};
    sess_submit(s, &req, on_startup_done, sl_xstrdup(path));
    sl_buf_free(&text);
}
