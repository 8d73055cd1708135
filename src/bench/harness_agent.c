/*
 * harness_agent.c - a benchmark agent (ipxlab/bench_harness.h): on its
 * own IPX node, it listens for a controller on an SPX socket advertised
 * by SAP, and runs the workloads it is told to (bench_work.h), one at a
 * time, answering each step with a message. A second controller while
 * one is connected is told the agent is busy.
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness_int.h"
#include "ipxlab/err.h"
#include "ipxlab/log.h"
#include "ipxlab/sap.h"

/* die: SIGKILL at the PREPARE; hang: answer nothing from it on;
 * vanish: answer READY, then SIGKILL (a peer that dies after set-up). */
enum fault_what { FAULT_NONE, FAULT_DIE, FAULT_HANG, FAULT_VANISH };

struct ipx_agent {
	struct ipx_node *node;
	struct ipx_loop *loop;
	struct spx *spx;
	struct spx_listener *listener;
	struct ipx_sap *sap;
	char name[IPX_HARNESS_NAME_MAX + 1];
	bool once, done;
	bool in_process;	/* HELLO: pid 0 */
	/* the controller's session */
	struct hconn conn;
	bool connected, greeted, hung;
	bool vanish;		/* fault: SIGKILL once READY is out */
	struct ipx_hmsg msg;	/* scratch: too large for the stack */
	/* the workload of the current run */
	struct ipx_bw *w;
	uint32_t run;
	cpu_set_t mask0;	/* the CPUs it may use when not pinned */
	/* tests: misbehave at one PREPARE */
	enum fault_what fault;
	enum ipx_bw_kind fault_kind;
	unsigned fault_repeat;
};

static const struct spx_handlers agent_handlers;

static void parse_fault(struct ipx_agent *a, const char *spec)
{
	char buf[96], *save = NULL, *name, *kind, *rep, *what;

	if (!spec || !*spec || strlen(spec) >= sizeof(buf))
		return;
	strcpy(buf, spec);
	name = strtok_r(buf, ":", &save);
	kind = strtok_r(NULL, ":", &save);
	rep = strtok_r(NULL, ":", &save);
	what = strtok_r(NULL, ":", &save);
	if (!name || !kind || !rep || !what || strcmp(name, a->name) ||
	    ipx_bw_kind_parse(kind, &a->fault_kind) != IPX_OK)
		return;
	a->fault_repeat = (unsigned)strtoul(rep, NULL, 10);
	a->fault = !strcmp(what, "die")	     ? FAULT_DIE
		   : !strcmp(what, "hang")   ? FAULT_HANG
		   : !strcmp(what, "vanish") ? FAULT_VANISH
					     : FAULT_NONE;
	if (a->fault)
		ipx_warn("agent '%s': fault injection: %s at %s repeat %u",
			 a->name, what, kind, a->fault_repeat);
}

static void send_msg(struct ipx_agent *a, struct ipx_hmsg *m)
{
	if (a->connected && !a->hung && hconn_send(&a->conn, m) != IPX_OK)
		ipx_warn("agent '%s': cannot send %s", a->name,
			 ipx_hmsg_type_name(m->type));
}

static void send_error(struct ipx_agent *a, uint32_t run, const char *text)
{
	memset(&a->msg, 0, offsetof(struct ipx_hmsg, u));
	a->msg.type = IPX_HMSG_ERROR;
	a->msg.run = run;
	snprintf(a->msg.u.text, sizeof(a->msg.u.text), "%s", text);
	send_msg(a, &a->msg);
}

static void drop_workload(struct ipx_agent *a)
{
	ipx_bw_free(a->w);
	a->w = NULL;
}

/* Back to waiting for a controller. */
static void end_session(struct ipx_agent *a)
{
	bool was = a->connected;

	drop_workload(a);
	a->connected = a->greeted = a->hung = false;
	if (was)
		hconn_free(&a->conn);	/* its on_closed finds us done */
	sched_setaffinity(0, sizeof(a->mask0), &a->mask0);
	if (a->once)
		a->done = true;
}

