/*
 * fsbench.c - the network the file-server benchmarks run on (fsbench.h):
 * hub and workstation agents through the harness (ipx_hnet_start), the
 * file server as a child process of this binary on a scratch volume with
 * the fixtures, found by SAP like any server, and the run's conditions.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cli.h"
#include "fsbench.h"
#include "ipxlab/err.h"
#include "ipxlab/log.h"
#include "ipxlab/ncp_client.h"
#include "ipxlab/sap.h"

#define CMD "bench"

int fsbench_opt(struct fsbench *b, int opt, const char *arg, unsigned stations,
		int *exit_code)
{
	char err[300];

	switch (opt) {
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
	case 'q':
		b->quiet = true;
		ipx_log_set_level(IPX_LOG_ERROR);
		return 1;
	case 'v':
		ipx_log_set_level(IPX_LOG_DEBUG);
		return 1;
	case FSB_OPT_FIXTURES:
		if (ipx_bn_fixtures_make(arg, stations, err, sizeof(err)) !=
		    IPX_OK) {
			cli_error(CMD, "--fixtures: %s", err);
			*exit_code = CLI_FAIL;
		} else {
			printf("fixtures for %u workstation%s written to %s "
			       "(serve it as SYS)\n",
			       stations, stations == 1 ? "" : "s", arg);
			*exit_code = CLI_OK;
		}
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
	if (b->server && !b->hub) {
		cli_error(CMD, "--server %s needs --hub HOST[:PORT]: the network "
			       "the server is on",
			  b->server);
		return CLI_USAGE;
	}
	b->progress = !b->quiet && isatty(STDERR_FILENO);
	return CLI_OK;
}

/* The scratch volume with the fixtures, and 'ipxlab server' on it. */
static int start_server(struct fsbench *b)
{
	char spec[120], err[300];
	char *argv[] = { "ipxlab", "server", "--hub", b->hubtext, "--name",
			 b->srvname, "--volume", spec, "-q", NULL };

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
	snprintf(spec, sizeof(spec), "SYS=%s", b->dir);
	b->srv = cli_spawn_self(argv);
	if (b->srv < 0) {
		cli_error(CMD, "cannot start the file server: %s",
			  strerror(errno));
		return CLI_FAIL;
	}
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

	ipx_config_defaults(&cfg);
	for (unsigned i = 0; i < b->agents; i++) {
		if (b->hub)	/* on a shared hub, names nobody else uses */
			snprintf(names[i], sizeof(names[i]), "ws%u-%d", i + 1,
				 (int)getpid());
		else
			snprintf(names[i], sizeof(names[i]), "ws%u", i + 1);
		np[i] = names[i];
	}
	no.hub = b->hub;
	no.agents = np;
	no.nagents = b->agents;
	no.cfg = &cfg;
	no.wait = wait;
	no.fault = getenv("IPXLAB_AGENT_FAULT");
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
		rc = ipx_hnet_join(&hub, &ccfg, wait, &b->loop, &b->node, err,
				   sizeof(err));
	}
	if (rc != IPX_OK) {
		cli_error(CMD, "%s: %s", b->cmd, err);
		return CLI_FAIL;
	}
	cli_stop_on_signals(b->loop);
	if (b->server)
		snprintf(b->srvname, sizeof(b->srvname), "%s", b->server);
	else if ((rc = start_server(b)) != CLI_OK)
		return rc;
	if ((rc = fsbench_find_server(b, b->srvname, &b->ro.server)) !=
	    CLI_OK)
		return rc;
	if (b->before_attach && (rc = b->before_attach(b)) != CLI_OK)
		return rc;
	rc = ipx_hctl_new(b->node, &b->ctl);
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
	return CLI_OK;
}

void fsbench_stop(struct fsbench *b, bool ok)
{
	ipx_hctl_free(b->ctl);	/* QUIT: the agents started here exit */
	b->ctl = NULL;
	ipx_node_free(b->node);
	b->node = NULL;
	ipx_loop_free(b->loop);
	b->loop = NULL;
	cli_stop_child(&b->srv);
	ipx_hnet_stop(b->net, ok ? 2 * IPX_SEC : 0);
	b->net = NULL;
	if (b->dir[0])
		cli_remove_tree(b->dir);
	b->dir[0] = '\0';
}

void fsbench_json_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(out, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(out, "\\u%04x", (unsigned char)*s);
		else
			fputc(*s, out);
	}
	fputc('"', out);
}

static const char *machine(char *buf, size_t len)
{
	struct utsname u;

	if (uname(&u) < 0)
		return "?";
	snprintf(buf, len, "%s %s %s", u.sysname, u.release, u.machine);
	return buf;
}

void fsbench_json_conditions(const struct fsbench *b, FILE *out)
{
	char m[200];

	fprintf(out, "\"version\":");
	fsbench_json_str(out, cli_version_text());
	fprintf(out, ",\"machine\":");
	fsbench_json_str(out, machine(m, sizeof(m)));
	fprintf(out, ",\"cpus_online\":%ld,\"link\":\"udp hub\",\"profile\":"
		     "null,\"hub\":",
		sysconf(_SC_NPROCESSORS_ONLN));
	fsbench_json_str(out, b->hubtext);
	fprintf(out, ",\"hub_started_here\":%s,\"server\":",
		b->hub ? "false" : "true");
	fsbench_json_str(out, b->srvname);
	fprintf(out, ",\"server_started_here\":%s,\"cpu_placement\":\"none "
		     "(the scheduler's)\",\"agents\":[",
		b->server ? "false" : "true");
	for (size_t i = 0; i < ipx_hctl_agent_count(b->ctl); i++) {
		const struct ipx_hctl_agent *g = ipx_hctl_agent_at(b->ctl, i);

		fprintf(out, "%s{\"name\":", i ? "," : "");
		fsbench_json_str(out, g->name);
		fprintf(out, ",\"pid\":%u,\"cpus\":%u}", g->pid, g->cpus);
	}
	fprintf(out, "]");
}

void fsbench_print_conditions(const struct fsbench *b, FILE *out)
{
	char m[200];

	fprintf(out, "# ipxlab %s on %s, %ld CPUs online; no CPU pinning\n",
		cli_version_text(), machine(m, sizeof(m)),
		sysconf(_SC_NPROCESSORS_ONLN));
	fprintf(out, "# hub %s (%s), today's link (no profile); file server "
		     "'%s' (%s)\n",
		b->hubtext, b->hub ? "given" : "started here", b->srvname,
		b->server ? "given" : "ipxlab server, scratch volume");
	fprintf(out, "# workstations: %zu agent(s), each its own process, IPX "
		     "node and NCP connection\n",
		ipx_hctl_agent_count(b->ctl));
}
