/* Unit tests of server/config.c: defaults, validation, file syntax. */
#include "unit.h"

#include <fcntl.h>
#include <unistd.h>

#include "server/config.h"

TEST(config_defaults_match_spec)
{
    conf_t *c = conf_new();
    CHECK_STR(c->listen_addresses, "127.0.0.1");
    CHECK_INT(c->port, 5433);
    CHECK_INT(c->http_port, 4040);
    CHECK_STR(c->data_directory, "./data");
    conf_free(c);
}

TEST(config_rejects_bad_values)
{
    conf_t *c = conf_new();
    sl_error_t e;
    CHECK(conf_set_arg(c, "port=99999", &e) < 0);
    CHECK(strstr(e.message, "outside the valid range"));
    CHECK(conf_set_arg(c, "port=12x", &e) < 0);
    CHECK(conf_set_arg(c, "ssl=maybe", &e) < 0);
    CHECK(strstr(e.hint, "off|on|require"));
    CHECK(conf_set_arg(c, "no_such_key=1", &e) < 0);
    CHECK_STR(e.sqlstate, "42704");
    CHECK(conf_set_arg(c, "port = 0", &e) == 0);
    CHECK_INT(c->port, 0);
    conf_free(c);
}

TEST(config_file_syntax)
{
    char path[] = "/tmp/sluice-conf-XXXXXX";
    int fd = mkstemp(path);
    const char *text = "# comment\n\nport = 6000   # trailing\nlog_level='warning'\n"
                       "data_directory = '/tmp/it''s'\nhttp_port 4141\n";
    CHECK(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
    close(fd);
    conf_t *c = conf_new();
    sl_error_t e;
    CHECK(conf_load_file(c, path, &e) == 0);
    CHECK_INT(c->port, 6000);
    CHECK_INT(c->http_port, 4141);
    CHECK_STR(c->log_level, "warning");
    CHECK_STR(c->data_directory, "/tmp/it's");
    fd = open(path, O_WRONLY | O_TRUNC);
    CHECK(write(fd, "port = 1\nbogus = 'x\n", 20) == 20);
    close(fd);
    CHECK(conf_load_file(c, path, &e) < 0);
    CHECK(strstr(e.message, "line 2"));
    unlink(path);
    conf_free(c);
}

TEST(config_describe_lists_every_key)
{
    sl_buf_t b = SL_BUF_INIT;
    conf_describe(&b);
    const char *keys[] = {"listen_addresses", "port",           "http_listen_address",
                          "http_port",        "data_directory", "ssl",
                          "ssl_cert_file",    "ssl_key_file",   "authentication",
                          "password_file",    "http_token",     "worker_threads",
                          "max_connections",  "log_level"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        char needle[64];
        snprintf(needle, sizeof needle, "\n%s = ", keys[i]);
        CHECK(strstr(b.data, needle));
    }
    sl_buf_free(&b);
}
