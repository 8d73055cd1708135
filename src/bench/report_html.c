/*
 * report_html.c - the suite's index.html (bench_suite.h): the conditions,
 * then per benchmark its tables (the 1990 columns shaded, the same cells
 * and meanings as the text report: suite_print.c), its plots as <img> of
 * the SVGs gnuplot drew, and its own conditions. One file, its style
 * inline, no script: it works opened from disk.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "ipxlab/bench_fidelity.h"
#include "suite_int.h"

static const char style[] =
	"body{font-family:sans-serif;margin:1.5em auto;max-width:1100px;"
	"color:#222;line-height:1.35}"
	"h1{font-size:1.6em}h2{margin-top:2em;border-bottom:2px solid #468;"
	"padding-bottom:.2em}"
	"table{border-collapse:collapse;margin:.6em 0;font-size:.9em}"
	"td,th{border:1px solid #bbb;padding:.25em .5em;text-align:right}"
	"td:first-child,th:first-child,td.s{text-align:left}"
	"th{background:#e8eef5}th small{font-weight:normal;color:#555}"
	".y1990{background:#fff3d6}th.y1990{background:#f5dfa8}"
	"caption{text-align:left;font-weight:bold;padding:.3em 0}"
	"table.cond td{text-align:left}dl{font-size:.85em;color:#333}"
	"dt{font-weight:bold;float:left;clear:left;margin-right:.5em}"
	"dd{margin:0 0 .2em 0}figure{margin:1em 0}"
	"figcaption{font-size:.9em;max-width:900px}img{border:1px solid #ccc;"
	"max-width:100%;height:auto}.note{color:#933}";

static void esc(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else if (*s == '"')
			fputs("&quot;", f);
		else
			fputc(*s, f);
	}
}

/* A value as one cell: scalars as written, arrays of scalars joined. */
static void value(FILE *f, const struct ipx_jv *v)
{
	if (v->type == IPX_JNULL)
		fputs("-", f);
	else if (v->type == IPX_JBOOL)
		fputs(v->num ? "yes" : "no", f);
	else if (v->type == IPX_JNUM || v->type == IPX_JSTR)
		esc(f, v->text);
	else if (v->type == IPX_JOBJ)
		fprintf(f, "(%zu members)", v->n);
	else
		for (const struct ipx_jv *m = v->kid; m; m = m->next) {
			if (m->type == IPX_JOBJ) {
				fprintf(f, "(%zu items)", v->n);
				break;
			}
			value(f, m);
			fputs(m->next ? " " : "", f);
		}
}

