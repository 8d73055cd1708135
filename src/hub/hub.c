/*
 * hub.c - the DOSBox-protocol tunnel server (see hub.h and docs/links.md;
 * DOSBox's ipxserver.cpp is the public reference).
 *
 * Clients live in a hash table keyed by their 6-byte node (= IPv4 address
 * and UDP port) and in a list ordered by when they were last heard from, so
 * the keepalive sweep only ever looks at silent clients. Relayed packets
 * are sent straight from the receive buffers in one sendmmsg per batch.
 *
 * IPX routers (docs/routing.md) need two things the tunnel cannot say: a
 * next hop, and a source that is not the sender's own node. So a client
 * that sends a RIP response is taken for a router: it may relay packets
 * from other networks (any source node that is not another client of this
 * hub), and a unicast for an unknown node on a nonzero network goes to the
 * routers, which forward it or drop it.
 *
 * A bridge port (a client that has announced itself, docs/hub.md "Bridge
 * ports") is a port of a layer-2 bridge: broadcasts and unicasts for
 * nodes that are no client go to every port (flooded), the source nodes of
 * its frames are learned (learn.c), and unicasts for a learned node go to
 * its port alone. Like a router it may send any source node that is not
 * another client's.
 */
#include "ipxlab/hub.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/ipx.h"
#include "ipxlab/log.h"
#include "ipxlab/priv/drops.h"
#include "ipxlab/priv/link_medium.h"

#include "learn_int.h"

#define RXBATCH 64
#define TXQUEUE 512
#define HUB_MTU 1424
#define RXBUF (HUB_MTU + 1)
#define MAX_ROUTERS 16
#define MAX_PORTS 16
#define MAX_LEARNED 4096
#define RATE_SLOTS 256		/* token buckets of /24 networks (8 bits) */

/* The source node of keepalive pings (portmsg.c). */
#define keepalive_node ipx_hub_keepalive_node

struct client {
	struct sockaddr_in addr;
	uint8_t node[IPX_NODE_LEN];
	ipx_time last_seen;
	ipx_time last_ping;
	uint64_t rx_packets, tx_packets;
	bool router;				/* has sent RIP responses */
	bool port;				/* a bridge port */
	struct ipx_medium_station *station;	/* with a profile */
	struct client *hnext;			/* hash chain */
	struct client *older, *newer;		/* by last_seen */
};

/* The registration bucket of one IPv4 /24 network (hashed; two networks
 * that share a slot share its tokens until it is full again). */
struct reg_bucket {
	uint32_t prefix;		/* host order, low byte 0 */
	bool used;
	double tokens;
	ipx_time at;			/* when tokens was computed */
};

struct txent {
	struct sockaddr_in to;
	const uint8_t *data;
	size_t len;
	uint8_t ctl[IPX_HUB_PORT_MSG_LEN];	/* for packets the hub makes */
};

struct ipx_hub {
	struct ipx_loop *loop;
	struct ipx_hub_options opts;
	int fd;
	struct sockaddr_in local;
	struct client **table;
	size_t nbuckets, nclients;
	struct client *oldest, *newest;
	struct client *routers[MAX_ROUTERS];
	size_t nrouters;
	struct client *ports[MAX_PORTS];	/* bridge ports */
	size_t nports;
	struct hub_learn *learned;		/* nodes behind the ports */
	bool drop_logged[IPX_HUB_DROP_COUNT];	/* -v: the first of each */
	bool refusal_logged[2];			/* table_full, register_rate */
	struct reg_bucket rate[RATE_SLOTS];
	struct ipx_timer sweep;
	struct ipx_hook hook;
	struct ipx_hub_stats stats;
	ipx_hub_uplink_cb uplink;		/* bridging, or NULL */
	void *uplink_ctx;
	struct ipx_medium *medium;		/* --profile, or NULL */
	struct ipx_medium_station *uplink_station;
	unsigned ntx;
	struct txent tx[TXQUEUE];
	uint8_t rbuf[RXBATCH][RXBUF];
};

IPX_DROP_NAMES(IPX_HUB_DROPS, enum ipx_hub_drop, IPX_HUB_DROP_COUNT,
	       ipx_hub_drop_name)

#define DROP_DESC_(id, name, desc) desc,
static const char *const drop_descs[] = { IPX_HUB_DROPS(DROP_DESC_) };
#undef DROP_DESC_

static void node_of(const struct sockaddr_in *sa, uint8_t node[IPX_NODE_LEN])
{
	/* Both fields are in network order already, as DOSBox packs them. */
	memcpy(node, &sa->sin_addr.s_addr, 4);
	memcpy(node + 4, &sa->sin_port, 2);
}

static void addr_str(const struct sockaddr_in *sa, char *out, size_t len)
{
	char ip[INET_ADDRSTRLEN];

	inet_ntop(AF_INET, &sa->sin_addr, ip, sizeof(ip));
	snprintf(out, len, "%s:%u", ip, ntohs(sa->sin_port));
}

