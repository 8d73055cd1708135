/*
 * test_spx.c - SPX and SPX II on the in-memory link with the fake clock:
 * set-up and fallback, bulk transfers under loss, duplication and
 * reordering (byte-identical, sequence numbers wrapping, no stall), the
 * orderly release both ways at once, the watchdog, retries and back-off,
 * the connection limit and busy listeners, message boundaries and
 * disconnects, and a strict third-party-like peer (spxpeer.c).
 */
#include "cm.h"

#include <stdlib.h>
#include <string.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/link_mem.h"
#include "ipxlab/log.h"
#include "ipxlab/spx.h"
#include "spxpeer.h"

/* ---- a two-node network ---- */

struct side {
	struct ipx_node *node;
	struct spx *spx;
	struct spx_conn *conn;
	int connected;		/* on_connected status + 1000, 0 = not yet */
	int closed;		/* on_closed reason + 1000, 0 = not yet */
	ipx_time closed_at;
	/* receiving: compared with the sender's generator as it arrives */
	uint64_t rx_bytes, rx_state;
	bool rx_mismatch;
	unsigned rx_eom, rx_attn;
	uint8_t last_ds;
	unsigned rx_released;	/* on_release calls */
	/* sending */
	uint64_t tx_total, tx_sent, tx_state, tx_hash;
	enum { END_NONE, END_CLOSE, END_RELEASE } end_when_done;
	struct spx_status final;	/* the status as it closed */
};

struct net {
	struct ipx_clock clk;
	struct ipx_loop *loop;
	struct ipx_mem_segment *seg;
	struct side a, b;	/* a connects, b listens */
	struct spx_listener *lst;
};

static uint8_t next_byte(uint64_t *state)
{
	*state = *state * 6364136223846793005ull + 1442695040888963407ull;
	return (uint8_t)(*state >> 56);
}

static void on_data(struct spx_conn *c, const uint8_t *data, size_t len,
		    unsigned flags, uint8_t ds, void *ctx)
{
	struct side *s = ctx;

	(void)c;
	for (size_t i = 0; i < len; i++)
		if (data[i] != next_byte(&s->rx_state))
			s->rx_mismatch = true;
	s->rx_bytes += len;
	s->rx_eom += (flags & SPX_EOM) != 0;
	s->rx_attn += (flags & SPX_ATTN) != 0;
	s->last_ds = ds;
}

static void fill(struct side *s)
{
	static uint8_t chunk[4096];

	while (s->tx_sent < s->tx_total) {
		uint64_t st = s->tx_state;
		size_t n = s->tx_total - s->tx_sent < sizeof(chunk)
				   ? (size_t)(s->tx_total - s->tx_sent)
				   : sizeof(chunk);

		for (size_t i = 0; i < n; i++)
			chunk[i] = next_byte(&st);
		if (spx_send(s->conn, chunk, n, 0, 0) != IPX_OK)
			return;	/* on_sendable will call again */
		s->tx_state = st;
		s->tx_sent += n;
		s->tx_hash = spxpeer_hash(s->tx_hash, chunk, n);
	}
	if (s->end_when_done == END_CLOSE)
		spx_close(s->conn);
	else if (s->end_when_done == END_RELEASE)
		spx_release(s->conn);
}

static void on_sendable(struct spx_conn *c, void *ctx)
{
	(void)c;
	fill(ctx);
}

static void on_connected(struct spx_conn *c, int status, void *ctx)
{
	struct side *s = ctx;

	(void)c;
	s->connected = status + 1000;
	if (status != IPX_OK)
		s->conn = NULL;
	else if (s->tx_total)
		fill(s);
}

static struct ipx_loop *loop_of_side;

static void on_release(struct spx_conn *c, void *ctx)
{
	struct side *s = ctx;

	(void)c;
	s->rx_released++;
}

static void on_closed(struct spx_conn *c, int reason, void *ctx)
{
	struct side *s = ctx;

	(void)c;
	spx_get_status(c, &s->final);
	s->closed = reason + 1000;
	s->closed_at = ipx_loop_now(loop_of_side);
	s->conn = NULL;
}

static const struct spx_handlers handlers = {
	.on_connected = on_connected,
	.on_data = on_data,
	.on_sendable = on_sendable,
	.on_release = on_release,
	.on_closed = on_closed,
};

static void on_accept(struct spx_listener *l, struct spx_conn *c, void *ctx)
{
	struct side *s = ctx;

	(void)l;
	s->conn = c;
	s->connected = IPX_OK + 1000;
	spx_set_handlers(c, &handlers, s);
	if (s->tx_total)
		fill(s);
}

static struct net *net_new(uint64_t seed, const struct ipx_mem_faults *f,
			   size_t mtu, const struct ipx_config *cfg,
			   bool b_speaks_spx2)
{
	struct net *n = calloc(1, sizeof(*n));
	struct spx_options ob = { .spx2 = b_speaks_spx2 };

	ipx_clock_fake_init(&n->clk, 0);
	n->loop = ipx_loop_new(&n->clk);
	loop_of_side = n->loop;
	n->seg = ipx_mem_segment_new(n->loop, 0x10, seed);
	if (f)
		ipx_mem_segment_set_faults(n->seg, f);
	if (mtu)
		ipx_mem_segment_set_mtu(n->seg, mtu);
	n->a.node = ipx_node_new(n->loop, cfg);
	n->b.node = ipx_node_new(n->loop, cfg);
	ipx_node_add_link(n->a.node, ipx_mem_link_new(n->seg, NULL));
	ipx_node_add_link(n->b.node, ipx_mem_link_new(n->seg, NULL));
	n->a.spx = spx_new(n->a.node, NULL);
	n->b.spx = spx_new(n->b.node, &ob);
	n->a.rx_state = n->b.tx_state = 2;
	n->b.rx_state = n->a.tx_state = 1;
	n->a.tx_hash = n->b.tx_hash = SPXPEER_HASH_INIT;
	assert_int_equal(spx_listen(n->b.spx, 0x5000, on_accept, &n->b, &n->lst),
			 IPX_OK);
	return n;
}

