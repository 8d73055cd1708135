/*
 * nb_capture.c - writes a pcap of NetBIOS over IPX traffic for the tshark
 * interop test (tshark_netbios_test.sh): name claims (and one lost to a
 * defender), group names, FIND NAME and its answers, deregistration,
 * broadcast and directed datagrams, ADAPTER STATUS over the network, a
 * refused call, and sessions on the in-memory link with loss (so resends
 * appear) carrying 64 KB messages, a slow receiver ("not ready" acks), an
 * idle session (keepalives, watchdog probes toward a silent peer) and
 * hang ups. Usage: nb_capture FILE.pcap
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipxlab/err.h"
#include "ipxlab/link_mem.h"
#include "ipxlab/log.h"
#include "ipxlab/netbios.h"
#include "ipxlab/priv/pcap.h"

#define NODES 3

static struct ipx_loop *loop;
static struct ipx_pcap *pc;
static struct netbios *nb[NODES];

static void tap(const uint8_t *pkt, size_t len, const uint8_t from[6],
		const uint8_t to[6], void *ctx)
{
	(void)ctx;
	ipx_pcap_write(pc, ipx_loop_now(loop), to, from, pkt, len);
}

struct cmd {
	struct nb_ncb ncb;
	bool done;
	uint8_t buf[NB_MAX_MESSAGE];
};

static void post(struct nb_ncb *ncb)
{
	((struct cmd *)ncb->ctx)->done = true;
}

static struct cmd *cmd(uint8_t command, const char *name,
		       const char *callname)
{
	struct cmd *c = calloc(1, sizeof(*c));

	if (!c)
		exit(1);
	c->ncb.command = command;
	c->ncb.post = post;
	c->ncb.ctx = c;
	c->ncb.buffer = c->buf;
	c->ncb.length = sizeof(c->buf);
	if (name && nb_name_parse(name, true, c->ncb.name) != IPX_OK)
		exit(1);
	if (callname && nb_name_parse(callname, true, c->ncb.callname) != IPX_OK)
		exit(1);
	return c;
}

static bool is_done(void *ctx)
{
	return ((struct cmd *)ctx)->done;
}

/* Submit and wait; returns the return code. */
static uint8_t run(int node, struct cmd *c)
{
	uint8_t rc = nb_submit(nb[node], &c->ncb);

	if (rc == NB_RC_PENDING)
		ipx_loop_run_until(loop, is_done, c, 600 * IPX_SEC);
	return c->ncb.retcode;
}

static void expect(uint8_t got, uint8_t want, const char *what)
{
	if (got != want) {
		fprintf(stderr, "nb_capture: %s: 0x%02X (%s), wanted 0x%02X\n",
			what, got, nb_strerror(got), want);
		exit(1);
	}
}

static uint8_t add(int node, const char *name, bool group)
{
	struct cmd *c = cmd(group ? NB_ADD_GROUP_NAME : NB_ADD_NAME, name, NULL);
	uint8_t rc = run(node, c);
	uint8_t num = c->ncb.num;

	free(c);
	return rc == NB_RC_OK ? num : 0;
}

