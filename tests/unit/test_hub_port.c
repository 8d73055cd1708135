/*
 * test_hub_port.c - bridge ports on the detached hub (hubrig.h): what a
 * port is sent (broadcasts, unicasts for unknown nodes, unicasts for nodes
 * learned behind it), what it may send, learning and ageing, refusal by
 * --allow-bridge, and the counters; plus the bridge-port message itself.
 */
#include "cm.h"

#include <arpa/inet.h>
#include <string.h>

#include "ipxlab/err.h"
#include "ipxlab/hub.h"
#include "ipxlab/ipx.h"
#include "ipxlab/log.h"

#include "hubrig.h"

#define PORT1 5000	/* the bridge port */
#define PORT2 5003	/* a second bridge port */
#define C1 5001		/* ordinary clients */
#define C2 5002

/* Stations on the far side of a bridge: no client of this hub. */
static const uint8_t far_x[6] = { 0x00, 0x00, 0x1B, 0x00, 0x00, 0x0A };
static const uint8_t far_y[6] = { 0x00, 0x00, 0x1B, 0x00, 0x00, 0x0B };

static int setup(void **state)
{
	struct hub_rig *r = hubrig_new();

	hubrig_register(r, PORT1, 0);
	hubrig_register(r, C1, 0);
	hubrig_register(r, C2, 0);
	r->n = 0;
	*state = r;
	return 0;
}

static int teardown(void **state)
{
	hubrig_free(*state);
	return 0;
}

/* A data packet from src_node to dst_node, 4 bytes of data. */
static size_t frame(uint8_t *p, const uint8_t *src_node,
		    const uint8_t *dst_node)
{
	struct ipx_header h = { .checksum = 0xFFFF, .length = 34, .type = 4 };

	memcpy(h.dst.node, dst_node, 6);
	h.dst.socket = 0x4545;
	memcpy(h.src.node, src_node, 6);
	h.src.socket = 0x4000;
	ipx_header_encode(&h, p);
	memcpy(p + 30, "data", 4);
	return 34;
}

/* A frame from the client at 'port', with this source node. */
static void send_from(struct hub_rig *r, uint16_t port, const uint8_t *src,
		      const uint8_t *dst)
{
	uint8_t p[64];

	hubrig_input(r, port, p, frame(p, src, dst));
}

/* A frame from the client at 'port', from its own node. */
static void send_own(struct hub_rig *r, uint16_t port, const uint8_t *dst)
{
	uint8_t node[6];

	hubrig_node(port, node);
	send_from(r, port, node, dst);
}

static uint8_t *node_of(uint16_t port, uint8_t node[6])
{
	hubrig_node(port, node);
	return node;
}

/* Datagrams recorded for the client at 'port' since index 'from'. */
static int sent_to(const struct hub_rig *r, uint16_t port, int from)
{
	int n = 0;

	for (int i = from; i < r->n; i++)
		n += ntohs(r->out[i].to.sin_port) == port;
	return n;
}

static void announce(struct hub_rig *r, uint16_t port)
{
	uint8_t msg[IPX_HUB_PORT_MSG_LEN], node[6];

	ipx_hub_port_msg(msg, ipx_hub_keepalive_node, node_of(port, node),
			 IPX_HUB_MSG_ANNOUNCE);
	hubrig_input(r, port, msg, sizeof(msg));
}

static void an_announcement_is_accepted_and_answered(void **state)
{
	struct hub_rig *r = *state;
	const struct ipx_hub_stats *s = ipx_hub_stats(r->hub);
	uint8_t node[6];
	struct ipx_header h;

	announce(r, PORT1);
	assert_int_equal(r->n, 1);
	assert_int_equal(ntohs(r->out[0].to.sin_port), PORT1);
	assert_int_equal(r->out[0].len, IPX_HUB_PORT_MSG_LEN);
	assert_int_equal(ipx_hub_port_msg_parse(r->out[0].pkt, r->out[0].len),
			 IPX_HUB_MSG_ACCEPTED);
	assert_int_equal(ipx_header_decode(r->out[0].pkt, r->out[0].len, &h),
			 IPX_OK);
	assert_memory_equal(h.dst.node, node_of(PORT1, node), 6);
	assert_true(ipx_hub_is_port(r->hub, node));
	assert_false(ipx_hub_is_port(r->hub, node_of(C1, node)));
	assert_int_equal(ipx_hub_port_count(r->hub), 1);
	/* Again (the answer may have been lost): answered, still one port. */
	announce(r, PORT1);
	assert_int_equal(r->n, 2);
	assert_int_equal(ipx_hub_port_count(r->hub), 1);
	assert_int_equal(s->port_announces, 2);
	assert_int_equal(s->port_refused, 0);
	assert_int_equal(s->control, 0);
}

