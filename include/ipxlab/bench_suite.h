/*
 * bench_suite.h - the whole benchmark suite in one run, and its report
 * (docs/benchmarks.md, "The suite"): every benchmark of the 1990 note
 * (B1-B9) with its quick or full settings, each result saved as one
 * JSON file with the run's conditions, gnuplot plots of each result and
 * an index.html holding every table (the 1990 figures beside ours), every
 * plot and the conditions.
 *
 * The benchmarks are a table (ipx_suite_benches): a row names the bench
 * command, its quick and full arguments, whether it has --sim, its report
 * tables and its plot kinds. A benchmark added later (B8, B9) is one row.
 * A report table is data too: where its rows are in the result's JSON and
 * its columns, each a JSON key of the result writer's (bench_result.h)
 * with its unit and what it means, so the text report and index.html say
 * the same. A plot kind is a data writer (the result's JSON to a gnuplot
 * data file) and a gnuplot script body.
 *
 * The library does not run a benchmark itself: the caller's exec hook
 * runs "bench NAME ARGS..." with its JSON written to a file (the command
 * line builds the network as the bench command does).
 */
#ifndef IPXLAB_BENCH_SUITE_H
#define IPXLAB_BENCH_SUITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ipxlab/bench_json.h"
#include "ipxlab/bench_result.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One column of a report table. */
struct ipx_suite_col {
	const char *key;	/* path in a row, e.g. "published.local_avg" */
	const char *head;	/* the heading */
	const char *unit;	/* "ops/s", "kB/s" (1000 bytes), "s", "" */
	const char *meaning;	/* one sentence: what the figure is */
	bool y1990;		/* a figure of the 1990 note */
};

/* One table: its rows are the elements of the array at 'rows' in the
 * result (NULL: the result itself is the one row). */
struct ipx_suite_table {
	const char *title;
	const char *rows;
	const struct ipx_suite_col *col;
	size_t ncol;
};

#define IPX_SUITE_TABLE(TITLE, ROWS, COLS) \
	{ (TITLE), (ROWS), (COLS), sizeof(COLS) / sizeof((COLS)[0]) }

/* A series of a plot: its key in each point, its title in the key. */
struct ipx_plot_series {
	const char *key;
	const char *title;
};

#define IPX_PLOT_SERIES 10

/*
 * One plot. Its data file is written from the result either by data()
 * (false: nothing to draw) or, when data is NULL, from the description:
 * one line per element of the array at 'rows', the value at 'x' first (a
 * number, or a string as a label) and then each series' (NaN where the
 * point has none). 'script' is the gnuplot body, with the data file as
 * the variable 'data' and the columns in that order.
 */
struct ipx_plot_kind {
	const char *name;	/* file stem, e.g. "b1-rates" */
	const char *title;
	const char *read;	/* what to read from it */
	bool (*data)(const struct ipx_jv *result, FILE *out);
	const char *rows;	/* with data NULL: the points */
	const char *x;
	struct ipx_plot_series y[IPX_PLOT_SERIES];	/* up to a NULL key */
	const char *script;
};

struct ipx_suite_bench {
	const char *spec;	/* "B1" */
	const char *name;	/* the bench command, the JSON's "benchmark" */
	const char *title;
	const char *quick;	/* arguments, space-separated */
	const char *full;
	bool sim;		/* takes --sim, --seed and --profile */
	const char *no_sim;	/* when not: why (the suite's note) */
	double timeout_quick, timeout_full;	/* seconds */
	const struct ipx_suite_table *tables;
	size_t ntables;
	const struct ipx_plot_kind *plots;	/* ends with a NULL name */
	/* The period of its paper's set-up (`--periods` runs it there,
	 * docs/fidelity.md), NULL: none; and the arguments of that run
	 * (NULL: the quick or full ones). */
	const char *period;
	const char *period_args;
};

/* The table of benchmarks, in the note's order. */
extern const struct ipx_suite_bench ipx_suite_benches[];
extern const size_t ipx_suite_nbenches;
/* The row of a benchmark by its command name or its spec ("B2"). */
const struct ipx_suite_bench *ipx_suite_find(const char *name);

/* Runs "bench" argv[1..] with the JSON to out_path and stderr to
 * log_path, killed after timeout seconds: its exit status, -1 if it could
 * not run, IPX_SUITE_STOPPED after an interrupt (the suite stops). */
#define IPX_SUITE_STOPPED 130
typedef int (*ipx_suite_exec_fn)(void *ctx, int argc, char **argv,
				 const char *out_path, const char *log_path,
				 double timeout);
/* Writes the caller's conditions (version, machine, CPUs) into the open
 * "conditions" object. */
typedef void (*ipx_suite_cond_fn)(struct ipx_jw *w, void *ctx);

struct ipx_suite_opts {
	const char *dir;	/* created if missing */
	bool quick, sim;
	/* each benchmark on its paper's period (--period), with its
	 * fidelity table; those without one as --sim says */
	bool periods;
	const char *profile;	/* NULL: each benchmark's default */
	uint64_t seed;		/* --sim's */
	const char *only;	/* comma-separated names or specs; NULL all */
	const char *options;	/* the suite's command line, for the record */
	ipx_suite_exec_fn exec;
	ipx_suite_cond_fn cond;
	ipx_bench_progress_fn progress;
	void *ctx;
};

/* What happened to one benchmark. */
struct ipx_suite_ran {
	const struct ipx_suite_bench *b;
	int status;		/* exit status; -1 not run */
	double seconds;		/* wall time */
	bool result;		/* its JSON was read */
};

struct ipx_suite_report {
	struct ipx_suite_ran ran[16];
	size_t nran;
	bool stopped;		/* interrupted: the rest not run */
	bool plotted;		/* gnuplot drew the plots */
	char plot_note[512];	/* why not, or "" */
};

/* Run the suite into o->dir: each benchmark's DIR/bN-name.json (its
 * conditions and its result) and .log, DIR/suite.json, the plots and
 * DIR/index.html. 0, or -1 with a message (nothing could be written). */
int ipx_suite_run(const struct ipx_suite_opts *o,
		  struct ipx_suite_report *rep, char *err, size_t errlen);

/* The text report: every table of the results in dir, the notes. */
void ipx_suite_print(FILE *out, const char *dir,
		     const struct ipx_suite_report *rep);

/* ---- plots (plot.c) ---- */

/* Draw a result's plots into dir (each kind's NAME.gp and NAME.dat
 * always; NAME.svg and NAME.png when gnuplot runs): the number of plots
 * drawn, or -1 with the reason in note (not a known benchmark's result,
 * gnuplot missing or failing: the scripts stay). The result is the
 * benchmark's JSON or the suite's file holding it. */
int ipx_plot_result(const struct ipx_jv *doc, const char *dir, char *note,
		    size_t notelen);
/* gnuplot's path ($IPXLAB_GNUPLOT, else the PATH's), or NULL. */
const char *ipx_plot_gnuplot(char *buf, size_t len);
/* The benchmark of a result (its "benchmark" key, or the suite file's
 * "result"), with the result itself into *res. */
const struct ipx_suite_bench *ipx_suite_of(const struct ipx_jv *doc,
					   const struct ipx_jv **res);

/* ---- index.html (report_html.c) ---- */
int ipx_suite_write_html(const char *dir, const struct ipx_suite_report *rep,
			 char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
