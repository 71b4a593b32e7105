/* Change notification for a watched directory (Linux inotify): a file
 * descriptor that becomes readable when a file is moved into, or closed
 * after writing in, the directory or one of its added subdirectories — so
 * that an idle file-stream query sleeps instead of listing the directory
 * over and over, and a busy one looks only at the files the events name
 * instead of listing a directory of thousands of files it has taken. */
#ifndef SL_DIR_WATCH_H
#define SL_DIR_WATCH_H

/* An inotify descriptor watching `dir`, or -1 when the system cannot watch
 * it (no inotify, the per-user limit of instances or watches reached) or
 * would miss changes (a network or FUSE file system, where other machines
 * write): the caller polls instead. */
int dir_watch_open(const char *dir);
/* Also watches `subdir` (an added watch stays until dir_watch_close);
 * 0, or -1 when it cannot be watched. */
int dir_watch_add(int fd, const char *subdir);
/* Consumes the pending events, so that the descriptor is readable again
 * only for changes after this call, calling fn(arg, name) for each file or
 * subdirectory of the watched directory that an event names (a name may
 * come more than once). Returns 1 when that is every change since the last
 * call, 0 when changes may be missing from it (the event queue overflowed,
 * an added subdirectory or the directory itself changed): then list. */
typedef void (*dir_watch_name_fn)(void *arg, const char *name);
int dir_watch_take(int fd, dir_watch_name_fn fn, void *arg);
void dir_watch_close(int fd);

#endif
