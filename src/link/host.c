/*
 * host.c - a period machine between a node and its link (host.h): the
 * packet classifier that says what CPU time a packet costs, the CPU queue
 * (one timer for the job in hand and the jobs waiting for the disk), and
 * the disk with its block cache (hash table plus least-recently-used
 * list).
 */
#include "ipxlab/host.h"

#include <stdlib.h>
#include <string.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/loop.h"

enum job_kind { J_TX, J_RX, J_WORK };

struct job {
	struct job *next;
	enum job_kind kind;
	uint64_t ns;		/* CPU time */
	uint64_t ready_ns;	/* may start from (queued, or the disk) */
	uint8_t hop[IPX_NODE_LEN];
	size_t len;
	uint8_t pkt[];
};

struct fifo {
	struct job *head, *tail;
};

/* A cached disk block. */
struct block {
	uint64_t file, no;
	struct block *prev, *next;	/* LRU list, most recent first */
	struct block *hnext;		/* hash chain */
};

struct ipx_host {
	struct ipx_link link;	/* what the node sees */
	struct ipx_link *inner;
	struct ipx_machine m;
	bool server;
	struct fifo run;	/* ready for the CPU, in order */
	struct fifo wait;	/* waiting for the disk, by ready_ns */
	struct job *cur;	/* on the CPU until cpu_free */
	uint64_t cpu_free;	/* ns */
	uint64_t disk_free;	/* ns */
	bool delivering;	/* a received packet is being handled */
	uint64_t hold;		/* what it asked of the disk ends (ns) */
	bool pumping;
	struct ipx_timer timer;
	/* the cache */
	struct block *blocks;	/* cache / cache_block of them */
	struct block **hash;
	size_t nblocks, nhash, used;
	struct block *mru, *lru;
	struct ipx_host_stats stats;
};

/* ---- what a packet costs ---- */

#define NCP_SOCKET 0x451
#define NB_SOCKET 0x455

/* The server's cost kind of an NCP request (after the IPX header). */
static enum ipx_cost_op ncp_kind(const uint8_t *p, size_t n)
{
	uint8_t fn, sub;

	if (n < 7)
		return IPX_COST_NCP_OTHER;
	fn = p[6];
	switch (fn) {
	case 0x48:
		return IPX_COST_NCP_READ;
	case 0x49:
		return IPX_COST_NCP_WRITE;
	case 0x42:
		return IPX_COST_NCP_CLOSE;
	case 0x41: case 0x4C: case 0x54:
		return IPX_COST_NCP_OPEN;
	case 0x43: case 0x4D:
		return IPX_COST_NCP_CREATE;
	case 0x44:
		return IPX_COST_NCP_DELETE;
	case 0x3E: case 0x3F: case 0x40:
		return IPX_COST_NCP_SEARCH;
	case 0x1A: case 0x1B: case 0x1C: case 0x1D: case 0x1E: case 0x1F:
	case 0x6D: case 0x6E: case 0x6F: case 0x70:
		return IPX_COST_NCP_LOCK;
	case 0x57:
		if (n < 8)
			return IPX_COST_NCP_OTHER;
		sub = p[7];
		if (sub == 1)	/* open/create: create when asked to */
			return n > 9 && (p[9] & 0x0A) && !(p[9] & 0x01)
				       ? IPX_COST_NCP_CREATE
				       : IPX_COST_NCP_OPEN;
		if (sub == 2 || sub == 3 || sub == 6 || sub == 20)
			return IPX_COST_NCP_SEARCH;
		if (sub == 8)
			return IPX_COST_NCP_DELETE;
		return IPX_COST_NCP_OTHER;
	default:
		return IPX_COST_NCP_OTHER;
	}
}

