/* The Nexmark generator (nexmark_gen.h): per-event random streams, the id
 * arithmetic of people and auctions, and the three event builders. */
#include "connectors/nexmark_gen.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define PERSON_PROPORTION 1
#define AUCTION_PROPORTION 3
#define NUM_ACTIVE_PEOPLE 1000
#define NUM_IN_FLIGHT_AUCTIONS 100
#define PERSON_ID_LEAD 10
#define AUCTION_ID_LEAD 10
#define HOT_SELLERS_RATIO 4
#define HOT_AUCTION_RATIO 2
#define HOT_BIDDERS_RATIO 4
#define HOT_RATIO_GROUP 100
#define HOT_CHANNELS_RATIO 2
#define NUM_CHANNELS 10000
#define NUM_CATEGORIES 5
#define AVG_PERSON_BYTES 200
#define AVG_AUCTION_BYTES 500
#define AVG_BID_BYTES 100

static const char *const US_STATES[] = {"AZ", "CA", "ID", "OR", "WA", "WY"};
static const char *const US_CITIES[] = {"Phoenix",  "Los Angeles", "San Francisco", "Boise",
                                        "Portland", "Bend",        "Redmond",       "Seattle",
                                        "Kent",     "Cheyenne"};
static const char *const FIRST_NAMES[] = {"Peter", "Paul",  "Luke",  "John",   "Saul",  "Vicky",
                                          "Kate",  "Julie", "Sarah", "Deiter", "Walter"};
static const char *const LAST_NAMES[] = {"Shultz", "Abrams", "Spencer", "White", "Bartels",
                                         "Walton", "Smith",  "Jones",   "Noris"};
static const char *const HOT_CHANNELS[] = {"Google", "Facebook", "Baidu", "Apple"};
#define NELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* ---- random streams (splitmix64) --------------------------------------------- */

typedef struct rng {
    uint64_t s;
} rng_t;

