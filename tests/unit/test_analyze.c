/*
 * test_analyze.c - the analyzer against a pcap built with known times,
 * sizes and protocols: every gap bucket edge, Kbyte/s per second and its
 * peak, the protocol rules, one conversation, bad files, a frame cut by
 * the snap length, and the report as text and JSON.
 */
#include "cm.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ipxlab/analyze.h"
#include "ipxlab/capture.h"
#include "ipxlab/link_mem.h"
#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/ipx.h"
#include "ipxlab/priv/pcap.h"

static const uint8_t node_x[6] = { 2, 0, 0, 0, 0, 0x0A };
static const uint8_t node_y[6] = { 2, 0, 0, 0, 0, 0x0B };
static const uint8_t node_z[6] = { 2, 0, 0, 0, 0, 0x0C };

struct pkt {
	uint64_t at;		/* us after the base */
	size_t len;		/* IPX bytes */
	uint8_t type;
	uint16_t dsock;
	uint16_t ncp;		/* first payload word */
	const uint8_t *src, *dst;
};

#define BASE 1700000000000000ull	/* a wall-clock time, us */

static const struct pkt trace[] = {
	{ 0, 100, 4, 0x0452, 0, node_x, node_y },	/* SAP */
	{ 3000, 100, 1, 0x0453, 0, node_x, node_y },	/* RIP; gap 3 ms */
	{ 8000, 100, 4, 0x0455, 0, node_x, node_y },	/* NetBIOS; 5 ms */
	{ 20000, 100, 17, 0x0451, 0, node_y, node_x },	/* NCP; 12 ms */
	{ 39999, 100, 17, 0x4003, 0x2222, node_x, node_z },/* NCP; 19.999 */
	{ 60000, 100, 5, 0x4545, 0, node_y, node_x },	/* SPX; 20.001 */
	{ 89999, 100, 4, 0x4545, 0, node_x, node_y },	/* IPX; 29.999 */
	{ 120000, 100, 17, 0x4545, 0x1234, node_x, node_y },/* IPX; 30.001 */
	{ 1500000, 1000, 4, 0x4545, 0, node_x, node_y },/* second 1 */
	{ 2000000, 500, 4, 0x4545, 0, node_z, node_y },	/* second 2 */
};
#define NTRACE (sizeof(trace) / sizeof(trace[0]))

static void write_trace(const char *path)
{
	struct ipx_pcap *pc;
	char err[200];

	assert_int_equal(ipx_pcap_open(path, &pc, err, sizeof(err)), IPX_OK);
	for (size_t i = 0; i < NTRACE; i++) {
		uint8_t p[1500] = { 0 };
		struct ipx_header h = { .checksum = 0xFFFF,
					.length = (uint16_t)trace[i].len,
					.type = trace[i].type };

		memcpy(h.dst.node, trace[i].dst, 6);
		memcpy(h.src.node, trace[i].src, 6);
		h.dst.socket = trace[i].dsock;
		h.src.socket = 0x4010;
		ipx_header_encode(&h, p);
		ipx_put16(p + 30, trace[i].ncp);
		assert_int_equal(ipx_pcap_write(pc, BASE + trace[i].at,
						trace[i].dst, trace[i].src, p,
						trace[i].len),
				 IPX_OK);
	}
	assert_int_equal(ipx_pcap_close(pc), IPX_OK);
}

static char path[] = "/tmp/ipxlab-analyze-XXXXXX";

static int setup(void **state)
{
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	write_trace(path);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(path);
	return 0;
}

