/*
 * test_ncp_bindery.c - the server functions the ncpfs tools ask for, with
 * the request and reply layouts of Wireshark's NCP dissector and the
 * ncpfs library: 0x17 0x37 Scan Bindery Object (slist, nwbols) over the
 * users and the file servers known by SAP, 0x17 0x3C Scan Property and
 * 0x3D Read Property Value (NET_ADDRESS; nwboprops, nwbpvalues), 0x17
 * 0x1A/0x1C internet address and logged info (nwuserlist), 0x17 0xC9
 * description strings (nwfsinfo -d) and 0x16 0x2C volume and purge
 * information (nwvolinfo).
 */
#include "cm.h"

#include <string.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/sap.h"
#include "ncprig.h"

static int setup(void **state)
{
	*state = ncprig_new(NULL);
	return 0;
}

static int teardown(void **state)
{
	ncprig_free(*state);
	return 0;
}

/* A 0x16/0x17 request: length word, subfunction, data. */
static int sub(struct ncp_client *cl, uint8_t fn, uint8_t s, const void *d,
	       size_t len, uint8_t *rep, size_t cap, size_t *rl)
{
	uint8_t b[300];

	ipx_put16(b, (uint16_t)(len + 1));
	b[2] = s;
	if (len)
		memcpy(b + 3, d, len);
	return ncp_request(cl, fn, b, len + 3, rep, cap, rl);
}

/* 0x37: last ID, type, pattern. The reply's ID, or 0 with *cc set. */
static uint32_t scan(struct ncp_client *cl, uint32_t last, uint16_t type,
		     const char *pat, char *name, int *cc)
{
	uint8_t q[80], rep[80];
	size_t rl, n = strlen(pat);

	ipx_put32(q, last);
	ipx_put16(q + 4, type);
	q[6] = (uint8_t)n;
	memcpy(q + 7, pat, n);
	*cc = sub(cl, 0x17, 0x37, q, 7 + n, rep, sizeof(rep), &rl);
	if (*cc)
		return 0;
	assert_int_equal(rl, 57);
	/* flags: users static (0), file servers dynamic (1) */
	assert_int_equal(rep[54], ipx_get16(rep + 4) == NCP_OBJ_USER ? 0 : 1);
	assert_int_equal(ipx_get16(rep + 4), type == 0xFFFF ? ipx_get16(rep + 4)
							     : type);
	memcpy(name, rep + 6, 48);
	name[48] = '\0';
	return ipx_get32(rep);
}

static void test_scan_objects(void **state)
{
	struct ncprig *r = *state;
	struct ncp_client *cl, *in;
	struct ipx_addr a;
	char name[49], seen[200] = "";
	uint32_t id;
	int cc;

	/* Another file server on the segment, heard by the server's SAP. */
	assert_int_equal(ipx_sap_advertise(r->cli->sap, IPX_SAP_FILE_SERVER,
					   "OTHERFS", 0x451), IPX_OK);
	ncprig_run(r, 2 * IPX_SEC);
	assert_int_equal(ncp_client_new(r->cli->node, NULL, &cl), IPX_OK);
	ncprig_server_addr(r, &a);
	assert_int_equal(ncp_connect(cl, &a), 0);
	/* Not logged in: the file servers, as slist scans them. */
	id = scan(cl, 0xFFFFFFFF, IPX_SAP_FILE_SERVER, "*", name, &cc);
	assert_int_equal(cc, 0);
	assert_string_equal(name, "TESTSRV");
	id = scan(cl, id, IPX_SAP_FILE_SERVER, "*", name, &cc);
	assert_int_equal(cc, 0);
	assert_string_equal(name, "OTHERFS");
	scan(cl, id, IPX_SAP_FILE_SERVER, "*", name, &cc);
	assert_int_equal(cc, NCP_CC_NO_OBJECT);
	/* Users are shown only to a logged-in connection. */
	scan(cl, 0xFFFFFFFF, NCP_OBJ_USER, "*", name, &cc);
	assert_int_equal(cc, NCP_CC_NO_OBJECT);
	in = ncprig_login(r, "GUEST", "");
	for (id = 0xFFFFFFFF;
	     (id = scan(in, id, 0xFFFF, "*", name, &cc)) != 0;) {
		strcat(seen, name);
		strcat(seen, " ");
	}
	assert_int_equal(cc, NCP_CC_NO_OBJECT);
	assert_string_equal(seen, "SUPERVISOR GUEST ALICE TESTSRV OTHERFS ");
	assert_int_equal(scan(in, 0, NCP_OBJ_USER, "al*", name, &cc), 0x10002);
	assert_string_equal(name, "ALICE");
	scan(in, 0x10002, NCP_OBJ_USER, "AL*", name, &cc);
	assert_int_equal(cc, NCP_CC_NO_OBJECT);
	/* A pattern longer than a bindery name is malformed. */
	memset(seen, 'A', 60);
	seen[60] = '\0';
	scan(in, 0, 0xFFFF, seen, name, &cc);
	assert_int_equal(cc, NCP_CC_FAILURE);
	ncp_client_free(in);
	ncp_client_free(cl);
}