/* Count a discarded datagram; with -v, say so the first time per kind. */
static void drop(struct ipx_hub *hub, enum ipx_hub_drop d,
		 const struct sockaddr_in *from)
{
	char a[40];

	hub->stats.drops[d]++;
	if (hub->drop_logged[d] || ipx_log_get_level() < IPX_LOG_DEBUG)
		return;
	hub->drop_logged[d] = true;
	addr_str(from, a, sizeof(a));
	ipx_debug("hub: dropped a datagram from %s: %s (drop_%s; further "
		  "ones are only counted)",
		  a, drop_descs[d], drop_names[d]);
}

/* ---- client table ---- */

#define hash_node hub_node_hash

static struct client *lookup(const struct ipx_hub *hub,
			     const uint8_t node[IPX_NODE_LEN])
{
	for (struct client *c = hub->table[hash_node(node, hub->nbuckets)]; c;
	     c = c->hnext)
		if (ipx_node_eq(c->node, node))
			return c;
	return NULL;
}

static int grow(struct ipx_hub *hub)
{
	size_t n = hub->nbuckets * 2;
	struct client **t = calloc(n, sizeof(*t));

	if (!t)
		return IPX_ENOMEM;
	for (size_t b = 0; b < hub->nbuckets; b++) {
		while (hub->table[b]) {
			struct client *c = hub->table[b];
			size_t nb = hash_node(c->node, n);

			hub->table[b] = c->hnext;
			c->hnext = t[nb];
			t[nb] = c;
		}
	}
	free(hub->table);
	hub->table = t;
	hub->nbuckets = n;
	return IPX_OK;
}

static void lru_unlink(struct ipx_hub *hub, struct client *c)
{
	if (c->older)
		c->older->newer = c->newer;
	else
		hub->oldest = c->newer;
	if (c->newer)
		c->newer->older = c->older;
	else
		hub->newest = c->older;
	c->older = c->newer = NULL;
}

static void lru_append(struct ipx_hub *hub, struct client *c)
{
	c->older = hub->newest;
	c->newer = NULL;
	if (hub->newest)
		hub->newest->newer = c;
	else
		hub->oldest = c;
	hub->newest = c;
}

static void touch(struct ipx_hub *hub, struct client *c)
{
	c->last_seen = ipx_loop_now(hub->loop);
	if (hub->newest != c) {
		lru_unlink(hub, c);
		lru_append(hub, c);
	}
}

static void remove_client(struct ipx_hub *hub, struct client *c,
			  const char *why)
{
	struct client **pp = &hub->table[hash_node(c->node, hub->nbuckets)];
	char a[40], n[13];

	while (*pp && *pp != c)
		pp = &(*pp)->hnext;
	if (*pp)
		*pp = c->hnext;
	lru_unlink(hub, c);
	for (size_t i = 0; i < hub->nrouters; i++) {
		if (hub->routers[i] == c) {
			hub->routers[i] = hub->routers[--hub->nrouters];
			break;
		}
	}
	for (size_t i = 0; i < hub->nports; i++) {
		if (hub->ports[i] == c) {
			hub->ports[i] = hub->ports[--hub->nports];
			hub_learn_forget_port(hub->learned, c);
			break;
		}
	}
	ipx_medium_station_free(c->station);
	hub->nclients--;
	hub->stats.leaves++;
	addr_str(&c->addr, a, sizeof(a));
	ipx_info("hub: leave %s node %s (%s, %zu client%s)", a,
		 ipx_node_format(c->node, n), why, hub->nclients,
		 hub->nclients == 1 ? "" : "s");
	ipx_debug("hub: %s had sent %llu datagrams and been sent %llu", a,
		  (unsigned long long)c->rx_packets,
		  (unsigned long long)c->tx_packets);
	free(c);
}

/* ---- sending ---- */

