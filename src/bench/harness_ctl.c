/*
 * harness_ctl.c - the benchmark controller (ipxlab/bench_harness.h):
 * finds agents by SAP, holds one SPX control session to each, and runs
 * benchmark runs on them with a barrier before GO. Every wait has a
 * deadline and watches for dead children, so a run fails with a message
 * naming the agent instead of hanging.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness_int.h"
#include "ipxlab/err.h"
#include "ipxlab/log.h"
#include "ipxlab/sap.h"

#define QUEUE_MAX 8		/* messages an agent may have unread */
#define TURN (10 * IPX_MSEC)	/* longest loop wait while waiting */
#define WATCH_EVERY (50 * IPX_MSEC)
#define QUERY_EVERY (250 * IPX_MSEC)
/* A session silent this long belongs to a dead agent (live agents send
 * SPX keepalives every 3 s at the defaults, and answer the controller's
 * probes at once). */
#define SILENT_DEAD (4 * IPX_SEC)

struct hagent {
	struct ipx_hctl_agent info;
	struct ipx_hctl *ctl;
	struct hconn conn;
	bool found, connecting, connected, closed, greeted;
	int close_reason;
	struct ipx_hmsg *queue[QUEUE_MAX];	/* received, not yet taken */
	size_t queued;
};

struct ipx_hctl {
	struct ipx_node *node;
	struct ipx_loop *loop;
	struct spx *spx;
	struct ipx_sap *sap;
	struct hagent agents[IPX_HNET_MAX_AGENTS];
	size_t n;
	ipx_hctl_watch_cb watch;
	void *watch_ctx;
	ipx_time next_watch;
	uint32_t next_run;
	const char *label;	/* of the run going on, for messages */
	/* agents with a task in the run going on: while the run waits on
	 * some of them, a session of another that ends fails it too (a
	 * standing receiver killed while its sender sends) */
	bool in_run[IPX_HNET_MAX_AGENTS];
	struct ipx_hmsg out;	/* scratch for messages to send */
};

/* ---- receiving ---- */

static void agent_fail(struct hagent *g, const char *why)
{
	g->closed = true;
	if (!g->conn.err[0])
		snprintf(g->conn.err, sizeof(g->conn.err), "%s", why);
}

static void on_data(struct spx_conn *c, const uint8_t *data, size_t len,
		    unsigned flags, uint8_t ds, void *ctx)
{
	struct hagent *g = ctx;
	struct ipx_hmsg *m;
	int rc;

	(void)c;
	(void)flags;
	(void)ds;
	if (g->closed)
		return;
	if (!hconn_feed(&g->conn, data, len)) {
		g->closed = true;
		return;
	}
	for (;;) {
		if (g->queued == QUEUE_MAX) {
			agent_fail(g, "it sent more messages than asked for");
			return;
		}
		m = malloc(sizeof(*m));
		if (!m) {
			agent_fail(g, "out of memory");
			return;
		}
		rc = hconn_next(&g->conn, m);
		if (rc != IPX_OK) {
			free(m);
			if (rc != IPX_EAGAIN)
				g->closed = true;	/* conn.err says why */
			return;
		}
		g->queue[g->queued++] = m;
	}
}

static void on_sendable(struct spx_conn *c, void *ctx)
{
	struct hagent *g = ctx;

	(void)c;
	hconn_push(&g->conn);
}

static void on_closed(struct spx_conn *c, int reason, void *ctx)
{
	struct hagent *g = ctx;

	(void)c;
	g->conn.spx = NULL;
	g->closed = true;
	g->close_reason = reason;
}

static void on_connected(struct spx_conn *c, int status, void *ctx)
{
	struct hagent *g = ctx;

	g->connecting = false;
	if (status == IPX_OK) {
		g->connected = true;
		return;
	}
	(void)c;
	g->conn.spx = NULL;
	g->closed = true;
	g->close_reason = status;
}

