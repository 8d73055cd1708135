/*
 * test_bench_harness.c - the benchmark harness itself (bench_harness.h,
 * bench_b1.h): control messages round trip and bad input is refused
 * with a message; B1's summary of repeated passes against known data;
 * and a controller with two agents on an in-memory segment (simulated
 * clock, one process): a real run through the barrier, an agent's ERROR,
 * an agent that stops answering and one that goes away, each reported by
 * name and run within the deadline.
 */
#include "cm.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipxlab/bench_b1.h"
#include "ipxlab/bench_harness.h"
#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/link_mem.h"
#include "ipxlab/log.h"

#define FRAME (IPX_HMSG_HDR_LEN + IPX_HMSG_MAX_BODY)

/* Messages are ~15 KB: keep them off the stack. */
static struct ipx_hmsg ma, mb;
static uint8_t buf[FRAME], buf2[FRAME];

static size_t enc(const struct ipx_hmsg *m)
{
	size_t n = ipx_hmsg_encode(m, buf, sizeof(buf));

	assert_true(n >= IPX_HMSG_HDR_LEN);
	return n;
}

/* Decode buf[0..n) into mb: every shorter prefix asks for more. */
static void dec_all(size_t n)
{
	size_t used = 0;
	char err[200];

	for (size_t k = 0; k < n; k++)
		assert_int_equal(ipx_hmsg_decode(buf, k, &mb, &used, err,
						 sizeof(err)),
				 IPX_EAGAIN);
	assert_int_equal(ipx_hmsg_decode(buf, n, &mb, &used, err, sizeof(err)),
			 IPX_OK);
	assert_int_equal(used, n);
	assert_int_equal(mb.type, ma.type);
}

/* Expect buf[0..n) refused with a message containing 'want'. */
static void refused(size_t n, const char *want)
{
	size_t used = 0;
	char err[300] = "";

	assert_int_equal(ipx_hmsg_decode(buf, n, &mb, &used, err, sizeof(err)),
			 IPX_EINVAL);
	if (!strstr(err, want))
		fail_msg("error '%s' lacks '%s'", err, want);
}