void ipx_hub_flush(struct ipx_hub *hub)
{
	struct mmsghdr msgs[TXQUEUE];
	struct iovec iov[TXQUEUE];
	unsigned done = 0;

	if (!hub->ntx)
		return;
	if (hub->opts.tap)
		for (unsigned i = 0; i < hub->ntx; i++)
			hub->opts.tap(&hub->tx[i].to, hub->tx[i].data,
				      hub->tx[i].len, hub->opts.tap_ctx);
	if (hub->fd < 0) {
		for (unsigned i = 0; i < hub->ntx; i++) {
			hub->stats.tx_packets++;
			hub->stats.tx_bytes += hub->tx[i].len;
		}
		hub->ntx = 0;
		return;
	}
	for (unsigned i = 0; i < hub->ntx; i++) {
		iov[i].iov_base = (void *)hub->tx[i].data;
		iov[i].iov_len = hub->tx[i].len;
		memset(&msgs[i], 0, sizeof(msgs[i]));
		msgs[i].msg_hdr.msg_name = &hub->tx[i].to;
		msgs[i].msg_hdr.msg_namelen = sizeof(hub->tx[i].to);
		msgs[i].msg_hdr.msg_iov = &iov[i];
		msgs[i].msg_hdr.msg_iovlen = 1;
	}
	while (done < hub->ntx) {
		int n = sendmmsg(hub->fd, msgs + done, hub->ntx - done, 0);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK ||
			    errno == ENOBUFS) {
				/* Datagrams are best effort: drop the rest
				 * of the batch rather than stall the hub. */
				hub->stats.drops[IPX_HUB_DROP_TX_ERROR] +=
					hub->ntx - done;
				break;
			}
			/* A per-destination error (ICMP unreachable from an
			 * earlier send): skip that one datagram. */
			hub->stats.drops[IPX_HUB_DROP_TX_ERROR]++;
			done++;
			continue;
		}
		for (int i = 0; i < n; i++) {
			hub->stats.tx_packets++;
			hub->stats.tx_bytes += hub->tx[done + (unsigned)i].len;
		}
		done += (unsigned)n;
	}
	hub->ntx = 0;
}

static void queue(struct ipx_hub *hub, const struct client *to,
		  const uint8_t *data, size_t len)
{
	struct txent *e;

	if (hub->ntx == TXQUEUE)
		ipx_hub_flush(hub);
	e = &hub->tx[hub->ntx++];
	e->to = to->addr;
	e->len = len;
	if (data == NULL) {
		e->data = e->ctl;	/* caller fills ctl (up to its size) */
	} else {
		e->data = data;
	}
}

/* A 30-byte control packet the hub itself sends. */
static void queue_control(struct ipx_hub *hub, const struct client *to,
			  const struct ipx_header *h)
{
	queue(hub, to, NULL, IPX_HDR_LEN);
	ipx_header_encode(h, hub->tx[hub->ntx - 1].ctl);
}

static void answer_registration(struct ipx_hub *hub, const struct client *c)
{
	struct ipx_header h = { .checksum = IPX_NO_CHECKSUM,
				.length = IPX_HDR_LEN };

	h.dst.net = 0;
	memcpy(h.dst.node, c->node, IPX_NODE_LEN);
	h.dst.socket = IPX_SOCK_ECHO;
	h.src.net = 1;
	node_of(&hub->local, h.src.node);
	memset(h.src.node, 0, 4);	/* DOSBox: server IP 0.0.0.0 */
	h.src.socket = IPX_SOCK_ECHO;
	queue_control(hub, c, &h);
	hub->stats.registrations++;
}

static void send_keepalive(struct ipx_hub *hub, struct client *c)
{
	struct ipx_header h = { .checksum = IPX_NO_CHECKSUM,
				.length = IPX_HDR_LEN };

	memcpy(h.dst.node, ipx_node_broadcast, IPX_NODE_LEN);
	h.dst.socket = IPX_SOCK_ECHO;
	memcpy(h.src.node, keepalive_node, IPX_NODE_LEN);
	h.src.socket = 0;
	queue_control(hub, c, &h);
	c->last_ping = ipx_loop_now(hub->loop);
	hub->stats.keepalives++;
}

/* ---- receiving ---- */

/* A RIP response (socket 0x453, operation 2) from its own node marks a
 * client as a router. */
static void note_router(struct ipx_hub *hub, struct client *c,
			const struct ipx_header *h, const uint8_t *pkt)
{
	char a[40];

	if (c->router || h->dst.socket != IPX_SOCK_RIP ||
	    h->length < IPX_HDR_LEN + 2 || ipx_get16(pkt + IPX_HDR_LEN) != 2 ||
	    !ipx_node_eq(h->src.node, c->node) ||
	    hub->nrouters == MAX_ROUTERS)
		return;
	c->router = true;
	hub->routers[hub->nrouters++] = c;
	addr_str(&c->addr, a, sizeof(a));
	ipx_info("hub: %s is an IPX router", a);
}

static bool port_allowed(const struct ipx_hub *hub, const struct client *c)
{
	if (hub->opts.bridge_refuse)
		return false;
	if (!hub->opts.nbridge_allow)
		return true;
	for (size_t i = 0; i < hub->opts.nbridge_allow; i++)
		if (hub->opts.bridge_allow[i].s_addr == c->addr.sin_addr.s_addr)
			return true;
	return false;
}

/* A client asks to be a bridge port: answer every time (the answer may
 * have been lost), accepted or refused. */
