/*
 * client.c - the NCP client transport: connection create and destroy,
 * one request at a time with retransmission and back-off, 0x9999, the
 * watchdog answer, finding a server with SAP, logout and buffer size
 * (login, passwords and messages in login.c).
 */
#include <stdlib.h>
#include <string.h>

#include "client_int.h"
#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/log.h"
#include "ipxlab/priv/drops.h"

#define DEFAULT_RTO (100 * IPX_MSEC)
#define DEFAULT_RTO_MAX (6 * IPX_SEC)
#define DEFAULT_BUSY (6 * IPX_SEC)
#define DEFAULT_STALL (2 * IPX_SEC)
#define SERVER_SOCKET 0x0451

IPX_DROP_NAMES(NCP_CLI_DROPS, enum ncp_cli_drop, NCP_CLI_DROP_COUNT,
	       ncp_cli_drop_name)

const char *ncp_strerror(int err)
{
	static __thread char buf[96];

	if (err < 0)
		return ipx_strerror(err);
	if (err == 0)
		return "success";
	if (err < 0x100)
		return ncp_cc_text((uint8_t)err);
	if (err < 0x200) {
		snprintf(buf, sizeof(buf), "connection status %02X: %s",
			 err & 0xFF,
			 err & NCP_STATUS_BAD_CONN ? "the server does not know "
						     "this connection"
			 : err & NCP_STATUS_SERVER_DOWN ? "the server is going down"
							: "refused");
		return buf;
	}
	switch (err) {
	case NCP_E_TIMEOUT:
		return "no reply from the server (retransmissions used up)";
	case NCP_E_NOSERVER:
		return "no file server of that name answered";
	case NCP_E_NOTCONN:
		return "not connected to a server";
	case NCP_E_BADREPLY:
		return "the server's reply is too short for the call";
	case NCP_E_INTERRUPTED:
		return "interrupted";
	case NCP_E_LOCAL:
		return "a local file could not be read or written";
	case NCP_E_CANCELLED:
		return "cancelled";
	case NCP_E_NOKEY:
		return "the server gives no login key (no encrypted login); "
		       "allow a clear-text password with --clear-text";
	case NCP_E_NOTLOGGED:
		return "that user is not logged in";
	case NCP_E_NOT83:
		return "not an 8.3 name (DOS names: 1 to 8 characters, then "
		       "optionally a dot and 1 to 3 more)";
	default:
		return "unknown error";
	}
}

void ncp_client_input(struct ncp_client *cl, const struct ipx_addr *from,
		      const uint8_t *data, size_t len)
{
	struct ncp_rep_hdr h;

	if (len >= 2 && ipx_get16(data) == NCP_TYPE_BURST) {
		ncp_burst_input(cl, from, data, len);	/* burst.c */
		return;
	}
	if (ncp_rep_decode(data, len, &h) < 0) {
		cl->stats.drops[NCP_CLI_DROP_SHORT]++;
		return;
	}
	if (h.type != NCP_TYPE_REPLY && h.type != NCP_TYPE_BUSY) {
		cl->stats.drops[NCP_CLI_DROP_BAD_TYPE]++;
		return;
	}
	if (from->socket != cl->server.socket ||
	    !ipx_node_eq(from->node, cl->server.node) ||
	    (from->net && cl->server.net && from->net != cl->server.net)) {
		cl->stats.drops[NCP_CLI_DROP_NOT_SERVER]++;
		return;
	}
	/* Matched on sequence and connection (ncpfs: not on task). The
	 * create reply carries the connection being assigned. */
	if (!cl->waiting || h.seq != cl->want_seq ||
	    (cl->want_type != NCP_TYPE_CREATE && h.conn != cl->conn)) {
		cl->stats.drops[NCP_CLI_DROP_STALE]++;
		return;
	}
	if (h.type == NCP_TYPE_BUSY) {
		cl->stats.busy++;
		cl->busy = true;
		return;
	}
	if (len > sizeof(cl->reply))
		len = sizeof(cl->reply);
	memcpy(cl->reply, data, len);
	cl->reply_len = len;
	cl->got = true;
	cl->waiting = false;
	cl->stats.replies++;
}

