/* pdb_stamp.c - the record of verified PDB files in their directory (pdb_stamp_internal.h).
 *
 * The record is a text file, one line per file:
 *   XXH3 BOOT DEV INO SIZE MTIME CTIME NAME
 * the payload checksum in 16 hex digits, the boot's id (the kernel's
 * random/boot_id, '-' when unknown), the identity in decimal (times as
 * seconds.nanoseconds), and the file's name within the directory. A lookup
 * formats the line the file would have and looks for it verbatim; nothing
 * is parsed, so a damaged record only costs a hash. */
#include "pdb_stamp_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "atomic_file_internal.h"

enum { STAMP_MAX_BYTES = NP__PDB_STAMP_MAX_BYTES };

/* The settling time in seconds: NPUZZLE_PDB_SETTLE when it is a whole
 * number, else NP__SETTLE_S. */
static int64_t settle_s(void)
{
    const char *v = getenv("NPUZZLE_PDB_SETTLE");
    if (v && *v) {
        char *end;
        errno = 0;
        long long n = strtoll(v, &end, 10);
        if (!*end && !errno && n >= 0)
            return (int64_t)n;
    }
    return NP__SETTLE_S;
}

void np__file_id_of(np__file_id *id, const struct stat *st)
{
    id->dev = (uint64_t)st->st_dev;
    id->ino = (uint64_t)st->st_ino;
    id->size = (uint64_t)st->st_size;
    id->mtime_s = (int64_t)st->st_mtim.tv_sec;
    id->mtime_ns = (int64_t)st->st_mtim.tv_nsec;
    id->ctime_s = (int64_t)st->st_ctim.tv_sec;
    id->ctime_ns = (int64_t)st->st_ctim.tv_nsec;
    struct timespec now;
    const int64_t settle = settle_s();
    /* a time in the future (a clock set back) counts as recent too */
    id->recent = clock_gettime(CLOCK_REALTIME, &now) != 0 ||
        (int64_t)now.tv_sec - id->ctime_s <= settle || (int64_t)now.tv_sec - id->mtime_s <= settle;
}

bool np__file_id_equal(const np__file_id *a, const np__file_id *b)
{
    return a->dev == b->dev && a->ino == b->ino && a->size == b->size && a->mtime_s == b->mtime_s &&
        a->mtime_ns == b->mtime_ns && a->ctime_s == b->ctime_s && a->ctime_ns == b->ctime_ns;
}

/* The record's path for `path` (same directory) into rec, and the file's
 * name into *base. @return false when it does not fit. */
static bool record_path(const char *path, char *rec, size_t reclen, const char **base)
{
    const char *slash = strrchr(path, '/');
    const int dirlen = slash ? (int)(slash - path + 1) : 0;
    *base = slash ? slash + 1 : path;
    int n = snprintf(rec, reclen, "%.*s%s", dirlen, path, NP__PDB_STAMP_NAME);
    return n > 0 && (size_t)n < reclen && **base && !strchr(*base, '\n');
}

/* This boot's id (the kernel's random/boot_id), "-" when unknown; read once
 * a process. */
static char boot_id_text[64] = "-";
static pthread_once_t boot_id_once = PTHREAD_ONCE_INIT;

static void read_boot_id(void)
{
    int fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    char id[64];
    ssize_t n = read(fd, id, sizeof id - 1);
    close(fd);
    if (n <= 0)
        return;
    id[n] = '\0';
    id[strcspn(id, " \n")] = '\0';
    if (*id)
        snprintf(boot_id_text, sizeof boot_id_text, "%s", id);
}

static const char *boot_id(void)
{
    (void)pthread_once(&boot_id_once, read_boot_id);
    return boot_id_text;
}

/* The record's line for a file, newline included. @return its length, or -1. */
static int format_line(char *line, size_t len, const char *base, const np__file_id *id,
                       uint64_t xxh3)
{
    int n = snprintf(line, len,
                     "%016" PRIx64 " %s %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRId64 ".%09" PRId64
                     " %" PRId64 ".%09" PRId64 " %s\n",
                     xxh3, boot_id(), id->dev, id->ino, id->size, id->mtime_s, id->mtime_ns,
                     id->ctime_s, id->ctime_ns, base);
    return n > 0 && (size_t)n < len ? n : -1;
}

/* The whole record, NUL-terminated (free it), or NULL when it is missing,
 * unreadable or too large. */
static char *read_record(const char *rec, size_t *len)
{
    /* a regular file only: not a FIFO (it would block), a device or a link */
    int fd = open(rec, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    char *buf = NULL;
    size_t n = 0;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size <= STAMP_MAX_BYTES)
        buf = malloc(STAMP_MAX_BYTES + 1);
    while (buf && n <= STAMP_MAX_BYTES) {
        ssize_t r = read(fd, buf + n, STAMP_MAX_BYTES + 1 - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            free(buf);
            buf = NULL;
        }
        if (r <= 0)
            break;
        n += (size_t)r;
    }
    close(fd);
    if (buf && n > STAMP_MAX_BYTES) {
        free(buf);
        buf = NULL;
    }
    if (buf) {
        buf[n] = '\0';
        *len = n;
    }
    return buf;
}