/* A property call: type, object name, 'mid' (segment or last sequence),
 * property name or pattern; the reply must be 'want' bytes long. */
static int prop_call(struct ncp_client *cl, uint8_t s, uint16_t type,
		     const char *obj, const void *mid, size_t midlen,
		     const char *prop, uint8_t *rep, size_t want)
{
	uint8_t q[120];
	size_t rl, n = strlen(obj), m = strlen(prop);
	int rc;

	ipx_put16(q, type);
	q[2] = (uint8_t)n;
	memcpy(q + 3, obj, n);
	memcpy(q + 3 + n, mid, midlen);
	q[3 + n + midlen] = (uint8_t)m;
	memcpy(q + 4 + n + midlen, prop, m);
	rc = sub(cl, 0x17, s, q, 4 + n + midlen + m, rep, 140, &rl);
	if (!rc)
		assert_int_equal(rl, want);
	return rc;
}

static int read_prop(struct ncp_client *cl, uint16_t type, const char *obj,
		     uint8_t seg, const char *prop, uint8_t *rep)
{
	return prop_call(cl, 0x3D, type, obj, &seg, 1, prop, rep, 130);
}

static void test_read_property(void **state)
{
	struct ncprig *r = *state;
	struct ncp_client *cl;
	struct ipx_addr a, o;
	uint8_t rep[140];

	assert_int_equal(ipx_sap_advertise(r->cli->sap, IPX_SAP_FILE_SERVER,
					   "OTHERFS", 0x451), IPX_OK);
	ncprig_run(r, 2 * IPX_SEC);
	cl = ncprig_login(r, "GUEST", "");
	ncprig_server_addr(r, &a);
	assert_int_equal(read_prop(cl, 4, "testsrv", 1, "NET_ADDRESS", rep), 0);
	assert_int_equal(ipx_get32(rep), a.net);
	assert_memory_equal(rep + 4, a.node, 6);
	assert_int_equal(ipx_get16(rep + 10), 0x451);
	assert_int_equal(rep[128], 0);	/* no more segments */
	assert_int_equal(rep[129], 1);	/* dynamic item */
	svcnet_addr(r->cli, 0x451, &o);
	assert_int_equal(read_prop(cl, 4, "OTHERFS", 1, "NET_ADDRESS", rep), 0);
	assert_int_equal(ipx_get32(rep), o.net);
	assert_memory_equal(rep + 4, o.node, 6);
	ncp_client_free(cl);
}

/* 0x3C: type, object, last sequence, pattern. */
static int scan_prop(struct ncp_client *cl, uint16_t type, const char *obj,
		     uint32_t last, const char *pat, uint8_t *rep)
{
	uint8_t l[4];

	ipx_put32(l, last);
	return prop_call(cl, 0x3C, type, obj, l, 4, pat, rep, 24);
}

static void test_scan_property(void **state)
{
	struct ncprig *r = *state;
	struct ncp_client *cl = ncprig_login(r, "GUEST", "");
	uint8_t rep[140];

	assert_int_equal(scan_prop(cl, 4, "TESTSRV", 0xFFFFFFFF, "*", rep), 0);
	assert_string_equal((const char *)rep, "NET_ADDRESS");
	assert_int_equal(rep[16], 1);
	assert_int_equal(ipx_get32(rep + 18), 1);
	assert_int_equal(rep[22], 0xFF);
	assert_int_equal(rep[23], 0);
	ncp_client_free(cl);
}

/* The refusals of 0x3C and 0x3D: no such property (0xFB), no such
 * object (0xFC). */
static void test_property_refusals(void **state)
{
	static const struct {
		uint8_t sub;
		uint16_t type;
		const char *obj;
		uint32_t mid;	/* segment (0x3D) or last sequence (0x3C) */
		const char *prop;
		int cc;
	} t[] = {
		{ 0x3D, 4, "TESTSRV", 2, "NET_ADDRESS", NCP_CC_UNKNOWN_REQUEST },
		{ 0x3D, 4, "TESTSRV", 1, "PASSWORD", NCP_CC_UNKNOWN_REQUEST },
		{ 0x3D, 1, "ALICE", 1, "NET_ADDRESS", NCP_CC_UNKNOWN_REQUEST },
		{ 0x3D, 4, "NOSUCH", 1, "NET_ADDRESS", NCP_CC_NO_OBJECT },
		{ 0x3C, 4, "TESTSRV", 1, "*", NCP_CC_UNKNOWN_REQUEST },
		{ 0x3C, 4, "TESTSRV", 0xFFFFFFFF, "PASS*",
		  NCP_CC_UNKNOWN_REQUEST },
		{ 0x3C, 1, "GUEST", 0xFFFFFFFF, "*", NCP_CC_UNKNOWN_REQUEST },
		{ 0x3C, 4, "NOSUCH", 0xFFFFFFFF, "*", NCP_CC_NO_OBJECT },
	};
	struct ncprig *r = *state;
	struct ncp_client *cl = ncprig_login(r, "GUEST", "");
	uint8_t rep[140];

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		int rc = t[i].sub == 0x3D
				 ? read_prop(cl, t[i].type, t[i].obj,
					     (uint8_t)t[i].mid, t[i].prop, rep)
				 : scan_prop(cl, t[i].type, t[i].obj,
					     t[i].mid, t[i].prop, rep);

		assert_int_equal(rc, t[i].cc);
	}
	ncp_client_free(cl);
}

