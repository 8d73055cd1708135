/*
 * cmd_bench_ncp.c - "ipxlab bench ncp": what one outstanding NCP request
 * per connection costs, against the round trip measured in the same run.
 *
 * The network is the file-server benchmarks' (fsbench.h): a hub, one
 * workstation agent and ipxlab's file server on a scratch volume with the
 * fixtures (or --sim: all of it in this process in simulated time). In
 * turn, for --seconds each, the agent runs the NCP workload's operations
 * (bench_ncp.h): Novell pings of the server node (empty and with a buffer
 * of data), 1-byte reads (shared-small), open/close pairs (open-single)
 * and 256 KB parts of the 4 MB file in buffer-size reads (get); ten
 * rounds of every row in turn, so load changing during the run moves all
 * rows alike. The ratios: a 1-byte read against one round trip, an
 * open/close pair against two, and the large get against one buffer per
 * round trip of a small request and a buffer-sized answer (the mean of
 * the empty and the full ping). Targets: 80 % each. --repeat N does it
 * all N times: median, min and max.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ipxlab/bench_result.h"
#include "fsbench.h"
#include "ipxlab/bench_stat.h"
#include "ipxlab/err.h"
#include "ipxlab/log.h"
#include "ipxlab/ncp_client.h"

#define CMD "bench"
#define TARGET 0.80
#define ROUNDS 10
#define WANT_BUFSIZE 4096	/* what the workload asks for (work_ncp.c) */
#define MAX_REPEAT 100

enum { OPT_REPEAT = FSB_OPT_FIRST };

void help_bench_ncp(FILE *out)
{
	fprintf(out,
		"usage: ipxlab bench ncp [options]\n\n"
		"NCP's cost against the IPX round trip measured in the same run,\n"
		"one request outstanding: a workstation agent of the file-server\n"
		"benchmarks' network (a hub, the agent and 'ipxlab server' as\n"
		"child processes on loopback) runs, in turn, pings of the server\n"
		"node, 1-byte reads, open/close pairs and a large get (256 KB\n"
		"parts of the 4 MB fixture). Rates beside what one round trip per\n"
		"request allows, and the get beside one negotiated buffer per\n"
		"round trip. Targets: %.0f%% each.\n\n"
		"  -s, --seconds S     measurement time per row, spread over %d\n"
		"                      rounds of every row in turn (default 5)\n"
		"      --repeat N      the whole measurement N times: median,\n"
		"                      min and max (default 1; 1 to %d)\n"
		FSBENCH_HELP,
		TARGET * 100, ROUNDS, MAX_REPEAT);
}

enum row { R_EMPTY, R_FULL, R_READ, R_OC, R_GET, ROWS };

static const struct {
	enum ipx_bn_op op;
	const char *name;	/* for the progress line */
	double share;		/* of --seconds per round */
} rows[ROWS] = {
	[R_EMPTY] = { IPX_BN_PING, "empty ping", 0.5 },
	[R_FULL] = { IPX_BN_PING, "full ping", 0.5 },
	[R_READ] = { IPX_BN_SHARED_SMALL, "1-byte reads", 1 },
	[R_OC] = { IPX_BN_OPEN_SINGLE, "open+close", 1 },
	[R_GET] = { IPX_BN_GET, "large get", 1 },
};

/* The three rows of the table. */
enum { T_READ, T_OC, T_GET, TROWS };

static const struct {
	const char *what, *unit, *key;
} trow[TROWS] = {
	[T_READ] = { "1-byte read", "ops/s", "read1" },
	[T_OC] = { "open+close", "pairs/s", "open_close" },
	[T_GET] = { "large get", "kB/s", "large_get" },
};

/* One repeat's figures. */
struct fig {
	double rtt_empty, rtt_full;	/* seconds */
	double value[TROWS], bound[TROWS];
};

struct ncpb {
	struct fsbench b;
	double secs;
	unsigned repeat;
	unsigned bufsize;	/* what the server grants the workstation */
	bool interrupted;	/* Ctrl-C: the repeats that finished */
	struct fig fig[MAX_REPEAT];
};

/* measure(): a signal ended the run (no message yet). */
#define INTERRUPTED (-2)

/* The buffer the server grants a 4096-byte request on this link: asked by
 * a client of its own on the workstation's segment (the agent's own answer
 * is not in its RESULT); the same the agent negotiates. */
