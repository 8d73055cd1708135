/*
 * test_hub.c - the hub's packet handling, without a socket (detached) on
 * the fake clock: every datagram it would send is captured by the tap
 * (hubrig.h).
 */
#include "cm.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/hub.h"
#include "ipxlab/hub_capture.h"
#include "ipxlab/ipx.h"
#include "ipxlab/log.h"

#include "hubrig.h"

static int setup(void **state)
{
	*state = hubrig_new();
	return 0;
}

static int teardown(void **state)
{
	hubrig_free(*state);
	return 0;
}

/* A data packet from the client at 'from' to node 'to_node'. */
static size_t data(uint8_t *p, uint16_t from, const uint8_t *to_node,
		   const char *text)
{
	struct ipx_header h = { .checksum = 0xFFFF };
	size_t n = strlen(text);

	h.length = (uint16_t)(30 + n);
	h.type = 4;
	memcpy(h.dst.node, to_node, 6);
	h.dst.socket = 0x4545;
	hubrig_node(from, h.src.node);
	h.src.socket = 0x4000;
	ipx_header_encode(&h, p);
	memcpy(p + 30, text, n);
	return 30 + n;
}

static void registration_is_answered_as_dosbox_does(void **state)
{
	struct hub_rig *r = *state;
	struct ipx_header h;
	uint8_t node[6];

	hubrig_register(r, 5000, 0);
	assert_int_equal(r->n, 1);
	assert_int_equal(ntohs(r->out[0].to.sin_port), 5000);
	assert_int_equal(r->out[0].len, 30);
	assert_int_equal(ipx_header_decode(r->out[0].pkt, 30, &h), IPX_OK);
	assert_int_equal(h.checksum, 0xFFFF);
	assert_int_equal(h.dst.net, 0);
	hubrig_node(5000, node);
	assert_memory_equal(h.dst.node, node, 6);	/* IP + port */
	assert_memory_equal(h.dst.node, "\x7F\x00\x00\x01\x13\x88", 6);
	assert_int_equal(h.dst.socket, 2);
	assert_int_equal(h.src.net, 1);
	assert_int_equal(h.src.socket, 2);
	assert_int_equal(ipx_hub_client_count(r->hub), 1);
}

static void repeat_and_odd_registrations_are_answered(void **state)
{
	struct hub_rig *r = *state;
	uint8_t p[30] = { 0 };

	hubrig_register(r, 5000, 0);
	hubrig_register(r, 5000, 2);	/* again, type 2 as ipxwrapper sends */
	assert_int_equal(r->n, 2);
	assert_int_equal(ipx_hub_client_count(r->hub), 1);
	assert_int_equal(ipx_hub_stats(r->hub)->joins, 1);
	assert_int_equal(ipx_hub_stats(r->hub)->registrations, 2);
	/* Garbage checksum, type and length field: still a registration. */
	memset(p, 0xAB, 6);
	memset(p + 6, 0, 24);
	p[17] = 2;
	hubrig_input(r, 5001, p, 30);
	assert_int_equal(ipx_hub_client_count(r->hub), 2);
	assert_int_equal(r->n, 3);
}

static void unicast_goes_to_one_client_exactly(void **state)
{
	struct hub_rig *r = *state;
	uint8_t p[128], to[6];
	size_t n;

	hubrig_register(r, 5000, 0);
	hubrig_register(r, 5001, 0);
	hubrig_register(r, 5002, 0);
	r->n = 0;
	hubrig_node(5002, to);
	n = data(p, 5000, to, "hello");
	p[n] = 'X';	/* trailing bytes past the length field */
	hubrig_input(r, 5000, p, n + 1);
	assert_int_equal(r->n, 1);
	assert_int_equal(ntohs(r->out[0].to.sin_port), 5002);
	assert_int_equal(r->out[0].len, n);
	assert_memory_equal(r->out[0].pkt, p, n);
	assert_int_equal(ipx_hub_stats(r->hub)->unicasts, 1);
}

