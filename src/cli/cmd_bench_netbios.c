/*
 * cmd_bench_netbios.c - "ipxlab bench netbios": NetBIOS datagram and
 * session message rates beside IPX on the benchmark harness. A sender and
 * a receiver agent (each its own process and IPX node) and the hub the
 * harness starts; each pass runs five workloads between them: the IPX
 * echo (round trips), IPX and NetBIOS datagrams under a credit window,
 * and NetBIOS session SENDs of SIZE and of 65,535 bytes.
 */
#include <getopt.h>
#include <math.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

#include "bench_common.h"
#include "ipxlab/bench_result.h"
#include "cli.h"
#include "ipxlab/bench_stat.h"
#include "ipxlab/err.h"
#include "ipxlab/ipx.h"
#include "ipxlab/link_udp.h"
#include "ipxlab/log.h"
#include "ipxlab/netbios.h"

#define CMD "bench"
#define MAX_REPEAT 20
#define DEFAULT_SECONDS 1.0
#define DEFAULT_WARMUP 0.2
#define DEFAULT_SIZE 512
#define DEFAULT_WINDOW 16
#define ECHO_SIZE 32		/* the round trips' packets */
/* Session data per packet on the tunnel (what a 65,535-byte SEND is cut
 * into): its largest IPX payload less the session header. */
#define SESSION_DATA (IPX_UDP_MTU - IPX_HDR_LEN - NB_SESS_HDR_LEN)

enum row { R_RTT, R_IPX, R_NB, R_SESSION, R_BIG, ROWS };

static const struct {
	const char *json, *unit;
	bool timed;		/* a per-send time (round trip, SEND) */
	enum ipx_bw_kind kind;
} rows[ROWS] = {
	[R_RTT] = { "ipx_round_trips", "/s", true, IPX_BW_RTT },
	[R_IPX] = { "ipx_datagrams", "pkt/s", false, IPX_BW_IPX },
	[R_NB] = { "netbios_datagrams", "pkt/s", false, IPX_BW_NB_DGRAM },
	[R_SESSION] = { "session_messages", "msg/s", true,
			IPX_BW_NB_SESSION },
	[R_BIG] = { "session_64k_messages", "msg/s", true,
		    IPX_BW_NB_SESSION },
};

struct opts {
	double seconds;
	unsigned long repeat;
	size_t size;
	unsigned window;
	bool json, csv, quiet;
	bool interrupted;	/* Ctrl-C: the runs that finished */
};

/* One row, one run. */
struct rate {
	double seconds;		/* the sender's (datagrams: receiver's) */
	uint64_t count;		/* round trips, datagrams or messages */
	double rate;		/* count per second */
	double p50_us, p99_us;	/* per round trip or SEND */
	uint64_t sent, delivered, stalls, retransmits;
};

static void help_bench_netbios(FILE *out)
{
	fprintf(out,
		"usage: ipxlab bench netbios [options]\n\n"
		"NetBIOS datagram and session message rates beside IPX, in one run\n"
		"over one hub on 127.0.0.1 (hub, sender and receiver are three\n"
		"processes: the benchmark harness's agents). Rows: IPX round trips\n"
		"(ping-pong), IPX datagrams, NetBIOS datagrams, NetBIOS session\n"
		"messages of SIZE bytes, and 65,535-byte session messages. The\n"
		"session is stop-and-wait (one packet in flight, an ack for each),\n"
		"so its message rate is bounded by its round trip: the output\n"
		"gives both, beside IPX's. One uncounted warm-up pass (%g s a row)\n"
		"comes first.\n\n"
		"  -s, --seconds S     sending per row and run (default %g)\n"
		"  -r, --repeat N      runs; medians with min and max (default 3)\n"
		"      --size N        datagram and message bytes (default %d, <= %d)\n"
		"      --window N      datagrams not yet credited (default %d)\n"
		"      --json, --csv   machine-readable output (every run)\n"
		"  -q, --quiet         no progress line\n"
		"  -h, --help          this text\n",
		DEFAULT_WARMUP, DEFAULT_SECONDS, DEFAULT_SIZE, NB_MAX_DATAGRAM,
		DEFAULT_WINDOW);
}

