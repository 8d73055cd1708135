/*
 * hub_capture.h - record what a hub receives and sends (--pcap): the
 * hub's two taps feeding a capture (ipxlab/capture.h).
 *
 * Each tunnel hop is shown between the client's node (its IPv4 address
 * and UDP port, as the hub addresses it) and the IPX header's node on
 * the other side, so a hub capture reads like one taken on a LAN.
 */
#ifndef IPXLAB_HUB_CAPTURE_H
#define IPXLAB_HUB_CAPTURE_H

#include "ipxlab/capture.h"
#include "ipxlab/hub.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Set both taps of 'opts' (before ipx_hub_open) to record into 'cap'. */
void ipx_hub_capture(struct ipx_hub_options *opts, struct ipx_capture *cap);
/* Only the receive tap: every packet once, when the hub receives it, as
 * an analyzer on a LAN sees each frame once (a broadcast once, not once
 * per client it is forwarded to): what the analyzer's figures need. */
void ipx_hub_capture_received(struct ipx_hub_options *opts,
			      struct ipx_capture *cap);

#ifdef __cplusplus
}
#endif

#endif