static void broadcast_goes_to_all_but_the_sender(void **state)
{
	struct hub_rig *r = *state;
	uint8_t p[128];
	int seen[3] = { 0 };

	for (uint16_t port = 5000; port < 5003; port++)
		hubrig_register(r, port, 0);
	r->n = 0;
	hubrig_input(r, 5001, p, data(p, 5001, ipx_node_broadcast, "all"));
	assert_int_equal(r->n, 2);
	for (int i = 0; i < r->n; i++)
		seen[ntohs(r->out[i].to.sin_port) - 5000]++;
	assert_int_equal(seen[0], 1);
	assert_int_equal(seen[1], 0);
	assert_int_equal(seen[2], 1);
	assert_int_equal(ipx_hub_stats(r->hub)->broadcasts, 1);
}

static void forged_and_bad_datagrams_are_dropped_and_counted(void **state)
{
	struct hub_rig *r = *state;
	const struct ipx_hub_stats *s = ipx_hub_stats(r->hub);
	uint8_t p[1600] = { 0 }, to[6];
	size_t n;

	hubrig_register(r, 5000, 0);
	hubrig_register(r, 5001, 0);
	r->n = 0;
	hubrig_node(5001, to);
	/* Source node of another client: forged. */
	n = data(p, 5001, to, "spoof");
	hubrig_input(r, 5000, p, n);
	assert_int_equal(s->drops[IPX_HUB_DROP_FORGED], 1);
	/* From an address that never registered. */
	n = data(p, 6000, to, "who");
	hubrig_input(r, 6000, p, n);
	assert_int_equal(s->drops[IPX_HUB_DROP_UNREGISTERED], 1);
	/* Garbage: short, bad length field, too big. */
	hubrig_input(r, 5000, p, 7);
	assert_int_equal(s->drops[IPX_HUB_DROP_SHORT], 1);
	n = data(p, 5000, to, "x");
	ipx_put16(p + 2, 200);
	hubrig_input(r, 5000, p, n);
	assert_int_equal(s->drops[IPX_HUB_DROP_BADLEN], 1);
	hubrig_input(r, 5000, p, 1425);
	assert_int_equal(s->drops[IPX_HUB_DROP_TOOBIG], 1);
	/* To a node nobody has. */
	to[5] ^= 0x55;
	hubrig_input(r, 5000, p, data(p, 5000, to, "lost"));
	assert_int_equal(s->drops[IPX_HUB_DROP_UNKNOWN_DEST], 1);
	assert_int_equal(r->n, 0);
	/* And service continues. */
	hubrig_node(5001, to);
	hubrig_input(r, 5000, p, data(p, 5000, to, "fine"));
	assert_int_equal(r->n, 1);
}

/* Make the client at 'port' an IPX router: it sends a RIP response. */
static void become_router(struct hub_rig *r, uint16_t port)
{
	uint8_t p[64];
	size_t n = data(p, port, ipx_node_broadcast, "..");

	ipx_put16(p + 16, IPX_SOCK_RIP);	/* destination socket */
	ipx_put16(p + 30, 2);			/* RIP operation: response */
	hubrig_input(r, port, p, n);
}

/* The source-node rule: a client's own node, or (for a router only) a
 * node of another network that no client has. */
