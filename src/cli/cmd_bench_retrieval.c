/*
 * cmd_bench_retrieval.c - "ipxlab bench retrieval": B8, the retrieval
 * test bench (imaging, docs/benchmarks.md): 18 workstations each
 * retrieve 200 distinct images from the file server, in four
 * configurations (one request at a time or packet burst, times batched
 * system calls or one frame per system call on the workstations' links);
 * total time, initial lag, the workstations' spread and the server's CPU
 * over time, ranked beside the 1990 note's ranking.
 *
 * This file parses the options, builds the network (fsbench.c), calls
 * ipx_b8_run (src/bench/b8_retrieval.c) once and prints: the tables here,
 * JSON and CSV from the library's writers.
 */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "fsbench.h"
#include "ipxlab/bench_b8.h"
#include "ipxlab/bench_cpu.h"
#include "ipxlab/err.h"

#define CMD "bench"
#define SERIES_COLUMNS 60

enum { OPT_FILES = FSB_OPT_FIRST, OPT_ONLY, OPT_PERIOD };

void help_bench_retrieval(FILE *out)
{
	fprintf(out,
		"usage: ipxlab bench retrieval [options]\n\n"
		"B8, the retrieval test bench (imaging): every workstation (an\n"
		"agent: own process, IPX node and NCP connection) retrieves\n"
		"--files images from the file server one after another, in an\n"
		"order of its own, never one twice, no cache (open, read all,\n"
		"close); the total time, the initial lag (start to the first\n"
		"retrieval's end), the workstations' completion times (min,\n"
		"median, max), and the server's CPU every 100 ms (its own user +\n"
		"system time; with --sim %.0f us per NCP request), its baseline\n"
		"(median) and peak. Four configurations, the note's four client\n"
		"set-ups: the client request (one request at a time, the 16-bit\n"
		"shell) or burst (packet burst, the 32-bit client; 'burst not\n"
		"offered' when the server does not grant it) x the driver\n"
		"batched (sendmmsg/recvmmsg batches, 32-bit) or single (one\n"
		"frame per system call, 16-bit); ranked by total time beside the\n"
		"note's ranking (32/32, 32/16, 16/16, 16/32).\n\n"
		"      --stations N    workstations (default %d; 1 to %d)\n"
		"      --files N       images per workstation (default %d; 1 to\n"
		"                      %d)\n"
		"      --only LIST     these configurations, e.g.\n"
		"                      request/single,burst/batched (default: all)\n"
		"      --period NAME|FILE  in simulated time (implies --sim) on\n"
		"                      the period's machines (%s or a\n"
		"                      period file; 'ipxlab period NAME' shows\n"
		"                      one): each configuration on the period\n"
		"                      NAME-C-D of its client/driver bits when\n"
		"                      there is one (imaging-16-32), else on NAME;\n"
		"                      the server's CPU is its machine's; then\n"
		"                      the fidelity table (the note's figures |\n"
		"                      ipxlab as 1990 | error | the same run on\n"
		"                      the wire alone) and the ranking against\n"
		"                      the note's; not with --hub, --server,\n"
		"                      --agents or --bridge\n"
		"  (--repeat is refused: each configuration is one run)\n"
		FSBENCH_HELP,
		IPX_B8_SIM_REQUEST_US, IPX_B8_STATIONS, IPX_BN_MAX_STATIONS,
		IPX_BN_IMAGES, IPX_BN_IMAGES, ipx_period_names());
}

struct b8 {
	struct fsbench b;
	unsigned n, files;
	bool only[IPX_B8_CONFIGS];
	struct ipx_b8_report rep;
	/* --period */
	const char *period_spec;
	struct ipx_period period;
	struct ipx_b8_period_report *pr;
};

static void print_summary(const struct b8 *p)
{
	printf("\n%-16s %-5s %8s %8s %8s %8s %8s %10s %9s %9s %4s\n",
	       "configuration", "note", "total s", "lag s", "min s",
	       "median s", "max s", "images", "CPU base", "CPU peak", "rank");
	printf("%-16s %-5s %8s %8s %8s %8s %8s %10s %9s %9s\n", "", "", "", "",
	       "", "", "", "kB/s", "%", "%");
	for (unsigned k = 0; k < IPX_B8_CONFIGS; k++) {
		const struct ipx_b8_result *x = &p->rep.r[k];
		const struct ipx_b8_config *c = ipx_b8_config(k);

		if (!p->only[k] || x->status == IPX_B8_NOT_RUN)
			continue;
		if (x->status != IPX_B8_MEASURED) {
			printf("%-16s %-5s %s\n", c->name, c->note,
			       ipx_b8_status_name(x->status));
			continue;
		}
		printf("%-16s %-5s %8.2f %8.3f %8.2f %8.2f %8.2f %10.1f ",
		       c->name, c->note, x->total_s, x->lag_s, x->min_s,
		       x->median_s, x->max_s,
		       (double)x->image_bytes / 1000.0 / x->total_s);
		if (x->cpu_measured)
			printf("%9.1f %9.1f", x->cpu_base, x->cpu_peak);
		else
			printf("%9s %9s", "-", "-");
		printf(" %4u\n", ipx_b8_place(&p->rep, k));
	}
}

