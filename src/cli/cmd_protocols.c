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

/* On Ethernet the baseline row is plain frames between the agents'
 * interfaces (work_eth.c), not UDP: the names and reasons say so. */
static bool eth_baseline;

static const char *row_name(enum ipx_bw_kind k)
{
	if (k == IPX_BW_UDP && eth_baseline)
		return "Ethernet baseline";
	static const char *const names[IPX_B1_KINDS] = {
		[IPX_BW_IPX] = "IPX",
		[IPX_BW_SPX] = "SPX",
		[IPX_BW_SPX2] = "SPX II",
		[IPX_BW_NB_DGRAM] = "NetBIOS datagram",
		[IPX_BW_NB_SESSION] = "NetBIOS session",
		[IPX_BW_UDP] = "UDP (baseline)",
		[IPX_BW_RTT] = "IPX round trip",
	};

	return k < IPX_B1_KINDS ? names[k] : "?";
}

static const char *row_why(enum ipx_bw_kind k)
{
	if (k == IPX_BW_UDP && eth_baseline)
		return "not in 1990: plain frames between the same "
		       "interfaces, no IPX";
	return ipx_b1_why(k);
}

/* A target's name and sentence (the IPX one names the baseline). */
static const char *target_name(const struct ipx_b1_target *x, int t)
{
	return t == IPX_B1_T_IPX_UDP && eth_baseline ? "ipx/eth" : x->name;
}

static const char *target_what(const struct ipx_b1_target *x, int t)
{
	return t == IPX_B1_T_IPX_UDP && eth_baseline
		       ? "IPX datagrams carried vs plain frames carried "
			 "(same interfaces)"
		       : x->what;
}

/* The target a row is judged by, or -1. */
static int row_target(enum ipx_bw_kind k)
{
	switch (k) {
	case IPX_BW_IPX:
		return IPX_B1_T_IPX_UDP;
	case IPX_BW_SPX2:
		return IPX_B1_T_SPX2_IPX;
	case IPX_BW_SPX:
		return IPX_B1_T_SPX_RTT;
	case IPX_BW_NB_SESSION:
		return IPX_B1_T_NBS_RTT;
	default:
		return -1;
	}
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
	bool pin_fallback;	/* split asked by default, 1 CPU: none */
	const char *hub, *agents, *config;
	const char *link;	/* --link eth:...: the controller's node */
	char hubwhere[256];	/* --link hub:WHERE */
	struct cli_node cn;	/* the node on 'link' */
	double wait;
	char names[2][IPX_HARNESS_NAME_MAX + 1];
	struct ipx_hnet *net;
	struct ipx_loop *loop;
	struct ipx_node *node;
	struct ipx_hctl *ctl;
	char hubtext[280];	/* the hub HOST:PORT, or the --link text */
	int hub_cpu;		/* the hub we started, pinned; -1: not */
	const char *pcap;	/* --pcap FILE */
	struct ipx_capture *cap;	/* --pcap with --hub: the controller's */
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
			row_name(k));
	else
		fprintf(stderr, "\r\033[K  warm-up: %s", row_name(k));
	fflush(stderr);
}

/* After the table: why the rows differ, the targets, the columns. */
static void print_notes(const struct ipx_b1_report *rep)
{
	printf("\nwhy the rows differ (the 1990 note: everything is built on "
	       "IPX):\n");
	for (int i = 0; i < IPX_B1_ROWS; i++)
		printf("  %-17s %s\n", row_name(ipx_b1_rows[i]),
		       row_why(ipx_b1_rows[i]));
	printf("\ntargets (median of the per-run ratios, this run):\n");
	for (int t = 0; t < IPX_B1_TARGETS; t++) {
		const struct ipx_b1_target *x = &rep->target[t];

		printf("  %-15s %5.2f [%.2f - %.2f]  want >= %.2f  %-4s  %s\n",
		       target_name(x, t), x->ratio.median, x->ratio.min,
		       x->ratio.max, x->want, x->pass ? "PASS" : "MISS",
		       target_what(x, t));
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
	const struct ipx_hctl_agent *s = ipx_hctl_agent_at(r->ctl, 0);
	const struct ipx_hctl_agent *d = ipx_hctl_agent_at(r->ctl, 1);
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
	       r->link ? "link" : "hub", r->hubtext);
	if (r->hub_cpu >= 0)
		printf(" (CPU %d)", r->hub_cpu);
	printf(", --pin %s%s\n\n", ipx_b1_pin_name(r->o.pin),
	       r->pin_fallback ? " (split needs 2 CPUs per agent)" : "");
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
		       row_name(w->kind),
		       grouped(w->carried.median, c, sizeof(c)), rng, snt, del,
		       w->loss.median * 100, w->kbps.median,
		       w->ratio_ipx.median, ref, rr, lat, cpu);
	}
	printf("%-17s %9s round trips/s [%s - %s]; per round trip p50 %.1f "
	       "us, p99 %.1f us\n",
	       row_name(IPX_BW_RTT), grouped(rtt->pps.median, a, sizeof(a)),
	       grouped(rtt->pps.min, b, sizeof(b)),
	       grouped(rtt->pps.max, c, sizeof(c)), rtt->lat_p50 / 1e3,
	       rtt->lat_p99 / 1e3);
	print_notes(rep);
}

