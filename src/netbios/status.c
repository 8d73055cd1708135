/*
 * status.c - ADAPTER STATUS (of this node, or of the node holding a name,
 * asked with a status query) and SESSION STATUS, in the classic buffer
 * layouts (netbios.h).
 */
#include <stdlib.h>
#include <string.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "nb_int.h"

#define STATUS_MAX (NB_AS_LEN + NB_MAX_NAMES * NB_AS_NAME_LEN)

static uint16_t cap16(uint64_t v)
{
	return v > 0xFFFF ? 0xFFFF : (uint16_t)v;
}

static void put32le(uint8_t *p, uint64_t v)
{
	uint32_t w = v > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)v;

	ipx_put16le(p, (uint16_t)w);
	ipx_put16le(p + 2, (uint16_t)(w >> 16));
}

/* This node's ADAPTER STATUS; returns its length. */
static size_t build_status(struct netbios *nb, uint8_t out[STATUS_MAX])
{
	struct ipx_addr me;
	unsigned n = 0;
	size_t o = NB_AS_LEN;
	ipx_time up = ipx_loop_now(nb->loop) - nb->opened;

	memset(out, 0, NB_AS_LEN);
	ipx_node_address(nb->node, &me);
	memcpy(out + NB_AS_ADDRESS, me.node, IPX_NODE_LEN);
	out[NB_AS_REV_MAJOR] = 3;
	out[NB_AS_TYPE] = 0xFE;
	out[NB_AS_REV_MINOR] = 0;
	ipx_put16le(out + NB_AS_DURATION, cap16(up / (60 * IPX_SEC)));
	put32le(out + NB_AS_XMIT_SUCCESS, nb->stats.packets_tx);
	put32le(out + NB_AS_RECV_SUCCESS, nb->stats.packets_rx);
	ipx_put16le(out + NB_AS_T1_TIMEOUTS, cap16(nb->stats.retransmits));
	ipx_put16le(out + NB_AS_FREE_NCBS,
		    cap16(nb->max_commands > nb->pending
				  ? nb->max_commands - nb->pending
				  : 0));
	ipx_put16le(out + NB_AS_MAX_CFG_NCBS, cap16(nb->max_commands));
	ipx_put16le(out + NB_AS_MAX_NCBS, cap16(nb->max_commands));
	ipx_put16le(out + NB_AS_XMIT_BUF_UNAVAIL, cap16(nb->stats.no_resource));
	ipx_put16le(out + NB_AS_MAX_DGRAM, cap16(nb_dgram_max(nb)));
	ipx_put16le(out + NB_AS_PENDING_SESS, cap16(nb->nsess));
	ipx_put16le(out + NB_AS_MAX_CFG_SESS, cap16(nb->max_sessions));
	ipx_put16le(out + NB_AS_MAX_SESS, cap16(nb->max_sessions));
	ipx_put16le(out + NB_AS_MAX_SESS_PKT,
		    cap16(ipx_node_max_payload(nb->node, NULL) -
			  NB_SESS_HDR_LEN));
	for (unsigned i = 0; i < nb->opts.names; i++) {
		const struct nb_name *e = &nb->names[i];

		if (!e->used)
			continue;
		memcpy(out + o, e->name, NB_NAME_LEN);
		out[o + NB_NAME_LEN] = e->num;
		out[o + NB_NAME_LEN + 1] =
			(uint8_t)(e->state | (e->group ? NB_NF_GROUP : 0));
		o += NB_AS_NAME_LEN;
		n++;
	}
	ipx_put16le(out + NB_AS_NAME_COUNT, (uint16_t)n);
	return o;
}

/* Copy what fits into the NCB's buffer: OK, or INCOMPLETE if cut. */
static uint8_t fill(struct nb_ncb *ncb, const uint8_t *p, size_t len)
{
	size_t n = len < ncb->length ? len : ncb->length;

	if (n)
		memcpy(ncb->buffer, p, n);
	ncb->length = (uint16_t)n;
	return n < len ? NB_RC_INCOMPLETE : NB_RC_OK;
}