static void print_ranking(const struct b8 *p)
{
	unsigned order[IPX_B8_CONFIGS], n = ipx_b8_rank(&p->rep, order);

	printf("\nranking (total time; equal: the lower CPU baseline):");
	for (unsigned i = 0; i < n; i++)
		printf("%s %u %s (%s)", i ? "," : "", i + 1,
		       ipx_b8_config(order[i])->name,
		       ipx_b8_config(order[i])->note);
	printf("%s\n", n ? "" : " none measured");
	printf("the 1990 note's ranking (client/driver bits): 1 32/32, "
	       "2 32/16, 3 16/16, 4 16/32;\n"
	       "  its server CPU baseline about %.0f %% straight (16/16, "
	       "32/32), about %.0f %% hybrids\n",
	       IPX_B8_PUBLISHED_STRAIGHT_PCT, IPX_B8_PUBLISHED_HYBRID_PCT);
}

/* Each column the mean of a run of samples, 0-9 tens of percent, '*'
 * 100 % or more (of one CPU). */
static void print_series(const struct ipx_b8_result *x, const char *name)
{
	size_t per = (x->ncpu + SERIES_COLUMNS - 1) / SERIES_COLUMNS;

	printf("%-16s |", name);
	for (size_t j = 0; j < x->ncpu; j += per) {
		double sum = 0;
		size_t m = 0;

		for (; m < per && j + m < x->ncpu; m++)
			sum += x->cpu[j + m];
		sum /= (double)m;
		putchar(sum >= 100 ? '*' : '0' + (int)(sum / 10));
	}
	printf("| %.1f s, %zu sample%s per column\n",
	       (double)x->ncpu * IPX_CPU_INTERVAL / IPX_SEC, per,
	       per == 1 ? "" : "s");
}

static void print_workstations(const struct b8 *p)
{
	printf("\n%-4s", "ws");
	for (unsigned k = 0; k < IPX_B8_CONFIGS; k++)
		if (p->rep.r[k].status == IPX_B8_MEASURED)
			printf("  %16s", ipx_b8_config(k)->name);
	printf("\n%-4s", "");
	for (unsigned k = 0; k < IPX_B8_CONFIGS; k++)
		if (p->rep.r[k].status == IPX_B8_MEASURED)
			printf("  %16s", "first s / done s");
	printf("\n");
	for (unsigned i = 0; i < p->n; i++) {
		printf("%-4u", i + 1);
		for (unsigned k = 0; k < IPX_B8_CONFIGS; k++)
			if (p->rep.r[k].status == IPX_B8_MEASURED)
				printf("  %7.3f %8.2f", p->rep.r[k].ws[i].first_s,
				       p->rep.r[k].ws[i].done_s);
		printf("\n");
	}
}

static void print_body(const struct b8 *p);

static void print(const struct b8 *p)
{
	const struct fsbench *b = &p->b;

	if (b->csv) {
		ipx_b8_write_csv(stdout, &p->rep);
		return;
	}
	if (b->json) {
		ipx_b8_write_json(stdout, &p->rep, fsbench_jw_cond, &p->b);
		return;
	}
	printf("B8 retrieval: %u workstation%s x %u images from file server "
	       "'%s'%s\n",
	       p->n, p->n == 1 ? "" : "s", p->files, b->n.srvname,
	       p->rep.interrupted ? " (interrupted)" : "");
	fsbench_print_conditions(b, stdout);
	print_body(p);
}

/* Everything after the conditions: the tables, the series. */
static void print_body(const struct b8 *p)
{
	printf("# server CPU: %s, every 100 ms, %% of one CPU\n",
	       ipx_b8_cpu_source(&p->rep));
	print_summary(p);
	print_ranking(p);
	printf("\nserver CPU against time (0-9: tens of %%):\n");
	for (unsigned k = 0; k < IPX_B8_CONFIGS; k++)
		if (p->rep.r[k].status == IPX_B8_MEASURED &&
		    p->rep.r[k].cpu_measured)
			print_series(&p->rep.r[k], ipx_b8_config(k)->name);
	print_workstations(p);
	printf("kB = 1000 bytes of images; lag: start to the first retrieval's "
	       "end; done: the last.\n");
}

