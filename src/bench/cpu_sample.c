/*
 * cpu_sample.c - a process's CPU use over time (bench_cpu.h): its CPU-time
 * clock or /proc/PID/stat, read from a periodic loop timer.
 */
#include "ipxlab/bench_cpu.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ipxlab/err.h"

/* Fields 14 and 15 of /proc/PID/stat (utime, stime) in clock ticks; the
 * second field (the command) may hold spaces: parse after its ')'. */
static int stat_seconds(pid_t pid, double *out)
{
	char path[64], line[1024], *p;
	unsigned long long ut, st;
	long tick = sysconf(_SC_CLK_TCK);
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return IPX_EIO;
	n = fread(line, 1, sizeof(line) - 1, f);
	fclose(f);
	line[n] = '\0';
	p = strrchr(line, ')');
	/* after ')': state (3), then fields 4..13, then utime stime */
	if (!p || tick <= 0 ||
	    sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu "
			  "%llu",
		   &ut, &st) != 2)
		return IPX_EIO;
	*out = (double)(ut + st) / (double)tick;
	return IPX_OK;
}

int ipx_cpu_process_seconds(pid_t pid, double *out)
{
	clockid_t id;
	struct timespec ts;

	if (pid <= 0)
		return IPX_EINVAL;
	if (clock_getcpuclockid(pid, &id) == 0 &&
	    clock_gettime(id, &ts) == 0) {
		*out = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
		return IPX_OK;
	}
	return stat_seconds(pid, out);
}

int ipx_cpu_pid_source(void *ctx, double *out)
{
	return ipx_cpu_process_seconds(*(const pid_t *)ctx, out);
}

static void on_tick(struct ipx_loop *loop, struct ipx_timer *t, void *ctx)
{
	struct ipx_cpu_sampler *s = ctx;
	ipx_time now = ipx_loop_now(loop);
	double cpu, secs = (double)(now - s->last_at) / IPX_SEC;

	(void)t;
	if (s->source(s->ctx, &cpu) != IPX_OK) {
		s->failed = true;
		ipx_timer_stop(loop, &s->timer);
		return;
	}
	if (secs > 0) {
		double pct = 100.0 * (cpu - s->last_cpu) / secs;

		if (pct < 0)
			pct = 0;
		if (s->n < s->cap)
			s->pct[s->n++] = pct;
		else
			s->dropped++;
	}
	s->last_at = now;
	s->last_cpu = cpu;
}

int ipx_cpu_sampler_start(struct ipx_cpu_sampler *s, struct ipx_loop *loop,
			  ipx_time interval, ipx_cpu_source_fn source,
			  void *ctx, double *pct, size_t cap)
{
	int rc;

	memset(s, 0, sizeof(*s));
	s->loop = loop;
	s->source = source;
	s->ctx = ctx;
	s->interval = interval ? interval : IPX_CPU_INTERVAL;
	s->pct = pct;
	s->cap = cap;
	ipx_timer_init(&s->timer, on_tick, s);
	rc = source(ctx, &s->last_cpu);
	if (rc != IPX_OK) {
		s->failed = true;
		return rc;
	}
	s->last_at = ipx_loop_now(loop);
	return ipx_timer_start(loop, &s->timer, s->interval, s->interval);
}

void ipx_cpu_sampler_stop(struct ipx_cpu_sampler *s)
{
	if (s->loop && ipx_timer_active(&s->timer))
		ipx_timer_stop(s->loop, &s->timer);
}
