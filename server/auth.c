/* Authentication: password file loading, SCRAM-SHA-256 verifiers, the
 * server side of the SCRAM exchange, cleartext password checks. Pure
 * computation on the caller's thread; no I/O except auth_db_load(). */
#include "server/auth.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

#include "common/arena.h"

#define SCRAM_PREFIX "SCRAM-SHA-256$"
#define PASSWORD_FILE_MAX (16 << 20)

typedef struct auth_entry {
    char *name;
    auth_verifier_t v;
} auth_entry_t;

struct auth_db {
    auth_entry_t *users;
    int n;
    unsigned char secret[AUTH_KEY_LEN]; /* derives salts of plain passwords and mock salts */
};

/* ---- primitives ---------------------------------------------------------- */

int auth_ct_equal(const void *a, const void *b, size_t n)
{
    const volatile unsigned char *x = a, *y = b;
    unsigned char diff = 0;
    for (size_t i = 0; i < n; i++) diff |= (unsigned char)(x[i] ^ y[i]);
    return diff == 0;
}

static void hmac256(const void *key, size_t keylen, const void *data, size_t len,
                    unsigned char out[AUTH_KEY_LEN])
{
    unsigned int outlen = AUTH_KEY_LEN;
    HMAC(EVP_sha256(), key, (int)keylen, data, len, out, &outlen);
}

void auth_b64_encode(const void *p, size_t n, sl_buf_t *out)
{
    size_t need = 4 * ((n + 2) / 3);
    sl_buf_reserve(out, need + 1);
    EVP_EncodeBlock((unsigned char *)out->data + out->len, p, (int)n);
    out->len += need;
    out->data[out->len] = '\0';
}

