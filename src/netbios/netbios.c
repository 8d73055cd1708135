/*
 * netbios.c - the NetBIOS module of a node: socket 0x455, the NCB entry
 * point (limits first, then the command), the queue of completed commands
 * whose POST routines run from the loop, datagrams, the dispatch of
 * received packets by data stream type, and the watchdog tick.
 */
#include <stdlib.h>
#include <string.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/log.h"
#include "ipxlab/priv/drops.h"
#include "nb_int.h"

#define DEFAULT_NAMES 16
#define DEFAULT_CACHE 64
#define MAX_CACHE 4096
#define DEFAULT_CACHE_LIFETIME (300 * IPX_SEC)

#define RC_MSG_(id, code, msg) case code: return msg;
const char *nb_strerror(uint8_t retcode)
{
	switch (retcode) {
		NB_RETURN_CODES(RC_MSG_)
	}
	if (retcode >= 0x40 && retcode <= 0x4F)
		return "unusual network condition";
	if (retcode >= 0x50 && retcode <= 0xFE)
		return "adapter malfunction";
	return "unknown return code";
}
#undef RC_MSG_

const char *nb_command_name(uint8_t command)
{
	static const struct {
		uint8_t code;
		const char *name;
	} names[] = {
		{ NB_CALL, "CALL" },
		{ NB_LISTEN, "LISTEN" },
		{ NB_HANG_UP, "HANG UP" },
		{ NB_SEND, "SEND" },
		{ NB_RECEIVE, "RECEIVE" },
		{ NB_RECEIVE_ANY, "RECEIVE ANY" },
		{ NB_SEND_DATAGRAM, "SEND DATAGRAM" },
		{ NB_RECEIVE_DATAGRAM, "RECEIVE DATAGRAM" },
		{ NB_SEND_BCAST_DATAGRAM, "SEND BROADCAST DATAGRAM" },
		{ NB_RECEIVE_BCAST_DATAGRAM, "RECEIVE BROADCAST DATAGRAM" },
		{ NB_ADD_NAME, "ADD NAME" },
		{ NB_DELETE_NAME, "DELETE NAME" },
		{ NB_ADAPTER_STATUS, "ADAPTER STATUS" },
		{ NB_SESSION_STATUS, "SESSION STATUS" },
		{ NB_CANCEL, "CANCEL" },
		{ NB_ADD_GROUP_NAME, "ADD GROUP NAME" },
		{ NB_FIND_NAME, "FIND NAME" },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].code == command)
			return names[i].name;
	return "?";
}

IPX_DROP_NAMES(NB_DROPS, enum nb_drop, NB_DROP_COUNT, nb_drop_name)

/* ---- NCB queues ---- */

void nb_q_push(struct nb_ncb **q, struct nb_ncb *ncb)
{
	while (*q)
		q = &(*q)->next_;
	ncb->next_ = NULL;
	*q = ncb;
}

bool nb_q_remove(struct nb_ncb **q, struct nb_ncb *ncb)
{
	for (; *q; q = &(*q)->next_) {
		if (*q == ncb) {
			*q = ncb->next_;
			ncb->next_ = NULL;
			return true;
		}
	}
	return false;
}

struct nb_ncb *nb_q_pop(struct nb_ncb **q)
{
	struct nb_ncb *n = *q;

	if (n) {
		*q = n->next_;
		n->next_ = NULL;
	}
	return n;
}

unsigned nb_q_count(const struct nb_ncb *q)
{
	unsigned n = 0;

	for (; q; q = q->next_)
		n++;
	return n;
}

/* ---- completion ---- */

static bool holds_receive_buffer(uint8_t command)
{
	return command == NB_RECEIVE || command == NB_RECEIVE_ANY ||
	       command == NB_RECEIVE_DATAGRAM ||
	       command == NB_RECEIVE_BCAST_DATAGRAM;
}

void nb_done(struct netbios *nb, struct nb_ncb *ncb, uint8_t rc)
{
	ncb->retcode = rc;
	ncb->owner_ = NULL;
	if (ncb->command == NB_SEND)
		nb->sends_held--;
	else if (holds_receive_buffer(ncb->command))
		nb->recvs_held--;
	nb_q_push(&nb->done, ncb);
	if (!ipx_timer_active(&nb->done_timer))
		ipx_timer_start(nb->loop, &nb->done_timer, 0, 0);
}

