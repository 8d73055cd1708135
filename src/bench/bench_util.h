/*
 * bench_util.h - small helpers every benchmark file shares (private to
 * src/bench): error messages into a caller's buffer, the process's CPU
 * time, a monotonic clock, and the care of forked child processes.
 */
#ifndef IPXLAB_BENCH_UTIL_H
#define IPXLAB_BENCH_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* printf into err[errlen]; nothing when err is NULL or errlen 0. */
void ipx_bench_set_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* User and system CPU time this process has used, in ns (0 if unknown). */
void ipx_bench_cpu_ns(uint64_t *user, uint64_t *sys);

/* CLOCK_MONOTONIC in ns; sleep ms (through signals). */
uint64_t ipx_bench_now_ns(void);
void ipx_bench_sleep_ms(unsigned ms);
/* Wait up to ms for fd to be readable: 1 readable, 0 timed out, -1 a
 * SIGINT or SIGTERM is pending (blocked for the loop's signalfd, so it
 * stays pending for the loop to read): a child's start-up report is
 * waited for in 20 ms slices, so Ctrl-C ends the wait at once. */
int ipx_bench_wait_readable(int fd, int ms);
/* close(*fd) if it is open, and mark it closed (-1). */
void ipx_bench_close_fd(int *fd);

/* A forked child and the parent's end of its control socket. */
struct ipx_bench_child {
	bool present;
	pid_t pid;
	int fd;
};
/* Wait up to ms for the child to exit, SIGKILL it after that; closes the
 * control socket. Its wait status goes to *status (if not NULL). */
void ipx_bench_reap(struct ipx_bench_child *p, unsigned ms, int *status);

#endif
