/*
 * spx_capture.c - writes a pcap of SPX traffic for the tshark interop
 * test: SPX II sessions on the in-memory link with loss (so NAKs and
 * retransmissions appear), size negotiation, an SPX I session with idle
 * keepalives, watchdog probes toward a silent peer, informed disconnects
 * (queued and at once), the orderly release both ways (0xFC/0xFD) and a
 * busy listener's refusal. Usage: spx_capture FILE.pcap
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipxlab/err.h"
#include "ipxlab/link_mem.h"
#include "ipxlab/log.h"
#include "ipxlab/priv/pcap.h"
#include "ipxlab/spx.h"

static struct ipx_loop *loop;
static struct ipx_pcap *pc;
static struct spx_conn *accepted, *caller;
static int connected, closed;

static void tap(const uint8_t *pkt, size_t len, const uint8_t from[6],
		const uint8_t to[6], void *ctx)
{
	(void)ctx;
	ipx_pcap_write(pc, ipx_loop_now(loop), to, from, pkt, len);
}

static void on_connected(struct spx_conn *c, int status, void *ctx)
{
	(void)c;
	(void)ctx;
	connected = status == IPX_OK ? 1 : -1;
}

static void on_closed(struct spx_conn *c, int reason, void *ctx)
{
	(void)reason;
	(void)ctx;
	if (c == caller)
		caller = NULL;
	if (c == accepted)
		accepted = NULL;
	closed++;
}

static const struct spx_handlers handlers = { .on_connected = on_connected,
					      .on_closed = on_closed };

static void on_accept(struct spx_listener *l, struct spx_conn *c, void *ctx)
{
	(void)l;
	(void)ctx;
	accepted = c;
	spx_set_handlers(c, &handlers, NULL);
}

static bool is_connected(void *ctx)
{
	(void)ctx;
	return connected != 0;
}

/* One session from a to b: connect, send 'bytes', then close or not. */
static int session(struct spx *a, struct spx *b, struct ipx_node *bn,
		   uint16_t sock, size_t bytes, bool close_it)
{
	static uint8_t chunk[8192];
	struct spx_listener *l;
	struct ipx_addr dst;
	size_t sent = 0;

	if (spx_listen(b, sock, on_accept, NULL, &l) != IPX_OK)
		return -1;
	ipx_node_address(bn, &dst);
	dst.socket = sock;
	connected = 0;
	if (spx_connect(a, &dst, &handlers, NULL, &caller) != IPX_OK ||
	    ipx_loop_run_until(loop, is_connected, NULL, 60 * IPX_SEC) ||
	    connected != 1)
		return -1;
	for (size_t i = 0; i < sizeof(chunk); i++)
		chunk[i] = (uint8_t)(i * 7);
	while (sent < bytes && caller) {
		size_t n = bytes - sent < sizeof(chunk) ? bytes - sent
							: sizeof(chunk);

		if (spx_send(caller, chunk, n, SPX_EOM, 0) == IPX_OK)
			sent += n;
		else
			ipx_loop_run_for(loop, 20 * IPX_MSEC);
	}
	ipx_loop_run_for(loop, 2 * IPX_SEC);
	if (close_it && caller) {
		spx_close(caller);
		ipx_loop_run_for(loop, 2 * IPX_SEC);
	}
	return 0;
}

/* The orderly release both ways, a refused second caller, and a
 * disconnect at once (the one an interrupted program sends). */
static int release_refuse_disconnect(struct spx *a, struct spx *b,
				     struct ipx_node *bn)
{
	struct spx_listener *l;
	struct spx_conn *second;
	struct ipx_addr dst;

