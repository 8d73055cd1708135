/*
 * cmd_hub.c - "ipxlab hub": run the DOSBox-compatible tunnel server until
 * interrupted. SIGUSR1 prints the counters; they are printed at exit too.
 */
#include <arpa/inet.h>
#include <getopt.h>
#include <signal.h>
#include <string.h>

#include "cli.h"
#include "ipxlab/err.h"
#include "ipxlab/hub.h"
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
		"  -v, --verbose / -q, --quiet\n");
}

struct hub_run {
	struct ipx_hub *hub;
};

static void on_signal(struct ipx_loop *loop, int signo, void *ctx)
{
	struct hub_run *r = ctx;

	if (signo == SIGUSR1) {
		ipx_hub_print_stats(r->hub, stderr);
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
		{ "verbose", no_argument, NULL, 'v' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const int sigs[] = { SIGINT, SIGTERM, SIGUSR1 };
	struct ipx_hub_options opts = { 0 };
	struct hub_run run = { 0 };
	unsigned long port = 213;
	double keepalive = 5, idle = 120;
	const char *bind_addr = "0.0.0.0";
	struct ipx_loop *loop;
	struct sockaddr_in local;
	char err[512], ip[INET_ADDRSTRLEN];
	int opt, rc;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "p:b:vqh", longopts, NULL)) != -1) {
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
			cli_usage_line(stderr, "hub");
			return CLI_USAGE;
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
	opts.keepalive = (ipx_time)(keepalive * IPX_SEC);
	opts.idle_timeout = (ipx_time)(idle * IPX_SEC);

	loop = ipx_loop_new(NULL);
	if (!loop) {
		cli_error("hub", "out of memory");
		return CLI_FAIL;
	}
	rc = ipx_hub_open(loop, &opts, &run.hub, err, sizeof(err));
	if (rc != IPX_OK) {
		cli_error("hub", "%s", err);
		ipx_loop_free(loop);
		return CLI_FAIL;
	}
	signal(SIGPIPE, SIG_IGN);
	ipx_loop_watch_signals(loop, sigs, 3, on_signal, &run);
	ipx_hub_local(run.hub, &local);
	inet_ntop(AF_INET, &local.sin_addr, ip, sizeof(ip));
	ipx_info("hub: listening on %s:%u", ip, ntohs(local.sin_port));
	rc = ipx_loop_run(loop);
	ipx_info("hub: stopping");
	if (ipx_log_get_level() >= IPX_LOG_INFO)
		ipx_hub_print_stats(run.hub, stderr);
	ipx_hub_close(run.hub);
	ipx_loop_free(loop);
	return rc == IPX_OK ? CLI_OK : CLI_FAIL;
}
