/*
 * bench_result.h - the one result writer of the benchmarks: JSON and CSV
 * from one description of a result's rows.
 *
 * A row is a C struct; a table (struct ipx_rtable) describes its fields,
 * each with its name (the JSON key and the CSV column), its unit and the
 * printf format of its value. From that one description the CSV header,
 * the CSV rows and the JSON objects of the rows are written, so the two
 * formats cannot disagree. Around the rows, struct ipx_jw writes the rest
 * of a JSON document (objects, arrays, keys, strings, numbers in a given
 * format) and puts the commas itself; ipx_jw_finish closes what is still
 * open, so a result cut short (an interrupt) is still valid JSON: the
 * benchmark writes "complete": false and finishes.
 *
 * Numbers are written with the field's format as they are; a double that
 * is not finite is null in JSON and an empty cell in CSV. Strings are
 * escaped for JSON ("\"", "\\", control bytes as \u00XX) and quoted in CSV
 * only when they hold a comma, a quote or a line break.
 */
#ifndef IPXLAB_BENCH_RESULT_H
#define IPXLAB_BENCH_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ipxlab/bench_stat.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The progress of a benchmark entry point (ipx_bX_run): one line of text
 * saying what runs now ("perftest: 1 workstation, 2.0 s, run 1/3"), or
 * NULL when the run is over (the caller clears its progress line). The
 * caller decides whether and where to show it.
 */
typedef void (*ipx_bench_progress_fn)(void *ctx, const char *line);

#define IPX_JW_DEPTH 32

/* A JSON document being written to out. */
struct ipx_jw {
	FILE *out;
	unsigned depth;
	char close[IPX_JW_DEPTH];	/* '}' or ']' of each open level */
	bool first[IPX_JW_DEPTH];	/* nothing written in it yet */
	bool overflow;			/* nesting beyond IPX_JW_DEPTH */
};

void ipx_jw_init(struct ipx_jw *w, FILE *out);
/* Go on with a document written so far by hand: inside an object (close
 * '}') or an array (']') that has nothing in it yet. The caller closes it. */
void ipx_jw_resume(struct ipx_jw *w, FILE *out, char close);
/* Open an object or array: key is its name inside an object, NULL inside
 * an array or at the top. */
void ipx_jw_obj(struct ipx_jw *w, const char *key);
void ipx_jw_arr(struct ipx_jw *w, const char *key);
/* Close the innermost open object or array. */
void ipx_jw_end(struct ipx_jw *w);
/* Members (key NULL inside an array). s NULL is written null. */
void ipx_jw_str(struct ipx_jw *w, const char *key, const char *s);
void ipx_jw_bool(struct ipx_jw *w, const char *key, bool v);
void ipx_jw_null(struct ipx_jw *w, const char *key);
void ipx_jw_u64(struct ipx_jw *w, const char *key, uint64_t v);
void ipx_jw_int(struct ipx_jw *w, const char *key, long long v);
/* A double in printf format fmt (e.g. "%.3f"); null if not finite. */
void ipx_jw_dbl(struct ipx_jw *w, const char *key, const char *fmt,
		double v);
/* {"median":..,"min":..,"max":..} of a summary, each in fmt. */
void ipx_jw_summary(struct ipx_jw *w, const char *key, const char *fmt,
		    const struct ipx_stat_summary *s);
/* Close everything still open and end the line: 0, or -1 if the
 * nesting overflowed or the stream has an error. */
int ipx_jw_finish(struct ipx_jw *w);

/* The JSON string s with its quotes (fsbench's and the tally's rule). */
void ipx_json_str(FILE *out, const char *s);

enum ipx_rf_type {
	IPX_RF_U64,	/* uint64_t */
	IPX_RF_UINT,	/* unsigned */
	IPX_RF_INT,	/* int */
	IPX_RF_DOUBLE,	/* double, in fmt */
	IPX_RF_STR,	/* const char * (NULL: null / empty) */
	IPX_RF_BOOL,	/* bool */
};

/* Where a field is written. */
#define IPX_RF_CSV 1u
#define IPX_RF_JSON 2u
#define IPX_RF_BOTH (IPX_RF_CSV | IPX_RF_JSON)

struct ipx_rfield {
	const char *name;	/* JSON key and CSV column */
	const char *unit;	/* e.g. "kB/s" (kB = 1000 bytes), "s", "" */
	const char *fmt;	/* printf format of a double; NULL: the type's */
	enum ipx_rf_type type;
	size_t off;		/* offsetof the value in the row struct */
	unsigned where;		/* IPX_RF_CSV, IPX_RF_JSON or both */
};

/* A field of struct type ST's member M. */
#define IPX_RF(ST, M, NAME, UNIT, FMT, TYPE, WHERE) \
	{ (NAME), (UNIT), (FMT), (TYPE), offsetof(ST, M), (WHERE) }

/* One kind of row: its fields in order. */
struct ipx_rtable {
	const char *name;
	const struct ipx_rfield *f;
	size_t n;
};

#define IPX_RTABLE(NAME, FIELDS) \
	{ (NAME), (FIELDS), sizeof(FIELDS) / sizeof((FIELDS)[0]) }

/* The CSV header line (the names of the CSV fields) and one row. */
void ipx_res_csv_header(FILE *out, const struct ipx_rtable *t);
void ipx_res_csv_row(FILE *out, const struct ipx_rtable *t, const void *row);
/* The row's JSON fields as members of the object open in w. */
void ipx_res_json_fields(struct ipx_jw *w, const struct ipx_rtable *t,
			 const void *row);
/* The row as one JSON object (key NULL inside an array). */
void ipx_res_json_row(struct ipx_jw *w, const char *key,
		      const struct ipx_rtable *t, const void *row);

#ifdef __cplusplus
}
#endif

#endif
