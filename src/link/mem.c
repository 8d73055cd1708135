/*
 * mem.c - the in-memory link driver and its segment (see link_mem.h).
 *
 * Packets in flight wait in a min-heap ordered by (delivery time, sequence)
 * so equal times keep their send order; one segment timer fires for the
 * earliest. Faults come from a xorshift generator with the segment's seed.
 *
 * With a link profile (ipx_mem_segment_set_profile) every link is a station
 * of one medium (link_medium.h): a send waits for the wire and takes its
 * wire time there, and only when it arrives is it copied to the receivers,
 * each copy then meeting the segment's faults as before.
 */
#include "ipxlab/link_mem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipxlab/buf.h"
#include "ipxlab/err.h"
#include "ipxlab/priv/link_medium.h"

struct mem_link {
	struct ipx_link link;
	struct ipx_mem_segment *seg;
	struct mem_link *next;
	struct ipx_medium_station *station;	/* with a profile */
	bool promiscuous;	/* also takes unicasts for other nodes */
	/* The adapter (the profile's unless set): its receive side here,
	 * its transmit side in the medium station. */
	struct ipx_adapter adapter;
	ipx_time rx_free;	/* its last receive copy ends */
	uint32_t rx_held;	/* receive buffers holding frames */
	struct ipx_mem_adapter_stats astats;
};

struct flight {
	ipx_time when;
	uint64_t seq;
	struct mem_link *to;	/* cleared if the link closes meanwhile */
	uint32_t rx_need;	/* receive buffers it holds at 'to' */
	uint8_t from[IPX_NODE_LEN], hop[IPX_NODE_LEN];	/* for the tap */
	size_t len;
	uint8_t pkt[];
};

struct ipx_mem_segment {
	struct ipx_loop *loop;
	uint32_t net;
	uint64_t rng;
	size_t mtu;
	uint32_t next_node;
	struct ipx_mem_faults faults;
	struct ipx_mem_stats stats;
	struct mem_link *links;
	struct flight **heap;
	size_t nheap, capheap;
	uint64_t seq;
	struct ipx_timer timer;
	ipx_mem_tap_cb tap;
	void *tap_ctx;
	struct ipx_medium *medium;	/* the profile's wire, or NULL */
};

static uint64_t rnd(struct ipx_mem_segment *seg)
{
	uint64_t x = seg->rng;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	seg->rng = x;
	return x * 0x2545F4914F6CDD1Dull;
}

/* True with probability ppm / 1e6. */
static bool chance(struct ipx_mem_segment *seg, uint32_t ppm)
{
	return ppm && (rnd(seg) >> 11) % 1000000u < ppm;
}

static bool earlier(const struct flight *a, const struct flight *b)
{
	if (a->when != b->when)
		return ipx_time_before(a->when, b->when);
	return a->seq < b->seq;
}

static void heap_push(struct ipx_mem_segment *seg, struct flight *f)
{
	size_t i = seg->nheap++;

	while (i > 0) {
		size_t parent = (i - 1) / 2;

		if (!earlier(f, seg->heap[parent]))
			break;
		seg->heap[i] = seg->heap[parent];
		i = parent;
	}
	seg->heap[i] = f;
}

static struct flight *heap_pop(struct ipx_mem_segment *seg)
{
	struct flight *top = seg->heap[0], *last = seg->heap[--seg->nheap];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= seg->nheap)
			break;
		if (c + 1 < seg->nheap && earlier(seg->heap[c + 1], seg->heap[c]))
			c++;
		if (!earlier(seg->heap[c], last))
			break;
		seg->heap[i] = seg->heap[c];
		i = c;
	}
	if (seg->nheap)
		seg->heap[i] = last;
	return top;
}

static void arm(struct ipx_mem_segment *seg)
{
	ipx_time now = ipx_loop_now(seg->loop), when;

	if (!seg->nheap) {
		ipx_timer_stop(seg->loop, &seg->timer);
		return;
	}
	when = seg->heap[0]->when;
	ipx_timer_start(seg->loop, &seg->timer,
			ipx_time_before(now, when) ? when - now : 0, 0);
}