/* What DOSBox sends to the keepalive node (its ping answers) and
 * near-misses of the message keep their old meaning: consumed, no port. */
static void near_misses_are_keepalive_answers(void **state)
{
	struct hub_rig *r = *state;
	const struct ipx_hub_stats *s = ipx_hub_stats(r->hub);
	uint8_t msg[IPX_HUB_PORT_MSG_LEN], node[6], ping_answer[30];
	struct ipx_header h = { .checksum = 0xFFFF, .length = 30 };

	memcpy(h.dst.node, ipx_hub_keepalive_node, 6);
	h.dst.socket = 2;
	node_of(PORT1, h.src.node);
	h.src.socket = 2;
	ipx_header_encode(&h, ping_answer);
	hubrig_input(r, PORT1, ping_answer, 30);
	ipx_hub_port_msg(msg, ipx_hub_keepalive_node, node_of(PORT1, node),
			 IPX_HUB_MSG_ANNOUNCE);
	msg[IPX_HDR_LEN] = 'I';			/* bad magic */
	hubrig_input(r, PORT1, msg, sizeof(msg));
	ipx_hub_port_msg(msg, ipx_hub_keepalive_node, node, IPX_HUB_MSG_ANNOUNCE);
	msg[IPX_HDR_LEN + 8] = 2;		/* another version */
	hubrig_input(r, PORT1, msg, sizeof(msg));
	ipx_hub_port_msg(msg, ipx_hub_keepalive_node, node, IPX_HUB_MSG_ACCEPTED);
	hubrig_input(r, PORT1, msg, sizeof(msg));	/* not a client's op */
	assert_int_equal(s->control, 4);
	assert_int_equal(s->port_announces, 0);
	assert_int_equal(r->n, 0);
	assert_false(ipx_hub_is_port(r->hub, node));
}

static void the_message_parses_only_whole_and_in_its_direction(void **state)
{
	uint8_t msg[IPX_HUB_PORT_MSG_LEN + 4], node[6];

	(void)state;
	node_of(C1, node);
	assert_int_equal(ipx_hub_port_msg(msg, ipx_hub_keepalive_node, node,
					  IPX_HUB_MSG_ANNOUNCE),
			 IPX_HUB_PORT_MSG_LEN);
	assert_int_equal(ipx_hub_port_msg_parse(msg, IPX_HUB_PORT_MSG_LEN),
			 IPX_HUB_MSG_ANNOUNCE);
	/* Trailing bytes beyond the length field are allowed, as for IPX. */
	assert_int_equal(ipx_hub_port_msg_parse(msg, sizeof(msg)),
			 IPX_HUB_MSG_ANNOUNCE);
	for (size_t len = 0; len < IPX_HUB_PORT_MSG_LEN; len++)
		assert_int_equal(ipx_hub_port_msg_parse(msg, len), 0);
	ipx_hub_port_msg(msg, node, ipx_hub_keepalive_node,
			 IPX_HUB_MSG_ANNOUNCE);	/* from the hub: no */
	assert_int_equal(ipx_hub_port_msg_parse(msg, IPX_HUB_PORT_MSG_LEN), 0);
	ipx_hub_port_msg(msg, node, ipx_hub_keepalive_node,
			 IPX_HUB_MSG_REFUSED);
	assert_int_equal(ipx_hub_port_msg_parse(msg, IPX_HUB_PORT_MSG_LEN),
			 IPX_HUB_MSG_REFUSED);
	msg[IPX_HDR_LEN + 9] = 9;		/* unknown operation */
	assert_int_equal(ipx_hub_port_msg_parse(msg, IPX_HUB_PORT_MSG_LEN), 0);
}