static void hello_prepare_ready_round_trip(void **state)
{
	struct ipx_bw_params *p = &ma.u.prepare.params;

	(void)state;
	memset(&ma, 0, sizeof(ma));
	ma.type = IPX_HMSG_HELLO;
	ma.u.hello.pid = 123456;
	ma.u.hello.cpus = 8;
	strcpy(ma.u.hello.name, "receiver");
	dec_all(enc(&ma));
	assert_int_equal(mb.u.hello.pid, 123456);
	assert_int_equal(mb.u.hello.cpus, 8);
	assert_string_equal(mb.u.hello.name, "receiver");

	memset(&ma, 0, sizeof(ma));
	ma.type = IPX_HMSG_PREPARE;
	ma.run = 77;
	ma.u.prepare.role = IPX_BW_SENDER;
	ma.u.prepare.cpu = -1;
	ma.u.prepare.repeat = 3;
	p->kind = IPX_BW_NB_SESSION;
	p->count = 2000;
	p->size = 255;
	p->drain = 0.25;
	p->setup_timeout = 4;
	p->peer.addr.net = 0x1234;
	memcpy(p->peer.addr.node, "\x02\x00\x00\x00\x00\x07", 6);
	p->peer.addr.socket = 0x4001;
	memcpy(p->peer.nb_name, "BWR0200000007   ", 16);
	p->peer.udp.sin_addr.s_addr = htonl(0x7F000001);
	p->peer.udp.sin_port = htons(4242);
	p->udp_bind.s_addr = htonl(0x0A000001);
	p->op = 7;
	p->station = 513;
	p->window = 70000;
	p->spx_window = 64;
	p->send_queue = 1 << 20;
	p->peer.credit.sin_addr.s_addr = htonl(0x7F000002);
	p->peer.credit.sin_port = htons(4343);
	/* no NCP field set: the 87-byte body of before */
	assert_int_equal(enc(&ma), IPX_HMSG_HDR_LEN + 87);
	p->ncp_buffer = 1446;
	p->ncp_no_burst = true;
	assert_int_equal(enc(&ma), IPX_HMSG_HDR_LEN + 90);
	dec_all(enc(&ma));
	assert_int_equal(mb.u.prepare.params.ncp_buffer, 1446);
	assert_true(mb.u.prepare.params.ncp_no_burst);
	assert_false(mb.u.prepare.params.single_frame);
	/* B8's driver: flag 2, alone (the tail is sent for it) or beside */
	p->ncp_buffer = 0;
	p->ncp_no_burst = false;
	p->single_frame = true;
	assert_int_equal(enc(&ma), IPX_HMSG_HDR_LEN + 90);
	dec_all(enc(&ma));
	assert_true(mb.u.prepare.params.single_frame);
	assert_false(mb.u.prepare.params.ncp_no_burst);
	p->ncp_buffer = 1446;
	p->ncp_no_burst = true;
	dec_all(enc(&ma));
	assert_true(mb.u.prepare.params.single_frame);
	assert_true(mb.u.prepare.params.ncp_no_burst);
	assert_int_equal(mb.u.prepare.params.window, 70000);
	assert_int_equal(mb.u.prepare.params.spx_window, 64);
	assert_int_equal(mb.u.prepare.params.send_queue, 1 << 20);
	assert_int_equal(mb.u.prepare.params.peer.credit.sin_addr.s_addr,
			 htonl(0x7F000002));
	assert_int_equal(mb.u.prepare.params.peer.credit.sin_port, htons(4343));
	assert_int_equal(mb.u.prepare.params.op, 7);
	assert_int_equal(mb.u.prepare.params.station, 513);
	assert_int_equal(mb.run, 77);
	assert_int_equal(mb.u.prepare.role, IPX_BW_SENDER);
	assert_int_equal(mb.u.prepare.cpu, -1);
	assert_int_equal(mb.u.prepare.repeat, 3);
	assert_int_equal(mb.u.prepare.params.kind, IPX_BW_NB_SESSION);
	assert_int_equal(mb.u.prepare.params.count, 2000);
	assert_int_equal(mb.u.prepare.params.size, 255);
	assert_true(mb.u.prepare.params.drain == 0.25);
	assert_true(mb.u.prepare.params.setup_timeout == 4);
	assert_true(ipx_addr_eq(&mb.u.prepare.params.peer.addr, &p->peer.addr));
	assert_memory_equal(mb.u.prepare.params.peer.nb_name, p->peer.nb_name,
			    16);
	assert_int_equal(mb.u.prepare.params.peer.udp.sin_addr.s_addr,
			 htonl(0x7F000001));
	assert_int_equal(mb.u.prepare.params.peer.udp.sin_port, htons(4242));
	assert_int_equal(mb.u.prepare.params.udp_bind.s_addr,
			 htonl(0x0A000001));

	/* time mode */
	p->count = 0;
	p->seconds = 1.5;
	dec_all(enc(&ma));
	assert_true(mb.u.prepare.params.seconds == 1.5);

	memset(&ma, 0, sizeof(ma));
	ma.type = IPX_HMSG_READY;
	ma.run = 9;
	ma.u.ready.cpu = 1;
	ma.u.ready.info.addr.socket = 0x4545;
	ma.u.ready.info.credit.sin_port = htons(5151);
	dec_all(enc(&ma));
	assert_int_equal(mb.u.ready.info.credit.sin_port, htons(5151));
	assert_int_equal(mb.run, 9);
	assert_int_equal(mb.u.ready.cpu, 1);
	assert_int_equal(mb.u.ready.info.addr.socket, 0x4545);

	for (int t = IPX_HMSG_GO; t <= IPX_HMSG_QUIT; t++) {
		if (t == IPX_HMSG_RESULT || t == IPX_HMSG_ERROR)
			continue;
		memset(&ma, 0, sizeof(ma));
		ma.type = (enum ipx_hmsg_type)t;
		ma.run = 0xDEADBEEF;
		dec_all(enc(&ma));
		assert_int_equal(mb.run, 0xDEADBEEF);
	}
}

