/*
 * sap.c - IPX SAP: codec and agent (see sap.h and docs/sap.md).
 *
 * One table holds the node's own services (hops 0, never expiring) and,
 * on a router, every service heard, keyed by type and name, with the link
 * and neighbour it came from (split horizon) and when it was last heard.
 * Hops are kept as received and raised by one whenever an entry is sent.
 */
#include "ipxlab/sap.h"

#include <stdlib.h>
#include <string.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/log.h"
#include "ipxlab/priv/drops.h"

#define DEFAULT_PERIOD (60 * IPX_SEC)
#define DEFAULT_EXPIRY (180 * IPX_SEC)

struct svc {
	struct ipx_sap_entry e;	/* hops as received; 0 for ours */
	struct ipx_link *link;	/* heard on; NULL for ours */
	uint8_t via[IPX_NODE_LEN];
	ipx_time updated;
	bool local;
};

struct ipx_sap {
	struct ipx_node *node;
	struct ipx_loop *loop;
	struct ipx_sap_options opts;
	struct ipx_socket *sock;
	struct ipx_timer periodic, expire;
	struct svc *svcs;
	size_t nsvcs, capsvcs;
	ipx_sap_response_cb on_response;
	void *on_response_ctx;
	struct ipx_sap_stats stats;
};

IPX_DROP_NAMES(IPX_SAP_DROPS, enum ipx_sap_drop, IPX_SAP_DROP_COUNT,
	       ipx_sap_drop_name)

const char *ipx_sap_type_name(uint16_t type)
{
	static const struct {
		uint16_t type;
		const char *name;
	} names[] = {
		{ 0x0001, "user" },		{ 0x0002, "user group" },
		{ 0x0003, "print queue" },	{ 0x0004, "file server" },
		{ 0x0005, "job server" },	{ 0x0006, "gateway" },
		{ 0x0007, "print server" },	{ 0x0008, "archive queue" },
		{ 0x0009, "archive server" },	{ 0x000A, "job queue" },
		{ 0x000B, "administration" },	{ 0x0017, "diagnostics" },
		{ 0x0020, "NetBIOS" },		{ 0x0024, "routing service" },
		{ 0x0027, "TCP/IP gateway" },	{ 0x0047, "print server" },
		{ 0x004B, "Btrieve" },		{ 0x0107, "remote console" },
		{ 0x026B, "time sync" },	{ 0x0278, "directory server" },
		{ 0x9B1B, "ipxlab benchmark agent" },	/* bench_harness.h */
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].type == type)
			return names[i].name;
	return NULL;
}

/* ---- codec ---- */

bool ipx_sap_name_ok(const char *name)
{
	size_t n = 0;

	for (; name[n]; n++)
		if ((unsigned char)name[n] < 0x20 ||
		    (unsigned char)name[n] > 0x7E || n >= IPX_SAP_NAME_MAX)
			return false;
	return n > 0;
}

/* One 64-byte entry; false if it is bad. */
static bool decode_entry(const uint8_t *p, struct ipx_sap_entry *e)
{
	const uint8_t *nul = memchr(p + 2, 0, IPX_SAP_NAME_FIELD);

	if (!nul)
		return false;
	e->type = ipx_get16(p);
	memcpy(e->name, p + 2, (size_t)(nul - (p + 2)) + 1);
	ipx_addr_read(p + 50, &e->addr);
	e->hops = ipx_get16(p + 62);
	return e->type != 0 && e->type != IPX_SAP_ANY_TYPE &&
	       e->addr.net != 0xFFFFFFFFu && ipx_sap_name_ok(e->name);
}

int ipx_sap_decode(const uint8_t *p, size_t len, struct ipx_sap_msg *out,
		   enum ipx_sap_drop *why)
{
	enum ipx_sap_drop d;
	uint16_t op;

