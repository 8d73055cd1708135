/*
 * locks.c - physical record locks (0x1A..0x1F) between connections.
 *
 * A record is logged (0x1A with flag 0, or any 0x1A) and then locked,
 * exclusive (flag 1) or shareable (flag 3); 0x1B locks every logged
 * record of the connection, all or none. An exclusive lock conflicts with
 * any lock of another connection on an overlapping range of the same
 * file (same device and inode), a shareable one with an exclusive one.
 * Other connections' reads are refused (A2) in exclusively locked ranges,
 * their writes in any locked range. A lock that conflicts fails at once
 * (FF) with timeout 0; otherwise the request waits, answered 0x9999 when
 * repeated, until the lock is granted or the timeout (in ticks) passes
 * (FE). Releasing anything retries the waiting requests.
 *
 * Waiters are served in the order they began to wait: a lock (asked now
 * or waiting) is granted only if it conflicts with no lock of another
 * connection and with no request of another connection that has waited
 * longer, so neither a lower connection number nor a stream of new or
 * later requests can starve an earlier one.
 */
#include <stdlib.h>
#include <string.h>

#include "srv_int.h"

static bool overlap(uint32_t a, uint32_t alen, uint32_t b, uint32_t blen)
{
	uint64_t ae = (uint64_t)a + alen, be = (uint64_t)b + blen;

	return alen && blen && a < be && b < ae;
}

static bool conflicts(const struct ncp_server *srv, const struct ncp_lock *l,
		      bool shared)
{
	for (size_t i = 0; i < srv->nlocks; i++) {
		const struct ncp_lock *o = &srv->locks[i];

		if (o->conn == l->conn || !o->locked || o->dev != l->dev ||
		    o->ino != l->ino || !overlap(o->start, o->len, l->start,
						 l->len))
			continue;
		if (!shared || !o->shared)
			return true;
	}
	return false;
}

/* True if a request of another connection that began to wait before
 * 'before' wants a range that lock l (asked shared or not) conflicts
 * with: granting l would overtake it. */
static bool queued_ahead(const struct ncp_server *srv,
			 const struct ncp_lock *l, bool shared,
			 uint64_t before)
{
	for (unsigned i = 0; i < srv->max_conns; i++) {
		const struct ncp_conn *cn = &srv->conns[i];
		const struct ncp_pending *pd = &cn->pending;

		if (!cn->used || !pd->active || cn == l->conn ||
		    pd->ticket >= before)
			continue;
		for (size_t k = 0; k < srv->nlocks; k++) {
			const struct ncp_lock *o = &srv->locks[k];
			bool wanted = pd->function == 0x1B
				? !o->locked
				: !memcmp(o->handle, pd->handle,
					  NCP_HANDLE_LEN) &&
				  o->start == pd->start && o->len == pd->len;

			if (o->conn != cn || !wanted || o->dev != l->dev ||
			    o->ino != l->ino ||
			    !overlap(o->start, o->len, l->start, l->len))
				continue;
			if (!shared || pd->flag != NCP_LOCK_SHARED)
				return true;
		}
	}
	return false;
}

static bool can_grant(const struct ncp_server *srv, const struct ncp_lock *l,
		      bool shared, uint64_t before)
{
	return !conflicts(srv, l, shared) &&
	       !queued_ahead(srv, l, shared, before);
}

bool ncp_locks_blocked(const struct ncp_server *srv,
		       const struct ncp_conn *conn, dev_t dev, ino_t ino,
		       uint32_t start, uint32_t len, bool write)
{
	for (size_t i = 0; i < srv->nlocks; i++) {
		const struct ncp_lock *o = &srv->locks[i];

		if (o->conn != conn && o->locked && o->dev == dev &&
		    o->ino == ino && overlap(o->start, o->len, start, len) &&
		    (write || !o->shared))
			return true;
	}
	return false;
}

static struct ncp_lock *find(struct ncp_server *srv, struct ncp_conn *conn,
			     const uint8_t *h, uint32_t start, uint32_t len)
{
	for (size_t i = 0; i < srv->nlocks; i++) {
		struct ncp_lock *l = &srv->locks[i];

		if (l->conn == conn && !memcmp(l->handle, h, NCP_HANDLE_LEN) &&
		    l->start == start && l->len == len)
			return l;
	}
	return NULL;
}