/* 0x17 0x1C or 0x1A with a little-endian connection number. */
static int by_conn(struct ncp_client *cl, uint8_t s, uint32_t conn,
		   uint8_t *rep, size_t want)
{
	uint8_t q[4];
	size_t rl;
	int rc;

	q[0] = (uint8_t)conn;
	q[1] = (uint8_t)(conn >> 8);
	q[2] = (uint8_t)(conn >> 16);
	q[3] = (uint8_t)(conn >> 24);
	rc = sub(cl, 0x17, s, q, 4, rep, 80, &rl);
	if (!rc)
		assert_int_equal(rl, want);
	return rc;
}

static int logged_info(struct ncp_client *cl, uint32_t conn, uint8_t *rep)
{
	return by_conn(cl, 0x1C, conn, rep, 62);
}

static void test_station_info_strings_volume(void **state)
{
	struct ncprig *r = *state;
	struct ncp_client *cl = ncprig_login(r, "alice", "Secret");
	struct ncp_client *anon;
	struct ipx_addr a;
	uint8_t rep[600], old[20];
	size_t rl;

	/* 0x1C: the caller's connection, one not logged in, unused ones. */
	assert_int_equal(logged_info(cl, ncp_connection(cl), rep), 0);
	assert_int_equal(ipx_get32(rep), 0x10002);
	assert_int_equal(ipx_get16(rep + 4), NCP_OBJ_USER);
	assert_string_equal((const char *)rep + 6, "ALICE");
	assert_int_equal(ncp_client_new(r->cli->node, NULL, &anon), IPX_OK);
	ncprig_server_addr(r, &a);
	assert_int_equal(ncp_connect(anon, &a), 0);
	assert_int_equal(logged_info(cl, ncp_connection(anon), rep), 0);
	assert_int_equal(ipx_get32(rep), 0);
	assert_int_equal(rep[6], 0);
	assert_int_equal(logged_info(cl, 200, rep), NCP_CC_BAD_STATION);
	assert_int_equal(logged_info(cl, 0, rep), NCP_CC_BAD_STATION);
	assert_int_equal(logged_info(cl, 0x100 | ncp_connection(cl), rep),
			 NCP_CC_BAD_STATION);
	/* 0x1A: the connection's address and type 2 (IPX). */
	old[0] = (uint8_t)ncp_connection(anon);
	assert_int_equal(sub(cl, 0x17, 0x13, old, 1, old, sizeof(old), &rl),
			 0);
	assert_int_equal(rl, 12);
	assert_int_equal(ipx_get32(old), 0x10);
	assert_int_equal(by_conn(cl, 0x1A, ncp_connection(anon), rep, 13), 0);
	assert_memory_equal(rep, old, 12);
	assert_int_equal(rep[12], 2);
	assert_int_equal(by_conn(cl, 0x1A, 300, rep, 13), NCP_CC_BAD_STATION);
	ncp_client_free(anon);
	/* 0xC9: 512 bytes of NUL-terminated strings. */
	assert_int_equal(sub(cl, 0x17, 0xC9, NULL, 0, rep, sizeof(rep), &rl), 0);
	assert_int_equal(rl, 512);
	assert_string_equal((const char *)rep, "ipxlab");
	assert_true(strlen((const char *)rep + 7) > 0);
	/* 0x16 0x2C: volume 0 is SYS, 1 the read-only DATA (nothing free). */
	assert_int_equal(sub(cl, 0x16, 0x2C, "\x00", 1, rep, sizeof(rep), &rl),
			 0);
	assert_int_equal(rl, 33);
	assert_int_equal(rep[28], 64);
	assert_int_equal(rep[29], 3);
	assert_memory_equal(rep + 30, "SYS", 3);
	assert_true(ipx_get16le(rep) | ipx_get16le(rep + 2));
	assert_int_equal(sub(cl, 0x16, 0x2C, "\x01", 1, rep, sizeof(rep), &rl),
			 0);
	assert_int_equal(rl, 34);
	assert_memory_equal(rep + 4, "\0\0\0\0", 4);
	assert_memory_equal(rep + 30, "DATA", 4);
	assert_int_equal(sub(cl, 0x16, 0x2C, "\x09", 1, rep, sizeof(rep), &rl),
			 NCP_CC_NO_VOLUME);
	assert_int_equal(sub(cl, 0x16, 0x2C, NULL, 0, rep, sizeof(rep), &rl),
			 NCP_CC_NO_VOLUME);
	ncp_client_free(cl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_scan_objects, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_read_property, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_scan_property, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_property_refusals, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_station_info_strings_volume,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
