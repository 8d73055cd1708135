/*
 * test_hub.c - the hub's packet handling, without a socket (detached) on
 * the fake clock: every datagram it would send is captured by the tap
 * (hubrig.h).
 */
#include "cm.h"

#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/hub.h"
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
	struct hub_rig *r = *state;
	uint8_t p[64], to[6];

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
		T(silent_clients_get_keepalives_then_leave),
		T(many_clients_are_found_by_node),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
