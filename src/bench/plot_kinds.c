/*
 * plot_kinds.c - the suite's plot kinds (bench_suite.h), per benchmark:
 * each a data writer (the result's JSON to a whitespace-separated gnuplot
 * data file, a header line of column titles first, NaN where there is no
 * figure) or, for a plain series of points, the points' array, x and
 * series keys (ipx_plot_points writes those), and the gnuplot body that
 * draws it. The 1990 series are the
 * figures the benchmark's JSON carries (published_*, ref_1990_*). A new
 * benchmark's plots are an array here (B7's in plot_b7.c), named in its
 * suite_table.c row.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "suite_int.h"

const struct ipx_plot_kind ipx_plots_none[] = { { NULL } };

void ipx_plot_num(FILE *out, const struct ipx_jv *v, const char *path)
{
	const struct ipx_jv *x = ipx_suite_get(v, path);
	double d;

	if (x && ipx_jv_num(x, "", &d) && isfinite(d))
		fprintf(out, " %.6g", d);
	else
		fputs(" NaN", out);
}

void ipx_plot_label(FILE *out, const char *s)
{
	fputc('"', out);
	for (; s && *s; s++)
		fputc(*s == '"' ? '\'' : *s, out);
	fputc('"', out);
}

bool ipx_plot_points(const struct ipx_plot_kind *k, const struct ipx_jv *r,
		     FILE *out)
{
	const struct ipx_jv *rows = ipx_jv_get(r, k->rows);
	size_t n = 0;

	fprintf(out, "%s", k->x);
	for (size_t i = 0; i < IPX_PLOT_SERIES && k->y[i].key; i++) {
		fputc(' ', out);
		ipx_plot_label(out, k->y[i].title);
	}
	fputc('\n', out);
	for (size_t p = 0; rows && rows->type == IPX_JARR && p < rows->n; p++) {
		const struct ipx_jv *row = ipx_jv_at(rows, p);
		const char *s = ipx_jv_str(row, k->x);

		if (s)
			ipx_plot_label(out, s);
		else
			ipx_plot_num(out, row, k->x);
		for (size_t i = 0; i < IPX_PLOT_SERIES && k->y[i].key; i++)
			ipx_plot_num(out, row, k->y[i].key);
		fputc('\n', out);
		n++;
	}
	return n > 0;
}

/* The bars of the histograms below, one style for all. */
#define BARS \
	"set style data histograms\n" \
	"set style histogram clustered gap 1\n" \
	"set style fill solid 0.85 border -1\n" \
	"set key autotitle columnhead tmargin center horizontal\n" \
	"set grid ytics\n"

/* ---- B1: rates beside 1990's ---- */
const struct ipx_plot_kind ipx_plots_b1[] = {
	{ "b1-rates", "B1: packets per second beside 1990's",
	  "Each interface's packets per second in this run beside the 1990 "
	  "note's (log scale: today's rates are orders of magnitude above). "
	  "Read the order within each colour, not the heights across them: "
	  "the note's bars rank IPX, NetBIOS datagrams, SPX and NetBIOS "
	  "sessions; the table's 'vs IPX' columns put the same in numbers. "
	  "UDP is this machine's baseline (no 1990 bar).",
	  .rows = "rows", .x = "name",
	  .y = { { "pps.median|pps", "ipxlab packets/s" },
		 { "ref_1990_pps|ref_pps", "1990 packets/s" } },
	  .script = BARS "set logscale y\nset ylabel 'packets/s (log scale)'\n"
	  "set xtics rotate by -25 scale 0\n"
	  "plot data using 2:xtic(1), '' using 3\n" },
	{ NULL },
};

/* ---- B2: ops/s and peak per test, for each workstation count ---- */

/* The distinct workstation counts of the tests, in order. */
static size_t b2_sets(const struct ipx_jv *tests, unsigned *sets, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; tests && i < tests->n; i++) {
		double w;
		size_t k;

		if (!ipx_jv_num(ipx_jv_at(tests, i), "workstations", &w))
			continue;
		for (k = 0; k < n && sets[k] != (unsigned)w; k++)
			;
		if (k == n && n < max)
			sets[n++] = (unsigned)w;
	}
	return n;
}

/* The test named t with w workstations, or NULL. */
static const struct ipx_jv *b2_test(const struct ipx_jv *tests,
				    const char *t, unsigned w)
{
	for (size_t i = 0; tests && i < tests->n; i++) {
		const struct ipx_jv *x = ipx_jv_at(tests, i);
		const char *name = ipx_jv_str(x, "test");
		double n;

		if (name && !strcmp(name, t) &&
		    ipx_jv_num(x, "workstations", &n) && (unsigned)n == w)
			return x;
	}
	return NULL;
}

