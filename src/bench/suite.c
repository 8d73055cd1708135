/*
 * suite.c - the whole suite in one run (bench_suite.h): each benchmark of
 * the table run through the caller's exec hook with its quick or full
 * arguments, its JSON saved with the run's conditions around it, its
 * plots drawn, then suite.json and index.html over all of them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "suite_int.h"

#define MAX_ARGS 32

void ipx_suite_stem(const struct ipx_suite_bench *b, char *buf, size_t len)
{
	snprintf(buf, len, "b%s-%s", b->spec + 1, b->name);
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* mkdir -p */
static int make_dir(const char *dir)
{
	char p[4096];

	snprintf(p, sizeof(p), "%s", dir);
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0777) && errno != EEXIST)
			return -1;
		*s = '/';
	}
	return mkdir(p, 0777) && errno != EEXIST ? -1 : 0;
}

/* Is benchmark b chosen by the comma-separated list? */
static bool chosen(const char *only, const struct ipx_suite_bench *b)
{
	char buf[256], *tok, *save;

	if (!only)
		return true;
	snprintf(buf, sizeof(buf), "%s", only);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		if (ipx_suite_find(tok) == b)
			return true;
	return false;
}

/* "bench NAME ARGS... [--sim --seed N] [--profile P] --json" into argv
 * (its strings in store). */
static int build_argv(const struct ipx_suite_opts *o,
		      const struct ipx_suite_bench *b, char *store,
		      size_t len, char **argv)
{
	bool period = o->periods && b->period;
	bool sim = !period && o->sim && b->sim;
	const char *args = o->quick ? b->quick : b->full;
	size_t at;
	int n = 0;

	if (period && b->period_args)
		args = b->period_args;
	at = (size_t)snprintf(store, len, "bench %s %s", b->name, args);
	if (period && at < len)
		at += (size_t)snprintf(store + at, len - at, " --period %s",
				       b->period);
	if (sim && at < len)
		at += (size_t)snprintf(store + at, len - at, " --sim");
	if ((sim || period) && at < len)
		at += (size_t)snprintf(store + at, len - at, " --seed %llu",
				       (unsigned long long)o->seed);
	if (o->profile && b->sim && !period && at < len)
		at += (size_t)snprintf(store + at, len - at, " --profile %s",
				       o->profile);
	if (at < len)
		snprintf(store + at, len - at, " --json");
	for (char *t = strtok(store, " "); t && n < MAX_ARGS - 1;
	     t = strtok(NULL, " "))
		argv[n++] = t;
	argv[n] = NULL;
	return n;
}

/* The whole file (NUL-terminated) or NULL. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0, r;

	if (!f)
		return NULL;
	do {
		if (cap - n < 65536) {
			char *nb = realloc(buf, cap + 262144);

			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
			cap += 262144;
		}
		r = fread(buf + n, 1, cap - n - 1, f);
		n += r;
	} while (r > 0);
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* The conditions of one benchmark's run, the caller's first. */
static void conditions(struct ipx_jw *w, const struct ipx_suite_opts *o,
		       const struct ipx_suite_bench *b, int argc,
		       char **argv, const struct ipx_jv *res)
{
	const char *place = ipx_jv_str(res, "conditions.cpu_placement");

	ipx_jw_obj(w, "conditions");
	if (o->cond)
		o->cond(w, o->ctx);
	ipx_jw_str(w, "cpu_placement",
		   place ? place : ipx_jv_str(res, "config.pin"));
	ipx_jw_str(w, "profile", !b->sim ? NULL
				 : o->profile ? o->profile
				 : ipx_jv_str(res, "conditions.profile"));
	/* a period run is simulated too (--period implies --sim) */
	bool period = o->periods && b->period;
	bool sim = (o->sim && b->sim) || period;

	ipx_jw_bool(w, "simulated", sim);
	if (o->sim && !b->sim && !period)
		ipx_jw_str(w, "simulated_not", b->no_sim);
	if (sim)
		ipx_jw_u64(w, "seed", o->seed);
	else
		ipx_jw_null(w, "seed");
	ipx_jw_str(w, "period", period ? b->period : NULL);
	ipx_jw_bool(w, "quick", o->quick);
	ipx_jw_str(w, "suite_options", o->options);
	ipx_jw_arr(w, "argv");
	for (int i = 0; i < argc; i++)
		ipx_jw_str(w, NULL, argv[i]);
	ipx_jw_end(w);
	ipx_jw_end(w);
}

