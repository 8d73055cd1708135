/*
 * test_link_batch.c - the batched socket calls links share (link.c):
 * recvmmsg draining at most the loop's batch cap, cut datagrams flagged,
 * source addresses; sendmmsg counting what went and what failed. On a
 * local datagram socket pair and on UDP loopback; no privileges.
 */
#include "cm.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ipxlab/clock.h"
#include "ipxlab/link.h"
#include "ipxlab/loop.h"

struct seen {
	unsigned n;
	size_t len[64];
	bool cut[64];
	uint16_t port[64];
};

static void each(void *ctx, unsigned i, size_t len, bool truncated,
		 const void *from)
{
	struct seen *s = ctx;

	(void)i;
	s->len[s->n] = len;
	s->cut[s->n] = truncated;
	s->port[s->n] = from ? ntohs(((const struct sockaddr_in *)from)->sin_port)
			     : 0;
	s->n++;
}

static unsigned sent_calls;

static void on_sent(struct ipx_link *link, unsigned i)
{
	(void)link;
	(void)i;
	sent_calls++;
}

static void batches_stop_at_the_cap_and_flag_cut_datagrams(void **state)
{
	struct ipx_clock clk;
	struct ipx_loop *loop;
	struct ipx_link link;
	uint8_t out[10][100], in[4][64];
	size_t lens[10];
	struct seen s = { 0 };
	int sv[2];

	(void)state;
	ipx_clock_fake_init(&clk, 0);
	loop = ipx_loop_new(&clk);
	memset(&link, 0, sizeof(link));
	assert_int_equal(socketpair(AF_UNIX, SOCK_DGRAM, 0, sv), 0);
	for (unsigned i = 0; i < 10; i++) {
		memset(out[i], (int)i, sizeof(out[i]));
		lens[i] = 10 + i * 9;	/* 10 .. 91 bytes */
	}
	ipx_link_send_batch(&link, sv[0], out[0], sizeof(out[0]), lens, 10,
			    on_sent);
	assert_int_equal(sent_calls, 10);
	assert_int_equal(link.stats.tx_packets, 10);
	assert_int_equal(link.stats.tx_bytes, 10 * 10 + 9 * 45);
	assert_int_equal(link.stats.tx_errors, 0);
	/* A cap of 6: six datagrams, four buffers at a time. */
	ipx_loop_set_batch(loop, 6);
	assert_int_equal(ipx_link_recv_batch(loop, sv[1], in[0], sizeof(in[0]),
					     4, NULL, 0, each, &s),
			 0);
	assert_int_equal(s.n, 6);
	for (unsigned i = 0; i < 6; i++) {
		/* Cut to the 64-byte buffers from the sixth (55 bytes) on. */
		assert_int_equal(s.len[i], lens[i]);
		assert_int_equal(s.cut[i], lens[i] > 64);
		assert_int_equal(s.port[i], 0);
	}
	/* The rest next time, then nothing: an empty socket is no error. */
	assert_int_equal(ipx_link_recv_batch(loop, sv[1], in[0], sizeof(in[0]),
					     4, NULL, 0, each, &s),
			 0);
	assert_int_equal(s.n, 10);
	assert_true(s.cut[9]);
	assert_int_equal(ipx_link_recv_batch(loop, sv[1], in[0], sizeof(in[0]),
					     4, NULL, 0, each, &s),
			 0);
	assert_int_equal(s.n, 10);
	/* Sending to a peer that is gone: every datagram a counted error. */
	close(sv[1]);
	ipx_link_send_batch(&link, sv[0], out[0], sizeof(out[0]), lens, 3,
			    NULL);
	assert_int_equal(link.stats.tx_errors, 3);
	assert_int_equal(link.stats.tx_packets, 10);
	/* Receiving on a socket that is not one: -1. */
	assert_int_equal(ipx_link_recv_batch(loop, -1, in[0], sizeof(in[0]), 4,
					     NULL, 0, each, &s),
			 -1);
	close(sv[0]);
	ipx_loop_free(loop);
}

/* With source addresses (as the UDP link asks): each datagram's sender. */
static void sources_are_reported(void **state)
{
	struct ipx_clock clk;
	struct ipx_loop *loop;
	struct sockaddr_in a = { .sin_family = AF_INET }, b, names[4];
	socklen_t alen = sizeof(a);
	uint8_t in[4][64];
	struct seen s = { 0 };
	int rx, tx;

	(void)state;
	ipx_clock_fake_init(&clk, 0);
	loop = ipx_loop_new(&clk);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	rx = socket(AF_INET, SOCK_DGRAM, 0);
	tx = socket(AF_INET, SOCK_DGRAM, 0);
	assert_true(rx >= 0 && tx >= 0);
	assert_int_equal(bind(rx, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(getsockname(rx, (struct sockaddr *)&a, &alen), 0);
	b = a;
	b.sin_port = 0;
	assert_int_equal(bind(tx, (struct sockaddr *)&b, sizeof(b)), 0);
	alen = sizeof(b);
	assert_int_equal(getsockname(tx, (struct sockaddr *)&b, &alen), 0);
	for (int i = 0; i < 2; i++)
		assert_int_equal(sendto(tx, "ipx", 3, 0, (struct sockaddr *)&a,
					sizeof(a)),
				 3);
	/* (loopback queues a datagram at the receiver within sendto) */
	assert_int_equal(ipx_link_recv_batch(loop, rx, in[0], sizeof(in[0]), 4,
					     names, sizeof(names[0]), each,
					     &s),
			 0);
	assert_int_equal(s.n, 2);
	for (unsigned i = 0; i < 2; i++) {
		assert_int_equal(s.len[i], 3);
		assert_int_equal(s.port[i], ntohs(b.sin_port));
	}
	close(rx);
	close(tx);
	ipx_loop_free(loop);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(batches_stop_at_the_cap_and_flag_cut_datagrams),
		cmocka_unit_test(sources_are_reported),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
