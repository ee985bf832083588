/* sys.c - memory available and a monotonic clock. */
#include "npuzzle/sys.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "sys_internal.h"

/* The number on the line of `file` that starts with `key` (then spaces and
 * digits; a "kB" after it multiplies by 1024), or of its first line when
 * `key` is NULL ("max" there: UINT64_MAX). @return false when there is none. */
static bool read_number(const char *file, const char *key, uint64_t *out)
{
    FILE *f = fopen(file, "r");
    if (!f)
        return false;
    char line[512];
    bool found = false;
    const size_t klen = key ? strlen(key) : 0;
    while (!found && fgets(line, sizeof line, f)) {
        if (key && strncmp(line, key, klen) != 0)
            continue;
        const char *p = line + klen;
        while (*p == ' ' || *p == '\t')
            p++;
        unsigned long long v;
        char unit[8] = "";
        if (!key && strncmp(p, "max", 3) == 0) {
            *out = UINT64_MAX;
            found = true;
        } else if (sscanf(p, "%llu %7s", &v, unit) >= 1) {
            *out = (uint64_t)v * (strcmp(unit, "kB") == 0 ? 1024 : 1);
            found = true;
        }
        if (!key)
            break;
    }
    fclose(f);
    return found;
}

/* The headroom of the group in folder `dir` (v2 file names, else v1's), or
 * UINT64_MAX without a limit there. */
static uint64_t group_headroom(const char *dir, bool v2)
{
    char f[PATH_MAX + 32];
    uint64_t limit, usage, cache = 0;
    snprintf(f, sizeof f, "%s/%s", dir, v2 ? "memory.max" : "memory.limit_in_bytes");
    /* (v1 says "no limit" with a number near 2^63) */
    if (!read_number(f, NULL, &limit) || limit >= (UINT64_C(1) << 62))
        return UINT64_MAX;
    snprintf(f, sizeof f, "%s/%s", dir, v2 ? "memory.current" : "memory.usage_in_bytes");
    if (!read_number(f, NULL, &usage))
        return UINT64_MAX;
    snprintf(f, sizeof f, "%s/memory.stat", dir);
    if (!read_number(f, v2 ? "file " : "total_cache ", &cache))
        cache = 0;
    const uint64_t used = usage - (cache < usage ? cache : usage);
    return limit > used ? limit - used : 0;
}

uint64_t np__cgroup_headroom(const char *cgroup_file, const char *root)
{
    FILE *f = fopen(cgroup_file, "r");
    if (!f)
        return UINT64_MAX;
    uint64_t least = UINT64_MAX;
    char line[PATH_MAX + 64];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        /* ID:CONTROLLERS:PATH; v2's is 0::PATH, v1's names "memory" */
        char *c1 = strchr(line, ':');
        char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (!c2 || c2[1] != '/')
            continue;
        *c2 = 0;
        const char *controllers = c1 + 1, *path = c2 + 1;
        const bool v2 = *controllers == 0;
        bool v1 = false;
        for (const char *w = controllers; !v2 && *w;) {
            const size_t n = strcspn(w, ",");
            v1 |= n == 6 && strncmp(w, "memory", 6) == 0;
            w += n + (w[n] == ',');
        }
        if (!v1 && !v2)
            continue;
        /* v2 in `root` itself, or in root/unified beside the v1 folders */
        for (int where = 0; where < (v2 ? 2 : 1); where++) {
            char dir[PATH_MAX];
            const char *sub = v1 ? "/memory" : where ? "/unified" : "";
            if (snprintf(dir, sizeof dir, "%s%s%s", root, sub, path) >= (int)sizeof dir)
                break;
            /* the group and each one above it, up to the root's (no limit) */
            const size_t base = strlen(root) + strlen(sub);
            for (;;) {
                uint64_t h = group_headroom(dir, v2);
                if (h < least)
                    least = h;
                char *slash = strrchr(dir + base, '/');
                if (!slash)
                    break;
                *slash = 0;
            }
        }
    }
    fclose(f);
    return least;
}

uint64_t np__rlimit_headroom(const char *status)
{
    static const struct {
        int resource;
        const char *key;
    } limits[] = {{RLIMIT_AS, "VmSize:"}, {RLIMIT_DATA, "VmData:"}};
    uint64_t least = UINT64_MAX;
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
        struct rlimit rl;
        uint64_t in_use;
        if (getrlimit(limits[i].resource, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY ||
            !read_number(status, limits[i].key, &in_use))
            continue;
        const uint64_t lim = (uint64_t)rl.rlim_cur;
        const uint64_t h = lim > in_use ? lim - in_use : 0;
        if (h < least)
            least = h;
    }
    return least;
}

uint64_t np_mem_available(void)
{
    uint64_t avail;
    if (!read_number("/proc/meminfo", "MemAvailable:", &avail))
        return 0;
    const uint64_t cg = np__cgroup_headroom("/proc/self/cgroup", "/sys/fs/cgroup");
    const uint64_t rl = np__rlimit_headroom("/proc/self/status");
    if (cg < avail)
        avail = cg;
    if (rl < avail)
        avail = rl;
    return avail ? avail : 1; /* none left, which 0 ("unknown") would not say */
}

double np_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

char *np_format_bytes(char *buf, unsigned long buflen, uint64_t bytes)
{
    static const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = (double)bytes;
    int u = 0;
    while (v >= 1024 && u < 4) {
        v /= 1024;
        u++;
    }
    if (u == 0)
        snprintf(buf, buflen, "%llu B", (unsigned long long)bytes);
    else
        snprintf(buf, buflen, "%.2f %s", v, units[u]);
    return buf;
}
