/*
 * test_bench_work.c - the B1 workloads (bench_work.h) between two nodes
 * on an in-memory segment with the simulated clock (the UDP baseline on
 * loopback sockets): every kind in count mode and in time mode, with and
 * without loss, and FAILED when the receiver is not there or goes away.
 */
#include "cm.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ipxlab/bench_work.h"
#include "ipxlab/err.h"
#include "ipxlab/link_mem.h"
#include "ipxlab/log.h"
#include "ipxlab/netbios.h"

#define SIZE 255
#define DELAY 100ull	/* us each way on the segment */

/* One workload and what its events said. */
struct side {
	struct ipx_bw *w;
	int ready, done, failed;	/* how often each event came */
	int order_bad;			/* DONE/FAILED before READY */
	bool free_on_end;		/* the callback frees the workload */
	struct ipx_bw_result res;	/* taken at DONE or FAILED */
	char err[200];
};

struct world {
	struct ipx_clock clk;
	struct ipx_loop *loop;
	struct ipx_mem_segment *seg;
	struct ipx_config cfg;
	struct ipx_node *a, *b;	/* sender, receiver */
	struct side s, r;
	double wall;		/* real seconds the last run_pair took */
	uint32_t window;	/* params.window of the next run_pair */
};

static void on_event(struct ipx_bw *w, enum ipx_bw_event ev, void *ctx)
{
	struct side *sd = ctx;

	switch (ev) {
	case IPX_BW_READY:
		sd->ready++;
		return;
	case IPX_BW_DONE:
		sd->done++;
		break;
	case IPX_BW_FAILED:
		sd->failed++;
		snprintf(sd->err, sizeof(sd->err), "%s", ipx_bw_error(w));
		break;
	}
	if (!sd->ready && ev == IPX_BW_DONE)
		sd->order_bad++;
	ipx_bw_result(w, &sd->res);
	if (sd->free_on_end) {
		ipx_bw_free(w);
		sd->w = NULL;
	}
}

static struct world *world_new(uint32_t loss_ppm, uint64_t seed)
{
	struct world *w = calloc(1, sizeof(*w));
	struct ipx_mem_faults f = { .loss_ppm = loss_ppm, .delay = DELAY };

	assert_non_null(w);
	ipx_clock_fake_init(&w->clk, 1000);
	w->loop = ipx_loop_new(&w->clk);
	w->seg = ipx_mem_segment_new(w->loop, 0x10, seed);
	ipx_mem_segment_set_faults(w->seg, &f);
	ipx_config_defaults(&w->cfg);
	w->cfg.netbios_commands = 40;
	w->cfg.netbios_receive_buffers = 20;
	w->a = ipx_node_new(w->loop, &w->cfg);
	w->b = ipx_node_new(w->loop, &w->cfg);
	assert_int_equal(ipx_node_add_link(w->a, ipx_mem_link_new(w->seg, NULL)),
			 IPX_OK);
	assert_int_equal(ipx_node_add_link(w->b, ipx_mem_link_new(w->seg, NULL)),
			 IPX_OK);
	return w;
}

static void world_free(struct world *w)
{
	ipx_bw_free(w->s.w);
	ipx_bw_free(w->r.w);
	ipx_node_free(w->a);
	ipx_node_free(w->b);
	ipx_mem_segment_free(w->seg);
	ipx_loop_free(w->loop);
	free(w);
}

static bool side_settled(void *ctx)
{
	const struct side *sd = ctx;

	return sd->failed || sd->done;
}

static bool side_ready(void *ctx)
{
	const struct side *sd = ctx;

	return sd->ready || side_settled(ctx);
}

static void params_of(struct ipx_bw_params *p, enum ipx_bw_kind kind,
		      uint32_t count, double seconds)
{
	memset(p, 0, sizeof(*p));
	p->kind = kind;
	p->count = count;
	p->seconds = seconds;
	p->size = SIZE;
	p->drain = 0.2;
	p->setup_timeout = 2;
	p->udp_bind.s_addr = htonl(INADDR_LOOPBACK);
}

