/*
 * test_bench_b7.c - B7, throughput against block size (bench_b7.h), as a
 * library entry point on the simulated network (bench_sim.h, eth10, 5
 * workstations): its loop runs the 16 sizes from 64,512 down to 3,072
 * with every workstation, the totals are the workstations' sums, the
 * same seed gives the same report, the figures have the shape the wire
 * gives them, a burst configuration the server does not grant is marked
 * and not measured, and the writers give JSON, CSV and the curve; with
 * a period, the best configuration and the fidelity table beside the
 * bulletin's best (its figures for lantastic-1993 only).
 */
#include "cm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ipxlab/bench_b7.h"
#include "ipxlab/bench_sim.h"
#include "ipxlab/err.h"
#include "ipxlab/link_profile.h"
#include "ipxlab/ncp_client.h"

#define SECONDS 0.2
#define ETH10_KB_PER_S 1250.0	/* 10 Mbit/s in kB (1000 bytes) */

static unsigned lines, ends;

static void on_progress(void *ctx, const char *line)
{
	(void)ctx;
	if (line)
		lines++;
	else
		ends++;
}

/* A B7 run on a fresh simulated network of 5 workstations (free it). */
static struct ipx_b7_report *run_b7(uint64_t seed, bool write,
				    const bool only[IPX_B7_CONFIGS])
{
	static struct ipx_profile p;
	struct ipx_bsim_opts so = { .profile = &p, .stations = 5,
				    .seed = seed };
	struct ipx_b7_report *rep = calloc(1, sizeof(*rep));
	struct ipx_b7_opts o = { .stations = 5, .seconds = SECONDS,
				 .write = write };
	struct ipx_bsim *sim;
	char err[512];

	assert_non_null(rep);
	assert_int_equal(ipx_profile_named("eth10", &p), IPX_OK);
	assert_int_equal(ipx_bsim_new(&so, &sim, err, sizeof(err)), IPX_OK);
	o.net.ctl = ipx_bsim_ctl(sim);
	o.net.ro = ipx_bsim_run_opts(sim);
	o.net.sim = true;
	memcpy(o.only, only, sizeof(o.only));
	lines = ends = 0;
	if (ipx_b7_run(&o, on_progress, NULL, rep, err, sizeof(err)) != IPX_OK)
		fail_msg("B7: %s", err);
	ipx_bsim_free(sim);
	return rep;
}

static const bool all[IPX_B7_CONFIGS] = { true, true, true, true };

static char *json_of(const struct ipx_b7_report *rep)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	ipx_b7_write_json(f, rep, NULL, NULL);
	fclose(f);
	return buf;
}

static void sixteen_sizes_every_workstation(void **state)
{
	struct ipx_b7_report *rep = run_b7(1, false, all);
	unsigned expect_lines = 0;

	(void)state;
	assert_int_equal(ipx_b7_block(0), 64512);
	assert_int_equal(ipx_b7_block(15), 3072);
	for (unsigned k = 0; k < IPX_B7_CONFIGS; k++) {
		const struct ipx_b7_result *x = &rep->r[k];

		if (x->status == IPX_B7_NO_BURST) {
			/* one size tried, nothing kept */
			assert_true(ipx_b7_config(k)->burst);
			assert_int_equal(x->sizes_done, 0);
			expect_lines += 1;
			continue;
		}
		assert_int_equal(x->status, IPX_B7_MEASURED);
		assert_int_equal(x->sizes_done, IPX_B7_SIZES);
		expect_lines += IPX_B7_SIZES;
		for (unsigned s = 0; s < IPX_B7_SIZES; s++) {
			double sum = 0, span = 0;

			for (unsigned i = 0; i < 5; i++)
				if (x->c[s][i].time_s > span)
					span = x->c[s][i].time_s;
			for (unsigned i = 0; i < 5; i++) {
				const struct ipx_b7_cell *c = &x->c[s][i];

				/* each over the size's one window */
				assert_true(c->blocks > 0);
				assert_true(c->time_s >= SECONDS);
				assert_true(fabs(c->kB_per_s -
						 c->blocks * ipx_b7_block(s) /
							 1000.0 / span) <
					    1e-9);
				sum += c->kB_per_s;
			}
			assert_true(fabs(ipx_b7_total(rep, k, s) - sum) < 1e-9);
		}
	}
	/* the request configurations always run */
	assert_int_equal(rep->r[0].status, IPX_B7_MEASURED);
	assert_int_equal(rep->r[1].status, IPX_B7_MEASURED);
	assert_int_equal(lines, expect_lines);
	assert_int_equal(ends, 1);
	free(rep);
}

