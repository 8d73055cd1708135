/*
 * pool.c - the connections of a mount: one NCP client per node, each
 * node with its own loop, used by one thread at a time (the client
 * library is single-threaded; a connection is handed between threads
 * under the pool's mutex). Path calls take any free connection, so
 * independent requests are in flight on separate connections; an open
 * file keeps the connection that opened it (NCP handles belong to one
 * connection). A connection whose server stopped answering is marked
 * down; the next call on it looks for the server again by name,
 * connects and logs in again, and bumps its generation, which makes the
 * files opened on it before stale. A pump thread runs the loops of idle
 * connections so the server's watchdog polls and the hub are answered.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ipxlab/err.h"
#include "ipxlab/log.h"
#include "mount_int.h"

static void on_stall(void *ctx, bool answering)
{
	struct mconn *c = ctx;

	if (answering)
		ipx_info("mount: connection %u: server answering again",
			 c->idx);
	else
		ipx_warn("mount: connection %u: server not responding, still "
			 "trying",
			 c->idx);
}

/* The client options for a retry time: the NetWare back-off (100 ms
 * doubling) capped at 1 s, as many tries as fit. */
void mnt_client_opts(double retry, struct ncp_client_opts *co)
{
	ipx_time total = (ipx_time)(retry * IPX_SEC), t = 0, rto = IPX_SEC / 10;
	int n = 0;

	memset(co, 0, sizeof(*co));
	co->rto = IPX_SEC / 10;
	co->rto_max = IPX_SEC;
	co->busy_wait = IPX_SEC;
	while (t + rto <= total) {
		t += rto;
		n++;
		rto = rto * 2 > IPX_SEC ? IPX_SEC : rto * 2;
	}
	co->retries = n > 1 ? n - 1 : 0;
	co->on_stall = on_stall;
	co->stall_after = total / 2 > IPX_SEC ? IPX_SEC : total / 2;
}

bool mnt_lost(int rc)
{
	return rc < 0 || rc == NCP_E_TIMEOUT || rc == NCP_E_CANCELLED ||
	       rc == NCP_E_INTERRUPTED || rc == NCP_E_NOTCONN ||
	       (rc >= NCP_E_STATUS && rc < NCP_E_TIMEOUT);
}

int mnt_errno(int rc)
{
	if (rc == 0)
		return 0;
	if (mnt_lost(rc) || rc == NCP_E_BADREPLY || rc == NCP_E_NOSERVER)
		return EIO;
	switch (rc) {
	case MNT_E_NOTDIR:
		return ENOTDIR;
	case MNT_E_ISDIR:
		return EISDIR;
	case MNT_E_XDEV:
		return EXDEV;
	case NCP_E_NOT83:
		return ENAMETOOLONG;
	case NCP_CC_FAILURE:
	case NCP_CC_BAD_PATH:
	case NCP_CC_NO_VOLUME:
		return ENOENT;
	case NCP_CC_NAME_EXISTS:
		return EEXIST;
	case NCP_CC_BAD_NAME:
	case NCP_CC_CREATE_NAME:
		return EINVAL;
	case NCP_CC_DIR_IN_USE:
		return ENOTEMPTY;
	case NCP_CC_LOCK_FAIL:
	case NCP_CC_SOME_IN_USE:
	case NCP_CC_ALL_IN_USE:
		return EBUSY;
	case NCP_CC_REGION_LOCKED:
	case NCP_CC_TIMEOUT:
	case NCP_CC_BAD_STATION:
		return EAGAIN;
	case NCP_CC_NO_HANDLES:
		return EMFILE;
	case NCP_CC_DIR_FULL:
		return ENOSPC;
	case NCP_CC_NO_MEMORY:
		return ENOMEM;
	case NCP_CC_CROSS_VOLUME:
		return EXDEV;
	case NCP_CC_BAD_HANDLE:
		return EBADF;
	case NCP_CC_IO:
	case NCP_CC_DIR_IO:
		return EIO;
	case NCP_CC_UNKNOWN_REQUEST:
		return ENOSYS;
	case NCP_CC_SOME_RO:
	case NCP_CC_ALL_RO:
	case NCP_CC_NO_WRITE:
	case NCP_CC_NO_OPEN:
	case NCP_CC_NO_CREATE:
	case NCP_CC_NO_CREATE_DELETE:
	case NCP_CC_NO_SEARCH:
	case NCP_CC_NO_DELETE:
	case NCP_CC_NO_RENAME:
	case NCP_CC_NO_MODIFY:
	case NCP_CC_NO_READ:
		return EACCES;
	default:
		return EIO;
	}
}

