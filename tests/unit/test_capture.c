/*
 * test_capture.c - the capture module (capture.h): the exact bytes of the
 * pcap file it writes for tunnel-style IPX packets and whole Ethernet
 * frames, the live lines, and the one-line summaries of each protocol.
 * Fake clock, in-memory link, a temporary file.
 */
#include "cm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ipxlab/bytes.h"
#include "ipxlab/capture.h"
#include "ipxlab/err.h"
#include "ipxlab/ipx.h"
#include "ipxlab/link_mem.h"

static uint32_t get32le(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static size_t slurp(const char *path, uint8_t *buf, size_t cap)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, cap, f);
	fclose(f);
	return n;
}

static size_t make(uint8_t *pkt, const uint8_t dst[6], const uint8_t src[6],
		   uint8_t type, uint16_t dsock, const uint8_t *data,
		   size_t n)
{
	struct ipx_header h = { .checksum = IPX_NO_CHECKSUM,
				.length = (uint16_t)(IPX_HDR_LEN + n),
				.type = type };

	memcpy(h.dst.node, dst, 6);
	h.dst.socket = dsock;
	h.dst.net = 0x1234;
	memcpy(h.src.node, src, 6);
	h.src.socket = 0x4005;
	ipx_header_encode(&h, pkt);
	if (n)
		memcpy(pkt + IPX_HDR_LEN, data, n);
	return IPX_HDR_LEN + n;
}

static void pcap_bytes(void **state)
{
	static const uint8_t a[6] = { 0x7F, 0, 0, 1, 0x12, 0x34 };
	static const uint8_t b[6] = { 0x02, 0, 0, 0, 0, 2 };
	static const uint8_t frame[60] = { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
					   2, 0, 0, 0, 0, 3, 0x81, 0x37 };
	char path[] = "/tmp/ipxlab-test-capture-XXXXXX";
	struct ipx_capture_options co = { .pcap_path = path };
	struct ipx_clock clk;
	struct ipx_loop *loop;
	struct ipx_mem_segment *seg;
	struct ipx_link *la, *lb;
	struct ipx_capture *cap;
	uint8_t pkt[64], file[512];
	char err[128];
	size_t len, n, off;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	ipx_clock_fake_init(&clk, 5 * IPX_SEC + 250000);
	loop = ipx_loop_new(&clk);
	seg = ipx_mem_segment_new(loop, 0, 1);
	la = ipx_mem_link_new(seg, a);
	lb = ipx_mem_link_new(seg, b);
	assert_int_equal(ipx_capture_open(loop, &co, &cap, err, sizeof(err)),
			 IPX_OK);
	ipx_capture_attach(cap, la);
	len = make(pkt, b, a, 4, 0x4545, (const uint8_t *)"hi", 2);
	assert_int_equal(ipx_link_send(la, pkt, len, b), IPX_OK);
	ipx_capture_frame(cap, "eth", false, frame, sizeof(frame));
	assert_int_equal(ipx_capture_packets(cap), 2);
	assert_int_equal(ipx_capture_close(cap), IPX_OK);

	n = slurp(path, file, sizeof(file));
	unlink(path);
	assert_int_equal(n, 24 + 16 + 14 + len + 16 + sizeof(frame));
	assert_int_equal(get32le(file), 0xA1B2C3D4);
	assert_int_equal(get32le(file + 20), 1);	/* LINKTYPE_ETHERNET */
	off = 24;
	/* Simulated clock: its own time, so the bytes are the same each run. */
	assert_int_equal(get32le(file + off), 5);
	assert_int_equal(get32le(file + off + 4), 250000);
	assert_int_equal(get32le(file + off + 8), 14 + len);
	assert_int_equal(get32le(file + off + 12), 14 + len);
	off += 16;
	assert_memory_equal(file + off, b, 6);
	/* The group bit of a 7F... tunnel node is cleared in the MAC header
	 * only; the IPX header keeps the node. */
	assert_int_equal(file[off + 6], 0x7E);
	assert_memory_equal(file + off + 7, a + 1, 5);
	assert_int_equal(ipx_get16(file + off + 12), 0x8137);
	assert_memory_equal(file + off + 14, pkt, len);
	off += 14 + len;
	assert_int_equal(get32le(file + off + 8), sizeof(frame));
	assert_memory_equal(file + off + 16, frame, sizeof(frame));

	ipx_link_close(la);
	ipx_link_close(lb);
	ipx_mem_segment_free(seg);
	ipx_loop_free(loop);
}