static const struct spx_handlers handlers = {
	.on_connected = on_connected,
	.on_data = on_data,
	.on_sendable = on_sendable,
	.on_closed = on_closed,
};

static void take(struct hagent *g)
{
	free(g->queue[0]);
	memmove(g->queue, g->queue + 1, (g->queued - 1) * sizeof(g->queue[0]));
	g->queued--;
}

/* ---- waiting ---- */

/* "agent 'receiver' (pid 1234)" */
static const char *who(const struct hagent *g, char *buf, size_t len)
{
	if (g->info.pid)
		snprintf(buf, len, "agent '%s' (pid %u)", g->info.name,
			 g->info.pid);
	else
		snprintf(buf, len, "agent '%s'", g->info.name);
	return buf;
}

static void during(const struct ipx_hctl *c, char *err, size_t errlen)
{
	size_t n = err ? strlen(err) : 0;

	if (c->label && err && n < errlen)
		snprintf(err + n, errlen - n, " during %s", c->label);
}

/* Run the loop once; fail if the watch reports a death or we were
 * interrupted. */
static int turn(struct ipx_hctl *c, char *err, size_t errlen)
{
	int rc = ipx_loop_run_once(c->loop, TURN);

	if (rc < 0 && rc != IPX_EAGAIN) {
		hset_err(err, errlen, "event loop: %s", ipx_strerror(rc));
		return rc;
	}
	if (ipx_loop_stopped(c->loop)) {
		hset_err(err, errlen, "interrupted");
		return IPX_ECLOSED;
	}
	if (c->watch && ipx_loop_now(c->loop) >= c->next_watch) {
		c->next_watch = ipx_loop_now(c->loop) + WATCH_EVERY;
		if (c->watch(c->watch_ctx, err, errlen)) {
			during(c, err, errlen);
			return IPX_EIO;
		}
	}
	return IPX_OK;
}

/* An agent's session ended or went bad: prefer the watch's account
 * (a dead child says how it died). */
static int lost(struct ipx_hctl *c, struct hagent *g, char *err,
		size_t errlen)
{
	char w[96];

	if (c->watch) {
		/* A child that died needs a moment to be reapable. */
		ipx_time until = ipx_loop_now(c->loop) + 300 * IPX_MSEC;

		do {
			if (c->watch(c->watch_ctx, err, errlen)) {
				during(c, err, errlen);
				return IPX_EIO;
			}
			usleep(10000);
		} while (ipx_loop_now(c->loop) < until);
	}
	if (g->conn.err[0])
		hset_err(err, errlen, "%s: bad control message: %s",
			 who(g, w, sizeof(w)), g->conn.err);
	else
		hset_err(err, errlen, "%s closed the control session (%s)",
			 who(g, w, sizeof(w)), ipx_strerror(g->close_reason));
	during(c, err, errlen);
	return IPX_EIO;
}

/* How long an agent's session has been silent (0 when closed). The
 * controller's SPX asks a silent peer every half second after a second
 * (controller_config in cmd_protocols.c; spx_conn_watchdog), so a live
 * agent is never silent much longer than that. */
static ipx_time silence(const struct hagent *g)
{
	struct spx_status st;

	if (g->closed || !g->conn.spx)
		return 0;
	spx_get_status(g->conn.spx, &st);
	return st.silent;
}

/*
 * Agent 'g' reported ERROR in a run: often because its peer died (a
 * sender whose receiver vanished fails FIND NAME or its connect before
 * the controller's SPX gives the dead one up). Wait until every other
 * agent of the run has been heard from since (alive), its session ended,
 * or it has been silent for SILENT_DEAD; name it if it is gone. Returns
 * IPX_EIO with a message if so, IPX_OK to report g's own error.
 */
