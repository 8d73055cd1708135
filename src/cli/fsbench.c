/*
 * fsbench.c - the network the file-server benchmarks run on (fsbench.h):
 * hub and workstation agents through the harness (ipx_hnet_start), the
 * file server forked by the library (ipx_fsrv_fork) on a scratch volume
 * with the fixtures, found by SAP like any server, and the run's conditions;
 * or, with --sim, all of it in this process in simulated time
 * (bench_sim.h), with its analyzer's figures per test.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "fsbench.h"
#include "ipxlab/bench_fsnet.h"
#include "ipxlab/err.h"
#include "ipxlab/log.h"
#include "ipxlab/ncp_client.h"
#include "ipxlab/sap.h"

#define CMD "bench"
#define SIM_DEFAULT_PROFILE "eth10"

/* --agents a,b,c: distinct names of running agents. */
static int parse_agents(struct fsbench *b, const char *arg)
{
	char *save = NULL, *tok;

	if (strlen(arg) >= sizeof(b->given)) {
		cli_error(CMD, "--agents: too long (at most %d names)",
			  IPX_BN_MAX_STATIONS);
		return -1;
	}
	snprintf(b->given, sizeof(b->given), "%s", arg);
	b->ngiven = 0;
	for (tok = strtok_r(b->given, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (b->ngiven == IPX_BN_MAX_STATIONS ||
		    strlen(tok) > IPX_HARNESS_NAME_MAX) {
			cli_error(CMD, b->ngiven == IPX_BN_MAX_STATIONS
					       ? "--agents: at most %d agents"
					       : "--agents: a name has at most "
						 "%d characters",
				  b->ngiven == IPX_BN_MAX_STATIONS
					  ? IPX_BN_MAX_STATIONS
					  : IPX_HARNESS_NAME_MAX);
			return -1;
		}
		for (unsigned i = 0; i < b->ngiven; i++)
			if (!strcmp(b->names[i], tok)) {
				cli_error(CMD, "--agents: '%s' twice: each "
					       "workstation is its own agent",
					  tok);
				return -1;
			}
		b->names[b->ngiven++] = tok;
	}
	if (!b->ngiven) {
		cli_error(CMD, "--agents needs agent names, e.g. ws1,ws2");
		return -1;
	}
	return 0;
}

int fsbench_need(const struct fsbench *b, unsigned n)
{
	if (b->ngiven && n > b->ngiven) {
		cli_error(CMD, "%s: %u workstation%s wanted, --agents names "
			       "%u",
			  b->cmd, n, n == 1 ? "" : "s", b->ngiven);
		return CLI_USAGE;
	}
	return CLI_OK;
}

/* --fixtures DIR: write them and say so. The exit code. */
static int write_fixtures(const char *dir, unsigned stations)
{
	char err[300];

	if (ipx_bn_fixtures_make(dir, stations, err, sizeof(err)) != IPX_OK) {
		cli_error(CMD, "--fixtures: %s", err);
		return CLI_FAIL;
	}
	printf("fixtures for %u workstation%s written to %s (serve it as "
	       "SYS)\n",
	       stations, stations == 1 ? "" : "s", dir);
	return CLI_OK;
}

int fsbench_opt(struct fsbench *b, int opt, const char *arg, unsigned stations,
		int *exit_code)
{
	unsigned long v;

	switch (opt) {
	case FSB_OPT_PROFILE:
		if (cli_profile_opt(CMD, "--profile", arg, &b->profile) < 0)
			return -1;
		b->have_profile = true;
		return 1;
	case FSB_OPT_SIM:
		b->sim = true;
		return 1;
	case FSB_OPT_BRIDGE:
		if (cli_profile_opt(CMD, "--bridge", arg, &b->bridge) < 0)
			return -1;
		if (!b->bridge.rx_buffer || !b->bridge.tx_buffer) {
			cli_error(CMD, "--bridge %s has no bridge buffers "
				       "(rx-buffer, tx-buffer): not a WAN bridge",
				  b->bridge.name);
			return -1;
		}
		b->have_bridge = true;
		return 1;
	case FSB_OPT_SEED:
		if (cli_parse_uint(CMD, "--seed", arg, 0, UINT32_MAX, &v) < 0)
			return -1;
		b->seed = v;
		b->seed_given = true;
		return 1;
	case FSB_OPT_SERVER:
		if (!*arg || strlen(arg) > 47) {
			cli_error(CMD, "--server: a server name has 1 to 47 "
				       "characters");
			return -1;
		}
		b->server = arg;
		return 1;
	case OPT_HUB:
		b->hub = arg;
		return 1;
	case OPT_WAIT:
		return cli_parse_seconds(CMD, "--wait", arg, 0.1, 3600,
					 &b->wait) < 0 ? -1 : 1;
	case FSB_OPT_JSON:
		b->json = true;
		return 1;
	case FSB_OPT_CSV:
		b->csv = true;
		return 1;
	case FSB_OPT_AGENTS:
		return parse_agents(b, arg) < 0 ? -1 : 1;
	case FSB_OPT_REPEAT:
		if (cli_parse_uint(CMD, "--repeat", arg, 1, FSBENCH_MAX_REPEAT,
				   &v) < 0)
			return -1;
		b->repeat = (unsigned)v;
		return 1;
	case 'q':
		b->quiet = true;
		ipx_log_set_level(IPX_LOG_ERROR);
		return 1;
	case 'v':
		ipx_log_set_level(IPX_LOG_DEBUG);
		return 1;
	case FSB_OPT_FIXTURES:
		*exit_code = write_fixtures(arg, stations);
		return 2;
	default:
		return 0;
	}
}

int fsbench_parse_counts(const char *opt, const char *arg, unsigned *out,
			 size_t max, size_t *n)
{
	char *copy = strdup(arg), *save = NULL, *tok;
	unsigned long v;

	*n = 0;
	for (tok = copy ? strtok_r(copy, ",", &save) : NULL; tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (*n == max || cli_parse_uint(CMD, opt, tok, 1,
						IPX_BN_MAX_STATIONS, &v) < 0) {
			if (*n == max)
				cli_error(CMD, "%s: at most %zu counts", opt,
					  max);
			free(copy);
			return -1;
		}
		out[(*n)++] = (unsigned)v;
	}
	free(copy);
	if (!*n) {
		cli_error(CMD, "%s needs counts, e.g. 1,5", opt);
		return -1;
	}
	return 0;
}

int fsbench_parse_ops(const char *arg, bool only[IPX_BN_BATTERY_OPS])
{
	char *copy = strdup(arg), *save = NULL, *tok;
	enum ipx_bn_op op;
	int n = 0;

	memset(only, 0, IPX_BN_BATTERY_OPS * sizeof(only[0]));
	for (tok = copy ? strtok_r(copy, ",", &save) : NULL; tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (ipx_bn_op_parse(tok, &op) != IPX_OK ||
		    op >= IPX_BN_BATTERY_OPS) {
			cli_error(CMD, "--only: unknown test '%s' (see --help)",
				  tok);
			free(copy);
			return -1;
		}
		only[op] = true;
		n++;
	}
	free(copy);
	if (!n) {
		cli_error(CMD, "--only needs test names (see --help)");
		return -1;
	}
	return 0;
}

int fsbench_check(struct fsbench *b)
{
	if (b->json && b->csv) {
		cli_error(CMD, "--json and --csv exclude each other");
		return CLI_USAGE;
	}
	if (b->sim && (b->hub || b->server)) {
		cli_error(CMD, "--sim builds the whole network in this process "
			       "(its own file server and workstations): not "
			       "with %s",
			  b->hub ? "--hub" : "--server");
		return CLI_USAGE;
	}
	if (!b->sim && b->have_bridge) {
		cli_error(CMD, "--bridge is for --sim runs (in real time, 'bench "
			       "wan' builds the bridged network)");
		return CLI_USAGE;
	}
	if (!b->sim && b->seed_given) {
		cli_error(CMD, "--seed is for --sim runs only");
		return CLI_USAGE;
	}
	if (!b->sim && b->have_profile && b->hub) {
		cli_error(CMD, "--profile applies to the hub started here; give "
			       "the hub at %s its profile with 'ipxlab hub "
			       "--profile'",
			  b->hub);
		return CLI_USAGE;
	}
	if (b->sim && !b->have_profile) {
		/* an in-memory link without a profile takes no time at all */
		ipx_profile_named(SIM_DEFAULT_PROFILE, &b->profile);
		b->have_profile = b->profile_default = true;
	}
	if (b->sim && !b->seed_given)
		b->seed = 1;
	if (b->server && !b->hub) {
		cli_error(CMD, "--server %s needs --hub HOST[:PORT]: the network "
			       "the server is on",
			  b->server);
		return CLI_USAGE;
	}
	if (b->ngiven && !b->hub) {
		cli_error(CMD, "--agents needs --hub HOST[:PORT]: the network "
			       "the agents joined");
		return CLI_USAGE;
	}
	if (b->ngiven)
		b->agents = b->ngiven;
	if (!b->repeat)
		b->repeat = 1;
	b->progress = !b->quiet && isatty(STDERR_FILENO);
	return CLI_OK;
}

/* The scratch volume with the fixtures, and the file server on it (a
 * child of this process: bench_fsnet.h). */
static int start_server(struct fsbench *b)
{
	struct sockaddr_in hub;
	char err[300];

	snprintf(b->dir, sizeof(b->dir), "/tmp/ipxlab-battery.XXXXXX");
	if (!mkdtemp(b->dir)) {
		b->dir[0] = '\0';
		cli_error(CMD, "mkdtemp: %s", strerror(errno));
		return CLI_FAIL;
	}
	if (ipx_bn_fixtures_make(b->dir, b->agents, err, sizeof(err)) !=
	    IPX_OK) {
		cli_error(CMD, "fixtures: %s", err);
		return CLI_FAIL;
	}
	snprintf(b->srvname, sizeof(b->srvname), "BATTERY-%d", (int)getpid());
	ipx_hnet_hub(b->net, &hub);
	if (ipx_fsrv_fork(&hub, b->srvname, b->dir,
			  (ipx_time)(b->wait * IPX_SEC), &b->srv, err,
			  sizeof(err)) != IPX_OK) {
		cli_error(CMD, "cannot start the file server: %s", err);
		return CLI_FAIL;
	}
	return CLI_OK;
}

/* The file the hub started here records into. */
static int open_pcap(struct fsbench *b)
{
	int fd;

	snprintf(b->cap.pcap, sizeof(b->cap.pcap), "/tmp/ipxlab-wire.XXXXXX.pcap");
	fd = mkstemps(b->cap.pcap, 5);
	if (fd < 0) {
		cli_error(CMD, "mkstemps: %s", strerror(errno));
		b->cap.pcap[0] = '\0';
		return CLI_FAIL;
	}
	close(fd);
	return CLI_OK;
}

int fsbench_find_server(struct fsbench *b, const char *name,
			struct ipx_addr *out)
{
	struct ipx_sap *sap = NULL;
	struct ncp_client *cl = NULL;
	ipx_time end = ipx_loop_now(b->loop) + (ipx_time)(b->wait * IPX_SEC);
	int rc = NCP_E_NOSERVER;

	if (ipx_sap_new(b->node, NULL, &sap) != IPX_OK ||
	    ncp_client_new(b->node, NULL, &cl) != IPX_OK) {
		cli_error(CMD, "cannot open the controller's SAP and NCP "
			       "sockets");
		ncp_client_free(cl);
		ipx_sap_free(sap);
		return CLI_FAIL;
	}
	while (rc == NCP_E_NOSERVER &&
	       ipx_time_before(ipx_loop_now(b->loop), end))
		rc = ncp_find_server(cl, sap, name, 250 * IPX_MSEC, out, NULL);
	ncp_client_free(cl);
	ipx_sap_free(sap);
	if (rc) {
		cli_error(CMD, "file server '%s': %s", name, ncp_strerror(rc));
		return CLI_FAIL;
	}
	return CLI_OK;
}

/* --sim: the network of bench_sim.h, the controller already attached. */
static int start_sim(struct fsbench *b)
{
	struct ipx_bsim_opts o = { .profile = &b->profile,
				   .stations = b->agents, .seed = b->seed,
				   .name = "BATTERY-SIM",
				   .wan = b->have_bridge ? &b->bridge : NULL };
	char err[768];

	if (ipx_bsim_new(&o, &b->bsim, err, sizeof(err)) != IPX_OK) {
		cli_error(CMD, "%s --sim: %s", b->cmd, err);
		return CLI_FAIL;
	}
	b->loop = ipx_bsim_loop(b->bsim);
	b->ctl = ipx_bsim_ctl(b->bsim);
	b->ro = *ipx_bsim_run_opts(b->bsim);
	b->ro.span = &b->cap.span;
	b->nseen = ipx_hctl_agent_count(b->ctl);
	for (size_t i = 0; i < b->nseen && i < IPX_BN_MAX_STATIONS; i++)
		b->seen[i] = *ipx_hctl_agent_at(b->ctl, i);
	snprintf(b->srvname, sizeof(b->srvname), "%s",
		 ipx_bsim_server_name(b->bsim));
	snprintf(b->hubtext, sizeof(b->hubtext), "in-process");
	cli_stop_on_signals(b->loop);
	return CLI_OK;
}

/* The controller, attached to the agents np[]. CLI_ code. */
static int attach(struct fsbench *b, const char *const *np, ipx_time wait)
{
	char err[768];
	int rc = ipx_hctl_new(b->node, &b->ctl);

	if (rc == IPX_OK) {
		ipx_hctl_set_watch(b->ctl, ipx_hnet_watch, b->net);
		rc = ipx_hctl_attach(b->ctl, np, b->agents, wait, err,
				     sizeof(err));
	} else {
		snprintf(err, sizeof(err), "controller: %s", ipx_strerror(rc));
	}
	if (rc != IPX_OK) {
		cli_error(CMD, "%s: %s", b->cmd, err);
		return CLI_FAIL;
	}
	b->nseen = ipx_hctl_agent_count(b->ctl);
	for (size_t i = 0; i < b->nseen && i < IPX_BN_MAX_STATIONS; i++)
		b->seen[i] = *ipx_hctl_agent_at(b->ctl, i);
	return CLI_OK;
}

int fsbench_start(struct fsbench *b)
{
	char names[IPX_BN_MAX_STATIONS][IPX_HARNESS_NAME_MAX + 1];
	const char *np[IPX_BN_MAX_STATIONS];
	struct ipx_hnet_opts no = { 0 };
	struct ipx_config cfg, ccfg;
	struct sockaddr_in hub;
	ipx_time wait = (ipx_time)(b->wait * IPX_SEC);
	char err[768], host[32];
	int rc;

	if (b->sim)
		return start_sim(b);
	ipx_config_defaults(&cfg);
	for (unsigned i = 0; i < b->agents && !b->ngiven; i++) {
		if (b->hub)	/* on a shared hub, names nobody else uses */
			snprintf(names[i], sizeof(names[i]), "ws%u-%d", i + 1,
				 (int)getpid());
		else
			snprintf(names[i], sizeof(names[i]), "ws%u", i + 1);
		np[i] = names[i];
	}
	for (unsigned i = 0; i < b->ngiven; i++)
		np[i] = b->names[i];
	no.hub = b->hub;
	no.agents = np;
	no.nagents = b->ngiven ? 0 : b->agents;
	if (b->capture && !b->hub && (rc = open_pcap(b)) != CLI_OK)
		return rc;
	if (b->cap.pcap[0]) {	/* each packet once, headers only */
		no.pcap = b->cap.pcap;
		no.pcap_received = true;
		no.pcap_snaplen = FSBENCH_SNAPLEN;
	}
	no.cfg = &cfg;
	no.wait = wait;
	no.fault = getenv("IPXLAB_AGENT_FAULT");
	no.profile = b->have_profile ? &b->profile : NULL;
	rc = ipx_hnet_start(&no, &b->net, err, sizeof(err));
	if (rc == IPX_OK) {
		ipx_hnet_hub(b->net, &hub);
		snprintf(b->hubtext, sizeof(b->hubtext), "%s:%u",
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
		rc = ipx_hnet_join(&hub, &ccfg, wait, &b->loop, &b->node, err,
				   sizeof(err));
	}
	if (rc != IPX_OK) {
		cli_error(CMD, "%s: %s", b->cmd, err);
		return CLI_FAIL;
	}
	cli_stop_on_signals(b->loop);
	b->ro.span = &b->cap.span;	/* on the clock the hub's capture stamps */
	if (b->server)
		snprintf(b->srvname, sizeof(b->srvname), "%s", b->server);
	else if ((rc = start_server(b)) != CLI_OK)
		return rc;
	if ((rc = fsbench_find_server(b, b->srvname, &b->ro.server)) !=
	    CLI_OK)
		return rc;
	if (b->before_attach && (rc = b->before_attach(b)) != CLI_OK)
		return rc;
	return attach(b, np, wait);
}

void fsbench_stop_network(struct fsbench *b, bool ok)
{
	if (b->bsim) {	/* it owns the loop, the nodes and the controller */
		b->sim_seconds = ipx_bsim_seconds(b->bsim);
		ipx_bsim_free(b->bsim);
		b->bsim = NULL;
		b->ctl = NULL;
		b->loop = NULL;
		return;
	}
	ipx_hctl_free(b->ctl);	/* QUIT: the agents started here exit */
	b->ctl = NULL;
	ipx_node_free(b->node);
	b->node = NULL;
	ipx_loop_free(b->loop);
	b->loop = NULL;
	ipx_fsrv_stop(&b->srv);
	ipx_hnet_stop(b->net, ok ? 2 * IPX_SEC : 0);
	b->net = NULL;
}

void fsbench_stop(struct fsbench *b, bool ok)
{
	fsbench_stop_network(b, ok);
	if (b->dir[0])
		cli_remove_tree(b->dir);
	b->dir[0] = '\0';
	ipx_bfs_capture_free(&b->cap);
}

bool fsbench_interrupted(struct fsbench *b, int rc)
{
	if (rc == IPX_ECLOSED)
		return true;
	if (rc == IPX_OK || !b->loop)
		return false;
	/* Ctrl-C reaches the agents too: one that died of it may have been
	 * noticed before our own signal was read */
	if (!b->bsim)
		ipx_loop_run_once(b->loop, 0);
	return ipx_loop_stopped(b->loop);
}

void fsbench_json_str(FILE *out, const char *s)
{
	ipx_json_str(out, s);
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
			   b->bsim ? ipx_bsim_seconds(b->bsim)
				   : b->sim_seconds);
	}
	ipx_jw_str(w, "bridge", b->have_bridge ? b->bridge.name : NULL);
	ipx_jw_str(w, "hub", b->hubtext);
	ipx_jw_bool(w, "hub_started_here", !b->hub);
	ipx_jw_str(w, "server", b->srvname);
	ipx_jw_bool(w, "server_started_here", !b->server);
	ipx_jw_str(w, "cpu_placement", "none (the scheduler's)");
	ipx_jw_arr(w, "agents");
	for (size_t i = 0; i < b->nseen; i++) {
		const struct ipx_hctl_agent *g = &b->seen[i];

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

void fsbench_json_conditions(const struct fsbench *b, FILE *out)
{
	struct ipx_jw w;

	ipx_jw_resume(&w, out, '}');
	fsbench_jw_conditions(b, &w);
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
		fprintf(out, "; %.1f simulated seconds in all; only the wire "
			     "takes time (no server or workstation CPU); file "
			     "server '%s' (ipxlab's, scratch volume)\n",
			b->bsim ? ipx_bsim_seconds(b->bsim) : b->sim_seconds,
			b->srvname);
	} else {
		fprintf(out, "# hub %s (%s), %s%s%s; file server '%s' (%s)\n",
			b->hubtext, b->hub ? "given" : "started here",
			b->have_profile ? "link profile " : "today's link (no "
							    "profile)",
			b->have_profile ? b->profile.name : "",
			b->have_profile ? " (the hub's)" : "", b->srvname,
			b->server ? "given" : "ipxlab server, scratch volume");
	}
	fprintf(out, "# workstations: %zu agent(s)%s, each its own %sIPX "
		     "node and NCP connection%s\n",
		b->nseen, b->sim ? " in this process" : "",
		b->sim ? "" : "process, ",
		b->ngiven ? " (given: --agents)" : "");
}
