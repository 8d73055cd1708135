/*
 * b8_period.c - B8 on period machines (bench_b8.h, ipx_b8_run_period):
 * each configuration on a simulated network of its own built on its
 * set-up's period (SPEC-C-D, else the period given), the same run on the
 * wire alone for "today", and the fidelity table against the note's
 * figures (docs/fidelity.md, "B8").
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ipxlab/bench_b8.h"
#include "ipxlab/bench_sim.h"
#include "ipxlab/err.h"

/* The note's figures (benchmarks.md B8). */
#define LAG_32_32_S 21.0
#define LAG_16_16_S 19.0
#define GAIN_LO_PCT 20.0
#define GAIN_HI_PCT 25.0

/* Configuration indexes (b8_retrieval.c's table) by the note's set-up. */
static unsigned config_of(const char *note)
{
	for (unsigned k = 0; k < IPX_B8_CONFIGS; k++)
		if (!strcmp(ipx_b8_config(k)->note, note))
			return k;
	return 0;
}

/* "16/32" -> "16-32". */
static void bits(unsigned k, char *buf, size_t len)
{
	snprintf(buf, len, "%s", ipx_b8_config(k)->note);
	for (char *p = buf; *p; p++)
		if (*p == '/')
			*p = '-';
}

/* Configuration k's period: SPEC-C-D (built in, or a file beside a file
 * SPEC) when there is one, else the one given. */
static int period_of(const struct ipx_b8_period_opts *o, unsigned k,
		     struct ipx_period *out, char *err, size_t errlen)
{
	char b[8], name[600];
	size_t n = strlen(o->spec);

	bits(k, b, sizeof(b));
	if (strchr(o->spec, '/') || strchr(o->spec, '.')) {
		if (n > 7 && !strcmp(o->spec + n - 7, ".period"))
			n -= 7;
		snprintf(name, sizeof(name), "%.*s-%s.period", (int)n,
			 o->spec, b);
		if (access(name, R_OK) != 0) {
			*out = *o->period;
			return IPX_OK;
		}
	} else {
		snprintf(name, sizeof(name), "%s-%s", o->spec, b);
		if (!ipx_machine_text("period", name)) {
			*out = *o->period;
			return IPX_OK;
		}
	}
	return ipx_period_resolve(name, out, err, errlen);
}

/* One run of the configurations in only[] on a network of its own. */
static int run_net(const struct ipx_b8_period_opts *o,
		   const struct ipx_period *per, const bool only[],
		   ipx_bench_progress_fn progress, void *ctx,
		   struct ipx_b8_report *rep, double *seconds, char *err,
		   size_t errlen)
{
	struct ipx_bsim_opts bo = { .profile = o->profile,
				    .stations = o->stations,
				    .seed = o->seed,
				    .period = per };
	struct ipx_b8_opts bopt = { .stations = o->stations,
				    .files = o->files };
	struct ipx_bsim *s;
	int rc;

	if (!per && !o->profile) {
		err[0] = '\0';
		return IPX_EINVAL;
	}
	rc = ipx_bsim_new(&bo, &s, err, errlen);
	if (rc != IPX_OK)
		return rc;
	bopt.net.ctl = ipx_bsim_ctl(s);
	bopt.net.ro = ipx_bsim_run_opts(s);
	bopt.net.sim = true;
	bopt.loop = ipx_bsim_loop(s);
	bopt.sim_server = ipx_bsim_server(s);
	bopt.sim_host = ipx_bsim_server_host(s);
	memcpy(bopt.only, only, sizeof(bopt.only));
	rc = ipx_b8_run(&bopt, progress, ctx, rep, err, errlen);
	*seconds += ipx_bsim_seconds(s);
	ipx_bsim_free(s);
	return rc;
}

double ipx_b8_client_gain_pct(const struct ipx_b8_report *rep)
{
	static const char *const c16[] = { "16/16", "16/32" };
	static const char *const c32[] = { "32/16", "32/32" };
	double t16 = 0, t32 = 0;

	for (unsigned i = 0; i < 2; i++) {
		const struct ipx_b8_result *a = &rep->r[config_of(c16[i])];
		const struct ipx_b8_result *b = &rep->r[config_of(c32[i])];

		if (a->status != IPX_B8_MEASURED ||
		    b->status != IPX_B8_MEASURED)
			return NAN;
		t16 += a->total_s;
		t32 += b->total_s;
	}
	return t32 > 0 ? 100.0 * (t16 / t32 - 1.0) : NAN;
}

/* A configuration's figure, NaN when it was not measured. */
static double lag(const struct ipx_b8_report *rep, const char *note)
{
	const struct ipx_b8_result *x = &rep->r[config_of(note)];

	return x->status == IPX_B8_MEASURED ? x->lag_s : NAN;
}

static double cpu(const struct ipx_b8_report *rep, const char *note)
{
	const struct ipx_b8_result *x = &rep->r[config_of(note)];

	return x->status == IPX_B8_MEASURED && x->cpu_measured ? x->cpu_base
							       : NAN;
}

