/*
 * cmd_bench_perform3.c - "ipxlab bench perform3": B7, throughput against
 * block size (PERFORM3-style, docs/benchmarks.md): a file server and 5
 * workstations started together, each reading (--write: writing) blocks
 * of one size from its own file, 16 sizes from 64,512 down to 3,072
 * bytes, in four configurations (one request at a time or packet burst,
 * the default or a tuned NCP buffer).
 *
 * This file parses the options, builds the network (fsbench.c), calls
 * ipx_b7_run (src/bench/b7_perform3.c) once and prints: the tables here,
 * the curve, JSON and CSV from the library's writers.
 */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fsbench.h"
#include "ipxlab/bench_b7.h"
#include "ipxlab/err.h"

#define CMD "bench"
#define DEFAULT_SECONDS 2.0
#define QUICK_SECONDS 0.5
#define CURVE_ROWS 16

enum { OPT_WRITE = FSB_OPT_FIRST, OPT_ONLY, OPT_QUICK, OPT_PERIOD };

void help_bench_perform3(FILE *out)
{
	fprintf(out,
		"usage: ipxlab bench perform3 [options]\n\n"
		"B7, throughput against block size (PERFORM3-style): every\n"
		"workstation (an agent: own process, IPX node and NCP connection)\n"
		"reads blocks of one size at offset 0 of its own file, all at\n"
		"once, for --seconds per size; 16 sizes from 64,512 down to 3,072\n"
		"bytes in 4,096-byte steps; kB/s (1000 bytes of data) per size per\n"
		"workstation and in total, the average and peak over the sizes\n"
		"beside the 1990 bulletin's best (988 and 1,077 KB/s), and the\n"
		"curve. Four configurations: request (one request at a time) or\n"
		"burst (NCP packet burst; 'burst not offered' when the server does\n"
		"not grant it), each with the default buffer (%u bytes asked) or\n"
		"the tuned one (%u asked: the most the link carries).\n\n"
		"  -s, --seconds S     per size and configuration (default %.0f)\n"
		"      --quick         %.1f s per size\n"
		"      --stations N    workstations at once (default %d; 1 to %d)\n"
		"      --write         write the blocks instead of reading them\n"
		"      --only LIST     these configurations, e.g.\n"
		"                      request/default,burst/tuned (default: all)\n"
		"      --period NAME|FILE  --sim (implied) on a period's machines:\n"
		"                      CPU, disk and cache, adapters in simulated\n"
		"                      time ('ipxlab period NAME' prints them);\n"
		"                      %s is the bulletin's best set-up\n"
		"                      (lantastic-8bit-1993: its 8-bit adapters, a\n"
		"                      prediction); then the same run on the wire\n"
		"                      alone (today) and the fidelity table: the\n"
		"                      bulletin's best average and peak beside\n"
		"                      ipxlab's best configuration, error, today\n"
		"  (--repeat is refused: each size is one run)\n"
		FSBENCH_HELP,
		IPX_B7_DEFAULT_BUFFER, IPX_B7_TUNED_BUFFER, DEFAULT_SECONDS,
		QUICK_SECONDS, IPX_B7_STATIONS, IPX_BN_MAX_STATIONS,
		IPX_B7_PERIOD);
}

struct p3 {
	struct fsbench b;
	unsigned n;
	double secs;
	bool write;
	bool only[IPX_B7_CONFIGS];
	struct ipx_b7_report rep;
	struct ipx_b7_report today;	/* --period: the wire alone */
};

static void print_config(const struct p3 *p, unsigned k)
{
	const struct ipx_b7_result *x = &p->rep.r[k];
	double avg, peak;
	uint32_t at;

	printf("\n%s: %s, buffer %u bytes asked", ipx_b7_config(k)->name,
	       ipx_b7_config(k)->burst ? "packet burst" : "one request at a time",
	       ipx_b7_config(k)->buffer);
	if (x->status != IPX_B7_MEASURED) {
		printf(": %s\n", ipx_b7_status_name(x->status));
		return;
	}
	printf(", %u granted\n%12s", x->granted, "block bytes");
	for (unsigned i = 0; i < p->n; i++)
		printf("  ws%-2u kB/s", i + 1);
	printf("  %11s\n", "total kB/s");
	for (unsigned s = 0; s < x->sizes_done; s++) {
		printf("%12u", ipx_b7_block(s));
		for (unsigned i = 0; i < p->n; i++)
			printf("  %9.1f", x->c[s][i].kB_per_s);
		printf("  %11.1f\n", ipx_b7_total(&p->rep, k, s));
	}
	ipx_b7_summary(&p->rep, k, &avg, &peak, &at);
	printf("%12s", "average");
	for (unsigned i = 0; i < p->n; i++)
		printf("  %9.1f", ipx_b7_station_average(&p->rep, k, i));
	printf("  %11.1f\n%12s  total %.1f kB/s at %u-byte blocks\n", avg,
	       "peak", peak, at);
}

