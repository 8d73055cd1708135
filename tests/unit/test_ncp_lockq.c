/*
 * test_ncp_lockq.c - record-lock waiters are granted in the order they
 * began to wait, whatever their connection numbers, and no later or new
 * request overtakes one that waits (a shareable lock that would starve a
 * waiting exclusive one waits behind it); then the five-client locked
 * increment: 300 rounds each, every wait granted, none timed out (by
 * connection number, the two lowest took turns for over 2 s and a third
 * ran into its time-out).
 */
#include "cm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ncprig.h"

static int setup(void **state)
{
	*state = ncprig_new(NULL);
	return 0;
}

static int teardown(void **state)
{
	ncprig_free(*state);
	return 0;
}

/* 0x1A: flag, handle, start, length, timeout (ticks). */
static size_t lock_req(uint8_t *req, uint8_t flag, const uint8_t *h,
		       uint32_t start, uint32_t len, uint16_t timeout)
{
	req[0] = flag;
	memcpy(req + 1, h, 6);
	ipx_put32(req + 7, start);
	ipx_put32(req + 11, len);
	ipx_put16(req + 15, timeout);
	return 17;
}

/* 0x1E clear: reserved, handle, start, length. */
static size_t clear_req(uint8_t *req, const uint8_t *h, uint32_t start,
			uint32_t len)
{
	req[0] = 0;
	memcpy(req + 1, h, 6);
	ipx_put32(req + 7, start);
	ipx_put32(req + 11, len);
	return 15;
}

static uint8_t cc_of(struct rawconn *b)
{
	size_t l;
	const uint8_t *rep = rawconn_last(b, &l);

	assert_int_equal(ipx_get16(rep), NCP_TYPE_REPLY);
	return rep[6];
}

static void waiters_in_order(void **state)
{
	struct ncprig *r = *state;
	/* Numbers 1, 2, 3: the later waiter has the lower number. */
	struct rawconn *a = rawconn_open(r, true), *c = rawconn_open(r, true);
	struct rawconn *b = rawconn_open(r, true);
	uint8_t ha[6], hb[6], hc[6], req[32];
	unsigned nb, nc;
	size_t l;

	assert_true(c->conn < b->conn);
	assert_int_equal(rawconn_open_file(r, a, "Q.DAT", ha)[6],
			 NCP_CC_FAILURE);
	rawconn_call(r, a, 0x43, "\x01\x00\x05Q.DAT", 8, &l);
	assert_int_equal(rawconn_open_file(r, a, "Q.DAT", ha)[6], 0);
	assert_int_equal(rawconn_open_file(r, b, "Q.DAT", hb)[6], 0);
	assert_int_equal(rawconn_open_file(r, c, "Q.DAT", hc)[6], 0);
	assert_int_equal(rawconn_call(r, a, 0x1A, req,
				      lock_req(req, 1, ha, 0, 4, 0), &l)[6], 0);
	/* b asks first, then c (36 ticks, about 2 s): both wait. */
	rawconn_send(r, b, 0x1A, req, lock_req(req, 1, hb, 0, 4, 36));
	ncprig_run(r, 50 * IPX_MSEC);
	rawconn_send(r, c, 0x1A, req, lock_req(req, 1, hc, 0, 4, 36));
	ncprig_run(r, 50 * IPX_MSEC);
	nb = b->count;
	nc = c->count;
	/* a clears: b, which asked first, gets it; c waits on. */
	assert_int_equal(rawconn_call(r, a, 0x1E, req,
				      clear_req(req, ha, 0, 4), &l)[6], 0);
	ncprig_run(r, 50 * IPX_MSEC);
	assert_int_equal(b->count, nb + 1);
	assert_int_equal(cc_of(b), 0);
	assert_int_equal(c->count, nc);
	/* a asks again now: it queues behind c. */
	rawconn_send(r, a, 0x1A, req, lock_req(req, 1, ha, 0, 4, 36));
	ncprig_run(r, 50 * IPX_MSEC);
	assert_int_equal(rawconn_call(r, b, 0x1E, req,
				      clear_req(req, hb, 0, 4), &l)[6], 0);
	ncprig_run(r, 50 * IPX_MSEC);
	assert_int_equal(c->count, nc + 1);
	assert_int_equal(cc_of(c), 0);
	rawconn_close(a);
	rawconn_close(b);
	rawconn_close(c);
}

/* A holds a shareable lock; B waits for an exclusive one over it; C's
 * shareable lock inside B's range would overtake B: it fails at once
 * with timeout 0, and with a timeout it waits behind B. */
