/*
 * b9_nbserv.c - B9's NetBIOS server node (b9_nbserv.h): one NetBIOS
 * module, one name ("B9S" and the node address in hex), a LISTEN per
 * expected session posted at once, and every session served
 * concurrently through the NCB interface: up to two RECEIVEs kept posted
 * on each, as many as NETBIOS RECEIVE BUFFERS allow (its default 6: one
 * each for six sessions) (writes), or SENDs back to back on each for
 * the measured time
 * (reads; a SEND ends when its data is acknowledged).
 */
#include "b9_nbserv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "ipxlab/err.h"
#include "ipxlab/netbios.h"

#define RX_PER_SESSION 2

struct sess {
	struct b9_nbs *s;
	struct nb_ncb listen, send, hang, rx[RX_PER_SESSION];
	uint8_t *rxbuf;		/* RX_PER_SESSION messages */
	uint8_t lsn;		/* 0: not up */
	bool sending;		/* send mode: between go and its last SEND */
	uint64_t bytes;
	ipx_time last;
};

struct b9_nbs {
	struct netbios *nb;
	struct ipx_loop *loop;
	uint8_t name[NB_NAME_LEN];
	struct nb_ncb add;
	struct sess ss[IPX_B9_MAX_STATIONS];
	unsigned n, up;
	unsigned nrx;		/* RECEIVEs per session */
	bool send, listening;
	uint8_t *payload;
	size_t msg;
	ipx_time t0, until;
	char error[160];
};

static void fail(struct b9_nbs *s, const struct nb_ncb *ncb, uint8_t rc)
{
	if (!s->error[0])
		snprintf(s->error, sizeof(s->error),
			 "the NetBIOS server's %s: %s",
			 nb_command_name(ncb->command), nb_strerror(rc));
}

/* Submit a command that must stay pending. */
static bool submit(struct sess *e, struct nb_ncb *ncb, nb_post_cb post)
{
	uint8_t rc;

	ncb->post = post;
	ncb->ctx = e;
	rc = nb_submit(e->s->nb, ncb);
	if (rc == NB_RC_PENDING)
		return true;
	fail(e->s, ncb, rc);
	return false;
}

static void on_rx(struct nb_ncb *ncb)
{
	struct sess *e = ncb->ctx;

	if (ncb->retcode == NB_RC_OK || ncb->retcode == NB_RC_INCOMPLETE) {
		e->bytes += ncb->length;
		e->last = ipx_loop_now(e->s->loop);
		ncb->length = NB_MAX_MESSAGE;
		submit(e, ncb, on_rx);
	} else if (ncb->retcode != NB_RC_CLOSED) {
		fail(e->s, ncb, ncb->retcode);	/* CLOSED: the normal end */
	}
}

static void send_next(struct sess *e);

static void on_sent(struct nb_ncb *ncb)
{
	struct sess *e = ncb->ctx;

	if (ncb->retcode != NB_RC_OK) {
		fail(e->s, ncb, ncb->retcode);
		e->sending = false;
		return;
	}
	e->bytes += e->s->msg;
	e->last = ipx_loop_now(e->s->loop);
	send_next(e);
}

/* The next SEND while the time lasts; SENDs done at once loop here. */
static void send_next(struct sess *e)
{
	struct b9_nbs *s = e->s;

	while (ipx_loop_now(s->loop) < s->until) {
		uint8_t rc;

		memset(&e->send, 0, sizeof(e->send));
		e->send.command = NB_SEND;
		e->send.lsn = e->lsn;
		e->send.buffer = s->payload;
		e->send.length = (uint16_t)s->msg;
		e->send.post = on_sent;
		e->send.ctx = e;
		rc = nb_submit(s->nb, &e->send);
		if (rc == NB_RC_PENDING)
			return;
		if (rc != NB_RC_OK) {
			fail(s, &e->send, rc);
			break;
		}
		e->bytes += s->msg;
		e->last = ipx_loop_now(s->loop);
	}
	e->sending = false;
}

static void on_listened(struct nb_ncb *ncb)
{
	struct sess *e = ncb->ctx;

	if (ncb->retcode != NB_RC_OK) {
		fail(e->s, ncb, ncb->retcode);
		return;
	}
	e->lsn = ncb->lsn;
	e->s->up++;
	if (e->s->send)
		return;
	for (unsigned i = 0; i < e->s->nrx; i++) {
		struct nb_ncb *rx = &e->rx[i];

		memset(rx, 0, sizeof(*rx));
		rx->command = NB_RECEIVE;
		rx->lsn = e->lsn;
		rx->buffer = e->rxbuf + (size_t)i * NB_MAX_MESSAGE;
		rx->length = NB_MAX_MESSAGE;
		if (!submit(e, rx, on_rx))
			return;
	}
}

static void on_added(struct nb_ncb *ncb)
{
	struct b9_nbs *s = ncb->ctx;

	if (ncb->retcode != NB_RC_OK) {
		fail(s, ncb, ncb->retcode);
		return;
	}
	for (unsigned i = 0; i < s->n; i++) {
		struct sess *e = &s->ss[i];

		memset(&e->listen, 0, sizeof(e->listen));
		e->listen.command = NB_LISTEN;
		memcpy(e->listen.name, s->name, NB_NAME_LEN);
		e->listen.callname[0] = '*';
		if (!submit(e, &e->listen, on_listened))
			return;
	}
	s->listening = true;
}

