/*
 * test_nb_stream.c - byte streams over a NetBIOS session (nb_stream.c,
 * what `ipxlab netbios listen/call` run) on the in-memory link with the
 * fake clock: 300,000 bytes both ways at once under loss, duplication and
 * reordering, for several seeds, whichever input ends first (one side
 * with little or no input included): every byte arrives both ways and
 * both ends report a clean end. An interrupted peer, and a peer that
 * hangs up with our data not through, are failures, never a clean end.
 */
#include "cm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipxlab/err.h"
#include "ipxlab/link_mem.h"
#include "ipxlab/log.h"
#include "ipxlab/nb_stream.h"
#include "ipxlab/netbios.h"

struct end {
	struct netbios *nb;
	struct nb_stream *st;
	uint8_t lsn;
	/* input: 'in_len' bytes of pattern 'seed', read in varying pieces;
	 * 'stall' pieces answer "none yet" first (a pipe) */
	uint64_t seed;
	size_t in_len, in_pos;
	unsigned reads, stall_every;
	struct ipx_timer resume;
	struct ipx_loop *loop;
	/* output */
	uint8_t *out;
	size_t out_len, out_cap;
	bool write_fails;
	int result;		/* + 1000; 0 while running */
	struct nb_stream_status status;
};

struct pair {
	struct ipx_clock clk;
	struct ipx_loop *loop;
	struct ipx_mem_segment *seg;
	struct ipx_node *node[2];
	struct end e[2];	/* 0 called, 1 listened */
};

static uint8_t byte_at(uint64_t seed, size_t i)
{
	uint64_t x = (seed + 1) * 0x9E3779B97F4A7C15ull ^ (uint64_t)i * 40503u;

	x ^= x >> 29;
	return (uint8_t)(x ^ x >> 11);
}

static void on_resume(struct ipx_loop *loop, struct ipx_timer *t, void *ctx)
{
	(void)loop;
	(void)t;
	nb_stream_input(((struct end *)ctx)->st);
}

static long rd(void *ctx, uint8_t *buf, size_t n)
{
	struct end *e = ctx;
	size_t piece;

	e->reads++;
	if (e->stall_every && e->reads % e->stall_every == 0) {
		ipx_timer_start(e->loop, &e->resume, 3 * IPX_MSEC, 0);
		return -1;
	}
	if (e->in_pos == e->in_len)
		return 0;
	/* Pieces of 1 byte to a whole message, as pipes give them. */
	piece = 1 + (size_t)(byte_at(e->seed + 99, e->reads) * 257u +
			     e->reads * 7919u) % n;
	if (piece > e->in_len - e->in_pos)
		piece = e->in_len - e->in_pos;
	for (size_t i = 0; i < piece; i++)
		buf[i] = byte_at(e->seed, e->in_pos + i);
	e->in_pos += piece;
	return (long)piece;
}

static bool wr(void *ctx, const uint8_t *buf, size_t n)
{
	struct end *e = ctx;

	if (e->write_fails)
		return false;
	if (e->out_len + n > e->out_cap) {
		e->out_cap = (e->out_len + n) * 2;
		e->out = realloc(e->out, e->out_cap);
		assert_non_null(e->out);
	}
	memcpy(e->out + e->out_len, buf, n);
	e->out_len += n;
	return true;
}

static void done(void *ctx, int result)
{
	struct end *e = ctx;

	assert_int_equal(e->result, 0);
	e->result = result + 1000;
	nb_stream_get_status(e->st, &e->status);
}

static const struct nb_stream_io io = { .read = rd, .write = wr,
					.done = done };

static struct nb_ncb *ncb_new(uint8_t command, const char *name,
			      const char *callname)
{
	struct nb_ncb *n = calloc(1, sizeof(*n));

	n->command = command;
	if (name)
		assert_int_equal(nb_name_parse(name, true, n->name), IPX_OK);
	if (callname)
		assert_int_equal(nb_name_parse(callname, true, n->callname),
				 IPX_OK);
	return n;
}

static void posted(struct nb_ncb *n)
{
	n->ctx = n;	/* marks it done */
}

static bool is_posted(void *ctx)
{
	return ((struct nb_ncb *)ctx)->ctx != NULL;
}

static uint8_t wait_cmd(struct pair *p, unsigned i, struct nb_ncb *n)
{
	uint8_t rc;

	n->post = posted;
	rc = nb_submit(p->e[i].nb, n);
	if (rc != NB_RC_PENDING)
		return rc;
	assert_int_equal(ipx_loop_run_until(p->loop, is_posted, n,
					    600 * IPX_SEC),
			 IPX_OK);
	return n->retcode;
}