/* One line per test: the figure at path for each set (and, for the
 * peaks, the 1990 local and bridged peaks). */
static bool b2_write(const struct ipx_jv *r, FILE *out, const char *path,
		     bool y1990)
{
	const struct ipx_jv *tests = ipx_jv_get(r, "tests");
	unsigned sets[8];
	size_t ns = b2_sets(tests, sets, 8), lines = 0;

	fputs("test", out);
	for (size_t s = 0; s < ns; s++)
		fprintf(out, " \"%u ws\"", sets[s]);
	if (y1990)
		fputs(" \"1990 local, 1 ws\" \"1990 bridged, 1 ws\"", out);
	fputc('\n', out);
	for (size_t i = 0; tests && i < tests->n; i++) {
		const struct ipx_jv *x = ipx_jv_at(tests, i);
		const char *t = ipx_jv_str(x, "test");
		double w;

		if (!t || !ipx_jv_num(x, "workstations", &w) ||
		    (unsigned)w != sets[0])
			continue;	/* each test once, by its first set */
		ipx_plot_label(out, t);
		for (size_t s = 0; s < ns; s++)
			ipx_plot_num(out, b2_test(tests, t, sets[s]), path);
		if (y1990) {
			ipx_plot_num(out, x,
				     "published_peak_kbyte_per_s.local");
			ipx_plot_num(out, x,
				     "published_peak_kbyte_per_s.bridged");
		}
		fputc('\n', out);
		lines++;
	}
	return lines > 0;
}

static bool b2_ops(const struct ipx_jv *r, FILE *out)
{
	return b2_write(r, out, "total_ops_per_s", false);
}

static bool b2_peak(const struct ipx_jv *r, FILE *out)
{
	return b2_write(r, out, "analyzer_peak_kB_per_s.median", true);
}

#define B2_AXES \
	"set logscale y\nset xtics rotate by -35 scale 0 font ',9'\n" \
	"set bmargin 7\n"

const struct ipx_plot_kind ipx_plots_b2[] = {
	{ "b2-ops", "B2: operations per second per test, 1 and 5 workstations",
	  "Total operations per second of each test with each workstation "
	  "count (log scale). Where 5 workstations' bar is no higher than "
	  "1's, the test is bound by the server or the wire, not by one "
	  "workstation's round trips.",
	  b2_ops, .script = BARS B2_AXES "set ylabel 'total ops/s (log scale)'\n"
	  "plot for [i=2:*] data using i:xtic(1)\n" },
	{ "b2-peak", "B2: analyzer peak Kbyte/s per test beside 1990's",
	  "The busiest 1 s of each test on the wire with 1 and 5 "
	  "workstations, beside the 1990 note's peaks for one workstation "
	  "(local and bridged; log scale): how much more of the LAN today's "
	  "stack drives with the same operation.",
	  b2_peak, .script = BARS B2_AXES "set ylabel 'peak kB/s on the wire (log scale)'\n"
	  "plot for [i=2:*] data using i:xtic(1)\n" },
	{ NULL },
};

/* ---- B3: copy seconds against size ---- */
const struct ipx_plot_kind ipx_plots_b3[] = {
	{ "b3-copy", "B3: copy seconds against file size, ours and 1990's",
	  "Seconds to copy each of the note's seven files (log-log). The "
	  "1990 curves are flat for small files (per-file overhead) and "
	  "rise with size; ours should keep that shape far lower. The gap "
	  "between 1990's local and bridged curves is the WAN bridge's cost.",
	  .rows = "sizes", .x = "bytes",
	  .y = { { "average", "ipxlab" },
		 { "published.local_avg", "1990 local" },
		 { "published.bridged_avg", "1990 bridged" } },
	  .script = "set key autotitle columnhead top left\nset logscale xy\n"
	  "set grid\nset xlabel 'file bytes (log scale)'\n"
	  "set ylabel 'seconds per copy (log scale)'\n"
	  "plot for [i=2:4] data using 1:i with linespoints pt 7\n" },
	{ NULL },
};

/* ---- B5: arrival-gap histograms ---- */
static const char *const b5_buckets[] = {
	"0-4", "5-9", "10-14", "15-19", "20-24", "25-29", ">=30",
};

