/* fsync_floor: the cost of one durable file replacement on this machine —
 * write a small file to a temporary name, fsync it, rename it into place,
 * fsync the directory — the step sluice takes for every offsets/N,
 * commits/N, source log and sink manifest. A micro-batch's fixed cost
 * cannot go below (durable writes per batch) x this figure. Where DIR is
 * on a block device, also the requests one replacement sends to it (from
 * /sys/dev/block/<dev>/stat): the unit bench/batch_overhead.sh counts a
 * batch in.
 * Usage: fsync_floor [DIR] [N]   (default /tmp, 50) */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Writes (flushes included, as the kernel counts them) and flushes
 * completed by the block device holding `dir`; 0 when there is none. */
static int device_requests(const char *dir, long *writes, long *flushes)
{
    struct stat st;
    char path[128];
    if (stat(dir, &st) < 0) return 0;
    snprintf(path, sizeof path, "/sys/dev/block/%u:%u/stat", major(st.st_dev), minor(st.st_dev));
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    long v[17] = {0};
    int n = 0;
    while (n < 17 && fscanf(f, "%ld", &v[n]) == 1) n++;
    fclose(f);
    if (n < 16) return 0; /* no flush counters before Linux 5.5 */
    *writes = v[4];
    *flushes = v[15];
    return 1;
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
    long w0 = 0, f0 = 0, w1 = 0, f1 = 0;
    int counted = device_requests(dir, &w0, &f0);
    for (int i = 0; i < n; i++) {
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        int fd = open(tmp, O_CREAT | O_WRONLY | O_TRUNC, 0600);
        if (fd < 0 || write(fd, "v1\n{\"nextBatchWatermarkMs\":0}", 29) != 29 || fsync(fd) < 0)
            return 1;
        close(fd);
        if (rename(tmp, dst) < 0) return 1;
        int d = open(dir, O_RDONLY | O_DIRECTORY);
        if (d < 0 || fsync(d) < 0) return 1;
        close(d);
        clock_gettime(CLOCK_MONOTONIC, &b);
        ms[i] = (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6;
    }
    counted = counted && device_requests(dir, &w1, &f1);
    unlink(dst);
    qsort(ms, (size_t)n, sizeof *ms, cmp);
    printf("durable file replacement in %s: median %.2f ms, min %.2f ms, p90 %.2f ms (%d runs)\n",
           dir, ms[n / 2], ms[0], ms[n * 9 / 10], n);
    if (counted)
        printf("device requests per replacement: %.1f writes, %.1f flushes\n",
               (double)(w1 - w0 - (f1 - f0)) / n, (double)(f1 - f0) / n);
    free(ms);
    return 0;
}
