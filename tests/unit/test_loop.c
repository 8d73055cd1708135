/*
 * test_loop.c - the event loop's timers, hooks and run modes, on the fake
 * clock (and briefly on the real one for descriptors and signals), and
 * tasks: waits on their own stacks that return in the order their
 * conditions come true, not nested one inside another.
 */
#include "cm.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "ipxlab/clock.h"
#include "ipxlab/err.h"
#include "ipxlab/loop.h"

struct rec {
	ipx_time at[32];
	int n;
	int want;	/* for reached() */
	struct ipx_loop *loop;
	struct ipx_timer *other;
};

static void record(struct ipx_loop *loop, struct ipx_timer *t, void *ctx)
{
	struct rec *r = ctx;

	(void)t;
	if (r->n < 32)
		r->at[r->n++] = ipx_loop_now(loop);
}

static void one_shot_fires_once_at_its_deadline(void **state)
{
	struct ipx_clock clk;
	struct ipx_loop *loop;
	struct ipx_timer t;
	struct rec r = { 0 };

	(void)state;
	ipx_clock_fake_init(&clk, 1000);
	loop = ipx_loop_new(&clk);
	ipx_timer_init(&t, record, &r);
	assert_int_equal(ipx_timer_start(loop, &t, 500, 0), IPX_OK);
	assert_true(ipx_timer_active(&t));
	assert_int_equal(ipx_loop_run_for(loop, 10 * IPX_SEC), IPX_OK);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.at[0], 1500);
	assert_false(ipx_timer_active(&t));
	ipx_loop_free(loop);
}

static void periodic_keeps_its_cadence(void **state)
{
	struct ipx_clock clk;
	struct ipx_loop *loop;
	struct ipx_timer t;
	struct rec r = { 0 };

	(void)state;
	ipx_clock_fake_init(&clk, 0);
	loop = ipx_loop_new(&clk);
	ipx_timer_init(&t, record, &r);
	ipx_timer_start(loop, &t, IPX_TICK, IPX_TICK);
	ipx_loop_run_for(loop, 5 * IPX_TICK);
	assert_int_equal(r.n, 5);
	for (int i = 0; i < 5; i++)
		assert_int_equal(r.at[i], (ipx_time)(i + 1) * IPX_TICK);
	ipx_timer_stop(loop, &t);
	ipx_loop_free(loop);
}

static void timers_fire_in_deadline_order(void **state)
{
	static const ipx_time delays[] = { 70, 10, 50, 30, 90, 20, 80, 40, 60 };
	struct ipx_clock clk;
	struct ipx_loop *loop;
	struct ipx_timer t[9];
	struct rec r = { 0 };

	(void)state;
	ipx_clock_fake_init(&clk, 0);
	loop = ipx_loop_new(&clk);
	for (int i = 0; i < 9; i++) {
		ipx_timer_init(&t[i], record, &r);
		ipx_timer_start(loop, &t[i], delays[i], 0);
	}
	/* Stopping one from the middle of the heap keeps the order. */
	ipx_timer_stop(loop, &t[2]);
	ipx_loop_run_for(loop, 1000);
	assert_int_equal(r.n, 8);
	for (int i = 1; i < r.n; i++)
		assert_true(r.at[i - 1] < r.at[i]);
	assert_int_equal(r.at[0], 10);
	assert_int_equal(r.at[7], 90);
	ipx_loop_free(loop);
}

static void stop_other(struct ipx_loop *loop, struct ipx_timer *t, void *ctx)
{
	struct rec *r = ctx;

	record(loop, t, ctx);
	ipx_timer_stop(loop, r->other);
	ipx_timer_stop(loop, t);	/* a periodic timer may stop itself */
}

static void callbacks_may_stop_timers(void **state)
{
	struct ipx_clock clk;
	struct ipx_loop *loop;
	struct ipx_timer a, b;
	struct rec r = { 0 }, rb = { 0 };

	(void)state;
	ipx_clock_fake_init(&clk, 0);
	loop = ipx_loop_new(&clk);
	r.other = &b;
	ipx_timer_init(&a, stop_other, &r);
	ipx_timer_init(&b, record, &rb);
	ipx_timer_start(loop, &a, 100, 100);
	ipx_timer_start(loop, &b, 100, 0);	/* same deadline, later */
	ipx_loop_run_for(loop, 1000);
	assert_int_equal(r.n, 1);
	assert_int_equal(rb.n, 0);
	ipx_loop_free(loop);
}