static void a_port_gets_broadcasts_and_unknown_unicasts_only(void **state)
{
	struct hub_rig *r = *state;
	const struct ipx_hub_stats *s = ipx_hub_stats(r->hub);
	uint8_t node[6];
	int at;

	announce(r, PORT1);
	at = r->n;
	send_own(r, C1, far_x);			/* unknown: flooded */
	assert_int_equal(sent_to(r, PORT1, at), 1);
	assert_int_equal(sent_to(r, C2, at), 0);
	assert_int_equal(r->n - at, 1);
	assert_memory_equal(r->out[at].pkt + 10, far_x, 6);
	assert_int_equal(s->flooded, 1);
	assert_int_equal(s->flood_copies, 1);
	assert_int_equal(s->drops[IPX_HUB_DROP_UNKNOWN_DEST], 0);
	at = r->n;
	send_own(r, C1, node_of(C2, node));	/* a client's: to it alone */
	assert_int_equal(r->n - at, 1);
	assert_int_equal(sent_to(r, C2, at), 1);
	at = r->n;
	send_own(r, C1, ipx_node_broadcast);	/* everyone but the sender */
	assert_int_equal(r->n - at, 2);
	assert_int_equal(sent_to(r, PORT1, at), 1);
	assert_int_equal(sent_to(r, C2, at), 1);
	assert_int_equal(s->unicasts, 1);
	assert_int_equal(s->broadcasts, 1);
}

/* Without a port an unknown unicast is dropped, as before. */
static void without_a_port_unknown_unicasts_are_dropped(void **state)
{
	struct hub_rig *r = *state;
	const struct ipx_hub_stats *s = ipx_hub_stats(r->hub);

	send_own(r, C1, far_x);
	assert_int_equal(r->n, 0);
	assert_int_equal(s->drops[IPX_HUB_DROP_UNKNOWN_DEST], 1);
	assert_int_equal(s->flooded, 0);
}

static void a_port_may_send_any_source_and_the_hub_learns_it(void **state)
{
	struct hub_rig *r = *state;
	const struct ipx_hub_stats *s = ipx_hub_stats(r->hub);
	uint8_t node[6];
	int at;

	announce(r, PORT1);
	at = r->n;
	send_from(r, PORT1, far_x, node_of(C1, node));
	assert_int_equal(r->n - at, 1);
	assert_int_equal(sent_to(r, C1, at), 1);
	assert_memory_equal(r->out[at].pkt + 22, far_x, 6);	/* as it was */
	assert_int_equal(s->port_frames, 1);
	assert_int_equal(s->drops[IPX_HUB_DROP_FORGED], 0);
	assert_int_equal(ipx_hub_learned_count(r->hub), 1);
	assert_true(ipx_hub_has_node(r->hub, far_x));
	assert_false(ipx_hub_has_node(r->hub, far_y));
	/* A unicast for the learned node goes to the port, not flooded. */
	at = r->n;
	send_own(r, C2, far_x);
	assert_int_equal(r->n - at, 1);
	assert_int_equal(sent_to(r, PORT1, at), 1);
	assert_int_equal(s->port_unicasts, 1);
	assert_int_equal(s->flooded, 0);
	/* Its own frames (its own node) are not another station's. */
	send_own(r, PORT1, node_of(C1, node));
	assert_int_equal(s->port_frames, 1);
	assert_int_equal(ipx_hub_learned_count(r->hub), 1);
}

static void an_ordinary_client_still_may_not_forge(void **state)
{
	struct hub_rig *r = *state;
	const struct ipx_hub_stats *s = ipx_hub_stats(r->hub);
	uint8_t node[6];

	send_from(r, C1, far_x, node_of(C2, node));
	assert_int_equal(r->n, 0);
	assert_int_equal(s->drops[IPX_HUB_DROP_FORGED], 1);
	assert_int_equal(ipx_hub_learned_count(r->hub), 0);
}

/* A port may not speak for a client of this hub, nor teach the hub that a
 * client lives behind it. */
static void a_port_may_not_use_a_clients_node(void **state)
{
	struct hub_rig *r = *state;
	const struct ipx_hub_stats *s = ipx_hub_stats(r->hub);
	uint8_t c1[6], c2[6];

	announce(r, PORT1);
	r->n = 0;
	send_from(r, PORT1, node_of(C1, c1), node_of(C2, c2));
	assert_int_equal(r->n, 0);
	assert_int_equal(s->drops[IPX_HUB_DROP_FORGED], 1);
	assert_int_equal(s->port_frames, 0);
	assert_int_equal(ipx_hub_learned_count(r->hub), 0);
}

