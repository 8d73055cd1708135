/*
 * fuzz_analyze.c - libFuzzer harness for the analyzer's pcap reader
 * (ipx_analyze_pcap and ipx_analyze_stream_each in src/capture/analyze.c).
 *
 * The input is a pcap file's bytes. A bad file must be refused with a
 * message; a good one must account for every record (counted packets
 * plus skipped ones = records read), put every gap in a bucket, and keep
 * its per-second bytes summing to the bytes counted. The first byte also
 * picks a conversation filter and a time window with an excluded node,
 * so the filtered paths are covered; the stream reader must count what
 * the in-memory one counts.
 */
#include <stdio.h>
#include <string.h>

#include "ipxlab/analyze.h"
#include "ipxlab/err.h"

#include "fuzz_common.h"

/* The stream reader on the same bytes counts the same. */
static void same_from_a_stream(const struct ipx_analyze *a,
			       const struct ipx_analyze_filter *f,
			       const uint8_t *data, size_t size, int rc)
{
	struct ipx_analyze b, *one = &b;
	FILE *s = size ? fmemopen((void *)data, size, "rb") : NULL;
	char err[256];

	if (!s)
		return;
	ipx_analyze_init(&b, f);
	CHECK((ipx_analyze_stream_each(&one, 1, s, err, sizeof(err)) ==
	       IPX_OK) == (rc == IPX_OK));
	fclose(s);
	CHECK(b.packets == a->packets && b.bytes == a->bytes);
	CHECK(!memcmp(b.gaps, a->gaps, sizeof(b.gaps)));
	CHECK(b.frames == a->frames);
	ipx_analyze_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ipx_analyze_filter f = { 0 };
	struct ipx_analyze a;
	char err[256];
	uint64_t skipped = 0, gaps = 0, sum = 0, protos = 0;
	int rc;

	if (size && (data[0] & 1)) {
		f.conversation = true;
		memset(f.a, 0x02, 6);
		memset(f.b, 0xFF, 6);
	}
	if (size && (data[0] & 2)) {
		f.from_us = 1000000;
		f.to_us = 5000000;
		f.nexclude = 2;
		memset(f.exclude[0].node, 0x01, 6);
		memset(f.exclude[1].node, 0x02, 6);
		f.exclude[1].from_us = 3000000;
	}
	ipx_analyze_init(&a, &f);
	err[0] = '\0';
	rc = ipx_analyze_pcap(&a, data, size, err, sizeof(err));
	if (rc != IPX_OK) {
		CHECK(rc == IPX_EINVAL);
		CHECK(err[0] != '\0');
		CHECK(a.packets == 0);
	}
	for (int d = 0; d < IPX_ANALYZE_DROP_COUNT; d++)
		skipped += a.drops[d];
	for (int g = 0; g < IPX_ANALYZE_GAPS; g++)
		gaps += a.gaps[g];
	for (int p = 0; p < IPX_ANALYZE_PROTO_COUNT; p++)
		protos += a.proto[p];
	for (size_t i = 0; i < a.nseconds; i++)
		sum += a.per_second[i];
	CHECK(a.packets + skipped == a.frames);
	CHECK(protos == a.packets);
	CHECK(gaps == (a.packets ? a.packets - 1 : 0));
	CHECK(sum == a.bytes);
	CHECK(a.packets == 0 || a.first_us <= a.last_us);
	CHECK(ipx_analyze_peak_rate(&a) >= 0);
	CHECK(ipx_analyze_peak_rate(&a) >= ipx_analyze_mean_rate(&a) *
						 (1 - 1e-12));
	CHECK(a.packets == 0 || ipx_analyze_rate_seconds(&a) >= 0.1 - 1e-12);
	same_from_a_stream(&a, &f, data, size, rc);
	ipx_analyze_free(&a);
	return 0;
}