static void net_free(struct net *n)
{
	spx_free(n->a.spx);
	spx_free(n->b.spx);
	ipx_node_free(n->a.node);
	ipx_node_free(n->b.node);
	ipx_mem_segment_free(n->seg);
	ipx_loop_free(n->loop);
	free(n);
}

static void b_addr(struct net *n, struct ipx_addr *a)
{
	ipx_node_address(n->b.node, a);
	a->socket = 0x5000;
}

static bool a_connected(void *ctx)
{
	return ((struct net *)ctx)->a.connected != 0;
}

static void connect_a(struct net *n)
{
	struct ipx_addr dst;

	b_addr(n, &dst);
	assert_int_equal(spx_connect(n->a.spx, &dst, &handlers, &n->a,
				     &n->a.conn),
			 IPX_OK);
	assert_int_equal(ipx_loop_run_until(n->loop, a_connected, n,
					    60 * IPX_SEC),
			 IPX_OK);
	assert_int_equal(n->a.connected, IPX_OK + 1000);
	/* Let the listener see the negotiation too. */
	ipx_loop_run_for(n->loop, 100 * IPX_MSEC);
}

/* ---- set-up ---- */

static void spx2_connects_and_negotiates_the_packet_size(void **state)
{
	struct net *n = net_new(1, NULL, 1000, NULL, true);
	struct spx_status sa, sb;

	(void)state;
	connect_a(n);
	spx_get_status(n->a.conn, &sa);
	spx_get_status(n->b.conn, &sb);
	assert_int_equal(sa.version, 2);
	assert_int_equal(sb.version, 2);
	assert_int_equal(sa.state, SPX_ESTABLISHED);
	/* 1000-byte IPX packets: 1000 - 30 - 14 bytes of data. */
	assert_int_equal(sa.max_data, 956);
	assert_int_equal(sb.max_data, 956);
	assert_int_equal(sa.remote_id, sb.local_id);
	assert_int_equal(sb.remote_id, sa.local_id);
	assert_int_equal(spx_conn_count(n->a.spx), 1);
	net_free(n);
}

/* The listener sends (and releases) as soon as it accepts, while the
 * caller is still negotiating: that data waits for the negotiation,
 * which still settles the packet size. */
static void data_during_negotiation_keeps_the_negotiated_size(void **state)
{
	struct net *n = net_new(1, NULL, 1000, NULL, true);
	struct spx_status sa;

	(void)state;
	n->b.tx_total = 3000;
	n->b.end_when_done = END_RELEASE;
	connect_a(n);
	spx_get_status(n->a.conn, &sa);
	assert_int_equal(sa.max_data, 956);
	assert_int_equal(n->a.rx_bytes, 3000);
	assert_false(n->a.rx_mismatch);
	assert_int_equal(n->a.rx_released, 1);
	assert_int_equal(spx_release(n->a.conn), IPX_OK);
	ipx_loop_run_for(n->loop, IPX_SEC);
	assert_int_equal(n->a.closed, IPX_OK + 1000);
	assert_int_equal(n->b.closed, IPX_OK + 1000);
	net_free(n);
}

static void calling_network_zero_means_this_network(void **state)
{
	struct net *n = net_new(1, NULL, 0, NULL, true);
	struct ipx_addr dst;
	struct spx_status st;

	(void)state;
	b_addr(n, &dst);
	dst.net = 0;
	assert_int_equal(spx_connect(n->a.spx, &dst, &handlers, &n->a,
				     &n->a.conn),
			 IPX_OK);
	assert_int_equal(ipx_loop_run_until(n->loop, a_connected, n,
					    10 * IPX_SEC),
			 IPX_OK);
	assert_int_equal(n->a.connected, IPX_OK + 1000);
	spx_get_status(n->a.conn, &st);
	assert_int_equal(st.remote.net, 0x10);
	net_free(n);
}

static void spx1_only_peer_gets_spx1(void **state)
{
	struct net *n = net_new(1, NULL, 1500, NULL, false);
	struct spx_status sa, sb;

	(void)state;
	connect_a(n);
	spx_get_status(n->a.conn, &sa);
	spx_get_status(n->b.conn, &sb);
	assert_int_equal(sa.version, 1);
	assert_int_equal(sb.version, 1);
	assert_int_equal(sa.max_data, 534);	/* 576 - 42 */
	assert_int_equal(sa.window, 1);
	net_free(n);
}

static void connect_to_nobody_times_out(void **state)
{
	struct net *n = net_new(1, NULL, 0, NULL, true);
	struct ipx_addr dst;

	(void)state;
	b_addr(n, &dst);
	dst.socket = 0x6666;	/* nobody listens there */
	assert_int_equal(spx_connect(n->a.spx, &dst, &handlers, &n->a,
				     &n->a.conn),
			 IPX_OK);
	assert_int_equal(ipx_loop_run_until(n->loop, a_connected, n,
					    120 * IPX_SEC),
			 IPX_OK);
	assert_int_equal(n->a.connected, IPX_ETIMEOUT + 1000);
	assert_int_equal(spx_conn_count(n->a.spx), 0);
	assert_true(ipx_node_stats(n->b.node)->drops[IPX_DROP_NO_SOCKET] >= 1);
	net_free(n);
}

/* ---- bulk transfers ---- */

static bool b_done(void *ctx)
{
	struct net *n = ctx;

	return n->b.closed || n->a.closed || n->b.rx_mismatch;
}

