/*
 * ncp_burst.c - the packet-burst target of "bench ncp"
 * (ipxlab/bench_ncp_burst.h): a burst read of the 4 MB fixture against an
 * IPX datagram flood of as many bytes in packets of the same size over the
 * same link, rounds alternating, in the same run.
 */
#include "ipxlab/bench_ncp_burst.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipxlab/bench_harness.h"
#include "ipxlab/bench_ncp.h"
#include "ipxlab/bench_stat.h"
#include "ipxlab/bench_work.h"
#include "ipxlab/err.h"
#include "ipxlab/ncp_client.h"

#define WAIT (30 * IPX_SEC)

struct flow {
	bool ready[2], done[2], failed;
};

struct side {
	struct flow *f;
	int i;
};

static void on_event(struct ipx_bw *w, enum ipx_bw_event ev, void *ctx)
{
	struct side *s = ctx;

	(void)w;
	if (ev == IPX_BW_READY)
		s->f->ready[s->i] = true;
	else if (ev == IPX_BW_DONE)
		s->f->done[s->i] = true;
	else
		s->f->failed = true;
}

struct until {
	struct flow *f;
	bool *flag;
};

static bool reached(void *ctx)
{
	struct until *u = ctx;

	return *u->flag || u->f->failed;
}

static int wait_for(struct ipx_loop *loop, struct flow *f, bool *flag)
{
	struct until u = { f, flag };

	ipx_loop_run_until(loop, reached, &u, WAIT);
	return *flag && !f->failed ? IPX_OK : IPX_ETIMEOUT;
}

/* The agent sends p's datagrams (to our receiver, p->peer). */
static int agent_send(const struct ipx_bncb_opts *o,
		      const struct ipx_bw_params *p, uint64_t *sent,
		      char *err, size_t errlen)
{
	struct ipx_hctl_task task = { o->agent, IPX_BW_SENDER, -1, *p, -1 };
	struct ipx_hctl_run run = { "burst target datagrams", NULL, 1,
				    &task, 1, 10 * IPX_SEC, WAIT, WAIT };
	struct ipx_bw_result res;
	int rc = ipx_hctl_run(o->ctl, &run, &res, err, errlen);

	if (rc == IPX_OK)
		*sent += res.sent;
	return rc;
}

/* One datagram flood of 'bytes' in payloads of 'size': the receiver's
 * bytes and seconds added to rep. */
static int dgram_round(const struct ipx_bncb_opts *o, size_t size,
		       size_t bytes, struct ipx_bncb_report *rep, char *err,
		       size_t errlen)
{
	struct ipx_node *client = o->client, *sender = o->sender;
	struct ipx_loop *loop = ipx_node_loop(client);
	struct flow f = { { false, false }, { false, false }, false };
	struct side rs = { &f, 0 }, ss = { &f, 1 };
	struct ipx_bw_params p = { .kind = IPX_BW_IPX, .size = size };
	struct ipx_bw *rx = NULL, *tx = NULL;
	struct ipx_bw_result res;
	int rc;

	p.count = (uint32_t)((bytes + size - 1) / size);
	p.window = o->window;
	p.udp_bind = o->udp_bind;
	rc = ipx_bw_new(client, loop, IPX_BW_RECEIVER, &p, on_event, &rs, &rx,
			err, errlen);
	if (rc == IPX_OK)
		rc = wait_for(loop, &f, &f.ready[0]);
	if (rc == IPX_OK)
		ipx_bw_info(rx, &p.peer);
	if (rc == IPX_OK && o->ctl) {
		rc = agent_send(o, &p, &rep->dgram_sent, err, errlen);
		f.done[1] = rc == IPX_OK;
	} else if (rc == IPX_OK) {
		rc = ipx_bw_new(sender, loop, IPX_BW_SENDER, &p, on_event, &ss,
				&tx, err, errlen);
		if (rc == IPX_OK)
			rc = wait_for(loop, &f, &f.ready[1]);
		if (rc == IPX_OK)
			rc = ipx_bw_go(tx);
		if (rc == IPX_OK)
			rc = wait_for(loop, &f, &f.done[1]);
	}
	if (rc == IPX_OK) {
		ipx_bw_finish(rx);
		rc = wait_for(loop, &f, &f.done[0]);
	}
	if (rc != IPX_OK && !*err)
		snprintf(err, errlen, "the datagram flow: %s",
			 f.failed ? ipx_bw_error(tx && *ipx_bw_error(tx) ? tx
									  : rx)
				  : "no end within 30 s");
	if (rc == IPX_OK) {
		ipx_bw_result(rx, &res);
		rep->dgram_bytes += res.bytes;
		rep->dgram_seconds += res.seconds;
		if (tx) {
			ipx_bw_result(tx, &res);
			rep->dgram_sent += res.sent;
		}
	}
	ipx_bw_free(tx);
	ipx_bw_free(rx);
	return rc;
}

