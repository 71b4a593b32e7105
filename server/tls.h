/* TLS for the SQL endpoint: an OpenSSL server context loaded from the
 * configured certificate and key, and per-connection TLS state driven through
 * two memory BIOs, so that the libuv loop does all socket I/O and OpenSSL
 * never blocks. The caller feeds the ciphertext it read, gets plaintext back,
 * hands plaintext to encrypt, and sends whatever ciphertext is pending. */
#ifndef SL_TLS_H
#define SL_TLS_H

#include <stddef.h>

#include "common/buf.h"
#include "common/sl_error.h"

typedef struct tls_ctx tls_ctx_t;
typedef struct tls_conn tls_conn_t;

/* Loads a PEM certificate chain and its private key (TLS 1.2 and later, no
 * renegotiation, no session resumption). The key file must not be writable
 * by the group or accessible by others. Returns NULL with err (F0000). */
tls_ctx_t *tls_ctx_new(const char *cert_file, const char *key_file, sl_error_t *err);
void tls_ctx_free(tls_ctx_t *ctx);
/* The tls-server-end-point channel binding data (RFC 5929: a hash of the
 * server certificate). Returns its length, or 0 when the certificate's
 * signature algorithm gives no usable hash (then no channel binding). */
size_t tls_ctx_cbind(const tls_ctx_t *ctx, const unsigned char **data);

/* A server-side TLS connection in its handshake state. */
tls_conn_t *tls_conn_new(tls_ctx_t *ctx);
void tls_conn_free(tls_conn_t *t);
/* Hands n bytes read from the socket to TLS, advances the handshake and
 * appends any decrypted application data to `plain`. Returns 0, 1 when the
 * peer sent close_notify, or -1 with err (08P01) on a handshake or record
 * error. Always follow with tls_conn_take_output(): the handshake answers. */
int tls_conn_feed(tls_conn_t *t, const void *data, size_t n, sl_buf_t *plain, sl_error_t *err);
/* Encrypts n bytes of application data (only once established). */
int tls_conn_write(tls_conn_t *t, const void *data, size_t n, sl_error_t *err);
/* Moves every pending ciphertext byte (handshake, records, alerts) to out. */
void tls_conn_take_output(tls_conn_t *t, sl_buf_t *out);
/* 1 once the handshake completed. */
int tls_conn_established(const tls_conn_t *t);
/* Queues a close_notify alert (sent by the next tls_conn_take_output()). */
void tls_conn_shutdown(tls_conn_t *t);
/* Protocol version of an established connection, for the log. */
const char *tls_conn_version(const tls_conn_t *t);

#endif
