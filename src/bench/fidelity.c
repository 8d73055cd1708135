/*
 * fidelity.c - fidelity tables (bench_fidelity.h): rows of 1990 figures
 * and ipxlab's, their errors, the median, the text and the JSON.
 */
#include "ipxlab/bench_fidelity.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ipxlab/err.h"

void ipx_fid_init(struct ipx_fid_table *t, const char *title,
		  const char *unit, const char *period)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->title, sizeof(t->title), "%s", title);
	snprintf(t->unit, sizeof(t->unit), "%s", unit);
	snprintf(t->period, sizeof(t->period), "%s", period ? period : "");
}

int ipx_fid_add(struct ipx_fid_table *t, const char *label, double ref,
		double model, double today)
{
	struct ipx_fid_row *r;

	if (t->n >= IPX_FID_MAX_ROWS)
		return IPX_ERANGE;
	r = &t->row[t->n++];
	snprintf(r->label, sizeof(r->label), "%s", label);
	r->ref = ref;
	r->model = model;
	r->today = today;
	return IPX_OK;
}

int ipx_fid_add_range(struct ipx_fid_table *t, const char *label, double lo,
		      double hi, double model, double today)
{
	int rc = ipx_fid_add(t, label, (lo + hi) / 2, model, today);

	if (rc == IPX_OK && lo < hi) {
		t->row[t->n - 1].ref_lo = lo;
		t->row[t->n - 1].ref_hi = hi;
	}
	return rc;
}

double ipx_fid_error_pct(const struct ipx_fid_row *r)
{
	double ref = r->ref;

	if (r->ref_lo < r->ref_hi && isfinite(r->model)) {
		if (r->model >= r->ref_lo && r->model <= r->ref_hi)
			return 0;
		ref = r->model < r->ref_lo ? r->ref_lo : r->ref_hi;
	}
	if (!isfinite(ref) || !isfinite(r->model) || ref == 0)
		return NAN;
	return (r->model - ref) / ref * 100.0;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double ipx_fid_median_abs_error(const struct ipx_fid_table *t)
{
	double e[IPX_FID_MAX_ROWS];
	unsigned n = 0;

	for (unsigned i = 0; i < t->n; i++) {
		double v = ipx_fid_error_pct(&t->row[i]);

		if (isfinite(v))
			e[n++] = fabs(v);
	}
	if (!n)
		return NAN;
	qsort(e, n, sizeof(e[0]), cmp_dbl);
	return n % 2 ? e[n / 2] : (e[n / 2 - 1] + e[n / 2]) / 2;
}

/* A figure in a width, to the precision its size needs; "-" if none. */
static void fig(FILE *out, int width, double v)
{
	if (!isfinite(v))
		fprintf(out, "%*s", width, "-");
	else if (fabs(v) >= 100)
		fprintf(out, "%*.1f", width, v);
	else if (fabs(v) >= 10)
		fprintf(out, "%*.2f", width, v);
	else
		fprintf(out, "%*.3f", width, v);
}

void ipx_fid_print(FILE *out, const struct ipx_fid_table *t)
{
	char h[4][48];
	bool today = false;
	double med = ipx_fid_median_abs_error(t);

	for (unsigned i = 0; i < t->n; i++)
		today |= isfinite(t->row[i].today);
	snprintf(h[0], sizeof(h[0]), "1990 (%s)", t->unit);
	snprintf(h[1], sizeof(h[1]), "ipxlab as 1990 (%s)", t->unit);
	snprintf(h[2], sizeof(h[2]), "error %%");
	snprintf(h[3], sizeof(h[3]), "today (%s)", t->unit);
	fprintf(out, "# fidelity: %s, period %s\n", t->title, t->period);
	fprintf(out, "%-24s %14s %22s %9s", "", h[0], h[1], h[2]);
	if (today)
		fprintf(out, " %16s", h[3]);
	fprintf(out, "\n");
	for (unsigned i = 0; i < t->n; i++) {
		const struct ipx_fid_row *r = &t->row[i];
		double e = ipx_fid_error_pct(r);

		fprintf(out, "%-24s ", r->label);
		if (r->ref_lo < r->ref_hi) {
			char range[40];

			snprintf(range, sizeof(range), "%.4g-%.4g", r->ref_lo,
				 r->ref_hi);
			fprintf(out, "%14s", range);
		} else {
			fig(out, 14, r->ref);
		}
		fprintf(out, " ");
		fig(out, 22, r->model);
		if (isfinite(e))
			fprintf(out, " %+8.1f%%", e);
		else
			fprintf(out, " %9s", "-");
		if (today) {
			fprintf(out, " ");
			fig(out, 16, r->today);
		}
		fprintf(out, "\n");
	}
	if (isfinite(med))
		fprintf(out, "median absolute error %.1f %% (target %.0f %%)%s\n",
			med, IPX_FID_TARGET_PCT,
			med <= IPX_FID_TARGET_PCT ? "" : ": MISS");
	if (today && t->today_what[0])
		fprintf(out, "today: %s\n", t->today_what);
}

/* "pkt/s" -> "pkt_s", "KB/s" -> "kb_s", "%" -> "pct". */
static void unit_key(const char *unit, char *buf, size_t len)
{
	size_t n = 0;

	if (!strcmp(unit, "%")) {
		snprintf(buf, len, "pct");
		return;
	}
	for (const char *p = unit; *p && n + 1 < len; p++)
		buf[n++] = isalnum((unsigned char)*p)
				   ? (char)tolower((unsigned char)*p)
				   : '_';
	buf[n] = '\0';
}

static void num(struct ipx_jw *w, const char *key, double v)
{
	if (isfinite(v))
		ipx_jw_dbl(w, key, "%.6g", v);
	else
		ipx_jw_null(w, key);
}

void ipx_fid_print_tables(FILE *out, const struct ipx_fid_table *t,
			  size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (i)
			fprintf(out, "\n");
		ipx_fid_print(out, &t[i]);
	}
}

