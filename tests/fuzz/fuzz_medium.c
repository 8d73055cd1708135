/*
 * fuzz_medium.c - libFuzzer harness for the medium's scheduling
 * (src/link/medium.c): not a parser, but the one place wire time is
 * decided, so its invariants are checked under any load.
 *
 * The input's first 8 bytes pick a profile (rate, access, overhead,
 * contention, token, delay, loss, queue), the 9th an adapter (link_profile.h,
 * struct ipx_adapter: none, or one or two transmit buffers and a copy
 * rate) for the odd-numbered stations; the rest are records
 *   [1 byte: station index (bits 0-2), station leaves (bit 3),
 *            clock step in bits 4-7]
 *   [2 bytes: frame length]
 * on a fake clock. Invariants: every frame handed over is carried, lost,
 * refused, still on its way, or was discarded with its station; frames
 * arrive in time order and never before their wire time after being
 * queued (and its copy into a transmit buffer); on a shared medium the wire's busy time never exceeds the time
 * elapsed plus the frames still on it.
 */
#include <string.h>

#include "ipxlab/err.h"
#include "ipxlab/loop.h"
#include "ipxlab/priv/link_medium.h"

#include "fuzz_common.h"

#define NSTA 6

struct run {
	struct ipx_loop *loop;
	const struct ipx_profile *p;
	uint64_t arrived, last_ns;
};

static void on_arrive(struct ipx_medium_station *st, const uint8_t *pkt,
		      size_t len, const uint8_t tag[IPX_MEDIUM_TAG], void *ctx)
{
	struct run *r = ctx;
	uint64_t now = ipx_loop_now(r->loop) * 1000, sent;

	(void)st;
	memcpy(&sent, tag, sizeof(sent));
	CHECK(len >= 30 && pkt[0] == (uint8_t)len);
	CHECK(now >= r->last_ns || r->p->access == IPX_ACCESS_OWN);
	CHECK(now >= sent + ipx_profile_wire_ns(r->p, len) + r->p->delay_ns);
	r->last_ns = now;
	r->arrived++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ipx_profile p = { .header = 14, .max_frame = 1514 };
	struct ipx_medium_station *st[NSTA] = { 0 };
	struct run r = { 0 };
	struct ipx_clock clk;
	struct ipx_medium *m;
	uint64_t sent = 0, refused = 0, gone = 0, start;
	const struct ipx_medium_stats *ms;
	char err[200];
	struct ipx_adapter a = { 0 };
	size_t pos = 9;

	if (size < 9)
		return 0;
	p.rate = (uint64_t)(data[0] + 1) * 20000;
	p.access = (enum ipx_profile_access)(data[1] % 3);
	p.overhead = data[2] % 32;
	p.min_frame = data[2] & 0x80 ? 60 : 0;
	p.contention_bits = data[3] * 4u;
	p.token_bits = data[4];
	p.delay_ns = (uint64_t)data[5] * 1000;
	p.loss_ppm = data[6] & 0x80 ? (uint32_t)(data[6] & 0x7F) * 5000 : 0;
	p.queue = 1514 + (uint32_t)data[7] * 256;
	CHECK(ipx_profile_check(&p, err, sizeof(err)) == IPX_OK);
	if (data[8] & 3) {
		a.memory = 16384;
		a.tx_buffers = (data[8] & 3) == 1 ? 1 : 2;
		a.tx_size = 1514;
		a.rx_size = 1024;
		a.copy_rate = (uint64_t)((data[8] >> 2) + 1) * 500000;
		CHECK(ipx_adapter_check(&a, &p, err, sizeof(err)) == IPX_OK);
	}
	ipx_clock_fake_init(&clk, 5 * IPX_SEC);
	r.loop = ipx_loop_new(&clk);
	r.p = &p;
	CHECK(r.loop);
	m = ipx_medium_new(r.loop, &p, 1, on_arrive, &r);
	CHECK(m);
	start = ipx_loop_now(r.loop) * 1000;
	while (pos + 3 <= size) {
		unsigned s = (data[pos] & 7) % NSTA, step = data[pos] >> 4;
		size_t len = (size_t)(data[pos + 1] << 8 | data[pos + 2]) % 1600;
		uint8_t pkt[1600] = { 0 }, tag[IPX_MEDIUM_TAG] = { 0 };
		uint64_t now = ipx_loop_now(r.loop) * 1000;
		int rc;

		if (data[pos] & 8 && st[s]) {
			/* Leaving discards its frames: count what is unsent
			 * as gone once the books are closed below. */
			ipx_medium_station_free(st[s]);
			st[s] = NULL;
			gone++;
		}
		pos += 3;
		if (!st[s]) {
			st[s] = ipx_medium_station_new(m, NULL);
			CHECK(st[s]);
			if (s & 1)
				ipx_medium_station_set_adapter(st[s], &a);
		}
		if (len < 30)
			len = 30;
		pkt[0] = (uint8_t)len;
		memcpy(tag, &now, sizeof(now));
		rc = ipx_medium_send(st[s], pkt, len, tag);
		sent++;
		if (rc != IPX_OK) {
			CHECK(rc == IPX_ETOOBIG || rc == IPX_EAGAIN);
			refused++;
		}
		if (step)
			CHECK(ipx_loop_run_for(r.loop, (ipx_time)step * 300) ==
			      IPX_OK);
	}
	CHECK(ipx_loop_run_for(r.loop, 600 * IPX_SEC) == IPX_OK);
	ms = ipx_medium_stats(m);
	CHECK(ms->drops[IPX_MEDIUM_DROP_TOO_BIG] +
		      ms->drops[IPX_MEDIUM_DROP_QUEUE_FULL] +
		      ms->drops[IPX_MEDIUM_DROP_NOMEM] ==
	      refused);
	CHECK(r.arrived == ms->frames);
	/* Nothing is left after ten minutes, except what leaving stations
	 * took with them. */
	CHECK(r.arrived + ms->drops[IPX_MEDIUM_DROP_LOST] + refused <= sent);
	if (!gone)
		CHECK(r.arrived + ms->drops[IPX_MEDIUM_DROP_LOST] + refused ==
		      sent);
	if (p.access != IPX_ACCESS_OWN)
		CHECK(ms->busy_ns <= ipx_loop_now(r.loop) * 1000 - start);
	for (int i = 0; i < NSTA; i++)
		if (st[i])
			CHECK(ipx_medium_station_queued(st[i]) == 0);
	ipx_medium_free(m);
	ipx_loop_free(r.loop);
	return 0;
}
