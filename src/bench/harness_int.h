/*
 * harness_int.h - what the harness's files share inside src/bench: one
 * control connection (an SPX session carrying framed harness messages,
 * with an input buffer that reassembles frames and an output buffer for
 * what SPX cannot take yet).
 */
#ifndef IPXLAB_HARNESS_INT_H
#define IPXLAB_HARNESS_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bench_util.h"
#include "ipxlab/bench_harness.h"
#include "ipxlab/spx.h"

#define HCONN_FRAME_MAX (IPX_HMSG_HDR_LEN + IPX_HMSG_MAX_BODY)

struct hconn {
	struct spx_conn *spx;	/* NULL once closed */
	uint8_t *in;		/* HCONN_FRAME_MAX bytes */
	size_t in_len;
	uint8_t *out;		/* bytes waiting for SPX send space */
	size_t out_len, out_cap;
	bool bad;		/* the peer sent a bad frame: err says what */
	char err[256];
};

int hconn_init(struct hconn *h, struct spx_conn *spx);
/* Frees the buffers; aborts the SPX session if still open. */
void hconn_free(struct hconn *h);
/* Queue one message and push what SPX takes. */
int hconn_send(struct hconn *h, const struct ipx_hmsg *m);
/* Push queued bytes (call from on_sendable). */
void hconn_push(struct hconn *h);
/* Bytes that arrived; false (with h->bad and h->err) when the frame
 * being built cannot be a good one. */
bool hconn_feed(struct hconn *h, const uint8_t *data, size_t len);
/* The next whole message: IPX_OK, IPX_EAGAIN (none yet) or IPX_EINVAL
 * (h->err says why; the connection should be dropped). */
int hconn_next(struct hconn *h, struct ipx_hmsg *m);

/* Error messages into a caller's buffer (bench_util.h). */
#define hset_err ipx_bench_set_err

#endif