static void deliver_due(struct ipx_loop *loop, struct ipx_timer *t, void *ctx)
{
	struct ipx_mem_segment *seg = ctx;
	ipx_time now = ipx_loop_now(loop);
	unsigned budget = ipx_loop_batch(loop) * 16;

	(void)t;
	while (seg->nheap && !ipx_time_before(now, seg->heap[0]->when) &&
	       budget--) {
		struct flight *f = heap_pop(seg);

		if (f->to)
			f->to->rx_held -= f->rx_need;
		if (f->to)	/* it reached the link: the tap sees it */
			ipx_link_tap_ipx(&f->to->link, false, f->pkt, f->len,
					 f->hop, f->from);
		if (f->to && f->to->link.rx) {
			struct ipx_link *l = &f->to->link;

			seg->stats.delivered++;
			l->stats.rx_packets++;
			l->stats.rx_bytes += f->len;
			l->rx(l, f->pkt, f->len, l->rx_ctx);
		}
		free(f);
	}
	arm(seg);
}

/*
 * The receiving adapter: the frame waits in its receive buffers until the
 * host has copied it out, one frame after another (link_profile.h,
 * struct ipx_adapter). Times are the loop's microseconds, rounded up.
 */
static void rx_copy(struct ipx_mem_segment *seg, struct mem_link *to,
		    struct flight *f, size_t len)
{
	const struct ipx_profile *p = ipx_medium_profile(seg->medium);
	const struct ipx_adapter *a = &to->adapter;
	uint64_t ns;

	f->rx_need = ipx_adapter_rx_need(a, p, len);
	ns = ipx_adapter_copy_ns(a, p, len) + f->rx_need * a->rx_cost_ns;
	if (ipx_time_before(f->when, to->rx_free))
		f->when = to->rx_free;
	f->when += (ipx_time)((ns + 999) / 1000);
	to->rx_free = f->when;
	to->rx_held += f->rx_need;
}

/* Has the receiving adapter receive buffers free for a frame of len? */
static bool rx_room(struct ipx_mem_segment *seg, const struct mem_link *to,
		    size_t len)
{
	const struct ipx_adapter *a = &to->adapter;

	if (!seg->medium || !a->memory)
		return true;
	return to->rx_held +
		       ipx_adapter_rx_need(a, ipx_medium_profile(seg->medium),
					   len) <=
	       ipx_adapter_rx_buffers(a);
}

static int enqueue(struct ipx_mem_segment *seg, struct mem_link *to,
		   const struct ipx_link_tap_pkt *p, ipx_time extra)
{
	struct flight *f;

	if (seg->nheap == seg->capheap) {
		size_t cap = seg->capheap ? seg->capheap * 2 : 64;
		struct flight **h = realloc(seg->heap, cap * sizeof(*h));

		if (!h)
			return IPX_ENOMEM;
		seg->heap = h;
		seg->capheap = cap;
	}
	f = malloc(sizeof(*f) + p->len);
	if (!f)
		return IPX_ENOMEM;
	f->when = ipx_loop_now(seg->loop) + seg->faults.delay + extra;
	if (seg->faults.jitter)
		f->when += rnd(seg) % (seg->faults.jitter + 1);
	f->rx_need = 0;
	if (seg->medium && to->adapter.memory)
		rx_copy(seg, to, f, p->len);
	f->seq = seg->seq++;
	f->to = to;
	f->len = p->len;
	memcpy(f->from, p->src, IPX_NODE_LEN);
	memcpy(f->hop, p->dst, IPX_NODE_LEN);
	memcpy(f->pkt, p->data, p->len);
	heap_push(seg, f);
	return IPX_OK;
}

/* One copy toward one receiver, with the segment's faults applied. */
static int offer(struct ipx_mem_segment *seg, struct mem_link *to,
		 const struct ipx_link_tap_pkt *p)
{
	const struct ipx_mem_faults *fl = &seg->faults;
	ipx_time extra = 0;
	int copies = 1, rc = IPX_OK;

	if (chance(seg, fl->loss_ppm)) {
		seg->stats.lost++;
		return IPX_OK;
	}
	if (chance(seg, fl->dup_ppm)) {
		seg->stats.duplicated++;
		copies = 2;
	}
	for (int i = 0; i < copies && rc == IPX_OK; i++) {
		if (!rx_room(seg, to, p->len)) {
			seg->stats.rx_no_buffer++;
			to->astats.rx_no_buffer++;
			continue;
		}
		extra = 0;
		if (chance(seg, fl->reorder_ppm)) {
			seg->stats.reordered++;
			extra = fl->reorder_delay ? fl->reorder_delay
						  : 10 * IPX_MSEC;
		}
		rc = enqueue(seg, to, p, extra);
	}
	return rc;
}