static void run_done(struct ipx_loop *loop, struct ipx_timer *t, void *ctx)
{
	struct netbios *nb = ctx;
	struct nb_ncb *ncb;

	(void)loop;
	(void)t;
	/* POST routines may submit more; what completes meanwhile is run
	 * in this same turn, in order. */
	while ((ncb = nb_q_pop(&nb->done)) != NULL) {
		nb->pending--;
		if (ncb->post)
			ncb->post(ncb);
	}
}

/* ---- sending ---- */

int nb_send_to(struct netbios *nb, const struct ipx_addr *to,
	       const uint8_t *p, size_t len)
{
	int rc = ipx_socket_sendto(nb->sock, to, IPX_TYPE_PEP, p, len);

	if (rc == IPX_OK)
		nb->stats.packets_tx++;
	return rc;
}

int nb_reply(struct netbios *nb, const struct ipx_header *req,
	     const uint8_t *p, size_t len)
{
	int rc = ipx_socket_reply(nb->sock, req, IPX_TYPE_PEP, p, len);

	if (rc == IPX_OK)
		nb->stats.packets_tx++;
	return rc;
}

int nb_broadcast(struct netbios *nb, const uint8_t *body, size_t len)
{
	uint8_t pkt[IPX_MAX_PACKET];
	struct ipx_addr to = { .socket = IPX_SOCK_NETBIOS };
	int rc;

	if (len > sizeof(pkt) - NB_ROUTES_LEN)
		return IPX_ETOOBIG;
	/* The originator's network list is all zero (spec 4.2): routers
	 * record each network the broadcast crosses. */
	memset(pkt, 0, NB_ROUTES_LEN);
	memcpy(pkt + NB_ROUTES_LEN, body, len);
	memcpy(to.node, ipx_node_broadcast, IPX_NODE_LEN);
	rc = ipx_socket_sendto(nb->sock, &to, IPX_TYPE_NETBIOS, pkt,
			       NB_ROUTES_LEN + len);
	if (rc == IPX_OK)
		nb->stats.packets_tx++;
	return rc;
}

/* ---- datagrams ---- */

/* The largest datagram: what a type-20 broadcast can carry on our link,
 * at most the classic 512 bytes. */
size_t nb_dgram_max(const struct netbios *nb)
{
	size_t room = ipx_node_max_payload(nb->node, NULL);

	room = room > NB_ROUTES_LEN + NB_DGRAM_HDR_LEN
		       ? room - NB_ROUTES_LEN - NB_DGRAM_HDR_LEN
		       : 0;
	return room < NB_MAX_DATAGRAM ? room : NB_MAX_DATAGRAM;
}

uint8_t nb_take_buffer(struct netbios *nb, struct nb_ncb *ncb, bool send,
		       bool keep)
{
	unsigned *held = send ? &nb->sends_held : &nb->recvs_held;

	if (ncb->length && !ncb->buffer)
		return NB_RC_BUFLEN;
	if (*held >= (send ? nb->send_bufs : nb->recv_bufs)) {
		nb->stats.no_resource++;
		return NB_RC_NORES;
	}
	if (keep)
		++*held;
	return NB_RC_OK;
}

