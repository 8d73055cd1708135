/*
 * cmd_hub.c - "ipxlab hub": run the DOSBox-compatible tunnel server until
 * interrupted. SIGUSR1 prints the counters; they are printed at exit too.
 * --bridge joins an Ethernet segment to the tunnel (bridge.h); --pcap
 * records both directions of the tunnel and the segment's frames.
 */
#include <arpa/inet.h>
#include <getopt.h>
#include <signal.h>
#include <string.h>

#include "cli.h"
#include "ipxlab/bridge.h"
#include "ipxlab/err.h"
#include "ipxlab/hub_capture.h"
#include "ipxlab/link_eth.h"
#include "ipxlab/log.h"

void help_hub(FILE *out)
{
	fprintf(out,
		"Relay IPX between DOSBox (IPXNET CONNECT), ipxwrapper and ipxlab\n"
		"nodes. Runs until interrupted; SIGUSR1 prints the counters.\n\n"
		"  --port PORT          UDP port to serve on (default 213)\n"
		"  --bind ADDR          IPv4 address to serve on (default 0.0.0.0)\n"
		"  --keepalive SECONDS  ping a client silent this long (default 5)\n"
		"  --idle-timeout SECONDS\n"
		"                       forget a client silent this long (default 120)\n"
		"  --bridge IFACE       bridge the tunnel to this Ethernet interface:\n"
		"                       clients and the LAN's stations see one IPX\n"
		"                       network (root or CAP_NET_RAW; promiscuous)\n"
		"  --frame TYPE         the LAN's frame type: ethernet_ii, 802.3,\n"
		"                       802.2, snap, or auto (default: learn it)\n"
		"  --allow-bridge ADDR|none\n"
		"                       only clients from this IPv4 address may be\n"
		"                       bridge ports (repeat for more; 'none': no\n"
		"                       client may; default: any; see\n"
		"                       %s/hub.md)\n"
		"  --max-clients N      at most N clients (default %d); further\n"
		"                       registrations are refused and counted\n"
		"  --register-rate N    new clients from one IPv4 /24 network: N a\n"
		"                       second (default %d; 0: no limit), after a\n"
		"                       burst of --register-burst (default %d)\n"
		"  --register-burst N\n"
		"  --pcap FILE          write every packet in and out to FILE\n"
		"  --profile NAME|FILE  be one segment of this kind: eth10 (10 Mbit/s\n"
		"                       shared Ethernet), tr4, tr16 (Token-Ring), isn,\n"
		"                       or a profile file (see\n"
		"                       %s/links.md)\n"
		"  -v, --verbose / -q, --quiet\n",
		cli_docs, IPX_HUB_MAX_CLIENTS, IPX_HUB_REG_RATE, IPX_HUB_REG_BURST,
		cli_docs);
}

struct hub_run {
	struct ipx_hub *hub;
	struct ipx_link *lan;		/* --bridge */
	struct ipx_bridge *bridge;
	struct ipx_capture *cap;	/* --pcap */
};

static void print_stats(const struct hub_run *r)
{
	ipx_hub_print_stats(r->hub, stderr);
	if (!r->bridge)
		return;
	ipx_bridge_print_stats(r->bridge, stderr);
	/* What the Ethernet link itself discarded (not IPX, wrong type...). */
	for (int d = 0; d < IPX_FRAME_DROP_COUNT; d++)
		fprintf(stderr, "eth_drop_%s %llu\n", ipx_frame_drop_name(d),
			(unsigned long long)ipx_eth_link_drops(r->lan, d));
}

static int hub_run_close(struct hub_run *r, struct ipx_loop *loop)
{
	int rc = CLI_OK;

	ipx_bridge_free(r->bridge);
	ipx_link_close(r->lan);
	ipx_hub_close(r->hub);	/* its last sends reach the capture */
	if (ipx_capture_close(r->cap) != IPX_OK) {
		cli_error("hub", "--pcap: some packets could not be written");
		rc = CLI_FAIL;
	}
	ipx_loop_free(loop);
	return rc;
}

static void on_signal(struct ipx_loop *loop, int signo, void *ctx)
{
	struct hub_run *r = ctx;

	if (signo == SIGUSR1) {
		print_stats(r);
		return;
	}
	ipx_loop_stop(loop);
}

/* What the options of "ipxlab hub" asked for. */
struct hub_args {
	struct ipx_hub_options opts;
	unsigned long port;
	double keepalive, idle;
	const char *bind_addr, *pcap, *profile_spec;
	struct cli_link_spec lan;
	struct ipx_profile profile;
};

static int opt_frame(struct hub_args *a, const char *arg)
{
	enum ipx_frame_type t;

	if (ipx_frame_type_parse(arg, &t) < 0 ||
	    strlen(arg) >= sizeof(a->lan.frame)) {
		cli_error("hub", "--frame must be ethernet_ii, 802.3, 802.2, "
				 "snap or auto (got '%s')",
			  arg);
		return CLI_USAGE;
	}
	strcpy(a->lan.frame, arg);
	return CLI_OK;
}