static void buckets_rates_and_protocols(void **state)
{
	struct ipx_analyze a;
	char err[300];

	(void)state;
	ipx_analyze_init(&a, NULL);
	assert_int_equal(ipx_analyze_file(&a, path, err, sizeof(err)), IPX_OK);
	assert_int_equal(a.packets, NTRACE);
	/* One gap in each bucket, and two at 30 ms or more. */
	assert_int_equal(a.gaps[0], 1);
	assert_int_equal(a.gaps[1], 1);
	assert_int_equal(a.gaps[2], 1);
	assert_int_equal(a.gaps[3], 1);
	assert_int_equal(a.gaps[4], 1);
	assert_int_equal(a.gaps[5], 1);
	assert_int_equal(a.gaps[6], 3);
	/* Frames are IPX + 14 bytes: 8 * 114 in second 0, 1,014, 514; the
	 * last packet is at 2.000 s, a part of its window shorter than the
	 * floor, so it counts in the window before: 1,528 over 1 s. */
	assert_int_equal(a.nseconds, 3);
	assert_int_equal(ipx_analyze_windows(&a), 2);
	assert_true(ipx_analyze_window_rate(&a, 0) == 912.0);
	assert_true(ipx_analyze_window_rate(&a, 1) == 1014.0 + 514);
	assert_true(ipx_analyze_window_rate(&a, 2) == 0);
	assert_true(ipx_analyze_peak_rate(&a) == 1528.0);
	assert_int_equal(a.bytes, 912 + 1014 + 514);
	/* every byte over the 2 s span */
	assert_true(ipx_analyze_rate_seconds(&a) == 2.0);
	assert_true(ipx_analyze_mean_rate(&a) == 2440.0 / 2.0);
	assert_false(ipx_analyze_short(&a));
	assert_int_equal(a.proto[IPX_ANALYZE_SAP], 1);
	assert_int_equal(a.proto[IPX_ANALYZE_RIP], 1);
	assert_int_equal(a.proto[IPX_ANALYZE_NETBIOS], 1);
	assert_int_equal(a.proto[IPX_ANALYZE_NCP], 2);
	assert_int_equal(a.proto[IPX_ANALYZE_SPX], 1);
	assert_int_equal(a.proto[IPX_ANALYZE_IPX], 4);
	ipx_analyze_free(&a);
}

static void one_conversation(void **state)
{
	struct ipx_analyze_filter f = { .conversation = true };
	struct ipx_analyze a;
	char err[300];

	(void)state;
	memcpy(f.a, node_y, 6);
	memcpy(f.b, node_x, 6);
	ipx_analyze_init(&a, &f);
	assert_int_equal(ipx_analyze_file(&a, path, err, sizeof(err)), IPX_OK);
	/* x<->y both ways: all but the two with z. */
	assert_int_equal(a.packets, NTRACE - 2);
	assert_int_equal(a.drops[IPX_ANALYZE_DROP_OTHER], 2);
	/* 12 ms then 20 ms... gaps between the conversation's packets. */
	assert_int_equal(a.gaps[0] + a.gaps[1] + a.gaps[2] + a.gaps[3] +
				 a.gaps[4] + a.gaps[5] + a.gaps[6],
			 NTRACE - 3);
	assert_int_equal(a.gaps[4], 0);	/* 20000 -> 60000 is 40 ms now */
	ipx_analyze_free(&a);
}

static void bad_and_cut_files(void **state)
{
	struct ipx_analyze a;
	uint8_t buf[4096];
	FILE *f = fopen(path, "rb");
	size_t n;
	char err[300] = "";

	(void)state;
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	/* Cut in the middle of the last record: counted, not an error. */
	ipx_analyze_init(&a, NULL);
	assert_int_equal(ipx_analyze_pcap(&a, buf, n - 10, err, sizeof(err)),
			 IPX_OK);
	assert_int_equal(a.packets, NTRACE - 1);
	assert_int_equal(a.drops[IPX_ANALYZE_DROP_CUT], 1);
	ipx_analyze_free(&a);
	ipx_analyze_init(&a, NULL);
	assert_int_equal(ipx_analyze_pcap(&a, buf, 20, err, sizeof(err)),
			 IPX_EINVAL);
	assert_non_null(strstr(err, "not a pcap"));
	buf[20] = 105;	/* IEEE 802.11 */
	assert_int_equal(ipx_analyze_pcap(&a, buf, n, err, sizeof(err)),
			 IPX_EINVAL);
	assert_non_null(strstr(err, "link type 105"));
	ipx_analyze_free(&a);
}

