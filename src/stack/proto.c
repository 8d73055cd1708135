/*
 * proto.c - the codec of the stack protocol (stack_proto.h): data frame
 * headers, control requests and reply headers, and the stack's default
 * socket path. Built into both `ipxlab stack` and the preloaded shim, so
 * it uses nothing but bytes.h and libc.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/stack_proto.h"

/* Request body length per op; -1: variable (UNSUPPORTED). */
static const int body_len[IPX_STACK_OP_MAX + 1] = {
	[IPX_STACK_OPEN] = 0,	  [IPX_STACK_BIND] = 12,
	[IPX_STACK_CONNECT] = 13, [IPX_STACK_INFO] = 0,
	[IPX_STACK_SETTYPE] = 1,  [IPX_STACK_IFSET] = 30,
	[IPX_STACK_IFGET] = 20,	  [IPX_STACK_CFGSET] = 2,
	[IPX_STACK_CFGGET] = 0,	  [IPX_STACK_ROUTE] = 18,
	[IPX_STACK_PROC] = 1,	  [IPX_STACK_UNSUPPORTED] = -1,
	[IPX_STACK_REACH] = 12,
};

void ipx_stack_put_addr(uint8_t *p, const struct ipx_addr *a)
{
	ipx_put32(p, a->net);
	memcpy(p + 4, a->node, IPX_NODE_LEN);
	ipx_put16(p + 10, a->socket);
}

void ipx_stack_get_addr(const uint8_t *p, struct ipx_addr *a)
{
	a->net = ipx_get32(p);
	memcpy(a->node, p + 4, IPX_NODE_LEN);
	a->socket = ipx_get16(p + 10);
}

void ipx_stack_frame_encode(uint8_t out[IPX_STACK_FRAME_HDR],
			    const struct ipx_stack_frame *f)
{
	out[0] = f->op;
	out[1] = f->flags;
	out[2] = f->type;
	out[3] = 0;
	ipx_stack_put_addr(out + 4, &f->addr);
}

int ipx_stack_frame_decode(const uint8_t *p, size_t len,
			   struct ipx_stack_frame *out)
{
	if (len < IPX_STACK_FRAME_HDR || p[3] != 0)
		return IPX_EINVAL;
	if (p[0] != IPX_STACK_SEND && p[0] != IPX_STACK_DATA)
		return IPX_EINVAL;
	if (p[1] & ~(IPX_STACK_F_ADDR | IPX_STACK_F_TYPE))
		return IPX_EINVAL;
	if (len - IPX_STACK_FRAME_HDR > IPX_STACK_MAX_PAYLOAD)
		return IPX_EINVAL;
	out->op = p[0];
	out->flags = p[1];
	out->type = p[2];
	ipx_stack_get_addr(p + 4, &out->addr);
	return IPX_OK;
}

bool ipx_stack_op_has_fd(uint8_t op)
{
	return (op >= IPX_STACK_BIND && op <= IPX_STACK_SETTYPE);
}

size_t ipx_stack_req_encode(const struct ipx_stack_req *r, uint8_t *out,
			    size_t cap)
{
	size_t n;
	uint8_t *b = out + IPX_STACK_REQ_HDR;

	if (r->op < 1 || r->op > IPX_STACK_OP_MAX)
		return 0;
	n = r->op == IPX_STACK_UNSUPPORTED ? strlen(r->name)
					   : (size_t)body_len[r->op];
	if (cap < IPX_STACK_REQ_HDR + n)
		return 0;
	memset(out, 0, IPX_STACK_REQ_HDR + n);
	out[0] = r->op;
	switch (r->op) {
	case IPX_STACK_BIND:
	case IPX_STACK_REACH:
		ipx_stack_put_addr(b, &r->addr);
		break;
	case IPX_STACK_CONNECT:
		ipx_stack_put_addr(b, &r->addr);
		b[12] = r->type;
		break;
	case IPX_STACK_SETTYPE:
		b[0] = r->type;
		break;
	case IPX_STACK_IFSET:
		ipx_put32(b, r->addr.net);
		b[4] = r->special;
		b[5] = r->type;
		b[6] = r->action;
		memcpy(b + 8, r->addr.node, IPX_NODE_LEN);
		memcpy(b + 14, r->dev, strnlen(r->dev, IPX_STACK_DEVLEN));
		break;
	case IPX_STACK_IFGET:
		b[0] = r->type;
		memcpy(b + 4, r->dev, strnlen(r->dev, IPX_STACK_DEVLEN));
		break;
	case IPX_STACK_CFGSET:
		b[0] = r->which;
		b[1] = r->value;
		break;
	case IPX_STACK_ROUTE:
		b[0] = r->action;
		ipx_put32(b + 4, r->addr.net);
		ipx_put32(b + 8, r->gw.net);
		memcpy(b + 12, r->gw.node, IPX_NODE_LEN);
		break;
	case IPX_STACK_PROC:
		b[0] = r->which;
		break;
	case IPX_STACK_UNSUPPORTED:
		memcpy(b, r->name, n);
		break;
	default:
		break;
	}
	return IPX_STACK_REQ_HDR + n;
}

