/*
 * cli_node.c - how every node-running command joins the network: the
 * node options (--hub, --link, --pcap, --config, --wait, -v, -q), the node
 * opened on its link and closed, signals, and the address and client
 * socket helpers the datagram commands share.
 */
#include <arpa/inet.h>
#include <getopt.h>
#include <signal.h>
#include <string.h>

#include "cli.h"
#include "ipxlab/err.h"
#include "ipxlab/link_udp.h"
#include "ipxlab/log.h"

void cli_node_opts_init(struct cli_node_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->register_timeout = 10;
}

int cli_node_opt(struct cli_node_opts *o, const char *cmd, int opt,
		 const char *arg)
{
	switch (opt) {
	case OPT_HUB:
		o->hub = arg;
		return 1;
	case OPT_NODE_LINK:
		o->link = arg;
		return 1;
	case OPT_PCAP:
		o->pcap = arg;
		return 1;
	case OPT_CONFIG:
		o->config = arg;
		return 1;
	case OPT_WAIT:
		return cli_parse_seconds(cmd, "--wait", arg, 0.1, 3600,
					 &o->register_timeout) < 0
			       ? -1
			       : 1;
	case 'v':
		ipx_log_set_level(IPX_LOG_DEBUG);
		return 1;
	case 'q':
		ipx_log_set_level(IPX_LOG_ERROR);
		return 1;
	default:
		return 0;
	}
}

void cli_opts_init(struct cli_opts *o, const char *cmd, const char *shortopts,
		   const struct option *longopts, void (*help)(FILE *out))
{
	memset(o, 0, sizeof(*o));
	o->cmd = cmd;
	o->shortopts = shortopts;
	o->longopts = longopts;
	o->help = help;
	cli_node_opts_init(&o->node);
	optind = 1;
}

int cli_opts_bad(const struct cli_opts *o, char **argv)
{
	return cli_bad_option(o->cmd, argv, o->shortopts, o->longopts);
}

int cli_next_opt(struct cli_opts *o, int argc, char **argv)
{
	int opt, r;

	while ((opt = getopt_long(argc, argv, o->shortopts, o->longopts,
				  NULL)) != -1) {
		r = cli_node_opt(&o->node, argv[0], opt, optarg);
		if (r < 0) {
			o->rc = CLI_USAGE;
			return CLI_OPTS_EXIT;
		}
		if (r > 0)
			continue;
		if (opt == 'h') {
			cli_usage_line(stdout, o->cmd);
			o->help(stdout);
			o->rc = CLI_OK;
			return CLI_OPTS_EXIT;
		}
		if (opt == '?' || opt == ':') {
			o->rc = cli_opts_bad(o, argv);
			return CLI_OPTS_EXIT;
		}
		return opt;
	}
	return CLI_OPTS_END;
}

/* -v: where the node is, once it has joined. */
static void say_joined(const struct cli_node *cn, const struct cli_node_opts *o)
{
	char a[IPX_ADDR_STRLEN], ip[INET_ADDRSTRLEN] = "?";
	struct sockaddr_in server;

	if (!strcmp(cn->link->kind, "udp")) {
		ipx_udp_link_server(cn->link, &server);
		inet_ntop(AF_INET, &server.sin_addr, ip, sizeof(ip));
		cli_error(cli_current, "node %s on the hub at %s:%u (mtu %zu)",
			  ipx_addr_format(&cn->addr, a), ip,
			  ntohs(server.sin_port), cn->link->mtu);
	} else {
		cli_error(cli_current, "node %s on %s (mtu %zu)",
			  ipx_addr_format(&cn->addr, a),
			  o->link ? o->link : cn->link->kind, cn->link->mtu);
	}
}

/* -v: what the node did, at exit. */
static void say_counters(const struct cli_node *cn)
{
	const struct ipx_node_stats *st = ipx_node_stats(cn->node);
	const struct ipx_link_stats *ls = &cn->link->stats;
	uint64_t drops = 0;

	for (int d = 0; d < IPX_DROP_COUNT; d++)
		drops += st->drops[d];
	cli_error(cli_current, "sent %llu packets (%llu bytes), received %llu "
			       "(%llu bytes), %llu to our sockets, %llu "
			       "dropped; link tx %llu rx %llu errors %llu/%llu",
		  (unsigned long long)st->tx_packets,
		  (unsigned long long)st->tx_bytes,
		  (unsigned long long)st->rx_packets,
		  (unsigned long long)st->rx_bytes,
		  (unsigned long long)st->delivered,
		  (unsigned long long)drops,
		  (unsigned long long)ls->tx_packets,
		  (unsigned long long)ls->rx_packets,
		  (unsigned long long)ls->tx_errors,
		  (unsigned long long)ls->rx_errors);
	for (int d = 0; d < IPX_DROP_COUNT; d++)
		if (st->drops[d])
			cli_error(cli_current, "  drop %s %llu (%s)",
				  ipx_drop_name((enum ipx_drop)d),
				  (unsigned long long)st->drops[d],
				  ipx_drop_desc((enum ipx_drop)d));
}