uint64_t ipx_host_packet_ns(const struct ipx_machine *m, bool server,
			    bool tx, const uint8_t *pkt, size_t len)
{
	uint64_t ns;
	uint16_t dsock, ssock, ncp;
	enum ipx_cost_op more = IPX_COST_OPS;

	if (!m)
		return 0;
	ns = ipx_machine_cost_ns(m, tx ? IPX_COST_IPX_SEND : IPX_COST_IPX_RECV) +
	     ipx_machine_copy_ns(m, len);
	if (len < IPX_HDR_LEN)
		return ns;
	dsock = ipx_get16(pkt + 16);
	ssock = ipx_get16(pkt + 28);
	ncp = len >= IPX_HDR_LEN + 2 ? ipx_get16(pkt + IPX_HDR_LEN) : 0;
	if (pkt[5] == 5) {
		more = tx ? IPX_COST_SPX_SEND : IPX_COST_SPX_RECV;
	} else if (dsock == NB_SOCKET || ssock == NB_SOCKET) {
		/* session packets: type 4, data stream 6, 7 or 8 */
		bool session = pkt[5] == 4 && len >= IPX_HDR_LEN + 2 &&
			       pkt[IPX_HDR_LEN + 1] >= 6 &&
			       pkt[IPX_HDR_LEN + 1] <= 8;

		more = session ? (tx ? IPX_COST_NB_SESSION_SEND
				     : IPX_COST_NB_SESSION_RECV)
			       : (tx ? IPX_COST_NB_DGRAM_SEND
				     : IPX_COST_NB_DGRAM_RECV);
	} else if (dsock == NCP_SOCKET || ssock == NCP_SOCKET) {
		if (ncp == 0x7777)
			more = IPX_COST_NCP_BURST;
		else if (server && !tx && dsock == NCP_SOCKET)
			more = ncp == 0x2222 ? ncp_kind(pkt + IPX_HDR_LEN,
							len - IPX_HDR_LEN)
					     : IPX_COST_NCP_OTHER;
		else if (!server && tx && dsock == NCP_SOCKET)
			more = IPX_COST_SHELL_REQUEST;
		else if (!server && !tx && ssock == NCP_SOCKET)
			more = IPX_COST_SHELL_REPLY;
	}
	if (more != IPX_COST_OPS)
		ns += ipx_machine_cost_ns(m, more);
	return ns;
}

/* ---- the CPU queue ---- */

static uint64_t now_ns(const struct ipx_host *h)
{
	return (uint64_t)ipx_loop_now(h->link.loop) * 1000;
}

static void push(struct fifo *q, struct job *j)
{
	j->next = NULL;
	if (q->tail)
		q->tail->next = j;
	else
		q->head = j;
	q->tail = j;
}

static struct job *pop(struct fifo *q)
{
	struct job *j = q->head;

	if (j) {
		q->head = j->next;
		if (!q->head)
			q->tail = NULL;
	}
	return j;
}

/* Into the disk wait list, in ready_ns order (equal: in arrival). */
static void wait_insert(struct ipx_host *h, struct job *j)
{
	struct job **pp = &h->wait.head, *prev = NULL;

	while (*pp && (*pp)->ready_ns <= j->ready_ns) {
		prev = *pp;
		pp = &(*pp)->next;
	}
	j->next = *pp;
	*pp = j;
	if (!j->next)
		h->wait.tail = j;
	(void)prev;
}

static void finish(struct ipx_host *h, struct job *j)
{
	switch (j->kind) {
	case J_TX:
		h->stats.tx_packets++;
		if (h->inner->ops->send(h->inner, j->pkt, j->len, j->hop) ==
		    IPX_OK)
			h->inner->ops->flush(h->inner);
		break;
	case J_RX:
		h->stats.rx_packets++;
		if (h->link.rx) {
			h->delivering = true;
			h->hold = 0;
			h->link.stats.rx_packets++;
			h->link.stats.rx_bytes += j->len;
			h->link.rx(&h->link, j->pkt, j->len, h->link.rx_ctx);
			h->delivering = false;
			h->hold = 0;
		}
		break;
	case J_WORK:
		break;
	}
	free(j);
}

