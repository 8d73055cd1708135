/*
 * harness_conn.c - one harness control connection (harness_int.h): frames
 * written to an SPX session and reassembled from it, whatever the SPX
 * packet boundaries.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness_int.h"
#include "ipxlab/err.h"

int hconn_init(struct hconn *h, struct spx_conn *spx)
{
	memset(h, 0, sizeof(*h));
	h->in = malloc(HCONN_FRAME_MAX);
	if (!h->in)
		return IPX_ENOMEM;
	h->spx = spx;
	return IPX_OK;
}

void hconn_free(struct hconn *h)
{
	if (h->spx)
		spx_abort(h->spx);
	free(h->in);
	free(h->out);
	memset(h, 0, sizeof(*h));
}

void hconn_push(struct hconn *h)
{
	size_t n;

	if (!h->spx || !h->out_len)
		return;
	n = spx_send_space(h->spx);
	if (n > h->out_len)
		n = h->out_len;
	if (!n || spx_send(h->spx, h->out, n, SPX_EOM, 0) != IPX_OK)
		return;
	memmove(h->out, h->out + n, h->out_len - n);
	h->out_len -= n;
}

int hconn_send(struct hconn *h, const struct ipx_hmsg *m)
{
	size_t n;

	if (!h->spx)
		return IPX_ENOTCONN;
	if (h->out_cap - h->out_len < HCONN_FRAME_MAX) {
		size_t cap = h->out_len + HCONN_FRAME_MAX;
		uint8_t *p = realloc(h->out, cap);

		if (!p)
			return IPX_ENOMEM;
		h->out = p;
		h->out_cap = cap;
	}
	n = ipx_hmsg_encode(m, h->out + h->out_len, HCONN_FRAME_MAX);
	if (!n)
		return IPX_EINVAL;
	h->out_len += n;
	hconn_push(h);
	return IPX_OK;
}

bool hconn_feed(struct hconn *h, const uint8_t *data, size_t len)
{
	if (h->bad)
		return false;
	if (len > HCONN_FRAME_MAX - h->in_len) {
		/* The frame in the buffer is not whole yet and the buffer
		 * holds the largest frame: the peer overran it. */
		h->bad = true;
		snprintf(h->err, sizeof(h->err),
			 "a message longer than %d bytes", HCONN_FRAME_MAX);
		return false;
	}
	memcpy(h->in + h->in_len, data, len);
	h->in_len += len;
	return true;
}

int hconn_next(struct hconn *h, struct ipx_hmsg *m)
{
	size_t used = 0;
	int rc;

	if (h->bad)
		return IPX_EINVAL;
	rc = ipx_hmsg_decode(h->in, h->in_len, m, &used, h->err,
			     sizeof(h->err));
	if (rc == IPX_EAGAIN)
		return rc;
	if (rc != IPX_OK) {
		h->bad = true;
		return IPX_EINVAL;
	}
	memmove(h->in, h->in + used, h->in_len - used);
	h->in_len -= used;
	return IPX_OK;
}
