/*
 * fuzz_netbios.c - libFuzzer harness for the NetBIOS module (src/netbios):
 * every receive path (names, look-ups, datagrams, status, sessions) and
 * the NCB interface, driven together on the fake clock.
 *
 * Each input builds a fresh world: three nodes on one in-memory segment,
 * each with its NetBIOS module; A holds ALPHA, B holds BRAVO (and LISTENs),
 * and A has CALLed B: the "main" session, whose two directions carry
 * checked byte streams. The first byte picks the variant (limits, timers,
 * faults); then records, one opcode byte and its arguments each:
 *
 *   INJECT   a packet from fuzz bytes fed to a node by ipx_node_input:
 *            type 4 or 20 or any, from another node's socket 0x455 or
 *            anywhere; optionally aimed at the main session (its ids)
 *   ADVANCE  run the loop 1 ms .. 8 s
 *   SUBMIT   an NCB from a pool of 12 per node: any command, with names
 *            from a short list, lengths, numbers, session numbers (the
 *            main one or any) and timeouts from the input
 *   CANCEL   a CANCEL of one of the pool's NCBs
 *   FAULTS   none, lossy, dead, duplicating
 *
 * Invariants (CHECK aborts): POST runs exactly once for each command
 * nb_submit left pending, never for one it finished, with a final return
 * code; pending commands and sessions never exceed NETBIOS COMMANDS and
 * SESSIONS; what RECEIVEs on the main session deliver is exactly the next
 * bytes the other end SENT (unless a forged session packet was aimed at
 * that end); no packet the module sends is too big for the link.
 */
#include <stdlib.h>
#include <string.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/link_mem.h"
#include "ipxlab/log.h"
#include "ipxlab/netbios.h"

#include "fuzz_common.h"

#define NODES 3
#define POOL 12

struct slot {
	struct nb_ncb ncb;
	bool pending;
	int node;
	uint8_t buf[70000];
};

struct world {
	struct ipx_clock clk;
	struct ipx_loop *loop;
	struct ipx_mem_segment *seg;
	struct ipx_config cfg;
	struct ipx_node *node[NODES];
	struct netbios *nb[NODES];
	struct slot *pool;	/* NODES * POOL */
	uint8_t lsn[2];		/* main session: A's, B's */
	uint16_t id[2];		/* and its connection ids there */
	uint64_t sent[2];	/* stream bytes SENT from A, from B */
	uint64_t got[2];	/* stream bytes received by B, by A */
	bool tainted[2];	/* forged data aimed at B's end, A's end */
};

static struct world *W;

static const char *const names[] = { "ALPHA", "BRAVO", "CHARLIE<20>",
				     "CREW", "*", "NOBODY" };

static uint8_t pattern(int dir, uint64_t off)
{
	uint64_t x = (off + 1) * 0x9E3779B97F4A7C15ull ^ (uint64_t)dir << 40;

	return (uint8_t)(x >> 56);
}

/* The main session's number at A (0) or B (1); 0 once it has ended
 * (the number may be given to a new session then). */
static uint8_t main_lsn(int node)
{
	struct nb_session_info si;

	if (W->lsn[node] &&
	    (nb_session_info(W->nb[node], W->lsn[node], &si) != IPX_OK ||
	     si.local_id != W->id[node]))
		W->lsn[node] = 0;
	return W->lsn[node];
}

/* Data RECEIVEd on the main session: the next bytes of the stream. */
static void check_stream(int node, const struct nb_ncb *ncb)
{
	int dir = node == 1 ? 0 : 1;	/* B receives A's stream */

	/* (a RECEIVE that ends with its session reports what it took, but
	 * the session is gone by then: nothing follows it to compare) */
	if (node > 1 || !ncb->length || !main_lsn(node) ||
	    ncb->lsn != W->lsn[node])
		return;
	for (size_t i = 0; i < ncb->length; i++) {
		if (!W->tainted[dir])
			CHECK(ncb->buffer[i] == pattern(dir, W->got[dir] + i));
	}
	W->got[dir] += ncb->length;
	if (!W->tainted[dir])
		CHECK(W->got[dir] <= W->sent[dir]);
}