/* ---- the remote query ---- */

static void query_free(struct netbios *nb, struct nb_query *q)
{
	for (struct nb_query **pp = &nb->queries; *pp; pp = &(*pp)->next) {
		if (*pp == q) {
			*pp = q->next;
			break;
		}
	}
	ipx_timer_stop(nb->loop, &q->timer);
	free(q);
}

static void send_query(struct netbios *nb, struct nb_query *q)
{
	uint8_t p[NB_STATUS_HDR_LEN] = { 0, NB_DS_STATUS_QUERY };

	memcpy(p + 2, q->ncb->callname, NB_NAME_LEN);
	nb_send_to(nb, &q->to, p, sizeof(p));
	q->sent++;
	ipx_timer_start(nb->loop, &q->timer, nb->retry_delay, 0);
}

static void query_timer(struct ipx_loop *loop, struct ipx_timer *t, void *ctx)
{
	struct nb_query *q = ctx;
	struct netbios *nb = q->nb;
	struct nb_ncb *ncb = q->ncb;

	(void)loop;
	(void)t;
	if (q->sent > nb->retry_count) {
		query_free(nb, q);
		ncb->length = 0;
		nb_done(nb, ncb, NB_RC_TIMEOUT);
		return;
	}
	send_query(nb, q);
}

void nb_status_resolved(struct netbios *nb, struct nb_ncb *ncb,
			const struct ipx_addr *addr)
{
	struct nb_query *q;

	if (!addr || !(q = calloc(1, sizeof(*q)))) {
		/* Nobody holds the name: no status comes, as if timed out. */
		ncb->length = 0;
		nb_done(nb, ncb, addr ? NB_RC_NORES : NB_RC_TIMEOUT);
		return;
	}
	q->nb = nb;
	q->ncb = ncb;
	q->to = *addr;
	q->to.socket = IPX_SOCK_NETBIOS;
	ipx_timer_init(&q->timer, query_timer, q);
	q->next = nb->queries;
	nb->queries = q;
	send_query(nb, q);
}

uint8_t nb_adapter_status(struct netbios *nb, struct nb_ncb *ncb)
{
	uint8_t st[STATUS_MAX];
	struct ipx_addr a;
	int rc;

	if (ncb->length && !ncb->buffer)
		return NB_RC_BUFLEN;
	if (ncb->callname[0] == '*')
		return fill(ncb, st, build_status(nb, st));
	if (!nb_name_callable(ncb->callname))
		return NB_RC_NOWILD;
	rc = nb_resolve(nb, ncb, ncb->callname, true, &a);
	if (rc == NB_RESOLVED)
		nb_status_resolved(nb, ncb, &a);
	else if (rc != NB_LOOKING)
		return NB_RC_NORES;
	return NB_RC_PENDING;
}

bool nb_status_cancel(struct netbios *nb, struct nb_ncb *t)
{
	struct nb_query *q;

	for (q = nb->queries; q && q->ncb != t; q = q->next)
		;
	if (q)
		query_free(nb, q);
	else if (!nb_resolve_abandon(nb, t))
		return false;
	t->length = 0;
	nb_done(nb, t, NB_RC_CANCELLED);
	return true;
}

