/*
 * cmd_protocols.c - "ipxlab bench protocols" (and a bare "ipxlab bench"):
 * B1, the protocol comparison, on the benchmark harness. Builds the
 * network (or joins the hub given, or runs its node on the Ethernet
 * interface given, through cli_node_open), runs ipx_b1_run, prints the
 * table with the 1990 reference beside ours, or JSON / CSV for programs.
 */
#include <arpa/inet.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "ipxlab/bench_b1.h"
#include "ipxlab/capture.h"
#include "ipxlab/err.h"
#include "ipxlab/log.h"

#define CMD "bench"
#define DEFAULT_WAIT 10.0
#define AGENT_NB_DELAY 2	/* ticks between name-claim broadcasts */

static void help_protocols(FILE *out)
{
	fprintf(out,
		"usage: ipxlab bench [protocols] [options]\n\n"
		"B1, the protocol comparison of the 1990 AppNote: a sender agent\n"
		"sends %d packets of %d bytes to a receiver agent through each\n"
		"interface in turn (IPX, SPX, SPX II, NetBIOS datagram, NetBIOS\n"
		"session), each send completing when the interface says so, beside\n"
		"plain UDP of the same path and the IPX round trip, all in the same\n"
		"run. One warm-up pass, then --repeat passes: median [min - max].\n"
		"Prints the 1990 figures beside ours and the targets as ratios\n"
		"measured in this run. By default the hub and both agents are\n"
		"child processes on loopback: nothing to set up.\n\n"
		"  -c, --count N       packets per run (default %d)\n"
		"  -s, --seconds S     send for S seconds per run instead of a count\n"
		"      --size N        payload bytes per packet, 1 to %d (default %d)\n"
		"  -r, --repeat N      counted passes, 1 to %d (default %d), after\n"
		"                      one warm-up pass\n"
		"      --pin P         CPU placement: split (sender CPU 0, receiver\n"
		"                      and the hub started here CPU 1; the default\n"
		"                      with 2 CPUs), same (all on CPU 0), none\n"
		"      --json, --csv   machine-readable output (one of them)\n"
		"      --hub HOST[:PORT]  use this hub instead of starting one\n"
		"      --link hub:HOST[:PORT]  the same\n"
		"      --link eth:IFACE[,frame=TYPE|auto][,net=HEX]\n"
		"                      run the controller's node on this Ethernet\n"
		"                      interface (root or CAP_NET_RAW); needs\n"
		"                      --agents started on the other machines\n"
		"                      (ipxlab agent --link eth:...); the baseline\n"
		"                      row is then plain Ethernet frames\n"
		"      --agents S,R    use running agents (ipxlab agent) named S\n"
		"                      (sender) and R (receiver), found by SAP;\n"
		"                      needs --hub or --link\n"
		"      --config FILE   SHELL.CFG for the agents started here\n"
		"                      (without it they claim NetBIOS names with\n"
		"                      a 2-tick broadcast delay: set-up only)\n"
		"      --wait S        joining the hub, finding agents (default %g)\n"
		"      --timeout S     bound on one run (default 10 s + 5 ms a\n"
		"                      packet, or the time + 10 s)\n"
		"      --pcap FILE     record to FILE what the hub started here\n"
		"                      receives and sends (every packet of the run);\n"
		"                      with --hub or --link, what the controller's\n"
		"                      node sends and receives\n"
		"  -v, --verbose       more log lines; -q, --quiet no progress line\n"
		"  -h, --help          this text\n\n"
		"See %s/benchmarks.md for the method and every\n"
		"column.\n",
		IPX_B1_DEFAULT_COUNT, IPX_B1_DEFAULT_SIZE, IPX_B1_DEFAULT_COUNT,
		IPX_B1_MAX_SIZE, IPX_B1_DEFAULT_SIZE, IPX_B1_MAX_REPEAT,
		IPX_B1_DEFAULT_REPEAT, DEFAULT_WAIT, cli_docs);
}