static void post(struct nb_ncb *ncb)
{
	struct slot *s = ncb->ctx;

	CHECK(s->pending);
	CHECK(ncb->retcode != NB_RC_PENDING);
	s->pending = false;
	/* Whatever a RECEIVE ends with, the bytes it reports were taken. */
	if (ncb->command == NB_RECEIVE || ncb->command == NB_RECEIVE_ANY)
		check_stream(s->node, ncb);
}

/* ---- input reading ---- */

struct in {
	const uint8_t *p;
	size_t n;
};

static uint8_t byte(struct in *in)
{
	if (!in->n)
		return 0;
	in->n--;
	return *in->p++;
}

static uint16_t word(struct in *in)
{
	return (uint16_t)(byte(in) << 8 | byte(in));
}

/* ---- the world ---- */

static void wait_posted(struct slot *s, ipx_time limit)
{
	ipx_time end = ipx_loop_now(W->loop) + limit;

	while (s->pending && ipx_time_before(ipx_loop_now(W->loop), end))
		if (ipx_loop_run_once(W->loop, 0) == IPX_EAGAIN)
			break;
}

static uint8_t submit(struct slot *s)
{
	uint8_t rc;

	s->ncb.post = post;
	s->ncb.ctx = s;
	s->pending = true;
	rc = nb_submit(W->nb[s->node], &s->ncb);
	if (rc != NB_RC_PENDING) {
		s->pending = false;
		CHECK(s->ncb.retcode == rc);
	}
	return rc;
}

static void setup(uint8_t variant)
{
	struct slot *s;

	static struct slot pool[NODES * POOL];

	W = calloc(1, sizeof(*W));
	/* (the buffers are big: only the NCBs are cleared per input) */
	W->pool = pool;
	for (int i = 0; i < NODES * POOL; i++) {
		memset(&pool[i].ncb, 0, sizeof(pool[i].ncb));
		pool[i].pending = false;
	}
	ipx_clock_fake_init(&W->clk, 0);
	W->loop = ipx_loop_new(&W->clk);
	W->seg = ipx_mem_segment_new(W->loop, 0x10, variant);
	if (variant & 1)
		ipx_mem_segment_set_mtu(W->seg, 576);
	ipx_config_defaults(&W->cfg);
	W->cfg.netbios_commands = variant & 2 ? 4 : 12;
	W->cfg.netbios_sessions = variant & 4 ? 4 : 32;
	W->cfg.netbios_send_buffers = W->cfg.netbios_receive_buffers =
		variant & 8 ? 4 : 20;
	W->cfg.netbios_retry_count = 1 + (variant >> 4 & 3);
	W->cfg.netbios_broadcast_count = 1 + (variant >> 6 & 1);
	W->cfg.netbios_broadcast_delay = 1;
	W->cfg.netbios_abort_timeout = 60;
	for (int i = 0; i < NODES; i++) {
		W->node[i] = ipx_node_new(W->loop, &W->cfg);
		ipx_node_add_link(W->node[i], ipx_mem_link_new(W->seg, NULL));
		CHECK(nb_open(W->node[i], NULL, &W->nb[i]) == IPX_OK);
		for (int k = 0; k < POOL; k++)
			W->pool[i * POOL + k].node = i;
	}
	/* A: ALPHA, B: BRAVO, B listens, A calls. */
	for (int i = 0; i < 2; i++) {
		s = &W->pool[i * POOL];
		s->ncb.command = NB_ADD_NAME;
		nb_name_parse(names[i], false, s->ncb.name);
		submit(s);
	}
	ipx_loop_run_for(W->loop, 2 * IPX_SEC);
	s = &W->pool[1 * POOL + 1];
	s->ncb.command = NB_LISTEN;
	nb_name_parse("BRAVO", false, s->ncb.name);
	nb_name_parse("*", true, s->ncb.callname);
	submit(s);
	s = &W->pool[0 * POOL + 1];
	s->ncb.command = NB_CALL;
	nb_name_parse("ALPHA", false, s->ncb.name);
	nb_name_parse("BRAVO", false, s->ncb.callname);
	if (submit(s) == NB_RC_PENDING)
		wait_posted(s, 10 * IPX_SEC);
	ipx_loop_run_for(W->loop, 100 * IPX_MSEC);
	if (s->ncb.retcode == NB_RC_OK &&
	    W->pool[POOL + 1].ncb.retcode == NB_RC_OK) {
		struct nb_session_info si;

		W->lsn[0] = s->ncb.lsn;
		W->lsn[1] = W->pool[POOL + 1].ncb.lsn;
		for (int i = 0; i < 2; i++) {
			CHECK(nb_session_info(W->nb[i], W->lsn[i], &si) == IPX_OK);
			W->id[i] = si.local_id;
		}
	}
}

