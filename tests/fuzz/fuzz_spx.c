/*
 * fuzz_spx.c - libFuzzer harness for SPX and SPX II (src/spx): the header
 * codec and the connection state machine.
 *
 * Every input builds a fresh world on the fake clock: one in-memory
 * segment (network 0x10) with node A (02:..:01, listening on 0x5001) and
 * node B (02:..:02, listening on 0x5000), each with its own SPX module,
 * and one connection from A to B: the "main" connection, whose two ends
 * carry the checked data streams. The first input byte chooses the
 * variant (SPX I or II, MTU, window, send queue, faults, timers, see
 * struct variant); the rest is a sequence of records, one byte of opcode
 * and arguments each:
 *
 *   INJECT    a packet built from fuzz bytes (the SPX header and data) with
 *             an IPX header we build, fed to A or B by ipx_node_input. It
 *             can be aimed at a live connection (connection ids, peer
 *             address and plausible sequence, acknowledge and allocation
 *             numbers taken from spx_get_status), or left raw.
 *   ADVANCE   run the loop for 1 ms .. 256 ticks of simulated time
 *   SEND      spx_send on A's or B's main connection: bytes of a known
 *             pattern, with EOM/ATTN and a datastream type from the input
 *   CLOSE, ABORT   spx_close / spx_abort of a main connection
 *   RELEASE, DISCONNECT   spx_release / spx_disconnect of a main one
 *   CONNECT   another connection (A->B, B->A, or to nobody)
 *   FAULTS    segment faults: none, lossy, cut (everything lost), dup
 *   END_OTHER abort or close one of the other connections
 *   RELISTEN  close a listener (aborting what it accepted) and reopen it
 *
 * Invariants checked after every record (CHECK aborts):
 *
 * - Data: what a main connection delivers is exactly a prefix of what
 *   the other end accepted with spx_send (the byte pattern is a hash of
 *   the stream offset, so loss, duplication, reordering or corruption all
 *   show), cut only at packet boundaries of one spx_send call, with that
 *   call's datastream type, and EOM / ATTN exactly on its last packet.
 *   SPX has no authentication: a forged data packet that carries the
 *   connection's ids, the peer's address and a sequence number inside the
 *   receiver's window IS the next data, and that is what the protocol
 *   promises. So the one forgery that may legitimately change delivered
 *   data is a non-system packet for the main connection's id with a
 *   sequence number in [next expected, next expected + window): such a
 *   record "taints" that direction and its data is no longer compared.
 *   The next expected number is the count of packets delivered (numbers
 *   start at 0), and the window is the advertised allocation (the SPX II
 *   window, 4 for SPX I). Any other forgery (system packets of every
 *   kind, duplicates, data beyond the allocation) must never put a byte
 *   into the stream.
 * - A main end that reports on_closed(IPX_OK) has had everything it sent
 *   delivered to the other end (spx.h: "all data delivered"). Checked
 *   when the input forged nothing and the other end did not vanish
 *   without a disconnect (aborted, retries or watchdog): its node then
 *   answers our disconnect as a stray one that acknowledges everything,
 *   a known problem. One that reports IPX_OK after both ends released has
 *   also received everything the other end sent.
 * - Liveness: with no forgery, once the faults are lifted, two
 *   established main ends deliver everything within 40 s of simulated
 *   time (SPX II recovers a burst of losses one packet per timeout).
 * - Connections: spx_conn_count() never exceeds SPX CONNECTIONS and
 *   equals the number the callbacks say are alive; each connection gets
 *   exactly one final callback (on_connected with an error, or
 *   on_closed); on_connected(IPX_OK) comes only for a connection that is
 *   established; spx_abort ends a connection at once.
 * - spx_get_status: in_flight <= window, queued_bytes <= the send queue,
 *   a packet of max_data fits the segment's MTU; no packet SPX sends is
 *   ever too big for the link (node counter tx_too_big stays 0).
 * - spx_send returns only documented codes (EINVAL for datastream FC..FF).
 * - The header codec: decode(raw input) agrees with the flag rule (14
 *   bytes when SPX II and not a connect request), encode(decode(x)) gives
 *   x back byte for byte, and spx_seq_lt is a strict order on any pair
 *   not exactly half the sequence space apart.
 * - AddressSanitizer / UBSan: no memory error, no leak (spx_free and the
 *   node are freed at the end of every input), no undefined behaviour.
 *
 * Deterministic: fake clock, seeded segment. FUZZ_SPX_TRACE=1 prints
 * each record and the state of both main ends (reading a crash input:
 * FUZZ_SPX_TRACE=1 build/fuzz/fuzz_spx FILE). The seeds are written by
 * tests/fuzz/gen_corpus.py (spx_seeds); the inputs of two bugs it found
 * (a disconnect during negotiation reported as a successful connect; an
 * ACK half the sequence space ahead) are in the corpus as regressions.
 */
#include <stdlib.h>
#include <string.h>

#include "ipxlab/bytes.h"
#include "ipxlab/clock.h"
#include "ipxlab/config.h"
#include "ipxlab/err.h"
#include "ipxlab/ipx.h"
#include "ipxlab/link_mem.h"
#include "ipxlab/log.h"
#include "ipxlab/loop.h"
#include "ipxlab/node.h"
#include "ipxlab/spx.h"

