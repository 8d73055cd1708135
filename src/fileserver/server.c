/*
 * server.c - the NCP server core: the socket, create, request and
 * destroy packets, the one-request-per-connection rule with its cached
 * reply and 0x9999, the watchdog, statistics. The connection table and
 * file handles are in conn.c, the dispatcher in dispatch.c, the functions
 * themselves in fn_*.c.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/host.h"
#include "ipxlab/log.h"
#include "ipxlab/priv/drops.h"
#include "srv_int.h"

#define DEFAULT_CONNS 250
#define DEFAULT_HANDLES 64
#define DEFAULT_LOCKS 64
#define DEFAULT_BUFFER 1024
/* NetWare's watchdog: first poll after 4 min 56.6 s, then every 59.3 s,
 * 10 polls, then the connection is cleared. */
#define DEFAULT_WDOG_DELAY (296600 * IPX_MSEC)
#define DEFAULT_WDOG_INTERVAL (59300 * IPX_MSEC)
#define DEFAULT_WDOG_COUNT 10

IPX_DROP_NAMES(NCP_SRV_DROPS, enum ncp_srv_drop, NCP_SRV_DROP_COUNT,
	       ncp_srv_drop_name)

#define NAME_(id, name, desc) name,
static const char *const refusal_names[] = { NCP_SRV_REFUSALS(NAME_) };
#undef NAME_

const char *ncp_srv_refusal_name(enum ncp_srv_refusal r)
{
	return (unsigned)r < NCP_SRV_REF_COUNT ? refusal_names[r] : "?";
}

