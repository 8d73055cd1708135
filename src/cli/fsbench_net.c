/*
 * fsbench_net.c - the file-server benchmarks' network from the command's
 * side (fsbench.h): the options parsed handed to the library
 * (bench_fsnet.h: built, windowed and stopped there), its errors printed,
 * the progress line, and the run's conditions as "# " lines and as JSON
 * members.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "fsbench.h"
#include "ipxlab/err.h"
#include "ipxlab/log.h"

#define CMD "bench"

/* --agents a,b,c: distinct names of running agents. */
int fsbench_start(struct fsbench *b)
{
	struct ipx_fsnet_opts *o = &b->n.o;
	char err[768];

	memset(&b->n, 0, sizeof(b->n));
	o->name = b->cmd;
	o->hub = b->hub;
	o->server = b->server;
	o->wait = b->wait;
	o->agents = b->agents;
	o->given = b->names;
	o->ngiven = b->ngiven;
	o->capture = b->capture;
	o->have_profile = b->have_profile;
	o->profile = b->profile;
	o->sim = b->sim;
	o->seed = b->seed;
	o->have_bridge = b->have_bridge;
	o->bridge = b->bridge;
	o->period = b->have_period ? &b->period : NULL;
	o->fault = getenv("IPXLAB_AGENT_FAULT");
	o->far = b->far;
	o->far_max_buffer = b->far_max_buffer;
	o->stop_on_signals = true;
	if (ipx_fsnet_start(&b->n, err, sizeof(err)) != IPX_OK) {
		cli_error(CMD, "%s", err);
		return CLI_FAIL;
	}
	return CLI_OK;
}

int fsbench_main(struct fsbench *b, unsigned need, int (*run)(void *ctx),
		 void *ctx)
{
	int rc = fsbench_check(b);

	if (rc == CLI_OK && need)
		rc = fsbench_need(b, need);
	if (rc != CLI_OK)
		return rc;
	if (ipx_log_get_level() == IPX_LOG_INFO)
		ipx_log_set_level(IPX_LOG_WARN);
	rc = fsbench_start(b);
	if (rc == CLI_OK)
		rc = run(ctx);
	fsbench_stop(b, rc == CLI_OK);
	return rc;
}

int fsbench_today(const struct fsbench *b, unsigned stations,
		  int (*run)(struct fsbench *today, void *ctx), void *ctx)
{
	struct fsbench *t = malloc(sizeof(*t));
	int rc;

	if (!t) {
		cli_error(CMD, "out of memory");
		return CLI_FAIL;
	}
	*t = *b;	/* its network is its own: fsbench_start clears it */
	t->have_period = false;
	t->agents = stations;
	rc = fsbench_start(t);
	if (rc == CLI_OK)
		rc = run(t, ctx);
	fsbench_stop(t, rc == CLI_OK);
	free(t);
	return rc;
}

void fsbench_no_fidelity(const struct fsbench *b, const char *bench,
			 FILE *out)
{
	if (b->have_period && !b->json && !b->csv)
		fprintf(out, "No fidelity table: the 1990 note published no "
			     "figures of %s's own (period %s ran on its "
			     "machines all the same).\n",
			bench, b->period.name);
}

void fsbench_stop(struct fsbench *b, bool ok)
{
	ipx_fsnet_stop(&b->n, ok);
}

bool fsbench_interrupted(struct fsbench *b, int rc)
{
	return ipx_fsnet_interrupted(&b->n, rc);
}

void fsbench_net(struct fsbench *b, struct ipx_bfs_net *out)
{
	ipx_fsnet_bfs(&b->n, out);
}

int fsbench_wire_collect(struct fsbench *b)
{
	char err[600];

	if (ipx_fsnet_collect(&b->n, err, sizeof(err)) != IPX_OK) {
		cli_error(CMD, "%s", err);
		return CLI_FAIL;
	}
	return CLI_OK;
}

