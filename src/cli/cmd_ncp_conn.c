/*
 * cmd_ncp_conn.c - the connection of "ipxlab ncp": the server found by
 * name, connected, logged in; while it is silent it is looked for again
 * by SAP, and a transfer whose server moved or forgot the connection goes
 * on over a new one (docs/ncp.md). Also the messages and progress line
 * the transfers share.
 */
#include <string.h>
#include <unistd.h>

#include "cmd_ncp.h"
#include "ipxlab/err.h"
#include "ipxlab/log.h"

int ncpc_fail(const char *what, const char *arg, int err)
{
	fprintf(stderr, "ipxlab ncp: %s%s%s: %s\n", what, arg ? " " : "",
		arg ? arg : "", ncp_strerror(err));
	return CLI_FAIL;
}

/*
 * A failure on a path, in words where the completion code says little:
 * 0xFF is "failure / no such file / no more entries", 0x9C a path with a
 * directory that is not there. The code's name follows in brackets.
 */
int ncpc_fail_path(const char *what, const char *path, int err)
{
	const char *says = err == NCP_CC_FAILURE || err == NCP_CC_BAD_PATH
				   ? "not found"
			   : err == NCP_CC_NAME_EXISTS ? "exists"
						       : NULL;

	if (!says)
		return ncpc_fail(what, path, err);
	fprintf(stderr, "ipxlab ncp: %s %s: %s (the server answered %s)\n",
		what, path, says, ncp_cc_id((uint8_t)err));
	return CLI_FAIL;
}

static void refind_stop(struct session *s)
{
	ipx_timer_stop(s->cn.loop, &s->refind);
	ipx_sap_on_response(s->sap, NULL, NULL);
}

/* The server of our name answering SAP from another address than the
 * connection's: it was restarted there (a tunnel client's node is its UDP
 * port), and the call waiting on the old address is cancelled. */
static void on_refind_sap(const struct ipx_header *hdr,
			  const struct ipx_sap_msg *m, void *ctx)
{
	struct session *s = ctx;

	for (size_t i = 0; i < m->count; i++) {
		struct ipx_sap_entry e = m->entries[i];

		if (e.type != IPX_SAP_FILE_SERVER || e.hops >= IPX_SAP_DOWN ||
		    strcasecmp(e.name, s->found) != 0)
			continue;
		if (e.addr.net == 0)
			e.addr.net = hdr->src.net;
		if (ipx_addr_eq(&e.addr, ncp_server_addr(s->cl)))
			continue;
		s->moved = true;
		s->moved_to = e.addr;
		refind_stop(s);
		ncp_client_cancel(s->cl);
		return;
	}
}

static void on_refind_timer(struct ipx_loop *loop, struct ipx_timer *t,
			    void *ctx)
{
	struct session *s = ctx;

	(void)loop;
	(void)t;
	ipx_sap_on_response(s->sap, on_refind_sap, s);
	ipx_sap_query(s->sap, IPX_SAP_GENERAL_QUERY, IPX_SAP_FILE_SERVER);
}

/*
 * After a get's read or a put's write failed: if the server was found
 * again (at another address, or at the same one, which then no longer
 * knows our connection), a new connection and login, as a NetWare shell
 * that reattaches. The caller opens its file again and goes on from the
 * last byte acknowledged: reads are repeatable, and every write the old
 * server acknowledged is on its disk (docs/ncp.md, Durability). True when
 * connected again (*rc 0); else *rc is the error to report.
 */
bool ncpc_recovered(struct session *s, int *rc)
{
	struct ipx_addr to;
	char as[IPX_ADDR_STRLEN];

	if (*rc == NCP_E_CANCELLED && s->moved)
		to = s->moved_to;
	else if (*rc == (NCP_E_STATUS | NCP_STATUS_BAD_CONN))
		to = *ncp_server_addr(s->cl);
	else
		return false;
	s->moved = false;
	refind_stop(s);
	if (s->reconnects++ >= 3)
		return false;
	if (s->progress)
		fputc('\n', stderr);
	fprintf(stderr, "ipxlab ncp: server %s found again at %s: connecting "
			"again\n",
		s->found, ipx_addr_format(&to, as));
	*rc = ncp_connect(s->cl, &to);
	if (!*rc && s->login)
		*rc = ncp_login(s->cl, s->user, s->pass);
	if (!*rc)
		*rc = ncp_negotiate(s->cl, s->bufsize);
	return *rc == 0;
}

/* The client's word that the server is silent, then back (NetWare
 * shells: "Error receiving from network" while they retried); while it
 * is silent, it is looked for again by name. */
