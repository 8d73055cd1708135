/*
 * bench_util.c - helpers the benchmark files share (see bench_util.h).
 */
#include "bench_util.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

void ipx_bench_set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000ull +
	       (uint64_t)tv->tv_usec * 1000ull;
}

void ipx_bench_cpu_ns(uint64_t *user, uint64_t *sys)
{
	struct rusage ru;

	*user = *sys = 0;
	if (getrusage(RUSAGE_SELF, &ru) == 0) {
		*user = tv_ns(&ru.ru_utime);
		*sys = tv_ns(&ru.ru_stime);
	}
}

uint64_t ipx_bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void ipx_bench_sleep_ms(unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static bool stop_pending(void)
{
	sigset_t set;

	return sigpending(&set) == 0 &&
	       (sigismember(&set, SIGINT) == 1 ||
		sigismember(&set, SIGTERM) == 1);
}

int ipx_bench_wait_readable(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	uint64_t end = ipx_bench_now_ns() + (uint64_t)(ms > 0 ? ms : 0) * 1000000u;

	for (;;) {
		uint64_t now = ipx_bench_now_ns();
		int slice = now >= end ? 0
			    : (int)((end - now) / 1000000u) < 20
				    ? (int)((end - now) / 1000000u) + 1
				    : 20;
		int r = poll(&p, 1, slice);

		if (r > 0)
			return 1;
		if (stop_pending())
			return -1;
		if (r == 0 && ipx_bench_now_ns() >= end)
			return 0;
	}
}

void ipx_bench_close_fd(int *fd)
{
	if (*fd >= 0) {
		close(*fd);
		*fd = -1;
	}
}

void ipx_bench_reap(struct ipx_bench_child *p, unsigned ms, int *status)
{
	uint64_t end = ipx_bench_now_ns() + (uint64_t)ms * 1000000ull;
	int st = 0;

	if (!p->present)
		return;
	for (;;) {
		pid_t w = waitpid(p->pid, &st, WNOHANG);

		if (w == p->pid || (w < 0 && errno != EINTR))
			break;
		if (ipx_bench_now_ns() >= end) {
			kill(p->pid, SIGKILL);
			while (waitpid(p->pid, &st, 0) < 0 && errno == EINTR)
				;
			break;
		}
		ipx_bench_sleep_ms(2);
	}
	ipx_bench_close_fd(&p->fd);
	p->present = false;
	if (status)
		*status = st;
}