	if (session(a, b, bn, 0x5005, 3000, false) || !caller || !accepted)
		return -1;
	spx_release(caller);
	ipx_loop_run_for(loop, IPX_SEC);
	spx_release(accepted);
	ipx_loop_run_for(loop, IPX_SEC);
	if (caller || accepted)
		return -1;
	if (spx_listen(b, 0x5006, on_accept, NULL, &l) != IPX_OK)
		return -1;
	ipx_node_address(bn, &dst);
	dst.socket = 0x5006;
	connected = 0;
	if (spx_connect(a, &dst, &handlers, NULL, &caller) != IPX_OK ||
	    ipx_loop_run_until(loop, is_connected, NULL, 60 * IPX_SEC) ||
	    connected != 1)
		return -1;
	spx_listener_set_busy(l, true);
	connected = 0;
	if (spx_connect(a, &dst, &handlers, NULL, &second) != IPX_OK ||
	    ipx_loop_run_until(loop, is_connected, NULL, 60 * IPX_SEC) ||
	    connected != -1)
		return -1;
	spx_send(caller, "bye", 3, SPX_EOM, 0);
	spx_disconnect(caller);
	ipx_loop_run_for(loop, IPX_SEC);
	return accepted ? -1 : 0;
}

int main(int argc, char **argv)
{
	struct ipx_clock clk;
	struct ipx_mem_segment *seg;
	struct ipx_node *an, *bn, *cn;
	struct spx *a, *b, *c1;
	struct spx_options only1 = { .spx2 = false };
	struct ipx_mem_faults lossy = { .loss_ppm = 100000, .delay = IPX_MSEC };
	struct ipx_mem_faults clean = { .delay = IPX_MSEC };
	struct ipx_mem_faults dead = { .loss_ppm = 1000000 };
	char err[256];

	if (argc != 2) {
		fprintf(stderr, "usage: spx_capture FILE.pcap\n");
		return 2;
	}
	if (ipx_pcap_open(argv[1], &pc, err, sizeof(err)) != IPX_OK) {
		fprintf(stderr, "spx_capture: %s\n", err);
		return 1;
	}
	ipx_log_set_level(IPX_LOG_WARN);
	ipx_clock_fake_init(&clk, 1700000000ull * IPX_SEC);
	loop = ipx_loop_new(&clk);
	seg = ipx_mem_segment_new(loop, 0x00001234, 7);
	ipx_mem_segment_set_mtu(seg, 1000);
	ipx_mem_segment_set_tap(seg, tap, NULL);
	an = ipx_node_new(loop, NULL);
	bn = ipx_node_new(loop, NULL);
	cn = ipx_node_new(loop, NULL);
	ipx_node_add_link(an, ipx_mem_link_new(seg, NULL));
	ipx_node_add_link(bn, ipx_mem_link_new(seg, NULL));
	ipx_node_add_link(cn, ipx_mem_link_new(seg, NULL));
	a = spx_new(an, NULL);
	b = spx_new(bn, NULL);
	c1 = spx_new(cn, &only1);

	/* SPX II with loss: negotiation, windowed data, NAKs, disconnect. */
	ipx_mem_segment_set_faults(seg, &lossy);
	if (session(a, b, bn, 0x5001, 60000, true))
		return 1;
	/* SPX I (the peer speaks nothing else), idle keepalives, close. */
	ipx_mem_segment_set_faults(seg, &clean);
	if (session(a, c1, cn, 0x5002, 5000, false))
		return 1;
	ipx_loop_run_for(loop, 8 * IPX_SEC);
	if (caller)
		spx_close(caller);
	ipx_loop_run_for(loop, IPX_SEC);
	/* An SPX I-only caller: the plain 42-byte connect request. */
	if (session(c1, b, bn, 0x5004, 600, true))
		return 1;
	ipx_mem_segment_set_faults(seg, &clean);
	if (release_refuse_disconnect(a, b, bn))
		return 1;
	/* SPX II toward a peer that goes silent: watchdog probes. */
	if (session(a, b, bn, 0x5003, 1000, false))
		return 1;
	ipx_mem_segment_set_faults(seg, &dead);
	ipx_loop_run_for(loop, 12 * IPX_SEC);

	spx_free(a);
	spx_free(b);
	spx_free(c1);
	ipx_node_free(an);
	ipx_node_free(bn);
	ipx_node_free(cn);
	ipx_mem_segment_free(seg);
	ipx_loop_free(loop);
	return ipx_pcap_close(pc) == IPX_OK ? 0 : 1;
}
