/* sl_hash: a 64-bit multiply-fold hash (see hash.h for the design and the
 * stability promise). */
#include "common/hash.h"

#include <string.h>

/* Odd 64-bit constants with roughly half their bits set, spread so that no
 * two share a long run of equal bits. */
#define K0 0x9fb21c651e98df25ULL
#define K1 0xc2b2ae3d27d4eb4fULL
#define K2 0x8ebc6af09c88c6e3ULL
#define K3 0xd6e8feb86659fd93ULL

static inline uint64_t read64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

static inline uint64_t read32(const unsigned char *p)
{
    return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24;
}

/* Reads 1..3 bytes as one word: first, middle and last byte, so every byte
 * of a short input lands in a distinct position. */
static inline uint64_t read_small(const unsigned char *p, size_t n)
{
    return (uint64_t)p[0] << 16 | (uint64_t)p[n >> 1] << 8 | p[n - 1];
}

/* Loads the last 1..16 bytes as two words (a, b). */
static void load_tail(const unsigned char *p, size_t n, uint64_t *a, uint64_t *b)
{
    if (n >= 8) {
        *a = read64(p);
        *b = read64(p + n - 8);
    } else if (n >= 4) {
        *a = read32(p);
        *b = read32(p + n - 4);
    } else {
        *a = read_small(p, n);
        *b = 0;
    }
}

uint64_t sl_hash_bytes(const void *data, size_t len, uint64_t seed)
{
    const unsigned char *p = data;
    uint64_t s = sl_hash_mix(seed ^ K0, K1);
    size_t n = len;
    while (n > 16) {
        s = sl_hash_mix(read64(p) ^ K1, read64(p + 8) ^ s);
        p += 16;
        n -= 16;
    }
    uint64_t a = 0, b = 0;
    if (n) load_tail(p, n, &a, &b);
    return sl_hash_mix(sl_hash_mix(a ^ K2, b ^ s) ^ (uint64_t)len, K3);
}

uint64_t sl_hash_u64(uint64_t v, uint64_t seed)
{
    uint64_t h = sl_hash_mix(v ^ K2, seed ^ K0);
    return sl_hash_mix(h ^ seed ^ K1, v ^ K3);
}
