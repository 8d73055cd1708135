/*
 * test_bench_b8.c - B8, the retrieval test bench (bench_b8.h), as a
 * library entry point on the simulated network (bench_sim.h, eth10):
 * each workstation retrieves its images, every one once and none twice;
 * the lag is no more than the total, the spread is ordered, the server's
 * simulated CPU series has its baseline at most its peak and is the
 * requests' cost; the same seed gives the same report; a burst
 * configuration the server does not grant is marked; the writers; bad
 * options; and (if it takes under 2 s) a run with the defaults.
 */
#include "cm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ipxlab/bench_b8.h"
#include "ipxlab/bench_sim.h"
#include "ipxlab/err.h"
#include "ipxlab/link_profile.h"
#include "ipxlab/ncp_server.h"

static unsigned lines, ends;

static void on_progress(void *ctx, const char *line)
{
	(void)ctx;
	if (line)
		lines++;
	else
		ends++;
}

static const bool all[IPX_B8_CONFIGS] = { true, true, true, true };

/* A B8 run on a fresh simulated eth10 network (free it); *requests the
 * server's NCP requests at the end. */
static struct ipx_b8_report *run_b8(unsigned stations, unsigned files,
				    uint64_t seed, const bool *only,
				    uint64_t *requests)
{
	static struct ipx_profile p;
	struct ipx_bsim_opts so = { .profile = &p, .stations = stations,
				    .seed = seed };
	struct ipx_b8_report *rep = calloc(1, sizeof(*rep));
	struct ipx_b8_opts o = { .stations = stations, .files = files };
	struct ipx_bsim *sim;
	char err[512];

	assert_non_null(rep);
	assert_int_equal(ipx_profile_named("eth10", &p), IPX_OK);
	assert_int_equal(ipx_bsim_new(&so, &sim, err, sizeof(err)), IPX_OK);
	o.net.ctl = ipx_bsim_ctl(sim);
	o.net.ro = ipx_bsim_run_opts(sim);
	o.net.sim = true;
	o.loop = ipx_bsim_loop(sim);
	o.sim_server = ipx_bsim_server(sim);
	memcpy(o.only, only, sizeof(o.only));
	lines = ends = 0;
	if (ipx_b8_run(&o, on_progress, NULL, rep, err, sizeof(err)) != IPX_OK)
		fail_msg("B8: %s", err);
	if (requests)
		*requests = ncp_server_stats(ipx_bsim_server(sim))->requests;
	ipx_bsim_free(sim);
	rep->o.sim_server = NULL;	/* freed: the report keeps no pointer */
	rep->o.loop = NULL;
	return rep;
}

static void images_distinct_and_sized(void **state)
{
	uint64_t sum = 0;
	uint32_t small = UINT32_MAX, big = 0;

	(void)state;
	for (unsigned st = 1; st <= IPX_B8_STATIONS; st++) {
		bool seen[IPX_BN_IMAGES] = { false };

		for (unsigned k = 0; k < IPX_BN_IMAGES; k++) {
			unsigned i = ipx_bn_image_pick(st, k, IPX_BN_IMAGES);

			assert_true(i < IPX_BN_IMAGES);
			assert_false(seen[i]);	/* never the same file twice */
			seen[i] = true;
		}
		/* two workstations start at different images */
		if (st > 1)
			assert_int_not_equal(ipx_bn_image_pick(st, 0, 200),
					     ipx_bn_image_pick(st - 1, 0, 200));
	}
	for (unsigned i = 0; i < IPX_BN_IMAGES; i++) {
		uint32_t s = ipx_bn_image_size(i);

		assert_int_equal(s, ipx_bn_image_size(i));	/* fixed */
		assert_in_range(s, IPX_BN_IMAGE_MIN, IPX_BN_IMAGE_MAX);
		sum += s;
		small = s < small ? s : small;
		big = s > big ? s : big;
	}
	/* a spread, around the median: the mean of a log-normal of sigma
	 * 0.5 is e^(1/8) = 1.13 times its median */
	assert_true(big > 2 * small);
	assert_in_range(sum / IPX_BN_IMAGES, 48000, 62000);
}

static void every_image_once_lag_within_total(void **state)
{
	uint64_t req;
	struct ipx_b8_report *rep = run_b8(3, 12, 1, all, &req);
	unsigned measured = 0;

	(void)state;
	assert_int_equal(ends, 1);
	for (unsigned k = 0; k < IPX_B8_CONFIGS; k++) {
		const struct ipx_b8_result *x = &rep->r[k];
		uint64_t bytes = 0;

		if (x->status == IPX_B8_NO_BURST) {
			assert_true(ipx_b8_config(k)->burst);
			assert_int_equal(x->ws[0].files, 0);
			continue;
		}
		assert_int_equal(x->status, IPX_B8_MEASURED);
		measured++;
		for (unsigned i = 0; i < 3; i++) {
			assert_int_equal(x->ws[i].files, 12);
			assert_true(x->ws[i].first_s > 0);
			assert_true(x->ws[i].first_s <= x->ws[i].done_s);
			for (unsigned j = 0; j < 12; j++)
				bytes += ipx_bn_image_size(
					ipx_bn_image_pick(i + 1, j, 12));
		}
		assert_int_equal(x->image_bytes, bytes);
		assert_true(x->lag_s > 0 && x->lag_s <= x->total_s);
		assert_true(x->min_s <= x->median_s &&
			    x->median_s <= x->max_s);
		assert_true(x->max_s == x->total_s);
		/* 3 x 12 images of ~50 kB over 10 Mbit/s: at least 1.3 s */
		assert_true(x->total_s > (double)bytes / 1.25e6);
		assert_true(x->cpu_measured);
		assert_in_range(x->ncpu, (size_t)(x->total_s * 10),
				(size_t)(x->total_s * 10) + 20);
		assert_true(x->cpu_base <= x->cpu_peak);
		assert_true(x->cpu_base > 0 && x->cpu_peak < 100);
		assert_true(ipx_b8_place(rep, k) >= 1);
	}
	assert_true(measured >= 2);
	/* in simulated time the driver makes no system call: the two
	 * differ only by the medium's random draws */
	assert_true(fabs(rep->r[0].total_s - rep->r[1].total_s) <
		    0.1 * rep->r[0].total_s);
	(void)req;
	free(rep);
}