int main(int argc, char **argv)
{
	struct ipx_clock clk;
	struct ipx_mem_segment *seg;
	struct ipx_node *node[NODES];
	struct ipx_mem_faults lossy = { .loss_ppm = 100000, .delay = IPX_MSEC };
	struct ipx_mem_faults clean = { .delay = IPX_MSEC };
	struct ipx_mem_faults dead = { .loss_ppm = 1000000 };
	struct cmd *c, *l, *s, *r;
	uint8_t num_a;
	char err[256];

	if (argc != 2) {
		fprintf(stderr, "usage: nb_capture FILE.pcap\n");
		return 2;
	}
	if (ipx_pcap_open(argv[1], &pc, err, sizeof(err)) != IPX_OK) {
		fprintf(stderr, "nb_capture: %s\n", err);
		return 1;
	}
	ipx_log_set_level(IPX_LOG_ERROR);
	ipx_clock_fake_init(&clk, 1700000000ull * IPX_SEC);
	loop = ipx_loop_new(&clk);
	seg = ipx_mem_segment_new(loop, 0x00002345, 5);
	ipx_mem_segment_set_tap(seg, tap, NULL);
	ipx_mem_segment_set_faults(seg, &clean);
	for (int i = 0; i < NODES; i++) {
		node[i] = ipx_node_new(loop, NULL);
		ipx_node_add_link(node[i], ipx_mem_link_new(seg, NULL));
		if (nb_open(node[i], NULL, &nb[i]) != IPX_OK)
			return 1;
	}

	/* Names: claims, a duplicate refused, a shared group. */
	num_a = add(0, "ALPHA", false);
	expect(num_a ? 0 : 1, 0, "add ALPHA");
	expect(add(1, "BRAVO<20>", false) ? 0 : 1, 0, "add BRAVO");
	expect(add(2, "ALPHA", false), 0, "duplicate ALPHA refused");
	expect(add(1, "CREW", true) ? 0 : 1, 0, "group on 1");
	expect(add(2, "CREW", true) ? 0 : 1, 0, "group on 2");
	expect(add(2, "CHARLIE", false) ? 0 : 1, 0, "add CHARLIE");
	/* FIND NAME: a unique name, a group, nobody. */
	c = cmd(NB_FIND_NAME, NULL, "BRAVO<20>");
	expect(run(0, c), NB_RC_OK, "find BRAVO");
	free(c);
	c = cmd(NB_FIND_NAME, NULL, "CREW");
	expect(run(0, c), NB_RC_OK, "find CREW");
	free(c);
	c = cmd(NB_FIND_NAME, NULL, "NOBODY");
	expect(run(0, c), NB_RC_NOCALL, "find NOBODY");
	free(c);

	/* Datagrams: broadcast, to a group (type 20), to a unique name now
	 * in the cache (type 4). */
	r = cmd(NB_RECEIVE_BCAST_DATAGRAM, NULL, NULL);
	r->ncb.num = 0xFF;
	nb_submit(nb[1], &r->ncb);
	s = cmd(NB_SEND_BCAST_DATAGRAM, NULL, NULL);
	s->ncb.num = num_a;
	s->ncb.length = 11;
	memcpy(s->buf, "hello world", 11);
	expect(nb_submit(nb[0], &s->ncb), NB_RC_OK, "broadcast datagram");
	s->ncb.command = NB_SEND_DATAGRAM;
	nb_name_parse("CREW", false, s->ncb.callname);
	expect(nb_submit(nb[0], &s->ncb), NB_RC_OK, "datagram to CREW");
	nb_name_parse("BRAVO<20>", false, s->ncb.callname);
	expect(nb_submit(nb[0], &s->ncb), NB_RC_OK, "datagram to BRAVO");
	ipx_loop_run_for(loop, IPX_SEC);
	free(s);
	free(r);

	/* ADAPTER STATUS of the node holding BRAVO. */
	c = cmd(NB_ADAPTER_STATUS, NULL, "BRAVO<20>");
	c->ncb.length = 1000;
	expect(run(0, c), NB_RC_OK, "adapter status");
	free(c);

	/* A call nobody listens for: refused. */
	c = cmd(NB_CALL, "ALPHA", "BRAVO<20>");
	expect(run(0, c), NB_RC_REJECT, "call without listen");
	free(c);

	/* A session under loss: two 64 KB messages and small ones, both
	 * ways, then a slow receiver, then a hang up. */
	l = cmd(NB_LISTEN, "BRAVO<20>", "*");
	nb_submit(nb[1], &l->ncb);
	c = cmd(NB_CALL, "ALPHA", "BRAVO<20>");
	expect(run(0, c), NB_RC_OK, "call");
	ipx_loop_run_until(loop, is_done, l, 10 * IPX_SEC);
	ipx_mem_segment_set_faults(seg, &lossy);
	for (int i = 0; i < 4; i++) {
		int from = i % 2 ? 1 : 0;

		s = cmd(NB_SEND, NULL, NULL);
		r = cmd(NB_RECEIVE, NULL, NULL);
		s->ncb.lsn = from ? l->ncb.lsn : c->ncb.lsn;
		r->ncb.lsn = from ? c->ncb.lsn : l->ncb.lsn;
		s->ncb.length = i < 2 ? 65535 : 100;
		for (size_t k = 0; k < s->ncb.length; k++)
			s->buf[k] = (uint8_t)('a' + k % 26);
		nb_submit(nb[1 - from], &r->ncb);
		expect(run(from, s), NB_RC_OK, "send");
		ipx_loop_run_until(loop, is_done, r, 60 * IPX_SEC);
		expect(r->ncb.retcode, NB_RC_OK, "receive");
		free(s);
		free(r);
	}
	ipx_mem_segment_set_faults(seg, &clean);
	/* Nobody reads at BRAVO: one message is held, the next meets "not
	 * ready" acks until BRAVO reads. */
	{
		struct cmd *sl[2];

		for (int i = 0; i < 2; i++) {
			sl[i] = cmd(NB_SEND, NULL, NULL);
			sl[i]->ncb.lsn = c->ncb.lsn;
			sl[i]->ncb.length = 60000;
			nb_submit(nb[0], &sl[i]->ncb);
		}
		ipx_loop_run_for(loop, 3 * IPX_SEC);
		for (int i = 0; i < 2; i++) {
			r = cmd(NB_RECEIVE, NULL, NULL);
			r->ncb.lsn = l->ncb.lsn;
			expect(run(1, r), NB_RC_OK, "late receive");
			free(r);
		}
		ipx_loop_run_until(loop, is_done, sl[1], 10 * IPX_SEC);
		expect(sl[1]->ncb.retcode, NB_RC_OK, "held send");
		free(sl[0]);
		free(sl[1]);
	}
	/* Idle: keepalives. */
	ipx_loop_run_for(loop, 8 * IPX_SEC);
	{
		struct cmd *h = cmd(NB_HANG_UP, NULL, NULL);

		h->ncb.lsn = c->ncb.lsn;
		expect(run(0, h), NB_RC_OK, "hang up");
		free(h);
	}
	free(c);
	free(l);

	/* A session whose peer goes silent: watchdog probes. */
	l = cmd(NB_LISTEN, "CHARLIE", "*");
	nb_submit(nb[2], &l->ncb);
	c = cmd(NB_CALL, "ALPHA", "CHARLIE");
	expect(run(0, c), NB_RC_OK, "call CHARLIE");
	ipx_loop_run_for(loop, IPX_SEC);
	ipx_mem_segment_set_faults(seg, &dead);
	ipx_loop_run_for(loop, 12 * IPX_SEC);
	ipx_mem_segment_set_faults(seg, &clean);
	free(c);
	free(l);

	/* A name given back. */
	c = cmd(NB_DELETE_NAME, "CHARLIE", NULL);
	run(2, c);
	free(c);
	ipx_loop_run_for(loop, IPX_SEC);

	for (int i = 0; i < NODES; i++) {
		nb_close(nb[i]);
		ipx_node_free(node[i]);
	}
	ipx_mem_segment_free(seg);
	ipx_loop_free(loop);
	return ipx_pcap_close(pc) == IPX_OK ? 0 : 1;
}
