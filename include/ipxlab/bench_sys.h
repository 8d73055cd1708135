/*
 * bench_sys.h - what a benchmark records of the machine it runs on: the
 * CPUs online and allowed, how busy the whole machine was between two
 * marks (/proc/stat), and the CPU time and placement of another process
 * (/proc/PID/stat), e.g. the hub a benchmark started.
 */
#ifndef IPXLAB_BENCH_SYS_H
#define IPXLAB_BENCH_SYS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* CPUs this process may run on (its affinity mask), and online CPUs. */
int ipx_bench_cpus_allowed(void);
int ipx_bench_cpus_online(void);

/* The machine's CPU time so far: busy (not idle or iowait) and stolen. */
struct ipx_sys_mark {
	bool ok;		/* /proc/stat could be read */
	uint64_t t_ns;		/* CLOCK_MONOTONIC */
	uint64_t busy, steal;	/* clock ticks */
};

void ipx_sys_mark(struct ipx_sys_mark *m);
/* CPUs busy (and stolen) on average from a to b; false (both 0) when
 * either mark is unknown or no time passed. */
bool ipx_sys_busy(const struct ipx_sys_mark *a, const struct ipx_sys_mark *b,
		  double *busy, double *steal);

/* Seconds of CPU process pid has used (user, system), and the CPU it
 * last ran on; false when it cannot be read (gone, or no /proc). */
bool ipx_sys_proc_cpu(pid_t pid, double *user, double *sys, int *cpu);

#ifdef __cplusplus
}
#endif

#endif