static int opt_allow_bridge(struct ipx_hub_options *opts, const char *arg)
{
	if (!strcmp(arg, "none")) {
		opts->bridge_refuse = true;
		return CLI_OK;
	}
	if (opts->nbridge_allow == IPX_HUB_MAX_ALLOW) {
		cli_error("hub", "--allow-bridge: at most %d addresses",
			  IPX_HUB_MAX_ALLOW);
		return CLI_USAGE;
	}
	if (inet_pton(AF_INET, arg, &opts->bridge_allow[opts->nbridge_allow]) !=
	    1) {
		cli_error("hub", "--allow-bridge needs an IPv4 address or "
				 "'none' (got '%s')",
			  arg);
		return CLI_USAGE;
	}
	opts->nbridge_allow++;
	return CLI_OK;
}

/* The limits: --max-clients, --register-rate, --register-burst. */
static int opt_limit(struct ipx_hub_options *opts, int opt, const char *arg)
{
	unsigned long n;

	if (opt == 'M') {
		if (cli_parse_uint("hub", "--max-clients", arg, 1, 1000000,
				   &n) < 0)
			return CLI_USAGE;
		opts->max_clients = n;
	} else if (opt == 'r') {
		if (cli_parse_uint("hub", "--register-rate", arg, 0, 1000000,
				   &n) < 0)
			return CLI_USAGE;
		opts->reg_rate = n ? (int)n : -1;
	} else {
		if (cli_parse_uint("hub", "--register-burst", arg, 1, 1000000,
				   &n) < 0)
			return CLI_USAGE;
		opts->reg_burst = (unsigned)n;
	}
	return CLI_OK;
}

/* One option other than -h and a bad one: CLI_OK or CLI_USAGE. */
static int hub_opt(struct hub_args *a, int opt, const char *arg)
{
	switch (opt) {
	case 'p':
		return cli_parse_uint("hub", "--port", arg, 0, 65535,
				      &a->port) < 0 ? CLI_USAGE : CLI_OK;
	case 'b':
		a->bind_addr = arg;
		return CLI_OK;
	case 'k':
		return cli_parse_seconds("hub", "--keepalive", arg, 0.01, 86400,
					 &a->keepalive) < 0 ? CLI_USAGE
							    : CLI_OK;
	case 't':
		return cli_parse_seconds("hub", "--idle-timeout", arg, 0.02,
					 864000, &a->idle) < 0 ? CLI_USAGE
							       : CLI_OK;
	case 'B':
		if (strlen(arg) >= sizeof(a->lan.where) || !*arg) {
			cli_error("hub", "--bridge needs an interface name");
			return CLI_USAGE;
		}
		strcpy(a->lan.where, arg);
		return CLI_OK;
	case 'F':
		return opt_frame(a, arg);
	case 'P':
		a->pcap = arg;
		return CLI_OK;
	case 'R':
		if (cli_profile_opt("hub", "--profile", arg, &a->profile) < 0)
			return CLI_USAGE;
		a->opts.profile = &a->profile;
		a->profile_spec = arg;
		return CLI_OK;
	case 'A':
		return opt_allow_bridge(&a->opts, arg);
	case 'v':
		ipx_log_set_level(IPX_LOG_DEBUG);
		return CLI_OK;
	case 'q':
		ipx_log_set_level(IPX_LOG_ERROR);
		return CLI_OK;
	default:
		return opt_limit(&a->opts, opt, arg);
	}
}

/* The options together, and the hub's options from them. */
static int hub_check(struct hub_args *a)
{
	if (a->idle <= a->keepalive) {
		cli_error("hub", "--idle-timeout (%g s) must be longer than "
				 "--keepalive (%g s)",
			  a->idle, a->keepalive);
		return CLI_USAGE;
	}
	a->opts.bind.sin_family = AF_INET;
	a->opts.bind.sin_port = htons((uint16_t)a->port);
	if (inet_pton(AF_INET, a->bind_addr, &a->opts.bind.sin_addr) != 1) {
		cli_error("hub", "--bind needs an IPv4 address (got '%s')",
			  a->bind_addr);
		return CLI_USAGE;
	}
	if (a->opts.bridge_refuse && a->opts.nbridge_allow) {
		cli_error("hub", "--allow-bridge none and --allow-bridge ADDR "
				 "contradict each other");
		return CLI_USAGE;
	}
	if (a->lan.frame[0] && !a->lan.where[0]) {
		cli_error("hub", "--frame is the frame type of --bridge IFACE");
		return CLI_USAGE;
	}
	a->opts.keepalive = (ipx_time)(a->keepalive * IPX_SEC);
	a->opts.idle_timeout = (ipx_time)(a->idle * IPX_SEC);
	return CLI_OK;
}