static void restart_moves_the_deadline(void **state)
{
	struct ipx_clock clk;
	struct ipx_loop *loop;
	struct ipx_timer t;
	struct rec r = { 0 };

	(void)state;
	ipx_clock_fake_init(&clk, 0);
	loop = ipx_loop_new(&clk);
	ipx_timer_init(&t, record, &r);
	ipx_timer_start(loop, &t, 100, 0);
	ipx_loop_run_for(loop, 50);
	ipx_timer_start(loop, &t, 100, 0);	/* like a watchdog reset */
	ipx_loop_run_for(loop, 1000);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.at[0], 150);
	ipx_loop_free(loop);
}

static void count_hook(struct ipx_loop *loop, void *ctx)
{
	(void)loop;
	(*(int *)ctx)++;
}

static void hooks_run_before_sleep_and_can_be_removed(void **state)
{
	struct ipx_clock clk;
	struct ipx_loop *loop;
	struct ipx_hook h;
	struct ipx_timer t;
	struct rec r = { 0 };
	int calls = 0, before;

	(void)state;
	ipx_clock_fake_init(&clk, 0);
	loop = ipx_loop_new(&clk);
	ipx_loop_add_hook(loop, &h, count_hook, &calls);
	ipx_timer_init(&t, record, &r);
	ipx_timer_start(loop, &t, 10, 10);
	ipx_loop_run_for(loop, 35);
	assert_true(calls >= 3);
	ipx_loop_remove_hook(loop, &h);
	before = calls;
	ipx_loop_run_for(loop, 100);
	assert_int_equal(calls, before);
	ipx_loop_free(loop);
}

static bool reached(void *ctx)
{
	struct rec *r = ctx;

	return r->n >= r->want;
}

static void run_until_reports_done_and_timeout(void **state)
{
	struct ipx_clock clk;
	struct ipx_loop *loop;
	struct ipx_timer t;
	struct rec r = { .want = 3 };

	(void)state;
	ipx_clock_fake_init(&clk, 0);
	loop = ipx_loop_new(&clk);
	ipx_timer_init(&t, record, &r);
	ipx_timer_start(loop, &t, IPX_SEC, IPX_SEC);
	assert_int_equal(ipx_loop_run_until(loop, reached, &r, 10 * IPX_SEC),
			 IPX_OK);
	assert_int_equal(ipx_loop_now(loop), 3 * IPX_SEC);
	r.want = 100;
	assert_int_equal(ipx_loop_run_until(loop, reached, &r, 2 * IPX_SEC),
			 IPX_ETIMEOUT);
	/* Simulated time stops exactly at the timeout. */
	assert_int_equal(ipx_loop_now(loop), 5 * IPX_SEC);
	ipx_loop_free(loop);
}

/* A synchronous client in a task: waits for its flag. */
struct waiter {
	struct ipx_loop *loop;
	bool flag;
	ipx_time wait, returned;
	int rc;
	struct ipx_timer set, start;
};

static bool flag_set(void *ctx)
{
	return ((struct waiter *)ctx)->flag;
}

static void set_flag(struct ipx_loop *loop, struct ipx_timer *t, void *ctx)
{
	(void)loop;
	(void)t;
	((struct waiter *)ctx)->flag = true;
}

static void waiter_task(void *ctx)
{
	struct waiter *w = ctx;

	w->rc = ipx_loop_run_until(w->loop, flag_set, w, w->wait);
	w->returned = ipx_loop_now(w->loop);
}

static void start_waiter(struct ipx_loop *loop, struct ipx_timer *t,
			 void *ctx)
{
	(void)t;
	assert_int_equal(ipx_loop_spawn(loop, waiter_task, ctx), IPX_OK);
}

