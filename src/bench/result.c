/*
 * result.c - the benchmarks' one result writer (bench_result.h): a JSON
 * writer that puts the commas and closes what is open, and the CSV and
 * JSON of rows from one description of their fields.
 */
#include <math.h>
#include <string.h>

#include "ipxlab/bench_result.h"

void ipx_json_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(out, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(out, "\\u%04x", (unsigned char)*s);
		else
			fputc(*s, out);
	}
	fputc('"', out);
}

/* A double in a format from a field description (not a literal, by
 * design: the description is the one place that says it). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static void put_dbl(FILE *out, const char *fmt, double v)
{
	fprintf(out, fmt ? fmt : "%g", v);
}
#pragma GCC diagnostic pop

void ipx_jw_init(struct ipx_jw *w, FILE *out)
{
	memset(w, 0, sizeof(*w));
	w->out = out;
	w->first[0] = true;
}

void ipx_jw_resume(struct ipx_jw *w, FILE *out, char close)
{
	ipx_jw_init(w, out);
	w->close[0] = close;
	w->depth = 1;
	w->first[1] = true;
}

/* The comma and the key before a member. */
static void member(struct ipx_jw *w, const char *key)
{
	if (!w->first[w->depth])
		fputc(',', w->out);
	w->first[w->depth] = false;
	if (key && w->depth > 0 && w->close[w->depth - 1] == '}') {
		ipx_json_str(w->out, key);
		fputc(':', w->out);
	}
}

static void open_level(struct ipx_jw *w, const char *key, char open,
		       char close)
{
	member(w, key);
	fputc(open, w->out);
	if (w->depth + 1 >= IPX_JW_DEPTH) {
		w->overflow = true;
		fputc(close, w->out);
		return;
	}
	w->close[w->depth++] = close;
	w->first[w->depth] = true;
}

void ipx_jw_obj(struct ipx_jw *w, const char *key)
{
	open_level(w, key, '{', '}');
}

void ipx_jw_arr(struct ipx_jw *w, const char *key)
{
	open_level(w, key, '[', ']');
}

void ipx_jw_end(struct ipx_jw *w)
{
	if (w->depth == 0)
		return;
	fputc(w->close[--w->depth], w->out);
}

void ipx_jw_str(struct ipx_jw *w, const char *key, const char *s)
{
	member(w, key);
	if (s)
		ipx_json_str(w->out, s);
	else
		fputs("null", w->out);
}

void ipx_jw_bool(struct ipx_jw *w, const char *key, bool v)
{
	member(w, key);
	fputs(v ? "true" : "false", w->out);
}

void ipx_jw_null(struct ipx_jw *w, const char *key)
{
	member(w, key);
	fputs("null", w->out);
}

void ipx_jw_u64(struct ipx_jw *w, const char *key, uint64_t v)
{
	member(w, key);
	fprintf(w->out, "%llu", (unsigned long long)v);
}

void ipx_jw_int(struct ipx_jw *w, const char *key, long long v)
{
	member(w, key);
	fprintf(w->out, "%lld", v);
}

void ipx_jw_dbl(struct ipx_jw *w, const char *key, const char *fmt,
		double v)
{
	member(w, key);
	if (!isfinite(v))
		fputs("null", w->out);
	else
		put_dbl(w->out, fmt, v);
}

void ipx_jw_summary(struct ipx_jw *w, const char *key, const char *fmt,
		    const struct ipx_stat_summary *s)
{
	ipx_jw_obj(w, key);
	ipx_jw_dbl(w, "median", fmt, s->median);
	ipx_jw_dbl(w, "min", fmt, s->min);
	ipx_jw_dbl(w, "max", fmt, s->max);
	ipx_jw_end(w);
}

int ipx_jw_finish(struct ipx_jw *w)
{
	while (w->depth > 0)
		ipx_jw_end(w);
	fputc('\n', w->out);
	return w->overflow || ferror(w->out) ? -1 : 0;
}

static const void *at(const void *row, const struct ipx_rfield *f)
{
	return (const char *)row + f->off;
}

/* A CSV cell: quoted only when it must be (RFC 4180). */
static void csv_str(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

void ipx_res_csv_header(FILE *out, const struct ipx_rtable *t)
{
	bool first = true;

	for (size_t i = 0; i < t->n; i++) {
		if (!(t->f[i].where & IPX_RF_CSV))
			continue;
		if (!first)
			fputc(',', out);
		first = false;
		csv_str(out, t->f[i].name);
	}
	fputc('\n', out);
}

void ipx_res_csv_row(FILE *out, const struct ipx_rtable *t, const void *row)
{
	bool first = true;

	for (size_t i = 0; i < t->n; i++) {
		const struct ipx_rfield *f = &t->f[i];
		const void *p = at(row, f);

		if (!(f->where & IPX_RF_CSV))
			continue;
		if (!first)
			fputc(',', out);
		first = false;
		switch (f->type) {
		case IPX_RF_U64:
			fprintf(out, "%llu",
				(unsigned long long)*(const uint64_t *)p);
			break;
		case IPX_RF_UINT:
			fprintf(out, "%u", *(const unsigned *)p);
			break;
		case IPX_RF_INT:
			fprintf(out, "%d", *(const int *)p);
			break;
		case IPX_RF_DOUBLE:
			if (isfinite(*(const double *)p))
				put_dbl(out, f->fmt, *(const double *)p);
			break;
		case IPX_RF_STR:
			if (*(const char *const *)p)
				csv_str(out, *(const char *const *)p);
			break;
		case IPX_RF_BOOL:
			fputs(*(const bool *)p ? "true" : "false", out);
			break;
		}
	}
	fputc('\n', out);
}

void ipx_res_json_fields(struct ipx_jw *w, const struct ipx_rtable *t,
			 const void *row)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct ipx_rfield *f = &t->f[i];
		const void *p = at(row, f);

		if (!(f->where & IPX_RF_JSON))
			continue;
		switch (f->type) {
		case IPX_RF_U64:
			ipx_jw_u64(w, f->name, *(const uint64_t *)p);
			break;
		case IPX_RF_UINT:
			ipx_jw_u64(w, f->name, *(const unsigned *)p);
			break;
		case IPX_RF_INT:
			ipx_jw_int(w, f->name, *(const int *)p);
			break;
		case IPX_RF_DOUBLE:
			ipx_jw_dbl(w, f->name, f->fmt, *(const double *)p);
			break;
		case IPX_RF_STR:
			ipx_jw_str(w, f->name, *(const char *const *)p);
			break;
		case IPX_RF_BOOL:
			ipx_jw_bool(w, f->name, *(const bool *)p);
			break;
		}
	}
}

void ipx_res_json_row(struct ipx_jw *w, const char *key,
		      const struct ipx_rtable *t, const void *row)
{
	ipx_jw_obj(w, key);
	ipx_res_json_fields(w, t, row);
	ipx_jw_end(w);
}