static void result_and_error_round_trip(void **state)
{
	struct ipx_bw_result *r = &ma.u.result;

	(void)state;
	memset(&ma, 0, sizeof(ma));
	ma.type = IPX_HMSG_RESULT;
	ma.run = 5;
	r->kind = IPX_BW_SPX2;
	r->role = IPX_BW_SENDER;
	r->sent = 2000;
	r->send_errors = 1;
	r->delivered = 0;
	r->bytes = 510000;
	r->seconds = 0.0234;
	r->pps = 85470.1;
	r->kbps = 21283.5;
	r->retransmits = 4;
	r->stalls = 3;
	r->srtt_us = 61.5;
	r->cpu_user = 0.01;
	r->cpu_sys = 0.02;
	r->cpu = 1;
	ipx_hist_init(&r->lat);
	for (uint64_t i = 1; i <= 2000; i++)
		ipx_hist_add(&r->lat, i * 997);
	dec_all(enc(&ma));
	assert_int_equal(mb.u.result.ncp_buffer, 0);
	assert_false(mb.u.result.ncp_burst);
	r->ncp_buffer = 1024;
	r->ncp_burst = true;
	dec_all(enc(&ma));
	assert_int_equal(mb.u.result.ncp_buffer, 1024);
	assert_true(mb.u.result.ncp_burst);
	assert_int_equal(mb.u.result.kind, IPX_BW_SPX2);
	assert_int_equal(mb.u.result.sent, 2000);
	assert_int_equal(mb.u.result.send_errors, 1);
	assert_int_equal(mb.u.result.bytes, 510000);
	assert_int_equal(mb.u.result.retransmits, 4);
	assert_int_equal(mb.u.result.stalls, 3);
	assert_true(mb.u.result.pps == r->pps && mb.u.result.kbps == r->kbps);
	assert_true(mb.u.result.seconds == r->seconds);
	assert_true(mb.u.result.srtt_us == 61.5);
	assert_int_equal(mb.u.result.cpu, 1);
	assert_memory_equal(&mb.u.result.lat, &r->lat, sizeof(r->lat));
	assert_int_equal(ipx_hist_percentile(&mb.u.result.lat, 99),
			 ipx_hist_percentile(&r->lat, 99));

	memset(&ma, 0, sizeof(ma));
	ma.type = IPX_HMSG_ERROR;
	ma.run = 2;
	strcpy(ma.u.text, "cannot run on CPU 3\n\x01");
	dec_all(enc(&ma));
	/* what is not printable goes as '?', never refused */
	assert_string_equal(mb.u.text, "cannot run on CPU 3??");
}

static void frames_follow_each_other(void **state)
{
	size_t n1, n2, used = 0;
	char err[100];

	(void)state;
	memset(&ma, 0, sizeof(ma));
	ma.type = IPX_HMSG_GO;
	ma.run = 1;
	n1 = enc(&ma);
	memcpy(buf2, buf, n1);
	ma.type = IPX_HMSG_FINISH;
	ma.run = 2;
	n2 = enc(&ma);
	memcpy(buf2 + n1, buf, n2);
	assert_int_equal(ipx_hmsg_decode(buf2, n1 + n2, &mb, &used, err,
					 sizeof(err)),
			 IPX_OK);
	assert_int_equal(used, n1);
	assert_int_equal(mb.type, IPX_HMSG_GO);
	assert_int_equal(ipx_hmsg_decode(buf2 + used, n2, &mb, &used, err,
					 sizeof(err)),
			 IPX_OK);
	assert_int_equal(mb.type, IPX_HMSG_FINISH);
	assert_int_equal(mb.run, 2);
}