	memset(out, 0, offsetof(struct ipx_sap_msg, entries));
	if (len < 2) {
		d = IPX_SAP_DROP_SHORT;
		goto bad;
	}
	op = ipx_get16(p);
	out->op = op;
	if (op < IPX_SAP_GENERAL_QUERY || op > IPX_SAP_NEAREST_RESPONSE) {
		d = IPX_SAP_DROP_BAD_OP;
		goto bad;
	}
	if (op == IPX_SAP_GENERAL_QUERY || op == IPX_SAP_NEAREST_QUERY) {
		if (len != IPX_SAP_QUERY_LEN) {
			d = IPX_SAP_DROP_BAD_LENGTH;
			goto bad;
		}
		out->query_type = ipx_get16(p + 2);
		return IPX_OK;
	}
	if ((len - 2) % IPX_SAP_ENTRY_LEN) {
		d = IPX_SAP_DROP_BAD_LENGTH;
		goto bad;
	}
	if (len == 2) {
		d = IPX_SAP_DROP_EMPTY;
		goto bad;
	}
	if ((len - 2) / IPX_SAP_ENTRY_LEN > IPX_SAP_MAX_ENTRIES) {
		d = IPX_SAP_DROP_TOO_MANY;
		goto bad;
	}
	for (size_t i = 0; i < (len - 2) / IPX_SAP_ENTRY_LEN; i++) {
		if (decode_entry(p + 2 + i * IPX_SAP_ENTRY_LEN,
				 &out->entries[out->count]))
			out->count++;
		else
			out->bad++;
	}
	return IPX_OK;
bad:
	if (why)
		*why = d;
	return IPX_EINVAL;
}

size_t ipx_sap_encode(const struct ipx_sap_msg *msg, uint8_t *out, size_t cap)
{
	size_t len;

	if (msg->op == IPX_SAP_GENERAL_QUERY ||
	    msg->op == IPX_SAP_NEAREST_QUERY) {
		if (cap < IPX_SAP_QUERY_LEN)
			return 0;
		ipx_put16(out, msg->op);
		ipx_put16(out + 2, msg->query_type);
		return IPX_SAP_QUERY_LEN;
	}
	len = 2 + msg->count * IPX_SAP_ENTRY_LEN;
	if (msg->count > IPX_SAP_MAX_ENTRIES || len > cap)
		return 0;
	ipx_put16(out, msg->op);
	for (size_t i = 0; i < msg->count; i++) {
		const struct ipx_sap_entry *e = &msg->entries[i];
		uint8_t *q = out + 2 + i * IPX_SAP_ENTRY_LEN;

		ipx_put16(q, e->type);
		memset(q + 2, 0, IPX_SAP_NAME_FIELD);
		memcpy(q + 2, e->name, strnlen(e->name, IPX_SAP_NAME_MAX));
		ipx_addr_write(q + 50, &e->addr);
		ipx_put16(q + 62, e->hops);
	}
	return len;
}

/* ---- sending ---- */

static void bcast_on(const struct ipx_link *link, struct ipx_addr *a)
{
	a->net = link->net;
	memcpy(a->node, ipx_node_broadcast, IPX_NODE_LEN);
	a->socket = IPX_SOCK_SAP;
}

/* Where a batch of entries goes: out a link, or as an answer. */
struct dest {
	struct ipx_link *link;		/* with to */
	struct ipx_addr to;
	const struct ipx_header *req;	/* or the answer to this */
};

static void send_msg(struct ipx_sap *sap, const struct dest *d,
		     const struct ipx_sap_msg *msg)
{
	uint8_t buf[IPX_SAP_MAX_LEN];
	size_t len = ipx_sap_encode(msg, buf, sizeof(buf));
	bool query = msg->op == IPX_SAP_GENERAL_QUERY ||
		     msg->op == IPX_SAP_NEAREST_QUERY;
	int rc;

	if (!len || (!query && !msg->count))
		return;
	if (d->req)
		rc = ipx_socket_reply(sap->sock, d->req, IPX_TYPE_PEP, buf, len);
	else if (d->link)
		rc = ipx_socket_sendto_link(sap->sock, d->link, &d->to,
					    IPX_TYPE_PEP, buf, len);
	else
		rc = ipx_socket_sendto(sap->sock, &d->to, IPX_TYPE_PEP, buf,
				       len);
	if (rc != IPX_OK)
		sap->stats.drops[IPX_SAP_DROP_TX]++;
	else if (query)
		sap->stats.tx_queries++;
	else
		sap->stats.tx_responses++;
}

