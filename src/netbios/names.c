/*
 * names.c - the local name table (ADD NAME, ADD GROUP NAME, DELETE NAME),
 * claiming a name by broadcast and defending it, and finding names on the
 * network with a cache of what they resolved to (FIND NAME, and the
 * look-ups CALL and ADAPTER STATUS make).
 *
 * A claim broadcasts check-name NETBIOS BROADCAST COUNT times, NETBIOS
 * BROADCAST DELAY apart, and succeeds one delay after the last unless a
 * node objected ("name in use"): the ADD NAME then fails at once with
 * "duplicate name: in use on another node" (0x16). Two nodes claiming the
 * same name at once: the lower address keeps claiming, the other yields.
 * A find broadcasts the same way and ends at the first answer for a
 * unique name, or after the last delay for a group name (collecting every
 * member that answered).
 */
#include <stdlib.h>
#include <string.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/log.h"
#include "nb_int.h"

/* ---- the table ---- */

static const uint8_t *permanent(struct netbios *nb)
{
	struct ipx_addr me;

	ipx_node_address(nb->node, &me);
	nb_permanent_name(me.node, nb->perm);
	return nb->perm;
}

struct nb_name *nb_name_find(struct netbios *nb,
			     const uint8_t name[NB_NAME_LEN])
{
	for (unsigned i = 0; i < nb->opts.names; i++)
		if (nb->names[i].used &&
		    !memcmp(nb->names[i].name, name, NB_NAME_LEN))
			return &nb->names[i];
	return NULL;
}

struct nb_name *nb_name_by_num(struct netbios *nb, uint8_t num, bool *perm)
{
	*perm = num == NB_PERMANENT_NUM;
	for (unsigned i = 0; !*perm && i < nb->opts.names; i++)
		if (nb->names[i].used && nb->names[i].num == num &&
		    nb->names[i].state != NB_NAME_REGISTERING)
			return &nb->names[i];
	return NULL;
}

const uint8_t *nb_num_name(struct netbios *nb, uint8_t num)
{
	bool perm;
	struct nb_name *e = nb_name_by_num(nb, num, &perm);

	if (perm)
		return permanent(nb);
	return e && e->state == NB_NAME_REGISTERED ? e->name : NULL;
}

bool nb_name_callable(const uint8_t name[NB_NAME_LEN])
{
	static const uint8_t zero[NB_NAME_LEN];

	if (nb_name_valid(name))
		return true;
	return !memcmp(name, zero, NB_NAME_LEN - IPX_NODE_LEN) &&
	       memcmp(name, zero, NB_NAME_LEN);
}

bool nb_name_answers(struct netbios *nb, const uint8_t name[NB_NAME_LEN],
		     uint8_t *num)
{
	struct nb_name *e;

	if (!memcmp(name, permanent(nb), NB_NAME_LEN)) {
		*num = NB_PERMANENT_NUM;
		return true;
	}
	e = nb_name_find(nb, name);
	if (!e || e->state != NB_NAME_REGISTERED)
		return false;
	*num = e->num;
	return true;
}

static uint8_t new_num(struct netbios *nb)
{
	for (;;) {
		uint8_t n = nb->next_num;
		bool taken = false;

		nb->next_num = n >= 254 ? 2 : (uint8_t)(n + 1);
		for (unsigned i = 0; i < nb->opts.names; i++)
			if (nb->names[i].used && nb->names[i].num == n)
				taken = true;
		if (!taken)
			return n;
	}
}

static void free_entry(struct netbios *nb, struct nb_name *e)
{
	ipx_timer_stop(nb->loop, &e->timer);
	e->used = false;
	e->add = NULL;
}

static int send_name_pkt(struct netbios *nb, const struct ipx_header *reply_to,
			 uint8_t ds, uint8_t flags,
			 const uint8_t name[NB_NAME_LEN])
{
	struct nb_name_pkt np = { .ds = ds, .flags = flags };
	uint8_t p[NB_NAME_PKT_LEN];

	memcpy(np.name, name, NB_NAME_LEN);
	nb_name_pkt_encode(&np, p);
	if (reply_to)
		return nb_reply(nb, reply_to, p, sizeof(p));
	return nb_broadcast(nb, p + NB_ROUTES_LEN, sizeof(p) - NB_ROUTES_LEN);
}

/* ---- claiming ---- */