static void two_ports_flood_learn_and_filter(void **state)
{
	struct hub_rig *r = *state;
	const struct ipx_hub_stats *s = ipx_hub_stats(r->hub);
	uint8_t node[6];
	int at;

	hubrig_register(r, PORT2, 0);
	announce(r, PORT1);
	announce(r, PORT2);
	at = r->n;
	send_own(r, C1, far_x);			/* to both ports */
	assert_int_equal(r->n - at, 2);
	assert_int_equal(sent_to(r, PORT1, at), 1);
	assert_int_equal(sent_to(r, PORT2, at), 1);
	assert_int_equal(s->flooded, 1);
	assert_int_equal(s->flood_copies, 2);
	/* From port 1, unknown destination: to port 2 only. */
	at = r->n;
	send_from(r, PORT1, far_x, far_y);
	assert_int_equal(r->n - at, 1);
	assert_int_equal(sent_to(r, PORT2, at), 1);
	/* x lives behind port 1: port 2's frame for it goes there. */
	at = r->n;
	send_from(r, PORT2, far_y, far_x);
	assert_int_equal(r->n - at, 1);
	assert_int_equal(sent_to(r, PORT1, at), 1);
	assert_int_equal(s->port_unicasts, 1);
	/* Port 1's frame for x stays on port 1's segment. */
	at = r->n;
	send_from(r, PORT1, node_of(PORT1, node), far_x);
	assert_int_equal(r->n - at, 0);
	assert_int_equal(s->drops[IPX_HUB_DROP_SAME_PORT], 1);
	/* x moves behind port 2. */
	send_from(r, PORT2, far_x, node_of(C1, node));
	at = r->n;
	send_own(r, C2, far_x);
	assert_int_equal(r->n - at, 1);
	assert_int_equal(sent_to(r, PORT2, at), 1);
	assert_int_equal(ipx_hub_learned_count(r->hub), 2);
}

/* A port that leaves takes what was learned behind it along. */
static void a_port_that_leaves_is_forgotten_with_its_nodes(void **state)
{
	struct hub_rig *r = *state;
	const struct ipx_hub_stats *s = ipx_hub_stats(r->hub);
	uint8_t node[6];

	announce(r, PORT1);
	send_from(r, PORT1, far_x, node_of(C1, node));
	assert_int_equal(ipx_hub_learned_count(r->hub), 1);
	/* Only C1 and C2 speak for longer than the idle timeout. */
	for (int i = 0; i < 130; i++) {
		send_own(r, C1, node_of(C2, node));
		send_own(r, C2, node_of(C1, node));
		ipx_loop_run_for(r->loop, IPX_SEC);
	}
	assert_int_equal(ipx_hub_client_count(r->hub), 2);
	assert_int_equal(ipx_hub_port_count(r->hub), 0);
	assert_int_equal(ipx_hub_learned_count(r->hub), 0);
	r->n = 0;
	send_own(r, C1, far_x);
	assert_int_equal(r->n, 0);
	assert_int_equal(s->drops[IPX_HUB_DROP_UNKNOWN_DEST], 1);
}

static void learned_nodes_age_out(void **state)
{
	struct ipx_hub_options o = { .learn_age = 2 * IPX_SEC };
	struct hub_rig *r = hubrig_new_opts(&o);
	const struct ipx_hub_stats *s = ipx_hub_stats(r->hub);
	uint8_t node[6];

	(void)state;
	hubrig_register(r, PORT1, 0);
	hubrig_register(r, PORT2, 0);
	hubrig_register(r, C1, 0);
	announce(r, PORT1);
	announce(r, PORT2);
	send_from(r, PORT1, far_x, node_of(C1, node));
	ipx_loop_run_for(r->loop, IPX_SEC);
	send_own(r, C1, far_x);
	assert_int_equal(s->port_unicasts, 1);
	ipx_loop_run_for(r->loop, IPX_SEC);	/* 2 s since x was heard */
	r->n = 0;
	send_own(r, C1, far_x);
	assert_int_equal(s->port_unicasts, 1);
	assert_int_equal(s->flooded, 1);
	assert_int_equal(r->n, 2);
	assert_int_equal(ipx_hub_learned_count(r->hub), 0);
	hubrig_free(r);
}

