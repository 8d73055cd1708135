/*
 * fuzz_ncp_burst.c - libFuzzer harness for the packet-burst header
 * parser and both ends' burst input (src/ncp/burst_wire.c, burst.c,
 * src/fileserver/fn_burst.c): a server with a burst connection made by a
 * scripted client (0x65, a file open), to which the fuzzed bytes go as a
 * packet; the same bytes through the parser, the arrival map, and a
 * client's input.
 *
 * Input: byte 0 flags, the rest a burst packet.
 *   bit 0  patch type 0x7777 and the session's IDs, so the connection
 *          is found
 *   bit 1  patch the data bytes to what the packet holds (SYS: the list
 *          count), so a fragment is taken
 *   bit 2  put a burst request header (read or write of the open file)
 *          at the data, and data offset 0
 *   bit 3  send the packet twice
 *
 * Invariants: no crash; a packet the parser accepts has its data (or its
 * list) inside the packet and its data inside the burst; the map counts
 * each byte once and its gaps are exactly the bytes not marked.
 */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ipxlab/bytes.h"
#include "ipxlab/ncp_burst.h"
#include "ipxlab/ncp_client.h"
#include "ipxlab/ncp_server.h"

#include "fuzz_ncp_world.h"

#define OUR_ID 0xABCD0001u

static struct ncp_world w;
static struct ncp_server *srv;
static struct ncp_client *cl;
static struct ipx_socket *cs;
static char root[64];
static uint16_t conn;
static uint8_t seq, last[64], handle[6];
static size_t last_len;
static uint32_t sid;

static void on_reply(struct ipx_socket *s, const struct ipx_header *h,
		     const uint8_t *data, size_t len, void *ctx)
{
	(void)s;
	(void)h;
	(void)ctx;
	if (len < 8 || ipx_get16(data) != 0x3333)
		return;
	last_len = len < sizeof(last) ? len : sizeof(last);
	memcpy(last, data, last_len);
	if (!conn)
		conn = (uint16_t)(data[3] | data[5] << 8);
}

static void send_pkt(const uint8_t *p, size_t len)
{
	struct ipx_addr to;

	ipx_node_address(w.a, &to);
	to.socket = 0x451;
	ipx_socket_sendto(cs, &to, 17, p, len);
	CHECK(ipx_loop_run_for(w.loop, 5 * IPX_MSEC) == IPX_OK);
}

static void request(uint8_t fn, const uint8_t *data, size_t len)
{
	uint8_t p[600];

	seq++;
	ipx_put16(p, 0x2222);
	p[2] = seq;
	p[3] = (uint8_t)conn;
	p[4] = 1;
	p[5] = (uint8_t)(conn >> 8);
	p[6] = fn;
	memcpy(p + 7, data, len);
	last_len = 0;
	send_pkt(p, 7 + len);
}

static int rm_one(const char *p, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(p);
}