static void on_packet(struct ipx_socket *s, const struct ipx_header *hdr,
		      const uint8_t *data, size_t len, void *ctx)
{
	(void)s;
	ncp_client_input(ctx, &hdr->src, data, len);
}

static void on_wdog(struct ipx_socket *s, const struct ipx_header *hdr,
		    const uint8_t *data, size_t len, void *ctx)
{
	struct ncp_client *cl = ctx;
	uint8_t b[2];

	if (len != NCP_WDOG_LEN || data[1] != NCP_WDOG_POLL || !cl->connected ||
	    data[0] != (uint8_t)cl->conn ||
	    !ipx_node_eq(hdr->src.node, cl->server.node)) {
		cl->stats.drops[NCP_CLI_DROP_WDOG_BAD]++;
		return;
	}
	b[0] = data[0];
	b[1] = NCP_WDOG_ALIVE;
	cl->stats.wdog_answered++;
	ipx_socket_sendto(s, &hdr->src, IPX_TYPE_NCP, b, sizeof(b));
}

int ncp_client_new(struct ipx_node *node, const struct ncp_client_opts *o,
		   struct ncp_client **out)
{
	struct ncp_client *cl = calloc(1, sizeof(*cl));
	int rc = IPX_ESOCKFULL;

	*out = NULL;
	if (!cl)
		return IPX_ENOMEM;
	cl->node = node;
	cl->loop = ipx_node_loop(node);
	if (o)
		cl->opts = *o;
	else
		cl->opts.retries = -1;
	if (!cl->opts.rto)
		cl->opts.rto = DEFAULT_RTO;
	if (!cl->opts.rto_max)
		cl->opts.rto_max = DEFAULT_RTO_MAX;
	if (!cl->opts.busy_wait)
		cl->opts.busy_wait = DEFAULT_BUSY;
	if (cl->opts.retries < 0)
		cl->opts.retries =
			(int)ipx_node_config(node)->ipx_retry_count;
	if (!cl->opts.task)
		cl->opts.task = 1;
	cl->bufsize = 512;
	/* Our socket and the next (the watchdog's), as NetWare shells;
	 * 0x4001/0x4003 are left to the shells that Wireshark expects. */
	for (uint16_t n = 0x4010; n < 0x7FF0; n += 2) {
		if (ipx_socket_open(node, n, on_packet, cl, &cl->sock) != IPX_OK)
			continue;
		rc = ipx_socket_open(node, (uint16_t)(n + 1), on_wdog, cl,
				     &cl->wdog);
		if (rc == IPX_OK)
			break;
		ipx_socket_close(cl->sock);
		cl->sock = NULL;
		if (rc == IPX_ESOCKFULL)
			break;
	}
	if (!cl->wdog) {
		free(cl);
		return rc;
	}
	*out = cl;
	return IPX_OK;
}

void ncp_client_free(struct ncp_client *cl)
{
	if (!cl)
		return;
	if (cl->connected) {
		cl->opts.retries = 0;
		ncp_disconnect(cl);
	}
	ipx_socket_close(cl->wdog);
	ipx_socket_close(cl->sock);
	ncp_burst_drop(cl);
	free(cl);
}

void ncp_client_abandon(struct ncp_client *cl)
{
	if (!cl)
		return;
	cl->connected = false;
	ncp_client_free(cl);
}

const struct ncp_client_stats *ncp_client_stats(const struct ncp_client *cl)
{
	return &cl->stats;
}

static bool reply_or_busy(void *ctx)
{
	struct ncp_client *cl = ctx;

	return cl->got || cl->busy || cl->cancel;
}

void ncp_client_cancel(struct ncp_client *cl)
{
	if (cl->waiting)
		cl->cancel = true;
}

const struct ipx_addr *ncp_server_addr(const struct ncp_client *cl)
{
	return &cl->server;
}