/* DIR/STEM.json: the spec, the conditions, the exit and the result (its
 * text as the benchmark wrote it, checked to be JSON), or null. */
static int write_one(const struct ipx_suite_opts *o, struct ipx_suite_ran *r,
		     int argc, char **argv, const char *raw_path,
		     const char *path)
{
	size_t len = 0;
	char *raw = slurp(raw_path, &len), perr[160] = "no output";
	struct ipx_jv *res = NULL;
	struct ipx_jw w;
	FILE *f;

	if (raw && ipx_json_parse(raw, len, &res, perr, sizeof(perr)) < 0)
		res = NULL;
	f = fopen(path, "w");
	if (!f) {
		free(raw);
		ipx_jv_free(res);
		return -1;
	}
	ipx_jw_init(&w, f);
	ipx_jw_obj(&w, NULL);
	ipx_jw_str(&w, "spec", r->b->spec);
	ipx_jw_str(&w, "benchmark", r->b->name);
	ipx_jw_str(&w, "title", r->b->title);
	conditions(&w, o, r->b, argc, argv, res);
	ipx_jw_int(&w, "exit_status", r->status);
	ipx_jw_dbl(&w, "wall_seconds", "%.3f", r->seconds);
	ipx_jw_str(&w, "error", res ? NULL : perr);
	if (res) {	/* the result as written: its text, not rewritten */
		fputc(',', f);
		ipx_json_str(f, "result");
		fputc(':', f);
		while (len && strchr(" \t\r\n", raw[len - 1]))
			len--;
		fwrite(raw, 1, len, f);
	} else {
		ipx_jw_null(&w, "result");
	}
	r->result = res != NULL;
	ipx_jv_free(res);
	free(raw);
	unlink(raw_path);
	return ipx_jw_finish(&w) || fclose(f) ? -1 : 0;
}

/* Run benchmark b into the directory. */
static int run_one(const struct ipx_suite_opts *o, struct ipx_suite_ran *r)
{
	char store[512], stem[64], raw[4096], log[4096], path[4096];
	char *argv[MAX_ARGS];
	int argc = build_argv(o, r->b, store, sizeof(store), argv);
	double t0 = now();

	ipx_suite_stem(r->b, stem, sizeof(stem));
	snprintf(raw, sizeof(raw), "%s/%s.out", o->dir, stem);
	snprintf(log, sizeof(log), "%s/%s.log", o->dir, stem);
	snprintf(path, sizeof(path), "%s/%s.json", o->dir, stem);
	r->status = o->exec(o->ctx, argc, argv, raw, log,
			    o->quick ? r->b->timeout_quick
				     : r->b->timeout_full);
	r->seconds = now() - t0;
	return write_one(o, r, argc, argv, raw, path);
}

/* The plots of one saved result into DIR/plots. */
static void plot_one(const char *dir, struct ipx_suite_report *rep,
		     const struct ipx_suite_ran *r)
{
	char stem[64], path[4096], pdir[4096], note[480], err[256];
	struct ipx_jv *doc;

	ipx_suite_stem(r->b, stem, sizeof(stem));
	snprintf(path, sizeof(path), "%s/%s.json", dir, stem);
	snprintf(pdir, sizeof(pdir), "%s/plots", dir);
	if (!r->result || ipx_json_load(path, &doc, err, sizeof(err)) < 0)
		return;
	if (ipx_plot_result(doc, pdir, note, sizeof(note)) < 0 &&
	    !rep->plot_note[0]) {
		rep->plotted = false;
		snprintf(rep->plot_note, sizeof(rep->plot_note), "%s", note);
	}
	ipx_jv_free(doc);
}