static int granted_bufsize(struct ncpb *t)
{
	struct ipx_node *node = t->b.bsim ? ipx_bsim_station(t->b.bsim, 0)
					  : t->b.node;
	struct ncp_client *cl = NULL;
	int rc = ncp_client_new(node, NULL, &cl);

	if (rc != IPX_OK) {
		cli_error(CMD, "ncp: an NCP client: %s", ipx_strerror(rc));
		return CLI_FAIL;
	}
	rc = ncp_connect(cl, &t->b.ro.server);
	if (!rc)
		rc = ncp_login(cl, "GUEST", "");
	if (!rc)
		rc = ncp_negotiate(cl, WANT_BUFSIZE);
	if (!rc)
		t->bufsize = ncp_bufsize(cl);
	if (!rc)
		ncp_disconnect(cl);
	ncp_client_free(cl);
	if (rc) {
		cli_error(CMD, "ncp: the file server: %s", ncp_strerror(rc));
		return CLI_FAIL;
	}
	return CLI_OK;
}

static void progress(const struct ncpb *t, unsigned rep, int round,
		     enum row r, double left)
{
	if (!t->b.progress)
		return;
	fprintf(stderr, "\r\033[K  ncp: ");
	if (t->repeat > 1)
		fprintf(stderr, "repeat %u/%u, ", rep + 1, t->repeat);
	fprintf(stderr, "round %d/%d, %s, %.1f s left", round + 1, ROUNDS,
		rows[r].name, left);
}

/* One repeat: ten rounds of every row in turn, sums of the agent's times
 * and counts per row, into fig. CLI_ code. */
static int measure(struct ncpb *t, unsigned rep, struct fig *fig)
{
	double tsum[ROWS] = { 0 }, left = t->secs * 4 * (t->repeat - rep);
	uint64_t nsum[ROWS] = { 0 };
	struct ipx_bw_result res;
	char err[768];
	int rc;

	for (int round = 0; round < ROUNDS; round++) {
		for (enum row r = 0; r < ROWS; r++) {
			double secs = t->secs / ROUNDS * rows[r].share;
			size_t size = r == R_FULL  ? t->bufsize
				      : r == R_GET ? IPX_BN_GET_PART
						   : 0;

			progress(t, rep, round, r, left);
			rc = ipx_bn_run(t->b.ctl, &t->b.ro, rows[r].op, 1, secs,
					0, size, (uint16_t)(rep + 1), &res, err,
					sizeof(err));
			if (rc != IPX_OK && fsbench_interrupted(&t->b, rc))
				return INTERRUPTED;
			if (rc != IPX_OK) {
				cli_error(CMD, "ncp: %s: %s", rows[r].name,
					  err);
				return CLI_FAIL;
			}
			tsum[r] += res.seconds;
			nsum[r] += res.sent;
			left -= secs;
		}
	}
	for (enum row r = 0; r < ROWS; r++) {
		if (!nsum[r] || !(tsum[r] > 0)) {
			cli_error(CMD, "ncp: %s: none completed", rows[r].name);
			return CLI_FAIL;
		}
	}
	fig->rtt_empty = tsum[R_EMPTY] / (double)nsum[R_EMPTY];
	fig->rtt_full = tsum[R_FULL] / (double)nsum[R_FULL];
	fig->value[T_READ] = (double)nsum[R_READ] / tsum[R_READ];
	fig->value[T_OC] = (double)nsum[R_OC] / tsum[R_OC];
	fig->value[T_GET] = (double)nsum[R_GET] * IPX_BN_GET_PART /
			    tsum[R_GET] / 1000;
	fig->bound[T_READ] = 1 / fig->rtt_empty;
	fig->bound[T_OC] = 1 / (2 * fig->rtt_empty);
	fig->bound[T_GET] =
		t->bufsize / ((fig->rtt_empty + fig->rtt_full) / 2) / 1000;
	return CLI_OK;
}

/* A figure of every repeat summarised; which: 0 value, 1 bound, 2 ratio,
 * 3 empty round trip (us), 4 full round trip (us). */
static void summary(const struct ncpb *t, int row, int which,
		    struct ipx_stat_summary *s)
{
	double v[MAX_REPEAT];

	for (unsigned i = 0; i < t->repeat; i++) {
		const struct fig *f = &t->fig[i];

		v[i] = which == 0   ? f->value[row]
		       : which == 1 ? f->bound[row]
		       : which == 2 ? f->value[row] / f->bound[row]
		       : which == 3 ? f->rtt_empty * 1e6
				    : f->rtt_full * 1e6;
	}
	ipx_stat_summarize(v, t->repeat, s);
}

