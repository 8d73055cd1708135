/*
 * cmd_protocols.c - "ipxlab bench protocols" (and a bare "ipxlab bench"):
 * B1, the protocol comparison, on the benchmark harness. Brings up the
 * network through the library (src/bench/b1_net.c: the hub started or
 * joined, the agents attached, the CPUs chosen), or runs its node on the
 * Ethernet interface given through cli_node_open; calls ipx_b1_run once;
 * prints the table (cmd_protocols_text.c) or the library's JSON / CSV.
 * The options are cmd_protocols_opts.c's.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd_protocols.h"
#include "ipxlab/err.h"
#include "ipxlab/log.h"

#define AGENT_NB_DELAY 2	/* ticks between name-claim broadcasts */

/* ---- the run ---- */

static void teardown(struct run_ctx *r, bool ok)
{
	ipx_hctl_free(r->n.ctl);	/* QUIT: the agents started here exit */
	r->n.ctl = NULL;
	if (r->cn.loop) {
		cli_node_close(&r->cn);
	} else {
		ipx_node_free(r->n.node);	/* closes its link first */
		if (r->cap && ipx_capture_close(r->cap) != IPX_OK)
			cli_error(CMD, "--pcap: some packets could not be "
				       "written");
		r->cap = NULL;
		ipx_loop_free(r->n.loop);
	}
	r->n.node = NULL;
	r->n.loop = NULL;
	ipx_hnet_stop(r->n.net, ok ? 2 * IPX_SEC : 0);
	r->n.net = NULL;
}

/* --link eth:...: the controller's node on that interface, through the
 * link options every node command takes. A CLI_ exit code (the message
 * is printed). */
static int open_on_link(struct run_ctx *r, const struct ipx_config *cfg)
{
	struct cli_node_opts no;
	int rc;

	cli_node_opts_init(&no);
	no.link = r->link;
	no.pcap = r->pcap;
	no.base = cfg;
	no.register_timeout = r->wait;
	rc = cli_node_open(&r->cn, &no);
	if (rc != CLI_OK)
		return rc;
	r->n.loop = r->cn.loop;
	r->n.node = r->cn.node;
	snprintf(r->n.hubtext, sizeof(r->n.hubtext), "%s", r->link);
	r->eth = true;
	return CLI_OK;
}

/* The node settings (SHELL.CFG or the defaults), the agents' names and
 * the network's options; CLI_OK or CLI_FAIL with a message. */
static int prepare(struct run_ctx *r, struct ipx_config *cfg,
		   struct ipx_hnet_opts *no, const char **names)
{
	char err[768];

	ipx_config_defaults(cfg);
	/* Agents started here claim their NetBIOS names (set-up, outside
	 * every measurement) with a short broadcast delay, unless a
	 * SHELL.CFG says otherwise: seconds per run saved. */
	if (!r->config)
		cfg->netbios_broadcast_delay = AGENT_NB_DELAY;
	if (r->config &&
	    ipx_config_load(cfg, r->config, err, sizeof(err)) != IPX_OK) {
		cli_error(CMD, "%s", err);
		return CLI_FAIL;
	}
	memset(no, 0, sizeof(*no));
	if (!r->agents) {
		snprintf(r->names[0], sizeof(r->names[0]), "sender");
		snprintf(r->names[1], sizeof(r->names[1]), "receiver");
		/* On a shared hub, names nobody else uses. */
		if (r->hub) {
			snprintf(r->names[0], sizeof(r->names[0]),
				 "sender-%d", (int)getpid());
			snprintf(r->names[1], sizeof(r->names[1]),
				 "receiver-%d", (int)getpid());
		}
		no->agents = names;
		no->nagents = 2;
	}
	no->hub = r->hub;
	no->cfg = cfg;
	no->fault = getenv("IPXLAB_AGENT_FAULT");
	no->wait = (ipx_time)(r->wait * IPX_SEC);
	if (!r->hub)
		no->pcap = r->pcap;	/* the hub started here records */
	return CLI_OK;
}

/* The hub network (started here or joined) and the controller's node on
 * it; IPX_OK, an error in err, or (*rc_cli) a CLI_ code already said,
 * torn down. */
static int join_hub(struct run_ctx *r, const struct ipx_hnet_opts *no,
		    const struct ipx_config *ccfg, int *rc_cli, char *err,
		    size_t errlen)
{
	int rc = ipx_b1_net_join(&r->n, no, ccfg, err, errlen);

	if (rc == IPX_OK)
		cli_stop_on_signals(r->n.loop);
	if (rc == IPX_OK && r->hub && r->pcap) {
		/* not our hub: the controller's own traffic */
		if (cli_capture_open(CMD, r->n.loop, r->pcap, &r->cap) !=
		    CLI_OK) {
			teardown(r, false);
			*rc_cli = CLI_FAIL;
			return IPX_EINVAL;
		}
		ipx_capture_attach(r->cap, ipx_node_link(r->n.node, 0));
	}
	return rc;
}

