/*
 * common.c - how every node-running command joins the network, plus the
 * argument parsing and printing helpers the commands share.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ipxlab/bench_ncp.h"
#include "ipxlab/err.h"
#include "ipxlab/machine.h"

void cli_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "ipxlab %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* The long option ARG ("--name" or "--name=value") names: exact, else
 * the only one it abbreviates; NULL if none; *ambiguous if several. */
static const struct option *long_named(const char *arg,
				       const struct option *longopts,
				       bool *ambiguous)
{
	const char *name = arg + 2;
	size_t len = strcspn(name, "=");
	const struct option *hit = NULL;
	int n = 0;

	*ambiguous = false;
	for (const struct option *o = longopts; o && o->name; o++) {
		if (strncmp(o->name, name, len))
			continue;
		if (strlen(o->name) == len)
			return o;
		hit = o;
		n++;
	}
	*ambiguous = n > 1;
	return n == 1 ? hit : NULL;
}

int cli_bad_option(const char *cmd, char **argv, const char *shortopts,
		   const struct option *longopts)
{
	/* The argument getopt stopped at: the last one it consumed, when it
	 * finished that one (a long option, or the last letter of "-xyz"). */
	const char *arg = optind > 0 ? argv[optind - 1] : NULL;
	bool ambiguous = false;
	const struct option *o = NULL;
	const char *s;

	if (arg && !strncmp(arg, "--", 2) && arg[2])
		o = long_named(arg, longopts, &ambiguous);
	if (!optopt && arg && !strncmp(arg, "--", 2)) {
		cli_error(cmd, ambiguous ? "option '%s' is ambiguous"
					 : "unrecognized option '%s'", arg);
	} else if (o && o->val == optopt) {
		if (strchr(arg, '='))
			cli_error(cmd, "option '--%s' doesn't allow an argument",
				  o->name);
		else
			cli_error(cmd, "option '--%s' requires an argument",
				  o->name);
	} else if (optopt > 0 && optopt < 128 && optopt != ':' &&
		   (s = strchr(shortopts, optopt)) && s[1] == ':') {
		cli_error(cmd, "option requires an argument -- '%c'", optopt);
	} else if (optopt > 0 && optopt < 128) {
		cli_error(cmd, "invalid option -- '%c'", optopt);
	} else {
		cli_error(cmd, "bad option '%s'", arg ? arg : "?");
	}
	cli_usage_line(stderr, cmd);
	return CLI_USAGE;
}

int cli_path_join(char *out, size_t len, const char *dir, const char *name)
{
	size_t n = strlen(dir);

	return snprintf(out, len, "%s%s%s", dir,
			n && dir[n - 1] != '/' ? "/" : "", name);
}

int cli_parse_uint(const char *cmd, const char *what, const char *text,
		   unsigned long min, unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(text, &end, 0);
	if (!*text || *end || errno || text[0] == '-' || v < min || v > max) {
		cli_error(cmd, "%s must be a whole number from %lu to %lu "
			       "(got '%s')",
			  what, min, max, text);
		return -1;
	}
	*out = v;
	return 0;
}

int cli_parse_socket(const char *cmd, const char *what, const char *text,
		     uint16_t *out)
{
	if (ipx_socket_parse(text, out) == IPX_OK && *out != 0)
		return 0;
	cli_error(cmd, "%s must be 1 to 4 hex digits, not 0 (got '%s')", what,
		  text);
	return -1;
}

int cli_profile_opt(const char *cmd, const char *option, const char *text,
		    struct ipx_profile *out)
{
	char err[600];

	if (ipx_profile_resolve(text, out, err, sizeof(err)) != IPX_OK) {
		if (option)
			cli_error(cmd, "%s: %s", option, err);
		else
			cli_error(cmd, "%s", err);
		return -1;
	}
	return 0;
}

int cli_period_opt(const char *cmd, const char *text, struct ipx_period *out)
{
	char err[1200];

	if (ipx_period_resolve(text, out, err, sizeof(err)) != IPX_OK) {
		cli_error(cmd, "--period: %s", err);
		return -1;
	}
	return 0;
}

int cli_parse_seconds(const char *cmd, const char *what, const char *text,
		      double min, double max, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(text, &end);
	if (!*text || *end || errno || !isfinite(v) || v < min || v > max) {
		cli_error(cmd, "%s must be a number of seconds from %g to %g "
			       "(got '%s')",
			  what, min, max, text);
		return -1;
	}
	*out = v;
	return 0;
}

void cli_print_escaped(FILE *out, const uint8_t *data, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		uint8_t c = data[i];

		if (c == '\\')
			fputs("\\\\", out);
		else if (c >= 0x20 && c < 0x7F)
			fputc(c, out);
		else
			fprintf(out, "\\x%02X", c);
	}
}

int cli_count_result(const char *cmd, unsigned long got, unsigned long want,
		     bool interrupted)
{
	if (!want || got >= want)
		return CLI_OK;
	cli_error(cmd, "%s after %lu of %lu datagram%s",
		  interrupted ? "interrupted" : "timed out", got, want,
		  want == 1 ? "" : "s");
	return CLI_FAIL;
}
