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
#include "ipxlab/capture.h"
#include "ipxlab/err.h"
#include "ipxlab/frame.h"
#include "ipxlab/hub.h"
#include "ipxlab/hub_capture.h"
#include "ipxlab/link_eth.h"
#include "ipxlab/link_profile.h"
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

int cmd_hub(int argc, char **argv)
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
	static const int sigs[] = { SIGINT, SIGTERM, SIGUSR1 };
	struct ipx_hub_options opts = { 0 };
	struct hub_run run = { 0 };
	unsigned long port = 213, n;
	double keepalive = 5, idle = 120;
	const char *bind_addr = "0.0.0.0", *pcap = NULL, *profile_spec = NULL;
	struct cli_link_spec lan = { .kind = "eth" };
	struct ipx_profile profile;
	struct ipx_loop *loop;
	struct sockaddr_in local;
	char err[512], ip[INET_ADDRSTRLEN];
	int opt, rc;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "p:b:vqh", longopts, NULL)) !=
	       -1) {
		switch (opt) {
		case 'p':
			if (cli_parse_uint("hub", "--port", optarg, 0, 65535,
					   &port) < 0)
				return CLI_USAGE;
			break;
		case 'b':
			bind_addr = optarg;
			break;
		case 'k':
			if (cli_parse_seconds("hub", "--keepalive", optarg, 0.01,
					      86400, &keepalive) < 0)
				return CLI_USAGE;
			break;
		case 't':
			if (cli_parse_seconds("hub", "--idle-timeout", optarg,
					      0.02, 864000, &idle) < 0)
				return CLI_USAGE;
			break;
		case 'B':
			if (strlen(optarg) >= sizeof(lan.where) || !*optarg) {
				cli_error("hub", "--bridge needs an interface "
						 "name");
				return CLI_USAGE;
			}
			strcpy(lan.where, optarg);
			break;
		case 'F': {
			enum ipx_frame_type t;

			if (ipx_frame_type_parse(optarg, &t) < 0 ||
			    strlen(optarg) >= sizeof(lan.frame)) {
				cli_error("hub", "--frame must be ethernet_ii, "
						 "802.3, 802.2, snap or auto "
						 "(got '%s')",
					  optarg);
				return CLI_USAGE;
			}
			strcpy(lan.frame, optarg);
			break;
		}
		case 'P':
			pcap = optarg;
			break;
		case 'R':
			if (cli_profile_opt("hub", "--profile", optarg,
					    &profile) < 0)
				return CLI_USAGE;
			opts.profile = &profile;
			profile_spec = optarg;
			break;
		case 'A':
			if (!strcmp(optarg, "none")) {
				opts.bridge_refuse = true;
				break;
			}
			if (opts.nbridge_allow == IPX_HUB_MAX_ALLOW) {
				cli_error("hub", "--allow-bridge: at most %d "
						 "addresses",
					  IPX_HUB_MAX_ALLOW);
				return CLI_USAGE;
			}
			if (inet_pton(AF_INET, optarg,
				      &opts.bridge_allow[opts.nbridge_allow]) !=
			    1) {
				cli_error("hub", "--allow-bridge needs an IPv4 "
						 "address or 'none' (got '%s')",
					  optarg);
				return CLI_USAGE;
			}
			opts.nbridge_allow++;
			break;
		case 'M':
			if (cli_parse_uint("hub", "--max-clients", optarg, 1,
					   1000000, &n) < 0)
				return CLI_USAGE;
			opts.max_clients = n;
			break;
		case 'r':
			if (cli_parse_uint("hub", "--register-rate", optarg, 0,
					   1000000, &n) < 0)
				return CLI_USAGE;
			opts.reg_rate = n ? (int)n : -1;
			break;
		case 'u':
			if (cli_parse_uint("hub", "--register-burst", optarg, 1,
					   1000000, &n) < 0)
				return CLI_USAGE;
			opts.reg_burst = (unsigned)n;
			break;
		case 'v':
			ipx_log_set_level(IPX_LOG_DEBUG);
			break;
		case 'q':
			ipx_log_set_level(IPX_LOG_ERROR);
			break;
		case 'h':
			cli_usage_line(stdout, "hub");
			help_hub(stdout);
			return CLI_OK;
		default:
			return cli_bad_option("hub", argv, "p:b:vqh", longopts);
		}
	}
	if (optind < argc) {
		cli_error("hub", "unexpected argument '%s'", argv[optind]);
		return CLI_USAGE;
	}
	if (idle <= keepalive) {
		cli_error("hub", "--idle-timeout (%g s) must be longer than "
				 "--keepalive (%g s)",
			  idle, keepalive);
		return CLI_USAGE;
	}
	opts.bind.sin_family = AF_INET;
	opts.bind.sin_port = htons((uint16_t)port);
	if (inet_pton(AF_INET, bind_addr, &opts.bind.sin_addr) != 1) {
		cli_error("hub", "--bind needs an IPv4 address (got '%s')",
			  bind_addr);
		return CLI_USAGE;
	}
	if (opts.bridge_refuse && opts.nbridge_allow) {
		cli_error("hub", "--allow-bridge none and --allow-bridge ADDR "
				 "contradict each other");
		return CLI_USAGE;
	}
	if (lan.frame[0] && !lan.where[0]) {
		cli_error("hub", "--frame is the frame type of --bridge IFACE");
		return CLI_USAGE;
	}
	opts.keepalive = (ipx_time)(keepalive * IPX_SEC);
	opts.idle_timeout = (ipx_time)(idle * IPX_SEC);

	loop = ipx_loop_new(NULL);
	if (!loop) {
		cli_error("hub", "out of memory");
		return CLI_FAIL;
	}
	if (pcap) {
		if (cli_capture_open("hub", loop, pcap, &run.cap) != CLI_OK) {
			ipx_loop_free(loop);
			return CLI_FAIL;
		}
		ipx_hub_capture(&opts, run.cap);
	}
	rc = ipx_hub_open(loop, &opts, &run.hub, err, sizeof(err));
	if (rc != IPX_OK) {
		cli_error("hub", "%s", err);
		hub_run_close(&run, loop);
		return CLI_FAIL;
	}
	if (lan.where[0]) {
		rc = cli_eth_open("hub", loop, &lan, true, &run.lan);
		if (rc == CLI_OK && run.cap)
			ipx_capture_attach(run.cap, run.lan);
		if (rc == CLI_OK &&
		    ipx_bridge_new(run.hub, run.lan, &run.bridge) != IPX_OK) {
			cli_error("hub", "out of memory");
			rc = CLI_FAIL;
		}
		if (rc != CLI_OK) {
			hub_run_close(&run, loop);
			return rc;
		}
		ipx_info("hub: bridged to %s", lan.where);
	}
	signal(SIGPIPE, SIG_IGN);
	ipx_loop_watch_signals(loop, sigs, 3, on_signal, &run);
	ipx_hub_local(run.hub, &local);
	inet_ntop(AF_INET, &local.sin_addr, ip, sizeof(ip));
	ipx_info("hub: listening on %s:%u", ip, ntohs(local.sin_port));
	if (profile_spec) {	/* what the clients' wire is */
		bool named = profile.name[0] &&
			     strcmp(profile_spec, profile.name) != 0;
		char rate[32] = "no wire time";

		if (profile.rate)
			snprintf(rate, sizeof(rate), "%.4g Mbit/s",
				 (double)profile.rate / 1e6);
		ipx_info("hub: one segment of profile %s%s%s%s: %s",
			 profile_spec, named ? " (" : "",
			 named ? profile.name : "", named ? ")" : "", rate);
	}
	rc = ipx_loop_run(loop);
	ipx_info("hub: stopping");
	if (ipx_log_get_level() >= IPX_LOG_INFO)
		print_stats(&run);
	return hub_run_close(&run, loop) == CLI_OK && rc == IPX_OK ? CLI_OK
								  : CLI_FAIL;
}