/* Append one entry as sent (hops raised, or 16), flushing when full. */
static void put(struct ipx_sap *sap, const struct dest *d,
		struct ipx_sap_msg *msg, const struct svc *s, bool down)
{
	struct ipx_sap_entry *e;

	if (msg->count == IPX_SAP_MAX_ENTRIES) {
		send_msg(sap, d, msg);
		msg->count = 0;
	}
	e = &msg->entries[msg->count++];
	*e = s->e;
	e->hops = down ? IPX_SAP_DOWN : (uint16_t)(s->e.hops + 1);
}

/* Whether a node on 'link' hears about s from us: not back where it came
 * from, not at 16 hops, not when its network has no route. */
static bool heard_on(const struct ipx_sap *sap, const struct svc *s,
		     const struct ipx_link *link)
{
	struct ipx_route r;

	if (s->local)
		return true;
	if (s->link == link || s->e.hops + 1 >= IPX_SAP_DOWN)
		return false;
	return s->e.addr.net == 0 ||
	       ipx_node_route_lookup(sap->node, s->e.addr.net, &r) == IPX_OK;
}

/* Entries matching 'type' (FFFF: any) as heard on 'link', sent to d. */
static void send_entries(struct ipx_sap *sap, const struct dest *d,
			 const struct ipx_link *link, uint16_t type)
{
	struct ipx_sap_msg msg = { .op = IPX_SAP_GENERAL_RESPONSE };

	for (size_t i = 0; i < sap->nsvcs; i++) {
		const struct svc *s = &sap->svcs[i];

		if ((type == IPX_SAP_ANY_TYPE || s->e.type == type) &&
		    heard_on(sap, s, link))
			put(sap, d, &msg, s, false);
	}
	send_msg(sap, d, &msg);
}

/* The periodic broadcast: the table as heard on each link. */
static void broadcast(struct ipx_sap *sap)
{
	for (size_t i = 0; i < ipx_node_link_count(sap->node); i++) {
		struct dest d = { .link = ipx_node_link(sap->node, i) };

		if (!d.link->up)
			continue;
		bcast_on(d.link, &d.to);
		send_entries(sap, &d, d.link, IPX_SAP_ANY_TYPE);
	}
}

static void periodic(struct ipx_loop *loop, struct ipx_timer *t, void *ctx)
{
	(void)loop;
	(void)t;
	broadcast(ctx);
}

/* ---- the table ---- */

static struct svc *find(const struct ipx_sap *sap, uint16_t type,
			const char *name)
{
	for (size_t i = 0; i < sap->nsvcs; i++)
		if (sap->svcs[i].e.type == type &&
		    !strcmp(sap->svcs[i].e.name, name))
			return &sap->svcs[i];
	return NULL;
}

static struct svc *add(struct ipx_sap *sap)
{
	if (sap->nsvcs == sap->capsvcs) {
		size_t cap = sap->capsvcs ? sap->capsvcs * 2 : 16;
		struct svc *v = realloc(sap->svcs, cap * sizeof(*v));

		if (!v)
			return NULL;
		sap->svcs = v;
		sap->capsvcs = cap;
	}
	memset(&sap->svcs[sap->nsvcs], 0, sizeof(*sap->svcs));
	return &sap->svcs[sap->nsvcs++];
}

static void remove_at(struct ipx_sap *sap, size_t i)
{
	sap->svcs[i] = sap->svcs[--sap->nsvcs];
}