static uint8_t send_datagram(struct netbios *nb, struct nb_ncb *ncb,
			     bool bcast)
{
	uint8_t pkt[NB_DGRAM_HDR_LEN + NB_MAX_DATAGRAM];
	struct nb_dgram_hdr h = { .ds = NB_DS_DATAGRAM };
	const uint8_t *from = nb_num_name(nb, ncb->num);
	struct ipx_addr to;
	size_t len = NB_DGRAM_HDR_LEN + ncb->length;
	bool group, direct;
	uint8_t ret;
	int rc;

	if (!from)
		return NB_RC_BADNUM;
	if (!bcast && !nb_name_valid(ncb->callname))
		return NB_RC_NOWILD;
	if (ncb->length > nb_dgram_max(nb))
		return NB_RC_BUFLEN;
	/* A send buffer is needed only while it is being sent: now. */
	ret = nb_take_buffer(nb, ncb, true, false);
	if (ret != NB_RC_OK)
		return ret;
	memcpy(h.to, bcast ? nb_name_none : ncb->callname, NB_NAME_LEN);
	memcpy(h.from, from, NB_NAME_LEN);
	nb_dgram_hdr_encode(&h, pkt);
	if (ncb->length)
		memcpy(pkt + NB_DGRAM_HDR_LEN, ncb->buffer, ncb->length);
	/* Straight to the node when the name is known to be unique there;
	 * otherwise a type-20 broadcast routers carry on. (A 50-byte one
	 * whose 34th byte is 1..5 would look like a name packet to
	 * Wireshark without the list: it goes as a broadcast too.) */
	direct = !bcast && nb_cache_get(nb, ncb->callname, &to, &group) &&
		 !group && !(len == NB_NAME_PKT_LEN && pkt[33] >= 1 &&
			     pkt[33] <= 5);
	rc = direct ? nb_send_to(nb, &to, pkt, len)
		    : nb_broadcast(nb, pkt, len);
	if (rc != IPX_OK) {
		ipx_debug("netbios: datagram not sent: %s", ipx_strerror(rc));
		return NB_RC_NORES;
	}
	nb->stats.dgrams_tx++;
	return NB_RC_OK;
}

uint8_t nb_named_receive(struct netbios *nb, struct nb_ncb *ncb,
			 struct nb_ncb **q)
{
	uint8_t rc;

	if (ncb->num != 0xFF && !nb_num_name(nb, ncb->num))
		return NB_RC_BADNUM;
	rc = nb_take_buffer(nb, ncb, false, true);
	if (rc != NB_RC_OK)
		return rc;
	nb_q_push(q, ncb);
	return NB_RC_PENDING;
}

/* Give a datagram to one pending receive. */
static void fill_datagram(struct netbios *nb, struct nb_ncb *r,
			  const struct nb_dgram_hdr *h,
			  const struct ipx_header *ih, const uint8_t *data,
			  size_t len)
{
	size_t n = len < r->length ? len : r->length;

	if (n)
		memcpy(r->buffer, data, n);
	r->length = (uint16_t)n;
	memcpy(r->callname, h->from, NB_NAME_LEN);
	r->remote = ih->src;
	nb_done(nb, r, n < len ? NB_RC_INCOMPLETE : NB_RC_OK);
}

static void datagram_input(struct netbios *nb, const struct ipx_header *ih,
			   const struct nb_packet *pk)
{
	struct nb_dgram_hdr h;
	const uint8_t *data = pk->body + NB_DGRAM_HDR_LEN;
	size_t len = pk->len - NB_DGRAM_HDR_LEN;
	struct nb_ncb *r;
	uint8_t num;

	if (nb_dgram_hdr_decode(pk->body, pk->len, &h) != IPX_OK) {
		nb->stats.drops[NB_DROP_SHORT]++;
		return;
	}
	if (!memcmp(h.to, nb_name_none, NB_NAME_LEN)) {
		/* A broadcast datagram satisfies every RECEIVE BROADCAST
		 * DATAGRAM pending (our own broadcasts included). */
		if (!nb->bc_receives) {
			nb->stats.drops[NB_DROP_NO_RECEIVE]++;
			return;
		}
		nb->stats.dgrams_rx++;
		while ((r = nb_q_pop(&nb->bc_receives)) != NULL)
			fill_datagram(nb, r, &h, ih, data, len);
		return;
	}
	if (!nb_name_answers(nb, h.to, &num)) {
		nb->stats.drops[NB_DROP_NOT_OURS]++;
		return;
	}
	/* One RECEIVE DATAGRAM: for this name first, else for any name. */
	for (r = nb->dg_receives; r && r->num != num; r = r->next_)
		;
	if (!r)
		for (r = nb->dg_receives; r && r->num != 0xFF; r = r->next_)
			;
	if (!r) {
		nb->stats.drops[NB_DROP_NO_RECEIVE]++;
		return;
	}
	nb_q_remove(&nb->dg_receives, r);
	nb->stats.dgrams_rx++;
	fill_datagram(nb, r, &h, ih, data, len);
}

/* ---- receiving ---- */