static bool b5_gaps(const struct ipx_jv *r, FILE *out)
{
	const struct ipx_jv *sets = ipx_jv_get(r, "sets");
	char path[96];

	if (!sets || !sets->n)
		return false;
	fputs("gap", out);
	for (size_t s = 0; s < sets->n; s++) {
		double w = 0;

		ipx_jv_num(ipx_jv_at(sets, s), "workstations", &w);
		fprintf(out, " \"%.0f ws\"", w);
	}
	fputc('\n', out);
	for (size_t b = 0; b < sizeof(b5_buckets) / sizeof(b5_buckets[0]);
	     b++) {
		fprintf(out, "\"%s ms\"", b5_buckets[b]);
		snprintf(path, sizeof(path),
			 "summary.all.share_percent.%s.median", b5_buckets[b]);
		for (size_t s = 0; s < sets->n; s++)
			ipx_plot_num(out, ipx_jv_at(sets, s), path);
		fputc('\n', out);
	}
	return true;
}

const struct ipx_plot_kind ipx_plots_b5[] = {
	{ "b5-gaps", "B5: packet arrival gaps of a 25,184-byte copy",
	  "The share of gaps between consecutive packets on the wire in "
	  "each bucket, for each workstation count: the 1990 note's "
	  "histogram. Gaps move to the longer buckets when the server or "
	  "the wire is the bottleneck; with several workstations copying at "
	  "once the short gaps grow (their packets interleave).",
	  b5_gaps, .script = BARS "set yrange [0:100]\nset ylabel 'share of gaps, %'\n"
	  "set xlabel 'gap between packets'\n"
	  "plot for [i=2:*] data using i:xtic(1)\n" },
	{ NULL },
};

/* ---- B6: the scaling curve and the limit search ---- */
static bool b6_limit(const struct ipx_jv *r, FILE *out)
{
	const struct ipx_jv *steps = ipx_jv_get(r, "limit.steps");
	const struct ipx_jv *pub = ipx_jv_get(r, "limit.published");

	fputs("offered \"carried to the workstations\" \"carried to the "
	      "server\" \"the copy\" \"1990 trunk each way\"\n", out);
	for (size_t i = 0; steps && i < steps->n; i++) {
		const struct ipx_jv *s = ipx_jv_at(steps, i);

		ipx_plot_num(out, s, "load_bit_per_s");
		ipx_plot_num(out, s, "to_ws_carried_bit_per_s");
		ipx_plot_num(out, s, "to_server_carried_bit_per_s");
		ipx_plot_num(out, s, "copy_bit_per_s");
		ipx_plot_num(out, pub, "trunk_bit_per_s_each_way");
		fputc('\n', out);
	}
	return steps && steps->n > 0;
}

const struct ipx_plot_kind ipx_plots_b6[] = {
	{ "b6-scaling", "B6: the scaling curve, local and bridged",
	  "Operations per second per workstation and in total as "
	  "workstations are added (log scale), with the server on the "
	  "workstations' LAN and across the WAN bridge. Where the total "
	  "stops rising the server or the link is saturated; the bridged "
	  "curve is bound by the trunk and the bridge's hold.",
	  .rows = "scaling.points", .x = "workstations",
	  .y = { { "local.ops_per_s_per_ws", "local, per ws" },
		 { "bridged.ops_per_s_per_ws", "bridged, per ws" },
		 { "local.total_ops_per_s", "local, total" },
		 { "bridged.total_ops_per_s", "bridged, total" } },
	  .script = "set key autotitle columnhead outside right\nset logscale y\n"
	  "set grid\nset xlabel 'workstations'\nset xtics 1\n"
	  "set ylabel 'ops/s (log scale)'\n"
	  "plot for [i=2:5] data using 1:i with linespoints pt 7\n" },
	{ "b6-limit", "B6: the throughput-limit search",
	  "The paced load offered each way (x) against what arrived and "
	  "what the workstation's copy got meanwhile; the dashed line is the "
	  "1990 trunk's 950 kbit/s each way. Carried follows offered until "
	  "the trunk is full; the last step whose copy completed is the "
	  "limit.",
	  b6_limit, .script = "set key autotitle columnhead bottom right\nset grid\n"
	  "set xlabel 'offered load each way, kbit/s (1000 bits)'\n"
	  "set ylabel 'kbit/s'\nset yrange [0:*]\n"
	  "plot for [i=2:4] data using ($1/1000):(column(i)/1000) "
	  "with linespoints pt 7, '' using ($1/1000):($5/1000) "
	  "with lines dt 2 lw 2\n" },
	{ NULL },
};