enum { OPT_SIZE = OPT_FIRST_CMD, OPT_WINDOW, OPT_JSON, OPT_CSV };

static int parse_options(struct opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "seconds", required_argument, NULL, 's' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "size", required_argument, NULL, OPT_SIZE },
		{ "window", required_argument, NULL, OPT_WINDOW },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "csv", no_argument, NULL, OPT_CSV },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long v;
	int opt;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":s:r:qh", longopts, NULL)) !=
	       -1) {
		switch (opt) {
		case 's':
		case 'r':
			if (bench_window_opt(opt, optarg, &o->seconds, NULL,
					     &o->repeat, MAX_REPEAT) < 0)
				return CLI_USAGE;
			break;
		case OPT_SIZE:
			if (cli_parse_uint(CMD, "--size", optarg, 1,
					   NB_MAX_DATAGRAM, &v) < 0)
				return CLI_USAGE;
			o->size = v;
			break;
		case OPT_WINDOW:
			if (cli_parse_uint(CMD, "--window", optarg, 4, 4096,
					   &v) < 0)
				return CLI_USAGE;
			o->window = (unsigned)v;
			break;
		case OPT_JSON:
			o->json = true;
			break;
		case OPT_CSV:
			o->csv = true;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'h':
			help_bench_netbios(stdout);
			return -1;
		default:
			return bench_bad_option("netbios", opt, argv);
		}
	}
	if (bench_end_of_options("netbios", argc, argv, o->json, o->csv) !=
	    CLI_OK)
		return CLI_USAGE;
	return CLI_OK;
}

static void params_of(const struct opts *o, enum row r, double seconds,
		      struct ipx_bw_params *w)
{
	memset(w, 0, sizeof(*w));
	w->kind = rows[r].kind;
	w->seconds = seconds;
	w->size = r == R_RTT ? ECHO_SIZE : r == R_BIG ? NB_MAX_MESSAGE : o->size;
	if (r == R_IPX || r == R_NB)
		w->window = o->window;
}

static void rate_of(enum row r, const struct ipx_bpair_run *x,
		    struct rate *out)
{
	const struct ipx_bw_result *s = &x->snd, *d = &x->rcv;

	memset(out, 0, sizeof(*out));
	if (rows[r].timed) {
		out->seconds = s->seconds;
		out->count = s->sent;
		out->rate = s->pps;
		out->p50_us = (double)ipx_hist_percentile(&s->lat, 50) / 1e3;
		out->p99_us = (double)ipx_hist_percentile(&s->lat, 99) / 1e3;
	} else {	/* datagrams: what arrived */
		out->seconds = d->seconds;
		out->count = d->delivered;
		out->rate = d->pps;
		out->sent = s->sent;
		out->delivered = d->delivered;
		out->stalls = s->stalls;
	}
	out->retransmits = s->retransmits;
}

/* ---- printing ---- */

static struct ipx_stat_summary spread(const struct rate (*res)[ROWS],
				      unsigned long n, enum row r,
				      size_t field)
{
	double v[MAX_REPEAT];
	struct ipx_stat_summary s;

	for (unsigned long i = 0; i < n; i++)
		v[i] = *(const double *)((const char *)&res[i][r] + field);
	ipx_stat_summarize(v, n, &s);
	return s;
}

#define RATE offsetof(struct rate, rate)
#define P50 offsetof(struct rate, p50_us)
#define P99 offsetof(struct rate, p99_us)

static double loss_of(const struct rate (*res)[ROWS], unsigned long n,
		      enum row r)
{
	uint64_t sent = 0, delivered = 0;

	for (unsigned long i = 0; i < n; i++) {
		sent += res[i][r].sent;
		delivered += res[i][r].delivered < res[i][r].sent
				     ? res[i][r].delivered
				     : res[i][r].sent;
	}
	return sent ? (double)(sent - delivered) / (double)sent : 0;
}