static void bad_input_is_refused_clearly(void **state)
{
	size_t n;

	(void)state;
	memset(&ma, 0, sizeof(ma));
	ma.type = IPX_HMSG_GO;
	n = enc(&ma);
	buf[0] = 'X';
	refused(n, "not a harness message");
	refused(2, "not a harness message");	/* known at two bytes */
	n = enc(&ma);
	buf[2] = IPX_HARNESS_VERSION + 1;
	refused(3, "run the same ipxlab version");
	n = enc(&ma);
	buf[3] = 0;
	refused(n, "unknown message type 0");
	buf[3] = IPX_HMSG_TYPE_END;
	refused(n, "unknown message type");
	n = enc(&ma);
	ipx_put32(buf + 4, IPX_HMSG_MAX_BODY + 1);
	refused(IPX_HMSG_HDR_LEN, "over");
	ipx_put32(buf + 4, 5);
	refused(IPX_HMSG_HDR_LEN + 5, "GO: body of 5 bytes");

	memset(&ma, 0, sizeof(ma));
	ma.type = IPX_HMSG_HELLO;
	strcpy(ma.u.hello.name, "ok");
	n = enc(&ma);
	buf[IPX_HMSG_HDR_LEN + 6] = 0x07;
	refused(n, "HELLO: the name has a byte 0x07");
	n = enc(&ma);
	buf[IPX_HMSG_HDR_LEN + 6] = 0;
	refused(n, "HELLO: the name is empty");
	n = enc(&ma);
	buf[IPX_HMSG_HDR_LEN + 9] = 'x';	/* after the NUL */
	refused(n, "HELLO: the name has a byte");
	memset(ma.u.hello.name, 0, sizeof(ma.u.hello.name));
	assert_int_equal(ipx_hmsg_encode(&ma, buf, sizeof(buf)), 0);

	memset(&ma, 0, sizeof(ma));
	ma.type = IPX_HMSG_PREPARE;
	ma.u.prepare.params.count = 10;
	ma.u.prepare.params.size = 255;
	n = enc(&ma);
	buf[IPX_HMSG_HDR_LEN + 5] = IPX_BW_KINDS;
	refused(n, "kind");
	n = enc(&ma);
	ipx_put32(buf + IPX_HMSG_HDR_LEN + 10, 0);
	refused(n, "size 0 out of range");
	n = enc(&ma);
	ipx_put32(buf + IPX_HMSG_HDR_LEN + 14, 0);	/* no count, no time */
	refused(n, "neither a count nor a time");
	n = enc(&ma);
	ipx_put16(buf + IPX_HMSG_HDR_LEN + 6, 5000);
	refused(n, "CPU 5000 out of range");
	n = enc(&ma);
	ipx_put32(buf + IPX_HMSG_HDR_LEN + 83, 0xFFFFFFFF);	/* send queue */
	refused(n, "send queue 4294967295 out of range");
	ma.u.prepare.params.send_queue = 0;
	ma.u.prepare.params.ncp_no_burst = true;
	n = enc(&ma);
	buf[IPX_HMSG_HDR_LEN + 89] = 0x04;	/* an NCP flag unknown */
	refused(n, "NCP flags 0x04 unknown");
	n = enc(&ma);
	buf[IPX_HMSG_HDR_LEN + 89] = 0;	/* the tail of zeros: 87's spelling */
	refused(n, "an NCP tail with nothing set");

	memset(&ma, 0, sizeof(ma));
	ma.type = IPX_HMSG_RESULT;
	ipx_hist_init(&ma.u.result.lat);
	ipx_hist_add(&ma.u.result.lat, 1000);
	ipx_hist_add(&ma.u.result.lat, 5000000);
	n = enc(&ma);
	buf[IPX_HMSG_HDR_LEN + 56] = 0xFF;	/* pps: a NaN */
	buf[IPX_HMSG_HDR_LEN + 57] = 0xF8;
	refused(n, "negative or not a number");
	n = enc(&ma);
	ipx_put32(buf + IPX_HMSG_HDR_LEN + 96 + 4, 3);	/* count 3, buckets 2 */
	refused(n, "totals disagree");
	n = enc(&ma);
	/* the two buckets swapped: out of order */
	memcpy(buf2, buf + IPX_HMSG_HDR_LEN + 138, 6);
	memmove(buf + IPX_HMSG_HDR_LEN + 138, buf + IPX_HMSG_HDR_LEN + 144, 6);
	memcpy(buf + IPX_HMSG_HDR_LEN + 144, buf2, 6);
	refused(n, "out of order");
	n = enc(&ma);
	ipx_put16(buf + IPX_HMSG_HDR_LEN + 128, 3);
	refused(n, "for 3 histogram buckets");
	ma.u.result.ncp_buffer = 1024;
	n = enc(&ma);
	buf[n - 1] = 0x02;	/* the NCP tail's flags */
	refused(n, "NCP flags 0x02 unknown");

	memset(&ma, 0, sizeof(ma));
	ma.type = IPX_HMSG_ERROR;
	strcpy(ma.u.text, "abc");
	n = enc(&ma);
	buf[IPX_HMSG_HDR_LEN + 7] = 0x1B;
	refused(n, "not printable");
	n = enc(&ma);
	ipx_put16(buf + IPX_HMSG_HDR_LEN + 4, 300);
	refused(n, "disagrees with its text length");
}

/* ---- B1's summary against known data ---- */

static struct ipx_b1_sample samples[5 * IPX_B1_KINDS];

