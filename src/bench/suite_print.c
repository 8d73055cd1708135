/*
 * suite_print.c - the suite's tables as text (bench_suite.h): the cells
 * of a report table (shared with index.html, report_html.c) and the text
 * report, every table of every saved result with what its columns mean.
 */
#include <stdio.h>
#include <string.h>

#include "ipxlab/bench_fidelity.h"
#include "suite_int.h"

#define MAX_COLS 16
#define CELL 64

size_t ipx_suite_nrows(const struct ipx_jv *res,
		       const struct ipx_suite_table *t)
{
	const struct ipx_jv *v = ipx_jv_get(res, t->rows);

	if (!v)
		return 0;
	return v->type == IPX_JARR ? v->n : v->type == IPX_JOBJ;
}

const struct ipx_jv *ipx_suite_row(const struct ipx_jv *res,
				   const struct ipx_suite_table *t, size_t k)
{
	const struct ipx_jv *v = ipx_jv_get(res, t->rows);

	if (v && v->type == IPX_JARR)
		return ipx_jv_at(v, k);
	return k == 0 ? v : NULL;
}

const struct ipx_jv *ipx_suite_get(const struct ipx_jv *row, const char *key)
{
	char alt[128];
	const char *p = key;

	while (*p) {
		size_t n = strcspn(p, "|");
		const struct ipx_jv *v;

		snprintf(alt, sizeof(alt), "%.*s", (int)n, p);
		v = ipx_jv_get(row, alt);
		if (v)
			return v;
		p += n;
		if (*p == '|')
			p++;
	}
	return NULL;
}

const char *ipx_suite_cell(const struct ipx_jv *row, size_t i,
			   const struct ipx_suite_col *c, char *buf,
			   size_t len)
{
	const struct ipx_jv *v;

	if (!strcmp(c->key, "#")) {
		snprintf(buf, len, "%zu", i + 1);
		return buf;
	}
	v = ipx_suite_get(row, c->key);
	if (!v || v->type == IPX_JNULL || v->type == IPX_JARR ||
	    v->type == IPX_JOBJ)
		return "-";
	if (v->type == IPX_JBOOL)
		return v->num ? "yes" : "no";
	snprintf(buf, len, "%s", v->text);
	return buf;
}

/* One table: the widths, the headings, the rows, the meanings. */
static void print_table(FILE *out, const struct ipx_jv *res,
			const struct ipx_suite_table *t)
{
	size_t n = ipx_suite_nrows(res, t), nc = t->ncol;
	size_t wid[MAX_COLS];
	char buf[CELL];

	nc = nc > MAX_COLS ? MAX_COLS : nc;
	for (size_t c = 0; c < nc; c++) {
		wid[c] = strlen(t->col[c].head);
		for (size_t k = 0; k < n; k++) {
			size_t l = strlen(ipx_suite_cell(
				ipx_suite_row(res, t, k), k, &t->col[c], buf,
				sizeof(buf)));

			wid[c] = l > wid[c] ? l : wid[c];
		}
	}
	fprintf(out, "\n  %s\n  ", t->title);
	for (size_t c = 0; c < nc; c++)
		fprintf(out, c ? "  %*s" : "%-*s", (int)wid[c],
			t->col[c].head);
	for (size_t k = 0; k < n; k++) {
		fputs("\n  ", out);
		for (size_t c = 0; c < nc; c++)
			fprintf(out, c ? "  %*s" : "%-*s", (int)wid[c],
				ipx_suite_cell(ipx_suite_row(res, t, k), k,
					       &t->col[c], buf, sizeof(buf)));
	}
	if (!n)
		fputs("\n  (no rows)", out);
	fputc('\n', out);
	for (size_t c = 0; c < nc; c++)
		fprintf(out, "    %s%s%s%s: %s\n", t->col[c].head,
			t->col[c].unit[0] ? " (" : "", t->col[c].unit,
			t->col[c].unit[0] ? ")" : "", t->col[c].meaning);
}

/* The fidelity tables of a --period run, as the benchmark printed them. */
static void print_fidelity(FILE *out, const struct ipx_jv *res)
{
	static struct ipx_fid_table ft[8];
	size_t n = ipx_fid_from_json(res, ft, 8);

	for (size_t i = 0; i < n; i++) {
		fputc('\n', out);
		ipx_fid_print(out, &ft[i]);
	}
}

void ipx_suite_print(FILE *out, const char *dir,
		     const struct ipx_suite_report *rep)
{
	char stem[64], path[4096], err[256];

	for (size_t i = 0; i < rep->nran; i++) {
		const struct ipx_suite_ran *r = &rep->ran[i];
		const struct ipx_jv *res;
		struct ipx_jv *doc = NULL;

		ipx_suite_stem(r->b, stem, sizeof(stem));
		fprintf(out, "\n%s %s: %s (exit %d, %.1f s; %s/%s.json)\n",
			r->b->spec, r->b->name, r->b->title, r->status,
			r->seconds, dir, stem);
		snprintf(path, sizeof(path), "%s/%s.json", dir, stem);
		if (!r->result || ipx_json_load(path, &doc, err,
						sizeof(err)) < 0) {
			fprintf(out, "  no result: see %s/%s.log\n", dir, stem);
			continue;
		}
		res = ipx_jv_get(doc, "result");
		for (size_t t = 0; t < r->b->ntables; t++)
			print_table(out, res, &r->b->tables[t]);
		print_fidelity(out, res);
		ipx_jv_free(doc);
	}
	if (rep->plot_note[0])
		fprintf(out, "\nPlots: %s\n", rep->plot_note);
	if (rep->stopped)
		fprintf(out, "\nInterrupted: the benchmarks after the last "
			     "above did not run.\n");
}
