/* Unit tests of server/auth: SCRAM-SHA-256 against RFC 7677's test vector,
 * channel binding, verifier parsing, the password file, base64 and the
 * constant-time compare. */
#include "unit.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>

#include "common/buf.h"
#include "server/auth.h"

/* RFC 7677 section 3. */
#define RFC_SALT "W22ZaJ0SNY7soEsUEjb6gQ=="
#define RFC_CLIENT_FIRST "n,,n=user,r=rOprNGfwEbeRWgbNEkqO"
#define RFC_SNONCE "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0"
#define RFC_SERVER_FIRST \
    "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096"
#define RFC_CLIENT_FINAL                                           \
    "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0," \
    "p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ="
#define RFC_SERVER_FINAL "v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4="

/* A password file whose user "user" has password "pencil" with RFC 7677's salt. */
static auth_db_t *rfc_db(void)
{
    unsigned char salt[32];
    int n = auth_b64_decode(RFC_SALT, strlen(RFC_SALT), salt, sizeof salt);
    CHECK_INT(n, 16);
    auth_verifier_t v;
    auth_verifier_from_password("pencil", salt, (size_t)n, 4096, &v);
    sl_buf_t text = SL_BUF_INIT;
    sl_buf_puts(&text, "user:");
    auth_verifier_format(&v, &text);
    sl_buf_puts(&text, "\n");
    sl_error_t err;
    auth_db_t *db = auth_db_parse(text.data, text.len, "test", &err);
    CHECK(db != NULL);
    sl_buf_free(&text);
    return db;
}

static int scram_first(auth_scram_t *st, const char *mech, const char *msg, sl_buf_t *out,
                       sl_error_t *err)
{
    return auth_scram_first(st, mech, msg, strlen(msg), out, err);
}

static int scram_final(auth_scram_t *st, const char *msg, sl_buf_t *out, sl_error_t *err)
{
    return auth_scram_final(st, msg, strlen(msg), out, err);
}

TEST(scram_rfc7677_vector)
{
    auth_db_t *db = rfc_db();
    auth_scram_t st;
    auth_scram_init(&st, db, "user", NULL, 0);
    st.test_server_nonce = RFC_SNONCE;
    sl_buf_t mechs = SL_BUF_INIT, out = SL_BUF_INIT;
    auth_scram_mechanisms(&st, &mechs);
    CHECK_INT(mechs.len, sizeof "SCRAM-SHA-256" + 1); /* no -PLUS without TLS */
    CHECK_STR(mechs.data, "SCRAM-SHA-256");
    sl_error_t err;
    CHECK_INT(scram_first(&st, "SCRAM-SHA-256", RFC_CLIENT_FIRST, &out, &err), 0);
    CHECK_STR(out.data, RFC_SERVER_FIRST);
    sl_buf_clear(&out);
    CHECK_INT(scram_final(&st, RFC_CLIENT_FINAL, &out, &err), 0);
    CHECK_STR(out.data, RFC_SERVER_FINAL);
    auth_scram_free(&st);
    auth_db_free(db);
    sl_buf_free(&mechs);
    sl_buf_free(&out);
}

TEST(scram_wrong_proof_fails_with_28p01)
{
    auth_db_t *db = rfc_db();
    auth_scram_t st;
    auth_scram_init(&st, db, "user", NULL, 0);
    st.test_server_nonce = RFC_SNONCE;
    sl_buf_t out = SL_BUF_INIT;
    sl_error_t err;
    CHECK_INT(scram_first(&st, "SCRAM-SHA-256", RFC_CLIENT_FIRST, &out, &err), 0);
    sl_buf_clear(&out);
    char bad[] = RFC_CLIENT_FINAL;
    bad[strlen(bad) - 5] = bad[strlen(bad) - 5] == 'A' ? 'B' : 'A';
    CHECK_INT(scram_final(&st, bad, &out, &err), -1);
    CHECK_STR(err.sqlstate, "28P01");
    CHECK_STR(err.message, "password authentication failed for user \"user\"");
    CHECK_INT(out.len, 0);
    auth_scram_free(&st);
    auth_db_free(db);
    sl_buf_free(&out);
}

