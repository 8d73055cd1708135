/*
 * common.c - how every node-running command joins the network, plus the
 * argument parsing and printing helpers the commands share.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <net/if.h>
#include <netinet/in.h>
#include <unistd.h>

#include "cli.h"
#include "ipxlab/bench_ncp.h"
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

/* The long option ARG ("--name" or "--name=value") names: exact, else
 * the only one it abbreviates; NULL if none; *ambiguous if several. */
static const struct option *long_named(const char *arg,
				       const struct option *longopts,
				       bool *ambiguous)
{
	const char *name = arg + 2;
	size_t len = strcspn(name, "=");
	const struct option *hit = NULL;
	int n = 0;

	*ambiguous = false;
	for (const struct option *o = longopts; o && o->name; o++) {
		if (strncmp(o->name, name, len))
			continue;
		if (strlen(o->name) == len)
			return o;
		hit = o;
		n++;
	}
	*ambiguous = n > 1;
	return n == 1 ? hit : NULL;
}

int cli_bad_option(const char *cmd, char **argv, const char *shortopts,
		   const struct option *longopts)
{
	/* The argument getopt stopped at: the last one it consumed, when it
	 * finished that one (a long option, or the last letter of "-xyz"). */
	const char *arg = optind > 0 ? argv[optind - 1] : NULL;
	bool ambiguous = false;
	const struct option *o = NULL;
	const char *s;

	if (arg && !strncmp(arg, "--", 2) && arg[2])
		o = long_named(arg, longopts, &ambiguous);
	if (!optopt && arg && !strncmp(arg, "--", 2)) {
		cli_error(cmd, ambiguous ? "option '%s' is ambiguous"
					 : "unrecognized option '%s'", arg);
	} else if (o && o->val == optopt) {
		if (strchr(arg, '='))
			cli_error(cmd, "option '--%s' doesn't allow an argument",
				  o->name);
		else
			cli_error(cmd, "option '--%s' requires an argument",
				  o->name);
	} else if (optopt > 0 && optopt < 128 && optopt != ':' &&
		   (s = strchr(shortopts, optopt)) && s[1] == ':') {
		cli_error(cmd, "option requires an argument -- '%c'", optopt);
	} else if (optopt > 0 && optopt < 128) {
		cli_error(cmd, "invalid option -- '%c'", optopt);
	} else {
		cli_error(cmd, "bad option '%s'", arg ? arg : "?");
	}
	cli_usage_line(stderr, cmd);
	return CLI_USAGE;
}

int cli_path_join(char *out, size_t len, const char *dir, const char *name)
{
	size_t n = strlen(dir);

	return snprintf(out, len, "%s%s%s", dir,
			n && dir[n - 1] != '/' ? "/" : "", name);
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

int cli_parse_socket(const char *cmd, const char *what, const char *text,
		     uint16_t *out)
{
	if (ipx_socket_parse(text, out) == IPX_OK && *out != 0)
		return 0;
	cli_error(cmd, "%s must be 1 to 4 hex digits, not 0 (got '%s')", what,
		  text);
	return -1;
}

int cli_profile_opt(const char *cmd, const char *option, const char *text,
		    struct ipx_profile *out)
{
	char err[600];

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

/* O_NONBLOCK belongs to the open file, which a terminal shares with the
 * shell: whoever sets it on stdin puts the original flags back at exit. */
static int stdin_saved_flags = -1;

static void stdin_restore_flags(void)
{
	if (stdin_saved_flags >= 0)
		fcntl(STDIN_FILENO, F_SETFL, stdin_saved_flags);
}

bool cli_stdin_nonblock(void)
{
	int flags = fcntl(STDIN_FILENO, F_GETFL);

	if (flags < 0)
		return false;
	if (stdin_saved_flags < 0) {
		stdin_saved_flags = flags;
		atexit(stdin_restore_flags);
	}
	fcntl(STDIN_FILENO, F_SETFL, flags | O_NONBLOCK);
	return true;
}

bool cli_stdin_watch(struct ipx_loop *loop, ipx_fd_cb cb, void *ctx)
{
	if (!cli_stdin_nonblock())
		return false;
	if (ipx_loop_add_fd(loop, STDIN_FILENO, IPX_EV_READ, cb, ctx) ==
	    IPX_OK)
		return true;
	/* Not pollable (EPERM): plain blocking reads, as it was. */
	stdin_restore_flags();
	return false;
}

struct stdin_feed {
	void (*feed)(void *ctx, const char *buf, size_t n);
	void *ctx;
	bool eof;
};

static void on_stdin_chunk(struct ipx_loop *loop, int fd, unsigned events,
			   void *ctx)
{
	struct stdin_feed *f = ctx;
	char buf[4096];
	ssize_t n = read(fd, buf, sizeof(buf));

	(void)events;
	if (n > 0) {
		f->feed(f->ctx, buf, (size_t)n);
		return;
	}
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	f->eof = true;
	ipx_loop_del_fd(loop, fd);
}

static bool stdin_ended(void *ctx)
{
	return ((struct stdin_feed *)ctx)->eof;
}

int cli_stdin_lines(struct ipx_loop *loop,
		    void (*feed)(void *ctx, const char *buf, size_t n),
		    void *ctx)
{
	struct stdin_feed f = { .feed = feed, .ctx = ctx };
	char buf[4096];
	ssize_t n;

	if (cli_stdin_watch(loop, on_stdin_chunk, &f))
		return ipx_loop_run_until(loop, stdin_ended, &f,
					  UINT64_MAX / 4);
	/* Read straight through, letting the loop run between chunks. */
	while ((n = read(STDIN_FILENO, buf, sizeof(buf))) > 0 ||
	       (n < 0 && errno == EINTR)) {
		if (n > 0)
			feed(ctx, buf, (size_t)n);
		if (ipx_loop_run_once(loop, 0) == IPX_ECLOSED ||
		    ipx_loop_stopped(loop))
			return IPX_ECLOSED;
	}
	return IPX_OK;
}

int cli_count_result(const char *cmd, unsigned long got, unsigned long want,
		     bool interrupted)
{
	if (!want || got >= want)
		return CLI_OK;
	cli_error(cmd, "%s after %lu of %lu datagram%s",
		  interrupted ? "interrupted" : "timed out", got, want,
		  want == 1 ? "" : "s");
	return CLI_FAIL;
}

/* ---- child processes of this binary (benchmarks) ---- */

pid_t cli_spawn_self(char *const argv[])
{
	pid_t pid = fork();

	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (null >= 0) {	/* errors show as the run failing */
			dup2(null, STDIN_FILENO);
			dup2(null, STDOUT_FILENO);
			dup2(null, STDERR_FILENO);
		}
		execv("/proc/self/exe", argv);
		_exit(127);
	}
	return pid;
}

void cli_stop_child(pid_t *pid)
{
	if (*pid > 0) {
		kill(*pid, SIGTERM);
		waitpid(*pid, NULL, 0);
		*pid = 0;
	}
}

int cli_free_udp_port(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t l = sizeof(a);
	int fd = socket(AF_INET, SOCK_DGRAM, 0), port = 0;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof(a)) == 0 &&
	    getsockname(fd, (struct sockaddr *)&a, &l) == 0)
		port = ntohs(a.sin_port);
	if (fd >= 0)
		close(fd);
	return port;
}

void cli_remove_tree(const char *dir)
{
	ipx_bn_fixtures_remove(dir);
}