static void transfer(bool spx2, uint64_t bytes, uint64_t seed)
{
	struct ipx_mem_faults f = { .loss_ppm = 100000, .dup_ppm = 50000,
				    .reorder_ppm = 50000,
				    .delay = IPX_MSEC,
				    .reorder_delay = 3 * IPX_MSEC };
	struct net *n = net_new(seed, &f, 576, NULL, spx2);
	struct spx_status st;
	uint64_t packets;

	n->a.tx_total = bytes;
	n->a.end_when_done = END_CLOSE;
	connect_a(n);
	spx_get_status(n->a.conn, &st);
	assert_int_equal(st.version, spx2 ? 2 : 1);
	assert_int_equal(ipx_loop_run_until(n->loop, b_done, n,
					    24 * 3600 * IPX_SEC),
			 IPX_OK);
	assert_false(n->b.rx_mismatch);
	assert_int_equal(n->b.rx_bytes, bytes);
	if (getenv("SPX_TEST_VERBOSE")) {
		const struct ipx_mem_stats *ms = ipx_mem_segment_stats(n->seg);

		print_message("SPX %s: %llu bytes in %.1f s simulated; segment: "
			      "%llu sent, %llu lost, %llu duplicated, %llu "
			      "reordered\n",
			      spx2 ? "II" : "I", (unsigned long long)bytes,
			      (double)ipx_loop_now(n->loop) / IPX_SEC,
			      (unsigned long long)ms->sent,
			      (unsigned long long)ms->lost,
			      (unsigned long long)ms->duplicated,
			      (unsigned long long)ms->reordered);
	}
	/* Both ends closed by the informed disconnect, nothing lost. */
	ipx_loop_run_for(n->loop, 10 * IPX_SEC);
	if (getenv("SPX_TEST_VERBOSE")) {
		const struct spx_conn_stats *cs = &n->a.final.stats;

		print_message("  sender: %llu data, %llu retransmits, %llu "
			      "timeouts, %llu NAKs in, %llu acks in, rto %.1f ms"
			      ", srtt %.2f ms\n",
			      (unsigned long long)cs->tx_data,
			      (unsigned long long)cs->retransmits,
			      (unsigned long long)cs->timeouts,
			      (unsigned long long)cs->naks_rx,
			      (unsigned long long)cs->acks_rx,
			      (double)n->a.final.rto / IPX_MSEC,
			      (double)n->a.final.srtt / IPX_MSEC);
	}
	assert_int_equal(n->b.closed, IPX_OK + 1000);
	assert_int_equal(n->a.closed, IPX_OK + 1000);
	packets = bytes / (spx2 ? 532 : 534);
	assert_true(packets > 65536);	/* sequence numbers wrapped */
	assert_true(ipx_mem_segment_stats(n->seg)->lost > packets / 20);
	net_free(n);
}

static void spx1_50mb_under_faults_arrives_intact(void **state)
{
	(void)state;
	transfer(false, 50ull << 20, 11);
}

static void spx2_50mb_under_faults_arrives_intact(void **state)
{
	(void)state;
	transfer(true, 50ull << 20, 12);
}

static void both_directions_at_once(void **state)
{
	struct ipx_mem_faults f = { .loss_ppm = 50000, .dup_ppm = 20000,
				    .reorder_ppm = 20000 };
	struct net *n = net_new(5, &f, 1500, NULL, true);

	(void)state;
	n->a.tx_total = 2u << 20;
	n->b.tx_total = 3u << 20;
	connect_a(n);
	ipx_loop_run_for(n->loop, 600 * IPX_SEC);
	assert_false(n->a.rx_mismatch);
	assert_false(n->b.rx_mismatch);
	assert_int_equal(n->b.rx_bytes, 2u << 20);
	assert_int_equal(n->a.rx_bytes, 3u << 20);
	net_free(n);
}

/* ---- message boundaries and disconnect ---- */

static void eom_and_attention_reach_the_application(void **state)
{
	struct net *n = net_new(1, NULL, 576, NULL, true);
	static uint8_t msg[1200];
	uint64_t st = 1;

	(void)state;
	connect_a(n);
	for (size_t i = 0; i < sizeof(msg); i++)
		msg[i] = next_byte(&st);
	/* One 1200-byte message: three packets, EOM only on the last. */
	assert_int_equal(spx_send(n->a.conn, msg, sizeof(msg), SPX_EOM, 0x42),
			 IPX_OK);
	for (size_t i = 0; i < 10; i++)
		msg[i] = next_byte(&st);
	assert_int_equal(spx_send(n->a.conn, msg, 10, SPX_ATTN, 0x42), IPX_OK);
	ipx_loop_run_for(n->loop, IPX_SEC);
	assert_int_equal(n->b.rx_bytes, 1210);
	assert_false(n->b.rx_mismatch);
	assert_int_equal(n->b.rx_eom, 1);
	assert_int_equal(n->b.rx_attn, 1);
	assert_int_equal(n->b.last_ds, 0x42);
	assert_int_equal(spx_send(n->a.conn, msg, 1, 0, SPX_DS_DISCONNECT),
			 IPX_EINVAL);
	net_free(n);
}

static void close_is_reported_to_both_sides(void **state)
{
	struct net *n = net_new(1, NULL, 0, NULL, true);

	(void)state;
	connect_a(n);
	assert_int_equal(spx_close(n->b.conn), IPX_OK);
	ipx_loop_run_for(n->loop, IPX_SEC);
	assert_int_equal(n->a.closed, IPX_OK + 1000);
	assert_int_equal(n->b.closed, IPX_OK + 1000);
	assert_int_equal(spx_conn_count(n->a.spx), 0);
	assert_int_equal(spx_conn_count(n->b.spx), 0);
	net_free(n);
}

