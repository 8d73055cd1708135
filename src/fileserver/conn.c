/*
 * conn.c - the NCP server's connection table and what every handler
 * shares: finding a connection by number or address, creating and freeing
 * one, releasing what it (or one of its tasks) holds, file handles and
 * their check, and the counted answers (ncp_refuse, ncp_malformed,
 * ncp_unknown). server.c owns the socket and the request rules above it.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "srv_int.h"

struct ncp_conn *ncp_conn_by_number(struct ncp_server *srv, uint16_t n)
{
	if (n == 0 || n > srv->max_conns || !srv->conns[n - 1].used)
		return NULL;
	return &srv->conns[n - 1];
}

struct ncp_conn *ncp_conn_by_addr(struct ncp_server *srv,
				  const struct ipx_addr *a)
{
	for (unsigned i = 0; i < srv->max_conns; i++)
		if (srv->conns[i].used && ipx_addr_eq(&srv->conns[i].addr, a))
			return &srv->conns[i];
	return NULL;
}

void ncp_handle_of(const struct ncp_conn *conn, const struct ncp_file *f,
		   uint8_t *out)
{
	uint32_t idx = (uint32_t)(f - conn->files);

	/* 00 00, then a little-endian 32-bit number (as mars_nwe does):
	 * the slot and a generation, so a stale handle does not match. */
	out[0] = 0;
	out[1] = 0;
	out[2] = (uint8_t)idx;
	out[3] = (uint8_t)(idx >> 8);
	out[4] = (uint8_t)f->gen;
	out[5] = (uint8_t)(f->gen >> 8);
}

struct ncp_file *ncp_file_of(struct ncp_call *c, const uint8_t *h)
{
	struct ncp_conn *conn = c->conn;
	uint32_t idx = (uint32_t)(h[2] | h[3] << 8);
	uint16_t gen = (uint16_t)(h[4] | h[5] << 8);

	/* The first two bytes: 00 00 (ours, mars_nwe's), or the low 16 bits
	 * of the 4-byte handle plus one, as ncpfs makes a 6-byte handle out
	 * of the 4 bytes 0x57 0x01 returns. */
	uint16_t lead = (uint16_t)(h[0] | h[1] << 8);

	if ((lead && lead != (uint16_t)(idx + 1)) ||
	    idx >= c->srv->max_handles ||
	    !conn->files[idx].used || conn->files[idx].gen != gen) {
		c->srv->stats.refusals[NCP_SRV_REF_BAD_HANDLE]++;
		return NULL;
	}
	return &conn->files[idx];
}

void ncp_conn_release(struct ncp_server *srv, struct ncp_conn *conn, int task)
{
	if (conn->pending.active && (task < 0 || conn->pending.task == task)) {
		ipx_timer_stop(srv->loop, &conn->pending.timer);
		conn->pending.active = false;
		conn->busy = false;
	}
	ncp_locks_release(srv, conn, task);
	for (unsigned i = 0; i < srv->max_handles; i++) {
		struct ncp_file *f = &conn->files[i];

		if (!f->used || (task >= 0 && f->task != task))
			continue;
		close(f->fd);
		f->used = false;
		f->gen++;
		conn->nfiles--;
	}
	for (int i = 0; i < NCP_DIR_HANDLES; i++)
		if (conn->dirh[i].used &&
		    (task < 0 || (conn->dirh[i].temp &&
				  conn->dirh[i].task == task)))
			conn->dirh[i].used = false;
	if (task < 0)
		for (int i = 0; i < NCP_SEARCHES; i++)
			conn->search[i].used = false;
}

void ncp_conn_free(struct ncp_server *srv, struct ncp_conn *conn)
{
	ncp_conn_release(srv, conn, -1);
	ncp_burst_free(srv, conn);
	conn->used = false;
	conn->logged_in = false;
	srv->in_use--;
}

int ncp_conn_new(struct ncp_server *srv, const struct ipx_addr *a,
		 struct ncp_conn **out)
{
	struct ncp_conn *conn = ncp_conn_by_addr(srv, a);

	/* The same address creating again: its old connection is gone. */
	if (conn)
		ncp_conn_free(srv, conn);
	for (unsigned i = 0; i < srv->max_conns && !conn; i++)
		if (!srv->conns[i].used)
			conn = &srv->conns[i];
	if (!conn)
		return -1;
	if (!conn->reply) {
		conn->reply = malloc(NCP_MAX_PACKET);
		conn->files = calloc(srv->max_handles, sizeof(*conn->files));
		if (!conn->reply || !conn->files) {
			free(conn->reply);
			free(conn->files);
			conn->reply = NULL;
			conn->files = NULL;
			return -1;
		}
	}
	conn->used = true;
	conn->addr = *a;
	conn->last_seq = 0;
	conn->busy = false;
	conn->reply_len = 0;
	conn->last_heard = ipx_loop_now(srv->loop);
	conn->next_wdog = 0;
	conn->wdog_left = srv->wdog_count;
	conn->logged_in = false;
	conn->user[0] = '\0';
	conn->user_id = 0;
	conn->bufsize = 512;
	conn->nfiles = 0;
	conn->nlocks = 0;
	memset(conn->dirh, 0, sizeof(conn->dirh));
	memset(conn->search, 0, sizeof(conn->search));
	conn->pending.active = false;
	conn->key_issued = false;
	conn->msg_held = false;
	conn->msg_off = false;
	srv->in_use++;
	if (srv->in_use > srv->peak)
		srv->peak = srv->in_use;
	*out = conn;
	return 0;
}

uint8_t ncp_refuse(struct ncp_call *c, enum ncp_srv_refusal r, uint8_t cc)
{
	c->srv->stats.refusals[r]++;
	return cc;
}

void ncp_malformed(struct ncp_call *c)
{
	c->cc = ncp_refuse(c, NCP_SRV_REF_MALFORMED, NCP_CC_FAILURE);
}

void ncp_unknown(struct ncp_call *c, bool sub)
{
	if (sub)
		c->srv->stats.unknown_sub[c->hdr.function]++;
	else
		c->srv->stats.unknown[c->hdr.function]++;
	c->cc = NCP_CC_UNKNOWN_REQUEST;
}
