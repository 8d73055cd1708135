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
 * ipx_b8_run (src/bench/b8_retrieval.c) once and prints: the tables in
 * cmd_bench_retrieval_print.c, JSON and CSV from the library's writers.
 * --period goes to cmd_bench_retrieval_period.c.
 */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cmd_bench_retrieval.h"
#include "fsbench.h"
#include "ipxlab/bench_b8.h"
#include "ipxlab/err.h"

#define CMD "bench"

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
		"                      the period's machines (imaging: the note's;\n"
		"                      'ipxlab period' lists them; or a period\n"
		"                      file): each configuration on the period\n"
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
		IPX_BN_IMAGES, IPX_BN_IMAGES);
}


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
	b8_print_body(p);
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
	rc = p->period_spec ? b8_period_main(p) : fsbench_main(&p->b, p->n, run, p);
	free(p->pr);
	free(p);
	return rc;
}