/*
 * Claims and finds: the next of NETBIOS BROADCAST COUNT broadcasts, with
 * the timer armed for NETBIOS BROADCAST DELAY; false once they have all
 * gone out and the last delay has passed (the window is over).
 */
static bool rebroadcast(struct netbios *nb, unsigned *sent,
			struct ipx_timer *t, uint8_t ds, uint8_t flags,
			const uint8_t name[NB_NAME_LEN])
{
	if (*sent >= nb->bcast_count)
		return false;
	send_name_pkt(nb, NULL, ds, flags, name);
	++*sent;
	ipx_timer_start(nb->loop, t, nb->bcast_delay, 0);
	return true;
}

static bool send_claim(struct netbios *nb, struct nb_name *e)
{
	return rebroadcast(nb, &e->sent, &e->timer, NB_DS_CHECK_NAME,
			   e->group ? NB_NF_GROUP : 0, e->name);
}

static void claim_timer(struct ipx_loop *loop, struct ipx_timer *t, void *ctx)
{
	struct nb_name *e = ctx;
	struct netbios *nb = e->nb;
	struct nb_ncb *ncb = e->add;

	(void)loop;
	(void)t;
	if (send_claim(nb, e))
		return;
	/* Nobody objected within the last delay: the name is ours. */
	e->state = NB_NAME_REGISTERED;
	e->add = NULL;
	ncb->num = e->num;
	nb_done(nb, ncb, NB_RC_OK);
}

static void claim_lost(struct netbios *nb, struct nb_name *e)
{
	struct nb_ncb *ncb = e->add;
	char n[NB_NAME_STRLEN];

	ipx_debug("netbios: %s is in use on another node",
		 nb_name_format(e->name, n));
	nb->stats.claims_lost++;
	free_entry(nb, e);
	nb_done(nb, ncb, NB_RC_INUSE);
}

uint8_t nb_add_name(struct netbios *nb, struct nb_ncb *ncb)
{
	struct nb_name *e = NULL;

	if (!nb_name_valid(ncb->name))
		return NB_RC_NOWILD;
	if (nb_name_find(nb, ncb->name) ||
	    !memcmp(ncb->name, permanent(nb), NB_NAME_LEN))
		return NB_RC_DUPNAME;
	for (unsigned i = 0; i < nb->opts.names && !e; i++)
		if (!nb->names[i].used)
			e = &nb->names[i];
	if (!e)
		return NB_RC_NAMTFUL;
	e->used = true;
	e->group = ncb->command == NB_ADD_GROUP_NAME;
	e->state = NB_NAME_REGISTERING;
	e->num = new_num(nb);
	memcpy(e->name, ncb->name, NB_NAME_LEN);
	e->add = ncb;
	e->sent = 0;
	e->timer.cb = claim_timer;
	nb->stats.claims++;
	nb_cache_forget(nb, e->name);
	send_claim(nb, e);
	return NB_RC_PENDING;
}

static void end_receives_of(struct netbios *nb, struct nb_ncb **q,
			    uint8_t num)
{
	struct nb_ncb *r = *q;

	while (r) {
		struct nb_ncb *next = r->next_;

		if (r->num == num) {
			nb_q_remove(q, r);
			r->length = (uint16_t)r->filled_;
			nb_done(nb, r, NB_RC_NAMERR);
		}
		r = next;
	}
}

uint8_t nb_delete_name(struct netbios *nb, struct nb_ncb *ncb)
{
	struct nb_name *e = nb_name_find(nb, ncb->name);

	if (!e || e->state == NB_NAME_DEREGISTERED)
		return NB_RC_NOWILD;
	if (e->state == NB_NAME_REGISTERING) {
		/* Deleted while still claiming: the claim ends. */
		struct nb_ncb *add = e->add;

		free_entry(nb, e);
		nb_done(nb, add, NB_RC_NAMERR);
		return NB_RC_OK;
	}
	send_name_pkt(nb, NULL, NB_DS_DEREGISTER,
		      (uint8_t)(NB_NF_DEREGISTERED |
				(e->group ? NB_NF_GROUP : 0)),
		      e->name);
	nb_sessions_of_name(nb, e->num, true, NB_RC_NAMERR);
	end_receives_of(nb, &nb->dg_receives, e->num);
	end_receives_of(nb, &nb->bc_receives, e->num);
	end_receives_of(nb, &nb->any_receives, e->num);
	if (nb_sessions_using(nb, e->num)) {
		/* Gone from the network now; the entry stays until its
		 * sessions end. */
		e->state = NB_NAME_DEREGISTERED;
		return NB_RC_ACTSES;
	}
	free_entry(nb, e);
	return NB_RC_OK;
}