/* One burst read of the 4 MB file into buf, timed. */
static int burst_round(struct ipx_loop *loop, struct ncp_client *cl,
		       uint8_t *buf, struct ipx_bncb_report *rep, char *err,
		       size_t errlen)
{
	struct ncp_fh fh;
	size_t got = 0;
	ipx_time t0;
	int rc = ncp_open(cl, IPX_BN_LARGE_FILE, NCP_OPEN_READ, &fh);

	if (rc) {
		snprintf(err, errlen, "opening %s: %s", IPX_BN_LARGE_FILE,
			 ncp_strerror(rc));
		return IPX_EIO;
	}
	t0 = ipx_loop_now(loop);
	rc = ncp_read(cl, &fh, 0, buf, IPX_BN_LARGE_SIZE, &got);
	rep->burst_seconds += (double)(ipx_loop_now(loop) - t0) / IPX_SEC;
	rep->burst_bytes += got;
	ncp_close(cl, &fh);
	if (rc || got != IPX_BN_LARGE_SIZE) {
		snprintf(err, errlen, "the burst read: %s (%zu bytes)",
			 rc ? ncp_strerror(rc) : "short", got);
		return IPX_EIO;
	}
	return IPX_OK;
}

static int connect_client(struct ncp_client *cl, const struct ipx_addr *srv,
			  char *err, size_t errlen)
{
	int rc = ncp_connect(cl, srv);

	if (!rc)
		rc = ncp_login(cl, "GUEST", "");
	if (!rc)
		rc = ncp_negotiate(cl, 4096);
	if (rc) {
		snprintf(err, errlen, "the file server: %s", ncp_strerror(rc));
		return IPX_EIO;
	}
	if (!ncp_burst_active(cl)) {
		snprintf(err, errlen, "the file server refused packet burst "
			 "(0x65)");
		return IPX_EREFUSED;
	}
	return IPX_OK;
}

int ipx_bncb_run(const struct ipx_bncb_opts *o, struct ipx_bncb_report *rep,
		 char *err, size_t errlen)
{
	struct ipx_node *client = o->client;
	struct ncp_client *cl = NULL;
	uint8_t *buf = malloc(IPX_BN_LARGE_SIZE);
	const struct ncp_client_stats *cs;
	double ratio[IPX_BNCB_ROUNDS];
	struct ipx_stat_summary sum;
	int rc = buf ? ncp_client_new(client, NULL, &cl) : IPX_ENOMEM;

	memset(rep, 0, sizeof(*rep));
	*err = '\0';
	if (rc != IPX_OK) {
		snprintf(err, errlen, "an NCP client: %s", ipx_strerror(rc));
		free(buf);
		return rc;
	}
	rc = connect_client(cl, &o->server, err, errlen);
	rep->packet = (unsigned)ncp_burst_packet_size(cl);
	for (unsigned r = 0; rc == IPX_OK && r < IPX_BNCB_ROUNDS; r++) {
		struct ipx_bncb_report one = { 0 };

		for (int k = 0; rc == IPX_OK && k < IPX_BNCB_READS; k++)
			rc = burst_round(ipx_node_loop(client), cl, buf, &one,
					 err, errlen);
		if (rc == IPX_OK)
			rc = dgram_round(o, rep->packet - IPX_HDR_LEN,
					 one.burst_bytes, &one, err, errlen);
		if (rc != IPX_OK)
			break;
		if (!(one.burst_seconds > 0) || !(one.dgram_seconds > 0) ||
		    !one.dgram_bytes) {
			snprintf(err, errlen, "round %u took no time", r + 1);
			rc = IPX_EIO;
			break;
		}
		ratio[r] = one.burst_bytes / one.burst_seconds /
			   (one.dgram_bytes / one.dgram_seconds);
		rep->burst_bytes += one.burst_bytes;
		rep->burst_seconds += one.burst_seconds;
		rep->dgram_bytes += one.dgram_bytes;
		rep->dgram_seconds += one.dgram_seconds;
		rep->dgram_sent += one.dgram_sent;
		rep->rounds = r + 1;
	}
	cs = ncp_client_stats(cl);
	rep->bursts = cs->bursts;
	rep->frags_resent = cs->burst_frags_resent;
	rep->missing_sent = cs->burst_missing_sent;
	rep->timeouts = cs->burst_timeouts;
	ncp_client_free(cl);
	free(buf);
	if (rc != IPX_OK)
		return rc;
	rep->burst_kBps = rep->burst_bytes / rep->burst_seconds / 1000;
	rep->dgram_kBps = rep->dgram_bytes / rep->dgram_seconds / 1000;
	ipx_stat_summarize(ratio, rep->rounds, &sum);
	rep->ratio = sum.median;
	rep->ratio_min = sum.min;
	rep->ratio_max = sum.max;
	rep->pass = rep->ratio >= IPX_BNCB_TARGET;
	return IPX_OK;
}