#include "fuzz_common.h"

#define NET 0x10
#define SOCK_B 0x5000		/* B's listener */
#define SOCK_A 0x5001		/* A's listener */
#define SOCK_NOBODY 0x6666
#define MAX_CONNS 5		/* SPX CONNECTIONS (the documented minimum) */
#define MAX_SLOTS 32
#define MAX_CALLS 256		/* spx_send calls logged per side */
#define MAX_RECORDS 96
#define MAX_TX (256u << 10)	/* bytes sent per side per input */

enum op {
	OP_INJECT,
	OP_ADVANCE,
	OP_SEND,
	OP_CLOSE,
	OP_ABORT,
	OP_CONNECT,
	OP_FAULTS,
	OP_END_OTHER,
	OP_RELISTEN,
	OP_RELEASE,
	OP_DISCONNECT,
	OP_COUNT
};

static const char *const op_names[OP_COUNT] = {
	"inject", "advance", "send", "close", "abort", "connect", "faults",
	"end_other", "relisten", "release", "disconnect",
};

struct world;

/* One connection the harness knows of (every connection gets one). */
struct slot {
	struct world *w;
	int side;		/* 0: A's, 1: B's */
	struct spx_conn *conn;	/* NULL once ended */
	bool used;
	bool main;
	bool outgoing_pending;	/* spx_connect, on_connected not yet */
};

/* One spx_send call accepted on a main connection. */
struct call {
	uint64_t start, end;	/* stream offsets */
	uint8_t flags, ds;
};

struct side {
	struct world *w;
	int idx;		/* 0: A, 1: B */
	struct ipx_node *node;
	struct ipx_link *link;
	struct spx *spx;
	struct spx_listener *lst;
	uint16_t lst_socket;
	struct slot *main;	/* NULL once the main connection ended */
	bool had_main;
	int main_end;		/* final status + 1000, 0 while open */
	size_t live;		/* connections alive by the callbacks */
	/* sending on the main connection */
	uint64_t tx_bytes;
	struct call calls[MAX_CALLS];
	unsigned ncalls;
	/* receiving on the main connection */
	uint64_t rx_bytes;
	unsigned cursor;	/* the peer's call being delivered */
	bool tainted;		/* a forged in-window data packet arrived */
	bool refuse_next;	/* abort the next connection accepted, from
				 * inside the accept callback */
};

struct world {
	struct ipx_clock clock;
	struct ipx_loop *loop;
	struct ipx_mem_segment *seg;
	struct ipx_config cfg;
	struct spx_options opts[2];
	size_t mtu;
	struct side s[2];
	struct slot slots[MAX_SLOTS];
	bool forged;		/* any packet injected this input */
	bool in_setup;
	uint64_t sink;
};

/* FUZZ_SPX_TRACE=1 prints every record and the main ends' state. */
static bool trace;


#define TRACE(...)                                                          \
	do {                                                                \
		if (trace)                                                  \
			fprintf(stderr, __VA_ARGS__);                       \
	} while (0)

/* The stream's byte at an offset: a hash of it, so a byte that moved,
 * repeated or went missing shows. */
static uint8_t pattern(int dir, uint64_t off)
{
	uint32_t x = (uint32_t)off * 0x9E3779B1u + (uint32_t)(off >> 32) +
		     (uint32_t)dir * 0x85EBCA6Bu;

	x ^= x >> 15;
	return (uint8_t)(x >> 7);
}

/* ---- bookkeeping of connections ---- */

static struct slot *slot_new(struct world *w, int side)
{
	for (int i = 0; i < MAX_SLOTS; i++) {
		struct slot *s = &w->slots[i];

		if (!s->used) {
			memset(s, 0, sizeof(*s));
			s->used = true;
			s->w = w;
			s->side = side;
			return s;
		}
	}
	/* More connections alive than two sides of SPX CONNECTIONS. */
	CHECK(!"out of connection slots: SPX CONNECTIONS not enforced?");
	return NULL;
}

/* The connection's final callback: exactly one per connection. */
static void slot_end(struct slot *s, int status)
{
	struct side *me;

	CHECK(s->used && s->conn);
	me = &s->w->s[s->side];
	CHECK(me->live > 0);
	me->live--;
	if (s->main) {
		struct side *peer = &s->w->s[1 - s->side];
		bool peer_vanished;

		me->main = NULL;
		me->main_end = status + 1000;
		/*
		 * IPX_OK promises an informed disconnect with everything we
		 * sent delivered (spx.h). A forged packet can fake the
		 * disconnect. And once the peer's end is gone without one
		 * (aborted, retries or watchdog), its node answers our
		 * disconnect as a stray one that acknowledges everything:
		 * the known problem this exclusion stands for.
		 */
		peer_vanished = !peer->main && peer->main_end != IPX_OK + 1000;
		if (status == IPX_OK && !s->w->forged && !peer_vanished)
			CHECK(peer->rx_bytes == me->tx_bytes);
	}
	s->conn = NULL;
	s->used = false;
}