static void live_lines(void **state)
{
	static const uint8_t a[6] = { 2, 0, 0, 0, 0, 1 }, b[6] = { 2, 0, 0, 0,
								   0, 2 };
	struct ipx_clock clk;
	struct ipx_loop *loop;
	struct ipx_mem_segment *seg;
	struct ipx_link *la, *lb;
	struct ipx_capture *cap;
	struct ipx_capture_options co = { .show_link = true };
	uint8_t pkt[64];
	char *buf = NULL, err[128];
	size_t blen = 0, len;

	(void)state;
	co.print = open_memstream(&buf, &blen);
	ipx_clock_fake_init(&clk, IPX_SEC);
	loop = ipx_loop_new(&clk);
	seg = ipx_mem_segment_new(loop, 0, 1);
	la = ipx_mem_link_new(seg, a);
	lb = ipx_mem_link_new(seg, b);
	assert_int_equal(ipx_capture_open(loop, &co, &cap, err, sizeof(err)),
			 IPX_OK);
	ipx_capture_attach(cap, lb);
	len = make(pkt, b, a, 4, 0x4545, (const uint8_t *)"hey", 3);
	ipx_link_send(la, pkt, len, b);
	ipx_loop_run_for(loop, IPX_MSEC);
	assert_int_equal(ipx_capture_close(cap), IPX_OK);
	fclose(co.print);
	assert_non_null(strstr(buf, "mem in  00000000:020000000001:4005 -> "
				    "00001234:020000000002:4545 type 4 len 33 "
				    "data 3\n"));
	free(buf);
	ipx_link_close(la);
	ipx_link_close(lb);
	ipx_mem_segment_free(seg);
	ipx_loop_free(loop);
}

/* --count: a batch of 3 packets with a limit of 2 records 2, not 3. */
static void limit_in_one_batch(void **state)
{
	static const uint8_t a[6] = { 2, 0, 0, 0, 0, 1 }, b[6] = { 2, 0, 0, 0,
								   0, 2 };
	struct ipx_clock clk;
	struct ipx_loop *loop;
	struct ipx_mem_segment *seg;
	struct ipx_link *la, *lb;
	struct ipx_capture *cap;
	struct ipx_capture_options co = { .limit = 2 };
	uint8_t pkt[64];
	char *buf = NULL, err[128];
	size_t blen = 0, len, lines = 0;

	(void)state;
	co.print = open_memstream(&buf, &blen);
	ipx_clock_fake_init(&clk, IPX_SEC);
	loop = ipx_loop_new(&clk);
	seg = ipx_mem_segment_new(loop, 0, 1);
	la = ipx_mem_link_new(seg, a);
	lb = ipx_mem_link_new(seg, b);
	assert_int_equal(ipx_capture_open(loop, &co, &cap, err, sizeof(err)),
			 IPX_OK);
	ipx_capture_attach(cap, lb);
	len = make(pkt, b, a, 4, 0x4545, (const uint8_t *)"hey", 3);
	for (int i = 0; i < 3; i++)
		ipx_link_send(la, pkt, len, b);
	ipx_loop_run_for(loop, IPX_MSEC);
	assert_int_equal(ipx_capture_packets(cap), 2);
	/* A whole frame after the limit is left out too. */
	ipx_capture_frame(cap, "eth", false, pkt, len);
	assert_int_equal(ipx_capture_packets(cap), 2);
	assert_int_equal(ipx_capture_close(cap), IPX_OK);
	fclose(co.print);
	for (const char *p = buf; *p; p++)
		lines += *p == '\n';
	assert_int_equal(lines, 2);
	free(buf);
	ipx_link_close(la);
	ipx_link_close(lb);
	ipx_mem_segment_free(seg);
	ipx_loop_free(loop);
}

static void expect(const uint8_t *pkt, size_t len, const char *want)
{
	char line[256];

	ipx_capture_describe(pkt, len, line, sizeof(line));
	if (!strstr(line, want))
		fail_msg("'%s' lacks '%s'", line, want);
}

