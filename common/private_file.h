/* Files only the daemon's user may read: the catalog, table storage and
 * checkpoints hold statement text and data, so they are created 0600 and
 * their directories 0700, whatever the process umask. */
#ifndef SL_PRIVATE_FILE_H
#define SL_PRIVATE_FILE_H

#define SL_PRIVATE_FILE_MODE 0600
#define SL_PRIVATE_DIR_MODE 0700

/* Creates path if missing and sets its mode to 0600 (an existing file is
 * tightened too). 0, or -1 with errno set. */
int sl_private_file(const char *path);

#endif