/*
 * Tell every link about the entries marked in 'changed' (down: going
 * down), then drop those marked 'gone'. The flags are per table index.
 */
static void announce(struct ipx_sap *sap, bool *changed, bool *gone)
{
	bool any = false;

	for (size_t i = 0; i < sap->nsvcs && !any; i++)
		any = changed[i] || gone[i];
	if (!any)
		return;
	for (size_t i = 0; i < ipx_node_link_count(sap->node); i++) {
		struct ipx_link *l = ipx_node_link(sap->node, i);
		struct dest d = { .link = l };
		struct ipx_sap_msg msg = { .op = IPX_SAP_GENERAL_RESPONSE };

		if (!l->up)
			continue;
		bcast_on(l, &d.to);
		for (size_t k = 0; k < sap->nsvcs; k++) {
			const struct svc *s = &sap->svcs[k];

			if (gone[k] && (s->local || s->link != l))
				put(sap, &d, &msg, s, true);
			else if (changed[k] && !gone[k] && heard_on(sap, s, l))
				put(sap, &d, &msg, s, false);
		}
		send_msg(sap, &d, &msg);
	}
	for (size_t i = sap->nsvcs; i-- > 0;)
		if (gone[i]) {
			gone[i] = gone[sap->nsvcs - 1];
			changed[i] = changed[sap->nsvcs - 1];
			remove_at(sap, i);
		}
}

static void arm_expiry(struct ipx_sap *sap)
{
	ipx_time now = ipx_loop_now(sap->loop), first = 0;
	bool any = false;

	for (size_t i = 0; i < sap->nsvcs; i++) {
		ipx_time at = sap->svcs[i].updated + sap->opts.expiry;

		if (sap->svcs[i].local)
			continue;
		if (!any || ipx_time_before(at, first))
			first = at;
		any = true;
	}
	if (!any)
		ipx_timer_stop(sap->loop, &sap->expire);
	else
		ipx_timer_start(sap->loop, &sap->expire,
				ipx_time_before(now, first) ? first - now : 0, 0);
}

/* Flags per table entry for announce(), or NULL if out of memory. */
static bool *flags(const struct ipx_sap *sap)
{
	return calloc(sap->nsvcs + 1, 2 * sizeof(bool));
}

static void expire(struct ipx_loop *loop, struct ipx_timer *t, void *ctx)
{
	struct ipx_sap *sap = ctx;
	ipx_time now = ipx_loop_now(loop);
	bool *f = flags(sap);

	(void)t;
	for (size_t i = 0; f && i < sap->nsvcs; i++) {
		if (!sap->svcs[i].local &&
		    !ipx_time_before(now, sap->svcs[i].updated +
						  sap->opts.expiry)) {
			f[sap->nsvcs + 1 + i] = true;
			sap->stats.expired++;
		}
	}
	if (f)
		announce(sap, f, f + sap->nsvcs + 1);
	free(f);
	arm_expiry(sap);
}

/* ---- receiving ---- */

/* One entry of a neighbour's response, heard on 'link' from 'from'. */
static void learn(struct ipx_sap *sap, struct ipx_link *link,
		  const uint8_t from[IPX_NODE_LEN],
		  const struct ipx_sap_entry *e, bool *changed, bool *gone)
{
	struct svc *s = find(sap, e->type, e->name);
	struct ipx_sap_entry fixed = *e;
	bool same;
	size_t i;

	/* Network 0 is the sender's own: the one we heard it on. */
	if (fixed.addr.net == 0)
		fixed.addr.net = link->net;
	e = &fixed;
	if (s && s->local)
		return;		/* ours: we know better */
	same = s && s->link == link && ipx_node_eq(s->via, from);
	if (e->hops >= IPX_SAP_DOWN) {
		if (same && !gone[s - sap->svcs]) {
			gone[s - sap->svcs] = true;
			sap->stats.down++;
		}
		return;
	}
	if (s && !same && e->hops >= s->e.hops)
		return;		/* a copy no nearer than the one we have */
	if (!s) {
		s = add(sap);
		if (!s)
			return;
		sap->stats.learned++;
		changed[s - sap->svcs] = true;
	} else if (!same) {
		sap->stats.learned++;
		changed[s - sap->svcs] = true;
	} else if (s->e.hops != e->hops ||
		   !ipx_addr_eq(&s->e.addr, &e->addr)) {
		sap->stats.changed++;
		changed[s - sap->svcs] = true;
	}
	i = (size_t)(s - sap->svcs);
	s->e = *e;
	s->link = link;
	memcpy(s->via, from, IPX_NODE_LEN);
	s->updated = ipx_loop_now(sap->loop);
	gone[i] = false;
}