static void port_announce(struct ipx_hub *hub, struct client *c)
{
	bool ok = port_allowed(hub, c) &&
		  (c->port || hub->nports < MAX_PORTS);
	char a[40], n[13];

	addr_str(&c->addr, a, sizeof(a));
	if (ok && !c->port) {
		c->port = true;
		hub->ports[hub->nports++] = c;
		ipx_info("hub: %s node %s is a bridge port (%zu)", a,
			 ipx_node_format(c->node, n), hub->nports);
	} else if (!ok) {
		hub->stats.port_refused++;
		ipx_info("hub: refused %s as a bridge port (%s)", a,
			 port_allowed(hub, c) ? "too many ports"
					      : "not in --allow-bridge");
	}
	hub->stats.port_announces++;
	queue(hub, c, NULL, IPX_HUB_PORT_MSG_LEN);
	ipx_hub_port_msg(hub->tx[hub->ntx - 1].ctl, c->node, keepalive_node,
			 ok ? IPX_HUB_MSG_ACCEPTED : IPX_HUB_MSG_REFUSED);
}

/* Whether the /24 network of 'from' may register one more client now. */
static bool rate_allows(struct ipx_hub *hub, const struct sockaddr_in *from)
{
	uint32_t prefix = ntohl(from->sin_addr.s_addr) & 0xFFFFFF00u;
	/* Fibonacci hashing: the top 8 bits pick one of 256 slots. */
	struct reg_bucket *b =
		&hub->rate[(uint32_t)((prefix >> 8) * 2654435761u) >> 24];
	double burst = hub->opts.reg_burst;
	ipx_time now = ipx_loop_now(hub->loop);

	if (hub->opts.reg_rate < 0)
		return true;
	if (b->used) {
		b->tokens += (double)(now - b->at) * hub->opts.reg_rate /
			     IPX_SEC;
		if (b->tokens > burst)
			b->tokens = burst;
	}
	b->at = now;
	/* A free slot, or a full one of another network, is taken over. */
	if (!b->used || (b->prefix != prefix && b->tokens >= burst)) {
		b->used = true;
		b->prefix = prefix;
		b->tokens = burst;
	}
	if (b->tokens < 1)
		return false;
	b->tokens -= 1;
	return true;
}

/* A new client refused: counted, and said once (warning) per reason. */
static void refuse(struct ipx_hub *hub, enum ipx_hub_drop d,
		   const struct sockaddr_in *from)
{
	bool full = d == IPX_HUB_DROP_TABLE_FULL;
	char a[40];

	hub->stats.drops[d]++;
	if (hub->refusal_logged[!full])
		return;
	hub->refusal_logged[!full] = true;
	addr_str(from, a, sizeof(a));
	if (full)
		ipx_warn("hub: refused the registration of %s: %zu clients, "
			 "the limit (--max-clients); further ones are only "
			 "counted (drop_table_full)",
			 a, hub->nclients);
	else
		ipx_warn("hub: refused the registration of %s: its /24 "
			 "network registers more than %d a second "
			 "(--register-rate); further ones are only counted "
			 "(drop_register_rate)",
			 a, hub->opts.reg_rate);
}

/*
 * A full table makes room from a client that is gone in all but name: the
 * one silent longest, if it did not answer the keepalive ping it got
 * (a second to do so). DOSBox and ipxlab clients answer; the addresses of
 * a registration flood do not, so they go well before the idle timeout.
 */
static bool evict_silent(struct ipx_hub *hub)
{
	struct client *c = hub->oldest;
	ipx_time now = ipx_loop_now(hub->loop);

	if (!c || !ipx_time_before(c->last_seen, c->last_ping) ||
	    now - c->last_ping < IPX_SEC)
		return false;
	remove_client(hub, c, "no keepalive answer, table full");
	hub->stats.evicted++;
	return true;
}

static void registration(struct ipx_hub *hub, const struct sockaddr_in *from)
{
	uint8_t node[IPX_NODE_LEN];
	struct client *c;

	node_of(from, node);
	c = lookup(hub, node);
	if (!c) {
		char a[40], n[13];

		if (hub->nclients >= hub->opts.max_clients &&
		    !evict_silent(hub)) {
			refuse(hub, IPX_HUB_DROP_TABLE_FULL, from);
			return;
		}
		if (!rate_allows(hub, from)) {
			refuse(hub, IPX_HUB_DROP_REG_RATE, from);
			return;
		}
		if (hub->nclients >= hub->nbuckets && grow(hub) != IPX_OK)
			return;
		c = calloc(1, sizeof(*c));
		if (!c)
			return;
		if (hub->medium) {
			c->station = ipx_medium_station_new(hub->medium, c);
			if (!c->station) {
				free(c);
				return;
			}
		}
		c->addr = *from;
		memcpy(c->node, node, IPX_NODE_LEN);
		/* A client now: no longer behind a bridge port. */
		hub_learn_forget(hub->learned, node);
		c->hnext = hub->table[hash_node(node, hub->nbuckets)];
		hub->table[hash_node(node, hub->nbuckets)] = c;
		lru_append(hub, c);
		hub->nclients++;
		hub->stats.joins++;
		addr_str(from, a, sizeof(a));
		ipx_info("hub: join %s node %s (%zu client%s)", a,
			 ipx_node_format(node, n), hub->nclients,
			 hub->nclients == 1 ? "" : "s");
	}
	touch(hub, c);
	c->rx_packets++;
	/* Answer every time: the first answer may have been lost. */
	answer_registration(hub, c);
}

