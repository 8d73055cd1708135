/*
 * link_mem.h - the in-memory link: any number of nodes in one process on
 * one segment, with seeded loss, duplication, reordering and delay.
 *
 * Every protocol above IPX is tested on it, usually with a simulated clock:
 * the same seed gives the same faults in the same order on every run.
 * Delivery always goes through the loop (never inside send()), so a send
 * from a receive callback cannot recurse.
 */
#ifndef IPXLAB_LINK_MEM_H
#define IPXLAB_LINK_MEM_H

#include <stdint.h>

#include "ipxlab/clock.h"
#include "ipxlab/link.h"
#include "ipxlab/link_profile.h"
#include "ipxlab/loop.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fault rates are in parts per million of packets delivered to a node. */
struct ipx_mem_faults {
	uint32_t loss_ppm;
	uint32_t dup_ppm;
	uint32_t reorder_ppm;	/* held back by reorder_delay extra */
	ipx_time delay;		/* every packet */
	ipx_time jitter;	/* plus a uniform 0..jitter */
	ipx_time reorder_delay;
};

struct ipx_mem_stats {
	uint64_t sent;		/* packets handed to the segment */
	uint64_t delivered;	/* copies handed to receiving links */
	uint64_t lost, duplicated, reordered;
	uint64_t no_such_node;	/* unicast to a node not on the segment */
	uint64_t rx_no_buffer;	/* the receiving adapter's buffers were full */
};

struct ipx_mem_segment;

struct ipx_mem_segment *ipx_mem_segment_new(struct ipx_loop *loop,
					    uint32_t net, uint64_t seed);
/* Free the segment; its links must be closed first. */
void ipx_mem_segment_free(struct ipx_mem_segment *seg);
void ipx_mem_segment_set_faults(struct ipx_mem_segment *seg,
				const struct ipx_mem_faults *faults);
void ipx_mem_segment_set_mtu(struct ipx_mem_segment *seg, size_t mtu);
/*
 * Give the segment a link profile (NULL: none, the default): every link
 * becomes a station of one medium (link_medium.h) with the profile's rate,
 * sharing, frame limit (the MTU follows it, at most IPX_MAX_PACKET: 4,461,
 * so tr4 and tr16 carry frames over 1,500 bytes), delay
 * and loss; the faults above then apply to each copy after it arrives.
 * Frames waiting or in flight on an earlier profile are discarded.
 */
int ipx_mem_segment_set_profile(struct ipx_mem_segment *seg,
				const struct ipx_profile *profile);
/* The profile's medium (its counters), or NULL without one. */
struct ipx_medium;
const struct ipx_medium *ipx_mem_segment_medium(
	const struct ipx_mem_segment *seg);
/* Called with every packet put on the segment, before faults apply (for
 * captures). The bytes are borrowed. */
typedef void (*ipx_mem_tap_cb)(const uint8_t *pkt, size_t len,
			       const uint8_t from[IPX_NODE_LEN],
			       const uint8_t to[IPX_NODE_LEN], void *ctx);
void ipx_mem_segment_set_tap(struct ipx_mem_segment *seg, ipx_mem_tap_cb cb,
			     void *ctx);
const struct ipx_mem_stats *ipx_mem_segment_stats(
	const struct ipx_mem_segment *seg);

/*
 * A new link on the segment, up at once. node NULL assigns the next of
 * 02:00:00:00:00:01, 02:...:02, ... Returns NULL if out of memory or the
 * node is taken.
 */
struct ipx_link *ipx_mem_link_new(struct ipx_mem_segment *seg,
				  const uint8_t node[IPX_NODE_LEN]);

/*
 * Give one link its own adapter (link_profile.h, struct ipx_adapter; the
 * segment's profile gives every link the profile's): its MTU becomes the
 * largest IPX packet its transmit buffers hold, its frames wait for a
 * buffer and the copy into it, and frames for it take their copy out of
 * its receive buffers (dropped as rx_no_buffer when too few are free).
 * Needs a profile on the segment; the configuration must fit the memory
 * (ipx_adapter_check: err has the arithmetic). IPX_OK, IPX_EINVAL or
 * IPX_ECONFIG.
 */
int ipx_mem_link_set_adapter(struct ipx_link *link,
			     const struct ipx_adapter *a, char *err,
			     size_t errlen);

/* One link's view of its adapter: the largest IPX packet it sent and the
 * frames for it dropped for want of receive buffers; reset: start both
 * afresh. */
struct ipx_mem_adapter_stats {
	size_t tx_max;
	uint64_t rx_no_buffer;
};
void ipx_mem_link_adapter_stats(struct ipx_link *link,
				struct ipx_mem_adapter_stats *out, bool reset);

/* Also receive the unicasts for other nodes, as a promiscuous Ethernet
 * link does (the bridging hub's tests). */
void ipx_mem_link_set_promiscuous(struct ipx_link *link, bool on);

#ifdef __cplusplus
}
#endif

#endif