int ncp_volume_spec_parse(const char *text, struct ncp_volume_spec *out,
			  char *err, size_t errlen)
{
	const char *eq = strchr(text, '=');
	size_t n = eq ? (size_t)(eq - text) : 0, dl;
	char *dir = out->dir;

	memset(out, 0, sizeof(*out));
	if (!eq || n == 0 || n > NCP_VOLNAME_MAX) {
		snprintf(err, errlen, "'%s' is not NAME=DIR[,ro] with a name "
			 "of 1 to %d characters", text, NCP_VOLNAME_MAX);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		char ch = text[i];

		if (!((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') ||
		      (ch >= '0' && ch <= '9') || ch == '_' || ch == '-')) {
			snprintf(err, errlen, "volume name '%.*s': letters, "
				 "digits, '_' and '-' only", (int)n, text);
			return -1;
		}
		out->name[i] = (char)(ch >= 'a' && ch <= 'z' ? ch - 32 : ch);
	}
	snprintf(dir, sizeof(out->dir), "%s", eq + 1);
	dl = strlen(dir);
	if (dl >= 3 && !strcmp(dir + dl - 3, ",ro")) {
		out->read_only = true;
		dir[dl - 3] = '\0';
	} else if (dl >= 3 && !strcmp(dir + dl - 3, ",rw")) {
		dir[dl - 3] = '\0';
	}
	if (!dir[0]) {
		snprintf(err, errlen, "volume %s: no directory", out->name);
		return -1;
	}
	return 0;
}

/* ---- replies ---- */

/* The link of the packet being handled if it came straight from its
 * sender (not routed), else NULL. */
static struct ipx_link *direct_link(const struct ncp_server *srv,
				    const struct ipx_header *h)
{
	return h->hops == 0 ? ipx_node_rx_link(srv->node) : NULL;
}

static bool link_attached(const struct ncp_server *srv,
			  const struct ipx_link *link)
{
	for (size_t i = 0; i < ipx_node_link_count(srv->node); i++)
		if (ipx_node_link(srv->node, i) == link)
			return true;
	return false;
}

/*
 * Send to a client: to a connection on a segment of ours straight out of
 * the link its requests come in on, to its node (a client behind a stack
 * link with a network number no router announces was answered only after
 * a RIP request had timed out, about 1.5 s, for every reply); else an
 * answer to the packet being handled back the way it came; else routed.
 */
static void send_to(struct ncp_server *srv, struct ipx_socket *sock,
		    struct ncp_conn *conn, const struct ipx_addr *to,
		    const uint8_t *p, size_t len)
{
	struct ipx_link *link = NULL;
	int rc;

	if (conn && conn->link && link_attached(srv, conn->link))
		link = conn->link;
	else if (srv->rx && ipx_addr_eq(to, &srv->rx->src))
		link = direct_link(srv, srv->rx);
	if (link)
		rc = ipx_socket_sendto_link(sock, link, to, IPX_TYPE_NCP, p,
					    len);
	else if (srv->rx && ipx_addr_eq(to, &srv->rx->src))
		rc = ipx_socket_reply(sock, srv->rx, IPX_TYPE_NCP, p, len);
	else
		rc = ipx_socket_sendto(sock, to, IPX_TYPE_NCP, p, len);
	if (rc != IPX_OK)
		srv->stats.drops[NCP_SRV_DROP_TX]++;
}

void ncp_send_to(struct ncp_server *srv, struct ncp_conn *conn,
		 const struct ipx_addr *to, const uint8_t *p, size_t len)
{
	send_to(srv, srv->sock, conn, to, p, len);
}

static void send_raw(struct ncp_server *srv, struct ncp_conn *conn,
		     const uint8_t *p, size_t len)
{
	send_to(srv, srv->sock, conn, &conn->addr, p, len);
}

/* A header-only answer to the packet being handled. */
static void send_short(struct ncp_server *srv, const struct ipx_addr *to,
		       uint16_t type, const struct ncp_req_hdr *rq,
		       uint16_t conn, uint8_t cc, uint8_t status)
{
	struct ncp_rep_hdr h = { type, rq->seq, conn, rq->task, cc, status };
	uint8_t b[NCP_REP_HDR_LEN];

	ncp_rep_encode(&h, b);
	send_to(srv, srv->sock, NULL, to, b, sizeof(b));
}

/* Store a reply as the connection's last and send it. */
static void reply(struct ncp_server *srv, struct ncp_conn *conn,
		  const struct ncp_req_hdr *rq, uint8_t cc,
		  const uint8_t *data, size_t len)
{
	/* A held broadcast message shows in every reply (NetWare). */
	struct ncp_rep_hdr h = { NCP_TYPE_REPLY, rq->seq, conn->number,
				 rq->task, cc,
				 conn->msg_held ? NCP_STATUS_BROADCAST : 0 };

	if (len > NCP_MAX_PACKET - NCP_REP_HDR_LEN)
		len = 0;
	ncp_rep_encode(&h, conn->reply);
	if (len && data != conn->reply + NCP_REP_HDR_LEN)
		memmove(conn->reply + NCP_REP_HDR_LEN, data, len);
	conn->reply_len = NCP_REP_HDR_LEN + len;
	send_raw(srv, conn, conn->reply, conn->reply_len);
}

void ncp_finish_pending(struct ncp_server *srv, struct ncp_conn *conn,
			uint8_t cc)
{
	struct ncp_req_hdr rq = { NCP_TYPE_REQUEST, conn->pending.seq,
				  conn->number, conn->pending.task,
				  conn->pending.function };

	ipx_timer_stop(srv->loop, &conn->pending.timer);
	conn->pending.active = false;
	conn->busy = false;
	reply(srv, conn, &rq, cc, NULL, 0);
}

/* ---- requests ---- */

static void do_request(struct ncp_server *srv, struct ncp_conn *conn,
		       const struct ncp_req_hdr *rq, const uint8_t *data,
		       size_t len)
{
	struct ncp_call c;
	uint8_t out[NCP_MAX_PACKET];
	size_t cap;

	memset(&c, 0, sizeof(c));
	c.srv = srv;
	c.conn = conn;
	c.hdr = *rq;
	ncp_rd_init(&c.rd, data, len);
	cap = ipx_node_max_payload(srv->node, &conn->addr);
	if (cap > sizeof(out))
		cap = sizeof(out);
	ncp_wr_init(&c.wr, out, cap - NCP_REP_HDR_LEN);
	srv->stats.requests++;
	srv->stats.by_function[rq->function]++;
	conn->last_seq = rq->seq;
	conn->last_task = rq->task;
	conn->fresh = false;
	ncp_fn_dispatch(&c);
	if (c.pending) {
		conn->busy = true;
		conn->reply_len = 0;
		return;
	}
	if (c.wr.bad) {
		c.cc = NCP_CC_FAILURE;
		c.wr.len = 0;
	}
	reply(srv, conn, rq, c.cc, out, c.cc ? 0 : c.wr.len);
}

/*
 * A watchdog answer carries the low byte of the connection number only
 * (as the poll does), so the connection is the one of that low byte at
 * the answer's network and node: the one whose NCP socket is just below
 * the answering socket if there is one (the client answers from its
 * watchdog socket), else the first there. A server of more than 255
 * connections has to match so; by the number alone, connection 257's
 * answer would keep connection 1.
 */
static struct ncp_conn *conn_of_answer(struct ncp_server *srv,
				       const struct ipx_header *h,
				       uint8_t low)
{
	struct ncp_conn *any = NULL;

	for (unsigned i = low ? low - 1u : 255u; i < srv->max_conns;
	     i += 256) {
		struct ncp_conn *cn = &srv->conns[i];

		if (!cn->used || cn->addr.net != h->src.net ||
		    !ipx_node_eq(cn->addr.node, h->src.node))
			continue;
		if ((uint16_t)(cn->addr.socket + 1) == h->src.socket)
			return cn;
		if (!any)
			any = cn;
	}
	return any;
}

static void on_wdog_answer(struct ncp_server *srv, const struct ipx_header *h,
			   const uint8_t *data)
{
	struct ncp_conn *conn = conn_of_answer(srv, h, data[0]);

	if (!conn || data[1] != NCP_WDOG_ALIVE) {
		srv->stats.drops[NCP_SRV_DROP_WDOG_BAD]++;
		return;
	}
	srv->stats.wdog_answers++;
	conn->last_heard = ipx_loop_now(srv->loop);
	conn->next_wdog = 0;
	conn->wdog_left = srv->wdog_count;
}

/* The watchdog socket: answers only. */
static void on_wdog_packet(struct ipx_socket *sock, const struct ipx_header *h,
			   const uint8_t *data, size_t len, void *ctx)
{
	struct ncp_server *srv = ctx;

	(void)sock;
	if (len != NCP_WDOG_LEN) {
		srv->stats.drops[NCP_SRV_DROP_WDOG_BAD]++;
		return;
	}
	on_wdog_answer(srv, h, data);
}

/* A create request (0x1111): a new connection, or the lost reply again. */
static void on_create(struct ncp_server *srv, const struct ipx_header *h,
		      const struct ncp_req_hdr *rq, const uint8_t *data,
		      size_t len)
{
	struct ncp_conn *conn;

	if (len >= 10 && ipx_get32(data + 4) == 0x4C495020) {
		srv->stats.drops[NCP_SRV_DROP_BAD_TYPE]++;	/* LIP */
		return;
	}
	conn = ncp_conn_by_addr(srv, &h->src);
	if (conn && conn->fresh && conn->reply_len &&
	    rq->seq == conn->last_seq) {
		/* Our create reply was lost: the same answer again. */
		srv->stats.repeats++;
		send_raw(srv, conn, conn->reply, conn->reply_len);
		return;
	}
	if (ncp_conn_new(srv, &h->src, &conn) < 0) {
		srv->stats.full++;
		send_short(srv, &h->src, NCP_TYPE_REPLY, rq, 0xFFFF,
			   NCP_CC_NO_SLOTS, 0);
		return;
	}
	conn->number = (uint16_t)(conn - srv->conns + 1);
	conn->link = direct_link(srv, h);
	conn->last_seq = rq->seq;
	conn->fresh = true;
	srv->stats.created++;
	reply(srv, conn, rq, NCP_CC_OK, NULL, 0);
}

static void handle_packet(struct ncp_server *srv, const struct ipx_header *h,
			  const uint8_t *data, size_t len)
{
	struct ncp_req_hdr rq;
	struct ncp_conn *conn;

	if (len == NCP_WDOG_LEN) {
		on_wdog_answer(srv, h, data);
		return;
	}
	if (ncp_req_decode(data, len, &rq) < 0) {
		srv->stats.drops[NCP_SRV_DROP_SHORT]++;
		return;
	}
	if (h->type != IPX_TYPE_NCP && h->type != 0) {
		srv->stats.drops[NCP_SRV_DROP_BAD_PACKET_TYPE]++;
		return;
	}
	switch (rq.type) {
	case NCP_TYPE_CREATE:
		on_create(srv, h, &rq, data, len);
		return;
	case NCP_TYPE_REQUEST:
	case NCP_TYPE_DESTROY:
		break;
	case NCP_TYPE_BURST:
		ncp_burst_packet(srv, h, data, len);
		return;
	default:
		srv->stats.drops[NCP_SRV_DROP_BAD_TYPE]++;
		return;
	}
	conn = ncp_conn_by_number(srv, rq.conn);
	if (!conn || !ipx_addr_eq(&conn->addr, &h->src)) {
		/* mars_nwe: status 0 for destroy and logout of a dead one. */
		bool quiet = rq.type == NCP_TYPE_DESTROY || rq.function == 0x19;

		srv->stats.bad_conn++;
		send_short(srv, &h->src, NCP_TYPE_REPLY, &rq, rq.conn, 0,
			   quiet ? 0 : NCP_STATUS_BAD_CONN);
		return;
	}
	conn->last_heard = ipx_loop_now(srv->loop);
	conn->next_wdog = 0;
	conn->wdog_left = srv->wdog_count;
	conn->link = direct_link(srv, h);
	/* The cached reply of a fresh connection is the create's: a request
	 * is never its repeat (ncpfs creates with sequence 1 and then sends
	 * its first request with 1 again; mars_nwe accepts that too). */
	if (rq.seq == conn->last_seq && !conn->fresh &&
	    (conn->busy || conn->reply_len)) {
		if (conn->busy) {
			srv->stats.busy++;
			send_short(srv, &h->src, NCP_TYPE_BUSY, &rq,
				   conn->number, 0, 0);
		} else {
			srv->stats.repeats++;
			send_raw(srv, conn, conn->reply, conn->reply_len);
		}
		return;
	}
	if (conn->busy) {
		srv->stats.drops[NCP_SRV_DROP_BUSY_OTHER]++;
		return;
	}
	if (rq.type == NCP_TYPE_DESTROY) {
		struct ipx_addr to = conn->addr;
		struct ncp_req_hdr r0 = rq;

		r0.task = 0;
		srv->stats.destroyed++;
		ncp_conn_free(srv, conn);
		send_short(srv, &to, NCP_TYPE_REPLY, &r0, rq.conn, 0, 0);
		return;
	}
	do_request(srv, conn, &rq, data + NCP_REQ_HDR_LEN,
		   len - NCP_REQ_HDR_LEN);
}

static void on_packet(struct ipx_socket *sock, const struct ipx_header *h,
		      const uint8_t *data, size_t len, void *ctx)
{
	struct ncp_server *srv = ctx;

	(void)sock;
	srv->rx = h;
	handle_packet(srv, h, data, len);
	srv->rx = NULL;
}

/* ---- watchdog ---- */

static void on_tick(struct ipx_loop *loop, struct ipx_timer *t, void *ctx)
{
	struct ncp_server *srv = ctx;
	ipx_time now = ipx_loop_now(loop);

	(void)t;
	for (unsigned i = 0; i < srv->max_conns; i++) {
		struct ncp_conn *conn = &srv->conns[i];
		struct ipx_addr to;
		uint8_t b[NCP_WDOG_LEN];

		if (!conn->used || conn->busy)
			continue;
		/* Due times count from the last packet heard, not from this
		 * 1 s sweep, so the intervals are NetWare's on average. */
		if (!conn->next_wdog)
			conn->next_wdog = conn->last_heard + srv->wdog_delay;
		if (ipx_time_before(now, conn->next_wdog))
			continue;
		if (conn->wdog_left == 0) {
			ipx_info("ncp: connection %u (no answer to %u "
				 "watchdog polls) cleared",
				 conn->number, srv->wdog_count);
			srv->stats.wdog_cleared++;
			ncp_conn_free(srv, conn);
			continue;
		}
		conn->wdog_left--;
		conn->next_wdog += srv->wdog_interval;
		to = conn->addr;
		to.socket = (uint16_t)(to.socket + 1);
		b[0] = (uint8_t)conn->number;
		b[1] = NCP_WDOG_POLL;
		srv->stats.wdog_sent++;
		send_to(srv, srv->wsock ? srv->wsock : srv->sock, conn, &to, b,
			sizeof(b));
	}
}

void ncp_send_notice(struct ncp_server *srv, struct ncp_conn *conn,
		     uint8_t sig)
{
	struct ipx_addr to = conn->addr;
	uint8_t b[NCP_WDOG_LEN] = { (uint8_t)conn->number, sig };

	/* The message signal goes to the client's socket + 2 (mars_nwe). */
	to.socket = (uint16_t)(to.socket + 2);
	send_to(srv, srv->wsock ? srv->wsock : srv->sock, conn, &to, b,
		sizeof(b));
}

/* ---- life ---- */

/* A directory the server may list and walk into (as it runs): 0, or -1
 * with errno. */
static int dir_readable(int dirfd, const char *name)
{
	int fd;
	DIR *d;

	if (faccessat(dirfd, name, R_OK | X_OK, AT_EACCESS) < 0)
		return -1;
	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -1;
	}
	errno = 0;
	readdir(d);
	if (errno) {
		int e = errno;

		closedir(d);
		errno = e;
		return -1;
	}
	closedir(d);
	return 0;
}