/* ---- the workload's events ---- */

static void on_work(struct ipx_bw *w, enum ipx_bw_event ev, void *ctx)
{
	struct ipx_agent *a = ctx;
	struct ipx_hmsg *m = &a->msg;

	if (w != a->w)
		return;
	memset(m, 0, offsetof(struct ipx_hmsg, u));
	m->run = a->run;
	switch (ev) {
	case IPX_BW_READY:
		m->type = IPX_HMSG_READY;
		memset(&m->u.ready, 0, sizeof(m->u.ready));
		ipx_bw_info(w, &m->u.ready.info);
		m->u.ready.cpu = sched_getcpu();
		break;
	case IPX_BW_DONE:
		m->type = IPX_HMSG_RESULT;
		ipx_bw_result(w, &m->u.result);
		break;
	case IPX_BW_FAILED:
	default:
		m->type = IPX_HMSG_ERROR;
		snprintf(m->u.text, sizeof(m->u.text), "%s",
			 ipx_bw_error(w) ? ipx_bw_error(w) : "workload failed");
		break;
	}
	send_msg(a, m);
	if (ev == IPX_BW_READY && a->vanish) {
		for (size_t i = 0; i < ipx_node_link_count(a->node); i++) {
			struct ipx_link *l = ipx_node_link(a->node, i);

			l->ops->flush(l);
		}
		kill(getpid(), SIGKILL);
	}
}

/* ---- the controller's commands ---- */

static int pin(struct ipx_agent *a, int cpu, char *err, size_t errlen)
{
	cpu_set_t set;

	if (cpu < 0) {
		sched_setaffinity(0, sizeof(a->mask0), &a->mask0);
		return IPX_OK;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, &a->mask0) ||
	    sched_setaffinity(0, sizeof(set), &set) < 0) {
		hset_err(err, errlen, "cannot run on CPU %d: this agent may "
				      "use %d CPU%s (--pin none avoids "
				      "pinning)",
			 cpu, CPU_COUNT(&a->mask0),
			 CPU_COUNT(&a->mask0) == 1 ? "" : "s");
		return IPX_EINVAL;
	}
	return IPX_OK;
}

static void prepare(struct ipx_agent *a, const struct ipx_hmsg_prepare *p,
		    uint32_t run)
{
	struct ipx_bw_params params = p->params;
	struct ipx_link *link = ipx_node_link(a->node, 0);
	char err[256];
	int rc;

	drop_workload(a);
	a->run = run;
	if (a->fault && p->params.kind == a->fault_kind &&
	    p->repeat == a->fault_repeat && a->fault == FAULT_VANISH) {
		a->vanish = true;
	} else if (a->fault && p->params.kind == a->fault_kind &&
		   p->repeat == a->fault_repeat) {
		if (a->fault == FAULT_DIE)
			kill(getpid(), SIGKILL);
		a->hung = true;	/* answers nothing from now on */
		return;
	}
	if (pin(a, p->cpu, err, sizeof(err)) != IPX_OK) {
		send_error(a, run, err);
		return;
	}
	/* The UDP baseline runs the tunnel's path: the receiver binds the
	 * address the hub knows it by (the first 4 bytes of its node); so
	 * does a credit window's socket. */
	if ((params.kind == IPX_BW_UDP || params.window) &&
	    p->role == IPX_BW_RECEIVER &&
	    params.udp_bind.s_addr == 0 && link && !strcmp(link->kind, "udp"))
		memcpy(&params.udp_bind.s_addr, link->node, 4);
	rc = ipx_bw_new(a->node, a->loop, p->role, &params, on_work, a, &a->w,
			err, sizeof(err));
	if (rc != IPX_OK) {
		a->w = NULL;
		send_error(a, run, err[0] ? err : ipx_strerror(rc));
	}
}