/* A packet from 'self' is on the segment: a copy for each receiver. */
static int fan_out(struct ipx_mem_segment *seg, struct mem_link *self,
		   const uint8_t *pkt, size_t len,
		   const uint8_t next_hop[IPX_NODE_LEN])
{
	bool bcast = ipx_node_is_broadcast(next_hop);
	bool found = false;
	int rc = IPX_OK;
	struct ipx_link_tap_pkt p = { true, false, pkt, len, next_hop,
				      self->link.node };

	for (struct mem_link *m = seg->links; m && rc == IPX_OK; m = m->next) {
		if (m == self)
			continue;
		if (!bcast && !ipx_node_eq(m->link.node, next_hop)) {
			if (m->promiscuous)
				rc = offer(seg, m, &p);
			continue;
		}
		found = true;
		rc = offer(seg, m, &p);
	}
	if (!bcast && !found)
		seg->stats.no_such_node++;
	arm(seg);
	return rc;
}

/* The profile's wire has carried a packet to its end. */
static void on_arrive(struct ipx_medium_station *st, const uint8_t *pkt,
		      size_t len, const uint8_t tag[IPX_MEDIUM_TAG], void *ctx)
{
	fan_out(ctx, ipx_medium_station_ctx(st), pkt, len, tag);
}

static int mem_send(struct ipx_link *link, const uint8_t *pkt, size_t len,
		    const uint8_t next_hop[IPX_NODE_LEN])
{
	struct mem_link *self = (struct mem_link *)link;
	struct ipx_mem_segment *seg = self->seg;

	if (len > link->mtu)
		return IPX_ETOOBIG;
	seg->stats.sent++;
	if (seg->tap)
		seg->tap(pkt, len, link->node, next_hop, seg->tap_ctx);
	ipx_link_tap_ipx(link, true, pkt, len, next_hop, link->node);
	link->stats.tx_packets++;
	link->stats.tx_bytes += len;
	if (len > self->astats.tx_max)
		self->astats.tx_max = len;
	if (self->station) {
		uint8_t tag[IPX_MEDIUM_TAG] = { 0 };
		int rc;

		memcpy(tag, next_hop, IPX_NODE_LEN);
		rc = ipx_medium_send(self->station, pkt, len, tag);
		/* A full queue is an adapter out of buffers: the frame is
		 * gone (and counted), the sender is not told. */
		return rc == IPX_EAGAIN ? IPX_OK : rc;
	}
	return fan_out(seg, self, pkt, len, next_hop);
}

static void mem_flush(struct ipx_link *link)
{
	(void)link;	/* delivery is driven by the segment timer */
}

static void mem_close(struct ipx_link *link)
{
	struct mem_link *self = (struct mem_link *)link;
	struct ipx_mem_segment *seg = self->seg;

	ipx_medium_station_free(self->station);
	for (size_t i = 0; i < seg->nheap; i++)
		if (seg->heap[i]->to == self)
			seg->heap[i]->to = NULL;
	for (struct mem_link **pp = &seg->links; *pp; pp = &(*pp)->next) {
		if (*pp == self) {
			*pp = self->next;
			break;
		}
	}
	free(self);
}

static const struct ipx_link_ops mem_ops = {
	.send = mem_send,
	.flush = mem_flush,
	.close = mem_close,
};

struct ipx_mem_segment *ipx_mem_segment_new(struct ipx_loop *loop,
					    uint32_t net, uint64_t seed)
{
	struct ipx_mem_segment *seg = calloc(1, sizeof(*seg));

	if (!seg)
		return NULL;
	seg->loop = loop;
	seg->net = net;
	seg->rng = seed ? seed : 0x9E3779B97F4A7C15ull;
	seg->mtu = IPX_LAN_PACKET;
	ipx_timer_init(&seg->timer, deliver_due, seg);
	return seg;
}

void ipx_mem_segment_free(struct ipx_mem_segment *seg)
{
	if (!seg)
		return;
	while (seg->links)
		mem_close(&seg->links->link);
	ipx_medium_free(seg->medium);
	for (size_t i = 0; i < seg->nheap; i++)
		free(seg->heap[i]);
	free(seg->heap);
	ipx_timer_stop(seg->loop, &seg->timer);
	free(seg);
}

void ipx_mem_segment_set_faults(struct ipx_mem_segment *seg,
				const struct ipx_mem_faults *faults)
{
	seg->faults = *faults;
}

/* A link's MTU: the segment's, or less if its adapter sends less. */
static size_t link_mtu(const struct ipx_mem_segment *seg,
		       const struct mem_link *m)
{
	size_t mtu = seg->mtu;

	if (seg->medium && m->adapter.memory) {
		size_t a = ipx_adapter_mtu(&m->adapter,
					   ipx_medium_profile(seg->medium));

		if (a < mtu)
			mtu = a;
	}
	return mtu;
}