static void fidelity(struct ipx_b8_period_report *out, const char *period,
		     bool today)
{
	static const char *const setups[] = { "16/16", "32/32", "16/32",
					      "32/16" };
	struct ipx_fid_table *t = &out->fid;
	const struct ipx_b8_report *m = &out->rep, *d = &out->today;
	char label[48], title[96];

	snprintf(title, sizeof(title), "B8: retrieval, %u workstation%s x %u "
		 "images", m->o.stations, m->o.stations == 1 ? "" : "s",
		 m->o.files);
	ipx_fid_init(t, title, "%", period);
	if (today)
		snprintf(t->today_what, sizeof(t->today_what),
			 "the same run on the wire alone (--sim)");
	ipx_fid_add(t, "initial lag 32/32", LAG_32_32_S, lag(m, "32/32"),
		    today ? lag(d, "32/32") : NAN);
	ipx_fid_unit(t, "s");
	ipx_fid_add(t, "initial lag 16/16", LAG_16_16_S, lag(m, "16/16"),
		    today ? lag(d, "16/16") : NAN);
	ipx_fid_unit(t, "s");
	for (unsigned i = 0; i < 4; i++) {
		snprintf(label, sizeof(label), "server CPU %s",
			 setups[i]);
		ipx_fid_add(t, label,
			    i < 2 ? IPX_B8_PUBLISHED_STRAIGHT_PCT
				  : IPX_B8_PUBLISHED_HYBRID_PCT,
			    cpu(m, setups[i]), today ? cpu(d, setups[i]) : NAN);
	}
	ipx_fid_add_range(t, "32-bit client gain", GAIN_LO_PCT,
			  GAIN_HI_PCT, ipx_b8_client_gain_pct(m),
			  today ? ipx_b8_client_gain_pct(d) : NAN);
}

/* Is the ranking the note's (every configuration measured)? */
static void check_order(struct ipx_b8_report *rep)
{
	unsigned order[IPX_B8_CONFIGS], n = ipx_b8_rank(rep, order);

	rep->order_checked = n == IPX_B8_CONFIGS;
	rep->order_match = rep->order_checked;
	for (unsigned i = 0; i < n; i++)
		if (ipx_b8_config(order[i])->note_rank != i + 1)
			rep->order_match = false;
}

int ipx_b8_run_period(const struct ipx_b8_period_opts *o,
		      ipx_bench_progress_fn progress, void *ctx,
		      struct ipx_b8_period_report *out, char *err,
		      size_t errlen)
{
	struct ipx_b8_report *one = calloc(1, sizeof(*one));
	struct ipx_period *per = calloc(1, sizeof(*per));
	int rc = IPX_OK;

	memset(out, 0, sizeof(*out));
	if (!one || !per) {
		free(one);
		free(per);
		snprintf(err, errlen, "out of memory");
		return IPX_ENOMEM;
	}
	out->rep.o.stations = o->stations;
	out->rep.o.files = o->files;
	memcpy(out->rep.o.only, o->only, sizeof(o->only));
	for (unsigned k = 0; k < IPX_B8_CONFIGS && rc == IPX_OK; k++) {
		bool only[IPX_B8_CONFIGS] = { false };

		if (!o->only[k])
			continue;
		only[k] = true;
		rc = period_of(o, k, per, err, errlen);
		if (rc == IPX_OK)
			rc = run_net(o, per, only, progress, ctx, one,
				     &out->sim_seconds, err, errlen);
		if (rc != IPX_OK)
			break;
		out->rep.o = one->o;
		out->rep.r[k] = one->r[k];
		snprintf(out->rep.period[k], sizeof(out->rep.period[k]), "%s",
			 per->name);
	}
	memcpy(out->rep.o.only, o->only, sizeof(o->only));
	/* the networks are gone: no pointers into them are kept */
	out->rep.o.net = (struct ipx_bfs_net){ .sim = true };
	out->rep.o.loop = NULL;
	out->rep.o.sim_server = NULL;
	out->rep.o.sim_host = NULL;
	if (rc == IPX_OK && o->today) {
		struct ipx_profile wire = o->profile ? *o->profile
						     : o->period->wire;
		struct ipx_b8_period_opts t = *o;

		t.profile = &wire;
		rc = run_net(&t, NULL, o->only, progress, ctx, &out->today,
			     &out->sim_seconds, err, errlen);
		out->have_today = rc == IPX_OK;
		out->today.o.net = (struct ipx_bfs_net){ .sim = true };
		out->today.o.loop = NULL;
		out->today.o.sim_server = NULL;
	}
	free(one);
	free(per);
	if (rc != IPX_OK)
		return rc;
	check_order(&out->rep);
	fidelity(out, o->period->name, out->have_today);
	out->rep.fidelity = &out->fid;
	return IPX_OK;
}
