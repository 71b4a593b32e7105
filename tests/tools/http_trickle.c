/* http_trickle: a slowloris client for the HTTP tests, bounded in time.
 *
 *   http_trickle [-b] PORT CONNECTIONS MAX_SECONDS INTERVAL_MS
 *
 * Opens CONNECTIONS connections to 127.0.0.1:PORT and sends on each the
 * start of a request that it never finishes: one more byte of a header
 * every INTERVAL_MS (with -b: complete headers announcing a 10 kB body (under
 * http_max_request_bytes), then one body byte every INTERVAL_MS). It watches each connection until
 * the server closes it, and stops when all are closed or after MAX_SECONDS. Prints one line:
 *
 *   opened=N closed=C first=F last=L
 *
 * F and L: seconds from a connection's opening to its closing, the
 * shortest and the longest among the closed ones (-1 when none closed). */
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_CONNS 256

typedef struct conn {
    int fd;          /* -1 once closed */
    double opened;   /* seconds on the monotonic clock */
    double lifetime; /* seconds until closed */
} conn_t;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int open_conn(int port, const char *head)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0) {
        perror("http_trickle: connect");
        exit(2);
    }
    if (send(fd, head, strlen(head), MSG_NOSIGNAL) < 0) {
        perror("http_trickle: send");
        exit(2);
    }
    return fd;
}

static void mark_closed(conn_t *c)
{
    close(c->fd);
    c->fd = -1;
    c->lifetime = now_s() - c->opened;
}

/* One byte more on every open connection; a failed send means closed. */
static void trickle(conn_t *c, int n)
{
    for (int i = 0; i < n; i++)
        if (c[i].fd >= 0 && send(c[i].fd, "a", 1, MSG_NOSIGNAL) < 0) mark_closed(&c[i]);
}

/* Waits up to ms for connections to close (EOF or error; an answer is read
 * and dropped). Returns how many are still open. */
static int watch(conn_t *c, int n, int ms)
{
    struct pollfd p[MAX_CONNS];
    int map[MAX_CONNS], k = 0;
    for (int i = 0; i < n; i++)
        if (c[i].fd >= 0) {
            p[k] = (struct pollfd){.fd = c[i].fd, .events = POLLIN};
            map[k++] = i;
        }
    if (k == 0) return 0;
    if (poll(p, (nfds_t)k, ms) < 0 && errno != EINTR) return k;
    int open = k;
    for (int j = 0; j < k; j++) {
        if (!(p[j].revents & (POLLIN | POLLHUP | POLLERR))) continue;
        char buf[4096];
        ssize_t r = recv(p[j].fd, buf, sizeof buf, 0);
        if (r <= 0) {
            mark_closed(&c[map[j]]);
            open--;
        }
    }
    return open;
}

int main(int argc, char **argv)
{
    int body = argc > 1 && !strcmp(argv[1], "-b");
    if (argc != 5 + body) {
        fprintf(stderr, "usage: http_trickle [-b] PORT CONNECTIONS MAX_SECONDS INTERVAL_MS\n");
        return 2;
    }
    int port = atoi(argv[1 + body]), n = atoi(argv[2 + body]);
    double max_s = atof(argv[3 + body]);
    int interval = atoi(argv[4 + body]);
    if (n < 1 || n > MAX_CONNS || interval < 1) return 2;
    char head[256];
    if (body)
        snprintf(head, sizeof head,
                 "POST /login HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
                 "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 10000\r\n\r\n",
                 port);
    else
        snprintf(head, sizeof head,
                 "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nX-Trickle: ", port);
    conn_t c[MAX_CONNS];
    for (int i = 0; i < n; i++) {
        c[i].opened = now_s();
        c[i].fd = open_conn(port, head);
    }
    double start = now_s();
    int open = n;
    while (open > 0 && now_s() - start < max_s) {
        trickle(c, n);
        double next = now_s() + interval / 1000.0;
        while (open > 0 && now_s() < next) open = watch(c, n, (int)((next - now_s()) * 1000) + 1);
    }
    int closed = 0;
    double first = -1, last = -1;
    for (int i = 0; i < n; i++) {
        if (c[i].fd >= 0) continue;
        closed++;
        if (first < 0 || c[i].lifetime < first) first = c[i].lifetime;
        if (c[i].lifetime > last) last = c[i].lifetime;
    }
    printf("opened=%d closed=%d first=%.1f last=%.1f\n", n, closed, first, last);
    return 0;
}
