/* clients/cli_input.c — reading lines at the terminal with libedit: emacs
 * key bindings (~/.editrc applies), the prompt, a history kept in
 * ~/.sluice_history ($HISTFILE, $HISTSIZE / HISTCONTROL as in psql), and
 * Ctrl-C that abandons the line being typed. Our own character reader lets
 * SIGINT (installed without SA_RESTART) end the edit with EINTR instead of
 * a longjmp out of the library. Only used when the session is interactive,
 * so scripts never touch the history file. */
#include "clients/cli.h"

#include <errno.h>
#include <histedit.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <wchar.h>

typedef struct input {
    EditLine *el;       /* the line editor */
    History *hist;      /* its history */
    HistEvent ev;       /* scratch for history() calls */
    char *histfile;     /* where the history is loaded from and saved to, or NULL */
    const char *prompt; /* prompt for the callback, valid during cli_input_read */
    char *pending;      /* lines after the first of a recalled multi-line entry */
    size_t pending_pos; /* start of the next pending line */
} input_t;

static char *prompt_cb(EditLine *el)
{
    input_t *in = NULL;
    el_get(el, EL_CLIENTDATA, &in);
    return (char *)(in && in->prompt ? in->prompt : "");
}

/* Reads one (multibyte) character from the terminal. Returns 1, 0 at end of
 * input, -1 when Ctrl-C interrupted the read. */
static int getc_cb(EditLine *el, wchar_t *wc)
{
    mbstate_t st;
    memset(&st, 0, sizeof st);
    for (;;) {
        if (cli_winch_pending) {
            cli_winch_pending = 0;
            el_resize(el);
        }
        char c;
        ssize_t n = read(STDIN_FILENO, &c, 1);
        if (n == 0) return 0;
        if (n < 0) {
            if (errno == EINTR && !cli_cancel_pressed) continue;
            return -1;
        }
        size_t r = mbrtowc(wc, &c, 1, &st);
        if (r == (size_t)-2) continue;
        if (r == (size_t)-1) *wc = (wchar_t)(unsigned char)c;
        return 1;
    }
}

static char *history_path(const cli_t *cli)
{
    const char *env = getenv("HISTFILE");
    const char *var = cli_vars_get(&cli->vars, "HISTFILE");
    const char *home = getenv("HOME");
    if (var && *var) return sl_xstrdup(var);
    if (env && *env) return sl_xstrdup(env);
    if (!home || !*home) return NULL;
    sl_buf_t b = {0};
    sl_buf_printf(&b, "%s/.sluice_history", home);
    return b.data;
}

static int history_size(const cli_t *cli)
{
    const char *v = cli_vars_get(&cli->vars, "HISTSIZE");
    return v ? atoi(v) : 500;
}

void cli_input_init(cli_t *cli)
{
    if (!cli->interactive || cli->input) return;
    input_t *in = sl_xmalloc(sizeof *in);
    memset(in, 0, sizeof *in);
    in->el = el_init(cli->progname, stdin, stdout, stderr);
    in->hist = history_init();
    if (!in->el || !in->hist) {
        cli_log(CLI_LOG_WARNING, "could not start the line editor; reading plain lines");
        if (in->el) el_end(in->el);
        if (in->hist) history_end(in->hist);
        free(in);
        return;
    }
    history(in->hist, &in->ev, H_SETSIZE, history_size(cli));
    const char *control = cli_vars_get(&cli->vars, "HISTCONTROL");
    if (control && (!strcasecmp(control, "ignoredups") || !strcasecmp(control, "ignoreboth")))
        history(in->hist, &in->ev, H_SETUNIQUE, 1);
    el_set(in->el, EL_CLIENTDATA, in);
    el_set(in->el, EL_EDITOR, "emacs");
    el_set(in->el, EL_SIGNAL, 0);
    el_set(in->el, EL_PROMPT, prompt_cb);
    el_set(in->el, EL_HIST, history, in->hist);
    el_set(in->el, EL_GETCFN, getc_cb);
    el_source(in->el, NULL);
    in->histfile = history_path(cli);
    if (in->histfile) history(in->hist, &in->ev, H_LOAD, in->histfile);
    cli->input = in;
}

/* The next line of a recalled multi-line entry, or NULL. */
static char *take_pending(input_t *in)
{
    if (!in->pending) return NULL;
    char *start = in->pending + in->pending_pos;
    char *nl = strchr(start, '\n');
    size_t n = nl ? (size_t)(nl - start) : strlen(start);
    char *line = sl_xmalloc(n + 1);
    memcpy(line, start, n);
    line[n] = '\0';
    if (nl) {
        in->pending_pos += n + 1;
    } else {
        free(in->pending);
        in->pending = NULL;
    }
    return line;
}

/* Fallback without an editor: plain getline on stdin. */
static char *read_plain(const char *prompt)
{
    fputs(prompt, stdout);
    fflush(stdout);
    char *line = NULL;
    size_t cap = 0;
    ssize_t n = getline(&line, &cap, stdin);
    if (n < 0) {
        free(line);
        return NULL;
    }
    if (n > 0 && line[n - 1] == '\n') line[n - 1] = '\0';
    return line;
}

char *cli_input_read(cli_t *cli, const char *prompt)
{
    input_t *in = cli->input;
    if (!in) return read_plain(prompt);
    char *line = take_pending(in);
    if (line) return line;
    in->prompt = prompt;
    int count = 0;
    const char *text = el_gets(in->el, &count);
    in->prompt = NULL;
    if (!text || count <= 0) return NULL;
    in->pending = sl_xstrdup(text);
    size_t len = strlen(in->pending);
    if (len > 0 && in->pending[len - 1] == '\n') in->pending[len - 1] = '\0';
    in->pending_pos = 0;
    return take_pending(in);
}

void cli_input_add_history(cli_t *cli, const char *entry)
{
    input_t *in = cli->input;
    if (!in || !entry || !*entry) return;
    const char *control = cli_vars_get(&cli->vars, "HISTCONTROL");
    bool ignorespace =
        control && (!strcasecmp(control, "ignorespace") || !strcasecmp(control, "ignoreboth"));
    if (ignorespace && entry[0] == ' ') return;
    history(in->hist, &in->ev, H_ENTER, entry);
}

void cli_input_close(cli_t *cli)
{
    input_t *in = cli->input;
    if (!in) return;
    if (in->histfile) {
        history(in->hist, &in->ev, H_SETSIZE, history_size(cli));
        history(in->hist, &in->ev, H_SAVE, in->histfile);
    }
    el_end(in->el);
    history_end(in->hist);
    free(in->histfile);
    free(in->pending);
    free(in);
    cli->input = NULL;
}