static void on_stall(void *ctx, bool answering)
{
	struct session *s = ctx;

	if (answering)
		refind_stop(s);
	else if (s->found[0])
		ipx_timer_start(s->cn.loop, &s->refind, 0, IPX_SEC);

	if (s->progress)
		fputc('\n', stderr);	/* off the progress line */
	if (answering)
		fprintf(stderr, "ipxlab ncp: server %s answering again\n",
			s->found);
	else
		fprintf(stderr, "ipxlab ncp: server %s not responding, still "
				"trying\n",
			s->found);
}

/* Close after a failure only if the server is still answering: after a
 * time-out the close would wait out the whole back-off again. */
void ncpc_close_after(struct session *s, const struct ncp_fh *fh, int rc)
{
	if (rc > 0 && rc < 0x100)
		ncp_close(s->cl, fh);
}

void ncpc_show_progress(struct session *s, const char *name, uint64_t done,
			uint64_t total, ipx_time t0, bool last)
{
	double dt = (double)(ipx_loop_now(s->cn.loop) - t0) / IPX_SEC;

	if (!s->progress || total < PROGRESS_MIN)
		return;
	fprintf(stderr, "\r  %s  %llu/%llu kB  %.0f kB/s%s", name,
		(unsigned long long)(done / 1000),
		(unsigned long long)(total / 1000),
		dt > 0 ? (double)done / 1000 / dt : 0.0, last ? "\n" : "");
}

/* Found by name (or the nearest), with the messages of a failure. */
static int find_server(struct session *s, const struct ncp_args *a,
		       struct ipx_addr *addr)
{
	char found[48], as[IPX_ADDR_STRLEN];
	int rc = ncp_find_server(s->cl, s->sap, a->server,
				 (ipx_time)(a->findto * IPX_SEC), addr, found);

	snprintf(s->found, sizeof(s->found), "%s", found);
	if (rc == NCP_E_NOSERVER) {
		fprintf(stderr, "ipxlab ncp: no file server %s%sanswered "
				"within %.1f s\n",
			a->server ? a->server : "", a->server ? " " : "",
			a->findto);
		cli_frame_hint("ncp", s->cn.link, a->findto);
		return CLI_FAIL;
	}
	if (rc) {
		ncpc_fail("finding the server", NULL, rc);
		return CLI_FAIL;
	}
	if (ipx_log_get_level() >= IPX_LOG_DEBUG)
		fprintf(stderr, "ncp: server %s at %s\n", found,
			ipx_addr_format(addr, as));
	return CLI_OK;
}

int ncpc_connect(struct session *s, const struct ncp_args *a)
{
	struct ncp_client_opts co = { .retries = -1, .on_stall = on_stall,
				      .stall_ctx = s,
				      .allow_clear_text = a->clear_text,
				      .long_names = !a->dos_names,
				      .no_burst = a->no_burst };
	struct ipx_addr addr;
	int rc;

	s->progress = isatty(STDERR_FILENO);
	s->user = a->user;
	s->pass = a->pass ? a->pass : "";
	s->login = a->login;
	s->bufsize = (uint16_t)a->bufsize;
	ipx_timer_init(&s->refind, on_refind_timer, s);
	rc = ipx_sap_new(s->cn.node, NULL, &s->sap);
	if (rc == IPX_OK)
		rc = ncp_client_new(s->cn.node, &co, &s->cl);
	if (rc != IPX_OK) {
		cli_error("ncp", "cannot start: %s", ipx_strerror(rc));
		return CLI_FAIL;
	}
	rc = find_server(s, a, &addr);
	if (rc != CLI_OK)
		return rc;
	rc = ncp_connect(s->cl, &addr);
	if (rc)
		return ncpc_fail("connecting to", s->found, rc);
	if (a->login && (rc = ncp_login(s->cl, a->user, s->pass)))
		return ncpc_fail("login as", a->user, rc);
	rc = ncp_negotiate(s->cl, (uint16_t)a->bufsize);
	if (rc)
		return ncpc_fail("negotiating the buffer size", NULL, rc);
	if (ipx_log_get_level() >= IPX_LOG_DEBUG)
		fprintf(stderr, "ncp: packet burst %s\n",
			ncp_burst_active(s->cl) ? "granted"
						: "off: one request at a time");
	return CLI_OK;
}

void ncpc_end(struct session *s)
{
	if (s->sap)
		refind_stop(s);
	ncp_client_free(s->cl);	/* destroys the connection */
	ipx_sap_free(s->sap);
	cli_node_close(&s->cn);
}
