/*
 * cmd_bench_copy.c - "ipxlab bench copy": B3, the file copy test of 1990
 * (docs/benchmarks.md): each of the seven file sizes copied from the file
 * server to the workstation's local disk five times in a row, each time
 * from the open of the file to the close of the copy, and the average,
 * beside the seconds the 1990 note published (three runs and their
 * average, local network and bridged).
 *
 * This file parses the options, has the library build the network
 * (fsbench_start: bench_fsnet.h), calls
 * ipx_b3_run (src/bench/b3_copy.c) once and prints: the table here, the JSON
 * and CSV from the library's writers.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fsbench.h"
#include "ipxlab/bench_stat.h"
#include "ipxlab/err.h"

#define CMD "bench"
#define DEFAULT_COPIES 5
#define MAX_COPIES IPX_B3_MAX_COPIES

enum { OPT_COPIES = FSB_OPT_FIRST };

void help_bench_copy(FILE *out)
{
	fprintf(out,
		"usage: ipxlab bench copy [options]\n\n"
		"B3, the 1990 file copy test: files of 1,205 to 214,705 bytes\n"
		"copied from the file server to a workstation's local disk (a\n"
		"new file in $TMPDIR or /tmp, written and closed, not synced),\n"
		"%d times in a row each; every time and the average in seconds,\n"
		"beside the 1990 seconds (local network | bridged). The time\n"
		"runs from the open on the server to the close of the copy;\n"
		"the workstation is an agent (own process, IPX node and NCP\n"
		"connection).\n\n"
		"  -n, --copies N      copies of each size (default %d, 1 to %d)\n"
		"      --quick         the same (a copy takes milliseconds)\n"
		FSBENCH_HELP FSBENCH_PERIOD_HELP,
		DEFAULT_COPIES, DEFAULT_COPIES, MAX_COPIES);
}

struct copyb {
	struct fsbench b;
	unsigned copies;
	struct ipx_b3_report rep;
	/* --period: the same copies on the wire alone, the fidelity table */
	struct ipx_b3_report today;
	bool have_fid;
	struct ipx_fid_table fid;
};

static void print_table(const struct copyb *c)
{
	printf("B3 file copy: file server '%s' to ws1's local disk, %u "
	       "consecutive cop%s per size\n",
	       c->b.n.srvname, c->copies, c->copies == 1 ? "y" : "ies");
	fsbench_print_conditions(&c->b, stdout);
	if (c->b.repeat > 1)
		printf("# the series %u times: each copy's median, the "
		       "average's median [min-max]\n",
		       c->b.repeat);
	printf("%9s  %-*s %9s  %s\n", "bytes", c->copies * 9, "seconds, each copy",
	       "average", "1990 local: runs, avg | bridged: runs, avg");
	for (int s = 0; s < c->rep.sizes; s++) {
		const struct ipx_bn_copy_pub *p = &ipx_bn_copy_published[s];
		struct ipx_stat_summary a;

		printf("%9u  ", ipx_bn_copy_size[s]);
		for (unsigned i = 0; i < c->copies; i++)
			printf("%8.4f ", ipx_b3_median(&c->rep, s, i, NULL));
		printf("%9.4f  ", ipx_b3_median(&c->rep, s, c->copies, &a));
		if (c->b.repeat > 1)
			printf("[%.4f-%.4f]  ", a.min, a.max);
		printf("%.2f %.2f %.2f avg %.2f | %.2f %.2f %.2f avg "
		       "%.2f\n",
		       p->local[0], p->local[1],
		       p->local[2], p->local_avg, p->bridged[0], p->bridged[1],
		       p->bridged[2], p->bridged_avg);
	}
	if (c->b.have_period)
		printf("1990 times include the copy program's start-up on a "
		       "1990 PC; so do ours on period %s (its program file "
		       "loaded from the server, then DOS EXEC's CPU).\n",
		       c->b.period.name);
	else
		printf("1990 times include the copy program's start-up on a "
		       "1990 PC; ours are the copy alone.\n");
}

