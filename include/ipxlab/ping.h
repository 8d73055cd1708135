/*
 * ping.h - Novell IPX ping (socket 0x9086): codec and responder
 * (docs/diag.md, which names the public sources).
 *
 * Wire format (IPX payload, IPX packet type 4):
 *   off size field
 *     0    4 signature    ASCII "Ping"
 *     4    1 version      1
 *     5    1 type         0 = request, 1 = reply
 *     6    2 ping id      big-endian, echoed
 *     8    1 result       0 in a request, 1 in a reply
 *     9    1 reserved     0
 *    10    . data         any bytes, echoed
 *
 * The responder answers each request to its source with the same id and
 * data, type 1 and result 1.
 */
#ifndef IPXLAB_PING_H
#define IPXLAB_PING_H

#include <stddef.h>
#include <stdint.h>

#include "ipxlab/node.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IPX_PING_HDR_LEN 10
#define IPX_PING_VERSION 1

enum { IPX_PING_REQUEST = 0, IPX_PING_REPLY = 1 };

#define IPX_PING_DROPS(X)                                                   \
	X(SHORT, "short", "under 10 bytes")                                 \
	X(BAD_SIGNATURE, "bad_signature", "does not start with \"Ping\"")   \
	X(BAD_VERSION, "bad_version", "version other than 1")               \
	X(BAD_TYPE, "bad_type", "type neither 0 (request) nor 1 (reply)")   \
	X(NOT_REQUEST, "not_request", "a reply sent to the responder")      \
	X(TX, "tx_error", "an answer the node would not send")

#define IPX_PING_DROP_ENUM_(id, name, desc) IPX_PING_DROP_##id,
enum ipx_ping_drop { IPX_PING_DROPS(IPX_PING_DROP_ENUM_) IPX_PING_DROP_COUNT };
#undef IPX_PING_DROP_ENUM_

const char *ipx_ping_drop_name(enum ipx_ping_drop d);

struct ipx_ping {
	uint8_t type;
	uint16_t id;
	uint8_t result;
	const uint8_t *data;	/* borrowed from the packet */
	size_t len;
};

int ipx_ping_decode(const uint8_t *p, size_t len, struct ipx_ping *out,
		    enum ipx_ping_drop *why);
/* Header for 'type' and 'id' plus len bytes of data; bytes written or 0. */
size_t ipx_ping_encode(uint8_t type, uint16_t id, const uint8_t *data,
		       size_t len, uint8_t *out, size_t cap);

struct ipx_ping_stats {
	uint64_t rx_requests, tx_replies;
	uint64_t drops[IPX_PING_DROP_COUNT];
};

struct ipx_ping_responder;

/* The responder on 0x9086 (IPX_EINUSE if taken). */
int ipx_ping_responder_new(struct ipx_node *node,
			   struct ipx_ping_responder **out);
void ipx_ping_responder_free(struct ipx_ping_responder *r);
const struct ipx_ping_stats *ipx_ping_responder_stats(
	const struct ipx_ping_responder *r);

#ifdef __cplusplus
}
#endif

#endif
