/*
 * fsnet_run.c - the network the file-server benchmarks run on
 * (bench_fsnet.h): hub and workstation agents through the harness
 * (ipx_hnet_start), the file server forked (ipx_fsrv_fork) on a scratch
 * volume with the fixtures, found by SAP like any server, the far side of
 * B6 (fsnet_far.c) and the controller attached; or all of it in this
 * process in simulated time (bench_sim.h). The wire's windows per run:
 * fsnet_wire.c.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fsnet_int.h"
#include "ipxlab/config.h"
#include "ipxlab/err.h"
#include "ipxlab/loop.h"
#include "ipxlab/ncp_client.h"
#include "ipxlab/node.h"
#include "ipxlab/sap.h"

static void on_signal(struct ipx_loop *loop, int signo, void *ctx)
{
	(void)signo;
	(void)ctx;
	ipx_loop_stop(loop);
}

static const int stop_sigs[] = { SIGINT, SIGTERM };

static void watch_signals(struct ipx_fsnet *n)
{
	if (!n->o.stop_on_signals)
		return;
	signal(SIGPIPE, SIG_IGN);
	ipx_loop_watch_signals(n->loop, stop_sigs, 2, on_signal, NULL);
}

/* The scratch volume with the fixtures, and the file server on it (a
 * child of this process). */
static int start_server(struct ipx_fsnet *n, char *err, size_t errlen)
{
	struct sockaddr_in hub;
	char why[300];

	snprintf(n->dir, sizeof(n->dir), "/tmp/ipxlab-battery.XXXXXX");
	if (!mkdtemp(n->dir)) {
		n->dir[0] = '\0';
		snprintf(err, errlen, "mkdtemp: %s", strerror(errno));
		return IPX_EIO;
	}
	if (ipx_bn_fixtures_make(n->dir, n->o.agents, why, sizeof(why)) !=
	    IPX_OK) {
		snprintf(err, errlen, "fixtures: %s", why);
		return IPX_EIO;
	}
	snprintf(n->srvname, sizeof(n->srvname), "BATTERY-%d", (int)getpid());
	ipx_hnet_hub(n->net, &hub);
	if (ipx_fsrv_fork(&hub, n->srvname, n->dir,
			  (ipx_time)(n->o.wait * IPX_SEC), &n->srv, why,
			  sizeof(why)) != IPX_OK) {
		snprintf(err, errlen, "cannot start the file server: %s", why);
		return IPX_EIO;
	}
	return IPX_OK;
}

/* The file the hub started here records into. */
static int open_pcap(struct ipx_fsnet *n, char *err, size_t errlen)
{
	int fd;

	snprintf(n->cap.pcap, sizeof(n->cap.pcap),
		 "/tmp/ipxlab-wire.XXXXXX.pcap");
	fd = mkstemps(n->cap.pcap, 5);
	if (fd < 0) {
		snprintf(err, errlen, "mkstemps: %s", strerror(errno));
		n->cap.pcap[0] = '\0';
		return IPX_EIO;
	}
	close(fd);
	return IPX_OK;
}

int ipx_fsnet_find_server(struct ipx_fsnet *n, const char *name,
			  struct ipx_addr *out, char *err, size_t errlen)
{
	struct ipx_sap *sap = NULL;
	struct ncp_client *cl = NULL;
	ipx_time end = ipx_loop_now(n->loop) + (ipx_time)(n->o.wait * IPX_SEC);
	int rc = NCP_E_NOSERVER;

	if (ipx_sap_new(n->node, NULL, &sap) != IPX_OK ||
	    ncp_client_new(n->node, NULL, &cl) != IPX_OK) {
		snprintf(err, errlen, "cannot open the controller's SAP and "
				      "NCP sockets");
		ncp_client_free(cl);
		ipx_sap_free(sap);
		return IPX_ENOMEM;
	}
	while (rc == NCP_E_NOSERVER &&
	       ipx_time_before(ipx_loop_now(n->loop), end))
		rc = ncp_find_server(cl, sap, name, 250 * IPX_MSEC, out, NULL);
	ncp_client_free(cl);
	ipx_sap_free(sap);
	if (rc) {
		snprintf(err, errlen, "file server '%s': %s", name,
			 ncp_strerror(rc));
		return IPX_ENOTFOUND;
	}
	return IPX_OK;
}