static uint64_t rng_u64(rng_t *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* The stream of event n (or of another numbered thing, by `salt`). */
static rng_t rng_for(uint64_t seed, uint64_t salt, int64_t n)
{
    rng_t r = {seed ^ (salt * 0xd1b54a32d192ed03ULL)};
    rng_u64(&r);
    r.s ^= (uint64_t)n * 0x9e3779b97f4a7c15ULL;
    rng_u64(&r);
    return r;
}

/* Uniform in [0, bound), bound >= 1. */
static int64_t rng_below(rng_t *r, int64_t bound)
{
    return (int64_t)(((unsigned __int128)rng_u64(r) * (uint64_t)bound) >> 64);
}

static double rng_double(rng_t *r)
{
    return (double)(rng_u64(r) >> 11) * 0x1.0p-53;
}

/* ---- strings ----------------------------------------------------------------- */

/* 3 .. max-1 letters with an occasional space, trimmed; into out (>= max). */
static size_t next_string(rng_t *r, int max, char *out)
{
    int len = 3 + (int)rng_below(r, max - 3);
    for (int i = 0; i < len; i++)
        out[i] = rng_below(r, 13) == 0 ? ' ' : (char)('a' + rng_below(r, 26));
    int b = 0, e = len;
    while (b < e && out[b] == ' ') b++;
    while (e > b && out[e - 1] == ' ') e--;
    memmove(out, out + b, (size_t)(e - b));
    out[e - b] = 0;
    return (size_t)(e - b);
}

/* Letters so that current + length averages `avg` (nexmark's nextExtra). */
static void next_extra(rng_t *r, size_t current, int avg, char *out, size_t cap)
{
    out[0] = 0;
    if ((int)current > avg) return;
    int want = avg - (int)current;
    int delta = (int)lround(want * 0.2);
    int size = want - delta + (delta ? (int)rng_below(r, 2 * delta) : 0);
    if ((size_t)size >= cap) size = (int)cap - 1;
    for (int i = 0; i < size; i++) out[i] = (char)('a' + rng_below(r, 26));
    out[size] = 0;
}

static int64_t next_price(rng_t *r)
{
    return llround(pow(10.0, rng_double(r) * 6.0) * 100.0);
}

/* ---- ids --------------------------------------------------------------------- */

nexmark_kind_t nexmark_kind(int64_t n)
{
    int64_t off = n % NEXMARK_TOTAL_PROPORTION;
    return off < PERSON_PROPORTION                        ? NEXMARK_PERSON
           : off < PERSON_PROPORTION + AUCTION_PROPORTION ? NEXMARK_AUCTION
                                                          : NEXMARK_BID;
}

int64_t nexmark_time_ms(const nexmark_config_t *c, int64_t n)
{
    return c->base_ms + (int64_t)((__int128)n * 1000000 / c->events_per_sec / 1000);
}

/* The newest person (base 0) at event n: the one being made at a person event. */
static int64_t last_person(int64_t n)
{
    int64_t epoch = n / NEXMARK_TOTAL_PROPORTION, off = n % NEXMARK_TOTAL_PROPORTION;
    if (off >= PERSON_PROPORTION) off = PERSON_PROPORTION - 1;
    return epoch * PERSON_PROPORTION + off;
}

/* The newest auction (base 0) at event n. */
static int64_t last_auction(int64_t n)
{
    int64_t epoch = n / NEXMARK_TOTAL_PROPORTION, off = n % NEXMARK_TOTAL_PROPORTION;
    if (off < PERSON_PROPORTION) {
        epoch--;
        off = AUCTION_PROPORTION - 1;
    } else if (off >= PERSON_PROPORTION + AUCTION_PROPORTION) {
        off = AUCTION_PROPORTION - 1;
    } else {
        off -= PERSON_PROPORTION;
    }
    return epoch * AUCTION_PROPORTION + off;
}

/* A random recent person (base 0), a few ahead of the newest allowed. */
static int64_t next_person(rng_t *r, int64_t n)
{
    int64_t people = last_person(n) + 1;
    int64_t active = people < NUM_ACTIVE_PEOPLE ? people : NUM_ACTIVE_PEOPLE;
    return people - active + rng_below(r, active + PERSON_ID_LEAD);
}

/* A random auction likely still in flight (base 0). */
static int64_t next_auction(rng_t *r, int64_t n)
{
    int64_t max = last_auction(n);
    int64_t min = max - NUM_IN_FLIGHT_AUCTIONS > 0 ? max - NUM_IN_FLIGHT_AUCTIONS : 0;
    return min + rng_below(r, max - min + 1 + AUCTION_ID_LEAD);
}

/* ---- events ------------------------------------------------------------------- */

void nexmark_person(const nexmark_config_t *c, int64_t n, nexmark_person_t *p)
{
    rng_t r = rng_for(c->seed, 1, n);
    p->id = last_person(n) + NEXMARK_FIRST_PERSON_ID;
    snprintf(p->name, sizeof p->name, "%s %s", FIRST_NAMES[rng_below(&r, NELEMS(FIRST_NAMES))],
             LAST_NAMES[rng_below(&r, NELEMS(LAST_NAMES))]);
    char user[8], host[8];
    next_string(&r, 7, user);
    next_string(&r, 5, host);
    snprintf(p->email, sizeof p->email, "%s@%s.com", user, host);
    int cc[4];
    for (int i = 0; i < 4; i++) cc[i] = (int)rng_below(&r, 10000);
    snprintf(p->credit_card, sizeof p->credit_card, "%04d %04d %04d %04d", cc[0], cc[1], cc[2],
             cc[3]);
    snprintf(p->city, sizeof p->city, "%s", US_CITIES[rng_below(&r, NELEMS(US_CITIES))]);
    snprintf(p->state, sizeof p->state, "%s", US_STATES[rng_below(&r, NELEMS(US_STATES))]);
    p->date_time_ms = nexmark_time_ms(c, n);
    size_t size = 8 + strlen(p->name) + strlen(p->email) + strlen(p->credit_card) +
                  strlen(p->city) + strlen(p->state);
    next_extra(&r, size, AVG_PERSON_BYTES, p->extra, sizeof p->extra);
}

/* How long an auction runs: on average until NUM_IN_FLIGHT_AUCTIONS more
 * auctions have been made. */
static int64_t auction_length_ms(const nexmark_config_t *c, rng_t *r, int64_t n, int64_t ts)
{
    int64_t events_ahead =
        (int64_t)NUM_IN_FLIGHT_AUCTIONS * NEXMARK_TOTAL_PROPORTION / AUCTION_PROPORTION;
    int64_t horizon = nexmark_time_ms(c, n + events_ahead) - ts;
    return 1 + rng_below(r, horizon * 2 > 1 ? horizon * 2 : 1);
}

void nexmark_auction(const nexmark_config_t *c, int64_t n, nexmark_auction_t *a)
{
    rng_t r = rng_for(c->seed, 2, n);
    a->id = last_auction(n) + NEXMARK_FIRST_AUCTION_ID;
    int64_t seller = rng_below(&r, HOT_SELLERS_RATIO) > 0
                         ? last_person(n) / HOT_RATIO_GROUP * HOT_RATIO_GROUP
                         : next_person(&r, n);
    a->seller = seller + NEXMARK_FIRST_PERSON_ID;
    a->category = NEXMARK_FIRST_CATEGORY_ID + rng_below(&r, NUM_CATEGORIES);
    a->initial_bid = next_price(&r);
    a->date_time_ms = nexmark_time_ms(c, n);
    a->expires_ms = a->date_time_ms + auction_length_ms(c, &r, n, a->date_time_ms);
    size_t nlen = next_string(&r, 20, a->item_name);
    size_t dlen = next_string(&r, 100, a->description);
    a->reserve = a->initial_bid + next_price(&r);
    next_extra(&r, 8 + nlen + dlen + 40, AVG_AUCTION_BYTES, a->extra, sizeof a->extra);
}

/* The URL of channel k (k < 0: hot channel -k-1), the same for every bid. */
static void channel_url(const nexmark_config_t *c, int64_t k, char *out, size_t cap)
{
    rng_t r = rng_for(c->seed, 3, k);
    char a[8], b[8], d[8];
    next_string(&r, 5, a);
    next_string(&r, 5, b);
    next_string(&r, 5, d);
    if (k < 0) snprintf(out, cap, "https://www.nexmark.com/%s/%s/%s/item.htm?query=1", a, b, d);
    else
        snprintf(out, cap, "https://www.nexmark.com/%s/%s/%s/item.htm?query=1&channel_id=%lld", a,
                 b, d, (long long)k);
}

void nexmark_bid(const nexmark_config_t *c, int64_t n, nexmark_bid_t *b)
{
    rng_t r = rng_for(c->seed, 4, n);
    int64_t auction = rng_below(&r, HOT_AUCTION_RATIO) > 0
                          ? last_auction(n) / HOT_RATIO_GROUP * HOT_RATIO_GROUP
                          : next_auction(&r, n);
    b->auction = auction + NEXMARK_FIRST_AUCTION_ID;
    int64_t bidder = rng_below(&r, HOT_BIDDERS_RATIO) > 0
                         ? last_person(n) / HOT_RATIO_GROUP * HOT_RATIO_GROUP + 1
                         : next_person(&r, n);
    b->bidder = bidder + NEXMARK_FIRST_PERSON_ID;
    b->price = next_price(&r);
    if (rng_below(&r, HOT_CHANNELS_RATIO) > 0) {
        int64_t i = rng_below(&r, NELEMS(HOT_CHANNELS));
        snprintf(b->channel, sizeof b->channel, "%s", HOT_CHANNELS[i]);
        channel_url(c, -i - 1, b->url, sizeof b->url);
    } else {
        int64_t k = rng_below(&r, NUM_CHANNELS);
        snprintf(b->channel, sizeof b->channel, "channel-%lld", (long long)k);
        channel_url(c, k, b->url, sizeof b->url);
    }
    b->date_time_ms = nexmark_time_ms(c, n);
    next_extra(&r, 32, AVG_BID_BYTES, b->extra, sizeof b->extra);
}
