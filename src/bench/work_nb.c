/*
 * work_nb.c - the NetBIOS workloads (work_int.h), through the NCB
 * interface as a 1990 program would use it.
 *
 * Set-up (never timed): each side opens the node's NetBIOS module and
 * adds a unique name of its own, "BWR" (receiver) or "BWS" (sender) and
 * the node address in hex. The receiver then LISTENs (session) or keeps
 * RECEIVE DATAGRAMs posted (datagram); the sender CALLs the receiver's
 * name (session) or FINDs it (datagram: the answer fills the name cache,
 * so every datagram goes straight to the receiver's node). A session
 * receiver with params.nb_call CALLs the sender's name instead (B9's
 * workstations reading from a server that listens, b9_nbserv.c).
 *
 * A SEND DATAGRAM is complete when it has been handed to IPX and the link
 * has passed it to the kernel (work.c's pump and flush), in bursts no
 * larger than the RECEIVE DATAGRAMs a receiver can keep posted; the
 * receiver lowers its loop's batch to that number while it runs (see
 * on_added). A session SEND
 * when its POST reports it acknowledged, the next SEND starting then
 * (the emulator is stop-and-wait). One NetBIOS workload per node at a
 * time: the module owns socket 0x455.
 */
#include "work_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipxlab/err.h"
#include "ipxlab/netbios.h"

#define RX_MAX 64		/* RECEIVE DATAGRAMs kept posted at most */
#define SESSION_RX 2		/* session RECEIVEs kept posted */

struct nb_fam {
	struct netbios *nb;
	uint8_t name[NB_NAME_LEN];
	struct nb_ncb add, setup, send, hang;
	struct nb_ncb rx[RX_MAX];
	unsigned nrx;
	uint8_t *rxbuf;		/* nrx buffers of rxlen bytes */
	size_t rxlen;
	uint8_t lsn;		/* the session, 0: none */
	unsigned old_batch;	/* the loop's, while we lowered it */
	ipx_time sent_at;
};

static void nb_info(const struct ipx_bw *w, struct ipx_bw_info *out)
{
	const struct nb_fam *f = w->fam;

	memcpy(out->nb_name, f->name, NB_NAME_LEN);
	ipx_node_address(w->node, &out->addr);
}

static bool is_session(const struct ipx_bw *w)
{
	return w->p.kind == IPX_BW_NB_SESSION;
}

static const char *peer_name(const struct ipx_bw *w, char *buf)
{
	return nb_name_format((const uint8_t *)w->p.peer.nb_name, buf);
}

/* Submit a command that must stay pending; fail the workload if not. */
static bool submit(struct ipx_bw *w, struct nb_ncb *ncb, nb_post_cb post)
{
	struct nb_fam *f = w->fam;
	uint8_t rc;

	ncb->post = post;
	ncb->ctx = w;
	rc = nb_submit(f->nb, ncb);
	if (rc == NB_RC_PENDING)
		return true;
	bw_fail(w, "NetBIOS %s: %s", nb_command_name(ncb->command),
		nb_strerror(rc));
	return false;
}

/* ---- receiver ---- */

static void on_rx(struct nb_ncb *ncb)
{
	struct ipx_bw *w = ncb->ctx;
	struct nb_fam *f = w->fam;

	if (ncb->retcode == NB_RC_OK || ncb->retcode == NB_RC_INCOMPLETE) {
		bw_received(w, ncb->length);
		ncb->length = (uint16_t)f->rxlen;
		submit(w, ncb, on_rx);
	} else if (ncb->retcode != NB_RC_CLOSED) {
		/* the sender hanging up (CLOSED) is the normal end */
		bw_fail(w, "NetBIOS %s: %s", nb_command_name(ncb->command),
			nb_strerror(ncb->retcode));
	}
}

static bool post_receives(struct ipx_bw *w, uint8_t command)
{
	struct nb_fam *f = w->fam;

	for (unsigned i = 0; i < f->nrx; i++) {
		struct nb_ncb *ncb = &f->rx[i];

		memset(ncb, 0, sizeof(*ncb));
		ncb->command = command;
		ncb->lsn = f->lsn;
		ncb->num = f->add.num;
		ncb->buffer = f->rxbuf + i * f->rxlen;
		ncb->length = (uint16_t)f->rxlen;
		if (!submit(w, ncb, on_rx))
			return false;
	}
	return true;
}

static void on_listened(struct nb_ncb *ncb)
{
	struct ipx_bw *w = ncb->ctx;
	struct nb_fam *f = w->fam;

	if (ncb->retcode != NB_RC_OK) {
		bw_fail(w, "NetBIOS LISTEN: %s", nb_strerror(ncb->retcode));
		return;
	}
	f->lsn = ncb->lsn;
	post_receives(w, NB_RECEIVE);
}