/* The agents attached, kept for the conditions after the stop. */
static void keep_agents(struct ipx_fsnet *n)
{
	n->nseen = ipx_hctl_agent_count(n->ctl);
	for (size_t i = 0; i < n->nseen && i < IPX_BN_MAX_STATIONS; i++)
		n->seen[i] = *ipx_hctl_agent_at(n->ctl, i);
}

/* sim: the network of bench_sim.h, the controller already attached. */
static int start_sim(struct ipx_fsnet *n, char *err, size_t errlen)
{
	struct ipx_bsim_opts o = { .profile = &n->o.profile,
				   .stations = n->o.agents, .seed = n->o.seed,
				   .name = "BATTERY-SIM",
				   .wan = n->o.have_bridge ? &n->o.bridge
							   : NULL,
				   .period = n->o.period };
	char why[768];

	if (n->o.stop_on_signals)	/* its set-up writes the fixtures */
		ipx_loop_hold_signals(stop_sigs, 2);
	if (ipx_bsim_new(&o, &n->bsim, why, sizeof(why)) != IPX_OK) {
		snprintf(err, errlen, "%s --sim: %s", n->o.name, why);
		return IPX_EIO;
	}
	n->loop = ipx_bsim_loop(n->bsim);
	n->ctl = ipx_bsim_ctl(n->bsim);
	n->ro = *ipx_bsim_run_opts(n->bsim);
	n->ro.span = &n->cap.span;
	keep_agents(n);
	snprintf(n->srvname, sizeof(n->srvname), "%s",
		 ipx_bsim_server_name(n->bsim));
	snprintf(n->hubtext, sizeof(n->hubtext), "in-process");
	watch_signals(n);
	return IPX_OK;
}

/* The controller, attached to the agents np[]. */
static int attach(struct ipx_fsnet *n, const char *const *np, ipx_time wait,
		  char *err, size_t errlen)
{
	char why[768];
	int rc = ipx_hctl_new(n->node, &n->ctl);

	if (rc == IPX_OK) {
		ipx_hctl_set_watch(n->ctl, ipx_hnet_watch, n->net);
		rc = ipx_hctl_attach(n->ctl, np, n->o.agents, wait, why,
				     sizeof(why));
	} else {
		snprintf(why, sizeof(why), "controller: %s", ipx_strerror(rc));
	}
	if (rc != IPX_OK) {
		snprintf(err, errlen, "%s: %s", n->o.name, why);
		return rc;
	}
	keep_agents(n);
	return IPX_OK;
}

/* The hub (started or joined) with the agents started here, the
 * controller's node on it. */
static int start_hub(struct ipx_fsnet *n, const char *const *np,
		     char *err, size_t errlen)
{
	struct ipx_hnet_opts no = { 0 };
	struct ipx_config cfg, ccfg;
	struct sockaddr_in hub;
	ipx_time wait = (ipx_time)(n->o.wait * IPX_SEC);
	char why[768], host[32];
	int rc;

	ipx_config_defaults(&cfg);
	no.hub = n->o.hub;
	no.agents = np;
	no.nagents = n->o.ngiven ? 0 : n->o.agents;
	if (n->o.capture && !n->o.hub &&
	    (rc = open_pcap(n, err, errlen)) != IPX_OK)
		return rc;
	if (n->cap.pcap[0]) {	/* each packet once, headers only */
		no.pcap = n->cap.pcap;
		no.pcap_received = true;
		no.pcap_snaplen = IPX_FSNET_SNAPLEN;
	}
	no.cfg = &cfg;
	no.wait = wait;
	no.fault = n->o.fault;
	no.profile = n->o.have_profile ? &n->o.profile : NULL;
	rc = ipx_hnet_start(&no, &n->net, why, sizeof(why));
	if (rc == IPX_OK) {
		ipx_hnet_hub(n->net, &hub);
		snprintf(n->hubtext, sizeof(n->hubtext), "%s:%u",
			 inet_ntop(AF_INET, &hub.sin_addr, host, sizeof(host)),
			 ntohs(hub.sin_port));
		ccfg = cfg;
		/* the controller notices a silent agent within seconds */
		ccfg.spx_listen_timeout = 18;
		ccfg.spx_verify_timeout = 9;
		ccfg.spx_abort_timeout = 108;
		/* and holds a session to every workstation */
		if (ccfg.spx_connections < IPX_BN_MAX_STATIONS + 1)
			ccfg.spx_connections = IPX_BN_MAX_STATIONS + 1;
		rc = ipx_hnet_join(&hub, &ccfg, wait, &n->loop, &n->node, why,
				   sizeof(why));
	}
	if (rc != IPX_OK)
		snprintf(err, errlen, "%s: %s", n->o.name, why);
	return rc;
}