/* tcpdump -i any: Linux cooked records, Ethernet II and 802.2 inside. */
static void linux_cooked_capture(void **state)
{
	uint8_t file[24 + 2 * (16 + 16 + 3 + 40)] = { 0 }, *p = file;
	struct ipx_analyze a;
	char err[200];

	(void)state;
	/* Little-endian header, microseconds, snap 65535, link type 113. */
	memcpy(p, "\xD4\xC3\xB2\xA1\x02\x00\x04\x00", 8);
	memcpy(p + 16, "\xFF\xFF\x00\x00\x71\x00\x00\x00", 8);
	p += 24;
	for (int i = 0; i < 2; i++) {
		size_t body = i ? 3 + 40 : 40, rec = 16 + body;
		struct ipx_header h = { .checksum = 0xFFFF, .length = 40,
					.type = 4 };
		uint8_t *r = p + 16;

		p[0] = (uint8_t)i;	/* seconds 0 and 1 */
		p[8] = p[12] = (uint8_t)rec;
		ipx_put16(r + 14, i ? 0x0004 : 0x8137);
		h.dst.socket = i ? 0x0453 : 0x0452;
		if (i)
			memcpy(r + 16, "\xE0\xE0\x03", 3);
		ipx_header_encode(&h, r + 16 + (i ? 3 : 0));
		p += 16 + rec;
	}
	ipx_analyze_init(&a, NULL);
	assert_int_equal(ipx_analyze_pcap(&a, file, (size_t)(p - file), err,
					  sizeof(err)),
			 IPX_OK);
	assert_int_equal(a.packets, 2);
	assert_int_equal(a.proto[IPX_ANALYZE_SAP], 1);
	assert_int_equal(a.proto[IPX_ANALYZE_RIP], 1);
	/* Counted as the Ethernet frames they were: 14 + 40, 14 + 43. */
	assert_int_equal(a.bytes, 54 + 57);
	assert_int_equal(a.nseconds, 2);
	ipx_analyze_free(&a);
}

/* Live: a capture on an in-memory link feeds the analyzer as it goes. */
static void live_beside_a_capture(void **state)
{
	static const ipx_time at[] = { 0, 4000, 9000, 40000 };
	struct ipx_capture_options co = { 0 };
	struct ipx_capture *cap;
	struct ipx_analyze a;
	struct ipx_clock clk;
	struct ipx_loop *loop;
	struct ipx_mem_segment *seg;
	struct ipx_link *x, *y;
	char err[200];

	(void)state;
	ipx_clock_fake_init(&clk, 0);
	loop = ipx_loop_new(&clk);
	seg = ipx_mem_segment_new(loop, 0, 1);
	x = ipx_mem_link_new(seg, NULL);
	y = ipx_mem_link_new(seg, NULL);
	ipx_analyze_init(&a, NULL);
	co.analyze = &a;
	assert_int_equal(ipx_capture_open(loop, &co, &cap, err, sizeof(err)),
			 IPX_OK);
	ipx_capture_attach(cap, y);	/* what y receives */
	for (size_t i = 0; i < 4; i++) {
		uint8_t p[60] = { 0 };
		struct ipx_header h = { .checksum = 0xFFFF, .length = 60,
					.type = 5 };

		memcpy(h.dst.node, y->node, 6);
		memcpy(h.src.node, x->node, 6);
		ipx_header_encode(&h, p);
		ipx_loop_run_for(loop, at[i] - ipx_loop_now(loop));
		assert_int_equal(ipx_link_send(x, p, 60, y->node), IPX_OK);
	}
	ipx_loop_run_for(loop, IPX_SEC);
	assert_int_equal(a.packets, 4);
	assert_int_equal(a.proto[IPX_ANALYZE_SPX], 4);
	assert_int_equal(a.gaps[0], 1);	/* 4 ms */
	assert_int_equal(a.gaps[1], 1);	/* 5 ms */
	assert_int_equal(a.gaps[6], 1);	/* 31 ms */
	assert_int_equal(a.bytes, 4 * 74);	/* 60 + 14 each */
	ipx_link_close(x);
	ipx_link_close(y);
	assert_int_equal(ipx_capture_close(cap), IPX_OK);
	ipx_mem_segment_free(seg);
	ipx_loop_free(loop);
	ipx_analyze_free(&a);
}

/* One frame at a time (live): an Ethernet II frame whose IPX length is
 * more than was captured is "cut" when the capture's snap length kept
 * less than the wire carried, and bad IPX when it was all there. */