static void arm(struct ipx_host *h)
{
	uint64_t at = UINT64_MAX, now = now_ns(h);
	ipx_time when;

	if (h->cur)
		at = h->cpu_free;
	if (h->wait.head && h->wait.head->ready_ns < at)
		at = h->wait.head->ready_ns;
	if (at == UINT64_MAX) {
		ipx_timer_stop(h->link.loop, &h->timer);
		return;
	}
	when = (ipx_time)((at + 999) / 1000);
	ipx_timer_start(h->link.loop, &h->timer,
			at > now ? when - ipx_loop_now(h->link.loop) : 0, 0);
}

/* Run what is due: the job in hand once its time is up, the disk's
 * waiters once their blocks are in, then the next job. */
static void pump(struct ipx_host *h)
{
	uint64_t now;
	bool moved = true;

	if (h->pumping)
		return;
	h->pumping = true;
	while (moved) {
		moved = false;
		now = now_ns(h);
		while (h->wait.head && h->wait.head->ready_ns <= now) {
			push(&h->run, pop(&h->wait));
			moved = true;
		}
		if (h->cur && h->cpu_free <= now) {
			struct job *j = h->cur;

			h->cur = NULL;
			finish(h, j);
			moved = true;
		}
		if (!h->cur && h->run.head) {
			struct job *j = pop(&h->run);
			uint64_t start = j->ready_ns > h->cpu_free ? j->ready_ns
								   : h->cpu_free;

			h->cur = j;
			h->cpu_free = start + j->ns;
			h->stats.cpu_ns += j->ns;
			if (j->kind == J_WORK)
				h->stats.work_ns += j->ns;
			moved = true;
		}
	}
	h->pumping = false;
	arm(h);
}

static void on_timer(struct ipx_loop *loop, struct ipx_timer *t, void *ctx)
{
	(void)loop;
	(void)t;
	pump(ctx);
}

#define IPX_HDR_BYTES 30	/* the IPX header; destination at 6..17 */

/*
 * A packet never overtakes one sent before it to the same destination
 * (IPX network, node and socket): one waiting for the disk holds back the
 * node's later packets to that peer, so a reply sent at once (a repeat's,
 * or a connection's end) cannot pass the held reply it follows. The
 * earliest the packet may go: its own ready time, or the last such
 * packet's.
 */
static uint64_t after_same_dest(const struct ipx_host *h,
				const struct job *j)
{
	uint64_t at = j->ready_ns;

	if (j->len < IPX_HDR_BYTES)
		return at;
	for (const struct job *w = h->wait.head; w; w = w->next)
		if (w->kind == J_TX && w->len >= IPX_HDR_BYTES &&
		    !memcmp(w->pkt + 6, j->pkt + 6, 12) && w->ready_ns > at)
			at = w->ready_ns;
	return at;
}

static int enqueue(struct ipx_host *h, enum job_kind kind, uint64_t ns,
		   const uint8_t *pkt, size_t len, const uint8_t *hop)
{
	struct job *j = malloc(sizeof(*j) + len);
	uint64_t now = now_ns(h);

	if (!j)
		return IPX_ENOMEM;
	j->kind = kind;
	j->ns = ns;
	j->ready_ns = now;
	j->len = len;
	if (len)
		memcpy(j->pkt, pkt, len);
	if (hop)
		memcpy(j->hop, hop, IPX_NODE_LEN);
	if (kind == J_TX && h->delivering && h->hold > now)
		j->ready_ns = h->hold;
	if (kind == J_TX)
		j->ready_ns = after_same_dest(h, j);
	if (j->ready_ns > now) {
		wait_insert(h, j);
	} else {
		push(&h->run, j);
	}
	pump(h);
	return IPX_OK;
}

/* ---- the link the node sees ---- */

static int host_send(struct ipx_link *link, const uint8_t *pkt, size_t len,
		     const uint8_t next_hop[IPX_NODE_LEN])
{
	struct ipx_host *h = (struct ipx_host *)link;

	if (len > link->mtu)
		return IPX_ETOOBIG;
	link->stats.tx_packets++;
	link->stats.tx_bytes += len;
	return enqueue(h, J_TX,
		       ipx_host_packet_ns(&h->m, h->server, true, pkt, len),
		       pkt, len, next_hop);
}