/* A JSON string: agent names may hold any printable character. */
static void json_text(const char *t)
{
	putchar('"');
	for (; *t; t++) {
		if (*t == '"' || *t == '\\')
			putchar('\\');
		if ((unsigned char)*t >= 0x20)
			putchar(*t);
	}
	putchar('"');
}

static void json_summary(const char *name, const struct ipx_stat_summary *s,
			 const char *tail)
{
	printf("\"%s\": {\"median\": %.6g, \"min\": %.6g, \"max\": %.6g}%s",
	       name, s->median, s->min, s->max, tail);
}

static void json_row(const struct ipx_b1_report *rep,
		     const struct ipx_b1_sample *samples,
		     const struct ipx_b1_row *w, const char *tail)
{
	int t = row_target(w->kind);

	printf("    {\"kind\": \"%s\", \"name\": \"%s\", ",
	       ipx_bw_kind_name(w->kind), row_name(w->kind));
	json_summary("pps", &w->pps, ", ");
	json_summary("carried_kB_per_s", &w->kbps, ", ");
	json_summary("sent", &w->sent, ", ");
	json_summary("delivered", &w->delivered, ", ");
	json_summary("loss", &w->loss, ", ");
	json_summary("carried_pps", &w->carried, ", ");
	json_summary("ratio_ipx", &w->ratio_ipx, ", ");
	json_summary("retransmits", &w->retransmits, ", ");
	if (w->lat_count)
		printf("\"latency_us\": {\"p50\": %.3f, \"p99\": %.3f, "
		       "\"max\": %.3f, \"mean\": %.3f}, ",
		       w->lat_p50 / 1e3, w->lat_p99 / 1e3, w->lat_max / 1e3,
		       w->lat_mean / 1e3);
	else
		printf("\"latency_us\": null, ");
	if (w->ref_pps > 0)
		printf("\"ref_1990_pps\": %.1f, \"ref_1990_ratio_ipx\": %.4f, ",
		       w->ref_pps, w->ref_ratio);
	else
		printf("\"ref_1990_pps\": null, \"ref_1990_ratio_ipx\": null, ");
	if (t >= 0)
		printf("\"target\": \"%s\", ", target_name(&rep->target[t], t));
	/* every counted pass as measured: sender's rate, receiver's count */
	printf("\"runs\": [");
	for (unsigned i = 0; i < rep->repeat; i++) {
		const struct ipx_b1_sample *x =
			&samples[ipx_b1_index(i, w->kind)];

		printf("%s{\"pps\": %.1f, \"sent\": %llu, \"delivered\": "
		       "%llu, \"cpu\": [%d, %d]}",
		       i ? ", " : "", x->snd.pps,
		       (unsigned long long)x->snd.sent,
		       (unsigned long long)x->rcv.delivered, x->snd.cpu,
		       x->rcv.cpu);
	}
	printf("], ");
	printf("\"cpu\": {\"sender\": %d, \"receiver\": %d}, \"why\": \"%s\"}%s\n",
	       w->cpu_snd, w->cpu_rcv, row_why(w->kind), tail);
}