/* Look for the server (by the name found first, after the first time),
 * connect, log in, negotiate. Called with c taken. */
int mnt_connect(struct mnt *m, struct mconn *c)
{
	const struct ipx_mount_opts *o = m->o;
	struct ipx_addr addr;
	char found[48] = "";
	const char *name;
	ipx_time to;
	int rc;

	pthread_mutex_lock(&m->mu);
	name = m->found[0] ? m->found : o->server;
	snprintf(found, sizeof(found), "%s", name ? name : "");
	pthread_mutex_unlock(&m->mu);
	to = (ipx_time)((c->ever_up ? m->refind_timeout : m->find_timeout) *
			IPX_SEC);
	c->stage = "finding";
	rc = ncp_find_server(c->cl, c->sap, found[0] ? found : NULL, to, &addr,
			     found);
	if (rc)
		return rc;
	pthread_mutex_lock(&m->mu);
	if (!m->found[0])
		snprintf(m->found, sizeof(m->found), "%s", found);
	pthread_mutex_unlock(&m->mu);
	c->stage = "connecting to";
	rc = ncp_connect(c->cl, &addr);
	if (!rc && o->user) {
		c->stage = "login to";
		rc = ncp_login(c->cl, o->user, o->password ? o->password : "");
	}
	if (!rc) {
		c->stage = "negotiating the buffer size with";
		rc = ncp_negotiate(c->cl, o->bufsize ? o->bufsize : 4096);
	}
	if (rc)
		return rc;
	pthread_mutex_lock(&m->mu);
	m->long_names = ncp_long_names(c->cl);
	pthread_mutex_unlock(&m->mu);
	if (c->ever_up)
		ipx_info("mount: connection %u: connected again to %s and "
			 "logged in; files opened before are stale",
			 c->idx, found);
	c->up = true;
	c->ever_up = true;
	pthread_mutex_lock(&m->mu);	/* op_flush reads it */
	c->gen++;
	pthread_mutex_unlock(&m->mu);
	return 0;
}

/* Take connection 'want' (or any free one, up ones first, if -1),
 * waiting while it is busy. */
struct mconn *mnt_take(struct mnt *m, int want)
{
	struct mconn *c = NULL;

	pthread_mutex_lock(&m->mu);
	for (;;) {
		if (want >= 0) {
			if (!m->c[want].busy)
				c = &m->c[want];
		} else {
			for (unsigned k = 0; k < m->n && !c; k++) {
				struct mconn *x = &m->c[(m->rr + k) % m->n];

				if (!x->busy && x->up)
					c = x;
			}
			for (unsigned k = 0; k < m->n && !c; k++)
				if (!m->c[k].busy)
					c = &m->c[k];
			m->rr++;
		}
		if (c)
			break;
		pthread_cond_wait(&m->cv, &m->mu);
	}
	c->busy = true;
	pthread_mutex_unlock(&m->mu);
	return c;
}

static ipx_time now_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ipx_time)ts.tv_sec * IPX_SEC + (ipx_time)ts.tv_nsec / 1000;
}

/* Give back without a verdict on the server. */
void mnt_give_quiet(struct mnt *m, struct mconn *c)
{
	pthread_mutex_lock(&m->mu);
	c->busy = false;
	pthread_cond_broadcast(&m->cv);
	pthread_mutex_unlock(&m->mu);
}