static void made_up_and_forged_sources_are_dropped(void **state)
{
	struct hub_rig *r = *state;
	const struct ipx_hub_stats *s = ipx_hub_stats(r->hub);
	uint8_t p[128], to[6];
	size_t n;

	hubrig_register(r, 5000, 0);
	hubrig_register(r, 5001, 0);
	hubrig_register(r, 5002, 0);
	hubrig_node(5002, to);
	/* A plain client sending from a node nobody has. */
	r->n = 0;
	n = data(p, 5000, to, "made up");
	memcpy(p + 22, "\x02\x11\x22\x33\x44\x55", 6);	/* source node */
	hubrig_input(r, 5000, p, n);
	assert_int_equal(s->drops[IPX_HUB_DROP_FORGED], 1);
	assert_int_equal(r->n, 0);
	/* 5001 turns router: it may relay a node of another network ... */
	become_router(r, 5001);
	assert_int_equal(s->broadcasts, 1);
	r->n = 0;
	n = data(p, 5001, to, "relayed");
	memcpy(p + 22, "\x02\x11\x22\x33\x44\x55", 6);
	hubrig_input(r, 5001, p, n);
	assert_int_equal(r->n, 1);
	assert_int_equal(ntohs(r->out[0].to.sin_port), 5002);
	assert_int_equal(s->drops[IPX_HUB_DROP_FORGED], 1);
	/* ... but never another client's node. */
	r->n = 0;
	n = data(p, 5000, to, "forged by a router");
	hubrig_input(r, 5001, p, n);
	assert_int_equal(s->drops[IPX_HUB_DROP_FORGED], 2);
	assert_int_equal(r->n, 0);
	/* The plain client is still refused the made-up node. */
	n = data(p, 5000, to, "made up again");
	memcpy(p + 22, "\x02\x11\x22\x33\x44\x55", 6);
	hubrig_input(r, 5000, p, n);
	assert_int_equal(s->drops[IPX_HUB_DROP_FORGED], 3);
	assert_int_equal(r->n, 0);
	assert_int_equal(s->unicasts, 1);
}

/* A unicast for a node of another network goes to every router but the
 * one it came from; with no other router it is dropped. */
static void other_networks_go_to_the_other_routers(void **state)
{
	struct hub_rig *r = *state;
	const struct ipx_hub_stats *s = ipx_hub_stats(r->hub);
	static const uint8_t far[6] = { 2, 0x11, 0x22, 0x33, 0x44, 0x55 };
	uint8_t p[128];
	size_t n;

	hubrig_register(r, 5000, 0);
	hubrig_register(r, 5001, 0);
	hubrig_register(r, 5002, 0);
	become_router(r, 5001);
	/* From a plain client: to the one router. */
	n = data(p, 5000, far, "far away");
	ipx_put32(p + 6, 0x99);		/* destination network */
	r->n = 0;
	hubrig_input(r, 5000, p, n);
	assert_int_equal(r->n, 1);
	assert_int_equal(ntohs(r->out[0].to.sin_port), 5001);
	assert_int_equal(s->routed, 1);
	/* From the only router: nowhere (not back to it). */
	n = data(p, 5001, far, "bounce");
	ipx_put32(p + 6, 0x99);
	r->n = 0;
	hubrig_input(r, 5001, p, n);
	assert_int_equal(r->n, 0);
	assert_int_equal(s->drops[IPX_HUB_DROP_UNKNOWN_DEST], 1);
	/* With a second router: from one, to the other only. */
	become_router(r, 5002);
	r->n = 0;
	hubrig_input(r, 5001, p, n);
	assert_int_equal(r->n, 1);
	assert_int_equal(ntohs(r->out[0].to.sin_port), 5002);
	assert_int_equal(s->routed, 2);
	assert_int_equal(s->routed_copies, 2);
}

