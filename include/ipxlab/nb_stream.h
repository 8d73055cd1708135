/*
 * nb_stream.h - a byte stream each way over one NetBIOS session, as
 * `ipxlab netbios listen` and `call` carry standard input and output.
 *
 * NetBIOS has no half-close: a HANG UP ends both directions, and a
 * RECEIVE learns only that the session ended, not whether the peer had
 * finished. So each side marks the end of its data with a zero-length
 * message (NetBIOS messages are 0 to 65,535 bytes; the stream never sends
 * an empty message otherwise), goes on receiving, and hangs up only when
 * its own mark is acknowledged and the peer's has arrived: every byte
 * each way is through, whichever side's input ends first
 * (docs/netbios.md, "Byte streams over a session").
 */
#ifndef IPXLAB_NB_STREAM_H
#define IPXLAB_NB_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ipxlab/netbios.h"

#ifdef __cplusplus
extern "C" {
#endif

struct nb_stream_io {
	/* Our input, up to 'n' bytes into 'buf': the count (> 0), 0 at its
	 * end, -1 when there is none yet (then call nb_stream_input() when
	 * there may be). Called only while no SEND is pending. */
	long (*read)(void *ctx, uint8_t *buf, size_t n);
	/* The peer's data; false when it cannot be kept (the stream then
	 * hangs up and ends with NB_STREAM_OUTPUT). */
	bool (*write)(void *ctx, const uint8_t *buf, size_t n);
	/* The end, exactly once, from the loop (never after
	 * nb_stream_abort()). */
	void (*done)(void *ctx, int result);
};

enum nb_stream_result {
	NB_STREAM_OK = 0,	/* both ends' data through, session ended */
	NB_STREAM_PEER_EARLY,	/* ended before the peer's end of data: it
				 * was interrupted (or does not mark it) */
	NB_STREAM_CUT,		/* ended before all our input was through */
	NB_STREAM_OUTPUT,	/* io.write failed: we hung up */
	NB_STREAM_FAILED,	/* a return code ended it (status.retcode) */
};

struct nb_stream_status {
	uint64_t sent;		/* our bytes the peer's NetBIOS took */
	uint64_t received;	/* the peer's bytes handed to io.write */
	bool input_ended;	/* io.read said 0 */
	bool peer_ended;	/* the peer's end-of-data mark arrived */
	bool closed_by_peer;	/* its session end came before our HANG UP */
	uint8_t retcode;	/* NB_STREAM_FAILED: the code; else the HANG
				 * UP's (0, or 0x05 unacknowledged) */
};

struct nb_stream;

/* Carry 'io' over session 'lsn' of 'nb' (its RECEIVE goes in at once).
 * NULL when out of memory or a command is refused (*rc says which). */
struct nb_stream *nb_stream_start(struct netbios *nb, uint8_t lsn,
				  const struct nb_stream_io *io, void *ctx,
				  uint8_t *rc);
/* Input may be there now (after io.read said -1). */
void nb_stream_input(struct nb_stream *s);
/* Interrupted: the session ends at once (nb_session_disconnect: the peer
 * learns within a round trip); done() is not called. */
void nb_stream_abort(struct nb_stream *s);
void nb_stream_get_status(const struct nb_stream *s,
			  struct nb_stream_status *out);
const char *nb_stream_strerror(int result);
/* After done(), or after nb_close() (which lets pending commands go
 * without their POST: after nb_stream_abort() they are still to come). */
void nb_stream_free(struct nb_stream *s);

#ifdef __cplusplus
}
#endif

#endif
