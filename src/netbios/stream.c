/*
 * stream.c - a byte stream each way over one NetBIOS session (see
 * nb_stream.h and docs/netbios.md, "Byte streams over a session"): one
 * SEND and one RECEIVE at a time, a zero-length message as the end of
 * our data, and a HANG UP only once both ends' marks are through.
 */
#include "ipxlab/nb_stream.h"

#include <stdlib.h>
#include <string.h>

#include "ipxlab/log.h"

struct nb_stream {
	struct netbios *nb;
	uint8_t lsn;
	struct nb_stream_io io;
	void *ctx;
	struct nb_ncb send, recv, hangup;
	bool send_pending, recv_pending, hang_pending;
	bool mark_queued;	/* our end-of-data mark went in as a SEND */
	bool mark_done;		/* ... and completed */
	bool hung_up;		/* we submitted the HANG UP */
	bool recv_over;		/* the RECEIVE ended: the session is over */
	bool output_failed, stopped, finished;
	uint8_t send_rc;	/* a data SEND that failed, or 0 */
	uint8_t recv_rc;	/* how the RECEIVEs ended */
	struct nb_stream_status st;
	uint8_t sbuf[NB_MAX_MESSAGE];
	uint8_t rbuf[NB_MAX_MESSAGE];
};

static void pump(struct nb_stream *s);

static int result_of(const struct nb_stream *s)
{
	if (s->output_failed)
		return NB_STREAM_OUTPUT;
	if (s->send_rc && s->send_rc != NB_RC_CLOSED)
		return NB_STREAM_FAILED;
	if (s->recv_rc != NB_RC_CLOSED && s->recv_rc != NB_RC_OK)
		return NB_STREAM_FAILED;
	if (s->send_rc || !s->st.input_ended || !s->mark_queued)
		return NB_STREAM_CUT;
	if (!s->st.peer_ended)
		return NB_STREAM_PEER_EARLY;
	return NB_STREAM_OK;
}

/* The end, once nothing of ours is pending any more. */
static void maybe_finish(struct nb_stream *s)
{
	int r;

	if (s->finished || s->stopped || !s->recv_over || s->send_pending ||
	    s->recv_pending || s->hang_pending)
		return;
	s->finished = true;
	r = result_of(s);
	if (r == NB_STREAM_FAILED && !s->st.retcode)
		s->st.retcode = s->send_rc && s->send_rc != NB_RC_CLOSED
					? s->send_rc
					: s->recv_rc;
	s->io.done(s->ctx, r);
}

static void on_hung_up(struct nb_ncb *ncb)
{
	struct nb_stream *s = ncb->ctx;

	s->hang_pending = false;
	if (s->stopped)
		return;
	/* The data is through both ways: an unacknowledged session end
	 * (0x05) is reported, not a failure. */
	s->st.retcode = ncb->retcode == NB_RC_CLOSED ? 0 : ncb->retcode;
	s->recv_over = true;
	maybe_finish(s);
}

static void hang_up(struct nb_stream *s)
{
	uint8_t rc;

	if (s->hung_up || s->recv_over)
		return;
	s->hung_up = true;
	s->hangup.command = NB_HANG_UP;
	s->hangup.lsn = s->lsn;
	s->hangup.post = on_hung_up;
	s->hangup.ctx = s;
	rc = nb_submit(s->nb, &s->hangup);
	if (rc == NB_RC_PENDING) {
		s->hang_pending = true;
		return;
	}
	/* Done at once: the session had ended already. */
	s->recv_over = true;
	if (rc != NB_RC_OK && rc != NB_RC_CLOSED && rc != NB_RC_BADLSN)
		s->st.retcode = rc;
	maybe_finish(s);
}

/* Our mark is through and the peer's is in: the end. */
static void maybe_hang_up(struct nb_stream *s)
{
	if (s->mark_done && s->st.peer_ended)
		hang_up(s);
}

static void on_sent(struct nb_ncb *ncb)
{
	struct nb_stream *s = ncb->ctx;

	s->send_pending = false;
	if (s->stopped)
		return;
	if (s->mark_queued) {
		/* Its result does not matter: a peer that has our mark hangs
		 * up once it has its own through, and may be quicker than
		 * our acknowledgement. */
		s->mark_done = true;
		maybe_hang_up(s);
		maybe_finish(s);
		return;
	}
	if (ncb->retcode != NB_RC_OK) {
		s->send_rc = ncb->retcode;
		maybe_finish(s);
		return;
	}
	s->st.sent += ncb->length;
	pump(s);
}