static void set_sample(unsigned r, enum ipx_bw_kind k, double pps,
		       uint64_t sent, uint64_t delivered)
{
	struct ipx_b1_sample *s = &samples[ipx_b1_index(r, k)];

	memset(s, 0, sizeof(*s));
	s->snd.kind = s->rcv.kind = k;
	s->snd.pps = pps;
	s->snd.kbps = pps * 255 / 1000;
	s->snd.sent = sent;
	s->rcv.delivered = delivered;
	s->snd.cpu = 0;
	s->rcv.cpu = 1;
	ipx_hist_init(&s->snd.lat);
	/* every pass: 100 sends of r+1 us and one of 1 ms */
	for (int i = 0; i < 100; i++)
		ipx_hist_add(&s->snd.lat, (r + 1) * 1000ull);
	ipx_hist_add(&s->snd.lat, 1000000);
}

static void b1_summary_of_known_passes(void **state)
{
	/* per pass: IPX, UDP, SPX2, SPX, NB session, RTT rates */
	static const double ipx[5] = { 1000, 900, 1100, 1050, 950 };
	static const double udp[5] = { 1500, 1500, 1500, 1500, 1500 };
	static const double spx2[5] = { 800, 900, 700, 950, 760 };
	static const double spx[5] = { 100, 90, 110, 95, 105 };
	static const double rtt[5] = { 125, 125, 125, 125, 125 };
	struct ipx_b1_report *rep = calloc(1, sizeof(*rep));
	const struct ipx_b1_row *w;

	(void)state;
	assert_non_null(rep);
	for (unsigned r = 0; r < 5; r++) {
		/* IPX loses 10% in pass 2 only */
		set_sample(r, IPX_BW_IPX, ipx[r], 2000, r == 2 ? 1800 : 2000);
		set_sample(r, IPX_BW_UDP, udp[r], 2000, 2000);
		set_sample(r, IPX_BW_SPX2, spx2[r], 2000, 2000);
		set_sample(r, IPX_BW_SPX, spx[r], 2000, 2000);
		set_sample(r, IPX_BW_NB_SESSION, spx[r] / 2, 2000, 2000);
		set_sample(r, IPX_BW_NB_DGRAM, 500, 2000, 1000);
		set_sample(r, IPX_BW_RTT, rtt[r], 2000, 2000);
	}
	ipx_b1_summarize(samples, 5, rep);
	assert_int_equal(rep->repeat, 5);

	w = &rep->row[IPX_BW_IPX];
	assert_true(w->pps.median == 1000 && w->pps.min == 900 &&
		    w->pps.max == 1100);
	assert_true(w->ratio_ipx.median == 1);
	assert_true(w->loss.median == 0 && fabs(w->loss.max - 0.1) < 1e-12);
	/* carried: 1000 900 990 1050 950 -> median 990 */
	assert_true(fabs(w->carried.median - 990) < 1e-9);
	/* KB/s is carried too, KB = 1000 bytes: 990 x 255 / 1000 */
	assert_true(fabs(w->kbps.median - 990 * 255 / 1000.0) < 1e-9);
	/* x IPX compares what was carried: UDP 1500 over 1000 900 990 1050
	 * 950 -> median 1500/990 (the sent rate, 1100, would give 1.5) */
	assert_true(fabs(rep->row[IPX_BW_UDP].ratio_ipx.median -
			 1500.0 / 990) < 1e-9);
	assert_true(w->ref_pps == 366.0 && w->ref_ratio == 1.0);
	assert_int_equal(w->cpu_snd, 0);
	assert_int_equal(w->cpu_rcv, 1);

	w = &rep->row[IPX_BW_SPX];
	/* per pass 100/1000 90/900 110/1100 95/1050 105/950 */
	assert_true(fabs(w->ratio_ipx.median - 0.1) < 1e-12);
	assert_true(fabs(w->ref_ratio - 140.3 / 366.0) < 1e-12);
	assert_true(w->ref_pps == 140.3);

	w = &rep->row[IPX_BW_NB_DGRAM];
	assert_true(w->loss.median == 0.5 && w->delivered.median == 1000);
	assert_true(w->ref_pps == 224.8);
	assert_true(rep->row[IPX_BW_NB_SESSION].ref_pps == 135.9);
	assert_true(rep->row[IPX_BW_SPX2].ref_pps == 0);
	assert_true(rep->row[IPX_BW_UDP].ref_pps == 0);

	/* latency: 500 sends of 1..5 us and 5 of 1 ms merged */
	w = &rep->row[IPX_BW_SPX];
	assert_true(w->lat_p50 >= 3000 && w->lat_p50 <= 3000 * 1.02);
	assert_true(w->lat_p99 >= 5000 && w->lat_p99 <= 5000 * 1.02);
	assert_int_equal(w->lat_max, 1000000);
	assert_int_equal(w->lat_count, 505);

	/* ipx/udp: carried 1000 900 990 1050 950 over 1500 -> 0.66 */
	assert_true(fabs(rep->target[IPX_B1_T_IPX_UDP].ratio.median -
			 0.66) < 1e-9);
	assert_true(rep->target[IPX_B1_T_IPX_UDP].pass);
	/* spx2/ipx: 0.8 1.0 0.7070.. 0.9047.. 0.8 -> median 0.8: passes
	 * at exactly the target */
	assert_true(fabs(rep->target[IPX_B1_T_SPX2_IPX].ratio.median - 0.8) <
		    1e-9);
	assert_true(rep->target[IPX_B1_T_SPX2_IPX].pass);
	/* spx/rtt: 0.8 0.72 0.88 0.76 0.84 -> 0.8 */
	assert_true(fabs(rep->target[IPX_B1_T_SPX_RTT].ratio.median - 0.8) <
		    1e-9);
	assert_true(fabs(rep->target[IPX_B1_T_SPX_RTT].ratio.min - 0.72) <
		    1e-9);
	/* nb-session/rtt: half of that: a miss */
	assert_true(fabs(rep->target[IPX_B1_T_NBS_RTT].ratio.median - 0.4) <
		    1e-9);
	assert_false(rep->target[IPX_B1_T_NBS_RTT].pass);
	assert_false(rep->all_pass);

	/* a signal during counted pass 4: the 3 that finished summarised,
	 * the samples kept with the report */
	rep->samples = samples;
	rep->pass = 4;
	assert_int_equal(ipx_b1_interrupted(rep), 3);
	assert_true(rep->interrupted);
	assert_ptr_equal(rep->samples, samples);
	assert_int_equal(rep->repeat, 3);
	w = &rep->row[IPX_BW_IPX];	/* 1000 900 1100 */
	assert_true(w->pps.median == 1000 && w->pps.min == 900 &&
		    w->pps.max == 1100);
	/* cut in the first counted pass or the warm-up: nothing finished */
	rep->pass = 1;
	assert_int_equal(ipx_b1_interrupted(rep), 0);
	rep->pass = 0;
	assert_int_equal(ipx_b1_interrupted(rep), 0);
	free(rep);
}