static int setup(struct b9_nbs *s, struct ipx_node *node, char *err,
		 size_t errlen)
{
	struct ipx_addr me;
	char text[16], hex[13];
	int rc;

	for (unsigned i = 0; i < s->n; i++) {
		s->ss[i].s = s;
		if (!s->send && !(s->ss[i].rxbuf = malloc(RX_PER_SESSION *
							  NB_MAX_MESSAGE)))
			return IPX_ENOMEM;
	}
	if (s->send && !(s->payload = calloc(1, s->msg)))
		return IPX_ENOMEM;
	rc = nb_open(node, NULL, &s->nb);
	if (rc != IPX_OK) {
		s->nb = NULL;
		ipx_bench_set_err(err, errlen, "cannot open NetBIOS on the "
					       "server's node: %s",
				  ipx_strerror(rc));
		return rc;
	}
	ipx_node_address(node, &me);
	ipx_node_format(me.node, hex);
	snprintf(text, sizeof(text), "B9S%s", hex);
	if (nb_name_parse(text, false, s->name) != IPX_OK) {
		ipx_bench_set_err(err, errlen, "bad NetBIOS name %s", text);
		return IPX_EINVAL;
	}
	s->add.command = NB_ADD_NAME;
	memcpy(s->add.name, s->name, NB_NAME_LEN);
	s->add.post = on_added;
	s->add.ctx = s;
	if (nb_submit(s->nb, &s->add) != NB_RC_PENDING) {
		ipx_bench_set_err(err, errlen, "cannot add the NetBIOS name "
					       "%s", text);
		return IPX_EIO;
	}
	return IPX_OK;
}

int b9_nbs_open(struct ipx_node *node, unsigned sessions, bool send,
		size_t msg, struct b9_nbs **out, char *err, size_t errlen)
{
	struct b9_nbs *s;
	int rc;

	*out = NULL;
	if (sessions == 0 || sessions > IPX_B9_MAX_STATIONS || msg == 0 ||
	    msg > NB_MAX_MESSAGE) {
		ipx_bench_set_err(err, errlen, "the NetBIOS server: 1 to %d "
					       "sessions of messages up to "
					       "%d bytes",
				  IPX_B9_MAX_STATIONS, NB_MAX_MESSAGE);
		return IPX_EINVAL;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return IPX_ENOMEM;
	s->n = sessions;
	s->send = send;
	s->msg = msg;
	s->loop = ipx_node_loop(node);
	s->nrx = ipx_node_config(node)->netbios_receive_buffers / sessions;
	if (s->nrx > RX_PER_SESSION)
		s->nrx = RX_PER_SESSION;
	if (s->nrx == 0)
		s->nrx = 1;
	rc = setup(s, node, err, errlen);
	if (rc != IPX_OK) {
		if (rc == IPX_ENOMEM)
			ipx_bench_set_err(err, errlen, "the NetBIOS server: "
						       "out of memory");
		b9_nbs_free(s);
		return rc;
	}
	*out = s;
	return IPX_OK;
}

const uint8_t *b9_nbs_name(const struct b9_nbs *s)
{
	return s->name;
}

bool b9_nbs_listening(const struct b9_nbs *s)
{
	return s->listening || s->error[0];
}

unsigned b9_nbs_sessions(const struct b9_nbs *s)
{
	return s->up;
}

void b9_nbs_go(struct b9_nbs *s, double seconds)
{
	s->t0 = ipx_loop_now(s->loop);
	s->until = s->t0 + (ipx_time)(seconds * IPX_SEC);
	for (unsigned i = 0; i < s->n; i++)
		s->ss[i].sending = s->ss[i].lsn != 0;
	for (unsigned i = 0; i < s->n; i++)
		if (s->ss[i].sending)
			send_next(&s->ss[i]);
}

bool b9_nbs_done(const struct b9_nbs *s)
{
	if (s->error[0])
		return true;
	for (unsigned i = 0; i < s->n; i++)
		if (s->ss[i].sending)
			return false;
	return true;
}

const char *b9_nbs_error(const struct b9_nbs *s)
{
	return s->error;
}

void b9_nbs_result(const struct b9_nbs *s, unsigned i, uint64_t *bytes,
		   double *seconds)
{
	const struct sess *e = &s->ss[i];

	*bytes = i < s->n ? e->bytes : 0;
	*seconds = i < s->n && e->bytes && e->last > s->t0
			   ? (double)(e->last - s->t0) / IPX_SEC
			   : 0;
}

void b9_nbs_free(struct b9_nbs *s)
{
	if (!s)
		return;
	if (s->nb) {
		/* a HANG UP packet each, so the workstations see their
		 * sessions closed, not aborted */
		for (unsigned i = 0; i < s->n; i++) {
			struct sess *e = &s->ss[i];

			if (!e->lsn)
				continue;
			memset(&e->hang, 0, sizeof(e->hang));
			e->hang.command = NB_HANG_UP;
			e->hang.lsn = e->lsn;
			nb_submit(s->nb, &e->hang);
		}
		nb_close(s->nb);
	}
	for (unsigned i = 0; i < IPX_B9_MAX_STATIONS; i++)
		free(s->ss[i].rxbuf);
	free(s->payload);
	free(s);
}