/* Two nodes with a session, caller 0 and listener 1, under 'f'. */
static struct pair *pair_new(uint64_t seed, const struct ipx_mem_faults *f)
{
	struct pair *p = calloc(1, sizeof(*p));
	struct nb_ncb *add0 = ncb_new(NB_ADD_NAME, "CALLER", NULL);
	struct nb_ncb *add1 = ncb_new(NB_ADD_NAME, "UXS3", NULL);
	struct nb_ncb *l = ncb_new(NB_LISTEN, "UXS3", "*");
	struct nb_ncb *c = ncb_new(NB_CALL, "CALLER", "UXS3");

	ipx_clock_fake_init(&p->clk, 0);
	p->loop = ipx_loop_new(&p->clk);
	p->seg = ipx_mem_segment_new(p->loop, 0x10, seed);
	for (unsigned i = 0; i < 2; i++) {
		p->node[i] = ipx_node_new(p->loop, NULL);
		assert_int_equal(ipx_node_add_link(p->node[i],
						   ipx_mem_link_new(p->seg,
								    NULL)),
				 IPX_OK);
		assert_int_equal(nb_open(p->node[i], NULL, &p->e[i].nb), IPX_OK);
		p->e[i].loop = p->loop;
		p->e[i].seed = seed * 2 + i;
		ipx_timer_init(&p->e[i].resume, on_resume, &p->e[i]);
	}
	assert_int_equal(wait_cmd(p, 0, add0), NB_RC_OK);
	assert_int_equal(wait_cmd(p, 1, add1), NB_RC_OK);
	l->post = posted;
	assert_int_equal(nb_submit(p->e[1].nb, l), NB_RC_PENDING);
	assert_int_equal(wait_cmd(p, 0, c), NB_RC_OK);
	assert_int_equal(ipx_loop_run_until(p->loop, is_posted, l,
					    60 * IPX_SEC),
			 IPX_OK);
	assert_int_equal(l->retcode, NB_RC_OK);
	p->e[0].lsn = c->lsn;
	p->e[1].lsn = l->lsn;
	if (f)
		ipx_mem_segment_set_faults(p->seg, f);
	free(add0);
	free(add1);
	free(l);
	free(c);
	return p;
}

static void pair_free(struct pair *p)
{
	for (unsigned i = 0; i < 2; i++) {
		ipx_timer_stop(p->loop, &p->e[i].resume);
		nb_close(p->e[i].nb);
		nb_stream_free(p->e[i].st);
		free(p->e[i].out);
		ipx_node_free(p->node[i]);
	}
	ipx_mem_segment_free(p->seg);
	ipx_loop_free(p->loop);
	free(p);
}

static void start(struct pair *p)
{
	for (unsigned i = 0; i < 2; i++) {
		uint8_t rc;

		p->e[i].st = nb_stream_start(p->e[i].nb, p->e[i].lsn, &io,
					     &p->e[i], &rc);
		assert_non_null(p->e[i].st);
		assert_int_equal(rc, NB_RC_OK);
	}
}

static bool both_done(void *ctx)
{
	struct pair *p = ctx;

	return p->e[0].result && p->e[1].result;
}

/* What 'to' wrote is exactly what 'from' read. */
static void arrived_whole(struct pair *p, unsigned from)
{
	const struct end *s = &p->e[from], *r = &p->e[1 - from];

	assert_int_equal(r->out_len, s->in_len);
	for (size_t i = 0; i < s->in_len; i++)
		if (r->out[i] != byte_at(s->seed, i))
			fail_msg("%u to %u: byte %zu differs", from, 1 - from, i);
	assert_int_equal(s->status.sent, s->in_len);
	assert_int_equal(r->status.received, s->in_len);
}

static void both_ways(uint64_t seed, size_t len0, size_t len1,
		      const struct ipx_mem_faults *f, unsigned stall0)
{
	struct pair *p = pair_new(seed, f);

	p->e[0].in_len = len0;
	p->e[1].in_len = len1;
	p->e[0].stall_every = stall0;
	start(p);
	assert_int_equal(ipx_loop_run_until(p->loop, both_done, p,
					    24 * 3600 * IPX_SEC),
			 IPX_OK);
	if (getenv("NB_TEST_VERBOSE"))
		print_message("seed %llu, %zu and %zu bytes: %.1f s simulated, "
			      "results %d %d\n",
			      (unsigned long long)seed, len0, len1,
			      (double)ipx_loop_now(p->loop) / IPX_SEC,
			      p->e[0].result - 1000, p->e[1].result - 1000);
	arrived_whole(p, 0);
	arrived_whole(p, 1);
	for (unsigned i = 0; i < 2; i++) {
		assert_int_equal(p->e[i].result, NB_STREAM_OK + 1000);
		assert_true(p->e[i].status.input_ended);
		assert_true(p->e[i].status.peer_ended);
	}
	assert_int_equal(nb_session_count(p->e[0].nb), 0);
	assert_int_equal(nb_session_count(p->e[1].nb), 0);
	pair_free(p);
}

