/* sl_hash: the 64-bit hash sluice uses for hash tables, hash partitioning
 * (the exchange in front of stateful operators) and sketches.
 *
 * Design: a multiply-fold mixer (the 128-bit product of two 64-bit words,
 * high half xor low half) applied to 16-byte stripes, the way wyhash-style
 * hashes work; the constants and the stripe/tail schedule are sluice's own.
 *
 * STABILITY: the values are part of the checkpoint format. Hash partitioning
 * decides which state partition owns a key, so a change to these functions
 * would silently misroute keys of every existing checkpoint. Do not change
 * the algorithm or the constants; add a new function instead. The result is
 * the same on every little- and big-endian machine (input bytes are read as
 * little-endian words). */
#ifndef SL_HASH_H
#define SL_HASH_H

#include <stddef.h>
#include <stdint.h>

/* Seed used when the caller has no reason to pick another. */
#define SL_HASH_SEED 0x5eed5eed5eed5eedULL

/* Hash of `len` bytes at `p` (p may be NULL when len is 0). */
uint64_t sl_hash_bytes(const void *p, size_t len, uint64_t seed);

/* Hash of one 64-bit integer; cheaper than sl_hash_bytes(&v, 8, seed) and
 * NOT equal to it (callers must use one or the other consistently). */
uint64_t sl_hash_u64(uint64_t v, uint64_t seed);

/* The 64x64 -> 128 multiply-fold mixer the hashes are built from. */
static inline uint64_t sl_hash_mix(uint64_t a, uint64_t b)
{
    unsigned __int128 r = (unsigned __int128)a * b;
    return (uint64_t)r ^ (uint64_t)(r >> 64);
}

#endif