static void on_data(struct spx_conn *c, const uint8_t *data, size_t len,
		    unsigned flags, uint8_t ds, void *ctx)
{
	struct slot *s = ctx;
	struct world *w = s->w;
	struct side *r, *snd;
	const struct call *k;
	uint64_t off;
	bool last;

	CHECK(s->conn == c);
	for (size_t i = 0; i < len; i++)
		w->sink += data[i];
	CHECK((flags & ~(unsigned)(SPX_EOM | SPX_ATTN)) == 0);
	if (!s->main)
		return;
	r = &w->s[s->side];
	snd = &w->s[1 - s->side];
	off = r->rx_bytes;
	r->rx_bytes += len;
	if (r->tainted)
		return;
	/* A prefix of what the peer sent, packet by packet. */
	CHECK(r->cursor < snd->ncalls);
	k = &snd->calls[r->cursor];
	CHECK(off >= k->start && off + len <= k->end);
	CHECK(len > 0 || k->start == k->end);
	for (size_t i = 0; i < len; i++)
		CHECK(data[i] == pattern(1 - s->side, off + i));
	CHECK(ds == k->ds);
	last = off + len == k->end;
	CHECK((flags & SPX_EOM) == (last ? (k->flags & SPX_EOM) : 0u));
	CHECK((flags & SPX_ATTN) == (last ? (k->flags & SPX_ATTN) : 0u));
	if (last)
		r->cursor++;
}

static void on_connected(struct spx_conn *c, int status, void *ctx)
{
	struct slot *s = ctx;

	CHECK(s->conn == c && s->outgoing_pending);
	s->outgoing_pending = false;
	if (status == IPX_OK) {
		struct spx_status st;

		/* Success means a connection the application may use. */
		spx_get_status(c, &st);
		CHECK(st.state == SPX_ESTABLISHED || st.state == SPX_CLOSING);
	} else {
		CHECK(status == IPX_ETIMEOUT || status == IPX_ECLOSED ||
		      status == IPX_EREFUSED);
		slot_end(s, status);
	}
}

static void on_closed(struct spx_conn *c, int reason, void *ctx)
{
	struct slot *s = ctx;

	CHECK(s->conn == c && !s->outgoing_pending);
	CHECK(reason == IPX_OK || reason == IPX_EABORTED ||
	      reason == IPX_ECLOSED);
	if (s->main && reason == IPX_OK && !s->w->forged) {
		struct spx_status st;

		/* Both released: everything arrived both ways. */
		spx_get_status(c, &st);
		if (st.released && st.peer_released)
			CHECK(s->w->s[s->side].rx_bytes ==
			      s->w->s[1 - s->side].tx_bytes);
	}
	slot_end(s, reason);
}

/* Called when the send queue has room again after IPX_EAGAIN. */
static void on_sendable(struct spx_conn *c, void *ctx)
{
	struct slot *s = ctx;

	CHECK(s->conn == c);
	CHECK(spx_send_space(c) > 0);
}

static const struct spx_handlers handlers = {
	.on_connected = on_connected,
	.on_data = on_data,
	.on_sendable = on_sendable,
	.on_closed = on_closed,
};

static void on_accept(struct spx_listener *l, struct spx_conn *c, void *ctx)
{
	struct side *me = ctx;
	struct world *w = me->w;
	struct slot *s;
	struct spx_status st;

	(void)l;
	spx_get_status(c, &st);
	CHECK(st.state == SPX_ESTABLISHED);
	s = slot_new(w, me->idx);
	s->conn = c;
	me->live++;
	/* The connection made during set-up is B's main one. */
	if (w->in_setup && me->idx == 1 && !me->had_main) {
		s->main = true;
		me->main = s;
		me->had_main = true;
	}
	spx_set_handlers(c, &handlers, s);
	if (me->refuse_next && !s->main) {
		/* The application says no: SPX must free it only after the
		 * callback returns. */
		me->refuse_next = false;
		spx_abort(c);
		CHECK(!s->used);
	}
}

/* ---- the world ---- */

/* The variant, from the first input byte. */
struct variant {
	bool b_spx1;		/* B speaks SPX I only */
	bool a_spx1;		/* A does not offer SPX II */
	size_t mtu;
	bool small_window;	/* SPX II window 4 instead of 32 */
	bool small_queue;	/* 2 KiB send queue instead of 64 KiB */
	bool lossy;		/* faults from the start */
	bool short_timers;	/* watchdog and retries in a few ticks */
};

static void parse_variant(uint8_t b, struct variant *v)
{
	static const size_t mtus[4] = { 576, 1000, 1424, 1500 };

	v->b_spx1 = b & 0x01;
	v->a_spx1 = b & 0x02;
	v->mtu = mtus[(b >> 2) & 3];
	v->small_window = b & 0x10;
	v->small_queue = b & 0x20;
	v->lossy = b & 0x40;
	v->short_timers = b & 0x80;
}

static void set_faults(struct world *w, unsigned profile)
{
	struct ipx_mem_faults f;

	memset(&f, 0, sizeof(f));
	switch (profile & 3) {
	case 1:	/* lossy: loss, duplication, reordering */
		f.loss_ppm = 100000;
		f.dup_ppm = 50000;
		f.reorder_ppm = 50000;
		f.delay = IPX_MSEC;
		f.reorder_delay = 3 * IPX_MSEC;
		break;
	case 2:	/* cut: everything lost */
		f.loss_ppm = 1000000;
		break;
	case 3:	/* duplication and delay only */
		f.dup_ppm = 300000;
		f.delay = 2 * IPX_MSEC;
		f.jitter = IPX_MSEC;
		break;
	default:
		break;
	}
	ipx_mem_segment_set_faults(w->seg, &f);
}

