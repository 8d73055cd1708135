/*
 * medium.c - frames on a wire with a link profile's timing (see
 * link_medium.h for the model).
 *
 * Scheduling is lazy: a frame is given the wire only once the loop's time
 * has reached the moment the wire comes free, so every frame queued by
 * then competes for it. All times are nanoseconds (loop time * 1000);
 * frames on the wire or propagating wait in their station's arrival list,
 * which is in time order, and one timer fires for the earliest event.
 */
#include "ipxlab/priv/link_medium.h"

#include <stdlib.h>
#include <string.h>

#include "ipxlab/err.h"
#include "ipxlab/priv/drops.h"

struct mframe {
	struct mframe *next;
	uint64_t enq_ns;	/* when it was queued */
	uint64_t at_ns;		/* when it arrives (once on the wire) */
	uint64_t ready_ns;	/* copied into a transmit buffer (0: not
				 * worked out yet) */
	size_t len;
	uint8_t tag[IPX_MEDIUM_TAG];
	uint8_t data[];
};

struct fifo {
	struct mframe *head, *tail;
};

struct ipx_medium_station {
	struct ipx_medium *m;
	void *ctx;
	struct ipx_medium_station *next;	/* in joining order */
	struct fifo queue;			/* waiting for the wire */
	size_t qbytes;
	struct fifo arriving;			/* on the wire or in flight */
	uint64_t busy_ns;			/* own wire free from (access own) */
	struct ipx_adapter adapter;		/* its transmit buffers */
	uint64_t copy_end;			/* the last copy's end */
	uint64_t ends[2];			/* wire ends of the last two */
	uint64_t nsent;				/* frames given the wire */
	struct ipx_medium_station_stats stats;
};

struct ipx_medium {
	struct ipx_loop *loop;
	struct ipx_profile p;
	uint64_t rng;
	ipx_medium_arrive_cb cb;
	void *ctx;
	struct ipx_medium_station *stations;
	struct ipx_medium_station *last;	/* the last to get the wire */
	uint64_t busy_ns;			/* shared wire free from */
	struct ipx_timer timer;
	bool servicing;
	struct ipx_medium_stats stats;
};

IPX_DROP_NAMES(IPX_MEDIUM_DROPS, enum ipx_medium_drop, IPX_MEDIUM_DROP_COUNT,
	       ipx_medium_drop_name)

static void push(struct fifo *q, struct mframe *f)
{
	f->next = NULL;
	if (q->tail)
		q->tail->next = f;
	else
		q->head = f;
	q->tail = f;
}

static struct mframe *pop(struct fifo *q)
{
	struct mframe *f = q->head;

	if (f) {
		q->head = f->next;
		if (!q->head)
			q->tail = NULL;
	}
	return f;
}

static void drain(struct fifo *q)
{
	struct mframe *f;

	while ((f = pop(q)))
		free(f);
}

/* True with probability ppm / 1e6 (xorshift64*, as the mem segment). */
static bool chance(struct ipx_medium *m, uint32_t ppm)
{
	uint64_t x = m->rng;

	if (!ppm)
		return false;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	m->rng = x;
	return ((x * 0x2545F4914F6CDD1Dull) >> 11) % 1000000u < ppm;
}

static uint64_t bits_ns(const struct ipx_medium *m, uint64_t bits)
{
	return m->p.rate ? (bits * 1000000000ull + m->p.rate - 1) / m->p.rate
			 : 0;
}

static uint64_t now_ns(const struct ipx_medium *m)
{
	return ipx_loop_now(m->loop) * 1000ull;
}

/* Put station s's first waiting frame on the wire at 'start'; returns
 * when the wire is free again. */
static uint64_t transmit(struct ipx_medium *m, struct ipx_medium_station *s,
			 uint64_t start, bool contended)
{
	struct mframe *f = pop(&s->queue);
	uint64_t lost_ns = 0, wire, end;

	s->qbytes -= f->len;
	if (contended) {
		m->stats.contended++;
		lost_ns = bits_ns(m, m->p.contention_bits);
	}
	wire = ipx_profile_wire_ns(&m->p, f->len);
	end = start + lost_ns + wire;
	f->at_ns = end + m->p.delay_ns;
	if (m->p.access == IPX_ACCESS_TOKEN)
		end += bits_ns(m, m->p.token_bits);
	s->ends[s->nsent++ % 2] = start + lost_ns + wire;
	m->stats.busy_ns += end - start;
	s->stats.busy_ns += end - start;
	s->stats.frames++;
	s->stats.bytes += f->len;
	if (chance(m, m->p.loss_ppm)) {
		m->stats.drops[IPX_MEDIUM_DROP_LOST]++;
		free(f);
	} else {
		push(&s->arriving, f);
	}
	return end;
}

/*
 * When station s's first waiting frame is in a transmit buffer, ready for
 * the wire: without an adapter model, when it was queued; with one, its
 * copy starts once it was queued, the previous copy is done and a buffer
 * is free (the frame tx_buffers before it has left the wire), and takes
 * the adapter's copy time. Worked out once, when the frame is first.
 */
