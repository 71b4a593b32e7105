/* TLS through OpenSSL memory BIOs: the server context, the handshake and
 * record layer of each connection, and the channel binding hash. Runs on the
 * loop thread; no socket is ever given to OpenSSL. */
#include "server/tls.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include "common/arena.h"

#define TLS_READ_CHUNK 16384

struct tls_ctx {
    SSL_CTX *ssl;
    unsigned char cbind[EVP_MAX_MD_SIZE]; /* tls-server-end-point hash */
    size_t cbind_len;                     /* 0: no channel binding possible */
};

struct tls_conn {
    SSL *ssl;
    BIO *rbio; /* ciphertext from the peer, written by tls_conn_feed */
    BIO *wbio; /* ciphertext to the peer, drained by tls_conn_take_output */
    int established;
};

/* The most recent OpenSSL error as text (clears the queue). */
static const char *ssl_error_text(char *buf, size_t n)
{
    unsigned long e = ERR_get_error();
    unsigned long last;
    while ((last = ERR_get_error()) != 0) e = last;
    if (!e) return "unknown error";
    ERR_error_string_n(e, buf, n);
    return buf;
}

static int key_file_private(const char *key_file, sl_error_t *err)
{
    struct stat st;
    if (stat(key_file, &st) < 0)
        return sl_error_set(err, SL_ERR_CONFIG_FILE_ERROR,
                            "could not access private key file \"%s\": %s", key_file,
                            strerror(errno));
    if (!S_ISREG(st.st_mode))
        return sl_error_set(err, SL_ERR_CONFIG_FILE_ERROR,
                            "private key file \"%s\" is not a regular file", key_file);
    if (st.st_mode & (S_IWGRP | S_IXGRP | S_IRWXO)) {
        sl_error_set(err, SL_ERR_CONFIG_FILE_ERROR,
                     "private key file \"%s\" has group or world access", key_file);
        return sl_error_hint(err, "The file must have permissions u=rw (0600) or u=rw,g=r (0640).");
    }
    return 0;
}

/* RFC 5929: hash the certificate with its signature's hash, SHA-256 for MD5/SHA-1. */
static void ctx_compute_cbind(tls_ctx_t *c)
{
    X509 *cert = SSL_CTX_get0_certificate(c->ssl);
    int md_nid = NID_undef;
    if (!cert || !OBJ_find_sigid_algs(X509_get_signature_nid(cert), &md_nid, NULL)) return;
    if (md_nid == NID_md5 || md_nid == NID_sha1) md_nid = NID_sha256;
    const EVP_MD *md = EVP_get_digestbynid(md_nid);
    unsigned int len = 0;
    if (md && X509_digest(cert, md, c->cbind, &len) == 1) c->cbind_len = len;
}

static int ctx_configure(tls_ctx_t *c, const char *cert_file, const char *key_file, sl_error_t *err)
{
    char e[256];
    SSL_CTX_set_min_proto_version(c->ssl, TLS1_2_VERSION);
    SSL_CTX_set_options(c->ssl, SSL_OP_NO_COMPRESSION | SSL_OP_NO_RENEGOTIATION |
                                    SSL_OP_CIPHER_SERVER_PREFERENCE | SSL_OP_NO_TICKET);
    SSL_CTX_set_session_cache_mode(c->ssl, SSL_SESS_CACHE_OFF);
    SSL_CTX_set_num_tickets(c->ssl, 0);
    if (SSL_CTX_use_certificate_chain_file(c->ssl, cert_file) != 1)
        return sl_error_set(err, SL_ERR_CONFIG_FILE_ERROR,
                            "could not load certificate file \"%s\": %s", cert_file,
                            ssl_error_text(e, sizeof e));
    if (key_file_private(key_file, err) < 0) return -1;
    if (SSL_CTX_use_PrivateKey_file(c->ssl, key_file, SSL_FILETYPE_PEM) != 1)
        return sl_error_set(err, SL_ERR_CONFIG_FILE_ERROR,
                            "could not load private key file \"%s\": %s", key_file,
                            ssl_error_text(e, sizeof e));
    if (SSL_CTX_check_private_key(c->ssl) != 1)
        return sl_error_set(err, SL_ERR_CONFIG_FILE_ERROR,
                            "private key file \"%s\" does not match certificate \"%s\"", key_file,
                            cert_file);
    ctx_compute_cbind(c);
    return 0;
}

