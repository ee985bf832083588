/* atomic_file.c - writing a file atomically: a temporary name beside it, written, fsync'ed and
 * renamed, or removed. */
#include "atomic_file_internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "npuzzle/error.h"
#include "error_internal.h"

/* A temporary file is stale when a writer died before its rename (SIGKILL, or
 * a signal no handler caught): its process is gone from this machine and the
 * file has not been written for STALE_SECONDS (a live writer on another
 * machine sharing the directory keeps writing it, or renames it soon). */
#define STALE_SECONDS ((time_t)15 * 60)

/* Remove the stale temporary files of `base` in `dir` (DIR/.BASE.tmp.PID.XXXXXX).
 * A hint: errors are ignored. */
static void remove_stale_temps(const char *dir, const char *base)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    char prefix[NAME_MAX + 8];
    int pl = snprintf(prefix, sizeof prefix, ".%s.tmp.", base);
    const time_t now = time(NULL);
    /* cppcheck-suppress readdirCalled ; a stream of our own: readdir is safe on it */
    for (struct dirent *e; pl > 0 && (size_t)pl < sizeof prefix && (e = readdir(d));) {
        if (strncmp(e->d_name, prefix, (size_t)pl) != 0)
            continue;
        char *end;
        long pid = strtol(e->d_name + pl, &end, 10);
        struct stat st;
        if (end == e->d_name + pl || *end != '.' || pid <= 0 ||
            fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode) ||
            now - st.st_mtime < STALE_SECONDS)
            continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue; /* its writer lives here, or this cannot tell */
        (void)unlinkat(dirfd(d), e->d_name, 0);
    }
    closedir(d);
}

/* A temporary name next to `path`: DIR/.BASE.tmp.PID.XXXXXX, created by
 * mkstemp; stale ones of earlier writers of `path` are removed first. */
int np__make_temp(const char *path, char *tmp, size_t tmplen, char *err, size_t errlen)
{
    const char *slash = strrchr(path, '/');
    int dirlen = slash ? (int)(slash - path + 1) : 0;
    const char *base = slash ? slash + 1 : path;
    char dir[PATH_MAX];
    if (snprintf(dir, sizeof dir, "%.*s", dirlen ? dirlen : 1, dirlen ? path : ".") <
        (int)sizeof dir)
        remove_stale_temps(dir, base);
    int n = snprintf(tmp, tmplen, "%.*s.%s.tmp.%ld.XXXXXX", dirlen, path, base, (long)getpid());
    if (n < 0 || (size_t)n >= tmplen)
        return np__fail(NP_EINVAL, err, errlen, "%s: path too long", path);
    int fd = mkstemp(tmp);
    if (fd < 0)
        return np__fail(NP_EIO, err, errlen, "%s: cannot create a temporary file: %s", path,
                        strerror(errno));
    (void)fchmod(fd, 0644);
    return fd;
}

int np__write_all(int fd, const void *buf, size_t len, uint64_t off)
{
    const uint8_t *p = buf;
    while (len) {
        ssize_t w = pwrite(fd, p, len, (off_t)off);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        p += w;
        len -= (size_t)w;
        off += (uint64_t)w;
    }
    return 0;
}

/* Evict a written (and synced) file's pages from the page cache. Written
 * pages are cached in small folios; read back through a huge-page mapping
 * (map_aligned, pdb_file.c) they come in as 2 MiB folios that every process
 * then maps with one TLB entry per 2 MiB: random lookups get about three times
 * faster on a virtual machine, and the pages stay shared. A hint: errors ignored. */
void np__drop_cached_pages(int fd)
{
    (void)posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
}

/* Make a finished temporary file permanent: fsync, close, rename, fsync the directory. */
int np__commit_temp(int fd, const char *tmp, const char *path, char *err, size_t errlen)
{
    if (fsync(fd) != 0) {
        int e = errno;
        close(fd);
        unlink(tmp);
        errno = e;
        return np__fail(NP_EIO, err, errlen, "%s: fsync failed: %s", path, strerror(e));
    }
    np__drop_cached_pages(fd);
    if (close(fd) != 0 || rename(tmp, path) != 0) {
        int e = errno;
        unlink(tmp);
        errno = e;
        return np__fail(NP_EIO, err, errlen, "%s: cannot rename the temporary file into place: %s",
                        path, strerror(e));
    }
    char dir[PATH_MAX];
    const char *slash = strrchr(path, '/');
    if (slash)
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path + 1), path);
    else
        snprintf(dir, sizeof dir, ".");
    int dfd = open(dir, O_RDONLY | O_DIRECTORY);
    if (dfd >= 0) {
        (void)fsync(dfd);
        close(dfd);
    }
    return NP_OK;
}

int np__abort_temp(int fd, const char *tmp, int code)
{
    int e = errno;
    if (fd >= 0)
        close(fd);
    unlink(tmp);
    errno = e;
    return code;
}