/* A unicast for an unknown node to every bridge port but 'src'; whether
 * any got it (then it is counted once in 'flooded'). */
static size_t flood_ports(struct ipx_hub *hub, const struct client *src,
			  const uint8_t *pkt, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < hub->nports; i++) {
		if (hub->ports[i] == src)
			continue;
		queue(hub, hub->ports[i], pkt, len);
		hub->ports[i]->tx_packets++;
		n++;
	}
	hub->stats.flood_copies += n;
	if (n)
		hub->stats.flooded++;
	return n;
}

/* Relay a packet from 'src' (checked, exactly h->length bytes). */
static void relay(struct ipx_hub *hub, struct client *src,
		  const struct ipx_header *h, const uint8_t *pkt, size_t len)
{
	if (!memcmp(h->dst.node, "\xFF\xFF\xFF\xFF", 4)) {
		hub->stats.broadcasts++;
		for (struct client *c = hub->oldest; c; c = c->newer) {
			if (c == src)
				continue;
			queue(hub, c, pkt, len);
			c->tx_packets++;
		}
		if (hub->uplink)
			hub->uplink(pkt, len, hub->uplink_ctx);
		return;
	}
	if (ipx_node_eq(h->dst.node, keepalive_node)) {
		hub->stats.control++;	/* an answer to our keepalive */
		return;
	}
	{
		struct client *dst = lookup(hub, h->dst.node);
		size_t flooded;

		if (dst) {
			hub->stats.unicasts++;
			queue(hub, dst, pkt, len);
			dst->tx_packets++;
			return;
		}
		dst = hub_learn_get(hub->learned, h->dst.node,
				    ipx_loop_now(hub->loop));
		if (dst == src) {
			/* Its own segment has it: a bridge filters it. */
			drop(hub, IPX_HUB_DROP_SAME_PORT, &src->addr);
			return;
		}
		if (dst) {
			hub->stats.port_unicasts++;
			queue(hub, dst, pkt, len);
			dst->tx_packets++;
			return;
		}
		/* Nobody here has it: it may be behind a bridge port. */
		flooded = flood_ports(hub, src, pkt, len);
		if (h->dst.net != 0 && hub->nrouters &&
		    !(hub->nrouters == 1 && hub->routers[0] == src)) {
			/* For another network: the routers know the way. */
			if (!flooded)
				hub->stats.routed++;
			for (size_t i = 0; i < hub->nrouters; i++) {
				if (hub->routers[i] == src)
					continue;
				queue(hub, hub->routers[i], pkt, len);
				hub->routers[i]->tx_packets++;
				hub->stats.routed_copies++;
			}
			return;
		}
		if (hub->uplink) {
			hub->uplink(pkt, len, hub->uplink_ctx);
			return;
		}
		if (!flooded)
			drop(hub, IPX_HUB_DROP_UNKNOWN_DEST, &src->addr);
	}
}

void ipx_hub_input(struct ipx_hub *hub, const struct sockaddr_in *from,
		   const uint8_t *pkt, size_t len)
{
	uint8_t node[IPX_NODE_LEN];
	struct ipx_header h;
	struct client *src;
	int rc;

	hub->stats.rx_packets++;
	hub->stats.rx_bytes += len;
	if (hub->opts.rx_tap)
		hub->opts.rx_tap(from, pkt, len, hub->opts.rx_tap_ctx);
	if (len > HUB_MTU) {
		drop(hub, IPX_HUB_DROP_TOOBIG, from);
		return;
	}
	rc = ipx_header_decode(pkt, len, &h);
	if (rc == IPX_ESHORT) {
		drop(hub, IPX_HUB_DROP_SHORT, from);
		return;
	}
	/* Registration, judged as DOSBox does: socket 2 and a destination
	 * IP of 0. Type, checksum and even the length field are not checked. */
	if (h.dst.socket == IPX_SOCK_ECHO && !memcmp(h.dst.node, "\0\0\0\0", 4)) {
		registration(hub, from);
		return;
	}
	node_of(from, node);
	src = lookup(hub, node);
	if (!src || src->addr.sin_addr.s_addr != from->sin_addr.s_addr ||
	    src->addr.sin_port != from->sin_port) {
		drop(hub, IPX_HUB_DROP_UNREGISTERED, from);
		return;
	}
	touch(hub, src);
	src->rx_packets++;
	if (rc != IPX_OK) {
		drop(hub, IPX_HUB_DROP_BADLEN, from);
		return;
	}
	/* A router or a bridge port relays other stations' packets, never
	 * our clients'. */
	if (!ipx_node_eq(h.src.node, src->node) &&
	    ((!src->router && !src->port) || lookup(hub, h.src.node))) {
		drop(hub, IPX_HUB_DROP_FORGED, from);
		return;
	}
	if (ipx_node_eq(h.dst.node, keepalive_node) &&
	    ipx_hub_port_msg_parse(pkt, len) == IPX_HUB_MSG_ANNOUNCE &&
	    ipx_node_eq(h.src.node, src->node)) {
		port_announce(hub, src);
		return;
	}
	if (src->port && !ipx_node_eq(h.src.node, src->node)) {
		hub->stats.port_frames++;
		/* Not the broadcast node, nor the keepalive node: a station.
		 * (Tunnel nodes are IPv4 addresses: 127.x has the Ethernet
		 * group bit set, so that bit says nothing here.) */
		if (!ipx_node_is_broadcast(h.src.node) &&
		    !ipx_node_eq(h.src.node, keepalive_node) &&
		    !hub_learn_put(hub->learned, h.src.node, src,
				   ipx_loop_now(hub->loop)))
			hub->stats.learn_full++;
	}
	note_router(hub, src, &h, pkt);
	/* Relay exactly the IPX packet, without any trailing bytes. */
	len = h.length;
	if (hub->medium && !ipx_node_eq(h.dst.node, keepalive_node)) {
		/* Its turn on the wire first (drops counted there). */
		ipx_medium_send(src->station, pkt, len, NULL);
		return;
	}
	relay(hub, src, &h, pkt, len);
}

