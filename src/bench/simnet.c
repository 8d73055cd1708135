/*
 * simnet.c - the file-server benchmarks' network in one process on a fake
 * clock (bench_sim.h): in-memory segments with a link profile, optionally
 * two of them joined by the WAN bridge modules, the file server on a
 * scratch volume with the fixtures, the workstation agents, the
 * controller, and an analyzer probe on each segment.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipxlab/bench_sim.h"
#include "ipxlab/err.h"
#include "ipxlab/link_mem.h"
#include "ipxlab/ncp_server.h"
#include "ipxlab/ping.h"

#include "bench_util.h"

#define NET 0x10
/* Simulated time the controller may take to find and connect to the
 * agents (SAP queries, SPX connects). */
#define ATTACH_WAIT (10 * IPX_SEC)
/* Simulated time the workstations' last calls get when it is all freed. */
#define DRAIN_WAIT (30 * IPX_SEC)

struct probe {
	struct ipx_bsim *sim;
	struct ipx_link *link;	/* promiscuous, never sends */
	struct ipx_analyze an;
};

struct ipx_bsim {
	struct ipx_clock clk;
	struct ipx_loop *loop;
	struct ipx_config cfg;
	bool have_profile;
	struct ipx_profile profile;
	struct ipx_mem_segment *seg[2];	/* [1] only when bridged */
	struct ipx_link *port[2];	/* the bridge's links */
	struct ipx_wan *wan;
	struct probe probe[2];
	struct ipx_node *ctlnode, *srvnode, *ws[IPX_BN_MAX_STATIONS];
	struct ipx_agent *ag[IPX_BN_MAX_STATIONS];
	unsigned nws;
	struct ipx_node *spare[IPX_BSIM_MAX_SPARE];
	unsigned nspare;
	struct ipx_hctl *ctl;
	struct ncp_server *srv;
	struct ipx_ping_responder *pong;
	struct ipx_bn_run_opts ro;
	bool have_period;
	struct ipx_period period;
	struct ipx_host *srvhost, *wshost[IPX_BN_MAX_STATIONS];
	char srvname[48];
	char root[64];
	ipx_time start;
};

/* Every station its own node address, unique across both segments (the
 * bridge learns them): 02:5A:00:00:KIND:N. */
enum { K_CTL = 1, K_SRV, K_WS, K_PROBE, K_PORT, K_SPARE };

static void node_addr(uint8_t out[IPX_NODE_LEN], unsigned kind, unsigned n)
{
	static const uint8_t base[IPX_NODE_LEN] = { 0x02, 0x5A, 0, 0, 0, 0 };

	memcpy(out, base, IPX_NODE_LEN);
	out[4] = (uint8_t)kind;
	out[5] = (uint8_t)n;
}

static void probe_rx(struct ipx_link *l, const uint8_t *pkt, size_t len,
		     void *ctx)
{
	struct probe *p = ctx;
	struct ipx_bsim *s = p->sim;
	size_t wire = s->have_profile
			      ? (size_t)ipx_profile_wire_bytes(&s->profile, len)
			      : len + 14;

	(void)l;
	/* out of memory: the analyzer counts nothing of it; nothing else */
	(void)ipx_analyze_add_ipx(&p->an, ipx_loop_now(s->loop), pkt, len,
				  wire);
}

static void port_rx(struct ipx_link *l, const uint8_t *pkt, size_t len,
		    void *ctx)
{
	struct ipx_bsim *s = ctx;

	ipx_wan_input(s->wan, l == s->port[1], pkt, len);
}

static void wan_out(unsigned side, const uint8_t *pkt, size_t len, void *ctx)
{
	struct ipx_bsim *s = ctx;

	/* the destination node is the packet's own (offset 10); a segment
	 * that has no such node counts it (no_such_node) */
	(void)ipx_link_send(s->port[side], pkt, len, pkt + 10);
}

static struct ipx_link *mem_link(struct ipx_bsim *s, unsigned side,
				 unsigned kind, unsigned n)
{
	uint8_t node[IPX_NODE_LEN];

	node_addr(node, kind, n);
	return ipx_mem_link_new(s->seg[side], node);
}

/*
 * A node on one side; with a machine, its adapter on the link and the
 * host between them (its IPX packets at most max_packet when that is
 * given and smaller).
 */
static int add_host_node(struct ipx_bsim *s, unsigned side, unsigned kind,
			 unsigned n, const struct ipx_machine *m, bool server,
			 uint32_t max_packet, struct ipx_host **host,
			 struct ipx_node **out, char *err, size_t errlen)
{
	struct ipx_link *l;

