/*
 * cmd_stack.c - "ipxlab stack": the host's IPX layer for unmodified
 * AF_IPX programs (docs/stack.md); "ipxlab run", which starts a program
 * with the shim preloaded, is cmd_run.c. The stack is one node on its
 * links (each an interface, as the kernel's were), with an optional
 * internal network.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ipxlab/err.h"
#include "ipxlab/link_eth.h"
#include "ipxlab/link_udp.h"
#include "ipxlab/log.h"
#include "ipxlab/stack.h"
#include "ipxlab/stack_proto.h"

#define STACK_MAX_LINKS 8

void help_stack(FILE *out)
{
	fprintf(out,
		"Be this host's IPX layer, as Linux's kernel IPX was: programs\n"
		"started with 'ipxlab run' get AF_IPX sockets from it. Runs until\n"
		"interrupted; SIGUSR1 prints the counters (also printed at exit).\n\n"
		"  --link SPEC         an interface (repeatable, up to 8):\n"
		"                        hub:HOST[:PORT][,net=NNNNNNNN]\n"
		"                        eth:IFACE[,frame=TYPE][,net=NNNNNNNN]\n"
		"                      (default: the hub of --hub)\n"
		"  --hub HOST[:PORT]   one hub link (default $IPXLAB_HUB or\n"
		"                      127.0.0.1:213)\n"
		"  --internal-net NET  an internal network (hex): the primary\n"
		"                      interface, node 000000000001\n"
		"  --socket PATH       where programs find the stack (default\n"
		"                      $IPXLAB_STACK, /run/ipxlab/stack for root,\n"
		"                      else $XDG_RUNTIME_DIR/ipxlab-stack or\n"
		"                      /tmp/ipxlab-stack-UID)\n"
		"  --allow-low-ports   any program may bind sockets below 0x4000\n"
		"                      (default: root or CAP_NET_ADMIN only)\n"
		"  --services          also run RIP, diagnostics and ping as an\n"
		"                      ipxlab node does (they take sockets 0x453,\n"
		"                      0x456 and 0x9086 from programs)\n"
		"  --pcap FILE         write every frame of every link to FILE\n"
		"  --config FILE       SHELL.CFG settings\n"
		"  --wait SECONDS      how long to wait for each hub (default 10)\n"
		"  -v, --verbose       more log lines; -q, --quiet fewer\n");
}

/* Linux's frame number for an ipxlab frame type. */
static uint8_t linux_frame(enum ipx_frame_type t)
{
	switch (t) {
	case IPX_FRAME_8023:
		return IPX_STACK_LFRAME_8023;
	case IPX_FRAME_8022:
		return IPX_STACK_LFRAME_8022;
	case IPX_FRAME_SNAP:
		return IPX_STACK_LFRAME_SNAP;
	default:
		return IPX_STACK_LFRAME_ETHERII;
	}
}

struct stack_cmd {
	struct cli_node cn;	/* loop, node, cfg and the optional services */
	struct ipx_stack *st;
	struct cli_link_spec specs[STACK_MAX_LINKS];
	struct ipx_link *links[STACK_MAX_LINKS];
	size_t nlinks;
};

static void on_signal(struct ipx_loop *loop, int signo, void *ctx)
{
	struct stack_cmd *s = ctx;

	if (signo != SIGUSR1) {
		ipx_loop_stop(loop);
		return;
	}
	ipx_stack_print(s->st, stderr);
	ipx_node_print_stats(s->cn.node, stderr, false);
	fflush(stderr);
}

static bool all_up(void *ctx)
{
	struct stack_cmd *s = ctx;

	for (size_t i = 0; i < s->nlinks; i++)
		if (!s->links[i]->up && !cli_link_failed(s->links[i]))
			return false;
	return true;
}