static uint64_t head_ready(struct ipx_medium *m, struct ipx_medium_station *s)
{
	struct mframe *f = s->queue.head;
	const struct ipx_adapter *a = &s->adapter;
	uint64_t start;

	if (!a->memory)
		return f->enq_ns;
	if (f->ready_ns)
		return f->ready_ns;
	start = f->enq_ns;
	if (s->copy_end > start)
		start = s->copy_end;
	if (s->nsent >= a->tx_buffers &&
	    s->ends[(s->nsent - a->tx_buffers) % 2] > start)
		start = s->ends[(s->nsent - a->tx_buffers) % 2];
	f->ready_ns = start + ipx_adapter_copy_ns(a, &m->p, f->len);
	if (!f->ready_ns)
		f->ready_ns = 1;
	s->copy_end = f->ready_ns;
	return f->ready_ns;
}

/* The shared wire: hand it out, in turn, until it is busy past 'now'. */
static void run_shared(struct ipx_medium *m, uint64_t now)
{
	while (m->busy_ns <= now) {
		struct ipx_medium_station *pick = NULL, *s, *first;
		uint64_t t0 = UINT64_MAX;
		unsigned ready = 0;

		for (s = m->stations; s; s = s->next)
			if (s->queue.head && head_ready(m, s) < t0)
				t0 = head_ready(m, s);
		if (t0 == UINT64_MAX || t0 > now)
			return;	/* nothing in a buffer yet: arm() waits */
		if (t0 < m->busy_ns)
			t0 = m->busy_ns;
		/* Round robin from the station after the last sender. */
		first = m->last && m->last->next ? m->last->next
						 : m->stations;
		s = first;
		do {
			if (s->queue.head && head_ready(m, s) <= t0) {
				ready++;
				if (!pick)
					pick = s;
			}
			s = s->next ? s->next : m->stations;
		} while (s != first);
		m->last = pick;
		m->busy_ns = transmit(m, pick, t0,
				      ready > 1 &&
					      m->p.access == IPX_ACCESS_CSMA_CD);
	}
}

/* Own wires: each station sends its queue back to back. */
static void run_own(struct ipx_medium *m, uint64_t now)
{
	for (struct ipx_medium_station *s = m->stations; s; s = s->next) {
		while (s->queue.head && s->busy_ns <= now &&
		       head_ready(m, s) <= now) {
			uint64_t t0 = head_ready(m, s);

			if (t0 < s->busy_ns)
				t0 = s->busy_ns;
			s->busy_ns = transmit(m, s, t0, false);
		}
	}
}

/* The earliest frame due by 'now' in any arrival list, or NULL. */
static struct ipx_medium_station *next_arrival(struct ipx_medium *m,
					       uint64_t now)
{
	struct ipx_medium_station *best = NULL;

	for (struct ipx_medium_station *s = m->stations; s; s = s->next) {
		struct mframe *f = s->arriving.head;

		if (f && f->at_ns <= now &&
		    (!best || f->at_ns < best->arriving.head->at_ns))
			best = s;
	}
	return best;
}

static void arm(struct ipx_medium *m, uint64_t now)
{
	uint64_t next = UINT64_MAX, ready = UINT64_MAX, us;

	for (struct ipx_medium_station *s = m->stations; s; s = s->next) {
		if (s->arriving.head && s->arriving.head->at_ns < next)
			next = s->arriving.head->at_ns;
		if (s->queue.head) {
			uint64_t r = head_ready(m, s);

			if (m->p.access == IPX_ACCESS_OWN) {
				if (r < s->busy_ns)
					r = s->busy_ns;
				if (r < next)
					next = r;
			} else if (r < ready) {
				ready = r;
			}
		}
	}
	/* A shared wire: the next frame goes when it is ready and the wire
	 * is free. */
	if (ready != UINT64_MAX) {
		if (ready < m->busy_ns)
			ready = m->busy_ns;
		if (ready < next)
			next = ready;
	}
	if (next == UINT64_MAX) {
		ipx_timer_stop(m->loop, &m->timer);
		return;
	}
	us = (next + 999) / 1000;
	ipx_timer_start(m->loop, &m->timer,
			us * 1000 > now ? us - now / 1000 : 0, 0);
}

static void service(struct ipx_loop *loop, struct ipx_timer *t, void *ctx)
{
	struct ipx_medium *m = ctx;
	uint64_t now = now_ns(m);
	struct ipx_medium_station *s;
	unsigned budget = ipx_loop_batch(loop) * 16;

	(void)t;
	m->servicing = true;
	if (m->p.access == IPX_ACCESS_OWN)
		run_own(m, now);
	else
		run_shared(m, now);
	while (budget-- && (s = next_arrival(m, now))) {
		struct mframe *f = pop(&s->arriving);

		m->stats.frames++;
		m->stats.bytes += f->len;
		m->cb(s, f->data, f->len, f->tag, m->ctx);
		free(f);
	}
	m->servicing = false;
	arm(m, now);
}

