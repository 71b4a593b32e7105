/* Client authentication for the SQL endpoint: the password file, SCRAM
 * verifiers in PostgreSQL's format, the server side of SCRAM-SHA-256 (RFC
 * 5802 / RFC 7677, with optional tls-server-end-point channel binding) and
 * cleartext password checks. Cryptography comes from OpenSSL (PBKDF2, HMAC,
 * SHA-256, RAND_bytes).
 *
 * Every user is held as a verifier: plain passwords in the file are turned
 * into one at load, with a salt derived from a secret of the file, so the
 * salt a client sees is stable across restarts. An unknown user gets a mock
 * verifier (salt derived from the name and the same secret, keys that match
 * no password), so that an unknown user and a wrong password look the same
 * from outside, as in PostgreSQL. */
#ifndef SL_AUTH_H
#define SL_AUTH_H

#include <stddef.h>

#include "common/buf.h"
#include "common/sl_error.h"

#define AUTH_KEY_LEN 32          /* SHA-256 output: StoredKey, ServerKey, proofs */
#define AUTH_SALT_MAX 128        /* longest salt accepted in a verifier (bytes) */
#define AUTH_DEFAULT_SALT_LEN 16 /* salt made for plain passwords (PostgreSQL's) */
#define AUTH_DEFAULT_ITERATIONS 4096
#define AUTH_MAX_ITERATIONS 100000000
#define AUTH_NONCE_RAW_LEN 18 /* random bytes of the server nonce (base64: 24 chars) */
#define AUTH_CBIND_MAX 64     /* longest channel binding data (a certificate hash) */

/* A SCRAM-SHA-256 verifier: what the server keeps instead of a password. */
typedef struct auth_verifier {
    int iterations;                         /* PBKDF2 iteration count */
    unsigned char salt[AUTH_SALT_MAX];      /* raw salt bytes */
    size_t salt_len;                        /* 1..AUTH_SALT_MAX */
    unsigned char stored_key[AUTH_KEY_LEN]; /* SHA256(HMAC(SaltedPassword, "Client Key")) */
    unsigned char server_key[AUTH_KEY_LEN]; /* HMAC(SaltedPassword, "Server Key") */
} auth_verifier_t;

/* 1 when the n bytes at a and b are equal, else 0; the time taken depends on
 * n only, never on where the bytes differ. */
int auth_ct_equal(const void *a, const void *b, size_t n);

/* Appends the standard base64 (with padding, no line breaks) of n bytes. */
void auth_b64_encode(const void *p, size_t n, sl_buf_t *out);
/* Decodes strict base64 (padding required, no whitespace) into out (cap
 * bytes). Returns the decoded length, or -1 when the text is not base64 or
 * does not fit. */
int auth_b64_decode(const char *s, size_t len, unsigned char *out, size_t cap);

/* Parses "SCRAM-SHA-256$<iter>:<salt b64>$<StoredKey b64>:<ServerKey b64>".
 * Returns 0, or -1 with err (22023) saying which part is wrong. */
int auth_verifier_parse(const char *text, auth_verifier_t *v, sl_error_t *err);
/* Appends the verifier in the format auth_verifier_parse() reads. */
void auth_verifier_format(const auth_verifier_t *v, sl_buf_t *out);
/* Builds the verifier of a password for the given salt and iteration count. */
void auth_verifier_from_password(const char *password, const unsigned char *salt, size_t salt_len,
                                 int iterations, auth_verifier_t *v);
/* 1 when `password` (cleartext, as sent by the `password` method) matches
 * the verifier, else 0. Costs one PBKDF2 run whatever the outcome. */
int auth_verifier_check_password(const auth_verifier_t *v, const char *password);

/* The users of a password file. */
typedef struct auth_db auth_db_t;

/* Reads a password file: one `user:secret` per line (blank lines and lines
 * starting with '#' are skipped; a trailing CR is ignored), the secret a
 * plain password or a SCRAM-SHA-256 verifier. Returns NULL with err (F0000)
 * naming the file and line on a malformed or duplicate entry. */
auth_db_t *auth_db_load(const char *path, sl_error_t *err);
/* The same from text in memory; `origin` names it in errors. */
auth_db_t *auth_db_parse(const char *text, size_t len, const char *origin, sl_error_t *err);
void auth_db_free(auth_db_t *db);
/* Number of users. */
int auth_db_count(const auth_db_t *db);
/* Fills `out` with the user's verifier and returns 1; for an unknown user
 * (or db == NULL) fills a mock verifier that no password matches and
 * returns 0. The mock salt is a deterministic function of the name. */
int auth_db_lookup(const auth_db_t *db, const char *user, auth_verifier_t *out);

/* Server side of one SCRAM-SHA-256 exchange. Initialise with
 * auth_scram_init(), then feed the client's two messages. */
typedef struct auth_scram {
    char *user;                          /* startup user name (errors name it) */
    auth_verifier_t v;                   /* the user's verifier, or a mock one */
    int known;                           /* 0: unknown user, the exchange can only fail */
    unsigned char cbind[AUTH_CBIND_MAX]; /* tls-server-end-point data; cbind_len 0 = no TLS */
    size_t cbind_len;
    int plus;                      /* client chose SCRAM-SHA-256-PLUS */
    char *gs2_header;              /* "n,,", "y,," or "p=tls-server-end-point,," */
    char *client_first_bare;       /* "n=...,r=..." as received */
    char *server_first;            /* "r=...,s=...,i=..." as sent */
    char *nonce;                   /* client nonce + server nonce */
    const char *test_server_nonce; /* unit tests only: used instead of random bytes */
    int step;                      /* 0: expect client-first, 1: expect client-final, 2: done */
} auth_scram_t;

/* Starts an exchange for `user`; cbind (NULL/0 without TLS) enables
 * SCRAM-SHA-256-PLUS with that channel binding data. */
void auth_scram_init(auth_scram_t *st, const auth_db_t *db, const char *user,
                     const unsigned char *cbind, size_t cbind_len);
/* Appends the mechanism list of AuthenticationSASL: each name NUL-terminated,
 * then an empty name. PLUS comes first when channel binding is possible. */
void auth_scram_mechanisms(const auth_scram_t *st, sl_buf_t *out);
/* Handles SASLInitialResponse (mechanism and client-first-message); appends
 * the server-first-message to `out`. Returns -1 with err (08P01 for a
 * malformed message or a channel binding mismatch). */
int auth_scram_first(auth_scram_t *st, const char *mech, const char *msg, size_t len, sl_buf_t *out,
                     sl_error_t *err);
/* Handles the client-final-message; appends the server-final-message
 * ("v=...") on success. A wrong proof or an unknown user fails with 28P01
 * `password authentication failed for user "<name>"`. */
int auth_scram_final(auth_scram_t *st, const char *msg, size_t len, sl_buf_t *out, sl_error_t *err);
/* Releases the strings of the exchange (the struct itself is the caller's). */
void auth_scram_free(auth_scram_t *st);

/* The 28P01 error every failed password check reports. Returns -1. */
int auth_fail(sl_error_t *err, const char *user);

#endif