/* Open every link (a hub's in the background), then wait for them. */
static int open_links(struct stack_cmd *s, double wait)
{
	struct ipx_udp_options uo = { .register_timeout =
					      (ipx_time)(wait * IPX_SEC) };
	char err[512];
	int rc;

	for (size_t i = 0; i < s->nlinks; i++) {
		struct cli_link_spec *sp = &s->specs[i];
		struct sockaddr_in hub;

		if (!strcmp(sp->kind, "eth")) {
			rc = cli_eth_open("stack", s->cn.loop, sp, false,
					  &s->links[i]);
		} else if (ipx_udp_resolve(sp->where, IPX_UDP_DEFAULT_PORT,
					   &hub, err, sizeof(err)) != IPX_OK) {
			cli_error("stack", "--link %s", err);
			rc = CLI_USAGE;
		} else {
			rc = ipx_udp_link_open(s->cn.loop, &hub, &uo,
					       &s->links[i]) == IPX_OK
				     ? CLI_OK
				     : CLI_FAIL;
			if (rc != CLI_OK)
				cli_error("stack", "cannot open the tunnel to %s",
					  sp->where);
		}
		if (rc != CLI_OK)
			return rc;
		if (s->cn.cap)
			ipx_capture_attach(s->cn.cap, s->links[i]);
		if (ipx_node_add_link(s->cn.node, s->links[i]) != IPX_OK) {
			ipx_link_close(s->links[i]);
			cli_error("stack", "cannot add link %zu", i + 1);
			return CLI_FAIL;
		}
	}
	ipx_loop_run_until(s->cn.loop, all_up, s, uo.register_timeout + IPX_SEC);
	for (size_t i = 0; i < s->nlinks; i++) {
		struct cli_link_spec *sp = &s->specs[i];
		char name[IPX_STACK_DEVLEN + 1];
		bool eth = !strcmp(sp->kind, "eth");

		if (!s->links[i]->up) {
			cli_error("stack", "%s %s did not come up", sp->kind,
				  sp->where);
			return CLI_FAIL;
		}
		if (sp->net)
			s->links[i]->net = sp->net;
		if (eth)
			snprintf(name, sizeof(name), "%.16s", sp->where);
		else
			snprintf(name, sizeof(name), "hub%u", (unsigned)i);
		ipx_stack_add_device(s->st, s->links[i], name,
				     eth ? linux_frame(ipx_eth_link_frame(
						   s->links[i]))
					 : IPX_STACK_LFRAME_ETHERII);
	}
	return CLI_OK;
}

static int parse_net(const char *text, uint32_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(text, &end, 16);
	if (!*text || *end || errno || text[0] == '-' || v == 0 ||
	    v >= 0xFFFFFFFFull) {
		cli_error("stack", "--internal-net must be 1 to 8 hex digits, "
				   "not 0 or FFFFFFFF (got '%s')",
			  text);
		return -1;
	}
	*out = (uint32_t)v;
	return 0;
}

enum { OPT_INTERNAL = OPT_FIRST_CMD, OPT_SOCKET, OPT_LOW,
       OPT_SERVICES };

static void stack_close(struct stack_cmd *s)
{
	ipx_stack_free(s->st);
	if (s->cn.node) {
		ipx_rip_free(s->cn.rip);
		ipx_diag_free(s->cn.diag);
		ipx_ping_responder_free(s->cn.pong);
		ipx_node_free(s->cn.node);
	}
	/* After the links: their close shows the tap their last sends. */
	if (ipx_capture_close(s->cn.cap) != IPX_OK)
		ipx_error("--pcap: some packets could not be written");
	ipx_loop_free(s->cn.loop);
}

static int stack_run(struct stack_cmd *s, const struct cli_node_opts *no,
		     struct ipx_stack_options *so, uint32_t internal,
		     bool services)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGUSR1 };
	char err[512];
	struct ipx_addr a;
	int rc;

	ipx_config_defaults(&s->cn.cfg);
	if (no->config &&
	    ipx_config_load(&s->cn.cfg, no->config, err, sizeof(err)) != IPX_OK) {
		fprintf(stderr, "ipxlab: %s\n", err);
		return CLI_FAIL;
	}
	s->cn.cfg.ipx_sockets = 150;	/* the most a node allows */
	s->cn.loop = ipx_loop_new(NULL);
	s->cn.node = s->cn.loop ? ipx_node_new(s->cn.loop, &s->cn.cfg) : NULL;
	if (!s->cn.node) {
		fprintf(stderr, "ipxlab: out of memory\n");
		return CLI_FAIL;
	}
	signal(SIGPIPE, SIG_IGN);
	ipx_loop_watch_signals(s->cn.loop, sigs, 3, on_signal, s);
	if (no->pcap && (rc = cli_capture_open("stack", s->cn.loop, no->pcap,
					       &s->cn.cap)) != CLI_OK)
		return rc;
	if (ipx_stack_new(s->cn.node, so, &s->st, err, sizeof(err)) != IPX_OK) {
		cli_error("stack", "%s", err);
		return CLI_FAIL;
	}
	if ((rc = open_links(s, no->register_timeout)) != CLI_OK)
		return rc;
	if (internal && ipx_node_set_internal_net(s->cn.node, internal) !=
				IPX_OK) {
		cli_error("stack", "--internal-net %08X is a link's network",
			  (unsigned)internal);
		return CLI_USAGE;
	}
	ipx_stack_announce(s->st);
	if (services)
		cli_node_services(&s->cn);
	ipx_node_address(s->cn.node, &a);
	ipx_info("stack: listening on %s; primary interface %08X:%s",
		 so->path, (unsigned)a.net, ipx_node_format(a.node, err));
	fprintf(stderr, "stack ready on %s\n", so->path);
	rc = ipx_loop_run(s->cn.loop);
	ipx_stack_print(s->st, stderr);
	ipx_node_print_stats(s->cn.node, stderr, false);
	return rc == IPX_OK || rc == IPX_ECLOSED ? CLI_OK : CLI_FAIL;
}

