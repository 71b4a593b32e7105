/* exec expressions: LIKE / ILIKE. A constant pattern is analysed once into
 * exact / prefix / suffix / contains / general form; the general matcher
 * walks pattern and string with one backtrack point (the last `%`), so it
 * runs in O(n * m) at worst and O(n) for the usual patterns. `_` matches
 * one UTF-8 character. ILIKE folds case with exec_str_case (ASCII, Latin-1,
 * Latin Extended-A, Greek, Cyrillic) on both sides. Also home of that
 * case-folding routine, which lower() and upper() use. */
#include <string.h>

#include "exec/expr_int.h"

/* ---- case folding ------------------------------------------------------------------- */

static uint32_t fold_cp(uint32_t c, bool upper)
{
    if (upper) {
        if ((c >= 'a' && c <= 'z') || (c >= 0xe0 && c <= 0xfe && c != 0xf7)) return c - 0x20;
        if (c == 0xff) return 0x178;
        if (c >= 0x3b1 && c <= 0x3cb) return c == 0x3c2 ? 0x3a3 : c - 0x20;
        if (c == 0x3ac) return 0x386;
        if (c >= 0x3ad && c <= 0x3af) return c - 0x25;
        if (c == 0x3cc) return 0x38c;
        if (c == 0x3cd || c == 0x3ce) return c - 0x3f;
        if (c >= 0x430 && c <= 0x44f) return c - 0x20;
        if (c >= 0x450 && c <= 0x45f) return c - 0x50;
        if (c >= 0x100 && c <= 0x17f) {
            bool odd_upper = (c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17e);
            if (c == 0x131 || c == 0x138 || c == 0x149 || c == 0x17f || c == 0x130) return c;
            return odd_upper ? (c % 2 == 0 ? c - 1 : c) : (c % 2 == 1 ? c - 1 : c);
        }
        return c;
    }
    if ((c >= 'A' && c <= 'Z') || (c >= 0xc0 && c <= 0xde && c != 0xd7)) return c + 0x20;
    if (c == 0x178) return 0xff;
    if (c >= 0x391 && c <= 0x3ab && c != 0x3a2) return c + 0x20;
    if (c == 0x386) return 0x3ac;
    if (c >= 0x388 && c <= 0x38a) return c + 0x25;
    if (c == 0x38c) return 0x3cc;
    if (c == 0x38e || c == 0x38f) return c + 0x3f;
    if (c >= 0x410 && c <= 0x42f) return c + 0x20;
    if (c >= 0x400 && c <= 0x40f) return c + 0x50;
    if (c >= 0x100 && c <= 0x17f) {
        bool odd_upper = (c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17e);
        if (c == 0x131 || c == 0x138 || c == 0x149 || c == 0x17f || c == 0x130) return c;
        return odd_upper ? (c % 2 == 1 ? c + 1 : c) : (c % 2 == 0 ? c + 1 : c);
    }
    return c;
}

/* Folds the 2-byte UTF-8 sequence at p (all mapped code points are 2 bytes
 * and map to 2 bytes). */
static void fold2(const unsigned char *p, char *o, bool upper)
{
    uint32_t c = (uint32_t)(p[0] & 0x1f) << 6 | (p[1] & 0x3f);
    uint32_t f = fold_cp(c, upper);
    o[0] = (char)(0xc0 | f >> 6);
    o[1] = (char)(0x80 | (f & 0x3f));
}

exec_str_t exec_str_case(sl_arena_t *a, exec_str_t s, bool upper)
{
    char *o = sl_alloc(a, s.len ? s.len : 1);
    const unsigned char *p = (const unsigned char *)s.ptr;
    for (uint32_t i = 0; i < s.len;) {
        unsigned char c = p[i];
        if (c < 0x80) {
            o[i++] = (char)(upper ? (c >= 'a' && c <= 'z' ? c - 32 : c)
                                  : (c >= 'A' && c <= 'Z' ? c + 32 : c));
        } else if ((c & 0xe0) == 0xc0 && i + 1 < s.len && (p[i + 1] & 0xc0) == 0x80) {
            fold2(p + i, o + i, upper);
            i += 2;
        } else {
            o[i] = (char)c;
            i++;
        }
    }
    exec_str_t r = {s.len, o};
    return r;
}

/* ---- matching ------------------------------------------------------------------------ */

static inline size_t utf8_len(unsigned char c)
{
    return c < 0x80             ? 1
           : (c & 0xe0) == 0xc0 ? 2
           : (c & 0xf0) == 0xe0 ? 3
           : (c & 0xf8) == 0xf0 ? 4
                                : 1;
}

bool exec_like_match(const char *s, size_t n, const char *p, size_t pn, int escape, bool ilike)
{
    (void)ilike; /* callers fold both sides first */
    size_t si = 0, pi = 0, star_p = (size_t)-1, star_s = 0;
    while (si < n) {
        if (pi < pn) {
            unsigned char c = (unsigned char)p[pi];
            if (c == '%') {
                star_p = ++pi;
                star_s = si;
                continue;
            }
            if (c == '_') {
                si += utf8_len((unsigned char)s[si]);
                pi++;
                continue;
            }
            size_t plen = 1;
            if (escape && c == escape && pi + 1 < pn) c = (unsigned char)p[pi + 1], plen = 2;
            if ((unsigned char)s[si] == c) {
                si++;
                pi += plen;
                continue;
            }
        }
        if (star_p == (size_t)-1) return false;
        star_s += utf8_len((unsigned char)s[star_s]);
        si = star_s;
        pi = star_p;
    }
    while (pi < pn && p[pi] == '%') pi++;
    return pi == pn;
}

