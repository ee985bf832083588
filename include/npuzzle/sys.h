/* sys.h - the few facts about the machine the library needs: memory, clock. */
#ifndef NPUZZLE_SYS_H
#define NPUZZLE_SYS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*! Bytes of memory available to new allocations: MemAvailable in
 *  /proc/meminfo, or less where the process's limits leave less (RLIMIT_AS
 *  and RLIMIT_DATA less what it maps; its control groups' memory limits, v1
 *  or v2, less what they use besides page cache), at least 1; 0 when
 *  MemAvailable cannot be read (not an np_error). Cannot fail. Thread-safe. */
uint64_t np_mem_available(void);

/*! A monotonic clock in seconds (arbitrary origin). Cannot fail. Thread-safe. */
double np_clock(void);

/*! Format a byte count as "1.23 GiB" (or "512 B" below 1 KiB) into the
 *  caller's buf, NUL-terminated and truncated to buflen (snprintf). Cannot
 *  fail. @return buf. */
char *np_format_bytes(char *buf, unsigned long buflen, uint64_t bytes);

#ifdef __cplusplus
}
#endif

#endif