static const char *label_of(const struct opts *o, enum row r, char *buf,
			    size_t len)
{
	switch (r) {
	case R_RTT:
		snprintf(buf, len, "IPX round trips (ping-pong)");
		break;
	case R_IPX:
	case R_NB:
		snprintf(buf, len, "%s datagrams, %zu bytes",
			 r == R_IPX ? "IPX" : "NetBIOS", o->size);
		break;
	case R_SESSION:
		snprintf(buf, len, "NetBIOS session, %zu-byte msgs", o->size);
		break;
	default:
		snprintf(buf, len, "NetBIOS session, 65535-byte msgs");
		break;
	}
	return buf;
}

static void print_rows(const struct opts *o, const struct rate (*res)[ROWS])
{
	char label[64];

	printf("%-33s %8s %-17s %-6s %10s %10s\n", "", "rate", " (min-max)", "",
	       "p50", "p99");
	for (int k = 0; k < ROWS; k++) {
		struct ipx_stat_summary rate = spread(res, o->repeat, k, RATE);

		printf("%-33s %8.0f %8.0f-%-8.0f %-6s",
		       label_of(o, (enum row)k, label, sizeof(label)),
		       rate.median, rate.min, rate.max, rows[k].unit);
		if (rows[k].timed)
			printf(" %7.1f us %7.1f us",
			       spread(res, o->repeat, k, P50).median,
			       spread(res, o->repeat, k, P99).median);
		else
			printf("%22s loss %.2f%%", "",
			       100.0 * loss_of(res, o->repeat, k));
		putchar('\n');
	}
}

static void print_text(const struct opts *o, const struct rate (*res)[ROWS])
{
	int packets = (NB_MAX_MESSAGE + SESSION_DATA - 1) / SESSION_DATA;
	double ipx_rtt = spread(res, o->repeat, R_RTT, P50).median;
	double msg_rtt = spread(res, o->repeat, R_SESSION, P50).median;
	double big_us = spread(res, o->repeat, R_BIG, P50).median;
	double msg_rate = spread(res, o->repeat, R_SESSION, RATE).median;
	uint64_t resent = 0;

	for (unsigned long i = 0; i < o->repeat; i++)
		resent += res[i][R_SESSION].retransmits +
			  res[i][R_BIG].retransmits;
	print_rows(o, res);
	printf("\nThe session is stop-and-wait: one packet in flight, an ack "
	       "for each.\n");
	printf("round trip measured: IPX %.1f us; session message (SEND to "
	       "its POST) %.1f us\n",
	       ipx_rtt, msg_rtt);
	if (msg_rtt > 0)
		printf("bound: one message per round trip = %.0f msg/s; the "
		       "session reached %.0f (%.0f%%)\n",
		       1e6 / msg_rtt, msg_rate, 100.0 * msg_rate * msg_rtt / 1e6);
	printf("65,535-byte messages: %d packets of %d bytes, one round "
	       "trip each: %.1f us per packet\n(%.0f us a message), %.1f "
	       "MB/s\n",
	       packets, SESSION_DATA, big_us / packets, big_us,
	       spread(res, o->repeat, R_BIG, RATE).median * NB_MAX_MESSAGE /
		       1e6);
	printf("(no 1990 figure beside these: B1, 'ipxlab bench protocols', "
	       "has the AppNote's)\n");
	if (resent)
		printf("note: the sessions sent %llu packets again (loss on "
		       "loopback: the machine was busy)\n",
		       (unsigned long long)resent);
}

/* One row of one run as its JSON object shows it (bench_result.h). */
#define RF(M, NAME, FMT, TYPE) \
	IPX_RF(struct rate, M, NAME, "", FMT, TYPE, IPX_RF_JSON)