static int b64_value(unsigned char c)
{
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

int auth_b64_decode(const char *s, size_t len, unsigned char *out, size_t cap)
{
    if (len % 4) return -1;
    size_t n = 0;
    for (size_t i = 0; i < len; i += 4) {
        int pad = 0, v[4];
        for (int k = 0; k < 4; k++) {
            unsigned char c = (unsigned char)s[i + k];
            if (c == '=' && i + 4 == len && k >= 2 && (k == 3 || s[i + 3] == '=')) {
                v[k] = 0;
                pad++;
            } else if ((v[k] = b64_value(c)) < 0 || pad) {
                return -1;
            }
        }
        unsigned long w = (unsigned long)v[0] << 18 | (unsigned long)v[1] << 12 |
                          (unsigned long)v[2] << 6 | (unsigned long)v[3];
        if (w & ((1ul << (8 * pad)) - 1)) return -1; /* bits past the data: not canonical */
        unsigned char bytes[3] = {(unsigned char)(w >> 16), (unsigned char)(w >> 8),
                                  (unsigned char)w};
        if (n + (size_t)(3 - pad) > cap) return -1;
        memcpy(out + n, bytes, (size_t)(3 - pad));
        n += (size_t)(3 - pad);
    }
    return (int)n;
}

/* ---- verifiers ----------------------------------------------------------- */

static void keys_from_salted(const unsigned char salted[AUTH_KEY_LEN], auth_verifier_t *v)
{
    unsigned char client_key[AUTH_KEY_LEN];
    hmac256(salted, AUTH_KEY_LEN, "Client Key", 10, client_key);
    SHA256(client_key, AUTH_KEY_LEN, v->stored_key);
    hmac256(salted, AUTH_KEY_LEN, "Server Key", 10, v->server_key);
}

static void salted_password(const char *password, const auth_verifier_t *v,
                            unsigned char out[AUTH_KEY_LEN])
{
    PKCS5_PBKDF2_HMAC(password, (int)strlen(password), v->salt, (int)v->salt_len, v->iterations,
                      EVP_sha256(), AUTH_KEY_LEN, out);
}

void auth_verifier_from_password(const char *password, const unsigned char *salt, size_t salt_len,
                                 int iterations, auth_verifier_t *v)
{
    memset(v, 0, sizeof *v);
    v->iterations = iterations;
    v->salt_len = salt_len > AUTH_SALT_MAX ? AUTH_SALT_MAX : salt_len;
    memcpy(v->salt, salt, v->salt_len);
    unsigned char salted[AUTH_KEY_LEN];
    salted_password(password, v, salted);
    keys_from_salted(salted, v);
}

int auth_verifier_check_password(const auth_verifier_t *v, const char *password)
{
    unsigned char salted[AUTH_KEY_LEN];
    auth_verifier_t probe = *v;
    salted_password(password, v, salted);
    keys_from_salted(salted, &probe);
    return auth_ct_equal(probe.stored_key, v->stored_key, AUTH_KEY_LEN);
}

/* Decodes the base64 text between p and end into exactly `want` bytes (0 =
 * any length up to cap); returns the length or -1. */
static int decode_part(const char *p, const char *end, unsigned char *out, size_t cap, size_t want)
{
    if (!end || end <= p) return -1;
    int n = auth_b64_decode(p, (size_t)(end - p), out, cap);
    if (n <= 0 || (want && (size_t)n != want)) return -1;
    return n;
}

int auth_verifier_parse(const char *text, auth_verifier_t *v, sl_error_t *err)
{
    memset(v, 0, sizeof *v);
    if (strncmp(text, SCRAM_PREFIX, strlen(SCRAM_PREFIX)))
        return sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE,
                            "verifier does not start with " SCRAM_PREFIX);
    const char *p = text + strlen(SCRAM_PREFIX);
    char *colon;
    errno = 0;
    long iter = strtol(p, &colon, 10);
    if (colon == p || *colon != ':' || errno || iter < 1 || iter > AUTH_MAX_ITERATIONS)
        return sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE,
                            "invalid iteration count in SCRAM verifier");
    v->iterations = (int)iter;
    const char *salt = colon + 1, *dollar = strchr(salt, '$');
    int n = decode_part(salt, dollar, v->salt, AUTH_SALT_MAX, 0);
    if (n < 0)
        return sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE, "invalid salt in SCRAM verifier");
    v->salt_len = (size_t)n;
    const char *stored = dollar + 1, *colon2 = strchr(stored, ':');
    if (decode_part(stored, colon2, v->stored_key, AUTH_KEY_LEN, AUTH_KEY_LEN) < 0)
        return sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE,
                            "invalid StoredKey in SCRAM verifier");
    const char *server = colon2 + 1;
    if (decode_part(server, server + strlen(server), v->server_key, AUTH_KEY_LEN, AUTH_KEY_LEN) < 0)
        return sl_error_set(err, SL_ERR_INVALID_PARAMETER_VALUE,
                            "invalid ServerKey in SCRAM verifier");
    return 0;
}

void auth_verifier_format(const auth_verifier_t *v, sl_buf_t *out)
{
    sl_buf_printf(out, SCRAM_PREFIX "%d:", v->iterations);
    auth_b64_encode(v->salt, v->salt_len, out);
    sl_buf_putc(out, '$');
    auth_b64_encode(v->stored_key, AUTH_KEY_LEN, out);
    sl_buf_putc(out, ':');
    auth_b64_encode(v->server_key, AUTH_KEY_LEN, out);
}

/* ---- the password file ---------------------------------------------------- */

/* HMAC(secret, purpose || 0 || user): the salt source for plain passwords
 * ("salt") and for unknown users ("mock"). */
static void derive(const unsigned char secret[AUTH_KEY_LEN], const char *purpose, const char *user,
                   unsigned char out[AUTH_KEY_LEN])
{
    sl_buf_t b = SL_BUF_INIT;
    sl_buf_append(&b, purpose, strlen(purpose) + 1);
    sl_buf_puts(&b, user);
    hmac256(secret, AUTH_KEY_LEN, b.data, b.len, out);
    sl_buf_free(&b);
}