static void print_json(const struct ncpb *t)
{
	struct ipx_stat_summary s;
	struct ipx_jw w;

	ipx_jw_init(&w, stdout);
	ipx_jw_obj(&w, NULL);
	ipx_jw_str(&w, "benchmark", "ncp");
	if (t->interrupted)
		ipx_jw_bool(&w, "complete", false);
	ipx_jw_obj(&w, "conditions");
	fsbench_jw_conditions(&t->b, &w);
	ipx_jw_dbl(&w, "seconds_per_row", "%.3f", t->secs);
	ipx_jw_int(&w, "rounds", ROUNDS);
	ipx_jw_u64(&w, "repeat", t->repeat);
	ipx_jw_u64(&w, "bufsize", t->bufsize);
	ipx_jw_int(&w, "get_part", IPX_BN_GET_PART);
	ipx_jw_dbl(&w, "target", "%.2f", TARGET);
	ipx_jw_end(&w);
	ipx_jw_obj(&w, "round_trip_us");
	summary(t, 0, 3, &s);
	ipx_jw_summary(&w, "empty", "%.3f", &s);
	summary(t, 0, 4, &s);
	ipx_jw_summary(&w, "full", "%.3f", &s);
	ipx_jw_end(&w);
	ipx_jw_arr(&w, "rows");
	for (int r = 0; r < TROWS; r++) {
		ipx_jw_obj(&w, NULL);
		ipx_jw_str(&w, "row", trow[r].key);
		ipx_jw_str(&w, "unit", trow[r].unit);
		summary(t, r, 0, &s);
		ipx_jw_summary(&w, "measured", "%.3f", &s);
		summary(t, r, 1, &s);
		ipx_jw_summary(&w, "bound", "%.3f", &s);
		summary(t, r, 2, &s);
		ipx_jw_summary(&w, "ratio", "%.3f", &s);
		ipx_jw_bool(&w, "pass", s.median >= TARGET);
		ipx_jw_end(&w);
	}
	ipx_jw_finish(&w);
}

/* One row of one repeat: a CSV line (bench_result.h). */
struct line {
	unsigned repeat;
	const char *row, *unit;
	double measured, bound, ratio, rtt_empty_us, rtt_full_us;
};

#define LF(M, NAME, FMT, TYPE) \
	IPX_RF(struct line, M, NAME, "", FMT, TYPE, IPX_RF_CSV)
static const struct ipx_rfield line_fields[] = {
	LF(repeat, "repeat", NULL, IPX_RF_UINT),
	LF(row, "row", NULL, IPX_RF_STR),
	LF(measured, "measured", "%.3f", IPX_RF_DOUBLE),
	LF(unit, "unit", NULL, IPX_RF_STR),
	LF(bound, "bound", "%.3f", IPX_RF_DOUBLE),
	LF(ratio, "ratio", "%.4f", IPX_RF_DOUBLE),
	LF(rtt_empty_us, "rtt_empty_us", "%.3f", IPX_RF_DOUBLE),
	LF(rtt_full_us, "rtt_full_us", "%.3f", IPX_RF_DOUBLE),
};
static const struct ipx_rtable line_table = IPX_RTABLE("ncp", line_fields);

static void print_csv(const struct ncpb *t)
{
	ipx_res_csv_header(stdout, &line_table);
	for (unsigned i = 0; i < t->repeat; i++) {
		const struct fig *f = &t->fig[i];

		for (int r = 0; r < TROWS; r++) {
			struct line l = {
				i + 1, trow[r].key, trow[r].unit,
				f->value[r], f->bound[r],
				f->value[r] / f->bound[r],
				f->rtt_empty * 1e6, f->rtt_full * 1e6,
			};

			ipx_res_csv_row(stdout, &line_table, &l);
		}
	}
}