/*
 * Take and make sure it is connected: NULL with *rc set if it cannot be.
 * While the server is silent (a request had no answer for the retry
 * time) calls fail at once with EIO, but for one probe a second (a
 * request, or a new connection for one that is down): so a dead server
 * costs one retry time, not one per connection, and its return is seen
 * within a second.
 */
struct mconn *mnt_take_up(struct mnt *m, int want, int *rc)
{
	struct mconn *c = mnt_take(m, want);
	bool refuse = false;

	pthread_mutex_lock(&m->mu);
	if (m->silent) {
		ipx_time now = now_mono();

		if (ipx_time_before(now, m->next_probe))
			refuse = true;
		else
			m->next_probe = now + IPX_SEC;
	}
	pthread_mutex_unlock(&m->mu);
	if (refuse) {
		*rc = NCP_E_TIMEOUT;
		mnt_give_quiet(m, c);
		return NULL;
	}
	*rc = c->up ? 0 : mnt_connect(m, c);
	if (*rc) {
		if (*rc == NCP_E_NOSERVER)
			*rc = NCP_E_TIMEOUT;
		mnt_give(m, c, *rc);
		return NULL;
	}
	return c;
}

/* Give back; a failure that means the connection is gone marks it
 * down, and one without an answer the server silent. True if the call
 * is worth one more try on a new connection: the server answered that
 * it does not know this connection (it was restarted at the same
 * address). */
bool mnt_give(struct mnt *m, struct mconn *c, int rc)
{
	bool again = false;

	if (mnt_lost(rc) && c->up) {
		c->up = false;
		again = rc >= NCP_E_STATUS && rc < NCP_E_TIMEOUT;
		ipx_warn("mount: connection %u lost: %s", c->idx,
			 ncp_strerror(rc));
	}
	pthread_mutex_lock(&m->mu);
	if (rc == NCP_E_TIMEOUT) {
		if (!m->silent)
			m->next_probe = now_mono() + IPX_SEC;
		m->silent = true;
		/* The others are to the same silent server: each connects
		 * again at its next use, rather than wait out its own
		 * retries (a busy one finds out itself). */
		for (unsigned k = 0; k < m->n; k++)
			if (!m->c[k].busy)
				m->c[k].up = false;
	} else if (!mnt_lost(rc)) {
		m->silent = false;
	}
	c->busy = false;
	pthread_cond_broadcast(&m->cv);
	pthread_mutex_unlock(&m->mu);
	return again;
}

/* The least used connection for a new open file. */
int mnt_pick(struct mnt *m)
{
	unsigned best = 0;

	pthread_mutex_lock(&m->mu);
	for (unsigned k = 1; k < m->n; k++)
		if (m->c[k].nfiles < m->c[best].nfiles)
			best = k;
	m->c[best].nfiles++;
	pthread_mutex_unlock(&m->mu);
	return (int)best;
}

void mnt_unpick(struct mnt *m, int idx)
{
	pthread_mutex_lock(&m->mu);
	if (m->c[idx].nfiles)
		m->c[idx].nfiles--;
	pthread_mutex_unlock(&m->mu);
}

static void *pump(void *arg)
{
	struct mnt *m = arg;
	struct timespec ts = { 0, 200 * 1000 * 1000 };

	pthread_mutex_lock(&m->mu);
	while (!m->stopping) {
		for (unsigned k = 0; k < m->n; k++) {
			struct mconn *c = &m->c[k];

			if (c->busy)
				continue;
			c->busy = true;
			pthread_mutex_unlock(&m->mu);
			for (int i = 0; i < 16; i++)
				if (ipx_loop_run_once(c->n.loop, 0) < 0)
					break;
			pthread_mutex_lock(&m->mu);
			c->busy = false;
			pthread_cond_broadcast(&m->cv);
		}
		pthread_mutex_unlock(&m->mu);
		nanosleep(&ts, NULL);
		pthread_mutex_lock(&m->mu);
	}
	pthread_mutex_unlock(&m->mu);
	return NULL;
}

