/* Unit tests of server/guc.c: value checking and spelling, SET LOCAL and
 * the transaction stack, placeholders, and ParameterStatus changes. */
#include "unit.h"

#include <string.h>

#include "server/guc.h"

static int set(guc_t *g, const char *name, const char *value, int local, int in_block)
{
    sl_error_t e;
    return guc_set(g, name, value, local, in_block, &e);
}

TEST(values_take_postgres_spellings)
{
    guc_t *g = guc_new("alice");
    sl_error_t e;
    CHECK(set(g, "statement_timeout", "5000", 0, 0) == 0);
    CHECK_STR(guc_value(g, GUC_STATEMENT_TIMEOUT), "5s");
    CHECK_INT(guc_int(g, GUC_STATEMENT_TIMEOUT), 5000);
    CHECK(set(g, "STATEMENT_TIMEOUT", "2min", 0, 0) == 0);
    CHECK_INT(guc_int(g, GUC_STATEMENT_TIMEOUT), 120000);
    CHECK(set(g, "lock_timeout", "1500ms", 0, 0) == 0);
    CHECK_STR(guc_get(g, "lock_timeout"), "1500ms");
    CHECK(set(g, "default_transaction_read_only", "TRUE", 0, 0) == 0);
    CHECK_STR(guc_value(g, GUC_DEFAULT_TRANSACTION_READ_ONLY), "on");
    CHECK(set(g, "default_transaction_isolation", "Repeatable Read", 0, 0) == 0);
    CHECK_STR(guc_value(g, GUC_TRANSACTION_ISOLATION), "repeatable read");
    CHECK(set(g, "datestyle", "iso, dmy", 0, 0) == 0);
    CHECK_STR(guc_get(g, "DateStyle"), "ISO, DMY");
    CHECK(set(g, "client_encoding", "Unicode", 0, 0) == 0);
    CHECK_STR(guc_get(g, "client_encoding"), "UTF8");
    CHECK_STR(guc_get(g, "session_authorization"), "alice");
    CHECK(guc_set(g, "client_encoding", "LATIN1", 0, 0, &e) < 0);
    CHECK_STR(e.sqlstate, "22023");
    CHECK(guc_set(g, "extra_float_digits", "4", 0, 0, &e) < 0);
    CHECK_STR(e.sqlstate, "22023");
    CHECK(guc_set(g, "server_version", "1", 0, 0, &e) < 0);
    CHECK_STR(e.sqlstate, "55P02");
    CHECK(guc_set(g, "no_such", "1", 0, 0, &e) < 0);
    CHECK_STR(e.sqlstate, "42704");
    CHECK(guc_get(g, "no_such") == NULL);
    guc_free(g);
}

TEST(blocks_and_savepoints_restore_settings)
{
    guc_t *g = guc_new("u");
    CHECK(set(g, "application_name", "before", 0, 0) == 0);
    CHECK_INT(set(g, "application_name", "ignored", 1, 0), 1); /* SET LOCAL outside a block */
    CHECK_STR(guc_get(g, "application_name"), "before");
    guc_txn_begin(g);
    CHECK(set(g, "application_name", "inside", 0, 1) == 0);
    CHECK(set(g, "app.key", "v", 0, 1) == 0);
    guc_txn_savepoint(g);
    CHECK(set(g, "application_name", "in savepoint", 0, 1) == 0);
    guc_txn_rollback_to(g, 0);
    CHECK_STR(guc_get(g, "application_name"), "inside");
    guc_txn_end(g, 0);
    CHECK_STR(guc_get(g, "application_name"), "before");
    CHECK(guc_get(g, "app.key") == NULL);
    guc_txn_begin(g);
    CHECK(set(g, "application_name", "local", 1, 1) == 0);
    CHECK(set(g, "TimeZone", "Etc/UTC", 0, 1) == 0);
    guc_txn_property(g, GUC_TRANSACTION_READ_ONLY, "on");
    CHECK_STR(guc_get(g, "transaction_read_only"), "on");
    guc_txn_end(g, 1);
    CHECK_STR(guc_get(g, "application_name"), "before");
    CHECK_STR(guc_get(g, "TimeZone"), "Etc/UTC");
    CHECK_STR(guc_get(g, "transaction_read_only"), "off");
    guc_reset_all(g);
    CHECK_STR(guc_get(g, "TimeZone"), "UTC");
    guc_free(g);
}

static int nreported;
static char last_name[64];

static void on_report(void *arg, const char *name, const char *value)
{
    (void)arg;
    (void)value;
    nreported++;
    snprintf(last_name, sizeof last_name, "%s", name);
}

TEST(changes_are_reported_once)
{
    guc_t *g = guc_new("u");
    guc_report_changes(g, on_report, NULL);
    CHECK(nreported >= 11); /* every GUC_REPORT setting at startup */
    nreported = 0;
    guc_report_changes(g, on_report, NULL);
    CHECK_INT(nreported, 0);
    CHECK(set(g, "extra_float_digits", "3", 0, 0) == 0); /* not reported */
    CHECK(set(g, "TimeZone", "Europe/Berlin", 0, 0) == 0);
    guc_report_changes(g, on_report, NULL);
    CHECK_INT(nreported, 1);
    CHECK_STR(last_name, "TimeZone");
    guc_free(g);
}