/*
 * What every client would otherwise find out request by request (BAD_PATH,
 * DIR_IO): a volume's directory must be readable, and writable unless it
 * is served read-only (a file is made and removed to know: root passes
 * every permission test, but not a read-only file system).
 */
static int check_volume(const struct ncp_volume *v, char *err, size_t errlen)
{
	char probe[64];
	int fd;

	if (dir_readable(v->fd, ".") < 0) {
		snprintf(err, errlen, "volume %s: %s is not readable: %s",
			 v->name, v->dir, strerror(errno));
		return IPX_EIO;
	}
	if (v->ro)
		return IPX_OK;
	snprintf(probe, sizeof(probe), ".ipxlab-probe-%d", (int)getpid());
	fd = openat(v->fd, probe, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
				  O_CLOEXEC, 0600);
	if (fd < 0) {
		snprintf(err, errlen, "volume %s: %s is not writable: %s "
			 "(serve it read-only as %s=%s,ro)", v->name, v->dir,
			 strerror(errno), v->name, v->dir);
		return IPX_EIO;
	}
	close(fd);
	unlinkat(v->fd, probe, 0);
	return IPX_OK;
}

/* SYS:LOGIN is what a client sees before login: there, a directory,
 * readable; made if missing (not on a read-only SYS). */
