/*
 * wan.c - two bridge modules over a trunk (see wan.h for the model).
 *
 * The learning table is open addressing over a fixed 4,096 slots (more
 * stations than a 1990 bridged LAN had); once full, new nodes are not
 * learnt and their frames cross, as an unknown destination's do. Held
 * frames wait in a FIFO per module; the trunk is one medium with a
 * station per direction, its queue the transmit buffer.
 */
#include "ipxlab/wan.h"

#include <stdlib.h>
#include <string.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/ipx.h"
#include "ipxlab/priv/drops.h"
#include "ipxlab/priv/link_medium.h"

#define LEARN_SLOTS 4096

struct held {
	struct held *next;
	size_t len;
	uint8_t pkt[];
};

struct module {
	struct ipx_wan *w;
	unsigned side;
	struct held *head, *tail;
	size_t held_bytes;
	struct ipx_timer hold;
	struct ipx_medium_station *trunk;	/* this module -> the other */
	struct ipx_wan_module_stats stats;
};

struct learnt {
	uint8_t node[IPX_NODE_LEN];
	uint8_t side;		/* 0, 1; 0xFF: empty slot */
};

struct ipx_wan {
	struct ipx_loop *loop;
	struct ipx_profile p;
	ipx_wan_out_cb out;
	void *ctx;
	struct ipx_medium *trunk;
	struct module mod[2];
	ipx_time started;
	struct learnt table[LEARN_SLOTS];
};

IPX_DROP_NAMES(IPX_WAN_DROPS, enum ipx_wan_drop, IPX_WAN_DROP_COUNT,
	       ipx_wan_drop_name)

static struct learnt *slot(struct ipx_wan *w, const uint8_t node[IPX_NODE_LEN],
			   bool add)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (int i = 0; i < IPX_NODE_LEN; i++)
		h = (h ^ node[i]) * 0x100000001b3ull;
	for (unsigned i = 0; i < LEARN_SLOTS; i++) {
		struct learnt *e = &w->table[(h + i) % LEARN_SLOTS];

		if (e->side == 0xFF) {
			if (!add)
				return NULL;
			memcpy(e->node, node, IPX_NODE_LEN);
			return e;
		}
		if (ipx_node_eq(e->node, node))
			return e;
	}
	return NULL;	/* full */
}

/* Everything held goes into the transmit buffer, in order. */
static void release(struct module *m, bool by_timer)
{
	struct held *h;
	uint64_t n = 0;

	if (!m->head)
		return;
	ipx_timer_stop(m->w->loop, &m->hold);
	while ((h = m->head)) {
		int rc = ipx_medium_send(m->trunk, h->pkt, h->len, NULL);

		m->head = h->next;
		if (rc == IPX_ETOOBIG)
			m->stats.drops[IPX_WAN_DROP_TOO_BIG]++;
		else if (rc != IPX_OK)
			m->stats.drops[IPX_WAN_DROP_TX_FULL]++;
		free(h);
		n++;
	}
	m->tail = NULL;
	m->held_bytes = 0;
	if (by_timer) {
		m->stats.timer_releases++;
		m->stats.timer_frames += n;
	} else {
		m->stats.fill_releases++;
		m->stats.fill_frames += n;
	}
}

static void on_hold(struct ipx_loop *loop, struct ipx_timer *t, void *ctx)
{
	(void)loop;
	(void)t;
	release(ctx, true);
}

/* The block released by fill: the profile's release, or else the whole
 * receive buffer. */
static size_t block(const struct ipx_wan *w)
{
	return w->p.release ? w->p.release : w->p.rx_buffer;
}

static void hold(struct module *m, const uint8_t *pkt, size_t len)
{
	struct held *h;

	if (m->held_bytes + len > block(m->w))
		release(m, false);
	h = malloc(sizeof(*h) + len);
	if (!h) {
		m->stats.drops[IPX_WAN_DROP_TX_FULL]++;
		return;
	}
	h->next = NULL;
	h->len = len;
	memcpy(h->pkt, pkt, len);
	if (m->tail)
		m->tail->next = h;
	else
		m->head = h;
	m->tail = h;
	if (!m->held_bytes)
		ipx_timer_start(m->w->loop, &m->hold, m->w->p.hold_ns / 1000,
				0);
	m->held_bytes += len;
	m->stats.held++;
	m->stats.held_bytes += len;
	if (m->w->p.release_at && m->held_bytes >= m->w->p.release_at)
		release(m, false);	/* full: it goes now */
}

void ipx_wan_input(struct ipx_wan *w, unsigned side, const uint8_t *pkt,
		   size_t len)
{
	struct module *m = &w->mod[side & 1];
	struct ipx_header h;
	struct learnt *e;

	m->stats.seen++;
	if (ipx_header_decode(pkt, len, &h) != IPX_OK) {
		m->stats.drops[IPX_WAN_DROP_BAD_IPX]++;
		return;
	}
	len = h.length;
	if (!ipx_node_is_broadcast(h.src.node) &&
	    (e = slot(w, h.src.node, true)))
		e->side = (uint8_t)m->side;
	if (!ipx_node_is_broadcast(h.dst.node) &&
	    (e = slot(w, h.dst.node, false)) && e->side == m->side) {
		m->stats.filtered++;
		return;
	}
	if (w->p.bridge_max && len > w->p.bridge_max) {
		m->stats.drops[IPX_WAN_DROP_TOO_BIG]++;
		return;
	}
	hold(m, pkt, len);
}

