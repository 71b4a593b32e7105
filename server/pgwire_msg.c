/* Encoders of PostgreSQL protocol v3 backend messages: one type byte, an
 * int32 length that counts itself and the body, then the body. */
#include <stdio.h>
#include <string.h>

#include "server/pgwire_int.h"
#include "server/pgwire_binary.h"

size_t pgw_msg_begin(sl_buf_t *b, char type)
{
    sl_buf_putc(b, type);
    size_t at = b->len;
    sl_buf_put_u32be(b, 0);
    return at;
}

void pgw_msg_end(sl_buf_t *b, size_t at)
{
    sl_buf_set_u32be(b, at, (uint32_t)(b->len - at));
}

void pgw_msg_cstr(sl_buf_t *b, const char *s)
{
    sl_buf_append(b, s, strlen(s) + 1);
}

static void error_field(sl_buf_t *b, char code, const char *value)
{
    if (!value || !value[0]) return;
    sl_buf_putc(b, code);
    pgw_msg_cstr(b, value);
}

void pgw_msg_error(sl_buf_t *b, const char *severity, const sl_error_t *e)
{
    int notice = !strcmp(severity, "NOTICE") || !strcmp(severity, "WARNING");
    size_t at = pgw_msg_begin(b, notice ? 'N' : 'E');
    error_field(b, 'S', severity);
    error_field(b, 'V', severity);
    error_field(b, 'C', e->sqlstate[0] ? e->sqlstate : (notice ? "00000" : "XX000"));
    sl_buf_putc(b, 'M');
    pgw_msg_cstr(b, e->message);
    error_field(b, 'D', e->detail);
    error_field(b, 'H', e->hint);
    if (e->position > 0) {
        char pos[16];
        snprintf(pos, sizeof pos, "%d", e->position);
        error_field(b, 'P', pos);
    }
    sl_buf_putc(b, '\0');
    pgw_msg_end(b, at);
}

void pgw_msg_simple(sl_buf_t *b, char type)
{
    pgw_msg_end(b, pgw_msg_begin(b, type));
}

void pgw_msg_ready(sl_buf_t *b, char status)
{
    size_t at = pgw_msg_begin(b, 'Z');
    sl_buf_putc(b, status);
    pgw_msg_end(b, at);
}

void pgw_msg_command_complete(sl_buf_t *b, const char *tag)
{
    size_t at = pgw_msg_begin(b, 'C');
    pgw_msg_cstr(b, tag);
    pgw_msg_end(b, at);
}

void pgw_msg_row_description(sl_buf_t *b, int ncols, const sess_col_t *cols)
{
    pgw_msg_row_description_fmt(b, ncols, cols, NULL, 0);
}

void pgw_msg_row_description_fmt(sl_buf_t *b, int ncols, const sess_col_t *cols,
                                 const int16_t *fmts, int nfmts)
{
    size_t at = pgw_msg_begin(b, 'T');
    sl_buf_put_u16be(b, (uint16_t)ncols);
    for (int i = 0; i < ncols; i++) {
        pgw_msg_cstr(b, cols[i].name ? cols[i].name : "?column?");
        sl_buf_put_u32be(b, 0); /* table OID */
        sl_buf_put_u16be(b, 0); /* column number */
        sl_buf_put_u32be(b, cols[i].type_oid);
        sl_buf_put_u16be(b, (uint16_t)cols[i].type_len);
        sl_buf_put_u32be(b, (uint32_t)cols[i].type_mod);
        sl_buf_put_u16be(b, (uint16_t)pgw_bin_format_of(fmts, nfmts, i));
    }
    pgw_msg_end(b, at);
}

void pgw_msg_parameter_status(sl_buf_t *b, const char *name, const char *value)
{
    size_t at = pgw_msg_begin(b, 'S');
    pgw_msg_cstr(b, name);
    pgw_msg_cstr(b, value);
    pgw_msg_end(b, at);
}

void pgw_msg_auth(sl_buf_t *b, uint32_t code, const void *data, size_t len)
{
    size_t at = pgw_msg_begin(b, 'R');
    sl_buf_put_u32be(b, code);
    if (len) sl_buf_append(b, data, len);
    pgw_msg_end(b, at);
}

size_t pgw_datarow_len(const char *p, size_t avail)
{
    if (avail < 2) return 0;
    size_t n = sl_get_u16be(p), off = 2;
    for (size_t i = 0; i < n; i++) {
        if (avail - off < 4) return 0;
        uint32_t len = sl_get_u32be(p + off);
        off += 4;
        if (len == 0xFFFFFFFFu) continue;
        if (len > avail - off) return 0;
        off += len;
    }
    return off;
}

void pgw_msg_datarow(sl_buf_t *b, const char *body, size_t len)
{
    sl_buf_putc(b, 'D');
    sl_buf_put_u32be(b, (uint32_t)(len + 4));
    sl_buf_append(b, body, len);
}
