/*
 * test_netbios_wire.c - the NetBIOS codecs byte for byte: which packets
 * carry the type-20 network list, name-management packets, the session
 * header (little-endian, as Wireshark reads it), datagram headers, call
 * requests, ADAPTER STATUS buffers, and names as people type them.
 */
#include "cm.h"

#include <string.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/netbios.h"

static void classify_follows_the_wireshark_rule(void **state)
{
	uint8_t p[60];
	struct nb_packet pk;

	(void)state;
	memset(p, 0, sizeof(p));
	/* Type 20: the list, whatever the length. */
	p[33] = NB_DS_FIND_NAME;
	assert_int_equal(nb_packet_classify(IPX_TYPE_NETBIOS, p, 50, &pk), IPX_OK);
	assert_true(pk.routes);
	assert_int_equal(pk.ds, NB_DS_FIND_NAME);
	assert_int_equal(pk.len, 18);
	assert_ptr_equal(pk.body, p + 32);
	assert_int_equal(nb_packet_classify(IPX_TYPE_NETBIOS, p, 33, &pk),
			 IPX_ESHORT);
	/* Type 4, 50 bytes, a name type at 33: an answer with the list. */
	assert_int_equal(nb_packet_classify(IPX_TYPE_PEP, p, 50, &pk), IPX_OK);
	assert_true(pk.routes);
	/* ... not at any other length ... */
	p[1] = NB_DS_SESSION_DATA;
	assert_int_equal(nb_packet_classify(IPX_TYPE_PEP, p, 51, &pk), IPX_OK);
	assert_false(pk.routes);
	assert_int_equal(pk.ds, NB_DS_SESSION_DATA);
	/* ... and a session type in byte 1 wins at 50 bytes. */
	assert_int_equal(nb_packet_classify(IPX_TYPE_PEP, p, 50, &pk), IPX_OK);
	assert_false(pk.routes);
	/* A bare 18-byte name packet (no list) on type 4. */
	p[0] = NB_NF_GROUP;
	p[1] = NB_DS_NAME_RECOGNIZED;
	assert_int_equal(nb_packet_classify(IPX_TYPE_PEP, p, 18, &pk), IPX_OK);
	assert_false(pk.routes);
	assert_int_equal(pk.ds, NB_DS_NAME_RECOGNIZED);
	assert_int_equal(nb_packet_classify(IPX_TYPE_PEP, p, 1, &pk), IPX_ESHORT);
}

static void name_packet_layout(void **state)
{
	struct nb_name_pkt np = { .flags = NB_NF_GROUP | NB_NF_REGISTERED,
				  .ds = NB_DS_CHECK_NAME },
			   d;
	struct nb_packet pk;
	uint8_t p[NB_NAME_PKT_LEN];

	(void)state;
	np.routes[0] = 0x11223344;
	memcpy(np.name, "WORKGROUP      \x1d", 16);
	nb_name_pkt_encode(&np, p);
	assert_memory_equal(p, "\x11\x22\x33\x44", 4);
	assert_int_equal(p[32], 0x84);
	assert_int_equal(p[33], 3);
	assert_memory_equal(p + 34, "WORKGROUP", 9);
	assert_int_equal(nb_packet_classify(IPX_TYPE_NETBIOS, p, sizeof(p), &pk),
			 IPX_OK);
	assert_int_equal(nb_name_pkt_decode(&pk, &d), IPX_OK);
	assert_int_equal(d.routes[0], 0x11223344);
	assert_int_equal(d.routes[7], 0);
	assert_int_equal(d.flags, np.flags);
	assert_memory_equal(d.name, np.name, 16);
	pk.len = 17;
	assert_int_equal(nb_name_pkt_decode(&pk, &d), IPX_ESHORT);
}

