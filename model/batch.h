/* exec batches: columnar data flowing between sources, operators and sinks.
 *
 * A vector (exec_vec_t) is one column over `nrows` physical rows: a data
 * array of fixed-width cells (types.h gives each type's C representation;
 * strings and binaries are {len, ptr} views into batch memory), a null map
 * and, for STRUCT, one child vector per field. A batch (exec_batch_t) is
 * ncols vectors of the same nrows, an optional selection vector naming the
 * rows that are logically present, the reserved change column, and the
 * arena that owns all of it.
 *
 * Invariants
 * - Selection vectors hold strictly increasing physical row numbers.
 * - Vectors are immutable once built: a kernel writes only to vectors it
 *   allocated, so vectors (and null maps) may be shared between batches
 *   (a projection's output aliases its input's columns).
 * - Cells under a NULL hold unspecified bytes; readers test the null map.
 * - A STRUCT vector's own null map says which structs are NULL; children
 *   have their own maps (a field of a NULL struct is unspecified).
 * - The NULL type's vectors have no data and a null map of all ones.
 * - Nothing is allocated per row with malloc: vectors and strings come
 *   from the batch arena (bump allocation), reset when the batch commits.
 *
 * The null map is a byte per row (1 = NULL) rather than a bit per row:
 * kernels combine maps with byte-wise OR loops the compiler vectorises, and
 * a 4096-row batch's map is 4 KiB, well within L1. */
#ifndef EXEC_BATCH_H
#define EXEC_BATCH_H

#include <stdbool.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/buf.h"
#include "common/sl_error.h"
#include "model/types.h"
#include "model/value.h"

/* Rows per batch that sources and the runner aim for (a batch may hold any
 * number of rows; 4096 keeps a batch's working set in L2). */
#define EXEC_BATCH_ROWS 4096

typedef struct exec_vec {
    exec_type_t type;
    void *data;     /* nrows cells of exec_type_width(type) bytes; NULL for NULL/STRUCT */
    uint8_t *nulls; /* NULL: no row is NULL; else nulls[row] != 0 <=> NULL */
    struct exec_vec *children; /* STRUCT: type.nfields vectors over the same rows; else NULL */
} exec_vec_t;

typedef struct exec_batch {
    int ncols;
    exec_vec_t *cols;  /* ncols vectors of nrows rows each */
    uint32_t nrows;    /* physical rows */
    uint32_t *sel;     /* NULL: every row is present; else the present rows, increasing */
    uint32_t nsel;     /* entries in sel (meaningless when sel is NULL) */
    int8_t *change;    /* RESERVED for update/CDC chaining: NULL = every row an insert;
                             else +1 (insert) / -1 (retract) per physical row. Operators
                             must carry it through (compact, slice and the builder do). */
    sl_arena_t *arena; /* owns this struct, its vectors and their strings */
} exec_batch_t;

static inline bool exec_vec_is_null(const exec_vec_t *v, uint32_t row)
{
    return v->nulls && v->nulls[row];
}
/* Cell `row` of a vector whose C type is T. */
#define EXEC_VEC_AT(v, T, row) (((T *)(v)->data)[row])

/* Rows present (nsel, or nrows without selection). */
static inline uint32_t exec_batch_count(const exec_batch_t *b)
{
    return b->sel ? b->nsel : b->nrows;
}
/* Physical row of the k-th present row. */
static inline uint32_t exec_batch_row(const exec_batch_t *b, uint32_t k)
{
    return b->sel ? b->sel[k] : k;
}

/* A vector of nrows rows of type t in `a`: data uninitialised, no null map
 * (the NULL type gets its all-ones map), children for STRUCT. */
exec_vec_t exec_vec_new(sl_arena_t *a, exec_type_t t, uint32_t nrows);
/* The vector's null map, allocated (all zero) when it has none. */
uint8_t *exec_vec_make_nulls(sl_arena_t *a, exec_vec_t *v, uint32_t nrows);
/* A batch of ncols new vectors (exec_vec_new) with nrows rows, no
 * selection, owned by `a`. */
exec_batch_t *exec_batch_new(sl_arena_t *a, int ncols, const exec_type_t *types, uint32_t nrows);
/* A copy of the batch struct (vectors shared) in `a`. */
exec_batch_t *exec_batch_shallow_copy(const exec_batch_t *b, sl_arena_t *a);

