/*
 * diag.c - IPX diagnostics: the configuration request and response codec
 * and the responder every node runs on 0x456 (see diag.h, docs/diag.md).
 */
#include "ipxlab/diag.h"

#include <stdlib.h>
#include <string.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/priv/drops.h"

struct ipx_diag {
	struct ipx_node *node;
	struct ipx_socket *sock;
	struct ipx_diag_stats stats;
};

IPX_DROP_NAMES(IPX_DIAG_DROPS, enum ipx_diag_drop, IPX_DIAG_DROP_COUNT,
	       ipx_diag_drop_name)

const char *ipx_diag_component_name(uint8_t id)
{
	static const char *const names[] = {
		"IPX/SPX",	   "bridge driver",   "LAN driver",
		"shell",	   "VAP shell",	      "external bridge",
		"internal bridge", "non-dedicated IPX/SPX",
	};

	return id < sizeof(names) / sizeof(names[0]) ? names[id] : "?";
}

static bool extended(uint8_t id)
{
	return id >= IPX_DIAG_EXTERNAL_BRIDGE && id <= IPX_DIAG_NONDEDICATED;
}

size_t ipx_diag_encode_request(const uint8_t (*nodes)[IPX_NODE_LEN], size_t n,
			       uint8_t *out, size_t cap)
{
	if (n > IPX_DIAG_MAX_EXCLUDED || cap < 1 + n * IPX_NODE_LEN)
		return 0;
	out[0] = (uint8_t)n;
	for (size_t i = 0; i < n; i++)
		memcpy(out + 1 + i * IPX_NODE_LEN, nodes[i], IPX_NODE_LEN);
	return 1 + n * IPX_NODE_LEN;
}

int ipx_diag_check_request(const uint8_t *p, size_t len,
			   const uint8_t node[IPX_NODE_LEN], bool *excluded,
			   enum ipx_diag_drop *why)
{
	enum ipx_diag_drop d;

	if (len < 1) {
		d = IPX_DIAG_DROP_SHORT;
	} else if (p[0] > IPX_DIAG_MAX_EXCLUDED ||
		   1 + (size_t)p[0] * IPX_NODE_LEN > len) {
		d = IPX_DIAG_DROP_BAD_COUNT;
	} else {
		*excluded = false;
		for (size_t i = 0; i < p[0]; i++)
			if (ipx_node_eq(p + 1 + i * IPX_NODE_LEN, node))
				*excluded = true;
		return IPX_OK;
	}
	if (why)
		*why = d;
	return IPX_EINVAL;
}

size_t ipx_diag_encode_response(const struct ipx_diag_response *r,
				uint8_t *out, size_t cap)
{
	size_t len = 5;

	if (r->count > IPX_DIAG_MAX_COMPONENTS || cap < len)
		return 0;
	out[0] = r->major;
	out[1] = r->minor;
	ipx_put16(out + 2, r->spx_socket);
	out[4] = r->count;
	for (size_t i = 0; i < r->count; i++) {
		const struct ipx_diag_component *c = &r->comps[i];

		if (len + 1 > cap)
			return 0;
		out[len++] = c->id;
		if (!extended(c->id))
			continue;
		if (c->nnets > IPX_DIAG_MAX_NETS ||
		    len + 1 + (size_t)c->nnets * IPX_DIAG_NET_LEN > cap)
			return 0;
		out[len++] = c->nnets;
		for (size_t k = 0; k < c->nnets; k++) {
			out[len] = c->nets[k].type;
			ipx_put32(out + len + 1, c->nets[k].net);
			memcpy(out + len + 5, c->nets[k].node, IPX_NODE_LEN);
			len += IPX_DIAG_NET_LEN;
		}
	}
	return len;
}

int ipx_diag_decode_response(const uint8_t *p, size_t len,
			     struct ipx_diag_response *out,
			     enum ipx_diag_drop *why)
{
	enum ipx_diag_drop d = IPX_DIAG_DROP_BAD_COMPONENT;
	size_t off = 5;

