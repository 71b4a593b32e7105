/* Creation of owner-only files (common/private_file.h). */
#include "common/private_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

int sl_private_file(const char *path)
{
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, SL_PRIVATE_FILE_MODE);
    if (fd < 0) return -1;
    int rc = fchmod(fd, SL_PRIVATE_FILE_MODE);
    close(fd);
    return rc;
}