void ipx_fid_write_json_tables(struct ipx_jw *w, const char *key,
			       const struct ipx_fid_table *t, size_t n)
{
	ipx_jw_arr(w, key);
	for (size_t i = 0; i < n; i++)
		ipx_fid_write_json(w, NULL, &t[i]);
	ipx_jw_end(w);
}

void ipx_fid_write_json(struct ipx_jw *w, const char *key,
			const struct ipx_fid_table *t)
{
	char u[24], k[48];

	unit_key(t->unit, u, sizeof(u));
	ipx_jw_obj(w, key);
	ipx_jw_str(w, "title", t->title);
	ipx_jw_str(w, "unit", t->unit);
	ipx_jw_str(w, "period", t->period);
	ipx_jw_str(w, "today_what", t->today_what);
	ipx_jw_arr(w, "rows");
	for (unsigned i = 0; i < t->n; i++) {
		const struct ipx_fid_row *r = &t->row[i];

		ipx_jw_obj(w, NULL);
		ipx_jw_str(w, "label", r->label);
		snprintf(k, sizeof(k), "ref_%s", u);
		num(w, k, r->ref);
		if (r->ref_lo < r->ref_hi) {
			snprintf(k, sizeof(k), "ref_lo_%s", u);
			num(w, k, r->ref_lo);
			snprintf(k, sizeof(k), "ref_hi_%s", u);
			num(w, k, r->ref_hi);
		}
		snprintf(k, sizeof(k), "model_%s", u);
		num(w, k, r->model);
		num(w, "error_pct", ipx_fid_error_pct(r));
		snprintf(k, sizeof(k), "today_%s", u);
		num(w, k, r->today);
		ipx_jw_end(w);
	}
	ipx_jw_end(w);
	num(w, "median_abs_error_pct", ipx_fid_median_abs_error(t));
	ipx_jw_dbl(w, "target_pct", "%.0f", IPX_FID_TARGET_PCT);
	ipx_jw_end(w);
}

/* ---- reading back, HTML ---- */

static double jnum(const struct ipx_jv *v, const char *key)
{
	double d;

	return ipx_jv_num(v, key, &d) ? d : NAN;
}

static void jstr(const struct ipx_jv *v, const char *key, char *buf,
		 size_t len)
{
	const struct ipx_jv *s = ipx_jv_get(v, key);

	snprintf(buf, len, "%s", s && s->type == IPX_JSTR ? s->text : "");
}