static int run(void *ctx)
{
	struct b8 *p = ctx;
	struct ipx_b8_opts o = { .stations = p->n, .files = p->files };
	char err[768];
	int rc;

	fsbench_net(&p->b, &o.net);
	o.loop = p->b.n.loop;
	o.server_pid = p->b.n.srv;
	o.sim_server = p->b.n.bsim ? ipx_bsim_server(p->b.n.bsim) : NULL;
	memcpy(o.only, p->only, sizeof(o.only));
	rc = ipx_b8_run(&o, fsbench_progress, &p->b, &p->rep, err,
			sizeof(err));
	if (fsbench_interrupted(&p->b, rc)) {	/* SIGINT, SIGTERM */
		ipx_b8_interrupted(&p->rep);
		cli_error(CMD, "retrieval: interrupted; printing the "
			       "configurations that finished");
	} else if (rc != IPX_OK) {
		cli_error(CMD, "retrieval: %s", err);
		return CLI_FAIL;
	}
	print(p);
	return p->rep.interrupted ? CLI_FAIL : CLI_OK;
}

/* ---- --period: the library runs its own networks (b8_period.c) ---- */

static void period_conditions(const struct b8 *p, FILE *out)
{
	char m[200];

	fprintf(out, "# ipxlab %s on %s; simulated time, seed %llu, %.1f "
		     "simulated seconds in all\n",
		cli_version_text(), cli_machine_text(m, sizeof(m)),
		(unsigned long long)p->b.seed, p->pr->sim_seconds);
	fprintf(out, "# period %s (%s): each configuration on a network of "
		     "its own, server and %u workstations on their period "
		     "machines, wire %s%s\n",
		p->period.name, p->period.what, p->n,
		p->b.have_profile ? p->b.profile.name : p->period.wire.name,
		p->b.have_profile ? " (--profile)" : " (the period's)");
	for (unsigned k = 0; k < IPX_B8_CONFIGS; k++)
		if (p->only[k])
			fprintf(out, "#   %-16s (%s) on period %s\n",
				ipx_b8_config(k)->name, ipx_b8_config(k)->note,
				p->rep.period[k]);
}

static void period_jw_cond(struct ipx_jw *w, const void *ctx)
{
	const struct b8 *p = ctx;
	char m[200];

	ipx_jw_str(w, "version", cli_version_text());
	ipx_jw_str(w, "machine", cli_machine_text(m, sizeof(m)));
	ipx_jw_str(w, "link", "in-memory segment");
	ipx_jw_str(w, "profile", p->b.have_profile ? p->b.profile.name
						    : p->period.wire.name);
	ipx_jw_bool(w, "simulated", true);
	ipx_jw_u64(w, "seed", p->b.seed);
	ipx_jw_dbl(w, "simulated_seconds", "%.6f", p->pr->sim_seconds);
	ipx_jw_str(w, "period", p->period.name);
}

static void print_order_check(const struct b8 *p)
{
	if (!p->rep.order_checked) {
		printf("finishing order against the note's: not checked (not "
		       "all four configurations measured)\n");
		return;
	}
	printf("finishing order against the note's (32/32, 32/16, 16/16, "
	       "16/32): %s\n",
	       p->rep.order_match ? "match" : "no match");
}

static int period_main(struct b8 *p)
{
	struct ipx_b8_period_opts o = { .period = &p->period,
					.spec = p->period_spec,
					.stations = p->n,
					.files = p->files,
					.today = true };
	char err[768];
	int rc;

	if (bench_output_check(p->b.json, p->b.csv) != CLI_OK)
		return CLI_USAGE;
	if (p->b.hub || p->b.server || p->b.ngiven || p->b.have_bridge) {
		cli_error(CMD, "retrieval: --period builds its own simulated "
			       "networks on one segment: not with %s",
			  p->b.hub	       ? "--hub"
			  : p->b.server ? "--server"
			  : p->b.ngiven ? "--agents"
					: "--bridge");
		return CLI_USAGE;
	}
	p->pr = calloc(1, sizeof(*p->pr));
	if (!p->pr) {
		cli_error(CMD, "out of memory");
		return CLI_FAIL;
	}
	p->b.seed = p->b.seed_given ? p->b.seed : 1;
	p->b.progress = !p->b.quiet && isatty(STDERR_FILENO);
	o.seed = p->b.seed;
	o.profile = p->b.have_profile ? &p->b.profile : NULL;
	memcpy(o.only, p->only, sizeof(o.only));
	rc = ipx_b8_run_period(&o, fsbench_progress, &p->b, p->pr, err,
			       sizeof(err));
	if (rc != IPX_OK) {
		cli_error(CMD, "retrieval: %s", err);
		return CLI_FAIL;
	}
	p->rep = p->pr->rep;
	if (p->b.csv) {
		ipx_b8_write_csv(stdout, &p->rep);
		return CLI_OK;
	}
	if (p->b.json) {
		ipx_b8_write_json(stdout, &p->rep, period_jw_cond, p);
		return CLI_OK;
	}
	printf("B8 retrieval: %u workstation%s x %u images, period %s\n",
	       p->n, p->n == 1 ? "" : "s", p->files, p->period.name);
	period_conditions(p, stdout);
	print_body(p);
	printf("\n");
	ipx_fid_print(stdout, &p->pr->fid);
	print_order_check(p);
	return CLI_OK;
}