static void remove_at(struct ncp_server *srv, size_t i)
{
	srv->locks[i].conn->nlocks--;
	srv->locks[i] = srv->locks[--srv->nlocks];
}

/* Try to lock the connection's logged set: all or none. */
static bool lock_set(struct ncp_server *srv, struct ncp_conn *conn,
		     bool shared, uint64_t before)
{
	for (size_t i = 0; i < srv->nlocks; i++)
		if (srv->locks[i].conn == conn && !srv->locks[i].locked &&
		    !can_grant(srv, &srv->locks[i], shared, before))
			return false;
	for (size_t i = 0; i < srv->nlocks; i++)
		if (srv->locks[i].conn == conn && !srv->locks[i].locked) {
			srv->locks[i].locked = true;
			srv->locks[i].shared = shared;
		}
	return true;
}

static bool try_pending(struct ncp_server *srv, struct ncp_conn *conn)
{
	struct ncp_pending *pd = &conn->pending;
	bool shared = pd->flag == NCP_LOCK_SHARED;
	struct ncp_lock *l;

	if (pd->function == 0x1B)
		return lock_set(srv, conn, shared, pd->ticket);
	l = find(srv, conn, pd->handle, pd->start, pd->len);
	if (!l)
		return true;	/* cleared meanwhile: nothing to wait for */
	if (!can_grant(srv, l, shared, pd->ticket))
		return false;
	l->locked = true;
	l->shared = shared;
	return true;
}

/* A grant only adds a lock and a waiter that asked earlier blocks any
 * later one it conflicts with (queued_ahead), so one pass in any order
 * grants just what the queue order allows. */
static void retry_waiting(struct ncp_server *srv)
{
	for (unsigned i = 0; i < srv->max_conns; i++) {
		struct ncp_conn *conn = &srv->conns[i];

		if (conn->used && conn->pending.active &&
		    try_pending(srv, conn))
			ncp_finish_pending(srv, conn, NCP_CC_OK);
	}
}

void ncp_locks_timeout(struct ipx_loop *loop, struct ipx_timer *t, void *ctx)
{
	struct ncp_pending *pd = ctx;

	(void)loop;
	(void)t;
	if (pd->active)
		ncp_finish_pending(pd->srv, pd->conn, NCP_CC_TIMEOUT);
}

void ncp_locks_release(struct ncp_server *srv, struct ncp_conn *conn,
		       int task)
{
	bool any = false;

	for (size_t i = srv->nlocks; i-- > 0;)
		if (srv->locks[i].conn == conn &&
		    (task < 0 || srv->locks[i].task == task)) {
			remove_at(srv, i);
			any = true;
		}
	if (any)
		retry_waiting(srv);
}

void ncp_locks_close_file(struct ncp_server *srv, struct ncp_conn *conn,
			  const uint8_t *h)
{
	bool any = false;

	for (size_t i = srv->nlocks; i-- > 0;)
		if (srv->locks[i].conn == conn &&
		    !memcmp(srv->locks[i].handle, h, NCP_HANDLE_LEN)) {
			remove_at(srv, i);
			any = true;
		}
	if (any)
		retry_waiting(srv);
}

static void park(struct ncp_call *c, uint8_t flag, uint16_t timeout,
		 const uint8_t *h, uint32_t start, uint32_t len)
{
	struct ncp_pending *pd = &c->conn->pending;

	pd->active = true;
	pd->seq = c->hdr.seq;
	pd->task = c->hdr.task;
	pd->function = c->hdr.function;
	pd->flag = flag;
	if (h)
		memcpy(pd->handle, h, NCP_HANDLE_LEN);
	pd->start = start;
	pd->len = len;
	pd->ticket = c->srv->next_ticket++;
	ipx_timer_start(c->srv->loop, &pd->timer, ipx_ticks(timeout), 0);
	c->pending = true;
}

