/*
 * plot_b7.c - B7's plot kind (bench_suite.h; the others are in
 * plot_kinds.c): the total kB/s against the block size, a line per
 * configuration, beside the bulletin's published best average and peak
 * and its ceiling. A configuration without figures (burst not offered,
 * not run, not chosen) has a column of NaN titled with why; the script
 * finds such columns and lists them in the key without a line.
 */
#include <stdio.h>
#include <string.h>

#include "ipxlab/bench_b7.h"
#include "suite_int.h"

/* Row s's block size: the first configuration measured at it. */
static bool b7_block(const struct ipx_jv *cfgs, size_t s, double *block)
{
	char path[48];

	snprintf(path, sizeof(path), "sizes.%zu.block_bytes", s);
	for (size_t k = 0; cfgs && k < cfgs->n; k++)
		if (ipx_jv_num(ipx_jv_at(cfgs, k), path, block))
			return true;
	return false;
}

/* Configuration k of the four (the JSON lists those chosen), or NULL. */
static const struct ipx_jv *b7_config(const struct ipx_jv *cfgs, unsigned k)
{
	const char *want = ipx_b7_config(k)->name;

	for (size_t i = 0; cfgs && i < cfgs->n; i++) {
		const char *name = ipx_jv_str(ipx_jv_at(cfgs, i), "name");

		if (name && !strcmp(name, want))
			return ipx_jv_at(cfgs, i);
	}
	return NULL;
}

/* The bulletin's best average, peak and ceiling (the same on every
 * line), then always the four configurations in their order (gnuplot's
 * "for [i=5:*]" would stop at a column without figures): one without
 * figures is NaN, its title says why. */
static bool b7_curve(const struct ipx_jv *r, FILE *out)
{
	const struct ipx_jv *cfgs = ipx_jv_get(r, "configurations");
	const struct ipx_jv *pub = ipx_jv_get(r, "published");
	char path[48], title[128];
	double block;
	size_t s;

	fputs("block \"1990 best average\" \"1990 best peak\" "
	      "\"1990 ceiling\"", out);
	for (unsigned k = 0; k < IPX_B7_CONFIGS; k++) {
		const struct ipx_jv *c = b7_config(cfgs, k);
		const char *st = c ? ipx_jv_str(c, "status") : "not chosen";
		bool none = !st || strcmp(st, "measured");

		snprintf(title, sizeof(title), "%s%s%s%s",
			 ipx_b7_config(k)->name, none ? ": " : "",
			 none ? (st ? st : "no status") : "",
			 none ? ", no figures" : "");
		fputc(' ', out);
		ipx_plot_label(out, title);
	}
	fputc('\n', out);
	for (s = 0; b7_block(cfgs, s, &block); s++) {
		fprintf(out, "%.0f", block);
		ipx_plot_num(out, pub, "best_average_kbyte_per_s");
		ipx_plot_num(out, pub, "best_peak_kbyte_per_s");
		ipx_plot_num(out, pub, "ceiling_MB_per_s");
		snprintf(path, sizeof(path), "sizes.%zu.total_kB_per_s", s);
		for (unsigned k = 0; k < IPX_B7_CONFIGS; k++)
			ipx_plot_num(out, b7_config(cfgs, k), path);
		fputc('\n', out);
	}
	return s > 0;
}

/* Columns 5-8 are the configurations: their titles (the header line)
 * into h, how many figures each has into n; a column without any is a
 * key entry with its title and no line. */
#define B7_SCRIPT \
	"array h[4]\narray n[4] = [0, 0, 0, 0]\n" \
	"stats data every ::0::0 using (h[1] = strcol(5), h[2] = strcol(6), " \
	"h[3] = strcol(7), h[4] = strcol(8), 0) nooutput\n" \
	"stats data every ::1 using (n[1] = n[1] + valid(5), " \
	"n[2] = n[2] + valid(6), n[3] = n[3] + valid(7), " \
	"n[4] = n[4] + valid(8), 0) nooutput\n" \
	"set key autotitle columnhead bottom right opaque box\nset grid\n" \
	"set xlabel 'block bytes'\nset xtics 8192\nset xrange [0:66560]\n" \
	"set ylabel 'total kB/s (1000 bytes)'\nset yrange [0:*]\n" \
	"plot for [i=5:8] data using 1:i with linespoints pt 7, " \
	"'' using 1:2 with lines dt 2 lw 2 lc 'gray40', " \
	"'' using 1:3 with lines dt 2 lw 2 lc 'gray20', " \
	"'' using 1:($4*1000) with lines dt 3 lw 2 lc 'black' " \
	"title '1990 ceiling, 1.25 MB/s', " \
	"for [i=1:4] keyentry with points pt -1 lc 'white' " \
	"title (n[i] ? '' : h[i])\n"

const struct ipx_plot_kind ipx_plots_b7[] = {
	{ "b7-curve", "B7: total kB/s against block size, per configuration",
	  "All workstations' data per second together (kB = 1000 bytes) at "
	  "each block size, a line per configuration, beside the bulletin's "
	  "best average and peak (dashed, its KB/s) and 10 Mbit/s Ethernet's "
	  "1.25 MB/s (dotted). One request at a time the curve is flat where "
	  "the buffer divides the block; the tuned buffer lies above the "
	  "default and falls at the smallest blocks (a short last request "
	  "weighs more); packet burst is where the block size should show. A "
	  "configuration without figures (burst not offered, not run) is in "
	  "the key with its reason and has no line.",
	  b7_curve, .script = B7_SCRIPT },
	{ NULL },
};