static int check_login(const struct ncp_volume *v, char *err, size_t errlen)
{
	struct stat st;
	char host[256];
	int r = ncp_lookup(NULL, v->fd, "LOGIN", host, sizeof(host), &st);

	if (r == 0 && !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "volume SYS: %s/%s is not a directory "
			 "(SYS:LOGIN must be one)", v->dir, host);
		return IPX_EIO;
	}
	if (r < 0) {
		snprintf(err, errlen, "volume SYS: %s/LOGIN is a symbolic link "
			 "or special file (SYS:LOGIN must be a directory)",
			 v->dir);
		return IPX_EIO;
	}
	if (r == 1) {
		if (v->ro) {
			snprintf(err, errlen, "volume SYS: %s has no LOGIN "
				 "directory and is read-only: create %s/LOGIN",
				 v->dir, v->dir);
			return IPX_EIO;
		}
		if (mkdirat(v->fd, "LOGIN", 0755) < 0) {
			snprintf(err, errlen, "volume SYS: cannot create "
				 "%s/LOGIN: %s", v->dir, strerror(errno));
			return IPX_EIO;
		}
		snprintf(host, sizeof(host), "LOGIN");
	}
	if (dir_readable(v->fd, host) < 0) {
		snprintf(err, errlen, "volume SYS: %s/%s is not readable: %s",
			 v->dir, host, strerror(errno));
		return IPX_EIO;
	}
	return IPX_OK;
}