static const struct ipx_rfield rate_fields[] = {
	RF(rate, "rate", "%.1f", IPX_RF_DOUBLE),
	RF(count, "count", NULL, IPX_RF_U64),
	RF(seconds, "seconds", "%.4f", IPX_RF_DOUBLE),
	RF(p50_us, "p50_us", "%.1f", IPX_RF_DOUBLE),
	RF(p99_us, "p99_us", "%.1f", IPX_RF_DOUBLE),
	RF(sent, "sent", NULL, IPX_RF_U64),
	RF(delivered, "delivered", NULL, IPX_RF_U64),
	RF(stalls, "stalls", NULL, IPX_RF_U64),
};
static const struct ipx_rtable rate_table = IPX_RTABLE("row", rate_fields);

static void print_json(const struct opts *o, const struct ipx_bpair *b,
		       const struct rate (*res)[ROWS])
{
	struct ipx_jw w;

	ipx_jw_init(&w, stdout);
	ipx_jw_obj(&w, NULL);
	ipx_jw_str(&w, "benchmark", "netbios");
	if (o->interrupted)
		ipx_jw_bool(&w, "complete", false);
	bench_pair_json_conditions(&w, b, "not pinned");
	ipx_jw_u64(&w, "size", o->size);
	ipx_jw_u64(&w, "window", o->window);
	ipx_jw_dbl(&w, "seconds", "%g", o->seconds);
	ipx_jw_u64(&w, "repeat", o->repeat);
	ipx_jw_dbl(&w, "warmup", "%g", DEFAULT_WARMUP);
	ipx_jw_null(&w, "ref_1990");
	ipx_jw_arr(&w, "runs");
	for (unsigned long i = 0; i < o->repeat; i++) {
		ipx_jw_obj(&w, NULL);
		ipx_jw_int(&w, "session_packet_data", SESSION_DATA);
		ipx_jw_u64(&w, "session_retransmits",
			   res[i][R_SESSION].retransmits +
				   res[i][R_BIG].retransmits);
		for (int k = 0; k < ROWS; k++)
			ipx_res_json_row(&w, rows[k].json, &rate_table,
					 &res[i][k]);
		ipx_jw_end(&w);
	}
	ipx_jw_end(&w);
	ipx_jw_obj(&w, "summary");
	for (int k = 0; k < ROWS; k++) {
		struct ipx_stat_summary s = spread(res, o->repeat, k, RATE);

		ipx_jw_obj(&w, rows[k].json);
		ipx_jw_summary(&w, "rate", "%.6g", &s);
		ipx_jw_dbl(&w, "p50_us", "%.6g",
			   spread(res, o->repeat, k, P50).median);
		ipx_jw_dbl(&w, "loss", "%.6g", loss_of(res, o->repeat, k));
		ipx_jw_end(&w);
	}
	ipx_jw_end(&w);
	ipx_jw_finish(&w);
}

/* The CSV: one line per row (timed rows: p50 and p99; others: loss). */
struct csv_line {
	const char *row, *unit;
	struct ipx_stat_summary s;
	double p50, p99, loss;	/* NAN: an empty cell */
};

#define CF(M, NAME, FMT, TYPE) \
	IPX_RF(struct csv_line, M, NAME, "", FMT, TYPE, IPX_RF_CSV)
static const struct ipx_rfield csv_fields[] = {
	CF(row, "row", NULL, IPX_RF_STR),
	CF(unit, "unit", NULL, IPX_RF_STR),
	CF(s.median, "rate_median", "%.1f", IPX_RF_DOUBLE),
	CF(s.min, "rate_min", "%.1f", IPX_RF_DOUBLE),
	CF(s.max, "rate_max", "%.1f", IPX_RF_DOUBLE),
	CF(p50, "p50_us", "%.1f", IPX_RF_DOUBLE),
	CF(p99, "p99_us", "%.1f", IPX_RF_DOUBLE),
	CF(loss, "loss", "%.6f", IPX_RF_DOUBLE),
};
static const struct ipx_rtable csv_table = IPX_RTABLE("netbios", csv_fields);