/* The case: `netbios listen UXS3 < 300KB` and `netbios call UXS3
 * < 300KB` started together. Without faults, then under 5 % loss, 5 %
 * duplication and 5 % reordering for several seeds. */
static void both_ways_at_once_300k_each(void **state)
{
	struct ipx_mem_faults f = { .delay = IPX_MSEC, .loss_ppm = 50000,
				    .dup_ppm = 50000, .reorder_ppm = 50000,
				    .reorder_delay = 4 * IPX_MSEC };
	struct ipx_mem_faults clean = { .delay = IPX_MSEC };

	(void)state;
	both_ways(1, 300000, 300000, &clean, 0);
	for (uint64_t seed = 2; seed < 6; seed++)
		both_ways(seed, 300000, 300000, &f, seed == 3 ? 5 : 0);
}

/* One input ends long before the other: the early side goes on
 * receiving until the other's data is through. */
static void the_early_end_waits_for_the_other(void **state)
{
	struct ipx_mem_faults f = { .delay = IPX_MSEC, .loss_ppm = 50000,
				    .reorder_ppm = 50000,
				    .reorder_delay = 4 * IPX_MSEC };

	(void)state;
	both_ways(7, 1000, 300000, &f, 0);
	both_ways(8, 300000, 1000, &f, 0);
	both_ways(9, 0, 300000, &f, 0);	/* `call </dev/null` */
	both_ways(10, 300000, 0, &f, 7);
	both_ways(11, 0, 0, &f, 0);
}

static bool one_done(void *ctx)
{
	return ((struct end *)ctx)->result != 0;
}

/* The caller is interrupted mid-transfer (Ctrl-C): the listener learns
 * within a round trip and reports the peer's early end, not a clean
 * one, with what it got. */
static void an_interrupted_peer_is_not_a_clean_end(void **state)
{
	struct ipx_mem_faults f = { .delay = IPX_MSEC };
	struct pair *p = pair_new(12, &f);
	ipx_time t;

	(void)state;
	p->e[0].in_len = 300000;
	p->e[1].in_len = 300000;
	start(p);
	ipx_loop_run_for(p->loop, 100 * IPX_MSEC);
	assert_true(p->e[1].out_len > 0 && p->e[1].out_len < 300000);
	nb_stream_abort(p->e[0].st);
	t = ipx_loop_now(p->loop);
	assert_int_equal(ipx_loop_run_until(p->loop, one_done, &p->e[1],
					    60 * IPX_SEC),
			 IPX_OK);
	assert_true(ipx_loop_now(p->loop) - t < 100 * IPX_MSEC);
	assert_int_equal(p->e[0].result, 0);	/* no done() after abort */
	assert_true(p->e[1].result == NB_STREAM_CUT + 1000 ||
		    p->e[1].result == NB_STREAM_PEER_EARLY + 1000);
	assert_true(p->e[1].status.closed_by_peer);
	assert_false(p->e[1].status.peer_ended);
	assert_true(p->e[1].status.received < 300000);
	pair_free(p);
}

/* Our output fails: we hang up and say so; the peer's data was not all
 * through, so its end is not clean either. */
static void failing_output_hangs_up(void **state)
{
	struct ipx_mem_faults f = { .delay = IPX_MSEC };
	struct pair *p = pair_new(13, &f);

	(void)state;
	p->e[0].in_len = 300000;
	p->e[1].in_len = 0;
	p->e[1].write_fails = true;
	start(p);
	assert_int_equal(ipx_loop_run_until(p->loop, both_done, p,
					    600 * IPX_SEC),
			 IPX_OK);
	if (getenv("NB_TEST_VERBOSE"))
		print_message("output fails: %d %d rc %02X\n", p->e[0].result - 1000, p->e[1].result - 1000, p->e[0].status.retcode);
	assert_int_equal(p->e[1].result, NB_STREAM_OUTPUT + 1000);
	assert_int_equal(p->e[0].result, NB_STREAM_CUT + 1000);
	assert_true(p->e[0].status.closed_by_peer);
	assert_true(p->e[0].status.sent < 300000);
	assert_non_null(strstr(nb_stream_strerror(NB_STREAM_CUT), "before"));
	pair_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(both_ways_at_once_300k_each),
		cmocka_unit_test(the_early_end_waits_for_the_other),
		cmocka_unit_test(an_interrupted_peer_is_not_a_clean_end),
		cmocka_unit_test(failing_output_hangs_up),
	};

	ipx_log_set_level(IPX_LOG_ERROR + 0);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