static void waiter_init(struct waiter *w, struct ipx_loop *loop,
			ipx_time start, ipx_time flag, ipx_time wait)
{
	memset(w, 0, sizeof(*w));
	w->loop = loop;
	w->wait = wait;
	w->rc = 99;
	ipx_timer_init(&w->start, start_waiter, w);
	ipx_timer_start(loop, &w->start, start, 0);
	ipx_timer_init(&w->set, set_flag, w);
	if (flag)
		ipx_timer_start(loop, &w->set, flag, 0);
}

static void tasks_wait_side_by_side(void **state)
{
	struct ipx_clock clk;
	struct ipx_loop *loop;
	struct waiter a, b, c, d;

	(void)state;
	ipx_clock_fake_init(&clk, 0);
	loop = ipx_loop_new(&clk);
	/* b starts while a waits and waits longer: a still returns at its
	 * own time (nested waits would bury it until b's) */
	waiter_init(&a, loop, 0, IPX_SEC, 10 * IPX_SEC);
	waiter_init(&b, loop, IPX_SEC / 2, 5 * IPX_SEC, 10 * IPX_SEC);
	waiter_init(&c, loop, IPX_SEC / 5, 0, 2 * IPX_SEC);
	/* a flag already set: back after one turn, no time passes */
	waiter_init(&d, loop, 3 * IPX_SEC, IPX_SEC, IPX_SEC);
	assert_int_equal(ipx_loop_run_for(loop, 10 * IPX_SEC), IPX_OK);
	assert_int_equal(a.rc, IPX_OK);
	assert_int_equal(a.returned, IPX_SEC);
	assert_int_equal(b.rc, IPX_OK);
	assert_int_equal(b.returned, 5 * IPX_SEC);
	assert_int_equal(c.rc, IPX_ETIMEOUT);
	assert_int_equal(c.returned, 2 * IPX_SEC + IPX_SEC / 5);
	assert_int_equal(d.rc, IPX_OK);
	assert_int_equal(d.returned, 3 * IPX_SEC);
	/* one left waiting when the loop goes is abandoned with it */
	waiter_init(&a, loop, 0, 0, 10 * IPX_SEC);
	ipx_loop_run_for(loop, IPX_SEC);
	assert_int_equal(a.rc, 99);
	ipx_loop_free(loop);
}

/* A timer callback that asks the loop to stop, then waits in a nested
 * run (what a blocking helper called from a callback does). */
static int nested_rc = 1;

static void stop_then_nest(struct ipx_loop *loop, struct ipx_timer *t,
			   void *ctx)
{
	(void)t;
	(void)ctx;
	ipx_loop_stop(loop);
	nested_rc = ipx_loop_run_for(loop, 5 * IPX_SEC);
}

static void a_nested_run_keeps_a_pending_stop(void **state)
{
	struct ipx_clock clk;
	struct ipx_loop *loop;
	struct ipx_timer t;

	(void)state;
	ipx_clock_fake_init(&clk, 0);
	loop = ipx_loop_new(&clk);
	ipx_timer_init(&t, stop_then_nest, NULL);
	ipx_timer_start(loop, &t, IPX_SEC, 0);
	/* The nested run ends at once on the stop, and so does the outer
	 * one: neither waits out its time. */
	assert_int_equal(ipx_loop_run_for(loop, 60 * IPX_SEC), IPX_ECLOSED);
	assert_int_equal(nested_rc, IPX_ECLOSED);
	assert_int_equal(ipx_loop_now(loop), IPX_SEC);
	/* A new top-level run starts afresh. */
	assert_int_equal(ipx_loop_run_for(loop, IPX_SEC), IPX_OK);
	assert_int_equal(ipx_loop_now(loop), 2 * IPX_SEC);
	ipx_loop_free(loop);
}

static void on_pipe(struct ipx_loop *loop, int fd, unsigned ev, void *ctx)
{
	char c;

	(void)ev;
	assert_int_equal(read(fd, &c, 1), 1);
	(*(int *)ctx)++;
	ipx_loop_del_fd(loop, fd);	/* deleting itself is allowed */
}