static int open_volumes(struct ncp_server *srv,
			const struct ncp_server_opts *o, char *err,
			size_t errlen)
{
	bool sys = false;

	for (size_t i = 0; i < o->nvolumes; i++) {
		struct ncp_volume *v = &srv->vols[i];

		for (size_t k = 0; k < i; k++)
			if (!strcmp(o->volumes[k].name, o->volumes[i].name)) {
				snprintf(err, errlen, "volume %s given twice",
					 o->volumes[i].name);
				return IPX_EINVAL;
			}
		snprintf(v->name, sizeof(v->name), "%s", o->volumes[i].name);
		snprintf(v->dir, sizeof(v->dir), "%s", o->volumes[i].dir);
		v->ro = o->volumes[i].read_only;
		v->fd = open(v->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (v->fd < 0) {
			snprintf(err, errlen, "volume %s: cannot open %s: %s",
				 v->name, v->dir, strerror(errno));
			return IPX_EIO;
		}
		srv->nvols++;
		if (check_volume(v, err, errlen) != IPX_OK)
			return IPX_EIO;
		if (!strcmp(v->name, "SYS"))
			sys = true;
	}
	if (!sys) {
		snprintf(err, errlen, "a volume named SYS is required "
			 "(--volume SYS=DIR)");
		return IPX_EINVAL;
	}
	/* SYS comes first: volume number 0, as on NetWare. */
	for (size_t i = 1; i < srv->nvols; i++)
		if (!strcmp(srv->vols[i].name, "SYS")) {
			struct ncp_volume t = srv->vols[0];

			srv->vols[0] = srv->vols[i];
			srv->vols[i] = t;
		}
	return check_login(&srv->vols[0], err, errlen) == IPX_OK ? IPX_OK
								 : IPX_EIO;
}

static bool name_taken(void *ctx)
{
	return ((struct ncp_server *)ctx)->name_taken;
}

/* Ask SAP for the file servers (a general query) and wait for one of our
 * name that answers for itself. */
static int check_name(struct ncp_server *srv, ipx_time wait, char *err,
		      size_t errlen)
{
	char as[IPX_ADDR_STRLEN];
	int rc;

	ipx_sap_query(srv->sap, IPX_SAP_GENERAL_QUERY, IPX_SAP_FILE_SERVER);
	rc = ipx_loop_run_until(srv->loop, name_taken, srv, wait);
	if (rc != IPX_OK && rc != IPX_ETIMEOUT) {
		snprintf(err, errlen, "while asking SAP whether '%s' is "
			 "taken: %s", srv->name, ipx_strerror(rc));
		return rc;
	}
	if (!srv->name_taken)
		return IPX_OK;
	snprintf(err, errlen, "a file server named '%s' already answers SAP "
		 "at %s: choose another --name", srv->name,
		 ipx_addr_format(&srv->taken_by, as));
	return IPX_EINUSE;
}

/* The limits of 'o', each 0 meaning its default. */
static void set_limits(struct ncp_server *srv, const struct ncp_server_opts *o)
{
	srv->max_conns = o->max_connections ? o->max_connections
					    : DEFAULT_CONNS;
	srv->max_handles = o->max_handles ? o->max_handles : DEFAULT_HANDLES;
	srv->max_locks = o->max_locks ? o->max_locks : DEFAULT_LOCKS;
	srv->wdog_delay = o->wdog_delay ? o->wdog_delay : DEFAULT_WDOG_DELAY;
	srv->wdog_interval = o->wdog_interval ? o->wdog_interval
					      : DEFAULT_WDOG_INTERVAL;
	srv->wdog_count = o->wdog_count ? o->wdog_count : DEFAULT_WDOG_COUNT;
	srv->max_buffer = o->max_buffer ? o->max_buffer : DEFAULT_BUFFER;
	srv->max_buffer_set = o->max_buffer != 0;
	srv->dos_only = o->dos_only;
	srv->no_burst = o->no_burst;
	srv->burst_max = o->burst_max ? o->burst_max : 524288;
}

/* The connection table, each slot's lock wait bound to it. */
static int alloc_conns(struct ncp_server *srv, char *err, size_t errlen)
{
	srv->conns = calloc(srv->max_conns, sizeof(*srv->conns));
	if (!srv->conns) {
		snprintf(err, errlen, "out of memory");
		return IPX_ENOMEM;
	}
	for (unsigned i = 0; i < srv->max_conns; i++) {
		struct ncp_pending *pd = &srv->conns[i].pending;

		pd->conn = &srv->conns[i];
		pd->srv = srv;
		ipx_timer_init(&pd->timer, ncp_locks_timeout, pd);
	}
	return IPX_OK;
}

static int open_sockets(struct ncp_server *srv, char *err, size_t errlen)
{
	int rc = ipx_socket_open(srv->node, NCP_SOCKET, on_packet, srv,
				 &srv->sock);

	if (rc != IPX_OK) {
		snprintf(err, errlen, "cannot open NCP socket 0x451: %s",
			 ipx_strerror(rc));
		return rc;
	}
	/* The watchdog's socket; if another program on this node has it,
	 * a dynamic one (the answers come back to where the poll came
	 * from). */
	rc = ipx_socket_open(srv->node, NCP_WDOG_SOCKET, on_wdog_packet, srv,
			     &srv->wsock);
	if (rc != IPX_OK)
		rc = ipx_socket_open(srv->node, 0, on_wdog_packet, srv,
				     &srv->wsock);
	if (rc != IPX_OK)
		snprintf(err, errlen, "cannot open a watchdog socket: %s",
			 ipx_strerror(rc));
	return rc;
}

/* SAP (the caller's, or one of our own that also feeds the bindery's
 * list of servers), the name check, the advertisement. */
static int start_sap(struct ncp_server *srv, const struct ncp_server_opts *o,
		     char *err, size_t errlen)
{
	int rc;

	srv->sap = o->sap;
	if (!srv->sap) {
		rc = ipx_sap_new(srv->node, NULL, &srv->sap);
		if (rc != IPX_OK) {
			snprintf(err, errlen, "cannot start SAP: %s",
				 ipx_strerror(rc));
			return rc;
		}
		srv->own_sap = true;
		ipx_sap_on_response(srv->sap, ncp_bindery_on_sap, srv);
	}
	if (o->name_check && srv->own_sap) {
		rc = check_name(srv, o->name_check, err, errlen);
		if (rc != IPX_OK)
			return rc;
	}
	rc = ipx_sap_advertise(srv->sap, IPX_SAP_FILE_SERVER, srv->name,
			       NCP_SOCKET);
	if (rc != IPX_OK)
		snprintf(err, errlen, "cannot advertise '%s': %s", srv->name,
			 ipx_strerror(rc));
	return rc;
}

int ncp_server_new(struct ipx_node *node, const struct ncp_server_opts *o,
		   struct ncp_server **out, char *err, size_t errlen)
{
	struct ncp_server *srv = calloc(1, sizeof(*srv));
	int rc;

	*out = NULL;
	if (!srv) {
		snprintf(err, errlen, "out of memory");
		return IPX_ENOMEM;
	}
	srv->node = node;
	srv->loop = ipx_node_loop(node);
	for (size_t i = 0; i < NCP_MAX_VOLUMES; i++)
		srv->vols[i].fd = -1;
	if (!o->name || !ipx_sap_name_ok(o->name)) {
		snprintf(err, errlen, "server name must be 1 to %d printable "
			 "characters", IPX_SAP_NAME_MAX);
		free(srv);
		return IPX_EINVAL;
	}
	snprintf(srv->name, sizeof(srv->name), "%s", o->name);
	set_limits(srv, o);
	rc = alloc_conns(srv, err, errlen);
	if (rc == IPX_OK)
		rc = open_volumes(srv, o, err, errlen);
	if (rc == IPX_OK)
		rc = ncp_bindery_load(srv, o->users_file, err, errlen);
	if (rc == IPX_OK && srv->clear_lines)
		ipx_warn("ncp: %s holds %u password(s) in clear text; "
			 "`ipxlab server --users %s --passwd USER` rewrites it "
			 "with hashes only", o->users_file, srv->clear_lines,
			 o->users_file);
	srv->allow_clear = o->allow_clear_text;
	srv->no_key = o->no_login_key;
	if (rc == IPX_OK && o->users_file &&
	    !(srv->users_file = strdup(o->users_file)))
		rc = IPX_ENOMEM;
	if (rc == IPX_OK)
		rc = ncp_rights_load(srv, o->rights_file, err, errlen);
	if (rc == IPX_OK)
		rc = open_sockets(srv, err, errlen);
	if (rc == IPX_OK)
		rc = start_sap(srv, o, err, errlen);
	if (rc != IPX_OK) {
		ncp_server_free(srv);
		return rc;
	}
	ipx_timer_init(&srv->tick, on_tick, srv);
	ipx_timer_start(srv->loop, &srv->tick, IPX_SEC, IPX_SEC);
	*out = srv;
	return IPX_OK;
}

void ncp_server_free(struct ncp_server *srv)
{
	if (!srv)
		return;
	ipx_timer_stop(srv->loop, &srv->tick);
	if (srv->sap) {
		ipx_sap_withdraw(srv->sap, IPX_SAP_FILE_SERVER, srv->name);
		if (srv->own_sap)
			ipx_sap_free(srv->sap);
	}
	if (srv->sock)
		ipx_socket_close(srv->sock);
	if (srv->wsock)
		ipx_socket_close(srv->wsock);
	for (unsigned i = 0; srv->conns && i < srv->max_conns; i++) {
		if (srv->conns[i].used)
			ncp_conn_free(srv, &srv->conns[i]);
		ncp_burst_free(srv, &srv->conns[i]);
		free(srv->conns[i].reply);
		free(srv->conns[i].files);
	}
	for (size_t i = 0; i < NCP_MAX_VOLUMES; i++)
		if (srv->vols[i].fd >= 0)
			close(srv->vols[i].fd);
	free(srv->conns);
	free(srv->locks);
	ncp_ns_free(srv);
	free(srv->users);
	free(srv->users_file);
	ncp_rights_free(srv);
	free(srv);
}

const struct ncp_server_stats *ncp_server_stats(const struct ncp_server *srv)
{
	return &srv->stats;
}

unsigned ncp_server_connections(const struct ncp_server *srv)
{
	return srv->in_use;
}

size_t ncp_server_lock_count(const struct ncp_server *srv)
{
	return srv->nlocks;
}

size_t ncp_server_open_files(const struct ncp_server *srv)
{
	size_t n = 0;

	for (unsigned i = 0; i < srv->max_conns; i++)
		n += srv->conns[i].used ? srv->conns[i].nfiles : 0;
	return n;
}

void ncp_server_print_stats(const struct ncp_server *srv, FILE *out)
{
	const struct ncp_server_stats *s = &srv->stats;

	fprintf(out, "connections_in_use %u\nconnections_peak %u\n",
		srv->in_use, srv->peak);
#define P_(f) fprintf(out, #f " %llu\n", (unsigned long long)s->f)
	P_(requests); P_(repeats); P_(busy); P_(bad_conn); P_(created);
	P_(destroyed); P_(full); P_(wdog_sent); P_(wdog_answers);
	P_(wdog_cleared); P_(logins); P_(bad_logins); P_(keys_issued);
	P_(passwords_changed); P_(messages_sent); P_(messages_refused);
	P_(messages_fetched); P_(bytes_read);
	P_(bytes_written); P_(fsyncs); P_(burst_sessions); P_(burst_refused);
	P_(burst_reads); P_(burst_writes); P_(burst_frags_sent);
	P_(burst_frags_resent); P_(burst_frags_received);
	P_(burst_missing_sent); P_(burst_missing_received);
#undef P_
	for (int d = 0; d < NCP_BURST_DROP_COUNT; d++)
		fprintf(out, "drop_%s %llu\n", ncp_burst_drop_name(d),
			(unsigned long long)s->burst_drops[d]);
	for (int d = 0; d < NCP_SRV_DROP_COUNT; d++)
		fprintf(out, "drop_%s %llu\n", drop_names[d],
			(unsigned long long)s->drops[d]);
	for (int r = 0; r < NCP_SRV_REF_COUNT; r++)
		fprintf(out, "refused_%s %llu\n", refusal_names[r],
			(unsigned long long)s->refusals[r]);
	for (int f = 0; f < 256; f++)
		if (s->by_function[f])
			fprintf(out, "function_%02X %llu\n", f,
				(unsigned long long)s->by_function[f]);
	for (int f = 0; f < 256; f++) {
		if (s->unknown[f])
			fprintf(out, "unknown_function_%02X %llu\n", f,
				(unsigned long long)s->unknown[f]);
		if (s->unknown_sub[f])
			fprintf(out, "unknown_subfunction_of_%02X %llu\n", f,
				(unsigned long long)s->unknown_sub[f]);
	}
}

void ncp_disk_dir(struct ncp_server *srv)
{
	struct ipx_host *h = ipx_link_host(ipx_node_link(srv->node, 0));

	if (h)
		ipx_host_disk_sync(h, ipx_machine_dir_writes(ipx_host_machine(h)));
}

void ncp_disk(struct ncp_server *srv, dev_t dev, ino_t ino, uint64_t off,
	      uint64_t len, bool write)
{
	struct ipx_host *h = ipx_link_host(ipx_node_link(srv->node, 0));

	if (h && len)
		ipx_host_disk(h, (uint64_t)dev << 40 ^ (uint64_t)ino, off, len,
			      write);
}
