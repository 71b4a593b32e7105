/* clients/cli_prompt.c — psql's prompt escapes over PROMPT1/PROMPT2
 * (default "%/%R%x%# ": "sluice=> " when ready, "sluice-> " while a
 * statement continues, "sluice'> " inside a quote, "sluice!> " when the
 * connection is gone). */
#include "clients/cli.h"

#include <string.h>
#include <unistd.h>

#define DEFAULT_PROMPT "%/%R%x%# "

static void put_host(sl_buf_t *out, PGconn *c, bool full)
{
    const char *host = c ? PQhost(c) : NULL;
    if (!host || !*host) return;
    if (host[0] == '/') {
        sl_buf_puts(out, "[local]");
        return;
    }
    size_t n = strlen(host);
    const char *dot = strchr(host, '.');
    bool numeric = strspn(host, "0123456789.:") == n;
    if (!full && dot && !numeric) n = (size_t)(dot - host);
    sl_buf_append(out, host, n);
}

static char transaction_char(PGconn *c)
{
    if (!c) return 0;
    switch (PQtransactionStatus(c)) {
    case PQTRANS_INTRANS: return '*';
    case PQTRANS_INERROR: return '!';
    case PQTRANS_UNKNOWN: return '?';
    default: return 0;
    }
}

/* One %-escape; returns false when the character is not an escape we know. */
static bool escape(cli_t *cli, char e, char state, sl_buf_t *out)
{
    PGconn *c = cli->conn;
    const char *su = c ? PQparameterStatus(c, "is_superuser") : NULL;
    switch (e) {
    case '/':
        if (c) sl_buf_puts(out, PQdb(c));
        return true;
    case '~':
        if (c) sl_buf_puts(out, strcmp(PQdb(c), PQuser(c)) ? PQdb(c) : "~");
        return true;
    case 'R': {
        char r = state;
        if (state == '=' && !c) r = '!';
        else if (state == '=' && cli_vars_bool(&cli->vars, "SINGLELINE", false)) r = '^';
        sl_buf_putc(out, r);
        return true;
    }
    case 'x':
        if (transaction_char(c)) sl_buf_putc(out, transaction_char(c));
        return true;
    case '#': sl_buf_putc(out, su && !strcmp(su, "on") ? '#' : '>'); return true;
    case 'n':
        if (c) sl_buf_puts(out, PQuser(c));
        return true;
    case 'm': put_host(out, c, false); return true;
    case 'M': put_host(out, c, true); return true;
    case '>':
        if (c) sl_buf_puts(out, PQport(c));
        return true;
    case 'p':
        if (c) sl_buf_printf(out, "%d", PQbackendPID(c));
        return true;
    case 'l': sl_buf_printf(out, "%lu", cli->lineno + 1); return true;
    case '%': sl_buf_putc(out, '%'); return true;
    default: return false;
    }
}

void cli_prompt_build(cli_t *cli, bool continuation, char state, sl_buf_t *buf)
{
    const char *fmt = cli_vars_get(&cli->vars, continuation ? "PROMPT2" : "PROMPT1");
    if (!fmt) fmt = DEFAULT_PROMPT;
    sl_buf_clear(buf);
    for (const char *p = fmt; *p; p++) {
        if (*p == '%' && p[1] && escape(cli, p[1], state, buf)) {
            p++;
            continue;
        }
        sl_buf_putc(buf, *p);
    }
}