static void same_seed_same_report(void **state)
{
	bool two[IPX_B7_CONFIGS] = { true, true, false, false };
	struct ipx_b7_report *a = run_b7(7, false, two);
	struct ipx_b7_report *b = run_b7(7, false, two);
	char *ja = json_of(a), *jb = json_of(b);

	(void)state;
	assert_string_equal(ja, jb);
	assert_true(memcmp(a->r, b->r, sizeof(a->r)) == 0);
	free(ja);
	free(jb);
	free(a);
	free(b);
}

/*
 * On a lossless eth10 segment with no CPU time only the wire counts: the
 * totals stay under 10 Mbit/s; the tuned buffer (the link's 1,446
 * bytes) beats the default 1,024 at every size where a block takes it
 * fewer requests (all but 3,072: three either way); with the default buffer,
 * which divides every size, a block is whole requests and the total is
 * flat; with the tuned one a block ends in a short request, a larger
 * share of a small block, so the total grows with the block size.
 */
static void shape_of_the_curve(void **state)
{
	bool two[IPX_B7_CONFIGS] = { true, true, false, false };
	struct ipx_b7_report *rep = run_b7(1, false, two);
	double avg[2], peak[2];
	uint32_t at[2];

	(void)state;
	assert_int_equal(rep->r[0].granted, 1024);
	assert_true(rep->r[1].granted > 1024);
	for (unsigned k = 0; k < 2; k++) {
		ipx_b7_summary(rep, k, &avg[k], &peak[k], &at[k]);
		assert_true(peak[k] >= avg[k]);
		assert_true(peak[k] < ETH10_KB_PER_S);
		assert_true(avg[k] > 0.7 * ETH10_KB_PER_S);
	}
	assert_true(avg[1] > avg[0]);
	for (unsigned s = 0; s < IPX_B7_SIZES; s++) {
		double d = ipx_b7_total(rep, 0, s);

		uint32_t b = ipx_b7_block(s), g = rep->r[1].granted;

		assert_true(fabs(d - avg[0]) < 0.01 * avg[0]);
		if ((b + g - 1) / g < b / 1024)
			assert_true(ipx_b7_total(rep, 1, s) > d);
	}
	assert_true(ipx_b7_total(rep, 1, 0) >
		    ipx_b7_total(rep, 1, IPX_B7_SIZES - 1) * 1.03);
	free(rep);
}

static void burst_not_granted_is_marked(void **state)
{
	bool burst[IPX_B7_CONFIGS] = { false, false, true, false };
	struct ipx_b7_report *rep = run_b7(1, false, burst);
	char *j = json_of(rep);

	(void)state;
	if (rep->r[2].status == IPX_B7_MEASURED) {
		/* a client with burst (after the merge): measured */
		assert_int_equal(rep->r[2].sizes_done, IPX_B7_SIZES);
	} else {
		assert_int_equal(rep->r[2].status, IPX_B7_NO_BURST);
		assert_non_null(strstr(j, "{\"name\":\"burst/default\","
					  "\"requests\":\"packet burst\","
					  "\"buffer_asked_bytes\":1024,"
					  "\"status\":\"burst not offered\"}"));
		assert_null(strstr(j, "\"sizes\""));
		free(j);
		j = NULL;
		{
			size_t len = 0;
			FILE *f = open_memstream(&j, &len);

			ipx_b7_write_csv(f, rep);
			fclose(f);
		}
		/* no figure for it, not even a zero */
		assert_non_null(strstr(j, "\nburst/default,burst not offered,"
					  ",,,,,\n"));
	}
	assert_null(strstr(j, "request/default"));
	free(j);
	free(rep);
}

