/*
 * bench_fidelity.h - a fidelity table: a benchmark's 1990 figures beside
 * what ipxlab gives on the period's machines (`--period`), the error of
 * each row in percent, the median absolute error over the rows, and
 * today's ipxlab beside where it was measured (docs/fidelity.md). Printed
 * as text and written in the JSON as "fidelity".
 */
#ifndef IPXLAB_BENCH_FIDELITY_H
#define IPXLAB_BENCH_FIDELITY_H

#include <stdbool.h>
#include <stdio.h>

#include "ipxlab/bench_json.h"
#include "ipxlab/bench_result.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IPX_FID_MAX_ROWS 32
/* What a calibrated table's median absolute error must stay within. */
#define IPX_FID_TARGET_PCT 10.0

struct ipx_fid_row {
	char label[48];		/* "IPX", "1,205 B local" */
	double ref;		/* the 1990 figure */
	/* A published range ("36-153 %"): ref_lo < ref_hi, ref their
	 * midpoint; the error is 0 inside it and taken against the nearer
	 * end outside. Both 0: a single figure. */
	double ref_lo, ref_hi;
	double model;		/* ipxlab as 1990; NaN: not measured */
	double today;		/* ipxlab today; NaN: not measured */
};

struct ipx_fid_table {
	char title[96];		/* "B1: packets per second" */
	char unit[24];		/* of every figure: "pkt/s", "s", "KB/s" */
	char period[32];	/* the period's name */
	/* What "today" is ("the wire alone (--sim)", "loopback, real
	 * time"); "" when no row has it. */
	char today_what[64];
	unsigned n;
	struct ipx_fid_row row[IPX_FID_MAX_ROWS];
};

void ipx_fid_init(struct ipx_fid_table *t, const char *title,
		  const char *unit, const char *period);
/* Add a row (today NaN when not measured). IPX_OK or IPX_ERANGE when
 * full. */
int ipx_fid_add(struct ipx_fid_table *t, const char *label, double ref,
		double model, double today);
/* A row whose 1990 figure is the range lo..hi. */
int ipx_fid_add_range(struct ipx_fid_table *t, const char *label, double lo,
		      double hi, double model, double today);
/* (model - ref) / ref in percent (for a range: 0 inside, else against
 * the nearer end); NaN when either is missing or the reference is 0. */
double ipx_fid_error_pct(const struct ipx_fid_row *r);
/* The median of the rows' absolute errors (NaN when none has one). */
double ipx_fid_median_abs_error(const struct ipx_fid_table *t);

/* "1990 | ipxlab as 1990 | error % | today" with the unit in every
 * figure's header, then the median. */
void ipx_fid_print(FILE *out, const struct ipx_fid_table *t);
/* key: {"title", "unit", "period", "today_what", "rows": [{"label",
 * "ref_UNIT", "model_UNIT", "error_pct", "today_UNIT"}...],
 * "median_abs_error_pct", "target_pct"}; UNIT as in the unit, made a
 * key ("pkt_s", "s", "kb_s"). */
void ipx_fid_write_json(struct ipx_jw *w, const char *key,
			const struct ipx_fid_table *t);
/* Several tables (B2's local and bridged): key: [table, ...], each as
 * above. The suite's report reads either shape. */
void ipx_fid_write_json_tables(struct ipx_jw *w, const char *key,
			       const struct ipx_fid_table *t, size_t n);
/* The tables a result holds under "fidelity" (one object or an array of
 * them), read back as written: how many, at most max. */
size_t ipx_fid_from_json(const struct ipx_jv *result,
			 struct ipx_fid_table *out, size_t max);
/* One table as HTML (the suite's index.html): a caption, a header row
 * with the unit in every figure's heading, the rows, the median. */
void ipx_fid_write_html(FILE *out, const struct ipx_fid_table *t);
/* Print each of n tables, a blank line between. */
void ipx_fid_print_tables(FILE *out, const struct ipx_fid_table *t,
			  size_t n);

#ifdef __cplusplus
}
#endif

#endif
