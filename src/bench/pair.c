/*
 * pair.c - the network and the runs of the two-agent benchmarks on the
 * harness (bench_pair.h).
 */
#include "ipxlab/bench_pair.h"

#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ipxlab/bench_sys.h"
#include "ipxlab/err.h"
#include "ipxlab/loop.h"

#define WAIT (10 * IPX_SEC)

/* The controller's node: SPX notices a silent agent within seconds. */
static void controller_config(struct ipx_config *cfg)
{
	cfg->spx_listen_timeout = 18;	/* about 1 s */
	cfg->spx_verify_timeout = 9;
	cfg->spx_abort_timeout = 108;	/* about 6 s */
}

static const char *const names[2] = { "sender", "receiver" };

/* After the controller's node is up (rc IPX_OK): the controller attaches
 * to both agents; on failure everything stops. */
static int attach(struct ipx_bpair *b, int rc, char *err, size_t errlen)
{
	if (rc == IPX_OK) {
		if (b->on_loop)
			b->on_loop(b->loop);
		rc = ipx_hctl_new(b->node, &b->ctl);
	}
	if (rc == IPX_OK) {
		ipx_hctl_set_watch(b->ctl, ipx_hnet_watch, b->net);
		rc = ipx_hctl_attach(b->ctl, names, 2, WAIT, err, errlen);
	}
	if (rc == IPX_OK) {
		b->hub_pid = (int)ipx_hnet_hub_pid(b->net);
		for (size_t i = 0; i < 2; i++)
			b->agents[i] = *ipx_hctl_agent_at(b->ctl, i);
	}
	if (rc != IPX_OK)
		ipx_bpair_stop(b, false);
	return rc;
}

int ipx_bpair_start(struct ipx_bpair *b, const char *pcap, char *err,
		     size_t errlen)
{
	struct ipx_hnet_opts no = { 0 };
	struct ipx_config cfg, ccfg;
	struct sockaddr_in hub;
	char host[32];
	int rc;

	b->hub_cpu = -1;
	ipx_config_defaults(&cfg);
	/* NetBIOS name claims are set-up, outside every measurement */
	cfg.netbios_broadcast_delay = 2;
	no.agents = names;
	no.nagents = 2;
	no.cfg = &cfg;
	no.fault = getenv("IPXLAB_AGENT_FAULT");
	no.wait = WAIT;
	no.pcap = pcap;
	rc = ipx_hnet_start(&no, &b->net, err, errlen);
	if (rc != IPX_OK)
		return rc;
	ipx_hnet_hub(b->net, &hub);
	snprintf(b->hubtext, sizeof(b->hubtext), "%s:%u",
		 inet_ntop(AF_INET, &hub.sin_addr, host, sizeof(host)),
		 ntohs(hub.sin_port));
	ccfg = cfg;
	controller_config(&ccfg);
	rc = ipx_hnet_join(&hub, &ccfg, WAIT, &b->loop, &b->node, err, errlen);
	return attach(b, rc, err, errlen);
}

static void where_text(char *buf, size_t len, const struct ipx_hnet_eth *e)
{
	snprintf(buf, len, "%s%s%s", e->ifname,
		 e->netns && *e->netns ? "@" : "", e->netns ? e->netns : "");
}

int ipx_bpair_start_eth(struct ipx_bpair *b, const struct ipx_hnet_eth *ends,
			 const struct ipx_hnet_eth *ctl, char *err,
			 size_t errlen)
{
	struct ipx_hnet_opts no = { 0 };
	struct ipx_config cfg;
	int rc;

	b->hub_cpu = -1;
	b->eth = true;
	snprintf(b->hubtext, sizeof(b->hubtext), "none (Ethernet)");
	where_text(b->where[0], sizeof(b->where[0]), &ends[0]);
	where_text(b->where[1], sizeof(b->where[1]), &ends[1]);
	where_text(b->where[2], sizeof(b->where[2]), ctl);
	ipx_config_defaults(&cfg);
	no.agents = names;
	no.nagents = 2;
	no.eth = ends;
	no.cfg = &cfg;
	no.fault = getenv("IPXLAB_AGENT_FAULT");
	no.wait = WAIT;
	rc = ipx_hnet_start(&no, &b->net, err, errlen);
	if (rc != IPX_OK)
		return rc;
	controller_config(&cfg);
	rc = ipx_hnet_enter_netns(ctl->netns, err, errlen);
	if (rc == IPX_OK)
		rc = ipx_hnet_join_eth(ctl, &cfg, &b->loop, &b->node, err,
				       errlen);
	return attach(b, rc, err, errlen);
}