void ipx_hub_set_uplink(struct ipx_hub *hub, ipx_hub_uplink_cb cb, void *ctx)
{
	hub->uplink = cb;
	hub->uplink_ctx = ctx;
}

bool ipx_hub_has_node(const struct ipx_hub *hub,
		      const uint8_t node[IPX_NODE_LEN])
{
	return lookup(hub, node) != NULL ||
	       hub_learn_get(hub->learned, node, ipx_loop_now(hub->loop));
}

/* The client with this node or the bridge port it is behind, or NULL. */
static struct client *reach(const struct ipx_hub *hub,
			    const uint8_t node[IPX_NODE_LEN])
{
	struct client *c = lookup(hub, node);

	return c ? c
		 : hub_learn_get(hub->learned, node, ipx_loop_now(hub->loop));
}

/* Queue a packet from the uplink for its clients; how many there are. */
static size_t deliver(struct ipx_hub *hub, const uint8_t *pkt, size_t len,
		      bool count_only)
{
	size_t n = 0;

	if (ipx_node_is_broadcast(pkt + 10)) {
		for (struct client *c = hub->oldest; c; c = c->newer, n++) {
			if (count_only)
				continue;
			queue(hub, c, pkt, len);
			c->tx_packets++;
		}
	} else {
		struct client *c = reach(hub, pkt + 10);

		if (c && !count_only) {
			queue(hub, c, pkt, len);
			c->tx_packets++;
		}
		n = c != NULL;
	}
	return n;
}

size_t ipx_hub_deliver(struct ipx_hub *hub, const uint8_t *pkt, size_t len)
{
	size_t n;

	if (len < IPX_HDR_LEN || len > HUB_MTU)
		return 0;
	if (hub->medium) {
		/* The segment's wire first; it goes to whoever is there when
		 * it arrives. */
		n = deliver(hub, pkt, len, true);
		if (n)
			ipx_medium_send(hub->uplink_station, pkt, len, NULL);
		return n;
	}
	n = deliver(hub, pkt, len, false);
	/* The bytes are borrowed: send them before returning. */
	ipx_hub_flush(hub);
	return n;
}

/* A packet has had its time on the profile's wire. */
static void on_wire(struct ipx_medium_station *st, const uint8_t *pkt,
		    size_t len, const uint8_t tag[IPX_MEDIUM_TAG], void *ctx)
{
	struct ipx_hub *hub = ctx;
	struct client *src = ipx_medium_station_ctx(st);
	struct ipx_header h;

	(void)tag;
	if (!src)
		deliver(hub, pkt, len, false);
	else if (ipx_header_decode(pkt, len, &h) == IPX_OK)
		relay(hub, src, &h, pkt, len);
	/* The bytes are borrowed: send them before returning. */
	ipx_hub_flush(hub);
}