static int db_find(const auth_db_t *db, const char *user)
{
    for (int i = 0; db && i < db->n; i++)
        if (!strcmp(db->users[i].name, user)) return i;
    return -1;
}

int auth_db_lookup(const auth_db_t *db, const char *user, auth_verifier_t *out)
{
    int i = db_find(db, user);
    if (i >= 0) {
        *out = db->users[i].v;
        return 1;
    }
    static const unsigned char no_secret[AUTH_KEY_LEN];
    const unsigned char *secret = db ? db->secret : no_secret;
    unsigned char salt[AUTH_KEY_LEN];
    memset(out, 0, sizeof *out);
    derive(secret, "mock", user, salt);
    out->iterations = AUTH_DEFAULT_ITERATIONS;
    out->salt_len = AUTH_DEFAULT_SALT_LEN;
    memcpy(out->salt, salt, AUTH_DEFAULT_SALT_LEN);
    derive(secret, "mock-stored-key", user, out->stored_key);
    derive(secret, "mock-server-key", user, out->server_key);
    return 0;
}

/* Parses one non-comment line `user:secret` into a new entry. */
static int db_add_line(auth_db_t *db, char *line, const char *origin, int lineno, sl_error_t *err)
{
    char *colon = strchr(line, ':');
    if (!colon || colon == line || !colon[1]) {
        sl_error_set(err, SL_ERR_CONFIG_FILE_ERROR, "invalid entry in password file \"%s\" line %d",
                     origin, lineno);
        return sl_error_detail(err, "Each line must be user:secret with both parts non-empty.");
    }
    *colon = '\0';
    const char *secret = colon + 1;
    if (db_find(db, line) >= 0)
        return sl_error_set(err, SL_ERR_CONFIG_FILE_ERROR,
                            "duplicate user \"%s\" in password file \"%s\" line %d", line, origin,
                            lineno);
    auth_verifier_t v;
    if (!strncmp(secret, SCRAM_PREFIX, strlen(SCRAM_PREFIX))) {
        sl_error_t verr;
        if (auth_verifier_parse(secret, &v, &verr) < 0)
            return sl_error_set(err, SL_ERR_CONFIG_FILE_ERROR,
                                "invalid entry in password file \"%s\" line %d: %s", origin, lineno,
                                verr.message);
    } else {
        unsigned char salt[AUTH_KEY_LEN];
        derive(db->secret, "salt", line, salt);
        auth_verifier_from_password(secret, salt, AUTH_DEFAULT_SALT_LEN, AUTH_DEFAULT_ITERATIONS,
                                    &v);
    }
    db->users = sl_xrealloc(db->users, sizeof *db->users * (size_t)(db->n + 1));
    db->users[db->n].name = sl_xstrdup(line);
    db->users[db->n].v = v;
    db->n++;
    return 0;
}

static int line_is_blank_or_comment(const char *s)
{
    while (*s == ' ' || *s == '\t') s++;
    return *s == '\0' || *s == '#';
}

auth_db_t *auth_db_parse(const char *text, size_t len, const char *origin, sl_error_t *err)
{
    auth_db_t *db = sl_xcalloc(1, sizeof *db);
    /* The secret is a hash of the whole file: stable across restarts, unknown outside. */
    hmac256("sluice password file", 20, text, len, db->secret);
    char *copy = sl_xstrndup(text, len);
    int lineno = 0, rc = 0;
    for (char *line = copy, *next; line && rc == 0; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = '\0';
        lineno++;
        size_t n = strlen(line);
        if (n && line[n - 1] == '\r') line[n - 1] = '\0';
        if (!line_is_blank_or_comment(line)) rc = db_add_line(db, line, origin, lineno, err);
    }
    OPENSSL_cleanse(copy, len);
    free(copy);
    if (rc < 0) {
        auth_db_free(db);
        return NULL;
    }
    return db;
}