static void session_header_is_little_endian(void **state)
{
	struct nb_sess_hdr h = { .cc = NB_CC_ACK | NB_CC_EOM, .ds = 6,
				 .src_id = 0x1234, .dst_id = 0x5678,
				 .seq = 0x9ABC, .total = 65535, .offset = 1452,
				 .len = 2, .rcv_seq = 7, .rcv_bytes = 300 },
			   d;
	uint8_t p[NB_SESS_HDR_LEN + 2];

	(void)state;
	nb_sess_hdr_encode(&h, p);
	assert_memory_equal(p, "\x50\x06\x34\x12\x78\x56\xBC\x9A\xFF\xFF"
			       "\xAC\x05\x02\x00\x07\x00\x2C\x01", 18);
	p[18] = p[19] = 0;
	assert_int_equal(nb_sess_hdr_decode(p, 20, &d), IPX_OK);
	assert_int_equal(d.src_id, 0x1234);
	assert_int_equal(d.offset, 1452);
	assert_int_equal(d.rcv_bytes, 300);
	/* The data length may not claim more than the packet has; padding
	 * after it is fine. */
	assert_int_equal(nb_sess_hdr_decode(p, 19, &d), IPX_ESHORT);
	assert_int_equal(nb_sess_hdr_decode(p, 17, &d), IPX_ESHORT);
	ipx_put16le(p + 12, 1);
	assert_int_equal(nb_sess_hdr_decode(p, 20, &d), IPX_OK);
	assert_int_equal(d.len, 1);
}

static void datagram_and_call_request_layouts(void **state)
{
	struct nb_dgram_hdr h = { .cc = 0, .ds = NB_DS_DATAGRAM }, d;
	struct nb_call_req c = { .max_data = 1452 }, cd;
	uint8_t p[NB_DGRAM_HDR_LEN], q[NB_CALL_DATA_LEN];

	(void)state;
	memcpy(h.to, "TO-NAME        \x00", 16);
	memcpy(h.from, "FROM-NAME      \x03", 16);
	nb_dgram_hdr_encode(&h, p);
	assert_int_equal(p[1], 0x0B);
	assert_memory_equal(p + 2, "TO-NAME", 7);
	assert_memory_equal(p + 18, "FROM-NAME", 9);
	assert_int_equal(nb_dgram_hdr_decode(p, sizeof(p), &d), IPX_OK);
	assert_memory_equal(d.from, h.from, 16);
	assert_int_equal(nb_dgram_hdr_decode(p, 33, &d), IPX_ESHORT);
	memcpy(c.called, h.to, 16);
	memcpy(c.calling, h.from, 16);
	nb_call_req_encode(&c, q);
	assert_memory_equal(q + 32, "\xAC\x05", 2);
	assert_int_equal(nb_call_req_decode(q, sizeof(q), &cd), IPX_OK);
	assert_int_equal(cd.max_data, 1452);
	assert_memory_equal(cd.calling, c.calling, 16);
	assert_int_equal(nb_call_req_decode(q, 33, &cd), IPX_ESHORT);
}

static void adapter_status_decode_never_invents_names(void **state)
{
	uint8_t p[NB_AS_LEN + 2 * NB_AS_NAME_LEN];
	struct nb_adapter_status st;

	(void)state;
	memset(p, 0, sizeof(p));
	memcpy(p, "\x02\x00\x00\x00\x00\x07", 6);
	ipx_put16le(p + NB_AS_NAME_COUNT, 5);	/* says 5, holds 2 */
	ipx_put16le(p + NB_AS_XMIT_SUCCESS, 0x5678);
	ipx_put16le(p + NB_AS_XMIT_SUCCESS + 2, 0x1234);
	memcpy(p + NB_AS_LEN, "ALPHA", 5);
	p[NB_AS_LEN + 16] = 2;
	p[NB_AS_LEN + 17] = NB_NAME_REGISTERED;
	assert_int_equal(nb_adapter_status_decode(p, sizeof(p), &st), IPX_OK);
	assert_int_equal(st.name_count, 5);
	assert_int_equal(st.names_present, 2);
	assert_int_equal(st.xmit, 0x12345678);
	assert_int_equal(st.node[5], 7);
	assert_int_equal(st.names[0].num, 2);
	assert_int_equal(nb_adapter_status_decode(p, sizeof(p) - 1, &st), IPX_OK);
	assert_int_equal(st.names_present, 1);
	assert_int_equal(nb_adapter_status_decode(p, 59, &st), IPX_ESHORT);
}

