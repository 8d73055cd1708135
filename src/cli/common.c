/*
 * common.c - how every node-running command joins the network, plus the
 * argument parsing and printing helpers the commands share.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ipxlab/err.h"
#include "ipxlab/link_eth.h"
#include "ipxlab/link_profile.h"
#include "ipxlab/link_udp.h"
#include "ipxlab/log.h"

void cli_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "ipxlab %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int cli_parse_uint(const char *cmd, const char *what, const char *text,
		   unsigned long min, unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(text, &end, 0);
	if (!*text || *end || errno || text[0] == '-' || v < min || v > max) {
		cli_error(cmd, "%s must be a whole number from %lu to %lu "
			       "(got '%s')",
			  what, min, max, text);
		return -1;
	}
	*out = v;
	return 0;
}

int cli_profile_opt(const char *cmd, const char *option, const char *text,
		    struct ipx_profile *out)
{
	char err[300];

	if (ipx_profile_resolve(text, out, err, sizeof(err)) != IPX_OK) {
		if (option)
			cli_error(cmd, "%s: %s", option, err);
		else
			cli_error(cmd, "%s", err);
		return -1;
	}
	return 0;
}

int cli_parse_seconds(const char *cmd, const char *what, const char *text,
		      double min, double max, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(text, &end);
	if (!*text || *end || errno || !isfinite(v) || v < min || v > max) {
		cli_error(cmd, "%s must be a number of seconds from %g to %g "
			       "(got '%s')",
			  what, min, max, text);
		return -1;
	}
	*out = v;
	return 0;
}

void cli_print_escaped(FILE *out, const uint8_t *data, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		uint8_t c = data[i];

		if (c == '\\')
			fputs("\\\\", out);
		else if (c >= 0x20 && c < 0x7F)
			fputc(c, out);
		else
			fprintf(out, "\\x%02X", c);
	}
}

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

bool cli_link_failed(const struct ipx_link *link)
{
	return !strcmp(link->kind, "udp") &&
	       ipx_udp_link_error(link) != IPX_OK;
}

static int open_hub_link(const char *cmd, struct ipx_loop *loop,
			 const char *hub, const struct cli_node_opts *o,
			 struct ipx_link **out)
{
	struct ipx_udp_options uo = { 0 };
	struct sockaddr_in server;
	char err[512];
	int rc;

	if (!hub)
		hub = getenv("IPXLAB_HUB");
	if (!hub || !*hub)
		hub = "127.0.0.1";
	if (ipx_udp_resolve(hub, IPX_UDP_DEFAULT_PORT, &server, err,
			    sizeof(err)) != IPX_OK) {
		cli_error(cmd, "--hub %s", err);
		return CLI_USAGE;
	}
	uo.register_timeout = (ipx_time)(o->register_timeout * IPX_SEC);
	rc = ipx_udp_link_open(loop, &server, &uo, out);
	if (rc != IPX_OK) {
		cli_error(cmd, "cannot open the tunnel link: %s",
			  ipx_strerror(rc));
		return CLI_FAIL;
	}
	return CLI_OK;
}

int cli_eth_open(const char *cmd, struct ipx_loop *loop,
		 const struct cli_link_spec *spec, bool promisc,
		 struct ipx_link **out)
{
	struct ipx_eth_options eo = { .net = spec->net,
				      .promiscuous = promisc };
	char err[512];
	int rc;

	if (spec->frame[0] && ipx_frame_type_parse(spec->frame, &eo.frame)) {
		cli_error(cmd, "frame=%s: not a frame type (ethernet_ii, "
			       "802.3, 802.2, snap or auto)",
			  spec->frame);
		return CLI_USAGE;
	}
	rc = ipx_eth_link_open(loop, spec->where, &eo, out, err, sizeof(err));
	if (rc != IPX_OK) {
		cli_error(cmd, "%s", err);
		return CLI_FAIL;
	}
	return CLI_OK;
}

int cli_link_open(const char *cmd, struct ipx_loop *loop,
		  const struct cli_node_opts *o, bool promisc,
		  struct ipx_link **out)
{
	struct cli_link_spec spec;
	char err[512];

	if (!o->link)
		return open_hub_link(cmd, loop, o->hub, o, out);
	if (o->hub) {
		cli_error(cmd, "--hub and --link both name the network: give "
			       "one");
		return CLI_USAGE;
	}
	if (cli_link_spec_parse(o->link, &spec, err, sizeof(err)) < 0) {
		cli_error(cmd, "--link %s", err);
		return CLI_USAGE;
	}
	if (!strcmp(spec.kind, "hub")) {
		if (spec.net) {
			cli_error(cmd, "--link %s: net= is for Ethernet links "
				       "and routers (a hub gives its clients "
				       "network 0)",
				  o->link);
			return CLI_USAGE;
		}
		return open_hub_link(cmd, loop, spec.where, o, out);
	}
	return cli_eth_open(cmd, loop, &spec, promisc, out);
}

static bool link_ready(void *ctx)
{
	struct ipx_link *link = ctx;

	return link->up || cli_link_failed(link);
}

int cli_link_wait(const char *cmd, struct ipx_loop *loop,
		  const struct cli_node_opts *o, struct ipx_link *link)
{
	int rc = ipx_loop_run_until(loop, link_ready, link,
				    (ipx_time)(o->register_timeout * IPX_SEC) +
					    IPX_SEC);

	if (rc == IPX_OK && link->up)
		return CLI_OK;
	if (rc == IPX_ECLOSED)
		cli_error(cmd, "interrupted");
	else if (!cli_link_failed(link))
		cli_error(cmd, "no answer from %s",
			  o->link ? o->link : o->hub ? o->hub : "the hub");
	return CLI_FAIL;
}

int cli_capture_open(const char *cmd, struct ipx_loop *loop, const char *path,
		     struct ipx_capture **out)
{
	struct ipx_capture_options co = { .pcap_path = path };
	char err[512];

	if (ipx_capture_open(loop, &co, out, err, sizeof(err)) != IPX_OK) {
		cli_error(cmd, "--pcap %s", err);
		return CLI_FAIL;
	}
	return CLI_OK;
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
		fprintf(stderr, "ipxlab: %s\n", err);
		return CLI_FAIL;
	}
	cn->loop = ipx_loop_new(NULL);
	cn->node = cn->loop ? ipx_node_new(cn->loop, &cn->cfg) : NULL;
	if (!cn->node) {
		fprintf(stderr, "ipxlab: out of memory\n");
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
		fprintf(stderr, "ipxlab: cannot use the link: %s\n",
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
	ipx_rip_free(cn->rip);
	ipx_diag_free(cn->diag);
	ipx_ping_responder_free(cn->pong);
	ipx_node_free(cn->node);	/* closes the link */
	/* After the link: its close shows the tap its last sends. */
	if (ipx_capture_close(cn->cap) != IPX_OK)
		ipx_error("--pcap: some packets could not be written");
	ipx_loop_free(cn->loop);
	memset(cn, 0, sizeof(*cn));
}

static void on_signal(struct ipx_loop *loop, int signo, void *ctx)
{
	(void)signo;
	(void)ctx;
	ipx_loop_stop(loop);
}

void cli_stop_on_signals(struct ipx_loop *loop)
{
	static const int sigs[] = { SIGINT, SIGTERM };

	signal(SIGPIPE, SIG_IGN);
	ipx_loop_watch_signals(loop, sigs, 2, on_signal, NULL);
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