static void start_receiver(struct world *w, const struct ipx_bw_params *p)
{
	char err[200] = "";
	int rc = ipx_bw_new(w->b, w->loop, IPX_BW_RECEIVER, p, on_event,
			    &w->r, &w->r.w, err, sizeof(err));

	if (rc != IPX_OK)
		fail_msg("receiver: %s", err);
	assert_int_equal(ipx_loop_run_until(w->loop, side_ready, &w->r,
					    60 * IPX_SEC),
			 IPX_OK);
	if (w->r.ready != 1 || w->r.failed)
		fail_msg("%s receiver: ready %d, failed: %s",
			 ipx_bw_kind_name(p->kind), w->r.ready, w->r.err);
}

static void start_sender(struct world *w, struct ipx_bw_params *p)
{
	char err[200] = "";
	int rc;

	ipx_bw_info(w->r.w, &p->peer);
	rc = ipx_bw_new(w->a, w->loop, IPX_BW_SENDER, p, on_event, &w->s,
			&w->s.w, err, sizeof(err));
	if (rc != IPX_OK)
		fail_msg("sender: %s", err);
	assert_int_equal(ipx_loop_run_until(w->loop, side_ready, &w->s,
					    60 * IPX_SEC),
			 IPX_OK);
}

static double wall_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The CPU figures of one side: measured over this run only (more than
 * nothing, no more than the run's real time: this process has one
 * thread), and the CPU it ran on is a real one. */
static void check_cpu(const struct world *w, const struct ipx_bw_result *x)
{
	double used = x->cpu_user + x->cpu_sys;

	assert_true(x->cpu >= 0);
	assert_true(x->cpu < sysconf(_SC_NPROCESSORS_CONF));
	assert_true(x->cpu_user >= 0 && x->cpu_sys >= 0);
	assert_true(used > 0);
	if (used > w->wall + 0.002)
		fail_msg("%.6f s of CPU in a run of %.6f s", used, w->wall);
}

/* Run a pair to the end: the sender until DONE, then the receiver's
 * finish and drain. Returns with both results taken. */
static void run_pair(struct world *w, enum ipx_bw_kind kind, uint32_t count,
		     double seconds)
{
	struct ipx_bw_params p;
	double t0 = wall_seconds();

	params_of(&p, kind, count, seconds);
	p.window = w->window;
	start_receiver(w, &p);
	start_sender(w, &p);
	if (w->s.failed)
		fail_msg("%s sender: %s", ipx_bw_kind_name(kind), w->s.err);
	assert_int_equal(w->s.ready, 1);
	assert_int_equal(ipx_bw_go(w->s.w), IPX_OK);
	assert_int_equal(ipx_bw_go(w->s.w), IPX_EINVAL);	/* once */
	assert_int_equal(ipx_loop_run_until(w->loop, side_settled, &w->s,
					    120 * IPX_SEC),
			 IPX_OK);
	if (w->s.failed)
		fail_msg("%s sender: %s", ipx_bw_kind_name(kind), w->s.err);
	if (w->r.w)	/* NULL: done already, and freed by its callback */
		ipx_bw_finish(w->r.w);
	assert_int_equal(ipx_loop_run_until(w->loop, side_settled, &w->r,
					    60 * IPX_SEC),
			 IPX_OK);
	if (w->r.failed)
		fail_msg("%s receiver: %s", ipx_bw_kind_name(kind), w->r.err);
	assert_int_equal(w->s.done, 1);
	assert_int_equal(w->r.done, 1);
	assert_int_equal(w->s.order_bad + w->r.order_bad, 0);
	assert_int_equal(w->s.res.role, IPX_BW_SENDER);
	assert_int_equal(w->r.res.role, IPX_BW_RECEIVER);
	assert_int_equal(w->s.res.kind, kind);
	w->wall = wall_seconds() - t0;
}

static bool has_histogram(enum ipx_bw_kind k)
{
	return k == IPX_BW_RTT || k == IPX_BW_SPX || k == IPX_BW_SPX2 ||
	       k == IPX_BW_NB_SESSION;
}