int ipx_bpair_pin_hub(struct ipx_bpair *b, int cpu, char *err,
		       size_t errlen)
{
	int rc = ipx_hnet_pin_hub(b->net, cpu, err, errlen);

	if (rc == IPX_OK)
		b->hub_cpu = cpu;
	return rc;
}

bool ipx_bpair_interrupted(struct ipx_bpair *b, int rc)
{
	if (rc == IPX_ECLOSED)
		return true;
	if (!b->loop)
		return false;
	if (rc != IPX_OK)
		ipx_loop_run_once(b->loop, 0);
	return ipx_loop_stopped(b->loop);
}

void ipx_bpair_stop(struct ipx_bpair *b, bool ok)
{
	ipx_hctl_free(b->ctl);	/* QUIT: the agents exit */
	b->ctl = NULL;
	ipx_node_free(b->node);
	b->node = NULL;
	ipx_loop_free(b->loop);
	b->loop = NULL;
	ipx_hnet_stop(b->net, ok ? 2 * IPX_SEC : 0);
	b->net = NULL;
}


static void fill_task(struct ipx_hctl_task *t, size_t agent,
		      enum ipx_bw_role role, int cpu,
		      const struct ipx_bw_params *p)
{
	memset(t, 0, sizeof(*t));
	t->agent = agent;
	t->role = role;
	t->cpu = cpu;
	t->params = *p;
	t->peer = role == IPX_BW_SENDER ? 1 : -1;
}

int ipx_bpair_run(struct ipx_bpair *b, const char *label, unsigned repeat,
		   const struct ipx_bw_params *p, int cpu_s, int cpu_r,
		   struct ipx_bpair_run *out, char *err, size_t errlen)
{
	struct ipx_hctl_task task[2];
	struct ipx_bw_result res[2];
	double secs = p->count ? 10 + p->count * 0.005 : p->seconds + 10;
	struct ipx_hctl_run run = {
		.label = label,
		.repeat = (uint16_t)repeat,
		.tasks = task,
		.ntasks = 2,
		.ready_timeout = 15 * IPX_SEC,
		.run_timeout = (ipx_time)(secs * IPX_SEC),
		.finish_timeout = (ipx_time)((p->drain + 10) * IPX_SEC),
	};
	struct ipx_sys_mark m0, m1;
	pid_t hub = ipx_hnet_hub_pid(b->net);
	double u0 = 0, s0 = 0, u1 = 0, s1 = 0;
	bool hub_ok;
	int c0, rc;

	if (b->progress)
		b->progress(b->progress_ctx, b, label);
	fill_task(&task[0], 0, IPX_BW_SENDER, cpu_s, p);
	fill_task(&task[1], 1, IPX_BW_RECEIVER, cpu_r, p);
	memset(out, 0, sizeof(*out));
	out->hub_cpu = -1;
	out->hub_last_cpu = -1;
	hub_ok = hub && ipx_sys_proc_cpu(hub, &u0, &s0, &c0);
	ipx_sys_mark(&m0);
	rc = ipx_hctl_run(b->ctl, &run, res, err, errlen);
	ipx_sys_mark(&m1);
	if (rc != IPX_OK)
		return rc;
	if (hub_ok &&
	    ipx_sys_proc_cpu(hub, &u1, &s1, &out->hub_last_cpu)) {
		out->hub_user = u1 - u0;
		out->hub_sys = s1 - s0;
		out->hub_cpu = out->hub_user + out->hub_sys;
	}
	ipx_sys_busy(&m0, &m1, &out->machine_busy, &out->machine_steal);
	out->wall = (double)(m1.t_ns - m0.t_ns) / 1e9;
	out->snd = res[0];
	out->rcv = res[1];
	b->spent += p->count ? 0 : p->seconds;
	return IPX_OK;
}

void ipx_bpair_reset(struct ipx_bpair *b)
{
	struct ipx_bpair keep = *b;

	memset(b, 0, sizeof(*b));
	b->name = keep.name;
	b->progress = keep.progress;
	b->progress_ctx = keep.progress_ctx;
	b->on_loop = keep.on_loop;
}