/* Up to the attached agents, pinned; IPX_OK, an error in err, or
 * (*rc_cli not CLI_OK) a CLI_ code already said, nothing left open. */
static int bring_up(struct run_ctx *r, const struct ipx_hnet_opts *no,
		    const struct ipx_config *cfg, const char **names,
		    int *rc_cli, char *err, size_t errlen)
{
	struct ipx_config ccfg = *cfg;
	int rc;

	ipx_b1_controller_config(&ccfg);
	if (r->link) {
		rc = open_on_link(r, &ccfg);
		if (rc != CLI_OK) {
			*rc_cli = rc;
			return IPX_EINVAL;
		}
	} else {
		rc = join_hub(r, no, &ccfg, rc_cli, err, errlen);
		if (*rc_cli != CLI_OK)
			return rc;
	}
	if (rc == IPX_OK)
		rc = ipx_b1_net_attach(&r->n, names, !r->agents, no->wait, err,
				       errlen);
	if (rc == IPX_OK &&
	    ipx_b1_choose_pin(&r->n, &r->o, r->pin_given, err, errlen) !=
		    IPX_OK) {
		cli_error(CMD, "%s", err);
		teardown(r, false);
		*rc_cli = CLI_USAGE;
		return IPX_EINVAL;
	}
	if (rc == IPX_OK)
		rc = ipx_b1_pin_hub(&r->n, &r->o, err, errlen);
	return rc;
}

static void print_json(const struct run_ctx *r,
		       const struct ipx_b1_sample *samples,
		       const struct ipx_b1_report *rep)
{
	struct ipx_b1_where wh = {
		.hubtext = r->n.hubtext, .link = r->link != NULL,
		.hub_cpu = r->n.hub_cpu, .ctl = r->n.ctl,
		.complete = !r->interrupted,
	};

	ipx_b1_write_json(stdout, &r->o, rep, samples, &wh);
}

/* After ipx_b1_run: a signal? Then the passes that finished. The figures
 * printed; the CLI_ exit code. */
static int finish(struct run_ctx *r, int rc, struct ipx_b1_sample *samples,
		  struct ipx_b1_report *rep, const char *err)
{
	if (rc != IPX_OK && r->n.loop) {	/* SIGINT, SIGTERM? */
		if (rc != IPX_ECLOSED)	/* an agent killed by the same ^C */
			ipx_loop_run_once(r->n.loop, 0);
		r->interrupted = rc == IPX_ECLOSED ||
				 ipx_loop_stopped(r->n.loop);
	}
	if (r->interrupted) {
		unsigned done = r->pass_seen ? r->pass_seen - 1 : 0;

		cli_error(CMD, "protocols: interrupted; printing the %u "
			       "pass%s that finished",
			  done, done == 1 ? "" : "es");
		if (done) {
			ipx_b1_summarize(samples, done, rep);
			rc = IPX_OK;
		} else if (r->json) {
			ipx_b1_write_json_empty(stdout);
		}
	} else if (rc == IPX_OK) {
		ipx_b1_summarize(samples, r->o.repeat, rep);
	}
	if (rc == IPX_OK) {
		if (r->json)
			print_json(r, samples, rep);
		else if (r->csv)
			ipx_b1_write_csv(stdout, rep, r->eth);
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
	const char *names[2] = { r->names[0], r->names[1] };
	struct ipx_hnet_opts no;
	struct ipx_config cfg;
	struct ipx_b1_sample *samples;
	struct ipx_b1_report *rep;
	char err[768];
	int rc, rc_cli = CLI_OK;

	rc = prepare(r, &cfg, &no, names);
	if (rc != CLI_OK)
		return rc;
	samples = calloc((size_t)r->o.repeat * IPX_B1_KINDS, sizeof(*samples));
	rep = malloc(sizeof(*rep));
	if (!samples || !rep) {
		free(samples);
		free(rep);
		cli_error(CMD, "out of memory");
		return CLI_FAIL;
	}
	rc = bring_up(r, &no, &cfg, names, &rc_cli, err, sizeof(err));
	if (rc_cli != CLI_OK) {	/* said, and torn down */
		free(samples);
		free(rep);
		return rc_cli;
	}
	if (rc == IPX_OK)
		rc = ipx_b1_run(r->n.ctl, 0, 1, &r->o, protocols_on_progress, r, samples,
				err, sizeof(err));
	if (r->progress)
		fprintf(stderr, "\r\033[K");
	rc = finish(r, rc, samples, rep, err);
	free(samples);
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
	return run(&r);
}