void nb_name_release(struct netbios *nb, uint8_t num)
{
	bool perm;
	struct nb_name *e = nb_name_by_num(nb, num, &perm);

	if (e && e->state == NB_NAME_DEREGISTERED &&
	    !nb_sessions_using(nb, num))
		free_entry(nb, e);
}

/* Someone claims a name: object if it clashes with ours. */
static void defend(struct netbios *nb, const struct ipx_header *ih,
		   const struct nb_name_pkt *np)
{
	struct nb_name *e = nb_name_find(nb, np->name);
	bool group_claim = np->flags & NB_NF_GROUP;
	uint8_t flags = NB_NF_IN_USE | NB_NF_REGISTERED;

	if (!e) {
		if (memcmp(np->name, permanent(nb), NB_NAME_LEN))
			return;
	} else {
		if (e->group && group_claim)
			return;		/* a group is shared */
		if (e->state == NB_NAME_DEREGISTERED)
			return;		/* we are giving it up */
		if (e->state == NB_NAME_REGISTERING) {
			struct ipx_addr me;

			/* Both claiming: the lower address goes on. */
			ipx_node_address(nb->node, &me);
			if (memcmp(ih->src.node, me.node, IPX_NODE_LEN) < 0) {
				claim_lost(nb, e);
				return;
			}
		}
		if (e->group)
			flags |= NB_NF_GROUP;
	}
	nb->stats.defended++;
	send_name_pkt(nb, ih, NB_DS_NAME_IN_USE, flags, np->name);
}

/* ---- the cache ---- */

bool nb_cache_get(struct netbios *nb, const uint8_t name[NB_NAME_LEN],
		  struct ipx_addr *addr, bool *group)
{
	ipx_time now = ipx_loop_now(nb->loop);

	for (unsigned i = 0; i < nb->opts.cache_size; i++) {
		struct nb_cache_entry *c = &nb->cache[i];

		if (!c->used || memcmp(c->name, name, NB_NAME_LEN))
			continue;
		if (!ipx_time_before(now, c->expires)) {
			c->used = false;
			return false;
		}
		*addr = c->addr;
		if (group)
			*group = c->group;
		return true;
	}
	return false;
}

void nb_cache_put(struct netbios *nb, const uint8_t name[NB_NAME_LEN],
		  const struct ipx_addr *addr, bool group)
{
	struct nb_cache_entry *slot = NULL;

	for (unsigned i = 0; i < nb->opts.cache_size; i++) {
		struct nb_cache_entry *c = &nb->cache[i];

		if (c->used && !memcmp(c->name, name, NB_NAME_LEN)) {
			slot = c;
			break;
		}
		/* A free entry, else the one that expires first. */
		if (!slot || (slot->used && (!c->used ||
					     ipx_time_before(c->expires,
							     slot->expires))))
			slot = c;
	}
	slot->used = true;
	slot->group = group;
	memcpy(slot->name, name, NB_NAME_LEN);
	slot->addr = *addr;
	slot->expires = ipx_loop_now(nb->loop) + nb->opts.cache_lifetime;
}

void nb_cache_forget(struct netbios *nb, const uint8_t name[NB_NAME_LEN])
{
	for (unsigned i = 0; i < nb->opts.cache_size; i++)
		if (nb->cache[i].used &&
		    !memcmp(nb->cache[i].name, name, NB_NAME_LEN))
			nb->cache[i].used = false;
}

int nb_cache_lookup(struct netbios *nb, const uint8_t name[NB_NAME_LEN],
		    struct ipx_addr *out, bool *group)
{
	return nb_cache_get(nb, name, out, group) ? IPX_OK : IPX_ENOTFOUND;
}

/* ---- finding names ---- */

static bool send_find(struct netbios *nb, struct nb_find *f)
{
	if (!rebroadcast(nb, &f->sent, &f->timer, NB_DS_FIND_NAME, 0, f->name))
		return false;
	nb->stats.finds_tx++;
	return true;
}

static struct nb_find *find_of(struct netbios *nb,
			       const uint8_t name[NB_NAME_LEN])
{
	struct nb_find *f;

	for (f = nb->finds; f; f = f->next)
		if (!memcmp(f->name, name, NB_NAME_LEN))
			return f;
	return NULL;
}

