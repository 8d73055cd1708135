/*
 * plot_b9.c - B9's plot kinds (bench_suite.h; the others are in
 * plot_kinds.c and plot_b7.c): the kB/s of each workload at each step of
 * the sweep beside the note's ceiling and six-workstation figures (in
 * kB/s, from the JSON's published members), and each change's percent
 * per workload beside the note's low and high percentages.
 */
#include <stdio.h>
#include <string.h>

#include "ipxlab/bench_b9.h"
#include "suite_int.h"

/* The measurement of config with workload w in runs, or NULL. */
static const struct ipx_jv *b9_run(const struct ipx_jv *runs,
				   const char *config, unsigned w)
{
	const char *want = ipx_b9_workload_name(w);

	for (size_t i = 0; runs && i < runs->n; i++) {
		const struct ipx_jv *r = ipx_jv_at(runs, i);
		const char *c = ipx_jv_str(r, "config");
		const char *wl = ipx_jv_str(r, "workload");

		if (c && wl && !strcmp(c, config) && !strcmp(wl, want))
			return r;
	}
	return NULL;
}

/* Whether run i's config came earlier in runs (each step once). */
static bool b9_seen(const struct ipx_jv *runs, size_t i)
{
	const char *c = ipx_jv_str(ipx_jv_at(runs, i), "config");

	for (size_t k = 0; k < i; k++) {
		const char *o = ipx_jv_str(ipx_jv_at(runs, k), "config");

		if (o && c && !strcmp(o, c))
			return true;
	}
	return false;
}

/* A 1990 line's title: its figure in kB/s and as published. */
static void b9_title(FILE *out, const struct ipx_jv *ceil, const char *what,
		     const char *key)
{
	char path[64], t[128];
	double kb = 0, pub = 0;

	snprintf(path, sizeof(path), "published_%s_in_kB_per_s", key);
	ipx_jv_num(ceil, path, &kb);
	snprintf(path, sizeof(path), "published_%s_KB_per_s", key);
	ipx_jv_num(ceil, path, &pub);
	snprintf(t, sizeof(t), "%s %.1f kB/s (its %.0f KB/s)",
		 what, kb, pub);
	fputc(' ', out);
	ipx_plot_label(out, t);
}

/* A line per step (in the order measured): the eight workloads' kB/s (NaN
 * where not run), then the note's ceiling and six workstations. */
static bool b9_steps(const struct ipx_jv *r, FILE *out)
{
	static const char *const heads[IPX_B9_WORKLOADS] = {
		"NetBIOS read, 1 ws", "NetBIOS write, 1 ws", "NCP read, 1 ws",
		"NCP write, 1 ws",    "NCP read, 6 ws",	     "NCP write, 6 ws",
		"NetBIOS read, 6 ws", "NetBIOS write, 6 ws",
	};
	const struct ipx_jv *runs = ipx_jv_get(r, "runs");
	const struct ipx_jv *ceil = ipx_jv_get(r, "ceiling");
	size_t lines = 0;

	fputs("step", out);
	for (unsigned w = 0; w < IPX_B9_WORKLOADS; w++) {
		fputc(' ', out);
		ipx_plot_label(out, heads[w]);
	}
	b9_title(out, ceil, "1990 ceiling", "back_to_back");
	b9_title(out, ceil, "1990 six ws", "six_ws");
	fputc('\n', out);
	for (size_t i = 0; runs && runs->type == IPX_JARR && i < runs->n;
	     i++) {
		const char *c = ipx_jv_str(ipx_jv_at(runs, i), "config");

		if (!c || b9_seen(runs, i))
			continue;
		ipx_plot_label(out, c);
		for (unsigned w = 0; w < IPX_B9_WORKLOADS; w++)
			ipx_plot_num(out, b9_run(runs, c, w), "kB_per_s");
		ipx_plot_num(out, ceil, "published_back_to_back_in_kB_per_s");
		ipx_plot_num(out, ceil, "published_six_ws_in_kB_per_s");
		fputc('\n', out);
		lines++;
	}
	return lines > 0;
}

#define B9_BARS \
	"set style data histograms\n" \
	"set style histogram clustered gap 1\n" \
	"set style fill solid 0.85 border -1\n" \
	"set key autotitle columnhead tmargin center horizontal\n" \
	"set grid ytics\nset xtics rotate by -30 scale 0\nset bmargin 6\n"

const struct ipx_plot_kind ipx_plots_b9[] = {
	{ "b9-steps", "B9: kB/s of each workload at each tuning step",
	  "Data per second (kB = 1000 bytes) of each workload at each step "
	  "of the sweep, all workstations together, beside the note's wire "
	  "ceiling (dashed, 666.7 kB/s: its 651 KB/s of 1,024 bytes) and its "
	  "six workstations together (dotted, 548.9 kB/s: its 536 KB/s). "
	  "Larger transmit buffers (larger frames) raise every bar up to 2K "
	  "and little beyond; a second transmit buffer helps only six "
	  "workstations reading, NCP or NetBIOS (the server has the next "
	  "frame ready). The "
	  "one-workstation bars stay under the ceiling: a frame's copy and "
	  "its wire time, one after the other. NCP has no bars at 256 and "
	  "512 bytes (its packets do not fit).",
	  b9_steps, .script = B9_BARS
	  "set ylabel 'kB/s (1000 bytes)'\nset yrange [0:*]\n"
	  "plot for [i=2:9] data using i:xtic(1), "
	  "'' using 0:10 with lines dt 2 lw 2 lc 'gray30' "
	  "title columnhead(10), "
	  "'' using 0:11 with lines dt 3 lw 2 lc 'black' "
	  "title columnhead(11)\n" },
	{ "b9-changes", "B9: each change's percent beside the note's",
	  "The percent change of each workload for each of the note's "
	  "changes (from the first configuration to the second), beside "
	  "the note's low and high figures (LAN Manager over NetBEUI; no "
	  "bar where it gives none, or where NCP does not run). The note's "
	  "small frames cost far more per frame than ipxlab's, so its 256 "
	  "-> 1K gain is larger; receive buffers change little in both.",
	  .rows = "changes", .x = "step",
	  .y = { { "measured_pct.netbios_read_1ws", "nb rd1" },
		 { "measured_pct.netbios_write_1ws", "nb wr1" },
		 { "measured_pct.ncp_read_1ws", "ncp rd1" },
		 { "measured_pct.ncp_write_1ws", "ncp wr1" },
		 { "measured_pct.ncp_read_6ws", "ncp rd6" },
		 { "measured_pct.ncp_write_6ws", "ncp wr6" },
		 { "measured_pct.netbios_read_6ws", "nb rd6" },
		 { "measured_pct.netbios_write_6ws", "nb wr6" },
		 { "published_low_pct", "1990 low" },
		 { "published_high_pct", "1990 high" } },
	  .script = B9_BARS "set ylabel 'change, %'\nset xzeroaxis\n"
	  "plot for [i=2:9] data using i:xtic(1), "
	  "'' using 10 lc 'gray60', '' using 11 lc 'gray30'\n" },
	{ NULL },
};
