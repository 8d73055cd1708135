/*
 * test_addr.c - IPX address and socket parsing and printing, and matching
 * a peer's address across a network number it learnt.
 */
#include "cm.h"

#include <string.h>

#include "ipxlab/err.h"
#include "ipxlab/ipx.h"

static void parses_the_usual_notation(void **state)
{
	struct ipx_addr a;
	char out[IPX_ADDR_STRLEN];

	(void)state;
	assert_int_equal(ipx_addr_parse("0000ABCD:7F0000011234:4545", &a),
			 IPX_OK);
	assert_int_equal(a.net, 0xABCD);
	assert_memory_equal(a.node, "\x7F\x00\x00\x01\x12\x34", 6);
	assert_int_equal(a.socket, 0x4545);
	assert_string_equal(ipx_addr_format(&a, out),
			    "0000ABCD:7F0000011234:4545");
}

static void accepts_short_forms_and_separators(void **state)
{
	struct ipx_addr a;
	char out[IPX_ADDR_STRLEN];

	(void)state;
	assert_int_equal(ipx_addr_parse("1.2.453", &a), IPX_OK);
	assert_string_equal(ipx_addr_format(&a, out),
			    "00000001:000000000002:0453");
	assert_int_equal(ipx_addr_parse("0x10:ffffffffffff:0x455", &a), IPX_OK);
	assert_true(ipx_node_is_broadcast(a.node));
	assert_int_equal(a.net, 0x10);
	assert_int_equal(a.socket, 0x455);
	assert_int_equal(ipx_addr_parse("0:02-00-00-00-00-01:4000", &a), IPX_OK);
	assert_memory_equal(a.node, "\x02\x00\x00\x00\x00\x01", 6);
}

static void rejects_bad_addresses(void **state)
{
	static const char *const bad[] = {
		"", ":", "1:2", "1:2:", "1:2:3:4", "123456789:1:1",
		"1:1234567890123:1", "1:1:12345", "g:1:1", "1:1:1 ",
		" 1:1:1", "1:1.1", "1::1", "1:02-00-00:1", "1:2:-3",
		"0x:1:1",
	};
	struct ipx_addr a;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (ipx_addr_parse(bad[i], &a) != IPX_EINVAL)
			fail_msg("accepted bad address '%s'", bad[i]);
	}
	assert_int_equal(ipx_addr_parse(NULL, &a), IPX_EINVAL);
}

static void round_trips_every_byte_pattern(void **state)
{
	(void)state;
	for (unsigned i = 0; i < 256; i++) {
		struct ipx_addr a = { .net = i * 0x01010101u,
				      .socket = (uint16_t)(i * 0x0101) }, b;
		char out[IPX_ADDR_STRLEN];

		memset(a.node, (int)i, 6);
		a.node[0] = (uint8_t)~i;
		assert_int_equal(ipx_addr_parse(ipx_addr_format(&a, out), &b),
				 IPX_OK);
		assert_true(ipx_addr_eq(&a, &b));
	}
}

static void parses_sockets(void **state)
{
	uint16_t s;

	(void)state;
	assert_int_equal(ipx_socket_parse("4545", &s), IPX_OK);
	assert_int_equal(s, 0x4545);
	assert_int_equal(ipx_socket_parse("0x455", &s), IPX_OK);
	assert_int_equal(s, 0x455);
	assert_int_equal(ipx_socket_parse("12345", &s), IPX_EINVAL);
	assert_int_equal(ipx_socket_parse("45x", &s), IPX_EINVAL);
	assert_int_equal(ipx_socket_parse("", &s), IPX_EINVAL);
}

static void error_messages_exist(void **state)
{
	(void)state;
	assert_string_equal(ipx_strerror(IPX_OK), "success");
	assert_non_null(strstr(ipx_strerror(IPX_ESOCKFULL), "IPX SOCKETS"));
	assert_string_equal(ipx_strerror(-1000), "unknown error");
	assert_string_equal(ipx_strerror(5), "unknown error");
}

/* Two addresses are equal only when network, node and socket all are. */
static void equal_means_every_field(void **state)
{
	struct ipx_addr a = { .net = 0x10, .socket = 0x4545 }, b;

	(void)state;
	memcpy(a.node, "\x02\x00\x00\x00\x00\x01", 6);
	b = a;
	assert_true(ipx_addr_eq(&a, &b));
	b.socket = 0x4546;
	assert_false(ipx_addr_eq(&a, &b));
	b = a;
	b.net = 0x11;
	assert_false(ipx_addr_eq(&a, &b));
	b = a;
	b.node[5] = 2;
	assert_false(ipx_addr_eq(&a, &b));
	b = a;
	b.node[0] = 3;
	assert_false(ipx_addr_eq(&a, &b));
	assert_true(ipx_node_eq(a.node, a.node));
	assert_false(ipx_node_eq(a.node, b.node));
	assert_true(ipx_node_is_broadcast(ipx_node_broadcast));
	assert_false(ipx_node_is_broadcast(a.node));
	assert_true(ipx_node_is_zero(ipx_node_zero));
	assert_false(ipx_node_is_zero(a.node));
}

static void a_peer_matches_across_a_learnt_network(void **state)
{
	struct ipx_addr a, b;

	(void)state;
	assert_int_equal(ipx_addr_parse("0:020000000001:4000", &a), IPX_OK);
	b = a;
	b.net = 7;	/* the same node once it knows its number */
	assert_true(ipx_addr_match(&a, &b));
	assert_true(ipx_addr_match(&b, &a));
	assert_false(ipx_addr_eq(&a, &b));
	a.net = 8;	/* two known numbers that differ: another node */
	assert_false(ipx_addr_match(&a, &b));
	a.net = 0;
	a.socket = 0x4001;
	assert_false(ipx_addr_match(&a, &b));
	a.socket = 0x4000;
	a.node[5] = 2;
	assert_false(ipx_addr_match(&a, &b));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_the_usual_notation),
		cmocka_unit_test(accepts_short_forms_and_separators),
		cmocka_unit_test(rejects_bad_addresses),
		cmocka_unit_test(round_trips_every_byte_pattern),
		cmocka_unit_test(parses_sockets),
		cmocka_unit_test(error_messages_exist),
		cmocka_unit_test(equal_means_every_field),
		cmocka_unit_test(a_peer_matches_across_a_learnt_network),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