static void on_readable(struct ipx_loop *loop, int fd, unsigned events,
			void *ctx)
{
	struct ipx_hub *hub = ctx;
	struct mmsghdr msgs[RXBATCH];
	struct iovec iov[RXBATCH];
	struct sockaddr_in from[RXBATCH];
	unsigned want = ipx_loop_batch(loop);
	int n;

	(void)events;
	if (want > RXBATCH)
		want = RXBATCH;
	for (unsigned i = 0; i < want; i++) {
		iov[i].iov_base = hub->rbuf[i];
		iov[i].iov_len = RXBUF;
		memset(&msgs[i], 0, sizeof(msgs[i]));
		msgs[i].msg_hdr.msg_name = &from[i];
		msgs[i].msg_hdr.msg_namelen = sizeof(from[i]);
		msgs[i].msg_hdr.msg_iov = &iov[i];
		msgs[i].msg_hdr.msg_iovlen = 1;
	}
	n = recvmmsg(fd, msgs, want, MSG_DONTWAIT, NULL);
	if (n <= 0)
		return;
	for (int i = 0; i < n; i++) {
		if (msgs[i].msg_hdr.msg_namelen != sizeof(struct sockaddr_in) ||
		    from[i].sin_family != AF_INET)
			continue;
		ipx_hub_input(hub, &from[i], hub->rbuf[i], msgs[i].msg_len);
	}
	/* The queue points into rbuf: send before the buffers are reused. */
	ipx_hub_flush(hub);
}

static void flush_hook(struct ipx_loop *loop, void *ctx)
{
	(void)loop;
	ipx_hub_flush(ctx);
}

static void sweep(struct ipx_loop *loop, struct ipx_timer *t, void *ctx)
{
	struct ipx_hub *hub = ctx;
	ipx_time now = ipx_loop_now(loop);
	struct client *c = hub->oldest;
	ipx_time first = hub->opts.keepalive < hub->opts.idle_timeout
				 ? hub->opts.keepalive
				 : hub->opts.idle_timeout;

	(void)t;
	while (c) {
		struct client *next = c->newer;
		ipx_time silent = now - c->last_seen;

		if (silent < first)
			break;	/* everyone newer has spoken more recently */
		if (silent >= hub->opts.idle_timeout)
			remove_client(hub, c, "idle timeout");
		else if (now - c->last_ping >= hub->opts.keepalive)
			send_keepalive(hub, c);
		c = next;
	}
	ipx_hub_flush(hub);
}

int ipx_hub_open(struct ipx_loop *loop, const struct ipx_hub_options *opts,
		 struct ipx_hub **out, char *err, size_t errlen)
{
	struct ipx_hub *hub = calloc(1, sizeof(*hub));
	socklen_t slen = sizeof(hub->local);
	ipx_time tick;
	int rc;

