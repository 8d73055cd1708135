/*
 * suite_int.h - what the suite's files share inside src/bench: the plot
 * kinds of each benchmark (plot_kinds.c), the file names of a result in
 * the report's directory and the table cells (suite_cells.c).
 */
#ifndef IPXLAB_SUITE_INT_H
#define IPXLAB_SUITE_INT_H

#include <stddef.h>

#include "ipxlab/bench_suite.h"

extern const struct ipx_plot_kind ipx_plots_none[];
extern const struct ipx_plot_kind ipx_plots_b1[];
extern const struct ipx_plot_kind ipx_plots_b2[];
extern const struct ipx_plot_kind ipx_plots_b3[];
extern const struct ipx_plot_kind ipx_plots_b5[];
extern const struct ipx_plot_kind ipx_plots_b6[];
extern const struct ipx_plot_kind ipx_plots_b7[];
extern const struct ipx_plot_kind ipx_plots_b8[];
extern const struct ipx_plot_kind ipx_plots_b9[];

/* A number at path in a data file, or NaN (gnuplot leaves the point
 * out); a label in gnuplot's quotes (a double quote in it becomes '). */
void ipx_plot_num(FILE *out, const struct ipx_jv *v, const char *path);
void ipx_plot_label(FILE *out, const char *s);
/* The data file of a kind described by its points (data NULL). */
bool ipx_plot_points(const struct ipx_plot_kind *k, const struct ipx_jv *r,
		     FILE *out);

/* The value at a column's key in a row: the first of its alternatives
 * ("pps.median|pps": the real-time run's, else the simulated one's)
 * that the row has; NULL when none. */
const struct ipx_jv *ipx_suite_get(const struct ipx_jv *row, const char *key);

/* "b2-battery" of a benchmark (lower-case spec, name). */
void ipx_suite_stem(const struct ipx_suite_bench *b, char *buf, size_t len);

/* The text of column c in row (number i, from 0): the figure as the
 * benchmark wrote it, "yes"/"no", or "-" when it has none. */
const char *ipx_suite_cell(const struct ipx_jv *row, size_t i,
			   const struct ipx_suite_col *c, char *buf,
			   size_t len);
/* The table's rows in a result: the array's elements, or the one object
 * (the result itself when t->rows is NULL). n rows; row k by the
 * function. */
size_t ipx_suite_nrows(const struct ipx_jv *res,
		       const struct ipx_suite_table *t);
const struct ipx_jv *ipx_suite_row(const struct ipx_jv *res,
				   const struct ipx_suite_table *t, size_t k);

#endif