static int blame_silent(struct ipx_hctl *c, const struct hagent *g,
			const char *text, char *err, size_t errlen)
{
	ipx_time t0 = ipx_loop_now(c->loop);
	ipx_time until = t0 + SILENT_DEAD + IPX_SEC;
	char w[96], v[96];

	for (;;) {
		bool unknown = false;

		for (size_t i = 0; i < c->n; i++) {
			struct hagent *o = &c->agents[i];
			ipx_time quiet = silence(o);

			if (!c->in_run[i] || o == g)
				continue;
			if (o->closed && !o->queued) {
				lost(c, o, err, errlen);
				return IPX_EIO;
			}
			if (quiet >= SILENT_DEAD) {
				hset_err(err, errlen, "%s stopped answering "
						      "(silent for %.1f s; "
						      "then %s failed: %s)",
					 who(o, v, sizeof(v)),
					 (double)quiet / IPX_SEC,
					 who(g, w, sizeof(w)), text);
				during(c, err, errlen);
				return IPX_EIO;
			}
			/* not heard since the error came: alive or not? */
			if (!o->closed && quiet >= ipx_loop_now(c->loop) - t0)
				unknown = true;
		}
		if (!unknown || ipx_loop_now(c->loop) >= until)
			return IPX_OK;
		if (turn(c, err, errlen) != IPX_OK)
			return IPX_EIO;
	}
}

/*
 * Wait until every agent in 'set' has a message of 'type' for 'run' at
 * the head of its queue (ERROR fails at once); leaves them there.
 */
static int wait_all(struct ipx_hctl *c, const bool *set, uint8_t type,
		    uint32_t run, ipx_time timeout, char *err, size_t errlen)
{
	ipx_time deadline = ipx_loop_now(c->loop) + timeout;
	char w[96];

	for (;;) {
		bool all = true;

		for (size_t i = 0; i < c->n; i++) {
			struct hagent *g = &c->agents[i];
			struct ipx_hmsg *m;

			if (!set[i])
				continue;
			/* Late words about an earlier (failed) run. */
			while (g->queued && g->queue[0]->run < run)
				take(g);
			m = g->queued ? g->queue[0] : NULL;
			if (m && m->type == IPX_HMSG_ERROR) {
				if (blame_silent(c, g, m->u.text, err,
						 errlen) != IPX_OK) {
					take(g);
					return IPX_EIO;
				}
				hset_err(err, errlen, "%s failed: %s",
					 who(g, w, sizeof(w)), m->u.text);
				during(c, err, errlen);
				take(g);
				return IPX_EIO;
			}
			if (m && (m->type != type || m->run != run)) {
				hset_err(err, errlen, "%s sent %s for run %u "
						      "where %s for run %u "
						      "was due",
					 who(g, w, sizeof(w)),
					 ipx_hmsg_type_name(m->type), m->run,
					 ipx_hmsg_type_name(type), run);
				during(c, err, errlen);
				return IPX_EIO;
			}
			if (!m && g->closed)
				return lost(c, g, err, errlen);
			if (!m)
				all = false;
		}
		for (size_t i = 0; i < c->n; i++)
			if (c->in_run[i] && !set[i] && c->agents[i].closed &&
			    !c->agents[i].queued)
				return lost(c, &c->agents[i], err, errlen);
		if (all)
			return IPX_OK;
		if (ipx_loop_now(c->loop) >= deadline) {
			for (size_t i = 0; i < c->n; i++) {
				if (!set[i] || c->agents[i].queued)
					continue;
				hset_err(err, errlen, "%s did not answer within "
						      "%.1f s (no %s)",
					 who(&c->agents[i], w, sizeof(w)),
					 (double)timeout / IPX_SEC,
					 ipx_hmsg_type_name(type));
				break;
			}
			during(c, err, errlen);
			return IPX_ETIMEOUT;
		}
		if (turn(c, err, errlen) != IPX_OK)
			return IPX_EIO;
	}
}