/* Computes the client-final-message for `password` the way a client does. */
static void client_final(const char *password, const char *client_first_bare,
                         const char *server_first, const char *cbind_b64, sl_buf_t *out)
{
    const char *r = strstr(server_first, "r=") + 2, *s = strstr(server_first, ",s=") + 3;
    const char *i = strstr(server_first, ",i=") + 3;
    unsigned char salt[128], salted[32], ck[32], sk[32], sig[32], proof[32];
    int slen = auth_b64_decode(s, (size_t)(i - 3 - s), salt, sizeof salt);
    CHECK(slen > 0);
    PKCS5_PBKDF2_HMAC(password, (int)strlen(password), salt, slen, atoi(i), EVP_sha256(), 32,
                      salted);
    unsigned int len = 32;
    HMAC(EVP_sha256(), salted, 32, (const unsigned char *)"Client Key", 10, ck, &len);
    SHA256(ck, 32, sk);
    sl_buf_t without = SL_BUF_INIT, am = SL_BUF_INIT;
    sl_buf_printf(&without, "c=%s,r=%.*s", cbind_b64, (int)(s - 3 - r), r);
    sl_buf_printf(&am, "%s,%s,%s", client_first_bare, server_first, without.data);
    HMAC(EVP_sha256(), sk, 32, (const unsigned char *)am.data, am.len, sig, &len);
    for (int k = 0; k < 32; k++) proof[k] = ck[k] ^ sig[k];
    sl_buf_printf(out, "%s,p=", without.data);
    auth_b64_encode(proof, 32, out);
    sl_buf_free(&without);
    sl_buf_free(&am);
}

TEST(scram_plain_password_entry_and_random_nonce)
{
    const char *file = "# users\n\nalice:s3cret:with:colons\r\n";
    sl_error_t err;
    auth_db_t *db = auth_db_parse(file, strlen(file), "test", &err);
    CHECK(db != NULL);
    CHECK_INT(auth_db_count(db), 1);
    auth_scram_t st;
    auth_scram_init(&st, db, "alice", NULL, 0);
    sl_buf_t sf = SL_BUF_INIT, cf = SL_BUF_INIT, out = SL_BUF_INIT;
    CHECK_INT(scram_first(&st, "SCRAM-SHA-256", "n,,n=,r=abcdefgh", &sf, &err), 0);
    CHECK(!strncmp(sf.data, "r=abcdefgh", 10));
    CHECK(strlen(st.nonce) == 8 + 24); /* client nonce + 18 random bytes in base64 */
    CHECK(strstr(sf.data, ",i=4096") != NULL);
    client_final("s3cret:with:colons", "n=,r=abcdefgh", sf.data, "biws", &cf);
    CHECK_INT(scram_final(&st, cf.data, &out, &err), 0);
    CHECK(!strncmp(out.data, "v=", 2));
    auth_scram_free(&st);
    auth_db_free(db);
    sl_buf_free(&sf);
    sl_buf_free(&cf);
    sl_buf_free(&out);
}

/* Runs the exchange for `user` with `password`; returns the final result. */
static int exchange(const auth_db_t *db, const char *user, const char *password, char *salt_out,
                    sl_error_t *err)
{
    auth_scram_t st;
    auth_scram_init(&st, db, user, NULL, 0);
    sl_buf_t sf = SL_BUF_INIT, cf = SL_BUF_INIT, out = SL_BUF_INIT;
    CHECK_INT(scram_first(&st, "SCRAM-SHA-256", "n,,n=,r=nonce123", &sf, err), 0);
    const char *s = strstr(sf.data, ",s=") + 3;
    snprintf(salt_out, 64, "%.*s", (int)(strstr(s, ",") - s), s);
    client_final(password, "n=,r=nonce123", sf.data, "biws", &cf);
    int rc = scram_final(&st, cf.data, &out, err);
    auth_scram_free(&st);
    sl_buf_free(&sf);
    sl_buf_free(&cf);
    sl_buf_free(&out);
    return rc;
}

TEST(scram_unknown_user_looks_like_wrong_password)
{
    const char *file = "bob:hunter2\n";
    sl_error_t e1, e2, e3;
    auth_db_t *db = auth_db_parse(file, strlen(file), "test", &e1);
    char salt1[64], salt2[64], salt3[64], salt4[64];
    CHECK_INT(exchange(db, "bob", "hunter2", salt1, &e1), 0);
    CHECK_INT(exchange(db, "bob", "wrong", salt1, &e1), -1);
    CHECK_INT(exchange(db, "mallory", "hunter2", salt2, &e2), -1);
    CHECK_STR(e1.sqlstate, "28P01");
    CHECK_STR(e2.sqlstate, "28P01");
    CHECK_STR(e2.message, "password authentication failed for user \"mallory\"");
    /* The mock salt is stable per name, differs between names, and has the real salt's length. */
    CHECK_INT(exchange(db, "mallory", "x", salt3, &e3), -1);
    CHECK_STR(salt2, salt3);
    CHECK_INT(exchange(db, "eve", "x", salt4, &e3), -1);
    CHECK(strcmp(salt2, salt4) != 0);
    CHECK_INT(strlen(salt1), strlen(salt2));
    auth_db_free(db);
}

