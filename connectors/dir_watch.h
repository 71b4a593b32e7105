/* Change notification for a watched directory (Linux inotify): a file
 * descriptor that becomes readable when a file is moved into, or closed
 * after writing in, the directory or one of its added subdirectories — so
 * that an idle file-stream query sleeps instead of listing the directory
 * over and over. Everything else stays the directory listing's job: an
 * event only says "look again". */
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
/* Reads and discards the pending events, so that the descriptor is
 * readable again only for changes after this call; 1 when there were any
 * (an overflow of the event queue counts), else 0. */
int dir_watch_drain(int fd);
void dir_watch_close(int fd);

#endif