static void recv_cb(struct ipx_socket *sock, const struct ipx_header *ih,
		    const uint8_t *data, size_t len, void *ctx)
{
	struct netbios *nb = ctx;
	struct nb_packet pk;

	(void)sock;
	nb->stats.packets_rx++;
	if (nb_packet_classify(ih->type, data, len, &pk) != IPX_OK) {
		nb->stats.drops[NB_DROP_SHORT]++;
		return;
	}
	switch (pk.ds) {
	case NB_DS_FIND_NAME:
	case NB_DS_NAME_RECOGNIZED:
	case NB_DS_CHECK_NAME:
	case NB_DS_NAME_IN_USE:
	case NB_DS_DEREGISTER:
		nb_names_input(nb, ih, &pk);
		break;
	case NB_DS_SESSION_DATA:
	case NB_DS_SESSION_END:
	case NB_DS_SESSION_END_ACK:
		if (pk.routes)
			nb->stats.drops[NB_DROP_UNKNOWN]++;
		else
			nb_session_input(nb, ih, &pk);
		break;
	case NB_DS_STATUS_QUERY:
	case NB_DS_STATUS_RESPONSE:
		nb_status_input(nb, ih, &pk);
		break;
	case NB_DS_DATAGRAM:
		datagram_input(nb, ih, &pk);
		break;
	default:
		nb->stats.drops[NB_DROP_UNKNOWN]++;
		break;
	}
}

/* ---- commands ---- */

static uint8_t cancel(struct netbios *nb, struct nb_ncb *ncb)
{
	struct nb_ncb *t = ncb->target;
	struct nb_ncb **q = NULL;

	if (!t || t == ncb)
		return NB_RC_BADCMD;
	if (t->retcode != NB_RC_PENDING)
		return NB_RC_CANOCCR;
	switch (t->command) {
	case NB_RECEIVE_DATAGRAM:
		q = &nb->dg_receives;
		break;
	case NB_RECEIVE_BCAST_DATAGRAM:
		q = &nb->bc_receives;
		break;
	case NB_RECEIVE_ANY:
		if (!nb_q_remove(&nb->any_receives, t))
			/* bound to a session already */
			return nb_session_cancel(nb, t) ? NB_RC_OK
							: NB_RC_CANOCCR;
		t->length = 0;
		nb_done(nb, t, NB_RC_CANCELLED);
		return NB_RC_OK;
	case NB_CALL:
	case NB_LISTEN:
	case NB_SEND:
	case NB_RECEIVE:
		return nb_session_cancel(nb, t) ? NB_RC_OK : NB_RC_CANOCCR;
	case NB_ADAPTER_STATUS:
		return nb_status_cancel(nb, t) ? NB_RC_OK : NB_RC_CANOCCR;
	case NB_FIND_NAME:
		if (!nb_resolve_abandon(nb, t))
			return NB_RC_CANOCCR;
		nb_done(nb, t, NB_RC_CANCELLED);
		return NB_RC_OK;
	default:
		return NB_RC_CANCEL;
	}
	if (!nb_q_remove(q, t))
		return NB_RC_CANOCCR;
	t->length = 0;
	nb_done(nb, t, NB_RC_CANCELLED);
	return NB_RC_OK;
}

/* Commands that may stay pending count against NETBIOS COMMANDS. */
static bool may_pend(const struct nb_ncb *ncb)
{
	switch (ncb->command) {
	case NB_ADAPTER_STATUS:
		return ncb->callname[0] != '*';
	case NB_SEND_DATAGRAM:
	case NB_SEND_BCAST_DATAGRAM:
	case NB_DELETE_NAME:
	case NB_SESSION_STATUS:
	case NB_CANCEL:
		return false;
	default:
		return true;
	}
}

