/*
 * test_bench_fs.c - the file-server benchmarks as library entry points
 * (bench_fs.h) on the simulated network (bench_sim.h), with no command
 * line around them: B2 to B5 run, call progress with a line and then
 * NULL, fill their reports, and their writers give JSON and CSV of those
 * reports; bad options are a message, not a run.
 */
#include "cm.h"

#include <stdlib.h>
#include <string.h>

#include "ipxlab/bench_fs.h"
#include "ipxlab/bench_sim.h"
#include "ipxlab/err.h"
#include "ipxlab/link_profile.h"

static struct ipx_bsim *sim;
static struct ipx_bn_run_opts ro;
static struct ipx_hctl_span span;
static unsigned lines, ends;

static int setup(void **state)
{
	static struct ipx_profile p;
	struct ipx_bsim_opts o = { .profile = &p, .stations = 2, .seed = 1 };
	char err[512];

	(void)state;
	if (ipx_profile_named("eth10", &p) != IPX_OK ||
	    ipx_bsim_new(&o, &sim, err, sizeof(err)) != IPX_OK)
		return -1;
	ro = *ipx_bsim_run_opts(sim);
	ro.span = &span;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	ipx_bsim_free(sim);
	return 0;
}

static void on_progress(void *ctx, const char *line)
{
	(void)ctx;
	if (line)
		lines++;
	else
		ends++;
}

static struct ipx_bfs_net net(void)
{
	struct ipx_bfs_net n = { ipx_bsim_ctl(sim), &ro, NULL, true };

	return n;
}

/* What a writer gave, as a string (free it). */
static char *written(void (*w)(FILE *, const void *), const void *rep)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	w(f, rep);
	fclose(f);
	return buf;
}

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static void b4_json(FILE *f, const void *r)
{
	ipx_b4_write_json(f, r, NULL, NULL);
}

static void b4_csv(FILE *f, const void *r)
{
	ipx_b4_write_csv(f, r);
}

static void perftest_runs_and_writes(void **state)
{
	struct ipx_b4_opts o = { .net = net(), .stations = 2, .seconds = 0.5,
				 .record = 4096, .repeat = 2 };
	struct ipx_b4_report *rep = calloc(1, sizeof(*rep));
	struct ipx_stat_summary y;
	char err[512], *s;

	(void)state;
	lines = ends = 0;
	assert_int_equal(ipx_b4_run(&o, on_progress, NULL, rep, err,
				    sizeof(err)),
			 IPX_OK);
	assert_int_equal(lines, 2);
	assert_int_equal(ends, 1);
	for (unsigned k = 0; k < 2; k++)
		for (unsigned i = 0; i < 2; i++) {
			assert_true(rep->r[k][i].records > 0);
			assert_true(rep->r[k][i].kB_per_s > 0);
			assert_int_equal(rep->r[k][i].station, i + 1);
		}
	ipx_b4_spread(rep, 2, &y);
	assert_true(y.median > 0 && y.min <= y.median && y.median <= y.max);
	s = written(b4_json, rep);
	assert_true(starts(s, "{\"benchmark\":\"perftest\",\"conditions\":"
			      "{\"seconds\":0.500,\"record\":4096,"
			      "\"repeat\":2},\"runs\":[{\"per_workstation\""));
	assert_int_equal(s[strlen(s) - 2], '}');
	free(s);
	s = written(b4_csv, rep);
	assert_true(starts(s, "repeat,station,records,seconds,kB_per_s\n1,1,"));
	free(s);
	free(rep);
}

static void perftest_refuses_bad_options(void **state)
{
	struct ipx_b4_opts o = { .net = net(), .stations = 0, .seconds = 0.5,
				 .record = 4096, .repeat = 1 };
	struct ipx_b4_report *rep = calloc(1, sizeof(*rep));
	char err[512] = "";

	(void)state;
	assert_int_equal(ipx_b4_run(&o, NULL, NULL, rep, err, sizeof(err)),
			 IPX_EINVAL);
	assert_non_null(strstr(err, "workstations"));
	free(rep);
}