struct run_ctx {
	struct ipx_b1_opts o;
	bool json, csv, progress;
	/* the pass under way (0: the warm-up), and whether SIGINT/SIGTERM
	 * cut the run short: then the passes that finished are printed,
	 * the JSON with "complete": false */
	unsigned pass_seen;
	bool interrupted;
	bool pin_given;
	const char *hub, *agents, *config;
	const char *link;	/* --link eth:...: the controller's node */
	char hubwhere[256];	/* --link hub:WHERE */
	struct cli_node cn;	/* the node on 'link' */
	double wait;
	char names[2][IPX_HARNESS_NAME_MAX + 1];
	struct ipx_b1_net n;	/* the hub, the controller, the agents */
	const char *pcap;	/* --pcap FILE */
	struct ipx_capture *cap;	/* --pcap with --hub: the controller's */
	bool eth;		/* on Ethernet: the baseline row is frames */
};

/* ---- printing ---- */

/* 1234567.8 -> "1,234,568" */
static const char *grouped(double v, char *buf, size_t len)
{
	char raw[32];
	size_t n, o = 0;

	snprintf(raw, sizeof(raw), "%.0f", v < 0 || !isfinite(v) ? 0 : v);
	n = strlen(raw);
	for (size_t i = 0; i < n && o + 2 < len; i++) {
		if (i && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = raw[i];
	}
	buf[o] = '\0';
	return buf;
}

/* Nanoseconds as microseconds, two digits below 10 us. */
static const char *us(uint64_t ns, char *buf, size_t len)
{
	snprintf(buf, len, ns < 10000 ? "%.2f" : "%.0f", ns / 1e3);
	return buf;
}

static void on_progress(unsigned pass, unsigned passes, enum ipx_bw_kind k,
			void *ctx)
{
	struct run_ctx *r = ctx;

	r->pass_seen = pass;
	if (!r->progress)
		return;
	if (pass)
		fprintf(stderr, "\r\033[K  run %u/%u: %s", pass, passes,
			ipx_b1_row_name(k, r->eth));
	else
		fprintf(stderr, "\r\033[K  warm-up: %s",
			ipx_b1_row_name(k, r->eth));
	fflush(stderr);
}

/* After the table: why the rows differ, the targets, the columns. */
static void print_notes(const struct ipx_b1_report *rep, bool eth)
{
	printf("\nwhy the rows differ (the 1990 note: everything is built on "
	       "IPX):\n");
	for (int i = 0; i < IPX_B1_ROWS; i++)
		printf("  %-17s %s\n", ipx_b1_row_name(ipx_b1_rows[i], eth),
		       ipx_b1_row_why(ipx_b1_rows[i], eth));
	printf("\ntargets (median of the per-run ratios, this run):\n");
	for (int t = 0; t < IPX_B1_TARGETS; t++) {
		const struct ipx_b1_target *x = &rep->target[t];

		printf("  %-15s %5.2f [%.2f - %.2f]  want >= %.2f  %-4s  %s\n",
		       ipx_b1_target_name(rep, t, eth), x->ratio.median, x->ratio.min,
		       x->ratio.max, x->want, x->pass ? "PASS" : "MISS",
		       ipx_b1_target_what(rep, t, eth));
	}
	printf("\ncarried/s: packets the path carried per second (sent/s "
	       "times delivered/sent, at most the\nreceiver's rate); kB/s "
	       "and x IPX use it too (kB = 1000 bytes). sent/s: sends "
	       "completed\nper second. CPUs: where the sender/receiver ran "
	       "(last run).\n");
}

static void print_table(const struct run_ctx *r, const struct ipx_b1_report *rep)
{
	const struct ipx_b1_row *rtt = &rep->row[IPX_BW_RTT];
	const struct ipx_hctl_agent *s = ipx_hctl_agent_at(r->n.ctl, 0);
	const struct ipx_hctl_agent *d = ipx_hctl_agent_at(r->n.ctl, 1);
	char a[32], b[32], c[32];

	printf("ipxlab bench protocols (B1): ");
	if (r->o.count)
		printf("%u", r->o.count);
	else
		printf("%g s of", r->o.seconds);
	printf(" packets of %zu bytes per interface; median of %u run%s "
	       "[min - max] after 1 warm-up\n",
	       r->o.size, rep->repeat, rep->repeat == 1 ? "" : "s");
	printf("sender '%s' (pid %u, %u CPU%s), receiver '%s' (pid %u, %u "
	       "CPU%s), %s %s",
	       s->name, s->pid, s->cpus, s->cpus == 1 ? "" : "s", d->name,
	       d->pid, d->cpus, d->cpus == 1 ? "" : "s",
	       r->link ? "link" : "hub", r->n.hubtext);
	if (r->n.hub_cpu >= 0)
		printf(" (CPU %d)", r->n.hub_cpu);
	printf(", --pin %s%s\n\n", ipx_b1_pin_name(r->o.pin),
	       r->n.pin_fallback ? " (split needs 2 CPUs per agent)" : "");
	printf("%-17s %9s %-21s %9s %11s %6s %9s %5s | %8s %5s | %13s %5s\n",
	       "interface", "carried/s", "[min - max]", "sent/s", "delivered",
	       "loss", "kB/s", "x IPX", "1990", "x IPX", "send p50/p99us",
	       "CPUs");
	for (int i = 0; i < IPX_B1_ROWS; i++) {
		const struct ipx_b1_row *w = &rep->row[ipx_b1_rows[i]];
		char rng[80], del[32], ref[16], rr[16], lat[80], cpu[32];
		char snt[32];

		snprintf(rng, sizeof(rng), "[%s - %s]",
			 grouped(w->carried.min, a, sizeof(a)),
			 grouped(w->carried.max, b, sizeof(b)));
		snprintf(del, sizeof(del), "%.0f/%.0f", w->delivered.median,
			 w->sent.median);
		if (w->ref_pps > 0) {
			snprintf(ref, sizeof(ref), "%.1f", w->ref_pps);
			snprintf(rr, sizeof(rr), "%.2f", w->ref_ratio);
		} else {
			strcpy(ref, "-");
			strcpy(rr, "-");
		}
		if (w->lat_count)
			snprintf(lat, sizeof(lat), "%s/%s",
				 us(w->lat_p50, a, sizeof(a)),
				 us(w->lat_p99, b, sizeof(b)));
		else	/* datagrams: a send completes as it is handed on */
			strcpy(lat, "-");
		snprintf(cpu, sizeof(cpu), "%d/%d", w->cpu_snd, w->cpu_rcv);
		grouped(w->pps.median, snt, sizeof(snt));
		printf("%-17s %9s %-21s %9s %11s %5.2f%% %9.1f %5.2f | %8s %5s | "
		       "%13s %5s\n",
		       ipx_b1_row_name(w->kind, r->eth),
		       grouped(w->carried.median, c, sizeof(c)), rng, snt, del,
		       w->loss.median * 100, w->kbps.median,
		       w->ratio_ipx.median, ref, rr, lat, cpu);
	}
	printf("%-17s %9s round trips/s [%s - %s]; per round trip p50 %.1f "
	       "us, p99 %.1f us\n",
	       ipx_b1_row_name(IPX_BW_RTT, r->eth), grouped(rtt->pps.median, a, sizeof(a)),
	       grouped(rtt->pps.min, b, sizeof(b)),
	       grouped(rtt->pps.max, c, sizeof(c)), rtt->lat_p50 / 1e3,
	       rtt->lat_p99 / 1e3);
	print_notes(rep, r->eth);
}

/* ---- options ---- */

enum {
	OPT_SIZE = OPT_FIRST_CMD,
	OPT_PIN,
	OPT_JSON,
	OPT_CSV,
	OPT_LINK,
	OPT_AGENTS,
	OPT_TIMEOUT,
};

static int parse_agents(struct run_ctx *r, const char *text)
{
	const char *comma = strchr(text, ',');
	size_t a = comma ? (size_t)(comma - text) : 0;

	if (!comma || strchr(comma + 1, ',') || !a || !comma[1] ||
	    a > IPX_HARNESS_NAME_MAX ||
	    strlen(comma + 1) > IPX_HARNESS_NAME_MAX) {
		cli_error(CMD, "--agents takes two agent names, the sender's "
			       "and the receiver's, e.g. --agents "
			       "sender,receiver (got '%s')",
			  text);
		return -1;
	}
	snprintf(r->names[0], sizeof(r->names[0]), "%.*s", (int)a, text);
	snprintf(r->names[1], sizeof(r->names[1]), "%s", comma + 1);
	if (!strcmp(r->names[0], r->names[1])) {
		cli_error(CMD, "--agents: the sender and the receiver must be "
			       "two agents (got '%s' twice)",
			  r->names[0]);
		return -1;
	}
	return 0;
}

/* --link: a hub (as --hub) or an Ethernet interface for our node. */
static int parse_link(struct run_ctx *r, const char *text)
{
	struct cli_link_spec spec;
	char err[512];

	if (cli_link_spec_parse(text, &spec, err, sizeof(err)) < 0) {
		cli_error(CMD, "--link %s", err);
		return -1;
	}
	if (!strcmp(spec.kind, "eth")) {
		r->link = text;
		return 0;
	}
	if (spec.net || spec.ticks != 1 || strchr(text, ',')) {
		cli_error(CMD, "--link %s: a hub takes no options (net= and "
			       "frame= are for Ethernet links)",
			  text);
		return -1;
	}
	snprintf(r->hubwhere, sizeof(r->hubwhere), "%s", spec.where);
	r->hub = r->hubwhere;
	return 0;
}

/* The network's options (--hub, --link, --agents, --pcap, --config,
 * --wait, --timeout): 1 if opt was one, 0 if not, -1 after a message. */
static int net_opt(struct run_ctx *r, int opt, const char *arg)
{
	switch (opt) {
	case OPT_HUB:
	case OPT_LINK:
		if (r->hub || r->link) {
			cli_error(CMD, "--hub and --link name the "
				       "network once: give one of them, "
				       "once");
			return -1;
		}
		if (opt == OPT_HUB)
			r->hub = arg;
		else if (parse_link(r, arg) < 0)
			return -1;
		return 1;
	case OPT_AGENTS:
		if (parse_agents(r, arg) < 0)
			return -1;
		r->agents = arg;
		return 1;
	case OPT_PCAP:
		r->pcap = arg;
		return 1;
	case OPT_CONFIG:
		r->config = arg;
		return 1;
	case OPT_WAIT:
		if (cli_parse_seconds(CMD, "--wait", arg, 0.1, 3600,
				      &r->wait) < 0)
			return -1;
		return 1;
	case OPT_TIMEOUT:
		if (cli_parse_seconds(CMD, "--timeout", arg, 1, 86400,
				      &r->o.timeout) < 0)
			return -1;
		return 1;
	default:
		return 0;
	}
}

/* What getopt cannot see: an argument left over and the options that
 * exclude or need each other. 0, or -1 after a message. */
static int check_options(struct run_ctx *r, int argc, char **argv,
			 bool count_given, bool seconds_given)
{
	if (optind < argc) {
		cli_error(CMD, "protocols: unexpected argument '%s'",
			  argv[optind]);
		return -1;
	}
	if (count_given && seconds_given) {
		cli_error(CMD, "--count and --seconds exclude each other: a run "
			       "sends a number of packets or for a time");
		return -1;
	}
	if (seconds_given)
		r->o.count = 0;
	if (r->json && r->csv) {
		cli_error(CMD, "--json and --csv exclude each other");
		return -1;
	}
	if (r->link && !r->agents) {
		cli_error(CMD, "--link %s needs --agents S,R: on Ethernet the "
			       "agents run on the other machines (start 'ipxlab "
			       "agent --link eth:IFACE --name NAME' on each; "
			       "an agent's node is its interface's MAC, so two "
			       "cannot share this machine's interface)",
			  r->link);
		return -1;
	}
	if (r->agents && !r->hub && !r->link) {
		cli_error(CMD, "--agents needs --hub HOST[:PORT] (or --link): "
			       "the network the agents joined");
		return -1;
	}
	if (r->agents && r->config) {
		cli_error(CMD, "--config applies to agents started here; with "
			       "--agents give it to each 'ipxlab agent'");
		return -1;
	}
	return 0;
}

/* What a run sends (--count, --seconds, --size, --repeat, --pin): 1 if
 * opt was one, 0 if not, -1 after a message. */
static int run_opt(struct run_ctx *r, int opt, const char *arg,
		   bool *count_given, bool *seconds_given)
{
	unsigned long v;

	switch (opt) {
	case 'c':
		if (cli_parse_uint(CMD, "--count", arg, 1,
				   IPX_B1_MAX_COUNT, &v) < 0)
			return -1;
		r->o.count = (uint32_t)v;
		*count_given = true;
		return 1;
	case 's':
		if (cli_parse_seconds(CMD, "--seconds", arg, 0.1, 600,
				      &r->o.seconds) < 0)
			return -1;
		*seconds_given = true;
		return 1;
	case OPT_SIZE:
		if (cli_parse_uint(CMD, "--size", arg, 1,
				   IPX_B1_MAX_SIZE, &v) < 0) {
			fprintf(stderr, "(NetBIOS datagrams carry at most "
					"%d bytes)\n",
				IPX_B1_MAX_SIZE);
			return -1;
		}
		r->o.size = v;
		return 1;
	case 'r':
		if (cli_parse_uint(CMD, "--repeat", arg, 1,
				   IPX_B1_MAX_REPEAT, &v) < 0)
			return -1;
		r->o.repeat = (unsigned)v;
		return 1;
	case OPT_PIN:
		if (ipx_b1_pin_parse(arg, &r->o.pin) != IPX_OK) {
			cli_error(CMD, "--pin must be split, same or "
				       "none (got '%s')",
				  arg);
			return -1;
		}
		r->pin_given = true;
		return 1;
	default:
		return 0;
	}
}

static int parse_options(struct run_ctx *r, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "count", required_argument, NULL, 'c' },
		{ "seconds", required_argument, NULL, 's' },
		{ "size", required_argument, NULL, OPT_SIZE },
		{ "repeat", required_argument, NULL, 'r' },
		{ "pin", required_argument, NULL, OPT_PIN },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "csv", no_argument, NULL, OPT_CSV },
		{ "link", required_argument, NULL, OPT_LINK },
		{ "agents", required_argument, NULL, OPT_AGENTS },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		CLI_NODE_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	bool count_given = false, seconds_given = false, quiet = false;
	int opt, rc;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":c:s:r:vqh", longopts, NULL)) !=
	       -1) {
		switch (opt) {
		case OPT_JSON:
			r->json = true;
			break;
		case OPT_CSV:
			r->csv = true;
			break;
		case 'v':
			ipx_log_set_level(IPX_LOG_DEBUG);
			break;
		case 'q':
			quiet = true;
			ipx_log_set_level(IPX_LOG_ERROR);
			break;
		case 'h':
			help_protocols(stdout);
			return -1;
		default:
			rc = run_opt(r, opt, optarg, &count_given,
				     &seconds_given);
			if (!rc)
				rc = net_opt(r, opt, optarg);
			if (rc < 0)
				return CLI_USAGE;
			if (!rc)
				return bench_bad_option("protocols", opt,
							argv);
		}
	}
	if (check_options(r, argc, argv, count_given, seconds_given) < 0)
		return CLI_USAGE;
	r->progress = !quiet && isatty(STDERR_FILENO);
	return CLI_OK;
}