static int first_only(const struct ncp_entry *e, void *ctx)
{
	(void)e;
	(void)ctx;
	return 1;
}

int mnt_pool_open(struct mnt *m)
{
	const struct ipx_mount_opts *o = m->o;
	struct ncp_client_opts co;
	sigset_t set, old;
	int rc;

	m->n = o->conns ? o->conns : 4;
	m->find_timeout = o->find_timeout > 0 ? o->find_timeout : 3;
	m->refind_timeout = m->retry < 1 ? m->retry : 1;
	m->c = calloc(m->n, sizeof(*m->c));
	if (!m->c)
		return ENOMEM;
	pthread_mutex_init(&m->mu, NULL);
	pthread_cond_init(&m->cv, NULL);
	mnt_client_opts(m->retry, &co);
	co.allow_clear_text = o->clear_text;
	co.long_names = !o->dos_names;
	co.no_burst = o->no_burst;
	for (unsigned k = 0; k < m->n; k++) {
		struct mconn *c = &m->c[k];

		c->idx = k;
		if (o->open_node(o->ctx, &c->n) != 0)
			return EIO;
		c->opened = true;
		co.stall_ctx = c;
		rc = ipx_sap_new(c->n.node, NULL, &c->sap);
		if (rc == IPX_OK)
			rc = ncp_client_new(c->n.node, &co, &c->cl);
		if (rc != IPX_OK) {
			fprintf(stderr, "ipxlab mount: cannot start a client: "
					"%s\n",
				ipx_strerror(rc));
			return EIO;
		}
		rc = mnt_connect(m, c);
		if (!rc && k == 0) {
			/* The volume, once: its root listed (an empty one
			 * answers 0xFF, no more entries). */
			char root[20];

			snprintf(root, sizeof(root), "%s:", m->vol);
			c->stage = "volume";
			rc = ncp_list(c->cl, root, NULL, first_only, NULL);
			if (rc == NCP_CC_FAILURE)
				rc = 0;
			if (rc) {
				fprintf(stderr, "ipxlab mount: volume %s on %s: "
						"%s\n",
					m->vol, m->found, ncp_strerror(rc));
				return EIO;
			}
		}
		if (rc) {
			if (rc == NCP_E_NOSERVER)
				fprintf(stderr, "ipxlab mount: no file server "
						"%s%sanswered within %.1f s\n",
					o->server ? o->server : "",
					o->server ? " " : "", m->find_timeout);
			else
				fprintf(stderr, "ipxlab mount: %s %s%s%s: %s\n",
					c->stage,
					o->user && !strcmp(c->stage, "login to")
						? o->user : "",
					o->user && !strcmp(c->stage, "login to")
						? " on " : "",
					m->found[0]  ? m->found
					: o->server ? o->server
						    : "the server",
					ncp_strerror(rc));
			return EIO;
		}
	}
	/* The pump blocks the signals, as libfuse's threads do: the main
	 * thread takes them (to unmount). */
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGQUIT);
	pthread_sigmask(SIG_BLOCK, &set, &old);
	rc = pthread_create(&m->pump, NULL, pump, m);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0)
		return EAGAIN;
	m->pumping = true;
	return 0;
}

void mnt_pool_close(struct mnt *m)
{
	if (m->pumping) {
		pthread_mutex_lock(&m->mu);
		m->stopping = true;
		pthread_mutex_unlock(&m->mu);
		pthread_join(m->pump, NULL);
	}
	for (unsigned k = 0; m->c && k < m->n; k++) {
		struct mconn *c = &m->c[k];

		/* A connection that is down is not destroyed (that would
		 * wait out the retries again); the server's watchdog clears
		 * it. */
		if (c->cl && c->up)
			ncp_client_free(c->cl);
		else if (c->cl)
			ncp_client_abandon(c->cl);
		if (c->sap)
			ipx_sap_free(c->sap);
		if (c->opened && m->o->close_node)
			m->o->close_node(m->o->ctx, &c->n);
	}
	free(m->c);
	m->c = NULL;
}
