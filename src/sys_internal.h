/* sys_internal.h - the parts of np_mem_available that read the machine's files, with their
 * places as arguments so that the tests can hand them a tree of their own. */
#ifndef NPUZZLE_SYS_INTERNAL_H
#define NPUZZLE_SYS_INTERNAL_H

#include <stdint.h>

/* The memory the process may still take under its control groups' limits:
 * `cgroup_file` lists its groups (/proc/self/cgroup), `root` is where their
 * file systems are mounted (/sys/fs/cgroup: cgroup v2 there or in its
 * "unified" folder, the v1 memory controller in its "memory" folder). For its
 * group and each one above it with a limit: the limit less what the group
 * uses, its page cache not counted (the kernel gives that back before it
 * refuses memory, as MemAvailable counts it); the least of those.
 * UINT64_MAX when no group has a limit or none can be read. */
uint64_t np__cgroup_headroom(const char *cgroup_file, const char *root);

/* The memory the process may still map under its limits on address space and
 * data (RLIMIT_AS less VmSize, RLIMIT_DATA less VmData, from `status`:
 * /proc/self/status); UINT64_MAX when neither is set. */
uint64_t np__rlimit_headroom(const char *status);

#endif