	if (len < 5) {
		d = IPX_DIAG_DROP_SHORT;
		goto bad;
	}
	out->major = p[0];
	out->minor = p[1];
	out->spx_socket = ipx_get16(p + 2);
	out->count = p[4];
	if (out->count > IPX_DIAG_MAX_COMPONENTS)
		goto bad;
	for (size_t i = 0; i < out->count; i++) {
		struct ipx_diag_component *c = &out->comps[i];

		if (off >= len || p[off] > IPX_DIAG_NONDEDICATED)
			goto bad;
		c->id = p[off++];
		c->nnets = 0;
		if (!extended(c->id))
			continue;
		if (off >= len || p[off] > IPX_DIAG_MAX_NETS ||
		    len - off - 1 < (size_t)p[off] * IPX_DIAG_NET_LEN)
			goto bad;
		c->nnets = p[off++];
		for (size_t k = 0; k < c->nnets; k++) {
			c->nets[k].type = p[off];
			c->nets[k].net = ipx_get32(p + off + 1);
			memcpy(c->nets[k].node, p + off + 5, IPX_NODE_LEN);
			off += IPX_DIAG_NET_LEN;
		}
	}
	return IPX_OK;
bad:
	if (why)
		*why = d;
	return IPX_EINVAL;
}

void ipx_diag_describe(const struct ipx_node *node,
		       struct ipx_diag_response *out)
{
	bool router = ipx_node_forwarding(node) || ipx_node_internal_net(node);
	struct ipx_diag_component *c;

	memset(out, 0, sizeof(*out));
	out->major = 1;
	out->minor = router ? 0 : 1;
	out->comps[out->count++].id = IPX_DIAG_IPXSPX;
	if (!router) {
		out->comps[out->count++].id = IPX_DIAG_SHELL_DRIVER;
		return;
	}
	out->comps[out->count++].id = IPX_DIAG_BRIDGE_DRIVER;
	c = &out->comps[out->count++];
	c->id = IPX_DIAG_INTERNAL_BRIDGE;
	if (ipx_node_internal_net(node)) {
		c->nets[c->nnets].type = IPX_DIAG_VIRTUAL;
		c->nets[c->nnets].net = ipx_node_internal_net(node);
		memcpy(c->nets[c->nnets].node, ipx_node_internal_node(node),
		       IPX_NODE_LEN);
		c->nnets++;
	}
	for (size_t i = 0; i < ipx_node_link_count(node) &&
			   c->nnets < IPX_DIAG_MAX_NETS;
	     i++) {
		const struct ipx_link *l = ipx_node_link(node, i);

		if (!l->up)
			continue;
		c->nets[c->nnets].type = IPX_DIAG_LAN;
		c->nets[c->nnets].net = l->net;
		memcpy(c->nets[c->nnets].node, l->node, IPX_NODE_LEN);
		c->nnets++;
	}
}

static void on_request(struct ipx_socket *sock, const struct ipx_header *hdr,
		       const uint8_t *data, size_t len, void *ctx)
{
	struct ipx_diag *diag = ctx;
	struct ipx_link *in = ipx_node_rx_link(diag->node);
	struct ipx_diag_response r;
	struct ipx_addr me;
	uint8_t out[5 + IPX_DIAG_MAX_COMPONENTS * 2 +
		    IPX_DIAG_MAX_NETS * IPX_DIAG_NET_LEN];
	enum ipx_diag_drop why;
	bool excluded, bad;
	size_t n;

	diag->stats.rx_requests++;
	ipx_node_address(diag->node, &me);
	bad = ipx_diag_check_request(data, len, in ? in->node : me.node,
				     &excluded, &why) != IPX_OK;
	if (bad) {
		diag->stats.drops[why]++;
		return;
	}
	if (excluded) {
		diag->stats.drops[IPX_DIAG_DROP_EXCLUDED]++;
		return;
	}
	ipx_diag_describe(diag->node, &r);
	n = ipx_diag_encode_response(&r, out, sizeof(out));
	if (n && ipx_socket_reply(sock, hdr, hdr->type, out, n) == IPX_OK)
		diag->stats.tx_responses++;
	else
		diag->stats.drops[IPX_DIAG_DROP_TX]++;
}

int ipx_diag_new(struct ipx_node *node, struct ipx_diag **out)
{
	struct ipx_diag *diag = calloc(1, sizeof(*diag));
	int rc;

	if (!diag)
		return IPX_ENOMEM;
	diag->node = node;
	rc = ipx_socket_open(node, IPX_SOCK_DIAG, on_request, diag,
			     &diag->sock);
	if (rc != IPX_OK) {
		free(diag);
		return rc;
	}
	*out = diag;
	return IPX_OK;
}

void ipx_diag_free(struct ipx_diag *diag)
{
	if (!diag)
		return;
	ipx_socket_close(diag->sock);
	free(diag);
}

const struct ipx_diag_stats *ipx_diag_stats(const struct ipx_diag *diag)
{
	return &diag->stats;
}