static int write_suite_json(const struct ipx_suite_opts *o,
			    const struct ipx_suite_report *rep)
{
	char path[4096], stem[64];
	struct ipx_jw w;
	FILE *f;

	snprintf(path, sizeof(path), "%s/suite.json", o->dir);
	f = fopen(path, "w");
	if (!f)
		return -1;
	ipx_jw_init(&w, f);
	ipx_jw_obj(&w, NULL);
	ipx_jw_str(&w, "suite", "ipxlab bench suite");
	ipx_jw_obj(&w, "conditions");
	if (o->cond)
		o->cond(&w, o->ctx);
	ipx_jw_str(&w, "profile", o->profile);
	ipx_jw_bool(&w, "simulated", o->sim || o->periods);
	ipx_jw_bool(&w, "periods", o->periods);
	ipx_jw_u64(&w, "seed", o->seed);
	ipx_jw_bool(&w, "quick", o->quick);
	ipx_jw_str(&w, "suite_options", o->options);
	ipx_jw_end(&w);
	ipx_jw_bool(&w, "complete", !rep->stopped);
	ipx_jw_bool(&w, "plotted", rep->plotted);
	ipx_jw_str(&w, "plot_note", rep->plot_note[0] ? rep->plot_note : NULL);
	ipx_jw_arr(&w, "benchmarks");
	for (size_t i = 0; i < rep->nran; i++) {
		const struct ipx_suite_ran *r = &rep->ran[i];

		ipx_suite_stem(r->b, stem, sizeof(stem));
		strcat(stem, ".json");
		ipx_jw_obj(&w, NULL);
		ipx_jw_str(&w, "spec", r->b->spec);
		ipx_jw_str(&w, "benchmark", r->b->name);
		ipx_jw_str(&w, "file", stem);
		ipx_jw_int(&w, "exit_status", r->status);
		ipx_jw_dbl(&w, "wall_seconds", "%.3f", r->seconds);
		ipx_jw_bool(&w, "result", r->result);
		ipx_jw_end(&w);
	}
	return ipx_jw_finish(&w) || fclose(f) ? -1 : 0;
}

int ipx_suite_run(const struct ipx_suite_opts *o,
		  struct ipx_suite_report *rep, char *err, size_t errlen)
{
	char line[160];
	size_t total = 0, k = 0;

	memset(rep, 0, sizeof(*rep));
	rep->plotted = true;
	if (make_dir(o->dir) < 0) {
		snprintf(err, errlen, "%s: %s", o->dir, strerror(errno));
		return -1;
	}
	for (size_t i = 0; i < ipx_suite_nbenches; i++)
		total += chosen(o->only, &ipx_suite_benches[i]);
	for (size_t i = 0; i < ipx_suite_nbenches && !rep->stopped; i++) {
		struct ipx_suite_ran *r = &rep->ran[rep->nran];

		if (!chosen(o->only, &ipx_suite_benches[i]) ||
		    rep->nran == sizeof(rep->ran) / sizeof(rep->ran[0]))
			continue;
		r->b = &ipx_suite_benches[i];
		snprintf(line, sizeof(line), "suite: %s %s, %s (%zu/%zu)",
			 r->b->spec, r->b->name, r->b->title, ++k, total);
		if (o->progress)
			o->progress(o->ctx, line);
		rep->nran++;
		if (run_one(o, r) < 0) {
			snprintf(err, errlen, "%s: cannot write %s's result",
				 o->dir, r->b->name);
			return -1;
		}
		rep->stopped = r->status == IPX_SUITE_STOPPED;
	}
	if (o->progress)
		o->progress(o->ctx, NULL);
	for (size_t i = 0; i < rep->nran; i++)
		plot_one(o->dir, rep, &rep->ran[i]);
	if (write_suite_json(o, rep) < 0) {
		snprintf(err, errlen, "%s/suite.json: %s", o->dir,
			 strerror(errno));
		return -1;
	}
	return ipx_suite_write_html(o->dir, rep, err, errlen);
}
