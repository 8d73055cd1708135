/*
 * portmsg.c - the bridge-port message of the tunnel (hub.h, docs/hub.md
 * "Bridge ports"): how a client asks to be a bridge port and how the hub
 * answers. Both ends encode and parse it here.
 */
#include "ipxlab/hub.h"

#include <string.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/ipx.h"

#define MAGIC "ipxlabBP"
#define MAGIC_LEN 8
#define VERSION 1

/* ipxbox's choice: a DOSBox client's answer comes back addressed to it,
 * and no real client can have it. */
const uint8_t ipx_hub_keepalive_node[IPX_NODE_LEN] = { 0x02, 0xFF, 0xFF,
						       0xFF, 0x00, 0x00 };

size_t ipx_hub_port_msg(uint8_t out[IPX_HUB_PORT_MSG_LEN],
			const uint8_t dst[6], const uint8_t src[6],
			enum ipx_hub_port_op op)
{
	struct ipx_header h = { .checksum = IPX_NO_CHECKSUM,
				.length = IPX_HUB_PORT_MSG_LEN };
	uint8_t *d = out + IPX_HDR_LEN;

	memcpy(h.dst.node, dst, IPX_NODE_LEN);
	h.dst.socket = IPX_SOCK_ECHO;
	memcpy(h.src.node, src, IPX_NODE_LEN);
	h.src.socket = IPX_SOCK_ECHO;
	ipx_header_encode(&h, out);
	memcpy(d, MAGIC, MAGIC_LEN);
	d[MAGIC_LEN] = VERSION;
	d[MAGIC_LEN + 1] = (uint8_t)op;
	ipx_put16(d + MAGIC_LEN + 2, 0);
	return IPX_HUB_PORT_MSG_LEN;
}

int ipx_hub_port_msg_parse(const uint8_t *pkt, size_t len)
{
	struct ipx_header h;
	const uint8_t *d = pkt + IPX_HDR_LEN;
	bool to_hub, from_hub;
	uint8_t op;

	if (len < IPX_HUB_PORT_MSG_LEN ||
	    ipx_header_decode(pkt, len, &h) != IPX_OK ||
	    h.length != IPX_HUB_PORT_MSG_LEN || h.dst.socket != IPX_SOCK_ECHO ||
	    h.src.socket != IPX_SOCK_ECHO || memcmp(d, MAGIC, MAGIC_LEN) ||
	    d[MAGIC_LEN] != VERSION)
		return 0;
	op = d[MAGIC_LEN + 1];
	to_hub = ipx_node_eq(h.dst.node, ipx_hub_keepalive_node);
	from_hub = ipx_node_eq(h.src.node, ipx_hub_keepalive_node);
	if (op == IPX_HUB_MSG_ANNOUNCE && to_hub)
		return op;
	if ((op == IPX_HUB_MSG_ACCEPTED || op == IPX_HUB_MSG_REFUSED) &&
	    from_hub)
		return op;
	return 0;
}