/* Send one request and wait for its reply, retransmitting. */
static int transact(struct ncp_client *cl, uint16_t type, uint8_t function,
		    const uint8_t *data, size_t len)
{
	uint8_t pkt[NCP_CLI_MAX];
	struct ncp_req_hdr h;
	struct ncp_rep_hdr rh;
	ipx_time rto = cl->opts.rto, wait;
	int tries = 0;
	uint8_t prev_seq;
	bool sent = false, stalled = false;
	ipx_time t0 = ipx_loop_now(cl->loop), deadline;
	ipx_time stall_after = cl->opts.stall_after ? cl->opts.stall_after
						     : DEFAULT_STALL;

	if (len > sizeof(pkt) - NCP_REQ_HDR_LEN)
		return IPX_ETOOBIG;
	if (type != NCP_TYPE_CREATE && !cl->connected)
		return NCP_E_NOTCONN;
	h.type = type;
	h.seq = type == NCP_TYPE_CREATE ? 0 : (uint8_t)(cl->seq + 1);
	h.conn = type == NCP_TYPE_CREATE ? 0xFFFF : cl->conn;
	h.task = type == NCP_TYPE_CREATE ? 2 : cl->opts.task;
	h.function = function;
	ncp_req_encode(&h, pkt);
	if (len)
		memcpy(pkt + NCP_REQ_HDR_LEN, data, len);
	prev_seq = cl->seq;
	cl->seq = h.seq;
	cl->want_seq = h.seq;
	cl->want_type = type;
	cl->cancel = false;
	cl->stats.requests++;
	wait = rto;
	for (;;) {
		int rc = ipx_socket_sendto(cl->sock, &cl->server, IPX_TYPE_NCP,
					   pkt, NCP_REQ_HDR_LEN + len);

		sent |= rc == IPX_OK;
		if (rc != IPX_OK && rc != IPX_ENOROUTE && rc != IPX_ENOTUP) {
			/* Never on the wire (too big for the link...): the
			 * server has not seen this sequence number, so the
			 * next request (the Destroy Connection) takes it. */
			if (!sent)
				cl->seq = prev_seq;
			cl->waiting = false;
			return rc;
		}
		cl->waiting = true;
		cl->got = false;
		deadline = ipx_loop_now(cl->loop) + wait;
		for (;;) {
			ipx_time now = ipx_loop_now(cl->loop);
			ipx_time slice = ipx_time_before(now, deadline)
						 ? deadline - now
						 : 0;

			/* Wake for the warning at its time, not at the next
			 * retransmission's (3.1 s). */
			if (!stalled && cl->opts.on_stall &&
			    ipx_time_before(t0 + stall_after, now + slice))
				slice = ipx_time_before(now, t0 + stall_after)
						? t0 + stall_after - now
						: 0;
			cl->busy = false;
			rc = ipx_loop_run_until(cl->loop, reply_or_busy, cl,
						slice);
			if (rc == IPX_ECLOSED) {
				cl->waiting = false;
				return NCP_E_INTERRUPTED;
			}
			if (cl->cancel && !cl->got) {
				cl->cancel = false;
				cl->waiting = false;
				return NCP_E_CANCELLED;
			}
			if (cl->got)
				break;
			now = ipx_loop_now(cl->loop);
			if (cl->busy) {
				/* Still being worked on: the count starts
				 * again. */
				tries = 0;
				t0 = now;
				deadline = now + cl->opts.busy_wait;
				continue;
			}
			if (!stalled && cl->opts.on_stall &&
			    !ipx_time_before(now, t0 + stall_after)) {
				stalled = true;
				cl->stats.stalls++;
				cl->opts.on_stall(cl->opts.stall_ctx, false);
			}
			if (!ipx_time_before(now, deadline))
				break;
		}
		if (cl->got) {
			if (stalled)
				cl->opts.on_stall(cl->opts.stall_ctx, true);
			break;
		}
		if (tries++ >= cl->opts.retries) {
			if (!sent)	/* no route the whole time */
				cl->seq = prev_seq;
			cl->waiting = false;
			return NCP_E_TIMEOUT;
		}
		cl->stats.retransmits++;
		rto = rto * 2 > cl->opts.rto_max ? cl->opts.rto_max : rto * 2;
		wait = rto;
	}
	ncp_rep_decode(cl->reply, cl->reply_len, &rh);
	if (type == NCP_TYPE_CREATE && rh.cc == 0)
		cl->conn = rh.conn;
	cl->msg_waiting = rh.status & NCP_STATUS_BROADCAST;
	if (rh.status & (NCP_STATUS_BAD_CONN | NCP_STATUS_SERVER_DOWN))
		return NCP_E_STATUS | rh.status;
	return rh.cc;
}

