/*
 * link_eth.h - IPX on a real Ethernet interface, in any of the four
 * Novell frame types (ipxlab/frame.h), chosen or learnt from the LAN.
 *
 * The node address is the interface's MAC. With IPX_FRAME_AUTO the link
 * listens until the first IPX frame from another station and uses its
 * frame type from then on (logging what it chose); until then it sends
 * Ethernet_II. Frames of another type seen later are counted
 * (wrong_frame_type) and logged once per type with the setting to use.
 * Needs root or CAP_NET_RAW: without it, open fails with IPX_EPERM and
 * a message that says so.
 */
#ifndef IPXLAB_LINK_ETH_H
#define IPXLAB_LINK_ETH_H

#include <stdbool.h>
#include <stdint.h>

#include "ipxlab/frame.h"
#include "ipxlab/link.h"
#include "ipxlab/loop.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ipx_eth_options {
	enum ipx_frame_type frame;	/* IPX_FRAME_AUTO (0) to learn it */
	uint32_t net;			/* network number; 0 = learn / unknown */
	/* Receive every IPX frame, not only those for our MAC or broadcast
	 * (a bridging hub needs the frames for its tunnel clients' nodes). */
	bool promiscuous;
};

int ipx_eth_link_open(struct ipx_loop *loop, const char *ifname,
		      const struct ipx_eth_options *opts,
		      struct ipx_link **out, char *err, size_t errlen);
/* The frame type in use: the configured one, the one learnt, or
 * IPX_FRAME_AUTO while still learning. */
enum ipx_frame_type ipx_eth_link_frame(const struct ipx_link *link);
/* The interface's index (if_nametoindex), for a program that sends its
 * own frames beside the link's (the Ethernet baseline of B1). */
int ipx_eth_link_ifindex(const struct ipx_link *link);
/* Frames dropped per reason since open. */
uint64_t ipx_eth_link_drops(const struct ipx_link *link,
			    enum ipx_frame_drop d);

#ifdef __cplusplus
}
#endif

#endif