static void print_summary(const struct p3 *p)
{
	printf("\n%-16s %18s %16s %11s\n", "configuration",
	       "average total kB/s", "peak total kB/s", "peak block");
	for (unsigned k = 0; k < IPX_B7_CONFIGS; k++) {
		double avg, peak;
		uint32_t at;

		if (!p->only[k])
			continue;
		if (p->rep.r[k].status != IPX_B7_MEASURED) {
			printf("%-16s %s\n", ipx_b7_config(k)->name,
			       ipx_b7_status_name(p->rep.r[k].status));
			continue;
		}
		ipx_b7_summary(&p->rep, k, &avg, &peak, &at);
		printf("%-16s %18.1f %16.1f %11u\n", ipx_b7_config(k)->name,
		       avg, peak, at);
	}
	printf("%-16s %18.0f %16.0f   (KB/s as the bulletin printed them;\n"
	       "%-16s the 10 Mbit/s ceiling, %.2f MB/s, it called not "
	       "reachable)\n",
	       "1990 best", IPX_B7_PUBLISHED_AVERAGE, IPX_B7_PUBLISHED_PEAK, "",
	       IPX_B7_CEILING_MB_PER_S);
}

static void print(const struct p3 *p)
{
	const struct fsbench *b = &p->b;

	if (b->csv) {
		ipx_b7_write_csv(stdout, &p->rep);
		return;
	}
	if (b->json) {
		ipx_b7_write_json(stdout, &p->rep, fsbench_jw_cond, &p->b);
		return;
	}
	printf("B7 throughput against block size: %u workstation%s %s file "
	       "server '%s', %.1f s per size%s\n",
	       p->n, p->n == 1 ? "" : "s", p->write ? "writing to" : "reading from",
	       b->n.srvname, p->secs, p->rep.interrupted ? " (interrupted)" : "");
	fsbench_print_conditions(b, stdout);
	for (unsigned k = 0; k < IPX_B7_CONFIGS; k++)
		if (p->only[k])
			print_config(p, k);
	print_summary(p);
	printf("\n");
	ipx_b7_write_curve(stdout, &p->rep, CURVE_ROWS);
	printf("kB = 1000 bytes of data %s (the user's view); total = the "
	       "workstations' sum.\n",
	       p->write ? "written" : "read");
	if (p->rep.have_fidelity)
		ipx_b7_write_fidelity(stdout, &p->rep, &p->today);
}

/* --period: the period's network stopped, the same run on the wire
 * alone, and the fidelity table. CLI_ code. */
static int run_today(struct p3 *p, const struct ipx_b7_opts *o, char *err,
		     size_t errlen)
{
	struct ipx_b7_opts to = *o;
	int rc;

	fsbench_stop(&p->b, true);	/* one simulated network at a time */
	rc = ipx_b7_run_today(&p->b.n.o, &to, fsbench_progress, &p->b,
			      &p->today, err, errlen);
	if (rc != IPX_OK) {	/* Ctrl-C among the causes */
		cli_error(CMD, "perform3: today's run (no period): %s; printing "
			       "the period's run without the fidelity table",
			  err);
		return CLI_FAIL;
	}
	ipx_b7_fidelity(&p->rep, &p->today, p->b.period.name,
			"the wire alone (--sim, no machines)");
	return CLI_OK;
}

static int run(void *ctx)
{
	struct p3 *p = ctx;
	struct ipx_b7_opts o = { .stations = p->n, .seconds = p->secs,
				 .write = p->write };
	char err[768];
	int rc;

	fsbench_net(&p->b, &o.net);
	memcpy(o.only, p->only, sizeof(o.only));
	rc = ipx_b7_run(&o, fsbench_progress, &p->b, &p->rep, err,
			sizeof(err));
	if (fsbench_interrupted(&p->b, rc)) {	/* SIGINT, SIGTERM */
		ipx_b7_interrupted(&p->rep);
		cli_error(CMD, "perform3: interrupted; printing the sizes "
			       "that finished");
	} else if (rc != IPX_OK) {
		cli_error(CMD, "perform3: %s", err);
		return CLI_FAIL;
	}
	rc = CLI_OK;
	if (p->b.have_period && !p->rep.interrupted)
		rc = run_today(p, &o, err, sizeof(err));
	print(p);
	return p->rep.interrupted ? CLI_FAIL : rc;
}

/* --only "request/default,burst/tuned": 0, or -1 with the message. */
static int parse_only(const char *arg, bool only[IPX_B7_CONFIGS])
{
	char buf[128], *save = NULL;

	if (strlen(arg) >= sizeof(buf)) {
		cli_error(CMD, "--only: too long");
		return -1;
	}
	strcpy(buf, arg);
	memset(only, 0, IPX_B7_CONFIGS * sizeof(only[0]));
	for (char *t = strtok_r(buf, ",", &save); t;
	     t = strtok_r(NULL, ",", &save)) {
		unsigned k = 0;

		while (k < IPX_B7_CONFIGS && strcmp(t, ipx_b7_config(k)->name))
			k++;
		if (k == IPX_B7_CONFIGS) {
			cli_error(CMD, "--only: unknown configuration '%s' "
				       "(request/default, request/tuned, "
				       "burst/default, burst/tuned)",
				  t);
			return -1;
		}
		only[k] = true;
	}
	return 0;
}