auth_db_t *auth_db_load(const char *path, sl_error_t *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        sl_error_set(err, SL_ERR_CONFIG_FILE_ERROR, "could not open password file \"%s\": %s", path,
                     strerror(errno));
        return NULL;
    }
    sl_buf_t text = SL_BUF_INIT;
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0 && text.len <= PASSWORD_FILE_MAX)
        sl_buf_append(&text, chunk, n);
    int bad = ferror(f) || text.len > PASSWORD_FILE_MAX;
    fclose(f);
    auth_db_t *db = NULL;
    if (bad)
        sl_error_set(err, SL_ERR_CONFIG_FILE_ERROR, "could not read password file \"%s\"", path);
    else db = auth_db_parse(text.data ? text.data : "", text.len, path, err);
    if (text.data) OPENSSL_cleanse(text.data, text.len);
    sl_buf_free(&text);
    return db;
}

void auth_db_free(auth_db_t *db)
{
    if (!db) return;
    for (int i = 0; i < db->n; i++) free(db->users[i].name);
    OPENSSL_cleanse(db->users, sizeof *db->users * (size_t)db->n);
    free(db->users);
    OPENSSL_cleanse(db, sizeof *db);
    free(db);
}

int auth_db_count(const auth_db_t *db)
{
    return db ? db->n : 0;
}

int auth_fail(sl_error_t *err, const char *user)
{
    return sl_error_set(err, SL_ERR_INVALID_PASSWORD,
                        "password authentication failed for user \"%s\"", user);
}

/* ---- SCRAM-SHA-256 exchange ---------------------------------------------- */

#define MECH_SCRAM "SCRAM-SHA-256"
#define MECH_SCRAM_PLUS "SCRAM-SHA-256-PLUS"
#define CBIND_TYPE "tls-server-end-point"

static int scram_malformed(sl_error_t *err, const char *detail)
{
    sl_error_set(err, SL_ERR_PROTOCOL_VIOLATION, "malformed SCRAM message");
    return sl_error_detail(err, "%s", detail);
}

/* Reads "<name>=<value>" at *p up to the next ',' (or the end); advances
 * past the comma. Returns 0, or -1 when *p does not start with name=. */
static int scram_attr(const char **p, char name, const char **val, size_t *vlen)
{
    const char *s = *p;
    if (s[0] != name || s[1] != '=') return -1;
    const char *end = strchr(s + 2, ',');
    if (!end) end = s + strlen(s);
    *val = s + 2;
    *vlen = (size_t)(end - (s + 2));
    *p = *end ? end + 1 : end;
    return 0;
}

void auth_scram_init(auth_scram_t *st, const auth_db_t *db, const char *user,
                     const unsigned char *cbind, size_t cbind_len)
{
    memset(st, 0, sizeof *st);
    st->user = sl_xstrdup(user);
    st->known = auth_db_lookup(db, user, &st->v);
    if (cbind && cbind_len > 0 && cbind_len <= AUTH_CBIND_MAX) {
        memcpy(st->cbind, cbind, cbind_len);
        st->cbind_len = cbind_len;
    }
}

void auth_scram_mechanisms(const auth_scram_t *st, sl_buf_t *out)
{
    if (st->cbind_len) sl_buf_append(out, MECH_SCRAM_PLUS, sizeof MECH_SCRAM_PLUS);
    sl_buf_append(out, MECH_SCRAM, sizeof MECH_SCRAM);
    sl_buf_putc(out, '\0');
}