static void names_as_typed_and_printed(void **state)
{
	uint8_t n[NB_NAME_LEN];
	char s[NB_NAME_STRLEN];

	(void)state;
	assert_int_equal(nb_name_parse("FOO", false, n), IPX_OK);
	assert_memory_equal(n, "FOO            \x00", 16);
	assert_string_equal(nb_name_format(n, s), "FOO<00>");
	assert_int_equal(nb_name_parse("SERVER<20>", false, n), IPX_OK);
	assert_memory_equal(n, "SERVER         \x20", 16);
	assert_string_equal(nb_name_format(n, s), "SERVER<20>");
	/* Exactly 16 characters: taken as they are. */
	assert_int_equal(nb_name_parse("ABCDEFGHIJKLMNOP", false, n), IPX_OK);
	assert_memory_equal(n, "ABCDEFGHIJKLMNOP", 16);
	assert_string_equal(nb_name_format(n, s), "ABCDEFGHIJKLMNO<50>");
	/* Escapes, both ways. */
	assert_int_equal(nb_name_parse("a\\x01b\\\\<1B>", false, n), IPX_OK);
	assert_memory_equal(n, "a\x01" "b\\           \x1b", 16);
	assert_string_equal(nb_name_format(n, s), "a\\x01b\\\\<1B>");
	assert_int_equal(nb_name_parse(s, false, n), IPX_OK);
	/* Refused: empty, too long, a bad escape, '*' and 0x00 first. */
	assert_int_equal(nb_name_parse("", false, n), IPX_EINVAL);
	assert_int_equal(nb_name_parse("ABCDEFGHIJKLMNOPQ", false, n),
			 IPX_EINVAL);
	assert_int_equal(nb_name_parse("ABCDEFGHIJKLMNOP<00>", false, n),
			 IPX_EINVAL);
	assert_int_equal(nb_name_parse("A\\xZZ", false, n), IPX_EINVAL);
	assert_int_equal(nb_name_parse("A\tB", false, n), IPX_EINVAL);
	assert_int_equal(nb_name_parse("*X", false, n), IPX_EINVAL);
	assert_int_equal(nb_name_parse("\\x00X", false, n), IPX_EINVAL);
	assert_int_equal(nb_name_parse("*", false, n), IPX_EINVAL);
	assert_int_equal(nb_name_parse("*", true, n), IPX_OK);
	assert_int_equal(n[0], '*');
	/* The permanent node name. */
	nb_permanent_name((const uint8_t *)"\x02\x00\x00\x00\x00\x09", n);
	assert_false(nb_name_valid(n));
	assert_string_equal(nb_name_format(n, s), "*node 020000000009");
	assert_false(nb_name_valid(nb_name_none));
}

static void return_codes_have_messages(void **state)
{
	(void)state;
	assert_string_equal(nb_strerror(NB_RC_INUSE),
			    "duplicate name: in use on another node");
	assert_non_null(strstr(nb_strerror(NB_RC_LOCTFUL), "NETBIOS SESSIONS"));
	assert_non_null(strstr(nb_strerror(NB_RC_TOOMANY), "NETBIOS COMMANDS"));
	assert_string_equal(nb_strerror(0x42), "unusual network condition");
	assert_string_equal(nb_strerror(0x02), "unknown return code");
	assert_string_equal(nb_command_name(NB_ADD_GROUP_NAME),
			    "ADD GROUP NAME");
	assert_string_equal(nb_command_name(0x01), "?");
	assert_string_equal(nb_drop_name(NB_DROP_BUSY), "busy");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(classify_follows_the_wireshark_rule),
		cmocka_unit_test(name_packet_layout),
		cmocka_unit_test(session_header_is_little_endian),
		cmocka_unit_test(datagram_and_call_request_layouts),
		cmocka_unit_test(adapter_status_decode_never_invents_names),
		cmocka_unit_test(names_as_typed_and_printed),
		cmocka_unit_test(return_codes_have_messages),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