static bool main_settled(void *ctx)
{
	struct world *w = ctx;

	/* A connected (or gave up) and B accepted. */
	return (w->s[0].main == NULL || !w->s[0].main->outgoing_pending) &&
	       (w->s[1].had_main || w->s[0].main == NULL);
}

static void world_init(struct world *w, const struct variant *v)
{
	struct ipx_addr dst;
	struct slot *s;

	memset(w, 0, sizeof(*w));
	ipx_clock_fake_init(&w->clock, 1000 * IPX_SEC);
	w->loop = ipx_loop_new(&w->clock);
	CHECK(w->loop);
	w->seg = ipx_mem_segment_new(w->loop, NET, 7);
	CHECK(w->seg);
	w->mtu = v->mtu;
	ipx_mem_segment_set_mtu(w->seg, v->mtu);
	ipx_config_defaults(&w->cfg);
	w->cfg.spx_connections = MAX_CONNS;
	if (v->short_timers) {
		w->cfg.ipx_retry_count = 3;
		w->cfg.spx_listen_timeout = 4;
		w->cfg.spx_verify_timeout = 2;
		w->cfg.spx_abort_timeout = 20;
	}
	for (int i = 0; i < 2; i++) {
		struct side *sd = &w->s[i];

		sd->w = w;
		sd->idx = i;
		w->opts[i].spx2 = !(i == 0 ? v->a_spx1 : v->b_spx1);
		w->opts[i].window = v->small_window ? 4 : 0;
		w->opts[i].send_queue = v->small_queue ? 2048 : 0;
		sd->node = ipx_node_new(w->loop, &w->cfg);
		CHECK(sd->node);
		sd->link = ipx_mem_link_new(w->seg, NULL);	/* 02:..:0(i+1) */
		CHECK(sd->link);
		CHECK(ipx_node_add_link(sd->node, sd->link) == IPX_OK);
		sd->spx = spx_new(sd->node, &w->opts[i]);
		CHECK(sd->spx);
		sd->lst_socket = i == 0 ? SOCK_A : SOCK_B;
		CHECK(spx_listen(sd->spx, sd->lst_socket, on_accept, sd,
				 &sd->lst) == IPX_OK);
	}
	if (v->lossy)
		set_faults(w, 1);

	/* The main connection, A to B. */
	w->in_setup = true;
	ipx_node_address(w->s[1].node, &dst);
	dst.socket = SOCK_B;
	s = slot_new(w, 0);
	s->main = true;
	s->outgoing_pending = true;
	CHECK(spx_connect(w->s[0].spx, &dst, &handlers, s, &s->conn) ==
	      IPX_OK);
	w->s[0].live++;
	w->s[0].main = s;
	w->s[0].had_main = true;
	ipx_loop_run_until(w->loop, main_settled, w, 60 * IPX_SEC);
	/* Let the size negotiation finish on both ends. */
	ipx_loop_run_for(w->loop, 50 * IPX_MSEC);
	w->in_setup = false;
}

static void world_free(struct world *w)
{
	for (int i = 0; i < 2; i++) {
		spx_free(w->s[i].spx);
		ipx_node_free(w->s[i].node);
	}
	ipx_mem_segment_free(w->seg);
	ipx_loop_free(w->loop);
}

/* ---- checks after every record ---- */

static void check_conn_status(struct world *w, const struct slot *s)
{
	struct spx_status st;
	const struct spx_options *o = &w->opts[s->side];
	size_t queue = o->send_queue ? o->send_queue : 64 * 1024;
	size_t hdr;

	spx_get_status(s->conn, &st);
	CHECK(st.state != SPX_CLOSED);
	CHECK(st.version == 1 || st.version == 2);
	hdr = st.version == 2 ? SPX2_HDR_LEN : SPX_HDR_LEN;
	CHECK(st.in_flight <= st.window);
	CHECK(st.queued_bytes <= queue);
	CHECK(st.max_data > 0 && IPX_HDR_LEN + hdr + st.max_data <= w->mtu);
	if (st.version == 1)
		CHECK(st.window == 1);
}

static void trace_world(struct world *w)
{
	static const char *const states[] = { "connecting", "negotiating",
					      "established", "closing",
					      "closed" };

	if (!trace)
		return;
	for (int i = 0; i < 2; i++) {
		struct side *sd = &w->s[i];
		struct spx_status st;

		fprintf(stderr, "    %c: conns %zu tx %llu rx %llu%s", "AB"[i],
			spx_conn_count(sd->spx),
			(unsigned long long)sd->tx_bytes,
			(unsigned long long)sd->rx_bytes,
			sd->tainted ? " tainted" : "");
		if (sd->main) {
			spx_get_status(sd->main->conn, &st);
			fprintf(stderr, " | main %04X->%04X SPX%s %s max %zu "
				"win %u flight %u queued %zu rx_data %llu "
				"tx_data %llu rexmit %llu rtt %llu/%lluus "
				"rto %lluus",
				st.local_id, st.remote_id,
				st.version == 2 ? "II" : "I",
				states[st.state], st.max_data, st.window,
				st.in_flight, st.queued_bytes,
				(unsigned long long)st.stats.rx_data,
				(unsigned long long)st.stats.tx_data,
				(unsigned long long)st.stats.retransmits,
				(unsigned long long)st.stats.rtt_samples,
				(unsigned long long)st.srtt,
				(unsigned long long)st.rto);
		} else {
			fprintf(stderr, " | main ended (%d)",
				sd->main_end - 1000);
		}
		fprintf(stderr, "\n");
	}
}