/* One option of the stack's own: CLI_OK, CLI_USAGE after a message, -1
 * if not one. */
static int stack_opt(struct stack_cmd *s, struct ipx_stack_options *so,
		     int opt, const char *arg, uint32_t *internal,
		     bool *services)
{
	char err[512];

	switch (opt) {
	case OPT_NODE_LINK:
		if (s->nlinks == STACK_MAX_LINKS) {
			cli_error("stack", "at most %d links", STACK_MAX_LINKS);
			return CLI_USAGE;
		}
		if (cli_link_spec_parse(arg, &s->specs[s->nlinks], err,
					sizeof(err)) < 0) {
			cli_error("stack", "--link %s", err);
			return CLI_USAGE;
		}
		s->nlinks++;
		return CLI_OK;
	case OPT_INTERNAL:
		return parse_net(arg, internal) < 0 ? CLI_USAGE : CLI_OK;
	case OPT_SOCKET:
		so->path = arg;
		return CLI_OK;
	case OPT_LOW:
		so->allow_low_ports = true;
		return CLI_OK;
	case OPT_SERVICES:
		*services = true;
		return CLI_OK;
	default:
		return -1;
	}
}

int cmd_stack(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "internal-net", required_argument, NULL, OPT_INTERNAL },
		{ "socket", required_argument, NULL, OPT_SOCKET },
		{ "allow-low-ports", no_argument, NULL, OPT_LOW },
		{ "services", no_argument, NULL, OPT_SERVICES },
		CLI_NODE_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	static struct stack_cmd s;	/* large; one per process */
	struct cli_node_opts no;
	struct ipx_stack_options so = { 0 };
	char path[108];
	uint32_t internal = 0;
	bool services = false;
	int opt, rc;

	memset(&s, 0, sizeof(s));
	cli_node_opts_init(&no);
	optind = 1;
	while ((opt = getopt_long(argc, argv, "vqh", longopts, NULL)) != -1) {
		int o = opt == OPT_NODE_LINK
				? 0
				: cli_node_opt(&no, argv[0], opt, optarg);

		if (o < 0)
			return CLI_USAGE;
		if (o > 0)
			continue;
		if (opt == 'h') {
			cli_usage_line(stdout, "stack");
			help_stack(stdout);
			return CLI_OK;
		}
		rc = stack_opt(&s, &so, opt, optarg, &internal, &services);
		if (rc == CLI_OK)
			continue;
		if (rc < 0)
			return cli_bad_option("stack", argv, "vqh", longopts);
		return rc;
	}
	if (optind < argc) {
		cli_error("stack", "unexpected argument '%s'", argv[optind]);
		return CLI_USAGE;
	}
	if (no.hub && s.nlinks == STACK_MAX_LINKS) {
		cli_error("stack", "at most %d links", STACK_MAX_LINKS);
		return CLI_USAGE;
	}
	if (no.hub || !s.nlinks) {
		const char *hub = no.hub ? no.hub : getenv("IPXLAB_HUB");

		snprintf(s.specs[s.nlinks].kind, sizeof(s.specs[0].kind), "hub");
		snprintf(s.specs[s.nlinks].where, sizeof(s.specs[0].where), "%s",
			 hub && *hub ? hub : "127.0.0.1");
		s.nlinks++;
	}
	if (!so.path) {
		if (ipx_stack_default_path(path, sizeof(path)) < 0) {
			cli_error("stack", "$IPXLAB_STACK is too long for a "
					   "socket path");
			return CLI_USAGE;
		}
		so.path = path;
	}
	rc = stack_run(&s, &no, &so, internal, services);
	stack_close(&s);
	return rc;
}