/* The peer aborted (no packet): our close must not claim our data arrived. */
static void close_to_an_aborted_peer_is_not_clean(void **state)
{
	struct net *n = net_new(1, NULL, 0, NULL, true);
	static uint8_t data[2000];

	(void)state;
	connect_a(n);
	spx_abort(n->b.conn);
	assert_int_equal(n->b.closed, IPX_ECLOSED + 1000);
	assert_int_equal(spx_send(n->a.conn, data, sizeof(data), SPX_EOM, 0),
			 IPX_OK);
	assert_int_equal(spx_close(n->a.conn), IPX_OK);
	ipx_loop_run_for(n->loop, 60 * IPX_SEC);
	assert_int_equal(n->a.closed, IPX_ECLOSED + 1000);
	assert_int_equal(n->b.rx_bytes, 0);
	net_free(n);
}

/* A disconnect sent as a system packet (the other variant in use) is
 * understood too, and answered with FF. */
static void system_packet_disconnect_is_accepted(void **state)
{
	struct net *n = net_new(1, NULL, 0, NULL, false);
	struct spx_status sa;
	struct spx_header h = { .cc = SPX_CC_SYS | SPX_CC_ACK,
				.ds = SPX_DS_DISCONNECT, .hdr_len = 12 };
	struct ipx_header ih = { .checksum = 0xFFFF, .length = 42,
				 .type = IPX_TYPE_SPX };
	uint8_t pkt[42];

	(void)state;
	connect_a(n);
	spx_get_status(n->a.conn, &sa);
	/* Forged as b would send it, from b's listening socket, fed to a's
	 * node: b sent nothing, so its next sequence number is 0. */
	h.src_id = sa.remote_id;
	h.dst_id = sa.local_id;
	ih.dst = sa.local;
	ih.src = sa.remote;
	ipx_header_encode(&ih, pkt);
	spx_header_encode(&h, pkt + 30);
	ipx_node_input(n->a.node, NULL, pkt, 42);
	assert_int_equal(n->a.closed, IPX_OK + 1000);
	net_free(n);
}

/* ---- the watchdog ---- */

static void silent_peer_is_probed_then_aborted_on_time(void **state)
{
	struct net *n = net_new(1, NULL, 0, NULL, true);
	struct ipx_mem_faults dead = { .loss_ppm = 1000000 };
	const struct ipx_config *cfg = ipx_node_config(n->a.node);
	ipx_time last_b, listen = ipx_ticks(cfg->spx_listen_timeout),
			 abort_after = ipx_ticks(cfg->spx_abort_timeout);
	struct spx_status st;

	(void)state;
	connect_a(n);
	/* Let keepalives flow a while, then b speaks and vanishes. */
	ipx_loop_run_for(n->loop, 20 * IPX_SEC);
	assert_int_equal(n->a.closed, 0);
	spx_send(n->b.conn, "x", 1, SPX_EOM, 0);
	ipx_loop_run_for(n->loop, 10 * IPX_MSEC);
	last_b = ipx_loop_now(n->loop);
	ipx_mem_segment_set_faults(n->seg, &dead);
	ipx_clock_set(&n->clk, last_b);
	ipx_loop_run_until(n->loop, NULL, NULL, listen - IPX_TICK);
	spx_get_status(n->a.conn, &st);
	assert_int_equal(st.stats.probes_tx, 0);
	ipx_loop_run_for(n->loop, 2 * IPX_TICK);
	spx_get_status(n->a.conn, &st);
	assert_int_equal(st.stats.probes_tx, 1);
	/* Probes repeat while the silence lasts, then the abort. */
	ipx_loop_run_for(n->loop, abort_after);
	assert_int_equal(n->a.closed, IPX_EABORTED + 1000);
	assert_true(n->a.closed_at >= last_b + abort_after - 10 * IPX_MSEC);
	assert_true(n->a.closed_at <= last_b + abort_after + IPX_TICK);
	net_free(n);
}

static void abort_lands_within_a_tick_of_the_last_packet(void **state)
{
	struct net *n = net_new(3, NULL, 0, NULL, true);
	struct ipx_mem_faults dead = { .loss_ppm = 1000000 };
	ipx_time abort_after =
		ipx_ticks(ipx_node_config(n->a.node)->spx_abort_timeout);
	ipx_time last_b;

	(void)state;
	connect_a(n);
	/* Make b speak right now, then silence the segment. */
	spx_send(n->b.conn, "x", 1, SPX_EOM, 0);
	ipx_loop_run_for(n->loop, 10 * IPX_MSEC);
	last_b = ipx_loop_now(n->loop);
	ipx_mem_segment_set_faults(n->seg, &dead);
	ipx_loop_run_for(n->loop, abort_after + 5 * IPX_SEC);
	assert_int_equal(n->a.closed, IPX_EABORTED + 1000);
	assert_true(n->a.closed_at >= last_b + abort_after - 10 * IPX_MSEC);
	assert_true(n->a.closed_at <= last_b + abort_after + IPX_TICK);
	net_free(n);
}

static void idle_live_connection_is_never_aborted(void **state)
{
	struct net *n = net_new(1, NULL, 0, NULL, true);
	struct spx_status sa, sb;

	(void)state;
	connect_a(n);
	ipx_loop_run_for(n->loop, 3600 * IPX_SEC);	/* an idle hour */
	assert_int_equal(n->a.closed, 0);
	assert_int_equal(n->b.closed, 0);
	spx_get_status(n->a.conn, &sa);
	spx_get_status(n->b.conn, &sb);
	assert_true(sa.stats.keepalives_tx > 100);
	assert_true(sb.stats.keepalives_tx > 100);
	assert_int_equal(sa.state, SPX_ESTABLISHED);
	net_free(n);
}

/* With the watchdog's abort off, only the retry counter can end a
 * connection whose peer vanished: after exactly IPX RETRY COUNT resends. */