int ncp_request(struct ncp_client *cl, uint8_t function, const void *data,
		size_t len, uint8_t *reply, size_t cap, size_t *rlen)
{
	int rc = transact(cl, NCP_TYPE_REQUEST, function, data, len);
	size_t n = cl->reply_len > NCP_REP_HDR_LEN
			   ? cl->reply_len - NCP_REP_HDR_LEN
			   : 0;

	if (rc)
		return rc;
	if (n > cap)
		n = cap;
	if (reply && n)
		memcpy(reply, cl->reply + NCP_REP_HDR_LEN, n);
	if (rlen)
		*rlen = n;
	return 0;
}

int ncp_request_sub(struct ncp_client *cl, uint8_t function, uint8_t sub,
		    const void *data, size_t len, uint8_t *reply, size_t cap,
		    size_t *rlen)
{
	uint8_t b[NCP_CLI_MAX];

	if (len > sizeof(b) - 3)
		return IPX_ETOOBIG;
	ipx_put16(b, (uint16_t)(len + 1));
	b[2] = sub;
	if (len)
		memcpy(b + 3, data, len);
	return ncp_request(cl, function, b, len + 3, reply, cap, rlen);
}

/* ---- finding a server ---- */

static void on_sap(const struct ipx_header *hdr, const struct ipx_sap_msg *m,
		   void *ctx)
{
	struct ncp_client *cl = ctx;

	for (size_t i = 0; i < m->count && !cl->found; i++) {
		const struct ipx_sap_entry *e = &m->entries[i];

		if (e->type != IPX_SAP_FILE_SERVER || e->hops >= IPX_SAP_DOWN)
			continue;
		/* The nearest: a nearest response, or any file server once
		 * a general query has gone out. */
		if (cl->find_name ? strcasecmp(e->name, cl->find_name) != 0
				  : m->op != IPX_SAP_NEAREST_RESPONSE &&
					    !cl->find_general)
			continue;
		cl->found_entry = *e;
		if (cl->found_entry.addr.net == 0)
			cl->found_entry.addr.net = hdr->src.net;
		cl->found = true;
	}
}

static bool found(void *ctx)
{
	return ((struct ncp_client *)ctx)->found;
}

/*
 * The query goes out again every FIND_RESEND within the time, as NetWare
 * shells sent Get Nearest Server again: one lost query or answer (10 %
 * loss) no longer means "no file server". The nearest query alternates
 * with a general one for file servers (some servers and routers answer
 * only that); by name it is always the general query.
 */
#define FIND_RESEND (500 * IPX_MSEC)

int ncp_find_server(struct ncp_client *cl, struct ipx_sap *sap,
		    const char *name, ipx_time timeout, struct ipx_addr *addr,
		    char *found_name)
{
	ipx_time end = ipx_loop_now(cl->loop) + timeout;
	unsigned n = 0;
	int rc = IPX_OK;

	cl->find_name = name;
	cl->find_general = false;
	cl->found = false;
	ipx_sap_on_response(sap, on_sap, cl);
	while (!cl->found) {
		ipx_time now = ipx_loop_now(cl->loop), slice;
		bool general = name || n % 2 == 1;

		if (!ipx_time_before(now, end))
			break;
		rc = ipx_sap_query(sap, general ? IPX_SAP_GENERAL_QUERY
						: IPX_SAP_NEAREST_QUERY,
				   IPX_SAP_FILE_SERVER);
		if (rc != IPX_OK)
			break;
		cl->find_general |= general;
		n++;
		cl->stats.sap_queries++;
		slice = end - now < FIND_RESEND ? end - now : FIND_RESEND;
		rc = ipx_loop_run_until(cl->loop, found, cl, slice);
		if (rc != IPX_OK && rc != IPX_ETIMEOUT)
			break;
	}
	ipx_sap_on_response(sap, NULL, NULL);
	cl->find_name = NULL;
	if (!cl->found)
		return rc == IPX_ECLOSED ? NCP_E_INTERRUPTED : NCP_E_NOSERVER;
	*addr = cl->found_entry.addr;
	if (found_name)
		snprintf(found_name, 48, "%s", cl->found_entry.name);
	return 0;
}

