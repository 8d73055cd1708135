/*
 * b1_net.c - B1's network (ipxlab/bench_b1.h): the agents' settings, the
 * hub started here or joined, the controller's node on it (or the
 * caller's, on an Ethernet link), the sender and the receiver attached,
 * where they run (the --pin choice, the hub pinned beside the receiver),
 * and all of it stopped again.
 */
#include <arpa/inet.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ipxlab/bench_b1.h"
#include "ipxlab/capture.h"
#include "ipxlab/config.h"
#include "ipxlab/err.h"
#include "ipxlab/loop.h"
#include "ipxlab/node.h"

#define AGENT_NB_DELAY 2	/* ticks between name-claim broadcasts */

void ipx_b1_controller_config(struct ipx_config *cfg)
{
	cfg->spx_listen_timeout = 18;	/* about 1 s */
	cfg->spx_verify_timeout = 9;
	cfg->spx_abort_timeout = 108;	/* about 6 s */
}

static int net_join(struct ipx_b1_net *n, const struct ipx_hnet_opts *no,
		    const struct ipx_config *ccfg, char *err, size_t errlen)
{
	struct sockaddr_in hub;
	char host[32];
	int rc = ipx_hnet_start(no, &n->net, err, errlen);

	if (rc != IPX_OK)
		return rc;
	ipx_hnet_hub(n->net, &hub);
	snprintf(n->hubtext, sizeof(n->hubtext), "%s:%u",
		 inet_ntop(AF_INET, &hub.sin_addr, host, sizeof(host)),
		 ntohs(hub.sin_port));
	return ipx_hnet_join(&hub, ccfg, no->wait, &n->loop, &n->node, err,
			     errlen);
}

static int net_attach(struct ipx_b1_net *n, const char *const *names,
		      bool watch, ipx_time wait, char *err, size_t errlen)
{
	int rc = ipx_hctl_new(n->node, &n->ctl);

	if (rc != IPX_OK) {
		snprintf(err, errlen, "the controller: %s", ipx_strerror(rc));
		return rc;
	}
	if (watch)
		ipx_hctl_set_watch(n->ctl, ipx_hnet_watch, n->net);
	return ipx_hctl_attach(n->ctl, names, 2, wait, err, errlen);
}

static int choose_pin(struct ipx_b1_net *n, struct ipx_b1_opts *o,
		      bool pin_given, char *err, size_t errlen)
{
	unsigned fewest = UINT32_MAX;

	for (size_t i = 0; i < ipx_hctl_agent_count(n->ctl); i++)
		if (ipx_hctl_agent_at(n->ctl, i)->cpus < fewest)
			fewest = ipx_hctl_agent_at(n->ctl, i)->cpus;
	if (o->pin == IPX_B1_PIN_SPLIT && fewest < 2) {
		if (pin_given) {
			snprintf(err, errlen, "--pin split needs 2 CPUs, and "
					      "an agent has %u: use --pin same "
					      "or none",
				 fewest);
			return IPX_EINVAL;
		}
		o->pin = IPX_B1_PIN_NONE;
		n->pin_fallback = true;
	}
	return IPX_OK;
}

/*
 * The hub we started goes where the receiver runs (split: the sender has
 * a CPU of its own, the receiver and the hub share the other; same: all
 * three on one): a hub left free to wander between CPUs moved every
 * request/response figure by up to 3x from one pass to the next, since a
 * wake-up across CPUs costs far more than one on the same CPU
 * (docs/benchmarks.md, CPU placement).
 */
static int pin_hub(struct ipx_b1_net *n, const struct ipx_b1_opts *o,
		   char *err, size_t errlen)
{
	int cpu = ipx_b1_pin_cpu(o->pin, IPX_BW_RECEIVER);
	int rc;

	n->hub_cpu = -1;
	if (cpu < 0 || !n->net)
		return IPX_OK;
	rc = ipx_hnet_pin_hub(n->net, cpu, err, errlen);
	if (rc == IPX_ENOTFOUND)
		return IPX_OK;	/* not ours (--hub): left as it is */
	if (rc == IPX_OK)
		n->hub_cpu = cpu;
	return rc;
}

void ipx_b1_link_config(struct ipx_config *cfg)
{
	ipx_config_defaults(cfg);
	cfg->netbios_broadcast_delay = AGENT_NB_DELAY;
	ipx_b1_controller_config(cfg);
}

/* The agents' settings (SHELL.CFG or the defaults), their names and the
 * hub network's options. */