static int send_to(struct ipx_hctl *c, struct hagent *g,
		   const struct ipx_hmsg *m, char *err, size_t errlen)
{
	char w[96];

	if (g->closed || !g->conn.spx)
		return lost(c, g, err, errlen);
	if (hconn_send(&g->conn, m) != IPX_OK) {
		hset_err(err, errlen, "cannot send %s to %s",
			 ipx_hmsg_type_name(m->type), who(g, w, sizeof(w)));
		during(c, err, errlen);
		return IPX_EIO;
	}
	return IPX_OK;
}

/* ---- finding and greeting agents ---- */

static void on_sap(const struct ipx_header *hdr, const struct ipx_sap_msg *msg,
		   void *ctx)
{
	struct ipx_hctl *c = ctx;

	for (size_t k = 0; k < msg->count; k++) {
		const struct ipx_sap_entry *e = &msg->entries[k];

		if (e->type != IPX_HARNESS_SAP_TYPE || e->hops >= IPX_SAP_DOWN)
			continue;
		for (size_t i = 0; i < c->n; i++) {
			struct hagent *g = &c->agents[i];

			if (g->found || strcmp(g->info.name, e->name))
				continue;
			g->found = true;
			g->info.addr = e->addr;
			/* Network 0: the sender's, which is ours. */
			if (!g->info.addr.net)
				g->info.addr.net = hdr->src.net;
		}
	}
}

int ipx_hctl_new(struct ipx_node *node, struct ipx_hctl **out)
{
	struct ipx_hctl *c = calloc(1, sizeof(*c));
	int rc;

	if (!c)
		return IPX_ENOMEM;
	c->node = node;
	c->loop = ipx_node_loop(node);
	c->spx = spx_new(node, NULL);
	if (!c->spx) {
		free(c);
		return IPX_ENOMEM;
	}
	rc = ipx_sap_new(node, NULL, &c->sap);
	if (rc != IPX_OK) {
		spx_free(c->spx);
		free(c);
		return rc;
	}
	ipx_sap_on_response(c->sap, on_sap, c);
	c->next_run = 1;
	*out = c;
	return IPX_OK;
}

void ipx_hctl_set_watch(struct ipx_hctl *c, ipx_hctl_watch_cb cb, void *ctx)
{
	c->watch = cb;
	c->watch_ctx = ctx;
}

static int find_agents(struct ipx_hctl *c, ipx_time wait, char *err,
		       size_t errlen)
{
	ipx_time deadline = ipx_loop_now(c->loop) + wait, next_query = 0;

	for (;;) {
		size_t missing = c->n;

		for (size_t i = 0; i < c->n; i++)
			missing -= c->agents[i].found;
		if (!missing)
			return IPX_OK;
		if (ipx_loop_now(c->loop) >= deadline) {
			for (size_t i = 0; i < c->n; i++) {
				if (c->agents[i].found)
					continue;
				hset_err(err, errlen,
					 "no agent named '%s' answered a SAP "
					 "query (type %04X) within %.1f s: is "
					 "'ipxlab agent --name %s' running on "
					 "this network?",
					 c->agents[i].info.name,
					 IPX_HARNESS_SAP_TYPE,
					 (double)wait / IPX_SEC,
					 c->agents[i].info.name);
				break;
			}
			return IPX_ENOTFOUND;
		}
		if (ipx_loop_now(c->loop) >= next_query) {
			ipx_sap_query(c->sap, IPX_SAP_GENERAL_QUERY,
				      IPX_HARNESS_SAP_TYPE);
			next_query = ipx_loop_now(c->loop) + QUERY_EVERY;
		}
		if (turn(c, err, errlen) != IPX_OK)
			return IPX_EIO;
	}
}