static void check_clean_run(struct world *w, enum ipx_bw_kind k,
			    uint64_t count)
{
	const struct ipx_bw_result *s = &w->s.res, *r = &w->r.res;

	print_message("%-10s sent %llu in %.4f s: %.0f/s, %.0f KB/s; "
		      "delivered %llu in %.4f s; completion p50 %.0f us, "
		      "p99 %.0f us\n",
		      ipx_bw_kind_name(k), (unsigned long long)s->sent,
		      s->seconds, s->pps, s->kbps,
		      (unsigned long long)r->delivered, r->seconds,
		      (double)ipx_hist_percentile(&s->lat, 50) / 1000,
		      (double)ipx_hist_percentile(&s->lat, 99) / 1000);
	if (count)
		assert_int_equal(s->sent, count);
	assert_true(s->sent > 0);
	assert_int_equal(s->send_errors, 0);
	assert_int_equal(s->bytes, s->sent * SIZE);
	/* no faults: everything sent arrives, exactly once */
	assert_int_equal(r->delivered, s->sent);
	assert_int_equal(r->bytes, s->sent * SIZE);
	assert_true(s->seconds > 0);
	assert_true(s->pps > 0 && s->kbps > 0);
	assert_true(s->pps * s->seconds > (double)s->sent - 0.5);
	check_cpu(w, s);
	check_cpu(w, r);
	if (has_histogram(k)) {
		assert_int_equal(s->lat.count, s->sent);
		assert_true(s->lat.min > 0);
		/* at least one round trip of the segment's delay each way */
		if (k != IPX_BW_SPX2)
			assert_true(s->lat.min >= 2 * DELAY * 1000);
	}
	if (k == IPX_BW_RTT || k == IPX_BW_SPX || k == IPX_BW_NB_SESSION) {
		/* one at a time: the rate is the round trip's, and each send
		 * takes one round trip, never a wait behind another */
		assert_true(s->pps < 1e6 / (2.0 * DELAY) + 1);
		assert_true(s->lat.max < 3 * DELAY * 1000);
	}
	if (k == IPX_BW_SPX || k == IPX_BW_SPX2)
		assert_true(s->srtt_us > 0);
}

static void every_kind_in_count_mode(void **state)
{
	(void)state;
	for (int k = 0; k <= IPX_BW_RTT; k++) {
		struct world *w = world_new(0, 7);

		run_pair(w, (enum ipx_bw_kind)k, 300, 0);
		check_clean_run(w, (enum ipx_bw_kind)k, 300);
		/* the NetBIOS datagram receiver takes no more per turn than
		 * it has RECEIVE DATAGRAMs posted, and gives the batch back */
		if (k == IPX_BW_NB_DGRAM)
			assert_int_equal(ipx_loop_batch(w->loop), 20);
		ipx_bw_free(w->r.w);
		w->r.w = NULL;
		assert_int_equal(ipx_loop_batch(w->loop), IPX_LOOP_BATCH);
		world_free(w);
	}
}

static void every_kind_in_time_mode(void **state)
{
	(void)state;
	for (int k = 0; k <= IPX_BW_RTT; k++) {
		struct world *w = world_new(0, 8);
		/* datagram kinds send a burst per simulated microsecond */
		bool dgram = !has_histogram((enum ipx_bw_kind)k);
		double secs = dgram ? 0.0005 : 0.05;

		run_pair(w, (enum ipx_bw_kind)k, 0, secs);
		check_clean_run(w, (enum ipx_bw_kind)k, 0);
		/* the clock stopped at the last completion after the time */
		assert_true(w->s.res.seconds >= secs * 0.99);
		assert_true(w->s.res.seconds < secs + 0.01);
		world_free(w);
	}
}

static void loss_costs_datagrams_not_sessions(void **state)
{
	static const enum ipx_bw_kind kinds[] = {
		IPX_BW_IPX, IPX_BW_NB_DGRAM, IPX_BW_SPX, IPX_BW_SPX2,
		IPX_BW_NB_SESSION, IPX_BW_RTT,
	};

	(void)state;
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		enum ipx_bw_kind k = kinds[i];
		struct world *w = world_new(50000, 11 + i);	/* 5 % */

		run_pair(w, k, 300, 0);
		assert_int_equal(w->s.res.sent, 300);
		if (k == IPX_BW_IPX || k == IPX_BW_NB_DGRAM) {
			assert_true(w->r.res.delivered < 300);
			assert_true(w->r.res.delivered > 200);
		} else {
			assert_int_equal(w->r.res.delivered, 300);
			assert_true(w->s.res.retransmits > 0);
			assert_int_equal(w->s.res.lat.count, 300);
		}
		world_free(w);
	}
}

/* A credit window: never more than 'window' datagrams ahead of the
 * receiver (so at most window per round trip of the segment), nothing
 * lost; with loss, a window whose credits stop coming is a stall, and the
 * run still ends. */