bool exec_like_bad_escape(const char *p, size_t n, int escape)
{
    for (size_t i = 0; escape && i < n; i++)
        if ((unsigned char)p[i] == escape && ++i == n) return true;
    return false;
}

/* ---- constant patterns ------------------------------------------------------------------ */

typedef enum { LIKE_EXACT, LIKE_PREFIX, LIKE_SUFFIX, LIKE_CONTAINS, LIKE_GENERAL } like_kind_t;

typedef struct like_pat {
    like_kind_t kind;
    const char *lit; /* unescaped literal (EXACT..CONTAINS), else the (folded) pattern */
    size_t len;
    int escape;
    bool ilike;
} like_pat_t;

/* Unescapes pattern text with no wildcards; false when it holds one. */
static bool literal_part(const char *p, size_t n, int escape, char *out, size_t *len)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)p[i];
        if (escape && c == escape && i + 1 < n) c = (unsigned char)p[++i];
        else if (c == '%' || c == '_') return false;
        out[k++] = (char)c;
    }
    *len = k;
    return true;
}

const void *exec_like_compile(sl_arena_t *a, const char *pat, size_t n, int escape, bool ilike)
{
    like_pat_t *lp = SL_NEW(a, like_pat_t);
    lp->escape = escape;
    lp->ilike = ilike;
    if (ilike) {
        exec_str_t f = exec_str_case(a, (exec_str_t){(uint32_t)n, pat}, false);
        pat = f.ptr;
    }
    char *lit = sl_alloc(a, n + 1);
    size_t lead = 0, trail = 0;
    while (lead < n && pat[lead] == '%') lead++;
    while (trail < n - lead && pat[n - 1 - trail] == '%' &&
           !(escape && n - trail >= 2 && (unsigned char)pat[n - 2 - trail] == escape))
        trail++;
    lp->kind = LIKE_GENERAL;
    lp->lit = pat;
    lp->len = n;
    size_t len;
    if (lead <= 1 && trail <= 1 && literal_part(pat + lead, n - lead - trail, escape, lit, &len)) {
        lp->kind = lead && trail ? LIKE_CONTAINS
                   : lead        ? LIKE_SUFFIX
                   : trail       ? LIKE_PREFIX
                                 : LIKE_EXACT;
        lp->lit = lit;
        lp->len = len;
    }
    return lp;
}

static bool match_pat(const like_pat_t *lp, exec_str_t s)
{
    switch (lp->kind) {
    case LIKE_EXACT: return s.len == lp->len && !memcmp(s.ptr, lp->lit, lp->len);
    case LIKE_PREFIX: return s.len >= lp->len && !memcmp(s.ptr, lp->lit, lp->len);
    case LIKE_SUFFIX: return s.len >= lp->len && !memcmp(s.ptr + s.len - lp->len, lp->lit, lp->len);
    case LIKE_CONTAINS: return lp->len == 0 || (s.len && memmem(s.ptr, s.len, lp->lit, lp->len));
    default: return exec_like_match(s.ptr, s.len, lp->lit, lp->len, lp->escape, false);
    }
}

int exec_like_const_kernel(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err)
{
    (void)err;
    const like_pat_t *lp = st->aux;
    const exec_vec_t *x = &ev->regs[st->in[0]];
    exec_vec_t *o = exec_step_out(st, ev);
    o->nulls = x->nulls;
    const exec_str_t *S = x->data;
    uint8_t *out = o->data, neg = (uint8_t)st->op;
    if (lp->ilike)
        FOR_SEL_VALID(&ev->sels[st->sel], x->nulls,
                      out[i] = match_pat(lp, exec_str_case(ev->a, S[i], false)) ^ neg);
    else FOR_SEL_VALID(&ev->sels[st->sel], x->nulls, out[i] = match_pat(lp, S[i]) ^ neg);
    return 0;
}

int exec_like_dyn_kernel(const exec_step_t *st, exec_eval_t *ev, sl_error_t *err)
{
    const exec_like_dyn_aux_t *la = st->aux;
    const exec_vec_t *x = &ev->regs[st->in[0]], *p = &ev->regs[st->in[1]];
    exec_vec_t *o = exec_step_out(st, ev);
    o->nulls = exec_nulls_or(ev, x->nulls, p->nulls);
    const exec_str_t *S = x->data, *P = p->data;
    uint8_t *out = o->data, neg = (uint8_t)st->op;
    bool bad = false;
    FOR_SEL_VALID(&ev->sels[st->sel], o->nulls, {
        exec_str_t s = S[i], pt = P[i];
        bad |= exec_like_bad_escape(pt.ptr, pt.len, la->escape);
        if (la->ilike) {
            s = exec_str_case(ev->a, s, false);
            pt = exec_str_case(ev->a, pt, false);
        }
        out[i] = exec_like_match(s.ptr, s.len, pt.ptr, pt.len, la->escape, false) ^ neg;
    });
    if (bad)
        return sl_error_set(err, SL_ERR_INVALID_ESCAPE_SEQUENCE,
                            "LIKE pattern must not end with escape character");
    return 0;
}
