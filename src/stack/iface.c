/*
 * iface.c - the stack's interfaces as af_ipx showed them: the node's
 * links (named devices with a Linux frame type) and its internal
 * network; SIOCSIFADDR (create and delete), SIOCGIFADDR, the auto-
 * configuration flags, SIOCADDRT/SIOCDELRT, and the text of
 * /proc/net/ipx/{interface,route,socket} in the kernel's layout.
 */
#include <errno.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ipxlab/err.h"
#include "ipxlab/bytes.h"
#include "ipxlab/link_eth.h"
#include "ipxlab/log.h"
#include "stack_int.h"

/* Linux frame type numbers to ipxlab's, and the names /proc used. */
static const struct {
	uint8_t linux_frame;
	enum ipx_frame_type ours;
	const char *proc;
} frames[] = {
	{ IPX_STACK_LFRAME_ETHERII, IPX_FRAME_ETHERNET_II, "EtherII" },
	{ IPX_STACK_LFRAME_8023, IPX_FRAME_8023, "802.3" },
	{ IPX_STACK_LFRAME_8022, IPX_FRAME_8022, "802.2" },
	{ IPX_STACK_LFRAME_SNAP, IPX_FRAME_SNAP, "SNAP" },
};

static const char *frame_proc_name(uint8_t f)
{
	for (size_t i = 0; i < sizeof(frames) / sizeof(frames[0]); i++)
		if (frames[i].linux_frame == f)
			return frames[i].proc;
	return f == IPX_STACK_LFRAME_TR_8022 ? "802.2TR" : "None";
}

bool stack_primary(const struct ipx_stack *st, struct ipx_addr *out)
{
	ipx_node_address(st->node, out);
	out->socket = 0;
	return ipx_node_internal_net(st->node) != 0 ||
	       ipx_node_link_count(st->node) > 0;
}

bool stack_own_net(const struct ipx_stack *st, uint32_t net,
		   uint8_t node[IPX_NODE_LEN])
{
	if (net == 0)
		return false;
	if (net == ipx_node_internal_net(st->node)) {
		if (node)
			memcpy(node, ipx_node_internal_node(st->node), IPX_NODE_LEN);
		return true;
	}
	for (size_t i = 0; i < ipx_node_link_count(st->node); i++) {
		const struct ipx_link *l = ipx_node_link(st->node, i);

		if (l->net == net) {
			if (node)
				memcpy(node, l->node, IPX_NODE_LEN);
			return true;
		}
	}
	return false;
}

bool stack_reachable(const struct ipx_stack *st, uint32_t net)
{
	struct ipx_route r;

	if (net == 0 || stack_own_net(st, net, NULL) ||
	    ipx_node_route_lookup(st->node, net, &r) == IPX_OK)
		return true;
	for (size_t i = 0; i < ipx_node_link_count(st->node); i++)
		if (ipx_node_link(st->node, i)->net == 0)
			return true;
	return false;
}

static struct stack_dev *find_dev(struct ipx_stack *st, const char *name,
				  uint8_t frame)
{
	for (size_t i = 0; i < st->ndevs; i++)
		if (!strcmp(st->devs[i].name, name) &&
		    st->devs[i].frame == frame)
			return &st->devs[i];
	return NULL;
}

static bool known_device(struct ipx_stack *st, const char *name)
{
	for (size_t i = 0; i < st->ndevs; i++)
		if (!strcmp(st->devs[i].name, name))
			return true;
	return if_nametoindex(name) != 0;
}

static int internal_create(struct ipx_stack *st, const struct ipx_stack_req *r)
{
	int rc;

	if (ipx_node_internal_net(st->node))
		return EEXIST;
	if (r->addr.net == 0 || r->addr.net == 0xFFFFFFFFu)
		return EADDRNOTAVAIL;
	/* The node is the caller's, as ipxitf_create_internal took it (mars_nwe
	 * gives 00 00 + htonl(section 3's NODE)); zero means 00:...:01. */
	if (ipx_node_is_broadcast(r->addr.node))
		return EINVAL;
	if (stack_own_net(st, r->addr.net, NULL))
		return EADDRINUSE;
	ipx_node_set_internal_node(st->node, r->addr.node);
	rc = ipx_node_set_internal_net(st->node, r->addr.net);
	if (rc == IPX_OK)
		ipx_stack_announce(st);
	return rc == IPX_OK ? 0 : rc == IPX_EINUSE ? EADDRINUSE : EINVAL;
}

/* A device interface: a configured link takes its network number; any
 * other device of the host is opened as an Ethernet link. */