struct ipx_medium *ipx_medium_new(struct ipx_loop *loop,
				  const struct ipx_profile *profile,
				  uint64_t seed, ipx_medium_arrive_cb cb,
				  void *ctx)
{
	struct ipx_medium *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->loop = loop;
	m->p = *profile;
	m->rng = seed ? seed : 0x9E3779B97F4A7C15ull;
	m->cb = cb;
	m->ctx = ctx;
	ipx_timer_init(&m->timer, service, m);
	return m;
}

void ipx_medium_free(struct ipx_medium *m)
{
	if (!m)
		return;
	while (m->stations)
		ipx_medium_station_free(m->stations);
	ipx_timer_stop(m->loop, &m->timer);
	free(m);
}

const struct ipx_profile *ipx_medium_profile(const struct ipx_medium *m)
{
	return &m->p;
}

struct ipx_medium_station *ipx_medium_station_new(struct ipx_medium *m,
						  void *ctx)
{
	struct ipx_medium_station *s = calloc(1, sizeof(*s)), **pp;

	if (!s)
		return NULL;
	s->m = m;
	s->ctx = ctx;
	s->adapter = m->p.adapter;
	for (pp = &m->stations; *pp; pp = &(*pp)->next)
		;
	*pp = s;
	return s;
}

void ipx_medium_station_free(struct ipx_medium_station *s)
{
	struct ipx_medium *m;

	if (!s)
		return;
	m = s->m;
	for (struct ipx_medium_station **pp = &m->stations; *pp;
	     pp = &(*pp)->next) {
		if (*pp == s) {
			*pp = s->next;
			break;
		}
	}
	/* Round robin goes on from whoever followed it. */
	if (m->last == s)
		m->last = NULL;
	drain(&s->queue);
	drain(&s->arriving);
	free(s);
}

void *ipx_medium_station_ctx(const struct ipx_medium_station *s)
{
	return s->ctx;
}

int ipx_medium_send(struct ipx_medium_station *s, const uint8_t *pkt,
		    size_t len, const uint8_t *tag)
{
	struct ipx_medium *m = s->m;
	struct mframe *f;

	if (len + m->p.header > m->p.max_frame) {
		m->stats.drops[IPX_MEDIUM_DROP_TOO_BIG]++;
		s->stats.drops++;
		return IPX_ETOOBIG;
	}
	if (s->qbytes + len > m->p.queue) {
		m->stats.drops[IPX_MEDIUM_DROP_QUEUE_FULL]++;
		s->stats.drops++;
		return IPX_EAGAIN;
	}
	f = malloc(sizeof(*f) + len);
	if (!f) {
		m->stats.drops[IPX_MEDIUM_DROP_NOMEM]++;
		s->stats.drops++;
		return IPX_ENOMEM;
	}
	f->enq_ns = now_ns(m);
	f->ready_ns = 0;
	f->len = len;
	memset(f->tag, 0, sizeof(f->tag));
	if (tag)
		memcpy(f->tag, tag, IPX_MEDIUM_TAG);
	memcpy(f->data, pkt, len);
	push(&s->queue, f);
	s->qbytes += len;
	/* Never deliver inside send(): the loop runs the medium next. */
	if (!m->servicing)
		ipx_timer_start(m->loop, &m->timer, 0, 0);
	return IPX_OK;
}

void ipx_medium_station_set_adapter(struct ipx_medium_station *s,
				    const struct ipx_adapter *a)
{
	s->adapter = *a;
}

const struct ipx_adapter *ipx_medium_station_adapter(
	const struct ipx_medium_station *s)
{
	return &s->adapter;
}

size_t ipx_medium_station_queued(const struct ipx_medium_station *s)
{
	return s->qbytes;
}

const struct ipx_medium_station_stats *ipx_medium_station_stats(
	const struct ipx_medium_station *s)
{
	return &s->stats;
}

const struct ipx_medium_stats *ipx_medium_stats(const struct ipx_medium *m)
{
	return &m->stats;
}

void ipx_medium_print_stats(const struct ipx_medium *m, const char *prefix,
			    FILE *out)
{
	const struct ipx_medium_stats *s = &m->stats;

	fprintf(out,
		"%sprofile %s\n%sframes %llu\n%sbytes %llu\n%sbusy_ms %.3f\n"
		"%scontended %llu\n",
		prefix, m->p.name, prefix, (unsigned long long)s->frames,
		prefix, (unsigned long long)s->bytes, prefix,
		(double)s->busy_ns / 1e6, prefix,
		(unsigned long long)s->contended);
	for (int d = 0; d < IPX_MEDIUM_DROP_COUNT; d++)
		fprintf(out, "%sdrop_%s %llu\n", prefix, drop_names[d],
			(unsigned long long)s->drops[d]);
}
