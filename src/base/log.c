/*
 * log.c - leveled logging to stderr (see log.h).
 */
#include "ipxlab/log.h"

#include <stdarg.h>
#include <stdio.h>

static enum ipx_log_level threshold = IPX_LOG_INFO;

static const char *const names[] = { "error", "warning", "info", "debug" };

void ipx_log_set_level(enum ipx_log_level level)
{
	threshold = level;
}

enum ipx_log_level ipx_log_get_level(void)
{
	return threshold;
}

void ipx_log(enum ipx_log_level level, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	if (level > threshold)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	/* One fputs per line so lines from several processes do not interleave. */
	fprintf(stderr, "%s%s%s\n", level == IPX_LOG_INFO ? "" : names[level],
		level == IPX_LOG_INFO ? "" : ": ", line);
}