	*out = ipx_node_new(s->loop, &s->cfg);
	if (!*out)
		return IPX_ENOMEM;
	l = mem_link(s, side, kind, n);
	if (!l)
		return IPX_ENOMEM;
	if (m && m->have_adapter && s->have_profile &&
	    ipx_mem_link_set_adapter(l, &m->adapter.adapter, err, errlen) !=
		    IPX_OK) {
		ipx_link_close(l);
		return IPX_EINVAL;
	}
	if (m) {
		struct ipx_host *h = ipx_host_new(l, m, server);

		if (!h) {
			ipx_link_close(l);
			return IPX_ENOMEM;
		}
		l = ipx_host_link(h);
		if (max_packet && max_packet < l->mtu)
			l->mtu = max_packet;
		*host = h;
	}
	if (ipx_node_add_link(*out, l) != IPX_OK) {
		ipx_link_close(l);
		return IPX_ENOMEM;
	}
	return IPX_OK;
}

static int add_node(struct ipx_bsim *s, unsigned side, unsigned kind,
		    unsigned n, struct ipx_node **out)
{
	return add_host_node(s, side, kind, n, NULL, false, 0, NULL, out,
			     NULL, 0);
}

/* The segments, the bridge and the probes. */
static int build_wire(struct ipx_bsim *s, const struct ipx_bsim_opts *o,
		      char *err, size_t errlen)
{
	struct ipx_mem_faults f = { .delay = o->delay };
	unsigned nseg = o->wan ? 2 : 1;

	for (unsigned i = 0; i < nseg; i++) {
		s->seg[i] = ipx_mem_segment_new(s->loop, NET, o->seed + 1 + i);
		if (!s->seg[i])
			return IPX_ENOMEM;
		ipx_mem_segment_set_faults(s->seg[i], &f);
		if (o->profile &&
		    ipx_mem_segment_set_profile(s->seg[i], o->profile) !=
			    IPX_OK) {
			ipx_bench_set_err(err, errlen, "profile %s: cannot "
						       "apply it",
					  o->profile->name);
			return IPX_EINVAL;
		}
		if (o->wan && o->wan->bridge_max)
			ipx_mem_segment_set_mtu(s->seg[i], o->wan->bridge_max);
		s->probe[i].sim = s;
		ipx_analyze_init(&s->probe[i].an, NULL);
		s->probe[i].link = mem_link(s, i, K_PROBE, i);
		if (!s->probe[i].link)
			return IPX_ENOMEM;
		ipx_mem_link_set_promiscuous(s->probe[i].link, true);
		s->probe[i].link->rx = probe_rx;
		s->probe[i].link->rx_ctx = &s->probe[i];
	}
	if (!o->wan)
		return IPX_OK;
	if (ipx_profile_check(o->wan, err, errlen) != IPX_OK)
		return IPX_EINVAL;
	if (ipx_wan_new(s->loop, o->wan, o->seed + 7, wan_out, s, &s->wan) !=
	    IPX_OK) {
		ipx_bench_set_err(err, errlen, "bridge profile %s: no receive "
					       "or transmit buffer",
				  o->wan->name);
		return IPX_EINVAL;
	}
	for (unsigned i = 0; i < 2; i++) {
		s->port[i] = mem_link(s, i, K_PORT, i);
		if (!s->port[i])
			return IPX_ENOMEM;
		ipx_mem_link_set_promiscuous(s->port[i], true);
		s->port[i]->rx = port_rx;
		s->port[i]->rx_ctx = s;
	}
	return IPX_OK;
}

/* The server and its volume on the server's side. */
static int build_server(struct ipx_bsim *s, const struct ipx_bsim_opts *o,
			char *err, size_t errlen)
{
	struct ncp_server_opts so = { .name = s->srvname };
	int rc;

	snprintf(s->srvname, sizeof(s->srvname), "%s",
		 o->name ? o->name : "BENCHSRV");
	snprintf(s->root, sizeof(s->root), "/tmp/ipxlab-sim.XXXXXX");
	if (!mkdtemp(s->root)) {
		s->root[0] = '\0';
		ipx_bench_set_err(err, errlen, "cannot make a scratch volume "
					       "in /tmp");
		return IPX_EIO;
	}
	rc = ipx_bn_fixtures_make(s->root, s->nws, err, errlen);
	if (rc != IPX_OK)
		return rc;
	rc = add_host_node(s, 0, K_SRV, 0,
			   s->have_period ? &s->period.server : NULL, true, 0,
			   &s->srvhost, &s->srvnode, err, errlen);
	if (rc != IPX_OK)
		return rc;
	snprintf(so.volumes[0].name, sizeof(so.volumes[0].name), "SYS");
	snprintf(so.volumes[0].dir, sizeof(so.volumes[0].dir), "%s", s->root);
	so.nvolumes = 1;
	rc = ncp_server_new(s->srvnode, &so, &s->srv, err, errlen);
	if (rc != IPX_OK)
		return rc;
	rc = ipx_ping_responder_new(s->srvnode, &s->pong);
	if (rc != IPX_OK)
		return rc;
	ipx_node_address(s->srvnode, &s->ro.server);
	s->ro.server.socket = IPX_SOCK_NCP;
	return IPX_OK;
}