static void pin_names_and_cpus(void **state)
{
	enum ipx_b1_pin p;

	(void)state;
	assert_int_equal(ipx_b1_pin_parse("split", &p), IPX_OK);
	assert_int_equal(p, IPX_B1_PIN_SPLIT);
	assert_int_equal(ipx_b1_pin_cpu(p, IPX_BW_SENDER), 0);
	assert_int_equal(ipx_b1_pin_cpu(p, IPX_BW_RECEIVER), 1);
	assert_int_equal(ipx_b1_pin_parse("same", &p), IPX_OK);
	assert_int_equal(ipx_b1_pin_cpu(p, IPX_BW_RECEIVER), 0);
	assert_int_equal(ipx_b1_pin_parse("none", &p), IPX_OK);
	assert_int_equal(ipx_b1_pin_cpu(p, IPX_BW_SENDER), -1);
	assert_int_equal(ipx_b1_pin_parse("Split", &p), IPX_EINVAL);
	assert_string_equal(ipx_b1_pin_name(IPX_B1_PIN_SAME), "same");
}

/* ---- a controller and two agents on an in-memory segment ---- */

struct world {
	struct ipx_clock clk;
	struct ipx_loop *loop;
	struct ipx_mem_segment *seg;
	struct ipx_config cfg;
	struct ipx_node *c, *s, *r;
	struct ipx_agent *as, *ar;
	struct ipx_hctl *ctl;
	int watch_calls, watch_fail_after;
};

static struct world *world_new(const char *fault)
{
	struct world *w = calloc(1, sizeof(*w));
	struct ipx_agent_opts so = { .name = "sender" };
	struct ipx_agent_opts ro = { .name = "receiver", .fault = fault };
	struct ipx_mem_faults f = { .delay = 100 };
	char err[200];