/* ---- sender ---- */

static void send_next(struct ipx_bw *w);

static void on_sent(struct nb_ncb *ncb)
{
	struct ipx_bw *w = ncb->ctx;
	struct nb_fam *f = w->fam;

	if (ncb->retcode != NB_RC_OK) {
		bw_fail(w, "NetBIOS session SEND: %s",
			nb_strerror(ncb->retcode));
		return;
	}
	bw_completed(w, f->sent_at);
	send_next(w);
}

static void send_next(struct ipx_bw *w)
{
	struct nb_fam *f = w->fam;

	while (bw_may_start(w)) {
		uint8_t rc;

		memset(&f->send, 0, sizeof(f->send));
		f->send.command = NB_SEND;
		f->send.lsn = f->lsn;
		f->send.buffer = w->payload;
		f->send.length = (uint16_t)w->p.size;
		f->send.post = on_sent;
		f->send.ctx = w;
		f->sent_at = bw_now(w);
		rc = nb_submit(f->nb, &f->send);
		if (rc == NB_RC_PENDING)
			return;
		if (rc != NB_RC_OK) {
			bw_fail(w, "NetBIOS session SEND: %s",
				nb_strerror(rc));
			return;
		}
		bw_completed(w, f->sent_at);
	}
}

static void on_setup(struct nb_ncb *ncb)
{
	struct ipx_bw *w = ncb->ctx;
	struct nb_fam *f = w->fam;
	char name[NB_NAME_STRLEN];

	if (ncb->retcode != NB_RC_OK) {
		bw_fail(w, "NetBIOS %s %s: %s", nb_command_name(ncb->command),
			peer_name(w, name), nb_strerror(ncb->retcode));
		return;
	}
	if (ncb->command == NB_CALL)
		f->lsn = ncb->lsn;
	/* a receiver that called (params.nb_call) receives from now on */
	if (w->role == IPX_BW_RECEIVER && !post_receives(w, NB_RECEIVE))
		return;
	bw_ready(w);
}

/* RECEIVE DATAGRAMs a node can keep posted: each holds a receive buffer
 * and counts against NETBIOS COMMANDS. */
static unsigned max_receives(const struct ipx_config *cfg)
{
	unsigned n = cfg->netbios_commands > 1 ? cfg->netbios_commands - 1 : 1;

	if (n > cfg->netbios_receive_buffers)
		n = cfg->netbios_receive_buffers;
	return n < RX_MAX ? n : RX_MAX;
}

/* A burst no larger than the receiver can take in one turn, if it runs
 * the configuration we do (the harness gives every agent the same). */
static unsigned nb_burst(const struct ipx_bw *w)
{
	unsigned n = max_receives(ipx_node_config(w->node));

	return n < BW_BURST ? n : BW_BURST;
}

static int nb_send_one(struct ipx_bw *w)
{
	struct nb_fam *f = w->fam;
	uint8_t rc;

	memset(&f->send, 0, sizeof(f->send));
	f->send.command = NB_SEND_DATAGRAM;
	f->send.num = f->add.num;
	memcpy(f->send.callname, w->p.peer.nb_name, NB_NAME_LEN);
	f->send.buffer = w->payload;
	f->send.length = (uint16_t)w->p.size;
	rc = nb_submit(f->nb, &f->send);	/* never pending */
	return rc == NB_RC_OK ? IPX_OK : IPX_EIO;
}

static uint64_t nb_flush(struct ipx_bw *w)
{
	return bw_flush_links(w->node);
}

/* ---- both ---- */

static void on_added(struct nb_ncb *ncb)
{
	struct ipx_bw *w = ncb->ctx;
	struct nb_fam *f = w->fam;
	char name[NB_NAME_STRLEN];

	if (ncb->retcode != NB_RC_OK) {
		bw_fail(w, "cannot add the NetBIOS name %s: %s",
			nb_name_format(f->name, name),
			nb_strerror(ncb->retcode));
		return;
	}
	memset(&f->setup, 0, sizeof(f->setup));
	if (w->role == IPX_BW_RECEIVER && !w->p.nb_call) {
		if (!is_session(w)) {
			if (!post_receives(w, NB_RECEIVE_DATAGRAM))
				return;
			/* POSTs run after the link's batch: take no more per
			 * turn than there are RECEIVE DATAGRAMs posted, or
			 * the rest of a batch finds none and is dropped. */
			f->old_batch = ipx_loop_batch(w->loop);
			if (f->nrx < f->old_batch)
				ipx_loop_set_batch(w->loop, f->nrx);
			bw_ready(w);
			return;
		}
		f->setup.command = NB_LISTEN;
		memcpy(f->setup.name, f->name, NB_NAME_LEN);
		f->setup.callname[0] = '*';
		if (submit(w, &f->setup, on_listened))
			bw_ready(w);
		return;
	}
	f->setup.command = is_session(w) ? NB_CALL : NB_FIND_NAME;
	memcpy(f->setup.name, f->name, NB_NAME_LEN);
	memcpy(f->setup.callname, w->p.peer.nb_name, NB_NAME_LEN);
	if (!is_session(w)) {	/* FIND NAME's answer buffer */
		f->setup.buffer = f->rxbuf;
		f->setup.length = (uint16_t)f->rxlen;
	}
	submit(w, &f->setup, on_setup);
}

