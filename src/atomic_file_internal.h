/* atomic_file_internal.h - writing a file atomically: a temporary name beside it, fsync, rename
 * (not public API). */
#ifndef NPUZZLE_ATOMIC_FILE_INTERNAL_H
#define NPUZZLE_ATOMIC_FILE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

/* Create DIR/.BASE.tmp.PID.XXXXXX next to `path` (mkstemp, mode 0644); its
 * name goes to tmp. @return the open descriptor, or NP_EINVAL (name too long)
 * or NP_EIO, message naming `path` in err. */
int np__make_temp(const char *path, char *tmp, size_t tmplen, char *err, size_t errlen);

/* pwrite all `len` bytes at `off`, retrying on EINTR. @return 0, or -1 with errno set. */
int np__write_all(int fd, const void *buf, size_t len, uint64_t off);

/* Make a finished temporary file permanent: fsync, drop its cached pages,
 * close, rename to `path`, fsync the directory. On failure the temporary file
 * is removed (errno kept). @return NP_OK or NP_EIO, message naming `path` in err. */
int np__commit_temp(int fd, const char *tmp, const char *path, char *err, size_t errlen);

/* Give up a temporary file: close fd (when >= 0), remove tmp, keep errno.
 * @return code, for `return np__abort_temp(fd, tmp, rc);`. */
int np__abort_temp(int fd, const char *tmp, int code);

/* Evict a written and synced file's pages from the page cache (a hint; see atomic_file.c). */
void np__drop_cached_pages(int fd);

#endif
