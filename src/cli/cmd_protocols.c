/*
 * cmd_protocols.c - "ipxlab bench protocols" (and a bare "ipxlab bench"):
 * B1, the protocol comparison, on the benchmark harness. The network is
 * the library's (bench_b1.h's ipx_b1_net_up: the hub started or joined,
 * the agents attached, the CPUs chosen; on --link eth: the node opened
 * here through cli_node_open, the link spec being the command line's);
 * one ipx_b1_run; the table (cmd_protocols_text.c) or the library's JSON
 * / CSV. The options are cmd_protocols_opts.c's.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd_protocols.h"
#include "ipxlab/err.h"
#include "ipxlab/log.h"

/* ---- the run ---- */

/* The network down (the library's; the node on --link is ours). */
static void teardown(struct run_ctx *r, bool ok)
{
	if (ipx_b1_net_down(&r->n, ok) != IPX_OK)
		cli_error(CMD, "--pcap: some packets could not be written");
	if (r->cn.loop)
		cli_node_close(&r->cn);
	r->n.node = NULL;
	r->n.loop = NULL;
}

/* --link eth:...: the controller's node on that interface, through the
 * link options every node command takes. A CLI_ exit code (the message
 * is printed). */
static int open_on_link(struct run_ctx *r)
{
	struct ipx_config cfg;
	struct cli_node_opts no;
	int rc;

	ipx_b1_link_config(&cfg);
	cli_node_opts_init(&no);
	no.link = r->link;
	no.pcap = r->pcap;
	no.base = &cfg;
	no.register_timeout = r->wait;
	rc = cli_node_open(&r->cn, &no);
	if (rc != CLI_OK)
		return rc;
	r->n.loop = r->cn.loop;
	r->n.node = r->cn.node;
	snprintf(r->n.hubtext, sizeof(r->n.hubtext), "%s", r->link);
	r->o.eth = true;
	return CLI_OK;
}

/* Up to the attached agents, pinned: CLI_OK, or the exit code with the
 * message printed and the network down. */
static int bring_up(struct run_ctx *r)
{
	const char *agents[2] = { r->names[0], r->names[1] };
	struct ipx_b1_net_opts bo = {
		.hub = r->hub, .agents = r->agents ? agents : NULL,
		.config = r->config, .pcap = r->pcap, .wait = r->wait,
		.fault = getenv("IPXLAB_AGENT_FAULT"),
		.pin_given = r->pin_given, .stop_on_signals = true,
	};
	char err[768];
	int rc;

	if (r->link && (rc = open_on_link(r)) != CLI_OK)
		return rc;
	rc = ipx_b1_net_up(&r->n, &bo, &r->o, err, sizeof(err));
	if (rc == IPX_OK)
		return CLI_OK;
	r->interrupted = r->n.fail == IPX_B1_FAIL_NET &&
			 ipx_b1_net_interrupted(&r->n, rc);
	if (r->interrupted) {
		cli_error(CMD, "protocols: interrupted; printing the 0 passes "
			       "that finished");
		if (r->json)
			ipx_b1_write_json_empty(stdout);
	} else if (r->n.fail == IPX_B1_FAIL_NET) {
		cli_error(CMD, "protocols: %s", err);
	} else {
		cli_error(CMD, "%s", err);
	}
	teardown(r, false);
	return r->n.fail == IPX_B1_FAIL_PIN ? CLI_USAGE : CLI_FAIL;
}

static void print_json(const struct run_ctx *r,
		       const struct ipx_b1_report *rep)
{
	struct ipx_b1_where wh = {
		.hubtext = r->n.hubtext, .link = r->link != NULL,
		.hub_cpu = r->n.hub_cpu, .ctl = r->n.ctl,
		.complete = !r->interrupted,
	};

	ipx_b1_write_json(stdout, &r->o, rep, rep->samples, &wh);
}

static void progress(void *ctx, const char *line)
{
	const struct run_ctx *r = ctx;

	if (!r->progress)
		return;
	if (line)
		fprintf(stderr, "\r\033[K  %s", line);
	else
		fprintf(stderr, "\r\033[K");
	fflush(stderr);
}

/* After ipx_b1_run: a signal? Then the passes that finished. The figures
 * printed; the CLI_ exit code. */
static int finish(struct run_ctx *r, int rc, struct ipx_b1_report *rep,
		  const char *err)
{
	r->interrupted = ipx_b1_net_interrupted(&r->n, rc);
	if (r->interrupted) {
		unsigned done = ipx_b1_interrupted(rep);

		cli_error(CMD, "protocols: interrupted; printing the %u "
			       "pass%s that finished",
			  done, done == 1 ? "" : "es");
		if (done)
			rc = IPX_OK;
		else if (r->json)
			ipx_b1_write_json_empty(stdout);
	}
	if (rc == IPX_OK) {
		if (r->json)
			print_json(r, rep);
		else if (r->csv)
			ipx_b1_write_csv(stdout, rep, r->o.eth);
		else
			protocols_print_table(r, rep);
	}
	teardown(r, rc == IPX_OK && !r->interrupted);
	if (r->interrupted)
		return CLI_FAIL;
	if (rc != IPX_OK) {
		cli_error(CMD, "protocols: %s", err);
		return CLI_FAIL;
	}
	return CLI_OK;
}

static int run(struct run_ctx *r)
{
	struct ipx_b1_report *rep = calloc(1, sizeof(*rep));
	char err[768];
	int rc;

	if (!rep) {
		cli_error(CMD, "out of memory");
		return CLI_FAIL;
	}
	rc = bring_up(r);
	if (rc == CLI_OK) {
		rc = ipx_b1_run(&r->o, progress, r, rep, err, sizeof(err));
		rc = finish(r, rc, rep, err);
	}
	ipx_b1_report_free(rep);
	free(rep);
	return rc;
}

int bench_protocols(int argc, char **argv)
{
	struct run_ctx r;
	int rc;

	memset(&r, 0, sizeof(r));
	r.o.count = IPX_B1_DEFAULT_COUNT;
	r.o.size = IPX_B1_DEFAULT_SIZE;
	r.o.repeat = IPX_B1_DEFAULT_REPEAT;
	r.o.pin = IPX_B1_PIN_SPLIT;
	r.n.hub_cpu = -1;
	r.o.drain = IPX_B1_DEFAULT_DRAIN;
	r.wait = DEFAULT_WAIT;
	rc = protocols_parse(&r, argc, argv);
	if (rc != CLI_OK)
		return rc < 0 ? CLI_OK : rc;
	if (ipx_log_get_level() == IPX_LOG_INFO)
		ipx_log_set_level(IPX_LOG_WARN);
	return r.sim ? protocols_sim(&r) : run(&r);
}