static void teardown(void)
{
	for (int i = 0; i < NODES; i++) {
		CHECK(ipx_node_stats(W->node[i])->drops[IPX_DROP_TX_TOOBIG] == 0);
		nb_close(W->nb[i]);
		ipx_node_free(W->node[i]);
	}
	ipx_mem_segment_free(W->seg);
	ipx_loop_free(W->loop);
	free(W);
	W = NULL;
}

/* ---- records ---- */

static void inject(struct in *in)
{
	uint8_t pkt[IPX_MAX_PACKET];
	struct ipx_header h = { .checksum = IPX_NO_CHECKSUM };
	int to = byte(in) % NODES, from = byte(in) % (NODES + 1);
	uint8_t kind = byte(in);
	size_t len = byte(in) | (size_t)(byte(in) & 3) << 8;

	if (len > in->n)
		len = in->n;
	if (len > sizeof(pkt) - IPX_HDR_LEN)
		len = sizeof(pkt) - IPX_HDR_LEN;
	h.type = kind & 1 ? IPX_TYPE_NETBIOS : kind & 2 ? kind : IPX_TYPE_PEP;
	ipx_node_address(W->node[to], &h.dst);
	h.dst.socket = IPX_SOCK_NETBIOS;
	if (kind & 4)
		memcpy(h.dst.node, ipx_node_broadcast, IPX_NODE_LEN);
	if (from < NODES) {
		ipx_node_address(W->node[from], &h.src);
		h.src.socket = IPX_SOCK_NETBIOS;
		/* From the main session's peer: it may carry the session's
		 * ids (the fuzzer finds them), so it may be data. */
		if (to < 2 && from == 1 - to)
			W->tainted[to == 1 ? 0 : 1] = true;
	} else {
		h.src.net = 0x10;
		memcpy(h.src.node, "\x02\x00\x00\x00\x77\x77", 6);
		h.src.socket = 0x4000;
	}
	memcpy(pkt + IPX_HDR_LEN, in->p, len);
	in->p += len;
	in->n -= len;
	/* Aimed at the main session: its ids and next sequence number,
	 * from the peer. Data that passes is the stream now, as far as the
	 * protocol can tell: that direction is no longer compared. */
	if ((kind & 8) && to < 2 && main_lsn(to) && len >= NB_SESS_HDR_LEN &&
	    h.type != IPX_TYPE_NETBIOS) {
		struct nb_session_info si;
		uint8_t *sp = pkt + IPX_HDR_LEN;

		nb_session_info(W->nb[to], W->lsn[to], &si);
		ipx_put16le(sp + 2, si.remote_id);
		ipx_put16le(sp + 4, si.local_id);
		if (kind & 16)
			ipx_put16le(sp + 6, si.rcv_seq);
		h.src = si.remote;
		W->tainted[to == 1 ? 0 : 1] = true;
	}
	h.length = (uint16_t)(IPX_HDR_LEN + len);
	ipx_header_encode(&h, pkt);
	ipx_node_input(W->node[to], ipx_node_link(W->node[to], 0), pkt,
		       IPX_HDR_LEN + len);
}