/* ---- the run ---- */

static void teardown(struct run_ctx *r, bool ok)
{
	ipx_hctl_free(r->n.ctl);	/* QUIT: the agents started here exit */
	r->n.ctl = NULL;
	if (r->cn.loop) {
		cli_node_close(&r->cn);
	} else {
		ipx_node_free(r->n.node);	/* closes its link first */
		if (r->cap && ipx_capture_close(r->cap) != IPX_OK)
			cli_error(CMD, "--pcap: some packets could not be "
				       "written");
		r->cap = NULL;
		ipx_loop_free(r->n.loop);
	}
	r->n.node = NULL;
	r->n.loop = NULL;
	ipx_hnet_stop(r->n.net, ok ? 2 * IPX_SEC : 0);
	r->n.net = NULL;
}

/* --link eth:...: the controller's node on that interface, through the
 * link options every node command takes. A CLI_ exit code (the message
 * is printed). */
static int open_on_link(struct run_ctx *r, const struct ipx_config *cfg)
{
	struct cli_node_opts no;
	int rc;

	cli_node_opts_init(&no);
	no.link = r->link;
	no.pcap = r->pcap;
	no.base = cfg;
	no.register_timeout = r->wait;
	rc = cli_node_open(&r->cn, &no);
	if (rc != CLI_OK)
		return rc;
	r->n.loop = r->cn.loop;
	r->n.node = r->cn.node;
	snprintf(r->n.hubtext, sizeof(r->n.hubtext), "%s", r->link);
	r->eth = true;
	return CLI_OK;
}