	assert_non_null(w);
	ipx_clock_fake_init(&w->clk, 1000);
	w->loop = ipx_loop_new(&w->clk);
	w->seg = ipx_mem_segment_new(w->loop, 0x10, 1);
	ipx_mem_segment_set_faults(w->seg, &f);
	ipx_config_defaults(&w->cfg);
	w->cfg.spx_listen_timeout = 18;
	w->cfg.spx_verify_timeout = 9;
	w->cfg.spx_abort_timeout = 108;
	w->c = ipx_node_new(w->loop, &w->cfg);
	w->s = ipx_node_new(w->loop, &w->cfg);
	w->r = ipx_node_new(w->loop, &w->cfg);
	assert_int_equal(ipx_node_add_link(w->c, ipx_mem_link_new(w->seg, NULL)),
			 IPX_OK);
	assert_int_equal(ipx_node_add_link(w->s, ipx_mem_link_new(w->seg, NULL)),
			 IPX_OK);
	assert_int_equal(ipx_node_add_link(w->r, ipx_mem_link_new(w->seg, NULL)),
			 IPX_OK);
	assert_int_equal(ipx_agent_new(w->s, &so, &w->as, err, sizeof(err)),
			 IPX_OK);
	assert_int_equal(ipx_agent_new(w->r, &ro, &w->ar, err, sizeof(err)),
			 IPX_OK);
	assert_int_equal(ipx_hctl_new(w->c, &w->ctl), IPX_OK);
	return w;
}

static void world_free(struct world *w)
{
	ipx_hctl_free(w->ctl);
	ipx_agent_free(w->as);
	ipx_agent_free(w->ar);
	ipx_node_free(w->c);
	ipx_node_free(w->s);
	ipx_node_free(w->r);
	ipx_mem_segment_free(w->seg);
	ipx_loop_free(w->loop);
	free(w);
}

static void attach(struct world *w)
{
	static const char *const names[] = { "sender", "receiver" };
	char err[300] = "";
	int rc = ipx_hctl_attach(w->ctl, names, 2, 5 * IPX_SEC, err,
				 sizeof(err));

	if (rc != IPX_OK)
		fail_msg("attach: %s", err);
	assert_int_equal(ipx_hctl_agent_count(w->ctl), 2);
	assert_string_equal(ipx_hctl_agent_at(w->ctl, 1)->name, "receiver");
	assert_true(ipx_hctl_agent_at(w->ctl, 1)->pid > 0);
}

static struct ipx_hctl_task tasks[2];
static struct ipx_bw_result results[2];

static int one_run(struct world *w, enum ipx_bw_kind k, uint16_t repeat,
		   int cpu, char *err, size_t errlen)
{
	struct ipx_hctl_run run = {
		.label = "test run",
		.repeat = repeat,
		.tasks = tasks,
		.ntasks = 2,
		.ready_timeout = 3 * IPX_SEC,
		.run_timeout = 5 * IPX_SEC,
		.finish_timeout = 3 * IPX_SEC,
	};

	memset(tasks, 0, sizeof(tasks));
	for (int i = 0; i < 2; i++) {
		tasks[i].agent = (size_t)i;
		tasks[i].role = i ? IPX_BW_RECEIVER : IPX_BW_SENDER;
		tasks[i].cpu = i ? cpu : -1;
		tasks[i].params.kind = k;
		tasks[i].params.count = 300;
		tasks[i].params.size = 255;
		tasks[i].params.drain = 0.2;
		tasks[i].peer = i ? -1 : 1;
	}
	err[0] = '\0';
	return ipx_hctl_run(w->ctl, &run, results, err, errlen);
}

static void controller_runs_agents(void **state)
{
	struct world *w = world_new(NULL);
	char err[300];
	int rc;

	(void)state;
	attach(w);
	for (int k = IPX_BW_IPX; k <= IPX_BW_SPX2; k++) {
		rc = one_run(w, (enum ipx_bw_kind)k, 1, -1, err, sizeof(err));
		if (rc != IPX_OK)
			fail_msg("%s: %s", ipx_bw_kind_name(k), err);
		assert_int_equal(results[0].role, IPX_BW_SENDER);
		assert_int_equal(results[1].role, IPX_BW_RECEIVER);
		assert_int_equal(results[0].sent, 300);
		assert_int_equal(results[1].delivered, 300);
		assert_true(results[0].pps > 0);
		/* stop-and-wait: one latency sample per send, back whole */
		if (k == IPX_BW_SPX)
			assert_int_equal(results[0].lat.count, 300);
	}
	world_free(w);
}

