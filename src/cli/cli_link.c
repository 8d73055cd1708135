/*
 * cli_link.c - how a command's --hub or --link becomes an open link: the
 * link syntax KIND:WHERE[,key=value...] for hubs (hub:HOST[:PORT]) and
 * Ethernet interfaces (eth:IFACE,frame=TYPE), opening it, waiting for the
 * hub's answer, and the pcap tap.
 */
#include <arpa/inet.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <net/if.h>

#include "cli.h"
#include "ipxlab/err.h"
#include "ipxlab/link_eth.h"
#include "ipxlab/link_udp.h"

int cli_parse_hex32(const char *s, uint32_t *out)
{
	char *end;
	unsigned long long v;

	if (!*s || s[0] == '-')
		return -1;
	v = strtoull(s, &end, 16);
	if (*end || v > 0xFFFFFFFFull)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

int cli_link_spec_parse(const char *text, struct cli_link_spec *out,
			char *err, size_t errlen)
{
	char buf[512], *opt, *save = NULL, *colon;

	memset(out, 0, sizeof(*out));
	out->ticks = 1;
	if (strlen(text) >= sizeof(buf)) {
		snprintf(err, errlen, "'%.40s...' is too long", text);
		return -1;
	}
	strcpy(buf, text);
	opt = strtok_r(buf, ",", &save);
	colon = opt ? strchr(opt, ':') : NULL;
	if (!colon || colon == opt || !colon[1]) {
		snprintf(err, errlen,
			 "'%s': expected KIND:WHERE, e.g. "
			 "hub:127.0.0.1:213,net=0000AA01",
			 text);
		return -1;
	}
	*colon = '\0';
	if (strcmp(opt, "hub") != 0 && strcmp(opt, "eth") != 0) {
		snprintf(err, errlen,
			 "'%s': unknown link kind '%s' (hub or eth)", text,
			 opt);
		return -1;
	}
	strcpy(out->kind, opt);
	snprintf(out->where, sizeof(out->where), "%s", colon + 1);
	while ((opt = strtok_r(NULL, ",", &save)) != NULL) {
		char *eq = strchr(opt, '=');
		unsigned long v;
		char *end;

		if (!eq) {
			snprintf(err, errlen, "'%s': option '%s' needs =VALUE",
				 text, opt);
			return -1;
		}
		*eq++ = '\0';
		if (!strcmp(opt, "net")) {
			if (cli_parse_hex32(eq, &out->net) < 0 || out->net == 0 ||
			    out->net == 0xFFFFFFFFu) {
				snprintf(err, errlen,
					 "'%s': net must be 1 to 8 hex digits, "
					 "not 0 or FFFFFFFF",
					 text);
				return -1;
			}
		} else if (!strcmp(opt, "ticks")) {
			v = strtoul(eq, &end, 10);
			if (!*eq || *end || v < 1 || v > 1000) {
				snprintf(err, errlen,
					 "'%s': ticks must be 1 to 1000", text);
				return -1;
			}
			out->ticks = (uint16_t)v;
		} else if (!strcmp(opt, "frame") && !strcmp(out->kind, "eth")) {
			enum ipx_frame_type t;

			if (ipx_frame_type_parse(eq, &t) < 0) {
				snprintf(err, errlen,
					 "'%s': frame must be ethernet_ii, "
					 "802.3, 802.2, snap or auto",
					 text);
				return -1;
			}
			snprintf(out->frame, sizeof(out->frame), "%s", eq);
		} else {
			snprintf(err, errlen,
				 "'%s': unknown option '%s' (net, ticks%s)",
				 text, opt,
				 strcmp(out->kind, "eth") ? "" : ", frame");
			return -1;
		}
	}
	return 0;
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

void cli_no_hub(const char *cmd, const struct ipx_link *link,
		const char *where, double wait)
{
	struct sockaddr_in server;
	char ip[INET_ADDRSTRLEN] = "?";

	if (!link || strcmp(link->kind, "udp")) {
		cli_error(cmd, "no answer from %s after %g s", where, wait);
		return;
	}
	ipx_udp_link_server(link, &server);
	inet_ntop(AF_INET, &server.sin_addr, ip, sizeof(ip));
	cli_error(cmd, "no answer from an IPX tunnel server at %s:%u after "
		       "%g s (is 'ipxlab hub' or DOSBox's IPXNET STARTSERVER "
		       "running there?)",
		  ip, ntohs(server.sin_port), wait);
}

void cli_frame_hint(const char *cmd, const struct ipx_link *link,
		    double waited)
{
	char ifname[IF_NAMESIZE] = "IFACE";

	if (!link || strcmp(link->kind, "eth") ||
	    ipx_eth_link_frame(link) != IPX_FRAME_AUTO)
		return;
	if (!if_indextoname((unsigned)ipx_eth_link_ifindex(link), ifname))
		strcpy(ifname, "IFACE");
	cli_error(cmd, "%s heard no IPX frame of any type in %g s: frame=auto "
		       "sent ethernet_ii and listened for ethernet_ii, 802.3, "
		       "802.2 and snap",
		  ifname, waited);
	cli_error(cmd, "a LAN of another type answers nothing until the type "
		       "is named: try --link eth:%s,frame=802.2 (NetWare "
		       "3.12 and 4.x's default), frame=802.3 or frame=snap",
		  ifname);
}

/* After this long without an answer a terminal is told what is going on. */
#define QUIET_WAIT (300 * IPX_MSEC)

int cli_link_wait(const char *cmd, struct ipx_loop *loop,
		  const struct cli_node_opts *o, struct ipx_link *link)
{
	ipx_time wait = (ipx_time)(o->register_timeout * IPX_SEC);
	ipx_time quiet = wait < QUIET_WAIT ? wait : QUIET_WAIT;
	const char *where = o->link ? o->link : o->hub ? o->hub : "the hub";
	int rc = ipx_loop_run_until(loop, link_ready, link, quiet);

	if (rc == IPX_ETIMEOUT && wait > quiet) {
		const char *env = getenv("IPXLAB_HUB");

		if (isatty(STDERR_FILENO))
			cli_error(cmd, "waiting up to %g s (--wait) for %s%s",
				  o->register_timeout,
				  o->link ? "" : "the hub at ",
				  o->link   ? o->link
				  : o->hub  ? o->hub
				  : env && *env ? env
						: "127.0.0.1:213");
		rc = ipx_loop_run_until(loop, link_ready, link, wait - quiet);
	}
	if (link->up)
		return CLI_OK;
	if (rc == IPX_ECLOSED)
		cli_error(cmd, "interrupted");
	else
		cli_no_hub(cmd, link, where, o->register_timeout);
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
