/*
 * ping.c - Novell IPX ping: codec and the responder every node runs on
 * 0x9086 (see ping.h, docs/diag.md).
 */
#include "ipxlab/ping.h"

#include <stdlib.h>
#include <string.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/priv/drops.h"

struct ipx_ping_responder {
	struct ipx_socket *sock;
	struct ipx_ping_stats stats;
};

IPX_DROP_NAMES(IPX_PING_DROPS, enum ipx_ping_drop, IPX_PING_DROP_COUNT,
	       ipx_ping_drop_name)

int ipx_ping_decode(const uint8_t *p, size_t len, struct ipx_ping *out,
		    enum ipx_ping_drop *why)
{
	enum ipx_ping_drop d;

	if (len < IPX_PING_HDR_LEN)
		d = IPX_PING_DROP_SHORT;
	else if (memcmp(p, "Ping", 4) != 0)
		d = IPX_PING_DROP_BAD_SIGNATURE;
	else if (p[4] != IPX_PING_VERSION)
		d = IPX_PING_DROP_BAD_VERSION;
	else if (p[5] != IPX_PING_REQUEST && p[5] != IPX_PING_REPLY)
		d = IPX_PING_DROP_BAD_TYPE;
	else {
		out->type = p[5];
		out->id = ipx_get16(p + 6);
		out->result = p[8];
		out->data = p + IPX_PING_HDR_LEN;
		out->len = len - IPX_PING_HDR_LEN;
		return IPX_OK;
	}
	if (why)
		*why = d;
	return IPX_EINVAL;
}

size_t ipx_ping_encode(uint8_t type, uint16_t id, const uint8_t *data,
		       size_t len, uint8_t *out, size_t cap)
{
	if (cap < IPX_PING_HDR_LEN || len > cap - IPX_PING_HDR_LEN)
		return 0;
	memcpy(out, "Ping", 4);
	out[4] = IPX_PING_VERSION;
	out[5] = type;
	ipx_put16(out + 6, id);
	out[8] = type == IPX_PING_REPLY ? 1 : 0;
	out[9] = 0;
	if (len)
		memmove(out + IPX_PING_HDR_LEN, data, len);
	return IPX_PING_HDR_LEN + len;
}

static void on_ping(struct ipx_socket *sock, const struct ipx_header *hdr,
		    const uint8_t *data, size_t len, void *ctx)
{
	struct ipx_ping_responder *r = ctx;
	uint8_t out[IPX_MAX_PACKET];
	struct ipx_ping ping;
	enum ipx_ping_drop why;
	size_t n;

	if (ipx_ping_decode(data, len, &ping, &why) != IPX_OK) {
		r->stats.drops[why]++;
		return;
	}
	if (ping.type != IPX_PING_REQUEST) {
		r->stats.drops[IPX_PING_DROP_NOT_REQUEST]++;
		return;
	}
	r->stats.rx_requests++;
	n = ipx_ping_encode(IPX_PING_REPLY, ping.id, ping.data, ping.len, out,
			    sizeof(out));
	if (n && ipx_socket_reply(sock, hdr, IPX_TYPE_PEP, out, n) == IPX_OK)
		r->stats.tx_replies++;
	else
		r->stats.drops[IPX_PING_DROP_TX]++;
}

int ipx_ping_responder_new(struct ipx_node *node,
			   struct ipx_ping_responder **out)
{
	struct ipx_ping_responder *r = calloc(1, sizeof(*r));
	int rc;

	if (!r)
		return IPX_ENOMEM;
	rc = ipx_socket_open(node, IPX_SOCK_PING, on_ping, r, &r->sock);
	if (rc != IPX_OK) {
		free(r);
		return rc;
	}
	*out = r;
	return IPX_OK;
}

void ipx_ping_responder_free(struct ipx_ping_responder *r)
{
	if (!r)
		return;
	ipx_socket_close(r->sock);
	free(r);
}

const struct ipx_ping_stats *ipx_ping_responder_stats(
	const struct ipx_ping_responder *r)
{
	return &r->stats;
}