static void log_record(struct ncp_call *c)
{
	struct ncp_server *srv = c->srv;
	uint8_t flag = ncp_rd8(&c->rd);
	const uint8_t *h = ncp_rdn(&c->rd, NCP_HANDLE_LEN);
	uint32_t start = ncp_rd32(&c->rd), len = ncp_rd32(&c->rd);
	uint16_t timeout = ncp_rd16(&c->rd);
	struct ncp_file *f;
	struct ncp_lock *l;

	if (c->rd.bad) {
		ncp_malformed(c);
		return;
	}
	if (!(f = ncp_file_of(c, h))) {
		c->cc = NCP_CC_BAD_HANDLE;
		return;
	}
	l = find(srv, c->conn, h, start, len);
	if (!l) {
		if (c->conn->nlocks >= srv->max_locks) {
			c->cc = ncp_refuse(c, NCP_SRV_REF_LOCKS,
					   NCP_CC_NO_MEMORY);
			return;
		}
		if (srv->nlocks == srv->caplocks) {
			size_t nc = srv->caplocks ? srv->caplocks * 2 : 64;
			struct ncp_lock *nl = realloc(srv->locks,
						      nc * sizeof(*nl));

			if (!nl) {
				c->cc = NCP_CC_NO_MEMORY;
				return;
			}
			srv->locks = nl;
			srv->caplocks = nc;
		}
		l = &srv->locks[srv->nlocks++];
		memset(l, 0, sizeof(*l));
		l->conn = c->conn;
		l->task = c->hdr.task;
		l->dev = f->dev;
		l->ino = f->ino;
		memcpy(l->handle, h, NCP_HANDLE_LEN);
		l->start = start;
		l->len = len;
		c->conn->nlocks++;
	}
	if (flag == NCP_LOCK_LOG)
		return;
	if (can_grant(srv, l, flag == NCP_LOCK_SHARED, UINT64_MAX)) {
		l->locked = true;
		l->shared = flag == NCP_LOCK_SHARED;
		return;
	}
	if (timeout == 0)
		c->cc = NCP_CC_FAILURE;
	else
		park(c, flag, timeout, h, start, len);
}

/* 0x1C release / 0x1E clear one record: +7 reserved, +8 handle, +14
 * start, +18 length. */
static void one_record(struct ncp_call *c, bool clear)
{
	const uint8_t *h;
	uint32_t start, len;
	struct ncp_lock *l;

	ncp_rd8(&c->rd);
	h = ncp_rdn(&c->rd, NCP_HANDLE_LEN);
	start = ncp_rd32(&c->rd);
	len = ncp_rd32(&c->rd);
	if (c->rd.bad) {
		ncp_malformed(c);
		return;
	}
	l = find(c->srv, c->conn, h, start, len);
	if (!l) {
		c->cc = NCP_CC_FAILURE;
		return;
	}
	if (clear)
		remove_at(c->srv, (size_t)(l - c->srv->locks));
	else
		l->locked = false;
	retry_waiting(c->srv);
}

void ncp_fn_lock(struct ncp_call *c)
{
	struct ncp_server *srv = c->srv;
	uint8_t flag;
	uint16_t timeout;

	switch (c->hdr.function) {
	case 0x1A:
		log_record(c);
		return;
	case 0x1B:
		flag = ncp_rd8(&c->rd);
		timeout = ncp_rd16(&c->rd);
		if (c->rd.bad) {
			ncp_malformed(c);
		} else if (!lock_set(srv, c->conn, flag == NCP_LOCK_SHARED,
				     UINT64_MAX)) {
			if (timeout == 0)
				c->cc = NCP_CC_FAILURE;
			else
				park(c, flag, timeout, NULL, 0, 0);
		}
		return;
	case 0x1C:
		one_record(c, false);
		return;
	case 0x1E:
		one_record(c, true);
		return;
	case 0x1D:
	case 0x1F:
		for (size_t i = srv->nlocks; i-- > 0;) {
			if (srv->locks[i].conn != c->conn)
				continue;
			if (c->hdr.function == 0x1F)
				remove_at(srv, i);
			else
				srv->locks[i].locked = false;
		}
		retry_waiting(srv);
		return;
	}
}