/* The node settings (SHELL.CFG or the defaults), the agents' names and
 * the network's options; CLI_OK or CLI_FAIL with a message. */
static int prepare(struct run_ctx *r, struct ipx_config *cfg,
		   struct ipx_hnet_opts *no, const char **names)
{
	char err[768];

	ipx_config_defaults(cfg);
	/* Agents started here claim their NetBIOS names (set-up, outside
	 * every measurement) with a short broadcast delay, unless a
	 * SHELL.CFG says otherwise: seconds per run saved. */
	if (!r->config)
		cfg->netbios_broadcast_delay = AGENT_NB_DELAY;
	if (r->config &&
	    ipx_config_load(cfg, r->config, err, sizeof(err)) != IPX_OK) {
		cli_error(CMD, "%s", err);
		return CLI_FAIL;
	}
	memset(no, 0, sizeof(*no));
	if (!r->agents) {
		snprintf(r->names[0], sizeof(r->names[0]), "sender");
		snprintf(r->names[1], sizeof(r->names[1]), "receiver");
		/* On a shared hub, names nobody else uses. */
		if (r->hub) {
			snprintf(r->names[0], sizeof(r->names[0]),
				 "sender-%d", (int)getpid());
			snprintf(r->names[1], sizeof(r->names[1]),
				 "receiver-%d", (int)getpid());
		}
		no->agents = names;
		no->nagents = 2;
	}
	no->hub = r->hub;
	no->cfg = cfg;
	no->fault = getenv("IPXLAB_AGENT_FAULT");
	no->wait = (ipx_time)(r->wait * IPX_SEC);
	if (!r->hub)
		no->pcap = r->pcap;	/* the hub started here records */
	return CLI_OK;
}