static void print_json(const struct run_ctx *r,
		       const struct ipx_b1_sample *samples,
		       const struct ipx_b1_report *rep)
{
	printf("{\n  \"benchmark\": \"protocols\", \"spec\": \"B1\", "
	       "\"complete\": %s,\n", r->interrupted ? "false" : "true");
	printf("  \"config\": {\"count\": %u, \"seconds\": %g, \"size\": %zu, "
	       "\"repeat\": %u, \"warmup\": 1, \"pin\": \"%s\", ",
	       r->o.count, r->o.count ? 0 : r->o.seconds, r->o.size,
	       rep->repeat, ipx_b1_pin_name(r->o.pin));
	if (r->link) {
		printf("\"hub\": null, \"link\": ");
		json_text(r->hubtext);
	} else {
		printf("\"hub\": \"%s\", \"link\": \"hub:%s\"", r->hubtext,
		       r->hubtext);
	}
	printf(", \"hub_cpu\": %d, \"baseline\": \"%s\", \"agents\": [",
	       r->hub_cpu, eth_baseline ? "ethernet frames" : "udp");
	for (size_t i = 0; i < ipx_hctl_agent_count(r->ctl); i++) {
		const struct ipx_hctl_agent *g = ipx_hctl_agent_at(r->ctl, i);

		printf("%s{\"role\": \"%s\", \"name\": ", i ? ", " : "",
		       i ? "receiver" : "sender");
		json_text(g->name);
		printf(", \"pid\": %u, \"cpus\": %u}", g->pid, g->cpus);
	}
	printf("]},\n  \"rows\": [\n");
	for (int i = 0; i < IPX_B1_ROWS; i++)
		json_row(rep, samples, &rep->row[ipx_b1_rows[i]],
			 i + 1 < IPX_B1_ROWS ? "," : "");
	printf("  ],\n  \"rtt\":\n");
	json_row(rep, samples, &rep->row[IPX_BW_RTT], ",");
	printf("  \"targets\": [\n");
	for (int t = 0; t < IPX_B1_TARGETS; t++) {
		const struct ipx_b1_target *x = &rep->target[t];

		printf("    {\"name\": \"%s\", \"what\": \"%s\", ",
		       target_name(x, t), target_what(x, t));
		json_summary("ratio", &x->ratio, ", ");
		printf("\"want\": %.2f, \"pass\": %s}%s\n", x->want,
		       x->pass ? "true" : "false",
		       t + 1 < IPX_B1_TARGETS ? "," : "");
	}
	printf("  ],\n  \"all_pass\": %s\n}\n", rep->all_pass ? "true" : "false");
}

static void print_csv(const struct ipx_b1_report *rep)
{
	printf("kind,name,pps_median,pps_min,pps_max,carried_median,"
	       "carried_min,carried_max,carried_kB_per_s_median,sent_median,"
	       "delivered_median,loss_median,ratio_ipx_median,ref_1990_pps,"
	       "ref_1990_ratio_ipx,latency_p50_us,latency_p99_us,cpu_sender,"
	       "cpu_receiver,target,target_ratio,target_want,target_pass\n");
	for (int i = 0; i <= IPX_B1_ROWS; i++) {
		enum ipx_bw_kind k = i < IPX_B1_ROWS ? ipx_b1_rows[i]
						      : IPX_BW_RTT;
		const struct ipx_b1_row *w = &rep->row[k];
		int t = row_target(k);

		printf("%s,%s,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%.2f,%.0f,%.0f,"
		       "%.6f,%.4f,",
		       ipx_bw_kind_name(k), row_name(k), w->pps.median,
		       w->pps.min, w->pps.max, w->carried.median,
		       w->carried.min, w->carried.max, w->kbps.median,
		       w->sent.median,
		       w->delivered.median, w->loss.median,
		       w->ratio_ipx.median);
		if (w->ref_pps > 0)
			printf("%.1f,%.4f,", w->ref_pps, w->ref_ratio);
		else
			printf(",,");
		if (w->lat_count)
			printf("%.3f,%.3f,", w->lat_p50 / 1e3,
			       w->lat_p99 / 1e3);
		else
			printf(",,");
		printf("%d,%d,", w->cpu_snd, w->cpu_rcv);
		if (t >= 0)
			printf("%s,%.4f,%.2f,%s\n",
			       target_name(&rep->target[t], t),
			       rep->target[t].ratio.median, rep->target[t].want,
			       rep->target[t].pass ? "PASS" : "MISS");
		else
			printf(",,,\n");
	}
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
	ipx_hctl_free(r->ctl);	/* QUIT: the agents started here exit */
	r->ctl = NULL;
	if (r->cn.loop) {
		cli_node_close(&r->cn);
	} else {
		ipx_node_free(r->node);	/* closes its link first */
		if (r->cap && ipx_capture_close(r->cap) != IPX_OK)
			cli_error(CMD, "--pcap: some packets could not be "
				       "written");
		r->cap = NULL;
		ipx_loop_free(r->loop);
	}
	r->node = NULL;
	r->loop = NULL;
	ipx_hnet_stop(r->net, ok ? 2 * IPX_SEC : 0);
	r->net = NULL;
}

/* The controller's node: SPX notices a silent agent within seconds. */
static void controller_config(struct ipx_config *cfg)
{
	cfg->spx_listen_timeout = 18;	/* about 1 s */
	cfg->spx_verify_timeout = 9;
	cfg->spx_abort_timeout = 108;	/* about 6 s */
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
	r->loop = r->cn.loop;
	r->node = r->cn.node;
	snprintf(r->hubtext, sizeof(r->hubtext), "%s", r->link);
	eth_baseline = true;
	return CLI_OK;
}