static void take_response(struct ipx_sap *sap, struct ipx_link *link,
			  const struct ipx_header *hdr,
			  const struct ipx_sap_msg *msg)
{
	/* At most 7 new entries: room for the flags of all of them. */
	size_t room = sap->nsvcs + IPX_SAP_MAX_ENTRIES;
	bool *changed = calloc(room, sizeof(bool));
	bool *gone = calloc(room, sizeof(bool));

	if (changed && gone) {
		for (size_t i = 0; i < msg->count; i++)
			learn(sap, link, hdr->src.node, &msg->entries[i],
			      changed, gone);
		announce(sap, changed, gone);
	}
	free(changed);
	free(gone);
	arm_expiry(sap);
}

static void answer_nearest(struct ipx_sap *sap, struct ipx_link *link,
			   const struct ipx_header *hdr, uint16_t type)
{
	struct ipx_sap_msg msg = { .op = IPX_SAP_NEAREST_RESPONSE };
	struct dest d = { .req = hdr };
	const struct svc *best = NULL;

	for (size_t i = 0; i < sap->nsvcs; i++) {
		const struct svc *s = &sap->svcs[i];

		if ((type == IPX_SAP_ANY_TYPE || s->e.type == type) &&
		    heard_on(sap, s, link) && (!best || s->e.hops < best->e.hops))
			best = s;
	}
	if (!best)
		return;
	put(sap, &d, &msg, best, false);
	send_msg(sap, &d, &msg);
}

static void on_packet(struct ipx_socket *sock, const struct ipx_header *hdr,
		      const uint8_t *data, size_t len, void *ctx)
{
	struct ipx_sap *sap = ctx;
	struct ipx_link *link = ipx_node_rx_link(sap->node);
	struct ipx_sap_msg msg;
	enum ipx_sap_drop why;

	(void)sock;
	if (!link || ipx_node_is_own(sap->node, &hdr->src)) {
		sap->stats.drops[IPX_SAP_DROP_OWN]++;
		return;
	}
	if (ipx_sap_decode(data, len, &msg, &why) != IPX_OK) {
		sap->stats.drops[why]++;
		return;
	}
	sap->stats.drops[IPX_SAP_DROP_BAD_ENTRY] += msg.bad;
	switch (msg.op) {
	case IPX_SAP_GENERAL_QUERY: {
		struct dest d = { .req = hdr };

		sap->stats.rx_queries++;
		send_entries(sap, &d, link, msg.query_type);
		return;
	}
	case IPX_SAP_NEAREST_QUERY:
		sap->stats.rx_queries++;
		answer_nearest(sap, link, hdr, msg.query_type);
		return;
	default:
		break;
	}
	sap->stats.rx_responses++;
	/* Routers do not forward SAP: one that crossed a router is never
	 * learned from. Sent to us alone, it answers a query of ours to a
	 * node on another network, and the asker is told. */
	if (hdr->hops != 0) {
		if (sap->on_response && !ipx_node_is_broadcast(hdr->dst.node))
			sap->on_response(hdr, &msg, sap->on_response_ctx);
		else
			sap->stats.drops[IPX_SAP_DROP_NOT_NEIGHBOUR]++;
		return;
	}
	if (sap->on_response)
		sap->on_response(hdr, &msg, sap->on_response_ctx);
	if (sap->opts.router)
		take_response(sap, link, hdr, &msg);
	else if (!sap->on_response)
		sap->stats.drops[IPX_SAP_DROP_NOT_ROUTER]++;
}

