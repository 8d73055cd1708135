/*
 * bench_common.c - the shared parts of the "ipxlab bench NAME" commands:
 * the parsers of the one option table (bench_common.h) and the option
 * helpers (cli.h), grouped figures, and the terminal side of the
 * two-agent network.
 */
#include "bench_common.h"

#include <getopt.h>
#include <stdbool.h>
#include <string.h>

#include "cli.h"
#include "ipxlab/bench_sys.h"
#include "ipxlab/err.h"

const char *bench_grouped(double v, char *buf, size_t len)
{
	char raw[32];
	size_t n, o = 0;

	snprintf(raw, sizeof(raw), "%.0f", v < 0 ? 0 : v);
	n = strlen(raw);
	for (size_t i = 0; i < n && o + 2 < len; i++) {
		if (i && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = raw[i];
	}
	buf[o] = '\0';
	return buf;
}

/* The message for a bad option of "ipxlab bench NAME" (getopt returned
 * ':' or '?'); always CLI_USAGE. */
int bench_bad_option(const char *name, int opt, char **argv)
{
	const char *arg = argv[optind - 1];
	bool dashes = !strncmp(arg, "--", 2);
	char cmd[32];

	/* getopt's words, as every command's (cli_bad_option) */
	snprintf(cmd, sizeof(cmd), "bench %s", name);
	if (opt == ':' && dashes)
		cli_error(cmd, "option '%s' requires an argument", arg);
	else if (opt == ':')
		cli_error(cmd, "option requires an argument -- '%c'", optopt);
	else if (optopt && dashes && strchr(arg, '='))
		cli_error(cmd, "option '%.*s' doesn't allow an argument",
			  (int)strcspn(arg, "="), arg);
	else if (optopt)
		cli_error(cmd, "invalid option -- '%c'", optopt);
	else
		cli_error(cmd, "unrecognized option '%s'", arg);
	fprintf(stderr, "usage: ipxlab bench %s [options] ('ipxlab bench %s "
			"--help')\n",
		name, name);
	return CLI_USAGE;
}

int bench_end_of_options(const char *name, int argc, char **argv, bool json,
			 bool csv)
{
	if (optind < argc) {
		cli_error("bench", "%s: unexpected argument '%s'", name,
			  argv[optind]);
		return CLI_USAGE;
	}
	return bench_output_check(json, csv);
}

int bench_output_check(bool json, bool csv)
{
	if (json && csv) {
		cli_error("bench", "--json and --csv exclude each other");
		return CLI_USAGE;
	}
	return CLI_OK;
}

int bench_seconds_opt(const char *arg, double max, double *out)
{
	return cli_parse_seconds("bench", "--seconds", arg, 0.1, max, out) < 0
		       ? -1
		       : 0;
}

int bench_repeat_opt(const char *arg, unsigned long max, unsigned long *out)
{
	return cli_parse_uint("bench", "--repeat", arg, 1, max, out) < 0 ? -1
									 : 0;
}

int bench_window_opt(int opt, const char *arg, double *seconds,
		     double *warmup, unsigned long *repeat,
		     unsigned long max_repeat)
{
	switch (opt) {
	case 's':
		return bench_seconds_opt(arg, 60, seconds) < 0 ? -1 : 1;
	case 'w':
		if (!warmup) {
			cli_error("bench", "this benchmark has no --warmup");
			return -1;
		}
		return cli_parse_seconds("bench", "--warmup", arg, 0, 10,
					 warmup) < 0 ? -1 : 1;
	case 'r':
		return bench_repeat_opt(arg, max_repeat, repeat) < 0 ? -1 : 1;
	default:
		return 0;
	}
}

int bench_common_opt(struct bench_common *c, int opt, const char *arg,
		     char **argv)
{
	int rc = bench_window_opt(opt, arg, c->seconds, c->warmup, c->repeat,
				  c->max_repeat);

	if (rc)
		return rc > 0 ? 1 : CLI_USAGE;
	switch (opt) {
	case BENCH_OPT_JSON:
		c->json = true;
		return 1;
	case BENCH_OPT_CSV:
		c->csv = true;
		return 1;
	case 'q':
		c->quiet = true;
		return 1;
	case 'v':
		c->verbose = true;
		return 1;
	case 'h':
		c->help(stdout);
		return -1;
	default:
		return bench_bad_option(c->name, opt, argv);
	}
}

int bench_common_end(const struct bench_common *c, int argc, char **argv)
{
	return bench_end_of_options(c->name, argc, argv, c->json, c->csv);
}

static void progress_line(void *ctx, const struct ipx_bpair *b,
			  const char *label)
{
	double left = b->planned - b->spent;

	(void)ctx;
	fprintf(stderr, "\r\033[K  bench %s: %s; about %.0f s of sending "
			"left",
		b->name, label, left > 0 ? left : 0);
	fflush(stderr);
}

void bench_pair_ui(struct ipx_bpair *b, bool progress)
{
	b->progress = progress ? progress_line : NULL;
	b->on_loop = cli_stop_on_signals;
}

bool bench_pair_cut(struct ipx_bpair *b, const char *name, int *rc,
		    unsigned long done, const char *unit)
{
	if (*rc == IPX_OK || !ipx_bpair_interrupted(b, *rc))
		return false;
	cli_error("bench", "%s: interrupted; printing the %lu %s%s that "
			   "finished",
		  name, done, unit, cli_s(done));
	*rc = IPX_OK;
	return true;
}

void bench_pair_progress_end(const struct ipx_bpair *b)
{
	if (b->progress)
		fprintf(stderr, "\r\033[K");
}

void bench_pair_conditions(const struct ipx_bpair *b, const char *placement,
			   FILE *out)
{
	const struct ipx_hctl_agent *s = &b->agents[0];
	const struct ipx_hctl_agent *r = &b->agents[1];
	char m[200];

	fprintf(out, "# ipxlab %s on %s, %d CPUs online, %d allowed\n",
		cli_version_text(), cli_machine_text(m, sizeof(m)),
		ipx_bench_cpus_online(), ipx_bench_cpus_allowed());
	if (b->eth)
		fprintf(out, "# Ethernet, no hub: agents '%s' (pid %u) on %s "
			     "and '%s' (pid %u) on %s, the controller on %s; "
			     "CPU placement: %s\n",
			s->name, s->pid, b->where[0], r->name, r->pid,
			b->where[1], b->where[2], placement);
	else
		fprintf(out, "# hub %s (started here, pid %d), today's link "
			     "(no profile); agents '%s' (pid %u) and '%s' (pid "
			     "%u); CPU placement: %s\n",
			b->hubtext, b->hub_pid, s->name,
			s->pid, r->name, r->pid, placement);
}

void bench_pair_json_conditions(struct ipx_jw *w, const struct ipx_bpair *b,
				const char *placement)
{
	char m[200];

	ipx_jw_obj(w, "conditions");
	ipx_jw_str(w, "version", cli_version_text());
	ipx_jw_str(w, "machine", cli_machine_text(m, sizeof(m)));
	ipx_jw_int(w, "cpus_online", ipx_bench_cpus_online());
	ipx_jw_int(w, "cpus_allowed", ipx_bench_cpus_allowed());
	ipx_jw_str(w, "link", b->eth ? "ethernet" : "udp hub");
	ipx_jw_null(w, "profile");
	ipx_jw_str(w, "hub", b->hubtext);
	ipx_jw_int(w, "hub_pid", b->hub_pid);
	if (b->eth)
		ipx_jw_str(w, "controller_on", b->where[2]);
	ipx_jw_str(w, "cpu_placement", placement);
	ipx_jw_arr(w, "agents");
	for (size_t i = 0; i < 2; i++) {
		const struct ipx_hctl_agent *g = &b->agents[i];

		ipx_jw_obj(w, NULL);
		ipx_jw_str(w, "role", i ? "receiver" : "sender");
		ipx_jw_str(w, "name", g->name);
		if (b->eth)
			ipx_jw_str(w, "on", b->where[i]);
		ipx_jw_u64(w, "pid", g->pid);
		ipx_jw_u64(w, "cpus", g->cpus);
		ipx_jw_end(w);
	}
	ipx_jw_end(w);
	ipx_jw_end(w);
}