/* The gs2 header: channel binding flag and (absent) authzid. Sets *p past it. */
static int scram_gs2(auth_scram_t *st, int plus_mech, const char **p, sl_error_t *err)
{
    const char *s = *p;
    if (s[0] == 'p' && s[1] == '=') {
        if (!plus_mech)
            return scram_malformed(err, "The client requested channel binding but selected "
                                        "SCRAM-SHA-256.");
        if (strncmp(s + 2, CBIND_TYPE ",", strlen(CBIND_TYPE) + 1))
            return scram_malformed(err, "Unsupported channel binding type.");
        s += 2 + strlen(CBIND_TYPE) + 1;
    } else if ((s[0] == 'n' || s[0] == 'y') && s[1] == ',') {
        if (plus_mech)
            return scram_malformed(err, "The client selected SCRAM-SHA-256-PLUS without "
                                        "channel binding data.");
        /* "y": the client could bind but thinks we cannot; we offered PLUS, so it was
         * downgraded by someone in the middle. */
        if (s[0] == 'y' && st->cbind_len)
            return sl_error_set(err, SL_ERR_PROTOCOL_VIOLATION,
                                "SCRAM channel binding negotiation error");
        s += 2;
    } else {
        return scram_malformed(err, "Unexpected channel binding flag.");
    }
    if (*s == 'a') return scram_malformed(err, "Authorization identities are not supported.");
    if (*s != ',') return scram_malformed(err, "Expected a comma after the channel binding flag.");
    s++;
    st->gs2_header = sl_xstrndup(*p, (size_t)(s - *p));
    st->plus = plus_mech;
    *p = s;
    return 0;
}

/* The client-first-message-bare: "n=<user>,r=<nonce>[,ext...]". The user name
 * in it is ignored: the startup packet's user is the one authenticated. */
static int scram_bare(auth_scram_t *st, const char *bare, sl_error_t *err)
{
    const char *p = bare, *val, *nonce;
    size_t vlen, nlen;
    if (*p == 'm') return scram_malformed(err, "Mandatory extensions are not supported.");
    if (scram_attr(&p, 'n', &val, &vlen) < 0)
        return scram_malformed(err, "Expected attribute \"n\".");
    if (scram_attr(&p, 'r', &nonce, &nlen) < 0 || nlen == 0)
        return scram_malformed(err, "Expected attribute \"r\".");
    for (size_t i = 0; i < nlen; i++)
        if (nonce[i] < 0x21 || nonce[i] > 0x7e)
            return scram_malformed(err, "The client nonce contains invalid characters.");
    st->client_first_bare = sl_xstrdup(bare);
    unsigned char raw[AUTH_NONCE_RAW_LEN];
    sl_buf_t b = SL_BUF_INIT;
    sl_buf_append(&b, nonce, nlen);
    if (st->test_server_nonce) {
        sl_buf_puts(&b, st->test_server_nonce);
    } else {
        if (RAND_bytes(raw, sizeof raw) != 1)
            return sl_error_set(err, SL_ERR_INTERNAL_ERROR, "could not generate a SCRAM nonce");
        auth_b64_encode(raw, sizeof raw, &b);
    }
    st->nonce = sl_buf_steal(&b);
    return 0;
}

int auth_scram_first(auth_scram_t *st, const char *mech, const char *msg, size_t len, sl_buf_t *out,
                     sl_error_t *err)
{
    int plus = !strcmp(mech, MECH_SCRAM_PLUS);
    if (st->step != 0 || (!plus && strcmp(mech, MECH_SCRAM)) || (plus && !st->cbind_len))
        return sl_error_set(err, SL_ERR_PROTOCOL_VIOLATION,
                            "client selected an invalid SASL authentication mechanism");
    if (memchr(msg, '\0', len)) return scram_malformed(err, "Unexpected NUL byte.");
    char *text = sl_xstrndup(msg, len);
    const char *p = text;
    int rc = scram_gs2(st, plus, &p, err);
    if (rc == 0) rc = scram_bare(st, p, err);
    free(text);
    if (rc < 0) return -1;
    sl_buf_t sf = SL_BUF_INIT;
    sl_buf_printf(&sf, "r=%s,s=", st->nonce);
    auth_b64_encode(st->v.salt, st->v.salt_len, &sf);
    sl_buf_printf(&sf, ",i=%d", st->v.iterations);
    sl_buf_append(out, sf.data, sf.len);
    st->server_first = sl_buf_steal(&sf);
    st->step = 1;
    return 0;
}