static void command(struct ipx_agent *a, const struct ipx_hmsg *m)
{
	char err[128];

	if (!a->greeted) {
		if (m->type != IPX_HMSG_HELLO) {
			send_error(a, 0, "HELLO expected first");
			end_session(a);
			return;
		}
		a->greeted = true;
		ipx_info("agent '%s': controller '%s' (pid %u) connected",
			 a->name, m->u.hello.name, m->u.hello.pid);
		return;
	}
	switch (m->type) {
	case IPX_HMSG_PREPARE:
		prepare(a, &m->u.prepare, m->run);
		return;
	case IPX_HMSG_GO:
	case IPX_HMSG_FINISH:
		if (!a->w || m->run != a->run) {
			snprintf(err, sizeof(err), "%s for run %u, but run %u "
						   "is %s",
				 ipx_hmsg_type_name(m->type), m->run, a->run,
				 a->w ? "prepared" : "not prepared");
			send_error(a, m->run, err);
			return;
		}
		if (m->type == IPX_HMSG_FINISH) {
			ipx_bw_finish(a->w);
			return;
		}
		if (ipx_bw_go(a->w) != IPX_OK)
			send_error(a, m->run, ipx_bw_error(a->w)
						      ? ipx_bw_error(a->w)
						      : "cannot start");
		return;
	case IPX_HMSG_QUIT:
		ipx_info("agent '%s': the controller is done", a->name);
		spx_close(a->conn.spx);
		drop_workload(a);
		return;
	default:
		snprintf(err, sizeof(err), "an agent does not take %s",
			 ipx_hmsg_type_name(m->type));
		send_error(a, m->run, err);
		return;
	}
}

/* ---- the control session ---- */

static void on_data(struct spx_conn *c, const uint8_t *data, size_t len,
		    unsigned flags, uint8_t ds, void *ctx)
{
	struct ipx_agent *a = ctx;
	int rc;

	(void)c;
	(void)flags;
	(void)ds;
	if (a->hung)
		return;
	if (!hconn_feed(&a->conn, data, len)) {
		ipx_warn("agent '%s': %s", a->name, a->conn.err);
		end_session(a);
		return;
	}
	while (a->connected && !a->hung &&
	       (rc = hconn_next(&a->conn, &a->msg)) != IPX_EAGAIN) {
		if (rc != IPX_OK) {
			ipx_warn("agent '%s': bad message from the controller: "
				 "%s",
				 a->name, a->conn.err);
			send_error(a, 0, a->conn.err);
			spx_close(a->conn.spx);
			return;
		}
		command(a, &a->msg);
	}
}

static void on_sendable(struct spx_conn *c, void *ctx)
{
	struct ipx_agent *a = ctx;

	(void)c;
	hconn_push(&a->conn);
}

static void on_closed(struct spx_conn *c, int reason, void *ctx)
{
	struct ipx_agent *a = ctx;

	(void)c;
	a->conn.spx = NULL;	/* SPX frees it */
	if (!a->connected)
		return;		/* we are ending it ourselves */
	ipx_info("agent '%s': the control session ended (%s)", a->name,
		 ipx_strerror(reason));
	end_session(a);
}

static const struct spx_handlers agent_handlers = {
	.on_data = on_data,
	.on_sendable = on_sendable,
	.on_closed = on_closed,
};

/* A second controller: tell it, then hang up. */
static void on_busy_closed(struct spx_conn *c, int reason, void *ctx)
{
	(void)c;
	(void)reason;
	(void)ctx;
}

static void refuse(struct ipx_agent *a, struct spx_conn *c)
{
	static const struct spx_handlers h = { .on_closed = on_busy_closed };
	uint8_t buf[IPX_HMSG_HDR_LEN + 300];
	struct ipx_hmsg *m = &a->msg;
	size_t n;

	spx_set_handlers(c, &h, NULL);
	memset(m, 0, offsetof(struct ipx_hmsg, u));
	m->type = IPX_HMSG_ERROR;
	snprintf(m->u.text, sizeof(m->u.text),
		 "agent '%s' is busy with another controller", a->name);
	n = ipx_hmsg_encode(m, buf, sizeof(buf));
	if (n)
		spx_send(c, buf, n, SPX_EOM, 0);
	spx_close(c);
}