	if (!hub)
		return IPX_ENOMEM;
	hub->loop = loop;
	hub->opts = *opts;
	if (!hub->opts.keepalive)
		hub->opts.keepalive = 5 * IPX_SEC;
	if (!hub->opts.idle_timeout)
		hub->opts.idle_timeout = 120 * IPX_SEC;
	if (!hub->opts.learn_age)
		hub->opts.learn_age = 300 * IPX_SEC;
	if (!hub->opts.max_clients)
		hub->opts.max_clients = IPX_HUB_MAX_CLIENTS;
	if (!hub->opts.reg_rate)
		hub->opts.reg_rate = IPX_HUB_REG_RATE;
	if (!hub->opts.reg_burst)
		hub->opts.reg_burst = IPX_HUB_REG_BURST;
	hub->nbuckets = 64;
	hub->table = calloc(hub->nbuckets, sizeof(*hub->table));
	hub->learned = hub_learn_new(MAX_LEARNED, hub->opts.learn_age);
	hub->fd = -1;
	hub->local = opts->bind;
	if (!hub->table || !hub->learned) {
		free(hub->table);
		hub_learn_free(hub->learned);
		free(hub);
		return IPX_ENOMEM;
	}
	if (!opts->detached) {
		int sz = 4 << 20;
		char a[40];

		hub->fd = socket(AF_INET,
				 SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		if (hub->fd < 0) {
			snprintf(err, errlen, "socket: %s", strerror(errno));
			ipx_hub_close(hub);
			return IPX_EIO;
		}
		setsockopt(hub->fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
		setsockopt(hub->fd, SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
		if (bind(hub->fd, (const struct sockaddr *)&opts->bind,
			 sizeof(opts->bind)) < 0) {
			int e = errno;

			addr_str(&opts->bind, a, sizeof(a));
			snprintf(err, errlen, "cannot serve on %s: %s%s", a,
				 strerror(e),
				 e == EACCES ? " (ports below 1024 need root "
					       "or CAP_NET_BIND_SERVICE; try "
					       "--port 10213)"
					     : "");
			ipx_hub_close(hub);
			return e == EACCES ? IPX_EPERM : IPX_EIO;
		}
		getsockname(hub->fd, (struct sockaddr *)&hub->local, &slen);
		rc = ipx_loop_add_fd(loop, hub->fd, IPX_EV_READ, on_readable,
				     hub);
		if (rc) {
			snprintf(err, errlen, "event loop: %s",
				 ipx_strerror(rc));
			ipx_hub_close(hub);
			return rc;
		}
	}
	if (opts->profile) {
		hub->medium = ipx_medium_new(loop, opts->profile, 1, on_wire,
					     hub);
		hub->uplink_station = hub->medium ? ipx_medium_station_new(
							    hub->medium, NULL)
						  : NULL;
		if (!hub->uplink_station) {
			snprintf(err, errlen, "out of memory");
			ipx_hub_close(hub);
			return IPX_ENOMEM;
		}
	}
	ipx_loop_add_hook(loop, &hub->hook, flush_hook, hub);
	ipx_timer_init(&hub->sweep, sweep, hub);
	tick = hub->opts.keepalive / 5;
	if (tick < 10 * IPX_MSEC)
		tick = 10 * IPX_MSEC;
	if (tick > IPX_SEC)
		tick = IPX_SEC;
	ipx_timer_start(loop, &hub->sweep, tick, tick);
	*out = hub;
	return IPX_OK;
}

void ipx_hub_close(struct ipx_hub *hub)
{
	if (!hub)
		return;
	ipx_hub_flush(hub);
	ipx_medium_free(hub->medium);	/* and every client's station */
	ipx_timer_stop(hub->loop, &hub->sweep);
	ipx_loop_remove_hook(hub->loop, &hub->hook);
	if (hub->fd >= 0) {
		ipx_loop_del_fd(hub->loop, hub->fd);
		close(hub->fd);
	}
	while (hub->oldest) {
		struct client *c = hub->oldest;

		hub->oldest = c->newer;
		free(c);
	}
	free(hub->table);
	hub_learn_free(hub->learned);
	free(hub);
}

const struct ipx_hub_stats *ipx_hub_stats(const struct ipx_hub *hub)
{
	return &hub->stats;
}

size_t ipx_hub_client_count(const struct ipx_hub *hub)
{
	return hub->nclients;
}

size_t ipx_hub_port_count(const struct ipx_hub *hub)
{
	return hub->nports;
}

size_t ipx_hub_learned_count(const struct ipx_hub *hub)
{
	return hub_learn_expire(hub->learned, ipx_loop_now(hub->loop));
}

bool ipx_hub_is_port(const struct ipx_hub *hub,
		     const uint8_t node[IPX_NODE_LEN])
{
	const struct client *c = lookup(hub, node);

	return c && c->port;
}

int ipx_hub_local(const struct ipx_hub *hub, struct sockaddr_in *out)
{
	*out = hub->local;
	return IPX_OK;
}

void ipx_hub_print_stats(const struct ipx_hub *hub, FILE *out)
{
	const struct ipx_hub_stats *s = &hub->stats;
	ipx_time now = ipx_loop_now(hub->loop);

	fprintf(out,
		"clients %zu\nrx_packets %llu\nrx_bytes %llu\ntx_packets %llu\n"
		"tx_bytes %llu\nunicasts %llu\nbroadcasts %llu\n"
		"registrations %llu\njoins %llu\nleaves %llu\n"
		"keepalives %llu\ncontrol %llu\nrouters %zu\nrouted %llu\n"
		"routed_copies %llu\nbridge_ports %zu\nport_announces %llu\n"
		"port_refused %llu\nport_frames %llu\nport_unicasts %llu\n"
		"flooded %llu\nflood_copies %llu\nlearned %zu\n"
		"learn_full %llu\nevicted %llu\n",
		hub->nclients, (unsigned long long)s->rx_packets,
		(unsigned long long)s->rx_bytes,
		(unsigned long long)s->tx_packets,
		(unsigned long long)s->tx_bytes,
		(unsigned long long)s->unicasts,
		(unsigned long long)s->broadcasts,
		(unsigned long long)s->registrations,
		(unsigned long long)s->joins, (unsigned long long)s->leaves,
		(unsigned long long)s->keepalives,
		(unsigned long long)s->control, hub->nrouters,
		(unsigned long long)s->routed,
		(unsigned long long)s->routed_copies, hub->nports,
		(unsigned long long)s->port_announces,
		(unsigned long long)s->port_refused,
		(unsigned long long)s->port_frames,
		(unsigned long long)s->port_unicasts,
		(unsigned long long)s->flooded,
		(unsigned long long)s->flood_copies,
		hub_learn_expire(hub->learned, now),
		(unsigned long long)s->learn_full,
		(unsigned long long)s->evicted);
	for (int d = 0; d < IPX_HUB_DROP_COUNT; d++)
		fprintf(out, "drop_%s %llu\n", drop_names[d],
			(unsigned long long)s->drops[d]);
	if (hub->medium)
		ipx_medium_print_stats(hub->medium, "segment_", out);
	for (struct client *c = hub->newest; c; c = c->older) {
		char a[40], n[13];

		addr_str(&c->addr, a, sizeof(a));
		fprintf(out, "client %s node %s%s rx %llu tx %llu idle %.1fs\n",
			a, ipx_node_format(c->node, n),
			c->router ? " router" : c->port ? " bridge-port" : "",
			(unsigned long long)c->rx_packets,
			(unsigned long long)c->tx_packets,
			(double)(now - c->last_seen) / IPX_SEC);
	}
}
