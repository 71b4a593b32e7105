/* Unit tests of exec/hashtable.c: ids are dense and stable across batches,
 * NULL keys group together, the table grows past many keys, probes find
 * exactly the inserted keys, multi-column and string keys, selections. */
#include "unit.h"

#include "common/hash.h"
#include "exec/hashtable.h"
#include "model/row.h"

static exec_batch_t *bigint_batch(sl_arena_t *a, const int64_t *v, const int *isnull, uint32_t n)
{
    exec_type_t t = exec_type_of(EXEC_TYPE_BIGINT);
    exec_builder_t bld;
    exec_builder_init(&bld, a, 1, &t, n);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t r = exec_builder_add_row(&bld);
        if (isnull && isnull[i]) exec_builder_set_null(&bld, 0, r);
        else exec_builder_set_bigint(&bld, 0, r, v[i]);
    }
    return exec_builder_finish(&bld);
}

static uint32_t *upsert(exec_ht_t *ht, sl_arena_t *a, exec_batch_t *b, const int *cols, int ncols)
{
    uint64_t *h = sl_alloc(a, sizeof *h * (b->nrows + 1));
    uint32_t *ids = sl_alloc(a, sizeof *ids * (b->nrows + 1));
    exec_hash_rows(b, cols, ncols, h);
    exec_ht_upsert(ht, b, cols, h, ids);
    return ids;
}

TEST(ht_bigint_ids_dense_and_stable)
{
    sl_arena_t *a = sl_arena_new("t");
    exec_type_t t = exec_type_of(EXEC_TYPE_BIGINT);
    exec_ht_t *ht = exec_ht_new(a, 1, &t, 0);
    int col = 0;
    int64_t v1[] = {5, 7, 5, 0, 9, 0};
    int n1[] = {0, 0, 0, 1, 0, 1};
    uint32_t *ids = upsert(ht, a, bigint_batch(a, v1, n1, 6), &col, 1);
    CHECK_INT(ids[0], 0);
    CHECK_INT(ids[1], 1);
    CHECK_INT(ids[2], 0);
    CHECK_INT(ids[3], 2); /* NULL is a key of its own */
    CHECK_INT(ids[4], 3);
    CHECK_INT(ids[5], 2);
    CHECK_INT(exec_ht_size(ht), 4);
    int64_t v2[] = {9, 11, 7};
    ids = upsert(ht, a, bigint_batch(a, v2, NULL, 3), &col, 1);
    CHECK_INT(ids[0], 3);
    CHECK_INT(ids[1], 4);
    CHECK_INT(ids[2], 1);
    const exec_vec_t *k = exec_ht_key(ht, 0);
    CHECK_INT(EXEC_VEC_AT(k, int64_t, 4), 11);
    CHECK(exec_vec_is_null(k, 2));
    CHECK(!exec_vec_is_null(k, 3));
    sl_arena_free(a);
}

TEST(ht_grows_and_probes)
{
    sl_arena_t *a = sl_arena_new("t");
    exec_type_t t = exec_type_of(EXEC_TYPE_BIGINT);
    exec_ht_t *ht = exec_ht_new(a, 1, &t, 0);
    int col = 0;
    enum { N = 200000 };
    int64_t *v = sl_alloc(a, sizeof *v * N);
    for (int i = 0; i < N; i++) v[i] = (int64_t)i * 7919 - 1000000;
    for (int off = 0; off < N; off += 4096) {
        uint32_t n = N - off < 4096 ? (uint32_t)(N - off) : 4096;
        uint32_t *ids = upsert(ht, a, bigint_batch(a, v + off, NULL, n), &col, 1);
        for (uint32_t i = 0; i < n; i++) CHECK_INT(ids[i], off + (int)i);
    }
    CHECK_INT(exec_ht_size(ht), N);
    int64_t q[] = {-1000000, 7919 * 5 - 1000000, 3, (int64_t)(N - 1) * 7919 - 1000000};
    exec_batch_t *b = bigint_batch(a, q, NULL, 4);
    uint64_t h[4];
    uint32_t ids[4];
    exec_hash_rows(b, &col, 1, h);
    exec_ht_probe(ht, b, &col, h, ids);
    CHECK_INT(ids[0], 0);
    CHECK_INT(ids[1], 5);
    CHECK_INT(ids[2], EXEC_HT_NONE);
    CHECK_INT(ids[3], N - 1);
    CHECK_INT(exec_ht_size(ht), N);
    sl_arena_free(a);
}

TEST(ht_partitioned_hashes)
{
    /* Only keys whose hash is 0 mod 8, as one partition of an exchange sees. */
    sl_arena_t *a = sl_arena_new("t");
    exec_type_t t = exec_type_of(EXEC_TYPE_BIGINT);
    exec_ht_t *ht = exec_ht_new(a, 1, &t, 0);
    int col = 0, n = 0;
    int64_t *v = sl_alloc(a, sizeof *v * 50000);
    for (int64_t x = 0; n < 50000; x++)
        if (sl_hash_u64((uint64_t)x, SL_HASH_SEED) % 8 == 0) v[n++] = x;
    uint32_t *ids = upsert(ht, a, bigint_batch(a, v, NULL, 50000), &col, 1);
    for (int i = 0; i < 50000; i++) CHECK_INT(ids[i], i);
    ids = upsert(ht, a, bigint_batch(a, v, NULL, 50000), &col, 1);
    for (int i = 0; i < 50000; i++) CHECK_INT(ids[i], i);
    sl_arena_free(a);
}

TEST(ht_multi_column_strings_nulls_and_selection)
{
    sl_arena_t *a = sl_arena_new("t");
    exec_type_t types[2] = {exec_type_of(EXEC_TYPE_STRING), exec_type_of(EXEC_TYPE_INT)};
    exec_ht_t *ht = exec_ht_new(a, 2, types, 0);
    exec_builder_t bld;
    exec_builder_init(&bld, a, 2, types, 8);
    const char *s[] = {"a", "b", "a", NULL, "a", NULL, "a"};
    int iv[] = {1, 1, 1, 2, 2, 2, 1};
    for (int i = 0; i < 7; i++) {
        uint32_t r = exec_builder_add_row(&bld);
        if (s[i]) exec_builder_set_str(&bld, 0, r, s[i], strlen(s[i]));
        else exec_builder_set_null(&bld, 0, r);
        exec_builder_set_int(&bld, 1, r, iv[i]);
    }
    exec_batch_t *b = exec_builder_finish(&bld);
    uint32_t sel[] = {0, 1, 2, 3, 5, 6}; /* row 4 is not present */
    b->sel = sel;
    b->nsel = 6;
    int cols[2] = {0, 1};
    uint32_t *ids = upsert(ht, a, b, cols, 2);
    CHECK_INT(ids[0], 0);
    CHECK_INT(ids[1], 1);
    CHECK_INT(ids[2], 0);
    CHECK_INT(ids[3], 2);
    CHECK_INT(ids[5], 2);
    CHECK_INT(ids[6], 0);
    CHECK_INT(exec_ht_size(ht), 3);
    exec_batch_t *keys = exec_ht_keys(ht, a);
    CHECK_INT(keys->nrows, 3);
    CHECK(exec_vec_is_null(&keys->cols[0], 2));
    CHECK_INT(EXEC_VEC_AT(&keys->cols[1], int32_t, 2), 2);
    CHECK_INT(EXEC_VEC_AT(&keys->cols[0], exec_str_t, 1).ptr[0], 'b');
    sl_arena_free(a);
}