static void check_world(struct world *w)
{
	for (int i = 0; i < 2; i++) {
		struct side *sd = &w->s[i];

		CHECK(spx_conn_count(sd->spx) <= MAX_CONNS);
		CHECK(spx_conn_count(sd->spx) == sd->live);
		CHECK(ipx_node_stats(sd->node)->drops[IPX_DROP_TX_TOOBIG] == 0);
		CHECK(sd->rx_bytes <= w->s[1 - i].tx_bytes || sd->tainted);
	}
	for (int i = 0; i < MAX_SLOTS; i++)
		if (w->slots[i].used)
			check_conn_status(w, &w->slots[i]);
}

/* ---- the header codec ---- */

static void check_codec(const uint8_t *p, size_t len)
{
	struct spx_header h, h2;
	uint8_t enc[SPX2_HDR_LEN];
	int rc = spx_header_decode(p, len, &h);
	bool spx2_form;

	if (len < SPX_HDR_LEN) {
		CHECK(rc == IPX_ESHORT);
		return;
	}
	spx2_form = (p[0] & SPX_CC_SPX2) && ipx_get16(p + 4) != SPX_CONN_UNKNOWN;
	if (spx2_form && len < SPX2_HDR_LEN) {
		CHECK(rc == IPX_ESHORT);
		return;
	}
	CHECK(rc == IPX_OK);
	CHECK(h.hdr_len == (spx2_form ? SPX2_HDR_LEN : SPX_HDR_LEN));
	CHECK(h.hdr_len <= len);
	if (!spx2_form)
		CHECK(h.neg_size == 0);
	memset(enc, 0xA5, sizeof(enc));
	spx_header_encode(&h, enc);
	CHECK(memcmp(enc, p, h.hdr_len) == 0);
	if (h.hdr_len == SPX_HDR_LEN)
		CHECK(enc[12] == 0xA5 && enc[13] == 0xA5);
	CHECK(spx_header_decode(enc, h.hdr_len, &h2) == IPX_OK);
	CHECK(h2.cc == h.cc && h2.ds == h.ds && h2.src_id == h.src_id &&
	      h2.dst_id == h.dst_id && h2.seq == h.seq && h2.ack == h.ack &&
	      h2.alloc == h.alloc && h2.neg_size == h.neg_size &&
	      h2.hdr_len == h.hdr_len);
	/* Sequence order: irreflexive, and exactly one direction for any
	 * two numbers less than half the space apart. */
	CHECK(!spx_seq_lt(h.seq, h.seq) && spx_seq_le(h.seq, h.seq));
	if (h.seq != h.ack && (uint16_t)(h.seq - h.ack) != 0x8000)
		CHECK(spx_seq_lt(h.seq, h.ack) != spx_seq_lt(h.ack, h.seq));
	CHECK(spx_seq_lt(h.seq, (uint16_t)(h.seq + 1)));
	CHECK(spx_seq_lt((uint16_t)(h.seq + 0x7FFF), h.seq) == false);
}

/* ---- records ---- */

struct input {
	const uint8_t *p;
	size_t n, off;
};

static bool take(struct input *in, uint8_t *b)
{
	if (in->off >= in->n)
		return false;
	*b = in->p[in->off++];
	return true;
}

static uint8_t take0(struct input *in)
{
	uint8_t b = 0;

	take(in, &b);
	return b;
}

/* The receive window of a main end: the allocation it advertises. */
static uint16_t rx_window(const struct spx_status *st)
{
	return st->version == 2 ? (uint16_t)st->window : 4;
}

/*
 * INJECT: [op | target<<4 | patch<<5 | seqmode<<6] [sel] [more] [len]
 *         [len bytes]
 *   target  0: A, 1: B
 *   patch   put the main connection's ids into the header
 *   seqmode (data packets, patched only) 0 raw, 1 a duplicate (below the
 *           next expected), 2 beyond the allocation, 3 inside the window
 *   sel     bits 0-1 destination socket: the main connection's, the
 *           listener's, SOCK_NOBODY, the peer's listener;
 *           bits 2-3 source: the true peer, the peer's node on another
 *           socket, a stranger (02:..:09), ourselves;
 *           bit 4: acknowledge number = what the peer has had + k % 4;
 *           bit 5: allocation = acknowledge + k;
 *           bits 6-7: size: as given, or zero-padded to 576 bytes, to
 *           the MTU, or to one byte over it (negotiation packets)
 *   more    bit 7: aim at the newest other connection of the target
 *           node instead of its main end; bits 0-6: k, an offset for the
 *           numbers above
 */