static int greet(struct ipx_hctl *c, ipx_time wait, char *err, size_t errlen)
{
	bool set[IPX_HNET_MAX_AGENTS];
	struct ipx_hmsg hello;
	ipx_time deadline = ipx_loop_now(c->loop) + wait;
	char w[96];
	int rc;

	for (size_t i = 0; i < c->n; i++) {
		struct hagent *g = &c->agents[i];
		struct spx_conn *conn;

		if (hconn_init(&g->conn, NULL) != IPX_OK) {
			hset_err(err, errlen, "out of memory");
			return IPX_ENOMEM;
		}
		rc = spx_connect(c->spx, &g->info.addr, &handlers, g, &conn);
		if (rc != IPX_OK) {
			hset_err(err, errlen, "cannot connect to %s: %s",
				 who(g, w, sizeof(w)), ipx_strerror(rc));
			return rc;
		}
		g->conn.spx = conn;
		g->connecting = true;
		set[i] = true;
	}
	for (;;) {
		bool all = true;

		for (size_t i = 0; i < c->n; i++) {
			struct hagent *g = &c->agents[i];

			if (g->closed && !g->queued)
				return lost(c, g, err, errlen);
			all &= g->connected;
		}
		if (all)
			break;
		if (ipx_loop_now(c->loop) >= deadline) {
			for (size_t i = 0; i < c->n; i++)
				if (!c->agents[i].connected) {
					hset_err(err, errlen,
						 "%s did not accept an SPX "
						 "connection within %.1f s",
						 who(&c->agents[i], w,
						     sizeof(w)),
						 (double)wait / IPX_SEC);
					break;
				}
			return IPX_ETIMEOUT;
		}
		if (turn(c, err, errlen) != IPX_OK)
			return IPX_EIO;
	}
	memset(&hello, 0, sizeof(hello));
	hello.type = IPX_HMSG_HELLO;
	hello.u.hello.pid = (uint32_t)getpid();
	hello.u.hello.cpus = (uint16_t)sysconf(_SC_NPROCESSORS_ONLN);
	strcpy(hello.u.hello.name, "controller");
	for (size_t i = 0; i < c->n; i++)
		if ((rc = send_to(c, &c->agents[i], &hello, err, errlen)) !=
		    IPX_OK)
			return rc;
	rc = wait_all(c, set, IPX_HMSG_HELLO, 0, wait, err, errlen);
	if (rc != IPX_OK)
		return rc;
	for (size_t i = 0; i < c->n; i++) {
		struct hagent *g = &c->agents[i];
		const struct ipx_hmsg_hello *h = &g->queue[0]->u.hello;

		if (strcmp(h->name, g->info.name)) {
			hset_err(err, errlen, "the agent found as '%s' calls "
					      "itself '%s'",
				 g->info.name, h->name);
			return IPX_EIO;
		}
		g->info.pid = h->pid;
		g->info.cpus = h->cpus;
		g->greeted = true;
		take(g);
	}
	return IPX_OK;
}

int ipx_hctl_attach(struct ipx_hctl *c, const char *const *names, size_t n,
		    ipx_time wait, char *err, size_t errlen)
{
	int rc;

	if (c->n || !n || n > IPX_HNET_MAX_AGENTS) {
		hset_err(err, errlen, "1 to %d agents, once",
			 IPX_HNET_MAX_AGENTS);
		return IPX_EINVAL;
	}
	for (size_t i = 0; i < n; i++) {
		struct hagent *g = &c->agents[i];

		if (strlen(names[i]) > IPX_HARNESS_NAME_MAX ||
		    !ipx_sap_name_ok(names[i])) {
			hset_err(err, errlen, "bad agent name '%s'", names[i]);
			return IPX_EINVAL;
		}
		for (size_t k = 0; k < i; k++)
			if (!strcmp(names[k], names[i])) {
				hset_err(err, errlen, "agent '%s' named twice",
					 names[i]);
				return IPX_EINVAL;
			}
		memset(g, 0, sizeof(*g));
		g->ctl = c;
		strcpy(g->info.name, names[i]);
	}
	c->n = n;
	c->label = NULL;
	rc = find_agents(c, wait, err, errlen);
	if (rc == IPX_OK)
		rc = greet(c, wait, err, errlen);
	return rc;
}