/* The counters as `ipxlab hub` prints them on SIGUSR1. */
static void stats_print_every_counter_and_client(void **state)
{
	struct hub_rig *r = *state;
	uint8_t p[128], to[6];
	char *text = NULL;
	size_t size = 0;
	FILE *f;

	hubrig_register(r, 5000, 0);
	hubrig_register(r, 5001, 0);
	become_router(r, 5001);
	hubrig_node(5001, to);
	hubrig_input(r, 5000, p, data(p, 5000, to, "one"));
	hubrig_input(r, 5000, p, 7);
	ipx_loop_run_for(r->loop, 2 * IPX_SEC);
	f = open_memstream(&text, &size);
	assert_non_null(f);
	ipx_hub_print_stats(r->hub, f);
	fclose(f);
	assert_non_null(strstr(text, "clients 2\nrx_packets 5\n"));
	assert_non_null(strstr(text, "\nunicasts 1\nbroadcasts 1\n"));
	assert_non_null(strstr(text, "\njoins 2\nleaves 0\n"));
	assert_non_null(strstr(text, "\nrouters 1\n"));
	assert_non_null(strstr(text, "\ndrop_short 1\n"));
	assert_non_null(strstr(text, "\ndrop_forged_source 0\n"));
	/* The most recently heard first, the router marked, idle since its
	 * last packet. */
	assert_non_null(strstr(text, "client 127.0.0.1:5000 node 7F0000011388 "
				     "rx 2 tx 1 idle 2.0s\n"
				     "client 127.0.0.1:5001 node 7F0000011389 "
				     "router rx 2 tx 1 idle 2.0s\n"));
	free(text);
	assert_string_equal(ipx_hub_drop_name(IPX_HUB_DROP_TOOBIG), "too_big");
	assert_string_equal(ipx_hub_drop_name(IPX_HUB_DROP_COUNT), "?");
}

/* A client's registration through a hub whose taps feed a capture (both,
 * or the receive side only): the packets recorded; the lines in *text. */
static uint64_t capture_registration(struct hub_rig *r, bool received_only,
				     char **text)
{
	struct ipx_hub_options o = { .detached = true };
	struct ipx_capture_options co = { 0 };
	struct ipx_capture *cap;
	struct ipx_hub *hub;
	struct sockaddr_in from = hubrig_client(5000);
	uint8_t p[30] = { 0 };
	char err[128];
	size_t size = 0;
	uint64_t n;

	co.print = open_memstream(text, &size);
	assert_int_equal(ipx_capture_open(r->loop, &co, &cap, err, sizeof(err)),
			 IPX_OK);
	if (received_only)
		ipx_hub_capture_received(&o, cap);
	else
		ipx_hub_capture(&o, cap);
	o.bind = hubrig_client(213);
	assert_int_equal(ipx_hub_open(r->loop, &o, &hub, err, sizeof(err)),
			 IPX_OK);
	p[0] = p[1] = 0xFF;
	ipx_put16(p + 2, 30);
	ipx_put16(p + 16, 2);
	ipx_hub_input(hub, &from, p, sizeof(p));
	ipx_hub_flush(hub);
	n = ipx_capture_packets(cap);
	ipx_hub_close(hub);
	assert_int_equal(ipx_capture_close(cap), IPX_OK);
	fclose(co.print);
	return n;
}

/* `ipxlab hub --pcap`: what the hub receives and sends, captured. */
static void capture_sees_both_directions(void **state)
{
	char *text = NULL;

	assert_int_equal(capture_registration(*state, false, &text), 2);
	/* One line in, one out, each from or to the client's node. */
	assert_non_null(strstr(text, "7F0000011388"));
	assert_non_null(strchr(text, '\n'));
	assert_non_null(strchr(strchr(text, '\n') + 1, '\n'));
	free(text);
}

/* The benchmarks' analyzer capture: the receive side only, so each packet
 * is recorded once (the registration in, not the answer's copy out). */
static void capture_received_records_each_packet_once(void **state)
{
	char *text = NULL;

	assert_int_equal(capture_registration(*state, true, &text), 1);
	assert_non_null(strstr(text, " in "));
	assert_null(strstr(text, " out "));
	free(text);
}