static void retries_run_out_when_the_peer_vanishes_mid_transfer(void **state)
{
	struct ipx_config cfg;
	struct ipx_mem_faults slow = { .delay = IPX_MSEC };
	struct ipx_mem_faults dead = { .loss_ppm = 1000000 };
	struct spx_status st;
	struct net *n;

	(void)state;
	ipx_config_defaults(&cfg);
	cfg.spx_abort_timeout = 0;	/* no watchdog abort */
	cfg.ipx_retry_count = 5;
	/* SPX I at 2 ms a packet: 1 MB takes 4 s, so the peer vanishes with
	 * a packet in flight. */
	n = net_new(1, &slow, 0, &cfg, false);
	n->a.tx_total = 1u << 20;
	connect_a(n);
	ipx_loop_run_for(n->loop, 5 * IPX_MSEC);
	spx_get_status(n->a.conn, &st);
	assert_int_equal(st.in_flight, 1);
	assert_true(st.stats.tx_data > 10);
	assert_int_equal(st.stats.retransmits, 0);
	ipx_mem_segment_set_faults(n->seg, &dead);
	ipx_loop_run_for(n->loop, 3600 * IPX_SEC);
	assert_int_equal(n->a.closed, IPX_EABORTED + 1000);
	assert_int_equal(n->a.final.stats.retransmits, 5);
	assert_int_equal(n->a.final.stats.timeouts, 6);
	net_free(n);
}

/* ---- the retransmit timer's back-off, seen on the wire ---- */

struct sends {
	uint8_t from[IPX_NODE_LEN];
	ipx_time at[32];
	unsigned count;
};

static void tap_data(const uint8_t *pkt, size_t len,
		     const uint8_t from[IPX_NODE_LEN],
		     const uint8_t to[IPX_NODE_LEN], void *ctx)
{
	struct sends *s = ctx;

	(void)to;
	/* SPX data packets (not system ones) from the watched node. */
	if (len >= 42 && pkt[5] == IPX_TYPE_SPX && !(pkt[30] & SPX_CC_SYS) &&
	    !memcmp(from, s->from, IPX_NODE_LEN) && s->count < 32)
		s->at[s->count++] = ipx_loop_now(loop_of_side);
}

static void retransmit_timer_doubles_up_to_its_cap(void **state)
{
	struct ipx_config cfg;
	struct ipx_mem_faults slow = { .delay = IPX_MSEC };
	struct ipx_mem_faults dead = { .loss_ppm = 1000000 };
	struct sends sends = { .count = 0 };
	struct ipx_addr me;
	struct spx_status st;
	struct net *n;
	ipx_time gap;

	(void)state;
	ipx_config_defaults(&cfg);
	cfg.spx_abort_timeout = 0;
	cfg.ipx_retry_count = 12;
	n = net_new(1, &slow, 0, &cfg, true);
	connect_a(n);
	/* One message acknowledged: the timer has a round-trip estimate. */
	assert_int_equal(spx_send(n->a.conn, "x", 1, SPX_EOM, 0), IPX_OK);
	ipx_loop_run_for(n->loop, 100 * IPX_MSEC);
	spx_get_status(n->a.conn, &st);
	assert_int_equal(st.in_flight, 0);
	assert_true(st.stats.rtt_samples >= 1);
	assert_true(st.rto >= 2 * IPX_MSEC && st.rto < 100 * IPX_MSEC);
	ipx_node_address(n->a.node, &me);
	memcpy(sends.from, me.node, IPX_NODE_LEN);
	ipx_mem_segment_set_faults(n->seg, &dead);
	ipx_mem_segment_set_tap(n->seg, tap_data, &sends);
	assert_int_equal(spx_send(n->a.conn, "y", 1, SPX_EOM, 0), IPX_OK);
	ipx_loop_run_for(n->loop, 600 * IPX_SEC);
	ipx_mem_segment_set_tap(n->seg, NULL, NULL);
	assert_int_equal(n->a.closed, IPX_EABORTED + 1000);
	/* The first send and 12 resends, each gap twice the one before,
	 * from the estimate up to the 5 s cap. */
	assert_int_equal(sends.count, 13);
	gap = st.rto;
	for (unsigned i = 1; i < sends.count; i++) {
		assert_int_equal(sends.at[i] - sends.at[i - 1], gap);
		gap = 2 * gap > 5 * IPX_SEC ? 5 * IPX_SEC : 2 * gap;
	}
	assert_int_equal(sends.at[12] - sends.at[11], 5 * IPX_SEC);
	net_free(n);
}

/* ---- both directions and the orderly release ---- */

static bool both_closed(void *ctx)
{
	struct net *n = ctx;

	return n->a.closed && n->b.closed;
}

/* Each side releases when its input is done; neither loses the other's
 * data, and both report a clean end only once both directions are. */
static void release_both_ways(bool spx2, uint64_t seed)
{
	struct ipx_mem_faults f = { .loss_ppm = 30000, .dup_ppm = 10000,
				    .reorder_ppm = 10000, .delay = IPX_MSEC,
				    .reorder_delay = 3 * IPX_MSEC };
	struct net *n = net_new(seed, &f, 1500, NULL, spx2);

	n->a.tx_total = 5u << 20;
	n->b.tx_total = 2u << 20;	/* b's input ends first */
	n->a.end_when_done = n->b.end_when_done = END_RELEASE;
	connect_a(n);
	assert_int_equal(ipx_loop_run_until(n->loop, both_closed, n,
					    3600 * IPX_SEC),
			 IPX_OK);
	assert_int_equal(n->a.closed, IPX_OK + 1000);
	assert_int_equal(n->b.closed, IPX_OK + 1000);
	assert_false(n->a.rx_mismatch);
	assert_false(n->b.rx_mismatch);
	assert_int_equal(n->b.rx_bytes, 5u << 20);
	assert_int_equal(n->a.rx_bytes, 2u << 20);
	assert_int_equal(n->a.rx_released, 1);
	assert_int_equal(n->b.rx_released, 1);
	assert_true(n->a.final.released && n->a.final.peer_released);
	assert_true(n->b.final.released && n->b.final.peer_released);
	/* b, which released first, went on receiving for a while. */
	assert_true(ipx_mem_segment_stats(n->seg)->lost > 100);
	net_free(n);
}

