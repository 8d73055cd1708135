/*
 * bench_pair.c - the network, runs, progress line and conditions of the
 * two-agent benchmarks on the harness (bench_pair.h).
 */
#include "bench_pair.h"

#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "fsbench.h"
#include "ipxlab/bench_sys.h"
#include "ipxlab/err.h"

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
static int attach(struct bench_pair *b, int rc, char *err, size_t errlen)
{
	if (rc == IPX_OK) {
		cli_stop_on_signals(b->loop);
		rc = ipx_hctl_new(b->node, &b->ctl);
	}
	if (rc == IPX_OK) {
		ipx_hctl_set_watch(b->ctl, ipx_hnet_watch, b->net);
		rc = ipx_hctl_attach(b->ctl, names, 2, WAIT, err, errlen);
	}
	if (rc != IPX_OK)
		bench_pair_stop(b, false);
	return rc;
}

int bench_pair_start(struct bench_pair *b, const char *pcap, char *err,
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

int bench_pair_start_eth(struct bench_pair *b, const struct ipx_hnet_eth *ends,
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

int bench_pair_pin_hub(struct bench_pair *b, int cpu, char *err,
		       size_t errlen)
{
	int rc = ipx_hnet_pin_hub(b->net, cpu, err, errlen);

	if (rc == IPX_OK)
		b->hub_cpu = cpu;
	return rc;
}

void bench_pair_stop(struct bench_pair *b, bool ok)
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

static void progress(struct bench_pair *b, const char *label)
{
	double left = b->planned - b->spent;

	if (!b->progress)
		return;
	fprintf(stderr, "\r\033[K  bench %s: %s; about %.0f s of sending "
			"left",
		b->name, label, left > 0 ? left : 0);
	fflush(stderr);
}

void bench_pair_progress_end(struct bench_pair *b)
{
	if (b->progress)
		fprintf(stderr, "\r\033[K");
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

int bench_pair_run(struct bench_pair *b, const char *label, unsigned repeat,
		   const struct ipx_bw_params *p, int cpu_s, int cpu_r,
		   struct bench_pair_run *out, char *err, size_t errlen)
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

	progress(b, label);
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

void bench_pair_conditions(const struct bench_pair *b, const char *placement,
			   FILE *out)
{
	const struct ipx_hctl_agent *s = ipx_hctl_agent_at(b->ctl, 0);
	const struct ipx_hctl_agent *r = ipx_hctl_agent_at(b->ctl, 1);
	char m[200];

	fprintf(out, "# ipxlab %s on %s, %d CPUs online, %d allowed\n",
		cli_version_text(), cli_machine_text(m, sizeof(m)),
		ipx_bench_cpus_online(), ipx_bench_cpus_allowed());
	if (b->eth)
		fprintf(out, "# Ethernet, no hub: agents '%s' (pid %u) on %s "
			     "and '%s' (pid %u) on %s, the controller on %s; "
			     "CPU placement: %s\n",
			s->name, s->pid, b->where[0], r->name, r->pid,
			b->where[1], b->where[2], placement);
	else
		fprintf(out, "# hub %s (started here, pid %d), today's link "
			     "(no profile); agents '%s' (pid %u) and '%s' (pid "
			     "%u); CPU placement: %s\n",
			b->hubtext, (int)ipx_hnet_hub_pid(b->net), s->name,
			s->pid, r->name, r->pid, placement);
}

void bench_pair_json_conditions(const struct bench_pair *b,
				const char *placement, FILE *out)
{
	char m[200];

	fprintf(out, "\"conditions\": {\"version\": ");
	fsbench_json_str(out, cli_version_text());
	fprintf(out, ", \"machine\": ");
	fsbench_json_str(out, cli_machine_text(m, sizeof(m)));
	fprintf(out, ", \"cpus_online\": %d, \"cpus_allowed\": %d, \"link\": "
		     "\"%s\", \"profile\": null, \"hub\": \"%s\", "
		     "\"hub_pid\": %d, ",
		ipx_bench_cpus_online(), ipx_bench_cpus_allowed(),
		b->eth ? "ethernet" : "udp hub", b->hubtext,
		(int)ipx_hnet_hub_pid(b->net));
	if (b->eth) {
		fprintf(out, "\"controller_on\": ");
		fsbench_json_str(out, b->where[2]);
		fprintf(out, ", ");
	}
	fprintf(out, "\"cpu_placement\": ");
	fsbench_json_str(out, placement);
	fprintf(out, ", \"agents\": [");
	for (size_t i = 0; i < ipx_hctl_agent_count(b->ctl); i++) {
		const struct ipx_hctl_agent *g = ipx_hctl_agent_at(b->ctl, i);

		fprintf(out, "%s{\"role\": \"%s\", \"name\": ", i ? ", " : "",
			i ? "receiver" : "sender");
		fsbench_json_str(out, g->name);
		if (b->eth && i < 2) {
			fprintf(out, ", \"on\": ");
			fsbench_json_str(out, b->where[i]);
		}
		fprintf(out, ", \"pid\": %u, \"cpus\": %u}", g->pid, g->cpus);
	}
	fprintf(out, "]}");
}