int ipx_fsnet_start(struct ipx_fsnet *n, char *err, size_t errlen)
{
	char names[IPX_BN_MAX_STATIONS][IPX_HARNESS_NAME_MAX + 1];
	const char *np[IPX_BN_MAX_STATIONS];
	int rc;

	if (n->o.sim)
		return start_sim(n, err, errlen);
	for (unsigned i = 0; i < n->o.agents && !n->o.ngiven; i++) {
		if (n->o.hub)	/* on a shared hub, names nobody else uses */
			snprintf(names[i], sizeof(names[i]), "ws%u-%d", i + 1,
				 (int)getpid());
		else
			snprintf(names[i], sizeof(names[i]), "ws%u", i + 1);
		np[i] = names[i];
	}
	for (unsigned i = 0; i < n->o.ngiven; i++)
		np[i] = n->o.given[i];
	if ((rc = start_hub(n, np, err, errlen)) != IPX_OK)
		return rc;
	watch_signals(n);
	n->ro.span = &n->cap.span;	/* on the clock the hub's capture stamps */
	if (n->o.server)
		snprintf(n->srvname, sizeof(n->srvname), "%s", n->o.server);
	else if ((rc = start_server(n, err, errlen)) != IPX_OK)
		return rc;
	rc = ipx_fsnet_find_server(n, n->srvname, &n->ro.server, err, errlen);
	if (rc == IPX_OK && n->o.far)
		rc = ipx_fsnet_far_start(n, err, errlen);
	if (rc != IPX_OK)
		return rc;
	return attach(n, np, (ipx_time)(n->o.wait * IPX_SEC), err, errlen);
}

void ipx_fsnet_stop_network(struct ipx_fsnet *n, bool ok)
{
	if (n->bsim) {	/* it owns the loop, the nodes and the controller */
		n->sim_seconds = ipx_bsim_seconds(n->bsim);
		ipx_bsim_free(n->bsim);
		n->bsim = NULL;
		n->ctl = NULL;
		n->loop = NULL;
		return;
	}
	ipx_fsnet_far_stop(n);
	ipx_hctl_free(n->ctl);	/* QUIT: the agents started here exit */
	n->ctl = NULL;
	ipx_node_free(n->node);
	n->node = NULL;
	ipx_loop_free(n->loop);
	n->loop = NULL;
	ipx_fsrv_stop(&n->srv);
	ipx_hnet_stop(n->net, ok ? 2 * IPX_SEC : 0);
	n->net = NULL;
}

void ipx_fsnet_stop(struct ipx_fsnet *n, bool ok)
{
	ipx_fsnet_stop_network(n, ok);
	if (n->dir[0])
		ipx_bn_fixtures_remove(n->dir);
	n->dir[0] = '\0';
	ipx_bfs_capture_free(&n->cap);
}

bool ipx_fsnet_interrupted(struct ipx_fsnet *n, int rc)
{
	if (rc == IPX_ECLOSED)
		return true;
	if (rc == IPX_OK || !n->loop)
		return false;
	/* Ctrl-C reaches the agents too: one that died of it may have been
	 * noticed before our own signal was read */
	if (!n->bsim)
		ipx_loop_run_once(n->loop, 0);
	return ipx_loop_stopped(n->loop);
}

double ipx_fsnet_sim_seconds(const struct ipx_fsnet *n)
{
	return n->bsim ? ipx_bsim_seconds(n->bsim) : n->sim_seconds;
}