int cli_node_open(struct cli_node *cn, const struct cli_node_opts *o)
{
	char err[512];
	int rc;

	memset(cn, 0, sizeof(*cn));
	if (o->base)
		cn->cfg = *o->base;
	else
		ipx_config_defaults(&cn->cfg);
	if (o->config &&
	    ipx_config_load(&cn->cfg, o->config, err, sizeof(err)) != IPX_OK) {
		cli_error(cli_current, "%s", err);
		return CLI_FAIL;
	}
	cn->loop = ipx_loop_new(NULL);
	cn->node = cn->loop ? ipx_node_new(cn->loop, &cn->cfg) : NULL;
	if (!cn->node) {
		cli_error(cli_current, "out of memory");
		cli_node_close(cn);
		return CLI_FAIL;
	}
	if (o->pcap && (rc = cli_capture_open(cli_current, cn->loop, o->pcap,
					      &cn->cap)) != CLI_OK) {
		cli_node_close(cn);
		return rc;
	}
	rc = cli_link_open(cli_current, cn->loop, o, false, &cn->link);
	if (rc != CLI_OK) {
		cli_node_close(cn);
		return rc;
	}
	if (cn->cap)
		ipx_capture_attach(cn->cap, cn->link);
	rc = ipx_node_add_link(cn->node, cn->link);
	if (rc != IPX_OK) {
		cli_error(cli_current, "cannot use the link: %s",
			  ipx_strerror(rc));
		ipx_link_close(cn->link);
		cli_node_close(cn);
		return CLI_FAIL;
	}
	cli_stop_on_signals(cn->loop);
	rc = cli_link_wait(cli_current, cn->loop, o, cn->link);
	if (rc != CLI_OK) {
		cli_node_close(cn);
		return rc;
	}
	ipx_node_address(cn->node, &cn->addr);
	cli_node_services(cn);
	if (ipx_log_get_level() >= IPX_LOG_DEBUG)
		say_joined(cn, o);
	return CLI_OK;
}

void cli_node_services(struct cli_node *cn)
{
	int rc = ipx_rip_new(cn->node, NULL, &cn->rip);

	/* A node without them still works: say so and go on. */
	if (rc != IPX_OK)
		ipx_warn("RIP not started (no routing): %s", ipx_strerror(rc));
	rc = ipx_diag_new(cn->node, &cn->diag);
	if (rc != IPX_OK)
		ipx_warn("diagnostics responder not started: %s",
			 ipx_strerror(rc));
	rc = ipx_ping_responder_new(cn->node, &cn->pong);
	if (rc != IPX_OK)
		ipx_warn("ping responder not started: %s", ipx_strerror(rc));
}

static bool nothing_pending(void *ctx)
{
	return ipx_node_pending(ctx) == 0;
}

void cli_node_close(struct cli_node *cn)
{
	/* Datagrams accepted but waiting for a route get their chance. */
	if (cn->node && ipx_node_pending(cn->node)) {
		ipx_loop_run_until(cn->loop, nothing_pending, cn->node,
				   3 * IPX_SEC);
		ipx_loop_run_once(cn->loop, 0);
	}
	if (cn->node && cn->link && ipx_log_get_level() >= IPX_LOG_DEBUG)
		say_counters(cn);
	ipx_rip_free(cn->rip);
	ipx_diag_free(cn->diag);
	ipx_ping_responder_free(cn->pong);
	ipx_node_free(cn->node);	/* closes the link */
	/* After the link: its close shows the tap its last sends. */
	if (ipx_capture_close(cn->cap) != IPX_OK)
		cli_error(cli_current, "--pcap: some packets could not be "
				       "written");
	ipx_loop_free(cn->loop);
	memset(cn, 0, sizeof(*cn));
}

static void on_signal(struct ipx_loop *loop, int signo, void *ctx)
{
	(void)signo;
	(void)ctx;
	ipx_loop_stop(loop);
}

static const int stop_sigs[] = { SIGINT, SIGTERM };

void cli_stop_on_signals(struct ipx_loop *loop)
{
	signal(SIGPIPE, SIG_IGN);
	ipx_loop_watch_signals(loop, stop_sigs, 2, on_signal, NULL);
}

void cli_hold_stop_signals(void)
{
	ipx_loop_hold_signals(stop_sigs, 2);
}

void on_datagram_ignore(struct ipx_socket *sock, const struct ipx_header *hdr,
			const uint8_t *data, size_t len, void *ctx)
{
	(void)sock;
	(void)hdr;
	(void)data;
	(void)len;
	(void)ctx;
}

int cli_parse_target(const char *cmd, const char *text, uint16_t socket,
		     struct ipx_addr *out)
{
	char buf[64];

	if (ipx_addr_parse(text, out) == IPX_OK)
		return 0;
	snprintf(buf, sizeof(buf), "%s%c%X", text,
		 strchr(text, '.') ? '.' : ':', socket);
	if (strlen(text) < 40 && ipx_addr_parse(buf, out) == IPX_OK)
		return 0;
	cli_error(cmd, "'%s' is not an IPX address (NET:NODE[:SOCKET], hex)",
		  text);
	return -1;
}

int cli_open_client_socket(struct ipx_node *node, ipx_recv_cb cb, void *ctx,
			   struct ipx_socket **out)
{
	struct ipx_socket *held[2] = { NULL, NULL };
	size_t nheld = 0;
	int rc;

	for (;;) {
		rc = ipx_socket_open(node, 0, cb, ctx, out);
		if (rc != IPX_OK || nheld == 2 ||
		    (ipx_socket_number(*out) != 0x4001 &&
		     ipx_socket_number(*out) != 0x4003))
			break;
		held[nheld++] = *out;	/* keep it taken while we look on */
	}
	for (size_t i = 0; i < nheld; i++)
		if (rc != IPX_OK || held[i] != *out)
			ipx_socket_close(held[i]);
	return rc;
}