static void host_flush(struct ipx_link *link)
{
	(void)link;	/* the CPU queue sends when each job is done */
}

static void drain(struct fifo *q)
{
	struct job *j;

	while ((j = pop(q)))
		free(j);
}

static void host_close(struct ipx_link *link)
{
	struct ipx_host *h = (struct ipx_host *)link;

	ipx_timer_stop(link->loop, &h->timer);
	drain(&h->run);
	drain(&h->wait);
	free(h->cur);
	ipx_link_close(h->inner);
	free(h->blocks);
	free(h->hash);
	free(h);
}

static const struct ipx_link_ops host_ops = {
	.send = host_send,
	.flush = host_flush,
	.close = host_close,
};

static void inner_rx(struct ipx_link *link, const uint8_t *pkt, size_t len,
		     void *ctx)
{
	struct ipx_host *h = ctx;

	(void)link;
	enqueue(h, J_RX, ipx_host_packet_ns(&h->m, h->server, false, pkt, len),
		pkt, len, NULL);
}

static void inner_state(struct ipx_link *link, bool up, void *ctx)
{
	struct ipx_host *h = ctx;

	h->link.mtu = link->mtu;
	h->link.net = link->net;
	memcpy(h->link.node, link->node, IPX_NODE_LEN);
	ipx_link_set_up(&h->link, up);
}

struct ipx_host *ipx_host_new(struct ipx_link *inner,
			      const struct ipx_machine *m, bool server)
{
	struct ipx_host *h;

	if (!inner || !m)
		return NULL;
	h = calloc(1, sizeof(*h));
	if (!h)
		return NULL;
	h->m = *m;
	h->server = server;
	h->inner = inner;
	if (m->cache && m->cache_block) {
		h->nblocks = m->cache / m->cache_block;
		h->nhash = h->nblocks * 2 + 1;
		h->blocks = calloc(h->nblocks, sizeof(*h->blocks));
		h->hash = calloc(h->nhash, sizeof(*h->hash));
		if (!h->blocks || !h->hash) {
			free(h->blocks);
			free(h->hash);
			free(h);
			return NULL;
		}
	}
	h->link.ops = &host_ops;
	h->link.loop = inner->loop;
	h->link.kind = inner->kind;
	h->link.net = inner->net;
	memcpy(h->link.node, inner->node, IPX_NODE_LEN);
	h->link.mtu = inner->mtu;
	h->link.up = inner->up;
	h->link.single_frame = inner->single_frame;
	h->link.host = h;
	inner->rx = inner_rx;
	inner->rx_ctx = h;
	inner->on_state = inner_state;
	inner->state_ctx = h;
	ipx_timer_init(&h->timer, on_timer, h);
	return h;
}

struct ipx_link *ipx_host_link(struct ipx_host *h)
{
	return &h->link;
}

struct ipx_link *ipx_host_inner(struct ipx_host *h)
{
	return h->inner;
}

const struct ipx_machine *ipx_host_machine(const struct ipx_host *h)
{
	return &h->m;
}

void ipx_host_work(struct ipx_host *h, uint64_t ns)
{
	if (h && ns)
		enqueue(h, J_WORK, ns, NULL, 0, NULL);
}

/* ---- the disk and its cache ---- */

static size_t bucket(const struct ipx_host *h, uint64_t file, uint64_t no)
{
	uint64_t k = file * 0x9E3779B97F4A7C15ull ^ (no + 0x632BE59BD9B4E019ull);

	k ^= k >> 29;
	return (size_t)(k % h->nhash);
}

static void lru_unlink(struct ipx_host *h, struct block *b)
{
	if (b->prev)
		b->prev->next = b->next;
	else
		h->mru = b->next;
	if (b->next)
		b->next->prev = b->prev;
	else
		h->lru = b->prev;
	b->prev = b->next = NULL;
}