static void print_table(const struct ncpb *t)
{
	struct ipx_stat_summary e, fu, v, bd, ra;

	printf("NCP to file server '%s', one request outstanding (buffer %u "
	       "bytes, %d MB file, %.1f s per row in %d rounds%s)\n",
	       t->b.srvname, t->bufsize, IPX_BN_LARGE_SIZE >> 20, t->secs,
	       ROUNDS, t->repeat > 1 ? "; medians of the repeats" : "");
	fsbench_print_conditions(&t->b, stdout);
	summary(t, 0, 3, &e);
	summary(t, 0, 4, &fu);
	printf("  IPX round trip (ping of the server node): %.1f us empty, "
	       "%.1f us with %u bytes\n",
	       e.median, fu.median, t->bufsize);
	printf("  %-22s %10s %-8s %10s %-8s %6s", "row", "measured", "",
	       "bound", "", "ratio");
	if (t->repeat > 1)
		printf("        %-15s", "ratio min..max");
	printf("\n");
	for (int r = 0; r < TROWS; r++) {
		summary(t, r, 0, &v);
		summary(t, r, 1, &bd);
		summary(t, r, 2, &ra);
		printf("  %-22s %10.1f %-8s %10.1f %-8s %5.1f%%  %s",
		       trow[r].what, v.median, trow[r].unit, bd.median,
		       trow[r].unit, ra.median * 100,
		       ra.median >= TARGET ? "PASS" : "MISS");
		if (t->repeat > 1)
			printf("  %5.1f..%5.1f%%", ra.min * 100, ra.max * 100);
		printf("\n");
	}
}

static int parse(struct ncpb *t, int argc, char **argv, int *code)
{
	static const struct option longopts[] = {
		{ "seconds", required_argument, NULL, 's' },
		{ "repeat", required_argument, NULL, OPT_REPEAT },
		FSBENCH_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	unsigned long v;
	int opt, rc;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":s:qvh", longopts, NULL)) !=
	       -1) {
		if (opt == 's') {
			if (cli_parse_seconds(CMD, "--seconds", optarg, 0.1,
					      3600, &t->secs) < 0)
				return CLI_USAGE;
		} else if (opt == OPT_REPEAT) {
			if (cli_parse_uint(CMD, "--repeat", optarg, 1,
					   MAX_REPEAT, &v) < 0)
				return CLI_USAGE;
			t->repeat = (unsigned)v;
		} else if (opt == 'h') {
			help_bench_ncp(stdout);
			*code = CLI_OK;
			return -1;
		} else {
			rc = fsbench_opt(&t->b, opt, optarg, 1, code);
			if (rc == 2)
				return -1;
			if (rc <= 0)
				return rc < 0 ? CLI_USAGE
					      : bench_bad_option("ncp", opt,
								 argv);
		}
	}
	if (optind < argc) {
		cli_error(CMD, "ncp: unexpected argument '%s'", argv[optind]);
		return CLI_USAGE;
	}
	return CLI_OK;
}

int bench_ncp(int argc, char **argv)
{
	struct ncpb *t = calloc(1, sizeof(*t));
	unsigned done = 0;
	int rc, code = CLI_OK;

	if (!t) {
		cli_error(CMD, "ncp: out of memory");
		return CLI_FAIL;
	}
	t->b.cmd = "ncp";
	t->b.wait = 10;
	t->b.agents = 1;
	t->secs = 5;
	t->repeat = 1;
	rc = parse(t, argc, argv, &code);
	if (rc < 0) {	/* --help or --fixtures: done */
		free(t);
		return code;
	}
	if (rc == CLI_OK)
		rc = fsbench_check(&t->b);
	if (rc != CLI_OK) {
		free(t);
		return rc;
	}
	if (ipx_log_get_level() == IPX_LOG_INFO)
		ipx_log_set_level(IPX_LOG_WARN);
	rc = fsbench_start(&t->b);
	if (rc == CLI_OK)
		rc = granted_bufsize(t);
	for (unsigned i = 0; rc == CLI_OK && i < t->repeat; i++) {
		rc = measure(t, i, &t->fig[i]);
		done = rc == CLI_OK ? i + 1 : done;
	}
	if (t->b.progress)
		fprintf(stderr, "\r\033[K");
	if (rc == INTERRUPTED) {
		cli_error(CMD, "ncp: interrupted; printing the %u repeat%s "
			       "that finished",
			  done, cli_s(done));
		t->interrupted = true;
		t->repeat = done;	/* what is printed: the repeats done */
		rc = CLI_OK;
	}
	if (rc == CLI_OK && (t->repeat || t->b.json)) {
		if (t->b.json)
			print_json(t);
		else if (t->b.csv)
			print_csv(t);
		else
			print_table(t);
	}
	fsbench_stop(&t->b, rc == CLI_OK && !t->interrupted);
	if (rc == CLI_OK && t->interrupted)
		rc = CLI_FAIL;
	free(t);
	return rc;
}