static void spx2_release_keeps_receiving_until_the_peer_is_done(void **state)
{
	(void)state;
	release_both_ways(true, 21);
}

static void spx1_release_keeps_receiving_until_the_peer_is_done(void **state)
{
	(void)state;
	release_both_ways(false, 22);
}

/* A release waits for the peer's: one side released, the other still
 * open, nothing closes; then the second release ends both cleanly. */
static void half_closed_connection_stays_open(void **state)
{
	struct net *n = net_new(1, NULL, 0, NULL, true);
	struct spx_status st;

	(void)state;
	connect_a(n);
	assert_int_equal(spx_release(n->a.conn), IPX_OK);
	assert_int_equal(spx_send(n->a.conn, "z", 1, 0, 0), IPX_ENOTCONN);
	ipx_loop_run_for(n->loop, 60 * IPX_SEC);
	assert_int_equal(n->a.closed, 0);
	assert_int_equal(n->b.closed, 0);
	assert_int_equal(n->b.rx_released, 1);
	spx_get_status(n->a.conn, &st);
	assert_true(st.released);
	assert_false(st.peer_released);
	/* b still sends after a's end of data. */
	assert_int_equal(spx_send(n->b.conn, "late", 4, SPX_EOM, 0x42), IPX_OK);
	ipx_loop_run_for(n->loop, IPX_SEC);
	assert_int_equal(n->a.rx_bytes, 4);
	assert_int_equal(spx_release(n->b.conn), IPX_OK);
	ipx_loop_run_for(n->loop, IPX_SEC);
	assert_int_equal(n->a.closed, IPX_OK + 1000);
	assert_int_equal(n->b.closed, IPX_OK + 1000);
	net_free(n);
}

/* The last 0xFD is lost: the peer's repeated release reaches a
 * connection already gone, and is answered so that it closes cleanly. */
static void lost_release_answer_is_given_again_after_close(void **state)
{
	struct net *n = net_new(1, NULL, 0, NULL, true);
	struct ipx_mem_faults dead = { .loss_ppm = 1000000 }, none = { 0 };
	uint64_t stray;

	(void)state;
	connect_a(n);
	assert_int_equal(spx_release(n->a.conn), IPX_OK);
	ipx_loop_run_for(n->loop, IPX_SEC);
	/* b's release is on its way to a; a's 0xFD to it will be lost. */
	assert_int_equal(spx_release(n->b.conn), IPX_OK);
	ipx_mem_segment_set_faults(n->seg, &dead);
	ipx_loop_run_for(n->loop, IPX_MSEC / 2);
	assert_int_equal(n->a.closed, IPX_OK + 1000);
	assert_int_equal(n->b.closed, 0);
	stray = spx_drops(n->a.spx)[SPX_DROP_NO_CONN];
	ipx_mem_segment_set_faults(n->seg, &none);
	ipx_loop_run_for(n->loop, 30 * IPX_SEC);
	assert_int_equal(n->b.closed, IPX_OK + 1000);
	assert_true(spx_drops(n->a.spx)[SPX_DROP_NO_CONN] > stray);
	net_free(n);
}

/* ---- refusals and disconnects ---- */

static void busy_listener_refuses_a_caller_at_once(void **state)
{
	struct net *n = net_new(1, NULL, 0, NULL, true);
	struct ipx_addr dst;

	(void)state;
	spx_listener_set_busy(n->lst, true);
	b_addr(n, &dst);
	assert_int_equal(spx_connect(n->a.spx, &dst, &handlers, &n->a,
				     &n->a.conn),
			 IPX_OK);
	ipx_loop_run_for(n->loop, 10 * IPX_MSEC);
	assert_int_equal(n->a.connected, IPX_EREFUSED + 1000);
	assert_int_equal(n->b.connected, 0);
	assert_int_equal(spx_conn_count(n->a.spx), 0);
	assert_int_equal(spx_conn_count(n->b.spx), 0);
	assert_int_equal(spx_drops(n->b.spx)[SPX_DROP_REFUSED], 1);
	/* No longer busy: the next caller gets in. */
	spx_listener_set_busy(n->lst, false);
	n->a.connected = 0;
	connect_a(n);
	assert_int_equal(spx_conn_count(n->b.spx), 1);
	net_free(n);
}

/* spx_disconnect (an interrupted program): the peer hears at once, and
 * with our data still unacknowledged it is not a clean end for it. */
static void disconnect_now_reaches_the_peer_at_once(void **state)
{
	struct ipx_mem_faults slow = { .delay = IPX_MSEC };
	struct net *n = net_new(1, &slow, 0, NULL, true);
	ipx_time t0;

	(void)state;
	n->a.tx_total = 64u << 20;	/* still going when interrupted */
	connect_a(n);
	spx_disconnect(n->a.conn);
	assert_int_equal(n->a.closed, IPX_ECLOSED + 1000);
	t0 = ipx_loop_now(n->loop);
	ipx_loop_run_for(n->loop, 50 * IPX_MSEC);
	assert_int_equal(n->b.closed, IPX_ECLOSED + 1000);
	assert_true(n->b.closed_at - t0 <= 2 * IPX_MSEC);
	assert_true(n->b.rx_bytes < 64u << 20);
	net_free(n);
}

/* The peer disconnects while our data is unacknowledged: for us that is
 * a failure, never a clean close. */