/* The hub network (started here or joined) and the controller's node on
 * it; IPX_OK, an error in err, or (*rc_cli) a CLI_ code already said,
 * torn down. */
static int join_hub(struct run_ctx *r, const struct ipx_hnet_opts *no,
		    const struct ipx_config *ccfg, int *rc_cli, char *err,
		    size_t errlen)
{
	int rc = ipx_b1_net_join(&r->n, no, ccfg, err, errlen);

	if (rc == IPX_OK)
		cli_stop_on_signals(r->n.loop);
	if (rc == IPX_OK && r->hub && r->pcap) {
		/* not our hub: the controller's own traffic */
		if (cli_capture_open(CMD, r->n.loop, r->pcap, &r->cap) !=
		    CLI_OK) {
			teardown(r, false);
			*rc_cli = CLI_FAIL;
			return IPX_EINVAL;
		}
		ipx_capture_attach(r->cap, ipx_node_link(r->n.node, 0));
	}
	return rc;
}

/* Up to the attached agents, pinned; IPX_OK, an error in err, or
 * (*rc_cli not CLI_OK) a CLI_ code already said, nothing left open. */
static int bring_up(struct run_ctx *r, const struct ipx_hnet_opts *no,
		    const struct ipx_config *cfg, const char **names,
		    int *rc_cli, char *err, size_t errlen)
{
	struct ipx_config ccfg = *cfg;
	int rc;

	ipx_b1_controller_config(&ccfg);
	if (r->link) {
		rc = open_on_link(r, &ccfg);
		if (rc != CLI_OK) {
			*rc_cli = rc;
			return IPX_EINVAL;
		}
	} else {
		rc = join_hub(r, no, &ccfg, rc_cli, err, errlen);
		if (*rc_cli != CLI_OK)
			return rc;
	}
	if (rc == IPX_OK)
		rc = ipx_b1_net_attach(&r->n, names, !r->agents, no->wait, err,
				       errlen);
	if (rc == IPX_OK &&
	    ipx_b1_choose_pin(&r->n, &r->o, r->pin_given, err, errlen) !=
		    IPX_OK) {
		cli_error(CMD, "%s", err);
		teardown(r, false);
		*rc_cli = CLI_USAGE;
		return IPX_EINVAL;
	}
	if (rc == IPX_OK)
		rc = ipx_b1_pin_hub(&r->n, &r->o, err, errlen);
	return rc;
}