/* ---- the API ---- */

int ipx_sap_new(struct ipx_node *node, const struct ipx_sap_options *opts,
		struct ipx_sap **out)
{
	struct ipx_sap *sap = calloc(1, sizeof(*sap));
	int rc;

	if (!sap)
		return IPX_ENOMEM;
	sap->node = node;
	sap->loop = ipx_node_loop(node);
	if (opts)
		sap->opts = *opts;
	if (!sap->opts.period)
		sap->opts.period = DEFAULT_PERIOD;
	if (!sap->opts.expiry)
		sap->opts.expiry = DEFAULT_EXPIRY;
	rc = ipx_socket_open(node, IPX_SOCK_SAP, on_packet, sap, &sap->sock);
	if (rc != IPX_OK) {
		free(sap);
		return rc;
	}
	ipx_timer_init(&sap->periodic, periodic, sap);
	ipx_timer_init(&sap->expire, expire, sap);
	ipx_timer_start(sap->loop, &sap->periodic, sap->opts.period,
			sap->opts.period);
	if (sap->opts.router)
		ipx_sap_query(sap, IPX_SAP_GENERAL_QUERY, IPX_SAP_ANY_TYPE);
	*out = sap;
	return IPX_OK;
}

void ipx_sap_free(struct ipx_sap *sap)
{
	if (!sap)
		return;
	ipx_timer_stop(sap->loop, &sap->periodic);
	ipx_timer_stop(sap->loop, &sap->expire);
	ipx_socket_close(sap->sock);
	free(sap->svcs);
	free(sap);
}

void ipx_sap_shutdown(struct ipx_sap *sap)
{
	bool *f;

	if (!sap)
		return;
	f = flags(sap);
	if (!f)
		return;
	for (size_t i = 0; i < sap->nsvcs; i++)
		f[sap->nsvcs + 1 + i] = true;
	announce(sap, f, f + sap->nsvcs + 1);
	free(f);
}

int ipx_sap_advertise(struct ipx_sap *sap, uint16_t type, const char *name,
		      uint16_t socket)
{
	struct svc *s;
	bool *f;

	if (!name || !ipx_sap_name_ok(name) || type == 0 ||
	    type == IPX_SAP_ANY_TYPE)
		return IPX_EINVAL;
	if (find(sap, type, name))
		return IPX_EINUSE;
	s = add(sap);
	if (!s)
		return IPX_ENOMEM;
	s->local = true;
	s->e.type = type;
	strcpy(s->e.name, name);
	ipx_node_address(sap->node, &s->e.addr);
	s->e.addr.socket = socket;
	f = flags(sap);
	if (f) {
		f[sap->nsvcs - 1] = true;
		announce(sap, f, f + sap->nsvcs + 1);
		free(f);
	}
	return IPX_OK;
}

int ipx_sap_withdraw(struct ipx_sap *sap, uint16_t type, const char *name)
{
	struct svc *s = name ? find(sap, type, name) : NULL;
	bool *f;

	if (!s || !s->local)
		return IPX_ENOTFOUND;
	f = flags(sap);
	if (!f)
		return IPX_ENOMEM;
	f[sap->nsvcs + 1 + (size_t)(s - sap->svcs)] = true;
	announce(sap, f, f + sap->nsvcs + 1);
	free(f);
	return IPX_OK;
}