static int nb_open_fam(struct ipx_bw *w)
{
	const struct ipx_config *cfg = ipx_node_config(w->node);
	struct nb_fam *f = calloc(1, sizeof(*f));
	bool receiver = w->role == IPX_BW_RECEIVER;
	struct ipx_addr me;
	char text[16], hex[13];
	int rc;

	if (!f)
		return IPX_ENOMEM;
	w->fam = f;
	/* receive buffers: datagrams as many as NETBIOS COMMANDS allow,
	 * sessions a couple of whole messages; the sender's one is for
	 * FIND NAME's answer */
	if (!receiver) {
		f->nrx = 1;
		f->rxlen = NB_FN_HDR_LEN + 8 * NB_FN_ENTRY_LEN;
	} else if (is_session(w)) {
		f->nrx = SESSION_RX;
		f->rxlen = NB_MAX_MESSAGE;
	} else {
		f->nrx = max_receives(cfg);
		f->rxlen = NB_MAX_DATAGRAM;
	}
	f->rxbuf = malloc(f->nrx * f->rxlen);
	if (!f->rxbuf)
		return IPX_ENOMEM;
	rc = nb_open(w->node, NULL, &f->nb);
	if (rc != IPX_OK) {
		f->nb = NULL;
		bw_set_error(w, "cannot open NetBIOS on this node: %s%s",
			     ipx_strerror(rc),
			     rc == IPX_EINUSE ? " (another NetBIOS user has "
						"socket 0x455)"
					      : "");
		return rc;
	}
	ipx_node_address(w->node, &me);
	ipx_node_format(me.node, hex);
	snprintf(text, sizeof(text), "BW%c%s", receiver ? 'R' : 'S', hex);
	if (nb_name_parse(text, false, f->name) != IPX_OK) {
		bw_set_error(w, "bad NetBIOS name %s", text);
		return IPX_EINVAL;
	}
	f->add.command = NB_ADD_NAME;
	memcpy(f->add.name, f->name, NB_NAME_LEN);
	f->add.post = on_added;
	f->add.ctx = w;
	rc = nb_submit(f->nb, &f->add);
	if (rc != NB_RC_PENDING) {
		bw_set_error(w, "cannot add the NetBIOS name %s: %s", text,
			     nb_strerror((uint8_t)rc));
		return IPX_EIO;
	}
	return IPX_OK;
}

static void nb_close_fam(struct ipx_bw *w)
{
	struct nb_fam *f = w->fam;

	if (!f)
		return;
	if (f->old_batch)
		ipx_loop_set_batch(w->loop, f->old_batch);
	if (f->nb) {
		/* The sender ends its session with a packet, so the receiver
		 * sees it closed, not aborted. */
		if (f->lsn && w->role == IPX_BW_SENDER) {
			memset(&f->hang, 0, sizeof(f->hang));
			f->hang.command = NB_HANG_UP;
			f->hang.lsn = f->lsn;
			nb_submit(f->nb, &f->hang);
		}
		nb_close(f->nb);
	}
	free(f->rxbuf);
	free(f);
	w->fam = NULL;
}

static void nb_result(const struct ipx_bw *w, struct ipx_bw_result *r)
{
	const struct nb_fam *f = w->fam;

	if (f && f->nb && w->role == IPX_BW_SENDER)
		r->retransmits = nb_get_stats(f->nb)->retransmits;
}

const struct bw_ops bw_nb_dgram_ops = {
	.open = nb_open_fam,
	.info = nb_info,
	.send_one = nb_send_one,
	.flush = nb_flush,
	.burst = nb_burst,
	.result = nb_result,
	.close = nb_close_fam,
};

static void nb_go(struct ipx_bw *w)
{
	send_next(w);
}

const struct bw_ops bw_nb_session_ops = {
	.open = nb_open_fam,
	.info = nb_info,
	.go = nb_go,
	.result = nb_result,
	.close = nb_close_fam,
};