tls_ctx_t *tls_ctx_new(const char *cert_file, const char *key_file, sl_error_t *err)
{
    tls_ctx_t *c = sl_xcalloc(1, sizeof *c);
    c->ssl = SSL_CTX_new(TLS_server_method());
    if (!c->ssl) {
        sl_error_set(err, SL_ERR_INTERNAL_ERROR, "could not create TLS context");
        free(c);
        return NULL;
    }
    if (ctx_configure(c, cert_file, key_file, err) < 0) {
        tls_ctx_free(c);
        return NULL;
    }
    return c;
}

void tls_ctx_free(tls_ctx_t *ctx)
{
    if (!ctx) return;
    SSL_CTX_free(ctx->ssl);
    free(ctx);
}

size_t tls_ctx_cbind(const tls_ctx_t *ctx, const unsigned char **data)
{
    *data = ctx->cbind;
    return ctx->cbind_len;
}

tls_conn_t *tls_conn_new(tls_ctx_t *ctx)
{
    tls_conn_t *t = sl_xcalloc(1, sizeof *t);
    t->ssl = SSL_new(ctx->ssl);
    t->rbio = BIO_new(BIO_s_mem());
    t->wbio = BIO_new(BIO_s_mem());
    if (!t->ssl || !t->rbio || !t->wbio) sl_oom(sizeof *t);
    BIO_set_mem_eof_return(t->rbio, -1);   /* empty input means "want more", not EOF */
    SSL_set_bio(t->ssl, t->rbio, t->wbio); /* the SSL owns both BIOs now */
    SSL_set_accept_state(t->ssl);
    return t;
}

void tls_conn_free(tls_conn_t *t)
{
    if (!t) return;
    SSL_free(t->ssl);
    free(t);
}

static int tls_fail(sl_error_t *err, const char *what)
{
    char e[256];
    return sl_error_set(err, SL_ERR_PROTOCOL_VIOLATION, "%s: %s", what,
                        ssl_error_text(e, sizeof e));
}

int tls_conn_feed(tls_conn_t *t, const void *data, size_t n, sl_buf_t *plain, sl_error_t *err)
{
    ERR_clear_error(); /* the queue is per thread: start from a clean one */
    if (n > 0 && BIO_write(t->rbio, data, (int)n) != (int)n) return tls_fail(err, "TLS input");
    if (!t->established) {
        int rc = SSL_do_handshake(t->ssl);
        if (rc != 1) {
            int e = SSL_get_error(t->ssl, rc);
            if (e == SSL_ERROR_WANT_READ) return 0;
            return tls_fail(err, "TLS handshake failed");
        }
        t->established = 1;
    }
    for (;;) {
        sl_buf_reserve(plain, TLS_READ_CHUNK);
        int rc = SSL_read(t->ssl, plain->data + plain->len, TLS_READ_CHUNK);
        if (rc > 0) {
            plain->len += (size_t)rc;
            plain->data[plain->len] = '\0';
            continue;
        }
        int e = SSL_get_error(t->ssl, rc);
        if (e == SSL_ERROR_WANT_READ) return 0;
        if (e == SSL_ERROR_ZERO_RETURN) return 1;
        return tls_fail(err, "TLS read failed");
    }
}

int tls_conn_write(tls_conn_t *t, const void *data, size_t n, sl_error_t *err)
{
    const char *p = data;
    ERR_clear_error();
    while (n > 0) {
        int chunk = n > (1u << 30) ? 1 << 30 : (int)n;
        int rc = SSL_write(t->ssl, p, chunk);
        if (rc <= 0) return tls_fail(err, "TLS write failed");
        p += rc;
        n -= (size_t)rc;
    }
    return 0;
}

void tls_conn_take_output(tls_conn_t *t, sl_buf_t *out)
{
    size_t pending;
    while ((pending = BIO_ctrl_pending(t->wbio)) > 0) {
        sl_buf_reserve(out, pending);
        int rc = BIO_read(t->wbio, out->data + out->len, (int)pending);
        if (rc <= 0) break;
        out->len += (size_t)rc;
        out->data[out->len] = '\0';
    }
}

int tls_conn_established(const tls_conn_t *t)
{
    return t->established;
}

void tls_conn_shutdown(tls_conn_t *t)
{
    if (t->established) SSL_shutdown(t->ssl);
    ERR_clear_error();
}

const char *tls_conn_version(const tls_conn_t *t)
{
    return SSL_get_version(t->ssl);
}