static void descriptors_wake_the_real_loop(void **state)
{
	struct ipx_loop *loop = ipx_loop_new(NULL);
	int p[2], got = 0;

	(void)state;
	assert_int_equal(pipe(p), 0);
	assert_int_equal(ipx_loop_add_fd(loop, p[0], IPX_EV_READ, on_pipe, &got),
			 IPX_OK);
	assert_int_equal(ipx_loop_add_fd(loop, p[0], IPX_EV_READ, on_pipe, &got),
			 IPX_EINVAL);
	assert_int_equal(write(p[1], "x", 1), 1);
	ipx_loop_run_once(loop, IPX_SEC);
	assert_int_equal(got, 1);
	close(p[0]);
	close(p[1]);
	ipx_loop_free(loop);
}

/* Short timers on the real clock wait their own time, not a rounded-up
 * millisecond each: 50 timers of 100 us one after another, with a
 * descriptor watched (so the loop waits in epoll), take well under the
 * 50 ms that millisecond waits would. */
static void rearm(struct ipx_loop *loop, struct ipx_timer *t, void *ctx)
{
	int *left = ctx;

	if (--*left > 0)
		ipx_timer_start(loop, t, 100 * IPX_USEC, 0);
}

static bool none_left(void *ctx)
{
	return *(int *)ctx == 0;
}

static void short_timers_keep_their_time_on_the_real_clock(void **state)
{
	struct ipx_loop *loop = ipx_loop_new(NULL);
	struct ipx_timer t;
	int p[2], got = 0, left = 50;
	ipx_time start;

	(void)state;
	assert_int_equal(pipe(p), 0);
	assert_int_equal(ipx_loop_add_fd(loop, p[0], IPX_EV_READ, on_pipe, &got),
			 IPX_OK);
	ipx_timer_init(&t, rearm, &left);
	start = ipx_loop_now(loop);
	ipx_timer_start(loop, &t, 100 * IPX_USEC, 0);
	assert_int_equal(ipx_loop_run_until(loop, none_left, &left, 5 * IPX_SEC),
			 IPX_OK);
	/* at least the 5 ms asked for; far less than 50 x 1 ms */
	assert_true(ipx_loop_now(loop) - start >= 5 * IPX_MSEC);
	assert_true(ipx_loop_now(loop) - start < 35 * IPX_MSEC);
	close(p[0]);
	close(p[1]);
	ipx_loop_free(loop);
}

static void on_sig(struct ipx_loop *loop, int signo, void *ctx)
{
	*(int *)ctx = signo;
	ipx_loop_stop(loop);
}

static void signals_arrive_as_callbacks(void **state)
{
	struct ipx_loop *loop = ipx_loop_new(NULL);
	static const int sigs[] = { SIGUSR2 };
	int got = 0;

	(void)state;
	assert_int_equal(ipx_loop_watch_signals(loop, sigs, 1, on_sig, &got),
			 IPX_OK);
	raise(SIGUSR2);
	assert_int_equal(ipx_loop_run_until(loop, NULL, NULL, 2 * IPX_SEC),
			 IPX_ECLOSED);
	assert_int_equal(got, SIGUSR2);
	ipx_loop_free(loop);
}

/* A Ctrl-C read in the same turn as the reply a call waits for (the
 * signal's descriptor and the socket both ready in one epoll_wait): the
 * run returns for the stop, not for the reply, and the stop is not lost
 * for the next call (ncp get ran on to the end of the file). */
static void on_reply(struct ipx_loop *loop, int fd, unsigned ev, void *ctx)
{
	char c;

	(void)loop;
	(void)ev;
	assert_int_equal(read(fd, &c, 1), 1);
	*(int *)ctx = 1;
}

static bool int_set(void *ctx)
{
	return *(int *)ctx != 0;
}