static int prepare(struct ipx_b1_net *n, const struct ipx_b1_net_opts *bo,
		   struct ipx_config *cfg, struct ipx_hnet_opts *no,
		   const char **names, char *err, size_t errlen)
{
	ipx_config_defaults(cfg);
	/* Agents started here claim their NetBIOS names (set-up, outside
	 * every measurement) with a short broadcast delay, unless a
	 * SHELL.CFG says otherwise: seconds per run saved. */
	if (!bo->config)
		cfg->netbios_broadcast_delay = AGENT_NB_DELAY;
	if (bo->config &&
	    ipx_config_load(cfg, bo->config, err, errlen) != IPX_OK)
		return IPX_ECONFIG;
	memset(no, 0, sizeof(*no));
	if (bo->agents) {
		for (int i = 0; i < 2; i++)
			snprintf(n->names[i], sizeof(n->names[i]), "%s",
				 bo->agents[i]);
	} else if (bo->hub) {	/* on a shared hub, names nobody else uses */
		snprintf(n->names[0], sizeof(n->names[0]), "sender-%d",
			 (int)getpid());
		snprintf(n->names[1], sizeof(n->names[1]), "receiver-%d",
			 (int)getpid());
	} else {
		snprintf(n->names[0], sizeof(n->names[0]), "sender");
		snprintf(n->names[1], sizeof(n->names[1]), "receiver");
	}
	names[0] = n->names[0];
	names[1] = n->names[1];
	if (!bo->agents) {
		no->agents = names;
		no->nagents = 2;
	}
	no->hub = bo->hub;
	no->cfg = cfg;
	no->fault = bo->fault;
	no->wait = (ipx_time)(bo->wait * IPX_SEC);
	if (!bo->hub)
		no->pcap = bo->pcap;	/* the hub started here records */
	return IPX_OK;
}

static void on_signal(struct ipx_loop *loop, int signo, void *ctx)
{
	(void)signo;
	(void)ctx;
	ipx_loop_stop(loop);
}

/* The hub network (started here or joined) and the controller's node on
 * it, stopped by a signal if asked; with a joined hub and pcap, the
 * node's own traffic recorded. */
static int join_hub(struct ipx_b1_net *n, const struct ipx_b1_net_opts *bo,
		    const struct ipx_hnet_opts *no,
		    const struct ipx_config *ccfg, char *err, size_t errlen)
{
	static const int sigs[] = { SIGINT, SIGTERM };
	struct ipx_capture_options co = { .pcap_path = bo->pcap };
	char why[512];
	int rc = net_join(n, no, ccfg, err, errlen);

	n->own_node = true;
	if (rc != IPX_OK)
		return rc;
	if (bo->stop_on_signals) {
		signal(SIGPIPE, SIG_IGN);
		ipx_loop_watch_signals(n->loop, sigs, 2, on_signal, NULL);
	}
	if (bo->hub && bo->pcap) {	/* not our hub: the controller's */
		rc = ipx_capture_open(n->loop, &co, &n->cap, why, sizeof(why));
		if (rc != IPX_OK) {
			snprintf(err, errlen, "--pcap %s", why);
			n->fail = IPX_B1_FAIL_SETUP;
			return rc;
		}
		ipx_capture_attach(n->cap, ipx_node_link(n->node, 0));
	}
	return IPX_OK;
}

int ipx_b1_net_up(struct ipx_b1_net *n, const struct ipx_b1_net_opts *bo,
		  struct ipx_b1_opts *o, char *err, size_t errlen)
{
	const char *names[2];
	struct ipx_hnet_opts no;
	struct ipx_config cfg, ccfg;
	int rc;

	n->hub_cpu = -1;
	n->fail = IPX_B1_FAIL_SETUP;
	rc = prepare(n, bo, &cfg, &no, names, err, errlen);
	if (rc != IPX_OK)
		return rc;
	n->fail = IPX_B1_FAIL_NET;
	ccfg = cfg;
	ipx_b1_controller_config(&ccfg);
	if (!n->node && (rc = join_hub(n, bo, &no, &ccfg, err, errlen)) !=
			IPX_OK)
		return rc;
	rc = net_attach(n, names, !bo->agents, no.wait, err, errlen);
	if (rc != IPX_OK)
		return rc;
	o->ctl = n->ctl;
	o->sender = 0;
	o->receiver = 1;
	rc = choose_pin(n, o, bo->pin_given, err, errlen);
	if (rc != IPX_OK) {
		n->fail = IPX_B1_FAIL_PIN;
		return rc;
	}
	return pin_hub(n, o, err, errlen);
}

int ipx_b1_net_down(struct ipx_b1_net *n, bool ok)
{
	int rc = IPX_OK;

	ipx_hctl_free(n->ctl);	/* QUIT: the agents started here exit */
	n->ctl = NULL;
	if (n->own_node) {
		ipx_node_free(n->node);	/* closes its link first */
		if (n->cap && ipx_capture_close(n->cap) != IPX_OK)
			rc = IPX_EIO;
		n->cap = NULL;
		ipx_loop_free(n->loop);
		n->node = NULL;
		n->loop = NULL;
	}
	ipx_hnet_stop(n->net, ok ? 2 * IPX_SEC : 0);
	n->net = NULL;
	return rc;
}

bool ipx_b1_net_interrupted(struct ipx_b1_net *n, int rc)
{
	if (rc == IPX_OK || !n->loop)
		return false;
	if (rc == IPX_ECLOSED)
		return true;
	/* an agent killed by the same Ctrl-C may have been noticed first */
	ipx_loop_run_once(n->loop, 0);
	return ipx_loop_stopped(n->loop);
}