static int device_create(struct ipx_stack *st, const struct ipx_stack_req *r)
{
	struct ipx_eth_options eo = { .net = r->addr.net };
	struct stack_dev *d;
	struct ipx_link *link;
	char err[256];
	size_t i;

	if (r->addr.net == 0xFFFFFFFFu)
		return EINVAL;
	for (i = 0; i < sizeof(frames) / sizeof(frames[0]); i++)
		if (frames[i].linux_frame == r->type)
			break;
	if (i == sizeof(frames) / sizeof(frames[0]))
		return EPROTONOSUPPORT;
	d = find_dev(st, r->dev, r->type);
	if (d && !d->attached) {	/* deleted before: the device is still here */
		if (r->addr.net && stack_own_net(st, r->addr.net, NULL))
			return EADDRINUSE;
		if (ipx_node_add_link(st->node, d->link) != IPX_OK)
			return ENOBUFS;
		d->link->net = r->addr.net;
		d->attached = true;
		ipx_stack_announce(st);
		return 0;
	}
	if (d) {
		if (d->link->net == 0 && r->addr.net &&
		    !stack_own_net(st, r->addr.net, NULL)) {
			d->link->net = r->addr.net;
			return 0;
		}
		return d->link->net == r->addr.net ? 0 : EEXIST;
	}
	if (r->addr.net && stack_own_net(st, r->addr.net, NULL))
		return EADDRINUSE;
	if (!if_nametoindex(r->dev))
		return ENODEV;
	if (st->ndevs == STACK_MAX_DEVS)
		return ENOBUFS;
	eo.frame = frames[i].ours;
	if (ipx_eth_link_open(st->loop, r->dev, &eo, &link, err,
			      sizeof(err)) != IPX_OK) {
		ipx_warn("stack: cannot open %s: %s", r->dev, err);
		return EPERM;
	}
	if (ipx_node_add_link(st->node, link) != IPX_OK) {
		ipx_link_close(link);
		return ENOBUFS;
	}
	ipx_stack_add_device(st, link, r->dev, r->type);
	st->devs[st->ndevs - 1].opened = true;
	return 0;
}

static int device_delete(struct ipx_stack *st, const struct ipx_stack_req *r)
{
	struct stack_dev *d;

	if (r->special == IPX_STACK_INTERNAL) {
		uint32_t gone = ipx_node_internal_net(st->node);

		if (!gone)
			return ENOENT;
		ipx_node_set_internal_net(st->node, 0);
		stack_announce_gone(st, gone);
		return 0;
	}
	if (r->type > IPX_STACK_LFRAME_TR_8022 ||
	    r->type == IPX_STACK_LFRAME_NONE)
		return EPROTONOSUPPORT;
	if (!known_device(st, r->dev))
		return ENODEV;
	d = find_dev(st, r->dev, r->type);
	if (!d || !d->attached)
		return EINVAL;
	ipx_node_remove_link(st->node, d->link);
	if (d->opened) {	/* a host device: opened again on create */
		ipx_link_close(d->link);
		*d = st->devs[--st->ndevs];
	} else {
		/* A link of the command line (a hub tunnel, an Ethernet
		 * link) is the device itself and stays, as a network card
		 * stayed when its IPX interface was deleted: mars_nwe
		 * deletes then creates the interface of every device it is
		 * given. */
		d->attached = false;
	}
	return 0;
}

static int ifget(struct ipx_stack *st, const struct ipx_stack_req *r,
		 struct stack_reply *rep)
{
	struct stack_dev *d;

	if (!known_device(st, r->dev))
		return ENODEV;
	d = find_dev(st, r->dev, r->type);
	if (!d || !d->attached)
		return EADDRNOTAVAIL;
	ipx_put32(rep->body, d->link->net);
	memcpy(rep->body + 4, d->link->node, IPX_NODE_LEN);
	rep->len = 4 + IPX_NODE_LEN;
	return 0;
}

static struct ipx_link *link_on_net(struct ipx_stack *st, uint32_t net)
{
	for (size_t i = 0; net && i < ipx_node_link_count(st->node); i++)
		if (ipx_node_link(st->node, i)->net == net)
			return ipx_node_link(st->node, i);
	return NULL;
}

static int route(struct ipx_stack *st, const struct ipx_stack_req *r)
{
	struct ipx_route rt = { .net = r->addr.net, .ticks = 1, .hops = 1,
				.kind = IPX_ROUTE_LEARNED };

	if (r->action == 0) {	/* delete */
		if (stack_own_net(st, r->addr.net, NULL))
			return EPERM;	/* direct routes are fixed */
		return ipx_node_route_del(st->node, r->addr.net) == IPX_OK
			       ? 0
			       : ENOENT;
	}
	rt.link = link_on_net(st, r->gw.net);
	if (!rt.link)
		return ENETUNREACH;
	if (stack_own_net(st, r->addr.net, NULL))
		return EEXIST;
	memcpy(rt.via, r->gw.node, IPX_NODE_LEN);
	rt.ticks = (uint16_t)(ipx_node_link_ticks(st->node, rt.link) + 1);
	return ipx_node_route_set(st->node, &rt) == IPX_OK ? 0 : EINVAL;
}

/* Append printf text to the reply, silently cut at its end. */
__attribute__((format(printf, 2, 3))) static void put(struct stack_reply *rep,
						      const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf((char *)rep->body + rep->len, rep->cap - rep->len, fmt,
		      ap);
	va_end(ap);
	if (n > 0)
		rep->len += (size_t)n < rep->cap - rep->len
				    ? (size_t)n
				    : rep->cap - rep->len - 1;
}