static void cleanup(void)
{
	ncp_client_free(cl);
	ncp_server_free(srv);
	nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* Create, log in, a directory handle on SYS:, 0x65, open F.DAT. */
static void session(void)
{
	uint8_t q[18];

	send_pkt((const uint8_t[]){ 0x11, 0x11, 0, 0xFF, 2, 0xFF, 0 }, 7);
	CHECK(conn != 0);
	request(0x17, (const uint8_t *)"\x00\x0A\x14\x00\x01\x05GUEST\x00", 12);
	request(0x16, (const uint8_t *)"\x00\x07\x12\x00\x5A\x04SYS:", 10);
	ipx_put32(q, OUR_ID);
	ipx_put32(q + 4, 1000);
	ipx_put16(q + 8, 0x4030);
	ipx_put32(q + 10, 4096);
	ipx_put32(q + 14, 4096);
	request(0x65, q, sizeof(q));
	CHECK(last_len >= 24 && last[6] == 0);
	sid = ipx_get32(last + 8);
	request(0x4C, (const uint8_t *)"\x01\x00\x03\x05""F.DAT", 9);
	CHECK(last_len >= 14 && last[6] == 0);
	memcpy(handle, last + 8, 6);
}

static void world(void)
{
	struct ncp_server_opts o = { .name = "FUZZBST", .nvolumes = 1,
				     .max_connections = 4, .max_handles = 8,
				     .burst_max = 4096, .allow_clear_text = true };
	char err[256], p[256];
	FILE *f;

	ncp_world_open(&w);
	snprintf(root, sizeof(root), "/tmp/fuzz-burst.XXXXXX");
	CHECK(mkdtemp(root));
	atexit(cleanup);
	snprintf(p, sizeof(p), "%s/sys", root);
	CHECK(mkdir(p, 0755) == 0);
	snprintf(p, sizeof(p), "%s/sys/F.DAT", root);
	f = fopen(p, "w");
	CHECK(f);
	for (int i = 0; i < 10000; i++)
		fputc(i & 0xFF, f);
	fclose(f);
	strcpy(o.volumes[0].name, "SYS");
	snprintf(o.volumes[0].dir, sizeof(o.volumes[0].dir), "%s/sys", root);
	CHECK(ncp_server_new(w.a, &o, &srv, err, sizeof(err)) == IPX_OK);
	CHECK(ipx_socket_open(w.b, 0x4030, on_reply, NULL, &cs) == IPX_OK);
	CHECK(ncp_client_new(w.b, NULL, &cl) == IPX_OK);
	session();
}

/* The parser's promises and the map's, on these bytes. */
static void check_parser(const uint8_t *p, size_t len)
{
	static struct ncp_burst_map m;
	struct ncp_burst_gap g[64];
	struct ncp_burst_hdr h;
	const uint8_t *body;
	size_t n, sum = 0, fresh;

	if (!m.bits)
		CHECK(ncp_burst_map_new(&m, 4096) == IPX_OK);
	if (ncp_burst_decode(p, len, &h, &body) < 0)
		return;
	CHECK(body == p + NCP_BURST_HDR_LEN);
	if (h.flags & NCP_BF_SYS) {
		CHECK(NCP_BURST_HDR_LEN + (size_t)h.nmissing * 6 <= len);
		return;
	}
	CHECK(NCP_BURST_HDR_LEN + (size_t)h.data_len <= len);
	CHECK((uint64_t)h.offset + h.data_len <= h.burst_len);
	ncp_burst_map_reset(&m, h.burst_len > 4096 ? 4096 : h.burst_len);
	fresh = ncp_burst_map_mark(&m, h.offset, h.data_len);
	CHECK(ncp_burst_map_mark(&m, h.offset, h.data_len) == 0);
	CHECK(fresh == m.have && m.have <= m.len);
	n = ncp_burst_map_gaps(&m, g, 64);
	for (size_t i = 0; i < n; i++) {
		CHECK(g[i].len > 0 && g[i].off + g[i].len <= m.len);
		CHECK(ncp_burst_map_mark(&m, g[i].off, g[i].len) == g[i].len);
		sum += g[i].len;
	}
	if (n < 64)
		CHECK(sum + fresh == m.len && ncp_burst_map_full(&m));
}

static void patch(uint8_t flags, uint8_t *p, size_t len)
{
	if (len < NCP_BURST_HDR_LEN)
		return;
	if (flags & 1) {
		ipx_put16(p, NCP_TYPE_BURST);
		ipx_put32(p + 4, OUR_ID);
		ipx_put32(p + 8, sid);
	}
	if (flags & 2) {
		size_t room = len - NCP_BURST_HDR_LEN;

		if (p[2] & NCP_BF_SYS)
			ipx_put16(p + 34, (uint16_t)(room / 6));
		else
			ipx_put16(p + 32, (uint16_t)(room > 0xFFFF ? 0xFFFF
								  : room));
	}
	if ((flags & 4) && len >= NCP_BURST_HDR_LEN + NCP_BURST_REQ_LEN) {
		struct ncp_burst_req r = { (p[3] & 1) + 1u, { 0 },
					   ipx_get16(p + 36 + 16), 0 };

		memcpy(r.handle, handle + 2, 4);
		r.count = ipx_get16(p + 36 + 20);
		ncp_burst_req_encode(&r, p + NCP_BURST_HDR_LEN);
		ipx_put32(p + 28, 0);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t p[1500];
	struct ipx_addr from;
	size_t len;
	uint8_t flags;

	if (!srv)
		world();
	if (size < 1)
		return 0;
	flags = data[0];
	len = size - 1 > 960 ? 960 : size - 1;
	memcpy(p, data + 1, len);
	patch(flags, p, len);
	check_parser(p, len);
	send_pkt(p, len);
	if (flags & 8)
		send_pkt(p, len);
	ipx_node_address(w.a, &from);
	from.socket = 0x451;
	ncp_client_input(cl, &from, p, len);
	/* the session stays usable (or is made again) for the next input */
	if (ncp_server_connections(srv) == 0) {
		conn = 0;
		seq = 0;
		session();
	}
	CHECK(ncp_server_open_files(srv) <= 8);
	return 0;
}