size_t ipx_hctl_agent_count(const struct ipx_hctl *c)
{
	return c->n;
}

const struct ipx_hctl_agent *ipx_hctl_agent_at(const struct ipx_hctl *c,
					       size_t i)
{
	return i < c->n ? &c->agents[i].info : NULL;
}

/* ---- runs ---- */

static int check_run(const struct ipx_hctl *c, const struct ipx_hctl_run *r,
		     char *err, size_t errlen)
{
	bool used[IPX_HNET_MAX_AGENTS] = { false };

	for (size_t t = 0; t < r->ntasks; t++) {
		const struct ipx_hctl_task *k = &r->tasks[t];

		if (k->agent >= c->n || used[k->agent] ||
		    !c->agents[k->agent].greeted) {
			hset_err(err, errlen, "task %zu: agent %zu is not "
					      "attached or has two tasks",
				 t, k->agent);
			return IPX_EINVAL;
		}
		used[k->agent] = true;
		if (k->role == IPX_BW_SENDER && k->peer >= 0 &&
		    ((size_t)k->peer >= r->ntasks ||
		     r->tasks[k->peer].role != IPX_BW_RECEIVER)) {
			hset_err(err, errlen, "task %zu: its peer is not a "
					      "receiver",
				 t);
			return IPX_EINVAL;
		}
	}
	return IPX_OK;
}

/* Send type to every task of 'role'; mark their agents in set. */
static int send_role(struct ipx_hctl *c, const struct ipx_hctl_run *r,
		     enum ipx_bw_role role, uint8_t type, uint32_t run,
		     const struct ipx_hmsg_ready *ready, bool *set, char *err,
		     size_t errlen)
{
	struct ipx_hmsg *m = &c->out;
	int rc;

	memset(set, 0, IPX_HNET_MAX_AGENTS * sizeof(*set));
	for (size_t t = 0; t < r->ntasks; t++) {
		const struct ipx_hctl_task *k = &r->tasks[t];

		if (k->role != role)
			continue;
		memset(m, 0, sizeof(*m));
		m->type = (enum ipx_hmsg_type)type;
		m->run = run;
		if (type == IPX_HMSG_PREPARE) {
			m->u.prepare.role = k->role;
			m->u.prepare.cpu = k->cpu;
			m->u.prepare.repeat = r->repeat;
			m->u.prepare.params = k->params;
			if (role == IPX_BW_SENDER && k->peer >= 0)
				m->u.prepare.params.peer =
					ready[k->peer].info;
		}
		rc = send_to(c, &c->agents[k->agent], m, err, errlen);
		if (rc != IPX_OK)
			return rc;
		set[k->agent] = true;
	}
	return IPX_OK;
}

/* Take the head message of every task of 'role' into ready or results. */
static void collect(struct ipx_hctl *c, const struct ipx_hctl_run *r,
		    enum ipx_bw_role role, struct ipx_hmsg_ready *ready,
		    struct ipx_bw_result *results)
{
	for (size_t t = 0; t < r->ntasks; t++) {
		struct hagent *g = &c->agents[r->tasks[t].agent];

		if (r->tasks[t].role != role)
			continue;
		if (ready)
			ready[t] = g->queue[0]->u.ready;
		else
			results[t] = g->queue[0]->u.result;
		take(g);
	}
}

int ipx_hctl_run(struct ipx_hctl *c, const struct ipx_hctl_run *r,
		 struct ipx_bw_result *results, char *err, size_t errlen)
{
	struct ipx_hmsg_ready *ready;
	bool set[IPX_HNET_MAX_AGENTS];
	uint32_t run = c->next_run++;
	int rc;