static void a_window_bounds_datagrams_in_flight(void **state)
{
	static const enum ipx_bw_kind kinds[] = {
		IPX_BW_IPX, IPX_BW_NB_DGRAM, IPX_BW_UDP,
	};
	struct world *w;

	(void)state;
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		w = world_new(0, 21 + i);
		w->window = 8;
		run_pair(w, kinds[i], 400, 0);
		assert_int_equal(w->s.res.sent, 400);
		assert_int_equal(w->r.res.delivered, 400);
		assert_int_equal(w->s.res.stalls, 0);
		/* the segment's 100 us one way: 8 per 100 us at most */
		if (kinds[i] != IPX_BW_UDP)
			assert_true(w->s.res.pps < 8 * 1e6 / DELAY * 1.05);
		world_free(w);
	}
	/* without a window the same sender is far faster */
	w = world_new(0, 24);
	run_pair(w, IPX_BW_IPX, 400, 0);
	assert_true(w->s.res.pps > 8 * 1e6 / DELAY * 4);
	world_free(w);

	w = world_new(100000, 25);	/* 10 % */
	w->window = 8;
	run_pair(w, IPX_BW_IPX, 400, 0);
	assert_int_equal(w->s.res.sent, 400);
	assert_true(w->r.res.delivered < 400);
	assert_true(w->s.res.stalls > 0);
	world_free(w);
}

/* A window on a kind that has none is refused. */
static void a_window_on_a_session_is_refused(void **state)
{
	struct world *w = world_new(0, 26);
	struct ipx_bw_params p;
	struct ipx_bw *bw;
	char err[200];

	(void)state;
	params_of(&p, IPX_BW_SPX, 10, 0);
	p.window = 4;
	assert_int_equal(ipx_bw_new(w->b, w->loop, IPX_BW_RECEIVER, &p,
				    on_event, &w->r, &bw, err, sizeof(err)),
			 IPX_EINVAL);
	assert_non_null(strstr(err, "window applies to the datagram kinds"));
	world_free(w);
}

static void spx_to_nobody_fails(void **state)
{
	struct world *w = world_new(0, 3);
	struct ipx_bw_params p;
	char err[200];

	(void)state;
	params_of(&p, IPX_BW_SPX, 10, 0);
	ipx_node_address(w->b, &p.peer.addr);
	p.peer.addr.socket = 0x4999;	/* nobody listens */
	assert_int_equal(ipx_bw_new(w->a, w->loop, IPX_BW_SENDER, &p, on_event,
				    &w->s, &w->s.w, err, sizeof(err)),
			 IPX_OK);
	assert_int_equal(ipx_loop_run_until(w->loop, side_settled, &w->s,
					    30 * IPX_SEC),
			 IPX_OK);
	assert_int_equal(w->s.failed, 1);
	assert_int_equal(w->s.ready, 0);
	assert_non_null(strstr(w->s.err, "SPX connection"));
	assert_int_equal(ipx_bw_go(w->s.w), IPX_EINVAL);
	world_free(w);
}

static void nb_call_to_nobody_fails(void **state)
{
	struct world *w = world_new(0, 4);
	struct ipx_bw_params p;
	char err[200];

	(void)state;
	params_of(&p, IPX_BW_NB_SESSION, 10, 0);
	memcpy(p.peer.nb_name, "NOBODY         \0", 16);
	assert_int_equal(ipx_bw_new(w->a, w->loop, IPX_BW_SENDER, &p, on_event,
				    &w->s, &w->s.w, err, sizeof(err)),
			 IPX_OK);
	assert_int_equal(ipx_loop_run_until(w->loop, side_settled, &w->s,
					    120 * IPX_SEC),
			 IPX_OK);
	assert_int_equal(w->s.failed, 1);
	assert_non_null(strstr(w->s.err, "CALL"));
	assert_non_null(strstr(w->s.err, "NOBODY"));
	world_free(w);
}