/* The tunnel's largest datagram, 1,424 bytes, crosses whole. */
static void full_size_datagram_is_relayed(void **state)
{
	struct hub_rig *r = *state;
	const struct ipx_hub_stats *s = ipx_hub_stats(r->hub);
	static uint8_t p[1425];
	uint8_t to[6];

	hubrig_register(r, 5000, 0);
	hubrig_register(r, 5001, 0);
	hubrig_node(5001, to);
	data(p, 5000, to, "");
	for (size_t i = 30; i < sizeof(p); i++)
		p[i] = (uint8_t)(i * 7);
	ipx_put16(p + 2, 1424);
	r->n = 0;
	hubrig_input(r, 5000, p, 1424);
	assert_int_equal(r->n, 1);
	assert_int_equal(r->out[0].len, 1424);
	assert_memory_equal(r->out[0].pkt, p, 1424);
	assert_int_equal(s->drops[IPX_HUB_DROP_TOOBIG], 0);
	/* One byte more is too big, even with the length field at 1424. */
	hubrig_input(r, 5000, p, 1425);
	assert_int_equal(s->drops[IPX_HUB_DROP_TOOBIG], 1);
	assert_int_equal(r->n, 1);
}

/* From the uplink (a bridge, a WAN module) the limit is the same: 1,424
 * bytes are delivered whole, one more is refused. */
static void full_size_datagram_from_the_uplink_is_delivered(void **state)
{
	struct hub_rig *r = *state;
	static uint8_t p[1425];
	uint8_t to[6];

	hubrig_register(r, 5000, 0);
	hubrig_node(5000, to);
	data(p, 6000, to, "");
	for (size_t i = 30; i < sizeof(p); i++)
		p[i] = (uint8_t)(i * 5);
	ipx_put16(p + 2, 1424);
	r->n = 0;
	assert_int_equal(ipx_hub_deliver(r->hub, p, 1424), 1);
	assert_int_equal(r->n, 1);
	assert_int_equal(r->out[0].len, 1424);
	assert_memory_equal(r->out[0].pkt, p, 1424);
	assert_int_equal(ipx_hub_deliver(r->hub, p, 1425), 0);
	assert_int_equal(r->n, 1);
}

static void silent_clients_get_keepalives_then_leave(void **state)
{
	struct hub_rig *r = *state;
	const struct ipx_hub_stats *s = ipx_hub_stats(r->hub);
	struct ipx_header h;
	uint8_t p[64], me[6];

	hubrig_register(r, 5000, 0);
	hubrig_register(r, 5001, 0);
	r->n = 0;
	/* 5001 keeps talking; 5000 stays silent. */
	for (int i = 0; i < 6; i++) {
		ipx_loop_run_for(r->loop, IPX_SEC);
		hubrig_input(r, 5001, p, data(p, 5001, ipx_node_broadcast, "."));
	}
	assert_true(s->keepalives >= 1);
	{
		int found = 0;

		for (int i = 0; i < r->n; i++) {
			if (r->out[i].len != 30 ||
			    ntohs(r->out[i].to.sin_port) != 5000)
				continue;
			ipx_header_decode(r->out[i].pkt, 30, &h);
			if (h.dst.socket == 2 && ipx_node_is_broadcast(h.dst.node) &&
			    h.src.socket == 0 &&
			    !memcmp(h.src.node, "\x02\xFF\xFF\xFF\x00\x00", 6))
				found++;
		}
		assert_true(found >= 1);
	}
	/* The talking client got no keepalive. */
	for (int i = 0; i < r->n; i++)
		if (ntohs(r->out[i].to.sin_port) == 5001)
			assert_int_not_equal(r->out[i].len, 30);
	/* A DOSBox client's answer is consumed, not relayed. */
	hubrig_node(5000, me);
	{
		struct ipx_header a = { .checksum = 0xFFFF, .length = 30 };

		memcpy(a.dst.node, "\x02\xFF\xFF\xFF\x00\x00", 6);
		a.dst.socket = 2;
		memcpy(a.src.node, me, 6);
		a.src.socket = 2;
		ipx_header_encode(&a, p);
		r->n = 0;
		hubrig_input(r, 5000, p, 30);
		assert_int_equal(r->n, 0);
		assert_int_equal(s->control, 1);
	}
	/* Silence past the idle timeout (120 s) ends the client. */
	for (int i = 0; i < 125; i++) {
		ipx_loop_run_for(r->loop, IPX_SEC);
		hubrig_input(r, 5001, p, data(p, 5001, ipx_node_broadcast, "."));
	}
	assert_int_equal(ipx_hub_client_count(r->hub), 1);
	assert_int_equal(s->leaves, 1);
}