	if (check_run(c, r, err, errlen) != IPX_OK)
		return IPX_EINVAL;
	ready = calloc(r->ntasks ? r->ntasks : 1, sizeof(*ready));
	if (!ready) {
		hset_err(err, errlen, "out of memory");
		return IPX_ENOMEM;
	}
	c->label = r->label;
	for (size_t t = 0; t < r->ntasks; t++)
		c->in_run[r->tasks[t].agent] = true;
	/* Receivers first: the senders need to know where to send. */
	rc = send_role(c, r, IPX_BW_RECEIVER, IPX_HMSG_PREPARE, run, NULL, set,
		       err, errlen);
	if (rc == IPX_OK)
		rc = wait_all(c, set, IPX_HMSG_READY, run, r->ready_timeout,
			      err, errlen);
	if (rc != IPX_OK)
		goto out;
	collect(c, r, IPX_BW_RECEIVER, ready, NULL);
	rc = send_role(c, r, IPX_BW_SENDER, IPX_HMSG_PREPARE, run, ready, set,
		       err, errlen);
	/* The barrier: every sender READY before any GO. */
	if (rc == IPX_OK)
		rc = wait_all(c, set, IPX_HMSG_READY, run, r->ready_timeout,
			      err, errlen);
	if (rc != IPX_OK)
		goto out;
	collect(c, r, IPX_BW_SENDER, ready, NULL);
	if (r->span)
		r->span->go = ipx_loop_now(c->loop);
	rc = send_role(c, r, IPX_BW_SENDER, IPX_HMSG_GO, run, NULL, set, err,
		       errlen);
	if (rc == IPX_OK)
		rc = wait_all(c, set, IPX_HMSG_RESULT, run, r->run_timeout, err,
			      errlen);
	if (rc != IPX_OK)
		goto out;
	if (r->span)
		r->span->results = ipx_loop_now(c->loop);
	collect(c, r, IPX_BW_SENDER, NULL, results);
	rc = send_role(c, r, IPX_BW_RECEIVER, IPX_HMSG_FINISH, run, NULL, set,
		       err, errlen);
	if (rc == IPX_OK)
		rc = wait_all(c, set, IPX_HMSG_RESULT, run, r->finish_timeout,
			      err, errlen);
	if (rc == IPX_OK)
		collect(c, r, IPX_BW_RECEIVER, NULL, results);
out:
	free(ready);
	c->label = NULL;
	memset(c->in_run, 0, sizeof(c->in_run));
	return rc;
}

void ipx_hctl_free(struct ipx_hctl *c)
{
	struct ipx_hmsg quit;
	ipx_time until;

	if (!c)
		return;
	memset(&quit, 0, sizeof(quit));
	quit.type = IPX_HMSG_QUIT;
	for (size_t i = 0; i < c->n; i++) {
		struct hagent *g = &c->agents[i];

		if (g->conn.spx && !g->closed && g->greeted)
			hconn_send(&g->conn, &quit);
	}
	/* Let the QUITs leave (bounded: a dead agent never answers). */
	until = ipx_loop_now(c->loop) + 200 * IPX_MSEC;
	while (ipx_loop_now(c->loop) < until) {
		bool pending = false;

		for (size_t i = 0; i < c->n; i++) {
			struct hagent *g = &c->agents[i];
			struct spx_status st;

			if (!g->conn.spx || g->closed)
				continue;
			spx_get_status(g->conn.spx, &st);
			pending |= st.queued_bytes || g->conn.out_len;
		}
		ipx_time before = ipx_loop_now(c->loop);

		if (!pending)
			break;
		ipx_loop_run_once(c->loop, TURN);
		/* a stopped loop (SIGINT) runs nothing, and a simulated
		 * clock then never moves: give up the wait */
		if (ipx_loop_stopped(c->loop) &&
		    ipx_loop_now(c->loop) == before)
			break;
	}
	for (size_t i = 0; i < c->n; i++) {
		struct hagent *g = &c->agents[i];

		while (g->queued)
			take(g);
		if (g->conn.in)
			hconn_free(&g->conn);
	}
	ipx_sap_free(c->sap);
	spx_free(c->spx);
	free(c);
}
