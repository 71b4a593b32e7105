/* sluiced: parses the command line and configuration, opens the data
 * directory and catalog, starts the SQL and HTTP endpoints and the query
 * manager on one libuv loop, and shuts everything down cleanly on SIGTERM or
 * SIGINT (queries stop, a computing batch abandoned to rerun at the next
 * start; exit status 0). */
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/private_file.h"
#include "common/durable.h"
#include "common/crash.h"
#include "common/log.h"
#include "common/version.h"
#include "server/catalog.h"
#include "server/config.h"
#include "server/http.h"
#include "server/pgwire.h"
#include "server/server.h"
#include "server/session.h"
#include "server/startup.h"
#include "server/table_store.h"
#include "connectors/memtable.h"
#include "common/pool.h"
#include "server/qm.h"

static srv_t srv;
static uv_signal_t sig_term, sig_int;
static int lock_fd = -1;

static void usage(FILE *f)
{
    fprintf(f, "sluiced " SL_VERSION " - streaming SQL query server\n\n"
               "Usage: sluiced [-c FILE] [-c key=value ...]\n"
               "  -c FILE          read a configuration file (key = value lines)\n"
               "  -c key=value     set one configuration key (later ones win)\n"
               "  --describe-config  print every key with its default and documentation\n"
               "  --version        print the version\n");
}

/* Applies -c arguments in order: files and key=value overrides alike. */
static int parse_args(int argc, char **argv, conf_t *conf)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--describe-config")) {
            sl_buf_t b = SL_BUF_INIT;
            conf_describe(&b);
            fputs(b.data, stdout);
            sl_buf_free(&b);
            exit(0);
        } else if (!strcmp(a, "--version")) {
            printf("sluiced " SL_VERSION "\n");
            exit(0);
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            exit(0);
        } else if (!strcmp(a, "-c") && i + 1 < argc) {
            const char *v = argv[++i];
            sl_error_t err;
            int rc = strchr(v, '=') ? conf_set_arg(conf, v, &err) : conf_load_file(conf, v, &err);
            if (rc < 0) {
                fprintf(stderr, "sluiced: %s\n", err.message);
                if (err.hint[0]) fprintf(stderr, "HINT: %s\n", err.hint);
                return -1;
            }
        } else {
            usage(stderr);
            return -1;
        }
    }
    return 0;
}

static int is_loopback(const char *addr)
{
    return !strncmp(addr, "127.", 4) || !strcmp(addr, "::1") || !strcmp(addr, "localhost");
}

/* auto -> trust when every listen address is loopback, scram-sha-256 otherwise. */
static srv_auth_t resolve_auth(const conf_t *c)
{
    if (!strcmp(c->authentication, "trust")) return AUTH_TRUST;
    if (!strcmp(c->authentication, "password")) return AUTH_PASSWORD;
    if (!strcmp(c->authentication, "scram-sha-256")) return AUTH_SCRAM;
    char *list = sl_xstrdup(c->listen_addresses), *save = NULL;
    int all_loopback = 1;
    for (char *t = strtok_r(list, ", ", &save); t; t = strtok_r(NULL, ", ", &save))
        if (!is_loopback(t)) all_loopback = 0;
    free(list);
    return all_loopback ? AUTH_TRUST : AUTH_SCRAM;
}

/* One daemon per data directory: an exclusive flock on <data>/sluiced.lock. */
static int lock_data_directory(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/sluiced.lock", dir);
    lock_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (lock_fd < 0 || flock(lock_fd, LOCK_EX | LOCK_NB) < 0) {
        SL_ERROR("server", "data directory %s is in use by another sluiced (lock %s: %s)", dir,
                 path, strerror(errno));
        return -1;
    }
    char pid[32];
    int n = snprintf(pid, sizeof pid, "%d\n", (int)getpid());
    if (ftruncate(lock_fd, 0) < 0 || write(lock_fd, pid, (size_t)n) != n)
        SL_WARN("server", "could not write pid to %s", path);
    return 0;
}

static void on_handle_closed(uv_handle_t *h)
{
    (void)h;
}

