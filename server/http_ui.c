/* The web UI: the files of server/ui/, embedded at build time by
 * server/ui/embed.sh into a table (build/obj/gen/ui_assets.c), served from
 * memory with a strict Content-Security-Policy (scripts, styles and data
 * from this origin only: the UI works offline and loads nothing else), and
 * the sign-in page answered with 401 when http_token is set. */
#include <string.h>

#include "server/http_int.h"

/* Written by server/ui/embed.sh; terminated by a {NULL} entry. */
extern const struct {
    const char *path;          /* "/index.html" */
    const char *type;          /* Content-Type */
    const unsigned char *data; /* the file's bytes */
    unsigned int len;
} http_ui_assets[];
extern const int http_ui_nassets;

#define UI_CSP                                                                        \
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " \
    "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
/* The sign-in page is shown to clients without a token, so it cannot load
 * the (protected) stylesheet: its styles are inline, allowed for it alone. */
#define LOGIN_CSP                                                                        \
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; " \
    "frame-ancestors 'none'; base-uri 'none'"
#define LOGIN_MARK "<!--message-->"

static int asset_find(const char *path)
{
    if (!strcmp(path, "/")) path = "/index.html";
    for (int i = 0; i < http_ui_nassets; i++)
        if (!strcmp(http_ui_assets[i].path, path)) return i;
    return -1;
}

bool http_ui_is_asset(const char *path)
{
    return asset_find(path) >= 0;
}

static void ui_headers(http_resp_t *r, const char *csp)
{
    http_header(r, "Content-Security-Policy", csp);
    http_header(r, "Cache-Control", "no-cache");
    http_header(r, "Referrer-Policy", "no-referrer");
}

int http_ui_serve(const char *path, http_resp_t *r)
{
    int i = asset_find(path);
    if (i < 0) return 0;
    r->status = 200;
    r->type = http_ui_assets[i].type;
    r->static_body = http_ui_assets[i].data;
    r->static_len = http_ui_assets[i].len;
    ui_headers(r, UI_CSP);
    return 1;
}

void http_ui_login_page(http_resp_t *r, const char *message)
{
    sl_buf_clear(&r->body);
    r->static_body = NULL;
    r->status = 401;
    r->type = HTTP_HTML_TYPE;
    ui_headers(r, LOGIN_CSP);
    int i = asset_find("/login.html");
    if (i < 0) { /* never: login.html is one of the embedded files */
        sl_buf_puts(&r->body, "<!doctype html><title>sluice</title><p>A bearer token is required.");
        return;
    }
    const char *page = (const char *)http_ui_assets[i].data;
    size_t n = http_ui_assets[i].len;
    const char *mark = message ? memmem(page, n, LOGIN_MARK, strlen(LOGIN_MARK)) : NULL;
    if (!mark) {
        r->static_body = http_ui_assets[i].data;
        r->static_len = n;
        return;
    }
    sl_buf_append(&r->body, page, (size_t)(mark - page));
    sl_buf_printf(&r->body, "<p class=\"login-error\">%s</p>", message);
    size_t after = (size_t)(mark - page) + strlen(LOGIN_MARK);
    sl_buf_append(&r->body, page + after, n - after);
}