static void op_inject(struct world *w, uint8_t opb, struct input *in)
{
	static const uint8_t stranger[IPX_NODE_LEN] = { 2, 0, 0, 0, 0, 9 };
	int x = (opb >> 4) & 1;
	bool patch = opb & 0x20;
	unsigned seqmode = (opb >> 6) & 3;
	uint8_t sel = take0(in);
	uint8_t more = take0(in);
	uint16_t k = more & 0x7F;
	size_t len = take0(in), wire;
	struct side *me = &w->s[x], *peer = &w->s[1 - x];
	uint8_t pkt[IPX_MAX_PACKET + 1];
	uint8_t *sp = pkt + IPX_HDR_LEN;
	struct ipx_header ih;
	struct spx_status st, pst, mst;
	struct slot *tgt = me->main;
	bool have, phave = peer->main != NULL;
	struct spx_header h;

	if (more & 0x80) {
		/* The newest connection of this node that is not main. */
		tgt = NULL;
		for (int i = MAX_SLOTS - 1; i >= 0 && !tgt; i--)
			if (w->slots[i].used && !w->slots[i].main &&
			    w->slots[i].side == x)
				tgt = &w->slots[i];
	}
	have = tgt != NULL;

	if (len > in->n - in->off)
		len = in->n - in->off;
	memset(pkt, 0, sizeof(pkt));
	memcpy(sp, in->p + in->off, len);
	in->off += len;
	switch (sel >> 6) {
	case 1:
		wire = 576;
		break;
	case 2:
		wire = w->mtu;
		break;
	case 3:
		wire = w->mtu + 1;
		break;
	default:
		wire = IPX_HDR_LEN + len;
		break;
	}
	if (wire < IPX_HDR_LEN + len)
		wire = IPX_HDR_LEN + len;
	len = wire - IPX_HDR_LEN;	/* the padding is part of it */
	if (have)
		spx_get_status(tgt->conn, &st);
	if (me->main)
		spx_get_status(me->main->conn, &mst);
	if (phave)
		spx_get_status(peer->main->conn, &pst);

	memset(&ih, 0, sizeof(ih));
	ih.checksum = IPX_NO_CHECKSUM;
	ih.type = IPX_TYPE_SPX;
	ipx_node_address(me->node, &ih.dst);
	ipx_node_address(peer->node, &ih.src);
	ih.dst.net = ih.src.net = NET;
	switch (sel & 3) {
	case 0:
		ih.dst.socket = have ? st.local.socket : me->lst_socket;
		break;
	case 1:
		ih.dst.socket = me->lst_socket;
		break;
	case 2:
		ih.dst.socket = SOCK_NOBODY;
		break;
	default:
		ih.dst.socket = peer->lst_socket;
		break;
	}
	ih.src.socket = have ? st.remote.socket : peer->lst_socket;
	switch ((sel >> 2) & 3) {
	case 1:
		ih.src.socket ^= 0x0101;
		break;
	case 2:
		memcpy(ih.src.node, stranger, IPX_NODE_LEN);
		break;
	case 3:
		ih.src = ih.dst;
		ih.src.socket = 0x4444;
		break;
	default:
		break;
	}
	if (patch && have && len >= 6) {
		/* (A peer id not known yet stays as the input gave it.) */
		if (st.remote_id != SPX_CONN_UNKNOWN)
			ipx_put16(sp + 2, st.remote_id);
		ipx_put16(sp + 4, st.local_id);
	}
	if (patch && have && len >= 10 && (sel & 0x10) && phave)
		ipx_put16(sp + 8, (uint16_t)(pst.stats.rx_data + k % 4));
	if (patch && have && len >= 12 && (sel & 0x20))
		ipx_put16(sp + 10, (uint16_t)(ipx_get16(sp + 8) + k));
	if (patch && have && len >= 8 && !(sp[0] & SPX_CC_SYS) && seqmode) {
		uint16_t next = (uint16_t)st.stats.rx_data;
		uint16_t win = rx_window(&st);

		if (seqmode == 1)
			ipx_put16(sp + 6, (uint16_t)(next - 1 - k * 97));
		else if (seqmode == 2)
			ipx_put16(sp + 6, (uint16_t)(next + win + k * 97));
		else
			ipx_put16(sp + 6, (uint16_t)(next + k % win));
	}
	check_codec(sp, len);

	/* May this packet become the next data of a main end? */
	if (me->main && spx_header_decode(sp, len, &h) == IPX_OK &&
	    !(h.cc & SPX_CC_SYS) && h.dst_id == mst.local_id &&
	    (uint16_t)(h.seq - (uint16_t)mst.stats.rx_data) < rx_window(&mst))
		me->tainted = true;

	if (trace) {
		char a1[IPX_ADDR_STRLEN], a2[IPX_ADDR_STRLEN];

		fprintf(stderr, "    to %c %s from %s, %zu bytes:", "AB"[x],
			ipx_addr_format(&ih.dst, a1),
			ipx_addr_format(&ih.src, a2), len);
		for (size_t i = 0; i < len && i < 24; i++)
			fprintf(stderr, " %02X", sp[i]);
		fprintf(stderr, "%s%s\n", len > 24 ? " ..." : "",
			me->tainted ? " (taints)" : "");
	}
	ih.length = (uint16_t)wire;
	ipx_header_encode(&ih, pkt);
	w->forged = true;
	ipx_node_input(me->node, me->link, pkt, wire);
}