static void many_clients_are_found_by_node(void **state)
{
	struct ipx_hub_options o = { .max_clients = 4096, .reg_rate = -1 };
	struct hub_rig *r = hubrig_new_opts(&o);
	uint8_t p[64], to[6];

	(void)state;
	for (uint16_t port = 10000; port < 12000; port++)
		hubrig_register(r, port, 0);
	assert_int_equal(ipx_hub_client_count(r->hub), 2000);
	r->n = 0;
	hubrig_node(11999, to);
	hubrig_input(r, 10000, p, data(p, 10000, to, "far"));
	assert_int_equal(r->n, 1);
	assert_int_equal(ntohs(r->out[0].to.sin_port), 11999);
	r->n = 0;
	hubrig_input(r, 10500, p, data(p, 10500, ipx_node_broadcast, "b"));
	assert_int_equal(r->n, 1999);
	hubrig_free(r);
}

/* A registration from IPv4 address 'ip' (host order), UDP port 'port'. */
static void register_from(struct hub_rig *r, uint32_t ip, uint16_t port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	uint8_t p[30] = { 0 };

	sa.sin_addr.s_addr = htonl(ip);
	sa.sin_port = htons(port);
	p[0] = p[1] = 0xFF;
	p[3] = 30;
	p[17] = 2;
	p[29] = 2;
	ipx_hub_input(r->hub, &sa, p, 30);
	ipx_hub_flush(r->hub);
}

/* Runs f with stderr in a file; how many lines contain 'what'. */
static int stderr_lines(void (*f)(struct hub_rig *), struct hub_rig *r,
			const char *what)
{
	FILE *tmp = tmpfile();
	int saved = dup(2), n = 0;
	char line[512];

	assert_non_null(tmp);
	fflush(stderr);
	dup2(fileno(tmp), 2);
	f(r);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	while (fgets(line, sizeof(line), tmp))
		n += strstr(line, what) != NULL;
	fclose(tmp);
	return n;
}

static void sixty_thousand_from_many_networks(struct hub_rig *r)
{
	for (uint32_t i = 0; i < 60000; i++)
		register_from(r, 0x0A000000u + (i << 8), 40000);
}

/* 60,000 registrations from distinct networks: 1,024 clients, the rest
 * refused, counted and logged once; a broadcast goes out 1,023 times;
 * clients that do not answer the keepalive make room for new ones. */