uint8_t nb_submit(struct netbios *nb, struct nb_ncb *ncb)
{
	uint8_t rc;

	if (!nb || !ncb)
		return NB_RC_BADCMD;
	ncb->retcode = NB_RC_PENDING;
	ncb->next_ = NULL;
	ncb->owner_ = NULL;
	ncb->filled_ = 0;
	ncb->started_ = ipx_loop_now(nb->loop);
	if (may_pend(ncb) && nb->pending >= nb->max_commands) {
		rc = NB_RC_TOOMANY;
		goto out;
	}
	switch (ncb->command) {
	case NB_ADD_NAME:
	case NB_ADD_GROUP_NAME:
		rc = nb_add_name(nb, ncb);
		break;
	case NB_DELETE_NAME:
		rc = nb_delete_name(nb, ncb);
		break;
	case NB_FIND_NAME:
		rc = nb_find_name(nb, ncb);
		break;
	case NB_CALL:
		rc = nb_call(nb, ncb);
		break;
	case NB_LISTEN:
		rc = nb_listen(nb, ncb);
		break;
	case NB_HANG_UP:
		rc = nb_hang_up(nb, ncb);
		break;
	case NB_SEND:
		rc = nb_send_cmd(nb, ncb);
		break;
	case NB_RECEIVE:
		rc = nb_receive(nb, ncb);
		break;
	case NB_RECEIVE_ANY:
		rc = nb_receive_any(nb, ncb);
		break;
	case NB_SEND_DATAGRAM:
	case NB_SEND_BCAST_DATAGRAM:
		rc = send_datagram(nb, ncb,
				   ncb->command == NB_SEND_BCAST_DATAGRAM);
		break;
	case NB_RECEIVE_DATAGRAM:
	case NB_RECEIVE_BCAST_DATAGRAM:
		rc = nb_named_receive(nb, ncb,
				      ncb->command == NB_RECEIVE_BCAST_DATAGRAM
					      ? &nb->bc_receives
					      : &nb->dg_receives);
		break;
	case NB_ADAPTER_STATUS:
		rc = nb_adapter_status(nb, ncb);
		break;
	case NB_SESSION_STATUS:
		rc = nb_session_status(nb, ncb);
		break;
	case NB_CANCEL:
		rc = cancel(nb, ncb);
		break;
	default:
		rc = NB_RC_BADCMD;
		break;
	}
out:
	if (rc == NB_RC_PENDING)
		nb->pending++;
	else
		ncb->retcode = rc;
	return rc;
}

/* ---- the watchdog ---- */

static void tick(struct ipx_loop *loop, struct ipx_timer *t, void *ctx)
{
	struct netbios *nb = ctx;

	nb_sessions_watchdog(nb, ipx_loop_now(loop));
	if (nb->nsess == 0)
		ipx_timer_stop(loop, t);
}

void nb_tick_start(struct netbios *nb)
{
	if (!ipx_timer_active(&nb->tick))
		ipx_timer_start(nb->loop, &nb->tick, IPX_TICK, IPX_TICK);
}

/* ---- the module ---- */

int nb_open(struct ipx_node *node, const struct nb_options *opts,
	    struct netbios **out)
{
	const struct ipx_config *cfg = ipx_node_config(node);
	struct netbios *nb = calloc(1, sizeof(*nb));
	int rc;