static const uint8_t commands[] = {
	NB_CALL, NB_LISTEN, NB_HANG_UP, NB_SEND, NB_RECEIVE, NB_RECEIVE_ANY,
	NB_SEND_DATAGRAM, NB_RECEIVE_DATAGRAM, NB_SEND_BCAST_DATAGRAM,
	NB_RECEIVE_BCAST_DATAGRAM, NB_ADD_NAME, NB_DELETE_NAME,
	NB_ADAPTER_STATUS, NB_SESSION_STATUS, NB_ADD_GROUP_NAME, NB_FIND_NAME,
	0x7F,
};

static void submit_record(struct in *in)
{
	int node = byte(in) % NODES;
	struct slot *s = &W->pool[node * POOL + byte(in) % POOL];
	uint8_t a = byte(in), b = byte(in), c = byte(in);
	uint16_t len = word(in);
	uint8_t rc;

	if (s->pending)
		return;
	memset(&s->ncb, 0, sizeof(s->ncb));
	s->ncb.command = commands[a % sizeof(commands)];
	nb_name_parse(names[b % 6], true, s->ncb.name);
	nb_name_parse(names[c % 6], true, s->ncb.callname);
	s->ncb.buffer = b & 0x80 ? NULL : s->buf;
	s->ncb.length = len;
	s->ncb.num = c & 0x80 ? 0xFF : (uint8_t)(c & 7);
	s->ncb.lsn = node < 2 && (a & 0x80) ? main_lsn(node) : (uint8_t)(a >> 4);
	s->ncb.rto = (uint8_t)(b & 0x40 ? c & 3 : 0);
	s->ncb.sto = (uint8_t)(b & 0x20 ? a & 3 : 0);
	/* A SEND on the main session carries the next stream bytes. */
	if (s->ncb.command == NB_SEND && s->ncb.buffer && node < 2 &&
	    s->ncb.lsn && s->ncb.lsn == main_lsn(node)) {
		for (size_t i = 0; i < len; i++)
			s->buf[i] = pattern(node, W->sent[node] + i);
	}
	rc = submit(s);
	if (rc == NB_RC_PENDING && s->ncb.command == NB_SEND && node < 2 &&
	    s->ncb.lsn && s->ncb.lsn == main_lsn(node))
		W->sent[node] += len;
	CHECK(nb_pending(W->nb[node]) <= W->cfg.netbios_commands);
	CHECK(nb_session_count(W->nb[node]) <= W->cfg.netbios_sessions);
}

static void cancel_record(struct in *in)
{
	int node = byte(in) % NODES;
	struct slot *t = &W->pool[node * POOL + byte(in) % POOL];
	struct nb_ncb c = { .command = NB_CANCEL, .target = &t->ncb };

	if (!t->pending)
		return;
	(void)nb_submit(W->nb[node], &c);
}

static void faults_record(struct in *in)
{
	static const struct ipx_mem_faults f[4] = {
		{ .delay = IPX_MSEC },
		{ .loss_ppm = 200000, .delay = IPX_MSEC },
		{ .loss_ppm = 1000000 },
		{ .dup_ppm = 300000, .reorder_ppm = 100000,
		  .reorder_delay = 5 * IPX_MSEC },
	};

	ipx_mem_segment_set_faults(W->seg, &f[byte(in) % 4]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct in in = { data, size };

	ipx_log_set_level(IPX_LOG_ERROR);
	if (size < 1)
		return 0;
	setup(byte(&in));
	for (int steps = 0; in.n && steps < 200; steps++) {
		switch (byte(&in) % 5) {
		case 0:
			inject(&in);
			break;
		case 1:
			ipx_loop_run_for(W->loop,
					 (ipx_time)IPX_MSEC << (byte(&in) % 14));
			break;
		case 2:
			submit_record(&in);
			break;
		case 3:
			cancel_record(&in);
			break;
		default:
			faults_record(&in);
			break;
		}
		for (int i = 0; i < NODES; i++) {
			CHECK(nb_pending(W->nb[i]) <= W->cfg.netbios_commands);
			CHECK(nb_session_count(W->nb[i]) <=
			      W->cfg.netbios_sessions);
		}
	}
	ipx_loop_run_for(W->loop, IPX_SEC);
	teardown();
	return 0;
}