static void put_node(struct stack_reply *rep, const uint8_t *n)
{
	put(rep, "%02X%02X%02X%02X%02X%02X", n[0], n[1], n[2], n[3], n[4],
	    n[5]);
}

static void proc_interface(struct ipx_stack *st, struct stack_reply *rep)
{
	uint32_t internal = ipx_node_internal_net(st->node);

	put(rep, "Network    Node_Address   Primary  Device     Frame_Type\n");
	if (internal) {
		put(rep, "%08X   ", (unsigned)internal);
		put_node(rep, ipx_node_internal_node(st->node));
		put(rep, "   %-9s%-11s%s\n", "Yes", "Internal", "None");
	}
	for (size_t i = 0; i < st->ndevs; i++) {
		const struct stack_dev *d = &st->devs[i];

		if (!d->attached)
			continue;
		put(rep, "%08X   ", (unsigned)d->link->net);
		put_node(rep, d->link->node);
		put(rep, "   %-9s%-11s%s\n",
		    !internal && d->link == ipx_node_link(st->node, 0) ? "Yes"
								       : "No",
		    d->name, frame_proc_name(d->frame));
	}
}

static void proc_route(struct ipx_stack *st, struct stack_reply *rep)
{
	uint32_t internal = ipx_node_internal_net(st->node);

	put(rep, "Network    Router_Net Router_Node\n");
	if (internal)
		put(rep, "%08X   Directly     Connected\n", (unsigned)internal);
	for (size_t i = 0; i < ipx_node_link_count(st->node); i++)
		if (ipx_node_link(st->node, i)->net)
			put(rep, "%08X   Directly     Connected\n",
			    (unsigned)ipx_node_link(st->node, i)->net);
	for (size_t i = 0; i < ipx_node_route_count(st->node); i++) {
		const struct ipx_route *r = ipx_node_route_at(st->node, i);

		put(rep, "%08X   %08X     ", (unsigned)r->net,
		    (unsigned)(r->link ? r->link->net : 0));
		put_node(rep, r->via);
		put(rep, "\n");
	}
}

static void proc_socket(struct ipx_stack *st, struct stack_reply *rep)
{
	put(rep, "%-28s%-28s%-10s%-10s%-7s%s\n", "Local_Address",
	    "Remote_Address", "Tx_Queue", "Rx_Queue", "State", "Uid");
	for (const struct stack_sock *ss = st->socks; ss; ss = ss->next) {
		if (!ss->isock)
			continue;
		put(rep, "%08X:%04X  ", (unsigned)ss->local.net,
		    ss->local.socket);
		if (ss->connected) {
			put(rep, "%08X:", (unsigned)ss->peer.net);
			put_node(rep, ss->peer.node);
			put(rep, ":%04X  ", ss->peer.socket);
		} else {
			put(rep, "%-28s", "Not_Connected");
		}
		/* TCP_ESTABLISHED (1) or TCP_CLOSE (7), as af_ipx showed. */
		put(rep, "%08X  %08X  %02X     %03u\n", 0u, 0u,
		    ss->connected ? 1u : 7u, (unsigned)ss->uid);
	}
}

void stack_iface_request(struct ipx_stack *st, const struct ipx_stack_req *req,
			 const struct stack_cred *cred,
			 struct stack_reply *rep)
{
	switch (req->op) {
	case IPX_STACK_IFSET:
		if (!stack_cred_admin(cred))
			rep->err = EPERM;
		else if (req->action == IPX_STACK_DLTITF)
			rep->err = (uint32_t)device_delete(st, req);
		else if (req->special == IPX_STACK_INTERNAL)
			rep->err = (uint32_t)internal_create(st, req);
		else
			rep->err = (uint32_t)device_create(st, req);
		break;
	case IPX_STACK_IFGET:
		rep->err = (uint32_t)ifget(st, req, rep);
		break;
	case IPX_STACK_CFGSET:
		if (req->which)
			st->auto_primary = req->value;
		else
			st->auto_create = req->value;
		break;
	case IPX_STACK_CFGGET:
		rep->body[0] = st->auto_primary;
		rep->body[1] = st->auto_create;
		rep->len = 2;
		break;
	case IPX_STACK_ROUTE:
		rep->err = stack_cred_admin(cred) ? (uint32_t)route(st, req)
						  : EPERM;
		break;
	case IPX_STACK_REACH:
		rep->err = stack_reachable(st, req->addr.net) ? 0 : ENETUNREACH;
		break;
	case IPX_STACK_PROC:
		if (req->which == IPX_STACK_PROC_INTERFACE)
			proc_interface(st, rep);
		else if (req->which == IPX_STACK_PROC_ROUTE)
			proc_route(st, rep);
		else
			proc_socket(st, rep);
		break;
	default:
		rep->err = EINVAL;
		break;
	}
}