static void lru_front(struct ipx_host *h, struct block *b)
{
	b->prev = NULL;
	b->next = h->mru;
	if (h->mru)
		h->mru->prev = b;
	h->mru = b;
	if (!h->lru)
		h->lru = b;
}

static void hash_remove(struct ipx_host *h, struct block *b)
{
	for (struct block **pp = &h->hash[bucket(h, b->file, b->no)]; *pp;
	     pp = &(*pp)->hnext) {
		if (*pp == b) {
			*pp = b->hnext;
			return;
		}
	}
}

/* Is the block cached? It becomes the most recent either way (a miss
 * takes the least recent block's place). */
static bool cache_touch(struct ipx_host *h, uint64_t file, uint64_t no)
{
	size_t i = bucket(h, file, no);
	struct block *b;

	for (b = h->hash[i]; b; b = b->hnext) {
		if (b->file == file && b->no == no) {
			lru_unlink(h, b);
			lru_front(h, b);
			return true;
		}
	}
	if (h->used < h->nblocks) {
		b = &h->blocks[h->used++];
	} else {
		b = h->lru;
		lru_unlink(h, b);
		hash_remove(h, b);
	}
	b->file = file;
	b->no = no;
	b->hnext = h->hash[i];
	h->hash[i] = b;
	lru_front(h, b);
	return false;
}

/* One disk access of len bytes: a seek and the transfer. */
static uint64_t disk_ns(const struct ipx_host *h, uint64_t len)
{
	return h->m.seek_ns +
	       (len * 1000000000ull + h->m.disk_rate - 1) / h->m.disk_rate;
}

/* ns of disk work queued behind what the disk has; with wait, what the
 * node sends while it handles the current packet waits for it. Returns
 * the nanoseconds the caller waits (0 without wait). */
static uint64_t disk_queue(struct ipx_host *h, uint64_t ns, bool wait)
{
	uint64_t now = now_ns(h);
	uint64_t start = h->disk_free > now ? h->disk_free : now;

	h->disk_free = start + ns;
	h->stats.disk_ns += ns;
	if (!wait)
		return 0;
	if (h->delivering && h->disk_free > h->hold)
		h->hold = h->disk_free;
	return h->disk_free - now;
}

uint64_t ipx_host_disk(struct ipx_host *h, uint64_t file, uint64_t off,
		       uint64_t len, bool write)
{
	uint64_t first, last, missed = 0;

	if (!h || !h->m.disk_rate || !len)
		return 0;
	if (!h->nblocks) {	/* no cache: every request goes to the disk */
		missed = len;
	} else {
		uint64_t bs = h->m.cache_block;

		first = off / bs;
		last = (off + len - 1) / bs;
		for (uint64_t b = first; b <= last; b++) {
			bool hit = cache_touch(h, file, b);

			if (write)
				continue;
			if (hit) {
				h->stats.cache_hits++;
			} else {
				h->stats.cache_misses++;
				missed += bs;
			}
		}
		if (write)
			missed = (last - first + 1) * bs;
	}
	if (!missed)
		return 0;
	if (write) {
		h->stats.disk_writes++;
		disk_queue(h, disk_ns(h, missed), false);
		return 0;
	}
	h->stats.disk_reads++;
	return disk_queue(h, disk_ns(h, missed), true);
}

uint64_t ipx_host_disk_sync(struct ipx_host *h, unsigned blocks)
{
	/* a block: the cache's, or a 512-byte sector without a cache */
	uint64_t bs = h && h->m.cache_block ? h->m.cache_block : 512;

	if (!h || !h->m.disk_rate || !blocks)
		return 0;
	h->stats.disk_writes += blocks;
	return disk_queue(h, blocks * disk_ns(h, bs), true);
}

const struct ipx_host_stats *ipx_host_stats(const struct ipx_host *h)
{
	return &h->stats;
}

void ipx_host_reset_stats(struct ipx_host *h)
{
	memset(&h->stats, 0, sizeof(h->stats));
}