/* Applies the selection: gathers the present rows of every vector (and the
 * change column) into new arrays from b->arena; sel becomes NULL. Shared
 * vectors are never modified. No-op without a selection. */
void exec_batch_compact(exec_batch_t *b);
/* Physical rows rows[0..n) of b as a new batch owned by `a`, every cell
 * copied (string bytes included), so it outlives b's memory. */
exec_batch_t *exec_batch_gather(const exec_batch_t *b, const uint32_t *rows, uint32_t n,
                                sl_arena_t *a);
/* The present rows first .. first+count-1 as a new batch sharing b's
 * memory (allocated from b->arena). first + count <= exec_batch_count(b). */
exec_batch_t *exec_batch_slice(const exec_batch_t *b, uint32_t first, uint32_t count);

/* Appends the PostgreSQL text of one cell (STRUCT as JSON); false and
 * nothing appended when it is NULL. */
bool exec_vec_text(const exec_vec_t *v, uint32_t row, sl_buf_t *buf);
/* Reads one cell as a value; strings stay views into the vector, struct
 * field arrays are allocated in `a`. */
void exec_vec_get_value(const exec_vec_t *v, uint32_t row, sl_arena_t *a, exec_value_t *out);

/* Writes a value (any type, struct fields recursively; strings copied into
 * `a`) into cell `row` of a vector of nrows rows, allocating its null map
 * (and its children's) in `a` when a NULL is written. */
void exec_vec_set_value(sl_arena_t *a, exec_vec_t *v, uint32_t nrows, uint32_t row,
                        const exec_value_t *val);

/* ---- builder: appending rows ---------------------------------------------
 * Used by sources, state decoding and the result encoder. Every cell of a
 * new row must be set (to a value or NULL) before exec_builder_finish (a
 * cell left unset reads as zero: 0, false, '', never garbage). The
 * batch's vectors move when they grow: keep column numbers, not pointers,
 * across exec_builder_add_row. */
typedef struct exec_builder {
    exec_batch_t *batch; /* being built; batch->nrows counts the rows added */
    uint32_t cap;        /* rows allocated in every vector */
    bool has_change;     /* a row was given change -1 (change column allocated) */
} exec_builder_t;

/* Starts a batch of ncols columns of `types` in `a`, room for cap_hint rows. */
void exec_builder_init(exec_builder_t *bld, sl_arena_t *a, int ncols, const exec_type_t *types,
                       uint32_t cap_hint);
/* Adds a row and returns its number. */
uint32_t exec_builder_add_row(exec_builder_t *bld);
void exec_builder_set_null(exec_builder_t *bld, int col, uint32_t row);
void exec_builder_set_bool(exec_builder_t *bld, int col, uint32_t row, bool v);
void exec_builder_set_int(exec_builder_t *bld, int col, uint32_t row, int32_t v); /* INT, DATE */
void exec_builder_set_bigint(exec_builder_t *bld, int col, uint32_t row,
                             int64_t v); /* BIGINT, TIMESTAMP */
void exec_builder_set_double(exec_builder_t *bld, int col, uint32_t row, double v);
/* STRING or BINARY; the bytes are copied into the batch arena. */
void exec_builder_set_str(exec_builder_t *bld, int col, uint32_t row, const char *p, size_t n);
/* Any type (struct fields recursively); strings copied. v->type must equal
 * the column's type (a NULL-typed NULL is accepted for any column). */
void exec_builder_set_value(exec_builder_t *bld, int col, uint32_t row, const exec_value_t *v);
/* Copies cell src_row of `src` (same type as the column); strings copied. */
void exec_builder_copy_cell(exec_builder_t *bld, int col, uint32_t row, const exec_vec_t *src,
                            uint32_t src_row);
/* Parses text (text_io.h; JSON for STRUCT) into the cell. -1 with err set
 * when the text is not a value of the column's type; the cell is then NULL. */
int exec_builder_set_text(exec_builder_t *bld, int col, uint32_t row, const char *s, size_t n,
                          sl_error_t *err);
/* Sets a row's change (+1 insert, -1 retract); rows default to +1. */
void exec_builder_set_change(exec_builder_t *bld, uint32_t row, int8_t change);
/* Appends every present row of `src` (same column types) with its change. */
void exec_builder_append_batch(exec_builder_t *bld, const exec_batch_t *src);
/* The built batch (no selection). The builder must be re-initialised before reuse. */
exec_batch_t *exec_builder_finish(exec_builder_t *bld);

#endif