TEST(scram_channel_binding)
{
    auth_db_t *db = rfc_db();
    const unsigned char cb[32] = {1, 2, 3, 4, 5};
    sl_buf_t mechs = SL_BUF_INIT, raw = SL_BUF_INIT, cb64 = SL_BUF_INIT;
    sl_error_t err;
    auth_scram_t st;
    auth_scram_init(&st, db, "user", cb, sizeof cb);
    auth_scram_mechanisms(&st, &mechs);
    CHECK_STR(mechs.data, "SCRAM-SHA-256-PLUS");
    CHECK_STR(mechs.data + sizeof "SCRAM-SHA-256-PLUS", "SCRAM-SHA-256");
    sl_buf_puts(&raw, "p=tls-server-end-point,,");
    sl_buf_append(&raw, cb, sizeof cb);
    auth_b64_encode(raw.data, raw.len, &cb64);
    for (int wrong = 0; wrong < 2; wrong++) {
        sl_buf_t sf = SL_BUF_INIT, cf = SL_BUF_INIT, out = SL_BUF_INIT;
        auth_scram_init(&st, db, "user", cb, sizeof cb);
        CHECK_INT(
            scram_first(&st, "SCRAM-SHA-256-PLUS", "p=tls-server-end-point,,n=,r=xyz", &sf, &err),
            0);
        client_final("pencil", "n=,r=xyz", sf.data, wrong ? "biws" : cb64.data, &cf);
        CHECK_INT(scram_final(&st, cf.data, &out, &err), wrong ? -1 : 0);
        if (wrong) CHECK_STR(err.message, "SCRAM channel binding check failed");
        auth_scram_free(&st);
        sl_buf_free(&sf);
        sl_buf_free(&cf);
        sl_buf_free(&out);
    }
    /* "y" while we offered PLUS means a downgrade; PLUS without TLS is refused. */
    sl_buf_t out = SL_BUF_INIT;
    auth_scram_init(&st, db, "user", cb, sizeof cb);
    CHECK_INT(scram_first(&st, "SCRAM-SHA-256", "y,,n=,r=xyz", &out, &err), -1);
    CHECK_STR(err.message, "SCRAM channel binding negotiation error");
    auth_scram_free(&st);
    auth_scram_init(&st, db, "user", NULL, 0);
    CHECK_INT(scram_first(&st, "SCRAM-SHA-256", "y,,n=,r=xyz", &out, &err), 0);
    auth_scram_free(&st);
    auth_scram_init(&st, db, "user", NULL, 0);
    CHECK_INT(
        scram_first(&st, "SCRAM-SHA-256-PLUS", "p=tls-server-end-point,,n=,r=xyz", &out, &err), -1);
    CHECK_STR(err.sqlstate, "08P01");
    auth_scram_free(&st);
    auth_db_free(db);
    sl_buf_free(&mechs);
    sl_buf_free(&raw);
    sl_buf_free(&cb64);
    sl_buf_free(&out);
}

TEST(scram_malformed_messages)
{
    auth_db_t *db = rfc_db();
    const char *bad_first[] = {"",         "x,,n=,r=a",       "n,a=bob,n=,r=a", "n,,r=a",
                               "n,,n=,r=", "n,,m=ext,n=,r=a", "n,,n=,r=a\x01b"};
    sl_buf_t out = SL_BUF_INIT;
    sl_error_t err;
    auth_scram_t st;
    for (size_t i = 0; i < sizeof bad_first / sizeof *bad_first; i++) {
        auth_scram_init(&st, db, "user", NULL, 0);
        CHECK_INT(scram_first(&st, "SCRAM-SHA-256", bad_first[i], &out, &err), -1);
        CHECK_STR(err.sqlstate, "08P01");
        auth_scram_free(&st);
    }
    auth_scram_init(&st, db, "user", NULL, 0);
    CHECK_INT(scram_first(&st, "SCRAM-SHA-1", "n,,n=,r=a", &out, &err), -1);
    auth_scram_free(&st);
    const char *bad_final[] = {
        "",
        "c=biws",
        "c=eSws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=AAAA",
        "c=biws,r=rOprNGfwEbeRWgbNEkqO,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=",
        "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzb",
        "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0"};
    for (size_t i = 0; i < sizeof bad_final / sizeof *bad_final; i++) {
        auth_scram_init(&st, db, "user", NULL, 0);
        st.test_server_nonce = RFC_SNONCE;
        CHECK_INT(scram_first(&st, "SCRAM-SHA-256", RFC_CLIENT_FIRST, &out, &err), 0);
        CHECK_INT(scram_final(&st, bad_final[i], &out, &err), -1);
        CHECK_STR(err.sqlstate, "08P01");
        auth_scram_free(&st);
    }
    auth_db_free(db);
    sl_buf_free(&out);
}