static void a_stop_in_the_same_turn_as_a_reply_is_not_lost(void **state)
{
	struct ipx_loop *loop = ipx_loop_new(NULL);
	static const int sigs[] = { SIGUSR2 };
	int got = 0, replied = 0, p[2];

	(void)state;
	assert_int_equal(pipe(p), 0);
	assert_int_equal(ipx_loop_watch_signals(loop, sigs, 1, on_sig, &got),
			 IPX_OK);
	assert_int_equal(ipx_loop_add_fd(loop, p[0], IPX_EV_READ, on_reply,
					 &replied), IPX_OK);
	/* both ready before the loop looks */
	assert_int_equal(write(p[1], "r", 1), 1);
	raise(SIGUSR2);
	assert_int_equal(ipx_loop_run_until(loop, int_set, &replied,
					    2 * IPX_SEC), IPX_ECLOSED);
	assert_int_equal(got, SIGUSR2);
	assert_int_equal(replied, 1);
	/* Delivered: the next run starts afresh (the cleanup after it). */
	replied = 0;
	assert_int_equal(write(p[1], "r", 1), 1);
	assert_int_equal(ipx_loop_run_until(loop, int_set, &replied,
					    2 * IPX_SEC), IPX_OK);
	close(p[0]);
	close(p[1]);
	ipx_loop_free(loop);
}

/* A stop asked for in a turn no run was waiting in (ipx_loop_run_once
 * driven by hand) ends the next run at once; once read with
 * ipx_loop_stopped() it is the caller's and the next run starts afresh. */
static void stop_now(struct ipx_loop *loop, struct ipx_timer *t, void *ctx)
{
	(void)t;
	(void)ctx;
	ipx_loop_stop(loop);
}

static void a_stop_no_run_returned_for_ends_the_next(void **state)
{
	struct ipx_clock clk;
	struct ipx_loop *loop;
	struct ipx_timer t;

	(void)state;
	ipx_clock_fake_init(&clk, 0);
	loop = ipx_loop_new(&clk);
	ipx_timer_init(&t, stop_now, NULL);
	ipx_timer_start(loop, &t, IPX_SEC, 0);
	while (ipx_timer_active(&t))
		ipx_loop_run_once(loop, 0);
	assert_int_equal(ipx_loop_run_for(loop, 60 * IPX_SEC), IPX_ECLOSED);
	assert_int_equal(ipx_loop_now(loop), IPX_SEC);
	assert_int_equal(ipx_loop_run_for(loop, IPX_SEC), IPX_OK);
	assert_int_equal(ipx_loop_now(loop), 2 * IPX_SEC);
	/* read by the caller: delivered */
	ipx_timer_start(loop, &t, IPX_SEC, 0);
	while (ipx_timer_active(&t))
		ipx_loop_run_once(loop, 0);
	assert_true(ipx_loop_stopped(loop));
	assert_int_equal(ipx_loop_run_for(loop, IPX_SEC), IPX_OK);
	assert_int_equal(ipx_loop_now(loop), 4 * IPX_SEC);
	ipx_loop_free(loop);
}

static void time_comparison_is_wrap_safe(void **state)
{
	(void)state;
	assert_true(ipx_time_before(UINT64_MAX - 5, 3));
	assert_false(ipx_time_before(3, UINT64_MAX - 5));
	assert_true(ipx_time_before(1, 2));
	assert_int_equal(ipx_ticks(18), 18 * IPX_TICK);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_shot_fires_once_at_its_deadline),
		cmocka_unit_test(periodic_keeps_its_cadence),
		cmocka_unit_test(timers_fire_in_deadline_order),
		cmocka_unit_test(callbacks_may_stop_timers),
		cmocka_unit_test(restart_moves_the_deadline),
		cmocka_unit_test(hooks_run_before_sleep_and_can_be_removed),
		cmocka_unit_test(run_until_reports_done_and_timeout),
		cmocka_unit_test(a_nested_run_keeps_a_pending_stop),
		cmocka_unit_test(tasks_wait_side_by_side),
		cmocka_unit_test(descriptors_wake_the_real_loop),
		cmocka_unit_test(short_timers_keep_their_time_on_the_real_clock),
		cmocka_unit_test(signals_arrive_as_callbacks),
		cmocka_unit_test(a_stop_in_the_same_turn_as_a_reply_is_not_lost),
		cmocka_unit_test(a_stop_no_run_returned_for_ends_the_next),
		cmocka_unit_test(time_comparison_is_wrap_safe),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
