/*
 * wan.h - the bridged WAN of 1990 ("ipxlab bridge"): two segments joined
 * by a pair of bridge modules over a trunk (docs/links.md, "The WAN
 * bridge").
 *
 * Each module is a learning bridge at layer 2: it learns which side each
 * source node is on and sends across only broadcasts and unicasts whose
 * destination is not known to be on the side they came from. A frame to
 * cross waits in the module's receive buffer (the profile's rx_buffer
 * bytes); the module holds frames until the next one would take them
 * past the release block (the profile's release bytes, 0: the whole
 * receive buffer; a release by fill, the new frame starting the next
 * block) or until the hold timer, started by the first frame held, runs
 * out (a release by timer), then releases them all together
 * into its transmit buffer (tx_buffer bytes), which the trunk drains at
 * the profile's rate (one link_medium.h station per direction). What the
 * transmit buffer cannot take is dropped and counted; so is every IPX
 * packet longer than the profile's bridge_max (576 for isn), as a
 * NetWare-style bridge does. The trunk's own losses (the profile's loss)
 * are counted by its medium (trunk_drop_lost in the printed counters).
 *
 * The segments are the caller's: it hands in every frame a side sees
 * (ipx_wan_input) and the out callback puts frames onto a side. Sides
 * are 0 and 1 ("A" and "B").
 */
#ifndef IPXLAB_WAN_H
#define IPXLAB_WAN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ipxlab/link_profile.h"
#include "ipxlab/loop.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IPX_WAN_DROPS(X)                                                    \
	X(BAD_IPX, "bad_ipx", "shorter than an IPX header or a bad length") \
	X(TOO_BIG, "too_big_for_bridge",                                     \
	  "longer than the bridge carries (bridge-max, or the trunk's max-frame)") \
	X(TX_FULL, "tx_buffer_full", "released into a full transmit buffer")

#define IPX_WAN_DROP_ENUM_(id, name, desc) IPX_WAN_DROP_##id,
enum ipx_wan_drop { IPX_WAN_DROPS(IPX_WAN_DROP_ENUM_) IPX_WAN_DROP_COUNT };
#undef IPX_WAN_DROP_ENUM_

/* One module: what it took from its side and sent across. */
struct ipx_wan_module_stats {
	uint64_t seen;			/* frames from its side */
	uint64_t filtered;		/* for a node on the same side: kept */
	uint64_t held, held_bytes;	/* frames taken into the rx buffer */
	uint64_t fill_releases, fill_frames;	/* released by fill */
	uint64_t timer_releases, timer_frames;	/* released by the timer */
	uint64_t crossed, crossed_bytes;	/* delivered on the far side */
	uint64_t trunk_busy_ns;		/* this direction's trunk time */
	uint64_t drops[IPX_WAN_DROP_COUNT];
};

struct ipx_wan;

/* Put a frame onto side 'side' (bytes borrowed for the call). */
typedef void (*ipx_wan_out_cb)(unsigned side, const uint8_t *pkt, size_t len,
			       void *ctx);

/* The profile gives the trunk and the buffers (ipx_profile_check it
 * first); IPX_EINVAL if it has no rx_buffer or tx_buffer. */
int ipx_wan_new(struct ipx_loop *loop, const struct ipx_profile *profile,
		uint64_t seed, ipx_wan_out_cb out, void *ctx,
		struct ipx_wan **out_wan);
void ipx_wan_free(struct ipx_wan *w);
/* A frame (an IPX packet) seen on side 'side'. */
void ipx_wan_input(struct ipx_wan *w, unsigned side, const uint8_t *pkt,
		   size_t len);
/* Bytes a module holds in its receive buffer now. */
size_t ipx_wan_held(const struct ipx_wan *w, unsigned side);
const struct ipx_wan_module_stats *ipx_wan_stats(const struct ipx_wan *w,
						 unsigned side);
const char *ipx_wan_drop_name(enum ipx_wan_drop d);
/* Both modules' counters and trunk utilisation, "name value" lines. */
void ipx_wan_print_stats(const struct ipx_wan *w, FILE *out);

#ifdef __cplusplus
}
#endif

#endif