static void found(struct nb_find *f, const struct ipx_addr *a)
{
	for (unsigned i = 0; i < f->nfound; i++)
		if (ipx_addr_eq(&f->found[i], a))
			return;
	if (f->nfound < NB_FIND_MAX)
		f->found[f->nfound++] = *a;
}

static void find_free(struct netbios *nb, struct nb_find *f)
{
	for (struct nb_find **pp = &nb->finds; *pp; pp = &(*pp)->next) {
		if (*pp == f) {
			*pp = f->next;
			break;
		}
	}
	ipx_timer_stop(nb->loop, &f->timer);
	free(f);
}

/* Tell waiters the outcome; FIND NAMEs of a group wait for the end
 * unless 'all'. */
static void find_report(struct netbios *nb, struct nb_find *f, bool all)
{
	struct nb_ncb *keep = NULL, *w;

	while ((w = nb_q_pop(&f->waiters)) != NULL) {
		if (!all && w->command == NB_FIND_NAME) {
			nb_q_push(&keep, w);
			continue;
		}
		nb_resolved(nb, w, f, f->nfound ? &f->found[0] : NULL);
	}
	f->waiters = keep;
}

static void find_timer(struct ipx_loop *loop, struct ipx_timer *t, void *ctx)
{
	struct nb_find *f = ctx;
	struct netbios *nb = f->nb;

	(void)loop;
	(void)t;
	if (send_find(nb, f))
		return;
	find_report(nb, f, true);
	find_free(nb, f);
}

int nb_resolve(struct netbios *nb, struct nb_ncb *ncb,
	       const uint8_t name[NB_NAME_LEN], bool use_cache,
	       struct ipx_addr *addr)
{
	struct nb_find *f;
	uint8_t num;

	if (use_cache) {
		if (nb_cache_get(nb, name, addr, NULL)) {
			nb->stats.cache_hits++;
			return NB_RESOLVED;
		}
		nb->stats.cache_misses++;
		/* One of our own names is here. */
		if (nb_name_answers(nb, name, &num)) {
			ipx_node_address(nb->node, addr);
			addr->socket = IPX_SOCK_NETBIOS;
			return NB_RESOLVED;
		}
	}
	f = find_of(nb, name);
	if (f && f->nfound && ncb->command != NB_FIND_NAME) {
		*addr = f->found[0];
		return NB_RESOLVED;
	}
	if (!f) {
		f = calloc(1, sizeof(*f));
		if (!f)
			return IPX_ENOMEM;
		f->nb = nb;
		memcpy(f->name, name, NB_NAME_LEN);
		ipx_timer_init(&f->timer, find_timer, f);
		f->next = nb->finds;
		nb->finds = f;
		/* A group name we hold ourselves: we are a member too. */
		if (nb_name_answers(nb, name, &num)) {
			struct ipx_addr me;

			ipx_node_address(nb->node, &me);
			me.socket = IPX_SOCK_NETBIOS;
			found(f, &me);
			f->group = nb_name_find(nb, name) &&
				   nb_name_find(nb, name)->group;
		}
		send_find(nb, f);
	}
	nb_q_push(&f->waiters, ncb);
	return NB_LOOKING;
}

bool nb_resolve_abandon(struct netbios *nb, struct nb_ncb *ncb)
{
	for (struct nb_find *f = nb->finds; f; f = f->next) {
		if (nb_q_remove(&f->waiters, ncb)) {
			if (!f->waiters)
				find_free(nb, f);
			return true;
		}
	}
	return false;
}

uint8_t nb_find_name(struct netbios *nb, struct nb_ncb *ncb)
{
	struct ipx_addr a;

	if (!nb_name_valid(ncb->callname))
		return NB_RC_NOWILD;
	if (ncb->length && !ncb->buffer)
		return NB_RC_BUFLEN;
	/* FIND NAME always asks the network (and refreshes the cache). */
	if (nb_resolve(nb, ncb, ncb->callname, false, &a) != NB_LOOKING) {
		nb->stats.no_resource++;
		return NB_RC_NORES;	/* out of memory */
	}
	return NB_RC_PENDING;
}

/* The FIND NAME buffer: node count (2, LE), reserved, 0 unique / 1 group,
 * then one 12-byte IPX address (BE) per node. */
