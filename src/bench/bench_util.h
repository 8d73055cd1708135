/*
 * bench_util.h - small helpers every benchmark file shares (private to
 * src/bench): error messages into a caller's buffer, and the process's
 * CPU time.
 */
#ifndef IPXLAB_BENCH_UTIL_H
#define IPXLAB_BENCH_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* printf into err[errlen]; nothing when err is NULL or errlen 0. */
void ipx_bench_set_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* User and system CPU time this process has used, in ns (0 if unknown). */
void ipx_bench_cpu_ns(uint64_t *user, uint64_t *sys);

#endif