/* --only "request/single,burst/batched": 0, or -1 with the message. */
static int parse_only(const char *arg, bool only[IPX_B8_CONFIGS])
{
	char buf[128], *save = NULL;

	if (strlen(arg) >= sizeof(buf)) {
		cli_error(CMD, "--only: too long");
		return -1;
	}
	strcpy(buf, arg);
	memset(only, 0, IPX_B8_CONFIGS * sizeof(only[0]));
	for (char *t = strtok_r(buf, ",", &save); t;
	     t = strtok_r(NULL, ",", &save)) {
		unsigned k = 0;

		while (k < IPX_B8_CONFIGS && strcmp(t, ipx_b8_config(k)->name))
			k++;
		if (k == IPX_B8_CONFIGS) {
			cli_error(CMD, "--only: unknown configuration '%s' "
				       "(request/batched, request/single, "
				       "burst/batched, burst/single)",
				  t);
			return -1;
		}
		only[k] = true;
	}
	return 0;
}

/* One of this command's own options: 0 taken, CLI_USAGE, (help) -1, or
 * 1: not one of them. */
static int own_opt(struct b8 *p, int opt, unsigned long *n)
{
	unsigned long v;

	if (opt == BENCH_OPT_STATIONS)
		return cli_parse_uint(CMD, "--stations", optarg, 1,
				      IPX_BN_MAX_STATIONS, n) < 0 ? CLI_USAGE
								  : 0;
	if (opt == OPT_FILES) {
		if (cli_parse_uint(CMD, "--files", optarg, 1, IPX_BN_IMAGES,
				   &v) < 0)
			return CLI_USAGE;
		p->files = (unsigned)v;
		return 0;
	}
	if (opt == OPT_ONLY)
		return parse_only(optarg, p->only) < 0 ? CLI_USAGE : 0;
	if (opt == OPT_PERIOD) {
		if (cli_period_opt(CMD, optarg, &p->period) < 0)
			return CLI_USAGE;
		p->period_spec = optarg;
		p->b.sim = true;	/* --period implies --sim */
		return 0;
	}
	return opt == 'h' ? -1 : 1;
}

/* The options into p: -1 to go on, else the command's exit code. */
static int parse(struct b8 *p, int argc, char **argv)
{
	static const struct option longopts[] = {
		BENCH_STATIONS_LONGOPT,
		{ "files", required_argument, NULL, OPT_FILES },
		{ "only", required_argument, NULL, OPT_ONLY },
		{ "period", required_argument, NULL, OPT_PERIOD },
		FSBENCH_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	unsigned long n = IPX_B8_STATIONS;
	int opt, rc = CLI_OK, code = CLI_OK;

	optind = 1;
	opterr = 0;
	while (rc == CLI_OK &&
	       (opt = getopt_long(argc, argv, ":qvh", longopts, NULL)) != -1) {
		int r = own_opt(p, opt, &n);

		if (r < 0) {
			help_bench_retrieval(stdout);
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
				   : bench_bad_option("retrieval", opt, argv);
	}
	if (rc == CLI_OK && optind < argc) {
		cli_error(CMD, "retrieval: unexpected argument '%s'",
			  argv[optind]);
		rc = CLI_USAGE;
	}
	if (rc == CLI_OK && p->b.repeat > 1) {
		cli_error(CMD, "retrieval: no --repeat (each configuration is "
			       "one run)");
		rc = CLI_USAGE;
	}
	p->n = (unsigned)n;
	p->b.agents = p->n;
	return rc == CLI_OK ? -1 : rc;
}

int bench_retrieval(int argc, char **argv)
{
	struct b8 *p = calloc(1, sizeof(*p));
	int rc;

	if (!p) {
		cli_error(CMD, "out of memory");
		return CLI_FAIL;
	}
	p->b.cmd = "retrieval";
	p->b.wait = 10;
	p->files = IPX_BN_IMAGES;
	for (unsigned k = 0; k < IPX_B8_CONFIGS; k++)
		p->only[k] = true;
	rc = parse(p, argc, argv);
	if (rc >= 0) {
		free(p);
		return rc;
	}
	rc = p->period_spec ? period_main(p) : fsbench_main(&p->b, p->n, run, p);
	free(p->pr);
	free(p);
	return rc;
}