static int choose_pin(struct run_ctx *r)
{
	unsigned fewest = UINT32_MAX;

	for (size_t i = 0; i < ipx_hctl_agent_count(r->ctl); i++)
		if (ipx_hctl_agent_at(r->ctl, i)->cpus < fewest)
			fewest = ipx_hctl_agent_at(r->ctl, i)->cpus;
	if (r->o.pin == IPX_B1_PIN_SPLIT && fewest < 2) {
		if (r->pin_given) {
			cli_error(CMD, "--pin split needs 2 CPUs, and an agent "
				       "has %u: use --pin same or none",
				  fewest);
			return -1;
		}
		r->o.pin = IPX_B1_PIN_NONE;
		r->pin_fallback = true;
	}
	return 0;
}

/*
 * The hub we started goes where the receiver runs (split: the sender has
 * a CPU of its own, the receiver and the hub share the other; same: all
 * three on one): a hub left free to wander between CPUs moved every
 * request/response figure by up to 3x from one pass to the next, since a
 * wake-up across CPUs costs far more than one on the same CPU
 * (docs/benchmarks.md, CPU placement).
 */
static int pin_hub(struct run_ctx *r, char *err, size_t errlen)
{
	int cpu = ipx_b1_pin_cpu(r->o.pin, IPX_BW_RECEIVER);
	int rc;

	r->hub_cpu = -1;
	if (cpu < 0 || !r->net)
		return IPX_OK;
	rc = ipx_hnet_pin_hub(r->net, cpu, err, errlen);
	if (rc == IPX_ENOTFOUND)
		return IPX_OK;	/* not ours (--hub): left as it is */
	if (rc == IPX_OK)
		r->hub_cpu = cpu;
	return rc;
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
	struct sockaddr_in hub;
	char host[32];
	int rc = ipx_hnet_start(no, &r->net, err, errlen);

	if (rc != IPX_OK)
		return rc;
	ipx_hnet_hub(r->net, &hub);
	snprintf(r->hubtext, sizeof(r->hubtext), "%s:%u",
		 inet_ntop(AF_INET, &hub.sin_addr, host, sizeof(host)),
		 ntohs(hub.sin_port));
	rc = ipx_hnet_join(&hub, ccfg, no->wait, &r->loop, &r->node, err,
			   errlen);
	if (rc == IPX_OK)
		cli_stop_on_signals(r->loop);
	if (rc == IPX_OK && r->hub && r->pcap) {
		/* not our hub: the controller's own traffic */
		if (cli_capture_open(CMD, r->loop, r->pcap, &r->cap) !=
		    CLI_OK) {
			teardown(r, false);
			*rc_cli = CLI_FAIL;
			return IPX_EINVAL;
		}
		ipx_capture_attach(r->cap, ipx_node_link(r->node, 0));
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

	controller_config(&ccfg);
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
		rc = ipx_hctl_new(r->node, &r->ctl);
	if (rc == IPX_OK) {
		if (!r->agents)
			ipx_hctl_set_watch(r->ctl, ipx_hnet_watch, r->net);
		rc = ipx_hctl_attach(r->ctl, names, 2, no->wait, err, errlen);
	}
	if (rc == IPX_OK && choose_pin(r) < 0) {
		teardown(r, false);
		*rc_cli = CLI_USAGE;
		return IPX_EINVAL;
	}
	if (rc == IPX_OK)
		rc = pin_hub(r, err, errlen);
	return rc;
}

/* After ipx_b1_run: a signal? Then the passes that finished. The figures
 * printed; the CLI_ exit code. */
static int finish(struct run_ctx *r, int rc, struct ipx_b1_sample *samples,
		  struct ipx_b1_report *rep, const char *err)
{
	if (rc != IPX_OK && r->loop) {	/* SIGINT, SIGTERM? */
		if (rc != IPX_ECLOSED)	/* an agent killed by the same ^C */
			ipx_loop_run_once(r->loop, 0);
		r->interrupted = rc == IPX_ECLOSED ||
				 ipx_loop_stopped(r->loop);
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
			printf("{\"benchmark\": \"protocols\", \"spec\": "
			       "\"B1\", \"complete\": false, \"rows\": []}\n");
		}
	} else if (rc == IPX_OK) {
		ipx_b1_summarize(samples, r->o.repeat, rep);
	}
	if (rc == IPX_OK) {
		if (r->json)
			print_json(r, samples, rep);
		else if (r->csv)
			print_csv(rep);
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
		rc = ipx_b1_run(r->ctl, 0, 1, &r->o, on_progress, r, samples,
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
	r.hub_cpu = -1;
	r.o.drain = IPX_B1_DEFAULT_DRAIN;
	r.wait = DEFAULT_WAIT;
	rc = parse_options(&r, argc, argv);
	if (rc != CLI_OK)
		return rc < 0 ? CLI_OK : rc;
	if (ipx_log_get_level() == IPX_LOG_INFO)
		ipx_log_set_level(IPX_LOG_WARN);
	return run(&r);
}