static void cpu_series_is_requests_cost(void **state)
{
	static const bool one[IPX_B8_CONFIGS] = { true };
	uint64_t req;
	struct ipx_b8_report *rep = run_b8(2, 5, 3, one, &req);
	const struct ipx_b8_result *x = &rep->r[0];
	double sum = 0;

	(void)state;
	for (size_t i = 0; i < x->ncpu; i++)
		sum += x->cpu[i] * 0.1 / 100.0;	/* CPU seconds */
	/* the samples hold the run's requests (all but the attach's and
	 * those of the last partial interval) at 200 us each */
	assert_true(sum <= req * IPX_B8_SIM_REQUEST_US / 1e6 + 1e-9);
	assert_true(sum >= 0.8 * req * IPX_B8_SIM_REQUEST_US / 1e6);
	free(rep);
}

static char *json_of(const struct ipx_b8_report *rep)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	ipx_b8_write_json(f, rep, NULL, NULL);
	fclose(f);
	return buf;
}

static void same_seed_same_report(void **state)
{
	struct ipx_b8_report *a = run_b8(2, 6, 7, all, NULL);
	struct ipx_b8_report *b = run_b8(2, 6, 7, all, NULL);
	char *ja = json_of(a), *jb = json_of(b);

	(void)state;
	assert_string_equal(ja, jb);
	free(ja);
	free(jb);
	free(a);
	free(b);
}

static void writers(void **state)
{
	struct ipx_b8_report *rep = run_b8(2, 4, 1, all, NULL);
	char *j, *csv = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	ipx_b8_interrupted(rep);
	j = json_of(rep);
	assert_non_null(strstr(j, "\"benchmark\":\"retrieval\""));
	assert_non_null(strstr(j, "\"ranking_total_time\":[\"32/32\",\"32/16\","
				  "\"16/16\",\"16/32\"]"));
	assert_non_null(strstr(j, "\"initial_lag_s\":"));
	assert_non_null(strstr(j, "\"baseline_pct\":"));
	assert_non_null(strstr(j, "\"series_pct\":["));
	assert_non_null(strstr(j, "\"complete\":false"));
	if (rep->r[2].status == IPX_B8_NO_BURST)
		assert_non_null(strstr(j, "\"status\":\"burst not offered\""));
	f = open_memstream(&csv, &len);
	ipx_b8_write_csv(f, rep);
	fclose(f);
	assert_true(strncmp(csv, "config,note_setup,status,station,files,"
				 "time_s,first_s,lag_s,min_s,median_s,max_s,"
				 "t_s,cpu_pct,cpu_baseline_pct,cpu_peak_pct,"
				 "rank\n",
			    strlen("config,note_setup,status,station,files,"
				   "time_s,first_s,lag_s,min_s,median_s,"
				   "max_s,t_s,cpu_pct,cpu_baseline_pct,"
				   "cpu_peak_pct,rank\n")) == 0);
	assert_non_null(strstr(csv, "\nrequest/batched,16/32,measured,1,4,"));
	assert_non_null(strstr(csv, "\nrequest/single,16/16,measured,cpu,"));
	free(csv);
	free(j);
	free(rep);
}

static void bad_options_refused(void **state)
{
	struct ipx_b8_report *rep = calloc(1, sizeof(*rep));
	struct ipx_b8_opts o = { .stations = 2, .files = 0 };
	char err[256];

	(void)state;
	memcpy(o.only, all, sizeof(o.only));
	assert_int_equal(ipx_b8_run(&o, NULL, NULL, rep, err, sizeof(err)),
			 IPX_EINVAL);
	assert_non_null(strstr(err, "1 to 200 images"));
	o.files = IPX_BN_IMAGES + 1;
	assert_int_equal(ipx_b8_run(&o, NULL, NULL, rep, err, sizeof(err)),
			 IPX_EINVAL);
	free(rep);
}

/* The defaults, 18 workstations x 200 images, one configuration, when
 * the machine does it in under 2 s (else said, and skipped). */
static void the_defaults(void **state)
{
	static const bool one[IPX_B8_CONFIGS] = { false, true };
	struct timespec t0, t1;
	struct ipx_b8_report *rep;
	double secs;

	(void)state;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	rep = run_b8(IPX_B8_STATIONS, IPX_BN_IMAGES, 1, one, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) +
	       (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	print_message("defaults: %.1f s simulated, lag %.3f s, CPU %.1f %% "
		      "(peak %.1f) in %.2f s\n",
		      rep->r[1].total_s, rep->r[1].lag_s, rep->r[1].cpu_base,
		      rep->r[1].cpu_peak, secs);
	for (unsigned i = 0; i < IPX_B8_STATIONS; i++)
		assert_int_equal(rep->r[1].ws[i].files, IPX_BN_IMAGES);
	assert_true(rep->r[1].lag_s <= rep->r[1].total_s);
	free(rep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(images_distinct_and_sized),
		cmocka_unit_test(every_image_once_lag_within_total),
		cmocka_unit_test(cpu_series_is_requests_cost),
		cmocka_unit_test(same_seed_same_report),
		cmocka_unit_test(writers),
		cmocka_unit_test(bad_options_refused),
		cmocka_unit_test(the_defaults),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
