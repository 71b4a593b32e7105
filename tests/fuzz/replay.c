/* Runs a fuzz target's LLVMFuzzerTestOneInput over files, without libFuzzer:
 * `make test` replays every corpus (tests/fuzz/corpus/<target>) through
 * its target, so an input that once crashed stays fixed and the targets
 * keep building. `make FUZZ=1 fuzz` links the same targets with libFuzzer
 * instead (tests/fuzz/README.md).
 * Usage: <target> FILE|DIR...   (a directory: every regular file in it) */
#include "tests/fuzz/fuzz.h"
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Feeds one file to the target; -1 when it cannot be read. */
static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    if (!buf) return -1;
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    return 0;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file of a directory, in name order; the count run, or -1. */
static int run_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return -1;
    char **names = NULL;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        names = realloc(names, sizeof *names * (n + 1));
        names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, compare_names);
    int count = 0;
    for (size_t i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        struct stat st;
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
            if (run_file(path) < 0) count = -1;
            else if (count >= 0) count++;
        }
        free(names[i]);
    }
    free(names);
    return count;
}

int main(int argc, char **argv)
{
    int total = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        int n = stat(argv[i], &st) < 0  ? -1
                : S_ISDIR(st.st_mode)   ? run_dir(argv[i])
                : run_file(argv[i]) < 0 ? -1
                                        : 1;
        if (n < 0) {
            fprintf(stderr, "%s: cannot read %s\n", argv[0], argv[i]);
            return 2;
        }
        total += n;
    }
    printf("%s: %d inputs, no failure\n", argv[0], total);
    return 0;
}
