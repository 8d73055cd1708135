/*
 * b1_net.c - B1's network (ipxlab/bench_b1.h): the hub started here or
 * joined, the controller's node on it, the sender and the receiver
 * attached, and where they run (the --pin choice, the hub pinned beside
 * the receiver).
 */
#include <arpa/inet.h>
#include <stdint.h>
#include <stdio.h>

#include "ipxlab/bench_b1.h"
#include "ipxlab/err.h"

void ipx_b1_controller_config(struct ipx_config *cfg)
{
	cfg->spx_listen_timeout = 18;	/* about 1 s */
	cfg->spx_verify_timeout = 9;
	cfg->spx_abort_timeout = 108;	/* about 6 s */
}

int ipx_b1_net_join(struct ipx_b1_net *n, const struct ipx_hnet_opts *no,
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

int ipx_b1_net_attach(struct ipx_b1_net *n, const char *const *names,
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

int ipx_b1_choose_pin(struct ipx_b1_net *n, struct ipx_b1_opts *o,
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
int ipx_b1_pin_hub(struct ipx_b1_net *n, const struct ipx_b1_opts *o,
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