static void peer_disconnect_with_our_data_unacked_fails(void **state)
{
	struct ipx_mem_faults slow = { .delay = IPX_MSEC };
	struct net *n = net_new(1, &slow, 0, NULL, true);
	static uint8_t data[20000];

	(void)state;
	connect_a(n);
	assert_int_equal(spx_send(n->a.conn, data, sizeof(data), SPX_EOM, 0),
			 IPX_OK);
	assert_int_equal(spx_close(n->b.conn), IPX_OK);
	ipx_loop_run_for(n->loop, IPX_SEC);
	assert_int_equal(n->a.closed, IPX_ECLOSED + 1000);
	assert_true(n->a.final.queued_bytes > 0);
	net_free(n);
}

/* ---- a strict peer that acknowledges only when asked ---- */

static bool a_closed(void *ctx)
{
	return ((struct net *)ctx)->a.closed != 0;
}

/* 1 MB to a peer that acknowledges only when asked and grants 6 packets
 * (less than a quarter of our window): every window must ask, so the
 * data flows at the link's pace, not the retransmit timer's; its 0xFF
 * that does not count our 0xFE ends the session cleanly. 'end' is how
 * we end: close, or release (which it does not know: the session then
 * goes on until the peer disconnects). */
static void strict_peer_transfer(int end)
{
	struct ipx_mem_faults slow = { .delay = IPX_MSEC };
	struct net *n = net_new(1, &slow, 1500, NULL, true);
	struct spxpeer *peer = spxpeer_new(n->b.node, 0x5100, 6, 1500);
	const struct spxpeer_stats *ps = spxpeer_stats(peer);
	struct ipx_addr dst;
	ipx_time t0;

	b_addr(n, &dst);
	dst.socket = 0x5100;
	n->a.tx_total = 1u << 20;
	n->a.end_when_done = end;
	t0 = ipx_loop_now(n->loop);
	assert_int_equal(spx_connect(n->a.spx, &dst, &handlers, &n->a,
				     &n->a.conn),
			 IPX_OK);
	if (end == END_RELEASE) {
		/* Our 0xFC is data to it; its plain ACK tells us it has no
		 * release: the end of our data does not end the session. */
		ipx_loop_run_for(n->loop, 30 * IPX_SEC);
		assert_int_equal(n->a.closed, 0);
		assert_int_equal(ps->unknown_ds, 1);
		assert_false(ps->disconnected);
		assert_non_null(n->a.conn);
		spxpeer_close(peer);
	}
	assert_int_equal(ipx_loop_run_until(n->loop, a_closed, n,
					    600 * IPX_SEC),
			 IPX_OK);
	if (getenv("SPX_TEST_VERBOSE"))
		print_message("strict peer: 1 MB in %.3f s simulated, %u acks, "
			      "%llu retransmits\n",
			      (double)(ipx_loop_now(n->loop) - t0) / IPX_SEC,
			      ps->acks_tx,
			      (unsigned long long)n->a.final.stats.retransmits);
	assert_int_equal(n->a.closed, IPX_OK + 1000);
	assert_int_equal(ps->rx_bytes, 1u << 20);
	assert_true(ps->rx_hash == n->a.tx_hash);
	assert_int_equal(n->a.final.stats.retransmits, 0);
	if (end == END_CLOSE) {
		assert_true(ps->disconnected);
		/* 1456-byte packets, 6 a round trip of 2 ms: about 0.25 s. */
		assert_true(ipx_loop_now(n->loop) - t0 < 2 * IPX_SEC);
	} else {
		ipx_loop_run_for(n->loop, IPX_SEC);	/* our 0xFF arrives */
		assert_false(ps->disconnected);	/* it disconnected, not we */
		assert_true(ps->fe_answered);
		assert_false(n->a.final.peer_released);
	}
	spxpeer_free(peer);
	net_free(n);
}

static void strict_peer_gets_1mb_at_full_speed_and_a_clean_close(void **state)
{
	(void)state;
	strict_peer_transfer(END_CLOSE);
}

static void release_to_a_peer_without_it_waits_for_its_disconnect(void **state)
{
	(void)state;
	strict_peer_transfer(END_RELEASE);
}

/*
 * Receive only, from a peer without orderly release (ipxcat -l < 4MB
 * against spx connect </dev/null): we release at once, it answers with
 * a plain ACK and goes on sending 4 MB under loss and reordering, then
 * disconnects; every byte arrives and the end is clean. Every packet we
 * send grants at most our window of 32 receive slots, never one more.
 */
static void receive_only_from_a_peer_without_release_gets_everything(
	void **state)
{
	struct ipx_mem_faults f = { .delay = IPX_MSEC, .loss_ppm = 20000,
				    .reorder_ppm = 20000,
				    .reorder_delay = 3 * IPX_MSEC };
	struct net *n = net_new(7, &f, 1500, NULL, true);
	struct spxpeer *peer = spxpeer_new(n->b.node, 0x5100, 6, 1500);
	const struct spxpeer_stats *ps = spxpeer_stats(peer);
	const size_t total = 4u << 20;
	uint8_t *data = malloc(total);
	uint64_t st = n->a.rx_state;
	struct ipx_addr dst;

	(void)state;
	assert_non_null(data);
	for (size_t i = 0; i < total; i++)
		data[i] = next_byte(&st);
	spxpeer_send(peer, data, total);
	spxpeer_close(peer);
	free(data);
	b_addr(n, &dst);
	dst.socket = 0x5100;
	assert_int_equal(spx_connect(n->a.spx, &dst, &handlers, &n->a,
				     &n->a.conn),
			 IPX_OK);
	assert_int_equal(ipx_loop_run_until(n->loop, a_connected, n,
					    10 * IPX_SEC),
			 IPX_OK);
	assert_int_equal(n->a.connected, IPX_OK + 1000);
	assert_int_equal(spx_release(n->a.conn), IPX_OK);
	assert_int_equal(ipx_loop_run_until(n->loop, a_closed, n,
					    3600 * IPX_SEC),
			 IPX_OK);
	if (getenv("SPX_TEST_VERBOSE"))
		print_message("from a peer without release: %llu bytes, %u "
			      "go-backs\n",
			      (unsigned long long)n->a.rx_bytes,
			      ps->retransmits);
	ipx_loop_run_for(n->loop, IPX_SEC);	/* our 0xFF reaches it */
	assert_int_equal(n->a.rx_bytes, total);
	assert_false(n->a.rx_mismatch);
	assert_int_equal(n->a.closed, IPX_OK + 1000);
	assert_true(n->a.final.released);
	assert_true(ps->fe_answered);
	assert_false(ps->disconnected);
	assert_int_equal(ps->unknown_ds, 1);	/* our 0xFC */
	assert_int_equal(ps->granted_max, 32);
	spxpeer_free(peer);
	net_free(n);
}