static void no_overtaking(void **state)
{
	struct ncprig *r = *state;
	struct rawconn *a = rawconn_open(r, true), *b = rawconn_open(r, true);
	struct rawconn *c = rawconn_open(r, true);
	uint8_t ha[6], hb[6], hc[6], req[32];
	unsigned nb, nc;
	size_t l;

	rawconn_call(r, a, 0x43, "\x01\x00\x05Q.DAT", 8, &l);
	assert_int_equal(rawconn_open_file(r, a, "Q.DAT", ha)[6], 0);
	assert_int_equal(rawconn_open_file(r, b, "Q.DAT", hb)[6], 0);
	assert_int_equal(rawconn_open_file(r, c, "Q.DAT", hc)[6], 0);
	assert_int_equal(rawconn_call(r, a, 0x1A, req,
				      lock_req(req, 3, ha, 0, 10, 0), &l)[6],
			 0);
	rawconn_send(r, b, 0x1A, req, lock_req(req, 1, hb, 0, 100, 36));
	ncprig_run(r, 50 * IPX_MSEC);
	nb = b->count;
	assert_int_equal(rawconn_call(r, c, 0x1A, req,
				      lock_req(req, 3, hc, 50, 10, 0), &l)[6],
			 NCP_CC_FAILURE);
	/* Outside B's range it is granted. */
	assert_int_equal(rawconn_call(r, c, 0x1A, req,
				      lock_req(req, 3, hc, 200, 10, 0), &l)[6],
			 0);
	rawconn_send(r, c, 0x1A, req, lock_req(req, 3, hc, 50, 10, 36));
	ncprig_run(r, 50 * IPX_MSEC);
	nc = c->count;
	assert_int_equal(rawconn_call(r, a, 0x1E, req,
				      clear_req(req, ha, 0, 10), &l)[6], 0);
	ncprig_run(r, 50 * IPX_MSEC);
	assert_int_equal(b->count, nb + 1);
	assert_int_equal(cc_of(b), 0);
	assert_int_equal(c->count, nc);
	assert_int_equal(rawconn_call(r, b, 0x1E, req,
				      clear_req(req, hb, 0, 100), &l)[6], 0);
	ncprig_run(r, 50 * IPX_MSEC);
	assert_int_equal(c->count, nc + 1);
	assert_int_equal(cc_of(c), 0);
	rawconn_close(a);
	rawconn_close(b);
	rawconn_close(c);
}

/* Five clients, each 300 times: lock the counter (2 s), read, write +1,
 * clear. Each takes its turn as the one before it clears, so the counter
 * ends at 500 and no wait ran into its time-out. */
#define CLIENTS 5
#define ROUNDS 300

struct incr {
	struct rawconn *b;
	uint8_t h[6];
	int state;	/* 0 lock sent, 1 read sent, 2 write sent, 3 clear */
	unsigned seen, done;
};

static void locked_increment(void **state)
{
	struct ncprig *r = *state;
	struct incr cl[CLIENTS];
	uint8_t req[32];
	size_t l;
	unsigned timeouts = 0, total = 0;
	uint32_t value = 0;

	memset(cl, 0, sizeof(cl));
	for (int i = 0; i < CLIENTS; i++) {
		cl[i].b = rawconn_open(r, true);
		if (i == 0)
			rawconn_call(r, cl[0].b, 0x43, "\x01\x00\x05" "C.DAT",
				     8, &l);
		assert_int_equal(rawconn_open_file(r, cl[i].b, "C.DAT",
						   cl[i].h)[6], 0);
	}
	for (int i = 0; i < CLIENTS; i++) {
		cl[i].seen = cl[i].b->count;
		rawconn_send(r, cl[i].b, 0x1A, req,
			     lock_req(req, 1, cl[i].h, 0, 4, 36));
	}
	for (int step = 0; step < 100000 && total < CLIENTS * ROUNDS; step++) {
		ncprig_run(r, IPX_MSEC);
		for (int i = 0; i < CLIENTS; i++) {
			struct incr *x = &cl[i];
			const uint8_t *rep;

			if (x->done == ROUNDS || x->b->count == x->seen)
				continue;
			rep = rawconn_last(x->b, &l);
			if (ipx_get16(rep) != NCP_TYPE_REPLY)
				continue;	/* 0x9999 */
			x->seen = x->b->count;
			if (x->state == 0 && rep[6] != 0) {
				timeouts++;
				rawconn_send(r, x->b, 0x1A, req,
					     lock_req(req, 1, x->h, 0, 4, 36));
				continue;
			}
			assert_int_equal(rep[6], 0);
			memset(req, 0, sizeof(req));
			memcpy(req + 1, x->h, 6);
			switch (x->state) {
			case 0:	/* read 4 at 0 */
				ipx_put16(req + 11, 4);
				rawconn_send(r, x->b, 0x48, req, 13);
				break;
			case 1:
				value = l >= 14 ? ipx_get32(rep + 10) : 0;
				ipx_put16(req + 11, 4);
				ipx_put32(req + 13, value + 1);
				rawconn_send(r, x->b, 0x49, req, 17);
				break;
			case 2:
				rawconn_send(r, x->b, 0x1E, req,
					     clear_req(req, x->h, 0, 4));
				break;
			case 3:
				x->done++;
				total++;
				if (x->done < ROUNDS)
					rawconn_send(r, x->b, 0x1A, req,
						     lock_req(req, 1, x->h, 0,
							      4, 36));
				break;
			}
			x->state = x->state == 3 ? 0 : x->state + 1;
		}
	}
	assert_int_equal(total, CLIENTS * ROUNDS);
	assert_int_equal(timeouts, 0);
	{
		char p[400];
		FILE *f;
		uint8_t b4[4];

		snprintf(p, sizeof(p), "%s/C.DAT", r->sys);
		f = fopen(p, "rb");
		assert_non_null(f);
		assert_int_equal(fread(b4, 1, 4, f), 4);
		fclose(f);
		assert_int_equal(ipx_get32(b4), CLIENTS * ROUNDS);
	}
	for (int i = 0; i < CLIENTS; i++)
		rawconn_close(cl[i].b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(waiters_in_order, setup,
						teardown),
		cmocka_unit_test_setup_teardown(no_overtaking, setup, teardown),
		cmocka_unit_test_setup_teardown(locked_increment, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