/* SEND: [op | side<<4 | eom<<5 | attn<<6 | big<<7] [len] [ds] */
static void op_send(struct world *w, uint8_t opb, struct input *in)
{
	static uint8_t buf[8 * 255 + 1];
	int x = (opb >> 4) & 1;
	struct side *me = &w->s[x];
	unsigned flags = ((opb & 0x20) ? SPX_EOM : 0) |
			 ((opb & 0x40) ? SPX_ATTN : 0);
	size_t len = (size_t)take0(in) * ((opb & 0x80) ? 8 : 1);
	uint8_t ds = take0(in);
	struct spx_status st;
	size_t space;
	int rc;

	if (!me->main || me->main->outgoing_pending)
		return;
	if (me->ncalls == MAX_CALLS || me->tx_bytes + len > MAX_TX)
		return;
	for (size_t i = 0; i < len; i++)
		buf[i] = pattern(x, me->tx_bytes + i);
	spx_get_status(me->main->conn, &st);
	space = spx_send_space(me->main->conn);
	rc = spx_send(me->main->conn, buf, len, flags, ds);
	TRACE("    %c spx_send %zu bytes flags %02X ds %02X: %d\n", "AB"[x],
	      len, flags, ds, rc);
	if (ds >= SPX_DS_RELEASE) {
		CHECK(rc == IPX_EINVAL || rc == IPX_ENOTCONN);
		return;
	}
	if (st.state != SPX_ESTABLISHED) {
		CHECK(rc == IPX_ENOTCONN);
		return;
	}
	CHECK(rc == IPX_OK || rc == IPX_EAGAIN || rc == IPX_ETOOBIG ||
	      rc == IPX_ENOTCONN);
	if (rc == IPX_OK)
		CHECK(len <= space);
	if (rc == IPX_EAGAIN)
		CHECK(len > space);
	if (rc != IPX_OK)
		return;
	me->calls[me->ncalls++] = (struct call){ .start = me->tx_bytes,
						  .end = me->tx_bytes + len,
						  .flags = (uint8_t)flags,
						  .ds = ds };
	me->tx_bytes += len;
}

/* CONNECT: [op | side<<4 | nobody<<5 | refuse<<6]: a new connection
 * from the side to the other's listener (or to a socket nobody listens
 * on); refuse: the listener aborts it inside its accept callback. */
static void op_connect(struct world *w, uint8_t opb)
{
	int x = (opb >> 4) & 1;
	struct side *me = &w->s[x], *peer = &w->s[1 - x];
	struct ipx_addr dst;
	struct slot *s;
	size_t before = spx_conn_count(me->spx);
	int rc;

	if (opb & 0x40)
		peer->refuse_next = true;
	ipx_node_address(peer->node, &dst);
	dst.socket = (opb & 0x20) ? SOCK_NOBODY : peer->lst_socket;
	s = slot_new(w, x);
	s->outgoing_pending = true;
	rc = spx_connect(me->spx, &dst, &handlers, s, &s->conn);
	if (rc != IPX_OK) {
		CHECK(rc == IPX_ECONNFULL);
		CHECK(before >= MAX_CONNS);
		s->used = false;
		return;
	}
	me->live++;
}

/* END_OTHER: [op | close<<4] [index]: the index-th live connection that
 * is not a main end. */
static void op_end_other(struct world *w, uint8_t opb, struct input *in)
{
	unsigned want = take0(in) % MAX_SLOTS;

	for (unsigned n = 0; n < MAX_SLOTS; n++) {
		struct slot *s = &w->slots[(want + n) % MAX_SLOTS];
		struct side *me;
		size_t before;

		if (!s->used || s->main)
			continue;
		me = &w->s[s->side];
		before = spx_conn_count(me->spx);
		if (opb & 0x10) {
			int rc = spx_close(s->conn);

			CHECK(rc == IPX_OK || rc == IPX_ENOTCONN);
		} else {
			spx_abort(s->conn);
			CHECK(!s->used);
			CHECK(spx_conn_count(me->spx) == before - 1);
		}
		return;
	}
}

enum end_how { END_CLOSE, END_ABORT, END_RELEASE };

static void op_end_main(struct world *w, uint8_t opb, enum end_how how)
{
	int x = (opb >> 4) & 1;
	struct side *me = &w->s[x];
	size_t before = spx_conn_count(me->spx);
	struct slot *s = me->main;

	if (!s)
		return;
	if (how == END_ABORT) {
		spx_abort(s->conn);
		CHECK(!s->used && me->main == NULL);
		CHECK(spx_conn_count(me->spx) == before - 1);
	} else if (how == END_RELEASE) {
		int rc = spx_release(s->conn);

		CHECK(rc == IPX_OK || rc == IPX_ENOTCONN);
	} else {
		int rc = spx_close(s->conn);

		CHECK(rc == IPX_OK || rc == IPX_ENOTCONN);
	}
}

static void op_relisten(struct world *w, uint8_t opb)
{
	struct side *me = &w->s[(opb >> 4) & 1];

	/* Closing a listener aborts the connections it accepted: B's main
	 * end among them. */
	spx_listener_close(me->lst);
	me->lst = NULL;
	CHECK(spx_listen(me->spx, me->lst_socket, on_accept, me, &me->lst) ==
	      IPX_OK);
}

/* ADVANCE: [op | unit<<4] [n]: (n % 32 + 1) units of simulated time:
 * 1 .. 32 ms, 10 .. 320 ms, 1 .. 32 ticks, 8 .. 256 ticks (14 s; the
 * default abort timeout of 540 ticks takes three such records). Every
 * simulated tick costs a watchdog sweep, so time is kept short. */