static void the_client_table_has_a_limit(void **state)
{
	struct ipx_hub_options o = { 0 };
	struct hub_rig *r = hubrig_new_opts(&o);
	const struct ipx_hub_stats *s = ipx_hub_stats(r->hub);
	struct sockaddr_in sa = { .sin_family = AF_INET };
	uint8_t p[64];
	size_t n;

	(void)state;
	assert_int_equal(stderr_lines(sixty_thousand_from_many_networks, r,
				      "--max-clients"), 1);
	assert_int_equal(ipx_hub_client_count(r->hub), IPX_HUB_MAX_CLIENTS);
	assert_int_equal(s->drops[IPX_HUB_DROP_TABLE_FULL],
			 60000 - IPX_HUB_MAX_CLIENTS);
	assert_int_equal(s->joins, IPX_HUB_MAX_CLIENTS);
	assert_int_equal(s->registrations, IPX_HUB_MAX_CLIENTS);
	assert_string_equal(ipx_hub_drop_name(IPX_HUB_DROP_TABLE_FULL),
			    "table_full");
	/* A known client is still answered; its broadcast reaches the
	 * others once each. */
	register_from(r, 0x0A000000u, 40000);
	assert_int_equal(s->registrations, IPX_HUB_MAX_CLIENTS + 1);
	r->n = 0;
	n = data(p, 0, ipx_node_broadcast, "b");
	sa.sin_addr.s_addr = htonl(0x0A000000u);
	sa.sin_port = htons(40000);
	memcpy(p + 22, &sa.sin_addr.s_addr, 4);	/* its source node */
	memcpy(p + 26, &sa.sin_port, 2);
	ipx_hub_input(r->hub, &sa, p, n);
	ipx_hub_flush(r->hub);
	assert_int_equal(s->broadcasts, 1);
	assert_int_equal(s->tx_packets,
			 IPX_HUB_MAX_CLIENTS + 1 + IPX_HUB_MAX_CLIENTS - 1);
	/* Pinged at 5 s and silent a second later: a new client takes the
	 * place of the one silent longest, one at a time. */
	ipx_loop_run_for(r->loop, 7 * IPX_SEC);
	register_from(r, 0x0C000001u, 40000);
	register_from(r, 0x0C000101u, 40000);
	assert_int_equal(ipx_hub_client_count(r->hub), IPX_HUB_MAX_CLIENTS);
	assert_int_equal(s->evicted, 2);
	assert_int_equal(s->joins, IPX_HUB_MAX_CLIENTS + 2);
	assert_int_equal(s->leaves, 2);
	/* Room again once the silent ones are gone. */
	ipx_loop_run_for(r->loop, 130 * IPX_SEC);
	assert_int_equal(ipx_hub_client_count(r->hub), 0);
	register_from(r, 0x0B000001u, 40000);
	assert_int_equal(ipx_hub_client_count(r->hub), 1);
	hubrig_free(r);
}

static void hundred_from_loopback(struct hub_rig *r)
{
	for (uint16_t port = 20000; port < 20100; port++)
		hubrig_register(r, port, 0);
}

/* One /24 network registers at most 64 at once, then 32 a second; other
 * networks and known clients are not held up. */
static void one_network_registers_at_a_limited_rate(void **state)
{
	struct hub_rig *r = *state;
	const struct ipx_hub_stats *s = ipx_hub_stats(r->hub);

	assert_int_equal(stderr_lines(hundred_from_loopback, r,
				      "--register-rate"), 1);
	assert_int_equal(ipx_hub_client_count(r->hub), IPX_HUB_REG_BURST);
	assert_int_equal(s->drops[IPX_HUB_DROP_REG_RATE],
			 100 - IPX_HUB_REG_BURST);
	/* 127.0.0.2 is the same /24; 127.0.1.1 is not. */
	register_from(r, 0x7F000002u, 1);
	register_from(r, 0x7F000101u, 1);
	assert_int_equal(ipx_hub_client_count(r->hub), IPX_HUB_REG_BURST + 1);
	/* A known client's registration is answered at any rate. */
	hubrig_register(r, 20000, 0);
	assert_int_equal(s->registrations, IPX_HUB_REG_BURST + 2);
	/* A second refills 32. */
	ipx_loop_run_for(r->loop, IPX_SEC);
	hundred_from_loopback(r);
	assert_int_equal(ipx_hub_client_count(r->hub),
			 IPX_HUB_REG_BURST + 1 + IPX_HUB_REG_RATE);
	assert_string_equal(ipx_hub_drop_name(IPX_HUB_DROP_REG_RATE),
			    "register_rate");
}