int ipx_sap_query(struct ipx_sap *sap, uint16_t op, uint16_t type)
{
	struct ipx_sap_msg msg = { .op = op, .query_type = type };
	uint64_t before = sap->stats.tx_queries;

	if (op != IPX_SAP_GENERAL_QUERY && op != IPX_SAP_NEAREST_QUERY)
		return IPX_EINVAL;
	for (size_t i = 0; i < ipx_node_link_count(sap->node); i++) {
		struct dest d = { .link = ipx_node_link(sap->node, i) };

		if (!d.link->up)
			continue;
		bcast_on(d.link, &d.to);
		send_msg(sap, &d, &msg);
	}
	return sap->stats.tx_queries > before ? IPX_OK : IPX_ENOTUP;
}

int ipx_sap_query_to(struct ipx_sap *sap, const struct ipx_addr *to,
		     uint16_t op, uint16_t type)
{
	struct ipx_sap_msg msg = { .op = op, .query_type = type };
	struct dest d = { .to = *to };
	uint64_t before = sap->stats.tx_queries;

	if (op != IPX_SAP_GENERAL_QUERY && op != IPX_SAP_NEAREST_QUERY)
		return IPX_EINVAL;
	d.to.socket = IPX_SOCK_SAP;
	send_msg(sap, &d, &msg);
	return sap->stats.tx_queries > before ? IPX_OK : IPX_EIO;
}

void ipx_sap_on_response(struct ipx_sap *sap, ipx_sap_response_cb cb,
			 void *ctx)
{
	sap->on_response = cb;
	sap->on_response_ctx = ctx;
}

size_t ipx_sap_count(const struct ipx_sap *sap)
{
	return sap->nsvcs;
}

const struct ipx_sap_entry *ipx_sap_at(const struct ipx_sap *sap, size_t i)
{
	return i < sap->nsvcs ? &sap->svcs[i].e : NULL;
}

int ipx_sap_nearest(const struct ipx_sap *sap, uint16_t type,
		    struct ipx_sap_entry *out)
{
	const struct svc *best = NULL;

	for (size_t i = 0; i < sap->nsvcs; i++) {
		const struct svc *s = &sap->svcs[i];

		if ((type == IPX_SAP_ANY_TYPE || s->e.type == type) &&
		    (!best || s->e.hops < best->e.hops))
			best = s;
	}
	if (!best)
		return IPX_ENOTFOUND;
	*out = best->e;
	return IPX_OK;
}

const struct ipx_sap_stats *ipx_sap_stats(const struct ipx_sap *sap)
{
	return &sap->stats;
}

void ipx_sap_print(const struct ipx_sap *sap, FILE *out)
{
	const struct ipx_sap_stats *st = &sap->stats;
	ipx_time now = ipx_loop_now(sap->loop);
	char addr[IPX_ADDR_STRLEN];

	fprintf(out, "services %zu\n", sap->nsvcs);
	fprintf(out, "%-4s %-47s %-26s %4s %s\n", "type", "name", "address",
		"hops", "age");
	for (size_t i = 0; i < sap->nsvcs; i++) {
		const struct svc *s = &sap->svcs[i];

		fprintf(out, "%04X %-47s %s %4u ", s->e.type, s->e.name,
			ipx_addr_format(&s->e.addr, addr), s->e.hops);
		if (s->local)
			fprintf(out, "ours\n");
		else
			fprintf(out, "%.0f s\n",
				(double)(now - s->updated) / IPX_SEC);
	}
	fprintf(out,
		"sap_rx_queries %llu\nsap_rx_responses %llu\n"
		"sap_tx_queries %llu\nsap_tx_responses %llu\n"
		"sap_learned %llu\nsap_changed %llu\nsap_down %llu\n"
		"sap_expired %llu\n",
		(unsigned long long)st->rx_queries,
		(unsigned long long)st->rx_responses,
		(unsigned long long)st->tx_queries,
		(unsigned long long)st->tx_responses,
		(unsigned long long)st->learned,
		(unsigned long long)st->changed, (unsigned long long)st->down,
		(unsigned long long)st->expired);
	for (int d = 0; d < IPX_SAP_DROP_COUNT; d++)
		fprintf(out, "sap_drop_%s %llu\n", drop_names[d],
			(unsigned long long)st->drops[d]);
}