static void snap_length_cut_is_not_bad_ipx(void **state)
{
	struct ipx_analyze a;
	uint8_t f[14 + 86] = { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
			       2, 0, 0, 0, 0, 1, 0x81, 0x37 };
	struct ipx_header h = { .checksum = 0xFFFF, .length = 86, .type = 4 };

	(void)state;
	memset(h.dst.node, 0xFF, 6);
	h.src.node[5] = 1;
	ipx_header_encode(&h, f + 14);
	ipx_analyze_init(&a, NULL);
	assert_int_equal(ipx_analyze_add(&a, 0, f, sizeof(f), sizeof(f)),
			 IPX_OK);
	assert_int_equal(a.packets, 1);
	/* tcpdump -s 64: 64 of the 100 bytes kept. */
	assert_int_equal(ipx_analyze_add(&a, 10, f, 64, sizeof(f)), IPX_OK);
	assert_int_equal(a.drops[IPX_ANALYZE_DROP_CUT], 1);
	assert_int_equal(a.drops[IPX_ANALYZE_DROP_BAD_IPX], 0);
	/* The same 64 bytes as the whole frame: its length field lies. */
	assert_int_equal(ipx_analyze_add(&a, 20, f, 64, 64), IPX_OK);
	assert_int_equal(a.drops[IPX_ANALYZE_DROP_CUT], 1);
	assert_int_equal(a.drops[IPX_ANALYZE_DROP_BAD_IPX], 1);
	assert_int_equal(a.packets, 1);
	assert_int_equal(a.frames, 3);
	ipx_analyze_free(&a);
}

/* Per-test windows of one capture, read once: each analyzer takes its
 * window's packets only, and the one that leaves out a node (the
 * benchmark's controller) counts none of that node's. */
static void windows_and_an_excluded_node(void **state)
{
	struct ipx_analyze a, b, *both[] = { &a, &b };
	struct ipx_analyze_filter fa = { .from_us = BASE,
					 .to_us = BASE + 30000 };
	struct ipx_analyze_filter fb = { .from_us = BASE + 30000,
					 .to_us = BASE + 2000001,
					 .nexclude = 2 };
	char err[200];

	(void)state;
	write_trace(path);
	memcpy(fb.exclude[0].node, node_z, 6);
	/* and y from 1.5 s on: the packet at 2 s is z's anyway, the one at
	 * 1.5 s is x to y */
	memcpy(fb.exclude[1].node, node_y, 6);
	fb.exclude[1].from_us = BASE + 1500000;
	ipx_analyze_init(&a, &fa);
	ipx_analyze_init(&b, &fb);
	assert_int_equal(ipx_analyze_file_each(both, 2, path, err, sizeof(err)),
			 IPX_OK);
	/* a: the first four (0, 3, 8, 20 ms); gaps 3, 5, 12 ms */
	assert_int_equal(a.packets, 4);
	assert_int_equal(a.drops[IPX_ANALYZE_DROP_OUTSIDE], NTRACE - 4);
	assert_int_equal(a.gaps[0], 1);
	assert_int_equal(a.gaps[1], 1);
	assert_int_equal(a.gaps[2], 1);
	/* b: the rest but the two to or from z and y's after 1.5 s; 60 ->
	 * 89.999 -> 120 ms (the gaps before 60 ms are not b's) */
	assert_int_equal(b.packets, 3);
	assert_int_equal(b.drops[IPX_ANALYZE_DROP_EXCLUDED], 3);
	assert_int_equal(b.drops[IPX_ANALYZE_DROP_OUTSIDE], 4);
	assert_int_equal(b.gaps[5], 1);
	assert_int_equal(b.gaps[6], 1);
	assert_int_equal(b.gaps[0] + b.gaps[1] + b.gaps[2] + b.gaps[3] +
				 b.gaps[4],
			 0);
	assert_int_equal(b.first_us, BASE + 60000);
	assert_string_equal(ipx_analyze_drop_name(IPX_ANALYZE_DROP_EXCLUDED),
			    "excluded_node");
	ipx_analyze_free(&a);
	ipx_analyze_free(&b);
	assert_int_equal(ipx_analyze_file_each(both, 2, "/nonexistent/x.pcap",
					       err, sizeof(err)),
			 IPX_EIO);
}

/*
 * A packet train in simulated time, as bench arrival records it: a
 * capture keeping 64 bytes of each packet, two transfers with a long
 * pause between them and one packet of a third node (the controller's)
 * inside the first. Each transfer's window holds its gaps only; the
 * snapped records count whole; without windows the pause would be one
 * more gap of >= 30 ms.
 */