/* --profile eth10: relays wait their turn and take the wire time. */
static void profiled_hub_relays_at_the_segment_rate(void **state)
{
	struct ipx_profile eth;
	struct hub_rig *r;
	uint8_t p[1100], to[6];
	char text[1001], *stats = NULL;
	size_t statslen = 0, n;
	FILE *f;
	int first = -1, relayed = 0;

	(void)state;
	assert_int_equal(ipx_profile_named("eth10", &eth), IPX_OK);
	r = hubrig_new_profile(&eth);
	hubrig_register(r, 5000, 0);
	hubrig_register(r, 5001, 0);
	hubrig_node(5001, to);
	memset(text, 'x', 970);
	text[970] = '\0';
	n = data(p, 5000, to, text);	/* 1,000 bytes of IPX */
	assert_int_equal(n, 1000);
	/* 100 at once: the station's 64 KB queue takes 65, the rest are
	 * dropped and counted. */
	for (int i = 0; i < 100; i++)
		hubrig_input(r, 5000, p, n);
	assert_int_equal(r->n, 2);	/* nothing relayed yet */
	ipx_loop_run_for(r->loop, IPX_SEC);
	for (int i = 2; i < r->n; i++) {
		if (ntohs(r->out[i].to.sin_port) != 5001 || r->out[i].len != n)
			continue;
		if (first < 0)
			first = i;
		relayed++;
		/* (1,000 + 14 + 24) bytes at 100 ns a bit: 830.4 us each,
		 * back to back from the first. */
		assert_int_equal(r->out[i].at - IPX_SEC,
				 ((uint64_t)relayed * 830400 + 999) / 1000);
	}
	assert_int_equal(relayed, 65);
	f = open_memstream(&stats, &statslen);
	ipx_hub_print_stats(r->hub, f);
	fclose(f);
	assert_non_null(strstr(stats, "segment_drop_queue_full 35\n"));
	assert_non_null(strstr(stats, "segment_frames 65\n"));
	free(stats);
	hubrig_free(r);
}

/* With a profile, what the uplink delivers takes the wire too. */
static void profiled_hub_times_uplink_packets(void **state)
{
	struct ipx_profile eth;
	struct hub_rig *r;
	uint8_t p[64], bcast[6];
	size_t n;

	(void)state;
	assert_int_equal(ipx_profile_named("eth10", &eth), IPX_OK);
	r = hubrig_new_profile(&eth);
	hubrig_register(r, 5000, 0);
	memset(bcast, 0xFF, 6);
	n = data(p, 6000, bcast, "hi");	/* from a node across the uplink */
	assert_int_equal(ipx_hub_deliver(r->hub, p, n), 1);
	assert_int_equal(r->n, 1);	/* only the registration answer */
	ipx_loop_run_for(r->loop, IPX_MSEC);
	assert_int_equal(r->n, 2);
	/* 32 bytes padded to a 60-byte frame + 24: 67.2 us on the wire. */
	assert_int_equal(r->out[1].at - IPX_SEC, 68);
	assert_int_equal(r->out[1].len, n);
	hubrig_free(r);
}

int main(void)
{
	ipx_log_set_level(IPX_LOG_WARN);
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(profiled_hub_relays_at_the_segment_rate),
		cmocka_unit_test(profiled_hub_times_uplink_packets),
		T(registration_is_answered_as_dosbox_does),
		T(repeat_and_odd_registrations_are_answered),
		T(unicast_goes_to_one_client_exactly),
		T(broadcast_goes_to_all_but_the_sender),
		T(forged_and_bad_datagrams_are_dropped_and_counted),
		T(made_up_and_forged_sources_are_dropped),
		T(full_size_datagram_is_relayed),
		T(full_size_datagram_from_the_uplink_is_delivered),
		T(other_networks_go_to_the_other_routers),
		T(stats_print_every_counter_and_client),
		T(capture_sees_both_directions),
		T(capture_received_records_each_packet_once),
		T(silent_clients_get_keepalives_then_leave),
		cmocka_unit_test(many_clients_are_found_by_node),
		cmocka_unit_test(the_client_table_has_a_limit),
		T(one_network_registers_at_a_limited_rate),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
