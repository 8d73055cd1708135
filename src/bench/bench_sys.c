/*
 * bench_sys.c - the machine's load and another process's CPU use, for
 * the conditions a benchmark records (ipxlab/bench_sys.h).
 */
#include "ipxlab/bench.h"
#include "ipxlab/bench_sys.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_util.h"

unsigned ipx_bench_default_window(size_t payload)
{
	return payload + 30 <= 512 ? 1024 : 512;
}

int ipx_bench_cpus_online(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (int)n : 1;
}

int ipx_bench_cpus_allowed(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return ipx_bench_cpus_online();
	return CPU_COUNT(&set);
}

void ipx_sys_mark(struct ipx_sys_mark *m)
{
	unsigned long long v[10] = { 0 };
	FILE *f = fopen("/proc/stat", "r");
	int n;

	memset(m, 0, sizeof(*m));
	m->t_ns = ipx_bench_now_ns();
	if (!f)
		return;
	n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
		   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7],
		   &v[8], &v[9]);
	fclose(f);
	if (n < 8)
		return;
	/* user nice system idle iowait irq softirq steal (guest is in
	 * user already) */
	m->busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
	m->steal = v[7];
	m->ok = true;
}

bool ipx_sys_busy(const struct ipx_sys_mark *a, const struct ipx_sys_mark *b,
		  double *busy, double *steal)
{
	long hz = sysconf(_SC_CLK_TCK);
	double wall;

	*busy = *steal = 0;
	if (!a->ok || !b->ok || b->t_ns <= a->t_ns || hz <= 0 ||
	    b->busy < a->busy || b->steal < a->steal)
		return false;
	wall = (double)(b->t_ns - a->t_ns) / 1e9;
	*busy = (double)(b->busy - a->busy) / (double)hz / wall;
	*steal = (double)(b->steal - a->steal) / (double)hz / wall;
	return true;
}

bool ipx_sys_proc_cpu(pid_t pid, double *user, double *sys, int *cpu)
{
	char path[64], buf[1024], *p, *save = NULL;
	unsigned long long ut = 0, st = 0;
	long hz = sysconf(_SC_CLK_TCK);
	int field = 3, last = -1;
	size_t n;
	FILE *f;

	*user = *sys = 0;
	*cpu = -1;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* fields after the command (which may hold spaces), from field 3 */
	p = strrchr(buf, ')');
	if (!p || hz <= 0)
		return false;
	for (p = strtok_r(p + 1, " ", &save); p;
	     p = strtok_r(NULL, " ", &save), field++) {
		if (field == 14)
			ut = strtoull(p, NULL, 10);
		else if (field == 15)
			st = strtoull(p, NULL, 10);
		else if (field == 39)
			last = atoi(p);
	}
	if (field <= 39)
		return false;
	*user = (double)ut / (double)hz;
	*sys = (double)st / (double)hz;
	*cpu = last;
	return true;
}