TEST(verifier_parse_and_format)
{
    const char *good = "SCRAM-SHA-256$4096:W22ZaJ0SNY7soEsUEjb6gQ==$"
                       "WG5d8oPm3OtcPnkdi4Uo7BkeZkBFzpcXkuLmtbsT4qY=:"
                       "wfPLwcE6nTWhTAmQ7tl2KeoiWGPlZqQxSrmfPwDl2dU=";
    auth_verifier_t v;
    sl_error_t err;
    CHECK_INT(auth_verifier_parse(good, &v, &err), 0);
    CHECK_INT(v.iterations, 4096);
    CHECK_INT(v.salt_len, 16);
    sl_buf_t out = SL_BUF_INIT;
    auth_verifier_format(&v, &out);
    CHECK_STR(out.data, good);
    sl_buf_free(&out);
    /* The verifier of "pencil" with RFC 7677's salt is PostgreSQL's for that password. */
    auth_verifier_t p;
    auth_verifier_from_password("pencil", v.salt, v.salt_len, 4096, &p);
    CHECK(auth_ct_equal(p.stored_key, v.stored_key, 32));
    CHECK(auth_ct_equal(p.server_key, v.server_key, 32));
    CHECK_INT(auth_verifier_check_password(&v, "pencil"), 1);
    CHECK_INT(auth_verifier_check_password(&v, "pencil "), 0);
    const char *bad[] = {
        "SCRAM-SHA-1$4096:W22ZaJ0SNY7soEsUEjb6gQ==$AAAA:AAAA",
        "SCRAM-SHA-256$0:W22ZaJ0SNY7soEsUEjb6gQ==$WG5d8oPm3OtcPnkdi4Uo7BkeZkBFzpcXkuLmtbsT4qY=:"
        "wfPLwcE6nTWhTAmQ7tl2KeoiWGPlZqQxSrmfPwDl2dU=",
        "SCRAM-SHA-256$4096:$WG5d8oPm3OtcPnkdi4Uo7BkeZkBFzpcXkuLmtbsT4qY=:"
        "wfPLwcE6nTWhTAmQ7tl2KeoiWGPlZqQxSrmfPwDl2dU=",
        "SCRAM-SHA-256$4096:W22ZaJ0SNY7soEsUEjb6gQ==$WG5d8oPm:wfPLwcE6nTWhTAmQ7tl2KeoiWGPlZqQxSrmfPw"
        "Dl2dU=",
        "SCRAM-SHA-256$4096:W22ZaJ0SNY7soEsUEjb6gQ==$WG5d8oPm3OtcPnkdi4Uo7BkeZkBFzpcXkuLmtbsT4qY=",
        "SCRAM-SHA-256$4096:W22Z*J0SNY7soEsUEjb6gQ==$WG5d8oPm3OtcPnkdi4Uo7BkeZkBFzpcXkuLmtbsT4qY=:"
        "wfPLwcE6nTWhTAmQ7tl2KeoiWGPlZqQxSrmfPwDl2dU=",
        "SCRAM-SHA-256$x:W22ZaJ0SNY7soEsUEjb6gQ==$WG5d8oPm3OtcPnkdi4Uo7BkeZkBFzpcXkuLmtbsT4qY=:"
        "wfPLwcE6nTWhTAmQ7tl2KeoiWGPlZqQxSrmfPwDl2dU="};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        CHECK_INT(auth_verifier_parse(bad[i], &v, &err), -1);
        CHECK_STR(err.sqlstate, "22023");
    }
}