static void print_csv(const struct opts *o, const struct rate (*res)[ROWS])
{
	ipx_res_csv_header(stdout, &csv_table);
	for (int k = 0; k < ROWS; k++) {
		struct csv_line l = {
			rows[k].json, rows[k].unit,
			spread(res, o->repeat, k, RATE), NAN, NAN, NAN,
		};

		if (rows[k].timed) {
			l.p50 = spread(res, o->repeat, k, P50).median;
			l.p99 = spread(res, o->repeat, k, P99).median;
		} else {
			l.loss = loss_of(res, o->repeat, k);
		}
		ipx_res_csv_row(stdout, &csv_table, &l);
	}
}

/* One pass of every row; pass 0 is the warm-up (not kept). */
static int pass(const struct opts *o, struct ipx_bpair *b, unsigned i,
		struct rate *out, char *err, size_t errlen)
{
	for (int k = 0; k < ROWS; k++) {
		struct ipx_bw_params w;
		struct ipx_bpair_run x;
		char label[64];
		int rc;

		params_of(o, (enum row)k, i ? o->seconds : DEFAULT_WARMUP, &w);
		snprintf(label, sizeof(label), "%s, %s", rows[k].json,
			 i ? "run" : "warm-up");
		if (i)
			snprintf(label + strlen(label),
				 sizeof(label) - strlen(label), " %u", i);
		rc = ipx_bpair_run(b, label, i, &w, -1, -1, &x, err, errlen);
		if (rc != IPX_OK)
			return rc;
		rate_of((enum row)k, &x, &out[k]);
	}
	return IPX_OK;
}

int bench_netbios(int argc, char **argv)
{
	static struct rate res[MAX_REPEAT][ROWS];
	struct rate warm[ROWS];
	struct opts o = {
		.seconds = DEFAULT_SECONDS,
		.repeat = 3,
		.size = DEFAULT_SIZE,
		.window = DEFAULT_WINDOW,
	};
	struct ipx_bpair b = { .name = "netbios" };
	char err[768];
	unsigned done = 0;
	int rc;

	rc = parse_options(&o, argc, argv);
	if (rc != CLI_OK)
		return rc < 0 ? CLI_OK : rc;
	ipx_log_set_level(IPX_LOG_WARN);
	bench_pair_ui(&b, !o.quiet && isatty(STDERR_FILENO));
	b.planned = ROWS * (DEFAULT_WARMUP + o.seconds * (double)o.repeat);
	rc = ipx_bpair_start(&b, NULL, err, sizeof(err));
	if (rc == IPX_OK && !o.json && !o.csv) {
		printf("ipxlab bench netbios: hub, sender and receiver agents "
		       "on 127.0.0.1; %lu run%s of %g s per row\n",
		       o.repeat, o.repeat == 1 ? "" : "s", o.seconds);
		bench_pair_conditions(&b, "not pinned", stdout);
		printf("\n");
		fflush(stdout);
	}
	if (rc == IPX_OK)
		rc = pass(&o, &b, 0, warm, err, sizeof(err));
	for (unsigned i = 1; rc == IPX_OK && i <= o.repeat; i++) {
		rc = pass(&o, &b, i, res[i - 1], err, sizeof(err));
		done = rc == IPX_OK ? i : done;
	}
	bench_pair_progress_end(&b);
	if (b.ctl && bench_pair_cut(&b, "netbios", &rc, done, "run")) {
		o.interrupted = true;
		o.repeat = done;	/* what is printed: the runs done */
	}
	if (rc == IPX_OK && (o.repeat || o.json)) {
		const struct rate(*r)[ROWS] = (const struct rate(*)[ROWS])res;

		if (o.json)
			print_json(&o, &b, r);
		else if (o.csv)
			print_csv(&o, r);
		else
			print_text(&o, r);
	}
	ipx_bpair_stop(&b, rc == IPX_OK && !o.interrupted);
	if (rc != IPX_OK) {
		cli_error(CMD, "netbios: %s", err);
		return CLI_FAIL;
	}
	return o.interrupted ? CLI_FAIL : CLI_OK;
}
