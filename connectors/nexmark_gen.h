/* The Nexmark event generator (the benchmark's auction site), following
 * nexmark-flink's generator conventions with a deterministic seed.
 *
 * Event number n (0, 1, 2, ...) decides everything:
 *   kind      n % 50: 0 person, 1..3 auction, 4..49 bid (proportions 1:3:46,
 *             2% / 6% / 92%)
 *   time      base + n / eventsPerSecond (milliseconds, truncated)
 *   ids       person n/50 + 1000; auction (the auctions before n) + 1000;
 *             bids and auctions refer to recent people and auctions, mostly
 *             "hot" ones (hot auction ratio 2, hot seller / bidder ratio 4,
 *             1000 active people, 100 auctions in flight)
 *   values    from a random stream seeded by (seed, n): names, e-mails,
 *             cities and states from nexmark's short lists, prices
 *             10^(6u) x 100 cents, `extra` padding to nexmark's average
 *             sizes (person 200, auction 500, bid 100 bytes), bid channels
 *             half from the hot four (Google, Facebook, Baidu, Apple), the
 *             rest "channel-<k>" of 10000, each with a fixed URL
 * so any event can be generated alone, on any thread, in any order. */
#ifndef SL_NEXMARK_GEN_H
#define SL_NEXMARK_GEN_H

#include <stdint.h>

typedef enum { NEXMARK_PERSON = 0, NEXMARK_AUCTION, NEXMARK_BID } nexmark_kind_t;

#define NEXMARK_TOTAL_PROPORTION 50
#define NEXMARK_FIRST_PERSON_ID 1000
#define NEXMARK_FIRST_AUCTION_ID 1000
#define NEXMARK_FIRST_CATEGORY_ID 10

typedef struct nexmark_config {
    uint64_t seed;
    int64_t events_per_sec; /* > 0 */
    int64_t base_ms;        /* time of event 0 (ms since the epoch) */
} nexmark_config_t;

/* Strings are NUL-terminated; times are ms since the epoch; prices cents. */
typedef struct nexmark_person {
    int64_t id;           /* 1000 + n / 50 */
    char name[32];        /* "Peter Smith" */
    char email[32];       /* "abcde@xyz.com" */
    char credit_card[24]; /* "0123 4567 8901 2345" */
    char city[16];
    char state[4];        /* two letters */
    int64_t date_time_ms; /* event time */
    char extra[256];      /* padding to the average person size */
} nexmark_person_t;

typedef struct nexmark_auction {
    int64_t id; /* 1000 + the auctions before this one */
    char item_name[24];
    char description[104];
    int64_t initial_bid;
    int64_t reserve;      /* initial_bid plus another price */
    int64_t date_time_ms; /* event time */
    int64_t expires_ms;   /* after date_time_ms */
    int64_t seller;       /* a person id */
    int64_t category;     /* 10 .. 14 */
    char extra[640];
} nexmark_auction_t;

typedef struct nexmark_bid {
    int64_t auction; /* an auction id */
    int64_t bidder;  /* a person id */
    int64_t price;
    char channel[24];     /* "Google" ... or "channel-<k>" */
    char url[128];        /* the channel's URL */
    int64_t date_time_ms; /* event time */
    char extra[128];
} nexmark_bid_t;

nexmark_kind_t nexmark_kind(int64_t n);
/* Event time of event n in ms. */
int64_t nexmark_time_ms(const nexmark_config_t *c, int64_t n);
/* Event n, which must be of the function's kind. */
void nexmark_person(const nexmark_config_t *c, int64_t n, nexmark_person_t *out);
void nexmark_auction(const nexmark_config_t *c, int64_t n, nexmark_auction_t *out);
void nexmark_bid(const nexmark_config_t *c, int64_t n, nexmark_bid_t *out);

#endif