	if (!nb)
		return IPX_ENOMEM;
	if (opts)
		nb->opts = *opts;
	if (!nb->opts.names)
		nb->opts.names = DEFAULT_NAMES;
	if (nb->opts.names > NB_MAX_NAMES)
		nb->opts.names = NB_MAX_NAMES;
	if (!nb->opts.cache_size)
		nb->opts.cache_size = DEFAULT_CACHE;
	if (nb->opts.cache_size > MAX_CACHE)
		nb->opts.cache_size = MAX_CACHE;
	if (!nb->opts.cache_lifetime)
		nb->opts.cache_lifetime = DEFAULT_CACHE_LIFETIME;
	nb->node = node;
	nb->loop = ipx_node_loop(node);
	nb->max_sessions = cfg->netbios_sessions < NB_MAX_LSN
				   ? cfg->netbios_sessions
				   : NB_MAX_LSN;
	nb->max_commands = cfg->netbios_commands;
	nb->send_bufs = cfg->netbios_send_buffers;
	nb->recv_bufs = cfg->netbios_receive_buffers;
	nb->retry_count = cfg->netbios_retry_count;
	nb->bcast_count = cfg->netbios_broadcast_count;
	nb->retry_delay = (ipx_time)cfg->netbios_retry_delay * IPX_MSEC;
	nb->bcast_delay = ipx_ticks(cfg->netbios_broadcast_delay);
	nb->listen_timeout = ipx_ticks(cfg->netbios_listen_timeout);
	nb->verify_timeout = ipx_ticks(cfg->netbios_verify_timeout);
	nb->abort_timeout = ipx_ticks(cfg->netbios_abort_timeout);
	nb->names = calloc(nb->opts.names, sizeof(*nb->names));
	nb->cache = calloc(nb->opts.cache_size, sizeof(*nb->cache));
	if (!nb->names || !nb->cache) {
		rc = IPX_ENOMEM;
		goto fail;
	}
	for (unsigned i = 0; i < nb->opts.names; i++) {
		nb->names[i].nb = nb;
		ipx_timer_init(&nb->names[i].timer, NULL, &nb->names[i]);
	}
	rc = ipx_socket_open(node, IPX_SOCK_NETBIOS, recv_cb, nb, &nb->sock);
	if (rc != IPX_OK)
		goto fail;
	nb->next_num = 2;
	nb->next_lsn = 1;
	nb->opened = ipx_loop_now(nb->loop);
	/* Connection ids of a restarted program differ from its last ones. */
	nb->gen = (uint8_t)(1 + nb->opened / 7 % 255);
	ipx_timer_init(&nb->done_timer, run_done, nb);
	ipx_timer_init(&nb->tick, tick, nb);
	*out = nb;
	return IPX_OK;
fail:
	free(nb->names);
	free(nb->cache);
	free(nb);
	return rc;
}

void nb_close(struct netbios *nb)
{
	if (!nb)
		return;
	nb_sessions_free(nb);
	nb_status_free(nb);
	nb_names_free(nb);
	ipx_timer_stop(nb->loop, &nb->done_timer);
	ipx_timer_stop(nb->loop, &nb->tick);
	ipx_socket_close(nb->sock);
	free(nb->names);
	free(nb->cache);
	free(nb);
}

const struct nb_stats *nb_get_stats(const struct netbios *nb)
{
	return &nb->stats;
}

struct ipx_node *nb_node(const struct netbios *nb)
{
	return nb->node;
}

unsigned nb_pending(const struct netbios *nb)
{
	return nb->pending;
}

size_t nb_session_count(const struct netbios *nb)
{
	return nb->nsess;
}

void nb_print_stats(const struct netbios *nb, FILE *out)
{
	const struct nb_stats *s = &nb->stats;
	const struct {
		const char *name;
		uint64_t v;
	} rows[] = {
		{ "packets_tx", s->packets_tx },
		{ "packets_rx", s->packets_rx },
		{ "claims", s->claims },
		{ "claims_lost", s->claims_lost },
		{ "defended", s->defended },
		{ "finds_tx", s->finds_tx },
		{ "answers_rx", s->answers_rx },
		{ "answers_tx", s->answers_tx },
		{ "cache_hits", s->cache_hits },
		{ "cache_misses", s->cache_misses },
		{ "datagrams_tx", s->dgrams_tx },
		{ "datagrams_rx", s->dgrams_rx },
		{ "sessions_opened", s->sessions_opened },
		{ "sessions_closed", s->sessions_closed },
		{ "sessions_aborted", s->sessions_aborted },
		{ "calls_rejected", s->calls_rejected },
		{ "data_tx", s->data_tx },
		{ "data_rx", s->data_rx },
		{ "bytes_tx", s->bytes_tx },
		{ "bytes_rx", s->bytes_rx },
		{ "retransmits", s->retransmits },
		{ "acks_tx", s->acks_tx },
		{ "acks_rx", s->acks_rx },
		{ "busy_tx", s->busy_tx },
		{ "busy_rx", s->busy_rx },
		{ "probes_tx", s->probes_tx },
		{ "keepalives_tx", s->keepalives_tx },
		{ "no_resource", s->no_resource },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		fprintf(out, "netbios %s %llu\n", rows[i].name,
			(unsigned long long)rows[i].v);
	for (int d = 0; d < NB_DROP_COUNT; d++)
		if (s->drops[d])
			fprintf(out, "netbios drop %s %llu\n",
				nb_drop_name((enum nb_drop)d),
				(unsigned long long)s->drops[d]);
}