/* Checks "c=" against base64(gs2 header [+ channel binding data]). */
static int scram_check_cbind(const auth_scram_t *st, const char *val, size_t vlen, sl_error_t *err)
{
    sl_buf_t raw = SL_BUF_INIT, want = SL_BUF_INIT;
    sl_buf_puts(&raw, st->gs2_header);
    if (st->plus) sl_buf_append(&raw, st->cbind, st->cbind_len);
    auth_b64_encode(raw.data, raw.len, &want);
    int ok = want.len == vlen && auth_ct_equal(want.data, val, vlen);
    sl_buf_free(&raw);
    sl_buf_free(&want);
    if (ok) return 0;
    sl_error_set(err, SL_ERR_PROTOCOL_VIOLATION, "SCRAM channel binding check failed");
    return -1;
}

/* Verifies the proof over AuthMessage; appends "v=<ServerSignature>" on success. */
static int scram_verify(auth_scram_t *st, const char *without_proof, size_t wlen,
                        const unsigned char proof[AUTH_KEY_LEN], sl_buf_t *out, sl_error_t *err)
{
    sl_buf_t am = SL_BUF_INIT;
    sl_buf_printf(&am, "%s,%s,", st->client_first_bare, st->server_first);
    sl_buf_append(&am, without_proof, wlen);
    unsigned char sig[AUTH_KEY_LEN], client_key[AUTH_KEY_LEN], stored[AUTH_KEY_LEN];
    hmac256(st->v.stored_key, AUTH_KEY_LEN, am.data, am.len, sig);
    for (int i = 0; i < AUTH_KEY_LEN; i++) client_key[i] = proof[i] ^ sig[i];
    SHA256(client_key, AUTH_KEY_LEN, stored);
    int ok = auth_ct_equal(stored, st->v.stored_key, AUTH_KEY_LEN) & st->known;
    if (ok) {
        hmac256(st->v.server_key, AUTH_KEY_LEN, am.data, am.len, sig);
        sl_buf_puts(out, "v=");
        auth_b64_encode(sig, AUTH_KEY_LEN, out);
    }
    sl_buf_free(&am);
    return ok ? 0 : auth_fail(err, st->user);
}

int auth_scram_final(auth_scram_t *st, const char *msg, size_t len, sl_buf_t *out, sl_error_t *err)
{
    if (st->step != 1) return scram_malformed(err, "Unexpected SCRAM message.");
    if (memchr(msg, '\0', len)) return scram_malformed(err, "Unexpected NUL byte.");
    char *text = sl_xstrndup(msg, len);
    const char *p = text, *val, *proof_at = NULL;
    size_t vlen;
    int rc = -1;
    unsigned char proof[AUTH_KEY_LEN];
    for (const char *q = strstr(text, ",p="); q; q = strstr(q + 1, ",p=")) proof_at = q;
    if (scram_attr(&p, 'c', &val, &vlen) < 0) scram_malformed(err, "Expected attribute \"c\".");
    else if (scram_check_cbind(st, val, vlen, err) < 0)
        ;
    else if (scram_attr(&p, 'r', &val, &vlen) < 0)
        scram_malformed(err, "Expected attribute \"r\".");
    else if (vlen != strlen(st->nonce) || memcmp(val, st->nonce, vlen))
        scram_malformed(err, "The nonce does not match.");
    else if (!proof_at || p > proof_at + 1 || strchr(proof_at + 3, ','))
        scram_malformed(err, "Expected the proof as the last attribute.");
    else if (auth_b64_decode(proof_at + 3, strlen(proof_at + 3), proof, sizeof proof) !=
             AUTH_KEY_LEN)
        scram_malformed(err, "Malformed proof.");
    else rc = scram_verify(st, text, (size_t)(proof_at - text), proof, out, err);
    free(text);
    st->step = 2;
    return rc;
}

void auth_scram_free(auth_scram_t *st)
{
    free(st->user);
    free(st->gs2_header);
    free(st->client_first_bare);
    free(st->server_first);
    free(st->nonce);
    OPENSSL_cleanse(st, sizeof *st);
}