static void a_train_in_windows_with_snapped_records(void **state)
{
	/* us from 0: transfer 1 at 0.., the controller's packet at 30 ms
	 * (ctl), transfer 2 at 1 s.. */
	static const struct {
		ipx_time at;
		bool ctl;
	} train[] = { { 0, 0 }, { 1000, 0 }, { 2000, 0 }, { 9000, 0 },
		      { 21000, 0 }, { 30000, 1 }, { 52000, 0 },
		      { 1000000, 0 }, { 1004000, 0 }, { 1010000, 0 } };
	char file[] = "/tmp/ipxlab-analyze-train-XXXXXX";
	struct ipx_capture_options co = { .pcap_path = file, .snaplen = 64 };
	struct ipx_analyze w1, w2, all, *each[] = { &w1, &w2, &all };
	struct ipx_analyze_filter f1 = { .from_us = 0, .to_us = 60000,
					 .nexclude = 1 };
	struct ipx_analyze_filter f2 = { .from_us = 900000, .to_us = 2000000,
					 .nexclude = 1 };
	struct ipx_capture *cap;
	struct ipx_clock clk;
	struct ipx_loop *loop;
	char err[200];
	int fd = mkstemp(file);
	FILE *f;
	long size;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	ipx_clock_fake_init(&clk, 0);
	loop = ipx_loop_new(&clk);
	assert_int_equal(ipx_capture_open(loop, &co, &cap, err, sizeof(err)),
			 IPX_OK);
	for (size_t i = 0; i < sizeof(train) / sizeof(train[0]); i++) {
		uint8_t p[1000] = { 0 };
		struct ipx_header h = { .checksum = 0xFFFF,
					.length = train[i].ctl ? 60 : 1000,
					.type = 17 };

		memcpy(h.dst.node, i % 2 ? node_x : node_y, 6);
		memcpy(h.src.node,
		       train[i].ctl ? node_z : i % 2 ? node_y : node_x, 6);
		h.dst.socket = 0x0451;
		ipx_header_encode(&h, p);
		ipx_clock_advance(&clk, train[i].at - ipx_loop_now(loop));
		ipx_capture_ipx(cap, "hub", false, p, h.length, NULL, NULL);
	}
	assert_int_equal(ipx_capture_close(cap), IPX_OK);
	ipx_loop_free(loop);
	/* every record 16 + 64 bytes after the 24-byte header */
	f = fopen(file, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	fclose(f);
	assert_int_equal(size, 24 + 9 * (16 + 64) + 16 + 60 + 14 - 10);
	memcpy(f1.exclude[0].node, node_z, 6);
	memcpy(f2.exclude[0].node, node_z, 6);
	ipx_analyze_init(&w1, &f1);
	ipx_analyze_init(&w2, &f2);
	ipx_analyze_init(&all, NULL);
	assert_int_equal(ipx_analyze_file_each(each, 3, file, err, sizeof(err)),
			 IPX_OK);
	unlink(file);
	assert_int_equal(w1.packets, 6);
	assert_int_equal(w1.bytes, 6 * 1014);	/* whole, not 64 */
	assert_int_equal(w1.drops[IPX_ANALYZE_DROP_CUT], 0);
	assert_int_equal(w1.drops[IPX_ANALYZE_DROP_EXCLUDED], 1);
	assert_int_equal(w1.proto[IPX_ANALYZE_NCP], 6);
	/* gaps 1, 1, 7, 12, 31 ms */
	assert_int_equal(w1.gaps[0], 2);
	assert_int_equal(w1.gaps[1], 1);
	assert_int_equal(w1.gaps[2], 1);
	assert_int_equal(w1.gaps[6], 1);
	/* gaps 4, 6 ms */
	assert_int_equal(w2.packets, 3);
	assert_int_equal(w2.gaps[0], 1);
	assert_int_equal(w2.gaps[1], 1);
	/* no windows: the pause and the controller's packet are gaps too */
	assert_int_equal(all.packets, 10);
	assert_int_equal(all.gaps[6], 1);	/* the pause */
	assert_int_equal(all.gaps[4], 1);	/* 30 -> 52 ms */
	ipx_analyze_free(&w1);
	ipx_analyze_free(&w2);
	ipx_analyze_free(&all);
}

/* What `ipxlab analyze` prints for the trace, as text and as JSON; a
 * file cut short says what it skipped; a missing file is named. */
static char *report(const struct ipx_analyze *a, bool json)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	if (json)
		ipx_analyze_print_json(a, f);
	else
		ipx_analyze_print(a, f);
	fclose(f);
	return text;
}