TEST(password_file_parsing)
{
    const char *text = "# comment\n"
                       "   \n"
                       "alice:pw1\r\n"
                       "  # indented comment\n"
                       "bob:SCRAM-SHA-256$4096:W22ZaJ0SNY7soEsUEjb6gQ==$"
                       "WG5d8oPm3OtcPnkdi4Uo7BkeZkBFzpcXkuLmtbsT4qY=:"
                       "wfPLwcE6nTWhTAmQ7tl2KeoiWGPlZqQxSrmfPwDl2dU=\n"
                       "carol:last line without newline";
    sl_error_t err;
    auth_db_t *db = auth_db_parse(text, strlen(text), "pw", &err);
    CHECK(db != NULL);
    CHECK_INT(auth_db_count(db), 3);
    auth_verifier_t v;
    CHECK_INT(auth_db_lookup(db, "alice", &v), 1);
    CHECK_INT(auth_verifier_check_password(&v, "pw1"), 1); /* CR stripped */
    CHECK_INT(auth_verifier_check_password(&v, "pw1\r"), 0);
    CHECK_INT(v.salt_len, 16);
    CHECK_INT(auth_db_lookup(db, "bob", &v), 1);
    CHECK_INT(auth_verifier_check_password(&v, "pencil"), 1);
    CHECK_INT(auth_db_lookup(db, "carol", &v), 1);
    CHECK_INT(auth_verifier_check_password(&v, "last line without newline"), 1);
    CHECK_INT(auth_db_lookup(db, "Alice", &v), 0); /* names are case-sensitive */
    CHECK_INT(auth_verifier_check_password(&v, "pw1"), 0);
    /* A plain password gets the same salt at every load of the same file. */
    auth_verifier_t a1, a2;
    auth_db_lookup(db, "alice", &a1);
    auth_db_t *again = auth_db_parse(text, strlen(text), "pw", &err);
    auth_db_lookup(again, "alice", &a2);
    CHECK(a1.salt_len == a2.salt_len && !memcmp(a1.salt, a2.salt, a1.salt_len));
    auth_db_free(again);
    auth_db_free(db);

    const char *bad[] = {"alice\n", ":pw\n", "alice:\n", "a:1\nb:2\na:3\n",
                         "x:SCRAM-SHA-256$4096:bad\n"};
    const char *where[] = {"line 1", "line 1", "line 1", "line 3", "line 1"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        CHECK(auth_db_parse(bad[i], strlen(bad[i]), "pw", &err) == NULL);
        CHECK_STR(err.sqlstate, "F0000");
        CHECK(strstr(err.message, where[i]) != NULL);
        CHECK(strstr(err.message, "\"pw\"") != NULL);
    }
    CHECK(auth_db_load("/nonexistent/sluice-passwords", &err) == NULL);
    CHECK(strstr(err.message, "could not open password file") != NULL);
}

TEST(constant_time_compare)
{
    unsigned char a[64], b[64];
    for (int i = 0; i < 64; i++) a[i] = b[i] = (unsigned char)(i * 7);
    CHECK_INT(auth_ct_equal(a, b, 64), 1);
    CHECK_INT(auth_ct_equal(a, b, 0), 1);
    for (int i = 0; i < 64; i++) {
        for (int bit = 0; bit < 8; bit++) {
            b[i] ^= (unsigned char)(1 << bit);
            CHECK_INT(auth_ct_equal(a, b, 64), 0);
            CHECK_INT(auth_ct_equal(a, b, (size_t)i), 1); /* only the first n bytes count */
            b[i] ^= (unsigned char)(1 << bit);
        }
    }
}

TEST(base64_round_trip_and_strictness)
{
    unsigned char in[40], out[40];
    for (int i = 0; i < 40; i++) in[i] = (unsigned char)(255 - i * 5);
    for (size_t n = 0; n <= 40; n++) {
        sl_buf_t b = SL_BUF_INIT;
        auth_b64_encode(in, n, &b);
        CHECK_INT(b.len, 4 * ((n + 2) / 3));
        CHECK_INT(auth_b64_decode(b.data ? b.data : "", b.len, out, sizeof out), (long long)n);
        CHECK(!memcmp(in, out, n));
        sl_buf_free(&b);
    }
    /* YR== and YWJ= carry bits past their data: not the canonical form */
    const char *bad[] = {"abc", "ab=c", "a===", "ab\ncd==", "====", "YQ==YQ==", "YR==", "YWJ="};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        CHECK_INT(auth_b64_decode(bad[i], strlen(bad[i]), out, sizeof out), -1);
    CHECK_INT(auth_b64_decode("YWJj", 4, out, 2), -1); /* does not fit */
    CHECK_INT(auth_b64_decode("YQ==", 4, out, 1), 1);
    CHECK_INT(out[0], 'a');
}