static void on_queries_stopped(srv_t *s)
{
    (void)s;
    SL_INFO("server", "every query stopped");
    uv_close((uv_handle_t *)&sig_term, on_handle_closed);
    uv_close((uv_handle_t *)&sig_int, on_handle_closed);
}

static void on_endpoints_stopped(srv_t *s)
{
    http_stop(s);
    SL_INFO("server", "all connections closed; stopping queries");
    qm_shutdown(s->qm, on_queries_stopped);
}

static void on_signal(uv_signal_t *h, int signum)
{
    (void)h;
    if (atomic_exchange(&srv.shutting_down, 1)) return;
    SL_INFO("server", "received %s; shutting down", signum == SIGTERM ? "SIGTERM" : "SIGINT");
    pgw_stop(&srv, on_endpoints_stopped);
}

int main(int argc, char **argv)
{
    sl_crash_install(); /* a crash logs its signal and a backtrace */
    signal(SIGPIPE, SIG_IGN);
    /* Batch arenas free and reallocate large blocks all the time: keep
     * freed memory in the process instead of returning it to the kernel
     * (and faulting it back in) on every reset. */
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
    mallopt(M_MMAP_THRESHOLD, 64 << 20);
    srv.conf = conf_new();
    if (parse_args(argc, argv, srv.conf) < 0) return 2;
    conf_t *c = srv.conf;
    sl_log_set_level((sl_log_level_t)sl_log_level_parse(c->log_level));
    srv.auth = resolve_auth(c);

    sl_error_t derr;
    if (sl_fs_mkdirs(c->data_directory, SL_PRIVATE_DIR_MODE, &derr) < 0) {
        SL_ERROR("server", "could not create data directory: %s", derr.message);
        return 1;
    }
    if (lock_data_directory(c->data_directory) < 0) return 1;

    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    srv.worker_threads =
        c->worker_threads > 0 ? (int)c->worker_threads : (int)(ncpu > 0 ? ncpu : 2);
    char nthreads[16];
    snprintf(nthreads, sizeof nthreads, "%d", srv.worker_threads + 1);
    setenv("UV_THREADPOOL_SIZE", nthreads, 1); /* read by libuv at the first queued work */
    srv.loop = uv_default_loop();

    sl_error_t err;
    if (!(srv.cat = cat_open(c->data_directory, &err))) {
        SL_ERROR("server", "%s", err.message);
        return 1;
    }
    if (!(srv.tstore = tstore_open(c->data_directory, (size_t)c->table_cache_mb << 20, &err))) {
        SL_ERROR("server", "%s", err.message);
        return 1;
    }
    srv.pool = exec_pool_new(srv.worker_threads);
    srv.io_pool = exec_pool_new_named((int)c->io_threads, "sl-io");
    srv.memtables = memtable_registry_new();
    srv.qm = qm_new(&srv);
    if (pgw_start(&srv, &err) < 0) {
        SL_ERROR("server", "%s", err.message);
        return 1;
    }
    if (http_start(&srv, &err) < 0) {
        SL_ERROR("server", "%s", err.message);
        return 1;
    }
    uv_signal_init(srv.loop, &sig_term);
    uv_signal_init(srv.loop, &sig_int);
    uv_signal_start(&sig_term, on_signal, SIGTERM);
    uv_signal_start(&sig_int, on_signal, SIGINT);
    qm_resume_all(srv.qm);
    if (c->startup_file[0]) startup_run_file(&srv, c->startup_file);

    SL_INFO("server", "sluiced " SL_VERSION " ready data_directory=%s worker_threads=%d",
            c->data_directory, srv.worker_threads);
    uv_run(srv.loop, UV_RUN_DEFAULT);

    qm_free(srv.qm);
    memtable_registry_free(srv.memtables);
    exec_pool_free(srv.pool);
    exec_pool_free(srv.io_pool);
    tstore_close(srv.tstore);
    cat_close(srv.cat);
    uv_loop_close(srv.loop);
    conf_free(srv.conf);
    SL_INFO("server", "stopped");
    if (lock_fd >= 0) close(lock_fd);
    return 0;
}