/* A node that registers as a client is no longer behind a port. */
static void a_learned_node_that_registers_is_a_client(void **state)
{
	struct hub_rig *r = *state;
	uint8_t node[6], c1[6];
	int at;

	announce(r, PORT1);
	node_of(6000, node);
	send_from(r, PORT1, node, node_of(C1, c1));
	assert_int_equal(ipx_hub_learned_count(r->hub), 1);
	hubrig_register(r, 6000, 0);
	assert_int_equal(ipx_hub_learned_count(r->hub), 0);
	at = r->n;
	send_own(r, C1, node_of(6000, node));
	assert_int_equal(r->n - at, 1);
	assert_int_equal(sent_to(r, 6000, at), 1);
}

static void the_table_is_bounded_and_counts_what_it_missed(void **state)
{
	struct hub_rig *r = *state;
	const struct ipx_hub_stats *s = ipx_hub_stats(r->hub);
	uint8_t src[6] = { 0x00, 0x00, 0x1C, 0, 0, 0 }, node[6];

	announce(r, PORT1);
	for (unsigned i = 0; i < 4097; i++) {
		src[3] = (uint8_t)(i >> 16);
		src[4] = (uint8_t)(i >> 8);
		src[5] = (uint8_t)i;
		send_from(r, PORT1, src, node_of(C1, node));
		r->n = 0;
	}
	assert_int_equal(ipx_hub_learned_count(r->hub), 4096);
	assert_int_equal(s->learn_full, 1);
	assert_int_equal(s->port_frames, 4097);
	/* The broadcast node is no station's: not learned. */
	send_from(r, PORT1, ipx_node_broadcast, node_of(C1, node));
	assert_int_equal(s->learn_full, 1);
}

/* A full table makes room from aged entries (swept at most once a
 * second). */
static void a_full_table_takes_new_nodes_once_old_ones_age(void **state)
{
	struct ipx_hub_options o = { .learn_age = 2 * IPX_SEC };
	struct hub_rig *r = hubrig_new_opts(&o);
	const struct ipx_hub_stats *s = ipx_hub_stats(r->hub);
	uint8_t src[6] = { 0x00, 0x00, 0x1C, 0, 0, 0 }, node[6];

	(void)state;
	hubrig_register(r, PORT1, 0);
	hubrig_register(r, C1, 0);
	announce(r, PORT1);
	for (unsigned i = 0; i < 4097; i++) {
		src[4] = (uint8_t)(i >> 8);
		src[5] = (uint8_t)i;
		send_from(r, PORT1, src, node_of(C1, node));
		r->n = 0;
	}
	assert_int_equal(s->learn_full, 1);
	ipx_loop_run_for(r->loop, 3 * IPX_SEC);
	send_from(r, PORT1, far_x, node_of(C1, node));
	assert_int_equal(s->learn_full, 1);
	assert_int_equal(ipx_hub_learned_count(r->hub), 1);
	hubrig_free(r);
}

static void allow_bridge_refuses_other_addresses(void **state)
{
	struct ipx_hub_options o = { .nbridge_allow = 1 };
	struct hub_rig *r;
	const struct ipx_hub_stats *s;
	uint8_t node[6];

	(void)state;
	o.bridge_allow[0].s_addr = htonl(0x7F000002);	/* not 127.0.0.1 */
	r = hubrig_new_opts(&o);
	s = ipx_hub_stats(r->hub);
	hubrig_register(r, PORT1, 0);
	hubrig_register(r, C1, 0);
	r->n = 0;
	announce(r, PORT1);
	assert_int_equal(r->n, 1);
	assert_int_equal(ipx_hub_port_msg_parse(r->out[0].pkt, r->out[0].len),
			 IPX_HUB_MSG_REFUSED);
	assert_int_equal(s->port_refused, 1);
	assert_false(ipx_hub_is_port(r->hub, node_of(PORT1, node)));
	send_from(r, PORT1, far_x, node_of(C1, node));
	assert_int_equal(s->drops[IPX_HUB_DROP_FORGED], 1);
	hubrig_free(r);
	/* Its own address allowed: accepted. */
	o.bridge_allow[0].s_addr = htonl(0x7F000001);
	r = hubrig_new_opts(&o);
	hubrig_register(r, PORT1, 0);
	r->n = 0;
	announce(r, PORT1);
	assert_int_equal(ipx_hub_port_msg_parse(r->out[0].pkt, r->out[0].len),
			 IPX_HUB_MSG_ACCEPTED);
	hubrig_free(r);
	/* none: nobody. */
	memset(&o, 0, sizeof(o));
	o.bridge_refuse = true;
	r = hubrig_new_opts(&o);
	hubrig_register(r, PORT1, 0);
	announce(r, PORT1);
	assert_int_equal(ipx_hub_stats(r->hub)->port_refused, 1);
	assert_int_equal(ipx_hub_port_count(r->hub), 0);
	hubrig_free(r);
}

