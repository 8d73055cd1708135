/*
 * plot_b8.c - B8's plot kind (bench_suite.h; the others are in
 * plot_kinds.c, plot_b7.c and plot_b9.c): the file server's CPU against
 * time, a line per configuration (its server_cpu series, one sample per
 * interval), beside the note's baselines for the straight and the hybrid
 * set-ups (the JSON's published members). A configuration without a
 * series (burst not offered, not run, not chosen, no CPU measured) has a
 * column of NaN titled with why.
 */
#include <stdio.h>
#include <string.h>

#include "ipxlab/bench_b8.h"
#include "suite_int.h"

/* Configuration k of the four (the JSON lists those chosen), or NULL. */
static const struct ipx_jv *b8_config(const struct ipx_jv *cfgs, unsigned k)
{
	const char *want = ipx_b8_config(k)->name;

	for (size_t i = 0; cfgs && i < cfgs->n; i++) {
		const char *name = ipx_jv_str(ipx_jv_at(cfgs, i), "name");

		if (name && !strcmp(name, want))
			return ipx_jv_at(cfgs, i);
	}
	return NULL;
}

/* Configuration c's series, or NULL (why into *why). */
static const struct ipx_jv *b8_series(const struct ipx_jv *c,
				      const char **why)
{
	const struct ipx_jv *s = c ? ipx_jv_get(c, "server_cpu.series_pct")
				   : NULL;
	const char *st = c ? ipx_jv_str(c, "status") : NULL;

	*why = !c ? "not chosen" : !st ? "no status" : st;
	if (st && !strcmp(st, "measured"))
		*why = "CPU not measured";
	return s && s->type == IPX_JARR && s->n ? s : NULL;
}

/* The column titles: the note's two baselines, then the four
 * configurations (their note set-up beside; why where no series). */
static void b8_head(FILE *out, const struct ipx_jv *cfgs,
		    const struct ipx_jv *pub, double *interval, size_t *n)
{
	char t[128];
	double v = 0;

	fputs("t_s", out);
	ipx_jv_num(pub, "straight_cpu_baseline_pct_about", &v);
	snprintf(t, sizeof(t), "1990 straight set-ups, about %.0f %%", v);
	fputc(' ', out);
	ipx_plot_label(out, t);
	ipx_jv_num(pub, "hybrid_cpu_baseline_pct_about", &v);
	snprintf(t, sizeof(t), "1990 hybrids, about %.0f %%", v);
	fputc(' ', out);
	ipx_plot_label(out, t);
	for (unsigned k = 0; k < IPX_B8_CONFIGS; k++) {
		const struct ipx_jv *c = b8_config(cfgs, k);
		const char *why;
		const struct ipx_jv *s = b8_series(c, &why);

		if (s && s->n > *n)
			*n = s->n;
		if (s)
			ipx_jv_num(c, "server_cpu.interval_s", interval);
		snprintf(t, sizeof(t), "%s (%s)%s%s%s", ipx_b8_config(k)->name,
			 ipx_b8_config(k)->note, s ? "" : ": ", s ? "" : why,
			 s ? "" : ", no figures");
		fputc(' ', out);
		ipx_plot_label(out, t);
	}
	fputc('\n', out);
}

/* A line per sample: its end in seconds from the configuration's start,
 * the note's two baselines, each configuration's CPU % (NaN after its
 * series ends). */
static bool b8_cpu(const struct ipx_jv *r, FILE *out)
{
	const struct ipx_jv *cfgs = ipx_jv_get(r, "configurations");
	const struct ipx_jv *pub = ipx_jv_get(r, "published");
	double interval = 0.1;
	size_t n = 0;
	char path[64];

	b8_head(out, cfgs, pub, &interval, &n);
	for (size_t j = 0; j < n; j++) {
		fprintf(out, "%.3f", (double)(j + 1) * interval);
		ipx_plot_num(out, pub, "straight_cpu_baseline_pct_about");
		ipx_plot_num(out, pub, "hybrid_cpu_baseline_pct_about");
		snprintf(path, sizeof(path), "server_cpu.series_pct.%zu", j);
		for (unsigned k = 0; k < IPX_B8_CONFIGS; k++)
			ipx_plot_num(out, b8_config(cfgs, k), path);
		fputc('\n', out);
	}
	return n > 0;
}

/* Columns 4-7 are the configurations; one without a series is a key
 * entry with its title and no line (as B7's curve). */
#define B8_SCRIPT \
	"array h[4]\narray n[4] = [0, 0, 0, 0]\n" \
	"stats data every ::0::0 using (h[1] = strcol(4), h[2] = strcol(5), " \
	"h[3] = strcol(6), h[4] = strcol(7), 0) nooutput\n" \
	"stats data every ::1 using (n[1] = n[1] + valid(4), " \
	"n[2] = n[2] + valid(5), n[3] = n[3] + valid(6), " \
	"n[4] = n[4] + valid(7), 0) nooutput\n" \
	"set key autotitle columnhead top right opaque box\nset grid\n" \
	"set xlabel 'seconds from the configuration''s start'\n" \
	"set ylabel 'server CPU, % of one CPU'\nset yrange [0:*]\n" \
	"plot for [i=4:7] data using 1:i with lines lw 1.5, " \
	"'' using 1:2 with lines dt 2 lw 2 lc 'gray40', " \
	"'' using 1:3 with lines dt 3 lw 2 lc 'black', " \
	"for [i=1:4] keyentry with points pt -1 lc 'white' " \
	"title (n[i] ? '' : h[i])\n"

const struct ipx_plot_kind ipx_plots_b8[] = {
	{ "b8-cpu", "B8: the server's CPU against time, per configuration",
	  "The file server's CPU (its own user and system time, or with "
	  "--sim 200 us per NCP request served, a burst one request) in each "
	  "100 ms from the configuration's start, a line per configuration, "
	  "beside the note's baselines: about 13 % for the straight set-ups "
	  "(16/16, 32/32) and about 20 % for the hybrids (dashed and "
	  "dotted). Packet burst serves an image in fewer requests, so its "
	  "lines lie lower; a line ends where its configuration's last "
	  "workstation did. A configuration without figures (burst not "
	  "offered, not run) is in the key with its reason and has no line.",
	  b8_cpu, .script = B8_SCRIPT },
	{ NULL },
};