static bool all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

/* A device name: printable, NUL-padded, no NUL inside. */
static int get_dev(const uint8_t *p, char *out)
{
	size_t n = strnlen((const char *)p, IPX_STACK_DEVLEN);

	if (!all_zero(p + n, IPX_STACK_DEVLEN - n))
		return IPX_EINVAL;
	for (size_t i = 0; i < n; i++)
		if (p[i] < 0x21 || p[i] > 0x7E)
			return IPX_EINVAL;
	memcpy(out, p, n);
	out[n] = '\0';
	return IPX_OK;
}

int ipx_stack_req_decode(const uint8_t *p, size_t len,
			 struct ipx_stack_req *r)
{
	const uint8_t *b = p + IPX_STACK_REQ_HDR;
	size_t n;

	memset(r, 0, sizeof(*r));
	if (len < IPX_STACK_REQ_HDR || !all_zero(p + 1, 3) || p[0] < 1 ||
	    p[0] > IPX_STACK_OP_MAX)
		return IPX_EINVAL;
	n = len - IPX_STACK_REQ_HDR;
	r->op = p[0];
	if (body_len[r->op] >= 0 && n != (size_t)body_len[r->op])
		return IPX_EINVAL;
	switch (r->op) {
	case IPX_STACK_BIND:
	case IPX_STACK_REACH:
		ipx_stack_get_addr(b, &r->addr);
		break;
	case IPX_STACK_CONNECT:
		ipx_stack_get_addr(b, &r->addr);
		r->type = b[12];
		break;
	case IPX_STACK_SETTYPE:
		r->type = b[0];
		break;
	case IPX_STACK_IFSET:
		if (b[7])
			return IPX_EINVAL;
		r->addr.net = ipx_get32(b);
		r->special = b[4];
		r->type = b[5];
		r->action = b[6];
		memcpy(r->addr.node, b + 8, IPX_NODE_LEN);
		return get_dev(b + 14, r->dev);
	case IPX_STACK_IFGET:
		if (!all_zero(b + 1, 3))
			return IPX_EINVAL;
		r->type = b[0];
		return get_dev(b + 4, r->dev);
	case IPX_STACK_CFGSET:
		if (b[0] > 1)
			return IPX_EINVAL;
		r->which = b[0];
		r->value = b[1];
		break;
	case IPX_STACK_ROUTE:
		if (b[0] > 1 || !all_zero(b + 1, 3))
			return IPX_EINVAL;
		r->action = b[0];
		r->addr.net = ipx_get32(b + 4);
		r->gw.net = ipx_get32(b + 8);
		memcpy(r->gw.node, b + 12, IPX_NODE_LEN);
		break;
	case IPX_STACK_PROC:
		if (b[0] > IPX_STACK_PROC_SOCKET)
			return IPX_EINVAL;
		r->which = b[0];
		break;
	case IPX_STACK_UNSUPPORTED:
		if (n < 1 || n >= IPX_STACK_NAMELEN)
			return IPX_EINVAL;
		for (size_t i = 0; i < n; i++)
			if (b[i] < 0x21 || b[i] > 0x7E)
				return IPX_EINVAL;
		memcpy(r->name, b, n);
		break;
	default:
		break;
	}
	return IPX_OK;
}

void ipx_stack_reply_head(uint8_t out[IPX_STACK_REPLY_HDR], uint8_t op,
			  uint32_t err)
{
	out[0] = op | IPX_STACK_REPLY_BIT;
	out[1] = out[2] = out[3] = 0;
	ipx_put32(out + 4, err);
}

int ipx_stack_reply_decode(const uint8_t *p, size_t len,
			   struct ipx_stack_reply *out)
{
	if (len < IPX_STACK_REPLY_HDR || !(p[0] & IPX_STACK_REPLY_BIT) ||
	    !all_zero(p + 1, 3))
		return IPX_EINVAL;
	out->op = p[0] & (uint8_t)~IPX_STACK_REPLY_BIT;
	out->err = ipx_get32(p + 4);
	out->body = p + IPX_STACK_REPLY_HDR;
	out->len = len - IPX_STACK_REPLY_HDR;
	return IPX_OK;
}

int ipx_stack_default_path(char *out, size_t cap)
{
	const char *env = getenv("IPXLAB_STACK");
	const char *run = getenv("XDG_RUNTIME_DIR");
	int n;

	if (env && *env)
		n = snprintf(out, cap, "%s", env);
	else if (geteuid() == 0)
		n = snprintf(out, cap, "/run/ipxlab/stack");
	else if (run && *run)
		n = snprintf(out, cap, "%s/ipxlab-stack", run);
	else
		n = snprintf(out, cap, "/tmp/ipxlab-stack-%u",
			     (unsigned)geteuid());
	return n < 0 || (size_t)n >= cap ? -1 : 0;
}