/* An object's members as a two-column table. */
static void kv_table(FILE *f, const char *caption, const struct ipx_jv *o)
{
	if (!o || o->type != IPX_JOBJ)
		return;
	fputs("<table class=\"cond\"><caption>", f);
	esc(f, caption);
	fputs("</caption>\n", f);
	for (const struct ipx_jv *m = o->kid; m; m = m->next) {
		fputs("<tr><td>", f);
		esc(f, m->key);
		fputs("</td><td>", f);
		value(f, m);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void table(FILE *f, const struct ipx_jv *res,
		  const struct ipx_suite_table *t)
{
	size_t n = ipx_suite_nrows(res, t);
	char buf[64];

	fputs("<table class=\"result\"><caption>", f);
	esc(f, t->title);
	fputs("</caption>\n<thead><tr>", f);
	for (size_t c = 0; c < t->ncol; c++) {
		fprintf(f, "<th%s title=\"", t->col[c].y1990 ? " class=\"y1990\""
							     : "");
		esc(f, t->col[c].meaning);
		fputs("\">", f);
		esc(f, t->col[c].head);
		if (t->col[c].unit[0]) {
			fputs("<br><small>", f);
			esc(f, t->col[c].unit);
			fputs("</small>", f);
		}
		fputs("</th>", f);
	}
	fputs("</tr></thead>\n<tbody>\n", f);
	for (size_t k = 0; k < n; k++) {
		fputs("<tr>", f);
		for (size_t c = 0; c < t->ncol; c++) {
			const struct ipx_jv *x = ipx_suite_get(
				ipx_suite_row(res, t, k), t->col[c].key);
			bool text = x && x->type == IPX_JSTR;

			fprintf(f, "<td%s%s%s>", t->col[c].y1990 || text
				? " class=\"" : "",
				t->col[c].y1990 ? "y1990" : text ? "s" : "",
				t->col[c].y1990 || text ? "\"" : "");
			esc(f, ipx_suite_cell(ipx_suite_row(res, t, k), k,
					      &t->col[c], buf, sizeof(buf)));
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n<dl>", f);
	for (size_t c = 0; c < t->ncol; c++) {
		fputs("<dt>", f);
		esc(f, t->col[c].head);
		fputs("</dt><dd>", f);
		esc(f, t->col[c].meaning);
		if (t->col[c].y1990)
			fputs(" (1990 note)", f);
		fputs("</dd>", f);
	}
	fputs("</dl>\n", f);
}

/* The plots gnuplot drew for b (an SVG and a PNG each). */
static void plots(FILE *f, const char *dir, const struct ipx_suite_bench *b)
{
	char path[4096];
	struct stat sb;

	for (const struct ipx_plot_kind *k = b->plots; k->name; k++) {
		snprintf(path, sizeof(path), "%s/plots/%s.svg", dir, k->name);
		if (stat(path, &sb) || sb.st_size == 0)
			continue;
		fprintf(f, "<figure id=\"%s\"><img src=\"plots/%s.svg\" "
			   "width=\"900\" height=\"500\" alt=\"",
			k->name, k->name);
		esc(f, k->title);
		fputs("\"><figcaption><b>", f);
		esc(f, k->title);
		fputs(".</b> ", f);
		esc(f, k->read);
		fprintf(f, " (<a href=\"plots/%s.png\">PNG</a>, "
			   "<a href=\"plots/%s.gp\">gnuplot script</a>, "
			   "<a href=\"plots/%s.dat\">data</a>)</figcaption>"
			   "</figure>\n",
			k->name, k->name, k->name);
	}
}

static void section(FILE *f, const char *dir, const struct ipx_suite_ran *r)
{
	char stem[64], path[4096], err[256];
	struct ipx_jv *doc = NULL;
	const struct ipx_jv *res;

	ipx_suite_stem(r->b, stem, sizeof(stem));
	fprintf(f, "<section id=\"%s\"><h2>%s %s: ", stem, r->b->spec,
		r->b->name);
	esc(f, r->b->title);
	fprintf(f, "</h2>\n<p>Exit status %d, %.1f s. Result: "
		   "<a href=\"%s.json\">%s.json</a>, messages: "
		   "<a href=\"%s.log\">%s.log</a>.</p>\n",
		r->status, r->seconds, stem, stem, stem, stem);
	snprintf(path, sizeof(path), "%s/%s.json", dir, stem);
	if (!r->result || ipx_json_load(path, &doc, err, sizeof(err)) < 0) {
		fputs("<p class=\"note\">No result: the benchmark did not "
		      "write one (see its messages).</p></section>\n", f);
		return;
	}
	res = ipx_jv_get(doc, "result");
	for (size_t t = 0; t < r->b->ntables; t++)
		table(f, res, &r->b->tables[t]);
	{
		static struct ipx_fid_table ft[8];
		size_t n = ipx_fid_from_json(res, ft, 8);

		for (size_t i = 0; i < n; i++)
			ipx_fid_write_html(f, &ft[i]);
	}
	plots(f, dir, r->b);
	kv_table(f, "Conditions of this run", ipx_jv_get(doc, "conditions"));
	kv_table(f, "The benchmark's own conditions",
		 ipx_jv_get(res, "conditions") ? ipx_jv_get(res, "conditions")
					       : ipx_jv_get(res, "config"));
	fputs("</section>\n", f);
	ipx_jv_free(doc);
}

int ipx_suite_write_html(const char *dir, const struct ipx_suite_report *rep,
			 char *err, size_t errlen)
{
	char path[4096];
	struct ipx_jv *suite = NULL;
	FILE *f;

	snprintf(path, sizeof(path), "%s/suite.json", dir);
	if (ipx_json_load(path, &suite, err, errlen) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/index.html", dir);
	f = fopen(path, "w");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		ipx_jv_free(suite);
		return -1;
	}
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head>"
		   "<meta charset=\"utf-8\"><title>ipxlab benchmark suite"
		   "</title>\n<style>%s</style></head><body>\n"
		   "<h1>ipxlab benchmark suite</h1>\n<p>The benchmarks of "
		   "the 1990 note, each table with the note's figures beside "
		   "ours (shaded columns), each plot drawn by gnuplot from the "
		   "saved result (<a href=\"suite.json\">suite.json</a>). "
		   "kB is 1000 bytes; the note's Kbyte is as it printed it."
		   "</p>\n",
		style);
	if (rep->plot_note[0]) {
		fputs("<p class=\"note\">Plots: ", f);
		esc(f, rep->plot_note);
		fputs("</p>\n", f);
	}
	if (rep->stopped)
		fputs("<p class=\"note\">Interrupted: the benchmarks after "
		      "the last below did not run.</p>\n", f);
	kv_table(f, "Conditions", ipx_jv_get(suite, "conditions"));
	fputs("<ul>", f);
	for (size_t i = 0; i < rep->nran; i++) {
		char stem[64];

		ipx_suite_stem(rep->ran[i].b, stem, sizeof(stem));
		fprintf(f, "<li><a href=\"#%s\">%s %s</a>: ", stem,
			rep->ran[i].b->spec, rep->ran[i].b->name);
		esc(f, rep->ran[i].b->title);
		fputs("</li>", f);
	}
	fputs("</ul>\n", f);
	for (size_t i = 0; i < rep->nran; i++)
		section(f, dir, &rep->ran[i]);
	fputs("</body></html>\n", f);
	ipx_jv_free(suite);
	if (fclose(f)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}