static void b3_csv(FILE *f, const void *r)
{
	ipx_b3_write_csv(f, r);
}

static void copy_runs_every_size(void **state)
{
	struct ipx_b3_opts o = { .net = net(), .copies = 2, .repeat = 1 };
	struct ipx_b3_report *rep = calloc(1, sizeof(*rep));
	char err[512], *s;

	(void)state;
	assert_int_equal(ipx_b3_run(&o, NULL, NULL, rep, err, sizeof(err)),
			 IPX_OK);
	for (int z = 0; z < IPX_BN_COPY_SIZES; z++)
		assert_true(rep->t[0][z][0] > 0 && rep->t[0][z][1] > 0);
	s = written(b3_csv, rep);
	/* a header and 7 sizes x 2 copies */
	unsigned nl = 0;

	for (char *c = s; *c; c++)
		nl += *c == '\n';
	assert_int_equal(nl, 1 + IPX_BN_COPY_SIZES * 2);
	free(s);
	free(rep);
}

static void b2_json(FILE *f, const void *r)
{
	ipx_b2_write_json(f, r, NULL, NULL);
}

static void battery_runs_and_marks_done(void **state)
{
	struct ipx_b2_opts o = { .net = net(), .seconds = 0.4, .nsets = 2,
				 .sets = { 1, 2 }, .repeat = 1 };
	struct ipx_b2_report rep;
	char err[512], *s;

	(void)state;
	o.only[IPX_BN_LOCK] = true;
	assert_int_equal(ipx_b2_report_init(&rep, &o), IPX_OK);
	lines = ends = 0;
	assert_int_equal(ipx_b2_run(&o, on_progress, NULL, &rep, err,
				    sizeof(err)),
			 IPX_OK);
	assert_int_equal(lines, 3);	/* the ping, lock with 1 and 2 */
	assert_int_equal(ends, 1);
	assert_true(rep.rtt > 0 && rep.rtt_op[IPX_BN_LOCK] > 0);
	assert_true(rep.done[0][IPX_BN_LOCK] && rep.done[1][IPX_BN_LOCK]);
	assert_false(rep.done[0][IPX_BN_OPEN_MULTI]);
	assert_true(ipx_b2_run_of(&rep, 1, IPX_BN_LOCK, 0)[1].ops > 0);
	assert_true(ipx_b2_bound(&rep, IPX_BN_LOCK) > 0);
	s = written(b2_json, &rep);
	assert_non_null(strstr(s, "\"complete\":true,\"target\":0.80,"
				  "\"tests\":[{\"test\":\"lock\""));
	free(s);
	rep.interrupted = true;	/* what finished only, and said so */
	rep.done[1][IPX_BN_LOCK] = false;
	s = written(b2_json, &rep);
	assert_non_null(strstr(s, "\"complete\":false"));
	assert_null(strstr(s, "\"workstations\":2"));
	free(s);
	ipx_b2_report_free(&rep);
}

static void arrival_counts_its_transfers(void **state)
{
	struct ipx_b5_opts o = { .net = net(), .transfers = 2, .nsets = 1,
				 .sets = { 2 }, .repeat = 1 };
	struct ipx_b5_report rep;
	struct ipx_b5_tally y;
	char err[512];

	(void)state;
	assert_int_equal(ipx_b5_report_init(&rep, &o), IPX_OK);
	assert_int_equal(ipx_b5_run(&o, NULL, NULL, &rep, err, sizeof(err)),
			 IPX_OK);
	assert_int_equal(ipx_b5_scopes(&rep, 0), 0);	/* simulated: all */
	ipx_b5_tally(&rep, 0, 0, 0, &y);
	assert_true(y.ms > 0);	/* no analyzer hooks: no packets, copies */
	ipx_b5_report_free(&rep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(perftest_runs_and_writes),
		cmocka_unit_test(perftest_refuses_bad_options),
		cmocka_unit_test(copy_runs_every_size),
		cmocka_unit_test(battery_runs_and_marks_done),
		cmocka_unit_test(arrival_counts_its_transfers),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
