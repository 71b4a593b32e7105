/* fsync_floor: the cost of one durable file replacement on this machine —
 * write a small file to a temporary name, fsync it, rename it into place,
 * fsync the directory — the step sluice takes for every offsets/N,
 * commits/N, source log and sink manifest. A micro-batch's fixed cost
 * cannot go below (durable writes per batch) x this figure.
 * Usage: fsync_floor [DIR] [N]   (default /tmp, 50) */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "/tmp";
    int n = argc > 2 ? atoi(argv[2]) : 50;
    if (n < 1) n = 1;
    char tmp[4096], dst[4096];
    snprintf(tmp, sizeof tmp, "%s/.fsync_floor.tmp", dir);
    snprintf(dst, sizeof dst, "%s/fsync_floor", dir);
    double *ms = calloc((size_t)n, sizeof *ms);
    for (int i = 0; i < n; i++) {
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        int fd = open(tmp, O_CREAT | O_WRONLY | O_TRUNC, 0600);
        if (fd < 0 || write(fd, "v1\n{\"nextBatchWatermarkMs\":0}", 29) != 29 || fsync(fd) < 0) return 1;
        close(fd);
        if (rename(tmp, dst) < 0) return 1;
        int d = open(dir, O_RDONLY | O_DIRECTORY);
        if (d < 0 || fsync(d) < 0) return 1;
        close(d);
        clock_gettime(CLOCK_MONOTONIC, &b);
        ms[i] = (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6;
    }
    unlink(dst);
    qsort(ms, (size_t)n, sizeof *ms, cmp);
    printf("durable file replacement in %s: median %.2f ms, min %.2f ms, p90 %.2f ms (%d runs)\n", dir,
           ms[n / 2], ms[0], ms[n * 9 / 10], n);
    free(ms);
    return 0;
}