void ipx_mem_segment_set_mtu(struct ipx_mem_segment *seg, size_t mtu)
{
	seg->mtu = mtu;
	for (struct mem_link *m = seg->links; m; m = m->next)
		m->link.mtu = link_mtu(seg, m);
}

int ipx_mem_link_set_adapter(struct ipx_link *link,
			     const struct ipx_adapter *a, char *err,
			     size_t errlen)
{
	struct mem_link *m = (struct mem_link *)link;
	struct ipx_mem_segment *seg = m->seg;

	if (!seg->medium) {
		snprintf(err, errlen, "the segment has no link profile: an "
				      "adapter needs one");
		return IPX_EINVAL;
	}
	if (ipx_adapter_check(a, ipx_medium_profile(seg->medium), err,
			      errlen) != IPX_OK)
		return IPX_ECONFIG;
	m->adapter = *a;
	ipx_medium_station_set_adapter(m->station, a);
	link->mtu = link_mtu(seg, m);
	return IPX_OK;
}

int ipx_mem_segment_set_profile(struct ipx_mem_segment *seg,
				const struct ipx_profile *profile)
{
	struct ipx_medium *m = NULL;
	size_t mtu = profile ? IPX_MAX_PACKET : IPX_LAN_PACKET;

	if (profile) {
		m = ipx_medium_new(seg->loop, profile, seg->rng ^ 0x5bd1e995,
				   on_arrive, seg);
		if (!m)
			return IPX_ENOMEM;
		if (ipx_profile_mtu(profile) < mtu)
			mtu = ipx_profile_mtu(profile);
	}
	ipx_medium_free(seg->medium);	/* and its stations */
	seg->medium = m;
	for (struct mem_link *l = seg->links; l; l = l->next) {
		l->station = m ? ipx_medium_station_new(m, l) : NULL;
		l->adapter = profile ? profile->adapter
				     : (struct ipx_adapter){ 0 };
		if (m && !l->station) {
			ipx_medium_free(m);
			for (l = seg->links; l; l = l->next)
				l->station = NULL;
			seg->medium = NULL;
			return IPX_ENOMEM;
		}
	}
	ipx_mem_segment_set_mtu(seg, mtu);
	return IPX_OK;
}

const struct ipx_medium *ipx_mem_segment_medium(
	const struct ipx_mem_segment *seg)
{
	return seg->medium;
}

void ipx_mem_segment_set_tap(struct ipx_mem_segment *seg, ipx_mem_tap_cb cb,
			     void *ctx)
{
	seg->tap = cb;
	seg->tap_ctx = ctx;
}

const struct ipx_mem_stats *ipx_mem_segment_stats(
	const struct ipx_mem_segment *seg)
{
	return &seg->stats;
}

struct ipx_link *ipx_mem_link_new(struct ipx_mem_segment *seg,
				  const uint8_t node[IPX_NODE_LEN])
{
	struct mem_link *m;
	uint8_t auto_node[IPX_NODE_LEN] = { 0x02, 0, 0, 0, 0, 0 };

	if (!node) {
		uint32_t n = ++seg->next_node;

		auto_node[2] = (uint8_t)(n >> 24);
		auto_node[3] = (uint8_t)(n >> 16);
		auto_node[4] = (uint8_t)(n >> 8);
		auto_node[5] = (uint8_t)n;
		node = auto_node;
	}
	if (ipx_node_is_broadcast(node) || ipx_node_is_zero(node))
		return NULL;
	for (struct mem_link *o = seg->links; o; o = o->next)
		if (ipx_node_eq(o->link.node, node))
			return NULL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->seg = seg;
	m->link.ops = &mem_ops;
	m->link.loop = seg->loop;
	m->link.kind = "mem";
	m->link.net = seg->net;
	memcpy(m->link.node, node, IPX_NODE_LEN);
	m->link.up = true;
	if (seg->medium)
		m->adapter = ipx_medium_profile(seg->medium)->adapter;
	m->link.mtu = link_mtu(seg, m);
	if (seg->medium) {
		m->station = ipx_medium_station_new(seg->medium, m);
		if (!m->station) {
			free(m);
			return NULL;
		}
	}
	m->next = seg->links;
	seg->links = m;
	return &m->link;
}

void ipx_mem_link_adapter_stats(struct ipx_link *link,
				struct ipx_mem_adapter_stats *out, bool reset)
{
	struct mem_link *m = (struct mem_link *)link;

	*out = m->astats;
	if (reset)
		memset(&m->astats, 0, sizeof(m->astats));
}

void ipx_mem_link_set_promiscuous(struct ipx_link *link, bool on)
{
	((struct mem_link *)link)->promiscuous = on;
}