static void the_report(void **state)
{
	struct ipx_analyze a;
	char err[300], *text;
	uint8_t buf[4096];
	size_t n;
	FILE *f;

	(void)state;
	ipx_analyze_init(&a, NULL);
	assert_int_equal(ipx_analyze_file(&a, path, err, sizeof(err)), IPX_OK);
	/* The figures of buckets_rates_and_protocols: 912 and 1,528 bytes
	 * a second, 2,440 / 2 s = 1,220 bytes/s. */
	text = report(&a, false);
	assert_string_equal(text,
		"packets 10 bytes 2440 over 2.000 s (10 frames read)\n"
		"kB/s per 1 s window (kB = 1000 bytes): 0.9 1.5\n"
		"peak 1.5 kB/s, mean 1.2 kB/s\n"
		"by protocol: ipx 4 spx 1 ncp 2 netbios 1 sap 1 rip 1\n"
		"arrival gaps (ms), 9 gaps:\n"
		"  0-4           1   11.1%\n"
		"  5-9           1   11.1%\n"
		"  10-14         1   11.1%\n"
		"  15-19         1   11.1%\n"
		"  20-24         1   11.1%\n"
		"  25-29         1   11.1%\n"
		"  >=30          3   33.3%\n");
	free(text);
	text = report(&a, true);
	assert_string_equal(text,
		"{\"frames\":10,\"packets\":10,\"bytes\":2440,"
		"\"first_us\":1700000000000000,\"last_us\":1700000002000000,"
		"\"rate_seconds\":2.000000,\"short_span\":false,"
		"\"mean_kB_per_s\":1.220,\"peak_kB_per_s\":1.528,"
		"\"kB_per_s\":[0.912,1.528],"
		"\"protocols\":{\"ipx\":4,\"spx\":1,\"ncp\":2,\"netbios\":1,"
		"\"sap\":1,\"rip\":1},"
		"\"gaps_ms\":{\"0-4\":1,\"5-9\":1,\"10-14\":1,\"15-19\":1,"
		"\"20-24\":1,\"25-29\":1,\">=30\":3},"
		"\"gap_share_percent\":{\"0-4\":11.11,\"5-9\":11.11,"
		"\"10-14\":11.11,\"15-19\":11.11,\"20-24\":11.11,"
		"\"25-29\":11.11,\">=30\":33.33},"
		"\"skipped\":{\"not_ipx\":0,\"bad_ipx\":0,\"cut_short\":0,"
		"\"other_conversation\":0,\"outside_window\":0,"
		"\"excluded_node\":0,\"outgoing_copy\":0}}\n");
	free(text);
	ipx_analyze_free(&a);
	/* Cut in the last record: the text says what was skipped. */
	f = fopen(path, "rb");
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	ipx_analyze_init(&a, NULL);
	assert_int_equal(ipx_analyze_pcap(&a, buf, n - 10, err, sizeof(err)),
			 IPX_OK);
	text = report(&a, false);
	assert_non_null(strstr(text, "\nskipped cut_short 1\n"));
	assert_null(strstr(text, "skipped not_ipx"));
	free(text);
	ipx_analyze_free(&a);
	/* No packet at all: zeros, no division by zero. */
	ipx_analyze_init(&a, NULL);
	text = report(&a, false);
	assert_non_null(strstr(text, "packets 0 bytes 0 over 0.000 s"));
	assert_non_null(strstr(text, "peak 0.0 kB/s, mean 0.0 kB/s\n"));
	assert_non_null(strstr(text, "  >=30          0    0.0%\n"));
	free(text);
	assert_int_equal(ipx_analyze_file(&a, "/nonexistent/x.pcap", err,
					  sizeof(err)), IPX_EIO);
	assert_string_equal(err, "/nonexistent/x.pcap: No such file or "
				 "directory");
	assert_string_equal(ipx_analyze_drop_name(IPX_ANALYZE_DROP_CUT),
			    "cut_short");
	assert_string_equal(ipx_analyze_drop_name(IPX_ANALYZE_DROP_COUNT), "?");
	assert_string_equal(ipx_analyze_gap_name(6), ">=30");
	assert_string_equal(ipx_analyze_gap_name(7), "?");
	ipx_analyze_free(&a);
}