/* The agents and the controller on the workstations' side. */
static int build_stations(struct ipx_bsim *s, char *err, size_t errlen)
{
	char names[IPX_BN_MAX_STATIONS][IPX_HARNESS_NAME_MAX + 1];
	const char *np[IPX_BN_MAX_STATIONS];
	unsigned side = s->wan ? 1 : 0;
	int rc;

	for (unsigned i = 0; i < s->nws; i++) {
		struct ipx_agent_opts ao = { .name = names[i],
					     .in_process = true };

		snprintf(names[i], sizeof(names[i]), "ws%u", i + 1);
		np[i] = names[i];
		rc = add_host_node(s, side, K_WS, i + 1,
				   s->have_period ? &s->period.station : NULL,
				   false, s->period.max_packet, &s->wshost[i],
				   &s->ws[i], err, errlen);
		if (rc != IPX_OK)
			return rc;
		rc = ipx_agent_new(s->ws[i], &ao, &s->ag[i], err, errlen);
		if (rc != IPX_OK)
			return rc;
	}
	if ((rc = add_node(s, side, K_CTL, 0, &s->ctlnode)) != IPX_OK ||
	    (rc = ipx_hctl_new(s->ctlnode, &s->ctl)) != IPX_OK)
		return rc;
	return ipx_hctl_attach(s->ctl, np, s->nws, ATTACH_WAIT, err, errlen);
}

int ipx_bsim_new(const struct ipx_bsim_opts *o, struct ipx_bsim **out,
		 char *err, size_t errlen)
{
	struct ipx_bsim *s;
	struct ipx_bsim_opts po = { 0 };
	int rc;

	*out = NULL;
	if (o->stations < 1 || o->stations > IPX_BN_MAX_STATIONS) {
		ipx_bench_set_err(err, errlen, "%u workstations: 1 to %d",
				  o->stations, IPX_BN_MAX_STATIONS);
		return IPX_EINVAL;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		ipx_bench_set_err(err, errlen, "out of memory");
		return IPX_ENOMEM;
	}
	s->nws = o->stations;
	if (o->period) {
		po = *o;
		s->have_period = true;
		s->period = *o->period;
		s->have_profile = true;
		s->profile = o->profile ? *o->profile : o->period->wire;
		po.profile = &s->profile;
		if (o->wan && o->period->have_wan)
			po.wan = &s->period.wan;
		o = &po;
	} else if (o->profile) {
		s->have_profile = true;
		s->profile = *o->profile;
	}
	ipx_clock_fake_init(&s->clk, IPX_SEC);
	s->loop = ipx_loop_new(o->real_clock ? ipx_clock_system() : &s->clk);
	ipx_config_defaults(&s->cfg);
	/* the controller notices a silent agent within seconds */
	s->cfg.spx_listen_timeout = 18;
	s->cfg.spx_verify_timeout = 9;
	s->cfg.spx_abort_timeout = 108;
	/* the controller holds a session to every workstation */
	if (s->cfg.spx_connections < IPX_BN_MAX_STATIONS + 1)
		s->cfg.spx_connections = IPX_BN_MAX_STATIONS + 1;
	/* in real time a NetBIOS name claim need not wait two broadcasts a
	 * second apart: one segment, nothing lost */
	if (o->real_clock) {
		s->cfg.netbios_broadcast_count = 1;
		s->cfg.netbios_broadcast_delay = 2;
	}
	rc = s->loop ? build_wire(s, o, err, errlen) : IPX_ENOMEM;
	if (rc == IPX_OK)
		rc = build_server(s, o, err, errlen);
	if (rc == IPX_OK)
		rc = build_stations(s, err, errlen);
	if (rc != IPX_OK) {
		if (rc == IPX_ENOMEM)
			ipx_bench_set_err(err, errlen, "out of memory");
		else if (rc == IPX_EINVAL && s->have_period && err &&
			 !err[0])
			ipx_bench_set_err(err, errlen, "period %s: cannot "
						       "apply it",
					  s->period.name);
		ipx_bsim_free(s);
		return rc;
	}
	s->start = ipx_loop_now(s->loop);
	*out = s;
	return IPX_OK;
}

static bool tasks_idle(void *ctx)
{
	return !ipx_loop_tasks_busy(ctx);
}