/* One of this command's own options: 0 taken, CLI_USAGE, or (help) -1. */
static int own_opt(struct p3 *p, int opt, bool *quick, bool *secs,
		   unsigned long *n)
{
	if (opt == 's') {
		*secs = true;
		return bench_seconds_opt(optarg, 3600, &p->secs) < 0
			       ? CLI_USAGE : 0;
	}
	if (opt == OPT_QUICK)
		*quick = true;
	else if (opt == OPT_WRITE)
		p->write = true;
	else if (opt == BENCH_OPT_STATIONS)
		return cli_parse_uint(CMD, "--stations", optarg, 1,
				      IPX_BN_MAX_STATIONS, n) < 0 ? CLI_USAGE
								  : 0;
	else if (opt == OPT_ONLY)
		return parse_only(optarg, p->only) < 0 ? CLI_USAGE : 0;
	else if (opt == OPT_PERIOD) {
		if (cli_period_opt(CMD, optarg, &p->b.period) < 0)
			return CLI_USAGE;
		p->b.have_period = true;
	}
	else if (opt == 'h')
		return -1;
	else
		return 1;
	return 0;
}

/* --period implies --sim on the period's wire (unless --profile). */
static int check_period(struct fsbench *b)
{
	if (b->hub || b->server) {
		cli_error(CMD, "--period runs the whole network in this process "
			       "in simulated time (--sim): not with --hub or "
			       "--server");
		return CLI_USAGE;
	}
	if (b->have_bridge) {
		cli_error(CMD, "--period: B7's set-up is one segment; not with "
			       "--bridge");
		return CLI_USAGE;
	}
	b->sim = true;
	if (!b->have_profile) {
		b->profile = b->period.wire;
		b->have_profile = true;
	}
	return CLI_OK;
}

static int check(struct p3 *p, int argc, char **argv, bool quick, bool secs)
{
	if (optind < argc) {
		cli_error(CMD, "perform3: unexpected argument '%s'", argv[optind]);
		return CLI_USAGE;
	}
	if (quick && secs) {
		cli_error(CMD, "--quick and --seconds exclude each other");
		return CLI_USAGE;
	}
	if (p->b.repeat > 1) {
		cli_error(CMD, "perform3: no --repeat (each size is one run; "
			       "give a longer --seconds)");
		return CLI_USAGE;
	}
	return p->b.have_period ? check_period(&p->b) : CLI_OK;
}

/* The options into p: -1 to go on, else the command's exit code. */
static int parse(struct p3 *p, int argc, char **argv)
{
	static const struct option longopts[] = {
		BENCH_SECONDS_LONGOPT,
		{ "quick", no_argument, NULL, OPT_QUICK },
		BENCH_STATIONS_LONGOPT,
		{ "write", no_argument, NULL, OPT_WRITE },
		{ "only", required_argument, NULL, OPT_ONLY },
		{ "period", required_argument, NULL, OPT_PERIOD },
		FSBENCH_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	unsigned long n = IPX_B7_STATIONS;
	bool quick = false, secs = false;
	int opt, rc = CLI_OK, code = CLI_OK;

	optind = 1;
	opterr = 0;
	while (rc == CLI_OK &&
	       (opt = getopt_long(argc, argv, ":s:qvh", longopts, NULL)) != -1) {
		int r = own_opt(p, opt, &quick, &secs, &n);

		if (r < 0) {
			help_bench_perform3(stdout);
			return CLI_OK;
		}
		if (r != 1) {
			rc = r;
			continue;
		}
		r = fsbench_opt(&p->b, opt, optarg, (unsigned)n, &code);
		if (r == 2)
			return code;
		if (r <= 0)
			rc = r < 0 ? CLI_USAGE
				   : bench_bad_option("perform3", opt, argv);
	}
	if (rc == CLI_OK)
		rc = check(p, argc, argv, quick, secs);
	if (quick)
		p->secs = QUICK_SECONDS;
	p->n = (unsigned)n;
	p->b.agents = p->n;
	return rc == CLI_OK ? -1 : rc;
}

int bench_perform3(int argc, char **argv)
{
	struct p3 *p = calloc(1, sizeof(*p));
	int rc;

	if (!p) {
		cli_error(CMD, "out of memory");
		return CLI_FAIL;
	}
	p->b.cmd = "perform3";
	p->b.wait = 10;
	p->secs = DEFAULT_SECONDS;
	for (unsigned k = 0; k < IPX_B7_CONFIGS; k++)
		p->only[k] = true;
	rc = parse(p, argc, argv);
	if (rc >= 0) {
		free(p);
		return rc;
	}
	rc = fsbench_main(&p->b, p->n, run, p);
	free(p);
	return rc;
}