static bool submit_send(struct nb_stream *s, uint16_t len)
{
	uint8_t rc;

	s->send.command = NB_SEND;
	s->send.lsn = s->lsn;
	s->send.buffer = s->sbuf;
	s->send.length = len;
	s->send.post = on_sent;
	s->send.ctx = s;
	rc = nb_submit(s->nb, &s->send);
	if (rc == NB_RC_PENDING) {
		s->send_pending = true;
		return true;
	}
	/* Refused at once: a limit, or the session is gone (its end is
	 * still to be posted to our RECEIVE). */
	s->send_rc = rc == NB_RC_BADLSN || rc == NB_RC_OK ? NB_RC_CLOSED : rc;
	return false;
}

/* One SEND at a time from our input; at its end, the mark. */
static void pump(struct nb_stream *s)
{
	long n;

	if (s->send_pending || s->mark_queued || s->send_rc || s->recv_over ||
	    s->hung_up || s->stopped)
		return;
	if (!s->st.input_ended) {
		n = s->io.read(s->ctx, s->sbuf, sizeof(s->sbuf));
		if (n < 0)
			return;	/* nb_stream_input() resumes */
		if (n > 0) {
			if (!submit_send(s, (uint16_t)n) &&
			    s->send_rc != NB_RC_CLOSED)
				hang_up(s);
			return;
		}
		s->st.input_ended = true;
	}
	s->mark_queued = true;
	if (!submit_send(s, 0)) {
		s->mark_done = true;
		if (s->send_rc != NB_RC_CLOSED)
			hang_up(s);
		s->send_rc = 0;	/* the mark's result does not count */
	}
}

static bool submit_recv(struct nb_stream *s)
{
	uint8_t rc;

	s->recv.command = NB_RECEIVE;
	s->recv.lsn = s->lsn;
	s->recv.buffer = s->rbuf;
	s->recv.length = sizeof(s->rbuf);
	rc = nb_submit(s->nb, &s->recv);
	if (rc == NB_RC_PENDING) {
		s->recv_pending = true;
		return true;
	}
	s->recv_rc = rc == NB_RC_BADLSN ? NB_RC_CLOSED : rc;
	return false;
}

static void on_received(struct nb_ncb *ncb)
{
	struct nb_stream *s = ncb->ctx;
	uint8_t rc = ncb->retcode;

	s->recv_pending = false;
	if (s->stopped)
		return;
	if (rc == NB_RC_OK || rc == NB_RC_INCOMPLETE) {
		if (ncb->length == 0 && rc == NB_RC_OK) {
			s->st.peer_ended = true;	/* its mark */
		} else if (!s->output_failed) {
			if (s->io.write(s->ctx, ncb->buffer, ncb->length)) {
				s->st.received += ncb->length;
			} else {
				s->output_failed = true;
				hang_up(s);
			}
		}
		if (!s->recv_over && submit_recv(s)) {
			maybe_hang_up(s);
			return;
		}
		rc = s->recv_rc;
	}
	if (rc == NB_RC_CLOSED && !s->hung_up)
		s->st.closed_by_peer = true;
	s->recv_rc = rc;
	s->recv_over = true;
	maybe_finish(s);
}

struct nb_stream *nb_stream_start(struct netbios *nb, uint8_t lsn,
				  const struct nb_stream_io *io, void *ctx,
				  uint8_t *rc)
{
	struct nb_stream *s = calloc(1, sizeof(*s));

	*rc = NB_RC_NORES;
	if (!s)
		return NULL;
	s->nb = nb;
	s->lsn = lsn;
	s->io = *io;
	s->ctx = ctx;
	s->recv.post = on_received;
	s->recv.ctx = s;
	if (!submit_recv(s)) {
		*rc = s->recv_rc;
		free(s);
		return NULL;
	}
	*rc = NB_RC_OK;
	pump(s);
	return s;
}

void nb_stream_input(struct nb_stream *s)
{
	pump(s);
}

void nb_stream_abort(struct nb_stream *s)
{
	if (s->stopped || s->finished)
		return;
	s->stopped = true;
	nb_session_disconnect(s->nb, s->lsn);
}

void nb_stream_get_status(const struct nb_stream *s,
			  struct nb_stream_status *out)
{
	*out = s->st;
}

const char *nb_stream_strerror(int result)
{
	switch (result) {
	case NB_STREAM_OK:
		return "both ends' data through";
	case NB_STREAM_PEER_EARLY:
		return "the session ended before the peer's end of data (the "
		       "peer was interrupted, or does not mark its end)";
	case NB_STREAM_CUT:
		return "the peer ended the session before all our data was "
		       "through";
	case NB_STREAM_OUTPUT:
		return "our output failed";
	case NB_STREAM_FAILED:
		return "the session failed";
	}
	return "?";
}

void nb_stream_free(struct nb_stream *s)
{
	free(s);
}
