/* libFuzzer target for authentication input from clients and files: the
 * first byte picks what the rest is fed to.
 *   0  a password file (auth_db_parse): F0000 or users that can be looked up
 *   1  a SCRAM verifier (auth_verifier_parse): what parses formats and
 *      parses back to the same verifier
 *   2  base64 (auth_b64_decode): what decodes encodes back to the same text
 *   3, 4  a SCRAM-SHA-256 exchange for user "alice" (4: with TLS channel
 *      binding data): "mechanism\nclient-first\nclient-final". Only 08P01
 *      and 28P01 errors, and never a success: a client-final that passes
 *      without knowing the password would be an authentication bypass.
 * `make test` replays tests/fuzz/corpus/auth. */
#include "tests/fuzz/fuzz.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "server/auth.h"

static void check(int ok)
{
    if (!ok) abort(); /* a broken invariant: libFuzzer saves the input */
}

static void password_file(const char *p, size_t n)
{
    sl_error_t err;
    sl_error_clear(&err);
    auth_db_t *db = auth_db_parse(p, n, "fuzz", &err);
    if (!db) {
        check(!strcmp(err.sqlstate, "F0000") && err.message[0]);
        return;
    }
    auth_verifier_t v;
    auth_db_lookup(db, "alice", &v);
    check(v.salt_len >= 1 && v.salt_len <= AUTH_SALT_MAX && v.iterations >= 1);
    auth_db_free(db);
}

static void verifier(const char *text)
{
    sl_error_t err;
    auth_verifier_t v, w;
    if (auth_verifier_parse(text, &v, &err) < 0) {
        check(!strcmp(err.sqlstate, "22023"));
        return;
    }
    sl_buf_t b = SL_BUF_INIT;
    auth_verifier_format(&v, &b);
    check(auth_verifier_parse(b.data, &w, &err) == 0);
    check(!memcmp(&v, &w, sizeof v) || (v.iterations == w.iterations && v.salt_len == w.salt_len &&
                                        !memcmp(v.salt, w.salt, v.salt_len) &&
                                        !memcmp(v.stored_key, w.stored_key, AUTH_KEY_LEN) &&
                                        !memcmp(v.server_key, w.server_key, AUTH_KEY_LEN)));
    sl_buf_free(&b);
}

static void base64(const char *p, size_t n)
{
    unsigned char out[4096], again[4096];
    int len = auth_b64_decode(p, n, out, sizeof out);
    if (len < 0) return;
    sl_buf_t b = SL_BUF_INIT;
    auth_b64_encode(out, (size_t)len, &b);
    check(b.len == n && !memcmp(b.data, p, n));
    check(auth_b64_decode(b.data, b.len, again, sizeof again) == len &&
          !memcmp(out, again, (size_t)len));
    sl_buf_free(&b);
}

/* alice's password file: a verifier with one PBKDF2 iteration keeps runs fast. */
static auth_db_t *alice_db(void)
{
    static auth_db_t *db;
    if (db) return db;
    auth_verifier_t v;
    static const unsigned char salt[] = "0123456789abcdef";
    auth_verifier_from_password("secret", salt, 16, 1, &v);
    sl_buf_t b = SL_BUF_INIT;
    sl_buf_puts(&b, "alice:");
    auth_verifier_format(&v, &b);
    sl_error_t err;
    db = auth_db_parse(b.data, b.len, "fuzz", &err);
    check(db != NULL);
    sl_buf_free(&b);
    return db;
}

static int scram_error(const sl_error_t *err)
{
    return !strcmp(err->sqlstate, "08P01") || !strcmp(err->sqlstate, "28P01");
}

static void scram(const char *p, size_t n, int tls)
{
    const char *nl1 = memchr(p, '\n', n);
    if (!nl1) return;
    const char *first = nl1 + 1, *nl2 = memchr(first, '\n', n - (size_t)(first - p));
    size_t first_len = nl2 ? (size_t)(nl2 - first) : n - (size_t)(first - p);
    char *mech = strndup(p, (size_t)(nl1 - p));
    static const unsigned char cbind[32] = {1, 2, 3};
    auth_scram_t st;
    auth_scram_init(&st, alice_db(), "alice", tls ? cbind : NULL, tls ? sizeof cbind : 0);
    st.test_server_nonce = "fuzzfuzzfuzzfuzzfuzzfuzz";
    sl_buf_t out = SL_BUF_INIT;
    sl_error_t err;
    sl_error_clear(&err);
    if (auth_scram_first(&st, mech, first, first_len, &out, &err) < 0) {
        check(scram_error(&err));
    } else if (nl2) {
        const char *final = nl2 + 1;
        sl_buf_clear(&out);
        int rc = auth_scram_final(&st, final, n - (size_t)(final - p), &out, &err);
        check(rc < 0 && scram_error(&err));
    }
    sl_buf_free(&out);
    auth_scram_free(&st);
    free(mech);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    /* an exact-size NUL-terminated copy, so that ASan catches reads past the end */
    char *p = malloc(size);
    memcpy(p, data + 1, size - 1);
    p[size - 1] = '\0';
    size_t n = size - 1;
    switch (data[0] % 5) {
    case 0: password_file(p, n); break;
    case 1: verifier(p); break;
    case 2: base64(p, n); break;
    default: scram(p, n, data[0] % 5 == 4); break;
    }
    free(p);
    return 0;
}