/* A pcap of n packets of 'len' IPX bytes at the times given (us). */
static void write_times(const char *p, const uint64_t *at, size_t n,
			size_t len)
{
	struct ipx_pcap *pc;
	char err[200];

	assert_int_equal(ipx_pcap_open(p, &pc, err, sizeof(err)), IPX_OK);
	for (size_t i = 0; i < n; i++) {
		uint8_t pk[1500] = { 0 };
		struct ipx_header h = { .checksum = 0xFFFF,
					.length = (uint16_t)len, .type = 4 };

		memcpy(h.dst.node, node_y, 6);
		memcpy(h.src.node, node_x, 6);
		h.dst.socket = 0x4545;
		h.src.socket = 0x4010;
		ipx_header_encode(&h, pk);
		assert_int_equal(ipx_pcap_write(pc, BASE + at[i], node_y,
						node_x, pk, len),
				 IPX_OK);
	}
	assert_int_equal(ipx_pcap_close(pc), IPX_OK);
}

static void analyze_times(const uint64_t *at, size_t n, size_t len,
			  struct ipx_analyze *a)
{
	char p[] = "/tmp/ipxlab-analyze-rate-XXXXXX", err[300];
	int fd = mkstemp(p);

	assert_true(fd >= 0);
	close(fd);
	write_times(p, at, n, len);
	ipx_analyze_init(a, NULL);
	assert_int_equal(ipx_analyze_file(a, p, err, sizeof(err)), IPX_OK);
	unlink(p);
	assert_int_equal(a->packets, n);
}

/*
 * The peak is never below the mean, and no rate is over less than the
 * floor: two packets 10 us apart (once "peak 1.0 Kbyte/s, mean 2732.1"),
 * a half-second test (once a peak of half its rate), bursts at both ends
 * of 1.5 s, and random traces.
 */
static void peak_is_never_below_the_mean(void **state)
{
	static const uint64_t pair[] = { 0, 10 };
	static const uint64_t ends[] = { 0, 1, 2, 1500000, 1500001, 1500002 };
	uint64_t train[50], rnd[64], seed = 12345;
	struct ipx_analyze a;
	char *text;

	(void)state;
	analyze_times(pair, 2, 100, &a);	/* 2 x 114 bytes */
	assert_true(ipx_analyze_short(&a));
	assert_true(ipx_analyze_rate_seconds(&a) == 0.1);
	assert_true(fabs(ipx_analyze_mean_rate(&a) - 2280) < 1e-6);
	assert_true(ipx_analyze_peak_rate(&a) == ipx_analyze_mean_rate(&a));
	text = report(&a, false);
	assert_non_null(strstr(text, "peak 2.3 kB/s, mean 2.3 kB/s (both over "
				     "the 0.1 s floor: the span, 0.000010 s, "
				     "is shorter)\n"));
	free(text);
	ipx_analyze_free(&a);

	for (size_t i = 0; i < 50; i++)	/* every 10 ms for 0.49 s */
		train[i] = i * 10000;
	analyze_times(train, 50, 100, &a);
	assert_true(ipx_analyze_short(&a));
	assert_true(fabs(ipx_analyze_peak_rate(&a) - 50 * 114 / 0.49) < 1e-6);
	assert_true(ipx_analyze_peak_rate(&a) == ipx_analyze_mean_rate(&a));
	text = report(&a, false);
	assert_non_null(strstr(text, "peak 11.6 kB/s, mean 11.6 kB/s (both "
				     "over the span, 0.490 s: shorter than "
				     "the 1 s window)\n"));
	free(text);
	text = report(&a, true);
	assert_non_null(strstr(text, "\"short_span\":true,"
				     "\"mean_kB_per_s\":11.633,"
				     "\"peak_kB_per_s\":11.633,"));
	free(text);
	ipx_analyze_free(&a);

	/* 342 bytes in the first second, 342 in the next half second */
	analyze_times(ends, 6, 100, &a);
	assert_false(ipx_analyze_short(&a));
	assert_true(fabs(ipx_analyze_peak_rate(&a) - 342 / 0.500002) < 1e-6);
	assert_true(fabs(ipx_analyze_mean_rate(&a) - 684 / 1.500002) < 1e-6);
	ipx_analyze_free(&a);

	for (int t = 0; t < 40; t++) {
		size_t n = 1 + (size_t)(t * 7 % 64);
		uint64_t at = 0, scale = t % 4 == 0 ? 20 : t % 4 == 1 ? 20000
					 : t % 4 == 2 ? 300000 : 1100000;

		for (size_t i = 0; i < n; i++) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			at += (seed >> 33) % scale;
			rnd[i] = at;
		}
		analyze_times(rnd, n, 30 + (size_t)(t * 13 % 500), &a);
		assert_true(ipx_analyze_peak_rate(&a) >=
			    ipx_analyze_mean_rate(&a) * (1 - 1e-12));
		assert_true(ipx_analyze_rate_seconds(&a) >= 0.1);
		assert_true(ipx_analyze_rate_seconds(&a) >=
			    (double)(a.last_us - a.first_us) / 1e6 - 1e-9);
		ipx_analyze_free(&a);
	}
}