static void writes_and_the_writers(void **state)
{
	bool one[IPX_B7_CONFIGS] = { true, false, false, false };
	struct ipx_b7_report *rep = run_b7(1, true, one);
	char *buf = NULL, *j;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_int_equal(rep->r[0].sizes_done, IPX_B7_SIZES);
	j = json_of(rep);
	assert_non_null(strstr(j, "\"operation\":\"write\""));
	assert_non_null(strstr(j, "\"published\":{\"best_average_kbyte_per_s\""
				  ":988,\"best_peak_kbyte_per_s\":1077,"
				  "\"ceiling_MB_per_s\":1.25}"));
	assert_non_null(strstr(j, "\"average_total_kB_per_s\""));
	assert_null(strstr(j, "complete"));
	free(j);
	ipx_b7_interrupted(rep);
	j = json_of(rep);
	assert_non_null(strstr(j, ",\"complete\":false}"));
	free(j);
	f = open_memstream(&buf, &len);
	ipx_b7_write_csv(f, rep);
	fclose(f);
	assert_true(!strncmp(buf, "config,status,buffer_bytes,block_bytes,"
				  "station,blocks,time_s,kB_per_s\n"
				  "request/default,measured,1024,64512,1,",
			     strlen("config,status,buffer_bytes,block_bytes,"
				    "station,blocks,time_s,kB_per_s\n"
				    "request/default,measured,1024,64512,1,")));
	/* 16 sizes x (5 workstations + total) and the header */
	len = 0;
	for (char *p = buf; *p; p++)
		len += *p == '\n';
	assert_int_equal(len, 1 + 16 * 6);
	assert_non_null(strstr(buf, "request/default,measured,1024,3072,total,"));
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	ipx_b7_write_curve(f, rep, 12);
	fclose(f);
	assert_non_null(strstr(buf, "r request/default\n"));
	assert_non_null(strstr(buf, "3072"));
	assert_non_null(strstr(buf, "64512"));
	free(buf);
	free(rep);
}

static void bad_options_refused(void **state)
{
	struct ipx_b7_report *rep = calloc(1, sizeof(*rep));
	struct ipx_b7_opts o = { .stations = 0, .seconds = 1 };
	char err[256] = "";

	(void)state;
	assert_int_equal(ipx_b7_run(&o, NULL, NULL, rep, err, sizeof(err)),
			 IPX_EINVAL);
	assert_non_null(strstr(err, "workstations"));
	assert_null(ipx_b7_config(IPX_B7_CONFIGS));
	free(rep);
}

/* Configuration k measured at every size, each workstation kbs[s] / 5. */
static void fill(struct ipx_b7_report *rep, unsigned k, double base,
		 double step)
{
	rep->r[k].status = IPX_B7_MEASURED;
	rep->r[k].sizes_done = IPX_B7_SIZES;
	for (unsigned s = 0; s < IPX_B7_SIZES; s++)
		for (unsigned i = 0; i < 5; i++)
			rep->r[k].c[s][i].kB_per_s = (base - step * s) / 5;
}

static void best_configuration_and_fidelity(void **state)
{
	struct ipx_b7_report *rep = calloc(1, sizeof(*rep));
	struct ipx_b7_report *today = calloc(1, sizeof(*today));
	const struct ipx_fid_table *t = &rep->fid;

	(void)state;
	rep->o.stations = today->o.stations = 5;
	assert_int_equal(ipx_b7_best(rep), -1);
	fill(rep, 0, 800, 0);		/* flat 800 */
	fill(rep, 3, 1050, 10);		/* 1,050 down to 900: mean 975 */
	rep->r[2].status = IPX_B7_NO_BURST;
	fill(today, 1, 1100, 0);
	assert_int_equal(ipx_b7_best(rep), 3);
	ipx_b7_fidelity(rep, today, IPX_B7_PERIOD, "the wire alone");
	assert_true(rep->have_fidelity);
	assert_int_equal(rep->best, 3);
	assert_int_equal(rep->today_best, 1);
	assert_int_equal(t->n, 2);
	assert_true(t->row[0].ref == 988 && t->row[1].ref == 1077);
	assert_true(fabs(t->row[0].model - 975) < 1e-9);
	assert_true(fabs(t->row[1].model - 1050) < 1e-9);
	assert_true(fabs(t->row[0].today - 1100) < 1e-9);
	assert_true(fabs(ipx_fid_median_abs_error(t) -
			 ((988 - 975) / 988.0 + (1077 - 1050) / 1077.0) / 2 *
				 100) < 1e-9);
	assert_string_equal(t->today_what, "the wire alone");
	/* another period: a prediction, no 1990 figure, no median */
	ipx_b7_fidelity(rep, NULL, "lantastic-8bit-1993", "x");
	assert_true(isnan(t->row[0].ref) && isnan(t->row[1].ref));
	assert_true(isnan(ipx_fid_median_abs_error(t)));
	assert_true(isnan(t->row[0].today));
	assert_int_equal(rep->today_best, -1);
	assert_string_equal(t->today_what, "");
	free(rep);
	free(today);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sixteen_sizes_every_workstation),
		cmocka_unit_test(same_seed_same_report),
		cmocka_unit_test(shape_of_the_curve),
		cmocka_unit_test(burst_not_granted_is_marked),
		cmocka_unit_test(writes_and_the_writers),
		cmocka_unit_test(bad_options_refused),
		cmocka_unit_test(best_configuration_and_fidelity),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