static void echo_without_receiver_fails(void **state)
{
	struct world *w = world_new(0, 5);
	struct ipx_bw_params p;
	char err[200];

	(void)state;
	params_of(&p, IPX_BW_RTT, 10, 0);
	ipx_node_address(w->b, &p.peer.addr);
	p.peer.addr.socket = 0x4999;
	assert_int_equal(ipx_bw_new(w->a, w->loop, IPX_BW_SENDER, &p, on_event,
				    &w->s, &w->s.w, err, sizeof(err)),
			 IPX_OK);
	assert_int_equal(ipx_loop_run_until(w->loop, side_ready, &w->s,
					    IPX_SEC),
			 IPX_OK);
	assert_int_equal(ipx_bw_go(w->s.w), IPX_OK);
	assert_int_equal(ipx_loop_run_until(w->loop, side_settled, &w->s,
					    60 * IPX_SEC),
			 IPX_OK);
	assert_int_equal(w->s.failed, 1);
	assert_non_null(strstr(w->s.err, "no answer"));
	assert_int_equal(w->s.res.sent, 0);
	world_free(w);
}

static bool posted(void *ctx)
{
	return ((const struct nb_ncb *)ctx)->retcode != NB_RC_PENDING;
}

/* Another node holds the receiver's name already: the claim fails. */
static void nb_name_conflict_fails(void **state)
{
	struct world *w = world_new(0, 12);
	struct netbios *nb;
	struct nb_ncb add = { .command = NB_ADD_NAME };
	struct ipx_bw_params p;
	struct ipx_addr b;
	char text[16], hex[13], err[200];

	(void)state;
	ipx_node_address(w->b, &b);
	snprintf(text, sizeof(text), "BWR%s", ipx_node_format(b.node, hex));
	assert_int_equal(nb_open(w->a, NULL, &nb), IPX_OK);
	assert_int_equal(nb_name_parse(text, false, add.name), IPX_OK);
	assert_int_equal(nb_submit(nb, &add), NB_RC_PENDING);
	assert_int_equal(ipx_loop_run_until(w->loop, posted, &add,
					    60 * IPX_SEC),
			 IPX_OK);
	assert_int_equal(add.retcode, NB_RC_OK);

	params_of(&p, IPX_BW_NB_SESSION, 10, 0);
	assert_int_equal(ipx_bw_new(w->b, w->loop, IPX_BW_RECEIVER, &p,
				    on_event, &w->r, &w->r.w, err,
				    sizeof(err)),
			 IPX_OK);
	assert_int_equal(ipx_loop_run_until(w->loop, side_settled, &w->r,
					    60 * IPX_SEC),
			 IPX_OK);
	assert_int_equal(w->r.failed, 1);
	assert_int_equal(w->r.ready, 0);
	assert_non_null(strstr(w->r.err, "cannot add the NetBIOS name"));
	assert_non_null(strstr(w->r.err, text));

	/* and a second NetBIOS user on one node is refused at once */
	ipx_bw_free(w->r.w);
	w->r.w = NULL;
	assert_int_equal(ipx_bw_new(w->a, w->loop, IPX_BW_RECEIVER, &p,
				    on_event, &w->r, &w->r.w, err,
				    sizeof(err)),
			 IPX_EINUSE);
	assert_null(w->r.w);
	assert_non_null(strstr(err, "socket 0x455"));
	nb_close(nb);
	world_free(w);
}

/* The receiver goes away mid-run (its agent died): the session sender
 * reports FAILED instead of waiting for ever. */
static void receiver_gone_mid_run_fails_session(void **state)
{
	static const enum ipx_bw_kind kinds[] = { IPX_BW_SPX, IPX_BW_SPX2,
						  IPX_BW_NB_SESSION };

	(void)state;
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		struct world *w = world_new(0, 6);
		struct ipx_bw_params p;
		struct ipx_bw_result mid;

		params_of(&p, kinds[i], 100000, 0);
		start_receiver(w, &p);
		start_sender(w, &p);
		assert_int_equal(ipx_bw_go(w->s.w), IPX_OK);
		assert_int_equal(ipx_loop_run_for(w->loop, 20 * IPX_MSEC),
				 IPX_OK);
		ipx_bw_result(w->s.w, &mid);
		assert_true(mid.sent > 0 && !w->s.done);
		ipx_bw_free(w->r.w);
		w->r.w = NULL;
		assert_int_equal(ipx_loop_run_until(w->loop, side_settled,
						    &w->s, 600 * IPX_SEC),
				 IPX_OK);
		if (!w->s.failed)
			fail_msg("%s: no failure", ipx_bw_kind_name(kinds[i]));
		assert_true(w->s.res.sent > 0);
		assert_true(w->s.res.sent < 100000);
		world_free(w);
	}
}