static void on_accept(struct spx_listener *l, struct spx_conn *c, void *ctx)
{
	struct ipx_agent *a = ctx;
	struct ipx_hmsg *m = &a->msg;

	(void)l;
	if (a->connected || a->done) {
		refuse(a, c);
		return;
	}
	if (hconn_init(&a->conn, c) != IPX_OK) {
		spx_abort(c);
		return;
	}
	spx_set_handlers(c, &agent_handlers, a);
	a->connected = true;
	memset(m, 0, offsetof(struct ipx_hmsg, u));
	m->type = IPX_HMSG_HELLO;
	memset(&m->u.hello, 0, sizeof(m->u.hello));
	m->u.hello.pid = a->in_process ? 0 : (uint32_t)getpid();
	m->u.hello.cpus = (uint16_t)CPU_COUNT(&a->mask0);
	snprintf(m->u.hello.name, sizeof(m->u.hello.name), "%s", a->name);
	send_msg(a, m);
}

/* ---- the API ---- */

int ipx_agent_new(struct ipx_node *node, const struct ipx_agent_opts *o,
		  struct ipx_agent **out, char *err, size_t errlen)
{
	struct ipx_agent *a;
	int rc;

	if (!o->name || !ipx_sap_name_ok(o->name) ||
	    strlen(o->name) > IPX_HARNESS_NAME_MAX) {
		hset_err(err, errlen, "an agent name is 1 to %d printable "
				      "characters (got '%s')",
			 IPX_HARNESS_NAME_MAX, o->name ? o->name : "");
		return IPX_EINVAL;
	}
	a = calloc(1, sizeof(*a));
	if (!a) {
		hset_err(err, errlen, "out of memory");
		return IPX_ENOMEM;
	}
	a->node = node;
	a->loop = ipx_node_loop(node);
	a->once = o->once;
	a->in_process = o->in_process;
	strcpy(a->name, o->name);
	if (sched_getaffinity(0, sizeof(a->mask0), &a->mask0) < 0) {
		CPU_ZERO(&a->mask0);
		for (long i = 0; i < sysconf(_SC_NPROCESSORS_ONLN); i++)
			CPU_SET((int)i, &a->mask0);
	}
	parse_fault(a, o->fault);
	a->spx = spx_new(node, NULL);
	if (!a->spx) {
		free(a);
		hset_err(err, errlen, "out of memory");
		return IPX_ENOMEM;
	}
	rc = spx_listen(a->spx, 0, on_accept, a, &a->listener);
	if (rc == IPX_OK)
		rc = ipx_sap_new(node, NULL, &a->sap);
	if (rc == IPX_OK)
		rc = ipx_sap_advertise(a->sap, IPX_HARNESS_SAP_TYPE, a->name,
				       spx_listener_socket(a->listener));
	if (rc != IPX_OK) {
		hset_err(err, errlen, "cannot start the agent: %s%s",
			 ipx_strerror(rc),
			 rc == IPX_EINUSE ? " (is another SAP agent running "
					    "in this node?)"
					  : "");
		ipx_agent_free(a);
		return rc;
	}
	*out = a;
	return IPX_OK;
}

void ipx_agent_free(struct ipx_agent *a)
{
	if (!a)
		return;
	end_session(a);
	if (a->sap) {
		ipx_sap_withdraw(a->sap, IPX_HARNESS_SAP_TYPE, a->name);
		ipx_sap_free(a->sap);
	}
	if (a->listener)
		spx_listener_close(a->listener);
	if (a->spx)
		spx_free(a->spx);
	free(a);
}

void ipx_agent_address(const struct ipx_agent *a, struct ipx_addr *out)
{
	ipx_node_address(a->node, out);
	out->socket = spx_listener_socket(a->listener);
}

bool ipx_agent_done(const struct ipx_agent *a)
{
	return a->done;
}