static void print_json(const struct run_ctx *r,
		       const struct ipx_b1_sample *samples,
		       const struct ipx_b1_report *rep)
{
	struct ipx_b1_where wh = {
		.hubtext = r->n.hubtext, .link = r->link != NULL,
		.hub_cpu = r->n.hub_cpu, .ctl = r->n.ctl,
		.complete = !r->interrupted,
	};

	ipx_b1_write_json(stdout, &r->o, rep, samples, &wh);
}

/* After ipx_b1_run: a signal? Then the passes that finished. The figures
 * printed; the CLI_ exit code. */
static int finish(struct run_ctx *r, int rc, struct ipx_b1_sample *samples,
		  struct ipx_b1_report *rep, const char *err)
{
	if (rc != IPX_OK && r->n.loop) {	/* SIGINT, SIGTERM? */
		if (rc != IPX_ECLOSED)	/* an agent killed by the same ^C */
			ipx_loop_run_once(r->n.loop, 0);
		r->interrupted = rc == IPX_ECLOSED ||
				 ipx_loop_stopped(r->n.loop);
	}
	if (r->interrupted) {
		unsigned done = r->pass_seen ? r->pass_seen - 1 : 0;

		cli_error(CMD, "protocols: interrupted; printing the %u "
			       "pass%s that finished",
			  done, done == 1 ? "" : "es");
		if (done) {
			ipx_b1_summarize(samples, done, rep);
			rc = IPX_OK;
		} else if (r->json) {
			ipx_b1_write_json_empty(stdout);
		}
	} else if (rc == IPX_OK) {
		ipx_b1_summarize(samples, r->o.repeat, rep);
	}
	if (rc == IPX_OK) {
		if (r->json)
			print_json(r, samples, rep);
		else if (r->csv)
			ipx_b1_write_csv(stdout, rep, r->eth);
		else
			print_table(r, rep);
	}
	teardown(r, rc == IPX_OK && !r->interrupted);
	if (r->interrupted)
		return CLI_FAIL;
	if (rc != IPX_OK) {
		cli_error(CMD, "protocols: %s", err);
		return CLI_FAIL;
	}
	return CLI_OK;
}