/* --period's "today": the same copies on the wire alone. */
static int run_today(struct fsbench *today, void *ctx)
{
	struct copyb *c = ctx;
	struct ipx_b3_opts o = { .net = { today->n.ctl, &today->n.ro },
				 .copies = c->copies, .repeat = 1 };
	char err[768];

	if (ipx_b3_run(&o, fsbench_progress, today, &c->today, err,
		       sizeof(err)) != IPX_OK) {
		cli_error(CMD, "copy (the wire alone, for the fidelity "
			       "table): %s",
			  err);
		return CLI_FAIL;
	}
	return CLI_OK;
}

/* --period: the fidelity table. */
static int fidelity(struct copyb *c)
{
	if (!c->b.have_period || c->rep.interrupted)
		return CLI_OK;
	if (fsbench_today(&c->b, 1, run_today, c) != CLI_OK)
		return CLI_FAIL;
	ipx_b3_fidelity(&c->rep, &c->today, c->b.have_bridge,
			c->b.period.name, &c->fid);
	c->have_fid = true;
	c->rep.fidelity = &c->fid;
	return CLI_OK;
}

static int run(void *ctx)
{
	struct copyb *c = ctx;
	struct ipx_b3_opts o = { .net = { c->b.n.ctl, &c->b.n.ro },
				 .copies = c->copies, .repeat = c->b.repeat };
	char err[768];

	int rc;

	rc = ipx_b3_run(&o, fsbench_progress, &c->b, &c->rep, err,
			sizeof(err));
	if (fsbench_interrupted(&c->b, rc)) {	/* SIGINT, SIGTERM */
		ipx_b3_interrupted(&c->rep);
		cli_error(CMD, "copy: interrupted; printing the %d size%s "
			       "that finished",
			  c->rep.sizes, c->rep.sizes == 1 ? "" : "s");
	} else if (rc != IPX_OK) {
		cli_error(CMD, "copy: %s", err);
		return CLI_FAIL;
	}
	if (fidelity(c) != CLI_OK)
		return CLI_FAIL;
	if (c->b.json)
		ipx_b3_write_json(stdout, &c->rep, fsbench_jw_cond, &c->b);
	else if (c->b.csv)
		ipx_b3_write_csv(stdout, &c->rep);
	else
		print_table(c);
	if (c->have_fid && !c->b.json && !c->b.csv)
		ipx_fid_print(stdout, &c->fid);
	return c->rep.interrupted ? CLI_FAIL : CLI_OK;
}

int bench_copy(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "copies", required_argument, NULL, 'n' },
		{ "quick", no_argument, NULL, OPT_COPIES },
		FSBENCH_LONGOPTS,
		FSBENCH_PERIOD_LONGOPT,
		{ NULL, 0, NULL, 0 },
	};
	struct copyb *c = calloc(1, sizeof(*c));
	unsigned long v;
	int opt, rc, code = CLI_OK;

	if (!c) {
		cli_error(CMD, "out of memory");
		return CLI_FAIL;
	}
	c->b.cmd = "copy";
	c->b.wait = 10;
	c->b.agents = 1;
	c->copies = DEFAULT_COPIES;
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":n:qvh", longopts, NULL)) !=
	       -1) {
		if (opt == 'n') {
			if (cli_parse_uint(CMD, "--copies", optarg, 1,
					   MAX_COPIES, &v) < 0) {
				free(c);
				return CLI_USAGE;
			}
			c->copies = (unsigned)v;
			continue;
		}
		if (opt == OPT_COPIES)
			continue;
		if (opt == 'h') {
			help_bench_copy(stdout);
			free(c);
			return CLI_OK;
		}
		rc = fsbench_opt(&c->b, opt, optarg, 1, &code);
		if (rc == 2 || rc <= 0) {
			free(c);
			return rc == 2 ? code
			       : rc < 0 ? CLI_USAGE
					: bench_bad_option("copy", opt, argv);
		}
	}
	if (optind < argc) {
		cli_error(CMD, "copy: unexpected argument '%s'", argv[optind]);
		free(c);
		return CLI_USAGE;
	}
	rc = fsbench_main(&c->b, 0, run, c);
	free(c);
	return rc;
}