static void summaries(void **state)
{
	static const uint8_t a[6] = { 2, 0, 0, 0, 0, 1 };
	static const uint8_t spx[] = { 0xC8, 0, 0x12, 0x34, 0x56, 0x78,
				       0, 1, 0, 2, 0, 3, 0x05, 0xD0 };
	static const uint8_t disc[] = { 0x00, 0xFE, 0, 1, 0, 2, 0, 5, 0, 6,
					0, 7 };
	static const uint8_t rip[] = { 0, 2, 0, 0, 0xAA, 1, 0, 1, 0, 2 };
	static const uint8_t sapq[] = { 0, 1, 0, 4 };
	static const uint8_t ping[] = { 'P', 'i', 'n', 'g', 1, 0, 0, 9, 0, 0 };
	uint8_t pkt[200], nb[50] = { 0 }, sap[66] = { 0, 2, 0, 4, 'F', 'S' };
	char line[16];
	size_t len;

	(void)state;
	len = make(pkt, ipx_node_broadcast, a, 5, 0x4545, spx, sizeof(spx));
	expect(pkt, len, "SPX 1234->5678 seq 1 ack 2 alloc 3 [SYS,ACK,SPX2] "
			 "neg 1488 data 0");
	len = make(pkt, a, a, 5, 0x4545, disc, sizeof(disc));
	expect(pkt, len, "SPX 0001->0002 seq 5 ack 6 alloc 7 [] disconnect");
	len = make(pkt, a, a, 5, 0x4545, disc, 5);
	expect(pkt, len, "SPX short (5 bytes)");
	len = make(pkt, a, a, 1, IPX_SOCK_RIP, rip, sizeof(rip));
	expect(pkt, len, "RIP response 1 net (0000AA01 hops 1 ticks 2)");
	len = make(pkt, a, a, 4, IPX_SOCK_SAP, sapq, sizeof(sapq));
	expect(pkt, len, "SAP general query type 0004");
	len = make(pkt, a, a, 4, IPX_SOCK_SAP, sap, sizeof(sap));
	expect(pkt, len, "SAP general response 1 service (0004 FS hops 0)");
	nb[33] = 3;
	memcpy(nb + 34, "ALICE           ", 16);
	len = make(pkt, ipx_node_broadcast, a, 20, IPX_SOCK_NETBIOS, nb,
		   sizeof(nb));
	expect(pkt, len, "NetBIOS check-name 'ALICE           '");
	len = make(pkt, a, a, 4, IPX_SOCK_PING, ping, sizeof(ping));
	expect(pkt, len, "ping request id 9 data 0");
	len = make(pkt, a, a, 4, IPX_SOCK_DIAG, NULL, 0);
	expect(pkt, len, "diagnostics request");
	len = make(pkt, a, a, 4, 0x4545, NULL, 0);
	ipx_put16(pkt + 2, 31);
	expect(pkt, len, "bad length (30 bytes there)");
	expect(pkt, 12, "bad IPX: 12 bytes");
	/* A line longer than the buffer is cut, never overrun. */
	len = make(pkt, a, a, 4, 0x4545, NULL, 0);
	assert_int_equal(ipx_capture_describe(pkt, len, line, sizeof(line)),
			 sizeof(line) - 1);
	assert_int_equal(strlen(line), sizeof(line) - 1);
}

static void frame_summaries(void **state)
{
	uint8_t f[60] = { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 2, 0, 0, 0, 0, 3,
			  0x81, 0x37 };
	static const uint8_t a[6] = { 2, 0, 0, 0, 0, 3 };
	char line[256];

	(void)state;
	make(f + 14, ipx_node_broadcast, a, 4, 0x4545, NULL, 0);
	ipx_capture_describe_frame(f, sizeof(f), line, sizeof(line));
	assert_non_null(strstr(line, "ethernet_ii 00000000:020000000003:4005"));
	f[12] = 0x08;
	f[13] = 0x00;
	ipx_capture_describe_frame(f, sizeof(f), line, sizeof(line));
	assert_string_equal(line, "not IPX: not_ipx (60 bytes)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pcap_bytes),
		cmocka_unit_test(live_lines),
		cmocka_unit_test(limit_in_one_batch),
		cmocka_unit_test(summaries),
		cmocka_unit_test(frame_summaries),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
