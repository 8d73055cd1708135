/*
 * bench_util.c - helpers the benchmark files share (see bench_util.h).
 */
#include "bench_util.h"

#include <stdarg.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/time.h>

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