static int run(struct run_ctx *r)
{
	const char *names[2] = { r->names[0], r->names[1] };
	struct ipx_hnet_opts no;
	struct ipx_config cfg;
	struct ipx_b1_sample *samples;
	struct ipx_b1_report *rep;
	char err[768];
	int rc, rc_cli = CLI_OK;

	rc = prepare(r, &cfg, &no, names);
	if (rc != CLI_OK)
		return rc;
	samples = calloc((size_t)r->o.repeat * IPX_B1_KINDS, sizeof(*samples));
	rep = malloc(sizeof(*rep));
	if (!samples || !rep) {
		free(samples);
		free(rep);
		cli_error(CMD, "out of memory");
		return CLI_FAIL;
	}
	rc = bring_up(r, &no, &cfg, names, &rc_cli, err, sizeof(err));
	if (rc_cli != CLI_OK) {	/* said, and torn down */
		free(samples);
		free(rep);
		return rc_cli;
	}
	if (rc == IPX_OK)
		rc = ipx_b1_run(r->n.ctl, 0, 1, &r->o, on_progress, r, samples,
				err, sizeof(err));
	if (r->progress)
		fprintf(stderr, "\r\033[K");
	rc = finish(r, rc, samples, rep, err);
	free(samples);
	free(rep);
	return rc;
}

int bench_protocols(int argc, char **argv)
{
	struct run_ctx r;
	int rc;

	memset(&r, 0, sizeof(r));
	r.o.count = IPX_B1_DEFAULT_COUNT;
	r.o.size = IPX_B1_DEFAULT_SIZE;
	r.o.repeat = IPX_B1_DEFAULT_REPEAT;
	r.o.pin = IPX_B1_PIN_SPLIT;
	r.n.hub_cpu = -1;
	r.o.drain = IPX_B1_DEFAULT_DRAIN;
	r.wait = DEFAULT_WAIT;
	rc = parse_options(&r, argc, argv);
	if (rc != CLI_OK)
		return rc < 0 ? CLI_OK : rc;
	if (ipx_log_get_level() == IPX_LOG_INFO)
		ipx_log_set_level(IPX_LOG_WARN);
	return run(&r);
}
