/* Directory change notification with inotify (see dir_watch.h). */
#include "connectors/dir_watch.h"

#include <errno.h>
#include <linux/magic.h>
#include <sys/inotify.h>
#include <sys/vfs.h>
#include <unistd.h>

/* Files appear in a stream's directory by rename (the documented way) or by
 * a writer closing them; a subdirectory appearing (a file sink's manifest
 * directory) matters too. */
#define WATCH_EVENTS (IN_MOVED_TO | IN_CLOSE_WRITE | IN_CREATE)

/* File systems whose changes made by other machines inotify does not see. */
static int remote_fs(const char *dir)
{
    static const unsigned long remote[] = {NFS_SUPER_MAGIC,  SMB_SUPER_MAGIC,  CIFS_SUPER_MAGIC,
                                           SMB2_SUPER_MAGIC, FUSE_SUPER_MAGIC, V9FS_MAGIC,
                                           CEPH_SUPER_MAGIC, AFS_SUPER_MAGIC,  CODA_SUPER_MAGIC};
    struct statfs st;
    if (statfs(dir, &st) < 0) return 1; /* unknown: poll */
    for (size_t i = 0; i < sizeof remote / sizeof remote[0]; i++)
        if ((unsigned long)st.f_type == remote[i]) return 1;
    return 0;
}

int dir_watch_open(const char *dir)
{
    if (remote_fs(dir)) return -1;
    int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (fd < 0) return -1;
    if (inotify_add_watch(fd, dir, WATCH_EVENTS) < 0) {
        close(fd);
        return -1;
    }
    return fd;
}

int dir_watch_add(int fd, const char *subdir)
{
    return inotify_add_watch(fd, subdir, WATCH_EVENTS) < 0 ? -1 : 0;
}

int dir_watch_take(int fd, dir_watch_name_fn fn, void *arg)
{
    char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
    int complete = 1;
    for (;;) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return complete; /* EAGAIN: nothing more pending */
        for (char *p = buf; p < buf + n;) {
            const struct inotify_event *e = (const struct inotify_event *)p;
            /* the first watch of a descriptor is number 1: the directory itself */
            if (e->wd != 1 || (e->mask & IN_Q_OVERFLOW) || !e->len) complete = 0;
            else fn(arg, e->name);
            p += sizeof *e + e->len;
        }
    }
}

void dir_watch_close(int fd)
{
    if (fd >= 0) close(fd);
}