/* A frame reached the far end of the trunk. */
static void on_trunk(struct ipx_medium_station *st, const uint8_t *pkt,
		     size_t len, const uint8_t tag[IPX_MEDIUM_TAG], void *ctx)
{
	struct module *m = ipx_medium_station_ctx(st);
	struct ipx_wan *w = ctx;

	(void)tag;
	m->stats.crossed++;
	m->stats.crossed_bytes += len;
	w->out(!m->side, pkt, len, w->ctx);
}

int ipx_wan_new(struct ipx_loop *loop, const struct ipx_profile *profile,
		uint64_t seed, ipx_wan_out_cb out, void *ctx,
		struct ipx_wan **out_wan)
{
	struct ipx_wan *w;
	struct ipx_profile trunk;

	if (!profile->rx_buffer || !profile->tx_buffer)
		return IPX_EINVAL;
	w = calloc(1, sizeof(*w));
	if (!w)
		return IPX_ENOMEM;
	w->loop = loop;
	w->p = *profile;
	w->out = out;
	w->ctx = ctx;
	w->started = ipx_loop_now(loop);
	memset(w->table, 0xFF, sizeof(w->table));
	trunk = *profile;
	trunk.access = IPX_ACCESS_OWN;	/* one wire each way */
	trunk.queue = profile->tx_buffer;
	w->trunk = ipx_medium_new(loop, &trunk, seed, on_trunk, w);
	if (!w->trunk) {
		free(w);
		return IPX_ENOMEM;
	}
	for (unsigned s = 0; s < 2; s++) {
		struct module *m = &w->mod[s];

		m->w = w;
		m->side = s;
		ipx_timer_init(&m->hold, on_hold, m);
		m->trunk = ipx_medium_station_new(w->trunk, m);
		if (!m->trunk) {
			ipx_wan_free(w);
			return IPX_ENOMEM;
		}
	}
	*out_wan = w;
	return IPX_OK;
}

void ipx_wan_free(struct ipx_wan *w)
{
	if (!w)
		return;
	for (unsigned s = 0; s < 2; s++) {
		struct module *m = &w->mod[s];

		ipx_timer_stop(w->loop, &m->hold);
		while (m->head) {
			struct held *h = m->head;

			m->head = h->next;
			free(h);
		}
	}
	ipx_medium_free(w->trunk);
	free(w);
}

size_t ipx_wan_held(const struct ipx_wan *w, unsigned side)
{
	return w->mod[side & 1].held_bytes;
}

const struct ipx_wan_module_stats *ipx_wan_stats(const struct ipx_wan *w,
						 unsigned side)
{
	struct ipx_wan *mw = (struct ipx_wan *)w;
	struct module *m = &mw->mod[side & 1];

	m->stats.trunk_busy_ns = m->trunk
					 ? ipx_medium_station_stats(m->trunk)
						   ->busy_ns
					 : 0;
	return &m->stats;
}

void ipx_wan_print_stats(const struct ipx_wan *w, FILE *out)
{
	ipx_time elapsed = ipx_loop_now(w->loop) - w->started;

	for (unsigned s = 0; s < 2; s++) {
		const struct ipx_wan_module_stats *st = ipx_wan_stats(w, s);
		char p = s ? 'b' : 'a';

		fprintf(out,
			"%c_seen %llu\n%c_filtered %llu\n%c_held %llu\n"
			"%c_held_bytes %llu\n%c_fill_releases %llu\n"
			"%c_fill_frames %llu\n%c_timer_releases %llu\n"
			"%c_timer_frames %llu\n%c_crossed %llu\n"
			"%c_crossed_bytes %llu\n%c_trunk_utilisation %.1f%%\n",
			p, (unsigned long long)st->seen, p,
			(unsigned long long)st->filtered, p,
			(unsigned long long)st->held, p,
			(unsigned long long)st->held_bytes, p,
			(unsigned long long)st->fill_releases, p,
			(unsigned long long)st->fill_frames, p,
			(unsigned long long)st->timer_releases, p,
			(unsigned long long)st->timer_frames, p,
			(unsigned long long)st->crossed, p,
			(unsigned long long)st->crossed_bytes, p,
			elapsed ? 100.0 * (double)st->trunk_busy_ns /
					  ((double)elapsed * 1000.0)
				: 0.0);
		for (int d = 0; d < IPX_WAN_DROP_COUNT; d++)
			fprintf(out, "%c_drop_%s %llu\n", p, drop_names[d],
				(unsigned long long)st->drops[d]);
	}
	ipx_medium_print_stats(w->trunk, "trunk_", out);
}