void nb_status_input(struct netbios *nb, const struct ipx_header *ih,
		     const struct nb_packet *pk)
{
	const uint8_t *b = pk->body;
	uint8_t num;

	if (pk->routes || pk->len < NB_STATUS_HDR_LEN) {
		nb->stats.drops[NB_DROP_SHORT]++;
		return;
	}
	if (pk->ds == NB_DS_STATUS_QUERY) {
		uint8_t p[NB_STATUS_HDR_LEN + STATUS_MAX];
		size_t len, room = ipx_node_max_payload(nb->node, &ih->src);

		if (!nb_name_answers(nb, b + 2, &num)) {
			nb->stats.drops[NB_DROP_NOT_OURS]++;
			return;
		}
		p[0] = 0;
		p[1] = NB_DS_STATUS_RESPONSE;
		memcpy(p + 2, b + 2, NB_NAME_LEN);
		len = NB_STATUS_HDR_LEN + build_status(nb, p + NB_STATUS_HDR_LEN);
		/* Names that do not fit the packet are left out (the count
		 * in the header still says how many there are). */
		if (room < NB_STATUS_HDR_LEN + NB_AS_LEN)
			return;
		if (len > room)
			len = NB_STATUS_HDR_LEN +
			      (room - NB_STATUS_HDR_LEN - NB_AS_LEN) /
				      NB_AS_NAME_LEN * NB_AS_NAME_LEN +
			      NB_AS_LEN;
		nb_reply(nb, ih, p, len);
		return;
	}
	if (pk->len < NB_STATUS_HDR_LEN + NB_AS_LEN) {
		nb->stats.drops[NB_DROP_SHORT]++;
		return;
	}
	for (struct nb_query *q = nb->queries; q; q = q->next) {
		struct nb_ncb *ncb = q->ncb;

		if (!ipx_node_eq(q->to.node, ih->src.node) ||
		    memcmp(ncb->callname, b + 2, NB_NAME_LEN))
			continue;
		query_free(nb, q);
		nb_done(nb, ncb,
			fill(ncb, b + NB_STATUS_HDR_LEN,
			     pk->len - NB_STATUS_HDR_LEN));
		return;
	}
	nb->stats.drops[NB_DROP_UNEXPECTED]++;
}

void nb_status_free(struct netbios *nb)
{
	while (nb->queries)
		query_free(nb, nb->queries);
}

/* ---- SESSION STATUS ---- */

uint8_t nb_session_status(struct netbios *nb, struct nb_ncb *ncb)
{
	bool all = ncb->name[0] == '*';
	struct nb_name *e = all ? NULL : nb_name_find(nb, ncb->name);
	uint8_t num = 0;
	unsigned total = 0, dg = 0, any = 0;
	size_t o = NB_SS_HDR_LEN;
	bool cut = false;

	if (!all) {
		uint8_t pn;

		if (e)
			num = e->num;
		else if (nb_name_answers(nb, ncb->name, &pn) &&
			 pn == NB_PERMANENT_NUM)
			num = pn;
		else
			return NB_RC_NOWILD;
	}
	if (!ncb->buffer || ncb->length < NB_SS_HDR_LEN)
		return NB_RC_BUFLEN;
	for (const struct nb_ncb *r = nb->dg_receives; r; r = r->next_)
		dg += all || r->num == num || r->num == 0xFF;
	for (const struct nb_ncb *r = nb->any_receives; r; r = r->next_)
		any += all || r->num == num || r->num == 0xFF;
	for (const struct nb_session *s = nb->sessions; s; s = s->next) {
		uint8_t *p = ncb->buffer + o;

		if (!all && s->num != num)
			continue;
		total++;
		if (o + NB_SS_LEN > ncb->length) {
			cut = true;
			continue;
		}
		p[0] = s->lsn;
		p[1] = (uint8_t)s->state;
		memcpy(p + 2, s->local_name, NB_NAME_LEN);
		memcpy(p + 2 + NB_NAME_LEN, s->remote_name, NB_NAME_LEN);
		p[34] = (uint8_t)(nb_q_count(s->receives) > 255
					  ? 255
					  : nb_q_count(s->receives));
		p[35] = (uint8_t)(nb_q_count(s->sends) > 255
					  ? 255
					  : nb_q_count(s->sends));
		o += NB_SS_LEN;
	}
	ncb->buffer[0] = num;
	ncb->buffer[1] = (uint8_t)(total > 255 ? 255 : total);
	ncb->buffer[2] = (uint8_t)(dg > 255 ? 255 : dg);
	ncb->buffer[3] = (uint8_t)(any > 255 ? 255 : any);
	ncb->length = (uint16_t)o;
	return cut ? NB_RC_INCOMPLETE : NB_RC_OK;
}