void fsbench_jw_conditions(const struct fsbench *b, struct ipx_jw *w)
{
	char m[200];

	ipx_jw_str(w, "version", cli_version_text());
	ipx_jw_str(w, "machine", cli_machine_text(m, sizeof(m)));
	ipx_jw_int(w, "cpus_online", sysconf(_SC_NPROCESSORS_ONLN));
	ipx_jw_str(w, "link", b->sim ? "in-memory segment" : "udp hub");
	ipx_jw_str(w, "profile", b->have_profile ? b->profile.name : NULL);
	ipx_jw_bool(w, "profile_default", b->profile_default);
	ipx_jw_bool(w, "simulated", b->sim);
	if (b->sim) {
		ipx_jw_u64(w, "seed", b->seed);
		ipx_jw_dbl(w, "simulated_seconds", "%.6f",
			   ipx_fsnet_sim_seconds(&b->n));
	}
	ipx_jw_str(w, "bridge", b->have_bridge ? b->bridge.name : NULL);
	if (b->have_period) {
		ipx_jw_str(w, "period", b->period.name);
		ipx_jw_str(w, "period_server", b->period.server.name);
		ipx_jw_str(w, "period_station", b->period.station.name);
	}
	ipx_jw_str(w, "hub", b->n.hubtext);
	ipx_jw_bool(w, "hub_started_here", !b->hub);
	ipx_jw_str(w, "server", b->n.srvname);
	ipx_jw_bool(w, "server_started_here", !b->server);
	ipx_jw_str(w, "cpu_placement", "none (the scheduler's)");
	ipx_jw_arr(w, "agents");
	for (size_t i = 0; i < b->n.nseen; i++) {
		const struct ipx_hctl_agent *g = &b->n.seen[i];

		ipx_jw_obj(w, NULL);
		ipx_jw_str(w, "name", g->name);
		if (b->sim) {	/* one process: no pid, so runs compare */
			ipx_jw_bool(w, "in_process", true);
		} else {
			ipx_jw_u64(w, "pid", g->pid);
			ipx_jw_u64(w, "cpus", g->cpus);
		}
		ipx_jw_end(w);
	}
	ipx_jw_end(w);
}

void fsbench_jw_cond(struct ipx_jw *w, const void *b)
{
	fsbench_jw_conditions(b, w);
}

void fsbench_progress(void *ctx, const char *line)
{
	const struct fsbench *b = ctx;

	if (!b->progress)
		return;
	if (line)
		fprintf(stderr, "\r\033[K  %s", line);
	else
		fprintf(stderr, "\r\033[K");
}

void fsbench_print_conditions(const struct fsbench *b, FILE *out)
{
	char m[200];

	fprintf(out, "# ipxlab %s on %s, %ld CPUs online; no CPU pinning\n",
		cli_version_text(), cli_machine_text(m, sizeof(m)),
		sysconf(_SC_NPROCESSORS_ONLN));
	if (b->sim) {
		if (b->have_bridge)
			fprintf(out, "# simulated time, seed %llu: the file "
				     "server alone on one in-memory segment, "
				     "workstations and controller on another, "
				     "joined by WAN bridge modules of profile %s "
				     "(IPX packets of at most %u bytes); both "
				     "segments of profile %s%s",
				(unsigned long long)b->seed, b->bridge.name,
				(unsigned)b->bridge.bridge_max, b->profile.name,
				b->profile_default ? " (--sim's default)" : "");
		else
			fprintf(out, "# simulated time, seed %llu: server, "
				     "workstations and controller in this process "
				     "on one in-memory segment, profile %s%s",
				(unsigned long long)b->seed, b->profile.name,
				b->profile_default ? " (--sim's default)" : "");
		if (b->have_period)
			fprintf(out, "; %.1f simulated seconds in all; period "
				     "%s: the file server on %s, the "
				     "workstations on %s (CPU, disk and adapters "
				     "take time; IPX packets of at most %u "
				     "bytes from a workstation); file server "
				     "'%s' (ipxlab's, scratch volume)\n",
				ipx_fsnet_sim_seconds(&b->n), b->period.name,
				b->period.server.name, b->period.station.name,
				(unsigned)(b->period.max_packet
						   ? b->period.max_packet
						   : b->profile.max_frame -
							     b->profile.header),
				b->n.srvname);
		else
			fprintf(out, "; %.1f simulated seconds in all; only the "
				     "wire takes time (no server or workstation "
				     "CPU); file server '%s' (ipxlab's, scratch "
				     "volume)\n",
				ipx_fsnet_sim_seconds(&b->n), b->n.srvname);
	} else {
		fprintf(out, "# hub %s (%s), %s%s%s; file server '%s' (%s)\n",
			b->n.hubtext, b->hub ? "given" : "started here",
			b->have_profile ? "link profile " : "today's link (no "
							    "profile)",
			b->have_profile ? b->profile.name : "",
			b->have_profile ? " (the hub's)" : "", b->n.srvname,
			b->server ? "given" : "ipxlab server, scratch volume");
	}
	fprintf(out, "# workstations: %zu agent(s)%s, each its own %sIPX "
		     "node and NCP connection%s\n",
		b->n.nseen, b->sim ? " in this process" : "",
		b->sim ? "" : "process, ",
		b->ngiven ? " (given: --agents)" : "");
}