/* ---- connection ---- */

int ncp_alloc_dh(struct ncp_client *cl, const char *path)
{
	uint8_t b[260], r[8];
	size_t n = strlen(path), rl;
	int rc;

	if (n > 255)
		return IPX_EINVAL;
	b[0] = 0;	/* source handle: none, the path has a volume */
	b[1] = 'Z';
	b[2] = (uint8_t)n;
	memcpy(b + 3, path, n);
	rc = ncp_request_sub(cl, 0x16, 0x12, b, n + 3, r, sizeof(r), &rl);
	if (rc)
		return rc;
	if (rl < 2)
		return NCP_E_BADREPLY;
	if (cl->dh) {	/* the old one goes */
		uint8_t d = cl->dh;

		ncp_request_sub(cl, 0x16, 0x14, &d, 1, NULL, 0, NULL);
	}
	cl->dh = r[0];
	return 0;
}

int ncp_connect(struct ncp_client *cl, const struct ipx_addr *server)
{
	int rc;

	cl->server = *server;
	cl->dh = 0;
	cl->sattr_dir = 0;	/* a new connection, maybe another server */
	rc = transact(cl, NCP_TYPE_CREATE, 0, NULL, 0);
	if (rc)
		return rc;
	cl->connected = true;
	cl->ns = 0;
	rc = ncp_alloc_dh(cl, "SYS:LOGIN");
	if (!rc)
		rc = ncp_ns_detect(cl);
	if (!rc)
		rc = ncp_burst_connect(cl);	/* 0x65, unless no_burst */
	return rc;
}

uint16_t ncp_connection(const struct ncp_client *cl)
{
	return cl->conn;
}

int ncp_disconnect(struct ncp_client *cl)
{
	int rc;

	if (!cl->connected)
		return NCP_E_NOTCONN;
	rc = transact(cl, NCP_TYPE_DESTROY, 0, NULL, 0);
	ncp_burst_drop(cl);
	cl->connected = false;
	cl->dh = 0;
	return rc;
}

int ncp_logout(struct ncp_client *cl)
{
	int rc = ncp_request(cl, 0x19, NULL, 0, NULL, 0, NULL);

	cl->dh = 0;
	if (rc == 0)
		rc = ncp_alloc_dh(cl, "SYS:LOGIN");
	return rc;
}

/*
 * The size the server grants is what it can handle; each request and
 * reply must also fit the IPX packets the link to it carries. A write
 * request has 20 bytes before its data, a read reply 11 (with the pad
 * byte): 24 kept, as the server does. mars_nwe answers 1,444 (its
 * IPX_MAX_DATA 1470 less its overhead) to a client behind DOSBox's tunnel,
 * whose packets are at most 1,424 bytes: 1,370 then, and never less than
 * the 512 every server accepts.
 */
static uint16_t clamp_to_link(const struct ncp_client *cl, unsigned want)
{
	size_t payload = ipx_node_max_payload(cl->node, &cl->server);
	size_t cap = payload > 24 + 512 ? payload - 24 : 512;

	if (cap > NCP_CLI_MAX - 24)
		cap = NCP_CLI_MAX - 24;
	return (uint16_t)(want < cap ? want : cap);
}

int ncp_negotiate(struct ncp_client *cl, uint16_t want)
{
	uint8_t b[3], r[8];
	size_t rl;
	int rc;

	want = clamp_to_link(cl, want);	/* ask for no more than fits */
	ipx_put16(b, want);
	b[2] = 0;	/* no checksums or signatures */
	rc = ncp_request(cl, 0x61, b, 3, r, sizeof(r), &rl);
	if (rc == 0 && rl < 2)
		rc = NCP_E_BADREPLY;
	if (rc && rc < 0x100)
		rc = ncp_request(cl, 0x21, b, 2, r, sizeof(r), &rl);
	if (rc)
		return rc;
	if (rl < 2)
		return NCP_E_BADREPLY;
	want = ipx_get16(r);
	if (want < 512)
		return NCP_E_BADREPLY;
	cl->bufsize = clamp_to_link(cl, want);
	return 0;
}

uint16_t ncp_bufsize(const struct ncp_client *cl)
{
	return cl->bufsize;
}