/* An unregistered sender cannot announce. */
static void an_unregistered_announcement_is_dropped(void **state)
{
	struct hub_rig *r = *state;

	announce(r, 7000);
	assert_int_equal(r->n, 0);
	assert_int_equal(ipx_hub_stats(r->hub)->drops[IPX_HUB_DROP_UNREGISTERED],
			 1);
	assert_int_equal(ipx_hub_port_count(r->hub), 0);
}

/* From an Ethernet uplink (bridge.h), a unicast for a learned node goes
 * to its port. */
static void uplink_frames_reach_learned_nodes(void **state)
{
	struct hub_rig *r = *state;
	uint8_t p[64], node[6], lan[6] = { 0x00, 0x80, 0x29, 1, 2, 3 };

	announce(r, PORT1);
	send_from(r, PORT1, far_x, node_of(C1, node));
	r->n = 0;
	assert_int_equal(ipx_hub_deliver(r->hub, p, frame(p, lan, far_x)), 1);
	assert_int_equal(r->n, 1);
	assert_int_equal(sent_to(r, PORT1, 0), 1);
}

/* The counters say what happened, by name. */
static void the_counters_are_printed(void **state)
{
	struct hub_rig *r = *state;
	uint8_t node[6];
	char buf[8192] = "";
	FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");

	assert_non_null(f);
	announce(r, PORT1);
	send_from(r, PORT1, far_x, node_of(C1, node));
	send_own(r, C1, far_y);
	ipx_hub_print_stats(r->hub, f);
	fclose(f);
	assert_non_null(strstr(buf, "\nbridge_ports 1\n"));
	assert_non_null(strstr(buf, "\nport_announces 1\n"));
	assert_non_null(strstr(buf, "\nport_frames 1\n"));
	assert_non_null(strstr(buf, "\nflooded 1\n"));
	assert_non_null(strstr(buf, "\nlearned 1\n"));
	assert_non_null(strstr(buf, "\ndrop_bridge_same_port 0\n"));
	assert_non_null(strstr(buf, "node 7F0000011388 bridge-port rx 3"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
		T(an_announcement_is_accepted_and_answered),
		T(near_misses_are_keepalive_answers),
		cmocka_unit_test(the_message_parses_only_whole_and_in_its_direction),
		T(a_port_gets_broadcasts_and_unknown_unicasts_only),
		T(without_a_port_unknown_unicasts_are_dropped),
		T(a_port_may_send_any_source_and_the_hub_learns_it),
		T(an_ordinary_client_still_may_not_forge),
		T(a_port_may_not_use_a_clients_node),
		T(two_ports_flood_learn_and_filter),
		T(a_port_that_leaves_is_forgotten_with_its_nodes),
		cmocka_unit_test(learned_nodes_age_out),
		T(a_learned_node_that_registers_is_a_client),
		T(the_table_is_bounded_and_counts_what_it_missed),
		cmocka_unit_test(a_full_table_takes_new_nodes_once_old_ones_age),
		cmocka_unit_test(allow_bridge_refuses_other_addresses),
		T(an_unregistered_announcement_is_dropped),
		T(uplink_frames_reach_learned_nodes),
		T(the_counters_are_printed),
#undef T
	};

	ipx_log_set_level(IPX_LOG_ERROR);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
