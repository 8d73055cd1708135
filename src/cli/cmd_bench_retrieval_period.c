/*
 * cmd_bench_retrieval_period.c - "ipxlab bench retrieval --period": B8 on
 * a period's machines (docs/benchmarks.md, B8): the checks of what
 * --period cannot go with, one call of ipx_b8_run_period (src/bench/
 * b8_period.c: a simulated network per configuration, and the same run
 * on the wire alone), then the conditions, B8's tables, the fidelity
 * table and the finishing-order check; JSON and CSV from the library's
 * writers.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cmd_bench_retrieval.h"
#include "ipxlab/err.h"

#define CMD "bench"

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

int b8_period_main(struct b8 *p)
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
	b8_print_body(p);
	printf("\n");
	ipx_fid_print(stdout, &p->pr->fid);
	print_order_check(p);
	return CLI_OK;
}