static void the_event_callback_may_free(void **state)
{
	struct world *w = world_new(0, 9);

	(void)state;
	w->s.free_on_end = true;
	w->r.free_on_end = true;
	run_pair(w, IPX_BW_SPX, 20, 0);
	assert_null(w->s.w);
	assert_null(w->r.w);
	assert_int_equal(w->s.res.sent, 20);
	assert_int_equal(w->r.res.delivered, 20);
	world_free(w);
}

static void bad_params_are_refused_with_a_message(void **state)
{
	struct world *w = world_new(0, 10);
	struct ipx_bw_params p;
	struct ipx_bw *bw = (struct ipx_bw *)1;
	char err[200];

	(void)state;
	params_of(&p, IPX_BW_IPX, 0, 0);
	assert_int_equal(ipx_bw_new(w->a, w->loop, IPX_BW_SENDER, &p, on_event,
				    &w->s, &bw, err, sizeof(err)),
			 IPX_EINVAL);
	assert_null(bw);
	assert_non_null(strstr(err, "count or a time"));

	params_of(&p, IPX_BW_NB_DGRAM, 10, 0);
	p.size = 513;
	assert_int_equal(ipx_bw_new(w->a, w->loop, IPX_BW_SENDER, &p, on_event,
				    &w->s, &bw, err, sizeof(err)),
			 IPX_ERANGE);
	assert_non_null(strstr(err, "size 513"));

	params_of(&p, IPX_BW_IPX, 10, 0);
	p.size = 2000;	/* more than the segment's MTU */
	ipx_node_address(w->b, &p.peer.addr);
	assert_int_equal(ipx_bw_new(w->a, w->loop, IPX_BW_SENDER, &p, on_event,
				    &w->s, &bw, err, sizeof(err)),
			 IPX_ETOOBIG);
	assert_non_null(strstr(err, "ipx sender"));

	params_of(&p, IPX_BW_UDP, 10, 0);
	assert_int_equal(ipx_bw_new(w->a, w->loop, IPX_BW_SENDER, &p, on_event,
				    &w->s, &bw, err, sizeof(err)),
			 IPX_EINVAL);
	assert_non_null(strstr(err, "no UDP address"));

	params_of(&p, IPX_BW_KINDS, 10, 0);
	assert_int_equal(ipx_bw_new(w->a, w->loop, IPX_BW_SENDER, &p, on_event,
				    &w->s, &bw, err, sizeof(err)),
			 IPX_EINVAL);
	world_free(w);
}

static void kind_names_round_trip(void **state)
{
	enum ipx_bw_kind k;

	(void)state;
	for (int i = 0; i < IPX_BW_KINDS; i++) {
		assert_int_equal(ipx_bw_kind_parse(
					 ipx_bw_kind_name((enum ipx_bw_kind)i),
					 &k),
				 IPX_OK);
		assert_int_equal(k, i);
	}
	assert_int_equal(ipx_bw_kind_parse("tcp", &k), IPX_EINVAL);
	assert_string_equal(ipx_bw_kind_name(IPX_BW_NB_SESSION), "nb-session");
	assert_true(ipx_bw_kind_stop_and_wait(IPX_BW_SPX));
	assert_true(ipx_bw_kind_stop_and_wait(IPX_BW_NB_SESSION));
	assert_false(ipx_bw_kind_stop_and_wait(IPX_BW_SPX2));
	assert_false(ipx_bw_kind_stop_and_wait(IPX_BW_IPX));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_kind_in_count_mode),
		cmocka_unit_test(every_kind_in_time_mode),
		cmocka_unit_test(loss_costs_datagrams_not_sessions),
		cmocka_unit_test(a_window_bounds_datagrams_in_flight),
		cmocka_unit_test(a_window_on_a_session_is_refused),
		cmocka_unit_test(spx_to_nobody_fails),
		cmocka_unit_test(nb_call_to_nobody_fails),
		cmocka_unit_test(echo_without_receiver_fails),
		cmocka_unit_test(nb_name_conflict_fails),
		cmocka_unit_test(receiver_gone_mid_run_fails_session),
		cmocka_unit_test(the_event_callback_may_free),
		cmocka_unit_test(bad_params_are_refused_with_a_message),
		cmocka_unit_test(kind_names_round_trip),
	};

	ipx_log_set_level(IPX_LOG_ERROR);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