/* ---- limits ---- */

static void spx_connections_limit_gives_a_clear_error(void **state)
{
	struct ipx_config cfg;
	struct net *n;
	struct ipx_addr dst;
	struct spx_conn *c;
	struct side extra[6];

	(void)state;
	ipx_config_defaults(&cfg);
	cfg.spx_connections = 5;
	n = net_new(1, NULL, 0, &cfg, true);
	b_addr(n, &dst);
	memset(extra, 0, sizeof(extra));
	for (int i = 0; i < 5; i++)
		assert_int_equal(spx_connect(n->a.spx, &dst, &handlers,
					     &extra[i], &c),
				 IPX_OK);
	assert_int_equal(spx_connect(n->a.spx, &dst, &handlers, &extra[5], &c),
			 IPX_ECONNFULL);
	assert_non_null(strstr(ipx_strerror(IPX_ECONNFULL), "SPX CONNECTIONS"));
	ipx_loop_run_for(n->loop, IPX_SEC);
	for (int i = 0; i < 5; i++)
		assert_int_equal(extra[i].connected, IPX_OK + 1000);
	assert_int_equal(spx_conn_count(n->b.spx), 5);
	net_free(n);
}

static void header_codec_round_trips(void **state)
{
	struct spx_header h = { .cc = 0xC8, .ds = 0xFE, .src_id = 0x1234,
				.dst_id = 0x5678, .seq = 0xFFFF, .ack = 1,
				.alloc = 2, .neg_size = 1500, .hdr_len = 14 },
			  d;
	uint8_t p[14];

	(void)state;
	spx_header_encode(&h, p);
	assert_memory_equal(p, "\xC8\xFE\x12\x34\x56\x78\xFF\xFF\x00\x01\x00\x02"
			       "\x05\xDC", 14);
	assert_int_equal(spx_header_decode(p, 14, &d), IPX_OK);
	assert_int_equal(d.hdr_len, 14);
	assert_int_equal(d.neg_size, 1500);
	assert_int_equal(spx_header_decode(p, 13, &d), IPX_ESHORT);
	assert_int_equal(spx_header_decode(p, 11, &d), IPX_ESHORT);
	/* A connect request (dst 0xFFFF) has no negotiation field. */
	ipx_put16(p + 4, 0xFFFF);
	assert_int_equal(spx_header_decode(p, 12, &d), IPX_OK);
	assert_int_equal(d.hdr_len, 12);
	assert_true(spx_seq_lt(0xFFFF, 0));
	assert_true(spx_seq_lt(0xFFF0, 0x0010));
	assert_false(spx_seq_lt(0x0010, 0xFFF0));
	assert_true(spx_seq_le(5, 5));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(header_codec_round_trips),
		cmocka_unit_test(spx2_connects_and_negotiates_the_packet_size),
		cmocka_unit_test(spx1_only_peer_gets_spx1),
		cmocka_unit_test(data_during_negotiation_keeps_the_negotiated_size),
		cmocka_unit_test(calling_network_zero_means_this_network),
		cmocka_unit_test(connect_to_nobody_times_out),
		cmocka_unit_test(eom_and_attention_reach_the_application),
		cmocka_unit_test(close_is_reported_to_both_sides),
		cmocka_unit_test(system_packet_disconnect_is_accepted),
		cmocka_unit_test(close_to_an_aborted_peer_is_not_clean),
		cmocka_unit_test(silent_peer_is_probed_then_aborted_on_time),
		cmocka_unit_test(abort_lands_within_a_tick_of_the_last_packet),
		cmocka_unit_test(idle_live_connection_is_never_aborted),
		cmocka_unit_test(retries_run_out_when_the_peer_vanishes_mid_transfer),
		cmocka_unit_test(retransmit_timer_doubles_up_to_its_cap),
		cmocka_unit_test(half_closed_connection_stays_open),
		cmocka_unit_test(lost_release_answer_is_given_again_after_close),
		cmocka_unit_test(busy_listener_refuses_a_caller_at_once),
		cmocka_unit_test(disconnect_now_reaches_the_peer_at_once),
		cmocka_unit_test(peer_disconnect_with_our_data_unacked_fails),
		cmocka_unit_test(strict_peer_gets_1mb_at_full_speed_and_a_clean_close),
		cmocka_unit_test(release_to_a_peer_without_it_waits_for_its_disconnect),
		cmocka_unit_test(receive_only_from_a_peer_without_release_gets_everything),
		cmocka_unit_test(spx2_release_keeps_receiving_until_the_peer_is_done),
		cmocka_unit_test(spx1_release_keeps_receiving_until_the_peer_is_done),
		cmocka_unit_test(spx_connections_limit_gives_a_clear_error),
		cmocka_unit_test(both_directions_at_once),
		cmocka_unit_test(spx1_50mb_under_faults_arrives_intact),
		cmocka_unit_test(spx2_50mb_under_faults_arrives_intact),
	};
	ipx_log_set_level(IPX_LOG_WARN);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