static bool one_from_json(const struct ipx_jv *v, struct ipx_fid_table *t)
{
	const struct ipx_jv *rows;
	char u[24], k[48], title[96], unit[24], period[32];

	if (!v || v->type != IPX_JOBJ)
		return false;
	rows = ipx_jv_get(v, "rows");
	if (!rows || rows->type != IPX_JARR)
		return false;
	jstr(v, "title", title, sizeof(title));
	jstr(v, "unit", unit, sizeof(unit));
	jstr(v, "period", period, sizeof(period));
	ipx_fid_init(t, title, unit, period);
	jstr(v, "today_what", t->today_what, sizeof(t->today_what));
	unit_key(t->unit, u, sizeof(u));
	for (size_t i = 0; i < rows->n && t->n < IPX_FID_MAX_ROWS; i++) {
		const struct ipx_jv *r = ipx_jv_at(rows, i);
		char label[48];
		double lo, hi;

		jstr(r, "label", label, sizeof(label));
		snprintf(k, sizeof(k), "ref_lo_%s", u);
		lo = jnum(r, k);
		snprintf(k, sizeof(k), "ref_hi_%s", u);
		hi = jnum(r, k);
		if (isfinite(lo) && isfinite(hi) && lo < hi) {
			char km[48], kt[48];

			snprintf(km, sizeof(km), "model_%s", u);
			snprintf(kt, sizeof(kt), "today_%s", u);
			ipx_fid_add_range(t, label, lo, hi, jnum(r, km),
					  jnum(r, kt));
			continue;
		}
		snprintf(k, sizeof(k), "ref_%s", u);
		lo = jnum(r, k);
		snprintf(k, sizeof(k), "model_%s", u);
		hi = jnum(r, k);
		snprintf(k, sizeof(k), "today_%s", u);
		ipx_fid_add(t, label, lo, hi, jnum(r, k));
	}
	return true;
}

size_t ipx_fid_from_json(const struct ipx_jv *result,
			 struct ipx_fid_table *out, size_t max)
{
	const struct ipx_jv *f = ipx_jv_get(result, "fidelity");
	size_t n = 0;

	if (!f)
		return 0;
	if (f->type == IPX_JOBJ)
		return max && one_from_json(f, &out[0]) ? 1 : 0;
	if (f->type != IPX_JARR)
		return 0;
	for (size_t i = 0; i < f->n && n < max; i++)
		if (one_from_json(ipx_jv_at(f, i), &out[n]))
			n++;
	return n;
}

static void html_esc(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '&':
			fputs("&amp;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		default:
			fputc(*s, f);
		}
	}
}

static void html_fig(FILE *f, const char *cls, double v)
{
	fprintf(f, "<td%s%s%s>", cls ? " class=\"" : "", cls ? cls : "",
		cls ? "\"" : "");
	if (isfinite(v))
		fprintf(f, fabs(v) >= 100 ? "%.1f" : fabs(v) >= 10 ? "%.2f"
								   : "%.3f",
			v);
	else
		fputs("-", f);
	fputs("</td>", f);
}

void ipx_fid_write_html(FILE *out, const struct ipx_fid_table *t)
{
	double med = ipx_fid_median_abs_error(t);

	fputs("<table class=\"result fidelity\"><caption>Fidelity: ", out);
	html_esc(out, t->title);
	fputs(" (period ", out);
	html_esc(out, t->period);
	fputs(")</caption>\n<thead><tr><th>row</th>"
	      "<th class=\"y1990\">1990<br><small>", out);
	html_esc(out, t->unit);
	fputs("</small></th><th>ipxlab as 1990<br><small>", out);
	html_esc(out, t->unit);
	fputs("</small></th><th>error<br><small>%</small></th>"
	      "<th title=\"", out);
	html_esc(out, t->today_what);
	fputs("\">today<br><small>", out);
	html_esc(out, t->unit);
	fputs("</small></th></tr></thead>\n<tbody>\n", out);
	for (unsigned i = 0; i < t->n; i++) {
		const struct ipx_fid_row *r = &t->row[i];
		double e = ipx_fid_error_pct(r);

		fputs("<tr><td class=\"s\">", out);
		html_esc(out, r->label);
		fputs("</td>", out);
		if (r->ref_lo < r->ref_hi)
			fprintf(out, "<td class=\"y1990\">%.4g-%.4g</td>",
				r->ref_lo, r->ref_hi);
		else
			html_fig(out, "y1990", r->ref);
		html_fig(out, NULL, r->model);
		if (isfinite(e))
			fprintf(out, "<td>%+.1f</td>", e);
		else
			fputs("<td>-</td>", out);
		html_fig(out, NULL, r->today);
		fputs("</tr>\n", out);
	}
	fputs("</tbody></table>\n<p>", out);
	if (isfinite(med))
		fprintf(out, "Median absolute error %.1f %% (target %.0f %%)%s. ",
			med, IPX_FID_TARGET_PCT,
			med <= IPX_FID_TARGET_PCT ? "" : ": missed");
	fputs("1990: the published figure; ipxlab as 1990: the same benchmark "
	      "on the period's machines (--period); error: their difference "
	      "over the 1990 figure (a range: none inside it); today: ", out);
	html_esc(out, t->today_what[0] ? t->today_what : "not measured");
	fputs(".</p>\n", out);
}
