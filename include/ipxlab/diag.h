/*
 * diag.h - the IPX diagnostics responder (socket 0x456): codec and
 * responder (docs/diag.md, which names the public sources).
 *
 * Configuration request (IPX payload):
 *   off   size field
 *     0      1 N               nodes that must not answer
 *     1+6i   6 node            ... N of them
 *
 * Response, to the requester, with the request's packet type:
 *   off size field
 *     0    1 major version     1
 *     1    1 minor version     0 for a router/server, 1 for an end node
 *     2    2 SPX diagnostic socket (0: none)
 *     4    1 number of components
 *     5    . components: ids 0-4 are one byte each; ids 5-7 are extended:
 *              id (1), number of networks (1), then per network
 *              type (1: 0 LAN board, 1 virtual board, 2 remote line),
 *              network (4), node (6)
 *
 * Component ids: 0 IPX/SPX, 1 bridge (router) driver, 2 shell/LAN driver,
 * 3 shell, 4 VAP shell, 5 external bridge, 6 file server / internal
 * bridge, 7 non-dedicated IPX/SPX.
 */
#ifndef IPXLAB_DIAG_H
#define IPXLAB_DIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ipxlab/ipx.h"
#include "ipxlab/node.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IPX_DIAG_MAX_COMPONENTS 8
#define IPX_DIAG_MAX_NETS 9	/* internal network + 8 links */
#define IPX_DIAG_MAX_EXCLUDED 80	/* what one request may list */
#define IPX_DIAG_NET_LEN 11

enum {
	IPX_DIAG_IPXSPX = 0,
	IPX_DIAG_BRIDGE_DRIVER = 1,
	IPX_DIAG_SHELL_DRIVER = 2,
	IPX_DIAG_SHELL = 3,
	IPX_DIAG_VAP_SHELL = 4,
	IPX_DIAG_EXTERNAL_BRIDGE = 5,
	IPX_DIAG_INTERNAL_BRIDGE = 6,
	IPX_DIAG_NONDEDICATED = 7,
};

enum { IPX_DIAG_LAN = 0, IPX_DIAG_VIRTUAL = 1, IPX_DIAG_REMOTE = 2 };

#define IPX_DIAG_DROPS(X)                                                   \
	X(SHORT, "short", "a request without its count, a response under 5 bytes") \
	X(BAD_COUNT, "bad_count", "the exclusion list runs past the packet or is over 80") \
	X(BAD_COMPONENT, "bad_component", "an unknown or cut-off component")  \
	X(EXCLUDED, "excluded", "a request that lists this node: no answer") \
	X(TX, "tx_error", "an answer the node would not send")

#define IPX_DIAG_DROP_ENUM_(id, name, desc) IPX_DIAG_DROP_##id,
enum ipx_diag_drop { IPX_DIAG_DROPS(IPX_DIAG_DROP_ENUM_) IPX_DIAG_DROP_COUNT };
#undef IPX_DIAG_DROP_ENUM_

const char *ipx_diag_drop_name(enum ipx_diag_drop d);
const char *ipx_diag_component_name(uint8_t id);

struct ipx_diag_net {
	uint8_t type;
	uint32_t net;
	uint8_t node[IPX_NODE_LEN];
};

struct ipx_diag_component {
	uint8_t id;
	uint8_t nnets;		/* extended components only */
	struct ipx_diag_net nets[IPX_DIAG_MAX_NETS];
};

struct ipx_diag_response {
	uint8_t major, minor;
	uint16_t spx_socket;
	uint8_t count;
	struct ipx_diag_component comps[IPX_DIAG_MAX_COMPONENTS];
};

/* Encode a request that excludes n nodes; bytes written or 0. */
size_t ipx_diag_encode_request(const uint8_t (*nodes)[IPX_NODE_LEN], size_t n,
			       uint8_t *out, size_t cap);
/* Validate a request; *excluded tells whether 'node' is in its list.
 * IPX_OK, or IPX_EINVAL with *why set. */
int ipx_diag_check_request(const uint8_t *p, size_t len,
			   const uint8_t node[IPX_NODE_LEN], bool *excluded,
			   enum ipx_diag_drop *why);
size_t ipx_diag_encode_response(const struct ipx_diag_response *r,
				uint8_t *out, size_t cap);
int ipx_diag_decode_response(const uint8_t *p, size_t len,
			     struct ipx_diag_response *out,
			     enum ipx_diag_drop *why);
/* What this node says about itself. */
void ipx_diag_describe(const struct ipx_node *node,
		       struct ipx_diag_response *out);

struct ipx_diag_stats {
	uint64_t rx_requests, tx_responses;
	uint64_t drops[IPX_DIAG_DROP_COUNT];
};

struct ipx_diag;

/* The responder on 0x456 (IPX_EINUSE if taken). */
int ipx_diag_new(struct ipx_node *node, struct ipx_diag **out);
void ipx_diag_free(struct ipx_diag *diag);
const struct ipx_diag_stats *ipx_diag_stats(const struct ipx_diag *diag);

#ifdef __cplusplus
}
#endif

#endif