/* A hub's own --pcap records each packet as it comes in and each copy it
 * sends: cooked records marked in and out, and the analyzer counts each
 * packet once (it had counted 14,945 records, 7,469 of them repeats, as
 * packets); --outgoing counts the copies too. */
static void a_hubs_capture_counts_each_packet_once(void **state)
{
	static const uint8_t bcast[6] = { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF };
	char p[] = "/tmp/ipxlab-analyze-hub-XXXXXX", err[300];
	struct ipx_capture_options co = { .pcap_path = p };
	struct ipx_analyze_filter both = { .outgoing = true };
	struct ipx_capture *cap;
	struct ipx_analyze a;
	struct ipx_clock clk;
	struct ipx_loop *loop;
	int fd = mkstemp(p);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	ipx_clock_fake_init(&clk, 0);
	loop = ipx_loop_new(&clk);
	assert_int_equal(ipx_capture_open(loop, &co, &cap, err, sizeof(err)),
			 IPX_OK);
	assert_int_equal(ipx_capture_mark_direction(cap), IPX_OK);
	for (int i = 0; i < 11; i++) {
		uint8_t pk[100] = { 0 };
		struct ipx_header h = { .checksum = 0xFFFF, .length = 100,
					.type = 4 };

		memcpy(h.dst.node, i == 10 ? bcast : node_y, 6);
		memcpy(h.src.node, node_x, 6);
		ipx_header_encode(&h, pk);
		ipx_loop_run_for(loop, 1000 * IPX_USEC);
		ipx_capture_ipx(cap, "hub", false, pk, 100, NULL, node_x);
		/* forwarded: to y, and a broadcast to y and z */
		ipx_capture_ipx(cap, "hub", true, pk, 100, node_y, NULL);
		if (i == 10)
			ipx_capture_ipx(cap, "hub", true, pk, 100, node_z, NULL);
	}
	/* too late once a record is written */
	assert_int_equal(ipx_capture_mark_direction(cap), IPX_EINVAL);
	assert_int_equal(ipx_capture_close(cap), IPX_OK);
	ipx_loop_free(loop);
	ipx_analyze_init(&a, NULL);
	assert_int_equal(ipx_analyze_file(&a, p, err, sizeof(err)), IPX_OK);
	assert_int_equal(a.frames, 23);
	assert_int_equal(a.packets, 11);
	assert_int_equal(a.bytes, 11 * 114);
	assert_int_equal(a.drops[IPX_ANALYZE_DROP_OUTGOING], 12);
	assert_int_equal(a.gaps[0], 10);	/* 1 ms apart, not 0 */
	ipx_analyze_free(&a);
	ipx_analyze_init(&a, &both);
	assert_int_equal(ipx_analyze_file(&a, p, err, sizeof(err)), IPX_OK);
	assert_int_equal(a.packets, 23);
	ipx_analyze_free(&a);
	unlink(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(buckets_rates_and_protocols),
		cmocka_unit_test(one_conversation),
		cmocka_unit_test(bad_and_cut_files),
		cmocka_unit_test(linux_cooked_capture),
		cmocka_unit_test(live_beside_a_capture),
		cmocka_unit_test(snap_length_cut_is_not_bad_ipx),
		cmocka_unit_test(windows_and_an_excluded_node),
		cmocka_unit_test(a_train_in_windows_with_snapped_records),
		cmocka_unit_test(the_report),
		cmocka_unit_test(peak_is_never_below_the_mean),
		cmocka_unit_test(a_hubs_capture_counts_each_packet_once),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