/* Whether line [s, e) (newline excluded) has the record's form: 16 hex
 * digits, then seven fields and the name (lines of an older form are dropped). */
static bool line_well_formed(const char *s, const char *e)
{
    if (e - s < 17 || s[16] != ' ')
        return false;
    for (int i = 0; i < 16; i++)
        if (!strchr("0123456789abcdef", s[i]))
            return false;
    int spaces = 0;
    for (const char *c = s; c < e; c++)
        spaces += *c == ' ';
    return spaces >= 7;
}

/* Whether line [s, e) (newline excluded) names the file `base`: its eighth
 * field, after seven spaces. */
static bool line_names(const char *s, const char *e, const char *base)
{
    int spaces = 0;
    while (s < e && spaces < 7)
        spaces += *s++ == ' ';
    return spaces == 7 && (size_t)(e - s) == strlen(base) && !memcmp(s, base, (size_t)(e - s));
}

bool np__pdb_stamp_match(const char *path, const np__file_id *id, uint64_t xxh3)
{
    char rec[PATH_MAX], line[PATH_MAX + 160];
    const char *base;
    if (id->recent || !record_path(path, rec, sizeof rec, &base))
        return false;
    int n = format_line(line, sizeof line, base, id, xxh3);
    size_t len = 0;
    char *text = n > 0 ? read_record(rec, &len) : NULL;
    if (!text)
        return false;
    bool found = false;
    for (const char *s = text; *s && !found;) {
        const char *e = strchr(s, '\n');
        if (!e)
            break; /* a last line without its newline is not a whole record line */
        found = (size_t)(e + 1 - s) == (size_t)n && !memcmp(s, line, (size_t)n);
        s = e + 1;
    }
    free(text);
    return found;
}

void np__pdb_stamp_add(const char *path, const np__file_id *id, uint64_t xxh3)
{
    const np__stamp one = {path, id, xxh3};
    np__pdb_stamp_add_many(&one, 1);
}

/* The record `rec` with the lines of files[i] for which take[i] (all of the
 * record's directory), and its other well-formed lines. */
static void rewrite_record(const char *rec, const np__stamp *files, const bool *take, int n)
{
    char line[PATH_MAX + 160], tmp[PATH_MAX + 64], err[16], other[PATH_MAX];
    size_t len = 0, add = 0;
    /* each taken file's name in the directory, found once, and the room its
     * new line takes */
    const char **base = calloc((size_t)n, sizeof *base);
    if (!base)
        return;
    for (int i = 0; i < n; i++) {
        if (!take[i] || !record_path(files[i].path, other, sizeof other, &base[i]))
            continue;
        int m = format_line(line, sizeof line, base[i], files[i].id, files[i].xxh3);
        if (m > 0)
            add += (size_t)m;
        else
            base[i] = NULL;
    }
    char *old = read_record(rec, &len);
    char *text = malloc(len + add + 200);
    if (!text) {
        free(old);
        free(base);
        return;
    }
    size_t out = (size_t)sprintf(text,
                                 "# npuzzle: PDB files whose payload checksum was verified, "
                                 "with the identity they had then (npuzzle-pdb(5))\n");
    /* keep the other files' lines; drop comments, lines of other forms, a
     * partial last line and the old lines of the files recorded now */
    const char *s = old ? old : "";
    for (const char *e; (e = strchr(s, '\n')) != NULL; s = e + 1) {
        const size_t l = (size_t)(e + 1 - s);
        bool named = false;
        for (int i = 0; i < n && !named; i++)
            named = base[i] && line_names(s, e, base[i]);
        if (line_well_formed(s, e) && !named && out + l + add < (size_t)STAMP_MAX_BYTES) {
            memcpy(text + out, s, l);
            out += l;
        }
    }
    free(old);
    for (int i = 0; i < n; i++) {
        int m = base[i] ? format_line(line, sizeof line, base[i], files[i].id, files[i].xxh3) : -1;
        if (m > 0) { /* as long as above: the same fields */
            memcpy(text + out, line, (size_t)m);
            out += (size_t)m;
        }
    }
    int fd = np__make_temp(rec, tmp, sizeof tmp, err, sizeof err);
    if (fd >= 0) {
        if (np__write_all(fd, text, out, 0) != 0)
            (void)np__abort_temp(fd, tmp, 0);
        else
            (void)np__commit_temp(fd, tmp, rec, err, sizeof err);
    }
    free(text);
    free(base);
}

void np__pdb_stamp_add_many(const np__stamp *files, int n)
{
    if (n <= 0)
        return;
    bool *done = calloc((size_t)n, sizeof *done), *take = calloc((size_t)n, sizeof *take);
    char rec[PATH_MAX], other[PATH_MAX];
    for (int i = 0; done && take && i < n; i++) {
        const char *base;
        if (done[i] || files[i].id->recent || !record_path(files[i].path, rec, sizeof rec, &base))
            continue;
        /* every file left whose record is this one (none of another group) */
        for (int k = 0; k < n; k++) {
            take[k] = !done[k] && !files[k].id->recent &&
                record_path(files[k].path, other, sizeof other, &base) && !strcmp(other, rec);
            done[k] = done[k] || take[k];
        }
        rewrite_record(rec, files, take, n);
    }
    free(done);
    free(take);
}
