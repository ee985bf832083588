/* test_sys.c - the memory np_mem_available reports: the limits of control groups (v1 and v2
 * trees written here, as the kernel shows them) and of setrlimit (in a child process), which a
 * build or a search must stay under, not only the machine's MemAvailable. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "npuzzle/sys.h"
#include "sys_internal.h"

static char root[256]; /* a fresh folder for each test's tree */

static int tree_setup(void **state)
{
    (void)state;
    snprintf(root, sizeof root, "%s/test_sys.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    return mkdtemp(root) ? 0 : -1;
}

static int tree_teardown(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    return system(cmd) == 0 ? 0 : -1;
}

/* Write `text` to root/rel, making its folders. */
static void put(const char *rel, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    for (char *p = path + strlen(root) + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            mkdir(path, 0755);
            *p = '/';
        }
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static uint64_t headroom(void)
{
    char cg[300];
    snprintf(cg, sizeof cg, "%s/cgroup", root);
    return np__cgroup_headroom(cg, root);
}

/* cgroup v2: the group's limit less its use, its page cache ("file") not counted */
static void test_cgroup_v2(void **state)
{
    (void)state;
    put("cgroup", "0::/a/b\n");
    put("a/b/memory.max", "1000000000\n");
    put("a/b/memory.current", "600000000\n");
    put("a/b/memory.stat", "anon 350000000\nfile 200000000\nkernel 50000000\n");
    put("a/memory.max", "max\n");
    put("a/memory.current", "900000000\n");
    assert_int_equal(headroom(), 1000000000 - (600000000 - 200000000));
    /* a group above with less room: its room */
    put("a/memory.max", "700000000\n");
    put("a/memory.current", "650000000\n");
    put("a/memory.stat", "file 0\n");
    assert_int_equal(headroom(), 50000000);
    /* used beyond the limit: none left */
    put("a/memory.current", "800000000\n");
    assert_int_equal(headroom(), 0);
}

/* cgroup v1's memory controller (beside others), and v1's "no limit" */
static void test_cgroup_v1(void **state)
{
    (void)state;
    put("cgroup", "5:cpu,cpuacct:/x\n4:memory:/x\n0::/\n");
    put("memory/x/memory.limit_in_bytes", "2000000\n");
    put("memory/x/memory.usage_in_bytes", "1500000\n");
    put("memory/x/memory.stat", "cache 400000\nrss 100000\ntotal_cache 500000\n");
    put("memory/memory.limit_in_bytes", "9223372036854771712\n");
    put("memory/memory.usage_in_bytes", "99999999999\n");
    assert_int_equal(headroom(), 2000000 - (1500000 - 500000));
    put("memory/x/memory.limit_in_bytes", "9223372036854771712\n");
    assert_int_equal(headroom(), UINT64_MAX);
}

/* v2 in the "unified" folder of a hybrid mount; no limit anywhere; no file at all */
static void test_cgroup_other_trees(void **state)
{
    (void)state;
    put("cgroup", "4:memory:/\n0::/u\n");
    put("unified/u/memory.max", "3000000\n");
    put("unified/u/memory.current", "1000000\n");
    assert_int_equal(headroom(), 2000000);
    put("unified/u/memory.max", "max\n");
    assert_int_equal(headroom(), UINT64_MAX);
    char none[300];
    snprintf(none, sizeof none, "%s/no-such-file", root);
    assert_int_equal(np__cgroup_headroom(none, root), UINT64_MAX);
}

/* setrlimit(RLIMIT_AS) in a child: np_mem_available says at most what is left under it */
static void test_rlimit(void **state)
{
    (void)state;
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        FILE *f = fopen("/proc/self/status", "r");
        char line[256];
        unsigned long long kb = 0;
        while (f && fgets(line, sizeof line, f))
            if (sscanf(line, "VmSize: %llu kB", &kb) == 1)
                break;
        if (f)
            fclose(f);
        if (kb == 0)
            _exit(77); /* no /proc/self/status: nothing to check */
        const uint64_t room = UINT64_C(256) << 20;
        struct rlimit rl = {.rlim_cur = (rlim_t)(kb * 1024 + room), .rlim_max = RLIM_INFINITY};
        if (setrlimit(RLIMIT_AS, &rl) != 0)
            _exit(3);
        const uint64_t h = np__rlimit_headroom("/proc/self/status");
        const uint64_t a = np_mem_available();
        /* VmSize grew a little since it was read (the reads' buffers) */
        _exit(h <= room && h > room / 2 && a <= h ? 0 : 1);
    }
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st));
    if (WEXITSTATUS(st) == 77)
        skip();
    assert_int_equal(WEXITSTATUS(st), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_cgroup_v2, tree_setup, tree_teardown),
        cmocka_unit_test_setup_teardown(test_cgroup_v1, tree_setup, tree_teardown),
        cmocka_unit_test_setup_teardown(test_cgroup_other_trees, tree_setup, tree_teardown),
        cmocka_unit_test(test_rlimit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
