/*
 * test_bench_cpu.c - the CPU sampler (bench_cpu.h): a forked child that
 * burns half of a CPU (busy 10 ms of each 20 ms of the wall clock) is
 * sampled every 100 ms from its own counters for a second; the samples'
 * mean is within 10 points of 50 %, their sum matches what the child
 * used, an idle child reads near 0, a simulated source gives exactly its
 * figure on a fake clock, and a process that is gone is an error.
 */
#include "cm.h"

#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ipxlab/bench_cpu.h"
#include "ipxlab/err.h"

#define SAMPLES 64

static double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The child: half duty in 20 ms periods of the wall clock (busy for the
 * first 10 ms, asleep until the next period) or idle. */
static pid_t burner(bool busy)
{
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		struct timespec next;

		clock_gettime(CLOCK_MONOTONIC, &next);
		for (;;) {
			double until = wall() + 0.010;

			while (busy && wall() < until)
				;
			next.tv_nsec += 20 * 1000 * 1000;
			if (next.tv_nsec >= 1000000000) {
				next.tv_nsec -= 1000000000;
				next.tv_sec++;
			}
			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next,
					NULL);
		}
	}
	return pid;
}

static double mean_over_second(pid_t pid, double *used, size_t *n)
{
	struct ipx_loop *loop = ipx_loop_new(ipx_clock_system());
	struct ipx_cpu_sampler s;
	double pct[SAMPLES], sum = 0, before, after, t0, t1;

	assert_non_null(loop);
	assert_int_equal(ipx_cpu_process_seconds(pid, &before), IPX_OK);
	t0 = wall();
	assert_int_equal(ipx_cpu_sampler_start(&s, loop, 0, ipx_cpu_pid_source,
					       &pid, pct, SAMPLES),
			 IPX_OK);
	ipx_loop_run_for(loop, 1050 * IPX_MSEC);
	ipx_cpu_sampler_stop(&s);
	assert_int_equal(ipx_cpu_process_seconds(pid, &after), IPX_OK);
	t1 = wall();
	assert_false(s.failed);
	assert_in_range(s.n, 9, 11);
	for (size_t i = 0; i < s.n; i++)
		sum += pct[i];
	*used = after - before;
	*n = s.n;
	/* the samples' mean is the child's share over the whole span (its
	 * own counters before and after, the wall clock): within 10 points */
	assert_true(fabs(sum / (double)s.n - 100.0 * *used / (t1 - t0)) < 10.0);
	ipx_loop_free(loop);
	return sum / (double)s.n;
}

static void stop(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* Up to 5 tries: a machine busy with other work may not give the child
 * its half (then its own counters say so, and the test is skipped, not
 * passed). */
static void half_a_cpu_within_ten_points(void **state)
{
	double used = 0, mean = 0;
	size_t n = 0;

	(void)state;
	for (int t = 0; t < 5; t++) {
		pid_t pid = burner(true);

		usleep(50 * 1000);
		mean = mean_over_second(pid, &used, &n);
		stop(pid);
		print_message("child at half duty: %.1f %% over %zu samples "
			      "(%.3f s used)\n",
			      mean, n, used);
		if (mean > 40.0 && mean < 60.0)
			return;
		assert_true(mean < 60.0);	/* never more than it burns */
	}
	if (used < 0.45)
		skip();	/* the child did not get its half of a CPU */
	fail_msg("the child used %.3f s, the samples say %.1f %%", used, mean);
}

static void idle_child_near_zero(void **state)
{
	pid_t pid = burner(false);
	double used, mean;
	size_t n;

	(void)state;
	mean = mean_over_second(pid, &used, &n);
	stop(pid);
	assert_true(mean < 5.0);
}

static double sim_cpu;

static int sim_source(void *ctx, double *out)
{
	(void)ctx;
	*out = sim_cpu;
	return IPX_OK;
}

static void simulated_source_exact(void **state)
{
	struct ipx_clock clk;
	struct ipx_loop *loop;
	struct ipx_cpu_sampler s;
	double pct[SAMPLES];

	(void)state;
	ipx_clock_fake_init(&clk, 0);
	loop = ipx_loop_new(&clk);
	sim_cpu = 0;
	assert_int_equal(ipx_cpu_sampler_start(&s, loop, 0, sim_source, NULL,
					       pct, 3),
			 IPX_OK);
	for (int i = 0; i < 5; i++) {
		sim_cpu += 0.025 * (i + 1);	/* 25, 50, 75, ... % */
		ipx_loop_run_for(loop, IPX_CPU_INTERVAL);
	}
	ipx_cpu_sampler_stop(&s);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.dropped, 2);	/* past the room given */
	assert_true(pct[0] > 24.99 && pct[0] < 25.01);
	assert_true(pct[2] > 74.99 && pct[2] < 75.01);
	ipx_loop_free(loop);
}

static void gone_process_is_an_error(void **state)
{
	pid_t pid = fork();
	double x;

	(void)state;
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	assert_int_not_equal(ipx_cpu_process_seconds(pid, &x), IPX_OK);
	assert_int_not_equal(ipx_cpu_process_seconds(0, &x), IPX_OK);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(half_a_cpu_within_ten_points),
		cmocka_unit_test(idle_child_near_zero),
		cmocka_unit_test(simulated_source_exact),
		cmocka_unit_test(gone_process_is_an_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