/* CLI_OK to run, else the exit code; -1 after --help. */
static int hub_parse(int argc, char **argv, struct hub_args *a)
{
	static const struct option longopts[] = {
		{ "port", required_argument, NULL, 'p' },
		{ "bind", required_argument, NULL, 'b' },
		{ "keepalive", required_argument, NULL, 'k' },
		{ "idle-timeout", required_argument, NULL, 't' },
		{ "bridge", required_argument, NULL, 'B' },
		{ "frame", required_argument, NULL, 'F' },
		{ "pcap", required_argument, NULL, 'P' },
		{ "profile", required_argument, NULL, 'R' },
		{ "allow-bridge", required_argument, NULL, 'A' },
		{ "max-clients", required_argument, NULL, 'M' },
		{ "register-rate", required_argument, NULL, 'r' },
		{ "register-burst", required_argument, NULL, 'u' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "p:b:vqh", longopts, NULL)) !=
	       -1) {
		if (opt == 'h') {
			cli_usage_line(stdout, "hub");
			help_hub(stdout);
			return -1;
		}
		if (opt == '?' || opt == ':')
			return cli_bad_option("hub", argv, "p:b:vqh", longopts);
		if (hub_opt(a, opt, optarg) != CLI_OK)
			return CLI_USAGE;
	}
	if (optind < argc) {
		cli_error("hub", "unexpected argument '%s'", argv[optind]);
		return CLI_USAGE;
	}
	return hub_check(a);
}

/* The pcap, the hub and the bridge to a LAN; CLI_OK or the exit code
 * (run closed). */
static int hub_start(struct ipx_loop *loop, struct hub_args *a,
		     struct hub_run *run)
{
	char err[512];
	int rc;

	if (a->pcap) {
		if (cli_capture_open("hub", loop, a->pcap, &run->cap) !=
		    CLI_OK) {
			ipx_loop_free(loop);
			return CLI_FAIL;
		}
		ipx_hub_capture(&a->opts, run->cap);
	}
	rc = ipx_hub_open(loop, &a->opts, &run->hub, err, sizeof(err));
	if (rc != IPX_OK) {
		cli_error("hub", "%s", err);
		hub_run_close(run, loop);
		return CLI_FAIL;
	}
	if (!a->lan.where[0])
		return CLI_OK;
	rc = cli_eth_open("hub", loop, &a->lan, true, &run->lan);
	if (rc == CLI_OK && run->cap)
		ipx_capture_attach(run->cap, run->lan);
	if (rc == CLI_OK &&
	    ipx_bridge_new(run->hub, run->lan, &run->bridge) != IPX_OK) {
		cli_error("hub", "out of memory");
		rc = CLI_FAIL;
	}
	if (rc != CLI_OK) {
		hub_run_close(run, loop);
		return rc;
	}
	ipx_info("hub: bridged to %s", a->lan.where);
	return CLI_OK;
}

/* -v: where the hub listens and what its segment is. */
static void say_listening(const struct hub_run *run, const struct hub_args *a)
{
	struct sockaddr_in local;
	char ip[INET_ADDRSTRLEN];

	ipx_hub_local(run->hub, &local);
	inet_ntop(AF_INET, &local.sin_addr, ip, sizeof(ip));
	ipx_info("hub: listening on %s:%u", ip, ntohs(local.sin_port));
	if (a->profile_spec) {	/* what the clients' wire is */
		bool named = a->profile.name[0] &&
			     strcmp(a->profile_spec, a->profile.name) != 0;
		char rate[32] = "no wire time";

		if (a->profile.rate)
			snprintf(rate, sizeof(rate), "%.4g Mbit/s",
				 (double)a->profile.rate / 1e6);
		ipx_info("hub: one segment of profile %s%s%s%s: %s",
			 a->profile_spec, named ? " (" : "",
			 named ? a->profile.name : "", named ? ")" : "", rate);
	}
}

int cmd_hub(int argc, char **argv)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGUSR1 };
	static struct hub_args a;	/* large; one per process */
	struct hub_run run = { 0 };
	struct ipx_loop *loop;
	int rc;

	memset(&a, 0, sizeof(a));
	a.port = 213;
	a.keepalive = 5;
	a.idle = 120;
	a.bind_addr = "0.0.0.0";
	strcpy(a.lan.kind, "eth");
	rc = hub_parse(argc, argv, &a);
	if (rc != CLI_OK)
		return rc < 0 ? CLI_OK : rc;
	loop = ipx_loop_new(NULL);
	if (!loop) {
		cli_error("hub", "out of memory");
		return CLI_FAIL;
	}
	rc = hub_start(loop, &a, &run);
	if (rc != CLI_OK)
		return rc;
	signal(SIGPIPE, SIG_IGN);
	ipx_loop_watch_signals(loop, sigs, 3, on_signal, &run);
	say_listening(&run, &a);
	rc = ipx_loop_run(loop);
	ipx_info("hub: stopping");
	if (ipx_log_get_level() >= IPX_LOG_INFO)
		print_stats(&run);
	return hub_run_close(&run, loop) == CLI_OK && rc == IPX_OK ? CLI_OK
								  : CLI_FAIL;
}