static void find_name_done(struct netbios *nb, struct nb_ncb *ncb,
			   const struct nb_find *f)
{
	size_t o = NB_FN_HDR_LEN;
	unsigned n = 0;

	if (!f || !f->nfound) {
		nb_done(nb, ncb, NB_RC_NOCALL);
		return;
	}
	ncb->remote = f->found[0];
	if (!ncb->buffer) {
		ncb->length = 0;
		nb_done(nb, ncb, NB_RC_OK);
		return;
	}
	if (ncb->length < NB_FN_HDR_LEN) {
		ncb->length = 0;
		nb_done(nb, ncb, NB_RC_INCOMPLETE);
		return;
	}
	for (; n < f->nfound && o + NB_FN_ENTRY_LEN <= ncb->length; n++) {
		ipx_addr_write(ncb->buffer + o, &f->found[n]);
		o += NB_FN_ENTRY_LEN;
	}
	ipx_put16le(ncb->buffer, (uint16_t)n);
	ncb->buffer[2] = 0;
	ncb->buffer[3] = f->group ? 1 : 0;
	ncb->length = (uint16_t)o;
	nb_done(nb, ncb, n < f->nfound ? NB_RC_INCOMPLETE : NB_RC_OK);
}

void nb_resolved(struct netbios *nb, struct nb_ncb *ncb,
		 const struct nb_find *f, const struct ipx_addr *addr)
{
	switch (ncb->command) {
	case NB_FIND_NAME:
		find_name_done(nb, ncb, f);
		break;
	case NB_CALL:
		nb_call_resolved(ncb->owner_, addr);
		break;
	case NB_ADAPTER_STATUS:
		nb_status_resolved(nb, ncb, addr);
		break;
	default:
		break;
	}
}

static void answer(struct netbios *nb, const struct ipx_header *ih,
		   const struct nb_name_pkt *np)
{
	struct nb_find *f = find_of(nb, np->name);
	bool group = np->flags & NB_NF_GROUP;

	if (!f) {
		nb->stats.drops[NB_DROP_UNEXPECTED]++;
		return;
	}
	nb->stats.answers_rx++;
	if (!f->nfound || !group)
		nb_cache_put(nb, np->name, &ih->src, group);
	found(f, &ih->src);
	f->group |= group;
	if (!f->group) {
		/* A unique name has one holder: done. */
		find_report(nb, f, true);
		find_free(nb, f);
		return;
	}
	/* A group: CALLs go on with the first member; FIND NAME collects. */
	find_report(nb, f, false);
}

/* ---- receiving ---- */

void nb_names_input(struct netbios *nb, const struct ipx_header *ih,
		    const struct nb_packet *pk)
{
	struct nb_name_pkt np;
	struct nb_name *e;
	uint8_t num;

	if (nb_name_pkt_decode(pk, &np) != IPX_OK) {
		nb->stats.drops[NB_DROP_SHORT]++;
		return;
	}
	/* Broadcasts come back to us (the node loops them locally). */
	if (ipx_node_is_own(nb->node, &ih->src)) {
		nb->stats.drops[NB_DROP_OWN]++;
		return;
	}
	switch (np.ds) {
	case NB_DS_FIND_NAME:
		if (!nb_name_answers(nb, np.name, &num))
			return;
		e = nb_name_find(nb, np.name);
		nb->stats.answers_tx++;
		send_name_pkt(nb, ih, NB_DS_NAME_RECOGNIZED,
			      (uint8_t)(NB_NF_IN_USE | NB_NF_REGISTERED |
					(e && e->group ? NB_NF_GROUP : 0)),
			      np.name);
		break;
	case NB_DS_CHECK_NAME:
		/* The name may be changing hands: look it up afresh. */
		nb_cache_forget(nb, np.name);
		defend(nb, ih, &np);
		break;
	case NB_DS_NAME_RECOGNIZED:
		answer(nb, ih, &np);
		break;
	case NB_DS_NAME_IN_USE:
		e = nb_name_find(nb, np.name);
		if (e && e->state == NB_NAME_REGISTERING)
			claim_lost(nb, e);
		else
			nb->stats.drops[NB_DROP_UNEXPECTED]++;
		break;
	case NB_DS_DEREGISTER:
		nb_cache_forget(nb, np.name);
		break;
	default:
		break;
	}
}

void nb_names_free(struct netbios *nb)
{
	for (unsigned i = 0; i < nb->opts.names; i++)
		ipx_timer_stop(nb->loop, &nb->names[i].timer);
	while (nb->finds)
		find_free(nb, nb->finds);
}