static void agent_error_is_reported_by_name(void **state)
{
	struct world *w = world_new(NULL);
	char err[300];

	(void)state;
	attach(w);
	/* a CPU the agent may not use: it answers ERROR */
	assert_int_equal(one_run(w, IPX_BW_IPX, 1, 1000, err, sizeof(err)),
			 IPX_EIO);
	assert_non_null(strstr(err, "agent 'receiver' (pid "));
	assert_non_null(strstr(err, "failed: cannot run on CPU 1000"));
	assert_non_null(strstr(err, "during test run"));
	/* the session goes on: the next run works */
	if (one_run(w, IPX_BW_IPX, 1, -1, err, sizeof(err)) != IPX_OK)
		fail_msg("after an ERROR: %s", err);
	world_free(w);
}

static void silent_agent_times_out_by_name(void **state)
{
	struct world *w = world_new("receiver:spx:2:hang");
	ipx_time t0;
	char err[300];

	(void)state;
	attach(w);
	assert_int_equal(one_run(w, IPX_BW_SPX, 1, -1, err, sizeof(err)),
			 IPX_OK);
	t0 = ipx_loop_now(w->loop);
	assert_int_equal(one_run(w, IPX_BW_SPX, 2, -1, err, sizeof(err)),
			 IPX_ETIMEOUT);
	assert_non_null(strstr(err, "agent 'receiver'"));
	assert_non_null(strstr(err, "did not answer within 3.0 s (no READY)"));
	assert_non_null(strstr(err, "during test run"));
	/* bounded: the ready timeout and one loop turn */
	assert_true(ipx_loop_now(w->loop) - t0 < 4 * IPX_SEC);
	world_free(w);
}

static void vanished_agent_is_reported(void **state)
{
	struct world *w = world_new(NULL);
	char err[300];

	(void)state;
	attach(w);
	/* The receiver's node goes silent without a word (like a machine
	 * switched off): SPX's watchdog notices. */
	ipx_agent_free(w->ar);
	w->ar = NULL;
	ipx_node_free(w->r);
	w->r = NULL;
	assert_int_not_equal(one_run(w, IPX_BW_IPX, 1, -1, err, sizeof(err)),
			     IPX_OK);
	assert_non_null(strstr(err, "agent 'receiver'"));
	assert_non_null(strstr(err, "during test run"));
	world_free(w);
}

static int watch_dies(void *ctx, char *err, size_t errlen)
{
	struct world *w = ctx;

	if (++w->watch_calls < w->watch_fail_after)
		return 0;
	snprintf(err, errlen, "agent 'sender' (pid 42) died: killed by "
			      "signal 9 (Killed)");
	return -1;
}

static void watch_ends_a_run(void **state)
{
	struct world *w = world_new("receiver:ipx:1:hang");
	char err[300];

	(void)state;
	attach(w);
	w->watch_fail_after = 3;
	ipx_hctl_set_watch(w->ctl, watch_dies, w);
	assert_int_equal(one_run(w, IPX_BW_IPX, 1, -1, err, sizeof(err)),
			 IPX_EIO);
	assert_string_equal(err, "agent 'sender' (pid 42) died: killed by "
				 "signal 9 (Killed) during test run");
	world_free(w);
}

static void missing_agent_is_named(void **state)
{
	static const char *const names[] = { "sender", "nobody" };
	struct world *w = world_new(NULL);
	char err[300];

	(void)state;
	assert_int_equal(ipx_hctl_attach(w->ctl, names, 2, IPX_SEC, err,
					 sizeof(err)),
			 IPX_ENOTFOUND);
	assert_non_null(strstr(err, "no agent named 'nobody' answered"));
	world_free(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hello_prepare_ready_round_trip),
		cmocka_unit_test(result_and_error_round_trip),
		cmocka_unit_test(frames_follow_each_other),
		cmocka_unit_test(bad_input_is_refused_clearly),
		cmocka_unit_test(b1_summary_of_known_passes),
		cmocka_unit_test(pin_names_and_cpus),
		cmocka_unit_test(controller_runs_agents),
		cmocka_unit_test(agent_error_is_reported_by_name),
		cmocka_unit_test(silent_agent_times_out_by_name),
		cmocka_unit_test(vanished_agent_is_reported),
		cmocka_unit_test(watch_ends_a_run),
		cmocka_unit_test(missing_agent_is_named),
	};

	ipx_log_set_level(IPX_LOG_ERROR);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