static void op_advance(struct world *w, uint8_t opb, struct input *in)
{
	static const ipx_time unit[4] = { IPX_MSEC, 10 * IPX_MSEC, IPX_TICK,
					  8 * IPX_TICK };
	ipx_time t = unit[(opb >> 4) & 3] * ((ipx_time)(take0(in) % 32) + 1);

	TRACE("    %.3f s\n", (double)t / IPX_SEC);
	CHECK(ipx_loop_run_for(w->loop, t) == IPX_OK);
}

/* Both directions of the main connection done (or an end gone). */
static bool all_delivered(void *ctx)
{
	struct world *w = ctx;
	struct side *a = &w->s[0], *b = &w->s[1];
	struct spx_status sa, sb;

	if (!a->main || !b->main)
		return true;
	spx_get_status(a->main->conn, &sa);
	spx_get_status(b->main->conn, &sb);
	return b->rx_bytes == a->tx_bytes && a->rx_bytes == b->tx_bytes &&
	       sa.queued_bytes == 0 && sb.queued_bytes == 0;
}

static void final_checks(struct world *w)
{
	struct side *a = &w->s[0], *b = &w->s[1];
	struct spx_status sa, sb;
	int rc;

	if (w->forged || !a->main || !b->main)
		return;
	/*
	 * Liveness: lift the faults and wait. A retransmission is due within
	 * the largest timeout (5 s); after that SPX II recovers a burst of
	 * lost packets one per retransmission timeout (500 ms before any
	 * round trip was measured), so a whole window (32) takes up to about
	 * 21 s of simulated time. Most inputs are done at once.
	 */
	set_faults(w, 0);
	rc = ipx_loop_run_until(w->loop, all_delivered, w, 40 * IPX_SEC);
	TRACE("final: faults lifted, %s at %.3f s\n",
	      rc == IPX_OK ? "all delivered" : "NOT all delivered",
	      (double)ipx_loop_now(w->loop) / IPX_SEC - 1000);
	trace_world(w);
	check_world(w);
	if (!a->main || !b->main)
		return;
	spx_get_status(a->main->conn, &sa);
	spx_get_status(b->main->conn, &sb);
	/* Ends that have not closed deliver everything, sooner or later. */
	if (sa.state != SPX_ESTABLISHED || sb.state != SPX_ESTABLISHED)
		return;
	CHECK(b->rx_bytes == a->tx_bytes);
	CHECK(a->rx_bytes == b->tx_bytes);
	CHECK(sa.queued_bytes == 0 && sb.queued_bytes == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool quiet;
	struct world *w;
	struct variant v;
	struct input in = { data, size, 1 };
	unsigned records = 0;
	uint8_t opb;

	if (!quiet) {
		ipx_log_set_level(IPX_LOG_ERROR);
		trace = getenv("FUZZ_SPX_TRACE") != NULL;
		quiet = true;
	}
	/* The codec on the raw input, as if it were an SPX payload. */
	check_codec(data, size);
	if (size < 1)
		return 0;
	w = calloc(1, sizeof(*w));
	CHECK(w);
	parse_variant(data[0], &v);
	world_init(w, &v);
	check_world(w);
	TRACE("variant %02X: B %s, A %s, MTU %zu%s%s%s%s\n", data[0],
	      v.b_spx1 ? "SPX I only" : "SPX II", v.a_spx1 ? "no SPX II" : "SPX II",
	      v.mtu, v.small_window ? ", window 4" : "",
	      v.small_queue ? ", queue 2 KiB" : "", v.lossy ? ", lossy" : "",
	      v.short_timers ? ", short timers" : "");
	trace_world(w);
	while (records++ < MAX_RECORDS && take(&in, &opb)) {
		TRACE("@%zu %02X %s\n", in.off - 1, opb,
		      op_names[(opb & 0x0F) % OP_COUNT]);
		switch ((enum op)((opb & 0x0F) % OP_COUNT)) {
		case OP_INJECT:
			op_inject(w, opb, &in);
			break;
		case OP_ADVANCE:
			op_advance(w, opb, &in);
			break;
		case OP_SEND:
			op_send(w, opb, &in);
			break;
		case OP_CLOSE:
			op_end_main(w, opb, END_CLOSE);
			break;
		case OP_ABORT:
			op_end_main(w, opb, END_ABORT);
			break;
		case OP_CONNECT:
			op_connect(w, opb);
			break;
		case OP_FAULTS:
			set_faults(w, opb >> 4);
			break;
		case OP_END_OTHER:
			op_end_other(w, opb, &in);
			break;
		case OP_RELISTEN:
			op_relisten(w, opb);
			break;
		case OP_RELEASE:
			op_end_main(w, opb, END_RELEASE);
			break;
		case OP_DISCONNECT:
			if (w->s[(opb >> 4) & 1].main &&
			    !w->s[(opb >> 4) & 1].main->outgoing_pending) {
				struct side *me = &w->s[(opb >> 4) & 1];

				spx_disconnect(me->main->conn);
				CHECK(me->main == NULL);
			}
			break;
		default:
			break;
		}
		check_world(w);
		trace_world(w);
	}
	final_checks(w);
	world_free(w);
	free(w);
	return 0;
}
