/*
 * link_medium.h - a link profile applied: the one place where frames take
 * time on a wire (docs/links.md, "Link profiles").
 *
 * A medium has stations. A station hands it frames (ipx_medium_send); each
 * waits in the station's queue (bounded by the profile's queue bytes),
 * goes onto the wire when the station gets it, occupies it for its exact
 * wire time (ipx_profile_wire_ns), and arrives the propagation delay after
 * its last bit, when the medium calls the arrive callback with it. Time is
 * kept in nanoseconds, so back-to-back frames never drift by rounding;
 * the loop's microsecond timers fire at or just after each event.
 *
 * Who gets the wire: with access "own" every station has its own wire
 * (a switched port, or one direction of a trunk). On a shared medium one
 * frame is on the wire at a time, and when it ends the next station after
 * the last sender that has a frame waiting takes the wire (round robin:
 * the fair share that CSMA/CD's backoff and the token's rotation give in
 * the long run). CSMA/CD also loses contention_bits of wire time each time
 * two or more stations were waiting; Token-Ring spends token_bits passing
 * the token after every frame.
 *
 * The in-memory segment, the hub (--profile) and the WAN bridge's trunk
 * all use this; nothing else models wire time. Frames are copied; the
 * arrive callback gets borrowed bytes and may send again.
 */
#ifndef IPXLAB_LINK_MEDIUM_H
#define IPXLAB_LINK_MEDIUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ipxlab/link_profile.h"
#include "ipxlab/loop.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IPX_MEDIUM_DROPS(X)                                                \
	X(TOO_BIG, "too_big", "larger than the profile's max-frame")       \
	X(QUEUE_FULL, "queue_full", "the station's queue was full")       \
	X(LOST, "lost", "lost on the wire (the profile's loss)")          \
	X(NOMEM, "no_memory", "no memory to hold the frame")

#define IPX_MEDIUM_DROP_ENUM_(id, name, desc) IPX_MEDIUM_DROP_##id,
enum ipx_medium_drop { IPX_MEDIUM_DROPS(IPX_MEDIUM_DROP_ENUM_)
		       IPX_MEDIUM_DROP_COUNT };
#undef IPX_MEDIUM_DROP_ENUM_

/* Bytes of caller data carried with each frame (addresses, say). */
#define IPX_MEDIUM_TAG 16

struct ipx_medium_stats {
	uint64_t frames, bytes;		/* carried to the end of the wire */
	uint64_t busy_ns;		/* wire time used, contention included */
	uint64_t contended;		/* acquisitions with others waiting */
	uint64_t drops[IPX_MEDIUM_DROP_COUNT];
};

struct ipx_medium;
struct ipx_medium_station;

/* A frame has arrived: 'station' sent it; 'tag' is what it sent with it.
 * Bytes are borrowed for the call. */
typedef void (*ipx_medium_arrive_cb)(struct ipx_medium_station *station,
				     const uint8_t *pkt, size_t len,
				     const uint8_t tag[IPX_MEDIUM_TAG],
				     void *ctx);

/* The profile is copied; 'seed' drives the loss. */
struct ipx_medium *ipx_medium_new(struct ipx_loop *loop,
				  const struct ipx_profile *profile,
				  uint64_t seed, ipx_medium_arrive_cb cb,
				  void *ctx);
/* Frees the stations too; frames in flight vanish. */
void ipx_medium_free(struct ipx_medium *m);
const struct ipx_profile *ipx_medium_profile(const struct ipx_medium *m);

/* A station; 'ctx' is the caller's (ipx_medium_station_ctx). */
struct ipx_medium_station *ipx_medium_station_new(struct ipx_medium *m,
						  void *ctx);
/* Leave: its waiting and arriving frames are discarded. */
void ipx_medium_station_free(struct ipx_medium_station *s);
void *ipx_medium_station_ctx(const struct ipx_medium_station *s);

/*
 * Queue an IPX packet of 'len' bytes (the wire time counts the profile's
 * header, padding and overhead around it). 'tag' may be NULL. Returns
 * IPX_OK, or IPX_ETOOBIG / IPX_EAGAIN (queue full) / IPX_ENOMEM, each
 * counted as a drop.
 */
int ipx_medium_send(struct ipx_medium_station *s, const uint8_t *pkt,
		    size_t len, const uint8_t *tag);

/* The station's adapter (the profile's until set): a frame waits for a
 * free transmit buffer and its copy into it before it can have the wire
 * (link_profile.h, struct ipx_adapter). The frame limit is the caller's
 * (the in-memory link's MTU follows ipx_adapter_mtu). */
void ipx_medium_station_set_adapter(struct ipx_medium_station *s,
				    const struct ipx_adapter *a);
const struct ipx_adapter *ipx_medium_station_adapter(
	const struct ipx_medium_station *s);

/* Bytes and frames waiting in a station's queue (not yet on the wire). */
size_t ipx_medium_station_queued(const struct ipx_medium_station *s);

struct ipx_medium_station_stats {
	uint64_t frames, bytes;		/* put on the wire */
	uint64_t busy_ns;		/* wire time they took */
	uint64_t drops;			/* refused by ipx_medium_send */
};
const struct ipx_medium_station_stats *ipx_medium_station_stats(
	const struct ipx_medium_station *s);

const struct ipx_medium_stats *ipx_medium_stats(const struct ipx_medium *m);
const char *ipx_medium_drop_name(enum ipx_medium_drop d);
/* The medium's counters, one "PREFIXname value" per line. */
void ipx_medium_print_stats(const struct ipx_medium *m, const char *prefix,
			    FILE *out);

#ifdef __cplusplus
}
#endif

#endif
