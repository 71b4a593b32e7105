/* clients/cli_print.h — result tables and their output in psql's layouts:
 * aligned (border 1, centred headers, right-aligned numbers, '+' marks on
 * multi-line cells, "(N rows)"), expanded ("-[ RECORD n ]"), unaligned and
 * CSV. \tail uses the aligned pieces to print a table that grows. */
#ifndef SLUICE_CLI_PRINT_H
#define SLUICE_CLI_PRINT_H

#include "clients/cli.h"

/* A table to print. Strings are borrowed (a PGresult or an arena owns them). */
typedef struct cli_table {
    int ncols;                  /* columns */
    long nrows;                 /* rows */
    const char **headers;       /* ncols column names */
    const char *aligns;         /* ncols characters: 'l' left or 'r' right */
    const char **cells;         /* nrows * ncols texts, row-major, never NULL */
    const char *title;          /* printed above the table (NULL: none) */
    const char *const *footers; /* lines printed below instead of "(N rows)" (NULL: default) */
    int nfooters;               /* entries in footers */
    int encoding;               /* client encoding, for display widths */
    long prior_records;         /* expanded: records printed before (numbering) */
} cli_table_t;

/* Fills t from a PGresult with tuples: headers, alignment from the column
 * types (numbers right), NULLs shown as opt->null_display. Arrays come from a. */
void cli_table_from_result(cli_table_t *t, const PGresult *res, const cli_popt_t *opt, int encoding,
                           sl_arena_t *a);

/* Allocates an empty table of ncols columns and nrows rows in a (cells ""). */
void cli_table_init(cli_table_t *t, int ncols, long nrows, int encoding, sl_arena_t *a);

/* Prints t to out in the format opt asks for. */
void cli_print_table(FILE *out, const cli_table_t *t, const cli_popt_t *opt);

/* Display width of the widest line of s and its number of lines, as printed. */
void cli_print_cell_size(const char *s, int encoding, int *width, int *height);

/* Aligned pieces: widths[] (ncols) receives each column's width (header and
 * cells, or kept when already wider); the header with its rule; rows
 * [from, to); the footer ("(N rows)" with N = count, or t's footers) and the
 * closing blank line. */
void cli_print_widths(const cli_table_t *t, int *widths);
void cli_print_aligned_header(FILE *out, const cli_table_t *t, const int *widths);
void cli_print_aligned_rows(FILE *out, const cli_table_t *t, const int *widths, long from, long to);
void cli_print_footer(FILE *out, const cli_table_t *t, const cli_popt_t *opt, long count);

/* Terminal width for out (\pset columns, $COLUMNS, the tty), 0 when unknown. */
int cli_print_term_columns(FILE *out, const cli_popt_t *opt);

#endif
