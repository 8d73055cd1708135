/*
 * pcap.h - write IPX packets to a pcap file that Wireshark opens.
 *
 * Every packet gets an Ethernet II header (EtherType 0x8137) built from
 * the IPX nodes it is carried between, so tunnel and in-memory traffic
 * decode as IPX directly; whole Ethernet frames (an Ethernet link's, in
 * any frame type) are written as they are. Classic pcap format,
 * microsecond timestamps from the caller.
 */
#ifndef IPXLAB_PCAP_H
#define IPXLAB_PCAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ipxlab/clock.h"
#include "ipxlab/ipx.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ipx_pcap;

/* Create (truncate) the file; err gets a message on failure. */
int ipx_pcap_open(const char *path, struct ipx_pcap **out, char *err,
		  size_t errlen);
/* The same, keeping at most 'snaplen' bytes of each frame (its original
 * length recorded, as tcpdump -s does); 0: whole frames. */
int ipx_pcap_open_snap(const char *path, size_t snaplen,
		       struct ipx_pcap **out, char *err, size_t errlen);
/* Append one IPX packet sent from src to dst (6-byte node addresses). */
int ipx_pcap_write(struct ipx_pcap *pc, ipx_time when,
		   const uint8_t dst[IPX_NODE_LEN],
		   const uint8_t src[IPX_NODE_LEN], const uint8_t *pkt,
		   size_t len);
/* Append one whole Ethernet frame (MAC header onward) as it was on the
 * wire. */
int ipx_pcap_write_frame(struct ipx_pcap *pc, ipx_time when,
			 const uint8_t *frame, size_t len);
/* Before the first record: write Linux cooked (SLL, link type 113)
 * records instead, each marked as received or sent by the capturing
 * node (a hub recording both ways: analyze.h counts each packet once).
 * IPX_EINVAL once a record is written. */
int ipx_pcap_cooked(struct ipx_pcap *pc);
bool ipx_pcap_is_cooked(const struct ipx_pcap *pc);
/* One cooked record: direction, the sender's address, the protocol
 * (0x8137 for an IPX packet; an Ethernet frame's type, 0x0001 raw 802.3
 * or 0x0004 802.2) and what follows the MAC header. */
int ipx_pcap_write_sll(struct ipx_pcap *pc, ipx_time when, bool outgoing,
		       const uint8_t src[IPX_NODE_LEN], uint16_t proto,
		       const uint8_t *data, size_t len);
/* Push what is buffered to the file (records are never half written). */
int ipx_pcap_flush(struct ipx_pcap *pc);
/* Flush and close. */
int ipx_pcap_close(struct ipx_pcap *pc);

#ifdef __cplusplus
}
#endif

#endif
