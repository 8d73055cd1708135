/*
 * fuzz_netbios_wire.c - libFuzzer harness for every NetBIOS-over-IPX
 * parser in src/netbios/wire.c. Each input goes through all of them:
 *
 *  1. nb_packet_classify, as the payload of a type-4 and of a type-20
 *     packet: a classified body lies inside the input, starts with the
 *     data stream type, and follows the documented rule (the list iff
 *     type 20, or 50 bytes with a name type at 33 and no session or
 *     datagram type at 1);
 *  2. the name-management, session-header, datagram-header and call-
 *     request decoders on the classified body: what they accept
 *     re-encodes to the same bytes; the session decoder never accepts a
 *     data length beyond the packet;
 *  3. nb_adapter_status_decode: never reports a name beyond the buffer;
 *  4. the name syntax: whatever nb_name_parse accepts is a valid name
 *     that formats and parses back to itself, and any 16 valid bytes
 *     format into text that parses back to them.
 */
#include <string.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/netbios.h"

#include "fuzz_common.h"

static bool name_type(uint8_t ds)
{
	return ds >= NB_DS_FIND_NAME && ds <= NB_DS_DEREGISTER;
}

static bool direct_type(uint8_t ds)
{
	return (ds >= NB_DS_SESSION_DATA && ds <= NB_DS_SESSION_END_ACK) ||
	       ds == NB_DS_DATAGRAM;
}

static void check_name_roundtrip(const uint8_t name[NB_NAME_LEN])
{
	char text[NB_NAME_STRLEN];
	uint8_t back[NB_NAME_LEN];

	nb_name_format(name, text);
	CHECK(strlen(text) < NB_NAME_STRLEN);
	if (!nb_name_valid(name))
		return;
	CHECK(nb_name_parse(text, false, back) == IPX_OK);
	CHECK(memcmp(back, name, NB_NAME_LEN) == 0);
}

static void check_bodies(const uint8_t *p, size_t len, const struct nb_packet *pk)
{
	struct nb_name_pkt np;
	struct nb_sess_hdr sh;
	struct nb_dgram_hdr dh;
	struct nb_call_req cr;
	uint8_t out[NB_NAME_PKT_LEN];

	CHECK(pk->body >= p && pk->body + pk->len == p + len);
	CHECK(pk->len >= 2 && pk->ds == pk->body[1]);
	if (nb_name_pkt_decode(pk, &np) == IPX_OK) {
		CHECK(pk->len >= 2 + NB_NAME_LEN);
		nb_name_pkt_encode(&np, out);
		CHECK(!memcmp(out + NB_ROUTES_LEN, pk->body, 2 + NB_NAME_LEN));
		if (pk->routes)
			CHECK(!memcmp(out, p, NB_ROUTES_LEN));
		check_name_roundtrip(np.name);
	} else {
		CHECK(pk->len < 2 + NB_NAME_LEN);
	}
	if (nb_sess_hdr_decode(pk->body, pk->len, &sh) == IPX_OK) {
		CHECK(pk->len >= NB_SESS_HDR_LEN);
		CHECK((size_t)sh.len <= pk->len - NB_SESS_HDR_LEN);
		nb_sess_hdr_encode(&sh, out);
		CHECK(!memcmp(out, pk->body, NB_SESS_HDR_LEN));
		if (nb_call_req_decode(pk->body + NB_SESS_HDR_LEN, sh.len, &cr) ==
		    IPX_OK) {
			uint8_t c[NB_CALL_DATA_LEN];

			CHECK(sh.len >= NB_CALL_DATA_LEN);
			nb_call_req_encode(&cr, c);
			CHECK(!memcmp(c, pk->body + NB_SESS_HDR_LEN, sizeof(c)));
		}
	}
	if (nb_dgram_hdr_decode(pk->body, pk->len, &dh) == IPX_OK) {
		CHECK(pk->len >= NB_DGRAM_HDR_LEN);
		nb_dgram_hdr_encode(&dh, out);
		CHECK(!memcmp(out, pk->body, NB_DGRAM_HDR_LEN));
	}
}

static void check_classify(const uint8_t *p, size_t len)
{
	struct nb_packet pk;
	int rc;

	rc = nb_packet_classify(IPX_TYPE_NETBIOS, p, len, &pk);
	CHECK((rc == IPX_OK) == (len >= NB_ROUTES_LEN + 2));
	if (rc == IPX_OK) {
		CHECK(pk.routes && pk.body == p + NB_ROUTES_LEN);
		check_bodies(p, len, &pk);
	}
	if (len < 2)
		return;	/* (classify reads byte 33 only of 50-byte input) */
	rc = nb_packet_classify(IPX_TYPE_PEP, p, len, &pk);
	CHECK(rc == IPX_OK);
	CHECK(pk.routes == (len == NB_NAME_PKT_LEN && name_type(p[33]) &&
			    !direct_type(p[1])));
	check_bodies(p, len, &pk);
}

static void check_status(const uint8_t *p, size_t len)
{
	static struct nb_adapter_status st;

	if (nb_adapter_status_decode(p, len, &st) != IPX_OK) {
		CHECK(len < NB_AS_LEN);
		return;
	}
	CHECK(st.names_present <= st.name_count);
	CHECK(NB_AS_LEN + (size_t)st.names_present * NB_AS_NAME_LEN <= len);
	for (unsigned i = 0; i < st.names_present; i++)
		CHECK(st.names[i].num ==
		      p[NB_AS_LEN + i * NB_AS_NAME_LEN + NB_NAME_LEN]);
}

static void check_name_text(const uint8_t *p, size_t len)
{
	char text[128];
	uint8_t name[NB_NAME_LEN];
	size_t n = len < sizeof(text) - 1 ? len : sizeof(text) - 1;

	memcpy(text, p, n);
	text[n] = '\0';
	for (int star = 0; star < 2; star++) {
		if (nb_name_parse(text, star, name) != IPX_OK)
			continue;
		if (name[0] == '*') {
			CHECK(star && !strcmp(text, "*"));
			continue;
		}
		CHECK(nb_name_valid(name));
		check_name_roundtrip(name);
	}
	if (len >= NB_NAME_LEN)
		check_name_roundtrip(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check_classify(data, size);
	check_status(data, size);
	check_name_text(data, size);
	return 0;
}