void ipx_bsim_free(struct ipx_bsim *s)
{
	if (!s)
		return;
	ipx_hctl_free(s->ctl);
	/* the workstations' last calls (a disconnect after the RESULT) end
	 * in simulated time, so nothing they hold is abandoned */
	if (s->loop)
		ipx_loop_run_until(s->loop, tasks_idle, s->loop, DRAIN_WAIT);
	ipx_node_free(s->ctlnode);
	for (unsigned i = 0; i < s->nspare; i++)
		ipx_node_free(s->spare[i]);
	for (unsigned i = 0; i < s->nws; i++) {
		ipx_agent_free(s->ag[i]);
		ipx_node_free(s->ws[i]);
	}
	ipx_ping_responder_free(s->pong);
	ncp_server_free(s->srv);
	ipx_node_free(s->srvnode);
	ipx_wan_free(s->wan);
	for (int i = 0; i < 2; i++) {
		if (s->port[i])
			ipx_link_close(s->port[i]);
		if (s->probe[i].link)
			ipx_link_close(s->probe[i].link);
		ipx_analyze_free(&s->probe[i].an);
		if (s->seg[i])
			ipx_mem_segment_free(s->seg[i]);
	}
	ipx_loop_free(s->loop);
	if (s->root[0])
		ipx_bn_fixtures_remove(s->root);
	free(s);
}

struct ipx_loop *ipx_bsim_loop(struct ipx_bsim *s)
{
	return s->loop;
}

struct ipx_hctl *ipx_bsim_ctl(struct ipx_bsim *s)
{
	return s->ctl;
}

const struct ipx_bn_run_opts *ipx_bsim_run_opts(const struct ipx_bsim *s)
{
	return &s->ro;
}

struct ncp_server *ipx_bsim_server(struct ipx_bsim *s)
{
	return s->srv;
}

const char *ipx_bsim_server_name(const struct ipx_bsim *s)
{
	return s->srvname;
}

const char *ipx_bsim_root(const struct ipx_bsim *s)
{
	return s->root;
}

struct ipx_node *ipx_bsim_server_node(struct ipx_bsim *s)
{
	return s->srvnode;
}

struct ipx_node *ipx_bsim_station(struct ipx_bsim *s, unsigned i)
{
	return i < s->nws ? s->ws[i] : NULL;
}

int ipx_bsim_spare_node(struct ipx_bsim *s, enum ipx_bsim_side side,
			struct ipx_node **out)
{
	unsigned seg = s->wan && side == IPX_BSIM_STATIONS ? 1 : 0;
	int rc;

	*out = NULL;
	if (s->nspare == IPX_BSIM_MAX_SPARE)
		return IPX_ERANGE;
	rc = add_node(s, seg, K_SPARE, s->nspare, &s->spare[s->nspare]);
	if (rc != IPX_OK) {
		ipx_node_free(s->spare[s->nspare]);
		s->spare[s->nspare] = NULL;
		return rc;
	}
	*out = s->spare[s->nspare++];
	return IPX_OK;
}

const struct ipx_wan *ipx_bsim_wan(const struct ipx_bsim *s)
{
	return s->wan;
}

bool ipx_bsim_bridged(const struct ipx_bsim *s)
{
	return s->wan != NULL;
}

double ipx_bsim_seconds(struct ipx_bsim *s)
{
	return (double)(ipx_loop_now(s->loop) - s->start) / IPX_SEC;
}

void ipx_bsim_reset(struct ipx_bsim *s)
{
	/* The controller's sessions with the agents are the harness's, not
	 * the test's: left out, as the hub's capture leaves them out. */
	struct ipx_analyze_filter f = { .nexclude = 1 };
	struct ipx_addr self;

	ipx_node_address(s->ctlnode, &self);
	memcpy(f.exclude[0].node, self.node, sizeof(f.exclude[0].node));
	for (int i = 0; i < 2; i++) {
		ipx_analyze_free(&s->probe[i].an);
		ipx_analyze_init(&s->probe[i].an, &f);
	}
}

const struct ipx_analyze *ipx_bsim_analyze(const struct ipx_bsim *s,
					   enum ipx_bsim_side side)
{
	return &s->probe[s->wan && side == IPX_BSIM_STATIONS ? 1 : 0].an;
}

struct ipx_host *ipx_bsim_server_host(struct ipx_bsim *s)
{
	return s->srvhost;
}

struct ipx_host *ipx_bsim_station_host(struct ipx_bsim *s, unsigned i)
{
	return i < s->nws ? s->wshost[i] : NULL;
}

const struct ipx_period *ipx_bsim_period(const struct ipx_bsim *s)
{
	return s->have_period ? &s->period : NULL;
}
